/* eq-fmu-state: fmi2GetFMUstate at t1, run to t2 recording outputs, fmi2SetFMUstate back and run
 * to t2 again (twice: the copy stays valid). A second fmi2GetFMUstate with the same pointer
 * overwrites it (restoring then gives the later point). fmi2FreeFMUstate releases and sets the
 * pointer to NULL; with *FMUstate == NULL it is a no-op. CS and ME where
 * canGetAndSetFMUstate="true". FMI 2.0.4 §2.1.8 (rules E-02, E-03, E-04). FMI 3.0: the same
 * with fmi3Get/Set/FreeFMUState and canGetAndSetFMUState (FMI 3.0.2 §2.2.7.4, fmi3-rules E-02 to
 * E-04); the runs record the scalar Float64/Int32/Boolean outputs (eq_util.c) and the messages
 * carry 3.0's names (equ_v3_names).
 *
 * The restored runs must continue the original one: values the same (-0.0 = +0.0, NaN = NaN).
 * Bit identity is not what the text asks (E-06 is a derived rule): an FMU that integrates
 * with a variable step inside restarts its integrator after fmi2SetFMUstate and differs by the
 * integration error. So a difference is a violation only when it does not shrink with the
 * tolerance (equ_restart_test): then a part of the state was not restored. A crash in a state
 * call or in a run from a restored state is this check's failure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eq_util.h"

typedef struct st_job {
    const equ_plan *plan;
    size_t k1, k2, k3;
} st_job;

/* Worker phases whose crash answers the calls this check probes. */
static const char *const probe_phases[] = {"fmi2GetFMUstate", "fmi2SetFMUstate",
                                           "fmi2FreeFMUstate", NULL};

