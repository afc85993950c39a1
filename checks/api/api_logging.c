/* api-logging: the FMU calls the importer's logger the way the standard defines its arguments.
 *   FMI 2.0.4 §2.1.5 (fmi2-rules C-09, C-10): the logger's first argument is the
 *     componentEnvironment the importer passed in fmi2CallbackFunctions, unchanged; instanceName
 *     is "the instance name of the model that calls this function"; status is an fmi2Status;
 *     message is a (printf) text.
 *   FMI 3.0.2 §2.3.1: "a pointer to the environment is provided (instanceEnvironment) that
 *     needs to be passed to all of the callback functions"; status is an fmi3Status; the
 *     message is text (logMessage has no instance name).
 *   FMI 1.0 ME (fmiCallbackLogger, fmi1-rules C-08) and CS (the same callbacks): the logger
 *     gets the instantiation's instanceName and a status.
 * The probe, in a worker per declared interface and an instance of its own: instantiate with
 * loggingOn=true and the instance name "fmucheck-logging", switch debug logging on for every
 * category (SetDebugLogging(true, 0 categories)), go to Initialization Mode (FMI 1.0 ME: after
 * fmiInitialize) and read one Real/Float64 through a valueReference no variable has: the FMU
 * must refuse it with an error (§2.1.2 / §2.2.4), and an error is what FMUs log. Every logger
 * call of that worker is then judged: a foreign environment pointer (an importer that finds its
 * data through it reads someone else's memory), an instance name other than the one given (the
 * message is shown as another instance's), a status outside the version's enumeration, a NULL
 * message (an importer prints it). The category is not judged (2.0 passes NULL when the FMU
 * declares no LogCategories; 1.0 leaves it free). An FMU that
 * logs nothing is not applicable (nothing to judge); which messages an FMU logs is its own
 * choice. */
#include "api_util.h"

#define LOG_NAME "fmucheck-logging"

typedef struct log_job {
    fmuc_iface type;
} log_job;

static int probe(fmuc_worker_ctx *ctx, void *payload)
{
    const log_job *job = payload;
    const fmuc_md *md = &fmuc_worker_fmu(ctx)->md;
    cJSON *reply = fmuc_worker_reply(ctx);
    if (apiu_load(ctx, job->type) < 0)
        return 0;
    fmuc_inst_args a;
    fmuc_inst_args_init(&a);
    a.name = LOG_NAME;
    a.logging_on = 1;
    fmuc_worker_phase(ctx, "instantiate (loggingOn=true)");
    fmuc_inst *in = fmuc_inst_instantiate_ex(ctx, job->type, &a);
    if (!in) {
        cJSON_AddStringToObject(reply, "stopped", "instantiation returned NULL");
        return 0;
    }
    const int v = fmuc_inst_fmi_version(in);
    (void)fmuc_inst_set_debug_logging(in, 1, 0, NULL);
    fmuc_drive_start ds;
    fmuc_drive_reached r;
    fmuc_drive_start_init(&ds, md);
    fmuc_worker_phase(ctx, "initialization");
    if (fmuc_drive_reach(in, FMUC_ST_INIT, &ds, &r) != 0) {
        char b[32];
        cJSON_AddStringToObject(reply, "stopped", "initialization failed");
        cJSON_AddStringToObject(reply, "stopped_status",
                                fmuc_status_name(v, r.status, b, sizeof b));
        if (r.status == FMUC_STATUS_FATAL)
            fmuc_inst_abandon(in);
        else
            fmuc_inst_free(in);
        return 0;
    }
    fmuc_vr bad = v == 3 ? apiu_unused_vr3(md) : apiu_unused_vr(md, FMUC_TYPE_REAL);
    double value = 0.0;
    fmuc_worker_phase(ctx, "read an unknown valueReference");
    fmuc_status st = fmuc_inst_get_float64(in, &bad, 1, &value);
    cJSON_AddNumberToObject(reply, "unknown_vr", (double)bad);
    cJSON_AddNumberToObject(reply, "unknown_vr_status", (double)st);
    if (st == FMUC_STATUS_FATAL)
        fmuc_inst_abandon(in);
    else
        fmuc_inst_free(in);
    return 0;
}

/* Whether text is one of the status names of version v ("fmi2OK" ... "fmi2Pending"). */
static int valid_status(int v, const char *text)
{
    if (!text)
        return 0;
    int max = v == 3 ? FMUC_STATUS_FATAL : FMUC_STATUS_PENDING; /* 3.0 has no Pending */
    for (int k = FMUC_STATUS_OK; k <= max; k++) {
        char b[32];
        if (strcmp(text, fmuc_status_name(v, k, b, sizeof b)) == 0)
            return 1;
    }
    return 0;
}

