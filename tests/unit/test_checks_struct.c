/* Declared structure verified by experiment (issue 18 item 2): api-dependencies-observed and
 * me-event-flags on the good reference FMUs and on their broken fixtures (the defect in an
 * output and, in the variants, in a state derivative or from a discrete input; silent state
 * changes and, in the variant, silent nominal changes), run directly (check.run on an opened
 * FMU, workers as in fmucheck); the Reference-FMUs' Feedthrough (../shared) for discrete inputs
 * declared right.
 * Asserts on verdicts and evidence counts, not on message text. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fmuc_test_util.h"

/* ../shared (the Reference-FMUs); the tests that need it skip without it */
#ifndef FMUC_SHARED_DIR
#define FMUC_SHARED_DIR FMUC_SOURCE_DIR "/../shared"
#endif

typedef struct st_run {
    fmuc_fmu fmu;
    fmuc_options opts;
    fmuc_result res;
} st_run;

/* run check c on the FMU at path, its parsed model description first changed by edit (NULL:
 * none) */
static void run_path_edit(st_run *r, const char *path, const char *name, const fmuc_check *c,
                          void (*edit)(fmuc_md *))
{
    fmuc_diag d = {0};
    cr_assert_eq(fmuc_fmu_open(&r->fmu, path, NULL, NULL, &d), FMUC_OK, "%s: %s", path, d.msg);
    if (edit)
        edit(&r->fmu.md);
    fmuc_options_init(&r->opts);
    r->opts.timeout_multiplier = strtod(fmuc_test_timeout_multiplier(), NULL);
    fmuc_subject s = {.fmu = &r->fmu, .opts = &r->opts};
    fmuc_result_init(&r->res, c->id, c->title, c->spec, c->level);
    r->res.verdict = FMUC_VERDICT_PASS;
    c->run(&s, &r->res);
    for (size_t i = 0; i < r->res.nmessages; i++)
        cr_log_info("%s on %s: %s", c->id, name, r->res.messages[i]);
}

static void run_path(st_run *r, const char *path, const char *name, const fmuc_check *c)
{
    run_path_edit(r, path, name, c, NULL);
}

static void run_check_edit(st_run *r, const char *kind, const char *name, const fmuc_check *c,
                           void (*edit)(fmuc_md *))
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/%s.fmu", FMUC_FMU_DIR, kind, name);
    cr_assert(access(path, R_OK) == 0, "fixture %s not built", path);
    run_path_edit(r, path, name, c, edit);
}

static void run_check(st_run *r, const char *kind, const char *name, const fmuc_check *c)
{
    run_check_edit(r, kind, name, c, NULL);
}

static void done(st_run *r)
{
    fmuc_result_clear(&r->res);
    fmuc_fmu_close(&r->fmu);
}

/* check c on fixture kind/name has verdict v */
static void expect_verdict(const char *kind, const char *name, const fmuc_check *c,
                           fmuc_verdict v)
{
    st_run r;
    run_check(&r, kind, name, c);
    cr_expect_eq(r.res.verdict, v, "%s on %s", c->id, name);
    done(&r);
}

/* evidence[iface][key] (iface NULL: evidence[key]) as a number; -1 when absent. */
static double ev_num(const fmuc_result *r, const char *iface, const char *key)
{
    const cJSON *o = r->evidence;
    if (o && iface)
        o = cJSON_GetObjectItemCaseSensitive(o, iface);
    const cJSON *v = o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
    return cJSON_IsNumber(v) ? v->valuedouble : -1.0;
}

/* --- api-dependencies-observed ------------------------------------------------------------- */

