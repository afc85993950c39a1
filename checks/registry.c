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
