/* md-fmi-version: fmiVersion is exactly "2.0" (FMI 2.0.4 §2.2.1). */
#include <string.h>

#include "check.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    if (!md->fmi_version)
        fmuc_result_violation(res, "<fmiModelDescription> (line %u): attribute 'fmiVersion' is missing",
                              md->root_line);
    else if (md->fmi == FMUC_FMI1 && strcmp(md->fmi_version, "1.0") != 0)
        /* a "1.x" document is read as FMI 1.0; only "1.0" is valid ("1.0.1" is not) */
        fmuc_result_violation(res, "<fmiModelDescription> (line %u): fmiVersion=\"%s\", must be "
                              "\"1.0\" (fixed in the FMI 1.0 schema, also for 1.0.1)",
                              md->root_line, md->fmi_version);
    else if (md->fmi != FMUC_FMI1 && strcmp(md->fmi_version, "2.0") != 0)
        fmuc_result_violation(res,
                              "<fmiModelDescription> (line %u): fmiVersion=\"%s\", must be \"2.0\" "
                              "(also for FMUs made for 2.0.1 to 2.0.5)",
                              md->root_line, md->fmi_version);
}

const fmuc_check fmuc_check_md_fmi_version = {
    .id = "md-fmi-version",
    .title = "fmiVersion is \"2.0\" (FMI 1.0: \"1.0\")",
    .spec = "FMI 2.0.4 §2.2.1; FMI 1.0 ME (fmiModelDescription.xsd: fixed \"1.0\")",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers dispatch on fmiVersion; any value other than \"2.0\" makes them reject the "
           "FMU or read it with the rules of another FMI version.",
    .fix = "Write fmiVersion=\"2.0\" exactly (not \"2\", \"2.0.4\" or \"v2.0\") on "
           "fmiModelDescription.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
