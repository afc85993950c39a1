/* FMI 3.0 behind the instance API (FMI 3.0.2 §2.3, §3.2, §4.2): the 75 functions of
 * FMUC_FMI3_FUNCTIONS resolved in the library opened by fmuc_loader__open, each call traced with
 * the version's own text ("fmi3DoStep(t=0, h=0.1, noSet=0)"), the FMI 3.0 callbacks (logMessage
 * with the worker as instanceEnvironment; Co-Simulation with eventModeUsed = earlyReturnAllowed =
 * false and no intermediate update callback unless fmuc_inst_instantiate_cs3 asks for them), and what differs from the neutral API: no fmi3SetupExperiment
 * (the experiment goes to fmi3EnterInitializationMode), fmi3Boolean and fmi3Clock are bool
 * (converted from and to the API's int arrays), Enumerations are Int64 calls, fmi3DoStep returns
 * its flags (kept for fmuc_inst_cs_status). This file is the only place that calls FMI 3.0
 * functions. Scheduled Execution (§5): fmi3InstantiateScheduledExecution with the harness's
 * clockUpdate (Clock Update Mode: asks the watched output and countdown clocks, logs the
 * answers) and counting lock/unlockPreemption callbacks; fmi3ActivateModelPartition; the
 * interval and shift getters (end of this file). */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inst_internal.h"
#include "worker_internal.h"

_Static_assert(sizeof(fmuc_vr) == sizeof(fmi3ValueReference), "value reference width");
_Static_assert(sizeof(uint8_t) == sizeof(fmi3Byte), "fmi3Byte is a byte");

/* The resolved functions of one library (ctx->ver_lib[k]). */
typedef struct fmi3_lib {
    fmuc_worker_ctx *ctx;
    void *handle; /* the library they were resolved in */
    int k;        /* 0 ME, 1 CS, 2 SE */
#define FMUC_FIELD_(ret, name, params, iface) name##TYPE name;
    FMUC_FMI3_FUNCTIONS(FMUC_FIELD_)
#undef FMUC_FIELD_
    size_t nmissing;
    const char *missing[FMUC_W_FN_FMI3_COUNT];
} fmi3_lib;

