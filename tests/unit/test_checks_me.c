/* The me-* checks on the good reference FMUs (SpringMassDamper, BouncingBall, Stair) and on their
 * broken fixtures, run directly (check.run on an opened FMU, workers as in fmucheck); the seed's
 * energy figures for SpringMassDamper; ε_dd per point; not-applicable cases from XML only. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fmuc_test_util.h"
#include "me/me_varref.h"

typedef struct me_run {
    fmuc_fmu fmu;
    fmuc_options opts;
    fmuc_result res;
} me_run;

static void run_check(me_run *r, const char *kind, const char *name, const fmuc_check *c,
                      const char *energy_spec)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/%s.fmu", FMUC_FMU_DIR, kind, name);
    cr_assert(access(path, R_OK) == 0, "fixture %s not built", path);
    fmuc_diag d = {0};
    cr_assert_eq(fmuc_fmu_open(&r->fmu, path, NULL, NULL, &d), FMUC_OK, "%s: %s", path, d.msg);
    fmuc_options_init(&r->opts);
    r->opts.timeout_multiplier = strtod(fmuc_test_timeout_multiplier(), NULL);
    r->opts.energy_spec = energy_spec;
    fmuc_subject s = {.fmu = &r->fmu, .opts = &r->opts};
    fmuc_result_init(&r->res, c->id, c->title, c->spec, c->level);
    r->res.verdict = FMUC_VERDICT_PASS;
    c->run(&s, &r->res);
}

static void done(me_run *r)
{
    fmuc_result_clear(&r->res);
    fmuc_fmu_close(&r->fmu);
}

static const char *msgs(const fmuc_result *r)
{
    static char buf[8192];
    buf[0] = '\0';
    for (size_t i = 0; i < r->nmessages; i++) {
        strncat(buf, r->messages[i], sizeof buf - strlen(buf) - 2);
        strncat(buf, "\n", sizeof buf - strlen(buf) - 1);
    }
    return buf;
}

static void expect(const char *kind, const char *name, const fmuc_check *c, fmuc_verdict v)
{
    me_run r;
    run_check(&r, kind, name, c, NULL);
    cr_expect_eq(r.res.verdict, v, "%s on %s/%s: %s, expected %s\n%s", c->id, kind, name,
                 fmuc_verdict_name(r.res.verdict), fmuc_verdict_name(v), msgs(&r.res));
    done(&r);
}

static const char *const good[] = {"SpringMassDamper", "BouncingBall", "Stair"};

/* Every me check on every good FMU: nothing worse than pass (n/a where it does not apply). */
static void good_pass(const fmuc_check *c)
{
    for (size_t i = 0; i < 3; i++) {
        me_run r;
        run_check(&r, "good", good[i], c, NULL);
        cr_expect(r.res.verdict == FMUC_VERDICT_PASS || r.res.verdict == FMUC_VERDICT_NA,
                  "%s on %s: %s\n%s", c->id, good[i], fmuc_verdict_name(r.res.verdict),
                  msgs(&r.res));
        done(&r);
    }
}

Test(me_state_roundtrip, good_pass) { good_pass(&fmuc_check_me_state_roundtrip); }
Test(me_state_roundtrip, zero_nominals_fail)
{
    me_run r;
    run_check(&r, "broken", "me-state-roundtrip", &fmuc_check_me_state_roundtrip, NULL);
    cr_expect_eq(r.res.verdict, FMUC_VERDICT_FAIL, "%s", msgs(&r.res));
    cr_expect_eq(r.res.nmessages, 2, "one message per state (x, v)\n%s", msgs(&r.res));
    done(&r);
}

Test(me_no_hidden_state, good_pass) { good_pass(&fmuc_check_me_no_hidden_state); }
Test(me_no_hidden_state, call_counter_fails)
{
    expect("broken", "me-no-hidden-state", &fmuc_check_me_no_hidden_state, FMUC_VERDICT_FAIL);
}

Test(me_directional_derivatives, good_pass) { good_pass(&fmuc_check_me_directional_derivatives); }
Test(me_directional_derivatives, na_without_capability)
{
    expect("good", "BouncingBall", &fmuc_check_me_directional_derivatives, FMUC_VERDICT_NA);
}

/* ε_dd is reported for each (point, direction) with a plot; good SMD is far below 1e-6. The
 * points: the start, three around it, two on the trajectory from it (t = 0.99 and 1.99 s). */
