/* api-null-memory-callbacks: with canNotUseMemoryManagementFunctions="true" "function
 * allocateMemory is not used in the FMU and a void pointer can be provided" (FMI 2.0.4 §2.1.5,
 * the fmi2CallbackFunctions; §3.3.1, §4.3.1; fmi2-rules C-09): an importer that relies on the flag
 * passes NULL for allocateMemory and freeMemory. For every interface that declares the flag, a
 * short session in a worker of its own with both NULL (instantiate, set up, initialize, ten
 * communication steps of the default experiment in CS / the event iteration and Continuous-Time
 * Mode in ME, terminate, free) must succeed: fmi2Instantiate returning NULL, a call returning
 * fmi2Error/fmi2Fatal or a crash fails. Without the flag the FMU may rely on the callbacks
 * (api-resources-released checks what it does with them): not applicable.
 * FMI 1.0: only Co-Simulation has the flag (the Capabilities of CoSimulation_StandAlone and
 * CoSimulation_Tool); with canNotUseMemoryManagementFunctions="true" allocateMemory and
 * freeMemory "are ignored" and may be NULL (FMI 1.0 CS, fmi1-rules B.8 and C-07), so fmiInstantiateSlave with both NULL and the same
 * session (fmiInitializeSlave, fmiDoStep, fmiTerminateSlave, fmiFreeSlaveInstance) must succeed.
 * ME 1.0 has no such flag: its three callbacks are always required (not applicable).
 * FMI 3.0 has no memory callbacks at all: the check does not apply there. */
#include <math.h>

#include "cs/cs_util.h"
#include "fmuc/fmuc_step.h"

enum { CSMEM_STEPS = 10 };

typedef struct mem_job {
    fmuc_iface iface;
    double t0, h;
    int nsteps; /* CSMEM_STEPS, fewer when the declared step size leaves less room */
} mem_job;

