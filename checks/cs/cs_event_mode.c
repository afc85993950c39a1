/* cs-event-mode (FMI 3.0 Co-Simulation only): the instances a master makes when the FMU offers
 * more than plain steps. hasEventMode="true" on <CoSimulation> (FMI 3.0.2 §4.4) says the FMU
 * supports Event Mode, so a master may instantiate with eventModeUsed=true (§2.3.1); then
 * fmi3ExitInitializationMode leads to Event Mode (§2.3.3), and after an fmi3DoStep that returns
 * eventHandlingNeeded=true the master calls fmi3EnterEventMode, fmi3UpdateDiscreteStates until
 * discreteStatesNeedUpdate=false and fmi3EnterStepMode (§4.2.1). With
 * earlyReturnAllowed=false the FMU must not return early (§2.3.1, fmi3-rules C-09: earlyReturn
 * stays false, and the step integrates to tc+h, lastSuccessfulTime reporting the time reached,
 * §4.2.1, D-02); with it
 * true an early return stops at lastSuccessfulTime in [tc, tc+h] (mightReturnEarlyFromDoStep
 * declares that the FMU may do so: an undeclared early return is a should). The
 * intermediateUpdate callback is called within fmi3DoStep with tc <= intermediateUpdateTime <=
 * tc+h (§4.2.2, §4.1.1, fmi3-rules D-07).
 * Runs (bounded horizon: a tenth of the default experiment's grid, 10 to 100 steps, cs_util.h,
 * the step rounded to a multiple of fixedInternalStepSize when declared; inputs at their start
 * values clamped to [min, max]; each a fresh instance in its own worker):
 *   (A) eventModeUsed = hasEventMode, earlyReturnAllowed=false, the harness's logging
 *       intermediateUpdate when providesIntermediateUpdate="true";
 *   (B) the same with earlyReturnAllowed=true, when mightReturnEarlyFromDoStep="true" (the run
 *       goes on from lastSuccessfulTime to the grid point).
 * Without any of hasEventMode, mightReturnEarlyFromDoStep and providesIntermediateUpdate the
 * check is not applicable: the usual instances are cs-nominal-run's.
 * Levels: every rule quoted above is a must (fail), but an undeclared early return (derived from
 * mightReturnEarlyFromDoStep="false", warn), fmi3Discard of a step (warn: Discard says nothing was
 * done and the run can go on with another step), a callback outside any fmi3DoStep (warn: the
 * text places it within fmi3DoStep without a separate rule) and non-finite outputs (warn,
 * derived, as cs-nominal-run). An FMU that declares hasEventMode="true" and returns NULL for
 * eventModeUsed=true fails: the flag is the FMU's statement that a master may do so, and a
 * master that relies on it cannot run the FMU (the same instantiation with eventModeUsed=false
 * succeeds in cs-nominal-run). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_util.h"
#include "fmuc/fmuc_step.h"

#define CSEM_MIN_STEPS 10
#define CSEM_MAX_STEPS 100
#define CSEM_MAX_ITER 100     /* fmi3UpdateDiscreteStates calls of one event at most */
#define CSEM_MAX_REPORTED 5   /* findings of one kind named (the rest counted) */

enum { RUN_A = 0, RUN_B, RUN_C, NRUNS };
static const char *const run_name[NRUNS] = {"run A (earlyReturnAllowed=false)",
                                            "run B (earlyReturnAllowed=true)",
                                            "run C (requiredIntermediateVariables)"};

/* Run C: the scalar inputs and outputs with intermediateUpdate="true" (at most
 * FMUC_INST_IU_WATCH of each), registered as requiredIntermediateVariables; the outputs are read
 * and the inputs set (to the value the run holds them at) in Intermediate Update Mode. */
typedef struct em_iu {
    size_t nreq, nout, nin;
    fmuc_vr req[2 * FMUC_INST_IU_WATCH], out[FMUC_INST_IU_WATCH], in[FMUC_INST_IU_WATCH];
    unsigned char out_single[FMUC_INST_IU_WATCH], in_single[FMUC_INST_IU_WATCH];
    double in_value[FMUC_INST_IU_WATCH];
    const char *out_name[FMUC_INST_IU_WATCH], *in_name[FMUC_INST_IU_WATCH];
    size_t skipped; /* arrays and variables beyond the watch */
} em_iu;

typedef struct em_job {
    const equ_plan *plan;
    int event_mode_used, early_return_allowed, intermediate_update;
    const em_iu *iu; /* run C only */
} em_job;

/* One fmi3DoStep in the reply: tc, h, status, eventHandlingNeeded, terminateSimulation,
 * earlyReturn, lastSuccessfulTime, the grid row it works towards, lastSuccessfulTime was not
 * finite (the number is then 0). */
enum { S_TC = 0, S_H, S_ST, S_EHN, S_TERM, S_EARLY, S_LAST, S_ROW, S_NANLAST, S_N };
/* One event: time, fmi3UpdateDiscreteStates calls, settled (1) / not (0), worst status of
 * fmi3EnterEventMode, fmi3UpdateDiscreteStates, fmi3EnterStepMode, the failed one (0 none,
 * 1 EnterEventMode, 2 UpdateDiscreteStates, 3 EnterStepMode). */