Test(me_directional_derivatives, eps_per_point)
{
    me_run r;
    run_check(&r, "good", "SpringMassDamper", &fmuc_check_me_directional_derivatives, NULL);
    cr_assert_eq(r.res.verdict, FMUC_VERDICT_PASS, "%s", msgs(&r.res));
    const cJSON *pts = cJSON_GetObjectItemCaseSensitive(r.res.evidence, "points");
    cr_assert(cJSON_IsArray(pts));
    const cJSON *tp = cJSON_GetObjectItemCaseSensitive(r.res.evidence, "trajectory_points");
    cr_expect(cJSON_IsNumber(tp) && tp->valueint == 2, "two points on the trajectory");
    cr_expect_eq(cJSON_GetArraySize(pts), 12, "6 points x 2 directions");
    int later = 0;
    const cJSON *q;
    cJSON_ArrayForEach(q, pts)
        later += cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(q, "t")) > 0.5;
    cr_expect_eq(later, 4, "the trajectory's points are away from the start time");
    const cJSON *p;
    cJSON_ArrayForEach(p, pts)
    {
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(p, "eps_dd");
        cr_assert(cJSON_IsNumber(e));
        cr_expect(e->valuedouble <= 1e-8, "eps_dd %g", e->valuedouble);
    }
    const cJSON *plots = cJSON_GetObjectItemCaseSensitive(r.res.evidence, "plots");
    cr_assert(cJSON_IsArray(plots) && cJSON_GetArraySize(plots) == 1);
    const cJSON *pl = cJSON_GetArrayItem(plots, 0);
    cr_expect(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(pl, "logy")));
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(pl, "x")), 12);
    done(&r);
}

/* Jacobian scaled by 1.001: ε_dd = 1e-3 at every point, each one a violation. */
Test(me_directional_derivatives, scaled_jacobian_fails)
{
    me_run r;
    run_check(&r, "broken", "me-directional-derivatives", &fmuc_check_me_directional_derivatives,
              NULL);
    cr_expect_eq(r.res.verdict, FMUC_VERDICT_FAIL);
    const cJSON *p;
    int n = 0;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(r.res.evidence, "points"))
    {
        double e = cJSON_GetObjectItemCaseSensitive(p, "eps_dd")->valuedouble;
        cr_expect(fabs(e - 1e-3) < 1e-5, "eps_dd %g, expected 1e-3", e);
        n++;
    }
    cr_expect_eq(n, 12);
    done(&r);
}

/* Doubled only where v < -0.08 m/s: the start and the points around it pass, the trajectory's
 * points (t = 0.99 s: v = -0.10) fail, naming the point and its time. */
Test(me_directional_derivatives, wrong_away_from_the_start_fails)
{
    me_run r;
    run_check(&r, "broken", "me-directional-derivatives--away-from-start",
              &fmuc_check_me_directional_derivatives, NULL);
    cr_expect_eq(r.res.verdict, FMUC_VERDICT_FAIL, "%s", msgs(&r.res));
    cr_expect(strstr(msgs(&r.res), "point 4 direction 0 (t = 0.98999999999999999"), "%s",
              msgs(&r.res));
    cr_expect_not(strstr(msgs(&r.res), "point 0 "), "the start state is right: %s", msgs(&r.res));
    done(&r);
}

Test(me_directional_derivatives, undeclared_dependency_fails)
{
    me_run r;
    run_check(&r, "broken", "me-directional-derivatives--sparsity",
              &fmuc_check_me_directional_derivatives, NULL);
    cr_expect_eq(r.res.verdict, FMUC_VERDICT_FAIL);
    const cJSON *u = cJSON_GetObjectItemCaseSensitive(r.res.evidence, "undeclared");
    cr_assert(cJSON_IsArray(u));
    cr_expect_eq(cJSON_GetArraySize(u), 1, "only der(v) <- x is undeclared");
    done(&r);
}

