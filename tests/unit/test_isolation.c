/* Isolation of FMU code from fmucheck and its caller (issue 16, causes 1 and 8): the FMU's own
 * symbols stay its own (a namespace of its own), FMU code sees none of the caller's environment,
 * cannot signal or trace fmucheck and cannot read the caller's home folder, as root and as an
 * ordinary user. The hostile fixtures are in reference_fmus/hostile/. */
#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fmuc/fmuc_sandbox.h"
#include "fmuc/fmuc_worker.h"
#include "fmuc_test_util.h"

#define HOSTILE(name) FMUC_FMU_DIR "/hostile/" name ".fmu"
#define NOBODY 65534

/* ---- running fmucheck -------------------------------------------------------------------- */

/* Run argv with exactly envp, in a process group of its own (a fixture that signals fmucheck's
 * group must not reach the test), capturing stdout and stderr. */
static void iso_exec(fmuc_test_run *r, char *const argv[], char *const envp[])
{
    cr_assert_eq(fmuc_test_exec_with(r, argv, NULL, envp, 1), 0, "could not start %s", argv[0]);
}

/* The environment fmucheck gets: a few variables plus the sanitizer options of this run. */
static size_t base_env(char **env, size_t max, const char *home, const char *tmp)
{
    static char h[4200], t[4200];
    size_t n = 0;
    snprintf(h, sizeof h, "HOME=%s", home);
    snprintf(t, sizeof t, "TMPDIR=%s", tmp);
    env[n++] = "PATH=/usr/bin:/bin";
    env[n++] = h;
    env[n++] = t;
    const char *keep[] = {"ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS",
                          "FMUC_TIMEOUT_MULTIPLIER"};
    for (size_t i = 0; i < sizeof keep / sizeof keep[0] && n + 1 < max; i++) {
        const char *v = getenv(keep[i]);
        if (v) {
            size_t len = strlen(keep[i]) + strlen(v) + 2;
            char *e = malloc(len);
            snprintf(e, len, "%s=%s", keep[i], v);
            env[n++] = e; /* leaked: a few bytes per test */
        }
    }
    env[n] = NULL;
    return n;
}

typedef struct iso_result {
    fmuc_test_run run;
    char *report;  /* report.json text (NULL: none) */
    cJSON *rep;
} iso_result;

static void iso_result_free(iso_result *r)
{
    fmuc_test_run_free(&r->run);
    free(r->report);
    cJSON_Delete(r->rep);
    memset(r, 0, sizeof *r);
}

/* fmucheck [pre...] exe -q --no-html -o out [extra...] fmu, with env. */
static void iso_check(iso_result *res, const char *const pre[], const char *exe, const char *out,
                      const char *fmu, const char *const extra[], char *const env[])
{
    char *argv[40];
    size_t k = 0;
    for (size_t i = 0; pre && pre[i]; i++)
        argv[k++] = (char *)pre[i];
    argv[k++] = (char *)exe;
    argv[k++] = "-q";
    argv[k++] = "--no-html";
    argv[k++] = "--timeout-multiplier";
    argv[k++] = (char *)fmuc_test_timeout_multiplier();
    argv[k++] = "-o";
    argv[k++] = (char *)out;
    for (size_t i = 0; extra && extra[i]; i++)
        argv[k++] = (char *)extra[i];
    argv[k++] = (char *)fmu;
    argv[k] = NULL;
    memset(res, 0, sizeof *res);
    iso_exec(&res->run, argv, env);
    char path[4200];
    snprintf(path, sizeof path, "%s/report.json", out);
    res->report = fmuc_test_read_file(path, NULL);
    res->rep = res->report ? cJSON_Parse(res->report) : NULL;
}

static int count_bad(const cJSON *rep, char *first, size_t n)
{
    int bad = 0;
    const cJSON *c;
    first[0] = '\0';
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(rep, "checks"))
    {
        const char *v = cJSON_GetStringValue(cJSON_GetObjectItem(c, "verdict"));
        if (v && (!strcmp(v, "fail") || !strcmp(v, "error"))) {
            const char *m =
                cJSON_GetStringValue(cJSON_GetArrayItem(cJSON_GetObjectItem(c, "messages"), 0));
            if (!bad++)
                snprintf(first, n, "%s %s: %s",
                         cJSON_GetStringValue(cJSON_GetObjectItem(c, "id")), v, m ? m : "");
        }
    }
    return bad;
}

