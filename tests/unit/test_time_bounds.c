/* Time bounds of the battery (issue 16, cause 6; checks/shared_runs.c): the timeout scaled by
 * the nominal runs, the horizon of the runs beyond them, a hang remembered and not repeated, and
 * the whole battery on a fixture whose fmi2DoStep never returns. Speed targets are shown by
 * bench/bench_time_bounds, not asserted here (only generous bounds). */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fmuc_test_util.h"

Test(time_bounds, timeout_scales_with_the_nominal_run)
{
    /* 30 x the nominal worker, at least 1 s, at most --timeout */
    cr_expect_float_eq(fmuc_shared_scaled_timeout(60.0, 0.01), FMUC_TIMEOUT_MIN_S, 1e-12);
    cr_expect_float_eq(fmuc_shared_scaled_timeout(60.0, 0.5), 15.0, 1e-12);
    cr_expect_float_eq(fmuc_shared_scaled_timeout(60.0, 30.0), 60.0, 1e-12);
    cr_expect_float_eq(fmuc_shared_scaled_timeout(0.5, 0.01), 0.5, 1e-12,
                       "an explicit --timeout below the minimum wins");
    cr_expect_float_eq(fmuc_shared_scaled_timeout(60.0, NAN), 60.0, 1e-12,
                       "no measurement: the user's timeout");
    /* the horizon, in steps of the nominal span: all of a short experiment (1000 steps), else
     * a tenth, at least that, at most 2000; a slow FMU (above 2 s CPU): at most 20 */
    const double fast = 0.01, slow = 3.0;
    cr_expect_float_eq(fmuc_shared_horizon_steps(0.0, fast, 0.0), 0.0, 1e-12);
    cr_expect_float_eq(fmuc_shared_horizon_steps(1000.0, fast, 0.0), 1000.0, 1e-12);
    cr_expect_float_eq(fmuc_shared_horizon_steps(500.0, slow, 0.0), 20.0, 1e-12);
    cr_expect_float_eq(fmuc_shared_horizon_steps(15.0, slow, 0.0), 15.0, 1e-12);
    cr_expect_float_eq(fmuc_shared_horizon_steps(3000.0, fast, 0.0), 1000.0, 1e-12);
    cr_expect_float_eq(fmuc_shared_horizon_steps(15000.0, fast, 0.0), 1500.0, 1e-12);
    cr_expect_float_eq(fmuc_shared_horizon_steps(3000.0, slow, 0.0), 20.0, 1e-12);
    cr_expect_float_eq(fmuc_shared_horizon_steps(1e6, fast, 0.0), FMUC_HORIZON_MAX_STEPS, 1e-12);
    cr_expect_float_eq(fmuc_shared_horizon_steps(1e6, slow, 0.0), FMUC_HORIZON_STEPS_SLOW, 1e-12);
    /* between: the run after its start beyond FMUC_HORIZON_MID_S of CPU time halves the span
     * per doubling, at least 20 steps; the start itself (a costly initialization) does not
     * shorten it */
    const double m = FMUC_HORIZON_MID_S;
    cr_expect_float_eq(fmuc_shared_horizon_share(m, 0.0), 1.0, 1e-12);
    cr_expect_float_eq(fmuc_shared_horizon_share(1.5 * m, 0.0), 0.5, 1e-12);
    cr_expect_float_eq(fmuc_shared_horizon_share(2.0 * m, 0.0), 0.5, 1e-12);
    cr_expect_float_eq(fmuc_shared_horizon_share(2.5 * m, 0.0), 0.25, 1e-12);
    cr_expect_float_eq(fmuc_shared_horizon_share(4.0 * m, 0.0), 0.25, 1e-12);
    cr_expect_float_eq(fmuc_shared_horizon_share(20.0 * m, 0.0), 1.0 / 32.0, 1e-12);
    cr_expect_float_eq(fmuc_shared_horizon_share(1e9, 0.0), FMUC_HORIZON_MIN_SHARE, 1e-12);
    cr_expect_float_eq(fmuc_shared_horizon_share(1.0 + 0.9 * m, 1.0), 1.0, 1e-12,
                       "the start is not the run");
    cr_expect_float_eq(fmuc_shared_horizon_share(1.0, -1.0), 1.0, 1e-12,
                       "an unknown start (no second row): all of it start, as the estimate");
    cr_expect_float_eq(fmuc_shared_horizon_share(0.5, 0.9), 1.0, 1e-12, "a start above the whole");
    cr_expect_float_eq(fmuc_shared_horizon_steps(200.0, 0.02 + 2.5 * m, 0.02), 50.0, 1e-12);
    cr_expect_float_eq(fmuc_shared_horizon_steps(200.0, 20.0 * m, 0.0), 20.0, 1e-12,
                       "at least 20 steps");
    cr_expect_float_eq(fmuc_shared_horizon_steps(10.0, 8.0 * m, 0.0), 10.0, 1e-12,
                       "never more than the span");
    cr_expect_float_eq(fmuc_shared_horizon_steps(8000.0, 1.5 * m, 0.0), 1000.0, 1e-12,
                       "the shorter of the two bounds");
    cr_expect_float_eq(fmuc_shared_horizon_steps(8000.0, 12.0 * m, 0.0), 500.0, 1e-12);
    cr_expect(20.0 * m < FMUC_HORIZON_SLOW_S, "the cases above are below the slow threshold");
}