Test(dependencies_observed, good_fmus_pass_or_do_not_apply, .timeout = 120)
{
    st_run r;
    run_check(&r, "good", "SpringMassDamper", &fmuc_check_api_dependencies_observed);
    cr_expect_eq(r.res.verdict, FMUC_VERDICT_PASS);
    /* F is perturbed in both interfaces; der(v) really depends on it (declared) */
    cr_expect_eq(ev_num(&r.res, "ModelExchange", "inputs_perturbed"), 1.0);
    cr_expect_eq(ev_num(&r.res, "CoSimulation", "inputs_perturbed"), 1.0);
    cr_expect_eq(ev_num(&r.res, "ModelExchange", "confirmed"), 1.0);
    cr_expect_eq(ev_num(&r.res, "ModelExchange", "undeclared"), 0.0);
    /* CS probes from the communication point a first step of h1 (1e-3 of the nominal step)
     * reached: not the start time, which some FMUs make every step from expensive */
    double tp = ev_num(&r.res, "CoSimulation", "probe_time");
    cr_expect(fabs(tp - 1e-5) < 1e-15, "probe_time %.17g, not h1 = 1e-3 * 0.01", tp);
    done(&r);
    /* no inputs: nothing to perturb */
    run_check(&r, "good", "BouncingBall", &fmuc_check_api_dependencies_observed);
    cr_expect_eq(r.res.verdict, FMUC_VERDICT_NA);
    done(&r);
}

Test(dependencies_observed, undeclared_output_feedthrough_fails_in_both_interfaces, .timeout = 120)
{
    st_run r;
    run_check(&r, "broken", "api-dependencies-observed", &fmuc_check_api_dependencies_observed);
    cr_expect_eq(r.res.verdict, FMUC_VERDICT_FAIL);
    cr_expect_eq(ev_num(&r.res, "ModelExchange", "undeclared"), 1.0);
    cr_expect_eq(ev_num(&r.res, "CoSimulation", "undeclared"), 1.0);
    done(&r);
}

Test(dependencies_observed, undeclared_derivative_dependency_fails_in_model_exchange,
     .timeout = 120)
{
    st_run r;
    run_check(&r, "broken", "api-dependencies-observed--derivative",
              &fmuc_check_api_dependencies_observed);
    cr_expect_eq(r.res.verdict, FMUC_VERDICT_FAIL);
    cr_expect_eq(ev_num(&r.res, "ModelExchange", "undeclared"), 1.0);
    /* CS reads outputs only; none of them follows F directly after a step */
    cr_expect_eq(ev_num(&r.res, "CoSimulation", "undeclared"), 0.0);
    done(&r);
}

/* A discrete (Integer) input feeding a Real output undeclared: Model Exchange sees it after the
 * set in Event Mode and the event iteration, Co-Simulation after steps of both probe sizes; the
 * declared Integer output that copies the input is confirmed, not reported. */
Test(dependencies_observed, undeclared_integer_input_feedthrough_fails_in_both_interfaces,
     .timeout = 120)
{
    st_run r;
    run_check(&r, "broken", "api-dependencies-observed--discrete",
              &fmuc_check_api_dependencies_observed);
    cr_expect_eq(r.res.verdict, FMUC_VERDICT_FAIL);
    cr_expect_eq(ev_num(&r.res, "ModelExchange", "undeclared"), 1.0);
    cr_expect_eq(ev_num(&r.res, "ModelExchange", "inputs_at_event"), 1.0);
    cr_expect_eq(ev_num(&r.res, "CoSimulation", "undeclared"), 1.0);
    cr_expect_eq(ev_num(&r.res, "CoSimulation", "inputs_at_event"), 0.0);
    /* gearShown on gear (both), der(v) on F (ME) */
    cr_expect_eq(ev_num(&r.res, "ModelExchange", "confirmed"), 2.0);
    cr_expect_eq(ev_num(&r.res, "CoSimulation", "confirmed"), 1.0);
    done(&r);
}

/* The same rule on another base type and version: a Boolean input of an FMI 3.0 FMU, flipped
 * once (fmi3UpdateDiscreteStates in Model Exchange). */
