/* api-stop-time: with a defined stopTime, an attempt to compute past it is answered with Error.
 *   FMI 2.0.4 §2.1.6 (fmi2SetupExperiment; fmi2-rules C-13, M): with stopTimeDefined = fmi2True,
 *     stopTime is the final value of the independent variable, and when the environment tries
 *     to compute past it the FMU has to return fmi2Error.
 *   FMI 3.0.2 §2.3.2 (fmi3EnterInitializationMode; fmi3-rules C-17, M): the same sentence with
 *     fmi3Error.
 * Both texts speak of the environment computing past stopTime whatever the interface, so Model
 * Exchange is judged too. Probe, in an instance of its own per interface: the start time of the
 * default experiment t0 (else 0), an interval h (the default experiment's stepSize, else a
 * hundredth of its span, else 1e-3; FMI 3.0 CS with fixedInternalStepSize f: 4h at most the
 * nominal run's 1000 f), stopTime = t0 + 3h declared defined; initialization.
 *   Co-Simulation: three steps of h up to stopTime (they must succeed: a refusal there leaves
 *     the check not carried out), then one more step of h from stopTime, ending a whole h past
 *     it; it has to return Error.
 *   Model Exchange: in Continuous-Time Mode, SetTime(stopTime + h), then the computation at that
 *     time (the state derivatives; without states the event indicators; without either the
 *     Float64/Real outputs); the SetTime or the evaluation after it has to return Error.
 * Another status (OK, Warning, Discard, Fatal) fails; a crash or hang in the probed call fails.
 * Interop: a conforming importer never computes past the stopTime it declared itself, so an FMU
 * that goes on cannot break it (warn). Not judged: FMI 1.0 (its ME fmiInitialize takes no stop
 * time; Co-Simulation 1.0's fmiInitializeSlave puts the duty on the master, never to step past
 * tStop, fmi1-rules D-02, and names no status for the slave: U in the rule map), and the other
 * half of C-17/C-13 (startTime is the independent variable's initial value): the texts define
 * the argument, they state no observable behaviour a probe could hold the FMU to. */
#include "api_util.h"
#include "me/me_util.h"

#define PROBE "probe past stopTime"
#define NBEFORE 3

typedef struct st_job {
    fmuc_iface type;
    const fmuc_md *md;
    double t0, h, stop;
    size_t nx, nz;
} st_job;

static const char *sname(int ver, int st, char *b, size_t n) { return fmuc_status_name(ver, st, b, n); }