enum { E_T = 0, E_IT, E_SETTLED, E_ST, E_FAILED, E_N };
/* One intermediateUpdate call: time, tc, h, flags, time not finite, worst status of the
 * harness's gets and sets in it (-1 none), the first FMUC_INST_IU_VALUES values got, which of
 * them are finite (bit mask). */
enum { IU_T = 0, IU_TC, IU_H, IU_FL, IU_NANT, IU_GETST, IU_SETST, IU_GOT,
       IU_FINITE = IU_GOT + FMUC_INST_IU_VALUES, IU_N };

static cJSON *num_row(const double *v, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(isfinite(v[i]) ? v[i] : 0.0));
    return a;
}

/* Event Mode at time t (or after initialization: enter 0): the iteration, then Step Mode.
 * 0, or -1 when a call failed or the iteration did not settle (the row says which). */
static int event_instant(fmuc_worker_ctx *ctx, fmuc_inst *in, double t, int enter, cJSON *events,
                         int *terminate)
{
    double ev[E_N] = {t, 0, 0, FMUC_STATUS_OK, 0};
    int rc = 0, st = FMUC_STATUS_OK;
    fmuc_step_event out;
    memset(&out, 0, sizeof out);
    if (enter) {
        fmuc_worker_phase_at(ctx, "fmi3EnterEventMode", -1, t);
        st = fmuc_inst_enter_event_mode(in);
        ev[E_ST] = st;
        if (!fmuc_status_ok(st)) {
            ev[E_FAILED] = 1;
            rc = -1;
        }
    }
    if (rc == 0) {
        fmuc_worker_phase_at(ctx, "fmi3UpdateDiscreteStates", -1, t);
        int r = fmuc_step_event_iteration(in, CSEM_MAX_ITER, NULL, NULL, NULL, &out);
        ev[E_IT] = out.iterations;
        ev[E_SETTLED] = r >= 0;
        if (r == 1)
            *terminate = 1;
        if (out.failed) {
            ev[E_ST] = out.status > ev[E_ST] ? out.status : ev[E_ST];
            ev[E_FAILED] = 2;
            rc = -1;
        } else if (r < 0) {
            rc = -1;
        }
    }
    if (rc == 0) {
        fmuc_worker_phase_at(ctx, "fmi3EnterStepMode", -1, t);
        st = fmuc_inst_enter_step_mode(in);
        if (st > ev[E_ST])
            ev[E_ST] = st;
        if (!fmuc_status_ok(st)) {
            ev[E_FAILED] = 3;
            rc = -1;
        }
    }
    cJSON_AddItemToArray(events, num_row(ev, E_N));
    return rc;
}

