/* api-free-instance-null: fmi2FreeInstance(NULL) does nothing (FMI 2.0.4 §2.1.5: "If a null
 * pointer is provided for "c", the function call is ignored (does not have an effect)";
 * fmi2-rules C-11, M). FMI 3.0 says the same of fmi3FreeInstance (FMI 3.0.2 §2.3.1,
 * fmi3-rules C-15, M), for the library of each interface, Scheduled Execution's too. A crash or
 * hang in that call is the violation (FAIL), not a check that could not be carried out. Its own check and worker, so the crash hides no other result.
 * FMI 1.0 is left out on purpose: the ME 1.0 and CS 1.0 texts of fmiFreeModelInstance /
 * fmiFreeSlaveInstance say only that the instance is disposed and its memory freed, nothing of a
 * NULL argument (fmi1-rules C-17: "c == NULL unspecified"); judging 1.0 FMUs by the 2.0 sentence
 * would be a rule stricter than their text. */
#include "api_util.h"

#define PHASE "FreeInstance(NULL)"

static int probe(fmuc_worker_ctx *ctx, void *payload)
{
    fmuc_iface t = *(const fmuc_iface *)payload;
    if (apiu_load(ctx, t) < 0)
        return 0;
    fmuc_worker_phase(ctx, PHASE " (%s library, %s)", apiu_iface_name(t),
                      fmuc_inst_op_name(fmuc_inst_version(ctx), FMUC_INST_OP_FREE));
    fmuc_inst_lib_free_null(ctx, (fmuc_iface)t);
    cJSON_AddBoolToObject(fmuc_worker_reply(ctx), "survived", 1);
    return 0;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    apiu_iface ifs[3];
    size_t n = apiu_usable_ifaces_with_se(s, res, FMUC_UNUSABLE_INSTANCE, ifs), tested = 0;
    if (!n) {
        fmuc_result_na(res, "no binary for this platform");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        /* one library serves several interfaces when the identifiers agree: probe it once */
        int seen = 0;
        for (size_t j = 0; j < i; j++)
            seen |= strcmp(apiu_lib_path(s->fmu, ifs[j].type),
                           apiu_lib_path(s->fmu, ifs[i].type)) == 0;
        if (seen)
            continue;
        fmuc_worker_outcome o;
        int died = 0;
        const cJSON *r = apiu_run_probed(s, res, "api-free-instance-null", ifs[i].type, probe,
                                         &ifs[i].type, &o, PHASE, &died);
        if (died) {
            char why[600];
            fmuc_worker_death_text(&o, why, sizeof why);
            fmuc_result_violation(res, "%s library: %s(NULL) must be ignored, but the "
                                       "worker ended with %s",
                                  ifs[i].name, fmuc_inst_op_name(apiu_version(s), FMUC_INST_OP_FREE),
                                  why);
            tested++;
        } else if (r && !apiu_load_failed(r, res, ifs[i].type)) {
            tested++;
        }
        fmuc_worker_outcome_free(&o);
    }
    fmuc_result_parts_judged(res, tested);
    if (!tested && res->verdict == FMUC_VERDICT_PASS)
        fmuc_result_na(res, "no library could be loaded");
}

const fmuc_check fmuc_check_api_free_instance_null = {
    .id = "api-free-instance-null",
    .title = "fmi2FreeInstance(NULL) is harmless",
    .spec = "FMI 2.0.4 §2.1.5; FMI 3.0.2 §2.3.1",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers call fmi2FreeInstance(NULL) on cleanup paths after a failed "
           "fmi2Instantiate; an FMU that crashes there takes the whole importer process down with "
           "it.",
    .fix = "Return at the top of fmi2FreeInstance when the component pointer is NULL, before "
           "touching any of its fields.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
