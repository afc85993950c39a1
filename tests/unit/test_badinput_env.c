/* Bad-input suite, environment (robustness.md §4.4: E01, E02, E03, E05, E10), end to end through
 * fmucheck: environment problems are exit 64 naming the path, a full disk never leaves a partial
 * report, concurrent runs do not interfere, odd paths work, a closed stdout does not lose the
 * report. Every case also keeps the bi_expect_hygiene contract. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <signal.h>
#include <sys/mount.h>

#include "test_badinput_util.h"

static int run_opts(bi_env *e, fmuc_test_run *r, const bi_opts *o, const char *fmu)
{
    return bi_exec(e, r, o, fmu, NULL);
}

/* A small tmpfs at dir (root only); 0 when mounted. */
static int mount_small(const char *dir, const char *opts)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return -1;
    return mount("tmpfs", dir, "tmpfs", 0, opts);
}

Test(badinput_env, e01_unusable_tmpdir_and_output_dir_exit_64_naming_the_path, .timeout = 120)
{
    bi_env e;
    bi_env_init(&e, "e01");
    char missing[700], file[700], out_under_file[800];
    snprintf(missing, sizeof missing, "%s/no/such/dir", e.root);
    snprintf(file, sizeof file, "%s/sentinel/keep.txt", e.root);
    snprintf(out_under_file, sizeof out_under_file, "%s/report", file);
    fmuc_test_run r;
    /* --tmpdir missing, or a file */
    const char *bad[] = {missing, file};
    for (int i = 0; i < 2; i++) {
        bi_opts o = {.tmpdir = bad[i]};
        cr_assert(run_opts(&e, &r, &o, BI_GOOD_FMU) == 0);
        cr_expect_eq(r.status, 64, "--tmpdir %s: exit %d (%s)", bad[i], r.status, r.err);
        cr_expect(strstr(r.err, bad[i]), "the message names %s: %s", bad[i], r.err);
        bi_expect_hygiene(&e, bad[i]);
        fmuc_test_run_free(&r);
    }
    /* $TMPDIR missing and no --tmpdir */
    bi_opts o = {.tmpdir = "", .envtmp = missing};
    cr_assert(run_opts(&e, &r, &o, BI_GOOD_FMU) == 0);
    cr_expect_eq(r.status, 64, "TMPDIR=%s: exit %d (%s)", missing, r.status, r.err);
    cr_expect(strstr(r.err, missing), "the message names $TMPDIR: %s", r.err);
    fmuc_test_run_free(&r);
    /* output folder that cannot be created */
    bi_opts o2 = {.outdir = out_under_file};
    cr_assert(run_opts(&e, &r, &o2, BI_GOOD_FMU) == 0);
    cr_expect_eq(r.status, 64, "-o %s: exit %d (%s)", out_under_file, r.status, r.err);
    cr_expect(strstr(r.err, out_under_file), "the message names the output folder: %s", r.err);
    fmuc_test_run_free(&r);
    cr_expect_eq(fmuc_test_count_entries(e.tmp), 0);
    /* read-only mounts (as root, permissions alone do not stop writes) */
    char ro[700];
    snprintf(ro, sizeof ro, "%s/ro", e.root);
    if (mount_small(ro, "size=64k,mode=0755") == 0) {
        mount(NULL, ro, NULL, MS_REMOUNT | MS_RDONLY, NULL);
        char roout[800];
        snprintf(roout, sizeof roout, "%s/out", ro);
        bi_opts a = {.tmpdir = ro}, b = {.outdir = roout};
        cr_assert(run_opts(&e, &r, &a, BI_GOOD_FMU) == 0);
        cr_expect_eq(r.status, 64, "read-only --tmpdir: exit %d (%s)", r.status, r.err);
        cr_expect(strstr(r.err, ro), "names %s: %s", ro, r.err);
        fmuc_test_run_free(&r);
        cr_assert(run_opts(&e, &r, &b, BI_GOOD_FMU) == 0);
        cr_expect_eq(r.status, 64, "read-only -o: exit %d (%s)", r.status, r.err);
        cr_expect(strstr(r.err, roout), "names %s: %s", roout, r.err);
        fmuc_test_run_free(&r);
        umount2(ro, MNT_DETACH);
    } else {
        cr_log_warn("e01: no tmpfs mount (%s): read-only mount cases skipped", strerror(errno));
    }
    bi_env_fini(&e);
}

