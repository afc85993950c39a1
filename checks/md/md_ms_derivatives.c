/* md-ms-derivatives: ModelStructure/Derivatives (FMI 2.0.4 §2.2.8, §2.2.7; catalogue B-403, B-404,
 * B-215). Every entry is a state derivative (a Real variable with a derivative attribute), no
 * variable and no state is listed twice, the state a derivative points to is a Real, continuous
 * local or output. The continuous-time states are *defined* by this list (§2.2.8): a variable
 * with a derivative attribute need not be in it (it may relate two inputs, outputs or locals), so
 * a state missing from the list cannot be told from the XML (the dynamic checks compare nx).
 * A Co-Simulation-only FMU without providesDirectionalDerivative: the list is ignored (§2.2.8),
 * so nothing in it is judged. */
#include <stdlib.h>

#include "check.h"
#include "md_util.h"

/* an entry for messages (FMI 2.0: list and index; FMI 3.0: element and valueReference) and
 * a dependency (index or valueReference) */
#define UD(u) fmuc_mdu__unknown_desc(u_d, sizeof u_d, md, "Derivatives", (u))
#define DEP(u, k) (md->fmi == FMUC_FMI3 && (u)->deps_vr ? (u)->deps_vr[k] : (u)->deps[k])

static int local_or_output(const fmuc_md_var *v)
{
    return v->causality == FMUC_CAUS_LOCAL || v->causality == FMUC_CAUS_OUTPUT;
}

static void check_state(const fmuc_md *md, const fmuc_md_unknown *u, const fmuc_md_var *d,
                        fmuc_result *res)
{
    char u_d[FMUC_MDU_UNK_LEN];
    const fmuc_md_var *x = &md->vars[d->derivative - 1];
    if (x->type != FMUC_TYPE_REAL)
        fmuc_result_violation(res, "%s: the state of "
                              FMUC_MS_VAR ", " FMUC_MS_VAR " (index %u), is %s, not Real",
                              UD(u), FMUC_MS_VAR_ARGS(d),
                              FMUC_MS_VAR_ARGS(x), (unsigned)d->derivative,
                              fmuc_md_type_name((fmuc_type)x->type));
    else if (x->variability != FMUC_VAR_CONTINUOUS)
        fmuc_result_violation(res, "%s: the state of "
                              FMUC_MS_VAR ", " FMUC_MS_VAR " (index %u), has variability=\"%s\", "
                              "not \"continuous\"",
                              UD(u), FMUC_MS_VAR_ARGS(d),
                              FMUC_MS_VAR_ARGS(x), (unsigned)d->derivative,
                              fmuc_md_variability_name((fmuc_variability)x->variability));
    if (!local_or_output(x))
        fmuc_result_violation(res, "%s: the state of "
                              FMUC_MS_VAR ", " FMUC_MS_VAR " (index %u), has causality=\"%s\", "
                              "not \"local\" or \"output\"",
                              UD(u), FMUC_MS_VAR_ARGS(d),
                              FMUC_MS_VAR_ARGS(x), (unsigned)d->derivative,
                              fmuc_md_causality_name((fmuc_causality)x->causality));
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    char u_d[FMUC_MDU_UNK_LEN];
    const fmuc_md *md = &s->fmu->md;
    uint8_t *seen = calloc(md->nvars + 1, 2); /* [i]: entry seen; [n+1+i]: state seen */
    if (!seen) {
        fmuc_result_error(res, "out of memory");
        goto out;
    }
    uint8_t *state_seen = seen + md->nvars + 1;
    if (fmuc_ms__derivatives_ignored(md) && md->has_derivatives) {
        fmuc_result_na(res, "Co-Simulation-only FMU with providesDirectionalDerivative=\"false\": "
                       "ModelStructure/Derivatives (%zu entries) is ignored (FMI 2.0.4 §2.2.8)",
                       md->nderivatives);
        goto out;
    }
    if (md->has_derivatives && md->nderivatives == 0)
        fmuc_result_violation(res, "ModelStructure/Derivatives is present but has no Unknown; the "
                              "schema requires at least one (leave Derivatives out when there "
                              "are no states)");
    for (size_t i = 0; i < md->nderivatives && md->derivatives; i++) {
        const fmuc_md_unknown *u = &md->derivatives[i];
        if (!fmuc_ms__valid_index(md, u->index))
            continue; /* md-ms-indices */
        const fmuc_md_var *d = &md->vars[u->index - 1];
        if (seen[u->index]) {
            /* B-404: no duplicates is a D-level statement */
            fmuc_result_warn(res, "%s: " FMUC_MS_VAR
                                  " is listed more than once",
                                  UD(u), FMUC_MS_VAR_ARGS(d));
            continue;
        }
        seen[u->index] = 1;
        if (d->type != FMUC_TYPE_REAL) {
            fmuc_result_violation(res, "%s: " FMUC_MS_VAR
                                  " is %s; a state derivative must be Real",
                                  UD(u), FMUC_MS_VAR_ARGS(d),
                                  fmuc_md_type_name((fmuc_type)d->type));
            continue;
        }
        if (!(d->has & FMUC_HAS_DERIVATIVE) || d->derivative == 0) {
            fmuc_result_violation(res, "%s: " FMUC_MS_VAR
                                  " has no derivative attribute, so it is not a state "
                                  "derivative (is a state listed instead of its derivative?)",
                                  UD(u), FMUC_MS_VAR_ARGS(d));
            continue;
        }
        if (!fmuc_ms__valid_index(md, d->derivative))
            continue; /* the derivative attribute's own range check is elsewhere */
        const fmuc_md_var *x = &md->vars[d->derivative - 1];
        if (state_seen[d->derivative]) {
            fmuc_result_warn(res, "%s: " FMUC_MS_VAR
                                  " is a second derivative entry for the state " FMUC_MS_VAR,
                                  UD(u), FMUC_MS_VAR_ARGS(d),
                                  FMUC_MS_VAR_ARGS(x));
            continue;
        }
        state_seen[d->derivative] = 1;
        check_state(md, u, d, res);
    }

    cJSON *ev = fmuc_result_evidence(res);
    if (ev) {
        cJSON_AddNumberToObject(ev, "derivatives_listed", (double)md->nderivatives);
    }
out:
    free(seen);
}

const fmuc_check fmuc_check_md_ms_derivatives = {
    .id = "md-ms-derivatives",
    .title = "ModelStructure/Derivatives lists the state derivatives, each once",
    .spec = "FMI 2.0.4 §2.2.8, §2.2.7; FMI 3.0.2 §2.4.8",
    .level = FMUC_LEVEL_MUST,
    .why = "The Derivatives list defines the continuous states: wrong or duplicate entries give "
           "the solver a state vector of the wrong size or pair states with the wrong derivatives.",
    .fix = "List in Derivatives each state derivative exactly once: a Real whose derivative "
           "attribute points to a continuous Real local or output (the list's order is the state "
           "vector's).",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
