/* me-state-roundtrip: in Continuous-Time Mode, fmi2SetContinuousStates followed by
 * fmi2GetContinuousStates returns the very same bits for several state vectors (the start state,
 * negated, tiny and large values on the nominal scale, values inside declared min/max); every
 * call with nx = the number of <Derivatives> entries succeeds; the nominals are positive and
 * finite (FMI 2.0.4 §3.2.2, §2.2.8; F-06, F-07, F-10). */
#include "me_util.h"

#define NVEC 6

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    const meu_model *m = payload;
    const fmuc_md *md = &fmuc_worker_fmu(ctx)->md;
    meu_session s;
    char sb[32];
    size_t nx = m->nx;
    cJSON *reply = fmuc_worker_reply(ctx);
    if (meu_start(ctx, md, &s) < 0) {
        meu_end(&s);
        return 0;
    }
    double *x0 = calloc(nx, sizeof *x0), *nom = calloc(nx, sizeof *nom);
    double *x = calloc(nx, sizeof *x), *y = calloc(nx, sizeof *y), *dx = calloc(nx, sizeof *dx);
    if (!x0 || !nom || !x || !y || !dx) {
        meu_fatal(ctx, "out of memory");
        goto out;
    }
    int st = meu_st(&s, fmuc_inst_get_continuous_states(s.c, x0, nx));
    if (!meu_ok(st)) {
        meu_violation(ctx, "fmi2GetContinuousStates(nx = %zu, the number of <Derivatives>) "
                           "returned %s", nx, meu_status(st, sb, sizeof sb));
        goto out;
    }
    st = meu_st(&s, fmuc_inst_get_nominals(s.c, nom, nx));
    if (!meu_ok(st)) {
        meu_violation(ctx, "fmi2GetNominalsOfContinuousStates(nx = %zu) returned %s", nx,
                      meu_status(st, sb, sizeof sb));
        for (size_t i = 0; i < nx; i++)
            nom[i] = 1.0;
    } else {
        for (size_t i = 0; i < nx; i++) {
            if (!(isfinite(nom[i]) && nom[i] > 0.0)) {
                meu_violation(ctx, "nominal of state '%s' (vr %u, line %u) is %.17g: nominals "
                                   "must be finite and > 0 (1.0 when unknown)",
                              meu_name(m->xvar[i]), m->xvr[i], m->xvar[i]->line, nom[i]);
                nom[i] = 1.0;
            }
        }
    }
    cJSON *ev_nom = cJSON_AddArrayToObject(reply, "nominals");
    cJSON *ev_x0 = cJSON_AddArrayToObject(reply, "x_start");
    for (size_t i = 0; i < nx; i++) {
        cJSON_AddItemToArray(ev_nom, cJSON_CreateNumber(nom[i]));
        cJSON_AddItemToArray(ev_x0, cJSON_CreateNumber(x0[i]));
    }
    st = meu_st(&s, fmuc_inst_get_derivatives(s.c, dx, nx));
    if (!meu_ok(st) && st != FMUC_STATUS_DISCARD)
        meu_violation(ctx, "fmi2GetDerivatives(nx = %zu) returned %s", nx,
                      meu_status(st, sb, sizeof sb));

    static const char *const kinds[NVEC] = {"start state", "negated", "tiny (1e-10 * nominal)",
                                            "large (100 * nominal)", "odd mantissa",
                                            "start state again"};
    size_t compared = 0, refused = 0, mismatches = 0;
    for (int k = 0; k < NVEC; k++) {
        for (size_t i = 0; i < nx; i++) {
            double a = fabs(x0[i]) > 0.0 ? fabs(x0[i]) : nom[i];
            switch (k) {
            case 1: x[i] = -(a + 0.5 * nom[i]); break;
            case 2: x[i] = (i % 2 ? -1e-10 : 1e-10) * nom[i]; break;
            case 3: x[i] = (i % 2 ? -100.0 : 100.0) * nom[i]; break;
            case 4: x[i] = x0[i] + nom[i] * (1.0 / 3.0 + 0.01 * (double)i); break;
            default: x[i] = x0[i]; break;
            }
            const fmuc_md_var *v = m->xvar[i];
            if ((v->has & FMUC_HAS_MIN) && isfinite(v->min) && x[i] < v->min)
                x[i] = v->min + (isfinite(v->max) && (v->has & FMUC_HAS_MAX) ? 0.25 * (v->max - v->min) : 0.25 * nom[i]);
            if ((v->has & FMUC_HAS_MAX) && isfinite(v->max) && x[i] > v->max)
                x[i] = v->max - (isfinite(v->min) && (v->has & FMUC_HAS_MIN) ? 0.25 * (v->max - v->min) : 0.25 * nom[i]);
        }
        fmuc_worker_phase(ctx, "set/get states: %s", kinds[k]);
        st = meu_st(&s, fmuc_inst_set_continuous_states(s.c, x, nx));
        if (st == FMUC_STATUS_DISCARD) {
            refused++;
            meu_note(ctx, "fmi2SetContinuousStates refused the %s vector with fmi2Discard; not "
                          "compared", kinds[k]);
            continue;
        }
        if (!meu_ok(st)) {
            meu_violation(ctx, "fmi2SetContinuousStates(nx = %zu, %s vector) returned %s", nx,
                          kinds[k], meu_status(st, sb, sizeof sb));
            goto out;
        }
        for (size_t i = 0; i < nx; i++)
            y[i] = NAN;
        st = meu_st(&s, fmuc_inst_get_continuous_states(s.c, y, nx));
        if (!meu_ok(st)) {
            meu_violation(ctx, "fmi2GetContinuousStates(nx = %zu) after setting the %s vector "
                               "returned %s", nx, kinds[k], meu_status(st, sb, sizeof sb));
            goto out;
        }
        compared++;
        for (size_t i = 0; i < nx; i++) {
            if (memcmp(&x[i], &y[i], sizeof(double)) != 0) {
                mismatches++;
                meu_violation(ctx, "state '%s' (vr %u, line %u), %s vector: set %.17g, "
                                   "fmi2GetContinuousStates returned %.17g (not bit-identical)",
                              meu_name(m->xvar[i]), m->xvr[i], m->xvar[i]->line, kinds[k], x[i],
                              y[i]);
            }
        }
        st = meu_st(&s, fmuc_inst_get_derivatives(s.c, dx, nx));
        if (!meu_ok(st) && st != FMUC_STATUS_DISCARD)
            meu_violation(ctx, "fmi2GetDerivatives(nx = %zu) at the %s vector returned %s", nx,
                          kinds[k], meu_status(st, sb, sizeof sb));
    }
    cJSON_AddNumberToObject(reply, "vectors_compared", (double)compared);
    cJSON_AddNumberToObject(reply, "vectors_refused", (double)refused);
    cJSON_AddNumberToObject(reply, "mismatches", (double)mismatches);