static int st_worker(fmuc_worker_ctx *ctx, void *payload)
{
    const st_job *job = payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    equ_plan copy;
    const equ_plan *p = equ_worker_plan(&copy, job->plan);
    size_t n = (p->nsteps + 1) * p->nout, w = p->nout;
    double *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b), *c = calloc(n, sizeof *c),
           *e = calloc(n, sizeof *e), *d = calloc(n, sizeof *d);
    equ_inst in;
    fmuc_fmu_state s = NULL;
    int st;
    int a_ok = 0; /* a holds the original run up to t2 */
    memset(&in, 0, sizeof in);
    int f_loaded = fmuc_inst_load(ctx, (fmuc_iface)(p->iface)) == 0;
    if (!f_loaded || !a || !b || !c || !e || !d) {
        cJSON_AddStringToObject(reply, "run_error", f_loaded ? "out of memory"
                                                      : fmuc_worker_load_error(ctx));
        goto out;
    }
    fmuc_worker_phase(ctx, "run to t1");
    if (equ_inst_start(&in, ctx, p, "fmustate") < 0 || equ_inst_record(&in, a) < 0 ||
        equ_inst_run_to(&in, job->k1, a) < 0) {
        cJSON_AddStringToObject(reply, "run_error", in.err);
        goto out;
    }
    fmuc_worker_phase(ctx, "fmi2GetFMUstate at t1");
    equ_snap snap1, snap2;
    equ_inst_snap(&in, &snap1);
    st = equ_inst_status(&in, fmuc_inst_get_state(in.c, &s));
    equ_put_status(reply, "get1", st);
    cJSON_AddBoolToObject(reply, "get1_null", s == NULL);
    if (!fmuc_status_ok(st)) {
        s = NULL; /* the output of a failed call is not used */
        goto out;
    }
    if (!s)
        goto out;
    fmuc_worker_phase(ctx, "run on after fmi2GetFMUstate to t2");
    if (equ_inst_run_to(&in, job->k2, a) < 0) {
        cJSON_AddStringToObject(reply, "run_error", in.err);
        goto out;
    }
    a_ok = 1;
    double *restored[2] = {b, c};
    const char *keys[2] = {"set1", "set2"};
    for (int r = 0; r < 2; r++) {
        fmuc_worker_phase(ctx, "fmi2SetFMUstate to t1 (#%d), run to t2", r + 1);
        st = equ_inst_status(&in, fmuc_inst_set_state(in.c, s));
        equ_put_status(reply, keys[r], st);
        if (!fmuc_status_ok(st))
            goto out;
        if (equ_inst_restore(&in, &snap1) < 0 || equ_inst_record(&in, restored[r] + job->k1 * w) < 0 ||
            equ_inst_run_to(&in, job->k2, restored[r]) < 0) {
            cJSON_AddStringToObject(reply, r ? "set2_error" : "set1_error", in.err);
            goto out;
        }
        cJSON_AddItemToObject(reply, r ? "c" : "b", fmuc_worker_f64_to_json(restored[r], n));
    }
    /* a second state with *FMUstate == NULL is a new allocation (§2.1.8): the first one still
     * restores t1 while it exists */
    fmuc_worker_phase(ctx, "fmi2GetFMUstate at t2 into a new pointer");
    fmuc_fmu_state fresh = NULL;
    st = equ_inst_status(&in, fmuc_inst_get_state(in.c, &fresh));
    equ_put_status(reply, "getnew", st);
    if (!fmuc_status_ok(st))
        fresh = NULL; /* the output of a failed call is not used */
    if (fresh) {
        cJSON_AddBoolToObject(reply, "getnew_same_pointer", fresh == s);
        fmuc_worker_phase(ctx, "fmi2SetFMUstate to t1 after a new state was taken, run to t2");
        st = equ_inst_status(&in, fmuc_inst_set_state(in.c, s));
        equ_put_status(reply, "setold", st);
        int went = fmuc_status_ok(st);
        if (went && (equ_inst_restore(&in, &snap1) < 0 ||
                     equ_inst_record(&in, d + job->k1 * w) < 0 ||
                     equ_inst_run_to(&in, job->k2, d) < 0)) {
            cJSON_AddStringToObject(reply, "setold_error", in.err);
            went = 0;
        }
        if (went)
            cJSON_AddItemToObject(reply, "d", fmuc_worker_f64_to_json(d, n));
        fmuc_worker_phase(ctx, "fmi2FreeFMUstate of the new state");
        if (fresh != s && equ_inst_usable(&in)) /* the same pointer: freed with the first */
            equ_inst_status(&in, fmuc_inst_free_state(in.c, &fresh));
        fresh = NULL;
        if (!went)
            goto out;
    }
    fmuc_worker_phase(ctx, "fmi2GetFMUstate at t2 into the same pointer");
    fmuc_fmu_state before = s;
    equ_inst_snap(&in, &snap2);
    st = equ_inst_status(&in, fmuc_inst_get_state(in.c, &s));
    equ_put_status(reply, "get2", st);
    cJSON_AddBoolToObject(reply, "get2_same_pointer", s == before);
    if (!fmuc_status_ok(st) || !s) {
        /* what the failed call left in the pointer is not used; the instance goes away with
         * fmi2FreeInstance, which frees its states */
        s = NULL;
        goto out;
    }
    fmuc_worker_phase(ctx, "run on after fmi2GetFMUstate to t3");
    if (equ_inst_run_to(&in, job->k3, a) < 0) {
        cJSON_AddStringToObject(reply, "run_error", in.err);
        goto out;
    }
    fmuc_worker_phase(ctx, "fmi2SetFMUstate to t2, run to t3");
    st = equ_inst_status(&in, fmuc_inst_set_state(in.c, s));
    equ_put_status(reply, "set3", st);
    if (fmuc_status_ok(st)) {
        if (equ_inst_restore(&in, &snap2) < 0 || equ_inst_record(&in, e + job->k2 * w) < 0 ||
            equ_inst_run_to(&in, job->k3, e) < 0)
            cJSON_AddStringToObject(reply, "set3_error", in.err);
        else
            cJSON_AddItemToObject(reply, "e", fmuc_worker_f64_to_json(e, n));
    }
    if (!equ_inst_usable(&in))
        goto out;
    fmuc_worker_phase(ctx, "fmi2FreeFMUstate");
    st = equ_inst_status(&in, fmuc_inst_free_state(in.c, &s));
    equ_put_status(reply, "free", st);
    cJSON_AddBoolToObject(reply, "free_nulls", s == NULL);
    s = NULL;
    if (!fmuc_status_ok(st))
        goto out;
    fmuc_fmu_state none = NULL;
    fmuc_worker_phase(ctx, "fmi2FreeFMUstate(NULL state)");
    st = equ_inst_status(&in, fmuc_inst_free_state(in.c, &none));
    equ_put_status(reply, "free_null", st);
