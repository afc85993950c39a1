/* md-special-values: NaN, INF, +INF and -INF are not allowed as attribute values (FMI 2.0.4 §2.2,
 * B-006; 2.0.4 added INF). The parser turns every non-finite number into an ATTR_SYNTAX issue
 * (and stores NaN); those whose value is such a literal are reported here, other malformed
 * numbers (including overflow such as 1e999) by md-attribute-syntax. */
#include <string.h>

#include "check.h"
#include "md_util.h"

/* The xs:double spellings of the special values: NaN, INF, -INF (and +INF, which XSD 1.1 added);
 * "nan", "inf", "Infinity" and the like are no xs:double (strtod reads them, a schema validator
 * does not). */
static int xsd_spelling(const char *v)
{
    while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r')
        v++;
    size_t n = strlen(v);
    while (n && (v[n - 1] == ' ' || v[n - 1] == '\t' || v[n - 1] == '\n' || v[n - 1] == '\r'))
        n--;
    return (n == 3 && (strncmp(v, "NaN", 3) == 0 || strncmp(v, "INF", 3) == 0)) ||
           (n == 4 && (strncmp(v, "-INF", 4) == 0 || strncmp(v, "+INF", 4) == 0));
}

/* FMI 3.0 (§2.4; fmi3-rules B-008, S/T): NaN and INF are valid xs:double literals. They are
 * suspicious where they bound or scale a value (min, max, nominal, clock intervals and shifts):
 * a warning there, a note elsewhere. Other spellings of them are no xs:double: a violation of
 * the schema's letter (a C importer's strtod reads them). */
static void run3(const fmuc_md *md, fmuc_result *res)
{
    static const char *const doubtful[] = {"min", "max", "nominal", "intervalDecimal",
                                           "shiftDecimal"};
    for (size_t i = 0; i < md->nissues; i++) {
        const fmuc_md_issue *is = &md->issues[i];
        if (strcmp(fmuc_mdu__issue_owner(md, is), "md-special-values") != 0)
            continue;
        if (!xsd_spelling(fmuc_mdu__str(is->value))) {
            fmuc_result_violation_letter(res, "line %u: <%s> %s=\"%s\" is not a valid xs:double "
                                              "(the special values are spelled NaN, INF and "
                                              "-INF)",
                                         (unsigned)is->line, fmuc_mdu__str(is->element),
                                         fmuc_mdu__str(is->attribute), fmuc_mdu__str(is->value));
            continue;
        }
        int warn = 0;
        for (size_t k = 0; k < sizeof doubtful / sizeof doubtful[0]; k++)
            warn |= is->attribute && strcmp(is->attribute, doubtful[k]) == 0;
        if (warn)
            fmuc_result_warn(res, "line %u: <%s> %s=\"%s\": a valid xs:double in FMI 3.0, but "
                             "a non-finite %s gives importers no usable bound or scale",
                             (unsigned)is->line, fmuc_mdu__str(is->element), is->attribute,
                             fmuc_mdu__str(is->value), is->attribute);
        else
            fmuc_result_note(res, "line %u: <%s> %s=\"%s\" (valid in FMI 3.0)",
                             (unsigned)is->line, fmuc_mdu__str(is->element),
                             fmuc_mdu__str(is->attribute), fmuc_mdu__str(is->value));
    }
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    if (s->fmu->md.fmi == FMUC_FMI3) {
        run3(&s->fmu->md, res);
        return;
    }
    fmuc_mdu__report_issues(&s->fmu->md, "md-special-values", res);
}

const fmuc_check fmuc_check_md_special_values = {
    .id = "md-special-values",
    .title = "no NaN or INF literals in attribute values (FMI 3.0: not in bounds and scales)",
    .spec = "FMI 2.0.4 §2.2; FMI 3.0.2 §2.4",
    .level = FMUC_LEVEL_MUST,
    .why = "NaN and INF are not valid xs:double literals for FMI; parsers read them as errors, "
           "zero or infinity depending on the tool, so bounds and start values differ between "
           "importers.",
    .fix = "Leave out min/max/start/nominal that would be infinite or undefined; an absent bound "
           "means unbounded. Write only finite numbers.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
