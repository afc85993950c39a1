/* FMI 3.0 Scheduled Execution (issue 19): the harness loads the ScheduledExecution library of an
 * SE-only FMU (the load-* checks judge it), the checks that drive Model Exchange or
 * Co-Simulation say why they do not apply, and se-nominal-run activates the model partitions on
 * the clocks' schedule: the Reference-FMU Clocks 3.0 of ../shared (periodic, triggered and
 * countdown input clocks, an output clock, lock/unlock preemption) passes with the activations
 * its own schedule comment lists. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "runner_test_util.h"

#ifndef FMUC_SHARED_DIR
#define FMUC_SHARED_DIR FMUC_SOURCE_DIR "/../shared"
#endif
#define CLOCKS_FMU FMUC_SHARED_DIR "/reference-fmus/fmi3/Clocks.fmu"

static const char *const se_only[] = {"load-dlopen",    "load-exports",   "load-version",
                                      "api-instantiate", "api-guid",      "api-bad-vr",
                                      "api-status-codes",
                                      "api-illegal-calls-fmi3", "api-free-instance-null",
                                      "cs-nominal-run",  "se-nominal-run"};

/* the selected checks on path (an SE-only FMU) through the runner: the report in *rep */
static void run_runner(const char *path, fmuc_report *rep)
{
    fmuc_fmu fmu;
    fmuc_diag d = {{0}, FMUC_OK};
    cr_assert_eq(fmuc_fmu_open(&fmu, path, NULL, NULL, &d), FMUC_OK, "%s: %s", path, d.msg);
    cr_assert_not_null(fmu.lib_path_se, "%s: the ScheduledExecution library was extracted", path);
    cr_expect_null(fmu.lib_path_me);
    cr_expect_null(fmu.lib_path_cs);
    fmuc_fmu_close(&fmu);
    fmuc_test_run_checks(path, se_only, sizeof se_only / sizeof se_only[0], rep);
}

static double schedule_number(const fmuc_result *r, const char *group, const char *key)
{
    const cJSON *se = cJSON_GetObjectItemCaseSensitive(r->evidence, "ScheduledExecution");
    const cJSON *sc = cJSON_GetObjectItemCaseSensitive(se, "schedule");
    const cJSON *g = group ? cJSON_GetObjectItemCaseSensitive(sc, group) : sc;
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(g, key);
    cr_assert(cJSON_IsNumber(n), "evidence ScheduledExecution.schedule.%s%s%s is a number",
              group ? group : "", group ? "." : "", key);
    return n->valuedouble;
}

static int message_has(const fmuc_result *r, const char *text)
{
    for (size_t i = 0; i < r->nmessages; i++)
        if (strstr(r->messages[i], text))
            return 1;
    return 0;
}

/* The broken SE fixture fails check id under the standard profile and, with interop_too, under
 * the default (interop) profile as well (a check downgraded there only warns), with a message
 * containing text. */
static void expect_fixture_fails(const char *fixture, const char *id, int interop_too,
                                 const char *text)
{
    char path[1024];
    fmuc_report rep;
    snprintf(path, sizeof path, "%s/broken/%s.fmu", FMUC_FMU_DIR, fixture);
    run_runner(path, &rep);
    const fmuc_result *r = fmuc_test_result_of(&rep, id);
    cr_expect_eq(r->verdicts[FMUC_PROFILE_STANDARD], FMUC_VERDICT_FAIL, "%s fails %s", fixture, id);
    if (interop_too)
        cr_expect_eq(r->verdict, FMUC_VERDICT_FAIL, "%s fails %s (interop)", fixture, id);
    cr_expect(message_has(r, text), "%s: a message of %s contains \"%s\"", fixture, id, text);
    fmuc_report_free(&rep);
}

/* The evidence's "probes" list of r has the line. */
static int probe_has(const fmuc_result *r, const char *line)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(r->evidence, "probes"))
    {
        if (strcmp(cJSON_GetStringValue(p), line) == 0)
            return 1;
    }
    return 0;
}

/* Clocks 3.0 (stopTime 10, stepSize 1): inClock1 constant periodic 1 s -> t = 0..10 (11);
 * inClock2 triggered -> the probe's grid points 1, 4, 7, 10 (4); inClock3 countdown, announced
 * by the partition of inClock1 at t = 4 with interval 0 -> once at t = 4; outClock ticks when
 * the total tick count is a multiple of 5. Every lock is released. */
