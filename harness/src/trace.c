/* The FMI call trace: the worker writes each call into the shared region before making it (so a
 * crash leaves the call in progress visible), the parent decodes the region defensively. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fmuc/fmuc_inst.h"
#include "worker_internal.h"

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

fmuc_w_call *fmuc_trace__slot(fmuc_w_shared *sh, uint64_t seq)
{
    return seq < FMUC_W_TRACE_HEAD ? &sh->head[seq] : &sh->tail[seq % FMUC_W_TRACE_TAIL];
}

/* Calls nest only through a callback in which the harness calls the FMU (FMI 3.0 SE clockUpdate):
 * the outer call's entry is then ended as suspended and resumed in a new entry after them
 * (inst_fmi3.c). So when call seq begins, call seq-1 has returned or is suspended: its duration
 * moves into the cumulative timers (the last call's is added by the parent when decoding). */
static void fold_previous(fmuc_w_shared *sh, uint64_t seq)
{
    fmuc_w_call *p;
    if (seq == 0)
        return;
    p = fmuc_trace__slot(sh, seq - 1);
    if (p->seq != seq - 1 || p->state == FMUC_W_CALL_RUNNING || !p->timed)
        return;
    if (p->timed == 1)
        sh->fmi_ns += p->dt_ns;
    else
        sh->dl_ns += p->dt_ns;
    p->timed = 0;
}

fmuc_w_call *fmuc_trace__begin(fmuc_worker_ctx *ctx, unsigned fn)
{
    fmuc_w_shared *sh = ctx->sh;
    uint64_t seq;
    fmuc_w_call *e;

    fmuc_worker__fork_guard(ctx); /* a forked copy of the worker calls nothing */
    ctx->last_fn = fn;
    seq = sh->ncalls;
    if (ctx->pwatch)
        fmuc_pstate__before_begin(ctx); /* before the slot of the call watched may be reused */
    e = fmuc_trace__slot(sh, seq);
    fold_previous(sh, seq);
    e->state = FMUC_W_CALL_EMPTY;
    e->seq = seq;
    e->status = 0;
    e->dt_ns = 0;
    e->fn = fn;
    e->flags = 0;
    e->n[0] = e->n[1] = 0;
    e->s[0][0] = e->s[1][0] = '\0';
    e->timed = fn < FMUC_W_FN_DLOPEN ? 1u : 2u;
    return e;
}

void fmuc_trace__go(fmuc_worker_ctx *ctx, fmuc_w_call *e)
{
    __atomic_store_n(&e->state, FMUC_W_CALL_RUNNING, __ATOMIC_RELEASE);
    __atomic_store_n(&ctx->sh->ncalls, e->seq + 1, __ATOMIC_RELEASE);
    fmuc_worker__before_call(ctx, e); /* a call that hung before is not made again */
    if (ctx->pwatch)
        fmuc_pstate__before_call(ctx, e);
    e->t0_ns = mono_ns(); /* last: recording the arguments is harness time */
}

void fmuc_trace__buffer_violation(fmuc_worker_ctx *ctx, unsigned kind, const char *array,
                                  uint64_t length, uint32_t elem_size, uint64_t amount)
{
    fmuc_w_shared *sh = ctx->sh;
    uint64_t k = sh->bufv_total++;
    if (k >= FMUC_W_BUFV_KEPT)
        return;
    fmuc_w_bufv *v = &sh->bufv[k];
    v->kind = kind;
    v->elem_size = elem_size;
    v->length = length;
    v->amount = amount;
    snprintf(v->array, sizeof v->array, "%s", array ? array : "");
    if (sh->ncalls > 0) {
        const fmuc_w_call *e = fmuc_trace__slot(sh, sh->ncalls - 1);
        v->call = *e;
    } else {
        memset(&v->call, 0, sizeof v->call);
        v->call.fn = FMUC_W_FN_COUNT;
    }
}

void fmuc_trace__vrs(fmuc_w_call *e, int k, const fmi2ValueReference *vr, size_t nvr)
{
    size_t i;
    e->n[k] = nvr;
    if (!vr) {
        e->flags |= k ? FMUC_W_A_NULL1 : FMUC_W_A_NULL0;
        return;
    }
    for (i = 0; i < nvr && i < FMUC_W_VR_KEPT; i++)
        e->vr[k][i] = vr[i];
}

void fmuc_trace__reals(fmuc_w_call *e, const double *v, size_t n)
{
    e->n[0] = n;
    if (!v) {
        e->flags |= FMUC_W_A_NULL1;
        return;
    }
    for (size_t i = 0; i < n && i < FMUC_W_VAL_KEPT; i++)
        e->d[i] = v[i];
}

void fmuc_trace__str(fmuc_w_call *e, int k, const char *s)
{
    size_t len;
    if (!s) {
        e->flags |= k ? FMUC_W_A_NULLS1 : FMUC_W_A_NULLS0;
        return;
    }
    len = strnlen(s, FMUC_W_STR_KEPT - 1);
    memcpy(e->s[k], s, len);
    e->s[k][len] = '\0';
}

