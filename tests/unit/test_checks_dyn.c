/* Dynamic checks (api-*, cs-nominal-run, me-nominal-run) on real FMUs: each passes on the good
 * SpringMassDamper and gives its verdict on its broken FMU; hostile FMUs end in ERROR naming the
 * signal and the call/phase, the test process survives and no worker process is left. */
#include <criterion/criterion.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "api/api_util.h"
#include "fmuc_test_util.h"
#include "runner_test_util.h"
#include "runner.h"

#define GOOD FMUC_FMU_DIR "/good/SpringMassDamper.fmu"
#define BROKEN(x) FMUC_FMU_DIR "/broken/" x ".fmu"
#define HOSTILE(x) FMUC_FMU_DIR "/hostile/" x ".fmu"
#ifndef FMUC_SHARED_DIR
#define FMUC_SHARED_DIR FMUC_SOURCE_DIR "/../shared"
#endif

static fmuc_verdict run_check(const char *path, const fmuc_check *chk, fmuc_result *res,
                              double timeout)
{
    fmuc_fmu fmu;
    fmuc_options opts;
    fmuc_diag d = {{0}, FMUC_OK};
    cr_assert_eq(fmuc_fmu_open(&fmu, path, NULL, NULL, &d), FMUC_OK, "%s: %s", path, d.msg);
    fmuc_options_init(&opts);
    if (timeout > 0)
        opts.timeout_s = timeout;
    double mult = strtod(fmuc_test_timeout_multiplier(), NULL);
    if (mult > 0)
        opts.timeout_multiplier = mult;
    fmuc_subject s = {.fmu = &fmu, .opts = &opts};
    fmuc_result_init(res, chk->id, chk->title, chk->spec, chk->level);
    chk->run(&s, res);
    fmuc_fmu_close(&fmu);
    return res->verdict;
}

static int any_message(const fmuc_result *res, const char *a, const char *b)
{
    for (size_t i = 0; i < res->nmessages; i++)
        if (strstr(res->messages[i], a) && (!b || strstr(res->messages[i], b)))
            return 1;
    return 0;
}

static void dump(const fmuc_result *res)
{
    for (size_t i = 0; i < res->nmessages; i++)
        cr_log_info("%s: %s", res->id, res->messages[i]);
}

static void expect(const char *path, const fmuc_check *chk, fmuc_verdict v)
{
    fmuc_result res;
    fmuc_verdict got = run_check(path, chk, &res, 0);
    if (got != v)
        dump(&res);
    cr_expect_eq(got, v, "%s on %s: %s, expected %s", chk->id, path, fmuc_verdict_name(got),
                 fmuc_verdict_name(v));
    fmuc_result_clear(&res);
}

static void no_children_left(void)
{
    errno = 0;
    cr_assert_eq(waitpid(-1, NULL, WNOHANG), -1, "a child process is left");
    cr_assert_eq(errno, ECHILD);
}

static const fmuc_check *const dyn_checks[] = {
    &fmuc_check_api_instantiate,  &fmuc_check_api_instantiate_refuses, &fmuc_check_api_guid,
    &fmuc_check_api_free_instance_null, &fmuc_check_api_bad_vr,   &fmuc_check_api_illegal_calls,
    &fmuc_check_cs_nominal_run,   &fmuc_check_me_nominal_run,        &fmuc_check_api_status_codes,
};

Test(checks_dyn, all_pass_on_the_good_fmu, .timeout = 60)
{
    for (size_t i = 0; i < sizeof dyn_checks / sizeof dyn_checks[0]; i++)
        expect(GOOD, dyn_checks[i], FMUC_VERDICT_PASS);
    no_children_left();
}

Test(checks_dyn, each_broken_fmu_is_caught, .timeout = 60)
{
    /* a GUID that is not refused is a derived rule (§2.1.5: fmuGUID "is used to check") */
    expect(BROKEN("api-guid"), &fmuc_check_api_guid, FMUC_VERDICT_WARN);
    expect(BROKEN("api-instantiate"), &fmuc_check_api_instantiate, FMUC_VERDICT_FAIL);
    expect(BROKEN("api-instantiate-refuses"), &fmuc_check_api_instantiate_refuses, FMUC_VERDICT_WARN);
    expect(BROKEN("api-instantiate-refuses--interface"), &fmuc_check_api_instantiate_refuses,
           FMUC_VERDICT_WARN);
    /* the crash in fmi2FreeInstance(NULL) is the violation itself, not a check not carried out */
    expect(BROKEN("api-free-instance-null"), &fmuc_check_api_free_instance_null, FMUC_VERDICT_FAIL);
    expect(BROKEN("api-bad-vr"), &fmuc_check_api_bad_vr, FMUC_VERDICT_FAIL);
    expect(BROKEN("api-illegal-calls"), &fmuc_check_api_illegal_calls, FMUC_VERDICT_WARN);
    expect(BROKEN("cs-nominal-run"), &fmuc_check_cs_nominal_run, FMUC_VERDICT_FAIL);
    expect(BROKEN("me-nominal-run"), &fmuc_check_me_nominal_run, FMUC_VERDICT_FAIL);
    expect(BROKEN("api-status-codes"), &fmuc_check_api_status_codes, FMUC_VERDICT_FAIL);
    /* the defects are specific: the neighbours stay clean */
    expect(BROKEN("cs-nominal-run"), &fmuc_check_me_nominal_run, FMUC_VERDICT_PASS);
    expect(BROKEN("me-nominal-run"), &fmuc_check_cs_nominal_run, FMUC_VERDICT_PASS);
    expect(BROKEN("api-guid"), &fmuc_check_api_instantiate, FMUC_VERDICT_PASS);
    expect(BROKEN("api-bad-vr"), &fmuc_check_api_illegal_calls, FMUC_VERDICT_PASS);
    no_children_left();
}

/* api-mandatory-functions: each sub-rule is caught on a fixture whose defect is in another
 * function, and the good FMU passes */