static void judge(const fmuc_worker_outcome *o, int v, const char *iname, fmuc_result *res,
                  size_t *judged)
{
    size_t env = 0, name = 0, status = 0, msg = 0, k = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, o->log)
    {
        k++;
        const cJSON *inst = cJSON_GetObjectItemCaseSensitive(it, "instance");
        const char *stx = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "status"));
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(it, "message");
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "env_mismatch")) && env++ == 0)
            fmuc_result_violation(res, "%s: logger call %zu (%s) did not pass the %s the importer "
                                       "gave as its first argument",
                                  iname, k, stx ? stx : "?",
                                  v == 3 ? "instanceEnvironment" : "componentEnvironment");
        if (v != 3 && inst) {
            const char *in = cJSON_GetStringValue(inst);
            if ((!in || strcmp(in, LOG_NAME) != 0) && name++ == 0)
                /* a letter violation: the message is labelled with another name; nothing an
                 * importer reads through the call breaks */
                fmuc_result_violation_letter(res, "%s: logger call %zu names the instance %s%s%s, "
                                                  "not \"" LOG_NAME "\" given at instantiation",
                                             iname, k, in ? "\"" : "", in ? in : "NULL",
                                             in ? "\"" : "");
        }
        if (!valid_status(v, stx) && status++ == 0)
            fmuc_result_violation(res, "%s: logger call %zu has the status %s, which is no %s "
                                       "value",
                                  iname, k, stx ? stx : "?",
                                  v == 3 ? "fmi3Status" : v == 1 ? "fmiStatus" : "fmi2Status");
        if (cJSON_IsNull(m) && msg++ == 0)
            fmuc_result_violation(res, "%s: logger call %zu passes a NULL message", iname, k);
    }
    *judged += k;
    if (env > 1 || name > 1 || status > 1 || msg > 1)
        fmuc_result_note(res, "%s: %zu logger calls in all: %zu with a foreign environment, %zu "
                              "with another instance name, %zu with a status out of range, %zu "
                              "without message",
                         iname, k, env, name, status, msg);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    apiu_iface ifs[2];
    size_t n = apiu_usable_ifaces(s, res, FMUC_UNUSABLE_INSTANCE, ifs);
    if (n == 0) {
        if (res->nmessages == 0)
            fmuc_result_na(res, "no interface with a library for this platform");
        else
            fmuc_result_na(res, "no usable interface");
        return;
    }
    const int v = apiu_version(s);
    size_t judged = 0, probed = 0;
    cJSON *ev = fmuc_result_evidence(res);
    for (size_t i = 0; i < n; i++) {
        log_job job = {ifs[i].type};
        fmuc_worker_outcome o;
        int died = 0;
        const cJSON *reply = apiu_run_probed(s, res, "api-logging", ifs[i].type, probe, &job, &o,
                                             "read an unknown valueReference", &died);
        if (died) {
            /* a crash or hang on the unknown valueReference is api-bad-vr's finding; the
             * messages logged before it are judged */
            fmuc_result_note(res, "%s: the worker ended while reading an unknown valueReference "
                                  "(api-bad-vr judges it); the messages logged before are judged",
                             ifs[i].name);
            probed++;
            cJSON_AddNumberToObject(ev, ifs[i].name, (double)cJSON_GetArraySize(o.log));
            judge(&o, v, ifs[i].name, res, &judged);
        } else if (reply && !apiu_load_failed(reply, res, ifs[i].type)) {
            probed++;
            const char *stop = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(reply, "stopped"));
            if (stop)
                fmuc_result_note(res, "%s: %s (api-instantiate and the nominal runs judge it); "
                                      "the messages logged until then are judged",
                                 ifs[i].name, stop);
            cJSON_AddNumberToObject(ev, ifs[i].name, (double)cJSON_GetArraySize(o.log));
            judge(&o, v, ifs[i].name, res, &judged);
        }
        fmuc_worker_outcome_free(&o);
    }
    fmuc_result_parts_judged(res, probed);
    if (probed && judged == 0 && res->verdict == FMUC_VERDICT_PASS)
        fmuc_result_na(res, "the FMU logged nothing with loggingOn=true, debug logging on and an "
                            "unknown valueReference read: no logger call to judge");
}

const fmuc_check fmuc_check_api_logging = {
    .id = "api-logging",
    .title = "Logger calls pass the importer's environment, the instance name and a valid status",
    .spec = "FMI 2.0.4 §2.1.5; FMI 3.0.2 §2.3.1; FMI 1.0 ME (fmiCallbackLogger: instanceName, "
            "status); FMI 1.0 CS (the same callback functions)",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_SOME,
    .interop_why = "another instance name in logger calls (1.0, 2.0): the messages are labelled "
                   "wrongly, nothing the importer reads through the call breaks",
    .why = "Importers route and label FMU messages by the environment pointer and instance name "
           "they gave; a foreign pointer makes them read unrelated memory, a wrong name blames "
           "another instance.",
    .fix = "Call the logger with the componentEnvironment (3.0: instanceEnvironment) and the "
           "instanceName received at instantiation, a defined status and non-NULL texts.",
    .applies = FMUC_APPLIES_ME | FMUC_APPLIES_CS,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .run = run,
};