/* The run completed with a report in which nothing failed, fmucheck was not killed, and none of
 * the secrets appears in the report or fmucheck's output. */
static void expect_clean(const iso_result *r, const char *what, const char *const secrets[])
{
    char first[1024];
    cr_assert(r->run.status < 128, "%s: fmucheck was killed (status %d)", what, r->run.status);
    cr_assert(r->rep, "%s: no report.json (exit %d): %s", what, r->run.status, r->run.err);
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(r->rep, "status")), "complete",
                     "%s", what);
    cr_expect_eq(count_bad(r->rep, first, sizeof first), 0, "%s: %s", what, first);
    for (size_t i = 0; secrets && secrets[i]; i++) {
        cr_expect(!strstr(r->report, secrets[i]), "%s: report.json contains %s", what,
                  secrets[i]);
        cr_expect(!strstr(r->run.out, secrets[i]) && !strstr(r->run.err, secrets[i]),
                  "%s: fmucheck's output contains %s", what, secrets[i]);
    }
}

static const char *iso_field(const cJSON *rep, const char *key)
{
    const char *v =
        cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "isolation"), key));
    return v ? v : "";
}

/* ---- files -------------------------------------------------------------------------------- */

static void copy_file(const char *from, const char *to, mode_t mode)
{
    size_t n = 0;
    char *data = fmuc_test_read_file(from, &n);
    cr_assert(data, "cannot read %s", from);
    int fd = open(to, O_WRONLY | O_CREAT | O_TRUNC, mode);
    cr_assert(fd >= 0, "cannot create %s", to);
    cr_assert_eq(write(fd, data, n), (ssize_t)n);
    close(fd);
    chmod(to, mode);
    free(data);
}

static void write_text(const char *path, const char *text, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
    cr_assert(fd >= 0, "cannot create %s", path);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    chmod(path, mode);
}

static void make_token(char *buf, size_t n, const char *kind)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    snprintf(buf, n, "fmuc-%s-%ld-%ld", kind, (long)getpid(), (long)ts.tv_nsec);
}

/* A world-readable folder directly under /tmp (the read-home fixture looks in /tmp/<each>/home)
 * with copies of fmucheck and the FMU, a home folder holding a world-readable secret, a
 * world-writable output and temp folder: everything an ordinary user (nobody) needs to run the
 * check on its own, and a secret that only the sandbox keeps from it. */
typedef struct world {
    char dir[256], exe[300], fmu[300], out[300], tmp[300], home[300], secret_path[400];
    char secret[96];
} world;

static void world_init(world *w, const char *fmu)
{
    snprintf(w->dir, sizeof w->dir, "/tmp/fmuc-iso-XXXXXX");
    cr_assert(mkdtemp(w->dir));
    cr_assert_eq(chmod(w->dir, 0755), 0);
    snprintf(w->exe, sizeof w->exe, "%s/fmucheck", w->dir);
    snprintf(w->fmu, sizeof w->fmu, "%s/x.fmu", w->dir);
    snprintf(w->out, sizeof w->out, "%s/out", w->dir);
    snprintf(w->tmp, sizeof w->tmp, "%s/tmp", w->dir);
    snprintf(w->home, sizeof w->home, "%s/home", w->dir);
    copy_file(FMUC_EXE, w->exe, 0755);
    copy_file(fmu, w->fmu, 0644);
    cr_assert(mkdir(w->out, 0777) == 0 && chmod(w->out, 0777) == 0);
    cr_assert(mkdir(w->tmp, 0777) == 0 && chmod(w->tmp, 01777) == 0);
    cr_assert(mkdir(w->home, 0755) == 0 && chmod(w->home, 0755) == 0);
    make_token(w->secret, sizeof w->secret, "secret");
    snprintf(w->secret_path, sizeof w->secret_path, "%s/.fmucheck-secret-%ld", w->home,
             (long)getpid());
    write_text(w->secret_path, w->secret, 0644);
}

