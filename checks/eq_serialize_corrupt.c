/* eq-serialize-corrupt: fmi2DeSerializeFMUstate refuses damaged bytes (not fmi2OK): bytes
 * flipped in the middle, the buffer truncated to half, all zeros. The standard does not demand
 * validation, so accepting them is a warning; a crash is an error. FMI 2.0.4 §2.1.8 (E-05),
 * robustness. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eq_util.h"

enum { CORRUPT_FLIP = 0, CORRUPT_TRUNCATE, CORRUPT_ZEROS, NCORRUPT };
static const char *const corrupt_name[NCORRUPT] = {"bytes flipped in the middle",
                                                   "truncated to half the size", "all zeros"};

typedef struct cor_job {
    const equ_plan *plan;
    size_t k1;
    int once; /* canBeInstantiatedOnlyOncePerProcess: deserialize into instance A, no second */
} cor_job;

static int cor_worker(fmuc_worker_ctx *ctx, void *payload)
{
    const cor_job *job = payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    equ_plan copy;
    const equ_plan *p = equ_worker_plan(&copy, job->plan);
    equ_inst ia, ib;
    fmi2FMUstate sa = NULL;
    fmi2Byte *buf = NULL, *bad = NULL;
    size_t sz = 0;
    memset(&ia, 0, sizeof ia);
    memset(&ib, 0, sizeof ib);
    const fmuc_fmi *f = fmuc_worker_load(ctx, p->iface);
    if (!f) {
        cJSON_AddStringToObject(reply, "run_error", fmuc_worker_load_error(ctx));
        goto out;
    }
    fmuc_worker_phase(ctx, "run to t1 and serialize");
    if (equ_inst_start(&ia, f, p, "corruptA") < 0 || equ_inst_run_to(&ia, job->k1, NULL) < 0) {
        cJSON_AddStringToObject(reply, "run_error", ia.err);
        goto out;
    }
    if (fmuc_fmi_getFMUstate(f, ia.c, &sa) != fmi2OK || !sa ||
        fmuc_fmi_serializedFMUstateSize(f, ia.c, sa, &sz) != fmi2OK || sz == 0 ||
        sz > ((size_t)1 << 30) || !(buf = malloc(sz)) || !(bad = malloc(sz)) ||
        fmuc_fmi_serializeFMUstate(f, ia.c, sa, buf, sz) != fmi2OK) {
        cJSON_AddStringToObject(reply, "serialize_error",
                                "getting or serializing the state failed (see eq-serialize)");
        goto out;
    }
    cJSON_AddNumberToObject(reply, "size", (double)sz);
    if (!job->once && equ_inst_start(&ib, f, p, "corruptB") < 0) {
        cJSON_AddStringToObject(reply, "run_error", ib.err);
        goto out;
    }
    fmi2Component cb = job->once ? ia.c : ib.c;
    cJSON *arr = cJSON_AddArrayToObject(reply, "statuses");
    for (int k = 0; k < NCORRUPT; k++) {
        size_t len = sz;
        memcpy(bad, buf, sz);
        if (k == CORRUPT_FLIP) {
            size_t mid = sz / 2, m = sz < 8 ? sz : 8;
            if (mid + m > sz)
                mid = sz - m;
            for (size_t i = 0; i < m; i++)
                bad[mid + i] = (fmi2Byte)(bad[mid + i] ^ 0x5a);
        } else if (k == CORRUPT_TRUNCATE) {
            len = sz / 2;
        } else {
            memset(bad, 0, sz);
        }
        if (len == 0) {
            cJSON_AddItemToArray(arr, cJSON_CreateNumber(-1));
            continue;
        }
        fmi2FMUstate sb = NULL;
        fmuc_worker_phase(ctx, "fmi2DeSerializeFMUstate of %s", corrupt_name[k]);
        fmi2Status st = fmuc_fmi_deSerializeFMUstate(f, cb, bad, len, &sb);
        cJSON_AddItemToArray(arr, cJSON_CreateNumber((double)st));
        if (sb)
            fmuc_fmi_freeFMUstate(f, cb, &sb);
    }
out:
    if (sa && ia.c)
        fmuc_fmi_freeFMUstate(f, ia.c, &sa);
    equ_inst_free(&ib);
    equ_inst_free(&ia);
    free(buf);
    free(bad);
    return 0;
}

