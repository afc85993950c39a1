/* Two checks at a time (checks/runner.c, issue 16's time bounds): once the nominal runs are
 * made, two forked lanes of the runner take the checks in order, and a result is kept only when
 * every check before it left the shared state as it was; the first that changed it is kept with
 * its state (fmuc_shared_runs_export / _import). So --check-jobs 2 must give the verdicts and
 * messages of --check-jobs 1, also on FMUs that crash, hang or fail in the checks that change
 * the shared state. */
#include <criterion/criterion.h>

#include <ctype.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fmuc_test_util.h"

/* The checks of a report as one text per check: id, the verdict under each profile, and the
 * messages with every number replaced by '#' (worker timeouts scale with the nominal run's
 * measured time, which differs between runs). */
static char *report_lines(const char *dir, size_t *nchecks)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/report.json", dir);
    cJSON *rep = fmuc_test_read_json(path);
    if (!rep)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *out = malloc(cap);
    const cJSON *c;
    *nchecks = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(rep, "checks"))
    {
        cJSON *pick = cJSON_CreateObject();
        cJSON_AddItemToObject(pick, "id", cJSON_Duplicate(cJSON_GetObjectItem(c, "id"), 1));
        cJSON_AddItemToObject(pick, "verdicts",
                              cJSON_Duplicate(cJSON_GetObjectItem(c, "verdicts"), 1));
        cJSON_AddItemToObject(pick, "messages",
                              cJSON_Duplicate(cJSON_GetObjectItem(c, "messages"), 1));
        char *t = cJSON_PrintUnformatted(pick);
        cJSON_Delete(pick);
        size_t n = strlen(t);
        while (len + n + 2 > cap)
            out = realloc(out, cap *= 2);
        /* a number (digits and points: "4", "1.25") becomes one '#' */
        for (size_t i = 0; i < n; i++) {
            if (!isdigit((unsigned char)t[i])) {
                out[len++] = t[i];
                continue;
            }
            out[len++] = '#';
            while (i + 1 < n && (isdigit((unsigned char)t[i + 1]) || t[i + 1] == '.'))
                i++;
        }
        out[len++] = '\n';
        free(t);
        (*nchecks)++;
    }
    out[len] = '\0';
    cJSON_Delete(rep);
    return out;
}

static char *run_battery(const char *fmu, const char *jobs, const char *tag)
{
    char *out = fmuc_test_mkdtemp(tag);
    cr_assert(out);
    char *argv[] = {FMUC_EXE, "-q", "--no-html", "--check-jobs", (char *)jobs, "--timeout", "4",
                    "--timeout-multiplier", (char *)fmuc_test_timeout_multiplier(), "-o", out,
                    (char *)fmu, NULL};
    fmuc_test_run run;
    cr_assert(fmuc_test_exec(&run, argv, NULL) == 0);
    cr_expect(run.status <= 2, "%s --check-jobs %s: exit %d: %s", fmu, jobs, run.status,
              run.err);
    fmuc_test_run_free(&run);
    return out;
}

/* Good FMUs (SpringMassDamper has both interfaces: two nominal runs' reports to hand over, the
 * first check in order that asks takes each, whichever lane runs it), FMUs that crash in a step
 * (the nominal run's crash is handed over with its report and marks the interface unusable), in
 * initialization or on an illegal call, fail after many instances, signal their parent, hang in
 * fmi2Reset (the hang is remembered in the shared state by a check in a lane and must reach the
 * later checks as in order) and hang in fmi2DoStep (the later checks name the check that took
 * the nominal run's report), and start detached grandchildren (hostile/orphan-child). After the
 * run with lanes no process of it is left (lanes killed after a halt, with their workers). */
