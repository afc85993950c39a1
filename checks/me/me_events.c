/* me-events: Model Exchange event handling (FMI 2.0.4 §3.1, §3.2.2, fmi2-rules F.1, F-03, F-04;
 * FMI 3.0.2 §3.1.1, §2.3.5, §3.2.1, §2.4.8, fmi3-rules B-405, F.1, F-02..F-04; FMI 1.0 ME
 * model evaluation, fmi1-rules B-104, F.1, F-03).
 * 1. The declared number of event indicators (2.0/1.0 numberOfEventIndicators; 3.0 the elements
 *    of the <EventIndicator> variables) matches what the FMU serves: GetEventIndicators(z, ni =
 *    declared) returns OK, writes every z[j] (two calls with different caller fill patterns give
 *    the same values), the values are finite, and nothing is written beyond z[ni-1].
 * 2. An external event (fmi2EnterEventMode / fmi3EnterEventMode in Continuous-Time Mode): the
 *    fmi2NewDiscreteStates / fmi3UpdateDiscreteStates iteration settles within 100 calls and
 *    valuesOfContinuousStatesChanged is true exactly when some state value changed (2.0: "must
 *    return fmi2False" when none changed; 3.0.2: "If valuesOfContinuousStatesChanged ==
 *    fmi3True, then at least one continuous state has changed its value"). Not for FMI 1.0: its
 *    ME text calls fmiEventUpdate after time, state and step events only and has no Event Mode to
 *    enter (an event without cause is left open by 1.0, fmi-standard#370), so 1.0 FMUs are judged
 *    by parts 1 and 3.
 * 3. The default experiment run by the CVODE host loop (state events by root finding, time events
 *    at nextEventTime) at tolerance 1e-8 against a reference run at 1e-10: the same state/time
 *    events, |t_ev − t_ref| ≤ max(1e-6 s, 1e-6·t_end), or, beyond it, a deviation that shrinks
 *    with the tolerance (a third run at 1e-9, made only then: at most half of it there; the
 *    host's integrator restarts at every event, and its error adds up over many of them);
 *    every event iteration settles (1.0: fmiEventUpdate reaches iterationConverged). */
#include "fmuc/fmuc_sim.h"
#include "me_util.h"

#define GUARD 4
#define RUN_TOL 1e-8
#define REF_TOL 1e-10
#define MID_TOL 1e-9   /* beyond the limit: does the deviation shrink with the tolerance? */
#define SHRINK 0.5     /* ... to at most this share at MID_TOL: the integrator's error */
#define MAX_ITER 100u

static const double fill_a = -3.25e303, fill_b = 4.9406564584124654e-322;

static int probe_indicators(fmuc_worker_ctx *ctx, meu_session *s, size_t ni)
{
    char sb[32];
    const int v = s->ver;
    const char *fn = meu_fn(v, FMUC_INST_OP_GET_EVENT_INDICATORS), *what = meu_ni_what(v);
    double *za = calloc(ni + GUARD, sizeof *za), *zb = calloc(ni + GUARD, sizeof *zb);
    int bad = 0;
    if (!za || !zb) {
        meu_fatal(ctx, "out of memory");
        free(za);
        free(zb);
        return -1;
    }
    for (size_t j = 0; j < ni + GUARD; j++) {
        za[j] = fill_a;
        zb[j] = fill_b;
    }
    fmuc_worker_phase(ctx, "event indicators (ni = %zu)", ni);
    int st = meu_st(s, fmuc_inst_get_event_indicators(s->c, za, ni));
    int st2 = meu_ok(st) ? meu_st(s, fmuc_inst_get_event_indicators(s->c, zb, ni)) : st;
    if (st == FMUC_STATUS_DISCARD || st2 == FMUC_STATUS_DISCARD) {
        meu_note(ctx, "%s(ni = %zu) returned %s at the start point; indicator values not "
                      "checked", fn, ni, meu_stname(v, FMUC_STATUS_DISCARD, sb, sizeof sb));
    } else if (!meu_ok(st) || !meu_ok(st2)) {
        meu_violation(ctx, "%s(ni = %zu, %s) returned %s: the FMU does not accept the "
                           "declared number of event indicators",
                      fn, ni, what, meu_stname(v, meu_ok(st) ? st2 : st, sb, sizeof sb));
        bad = 1;
    } else {
        for (size_t j = 0; j < ni; j++) {
            if (memcmp(&za[j], &zb[j], sizeof za[j]) != 0) {
                meu_violation(ctx, "%s(ni = %zu) did not write z[%zu] (it keeps what the "
                                   "caller's buffer held): %s (%zu) is more than the FMU has",
                              fn, ni, j, what, ni);
                bad = 1;
            } else if (!isfinite(za[j])) {
                meu_violation(ctx, "event indicator z[%zu] = %g at the start point is not finite",
                              j, za[j]);
                bad = 1;
            }
        }
        for (size_t j = ni; j < ni + GUARD; j++) {
            if (memcmp(&za[j], &fill_a, sizeof fill_a) != 0 ||
                memcmp(&zb[j], &fill_b, sizeof fill_b) != 0) {
                meu_violation(ctx, "%s(ni = %zu) wrote z[%zu], beyond the declared %s (%zu: "
                                   "buffer overrun; the FMU has more event indicators than "
                                   "declared)",
                              fn, ni, j, what, ni);
                bad = 1;
                break;
            }
        }
    }
    cJSON *arr = cJSON_AddArrayToObject(fmuc_worker_reply(ctx), "z_start");
    for (size_t j = 0; j < ni && arr; j++)
        cJSON_AddItemToArray(arr, isfinite(za[j]) ? cJSON_CreateNumber(za[j]) : cJSON_CreateNull());
    free(za);
    free(zb);
    return bad;
}

