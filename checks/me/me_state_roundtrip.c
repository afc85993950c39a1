/* me-state-roundtrip: in Continuous-Time Mode, SetContinuousStates followed by
 * GetContinuousStates returns the state set ("set a new (continuous) state vector" / "return
 * the new (continuous) state vector") for several state vectors (the start state, negated, tiny
 * and large values on the nominal scale, values inside declared min/max); every call with nx =
 * the declared number of states succeeds; the nominals are positive and finite. No text asks for
 * the same bits: a value within 1e-6 of |x| (a state kept as float32, say) warns, one beyond
 * fails (the FMU does not hold the state it was given); +0.0 and -0.0 are the same value.
 * FMI 2.0.4 §3.2.2, §2.2.8 (fmi2-rules F-06, F-07, F-10): nx = the number of <Derivatives>.
 * FMI 3.0.2 §3.2.1 (fmi3SetContinuousStates), §2.3.3 (fmi3GetContinuousStates,
 * fmi3GetNominalsOfContinuousStates: "It is required that nominals[i] > 0.0"), §2.4.8: nx = the
 * elements of the <ContinuousStateDerivative> variables (fmi3-rules C-27, F-07).
 * FMI 1.0 ME (fmiSetContinuousStates, fmiGetContinuousStates, fmiGetNominalContinuousStates:
 * "it is required that x_nominal[i] > 0.0"): nx = numberOfContinuousStates, after fmiInitialize
 * (1.0 has no Continuous-Time Mode; the calls are allowed once initialized, fmi1-rules F-07). The
 * 1.0 XML does not say which variables the states are, so no min/max is applied there.
 * At each vector the state and derivative variables read with fmi2GetReal (FMI 2.0; FMI 3.0:
 * scalar Float64 ones, fmi3GetFloat64) must be the vectors of fmi2GetContinuousStates and
 * fmi2GetDerivatives: §2.2.8 lists in <Derivatives> the variables whose values the derivative
 * vector holds, in its order, and each names its state with `derivative`; an importer that plots
 * or logs der(x) by its value reference, or a master that reads a state variable, would get
 * another number than the solver (red-team round 5: GetReal of der(x1) 10 % off). The same
 * tolerance as the states: the same value or within 1e-9 of it. FMI 3.0 also: the counts of
 * fmi3GetNumberOfContinuousStates and fmi3GetNumberOfEventIndicators are the model
 * description's (§2.3.2, fmi3-rules C-28). */
#include "me_util.h"

#define NVEC 6
/* a read-back within this much of |x| is a rounding (a warning), beyond it the FMU does not
 * hold the state it was given (a violation) */
#define ROUNDED_REL 1e-6
#define ROUNDED_NAMED 5

#define VAR_REL 1e-9   /* a variable read is its vector entry within this much of the entry */
#define VAR_NAMED 5

/* A scalar Float64 variable (FMI 2.0 Real; FMI 3.0 without dimensions). */
static int scalar_f64(const fmuc_md *md, const fmuc_md_var *v)
{
    if (!v || v->base != FMUC_BT_FLOAT64)
        return 0;
    const fmuc_md_var_ext *e = v->ext ? fmuc_md_var_ext_of(md, (size_t)(v - md->vars)) : NULL;
    return !e || e->ndims == 0;
}

/* The state and derivative variables, read by their value references, against the vectors x
 * and dx at the kind of vector named; *named counts the violations named so far. */
