/* md-xml-schema: every element and attribute is one the FMI 2.0 schema defines at that place
 * (fmi2ModelDescription.xsd; FMI 2.0.4 §2.2, B-002); for FMI 3.0 the fmi3 schema (§2.4; G-02: no
 * VendorAnnotations, Annotation has only type; G-03: String/Binary starts are <Start> children). Reports the parser's ELEMENT_UNKNOWN and
 * ATTR_UNKNOWN issues (capability flags on the wrong interface go to md-capability-flags). */
#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    fmuc_mdu__report_issues(&s->fmu->md, "md-xml-schema", res);
}

const fmuc_check fmuc_check_md_xml_schema = {
    .id = "md-xml-schema",
    .title = "only elements and attributes defined by the FMI schema",
    .spec = "FMI 2.0.4 §2.2 (fmi2ModelDescription.xsd); FMI 3.0.2 §2.4 (fmi3ModelDescription.xsd); FMI 1.0 ME and CS (fmiModelDescription.xsd, fmiImplementation.xsd)",
    .level = FMUC_LEVEL_MUST,
    .why = "Schema-validating importers reject elements and attributes the FMI version does not "
           "define; others ignore them, so the information they carry is lost silently.",
    .fix = "Remove non-standard elements and attributes or move tool data into VendorAnnotations "
           "(FMI 3.0: Annotations), and validate against the XSD of the FMU's FMI version.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