Test(runner_lanes, two_lanes_give_the_results_of_the_sequential_order, .timeout = 600)
{
    static const char *const fmus[] = {
        "good/SpringMassDamper",         "good/BouncingBall",
        "hostile/crash-in-dostep",       "hostile/crash-in-enter-init",
        "hostile/crash-on-illegal-call", "hostile/fails-after-instances",
        "hostile/signals-parent",        "hostile/hang-in-reset",
        "hostile/hang-in-dostep",        "hostile/hang-after-reset",
        "broken/eq-determinism--reset-error", "hostile/orphan-child",
    };
    for (size_t i = 0; i < sizeof fmus / sizeof fmus[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.fmu", FMUC_FMU_DIR, fmus[i]);
        char *d1 = run_battery(path, "1", "lanes1");
        char *d2 = run_battery(path, "2", "lanes2");
        /* the lanes killed after a halt leave no worker nor what escaped from one */
        cr_expect_eq(fmuc_test_procs_with(d2), 0, "%s: a process of the run is left over",
                     fmus[i]);
        size_t n1 = 0, n2 = 0;
        char *a = report_lines(d1, &n1), *b = report_lines(d2, &n2);
        cr_assert(a && b, "%s: no report", fmus[i]);
        cr_expect_gt(n1, 100, "%s: the whole battery", fmus[i]);
        cr_expect_eq(n1, n2, "%s", fmus[i]);
        if (strcmp(a, b) != 0) {
            /* name the first check that differs */
            const char *p = a, *q = b;
            while (*p && *p == *q)
                p++, q++;
            while (p > a && p[-1] != '\n')
                p--, q--;
            cr_expect_fail("%s: --check-jobs 2 differs from 1 at\n  %.400s\n  %.400s", fmus[i], p,
                           q);
        }
        free(a);
        free(b);
        fmuc_test_rm_rf(d1);
        fmuc_test_rm_rf(d2);
        free(d1);
        free(d2);
    }
}

/* What a lane sends with a result that changed the shared state is what the runner then holds:
 * an unusable interface, a hang of a call at a known and at an unknown time. */
Test(runner_lanes, the_shared_state_travels_from_a_lane_to_the_runner)
{
    fmuc_fmu fmu;
    memset(&fmu, 0, sizeof fmu);
    fmuc_options opts;
    fmuc_options_init(&opts);
    fmuc_subject lane = {.fmu = &fmu, .opts = &opts, .shared = fmuc_shared_runs_new()};
    fmuc_subject runner = {.fmu = &fmu, .opts = &opts, .shared = fmuc_shared_runs_new()};
    cr_assert(lane.shared && runner.shared);
    cr_expect_eq(fmuc_shared_runs_digest(lane.shared), fmuc_shared_runs_digest(runner.shared));
    fmuc_worker_outcome crash; /* the death behind the record goes along, as data */
    memset(&crash, 0, sizeof crash);
    crash.end = FMUC_WORKER_CRASHED;
    crash.signal = SIGSEGV;
    crash.call_in_progress = 1;
    snprintf(crash.last_call, sizeof crash.last_call, "fmi2DoStep(t=0.2, h=0.1, noSet=0)");
    fmuc_shared_mark_unusable(&lane, FMUC_IFACE_CS, FMUC_UNUSABLE_RUN, "check-a",
                              "crashed in fmi2DoStep", &crash);
    fmuc_worker_outcome o;
    memset(&o, 0, sizeof o);
    o.end = FMUC_WORKER_TIMEOUT;
    o.call_in_progress = 1;
    snprintf(o.last_call, sizeof o.last_call, "fmi2DoStep(t=0.5, h=0.1, noSet=0)");
    snprintf(o.phase, sizeof o.phase, "step 6 (t=0.5)");
    fmuc_shared_note_outcome(&lane, FMUC_IFACE_CS, "check-b", &o);
    snprintf(o.last_call, sizeof o.last_call, "fmi2GetDerivatives(nx=2)");
    snprintf(o.phase, sizeof o.phase, "integrate");
    fmuc_shared_note_outcome(&lane, FMUC_IFACE_ME, "check-c", &o);
    cr_expect_neq(fmuc_shared_runs_digest(lane.shared), fmuc_shared_runs_digest(runner.shared),
                  "the digest sees the change");
    cJSON *ex = fmuc_shared_runs_export(lane.shared);
    cr_assert(ex);
    /* through the pipe: as text */
    char *text = cJSON_PrintUnformatted(ex);
    cJSON *back = cJSON_Parse(text);
    cr_assert_eq(fmuc_shared_runs_import(runner.shared, back), 0);
    cr_expect_eq(fmuc_shared_runs_digest(lane.shared), fmuc_shared_runs_digest(runner.shared));
    const fmuc_shared_hang *h = fmuc_shared_hang_find(&runner, FMUC_IFACE_CS);
    cr_assert(h);
    cr_expect_str_eq(h->fn, "fmi2DoStep");
    cr_expect_float_eq(h->t, 0.5, 1e-12);
    cr_expect_str_eq(h->check, "check-b");
    h = fmuc_shared_hang_find(&runner, FMUC_IFACE_ME);
    cr_assert(h);
    cr_expect(isnan(h->t), "an unknown time stays unknown");
    const char *u = fmuc_shared_unusable(&runner, FMUC_IFACE_CS, FMUC_UNUSABLE_RUN);
    cr_assert(u);
    cr_expect(strstr(u, "crashed in fmi2DoStep"), "%s", u);
    fmuc_worker_death d;
    snprintf(crash.last_call, sizeof crash.last_call, "fmi2DoStep(t=0.7, h=0.1, noSet=0)");
    fmuc_worker_death_of(&crash, &d);
    cr_expect_eq(fmuc_shared_nominal_died_in(&runner, FMUC_IFACE_CS, &d), u,
                 "the imported record knows the death it came from");
    /* a state the runner cannot take (here: another scaled timeout) is refused */
    cJSON *same = cJSON_GetObjectItem(back, "same");
    cJSON_SetValuestring(same, "1 99 99");
    cr_expect_eq(fmuc_shared_runs_import(runner.shared, back), -1);
    cJSON_Delete(back);
    cJSON_Delete(ex);
    free(text);
    fmuc_shared_runs_free(lane.shared);
    fmuc_shared_runs_free(runner.shared);
}

Test(runner_lanes, check_jobs_takes_one_or_two)
{
    char *argv[] = {FMUC_EXE, "--check-jobs", "3", FMUC_FMU_DIR "/good/Stair.fmu", NULL};
    fmuc_test_run run;
    cr_assert(fmuc_test_exec(&run, argv, NULL) == 0);
    cr_expect_eq(run.status, 64);
    cr_expect(strstr(run.err, "--check-jobs"), "%s", run.err);
    fmuc_test_run_free(&run);
}

/* SIGTERM to the runner while a check in a lane hangs (hostile/hang-after-reset with a 60 s
 * limit: api-mandatory-functions hangs in the run after fmi2Reset): the runner passes the signal
 * to its lanes, which stop their workers and start no other check; fmucheck exits 143 promptly
 * with the report marked incomplete, no temp folder and no process of the run left. */
Test(runner_lanes, sigterm_stops_the_lanes_promptly, .timeout = 120)
{
    char *dir = fmuc_test_mkdtemp("lanes-sig"), *tmp = fmuc_test_mkdtemp("lanes-sig-tmp");
    cr_assert(dir && tmp);
    char out[4200], so[4300], se[4300], rp[4300];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(so, sizeof so, "%s/stdout", dir);
    snprintf(se, sizeof se, "%s/stderr", dir);
    snprintf(rp, sizeof rp, "%s/report.json", out);
    /* the later workers' limit is scaled from the nominal run (1 s here), times 60 */
    char *argv[] = {FMUC_EXE, "--check-jobs", "2", "--timeout-multiplier", "60", "--tmpdir", tmp,
                    "-o", out, FMUC_FMU_DIR "/hostile/hang-after-reset.fmu", NULL};
    pid_t pid = fmuc_test_spawn(argv, NULL, so, se);
    cr_assert(pid > 0);
    /* the checks before the hang take well under a second; then it waits for its 60 s limit */
    double t_start = fmuc_test_now();
    while (fmuc_test_now() - t_start < 3.0)
        usleep(50000);
    double t0 = fmuc_test_now();
    cr_assert(kill(pid, SIGTERM) == 0);
    int code = -1;
    cr_assert(fmuc_test_wait(pid, 30, &code) == 0, "fmucheck did not exit after SIGTERM");
    double dt = fmuc_test_now() - t0;
    cr_expect_eq(code, 143, "exit %d", code);
    cr_expect(dt < 10, "took %.2f s to stop", dt);
    cJSON *rep = fmuc_test_read_json(rp);
    cr_assert(rep, "no report.json after SIGTERM");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(rep, "status")), "incomplete");
    cJSON_Delete(rep);
    usleep(200000); /* a lane's worker is reaped by the lane, the lane by the runner */
    cr_expect_eq(fmuc_test_count_entries(tmp), 0, "temp folder left behind");
    cr_expect_eq(fmuc_test_procs_with(out), 0, "a process of the run is left over");
    fmuc_test_rm_rf(dir);
    fmuc_test_rm_rf(tmp);
    free(dir);
    free(tmp);
}
