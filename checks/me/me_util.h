/* Helpers shared by the me-* checks (header-only): the state vector as declared (FMI 2.0.4
 * <ModelStructure><Derivatives>, §2.2.8, §3.2.2; FMI 3.0.2 the elements of the
 * <ContinuousStateDerivative> variables, §2.4.8; FMI 1.0 numberOfContinuousStates, whose state
 * variables only fmiGetStateValueReferences names), a worker session that brings an ME instance
 * into Continuous-Time Mode (2.0 §3.2.4; 3.0 §3.2; 1.0: after fmiInitialize, which has no modes),
 * the version's names of functions and flags for messages, and a reply convention: the worker
 * appends finished messages to reply["violations"] / reply["notes"], the parent forwards them. */
#ifndef FMUC_CHECKS_ME_UTIL_H
#define FMUC_CHECKS_ME_UTIL_H

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_util.h"
#include "check.h"
#include "fmuc/fmuc_sim.h"
#include "fmuc/fmuc_worker.h"

/* --- the declared state vector ------------------------------------------------------------ */

typedef struct meu_model {
    int ver;                      /* FMI version of the model description (1, 2, 3) */
    size_t nx;                    /* number of continuous states: <Derivatives> entries (2.0),
                                     elements of the <ContinuousStateDerivative> variables (3.0),
                                     numberOfContinuousStates (1.0) */
    size_t ni;                    /* numberOfEventIndicators (2.0, 1.0; 0 when absent); elements
                                     of the <EventIndicator> variables (3.0) */
    fmuc_vr *xvr, *dxvr;          /* 1.0: 0 (the XML does not name the states) */
    const fmuc_md_var **xvar, **dxvar; /* 1.0: NULL */
    uint32_t *x_index, *dx_index; /* 1-based ModelVariables indices (1.0: 0) */
    uint32_t *x_elem;             /* 3.0 arrays: the element of the variable (0-based), else 0 */
    const fmuc_md_unknown **dx_unknown;
    char why[256];                /* why the state vector is unusable ("" when fine) */
} meu_model;

static inline void meu_model_free(meu_model *m)
{
    free(m->xvr);
    free(m->dxvr);
    free(m->xvar);
    free(m->dxvar);
    free(m->x_index);
    free(m->dx_index);
    free(m->x_elem);
    free(m->dx_unknown);
    memset(m, 0, sizeof *m);
}

/** Elements of the ModelStructure entry u (3.0: the product of its variable's dimensions). */
static inline size_t meu_entry_elements(const fmuc_md *md, const fmuc_md_unknown *u)
{
    return u->index ? fmuc_sim_var_elements(md, u->index - 1, NULL, 0, NULL) : 1;
}

/** Resolve the state vector -> (derivative variable, state variable) per state. Returns 0, or
 *  -1 with m->why (a malformed Derivatives / ContinuousStateDerivative list is reported by
 *  md-ms-derivatives; me checks then do not apply). */
