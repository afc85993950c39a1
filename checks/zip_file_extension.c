/* zip-file-extension: the FMU file name ends in ".fmu" (FMI 2.0.4 §2.3, A-01). */
#include <string.h>

#include "check.h"
#include "zip_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const char *name = s->fmu->file_name;
    char shown[512];
    if (!name || !*name) {
        fmuc_result_na(res, "the FMU file name is not known");
        return;
    }
    size_t n = strlen(name);
    if (n <= 4 || strcmp(name + n - 4, ".fmu") != 0)
        fmuc_result_violation(res, "file name '%s' does not end in \".fmu\"",
                              zipu_show(shown, sizeof shown, name));
}

const fmuc_check fmuc_check_zip_file_extension = {
    .id = "zip-file-extension",
    .title = "The FMU file name has the extension .fmu",
    .spec = "FMI 2.0.4 §2.3",
    .level = FMUC_LEVEL_MUST,
    .applies = FMUC_APPLIES_ANY,
    .needs = FMUC_NEEDS_ARCHIVE,
    .run = run,
};