static fmuc_worker_outcome hung_outcome(const char *call, const char *phase)
{
    fmuc_worker_outcome o;
    memset(&o, 0, sizeof o);
    o.end = FMUC_WORKER_TIMEOUT;
    o.call_in_progress = 1;
    snprintf(o.last_call, sizeof o.last_call, "%s", call);
    snprintf(o.phase, sizeof o.phase, "%s", phase);
    return o;
}

Test(time_bounds, a_hang_bounds_later_runs_or_makes_them_not_applicable)
{
    fmuc_fmu fmu;
    memset(&fmu, 0, sizeof fmu); /* no DefaultExperiment: [0, 1], steps of 1/500 */
    fmuc_options opts;
    fmuc_options_init(&opts);
    fmuc_subject s = {.fmu = &fmu, .opts = &opts, .shared = fmuc_shared_runs_new()};
    cr_assert(s.shared);
    fmuc_result res;
    fmuc_result_init(&res, "x", NULL, NULL, FMUC_LEVEL_MUST);
    char why[400];
    double t_end;
    cr_assert_eq(fmuc_shared_horizon(&s, FMUC_IFACE_CS, 0.0, 0.1, &t_end, &res, why,
                                     sizeof why), 0);
    cr_expect(isinf(t_end), "nothing known: unbounded");

    /* a timeout without a call in progress is no hang of a call */
    fmuc_worker_outcome o = hung_outcome("fmi2DoStep(t=0.2, h=0.1, noSet=0)", "step 3");
    o.call_in_progress = 0;
    fmuc_shared_note_outcome(&s, FMUC_IFACE_CS, "check-a", &o);
    cr_expect_null(fmuc_shared_hang_find(&s, FMUC_IFACE_CS));

    o = hung_outcome("fmi2DoStep(t=0.5, h=0.1, noSet=0)", "step 6 (t=0.5)");
    fmuc_shared_note_outcome(&s, FMUC_IFACE_CS, "check-a", &o);
    const fmuc_shared_hang *h = fmuc_shared_hang_find(&s, FMUC_IFACE_CS);
    cr_assert(h);
    cr_expect_str_eq(h->fn, "fmi2DoStep");
    cr_expect_float_eq(h->t, 0.5, 1e-12);
    cr_expect_str_eq(h->check, "check-a");
    cr_expect_null(fmuc_shared_hang_find(&s, FMUC_IFACE_ME), "per interface");
    /* a later hang does not replace an earlier one; an earlier one does */
    o = hung_outcome("fmi2DoStep(t=0.7, h=0.1, noSet=0)", "");
    fmuc_shared_note_outcome(&s, FMUC_IFACE_CS, "check-b", &o);
    cr_expect_str_eq(fmuc_shared_hang_find(&s, FMUC_IFACE_CS)->check, "check-a");

    /* runs end before the call that hung */
    cr_assert_eq(fmuc_shared_horizon(&s, FMUC_IFACE_CS, 0.0, 0.1, &t_end, &res, why,
                                     sizeof why), 0);
    cr_expect_float_eq(t_end, 0.5, 1e-12);
    cr_expect(cJSON_GetObjectItem(cJSON_GetObjectItem(res.evidence, "horizon"), "CoSimulation"),
              "the bound is in the evidence");
    fmuc_sim_config cfg;
    fmuc_sim_config_init(&cfg, FMUC_IFACE_CS);
    cr_assert_eq(fmuc_shared_run_config(&s, &cfg, &res, why, sizeof why), 0);
    cr_expect_eq(cfg.max_steps, 250, "0.5 s of 1/500 s steps");
    /* not one step fits before it: not applicable, naming the call and the check */
    cr_expect_eq(fmuc_shared_horizon(&s, FMUC_IFACE_CS, 0.45, 0.1, &t_end, &res, why,
                                     sizeof why), 1);
    cr_expect(strstr(why, "fmi2DoStep") && strstr(why, "check-a"), "%s", why);
    /* a hang at an unknown time: every later run of that interface */
    o = hung_outcome("fmi2GetDerivatives(nx=2)", "integrate");
    fmuc_shared_note_outcome(&s, FMUC_IFACE_ME, "check-c", &o);
    cr_expect_eq(fmuc_shared_horizon(&s, FMUC_IFACE_ME, 0.0, 0.1, &t_end, &res, why,
                                     sizeof why), 1);
    fmuc_result_clear(&res);
    fmuc_shared_runs_free(s.shared);
}

