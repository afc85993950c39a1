/* api-instantiate: every declared interface instantiates with legal arguments (the model
 * description's guid, the resource URI, the harness callbacks, visible=false, with loggingOn
 * true and false) and can be freed (FMI 2.0.4 §2.1.5, fmi2-rules C-06, C-08). */
#include "api_util.h"

static const struct variant {
    const char *name;
    int logging_on;
} variants[] = {{"fmucheck-inst-log-on", 1}, {"fmucheck-inst-log-off", 0}};
#define NVARIANTS (sizeof variants / sizeof variants[0])

static int probe(fmuc_worker_ctx *ctx, void *payload)
{
    fmi2Type t = *(const fmi2Type *)payload;
    const fmuc_fmi *f = apiu_load(ctx, t);
    if (!f)
        return 0;
    const fmuc_fmu *fmu = fmuc_worker_fmu(ctx);
    cJSON *ok = cJSON_AddArrayToObject(fmuc_worker_reply(ctx), "ok");
    for (size_t v = 0; v < NVARIANTS; v++) {
        fmuc_worker_phase(ctx, "instantiate %s (loggingOn=%d)", apiu_iface_name(t),
                          variants[v].logging_on);
        fmi2Component c = fmuc_fmi_instantiate_ex(f, variants[v].name, t, fmu->md.guid,
                                                  fmu->resource_uri, fmuc_worker_callbacks(ctx), 0,
                                                  variants[v].logging_on);
        cJSON_AddItemToArray(ok, cJSON_CreateBool(c != NULL));
        if (c) {
            fmuc_worker_phase(ctx, "free instance %s", variants[v].name);
            fmuc_fmi_freeInstance(f, c);
        }
    }
    return 0;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    apiu_iface ifs[2];
    size_t n = apiu_ifaces(s->fmu, ifs), tested = 0;
    if (!n) {
        fmuc_result_na(res, "no binary for this platform");
        return;
    }
    if (!s->fmu->md.guid || !*s->fmu->md.guid) {
        fmuc_result_na(res, "the model description has no guid (see md-guid-present)");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        fmuc_worker_outcome o;
        const cJSON *r = apiu_run(s, res, "api-instantiate", probe, &ifs[i].type, &o);
        if (r && !apiu_load_failed(r, res, ifs[i].type)) {
            tested++;
            const cJSON *ok = cJSON_GetObjectItem(r, "ok");
            for (size_t v = 0; v < NVARIANTS; v++) {
                if (cJSON_IsTrue(cJSON_GetArrayItem(ok, (int)v)))
                    continue;
                const char *why = apiu_last_log(&o, variants[v].name);
                fmuc_result_violation(res,
                                      "%s: fmi2Instantiate(fmuType=%s, guid from the model "
                                      "description, visible=false, loggingOn=%s) returned NULL%s%s%s",
                                      ifs[i].name,
                                      ifs[i].type == fmi2ModelExchange ? "fmi2ModelExchange"
                                                                       : "fmi2CoSimulation",
                                      variants[v].logging_on ? "true" : "false",
                                      why ? " (logged: \"" : " (no reason logged)", why ? why : "",
                                      why ? "\")" : "");
            }
        }
        fmuc_worker_outcome_free(&o);
    }
    if (!tested && res->verdict <= FMUC_VERDICT_PASS)
        fmuc_result_na(res, "no library could be loaded");
}

const fmuc_check fmuc_check_api_instantiate = {
    .id = "api-instantiate",
    .title = "Each declared interface instantiates",
    .spec = "FMI 2.0.4 §2.1.5",
    .level = FMUC_LEVEL_MUST,
    .applies = FMUC_APPLIES_ANY,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
