/* Worker isolation: hostile behaviours (robustness.md §4.3) run in the worker and the parent
 * observes them correctly: crash, timeout, early exit, abort, output flood, logger abuse, crash at
 * load, orphans, huge allocations, protocol garbage, and the crash-proof call trace. */
#include <criterion/criterion.h>

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fmuc/fmuc_proc.h"
#include "fmuc/fmuc_worker.h"
#include "fmuc_test_util.h"
#include "../../harness/src/worker_internal.h" /* the shared record, as FMU code sees it */

#define HOSTILE_DIR FMUC_BUILD_DIR "/tests/fixtures/hostile"

/* A stand-in for an extracted FMU: the library copied into a temp folder that the worker can
 * read after it dropped root to nobody (the build tree may sit in a folder only root can enter,
 * as an FMU's extraction folder never does). Removed when the test's process exits. */
static char *staged_dirs[8];

static void remove_staged(void)
{
    for (size_t i = 0; i < sizeof staged_dirs / sizeof *staged_dirs; i++)
        if (staged_dirs[i])
            fmuc_test_rm_rf(staged_dirs[i]);
}

static fmuc_fmu fake_fmu(const char *lib)
{
    fmuc_fmu f;
    char *dir = fmuc_test_mkdtemp("worker-lib"), *copy = NULL;
    const char *base = strrchr(lib, '/');
    size_t len = 0;
    char *bytes = fmuc_test_read_file(lib, &len);
    cr_assert(dir && bytes, "cannot stage %s", lib);
    cr_assert(asprintf(&copy, "%s/%s", dir, base ? base + 1 : lib) > 0);
    FILE *out = fopen(copy, "wb");
    cr_assert(out && fwrite(bytes, 1, len, out) == len && fclose(out) == 0, "cannot write %s", copy);
    cr_assert(chmod(dir, 0755) == 0 && chmod(copy, 0755) == 0);
    free(bytes);
    for (size_t i = 0; i < sizeof staged_dirs / sizeof *staged_dirs; i++)
        if (!staged_dirs[i]) {
            if (i == 0)
                atexit(remove_staged);
            staged_dirs[i] = dir;
            break;
        }
    memset(&f, 0, sizeof f);
    f.lib_path_cs = copy;
    f.lib_path_me = copy;
    return f;
}

static fmuc_worker_spec spec_for(const fmuc_fmu *fmu, double timeout)
{
    fmuc_worker_spec s;
    fmuc_worker_spec_init(&s, fmu, NULL);
    s.timeout_s = timeout;
    return s;
}

static void run(const fmuc_worker_spec *spec, fmuc_worker_fn fn, void *payload,
                fmuc_worker_outcome *out)
{
    fmuc_diag diag = {{0}, FMUC_OK};
    fmuc_err err = fmuc_worker_run(spec, fn, payload, out, &diag);
    cr_assert_eq(err, FMUC_OK, "worker_run failed: %s", diag.msg);
}

/* ---- worker functions ---- */

static int fn_ok(fmuc_worker_ctx *ctx, void *payload)
{
    (void)payload;
    cJSON_AddNumberToObject(fmuc_worker_reply(ctx), "x", 42);
    printf("hello from the worker\n");
    fprintf(stderr, "err line\n");
    fflush(stdout);
    return 7;
}

static int fn_segv(fmuc_worker_ctx *ctx, void *payload)
{
    (void)payload;
    fmuc_worker_phase(ctx, "poke");
    raise(SIGSEGV);
    return 0;
}

static int fn_exit0(fmuc_worker_ctx *ctx, void *payload)
{
    (void)ctx;
    (void)payload;
    _exit(0);
}

static int fn_sleep(fmuc_worker_ctx *ctx, void *payload)
{
    (void)payload;
    fmuc_worker_phase(ctx, "sleeping");
    for (;;)
        pause();
    return 0;
}

static int fn_big_reply(fmuc_worker_ctx *ctx, void *payload)
{
    size_t n = 2u << 20;
    char *s = malloc(n + 1);
    (void)payload;
    memset(s, 'a', n);
    s[n] = '\0';
    cJSON_AddStringToObject(fmuc_worker_reply(ctx), "big", s);
    free(s);
    return 0;
}

static int fn_garbage(fmuc_worker_ctx *ctx, void *payload)
{
    static const char junk[] = "PASS PASS PASS\n";
    (void)payload;
    if (write(fmuc_worker__reply_fd(ctx), junk, sizeof junk - 1) < 0)
        return 1;
    return 0; /* the real reply follows the garbage: the frame is invalid */
}

static int fn_malloc_huge(fmuc_worker_ctx *ctx, void *payload)
{
    void *p = malloc((size_t)64 << 30);
    (void)payload;
    cJSON_AddBoolToObject(fmuc_worker_reply(ctx), "got", p != NULL);
    free(p);
    return 0;
}

/* Load the hostile library and run one co-simulation step with the given mode. */
static int fn_hostile(fmuc_worker_ctx *ctx, void *payload)
{
    const char *mode = payload;
    const fmuc_fmi *f = fmuc_worker_load(ctx, fmi2CoSimulation);
    fmi2Component c;
    fmi2Status st;
    if (!f) {
        cJSON_AddStringToObject(fmuc_worker_reply(ctx), "load_error", fmuc_worker_load_error(ctx));
        return 1;
    }
    cJSON_AddNumberToObject(fmuc_worker_reply(ctx), "nmissing", (double)f->nmissing);
    c = fmuc_fmi_instantiate(f, fmi2CoSimulation, "{guid}", mode);
    if (!c)
        return 2;
    fmuc_fmi_setupExperiment(f, c, 0, 0, 0, 0, 0);
    fmuc_fmi_enterInitializationMode(f, c);
    fmuc_fmi_exitInitializationMode(f, c);
    fmuc_worker_phase(ctx, "step loop");
    for (int i = 0; i < 3; i++) {
        st = fmuc_fmi_doStep(f, c, 0.25 * i, 0.25, 0);
        cJSON_AddNumberToObject(fmuc_worker_reply(ctx), "status", st);
    }
    fmuc_fmi_terminate(f, c);
    fmuc_fmi_freeInstance(f, c);
    return 0;
}