/* Options bound to the shared runs: the checks see a copy whose timeout the calibration scales
 * (the user's options are not changed). */
Test(time_bounds, calibration_scales_the_timeout_of_later_workers, .timeout = 120)
{
    fmuc_fmu fmu;
    fmuc_diag d = {{0}, FMUC_OK};
    fmuc_options opts;
    fmuc_options_init(&opts);
    cr_assert_eq(fmuc_fmu_open(&fmu, FMUC_FMU_DIR "/good/SpringMassDamper.fmu", NULL, NULL, &d), FMUC_OK,
                 "%s", d.msg);
    fmuc_shared_runs *sr = fmuc_shared_runs_new();
    cr_assert(sr);
    fmuc_subject s = {.fmu = &fmu, .opts = NULL, .shared = sr};
    s.opts = fmuc_shared_runs_bind(sr, &opts);
    cr_assert(s.opts != &opts);
    fmuc_shared_calibrate(&s);
    cr_expect_float_eq(opts.timeout_s, 60.0, 1e-12, "the user's options stay");
    cr_expect(s.opts->timeout_s >= FMUC_TIMEOUT_MIN_S && s.opts->timeout_s < 60.0,
              "scaled: %g s", s.opts->timeout_s);
    /* a worker that makes many instances (probe sets) gets the limit for that many, up to
     * --timeout */
    cr_expect_float_eq(fmuc_shared_worker_timeout(&s, 1), s.opts->timeout_s, 1e-12);
    cr_expect(fmuc_shared_worker_timeout(&s, 1000000) == FMUC_NOMINAL_TIMEOUT_S,
              "capped by the nominal runs' limit (no explicit --timeout)");
    cr_expect(fmuc_shared_worker_timeout(&s, 30) >= s.opts->timeout_s);
    /* the first check that asks gets the calibrated run as its own, with the figures */
    fmuc_result res;
    fmuc_sim_result own;
    fmuc_result_init(&res, "cs-nominal-run", NULL, NULL, FMUC_LEVEL_MUST);
    const fmuc_sim_result *r = fmuc_shared_nominal_run(&s, FMUC_IFACE_CS, "cs-nominal-run",
                                                       &res, &own);
    cr_assert(r);
    cr_expect_eq(res.verdict, FMUC_VERDICT_PASS);
    cr_expect(cJSON_GetObjectItem(res.evidence, "worker"), "the worker figures come along");
    cJSON *cal = cJSON_GetObjectItem(cJSON_GetObjectItem(res.evidence, "calibration"),
                                     "CoSimulation");
    cr_expect(cJSON_GetObjectItem(cal, "nominal_run_s"));
    cr_expect(cJSON_GetObjectItem(cal, "scaled_timeout_s"));
    fmuc_result_clear(&res);
    fmuc_sim_result_free(&own);
    fmuc_shared_runs_free(sr);
    fmuc_fmu_close(&fmu);
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The whole battery on the fixture whose fmi2DoStep never returns: one worker times out (the
 * nominal CS run); the checks that would step CS again are not applicable naming it; the run
 * ends within twice the timeout (generous bound: plus 5 s on a loaded machine). */
Test(time_bounds, a_hanging_dostep_costs_one_timeout, .timeout = 300)
{
    const char *timeout = "4";
    double mult = strtod(fmuc_test_timeout_multiplier(), NULL);
    char *out = fmuc_test_mkdtemp("hang");
    cr_assert(out);
    char *argv[] = {FMUC_EXE, "-q", "--no-html", "--timeout", (char *)timeout,
                    "--timeout-multiplier", (char *)fmuc_test_timeout_multiplier(), "-o", out,
                    FMUC_FMU_DIR "/hostile/hang-in-dostep.fmu", NULL};
    fmuc_test_run run;
    double t0 = mono_s();
    cr_assert(fmuc_test_exec(&run, argv, NULL) == 0);
    double dt = mono_s() - t0;
    char rpath[4200];
    snprintf(rpath, sizeof rpath, "%s/report.json", out);
    cJSON *rep = fmuc_test_read_json(rpath);
    cr_assert(rep, "no report (exit %d): %s", run.status, run.err);
    int timeouts = 0, na_naming = 0;
    cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(rep, "checks"))
    {
        /* worker timeouts, not counting the checks that repeat a shared run's messages */
        cJSON *m;
        cJSON *ev = cJSON_GetObjectItem(c, "evidence");
        cJSON_ArrayForEach(m, cJSON_GetObjectItem(c, "messages"))
        {
            const char *t = cJSON_GetStringValue(m);
            if (t && strstr(t, "worker timed out") && !cJSON_GetObjectItem(ev, "shared_runs"))
                timeouts++;
        }
        const char *v = cJSON_GetStringValue(cJSON_GetObjectItem(c, "verdict"));
        const char *m0 = cJSON_GetStringValue(cJSON_GetArrayItem(cJSON_GetObjectItem(c, "messages"), 0));
        if (v && strcmp(v, "not-applicable") == 0 && m0 && strstr(m0, "fmi2DoStep") &&
            strstr(m0, "api-status-codes"))
            na_naming++;
    }
    cr_expect_eq(timeouts, 1, "one worker timed out, not one per check");
    cr_expect_geq(na_naming, 4, "the checks that would repeat the hang name it");
    double lim = 2.0 * strtod(timeout, NULL) * mult + 5.0;
    cr_expect(dt < lim, "the battery took %.1f s (bound %.1f s)", dt, lim);
    cJSON_Delete(rep);
    fmuc_test_run_free(&run);
    fmuc_test_rm_rf(out);
    free(out);
}