Test(badinput_env, e02_disk_full_during_extraction_and_report, .timeout = 120)
{
    bi_env e;
    bi_env_init(&e, "e02");
    char small[700];
    snprintf(small, sizeof small, "%s/small", e.root);
    if (mount_small(small, "size=16k,mode=0755") != 0) {
        bi_env_fini(&e);
        cr_skip("cannot mount a tmpfs: %s", strerror(errno));
    }
    fmuc_test_run r;
    /* extraction: the library does not fit */
    bi_opts a = {.tmpdir = small};
    cr_assert(run_opts(&e, &r, &a, BI_GOOD_FMU) == 0);
    cr_expect_eq(r.status, 64, "full --tmpdir: exit %d (%s)", r.status, r.err);
    cr_expect(strstr(r.err, "disk full") || strstr(r.err, "No space"), "ENOSPC is named: %s", r.err);
    cr_expect_eq(fmuc_test_count_entries(small), 0, "the partial extraction is removed");
    fmuc_test_run_free(&r);
    /* report: the output folder is full */
    char outd[800], fill[800];
    snprintf(outd, sizeof outd, "%s/out", small);
    mkdir(outd, 0755);
    snprintf(fill, sizeof fill, "%s/fill", small);
    char *blob = calloc(1, 64 << 10);
    FILE *f = fopen(fill, "wb");
    cr_assert(f);
    while (fwrite(blob, 1, 4096, f) == 4096 && fflush(f) == 0)
        ;
    fclose(f);
    free(blob);
    bi_opts b = {.outdir = outd};
    cr_assert(run_opts(&e, &r, &b, BI_GOOD_FMU) == 0);
    cr_expect_eq(r.status, 64, "full -o: exit %d (%s)", r.status, r.err);
    cJSON *rep = bi_report_at(outd); /* complete or absent: never truncated */
    cJSON_Delete(rep);
    bi_expect_no_partial(outd);
    fmuc_test_run_free(&r);
    bi_expect_hygiene(&e, "e02");
    umount2(small, MNT_DETACH);
    bi_env_fini(&e);
}

Test(badinput_env, e03_concurrent_runs_on_one_fmu_and_one_folder, .timeout = 300)
{
    bi_env e;
    bi_env_init(&e, "e03");
    enum { N = 4 };
    pid_t pids[N];
    char json[N][800];
    for (int i = 0; i < N; i++) {
        snprintf(json[i], sizeof json[i], "%s/out/run%d.json", e.root, i);
        pids[i] = fork();
        cr_assert(pids[i] >= 0);
        if (pids[i] == 0) {
            int nul = open("/dev/null", O_WRONLY);
            dup2(nul, 1);
            dup2(nul, 2);
            char jarg[4200];
            snprintf(jarg, sizeof jarg, "--json=%s", json[i]);
            setenv("TMPDIR", e.envtmp, 1);
            if (chdir(e.cwd) != 0)
                _exit(126);
            const char *exe = getenv("FMUC_BI_EXE");
            exe = exe && *exe ? exe : FMUC_EXE;
            execl(exe, exe, "--tmpdir", e.tmp, "-o", e.out, jarg, "--timeout-multiplier",
                  fmuc_test_timeout_multiplier(), BI_GOOD_FMU, (char *)NULL);
            _exit(127);
        }
    }
    free(e.before_sentinel);
    free(e.before_in);
    free(e.before_cwd);
    e.before_sentinel = bi_listing(e.sentinel);
    e.before_in = bi_listing(e.in);
    e.before_cwd = bi_listing(e.cwd);
    for (int i = 0; i < N; i++) {
        int st = 0;
        while (waitpid(pids[i], &st, 0) < 0 && errno == EINTR)
            ;
        cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "run %d: status 0x%x", i, st);
    }
    const char *sha = NULL;
    cJSON *reps[N];
    for (int i = 0; i < N; i++) {
        reps[i] = fmuc_test_read_json(json[i]);
        cr_expect(reps[i], "run %d: its own report is complete", i);
        cr_expect_str_eq(bi_status(reps[i]), "complete");
        const char *s = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(reps[i], "fmu"), "sha256"));
        cr_expect(s);
        if (!sha)
            sha = s;
        else if (s)
            cr_expect_str_eq(s, sha, "same FMU, same identity");
        cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(reps[i], "checks")),
                     cJSON_GetArraySize(cJSON_GetObjectItem(reps[0], "checks")), "no cross-talk");
    }
    bi_expect_hygiene(&e, "e03"); /* the shared report.json/html are complete */
    char hp[800];
    snprintf(hp, sizeof hp, "%s/report.html", e.out);
    size_t hl = 0;
    char *html = fmuc_test_read_file(hp, &hl);
    cr_expect(html && strstr(html, "</html>"), "the shared report.html is complete");
    free(html);
    for (int i = 0; i < N; i++)
        cJSON_Delete(reps[i]);
    bi_env_fini(&e);
}