static int fn_missing(fmuc_worker_ctx *ctx, void *payload)
{
    const fmuc_fmi *f = fmuc_worker_load(ctx, fmi2CoSimulation);
    (void)payload;
    if (!f)
        return 1;
    cJSON_AddNumberToObject(fmuc_worker_reply(ctx), "nmissing", (double)f->nmissing);
    cJSON_AddBoolToObject(fmuc_worker_reply(ctx), "has_version", fmuc_fmi_has(f, "fmi2GetVersion"));
    cJSON_AddBoolToObject(fmuc_worker_reply(ctx), "has_step", fmuc_fmi_has(f, "fmi2DoStep"));
    cJSON_AddNumberToObject(fmuc_worker_reply(ctx), "step_status",
                            fmuc_fmi_doStep(f, NULL, 0, 1, 0));
    cJSON_AddBoolToObject(fmuc_worker_reply(ctx), "inst_null",
                          fmuc_fmi_instantiate(f, fmi2CoSimulation, "g", "x") == NULL);
    return 0;
}

static int fn_logger_formats(fmuc_worker_ctx *ctx, void *payload)
{
    const fmi2CallbackFunctions *cb = fmuc_worker_callbacks(ctx);
    void *env = cb->componentEnvironment;
    char *big = malloc(10000);
    (void)payload;
    memset(big, 'b', 9999);
    big[9999] = '\0';
    cb->logger(env, "i", fmi2OK, "c", "%5.2f|%-3d|%lld|%zu|%x|%%|%c|%s", 3.14159, 7, 1234567890123ll,
               (size_t)9, 255u, 'z', "str");
    cb->logger(env, "i", fmi2OK, "c", "%1$s", "positional");
    cb->logger(env, "i", fmi2OK, "c", "%ls", L"wide");
    cb->logger(env, "i", fmi2OK, "c", big);
    cb->logger((void *)0x1, "i", fmi2Error, "c", "wrong env");
    for (int i = 0; i < 1500; i++)
        cb->logger(env, "i", fmi2OK, "c", "n=%d", i);
    cJSON_AddNumberToObject(fmuc_worker_reply(ctx), "count", (double)fmuc_worker_log_count(ctx));
    free(big);
    return 0;
}

static const char *log_msg(const fmuc_worker_outcome *o, int i)
{
    return cJSON_GetObjectItem(cJSON_GetArrayItem(o->log, i), "message")->valuestring;
}

static int log_flag(const fmuc_worker_outcome *o, int i, const char *flag)
{
    return cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(o->log, i), flag));
}

static int count_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *de;
    int n = 0;
    cr_assert_not_null(d);
    while ((de = readdir(d)) != NULL)
        if (de->d_name[0] != '.')
            n++;
    closedir(d);
    return n - 1; /* the DIR's own fd */
}

static long read_pid_file(const char *path)
{
    long pid = -1;
    FILE *f;
    for (int i = 0; i < 200; i++) {
        f = fopen(path, "r");
        if (f) {
            if (fscanf(f, "%ld", &pid) != 1)
                pid = -1;
            fclose(f);
            if (pid > 0)
                break;
        }
        usleep(10000);
    }
    return pid;
}

/* dead = no such process, or a zombie nobody waits for (not possible here: we reap) */
static int process_gone(long pid)
{
    return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

/* ---- tests ---- */

Test(worker, ok_reply_and_capture, .timeout = 30)
{
    fmuc_worker_spec s = spec_for(NULL, 5);
    fmuc_worker_outcome o;
    fmuc_result res;
    run(&s, fn_ok, NULL, &o);
    cr_assert_eq(o.end, FMUC_WORKER_OK, "end=%s detail=%s", fmuc_worker_end_name(o.end),
                 o.detail ? o.detail : "");
    cr_assert_eq(o.fn_status, 7);
    cr_assert_eq(cJSON_GetObjectItem(o.reply, "x")->valuedouble, 42);
    cr_assert_str_eq(o.out.head, "hello from the worker\n");
    cr_assert_eq(o.out.bytes, 22);
    cr_assert_eq(o.err.bytes, 9);
    cr_assert_eq(o.out.truncated, 0);
    fmuc_result_init(&res, "t-ok", "t", "spec", FMUC_LEVEL_MUST);
    cr_assert_eq(fmuc_worker_outcome_to_result(&o, &res), 0);
    cr_assert_eq(res.verdict, FMUC_VERDICT_PASS);
    cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(res.evidence, "worker"), "end")->valuestring,
                     "ok");
    fmuc_result_clear(&res);
    fmuc_worker_outcome_free(&o);
}

Test(worker, fn_crash_is_reported_with_signal_and_phase, .timeout = 30)
{
    fmuc_worker_spec s = spec_for(NULL, 5);
    fmuc_worker_outcome o;
    run(&s, fn_segv, NULL, &o);
    cr_assert_eq(o.end, FMUC_WORKER_CRASHED);
    cr_assert_eq(o.signal, SIGSEGV);
    cr_assert_str_eq(o.phase, "poke");
    cr_assert_null(o.reply);
    fmuc_worker_outcome_free(&o);
}

Test(worker, exit0_before_reply_is_early_exit, .timeout = 30)
{
    fmuc_worker_spec s = spec_for(NULL, 5);
    fmuc_worker_outcome o;
    fmuc_result res;
    run(&s, fn_exit0, NULL, &o);
    cr_assert_eq(o.end, FMUC_WORKER_EXITED_EARLY);
    cr_assert_eq(o.exit_code, 0);
    fmuc_result_init(&res, "t-exit", "t", "spec", FMUC_LEVEL_MUST);
    cr_assert_neq(fmuc_worker_outcome_to_result(&o, &res), 0);
    cr_assert_eq(res.verdict, FMUC_VERDICT_ERROR);
    fmuc_result_clear(&res);
    fmuc_worker_outcome_free(&o);
}