/* The battery on a fixture that hangs around fmi2Reset (--profile standard, --timeout 4): the
 * worker timeouts, the workers that stopped before a call that hung before (their message has
 * `stopped_text`), the checks in error, the verdicts of the two checks that probe fmi2Reset, and
 * the wall time. */
typedef struct reset_tally {
    int timeouts, stopped, errors;
    char v_mand[32], v_det[32];
    double dt;
} reset_tally;

static void reset_hang_battery(const char *fmu, const char *stopped_text, reset_tally *t)
{
    memset(t, 0, sizeof *t);
    char *out = fmuc_test_mkdtemp("hangreset");
    cr_assert(out);
    char *argv[] = {FMUC_EXE, "-q", "--no-html", "--profile", "standard", "--timeout", "4",
                    "--timeout-multiplier", (char *)fmuc_test_timeout_multiplier(), "-o", out,
                    (char *)fmu, NULL};
    fmuc_test_run run;
    double t0 = mono_s();
    cr_assert(fmuc_test_exec(&run, argv, NULL) == 0);
    t->dt = mono_s() - t0;
    char rpath[4200];
    snprintf(rpath, sizeof rpath, "%s/report.json", out);
    cJSON *rep = fmuc_test_read_json(rpath);
    cr_assert(rep, "no report (exit %d): %s", run.status, run.err);
    cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(rep, "checks"))
    {
        const char *id = cJSON_GetStringValue(cJSON_GetObjectItem(c, "id"));
        const char *v = cJSON_GetStringValue(cJSON_GetObjectItem(c, "verdict"));
        cJSON *m;
        cJSON_ArrayForEach(m, cJSON_GetObjectItem(c, "messages"))
        {
            const char *x = cJSON_GetStringValue(m);
            if (x && strstr(x, "worker timed out"))
                t->timeouts++;
            if (x && strstr(x, "worker stopped") && strstr(x, stopped_text))
                t->stopped++;
        }
        if (v && strcmp(v, "error") == 0) {
            t->errors++;
            cr_expect_fail("%s ends in error", id ? id : "?");
        }
        if (id && v && strcmp(id, "api-mandatory-functions") == 0)
            snprintf(t->v_mand, sizeof t->v_mand, "%s", v);
        if (id && v && strcmp(id, "eq-determinism") == 0)
            snprintf(t->v_det, sizeof t->v_det, "%s", v);
    }
    cJSON_Delete(rep);
    fmuc_test_run_free(&run);
    fmuc_test_rm_rf(out);
    free(out);
}

/* The whole battery on the fixture whose fmi2Reset never returns (hostile/hang-in-reset): the
 * two checks that probe fmi2Reset (api-mandatory-functions after fmi2Terminate, eq-determinism
 * within a run) fail (§2.1.6; a hang in answer to the probed call is the check's result), no
 * check ends in error, and the hang costs one timeout per interface: the first worker that hangs
 * in fmi2Reset times out, every later one stops before calling it again (fmuc_worker_hangs). */