static int em_worker(fmuc_worker_ctx *ctx, void *payload)
{
    const em_job *job = payload;
    const equ_plan *p = job->plan;
    cJSON *reply = fmuc_worker_reply(ctx);
    size_t nc = p->nout, rows = p->nsteps + 1, k = 0, nsteps_made = 0;
    size_t max_calls = 4 * p->nsteps + 16;
    double *y = calloc(rows * (nc ? nc : 1), sizeof *y);
    cJSON *steps = cJSON_AddArrayToObject(reply, "steps");
    cJSON *events = cJSON_AddArrayToObject(reply, "events");
    int terminate = 0;
    equ_inst in;
    memset(&in, 0, sizeof in);
    if (fmuc_inst_load(ctx, FMUC_IFACE_CS) != 0 || !y) {
        cJSON_AddStringToObject(reply, "load_error", y ? fmuc_worker_load_error(ctx) : "out of memory");
        goto out;
    }
    fmuc_worker_phase(ctx, "fmi3InstantiateCoSimulation");
    fmuc_inst_iu_access acc = {0};
    fmuc_inst_cs3_options o = {.name = "cs-event-mode",
                               .event_mode_used = job->event_mode_used,
                               .early_return_allowed = job->early_return_allowed,
                               .intermediate_update = job->intermediate_update};
    if (job->iu) {
        acc = (fmuc_inst_iu_access){job->iu->out, job->iu->out_single, job->iu->nout,
                                    job->iu->in,  job->iu->in_single,  job->iu->in_value,
                                    job->iu->nin};
        o.required = job->iu->req;
        o.n_required = job->iu->nreq;
        o.access = &acc;
    }
    fmuc_inst *c = fmuc_inst_instantiate_cs3(ctx, &o);
    if (!c) {
        cJSON_AddBoolToObject(reply, "refused", 1);
        goto out;
    }
    if (equ_inst_adopt(&in, ctx, p, c) < 0 || equ_inst_initialize(&in) < 0) {
        cJSON_AddStringToObject(reply, "error", in.err);
        goto out;
    }
    /* eventModeUsed: fmi3ExitInitializationMode led to Event Mode (§2.3.3) */
    if (job->event_mode_used &&
        event_instant(ctx, c, p->t[0], 0, events, &terminate) < 0)
        goto log;
    if (equ_inst_record(&in, y) < 0) {
        cJSON_AddStringToObject(reply, "error", in.err);
        goto log;
    }
    for (k = 0; k < p->nsteps && !terminate; k++) {
        double t = p->t[k], tb = p->t[k + 1];
        for (;;) {
            fmuc_step_cs_out so;
            memset(&so, 0, sizeof so);
            if (nsteps_made++ >= max_calls) {
                cJSON_AddNumberToObject(reply, "stuck_at", t);
                goto log;
            }
            in.st.cs_phase = "fmi3DoStep";
            fmuc_step_rc rc = fmuc_step_interval(&in.st, t, tb, &so);
            double row[S_N] = {t,
                               tb - t,
                               so.status,
                               so.info.event_handling_needed,
                               so.info.terminate_simulation,
                               so.info.early_return,
                               so.info.last_successful_time,
                               (double)k + 1,
                               !isfinite(so.info.last_successful_time)};
            cJSON_AddItemToArray(steps, num_row(row, S_N));
            if (rc != FMUC_STEP_OK && rc != FMUC_STEP_TERMINATE)
                goto log; /* the status is in the step's row (terminateSimulation: below) */
            if (so.info.terminate_simulation)
                terminate = 1;
            double last = so.info.last_successful_time;
            if (so.info.event_handling_needed && job->event_mode_used &&
                event_instant(ctx, c, isfinite(last) ? last : tb, 1, events, &terminate) < 0)
                goto log;
            if (!so.info.early_return || terminate)
                break;
            /* early return: the next step starts where this one stopped (§4.2.1) */
            if (!isfinite(last) || last < t || last > tb)
                goto log; /* judged in the parent: the master cannot go on */
            if (last >= tb)
                break;
            t = last;
        }
        in.k = k + 1;
        if (equ_inst_record(&in, y + (k + 1) * nc) < 0) {
            cJSON_AddStringToObject(reply, "error", in.err);
            k++;
            goto log;
        }
    }
    if (terminate)
        cJSON_AddBoolToObject(reply, "terminated", 1);
log:;
    const fmuc_inst_iu_call *calls = NULL;
    size_t nkept = 0, total = fmuc_inst_intermediate_log(c, &calls, &nkept);
    cJSON *iu = cJSON_AddArrayToObject(reply, "iu");
    for (size_t i = 0; i < nkept; i++) {
        double r[IU_N] = {calls[i].time, calls[i].tc, calls[i].h, (double)calls[i].flags,
                          !isfinite(calls[i].time), calls[i].get_status, calls[i].set_status};
        unsigned fin = 0;
        for (int j = 0; j < FMUC_INST_IU_VALUES; j++) {
            r[IU_GOT + j] = calls[i].got[j];
            fin |= isfinite(calls[i].got[j]) ? 1u << j : 0u;
        }
        r[IU_FINITE] = fin;
        cJSON_AddItemToArray(iu, num_row(r, IU_N));
    }
    cJSON_AddNumberToObject(reply, "iu_total", (double)total);
    cJSON_AddNumberToObject(reply, "points", (double)(k + 1 < rows ? k + 1 : rows));
    cJSON_AddItemToObject(reply, "y", fmuc_worker_f64_to_json(y, rows * nc));
out:
    equ_inst_free(&in);
    free(y);
    return 0;
}

/* The bounded grid of cs_util.h (a tenth of the default experiment's grid, min..max steps),
 * with a step that is an integer multiple of fixedInternalStepSize when the FMU declares one
 * (fmi3-rules: the master should use multiples of it; an FMU that integrates in fixed internal
 * steps cannot reach a communication point between them). */
static int em_plan_init(equ_plan *p, const fmuc_fmu *fmu, size_t min_steps, size_t max_steps)
{
    const fmuc_md *md = &fmu->md;
    double hi = md->cs.has_fixed_internal_step_size ? md->cs.fixed_internal_step_size : 0.0;
    return csu_plan_init_multiple(p, fmu, min_steps, max_steps, 1, hi);
}

static double num(const cJSON *a, int i)
{
    return cJSON_GetNumberValue(cJSON_GetArrayItem(a, i));
}

/* Run C, one intermediateUpdate call: the harness's gets (with intermediateVariableGetAllowed)
 * and sets (with intermediateVariableSetRequested) of the registered variables. §4.2.2 allows
 * exactly these accesses in Intermediate Update Mode, and no function called there may return
 * fmi3Discard; a refusal leaves the master without the values the FMU offered. */