Test(worker, timeout_kills_quickly, .timeout = 30)
{
    fmuc_worker_spec s = spec_for(NULL, 1);
    fmuc_worker_outcome o;
    run(&s, fn_sleep, NULL, &o);
    cr_assert_eq(o.end, FMUC_WORKER_TIMEOUT);
    cr_assert_str_eq(o.phase, "sleeping");
    cr_assert_lt(o.duration_s, 4.0);
    cr_assert_geq(o.duration_s, 0.9);
    fmuc_worker_outcome_free(&o);
}

Test(worker, timeout_multiplier_scales, .timeout = 30)
{
    fmuc_worker_spec s = spec_for(NULL, 0.25);
    fmuc_worker_outcome o;
    s.timeout_multiplier = 4;
    run(&s, fn_sleep, NULL, &o);
    cr_assert_eq(o.end, FMUC_WORKER_TIMEOUT);
    cr_assert_geq(o.duration_s, 0.9);
    fmuc_worker_outcome_free(&o);
}

Test(worker, segv_in_dostep_keeps_trace, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 5);
    fmuc_worker_outcome o;
    fmuc_result res;
    run(&s, fn_hostile, "segv", &o);
    cr_assert_eq(o.end, FMUC_WORKER_CRASHED, "end=%s", fmuc_worker_end_name(o.end));
    cr_assert_eq(o.signal, SIGSEGV);
    cr_assert_eq(o.call_in_progress, 1);
    cr_assert_str_eq(o.last_call, "fmi2DoStep(t=0.5, h=0.25, noSet=0)");
    cr_assert_str_eq(o.phase, "step loop");
    /* dlopen, instantiate, setup, enter, exit, 3 steps (the third in progress) */
    cr_assert_eq(o.ncalls, 8);
    cr_assert_eq(cJSON_GetArraySize(o.trace), 8);
    {
        cJSON *last = cJSON_GetArrayItem(o.trace, 7);
        cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(last, "in_progress")));
        cJSON *prev = cJSON_GetArrayItem(o.trace, 6);
        cr_assert_str_eq(cJSON_GetObjectItem(prev, "status")->valuestring, "fmi2OK");
        cJSON *inst = cJSON_GetArrayItem(o.trace, 1);
        cr_assert(strncmp(cJSON_GetObjectItem(inst, "call")->valuestring, "fmi2Instantiate(", 16) == 0);
        cr_assert_str_eq(cJSON_GetObjectItem(inst, "status")->valuestring, "non-NULL");
    }
    fmuc_result_init(&res, "t-segv", "t", "spec", FMUC_LEVEL_MUST);
    cr_assert_neq(fmuc_worker_outcome_to_result(&o, &res), 0);
    cr_assert_eq(res.verdict, FMUC_VERDICT_ERROR);
    cr_assert(strstr(res.messages[0], "SIGSEGV") && strstr(res.messages[0], "fmi2DoStep(t=0.5"),
              "%s", res.messages[0]);
    cr_assert_not_null(cJSON_GetObjectItem(cJSON_GetObjectItem(res.evidence, "worker"), "trace"));
    fmuc_result_clear(&res);
    fmuc_worker_outcome_free(&o);
}

Test(worker, endless_loop_in_dostep_times_out, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 1);
    fmuc_worker_outcome o;
    run(&s, fn_hostile, "loop", &o);
    cr_assert_eq(o.end, FMUC_WORKER_TIMEOUT);
    cr_assert_eq(o.call_in_progress, 1);
    cr_assert(strncmp(o.last_call, "fmi2DoStep(", 11) == 0, "%s", o.last_call);
    cr_assert_lt(o.duration_s, 4.0);
    fmuc_worker_outcome_free(&o);
}

Test(worker, exit3_in_dostep, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 5);
    fmuc_worker_outcome o;
    run(&s, fn_hostile, "exit3", &o);
    cr_assert_eq(o.end, FMUC_WORKER_EXITED_EARLY);
    cr_assert_eq(o.exit_code, 3);
    cr_assert_eq(o.call_in_progress, 1);
    fmuc_worker_outcome_free(&o);
}

Test(worker, abort_in_dostep, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 5);
    fmuc_worker_outcome o;
    run(&s, fn_hostile, "abort", &o);
    cr_assert_eq(o.end, FMUC_WORKER_CRASHED);
    cr_assert_eq(o.signal, SIGABRT);
    fmuc_worker_outcome_free(&o);
}

Test(worker, stdout_flood_is_capped_and_counted, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 20);
    fmuc_worker_outcome o;
    s.capture_cap_bytes = 4096;
    run(&s, fn_hostile, "flood", &o);
    cr_assert_eq(o.end, FMUC_WORKER_OK, "end=%s", fmuc_worker_end_name(o.end));
    /* three steps, 50 MiB each */
    cr_assert_eq(o.out.bytes, 3ull * 800 * 65536);
    cr_assert_eq(o.out.head_len, 4096);
    cr_assert_eq(o.out.truncated, 1);
    cr_assert(strncmp(o.out.head, "0123456789", 10) == 0);
    fmuc_worker_outcome_free(&o);
}

Test(worker, endless_output_still_times_out, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 1);
    fmuc_worker_outcome o;
    run(&s, fn_hostile, "flood_forever", &o);
    cr_assert_eq(o.end, FMUC_WORKER_TIMEOUT);
    cr_assert_lt(o.duration_s, 4.0);
    cr_assert_gt(o.out.bytes, o.out.head_len);
    fmuc_worker_outcome_free(&o);
}

Test(worker, logger_refuses_percent_n_and_tolerates_null, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 5);
    fmuc_worker_outcome o;
    cJSON *m0, *m1, *m2;
    run(&s, fn_hostile, "lognfmt", &o);
    cr_assert_eq(o.end, FMUC_WORKER_OK, "end=%s", fmuc_worker_end_name(o.end));
    cr_assert_eq(o.log_total, 9); /* three messages per step */
    m0 = cJSON_GetArrayItem(o.log, 0);
    cr_assert_str_eq(cJSON_GetObjectItem(m0, "message")->valuestring, "%s%s%n");
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(m0, "raw")));
    cr_assert_str_eq(cJSON_GetObjectItem(m0, "status")->valuestring, "fmi2Warning");
    cr_assert_str_eq(cJSON_GetObjectItem(m0, "instance")->valuestring, "hostile");
    m1 = cJSON_GetArrayItem(o.log, 1);
    cr_assert(cJSON_IsNull(cJSON_GetObjectItem(m1, "instance")));
    cr_assert(cJSON_IsNull(cJSON_GetObjectItem(m1, "category")));
    cr_assert(cJSON_IsNull(cJSON_GetObjectItem(m1, "message")));
    m2 = cJSON_GetArrayItem(o.log, 2);
    cr_assert_str_eq(cJSON_GetObjectItem(m2, "message")->valuestring, "t=0 n=7");
    cr_assert_null(cJSON_GetObjectItem(m2, "raw"));
    fmuc_worker_outcome_free(&o);
}