void fmuc_trace__end(fmuc_worker_ctx *ctx, fmuc_w_call *e, int status, uint32_t state)
{
    fmuc_worker__fork_guard(ctx);
    if (state != FMUC_W_CALL_SUSPENDED)
        fmuc_pstate__after_call(ctx);
    if (e->timed)
        e->dt_ns = mono_ns() - e->t0_ns;
    e->status = status;
    __atomic_store_n(&e->state, state, __ATOMIC_RELEASE);
}

char *fmuc_trace__sanitize(const char *s, size_t n)
{
    /* worst case 4 output bytes per input byte */
    char *out = malloc(n * 4 + 1);
    size_t o = 0, i = 0;
    const unsigned char *u = (const unsigned char *)s;

    if (!out)
        return NULL;
    while (i < n) {
        unsigned c = u[i];
        size_t len = 0;
        if (c < 0x80)
            len = 1;
        else if (c >= 0xc2 && c <= 0xdf)
            len = 2;
        else if (c >= 0xe0 && c <= 0xef)
            len = 3;
        else if (c >= 0xf0 && c <= 0xf4)
            len = 4;
        if (len > 1 && i + len <= n) {
            size_t k;
            for (k = 1; k < len; k++)
                if ((u[i + k] & 0xc0) != 0x80)
                    break;
            /* reject overlongs and surrogates roughly: E0 needs A0.., ED needs ..9F, F0 90.., F4 ..8F */
            if (k == len && ((c == 0xe0 && u[i + 1] < 0xa0) || (c == 0xed && u[i + 1] > 0x9f) ||
                             (c == 0xf0 && u[i + 1] < 0x90) || (c == 0xf4 && u[i + 1] > 0x8f)))
                k = 0;
            if (k != len)
                len = 0;
        } else if (len > 1) {
            len = 0;
        }
        if (len == 1 && c == 0) {
            len = 0; /* NUL inside: escape visibly */
        }
        if (len == 0) {
            snprintf(out + o, 5, "\\x%02x", c);
            o += 4;
            i++;
        } else {
            memcpy(out + o, u + i, len);
            o += len;
            i += len;
        }
    }
    out[o] = '\0';
    return out;
}

/* ---- parent side: the text of a call ---------------------------------------------------- */

typedef struct tbuf {
    char *p;
    size_t n, o;
} tbuf;

