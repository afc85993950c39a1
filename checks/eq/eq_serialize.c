/* eq-serialize: a state serialized at t1 (fmi2SerializedFMUstateSize, fmi2SerializeFMUstate) and
 * deserialized into a fresh instance (Instantiate + setup + initialization, then
 * fmi2DeSerializeFMUstate + fmi2SetFMUstate) continues the original run; the size query is
 * consistent. CS and ME where canSerializeFMUstate="true". FMI 2.0.4 §2.1.8 (rule E-05).
 *
 * The bytes are restored twice, each time in a fresh instance: in the process that serialized
 * them (after the first instance is freed, so that nothing of it can linger) and in a second
 * worker process, which gets them from the first: the byte vector is "a copy of the serialized
 * data" from which fmi2DeSerializeFMUstate "constructs a copy of the FMU state" (§2.1.8), made so
 * that it can be stored, e.g. on file, and restored later; bytes that only decode in the process
 * that wrote them (pointers into its memory) fail. With canBeInstantiatedOnlyOncePerProcess only
 * the second process restores; bytes over the handover (HANDOVER_MAX) stay in the first (noted;
 * with the flag: not restored). As in eq-fmu-state, each continuation must give the same values
 * (-0.0 = +0.0, NaN = NaN), up to an integrator restart (a difference that shrinks with the
 * tolerance, equ_restart_test). A crash in a serialization call or in the run from the deserialized state
 * is this check's failure. FMI 3.0: fmi3SerializedFMUStateSize / fmi3SerializeFMUState /
 * fmi3DeserializeFMUState with canSerializeFMUState (FMI 3.0.2 §2.2.7.4, fmi3-rules E-05). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eq_util.h"

typedef struct ser_job {
    const equ_plan *plan;
    size_t k1, k2;
    int once;        /* canBeInstantiatedOnlyOncePerProcess: no second instance in the process
                      * that serialized; only the restore in another process */
    const char *pre; /* the reply keys of the restore the tolerance comparison reads: "" (the
                      * process that serialized) or "x_" (another process) */
} ser_job;

/* Serialized bytes handed from one worker to the next: at most this many (the reply carries
 * them as hex). */
#define HANDOVER_MAX ((size_t)4 << 20)

/* Worker phases whose crash answers the calls this check probes. */
static const char *const probe_phases[] = {"fmi2GetFMUstate", "fmi2DeSerializeFMUstate",
                                           "run on from the deserialized state", NULL};

/* The second half in a fresh instance: deserialize, set, restore the host position, run to k2. */
static void continue_fresh(fmuc_worker_ctx *ctx, const equ_plan *p,
                           const ser_job *job, const uint8_t *buf, size_t sz,
                           const equ_snap *snap, double *b)
{
    cJSON *reply = fmuc_worker_reply(ctx);
    equ_inst ib;
    fmuc_fmu_state sb = NULL;
    memset(&ib, 0, sizeof ib);
    fmuc_worker_phase(ctx, "fresh instance: instantiate and initialize");
    if (equ_inst_start(&ib, ctx, p, "serializeB") < 0) {
        cJSON_AddStringToObject(reply, "fresh_error", ib.err);
        goto out;
    }
    fmuc_worker_phase(ctx, "fmi2DeSerializeFMUstate and fmi2SetFMUstate in the fresh instance");
    int st = equ_inst_status(&ib, fmuc_inst_deserialize_state(ib.c, buf, sz, &sb));
    equ_put_status(reply, "deserialize", st);
    if (!fmuc_status_ok(st) || !sb) {
        sb = NULL; /* the output of a failed call is not used */
        goto out;
    }
    st = equ_inst_status(&ib, fmuc_inst_set_state(ib.c, sb));
    equ_put_status(reply, "set", st);
    if (!fmuc_status_ok(st))
        goto out;
    fmuc_worker_phase(ctx, "run on from the deserialized state to t2");
    if (equ_inst_restore(&ib, snap) < 0 || equ_inst_record(&ib, b + job->k1 * p->nout) < 0 ||
        equ_inst_run_to(&ib, job->k2, b) < 0) {
        cJSON_AddStringToObject(reply, "restored_error", ib.err);
        goto out;
    }
    cJSON_AddItemToObject(reply, "b", fmuc_worker_f64_to_json(b, (p->nsteps + 1) * p->nout));
out:
    fmuc_worker_phase(ctx, "free the fresh instance");
    /* after fmi2Error only fmi2FreeInstance, which frees the instance's states too */
    if (sb && equ_inst_usable(&ib))
        fmuc_inst_free_state(ib.c, &sb);
    equ_inst_free(&ib);
}