Test(worker, logger_formats_safe_subset_and_caps, .timeout = 30)
{
    fmuc_worker_spec s = spec_for(NULL, 5);
    fmuc_worker_outcome o;
    run(&s, fn_logger_formats, NULL, &o);
    cr_assert_eq(o.end, FMUC_WORKER_OK);
    cr_assert_eq(o.log_total, 1505);
    cr_assert_eq(cJSON_GetObjectItem(o.reply, "count")->valuedouble, 1505);
    cr_assert_eq(cJSON_GetArraySize(o.log), 1000);
    cr_assert_str_eq(log_msg(&o, 0), " 3.14|7  |1234567890123|9|ff|%|z|str");
    cr_assert_str_eq(log_msg(&o, 1), "%1$s");
    cr_assert(log_flag(&o, 1, "raw"));
    cr_assert_str_eq(log_msg(&o, 2), "%ls");
    cr_assert(log_flag(&o, 2, "raw"));
    cr_assert_eq(strlen(log_msg(&o, 3)), 4095);
    cr_assert(log_flag(&o, 3, "truncated"));
    cr_assert(log_flag(&o, 4, "env_mismatch"));
    cr_assert_str_eq(log_msg(&o, 5), "n=0");
    fmuc_worker_outcome_free(&o);
}

Test(worker, library_outside_unpack_dir_is_refused, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 5);
    fmuc_worker_outcome o;
    fmu.unpack_dir = (char *)"/proc";
    run(&s, fn_hostile, "ok", &o);
    cr_assert_eq(o.end, FMUC_WORKER_OK);
    cr_assert_eq(o.fn_status, 1);
    cr_assert_eq(o.load_ok, 0);
    cr_assert_eq(o.ncalls, 0); /* never dlopen'ed */
    fmuc_worker_outcome_free(&o);
}

Test(worker, constructor_crash_at_dlopen, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile_ctor.so");
    fmuc_worker_spec s = spec_for(&fmu, 5);
    fmuc_worker_outcome o;
    run(&s, fn_hostile, "ok", &o);
    cr_assert_eq(o.end, FMUC_WORKER_CRASHED);
    cr_assert_eq(o.signal, SIGSEGV);
    cr_assert_str_eq(o.phase, "load");
    cr_assert_str_eq(o.last_call, "dlopen(hostile_ctor.so)");
    cr_assert_eq(o.call_in_progress, 1);
    cr_assert_eq(o.load_attempted, 1);
    cr_assert_eq(o.load_ok, 0);
    {
        fmuc_result res;
        fmuc_result_init(&res, "t-ctor", "t", "spec", FMUC_LEVEL_MUST);
        cr_assert_neq(fmuc_worker_outcome_to_result(&o, &res), 0);
        cr_assert_eq(res.verdict, FMUC_VERDICT_ERROR);
        cr_assert(strstr(res.messages[0], "dlopen(hostile_ctor.so)") != NULL, "%s", res.messages[0]);
        fmuc_result_clear(&res);
    }
    fmuc_worker_outcome_free(&o);
}

Test(worker, dlopen_failure_is_reported, .timeout = 30)
{
    /* a non-ELF file */
    fmuc_fmu fmu = fake_fmu(FMUC_SOURCE_DIR "/tests/fixtures/CMakeLists.txt");
    fmuc_worker_spec s = spec_for(&fmu, 5);
    fmuc_worker_outcome o;
    run(&s, fn_hostile, "ok", &o);
    cr_assert_eq(o.end, FMUC_WORKER_OK);
    cr_assert_eq(o.fn_status, 1);
    cr_assert_eq(o.load_attempted, 1);
    cr_assert_eq(o.load_ok, 0);
    cr_assert(strstr(o.load_error, "dlopen failed") != NULL, "%s", o.load_error);
    fmuc_worker_outcome_free(&o);
}

Test(worker, missing_symbols_are_listed_and_not_called, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile_missing.so");
    fmuc_worker_spec s = spec_for(&fmu, 5);
    fmuc_worker_outcome o;
    run(&s, fn_missing, NULL, &o);
    cr_assert_eq(o.end, FMUC_WORKER_OK);
    /* 25 common + 9 CS functions, 2 present */
    cr_assert_eq(cJSON_GetObjectItem(o.reply, "nmissing")->valuedouble, 32);
    cr_assert_eq(cJSON_GetArraySize(o.missing), 32);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(o.reply, "has_version")));
    cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(o.reply, "has_step")));
    cr_assert_eq(cJSON_GetObjectItem(o.reply, "step_status")->valuedouble, FMUC_FMI_NOT_PROVIDED);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(o.reply, "inst_null")));
    fmuc_worker_outcome_free(&o);
}

/* A worker at its wall-clock limit whose FMI calls keep returning runs on up to
 * progress_limit_s (the nominal runs: a slow FMU on a slow machine is no hang); without it, or
 * when a call stops returning, the limit holds. */
