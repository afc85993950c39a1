/* me-completed-integrator-step: fmi2CompletedIntegratorStep (FMI 2.0.4 §3.2.2, F-08):
 * - after accepted steps it returns OK and writes both outputs (*enterEventMode,
 *   *terminateSimulation) with fmi2True/fmi2False; an FMU that ignores the call leaves the
 *   caller's values (here a fill pattern that is neither) — for an FMU that needs the call
 *   (completedIntegratorStepNotNeeded="false") a step event or a termination request signalled
 *   only there would be lost;
 * - with completedIntegratorStepNotNeeded="true" the call has no effect (no step event);
 * - a whole default-experiment run with the CVODE host loop, which calls it after every accepted
 *   step when needed and honours enterEventMode / terminateSimulation: every call succeeds.
 * FMI 2.0 only for now. FMI 3.0.2 (§3.2.1, needsCompletedIntegratorStep: the polarity of 2.0's
 * flag inverted) and FMI 1.0 ME (fmiCompletedIntegratorStep(&callEventUpdate), to be called
 * after every step) have the call, but the version-neutral instance API hands the FMU its own
 * initialized Booleans (inst_fmi3.c, inst_fmi1.c), so this check's central probe -- outputs the
 * FMU leaves unwritten -- cannot be made there; what remains (the status of the call in the
 * nominal run) is judged by me-nominal-run and api-status-codes for those versions. */
#include "fmuc/fmuc_sim.h"
#include "me_util.h"

#define NSTEPS 5
#define FILL 0x5A5A

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    const meu_model *m = payload;
    const fmuc_md *md = &fmuc_worker_fmu(ctx)->md;
    int not_needed = (md->me.caps >> FMUC_CAP_COMPLETED_INTEGRATOR_STEP_NOT_NEEDED) & 1u;
    meu_session s;
    char sb[32];
    size_t nx = m->nx, nb = nx ? nx : 1;
    cJSON *reply = fmuc_worker_reply(ctx);
    if (meu_start(ctx, md, &s) < 0) {
        meu_end(&s);
        return 0;
    }
    double *x = calloc(nb, sizeof *x), *dx = calloc(nb, sizeof *dx);
    if (!x || !dx) {
        meu_fatal(ctx, "out of memory");
        goto out;
    }
    if (nx && !meu_ok(meu_st(&s, fmuc_inst_get_continuous_states(s.c, x, nx)))) {
        meu_fatal(ctx, "could not read the start state (see me-state-roundtrip)");
        goto out;
    }
    double span = s.t1 - s.t0;
    double dt = span > 0.0 && span * 1e-3 < 1e-3 ? span * 1e-3 : 1e-3;
    double t = s.t0;
    int unwritten = 0, step_events = 0;
    for (int k = 1; k <= NSTEPS; k++) {
        /* one explicit Euler step: what an integrator hands over after an accepted step */
        int st = nx ? meu_st(&s, fmuc_inst_get_derivatives(s.c, dx, nx)) : FMUC_STATUS_OK;
        if (!meu_ok(st)) {
            meu_fatal(ctx, "fmi2GetDerivatives returned %s at t = %.17g",
                      meu_status(st, sb, sizeof sb), t);
            goto out;
        }
        t = s.t0 + dt * (double)k;
        for (size_t i = 0; i < nx; i++)
            x[i] += dt * dx[i];
        st = meu_st(&s, fmuc_inst_set_time(s.c, t));
        if (meu_ok(st) && nx)
            st = meu_st(&s, fmuc_inst_set_continuous_states(s.c, x, nx));
        if (!meu_ok(st)) {
            meu_fatal(ctx, "setting t = %.17g and the states returned %s", t,
                      meu_status(st, sb, sizeof sb));
            goto out;
        }
        int em = FILL, term = FILL;
        fmuc_worker_phase_at(ctx, "completed integrator step", k, t);
        st = meu_st(&s, fmuc_inst_completed_integrator_step(s.c, 1, &em, &term));
        if (!meu_ok(st)) {
            meu_violation(ctx, "fmi2CompletedIntegratorStep after an accepted step at t = %.17g "
                               "returned %s", t, meu_status(st, sb, sizeof sb));
            goto out;
        }
        if ((em != 1 && em != 0) || (term != 1 && term != 0)) {
            if (!unwritten)
                meu_violation(ctx, "fmi2CompletedIntegratorStep at t = %.17g returned %s but did "
                                   "not set its outputs (enterEventMode = %d, terminateSimulation "
                                   "= %d: the caller's values 0x%X were left)%s",
                              t, meu_status(st, sb, sizeof sb), em, term, FILL,
                              not_needed ? ""
                                         : "; completedIntegratorStepNotNeeded=\"false\" says the "
                                           "FMU needs this call, so step events or termination "
                                           "requests would be lost");
            unwritten++;
            continue;
        }
        if (term == 1) {
            meu_note(ctx, "the FMU asked to terminate at t = %.17g (terminateSimulation); the "
                          "host stops there", t);
            break;
        }
        if (em == 1) {
            step_events++;
            if (not_needed)
                meu_violation(ctx, "completedIntegratorStepNotNeeded=\"true\", yet "
                                   "fmi2CompletedIntegratorStep at t = %.17g asked for a step "
                                   "event (enterEventMode = fmi2True; the call must have no effect)",
                              t);
            /* honour it: event mode, iteration, back to continuous time */
            fmuc_inst_event_info info;
            unsigned it = 0;
            st = meu_st(&s, fmuc_inst_enter_event_mode(s.c));
            do {
                memset(&info, 0, sizeof info);
                if (meu_ok(st))
                    st = meu_st(&s, fmuc_inst_update_discrete_states(s.c, &info));
                it++;
            } while (meu_ok(st) && info.new_discrete_states_needed && !info.terminate_simulation &&
                     it < MEU_MAX_EVENT_ITERATIONS);
            if (!meu_ok(st) || info.terminate_simulation || info.new_discrete_states_needed)
                break; /* event handling itself is me-events' subject */
            st = meu_st(&s, fmuc_inst_enter_continuous_time_mode(s.c));
            if (!meu_ok(st) ||
                (nx && !meu_ok(meu_st(&s, fmuc_inst_get_continuous_states(s.c, x, nx)))))
                break;
        }
    }
    cJSON_AddNumberToObject(reply, "calls_without_outputs", unwritten);
    cJSON_AddNumberToObject(reply, "step_events", step_events);