/* The Float64 (FMI 2.0: Real) scalar outputs, at most max of them. */
static size_t real_outputs(const fmuc_md *md, fmuc_vr *vr, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < md->nvars && n < max; i++) {
        const fmuc_md_var *v = &md->vars[i];
        const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, i);
        if (v->causality == FMUC_CAUS_OUTPUT && v->type == FMUC_TYPE_REAL &&
            (v->has & FMUC_HAS_VALUE_REFERENCE) && apiu_inst_base(v->base) == FMUC_INST_FLOAT64 &&
            !(x && x->ndims))
            vr[n++] = v->value_reference;
    }
    return n;
}

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    const st_job *job = payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    fmuc_status last = FMUC_STATUS_OK; /* the last call's status: what cleanup may follow it */
    char b[32];
    double *buf = NULL;
    fmuc_vr *vr = NULL;
    if (apiu_load(ctx, job->type) < 0)
        return 0;
    int ver = fmuc_inst_version(ctx);
    fmuc_inst *in = fmuc_inst_instantiate(ctx, job->type, NULL, "stoptime");
    if (!in) {
        cJSON_AddStringToObject(reply, "skip", "the instance could not be made");
        return 0;
    }
    fmuc_drive_start ds;
    fmuc_drive_reached r;
    fmuc_drive_start_init(&ds, job->md);
    ds.exp.start = job->t0;
    ds.exp.stop_defined = 1;
    ds.exp.stop = job->stop;
    ds.phase_init = "initialization with stopTime defined";
    unsigned target = job->type == FMUC_IFACE_ME ? FMUC_ST_CTM : FMUC_ST_SC;
    if (fmuc_drive_reach(in, target, &ds, &r) != 0) {
        char m[200];
        if (r.no_settle)
            snprintf(m, sizeof m, "the initial event iteration did not settle");
        else if (r.failed_op >= 0)
            snprintf(m, sizeof m, "%s returned %s with stopTime %.10g defined",
                     apiu_fn(ver, job->type, (fmuc_inst_op)r.failed_op),
                     sname(ver, r.status, b, sizeof b), job->stop);
        else
            snprintf(m, sizeof m, "the FMU asked to terminate during initialization");
        cJSON_AddStringToObject(reply, "skip", m);
        if (r.status == FMUC_STATUS_FATAL)
            fmuc_inst_abandon(in);
        else
            fmuc_inst_free(in);
        return 0;
    }
    if (job->type == FMUC_IFACE_CS) {
        double t = job->t0;
        for (int k = 0; k < NBEFORE; k++) {
            double tn = k == NBEFORE - 1 ? job->stop : job->t0 + (k + 1) * job->h;
            fmuc_worker_phase(ctx, "step %d up to stopTime", k + 1);
            fmuc_inst_step_info info;
            memset(&info, 0, sizeof info);
            fmuc_status st = fmuc_drive_do_step(in, t, tn - t, 0, &info, NULL);
            last = st;
            if (!fmuc_status_ok(st) || info.terminate_simulation || info.early_return) {
                char m[240];
                snprintf(m, sizeof m, "%s(%.10g, %.10g) before stopTime %.10g returned %s%s",
                         fmuc_inst_op_name(ver, FMUC_INST_OP_DO_STEP), t, tn - t, job->stop,
                         sname(ver, st, b, sizeof b),
                         fmuc_status_ok(st) ? " and asked to terminate or returned early" : "");
                cJSON_AddStringToObject(reply, "skip", m);
                goto out;
            }
            t = tn;
        }
        fmuc_worker_phase(ctx, PROBE " (%s)", fmuc_inst_op_name(ver, FMUC_INST_OP_DO_STEP));
        fmuc_status st = fmuc_drive_do_step(in, job->stop, job->h, 0, NULL, NULL);
        last = st;
        fmuc_worker_phase(ctx, "after the probe");
        cJSON_AddNumberToObject(reply, "status", st);
        cJSON_AddStringToObject(reply, "call", fmuc_inst_op_name(ver, FMUC_INST_OP_DO_STEP));
        cJSON_AddNumberToObject(reply, "reached", job->stop + job->h);
        goto out;
    }
    /* Model Exchange */
    double tp = job->stop + job->h;
    fmuc_worker_phase(ctx, PROBE " (%s)", fmuc_inst_op_name(ver, FMUC_INST_OP_SET_TIME));
    fmuc_status st = fmuc_inst_set_time(in, tp);
    last = st;
    cJSON_AddNumberToObject(reply, "reached", tp);
    if (!fmuc_status_ok(st)) {
        fmuc_worker_phase(ctx, "after the probe");
        cJSON_AddNumberToObject(reply, "status", st);
        cJSON_AddStringToObject(reply, "call", fmuc_inst_op_name(ver, FMUC_INST_OP_SET_TIME));
        goto out;
    }
    size_t n = job->nx ? job->nx : job->nz ? job->nz : 64;
    buf = calloc(n, sizeof *buf);
    vr = calloc(n, sizeof *vr);
    if (!buf || !vr) {
        cJSON_AddStringToObject(reply, "skip", "out of memory");
        goto out;
    }
    fmuc_inst_op op;
    if (job->nx) {
        op = FMUC_INST_OP_GET_DERIVATIVES;
        fmuc_worker_phase(ctx, PROBE " (%s)", fmuc_inst_op_name(ver, op));
        st = fmuc_inst_get_derivatives(in, buf, n);
    } else if (job->nz) {
        op = FMUC_INST_OP_GET_EVENT_INDICATORS;
        fmuc_worker_phase(ctx, PROBE " (%s)", fmuc_inst_op_name(ver, op));
        st = fmuc_inst_get_event_indicators(in, buf, n);
    } else {
        op = FMUC_INST_OP_GET_FLOAT64;
        n = real_outputs(job->md, vr, n);
        if (!n) {
            cJSON_AddStringToObject(reply, "skip",
                                    "no state, event indicator or Float64 output to evaluate at "
                                    "the time set past stopTime");
            cJSON_AddNumberToObject(reply, "set_time_status", st);
            goto out;
        }
        fmuc_worker_phase(ctx, PROBE " (get outputs)");
        st = fmuc_inst_get(in, FMUC_INST_FLOAT64, vr, n, buf, n);
    }
    last = st;
    fmuc_worker_phase(ctx, "after the probe");
    cJSON_AddNumberToObject(reply, "status", st);
    cJSON_AddStringToObject(reply, "call",
                            op == FMUC_INST_OP_GET_FLOAT64 ? (ver == 3 ? "fmi3GetFloat64" : "fmi2GetReal")
                                                   : fmuc_inst_op_name(ver, op));
    cJSON_AddBoolToObject(reply, "set_time_accepted", 1);
