/* The registry: checks.def expanded into the run-order table. */
#include <fnmatch.h>
#include <string.h>

#include "check.h"

const fmuc_check *const fmuc_checks[] = {
#define FMUC_CHECK(name) &fmuc_check_##name,
#include "checks.def"
#undef FMUC_CHECK
    NULL};

size_t fmuc_checks_count(void)
{
    return sizeof fmuc_checks / sizeof fmuc_checks[0] - 1;
}

size_t fmuc_checks_count_for_version(int fmi_version)
{
    size_t n = 0;
    for (size_t i = 0; fmuc_checks[i]; i++)
        n += fmi_version >= 1 && fmi_version <= 3 &&
             (fmuc_checks[i]->versions & (1u << (fmi_version - 1))) != 0;
    return n;
}

const fmuc_check *fmuc_check_find(const char *id)
{
    for (size_t i = 0; fmuc_checks[i]; i++)
        if (strcmp(fmuc_checks[i]->id, id) == 0)
            return fmuc_checks[i];
    return NULL;
}

int fmuc_check_id_matches(const char *pattern, const char *id)
{
    return fnmatch(pattern, id, 0) == 0;
}

const char *fmuc_check_profile_level(const fmuc_check *c, fmuc_profile p)
{
    if (p == FMUC_PROFILE_STRICT)
        return "must"; /* every warning fails */
    if (p == FMUC_PROFILE_INTEROP && c->level == FMUC_LEVEL_MUST) {
        if (c->interop == FMUC_INTEROP_WARN)
            return "should";
        if (c->interop == FMUC_INTEROP_SOME)
            return "must/should";
    }
    return fmuc_level_name(c->level);
}

void fmuc_check_profiles(const fmuc_check *c, fmuc_result *r, fmuc_profile selected)
{
    fmuc_result_profiles(r, c->interop == FMUC_INTEROP_WARN, c->interop_why, selected);
    r->why = c->why;
    r->fix = c->fix;
    /* the report's level: the check's effective level under the selected profile */
    if (selected == FMUC_PROFILE_STRICT)
        r->level = FMUC_LEVEL_MUST;
    else if (selected == FMUC_PROFILE_INTEROP && c->interop == FMUC_INTEROP_WARN)
        r->level = FMUC_LEVEL_SHOULD;
}
