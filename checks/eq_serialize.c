/* eq-serialize: a state serialized at t1 (fmi2SerializedFMUstateSize, fmi2SerializeFMUstate) and
 * deserialized into a fresh instance (Instantiate + setup + initialization, then
 * fmi2DeSerializeFMUstate + fmi2SetFMUstate) continues bit-identically to the original run; the
 * size query is consistent. CS and ME where canSerializeFMUstate="true".
 * FMI 2.0.4 §2.1.8 (rule E-05). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eq_util.h"

typedef struct ser_job {
    const equ_plan *plan;
    size_t k1, k2;
    int once; /* canBeInstantiatedOnlyOncePerProcess: deserialize into instance A, no second */
} ser_job;

static int ser_worker(fmuc_worker_ctx *ctx, void *payload)
{
    const ser_job *job = payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    equ_plan copy;
    const equ_plan *p = equ_worker_plan(&copy, job->plan);
    size_t n = (p->nsteps + 1) * p->nout, w = p->nout;
    double *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b);
    equ_inst ia, ib;
    fmi2FMUstate sa = NULL, sb = NULL;
    fmi2Byte *buf = NULL;
    size_t sz = 0, sz2 = 0;
    fmi2Status st;
    memset(&ia, 0, sizeof ia);
    memset(&ib, 0, sizeof ib);
    const fmuc_fmi *f = fmuc_worker_load(ctx, p->iface);
    if (!f || !a || !b) {
        cJSON_AddStringToObject(reply, "run_error", f ? "out of memory"
                                                      : fmuc_worker_load_error(ctx));
        goto out;
    }
    fmuc_worker_phase(ctx, "run to t1");
    if (equ_inst_start(&ia, f, p, "serializeA") < 0 || equ_inst_record(&ia, a) < 0 ||
        equ_inst_run_to(&ia, job->k1, a) < 0) {
        cJSON_AddStringToObject(reply, "run_error", ia.err);
        goto out;
    }
    fmuc_worker_phase(ctx, "get and serialize the state at t1");
    equ_snap snap;
    equ_inst_snap(&ia, &snap);
    st = fmuc_fmi_getFMUstate(f, ia.c, &sa);
    equ_put_status(reply, "get", st);
    if (st != fmi2OK || !sa)
        goto out;
    st = fmuc_fmi_serializedFMUstateSize(f, ia.c, sa, &sz);
    equ_put_status(reply, "size", st);
    if (st != fmi2OK)
        goto out;
    st = fmuc_fmi_serializedFMUstateSize(f, ia.c, sa, &sz2);
    cJSON_AddNumberToObject(reply, "size1", (double)sz);
    cJSON_AddNumberToObject(reply, "size2", st == fmi2OK ? (double)sz2 : -1.0);
    if (sz == 0 || sz > ((size_t)1 << 30))
        goto out;
    buf = malloc(sz);
    if (!buf)
        goto out;
    st = fmuc_fmi_serializeFMUstate(f, ia.c, sa, buf, sz);
    equ_put_status(reply, "serialize", st);
    if (st != fmi2OK)
        goto out;
    fmuc_worker_phase(ctx, "original run to t2");
    if (equ_inst_run_to(&ia, job->k2, a) < 0) {
        cJSON_AddStringToObject(reply, "run_error", ia.err);
        goto out;
    }
    cJSON_AddItemToObject(reply, "a", fmuc_worker_f64_to_json(a, n));
    equ_inst *tb = job->once ? &ia : &ib;
    if (job->once) {
        fmuc_worker_phase(ctx, "same instance (once per process): deserialize, set, run to t2");
    } else {
        fmuc_worker_phase(ctx, "fresh instance: deserialize, set, run to t2");
        if (equ_inst_start(&ib, f, p, "serializeB") < 0) {
            cJSON_AddStringToObject(reply, "fresh_error", ib.err);
            goto out;
        }
    }
    st = fmuc_fmi_deSerializeFMUstate(f, tb->c, buf, sz, &sb);
    equ_put_status(reply, "deserialize", st);
    if (st != fmi2OK || !sb)
        goto out;
    st = fmuc_fmi_setFMUstate(f, tb->c, sb);
    equ_put_status(reply, "set", st);
    if (st != fmi2OK)
        goto out;
    if (equ_inst_restore(tb, &snap) < 0 || equ_inst_record(tb, b + job->k1 * w) < 0 ||
        equ_inst_run_to(tb, job->k2, b) < 0) {
        cJSON_AddStringToObject(reply, "restored_error", tb->err);
        goto out;
    }
    cJSON_AddItemToObject(reply, "b", fmuc_worker_f64_to_json(b, n));
out:
    if (sb && (job->once ? ia.c : ib.c))
        fmuc_fmi_freeFMUstate(f, job->once ? ia.c : ib.c, &sb);
    if (sa && ia.c)
        fmuc_fmi_freeFMUstate(f, ia.c, &sa);
    equ_inst_free(&ib);
    equ_inst_free(&ia);
    free(buf);
    free(a);
    free(b);
    return 0;
}

static int status_ok(fmuc_result *res, const cJSON *rp, const char *key, const char *what,
                     const char *ifn)
{
    const cJSON *j = cJSON_GetObjectItem(rp, key);
    char sb[32];
    if (cJSON_IsNumber(j) && j->valueint == fmi2OK)
        return 1;
    fmuc_result_violation(res, "%s: %s returned %s although canSerializeFMUstate=\"true\"", ifn,
                          what,
                          fmuc_fmi_status_name(cJSON_IsNumber(j) ? j->valueint : -1, sb,
                                               sizeof sb));
    return 0;
}

