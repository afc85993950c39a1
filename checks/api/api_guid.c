/* api-guid: fmi2Instantiate compares fmuGUID with the GUID the binary was built for: the model
 * description's guid is accepted, a different one gives NULL, for every declared interface. FMI
 * 2.0.4 §2.1.5 says only "Argument fmuGUID is used to check that the modelDescription.xml file
 * [...] is compatible with the C code of the FMU"; that a wrong one is refused is derived
 * (fmi2-rules C-06, "D"): a violation warns, and so does a crash or hang on the wrong GUID. With
 * canBeInstantiatedOnlyOncePerProcess the two calls run in two workers (X10). FMI 3.0: the same
 * with the instantiationToken of fmi3InstantiateModelExchange/CoSimulation, which "can be used by
 * the FMU to check" the model description's compatibility (FMI 3.0.2 §2.3.1); the refusal is
 * derived there too (fmi3-rules C-07, "D"), so the level stays should. FMI 3.0 Scheduled
 * Execution: fmi3InstantiateScheduledExecution likewise. */
#include "api_util.h"

#define WRONG_GUID_A "{00000000-0000-0000-0000-000000000000}"
#define WRONG_GUID_B "{ffffffff-ffff-ffff-ffff-ffffffffffff}"
#define PHASE_WRONG "instantiate with a wrong guid"

enum { STEP_OWN_GUID = 1, STEP_WRONG_GUID = 2 };

typedef struct guid_job {
    fmuc_iface type;
    unsigned steps; /* STEP_* carried out in this worker */
} guid_job;

static int probe(fmuc_worker_ctx *ctx, void *payload)
{
    const guid_job *job = payload;
    fmuc_iface t = job->type;
    if (apiu_load(ctx, t) < 0)
        return 0;
    const fmuc_md *md = &fmuc_worker_fmu(ctx)->md;
    cJSON *reply = fmuc_worker_reply(ctx);
    fmuc_inst *c;
    if (job->steps & STEP_OWN_GUID) {
        fmuc_worker_phase(ctx, "instantiate with the model description's guid");
        c = fmuc_inst_instantiate(ctx, (fmuc_iface)t, NULL, "fmucheck-guid");
        cJSON_AddBoolToObject(reply, "ok_guid", c != NULL);
        fmuc_inst_free(c);
    }
    if (!(job->steps & STEP_WRONG_GUID))
        return 0;
    const char *wrong = md->guid && strcmp(md->guid, WRONG_GUID_A) == 0 ? WRONG_GUID_B : WRONG_GUID_A;
    cJSON_AddStringToObject(reply, "wrong", wrong);
    fmuc_worker_phase(ctx, PHASE_WRONG);
    c = fmuc_inst_instantiate(ctx, (fmuc_iface)t, wrong, "fmucheck-wrong-guid");
    cJSON_AddBoolToObject(reply, "accepted_wrong", c != NULL);
    fmuc_inst_free(c);
    return 0;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    apiu_iface ifs[3];
    size_t n = apiu_usable_ifaces_with_se(s, res, FMUC_UNUSABLE_INSTANCE, ifs), tested = 0;
    const fmuc_md *md = &s->fmu->md;
    if (!n) {
        fmuc_result_na(res, "no binary for this platform");
        return;
    }
    if (!md->guid || !*md->guid) {
        fmuc_result_na(res, "the model description has no %s (see md-guid-present)",
                       apiu_version(s) == 3 ? "instantiationToken" : "guid");
        return;
    }
    const int ver = apiu_version(s);
    for (size_t i = 0; i < n; i++) {
        const char *inst = apiu_fn(ver, ifs[i].type, FMUC_INST_OP_INSTANTIATE);
        /* the argument and the model description's attribute in the version's own names */
        const char *arg = ver == 3                                 ? "instantiationToken"
                          : ver == 1 && ifs[i].type == FMUC_IFACE_ME ? "GUID"
                                                                   : "fmuGUID";
        const char *attr = ver == 3 ? "instantiationToken" : "guid";
        fmuc_worker_outcome o, o2;
        int once = apiu_once_per_process(s->fmu, ifs[i].type);
        guid_job job = {ifs[i].type, once ? STEP_OWN_GUID : STEP_OWN_GUID | STEP_WRONG_GUID};
        guid_job job2 = {ifs[i].type, STEP_WRONG_GUID};
        int died = 0, died2 = 0;
        const cJSON *r = apiu_run_probed(s, res, "api-guid", ifs[i].type, probe, &job, &o,
                                         PHASE_WRONG, &died),
                    *r2 = r;
        memset(&o2, 0, sizeof o2);
        if (once && r && cJSON_IsTrue(cJSON_GetObjectItem(r, "ok_guid")))
            r2 = apiu_run_probed(s, res, "api-guid", ifs[i].type, probe, &job2, &o2, PHASE_WRONG,
                                 &died2);
        if (died || died2) {
            char why[600];
            fmuc_worker_death_text(died ? &o : &o2, why, sizeof why);
            fmuc_result_violation(res, "%s: %s with the wrong %s \"%s\" did not "
                                       "return NULL: the worker ended with %s",
                                  ifs[i].name, inst, arg, md->guid && strcmp(md->guid, WRONG_GUID_A) == 0
                                                   ? WRONG_GUID_B : WRONG_GUID_A, why);
            tested++;
        } else if (r && r2 && !apiu_load_failed(r, res, ifs[i].type)) {
            if (!cJSON_IsTrue(cJSON_GetObjectItem(r, "ok_guid"))) {
                fmuc_result_note(res, "%s: %s with the model description's %s "
                                      "failed (see api-instantiate); the comparison was not tested",
                                 ifs[i].name, inst, attr);
            } else {
                tested++;
                if (cJSON_IsTrue(cJSON_GetObjectItem(r2, "accepted_wrong")))
                    fmuc_result_violation(
                        res,
                        "%s: %s accepted %s \"%s\" although the model "
                        "description's %s is \"%s\" (line %u): it should return NULL",
                        ifs[i].name, inst, arg,
                        cJSON_GetStringValue(cJSON_GetObjectItem(r2, "wrong")), attr, md->guid,
                        md->root_line);
            }
        }
        fmuc_worker_outcome_free(&o2);
        fmuc_worker_outcome_free(&o);
    }
    fmuc_result_parts_judged(res, tested);
    if (!tested && res->verdict == FMUC_VERDICT_PASS)
        fmuc_result_na(res, "no interface could be instantiated");
}

const fmuc_check fmuc_check_api_guid = {
    .id = "api-guid",
    .title = "Instantiation refuses a GUID (3.0: instantiationToken) that does not match",
    .spec = "FMI 2.0.4 §2.1.5; FMI 3.0.2 §2.3.1; FMI 1.0 ME (fmiInstantiateModel: GUID checks the "
            "XML against the C code); FMI 1.0 CS (fmiInstantiateSlave: fmuGUID)",
    .level = FMUC_LEVEL_SHOULD,
    .interop = FMUC_INTEROP_WARN,
    .interop_why = "a conforming importer passes the GUID of the FMU's own model description: an FMU that does not refuse another cannot break it",
    .why = "The GUID is the only guard against a modelDescription.xml paired with a binary of "
           "another model version; if any GUID is accepted, a mismatched FMU runs with wrong "
           "valueReferences.",
    .fix = "Compile the modelDescription's guid into the binary and make fmi2Instantiate return "
           "NULL (and log why) when fmuGUID differs from it.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