/* The second worker: the bytes and the host position come from the first. */
typedef struct fresh_job {
    const ser_job *job;
    const uint8_t *buf;
    size_t sz;
    equ_snap snap;
} fresh_job;

static int fresh_worker(fmuc_worker_ctx *ctx, void *payload)
{
    const fresh_job *fj = payload;
    equ_plan copy;
    const equ_plan *p = equ_worker_plan(&copy, fj->job->plan);
    double *b = calloc((p->nsteps + 1) * p->nout, sizeof *b);
    int f_loaded = fmuc_inst_load(ctx, (fmuc_iface)(p->iface)) == 0;
    if (!f_loaded || !b)
        cJSON_AddStringToObject(fmuc_worker_reply(ctx), "fresh_error",
                                f_loaded ? "out of memory" : fmuc_worker_load_error(ctx));
    else
        continue_fresh(ctx, p, fj->job, fj->buf, fj->sz, &fj->snap, b);
    free(b);
    return 0;
}

static int ser_worker(fmuc_worker_ctx *ctx, void *payload)
{
    const ser_job *job = payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    equ_plan copy;
    const equ_plan *p = equ_worker_plan(&copy, job->plan);
    size_t n = (p->nsteps + 1) * p->nout;
    double *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b);
    equ_inst ia;
    fmuc_fmu_state sa = NULL;
    uint8_t *buf = NULL;
    size_t sz = 0, sz2 = 0;
    int st;
    int go_on = 0; /* the first half is complete: continue in a fresh instance */
    equ_snap snap;
    memset(&ia, 0, sizeof ia);
    memset(&snap, 0, sizeof snap);
    int f_loaded = fmuc_inst_load(ctx, (fmuc_iface)(p->iface)) == 0;
    if (!f_loaded || !a || !b) {
        cJSON_AddStringToObject(reply, "run_error", f_loaded ? "out of memory"
                                                      : fmuc_worker_load_error(ctx));
        goto out;
    }
    fmuc_worker_phase(ctx, "run to t1");
    if (equ_inst_start(&ia, ctx, p, "serializeA") < 0 || equ_inst_record(&ia, a) < 0 ||
        equ_inst_run_to(&ia, job->k1, a) < 0) {
        cJSON_AddStringToObject(reply, "run_error", ia.err);
        goto out;
    }
    fmuc_worker_phase(ctx, "fmi2GetFMUstate and fmi2SerializeFMUstate at t1");
    equ_inst_snap(&ia, &snap);
    st = equ_inst_status(&ia, fmuc_inst_get_state(ia.c, &sa));
    equ_put_status(reply, "get", st);
    if (!fmuc_status_ok(st) || !sa) {
        sa = NULL; /* the output of a failed call is not used */
        goto out;
    }
    st = equ_inst_status(&ia, fmuc_inst_serialized_state_size(ia.c, sa, &sz));
    equ_put_status(reply, "size", st);
    if (!fmuc_status_ok(st))
        goto out;
    st = equ_inst_status(&ia, fmuc_inst_serialized_state_size(ia.c, sa, &sz2));
    cJSON_AddNumberToObject(reply, "size1", (double)sz);
    cJSON_AddNumberToObject(reply, "size2", fmuc_status_ok(st) ? (double)sz2 : -1.0);
    char exact[2][32]; /* the sizes as given (a double rounds SIZE_MAX up) */
    snprintf(exact[0], sizeof exact[0], "%zu", sz);
    if (fmuc_status_ok(st))
        snprintf(exact[1], sizeof exact[1], "%zu", sz2);
    else
        snprintf(exact[1], sizeof exact[1], "(no size: the call failed)");
    cJSON_AddStringToObject(reply, "size1_text", exact[0]);
    cJSON_AddStringToObject(reply, "size2_text", exact[1]);
    if (!fmuc_status_ok(st) || sz == 0 || sz > ((size_t)1 << 30))
        goto out;
    buf = malloc(sz);
    if (!buf)
        goto out;
    st = equ_inst_status(&ia, fmuc_inst_serialize_state(ia.c, sa, buf, sz));
    equ_put_status(reply, "serialize", st);
    if (!fmuc_status_ok(st))
        goto out;
    fmuc_worker_phase(ctx, "run on after fmi2SerializeFMUstate to t2");
    if (equ_inst_run_to(&ia, job->k2, a) < 0) {
        cJSON_AddStringToObject(reply, "run_error", ia.err);
        goto out;
    }
    cJSON_AddItemToObject(reply, "a", fmuc_worker_f64_to_json(a, n));
    if (sz <= HANDOVER_MAX) { /* the bytes and the host position, for a second process */
        cJSON_AddItemToObject(reply, "bytes", fmuc_worker_bytes_to_json(buf, sz));
        cJSON_AddNumberToObject(reply, "snap_k", (double)snap.k);
        cJSON_AddBoolToObject(reply, "snap_event_defined", snap.next_event_defined);
        cJSON_AddItemToObject(reply, "snap_event", fmuc_worker_f64_to_json(&snap.next_event, 1));
    } else {
        cJSON_AddNumberToObject(reply, "handover_too_large", (double)sz);
    }
    if (job->once)
        goto out;
    go_on = 1;
