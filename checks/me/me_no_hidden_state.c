/* me-no-hidden-state: in Continuous-Time Mode the derivatives and event indicators are functions
 * of (t, x, u) only: evaluated twice at the same point, with other points evaluated in between,
 * they are bit-identical (FMI 2.0.4 §3.1 ẋ = f(x, u, t, p), §3.2.1: fmi2SetTime and
 * fmi2SetContinuousStates re-initialize the caches; F-10). An FMU that keeps a call counter or a
 * cache keyed on something else gives different values; integrators that re-evaluate points
 * (step rejection, Jacobian updates, root finding) then see an inconsistent model.
 * FMI 3.0.2: the same (§3.1: the Continuous-Time Mode equations f_cont of •x, u, p, t; §3.2.1:
 * fmi3SetTime, fmi3SetContinuousStates; no fmi3CompletedIntegratorStep is called, so going back
 * in time stays allowed, fmi3-rules D-10). FMI 1.0 ME: the same after fmiInitialize (ẋ = f(x, u,
 * t, p); fmiSetTime and fmiSetContinuousStates re-initialize caching; time goes back only within
 * the current step, which no fmiCompletedIntegratorStep ends here, fmi1-rules F-08). */
#include "me_util.h"

#define NPOINTS 4

/* Evaluation order: P0 P1 P2 P3 P0 P2 P1 P1 (the second visits are compared with the first). */
static const int order[] = {0, 1, 2, 3, 0, 2, 1, 1};
#define NORDER (sizeof order / sizeof order[0])

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    const meu_model *m = payload;
    const fmuc_md *md = &fmuc_worker_fmu(ctx)->md;
    meu_session s;
    char sb[32], vb[512], xn[300];
    size_t nx = m->nx, ni = m->ni;
    size_t w = nx + ni;
    cJSON *reply = fmuc_worker_reply(ctx);
    if (meu_start(ctx, md, &s) < 0) {
        meu_end(&s);
        return 0;
    }
    double *x0 = calloc(nx + 1, sizeof *x0), *nom = calloc(nx + 1, sizeof *nom);
    double *px = calloc(NPOINTS * (nx + 1), sizeof *px);
    double *first = calloc(NPOINTS * (w + 1), sizeof *first);
    double *cur = calloc(w + 1, sizeof *cur);
    int seen[NPOINTS] = {0}, skipped[NPOINTS] = {0};
    double pt[NPOINTS];
    if (!x0 || !nom || !px || !first || !cur) {
        meu_fatal(ctx, "out of memory");
        goto out;
    }
    int st = nx ? meu_st(&s, fmuc_inst_get_continuous_states(s.c, x0, nx)) : FMUC_STATUS_OK;
    if (meu_ok(st) && nx)
        st = meu_st(&s, fmuc_inst_get_nominals(s.c, nom, nx));
    if (!meu_ok(st)) {
        meu_fatal(ctx, "could not read the start state (%s; see me-state-roundtrip)",
                  meu_stname(s.ver, st, sb, sizeof sb));
        goto out;
    }
    static const double pert[NPOINTS] = {0.0, 0.003, -0.007, 0.011};
    double span = s.t1 - s.t0;
    double dt = span > 0.0 ? (span * 1e-3 < 1e-3 ? span * 1e-3 : 1e-3) : 1e-3;
    for (int p = 0; p < NPOINTS; p++) {
        static const double tfrac[NPOINTS] = {0.0, 1.0, 0.5, 2.0};
        pt[p] = s.t0 + dt * tfrac[p];
        for (size_t i = 0; i < nx; i++) {
            double sc = isfinite(nom[i]) && nom[i] > 0.0 ? nom[i] : 1.0;
            px[p * nx + i] = x0[i] + sc * pert[p] * (1.0 + 0.1 * (double)(i % 5));
        }
    }
    size_t compared = 0, differing = 0;
    for (size_t k = 0; k < NORDER; k++) {
        int p = order[k];
        if (skipped[p])
            continue;
        fmuc_worker_phase(ctx, "evaluate point P%d (visit %zu)", p, k);
        for (size_t i = 0; i < w; i++)
            cur[i] = NAN;
        st = meu_eval(&s, nx, ni, pt[p], px + p * nx, cur, cur + nx);
        if (st == FMUC_STATUS_DISCARD) {
            meu_note(ctx, "point P%d (t = %.17g) refused with %s; skipped", p, pt[p],
                     meu_stname(s.ver, st, sb, sizeof sb));
            skipped[p] = 1;
            continue;
        }
        if (!meu_ok(st) && seen[p]) {
            /* the same point evaluated fine before: its answer depends on what came between */
            meu_violation(ctx, "point P%d (t = %.17g, x = %s) evaluated at first, but failed with "
                               "%s when evaluated again after other points (hidden state)",
                          p, pt[p], meu_vec(vb, sizeof vb, px + p * nx, nx),
                          meu_stname(s.ver, st, sb, sizeof sb));
            goto out;
        }
        if (!meu_ok(st)) {
            /* the FMU's own failure at a point near its start (the nominal run's checks judge
             * it): no point to compare */
            meu_na(ctx, "evaluating point P%d (t = %.17g, x = %s) failed with %s, so hidden "
                        "state is not assessed (see me-nominal-run)",
                   p, pt[p], meu_vec(vb, sizeof vb, px + p * nx, nx),
                   meu_stname(s.ver, st, sb, sizeof sb));
            goto out;
        }
        if (!seen[p]) {
            memcpy(first + p * w, cur, w * sizeof *cur);
            seen[p] = 1;
            continue;
        }
        compared++;
        for (size_t i = 0; i < w; i++) {
            const double a = first[p * w + i], b = cur[i];
            if (memcmp(&a, &b, sizeof a) == 0)
                continue;
            differing++;
            if (i < nx)
                meu_violation(ctx, "derivative %s at P%d (t = %.17g, x = %s): %.17g at the first "
                                   "evaluation, %.17g when evaluated again after other points "
                                   "(hidden state; read with %s)",
                              meu_dxname(m, i, xn, sizeof xn), p, pt[p],
                              meu_vec(vb, sizeof vb, px + p * nx, nx), a, b,
                              meu_fn(s.ver, FMUC_INST_OP_GET_DERIVATIVES));
            else
                meu_violation(ctx, "event indicator z[%zu] at P%d (t = %.17g, x = %s): %.17g at "
                                   "the first evaluation, %.17g when evaluated again after "
                                   "other points (hidden state; read with %s)",
                              i - nx, p, pt[p], meu_vec(vb, sizeof vb, px + p * nx, nx), a, b,
                              meu_fn(s.ver, FMUC_INST_OP_GET_EVENT_INDICATORS));
        }
    }
    cJSON_AddNumberToObject(reply, "revisits_compared", (double)compared);
    cJSON_AddNumberToObject(reply, "values_differing", (double)differing);
    cJSON *pts = cJSON_AddArrayToObject(reply, "points");
    for (int p = 0; p < NPOINTS; p++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "t", pt[p]);
        cJSON *xa = cJSON_AddArrayToObject(o, "x");
        for (size_t i = 0; i < nx; i++)
            cJSON_AddItemToArray(xa, cJSON_CreateNumber(px[p * nx + i]));
        cJSON_AddBoolToObject(o, "skipped", skipped[p]);
        cJSON_AddItemToArray(pts, o);
    }
