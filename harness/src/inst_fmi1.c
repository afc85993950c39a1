/* The FMI 1.0 table of the instance API (inst_internal.h): FMI 1.0 is two standards, Model
 * Exchange 1.0 and Co-Simulation 1.0, whose functions are exported with the prefix
 * "<modelIdentifier>_" (fmi1.h). The library of the interface is opened with fmuc_loader__open
 * and every function of both standards is resolved under the model description's
 * modelIdentifier; the table lives in ctx->ver_lib[k]. Every call is traced with its unprefixed
 * name ("fmiDoStep(t=0, h=0.1, newStep=1)").
 *
 * The life cycle (fmuc_inst.h has the version-neutral mapping):
 *   setup_experiment           no call (inst.c keeps the values)
 *   enter_initialization_mode  ME: fmiSetTime(start) (1.0 ME sets the start time before
 *                              fmiInitialize); CS: no call
 *   exit_initialization_mode   ME: fmiInitialize(toleranceControlled, relativeTolerance,
 *                              &eventInfo); CS: fmiInitializeSlave(tStart, StopTimeDefined, tStop)
 *   update_discrete_states     fmiEventUpdate(intermediateResults=false, &eventInfo); the first one
 *                              after fmiInitialize returns fmiInitialize's eventInfo without a call
 *                              when that iteration had converged (1.0 ME: fmiInitialize performs
 *                              the initial event iteration, as FMPy's 1.0 simulation assumes)
 *   enter_event_mode, enter_continuous_time_mode: no call (1.0 has no such modes), OK
 *   do_step                    fmiDoStep(t, h, newStep=true)
 *   reset                      CS: fmiResetSlave; ME: none
 * FMU state, directional derivatives, fmiTerminated: the version has none (NOT_PROVIDED, no
 * trace entry). fmiBoolean is a char: Boolean values pass through a char array. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "inst_internal.h"
#include "worker_internal.h"

_Static_assert(sizeof(fmuc_vr) == sizeof(fmiValueReference), "value reference width");
_Static_assert(sizeof(int32_t) == sizeof(fmiInteger), "fmiInteger is int32_t");
_Static_assert(FMUC_STATUS_PENDING == (int)fmiPending, "one status numbering");

/* The resolved functions of one library (both standards' names; the other standard's are NULL
 * in a conforming library). */
typedef struct fmi1_lib {
    fmuc_worker_ctx *ctx;
    int cs; /* the library of Co-Simulation 1.0 */
    char id[256];
#define FIELD_(ret, name, params) name##TYPE name;
    FMUC_FMI1_SHARED_FUNCTIONS(FIELD_)
    FMUC_FMI1_ME_ONLY_FUNCTIONS(FIELD_)
    FMUC_FMI1_CS_ONLY_FUNCTIONS(FIELD_)
#undef FIELD_
    const char *missing[FMUC_FMI1_CS_COUNT > FMUC_FMI1_ME_COUNT ? FMUC_FMI1_CS_COUNT
                                                                 : FMUC_FMI1_ME_COUNT];
    size_t nmissing;
} fmi1_lib;

/* Both standards' lists: Model Exchange's (its own functions, then the shared ones), then
 * Co-Simulation's; the shared functions stand in both, needed by each. */
static const fmuc_inst_fn fn_table[] = {
#define ME_(ret, name, params) {#name, offsetof(fmi1_lib, name), FMUC_INST_FN_ME},
#define CS_(ret, name, params) {#name, offsetof(fmi1_lib, name), FMUC_INST_FN_CS},
    FMUC_FMI1_ME_FUNCTIONS(ME_) FMUC_FMI1_CS_FUNCTIONS(CS_)
#undef ME_
#undef CS_
};
static const fmuc_inst_fns fns = {fn_table, sizeof fn_table / sizeof fn_table[0],
                                  offsetof(fmi1_lib, missing), offsetof(fmi1_lib, nmissing)};

/* per instance (in->priv) */
typedef struct fmi1_priv {
    int pending;          /* fmiInitialize's eventInfo not yet handed out */
    fmiEventInfo init_ei; /* that eventInfo */
} fmi1_priv;

#define L_(in) ((const fmi1_lib *)(in)->lib)
#define C_(in) ((fmiComponent)(in)->c)
#define VR_(vr) ((const fmiValueReference *)(vr))

