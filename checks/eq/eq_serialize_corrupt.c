/* eq-serialize-corrupt: what fmi2DeSerializeFMUstate does with damaged bytes (bytes flipped in
 * the middle, the buffer truncated to half, all zeros). FMI 2.0.4 §2.1.8 defines the function
 * for "the byte vector serializedState" that fmi2SerializeFMUstate produced; it says nothing of
 * other bytes, so neither accepting them nor crashing on them breaks a rule of the text: both
 * warn (undefined behaviour, robustness), refusing them (fmi2Error) passes.
 *
 * As an importer: each damaged vector goes to a fresh instance of its own, in a worker of its
 * own, so that a refusal (fmi2Error: only fmi2FreeInstance may follow, §2.1.3) or a crash
 * cannot touch the next probe; what a failed call left in its FMUstate argument is never used
 * (never freed); a state the FMU accepted is freed with fmi2FreeFMUstate. The valid bytes come
 * from a first worker (up to HANDOVER_MAX, beyond that each probe worker makes them itself),
 * which serializes the state right after initialization. *
 * FMI 3.0: the same probes of fmi3DeserializeFMUState, whose text (FMI 3.0.2 §2.2.7.4) is as
 * silent on damaged bytes as 2.0's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eq_util.h"

enum { CORRUPT_FLIP = 0, CORRUPT_TRUNCATE, CORRUPT_ZEROS, NCORRUPT };
static const char *const corrupt_name[NCORRUPT] = {"bytes flipped in the middle",
                                                   "truncated to half the size", "all zeros"};

/* Serialized bytes handed from the first worker to the probes: at most this many. */
#define HANDOVER_MAX ((size_t)4 << 20)

typedef struct cor_job {
    const equ_plan *plan;
    size_t k1;
    int once;             /* canBeInstantiatedOnlyOncePerProcess */
    int kind;             /* probe: CORRUPT_* */
    const uint8_t *buf;  /* probe: the valid bytes, or NULL (make them) */
    size_t sz;
} cor_job;

/* Crashes in these phases answer the damaged bytes. */
static const char *const probe_phases[] = {"fmi2DeSerializeFMUstate of ",
                                           "fmi2FreeFMUstate of the accepted state",
                                           "fmi2FreeInstance after fmi2DeSerializeFMUstate", NULL};
/* Crashes in these phases belong to eq-serialize (valid states). */
static const char *const valid_phases[] = {"fmi2GetFMUstate", NULL};

/* Start an instance, run it to t1 (p->t[k1]) and serialize its state into *buf (malloc); the
 * instance stays (in).
 * 0, or -1 with reply["run_error"] / reply["serialize_error"] set. */
static int make_bytes(fmuc_worker_ctx *ctx, const cor_job *job,
                      const equ_plan *p, equ_inst *in, uint8_t **buf, size_t *sz)
{
    cJSON *reply = fmuc_worker_reply(ctx);
    fmuc_fmu_state sa = NULL;
    int rc = -1;
    *buf = NULL;
    *sz = 0;
    fmuc_worker_phase(ctx, "run to t1");
    if (equ_inst_start(in, ctx, p, "corruptA") < 0 || equ_inst_run_to(in, job->k1, NULL) < 0) {
        cJSON_AddStringToObject(reply, "run_error", in->err);
        return -1;
    }
    fmuc_worker_phase(ctx, "fmi2GetFMUstate and fmi2SerializeFMUstate at t1");
    if (!fmuc_status_ok(equ_inst_status(in, fmuc_inst_get_state(in->c, &sa))) || !sa) {
        sa = NULL;
        goto out;
    }
    if (!fmuc_status_ok(equ_inst_status(in, fmuc_inst_serialized_state_size(in->c, sa, sz))) ||
        *sz == 0 || *sz > ((size_t)1 << 30) || !(*buf = malloc(*sz)))
        goto out;
    if (!fmuc_status_ok(equ_inst_status(in, fmuc_inst_serialize_state(in->c, sa, *buf, *sz))))
        goto out;
    rc = 0;
out:
    if (rc < 0) {
        cJSON_AddStringToObject(reply, "serialize_error",
                                "getting or serializing the state failed (see eq-serialize)");
        free(*buf);
        *buf = NULL;
    }
    if (sa && equ_inst_usable(in))
        fmuc_inst_free_state(in->c, &sa);
    return rc;
}