Test(badinput_env, e05_odd_paths_and_symlinked_fmu, .timeout = 300)
{
    bi_env e;
    bi_env_init(&e, "e05");
    size_t n;
    char *good = bi_file_bytes(BI_GOOD_FMU, &n);
    const char *names[] = {"with space.fmu", "n\xC3\xA4me-\xE2\x9C\x93.fmu", "new\nline.fmu"};
    char p[800], outd[900];
    for (size_t i = 0; i < 3; i++) {
        bi_in(&e, names[i], p, sizeof p);
        cr_assert(fmuc_test_write_file(p, good, n) == 0);
        snprintf(outd, sizeof outd, "%s/out dir %zu \xC3\xA4", e.root, i);
        fmuc_test_run r;
        bi_opts o = {.outdir = outd};
        cr_assert(bi_exec(&e, &r, &o, p, NULL) == 0);
        cr_expect_eq(r.status, 0, "%s: exit %d (%s)", names[i], r.status, r.err);
        bi_expect_hygiene(&e, names[i]);
        cJSON *rep = bi_report_at(outd);
        cr_expect(rep, "%s: report written", names[i]);
        const char *path = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "fmu"), "path"));
        cr_expect(path && !strcmp(path, p), "%s: the report names the path as given", names[i]);
        cJSON_Delete(rep);
        fmuc_test_run_free(&r);
    }
    /* a symlink to the FMU */
    char link[800];
    snprintf(link, sizeof link, "%s/link.fmu", e.in);
    cr_assert(symlink(BI_GOOD_FMU, link) == 0);
    cJSON *rep = bi_check(&e, link, NULL, 0, NULL);
    cr_expect(rep);
    cJSON_Delete(rep);
    free(good);
    bi_env_fini(&e);
}

Test(badinput_env, e10_closed_stdout_still_writes_the_report, .timeout = 120)
{
    bi_env e;
    bi_env_init(&e, "e10");
    fmuc_test_run r;
    bi_opts o = {.stdout_mode = BI_STDOUT_CLOSED_PIPE};
    cr_assert(bi_exec(&e, &r, &o, BI_GOOD_FMU, NULL) == 0);
    cJSON *rep = bi_report(&e);
    cr_expect(rep, "report.json written although stdout is a closed pipe");
    cr_expect_str_eq(bi_status(rep), "complete");
    /* SIGPIPE must be ignored in the parent: dying of it while printing the summary skips the
     * cleanup (the private temp folder stays) and turns the verdict into 141 */
    cr_expect_neq(r.status, 128 + SIGPIPE,
                  "fmucheck was killed by SIGPIPE (the CLI must ignore SIGPIPE); exit %d", r.status);
    cr_expect_eq(r.status, 0, "exit %d", r.status);
    bi_expect_hygiene(&e, "e10");
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    bi_env_fini(&e);
}

/* ---- E07: restrictive inherited limits, no /proc ------------------------------------------- */

#include <sched.h>
#include <sys/resource.h>

static int str_is(const cJSON *j, const char *want)
{
    const char *v = cJSON_GetStringValue(j);
    return v && !strcmp(v, want);
}

typedef struct lim {
    int res;
    rlim_t soft, hard;
} lim;

static void set_lim(void *arg)
{
    const lim *l = arg;
    struct rlimit rl = {l->soft, l->hard};
    if (setrlimit(l->res, &rl) != 0)
        _exit(125);
}

/* Run the good FMU with one inherited limit; returns the exit status, stderr in *r. */
static void run_limited(bi_env *e, fmuc_test_run *r, lim *l)
{
    bi_opts o = {.child_setup = set_lim, .child_arg = l};
    cr_assert(bi_exec(e, r, &o, BI_GOOD_FMU, NULL) == 0);
    bi_expect_hygiene(e, "limited run");
}