Test(me_events, good_pass) { good_pass(&fmuc_check_me_events); }
Test(me_events, state_and_time_events_located)
{
    me_run r;
    run_check(&r, "good", "BouncingBall", &fmuc_check_me_events, NULL);
    cr_assert_eq(r.res.verdict, FMUC_VERDICT_PASS, "%s", msgs(&r.res));
    cr_expect_eq(cJSON_GetObjectItemCaseSensitive(r.res.evidence, "events")->valuedouble, 11);
    cr_expect(cJSON_GetObjectItemCaseSensitive(r.res.evidence, "worst_time_deviation_s")
                  ->valuedouble <= 3e-6);
    done(&r);
    run_check(&r, "good", "Stair", &fmuc_check_me_events, NULL);
    cr_assert_eq(r.res.verdict, FMUC_VERDICT_PASS, "%s", msgs(&r.res));
    cr_expect_eq(cJSON_GetObjectItemCaseSensitive(r.res.evidence, "events")->valuedouble, 9);
    done(&r);
}
/* Idle time events every 0.01 s restart the host integrator 300 times: impacts drift beyond the
 * limit at 1e-8, but the third run at 1e-9 shows the drift shrinking: the integrator's error,
 * a pass with a note (the plain ball needs no third run). */
Test(me_events, drift_that_shrinks_with_the_tolerance_passes)
{
    me_run r;
    run_check(&r, "broken", "me-events--sampled", &fmuc_check_me_events, NULL);
    cr_assert_eq(r.res.verdict, FMUC_VERDICT_PASS, "%s", msgs(&r.res));
    const cJSON *ev = r.res.evidence;
    cr_expect(cJSON_GetObjectItemCaseSensitive(ev, "worst_time_deviation_s")->valuedouble > 3e-6,
              "beyond the limit at 1e-8");
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(ev, "beyond_limit_converging");
    cr_expect(cJSON_IsNumber(c) && c->valuedouble >= 1.0);
    done(&r);
    run_check(&r, "good", "BouncingBall", &fmuc_check_me_events, NULL);
    cr_expect_null(cJSON_GetObjectItemCaseSensitive(r.res.evidence, "mid_tolerance"));
    done(&r);
}
Test(me_events, wrong_indicator_count_fails)
{
    expect("broken", "me-events", &fmuc_check_me_events, FMUC_VERDICT_FAIL);
}
Test(me_events, endless_event_iteration_fails)
{
    expect("broken", "me-events--event-iteration", &fmuc_check_me_events, FMUC_VERDICT_FAIL);
}
Test(me_events, states_changed_flag_fails)
{
    expect("broken", "me-events--states-changed", &fmuc_check_me_events, FMUC_VERDICT_FAIL);
}

Test(me_completed_integrator_step, good_pass)
{
    good_pass(&fmuc_check_me_completed_integrator_step);
}
Test(me_completed_integrator_step, ignored_call_fails)
{
    expect("broken", "me-completed-integrator-step", &fmuc_check_me_completed_integrator_step,
           FMUC_VERDICT_FAIL);
}

Test(me_vs_cs, good_pass) { good_pass(&fmuc_check_me_vs_cs); }
Test(me_vs_cs, cs_without_events_warns)
{
    expect("broken", "me-vs-cs", &fmuc_check_me_vs_cs, FMUC_VERDICT_WARN);
}

static char *write_spec(const char *tag, const char *json)
{
    char *dir = fmuc_test_mkdtemp(tag);
    cr_assert(dir);
    static char path[4096];
    snprintf(path, sizeof path, "%s/energy.json", dir);
    cr_assert_eq(fmuc_test_write_file(path, json, strlen(json)), 0);
    free(dir);
    return path;
}

Test(me_energy_residual, na_without_spec)
{
    expect("good", "SpringMassDamper", &fmuc_check_me_energy_residual, FMUC_VERDICT_NA);
}

/* The seed (003): m = 2.5, k = 120, c = 3, x0 = 0.05 over 0..2 s at rtol 1e-8.
 * E0 = k x0^2 / 2 = 0.15 J and ε_E <= 1e-4 are reproduced. E(2 s): the simulation (and the
 * closed-form solution) give 0.0145219 J; the seed's 0.0136 J is the envelope estimate
 * E0·exp(-2ζω_n t) = 0.15·e^-2.4 = 0.013607 J (its "measured" ΔE = -0.136392 J is that same
 * estimate), which ignores how the energy splits between spring and mass at t = 2 s. So E(2 s) is
 * asserted against the exact value and the seed's figure is checked to be the envelope. */