out:
    fmuc_worker_phase(ctx, "free the first instance");
    if (sa && equ_inst_usable(&ia))
        fmuc_inst_free_state(ia.c, &sa);
    equ_inst_free(&ia);
    if (go_on)
        continue_fresh(ctx, p, job, buf, sz, &snap, b);
    free(buf);
    free(a);
    free(b);
    return 0;
}

/* The restore in a second worker; its reply items join the first's (rp) with the prefix "x_"
 * ("x_crashed" when the worker died: res has the failure). -1 on a malformed reply. */
static int second_half(const fmuc_subject *s, const ser_job *job, cJSON *rp, fmuc_result *res)
{
    const char *ifn = equ_iface_name(job->plan->iface);
    fresh_job fj = {job, NULL, (size_t)cJSON_GetNumberValue(cJSON_GetObjectItem(rp, "size1")),
                    {0, 0, 0.0}};
    double k = cJSON_GetNumberValue(cJSON_GetObjectItem(rp, "snap_k"));
    double *ev = fmuc_worker_f64_from_json(cJSON_GetObjectItem(rp, "snap_event"), 1);
    uint8_t *buf = fj.sz > 0 && fj.sz <= HANDOVER_MAX
                        ? (uint8_t *)fmuc_worker_bytes_from_json(cJSON_GetObjectItem(rp, "bytes"),
                                                                  fj.sz)
                        : NULL;
    if (!buf || !ev || !(k >= 0 && k <= (double)job->k2)) {
        fmuc_result_error(res, "%s: malformed serialized state in the worker reply", ifn);
        free(buf);
        free(ev);
        return -1;
    }
    fj.buf = buf;
    fj.snap.k = (size_t)k;
    fj.snap.next_event_defined = cJSON_IsTrue(cJSON_GetObjectItem(rp, "snap_event_defined"));
    fj.snap.next_event = ev[0];
    free(ev);
    fmuc_worker_outcome o2;
    char what[96];
    snprintf(what, sizeof what, "%s: the state deserialized in another process", ifn);
    int rc = equ_worker_probe(s, s->fmu, "eq-serialize (another process)", fresh_worker, &fj,
                              &o2, res, probe_phases, FMUC_VERDICT_FAIL, what);
    if (rc == 0) {
        static const char *const keys[] = {"fresh_error", "deserialize", "set",
                                           "restored_error", "b"};
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
            const cJSON *it = cJSON_GetObjectItem(o2.reply, keys[i]);
            char key[32];
            snprintf(key, sizeof key, "x_%s", keys[i]);
            if (it)
                cJSON_AddItemToObject(rp, key, cJSON_Duplicate(it, 1));
        }
        fmuc_worker_outcome_free(&o2);
    } else {
        cJSON_AddTrueToObject(rp, "x_crashed");
    }
    free(buf);
    return 0;
}