static void world_fini(world *w)
{
    fmuc_test_rm_rf(w->dir);
}

/* A secret in the caller's real home folder ($HOME), removed by the caller. */
static int home_secret(char *path, size_t pn, char *secret, size_t sn)
{
    const char *home = getenv("HOME");
    if (!home || !*home)
        return -1;
    make_token(secret, sn, "homesecret");
    snprintf(path, pn, "%s/.fmucheck-secret-%ld", home, (long)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return -1;
    ssize_t w = write(fd, secret, strlen(secret));
    close(fd);
    return w == (ssize_t)strlen(secret) ? 0 : -1;
}

static const char *const AS_NOBODY[] = {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534",
                                        "--clear-groups", NULL};

/* Run fixture `fmu` as an ordinary user: as root through setpriv (user nobody, copies in a world
 * folder), else as the current user. `extra` are further fmucheck options. */
static void run_as_user(iso_result *r, world *w, const char *fmu, const char *const extra[])
{
    char *env[16];
    world_init(w, fmu);
    base_env(env, 16, w->home, w->tmp);
    if (geteuid() == 0) {
        cr_assert(access(AS_NOBODY[0], X_OK) == 0, "setpriv is needed to test as nobody");
        iso_check(r, AS_NOBODY, w->exe, w->out, w->fmu, extra, env);
    } else {
        iso_check(r, NULL, w->exe, w->out, w->fmu, extra, env);
    }
}

/* ---- cause 1: symbols ---------------------------------------------------------------------- */

/* The fixture exports its own CVode*, xml*, zip_*, cJSON_*, SHA256, inflate* and ICU symbols
 * and returns fmi2Error from every FMI call when any was bound to one of fmucheck's libraries. */
Test(isolation, fmu_keeps_its_own_library_symbols, .timeout = 300)
{
    char *out = fmuc_test_mkdtemp("iso-sym");
    char *env[16];
    base_env(env, 16, "/nonexistent", "/tmp");
    iso_result r;
    iso_check(&r, NULL, FMUC_EXE, out, HOSTILE("exports-library-symbols"), NULL, env);
    expect_clean(&r, "exports-library-symbols", NULL);
    const cJSON *c;
    int dynamic_pass = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(r.rep, "checks"))
    {
        const char *id = cJSON_GetStringValue(cJSON_GetObjectItem(c, "id"));
        const char *v = cJSON_GetStringValue(cJSON_GetObjectItem(c, "verdict"));
        if (!strcmp(id, "api-instantiate") || !strcmp(id, "cs-nominal-run") ||
            !strcmp(id, "me-nominal-run"))
            dynamic_pass += !strcmp(v, "pass");
    }
    cr_expect_eq(dynamic_pass, 3, "the FMU really ran (instantiate, CS and ME nominal runs)");
    cr_expect_str_eq(iso_field(r.rep, "symbolScope"), "own-namespace");
    iso_result_free(&r);
    fmuc_test_rm_rf(out);
    free(out);
}

/* ---- cause 1: environment ------------------------------------------------------------------ */