Test(me_energy_residual, seed_figures)
{
    const char *spec = write_spec("me-energy", "{\"energy\": \"E\", \"velocity\": \"v\", "
                                               "\"damping\": \"c\"}");
    me_run r;
    run_check(&r, "good", "SpringMassDamper", &fmuc_check_me_energy_residual, spec);
    cr_assert_eq(r.res.verdict, FMUC_VERDICT_PASS, "%s", msgs(&r.res));
    const cJSON *ev = r.res.evidence;
    double e0 = cJSON_GetObjectItemCaseSensitive(ev, "E0")->valuedouble;
    double e1 = cJSON_GetObjectItemCaseSensitive(ev, "E1")->valuedouble;
    double diss = cJSON_GetObjectItemCaseSensitive(ev, "dissipated")->valuedouble;
    double eps = cJSON_GetObjectItemCaseSensitive(ev, "eps_E")->valuedouble;
    cr_expect(fabs(e0 - 0.15) < 1e-12, "E0 = %.17g", e0);
    /* closed form: x(t) = e^{-σt}(x0 cos ω_d t + σx0/ω_d sin ω_d t), σ = c/2m */
    double m = 2.5, k = 120.0, c = 3.0, x0 = 0.05, t = 2.0;
    double sg = c / (2.0 * m), wd = sqrt(k / m - sg * sg), ex = exp(-sg * t);
    double x = ex * (x0 * cos(wd * t) + sg * x0 / wd * sin(wd * t));
    double v = ex * (-x0 * wd * sin(wd * t) + sg * x0 * cos(wd * t)) - sg * x;
    double e_exact = 0.5 * m * v * v + 0.5 * k * x * x;
    cr_expect(fabs(e1 - e_exact) < 1e-7, "E(2 s) = %.9g, exact %.9g", e1, e_exact);
    cr_expect(fabs(e1 - 0.0145219) < 1e-6, "E(2 s) = %.9g", e1);
    cr_expect(fabs(diss - (0.15 - e_exact)) < 1e-6, "dissipated %.9g", diss);
    cr_expect(eps <= 1e-4, "eps_E = %g", eps);
    /* the seed's E(2 s) = 0.0136 J is the exponential envelope, not the state at 2 s */
    double envelope = 0.15 * exp(-2.0 * (c / (2.0 * sqrt(k * m))) * sqrt(k / m) * t);
    cr_expect(fabs(envelope - 0.0136) < 1e-4 && fabs(e1 - envelope) > 5e-4);
    cr_expect(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(ev, "plots")));
    done(&r);
}

Test(me_energy_residual, wrong_damping_warns)
{
    const char *spec = write_spec("me-energy", "{\"energy\": \"E\", \"velocity\": \"v\", "
                                               "\"damping\": 3.0}");
    me_run r;
    run_check(&r, "broken", "me-energy-residual", &fmuc_check_me_energy_residual, spec);
    cr_expect_eq(r.res.verdict, FMUC_VERDICT_WARN, "%s", msgs(&r.res));
    cr_expect(cJSON_GetObjectItemCaseSensitive(r.res.evidence, "eps_E")->valuedouble > 1e-3);
    done(&r);
}

Test(me_energy_residual, bad_spec_is_error)
{
    const char *spec = write_spec("me-energy", "{\"energy\": \"nope\", \"velocity\": \"v\", "
                                               "\"damping\": \"c\"}");
    me_run r;
    run_check(&r, "good", "SpringMassDamper", &fmuc_check_me_energy_residual, spec);
    cr_expect_eq(r.res.verdict, FMUC_VERDICT_ERROR);
    done(&r);
}

/* FMI 3.0 ME: the good SpringMassDamper 3.0 closes the balance as in 2.0 (E0 = 0.15 J); the
 * --fmi3 fixture (damping force 1.02 c) warns naming E; an array variable in the spec (Fz of
 * vdsim_l3_fmi3) is an error of the spec, judged before any run. */