static void put_bad(cJSON *reply, const char *call, int st)
{
    cJSON_AddStringToObject(reply, "bad_call", call);
    cJSON_AddNumberToObject(reply, "bad_status", (double)st);
}

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    const mem_job *job = payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    const int ver = fmuc_inst_version(ctx);
    if (apiu_load(ctx, job->iface) < 0)
        return 0;
    fmuc_inst_args a;
    fmuc_inst_args_init(&a);
    a.name = "fmucheck-null-memory";
    a.no_memory_callbacks = 1;
    fmuc_worker_phase(ctx, "%s with allocateMemory=freeMemory=NULL",
                      apiu_fn(ver, job->iface, FMUC_INST_OP_INSTANTIATE));
    fmuc_inst *c = fmuc_inst_instantiate_ex(ctx, (fmuc_iface)job->iface, &a);
    if (!c) {
        cJSON_AddBoolToObject(reply, "instantiate_null", 1);
        return 0;
    }
    int st = FMUC_STATUS_OK;
    const char *call = NULL;
    fmuc_drive_start ds;
    fmuc_drive_reached dr;
    fmuc_drive_start_init(&ds, NULL);
    ds.exp.start = job->t0;
    ds.phase_init = "initialize";
    /* to the end of Initialization Mode; then the step driver's CS steps or ME event iteration
     * (Continuous-Time Mode also when the iteration does not settle) */
    if (fmuc_drive_reach(c, job->iface == FMUC_IFACE_CS ? FMUC_ST_SC : FMUC_ST_EM, &ds, &dr) != 0) {
        call = apiu_fn(ver, job->iface, (fmuc_inst_op)dr.failed_op);
        st = dr.status;
    }
    if (!call && job->iface == FMUC_IFACE_CS) {
        /* the step-wise driver on the grid t0 + k*h, as every run (each step from one grid
         * point to the next: tc + h is the next tc; fmuc_drive_step_size keeps h constant,
         * bit for bit, without canHandleVariableCommunicationStepSize) */
        fmuc_stepper sp;
        fmuc_stepper_init(&sp, c, 0, 0, 0); /* Co-Simulation: allocates nothing */
        for (int k = 0; k < job->nsteps && !call; k++) {
            double t = job->t0 + (double)k * job->h;
            fmuc_step_cs_out o;
            fmuc_worker_phase_at(ctx, "step", k, t);
            fmuc_step_rc rc =
                fmuc_step_interval(&sp, t, job->t0 + (double)(k + 1) * job->h, &o);
            if (rc == FMUC_STEP_TERMINATE ||
                (rc == FMUC_STEP_FAILED && o.status == FMUC_STATUS_DISCARD)) {
                /* the slave ends the simulation or computed only part of the step: its right
                 * (FMI 2.0.4 §4.2.2 fmi2Discard, fmi2Terminated; the nominal run judges it);
                 * fmi2Terminate follows, which both states allow */
                cJSON_AddNumberToObject(reply, "ended_early_at", t);
                break;
            }
            if (rc != FMUC_STEP_OK) {
                st = o.status;
                call = apiu_fn(ver, job->iface, FMUC_INST_OP_DO_STEP);
            }
        }
        fmuc_stepper_free(&sp);
    } else if (!call) {
        /* the driver's event iteration; Continuous-Time Mode also when it did not settle */
        fmuc_step_event ev;
        fmuc_worker_phase(ctx, "event iteration");
        if (fmuc_step_event_iteration(c, 100, NULL, NULL, NULL, &ev) < 0 && ev.failed) {
            st = ev.status;
            call = apiu_fn(ver, job->iface, FMUC_INST_OP_UPDATE_DISCRETE_STATES);
        }
        if (!call && !apiu_ok(st = fmuc_inst_enter_continuous_time_mode(c)))
            call = apiu_fn(ver, job->iface, FMUC_INST_OP_ENTER_CT_MODE);
    }
    if (!call) {
        fmuc_worker_phase(ctx, "terminate");
        if (!apiu_ok(st = fmuc_inst_terminate(c)))
            call = apiu_fn(ver, job->iface, FMUC_INST_OP_TERMINATE);
    }
    if (call)
        put_bad(reply, call, st);
    fmuc_worker_phase(ctx, "%s", apiu_fn(ver, job->iface, FMUC_INST_OP_FREE));
    if (!call || st != FMUC_STATUS_FATAL)
        fmuc_inst_free(c);
    else
        fmuc_inst_abandon(c);
    cJSON_AddBoolToObject(reply, "done", 1);
    return 0;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_fmu *fmu = s->fmu;
    const fmuc_md_experiment *e = &fmu->md.experiment;
    apiu_iface ifs[2];
    size_t n = apiu_ifaces(fmu, ifs), done = 0;
    char b[32];
    const int ver = apiu_version(s);
    for (size_t i = 0; i < n; i++) {
        fmuc_iface t = ifs[i].type;
        if (!equ_cap(fmu, t, FMUC_CAP_CAN_NOT_USE_MEMORY_MANAGEMENT_FUNCTIONS))
            continue;
        if (!csu_nominal_usable_iface(s, t, "api-null-memory-callbacks", res))
            continue;
        done++;
        mem_job job = {t, 0.0, 0.0, CSMEM_STEPS};
        double t1;
        job.t0 = e->present && e->has_start && isfinite(e->start_time) ? e->start_time : 0.0;
        t1 = e->present && e->has_stop && isfinite(e->stop_time) && e->stop_time > job.t0
                 ? e->stop_time
                 : job.t0 + 1.0;
        int declared = e->present && e->has_step && isfinite(e->step_size) && e->step_size > 0;
        job.h = declared ? e->step_size : (t1 - job.t0) / 500.0;
        if (job.t0 + CSMEM_STEPS * job.h > t1) {
            /* the declared step size stays (a fixed-step slave, canHandleVariableCommunication-
             * StepSize="false", may accept no other: red-team round 6, an FMI Kit-like slave
             * failed here with a step it was never given); fewer steps then, at least one */
            double fit = floor((t1 - job.t0) / job.h + 1e-9);
            if (declared)
                job.nsteps = fit >= 1.0 ? (int)fit : 1;
            else
                job.h = (t1 - job.t0) / CSMEM_STEPS;
        }
        fmuc_result scratch;
        fmuc_worker_outcome o;
        fmuc_result_init(&scratch, res->id, res->title, res->spec, res->level);
        const cJSON *r = apiu_run(s, &scratch, "api-null-memory-callbacks", t, worker, &job, &o);
        if (!r) {
            char what[96];
            snprintf(what, sizeof what, "%s with allocateMemory=freeMemory=NULL",
                     ifs[i].name);
            if (scratch.verdict == FMUC_VERDICT_ERROR)
                csu_probe_died(res, &scratch, 1, what, ifs[i].name);
            else
                csu_merge(res, &scratch, ifs[i].name);
            fmuc_worker_outcome_free(&o);
            continue;
        }
        csu_merge(res, &scratch, ifs[i].name);
        if (apiu_load_failed(r, res, t)) {
            fmuc_worker_outcome_free(&o);
            continue;
        }
        const cJSON *bc = cJSON_GetObjectItem(r, "bad_call");
        if (cJSON_IsTrue(cJSON_GetObjectItem(r, "instantiate_null"))) {
            const char *m = apiu_last_log(&o, "fmucheck-null-memory");
            fmuc_result_violation(res, "%s: canNotUseMemoryManagementFunctions=\"true\" (line %u), "
                                       "yet %s with allocateMemory=freeMemory=NULL "
                                       "returned NULL%s%s",
                                  ifs[i].name,
                                  t == FMUC_IFACE_CS ? fmu->md.cs.line : fmu->md.me.line,
                                  apiu_fn(ver, t, FMUC_INST_OP_INSTANTIATE),
                                  m ? ": " : "", m ? m : "");
        } else if (cJSON_IsString(bc)) {
            fmuc_result_violation(res, "%s: with allocateMemory=freeMemory=NULL "
                                       "(canNotUseMemoryManagementFunctions=\"true\") %s returned %s",
                                  ifs[i].name, cJSON_GetStringValue(bc),
                                  fmuc_status_name(ver, 
                                      (int)cJSON_GetNumberValue(cJSON_GetObjectItem(r, "bad_status")),
                                      b, sizeof b));
        } else if (cJSON_IsTrue(cJSON_GetObjectItem(r, "done"))) {
            const cJSON *ee = cJSON_GetObjectItem(r, "ended_early_at");
            if (cJSON_IsNumber(ee))
                fmuc_result_note(res, "%s: a session with allocateMemory=freeMemory=NULL "
                                      "succeeded; the FMU ended the steps at t = %.17g (Discard "
                                      "or terminate requested, cs-nominal-run judges that)",
                                 ifs[i].name, ee->valuedouble);
            else
                fmuc_result_note(res, "%s: a session with allocateMemory=freeMemory=NULL "
                                      "succeeded",
                                 ifs[i].name);
        }
        fmuc_worker_outcome_free(&o);
    }
    if (!done && res->verdict == FMUC_VERDICT_PASS)
        fmuc_result_na(res, "no interface with a binary declares "
                            "canNotUseMemoryManagementFunctions=\"true\"");
}

const fmuc_check fmuc_check_api_null_memory_callbacks = {
    .id = "api-null-memory-callbacks",
    .title = "With canNotUseMemoryManagementFunctions, the FMU works with NULL allocateMemory and "
             "freeMemory",
    .spec = "FMI 2.0.4 §2.1.5, §3.3.1, §4.3.1; FMI 1.0 CS (Capabilities "
            "canNotUseMemoryManagementFunctions; fmiCallbackFunctions)",
    .level = FMUC_LEVEL_MUST,
    .why = "An importer that relies on canNotUseMemoryManagementFunctions passes NULL allocators; "
           "an FMU that still calls them dereferences NULL and crashes the importer.",
    .fix = "Either allocate with malloc/free internally and never touch the callbacks' "
           "allocateMemory/freeMemory, or remove canNotUseMemoryManagementFunctions=\"true\" from "
           "the model description.",
    .applies = FMUC_APPLIES_MECS,
    .versions = FMUC_V1 | FMUC_V2,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .sessions = 1,
    .run = run,
};