/* The fixture logs its environ, /proc/self/environ and its parent's /proc/<ppid>/environ. */
Test(isolation, caller_environment_never_reaches_fmu_code, .timeout = 300)
{
    char *out = fmuc_test_mkdtemp("iso-env");
    char secret[96], lib[160], pre[160], passed[96], sv[200], lv[220], pv[220], pe[240];
    make_token(secret, sizeof secret, "envsecret");
    make_token(lib, sizeof lib, "libpath");
    make_token(pre, sizeof pre, "preload");
    make_token(passed, sizeof passed, "passed");
    snprintf(sv, sizeof sv, "FMUC_ISO_SECRET=%s", secret);
    snprintf(lv, sizeof lv, "LD_LIBRARY_PATH=/nonexistent/%s", lib);
    /* (a file that does not exist: the loader says so and goes on; a real one would come before
     * the sanitizer runtime in the ASan build) */
    snprintf(pv, sizeof pv, "LD_PRELOAD=/nonexistent/%s.so", pre);
    snprintf(pe, sizeof pe, "FMUC_ISO_PASSED=%s", passed);
    char *env[20];
    size_t n = base_env(env, 16, "/nonexistent", "/tmp");
    env[n++] = sv;
    env[n++] = lv;
    env[n++] = pv;
    env[n++] = pe;
    env[n] = NULL;
    const char *extra[] = {"--pass-env", "FMUC_ISO_PASSED", NULL};
    iso_result r;
    iso_check(&r, NULL, FMUC_EXE, out, HOSTILE("logs-environment"), extra, env);
    const char *secrets[] = {secret, "FMUC_ISO_SECRET", lib, NULL};
    expect_clean(&r, "logs-environment", secrets);
    /* LD_PRELOAD: fmucheck's own loader names the missing file on stderr, but FMU code never
     * sees the variable */
    cr_expect(!strstr(r.report, pre) && !strstr(r.report, "LD_PRELOAD="),
              "the caller's LD_PRELOAD reaches FMU code");
    /* the channel works: the fixture's messages are in the report, with the minimal set */
    cr_expect(strstr(r.report, "environ: "), "the fixture's log reaches the report");
    cr_expect(strstr(r.report, "PATH=/usr/bin:/bin"), "the minimal PATH is logged");
    cr_expect(strstr(r.report, "LANG=C"), "the minimal LANG is logged");
    cr_expect(strstr(r.report, pe), "a --pass-env variable reaches FMU code");
    cr_expect_str_eq(iso_field(r.rep, "environment"), "minimal");
    /* the caller's command line (its files and options) is not shown to FMU code either: the
     * arguments after the program's name are overwritten in the worker */
    const char *cl = strstr(r.report, "/proc/self/cmdline: ");
    cr_expect(cl, "the fixture logs its command line");
    if (cl) {
        const char *q = strchr(cl, '"');
        size_t len = q ? (size_t)(q - cl) : strlen(cl);
        cr_expect(!memmem(cl, len, "--pass-env", 10) && !memmem(cl, len, out, strlen(out)),
                  "the command line reaches FMU code: %.*s", (int)len, cl);
    }
    iso_result_free(&r);
    fmuc_test_rm_rf(out);
    free(out);
}

/* ---- cause 8: signals, ptrace, reading the home folder -------------------------------------- */

static const char *const ATTACKS[] = {"signals-parent", "traces-parent", "reads-home-secret"};

/* As an ordinary user (nobody through setpriv when root): fmucheck survives, completes its
 * report, and the world-readable secret in the "home" folder stays unread. */
Test(isolation, ordinary_user_fixtures_change_nothing_and_leak_nothing, .timeout = 600)
{
    for (size_t i = 0; i < sizeof ATTACKS / sizeof ATTACKS[0]; i++) {
        char fmu[512];
        snprintf(fmu, sizeof fmu, FMUC_FMU_DIR "/hostile/%s.fmu", ATTACKS[i]);
        world w;
        iso_result r;
        run_as_user(&r, &w, fmu, NULL);
        const char *secrets[] = {w.secret, NULL};
        expect_clean(&r, ATTACKS[i], secrets);
        cr_expect_neq(iso_field(r.rep, "signalsAndPtrace"), "unconfined");
        cr_expect_str_eq(iso_field(r.rep, "filesystemRead"), "confined");
        cr_expect(!strstr(r.report, "delivered") && !strstr(r.report, "attached"),
                  "%s: the fixture reports a signal or ptrace that got through", ATTACKS[i]);
        iso_result_free(&r);
        world_fini(&w);
    }
}

/* Control: with the sandbox lowered to --isolation basic the same ordinary user does read the
 * secret (the fixture works, so the test above is meaningful). */
