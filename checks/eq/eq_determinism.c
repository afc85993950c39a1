/* eq-determinism: the same input trajectory gives the same outputs (values: -0.0 = +0.0,
 * NaN = NaN) (1) in two fresh instances one after the other, (2) after fmi2Reset, (3) in two live
 * instances of one process stepped alternately (skipped with
 * canBeInstantiatedOnlyOncePerProcess, which also moves the second instance of (1) and (2) into a
 * worker of its own), and (4) in two separate worker processes. CS and ME (ME: fixed-step RK4,
 * identical settings).
 *
 * Levels, by the text of FMI 2.0.4:
 * (4) nothing in the text requires reproducible results (an FMU may seed noise from the clock):
 *     a difference between processes warns, and then (1) to (3) cannot tell a defect from that
 *     and are noted only.
 * (1) with canBeInstantiatedOnlyOncePerProcess="false" a process may hold several instances
 *     (§3.3.1 / §4.3.1), each one "a new instance" (§2.1.5): when a fresh process reproduces
 *     instance 1 but instance 2 of the same process differs, the first left state behind: fail.
 * (2) fmi2Reset: "The FMU goes into the same state as if fmi2Instantiate would have been
 *     called" (§2.1.6): the run after it must repeat the instance's run before it, up to the
 *     error of an integrator that does not restart identically (a difference that shrinks with
 *     the tolerance, equ_restart_test): fail otherwise. After a run that succeeded, fmi2Reset
 *     returning anything but fmi2OK/fmi2Warning, or a call of the run after it failing, fails
 *     too (named as the reset rule's failure).
 * (3) independent instances (the flag, and §2.1: functions of different instances can be
 *     called in any order): fail.
 *
 * Cost (issue 16, time bounds): every instance's start (instantiate, initialize, the solver's
 * first steps) can cost most of a run. So the worker first tries the short sequence: instance
 * 1 alone, then (3) two live instances A and B, then fmi2Reset of A and its run. When A and B
 * both repeat instance 1, A is also the second fresh instance of (1), and the run of A is the
 * run before the reset for (2): one instance fewer. Any other outcome (a difference, an error,
 * a crash) runs the full sequence in a new worker and is judged from it, so the verdicts are
 * those of the full sequence.
 *
 * FMI 3.0 (FMI 3.0.2 §2.3.1: fmi3Reset puts the instance back into Instantiated with every
 * default, fmi3-rules C-16; §2.2.1: no process-global state, C-03; §3.4/§4.4 the once-per-process
 * flag): the same four comparisons, recording the scalar Float64/Int32/Boolean outputs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eq_util.h"

enum { RUN_SEQ1 = 0, RUN_SEQ2, RUN_RESET, RUN_ALT_A, RUN_ALT_B, RUN_PROC, NRUNS };
static const char *const run_key[NRUNS] = {"seq1", "seq2", "reset", "alt_a", "alt_b", "proc"};

typedef struct det_job {
    const equ_plan *plan;
    int second_process; /* only the RUN_PROC run */
    int interleave;
    int once;           /* canBeInstantiatedOnlyOncePerProcess: one instance in this worker */
    int second_fresh;   /* with once: only the second fresh instance (RUN_SEQ2, RUN_RESET) */
    int merged;         /* with interleave: (1) and (2) from instance A of (3) (see above) */
} det_job;

/* Crashes in these phases answer what (1) to (3) probe: a second instance in the
 * process, fmi2Reset, two live instances. */
static const char *const probe_phases[] = {"second fresh instance", "reset (",
                                           "two instances stepped alternately", NULL};
static const char *const reset_phases[] = {"reset (", NULL};

static void put_rows(cJSON *reply, int run, const double *rows, size_t n)
{
    cJSON_AddItemToObject(reply, run_key[run], fmuc_worker_f64_to_json(rows, n));
}

static void put_err(cJSON *reply, int run, const char *err)
{
    char key[32];
    snprintf(key, sizeof key, "%s_error", run_key[run]);
    cJSON_AddStringToObject(reply, key, err);
}

/* Two fresh instances stepped alternately, one communication step each, A first (rows into a
 * and b): the reply gets both series (RUN_ALT_A, RUN_ALT_B), or RUN_ALT_A with the first failure.
 * B is freed here, A (*ia, always initialised) is left to the caller. 0 when both ran to the end. */
