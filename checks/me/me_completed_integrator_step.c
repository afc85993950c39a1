/* me-completed-integrator-step: the Model Exchange call after an accepted integrator step,
 * fmi2CompletedIntegratorStep (FMI 2.0.4 §3.2.2, F-08), fmi3CompletedIntegratorStep (FMI 3.0.2
 * §3.2.1, F-06), fmiCompletedIntegratorStep (FMI 1.0 ME, fmi1-rules F-03):
 * - after accepted steps it returns OK and writes its outputs (2.0/3.0: *enterEventMode and
 *   *terminateSimulation; 1.0: *callEventUpdate) with true/false; an FMU that ignores the call
 *   leaves the caller's values (a fill pattern that is neither: the instance API keeps the
 *   caller's value for an output the FMU did not write, fmuc_inst.h) -- for an FMU that needs
 *   the call (2.0 completedIntegratorStepNotNeeded="false", 3.0 needsCompletedIntegratorStep=
 *   "true", always in 1.0) a step event or a termination request signalled only there is lost;
 * - where the call is declared unneeded (2.0 completedIntegratorStepNotNeeded="true", 3.0
 *   needsCompletedIntegratorStep="false") it has no effect: no step event;
 * - a whole default-experiment run with the CVODE host loop, which calls it after every accepted
 *   step when needed (always for 3.0, where calling it anyway is allowed) and honours the
 *   outputs: every call succeeds. */
#include "fmuc/fmuc_sim.h"
#include "me_util.h"

#define NSTEPS 5
#define FILL 0x5A5A

/** Whether the FMU declares that it needs the call: 2.0 completedIntegratorStepNotNeeded
 *  absent or "false", 3.0 needsCompletedIntegratorStep="true", 1.0 always (no such flag). */
static int cis_needed(const fmuc_md *md)
{
    if (md->fmi == FMUC_FMI1)
        return 1;
    if (md->fmi == FMUC_FMI3)
        return (int)((md->me.caps >> FMUC_CAP_NEEDS_COMPLETED_INTEGRATOR_STEP) & 1u);
    return !((md->me.caps >> FMUC_CAP_COMPLETED_INTEGRATOR_STEP_NOT_NEEDED) & 1u);
}

/** The declaration behind cis_needed, in the version's words. */
static const char *needed_decl(int ver, int needed)
{
    if (ver == 1)
        return "FMI 1.0 requires the call after every completed step";
    if (ver == 3)
        return needed ? "needsCompletedIntegratorStep=\"true\"" : "needsCompletedIntegratorStep=\"false\"";
    return needed ? "completedIntegratorStepNotNeeded=\"false\""
                  : "completedIntegratorStepNotNeeded=\"true\"";
}