static void vars_agree(fmuc_worker_ctx *ctx, meu_session *s, const meu_model *m,
                       const fmuc_md *md, const double *x, const double *dx, const double *nom,
                       const char *kind, size_t *named, size_t *compared)
{
    size_t nx = m->nx, n = 0;
    char sb[32];
    fmuc_vr *vr = calloc(2 * nx + 1, sizeof *vr);
    size_t *entry = calloc(2 * nx + 1, sizeof *entry);
    double *val = calloc(2 * nx + 1, sizeof *val);
    if (!vr || !entry || !val)
        goto out;
    for (size_t i = 0; i < nx; i++) {
        if (scalar_f64(md, m->xvar[i]))
            vr[n] = m->xvr[i], entry[n++] = i;
        if (scalar_f64(md, m->dxvar[i]))
            vr[n] = m->dxvr[i], entry[n++] = nx + i;
    }
    if (!n)
        goto out;
    const char *get = s->ver == 3 ? "fmi3GetFloat64" : "fmi2GetReal";
    int st = meu_st(s, fmuc_inst_get_float64(s->c, vr, n, val));
    if (!meu_ok(st)) {
        /* a tool may evaluate every equation on a get (an output sqrt(x) at the negated
         * vector): noted, api-status-codes judges statuses */
        meu_note(ctx, "%s of the %zu state and derivative variables at the %s vector returned "
                      "%s: not compared there",
                 get, n, kind, meu_stname(s->ver, st, sb, sizeof sb));
        goto out;
    }
    (*compared)++;
    for (size_t k = 0; k < n; k++) {
        size_t e = entry[k];
        int is_x = e < nx;
        double ref = is_x ? x[e] : dx[e - nx], got = val[k];
        /* relative to the value, at least to the state's nominal (a derivative of 0 computed
         * two ways may come out as 1e-18) */
        double scale = fmax(fmax(fabs(ref), fabs(got)), nom[is_x ? e : e - nx]);
        if (ref == got || (isnan(ref) && isnan(got)) || fabs(got - ref) <= VAR_REL * scale)
            continue;
        if ((*named)++ >= VAR_NAMED)
            continue;
        const fmuc_md_var *v = is_x ? m->xvar[e] : m->dxvar[e - nx];
        meu_violation(ctx, "%s '%s' (vr %u) at the %s vector: %s gives %.17g, %s gives %.17g "
                           "(entry %zu of the vector; §2.2.8: the variable %s)",
                      is_x ? "state" : "derivative", meu_name(v), (unsigned)v->value_reference,
                      kind, get, got,
                      meu_fn(s->ver, is_x ? FMUC_INST_OP_GET_STATES : FMUC_INST_OP_GET_DERIVATIVES),
                      ref, (is_x ? e : e - nx) + 1,
                      is_x ? "is the continuous state"
                           : "listed in <Derivatives> is the state derivative at this position");
    }
out:
    free(vr);
    free(entry);
    free(val);
}

/* FMI 3.0.2 §2.3.2 (fmi3-rules C-28, M): fmi3GetNumberOfContinuousStates and
 * fmi3GetNumberOfEventIndicators return the numbers the model description gives while no
 * structural parameter has changed (api-configuration-mode compares them after a change). */