static int alternate(fmuc_worker_ctx *ctx, const equ_plan *p, equ_inst *ia, double *a, double *b,
                     size_t n, cJSON *reply)
{
    equ_inst ib;
    memset(&ib, 0, sizeof ib);
    int ra = equ_inst_start(ia, ctx, p, "determinismA");
    int rb = ra == 0 ? equ_inst_start(&ib, ctx, p, "determinismB") : -1;
    if (ra == 0 && rb == 0)
        ra = equ_inst_record(ia, a);
    if (ra == 0 && rb == 0)
        rb = equ_inst_record(&ib, b);
    while (ra == 0 && rb == 0 && ia->k < p->nsteps) {
        ra = equ_inst_step(ia);
        if (ra == 0)
            ra = equ_inst_record(ia, a + ia->k * p->nout);
        if (ra == 0)
            rb = equ_inst_step(&ib);
        if (ra == 0 && rb == 0)
            rb = equ_inst_record(&ib, b + ib.k * p->nout);
    }
    equ_inst_free(&ib);
    if (ra < 0 || rb < 0) {
        put_err(reply, RUN_ALT_A, ra < 0 ? ia->err : ib.err);
        return -1;
    }
    put_rows(reply, RUN_ALT_A, a, n);
    put_rows(reply, RUN_ALT_B, b, n);
    return 0;
}

static int det_worker(fmuc_worker_ctx *ctx, void *payload)
{
    const det_job *job = payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    equ_plan copy;
    const equ_plan *p = equ_worker_plan(&copy, job->plan);
    size_t n = (p->nsteps + 1) * p->nout;
    double *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b);
    char err[512];
    int f_loaded = fmuc_inst_load(ctx, (fmuc_iface)(p->iface)) == 0;
    if (!f_loaded || !a || !b) {
        cJSON_AddStringToObject(reply, "load_error", f_loaded ? "out of memory"
                                                       : fmuc_worker_load_error(ctx));
        goto out;
    }
    if (job->second_process) {
        fmuc_worker_phase(ctx, "fresh run in a second process");
        if (equ_run_fresh(ctx, p, "determinism", a, err, sizeof err) == 0)
            put_rows(reply, RUN_PROC, a, n);
        else
            put_err(reply, RUN_PROC, err);
        goto out;
    }
    if (!job->second_fresh) {
        fmuc_worker_phase(ctx, "first fresh instance");
        if (equ_run_fresh(ctx, p, "determinism", a, err, sizeof err) < 0) {
            put_err(reply, RUN_SEQ1, err);
            goto out;
        }
        put_rows(reply, RUN_SEQ1, a, n);
        if (job->once)
            goto out; /* the second instance gets its own worker */
    }
    if (job->merged && job->interleave) {
        fmuc_worker_phase(ctx, "two instances stepped alternately");
        equ_inst ia;
        if (alternate(ctx, p, &ia, a, b, n, reply) == 0) {
            fmuc_worker_phase(ctx, "reset (fmi2Reset / fmiResetSlave) and the run after it");
            if (equ_inst_reset(&ia) < 0 || equ_inst_record(&ia, b) < 0 ||
                equ_inst_run_to(&ia, p->nsteps, b) < 0)
                put_err(reply, RUN_RESET, ia.err);
            else
                put_rows(reply, RUN_RESET, b, n);
        }
        equ_inst_free(&ia);
        goto out;
    }
    fmuc_worker_phase(ctx, "second fresh instance");
    equ_inst in;
    if (equ_inst_start(&in, ctx, p, "determinism") < 0 || equ_inst_record(&in, b) < 0 ||
        equ_inst_run_to(&in, p->nsteps, b) < 0) {
        put_err(reply, RUN_SEQ2, in.err);
    } else {
        put_rows(reply, RUN_SEQ2, b, n);
        fmuc_worker_phase(ctx, "reset (fmi2Reset / fmiResetSlave) and the run after it");
        if (equ_inst_reset(&in) < 0 || equ_inst_record(&in, b) < 0 ||
            equ_inst_run_to(&in, p->nsteps, b) < 0)
            put_err(reply, RUN_RESET, in.err);
        else
            put_rows(reply, RUN_RESET, b, n);
    }
    equ_inst_free(&in);
    if (job->interleave) {
        fmuc_worker_phase(ctx, "two instances stepped alternately");
        equ_inst ia;
        alternate(ctx, p, &ia, a, b, n, reply);
        equ_inst_free(&ia);
    }
