/* eq-fmu-state: fmi2GetFMUstate at t1, run to t2 recording outputs, fmi2SetFMUstate back and run
 * to t2 again: bit-identical (twice: the copy stays valid). A second fmi2GetFMUstate with the
 * same pointer overwrites it (restoring then gives the later point). fmi2FreeFMUstate releases
 * and sets the pointer to NULL; with *FMUstate == NULL it is a no-op. CS and ME where
 * canGetAndSetFMUstate="true". FMI 2.0.4 §2.1.8 (rules E-02, E-03, E-04). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eq_util.h"

typedef struct st_job {
    const equ_plan *plan;
    size_t k1, k2, k3;
} st_job;

static int st_worker(fmuc_worker_ctx *ctx, void *payload)
{
    const st_job *job = payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    equ_plan copy;
    const equ_plan *p = equ_worker_plan(&copy, job->plan);
    size_t n = (p->nsteps + 1) * p->nout, w = p->nout;
    double *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b), *c = calloc(n, sizeof *c),
           *e = calloc(n, sizeof *e);
    equ_inst in;
    fmi2FMUstate s = NULL;
    fmi2Status st;
    memset(&in, 0, sizeof in);
    const fmuc_fmi *f = fmuc_worker_load(ctx, p->iface);
    if (!f || !a || !b || !c || !e) {
        cJSON_AddStringToObject(reply, "run_error", f ? "out of memory"
                                                      : fmuc_worker_load_error(ctx));
        goto out;
    }
    fmuc_worker_phase(ctx, "run to t1");
    if (equ_inst_start(&in, f, p, "fmustate") < 0 || equ_inst_record(&in, a) < 0 ||
        equ_inst_run_to(&in, job->k1, a) < 0) {
        cJSON_AddStringToObject(reply, "run_error", in.err);
        goto out;
    }
    fmuc_worker_phase(ctx, "fmi2GetFMUstate at t1");
    equ_snap snap1, snap2;
    equ_inst_snap(&in, &snap1);
    st = fmuc_fmi_getFMUstate(f, in.c, &s);
    equ_put_status(reply, "get1", st);
    cJSON_AddBoolToObject(reply, "get1_null", s == NULL);
    if (st != fmi2OK || !s)
        goto out;
    if (equ_inst_run_to(&in, job->k2, a) < 0) {
        cJSON_AddStringToObject(reply, "run_error", in.err);
        goto out;
    }
    double *restored[2] = {b, c};
    const char *keys[2] = {"set1", "set2"};
    for (int r = 0; r < 2; r++) {
        fmuc_worker_phase(ctx, "fmi2SetFMUstate to t1 (#%d), run to t2", r + 1);
        st = fmuc_fmi_setFMUstate(f, in.c, s);
        equ_put_status(reply, keys[r], st);
        if (st != fmi2OK)
            goto out;
        if (equ_inst_restore(&in, &snap1) < 0 || equ_inst_record(&in, restored[r] + job->k1 * w) < 0 ||
            equ_inst_run_to(&in, job->k2, restored[r]) < 0) {
            cJSON_AddStringToObject(reply, r ? "set2_error" : "set1_error", in.err);
            goto out;
        }
        cJSON_AddItemToObject(reply, r ? "c" : "b", fmuc_worker_f64_to_json(restored[r], n));
    }
    fmuc_worker_phase(ctx, "fmi2GetFMUstate at t2 into the same pointer");
    fmi2FMUstate before = s;
    equ_inst_snap(&in, &snap2);
    st = fmuc_fmi_getFMUstate(f, in.c, &s);
    equ_put_status(reply, "get2", st);
    cJSON_AddBoolToObject(reply, "get2_same_pointer", s == before);
    if (st != fmi2OK || !s)
        goto out;
    if (equ_inst_run_to(&in, job->k3, a) < 0) {
        cJSON_AddStringToObject(reply, "run_error", in.err);
        goto out;
    }
    fmuc_worker_phase(ctx, "fmi2SetFMUstate to t2, run to t3");
    st = fmuc_fmi_setFMUstate(f, in.c, s);
    equ_put_status(reply, "set3", st);
    if (st == fmi2OK) {
        if (equ_inst_restore(&in, &snap2) < 0 || equ_inst_record(&in, e + job->k2 * w) < 0 ||
            equ_inst_run_to(&in, job->k3, e) < 0)
            cJSON_AddStringToObject(reply, "set3_error", in.err);
        else
            cJSON_AddItemToObject(reply, "e", fmuc_worker_f64_to_json(e, n));
    }
    cJSON_AddItemToObject(reply, "a", fmuc_worker_f64_to_json(a, n));
    fmuc_worker_phase(ctx, "fmi2FreeFMUstate");
    st = fmuc_fmi_freeFMUstate(f, in.c, &s);
    equ_put_status(reply, "free", st);
    cJSON_AddBoolToObject(reply, "free_nulls", s == NULL);
    s = NULL;
    fmi2FMUstate none = NULL;
    fmuc_worker_phase(ctx, "fmi2FreeFMUstate(NULL state)");
    st = fmuc_fmi_freeFMUstate(f, in.c, &none);
    equ_put_status(reply, "free_null", st);
out:
    if (s && in.c)
        fmuc_fmi_freeFMUstate(f, in.c, &s);
    equ_inst_free(&in);
    free(a);
    free(b);
    free(c);
    free(e);
    return 0;
}

static int status_of(const cJSON *reply, const char *key, fmi2Status *st)
{
    const cJSON *j = cJSON_GetObjectItem(reply, key);
    if (!cJSON_IsNumber(j))
        return 0;
    *st = (fmi2Status)j->valueint;
    return 1;
}

/* Compare rows [from, to] of x against ref; 1 if they differ (violation). */
static int range_diff(fmuc_result *res, const equ_plan *p, const double *ref, const double *x,
                      size_t from, size_t to, const char *what)
{
    size_t r, c;
    size_t w = p->nout;
    if (!equ_first_diff(ref + from * w, x + from * w, to - from + 1, w, &r, &c))
        return 0;
    r += from;
    char b1[64], b2[64];
    fmuc_result_violation(res,
                          "%s: %s: '%s' (vr %u) differs at t=%.17g (step %zu): original %s, "
                          "after restore %s",
                          equ_iface_name(p->iface), what, p->out[c].name, p->out[c].vr, p->t[r],
                          r, equ_fmt_bits(ref[r * w + c], b1, sizeof b1),
                          equ_fmt_bits(x[r * w + c], b2, sizeof b2));
    return 1;
}