Test(se, reference_clocks_runs_its_partitions_on_schedule, .timeout = 120)
{
    if (access(CLOCKS_FMU, R_OK) != 0)
        cr_skip_test("%s not there", CLOCKS_FMU);
    fmuc_report rep;
    run_runner(CLOCKS_FMU, &rep);
    const fmuc_result *r = fmuc_test_result_of(&rep, "se-nominal-run");
    for (size_t i = 0; i < r->nmessages; i++)
        cr_log_info("se-nominal-run: %s", r->messages[i]);
    cr_expect_eq(r->verdict, FMUC_VERDICT_PASS);
    cr_expect_eq(schedule_number(r, "inputClocks", "inClock1"), 11);
    cr_expect_eq(schedule_number(r, "inputClocks", "inClock2"), 4);
    cr_expect_eq(schedule_number(r, "inputClocks", "inClock3"), 1);
    cr_expect_eq(schedule_number(r, NULL, "activations"), 16);
    cr_expect_eq(schedule_number(r, NULL, "end"), 10);
    cr_expect_geq(schedule_number(r, "outputClockTicks", "outClock"), 1);
    double lock = schedule_number(r, NULL, "lockPreemption");
    cr_expect_gt(lock, 0, "the partitions of inClock2/inClock3 lock preemption");
    cr_expect_eq(lock, schedule_number(r, NULL, "unlockPreemption"));
    fmuc_report_free(&rep);
}

/* The library of an SE-only FMU is loaded and judged like any other, and instantiated as SE by
 * api-instantiate and api-guid (Clocks refuses a wrong instantiationToken); the checks that drive
 * ME or CS name what the FMU declares instead of reporting a missing binary. */
Test(se, se_only_library_is_loaded_and_me_cs_checks_say_why_not, .timeout = 120)
{
    if (access(CLOCKS_FMU, R_OK) != 0)
        cr_skip_test("%s not there", CLOCKS_FMU);
    fmuc_report rep;
    run_runner(CLOCKS_FMU, &rep);
    cr_expect_eq(fmuc_test_result_of(&rep, "load-dlopen")->verdict, FMUC_VERDICT_PASS);
    cr_expect_eq(fmuc_test_result_of(&rep, "load-exports")->verdict, FMUC_VERDICT_PASS);
    cr_expect_eq(fmuc_test_result_of(&rep, "load-version")->verdict, FMUC_VERDICT_PASS);
    cr_expect_eq(fmuc_test_result_of(&rep, "api-instantiate")->verdict, FMUC_VERDICT_PASS);
    cr_expect_eq(fmuc_test_result_of(&rep, "api-guid")->verdict, FMUC_VERDICT_PASS);
    cr_expect_eq(fmuc_test_result_of(&rep, "api-bad-vr")->verdict, FMUC_VERDICT_PASS);
    const fmuc_result *a = fmuc_test_result_of(&rep, "api-status-codes");
    cr_expect_eq(a->verdict, FMUC_VERDICT_NA);
    cr_expect(message_has(a, "it declares Scheduled Execution"), "the reason names SE");
    cr_expect_eq(fmuc_test_result_of(&rep, "cs-nominal-run")->verdict, FMUC_VERDICT_NA);
    fmuc_report_free(&rep);
}

/* --list-checks says which interfaces each check drives: se-nominal-run SE only, a static check
 * of FMI 3.0 every interface, an FMI 2.0-only check no SE. */
Test(se, list_checks_names_scheduled_execution)
{
    char *argv[] = {(char *)FMUC_EXE, (char *)"--list-checks", (char *)"--json=-", NULL};
    fmuc_test_run run;
    cr_assert_eq(fmuc_test_exec(&run, argv, NULL), 0);
    cr_assert_eq(run.status, 0, "%s", run.err ? run.err : "");
    cJSON *list = cJSON_Parse(run.out);
    cr_assert_not_null(list);
    int seen = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, list)
    {
        const char *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "id"));
        const cJSON *ap = cJSON_GetObjectItemCaseSensitive(c, "applies");
        char buf[64] = "";
        const cJSON *a;
        cJSON_ArrayForEach(a, ap)
        {
            strcat(buf, cJSON_GetStringValue(a));
            strcat(buf, " ");
        }
        if (strcmp(id, "se-nominal-run") == 0) {
            cr_expect_str_eq(buf, "SE ");
            seen++;
        } else if (strcmp(id, "md-clocks") == 0) {
            cr_expect_str_eq(buf, "ME CS SE ");
            seen++;
        } else if (strcmp(id, "api-status-codes") == 0) {
            cr_expect_str_eq(buf, "ME CS ");
            seen++;
        } else if (strcmp(id, "md-source-files") == 0) {
            cr_expect_str_eq(buf, "ME CS ", "an FMI 2.0-only check lists no SE");
            seen++;
        }
    }
    cr_expect_eq(seen, 4);
    cJSON_Delete(list);
    fmuc_test_run_free(&run);
}