Test(me_energy_residual, fmi3_balance_closes_and_the_fixture_warns, .timeout = 300)
{
    const char *spec = write_spec("me-energy3", "{\"energy\": \"E\", \"velocity\": \"v\", "
                                                "\"damping\": \"c\"}");
    me_run r;
    run_check(&r, "fmi3/good", "SpringMassDamper", &fmuc_check_me_energy_residual, spec);
    cr_assert_eq(fmuc_fmu_fmi_version(&r.fmu), 3);
    cr_expect_eq(r.res.verdict, FMUC_VERDICT_PASS, "%s", msgs(&r.res));
    const cJSON *e0 = cJSON_GetObjectItemCaseSensitive(r.res.evidence, "E0");
    const cJSON *eps = cJSON_GetObjectItemCaseSensitive(r.res.evidence, "eps_E");
    cr_expect(cJSON_IsNumber(e0) && fabs(e0->valuedouble - 0.15) < 1e-12);
    cr_expect(cJSON_IsNumber(eps) && eps->valuedouble <= 1e-4);
    done(&r);
    run_check(&r, "broken", "me-energy-residual--fmi3", &fmuc_check_me_energy_residual, spec);
    cr_assert_eq(fmuc_fmu_fmi_version(&r.fmu), 3);
    cr_expect_eq(r.res.verdict, FMUC_VERDICT_WARN, "%s", msgs(&r.res));
    cr_expect(strstr(msgs(&r.res), "'E' does not match the power dissipated"), "%s",
              msgs(&r.res));
    eps = cJSON_GetObjectItemCaseSensitive(r.res.evidence, "eps_E");
    cr_expect(cJSON_IsNumber(eps) && eps->valuedouble > 1e-3);
    done(&r);
    spec = write_spec("me-energy3", "{\"energy\": \"Fz\", \"velocity\": \"vx\", "
                                    "\"damping\": 1.0}");
    run_check(&r, "fmi3", "vdsim_l3_fmi3", &fmuc_check_me_energy_residual, spec);
    cr_expect_eq(r.res.verdict, FMUC_VERDICT_ERROR, "%s", msgs(&r.res));
    cr_expect(strstr(msgs(&r.res), "'Fz' (vr 40"), "%s", msgs(&r.res));
    cr_expect(strstr(msgs(&r.res), "is an array variable"), "%s", msgs(&r.res));
    done(&r);
    /* an element past the end of Fz (4 wheels): an error naming the spec text, before any run */
    spec = write_spec("me-energy3", "{\"energy\": \"Fz[5]\", \"velocity\": \"vx\", "
                                    "\"damping\": 1.0}");
    run_check(&r, "fmi3", "vdsim_l3_fmi3", &fmuc_check_me_energy_residual, spec);
    cr_expect_eq(r.res.verdict, FMUC_VERDICT_ERROR, "%s", msgs(&r.res));
    cr_expect(strstr(msgs(&r.res), "energy 'Fz[5]'"), "%s", msgs(&r.res));
    cr_expect(strstr(msgs(&r.res), "outside 1 .. 4"), "%s", msgs(&r.res));
    done(&r);
    /* one element of it is a value the balance can use: the run records the column Fz[2] */
    spec = write_spec("me-energy3", "{\"energy\": \"Fz[2]\", \"velocity\": \"vx\", "
                                    "\"damping\": 1.0, \"t1\": 0.2}");
    run_check(&r, "fmi3", "vdsim_l3_fmi3", &fmuc_check_me_energy_residual, spec);
    cr_expect(r.res.verdict == FMUC_VERDICT_PASS || r.res.verdict == FMUC_VERDICT_WARN, "%s: %s",
              fmuc_verdict_name(r.res.verdict), msgs(&r.res));
    const cJSON *fe0 = cJSON_GetObjectItemCaseSensitive(r.res.evidence, "E0");
    cr_expect(cJSON_IsNumber(fe0) && isfinite(fe0->valuedouble) && fe0->valuedouble != 0.0,
              "Fz[2] at t0 carries load");
    done(&r);
}

