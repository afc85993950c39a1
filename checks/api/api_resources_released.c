/* api-resources-released: once fmi2FreeInstance returned, what the instance took is given back
 * (FMI 2.0.4 §2.1.5: fmi2FreeInstance "frees all the allocated memory and other resources that
 * have been allocated by the functions of the FMU interface"; fmi2-rules C-09; robustness B18):
 * every block allocateMemory returned went back through freeMemory, freeMemory never got a
 * pointer allocateMemory did not return, and no thread the FMU started is still running. A host
 * that unloads the library with such a thread alive crashes when the thread runs again.
 * Judged over the nominal run of each interface when its worker ended normally (instantiation
 * to the stop time, then the free; fmuc_shared_nominal_observed: a whole session, no instance
 * more), else over a short session of its own (instantiate, initialize, ten communication
 * points of the default experiment, terminate, free) in a worker of its own. SHOULD: a leak or a lingering
 * thread pool is a defect a host can live with for a while, and it is reported as a warning;
 * `{"levels": {"api-resources-released": "must"}}` makes it gate.
 * FMI 3.0: fmi3FreeInstance "frees all the allocated memory and other resources that have been
 * allocated by the functions of the FMU interface" (FMI 3.0.2 §2.3.1, fmi3-rules C-15). 3.0 has
 * no memory callbacks (the FMU allocates on its own), so the host sees no blocks there: only the
 * threads left running are judged, and a note says so. */

#include "api_util.h"

enum { POINTS = 10 };

/* what the worker's session needs: the interface and the stop time fmuc_shared_run_config chose
 * (NaN: the default experiment's; an FMI 3.0 CS FMU with a fixed internal step gets a bounded
 * one, so that ten communication points stay short) */
typedef struct rr_job {
    fmuc_iface iface;
    double stop;
} rr_job;

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    const rr_job *job = payload;
    fmuc_iface iface = job->iface;
    cJSON *reply = fmuc_worker_reply(ctx);
    fmuc_worker_release_mark mark;
    fmuc_worker_release_begin(ctx, &mark); /* before the library: its threads count too */
    if (apiu_load(ctx, iface) < 0)
        return 0;
    fmuc_sim_config cfg;
    fmuc_sim_config_init(&cfg, iface);
    cfg.max_steps = POINTS;
    cfg.stop = job->stop;
    cfg.instance_name = "fmucheck-resources";
    cfg.record_inputs = 0;
    fmuc_sim_result r;
    fmuc_diag d = {{0}, FMUC_OK};
    int rc = fmuc_sim_run(ctx, &cfg, &r, &d); /* ends with fmi2FreeInstance */
    cJSON_AddBoolToObject(reply, "instantiated", rc >= 0 && !r.instantiate_failed);
    if (rc < 0)
        cJSON_AddStringToObject(reply, "harness_error", d.msg);
    else if (r.stop_reason)
        cJSON_AddStringToObject(reply, "session_ended", r.stop_reason);
    if (rc >= 0)
        cJSON_AddNumberToObject(reply, "session_stop_time", r.stop);
    fmuc_sim_result_free(&r);
    fmuc_worker_release_end(ctx, &mark, reply, FMUC_WORKER_THREAD_WAIT_MS);
    return 0;
}

static double num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : 0.0;
}

static void judge(const cJSON *r, const char *ifn, const char *fr, fmuc_result *res)
{
    double kept = num(r, "blocks_kept"), bytes = num(r, "bytes_kept");
    double bad = num(r, "bad_frees"), threads = num(r, "threads_left");
    if (kept > 0)
        fmuc_result_violation(res, "%s: blocks from allocateMemory not returned through "
                                   "freeMemory by the end of %s: %.0f of %.0f "
                                   "(%.0f bytes)",
                              ifn, fr, kept, num(r, "allocs"), bytes);
    if (bad > 0)
        fmuc_result_violation(res, "%s: freeMemory calls with a pointer allocateMemory did not "
                                   "return (or had freed already): %.0f; a host passes it to "
                                   "free()",
                              ifn, bad);
    if (threads > 0)
        fmuc_result_violation(res, "%s: threads the FMU started, still running %d ms after "
                                   "%s: %.0f; a host that then unloads the library "
                                   "crashes when they run again",
                              ifn, FMUC_WORKER_THREAD_WAIT_MS, fr, threads);
    else if (threads < 0)
        fmuc_result_note(res, "%s: /proc/self/task is not readable here; threads not counted",
                         ifn);
}

/* One interface's session: its figures r (fmuc_worker_release_end's keys), how unloading the
 * library ended its worker (after, "" well), its stop time and why it ended early (or NULL),
 * whose session it was; judged into res, recorded in the evidence. */