/* The project's SE model SampledCounter (stopTime 2, stepSize 0.1): tick periodic 0.1 s -> 21
 * activations from t = 0 to 2; trigger on the probe's grid 0.1, 0.4, ..., 1.9 -> 7; the countdown
 * clock delayed announced by every 4th tick with 0.05 s -> 5 (0.35 ... 1.95); the output clock
 * overflow ticks on every 5th tick -> 4. */
Test(se, sampled_counter_passes_with_its_schedule, .timeout = 120)
{
    fmuc_report rep;
    run_runner(FMUC_FMU_DIR "/fmi3/good/SampledCounter.fmu", &rep);
    const fmuc_result *r = fmuc_test_result_of(&rep, "se-nominal-run");
    cr_expect_eq(r->verdict, FMUC_VERDICT_PASS);
    cr_expect_eq(schedule_number(r, "inputClocks", "tick"), 21);
    cr_expect_eq(schedule_number(r, "inputClocks", "trigger"), 7);
    cr_expect_eq(schedule_number(r, "inputClocks", "delayed"), 5);
    cr_expect_eq(schedule_number(r, "outputClockTicks", "overflow"), 4);
    cr_expect_eq(schedule_number(r, NULL, "lockPreemption"),
                 schedule_number(r, NULL, "unlockPreemption"));
    cr_expect_eq(fmuc_test_result_of(&rep, "api-instantiate")->verdict, FMUC_VERDICT_PASS);
    cr_expect_eq(fmuc_test_result_of(&rep, "api-guid")->verdict, FMUC_VERDICT_PASS);
    fmuc_report_free(&rep);
}

/* The two defects of the glue's SE fixtures, each named in the failure: an activation refused
 * (the second one of trigger, at t = 0.4) and a lock left open by the partition of tick. */
Test(se, broken_activation_and_unbalanced_lock_fail, .timeout = 120)
{
    expect_fixture_fails("se-nominal-run", "se-nominal-run", 1,
                         "fmi3ActivateModelPartition(clockReference=2 'trigger', "
                         "activationTime=0.4) returned fmi3Error");
    expect_fixture_fails("se-nominal-run--lock", "se-nominal-run", 1,
                         "called lockPreemption 4 and unlockPreemption 3 times");
}

/* The SE column of the FMI 3.0 state table (D.3): 12 probes on SampledCounter and Clocks, all
 * refused; the fixture whose fmi3ActivateModelPartition runs in Initialization Mode is named
 * (a must of 3.0 with the interop downgrade: fail under standard, warn under interop). */
Test(se, illegal_calls_in_scheduled_execution, .timeout = 120)
{
    fmuc_report rep;
    run_runner(FMUC_FMU_DIR "/fmi3/good/SampledCounter.fmu", &rep);
    const fmuc_result *r = fmuc_test_result_of(&rep, "api-illegal-calls-fmi3");
    cr_expect_eq(r->verdict, FMUC_VERDICT_PASS);
    const cJSON *probes = cJSON_GetObjectItemCaseSensitive(r->evidence, "probes");
    cr_expect_eq(cJSON_GetArraySize(probes), 12, "12 SE probes");
    cr_expect(probe_has(r, "ScheduledExecution: fmi3ActivateModelPartition in Initialization "
                           "Mode -> fmi3Error"));
    fmuc_report_free(&rep);
    expect_fixture_fails("api-illegal-calls-fmi3--se", "api-illegal-calls-fmi3", 0,
                         "ScheduledExecution: fmi3ActivateModelPartition in state "
                         "Initialization Mode returned fmi3OK");
}

/* fmi3FreeInstance(NULL) on the ScheduledExecution library: ignored by SampledCounter and Clocks,
 * a crash in the fixture api-free-instance-null--se. */
Test(se, free_instance_null_on_the_se_library, .timeout = 120)
{
    fmuc_report rep;
    run_runner(FMUC_FMU_DIR "/fmi3/good/SampledCounter.fmu", &rep);
    cr_expect_eq(fmuc_test_result_of(&rep, "api-free-instance-null")->verdict, FMUC_VERDICT_PASS);
    fmuc_report_free(&rep);
    expect_fixture_fails("api-free-instance-null--se", "api-free-instance-null", 1,
                         "ScheduledExecution library: fmi3FreeInstance(NULL) must be ignored");
}