Test(dependencies_observed, undeclared_boolean_input_feedthrough_fails_in_fmi3, .timeout = 120)
{
    st_run r;
    run_check(&r, "broken", "api-dependencies-observed--discrete-fmi3",
              &fmuc_check_api_dependencies_observed);
    cr_expect_eq(r.res.verdict, FMUC_VERDICT_FAIL);
    cr_expect_eq(ev_num(&r.res, "ModelExchange", "undeclared"), 1.0);
    cr_expect_eq(ev_num(&r.res, "ModelExchange", "inputs_at_event"), 1.0);
    cr_expect_eq(ev_num(&r.res, "CoSimulation", "undeclared"), 1.0);
    done(&r);
}

/* The Reference-FMUs' Feedthrough: Integer, Boolean, Enumeration and discrete float inputs,
 * each output declaring the input it copies; every discrete input is set at an event in Model
 * Exchange and every declared dependency is confirmed, none reported. */
Test(dependencies_observed, declared_discrete_dependencies_pass, .timeout = 120)
{
    static const struct {
        const char *rel;
        double at_event; /* ME inputs set in Event Mode */
    } fmus[] = {{"fmi2/Feedthrough.fmu", 4}, {"fmi3/Feedthrough.fmu", 12}};
    for (size_t i = 0; i < sizeof fmus / sizeof fmus[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/reference-fmus/%s", FMUC_SHARED_DIR, fmus[i].rel);
        if (access(path, R_OK) != 0)
            cr_skip("no %s", path);
        st_run r;
        run_path(&r, path, fmus[i].rel, &fmuc_check_api_dependencies_observed);
        cr_expect_eq(r.res.verdict, FMUC_VERDICT_PASS, "%s", fmus[i].rel);
        cr_expect_eq(ev_num(&r.res, "ModelExchange", "inputs_at_event"), fmus[i].at_event, "%s",
                     fmus[i].rel);
        cr_expect_eq(ev_num(&r.res, "ModelExchange", "undeclared"), 0.0, "%s", fmus[i].rel);
        cr_expect_eq(ev_num(&r.res, "CoSimulation", "undeclared"), 0.0, "%s", fmus[i].rel);
        cr_expect_geq(ev_num(&r.res, "ModelExchange", "confirmed"), fmus[i].at_event, "%s",
                      fmus[i].rel);
        /* Co-Simulation sees every declared feedthrough through the probe steps: each input
         * moves only what it is declared to move in its screening step (the smaller step, the
         * first perturbation value), so none needs the other probe steps */
        cr_expect_geq(ev_num(&r.res, "CoSimulation", "declared_moved_screened"),
                      fmus[i].at_event, "%s", fmus[i].rel);
        cr_expect_eq(ev_num(&r.res, "CoSimulation", "screened_out"),
                     ev_num(&r.res, "CoSimulation", "inputs_perturbed"), "%s", fmus[i].rel);
        cr_expect_eq(ev_num(&r.res, "CoSimulation", "confirmed"), 0.0, "%s", fmus[i].rel);
        done(&r);
    }
}

/* The good SpringMassDamper's output v declared to depend on itself only (dependencies="3",
 * leaving out the input F): v moves with F only through the dynamics (dv = h F / m), so in
 * Co-Simulation its change shrinks with the probe step and is counted, not failed. */
static void v_on_itself(fmuc_md *md)
{
    static const uint32_t self[] = {3};
    for (size_t i = 0; i < md->noutputs; i++)
        if (md->outputs[i].index == 3) {
            md->outputs[i].has_deps = 1;
            md->outputs[i].deps = self;
            md->outputs[i].ndeps = 1;
            return;
        }
    cr_assert_fail("no output of index 3");
}

Test(dependencies_observed, co_simulation_tells_feedthrough_from_the_dynamics, .timeout = 120)
{
    st_run r;
    run_check_edit(&r, "good", "SpringMassDamper", &fmuc_check_api_dependencies_observed,
                   v_on_itself);
    cr_expect_eq(r.res.verdict, FMUC_VERDICT_PASS);
    cr_expect_eq(ev_num(&r.res, "CoSimulation", "undeclared"), 0.0);
    /* v moves outside its declaration in the screening step, so F is probed in full */
    cr_expect_geq(ev_num(&r.res, "CoSimulation", "through_dynamics"), 1.0);
    cr_expect_eq(ev_num(&r.res, "CoSimulation", "screened_out"), 0.0);
    done(&r);
}

/* A lag of 1e-7 s between the input F and the output E (declared on x and v only): E moves by
 * as much after h1 and h2, like a direct feedthrough; the confirmation step h3 < the lag shows
 * it shrinking, so it is counted as dynamics, not failed. */
Test(dependencies_observed, a_mode_faster_than_the_probe_steps_is_told_by_the_confirmation,
     .timeout = 120)
{
    st_run r;
    run_check(&r, "broken", "api-dependencies-observed--stiff",
              &fmuc_check_api_dependencies_observed);
    cr_expect_eq(r.res.verdict, FMUC_VERDICT_PASS);
    cr_expect_eq(ev_num(&r.res, "CoSimulation", "undeclared"), 0.0);
    cr_expect_eq(ev_num(&r.res, "CoSimulation", "through_dynamics"), 1.0);
    cr_expect_eq(ev_num(&r.res, "CoSimulation", "shrank_only_at_h3"), 1.0);
    done(&r);
    /* the direct feedthrough keeps its change at h3 too */
    run_check(&r, "broken", "api-dependencies-observed", &fmuc_check_api_dependencies_observed);
    cr_expect_eq(ev_num(&r.res, "CoSimulation", "undeclared"), 1.0);
    cr_expect_eq(ev_num(&r.res, "CoSimulation", "shrank_only_at_h3"), 0.0);
    int confirmed = 0;
    for (size_t i = 0; i < r.res.nmessages; i++)
        confirmed |= strstr(r.res.messages[i], "CoSimulation: output 'E'") &&
                     strstr(r.res.messages[i], "after one of 1.0000000000000002e-08");
    cr_expect(confirmed, "the failure names the confirmation step h3");
    done(&r);
}

static void no_cs_fmu_state(fmuc_md *md)
{
    md->cs.caps &= ~(1u << FMUC_CAP_CAN_GET_AND_SET_FMU_STATE);
}

static void no_cs_variable_step(fmuc_md *md)
{
    md->cs.caps &= ~(1u << FMUC_CAP_CAN_HANDLE_VARIABLE_COMMUNICATION_STEP_SIZE);
}

/* Without canGetAndSetFMUstate (no step repeated from one state) or
 * canHandleVariableCommunicationStepSize (no small probe steps) Co-Simulation is not judged
 * (reading outputs after a set before the next fmi2DoStep is not allowed, §4.2.4); Model
 * Exchange still fails the fixture. */
Test(dependencies_observed, co_simulation_needs_fmu_state_and_variable_steps, .timeout = 120)
{
    void (*edits[])(fmuc_md *) = {no_cs_fmu_state, no_cs_variable_step};
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        st_run r;
        run_check_edit(&r, "broken", "api-dependencies-observed",
                       &fmuc_check_api_dependencies_observed, edits[i]);
        cr_expect_eq(r.res.verdict, FMUC_VERDICT_FAIL);
        cr_expect_eq(ev_num(&r.res, "ModelExchange", "undeclared"), 1.0);
        cr_expect_eq(ev_num(&r.res, "CoSimulation", "undeclared"), -1.0);
        done(&r);
    }
}

