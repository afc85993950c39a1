/* zip-sources-fmi-headers: sources/ should not ship fmi2TypesPlatform.h, fmi2FunctionTypes.h or
 * fmi2Functions.h; the importer's copies must be used (FMI 2.0.4 §2.3, A-18). */
#include <string.h>

#include "check.h"
#include "zip_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    static const char *const headers2[] = {"fmi2TypesPlatform.h", "fmi2FunctionTypes.h",
                                           "fmi2Functions.h"};
    /* FMI 1.0: sources/ holds what is needed to build "with exception of" the standard headers
     * (ME: fmiModelTypes.h, fmiModelFunctions.h; CS: fmiPlatformTypes.h, fmiFunctions.h) */
    static const char *const headers1[] = {"fmiModelTypes.h", "fmiModelFunctions.h",
                                           "fmiPlatformTypes.h", "fmiFunctions.h"};
    int fmi1 = fmuc_fmu_fmi_version(s->fmu) == 1;
    static const char *const headers3[] = {"fmi3PlatformTypes.h", "fmi3FunctionTypes.h",
                                           "fmi3Functions.h"};
    const char *const *headers = fmi1                                     ? headers1
                                 : s->fmu->md_parsed && s->fmu->md.fmi == FMUC_FMI3 ? headers3
                                                                                    : headers2;
    size_t nheaders = fmi1 ? 4 : 3;
    const fmuc_zip_listing *l = &s->fmu->listing;
    char shown[512];
    int any = 0;
    for (size_t i = 0; i < l->nentries; i++) {
        const char *n = l->entries[i].name;
        if (!zipu_under(n, "sources/"))
            continue;
        any = 1;
        const char *base = strrchr(n, '/') + 1;
        for (size_t k = 0; k < nheaders; k++)
            if (strcmp(base, headers[k]) == 0)
                fmuc_result_violation(res, "entry '%s': the FMI header %s should not be shipped; "
                                           "the importer compiles with its own copy",
                                      zipu_show(shown, sizeof shown, n), headers[k]);
    }
    if (!any)
        fmuc_result_na(res, "no sources/ folder");
}

const fmuc_check fmuc_check_zip_sources_fmi_headers = {
    .id = "zip-sources-fmi-headers",
    .title = "sources/ does not ship the standard FMI headers",
    .spec = "FMI 2.0.4 §2.3; FMI 3.0.2 §2.5.1.3; FMI 1.0 ME (FMU distribution)",
    .level = FMUC_LEVEL_SHOULD,
    .why = "Shipped copies of the FMI headers can shadow the importer's when compiling sources, "
           "so a modified or outdated header produces a binary with mismatched types or functions.",
    .fix = "Remove fmi2Functions.h, fmi2FunctionTypes.h and fmi2TypesPlatform.h from sources/ and "
           "compile against the importer's standard headers.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_ARCHIVE,
    .run = run,
};