static void run_iface(const fmuc_subject *s, fmuc_result *res, fmi2Type iface, int level)
{
    equ_plan p;
    fmuc_worker_outcome o;
    char sb[32];
    const char *ifn = equ_iface_name(iface);
    if (equ_plan_init(&p, s->fmu, iface, EQU_STEPS_SHORT) < 0 || p.nsteps < 2) {
        fmuc_result_na(res, "%s: %s", ifn, p.why[0] ? p.why : "fewer than 2 steps");
        equ_plan_free(&p);
        return;
    }
    if (equ_plan_horizon(&p, s, res) != 0 || p.nsteps < 2) {
        if (p.nsteps < 2)
            fmuc_result_na(res, "%s: fewer than 2 steps before the horizon", equ_iface_name(iface));
        equ_plan_free(&p);
        return;
    }
    equ_plan_me_budget(&p, level, EQU_ME_SUBSTEPS_SHORT);
    equ_plan_excite(&p);
    cor_job job = {&p, p.nsteps / 4,
                   equ_cap(s->fmu, iface, FMUC_CAP_CAN_BE_INSTANTIATED_ONLY_ONCE_PER_PROCESS)};
    if (job.once)
        fmuc_result_note(res, "%s: canBeInstantiatedOnlyOncePerProcess=\"true\": the corrupt "
                              "states are given to the same instance, not a fresh one", ifn);
    if (equ_worker(s, s->fmu, "eq-serialize-corrupt", cor_worker, &job, &o, res) < 0) {
        equ_plan_free(&p);
        return;
    }
    const cJSON *rp = o.reply;
    const char *re = cJSON_GetStringValue(cJSON_GetObjectItem(rp, "run_error"));
    const char *se = cJSON_GetStringValue(cJSON_GetObjectItem(rp, "serialize_error"));
    const cJSON *arr = cJSON_GetObjectItem(rp, "statuses");
    if (re || se) {
        fmuc_result_na(res, "%s: %s; corrupted bytes not tried", ifn, re ? re : se);
    } else {
        cJSON *evi = cJSON_AddObjectToObject(fmuc_result_evidence(res), ifn);
        double size = cJSON_GetNumberValue(cJSON_GetObjectItem(rp, "size"));
        cJSON_AddNumberToObject(evi, "serialized_bytes", size);
        for (int k = 0; k < NCORRUPT; k++) {
            const cJSON *j = cJSON_GetArrayItem(arr, k);
            int st = cJSON_IsNumber(j) ? j->valueint : -1;
            if (st < 0)
                continue;
            cJSON_AddStringToObject(evi, corrupt_name[k], fmuc_fmi_status_name(st, sb, sizeof sb));
            if (st == fmi2OK || st == fmi2Warning)
                fmuc_result_violation(res,
                                      "%s: fmi2DeSerializeFMUstate accepted %.0f serialized bytes "
                                      "with %s (%s); damaged states should be refused",
                                      ifn, size, corrupt_name[k], fmuc_fmi_status_name(st, sb,
                                                                                      sizeof sb));
        }
    }
    fmuc_worker_outcome_free(&o);
    equ_plan_free(&p);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    equ_for_capable(s, res,
                    (1u << FMUC_CAP_CAN_SERIALIZE_FMU_STATE) |
                        (1u << FMUC_CAP_CAN_GET_AND_SET_FMU_STATE),
                    "canSerializeFMUstate=\"true\" (with canGetAndSetFMUstate)", run_iface);
}

const fmuc_check fmuc_check_eq_serialize_corrupt = {
    .id = "eq-serialize-corrupt",
    .title = "fmi2DeSerializeFMUstate refuses damaged bytes",
    .spec = "FMI 2.0.4 §2.1.8",
    .level = FMUC_LEVEL_SHOULD,
    .applies = FMUC_APPLIES_ANY,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
