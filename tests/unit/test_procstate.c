/* The instance layer's process-state watch (harness/src/procstate.c, fmuc_inst.h
 * fmuc_inst_watch_process_state): the changes an FMI call leaves behind are named with the call
 * and undone (signal dispositions only recorded); a well-behaved FMU leaves none; without the
 * watch nothing is recorded and the fixture's umask stays. */
#include <criterion/criterion.h>

#include <signal.h>
#include <string.h>
#include <sys/stat.h>

#include "fmuc/fmuc_inst.h"
#include "fmuc_test_util.h"

#define GLOBALS FMUC_FMU_DIR "/broken/api-process-state--globals.fmu"
#define BB3 FMUC_FMU_DIR "/fmi3/good/BouncingBall.fmu"
#define CALLBACK FMUC_FMU_DIR "/broken/api-process-state--callback.fmu"

static fmuc_fmu fmu;

static void open_path(const char *path)
{
    fmuc_diag d = {{0}, FMUC_OK};
    cr_assert_eq(fmuc_fmu_open(&fmu, path, NULL, NULL, &d), FMUC_OK, "%s", d.msg);
}

static void close_fmu(void)
{
    fmuc_fmu_close(&fmu);
}

static void run(fmuc_worker_fn fn, void *payload, fmuc_worker_outcome *o)
{
    fmuc_worker_spec spec;
    fmuc_diag d = {{0}, FMUC_OK};
    fmuc_worker_spec_init(&spec, &fmu, NULL);
    cr_assert_eq(fmuc_worker_run(&spec, fn, payload, o, &d), FMUC_OK, "%s", d.msg);
    cr_assert_eq(o->end, FMUC_WORKER_OK, "worker ended %s (%s)", fmuc_worker_end_name(o->end),
                 o->detail);
}

/* Co-Simulation to the end of initialization (and, for FMI 3.0, two steps), terminate, free;
 * payload: watch (1) or not (0). Reply: the changes and the harness's umask afterwards. */
static int life(fmuc_worker_ctx *ctx, void *payload)
{
    int watch = *(const int *)payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    if (fmuc_inst_load(ctx, FMUC_IFACE_CS) < 0)
        return 1;
    mode_t before = umask(022);
    umask(before);
    if (watch && fmuc_inst_watch_process_state(ctx, 1) < 0)
        return 2;
    fmuc_inst *in = fmuc_inst_instantiate(ctx, FMUC_IFACE_CS, NULL, "procstate");
    if (!in)
        return 3;
    fmuc_inst_experiment e = {0};
    e.stop = 1.0;
    fmuc_inst_setup_experiment(in, &e);
    fmuc_inst_enter_initialization_mode(in);
    fmuc_inst_exit_initialization_mode(in);
    if (fmuc_inst_version(ctx) == 3) {
        fmuc_inst_do_step(in, 0.0, 0.1, 1, NULL);
        fmuc_inst_do_step(in, 0.1, 0.1, 1, NULL);
    }
    fmuc_inst_terminate(in);
    fmuc_inst_free(in);
    fmuc_inst_ps_change ch[FMUC_INST_PS_KEPT];
    size_t n = fmuc_inst_process_state_changes(ctx, ch, FMUC_INST_PS_KEPT);
    cJSON *arr = cJSON_AddArrayToObject(reply, "changes");
    for (size_t i = 0; i < n && i < FMUC_INST_PS_KEPT; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "call", ch[i].call);
        cJSON_AddStringToObject(o, "what", ch[i].what);
        cJSON_AddBoolToObject(o, "callback", ch[i].suspended);
        cJSON_AddItemToArray(arr, o);
    }
    mode_t after = umask(022);
    umask(after);
    cJSON_AddBoolToObject(reply, "umask_kept", after == before);
    struct sigaction pipe_sa;
    cJSON_AddBoolToObject(reply, "sigpipe_ignored",
                          sigaction(SIGPIPE, NULL, &pipe_sa) == 0 && !(pipe_sa.sa_flags & SA_SIGINFO) &&
                              pipe_sa.sa_handler == SIG_IGN);
    fmuc_inst_watch_process_state(ctx, 0);
    return 0;
}

static int has_change(const cJSON *arr, const char *call_prefix, const char *what_part)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, arr)
    {
        const char *call = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "call"));
        const char *what = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "what"));
        if (call && what && strncmp(call, call_prefix, strlen(call_prefix)) == 0 &&
            strstr(what, what_part))
            return 1;
    }
    return 0;
}

Test(procstate, changes_are_named_with_their_call_and_undone, .init = NULL, .fini = close_fmu)
{
    fmuc_worker_outcome o;
    int watch = 1;
    open_path(GLOBALS);
    run(life, &watch, &o);
    cr_assert_eq(o.fn_status, 0);
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(o.reply, "changes");
    cr_assert_eq(cJSON_GetArraySize(arr), 3, "%d changes", cJSON_GetArraySize(arr));
    cr_assert(has_change(arr, "fmi2ExitInitializationMode",
                         "locale (setlocale LC_ALL) at 'C.UTF-8'"));
    cr_assert(has_change(arr, "fmi2ExitInitializationMode", "umask at 0077"));
    cr_assert(has_change(arr, "fmi2ExitInitializationMode", "SIGPIPE at ignored"));
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o.reply, "umask_kept")),
              "the umask change was not undone");
    /* signal dispositions are recorded, not undone (an embedded runtime may need its handlers) */
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o.reply, "sigpipe_ignored")),
              "the FMU's SIGPIPE disposition was put back");
    fmuc_worker_outcome_free(&o);
}

Test(procstate, nothing_without_the_watch, .init = NULL, .fini = close_fmu)
{
    fmuc_worker_outcome o;
    int watch = 0;
    open_path(GLOBALS);
    run(life, &watch, &o);
    cr_assert_eq(o.fn_status, 0);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(o.reply, "changes")), 0);
    /* without the watch the FMU's umask stays: the watch is what undoes it */
    cr_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(o.reply, "umask_kept")),
              "the fixture did not change the umask");
    fmuc_worker_outcome_free(&o);
}

Test(procstate, a_well_behaved_fmi3_fmu_leaves_nothing, .init = NULL, .fini = close_fmu)
{
    fmuc_worker_outcome o;
    int watch = 1;
    open_path(BB3);
    run(life, &watch, &o);
    cr_assert_eq(o.fn_status, 0);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(o.reply, "changes")), 0);
    fmuc_worker_outcome_free(&o);
}

/* A thread setting changed around a logger call and put back before the call returns is seen at
 * the callback (FMI 2.0.4 §2.1: undone before invoking a callback), once, marked as seen there;
 * the call's own return leaves nothing to compare or undo. */
Test(procstate, a_change_seen_when_the_fmu_calls_back, .init = NULL, .fini = close_fmu)
{
    fmuc_worker_outcome o;
    int watch = 1;
    open_path(CALLBACK);
    run(life, &watch, &o);
    cr_assert_eq(o.fn_status, 0);
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(o.reply, "changes");
    cr_assert_eq(cJSON_GetArraySize(arr), 1, "%d changes", cJSON_GetArraySize(arr));
    cr_assert(has_change(arr, "fmi2ExitInitializationMode", "x87 precision at double (53 bits)"));
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(arr, 0),
                                                           "callback")));
    fmuc_worker_outcome_free(&o);
}