Test(badinput_env, e07_open_files_limit_32_is_exit_64_naming_the_limit, .timeout = 120)
{
    bi_env e;
    bi_env_init(&e, "e07n");
    fmuc_test_run r;
    lim l = {RLIMIT_NOFILE, 32, 32};
    run_limited(&e, &r, &l);
    cr_expect_eq(r.status, 64, "ulimit -n 32: exit %d (%s)", r.status, r.err);
    cr_expect(strstr(r.err, "open files") && strstr(r.err, "32") && strstr(r.err, "64"),
              "the message names the limit, its value and the need: %s", r.err);
    cJSON *rep = bi_report(&e);
    cr_expect(!rep, "no report: the run did not start");
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    /* only the soft limit is low: fmucheck raises it itself, runs, and says so */
    lim s = {RLIMIT_NOFILE, 32, 4096};
    run_limited(&e, &r, &s);
    cr_expect_eq(r.status, 0, "soft limit 32, hard 4096: exit %d (%s)", r.status, r.err);
    rep = bi_report(&e);
    const cJSON *raised = cJSON_GetObjectItem(
        cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "options"), "limits"),
                            "process"),
        "softLimitsRaised");
    cr_expect(cJSON_IsArray(raised) &&
                  str_is(cJSON_GetArrayItem(raised, 0), "openFiles"),
              "the report records the raised limit");
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    bi_env_fini(&e);
}

Test(badinput_env, e07_small_address_space_and_data_limits_are_exit_64, .timeout = 120)
{
#if defined(__SANITIZE_ADDRESS__)
    cr_skip("AddressSanitizer reserves terabytes of address space: it cannot start under ulimit -v");
#else
    bi_env e;
    bi_env_init(&e, "e07v");
    fmuc_test_run r;
    int res[] = {RLIMIT_AS, RLIMIT_DATA};
    const char *name[] = {"address space", "data segment"};
    for (int i = 0; i < 2; i++) {
        /* 128 MiB: enough to start fmucheck, below what a run needs */
        lim l = {res[i], (rlim_t)128 << 20, (rlim_t)128 << 20};
        run_limited(&e, &r, &l);
        cr_expect_eq(r.status, 64, "%s 128 MiB: exit %d (%s)", name[i], r.status, r.err);
        cr_expect(strstr(r.err, name[i]) && strstr(r.err, "128"),
                  "the message names the limit and its value: %s", r.err);
        fmuc_test_run_free(&r);
    }
    bi_env_fini(&e);
#endif
}

/* In the child: a private mount namespace with an empty tmpfs over /proc. */
static void hide_proc(void *arg)
{
    (void)arg;
    if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
        mount("tmpfs", "/proc", "tmpfs", 0, "size=16k,mode=0555") != 0)
        _exit(125);
}

static int can_hide_proc(void)
{
    pid_t p = fork();
    if (p == 0) {
        hide_proc(NULL);
        _exit(access("/proc/self/stat", F_OK) == 0 ? 124 : 0);
    }
    int st = 0;
    if (p < 0 || waitpid(p, &st, 0) < 0)
        return 0;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

Test(badinput_env, e07_no_proc_still_works_and_says_so, .timeout = 120)
{
#if defined(__SANITIZE_ADDRESS__)
    /* the sanitizer runtime reads its options from /proc/self/environ and LeakSanitizer needs
     * /proc/<pid>/task at exit (it fails the process otherwise): the normal build covers this */
    cr_skip("an ASan build cannot run without /proc");
#endif
    if (!can_hide_proc())
        cr_skip("no private mount namespace here (needs root / CAP_SYS_ADMIN)");
    bi_env e;
    bi_env_init(&e, "e07p");
    fmuc_test_run r;
    bi_opts o = {.child_setup = hide_proc};
    cr_assert(bi_exec(&e, &r, &o, BI_GOOD_FMU, NULL) == 0);
    cr_expect_eq(r.status, 0, "without /proc: exit %d (%s)", r.status, r.err);
    bi_expect_hygiene(&e, "no /proc");
    cJSON *rep = bi_report(&e);
    cr_assert(rep);
    cr_expect_str_eq(bi_status(rep), "complete");
    const cJSON *pa = cJSON_GetObjectItem(
        cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "options"), "limits"), "procAvailable");
    cr_expect(cJSON_IsFalse(pa), "the report records that /proc was missing");
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    bi_env_fini(&e);
}

/* ---- E09: monotonic timeouts with a multiplier, limits recorded ---------------------------- */

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void set_tmult_env(void *arg)
{
    setenv("FMUC_TIMEOUT_MULTIPLIER", (const char *)arg, 1);
}

static const cJSON *limits_of(const cJSON *rep)
{
    return cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "options"), "limits");
}