Test(time_bounds, a_hanging_reset_fails_its_probes_with_one_timeout, .timeout = 300)
{
    reset_tally t;
    reset_hang_battery(FMUC_FMU_DIR "/hostile/hang-in-reset.fmu", "fmi2Reset", &t);
    cr_expect_str_eq(t.v_mand, "fail", "api-mandatory-functions");
    cr_expect_str_eq(t.v_det, "fail", "eq-determinism");
    cr_expect_eq(t.errors, 0);
    /* SpringMassDamper has both interfaces: fmi2Reset hangs once on each */
    cr_expect_eq(t.timeouts, 2, "one worker timed out per interface, not one per check (%d)",
                 t.timeouts);
    cr_expect_geq(t.stopped, 2, "the later workers stop before calling fmi2Reset again");
    double lim = 2.0 * 4.0 * strtod(fmuc_test_timeout_multiplier(), NULL) + 5.0;
    cr_expect(t.dt < lim, "the battery took %.1f s (bound %.1f s)", t.dt, lim);
}

/* The fixture whose first fmi2DoStep after fmi2Reset never returns (hostile/hang-after-reset, CS
 * only): the run after the reset starts from the same state every time, so the hang is
 * remembered with the reset before it (fmuc_worker_hangs' after_reset): api-mandatory-functions
 * times out once, eq-determinism's worker stops before that fmi2DoStep after its own reset (the
 * same hang, not waited for again), and both fail (§2.1.6). */
Test(time_bounds, a_hang_after_reset_costs_one_timeout, .timeout = 300)
{
    reset_tally t;
    reset_hang_battery(FMUC_FMU_DIR "/hostile/hang-after-reset.fmu", "fmi2DoStep after a reset",
                       &t);
    cr_expect_str_eq(t.v_mand, "fail", "api-mandatory-functions");
    cr_expect_str_eq(t.v_det, "fail", "eq-determinism");
    cr_expect_eq(t.errors, 0);
    cr_expect_eq(t.timeouts, 1, "one worker timed out, not one per check (%d)", t.timeouts);
    cr_expect_geq(t.stopped, 1, "eq-determinism stops before the fmi2DoStep after its reset");
}

/* The time budget (checks/check.h "the time budget"): the automatic limit applies to FMUs whose
 * time is their own (a nominal run above FMUC_HORIZON_SLOW_S of CPU time, or a start above
 * FMUC_BUDGET_START_S), 3 x their nominal runs + 2 s;
 * a check is admitted while its estimate fits what is left; a check without an estimate (no
 * instance of its own, or one that costs the FMU nothing to speak of) always runs. */
Test(time_bounds, the_budget_and_its_admission)
{
    cr_expect_float_eq(fmuc_shared_budget_auto(0.5, 0.4, 0.01), 0.0, 1e-12, "a fast FMU: no budget");
    cr_expect_float_eq(fmuc_shared_budget_auto(2.6, 2.5, 0.7), 9.8, 1e-9, "FS_OPSC: 3 x 2.6 s + 2 s");
    cr_expect_float_eq(fmuc_shared_budget_auto(3.0, 2.9, 0.001), 11.0, 1e-9, "a slow run, cheap start");
    cr_expect_float_eq(fmuc_shared_budget_auto(0.4, 0.35, 0.3), 3.2, 1e-9, "a fast run, costly start");
    cr_expect_float_eq(fmuc_shared_budget_auto(0.0, 3.0, 1.0), 0.0, 1e-12, "no wall time measured: none");
    cr_expect(fmuc_shared_budget_admits(0.0, 100.0, 50.0), "no budget admits everything");
    cr_expect(fmuc_shared_budget_admits(10.0, 5.0, 4.0));
    cr_expect(fmuc_shared_budget_admits(10.0, 6.0 - FMUC_BUDGET_RESERVE_S, 4.0),
              "exactly the budget less what the process spends around the battery");
    cr_expect_not(fmuc_shared_budget_admits(10.0, 6.0, 4.0), "the reserve is kept");
    cr_expect_not(fmuc_shared_budget_admits(10.0, 7.0, 4.0));
    cr_expect(fmuc_shared_budget_admits(10.0, 12.0, 0.0), "a check without an estimate always runs");
    /* a session: the start plus the horizon's share of the rest */
    cr_expect_float_eq(fmuc_shared_session_cost_of(3.0, 1.0, 100.0), 1.0 + 0.2 * 2.0, 1e-9,
                       "slow: the start and 20 of 100 steps");
    cr_expect_float_eq(fmuc_shared_session_cost_of(0.05, 0.01, 100.0), 0.05, 1e-9,
                       "fast: the whole run");
    cr_expect_float_eq(fmuc_shared_session_cost_of(3.6, 0.0, 1e6), 3.6 * 20.0 / 1e6, 1e-12,
                       "a start measured as 0 (CPU clock ticks: CraneController) is no unknown");
    cr_expect_float_eq(fmuc_shared_session_cost_of(3.6, -1.0, 1e6), 3.6, 1e-12,
                       "a run without a second row: all of it is start");
    cr_expect_float_eq(fmuc_shared_session_cost_of(0.3, 0.5, 100.0), 0.3, 1e-12,
                       "a start above the whole: the whole");

    /* the estimate: nothing before the nominal runs, nothing for sessions 0 */
    fmuc_fmu fmu;
    memset(&fmu, 0, sizeof fmu);
    fmuc_options opts;
    fmuc_options_init(&opts);
    cr_expect_float_eq(opts.time_budget_s, 0.0, 1e-12, "the library's default: no budget");
    opts.time_budget_s = FMUC_TIME_BUDGET_AUTO;
    fmuc_subject s = {.fmu = &fmu, .opts = &opts, .shared = fmuc_shared_runs_new()};
    cr_assert(s.shared);
    cr_expect_float_eq(fmuc_shared_budget(&s), 0.0, 1e-12, "auto before the nominal runs: none");
    cr_expect_float_eq(fmuc_shared_check_cost(&s, FMUC_APPLIES_MECS, 5), 0.0, 1e-12);
    opts.time_budget_s = 7.5;
    cr_expect_float_eq(fmuc_shared_budget(&s), 7.5, 1e-12, "an explicit budget");
    fmuc_shared_runs_free(s.shared);
}