static void judge_ium_access(fmuc_result *res, const char *rn, const em_iu *iu, const cJSON *e,
                             size_t *n_get, size_t *n_set, size_t *bad_get, size_t *bad_set,
                             size_t *nonfinite)
{
    char b[32];
    double t = num(e, IU_T);
    int gst = (int)num(e, IU_GETST), sst = (int)num(e, IU_SETST);
    unsigned fin = (unsigned)num(e, IU_FINITE);
    if (gst >= 0) {
        (*n_get)++;
        if (!fmuc_status_ok(gst)) {
            if ((*bad_get)++ < 1)
                fmuc_result_violation(res, "%s: in Intermediate Update Mode at "
                                           "intermediateUpdateTime=%.17g "
                                           "(intermediateVariableGetAllowed=true) the get of the "
                                           "registered output%s '%s'%s returned %s (FMI 3.0.2 "
                                           "§4.2.2: the intermediate variables can be retrieved "
                                           "then, and no call there may return fmi3Discard)",
                                      rn, t, iu->nout > 1 ? "s" : "", iu->out_name[0],
                                      iu->nout > 1 ? ", ..." : "",
                                      fmuc_status_name(3, gst, b, sizeof b));
        } else {
            for (size_t j = 0; j < iu->nout && j < FMUC_INST_IU_VALUES; j++)
                *nonfinite += !((fin >> j) & 1u);
        }
    }
    if (sst >= 0) {
        (*n_set)++;
        if (!fmuc_status_ok(sst) && (*bad_set)++ < 1)
            fmuc_result_violation(res, "%s: in Intermediate Update Mode at "
                                       "intermediateUpdateTime=%.17g "
                                       "(intermediateVariableSetRequested=true) the set of the "
                                       "registered input%s '%s'%s to the value it holds returned "
                                       "%s (FMI 3.0.2 §4.2.2)",
                                  rn, t, iu->nin > 1 ? "s" : "", iu->in_name[0],
                                  iu->nin > 1 ? ", ..." : "",
                                  fmuc_status_name(3, sst, b, sizeof b));
    }
}