/* A crash inside fmi3ActivateModelPartition is what se-nominal-run probes: a failure naming the
 * call, not an error of the checker (issue 16, item 3). */
Test(se, crash_in_an_activation_fails, .timeout = 120)
{
    expect_fixture_fails("se-nominal-run--crash", "se-nominal-run", 1,
                         "SIGSEGV in fmi3ActivateModelPartition(clockReference=1, "
                         "activationTime=0.2)");
}

/* The report names the ScheduledExecution interface with its modelIdentifier and its flags under
 * FMI 3.0's names (canGetAndSetFMUState, not 2.0's canGetAndSetFMUstate). */
Test(se, report_identity_has_scheduled_execution, .timeout = 60)
{
    if (access(CLOCKS_FMU, R_OK) != 0)
        cr_skip_test("%s not there", CLOCKS_FMU);
    char *dir = fmuc_test_mkdtemp("se-report");
    char out[4096];
    snprintf(out, sizeof out, "%s/out", dir);
    char *argv[] = {(char *)FMUC_EXE, (char *)"--only", (char *)"md-fmi-version",
                    (char *)"--json=-", (char *)"-o", out, (char *)CLOCKS_FMU, NULL};
    fmuc_test_run run;
    cr_assert_eq(fmuc_test_exec(&run, argv, NULL), 0);
    cJSON *rep = cJSON_Parse(run.out);
    cr_assert_not_null(rep, "JSON on stdout: %s", run.err ? run.err : "");
    const cJSON *fmu = cJSON_GetObjectItemCaseSensitive(rep, "fmu");
    const cJSON *mi = cJSON_GetObjectItemCaseSensitive(fmu, "modelIdentifiers");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(mi, "scheduledExecution")),
                     "Clocks");
    const cJSON *se = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(fmu, "interfaces"), "scheduledExecution");
    cr_assert_not_null(se);
    const cJSON *caps = cJSON_GetObjectItemCaseSensitive(se, "capabilities");
    cr_expect(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(caps, "canGetAndSetFMUState")));
    cr_expect_null(cJSON_GetObjectItemCaseSensitive(caps, "canGetAndSetFMUstate"));
    cJSON_Delete(rep);
    fmuc_test_run_free(&run);
    fmuc_test_rm_rf(dir);
    free(dir);
}

/* Inputs are set to their start values in Clock Activation Mode before the partitions
 * (condition 25): SampledCounter's unclocked input at each of its 26 instants; the fixture that
 * refuses inputs there fails, naming the input and the clock. */
Test(se, inputs_are_set_before_the_partitions, .timeout = 120)
{
    fmuc_report rep;
    run_runner(FMUC_FMU_DIR "/fmi3/good/SampledCounter.fmu", &rep);
    const fmuc_result *r = fmuc_test_result_of(&rep, "se-nominal-run");
    cr_expect_eq(r->verdict, FMUC_VERDICT_PASS);
    cr_expect_eq(schedule_number(r, NULL, "inputsSet"), 26);
    fmuc_report_free(&rep);
    expect_fixture_fails("se-nominal-run--input", "se-nominal-run", 1,
                         "fmi3SetInt32 of input 'increment' (vr 5) to its start value before "
                         "the partition of clock 'tick' at t=0 returned fmi3Error");
}

/* Unknown value references and non-settable variables in Clock Activation Mode (§5.2, D.3
 * conditions 24/25): refused by SampledCounter; the fixture that accepts an unknown
 * valueReference fails under the standard profile (interop: warn). */
Test(se, bad_value_references_in_clock_activation_mode, .timeout = 120)
{
    fmuc_report rep;
    run_runner(FMUC_FMU_DIR "/fmi3/good/SampledCounter.fmu", &rep);
    const fmuc_result *r = fmuc_test_result_of(&rep, "api-bad-vr");
    cr_expect_eq(r->verdict, FMUC_VERDICT_PASS);
    cr_expect(probe_has(r, "ScheduledExecution: fmi3SetInt32(vr 6: output count) -> fmi3Error"),
              "setting the output count in Clock Activation Mode was probed");
    fmuc_report_free(&rep);
    expect_fixture_fails("api-bad-vr--se", "api-bad-vr", 0,
                         "ScheduledExecution: fmi3GetFloat64 of the unknown valueReference 9 "
                         "returned fmi3OK");
}
