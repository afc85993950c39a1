/* md-well-formed: modelDescription.xml is well-formed UTF-8 XML with root fmiModelDescription and no
 * DOCTYPE (FMI 2.0.4 §2.2, B-001). */
#include <string.h>

#include "check.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_fmu *fmu = s->fmu;
    if (!fmu->has_md_file) {
        fmuc_result_na(res, "modelDescription.xml is missing");
        return;
    }
    const fmuc_md *md = &fmu->md;
    size_t n = 0;
    for (size_t i = 0; i < md->nissues; i++) {
        const fmuc_md_issue *is = &md->issues[i];
        if (is->kind != FMUC_ISSUE_XML)
            continue;
        n++;
        fmuc_result_violation(res, "modelDescription.xml line %u: %s", is->line,
                              is->message ? is->message : "XML error");
    }
    if (!fmu->md_parsed && n == 0)
        fmuc_result_violation(res, "modelDescription.xml could not be parsed");
    if (fmu->md_parsed && md->root_name && strcmp(md->root_name, "fmiModelDescription") != 0)
        fmuc_result_violation(res, "root element is <%s>, expected <fmiModelDescription>",
                              md->root_name);
}

const fmuc_check fmuc_check_md_well_formed = {
    .id = "md-well-formed",
    .title = "modelDescription.xml is well-formed XML with root fmiModelDescription",
    .spec = "FMI 2.0.4 §2.2",
    .level = FMUC_LEVEL_MUST,
    .applies = FMUC_APPLIES_ANY,
    .needs = FMUC_NEEDS_ARCHIVE,
    .run = run,
};