static const char *budget_message(cJSON *check)
{
    return cJSON_GetStringValue(cJSON_GetArrayItem(cJSON_GetObjectItem(check, "messages"), 0));
}

/* The battery with the default budget on a fixture whose every instance start costs 300 ms of
 * CPU time (hostile/slow-start: ~40 starts, 12 s of the FMU's time, nominal runs of 0.3 s each):
 * the budget is 3 x the nominal runs + 2 s; the checks left out are dynamic checks with an
 * estimate, each not applicable with a message naming the budget and marked "notRun"; the
 * summary says how many; nothing fails; the archive and model-description checks all run. With
 * --time-budget off the same check runs. (hostile/slow-start in the fixture matrix: an explicit
 * --time-budget 3.) budget_run makes and judges that run with --check-jobs jobs ("1": the checks
 * one after another in the runner's own process, "2": two lanes) and puts the first check left
 * out into first (firstsz bytes). */
static void budget_run(const char *jobs, char *out, char *first, size_t firstsz)
{
    char *argv[] = {FMUC_EXE, "-q", "--no-html", "--check-jobs", (char *)jobs,
                    "--timeout-multiplier", (char *)fmuc_test_timeout_multiplier(), "-o", out,
                    FMUC_FMU_DIR "/hostile/slow-start.fmu", NULL};
    fmuc_test_run run;
    cr_assert(fmuc_test_exec(&run, argv, NULL) == 0);
    cr_expect_eq(run.status, 0, "exit %d: %s", run.status, run.err);
    cr_expect(strstr(run.out, "not run: time budget "), "the last line says so: %s", run.out);
    char rpath[4200];
    snprintf(rpath, sizeof rpath, "%s/report.json", out);
    cJSON *rep = fmuc_test_read_json(rpath);
    cr_assert(rep, "no report (exit %d): %s", run.status, run.err);
    int not_run = 0;
    cJSON *c;
    size_t at = 0; /* under a budget the checks that can only warn run last (runner.c): the
                    * report still lists every check in the registry's order */
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(rep, "checks"))
    {
        const char *id = cJSON_GetStringValue(cJSON_GetObjectItem(c, "id"));
        const char *v = cJSON_GetStringValue(cJSON_GetObjectItem(c, "verdict"));
        cr_assert(id && v);
        cr_expect(fmuc_checks[at] && strcmp(fmuc_checks[at]->id, id) == 0,
                  "report position %zu: %s, registry: %s", at, id,
                  fmuc_checks[at] ? fmuc_checks[at]->id : "(end)");
        at++;
        cr_expect(strcmp(v, "fail") && strcmp(v, "error"), "%s: %s", id, v);
        if (!cJSON_GetObjectItem(c, "notRun"))
            continue;
        not_run++;
        if (!first[0])
            snprintf(first, firstsz, "%s", id);
        const fmuc_check *chk = fmuc_check_find(id);
        cr_assert(chk);
        cr_expect(chk->sessions > 0, "%s has no estimate, yet was left out", id);
        cr_expect(strncmp(id, "zip-", 4) && strncmp(id, "md-", 3) && strncmp(id, "load-", 5), "%s",
                  id);
        cr_expect_str_eq(v, "not-applicable", "%s", id);
        const char *m0 = budget_message(c);
        cr_expect(m0 && strstr(m0, "not run: the time budget of ") &&
                      strstr(m0, "(3 x the nominal runs + 2 s)") &&
                      strstr(m0, "--time-budget=off"),
                  "%s: %s", id, m0 ? m0 : "(no message)");
    }
    cr_expect_geq(not_run, 1,
                  "--check-jobs %s: 12 s of instance starts do not fit 3 x 0.6 s + 2 s", jobs);
    /* the budget: 3 x the nominal runs' figures of the calibration evidence + 2 s */
    double nominal = 0.0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(rep, "checks"))
    {
        cJSON *cal = cJSON_GetObjectItem(cJSON_GetObjectItem(c, "evidence"), "calibration");
        cJSON *i;
        cJSON_ArrayForEach(i, cal)
            nominal += cJSON_GetNumberValue(cJSON_GetObjectItem(i, "nominal_run_s"));
    }
    cr_expect_gt(nominal, 0.5, "two nominal runs of 0.3 s CPU each at least");
    cJSON *tb = cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "summary"), "timeBudget");
    cr_expect_float_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(tb, "seconds")),
                       3.0 * nominal + 2.0, 1e-6);
    cr_expect_eq((int)cJSON_GetNumberValue(cJSON_GetObjectItem(tb, "notRun")), not_run);
    cJSON_Delete(rep);
    fmuc_test_run_free(&run);
    fmuc_test_rm_rf(out);
}