Test(checks_dyn, mandatory_functions_each_rule, .timeout = 120)
{
    const fmuc_check *c = &fmuc_check_api_mandatory_functions;
    expect(GOOD, c, FMUC_VERDICT_PASS);
    static const struct {
        const char *fmu, *call, *what;
        int letter; /* only findings that warn under interop */
    } cases[] = {
        {BROKEN("api-mandatory-functions"), "fmi2SetDebugLogging", "LogCategories", 0},
        {BROKEN("api-mandatory-functions--terminated-get"), "fmi2GetReal", "Terminated", 0},
        {BROKEN("api-mandatory-functions--stop-time"), "stopTimeDefined=fmi2False", "§2.1.6", 0},
        {BROKEN("api-mandatory-functions--status-query"), "fmi2GetStringStatus", "fmi2Discard", 1},
        {BROKEN("api-mandatory-functions--last-successful-time"), "fmi2LastSuccessfulTime",
         "within that step", 0},
        {BROKEN("eq-determinism--reset-error"), "fmi2Reset returned fmi2Error", "fmi2Terminate", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fmuc_result res;
        fmuc_verdict v = run_check(cases[i].fmu, c, &res, 0);
        if (v != FMUC_VERDICT_FAIL)
            dump(&res);
        cr_expect_eq(v, FMUC_VERDICT_FAIL, "%s: %s", cases[i].fmu, fmuc_verdict_name(v));
        cr_expect(any_message(&res, cases[i].call, cases[i].what), "%s names %s", cases[i].fmu,
                  cases[i].call);
        cr_expect_eq(res.letter_fail && !res.other_fail, cases[i].letter, "%s", cases[i].fmu);
        fmuc_result_clear(&res);
    }
    no_children_left();
}

Test(checks_dyn, messages_name_the_call_state_and_variable, .timeout = 60)
{
    fmuc_result res;
    run_check(BROKEN("api-illegal-calls"), &fmuc_check_api_illegal_calls, &res, 0);
    cr_assert(any_message(&res, "fmi2DoStep in state instantiated", "fmi2OK"));
    cJSON *probes = cJSON_GetObjectItem(res.evidence, "probes");
    cr_assert_gt(cJSON_GetArraySize(probes), 40);
    /* the variable check of the setters is not part of the state machine: still refused */
    int fixed = 0;
    cJSON *it;
    cJSON_ArrayForEach(it, probes) fixed += strstr(it->valuestring, "SetReal(fixed parameter) in "
                                                                    "stepComplete -> fmi2Error") != NULL;
    cr_assert_eq(fixed, 1);
    fmuc_result_clear(&res);

    run_check(BROKEN("api-bad-vr"), &fmuc_check_api_bad_vr, &res, 0);
    cr_assert(any_message(&res, "unknown Boolean valueReference", "fmi2OK"));
    cr_assert_eq(res.nmessages, 16, "8 probes per interface"); /* output/independent still refused */
    fmuc_result_clear(&res);

    run_check(BROKEN("cs-nominal-run--nan-output"), &fmuc_check_cs_nominal_run, &res, 0);
    cr_assert(any_message(&res, "output 'E' (vr 5)", "NaN"));
    cr_assert_eq(res.verdict, FMUC_VERDICT_WARN, "no FMI text forbids a NaN output as such");
    cr_assert(cJSON_IsArray(cJSON_GetObjectItem(res.evidence, "plots")));
    fmuc_result_clear(&res);

    run_check(BROKEN("cs-nominal-run"), &fmuc_check_cs_nominal_run, &res, 0);
    cr_assert(any_message(&res, "fmi2DoStep", "fmi2Error"));
    cr_assert_eq(res.verdict, FMUC_VERDICT_FAIL);
    cr_assert(cJSON_IsArray(cJSON_GetObjectItem(res.evidence, "plots")));
    cr_assert(cJSON_IsObject(cJSON_GetObjectItem(res.evidence, "final_values")));
    fmuc_result_clear(&res);

    run_check(BROKEN("me-nominal-run"), &fmuc_check_me_nominal_run, &res, 0);
    cr_assert(any_message(&res, "did not settle", "1000"));
    fmuc_result_clear(&res);

    run_check(BROKEN("api-instantiate"), &fmuc_check_api_instantiate, &res, 0);
    cr_assert(any_message(&res, "loggingOn=false", "loggingOn=false is not supported"));
    cr_assert(cJSON_IsArray(cJSON_GetObjectItem(res.evidence, "log")), "FMU log in the evidence");
    fmuc_result_clear(&res);
}

Test(checks_dyn, good_run_evidence_has_plots_inputs_and_calls, .timeout = 30)
{
    fmuc_result res;
    cr_assert_eq(run_check(GOOD, &fmuc_check_me_nominal_run, &res, 0), FMUC_VERDICT_PASS);
    cJSON *ev = res.evidence;
    cJSON *plots = cJSON_GetObjectItem(ev, "plots");
    cr_assert_geq(cJSON_GetArraySize(plots), 1);
    /* the nominal run keeps the inputs at their start values (no --input): like an importer */
    cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(ev, "inputs"), "source")->valuestring,
                     "start values (no excitation)");
    cJSON *calls = cJSON_GetObjectItem(ev, "calls");
    cr_assert(cJSON_GetObjectItem(cJSON_GetObjectItem(calls, "fmi2CompletedIntegratorStep"), "fmi2OK"));
    fmuc_result_clear(&res);
}

Test(checks_dyn, hostile_crash_in_dostep_is_error_with_signal, .timeout = 60)
{
    fmuc_result res;
    cr_assert_eq(run_check(HOSTILE("crash-in-dostep"), &fmuc_check_cs_nominal_run, &res, 0),
                 FMUC_VERDICT_ERROR);
    cr_assert(any_message(&res, "SIGSEGV", "fmi2DoStep"));
    fmuc_result_clear(&res);
    /* ME does not step: still fine */
    cr_assert_eq(run_check(HOSTILE("crash-in-dostep"), &fmuc_check_me_nominal_run, &res, 0),
                 FMUC_VERDICT_PASS);
    fmuc_result_clear(&res);
    no_children_left();
}

Test(checks_dyn, hostile_hang_times_out_with_phase, .timeout = 60)
{
    fmuc_result res;
    cr_assert_eq(run_check(HOSTILE("hang-in-dostep"), &fmuc_check_cs_nominal_run, &res, 1.0),
                 FMUC_VERDICT_ERROR);
    cr_assert(any_message(&res, "timed out", "step 1"));
    fmuc_result_clear(&res);
    no_children_left();
}

