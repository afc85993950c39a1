/* api-instantiate-refuses: fmi2Instantiate refuses what it cannot serve: an interface type the
 * model description does not declare, and an empty instance name (FMI 2.0.4 §2.1.5; derived,
 * fmi2-rules C-06 "D": reported as warnings).
 * FMI 3.0: fmi3InstantiateModelExchange/CoSimulation get the same two probes: the function of an
 * interface type the model description does not declare (every library exports all of them, A-17)
 * and an empty instanceName, which "must be a non-NULL string and not empty" (FMI 3.0.2 §2.3.1;
 * that the FMU refuses is derived, fmi3-rules C-07 "D/U": warnings too).
 * FMI 1.0: ME 1.0 and CS 1.0 are two standards with their own functions (fmiInstantiateModel,
 * fmiInstantiateSlave), so there is no interface-type argument to misuse: only the empty
 * instanceName is probed (the 1.0 texts require a non-NULL, non-empty name, fmi1-rules C-06 "D"). */
#include "api_util.h"

#define PHASE "instantiate " /* the probed calls' phases begin so */

typedef struct rq {
    fmuc_iface lib;      /* library to load */
    int other_type;    /* also try the undeclared interface type */
    int empty_name;    /* try the empty instance name (a second worker when once per process) */
} rq;

