/* api-process-state: an FMI function must not change settings that affect other threads or
 * processes, and a change of its own thread's settings (the floating-point control registers
 * named as the example) must be undone before it returns or calls back (FMI 3.0.2 §2.2.1, M;
 * FMI 2.0.4 §2.1, fmi2-rules C-03, M). FMI 1.0 says nothing about it: not judged there.
 * Around every call of an ordinary life cycle (instantiate, set up / initialize, a few intervals
 * of the step-wise driver, terminate, free) of each interface, the instance layer compares the
 * state right before the call with the state after it (fmuc_inst_watch_process_state: MXCSR and
 * x87 control word, the locale of the FMU's C library, working directory, umask, dispositions
 * of the usual signals, the signal mask) and undoes a change, so each finding is one call's.
 * The worker itself installs no signal handler (it resets them all when it starts) and its
 * limits are the parent's timers, so only the FMU's own calls are compared. A crash or hang of
 * the life cycle is not this check's subject (the nominal-run checks report it): the changes
 * seen up to then are lost and the interface is reported as not judged. */
#include "api_util.h"

#define NSTEPS 4

static int probe(fmuc_worker_ctx *ctx, void *payload)
{
    fmuc_iface t = *(const fmuc_iface *)payload;
    const fmuc_fmu *fmu = fmuc_worker_fmu(ctx);
    cJSON *reply = fmuc_worker_reply(ctx);
    char why[256] = "";
    if (apiu_load(ctx, t) < 0)
        return 0;
    if (fmuc_inst_watch_process_state(ctx, 1) < 0) {
        cJSON_AddStringToObject(reply, "stopped", "out of memory");
        return 0;
    }
    fmuc_worker_phase(ctx, "life cycle");
    fmuc_inst *in = apiu_reach(ctx, t, &fmu->md, t == FMUC_IFACE_CS ? FMUC_ST_SC : FMUC_ST_EM,
                               "fmucheck-process-state", why, sizeof why);
    if (in) {
        apiu_steps st; /* how the steps ended is the nominal-run checks' to judge */
        apiu_short_steps(ctx, in, t, NSTEPS, &st);
        fmuc_worker_phase(ctx, "terminate");
        fmuc_inst_terminate(in);
        fmuc_inst_free(in);
    } else {
        cJSON_AddStringToObject(reply, "stopped", why);
    }
    fmuc_inst_ps_change ch[FMUC_INST_PS_KEPT];
    size_t total = fmuc_inst_process_state_changes(ctx, ch, FMUC_INST_PS_KEPT);
    cJSON *arr = cJSON_AddArrayToObject(reply, "changes");
    for (size_t i = 0; i < total && i < FMUC_INST_PS_KEPT && arr; i++) {
        cJSON *o = cJSON_CreateObject();
        if (!o)
            break;
        cJSON_AddStringToObject(o, "call", ch[i].call);
        cJSON_AddStringToObject(o, "what", ch[i].what);
        if (ch[i].suspended)
            cJSON_AddBoolToObject(o, "callback", 1);
        cJSON_AddItemToArray(arr, o);
    }
    cJSON_AddNumberToObject(reply, "total", (double)total);
    cJSON_AddBoolToObject(reply, "done", 1);
    fmuc_inst_watch_process_state(ctx, 0);
    return 0;
}

static int change_at(const cJSON *arr, int k, const char **call, const char **what, int *cb)
{
    const cJSON *c = cJSON_GetArrayItem(arr, k);
    *call = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "call"));
    *what = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "what"));
    *cb = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "callback"));
    return *call && *what ? 0 : -1;
}

