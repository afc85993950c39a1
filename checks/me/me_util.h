/* Helpers shared by the me-* checks (header-only): the state vector as declared by
 * <ModelStructure><Derivatives> (FMI 2.0.4 §2.2.8, §3.2.2), a worker session that brings an ME
 * instance into Continuous-Time Mode (§3.2.4), and a reply convention: the worker appends
 * finished messages to reply["violations"] / reply["notes"], the parent forwards them. */
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
#include "fmuc/fmuc_worker.h"

/* --- the declared state vector ------------------------------------------------------------ */

typedef struct meu_model {
    size_t nx;                    /* number of <Derivatives> entries */
    size_t ni;                    /* numberOfEventIndicators (0 when absent) */
    fmi2ValueReference *xvr, *dxvr;
    const fmuc_md_var **xvar, **dxvar;
    uint32_t *x_index, *dx_index; /* 1-based ModelVariables indices */
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
    free(m->dx_unknown);
    memset(m, 0, sizeof *m);
}

/** Resolve Derivatives -> (derivative variable, state variable). Returns 0, or -1 with m->why
 *  (a malformed Derivatives list is reported by md-ms-derivatives; me checks then do not apply). */
static inline int meu_model_build(const fmuc_md *md, meu_model *m)
{
    memset(m, 0, sizeof *m);
    m->ni = md->has_number_of_event_indicators ? md->number_of_event_indicators : 0;
    m->nx = md->nderivatives;
    if (fmuc_check_dynamic_counts_ok(m->ni, m->nx, m->why, sizeof m->why) < 0)
        return -1;
    size_t n = m->nx ? m->nx : 1;
    m->xvr = calloc(n, sizeof *m->xvr);
    m->dxvr = calloc(n, sizeof *m->dxvr);
    m->xvar = calloc(n, sizeof *m->xvar);
    m->dxvar = calloc(n, sizeof *m->dxvar);
    m->x_index = calloc(n, sizeof *m->x_index);
    m->dx_index = calloc(n, sizeof *m->dx_index);
    m->dx_unknown = calloc(n, sizeof *m->dx_unknown);
    if (!m->xvr || !m->dxvr || !m->xvar || !m->dxvar || !m->x_index || !m->dx_index ||
        !m->dx_unknown) {
        snprintf(m->why, sizeof m->why, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < m->nx; i++) {
        const fmuc_md_unknown *u = &md->derivatives[i];
        const fmuc_md_var *dv = fmuc_md_var_at(md, u->index);
        const fmuc_md_var *xv = dv && dv->derivative ? fmuc_md_var_at(md, dv->derivative) : NULL;
        if (!dv || dv->type != FMUC_TYPE_REAL || !xv || xv->type != FMUC_TYPE_REAL ||
            !(dv->has & FMUC_HAS_VALUE_REFERENCE) || !(xv->has & FMUC_HAS_VALUE_REFERENCE)) {
            snprintf(m->why, sizeof m->why,
                     "<Derivatives> entry %zu (index %u, line %u) is not a Real state derivative "
                     "with a valid state (see md-ms-derivatives)", i + 1, u->index, u->line);
            return -1;
        }
        m->dxvar[i] = dv;
        m->xvar[i] = xv;
        m->dxvr[i] = dv->value_reference;
        m->xvr[i] = xv->value_reference;
        m->dx_index[i] = u->index;
        m->x_index[i] = dv->derivative;
        m->dx_unknown[i] = u;
    }
    return 0;
}

/** Name of a variable for messages (never NULL). */
static inline const char *meu_name(const fmuc_md_var *v)
{
    return v && v->name ? v->name : "?";
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

static inline const char *meu_status(fmi2Status st, char *buf, size_t n)
{
    return fmuc_fmi_status_name((int)st, buf, n);
}

static inline int meu_ok(fmi2Status st)
{
    return st == fmi2OK || st == fmi2Warning;
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
    const fmuc_fmi *f;
    fmi2Component c;
    double t0, t1;            /* start time; stop time (t0 + 1 when not defined) */
    int stop_defined;
    unsigned init_iterations; /* fmi2NewDiscreteStates calls of the initial event iteration */
    fmi2EventInfo info;       /* the last event info of the initial iteration */
    int no_settle;            /* meu_start failed: the initial event iteration did not settle */
    int initialized;          /* fmi2ExitInitializationMode succeeded (Event Mode reached) */
    fmi2Status worst;         /* the worst status of the instance's calls (meu_st) */
} meu_session;

/** Record the status of a call on the session's instance and return it: after fmi2Error the
 *  importer may only free (or reset) the instance, after fmi2Fatal call nothing (FMI 2.0.4
 *  §2.1.3); meu_end obeys that. Every call on s->c goes through it. */
static inline fmi2Status meu_st(meu_session *s, fmi2Status st)
{
    if ((st == fmi2Error || st == fmi2Fatal) && (int)st > (int)s->worst)
        s->worst = st;
    return st;
}

#define MEU_MAX_EVENT_ITERATIONS 100u

/** Bring a fresh ME instance to Continuous-Time Mode at the default experiment's start time.
 *  On failure (the FMU does not load, instantiate or initialize: owned by load-*, api-* and
 *  me-nominal-run), reports through meu_na and returns -1 (the instance, if any, stays in s->c;
 *  s->no_settle tells an initial event iteration that did not settle). */
static inline int meu_start(fmuc_worker_ctx *ctx, const fmuc_md *md, meu_session *s)
{
    char sb[32];
    memset(s, 0, sizeof *s);
    s->f = fmuc_worker_load(ctx, fmi2ModelExchange);
    if (!s->f) {
        meu_na(ctx, "the ModelExchange library does not load: %s", fmuc_worker_load_error(ctx));
        return -1;
    }
    const fmuc_md_experiment *ex = &md->experiment;
    s->t0 = ex->present && ex->has_start ? ex->start_time : 0.0;
    s->stop_defined = ex->present && ex->has_stop && ex->stop_time > s->t0;
    s->t1 = s->stop_defined ? ex->stop_time : s->t0 + 1.0;
    fmuc_worker_phase(ctx, "instantiate");
    s->c = fmuc_fmi_instantiate(s->f, fmi2ModelExchange, NULL, "fmucheck-me");
    if (!s->c) {
        meu_na(ctx, "fmi2Instantiate(fmi2ModelExchange) returned NULL");
        return -1;
    }
    fmuc_worker_phase(ctx, "initialize");
    int tol_defined = ex->present && ex->has_tolerance;
    fmi2Status st = meu_st(s, fmuc_fmi_setupExperiment(s->f, s->c, tol_defined,
                                                       tol_defined ? ex->tolerance : 0.0, s->t0,
                                                       s->stop_defined, s->t1));
    if (meu_ok(st))
        st = meu_st(s, fmuc_fmi_enterInitializationMode(s->f, s->c));
    if (meu_ok(st))
        st = meu_st(s, fmuc_fmi_exitInitializationMode(s->f, s->c));
    s->initialized = meu_ok(st);
    if (!meu_ok(st)) {
        meu_na(ctx, "initialization failed (%s in the trace): the FMU could not be brought "
                       "into Event Mode", meu_status(st, sb, sizeof sb));
        return -1;
    }
    fmuc_worker_phase(ctx, "initial event iteration");
    do {
        memset(&s->info, 0, sizeof s->info);
        st = meu_st(s, fmuc_fmi_newDiscreteStates(s->f, s->c, &s->info));
        s->init_iterations++;
        if (!meu_ok(st)) {
            meu_na(ctx, "fmi2NewDiscreteStates after initialization returned %s",
                      meu_status(st, sb, sizeof sb));
            return -1;
        }
    } while (s->info.newDiscreteStatesNeeded && !s->info.terminateSimulation &&
             s->init_iterations < MEU_MAX_EVENT_ITERATIONS);
    if (s->info.newDiscreteStatesNeeded && !s->info.terminateSimulation) {
        s->no_settle = 1;
        meu_na(ctx, "the initial event iteration did not settle within %u "
                       "fmi2NewDiscreteStates calls", MEU_MAX_EVENT_ITERATIONS);
        return -1;
    }
    if (s->info.terminateSimulation) {
        meu_na(ctx, "the FMU asked to terminate right after initialization");
        return -1;
    }
    st = meu_st(s, fmuc_fmi_enterContinuousTimeMode(s->f, s->c));
    if (!meu_ok(st)) {
        meu_na(ctx, "fmi2EnterContinuousTimeMode returned %s", meu_status(st, sb, sizeof sb));
        return -1;
    }
    fmuc_worker_phase(ctx, "continuous-time mode");
    return 0;
}

/** End the session as the state machine allows: fmi2Terminate only from Event or
 *  Continuous-Time Mode and never after fmi2Error; fmi2FreeInstance unless fmi2Fatal was seen. */
static inline void meu_end(meu_session *s)
{
    if (s->f && s->c && s->worst != fmi2Fatal) {
        if (s->initialized && s->worst != fmi2Error)
            fmuc_fmi_terminate(s->f, s->c);
        fmuc_fmi_freeInstance(s->f, s->c);
    }
    s->c = NULL;
}

/** Set (t, x) and read derivatives (nx) and event indicators (ni; z may be NULL when ni = 0).
 *  Returns the worst status of the calls. */
static inline fmi2Status meu_eval(meu_session *s, size_t nx, size_t ni, double t,
                                  const double *x, double *dx, double *z)
{
    fmi2Status st = meu_st(s, fmuc_fmi_setTime(s->f, s->c, t)), w = st;
    if (!meu_ok(st))
        return st;
    if (nx) {
        st = meu_st(s, fmuc_fmi_setContinuousStates(s->f, s->c, x, nx));
        w = st > w ? st : w;
        if (!meu_ok(st))
            return st;
        st = meu_st(s, fmuc_fmi_getDerivatives(s->f, s->c, dx, nx));
        w = st > w ? st : w;
        if (!meu_ok(st))
            return st;
    }
    if (ni && z) {
        st = meu_st(s, fmuc_fmi_getEventIndicators(s->f, s->c, z, ni));
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
        apiu_note_death(s, res, fmi2ModelExchange, o); /* in instantiate/initialize: unusable */
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