static int probe(fmuc_worker_ctx *ctx, void *payload)
{
    const rq *q = payload;
    if (apiu_load(ctx, q->lib) < 0)
        return 0;
    cJSON *reply = fmuc_worker_reply(ctx);
    fmuc_inst *c;
    const int ver = fmuc_inst_version(ctx);
    /* a NULL from a missing function is no refusal */
    if (!fmuc_inst_lib_has(ctx, (fmuc_iface)q->lib, apiu_fn(ver, q->lib, FMUC_INST_OP_INSTANTIATE))) {
        cJSON_AddBoolToObject(reply, "not_exported", 1);
        return 0;
    }
    if (q->other_type) {
        fmuc_iface other = q->lib == FMUC_IFACE_ME ? FMUC_IFACE_CS : FMUC_IFACE_ME;
        fmuc_worker_phase(ctx, "instantiate the undeclared interface %s", apiu_iface_name(other));
        fmuc_inst_args a;
        fmuc_inst_args_init(&a);
        a.name = "fmucheck-undeclared";
        a.as_iface = (int)other;
        c = fmuc_inst_instantiate_ex(ctx, (fmuc_iface)q->lib, &a);
        cJSON_AddBoolToObject(reply, "accepted_other", c != NULL);
        fmuc_inst_free(c);
    }
    if (!q->empty_name)
        return 0;
    fmuc_worker_phase(ctx, "instantiate with an empty instance name");
    c = fmuc_inst_instantiate(ctx, (fmuc_iface)q->lib, NULL, "");
    cJSON_AddBoolToObject(reply, "accepted_empty", c != NULL);
    fmuc_inst_free(c);
    return 0;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    apiu_iface ifs[2];
    size_t n = apiu_usable_ifaces(s, res, FMUC_UNUSABLE_INSTANCE, ifs), tested = 0;
    const fmuc_md *md = &s->fmu->md;
    const int ver = apiu_version(s);
    if (!n) {
        fmuc_result_na(res, "no binary for this platform");
        return;
    }
    /* 1.0: ME and CS are separate standards; there is no undeclared type to ask for */
    int one = ver != 1 && !(md->me.present && md->cs.present);
    for (size_t i = 0; i < n; i++) {
        /* once per process (X10): the two fmi2Instantiate calls in two workers */
        int split = one && apiu_once_per_process(s->fmu, ifs[i].type);
        fmuc_iface other = ifs[i].type == FMUC_IFACE_ME ? FMUC_IFACE_CS : FMUC_IFACE_ME;
        rq q = {ifs[i].type, one, !split}, q2 = {ifs[i].type, 0, 1};
        fmuc_worker_outcome o, o2;
        memset(&o2, 0, sizeof o2);
        int died = 0, died2 = 0;
        const cJSON *r = apiu_run_probed(s, res, "api-instantiate-refuses", ifs[i].type, probe,
                                         &q, &o, PHASE, &died),
                    *r2 = r;
        if (split && r && !cJSON_GetObjectItem(r, "load_error") &&
            !cJSON_GetObjectItem(r, "not_exported"))
            r2 = apiu_run_probed(s, res, "api-instantiate-refuses", ifs[i].type, probe, &q2, &o2,
                                 PHASE, &died2);
        if (died || died2) {
            /* the probed fmi2Instantiate itself crashed or hung instead of returning NULL */
            char why[600];
            const fmuc_worker_outcome *d = died ? &o : &o2;
            fmuc_worker_death_text(d, why, sizeof why);
            fmuc_result_violation(res, "%s library: %s did not return NULL: the worker ended with %s",
                                  ifs[i].name, d->phase, why);
            tested++;
        } else if (r && cJSON_IsTrue(cJSON_GetObjectItem(r, "not_exported"))) {
            fmuc_result_note(res, "%s: the library does not export %s (see load-exports)",
                             ifs[i].name, apiu_fn(ver, ifs[i].type, FMUC_INST_OP_INSTANTIATE));
        } else if (r && r2 && !apiu_load_failed(r, res, ifs[i].type)) {
            tested++;
            unsigned line = ifs[i].type == FMUC_IFACE_ME ? md->me.line : md->cs.line;
            if (cJSON_IsTrue(cJSON_GetObjectItem(r, "accepted_other")) && ver == 2)
                fmuc_result_violation(res,
                                      "%s library: fmi2Instantiate accepted fmuType=%s although "
                                      "the model description declares only <%s> (line %u)",
                                      ifs[i].name,
                                      other == FMUC_IFACE_CS ? "fmi2CoSimulation"
                                                                : "fmi2ModelExchange",
                                      ifs[i].name, line);
            else if (cJSON_IsTrue(cJSON_GetObjectItem(r, "accepted_other")))
                fmuc_result_violation(res,
                                      "%s library: %s returned an instance although the model "
                                      "description does not declare <%s> (only <%s>, line %u)",
                                      ifs[i].name, apiu_fn(ver, other, FMUC_INST_OP_INSTANTIATE),
                                      apiu_iface_name(other), ifs[i].name, line);
            if (cJSON_IsTrue(cJSON_GetObjectItem(r2, "accepted_empty")))
                fmuc_result_violation(res,
                                      "%s: %s accepted an empty instanceName \"\" "
                                      "(the host must pass a non-empty name; the FMU should refuse)",
                                      ifs[i].name,
                                      apiu_fn(ver, ifs[i].type, FMUC_INST_OP_INSTANTIATE));
        }
        fmuc_worker_outcome_free(&o2);
        fmuc_worker_outcome_free(&o);
    }
    fmuc_result_parts_judged(res, tested);
    if (!tested && res->verdict == FMUC_VERDICT_PASS)
        fmuc_result_na(res, "no library could be loaded");
}

const fmuc_check fmuc_check_api_instantiate_refuses = {
    .id = "api-instantiate-refuses",
    .title = "Instantiation refuses an undeclared interface and an empty instance name",
    .spec = "FMI 2.0.4 §2.1.5; FMI 3.0.2 §2.3.1; FMI 1.0 ME (fmiInstantiateModel: instanceName "
            "non-NULL, non-empty); FMI 1.0 CS (fmiInstantiateSlave)",
    .level = FMUC_LEVEL_SHOULD,
    .why = "An FMU that returns an instance for an interface it does not implement, or for an "
           "empty name, lets an importer carry on until it fails later and less clearly, e.g. in "
           "fmi2DoStep.",
    .fix = "In the instantiate function return NULL and log the reason when it is asked for an "
           "interface the modelDescription does not declare (2.0: fmuType) or instanceName is "
           "NULL or empty.",
    .applies = FMUC_APPLIES_MECS,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
