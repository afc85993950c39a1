/* eq-determinism: the same input trajectory gives bit-identical outputs (uint64 bit patterns)
 * (1) in two fresh instances one after the other, (2) after fmi2Reset, (3) in two live instances
 * of one process stepped alternately (skipped with canBeInstantiatedOnlyOncePerProcess, which
 * also moves the second instance of (1) and (2) into a worker of its own), and
 * (4) in two separate worker processes. CS and ME (ME: fixed-step RK4, identical settings).
 * FMI 2.0.4 §2.1.5 (instances are independent; fmi2Reset restores the state after
 * fmi2Instantiate). */
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
} det_job;

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

static int det_worker(fmuc_worker_ctx *ctx, void *payload)
{
    const det_job *job = payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    equ_plan copy;
    const equ_plan *p = equ_worker_plan(&copy, job->plan);
    size_t n = (p->nsteps + 1) * p->nout;
    double *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b);
    char err[512];
    const fmuc_fmi *f = fmuc_worker_load(ctx, p->iface);
    if (!f || !a || !b) {
        cJSON_AddStringToObject(reply, "load_error", f ? "out of memory"
                                                       : fmuc_worker_load_error(ctx));
        goto out;
    }
    if (job->second_process) {
        fmuc_worker_phase(ctx, "fresh run in a second process");
        if (equ_run_fresh(f, p, "determinism", a, err, sizeof err) == 0)
            put_rows(reply, RUN_PROC, a, n);
        else
            put_err(reply, RUN_PROC, err);
        goto out;
    }
    if (!job->second_fresh) {
        fmuc_worker_phase(ctx, "first fresh instance");
        if (equ_run_fresh(f, p, "determinism", a, err, sizeof err) < 0) {
            put_err(reply, RUN_SEQ1, err);
            goto out;
        }
        put_rows(reply, RUN_SEQ1, a, n);
        if (job->once)
            goto out; /* the second instance gets its own worker */
    }
    fmuc_worker_phase(ctx, "second fresh instance, then fmi2Reset");
    equ_inst in;
    if (equ_inst_start(&in, f, p, "determinism") < 0 || equ_inst_record(&in, b) < 0 ||
        equ_inst_run_to(&in, p->nsteps, b) < 0) {
        put_err(reply, RUN_SEQ2, in.err);
    } else {
        put_rows(reply, RUN_SEQ2, b, n);
        if (equ_inst_reset(&in) < 0 || equ_inst_record(&in, b) < 0 ||
            equ_inst_run_to(&in, p->nsteps, b) < 0)
            put_err(reply, RUN_RESET, in.err);
        else
            put_rows(reply, RUN_RESET, b, n);
    }
    equ_inst_free(&in);
    if (job->interleave) {
        fmuc_worker_phase(ctx, "two instances stepped alternately");
        equ_inst ia, ib;
        memset(&ib, 0, sizeof ib);
        int ra = equ_inst_start(&ia, f, p, "determinismA");
        int rb = ra == 0 ? equ_inst_start(&ib, f, p, "determinismB") : -1;
        if (ra == 0 && rb == 0)
            ra = equ_inst_record(&ia, a);
        if (ra == 0 && rb == 0)
            rb = equ_inst_record(&ib, b);
        while (ra == 0 && rb == 0 && ia.k < p->nsteps) {
            ra = equ_inst_step(&ia);
            if (ra == 0)
                ra = equ_inst_record(&ia, a + ia.k * p->nout);
            if (ra == 0)
                rb = equ_inst_step(&ib);
            if (ra == 0 && rb == 0)
                rb = equ_inst_record(&ib, b + ib.k * p->nout);
        }
        if (ra < 0 || rb < 0) {
            put_err(reply, RUN_ALT_A, ra < 0 ? ia.err : ib.err);
        } else {
            put_rows(reply, RUN_ALT_A, a, n);
            put_rows(reply, RUN_ALT_B, b, n);
        }
        equ_inst_free(&ib);
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

/* Compare run b against run a; 1 when they differ (violation reported). */
static int compare(fmuc_result *res, cJSON *evi, const equ_plan *p, const char *mode,
                   const char *la, const double *a, const char *lb, const double *b,
                   const char *hint)
{
    size_t r, c;
    if (!equ_first_diff(a, b, p->nsteps + 1, p->nout, &r, &c)) {
        cJSON_AddStringToObject(evi, mode, "bit-identical");
        return 0;
    }
    char b1[64], b2[64];
    double va = a[r * p->nout + c], vb = b[r * p->nout + c];
    fmuc_result_violation(res,
                          "%s, %s: '%s' (vr %u) first differs at t=%.17g (step %zu): %s %s, %s "
                          "%s — %s",
                          equ_iface_name(p->iface), mode, p->out[c].name, p->out[c].vr, p->t[r],
                          r, la, equ_fmt_bits(va, b1, sizeof b1), lb,
                          equ_fmt_bits(vb, b2, sizeof b2), hint);
    cJSON *o = cJSON_AddObjectToObject(evi, mode);
    cJSON_AddNumberToObject(o, "time", p->t[r]);
    cJSON_AddNumberToObject(o, "step", (double)r);
    cJSON_AddStringToObject(o, "variable", p->out[c].name);
    cJSON_AddNumberToObject(o, "vr", p->out[c].vr);
    cJSON_AddStringToObject(o, la, b1);
    cJSON_AddStringToObject(o, lb, b2);
    return 1;
}

static void run_iface(const fmuc_subject *s, fmuc_result *res, fmi2Type iface, int level)
{
    equ_plan p;
    fmuc_worker_outcome o1, o2;
    double *rows[NRUNS] = {0};
    if (equ_plan_init(&p, s->fmu, iface, EQU_STEPS_SHORT) < 0) {
        fmuc_result_na(res, "%s: %s", equ_iface_name(iface), p.why);
        equ_plan_free(&p);
        return;
    }
    if (equ_plan_horizon(&p, s, res) != 0) {
        equ_plan_free(&p);
        return;
    }
    equ_plan_me_budget(&p, level, EQU_ME_SUBSTEPS_SHORT);
    equ_plan_excite(&p);
    size_t n = (p.nsteps + 1) * p.nout;
    int once = equ_cap(s->fmu, iface, FMUC_CAP_CAN_BE_INSTANTIATED_ONLY_ONCE_PER_PROCESS);
    det_job j1 = {&p, 0, !once, once, 0}, j2 = {&p, 1, 0, once, 0}, j3 = {&p, 0, 0, once, 1};
    fmuc_worker_outcome o3;
    memset(&o3, 0, sizeof o3);
    if (equ_worker(s, s->fmu, "eq-determinism", det_worker, &j1, &o1, res) < 0) {
        equ_plan_free(&p);
        return;
    }
    const char *le = cJSON_GetStringValue(cJSON_GetObjectItem(o1.reply, "load_error"));
    const char *e1 = get_err(o1.reply, RUN_SEQ1);
    if (le || e1) {
        fmuc_result_na(res, "%s: the nominal run failed (%s); determinism not assessed",
                       equ_iface_name(iface), le ? le : e1);
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
    if (once && equ_worker(s, s->fmu, "eq-determinism", det_worker, &j3, &o3, res) < 0) {
        fmuc_worker_outcome_free(&o2);
        fmuc_worker_outcome_free(&o1);
        equ_plan_free(&p);
        return;
    }
    const cJSON *r2 = once ? o3.reply : o1.reply;
    for (int r = 0; r < RUN_PROC; r++)
        rows[r] = get_rows(r == RUN_SEQ2 || r == RUN_RESET ? r2 : o1.reply, r, n);
    rows[RUN_PROC] = get_rows(o2.reply, RUN_PROC, n);
    cJSON *ev = fmuc_result_evidence(res);
    cJSON *evi = cJSON_AddObjectToObject(ev, equ_iface_name(iface));
    cJSON_AddNumberToObject(evi, "steps", (double)p.nsteps);
    cJSON_AddNumberToObject(evi, "variables", (double)p.nout);
    int local = 0;
    /* (1) sequential fresh instances */
    if (once)
        fmuc_result_note(res, "%s, (1) and (2): canBeInstantiatedOnlyOncePerProcess=\"true\", "
                              "so the second instance ran in a worker process of its own",
                         equ_iface_name(iface));
    if (rows[RUN_SEQ2])
        local |= compare(res, evi, &p, "(1) two fresh instances in sequence", "instance 1",
                         rows[RUN_SEQ1], "instance 2", rows[RUN_SEQ2],
                         "state survives fmi2FreeInstance (static/global variables, "
                         "uninitialised memory) or results depend on the clock or a random "
                         "seed");
    else
        fmuc_result_violation(res, "%s, (1) second fresh instance: %s", equ_iface_name(iface),
                              get_err(r2, RUN_SEQ2) ? get_err(r2, RUN_SEQ2) : "no result");
    /* (2) after reset */
    const char *seq = "even two fresh instances differ: results depend on something outside "
                      "the instance (clock, random seed, global state)";
    if (rows[RUN_RESET])
        local |= compare(res, evi, &p, "(2) after fmi2Reset", "fresh", rows[RUN_SEQ1],
                         "after reset", rows[RUN_RESET],
                         local ? seq
                               : "fmi2Reset does not restore the state after fmi2Instantiate");
    else if (get_err(r2, RUN_RESET))
        fmuc_result_note(res, "%s, (2) after fmi2Reset not assessed: %s", equ_iface_name(iface),
                         get_err(r2, RUN_RESET));
    /* (3) interleaved */
    if (once) {
        fmuc_result_note(res, "%s, (3) skipped: canBeInstantiatedOnlyOncePerProcess=\"true\"",
                         equ_iface_name(iface));
        cJSON_AddStringToObject(evi, "(3) two live instances stepped alternately",
                                "skipped (canBeInstantiatedOnlyOncePerProcess)");
    } else if (rows[RUN_ALT_A] && rows[RUN_ALT_B]) {
        const char *hint = local ? seq
                                 : "two instances disturb each other: hidden global state "
                                   "shared between instances";
        int d = compare(res, evi, &p, "(3) two live instances stepped alternately, first",
                        "alone", rows[RUN_SEQ1], "interleaved", rows[RUN_ALT_A], hint);
        if (!d)
            d = compare(res, evi, &p, "(3) two live instances stepped alternately, second",
                        "alone", rows[RUN_SEQ1], "interleaved", rows[RUN_ALT_B], hint);
        local |= d;
    } else {
        fmuc_result_violation(res, "%s, (3) two live instances: %s", equ_iface_name(iface),
                              get_err(o1.reply, RUN_ALT_A) ? get_err(o1.reply, RUN_ALT_A)
                                                           : "no result");
    }
    /* (4) another process */
    if (rows[RUN_PROC]) {
        compare(res, evi, &p, "(4) separate worker processes", "process 1", rows[RUN_SEQ1],
                "process 2", rows[RUN_PROC],
                local ? "the runs also differ within one process"
                      : "the difference appears only across processes: results depend on "
                        "time, PID or addresses (ASLR) used as a seed");
    } else {
        fmuc_result_violation(res, "%s, (4) run in a second process failed: %s",
                              equ_iface_name(iface),
                              get_err(o2.reply, RUN_PROC) ? get_err(o2.reply, RUN_PROC)
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
    fmi2Type ifaces[2];
    size_t ni = equ_interfaces(s->fmu, ifaces);
    char why[512];
    if (!ni) {
        fmuc_result_na(res, "no interface with a binary for this platform");
        return;
    }
    int level = fmuc_eq__vdsim_level(s->fmu, s->opts, why, sizeof why);
    for (size_t i = 0; i < ni; i++)
        run_iface(s, res, ifaces[i], level);
}

const fmuc_check fmuc_check_eq_determinism = {
    .id = "eq-determinism",
    .title = "Runs are bit-identical: fresh instances, after fmi2Reset, interleaved, across "
             "processes",
    .spec = "FMI 2.0.4 §2.1.5, §2.1.6",
    .level = FMUC_LEVEL_MUST,
    .applies = FMUC_APPLIES_ANY,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
