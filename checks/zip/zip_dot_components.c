/* zip-dot-components: no ".." path components (zip-slip) and no "." components such as a "./"
 * prefix (FMI 2.0.4 §2.3, A-09; fmi-standard#547). */
#include <string.h>

#include "check.h"
#include "zip_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_zip_listing *l = &s->fmu->listing;
    char shown[512];
    for (size_t i = 0; i < l->nentries; i++) {
        const fmuc_zip_entry *e = &l->entries[i];
        const char *p = e->name ? e->name : "";
        int dotdot = 0, dot = 0;
        while (*p) {
            /* Backslash-separated names are split too: an importer may treat '\' as separator. */
            size_t len = strcspn(p, "/\\");
            if (len == 2 && p[0] == '.' && p[1] == '.')
                dotdot = 1;
            else if (len == 1 && p[0] == '.')
                dot = 1;
            p += len;
            if (*p)
                p++;
        }
        zipu_show(shown, sizeof shown, e->name);
        if (dotdot || (e->problems & FMUC_ZIP_DOTDOT))
            ZIPU_VIOLATION(s, res, "entry '%s': '..' path component (points outside the FMU)",
                                  shown);
        if (dot || (e->problems & FMUC_ZIP_DOT_PREFIX))
            ZIPU_VIOLATION(s, res, "entry '%s': '.' path component (\"./\" prefix)", shown);
    }
}

const fmuc_check fmuc_check_zip_dot_components = {
    .id = "zip-dot-components",
    .title = "Entry names have no '..' or '.' components",
    .spec = "FMI 2.0.4 §2.3; FMI 3.0.2 §2.5; FMI 1.0 ME (FMU distribution; a heuristic in 1.0)",
    .level = FMUC_LEVEL_MUST,
    .why = "An entry named with '..' can be extracted outside the importer's target folder "
           "(zip-slip) and overwrite files; '.' components confuse path matching.",
    .fix = "Store entries with clean relative paths (no '..' or '.' components, no './' prefix), "
           "e.g. by zipping from inside the FMU's root folder.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_ARCHIVE,
    .run = run,
};
