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

static fmuc_w_call *slot(fmuc_w_shared *sh, uint64_t seq)
{
    return seq < FMUC_W_TRACE_HEAD ? &sh->head[seq] : &sh->tail[seq % FMUC_W_TRACE_TAIL];
}

/* Calls never nest, so when call seq begins, call seq-1 has returned: its duration moves into
 * the cumulative timers (the last call's is added by the parent when decoding). */
static void fold_previous(fmuc_w_shared *sh, uint64_t seq)
{
    fmuc_w_call *p;
    if (seq == 0)
        return;
    p = slot(sh, seq - 1);
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
    uint64_t seq = sh->ncalls;
    fmuc_w_call *e = slot(sh, seq);

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
        const fmuc_w_call *e = slot(sh, sh->ncalls - 1);
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

void fmuc_trace__end(fmuc_w_call *e, int status, uint32_t state)
{
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

/* the first values of a real (is_real) or integer array argument, from d[] or i[] */
static void put_vals(tbuf *b, const fmuc_w_call *e, int is_real)
{
    size_t i, m = kept(e->n[0], FMUC_W_VAL_KEPT);
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
    if (e->n[0] > FMUC_W_VAL_KEPT)
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

/* The arguments of an FMI 1.0 call (inst_fmi1.c records them; the names are unprefixed). */
static void format_fmi1(tbuf *b, const fmuc_w_call *e)
{
    switch (e->fn) {
    case FMUC_W_FN1_fmiSetDebugLogging:
        put(b, "loggingOn=%d", (int)e->i[0]);
        break;
    case FMUC_W_FN1_fmiInstantiateModel:
        put(b, "instanceName=\"");
        put_str(b, e, 0, 40);
        put(b, "\", GUID=\"");
        put_str(b, e, 1, 60);
        put(b, "\", loggingOn=%d", (int)e->i[0]);
        break;
    case FMUC_W_FN1_fmiInstantiateSlave:
        put(b, "instanceName=\"");
        put_str(b, e, 0, 40);
        put(b, "\", fmuGUID=\"");
        put_str(b, e, 1, 60);
        put(b, "\", timeout=%.10g, visible=%d, interactive=%d, loggingOn=%d", e->d[0],
            (int)e->i[0], (int)e->i[1], (int)e->i[2]);
        break;
    case FMUC_W_FN1_fmiFreeModelInstance:
    case FMUC_W_FN1_fmiFreeSlaveInstance:
        put(b, "%s", e->flags & FMUC_W_A_NULLP ? "NULL" : "c");
        break;
    case FMUC_W_FN1_fmiGetReal:
    case FMUC_W_FN1_fmiGetInteger:
    case FMUC_W_FN1_fmiGetBoolean:
    case FMUC_W_FN1_fmiGetString:
    case FMUC_W_FN1_fmiSetString:
    case FMUC_W_FN1_fmiSetRealInputDerivatives:
    case FMUC_W_FN1_fmiGetRealOutputDerivatives:
        put_vrs(b, e, 0);
        break;
    case FMUC_W_FN1_fmiSetReal:
    case FMUC_W_FN1_fmiSetInteger:
    case FMUC_W_FN1_fmiSetBoolean:
        put_vrs(b, e, 0);
        put(b, ", value=[");
        put_vals(b, e, e->fn == FMUC_W_FN1_fmiSetReal);
        put(b, "]");
        break;
    case FMUC_W_FN1_fmiSetTime:
        put(b, "t=%.10g", e->d[0]);
        break;
    case FMUC_W_FN1_fmiSetContinuousStates:
        put(b, "x=[");
        put_vals(b, e, 1);
        put(b, "], nx=%llu", (unsigned long long)e->n[0]);
        break;
    case FMUC_W_FN1_fmiGetDerivatives:
    case FMUC_W_FN1_fmiGetContinuousStates:
    case FMUC_W_FN1_fmiGetNominalContinuousStates:
    case FMUC_W_FN1_fmiGetStateValueReferences:
        put(b, "nx=%llu", (unsigned long long)e->n[0]);
        break;
    case FMUC_W_FN1_fmiGetEventIndicators:
        put(b, "ni=%llu", (unsigned long long)e->n[0]);
        break;
    case FMUC_W_FN1_fmiInitialize:
        put(b, "toleranceControlled=%d, relativeTolerance=%.10g", (int)e->i[0], e->d[0]);
        break;
    case FMUC_W_FN1_fmiEventUpdate:
        put(b, "intermediateResults=%d", (int)e->i[0]);
        break;
    case FMUC_W_FN1_fmiInitializeSlave:
        put(b, "tStart=%.10g, StopTimeDefined=%d, tStop=%.10g", e->d[0], (int)e->i[0], e->d[1]);
        break;
    case FMUC_W_FN1_fmiDoStep:
        put(b, "t=%.10g, h=%.10g, newStep=%d", e->d[0], e->d[1], (int)e->i[0]);
        break;
    case FMUC_W_FN1_fmiGetStatus:
    case FMUC_W_FN1_fmiGetRealStatus:
    case FMUC_W_FN1_fmiGetIntegerStatus:
    case FMUC_W_FN1_fmiGetBooleanStatus:
    case FMUC_W_FN1_fmiGetStringStatus:
        put(b, "kind=%d", (int)e->i[0]);
        break;
    default:
        break;
    }
}

/* FMI 3.0 lists: vr list 0 and the number of values (n[1]); the first values of a set call in
 * d[] (real) or i[] (integers), kept up to FMUC_W_VAL_KEPT */
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

static void put_vals3(tbuf *b, const fmuc_w_call *e, int is_real)
{
    size_t i, m = kept(e->n[1], FMUC_W_VAL_KEPT);
    put(b, ", values=[");
    if (e->flags & FMUC_W_A_NULL1) {
        put(b, "NULL]");
        return;
    }
    for (i = 0; i < m; i++) {
        if (is_real)
            put(b, "%s%.10g", i ? "," : "", e->d[i]);
        else
            put(b, "%s%d", i ? "," : "", (int)e->i[i]);
    }
    put(b, "%s]", e->n[1] > FMUC_W_VAL_KEPT ? ",..." : "");
}

static void format3(tbuf *b, const fmuc_w_call *e)
{
    unsigned fn = e->fn;
    switch (fn) {
    case FMUC_W_FN_fmi3SetDebugLogging:
        put(b, "loggingOn=%d, nCategories=%llu", (int)e->i[0], (unsigned long long)e->n[0]);
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
    case FMUC_W_FN_fmi3FreeInstance:
        put(b, "%s", e->flags & FMUC_W_A_NULLP ? "NULL" : "instance");
        return;
    case FMUC_W_FN_fmi3EnterInitializationMode:
        put(b, "toleranceDefined=%d, tolerance=%.10g, startTime=%.10g, stopTimeDefined=%d, "
               "stopTime=%.10g",
            (int)e->i[0], e->d[0], e->d[1], (int)e->i[1], e->d[2]);
        return;
    case FMUC_W_FN_fmi3SetFloat32:
    case FMUC_W_FN_fmi3SetFloat64:
        put_vrs3(b, e);
        put_vals3(b, e, 1);
        return;
    case FMUC_W_FN_fmi3SetInt8:
    case FMUC_W_FN_fmi3SetUInt8:
    case FMUC_W_FN_fmi3SetInt16:
    case FMUC_W_FN_fmi3SetUInt16:
    case FMUC_W_FN_fmi3SetInt32:
    case FMUC_W_FN_fmi3SetUInt32:
    case FMUC_W_FN_fmi3SetInt64:
    case FMUC_W_FN_fmi3SetUInt64:
    case FMUC_W_FN_fmi3SetBoolean:
    case FMUC_W_FN_fmi3SetClock:
        put_vrs3(b, e);
        put_vals3(b, e, 0);
        return;
    case FMUC_W_FN_fmi3GetFloat32:
    case FMUC_W_FN_fmi3GetFloat64:
    case FMUC_W_FN_fmi3GetInt8:
    case FMUC_W_FN_fmi3GetUInt8:
    case FMUC_W_FN_fmi3GetInt16:
    case FMUC_W_FN_fmi3GetUInt16:
    case FMUC_W_FN_fmi3GetInt32:
    case FMUC_W_FN_fmi3GetUInt32:
    case FMUC_W_FN_fmi3GetInt64:
    case FMUC_W_FN_fmi3GetUInt64:
    case FMUC_W_FN_fmi3GetBoolean:
    case FMUC_W_FN_fmi3GetString:
    case FMUC_W_FN_fmi3SetString:
    case FMUC_W_FN_fmi3GetBinary:
    case FMUC_W_FN_fmi3SetBinary:
    case FMUC_W_FN_fmi3GetClock:
    case FMUC_W_FN_fmi3GetOutputDerivatives:
    case FMUC_W_FN_fmi3GetIntervalDecimal:
    case FMUC_W_FN_fmi3GetIntervalFraction:
    case FMUC_W_FN_fmi3GetShiftDecimal:
    case FMUC_W_FN_fmi3GetShiftFraction:
    case FMUC_W_FN_fmi3SetIntervalDecimal:
    case FMUC_W_FN_fmi3SetIntervalFraction:
    case FMUC_W_FN_fmi3SetShiftDecimal:
    case FMUC_W_FN_fmi3SetShiftFraction:
        put_vrs3(b, e);
        return;
    case FMUC_W_FN_fmi3SetFMUState:
        put(b, "%s", e->flags & FMUC_W_A_NULLP ? "NULL" : "FMUState");
        return;
    case FMUC_W_FN_fmi3SerializeFMUState:
    case FMUC_W_FN_fmi3DeserializeFMUState:
        put(b, "size=%llu", (unsigned long long)e->n[0]);
        return;
    case FMUC_W_FN_fmi3GetDirectionalDerivative:
    case FMUC_W_FN_fmi3GetAdjointDerivative:
        put(b, "unknowns ");
        put_vrs(b, e, 0);
        put(b, "; knowns ");
        put_vrs(b, e, 1);
        put(b, "; nSeed=%d, nSensitivity=%d", (int)e->i[0], (int)e->i[1]);
        return;
    case FMUC_W_FN_fmi3CompletedIntegratorStep:
        put(b, "noSetFMUStatePriorToCurrentPoint=%d", (int)e->i[0]);
        return;
    case FMUC_W_FN_fmi3SetTime:
        put(b, "time=%.10g", e->d[0]);
        return;
    case FMUC_W_FN_fmi3SetContinuousStates:
        put(b, "continuousStates=[");
        put_vals(b, e, 1);
        put(b, "], nContinuousStates=%llu", (unsigned long long)e->n[0]);
        return;
    case FMUC_W_FN_fmi3GetContinuousStateDerivatives:
    case FMUC_W_FN_fmi3GetContinuousStates:
    case FMUC_W_FN_fmi3GetNominalsOfContinuousStates:
        put(b, "nContinuousStates=%llu", (unsigned long long)e->n[0]);
        return;
    case FMUC_W_FN_fmi3GetEventIndicators:
        put(b, "nEventIndicators=%llu", (unsigned long long)e->n[0]);
        return;
    case FMUC_W_FN_fmi3DoStep:
        put(b, "t=%.10g, h=%.10g, noSet=%d", e->d[0], e->d[1], (int)e->i[0]);
        return;
    case FMUC_W_FN_fmi3ActivateModelPartition:
        put(b, "clockReference=%u, activationTime=%.10g", e->vr[0][0], e->d[0]);
        return;
    case FMUC_W_FN_fmi3GetNumberOfVariableDependencies:
    case FMUC_W_FN_fmi3GetVariableDependencies:
        put(b, "vr=%u", e->vr[0][0]);
        return;
    default:
        return;
    }
}

const char *fmuc_trace__fn_name(unsigned fn)
{
    return fn < FMUC_W_FN_COUNT && fn_names[fn] ? fn_names[fn] : "?";
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
    if (e->state == FMUC_W_CALL_NOT_PROVIDED) {
        put(&b, ")");
        return;
    }
    if (fmuc_w_fn_version(fn) == 3) {
        format3(&b, e);
        put(&b, ")");
        return;
    }
    switch (fn) {
    case FMUC_W_FN_fmi2SetDebugLogging:
        put(&b, "loggingOn=%d, nCategories=%llu", (int)e->i[0], (unsigned long long)e->n[0]);
        break;
    case FMUC_W_FN_fmi2Instantiate:
        put(&b, "instanceName=\"");
        put_str(&b, e, 0, 40);
        put(&b, "\", fmuType=%s, guid=\"", e->i[0] == fmi2CoSimulation ? "CS" : "ME");
        put_str(&b, e, 1, 60);
        put(&b, "\", visible=%d, loggingOn=%d%s", (int)e->i[1], (int)e->i[2],
            e->flags & FMUC_W_A_NULLP ? ", functions=NULL" : "");
        break;
    case FMUC_W_FN_fmi2FreeInstance:
        put(&b, "%s", e->flags & FMUC_W_A_NULLP ? "NULL" : "c");
        break;
    case FMUC_W_FN_fmi2SetupExperiment:
        put(&b,
            "toleranceDefined=%d, tolerance=%.10g, startTime=%.10g, stopTimeDefined=%d, "
            "stopTime=%.10g",
            (int)e->i[0], e->d[0], e->d[1], (int)e->i[1], e->d[2]);
        break;
    case FMUC_W_FN_fmi2GetReal:
    case FMUC_W_FN_fmi2GetInteger:
    case FMUC_W_FN_fmi2GetBoolean:
    case FMUC_W_FN_fmi2GetString:
    case FMUC_W_FN_fmi2SetString:
    case FMUC_W_FN_fmi2SetRealInputDerivatives:
    case FMUC_W_FN_fmi2GetRealOutputDerivatives:
        put_vrs(&b, e, 0);
        break;
    case FMUC_W_FN_fmi2SetReal:
    case FMUC_W_FN_fmi2SetInteger:
    case FMUC_W_FN_fmi2SetBoolean:
        put_vrs(&b, e, 0);
        put(&b, ", value=[");
        put_vals(&b, e, fn == FMUC_W_FN_fmi2SetReal);
        put(&b, "]");
        break;
    case FMUC_W_FN_fmi2SetFMUstate:
        put(&b, "%s", e->flags & FMUC_W_A_NULLP ? "NULL" : "state");
        break;
    case FMUC_W_FN_fmi2SerializeFMUstate:
    case FMUC_W_FN_fmi2DeSerializeFMUstate:
        put(&b, "size=%llu", (unsigned long long)e->n[0]);
        break;
    case FMUC_W_FN_fmi2GetDirectionalDerivative:
        put(&b, "unknown ");
        put_vrs(&b, e, 0);
        put(&b, "; known ");
        put_vrs(&b, e, 1);
        break;
    case FMUC_W_FN_fmi2CompletedIntegratorStep:
        put(&b, "noSetFMUStatePriorToCurrentPoint=%d", (int)e->i[0]);
        break;
    case FMUC_W_FN_fmi2SetTime:
        put(&b, "t=%.10g", e->d[0]);
        break;
    case FMUC_W_FN_fmi2SetContinuousStates:
        put(&b, "x=[");
        put_vals(&b, e, 1);
        put(&b, "], nx=%llu", (unsigned long long)e->n[0]);
        break;
    case FMUC_W_FN_fmi2GetDerivatives:
    case FMUC_W_FN_fmi2GetContinuousStates:
    case FMUC_W_FN_fmi2GetNominalsOfContinuousStates:
        put(&b, "nx=%llu", (unsigned long long)e->n[0]);
        break;
    case FMUC_W_FN_fmi2GetEventIndicators:
        put(&b, "ni=%llu", (unsigned long long)e->n[0]);
        break;
    case FMUC_W_FN_fmi2DoStep:
        put(&b, "t=%.10g, h=%.10g, noSet=%d", e->d[0], e->d[1], (int)e->i[0]);
        break;
    case FMUC_W_FN_fmi2GetStatus:
    case FMUC_W_FN_fmi2GetRealStatus:
    case FMUC_W_FN_fmi2GetIntegerStatus:
    case FMUC_W_FN_fmi2GetBooleanStatus:
    case FMUC_W_FN_fmi2GetStringStatus:
        put(&b, "kind=%d", (int)e->i[0]);
        break;
    case FMUC_W_FN_DLOPEN:
    case FMUC_W_FN_DLCLOSE:
        put_str(&b, e, 0, FMUC_W_STR_KEPT);
        break;
    default:
        if (fn >= FMUC_W_FN1_FIRST)
            format_fmi1(&b, e);
        break;
    }
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
            cJSON_AddStringToObject(o, "kind", v->kind == FMUC_W_BUFV_OVERRUN ? "overrun"
                                               : v->kind == FMUC_W_BUFV_INPUT_CHANGED
                                                   ? "input-changed"
                                                   : "?");
            cJSON_AddNumberToObject(o, "length", (double)v->length);
            cJSON_AddNumberToObject(o, "elementSize", (double)v->elem_size);
            if (v->kind == FMUC_W_BUFV_OVERRUN) {
                cJSON_AddNumberToObject(o, "bytesPast", (double)v->amount);
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