/* An external event in the middle of a flight: nothing should change; the flag must say so. */
static void external_event(fmuc_worker_ctx *ctx, const meu_model *m, meu_session *s)
{
    char sb[32], xn[300];
    const int v = s->ver;
    const char *uds = meu_fn(v, FMUC_INST_OP_UPDATE_DISCRETE_STATES);
    const char *gcs = meu_fn(v, FMUC_INST_OP_GET_STATES), *vf = meu_values_flag(v);
    size_t nx = m->nx, nb = nx ? nx : 1;
    double *xb = calloc(nb, sizeof *xb), *xa = calloc(nb, sizeof *xa);
    if (!xb || !xa) {
        meu_fatal(ctx, "out of memory");
        goto out;
    }
    double span = s->t1 - s->t0;
    double te = s->t0 + (span > 0.0 && span * 1e-3 < 1e-3 ? span * 1e-3 : 1e-3);
    fmuc_worker_phase(ctx, "external event at t = %.9g", te);
    int st = meu_st(s, fmuc_inst_set_time(s->c, te));
    if (meu_ok(st))
        st = meu_st(s, fmuc_inst_enter_event_mode(s->c));
    if (!meu_ok(st)) {
        meu_fatal(ctx, "could not enter Event Mode at t = %.17g (%s)", te,
                  meu_stname(v, st, sb, sizeof sb));
        goto out;
    }
    if (nx && !meu_ok(meu_st(s, fmuc_inst_get_continuous_states(s->c, xb, nx)))) {
        meu_fatal(ctx, "%s failed in Event Mode", gcs);
        goto out;
    }
    unsigned it = 0;
    fmuc_inst_event_info info;
    do {
        memset(&info, 0, sizeof info);
        st = meu_st(s, fmuc_inst_update_discrete_states(s->c, &info));
        it++;
        if (!meu_ok(st)) {
            meu_violation(ctx, "%s at an external event (t = %.17g) returned %s", uds, te,
                          meu_stname(v, st, sb, sizeof sb));
            goto out;
        }
        if (nx && !meu_ok(meu_st(s, fmuc_inst_get_continuous_states(s->c, xa, nx)))) {
            meu_fatal(ctx, "%s failed in Event Mode", gcs);
            goto out;
        }
        size_t changed = nx, nchanged = 0;
        for (size_t i = 0; i < nx; i++)
            if (memcmp(&xa[i], &xb[i], sizeof xa[i]) != 0) {
                nchanged++;
                if (changed == nx)
                    changed = i;
            }
        if (info.values_changed && nchanged == 0)
            meu_violation(ctx, "%s (external event at t = %.17g, iteration %u) set %s although "
                               "no continuous state changed (it says that one did: hosts restart "
                               "the integrator or loop)",
                          uds, te, it, vf);
        if (!info.values_changed && nchanged > 0)
            meu_violation(ctx, "%s (external event at t = %.17g, iteration %u) changed state "
                               "%s from %.17g to %.17g but did not set %s",
                          uds, te, it, meu_xname(m, changed, xn, sizeof xn), xb[changed],
                          xa[changed], vf);
        memcpy(xb, xa, nx * sizeof *xa);
    } while (info.new_discrete_states_needed && !info.terminate_simulation && it < MAX_ITER);
    cJSON_AddNumberToObject(fmuc_worker_reply(ctx), "external_event_iterations", it);
    if (info.new_discrete_states_needed && !info.terminate_simulation) {
        meu_violation(ctx, "the event iteration of an external event at t = %.17g did not settle: "
                           "%s after %u %s calls", te, meu_more_flag(v), MAX_ITER, uds);
        goto out;
    }
    if (!info.terminate_simulation) {
        st = meu_st(s, fmuc_inst_enter_continuous_time_mode(s->c));
        if (!meu_ok(st))
            meu_violation(ctx, "%s after an external event returned %s",
                          meu_fn(v, FMUC_INST_OP_ENTER_CT_MODE), meu_stname(v, st, sb, sizeof sb));
    }
out:
    free(xb);
    free(xa);
}

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    const meu_model *m = payload;
    const fmuc_md *md = &fmuc_worker_fmu(ctx)->md;
    meu_session s;
    if (meu_start(ctx, md, &s) == 0) {
        /* after an Error status only freeing the instance is allowed: no further probe */
        if (probe_indicators(ctx, &s, m->ni) >= 0 && s.worst < FMUC_STATUS_ERROR && s.ver != 1)
            external_event(ctx, m, &s);
        else if (s.ver == 1)
            meu_note(ctx, "FMI 1.0: no external event probed (fmiEventUpdate follows time, state "
                          "and step events; 1.0 has no Event Mode to enter without one)");
    } else if (s.no_settle) {
        meu_violation(ctx, "the event iteration after %s did not settle: %s after %u %s calls",
                      meu_fn(s.ver, FMUC_INST_OP_EXIT_INIT), meu_more_flag(s.ver),
                      MEU_MAX_EVENT_ITERATIONS, meu_fn(s.ver, FMUC_INST_OP_UPDATE_DISCRETE_STATES));
    }
    meu_end(&s);
    return 0;
}