out:
    free(a);
    free(b);
    return 0;
}

static double *get_rows(const cJSON *reply, int run, size_t n)
{
    return fmuc_worker_f64_from_json(cJSON_GetObjectItem(reply, run_key[run]), n);
}

static const char *get_err(const cJSON *reply, int run)
{
    char key[32];
    snprintf(key, sizeof key, "%s_error", run_key[run]);
    return cJSON_GetStringValue(cJSON_GetObjectItem(reply, key));
}

/* One comparison: b against a over the whole run. Returns 1 when they differ (evidence[mode] gets
 * the first difference, *msg a sentence naming it), 0 when the same (evidence[mode] =
 * "identical"). */
static int differs(cJSON *evi, const equ_plan *p, const char *mode, const char *la,
                   const double *a, const char *lb, const double *b, char *msg, size_t msgsz)
{
    size_t r, c;
    if (!equ_first_mismatch(a, b, p->nsteps + 1, p->nout, &r, &c)) {
        cJSON_AddStringToObject(evi, mode, "identical");
        return 0;
    }
    char b1[64], b2[64];
    double va = a[r * p->nout + c], vb = b[r * p->nout + c];
    snprintf(msg, msgsz, "%s, %s: '%s' (vr %u) first differs at t=%.17g (step %zu): %s %s, %s %s",
             equ_iface_name(p->iface), mode, p->out[c].name, p->out[c].vr, p->t[r], r, la,
             equ_fmt_bits(va, b1, sizeof b1), lb, equ_fmt_bits(vb, b2, sizeof b2));
    cJSON *o = cJSON_AddObjectToObject(evi, mode);
    cJSON_AddNumberToObject(o, "time", p->t[r]);
    cJSON_AddNumberToObject(o, "step", (double)r);
    cJSON_AddStringToObject(o, "variable", p->out[c].name);
    cJSON_AddNumberToObject(o, "vr", p->out[c].vr);
    cJSON_AddStringToObject(o, la, b1);
    cJSON_AddStringToObject(o, lb, b2);
    return 1;
}

/* (2) again at another tolerance: a fresh instance, fmi2Reset, the run again; the deviation of
 * the run after the reset from the one before, or -1. */
static double reset_rerun(const fmuc_subject *s, const equ_plan *q, void *ctx,
                          fmuc_result *scratch, char *why, size_t whysz)
{
    (void)ctx;
    det_job j = {q, 0, 0, 1, 1, 0};
    fmuc_worker_outcome o;
    if (equ_worker(s, s->fmu, "eq-determinism (tolerance)", det_worker, &j, &o, scratch) < 0)
        return -1.0;
    size_t n = (q->nsteps + 1) * q->nout;
    double *a = get_rows(o.reply, RUN_SEQ2, n), *b = get_rows(o.reply, RUN_RESET, n), d = -1.0;
    if (a && b) {
        d = equ_deviation(a, b, q->nsteps + 1, q->nout, NULL, NULL);
    } else {
        const char *e = get_err(o.reply, RUN_SEQ2);
        if (!e)
            e = get_err(o.reply, RUN_RESET);
        snprintf(why, whysz, "%s", e ? e : "no result");
    }
    free(a);
    free(b);
    fmuc_worker_outcome_free(&o);
    return d;
}

/* The short sequence (header comment). 1 when its reply stands for the full sequence's (*o
 * filled and recorded in res): the worker ended normally, instance 1 ran, both instances of
 * (3) repeated it, and the run after fmi2Reset is there or failed. -1 when the worker timed
 * out or ended early (recorded in res as equ_worker_probe does; the full sequence, a superset
 * of this one, would meet the same and is not run: a hang is not repeated). Else 0 with
 * nothing recorded: the caller runs the full sequence. */
