/* api-null-arguments: FMI 3.0.2 §2.2.1 forbids NULL arguments "unless explicitly allowed by the
 * standard document where NULL will be assigned a specific semantic" (M); the NULLs §2.3.1
 * defines must therefore be accepted:
 *  - every callback of the instantiation functions may be NULL (an unsupported callback; the
 *    FMU must test before calling it, §2.3.1; fmi3-rules C-11):
 *    probe A instantiates with logMessage=NULL and loggingOn=false (the harness never passes
 *    intermediateUpdate in its Co-Simulation runs, so that NULL is exercised by every run) and
 *    runs a short life cycle (initialize, two intervals, terminate, free);
 *  - resourcePath=NULL when the FMU has no resources/ folder (§2.3.1): probe B instantiates with
 *    it and runs the same short life cycle. With a resources/ folder the NULL is not the one the
 *    text defines for this FMU (an FMU that needs its resources may refuse it): not probed.
 * fmi3SetDebugLogging with nCategories=0 and categories=NULL (§2.3.1) is api-mandatory-functions'
 * probe already. Each probe runs in a worker of its own; a crash in it, a NULL instance (when
 * the same instantiation with the argument given succeeds) or an Error/Fatal status fails
 * (must). NULLs the text does not define (e.g. NULL arrays with
 * nValueReferences=0, fmi3-rules C-47 is a tool expectation, T) are not probed. FMI 2.0 and 1.0:
 * their NULL callbacks are judged by api-null-memory-callbacks; this check is 3.0 only. */
#include "api_util.h"
#include "fmuc/fmuc_step.h"

#define NSTEPS 2

enum { PROBE_LOG_NULL, PROBE_RESOURCE_NULL, NPROBES };

typedef struct null_job {
    fmuc_iface iface;
    int probe;
} null_job;

static const char *probe_text(int probe)
{
    return probe == PROBE_LOG_NULL ? "logMessage=NULL with loggingOn=false"
                                   : "resourcePath=NULL (the FMU has no resources/ folder)";
}

static void put_bad(cJSON *reply, const char *call, int st)
{
    cJSON_AddStringToObject(reply, "bad_call", call);
    cJSON_AddNumberToObject(reply, "bad_status", (double)st);
}

/* initialize, NSTEPS intervals, terminate; the first call that fails goes to the reply */
static void life_cycle(fmuc_worker_ctx *ctx, fmuc_inst *in, fmuc_iface t, cJSON *reply)
{
    const fmuc_fmu *fmu = fmuc_worker_fmu(ctx);
    const int ver = fmuc_inst_version(ctx);
    fmuc_drive_start ds;
    fmuc_drive_reached dr;
    fmuc_drive_start_init(&ds, &fmu->md);
    if (fmuc_drive_reach(in, t == FMUC_IFACE_CS ? FMUC_ST_SC : FMUC_ST_EM, &ds, &dr) != 0) {
        if (!dr.no_settle && !dr.hook_stopped)
            put_bad(reply, apiu_fn(ver, t, (fmuc_inst_op)dr.failed_op), dr.status);
        return;
    }
    apiu_steps st;
    apiu_short_steps(ctx, in, t, NSTEPS, &st);
    if (st.rc == FMUC_STEP_FAILED) {
        if (st.status == FMUC_STATUS_ERROR || st.status == FMUC_STATUS_FATAL)
            put_bad(reply, st.call, st.status);
        return;
    }
    fmuc_status ts = fmuc_inst_terminate(in);
    if (ts == FMUC_STATUS_ERROR || ts == FMUC_STATUS_FATAL)
        put_bad(reply, apiu_fn(ver, t, FMUC_INST_OP_TERMINATE), ts);
}

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    const null_job *job = payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    const int ver = fmuc_inst_version(ctx);
    fmuc_iface t = job->iface;
    if (apiu_load(ctx, t) < 0)
        return 0;
    fmuc_inst_args a;
    fmuc_inst_args_init(&a);
    a.name = "fmucheck-null-arguments";
    if (job->probe == PROBE_LOG_NULL) {
        a.log_message_null = 1;
        a.logging_on = 0;
    } else if (job->probe == PROBE_RESOURCE_NULL) {
        a.resource_path_null = 1;
    }
    fmuc_worker_phase(ctx, "probe %s", probe_text(job->probe));
    fmuc_inst *in = fmuc_inst_instantiate_ex(ctx, t, &a);
    if (!in) {
        /* refused: is it the NULL? the same instantiation with the argument given */
        a.log_message_null = a.resource_path_null = 0;
        a.name = "fmucheck-null-arguments-baseline"; /* its log is not the probe's */
        fmuc_worker_phase(ctx, "baseline");
        in = fmuc_inst_instantiate_ex(ctx, t, &a);
        cJSON_AddBoolToObject(reply, in ? "instantiate_null" : "baseline_null", 1);
        if (in)
            fmuc_inst_free(in);
        return 0;
    }
    fmuc_status st = FMUC_STATUS_OK;
    life_cycle(ctx, in, t, reply);
    const cJSON *bs = cJSON_GetObjectItemCaseSensitive(reply, "bad_status");
    if (bs)
        st = (fmuc_status)(int)cJSON_GetNumberValue(bs);
    fmuc_worker_phase(ctx, "probe %s: %s", probe_text(job->probe),
                      apiu_fn(ver, t, FMUC_INST_OP_FREE));
    if (st == FMUC_STATUS_FATAL)
        fmuc_inst_abandon(in);
    else
        fmuc_inst_free(in);
    if (bs && st != FMUC_STATUS_FATAL) {
        /* a call failed: is it the NULL? the same life cycle with the argument given */
        a.log_message_null = a.resource_path_null = 0;
        a.name = "fmucheck-null-arguments-baseline";
        fmuc_worker_phase(ctx, "baseline");
        cJSON *base = cJSON_CreateObject();
        in = base ? fmuc_inst_instantiate_ex(ctx, t, &a) : NULL;
        if (in) {
            life_cycle(ctx, in, t, base);
            if (cJSON_GetObjectItemCaseSensitive(base, "bad_status"))
                cJSON_AddBoolToObject(reply, "baseline_bad", 1);
            fmuc_inst_free(in);
        } else {
            cJSON_AddBoolToObject(reply, "baseline_bad", 1);
        }
        cJSON_Delete(base);
    }
    cJSON_AddBoolToObject(reply, "done", 1);
    return 0;
}