/* State and time events of a run (the ones the host locates). */
static size_t located_events(const fmuc_sim_result *r, const fmuc_sim_event **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nevents && n < max; i++)
        if (r->events[i].kind == FMUC_SIM_EV_STATE || r->events[i].kind == FMUC_SIM_EV_TIME)
            out[n++] = &r->events[i];
    return n;
}

/* Either run kept only its first events (fmuc_sim_result.events_dropped): the runs are compared
 * over the events both kept, not by their number. */
static int events_truncated(const fmuc_sim_result *a, const fmuc_sim_result *b)
{
    return a->events_dropped > 0 || b->events_dropped > 0;
}

static const char *kind_name(int k)
{
    static const char *const n[] = {"init", "time", "state", "step", "input"};
    return k >= 0 && k < 5 ? n[k] : "?";
}

static void overflow_violation(int ver, const fmuc_sim_result *r, double tol, fmuc_result *res)
{
    double t = r->end_time;
    for (size_t i = 0; i < r->nevents; i++)
        if (r->events[i].iterations >= MAX_ITER)
            t = r->events[i].t;
    fmuc_result_violation(res, "event iteration at t = %.17g did not settle: %s after %u %s calls "
                               "(run at tolerance %g)", t, meu_more_flag(ver), MAX_ITER,
                          meu_fn(ver, FMUC_INST_OP_UPDATE_DISCRETE_STATES), tol);
}

/* Returns 0 when the run is usable for the timing comparison. */
static int sim_once(const fmuc_subject *s, double tol, fmuc_sim_result *r, fmuc_result *res)
{
    fmuc_sim_config cfg;
    fmuc_worker_outcome o;
    fmuc_sim_config_init(&cfg, FMUC_IFACE_ME);
    cfg.tolerance = tol;
    /* the inputs of the nominal run (start values unless --input), a bounded horizon */
    cfg.input_csv = s->opts->input_csv;
    cfg.no_excitation = cfg.input_csv == NULL;
    cfg.max_event_iterations = MAX_ITER;
    cfg.record_inputs = 0;
    char why[400];
    if (fmuc_shared_run_config(s, &cfg, res, why, sizeof why) != 0) {
        fmuc_result_na(res, "%s", why);
        return -1;
    }
    int rc = fmuc_sim_run_isolated(s->fmu, s->opts, &cfg, "me-events", r, &o, res);
    apiu_note_death(s, res, FMUC_IFACE_ME, &o);
    fmuc_worker_outcome_free(&o);
    if (rc != 0)
        return -1;
    if (r->event_iteration_overflow) {
        overflow_violation(apiu_version(s), r, tol, res);
        return -1;
    }
    if (r->stop_reason && !r->completed) {
        fmuc_result_note(res, "the ME run at tolerance %g ended early at t = %.17g (%s); event "
                              "timing not compared (see me-nominal-run)", tol, r->end_time,
                         r->stop_reason);
        return -1;
    }
    return 0;
}