Test(time_bounds, a_budget_leaves_out_what_does_not_fit, .timeout = 300)
{
    char *out = fmuc_test_mkdtemp("budget");
    cr_assert(out);
    char first[64] = "";
    budget_run("2", out, first, sizeof first);
    cr_assert(first[0], "a check was left out");
    fmuc_test_run run;
    char rpath[4200];
    snprintf(rpath, sizeof rpath, "%s/report.json", out);
    cJSON *rep, *c;

    /* the first check left out, without a budget: it runs (and passes) */
    char *argv2[] = {FMUC_EXE, "-q", "--no-html", "--time-budget", "off", "--only", first,
                     "--timeout-multiplier", (char *)fmuc_test_timeout_multiplier(), "-o", out,
                     FMUC_FMU_DIR "/hostile/slow-start.fmu", NULL};
    cr_assert(fmuc_test_exec(&run, argv2, NULL) == 0);
    rep = fmuc_test_read_json(rpath);
    cr_assert(rep, "no report (exit %d): %s", run.status, run.err);
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(rep, "checks"))
    {
        const char *id = cJSON_GetStringValue(cJSON_GetObjectItem(c, "id"));
        if (strcmp(id, first))
            continue;
        cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(c, "verdict")), "pass", "%s: %s",
                         id, budget_message(c) ? budget_message(c) : "");
        cr_expect_null(cJSON_GetObjectItem(c, "notRun"));
    }
    cr_expect_null(cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "summary"), "timeBudget"));
    cJSON_Delete(rep);
    fmuc_test_run_free(&run);
    fmuc_test_rm_rf(out);
    free(out);
}

Test(time_bounds, a_budget_holds_with_one_check_at_a_time, .timeout = 300)
{
    char *out = fmuc_test_mkdtemp("budget1");
    cr_assert(out);
    char first[64] = "";
    budget_run("1", out, first, sizeof first);
    cr_expect(first[0], "a check was left out");
    free(out);
}

/* --time-budget and the config's "timeBudget" take auto, off or seconds; anything else is a usage
 * error naming the option or the key. */