static void run_iface(const fmuc_subject *s, fmuc_result *res, fmi2Type iface, int level)
{
    equ_plan p;
    fmuc_worker_outcome o;
    if (equ_plan_init(&p, s->fmu, iface, EQU_STEPS_SHORT) < 0 || p.nsteps < 2) {
        fmuc_result_na(res, "%s: %s", equ_iface_name(iface),
                       p.why[0] ? p.why : "fewer than 2 steps");
        equ_plan_free(&p);
        return;
    }
    equ_plan_me_budget(&p, level, EQU_ME_SUBSTEPS_SHORT);
    equ_plan_excite(&p);
    ser_job job = {&p, p.nsteps / 2, p.nsteps,
                   equ_cap(s->fmu, iface, FMUC_CAP_CAN_BE_INSTANTIATED_ONLY_ONCE_PER_PROCESS)};
    if (job.once)
        fmuc_result_note(res, "%s: canBeInstantiatedOnlyOncePerProcess=\"true\": the serialized "
                              "state is restored into the same instance, not a fresh one",
                         equ_iface_name(iface));
    if (equ_worker(s, s->fmu, "eq-serialize", ser_worker, &job, &o, res) < 0) {
        equ_plan_free(&p);
        return;
    }
    const cJSON *rp = o.reply;
    const char *ifn = equ_iface_name(iface);
    const char *re = cJSON_GetStringValue(cJSON_GetObjectItem(rp, "run_error"));
    size_t n = (p.nsteps + 1) * p.nout;
    double *a = NULL, *b = NULL;
    if (re && !cJSON_GetObjectItem(rp, "get")) {
        fmuc_result_na(res, "%s: the nominal run failed (%s); serialization not assessed", ifn,
                       re);
        goto out;
    }
    if (!status_ok(res, rp, "get", "fmi2GetFMUstate", ifn) ||
        !status_ok(res, rp, "size", "fmi2SerializedFMUstateSize", ifn))
        goto out;
    double s1 = cJSON_GetNumberValue(cJSON_GetObjectItem(rp, "size1"));
    double s2 = cJSON_GetNumberValue(cJSON_GetObjectItem(rp, "size2"));
    if (s1 <= 0) {
        fmuc_result_violation(res, "%s: fmi2SerializedFMUstateSize gives 0 bytes", ifn);
        goto out;
    }
    if (s1 > (double)((size_t)1 << 30)) {
        fmuc_result_violation(res, "%s: fmi2SerializedFMUstateSize gives %.0f bytes (over 1 GiB)",
                              ifn, s1);
        goto out;
    }
    if (s2 != s1)
        fmuc_result_violation(res, "%s: fmi2SerializedFMUstateSize is inconsistent for the same "
                                   "state: %.0f then %.0f bytes",
                              ifn, s1, s2);
    if (!status_ok(res, rp, "serialize", "fmi2SerializeFMUstate", ifn))
        goto out;
    if (re) {
        fmuc_result_na(res, "%s: the run after serializing failed (%s)", ifn, re);
        goto out;
    }
    if (cJSON_GetObjectItem(rp, "fresh_error")) {
        fmuc_result_na(res, "%s: a second instance could not be initialized (%s)", ifn,
                       cJSON_GetStringValue(cJSON_GetObjectItem(rp, "fresh_error")));
        goto out;
    }
    if (!status_ok(res, rp, "deserialize",
                   "fmi2DeSerializeFMUstate of the bytes from fmi2SerializeFMUstate (in a fresh "
                   "instance)",
                   ifn) ||
        !status_ok(res, rp, "set", "fmi2SetFMUstate of the deserialized state", ifn))
        goto out;
    if (cJSON_GetObjectItem(rp, "restored_error")) {
        fmuc_result_violation(res, "%s: the run from the deserialized state fails: %s", ifn,
                              cJSON_GetStringValue(cJSON_GetObjectItem(rp, "restored_error")));
        goto out;
    }
    a = fmuc_worker_f64_from_json(cJSON_GetObjectItem(rp, "a"), n);
    b = fmuc_worker_f64_from_json(cJSON_GetObjectItem(rp, "b"), n);
    if (!a || !b) {
        fmuc_result_error(res, "%s: malformed series in the worker reply", ifn);
        goto out;
    }
    size_t w = p.nout, r, c;
    if (equ_first_diff(a + job.k1 * w, b + job.k1 * w, job.k2 - job.k1 + 1, w, &r, &c)) {
        char b1[64], b2[64];
        r += job.k1;
        fmuc_result_violation(res,
                              "%s: continuing from the state serialized at t=%.17g in a fresh "
                              "instance: '%s' (vr %u) differs at t=%.17g (step %zu): original "
                              "%s, deserialized %s",
                              ifn, p.t[job.k1], p.out[c].name, p.out[c].vr, p.t[r], r,
                              equ_fmt_bits(a[r * w + c], b1, sizeof b1),
                              equ_fmt_bits(b[r * w + c], b2, sizeof b2));
    }
    cJSON *evi = cJSON_AddObjectToObject(fmuc_result_evidence(res), ifn);
    cJSON_AddNumberToObject(evi, "serialized_bytes", s1);
    cJSON_AddNumberToObject(evi, "t1", p.t[job.k1]);
    cJSON_AddNumberToObject(evi, "t2", p.t[job.k2]);
out:
    free(a);
    free(b);
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

const fmuc_check fmuc_check_eq_serialize = {
    .id = "eq-serialize",
    .title = "A serialized FMU state continues bit for bit in a fresh instance",
    .spec = "FMI 2.0.4 §2.1.8",
    .level = FMUC_LEVEL_MUST,
    .applies = FMUC_APPLIES_ANY,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