static inline int meu_model_build(const fmuc_md *md, meu_model *m)
{
    memset(m, 0, sizeof *m);
    m->ver = md->fmi == FMUC_FMI1 ? 1 : md->fmi == FMUC_FMI3 ? 3 : 2;
    m->ni = md->has_number_of_event_indicators ? md->number_of_event_indicators : 0;
    m->nx = md->nderivatives;
    if (m->ver == 1)
        m->nx = md->has_number_of_continuous_states ? md->number_of_continuous_states : 0;
    if (m->ver == 3) {
        m->nx = m->ni = 0;
        for (size_t i = 0; i < md->nderivatives; i++) {
            size_t e = meu_entry_elements(md, &md->derivatives[i]);
            if (e == 0) {
                snprintf(m->why, sizeof m->why, "the size of <ContinuousStateDerivative> entry "
                         "%zu (line %u) is not known (see md-ms-derivatives)", i + 1,
                         md->derivatives[i].line);
                return -1;
            }
            m->nx += e;
        }
        for (size_t i = 0; i < md->nevent_indicators; i++) {
            const fmuc_md_unknown *u = &md->event_indicators[i];
            const fmuc_md_var *zv = fmuc_md_var_at(md, u->index);
            if (!zv || zv->type != FMUC_TYPE_REAL) {
                snprintf(m->why, sizeof m->why, "<EventIndicator> entry %zu (line %u) is not a "
                         "Float variable (see md-ms-event-indicators)", i + 1, u->line);
                return -1;
            }
            size_t e = meu_entry_elements(md, u);
            if (e == 0) {
                snprintf(m->why, sizeof m->why, "the size of <EventIndicator> entry %zu (line "
                         "%u) is not known", i + 1, md->event_indicators[i].line);
                return -1;
            }
            m->ni += e;
        }
    }
    if (fmuc_check_dynamic_counts_ok(m->ni, m->nx, m->why, sizeof m->why) < 0)
        return -1;
    size_t n = m->nx ? m->nx : 1;
    m->xvr = calloc(n, sizeof *m->xvr);
    m->dxvr = calloc(n, sizeof *m->dxvr);
    m->xvar = calloc(n, sizeof *m->xvar);
    m->dxvar = calloc(n, sizeof *m->dxvar);
    m->x_index = calloc(n, sizeof *m->x_index);
    m->dx_index = calloc(n, sizeof *m->dx_index);
    m->x_elem = calloc(n, sizeof *m->x_elem);
    m->dx_unknown = calloc(n, sizeof *m->dx_unknown);
    if (!m->xvr || !m->dxvr || !m->xvar || !m->dxvar || !m->x_index || !m->dx_index ||
        !m->x_elem || !m->dx_unknown) {
        snprintf(m->why, sizeof m->why, "out of memory");
        return -1;
    }
    if (m->ver == 1)
        return 0; /* 1.0: the states are known by position only */
    size_t k = 0;
    for (size_t i = 0; i < md->nderivatives && k < m->nx; i++) {
        const fmuc_md_unknown *u = &md->derivatives[i];
        const fmuc_md_var *dv = fmuc_md_var_at(md, u->index);
        const fmuc_md_var *xv = dv && dv->derivative ? fmuc_md_var_at(md, dv->derivative) : NULL;
        if (!dv || dv->type != FMUC_TYPE_REAL || !xv || xv->type != FMUC_TYPE_REAL ||
            !(dv->has & FMUC_HAS_VALUE_REFERENCE) || !(xv->has & FMUC_HAS_VALUE_REFERENCE)) {
            snprintf(m->why, sizeof m->why,
                     "<%s> entry %zu (index %u, line %u) is not a %s state derivative with a "
                     "valid state (see md-ms-derivatives)",
                     m->ver == 3 ? "ContinuousStateDerivative" : "Derivatives", i + 1, u->index,
                     u->line, m->ver == 3 ? "Float" : "Real");
            return -1;
        }
        size_t e = m->ver == 3 ? meu_entry_elements(md, u) : 1;
        for (size_t j = 0; j < e && k < m->nx; j++, k++) {
            m->dxvar[k] = dv;
            m->xvar[k] = xv;
            m->dxvr[k] = dv->value_reference;
            m->xvr[k] = xv->value_reference;
            m->dx_index[k] = u->index;
            m->x_index[k] = dv->derivative;
            m->x_elem[k] = (uint32_t)j;
            m->dx_unknown[k] = u;
        }
    }
    return 0;
}

/** Name of a variable for messages (never NULL). */
static inline const char *meu_name(const fmuc_md_var *v)
{
    return v && v->name ? v->name : "?";
}

/** A state for messages: "'h' (vr 0, line 12)"; 3.0 array element "'x' element 2 (vr 5, line
 *  9)"; 1.0 (states known by position only) "state x[1] (of numberOfContinuousStates)". */
static inline const char *meu_xname(const meu_model *m, size_t i, char *buf, size_t n)
{
    const fmuc_md_var *v = i < m->nx ? m->xvar[i] : NULL;
    if (!v)
        snprintf(buf, n, "x[%zu] (of numberOfContinuousStates=%zu)", i, m->nx);
    else if (m->ver == 3 && (i + 1 < m->nx && m->xvar[i + 1] == v ? 1 : m->x_elem[i] > 0))
        snprintf(buf, n, "'%s' element %u (vr %u, line %u)", meu_name(v), m->x_elem[i] + 1,
                 v->value_reference, v->line);
    else
        snprintf(buf, n, "'%s' (vr %u, line %u)", meu_name(v), v->value_reference, v->line);
    return buf;
}