/* The serialization with its restore in the same process, then (when the bytes were handed
 * over) the restore in a second worker: 0 and the reply in o (to be freed), or -1 (a crash of
 * the first worker or the like, in res). */
static int ser_exec(const fmuc_subject *s, const ser_job *job, fmuc_result *res,
                    fmuc_worker_outcome *o)
{
    char what[64];
    snprintf(what, sizeof what, "%s: the FMU state serialization", equ_iface_name(job->plan->iface));
    if (equ_worker_probe(s, s->fmu, "eq-serialize", ser_worker, (void *)job, o, res,
                         probe_phases, FMUC_VERDICT_FAIL, what) < 0)
        return -1;
    if (cJSON_GetObjectItem(o->reply, "bytes") && second_half(s, job, o->reply, res) < 0) {
        fmuc_worker_outcome_free(o);
        return -1;
    }
    return 0;
}

/* The same experiment at another tolerance: the deviation of the continuation, or -1. */
static double ser_rerun(const fmuc_subject *s, const equ_plan *q, void *ctx,
                        fmuc_result *scratch, char *why, size_t whysz)
{
    ser_job job = *(const ser_job *)ctx;
    job.plan = q;
    fmuc_worker_outcome o;
    if (ser_exec(s, &job, scratch, &o) < 0)
        return -1.0;
    size_t n = (q->nsteps + 1) * q->nout, w = q->nout;
    char kb[16], kr[40];
    snprintf(kb, sizeof kb, "%sb", job.pre);
    snprintf(kr, sizeof kr, "%srestored_error", job.pre);
    double *a = fmuc_worker_f64_from_json(cJSON_GetObjectItem(o.reply, "a"), n);
    double *b = fmuc_worker_f64_from_json(cJSON_GetObjectItem(o.reply, kb), n);
    double d = -1.0;
    if (a && b) {
        d = equ_deviation(a + job.k1 * w, b + job.k1 * w, job.k2 - job.k1 + 1, w, NULL, NULL);
    } else {
        const char *e = cJSON_GetStringValue(cJSON_GetObjectItem(o.reply, "run_error"));
        if (!e)
            e = cJSON_GetStringValue(cJSON_GetObjectItem(o.reply, kr));
        snprintf(why, whysz, "%s", e ? e : "a serialization call or the run after it failed");
    }
    free(a);
    free(b);
    fmuc_worker_outcome_free(&o);
    return d;
}

static int status_ok(fmuc_result *res, const cJSON *rp, const char *key, const char *what,
                     const char *ifn)
{
    const cJSON *j = cJSON_GetObjectItem(rp, key);
    char sb[32];
    /* fmi2Warning too: "the computation can continue" (§2.1.3) */
    if (cJSON_IsNumber(j) && fmuc_status_ok(j->valueint))
        return 1;
    fmuc_result_violation(res, "%s: %s returned %s although canSerializeFMUstate=\"true\"", ifn,
                          what,
                          fmuc_status_name(2, cJSON_IsNumber(j) ? j->valueint : -1, sb,
                                               sizeof sb));
    return 0;
}

/* One restore of the bytes (the reply keys with the prefix pre: "" in the process that
 * serialized, "x_" in another), judged against the original run a: 0 continued (bit for bit or
 * up to an integrator restart), 1 failed (res has the violation), -1 not judged. The evidence
 * goes into ev. */
