/* md-ms-derivatives: ModelStructure/Derivatives (FMI 2.0.4 §2.2.8, §2.2.7; catalogue B-403, B-404,
 * B-215). Every entry is a state derivative (a Real variable with a derivative attribute), no
 * variable and no state is listed twice, the state a derivative points to is a Real, continuous
 * local or output, and (Model Exchange) the derivatives of all continuous-time states are listed. */
#include <stdlib.h>

#include "check.h"
#include "md_ms_util.h"

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int vr_in(const uint32_t *sorted, size_t n, uint32_t vr)
{
    return n && bsearch(&vr, sorted, n, sizeof *sorted, cmp_u32) != NULL;
}

static int local_or_output(const fmuc_md_var *v)
{
    return v->causality == FMUC_CAUS_LOCAL || v->causality == FMUC_CAUS_OUTPUT;
}

static void check_state(const fmuc_md *md, const fmuc_md_unknown *u, const fmuc_md_var *d,
                        fmuc_result *res)
{
    const fmuc_md_var *x = &md->vars[d->derivative - 1];
    if (x->type != FMUC_TYPE_REAL)
        fmuc_result_violation(res, "Derivatives/Unknown index=%u (line %u): the state of "
                              FMUC_MS_VAR ", " FMUC_MS_VAR " (index %u), is %s, not Real",
                              (unsigned)u->index, (unsigned)u->line, FMUC_MS_VAR_ARGS(d),
                              FMUC_MS_VAR_ARGS(x), (unsigned)d->derivative,
                              fmuc_md_type_name((fmuc_type)x->type));
    else if (x->variability != FMUC_VAR_CONTINUOUS)
        fmuc_result_violation(res, "Derivatives/Unknown index=%u (line %u): the state of "
                              FMUC_MS_VAR ", " FMUC_MS_VAR " (index %u), has variability=\"%s\", "
                              "not \"continuous\"",
                              (unsigned)u->index, (unsigned)u->line, FMUC_MS_VAR_ARGS(d),
                              FMUC_MS_VAR_ARGS(x), (unsigned)d->derivative,
                              fmuc_md_variability_name((fmuc_variability)x->variability));
    if (!local_or_output(x))
        fmuc_result_violation(res, "Derivatives/Unknown index=%u (line %u): the state of "
                              FMUC_MS_VAR ", " FMUC_MS_VAR " (index %u), has causality=\"%s\", "
                              "not \"local\" or \"output\"",
                              (unsigned)u->index, (unsigned)u->line, FMUC_MS_VAR_ARGS(d),
                              FMUC_MS_VAR_ARGS(x), (unsigned)d->derivative,
                              fmuc_md_causality_name((fmuc_causality)x->causality));
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    fmuc_ms_roles roles = {0};
    uint8_t *seen = calloc(md->nvars + 1, 2); /* [i]: entry seen; [n+1+i]: state seen */
    /* valueReferences of the listed derivatives (dvrs) and of their states (svrs) */
    uint32_t *dvrs = malloc((md->nderivatives * 2 + 1) * sizeof *dvrs);
    uint32_t *svrs = dvrs ? dvrs + md->nderivatives : NULL;
    size_t ndvrs = 0, nsvrs = 0, missing = 0;
    if (!seen || !dvrs || fmuc_ms__roles(&roles, md) < 0) {
        fmuc_result_error(res, "out of memory");
        goto out;
    }
    uint8_t *state_seen = seen + md->nvars + 1;
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
            fmuc_result_violation(res, "Derivatives/Unknown index=%u (line %u): " FMUC_MS_VAR
                                  " is listed more than once",
                                  (unsigned)u->index, (unsigned)u->line, FMUC_MS_VAR_ARGS(d));
            continue;
        }
        seen[u->index] = 1;
        if (d->type != FMUC_TYPE_REAL) {
            fmuc_result_violation(res, "Derivatives/Unknown index=%u (line %u): " FMUC_MS_VAR
                                  " is %s; a state derivative must be Real",
                                  (unsigned)u->index, (unsigned)u->line, FMUC_MS_VAR_ARGS(d),
                                  fmuc_md_type_name((fmuc_type)d->type));
            continue;
        }
        if (!(d->has & FMUC_HAS_DERIVATIVE) || d->derivative == 0) {
            fmuc_result_violation(res, "Derivatives/Unknown index=%u (line %u): " FMUC_MS_VAR
                                  " has no derivative attribute, so it is not a state "
                                  "derivative (is a state listed instead of its derivative?)",
                                  (unsigned)u->index, (unsigned)u->line, FMUC_MS_VAR_ARGS(d));
            continue;
        }
        dvrs[ndvrs++] = d->value_reference;
        if (!fmuc_ms__valid_index(md, d->derivative))
            continue; /* the derivative attribute's own range check is elsewhere */
        const fmuc_md_var *x = &md->vars[d->derivative - 1];
        svrs[nsvrs++] = x->value_reference;
        if (state_seen[d->derivative]) {
            fmuc_result_violation(res, "Derivatives/Unknown index=%u (line %u): " FMUC_MS_VAR
                                  " is a second derivative entry for the state " FMUC_MS_VAR,
                                  (unsigned)u->index, (unsigned)u->line, FMUC_MS_VAR_ARGS(d),
                                  FMUC_MS_VAR_ARGS(x));
            continue;
        }
        state_seen[d->derivative] = 1;
        check_state(md, u, d, res);
    }

    /* Model Exchange: every continuous-time state's derivative is listed. A Real variable with a
     * derivative attribute that points to a continuous local (or a local derivative of a
     * continuous output) whose pair is not listed, directly or through an alias of a listed
     * state or derivative, is a state left out. Pairs of outputs/inputs are not states. */
    if (md->me.present) {
        qsort(dvrs, ndvrs, sizeof *dvrs, cmp_u32);
        qsort(svrs, nsvrs, sizeof *svrs, cmp_u32);
        for (size_t i = 0; i < md->nvars; i++) {
            const fmuc_md_var *d = &md->vars[i];
            if (d->type != FMUC_TYPE_REAL || !(d->has & FMUC_HAS_DERIVATIVE) ||
                !fmuc_ms__valid_index(md, d->derivative) || seen[i + 1])
                continue;
            const fmuc_md_var *x = &md->vars[d->derivative - 1];
            if (roles.role[d->derivative] & FMUC_MS_STATE)
                continue; /* another entry already covers this state */
            if (x->type != FMUC_TYPE_REAL || x->variability != FMUC_VAR_CONTINUOUS ||
                d->variability != FMUC_VAR_CONTINUOUS || !local_or_output(x) ||
                !local_or_output(d))
                continue;
            if (x->causality != FMUC_CAUS_LOCAL && d->causality != FMUC_CAUS_LOCAL)
                continue;
            if (vr_in(dvrs, ndvrs, d->value_reference) || vr_in(svrs, nsvrs, x->value_reference))
                continue; /* alias of a listed derivative or state */
            missing++;
            fmuc_result_violation(res, FMUC_MS_VAR " (index %zu) is the derivative of the "
                                  "continuous-time state " FMUC_MS_VAR " (index %u) but is not "
                                  "listed in ModelStructure/Derivatives%s",
                                  FMUC_MS_VAR_ARGS(d), i + 1, FMUC_MS_VAR_ARGS(x),
                                  (unsigned)d->derivative,
                                  md->has_derivatives ? "" : " (no Derivatives element)");
        }
    }
    cJSON *ev = fmuc_result_evidence(res);
    if (ev) {
        cJSON_AddNumberToObject(ev, "derivatives_listed", (double)md->nderivatives);
        cJSON_AddNumberToObject(ev, "derivatives_missing", (double)missing);
    }
out:
    fmuc_ms__roles_free(&roles);
    free(seen);
    free(dvrs);
}

const fmuc_check fmuc_check_md_ms_derivatives = {
    .id = "md-ms-derivatives",
    .title = "ModelStructure/Derivatives lists the state derivatives, each once",
    .spec = "FMI 2.0.4 §2.2.8, §2.2.7",
    .level = FMUC_LEVEL_MUST,
    .applies = FMUC_APPLIES_ANY,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
