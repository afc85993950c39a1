/* api-instantiate: every declared interface instantiates with legal arguments (the model
 * description's guid, the resource URI, the harness callbacks, visible=false, with loggingOn
 * true and false) and can be freed (FMI 2.0.4 §2.1.5, fmi2-rules C-06, C-08). FMI 3.0: the
 * interface's own function (fmi3InstantiateModelExchange / fmi3InstantiateCoSimulation) with the
 * instantiationToken, the native resources path with its trailing separator, eventModeUsed and
 * earlyReturnAllowed false, the logMessage callback (FMI 3.0.2 §2.3.1, fmi3-rules C-07, C-08);
 * fmi3InstantiateScheduledExecution with the harness's clockUpdate, lockPreemption and
 * unlockPreemption too (§5.2). */
#include "api_util.h"

static const struct variant {
    const char *name;
    int logging_on;
} variants[] = {{"fmucheck-inst-log-on", 1}, {"fmucheck-inst-log-off", 0}};
#define NVARIANTS (sizeof variants / sizeof variants[0])

typedef struct inst_job {
    fmuc_iface type;
    size_t from, to; /* variants tried in this worker */
} inst_job;

static int probe(fmuc_worker_ctx *ctx, void *payload)
{
    const inst_job *job = payload;
    fmuc_iface t = job->type;
    if (apiu_load(ctx, t) < 0)
        return 0;
    if (!fmuc_inst_lib_has(ctx, (fmuc_iface)t,
                           apiu_fn(fmuc_inst_version(ctx), t, FMUC_INST_OP_INSTANTIATE))) {
        /* nothing to call (load-exports reports it) */
        cJSON_AddBoolToObject(fmuc_worker_reply(ctx), "not_exported", 1);
        return 0;
    }
    cJSON *ok = cJSON_AddArrayToObject(fmuc_worker_reply(ctx), "ok");
    for (size_t v = job->from; v < job->to; v++) {
        fmuc_worker_phase(ctx, "instantiate %s (loggingOn=%d)", apiu_iface_name(t),
                          variants[v].logging_on);
        fmuc_inst_args a;
        fmuc_inst_args_init(&a);
        a.name = variants[v].name;
        a.logging_on = variants[v].logging_on;
        fmuc_inst *c = fmuc_inst_instantiate_ex(ctx, (fmuc_iface)t, &a);
        cJSON_AddItemToArray(ok, cJSON_CreateBool(c != NULL));
        if (c) {
            fmuc_worker_phase(ctx, "free instance %s", variants[v].name);
            fmuc_inst_free(c);
        }
    }
    return 0;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    apiu_iface ifs[3];
    size_t n = apiu_ifaces_with_se(s->fmu, ifs), tested = 0;
    if (!n) {
        fmuc_result_na(res, "no binary for this platform");
        return;
    }
    if (!s->fmu->md.guid || !*s->fmu->md.guid) {
        fmuc_result_na(res, "the model description has no %s (see md-guid-present)",
                       apiu_version(s) == 3 ? "instantiationToken" : "guid");
        return;
    }
    const int ver = apiu_version(s);
    int clocks = 0;
    for (size_t i = 0; i < s->fmu->md.nvars && ver == 3; i++)
        clocks |= s->fmu->md.vars[i].type == FMUC_TYPE_CLOCK;
    for (size_t i = 0; i < n; i++) {
        const char *inst = apiu_fn(ver, ifs[i].type, FMUC_INST_OP_INSTANTIATE);
        if (clocks && ifs[i].type == FMUC_IFACE_CS) {
            /* FMI 3.0.2 §2.3.1: with clocks, eventModeUsed must be true (fmi3-rules C-09); the
             * harness instantiates with false (it does not drive CS Event Mode yet): a refusal
             * is right, so this interface is not judged */
            fmuc_result_note(res, "CoSimulation not judged: the FMU has Clock variables, which "
                                  "need eventModeUsed=true in fmi3InstantiateCoSimulation "
                                  "(§2.3.1); the harness does not drive Co-Simulation Event "
                                  "Mode yet");
            continue;
        }
        /* once per process (X10): each variant in its own worker */
        size_t chunk = apiu_once_per_process(s->fmu, ifs[i].type) ? 1 : NVARIANTS;
        for (size_t from = 0; from < NVARIANTS; from += chunk) {
            fmuc_worker_outcome o;
            inst_job job = {ifs[i].type, from, from + chunk};
            int died = 0;
            const cJSON *r = apiu_run_probed(s, res, "api-instantiate", ifs[i].type, probe, &job,
                                             &o, "free instance", &died);
            if (died) { /* freeing a fresh instance is part of what this check probes */
                char why[600];
                fmuc_worker_death_text(&o, why, sizeof why);
                fmuc_result_violation(res, "%s: %s of a fresh instance did not "
                                           "return: the worker ended with %s",
                                      ifs[i].name, apiu_fn(ver, ifs[i].type, FMUC_INST_OP_FREE),
                                      why);
            }
            if (r && cJSON_IsTrue(cJSON_GetObjectItem(r, "not_exported"))) {
                fmuc_result_note(res, "%s: the library does not export %s (see "
                                      "load-exports)", ifs[i].name, inst);
            } else if (r && !apiu_load_failed(r, res, ifs[i].type)) {
                tested++;
                const cJSON *ok = cJSON_GetObjectItem(r, "ok");
                for (size_t v = from; v < job.to; v++) {
                    if (cJSON_IsTrue(cJSON_GetArrayItem(ok, (int)(v - from))))
                        continue;
                    const char *why = apiu_last_log(&o, variants[v].name);
                    if (ver == 1)
                        fmuc_result_violation(res,
                                              "%s: %s(GUID from the model description%s, "
                                              "loggingOn=%s) returned NULL%s%s%s",
                                              ifs[i].name, inst,
                                              ifs[i].type == FMUC_IFACE_CS
                                                  ? ", fmuLocation of the unzipped FMU, timeout=0, "
                                                    "visible=false, interactive=false"
                                                  : "",
                                              variants[v].logging_on ? "true" : "false",
                                              why ? " (logged: \"" : " (no reason logged)",
                                              why ? why : "", why ? "\")" : "");
                    else if (ver == 3)
                        fmuc_result_violation(
                            res,
                            "%s: %s(instantiationToken from the model description, resourcePath "
                            "of the extracted resources, visible=false, loggingOn=%s%s) returned "
                            "NULL%s%s%s",
                            ifs[i].name, inst, variants[v].logging_on ? "true" : "false",
                            ifs[i].type == FMUC_IFACE_CS
                                ? ", eventModeUsed=false, earlyReturnAllowed=false"
                                : "",
                            why ? " (logged: \"" : " (no reason logged)", why ? why : "",
                            why ? "\")" : "");
                    else
                    fmuc_result_violation(res,
                                          "%s: fmi2Instantiate(fmuType=%s, guid from the model "
                                          "description, visible=false, loggingOn=%s) returned NULL%s%s%s",
                                          ifs[i].name,
                                          ifs[i].type == FMUC_IFACE_ME ? "fmi2ModelExchange"
                                                                           : "fmi2CoSimulation",
                                          variants[v].logging_on ? "true" : "false",
                                          why ? " (logged: \"" : " (no reason logged)", why ? why : "",
                                          why ? "\")" : "");
                }
            }
            fmuc_worker_outcome_free(&o);
        }
    }
    fmuc_result_parts_judged(res, tested);
    if (!tested && res->verdict == FMUC_VERDICT_PASS)
        fmuc_result_na(res, "no library could be loaded and instantiated");
}

const fmuc_check fmuc_check_api_instantiate = {
    .id = "api-instantiate",
    .title = "Each declared interface instantiates",
    .spec = "FMI 2.0.4 §2.1.5; FMI 3.0.2 §2.3.1; FMI 1.0 ME (fmiInstantiateModel returns NULL on "
            "failure); FMI 1.0 CS (fmiInstantiateSlave)",
    .level = FMUC_LEVEL_MUST,
    .why = "If fmi2Instantiate fails for a declared interface with legal arguments, no importer "
           "can use that interface at all: the FMU is unusable through it.",
    .fix = "Run the FMU's own instantiation with the arguments a plain importer passes (its guid, "
           "a file: resource URI, loggingOn true and false) and fix what makes it return NULL.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