/* First worker: the valid bytes for the probes. */
static int src_worker(fmuc_worker_ctx *ctx, void *payload)
{
    const cor_job *job = payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    equ_plan copy;
    const equ_plan *p = equ_worker_plan(&copy, job->plan);
    equ_inst ia;
    uint8_t *buf = NULL;
    size_t sz = 0;
    memset(&ia, 0, sizeof ia);
    int f_loaded = fmuc_inst_load(ctx, (fmuc_iface)(p->iface)) == 0;
    if (!f_loaded) {
        cJSON_AddStringToObject(reply, "run_error", fmuc_worker_load_error(ctx));
        return 0;
    }
    if (make_bytes(ctx, job, p, &ia, &buf, &sz) == 0) {
        cJSON_AddNumberToObject(reply, "size", (double)sz);
        if (sz <= HANDOVER_MAX)
            cJSON_AddItemToObject(reply, "bytes", fmuc_worker_bytes_to_json(buf, sz));
    }
    fmuc_worker_phase(ctx, "free the first instance");
    equ_inst_free(&ia);
    free(buf);
    return 0;
}

static void corrupt(uint8_t *bad, const uint8_t *buf, size_t sz, int kind, size_t *len)
{
    memcpy(bad, buf, sz);
    *len = sz;
    if (kind == CORRUPT_FLIP) {
        size_t mid = sz / 2, m = sz < 8 ? sz : 8;
        if (mid + m > sz)
            mid = sz - m;
        for (size_t i = 0; i < m; i++)
            bad[mid + i] = (uint8_t)(bad[mid + i] ^ 0x5a);
    } else if (kind == CORRUPT_TRUNCATE) {
        *len = sz / 2;
    } else {
        memset(bad, 0, sz);
    }
}

/* One probe: a fresh instance gets one damaged byte vector. */
static int probe_worker(fmuc_worker_ctx *ctx, void *payload)
{
    const cor_job *job = payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    equ_plan copy;
    const equ_plan *p = equ_worker_plan(&copy, job->plan);
    equ_inst ia, ib;
    uint8_t *own = NULL, *bad = NULL;
    const uint8_t *buf = job->buf;
    size_t sz = job->sz, len = 0;
    memset(&ia, 0, sizeof ia);
    memset(&ib, 0, sizeof ib);
    int f_loaded = fmuc_inst_load(ctx, (fmuc_iface)(p->iface)) == 0;
    if (!f_loaded) {
        cJSON_AddStringToObject(reply, "run_error", fmuc_worker_load_error(ctx));
        return 0;
    }
    if (!buf) { /* too large to hand over: make them here */
        if (make_bytes(ctx, job, p, &ia, &own, &sz) < 0)
            goto out;
        buf = own;
        if (!job->once) {
            fmuc_worker_phase(ctx, "free the first instance");
            equ_inst_free(&ia);
        }
    }
    equ_inst *tgt = &ib;
    if (job->once && ia.c) {
        tgt = &ia; /* one instance per process: the instance that made the bytes gets them */
    } else {
        fmuc_worker_phase(ctx, "fresh instance: instantiate and initialize");
        if (equ_inst_start(&ib, ctx, p, "corruptB") < 0) {
            cJSON_AddStringToObject(reply, "run_error", ib.err);
            goto out;
        }
    }
    if (!(bad = malloc(sz))) {
        cJSON_AddStringToObject(reply, "run_error", "out of memory");
        goto out;
    }
    corrupt(bad, buf, sz, job->kind, &len);
    fmuc_fmu_state sb = NULL;
    fmuc_worker_phase(ctx, "fmi2DeSerializeFMUstate of %s", corrupt_name[job->kind]);
    int st = equ_inst_status(tgt, fmuc_inst_deserialize_state(tgt->c, bad, len, &sb));
    equ_put_status(reply, "status", st);
    if ((st == FMUC_STATUS_OK || st == FMUC_STATUS_WARNING) && sb) {
        fmuc_worker_phase(ctx, "fmi2FreeFMUstate of the accepted state");
        equ_inst_status(tgt, fmuc_inst_free_state(tgt->c, &sb));
    }
    /* otherwise sb is whatever the failed call left there: not used */
    fmuc_worker_phase(ctx, "fmi2FreeInstance after fmi2DeSerializeFMUstate of %s",
                      corrupt_name[job->kind]);
    equ_inst_free(tgt);
out:
    fmuc_worker_phase(ctx, "free the instances");
    equ_inst_free(&ib);
    equ_inst_free(&ia);
    free(own);
    free(bad);
    return 0;
}

