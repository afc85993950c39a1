/* md-fmi-attributes: fmiModelDescription attributes with fixed value sets:
 * variableNamingConvention is "flat" or "structured"; numberOfEventIndicators is an xs:unsignedInt
 * (FMI 2.0.4 §2.2.1, B.2). modelName presence: md-required-attributes; fmiVersion: md-fmi-version;
 * guid: md-guid-present; generationDateAndTime: md-generation-date. */
#include <string.h>

#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    const char *vnc = md->variable_naming_convention;
    int vnc_bad = vnc && strcmp(vnc, "flat") != 0 && strcmp(vnc, "structured") != 0;
    if (vnc_bad)
        fmuc_result_violation(res, "line %u: fmiModelDescription: variableNamingConvention=\"%s\" "
                              "is neither \"flat\" nor \"structured\"", (unsigned)md->root_line, vnc);
    /* issues routed here; the naming convention one is already reported from the model */
    for (size_t i = 0; i < md->nissues; i++) {
        const fmuc_md_issue *is = &md->issues[i];
        if (strcmp(fmuc_mdu__issue_owner(md, is), "md-fmi-attributes") != 0)
            continue;
        if (vnc_bad && is->attribute && strcmp(is->attribute, "variableNamingConvention") == 0)
            continue;
        fmuc_result_violation(res, "line %u: %s", (unsigned)is->line,
                              is->message ? is->message : fmuc_mdu__str(is->attribute));
    }
    if (md->fmi != FMUC_FMI1 && md->has_number_of_event_indicators && !md->me.present &&
        md->cs.present &&
        md->number_of_event_indicators > 0)
        fmuc_result_note(res, "numberOfEventIndicators=\"%u\" is ignored for a Co-Simulation-only "
                         "FMU", (unsigned)md->number_of_event_indicators);
}

const fmuc_check fmuc_check_md_fmi_attributes = {
    .id = "md-fmi-attributes",
    .title = "fmiModelDescription attribute values are valid",
    .spec = "FMI 2.0.4 §2.2.1; FMI 3.0.2 §2.4.1; FMI 1.0 ME (fmiModelDescription.xsd)",
    .level = FMUC_LEVEL_MUST,
    .why = "An importer that reads variableNamingConvention or numberOfEventIndicators with an "
           "invalid value misparses names or sizes the event indicator arrays wrongly.",
    .fix = "Write variableNamingConvention as \"flat\" or \"structured\" and "
           "numberOfEventIndicators as a non-negative integer that equals the number of event "
           "indicators the binary serves.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