out:
    free(x0);
    free(nom);
    free(px);
    free(first);
    free(cur);
    meu_end(&s);
    return 0;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    meu_model m;
    if (meu_applies(s, res, &m) < 0)
        return;
    if (m.nx == 0 && m.ni == 0) {
        fmuc_result_na(res, "no continuous states and no event indicators");
        meu_model_free(&m);
        return;
    }
    fmuc_worker_outcome o;
    const cJSON *reply = meu_run(s, res, "me-no-hidden-state", worker, &m, &o);
    if (reply) {
        cJSON *ev = fmuc_result_evidence(res);
        cJSON_AddStringToObject(ev, "order", "P0 P1 P2 P3 P0 P2 P1 P1");
        static const char *const keys[] = {"points", "revisits_compared", "values_differing"};
        meu_evidence_from_reply(res, reply, keys, sizeof keys / sizeof keys[0]);
    }
    fmuc_worker_outcome_free(&o);
    meu_model_free(&m);
}

const fmuc_check fmuc_check_me_no_hidden_state = {
    .id = "me-no-hidden-state",
    .title = "Derivatives and event indicators depend only on (t, x, u)",
    .spec = "FMI 2.0.4 §3.1, §3.2.1; FMI 3.0.2 §3.1, §3.2.1; FMI 1.0 ME (ẋ = f(x, u, t, p); "
            "fmiSetTime and fmiSetContinuousStates re-initialize caching)",
    .level = FMUC_LEVEL_MUST,
    .why = "Variable-step solvers evaluate derivatives at trial points in any order; derivatives "
           "that depend on call history instead of (t, x, u) give wrong, solver-dependent "
           "trajectories.",
    .fix = "Compute derivatives and event indicators only from time, states, inputs and "
           "parameters; update discrete state in event mode (1.0: fmiEventUpdate), never while "
           "derivatives are read.",
    .applies = FMUC_APPLIES_ME,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .run = run,
};