static const char *const op_names[FMUC_INST_NOPS] = {
    [FMUC_INST_OP_INSTANTIATE] = "fmiInstantiateModel/fmiInstantiateSlave",
    [FMUC_INST_OP_FREE] = "fmiFreeModelInstance/fmiFreeSlaveInstance",
    [FMUC_INST_OP_ENTER_INIT] = "fmiSetTime",
    [FMUC_INST_OP_EXIT_INIT] = "fmiInitialize/fmiInitializeSlave",
    [FMUC_INST_OP_TERMINATE] = "fmiTerminate/fmiTerminateSlave",
    [FMUC_INST_OP_RESET] = "fmiResetSlave",
    [FMUC_INST_OP_GET_FLOAT64] = "fmiGetReal",
    [FMUC_INST_OP_SET_FLOAT64] = "fmiSetReal",
    [FMUC_INST_OP_DO_STEP] = "fmiDoStep",
    [FMUC_INST_OP_CANCEL_STEP] = "fmiCancelStep",
    [FMUC_INST_OP_GET_STATUS] = "fmiGetStatus",
    [FMUC_INST_OP_UPDATE_DISCRETE_STATES] = "fmiEventUpdate",
    [FMUC_INST_OP_COMPLETED_INTEGRATOR_STEP] = "fmiCompletedIntegratorStep",
    [FMUC_INST_OP_SET_TIME] = "fmiSetTime",
    [FMUC_INST_OP_SET_STATES] = "fmiSetContinuousStates",
    [FMUC_INST_OP_GET_STATES] = "fmiGetContinuousStates",
    [FMUC_INST_OP_GET_DERIVATIVES] = "fmiGetDerivatives",
    [FMUC_INST_OP_GET_EVENT_INDICATORS] = "fmiGetEventIndicators",
    [FMUC_INST_OP_GET_NOMINALS] = "fmiGetNominalContinuousStates",
};

/* ---- tracing ------------------------------------------------------------------------------ */

static void not_provided(fmuc_worker_ctx *ctx, unsigned fn)
{
    fmuc_w_call *e = fmuc_trace__begin(ctx, fn);
    fmuc_trace__go(ctx, e);
    fmuc_trace__end(ctx, e, (int)FMUC_FMI_NOT_PROVIDED, FMUC_W_CALL_NOT_PROVIDED);
}

static fmuc_w_call *begin(const fmi1_lib *l, unsigned fn)
{
    fmuc_w_call *e = fmuc_trace__begin(l->ctx, fn);
    e->timed = 1;
    return e;
}

static fmuc_status end(const fmi1_lib *l, fmuc_w_call *e, fmiStatus st)
{
    fmuc_trace__end(l->ctx, e, (int)st, FMUC_W_CALL_RETURNED);
    return (fmuc_status)st;
}

