/* api-evaluate-discrete-states: with providesEvaluateDiscreteStates, fmi3EvaluateDiscreteStates
 * computes the discrete states of the current instant from their previous values.
 *   FMI 3.0.2 §2.3.5 (Event Mode; fmi3-rules F-09, M): fmi3EvaluateDiscreteStates triggers
 *     f_disc, x_d := f_disc(•x_d, ...); the FMU signals support with the capability flag
 *     providesEvaluateDiscreteStates (ME and CS; without it the call has no effect). The Event
 *     Mode table then gets the outputs from f_event with those x_d, and fmi3UpdateDiscreteStates
 *     makes them the previous values (•x_d := x_d) and ends the instant.
 * What follows for a probe: at an instant that needs no further iteration (the update answers
 * discreteStatesNeedUpdate = false), the outputs read after fmi3EvaluateDiscreteStates are those
 * read after the fmi3UpdateDiscreteStates that follows it (the discrete states no longer change
 * there). Probe, per interface that declares the flag, in an instance of its own: Model
 * Exchange, and Co-Simulation with hasEventMode (instantiated with eventModeUsed: Event Mode is
 * the only state the function may be called in, §4.2 table; without hasEventMode CS is not
 * probed, noted); the instant after initialization and up to three time events the FMU
 * announces (nextEventTime; ME: Continuous-Time Mode, fmi3SetTime there, fmi3EnterEventMode; CS:
 * Step Mode, fmi3DoStep up to it, Event Mode). At each: fmi3EvaluateDiscreteStates (a status
 * other than OK/Warning fails), the numeric scalar outputs read, fmi3UpdateDiscreteStates; with
 * no further update needed the outputs read again and compared bit for bit (NaN equal to NaN):
 * a difference fails, naming the output, its valueReference, both values and the time.
 * Not applicable without the flag on ME or CS; Scheduled Execution ignores the flag. */
#include "api_util.h"
#include "fmuc/fmuc_step.h"

#define MAX_INSTANTS 4
#define MAX_OUT 256
#define MAX_ITER 100

typedef struct eds_job {
    fmuc_iface type;
    const fmuc_md *md;
} eds_job;

typedef struct eds_out {
    size_t n;
    size_t var[MAX_OUT];
    fmuc_vr vr[MAX_OUT];
    fmuc_inst_base b[MAX_OUT];
} eds_out;

static int numeric(fmuc_inst_base b)
{
    return b <= FMUC_INST_BOOLEAN || b == FMUC_INST_ENUMERATION;
}

/* The numeric scalar outputs (no arrays, no clocked ones), at most MAX_OUT. */
static void outputs(const fmuc_md *md, eds_out *o)
{
    o->n = 0;
    for (size_t i = 0; i < md->nvars && o->n < MAX_OUT; i++) {
        const fmuc_md_var *v = &md->vars[i];
        const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, i);
        fmuc_inst_base b = apiu_inst_base(v->base);
        if (v->causality != FMUC_CAUS_OUTPUT || !(v->has & FMUC_HAS_VALUE_REFERENCE) ||
            b >= FMUC_INST_NBASE || !numeric(b) || (x && (x->ndims || x->nclocks)))
            continue;
        o->var[o->n] = i;
        o->vr[o->n] = v->value_reference;
        o->b[o->n] = b;
        o->n++;
    }
}

static double as_double(fmuc_inst_base b, const void *p)
{
    switch (b) {
    case FMUC_INST_FLOAT32: return *(const float *)p;
    case FMUC_INST_FLOAT64: return *(const double *)p;
    case FMUC_INST_INT8: return *(const int8_t *)p;
    case FMUC_INST_UINT8: return *(const uint8_t *)p;
    case FMUC_INST_INT16: return *(const int16_t *)p;
    case FMUC_INST_UINT16: return *(const uint16_t *)p;
    case FMUC_INST_INT32: return *(const int32_t *)p;
    case FMUC_INST_UINT32: return *(const uint32_t *)p;
    case FMUC_INST_INT64: return (double)*(const int64_t *)p;
    case FMUC_INST_UINT64: return (double)*(const uint64_t *)p;
    case FMUC_INST_BOOLEAN: return *(const int *)p;
    case FMUC_INST_ENUMERATION: return (double)*(const int64_t *)p;
    default: return NAN;
    }
}

