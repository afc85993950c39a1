/* md-well-formed: modelDescription.xml is well-formed UTF-8 XML with root fmiModelDescription and no
 * DOCTYPE (FMI 2.0.4 §2.2, B-001). Another encoding declared on a file whose bytes are all ASCII
 * is a violation of the letter only: every ASCII-compatible decoder (UTF-8 included) reads the
 * same characters, so no importer can be misled (interop warns). */
#include <string.h>

#include "check.h"

/* The parser's issue for a declared encoding other than UTF-8 (md_parse.c: value = the name). */
static int encoding_issue(const fmuc_md_issue *is)
{
    return is->line == 1 && is->value && is->element && !*is->element && !is->attribute &&
           is->message && strncmp(is->message, "encoding \"", 10) == 0;
}

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
        if (encoding_issue(is) && md->fmi == FMUC_FMI1) {
            /* FMI 1.0 names no encoding: any declared one that XML parsers read is accepted
             * (fmi1-rules B-002; fmusdk 1.0 and 20-sim write ISO-8859-1, FMPy reads them) */
            fmuc_result_note(res, "modelDescription.xml line %u: %s (FMI 1.0 does not require "
                             "UTF-8)", is->line, is->message);
            continue;
        }
        n++;
        if (encoding_issue(is) && md->xml_all_ascii)
            fmuc_result_violation_letter(res, "modelDescription.xml line %u: %s (every byte of "
                                         "the file is ASCII, which reads the same as UTF-8)",
                                         is->line, is->message);
        else
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
    .spec = "FMI 2.0.4 §2.2; FMI 3.0.2 §2.4; FMI 1.0 ME (fmiModelDescription.xsd)",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_SOME,
    .interop_why = "an encoding other than UTF-8 declared on a file whose bytes are all ASCII "
                   "reads the same in any ASCII-compatible decoder",
    .why = "An importer cannot read a modelDescription.xml that is not well-formed UTF-8 XML with "
           "root fmiModelDescription: the FMU does not load at all.",
    .fix = "Write the file as UTF-8 with encoding=\"UTF-8\" and no DOCTYPE, with "
           "fmiModelDescription as root, and check it with an XML parser such as xmllint.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_ARCHIVE,
    .run = run,
};