static void run_iface(const fmuc_subject *s, fmuc_result *res, fmi2Type iface, int level)
{
    equ_plan p;
    fmuc_worker_outcome o;
    char sb[32];
    if (equ_plan_init(&p, s->fmu, iface, EQU_STEPS_SHORT) < 0 || p.nsteps < 4) {
        fmuc_result_na(res, "%s: %s", equ_iface_name(iface),
                       p.why[0] ? p.why : "fewer than 4 steps");
        equ_plan_free(&p);
        return;
    }
    if (equ_plan_horizon(&p, s, res) != 0 || p.nsteps < 4) {
        if (p.nsteps < 4)
            fmuc_result_na(res, "%s: fewer than 4 steps before the horizon", equ_iface_name(iface));
        equ_plan_free(&p);
        return;
    }
    equ_plan_me_budget(&p, level, EQU_ME_SUBSTEPS_SHORT);
    equ_plan_excite(&p);
    st_job job = {&p, p.nsteps / 4, p.nsteps / 2, (3 * p.nsteps) / 4};
    if (equ_worker(s, s->fmu, "eq-fmu-state", st_worker, &job, &o, res) < 0) {
        equ_plan_free(&p);
        return;
    }
    const cJSON *rp = o.reply;
    const char *ifn = equ_iface_name(iface);
    const char *re = cJSON_GetStringValue(cJSON_GetObjectItem(rp, "run_error"));
    fmi2Status st;
    size_t n = (p.nsteps + 1) * p.nout;
    double *a = NULL, *b = NULL, *c = NULL, *e = NULL;
    if (re && !status_of(rp, "get1", &st)) {
        fmuc_result_na(res, "%s: the nominal run failed (%s); FMU state not assessed", ifn, re);
        goto out;
    }
    if (!status_of(rp, "get1", &st) || st != fmi2OK) {
        fmuc_result_violation(res, "%s: fmi2GetFMUstate at t=%.17g returned %s although "
                                   "canGetAndSetFMUstate=\"true\"",
                              ifn, p.t[job.k1],
                              fmuc_fmi_status_name(status_of(rp, "get1", &st) ? (int)st : -1, sb,
                                                   sizeof sb));
        goto out;
    }
    if (cJSON_IsTrue(cJSON_GetObjectItem(rp, "get1_null"))) {
        fmuc_result_violation(res, "%s: fmi2GetFMUstate returned fmi2OK but left the state "
                                   "pointer NULL",
                              ifn);
        goto out;
    }
    if (re) {
        fmuc_result_na(res, "%s: the run after fmi2GetFMUstate failed (%s)", ifn, re);
        goto out;
    }
    a = fmuc_worker_f64_from_json(cJSON_GetObjectItem(rp, "a"), n);
    b = fmuc_worker_f64_from_json(cJSON_GetObjectItem(rp, "b"), n);
    c = fmuc_worker_f64_from_json(cJSON_GetObjectItem(rp, "c"), n);
    e = fmuc_worker_f64_from_json(cJSON_GetObjectItem(rp, "e"), n);
    const char *setkeys[2] = {"set1", "set2"};
    double *restored[2] = {b, c};
    int bad = 0;
    for (int r = 0; r < 2; r++) {
        char ek[16];
        snprintf(ek, sizeof ek, "%s_error", setkeys[r]);
        const char *se = cJSON_GetStringValue(cJSON_GetObjectItem(rp, ek));
        if (!status_of(rp, setkeys[r], &st) || st != fmi2OK) {
            fmuc_result_violation(res, "%s: fmi2SetFMUstate (%s restore of the state of t=%.17g) "
                                       "returned %s",
                                  ifn, r ? "second" : "first", p.t[job.k1],
                                  fmuc_fmi_status_name(status_of(rp, setkeys[r], &st) ? (int)st
                                                                                     : -1,
                                                       sb, sizeof sb));
            bad = 1;
            break;
        }
        if (se) {
            fmuc_result_violation(res, "%s: after fmi2SetFMUstate (%s restore) the run fails: %s",
                                  ifn, r ? "second" : "first", se);
            bad = 1;
            break;
        }
        if (a && restored[r])
            bad |= range_diff(res, &p, a, restored[r], job.k1, job.k2,
                              r ? "second restore of the same state (the copy must stay valid)"
                                : "restored state at t1, run again to t2");
    }
    if (!bad) {
        if (!status_of(rp, "get2", &st) || st != fmi2OK) {
            fmuc_result_violation(res, "%s: fmi2GetFMUstate into an existing state returned %s",
                                  ifn,
                                  fmuc_fmi_status_name(status_of(rp, "get2", &st) ? (int)st : -1,
                                                       sb, sizeof sb));
        } else if (!status_of(rp, "set3", &st) || st != fmi2OK) {
            fmuc_result_violation(res, "%s: fmi2SetFMUstate of an overwritten state returned %s",
                                  ifn,
                                  fmuc_fmi_status_name(status_of(rp, "set3", &st) ? (int)st : -1,
                                                       sb, sizeof sb));
        } else if (cJSON_GetObjectItem(rp, "set3_error")) {
            fmuc_result_violation(
                res, "%s: after restoring an overwritten state the run fails: %s", ifn,
                cJSON_GetStringValue(cJSON_GetObjectItem(rp, "set3_error")));
        } else if (a && e) {
            range_diff(res, &p, a, e, job.k2, job.k3,
                       "a second fmi2GetFMUstate with the same pointer (taken at t2) must "
                       "overwrite it; restoring it");
        }
        if (!cJSON_IsTrue(cJSON_GetObjectItem(rp, "get2_same_pointer")))
            fmuc_result_note(res, "%s: the second fmi2GetFMUstate returned a different pointer",
                             ifn);
    }
    if (status_of(rp, "free", &st)) {
        if (st != fmi2OK)
            fmuc_result_violation(res, "%s: fmi2FreeFMUstate returned %s", ifn,
                                  fmuc_fmi_status_name((int)st, sb, sizeof sb));
        else if (!cJSON_IsTrue(cJSON_GetObjectItem(rp, "free_nulls")))
            fmuc_result_violation(res, "%s: fmi2FreeFMUstate did not set *FMUstate to NULL",
                                  ifn);
    }
    if (status_of(rp, "free_null", &st) && st != fmi2OK)
        fmuc_result_violation(res, "%s: fmi2FreeFMUstate with *FMUstate == NULL must be a no-op "
                                   "returning fmi2OK, got %s",
                              ifn, fmuc_fmi_status_name((int)st, sb, sizeof sb));
    cJSON *evi = cJSON_AddObjectToObject(fmuc_result_evidence(res), ifn);
    cJSON_AddNumberToObject(evi, "t1", p.t[job.k1]);
    cJSON_AddNumberToObject(evi, "t2", p.t[job.k2]);
    cJSON_AddNumberToObject(evi, "t3", p.t[job.k3]);
    cJSON_AddNumberToObject(evi, "variables", (double)p.nout);
out:
    free(a);
    free(b);
    free(c);
    free(e);
    fmuc_worker_outcome_free(&o);
    equ_plan_free(&p);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    equ_for_capable(s, res, 1u << FMUC_CAP_CAN_GET_AND_SET_FMU_STATE,
                    "canGetAndSetFMUstate=\"true\"", run_iface);
}

const fmuc_check fmuc_check_eq_fmu_state = {
    .id = "eq-fmu-state",
    .title = "fmi2Get/Set/FreeFMUstate restore the run bit for bit",
    .spec = "FMI 2.0.4 §2.1.8",
    .level = FMUC_LEVEL_MUST,
    .applies = FMUC_APPLIES_ANY,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