static void judge_session(const cJSON *r, const char *after, double stop, const char *ended,
                          const char *session, const char *ifn, const char *fr, fmuc_result *res)
{
    judge(r, ifn, fr, res);
    if (after[0]) /* B18: the worker replied, then the unload ended it */
        fmuc_result_violation(res, "%s: after %s, unloading the FMU's library ended the process "
                                   "with %s: a host that unloads the FMU crashes (a thread the "
                                   "FMU left running in its code, or the library's destructor)",
                              ifn, fr, after);
    cJSON *e = cJSON_AddObjectToObject(fmuc_result_evidence(res), ifn);
    static const char *const keys[] = {"allocs", "blocks_kept", "bytes_kept", "bad_frees",
                                       "threads_left"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        cJSON_AddNumberToObject(e, keys[k], num(r, keys[k]));
    cJSON_AddNumberToObject(e, "session_stop_time", stop);
    cJSON_AddStringToObject(e, "session", session);
    if (ended)
        fmuc_result_note(res, "%s: the session ended early (%s; see the nominal-run checks); "
                              "released resources judged all the same",
                         ifn, ended);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    apiu_iface ifs[2];
    size_t n = apiu_usable_ifaces(s, res, FMUC_UNUSABLE_RUN, ifs), tested = 0;
    if (!n) {
        fmuc_result_na(res, "no binary for this platform");
        return;
    }
    char why[400] = "";
    const int ver = fmuc_fmu_fmi_version(s->fmu);
    for (size_t i = 0; i < n; i++) {
        fmuc_worker_outcome o;
        const char *fr = apiu_fn(ver, ifs[i].type, FMUC_INST_OP_FREE);
        /* the nominal run, when it ended normally: a whole session, no instance more */
        const fmuc_shared_observed *ob = fmuc_shared_nominal_observed(s, ifs[i].type);
        if (ob && ob->release) {
            tested++;
            judge_session(ob->release, ob->after_reply, ob->stop, ob->stop_reason, ob->session,
                          ifs[i].name, fr, res);
            continue;
        }
        /* the session would reach a call that hung before: not again */
        fmuc_sim_config cfg;
        fmuc_sim_config_init(&cfg, ifs[i].type);
        cfg.max_steps = POINTS;
        if (fmuc_shared_run_config(s, &cfg, res, why, sizeof why) != 0 || cfg.max_steps < POINTS) {
            apiu_note_short_horizon(res, why, sizeof why, ifs[i].name, (int)POINTS);
            continue;
        }
        why[0] = '\0';
        rr_job job = {ifs[i].type, cfg.stop};
        const cJSON *r = apiu_run(s, res, "api-resources-released", ifs[i].type, worker, &job, &o);
        if (r && !apiu_load_failed(r, res, ifs[i].type)) {
            const char *he =
                cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "harness_error"));
            if (he) {
                fmuc_result_error(res, "%s: %s", ifs[i].name, he);
            } else if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "instantiated"))) {
                fmuc_result_note(res, "%s: %s returned NULL (see api-instantiate)", ifs[i].name,
                                 apiu_fn(ver, ifs[i].type, FMUC_INST_OP_INSTANTIATE));
            } else {
                tested++;
                judge_session(
                    r, o.after_reply, num(r, "session_stop_time"),
                    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "session_ended")),
                    "a session of its own (ten communication points)", ifs[i].name, fr, res);
            }
        }
        fmuc_worker_outcome_free(&o);
    }
    if (tested && ver == 3)
        fmuc_result_note(res, "FMI 3.0 has no memory callbacks: the FMU's own allocations are not "
                              "visible to the host; only the threads left after %s are judged",
                         apiu_fn(ver, ifs[0].type, FMUC_INST_OP_FREE));
    fmuc_result_parts_judged(res, tested);
    if (!tested && res->verdict == FMUC_VERDICT_PASS && why[0])
        fmuc_result_na(res, "%s", why);
    else if (!tested && res->verdict == FMUC_VERDICT_PASS)
        fmuc_result_na(res, "no interface could be instantiated");
}

const fmuc_check fmuc_check_api_resources_released = {
    .id = "api-resources-released",
    .title = "FreeInstance gives back the instance's memory and threads",
    .spec = "FMI 2.0.4 §2.1.5; FMI 3.0.2 §2.3.1; FMI 1.0 ME (fmiFreeModelInstance disposes the instance and frees "
            "its memory); FMI 1.0 CS (fmiFreeSlaveInstance)",
    .level = FMUC_LEVEL_SHOULD,
    .why = "A master that instantiates an FMU many times (parameter sweeps, optimisation, "
           "restarts) runs out of memory or threads when every freed instance leaves its "
           "allocations behind.",
    .fix = "Release in fmi2FreeInstance everything the instance allocated through allocateMemory, "
           "and join or stop every thread it started, before returning.",
    .applies = FMUC_APPLIES_MECS,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN |
             FMUC_NEEDS_OBSERVED,
    .sessions = 1, /* none for an interface whose nominal run was observed */
    .run = run,
};