/** The same for the derivative of state i ("dx[1] (of numberOfContinuousStates=2)" in 1.0). */
static inline const char *meu_dxname(const meu_model *m, size_t i, char *buf, size_t n)
{
    const fmuc_md_var *v = i < m->nx ? m->dxvar[i] : NULL;
    if (!v)
        snprintf(buf, n, "dx[%zu] (of numberOfContinuousStates=%zu)", i, m->nx);
    else if (m->ver == 3 && (i + 1 < m->nx && m->dxvar[i + 1] == v ? 1 : m->x_elem[i] > 0))
        snprintf(buf, n, "'%s' element %u (vr %u, line %u)", meu_name(v), m->x_elem[i] + 1,
                 v->value_reference, v->line);
    else
        snprintf(buf, n, "'%s' (vr %u, line %u)", meu_name(v), v->value_reference, v->line);
    return buf;
}

/** The version's Model Exchange function behind op: "fmi2GetContinuousStates",
 *  "fmi3GetContinuousStates", "fmiGetContinuousStates" ("?" when the version has none). */
static inline const char *meu_fn(int ver, fmuc_inst_op op)
{
    return apiu_fn(ver, FMUC_IFACE_ME, op);
}

/** Where the number of continuous states comes from, per version. */
static inline const char *meu_nx_what(int ver)
{
    return ver == 3   ? "the elements of the <ContinuousStateDerivative> variables"
           : ver == 1 ? "numberOfContinuousStates"
                      : "the number of <Derivatives>";
}

/** Where the number of event indicators comes from, per version. */
static inline const char *meu_ni_what(int ver)
{
    return ver == 3 ? "the elements of the <EventIndicator> variables" : "numberOfEventIndicators";
}

/** "newDiscreteStatesNeeded still true" (2.0), "discreteStatesNeedUpdate still true" (3.0),
 *  "iterationConverged still false" (1.0): an event iteration that goes on. */
static inline const char *meu_more_flag(int ver)
{
    return ver == 3   ? "discreteStatesNeedUpdate still true"
           : ver == 1 ? "iterationConverged still false"
                      : "newDiscreteStatesNeeded still true";
}

/** The event-info flag that says a continuous state was re-initialized. */
static inline const char *meu_values_flag(int ver)
{
    return ver == 1 ? "stateValuesChanged" : "valuesOfContinuousStatesChanged";
}

/* --- worker-side reply helpers ------------------------------------------------------------ */

static inline void meu_vmsg(fmuc_worker_ctx *ctx, const char *key, const char *fmt, va_list ap)
{
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    cJSON *reply = fmuc_worker_reply(ctx);
    cJSON *arr = cJSON_GetObjectItemCaseSensitive(reply, key);
    if (!arr)
        arr = cJSON_AddArrayToObject(reply, key);
    if (arr && cJSON_GetArraySize(arr) < 400)
        cJSON_AddItemToArray(arr, cJSON_CreateString(buf));
}