out:
    if (a_ok)
        cJSON_AddItemToObject(reply, "a", fmuc_worker_f64_to_json(a, n));
    fmuc_worker_phase(ctx, "free the instance");
    if (s && equ_inst_usable(&in))
        fmuc_inst_free_state(in.c, &s);
    equ_inst_free(&in);
    free(a);
    free(b);
    free(c);
    free(e);
    free(d);
    return 0;
}

static int status_of(const cJSON *reply, const char *key, int *st)
{
    const cJSON *j = cJSON_GetObjectItem(reply, key);
    if (!cJSON_IsNumber(j))
        return 0;
    *st = j->valueint;
    return 1;
}

/* The series of one worker run. */
typedef struct st_series {
    double *a, *b, *c, *d, *e;
} st_series;

static void series_get(st_series *x, const cJSON *rp, size_t n)
{
    x->a = fmuc_worker_f64_from_json(cJSON_GetObjectItem(rp, "a"), n);
    x->b = fmuc_worker_f64_from_json(cJSON_GetObjectItem(rp, "b"), n);
    x->c = fmuc_worker_f64_from_json(cJSON_GetObjectItem(rp, "c"), n);
    x->d = fmuc_worker_f64_from_json(cJSON_GetObjectItem(rp, "d"), n);
    x->e = fmuc_worker_f64_from_json(cJSON_GetObjectItem(rp, "e"), n);
}

static void series_free(st_series *x)
{
    free(x->a);
    free(x->b);
    free(x->c);
    free(x->d);
    free(x->e);
}

/* The four comparisons: restored (b, c, and d after a new state was taken) against the
 * original over [k1, k2], the overwritten state (e) against the continuation over [k2, k3]. */
enum { CMP_B = 0, CMP_C, CMP_D, CMP_E, NCMP };
static const char *const cmp_what[NCMP] = {
    "restored state at t1, run again to t2",
    "second restore of the same state (the copy must stay valid)",
    "restore of the state of t1 after a new one was taken at t2 with *FMUstate == NULL (a new "
    "allocation: the first state must stay as it was)",
    "a second fmi2GetFMUstate with the same pointer (taken at t2) must overwrite it; restoring "
    "it"};

static const double *cmp_series(const st_series *x, int k)
{
    return k == CMP_B ? x->b : k == CMP_C ? x->c : k == CMP_D ? x->d : x->e;
}

static void cmp_range(const st_job *job, int k, size_t *from, size_t *to)
{
    *from = k == CMP_E ? job->k2 : job->k1;
    *to = k == CMP_E ? job->k3 : job->k2;
}

/* Largest deviation over the comparisons that have both series. */
static double st_deviation(const equ_plan *p, const st_job *job, const st_series *x)
{
    double d = 0.0;
    size_t w = p->nout, from, to;
    for (int k = 0; k < NCMP; k++) {
        const double *y = cmp_series(x, k);
        if (!x->a || !y)
            continue;
        cmp_range(job, k, &from, &to);
        double dk = equ_deviation(x->a + from * w, y + from * w, to - from + 1, w, NULL, NULL);
        if (dk > d)
            d = dk;
    }
    return d;
}

/* The same experiment at another tolerance: its deviation, or -1 (why) when it did not run
 * through. */
static double st_rerun(const fmuc_subject *s, const equ_plan *q, void *ctx, fmuc_result *scratch,
                       char *why, size_t whysz)
{
    st_job job = *(const st_job *)ctx;
    job.plan = q;
    fmuc_worker_outcome o;
    if (equ_worker(s, s->fmu, "eq-fmu-state (tolerance)", st_worker, &job, &o, scratch) < 0)
        return -1.0;
    const cJSON *rp = o.reply;
    int st;
    double d = -1.0;
    st_series x;
    series_get(&x, rp, (q->nsteps + 1) * q->nout);
    if (!status_of(rp, "set2", &st) || !fmuc_status_ok(st) || !x.a || !x.b || !x.c) {
        const char *re = cJSON_GetStringValue(cJSON_GetObjectItem(rp, "run_error"));
        snprintf(why, whysz, "%s", re ? re : "a state call or the run after it failed");
    } else {
        d = st_deviation(q, &job, &x);
    }
    series_free(&x);
    fmuc_worker_outcome_free(&o);
    return d;
}