/* Judge one run's reply. */
static void judge(const fmuc_subject *s, fmuc_result *res, const equ_plan *p, const em_job *job,
                  int r, const cJSON *rp)
{
    const fmuc_md *md = &s->fmu->md;
    unsigned caps = md->cs.caps;
    int might = (caps >> FMUC_CAP_MIGHT_RETURN_EARLY_FROM_DO_STEP) & 1u;
    int piu = (caps >> FMUC_CAP_PROVIDES_INTERMEDIATE_UPDATE) & 1u;
    const char *rn = run_name[r];
    char b[32];
    cJSON *ev = cJSON_AddObjectToObject(fmuc_result_evidence(res), rn);
    cJSON_AddBoolToObject(ev, "eventModeUsed", job->event_mode_used);
    cJSON_AddBoolToObject(ev, "earlyReturnAllowed", job->early_return_allowed);
    cJSON_AddBoolToObject(ev, "intermediateUpdate", job->intermediate_update);

    if (cJSON_IsTrue(cJSON_GetObjectItem(rp, "refused"))) {
        if (job->iu)
            fmuc_result_violation(res, "%s: fmi3InstantiateCoSimulation(eventModeUsed=%s, "
                                       "earlyReturnAllowed=false) with requiredIntermediateVariables "
                                       "= the %zu inputs and outputs with intermediateUpdate=\"true\" "
                                       "(first '%s') returned NULL, although run A made the same "
                                       "instance without them (FMI 3.0.2 §2.3.1, §4.2.2: a master "
                                       "may register the variables the FMU marks for Intermediate "
                                       "Update Mode)",
                                  rn, job->event_mode_used ? "true" : "false", job->iu->nreq,
                                  job->iu->nout ? job->iu->out_name[0] : job->iu->in_name[0]);
        else if (job->event_mode_used)
            fmuc_result_violation(res, "%s: fmi3InstantiateCoSimulation(eventModeUsed=true, "
                                       "earlyReturnAllowed=%s) returned NULL although <CoSimulation> "
                                       "(line %u) declares hasEventMode=\"true\" (FMI 3.0.2 §4.4, "
                                       "§2.3.1: a master may then use Event Mode)",
                                  rn, job->early_return_allowed ? "true" : "false", md->cs.line);
        else
            fmuc_result_violation(res, "%s: fmi3InstantiateCoSimulation(eventModeUsed=false, "
                                       "earlyReturnAllowed=%s, intermediateUpdate=%s) returned NULL "
                                       "(FMI 3.0.2 §2.3.1: these arguments are the master's choice "
                                       "given the flags of <CoSimulation>, line %u)",
                                  rn, job->early_return_allowed ? "true" : "false",
                                  job->intermediate_update ? "given" : "NULL", md->cs.line);
        return;
    }
    const char *err = cJSON_GetStringValue(cJSON_GetObjectItem(rp, "error"));
    if (err) {
        fmuc_result_violation(res, "%s (eventModeUsed=%s): %s (FMI 3.0.2 §2.3.3, §4.2.1)", rn,
                              job->event_mode_used ? "true" : "false", err);
        return;
    }
    /* Event Mode instants */
    const cJSON *events = cJSON_GetObjectItem(rp, "events");
    static const char *const ev_fn[] = {"", "fmi3EnterEventMode", "fmi3UpdateDiscreteStates",
                                        "fmi3EnterStepMode"};
    size_t nev = (size_t)cJSON_GetArraySize(events), iters = 0;
    for (size_t i = 0; i < nev; i++) {
        const cJSON *e = cJSON_GetArrayItem(events, (int)i);
        int failed = (int)num(e, E_FAILED);
        iters += (size_t)num(e, E_IT);
        if (failed >= 1 && failed <= 3)
            fmuc_result_violation(res, "%s: %s at t=%.17g (Event Mode %s) returned %s (FMI 3.0.2 "
                                       "§2.3.3, §4.2.1)",
                                  rn, ev_fn[failed], num(e, E_T),
                                  i == 0 && job->event_mode_used && num(e, E_T) == p->t[0]
                                      ? "after fmi3ExitInitializationMode"
                                      : "after eventHandlingNeeded=true",
                                  fmuc_status_name(3, (int)num(e, E_ST), b, sizeof b));
        else if (!num(e, E_SETTLED))
            fmuc_result_violation(res, "%s: the event iteration at t=%.17g did not settle: "
                                       "fmi3UpdateDiscreteStates still returned "
                                       "discreteStatesNeedUpdate=true after %d calls (FMI 3.0.2 "
                                       "§4.2.1)",
                                  rn, num(e, E_T), (int)num(e, E_IT));
    }
    cJSON_AddNumberToObject(ev, "event_instants", (double)nev);
    cJSON_AddNumberToObject(ev, "update_discrete_states_calls", (double)iters);
    /* steps */
    const cJSON *steps = cJSON_GetObjectItem(rp, "steps");
    size_t nst = (size_t)cJSON_GetArraySize(steps), n_early = 0, n_ehn = 0, n_bad_early = 0,
           n_bad_last = 0, n_undeclared = 0;
    for (size_t i = 0; i < nst; i++) {
        const cJSON *e = cJSON_GetArrayItem(steps, (int)i);
        double tc = num(e, S_TC), h = num(e, S_H), last = num(e, S_LAST);
        int st = (int)num(e, S_ST), early = num(e, S_EARLY) != 0.0;
        double end = tc + h, tol = fmax(1e-9 * fmax(1.0, fabs(end)), 1e-6 * h);
        int nan_last = num(e, S_NANLAST) != 0.0;
        n_ehn += num(e, S_EHN) != 0.0;
        if (!fmuc_status_ok(st) && early) {
            /* an early return is no failure report: the FMU stopped where it wanted to, so the
             * step succeeded up to lastSuccessfulTime (D-03; fmi-standard#1844) */
            fmuc_result_violation(res, "%s: fmi3DoStep(t=%.17g, h=%.17g) returned earlyReturn=true "
                                       "with %s (lastSuccessfulTime=%.17g): an early return is "
                                       "reported with fmi3OK, failures with Discard, Error or "
                                       "Fatal and no early return (FMI 3.0.2 §4.2.1)",
                                  rn, tc, h, fmuc_status_name(3, st, b, sizeof b),
                                  nan_last ? NAN : last);
            break;
        }
        if (!fmuc_status_ok(st)) {
            if (st == FMUC_STATUS_DISCARD)
                fmuc_result_warn(res, "%s: fmi3DoStep(t=%.17g, h=%.17g) returned fmi3Discard "
                                      "(FMI 3.0.2 §4.2.1)", rn, tc, h);
            else
                fmuc_result_violation(res, "%s: fmi3DoStep(t=%.17g, h=%.17g) returned %s with "
                                           "eventModeUsed=%s, earlyReturnAllowed=%s (FMI 3.0.2 "
                                           "§4.2.1; the same grid runs in cs-nominal-run)",
                                      rn, tc, h, fmuc_status_name(3, st, b, sizeof b),
                                      job->event_mode_used ? "true" : "false",
                                      job->early_return_allowed ? "true" : "false");
            break;
        }
        if (early) {
            n_early++;
            if (!job->early_return_allowed) {
                if (n_bad_early++ < CSEM_MAX_REPORTED)
                    fmuc_result_violation(res, "%s: fmi3DoStep(t=%.17g, h=%.17g) returned "
                                               "earlyReturn=true (lastSuccessfulTime=%.17g) "
                                               "although the instance was made with "
                                               "earlyReturnAllowed=false (FMI 3.0.2 §2.3.1: the "
                                               "FMU must not return early; §4.2.1)",
                                          rn, tc, h, last);
            } else if (!might && n_undeclared++ < 1) {
                fmuc_result_warn(res, "%s: fmi3DoStep(t=%.17g, h=%.17g) returned earlyReturn=true "
                                      "although <CoSimulation> (line %u) does not declare "
                                      "mightReturnEarlyFromDoStep=\"true\" (FMI 3.0.2 §4.4)",
                                 rn, tc, h, md->cs.line);
            }
            /* a time outside the step is wrong whether or not the return was allowed */
            if (nan_last || !(last >= tc - tol && last <= end + tol)) {
                if (n_bad_last++ < CSEM_MAX_REPORTED)
                    fmuc_result_violation(res, "%s: fmi3DoStep(t=%.17g, h=%.17g) returned early "
                                               "with lastSuccessfulTime=%.17g outside [tc, tc+h] "
                                               "(FMI 3.0.2 §4.2.1)",
                                          rn, tc, h, nan_last ? NAN : last);
            }
        } else if (nan_last || fabs(last - end) > tol) {
            if (n_bad_last++ < CSEM_MAX_REPORTED)
                fmuc_result_violation(res, "%s: fmi3DoStep(t=%.17g, h=%.17g) returned fmi3OK "
                                           "without early return but lastSuccessfulTime=%.17g, "
                                           "not tc+h=%.17g (FMI 3.0.2 §4.2.1: the FMU integrates "
                                           "to tc+h, and lastSuccessfulTime is the time reached)",
                                      rn, tc, h, nan_last ? NAN : last, end);
        }
    }
    if (n_bad_early > CSEM_MAX_REPORTED)
        fmuc_result_note(res, "%s: %zu further early returns", rn,
                         n_bad_early - CSEM_MAX_REPORTED);
    if (n_bad_last > CSEM_MAX_REPORTED)
        fmuc_result_note(res, "%s: %zu further wrong lastSuccessfulTime values", rn,
                         n_bad_last - CSEM_MAX_REPORTED);
    cJSON_AddNumberToObject(ev, "do_steps", (double)nst);
    cJSON_AddNumberToObject(ev, "early_returns", (double)n_early);
    cJSON_AddNumberToObject(ev, "event_handling_needed", (double)n_ehn);
    if (n_ehn && !job->event_mode_used)
        fmuc_result_note(res, "%s: %zu steps returned eventHandlingNeeded=true with "
                              "eventModeUsed=false (the master cannot enter Event Mode; FMI "
                              "3.0.2 §4.2.1)",
                         rn, n_ehn);
    if (cJSON_GetObjectItem(rp, "stuck_at"))
        fmuc_result_violation(res, "%s: more than %zu fmi3DoStep calls for %zu communication "
                                   "steps: the early returns make no progress from t=%.17g "
                                   "(FMI 3.0.2 §4.2.1)",
                              rn, 4 * p->nsteps + 16, p->nsteps,
                              cJSON_GetNumberValue(cJSON_GetObjectItem(rp, "stuck_at")));
    if (cJSON_IsTrue(cJSON_GetObjectItem(rp, "terminated")))
        fmuc_result_note(res, "%s: the FMU asked to terminate (terminateSimulation=true)", rn);
    /* the intermediate update callback */
    const cJSON *iu = cJSON_GetObjectItem(rp, "iu");
    size_t niu = (size_t)cJSON_GetArraySize(iu), bad_iu = 0, outside = 0, back = 0, env = 0;
    double total = cJSON_GetNumberValue(cJSON_GetObjectItem(rp, "iu_total"));
    double finished_at = -INFINITY;
    size_t n_get = 0, n_set = 0, bad_get = 0, bad_set = 0, nonfinite = 0;
    for (size_t i = 0; i < niu; i++) {
        const cJSON *e = cJSON_GetArrayItem(iu, (int)i);
        double t = num(e, IU_T), tc = num(e, IU_TC), h = num(e, IU_H);
        unsigned fl = (unsigned)num(e, IU_FL);
        int nan_t = num(e, IU_NANT) != 0.0;
        if (job->iu)
            judge_ium_access(res, rn, job->iu, e, &n_get, &n_set, &bad_get, &bad_set, &nonfinite);
        if ((fl & FMUC_INST_IU_FOREIGN_ENV) && env++ < 1)
            fmuc_result_violation(res, "%s: the intermediateUpdate callback got an "
                                       "instanceEnvironment other than the one given to "
                                       "fmi3InstantiateCoSimulation (intermediateUpdateTime=%.17g; "
                                       "FMI 3.0.2 §2.3.1: it \"needs to be passed to all of the "
                                       "callback functions\")",
                                  rn, t);
        if (fl & FMUC_INST_IU_OUTSIDE_DO_STEP) {
            if (outside++ < 1)
                fmuc_result_warn(res, "%s: the intermediateUpdate callback was called outside "
                                      "fmi3DoStep (intermediateUpdateTime=%.17g; FMI 3.0.2 "
                                      "§4.2.2: Intermediate Update Mode is entered within "
                                      "fmi3DoStep)", rn, t);
            continue;
        }
        double tol = fmax(1e-9 * fmax(1.0, fabs(tc + h)), 1e-6 * h);
        if (nan_t || t < tc - tol || t > tc + h + tol) {
            if (bad_iu++ < CSEM_MAX_REPORTED)
                fmuc_result_violation(res, "%s: the intermediateUpdate callback got "
                                           "intermediateUpdateTime=%.17g during fmi3DoStep(t=%.17g, "
                                           "h=%.17g), outside [tc, tc+h] (FMI 3.0.2 §4.2.2)",
                                      rn, nan_t ? NAN : t, tc, h);
        } else if (t < finished_at - tol) {
            if (back++ < 1)
                fmuc_result_violation(res, "%s: the intermediateUpdate callback got "
                                           "intermediateUpdateTime=%.17g, before %.17g of an "
                                           "earlier call with intermediateStepFinished=true "
                                           "(FMI 3.0.2 §4.2.2)", rn, t, finished_at);
        }
        if (fl & FMUC_INST_IU_STEP_FINISHED)
            finished_at = fmax(finished_at, t);
    }
    if (bad_iu > CSEM_MAX_REPORTED)
        fmuc_result_note(res, "%s: %zu further intermediateUpdateTime values outside [tc, tc+h]",
                         rn, bad_iu - CSEM_MAX_REPORTED);
    cJSON_AddNumberToObject(ev, "intermediate_update_calls", total);
    if (job->iu) {
        cJSON_AddNumberToObject(ev, "required_intermediate_variables", (double)job->iu->nreq);
        cJSON_AddNumberToObject(ev, "ium_gets", (double)n_get);
        cJSON_AddNumberToObject(ev, "ium_sets", (double)n_set);
        if (bad_get > 1 || bad_set > 1)
            fmuc_result_note(res, "%s: %zu further refused accesses in Intermediate Update Mode "
                                  "(of %zu gets and %zu sets)",
                             rn, (bad_get > 1 ? bad_get - 1 : 0) + (bad_set > 1 ? bad_set - 1 : 0),
                             n_get, n_set);
        if (nonfinite)
            fmuc_result_note(res, "%s: %zu values got in Intermediate Update Mode are not finite",
                             rn, nonfinite);
        if (total && !n_get && job->iu->nout)
            fmuc_result_note(res, "%s: the FMU called intermediateUpdate %.0f times but never with "
                                  "intermediateVariableGetAllowed=true: the registered outputs "
                                  "were never readable between communication points",
                             rn, total);
        if (job->iu->skipped)
            fmuc_result_note(res, "%s: %zu variables with intermediateUpdate=\"true\" not "
                                  "registered (arrays, locals, or more than %d inputs or outputs)",
                             rn, job->iu->skipped, FMUC_INST_IU_WATCH);
    }
    if (job->intermediate_update && total == 0 && piu)
        fmuc_result_note(res, "%s: providesIntermediateUpdate=\"true\", the callback was given "
                              "and never called (allowed: the FMU calls it when it has "
                              "something to offer)", rn);
    /* outputs finite (derived) */
    size_t rows = p->nsteps + 1, npts = (size_t)cJSON_GetNumberValue(cJSON_GetObjectItem(rp, "points"));
    double *y = fmuc_worker_f64_from_json(cJSON_GetObjectItem(rp, "y"), rows * p->nout);
    if (y && npts <= rows) {
        size_t bad = 0;
        for (size_t k = 0; k < npts; k++)
            for (size_t j = 0; j < p->nout; j++)
                if (!isfinite(y[k * p->nout + j]) && bad++ < 1)
                    fmuc_result_warn(res, "%s: output '%s' (vr %u) is %.17g at t=%.17g with "
                                          "eventModeUsed=%s (FMI 3.0.2 §4.2.1; derived: the "
                                          "master couples it)",
                                     rn, p->out[j].name, p->out[j].vr, y[k * p->nout + j], p->t[k],
                                     job->event_mode_used ? "true" : "false");
        cJSON_AddNumberToObject(ev, "points", (double)npts);
    }
    free(y);
}