Test(worker, progress_extends_the_limit_of_a_slow_worker, .timeout = 60)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_outcome o;
    fmuc_worker_spec s = spec_for(&fmu, 1.0);
    s.progress_limit_s = 10.0;
    run(&s, fn_hostile, "slow_steps", &o);
    cr_expect_eq(o.end, FMUC_WORKER_OK, "three steps of 0.6 s, each returning: end=%s (%s)",
                 fmuc_worker_end_name(o.end), o.detail);
    cr_expect_gt(o.duration_s, 1.0, "past the first limit");
    fmuc_worker_outcome_free(&o);

    s.progress_limit_s = 0.0;
    run(&s, fn_hostile, "slow_steps", &o);
    cr_expect_eq(o.end, FMUC_WORKER_TIMEOUT, "no progress limit: the limit holds (end=%s)",
                 fmuc_worker_end_name(o.end));
    fmuc_worker_outcome_free(&o);

    s.progress_limit_s = 10.0;
    run(&s, fn_hostile, "loop", &o);
    cr_expect_eq(o.end, FMUC_WORKER_TIMEOUT, "a step that never returns: end=%s",
                 fmuc_worker_end_name(o.end));
    cr_expect_lt(o.duration_s, 5.0, "a call that stopped returning ends it: %g s", o.duration_s);
    cr_expect(o.call_in_progress);
    fmuc_worker_outcome_free(&o);
}

static void orphan_case(const char *mode_prefix)
{
    /* the hostile FMU writes its orphan's pid into a folder the sandbox lets it write */
    char dir[] = "/tmp/fmuc_orphan_XXXXXX";
    char file[64];
    char mode[600];
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 5);
    fmuc_sandbox_config sb;
    fmuc_worker_outcome o;
    long pid;

    cr_assert(mkdtemp(dir) != NULL);
    cr_assert_eq(chmod(dir, 0777), 0);
    snprintf(file, sizeof file, "%s/pid", dir);
    memset(&sb, 0, sizeof sb);
    sb.allow_write[sb.nallow_write++] = dir;
    s.sandbox = &sb;
    snprintf(mode, sizeof mode, "%s%s", mode_prefix, file);
    run(&s, fn_hostile, mode, &o);
    char *log = o.log ? cJSON_PrintUnformatted(o.log) : NULL; /* what the FMU said of its forks */
    cr_assert_eq(o.end, FMUC_WORKER_OK, "end=%s; the FMU's log: %s", fmuc_worker_end_name(o.end),
                 log ? log : "(none)");
    pid = read_pid_file(file);
    unlink(file);
    rmdir(dir);
    cr_assert_gt(pid, 0, "no orphan's pid in %s; the FMU's log: %s", file, log ? log : "(none)");
    free(log);
    cr_assert(process_gone(pid), "orphan %ld still exists", pid);
    fmuc_worker_outcome_free(&o);
}

Test(worker, forked_orphan_is_killed, .timeout = 30)
{
    orphan_case("orphan:");
}

Test(worker, setsid_daemon_is_killed, .timeout = 30)
{
    orphan_case("orphan_setsid:");
}

/* a daemon that exec'ed another program maps nothing of the worker: it is known as a child
 * (by then reparented to the worker's parent, a subreaper) started after the worker */
Test(worker, daemon_that_execs_is_killed, .timeout = 30)
{
    orphan_case("orphan_exec:");
}

Test(worker, huge_allocation_via_callback_fails_cleanly, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 5);
    fmuc_worker_outcome o;
    run(&s, fn_hostile, "alloc_huge", &o);
    cr_assert_eq(o.end, FMUC_WORKER_OK);
    cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(o.log, 0), "message")->valuestring,
                     "alloc=null");
    cr_assert_eq(o.allocs, 0);
    fmuc_worker_outcome_free(&o);
}

Test(worker, huge_malloc_does_not_hurt_parent, .timeout = 30)
{
    fmuc_worker_spec s = spec_for(NULL, 10);
    fmuc_worker_outcome o;
    run(&s, fn_malloc_huge, NULL, &o);
    /* Without ASan RLIMIT_AS makes malloc fail; under ASan the allocator may abort instead. */
    if (o.end == FMUC_WORKER_OK)
        cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(o.reply, "got")));
    else
        cr_assert(o.end == FMUC_WORKER_CRASHED || o.end == FMUC_WORKER_EXITED_EARLY);
    fmuc_worker_outcome_free(&o);
}

Test(worker, foreign_free_is_counted_not_crashing, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 5);
    fmuc_worker_outcome o;
    run(&s, fn_hostile, "bad_free", &o);
    cr_assert_eq(o.end, FMUC_WORKER_OK, "end=%s", fmuc_worker_end_name(o.end));
    /* per step: 2 allocations, 1 good free, 3 bad ones (stack, foreign heap, double free) */
    cr_assert_eq(o.allocs, 6);
    cr_assert_eq(o.frees, 3);
    cr_assert_eq(o.bad_frees, 9);
    cr_assert_eq(o.live_bytes, 300);
    fmuc_worker_outcome_free(&o);
}

Test(worker, reply_too_large_is_protocol_error, .timeout = 30)
{
    fmuc_worker_spec s = spec_for(NULL, 10);
    fmuc_worker_outcome o;
    s.reply_max_bytes = 1u << 20;
    run(&s, fn_big_reply, NULL, &o);
    cr_assert_eq(o.end, FMUC_WORKER_PROTOCOL);
    cr_assert_null(o.reply);
    fmuc_worker_outcome_free(&o);
}

Test(worker, garbage_before_reply_is_protocol_error, .timeout = 30)
{
    fmuc_worker_spec s = spec_for(NULL, 5);
    fmuc_worker_outcome o;
    fmuc_result res;
    run(&s, fn_garbage, NULL, &o);
    cr_assert_eq(o.end, FMUC_WORKER_PROTOCOL);
    fmuc_result_init(&res, "t-proto", "t", "spec", FMUC_LEVEL_MUST);
    cr_assert_neq(fmuc_worker_outcome_to_result(&o, &res), 0);
    cr_assert_eq(res.verdict, FMUC_VERDICT_ERROR);
    fmuc_result_clear(&res);
    fmuc_worker_outcome_free(&o);
}

Test(worker, fake_frame_from_fmu_is_protocol_error, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 5);
    fmuc_worker_outcome o;
    run(&s, fn_hostile, "garbage_reply", &o);
    cr_assert_eq(o.end, FMUC_WORKER_PROTOCOL);
    cr_assert_null(o.reply);
    fmuc_worker_outcome_free(&o);
}