/** A rule violation observed in the worker (forwarded as fmuc_result_violation). */
static inline void meu_violation(fmuc_worker_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline void meu_violation(fmuc_worker_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    meu_vmsg(ctx, "violations", fmt, ap);
    va_end(ap);
}

/** A violation of the letter that cannot break a conforming importer (forwarded as
 *  fmuc_result_violation_letter: fails under standard, warns under interop in a check with
 *  .interop = FMUC_INTEROP_SOME). */
static inline void meu_violation_letter(fmuc_worker_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline void meu_violation_letter(fmuc_worker_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    meu_vmsg(ctx, "letters", fmt, ap);
    va_end(ap);
}

/** A finding no FMI text forbids but an importer should know (forwarded as fmuc_result_warn:
 *  a warning under every profile but strict, whatever the check's level). */
static inline void meu_warn(fmuc_worker_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline void meu_warn(fmuc_worker_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    meu_vmsg(ctx, "warnings", fmt, ap);
    va_end(ap);
}

/** Information (forwarded as fmuc_result_note). */
static inline void meu_note(fmuc_worker_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline void meu_note(fmuc_worker_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    meu_vmsg(ctx, "notes", fmt, ap);
    va_end(ap);
}

/** The check could not be carried out (forwarded as fmuc_result_error). */
static inline void meu_fatal(fmuc_worker_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline void meu_fatal(fmuc_worker_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    meu_vmsg(ctx, "errors", fmt, ap);
    va_end(ap);
}

/** An FMI 2.0 status name (the me-* checks of 2.0 only); meu_stname names it in any version. */
static inline const char *meu_status(int st, char *buf, size_t n)
{
    return fmuc_status_name(2, st, buf, n);
}

/** The status st in the words of FMI version ver ("fmi3Discard", "fmiError"). */
static inline const char *meu_stname(int ver, int st, char *buf, size_t n)
{
    return fmuc_status_name(ver, st, buf, n);
}

static inline int meu_ok(int st)
{
    return fmuc_status_ok(st);
}

/** The check cannot be carried out because the FMU does not get that far (load, instantiate,
 *  initialize: other checks own those failures); forwarded as fmuc_result_na. */
static inline void meu_na(fmuc_worker_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline void meu_na(fmuc_worker_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    meu_vmsg(ctx, "na", fmt, ap);
    va_end(ap);
}

/* --- worker session: instantiate -> init -> event iteration -> Continuous-Time Mode ------- */

typedef struct meu_session {
    fmuc_inst *c;             /* the instance (instance API) */
    double t0, t1;            /* start time; stop time (t0 + 1 when not defined) */
    int stop_defined;
    unsigned init_iterations; /* update-discrete-states calls of the initial event iteration */
    fmuc_inst_event_info info; /* the last event info of the initial iteration */
    int no_settle;            /* meu_start failed: the initial event iteration did not settle */
    int initialized;          /* initialization ended (fmi2/fmi3ExitInitializationMode,
                                 fmiInitialize succeeded: Event Mode reached, 1.0 initialized) */
    int worst;                /* the worst status of the instance's calls (meu_st) */
    int ver;                  /* FMI version of the instance (1, 2, 3) */
} meu_session;

/** Record the status of a call on the session's instance and return it: after fmi2Error the
 *  importer may only free (or reset) the instance, after fmi2Fatal call nothing (FMI 2.0.4
 *  §2.1.3); meu_end obeys that. Every call on s->c goes through it. */
static inline int meu_st(meu_session *s, int st)
{
    if ((st == FMUC_STATUS_ERROR || st == FMUC_STATUS_FATAL) && st > s->worst)
        s->worst = st;
    return st;
}

#define MEU_MAX_EVENT_ITERATIONS 100u

/** Bring a fresh ME instance to Continuous-Time Mode at the default experiment's start time
 *  (the life-cycle driver, fmuc_drive_reach). On failure (the FMU does not load, instantiate or
 *  initialize: owned by load-*, api-* and me-nominal-run), reports through meu_na and returns -1
 *  (the instance, if any, stays in s->c; s->no_settle tells an initial event iteration that did
 *  not settle). */
static inline int meu_start(fmuc_worker_ctx *ctx, const fmuc_md *md, meu_session *s)
{
    char sb[32];
    memset(s, 0, sizeof *s);
    const int v = s->ver = fmuc_inst_version(ctx);
    if (fmuc_inst_load(ctx, FMUC_IFACE_ME) < 0) {
        meu_na(ctx, "the ModelExchange library does not load: %s", fmuc_worker_load_error(ctx));
        return -1;
    }
    const fmuc_md_experiment *ex = &md->experiment;
    s->t0 = ex->present && ex->has_start ? ex->start_time : 0.0;
    s->stop_defined = ex->present && ex->has_stop && ex->stop_time > s->t0;
    s->t1 = s->stop_defined ? ex->stop_time : s->t0 + 1.0;
    fmuc_worker_phase(ctx, "instantiate");
    s->c = fmuc_inst_instantiate(ctx, FMUC_IFACE_ME, NULL, "fmucheck-me");
    if (!s->c) {
        meu_na(ctx, "%s%s returned NULL", meu_fn(v, FMUC_INST_OP_INSTANTIATE),
               v == 2 ? "(fmi2ModelExchange)" : "");
        return -1;
    }
    int tol_defined = ex->present && ex->has_tolerance;
    fmuc_drive_start ds;
    fmuc_drive_reached r;
    fmuc_drive_start_init(&ds, md);
    ds.exp = (fmuc_inst_experiment){tol_defined, tol_defined ? ex->tolerance : 0.0, s->t0,
                                    s->stop_defined, s->t1};
    ds.max_iterations = MEU_MAX_EVENT_ITERATIONS;
    ds.stop_on_terminate = 1;
    ds.phase_init = "initialize";
    ds.phase_iteration = "initial event iteration";
    ds.phase_ctm = "continuous-time mode";
    int rc = fmuc_drive_reach(s->c, FMUC_ST_CTM, &ds, &r);
    meu_st(s, r.worst);
    s->init_iterations = r.iterations;
    s->info = r.info;
    s->initialized = !(r.failed_op == FMUC_INST_OP_SETUP_EXPERIMENT ||
                       r.failed_op == FMUC_INST_OP_ENTER_INIT || r.failed_op == FMUC_INST_OP_EXIT_INIT);
    if (!s->initialized) {
        meu_na(ctx, "initialization failed (%s in the trace): the FMU could not be %s",
               meu_stname(v, r.status, sb, sizeof sb),
               v == 1 ? "initialized (fmiInitialize)" : "brought into Event Mode");
        return -1;
    }
    if (r.failed_op == FMUC_INST_OP_UPDATE_DISCRETE_STATES) {
        meu_na(ctx, "%s after initialization returned %s",
               meu_fn(v, FMUC_INST_OP_UPDATE_DISCRETE_STATES), meu_stname(v, r.status, sb, sizeof sb));
        return -1;
    }
    if (r.no_settle) {
        s->no_settle = 1;
        meu_na(ctx, "the initial event iteration did not settle within %u %s calls",
               MEU_MAX_EVENT_ITERATIONS, meu_fn(v, FMUC_INST_OP_UPDATE_DISCRETE_STATES));
        return -1;
    }
    if (rc == 1) {
        meu_na(ctx, "the FMU asked to terminate right after initialization");
        return -1;
    }
    if (r.failed_op == FMUC_INST_OP_ENTER_CT_MODE) {
        meu_na(ctx, "%s returned %s", meu_fn(v, FMUC_INST_OP_ENTER_CT_MODE),
               meu_stname(v, r.status, sb, sizeof sb));
        return -1;
    }
    return 0;
}

/** End the session as the state machine allows: terminate (fmi2Terminate, fmi3Terminate,
 *  fmiTerminate) only after initialization and never after Error; free unless Fatal was seen. */
static inline void meu_end(meu_session *s)
{
    if (s->c && s->worst != FMUC_STATUS_FATAL) {
        if (s->initialized && s->worst != FMUC_STATUS_ERROR)
            fmuc_inst_terminate(s->c);
        fmuc_inst_free(s->c);
    } else {
        fmuc_inst_abandon(s->c);
    }
    s->c = NULL;
}

/** Set (t, x) and read derivatives (nx) and event indicators (ni; z may be NULL when ni = 0).
 *  Returns the worst status of the calls. */
static inline int meu_eval(meu_session *s, size_t nx, size_t ni, double t, const double *x,
                           double *dx, double *z)
{
    int st = meu_st(s, fmuc_inst_set_time(s->c, t)), w = st;
    if (!meu_ok(st))
        return st;
    if (nx) {
        st = meu_st(s, fmuc_inst_set_continuous_states(s->c, x, nx));
        w = st > w ? st : w;
        if (!meu_ok(st))
            return st;
        st = meu_st(s, fmuc_inst_get_derivatives(s->c, dx, nx));
        w = st > w ? st : w;
        if (!meu_ok(st))
            return st;
    }
    if (ni && z) {
        st = meu_st(s, fmuc_inst_get_event_indicators(s->c, z, ni));
        w = st > w ? st : w;
    }
    return w;
}

/** A deterministic generator (splitmix64) for seeded directions and points. */
static inline double meu_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0); /* [0, 1) */
}

/* --- parent side -------------------------------------------------------------------------- */

/** Run fn in a worker and forward its messages. Returns the reply (owned by *o) when the
 *  worker ended normally and reported no "errors", else NULL (res then carries an ERROR). */
static inline const cJSON *meu_run(const fmuc_subject *s, fmuc_result *res, const char *label,
                                   fmuc_worker_fn fn, void *payload, fmuc_worker_outcome *o)
{
    fmuc_worker_spec spec;
    fmuc_diag diag = {0};
    memset(o, 0, sizeof *o);
    fmuc_worker_spec_init(&spec, s->fmu, s->opts);
    spec.label = label;
    if (fmuc_worker_run(&spec, fn, payload, o, &diag) < 0) {
        fmuc_result_error(res, "could not start a worker: %s", diag.msg);
        return NULL;
    }
    if (fmuc_worker_outcome_to_result(o, res)) {
        apiu_note_death(s, res, FMUC_IFACE_ME, o); /* in instantiate/initialize: unusable */
        return NULL;
    }
    const cJSON *item;
    int errors = 0;
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(o->reply, "errors"))
    {
        if (cJSON_IsString(item)) {
            fmuc_result_error(res, "%s", item->valuestring);
            errors++;
        }
    }
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(o->reply, "violations"))
    {
        if (cJSON_IsString(item))
            fmuc_result_violation(res, "%s", item->valuestring);
    }
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(o->reply, "letters"))
    {
        if (cJSON_IsString(item))
            fmuc_result_violation_letter(res, "%s", item->valuestring);
    }
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(o->reply, "warnings"))
    {
        if (cJSON_IsString(item))
            fmuc_result_warn(res, "%s", item->valuestring);
    }
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(o->reply, "notes"))
    {
        if (cJSON_IsString(item))
            fmuc_result_note(res, "%s", item->valuestring);
    }
    int na = 0;
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(o->reply, "na"))
    {
        if (cJSON_IsString(item)) {
            fmuc_result_na(res, "%s", item->valuestring);
            na++;
        }
    }
    return errors || na ? NULL : o->reply;
}