static const fmuc_inst_fn fn_table[] = {
#define FMUC_FN_(ret, name, params, iface)                                                   \
    {#name, offsetof(fmi3_lib, name),                                                         \
     FMUC_FMI3_IF_##iface & (FMUC_INST_FN_ME | FMUC_INST_FN_CS | FMUC_INST_FN_SE)},
    FMUC_FMI3_FUNCTIONS(FMUC_FN_)
#undef FMUC_FN_
};
static const fmuc_inst_fns fns = {fn_table, sizeof fn_table / sizeof fn_table[0],
                                  offsetof(fmi3_lib, missing), offsetof(fmi3_lib, nmissing)};

_Static_assert(sizeof fn_table / sizeof fn_table[0] == FMUC_W_FN_FMI3_COUNT, "75 functions");
_Static_assert(FMUC_FMI3_IFACE_ME == FMUC_INST_FN_ME && FMUC_FMI3_IFACE_CS == FMUC_INST_FN_CS &&
                   FMUC_FMI3_IFACE_SE == FMUC_INST_FN_SE,
               "one interface numbering");
_Static_assert(FMUC_W_FN_FMI3_COUNT <= 128, "missing_mask3 holds 128 bits");

#define L_(in) ((const fmi3_lib *)(in)->lib)
#define I_(in) ((fmi3Instance)(in)->c)
#define VR_(vr) ((const fmi3ValueReference *)(vr))
#define TVR_(vr) ((const fmi2ValueReference *)(vr))

static const char *const op_names[FMUC_INST_NOPS] = {
    [FMUC_INST_OP_INSTANTIATE] = "fmi3Instantiate*",
    [FMUC_INST_OP_FREE] = "fmi3FreeInstance",
    [FMUC_INST_OP_SETUP_EXPERIMENT] = NULL, /* the experiment goes to EnterInitializationMode */
    [FMUC_INST_OP_ENTER_INIT] = "fmi3EnterInitializationMode",
    [FMUC_INST_OP_EXIT_INIT] = "fmi3ExitInitializationMode",
    [FMUC_INST_OP_TERMINATE] = "fmi3Terminate",
    [FMUC_INST_OP_RESET] = "fmi3Reset",
    [FMUC_INST_OP_GET_FLOAT64] = "fmi3GetFloat64",
    [FMUC_INST_OP_SET_FLOAT64] = "fmi3SetFloat64",
    [FMUC_INST_OP_DO_STEP] = "fmi3DoStep",
    [FMUC_INST_OP_CANCEL_STEP] = NULL,
    [FMUC_INST_OP_GET_STATUS] = NULL,
    [FMUC_INST_OP_ENTER_EVENT_MODE] = "fmi3EnterEventMode",
    [FMUC_INST_OP_UPDATE_DISCRETE_STATES] = "fmi3UpdateDiscreteStates",
    [FMUC_INST_OP_ENTER_CT_MODE] = "fmi3EnterContinuousTimeMode",
    [FMUC_INST_OP_COMPLETED_INTEGRATOR_STEP] = "fmi3CompletedIntegratorStep",
    [FMUC_INST_OP_SET_TIME] = "fmi3SetTime",
    [FMUC_INST_OP_SET_STATES] = "fmi3SetContinuousStates",
    [FMUC_INST_OP_GET_STATES] = "fmi3GetContinuousStates",
    [FMUC_INST_OP_GET_DERIVATIVES] = "fmi3GetContinuousStateDerivatives",
    [FMUC_INST_OP_GET_EVENT_INDICATORS] = "fmi3GetEventIndicators",
    [FMUC_INST_OP_GET_NOMINALS] = "fmi3GetNominalsOfContinuousStates",
};

/* ---- library ------------------------------------------------------------------------------ */

static int load(fmuc_worker_ctx *ctx, fmuc_iface iface, const void **lib)
{
    int k = (int)iface; /* the worker's library slot */
    fmi3_lib *L;
    void *h;

    *lib = NULL;
    if (!(h = fmuc_loader__open(ctx, k)))
        return -1;
    L = ctx->ver_lib[k];
    if (L && L->handle == h) {
        *lib = L;
        return 0;
    }
    free(L);
    ctx->ver_lib[k] = L = calloc(1, sizeof *L);
    if (!L) {
        snprintf(ctx->sh->load_error, sizeof ctx->sh->load_error, "out of memory");
        return -1;
    }
    L->ctx = ctx;
    L->handle = h;
    L->k = k;
    fmuc_inst__resolve(ctx, k, NULL, &fns, L, ctx->sh->missing_mask3);
    ctx->sh->load_ok = 1;
    *lib = L;
    return 0;
}

/* a function the library lacks: a "not provided" trace entry */
static fmuc_status not_provided(fmuc_worker_ctx *ctx, unsigned fn)
{
    fmuc_w_call *e = fmuc_trace__begin(ctx, fn);
    fmuc_trace__go(ctx, e);
    fmuc_trace__end(ctx, e, (int)FMUC_STATUS_NOT_PROVIDED, FMUC_W_CALL_NOT_PROVIDED);
    return FMUC_STATUS_NOT_PROVIDED;
}

/* Record the arguments (args: a statement on e_), publish, call, record the status. */
#define CALL_(in, name, args, call)                                                          \
    do {                                                                                     \
        const fmi3_lib *L_ = L_(in);                                                         \
        fmuc_w_call *e_;                                                                     \
        fmi3Status st_;                                                                      \
        if (!L_->name)                                                                       \
            return not_provided(L_->ctx, FMUC_W_FN_##name);                                  \
        e_ = fmuc_trace__begin(L_->ctx, FMUC_W_FN_##name);                                   \
        args;                                                                                \
        fmuc_trace__go(L_->ctx, e_);                                                         \
        st_ = call;                                                                          \
        fmuc_trace__end(L_->ctx, e_, (int)st_, FMUC_W_CALL_RETURNED);                            \
        return (fmuc_status)st_;                                                             \
    } while (0)
#define NOARGS_ ((void)e_)

static const char *lib_version(const void *lib)
{
    const fmi3_lib *L = lib;
    fmuc_w_call *e;
    const char *r;
    if (!L->fmi3GetVersion) {
        not_provided(L->ctx, FMUC_W_FN_fmi3GetVersion);
        return NULL;
    }
    e = fmuc_trace__begin(L->ctx, FMUC_W_FN_fmi3GetVersion);
    fmuc_trace__go(L->ctx, e);
    r = L->fmi3GetVersion();
    fmuc_trace__end(L->ctx, e, r != NULL, FMUC_W_CALL_RETURNED_PTR);
    return r;
}

static void free_call(const fmi3_lib *L, fmi3Instance c)
{
    fmuc_w_call *e;
    if (!L->fmi3FreeInstance) {
        not_provided(L->ctx, FMUC_W_FN_fmi3FreeInstance);
        return;
    }
    e = fmuc_trace__begin(L->ctx, FMUC_W_FN_fmi3FreeInstance);
    if (!c)
        e->flags |= FMUC_W_A_NULLP;
    fmuc_trace__go(L->ctx, e);
    L->fmi3FreeInstance(c);
    fmuc_trace__end(L->ctx, e, 0, FMUC_W_CALL_RETURNED_VOID);
}

static void lib_free_null(const void *lib)
{
    free_call(lib, NULL);
}

/* ---- instance ----------------------------------------------------------------------------- */

/* What an instance keeps: the resource path it was given (the FMU may hold on to it). */
typedef struct fmi3_priv {
    char resource_path[4096];
    /* cs-event-mode: the intermediateUpdate calls (fmuc_inst_intermediate_log) and the step in
     * progress */
    fmuc_worker_ctx *ctx;
    int iu_on;
    double step_tc, step_h;
    size_t iu_total;
    fmuc_inst_iu_call iu[FMUC_INST_IU_KEPT];
    /* requiredIntermediateVariables as passed, and what the callback reads and writes in
     * Intermediate Update Mode (fmuc_inst_iu_access, split by type: [0] Float64, [1] Float32);
     * the fmi3DoStep trace entry in progress (suspended around those calls) */
    fmi3ValueReference *required;
    size_t n_required;
    fmuc_vr iu_get[2][FMUC_INST_IU_WATCH], iu_set[2][FMUC_INST_IU_WATCH];
    size_t n_iu_get[2], n_iu_set[2];
    double iu_set_value[2][FMUC_INST_IU_WATCH];
    size_t iu_get_pos[2][FMUC_INST_IU_WATCH]; /* position in the caller's list */
    int in_ium;
    int iu_failed; /* a get or set there returned Error/Fatal: no more accesses (§2.3, D.0) */
    int step_no_set_prior;
    fmuc_w_call *step_e;
    uint64_t step_seq;
    /* Scheduled Execution: the instance (for clockUpdate), the clocks asked about in Clock
     * Update Mode, the activation in progress and the clockUpdate log */
    fmuc_inst *inst;
    fmuc_vr se_out[FMUC_INST_SE_WATCH], se_cd[FMUC_INST_SE_WATCH];
    size_t n_se_out, n_se_cd;
    int activating, in_cum;
    fmuc_vr act_clock;
    double act_time;
    fmuc_w_call *act_e; /* the open trace entry of the activation (suspended around clockUpdate's
                           calls, resumed in a new one) and its sequence number */
    uint64_t act_seq;
    fmuc_inst_se_counts cu_counts;
    size_t cu_total;
    fmuc_inst_cu_event cu[FMUC_INST_CU_KEPT];
} fmi3_priv;

static void clock_update(fmi3InstanceEnvironment env);
static void lock_preemption(void);
static void unlock_preemption(void);
static void iu_access(fmi3_priv *p, unsigned flags, fmuc_inst_iu_call *rec);

/* The harness's intermediateUpdate (FMI 3.0.2 §4.2.2): logs the call against the instance whose
 * fmi3DoStep is running (else the last one made with the callback, flagged as outside a step);
 * never asks for an early return and accesses no variable. */
static void intermediate_update(fmi3InstanceEnvironment env, fmi3Float64 time,
                                fmi3Boolean setRequested,
                                fmi3Boolean getAllowed, fmi3Boolean stepFinished,
                                fmi3Boolean canReturnEarly, fmi3Boolean *earlyReturnRequested,
                                fmi3Float64 *earlyReturnTime)
{
    /* the worker's own context: a foreign environment pointer is flagged, never followed */
    fmuc_worker_ctx *ctx = fmuc_callbacks__ctx();
    fmi3_priv *p;
    unsigned flags = env == (fmi3InstanceEnvironment)ctx ? 0 : FMUC_INST_IU_FOREIGN_ENV;
    if (earlyReturnRequested)
        *earlyReturnRequested = false;
    if (earlyReturnTime)
        *earlyReturnTime = 0.0;
    if (!ctx)
        return;
    p = ctx->iu_active;
    if (!p) {
        p = ctx->iu_last;
        flags |= FMUC_INST_IU_OUTSIDE_DO_STEP;
    }
    if (!p || p->ctx != ctx)
        return;
    flags |= (setRequested ? FMUC_INST_IU_SET_REQUESTED : 0) |
             (getAllowed ? FMUC_INST_IU_GET_ALLOWED : 0) |
             (stepFinished ? FMUC_INST_IU_STEP_FINISHED : 0) |
             (canReturnEarly ? FMUC_INST_IU_CAN_RETURN_EARLY : 0);
    fmuc_inst_iu_call rec = {time,
                             flags & FMUC_INST_IU_OUTSIDE_DO_STEP ? NAN : p->step_tc,
                             flags & FMUC_INST_IU_OUTSIDE_DO_STEP ? NAN : p->step_h,
                             flags,
                             -1,
                             -1,
                             {NAN, NAN, NAN, NAN}};
    /* Intermediate Update Mode exists only within fmi3DoStep (§4.2.2): outside one, or in a
     * callback the FMU makes while the harness is already in one, nothing is accessed */
    if (p->in_ium)
        rec.flags |= FMUC_INST_IU_NESTED;
    size_t slot = p->iu_total++; /* in the order the calls began: a nested one comes after */
    if (!(flags & FMUC_INST_IU_OUTSIDE_DO_STEP) && !p->in_ium && !p->iu_failed && p->inst &&
        p->inst->c) {
        p->in_ium = 1;
        iu_access(p, flags, &rec);
        p->in_ium = 0;
    }
    if (slot < FMUC_INST_IU_KEPT)
        p->iu[slot] = rec;
}

static void *instantiate(fmuc_inst *in, const fmuc_inst_args *a)
{
    const fmi3_lib *L = L_(in);
    fmuc_worker_ctx *ctx = in->ctx;
    const fmuc_fmu *fmu = fmuc_worker_fmu(ctx);
    const char *token = a->token;
    /* requiredIntermediateVariables live at the end of the instance's block, as long as it:
     * the FMU may keep the pointer */
    size_t nreq = in->iface == FMUC_IFACE_CS && a->cs_required ? a->cs_n_required : 0;
    fmi3_priv *p = nreq > (SIZE_MAX - sizeof *p) / sizeof(fmi3ValueReference)
                       ? NULL
                       : calloc(1, sizeof *p + nreq * sizeof(fmi3ValueReference));
    unsigned fn = in->iface == FMUC_IFACE_CS   ? FMUC_W_FN_fmi3InstantiateCoSimulation
                  : in->iface == FMUC_IFACE_SE ? FMUC_W_FN_fmi3InstantiateScheduledExecution
                                               : FMUC_W_FN_fmi3InstantiateModelExchange;
    const char *res = NULL;
    fmuc_w_call *e;
    void *c;

    if (!p)
        return NULL;
    in->priv = p;
    if (a->token_null)
        token = NULL;
    else if (!token && fmu && fmu->md_parsed)
        token = fmu->md.instantiation_token ? fmu->md.instantiation_token : fmu->md.guid;
    /* §2.3.1: resourcePath is the absolute path of the resources folder with a trailing
     * separator (not a URI as in 2.0) */
    if (fmu && fmu->unpack_dir) {
        int w = snprintf(p->resource_path, sizeof p->resource_path, "%s/resources/",
                         fmu->unpack_dir);
        if (w > 0 && (size_t)w < sizeof p->resource_path)
            res = p->resource_path;
    }
    if (a->resource_path_null)
        res = NULL;
    fmi3LogMessageCallback log = a->log_message_null ? NULL : fmuc_callbacks__fmi3_log;
    if ((in->iface == FMUC_IFACE_CS && !L->fmi3InstantiateCoSimulation) ||
        (in->iface == FMUC_IFACE_SE && !L->fmi3InstantiateScheduledExecution) ||
        (in->iface == FMUC_IFACE_ME && !L->fmi3InstantiateModelExchange)) {
        not_provided(ctx, fn);
        return NULL;
    }
    e = fmuc_trace__begin(ctx, fn);
    fmuc_trace__str(e, 0, a->name);
    fmuc_trace__str(e, 1, token);
    e->i[1] = a->visible;
    e->i[2] = a->logging_on;
    e->i[3] = a->cs_event_mode_used != 0;      /* eventModeUsed */
    e->i[0] = a->cs_early_return_allowed != 0; /* earlyReturnAllowed */
    e->n[0] = in->iface == FMUC_IFACE_CS ? a->cs_n_required : 0;
    p->ctx = ctx;
    p->inst = in;
    p->iu_on = in->iface == FMUC_IFACE_CS && a->cs_intermediate_update;
    p->step_tc = p->step_h = NAN;
    if (nreq) {
        p->required = (fmi3ValueReference *)(void *)(p + 1);
        for (size_t i = 0; i < nreq; i++)
            p->required[i] = a->cs_required[i];
        p->n_required = nreq;
    }
    if (p->iu_on && a->cs_access) {
        const fmuc_inst_iu_access *x = a->cs_access;
        for (size_t i = 0; i < x->n_get; i++) {
            int k = x->get_single && x->get_single[i] ? 1 : 0;
            if (p->n_iu_get[k] < FMUC_INST_IU_WATCH) {
                p->iu_get_pos[k][p->n_iu_get[k]] = i;
                p->iu_get[k][p->n_iu_get[k]++] = x->get_vr[i];
            }
        }
        for (size_t i = 0; i < x->n_set; i++) {
            int k = x->set_single && x->set_single[i] ? 1 : 0;
            if (p->n_iu_set[k] < FMUC_INST_IU_WATCH) {
                p->iu_set_value[k][p->n_iu_set[k]] = x->set_value[i];
                p->iu_set[k][p->n_iu_set[k]++] = x->set_vr[i];
            }
        }
    }
    if (p->iu_on)
        ctx->iu_last = p;
    if (in->iface == FMUC_IFACE_SE)
        ctx->se_last = p; /* a clockUpdate during instantiation finds its log */
    fmuc_trace__go(ctx, e);
    if (in->iface == FMUC_IFACE_SE)
        c = L->fmi3InstantiateScheduledExecution(a->name, token, res, a->visible != 0,
                                                 a->logging_on != 0, (fmi3InstanceEnvironment)ctx,
                                                 log, clock_update,
                                                 lock_preemption, unlock_preemption);
    else if (in->iface == FMUC_IFACE_CS)
        c = L->fmi3InstantiateCoSimulation(a->name, token, res, a->visible != 0,
                                           a->logging_on != 0, a->cs_event_mode_used != 0,
                                           a->cs_early_return_allowed != 0, p->required,
                                           p->n_required,
                                           (fmi3InstanceEnvironment)ctx,
                                           log,
                                           p->iu_on ? intermediate_update : NULL);
    else
        c = L->fmi3InstantiateModelExchange(a->name, token, res, a->visible != 0,
                                            a->logging_on != 0, (fmi3InstanceEnvironment)ctx,
                                            log);
    fmuc_trace__end(ctx, e, c != NULL, FMUC_W_CALL_RETURNED_PTR);
    if (!c && ctx->iu_last == p)
        ctx->iu_last = NULL; /* the handle and its log go */
    if (!c && ctx->se_last == p)
        ctx->se_last = NULL;
    return c;
}

static void free_instance(fmuc_inst *in)
{
    free_call(L_(in), I_(in));
}

/* The handle goes (freed or abandoned): no callback may find its log any more. */
static void forget(fmuc_inst *in)
{
    fmi3_priv *p = in->priv;
    if (p && in->ctx->iu_last == p)
        in->ctx->iu_last = NULL; /* the log goes with the handle */
    if (p && in->ctx->iu_active == p)
        in->ctx->iu_active = NULL;
    if (p && in->ctx->se_last == p)
        in->ctx->se_last = NULL;
    if (p && in->ctx->se_active == p)
        in->ctx->se_active = NULL;
}

static fmuc_status set_debug_logging(fmuc_inst *in, int on, size_t ncat, const char *const cats[])
{
    CALL_(in, fmi3SetDebugLogging, (e_->i[0] = on, e_->n[0] = ncat),
          L_->fmi3SetDebugLogging(I_(in), on != 0, ncat, (const fmi3String *)cats));
}

/* no call: fmuc_inst_setup_experiment kept the values for fmi3EnterInitializationMode */
static fmuc_status setup_experiment(fmuc_inst *in, const fmuc_inst_experiment *e)
{
    (void)in;
    (void)e;
    return FMUC_STATUS_OK;
}

static fmuc_status enter_initialization_mode(fmuc_inst *in)
{
    const fmuc_inst_experiment *x = &in->exp;
    CALL_(in, fmi3EnterInitializationMode,
          (e_->i[0] = x->tolerance_defined, e_->d[0] = x->tolerance, e_->d[1] = x->start,
           e_->i[1] = x->stop_defined, e_->d[2] = x->stop),
          L_->fmi3EnterInitializationMode(I_(in), x->tolerance_defined != 0, x->tolerance,
                                          x->start, x->stop_defined != 0, x->stop));
}

#define SIMPLE_(op, name)                                                                    \
    static fmuc_status op(fmuc_inst *in)                                                     \
    {                                                                                        \
        CALL_(in, name, NOARGS_, L_->name(I_(in)));                                          \
    }
SIMPLE_(exit_initialization_mode, fmi3ExitInitializationMode)
SIMPLE_(terminate, fmi3Terminate)
SIMPLE_(reset, fmi3Reset)
SIMPLE_(enter_event_mode, fmi3EnterEventMode)
SIMPLE_(enter_continuous_time_mode, fmi3EnterContinuousTimeMode)
SIMPLE_(evaluate_discrete_states, fmi3EvaluateDiscreteStates)

/* ---- values ------------------------------------------------------------------------------- */

/* the first values of a set call, for the trace */
static void keep_values(fmuc_w_call *e, fmuc_inst_base t, const void *v, size_t n)
{
    e->n[1] = n;
    if (!v) {
        e->flags |= FMUC_W_A_NULL1;
        return;
    }
    for (size_t i = 0; i < n && i < FMUC_W_VAL_KEPT; i++) {
        switch (t) {
        case FMUC_INST_FLOAT32: e->d[i] = ((const float *)v)[i]; break;
        case FMUC_INST_FLOAT64: e->d[i] = ((const double *)v)[i]; break;
        case FMUC_INST_INT8: e->i[i] = ((const int8_t *)v)[i]; break;
        case FMUC_INST_UINT8: e->i[i] = ((const uint8_t *)v)[i]; break;
        case FMUC_INST_INT16: e->i[i] = ((const int16_t *)v)[i]; break;
        case FMUC_INST_UINT16: e->i[i] = ((const uint16_t *)v)[i]; break;
        case FMUC_INST_INT32: e->i[i] = ((const int32_t *)v)[i]; break;
        case FMUC_INST_UINT32: e->i[i] = (int32_t)((const uint32_t *)v)[i]; break;
        case FMUC_INST_INT64:
        case FMUC_INST_ENUMERATION: e->i[i] = (int32_t)((const int64_t *)v)[i]; break;
        case FMUC_INST_UINT64: e->i[i] = (int32_t)((const uint64_t *)v)[i]; break;
        case FMUC_INST_BOOLEAN:
        case FMUC_INST_CLOCK: e->i[i] = ((const int *)v)[i]; break;
        default: break;
        }
    }
}

#define GET_(in, name, ctype, vr, nvr, values, nv)                                           \
    CALL_(in, name, (fmuc_trace__vrs(e_, 0, TVR_(vr), nvr), e_->n[1] = nv),                  \
          L_->name(I_(in), VR_(vr), nvr, (ctype *)(values), nv))
#define SET_(in, name, ctype, t, vr, nvr, values, nv)                                        \
    CALL_(in, name, (fmuc_trace__vrs(e_, 0, TVR_(vr), nvr), keep_values(e_, t, values, nv)), \
          L_->name(I_(in), VR_(vr), nvr, (const ctype *)(values), nv))

static fmuc_status raw_get_boolean(fmuc_inst *in, const fmuc_vr *vr, size_t nvr, bool *v,
                                   size_t nv)
{
    GET_(in, fmi3GetBoolean, fmi3Boolean, vr, nvr, v, nv);
}

static fmuc_status raw_get_clock(fmuc_inst *in, const fmuc_vr *vr, size_t nvr, bool *v, size_t nv)
{
    CALL_(in, fmi3GetClock, (fmuc_trace__vrs(e_, 0, TVR_(vr), nvr), e_->n[1] = nv),
          L_->fmi3GetClock(I_(in), VR_(vr), nvr, v));
}

static fmuc_status raw_set_boolean(fmuc_inst *in, const fmuc_vr *vr, size_t nvr, const bool *v,
                                   const int *orig, size_t nv)
{
    CALL_(in, fmi3SetBoolean,
          (fmuc_trace__vrs(e_, 0, TVR_(vr), nvr), keep_values(e_, FMUC_INST_BOOLEAN, orig, nv)),
          L_->fmi3SetBoolean(I_(in), VR_(vr), nvr, v, nv));
}

static fmuc_status raw_set_clock(fmuc_inst *in, const fmuc_vr *vr, size_t nvr, const bool *v,
                                 const int *orig, size_t nv)
{
    CALL_(in, fmi3SetClock,
          (fmuc_trace__vrs(e_, 0, TVR_(vr), nvr), keep_values(e_, FMUC_INST_CLOCK, orig, nv)),
          L_->fmi3SetClock(I_(in), VR_(vr), nvr, v));
}

/* fmi3Boolean and fmi3Clock are bool: the API's int arrays go through a bool copy */
static fmuc_status get_bools(fmuc_inst *in, int clock, const fmuc_vr *vr, size_t nvr, int *values,
                             size_t nv)
{
    bool one = false, *tmp = !values ? NULL : nv <= 1 ? &one : calloc(nv, sizeof *tmp);
    fmuc_inst__gout g; /* the FMU fills our bool copy: guarded like the caller's array */
    fmuc_status st;
    if (values && !tmp)
        return FMUC_STATUS_ERROR;
    bool *b = fmuc_inst__gout_begin(&g, tmp, tmp ? nv : 0, sizeof *tmp);
    st = clock ? raw_get_clock(in, vr, nvr, b, nv) : raw_get_boolean(in, vr, nvr, b, nv);
    fmuc_inst__gout_end(in, &g, "value");
    for (size_t i = 0; tmp && i < nv; i++)
        values[i] = tmp[i] ? 1 : 0;
    if (tmp != &one)
        free(tmp);
    return st;
}

static fmuc_status set_bools(fmuc_inst *in, int clock, const fmuc_vr *vr, size_t nvr,
                             const int *values, size_t nv)
{
    bool one = false, *tmp = !values ? NULL : nv <= 1 ? &one : calloc(nv, sizeof *tmp);
    fmuc_status st;
    if (values && !tmp)
        return FMUC_STATUS_ERROR;
    for (size_t i = 0; tmp && i < nv; i++)
        tmp[i] = values[i] != 0;
    st = clock ? raw_set_clock(in, vr, nvr, tmp, values, nv)
               : raw_set_boolean(in, vr, nvr, tmp, values, nv);
    if (tmp != &one)
        free(tmp);
    return st;
}

static fmuc_status get(fmuc_inst *in, fmuc_inst_base type, const fmuc_vr *vr, size_t nvr,
                       void *values, size_t nv)
{
    switch (type) {
    case FMUC_INST_FLOAT32: GET_(in, fmi3GetFloat32, fmi3Float32, vr, nvr, values, nv);
    case FMUC_INST_FLOAT64: GET_(in, fmi3GetFloat64, fmi3Float64, vr, nvr, values, nv);
    case FMUC_INST_INT8: GET_(in, fmi3GetInt8, fmi3Int8, vr, nvr, values, nv);
    case FMUC_INST_UINT8: GET_(in, fmi3GetUInt8, fmi3UInt8, vr, nvr, values, nv);
    case FMUC_INST_INT16: GET_(in, fmi3GetInt16, fmi3Int16, vr, nvr, values, nv);
    case FMUC_INST_UINT16: GET_(in, fmi3GetUInt16, fmi3UInt16, vr, nvr, values, nv);
    case FMUC_INST_INT32: GET_(in, fmi3GetInt32, fmi3Int32, vr, nvr, values, nv);
    case FMUC_INST_UINT32: GET_(in, fmi3GetUInt32, fmi3UInt32, vr, nvr, values, nv);
    case FMUC_INST_INT64:
    case FMUC_INST_ENUMERATION: /* §2.2.6.1: Enumerations are got and set as Int64 */
        GET_(in, fmi3GetInt64, fmi3Int64, vr, nvr, values, nv);
    case FMUC_INST_UINT64: GET_(in, fmi3GetUInt64, fmi3UInt64, vr, nvr, values, nv);
    case FMUC_INST_STRING: GET_(in, fmi3GetString, fmi3String, vr, nvr, values, nv);
    case FMUC_INST_BOOLEAN: return get_bools(in, 0, vr, nvr, values, nv);
    case FMUC_INST_CLOCK: return get_bools(in, 1, vr, nvr, values, nv);
    default: return FMUC_STATUS_NOT_PROVIDED; /* Binary: fmuc_inst_get_binary */
    }
}

static fmuc_status set(fmuc_inst *in, fmuc_inst_base type, const fmuc_vr *vr, size_t nvr,
                       const void *values, size_t nv)
{
    switch (type) {
    case FMUC_INST_FLOAT32: SET_(in, fmi3SetFloat32, fmi3Float32, type, vr, nvr, values, nv);
    case FMUC_INST_FLOAT64: SET_(in, fmi3SetFloat64, fmi3Float64, type, vr, nvr, values, nv);
    case FMUC_INST_INT8: SET_(in, fmi3SetInt8, fmi3Int8, type, vr, nvr, values, nv);
    case FMUC_INST_UINT8: SET_(in, fmi3SetUInt8, fmi3UInt8, type, vr, nvr, values, nv);
    case FMUC_INST_INT16: SET_(in, fmi3SetInt16, fmi3Int16, type, vr, nvr, values, nv);
    case FMUC_INST_UINT16: SET_(in, fmi3SetUInt16, fmi3UInt16, type, vr, nvr, values, nv);
    case FMUC_INST_INT32: SET_(in, fmi3SetInt32, fmi3Int32, type, vr, nvr, values, nv);
    case FMUC_INST_UINT32: SET_(in, fmi3SetUInt32, fmi3UInt32, type, vr, nvr, values, nv);
    case FMUC_INST_INT64:
    case FMUC_INST_ENUMERATION: SET_(in, fmi3SetInt64, fmi3Int64, type, vr, nvr, values, nv);
    case FMUC_INST_UINT64: SET_(in, fmi3SetUInt64, fmi3UInt64, type, vr, nvr, values, nv);
    case FMUC_INST_STRING:
        CALL_(in, fmi3SetString, (fmuc_trace__vrs(e_, 0, TVR_(vr), nvr), e_->n[1] = nv),
              L_->fmi3SetString(I_(in), VR_(vr), nvr, (const fmi3String *)values, nv));
    case FMUC_INST_BOOLEAN: return set_bools(in, 0, vr, nvr, values, nv);
    case FMUC_INST_CLOCK: return set_bools(in, 1, vr, nvr, values, nv);
    default: return FMUC_STATUS_NOT_PROVIDED;
    }
}

static fmuc_status get_binary(fmuc_inst *in, const fmuc_vr *vr, size_t nvr, size_t *sizes,
                              const uint8_t **values, size_t nv)
{
    CALL_(in, fmi3GetBinary, (fmuc_trace__vrs(e_, 0, TVR_(vr), nvr), e_->n[1] = nv),
          L_->fmi3GetBinary(I_(in), VR_(vr), nvr, sizes, (fmi3Binary *)values, nv));
}

static fmuc_status set_binary(fmuc_inst *in, const fmuc_vr *vr, size_t nvr, const size_t *sizes,
                              const uint8_t *const *values, size_t nv)
{
    CALL_(in, fmi3SetBinary, (fmuc_trace__vrs(e_, 0, TVR_(vr), nvr), e_->n[1] = nv),
          L_->fmi3SetBinary(I_(in), VR_(vr), nvr, sizes, (const fmi3Binary *)values, nv));
}

/* ---- Intermediate Update Mode (§4.2.2) ----------------------------------------------------- */

/* The harness's variable access in Intermediate Update Mode: the watched outputs when the FMU
 * allows gets, then the watched inputs when it requests sets (gets before sets, condition 19 of
 * the CS table). The fmi3DoStep entry of the trace is suspended around these calls and goes on
 * in a new one, as an activation around clockUpdate's calls. */
static void iu_access(fmi3_priv *p, unsigned flags, fmuc_inst_iu_call *rec)
{
    fmuc_inst *in = p->inst;
    int do_get = (flags & FMUC_INST_IU_GET_ALLOWED) && (p->n_iu_get[0] || p->n_iu_get[1]);
    int do_set = (flags & FMUC_INST_IU_SET_REQUESTED) && (p->n_iu_set[0] || p->n_iu_set[1]);
    if (!do_get && !do_set)
        return;
    fmuc_w_call *se = p->step_e;
    int suspend = se && se->seq == p->step_seq;
    if (suspend)
        fmuc_trace__end(p->ctx, se, 0, FMUC_W_CALL_SUSPENDED);
    for (int k = 0; do_get && k < 2; k++) {
        size_t n = p->n_iu_get[k];
        if (!n)
            continue;
        double v64[FMUC_INST_IU_WATCH];
        float v32[FMUC_INST_IU_WATCH];
        for (size_t i = 0; i < n; i++) {
            v64[i] = NAN;
            v32[i] = NAN;
        }
        fmuc_inst__gout g;
        fmuc_vr vr[FMUC_INST_IU_WATCH]; /* the FMU gets copies, never the instance's lists */
        memcpy(vr, p->iu_get[k], n * sizeof *vr);
        void *b = fmuc_inst__gout_begin(&g, k ? (void *)v32 : (void *)v64, n,
                                        k ? sizeof *v32 : sizeof *v64);
        fmuc_status st = get(in, k ? FMUC_INST_FLOAT32 : FMUC_INST_FLOAT64, vr, n, b, n);
        fmuc_inst__gout_end(in, &g, "values");
        if ((int)st > rec->get_status)
            rec->get_status = (int)st;
        if (st == FMUC_STATUS_ERROR || st == FMUC_STATUS_FATAL) {
            p->iu_failed = 1;
            do_set = 0;
            break;
        }
        for (size_t i = 0; i < n; i++) {
            size_t pos = p->iu_get_pos[k][i];
            if (pos < FMUC_INST_IU_VALUES)
                rec->got[pos] = k ? (double)v32[i] : v64[i];
        }
    }
    for (int k = 0; do_set && k < 2; k++) {
        size_t n = p->n_iu_set[k];
        if (!n)
            continue;
        float v32[FMUC_INST_IU_WATCH];
        double v64[FMUC_INST_IU_WATCH];
        fmuc_vr vr[FMUC_INST_IU_WATCH];
        memcpy(vr, p->iu_set[k], n * sizeof *vr);
        for (size_t i = 0; i < n; i++) {
            v32[i] = (float)p->iu_set_value[1][i];
            v64[i] = p->iu_set_value[0][i];
        }
        fmuc_status st = set(in, k ? FMUC_INST_FLOAT32 : FMUC_INST_FLOAT64, vr, n,
                             k ? (const void *)v32 : (const void *)v64, n);
        if ((int)st > rec->set_status)
            rec->set_status = (int)st;
        if (st == FMUC_STATUS_ERROR || st == FMUC_STATUS_FATAL) {
            p->iu_failed = 1;
            break;
        }
    }
    if (suspend) { /* the rest of the step: a new entry, in progress again */
        fmuc_w_call *e = fmuc_trace__begin(p->ctx, FMUC_W_FN_fmi3DoStep);
        e->d[0] = p->step_tc;
        e->d[1] = p->step_h;
        e->i[0] = p->step_no_set_prior;
        e->flags |= FMUC_W_A_RESUMED;
        p->step_e = e;
        p->step_seq = e->seq;
        fmuc_trace__go(p->ctx, e);
    }
}

/* ---- Co-Simulation ------------------------------------------------------------------------ */

static fmuc_status do_step(fmuc_inst *in, double t, double h, int no_set_prior,
                           fmuc_inst_step_info *info)
{
    bool ehn = false, term = false, early = false;
    double last = NAN;
    const fmi3_lib *L = L_(in);
    fmuc_w_call *e;
    fmi3Status st;
    if (info) {
        memset(info, 0, sizeof *info);
        info->last_successful_time = NAN;
    }
    if (!L->fmi3DoStep)
        return not_provided(L->ctx, FMUC_W_FN_fmi3DoStep);
    e = fmuc_trace__begin(L->ctx, FMUC_W_FN_fmi3DoStep);
    e->d[0] = t;
    e->d[1] = h;
    e->i[0] = no_set_prior;
    fmi3_priv *p = in->priv;
    void *active = L->ctx->iu_active;
    if (p) {
        p->step_tc = t;
        p->step_h = h;
        L->ctx->iu_active = p;
    }
    if (p) {
        p->step_e = e;
        p->step_seq = e->seq;
        p->step_no_set_prior = no_set_prior;
    }
    fmuc_trace__go(L->ctx, e);
    st = L->fmi3DoStep(I_(in), t, h, no_set_prior != 0, &ehn, &term, &early, &last);
    if (!p)
        fmuc_trace__end(L->ctx, e, (int)st, FMUC_W_CALL_RETURNED);
    else if (p->step_e && p->step_e->seq == p->step_seq) /* the entry in progress (resumed) */
        fmuc_trace__end(L->ctx, p->step_e, (int)st, FMUC_W_CALL_RETURNED);
    if (p)
        p->step_e = NULL;
    L->ctx->iu_active = active;
    in->last_step.event_handling_needed = ehn;
    in->last_step.terminate_simulation = term;
    in->last_step.early_return = early;
    in->last_step.last_successful_time = last;
    if (info)
        *info = in->last_step;
    return (fmuc_status)st;
}

/* FMI 3.0 has no status queries: fmi3DoStep returned terminateSimulation and
 * lastSuccessfulTime (§4.2.1); they are answered from the last step without a call. */
static fmuc_status cs_status(fmuc_inst *in, fmuc_inst_query q, void *value)
{
    switch (q) {
    case FMUC_INST_Q_TERMINATED:
        *(int *)value = in->last_step.terminate_simulation;
        return FMUC_STATUS_OK;
    case FMUC_INST_Q_LAST_SUCCESSFUL_TIME:
        *(double *)value = in->last_step.last_successful_time;
        return FMUC_STATUS_OK;
    default:
        return FMUC_STATUS_NOT_PROVIDED;
    }
}

static fmuc_status get_output_derivatives(fmuc_inst *in, const fmuc_vr *vr, size_t nvr,
                                          const int32_t *order, double *v, size_t nv)
{
    CALL_(in, fmi3GetOutputDerivatives, (fmuc_trace__vrs(e_, 0, TVR_(vr), nvr), e_->n[1] = nv),
          L_->fmi3GetOutputDerivatives(I_(in), VR_(vr), nvr, order, v, nv));
}

/* ---- Model Exchange ----------------------------------------------------------------------- */

static fmuc_status update_discrete_states(fmuc_inst *in, fmuc_inst_event_info *info)
{
    bool need = false, term = false, nom = false, val = false, ned = false;
    double net = 0.0;
    const fmi3_lib *L = L_(in);
    fmuc_w_call *e;
    fmi3Status st;
    if (!L->fmi3UpdateDiscreteStates)
        return not_provided(L->ctx, FMUC_W_FN_fmi3UpdateDiscreteStates);
    e = fmuc_trace__begin(L->ctx, FMUC_W_FN_fmi3UpdateDiscreteStates);
    fmuc_trace__go(L->ctx, e);
    st = L->fmi3UpdateDiscreteStates(I_(in), &need, &term, &nom, &val, &ned, &net);
    fmuc_trace__end(L->ctx, e, (int)st, FMUC_W_CALL_RETURNED);
    info->new_discrete_states_needed = need;
    info->terminate_simulation = term;
    info->nominals_changed = nom;
    info->values_changed = val;
    info->next_event_time_defined = ned;
    info->next_event_time = net;
    return (fmuc_status)st;
}

_Static_assert(sizeof(bool) == 1, "fmi3Boolean outputs are inspected as one byte");

static fmuc_status completed_integrator_step(fmuc_inst *in, int no_set_prior, int *enter, int *term)
{
    /* both outputs start as a fill byte that is neither false nor true (never read as bool):
     * an output the FMU left so keeps the caller's value (fmuc_inst.h) */
    bool b_enter, b_term;
    unsigned char u;
    const fmi3_lib *L = L_(in);
    fmuc_w_call *e;
    fmi3Status st;
    memset(&b_enter, FMUC_INST__BOOL_FILL, sizeof b_enter);
    memset(&b_term, FMUC_INST__BOOL_FILL, sizeof b_term);
    if (!L->fmi3CompletedIntegratorStep)
        return not_provided(L->ctx, FMUC_W_FN_fmi3CompletedIntegratorStep);
    e = fmuc_trace__begin(L->ctx, FMUC_W_FN_fmi3CompletedIntegratorStep);
    e->i[0] = no_set_prior;
    fmuc_trace__go(L->ctx, e);
    st = L->fmi3CompletedIntegratorStep(I_(in), no_set_prior != 0, &b_enter, &b_term);
    fmuc_trace__end(L->ctx, e, (int)st, FMUC_W_CALL_RETURNED);
    memcpy(&u, &b_enter, 1);
    if (enter && u != FMUC_INST__BOOL_FILL)
        *enter = u;
    memcpy(&u, &b_term, 1);
    if (term && u != FMUC_INST__BOOL_FILL)
        *term = u;
    return (fmuc_status)st;
}

static fmuc_status set_time(fmuc_inst *in, double t)
{
    CALL_(in, fmi3SetTime, e_->d[0] = t, L_->fmi3SetTime(I_(in), t));
}

static fmuc_status set_continuous_states(fmuc_inst *in, const double *x, size_t nx)
{
    CALL_(in, fmi3SetContinuousStates, fmuc_trace__reals(e_, x, nx),
          L_->fmi3SetContinuousStates(I_(in), x, nx));
}

#define ARRAY_OUT_(op, name)                                                                 \
    static fmuc_status op(fmuc_inst *in, double *v, size_t n)                                \
    {                                                                                        \
        CALL_(in, name, e_->n[0] = n, L_->name(I_(in), v, n));                               \
    }
ARRAY_OUT_(get_continuous_states, fmi3GetContinuousStates)
ARRAY_OUT_(get_derivatives, fmi3GetContinuousStateDerivatives)
ARRAY_OUT_(get_event_indicators, fmi3GetEventIndicators)
ARRAY_OUT_(get_nominals, fmi3GetNominalsOfContinuousStates)

/* ---- FMU state, directional derivatives --------------------------------------------------- */

static fmuc_status get_state(fmuc_inst *in, fmuc_fmu_state *s)
{
    CALL_(in, fmi3GetFMUState, NOARGS_, L_->fmi3GetFMUState(I_(in), (fmi3FMUState *)s));
}

static fmuc_status set_state(fmuc_inst *in, fmuc_fmu_state s)
{
    CALL_(in, fmi3SetFMUState, (void)(s ? 0 : (e_->flags |= FMUC_W_A_NULLP)),
          L_->fmi3SetFMUState(I_(in), (fmi3FMUState)s));
}

static fmuc_status free_state(fmuc_inst *in, fmuc_fmu_state *s)
{
    CALL_(in, fmi3FreeFMUState, NOARGS_, L_->fmi3FreeFMUState(I_(in), (fmi3FMUState *)s));
}

static fmuc_status serialized_state_size(fmuc_inst *in, fmuc_fmu_state s, size_t *size)
{
    CALL_(in, fmi3SerializedFMUStateSize, NOARGS_,
          L_->fmi3SerializedFMUStateSize(I_(in), (fmi3FMUState)s, size));
}

static fmuc_status serialize_state(fmuc_inst *in, fmuc_fmu_state s, uint8_t *buf, size_t size)
{
    CALL_(in, fmi3SerializeFMUState, e_->n[0] = size,
          L_->fmi3SerializeFMUState(I_(in), (fmi3FMUState)s, buf, size));
}

static fmuc_status deserialize_state(fmuc_inst *in, const uint8_t *buf, size_t size,
                                     fmuc_fmu_state *s)
{
    CALL_(in, fmi3DeserializeFMUState, e_->n[0] = size,
          L_->fmi3DeserializeFMUState(I_(in), buf, size, (fmi3FMUState *)s));
}

static fmuc_status get_directional_derivative(fmuc_inst *in, const fmuc_vr *unknown, size_t nu,
                                              const fmuc_vr *known, size_t nk,
                                              const double *dv_known, size_t nkv,
                                              double *dv_unknown, size_t nuv)
{
    CALL_(in, fmi3GetDirectionalDerivative,
          (fmuc_trace__vrs(e_, 0, TVR_(unknown), nu), fmuc_trace__vrs(e_, 1, TVR_(known), nk),
           e_->i[0] = (int32_t)nkv, e_->i[1] = (int32_t)nuv),
          L_->fmi3GetDirectionalDerivative(I_(in), VR_(unknown), nu, VR_(known), nk, dv_known,
                                           nkv, dv_unknown, nuv));
}

static fmuc_status get_adjoint_derivative(fmuc_inst *in, const fmuc_vr *unknown, size_t nu,
                                          const fmuc_vr *known, size_t nk, const double *seed,
                                          size_t nseed, double *sensitivity, size_t nsens)
{
    CALL_(in, fmi3GetAdjointDerivative,
          (fmuc_trace__vrs(e_, 0, TVR_(unknown), nu), fmuc_trace__vrs(e_, 1, TVR_(known), nk),
           e_->i[0] = (int32_t)nseed, e_->i[1] = (int32_t)nsens),
          L_->fmi3GetAdjointDerivative(I_(in), VR_(unknown), nu, VR_(known), nk, seed, nseed,
                                       sensitivity, nsens));
}

static fmuc_status get_number_of_variable_dependencies(fmuc_inst *in, fmuc_vr vr, size_t *n)
{
    CALL_(in, fmi3GetNumberOfVariableDependencies, (e_->vr[0][0] = vr, e_->n[0] = 1),
          L_->fmi3GetNumberOfVariableDependencies(I_(in), vr, n));
}

/* fmi3DependencyKind is an enum of int size (fmi3FunctionTypes.h): the int array is passed as is */
static fmuc_status get_variable_dependencies(fmuc_inst *in, fmuc_vr dependent, size_t *element_dep,
                                             fmuc_vr *independent, size_t *element_indep,
                                             int *kind, size_t n)
{
    _Static_assert(sizeof(fmi3DependencyKind) == sizeof(int), "fmi3DependencyKind is an int");
    CALL_(in, fmi3GetVariableDependencies, (e_->vr[0][0] = dependent, e_->n[0] = 1, e_->n[1] = n),
          L_->fmi3GetVariableDependencies(I_(in), dependent, element_dep,
                                          (fmi3ValueReference *)independent, element_indep,
                                          (fmi3DependencyKind *)kind, n));
}

/* ---- Co-Simulation Event Mode and intermediate update (cs-event-mode) ---------------------- */

SIMPLE_(enter_step_mode, fmi3EnterStepMode)

static size_t intermediate_log(const fmuc_inst *in, const fmuc_inst_iu_call **calls, size_t *nkept)
{
    const fmi3_priv *p = in->priv;
    if (!p || !p->iu_on)
        return 0;
    *calls = p->iu;
    *nkept = p->iu_total < FMUC_INST_IU_KEPT ? p->iu_total : FMUC_INST_IU_KEPT;
    return p->iu_total;
}
/* ---- Configuration / Reconfiguration Mode (§3.2, §4.2) ------------------------------------ */

SIMPLE_(enter_configuration_mode, fmi3EnterConfigurationMode)
SIMPLE_(exit_configuration_mode, fmi3ExitConfigurationMode)

/* ---- the current sizes (ME, §2.3.2 / §3.2.1) ------------------------------------------------ */

static fmuc_status get_number_of_continuous_states(fmuc_inst *in, size_t *n)
{
    CALL_(in, fmi3GetNumberOfContinuousStates, NOARGS_,
          L_->fmi3GetNumberOfContinuousStates(I_(in), n));
}

static fmuc_status get_number_of_event_indicators(fmuc_inst *in, size_t *n)
{
    CALL_(in, fmi3GetNumberOfEventIndicators, NOARGS_,
          L_->fmi3GetNumberOfEventIndicators(I_(in), n));
}

/* ---- Scheduled Execution (§5) -------------------------------------------------------------- */

/* lockPreemption / unlockPreemption take no argument (FMI 3.0.2 §5.2.1,
 * fmi3LockPreemptionCallback), so they cannot reach the worker's instance: their counts are the
 * one piece of file-scope state of the harness. A worker process serves one FMU and starts with
 * zero counts (the parent never calls FMU code); atomic because an FMU may call them from
 * threads of its own. */
static struct {
    _Atomic long lock, unlock, depth, min_depth;
} preemption;

static void lock_preemption(void)
{
    preemption.lock++;
    preemption.depth++;
}

static void unlock_preemption(void)
{
    preemption.unlock++;
    long d = --preemption.depth;
    if (d < preemption.min_depth)
        preemption.min_depth = d;
}

/* The activation's trace entry ends (as suspended, or returned with status) if it is still the
 * entry it was: a callback with many calls may have wrapped the trace ring over it. */
static void end_activation_entry(fmi3_priv *p, int status, uint32_t state)
{
    if (p->act_e && p->act_e->seq == p->act_seq)
        fmuc_trace__end(p->ctx, p->act_e, status, state);
    p->act_e = NULL;
}

static void cu_log(fmi3_priv *p, fmuc_inst_cu_kind kind, fmuc_vr clock, double interval,
                   int status, int outside)
{
    if (p->cu_total < FMUC_INST_CU_KEPT)
        p->cu[p->cu_total] = (fmuc_inst_cu_event){kind, clock, interval, status, outside,
                                                  outside ? 0 : p->act_clock,
                                                  outside ? NAN : p->act_time};
    p->cu_total++;
    p->cu_counts.logged++;
}

static fmuc_status raw_get_interval_decimal(fmuc_inst *in, const fmuc_vr *vr, size_t n, double *iv,
                                            fmi3IntervalQualifier *q)
{
    CALL_(in, fmi3GetIntervalDecimal, (fmuc_trace__vrs(e_, 0, TVR_(vr), n), e_->n[1] = n),
          L_->fmi3GetIntervalDecimal(I_(in), VR_(vr), n, iv, q));
}

/* The harness's clockUpdate (§5.2.2): the FMU is in Clock Update Mode; ask the watched output
 * clocks (fmi3GetClock: the first call after a tick says active, condition 26 of the SE table)
 * and countdown clocks (fmi3GetIntervalDecimal, condition 29) and log the answers against the
 * activation in progress (else the last SE instance, flagged as outside an activation). */
static void clock_update(fmi3InstanceEnvironment env)
{
    fmuc_worker_ctx *ctx = (fmuc_worker_ctx *)env;
    fmi3_priv *p = ctx ? ctx->se_active : NULL;
    int outside = 0;
    if (!p) {
        p = ctx ? ctx->se_last : NULL;
        outside = 1;
    }
    if (!p || p->ctx != ctx || !p->inst)
        return;
    p->cu_counts.clock_updates++;
    p->cu_counts.outside += outside != 0;
    if (p->in_cum) {
        p->cu_counts.nested++;
        return;
    }
    if (!p->inst->c) /* during fmi3InstantiateScheduledExecution: nothing to ask yet */
        return;
    p->in_cum = 1;
    size_t before = p->cu_counts.logged;
    fmuc_inst *in = p->inst;
    int suspend = !outside && p->act_e && (p->n_se_out || p->n_se_cd);
    if (suspend) /* the activation's entry waits while the harness calls the FMU */
        end_activation_entry(p, 0, FMUC_W_CALL_SUSPENDED);
    if (p->n_se_out) {
        bool on[FMUC_INST_SE_WATCH] = {false};
        fmuc_inst__gout g; /* the FMU writes a guarded copy, as in every getter */
        bool *ob = fmuc_inst__gout_begin(&g, on, p->n_se_out, sizeof *on);
        fmuc_status st = raw_get_clock(in, p->se_out, p->n_se_out, ob, p->n_se_out);
        fmuc_inst__gout_end(in, &g, "values");
        if (st != FMUC_STATUS_OK && st != FMUC_STATUS_WARNING)
            cu_log(p, FMUC_INST_CU_CALL_FAILED, 0, NAN, (int)st, outside);
        else
            for (size_t i = 0; i < p->n_se_out; i++)
                if (on[i])
                    cu_log(p, FMUC_INST_CU_OUTPUT_TICK, p->se_out[i], NAN, (int)st, outside);
    }
    if (p->n_se_cd) {
        double iv[FMUC_INST_SE_WATCH];
        fmi3IntervalQualifier q[FMUC_INST_SE_WATCH];
        for (size_t i = 0; i < p->n_se_cd; i++) {
            iv[i] = NAN;
            q[i] = fmi3IntervalUnchanged;
        }
        fmuc_inst__gout gi, gq;
        double *ivb = fmuc_inst__gout_begin(&gi, iv, p->n_se_cd, sizeof *iv);
        fmi3IntervalQualifier *qb = fmuc_inst__gout_begin(&gq, q, p->n_se_cd, sizeof *q);
        fmuc_status st = raw_get_interval_decimal(in, p->se_cd, p->n_se_cd, ivb, qb);
        fmuc_inst__gout_end(in, &gi, "intervals");
        fmuc_inst__gout_end(in, &gq, "qualifiers");
        if (st != FMUC_STATUS_OK && st != FMUC_STATUS_WARNING)
            cu_log(p, FMUC_INST_CU_CALL_FAILED, 0, NAN, (int)st, outside);
        else
            for (size_t i = 0; i < p->n_se_cd; i++) {
                if (q[i] == fmi3IntervalChanged)
                    cu_log(p, FMUC_INST_CU_COUNTDOWN, p->se_cd[i], iv[i], (int)st, outside);
                else if (q[i] == fmi3IntervalNotYetKnown)
                    cu_log(p, FMUC_INST_CU_NOT_YET_KNOWN, p->se_cd[i], NAN, (int)st, outside);
            }
    }
    if (suspend) { /* the rest of the activation: a new entry, in progress again */
        fmuc_w_call *e = fmuc_trace__begin(ctx, FMUC_W_FN_fmi3ActivateModelPartition);
        e->vr[0][0] = p->act_clock;
        e->n[0] = 1;
        e->d[0] = p->act_time;
        e->flags |= FMUC_W_A_RESUMED;
        p->act_e = e;
        p->act_seq = e->seq;
        fmuc_trace__go(ctx, e);
    }
    if (p->cu_counts.logged == before)
        p->cu_counts.empty++;
    p->in_cum = 0;
}

static int se_watch(fmuc_inst *in, const fmuc_vr *out, size_t nout, const fmuc_vr *cd, size_t ncd)
{
    fmi3_priv *p = in->priv;
    if (!p)
        return -1;
    p->n_se_out = nout < FMUC_INST_SE_WATCH ? nout : FMUC_INST_SE_WATCH;
    p->n_se_cd = ncd < FMUC_INST_SE_WATCH ? ncd : FMUC_INST_SE_WATCH;
    if (p->n_se_out)
        memcpy(p->se_out, out, p->n_se_out * sizeof *out);
    if (p->n_se_cd)
        memcpy(p->se_cd, cd, p->n_se_cd * sizeof *cd);
    return 0;
}

/* fmi3ActivateModelPartition, traced by hand: clockUpdate may suspend its entry and open a new
 * one for the rest of the call (end_activation_entry) */
static fmuc_status activate_model_partition(fmuc_inst *in, fmuc_vr clock, double time)
{
    const fmi3_lib *L = L_(in);
    fmi3_priv *p = in->priv;
    if (!L->fmi3ActivateModelPartition)
        return not_provided(L->ctx, FMUC_W_FN_fmi3ActivateModelPartition);
    if (!p)
        return FMUC_STATUS_ERROR;
    void *prev = in->ctx->se_active;
    fmuc_w_call *e = fmuc_trace__begin(L->ctx, FMUC_W_FN_fmi3ActivateModelPartition);
    e->vr[0][0] = clock;
    e->n[0] = 1;
    e->d[0] = time;
    p->activating = 1;
    p->act_clock = clock;
    p->act_time = time;
    p->act_e = e;
    p->act_seq = e->seq;
    in->ctx->se_active = p;
    preemption.min_depth = preemption.depth; /* an unlock without a lock: below this */
    fmuc_trace__go(L->ctx, e);
    fmi3Status st = L->fmi3ActivateModelPartition(I_(in), clock, time);
    end_activation_entry(p, (int)st, FMUC_W_CALL_RETURNED);
    p->activating = 0;
    in->ctx->se_active = prev;
    return (fmuc_status)st;
}

static fmuc_status get_interval_decimal(fmuc_inst *in, const fmuc_vr *vr, size_t n, double *iv,
                                        int *qualifiers)
{
    fmi3IntervalQualifier one = fmi3IntervalUnchanged,
                          *q = !qualifiers ? NULL : n <= 1 ? &one : calloc(n, sizeof *q);
    if (qualifiers && n > 1 && !q)
        return FMUC_STATUS_ERROR;
    /* the copy starts as the caller's array: a caller that fills it with a value no qualifier
     * has sees whether the FMU wrote the output argument at all */
    for (size_t i = 0; q && i < n; i++)
        q[i] = (fmi3IntervalQualifier)qualifiers[i];
    fmuc_inst__gout g; /* the FMU fills our qualifier copy: guarded like the caller's array */
    fmi3IntervalQualifier *qb = fmuc_inst__gout_begin(&g, q, q ? n : 0, sizeof *q);
    fmuc_status st = raw_get_interval_decimal(in, vr, n, iv, qb);
    fmuc_inst__gout_end(in, &g, "qualifiers");
    for (size_t i = 0; q && i < n; i++)
        qualifiers[i] = (int)q[i];
    if (q != &one)
        free(q);
    return st;
}

static fmuc_status get_shift_decimal(fmuc_inst *in, const fmuc_vr *vr, size_t n, double *shifts)
{
    CALL_(in, fmi3GetShiftDecimal, (fmuc_trace__vrs(e_, 0, TVR_(vr), n), e_->n[1] = n),
          L_->fmi3GetShiftDecimal(I_(in), VR_(vr), n, shifts));
}

static fmuc_status raw_get_interval_fraction(fmuc_inst *in, const fmuc_vr *vr, size_t n,
                                             uint64_t *c, uint64_t *r, fmi3IntervalQualifier *q)
{
    CALL_(in, fmi3GetIntervalFraction, (fmuc_trace__vrs(e_, 0, TVR_(vr), n), e_->n[1] = n),
          L_->fmi3GetIntervalFraction(I_(in), VR_(vr), n, c, r, q));
}

static fmuc_status get_interval_fraction(fmuc_inst *in, const fmuc_vr *vr, size_t n, uint64_t *c,
                                         uint64_t *r, int *qualifiers)
{
    fmi3IntervalQualifier one = fmi3IntervalUnchanged,
                          *q = !qualifiers ? NULL : n <= 1 ? &one : calloc(n, sizeof *q);
    if (qualifiers && n > 1 && !q)
        return FMUC_STATUS_ERROR;
    /* the copy starts as the caller's array: a caller that fills it with a value no qualifier
     * has sees whether the FMU wrote the output argument at all */
    for (size_t i = 0; q && i < n; i++)
        q[i] = (fmi3IntervalQualifier)qualifiers[i];
    fmuc_inst__gout g; /* the FMU fills our qualifier copy: guarded like the caller's array */
    fmi3IntervalQualifier *qb = fmuc_inst__gout_begin(&g, q, q ? n : 0, sizeof *q);
    fmuc_status st = raw_get_interval_fraction(in, vr, n, c, r, qb);
    fmuc_inst__gout_end(in, &g, "qualifiers");
    for (size_t i = 0; q && i < n; i++)
        qualifiers[i] = (int)q[i];
    if (q != &one)
        free(q);
    return st;
}

static fmuc_status get_shift_fraction(fmuc_inst *in, const fmuc_vr *vr, size_t n, uint64_t *c,
                                      uint64_t *r)
{
    CALL_(in, fmi3GetShiftFraction, (fmuc_trace__vrs(e_, 0, TVR_(vr), n), e_->n[1] = n),
          L_->fmi3GetShiftFraction(I_(in), VR_(vr), n, c, r));
}

static size_t se_log(const fmuc_inst *in, const fmuc_inst_cu_event **events, size_t *nkept,
                     fmuc_inst_se_counts *counts)
{
    const fmi3_priv *p = in->priv;
    if (!p || in->iface != FMUC_IFACE_SE)
        return 0;
    *events = p->cu;
    *nkept = p->cu_total < FMUC_INST_CU_KEPT ? p->cu_total : FMUC_INST_CU_KEPT;
    if (counts) {
        *counts = p->cu_counts;
        counts->lock = preemption.lock;
        counts->unlock = preemption.unlock;
        counts->min_depth = preemption.min_depth;
        counts->depth = preemption.depth;
    }
    return p->cu_total;
}

static void se_log_clear(fmuc_inst *in)
{
    fmi3_priv *p = in->priv;
    if (p)
        p->cu_total = 0;
}

const fmuc_inst_ops fmuc_inst__fmi3_ops = {
    .version = 3,
    .op_names = op_names,
    .load = load,
    .fns = &fns,
    .lib_version = lib_version,
    .lib_types_platform = NULL, /* FMI 3.0 has no fmi3GetTypesPlatform */
    .lib_free_null = lib_free_null,
    .instantiate = instantiate,
    .free_instance = free_instance,
    .forget = forget,
    .set_debug_logging = set_debug_logging,
    .setup_experiment = setup_experiment,
    .enter_initialization_mode = enter_initialization_mode,
    .exit_initialization_mode = exit_initialization_mode,
    .terminate = terminate,
    .reset = reset,
    .get = get,
    .set = set,
    .get_binary = get_binary,
    .set_binary = set_binary,
    .do_step = do_step,
    .cancel_step = NULL,           /* FMI 3.0 has no fmi3CancelStep */
    .cs_status = cs_status,
    .set_input_derivatives = NULL, /* FMI 3.0 has no fmi3SetInputDerivatives */
    .get_output_derivatives = get_output_derivatives,
    .enter_event_mode = enter_event_mode,
    .update_discrete_states = update_discrete_states,
    .enter_continuous_time_mode = enter_continuous_time_mode,
    .completed_integrator_step = completed_integrator_step,
    .set_time = set_time,
    .set_continuous_states = set_continuous_states,
    .get_continuous_states = get_continuous_states,
    .get_derivatives = get_derivatives,
    .get_event_indicators = get_event_indicators,
    .get_nominals = get_nominals,
    .get_state = get_state,
    .set_state = set_state,
    .free_state = free_state,
    .serialized_state_size = serialized_state_size,
    .serialize_state = serialize_state,
    .deserialize_state = deserialize_state,
    .get_directional_derivative = get_directional_derivative,
    .get_adjoint_derivative = get_adjoint_derivative,
    .get_number_of_variable_dependencies = get_number_of_variable_dependencies,
    .get_variable_dependencies = get_variable_dependencies,
    .enter_step_mode = enter_step_mode,
    .evaluate_discrete_states = evaluate_discrete_states,
    .intermediate_log = intermediate_log,
    .enter_configuration_mode = enter_configuration_mode,
    .exit_configuration_mode = exit_configuration_mode,
    .get_number_of_continuous_states = get_number_of_continuous_states,
    .get_number_of_event_indicators = get_number_of_event_indicators,
    .se_watch = se_watch,
    .activate_model_partition = activate_model_partition,
    .get_interval_decimal = get_interval_decimal,
    .get_shift_decimal = get_shift_decimal,
    .get_interval_fraction = get_interval_fraction,
    .get_shift_fraction = get_shift_fraction,
    .se_log = se_log,
    .se_log_clear = se_log_clear,
};
