/* md-var-derivative: derivative="k" on a Real names variable k, 1 <= k <= number of variables,
 * and that variable is a Real (FMI 2.0.4 §2.2.7, B-214; FMPy range check). A self-reference
 * (derivative of itself) is noted. The Derivatives list of ModelStructure: md-ms-*. */
#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    char d[FMUC_MDU_DESC_LEN], d2[FMUC_MDU_DESC_LEN];
    size_t n = 0;
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (!(v->has & FMUC_HAS_DERIVATIVE))
            continue;
        n++;
        const fmuc_md_var *t =
            v->derivative >= 1 && v->derivative <= md->nvars ? &md->vars[v->derivative - 1] : NULL;
        if (!t && v->derivative == 0 &&
            fmuc_mdu__issue_at(md, FMUC_ISSUE_ATTR_SYNTAX, NULL, "derivative", v->type_line))
            continue; /* not a number: md-attribute-syntax */
        if (!t && md->fmi == FMUC_FMI3)
            /* FMI 3.0 §2.4.7.5: derivative is the valueReference of the differentiated variable
             * (the parser resolves it; 0 when no variable has it) */
            fmuc_result_violation(res, "%s: derivative is not the valueReference of any variable",
                                  fmuc_mdu__var_desc(d, sizeof d, v));
        else if (!t)
            fmuc_result_violation(res, "%s: derivative=\"%u\" is not a variable index (1..%zu)",
                                  fmuc_mdu__var_desc(d, sizeof d, v), (unsigned)v->derivative,
                                  md->nvars);
        else if (t->type != FMUC_TYPE_REAL && t->type != FMUC_TYPE_NONE)
            fmuc_result_violation(res, "%s: derivative refers to %s, a %s; states are %s",
                                  fmuc_mdu__var_desc(d, sizeof d, v),
                                  fmuc_mdu__var_desc(d2, sizeof d2, t),
                                  fmuc_mdu__var_type_name(md, t),
                                  md->fmi == FMUC_FMI3 ? "Float32 or Float64" : "Real");
        else if (v->derivative == i + 1)
            fmuc_result_note(res, "%s: derivative refers to the variable itself",
                             fmuc_mdu__var_desc(d, sizeof d, v));
    }
    if (!n)
        fmuc_result_na(res, "no variable has a derivative attribute");
}

const fmuc_check fmuc_check_md_var_derivative = {
    .id = "md-var-derivative",
    .title = "derivative attributes refer to Real variables",
    .spec = "FMI 2.0.4 §2.2.7; FMI 3.0.2 §2.4.7.5",
    .level = FMUC_LEVEL_MUST,
    .why = "The derivative attribute links a state derivative to its state; pointing it at a "
           "missing or non-Real variable makes Model Exchange importers build a wrong state "
           "vector.",
    .fix = "Set derivative to the 1-based index of the Real state variable whose derivative this "
           "is, and update it when variables are reordered.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