Test(time_bounds, the_budget_option_and_config_key)
{
    char *argv[] = {FMUC_EXE, "--time-budget", "soon", FMUC_FMU_DIR "/hostile/slow-start.fmu",
                    NULL};
    fmuc_test_run run;
    cr_assert(fmuc_test_exec(&run, argv, NULL) == 0);
    cr_expect_eq(run.status, 64, "exit %d", run.status);
    cr_expect(strstr(run.err, "--time-budget") && strstr(run.err, "soon"), "%s", run.err);
    fmuc_test_run_free(&run);

    char *dir = fmuc_test_mkdtemp("budgetcfg");
    cr_assert(dir);
    char cfg[4200];
    snprintf(cfg, sizeof cfg, "%s/gate.json", dir);
    FILE *f = fopen(cfg, "w");
    cr_assert(f);
    fputs("{\"timeBudget\": -2}\n", f);
    fclose(f);
    char *argv2[] = {FMUC_EXE, "--config", cfg, FMUC_FMU_DIR "/hostile/slow-start.fmu", NULL};
    cr_assert(fmuc_test_exec(&run, argv2, NULL) == 0);
    cr_expect_eq(run.status, 64, "exit %d", run.status);
    cr_expect(strstr(run.err, "timeBudget"), "%s", run.err);
    fmuc_test_run_free(&run);

    /* "off" in the config, and the option winning over it: a budget of 1 s cannot hold a check
     * of two 0.3 s starts after two nominal runs of 0.3 s */
    f = fopen(cfg, "w");
    cr_assert(f);
    fputs("{\"timeBudget\": \"off\"}\n", f);
    fclose(f);
    char rpath[4200];
    snprintf(rpath, sizeof rpath, "%s/out/report.json", dir);
    for (int k = 0; k < 2; k++) {
        char out[4200];
        snprintf(out, sizeof out, "%s/out", dir);
        char *argv3[] = {FMUC_EXE, "-q", "--no-html", "--config", cfg, "--only",
                         "eq-serialize-corrupt", "-o", out, k ? "--time-budget" : "--check-jobs",
                         k ? "1" : "1", FMUC_FMU_DIR "/hostile/slow-start.fmu", NULL};
        cr_assert(fmuc_test_exec(&run, argv3, NULL) == 0);
        cJSON *rep = fmuc_test_read_json(rpath);
        cr_assert(rep, "no report (exit %d): %s", run.status, run.err);
        cJSON *tb = cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "summary"), "timeBudget");
        const char *opt = cJSON_GetStringValue(
            cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "options"), "timeBudget"));
        if (k == 0) {
            cr_expect_null(tb, "the config's \"off\": no budget");
            cr_expect(opt && strcmp(opt, "off") == 0, "options.timeBudget %s", opt ? opt : "-");
        } else {
            cr_expect_float_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(tb, "seconds")), 1.0,
                               1e-9, "--time-budget 1 wins over the config");
            cr_expect_eq((int)cJSON_GetNumberValue(cJSON_GetObjectItem(tb, "notRun")), 1);
        }
        cJSON_Delete(rep);
        fmuc_test_run_free(&run);
    }
    fmuc_test_rm_rf(dir);
    free(dir);
}

static int file_has(const char *path, const char *what)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    static char buf[1 << 22];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strstr(buf, what) != NULL;
}

/* A check the budget left out, as each report shows it: the text report names it, the HTML
 * report gives it a "not run" badge, the JUnit file a property, and a --baseline in which it
 * failed lists it under notRun, not under fixed (a budget of 1 s cannot hold a check of two
 * 0.3 s starts after two nominal runs of 0.3 s). */
Test(time_bounds, a_check_left_out_in_every_report, .timeout = 120)
{
    char *dir = fmuc_test_mkdtemp("budgetrep");
    cr_assert(dir);
    char base[4200], out[4200], junit[4200], path[4400];
    snprintf(base, sizeof base, "%s/base.json", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(junit, sizeof junit, "%s/junit.xml", dir);
    FILE *f = fopen(base, "w");
    cr_assert(f);
    fputs("{\"schema\": \"fmucheck-report\", \"schemaVersion\": 1, \"fmu\": {}, \"checks\": ["
          "{\"id\": \"eq-serialize-corrupt\", \"verdict\": \"fail\", \"verdicts\": "
          "{\"interop\": \"fail\", \"standard\": \"fail\", \"strict\": \"fail\"}}]}\n",
          f);
    fclose(f);
    char *argv[] = {FMUC_EXE, "--time-budget", "1", "--only", "eq-serialize-corrupt",
                    "--baseline", base, "--junit", junit, "-o", out,
                    FMUC_FMU_DIR "/hostile/slow-start.fmu", NULL};
    fmuc_test_run run;
    cr_assert(fmuc_test_exec(&run, argv, NULL) == 0);
    cr_expect(strstr(run.out, "1 check(s) not run (--time-budget=off runs every check): "
                              "eq-serialize-corrupt"),
              "the text report names it: %s", run.out);
    snprintf(path, sizeof path, "%s/report.json", out);
    cJSON *rep = fmuc_test_read_json(path);
    cr_assert(rep, "no report (exit %d): %s", run.status, run.err);
    cJSON *bl = cJSON_GetObjectItem(rep, "baseline");
    cJSON *nr = cJSON_GetArrayItem(cJSON_GetObjectItem(bl, "notRun"), 0);
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(nr, "id")), "eq-serialize-corrupt");
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(bl, "fixed")), 0, "nothing was fixed");
    cJSON_Delete(rep);
    snprintf(path, sizeof path, "%s/report.html", out);
    cr_expect(file_has(path, "<span class=\"badge v-na\">not run</span>"), "HTML badge");
    cr_expect(file_has(junit, "notRunTimeBudget"), "JUnit property");
    fmuc_test_run_free(&run);
    fmuc_test_rm_rf(dir);
    free(dir);
}