static void counts_agree(fmuc_worker_ctx *ctx, meu_session *s, const meu_model *m)
{
    static const char *const fn[2] = {"fmi3GetNumberOfContinuousStates",
                                      "fmi3GetNumberOfEventIndicators"};
    static const char *const what[2] = {"the elements of the <ContinuousStateDerivative> "
                                        "variables",
                                        "the elements of the <EventIndicator> variables"};
    const size_t want[2] = {m->nx, m->ni};
    char sb[32];
    for (int i = 0; i < 2; i++) {
        size_t got = 0;
        fmuc_status st = i == 0 ? fmuc_inst_get_number_of_continuous_states(s->c, &got)
                                : fmuc_inst_get_number_of_event_indicators(s->c, &got);
        if (st == FMUC_STATUS_NOT_PROVIDED)
            continue; /* a missing function: api-mandatory-functions */
        st = meu_st(s, st);
        if (!meu_ok(st))
            meu_note(ctx, "%s returned %s; not compared with the model description", fn[i],
                     meu_stname(3, st, sb, sizeof sb));
        else if (got != want[i])
            meu_violation(ctx, "%s returns %zu, the model description %zu (%s; no structural "
                               "parameter was changed)",
                          fn[i], got, want[i], what[i]);
    }
}

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    const meu_model *m = payload;
    const fmuc_md *md = &fmuc_worker_fmu(ctx)->md;
    meu_session s;
    char sb[32], xn[300];
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
    const int v = s.ver;
    if (v == 3)
        counts_agree(ctx, &s, m);
    const char *gcs = meu_fn(v, FMUC_INST_OP_GET_STATES), *scs = meu_fn(v, FMUC_INST_OP_SET_STATES);
    const char *gdx = meu_fn(v, FMUC_INST_OP_GET_DERIVATIVES);
    int st = meu_st(&s, fmuc_inst_get_continuous_states(s.c, x0, nx));
    if (!meu_ok(st)) {
        meu_violation(ctx, "%s(nx = %zu, %s) returned %s", gcs, nx, meu_nx_what(v),
                      meu_stname(v, st, sb, sizeof sb));
        goto out;
    }
    st = meu_st(&s, fmuc_inst_get_nominals(s.c, nom, nx));
    if (!meu_ok(st)) {
        meu_violation(ctx, "%s(nx = %zu) returned %s", meu_fn(v, FMUC_INST_OP_GET_NOMINALS), nx,
                      meu_stname(v, st, sb, sizeof sb));
        for (size_t i = 0; i < nx; i++)
            nom[i] = 1.0;
    } else {
        for (size_t i = 0; i < nx; i++) {
            if (!(isfinite(nom[i]) && nom[i] > 0.0)) {
                meu_violation(ctx, "%s returned the nominal %.17g for state %s: nominals must "
                                   "be finite and > 0 (1.0 when unknown)",
                              meu_fn(v, FMUC_INST_OP_GET_NOMINALS), nom[i],
                              meu_xname(m, i, xn, sizeof xn));
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
        meu_violation(ctx, "%s(nx = %zu) returned %s", gdx, nx, meu_stname(v, st, sb, sizeof sb));

    static const char *const kinds[NVEC] = {"start state", "negated", "tiny (1e-10 * nominal)",
                                            "large (100 * nominal)", "odd mantissa",
                                            "start state again"};
    size_t compared = 0, refused = 0, mismatches = 0, rounded = 0, var_named = 0, var_compared = 0;
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
            const fmuc_md_var *xv = m->xvar[i]; /* NULL in 1.0 */
            if (xv && (xv->has & FMUC_HAS_MIN) && isfinite(xv->min) && x[i] < xv->min)
                x[i] = xv->min + (isfinite(xv->max) && (xv->has & FMUC_HAS_MAX) ? 0.25 * (xv->max - xv->min) : 0.25 * nom[i]);
            if (xv && (xv->has & FMUC_HAS_MAX) && isfinite(xv->max) && x[i] > xv->max)
                x[i] = xv->max - (isfinite(xv->min) && (xv->has & FMUC_HAS_MIN) ? 0.25 * (xv->max - xv->min) : 0.25 * nom[i]);
        }
        fmuc_worker_phase(ctx, "set/get states: %s", kinds[k]);
        st = meu_st(&s, fmuc_inst_set_continuous_states(s.c, x, nx));
        if (st == FMUC_STATUS_DISCARD) {
            refused++;
            meu_note(ctx, "%s refused the %s vector with %s; not compared", scs, kinds[k],
                     meu_stname(v, st, sb, sizeof sb));
            continue;
        }
        if (!meu_ok(st)) {
            meu_violation(ctx, "%s(nx = %zu, %s vector) returned %s", scs, nx, kinds[k],
                          meu_stname(v, st, sb, sizeof sb));
            goto out;
        }
        for (size_t i = 0; i < nx; i++)
            y[i] = NAN;
        st = meu_st(&s, fmuc_inst_get_continuous_states(s.c, y, nx));
        if (!meu_ok(st)) {
            meu_violation(ctx, "%s(nx = %zu) after setting the %s vector returned %s", gcs, nx,
                          kinds[k], meu_stname(v, st, sb, sizeof sb));
            goto out;
        }
        compared++;
        for (size_t i = 0; i < nx; i++) {
            if (x[i] == y[i]) /* the same value (+0.0 and -0.0 too) */
                continue;
            /* a state kept with fewer digits (float32: 6e-8 relative) reads back rounded,
             * relative to the value itself */
            double scale = fabs(x[i]);
            if (isfinite(y[i]) && fabs(y[i] - x[i]) <= ROUNDED_REL * scale) {
                rounded++;
                if (rounded <= ROUNDED_NAMED)
                    meu_warn(ctx, "state %s, %s vector: set %.17g, %s returned %.17g (rounded: "
                                  "%.2g relative; no FMI text asks for the same bits, but the "
                                  "solver's state is not kept to the digits it set)",
                             meu_xname(m, i, xn, sizeof xn), kinds[k], x[i], gcs, y[i],
                             fabs(y[i] - x[i]) / scale);
                continue;
            }
            mismatches++;
            meu_violation(ctx, "state %s, %s vector: set %.17g, %s returned %.17g (the state "
                               "set is not the state the FMU holds: \"set a new (continuous) "
                               "state vector\")",
                          meu_xname(m, i, xn, sizeof xn), kinds[k], x[i], gcs, y[i]);
        }
        st = meu_st(&s, fmuc_inst_get_derivatives(s.c, dx, nx));
        if (!meu_ok(st) && st != FMUC_STATUS_DISCARD)
            meu_violation(ctx, "%s(nx = %zu) at the %s vector returned %s", gdx, nx, kinds[k],
                          meu_stname(v, st, sb, sizeof sb));
        else if (meu_ok(st) && v != 1)
            vars_agree(ctx, &s, m, md, y, dx, nom, kinds[k], &var_named, &var_compared);
    }
    cJSON_AddNumberToObject(reply, "variables_compared", (double)var_compared);
    if (var_named > VAR_NAMED)
        meu_note(ctx, "%zu state or derivative variables in all differ from their vector entry "
                      "(the first %d named)",
                 var_named, VAR_NAMED);
    cJSON_AddNumberToObject(reply, "vectors_compared", (double)compared);
    cJSON_AddNumberToObject(reply, "vectors_refused", (double)refused);
    cJSON_AddNumberToObject(reply, "mismatches", (double)mismatches);
    cJSON_AddNumberToObject(reply, "rounded", (double)rounded);
    if (rounded > ROUNDED_NAMED)
        meu_note(ctx, "%zu state values in all read back rounded (the first %d named)", rounded,
                 ROUNDED_NAMED);
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
        fmuc_result_na(res, "no continuous states (%s: 0)", meu_nx_what(m.ver));
        meu_model_free(&m);
        return;
    }
    fmuc_worker_outcome o;
    const cJSON *reply = meu_run(s, res, "me-state-roundtrip", worker, &m, &o);
    if (reply) {
        cJSON *ev = fmuc_result_evidence(res);
        cJSON_AddNumberToObject(ev, "nx", (double)m.nx);
        cJSON *names = cJSON_AddArrayToObject(ev, "states");
        for (size_t i = 0; i < m.nx; i++) {
            char xn[300];
            cJSON_AddItemToArray(names, cJSON_CreateString(m.xvar[i] ? meu_name(m.xvar[i])
                                                                     : meu_xname(&m, i, xn, sizeof xn)));
        }
        static const char *const keys[] = {"nominals", "x_start", "vectors_compared",
                                           "vectors_refused", "mismatches", "rounded",
                                           "variables_compared"};
        meu_evidence_from_reply(res, reply, keys, sizeof keys / sizeof keys[0]);
    }
    fmuc_worker_outcome_free(&o);
    meu_model_free(&m);
}

const fmuc_check fmuc_check_me_state_roundtrip = {
    .id = "me-state-roundtrip",
    .title = "Continuous states set are the states read back, their variables agree; nominals "
             "positive",
    .spec = "FMI 2.0.4 §3.2.2, §2.2.8; FMI 3.0.2 §3.2.1, §2.3.2, §2.3.3, §2.4.8; FMI 1.0 ME "
            "(fmiSetContinuousStates, fmiGetContinuousStates, fmiGetNominalContinuousStates)",
    .level = FMUC_LEVEL_MUST,
    .why = "Solvers set states with SetContinuousStates and read them back; a state that "
           "changes on the way or a non-positive nominal corrupts integration and error control.",
    .fix = "Store the states as set, in double precision (no clipping or rounding), and return "
           "positive, finite "
           "nominals from GetNominalsOfContinuousStates (1.0: fmiGetNominalContinuousStates).",
    .applies = FMUC_APPLIES_ME,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .run = run,
};
