/* md-attribute-syntax: attribute values are of their XSD type: xs:int is 32-bit signed,
 * xs:unsignedInt 0..4294967295, xs:boolean true/false/1/0, xs:double a number, enumerations one
 * of their values (FMI 2.0.4 §2.2, B-005). Reports the parser's ATTR_SYNTAX issues (NaN/INF go to
 * md-special-values, root attributes with own checks to those). FMI 3.0: also Binary <Start>
 * values are xs:hexBinary (§2.4.7.5); min/max beyond Int8..UInt64: md-var-min-max. */
#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    fmuc_mdu__report_issues(md, "md-attribute-syntax", res);
    /* FMI 3.0 §2.4.7.5 (fmi3Variable.xsd): the <Start value> of a Binary is xs:hexBinary */
    char d[FMUC_MDU_DESC_LEN];
    for (size_t i = 0; md->fmi == FMUC_FMI3 && i < md->nexts; i++) {
        const fmuc_md_var_ext *x = &md->exts[i];
        const fmuc_md_var *v = &md->vars[x->var];
        for (uint32_t k = 0; v->base == FMUC_BT_BINARY && k < x->nstarts; k++) {
            size_t at, nbytes;
            if (x->starts[k] && !fmuc_mdu__hex_binary(x->starts[k], &at, &nbytes))
                fmuc_result_violation(res, "%s: <Start value=\"%.60s\"> %u is no xs:hexBinary "
                                      "(an even number of hexadecimal digits; offset %zu)",
                                      fmuc_mdu__var_desc(d, sizeof d, v), x->starts[k], k + 1,
                                      at);
        }
    }
}

const fmuc_check fmuc_check_md_attribute_syntax = {
    .id = "md-attribute-syntax",
    .title = "attribute values match their XSD types and ranges",
    .spec = "FMI 2.0.4 §2.2; FMI 3.0.2 §2.4; FMI 1.0 ME (fmiModelDescription.xsd types)",
    .level = FMUC_LEVEL_MUST,
    .why = "An attribute that is not of its XSD type (e.g. 1.5 for an int, yes for a boolean) is "
           "read differently by each importer or rejected, so the FMU's meaning depends on the "
           "tool.",
    .fix = "Write attribute values in their schema types (xs:int, xs:unsignedInt, true/false, "
           "decimal numbers, enumeration literals) and validate modelDescription.xml against the "
           "FMI 2.0 XSD.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