out:
    free(x0);
    free(nom);
    free(x);
    free(y);
    free(dx);
    meu_end(&s);
    return 0;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    meu_model m;
    if (meu_applies(s, res, &m) < 0)
        return;
    if (m.nx == 0) {
        fmuc_result_na(res, "no continuous states (<Derivatives> is empty or absent)");
        meu_model_free(&m);
        return;
    }
    fmuc_worker_outcome o;
    const cJSON *reply = meu_run(s, res, "me-state-roundtrip", worker, &m, &o);
    if (reply) {
        cJSON *ev = fmuc_result_evidence(res);
        cJSON_AddNumberToObject(ev, "nx", (double)m.nx);
        cJSON *names = cJSON_AddArrayToObject(ev, "states");
        for (size_t i = 0; i < m.nx; i++)
            cJSON_AddItemToArray(names, cJSON_CreateString(meu_name(m.xvar[i])));
        static const char *const keys[] = {"nominals", "x_start", "vectors_compared",
                                           "vectors_refused", "mismatches"};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            const cJSON *it = cJSON_GetObjectItemCaseSensitive(reply, keys[k]);
            if (it)
                cJSON_AddItemToObject(ev, keys[k], cJSON_Duplicate(it, 1));
        }
    }
    fmuc_worker_outcome_free(&o);
    meu_model_free(&m);
}

const fmuc_check fmuc_check_me_state_roundtrip = {
    .id = "me-state-roundtrip",
    .title = "Continuous states set and read back bit-identically; nominals positive",
    .spec = "FMI 2.0.4 §3.2.2, §2.2.8",
    .level = FMUC_LEVEL_MUST,
    .why = "Solvers set states with fmi2SetContinuousStates and read them back; a state that "
           "changes on the way or a non-positive nominal corrupts integration and error control.",
    .fix = "Store the states exactly as set (no clipping or rounding) and return positive, finite "
           "nominals from fmi2GetNominalsOfContinuousStates.",
    .applies = FMUC_APPLIES_ME,
    .versions = FMUC_V2,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .run = run,
};