static int written(int b)
{
    return b == 0 || b == 1;
}

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    const meu_model *m = payload;
    const fmuc_md *md = &fmuc_worker_fmu(ctx)->md;
    int needed = cis_needed(md);
    meu_session s;
    char sb[32];
    size_t nx = m->nx, nb = nx ? nx : 1;
    cJSON *reply = fmuc_worker_reply(ctx);
    if (meu_start(ctx, md, &s) < 0) {
        meu_end(&s);
        return 0;
    }
    const int v = s.ver;
    const char *cis = meu_fn(v, FMUC_INST_OP_COMPLETED_INTEGRATOR_STEP);
    const char *tru = v == 1 ? "fmiTrue" : v == 3 ? "true" : "fmi2True";
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
            /* the FMU's own failure on its trajectory (the nominal run's checks judge it) */
            meu_na(ctx, "%s returned %s at t = %.17g, so the integrator steps are not assessed "
                        "(see me-nominal-run)",
                   meu_fn(v, FMUC_INST_OP_GET_DERIVATIVES), meu_stname(v, st, sb, sizeof sb), t);
            goto out;
        }
        t = s.t0 + dt * (double)k;
        for (size_t i = 0; i < nx; i++)
            x[i] += dt * dx[i];
        st = meu_st(&s, fmuc_inst_set_time(s.c, t));
        if (meu_ok(st) && nx)
            st = meu_st(&s, fmuc_inst_set_continuous_states(s.c, x, nx));
        if (!meu_ok(st)) {
            meu_na(ctx, "setting t = %.17g and the states returned %s, so the integrator steps "
                        "are not assessed (see me-nominal-run)",
                   t, meu_stname(v, st, sb, sizeof sb));
            goto out;
        }
        int em = FILL, term = FILL;
        fmuc_worker_phase_at(ctx, "completed integrator step", k, t);
        st = meu_st(&s, fmuc_inst_completed_integrator_step(s.c, 1, &em, &term));
        if (!meu_ok(st)) {
            meu_violation(ctx, "%s after an accepted step at t = %.17g returned %s", cis, t,
                          meu_stname(v, st, sb, sizeof sb));
            goto out;
        }
        if (v == 1)
            term = 0; /* FMI 1.0 has no terminateSimulation output here */
        if ((!written(em) && em != FILL) || (!written(term) && term != FILL)) {
            /* written, but neither true (1) nor false (0) */
            if (!unwritten && v == 1)
                meu_violation(ctx, "%s at t = %.17g returned %s with callEventUpdate = %d: "
                                   "neither fmiTrue nor fmiFalse",
                              cis, t, meu_stname(v, st, sb, sizeof sb), em);
            else if (!unwritten)
                meu_violation(ctx, "%s at t = %.17g returned %s with enterEventMode = %d, "
                                   "terminateSimulation = %d: an output is neither %s nor %s",
                              cis, t, meu_stname(v, st, sb, sizeof sb), em, term, tru,
                              v == 3 ? "false" : "fmi2False");
            unwritten++;
            continue;
        }
        if (!written(em) || !written(term)) {
            if (!unwritten) {
                if (v == 1)
                    /* a letter violation: an FMU that never writes the flag signals no step
                     * event by it, and a host that reads an unset flag as fmiTrue at most calls
                     * fmiEventUpdate once too often (the Reference-FMUs 0.0.39 leave it) */
                    meu_violation_letter(ctx, "%s at t = %.17g returned %s but did not set "
                                              "*callEventUpdate (%d: the caller's value 0x%X was "
                                              "left); %s",
                                         cis, t, meu_stname(v, st, sb, sizeof sb), em, FILL,
                                         needed_decl(v, needed));
                else
                    meu_violation(ctx, "%s at t = %.17g returned %s but did not set its outputs "
                                       "(enterEventMode = %d, terminateSimulation = %d: the "
                                       "caller's values 0x%X were left)%s%s%s",
                                  cis, t, meu_stname(v, st, sb, sizeof sb), em, term, FILL,
                                  needed ? "; " : "", needed ? needed_decl(v, needed) : "",
                                  needed ? " says the FMU needs this call, so step events or "
                                           "termination requests would be lost"
                                         : "");
            }
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
            if (!needed)
                meu_violation(ctx, "%s, yet %s at t = %.17g asked for a step event "
                                   "(enterEventMode = %s; the call must have no effect)",
                              needed_decl(v, needed), cis, t, tru);
            /* honour it: event mode, iteration, back to continuous time (1.0: fmiEventUpdate) */
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

static void host_run(const fmuc_subject *s, int ver, int needed, fmuc_result *res)
{
    fmuc_sim_result own;
    const fmuc_sim_result *rp =
        fmuc_shared_nominal_run(s, FMUC_IFACE_ME, "me-completed-integrator-step", res, &own);
    if (!rp) {
        fmuc_sim_result_free(&own);
        return;
    }
    const char *cis = apiu_fn(ver, FMUC_IFACE_ME, FMUC_INST_OP_COMPLETED_INTEGRATOR_STEP);
    /* the host loop calls it for every FMI 3.0 FMU (sim.c), else when needed */
    int host_calls = ver == 3 || needed;
    uint64_t calls = 0, bad = 0;
    for (int k = 0; k < FMUC_SIM_NSTATUS; k++) {
        calls += rp->status_counts[FMUC_SIM_FN_CompletedIntegratorStep][k];
        if (k > FMUC_STATUS_WARNING)
            bad += rp->status_counts[FMUC_SIM_FN_CompletedIntegratorStep][k];
    }
    size_t step_events = 0;
    for (size_t i = 0; i < rp->nevents; i++)
        step_events += rp->events[i].kind == FMUC_SIM_EV_STEP;
    for (size_t i = 0; i < rp->nbad; i++) {
        if (rp->bad[i].fn != FMUC_SIM_FN_CompletedIntegratorStep)
            continue;
        char sb[32];
        fmuc_result_violation(res, "%s returned %s at t = %.17g in the default-experiment run",
                              cis, fmuc_status_name(ver, rp->bad[i].status, sb, sizeof sb),
                              rp->bad[i].t);
    }
    cJSON *ev = fmuc_result_evidence(res);
    cJSON_AddBoolToObject(ev, "completedIntegratorStep_needed", needed);
    cJSON_AddNumberToObject(ev, "accepted_steps", (double)rp->steps);
    cJSON_AddNumberToObject(ev, "completed_integrator_step_calls", (double)calls);
    cJSON_AddNumberToObject(ev, "step_events", (double)step_events);
    cJSON_AddBoolToObject(ev, "terminated_by_fmu", rp->terminated_by_fmu);
    cJSON_AddNumberToObject(ev, "end_time", rp->end_time);
    if (host_calls && bad == 0 && rp->completed && calls < rp->steps)
        fmuc_result_error(res, "host loop: %llu accepted steps but only %llu %s calls",
                          (unsigned long long)rp->steps, (unsigned long long)calls, cis);
    if (!rp->completed && rp->stop_reason && bad == 0)
        fmuc_result_note(res, "the default-experiment run ended early at t = %.17g (%s); see "
                              "me-nominal-run / me-events", rp->end_time, rp->stop_reason);
    char kept[96] = "";
    if (rp->events_dropped)
        snprintf(kept, sizeof kept, " among the first %zu of %zu events (the ones kept)",
                 rp->nevents, rp->nevents + rp->events_dropped);
    fmuc_result_note(res, "default-experiment run: %llu accepted steps, %llu %s calls, %zu step "
                          "events%s%s",
                     (unsigned long long)rp->steps, (unsigned long long)calls, cis, step_events,
                     kept, rp->terminated_by_fmu ? ", terminated by the FMU" : "");
    fmuc_sim_result_free(&own);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    meu_model m;
    if (meu_applies(s, res, &m) < 0)
        return;
    const fmuc_md *md = &s->fmu->md;
    int ver = md->fmi == FMUC_FMI1 ? 1 : md->fmi == FMUC_FMI3 ? 3 : 2;
    int needed = cis_needed(md);
    fmuc_worker_outcome o;
    const cJSON *reply = meu_run(s, res, "me-completed-integrator-step", worker, &m, &o);
    if (reply) {
        static const char *const keys[] = {"calls_without_outputs", "step_events"};
        meu_evidence_from_reply(res, reply, keys, sizeof keys / sizeof keys[0]);
    }
    fmuc_worker_outcome_free(&o);
    /* the host run also after a violation of the letter only (1.0 callEventUpdate unset) */
    if (res->verdict == FMUC_VERDICT_PASS ||
        (res->verdict == FMUC_VERDICT_FAIL && res->letter_fail && !res->other_fail))
        host_run(s, ver, needed, res);
    meu_model_free(&m);
}

const fmuc_check fmuc_check_me_completed_integrator_step = {
    .id = "me-completed-integrator-step",
    .title = "CompletedIntegratorStep works and reports step events and termination",
    .spec = "FMI 2.0.4 §3.2.2; FMI 3.0.2 §3.2.1, §3.4 (needsCompletedIntegratorStep); FMI 1.0 ME "
            "(fmiCompletedIntegratorStep: called after every completed integrator step; "
            "callEventUpdate = fmiTrue requires fmiEventUpdate)",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_SOME,
    .interop_why = "FMI 1.0 callEventUpdate left unset: such an FMU signals no step event by it, "
                   "and a host reading the unset flag as true only calls fmiEventUpdate once more",
    .why = "A Model Exchange importer learns of step events and requested termination from "
           "fmi2/fmi3CompletedIntegratorStep (FMI 1.0: callEventUpdate); if it fails or leaves its "
           "outputs unset, events are missed.",
    .fix = "Make CompletedIntegratorStep return OK and always write its outputs (enterEventMode and "
           "terminateSimulation; FMI 1.0 callEventUpdate): true when a step event or termination "
           "is due, else false.",
    .applies = FMUC_APPLIES_ME,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .sessions = 1,
    .run = run,
};