/* FMU code shares the worker's process and can write a well-formed reply itself: one written
 * while an FMI call has not returned is not the worker's, so it is not read (the call is the
 * one the worker ended in, as an exit there) */
Test(worker, reply_written_inside_a_call_is_not_trusted, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 5);
    fmuc_worker_outcome o;
    run(&s, fn_hostile, "forged_reply", &o);
    cr_assert_eq(o.end, FMUC_WORKER_EXITED_EARLY, "end=%s", fmuc_worker_end_name(o.end));
    cr_assert_null(o.reply);
    cr_assert_eq(o.call_in_progress, 1);
    cr_assert(strstr(o.detail, "written by FMU code"), "%s", o.detail);
    fmuc_worker_outcome_free(&o);
}

/* FMU code that closes every descriptor leaves the worker no way to reply: the outcome says so,
 * naming the closed reply descriptor, not just "exited without a reply" */
Test(worker, closed_reply_descriptor_is_named, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 5);
    fmuc_worker_outcome o;
    run(&s, fn_hostile, "close_fds", &o);
    cr_assert_eq(o.end, FMUC_WORKER_EXITED_EARLY, "end=%s", fmuc_worker_end_name(o.end));
    cr_assert(o.detail && strstr(o.detail, "reply descriptor was closed or replaced"), "%s",
              o.detail ? o.detail : "(no detail)");
    fmuc_worker_outcome_free(&o);
}

/* FMU code that forks inside an FMI call and lets both processes return: the copy is ended as
 * soon as it is back in the worker's code (its next FMI call), so only the worker replies; the
 * outcome and the result name the call the copy came from */
Test(worker, forked_copy_that_returns_is_ended_unheard, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 5);
    fmuc_worker_outcome o;
    fmuc_result res;
    run(&s, fn_hostile, "fork_continue", &o);
    cr_assert_eq(o.end, FMUC_WORKER_OK, "end=%s %s", fmuc_worker_end_name(o.end),
                 o.detail ? o.detail : "");
    cr_assert_eq(o.forked_copies, 1);
    cr_assert_str_eq(o.forked_call, "fmi2DoStep");
    /* the worker's own reply: three steps, one status each, read once */
    cr_assert_eq(cJSON_GetArraySize(o.reply), 4, "%d items", cJSON_GetArraySize(o.reply));
    fmuc_result_init(&res, "t-fork", "t", "spec", FMUC_LEVEL_MUST);
    cr_assert_eq(fmuc_worker_outcome_to_result(&o, &res), 0);
    cr_assert_eq(res.verdict, FMUC_VERDICT_PASS);
    cr_assert(res.nmessages == 1 && strstr(res.messages[0], "forked the worker") &&
                  strstr(res.messages[0], "fmi2DoStep"),
              "%s", res.nmessages ? res.messages[0] : "(no message)");
    fmuc_result_clear(&res);
    fmuc_worker_outcome_free(&o);
}

/* The daemon pattern inside fmi2DoStep: the worker itself exits in the call and its copy comes
 * back. The copy ends before it can mark the call as returned in the shared trace: the worker
 * ended inside fmi2DoStep, as with a plain exit there */
Test(worker, forked_copy_cannot_mark_the_workers_call_returned, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 5);
    fmuc_worker_outcome o;
    run(&s, fn_hostile, "fork_parent_exits", &o);
    cr_assert_eq(o.end, FMUC_WORKER_EXITED_EARLY, "end=%s", fmuc_worker_end_name(o.end));
    cr_assert_eq(o.call_in_progress, 1, "last call %s", o.last_call);
    cr_assert(strncmp(o.last_call, "fmi2DoStep(t=0,", 15) == 0, "%s", o.last_call);
    cr_assert_eq(o.forked_copies, 1);
    cr_assert_str_eq(o.forked_call, "fmi2DoStep");
    fmuc_worker_outcome_free(&o);
}

/* a stop before a call that hung in an earlier worker: that worker's check judged the hang, so
 * this result is not applicable (not an error), naming it */
Test(worker, stop_before_a_remembered_hang_is_not_applicable, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 5);
    fmuc_worker_hangs hangs;
    fmuc_worker_outcome o;
    fmuc_result res;
    memset(&hangs, 0, sizeof hangs);
    hangs.n = 1;
    snprintf(hangs.e[0].fn, sizeof hangs.e[0].fn, "fmi2Terminate");
    hangs.e[0].ifaces = 2; /* CS */
    snprintf(hangs.e[0].by, sizeof hangs.e[0].by, "api-example");
    hangs.e[0].t = NAN;
    s.hangs = &hangs;
    run(&s, fn_hostile, "ok", &o);
    cr_assert_eq(o.end, FMUC_WORKER_TIMEOUT, "end=%s", fmuc_worker_end_name(o.end));
    cr_assert_eq(o.hung_before, 1);
    fmuc_result_init(&res, "t-hung", "t", "spec", FMUC_LEVEL_MUST);
    cr_assert_neq(fmuc_worker_outcome_to_result(&o, &res), 0);
    cr_assert_eq(res.verdict, FMUC_VERDICT_NA, "%s", fmuc_verdict_name(res.verdict));
    cr_assert(strstr(res.messages[0], "fmi2Terminate hung in an earlier worker") &&
                  strstr(res.messages[0], "(api-example)"),
              "%s", res.messages[0]);
    fmuc_result_clear(&res);
    fmuc_worker_outcome_free(&o);
}

/* What FMU code can do to the worker's shared record (it shares the process): mark the sandbox
 * setup as failed after the library was loaded. Reached through the record's memfd in
 * /proc/self/maps, as an FMU would find it. */
static int fn_forge_sandbox_failure(fmuc_worker_ctx *ctx, void *payload)
{
    (void)payload;
    if (!fmuc_worker_load(ctx, fmi2CoSimulation))
        return 1;
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (!strstr(line, "fmuc-worker-") || sscanf(line, "%lx-%lx", &lo, &hi) != 2)
            continue;
        fmuc_w_shared *sh = (fmuc_w_shared *)lo;
        if (sh->magic != FMUC_W_MAGIC)
            continue;
        sh->sandbox.reported = 1;
        sh->sandbox.setup_failed = 1;
        snprintf(sh->sandbox.setup_error, sizeof sh->sandbox.setup_error, "forged");
    }
    if (f)
        fclose(f);
    return 0;
}