Test(isolation, ordinary_user_basic_isolation_leaks_the_secret_control, .timeout = 300)
{
    world w;
    iso_result r;
    const char *extra[] = {"--isolation", "basic", NULL};
    run_as_user(&r, &w, HOSTILE("reads-home-secret"), extra);
    cr_assert(r.rep, "no report (exit %d): %s", r.run.status, r.run.err);
    cr_expect(strstr(r.report, w.secret), "without Landlock the fixture finds the secret");
    iso_result_free(&r);
    world_fini(&w);
}

/* As root: with the default privilege drop and with --no-privilege-drop (where only the
 * sandbox, not file permissions, keeps root's worker from the secret in root's home). */
Test(isolation, root_fixtures_change_nothing_and_leak_nothing, .timeout = 600)
{
    if (geteuid() != 0)
        cr_skip_test("not root");
    char spath[4200], secret[96];
    cr_assert(home_secret(spath, sizeof spath, secret, sizeof secret) == 0,
              "cannot write a secret into $HOME");
    const char *secrets[] = {secret, NULL};
    const char *no_drop[] = {"--no-privilege-drop", NULL};
    for (int drop = 0; drop < 2; drop++)
        for (size_t i = 0; i < sizeof ATTACKS / sizeof ATTACKS[0]; i++) {
            char fmu[512], what[128];
            snprintf(fmu, sizeof fmu, FMUC_FMU_DIR "/hostile/%s.fmu", ATTACKS[i]);
            snprintf(what, sizeof what, "%s (root%s)", ATTACKS[i],
                     drop ? ", --no-privilege-drop" : "");
            char *out = fmuc_test_mkdtemp("iso-root");
            char *env[16];
            base_env(env, 16, getenv("HOME"), "/tmp");
            iso_result r;
            iso_check(&r, NULL, FMUC_EXE, out, fmu, drop ? no_drop : NULL, env);
            expect_clean(&r, what, secrets);
            cr_expect_neq(iso_field(r.rep, "signalsAndPtrace"), "unconfined", "%s", what);
            cr_expect(!strstr(r.report, "delivered") && !strstr(r.report, "attached"),
                      "%s: a signal or ptrace got through", what);
            iso_result_free(&r);
            fmuc_test_rm_rf(out);
            free(out);
        }
    unlink(spath);
}

/* ---- temporary folders: the worker's own /tmp and /dev/shm --------------------------------- */

#define TF_KEPT "/tmp/fmuc-temp-files-kept"
#define TF_MARKER "/tmp/fmuc-temp-files-host-marker"

static void expect_private_temp(const iso_result *r, const char *what)
{
    expect_clean(r, what, NULL);
    const cJSON *pf =
        cJSON_GetObjectItem(cJSON_GetObjectItem(r->rep, "isolation"), "privateFolders");
    cr_expect(cJSON_GetArraySize(pf) == 2, "%s: /tmp and /dev/shm are the worker's own", what);
    cr_expect(!strstr(r->report, "host marker visible"), "%s: the host's /tmp is visible", what);
    cr_expect(!strstr(r->report, "temp-files: "), "%s: the fixture logged a failure", what);
    cr_expect_eq(access(TF_KEPT, F_OK), -1, "%s: the FMU's /tmp file reached the host's", what);
}

/* The fixture uses tmpfile(), a mkstemp file in /tmp and a named semaphore (/dev/shm), as real
 * FMUs do, and looks for a file of the host's /tmp: the battery passes, as root and as an
 * ordinary user, nothing it writes reaches the host and nothing of the host's /tmp is seen. */
Test(isolation, temp_folders_are_the_workers_own, .timeout = 600)
{
    if (syscall(SYS_landlock_create_ruleset, NULL, 0, 1u) < 1)
        cr_skip_test("no Landlock: the temporary folders stay the host's");
    unlink(TF_KEPT);
    write_text(TF_MARKER, "host", 0644);
    if (geteuid() == 0) {
        char *out = fmuc_test_mkdtemp("iso-tmp");
        char *env[16];
        base_env(env, 16, "/nonexistent", "/tmp");
        iso_result r;
        iso_check(&r, NULL, FMUC_EXE, out, HOSTILE("temp-files"), NULL, env);
        expect_private_temp(&r, "temp-files (root)");
        iso_result_free(&r);
        fmuc_test_rm_rf(out);
        free(out);
    }
    world w;
    iso_result r;
    run_as_user(&r, &w, HOSTILE("temp-files"), NULL);
    expect_private_temp(&r, "temp-files (ordinary user)");
    iso_result_free(&r);
    world_fini(&w);
    unlink(TF_MARKER);
    unlink(TF_KEPT);
}