/* XML-only subjects: without ModelExchange every me check is not applicable. */
Test(me_checks, na_without_model_exchange)
{
    static const char xml[] =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"m\" guid=\"{x}\">\n"
        "  <CoSimulation modelIdentifier=\"m\"/>\n"
        "  <ModelVariables>\n"
        "    <ScalarVariable name=\"y\" valueReference=\"0\" causality=\"output\"><Real/></ScalarVariable>\n"
        "  </ModelVariables>\n"
        "  <ModelStructure><Outputs><Unknown index=\"1\"/></Outputs></ModelStructure>\n"
        "</fmiModelDescription>\n";
    fmuc_fmu fmu;
    memset(&fmu, 0, sizeof fmu);
    cr_assert_eq(fmuc_md_parse(&fmu.md, xml, sizeof xml - 1, NULL), FMUC_OK);
    fmu.md_parsed = 1;
    fmuc_options o;
    fmuc_options_init(&o);
    fmuc_subject s = {.fmu = &fmu, .opts = &o};
    const fmuc_check *all[] = {&fmuc_check_me_state_roundtrip, &fmuc_check_me_no_hidden_state,
                               &fmuc_check_me_directional_derivatives, &fmuc_check_me_events,
                               &fmuc_check_me_completed_integrator_step, &fmuc_check_me_vs_cs,
                               &fmuc_check_me_energy_residual};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        fmuc_result r;
        fmuc_result_init(&r, all[i]->id, all[i]->title, all[i]->spec, all[i]->level);
        all[i]->run(&s, &r);
        cr_expect_eq(r.verdict, FMUC_VERDICT_NA, "%s: %s", all[i]->id, fmuc_verdict_name(r.verdict));
        fmuc_result_clear(&r);
    }
    fmuc_md_free(&fmu.md);
}

Test(me_events, no_indicators_and_no_time_events_is_a_note)
{
    /* SpringMassDamper: no event indicators, no time events; Stair (above): none, but time
     * events, which are still compared */
    me_run r;
    run_check(&r, "good", "SpringMassDamper", &fmuc_check_me_events, NULL);
    cr_assert_eq(r.res.verdict, FMUC_VERDICT_PASS, "%s", msgs(&r.res));
    cr_expect(strstr(msgs(&r.res), "no event indicators and no time events in the nominal run"),
              "%s", msgs(&r.res));
    cr_expect_null(cJSON_GetObjectItemCaseSensitive(r.res.evidence, "events"));
    done(&r);
}

/* The spec's variable references (me_varref.h): names, elements of FMI 3.0 arrays with 1-based
 * indices (row-major), and the errors that name the spec text. */