Test(checks_dyn, hostile_abort_exit_and_constructor, .timeout = 60)
{
    fmuc_result res;
    cr_assert_eq(run_check(HOSTILE("abort-in-instantiate"), &fmuc_check_api_instantiate, &res, 0),
                 FMUC_VERDICT_ERROR);
    cr_assert(any_message(&res, "SIGABRT", "fmi2Instantiate"));
    fmuc_result_clear(&res);
    cr_assert_eq(run_check(HOSTILE("exit-in-exit-init"), &fmuc_check_cs_nominal_run, &res, 0),
                 FMUC_VERDICT_ERROR);
    cr_assert(any_message(&res, "status 0", "fmi2ExitInitializationMode"));
    fmuc_result_clear(&res);
    /* api-illegal-calls: the worker died reaching Event Mode with legal calls, a phase every
     * probe of a later state needs (ERROR); the probes before it still ran */
    cr_assert_eq(run_check(HOSTILE("exit-in-exit-init"), &fmuc_check_api_illegal_calls, &res, 0),
                 FMUC_VERDICT_ERROR);
    cr_assert(any_message(&res, "died before probe", "eventMode"));
    cJSON *probes = cJSON_GetObjectItem(res.evidence, "probes");
    int refused = 0;
    cJSON *it;
    cJSON_ArrayForEach(it, probes) refused += strstr(it->valuestring, "-> fmi2Error") != NULL;
    cr_assert_gt(refused, 20, "the probes that need no initialization still ran");
    fmuc_result_clear(&res);
    cr_assert_eq(run_check(HOSTILE("ctor-crash"), &fmuc_check_api_guid, &res, 0), FMUC_VERDICT_ERROR);
    cr_assert(any_message(&res, "SIGSEGV", "dlopen"));
    fmuc_result_clear(&res);
    no_children_left();
}

static int orphans_alive(void)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d))) {
        char p[300], comm[64] = "";
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(p, sizeof p, "/proc/%s/comm", e->d_name);
        FILE *f = fopen(p, "r");
        if (!f)
            continue;
        if (fgets(comm, sizeof comm, f) && strncmp(comm, "fmuc-orphan", 11) == 0) {
            snprintf(p, sizeof p, "/proc/%s/stat", e->d_name);
            FILE *s = fopen(p, "r");
            char st = 0;
            if (s && fscanf(s, "%*d %*s %c", &st) == 1 && st != 'Z')
                n++;
            if (s)
                fclose(s);
        }
        fclose(f);
    }
    if (d)
        closedir(d);
    return n;
}

Test(checks_dyn, hostile_benign_behaviours_still_pass, .timeout = 60)
{
    fmuc_result res;
    cr_assert_eq(run_check(HOSTILE("orphan-child"), &fmuc_check_cs_nominal_run, &res, 0),
                 FMUC_VERDICT_PASS);
    fmuc_result_clear(&res);
    cr_assert_eq(orphans_alive(), 0, "the detached grandchild survived the worker");

    cr_assert_eq(run_check(HOSTILE("stdout-flood"), &fmuc_check_cs_nominal_run, &res, 0),
                 FMUC_VERDICT_PASS);
    cJSON *w = cJSON_GetObjectItem(res.evidence, "worker");
    cr_assert_geq(cJSON_GetObjectItem(w, "stdout_bytes")->valuedouble, 50e6);
    fmuc_result_clear(&res);

    cr_assert_eq(run_check(HOSTILE("logger-format"), &fmuc_check_me_nominal_run, &res, 0),
                 FMUC_VERDICT_PASS);
    cJSON *log0 = cJSON_GetArrayItem(cJSON_GetObjectItem(res.evidence, "log"), 0);
    cr_assert_str_eq(cJSON_GetObjectItem(log0, "message")->valuestring, "%s%s%n");
    fmuc_result_clear(&res);

    cr_assert_eq(run_check(HOSTILE("huge-alloc"), &fmuc_check_api_instantiate, &res, 0),
                 FMUC_VERDICT_PASS);
    fmuc_result_clear(&res);
    no_children_left();
}

/* --- the nominal runs shared between checks (shared_runs.c) --------------------------------- */

typedef struct shared_env {
    fmuc_fmu fmu;
    fmuc_options opts;
    fmuc_subject s;
} shared_env;

static void shared_open(shared_env *e, const char *path, double timeout)
{
    fmuc_diag d = {{0}, FMUC_OK};
    cr_assert_eq(fmuc_fmu_open(&e->fmu, path, NULL, NULL, &d), FMUC_OK, "%s: %s", path, d.msg);
    fmuc_options_init(&e->opts);
    if (timeout > 0)
        e->opts.timeout_s = timeout;
    double mult = strtod(fmuc_test_timeout_multiplier(), NULL);
    if (mult > 0)
        e->opts.timeout_multiplier = mult;
    e->s = (fmuc_subject){.fmu = &e->fmu, .opts = &e->opts, .shared = fmuc_shared_runs_new()};
    cr_assert(e->s.shared);
}

static void shared_close(shared_env *e)
{
    fmuc_shared_runs_free(e->s.shared);
    fmuc_fmu_close(&e->fmu);
}

static fmuc_verdict shared_check(shared_env *e, const fmuc_check *chk, fmuc_result *res)
{
    fmuc_result_init(res, chk->id, chk->title, chk->spec, chk->level);
    chk->run(&e->s, res);
    return res->verdict;
}

static double worker_count(const fmuc_result *res)
{
    const cJSON *w = cJSON_GetObjectItem(res->evidence, "worker");
    return w ? cJSON_GetNumberValue(cJSON_GetObjectItem(w, "workers")) : 0;
}

static const char *made_by(const fmuc_result *res, const char *iface)
{
    return cJSON_GetStringValue(
        cJSON_GetObjectItem(cJSON_GetObjectItem(res->evidence, "shared_runs"), iface));
}