static int judge_restore(const fmuc_subject *s, fmuc_result *res, ser_job *job, const cJSON *rp,
                         const double *a, const char *pre, const char *where, cJSON *ev)
{
    const equ_plan *p = job->plan;
    const char *ifn = equ_iface_name(p->iface);
    char k[40], what[200];
    size_t n = (p->nsteps + 1) * p->nout, w = p->nout, r, c;
#define KEY(name) (snprintf(k, sizeof k, "%s%s", pre, name), k)
    if (cJSON_GetObjectItem(rp, KEY("crashed")))
        return 1; /* the worker's death is in res */
    if (cJSON_GetObjectItem(rp, KEY("fresh_error"))) {
        fmuc_result_na_part(res, "%s: a fresh instance of %s could not be initialized (%s)", ifn,
                            where, cJSON_GetStringValue(cJSON_GetObjectItem(rp, k)));
        return -1;
    }
    snprintf(what, sizeof what,
             "fmi2DeSerializeFMUstate of the bytes from fmi2SerializeFMUstate (in a fresh "
             "instance of %s)",
             where);
    if (!status_ok(res, rp, KEY("deserialize"), what, ifn))
        return 1;
    snprintf(what, sizeof what, "fmi2SetFMUstate of the state deserialized in %s", where);
    if (!status_ok(res, rp, KEY("set"), what, ifn))
        return 1;
    if (cJSON_GetObjectItem(rp, KEY("restored_error"))) {
        fmuc_result_violation(res, "%s: the run from the state deserialized in %s fails: %s", ifn,
                              where, cJSON_GetStringValue(cJSON_GetObjectItem(rp, k)));
        return 1;
    }
    double *b = fmuc_worker_f64_from_json(cJSON_GetObjectItem(rp, KEY("b")), n);
#undef KEY
    if (!b) {
        fmuc_result_error(res, "%s: malformed series in the worker reply", ifn);
        return -1;
    }
    int failed = 0;
    int mism = equ_first_mismatch(a + job->k1 * w, b + job->k1 * w, job->k2 - job->k1 + 1, w, &r,
                                  &c);
    cJSON_AddBoolToObject(ev, "bit_identical", !mism);
    if (mism) {
        equ_restart rs;
        char rt[640];
        double d = equ_deviation(a + job->k1 * w, b + job->k1 * w, job->k2 - job->k1 + 1, w,
                                 NULL, NULL);
        job->pre = pre;
        equ_restart_test(s, p, d, ser_rerun, job, &rs);
        equ_restart_evidence(ev, "continuation_differs", &rs);
        equ_restart_text(&rs, rt, sizeof rt);
        if (rs.verdict > 0) {
            fmuc_result_note(res, "%s: the continuation from the state deserialized in %s is not "
                                  "bit-identical to the original, but the difference shrinks "
                                  "with the tolerance (%s): the integrator restarts, the state "
                                  "was restored",
                             ifn, where, rt);
        } else {
            char b1[64], b2[64];
            failed = 1;
            r += job->k1;
            fmuc_result_violation(res,
                                  "%s: continuing from the state serialized at t=%.17g in a "
                                  "fresh instance of %s: '%s' (vr %u) differs at t=%.17g (step "
                                  "%zu): original %s, deserialized %s",
                                  ifn, p->t[job->k1], where, p->out[c].name, p->out[c].vr,
                                  p->t[r], r, equ_fmt_bits(a[r * w + c], b1, sizeof b1),
                                  equ_fmt_bits(b[r * w + c], b2, sizeof b2));
            fmuc_result_note(res, "%s: %s%s", ifn, rt,
                             rs.verdict == 0 ? ": the difference does not shrink with the "
                                               "tolerance, so part of the state is lost on the "
                                               "way (not an integrator restart)"
                                             : "");
        }
    }
    free(b);
    return failed;
}

