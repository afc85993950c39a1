/* md-attribute-syntax: attribute values are of their XSD type: xs:int is 32-bit signed,
 * xs:unsignedInt 0..4294967295, xs:boolean true/false/1/0, xs:double a number, enumerations one
 * of their values (FMI 2.0.4 §2.2, B-005). Reports the parser's ATTR_SYNTAX issues (NaN/INF go to
 * md-special-values, root attributes with own checks to those). */
#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    fmuc_mdu__report_issues(&s->fmu->md, "md-attribute-syntax", res);
}

const fmuc_check fmuc_check_md_attribute_syntax = {
    .id = "md-attribute-syntax",
    .title = "attribute values match their XSD types and ranges",
    .spec = "FMI 2.0.4 §2.2; FMI 3.0.2 §2.4",
    .level = FMUC_LEVEL_MUST,
    .why = "An attribute that is not of its XSD type (e.g. 1.5 for an int, yes for a boolean) is "
           "read differently by each importer or rejected, so the FMU's meaning depends on the "
           "tool.",
    .fix = "Write attribute values in their schema types (xs:int, xs:unsignedInt, true/false, "
           "decimal numbers, enumeration literals) and validate modelDescription.xml against the "
           "FMI 2.0 XSD.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