/* Reads every output into v; the status of the first read that failed, else OK. */
static fmuc_status read_outputs(fmuc_inst *in, const eds_out *o, double *v, size_t *bad)
{
    for (size_t k = 0; k < o->n; k++) {
        uint64_t buf[2] = {0, 0};
        fmuc_status st = fmuc_inst_get(in, o->b[k], &o->vr[k], 1, buf, 1);
        if (!fmuc_status_ok(st)) {
            *bad = k;
            return st;
        }
        v[k] = as_double(o->b[k], buf);
    }
    return FMUC_STATUS_OK;
}

static const char *vname(const fmuc_md *md, const eds_out *o, size_t k)
{
    const char *n = md->vars[o->var[k]].name;
    return n ? n : "?";
}

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    const eds_job *job = payload;
    const fmuc_md *md = job->md;
    cJSON *reply = fmuc_worker_reply(ctx);
    fmuc_status last = FMUC_STATUS_OK;
    char b[32];
    const char *ifn = apiu_iface_name(job->type);
    eds_out *o = calloc(1, sizeof *o);
    double *va = calloc(MAX_OUT, sizeof *va), *vb = calloc(MAX_OUT, sizeof *vb);
    fmuc_inst *in = NULL;
    if (!o || !va || !vb) {
        cJSON_AddStringToObject(reply, "skip", "out of memory");
        goto out;
    }
    if (apiu_load(ctx, job->type) < 0)
        goto out;
    outputs(md, o);
    if (job->type == FMUC_IFACE_CS) {
        fmuc_inst_cs3_options co = {.name = "evaluate", .event_mode_used = 1};
        in = fmuc_inst_instantiate_cs3(ctx, &co);
    } else {
        in = fmuc_inst_instantiate(ctx, job->type, NULL, "evaluate");
    }
    if (!in) {
        cJSON_AddStringToObject(reply, "skip", "the instance could not be made");
        goto out;
    }
    fmuc_drive_start ds;
    fmuc_drive_reached r;
    fmuc_drive_start_init(&ds, md);
    /* ME: Event Mode after initialization; CS with eventModeUsed: fmi3ExitInitializationMode
     * leads to Event Mode too (§2.3.3) */
    if (fmuc_drive_reach(in, job->type == FMUC_IFACE_ME ? FMUC_ST_EM : FMUC_ST_SC, &ds, &r) != 0) {
        char m[200];
        snprintf(m, sizeof m, "%s returned %s", apiu_fn(3, job->type, (fmuc_inst_op)r.failed_op),
                 fmuc_status_name(3, r.status, b, sizeof b));
        cJSON_AddStringToObject(reply, "skip", m);
        last = r.status;
        goto out;
    }
    double t = ds.exp.start;
    int compared = 0, instants = 0;
    for (int inst_no = 0; inst_no < MAX_INSTANTS; inst_no++) {
        instants++;
        fmuc_worker_phase(ctx, "probe evaluate at t=%.10g", t);
        fmuc_status st = fmuc_inst_evaluate_discrete_states(in);
        last = st;
        fmuc_worker_phase(ctx, "instant at t=%.10g", t);
        if (!fmuc_status_ok(st)) {
            apiu_finding(reply, "fail", "%s: fmi3EvaluateDiscreteStates in Event Mode at t=%.10g "
                                        "returned %s although providesEvaluateDiscreteStates="
                                        "\"true\"",
                         ifn, t, fmuc_status_name(3, st, b, sizeof b));
            goto out;
        }
        size_t bad = 0;
        st = read_outputs(in, o, va, &bad);
        last = st;
        if (!fmuc_status_ok(st)) {
            apiu_finding(reply, "fail", "%s: after fmi3EvaluateDiscreteStates at t=%.10g the output "
                                        "'%s' (vr %u) could not be read: %s",
                         ifn, t, vname(md, o, bad), o->vr[bad], fmuc_status_name(3, st, b, sizeof b));
            goto out;
        }
        fmuc_inst_event_info info;
        st = fmuc_inst_update_discrete_states(in, &info);
        last = st;
        if (!fmuc_status_ok(st)) {
            char m[200];
            snprintf(m, sizeof m, "fmi3UpdateDiscreteStates at t=%.10g returned %s", t,
                     fmuc_status_name(3, st, b, sizeof b));
            cJSON_AddStringToObject(reply, "stopped", m);
            goto out;
        }
        if (!info.new_discrete_states_needed) {
            st = read_outputs(in, o, vb, &bad);
            last = st;
            if (!fmuc_status_ok(st)) {
                char m[200];
                snprintf(m, sizeof m, "output vr %u unreadable after the update at t=%.10g: %s",
                         o->vr[bad], t, fmuc_status_name(3, st, b, sizeof b));
                cJSON_AddStringToObject(reply, "stopped", m);
                goto out;
            }
            compared++;
            for (size_t k = 0; k < o->n; k++)
                if (!(va[k] == vb[k] || (isnan(va[k]) && isnan(vb[k]))))
                    apiu_finding(reply, "warn", "%s: at t=%.10g output '%s' (vr %u) is %.17g after "
                                                "fmi3EvaluateDiscreteStates but %.17g after the "
                                                "fmi3UpdateDiscreteStates that follows it (no "
                                                "further update needed; derived from §2.3.5: the "
                                                "evaluation computes the current discrete states)",
                                 ifn, t, vname(md, o, k), o->vr[k], va[k], vb[k]);
        } else { /* the rest of the iteration, not compared */
            fmuc_step_event ev;
            int er = fmuc_step_event_iteration(in, MAX_ITER, NULL, NULL, NULL, &ev);
            if (ev.failed)
                last = ev.status;
            if (er < 0) /* a call failed or it did not settle */
                goto out;
            info = ev.info;
        }
        if (info.terminate_simulation || !info.next_event_time_defined ||
            !(info.next_event_time > t) || inst_no + 1 >= MAX_INSTANTS)
            break;
        double tn = info.next_event_time;
        if (job->type == FMUC_IFACE_ME) {
            st = fmuc_inst_enter_continuous_time_mode(in);
            if (fmuc_status_ok(st))
                st = fmuc_inst_set_time(in, tn);
            last = st;
        } else {
            fmuc_inst_step_info si;
            memset(&si, 0, sizeof si);
            st = fmuc_inst_enter_step_mode(in);
            if (fmuc_status_ok(st))
                st = fmuc_drive_do_step(in, t, tn - t, 0, &si, NULL);
            last = st;
            if (fmuc_status_ok(st) && (!si.event_handling_needed || si.terminate_simulation))
                break; /* the FMU does not stop there for Event Mode */
        }
        if (fmuc_status_ok(st))
            st = fmuc_inst_enter_event_mode(in);
        last = st;
        if (!fmuc_status_ok(st)) {
            char m[200];
            snprintf(m, sizeof m, "going on to the time event at t=%.10g failed: %s", tn,
                     fmuc_status_name(3, st, b, sizeof b));
            cJSON_AddStringToObject(reply, "stopped", m);
            goto out;
        }
        t = tn;
    }
    cJSON_AddNumberToObject(reply, "instants", instants);
    cJSON_AddNumberToObject(reply, "compared", compared);
    cJSON_AddNumberToObject(reply, "outputs", (double)o->n);