/* the same function ("fmi3DoStep" of "fmi3DoStep(t=0, ...)") leaving the same change */
static int same_change(const char *call, const char *what, const char *call2, const char *what2)
{
    size_t n = strcspn(call, "("), n2 = strcspn(call2, "(");
    return n == n2 && strncmp(call, call2, n) == 0 && strcmp(what, what2) == 0;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    apiu_iface ifs[2];
    size_t n = apiu_usable_ifaces(s, res, FMUC_UNUSABLE_RUN, ifs), judged = 0;
    if (!n) {
        fmuc_result_na(res, "no binary for this platform");
        return;
    }
    char why[400] = "";
    double t0, h;
    apiu_grid(&s->fmu->md, &t0, &h);
    for (size_t i = 0; i < n; i++) {
        double t_end;
        /* the life cycle would reach a call that hung before: not again */
        if (fmuc_shared_horizon(s, ifs[i].type, t0, h, &t_end, NULL, why, sizeof why) != 0 ||
            t_end < t0 + NSTEPS * h) {
            apiu_note_short_horizon(res, why, sizeof why, ifs[i].name, NSTEPS);
            continue;
        }
        why[0] = '\0';
        fmuc_worker_outcome o;
        fmuc_result scratch;
        fmuc_result_init(&scratch, res->id, res->title, res->spec, res->level);
        const cJSON *r = apiu_run(s, &scratch, "api-process-state", ifs[i].type, probe,
                                  &ifs[i].type, &o);
        if (!r && o.own_limit[0]) {
            /* killed by a CPU limit FMU code lowered before the watch could report it: the
             * change this check judges, seen through its effect */
            char death[600];
            fmuc_worker_death_text(&o, death, sizeof death);
            fmuc_result_violation(res, "%s: FMU code lowered the process's %s and the worker was "
                                       "killed by it: %s",
                                  ifs[i].name, o.own_limit, death);
            judged++;
            fmuc_result_clear(&scratch);
            fmuc_worker_outcome_free(&o);
            continue;
        }
        if (!r) {
            /* the life cycle crashed or hung: reported by the nominal-run checks */
            snprintf(why, sizeof why, "%s: the life cycle ended abnormally (%s)", ifs[i].name,
                     scratch.nmessages ? scratch.messages[0] : "no reply");
            fmuc_result_note(res, "%s", why);
            fmuc_result_clear(&scratch);
            fmuc_worker_outcome_free(&o);
            continue;
        }
        fmuc_result_clear(&scratch);
        if (apiu_load_failed(r, res, ifs[i].type)) {
            fmuc_worker_outcome_free(&o);
            continue;
        }
        judged++;
        const cJSON *arr = cJSON_GetObjectItemCaseSensitive(r, "changes");
        int nc = cJSON_GetArraySize(arr);
        /* one message per function and change, naming its first call; repeats counted */
        for (int k = 0; k < nc; k++) {
            const char *call, *what;
            int cb, again = 0, seen = 0;
            if (change_at(arr, k, &call, &what, &cb) < 0)
                continue;
            for (int j = 0; j < nc && !seen; j++) {
                const char *call2, *what2;
                int cb2;
                if (j == k || change_at(arr, j, &call2, &what2, &cb2) < 0 ||
                    !same_change(call, what, call2, what2))
                    continue;
                if (j < k)
                    seen = 1;
                else
                    again++;
            }
            if (seen)
                continue;
            char more[48] = "";
            if (again)
                snprintf(more, sizeof more, " (and in %d later call%s)", again,
                         again == 1 ? "" : "s");
            fmuc_result_violation(res, "%s: %s %s %s%s", ifs[i].name, call,
                                  cb ? "called back into the importer with" : "left", what, more);
        }
        double total = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(r, "total"));
        if (total > cJSON_GetArraySize(arr))
            fmuc_result_note(res, "%s: %.0f changes in all (the first %d named)", ifs[i].name,
                             total, cJSON_GetArraySize(arr));
        const char *stopped = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "stopped"));
        if (stopped)
            fmuc_result_note(res, "%s: the life cycle stopped early: %s", ifs[i].name, stopped);
        else if (!cJSON_GetArraySize(arr))
            fmuc_result_note(res, "%s: no call of the life cycle (up to %d intervals) changed the "
                                  "process state",
                             ifs[i].name, NSTEPS);
        fmuc_worker_outcome_free(&o);
    }
    if (!judged && res->verdict <= FMUC_VERDICT_PASS)
        fmuc_result_na(res, "%s", why[0] ? why : "no library could be loaded");
}

const fmuc_check fmuc_check_api_process_state = {
    .id = "api-process-state",
    .title = "FMI calls leave the process state (FPU control, locale, cwd, umask, signals, "
             "resource limits) as they found it",
    .spec = "FMI 2.0.4 §2.1 (fmi2-rules C-03); FMI 3.0.2 §2.2.1 (no change of global settings; "
            "thread settings such as the floating-point control registers restored before "
            "returning or calling back)",
    .level = FMUC_LEVEL_MUST,
    .why = "A call that leaves the rounding mode, FTZ, exception masks, locale, working "
           "directory, signal handlers or resource limits changed alters the importer's and other "
           "FMUs' arithmetic, parsing, paths and crash handling.",
    .fix = "Save the FPU control registers (fegetenv) and any locale or directory you must "
           "switch on entry and restore them before every return and callback; never install "
           "signal handlers, change the umask or set resource limits (setrlimit).",
    .applies = FMUC_APPLIES_MECS,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .sessions = 1,
    .run = run,
};