static void put(tbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(tbuf *b, const char *fmt, ...)
{
    va_list ap;
    int w;
    if (b->o >= b->n)
        return;
    va_start(ap, fmt);
    w = vsnprintf(b->p + b->o, b->n - b->o, fmt, ap);
    va_end(ap);
    if (w > 0)
        b->o = b->o + (size_t)w < b->n ? b->o + (size_t)w : b->n - 1;
}

static size_t kept(uint64_t n, size_t cap)
{
    return n < cap ? (size_t)n : cap;
}

static void put_vrs(tbuf *b, const fmuc_w_call *e, int k)
{
    size_t i, m = kept(e->n[k], FMUC_W_VR_KEPT);
    if (e->flags & (k ? FMUC_W_A_NULL1 : FMUC_W_A_NULL0)) {
        put(b, "vr=NULL, nvr=%llu", (unsigned long long)e->n[k]);
        return;
    }
    put(b, "vr=[");
    for (i = 0; i < m; i++)
        put(b, "%s%u", i ? "," : "", e->vr[k][i]);
    put(b, "%s], nvr=%llu", e->n[k] > FMUC_W_VR_KEPT ? ",..." : "", (unsigned long long)e->n[k]);
}

/* the first values of a real (is_real) or integer array argument, from d[] or i[]; their
 * number is n[k] */
static void put_vals(tbuf *b, const fmuc_w_call *e, int is_real, int k)
{
    size_t i, m = kept(e->n[k], FMUC_W_VAL_KEPT);
    if (e->flags & FMUC_W_A_NULL1) {
        put(b, "NULL");
        return;
    }
    for (i = 0; i < m; i++) {
        if (is_real)
            put(b, "%s%.10g", i ? "," : "", e->d[i]);
        else
            put(b, "%s%d", i ? "," : "", (int)e->i[i]);
    }
    if (e->n[k] > FMUC_W_VAL_KEPT)
        put(b, ",...");
}

static void put_str(tbuf *b, const fmuc_w_call *e, int k, int maxlen)
{
    if (e->flags & (k ? FMUC_W_A_NULLS1 : FMUC_W_A_NULLS0))
        put(b, "(null)");
    else
        put(b, "%.*s", maxlen, e->s[k]); /* bounded: the region may hold no NUL */
}

static const char *const fn_names[FMUC_W_FN_COUNT] = {
#define FMUC_NAME_(ret, name, params, iface) #name,
    FMUC_FMI2_FUNCTIONS(FMUC_NAME_)
    FMUC_FMI3_FUNCTIONS(FMUC_NAME_)
#undef FMUC_NAME_
    "dlopen",
    "dlclose",
#define FMUC_NAME1_(ret, name, params) #name,
    FMUC_FMI1_SHARED_FUNCTIONS(FMUC_NAME1_)
    FMUC_FMI1_ME_ONLY_FUNCTIONS(FMUC_NAME1_)
    FMUC_FMI1_CS_ONLY_FUNCTIONS(FMUC_NAME1_)
#undef FMUC_NAME1_
};

/* FMI 3.0 lists: vr list 0 and the number of values (n[1]) */
static void put_vrs3(tbuf *b, const fmuc_w_call *e)
{
    size_t i, m = kept(e->n[0], FMUC_W_VR_KEPT);
    if (e->flags & FMUC_W_A_NULL0) {
        put(b, "valueReferences=NULL, nValueReferences=%llu", (unsigned long long)e->n[0]);
    } else {
        put(b, "vr=[");
        for (i = 0; i < m; i++)
            put(b, "%s%u", i ? "," : "", e->vr[0][i]);
        put(b, "%s], nvr=%llu", e->n[0] > FMUC_W_VR_KEPT ? ",..." : "",
            (unsigned long long)e->n[0]);
    }
    put(b, ", nValues=%llu", (unsigned long long)e->n[1]);
}

/* How the arguments of a call are written (the worker records them in inst_fmi{1,2,3}.c and
 * loader.c): a shape over the record's fields and the names the version gives them. */
enum {
    A_NONE,       /* no arguments shown */
    A_INT,        /* a=i[0] */
    A_INT_N,      /* a=i[0], b=n[0] */
    A_N,          /* a=n[0] */
    A_REAL,       /* a=d[0] */
    A_PTR,        /* NULL, or a (the instance, the state) */
    A_STR,        /* the string s[0] */
    A_VRS,        /* value reference list 0 */
    A_VRS_REALS,  /* list 0, value=[d...] */
    A_VRS_INTS,   /* list 0, value=[i...] */
    A_VRS3,       /* FMI 3.0 list 0 with nValues (n[1]) */
    A_VRS3_REALS, /* that, values=[d...] */
    A_VRS3_INTS,  /* that, values=[i...] */
    A_REALS_N,    /* a=[d...], b=n[0] */
    A_VRS2,       /* a list 0; b list 1 */
    A_VRS2_SEEDS, /* that; nSeed=i[0], nSensitivity=i[1] */
    A_STEP,       /* t=d[0], h=d[1], a=i[0] */
    A_EXPERIMENT, /* toleranceDefined ... stopTime */
    A_OWN         /* the function's own text (format_own) */
};

typedef struct arg_shape {
    uint8_t shape;
    const char *a, *b;
} arg_shape;

#define F2_(name) [FMUC_W_FN_fmi2##name]
#define F3_(name) [FMUC_W_FN_fmi3##name]
#define F1_(name) [FMUC_W_FN1_fmi##name]
static const arg_shape shapes[FMUC_W_FN_COUNT] = {
    /* FMI 2.0 */
    F2_(SetDebugLogging) = {A_INT_N, "loggingOn", "nCategories"},
    F2_(Instantiate) = {A_OWN, NULL, NULL},
    F2_(FreeInstance) = {A_PTR, "c", NULL},
    F2_(SetupExperiment) = {A_EXPERIMENT, NULL, NULL},
    F2_(GetReal) = {A_VRS, NULL, NULL},
    F2_(GetInteger) = {A_VRS, NULL, NULL},
    F2_(GetBoolean) = {A_VRS, NULL, NULL},
    F2_(GetString) = {A_VRS, NULL, NULL},
    F2_(SetString) = {A_VRS, NULL, NULL},
    F2_(SetRealInputDerivatives) = {A_VRS, NULL, NULL},
    F2_(GetRealOutputDerivatives) = {A_VRS, NULL, NULL},
    F2_(SetReal) = {A_VRS_REALS, NULL, NULL},
    F2_(SetInteger) = {A_VRS_INTS, NULL, NULL},
    F2_(SetBoolean) = {A_VRS_INTS, NULL, NULL},
    F2_(SetFMUstate) = {A_PTR, "state", NULL},
    F2_(SerializeFMUstate) = {A_N, "size", NULL},
    F2_(DeSerializeFMUstate) = {A_N, "size", NULL},
    F2_(GetDirectionalDerivative) = {A_VRS2, "unknown", "known"},
    F2_(CompletedIntegratorStep) = {A_INT, "noSetFMUStatePriorToCurrentPoint", NULL},
    F2_(SetTime) = {A_REAL, "t", NULL},
    F2_(SetContinuousStates) = {A_REALS_N, "x", "nx"},
    F2_(GetDerivatives) = {A_N, "nx", NULL},
    F2_(GetContinuousStates) = {A_N, "nx", NULL},
    F2_(GetNominalsOfContinuousStates) = {A_N, "nx", NULL},
    F2_(GetEventIndicators) = {A_N, "ni", NULL},
    F2_(DoStep) = {A_STEP, "noSet", NULL},
    F2_(GetStatus) = {A_INT, "kind", NULL},
    F2_(GetRealStatus) = {A_INT, "kind", NULL},
    F2_(GetIntegerStatus) = {A_INT, "kind", NULL},
    F2_(GetBooleanStatus) = {A_INT, "kind", NULL},
    F2_(GetStringStatus) = {A_INT, "kind", NULL},
    /* FMI 3.0 */
    F3_(SetDebugLogging) = {A_INT_N, "loggingOn", "nCategories"},
    F3_(InstantiateModelExchange) = {A_OWN, NULL, NULL},
    F3_(InstantiateCoSimulation) = {A_OWN, NULL, NULL},
    F3_(InstantiateScheduledExecution) = {A_OWN, NULL, NULL},
    F3_(FreeInstance) = {A_PTR, "instance", NULL},
    F3_(EnterInitializationMode) = {A_EXPERIMENT, NULL, NULL},
    F3_(SetFloat32) = {A_VRS3_REALS, NULL, NULL},
    F3_(SetFloat64) = {A_VRS3_REALS, NULL, NULL},
    F3_(SetInt8) = {A_VRS3_INTS, NULL, NULL},
    F3_(SetUInt8) = {A_VRS3_INTS, NULL, NULL},
    F3_(SetInt16) = {A_VRS3_INTS, NULL, NULL},
    F3_(SetUInt16) = {A_VRS3_INTS, NULL, NULL},
    F3_(SetInt32) = {A_VRS3_INTS, NULL, NULL},
    F3_(SetUInt32) = {A_VRS3_INTS, NULL, NULL},
    F3_(SetInt64) = {A_VRS3_INTS, NULL, NULL},
    F3_(SetUInt64) = {A_VRS3_INTS, NULL, NULL},
    F3_(SetBoolean) = {A_VRS3_INTS, NULL, NULL},
    F3_(SetClock) = {A_VRS3_INTS, NULL, NULL},
    F3_(GetFloat32) = {A_VRS3, NULL, NULL},
    F3_(GetFloat64) = {A_VRS3, NULL, NULL},
    F3_(GetInt8) = {A_VRS3, NULL, NULL},
    F3_(GetUInt8) = {A_VRS3, NULL, NULL},
    F3_(GetInt16) = {A_VRS3, NULL, NULL},
    F3_(GetUInt16) = {A_VRS3, NULL, NULL},
    F3_(GetInt32) = {A_VRS3, NULL, NULL},
    F3_(GetUInt32) = {A_VRS3, NULL, NULL},
    F3_(GetInt64) = {A_VRS3, NULL, NULL},
    F3_(GetUInt64) = {A_VRS3, NULL, NULL},
    F3_(GetBoolean) = {A_VRS3, NULL, NULL},
    F3_(GetString) = {A_VRS3, NULL, NULL},
    F3_(SetString) = {A_VRS3, NULL, NULL},
    F3_(GetBinary) = {A_VRS3, NULL, NULL},
    F3_(SetBinary) = {A_VRS3, NULL, NULL},
    F3_(GetClock) = {A_VRS3, NULL, NULL},
    F3_(GetOutputDerivatives) = {A_VRS3, NULL, NULL},
    F3_(GetIntervalDecimal) = {A_VRS3, NULL, NULL},
    F3_(GetIntervalFraction) = {A_VRS3, NULL, NULL},
    F3_(GetShiftDecimal) = {A_VRS3, NULL, NULL},
    F3_(GetShiftFraction) = {A_VRS3, NULL, NULL},
    F3_(SetIntervalDecimal) = {A_VRS3, NULL, NULL},
    F3_(SetIntervalFraction) = {A_VRS3, NULL, NULL},
    F3_(SetShiftDecimal) = {A_VRS3, NULL, NULL},
    F3_(SetShiftFraction) = {A_VRS3, NULL, NULL},
    F3_(SetFMUState) = {A_PTR, "FMUState", NULL},
    F3_(SerializeFMUState) = {A_N, "size", NULL},
    F3_(DeserializeFMUState) = {A_N, "size", NULL},
    F3_(GetDirectionalDerivative) = {A_VRS2_SEEDS, "unknowns", "knowns"},
    F3_(GetAdjointDerivative) = {A_VRS2_SEEDS, "unknowns", "knowns"},
    F3_(CompletedIntegratorStep) = {A_INT, "noSetFMUStatePriorToCurrentPoint", NULL},
    F3_(SetTime) = {A_REAL, "time", NULL},
    F3_(SetContinuousStates) = {A_REALS_N, "continuousStates", "nContinuousStates"},
    F3_(GetContinuousStateDerivatives) = {A_N, "nContinuousStates", NULL},
    F3_(GetContinuousStates) = {A_N, "nContinuousStates", NULL},
    F3_(GetNominalsOfContinuousStates) = {A_N, "nContinuousStates", NULL},
    F3_(GetEventIndicators) = {A_N, "nEventIndicators", NULL},
    F3_(DoStep) = {A_STEP, "noSet", NULL},
    F3_(ActivateModelPartition) = {A_OWN, NULL, NULL},
    F3_(GetNumberOfVariableDependencies) = {A_OWN, NULL, NULL},
    F3_(GetVariableDependencies) = {A_OWN, NULL, NULL},
    /* the library calls */
    [FMUC_W_FN_DLOPEN] = {A_STR, NULL, NULL},
    [FMUC_W_FN_DLCLOSE] = {A_STR, NULL, NULL},
    /* FMI 1.0 (names unprefixed) */
    F1_(SetDebugLogging) = {A_INT, "loggingOn", NULL},
    F1_(InstantiateModel) = {A_OWN, NULL, NULL},
    F1_(InstantiateSlave) = {A_OWN, NULL, NULL},
    F1_(FreeModelInstance) = {A_PTR, "c", NULL},
    F1_(FreeSlaveInstance) = {A_PTR, "c", NULL},
    F1_(GetReal) = {A_VRS, NULL, NULL},
    F1_(GetInteger) = {A_VRS, NULL, NULL},
    F1_(GetBoolean) = {A_VRS, NULL, NULL},
    F1_(GetString) = {A_VRS, NULL, NULL},
    F1_(SetString) = {A_VRS, NULL, NULL},
    F1_(SetRealInputDerivatives) = {A_VRS, NULL, NULL},
    F1_(GetRealOutputDerivatives) = {A_VRS, NULL, NULL},
    F1_(SetReal) = {A_VRS_REALS, NULL, NULL},
    F1_(SetInteger) = {A_VRS_INTS, NULL, NULL},
    F1_(SetBoolean) = {A_VRS_INTS, NULL, NULL},
    F1_(SetTime) = {A_REAL, "t", NULL},
    F1_(SetContinuousStates) = {A_REALS_N, "x", "nx"},
    F1_(GetDerivatives) = {A_N, "nx", NULL},
    F1_(GetContinuousStates) = {A_N, "nx", NULL},
    F1_(GetNominalContinuousStates) = {A_N, "nx", NULL},
    F1_(GetStateValueReferences) = {A_N, "nx", NULL},
    F1_(GetEventIndicators) = {A_N, "ni", NULL},
    F1_(Initialize) = {A_OWN, NULL, NULL},
    F1_(EventUpdate) = {A_INT, "intermediateResults", NULL},
    F1_(InitializeSlave) = {A_OWN, NULL, NULL},
    F1_(DoStep) = {A_STEP, "newStep", NULL},
    F1_(GetStatus) = {A_INT, "kind", NULL},
    F1_(GetRealStatus) = {A_INT, "kind", NULL},
    F1_(GetIntegerStatus) = {A_INT, "kind", NULL},
    F1_(GetBooleanStatus) = {A_INT, "kind", NULL},
    F1_(GetStringStatus) = {A_INT, "kind", NULL},
};
#undef F1_
#undef F2_
#undef F3_

/* the arguments of the calls of shape A_OWN */
static void format_own(tbuf *b, const fmuc_w_call *e)
{
    unsigned fn = e->fn;
    switch (fn) {
    case FMUC_W_FN_fmi2Instantiate:
        put(b, "instanceName=\"");
        put_str(b, e, 0, 40);
        put(b, "\", fmuType=%s, guid=\"", e->i[0] == fmi2CoSimulation ? "CS" : "ME");
        put_str(b, e, 1, 60);
        put(b, "\", visible=%d, loggingOn=%d%s", (int)e->i[1], (int)e->i[2],
            e->flags & FMUC_W_A_NULLP ? ", functions=NULL" : "");
        return;
    case FMUC_W_FN_fmi3InstantiateModelExchange:
    case FMUC_W_FN_fmi3InstantiateCoSimulation:
    case FMUC_W_FN_fmi3InstantiateScheduledExecution:
        put(b, "instanceName=\"");
        put_str(b, e, 0, 40);
        put(b, "\", instantiationToken=\"");
        put_str(b, e, 1, 60);
        put(b, "\", visible=%d, loggingOn=%d", (int)e->i[1], (int)e->i[2]);
        if (fn == FMUC_W_FN_fmi3InstantiateCoSimulation)
            put(b, ", eventModeUsed=%d, earlyReturnAllowed=%d, nRequiredIntermediateVariables=%llu",
                (int)e->i[3], (int)e->i[0], (unsigned long long)e->n[0]);
        if (e->flags & FMUC_W_A_NULLP)
            put(b, ", logMessage=NULL");
        return;
    case FMUC_W_FN_fmi3ActivateModelPartition:
        put(b, "clockReference=%u, activationTime=%.10g%s", e->vr[0][0], e->d[0],
            e->flags & FMUC_W_A_RESUMED ? "; resumed after the harness's calls in clockUpdate"
                                         : "");
        return;
    case FMUC_W_FN_fmi3GetNumberOfVariableDependencies:
        put(b, "valueReference=%u", e->vr[0][0]);
        return;
    case FMUC_W_FN_fmi3GetVariableDependencies:
        put(b, "dependent=%u, nDependencies=%llu", e->vr[0][0], (unsigned long long)e->n[1]);
        return;
    case FMUC_W_FN1_fmiInstantiateModel:
        put(b, "instanceName=\"");
        put_str(b, e, 0, 40);
        put(b, "\", GUID=\"");
        put_str(b, e, 1, 60);
        put(b, "\", loggingOn=%d", (int)e->i[0]);
        return;
    case FMUC_W_FN1_fmiInstantiateSlave:
        put(b, "instanceName=\"");
        put_str(b, e, 0, 40);
        put(b, "\", fmuGUID=\"");
        put_str(b, e, 1, 60);
        put(b, "\", timeout=%.10g, visible=%d, interactive=%d, loggingOn=%d", e->d[0],
            (int)e->i[0], (int)e->i[1], (int)e->i[2]);
        return;
    case FMUC_W_FN1_fmiInitialize:
        put(b, "toleranceControlled=%d, relativeTolerance=%.10g", (int)e->i[0], e->d[0]);
        return;
    case FMUC_W_FN1_fmiInitializeSlave:
        put(b, "tStart=%.10g, StopTimeDefined=%d, tStop=%.10g", e->d[0], (int)e->i[0], e->d[1]);
        return;
    default:
        return;
    }
}

const char *fmuc_trace__fn_name(unsigned fn)
{
    return fn < FMUC_W_FN_COUNT && fn_names[fn] ? fn_names[fn] : "?";
}

static void format_args(tbuf *b, const fmuc_w_call *e)
{
    const arg_shape *a = &shapes[e->fn];
    switch (a->shape) {
    case A_INT:
        put(b, "%s=%d", a->a, (int)e->i[0]);
        break;
    case A_INT_N:
        put(b, "%s=%d, %s=%llu", a->a, (int)e->i[0], a->b, (unsigned long long)e->n[0]);
        break;
    case A_N:
        put(b, "%s=%llu", a->a, (unsigned long long)e->n[0]);
        break;
    case A_REAL:
        put(b, "%s=%.10g", a->a, e->d[0]);
        break;
    case A_PTR:
        put(b, "%s", e->flags & FMUC_W_A_NULLP ? "NULL" : a->a);
        break;
    case A_STR:
        put_str(b, e, 0, FMUC_W_STR_KEPT);
        break;
    case A_VRS:
    case A_VRS_REALS:
    case A_VRS_INTS:
        put_vrs(b, e, 0);
        if (a->shape == A_VRS)
            break;
        put(b, ", value=[");
        put_vals(b, e, a->shape == A_VRS_REALS, 0);
        put(b, "]");
        break;
    case A_VRS3:
    case A_VRS3_REALS:
    case A_VRS3_INTS:
        put_vrs3(b, e);
        if (a->shape == A_VRS3)
            break;
        put(b, ", values=[");
        put_vals(b, e, a->shape == A_VRS3_REALS, 1);
        put(b, "]");
        break;
    case A_REALS_N:
        put(b, "%s=[", a->a);
        put_vals(b, e, 1, 0);
        put(b, "], %s=%llu", a->b, (unsigned long long)e->n[0]);
        break;
    case A_VRS2:
    case A_VRS2_SEEDS:
        put(b, "%s ", a->a);
        put_vrs(b, e, 0);
        put(b, "; %s ", a->b);
        put_vrs(b, e, 1);
        if (a->shape == A_VRS2_SEEDS)
            put(b, "; nSeed=%d, nSensitivity=%d", (int)e->i[0], (int)e->i[1]);
        break;
    case A_STEP:
        put(b, "t=%.10g, h=%.10g, %s=%d%s", e->d[0], e->d[1], a->a, (int)e->i[0],
            e->flags & FMUC_W_A_RESUMED ? "; resumed after the harness's calls in intermediateUpdate"
                                         : "");
        break;
    case A_EXPERIMENT:
        put(b,
            "toleranceDefined=%d, tolerance=%.10g, startTime=%.10g, stopTimeDefined=%d, "
            "stopTime=%.10g",
            (int)e->i[0], e->d[0], e->d[1], (int)e->i[1], e->d[2]);
        break;
    case A_OWN:
        format_own(b, e);
        break;
    default:
        break;
    }
}

void fmuc_trace__format(const fmuc_w_call *e, char *buf, size_t n)
{
    tbuf b = {buf, n, 0};
    unsigned fn = e->fn;
    if (!n)
        return;
    buf[0] = '\0';
    if (fn >= FMUC_W_FN_COUNT) {
        put(&b, "unknown call #%u", fn);
        return;
    }
    put(&b, "%s(", fn_names[fn]);
    if (e->state != FMUC_W_CALL_NOT_PROVIDED)
        format_args(&b, e);
    put(&b, ")");
}

static const char *status_text(int status, char *buf, size_t n)
{
    return fmuc_fmi_status_name(status, buf, n);
}

/* the status of a call or log entry in its version's names (fmiOK for FMI 1.0, fmi3OK for
 * FMI 3.0) */
static const char *status_text_v(int version, int status, char *buf, size_t n)
{
    if (version == 1)
        return fmuc_status_name(1, status, buf, n);
    if (version != 3)
        return status_text(status, buf, n);
    static const char *const names[] = {"fmi3OK", "fmi3Warning", "fmi3Discard", "fmi3Error",
                                        "fmi3Fatal"};
    if (status >= 0 && status <= 4)
        return names[status];
    snprintf(buf, n, "invalid(%d)", status);
    return buf;
}

static cJSON *call_json(const fmuc_w_call *e, uint64_t seq)
{
    cJSON *o = cJSON_CreateObject();
    char text[FMUC_W_CALL_TEXT];
    char sbuf[32];
    char *safe;

    if (!o)
        return NULL;
    fmuc_trace__format(e, text, sizeof text);
    safe = fmuc_trace__sanitize(text, strlen(text));
    cJSON_AddNumberToObject(o, "seq", (double)seq);
    cJSON_AddStringToObject(o, "call", safe ? safe : "");
    free(safe);
    switch (e->state) {
    case FMUC_W_CALL_RETURNED:
        cJSON_AddStringToObject(o, "status", status_text_v(fmuc_w_fn_version(e->fn), e->status,
                                                           sbuf, sizeof sbuf));
        break;
    case FMUC_W_CALL_NOT_PROVIDED:
        cJSON_AddStringToObject(o, "status", "not provided");
        break;
    case FMUC_W_CALL_RETURNED_PTR:
        cJSON_AddStringToObject(o, "status", e->status ? "non-NULL" : "NULL");
        break;
    case FMUC_W_CALL_RETURNED_VOID:
        cJSON_AddStringToObject(o, "status", "returned");
        break;
    case FMUC_W_CALL_SUSPENDED:
        cJSON_AddStringToObject(o, "status", "suspended (the harness's calls in a callback)");
        break;
    default:
        cJSON_AddNullToObject(o, "status");
        cJSON_AddBoolToObject(o, "in_progress", 1);
        break;
    }
    return o;
}

static void copy_str(char *dst, size_t n, const char *src, size_t srcn)
{
    size_t len = strnlen(src, srcn);
    char *safe = fmuc_trace__sanitize(src, len);
    snprintf(dst, n, "%s", safe ? safe : "");
    free(safe);
}

static void add_opt_string(cJSON *o, const char *key, const char *s, size_t n, int is_null)
{
    if (is_null) {
        cJSON_AddNullToObject(o, key);
    } else {
        char *safe = fmuc_trace__sanitize(s, strnlen(s, n));
        cJSON_AddStringToObject(o, key, safe ? safe : "");
        free(safe);
    }
}

void fmuc_trace__decode(const fmuc_w_shared *sh, fmuc_worker_outcome *out)
{
    uint64_t n, i, first_tail;
    const fmuc_w_call *last = NULL;
    size_t nlog;

    if (sh->magic != FMUC_W_MAGIC)
        return; /* the worker never initialised it, or scribbled over it */
    if (sh->phase_at) {
        char text[sizeof sh->phase + 64];
        int len = (int)strnlen(sh->phase, sizeof sh->phase);
        if (sh->phase_k >= 0)
            snprintf(text, sizeof text, "%.*s %lld (t=%.9g)", len, sh->phase,
                     (long long)sh->phase_k, sh->phase_t);
        else
            snprintf(text, sizeof text, "%.*s (t=%.9g)", len, sh->phase, sh->phase_t);
        copy_str(out->phase, sizeof out->phase, text, sizeof text);
    } else {
        copy_str(out->phase, sizeof out->phase, sh->phase, sizeof sh->phase);
    }

    n = sh->ncalls;
    out->ncalls = n;
    out->trace = cJSON_CreateArray();
    for (i = 0; i < n && i < FMUC_W_TRACE_HEAD; i++) {
        const fmuc_w_call *e = &sh->head[i];
        if (e->seq != i)
            continue;
        cJSON_AddItemToArray(out->trace, call_json(e, i));
        last = e;
    }
    first_tail = n > FMUC_W_TRACE_HEAD + FMUC_W_TRACE_TAIL ? n - FMUC_W_TRACE_TAIL : FMUC_W_TRACE_HEAD;
    if (first_tail > FMUC_W_TRACE_HEAD) {
        cJSON *gap = cJSON_CreateObject();
        cJSON_AddNumberToObject(gap, "omitted", (double)(first_tail - FMUC_W_TRACE_HEAD));
        cJSON_AddItemToArray(out->trace, gap);
    }
    for (i = first_tail; i < n; i++) {
        const fmuc_w_call *e = &sh->tail[i % FMUC_W_TRACE_TAIL];
        if (e->seq != i)
            continue;
        cJSON_AddItemToArray(out->trace, call_json(e, i));
        last = e;
    }
    if (last) {
        char text[FMUC_W_CALL_TEXT];
        fmuc_trace__format(last, text, sizeof text);
        copy_str(out->last_call, sizeof out->last_call, text, sizeof text);
        out->call_in_progress = last->state == FMUC_W_CALL_RUNNING;
    }
    {
        /* cumulative timers plus the last call's own time (not folded yet); a call still
         * running when the worker ended is not counted */
        uint64_t fmi = sh->fmi_ns, dl = sh->dl_ns;
        if (n > 0) {
            const fmuc_w_call *lc = n - 1 < FMUC_W_TRACE_HEAD ? &sh->head[n - 1]
                                                              : &sh->tail[(n - 1) % FMUC_W_TRACE_TAIL];
            if (lc->seq == n - 1 && lc->state != FMUC_W_CALL_RUNNING && lc->timed == 1)
                fmi += lc->dt_ns;
            else if (lc->seq == n - 1 && lc->state != FMUC_W_CALL_RUNNING && lc->timed == 2)
                dl += lc->dt_ns;
        }
        out->fmi_time_s = 1e-9 * (double)fmi;
        out->lib_time_s = 1e-9 * (double)dl;
    }

    out->allocs = sh->allocs;
    out->frees = sh->frees;
    out->live_bytes = sh->live_bytes;
    out->bad_frees = sh->bad_frees;

    out->load_attempted = sh->load_attempted != 0;
    out->load_ok = sh->load_ok != 0;
    copy_str(out->load_error, sizeof out->load_error, sh->load_error, sizeof sh->load_error);
    if (sh->missing_mask) {
        out->missing = cJSON_CreateArray();
        for (i = 0; i < FMUC_FMI_NFUNCTIONS; i++)
            if (sh->missing_mask & (1ull << i))
                cJSON_AddItemToArray(out->missing, cJSON_CreateString(fn_names[i]));
    }
    if (sh->missing_mask3[0] || sh->missing_mask3[1]) {
        if (!out->missing)
            out->missing = cJSON_CreateArray();
        for (i = 0; i < FMUC_W_FN_FMI3_COUNT && i < 128; i++)
            if (sh->missing_mask3[i / 64] & (1ull << (i % 64)))
                cJSON_AddItemToArray(out->missing,
                                     cJSON_CreateString(fn_names[FMUC_W_FN_FMI3_FIRST + i]));
    }

    out->buffer_violations_total = sh->bufv_total;
    if (sh->bufv_total) {
        uint64_t nb = sh->bufv_total < FMUC_W_BUFV_KEPT ? sh->bufv_total : FMUC_W_BUFV_KEPT;
        out->buffer_violations = cJSON_CreateArray();
        for (i = 0; i < nb && out->buffer_violations; i++) {
            const fmuc_w_bufv *v = &sh->bufv[i];
            cJSON *o = cJSON_CreateObject();
            char text[FMUC_W_CALL_TEXT], arr[sizeof v->array];
            if (!o)
                break;
            cJSON_AddStringToObject(o, "function",
                                    v->call.fn < FMUC_W_FN_COUNT ? fn_names[v->call.fn] : "?");
            fmuc_trace__format(&v->call, text, sizeof text);
            cJSON_AddStringToObject(o, "call", text);
            copy_str(arr, sizeof arr, v->array, sizeof v->array);
            cJSON_AddStringToObject(o, "array", arr);
            int over = v->kind == FMUC_W_BUFV_OVERRUN || v->kind == FMUC_W_BUFV_OVERRUN_ALL;
            cJSON_AddStringToObject(o, "kind", over ? "overrun"
                                               : v->kind == FMUC_W_BUFV_INPUT_CHANGED
                                                   ? "input-changed"
                                                   : "?");
            cJSON_AddNumberToObject(o, "length", (double)v->length);
            cJSON_AddNumberToObject(o, "elementSize", (double)v->elem_size);
            if (over) {
                cJSON_AddNumberToObject(o, "bytesPast", (double)v->amount);
                /* the whole guard zone: the FMU wrote at least that far */
                cJSON_AddBoolToObject(o, "beyondGuard", v->kind == FMUC_W_BUFV_OVERRUN_ALL);
                cJSON_AddNumberToObject(
                    o, "elementsPast",
                    v->elem_size ? (double)((v->amount + v->elem_size - 1) / v->elem_size)
                                 : (double)v->amount);
            } else {
                cJSON_AddNumberToObject(o, "index", (double)v->amount);
            }
            cJSON_AddItemToArray(out->buffer_violations, o);
        }
    }

    out->log_total = sh->log_total;
    nlog = sh->log_total < FMUC_W_LOG_KEPT ? (size_t)sh->log_total : FMUC_W_LOG_KEPT;
    out->log = cJSON_CreateArray();
    for (i = 0; i < nlog; i++) {
        const fmuc_w_log *l = &sh->log[i];
        cJSON *o = cJSON_CreateObject();
        char sbuf[32];
        if (!o)
            break;
        if (!(l->flags & FMUC_W_LOG_FMI3)) /* FMI 3.0's logMessage has no instance name */
            add_opt_string(o, "instance", l->instance, sizeof l->instance,
                           (l->flags & FMUC_W_LOG_INST_NULL) != 0);
        cJSON_AddStringToObject(o, "status",
                                status_text_v(l->flags & FMUC_W_LOG_FMI3 ? 3
                                              : sh->fmi1 == 1           ? 1
                                                                        : 2,
                                              l->status, sbuf, sizeof sbuf));
        add_opt_string(o, "category", l->category, sizeof l->category,
                       (l->flags & FMUC_W_LOG_CAT_NULL) != 0);
        add_opt_string(o, "message", l->message, sizeof l->message,
                       (l->flags & FMUC_W_LOG_MSG_NULL) != 0);
        if (l->flags & FMUC_W_LOG_RAW)
            cJSON_AddBoolToObject(o, "raw", 1);
        if (l->flags & FMUC_W_LOG_TRUNCATED)
            cJSON_AddBoolToObject(o, "truncated", 1);
        if (l->flags & FMUC_W_LOG_ENV_MISMATCH)
            cJSON_AddBoolToObject(o, "env_mismatch", 1);
        cJSON_AddItemToArray(out->log, o);
    }
}