Test(badinput_env, e09_hang_times_out_after_timeout_times_multiplier, .timeout = 180)
{
    bi_env e;
    bi_env_init(&e, "e09");
    const char *fmu = FMUC_FMU_DIR "/hostile/hang-in-dostep.fmu";
    const char *extra[] = {"--timeout", "1", "--only", "cs-nominal-run", NULL};
    /* (a) FMUC_TIMEOUT_MULTIPLIER=2, (b) --timeout-multiplier 2 */
    for (int k = 0; k < 2; k++) {
        fmuc_test_run r;
        bi_opts o = {.no_tmult = 1, .child_setup = k == 0 ? set_tmult_env : NULL,
                     .child_arg = (void *)"2"};
        const char *extra_b[] = {"--timeout", "1", "--timeout-multiplier", "2", "--only",
                                 "cs-nominal-run", NULL};
        double t0 = mono_s();
        cr_assert(bi_exec(&e, &r, &o, fmu, k == 0 ? extra : extra_b) == 0);
        double dt = mono_s() - t0;
        cr_expect_eq(r.status, 2, "hang: exit %d (%s)", r.status, r.err);
        bi_expect_hygiene(&e, "e09");
        /* 1 s x 2: not before 2 s, and well before the unscaled 60 s default (generous window
         * for a loaded machine) */
        cr_expect(dt >= 1.9 && dt < 30.0, "run %d took %.2f s, want about 2 s", k, dt);
        cJSON *rep = bi_report(&e);
        cr_assert(rep);
        cr_expect_str_eq(bi_verdict(rep, "cs-nominal-run"), "error");
        const cJSON *l = limits_of(rep);
        cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(l, "timeoutSeconds")), 1.0);
        cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(l, "timeoutMultiplier")), 2.0);
        cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(l, "effectiveTimeoutSeconds")), 2.0);
        cr_expect(str_is(cJSON_GetObjectItem(l, "timeoutMultiplierFrom"),
                         k == 0 ? "environment" : "option"), "the multiplier's source");
        cr_expect(str_is(cJSON_GetObjectItem(l, "clock"), "CLOCK_MONOTONIC"));
        const cJSON *w = cJSON_GetObjectItem(l, "worker");
        cr_expect(cJSON_GetObjectItem(w, "cpuSeconds") && cJSON_GetObjectItem(w, "fileSizeBytes") &&
                      cJSON_GetObjectItem(w, "processes"),
                  "the worker rlimits are recorded");
        cr_expect(cJSON_GetObjectItem(cJSON_GetObjectItem(l, "process"), "openFiles"),
                  "the inherited limits are recorded");
        cJSON_Delete(rep);
        fmuc_test_run_free(&r);
    }
    /* a bad FMUC_TIMEOUT_MULTIPLIER is a usage error naming the variable */
    fmuc_test_run r;
    bi_opts o = {.no_tmult = 1, .child_setup = set_tmult_env, .child_arg = (void *)"fast"};
    cr_assert(bi_exec(&e, &r, &o, BI_GOOD_FMU, NULL) == 0);
    cr_expect_eq(r.status, 64);
    cr_expect(strstr(r.err, "FMUC_TIMEOUT_MULTIPLIER"), "names the variable: %s", r.err);
    fmuc_test_run_free(&r);
    bi_env_fini(&e);
}

/* Wall-clock jumps cannot be made here without changing the host clock, so this guards the
 * sources instead: every deadline in the worker, the runner and the CLI is computed from
 * CLOCK_MONOTONIC; nothing there reads CLOCK_REALTIME, gettimeofday() or arms alarm(). (The
 * dates in reports come from time(NULL) in cli_util.c, which sets no deadline.) */
Test(badinput_env, e09_deadlines_use_only_the_monotonic_clock)
{
    const char *files[] = {"harness/src/worker.c", "checks/runner.c", "cli/cli_check.c",
                           "cli/cli_batch.c", "cli/cli_signal.c",
                           "harness/src/sim.c"};
    const char *banned[] = {"CLOCK_REALTIME", "gettimeofday", "alarm(", "time(NULL)",
                            "CLOCK_REALTIME_COARSE", "timer_create"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char p[600];
        snprintf(p, sizeof p, "%s/%s", FMUC_SOURCE_DIR, files[i]);
        char *s = fmuc_test_read_file(p, NULL);
        cr_assert(s, "%s", p);
        for (size_t k = 0; k < sizeof banned / sizeof banned[0]; k++)
            cr_expect(!strstr(s, banned[k]), "%s uses %s", files[i], banned[k]);
        if (i == 0)
            cr_expect(strstr(s, "CLOCK_MONOTONIC"), "worker.c times with CLOCK_MONOTONIC");
        free(s);
    }
}