static int merged_attempt(const fmuc_subject *s, const equ_plan *p, fmuc_worker_outcome *o,
                          fmuc_result *res)
{
    det_job j = {p, 0, 1, 0, 0, 1};
    fmuc_worker_spec spec;
    fmuc_diag d = {{0}, FMUC_OK};
    fmuc_worker_spec_init(&spec, s->fmu, s->opts);
    spec.label = "eq-determinism";
    if (spec.reply_max_bytes < ((size_t)256 << 20))
        spec.reply_max_bytes = (size_t)256 << 20;
    if (fmuc_worker_run(&spec, det_worker, &j, o, &d) < 0) {
        fmuc_worker_outcome_free(o);
        return 0;
    }
    /* a crash or a hang in an FMI call: the full sequence runs and is judged (equ_worker_probe) */
    if (o->end != FMUC_WORKER_OK && o->end != FMUC_WORKER_CRASHED &&
        !(o->end == FMUC_WORKER_TIMEOUT && o->call_in_progress)) {
        fmuc_worker_outcome_to_result(o, res);
        fmuc_worker_outcome_free(o);
        return -1;
    }
    int clean = o->end == FMUC_WORKER_OK && o->reply &&
                !cJSON_GetObjectItem(o->reply, "load_error") && !get_err(o->reply, RUN_SEQ1) &&
                !get_err(o->reply, RUN_ALT_A) &&
                (cJSON_GetObjectItem(o->reply, run_key[RUN_RESET]) ||
                 get_err(o->reply, RUN_RESET));
    size_t n = (p->nsteps + 1) * p->nout, r, c;
    double *one = clean ? get_rows(o->reply, RUN_SEQ1, n) : NULL;
    double *ra = clean ? get_rows(o->reply, RUN_ALT_A, n) : NULL;
    double *rb = clean ? get_rows(o->reply, RUN_ALT_B, n) : NULL;
    clean = one && ra && rb && !equ_first_mismatch(one, ra, p->nsteps + 1, p->nout, &r, &c) &&
            !equ_first_mismatch(one, rb, p->nsteps + 1, p->nout, &r, &c);
    free(one);
    free(ra);
    free(rb);
    if (clean && fmuc_worker_outcome_to_result(o, res) == 0)
        return 1;
    fmuc_worker_outcome_free(o);
    return 0;
}