/* The registration of run C (NULL when out of memory). Scalar continuous Float inputs and
 * outputs with intermediateUpdate="true"; an input is set to the value run C holds it at (the
 * plan's row 0, else its start value). Run C is made only when run A got its instance. */
static em_iu *em_iu_collect(const fmuc_md *md, const equ_plan *p)
{
    em_iu *iu = calloc(1, sizeof *iu);
    if (!iu)
        return NULL;
    for (size_t i = 0; i < md->nexts; i++) {
        const fmuc_md_var_ext *x = &md->exts[i];
        const fmuc_md_var *v = &md->vars[x->var];
        if (!x->has_intermediate_update || !x->intermediate_update || v->base == FMUC_BT_CLOCK)
            continue;
        int single = v->base == FMUC_BT_FLOAT32;
        int is_in = v->causality == FMUC_CAUS_INPUT, is_out = v->causality == FMUC_CAUS_OUTPUT;
        /* continuous only (B-221; condition 20: no discrete input is set there): a discrete
         * one is md-var-intermediate-update's finding, not a variable to access */
        if ((!is_in && !is_out) || x->ndims || (v->base != FMUC_BT_FLOAT64 && !single) ||
            v->variability != FMUC_VAR_CONTINUOUS ||
            (is_out && iu->nout >= FMUC_INST_IU_WATCH) ||
            (is_in && iu->nin >= FMUC_INST_IU_WATCH)) {
            iu->skipped++;
            continue;
        }
        if (is_out) {
            iu->out_single[iu->nout] = (unsigned char)single;
            iu->out_name[iu->nout] = v->name ? v->name : "?";
            iu->out[iu->nout++] = v->value_reference;
        } else {
            double u = v->start_text ? v->start : 0.0;
            for (size_t j = 0; j < p->nin; j++)
                if (p->in[j].vr == v->value_reference)
                    u = p->in_values[j];
            if (!isfinite(u)) {
                iu->skipped++;
                continue;
            }
            iu->in_single[iu->nin] = (unsigned char)single;
            iu->in_value[iu->nin] = u;
            iu->in_name[iu->nin] = v->name ? v->name : "?";
            iu->in[iu->nin++] = v->value_reference;
        }
        iu->req[iu->nreq++] = v->value_reference;
    }
    return iu;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_fmu *fmu = s->fmu;
    const fmuc_md *md = &fmu->md;
    unsigned caps = md->cs.caps;
    int has_em = (caps >> FMUC_CAP_HAS_EVENT_MODE) & 1u;
    int might = (caps >> FMUC_CAP_MIGHT_RETURN_EARLY_FROM_DO_STEP) & 1u;
    int piu = (caps >> FMUC_CAP_PROVIDES_INTERMEDIATE_UPDATE) & 1u;
    equ_plan p;
    memset(&p, 0, sizeof p);
    if (!md->cs.present) {
        fmuc_result_na(res, "no CoSimulation element");
        return;
    }
    if (!has_em && !might && !piu) {
        fmuc_result_na(res, "<CoSimulation> (line %u) declares none of hasEventMode, "
                            "mightReturnEarlyFromDoStep, providesIntermediateUpdate as \"true\": "
                            "a master instantiates with eventModeUsed=false, "
                            "earlyReturnAllowed=false (cs-nominal-run judges that run)",
                       md->cs.line);
        return;
    }
    if (!fmu->lib_path_cs) {
        fmuc_result_na(res, "no CoSimulation binary for this platform");
        return;
    }
    if (!csu_nominal_usable(s, "cs-event-mode", res))
        return;
    if (em_plan_init(&p, fmu, CSEM_MIN_STEPS, CSEM_MAX_STEPS) < 0) {
        fmuc_result_na(res, "%s", p.why[0] ? p.why : "out of memory");
        goto out;
    }
    if (equ_plan_horizon(&p, s, res))
        goto out;
    csu_clamp_inputs(&p);
    cJSON *evd = fmuc_result_evidence(res);
    cJSON_AddBoolToObject(evd, "hasEventMode", has_em);
    cJSON_AddBoolToObject(evd, "mightReturnEarlyFromDoStep", might);
    cJSON_AddBoolToObject(evd, "providesIntermediateUpdate", piu);
    cJSON_AddNumberToObject(evd, "steps", (double)p.nsteps);
    cJSON_AddNumberToObject(evd, "start", p.t[0]);
    em_iu *iu = piu ? em_iu_collect(md, &p) : NULL;
    int a_made = 0; /* run A got its instance: run C differs from it only by the registration */
    for (int r = 0; r < NRUNS; r++) {
        if ((r == RUN_B && !might) || (r == RUN_C && (!iu || !iu->nreq || !a_made)))
            continue;
        em_job job = {&p, has_em, r == RUN_B, piu, r == RUN_C ? iu : NULL};
        fmuc_worker_outcome o;
        fmuc_result scratch;
        char label[96];
        snprintf(label, sizeof label, "cs-event-mode (%s)", run_name[r]);
        fmuc_result_init(&scratch, res->id, res->title, res->spec, res->level);
        if (equ_worker(s, fmu, label, em_worker, &job, &o, &scratch) < 0) {
            csu_probe_died(res, &scratch, 1, run_name[r], run_name[r]);
            continue;
        }
        fmuc_result_clear(&scratch);
        fmuc_sim_add_log(&o, fmuc_result_evidence(res));
        const char *le = cJSON_GetStringValue(cJSON_GetObjectItem(o.reply, "load_error"));
        if (le) {
            fmuc_result_na(res, "the library does not load (see load-dlopen): %s", le);
            fmuc_worker_outcome_free(&o);
            break;
        }
        if (r == RUN_A && !cJSON_IsTrue(cJSON_GetObjectItem(o.reply, "refused")))
            a_made = 1;
        judge(s, res, &p, &job, r, o.reply);
        fmuc_worker_outcome_free(&o);
    }
    free(iu);
out:
    equ_plan_free(&p);
}

const fmuc_check fmuc_check_cs_event_mode = {
    .id = "cs-event-mode",
    .title = "FMI 3.0 Co-Simulation with Event Mode, early return and the intermediate update "
             "behaves as declared",
    .spec = "FMI 3.0.2 §2.3.1, §2.3.3, §4.2.1, §4.2.2, §4.1.1, §4.4",
    .level = FMUC_LEVEL_MUST,
    .why = "A master that uses the Event Mode or early return the FMU declares gets no instance, "
           "misplaced communication points or intermediate updates at impossible times, and "
           "couples wrong values.",
    .fix = "Accept eventModeUsed=true when hasEventMode=\"true\", never set earlyReturn unless "
           "earlyReturnAllowed, report lastSuccessfulTime as reached, call intermediateUpdate "
           "within [tc, tc+h] only.",
    .applies = FMUC_APPLIES_CS,
    .versions = FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .run = run,
};