/* The time limit of the comparison: max(1e-6 s, 1e-6 * |t_end|). */
static double time_limit(const fmuc_sim_result *a)
{
    double tend = fabs(a->stop) > fabs(a->start) ? fabs(a->stop) : fabs(a->start);
    return 1e-6 * tend > 1e-6 ? 1e-6 * tend : 1e-6;
}

/* Do a and b locate the same events, of the same kinds, and is one of them further apart than
 * the limit? (Then a run at MID_TOL tells the integrator's error from erratic events.) */
static int beyond_limit(const fmuc_sim_result *a, const fmuc_sim_result *b)
{
    enum { MAXEV = 2000 };
    const fmuc_sim_event **ea = calloc(MAXEV, sizeof *ea), **eb = calloc(MAXEV, sizeof *eb);
    int beyond = 0;
    size_t na = ea && eb ? located_events(a, ea, MAXEV) : 0;
    size_t nb = ea && eb ? located_events(b, eb, MAXEV) : 1;
    double lim = time_limit(a);
    if (ea && eb && events_truncated(a, b)) /* the first events of each, as far as both go */
        na = nb = na < nb ? na : nb;
    for (size_t i = 0; na == nb && i < na && !beyond; i++)
        beyond = ea[i]->kind == eb[i]->kind && !(fabs(ea[i]->t - eb[i]->t) <= lim);
    free(ea);
    free(eb);
    return beyond;
}

/* mid: the run at MID_TOL, or NULL (not made, or other events than b): an event beyond the
 * limit whose deviation from b shrinks to at most SHRINK of itself at MID_TOL is the
 * integrator's error converging, counted in the evidence and noted, not a violation (every
 * restart of the host's CVODE at an event, time events that change nothing included, adds to
 * it; an FMU whose indicators are erratic does not converge). */