/* whether the archive has a resources/ folder (the harness always creates the folder when
 * extracting, so the archive's entries decide) */
static int has_resources(const fmuc_fmu *fmu)
{
    for (size_t i = 0; i < fmu->listing.nentries; i++)
        if (fmu->listing.entries[i].name &&
            strncmp(fmu->listing.entries[i].name, "resources/", 10) == 0)
            return 1;
    return 0;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    apiu_iface ifs[2];
    size_t n = apiu_usable_ifaces(s, res, FMUC_UNUSABLE_RUN, ifs), done = 0;
    char b[32];
    if (!n) {
        fmuc_result_na(res, "no binary for this platform");
        return;
    }
    int resources = has_resources(s->fmu);
    for (size_t i = 0; i < n; i++) {
        for (int p = 0; p < NPROBES; p++) {
            if (p == PROBE_RESOURCE_NULL && resources)
                continue;
            null_job job = {ifs[i].type, p};
            fmuc_worker_outcome o;
            int judged = 0;
            char what[160];
            snprintf(what, sizeof what, "%s: %s", ifs[i].name, probe_text(p));
            const cJSON *r = apiu_probe_reply(s, res, "api-null-arguments", what, ifs[i].type,
                                              worker, &job, &o, "probe", &judged);
            done += (size_t)judged;
            if (!r) {
                fmuc_worker_outcome_free(&o);
                continue;
            }
            if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "baseline_null"))) {
                fmuc_result_note(res, "%s: not judged (%s returns NULL with the argument given "
                                      "too)",
                                 what, apiu_fn(3, ifs[i].type, FMUC_INST_OP_INSTANTIATE));
                fmuc_worker_outcome_free(&o);
                continue;
            }
            done++;
            const cJSON *bc = cJSON_GetObjectItemCaseSensitive(r, "bad_call");
            if (cJSON_IsString(bc) &&
                cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "baseline_bad"))) {
                fmuc_result_note(res, "%s: not judged (%s fails with the argument given too)",
                                 what, cJSON_GetStringValue(bc));
                fmuc_worker_outcome_free(&o);
                continue;
            }
            if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "instantiate_null"))) {
                const char *m = apiu_last_log(&o, "fmucheck-null-arguments");
                fmuc_result_violation(res, "%s: %s returned NULL%s%s", what,
                                      apiu_fn(3, ifs[i].type, FMUC_INST_OP_INSTANTIATE),
                                      m ? ": " : "", m ? m : "");
            } else if (cJSON_IsString(bc)) {
                fmuc_result_violation(
                    res, "%s: %s returned %s", what, cJSON_GetStringValue(bc),
                    fmuc_status_name(3,
                                     (int)cJSON_GetNumberValue(
                                         cJSON_GetObjectItemCaseSensitive(r, "bad_status")),
                                     b, sizeof b));
            } else {
                fmuc_result_note(res, "%s: accepted", what);
            }
            fmuc_worker_outcome_free(&o);
        }
    }
    if (!done && res->verdict <= FMUC_VERDICT_PASS)
        fmuc_result_na(res, "no probe could be made (no library could be loaded)");
}

const fmuc_check fmuc_check_api_null_arguments = {
    .id = "api-null-arguments",
    .title = "The NULL arguments FMI 3.0 defines (a NULL logMessage, resourcePath without "
             "resources/) are accepted",
    .spec = "FMI 3.0.2 §2.2.1 (NULL only where the standard gives it a meaning), §2.3.1 "
            "(callbacks may be NULL, tested by the FMU before use; resourcePath NULL without a "
            "resources folder)",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers pass NULL where FMI 3.0 gives it a meaning (no logger, no resources "
           "folder); an FMU that then calls through NULL or refuses the instance crashes or "
           "stops such an importer.",
    .fix = "Test every callback pointer (logMessage, intermediateUpdate, clockUpdate) before "
           "calling it, and accept resourcePath=NULL when the FMU ships no resources/ folder.",
    .applies = FMUC_APPLIES_MECS,
    .versions = FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .run = run,
};