/* An FMU whose fmi2DoStep ignores communicationStepSize (broken/cs-variable-step) would pass
 * the dynamics off as a direct feedthrough: its base outputs change alike after both probe
 * steps, so Co-Simulation is not judged; one whose fmi2DoStep crashes on another step size is
 * not judged there either (cs-variable-step's finding, not an ERROR here). */
Test(dependencies_observed, co_simulation_skips_an_fmu_ignoring_the_step_size, .timeout = 120)
{
    static const char *const names[] = {"cs-variable-step", "cs-variable-step--crash"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        st_run r;
        run_check(&r, "broken", names[i], &fmuc_check_api_dependencies_observed);
        cr_expect_eq(r.res.verdict, FMUC_VERDICT_PASS, "%s", names[i]);
        cr_expect_eq(ev_num(&r.res, "ModelExchange", "undeclared"), 0.0, "%s", names[i]);
        cr_expect_eq(ev_num(&r.res, "CoSimulation", "undeclared"), -1.0, "%s", names[i]);
        done(&r);
    }
}

Test(dependencies_observed, the_other_fixtures_are_not_caught, .timeout = 120)
{
    expect_verdict("broken", "me-event-flags", &fmuc_check_api_dependencies_observed,
                   FMUC_VERDICT_NA);
}

