/* md-special-values: NaN, INF, +INF and -INF are not allowed as attribute values (FMI 2.0.4 §2.2,
 * B-006; 2.0.4 added INF). The parser turns every non-finite number into an ATTR_SYNTAX issue
 * (and stores NaN); those whose value is such a literal are reported here, other malformed
 * numbers (including overflow such as 1e999) by md-attribute-syntax. */
#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    fmuc_mdu__report_issues(&s->fmu->md, "md-special-values", res);
}

const fmuc_check fmuc_check_md_special_values = {
    .id = "md-special-values",
    .title = "no NaN or INF literals in attribute values",
    .spec = "FMI 2.0.4 §2.2",
    .level = FMUC_LEVEL_MUST,
    .why = "NaN and INF are not valid xs:double literals for FMI; parsers read them as errors, "
           "zero or infinity depending on the tool, so bounds and start values differ between "
           "importers.",
    .fix = "Leave out min/max/start/nominal that would be infinite or undefined; an absent bound "
           "means unbounded. Write only finite numbers.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