Test(shared_runs, one_nominal_run_per_interface_judged_by_several_checks, .timeout = 60)
{
    shared_env e;
    shared_open(&e, GOOD, 0);
    fmuc_result st, cs, me, cis;
    cr_assert_eq(shared_check(&e, &fmuc_check_api_status_codes, &st), FMUC_VERDICT_PASS);
    cr_expect_eq(worker_count(&st), 2, "api-status-codes made the CS and the ME run");
    cr_assert_eq(shared_check(&e, &fmuc_check_cs_nominal_run, &cs), FMUC_VERDICT_PASS);
    cr_assert_eq(shared_check(&e, &fmuc_check_me_nominal_run, &me), FMUC_VERDICT_PASS);
    cr_assert_eq(shared_check(&e, &fmuc_check_me_completed_integrator_step, &cis),
                 FMUC_VERDICT_PASS);
    /* the nominal checks judged the same runs without a worker of their own */
    cr_expect_eq(worker_count(&cs), 0);
    cr_expect_eq(worker_count(&me), 0);
    cr_expect_str_eq(made_by(&cs, "CoSimulation"), "api-status-codes");
    cr_expect_str_eq(made_by(&me, "ModelExchange"), "api-status-codes");
    cr_expect_str_eq(made_by(&cis, "ModelExchange"), "api-status-codes");
    cr_expect_eq(worker_count(&cis), 1, "only its own probe worker");
    /* and judged them: the run's figures are in each one's evidence */
    double steps = cJSON_GetNumberValue(
        cJSON_GetObjectItem(cJSON_GetObjectItem(me.evidence, "simulation"), "steps"));
    cr_expect_gt(steps, 0);
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(cis.evidence, "accepted_steps")), steps);
    cr_expect(cJSON_GetObjectItem(cs.evidence, "final_values"));
    fmuc_result_clear(&st);
    fmuc_result_clear(&cs);
    fmuc_result_clear(&me);
    fmuc_result_clear(&cis);
    shared_close(&e);
    no_children_left();
}

/* A broken shared CS run: api-status-codes makes it and reports the error (message with a and
 * b); cs-nominal-run is not-applicable naming it, without a worker of its own: one error, not
 * one per check (issue 16). */
static void shared_error(const char *path, double timeout, const char *a, const char *b,
                         const char *kind)
{
    shared_env e;
    shared_open(&e, path, timeout);
    fmuc_result st, cs;
    cr_assert_eq(shared_check(&e, &fmuc_check_api_status_codes, &st), FMUC_VERDICT_ERROR);
    cr_assert(any_message(&st, a, b));
    cr_assert_eq(shared_check(&e, &fmuc_check_cs_nominal_run, &cs), FMUC_VERDICT_NA);
    cr_assert(any_message(&cs, "api-status-codes", NULL), "names the check that saw it");
    cr_expect_eq(worker_count(&cs), 0, "the broken run is not made again");
    const char *u = fmuc_shared_unusable(&e.s, FMUC_IFACE_CS, FMUC_UNUSABLE_RUN);
    cr_assert(u && strstr(u, "api-status-codes") && strstr(u, "fmi2DoStep"), "%s", u ? u : "-");
    cr_expect_null(fmuc_shared_unusable(&e.s, FMUC_IFACE_CS, FMUC_UNUSABLE_INSTANCE),
                   "instantiation and initialization still work");
    /* a probe that dies the same way in the same function learns nothing new: matched by the
     * kind of death and the function's name, as data (fmuc_worker_death_of) */
    int hang = strcmp(kind, "a hang") == 0;
    fmuc_worker_outcome o;
    memset(&o, 0, sizeof o);
    o.end = hang ? FMUC_WORKER_TIMEOUT : FMUC_WORKER_CRASHED;
    o.signal = hang ? 0 : SIGSEGV;
    o.call_in_progress = 1;
    snprintf(o.last_call, sizeof o.last_call, "fmi2DoStep(0x5, 0.5, 0.1)");
    fmuc_worker_death d;
    fmuc_worker_death_of(&o, &d);
    cr_expect_str_eq(d.fn, "fmi2DoStep");
    const char *died = fmuc_shared_nominal_died_in(&e.s, FMUC_IFACE_CS, &d);
    cr_expect(died && strstr(died, "fmi2DoStep("), "%s", died ? died : "-");
    if (hang) { /* a later worker that stopped before the call */
        o.hung_before = 1;
        fmuc_worker_death_of(&o, &d);
        cr_expect_not_null(fmuc_shared_nominal_died_in(&e.s, FMUC_IFACE_CS, &d));
        o.hung_before = 0;
    }
    fmuc_worker_outcome other = o; /* another kind of death */
    other.end = hang ? FMUC_WORKER_CRASHED : FMUC_WORKER_TIMEOUT;
    other.signal = hang ? SIGSEGV : 0;
    fmuc_worker_death_of(&other, &d);
    cr_expect_null(fmuc_shared_nominal_died_in(&e.s, FMUC_IFACE_CS, &d), "another kind of death");
    if (!hang) { /* another signal */
        other = o;
        other.signal = SIGABRT;
        fmuc_worker_death_of(&other, &d);
        cr_expect_null(fmuc_shared_nominal_died_in(&e.s, FMUC_IFACE_CS, &d), "another signal");
    }
    const char *calls[] = {"fmi2GetReal(0x5)", "fmi2Do(0x5)"};
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        other = o;
        snprintf(other.last_call, sizeof other.last_call, "%s", calls[i]);
        fmuc_worker_death_of(&other, &d);
        cr_expect_null(fmuc_shared_nominal_died_in(&e.s, FMUC_IFACE_CS, &d), "%s", calls[i]);
    }
    other = o;
    other.call_in_progress = 0; /* between calls: "... in phase 'step 1'" */
    fmuc_worker_death_of(&other, &d);
    cr_expect_null(fmuc_shared_nominal_died_in(&e.s, FMUC_IFACE_CS, &d),
                   "a death between calls names no function");
    fmuc_worker_death_of(&o, &d);
    cr_expect_null(fmuc_shared_nominal_died_in(&e.s, FMUC_IFACE_ME, &d),
                   "the other interface's nominal run did not die");
    fmuc_result_clear(&st);
    fmuc_result_clear(&cs);
    shared_close(&e);
    no_children_left();
}

Test(shared_runs, a_crash_in_the_shared_run_is_one_error, .timeout = 60)
{
    shared_error(HOSTILE("crash-in-dostep"), 0, "SIGSEGV", "fmi2DoStep", "SIGSEGV");
}

/* and a hang costs one timeout, not one per check */
Test(shared_runs, a_hang_costs_one_timeout, .timeout = 60)
{
    shared_error(HOSTILE("hang-in-dostep"), 1.0, "timed out", "step 1", "a hang");
}

Test(shared_runs, without_a_cache_each_check_makes_its_own, .timeout = 60)
{
    fmuc_result res;
    cr_assert_eq(run_check(GOOD, &fmuc_check_cs_nominal_run, &res, 0), FMUC_VERDICT_PASS);
    cr_expect_eq(worker_count(&res), 1);
    cr_expect_null(cJSON_GetObjectItem(res.evidence, "shared_runs"));
    fmuc_result_clear(&res);
}

/* ---- verdict semantics through the runner (issue 16) ----------------------------------------- */