static const char varref_xml3[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<fmiModelDescription fmiVersion=\"3.0\" modelName=\"m\" instantiationToken=\"{x}\">\n"
    "  <ModelExchange modelIdentifier=\"m\"/>\n"
    "  <ModelVariables>\n"
    "    <Float64 name=\"x\" valueReference=\"1\" causality=\"output\"/>\n"
    "    <Float64 name=\"Fz\" valueReference=\"2\" causality=\"output\">"
    "<Dimension start=\"3\"/></Float64>\n"
    "    <Float64 name=\"A\" valueReference=\"3\" causality=\"output\">"
    "<Dimension start=\"2\"/><Dimension start=\"3\"/></Float64>\n"
    "    <UInt64 name=\"n\" valueReference=\"4\" causality=\"structuralParameter\" "
    "variability=\"fixed\" start=\"4\"/>\n"
    "    <Float64 name=\"w\" valueReference=\"5\" causality=\"output\">"
    "<Dimension valueReference=\"4\"/></Float64>\n"
    "    <Float64 name=\"y[2]\" valueReference=\"6\" causality=\"output\"/>\n"
    "  </ModelVariables>\n"
    "  <ModelStructure><Output valueReference=\"1\"/></ModelStructure>\n"
    "</fmiModelDescription>\n";

static int varref(const fmuc_md *md, const char *text, int need_scalar, fmuc_me_varref *r,
                  char *err, size_t n)
{
    err[0] = '\0';
    return fmuc_me__varref_parse(md, "energy", text, need_scalar, r, err, n);
}

Test(me_varref, names_and_elements)
{
    fmuc_md md;
    cr_assert_eq(fmuc_md_parse(&md, varref_xml3, sizeof varref_xml3 - 1, NULL), FMUC_OK);
    fmuc_me_varref r;
    char err[768];
    cr_assert_eq(varref(&md, "x", 1, &r, err, sizeof err), 0, "%s", err);
    cr_expect_eq(r.element, 0);
    cr_expect_eq(r.nelements, 1);
    cr_expect_str_eq(r.column, "x");
    cr_assert_eq(varref(&md, "Fz[2]", 1, &r, err, sizeof err), 0, "%s", err);
    cr_expect_str_eq(md.vars[r.var].name, "Fz");
    cr_expect_eq(r.element, 2);
    cr_expect_eq(r.nelements, 3);
    cr_expect_str_eq(r.column, "Fz[2]");
    /* row-major (§2.2.6.1): A[2,1] is the 4th of 2 x 3 elements; spaces are allowed */
    cr_assert_eq(varref(&md, "A[ 2 , 1 ]", 1, &r, err, sizeof err), 0, "%s", err);
    cr_expect_eq(r.element, 4);
    cr_expect_str_eq(r.column, "A[2,1]");
    cr_assert_eq(varref(&md, "A[1,3]", 1, &r, err, sizeof err), 0, "%s", err);
    cr_expect_eq(r.element, 3);
    /* the size from the structural parameter's start value */
    cr_assert_eq(varref(&md, "w[4]", 1, &r, err, sizeof err), 0, "%s", err);
    cr_expect_eq(r.element, 4);
    /* a name some variable has is taken as it is */
    cr_assert_eq(varref(&md, "y[2]", 1, &r, err, sizeof err), 0, "%s", err);
    cr_expect_str_eq(md.vars[r.var].name, "y[2]");
    cr_expect_eq(r.element, 0);
    /* an array named whole: accepted only when a scalar is not needed */
    cr_assert_eq(varref(&md, "Fz", 0, &r, err, sizeof err), 0, "%s", err);
    cr_expect_eq(r.nelements, 3);
    fmuc_md_free(&md);
}

Test(me_varref, errors_name_the_spec_text)
{
    fmuc_md md;
    cr_assert_eq(fmuc_md_parse(&md, varref_xml3, sizeof varref_xml3 - 1, NULL), FMUC_OK);
    fmuc_me_varref r;
    char err[768];
    static const struct {
        const char *text, *says;
    } bad[] = {
        {"Fz", "is an array variable"},                 /* an array named whole */
        {"Fz[0]", "outside 1 .. 3"},                    /* indices start with 1 */
        {"Fz[4]", "outside 1 .. 3"},                    /* past the end */
        {"A[3,1]", "index 3 of dimension 1"},           /* the first dimension has 2 */
        {"A[1]", "has 2 dimensions, the reference gives 1 index"},
        {"Fz[1,1]", "has 1 dimension, the reference gives 2 indices"},
        {"x[1]", "is a scalar variable"},               /* an index on a scalar */
        {"q[1]", "no variable of the model is named 'q'"},
        {"q", "no variable of the model has this name"},
        {"Fz[]", "malformed index"},
        {"Fz[-1]", "malformed index"},
        {"Fz[1x]", "malformed index"},
        {"Fz[1,,2]", "malformed index"},
        {"w[5]", "outside 1 .. 4"},                     /* the structural parameter's size */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_expect_eq(varref(&md, bad[i].text, 1, &r, err, sizeof err), -1, "%s accepted",
                     bad[i].text);
        char quoted[64];
        snprintf(quoted, sizeof quoted, "energy '%s'", bad[i].text);
        cr_expect(strstr(err, quoted), "%s: %s", bad[i].text, err);
        cr_expect(strstr(err, bad[i].says), "%s: %s (expected '%s')", bad[i].text, err,
                  bad[i].says);
    }
    fmuc_md_free(&md);
}

/* FMI 2.0 has no array variables: a bracketed name is a name (structured naming) or nothing. */
Test(me_varref, fmi2_names_only)
{
    static const char xml[] =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"m\" guid=\"{x}\" "
        "variableNamingConvention=\"structured\">\n"
        "  <ModelExchange modelIdentifier=\"m\"/>\n"
        "  <ModelVariables>\n"
        "    <ScalarVariable name=\"x[2]\" valueReference=\"0\" causality=\"output\"><Real/>"
        "</ScalarVariable>\n"
        "  </ModelVariables>\n"
        "  <ModelStructure><Outputs><Unknown index=\"1\"/></Outputs></ModelStructure>\n"
        "</fmiModelDescription>\n";
    fmuc_md md;
    cr_assert_eq(fmuc_md_parse(&md, xml, sizeof xml - 1, NULL), FMUC_OK);
    fmuc_me_varref r;
    char err[768];
    cr_expect_eq(varref(&md, "x[2]", 1, &r, err, sizeof err), 0, "%s", err);
    cr_expect_str_eq(r.column, "x[2]");
    cr_expect_eq(varref(&md, "x[1]", 1, &r, err, sizeof err), -1);
    cr_expect(strstr(err, "no variable of the model has this name"), "%s", err);
    fmuc_md_free(&md);
}