/* --- me-event-flags ----------------------------------------------------------------------- */

Test(event_flags, good_fmus_pass_with_their_events_compared, .timeout = 120)
{
    static const struct {
        const char *name;
        double min_instants; /* the initial iteration + events in the default experiment */
    } good[] = {{"BouncingBall", 10}, {"Stair", 5}, {"SpringMassDamper", 1}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        st_run r;
        run_check(&r, "good", good[i].name, &fmuc_check_me_event_flags);
        cr_expect_eq(r.res.verdict, FMUC_VERDICT_PASS, "%s", good[i].name);
        cr_expect_geq(ev_num(&r.res, NULL, "instants_compared"), good[i].min_instants, "%s",
                      good[i].name);
        done(&r);
    }
}

Test(event_flags, silent_state_change_fails, .timeout = 120)
{
    expect_verdict("broken", "me-event-flags", &fmuc_check_me_event_flags, FMUC_VERDICT_FAIL);
}

Test(event_flags, silent_nominal_change_fails, .timeout = 120)
{
    expect_verdict("broken", "me-event-flags--nominals", &fmuc_check_me_event_flags,
                   FMUC_VERDICT_FAIL);
}

Test(event_flags, a_flag_set_without_a_change_is_me_events_business, .timeout = 120)
{
    expect_verdict("broken", "me-events--states-changed", &fmuc_check_me_event_flags,
                   FMUC_VERDICT_PASS);
}

Test(event_flags, next_event_time_in_the_past_fails, .timeout = 120)
{
    expect_verdict("broken", "me-event-flags--next-event-time", &fmuc_check_me_event_flags,
                   FMUC_VERDICT_FAIL);
}

/* the instant just handled announced every time: time never advances */
Test(event_flags, next_event_time_now_forever_fails, .timeout = 120)
{
    expect_verdict("broken", "me-event-flags--next-event-stuck", &fmuc_check_me_event_flags,
                   FMUC_VERDICT_FAIL);
}

/* nextEventTime at the instant just handled: the host enters Event Mode again at once */
Test(event_flags, next_event_time_now_passes, .timeout = 120)
{
    expect_verdict("broken", "me-event-flags--next-event-now", &fmuc_check_me_event_flags,
                   FMUC_VERDICT_PASS);
}

Test(event_flags, a_silent_change_after_initialization_fails_the_letter_only, .timeout = 120)
{
    st_run r;
    run_check(&r, "broken", "me-event-flags--initial", &fmuc_check_me_event_flags);
    fmuc_check_profiles(&fmuc_check_me_event_flags, &r.res, FMUC_PROFILE_INTEROP);
    cr_expect_eq(r.res.verdicts[FMUC_PROFILE_STANDARD], FMUC_VERDICT_FAIL);
    cr_expect_eq(r.res.verdicts[FMUC_PROFILE_INTEROP], FMUC_VERDICT_WARN);
    done(&r);
    /* a silent change at a later event is no letter-only finding */
    run_check(&r, "broken", "me-event-flags", &fmuc_check_me_event_flags);
    fmuc_check_profiles(&fmuc_check_me_event_flags, &r.res, FMUC_PROFILE_INTEROP);
    cr_expect_eq(r.res.verdicts[FMUC_PROFILE_INTEROP], FMUC_VERDICT_FAIL);
    done(&r);
}
