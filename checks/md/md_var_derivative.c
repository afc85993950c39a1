/* md-var-derivative: derivative="k" on a Real names variable k, 1 <= k <= number of variables,
 * and that variable is a Real (FMI 2.0.4 §2.2.7, B-214; FMPy range check). A self-reference
 * (derivative of itself) is noted. FMI 3.0: a derivative and its variable have the same
 * dimensions (§2.4.7.5 says the derivative is "of" the variable, element by element; derived:
 * warn, B-215). The Derivatives list of ModelStructure: md-ms-*. */
#include <stdio.h>

#include "check.h"
#include "fmuc/fmuc_sim.h"
#include "md_util.h"

#define MAXDIMS 8

/* "[2][3]", "scalar", or "(unknown sizes)" into buf */
static const char *dims_text(char *buf, size_t n, size_t nel, const size_t *dims, size_t ndims)
{
    if (!nel)
        return snprintf(buf, n, "(unknown sizes)"), buf;
    if (!ndims)
        return snprintf(buf, n, "scalar"), buf;
    size_t at = 0;
    for (size_t k = 0; k < ndims && k < MAXDIMS && at < n; k++)
        at += (size_t)snprintf(buf + at, n - at, "[%zu]", dims[k]);
    return buf;
}

/* FMI 3.0: the dimensions (sizes) of variable i and of the variable it is the derivative of */
static void same_dimensions(const fmuc_md *md, size_t i, size_t t, fmuc_result *res)
{
    size_t da[MAXDIMS], db[MAXDIMS], na, nb;
    size_t ea = fmuc_sim_var_elements(md, i, da, MAXDIMS, &na);
    size_t eb = fmuc_sim_var_elements(md, t, db, MAXDIMS, &nb);
    if (!ea || !eb)
        return; /* a size that cannot be known: md-var-arrays */
    int same = na == nb;
    for (size_t k = 0; same && k < na && k < MAXDIMS; k++)
        same = da[k] == db[k];
    if (same)
        return;
    char d[FMUC_MDU_DESC_LEN], d2[FMUC_MDU_DESC_LEN], a[96], b[96];
    fmuc_result_warn(res, "%s is %s but the variable it is the derivative of, %s, is %s",
                     fmuc_mdu__var_desc(d, sizeof d, &md->vars[i]),
                     dims_text(a, sizeof a, ea, da, na),
                     fmuc_mdu__var_desc(d2, sizeof d2, &md->vars[t]),
                     dims_text(b, sizeof b, eb, db, nb));
}

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
        else if (md->fmi == FMUC_FMI3)
            same_dimensions(md, i, v->derivative - 1, res);
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