/** Copy the items keys[0..n) of the worker's reply that are present into the result's
 *  evidence (parent side). */
static inline void meu_evidence_from_reply(fmuc_result *res, const cJSON *reply,
                                           const char *const *keys, size_t n)
{
    cJSON *ev = fmuc_result_evidence(res);
    for (size_t k = 0; k < n; k++) {
        const cJSON *it = cJSON_GetObjectItemCaseSensitive(reply, keys[k]);
        if (it && ev)
            cJSON_AddItemToObject(ev, keys[k], cJSON_Duplicate(it, 1));
    }
}

/** Common applicability: an ME binary and a usable state vector. Returns 0 to go on. */
static inline int meu_applies(const fmuc_subject *s, fmuc_result *res, meu_model *m)
{
    memset(m, 0, sizeof *m);
    if (!s->fmu->md.me.present) {
        fmuc_result_na(res, "no ModelExchange interface");
        return -1;
    }
    if (!s->fmu->lib_path_me) {
        fmuc_result_na(res, "no ModelExchange binary for this platform");
        return -1;
    }
    if (meu_model_build(&s->fmu->md, m) < 0) {
        fmuc_result_na(res, "%s", m->why);
        meu_model_free(m);
        return -1;
    }
    return 0;
}

/** Format x[0..n) as "[a, b, ...]" (%.17g, at most 8 values). */
static inline const char *meu_vec(char *buf, size_t size, const double *x, size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    k += (size_t)snprintf(buf + k, size - k, "[");
    for (size_t i = 0; i < n && i < 8 && k < size; i++)
        k += (size_t)snprintf(buf + k, size - k, "%s%.17g", i ? ", " : "", x[i]);
    if (k < size)
        snprintf(buf + k, size - k, "%s]", n > 8 ? ", ..." : "");
    return buf;
}

#endif