static void compare_runs(const fmuc_sim_result *a, const fmuc_sim_result *b,
                         const fmuc_sim_result *mid, fmuc_result *res)
{
    enum { MAXEV = 2000 };
    const fmuc_sim_event **ea = calloc(MAXEV, sizeof *ea), **eb = calloc(MAXEV, sizeof *eb);
    if (!ea || !eb) {
        fmuc_result_error(res, "out of memory");
        free(ea);
        free(eb);
        return;
    }
    size_t na = located_events(a, ea, MAXEV), nb = located_events(b, eb, MAXEV);
    double lim = time_limit(a);
    const fmuc_sim_event **em = mid ? calloc(MAXEV, sizeof *em) : NULL;
    size_t nm = em ? located_events(mid, em, MAXEV) : 0;
    if (em && nm != nb) { /* other events at MID_TOL: no convergence to tell */
        free(em);
        em = NULL;
    }
    size_t converging = 0;
    double worst_mid = 0.0;
    cJSON *ev = fmuc_result_evidence(res);
    cJSON_AddNumberToObject(ev, "run_tolerance", RUN_TOL);
    cJSON_AddNumberToObject(ev, "reference_tolerance", REF_TOL);
    cJSON_AddNumberToObject(ev, "time_limit_s", lim);
    cJSON_AddNumberToObject(ev, "events", (double)na);
    cJSON_AddNumberToObject(ev, "reference_events", (double)nb);
    int truncated = events_truncated(a, b);
    if (truncated) {
        size_t all_a = a->nevents + a->events_dropped, all_b = b->nevents + b->events_dropped;
        cJSON_AddNumberToObject(ev, "all_events", (double)all_a);
        cJSON_AddNumberToObject(ev, "all_reference_events", (double)all_b);
        fmuc_result_note(res, "the runs had %zu and %zu events (every kind), more than fmucheck "
                              "keeps: the first %zu state/time events are compared",
                         all_a, all_b, na < nb ? na : nb);
    } else if (na != nb)
        fmuc_result_violation(res, "the run at tolerance %g located %zu state/time events, the "
                                   "reference run at %g located %zu: events are not located "
                                   "consistently", RUN_TOL, na, REF_TOL, nb);
    size_t n = na < nb ? na : nb;
    cJSON *list = cJSON_AddArrayToObject(ev, "event_times");
    cJSON *plots = cJSON_AddArrayToObject(ev, "plots");
    cJSON *pl = cJSON_CreateObject();
    cJSON_AddStringToObject(pl, "title", "event time deviation from the reference run");
    cJSON_AddStringToObject(pl, "xlabel", "event number");
    cJSON_AddStringToObject(pl, "ylabel", "|t_ev - t_ref|");
    cJSON_AddStringToObject(pl, "yunit", "s");
    cJSON_AddTrueToObject(pl, "logy");
    cJSON *xs = cJSON_AddArrayToObject(pl, "x"), *series = cJSON_AddArrayToObject(pl, "series");
    cJSON *s1 = cJSON_CreateObject(), *s2 = cJSON_CreateObject();
    cJSON_AddStringToObject(s1, "name", "|t_ev - t_ref|");
    cJSON_AddStringToObject(s2, "name", "limit");
    cJSON *y1 = cJSON_AddArrayToObject(s1, "y"), *y2 = cJSON_AddArrayToObject(s2, "y");
    cJSON_AddItemToArray(series, s1);
    cJSON_AddItemToArray(series, s2);
    double worst = 0.0;
    size_t reported = 0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs(ea[i]->t - eb[i]->t);
        worst = d > worst ? d : worst;
        if (i < 200) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "kind", kind_name(ea[i]->kind));
            cJSON_AddNumberToObject(o, "t", ea[i]->t);
            cJSON_AddNumberToObject(o, "t_ref", eb[i]->t);
            cJSON_AddItemToArray(list, o);
            cJSON_AddItemToArray(xs, cJSON_CreateNumber((double)(i + 1)));
            cJSON_AddItemToArray(y1, cJSON_CreateNumber(d > 1e-17 ? d : 1e-17));
            cJSON_AddItemToArray(y2, cJSON_CreateNumber(lim));
        }
        if (ea[i]->kind != eb[i]->kind && reported++ < 20)
            fmuc_result_violation(res, "event %zu is a %s event at t = %.17g, but a %s event in the "
                                       "reference run (t = %.17g)", i + 1, kind_name(ea[i]->kind),
                                  ea[i]->t, kind_name(eb[i]->kind), eb[i]->t);
        else if (!(d <= lim) && em && em[i]->kind == eb[i]->kind &&
                 fabs(em[i]->t - eb[i]->t) <= SHRINK * d) {
            converging++;
            double dm = fabs(em[i]->t - eb[i]->t);
            worst_mid = dm > worst_mid ? dm : worst_mid;
        } else if (!(d <= lim) && reported++ < 20)
            fmuc_result_violation(res, "%s event %zu at t = %.17g, reference (tolerance %g) t = "
                                       "%.17g: |Δt| = %.3g s > %.3g s%s",
                                  kind_name(ea[i]->kind), i + 1, ea[i]->t, REF_TOL, eb[i]->t, d,
                                  lim,
                                  em ? ", and it does not shrink with the tolerance (not "
                                       "below half of it at the third run's tolerance)"
                                     : "");
    }
    if (mid) {
        cJSON_AddNumberToObject(ev, "mid_tolerance", MID_TOL);
        cJSON_AddNumberToObject(ev, "beyond_limit_converging", (double)converging);
    }
    if (converging)
        fmuc_result_note(res, "%zu event%s beyond the limit %.3g s at tolerance %g, but %s "
                              "deviation from the reference shrinks with the tolerance (at %g "
                              "at most %.3g s, under half): the host integrator's error, not "
                              "erratic events",
                         converging, converging == 1 ? "" : "s", lim, RUN_TOL,
                         converging == 1 ? "its" : "their", MID_TOL, worst_mid);
    else if (mid && !em)
        fmuc_result_note(res, "the run at tolerance %g located other events than the "
                              "reference run: no convergence to tell", MID_TOL);
    free(em);
    cJSON_AddNumberToObject(ev, "worst_time_deviation_s", worst);
    if (n > 0) {
        cJSON_AddItemToArray(plots, pl);
        fmuc_result_note(res, "%zu state/time events; worst |t_ev - t_ref| = %.3g s (limit %.3g s)",
                         n, worst, lim);
    } else {
        cJSON_Delete(pl);
    }
    free(ea);
    free(eb);
}

