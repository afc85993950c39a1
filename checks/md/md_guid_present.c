/* md-guid-present: the guid attribute is present and not blank (FMI 2.0.4 §2.2.1). */
#include <ctype.h>

#include "check.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    /* FMI 3.0 §2.4.1: instantiationToken replaces guid */
    const char *g = md->fmi == FMUC_FMI3 ? md->instantiation_token : md->guid;
    const char *attr = md->fmi == FMUC_FMI3 ? "instantiationToken" : "guid";
    if (!g) {
        fmuc_result_violation(res, "<fmiModelDescription> (line %u): attribute '%s' is missing",
                              md->root_line, attr);
        return;
    }
    const unsigned char *p = (const unsigned char *)g;
    while (*p && isspace(*p))
        p++;
    if (!*p)
        fmuc_result_violation(res, "<fmiModelDescription> (line %u): attribute '%s' is empty",
                              md->root_line, attr);
}

const fmuc_check fmuc_check_md_guid_present = {
    .id = "md-guid-present",
    .title = "guid (FMI 3.0: instantiationToken) is present and non-empty",
    .spec = "FMI 2.0.4 §2.2.1; FMI 3.0.2 §2.4.1; FMI 1.0 ME (fmiModelDescription.xsd: guid required)",
    .level = FMUC_LEVEL_MUST,
    .why = "Without a guid, importers have nothing to pass to fmi2Instantiate to prove that the "
           "XML matches the binary; many refuse to load the FMU at all.",
    .fix = "Generate a unique guid for each export (e.g. a UUID in braces), write it to "
           "modelDescription.xml and compile the same value into the binary.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
