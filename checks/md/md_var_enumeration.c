/* md-var-enumeration: an Enumeration variable has a declaredType (required by
 * fmi2ScalarVariable.xsd; FMI 2.0.4 §2.2.7, B-213). Whether it names an Enumeration type:
 * md-var-declared-type; start among the items: md-var-enumeration-start. */
#include <string.h>

#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    fmuc_mdu_imap missing;
    char d[FMUC_MDU_DESC_LEN];
    if (fmuc_mdu__issue_keys(&missing, md, FMUC_ISSUE_ATTR_MISSING) < 0) {
        fmuc_mdu__imap_free(&missing);
        fmuc_result_error(res, "out of memory");
        return;
    }
    for (size_t i = 0; i < md->nissues; i++) {
        const fmuc_md_issue *is = &md->issues[i];
        if (strcmp(fmuc_mdu__issue_owner(md, is), "md-var-enumeration") == 0)
            fmuc_result_violation(res, "line %u: %s", (unsigned)is->line,
                                  is->message ? is->message
                                              : "Enumeration variable without declaredType");
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (v->type != FMUC_TYPE_ENUMERATION || v->declared_type)
            continue;
        uint64_t k1 = fmuc_mdu__issue_key(FMUC_ISSUE_ATTR_MISSING, "declaredType", v->type_line);
        uint64_t k2 = fmuc_mdu__issue_key(FMUC_ISSUE_ATTR_MISSING, "declaredType", v->line);
        if (fmuc_mdu__imap_get(&missing, k1, NULL) || fmuc_mdu__imap_get(&missing, k2, NULL))
            continue;
        fmuc_result_violation(res, "%s: Enumeration variable without declaredType",
                              fmuc_mdu__var_desc(d, sizeof d, v));
    }
    fmuc_mdu__imap_free(&missing);
}

const fmuc_check fmuc_check_md_var_enumeration = {
    .id = "md-var-enumeration",
    .title = "Enumeration variables have a declaredType",
    .spec = "FMI 2.0.4 §2.2.7; FMI 3.0.2 §2.4.7.5; FMI 1.0 ME (fmiScalarVariable.xsd: Enumeration declaredType required)",
    .level = FMUC_LEVEL_MUST,
    .why = "An Enumeration variable without declaredType has no items: importers cannot show, "
           "validate or map its values and schema validation fails.",
    .fix = "Add declaredType naming the Enumeration SimpleType that lists the variable's items.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