/* ---- the seccomp fallback for signals (kernels without Landlock ABI 6) -------------------- */

static int fn_signal_parent(fmuc_worker_ctx *ctx, void *payload)
{
    (void)payload;
    cJSON *r = fmuc_worker_reply(ctx);
    pid_t pp = getppid();
    errno = 0;
    cJSON_AddNumberToObject(r, "kill_parent", kill(pp, 0) == 0 ? 0 : errno);
    cJSON_AddNumberToObject(r, "kill_parent_group", kill(-getpgid(pp), 0) == 0 ? 0 : errno);
    cJSON_AddNumberToObject(r, "kill_all", kill(-1, 0) == 0 ? 0 : errno);
    cJSON_AddNumberToObject(r, "ptrace_parent",
                            ptrace(PTRACE_ATTACH, pp, NULL, NULL) == 0 ? 0 : errno);
    cJSON_AddNumberToObject(r, "kill_self", kill(getpid(), 0) == 0 ? 0 : errno);
    cJSON_AddNumberToObject(r, "kill_own_group", kill(0, 0) == 0 ? 0 : errno);
    cJSON_AddNumberToObject(r, "tgkill_self",
                            syscall(SYS_tgkill, getpid(), gettid(), 0) == 0 ? 0 : errno);
    return 0;
}

static void expect_signals_confined(int force_seccomp)
{
    fmuc_sandbox_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.force_signal_seccomp = force_seccomp;
    cfg.no_privilege_drop = 1; /* the same uid as the test: only the sandbox stands between */
    fmuc_worker_spec spec;
    fmuc_diag d = {{0}, FMUC_OK};
    memset(&spec, 0, sizeof spec);
    spec.timeout_s = 20;
    spec.sandbox = &cfg;
    fmuc_worker_outcome o;
    cr_assert_eq(fmuc_worker_run(&spec, fn_signal_parent, NULL, &o, &d), FMUC_OK, "%s", d.msg);
    cr_assert_eq(o.end, FMUC_WORKER_OK, "end=%s", fmuc_worker_end_name(o.end));
    cr_expect_eq(o.isolation.signals, force_seccomp ? 2 : 1);
    const char *denied[] = {"kill_parent", "kill_parent_group", "ptrace_parent"};
    for (size_t i = 0; i < 3; i++) {
        const cJSON *v = cJSON_GetObjectItem(o.reply, denied[i]);
        cr_expect(cJSON_IsNumber(v) && v->valueint == EPERM, "%s: errno %d, expected EPERM",
                  denied[i], cJSON_IsNumber(v) ? v->valueint : -1);
    }
    const char *allowed[] = {"kill_self", "kill_own_group", "tgkill_self"};
    for (size_t i = 0; i < 3; i++) {
        const cJSON *v = cJSON_GetObjectItem(o.reply, allowed[i]);
        cr_expect(cJSON_IsNumber(v) && v->valueint == 0, "%s: errno %d, expected success",
                  allowed[i], cJSON_IsNumber(v) ? v->valueint : -1);
    }
    fmuc_worker_outcome_free(&o);
}

Test(isolation, landlock_scope_confines_signals_and_ptrace)
{
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, 1u);
    if (abi < 6)
        cr_skip_test("Landlock ABI %ld: no signal scope", abi);
    expect_signals_confined(0);
}

Test(isolation, seccomp_fallback_confines_signals_and_ptrace)
{
    expect_signals_confined(1);
}

/* ---- signals by file ownership (F_SETOWN + F_SETSIG): no kill() call at all --------------- */

