/* md-model-identifier: ModelExchange/CoSimulation@modelIdentifier is a non-empty C identifier
 * ([A-Za-z_][A-Za-z0-9_]*): it prefixes the C functions of source/static FMUs and names the shared
 * library, so it must also be a valid file name on every platform (no path, not a reserved Windows
 * device name such as CON or NUL) (FMI 2.0.4 §3.3.1, §4.3.1, §2.3; VDM validIdentifier). */
#include <string.h>
#include <strings.h>

#include "check.h"
#include "md_util.h"

static int is_c_identifier(const char *s)
{
    if (!s || !*s)
        return 0;
    for (const char *p = s; *p; p++) {
        char ch = *p;
        int alpha = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '_';
        int digit = ch >= '0' && ch <= '9';
        if (!alpha && !(digit && p != s))
            return 0;
    }
    return 1;
}

static int windows_reserved(const char *s)
{
    static const char *const names[] = {"CON", "PRN", "AUX", "NUL", NULL};
    for (size_t i = 0; names[i]; i++)
        if (strcasecmp(s, names[i]) == 0)
            return 1;
    if ((strncasecmp(s, "COM", 3) == 0 || strncasecmp(s, "LPT", 3) == 0) && s[3] >= '1' &&
        s[3] <= '9' && s[4] == '\0')
        return 1;
    return 0;
}

static void one(fmuc_result *res, const fmuc_md_interface *f, const char *el)
{
    const char *id = f->model_identifier;
    if (!f->present || !id)
        return; /* absent attribute: md-required-attributes */
    if (!is_c_identifier(id))
        fmuc_result_violation(res, "line %u: <%s> modelIdentifier=\"%.200s\" is not a C identifier "
                              "([A-Za-z_][A-Za-z0-9_]*, non-empty)%s", (unsigned)f->line, el, id,
                              strpbrk(id, "/\\:") ? "; it must not contain a path" : "");
    else if (windows_reserved(id))
        fmuc_result_violation(res, "line %u: <%s> modelIdentifier=\"%s\" is a reserved device name "
                              "on Windows and cannot name the library file", (unsigned)f->line, el,
                              id);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    one(res, &md->me, "ModelExchange");
    one(res, &md->cs, "CoSimulation");
}

const fmuc_check fmuc_check_md_model_identifier = {
    .id = "md-model-identifier",
    .title = "modelIdentifier is a C identifier and a safe file name",
    .spec = "FMI 2.0.4 §3.3.1, §4.3.1",
    .level = FMUC_LEVEL_MUST,
    .applies = FMUC_APPLIES_ANY,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
