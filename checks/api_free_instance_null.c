/* api-free-instance-null: fmi2FreeInstance(NULL) does nothing (FMI 2.0.4 §2.1.5, fmi2-rules C-11).
 * Its own check and worker, so a crash here (reported as ERROR) hides no other result. */
#include "api_util.h"

static int probe(fmuc_worker_ctx *ctx, void *payload)
{
    fmi2Type t = *(const fmi2Type *)payload;
    const fmuc_fmi *f = apiu_load(ctx, t);
    if (!f)
        return 0;
    fmuc_worker_phase(ctx, "fmi2FreeInstance(NULL) (%s library)", apiu_iface_name(t));
    fmuc_fmi_freeInstance(f, NULL);
    cJSON_AddBoolToObject(fmuc_worker_reply(ctx), "survived", 1);
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
    /* one library serves both interfaces when the identifiers agree: probe it once */
    if (n == 2 && s->fmu->lib_path_me && s->fmu->lib_path_cs &&
        strcmp(s->fmu->lib_path_me, s->fmu->lib_path_cs) == 0)
        n = 1;
    for (size_t i = 0; i < n; i++) {
        fmuc_worker_outcome o;
        const cJSON *r = apiu_run(s, res, "api-free-instance-null", probe, &ifs[i].type, &o);
        if (r && !apiu_load_failed(r, res, ifs[i].type))
            tested++;
        fmuc_worker_outcome_free(&o);
    }
    if (!tested && res->verdict <= FMUC_VERDICT_PASS)
        fmuc_result_na(res, "no library could be loaded");
}

const fmuc_check fmuc_check_api_free_instance_null = {
    .id = "api-free-instance-null",
    .title = "fmi2FreeInstance(NULL) is harmless",
    .spec = "FMI 2.0.4 §2.1.5",
    .level = FMUC_LEVEL_MUST,
    .applies = FMUC_APPLIES_ANY,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