/* The kernel sends the owner of a file's signals (F_SETOWN) the signal chosen with F_SETSIG,
 * SIGKILL too, when the file becomes ready, checked only against the uid: a process of the same
 * user outside the sandbox (here a sibling of the worker, the test's child) must not get it. */
static int fn_sigio_victim(fmuc_worker_ctx *ctx, void *payload)
{
    pid_t victim = *(const pid_t *)payload;
    cJSON *r = fmuc_worker_reply(ctx);
    int p[2];
    if (pipe(p) != 0)
        return 1;
    errno = 0;
    cJSON_AddNumberToObject(r, "setown_victim", fcntl(p[0], F_SETOWN, (int)victim) == 0 ? 0 : errno);
    struct f_owner_ex ox = {F_OWNER_PID, victim};
    cJSON_AddNumberToObject(r, "setown_ex_victim", fcntl(p[0], F_SETOWN_EX, &ox) == 0 ? 0 : errno);
    if (fcntl(p[0], F_SETSIG, SIGKILL) == 0 &&
        fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_ASYNC) == 0)
        cJSON_AddNumberToObject(r, "written", (double)write(p[1], "x", 1));
    close(p[0]);
    close(p[1]);
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    int owner = (int)victim;
    cJSON_AddNumberToObject(r, "fiosetown_victim",
                            s >= 0 && ioctl(s, FIOSETOWN, &owner) == 0 ? 0 : errno);
    if (s >= 0)
        close(s);
    /* its own signals stay usable */
    if (pipe(p) != 0)
        return 1;
    cJSON_AddNumberToObject(r, "setown_self", fcntl(p[0], F_SETOWN, (int)getpid()) == 0 ? 0 : errno);
    close(p[0]);
    close(p[1]);
    return 0;
}

static void expect_sigio_confined(int force_seccomp)
{
    pid_t victim = fork();
    cr_assert(victim >= 0);
    if (victim == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        for (;;)
            pause();
    }
    fmuc_sandbox_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.force_signal_seccomp = force_seccomp;
    cfg.no_privilege_drop = 1; /* the same uid as the victim: only the sandbox stands between */
    fmuc_worker_spec spec;
    fmuc_diag d = {{0}, FMUC_OK};
    memset(&spec, 0, sizeof spec);
    spec.timeout_s = 20;
    spec.sandbox = &cfg;
    fmuc_worker_outcome o;
    cr_assert_eq(fmuc_worker_run(&spec, fn_sigio_victim, &victim, &o, &d), FMUC_OK, "%s", d.msg);
    cr_expect_eq(o.end, FMUC_WORKER_OK, "end=%s", fmuc_worker_end_name(o.end));
    usleep(200000);
    int st = 0;
    pid_t w = waitpid(victim, &st, WNOHANG);
    cr_expect_eq(w, 0, "the victim (same uid, outside the sandbox) was killed by signal %d",
                 w == victim && WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    if (force_seccomp) {
        const char *denied[] = {"setown_victim", "setown_ex_victim", "fiosetown_victim"};
        for (size_t i = 0; i < 3; i++) {
            const cJSON *v = cJSON_GetObjectItem(o.reply, denied[i]);
            cr_expect(cJSON_IsNumber(v) && v->valueint == EPERM, "%s: errno %d, expected EPERM",
                      denied[i], cJSON_IsNumber(v) ? v->valueint : -1);
        }
    }
    const cJSON *v = cJSON_GetObjectItem(o.reply, "setown_self");
    cr_expect(cJSON_IsNumber(v) && v->valueint == 0, "F_SETOWN to the worker itself: errno %d",
              cJSON_IsNumber(v) ? v->valueint : -1);
    fmuc_worker_outcome_free(&o);
    if (w == 0) {
        kill(victim, SIGKILL);
        waitpid(victim, &st, 0);
    }
}

Test(isolation, landlock_scope_confines_signals_by_file_ownership)
{
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, 1u);
    if (abi < 6)
        cr_skip_test("Landlock ABI %ld: no signal scope", abi);
    expect_sigio_confined(0);
}

Test(isolation, seccomp_fallback_confines_signals_by_file_ownership)
{
    expect_sigio_confined(1);
}