static const char *const runner_only[] = {"load-dlopen", "api-*", "cs-nominal-run", "me-nominal-run",
                                          "me-events"};

/* All api-*, the nominal runs and me-events on path through the runner: the report in *rep. */
static void run_runner(const char *path, fmuc_report *rep)
{
    fmuc_test_run_checks(path, runner_only, sizeof runner_only / sizeof runner_only[0], rep);
}

Test(verdicts, a_crash_in_initialization_is_one_error_and_the_rest_not_applicable, .timeout = 120)
{
    fmuc_report rep;
    run_runner(HOSTILE("crash-in-enter-init"), &rep);
    size_t errors = 0;
    for (size_t i = 0; i < rep.nresults; i++) {
        const fmuc_result *r = &rep.results[i];
        errors += r->verdict == FMUC_VERDICT_ERROR;
        cr_expect(r->verdict != FMUC_VERDICT_FAIL, "%s failed", r->id);
    }
    cr_expect_eq(errors, 1, "one error, not one per check");
    /* the first check that initializes saw it */
    const fmuc_result *bad_vr = fmuc_test_result_of(&rep, "api-bad-vr");
    cr_expect_eq(bad_vr->verdict, FMUC_VERDICT_ERROR);
    cr_expect(any_message(bad_vr, "SIGSEGV", "fmi2EnterInitializationMode"));
    /* the checks before it do not initialize: they pass */
    cr_expect_eq(fmuc_test_result_of(&rep, "api-instantiate")->verdict, FMUC_VERDICT_PASS);
    cr_expect_eq(fmuc_test_result_of(&rep, "api-free-instance-null")->verdict, FMUC_VERDICT_PASS);
    /* the later ones are not applicable, naming the interface and the check that saw it */
    const char *later[] = {"api-illegal-calls", "api-status-codes", "cs-nominal-run",
                           "me-nominal-run", "me-events"};
    for (size_t i = 0; i < sizeof later / sizeof later[0]; i++) {
        const fmuc_result *r = fmuc_test_result_of(&rep, later[i]);
        cr_expect_eq(r->verdict, FMUC_VERDICT_NA, "%s: %s", later[i], fmuc_verdict_name(r->verdict));
        cr_expect(any_message(r, "interface is unusable", "(seen by check api-bad-vr)"), "%s",
                  later[i]);
    }
    fmuc_report_free(&rep);
    no_children_left();
}

/* The "session" an interface of api-sandbox or api-resources-released was judged on (evidence
 * {"<interface>": {"session": ...}}), or NULL. */
static const char *session_of(const fmuc_result *r, const char *iface)
{
    const cJSON *e = r->evidence ? cJSON_GetObjectItemCaseSensitive(r->evidence, iface) : NULL;
    return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "session"));
}

/* api-sandbox and api-resources-released judge the nominal run of an interface that its worker
 * observed (a whole session, no instance start of their own) and find there what their own
 * short session finds: the fixtures' writes and network use outside the sandbox, a leaked
 * block. A thread still running right after the free sends api-resources-released to a
 * session of its own (the nominal run does not wait for threads). Alone, without the nominal
 * runs, they make their own session, with the same verdicts. */