/* Without event indicators there are no state events, and the time events are the FMU's
 * nextEventTime, which does not depend on the integrator tolerance: when the nominal run (shared
 * with me-nominal-run) completed without one, the tolerance comparison has nothing to compare.
 * 1: nothing further to do (also when the nominal run failed: res says why). */
static int no_time_events(const fmuc_sim_result *r, fmuc_result *res)
{
    const fmuc_sim_event *tmp[1];
    int none = !r || (r->completed && !r->stop_reason && located_events(r, tmp, 1) == 0);
    if (r && none)
        fmuc_result_note(res, "no event indicators and no time events in the nominal run "
                              "[%.17g, %.17g]: event timing not compared", r->start, r->stop);
    return none;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    meu_model m;
    if (meu_applies(s, res, &m) < 0)
        return;
    cJSON *ev = fmuc_result_evidence(res);
    cJSON_AddNumberToObject(ev, "numberOfEventIndicators", (double)m.ni);
    fmuc_worker_outcome o;
    const cJSON *reply = meu_run(s, res, "me-events", worker, &m, &o);
    if (reply) {
        const cJSON *z = cJSON_GetObjectItemCaseSensitive(reply, "z_start");
        if (z)
            cJSON_AddItemToObject(ev, "z_start", cJSON_Duplicate(z, 1));
    }
    fmuc_worker_outcome_free(&o);
    if (res->verdict >= FMUC_VERDICT_FAIL || res->verdict == FMUC_VERDICT_NA) {
        meu_model_free(&m);
        return; /* the interface is already broken: do not pile simulation noise on top */
    }
    /* the nominal run (shared with me-nominal-run) covers the whole default experiment; the
     * tolerance runs below only a bounded horizon, so an event iteration that never settles
     * later in the experiment is judged from it */
    fmuc_sim_result own;
    const fmuc_sim_result *nom =
        fmuc_shared_nominal_run(s, FMUC_IFACE_ME, "me-events", res, &own);
    int done = 0;
    if (nom && nom->event_iteration_overflow) {
        fmuc_result_violation(res, "in the nominal run: %s",
                              nom->stop_reason ? nom->stop_reason
                                               : "an event iteration did not settle");
        done = 1;
    } else if (m.ni == 0 && no_time_events(nom, res)) {
        done = 1;
    }
    fmuc_sim_result_free(&own);
    if (done) {
        meu_model_free(&m);
        return;
    }
    fmuc_sim_result a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    if (sim_once(s, RUN_TOL, &a, res) == 0) {
        const fmuc_sim_event *tmp[1];
        if (located_events(&a, tmp, 1) == 0) {
            fmuc_result_note(res, "no state or time events in the default experiment "
                                  "[%.17g, %.17g]", a.start, a.stop);
        } else if (sim_once(s, REF_TOL, &b, res) == 0) {
            fmuc_sim_result c;
            memset(&c, 0, sizeof c);
            int have_mid = beyond_limit(&a, &b) && sim_once(s, MID_TOL, &c, res) == 0;
            compare_runs(&a, &b, have_mid ? &c : NULL, res);
            fmuc_sim_result_free(&c);
        }
    }
    fmuc_sim_result_free(&a);
    fmuc_sim_result_free(&b);
    meu_model_free(&m);
}

const fmuc_check fmuc_check_me_events = {
    .id = "me-events",
    .title = "Event indicators as declared; events located; event iterations settle",
    .spec = "FMI 2.0.4 §3.1, §3.2.2; FMI 3.0.2 §3.1.1, §2.3.5, §3.2.1, §2.4.8; FMI 1.0 ME "
            "(fmiGetEventIndicators and numberOfEventIndicators, fmiEventUpdate and fmiEventInfo)",
    .level = FMUC_LEVEL_MUST,
    .why = "A Model Exchange importer sizes arrays by the declared number of event indicators and "
           "stops at zero crossings; wrong counts, non-finite indicators or endless event "
           "iterations break events.",
    .fix = "Serve exactly the declared number of finite event indicators and let the event "
           "iteration (NewDiscreteStates, UpdateDiscreteStates, fmiEventUpdate) converge in a few "
           "calls.",
    .applies = FMUC_APPLIES_ME,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .run = run,
};