out:
    free(x);
    free(dx);
    meu_end(&s);
    return 0;
}

static void host_run(const fmuc_subject *s, int needed, fmuc_result *res)
{
    fmuc_sim_result own;
    const fmuc_sim_result *rp =
        fmuc_shared_nominal_run(s, FMUC_IFACE_ME, "me-completed-integrator-step", res, &own);
    if (!rp) {
        fmuc_sim_result_free(&own);
        return;
    }
    uint64_t calls = 0, bad = 0;
    for (int k = 0; k < FMUC_SIM_NSTATUS; k++) {
        calls += rp->status_counts[FMUC_SIM_FN_CompletedIntegratorStep][k];
        if (k > fmi2Warning)
            bad += rp->status_counts[FMUC_SIM_FN_CompletedIntegratorStep][k];
    }
    size_t step_events = 0;
    for (size_t i = 0; i < rp->nevents; i++)
        step_events += rp->events[i].kind == FMUC_SIM_EV_STEP;
    for (size_t i = 0; i < rp->nbad; i++) {
        if (rp->bad[i].fn != FMUC_SIM_FN_CompletedIntegratorStep)
            continue;
        char sb[32];
        fmuc_result_violation(res, "fmi2CompletedIntegratorStep returned %s at t = %.17g in the "
                                   "default-experiment run",
                              fmuc_status_name(2, rp->bad[i].status, sb, sizeof sb), rp->bad[i].t);
    }
    cJSON *ev = fmuc_result_evidence(res);
    cJSON_AddBoolToObject(ev, "completedIntegratorStep_needed", needed);
    cJSON_AddNumberToObject(ev, "accepted_steps", (double)rp->steps);
    cJSON_AddNumberToObject(ev, "completed_integrator_step_calls", (double)calls);
    cJSON_AddNumberToObject(ev, "step_events", (double)step_events);
    cJSON_AddBoolToObject(ev, "terminated_by_fmu", rp->terminated_by_fmu);
    cJSON_AddNumberToObject(ev, "end_time", rp->end_time);
    if (needed && bad == 0 && rp->completed && calls < rp->steps)
        fmuc_result_error(res, "host loop: %llu accepted steps but only %llu "
                               "fmi2CompletedIntegratorStep calls",
                          (unsigned long long)rp->steps, (unsigned long long)calls);
    if (!rp->completed && rp->stop_reason && bad == 0)
        fmuc_result_note(res, "the default-experiment run ended early at t = %.17g (%s); see "
                              "me-nominal-run / me-events", rp->end_time, rp->stop_reason);
    fmuc_result_note(res, "default-experiment run: %llu accepted steps, %llu "
                          "fmi2CompletedIntegratorStep calls, %zu step events%s",
                     (unsigned long long)rp->steps, (unsigned long long)calls, step_events,
                     rp->terminated_by_fmu ? ", terminated by the FMU" : "");
    fmuc_sim_result_free(&own);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    meu_model m;
    if (meu_applies(s, res, &m) < 0)
        return;
    int needed = !((s->fmu->md.me.caps >> FMUC_CAP_COMPLETED_INTEGRATOR_STEP_NOT_NEEDED) & 1u);
    fmuc_worker_outcome o;
    const cJSON *reply = meu_run(s, res, "me-completed-integrator-step", worker, &m, &o);
    if (reply) {
        cJSON *ev = fmuc_result_evidence(res);
        static const char *const keys[] = {"calls_without_outputs", "step_events"};
        for (size_t k = 0; k < 2; k++) {
            const cJSON *it = cJSON_GetObjectItemCaseSensitive(reply, keys[k]);
            if (it)
                cJSON_AddItemToObject(ev, keys[k], cJSON_Duplicate(it, 1));
        }
    }
    fmuc_worker_outcome_free(&o);
    if (res->verdict == FMUC_VERDICT_PASS)
        host_run(s, needed, res);
    meu_model_free(&m);
}

const fmuc_check fmuc_check_me_completed_integrator_step = {
    .id = "me-completed-integrator-step",
    .title = "fmi2CompletedIntegratorStep works and reports step events and termination",
    .spec = "FMI 2.0.4 §3.2.2",
    .level = FMUC_LEVEL_MUST,
    .why = "A Model Exchange importer learns of step events and requested termination from "
           "fmi2CompletedIntegratorStep; if it fails or leaves its outputs unset, events are "
           "missed.",
    .fix = "Make fmi2CompletedIntegratorStep return fmi2OK and always write *enterEventMode and "
           "*terminateSimulation: fmi2True when a step event or termination is due, else "
           "fmi2False.",
    .applies = FMUC_APPLIES_ME,
    .versions = FMUC_V2,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .run = run,
};