out:
    if (in) {
        fmuc_worker_phase(ctx, "cleanup");
        if (last == FMUC_STATUS_FATAL) {
            fmuc_inst_abandon(in);
        } else {
            if (last != FMUC_STATUS_ERROR)
                fmuc_inst_terminate(in);
            fmuc_inst_free(in);
        }
    }
    free(o);
    free(va);
    free(vb);
    return 0;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    apiu_iface ifs[2];
    size_t n = apiu_usable_ifaces(s, res, FMUC_UNUSABLE_RUN, ifs), tested = 0, declared = 0;
    for (size_t i = 0; i < n; i++) {
        const fmuc_md_interface *mi = ifs[i].type == FMUC_IFACE_ME ? &md->me : &md->cs;
        if (!(mi->caps & (1u << FMUC_CAP_PROVIDES_EVALUATE_DISCRETE_STATES)))
            continue;
        declared++;
        if (ifs[i].type == FMUC_IFACE_CS && !(mi->caps & (1u << FMUC_CAP_HAS_EVENT_MODE))) {
            fmuc_result_note(res, "CoSimulation not probed: without hasEventMode there is no "
                                  "Event Mode, the only state fmi3EvaluateDiscreteStates may be "
                                  "called in");
            continue;
        }
        eds_job job = {ifs[i].type, md};
        fmuc_worker_outcome o;
        int died = 0;
        const cJSON *r = apiu_run_probed(s, res, "api-evaluate-discrete-states", job.type, worker,
                                         &job, &o, "probe evaluate", &died);
        if (died) {
            char why[600];
            fmuc_worker_death_text(&o, why, sizeof why);
            fmuc_result_violation(res, "%s: fmi3EvaluateDiscreteStates (providesEvaluateDiscrete"
                                       "States=\"true\") ended the worker with %s",
                                  ifs[i].name, why);
            tested++;
        } else if (r && !apiu_load_failed(r, res, job.type)) {
            const char *skip = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "skip"));
            if (skip) {
                fmuc_result_note(res, "%s not probed: %s", ifs[i].name, skip);
            } else {
                tested++;
                apiu_report_findings(r, res);
                const char *stop = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "stopped"));
                if (stop)
                    fmuc_result_note(res, "%s: the probe stopped early: %s", ifs[i].name, stop);
                const cJSON *c = cJSON_GetObjectItemCaseSensitive(r, "compared");
                const cJSON *k = cJSON_GetObjectItemCaseSensitive(r, "instants");
                if (cJSON_IsNumber(c) && cJSON_IsNumber(k))
                    fmuc_result_note(res, "%s: %d instant(s) with fmi3EvaluateDiscreteStates, "
                                          "%d compared after the update",
                                     ifs[i].name, k->valueint, c->valueint);
            }
        }
        fmuc_worker_outcome_free(&o);
    }
    if (!declared) {
        fmuc_result_na(res, "providesEvaluateDiscreteStates is not \"true\" on ModelExchange or "
                            "CoSimulation");
        return;
    }
    fmuc_result_parts_judged(res, tested);
    if (!tested && res->verdict == FMUC_VERDICT_PASS)
        fmuc_result_na(res, "no interface could be probed");
}

const fmuc_check fmuc_check_api_evaluate_discrete_states = {
    .id = "api-evaluate-discrete-states",
    .title = "fmi3EvaluateDiscreteStates computes the discrete states the update then keeps",
    .spec = "FMI 3.0.2 §2.3.5 (fmi3EvaluateDiscreteStates, providesEvaluateDiscreteStates)",
    .level = FMUC_LEVEL_MUST,
    .why = "An importer that evaluates the discrete states to read consistent outputs before "
           "ending an event instant passes on values that differ from those the FMU keeps after "
           "fmi3UpdateDiscreteStates.",
    .fix = "Compute the discrete states from their previous values in fmi3EvaluateDiscreteStates "
           "and let the following fmi3UpdateDiscreteStates only commit them, or do not declare "
           "providesEvaluateDiscreteStates.",
    .applies = FMUC_APPLIES_MECS,
    .versions = FMUC_V3,
    .absent_in_v1 = "FMI 1.0 has no fmi3EvaluateDiscreteStates",
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
