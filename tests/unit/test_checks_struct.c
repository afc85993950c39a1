/* Declared structure verified by experiment (issue 18 item 2): api-dependencies-observed and
 * me-event-flags on the good reference FMUs and on their broken fixtures (the defect in an
 * output and, in the variant, in a state derivative; silent state changes and, in the variant,
 * silent nominal changes), run directly (check.run on an opened FMU, workers as in fmucheck).
 * Asserts on verdicts and evidence counts, not on message text. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fmuc_test_util.h"

typedef struct st_run {
    fmuc_fmu fmu;
    fmuc_options opts;
    fmuc_result res;
} st_run;

static void run_check(st_run *r, const char *kind, const char *name, const fmuc_check *c)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/%s.fmu", FMUC_FMU_DIR, kind, name);
    cr_assert(access(path, R_OK) == 0, "fixture %s not built", path);
    fmuc_diag d = {0};
    cr_assert_eq(fmuc_fmu_open(&r->fmu, path, NULL, NULL, &d), FMUC_OK, "%s: %s", path, d.msg);
    fmuc_options_init(&r->opts);
    r->opts.timeout_multiplier = strtod(fmuc_test_timeout_multiplier(), NULL);
    fmuc_subject s = {.fmu = &r->fmu, .opts = &r->opts};
    fmuc_result_init(&r->res, c->id, c->title, c->spec, c->level);
    r->res.verdict = FMUC_VERDICT_PASS;
    c->run(&s, &r->res);
    for (size_t i = 0; i < r->res.nmessages; i++)
        cr_log_info("%s on %s: %s", c->id, name, r->res.messages[i]);
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
    /* CS reads outputs only; none of them depends on F at a communication point */
    cr_expect_eq(ev_num(&r.res, "CoSimulation", "undeclared"), 0.0);
    done(&r);
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

Test(event_flags, next_event_time_not_ahead_fails, .timeout = 120)
{
    expect_verdict("broken", "me-event-flags--next-event-time", &fmuc_check_me_event_flags,
                   FMUC_VERDICT_FAIL);
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