static void run_iface(const fmuc_subject *s, fmuc_result *res, fmuc_iface iface, int level)
{
    equ_plan p;
    fmuc_worker_outcome o;
    char sb[32], what[160];
    const char *ifn = equ_iface_name(iface);
    unsigned char *bytes = NULL;
    (void)level; /* no steps: no ME substeps to budget */
    if (equ_plan_init(&p, s->fmu, iface, EQU_STEPS_SHORT) < 0) {
        fmuc_result_na_part(res, "%s: %s", ifn, p.why);
        equ_plan_free(&p);
        return;
    }
    /* (the horizon for its hang check: initialization itself may be a call that hung) */
    if (equ_plan_horizon(&p, s, res) != 0) {
        equ_plan_free(&p);
        return;
    }
    /* the valid bytes are those of the state right after initialization (t1 = the start, the
     * inputs at their start values): the probes ask what damaged bytes do, not where the state
     * was taken, and the first steps of a run can cost most of it (issue 16's time bounds: one
     * instance's transient fewer) */
    cor_job job = {&p, 0,
                   equ_cap(s->fmu, iface, FMUC_CAP_CAN_BE_INSTANTIATED_ONLY_ONCE_PER_PROCESS),
                   0, NULL, 0};
    snprintf(what, sizeof what, "%s: getting or serializing a valid state (see eq-serialize); "
                                "damaged bytes not tried", ifn);
    if (equ_worker_probe(s, s->fmu, "eq-serialize-corrupt", src_worker, &job, &o, res,
                         valid_phases, FMUC_VERDICT_NA, what) < 0) {
        equ_plan_free(&p);
        return;
    }
    const char *re = cJSON_GetStringValue(cJSON_GetObjectItem(o.reply, "run_error"));
    const char *se = cJSON_GetStringValue(cJSON_GetObjectItem(o.reply, "serialize_error"));
    double size = cJSON_GetNumberValue(cJSON_GetObjectItem(o.reply, "size"));
    if (re || se || !(size > 0)) {
        fmuc_result_na_part(res, "%s: %s; damaged bytes not tried", ifn,
                            re ? re : se ? se : "no serialized state");
        goto out;
    }
    job.sz = (size_t)size;
    if (cJSON_GetObjectItem(o.reply, "bytes")) {
        bytes = fmuc_worker_bytes_from_json(cJSON_GetObjectItem(o.reply, "bytes"), job.sz);
        if (!bytes) {
            fmuc_result_error(res, "%s: malformed serialized state in the worker reply", ifn);
            goto out;
        }
        job.buf = (const uint8_t *)bytes;
    }
    if (job.once && !job.buf)
        fmuc_result_note(res, "%s: canBeInstantiatedOnlyOncePerProcess=\"true\" and %.0f "
                              "serialized bytes: the damaged bytes go to the instance that made "
                              "them",
                         ifn, size);
    cJSON *evi = cJSON_AddObjectToObject(fmuc_result_evidence(res), ifn);
    cJSON_AddNumberToObject(evi, "serialized_bytes", size);
    int explained = 0;
    for (int k = 0; k < NCORRUPT; k++) {
        fmuc_worker_outcome po;
        job.kind = k;
        if (k == CORRUPT_TRUNCATE && job.sz < 2)
            continue;
        snprintf(what, sizeof what, "%s: fmi2DeSerializeFMUstate of %.0f serialized bytes with %s",
                 ifn, size, corrupt_name[k]);
        if (equ_worker_probe(s, s->fmu, "eq-serialize-corrupt (probe)", probe_worker, &job, &po,
                             res, probe_phases, FMUC_VERDICT_WARN, what) < 0) {
            cJSON_AddStringToObject(evi, corrupt_name[k], "crashed");
            if (!explained++ && res->verdict == FMUC_VERDICT_WARN)
                fmuc_result_note(res, "§2.1.8 defines fmi2DeSerializeFMUstate for the bytes that "
                                      "fmi2SerializeFMUstate produced; for other bytes the "
                                      "behaviour is undefined, so a crash warns");
            if (res->verdict == FMUC_VERDICT_ERROR || res->verdict == FMUC_VERDICT_NA)
                break; /* not a death in the probe: the later probes would end the same way */
            continue;
        }
        const char *pe = cJSON_GetStringValue(cJSON_GetObjectItem(po.reply, "run_error"));
        const cJSON *j = cJSON_GetObjectItem(po.reply, "status");
        if (pe) {
            fmuc_result_note(res, "%s: %s not tried: %s", ifn, corrupt_name[k], pe);
        } else if (cJSON_IsNumber(j)) {
            int st = j->valueint;
            cJSON_AddStringToObject(evi, corrupt_name[k], fmuc_status_name(2, st, sb, sizeof sb));
            if (st == FMUC_STATUS_OK || st == FMUC_STATUS_WARNING)
                fmuc_result_violation(res, "%s: accepted (%s); damaged states should be refused",
                                      what, fmuc_status_name(2, st, sb, sizeof sb));
        }
        fmuc_worker_outcome_free(&po);
    }
out:
    free(bytes);
    fmuc_worker_outcome_free(&o);
    equ_plan_free(&p);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    equ_for_capable(s, res,
                    (1u << FMUC_CAP_CAN_SERIALIZE_FMU_STATE) |
                        (1u << FMUC_CAP_CAN_GET_AND_SET_FMU_STATE),
                    "canSerializeFMUstate=\"true\" (with canGetAndSetFMUstate)", run_iface);
    equ_v3_names(s, res, 0);
}

const fmuc_check fmuc_check_eq_serialize_corrupt = {
    .id = "eq-serialize-corrupt",
    .title = "fmi2DeSerializeFMUstate refuses damaged bytes (undefined by the text: accepting or "
             "crashing warns)",
    .spec = "FMI 2.0.4 §2.1.8; FMI 3.0.2 §2.2.7.4",
    .level = FMUC_LEVEL_SHOULD,
    .why = "A checkpoint file damaged on disk or from another FMU version is handed to "
           "fmi2DeSerializeFMUstate; accepting it or crashing loses the run instead of a clear "
           "error.",
    .fix = "Write a header with a magic number, version, length and checksum into serialized "
           "states and return fmi2Error from fmi2DeSerializeFMUstate when any of them does not "
           "match.",
    .applies = FMUC_APPLIES_MECS,
    .versions = FMUC_V2 | FMUC_V3,
    .absent_in_v1 = "FMI 1.0 has no FMU state and no deserialization of one (both came with FMI 2.0)",
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .sessions = 1,
    .run = run,
};