static void run_iface(const fmuc_subject *s, fmuc_result *res, fmuc_iface iface, int level)
{
    equ_plan p;
    fmuc_worker_outcome o;
    char sb[32];
    const char *ifn = equ_iface_name(iface);
    if (equ_plan_init(&p, s->fmu, iface, EQU_STEPS_SHORT) < 0 || p.nsteps < 4) {
        fmuc_result_na_part(res, "%s: %s", ifn, p.why[0] ? p.why : "fewer than 4 steps");
        equ_plan_free(&p);
        return;
    }
    if (equ_plan_horizon(&p, s, res) != 0 || p.nsteps < 4) {
        if (p.nsteps < 4)
            fmuc_result_na_part(res, "%s: fewer than 4 steps before the horizon",
                                equ_iface_name(iface));
        equ_plan_free(&p);
        return;
    }
    equ_plan_me_budget(&p, level, EQU_ME_SUBSTEPS_SHORT);
    equ_plan_excite(&p, res);
    st_job job = {&p, p.nsteps / 4, p.nsteps / 2, (3 * p.nsteps) / 4};
    char what[64];
    snprintf(what, sizeof what, "%s: the FMU state calls", ifn);
    if (equ_worker_probe(s, s->fmu, "eq-fmu-state", st_worker, &job, &o, res, probe_phases,
                         FMUC_VERDICT_FAIL, what) < 0) {
        equ_plan_free(&p);
        return;
    }
    const cJSON *rp = o.reply;
    const char *re = cJSON_GetStringValue(cJSON_GetObjectItem(rp, "run_error"));
    int st;
    size_t n = (p.nsteps + 1) * p.nout, w = p.nout;
    st_series x;
    memset(&x, 0, sizeof x);
    if (re && !status_of(rp, "get1", &st)) {
        fmuc_result_na_part(res,
                            "%s: this check's own run on the nominal grid did not reach its "
                            "end (%s); FMU state not assessed",
                            ifn, re);
        goto out;
    }
    if (!status_of(rp, "get1", &st) || !fmuc_status_ok(st)) {
        fmuc_result_violation(res, "%s: fmi2GetFMUstate at t=%.17g returned %s although "
                                   "canGetAndSetFMUstate=\"true\"",
                              ifn, p.t[job.k1],
                              fmuc_status_name(2, status_of(rp, "get1", &st) ? (int)st : -1, sb,
                                                   sizeof sb));
        goto out;
    }
    if (cJSON_IsTrue(cJSON_GetObjectItem(rp, "get1_null"))) {
        fmuc_result_violation(res, "%s: fmi2GetFMUstate returned fmi2OK but left the state "
                                   "pointer NULL",
                              ifn);
        goto out;
    }
    if (re && !status_of(rp, "set1", &st)) {
        /* the original run itself, not a restored one */
        fmuc_result_na_part(res, "%s: the run after fmi2GetFMUstate failed (%s); FMU state not "
                            "assessed",
                            ifn, re);
        goto out;
    }
    series_get(&x, rp, n);
    /* status and run failures of the state calls */
    const char *setkeys[2] = {"set1", "set2"};
    int stop = 0;
    for (int r = 0; r < 2 && !stop; r++) {
        char ek[16];
        snprintf(ek, sizeof ek, "%s_error", setkeys[r]);
        const char *se = cJSON_GetStringValue(cJSON_GetObjectItem(rp, ek));
        if (!status_of(rp, setkeys[r], &st) || !fmuc_status_ok(st)) {
            fmuc_result_violation(res, "%s: fmi2SetFMUstate (%s restore of the state of t=%.17g) "
                                       "returned %s",
                                  ifn, r ? "second" : "first", p.t[job.k1],
                                  fmuc_status_name(2, status_of(rp, setkeys[r], &st) ? (int)st
                                                                                     : -1,
                                                       sb, sizeof sb));
            stop = 1;
        } else if (se) {
            fmuc_result_violation(res, "%s: after fmi2SetFMUstate (%s restore) the run fails: %s",
                                  ifn, r ? "second" : "first", se);
            stop = 1;
        }
    }
    if (!stop) {
        if (status_of(rp, "getnew", &st) && !fmuc_status_ok(st))
            fmuc_result_violation(res, "%s: fmi2GetFMUstate with *FMUstate == NULL at t=%.17g, "
                                       "while the state of t=%.17g was held, returned %s",
                                  ifn, p.t[job.k2], p.t[job.k1],
                                  fmuc_status_name(2, (int)st, sb, sizeof sb));
        else if (cJSON_IsTrue(cJSON_GetObjectItem(rp, "getnew_same_pointer")))
            fmuc_result_violation(res, "%s: fmi2GetFMUstate with *FMUstate == NULL returned the "
                                       "pointer of the state taken at t=%.17g, which was still "
                                       "held: \"a new allocation is required\"",
                                  ifn, p.t[job.k1]);
        const char *setold_error = cJSON_GetStringValue(cJSON_GetObjectItem(rp, "setold_error"));
        int setold_failed = status_of(rp, "setold", &st) && !fmuc_status_ok(st);
        if (setold_failed)
            fmuc_result_violation(res, "%s: fmi2SetFMUstate of the state of t=%.17g after a new "
                                       "state was taken returned %s",
                                  ifn, p.t[job.k1], fmuc_status_name(2, (int)st, sb, sizeof sb));
        else if (setold_error)
            fmuc_result_violation(res, "%s: after restoring the state of t=%.17g (a new state "
                                       "held) the run fails: %s",
                                  ifn, p.t[job.k1], setold_error);
        if (setold_failed || setold_error) {
            /* the worker stopped there: the overwrite of a state was not reached */
        } else if (!status_of(rp, "get2", &st) || !fmuc_status_ok(st)) {
            fmuc_result_violation(res, "%s: fmi2GetFMUstate into an existing state returned %s",
                                  ifn,
                                  fmuc_status_name(2, status_of(rp, "get2", &st) ? (int)st : -1,
                                                       sb, sizeof sb));
        } else if (re) {
            fmuc_result_note(res, "%s: the run after the second fmi2GetFMUstate failed (%s); "
                                  "the overwritten state was not assessed",
                             ifn, re);
        } else if (!status_of(rp, "set3", &st) || !fmuc_status_ok(st)) {
            fmuc_result_violation(res, "%s: fmi2SetFMUstate of an overwritten state returned %s",
                                  ifn,
                                  fmuc_status_name(2, status_of(rp, "set3", &st) ? (int)st : -1,
                                                       sb, sizeof sb));
        } else if (cJSON_GetObjectItem(rp, "set3_error")) {
            fmuc_result_violation(
                res, "%s: after restoring an overwritten state the run fails: %s", ifn,
                cJSON_GetStringValue(cJSON_GetObjectItem(rp, "set3_error")));
        }
        if (status_of(rp, "get2", &st) && !cJSON_IsTrue(cJSON_GetObjectItem(rp, "get2_same_pointer")))
            fmuc_result_note(res, "%s: the second fmi2GetFMUstate returned a different pointer",
                             ifn);
    }
    /* the restored runs against the original */
    size_t mr[NCMP], mc[NCMP];
    int mism[NCMP] = {0}, any = 0;
    for (int k = 0; k < NCMP; k++) {
        const double *y = cmp_series(&x, k);
        size_t from, to;
        if (!x.a || !y)
            continue;
        cmp_range(&job, k, &from, &to);
        mism[k] = equ_first_mismatch(x.a + from * w, y + from * w, to - from + 1, w, &mr[k],
                                     &mc[k]);
        mr[k] += from;
        any |= mism[k];
    }
    cJSON *evi = cJSON_AddObjectToObject(fmuc_result_evidence(res), ifn);
    if (any) {
        equ_restart rs;
        char rt[640];
        equ_restart_test(s, &p, st_deviation(&p, &job, &x), st_rerun, &job, &rs);
        equ_restart_evidence(evi, "restored_runs_differ", &rs);
        equ_restart_text(&rs, rt, sizeof rt);
        if (rs.verdict > 0) {
            fmuc_result_note(res, "%s: the runs after fmi2SetFMUstate are not bit-identical to "
                                  "the original, but the difference shrinks with the tolerance "
                                  "(%s): the integrator restarts, the state was restored",
                             ifn, rt);
        } else {
            for (int k = 0; k < NCMP; k++) {
                if (!mism[k])
                    continue;
                char b1[64], b2[64];
                size_t r = mr[k], c = mc[k];
                fmuc_result_violation(
                    res,
                    "%s: %s: '%s' (vr %u) differs at t=%.17g (step %zu): original %s, after "
                    "restore %s",
                    ifn, cmp_what[k], p.out[c].name, p.out[c].vr, p.t[r], r,
                    equ_fmt_bits(x.a[r * w + c], b1, sizeof b1),
                    equ_fmt_bits(cmp_series(&x, k)[r * w + c], b2, sizeof b2));
            }
            fmuc_result_note(res, "%s: %s%s", ifn, rt,
                             rs.verdict == 0 ? ": the difference does not shrink with the "
                                               "tolerance, so part of the state is not restored "
                                               "(not an integrator restart)"
                                             : "");
        }
    }
    if (status_of(rp, "free", &st)) {
        if (!fmuc_status_ok(st))
            fmuc_result_violation(res, "%s: fmi2FreeFMUstate returned %s", ifn,
                                  fmuc_status_name(2, (int)st, sb, sizeof sb));
        else if (!cJSON_IsTrue(cJSON_GetObjectItem(rp, "free_nulls")))
            fmuc_result_violation(res, "%s: fmi2FreeFMUstate did not set *FMUstate to NULL",
                                  ifn);
    }
    if (status_of(rp, "free_null", &st) && !fmuc_status_ok(st))
        fmuc_result_violation(res, "%s: fmi2FreeFMUstate with *FMUstate == NULL must be a no-op "
                                   "returning fmi2OK, got %s",
                              ifn, fmuc_status_name(2, (int)st, sb, sizeof sb));
    cJSON_AddNumberToObject(evi, "t1", p.t[job.k1]);
    cJSON_AddNumberToObject(evi, "t2", p.t[job.k2]);
    cJSON_AddNumberToObject(evi, "t3", p.t[job.k3]);
    cJSON_AddNumberToObject(evi, "variables", (double)p.nout);
    cJSON_AddBoolToObject(evi, "bit_identical", !any);
out:
    series_free(&x);
    fmuc_worker_outcome_free(&o);
    equ_plan_free(&p);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    equ_for_capable(s, res, 1u << FMUC_CAP_CAN_GET_AND_SET_FMU_STATE,
                    "canGetAndSetFMUstate=\"true\"", run_iface);
    equ_v3_names(s, res, 0);
}

const fmuc_check fmuc_check_eq_fmu_state = {
    .id = "eq-fmu-state",
    .title = "fmi2Get/Set/FreeFMUstate restore the run (up to an integrator restart)",
    .spec = "FMI 2.0.4 §2.1.8; FMI 3.0.2 §2.2.7.4",
    .level = FMUC_LEVEL_MUST,
    .why = "Masters roll back with fmi2SetFMUstate to retry a step or iterate a coupling; a state "
           "that does not restore the run makes every rolled-back step continue from wrong values.",
    .fix = "Copy the complete model state (discrete and solver state included) in fmi2GetFMUstate "
           "and restore all of it in fmi2SetFMUstate, or declare canGetAndSetFMUstate=\"false\".",
    .applies = FMUC_APPLIES_MECS,
    .versions = FMUC_V2 | FMUC_V3,
    .absent_in_v1 = "FMI 1.0 has no FMU state (get, set and free of a state came with FMI 2.0)",
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .sessions = 4,
    .run = run,
};