static void run_iface(const fmuc_subject *s, fmuc_result *res, fmuc_iface iface, int level)
{
    equ_plan p;
    fmuc_worker_outcome o;
    if (equ_plan_init(&p, s->fmu, iface, EQU_STEPS_SHORT) < 0 || p.nsteps < 2) {
        fmuc_result_na_part(res, "%s: %s", equ_iface_name(iface),
                            p.why[0] ? p.why : "fewer than 2 steps");
        equ_plan_free(&p);
        return;
    }
    if (equ_plan_horizon(&p, s, res) != 0 || p.nsteps < 2) {
        if (p.nsteps < 2)
            fmuc_result_na_part(res, "%s: fewer than 2 steps before the horizon",
                                equ_iface_name(iface));
        equ_plan_free(&p);
        return;
    }
    equ_plan_me_budget(&p, level, EQU_ME_SUBSTEPS_SHORT);
    equ_plan_excite(&p, res);
    ser_job job = {&p, p.nsteps / 2, p.nsteps,
                   equ_cap(s->fmu, iface, FMUC_CAP_CAN_BE_INSTANTIATED_ONLY_ONCE_PER_PROCESS), ""};
    if (ser_exec(s, &job, res, &o) < 0) {
        equ_plan_free(&p);
        return;
    }
    cJSON *rp = o.reply;
    const char *ifn = equ_iface_name(iface);
    const char *re = cJSON_GetStringValue(cJSON_GetObjectItem(rp, "run_error"));
    size_t n = (p.nsteps + 1) * p.nout;
    double *a = NULL;
    cJSON *evi = cJSON_AddObjectToObject(fmuc_result_evidence(res), ifn);
    if (re && !cJSON_GetObjectItem(rp, "get")) {
        fmuc_result_na_part(res,
                            "%s: this check's own run on the nominal grid did not reach its "
                            "end (%s); serialization not assessed",
                            ifn, re);
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
    const char *t1 = cJSON_GetStringValue(cJSON_GetObjectItem(rp, "size1_text"));
    const char *t2 = cJSON_GetStringValue(cJSON_GetObjectItem(rp, "size2_text"));
    if (s1 > (double)((size_t)1 << 30)) {
        fmuc_result_violation(res, "%s: fmi2SerializedFMUstateSize gives %s bytes (over 1 GiB)",
                              ifn, t1 ? t1 : "?");
        goto out;
    }
    if (s2 != s1)
        fmuc_result_violation(res, "%s: fmi2SerializedFMUstateSize is inconsistent for the same "
                                   "state: %s then %s bytes",
                              ifn, t1 ? t1 : "?", t2 ? t2 : "?");
    if (!status_ok(res, rp, "serialize", "fmi2SerializeFMUstate", ifn))
        goto out;
    if (re) {
        fmuc_result_na_part(res, "%s: the run after serializing failed (%s)", ifn, re);
        goto out;
    }
    cJSON_AddNumberToObject(evi, "serialized_bytes", s1);
    cJSON_AddNumberToObject(evi, "t1", p.t[job.k1]);
    cJSON_AddNumberToObject(evi, "t2", p.t[job.k2]);
    a = fmuc_worker_f64_from_json(cJSON_GetObjectItem(rp, "a"), n);
    if (!a) {
        fmuc_result_error(res, "%s: malformed series in the worker reply", ifn);
        goto out;
    }
    int same = -1, other = -1;
    if (!job.once)
        same = judge_restore(s, res, &job, rp, a, "", "the process that serialized", evi);
    if (cJSON_GetObjectItem(rp, "bytes")) {
        cJSON *ex = job.once ? evi : cJSON_AddObjectToObject(evi, "another_process");
        other = judge_restore(s, res, &job, rp, a, "x_", "another process", ex);
    } else if (job.once) {
        fmuc_result_na_part(res, "%s: canBeInstantiatedOnlyOncePerProcess=\"true\" and %.0f "
                            "serialized bytes, more than fmucheck hands to a second process; not "
                            "restored",
                            ifn, s1);
    } else {
        fmuc_result_note(res, "%s: %.0f serialized bytes, more than fmucheck hands to a second "
                              "process: restored only in the process that serialized them",
                         ifn, s1);
    }
    if (same == 0 && other == 1)
        fmuc_result_note(res, "%s: in a fresh instance of the process that serialized them, the "
                              "same bytes continue the run: they only work in that process, so "
                              "a state stored on file cannot be restored later",
                         ifn);
out:
    free(a);
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

const fmuc_check fmuc_check_eq_serialize = {
    .id = "eq-serialize",
    .title = "A serialized FMU state continues the run in a fresh instance (up to an integrator "
             "restart)",
    .spec = "FMI 2.0.4 §2.1.8; FMI 3.0.2 §2.2.7.4",
    .level = FMUC_LEVEL_MUST,
    .why = "Masters save serialized states to disk to restart long runs later; a state that does "
           "not continue the run in a fresh instance makes every restart silently wrong.",
    .fix = "Serialize every part of the state restored by fmi2SetFMUstate, report the exact size "
           "in fmi2SerializedFMUstateSize, or declare canSerializeFMUstate=\"false\".",
    .applies = FMUC_APPLIES_MECS,
    .versions = FMUC_V2 | FMUC_V3,
    .absent_in_v1 = "FMI 1.0 has no FMU state and no serialization of one (both came with FMI 2.0)",
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .sessions = 6,
    .run = run,
};