/* Call l->name (args...) traced; fill is a statement setting e's arguments. */
#define CALL_(l, name, fill, ...)                                                              \
    do {                                                                                       \
        fmuc_w_call *e;                                                                        \
        fmiStatus st_;                                                                         \
        if (!(l)->name) {                                                                      \
            not_provided((l)->ctx, FMUC_W_FN1_##name);                                         \
            return FMUC_STATUS_NOT_PROVIDED;                                                   \
        }                                                                                      \
        e = begin((l), FMUC_W_FN1_##name);                                                     \
        fill;                                                                                  \
        fmuc_trace__go((l)->ctx, e);                                                           \
        st_ = (l)->name(__VA_ARGS__);                                                          \
        return end((l), e, st_);                                                                 \
    } while (0)

#define NOFILL_ ((void)e)

/* ---- library ------------------------------------------------------------------------------ */

static const char *model_identifier(const fmuc_fmu *fmu, int k)
{
    const fmuc_md *md = &fmu->md;
    const char *id = k ? md->cs.model_identifier : md->me.model_identifier;
    return id ? id : md->fmi1_model_identifier;
}

static int load(fmuc_worker_ctx *ctx, fmuc_iface iface, const void **lib)
{
    int k = iface == FMUC_IFACE_CS ? 1 : 0;
    const fmuc_fmu *fmu = fmuc_worker_fmu(ctx);
    fmi1_lib *l;
    const char *id;
    if (iface != FMUC_IFACE_ME && iface != FMUC_IFACE_CS)
        return -1;
    if (ctx->ver_lib[k]) {
        *lib = ctx->ver_lib[k];
        return 0;
    }
    ctx->sh->fmi1 = 1; /* the log's statuses are fmiStatus */
    if (!fmuc_loader__open(ctx, k))
        return -1;
    id = fmu && fmu->md_parsed ? model_identifier(fmu, k) : NULL;
    if (!id || !*id) {
        snprintf(ctx->sh->load_error, sizeof ctx->sh->load_error,
                 "no modelIdentifier in the model description: the FMI 1.0 function names "
                 "cannot be formed");
        ctx->sh->load_ok = 0;
        return -1;
    }
    l = calloc(1, sizeof *l);
    if (!l)
        return -1;
    l->ctx = ctx;
    l->cs = k;
    snprintf(l->id, sizeof l->id, "%s", id);
    fmuc_inst__resolve(ctx, k, l->id, &fns, l, NULL);
    ctx->ver_lib[k] = l; /* lives as long as the worker */
    *lib = l;
    return 0;
}

static const char *string_fn(const fmi1_lib *l, unsigned fn, const char *(*f)(void))
{
    fmuc_w_call *e;
    const char *r;
    if (!f) {
        not_provided(l->ctx, fn);
        return NULL;
    }
    e = begin(l, fn);
    fmuc_trace__go(l->ctx, e);
    r = f();
    fmuc_trace__end(l->ctx, e, r != NULL, FMUC_W_CALL_RETURNED_PTR);
    return r;
}

static const char *lib_version(const void *lib)
{
    const fmi1_lib *l = lib;
    return string_fn(l, FMUC_W_FN1_fmiGetVersion, l->fmiGetVersion);
}

static const char *lib_types_platform(const void *lib)
{
    const fmi1_lib *l = lib;
    return l->cs ? string_fn(l, FMUC_W_FN1_fmiGetTypesPlatform, l->fmiGetTypesPlatform)
                 : string_fn(l, FMUC_W_FN1_fmiGetModelTypesPlatform, l->fmiGetModelTypesPlatform);
}

static void free_call(const fmi1_lib *l, int cs, fmiComponent c)
{
    unsigned fn = cs ? FMUC_W_FN1_fmiFreeSlaveInstance : FMUC_W_FN1_fmiFreeModelInstance;
    void (*f)(fmiComponent) = cs ? l->fmiFreeSlaveInstance : l->fmiFreeModelInstance;
    fmuc_w_call *e;
    if (!f) {
        not_provided(l->ctx, fn);
        return;
    }
    e = begin(l, fn);
    if (!c)
        e->flags |= FMUC_W_A_NULLP;
    fmuc_trace__go(l->ctx, e);
    f(c);
    fmuc_trace__end(l->ctx, e, 0, FMUC_W_CALL_RETURNED_VOID);
}

static void lib_free_null(const void *lib)
{
    const fmi1_lib *l = lib;
    free_call(l, l->cs, NULL);
}

/* ---- instance ----------------------------------------------------------------------------- */

/* "file:///dir" of the unzipped FMU (1.0 CS fmuLocation): the resource URI without
 * "/resources/", no trailing slash, as FMPy passes it (the Reference-FMUs append "/resources") */
static void fmu_location(const fmuc_fmu *fmu, char *out, size_t n)
{
    const char *r = fmu ? fmu->resource_uri : NULL;
    size_t len;
    out[0] = '\0';
    if (!r)
        return;
    len = strlen(r);
    while (len > 0 && r[len - 1] == '/')
        len--;
    if (len >= 10 && strncmp(r + len - 10, "/resources", 10) == 0)
        len -= 10;
    if (len >= n)
        return;
    memcpy(out, r, len);
    out[len] = '\0';
}

static void *instantiate(fmuc_inst *in, const fmuc_inst_args *a)
{
    const fmi1_lib *l = L_(in);
    const fmuc_fmu *fmu = fmuc_worker_fmu(in->ctx);
    const char *guid = a->token;
    fmuc_w_call *e;
    fmiComponent c;
    fmi1_priv *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    in->priv = p;
    if (a->token_null)
        guid = NULL;
    else if (!guid && fmu && fmu->md_parsed)
        guid = fmu->md.guid;
    if (in->iface == FMUC_IFACE_CS) {
        fmiCSCallbackFunctions cb = fmuc_callbacks__fmi1_cs(in->ctx);
        char loc[4096];
        if (a->no_memory_callbacks)
            cb.allocateMemory = NULL, cb.freeMemory = NULL;
        if (!l->fmiInstantiateSlave) {
            not_provided(l->ctx, FMUC_W_FN1_fmiInstantiateSlave);
            return NULL;
        }
        fmu_location(fmu, loc, sizeof loc);
        e = begin(l, FMUC_W_FN1_fmiInstantiateSlave);
        fmuc_trace__str(e, 0, a->name);
        fmuc_trace__str(e, 1, guid);
        e->d[0] = 0.0;
        e->i[0] = a->visible;
        e->i[1] = 0;
        e->i[2] = a->logging_on;
        fmuc_trace__go(l->ctx, e);
        c = l->fmiInstantiateSlave(a->name, guid, loc, "application/x-fmu-sharedlibrary", 0.0,
                                   (fmiBoolean)(a->visible != 0), fmiFalse, cb,
                                   (fmiBoolean)(a->logging_on != 0));
    } else {
        fmiMECallbackFunctions cb = fmuc_callbacks__fmi1_me(in->ctx);
        if (a->no_memory_callbacks)
            cb.allocateMemory = NULL, cb.freeMemory = NULL;
        if (!l->fmiInstantiateModel) {
            not_provided(l->ctx, FMUC_W_FN1_fmiInstantiateModel);
            return NULL;
        }
        e = begin(l, FMUC_W_FN1_fmiInstantiateModel);
        fmuc_trace__str(e, 0, a->name);
        fmuc_trace__str(e, 1, guid);
        e->i[0] = a->logging_on;
        fmuc_trace__go(l->ctx, e);
        c = l->fmiInstantiateModel(a->name, guid, cb, (fmiBoolean)(a->logging_on != 0));
    }
    fmuc_trace__end(l->ctx, e, c != NULL, FMUC_W_CALL_RETURNED_PTR);
    return c;
}

static void free_instance(fmuc_inst *in)
{
    free_call(L_(in), in->iface == FMUC_IFACE_CS, C_(in));
}

static fmuc_status set_debug_logging(fmuc_inst *in, int on, size_t ncat, const char *const cats[])
{
    const fmi1_lib *l = L_(in);
    (void)ncat; /* 1.0 has no log categories */
    (void)cats;
    CALL_(l, fmiSetDebugLogging, e->i[0] = on, C_(in), (fmiBoolean)(on != 0));
}

static fmuc_status no_call(fmuc_inst *in, const fmuc_inst_experiment *e)
{
    (void)in;
    (void)e;
    return FMUC_STATUS_OK;
}

static fmuc_status set_time(fmuc_inst *in, double t)
{
    const fmi1_lib *l = L_(in);
    ((fmi1_priv *)in->priv)->pending = 0;
    CALL_(l, fmiSetTime, e->d[0] = t, C_(in), t);
}

static fmuc_status enter_initialization_mode(fmuc_inst *in)
{
    if (in->iface == FMUC_IFACE_CS)
        return FMUC_STATUS_OK;
    return set_time(in, in->exp.start);
}

static fmuc_status exit_initialization_mode(fmuc_inst *in)
{
    const fmi1_lib *l = L_(in);
    fmi1_priv *p = in->priv;
    if (in->iface == FMUC_IFACE_CS) {
        CALL_(l, fmiInitializeSlave,
              (e->d[0] = in->exp.start, e->i[0] = in->exp.stop_defined, e->d[1] = in->exp.stop),
              C_(in), in->exp.start, (fmiBoolean)(in->exp.stop_defined != 0), in->exp.stop);
    }
    {
        fmuc_w_call *e;
        fmiStatus st;
        int tc = in->exp.tolerance_defined != 0;
        double tol = tc ? in->exp.tolerance : 0.0;
        p->pending = 0;
        if (!l->fmiInitialize) {
            not_provided(l->ctx, FMUC_W_FN1_fmiInitialize);
            return FMUC_STATUS_NOT_PROVIDED;
        }
        memset(&p->init_ei, 0, sizeof p->init_ei);
        e = begin(l, FMUC_W_FN1_fmiInitialize);
        e->i[0] = tc;
        e->d[0] = tol;
        fmuc_trace__go(l->ctx, e);
        st = l->fmiInitialize(C_(in), (fmiBoolean)tc, tol, &p->init_ei);
        p->pending = (st == fmiOK || st == fmiWarning) && p->init_ei.iterationConverged;
        return end(l, e, st);
    }
}

static fmuc_status terminate(fmuc_inst *in)
{
    const fmi1_lib *l = L_(in);
    if (in->iface == FMUC_IFACE_CS)
        CALL_(l, fmiTerminateSlave, NOFILL_, C_(in));
    CALL_(l, fmiTerminate, NOFILL_, C_(in));
}

static fmuc_status reset(fmuc_inst *in)
{
    const fmi1_lib *l = L_(in);
    if (in->iface != FMUC_IFACE_CS)
        return FMUC_STATUS_NOT_PROVIDED; /* ME 1.0 has no reset */
    CALL_(l, fmiResetSlave, NOFILL_, C_(in));
}

/* ---- values ------------------------------------------------------------------------------- */

#define BOOL_GUARD 64 /* bytes of guard behind the fmiBoolean array the FMU fills */

static fmuc_status get_booleans(fmuc_inst *in, const fmuc_vr *vr, size_t nvr, int *values)
{
    const fmi1_lib *l = L_(in);
    /* the FMU fills a char array of ours: guarded like every output array (inst.c) */
    fmiBoolean *tmp = !values || nvr > SIZE_MAX - BOOL_GUARD ? NULL : calloc(nvr + BOOL_GUARD, 1);
    fmuc_w_call *e;
    fmiStatus st;
    if (values && !tmp)
        return FMUC_STATUS_ERROR;
    for (size_t i = 0; tmp && i < BOOL_GUARD; i++)
        tmp[nvr + i] = (fmiBoolean)(0x5A ^ i);
    if (!l->fmiGetBoolean) {
        not_provided(l->ctx, FMUC_W_FN1_fmiGetBoolean);
        st = (fmiStatus)FMUC_STATUS_NOT_PROVIDED;
    } else {
        e = begin(l, FMUC_W_FN1_fmiGetBoolean);
        fmuc_trace__vrs(e, 0, VR_(vr), nvr);
        fmuc_trace__go(l->ctx, e);
        st = l->fmiGetBoolean(C_(in), VR_(vr), nvr, tmp);
        end(l, e, st);
        for (size_t i = 0; tmp && i < nvr; i++)
            values[i] = tmp[i] != fmiFalse;
        for (size_t i = BOOL_GUARD; tmp && i > 0; i--)
            if (tmp[nvr + i - 1] != (fmiBoolean)(0x5A ^ (i - 1))) {
                fmuc_trace__buffer_violation(in->ctx, FMUC_W_BUFV_OVERRUN, "value", nvr, 1, i);
                break;
            }
    }
    free(tmp);
    return (fmuc_status)st;
}

static fmuc_status get_integers(fmuc_inst *in, const fmuc_vr *vr, size_t nvr, fmiInteger *v)
{
    const fmi1_lib *l = L_(in);
    CALL_(l, fmiGetInteger, fmuc_trace__vrs(e, 0, VR_(vr), nvr), C_(in), VR_(vr), nvr, v);
}

static fmuc_status get(fmuc_inst *in, fmuc_inst_base type, const fmuc_vr *vr, size_t nvr,
                       void *values, size_t nvalues)
{
    const fmi1_lib *l = L_(in);
    (void)nvalues; /* FMI 1.0 variables are scalars: nvalues == nvr */
    switch (type) {
    case FMUC_INST_FLOAT64:
        CALL_(l, fmiGetReal, fmuc_trace__vrs(e, 0, VR_(vr), nvr), C_(in), VR_(vr), nvr, values);
    case FMUC_INST_INT32:
        return get_integers(in, vr, nvr, values);
    case FMUC_INST_BOOLEAN:
        return get_booleans(in, vr, nvr, values);
    case FMUC_INST_STRING:
        CALL_(l, fmiGetString, fmuc_trace__vrs(e, 0, VR_(vr), nvr), C_(in), VR_(vr), nvr,
              values);
    case FMUC_INST_ENUMERATION: {
        fmiInteger one = 0, *tmp = !values ? NULL : nvr <= 1 ? &one : malloc(nvr * sizeof *tmp);
        fmuc_status st;
        if (values && !tmp)
            return FMUC_STATUS_ERROR;
        st = get_integers(in, vr, nvr, tmp);
        for (size_t i = 0; tmp && i < nvr; i++)
            ((int64_t *)values)[i] = tmp[i];
        if (tmp != &one)
            free(tmp);
        return st;
    }
    default:
        return FMUC_STATUS_NOT_PROVIDED;
    }
}

static void keep_ints(fmuc_w_call *e, const fmiInteger *v, size_t n)
{
    e->n[0] = n;
    if (!v) {
        e->flags |= FMUC_W_A_NULL1;
        return;
    }
    for (size_t i = 0; i < n && i < FMUC_W_VAL_KEPT; i++)
        e->i[i] = v[i];
}

static fmuc_status set_integers(fmuc_inst *in, const fmuc_vr *vr, size_t nvr,
                                const fmiInteger *v)
{
    const fmi1_lib *l = L_(in);
    CALL_(l, fmiSetInteger, (fmuc_trace__vrs(e, 0, VR_(vr), nvr), keep_ints(e, v, nvr)), C_(in),
          VR_(vr), nvr, v);
}

static fmuc_status set_booleans(fmuc_inst *in, const fmuc_vr *vr, size_t nvr, const int *values)
{
    const fmi1_lib *l = L_(in);
    fmiBoolean one = 0, *tmp = !values ? NULL : nvr <= 1 ? &one : calloc(nvr, 1);
    fmuc_w_call *e;
    fmiStatus st;
    if (values && !tmp)
        return FMUC_STATUS_ERROR;
    for (size_t i = 0; tmp && i < nvr; i++)
        tmp[i] = values[i] ? fmiTrue : fmiFalse;
    if (!l->fmiSetBoolean) {
        not_provided(l->ctx, FMUC_W_FN1_fmiSetBoolean);
        st = (fmiStatus)FMUC_STATUS_NOT_PROVIDED;
    } else {
        e = begin(l, FMUC_W_FN1_fmiSetBoolean);
        fmuc_trace__vrs(e, 0, VR_(vr), nvr);
        keep_ints(e, values, nvr);
        fmuc_trace__go(l->ctx, e);
        st = l->fmiSetBoolean(C_(in), VR_(vr), nvr, tmp);
        end(l, e, st);
    }
    if (tmp != &one)
        free(tmp);
    return (fmuc_status)st;
}

static fmuc_status set(fmuc_inst *in, fmuc_inst_base type, const fmuc_vr *vr, size_t nvr,
                       const void *values, size_t nvalues)
{
    const fmi1_lib *l = L_(in);
    (void)nvalues;
    switch (type) {
    case FMUC_INST_FLOAT64:
        CALL_(l, fmiSetReal,
              (fmuc_trace__vrs(e, 0, VR_(vr), nvr), fmuc_trace__reals(e, values, nvr)), C_(in),
              VR_(vr), nvr, values);
    case FMUC_INST_INT32:
        return set_integers(in, vr, nvr, values);
    case FMUC_INST_BOOLEAN:
        return set_booleans(in, vr, nvr, values);
    case FMUC_INST_STRING:
        CALL_(l, fmiSetString, fmuc_trace__vrs(e, 0, VR_(vr), nvr), C_(in), VR_(vr), nvr,
              values);
    case FMUC_INST_ENUMERATION: {
        fmiInteger one = 0, *tmp = !values ? NULL : nvr <= 1 ? &one : malloc(nvr * sizeof *tmp);
        fmuc_status st;
        if (values && !tmp)
            return FMUC_STATUS_ERROR;
        for (size_t i = 0; tmp && i < nvr; i++)
            tmp[i] = (fmiInteger)((const int64_t *)values)[i];
        st = set_integers(in, vr, nvr, tmp);
        if (tmp != &one)
            free(tmp);
        return st;
    }
    default:
        return FMUC_STATUS_NOT_PROVIDED;
    }
}

/* ---- Co-Simulation ------------------------------------------------------------------------ */

static fmuc_status do_step(fmuc_inst *in, double t, double h, int no_set_prior,
                           fmuc_inst_step_info *info)
{
    const fmi1_lib *l = L_(in);
    (void)no_set_prior; /* 1.0 has newStep instead: every step the harness makes is new */
    if (info) {
        memset(info, 0, sizeof *info);
        info->last_successful_time = NAN;
    }
    CALL_(l, fmiDoStep, (e->d[0] = t, e->d[1] = h, e->i[0] = 1), C_(in), t, h, fmiTrue);
}

static fmuc_status cancel_step(fmuc_inst *in)
{
    const fmi1_lib *l = L_(in);
    CALL_(l, fmiCancelStep, NOFILL_, C_(in));
}

static fmuc_status status_query(fmuc_inst *in, fmuc_inst_query q, void *value)
{
    const fmi1_lib *l = L_(in);
    switch (q) {
    case FMUC_INST_Q_DO_STEP_STATUS:
        CALL_(l, fmiGetStatus, e->i[0] = fmiDoStepStatus, C_(in), fmiDoStepStatus, value);
    case FMUC_INST_Q_PENDING_STATUS:
        CALL_(l, fmiGetStringStatus, e->i[0] = fmiPendingStatus, C_(in), fmiPendingStatus, value);
    case FMUC_INST_Q_LAST_SUCCESSFUL_TIME:
        CALL_(l, fmiGetRealStatus, e->i[0] = fmiLastSuccessfulTime, C_(in),
              fmiLastSuccessfulTime, value);
    case FMUC_INST_Q_TERMINATED:
        break; /* 1.0 has no fmiTerminated status kind */
    }
    return FMUC_STATUS_NOT_PROVIDED;
}

/* The single value of a status query is guarded like an output array of one element (inst.c). */
static fmuc_status cs_status(fmuc_inst *in, fmuc_inst_query q, void *value)
{
    fmuc_inst__gout g;
    fmuc_status st;
    if (q == FMUC_INST_Q_DO_STEP_STATUS) {
        fmiStatus v = fmiOK;
        st = status_query(in, q, value ? fmuc_inst__gout_begin(&g, &v, 1, sizeof v) : NULL);
        if (value) {
            fmuc_inst__gout_end(in, &g, "value");
            *(int *)value = (int)v;
        }
        return st;
    }
    if (q == FMUC_INST_Q_TERMINATED)
        return FMUC_STATUS_NOT_PROVIDED; /* no such kind in 1.0; value is an int, not guarded */
    size_t es = q == FMUC_INST_Q_PENDING_STATUS ? sizeof(fmiString) : sizeof(fmiReal);
    st = status_query(in, q, fmuc_inst__gout_begin(&g, value, 1, es));
    fmuc_inst__gout_end(in, &g, "value");
    return st;
}

static fmuc_status integer_status_call(fmuc_inst *in, fmiStatusKind k, fmiInteger *v)
{
    const fmi1_lib *l = L_(in);
    CALL_(l, fmiGetIntegerStatus, e->i[0] = (int)k, C_(in), k, v);
}

/* fmiGetIntegerStatus: 1.0 has no Integer status kind, so the FMU is asked for the kind of q and
 * answers that it cannot give it (fmiDiscard, CS 1.0 fmiGetXXXStatus) */
static fmuc_status cs_integer_status(fmuc_inst *in, fmuc_inst_query q, int *value)
{
    if (q == FMUC_INST_Q_TERMINATED)
        return FMUC_STATUS_NOT_PROVIDED; /* no such kind in 1.0 */
    fmiStatusKind k = q == FMUC_INST_Q_PENDING_STATUS        ? fmiPendingStatus
                      : q == FMUC_INST_Q_LAST_SUCCESSFUL_TIME ? fmiLastSuccessfulTime
                                                              : fmiDoStepStatus;
    fmiInteger v = 0;
    fmuc_status st = integer_status_call(in, k, &v);
    if (value)
        *value = (int)v;
    return st;
}

static fmuc_status set_input_derivatives(fmuc_inst *in, const fmuc_vr *vr, size_t nvr,
                                         const int32_t *order, const double *v, size_t nv)
{
    const fmi1_lib *l = L_(in);
    (void)nv;
    CALL_(l, fmiSetRealInputDerivatives, fmuc_trace__vrs(e, 0, VR_(vr), nvr), C_(in), VR_(vr),
          nvr, order, v);
}

static fmuc_status get_output_derivatives(fmuc_inst *in, const fmuc_vr *vr, size_t nvr,
                                          const int32_t *order, double *v, size_t nv)
{
    const fmi1_lib *l = L_(in);
    (void)nv;
    CALL_(l, fmiGetRealOutputDerivatives, fmuc_trace__vrs(e, 0, VR_(vr), nvr), C_(in), VR_(vr),
          nvr, order, v);
}

/* ---- Model Exchange ----------------------------------------------------------------------- */

static fmuc_status mode_change(fmuc_inst *in)
{
    ((fmi1_priv *)in->priv)->pending = 0;
    return FMUC_STATUS_OK; /* 1.0 has no Event / Continuous-Time Mode: nothing to call */
}

static void event_info_out(const fmiEventInfo *ei, fmuc_inst_event_info *info)
{
    info->new_discrete_states_needed = !ei->iterationConverged;
    info->terminate_simulation = ei->terminateSimulation != fmiFalse;
    info->nominals_changed = ei->stateValueReferencesChanged != fmiFalse;
    info->values_changed = ei->stateValuesChanged != fmiFalse;
    info->next_event_time_defined = ei->upcomingTimeEvent != fmiFalse;
    info->next_event_time = ei->nextEventTime;
}

static fmuc_status update_discrete_states(fmuc_inst *in, fmuc_inst_event_info *info)
{
    const fmi1_lib *l = L_(in);
    fmi1_priv *p = in->priv;
    fmiEventInfo ei;
    fmuc_w_call *e;
    fmiStatus st;
    if (in->iface == FMUC_IFACE_CS)
        return FMUC_STATUS_NOT_PROVIDED;
    if (p->pending) {
        p->pending = 0;
        event_info_out(&p->init_ei, info);
        info->from_initialize = 1;
        return FMUC_STATUS_OK;
    }
    if (!l->fmiEventUpdate) {
        not_provided(l->ctx, FMUC_W_FN1_fmiEventUpdate);
        return FMUC_STATUS_NOT_PROVIDED;
    }
    memset(&ei, 0, sizeof ei);
    e = begin(l, FMUC_W_FN1_fmiEventUpdate);
    e->i[0] = 0;
    fmuc_trace__go(l->ctx, e);
    st = l->fmiEventUpdate(C_(in), fmiFalse, &ei);
    event_info_out(&ei, info);
    return end(l, e, st);
}

static fmuc_status completed_integrator_step(fmuc_inst *in, int no_set_prior, int *enter, int *term)
{
    const fmi1_lib *l = L_(in);
    /* a fill byte that is neither fmiTrue nor fmiFalse: left there, the FMU did not write
     * callEventUpdate, and the caller's *enter stays as it was (fmuc_inst.h) */
    fmiBoolean call_event_update = (fmiBoolean)FMUC_INST__BOOL_FILL;
    fmuc_w_call *e;
    fmiStatus st;
    (void)no_set_prior;
    if (term)
        *term = 0;
    if (!l->fmiCompletedIntegratorStep) {
        not_provided(l->ctx, FMUC_W_FN1_fmiCompletedIntegratorStep);
        return FMUC_STATUS_NOT_PROVIDED;
    }
    e = begin(l, FMUC_W_FN1_fmiCompletedIntegratorStep);
    fmuc_trace__go(l->ctx, e);
    st = l->fmiCompletedIntegratorStep(C_(in), enter ? &call_event_update : NULL);
    if (enter && (unsigned char)call_event_update != FMUC_INST__BOOL_FILL)
        *enter = (unsigned char)call_event_update;
    return end(l, e, st);
}

static fmuc_status set_continuous_states(fmuc_inst *in, const double *x, size_t nx)
{
    const fmi1_lib *l = L_(in);
    ((fmi1_priv *)in->priv)->pending = 0;
    CALL_(l, fmiSetContinuousStates, fmuc_trace__reals(e, x, nx), C_(in), x, nx);
}

#define ARRAY_OUT_(op, name)                                                                   \
    static fmuc_status op(fmuc_inst *in, double *v, size_t n)                                  \
    {                                                                                          \
        const fmi1_lib *l = L_(in);                                                            \
        CALL_(l, name, e->n[0] = n, C_(in), v, n);                                             \
    }
ARRAY_OUT_(get_continuous_states, fmiGetContinuousStates)
ARRAY_OUT_(get_derivatives, fmiGetDerivatives)
ARRAY_OUT_(get_event_indicators, fmiGetEventIndicators)
ARRAY_OUT_(get_nominals, fmiGetNominalContinuousStates)

static fmuc_status get_state_value_references(fmuc_inst *in, fmuc_vr *vr, size_t nx)
{
    const fmi1_lib *l = L_(in);
    CALL_(l, fmiGetStateValueReferences, e->n[0] = nx, C_(in), (fmiValueReference *)vr, nx);
}

const fmuc_inst_ops fmuc_inst__fmi1_ops = {
    .version = 1,
    .op_names = op_names,
    .load = load,
    .fns = &fns,
    .lib_version = lib_version,
    .lib_types_platform = lib_types_platform,
    .lib_free_null = lib_free_null,
    .instantiate = instantiate,
    .free_instance = free_instance,
    .set_debug_logging = set_debug_logging,
    .setup_experiment = no_call,
    .enter_initialization_mode = enter_initialization_mode,
    .exit_initialization_mode = exit_initialization_mode,
    .terminate = terminate,
    .reset = reset,
    .get = get,
    .set = set,
    .do_step = do_step,
    .cancel_step = cancel_step,
    .cs_status = cs_status,
    .cs_integer_status = cs_integer_status,
    .set_input_derivatives = set_input_derivatives,
    .get_output_derivatives = get_output_derivatives,
    .enter_event_mode = mode_change,
    .update_discrete_states = update_discrete_states,
    .enter_continuous_time_mode = mode_change,
    .completed_integrator_step = completed_integrator_step,
    .set_time = set_time,
    .set_continuous_states = set_continuous_states,
    .get_continuous_states = get_continuous_states,
    .get_derivatives = get_derivatives,
    .get_event_indicators = get_event_indicators,
    .get_nominals = get_nominals,
    .get_state_value_references = get_state_value_references,
};