out:
    free(buf);
    free(vr);
    /* after Error only FreeInstance (or Reset) is allowed (2.0 §2.1.3, 3.0 §2.2.4: the FMU is
     * Terminated); after Fatal not even that */
    fmuc_worker_phase(ctx, "cleanup");
    if (last == FMUC_STATUS_FATAL) {
        fmuc_inst_abandon(in);
        return 0;
    }
    if (last != FMUC_STATUS_ERROR)
        fmuc_inst_terminate(in);
    fmuc_inst_free(in);
    return 0;
}

/* The interval of the probe: the default experiment's stepSize, else a hundredth of its span,
 * else 1e-3. */
static double interval(const fmuc_md *md)
{
    const fmuc_md_experiment *e = &md->experiment;
    double t0 = e->present && e->has_start && isfinite(e->start_time) ? e->start_time : 0.0;
    if (e->present && e->has_step && isfinite(e->step_size) && e->step_size > 0.0)
        return e->step_size;
    if (e->present && e->has_stop && isfinite(e->stop_time) && e->stop_time > t0)
        return (e->stop_time - t0) / 100.0;
    return 1e-3;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    apiu_iface ifs[2];
    /* an interface whose nominal run crashed or hung is not stepped again (it was reported) */
    size_t n = apiu_usable_ifaces(s, res, FMUC_UNUSABLE_RUN, ifs), tested = 0;
    if (!n) {
        fmuc_result_na(res, "no Model Exchange or Co-Simulation binary for this platform");
        return;
    }
    int ver = apiu_version(s);
    const fmuc_md_experiment *e = &md->experiment;
    st_job job = {.md = md};
    job.t0 = e->present && e->has_start && isfinite(e->start_time) ? e->start_time : 0.0;
    for (size_t i = 0; i < n; i++) {
        char b[32], eb[32];
        job.type = ifs[i].type;
        /* FMI 3.0 CS with fixedInternalStepSize: at most the nominal run's internal steps */
        job.h = interval(md);
        double end = fmuc_shared_fixed_step_stop(md, job.type, job.t0, job.t0 + (NBEFORE + 1) * job.h);
        if (end < job.t0 + (NBEFORE + 1) * job.h)
            job.h = (end - job.t0) / (NBEFORE + 1);
        job.stop = job.t0 + NBEFORE * job.h;
        job.nx = job.nz = 0;
        /* a step past stopTime by less than an FMU's round-off allowance of its time is no
         * probe: a correct FMU may accept it as ending at stopTime */
        if (!(job.h >= 1e-6 * fmax(1.0, fabs(job.stop)))) {
            fmuc_result_note(res, "%s not probed: the interval %.3g is within round-off of "
                                  "stopTime %.10g", ifs[i].name, job.h, job.stop);
            continue;
        }
        if (job.type == FMUC_IFACE_ME) {
            meu_model m;
            char why[200];
            if (meu_model_build(md, &m) < 0) {
                fmuc_result_note(res, "ModelExchange not probed: %s", m.why);
                meu_model_free(&m);
                continue;
            }
            int counts = fmuc_check_dynamic_counts_ok(m.ni, m.nx, why, sizeof why);
            job.nx = m.nx;
            job.nz = m.ni;
            meu_model_free(&m); /* only the counts are needed */
            if (counts < 0) {
                fmuc_result_note(res, "ModelExchange not probed: %s", why);
                continue;
            }
        }
        fmuc_worker_outcome o;
        int died = 0;
        const cJSON *r = apiu_run_probed(s, res, "api-stop-time", job.type, worker, &job, &o,
                                         PROBE, &died);
        if (died) {
            char why[600];
            fmuc_worker_death_text(&o, why, sizeof why);
            fmuc_result_violation(res, "%s: computing past stopTime %.10g (to t=%.10g) must be "
                                       "answered with %s, but the worker ended with %s",
                                  ifs[i].name, job.stop, job.stop + job.h,
                                  sname(ver, FMUC_STATUS_ERROR, eb, sizeof eb), why);
            tested++;
            fmuc_worker_outcome_free(&o);
            continue;
        }
        if (!r || apiu_load_failed(r, res, job.type)) {
            fmuc_worker_outcome_free(&o);
            continue;
        }
        const char *skip = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "skip"));
        const cJSON *stj = cJSON_GetObjectItemCaseSensitive(r, "status");
        const char *call = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "call"));
        if (skip || !cJSON_IsNumber(stj) || !call) {
            fmuc_result_note(res, "%s not probed: %s", ifs[i].name, skip ? skip : "no reply");
            fmuc_worker_outcome_free(&o);
            continue;
        }
        tested++;
        int st = stj->valueint;
        int set_acc = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "set_time_accepted"));
        if (st != FMUC_STATUS_ERROR) {
            if (job.type == FMUC_IFACE_CS)
                fmuc_result_violation(res, "CoSimulation: with stopTime = %.10g defined, %s(%.10g, "
                                           "%.10g) computes to t=%.10g past stopTime and "
                                           "returned %s (expected %s)",
                                      job.stop, call, job.stop, job.h, job.stop + job.h,
                                      sname(ver, st, b, sizeof b),
                                      sname(ver, FMUC_STATUS_ERROR, eb, sizeof eb));
            else /* derived: the sentence names no Model Exchange call, and in ME the importer's
                  * integrator, not the FMU, advances time (it may overshoot and interpolate back) */
                fmuc_result_warn(res, "ModelExchange: with stopTime = %.10g defined, "
                                      "%s(%.10g)%s%s returned %s (expected %s from the "
                                      "time set or the evaluation at that time past "
                                      "stopTime; derived for Model Exchange: the text names "
                                      "no call there)",
                                 job.stop, fmuc_inst_op_name(ver, FMUC_INST_OP_SET_TIME),
                                 job.stop + job.h, set_acc ? " was accepted and " : "",
                                 set_acc ? call : "", sname(ver, st, b, sizeof b),
                                 sname(ver, FMUC_STATUS_ERROR, eb, sizeof eb));
        } else {
            fmuc_result_note(res, "%s: %s at t=%.10g past stopTime %.10g returned %s",
                             ifs[i].name, call, job.stop + job.h, job.stop,
                             sname(ver, st, b, sizeof b));
        }
        fmuc_worker_outcome_free(&o);
    }
    fmuc_result_parts_judged(res, tested);
    if (!tested && res->verdict == FMUC_VERDICT_PASS)
        fmuc_result_na(res, "no interface could be probed");
}

const fmuc_check fmuc_check_api_stop_time = {
    .id = "api-stop-time",
    .title = "Computing past a defined stopTime returns Error",
    .spec = "FMI 2.0.4 §2.1.6 (fmi2SetupExperiment); FMI 3.0.2 §2.3.2 (fmi3EnterInitializationMode)",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_WARN,
    .interop_why = "a conforming importer never computes past the stopTime it declared itself: an "
                   "FMU that does not refuse it cannot break one",
    .why = "A master that steps or integrates past the stopTime it declared gets values the "
           "model was never validated or sized for (tables, result buffers), instead of the "
           "Error the standard promises.",
    .fix = "Keep stopTimeDefined and stopTime from set-up and return Error (with a log message) "
           "from a DoStep or SetTime whose time lies beyond stopTime by more than round-off.",
    .applies = FMUC_APPLIES_MECS,
    .versions = FMUC_V2 | FMUC_V3,
    .absent_in_v1 = "FMI 1.0 ME takes no stop time and CS 1.0 only forbids the master to step "
                    "past tStop",
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .sessions = 1,
    .run = run,
};