/* A sandbox failure is an environment error (the run stops with 64): one recorded after the
 * FMU's library was loaded can only come from FMU code, and is reported as the worker's
 * record not being trusted, never as the machine's fault. */
Test(worker, sandbox_failure_written_after_load_is_not_an_environment_error, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 5);
    fmuc_worker_outcome o;
    fmuc_diag d = {{0}, FMUC_OK};
    cr_assert_eq(fmuc_worker_run(&s, fn_forge_sandbox_failure, NULL, &o, &d), FMUC_OK,
                 "an environment error: %s", d.msg);
    cr_assert_eq(o.end, FMUC_WORKER_PROTOCOL, "end=%s", fmuc_worker_end_name(o.end));
    cr_assert(o.detail && strstr(o.detail, "written by FMU code"), "%s", o.detail);
    cr_assert_eq(o.sandbox_error[0], '\0');
    fmuc_worker_outcome_free(&o);
}

Test(worker, invalid_status_is_traced_raw, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 5);
    fmuc_worker_outcome o;
    run(&s, fn_hostile, "status42", &o);
    cr_assert_eq(o.end, FMUC_WORKER_OK);
    cr_assert_eq(cJSON_GetObjectItem(o.reply, "status")->valuedouble, 42);
    cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(o.trace, 5), "status")->valuestring,
                     "invalid(42)");
    fmuc_worker_outcome_free(&o);
}

Test(worker, nothing_left_running_and_no_fd_leak, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 1);
    fmuc_worker_outcome o;
    int before = count_fds();
    static const char *const modes[] = {"ok", "segv", "abort", "loop", "exit3", "lognfmt"};

    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        run(&s, fn_hostile, (void *)modes[i], &o);
        fmuc_worker_outcome_free(&o);
    }
    run(&s, fn_ok, NULL, &o);
    fmuc_worker_outcome_free(&o);
    cr_assert_eq(count_fds(), before);
    /* every worker was reaped: no child of ours remains */
    cr_assert_eq(waitpid(-1, NULL, WNOHANG), -1);
    cr_assert_eq(errno, ECHILD);
}

/* B18: a library whose destructor crashes at dlclose, after a complete run. The worker replies
 * before it unloads the library, so the calls stand judged; how the unload ended is in the
 * outcome (after_reply) and a note, never hidden */
/* A CPU time limit FMU code lowered kills the worker (SIGXCPU at the soft limit, SIGKILL at the
 * hard one), read from the zombie before it is reaped: the FMU ended its own process. Not a hang
 * to remember, not the answer to what a check probed: not applicable, naming the limit */
static void own_cpu_limit_case(const char *mode, int sig)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 10);
    fmuc_worker_hangs hangs;
    memset(&hangs, 0, sizeof hangs);
    s.hangs = &hangs;
    fmuc_worker_outcome o;
    fmuc_result res;
    run(&s, fn_hostile, (void *)mode, &o);
    cr_assert_eq(o.end, FMUC_WORKER_CRASHED, "end=%s %s", fmuc_worker_end_name(o.end),
                 o.detail ? o.detail : "");
    cr_assert_eq(o.signal, sig, "signal %d", o.signal);
    cr_assert_eq(o.call_in_progress, 1);
    /* the kernel keeps a soft limit of 0 as 1 s */
    cr_assert(strncmp(o.own_limit, "RLIMIT_CPU at 0 s", 17) == 0 ||
                  strncmp(o.own_limit, "RLIMIT_CPU at 1 s", 17) == 0,
              "own_limit '%s'", o.own_limit);
    cr_expect(strstr(o.own_limit, "fmucheck set 11 s"), "%s", o.own_limit);
    cr_assert_eq(hangs.n, 0, "no hang remembered");
    char why[600];
    fmuc_worker_death_text(&o, why, sizeof why);
    cr_expect(strstr(why, "its own lowered CPU limit"), "%s", why);
    fmuc_result_init(&res, "t-limit", "t", "spec", FMUC_LEVEL_MUST);
    cr_expect_neq(fmuc_worker_outcome_to_result(&o, &res), 0);
    cr_expect_eq(res.verdict, FMUC_VERDICT_NA, "%s", fmuc_verdict_name(res.verdict));
    cr_expect(res.nmessages && strstr(res.messages[0], "api-process-state"), "%s",
              res.nmessages ? res.messages[0] : "");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
                         cJSON_GetObjectItemCaseSensitive(res.evidence, "worker"), "own_limit")),
                     o.own_limit);
    fmuc_result_clear(&res);
    fmuc_worker_outcome_free(&o);
}

Test(worker, a_lowered_soft_cpu_limit_is_the_fmus_doing, .timeout = 30)
{
    own_cpu_limit_case("lower_cpu_limit", SIGXCPU);
}

Test(worker, a_lowered_hard_cpu_limit_is_the_fmus_doing, .timeout = 30)
{
    own_cpu_limit_case("lower_cpu_limit_hard", SIGKILL);
}

Test(worker, crash_at_unload_is_reported, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 10);
    fmuc_worker_outcome o;
    fmuc_result res;
    run(&s, fn_hostile, "crash_at_unload", &o);
    cr_assert_eq(o.end, FMUC_WORKER_OK, "end=%s %s", fmuc_worker_end_name(o.end),
                 o.detail ? o.detail : "");
    cr_assert(o.reply, "the reply sent before unloading is read");
    cr_expect(strncmp(o.after_reply, "SIGSEGV in dlclose(", 19) == 0, "%s", o.after_reply);
    fmuc_result_init(&res, "t-unload", "t", "spec", FMUC_LEVEL_MUST);
    cr_expect_eq(fmuc_worker_outcome_to_result(&o, &res), 0);
    cr_expect_eq(res.verdict, FMUC_VERDICT_PASS);
    cr_expect(res.nmessages >= 1 && strstr(res.messages[0], "while unloading the FMU's library"),
              "%s", res.nmessages ? res.messages[0] : "(no message)");
    fmuc_result_clear(&res);
    fmuc_worker_outcome_free(&o);
}