Test(verdicts, sandbox_and_resources_judge_the_observed_nominal_run, .timeout = 180)
{
    static const char *const only[] = {"load-dlopen", "api-sandbox", "api-resources-released",
                                       "cs-nominal-run", "me-nominal-run"};
    static const struct {
        const char *fmu, *check;
        fmuc_verdict v;
        const char *session; /* through the runner */
    } cases[] = {
        {BROKEN("api-sandbox"), "api-sandbox", FMUC_VERDICT_WARN, "the nominal CoSimulation run"},
        {BROKEN("api-sandbox--tcp"), "api-sandbox", FMUC_VERDICT_WARN,
         "the nominal CoSimulation run"},
        {BROKEN("api-resources-released"), "api-resources-released", FMUC_VERDICT_WARN,
         "the nominal CoSimulation run"},
        {BROKEN("api-resources-released--thread"), "api-resources-released", FMUC_VERDICT_WARN,
         "a session of its own"},
        {GOOD, "api-sandbox", FMUC_VERDICT_PASS, "the nominal CoSimulation run"},
        {GOOD, "api-resources-released", FMUC_VERDICT_PASS, "the nominal CoSimulation run"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fmuc_report rep;
        fmuc_test_run_checks(cases[i].fmu, only, sizeof only / sizeof only[0], &rep);
        const fmuc_result *r = fmuc_test_result_of(&rep, cases[i].check);
        if (r->verdict != cases[i].v)
            dump(r);
        cr_expect_eq(r->verdict, cases[i].v, "%s on %s: %s", cases[i].check, cases[i].fmu,
                     fmuc_verdict_name(r->verdict));
        const char *sess = session_of(r, "CoSimulation");
        cr_expect(sess && strstr(sess, cases[i].session), "%s on %s: session %s",
                  cases[i].check, cases[i].fmu, sess ? sess : "(none)");
        fmuc_report_free(&rep);
        /* alone: a session of its own */
        fmuc_result res;
        const fmuc_check *c = fmuc_check_find(cases[i].check);
        cr_assert(c);
        cr_expect_eq(run_check(cases[i].fmu, c, &res, 0), cases[i].v, "%s alone on %s: %s",
                     cases[i].check, cases[i].fmu, fmuc_verdict_name(res.verdict));
        sess = session_of(&res, "CoSimulation");
        cr_expect(sess && strstr(sess, "a session of its own"), "%s alone on %s: session %s",
                  cases[i].check, cases[i].fmu, sess ? sess : "(none)");
        fmuc_result_clear(&res);
    }
    no_children_left();
}

Test(verdicts, a_crash_in_the_nominal_run_spares_the_checks_that_do_not_simulate, .timeout = 120)
{
    fmuc_report rep;
    static const char *const with_eq[] = {"load-dlopen", "api-*", "cs-nominal-run",
                                          "me-nominal-run", "me-events", "eq-*"};
    fmuc_test_run_checks(HOSTILE("crash-in-dostep"), with_eq, sizeof with_eq / sizeof with_eq[0],
                         &rep);
    /* the CS nominal run crashed in fmi2DoStep: one error on the check that made it */
    cr_expect_eq(fmuc_test_result_of(&rep, "api-status-codes")->verdict, FMUC_VERDICT_ERROR);
    const fmuc_result *cs = fmuc_test_result_of(&rep, "cs-nominal-run");
    cr_expect_eq(cs->verdict, FMUC_VERDICT_NA);
    cr_expect(any_message(cs, "CoSimulation interface is unusable", "api-status-codes"));
    /* instantiation and initialization work: the probes still run and pass; ME is untouched */
    cr_expect_eq(fmuc_test_result_of(&rep, "api-bad-vr")->verdict, FMUC_VERDICT_PASS);
    cr_expect_eq(fmuc_test_result_of(&rep, "api-illegal-calls")->verdict, FMUC_VERDICT_PASS);
    cr_expect_eq(fmuc_test_result_of(&rep, "me-nominal-run")->verdict, FMUC_VERDICT_PASS);
    /* a check of both interfaces skips the unusable one with a note */
    const fmuc_result *rr = fmuc_test_result_of(&rep, "api-resources-released");
    cr_expect_eq(rr->verdict, FMUC_VERDICT_PASS);
    cr_expect(any_message(rr, "CoSimulation not probed", "api-status-codes"));
    /* so do the eq-* checks: they judge ME and name the check that saw CS crash */
    const char *eq[] = {"eq-determinism", "eq-fmu-state", "eq-serialize", "eq-serialize-corrupt"};
    for (size_t i = 0; i < sizeof eq / sizeof eq[0]; i++) {
        const fmuc_result *r = fmuc_test_result_of(&rep, eq[i]);
        cr_expect_eq(r->verdict, FMUC_VERDICT_PASS, "%s: %s", eq[i], fmuc_verdict_name(r->verdict));
        cr_expect(any_message(r, "CoSimulation interface is unusable", "(seen by check "
                                                                        "api-status-codes)"),
                  "%s", eq[i]);
    }
    /* the crash is one error, on the check that saw it */
    for (size_t i = 0; i < rep.nresults; i++)
        if (strcmp(rep.results[i].id, "api-status-codes") != 0)
            cr_expect_neq(rep.results[i].verdict, FMUC_VERDICT_ERROR, "%s", rep.results[i].id);
    fmuc_report_free(&rep);
    no_children_left();
}

/* FMI 3.0 BouncingBall whose every fmi3UpdateDiscreteStates crashes: the ME nominal run's check
 * has the one error; the probes and checks that die in that legal call on their way are not
 * errors of their own but name the nominal run's death. */
Test(verdicts, a_legal_call_that_ended_the_nominal_run_is_no_error_of_a_probe, .timeout = 240)
{
    fmuc_report rep;
    run_runner(HOSTILE("crash-in-update-discrete-states--fmi3-first"), &rep);
    const fmuc_result *sc = fmuc_test_result_of(&rep, "api-status-codes");
    cr_expect_eq(sc->verdict, FMUC_VERDICT_ERROR);
    cr_expect(any_message(sc, "SIGSEGV", "fmi3UpdateDiscreteStates"));
    for (size_t i = 0; i < rep.nresults; i++)
        if (strcmp(rep.results[i].id, "api-status-codes") != 0)
            cr_expect(rep.results[i].verdict != FMUC_VERDICT_ERROR &&
                          rep.results[i].verdict != FMUC_VERDICT_FAIL,
                      "%s: %s", rep.results[i].id, fmuc_verdict_name(rep.results[i].verdict));
    /* the state-machine probes that reach Event Mode are not run (each tried alone once) */
    const fmuc_result *ic = fmuc_test_result_of(&rep, "api-illegal-calls-fmi3");
    cr_expect(any_message(ic, "not run: reaching its state ended the worker with SIGSEGV in "
                              "fmi3UpdateDiscreteStates()",
                          "in the function in which the nominal run ended too"));
    /* a check with one worker does not judge the interface, naming the same; what the other
     * interface showed decides its verdict */
    const fmuc_result *bb = fmuc_test_result_of(&rep, "api-buffer-bounds");
    cr_expect(any_message(bb, "ModelExchange: not judged: the worker ended with SIGSEGV in "
                              "fmi3UpdateDiscreteStates()",
                          "in which the nominal run ended too"));
    cr_expect_eq(bb->verdict, FMUC_VERDICT_PASS, "%s", fmuc_verdict_name(bb->verdict));
    fmuc_report_free(&rep);
    no_children_left();
}

Test(verdicts, a_crash_while_loading_fails_load_dlopen_once, .timeout = 120)
{
    fmuc_report rep;
    run_runner(HOSTILE("ctor-crash"), &rep);
    cr_expect_eq(fmuc_test_result_of(&rep, "load-dlopen")->verdict, FMUC_VERDICT_FAIL);
    for (size_t i = 0; i < rep.nresults; i++) {
        const fmuc_result *r = &rep.results[i];
        const fmuc_check *c = fmuc_check_find(r->id);
        if (strcmp(r->id, "load-dlopen") == 0 || (c && !(c->versions & FMUC_V2)))
            continue; /* another version's check: not applicable to this FMI 2.0 FMU anyway */
        cr_expect_eq(r->verdict, FMUC_VERDICT_NA, "%s: %s", r->id, fmuc_verdict_name(r->verdict));
        cr_expect(any_message(r, "(seen by check load-dlopen)", NULL), "%s", r->id);
    }
    fmuc_report_free(&rep);
    no_children_left();
}

Test(verdicts, a_crash_in_the_probed_call_is_the_checks_result, .timeout = 120)
{
    fmuc_result res;
    /* §2.1.2: a wrong value reference has to give fmi2Error; a crash instead violates it */
    cr_assert_eq(run_check(HOSTILE("crash-on-unknown-vr"), &fmuc_check_api_bad_vr, &res, 0),
                 FMUC_VERDICT_FAIL);
    cr_assert(any_message(&res, "must return fmi2Error", "SIGSEGV"));
    fmuc_result_clear(&res);
    /* a call outside the state machine: undefined behaviour, a crash there warns */
    cr_assert_eq(run_check(HOSTILE("crash-on-illegal-call"), &fmuc_check_api_illegal_calls, &res, 0),
                 FMUC_VERDICT_WARN);
    cr_assert(any_message(&res, "should return fmi2Error", "SIGSEGV"));
    fmuc_result_clear(&res);
    /* the two defects are specific */
    cr_assert_eq(run_check(HOSTILE("crash-on-illegal-call"), &fmuc_check_api_bad_vr, &res, 0),
                 FMUC_VERDICT_PASS);
    fmuc_result_clear(&res);
    cr_assert_eq(run_check(HOSTILE("crash-on-unknown-vr"), &fmuc_check_api_illegal_calls, &res, 0),
                 FMUC_VERDICT_PASS);
    fmuc_result_clear(&res);
    no_children_left();
}

/* api-mandatory-functions on FMI 3.0 and 1.0 (and the 2.0 terminated status): each version's own
 * functions are probed and named. The fixtures (3.0: fmi3GetFloat64 in the Terminated state; 1.0
 * ME: fmiGetReal after fmiTerminate; 2.0: fmi2GetBooleanStatus(fmi2Terminated) after a discarded
 * step) and variants with the defect in another function and interface (3.0:
 * fmi3SetDebugLogging with nCategories=0; 1.0 CS: fmiSetDebugLogging) fail; the project's FMI 3.0
 * and 1.0 FMUs pass. */
Test(checks_dyn, mandatory_functions_fmi3_fmi1_and_terminated_status, .timeout = 240)
{
    const fmuc_check *c = &fmuc_check_api_mandatory_functions;
    cr_assert(c->versions & FMUC_V1 && c->versions & FMUC_V3);
    static const char *const good[] = {
        FMUC_FMU_DIR "/fmi3/good/BouncingBall.fmu", FMUC_FMU_DIR "/fmi1/good/cs/BouncingBall.fmu",
        FMUC_FMU_DIR "/fmi1/good/cs/SpringMassDamper.fmu", FMUC_FMU_DIR "/fmi1/good/me/Stair.fmu"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        expect(good[i], c, FMUC_VERDICT_PASS);
    static const struct {
        const char *fmu, *call, *what, *foreign; /* foreign: a prefix no message may name */
    } cases[] = {
        {BROKEN("api-mandatory-functions--fmi3"), "fmi3GetFloat64", "Terminated", "fmi2"},
        {BROKEN("api-mandatory-functions--fmi3-debug-logging"), "fmi3SetDebugLogging",
         "nCategories=0", "fmi2"},
        {BROKEN("api-mandatory-functions--fmi1"), "fmiGetReal", "after fmiTerminate", "fmi2"},
        {BROKEN("api-mandatory-functions--fmi1-cs-debug-logging"), "fmiSetDebugLogging",
         "fmiError", "fmi2"},
        {BROKEN("api-mandatory-functions--terminated-status"),
         "fmi2GetBooleanStatus(fmi2Terminated)", "returned fmi2Error", "fmi3"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fmuc_result res;
        fmuc_verdict v = run_check(cases[i].fmu, c, &res, 0);
        if (v != FMUC_VERDICT_FAIL)
            dump(&res);
        cr_expect_eq(v, FMUC_VERDICT_FAIL, "%s: %s", cases[i].fmu, fmuc_verdict_name(v));
        cr_expect(any_message(&res, cases[i].call, cases[i].what), "%s names %s", cases[i].fmu,
                  cases[i].call);
        cr_expect(!any_message(&res, cases[i].foreign, NULL), "%s: a message names %s functions",
                  cases[i].fmu, cases[i].foreign);
        fmuc_result_clear(&res);
    }
    no_children_left();
}

/* api-logging (FMI 1.0, 2.0, 3.0): the fixtures (2.0 a NULL componentEnvironment, 3.0 a NULL
 * instanceEnvironment, 1.0 another instance name) and a variant that differs from the 2.0
 * fixture (another instance name instead of the environment) fail; the good FMUs of each version,
 * the vdsim FMU and the Reference-FMUs pass: they log the refused unknown valueReference with the
 * importer's environment and instance name. */
Test(checks_dyn, api_logging_fixtures_fail_good_fmus_pass, .timeout = 120)
{
    extern const fmuc_check fmuc_check_api_logging;
    const fmuc_check *c = &fmuc_check_api_logging;
    fmuc_result res;
    static const char *const broken[] = {"api-logging", "api-logging--name", "api-logging--fmi3",
                                          "api-logging--fmi1"};
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        char p[4096];
        snprintf(p, sizeof p, "%s/broken/%s.fmu", FMUC_FMU_DIR, broken[i]);
        expect(p, c, FMUC_VERDICT_FAIL);
    }
    cr_expect_eq(run_check(BROKEN("api-logging"), c, &res, 0), FMUC_VERDICT_FAIL);
    cr_expect(any_message(&res, "componentEnvironment", "logger call"));
    fmuc_result_clear(&res);
    cr_expect_eq(run_check(BROKEN("api-logging--name"), c, &res, 0), FMUC_VERDICT_FAIL);
    cr_expect(any_message(&res, "\"model\"", "fmucheck-logging"));
    fmuc_result_clear(&res);
    static const char *const good[] = {
        GOOD, FMUC_FMU_DIR "/vdsim_l2.fmu", FMUC_FMU_DIR "/fmi3/good/BouncingBall.fmu",
        FMUC_FMU_DIR "/fmi1/good/cs/BouncingBall.fmu", FMUC_FMU_DIR "/fmi1/good/me/Stair.fmu"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        expect(good[i], c, FMUC_VERDICT_PASS);
    static const char *const ref[] = {"fmi2/BouncingBall.fmu", "fmi3/BouncingBall.fmu",
                                      "fmi1/me/VanDerPol.fmu", "fmi1/cs/Feedthrough.fmu"};
    for (size_t i = 0; i < sizeof ref / sizeof ref[0]; i++) {
        char p[4096];
        snprintf(p, sizeof p, "%s/reference-fmus/%s", FMUC_SHARED_DIR, ref[i]);
        if (access(p, R_OK) == 0)
            expect(p, c, FMUC_VERDICT_PASS);
    }
}

/* api-stop-time (FMI 2.0.4 §2.1.6): the glue's SpringMassDamper refuses fmi2DoStep and fmi2SetTime
 * past a defined stopTime; the fixture (FMUC_DEFECT_IGNORE_STOP_TIME) accepts both and fails in
 * both interfaces. */
Test(checks_dyn, stop_time_past_stop_is_refused, .timeout = 300)
{
    fmuc_result res;
    cr_expect_eq(run_check(GOOD, &fmuc_check_api_stop_time, &res, 0), FMUC_VERDICT_PASS);
    cr_expect(any_message(&res, "CoSimulation: fmi2DoStep", "returned fmi2Error"));
    fmuc_result_clear(&res);
    cr_expect_eq(run_check(BROKEN("api-stop-time"), &fmuc_check_api_stop_time, &res, 0),
                 FMUC_VERDICT_FAIL);
    cr_expect(any_message(&res, "CoSimulation: with stopTime", "returned fmi2OK (expected fmi2Error)"));
    cr_expect(any_message(&res, "ModelExchange: with stopTime", "fmi2SetTime("));
    fmuc_result_clear(&res);
}

/* api-start-values (FMI 2.0.4 §2.2.7): SpringMassDamper has the start values of its XML in
 * Initialization Mode; the fixture (FMUC_DEFECT_START_VALUE_DIFFERS) starts parameter m from
 * 2.526 instead of 2.5 and keeps it after initialization: a failure in every profile, naming
 * the variable, its line, both values and both interfaces. */
Test(checks_dyn, start_values_are_the_xml_start_values, .timeout = 300)
{
    fmuc_result res;
    cr_expect_eq(run_check(GOOD, &fmuc_check_api_start_values, &res, 0), FMUC_VERDICT_PASS);
    cr_expect(any_message(&res, "ModelExchange:", "compared with their start values, 0 differ"));
    cr_expect(any_message(&res, "CoSimulation:", "compared with their start values, 0 differ"));
    fmuc_result_clear(&res);
    cr_expect_eq(run_check(BROKEN("api-start-values"), &fmuc_check_api_start_values, &res, 0),
                 FMUC_VERDICT_FAIL);
    cr_expect(any_message(&res, "CoSimulation: parameter 'm' (valueReference",
                          "returned 2.5259999999999998, but modelDescription.xml gives the start "
                          "value 2.5 (initial = exact"));
    cr_expect(any_message(&res, "ModelExchange: parameter 'm'",
                          "after fmi2ExitInitializationMode it is 2.5259999999999998: the model "
                          "runs with another value"));
    cr_expect(!res.letter_fail, "a value that stays wrong is no letter-only failure");
    fmuc_result_clear(&res);
}

/* api-variable-access (FMI 2.0.4 §2.1.7, §2.1.2): SpringMassDamper keeps the values set in
 * Initialization Mode (its parameters nudged by 1e-6); the fixture (FMUC_DEFECT_SET_NOT_KEPT_IN_INIT)
 * acknowledges a Real parameter set there and drops it; Stair with a String parameter whose set
 * keeps the caller's pointer (--string) reads back the probe's overwritten buffer. */
Test(checks_dyn, variable_access_set_values_are_kept_and_strings_copied, .timeout = 300)
{
    fmuc_result res;
    cr_expect_eq(run_check(GOOD, &fmuc_check_api_variable_access, &res, 0), FMUC_VERDICT_PASS);
    cr_expect(any_message(&res, "CoSimulation: 6 value(s) set and read back", "0 differ"));
    fmuc_result_clear(&res);
    cr_expect_eq(run_check(BROKEN("api-variable-access"), &fmuc_check_api_variable_access, &res, 0),
                 FMUC_VERDICT_FAIL);
    cr_expect(any_message(&res, "ModelExchange: parameter 'm' (valueReference 7, line 73): "
                                "fmi2SetReal set 2.5000024999999999 in Initialization Mode (fmi2OK)",
                          "fmi2GetReal then returned 2.5"));
    fmuc_result_clear(&res);
    cr_expect_eq(run_check(BROKEN("api-variable-access--string"), &fmuc_check_api_variable_access,
                           &res, 0),
                 FMUC_VERDICT_FAIL);
    cr_expect(any_message(&res, "CoSimulation: parameter 'label'",
                          "fmi2GetString then returned \"XXXXX\": the bytes of the probe's buffer, "
                          "overwritten after the set: the FMU kept the pointer"));
    fmuc_result_clear(&res);
}

/* The value helpers behind api-start-values and api-variable-access: UTF-8 validation (overlong
 * forms, surrogates, code points past U+10FFFF and truncated sequences refused) and hexBinary. */
Test(checks_dyn, value_helpers_utf8_and_hex)
{
    cr_expect(apiu_utf8_valid(""));
    cr_expect(apiu_utf8_valid("Set me! \xc3\xa4\xe2\x82\xac\xf0\x9f\x98\x80"));
    cr_expect(!apiu_utf8_valid("\xc0\xaf"), "overlong");
    cr_expect(!apiu_utf8_valid("\xed\xa0\x80"), "surrogate");
    cr_expect(!apiu_utf8_valid("\xf4\x90\x80\x80"), "past U+10FFFF");
    cr_expect(!apiu_utf8_valid("ab\xe2\x82"), "truncated");
    cr_expect(!apiu_utf8_valid("\xa9 1999"), "ISO-8859-1");
    uint8_t b[4];
    cr_expect_eq(apiu_hex_decode(" 666f6F ", b, sizeof b), 3);
    cr_expect(b[0] == 'f' && b[1] == 'o' && b[2] == 'o');
    cr_expect_eq(apiu_hex_decode("", b, sizeof b), 0);
    cr_expect_eq(apiu_hex_decode("abc", b, sizeof b), -1, "odd length");
    cr_expect_eq(apiu_hex_decode("zz", b, sizeof b), -1, "no hex digit");
    cr_expect_eq(apiu_hex_decode("0102030405", b, sizeof b), -1, "does not fit");
    cr_expect_eq(apiu_hex_decode("0102030405", NULL, 0), 5, "counted");
}

/* api-start-values, the letter-only case: BouncingBall 2.0 whose binary applies its Real
 * parameters' start values only in fmi2ExitInitializationMode (FMUC_DEFECT_START_VALUES_LATE)
 * reads 0 in Initialization Mode but has the start values afterwards: every failure is
 * letter-only (standard fail, interop warn). */
Test(checks_dyn, start_values_applied_late_are_letter_only, .timeout = 300)
{
    fmuc_result res;
    cr_expect_eq(run_check(BROKEN("api-start-values--late"), &fmuc_check_api_start_values, &res, 0),
                 FMUC_VERDICT_FAIL);
    cr_expect(any_message(&res, "ModelExchange: parameter 'g'",
                          "returned 0, but modelDescription.xml gives the start value -9.81"));
    cr_expect(any_message(&res, "CoSimulation: parameter 'v_min'",
                          "after fmi2ExitInitializationMode it has the start value"));
    cr_expect(res.letter_fail && !res.other_fail, "only letter failures");
    fmuc_result_clear(&res);
}