static void run_iface(const fmuc_subject *s, fmuc_result *res, fmuc_iface iface, int level)
{
    equ_plan p;
    fmuc_worker_outcome o1, o2, o3;
    double *rows[NRUNS] = {0};
    const char *ifn = equ_iface_name(iface);
    char msg[1024], what[96];
    /* the version's reset: FMI 1.0 CS fmiResetSlave; ME 1.0 has none (re-instantiate) */
    const int v1 = fmuc_fmu_fmi_version(s->fmu) == 1;
    /* the clause of the reset rule in the FMU's version */
    const char *reset_clause = v1                                   ? "FMI 1.0 CS: fmiResetSlave"
                               : fmuc_fmu_fmi_version(s->fmu) == 3 ? "FMI 3.0.2 §2.3.1"
                                                                   : "§2.1.6";
    const char *rst = v1 ? "fmiResetSlave" : "fmi2Reset";
    /* a crash or hang in what (1) to (3) probe is the check's result: a failure of the 2.0 rules;
     * FMI 1.0 leaves the state after fmiResetSlave open (fmi1-rules gaps 4): a warning there */
    const fmuc_verdict probe_verdict = v1 ? FMUC_VERDICT_WARN : FMUC_VERDICT_FAIL;
    char after_reset[64];
    snprintf(after_reset, sizeof after_reset, "(2) after %s", rst);
    if (equ_plan_init(&p, s->fmu, iface, EQU_STEPS_SHORT) < 0) {
        fmuc_result_na_part(res, "%s: %s", ifn, p.why);
        equ_plan_free(&p);
        return;
    }
    if (equ_plan_horizon(&p, s, res) != 0) {
        equ_plan_free(&p);
        return;
    }
    equ_plan_me_budget(&p, level, EQU_ME_SUBSTEPS_SHORT);
    /* moving inputs, held over blocks in Co-Simulation (equ_plan_excite_held) */
    equ_plan_excite_held(&p, res);
    size_t n = (p.nsteps + 1) * p.nout;
    int once = equ_cap(s->fmu, iface, FMUC_CAP_CAN_BE_INSTANTIATED_ONLY_ONCE_PER_PROCESS);
    det_job j1 = {&p, 0, !once, once, 0, 0}, j2 = {&p, 1, 0, once, 0, 0},
            j3 = {&p, 0, 0, once, 1, 0};
    memset(&o3, 0, sizeof o3);
    snprintf(what, sizeof what, "%s: instances of one process", ifn);
    int merged = once ? 0 : merged_attempt(s, &p, &o1, res);
    if (merged < 0) {
        equ_plan_free(&p);
        return;
    }
    if (!merged &&
        equ_worker_probe(s, s->fmu, "eq-determinism", det_worker, &j1, &o1, res,
                         once ? reset_phases : probe_phases, probe_verdict, what) < 0) {
        equ_plan_free(&p);
        return;
    }
    const char *le = cJSON_GetStringValue(cJSON_GetObjectItem(o1.reply, "load_error"));
    const char *e1 = get_err(o1.reply, RUN_SEQ1);
    if (le || e1) {
        fmuc_result_na_part(res,
                            "%s: this check's own run on the nominal grid did not reach its "
                            "end (%s); determinism not assessed",
                            ifn, le ? le : e1);
        fmuc_worker_outcome_free(&o1);
        equ_plan_free(&p);
        return;
    }
    if (equ_worker(s, s->fmu, "eq-determinism", det_worker, &j2, &o2, res) < 0) {
        fmuc_worker_outcome_free(&o1);
        equ_plan_free(&p);
        return;
    }
    /* once per process (X10): (1) and (2) use a second worker for the second instance */
    if (once && equ_worker_probe(s, s->fmu, "eq-determinism", det_worker, &j3, &o3, res,
                                 reset_phases, probe_verdict, what) < 0) {
        fmuc_worker_outcome_free(&o2);
        fmuc_worker_outcome_free(&o1);
        equ_plan_free(&p);
        return;
    }
    const cJSON *r2 = once ? o3.reply : o1.reply;
    for (int r = 0; r < RUN_PROC; r++)
        rows[r] = get_rows(r == RUN_SEQ2 || r == RUN_RESET ? r2 : o1.reply, r,
                           n); /* merged: no seq2, see below */
    if (merged && !rows[RUN_SEQ2])
        rows[RUN_SEQ2] = get_rows(o1.reply, RUN_ALT_A, n);
    rows[RUN_PROC] = get_rows(o2.reply, RUN_PROC, n);
    cJSON *ev = fmuc_result_evidence(res);
    cJSON *evi = cJSON_AddObjectToObject(ev, ifn);
    cJSON_AddNumberToObject(evi, "steps", (double)p.nsteps);
    cJSON_AddNumberToObject(evi, "variables", (double)p.nout);
    if (merged)
        cJSON_AddStringToObject(evi, "(1) and (2) instance",
                                "the first instance of (3), made after instance 1 was freed; "
                                "both instances of (3) repeated instance 1");
    if (once)
        fmuc_result_note(res, "%s, (1) and (2): canBeInstantiatedOnlyOncePerProcess=\"true\", "
                              "so the second instance ran in a worker process of its own",
                         ifn);
    /* (4) a fresh process: is the FMU reproducible at all? FMI 2.0.4 asks nothing of the kind,
     * so results that depend on the clock, the process or addresses only warn, and then the
     * comparisons within one process cannot tell a defect from that. */
    int nondet = 0;
    if (rows[RUN_PROC]) {
        if (differs(evi, &p, "(4) separate worker processes", "process 1", rows[RUN_SEQ1],
                    "process 2", rows[RUN_PROC], msg, sizeof msg)) {
            nondet = 1;
            fmuc_result_warn(res, "%s — the results are not reproducible: they depend on "
                                  "something outside the FMU's inputs (clock, process id, "
                                  "addresses, a random seed); FMI 2.0.4 does not require "
                                  "reproducible results, so this warns",
                             msg);
        }
    } else {
        nondet = 1;
        fmuc_result_warn(res, "%s, (4) the same run in a second process failed: %s", ifn,
                         get_err(o2.reply, RUN_PROC) ? get_err(o2.reply, RUN_PROC)
                                                     : "no result");
    }
    const char *unjudged = "not judged: the FMU is not reproducible across processes either";
    /* (1) sequential fresh instances */
    int leak = 0;
    if (rows[RUN_SEQ2]) {
        if (differs(evi, &p, "(1) two fresh instances in sequence", "instance 1",
                    rows[RUN_SEQ1], "instance 2", rows[RUN_SEQ2], msg, sizeof msg)) {
            if (once || nondet) {
                fmuc_result_note(res, "%s (%s)", msg,
                                 once ? "in two processes: see (4)" : unjudged);
            } else {
                leak = 1;
                fmuc_result_violation(
                    res,
                    "%s, while a fresh process reproduces instance 1 — the freed first instance "
                    "leaves state (static or global data) that changes the second: with "
                    "canBeInstantiatedOnlyOncePerProcess=\"false\" instances of one process "
                    "must each behave as the model (§2.1.5, §4.3.1 / §3.3.1)",
                    msg);
            }
        }
    } else if (once) {
        fmuc_result_warn(res, "%s, (1) a second fresh instance in a process of its own failed: %s",
                         ifn, get_err(r2, RUN_SEQ2) ? get_err(r2, RUN_SEQ2) : "no result");
    } else {
        fmuc_result_violation(res, "%s, (1) second fresh instance in the same process: %s "
                                   "(canBeInstantiatedOnlyOncePerProcess=\"false\")",
                              ifn, get_err(r2, RUN_SEQ2) ? get_err(r2, RUN_SEQ2) : "no result");
    }
    /* (2) after fmi2Reset, against the same instance's run before it */
    if (rows[RUN_RESET] && rows[RUN_SEQ2]) {
        if (differs(evi, &p, after_reset, "before reset", rows[RUN_SEQ2],
                    "after reset", rows[RUN_RESET], msg, sizeof msg)) {
            if (nondet) {
                fmuc_result_note(res, "%s (%s)", msg, unjudged);
            } else {
                equ_restart rs;
                char rt[640];
                double d = equ_deviation(rows[RUN_SEQ2], rows[RUN_RESET], p.nsteps + 1, p.nout,
                                         NULL, NULL);
                equ_restart_test(s, &p, d, reset_rerun, NULL, &rs);
                equ_restart_evidence(evi, "(2) tolerance", &rs);
                equ_restart_text(&rs, rt, sizeof rt);
                if (rs.verdict > 0)
                    fmuc_result_note(res, "%s — within the integration error: the difference "
                                          "shrinks with the tolerance (%s)",
                                     msg, rt);
                else
                    fmuc_result_violation(res, "%s — %s must put the FMU into the state "
                                               "after %s (%s); %s",
                                          msg, rst, v1 ? "fmiInstantiateSlave" : "fmi2Instantiate",
                                          reset_clause, rt);
            }
        }
    } else if (v1 && iface == FMUC_IFACE_ME) {
        fmuc_result_note(res, "%s, (2) not assessed: Model Exchange 1.0 has no reset function",
                         ifn);
    } else if (get_err(r2, RUN_RESET) && rows[RUN_SEQ2]) {
        /* the instance ran before the reset: a failing fmi2Reset, or a call of the run after it
         * that the same run before it passed, breaks the reset rule itself */
        const char *e = get_err(r2, RUN_RESET);
        const char *inst_fn = v1 ? "fmiInstantiateSlave" : "fmi2Instantiate";
        const char *clause = reset_clause;
        if (strncmp(e, rst, strlen(rst)) == 0 && e[strlen(rst)] == ' ')
            fmuc_result_violation(res, "%s, (2) %s after a run that succeeded — %s must "
                                       "put the FMU into the state after %s (%s)",
                                  ifn, e, rst, inst_fn, clause);
        else if (v1)
            /* FMI 1.0 does not settle which calls the state after fmiResetSlave allows before
             * fmiInitializeSlave (../shared/fmi1-rules.md, gaps 4: implementations differ) */
            fmuc_result_warn(res, "%s, (2) the run after %s failed: %s, while the same run "
                                  "before the reset succeeded; FMI 1.0 leaves open what the "
                                  "state after fmiResetSlave allows before fmiInitializeSlave, "
                                  "so this warns",
                             ifn, rst, e);
        else
            fmuc_result_violation(res, "%s, (2) the run after %s failed: %s, while the "
                                       "same run before the reset succeeded — after %s "
                                       "the FMU must behave as after %s (%s)",
                                  ifn, rst, e, rst, inst_fn, clause);
    } else if (get_err(r2, RUN_RESET)) {
        fmuc_result_note(res, "%s, %s not assessed: %s", ifn, after_reset,
                         get_err(r2, RUN_RESET));
    }
    /* (3) two live instances stepped alternately */
    if (once) {
        fmuc_result_note(res, "%s, (3) skipped: canBeInstantiatedOnlyOncePerProcess=\"true\"",
                         ifn);
        cJSON_AddStringToObject(evi, "(3) two live instances stepped alternately",
                                "skipped (canBeInstantiatedOnlyOncePerProcess)");
    } else if (rows[RUN_ALT_A] && rows[RUN_ALT_B]) {
        int d = differs(evi, &p, "(3) two live instances stepped alternately, first", "alone",
                        rows[RUN_SEQ1], "interleaved", rows[RUN_ALT_A], msg, sizeof msg);
        if (!d)
            d = differs(evi, &p, "(3) two live instances stepped alternately, second", "alone",
                        rows[RUN_SEQ1], "interleaved", rows[RUN_ALT_B], msg, sizeof msg);
        if (d && (nondet || leak))
            fmuc_result_note(res, "%s (%s)", msg,
                             nondet ? unjudged : "not judged apart from (1)");
        else if (d)
            fmuc_result_violation(res, "%s — two instances disturb each other (state shared "
                                       "between instances): with "
                                       "canBeInstantiatedOnlyOncePerProcess=\"false\" the "
                                       "functions of different instances may be called in any "
                                       "order (§2.1, §4.3.1 / §3.3.1)",
                                  msg);
    } else if (nondet) {
        fmuc_result_note(res, "%s, (3) two live instances: %s", ifn,
                         get_err(o1.reply, RUN_ALT_A) ? get_err(o1.reply, RUN_ALT_A)
                                                      : "no result");
    } else {
        fmuc_result_violation(res, "%s, (3) two live instances: %s "
                                   "(canBeInstantiatedOnlyOncePerProcess=\"false\")",
                              ifn,
                              get_err(o1.reply, RUN_ALT_A) ? get_err(o1.reply, RUN_ALT_A)
                                                           : "no result");
    }
    for (int r = 0; r < NRUNS; r++)
        free(rows[r]);
    fmuc_worker_outcome_free(&o1);
    fmuc_worker_outcome_free(&o2);
    fmuc_worker_outcome_free(&o3);
    equ_plan_free(&p);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    fmuc_iface ifaces[2];
    size_t ni = equ_interfaces(s->fmu, ifaces);
    char why[512];
    if (!ni) {
        fmuc_result_na(res, "no interface with a binary for this platform");
        return;
    }
    ni = equ_usable_interfaces(s, res, ifaces);
    int level = fmuc_eq__vdsim_level(s->fmu, s->opts, why, sizeof why);
    equ_each_interface(s, res, ifaces, ni, level, run_iface);
    equ_v3_names(s, res, 0);
}

const fmuc_check fmuc_check_eq_determinism = {
    .id = "eq-determinism",
    .title = "Instances are independent and fmi2Reset restarts: fresh instances, after fmi2Reset, "
             "interleaved; runs differing across processes warn",
    .spec = "FMI 2.0.4 §2.1, §2.1.5, §2.1.6, §3.3.1, §4.3.1; FMI 3.0.2 §2.2.1, §2.3.1, §3.4, §4.4; "
            "FMI 1.0 ME (several instances of a model); FMI 1.0 CS "
            "(canBeInstantiatedOnlyOncePerProcess, fmiResetSlave)",
    .level = FMUC_LEVEL_MUST,
    .why = "Masters run several instances side by side and reset instances between runs; shared "
           "global state or an incomplete fmi2Reset makes results depend on what else ran before.",
    .fix = "Keep all model state in the instance (no static or global variables) and make "
           "fmi2Reset restore exactly what fmi2Instantiate set up; avoid unseeded randomness and "
           "clock readings.",
    .applies = FMUC_APPLIES_MECS,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .sessions = 5,
    .run = run,
};