/* A destructor that appends bytes to the reply pipe, then exits: the reply no longer parses, so
 * the worker's end stays the exit in dlclose, its detail intact (it was freed under the outcome
 * before: take_reply_before_unload) */
Test(worker, garbled_reply_before_an_exit_at_unload_keeps_the_exit, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 10);
    fmuc_worker_outcome o;
    fmuc_result res;
    run(&s, fn_hostile, "junk_exit_at_unload", &o);
    cr_assert_eq(o.end, FMUC_WORKER_EXITED_EARLY, "end=%s", fmuc_worker_end_name(o.end));
    cr_expect_eq(o.exit_code, 3);
    cr_expect(o.detail && strstr(o.detail, "reply bytes sent"), "%s",
              o.detail ? o.detail : "(no detail)");
    cr_expect_null(o.reply);
    cr_expect_str_eq(o.after_reply, "");
    cr_expect(strncmp(o.last_call, "dlclose(", 8) == 0, "%s", o.last_call);
    fmuc_result_init(&res, "t-unload", "t", "spec", FMUC_LEVEL_MUST);
    cr_expect_neq(fmuc_worker_outcome_to_result(&o, &res), 0);
    cr_expect_eq(res.verdict, FMUC_VERDICT_ERROR);
    fmuc_result_clear(&res);
    fmuc_worker_outcome_free(&o);
}

/* B18: a thread the FMU leaves running returns into its unmapped library after dlclose. The
 * worker waits a moment when threads outlive the FMU, so the crash is seen in the unload phase,
 * naming the threads, rather than racing the exit; the reply came before */
Test(worker, thread_left_running_crashes_at_unload, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 10);
    fmuc_worker_outcome o;
    run(&s, fn_hostile, "thread_after_free", &o);
    cr_assert_eq(o.end, FMUC_WORKER_OK, "end=%s", fmuc_worker_end_name(o.end));
    cr_assert(o.reply);
    /* mostly in the wait that names the thread; in dlclose itself when the thread woke then,
     * or (on a loaded machine) between dlclose's return and the wait: phase 'unload' */
    cr_expect(strstr(o.after_reply, "SIGSEGV") &&
                  (strstr(o.after_reply, "unload (threads the FMU started still running: 1)") ||
                   strstr(o.after_reply, "dlclose(") ||
                   strstr(o.after_reply, "in phase 'unload'")),
              "%s", o.after_reply);
    fmuc_worker_outcome_free(&o);
}

/* A thread parked in libc survives dlclose without crashing: the worker ends well. */
Test(worker, parked_thread_does_not_fail_the_worker, .timeout = 30)
{
    fmuc_fmu fmu = fake_fmu(HOSTILE_DIR "/hostile.so");
    fmuc_worker_spec s = spec_for(&fmu, 10);
    fmuc_worker_outcome o;
    run(&s, fn_hostile, "thread_parked", &o);
    cr_assert_eq(o.end, FMUC_WORKER_OK, "end=%s", fmuc_worker_end_name(o.end));
    fmuc_worker_outcome_free(&o);
}

/* ---- fmuc_proc: the /proc facts the sweeps and the lane kill use ---------------------------- */

Test(proc, children_parent_and_end_of_own_children, .timeout = 30)
{
    pid_t run = fork();
    if (run == 0) {
        pause();
        _exit(0);
    }
    pid_t gone = fork();
    if (gone == 0)
        _exit(0);
    cr_assert(run > 0 && gone > 0);
    /* the second child ends: a zombie until reaped */
    for (int i = 0; i < 500 && !fmuc_proc_ended(gone); i++)
        usleep(2000);
    pid_t kids[16];
    int complete = 0;
    long n = fmuc_proc_children(getpid(), kids, 16, &complete);
    int have_run = 0, have_gone = 0;
    for (long i = 0; i < n; i++) {
        have_run |= kids[i] == run;
        have_gone |= kids[i] == gone;
    }
    cr_expect(n >= 2 && complete, "n=%ld complete=%d", n, complete);
    cr_expect(have_run && have_gone, "both children listed");
    cr_expect_eq(fmuc_proc_ppid(run), getpid());
    cr_expect_eq(fmuc_proc_ended(run), 0, "a sleeping child runs");
    cr_expect_eq(fmuc_proc_ended(gone), 1, "an exited child not yet reaped has ended");
    /* a list longer than the room given: the first ones, and not complete */
    n = fmuc_proc_children(getpid(), kids, 1, &complete);
    cr_expect(n == 1 && !complete, "n=%ld complete=%d", n, complete);
    kill(run, SIGKILL);
    waitpid(run, NULL, 0);
    waitpid(gone, NULL, 0);
    /* reaped: gone from /proc */
    cr_expect_eq(fmuc_proc_ended(gone), 1);
    cr_expect_eq(fmuc_proc_ppid(gone), -1);
    cr_expect_eq(fmuc_proc_children(gone, kids, 16, NULL), -1);
}

/* The CPU limit of another process, also of a zombie not yet reaped (what the worker's parent
 * reads before reaping it), "unlimited" as RLIM_INFINITY; gone once reaped */
Test(proc, cpu_limit_of_a_zombie, .timeout = 30)
{
    pid_t p = fork();
    if (p == 0) {
        struct rlimit r = {7, RLIM_INFINITY};
        setrlimit(RLIMIT_CPU, &r);
        _exit(0);
    }
    cr_assert(p > 0);
    siginfo_t si;
    memset(&si, 0, sizeof si);
    cr_assert_eq(waitid(P_PID, (id_t)p, &si, WEXITED | WNOWAIT), 0);
    struct rlimit got;
    cr_assert_eq(fmuc_proc_cpu_limit(p, &got), 0);
    cr_expect_eq(got.rlim_cur, (rlim_t)7);
    cr_expect_eq(got.rlim_max, RLIM_INFINITY);
    cr_expect_eq(fmuc_proc_cpu_limit(getpid(), &got), 0, "our own");
    waitpid(p, NULL, 0);
    cr_expect_eq(fmuc_proc_cpu_limit(p, &got), -1, "reaped: gone");
}
