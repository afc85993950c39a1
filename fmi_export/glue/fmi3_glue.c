/* Model-agnostic FMI 3.0 glue: all 75 fmi3* functions on the same model API (fmuc_model.h) as the
 * FMI 2.0 glue, so one model.c serves both versions. Model Exchange and Co-Simulation (without
 * Event Mode: hasEventMode="false", eventModeUsed=true is refused at instantiation; DoStep never
 * returns early; a model with FMUC_M_CAP_CS_EVENT_MODE has them: see cs_event_step); Scheduled
 * Execution for a model with FMUC_M_CAP_SE and a clock table (section "Scheduled Execution"
 * below: Clock Activation Mode, fmi3ActivateModelPartition, output and countdown clocks, the
 * importer's preemption locks); structural parameters and Configuration Mode: fmi3_glue_sp.c and
 * fmi3Enter/ExitConfigurationMode; clocks in ME/CS, Reconfiguration Mode and output derivatives
 * are not provided (the functions exist, A-17, and return fmi3Error after logging); the
 * per-element dependencies are the model's declared ones, whole variables (§2.2.9). The state machine is one mask of allowed states per function
 * (fmi3-rules §D.1/§D.2 merged) plus the interface types that may call it; values are accessed
 * with nValues = the sum of the element counts (arrays: fmuc_m_var.dim, §2.2.7.1); FMU state and
 * serialization use a checked blob (§2.2.7.4). Memory: the FMU allocates itself (FMI 3.0 has no
 * memory callbacks); models reach calloc/free through fmuc_m_alloc/fmuc_m_free. */
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmuc_model.h"
#include "glue_core.h"
#include "fmi3_glue_sp.h"
#include "fmi3/fmi3.h"

/* --- state machine as data ----------------------------------------------------------------- */
enum {
    ST_INST = 1u << 0,
    ST_CFG = 1u << 1,   /* Configuration Mode (models with structural parameters) */
    ST_INIT = 1u << 2,
    ST_EM = 1u << 3,    /* Event Mode (ME; CS only with eventModeUsed, which is refused) */
    ST_CTM = 1u << 4,   /* ME Continuous-Time Mode */
    ST_SM = 1u << 5,    /* CS Step Mode */
    ST_RECFG = 1u << 6, /* Reconfiguration Mode (never entered) */
    ST_TERM = 1u << 7,
    ST_ERR = 1u << 8,   /* Terminated after fmi3Error (§2.2.4): like ST_TERM, values for debugging */
    ST_FAT = 1u << 9,
    ST_CAM = 1u << 10  /* SE Clock Activation Mode (Clock Update Mode is a phase of it: while the
                        * FMU calls clockUpdate) */
};
#define ST_T (ST_TERM | ST_ERR)
/* FMU State Settable (SE: Clock Activation Mode, fmi3-rules D.3) */
#define ST_SETTABLE (ST_INST | ST_INIT | ST_EM | ST_CTM | ST_SM | ST_CAM | ST_T)
#define ST_GET (ST_INST | ST_CFG | ST_INIT | ST_EM | ST_CTM | ST_SM | ST_CAM | ST_T)
#define ST_SET (ST_INST | ST_CFG | ST_INIT | ST_EM | ST_CTM | ST_SM | ST_CAM)

#define IF_C FMUC_FMI3_IF_C
#define IF_MECS FMUC_FMI3_IF_MECS
#define IF_ME FMUC_FMI3_IF_ME
#define IF_CS FMUC_FMI3_IF_CS
#define IF_SE FMUC_FMI3_IF_SE

/* F(name, allowed states, interface types) for every function that takes an instance. */
#ifdef FMUC_DEFECT_SE_ACTIVATE_IN_INIT
/* broken FMU (api-illegal-calls-fmi3--se): fmi3ActivateModelPartition also runs a partition in
 * Initialization Mode instead of returning fmi3Error (FMI 3.0.2 §5.2: Clock Activation Mode only) */
#define SE_ACTIVATE_STATES_ (ST_INIT | ST_CAM)
#else
#define SE_ACTIVATE_STATES_ ST_CAM
#endif

#define GLUE3_FUNCTIONS(F)                                                                         \
    F(SetDebugLogging, ST_SETTABLE, IF_C)                                                          \
    F(EnterInitializationMode, ST_INST, IF_C)                                                      \
    F(ExitInitializationMode, ST_INIT, IF_C)                                                       \
    F(EnterEventMode, ST_CTM | ST_SM, IF_MECS) /* CS: only with eventModeUsed (cond. 22) */      \
    F(Terminate, ST_EM | ST_CTM | ST_SM | ST_CAM, IF_C)                                            \
    F(Reset, ST_SETTABLE, IF_C)                                                                    \
    F(GetFloat32, ST_GET, IF_C)                                                                    \
    F(GetFloat64, ST_GET, IF_C)                                                                    \
    F(GetInt8, ST_GET, IF_C)                                                                       \
    F(GetUInt8, ST_GET, IF_C)                                                                      \
    F(GetInt16, ST_GET, IF_C)                                                                      \
    F(GetUInt16, ST_GET, IF_C)                                                                     \
    F(GetInt32, ST_GET, IF_C)                                                                      \
    F(GetUInt32, ST_GET, IF_C)                                                                     \
    F(GetInt64, ST_GET, IF_C)                                                                      \
    F(GetUInt64, ST_GET, IF_C)                                                                     \
    F(GetBoolean, ST_GET, IF_C)                                                                    \
    F(GetString, ST_GET, IF_C)                                                                     \
    F(GetBinary, ST_GET, IF_C)                                                                     \
    F(GetClock, ST_EM | ST_CAM, IF_C)                                                              \
    F(SetFloat32, ST_SET, IF_C)                                                                    \
    F(SetFloat64, ST_SET, IF_C)                                                                    \
    F(SetInt8, ST_SET, IF_C)                                                                       \
    F(SetUInt8, ST_SET, IF_C)                                                                      \
    F(SetInt16, ST_SET, IF_C)                                                                      \
    F(SetUInt16, ST_SET, IF_C)                                                                     \
    F(SetInt32, ST_SET, IF_C)                                                                      \
    F(SetUInt32, ST_SET, IF_C)                                                                     \
    F(SetInt64, ST_SET, IF_C)                                                                      \
    F(SetUInt64, ST_SET, IF_C)                                                                     \
    F(SetBoolean, ST_SET, IF_C)                                                                    \
    F(SetString, ST_SET, IF_C)                                                                     \
    F(SetBinary, ST_SET, IF_C)                                                                     \
    F(SetClock, ST_EM, IF_MECS)                                                                    \
    F(GetNumberOfVariableDependencies, ST_SETTABLE, IF_C)                                          \
    F(GetVariableDependencies, ST_SETTABLE, IF_C)                                                  \
    F(GetFMUState, ST_SETTABLE, IF_C)                                                              \
    F(SetFMUState, ST_SETTABLE, IF_C)                                                              \
    F(FreeFMUState, ST_SETTABLE, IF_C)                                                             \
    F(SerializedFMUStateSize, ST_SETTABLE, IF_C)                                                   \
    F(SerializeFMUState, ST_SETTABLE, IF_C)                                                        \
    F(DeserializeFMUState, ST_SETTABLE, IF_C)                                                      \
    F(GetDirectionalDerivative, ST_INIT | ST_EM | ST_CTM | ST_SM | ST_CAM | ST_T, IF_C)            \
    F(GetAdjointDerivative, ST_INIT | ST_EM | ST_CTM | ST_SM | ST_CAM | ST_T, IF_C)                \
    F(EnterConfigurationMode, ST_INST | ST_EM | ST_SM, IF_C)                                       \
    F(ExitConfigurationMode, ST_CFG | ST_RECFG, IF_C)                                              \
    F(GetIntervalDecimal, ST_INIT | ST_EM | ST_CAM, IF_C)                                          \
    F(GetIntervalFraction, ST_INIT | ST_EM | ST_CAM, IF_C)                                         \
    F(GetShiftDecimal, ST_INIT, IF_C)                                                              \
    F(GetShiftFraction, ST_INIT, IF_C)                                                             \
    F(SetIntervalDecimal, ST_INIT | ST_EM, IF_C)                                                   \
    F(SetIntervalFraction, ST_INIT | ST_EM, IF_C)                                                  \
    F(SetShiftDecimal, ST_INIT, IF_C)                                                              \
    F(SetShiftFraction, ST_INIT, IF_C)                                                             \
    F(EvaluateDiscreteStates, ST_EM, IF_MECS)                                                      \
    F(UpdateDiscreteStates, ST_EM, IF_MECS)                                                        \
    F(EnterContinuousTimeMode, ST_EM, IF_ME)                                                       \
    F(CompletedIntegratorStep, ST_CTM, IF_ME)                                                      \
    F(SetTime, ST_CTM, IF_ME)                                                                      \
    F(SetContinuousStates, ST_CTM, IF_ME)                                                          \
    F(GetContinuousStateDerivatives, ST_INIT | ST_EM | ST_CTM | ST_T, IF_ME)                       \
    F(GetEventIndicators, ST_INIT | ST_EM | ST_CTM | ST_T, IF_ME)                                  \
    F(GetContinuousStates, ST_INIT | ST_EM | ST_CTM | ST_T, IF_ME)                                 \
    F(GetNominalsOfContinuousStates, ST_INIT | ST_EM | ST_CTM | ST_T, IF_ME)                       \
    F(GetNumberOfEventIndicators, ST_INST | ST_INIT | ST_EM | ST_CTM | ST_T, IF_ME)                \
    F(GetNumberOfContinuousStates, ST_INST | ST_INIT | ST_EM | ST_CTM | ST_T, IF_ME)               \
    F(EnterStepMode, ST_EM, IF_CS)                                                                 \
    F(GetOutputDerivatives, ST_SM | ST_T, IF_CS)                                                   \
    F(DoStep, ST_SM, IF_CS)                                                                        \
    F(ActivateModelPartition, SE_ACTIVATE_STATES_, IF_SE)

#define GLUE_ENUM_(name, mask, iface) FN_##name,
enum { GLUE3_FUNCTIONS(GLUE_ENUM_) FN_COUNT_ };
#undef GLUE_ENUM_

typedef struct {
    const char *name;
    unsigned mask, iface;
} fn_rule;

#define GLUE_RULE_(name, mask, iface) {"fmi3" #name, (mask), (iface)},
static const fn_rule fn_rules[FN_COUNT_] = {GLUE3_FUNCTIONS(GLUE_RULE_)};
#undef GLUE_RULE_

/* --- instance ------------------------------------------------------------------------------ */
#define CTX_MAGIC 0x464d5533u  /* "FMU3" */
#define NODE_MAGIC 0x464d5333u /* "FMS3" */
#define BLOB_MAGIC 0x33554d46u /* "FMU3" reversed */
#define MAX_CATEGORIES 64

/* the glue's fields in an FMU state (glue_core.h); with them the intervals the clocks of the
 * clock table have announced (countdown and changing clocks: CD_* and the interval; at most
 * FS_CLOCKS clocks, mdgen refuses more in a model with FMU state) */
#define FS_CLOCKS 16
typedef struct {
    uint32_t state, flags;
    double time, start_time, stop_time, tolerance, t_event, t_cis_last, t_cis_prev;
    int32_t announced[FS_CLOCKS];
    double announced_interval[FS_CLOCKS];
} blob_glue;

#define GF_STOP 1u
#define GF_TOL 2u
#define GF_TERMINATED 4u

/* Scheduled Execution: what the glue knows of one clock of the model's clock table. */
enum { CD_NOT_YET_KNOWN = 0, CD_CHANGED, CD_UNCHANGED }; /* countdown interval, as reported */
struct se_clock_state {
    unsigned long activations; /* input clocks: fmi3ActivateModelPartition calls that ran */
    double last_activation;    /* input clocks: activationTime of the last of them */
    int ticked;                /* output clocks: ticked since the last fmi3GetClock */
    size_t ticked_by;          /* output clocks, ME/CS Event Mode: 1 + the index of the input
                                  clock whose partition ticked it (0: none) */
    int active;                /* input clocks, ME/CS Event Mode: set (and run) by fmi3SetClock
                                  in this instant; cleared by fmi3UpdateDiscreteStates */
    int countdown;             /* countdown and changing clocks: CD_* */
    int ticked_em;             /* input clocks, ME/CS: activated in the current Event Mode
                                  (cleared by fmi3EnterEventMode); a changing clock's interval
                                  is asked only then (condition 15) */
    double countdown_interval; /* countdown clocks: the interval of fmuc_m_countdown_set */
};

struct fmuc_m_ctx {
    uint32_t magic;
    const fmuc_m_desc *desc;
    char token[39];
    char *name;
    char *res_dir;
    fmi3InstanceEnvironment env;
    fmi3LogMessageCallback log;
    fmi2Type type; /* the model API's view: fmi2ModelExchange / fmi2CoSimulation */
    unsigned iface; /* FMUC_FMI3_IFACE_ME / _CS */
    unsigned state;
    unsigned char cat_on[MAX_CATEGORIES];
    size_t ncat;
    const char *const *cats;
    double time, start_time, stop_time, tolerance;
    /* fmi3SetTime's lower bound (§3.2.1): the time of the last fmi3EnterEventMode (or of
     * fmi3ExitInitializationMode) and of the second-last fmi3CompletedIntegratorStep */
    double t_event, t_cis_last, t_cis_prev;
    int stop_defined, tol_defined, terminated, dirty;
    size_t nxv;       /* number of state variables (arrays count once) */
    size_t nx;        /* number of state elements now: the length of the state vector (arrays
                       * sized by a structural parameter count their current elements) */
    size_t *xi, *dxi; /* table indices of the state variables and of their derivatives */
    double *work;     /* 6*nx doubles for the RK4 */
    fmuc_gc_state *states;
    void *data;
#ifdef FMUC_DEFECT_NOMINALS_CHANGED_SILENTLY
    unsigned nominal_epoch; /* state-changing event iterations so far */
#endif
    /* Co-Simulation with FMUC_M_CAP_CS_EVENT_MODE: the instantiation's eventModeUsed,
     * earlyReturnAllowed and intermediateUpdate, and the next event time the model announced in
     * the last fmi3UpdateDiscreteStates (Event Mode) */
    int cs_event_mode_used, cs_early_return_allowed, cs_next_event_defined;
    double cs_next_event;
    fmi3IntermediateUpdateCallback cs_intermediate_update;
    /* requiredIntermediateVariables were given (all FMUC_M_INTERMEDIATE): every step enters
     * Intermediate Update Mode at its middle with intermediateVariableGetAllowed (in_ium while
     * the callback runs) */
    int cs_iu_registered, in_ium;
    double cs_defect_tev; /* FMUC_DEFECT_CS_EARLY_RETURN: the event it returned early before */
    /* FMUC_M_CAP_EVAL_DISCRETE: fmi3EvaluateDiscreteStates ran the model's event_update at this
     * instant (evaluated): its outcome, kept for the following fmi3UpdateDiscreteStates, and the
     * data block before it (the previous values, restored when a set comes in between) */
    int evaluated;
    fmi2EventInfo eval_info;
    fmi3Status eval_st;
    void *eval_prev;
    /* Scheduled Execution: the importer's callbacks, the runtime state of each clock of the
     * model's clock table (same index), and the partitions running now */
    fmi3ClockUpdateCallback se_clock_update;
    fmi3LockPreemptionCallback se_lock;
    fmi3UnlockPreemptionCallback se_unlock;
    struct se_clock_state *se_clocks;
    unsigned se_active_partitions;
    /* ME/CS Event Mode with a clock of canBeDeactivated: per clock of the table, the data block
     * as it was before the clock's partition ran in this instant (F-23), and 1 + the index of
     * the input clock whose partition runs now (0: none) */
    unsigned char *em_before;
    size_t em_running;
};

static const char *const default_categories[] = {"logEvents",      "logStatusWarning",
                                                 "logStatusDiscard", "logStatusError",
                                                 "logStatusFatal", NULL};

/* --- logging ------------------------------------------------------------------------------- */
static long cat_index(const fmuc_m_ctx *c, const char *name)
{
    for (size_t i = 0; i < c->ncat; i++)
        if (strcmp(c->cats[i], name) == 0)
            return (long)i;
    return -1;
}

/* Messages go to logMessage only for enabled categories (§2.3.1: loggingOn=false means no call
 * until fmi3SetDebugLogging enables some). The category is a declared one, or NULL when the
 * model declares none. fmi2Status and fmi3Status share their codes 0..4. */
static void vlog(const fmuc_m_ctx *c, fmi2Status st, const char *category, const char *fmt,
                 va_list ap)
{
    if (!c->log)
        return;
    long idx = category ? cat_index(c, category) : -1;
    if (idx < 0) {
        idx = cat_index(c, fmuc_gc_status_category(st > fmi2Fatal ? fmi2Fatal : st));
        if (idx < 0 && c->ncat > 0)
            idx = 0;
    }
    if (idx >= 0 ? !c->cat_on[idx] : !c->cat_on[MAX_CATEGORIES - 1])
        return;
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    fmi3InstanceEnvironment env = c->env;
#ifdef FMUC_DEFECT_LOGGER_ENV_NULL
    env = NULL; /* not the instanceEnvironment the importer gave */
#endif
    c->log(env, (fmi3Status)st, idx >= 0 ? c->cats[idx] : NULL, buf);
}

static void glog(const fmuc_m_ctx *c, fmi2Status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void glog(const fmuc_m_ctx *c, fmi2Status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(c, st, NULL, fmt, ap);
    va_end(ap);
}

/* --- services for models ------------------------------------------------------------------- */
void fmuc_m_log(fmuc_m_ctx *c, fmi2Status status, const char *category, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(c, status, category, fmt, ap);
    va_end(ap);
}

void *fmuc_m_alloc(fmuc_m_ctx *c, size_t n, size_t size)
{
    (void)c;
    return calloc(n, size);
}

void fmuc_m_free(fmuc_m_ctx *c, void *p)
{
    (void)c;
    free(p);
}

const char *fmuc_m_resource_dir(const fmuc_m_ctx *c) { return c->res_dir; }
double fmuc_m_time(const fmuc_m_ctx *c) { return c->time; }
double fmuc_m_tolerance(const fmuc_m_ctx *c, int *defined)
{
    if (defined)
        *defined = c->tol_defined;
    return c->tolerance;
}
fmi2Type fmuc_m_interface(const fmuc_m_ctx *c) { return c->type; }
const char *fmuc_m_instance_name(const fmuc_m_ctx *c) { return c->name; }

int fmuc_m_resource_path(const fmuc_m_ctx *c, const char *rel, char *out, size_t size)
{
    if (!c->res_dir || !rel)
        return -1;
    int n = snprintf(out, size, "%s/%s", c->res_dir, rel);
    return (n < 0 || (size_t)n >= size) ? -1 : 0;
}

fmuc_m_phase fmuc_m_get_phase(const fmuc_m_ctx *c)
{
    switch (c->state) {
    case ST_INST:
    case ST_CFG:
        return FMUC_M_PHASE_INSTANTIATED;
    case ST_INIT:
        return FMUC_M_PHASE_INIT;
    case ST_EM:
        return FMUC_M_PHASE_EVENT;
    case ST_CTM:
        return FMUC_M_PHASE_CONTINUOUS;
    case ST_SM:
    case ST_RECFG:
        return FMUC_M_PHASE_STEP;
    case ST_TERM:
        return FMUC_M_PHASE_TERMINATED;
    case ST_CAM:
        return FMUC_M_PHASE_CLOCK_ACTIVATION;
    default:
        return FMUC_M_PHASE_ERROR;
    }
}

/* --- common helpers ------------------------------------------------------------------------ */
static fmuc_m_ctx *ctx_of(fmi3Instance inst)
{
    fmuc_m_ctx *x = inst;
    if (!x || x->magic != CTX_MAGIC)
        return NULL;
    return x;
}

static const char *state_name(unsigned st)
{
    switch (st) {
    case ST_INST:
        return "Instantiated";
    case ST_CFG:
        return "Configuration Mode";
    case ST_INIT:
        return "Initialization Mode";
    case ST_EM:
        return "Event Mode";
    case ST_CTM:
        return "Continuous-Time Mode";
    case ST_SM:
        return "Step Mode";
    case ST_RECFG:
        return "Reconfiguration Mode";
    case ST_TERM:
        return "Terminated";
    case ST_ERR:
        return "Terminated (after an error)";
    case ST_CAM:
        return "Clock Activation Mode";
    default:
        return "fatal";
    }
}

/* fmi3Error moves the instance to Terminated (§2.2.4), fmi3Fatal ends it. */
static fmi3Status done(fmuc_m_ctx *c, fmi3Status st)
{
    if (st == fmi3Error)
        c->state = ST_ERR;
    else if (st == fmi3Fatal)
        c->state = ST_FAT;
    return st;
}

static const char *iface_name(unsigned iface)
{
    return iface == FMUC_FMI3_IFACE_ME   ? "ModelExchange"
           : iface == FMUC_FMI3_IFACE_CS ? "CoSimulation"
                                         : "ScheduledExecution";
}

static int allowed(fmuc_m_ctx *c, int fn)
{
    const fn_rule *r = &fn_rules[fn];
    if (!(r->iface & c->iface)) {
        glog(c, fmi2Error, "%s: not available for a %s instance", r->name, iface_name(c->iface));
        return 0;
    }
#ifndef FMUC_DEFECT_NO_STATE_MACHINE
    if (!(r->mask & c->state)) {
        glog(c, fmi2Error, "%s: illegal call sequence (not allowed in %s)", r->name,
             state_name(c->state));
        return 0;
    }
#else
    (void)state_name; /* broken FMU (api-illegal-calls-fmi3): every state accepts every call */
#endif
    return 1;
}

/* Opens every instance function fn: a valid handle and a state that allows fn. 1 with *out set;
 * 0 with *st the status to return (Error, which ends in Terminated; Fatal after a fatal
 * error). */
static int begin_call(fmi3Instance instance, int fn, fmuc_m_ctx **out, fmi3Status *st)
{
    fmuc_m_ctx *c = *out = ctx_of(instance);
    if (!c) {
        *st = fmi3Error;
        return 0;
    }
    if (c->state == ST_FAT) {
        *st = fmi3Fatal;
        return 0;
    }
    if (!allowed(c, fn)) {
        *st = done(c, fmi3Error);
        return 0;
    }
    return 1;
}

#define BEGIN(fn)                                                                                  \
    fmuc_m_ctx *c;                                                                                 \
    fmi3Status begin_st_;                                                                          \
    if (!begin_call(instance, FN_##fn, &c, &begin_st_))                                            \
    return begin_st_

#define REQUIRE_PTR(p, fn)                                                                         \
    do {                                                                                           \
        if (!(p)) {                                                                                \
            glog(c, fmi2Error, "fmi3" #fn ": argument '" #p "' is NULL");                          \
            return done(c, fmi3Error);                                                             \
        }                                                                                          \
    } while (0)

static fmi3Status worst(fmi3Status a, fmi3Status b) { return a > b ? a : b; }
static fmi3Status st3(fmi2Status s) { return (fmi3Status)s; }

/* Elements of v now (arrays sized by a structural parameter: its current value). */
static size_t nel(const fmuc_m_ctx *c, const fmuc_m_var *v)
{
    return fmuc_g3sp_elements(c->desc, c->data, v);
}

/* The length of the state vector with the current sizes. */
static size_t count_states(const fmuc_m_ctx *c)
{
    size_t n = 0;
    for (size_t i = 0; i < c->nxv; i++)
        n += nel(c, &c->desc->vars[c->xi[i]]);
    return n;
}

static const fmuc_m_var *find_vr(const fmuc_m_ctx *c, fmi3ValueReference vr)
{
    const fmuc_m_desc *d = c->desc;
    for (size_t i = 0; i < d->nvars; i++)
        if (d->vars[i].vr == vr)
            return &d->vars[i];
    return NULL;
}

/* The importer's preemption locks around the glue's updates of data shared between model
 * partitions (SE only; §5.2.1, D-09). */
static void se_lock(const fmuc_m_ctx *c)
{
    if (c->se_lock)
        c->se_lock();
}

static void se_unlock(const fmuc_m_ctx *c)
{
    if (c->se_unlock)
        c->se_unlock();
}

static void *field(const fmuc_m_ctx *c, const fmuc_m_var *v)
{
    return (char *)c->data + v->offset;
}

static int is_state(const fmuc_m_ctx *c, const fmuc_m_var *v)
{
    for (size_t i = 0; i < c->nxv; i++)
        if (&c->desc->vars[c->xi[i]] == v)
            return 1;
    return 0;
}

/* Why variable v may not be set now (NULL: it may). fmi3-rules §D.5 (conditions 1, 3-6). */
static const char *not_settable(const fmuc_m_ctx *c, const fmuc_m_var *v)
{
    fmuc_m_initial ini = fmuc_m_effective_initial(v);
    if (v->causality == FMUC_M_INDEPENDENT)
        return "it is the independent variable (set by fmi3EnterInitializationMode/SetTime/DoStep)";
    if (v->variability == FMUC_M_CONSTANT)
        return "it is a constant";
    const char *structural = fmuc_g3sp_not_settable(v, c->state == ST_CFG);
    if (structural || c->state == ST_CFG)
        return structural;
    switch (c->state) {
    case ST_INST:
        if (ini == FMUC_M_EXACT || ini == FMUC_M_APPROX || v->causality == FMUC_M_INPUT)
            return NULL;
        return "only variables with initial exact/approx may be set in Instantiated";
    case ST_INIT:
        if (ini == FMUC_M_EXACT || v->causality == FMUC_M_INPUT)
            return NULL;
        return "only inputs and initial=\"exact\" variables may be set in Initialization Mode";
    case ST_CAM: /* SE: before the partition that uses them is activated (D.3 cond. 25) */
#ifdef FMUC_DEFECT_SE_INPUT_REFUSED_IN_CAM
        /* broken FMU (se-nominal-run--input): inputs are refused in Clock Activation Mode */
        if (v->causality == FMUC_M_INPUT)
            return "inputs are not settable in Clock Activation Mode (deliberate defect)";
#endif
        /* fall through */
    case ST_EM:
    case ST_SM:
        if (v->causality == FMUC_M_INPUT ||
            (v->causality == FMUC_M_PARAMETER && v->variability == FMUC_M_TUNABLE))
            return NULL;
        if (v->causality == FMUC_M_PARAMETER)
            return "it is a fixed parameter (only settable before fmi3ExitInitializationMode)";
        if (v->causality == FMUC_M_OUTPUT)
            return "it is an output";
        return "only inputs and tunable parameters may be set after initialization";
    case ST_CTM:
        if ((v->causality == FMUC_M_INPUT && v->variability == FMUC_M_CONTINUOUS) ||
            is_state(c, v))
            return NULL;
        if (v->causality == FMUC_M_OUTPUT)
            return "it is an output";
        return "only continuous inputs and states may be set in Continuous-Time Mode";
    default:
        return "not settable in this state";
    }
}

static fmi3Status run_calc(fmuc_m_ctx *c)
{
    if (!c->dirty || !c->desc->calc)
        return fmi3OK;
    fmi3Status st = st3(c->desc->calc(c, c->data));
    if (st <= fmi3Warning)
        c->dirty = 0;
    return st;
}

/* Reads after an error serve the last values (debugging only); reads in Instantiated serve the
 * start values (§2.3.2) without evaluating the model. */
static fmi3Status calc_for_read(fmuc_m_ctx *c)
{
    if (c->state == ST_ERR || c->state == ST_INST)
        return fmi3OK;
    return run_calc(c);
}

/* --- FMU state blobs (glue_core.c) --------------------------------------------------------- */
static void fs_save(const fmuc_m_ctx *c, void *glue)
{
    blob_glue g;
    memset(&g, 0, sizeof g);
    g.state = c->state;
    g.flags = (c->stop_defined ? GF_STOP : 0) | (c->tol_defined ? GF_TOL : 0) |
              (c->terminated ? GF_TERMINATED : 0);
    g.time = c->time;
    g.start_time = c->start_time;
    g.stop_time = c->stop_time;
    g.tolerance = c->tolerance;
    g.t_event = c->t_event;
    g.t_cis_last = c->t_cis_last;
    g.t_cis_prev = c->t_cis_prev;
    for (size_t i = 0; c->se_clocks && i < c->desc->nclocks && i < FS_CLOCKS; i++) {
        g.announced[i] = c->se_clocks[i].countdown;
        g.announced_interval[i] = c->se_clocks[i].countdown_interval;
    }
    memcpy(glue, &g, sizeof g);
}

/* States an FMU state of this instance's interface type may hold. */
static unsigned fs_restorable(const fmuc_m_ctx *c)
{
    unsigned running = c->iface == FMUC_FMI3_IFACE_ME   ? ST_EM | ST_CTM
                       : c->iface == FMUC_FMI3_IFACE_CS ? ST_SM
                                                        : ST_CAM;
    return ST_INST | ST_INIT | ST_T | running;
}

static unsigned fs_set_phase(fmuc_m_ctx *c, unsigned st)
{
    unsigned old = c->state;
    c->state = st;
    return old;
}

static void fs_load(fmuc_m_ctx *c, const void *glue)
{
    blob_glue g;
    memcpy(&g, glue, sizeof g);
    c->stop_defined = (g.flags & GF_STOP) != 0;
    c->tol_defined = (g.flags & GF_TOL) != 0;
    c->terminated = (g.flags & GF_TERMINATED) != 0;
    c->time = g.time;
    c->start_time = g.start_time;
    c->stop_time = g.stop_time;
    c->tolerance = g.tolerance;
    c->t_event = g.t_event;
    c->t_cis_last = g.t_cis_last;
    c->t_cis_prev = g.t_cis_prev;
    for (size_t i = 0; c->se_clocks && i < c->desc->nclocks && i < FS_CLOCKS; i++) {
        c->se_clocks[i].countdown = g.announced[i];
        c->se_clocks[i].countdown_interval = g.announced_interval[i];
    }
    c->nx = count_states(c); /* the restored structural parameters' sizes */
    c->dirty = 1;
}

static const fmuc_gc_state_kind fs_kind = {
    {"fmi3GetFMUState", "fmi3SetFMUState", "fmi3FreeFMUState", "fmi3SerializedFMUStateSize",
     "fmi3SerializeFMUState", "fmi3DeserializeFMUState"},
    NODE_MAGIC,
    BLOB_MAGIC,
    "FMUState",
    "state was made by a different model (instantiationToken hash differs)",
    "the FMU state holds a state-machine state of another interface type",
    sizeof(blob_glue),
    fs_save,
    fs_restorable,
    fs_set_phase,
    fs_load,
};

/* the instance's FMU states for glue_core */
#define FS_(c) (&(fmuc_gc_states){&fs_kind, (c), (c)->desc, (c)->data, (c)->token, &(c)->states})

/* --- version, logging ---------------------------------------------------------------------- */
const char *fmi3GetVersion(void)
{
#ifdef FMUC_DEFECT_WRONG_VERSION
    return "2.0"; /* not the fmi3Version of the header it was compiled with */
#else
    return fmi3Version;
#endif
}

fmi3Status fmi3SetDebugLogging(fmi3Instance instance, fmi3Boolean loggingOn, size_t nCategories,
                               const fmi3String categories[])
{
    BEGIN(SetDebugLogging);
#ifdef FMUC_DEFECT_DEBUG_LOGGING_ALL_ERROR
    if (nCategories == 0) { /* refuses "all categories" (§2.3.1: nCategories=0 means all) */
        glog(c, fmi2Error, "fmi3SetDebugLogging: a list of categories is required");
        return done(c, fmi3Error);
    }
#endif
    if (nCategories == 0) {
        for (size_t i = 0; i < c->ncat; i++)
            c->cat_on[i] = loggingOn ? 1 : 0;
        c->cat_on[MAX_CATEGORIES - 1] = loggingOn ? 1 : 0;
        return fmi3OK;
    }
    REQUIRE_PTR(categories, SetDebugLogging);
    for (size_t i = 0; i < nCategories; i++) {
        long k = categories[i] ? cat_index(c, categories[i]) : -1;
        if (k < 0) {
            glog(c, fmi2Error, "fmi3SetDebugLogging: category '%s' is not declared in LogCategories",
                 categories[i] ? categories[i] : "(null)");
            return done(c, fmi3Error);
        }
    }
    for (size_t i = 0; i < nCategories; i++)
        c->cat_on[cat_index(c, categories[i])] = loggingOn ? 1 : 0;
    return fmi3OK;
}

/* --- creation and destruction -------------------------------------------------------------- */
/* A changing clock's first interval (its .interval) is known from the start: reported
 * fmi3IntervalChanged by the first inquiry (F-20: t0 = start + interval). */
static void em_init_clocks(fmuc_m_ctx *c)
{
    for (size_t i = 0; c->se_clocks && i < c->desc->nclocks; i++)
        if (c->desc->clocks[i].interval_variability == FMUC_M_CLOCK_CHANGING) {
            c->se_clocks[i].countdown = CD_CHANGED;
            c->se_clocks[i].countdown_interval = c->desc->clocks[i].interval;
        }
}

static void free_ctx(fmuc_m_ctx *c)
{
    fmuc_gc_state_free_all(FS_(c));
    if (c->data && c->desc->release)
        c->desc->release(c, c->data);
    free(c->data);
    free(c->eval_prev);
    free(c->work);
    free(c->se_clocks);
    free(c->em_before);
    free(c->xi);
    free(c->dxi);
    free(c->res_dir);
    free(c->name);
    c->magic = 0;
    free(c);
}

/* Before an instance exists: the standard's error category (or the model's first one). */
static void early_log(fmi3LogMessageCallback log, fmi3InstanceEnvironment env, int loggingOn,
                      const char *msg)
{
    if (!log || !loggingOn)
        return;
    const char *const *cats = fmuc_model.log_categories ? fmuc_model.log_categories
                                                        : default_categories;
    const char *cat = NULL;
    for (size_t i = 0; cats[i]; i++) {
        if (!cat)
            cat = cats[i];
        if (strcmp(cats[i], "logStatusError") == 0) {
            cat = cats[i];
            break;
        }
    }
    log(env, fmi3Error, cat, msg);
}

/* resourcePath: an absolute native path, with a trailing separator (§2.3.1); kept without it. */
static char *copy_resource_dir(const char *path)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    memcpy(out, path, n);
    out[n] = '\0';
    return out;
}

static fmuc_m_ctx *instantiate(const char *fn, unsigned iface, fmi3String instanceName,
                               fmi3String instantiationToken, fmi3String resourcePath,
                               fmi3Boolean loggingOn, fmi3InstanceEnvironment env,
                               fmi3LogMessageCallback logMessage)
{
    const fmuc_m_desc *d = &fmuc_model;
    char token[39], msg[512];
#ifndef FMUC_DEFECT_ACCEPT_EMPTY_NAME
    if (!instanceName || fmuc_gc_blank(instanceName)) {
        snprintf(msg, sizeof msg, "%s: instanceName is NULL or blank", fn);
        early_log(logMessage, env, loggingOn, msg);
        return NULL;
    }
#else
    if (!instanceName)
        instanceName = "";
#endif
    if ((iface == FMUC_FMI3_IFACE_ME && !(d->caps & FMUC_M_CAP_ME)) ||
        (iface == FMUC_FMI3_IFACE_CS && !(d->caps & FMUC_M_CAP_CS)) ||
        (iface == FMUC_FMI3_IFACE_SE && !(d->caps & FMUC_M_CAP_SE))) {
        snprintf(msg, sizeof msg, "%s: the interface type is not provided by %s", fn,
                 d->model_identifier);
        early_log(logMessage, env, loggingOn, msg);
        return NULL;
    }
    fmuc_m_guid(d, token);
#ifndef FMUC_DEFECT_ACCEPT_ANY_GUID
    if (!instantiationToken || strcmp(instantiationToken, token) != 0) {
        snprintf(msg, sizeof msg, "%s: instantiationToken '%s' does not match the model's '%s'",
                 fn, instantiationToken ? instantiationToken : "(null)", token);
        early_log(logMessage, env, loggingOn, msg);
        return NULL;
    }
#else
    (void)instantiationToken;
#endif
#ifdef FMUC_DEFECT_INSTANTIATE_NEEDS_LOGGING
    if (!loggingOn) {
        snprintf(msg, sizeof msg, "%s: loggingOn=false is not supported", fn);
        early_log(logMessage, env, 1, msg);
        return NULL;
    }
#endif
    fmuc_m_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(msg, sizeof msg, "%s: out of memory", fn);
        early_log(logMessage, env, loggingOn, msg);
        return NULL;
    }
    c->magic = CTX_MAGIC;
    c->desc = d;
    memcpy(c->token, token, sizeof token);
    c->env = env;
    c->log = logMessage;
#ifdef FMUC_DEFECT_LOG_MESSAGE_NULL_CRASH
    { /* "checks" the logger by reading through it: a NULL logMessage crashes */
        volatile unsigned char first = *(const volatile unsigned char *)(const void *)logMessage;
        (void)first;
    }
#endif
    c->iface = iface;
    /* fmi2Type has no Scheduled Execution: SE instances report fmi2CoSimulation (fmuc_model.h) */
    c->type = iface == FMUC_FMI3_IFACE_ME ? fmi2ModelExchange : fmi2CoSimulation;
    c->state = ST_INST;
    c->cats = d->log_categories ? d->log_categories : default_categories;
    while (c->ncat < MAX_CATEGORIES - 1 && c->cats[c->ncat])
        c->ncat++;
    for (size_t i = 0; i < c->ncat; i++)
        c->cat_on[i] = loggingOn ? 1 : 0;
    c->cat_on[MAX_CATEGORIES - 1] = loggingOn ? 1 : 0; /* messages without a category */

    size_t nlen = strlen(instanceName);
    c->name = malloc(nlen + 1);
    if (!c->name)
        goto oom;
    memcpy(c->name, instanceName, nlen + 1);

    if (resourcePath && *resourcePath) {
        if (resourcePath[0] != '/')
            glog(c, fmi2Warning, "%s: resourcePath '%s' is not an absolute path; ignored", fn,
                 resourcePath);
        else if (!(c->res_dir = copy_resource_dir(resourcePath)))
            goto oom;
    }

    /* states = targets of the derivative variables, in table order of the derivatives */
    for (size_t i = 0; i < d->nvars; i++) {
        long s = d->vars[i].derivative_of ? fmuc_m_find(d, d->vars[i].derivative_of) : -1;
        if (s >= 0) {
            c->nxv++;
            c->nx += d->vars[s].dim > 1 ? d->vars[s].dim : 1; /* storage, for c->work */
        }
    }
    if (c->nxv) {
        c->xi = calloc(c->nxv, sizeof *c->xi);
        c->dxi = calloc(c->nxv, sizeof *c->dxi);
        c->work = calloc(6 * c->nx, sizeof *c->work);
        if (!c->xi || !c->dxi || !c->work)
            goto oom;
        size_t k = 0;
        for (size_t i = 0; i < d->nvars; i++) {
            long s = d->vars[i].derivative_of ? fmuc_m_find(d, d->vars[i].derivative_of) : -1;
            if (s >= 0) {
                c->dxi[k] = i;
                c->xi[k] = (size_t)s;
                k++;
            }
        }
    }
    if ((iface == FMUC_FMI3_IFACE_SE || (d->caps & FMUC_M_CAP_EM_CLOCKS)) && d->nclocks &&
        !(c->se_clocks = calloc(d->nclocks, sizeof *c->se_clocks)))
        goto oom;
    em_init_clocks(c);
    if (c->se_clocks && iface != FMUC_FMI3_IFACE_SE) {
        int deactivatable = 0;
        for (size_t i = 0; i < d->nclocks; i++)
            deactivatable |= (d->clocks[i].flags & FMUC_M_CLOCK_CAN_DEACTIVATE) != 0;
        if (deactivatable &&
            !(c->em_before = calloc(d->nclocks, d->data_size ? d->data_size : 1)))
            goto oom;
    }
    c->data = calloc(1, d->data_size ? d->data_size : 1);
    if (!c->data)
        goto oom;
    fmuc_gc_write_starts(c->desc, c->data);
    c->nx = count_states(c);
    c->dirty = 1;
    if (d->start) {
        fmi3Status st = st3(d->start(c, c->data));
        if (st > fmi3Warning) {
            glog(c, fmi2Error, "%s: model start failed", fn);
            free_ctx(c);
            return NULL;
        }
    }
    return c;
oom:
    snprintf(msg, sizeof msg, "%s: out of memory", fn);
    early_log(logMessage, env, loggingOn, msg);
    free_ctx(c);
    return NULL;
}

fmi3Instance fmi3InstantiateModelExchange(fmi3String instanceName, fmi3String instantiationToken,
                                          fmi3String resourcePath, fmi3Boolean visible,
                                          fmi3Boolean loggingOn,
                                          fmi3InstanceEnvironment instanceEnvironment,
                                          fmi3LogMessageCallback logMessage)
{
    (void)visible;
    return instantiate("fmi3InstantiateModelExchange", FMUC_FMI3_IFACE_ME, instanceName,
                       instantiationToken, resourcePath, loggingOn, instanceEnvironment,
                       logMessage);
}

fmi3Instance fmi3InstantiateCoSimulation(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath,
    fmi3Boolean visible, fmi3Boolean loggingOn, fmi3Boolean eventModeUsed,
    fmi3Boolean earlyReturnAllowed, const fmi3ValueReference requiredIntermediateVariables[],
    size_t nRequiredIntermediateVariables, fmi3InstanceEnvironment instanceEnvironment,
    fmi3LogMessageCallback logMessage, fmi3IntermediateUpdateCallback intermediateUpdate)
{
    (void)visible;
    (void)requiredIntermediateVariables;
    int event_mode = (fmuc_model.caps & FMUC_M_CAP_CS_EVENT_MODE) != 0;
    if (eventModeUsed && !event_mode) {
        /* hasEventMode="false": eventModeUsed=true must be refused (§2.3.1) */
        early_log(logMessage, instanceEnvironment, loggingOn,
                  "fmi3InstantiateCoSimulation: eventModeUsed=true but the FMU declares "
                  "hasEventMode=\"false\"");
        return NULL;
    }
    /* requiredIntermediateVariables name variables with intermediateUpdate="true" only
     * (FMI 3.0.2 §2.3.1, fmi3-rules C-10): anything else is refused */
    if (nRequiredIntermediateVariables > 0 && !requiredIntermediateVariables) {
        early_log(logMessage, instanceEnvironment, loggingOn,
                  "fmi3InstantiateCoSimulation: requiredIntermediateVariables is NULL with "
                  "nRequiredIntermediateVariables > 0");
        return NULL;
    }
    for (size_t i = 0; i < nRequiredIntermediateVariables; i++) {
        const fmuc_m_var *v = NULL;
        for (size_t k = 0; k < fmuc_model.nvars && !v; k++)
            if (fmuc_model.vars[k].vr == requiredIntermediateVariables[i])
                v = &fmuc_model.vars[k];
        if (!v || !(v->flags & FMUC_M_INTERMEDIATE) || !event_mode) {
            char msg[160];
            snprintf(msg, sizeof msg,
                     "fmi3InstantiateCoSimulation: requiredIntermediateVariables[%zu] = %u is not "
                     "a variable with intermediateUpdate=\"true\"",
                     i, (unsigned)requiredIntermediateVariables[i]);
            early_log(logMessage, instanceEnvironment, loggingOn, msg);
            return NULL;
        }
    }
    fmuc_m_ctx *c = instantiate("fmi3InstantiateCoSimulation", FMUC_FMI3_IFACE_CS, instanceName,
                                instantiationToken, resourcePath, loggingOn, instanceEnvironment,
                                logMessage);
    /* without FMUC_M_CAP_CS_EVENT_MODE (mightReturnEarlyFromDoStep and providesIntermediateUpdate
     * "false") earlyReturnAllowed and intermediateUpdate are not used */
    if (c && event_mode) {
        c->cs_event_mode_used = eventModeUsed ? 1 : 0;
        c->cs_early_return_allowed = earlyReturnAllowed ? 1 : 0;
        c->cs_intermediate_update = intermediateUpdate;
        c->cs_iu_registered = nRequiredIntermediateVariables > 0;
    }
    return c;
}

fmi3Instance fmi3InstantiateScheduledExecution(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath,
    fmi3Boolean visible, fmi3Boolean loggingOn, fmi3InstanceEnvironment instanceEnvironment,
    fmi3LogMessageCallback logMessage, fmi3ClockUpdateCallback clockUpdate,
    fmi3LockPreemptionCallback lockPreemption, fmi3UnlockPreemptionCallback unlockPreemption)
{
    (void)visible;
    fmuc_m_ctx *c = instantiate("fmi3InstantiateScheduledExecution", FMUC_FMI3_IFACE_SE,
                                instanceName, instantiationToken, resourcePath, loggingOn,
                                instanceEnvironment, logMessage);
    if (c) { /* the importer's; the glue only calls them (NULL: not called) */
        c->se_clock_update = clockUpdate;
        c->se_lock = lockPreemption;
        c->se_unlock = unlockPreemption;
    }
    return c;
}

void fmi3FreeInstance(fmi3Instance instance)
{
#ifdef FMUC_DEFECT_FREE_NULL_CRASH
    volatile uint32_t m = ((fmuc_m_ctx *)instance)->magic; /* NULL is not ignored (§2.3.1) */
    (void)m;
#endif
    fmuc_m_ctx *c = ctx_of(instance);
    if (!c)
        return;
    free_ctx(c);
}

/* --- initialization, termination, reset ---------------------------------------------------- */
fmi3Status fmi3EnterInitializationMode(fmi3Instance instance, fmi3Boolean toleranceDefined,
                                       fmi3Float64 tolerance, fmi3Float64 startTime,
                                       fmi3Boolean stopTimeDefined, fmi3Float64 stopTime)
{
    BEGIN(EnterInitializationMode);
    if (!isfinite(startTime) || (stopTimeDefined && !(stopTime >= startTime))) {
        glog(c, fmi2Error, "fmi3EnterInitializationMode: invalid startTime %g / stopTime %g",
             startTime, stopTime);
        return done(c, fmi3Error);
    }
    c->tol_defined = toleranceDefined ? 1 : 0;
    c->tolerance = tolerance;
    c->start_time = startTime;
    c->stop_defined = stopTimeDefined ? 1 : 0;
    c->stop_time = stopTime;
    c->time = startTime;
    fmi3Status st = fmi3OK;
    if (c->desc->enter_init)
        st = st3(c->desc->enter_init(c, c->data));
    if (st > fmi3Warning)
        return done(c, st);
    c->state = ST_INIT;
    c->dirty = 1;
    return st;
}

fmi3Status fmi3ExitInitializationMode(fmi3Instance instance)
{
    BEGIN(ExitInitializationMode);
#ifdef FMUC_DEFECT_FPU_AT_CALLBACK
    {
        /* the x87 precision changed for a computation, the logger called in the middle of it,
         * the control word put back before returning: seen only by the callback */
        unsigned saved = fmuc_gc_fpu_save();
        fmuc_gc_defect_fpu_control();
        glog(c, fmi2OK, "ExitInitializationMode: computing with the x87 precision at 53 bits");
        fmuc_gc_fpu_restore(saved);
    }
#endif
    c->dirty = 1;
    fmi3Status st = run_calc(c); /* initial equations see the final init-mode values */
    if (st <= fmi3Warning && c->desc->exit_init)
        st = worst(st, st3(c->desc->exit_init(c, c->data)));
    if (st > fmi3Warning)
        return done(c, st);
    c->dirty = 1;
    c->t_event = c->t_cis_last = c->t_cis_prev = c->time;
    c->state = c->iface == FMUC_FMI3_IFACE_ME ? ST_EM : ST_SM; /* CS: eventModeUsed is false */
    if (c->iface == FMUC_FMI3_IFACE_SE)
        c->state = ST_CAM; /* §5.2: SE goes on in Clock Activation Mode */
    if (c->iface == FMUC_FMI3_IFACE_CS && c->cs_event_mode_used)
        c->state = ST_EM; /* §2.3.3: CS with eventModeUsed goes to Event Mode */
    return st;
}

fmi3Status fmi3EnterEventMode(fmi3Instance instance)
{
    BEGIN(EnterEventMode);
    if (c->iface == FMUC_FMI3_IFACE_CS && !c->cs_event_mode_used) {
        glog(c, fmi2Error, "fmi3EnterEventMode: the instance was created with eventModeUsed=false");
        return done(c, fmi3Error);
    }
    c->state = ST_EM;
    c->t_event = c->t_cis_last = c->t_cis_prev = c->time;
    for (size_t i = 0; c->se_clocks && i < c->desc->nclocks; i++)
        c->se_clocks[i].ticked_em = 0;
    return fmi3OK;
}

fmi3Status fmi3Terminate(fmi3Instance instance)
{
    BEGIN(Terminate);
    if (c->se_active_partitions) { /* D.3 condition 30 */
        glog(c, fmi2Error, "fmi3Terminate: %u model partition(s) still running",
             c->se_active_partitions);
        return done(c, fmi3Error);
    }
    c->state = ST_TERM;
#ifdef FMUC_DEFECT_TERMINATE_BAD_STATUS
    if (c->iface == FMUC_FMI3_IFACE_CS)
        return (fmi3Status)5; /* fmi2Pending's value: no fmi3Status has it (§2.2.4) */
#endif
    return fmi3OK;
}

fmi3Status fmi3Reset(fmi3Instance instance)
{
    BEGIN(Reset);
    if (c->se_active_partitions) { /* D.3 condition 23 */
        glog(c, fmi2Error, "fmi3Reset: %u model partition(s) still running",
             c->se_active_partitions);
        return done(c, fmi3Error);
    }
    if (c->se_clocks)
        memset(c->se_clocks, 0, c->desc->nclocks * sizeof *c->se_clocks);
    em_init_clocks(c);
    const fmuc_m_desc *d = c->desc;
    fmi3Status st = fmi3OK;
#ifndef FMUC_DEFECT_RESET_KEEPS_STATE
    if (d->release)
        d->release(c, c->data);
    memset(c->data, 0, d->data_size);
    fmuc_gc_write_starts(c->desc, c->data);
    if (d->start)
        st = st3(d->start(c, c->data));
    c->time = 0.0;
    c->start_time = 0.0;
    c->t_event = c->t_cis_last = c->t_cis_prev = 0.0;
    c->nx = count_states(c); /* structural parameters back at their start values */
#else
    /* values and time are kept (§2.3.1: fmi3Reset goes back to the state after instantiation) */
    (void)d;
    c->t_event = c->t_cis_last = c->t_cis_prev = c->time;
#endif
    c->stop_defined = 0;
    c->tol_defined = 0;
    c->terminated = 0;
    c->cs_next_event_defined = 0; /* Event Mode announces it again */
    c->evaluated = 0;
    c->dirty = 1;
    if (st > fmi3Warning)
        return done(c, st);
    c->state = ST_INST;
    return st;
}

/* --- getters and setters ------------------------------------------------------------------- */
/* Resolves the VRs for type t and checks nValues = the sum of their element counts (§2.2.7.1). */
static int resolve(fmuc_m_ctx *c, int fn, fmuc_m_type t, const fmi3ValueReference vr[],
                   size_t nvr, size_t nValues)
{
    size_t total = 0;
    for (size_t i = 0; i < nvr; i++) {
        const fmuc_m_var *v = find_vr(c, vr[i]);
        long k = v ? -1 : fmuc_m_find_clock_vr(c->desc, vr[i]);
        if (k >= 0) {
            glog(c, fmi2Error, "%s: variable '%s' (vr %u) is a Clock, not a %s",
                 fn_rules[fn].name, c->desc->clocks[k].name, vr[i], fmuc_gc_type_name(t));
            return 0;
        }
        if (!v) {
            glog(c, fmi2Error, "%s: unknown valueReference %u", fn_rules[fn].name, vr[i]);
            return 0;
        }
        if (v->type != t) {
            glog(c, fmi2Error, "%s: variable '%s' (vr %u) is a %s, not a %s", fn_rules[fn].name,
                 v->name, v->vr, fmuc_gc_type_name(v->type), fmuc_gc_type_name(t));
            return 0;
        }
        total += nel(c, v);
    }
#ifdef FMUC_DEFECT_NVALUES_UNCHECKED
    /* nValues is not compared with the element count: too many values pass */
    if (total < nValues)
        nValues = total;
#endif
    if (total != nValues) {
        /* the variables named (the first few), with their current element counts */
        char names[256];
        size_t o = 0;
        names[0] = '\0';
        for (size_t i = 0; i < nvr && i < 4 && o < sizeof names; i++) {
            const fmuc_m_var *v = find_vr(c, vr[i]);
            int w = snprintf(names + o, sizeof names - o, "%s'%s' (vr %u, %zu)", i ? ", " : "",
                             v->name, v->vr, nel(c, v));
            o += w > 0 ? (size_t)w : 0;
        }
        glog(c, fmi2Error,
             "%s: nValues = %zu, but the %zu value references have %zu elements: %s%s",
             fn_rules[fn].name, nValues, nvr, total, names, nvr > 4 ? ", ..." : "");
        return 0;
    }
    return 1;
}

/* What every get/set of values does first: the instance, the state mask, the empty call, NULL
 * arrays and the value references. *c is set only when the call goes on (then the result is OK);
 * otherwise the status to return. */
static fmi3Status begin_values(fmi3Instance instance, int fn, fmuc_m_type t,
                               const fmi3ValueReference vr[], size_t nvr, int have_values,
                               size_t nValues, fmuc_m_ctx **out)
{
    *out = NULL;
    fmuc_m_ctx *c;
    fmi3Status begin_st;
    if (!begin_call(instance, fn, &c, &begin_st))
        return begin_st;
#ifdef FMUC_DEFECT_IUM_GET_REFUSED
    /* broken FMU (cs-event-mode--ium-get): Intermediate Update Mode allows no get, although the
     * master registered the variables and the callback said intermediateVariableGetAllowed */
    if (c->in_ium && fn == FN_GetFloat64) {
        glog(c, fmi2Error, "fmi3GetFloat64: not in Intermediate Update Mode");
        return fmi3Error;
    }
#endif
#ifdef FMUC_DEFECT_GET_AFTER_TERMINATE
    if (c->state == ST_TERM && fn == FN_GetFloat64) { /* §2.3.4: final values can be inquired */
        glog(c, fmi2Error, "fmi3GetFloat64: the instance is terminated");
        return done(c, fmi3Error);
    }
#endif
    if (nvr == 0 && nValues == 0)
        return fmi3OK;
    if (!vr || !have_values) {
        glog(c, fmi2Error, "%s: valueReferences or values is NULL", fn_rules[fn].name);
        return done(c, fmi3Error);
    }
#ifdef FMUC_DEFECT_UNKNOWN_VR_OK
    /* broken FMU (api-bad-vr--fmi3): a call with a value reference no variable has does nothing
     * and returns fmi3OK */
    for (size_t i = 0; i < nvr; i++)
        if (!find_vr(c, vr[i]))
            return fmi3OK;
#endif
    if (!resolve(c, fn, t, vr, nvr, nValues))
        return done(c, fmi3Error);
    *out = c;
    return fmi3OK;
}

static fmi3Status get_values(fmi3Instance instance, int fn, fmuc_m_type t,
                             const fmi3ValueReference vr[], size_t nvr, void *values,
                             size_t nValues)
{
    fmuc_m_ctx *c = NULL;
    fmi3Status pre = begin_values(instance, fn, t, vr, nvr, values != NULL, nValues, &c);
    if (!c)
        return pre;
    fmi3Status st = calc_for_read(c);
    if (st > fmi3Warning) {
        glog(c, (fmi2Status)st, "%s: model evaluation failed", fn_rules[fn].name);
        return st == fmi3Discard ? st : done(c, st);
    }
    size_t o = 0;
    if (c->state == ST_CAM)
        se_lock(c); /* partitions may write what is read here */
    for (size_t i = 0; i < nvr; i++) {
        const fmuc_m_var *v = find_vr(c, vr[i]);
        const char *p = field(c, v);
        for (size_t k = 0; k < nel(c, v); k++, o++) {
            switch (t) {
            case FMUC_M_REAL:
                ((fmi3Float64 *)values)[o] = v->causality == FMUC_M_INDEPENDENT
                                                 ? c->time
                                                 : ((const double *)(const void *)p)[k];
                break;
            case FMUC_M_INTEGER:
                ((fmi3Int32 *)values)[o] = ((const int *)(const void *)p)[k];
                break;
            case FMUC_M_BOOLEAN:
                ((fmi3Boolean *)values)[o] = ((const int *)(const void *)p)[k] != 0;
                break;
            case FMUC_M_STRING:
                ((fmi3String *)values)[o] = p + k * FMUC_M_STRLEN;
                break;
            case FMUC_M_UINT64:
                ((fmi3UInt64 *)values)[o] = ((const uint64_t *)(const void *)p)[k];
                break;
            }
        }
    }
    if (c->state == ST_CAM)
        se_unlock(c);
#ifdef FMUC_DEFECT_GET_REAL_OVERRUN
    /* one element past nValues: the last value once more (a loop to <= nValues) */
    if (t == FMUC_M_REAL && nValues > 0)
        ((fmi3Float64 *)values)[nValues] = ((fmi3Float64 *)values)[nValues - 1];
#endif
    return st;
}

static double element_as_double(fmuc_m_type t, const void *values, size_t o)
{
    switch (t) {
    case FMUC_M_REAL:
        return ((const fmi3Float64 *)values)[o];
    case FMUC_M_INTEGER:
        return (double)((const fmi3Int32 *)values)[o];
    case FMUC_M_UINT64:
        return (double)((const fmi3UInt64 *)values)[o];
    default:
        return 0.0;
    }
}

/* A value set after fmi3EvaluateDiscreteStates at the same instant: the discrete states are
 * computed again from their previous values, so those come back. */
static void unevaluate(fmuc_m_ctx *c)
{
    if (!c->evaluated)
        return;
    memcpy(c->data, c->eval_prev, c->desc->data_size ? c->desc->data_size : 1);
    c->evaluated = 0;
    c->dirty = 1;
}

/* Validates every value first, so that a refused call (Error, or Discard for a value out of
 * [min, max]) leaves the FMU unchanged (§2.2.4: Discard keeps the state), an evaluation of the
 * discrete states included. */
static fmi3Status set_values(fmi3Instance instance, int fn, fmuc_m_type t,
                             const fmi3ValueReference vr[], size_t nvr, const void *values,
                             size_t nValues)
{
    fmuc_m_ctx *c = NULL;
    fmi3Status pre = begin_values(instance, fn, t, vr, nvr, values != NULL, nValues, &c);
    if (!c)
        return pre;
    size_t o = 0;
    for (size_t i = 0; i < nvr; i++) {
        const fmuc_m_var *v = find_vr(c, vr[i]);
        const char *why = not_settable(c, v);
        if (why) {
            glog(c, fmi2Error, "%s: variable '%s' (vr %u) cannot be set in %s: %s",
                 fn_rules[fn].name, v->name, v->vr, state_name(c->state), why);
            return done(c, fmi3Error);
        }
        for (size_t k = 0; k < nel(c, v); k++, o++) {
            if (t == FMUC_M_STRING) {
                const char *s = ((const fmi3String *)values)[o];
                if (!s || strlen(s) >= FMUC_M_STRLEN) {
                    glog(c, fmi2Error,
                         "%s: string for '%s' (vr %u) is NULL or longer than %d bytes",
                         fn_rules[fn].name, v->name, v->vr, FMUC_M_STRLEN - 1);
                    return done(c, fmi3Error);
                }
            } else if (t != FMUC_M_BOOLEAN && fmuc_gc_out_of_range(v, element_as_double(t, values, o))) {
                glog(c, fmi2Discard,
                     "%s: value %.17g for '%s' (vr %u, element %zu) is outside [%g, %g]; "
                     "nothing set",
                     fn_rules[fn].name, element_as_double(t, values, o), v->name, v->vr, k + 1,
                     (v->flags & FMUC_M_HAS_MIN) ? v->min : -HUGE_VAL,
                     (v->flags & FMUC_M_HAS_MAX) ? v->max : HUGE_VAL);
                return fmi3Discard;
            }
        }
    }
    o = 0;
    unevaluate(c);
    if (c->state == ST_CAM)
        se_lock(c); /* partitions may read what is written here */
    for (size_t i = 0; i < nvr; i++) {
        const fmuc_m_var *v = find_vr(c, vr[i]);
        char *p = field(c, v);
        for (size_t k = 0; k < nel(c, v); k++, o++) {
            switch (t) {
            case FMUC_M_REAL:
#ifdef FMUC_DEFECT_SET_NOT_KEPT_IN_INIT
                /* a parameter set in Initialization Mode is acknowledged and dropped */
                if (c->state == ST_INIT && v->causality == FMUC_M_PARAMETER)
                    break;
#endif
                ((double *)(void *)p)[k] = ((const fmi3Float64 *)values)[o];
                break;
            case FMUC_M_INTEGER:
                ((int *)(void *)p)[k] = ((const fmi3Int32 *)values)[o];
                break;
            case FMUC_M_BOOLEAN:
                ((int *)(void *)p)[k] = ((const fmi3Boolean *)values)[o] ? 1 : 0;
                break;
            case FMUC_M_STRING: {
                const char *s = ((const fmi3String *)values)[o];
                memcpy(p + k * FMUC_M_STRLEN, s, strlen(s) + 1);
                break;
            }
            case FMUC_M_UINT64:
                ((uint64_t *)(void *)p)[k] = ((const fmi3UInt64 *)values)[o];
                break;
            }
        }
    }
    c->dirty = 1;
    if (c->state == ST_CAM)
        se_unlock(c);
    return fmi3OK;
}

/* Types the model API has no variables of: any value reference is unknown for them. */
static fmi3Status no_such_type(fmi3Instance instance, int fn, const fmi3ValueReference vr[],
                               size_t nvr, const void *values, size_t nValues)
{
    fmuc_m_ctx *c;
    fmi3Status st;
    if (!begin_call(instance, fn, &c, &st))
        return st;
    if (nvr == 0 && nValues == 0)
        return fmi3OK;
    if (!vr || !values) {
        glog(c, fmi2Error, "%s: valueReferences or values is NULL", fn_rules[fn].name);
        return done(c, fmi3Error);
    }
    if (nvr == 0) {
        glog(c, fmi2Error, "%s: nValues = %zu for no value reference", fn_rules[fn].name,
             nValues);
        return done(c, fmi3Error);
    }
    const fmuc_m_var *v = find_vr(c, vr[0]);
    if (v)
        glog(c, fmi2Error, "%s: variable '%s' (vr %u) is a %s", fn_rules[fn].name, v->name,
             v->vr, fmuc_gc_type_name(v->type));
    else
        glog(c, fmi2Error, "%s: unknown valueReference %u", fn_rules[fn].name, vr[0]);
    return done(c, fmi3Error);
}

#define NO_TYPE_GETSET_(T, CT)                                                                     \
    fmi3Status fmi3Get##T(fmi3Instance instance, const fmi3ValueReference valueReferences[],       \
                          size_t nValueReferences, CT values[], size_t nValues)                    \
    {                                                                                              \
        return no_such_type(instance, FN_Get##T, valueReferences, nValueReferences, values,        \
                            nValues);                                                              \
    }                                                                                              \
    fmi3Status fmi3Set##T(fmi3Instance instance, const fmi3ValueReference valueReferences[],       \
                          size_t nValueReferences, const CT values[], size_t nValues)              \
    {                                                                                              \
        return no_such_type(instance, FN_Set##T, valueReferences, nValueReferences, values,        \
                            nValues);                                                              \
    }
NO_TYPE_GETSET_(Float32, fmi3Float32)
NO_TYPE_GETSET_(Int8, fmi3Int8)
NO_TYPE_GETSET_(UInt8, fmi3UInt8)
NO_TYPE_GETSET_(Int16, fmi3Int16)
NO_TYPE_GETSET_(UInt16, fmi3UInt16)
NO_TYPE_GETSET_(UInt32, fmi3UInt32)
NO_TYPE_GETSET_(Int64, fmi3Int64)
#undef NO_TYPE_GETSET_

#define MODEL_GETSET_(T, CT, MT)                                                                   \
    fmi3Status fmi3Get##T(fmi3Instance instance, const fmi3ValueReference valueReferences[],       \
                          size_t nValueReferences, CT values[], size_t nValues)                    \
    {                                                                                              \
        return get_values(instance, FN_Get##T, MT, valueReferences, nValueReferences,              \
                          (void *)values, nValues);                                                \
    }                                                                                              \
    fmi3Status fmi3Set##T(fmi3Instance instance, const fmi3ValueReference valueReferences[],       \
                          size_t nValueReferences, const CT values[], size_t nValues)              \
    {                                                                                              \
        return set_values(instance, FN_Set##T, MT, valueReferences, nValueReferences,              \
                          (const void *)values, nValues);                                          \
    }
MODEL_GETSET_(Float64, fmi3Float64, FMUC_M_REAL)
MODEL_GETSET_(Int32, fmi3Int32, FMUC_M_INTEGER)
MODEL_GETSET_(Boolean, fmi3Boolean, FMUC_M_BOOLEAN)
MODEL_GETSET_(String, fmi3String, FMUC_M_STRING)
MODEL_GETSET_(UInt64, fmi3UInt64, FMUC_M_UINT64) /* structural parameters */
#undef MODEL_GETSET_

fmi3Status fmi3GetBinary(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                         size_t nValueReferences, size_t valueSizes[], fmi3Binary values[],
                         size_t nValues)
{
    if (nValueReferences && !valueSizes) {
        fmuc_m_ctx *c = ctx_of(instance);
        if (c && c->state != ST_FAT) {
            glog(c, fmi2Error, "fmi3GetBinary: valueSizes is NULL");
            return done(c, fmi3Error);
        }
    }
    return no_such_type(instance, FN_GetBinary, valueReferences, nValueReferences, values,
                        nValues);
}

fmi3Status fmi3SetBinary(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                         size_t nValueReferences, const size_t valueSizes[],
                         const fmi3Binary values[], size_t nValues)
{
    (void)valueSizes;
    return no_such_type(instance, FN_SetBinary, valueReferences, nValueReferences, values,
                        nValues);
}

/* Clocks outside Scheduled Execution (and the interval/shift functions the SE glue does not
 * provide): every value reference is refused. */
static fmi3Status no_clock(fmi3Instance instance, int fn, const fmi3ValueReference vr[],
                           size_t nvr, const void *values)
{
    return no_such_type(instance, fn, vr, nvr, values, nvr);
}

/* The instance has a clock table: Scheduled Execution, or ME/CS with FMUC_M_CAP_EM_CLOCKS. */
static int is_se(fmi3Instance instance)
{
    const fmuc_m_ctx *c = ctx_of(instance);
    return c && c->se_clocks &&
           (c->iface == FMUC_FMI3_IFACE_SE || (c->desc->caps & FMUC_M_CAP_EM_CLOCKS));
}

static fmi3Status em_set_clock(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                               const fmi3Clock values[]);

static fmi3Status se_get_clock(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                               fmi3Clock values[]);
static fmi3Status se_get_interval(fmi3Instance instance, const fmi3ValueReference vr[],
                                  size_t nvr, fmi3Float64 intervals[],
                                  fmi3IntervalQualifier qualifiers[]);
static fmi3Status se_get_shift(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                               fmi3Float64 shifts[]);

fmi3Status fmi3GetClock(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                        size_t nValueReferences, fmi3Clock values[])
{
    if (is_se(instance))
        return se_get_clock(instance, valueReferences, nValueReferences, values);
    return no_clock(instance, FN_GetClock, valueReferences, nValueReferences, values);
}

fmi3Status fmi3SetClock(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                        size_t nValueReferences, const fmi3Clock values[])
{
    if (is_se(instance))
        return em_set_clock(instance, valueReferences, nValueReferences, values);
    return no_clock(instance, FN_SetClock, valueReferences, nValueReferences, values);
}

fmi3Status fmi3GetIntervalDecimal(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                  size_t nValueReferences, fmi3Float64 intervals[],
                                  fmi3IntervalQualifier qualifiers[])
{
    if (is_se(instance))
        return se_get_interval(instance, valueReferences, nValueReferences, intervals,
                               qualifiers);
    return no_clock(instance, FN_GetIntervalDecimal, valueReferences, nValueReferences,
                    intervals);
}

static fmi3Status se_get_fraction(fmi3Instance instance, int fn, const fmi3ValueReference vr[],
                                  size_t nvr, fmi3UInt64 counters[], fmi3UInt64 resolutions[],
                                  fmi3IntervalQualifier qualifiers[]);

fmi3Status fmi3GetIntervalFraction(fmi3Instance instance,
                                   const fmi3ValueReference valueReferences[],
                                   size_t nValueReferences, fmi3UInt64 counters[],
                                   fmi3UInt64 resolutions[], fmi3IntervalQualifier qualifiers[])
{
    if (is_se(instance))
        return se_get_fraction(instance, FN_GetIntervalFraction, valueReferences,
                               nValueReferences, counters, resolutions, qualifiers);
    return no_clock(instance, FN_GetIntervalFraction, valueReferences, nValueReferences,
                    counters);
}

fmi3Status fmi3GetShiftDecimal(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                               size_t nValueReferences, fmi3Float64 shifts[])
{
    if (is_se(instance))
        return se_get_shift(instance, valueReferences, nValueReferences, shifts);
    return no_clock(instance, FN_GetShiftDecimal, valueReferences, nValueReferences, shifts);
}

fmi3Status fmi3GetShiftFraction(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                size_t nValueReferences, fmi3UInt64 counters[],
                                fmi3UInt64 resolutions[])
{
    if (is_se(instance))
        return se_get_fraction(instance, FN_GetShiftFraction, valueReferences, nValueReferences,
                               counters, resolutions, NULL);
    return no_clock(instance, FN_GetShiftFraction, valueReferences, nValueReferences, counters);
}

fmi3Status fmi3SetIntervalDecimal(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                  size_t nValueReferences, const fmi3Float64 intervals[])
{
    return no_clock(instance, FN_SetIntervalDecimal, valueReferences, nValueReferences,
                    intervals);
}

fmi3Status fmi3SetIntervalFraction(fmi3Instance instance,
                                   const fmi3ValueReference valueReferences[],
                                   size_t nValueReferences, const fmi3UInt64 counters[],
                                   const fmi3UInt64 resolutions[])
{
    (void)resolutions;
    return no_clock(instance, FN_SetIntervalFraction, valueReferences, nValueReferences,
                    counters);
}

fmi3Status fmi3SetShiftDecimal(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                               size_t nValueReferences, const fmi3Float64 shifts[])
{
    return no_clock(instance, FN_SetShiftDecimal, valueReferences, nValueReferences, shifts);
}

fmi3Status fmi3SetShiftFraction(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                size_t nValueReferences, const fmi3UInt64 counters[],
                                const fmi3UInt64 resolutions[])
{
    (void)resolutions;
    return no_clock(instance, FN_SetShiftFraction, valueReferences, nValueReferences, counters);
}

/* --- unsupported capabilities: present (A-17), logged, fmi3Error ---------------------------- */
static fmi3Status unsupported(fmi3Instance instance, int fn, const char *why)
{
    fmuc_m_ctx *c;
    fmi3Status st;
    if (!begin_call(instance, fn, &c, &st))
        return st;
    glog(c, fmi2Error, "%s: not supported (%s)", fn_rules[fn].name, why);
    return done(c, fmi3Error);
}

/* --- per-element dependencies (§2.2.9) ----------------------------------------------------- */
/* name is one of the space-separated names of list. */
static int names_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        p += strspn(p, " ");
        size_t k = strcspn(p, " ");
        if (k && k == n && strncmp(p, name, n) == 0)
            return 1;
        p += k;
    }
    return 0;
}

/* The dependencies list (names; NULL: every known) the model declares for variable vi in this
 * phase, as the generated <ModelStructure> lists it: before fmi3ExitInitializationMode (init) an
 * InitialUnknown's init_deps, afterwards an Output's or state derivative's deps. *unknown = 0
 * for any other variable: a known (input, independent, initial="exact" in init, state after)
 * or a parameter depends on nothing, the rest (locals) on every known. */
static const char *declared_deps(const fmuc_m_desc *d, size_t vi, int init, int *unknown)
{
    const fmuc_m_var *v = &d->vars[vi];
    *unknown = init ? fmuc_m_is_initial_unknown(d, vi)
                    : v->causality == FMUC_M_OUTPUT ||
                          (v->derivative_of && fmuc_m_find(d, v->derivative_of) >= 0);
    if (*unknown)
        return init ? v->init_deps : v->deps;
    if (fmuc_m_is_known(d, vi, init) || v->causality == FMUC_M_PARAMETER ||
        v->variability == FMUC_M_CONSTANT)
        return "";
    return NULL;
}

/* The per-element dependencies of variable vi in this phase: one entry per known it depends on,
 * in variable order, element 1 of a scalar or 0 (all elements) of an array on either side (the
 * model declares whole variables), kind fmi3Dependent (the XML has no dependenciesKind). The
 * first max entries go to the arrays (when non-NULL); returns the count. */
static size_t dep_entries(const fmuc_m_ctx *c, size_t vi, size_t edep[],
                          fmi3ValueReference indep[], size_t eindep[], fmi3DependencyKind kinds[],
                          size_t max)
{
    const fmuc_m_desc *d = c->desc;
    int init = c->state == ST_INST || c->state == ST_INIT, unknown;
    const char *deps = declared_deps(d, vi, init, &unknown);
    size_t n = 0;
#ifdef FMUC_DEFECT_UNDECLARED_DEPENDENCY
    /* defect: after initialization an unknown with a dependencies list also reports the first
     * known the list leaves out */
    int extra = !init && unknown && deps;
#endif
    for (size_t k = 0; k < d->nvars; k++) {
        if (!fmuc_m_is_known(d, k, init))
            continue;
        if (deps && !names_list(deps, d->vars[k].name)) {
#ifdef FMUC_DEFECT_UNDECLARED_DEPENDENCY
            if (!extra)
                continue;
            extra = 0;
#else
            continue;
#endif
        }
        if (edep && n < max) {
            edep[n] = fmuc_g3sp_is_array(&d->vars[vi]) ? 0 : 1;
            indep[n] = d->vars[k].vr;
            eindep[n] = fmuc_g3sp_is_array(&d->vars[k]) ? 0 : 1;
            kinds[n] = fmi3Dependent;
#ifdef FMUC_DEFECT_DEPENDENCY_ELEMENT_LATE
            /* defect: once time has advanced past the start time, the first entry of an
             * unknown names the element after the dependent's last one */
            if (!init && unknown && n == 0 && c->time > c->start_time)
                edep[n] = nel(c, &d->vars[vi]) + 1;
#endif
#ifdef FMUC_DEFECT_DEPENDENCY_UNKNOWN_VR
            /* defect: after initialization the first entry of an unknown names a value
             * reference one past the largest of the model's */
            if (!init && unknown && n == 0) {
                fmi3ValueReference top = 0;
                for (size_t j = 0; j < d->nvars; j++)
                    top = d->vars[j].vr > top ? d->vars[j].vr : top;
                indep[n] = top + 1;
            }
#endif
#ifdef FMUC_DEFECT_DEPENDENCY_KIND_RANGE
            /* defect: after initialization the first entry of an unknown has a kind past
             * fmi3Dependent, the last fmi3DependencyKind */
            if (!init && unknown && n == 0)
                kinds[n] = (fmi3DependencyKind)((int)fmi3Dependent + 1);
#endif
#ifdef FMUC_DEFECT_DEPENDENCY_KIND_GENERAL
            /* defect: in Initialization Mode every entry of an InitialUnknown has the kind
             * fmi3Fixed, a kind §2.4.8 does not define for InitialUnknowns */
            if (init && unknown)
                kinds[n] = fmi3Fixed;
#endif
        }
        n++;
    }
    return n;
}

/* An output clock of the clock table (its <Output> has no dependencies attribute: it depends on
 * every known, §2.4.8): the entries as dep_entries gives them for a scalar. */
static size_t clock_dep_entries(const fmuc_m_ctx *c, size_t edep[], fmi3ValueReference indep[],
                                size_t eindep[], fmi3DependencyKind kinds[], size_t max)
{
    const fmuc_m_desc *d = c->desc;
    int init = c->state == ST_INST || c->state == ST_INIT;
    size_t n = 0;
    for (size_t k = 0; k < d->nvars; k++) {
        if (!fmuc_m_is_known(d, k, init))
            continue;
        if (edep && n < max) {
            edep[n] = 1;
            indep[n] = d->vars[k].vr;
            eindep[n] = fmuc_g3sp_is_array(&d->vars[k]) ? 0 : 1;
            kinds[n] = fmi3Dependent;
        }
        n++;
    }
    return n;
}

static int is_output_clock(const fmuc_m_ctx *c, fmi3ValueReference vr)
{
    long k = fmuc_m_find_clock_vr(c->desc, vr);
    return k >= 0 && c->desc->clocks[k].causality == FMUC_M_OUTPUT;
}

fmi3Status fmi3GetNumberOfVariableDependencies(fmi3Instance instance,
                                               fmi3ValueReference valueReference,
                                               size_t *nDependencies)
{
    BEGIN(GetNumberOfVariableDependencies);
    REQUIRE_PTR(nDependencies, GetNumberOfVariableDependencies);
    const fmuc_m_var *v = find_vr(c, valueReference);
    if (!v && is_output_clock(c, valueReference)) {
        *nDependencies = clock_dep_entries(c, NULL, NULL, NULL, NULL, 0);
        return fmi3OK;
    }
    if (!v) {
        glog(c, fmi2Error, "fmi3GetNumberOfVariableDependencies: unknown valueReference %u",
             valueReference);
        return done(c, fmi3Error);
    }
    *nDependencies = dep_entries(c, (size_t)(v - c->desc->vars), NULL, NULL, NULL, NULL, 0);
    return fmi3OK;
}

fmi3Status fmi3GetVariableDependencies(fmi3Instance instance, fmi3ValueReference dependent,
                                       size_t elementIndicesOfDependent[],
                                       fmi3ValueReference independents[],
                                       size_t elementIndicesOfIndependents[],
                                       fmi3DependencyKind dependencyKinds[], size_t nDependencies)
{
    BEGIN(GetVariableDependencies);
    const fmuc_m_var *v = find_vr(c, dependent);
    if (!v && is_output_clock(c, dependent)) {
        size_t n = clock_dep_entries(c, NULL, NULL, NULL, NULL, 0);
        if (n != nDependencies || (n && (!elementIndicesOfDependent || !independents ||
                                         !elementIndicesOfIndependents || !dependencyKinds))) {
            glog(c, fmi2Error, "fmi3GetVariableDependencies: nDependencies = %zu, output clock "
                 "vr %u has %zu dependencies (or a NULL array)", nDependencies, dependent, n);
            return done(c, fmi3Error);
        }
        clock_dep_entries(c, elementIndicesOfDependent, independents,
                          elementIndicesOfIndependents, dependencyKinds, n);
        return fmi3OK;
    }
    if (!v) {
        glog(c, fmi2Error, "fmi3GetVariableDependencies: unknown valueReference %u", dependent);
        return done(c, fmi3Error);
    }
    size_t vi = (size_t)(v - c->desc->vars);
    size_t n = dep_entries(c, vi, NULL, NULL, NULL, NULL, 0);
    if (n != nDependencies) {
        glog(c, fmi2Error,
             "fmi3GetVariableDependencies: nDependencies = %zu, '%s' has %zu dependencies",
             nDependencies, v->name, n);
        return done(c, fmi3Error);
    }
    if (n && (!elementIndicesOfDependent || !independents || !elementIndicesOfIndependents ||
              !dependencyKinds)) {
        glog(c, fmi2Error, "fmi3GetVariableDependencies: NULL array");
        return done(c, fmi3Error);
    }
    dep_entries(c, vi, elementIndicesOfDependent, independents, elementIndicesOfIndependents,
                dependencyKinds, n);
    return fmi3OK;
}

/* Configuration Mode from Instantiated for a model with structural parameters (§3.2 note 10);
 * Reconfiguration Mode needs tunable ones, which the glue's models do not have (note 11). */
fmi3Status fmi3EnterConfigurationMode(fmi3Instance instance)
{
    if (!ctx_of(instance) || fmuc_g3sp_count(ctx_of(instance)->desc) == 0)
        return unsupported(instance, FN_EnterConfigurationMode,
                           "the model has no structural parameters");
    BEGIN(EnterConfigurationMode);
    if (c->state != ST_INST) {
        glog(c, fmi2Error,
             "fmi3EnterConfigurationMode: Reconfiguration Mode from %s needs tunable structural "
             "parameters; the model's are fixed (FMI 3.0.2 §3.2/§4.2)",
             state_name(c->state));
        return done(c, fmi3Error);
    }
    c->state = ST_CFG;
    return fmi3OK;
}

/* Back to Instantiated with the new sizes: the resized arrays hold their start values again
 * (§2.4.7.2) and the state vector has the current number of elements (§2.3.2). */
fmi3Status fmi3ExitConfigurationMode(fmi3Instance instance)
{
    if (!ctx_of(instance) || fmuc_g3sp_count(ctx_of(instance)->desc) == 0)
        return unsupported(instance, FN_ExitConfigurationMode,
                           "the model has no structural parameters");
    BEGIN(ExitConfigurationMode);
    fmuc_g3sp_resize(c->desc, c->data);
    c->nx = count_states(c);
    c->dirty = 1;
    c->state = ST_INST;
    return fmi3OK;
}

/* --- Scheduled Execution (fmi3-rules D.3, F.3, D-08, D-09, F-26, F-27) ----------------------- *
 * Instantiated -> Initialization Mode -> (fmi3ExitInitializationMode) Clock Activation Mode
 * (ST_CAM) -> Terminated. fmi3ActivateModelPartition runs the model's activate callback for an
 * input clock (activationTime strictly increasing per clock); the model ticks output clocks and
 * announces countdown clocks through fmuc_m_clock_tick / fmuc_m_countdown_set, which call the
 * importer's clockUpdate (Clock Update Mode: fmi3GetClock, fmi3GetIntervalDecimal). The glue's
 * own updates of the clock states, the time and the data block run between the importer's
 * lockPreemption and unlockPreemption. */

static int periodic(const fmuc_m_clock *k)
{
    return k->interval_variability == FMUC_M_CLOCK_CONSTANT ||
           k->interval_variability == FMUC_M_CLOCK_FIXED ||
           k->interval_variability == FMUC_M_CLOCK_TUNABLE;
}

/* The clock of value reference vr for function fn, or NULL (logged). */
static const fmuc_m_clock *se_clock(fmuc_m_ctx *c, int fn, fmi3ValueReference vr)
{
    long k = fmuc_m_find_clock_vr(c->desc, vr);
    if (k >= 0)
        return &c->desc->clocks[k];
    const fmuc_m_var *v = find_vr(c, vr);
    if (v)
        glog(c, fmi2Error, "%s: variable '%s' (vr %u) is a %s, not a Clock", fn_rules[fn].name,
             v->name, vr, fmuc_gc_type_name(v->type));
    else
        glog(c, fmi2Error, "%s: unknown valueReference %u", fn_rules[fn].name, vr);
    return NULL;
}

static struct se_clock_state *se_state(fmuc_m_ctx *c, const fmuc_m_clock *k)
{
    return &c->se_clocks[k - c->desc->clocks];
}

/* SE value-reference lists: the empty call, NULL arrays. 1: go on; 0: *st is the result. */
static int se_begin_list(fmuc_m_ctx *c, int fn, const fmi3ValueReference vr[], size_t nvr,
                         const void *values, fmi3Status *st)
{
    *st = fmi3OK;
    if (nvr == 0)
        return 0;
    if (!vr || !values) {
        glog(c, fmi2Error, "%s: valueReferences or values is NULL", fn_rules[fn].name);
        *st = done(c, fmi3Error);
        return 0;
    }
    return 1;
}

/* §2.2.8, D.3 condition 26: an output clock is active for the first fmi3GetClock after its
 * tick, inactive for later ones. */
static fmi3Status se_get_clock(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                               fmi3Clock values[])
{
    BEGIN(GetClock);
    fmi3Status st;
    if (!se_begin_list(c, FN_GetClock, vr, nvr, values, &st))
        return st;
    for (size_t i = 0; i < nvr; i++) {
        const fmuc_m_clock *k = se_clock(c, FN_GetClock, vr[i]);
        if (!k)
            return done(c, fmi3Error);
        if (k->causality != FMUC_M_OUTPUT) {
            glog(c, fmi2Error,
                 "fmi3GetClock: clock '%s' (vr %u) is an input clock; only output clocks can be "
                 "inquired",
                 k->name, k->vr);
            return done(c, fmi3Error);
        }
    }
    se_lock(c);
    for (size_t i = 0; i < nvr; i++) {
        long k = fmuc_m_find_clock_vr(c->desc, vr[i]); /* an output clock: checked above */
        struct se_clock_state *ks = se_state(c, &c->desc->clocks[k]);
        values[i] = ks->ticked ? fmi3ClockActive : fmi3ClockInactive;
        ks->ticked = 0;
    }
    se_unlock(c);
    return fmi3OK;
}

/* F-23: fmi3SetClock(inactive) of input clock k, active in this instant: its clocked variables
 * get back the values they had before its partition ran (•v), and the output clocks that
 * partition ticked are inactive again. */
static void em_undo(fmuc_m_ctx *c, const fmuc_m_clock *k)
{
    const fmuc_m_desc *d = c->desc;
    size_t idx = (size_t)(k - d->clocks);
    const unsigned char *before = c->em_before ? c->em_before + idx * d->data_size : NULL;
    for (size_t i = 0; before && i < d->nvars; i++) {
        const fmuc_m_var *v = &d->vars[i];
        if (!v->clocks || !names_list(v->clocks, k->name))
            continue;
        size_t elem = v->type == FMUC_M_REAL || v->type == FMUC_M_UINT64 ? 8
                      : v->type == FMUC_M_STRING                          ? FMUC_M_STRLEN
                                                                          : sizeof(int);
        size_t bytes = elem * (v->dim > 1 ? v->dim : 1);
        memcpy((char *)c->data + v->offset, before + v->offset, bytes);
    }
    struct se_clock_state *ks = se_state(c, k);
    ks->active = 0;
    ks->ticked_em = 0;
    ks->activations--;
    for (size_t j = 0; j < d->nclocks; j++)
        if (c->se_clocks[j].ticked_by == idx + 1) {
            c->se_clocks[j].ticked = 0;
            c->se_clocks[j].ticked_by = 0;
        }
    c->dirty = 1;
}

/* ME/CS Event Mode (FMUC_M_CAP_EM_CLOCKS; §2.2.8.4, §2.3.5, fmi3-rules C-45): input clocks only;
 * to inactive only those with canBeDeactivated (em_undo). Setting a clock activates it:
 * its partition runs at once (Event Mode evaluates the active partitions, F-10), so its clocked
 * variables and the output clocks it ticks can be read before fmi3UpdateDiscreteStates, which
 * ends the instant's activity (em_end_clocks). Scheduled Execution has no fmi3SetClock. */
static fmi3Status em_set_clock(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                               const fmi3Clock values[])
{
    BEGIN(SetClock);
    fmi3Status st;
    if (c->iface == FMUC_FMI3_IFACE_SE)
        return no_clock(instance, FN_SetClock, vr, nvr, values);
    if (!se_begin_list(c, FN_SetClock, vr, nvr, values, &st))
        return st;
#ifdef FMUC_DEFECT_EM_SET_CLOCK_ERROR
    /* broken FMU (api-clocks): input clocks cannot be set in Event Mode */
    glog(c, fmi2Error, "fmi3SetClock: not supported");
    return done(c, fmi3Error);
#endif
    for (size_t i = 0; i < nvr; i++) {
        const fmuc_m_clock *k = se_clock(c, FN_SetClock, vr[i]);
        if (!k)
            return done(c, fmi3Error);
        if (k->causality != FMUC_M_INPUT) {
            glog(c, fmi2Error, "fmi3SetClock: clock '%s' (vr %u) is an output clock; only input "
                 "clocks are set", k->name, k->vr);
            return done(c, fmi3Error);
        }
#ifdef FMUC_DEFECT_DEACTIVATION_REFUSED
        /* broken FMU (api-clocks--deactivation): canBeDeactivated="true", but fmi3SetClock
         * refuses to deactivate the clock (F-23, C-45) */
        if (!values[i]) {
#else
        if (!values[i] && !(k->flags & FMUC_M_CLOCK_CAN_DEACTIVATE)) {
#endif
            glog(c, fmi2Error, "fmi3SetClock: clock '%s' (vr %u) cannot be deactivated "
                 "(canBeDeactivated is not \"true\")", k->name, k->vr);
            return done(c, fmi3Error);
        }
    }
    st = fmi3OK;
    for (size_t i = 0; i < nvr && st <= fmi3Warning; i++) {
        const fmuc_m_clock *k = &c->desc->clocks[fmuc_m_find_clock_vr(c->desc, vr[i])];
        struct se_clock_state *ks = se_state(c, k);
        if (!values[i]) {
            if (ks->active)
                em_undo(c, k);
            continue; /* an inactive clock set inactive: nothing to undo */
        }
        if (ks->active)
            continue; /* set again in the same instant: one activation */
        ks->active = 1;
        ks->ticked_em = 1;
        ks->activations++;
        ks->last_activation = c->time;
        if (k->interval_variability == FMUC_M_CLOCK_COUNTDOWN)
            ks->countdown = CD_NOT_YET_KNOWN;
        if (c->desc->activate) {
            size_t idx = (size_t)(k - c->desc->clocks);
            if (c->em_before && (k->flags & FMUC_M_CLOCK_CAN_DEACTIVATE))
                memcpy(c->em_before + idx * c->desc->data_size, c->data, c->desc->data_size);
            fmi3Status r = run_calc(c);
            c->em_running = idx + 1;
            if (r <= fmi3Warning)
                r = worst(r, st3(c->desc->activate(c, c->data, k->vr, c->time)));
            c->em_running = 0;
            st = worst(st, r);
            c->dirty = 1;
        }
    }
    if (st > fmi3Warning) {
        glog(c, fmi2Error, "fmi3SetClock: a partition failed at t = %g", c->time);
        return st == fmi3Discard ? st : done(c, st);
    }
    return st;
}

/* The end of fmi3UpdateDiscreteStates of ME/CS with Event Mode clocks: every clock active in
 * this instant is inactive again, the input clocks set and the output clocks ticked (F-23). */
static void em_end_clocks(fmuc_m_ctx *c)
{
    if (!c->se_clocks || c->iface == FMUC_FMI3_IFACE_SE)
        return;
    for (size_t i = 0; i < c->desc->nclocks; i++) {
        c->se_clocks[i].active = 0;
        c->se_clocks[i].ticked = 0;
        c->se_clocks[i].ticked_by = 0;
    }
}

/* Periodic clocks: their intervalDecimal, Unchanged. Countdown clocks: the interval of the last
 * fmuc_m_countdown_set, Changed on the first inquiry and Unchanged afterwards; NotYetKnown
 * before any and after the clock's activation (F-21). Triggered clocks have no interval. */
static fmi3Status se_get_interval(fmi3Instance instance, const fmi3ValueReference vr[],
                                  size_t nvr, fmi3Float64 intervals[],
                                  fmi3IntervalQualifier qualifiers[])
{
    BEGIN(GetIntervalDecimal);
    fmi3Status st;
    if (!se_begin_list(c, FN_GetIntervalDecimal, vr, nvr, intervals, &st))
        return st;
    REQUIRE_PTR(qualifiers, GetIntervalDecimal);
    for (size_t i = 0; i < nvr; i++) {
        const fmuc_m_clock *k = se_clock(c, FN_GetIntervalDecimal, vr[i]);
        if (!k)
            return done(c, fmi3Error);
        if (!periodic(k) && k->interval_variability != FMUC_M_CLOCK_COUNTDOWN &&
            k->interval_variability != FMUC_M_CLOCK_CHANGING) {
            glog(c, fmi2Error,
                 "fmi3GetIntervalDecimal: clock '%s' (vr %u) is a triggered clock; it has no "
                 "interval",
                 k->name, k->vr);
            return done(c, fmi3Error);
        }
        if (k->interval_variability == FMUC_M_CLOCK_CHANGING && c->state == ST_EM &&
            !se_state(c, k)->ticked_em) { /* D.3 condition 15 */
            glog(c, fmi2Error,
                 "fmi3GetIntervalDecimal: changing clock '%s' (vr %u) did not tick in this "
                 "Event Mode; its interval is asked only in the Event Mode where it ticked",
                 k->name, k->vr);
            return done(c, fmi3Error);
        }
    }
    se_lock(c);
    for (size_t i = 0; i < nvr; i++) {
        const fmuc_m_clock *k = &c->desc->clocks[fmuc_m_find_clock_vr(c->desc, vr[i])];
        if (periodic(k)) {
            intervals[i] = k->interval;
#ifndef FMUC_DEFECT_QUALIFIER_UNWRITTEN
            qualifiers[i] = fmi3IntervalUnchanged;
#endif /* else broken FMU (api-clocks--qualifier): the output argument is left as it was */
#ifdef FMUC_DEFECT_INTERVAL_NOT_YET_KNOWN
            /* broken FMU (api-clocks--not-yet-known): a periodic clock answers as a countdown
             * clock whose tick is not announced yet (F-21: only countdown clocks may) */
            qualifiers[i] = fmi3IntervalNotYetKnown;
#endif
            continue;
        }
        struct se_clock_state *ks = se_state(c, k);
#ifdef FMUC_DEFECT_CHANGING_NOT_YET_KNOWN
        /* broken FMU (api-clocks--changing): after its first tick the changing clock answers
         * like a countdown clock whose next tick is not announced (F-21: only countdown clocks
         * may) */
        if (k->interval_variability == FMUC_M_CLOCK_CHANGING && ks->activations > 0) {
            intervals[i] = 0.0;
            qualifiers[i] = fmi3IntervalNotYetKnown;
            continue;
        }
#endif
        switch (ks->countdown) {
        case CD_CHANGED:
            intervals[i] = ks->countdown_interval;
#ifdef FMUC_DEFECT_COUNTDOWN_NEGATIVE
            /* broken FMU (api-clocks--countdown): the announced interval comes with the wrong
             * sign (F-20: an aperiodic clock's interval is >= 0) */
            intervals[i] = -ks->countdown_interval;
#endif
            qualifiers[i] = fmi3IntervalChanged;
            ks->countdown = CD_UNCHANGED;
            break;
        case CD_UNCHANGED:
            intervals[i] = ks->countdown_interval;
            qualifiers[i] = fmi3IntervalUnchanged;
            break;
        default:
            intervals[i] = 0.0;
            qualifiers[i] = fmi3IntervalNotYetKnown;
            break;
        }
    }
    se_unlock(c);
    return fmi3OK;
}

/* Periodic clocks in Initialization Mode (D.3 condition 17): their shiftDecimal (default 0). */
static fmi3Status se_get_shift(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                               fmi3Float64 shifts[])
{
    BEGIN(GetShiftDecimal);
    fmi3Status st;
    if (!se_begin_list(c, FN_GetShiftDecimal, vr, nvr, shifts, &st))
        return st;
    for (size_t i = 0; i < nvr; i++) {
        const fmuc_m_clock *k = se_clock(c, FN_GetShiftDecimal, vr[i]);
        if (!k)
            return done(c, fmi3Error);
        if (!periodic(k)) {
            glog(c, fmi2Error, "fmi3GetShiftDecimal: clock '%s' (vr %u) is not periodic", k->name,
                 k->vr);
            return done(c, fmi3Error);
        }
        shifts[i] = (k->flags & FMUC_M_CLOCK_HAS_SHIFT) ? k->shift : 0.0;
    }
    return fmi3OK;
}

/* The Fraction variants (F-22: only for clocks with supportsFraction="true", which the glue
 * gives periodic clocks only): interval (fn FN_GetIntervalFraction, qualifiers as for
 * fmi3GetIntervalDecimal: Unchanged) or shift (FN_GetShiftFraction, qualifiers NULL) as counter
 * ticks of 1/resolution s. */
static fmi3Status se_get_fraction(fmi3Instance instance, int fn, const fmi3ValueReference vr[],
                                  size_t nvr, fmi3UInt64 counters[], fmi3UInt64 resolutions[],
                                  fmi3IntervalQualifier qualifiers[])
{
    fmuc_m_ctx *c;
    fmi3Status st;
    if (!begin_call(instance, fn, &c, &st))
        return st;
    const char *name = fn_rules[fn].name;
    if (!se_begin_list(c, fn, vr, nvr, counters, &st))
        return st;
    if (nvr && (!resolutions || (fn == FN_GetIntervalFraction && !qualifiers))) {
        glog(c, fmi2Error, "%s: %s is NULL", name, !resolutions ? "resolutions" : "qualifiers");
        return done(c, fmi3Error);
    }
    for (size_t i = 0; i < nvr; i++) {
        const fmuc_m_clock *k = se_clock(c, fn, vr[i]);
        if (!k)
            return done(c, fmi3Error);
        if (!periodic(k) || !(k->flags & FMUC_M_CLOCK_HAS_FRACTION)) {
            glog(c, fmi2Error,
                 "%s: clock '%s' (vr %u) has no supportsFraction=\"true\"; its interval and "
                 "shift are given by the Decimal variants only",
                 name, k->name, k->vr);
            return done(c, fmi3Error);
        }
    }
    for (size_t i = 0; i < nvr; i++) {
        const fmuc_m_clock *k = &c->desc->clocks[fmuc_m_find_clock_vr(c->desc, vr[i])];
        double secs = fn == FN_GetIntervalFraction ? k->interval
                      : (k->flags & FMUC_M_CLOCK_HAS_SHIFT) ? k->shift
                                                             : 0.0;
        counters[i] = fmuc_m_clock_counter(k, secs);
        resolutions[i] = k->resolution;
#ifdef FMUC_DEFECT_FRACTION_MISMATCH
        /* broken FMU (api-clocks--fraction): the counter in 1/resolution s, the resolution
         * reported ten times too fine -- an interval a tenth of the Decimal one */
        resolutions[i] = k->resolution * 10u;
#endif
        if (qualifiers)
            qualifiers[i] = fmi3IntervalUnchanged;
    }
    return fmi3OK;
}

fmi3Status fmi3ActivateModelPartition(fmi3Instance instance, fmi3ValueReference clockReference,
                                      fmi3Float64 activationTime)
{
    BEGIN(ActivateModelPartition);
    const fmuc_m_clock *k = se_clock(c, FN_ActivateModelPartition, clockReference);
    if (!k)
        return done(c, fmi3Error);
    if (k->causality != FMUC_M_INPUT) { /* F-27 */
        glog(c, fmi2Error,
             "fmi3ActivateModelPartition: clock '%s' (vr %u) is an output clock; only input "
             "clocks have partitions the importer activates",
             k->name, k->vr);
        return done(c, fmi3Error);
    }
    struct se_clock_state *ks = se_state(c, k);
    if (!isfinite(activationTime) ||
        (ks->activations > 0 && !(activationTime > ks->last_activation))) { /* cond. 27 */
        glog(c, fmi2Error,
             "fmi3ActivateModelPartition: activationTime %.17g of clock '%s' (vr %u) is not "
             "after its previous activation at %.17g",
             activationTime, k->name, k->vr, ks->last_activation);
        return done(c, fmi3Error);
    }
#ifdef FMUC_DEFECT_SE_ACTIVATE_CRASH
    /* broken FMU (se-nominal-run--crash): the third activation of a periodic clock dereferences
     * a NULL pointer */
    if (k->interval_variability != FMUC_M_CLOCK_TRIGGERED &&
        k->interval_variability != FMUC_M_CLOCK_COUNTDOWN && ks->activations == 2) {
        volatile const fmuc_m_clock *volatile none = NULL;
        (void)none->vr;
    }
#endif
#ifdef FMUC_DEFECT_SE_ACTIVATE_ERROR
    /* broken FMU (se-nominal-run): a triggered clock's partition fails from its second
     * activation on */
    if (k->interval_variability == FMUC_M_CLOCK_TRIGGERED && ks->activations >= 1) {
        glog(c, fmi2Error,
             "fmi3ActivateModelPartition: the partition of clock '%s' (vr %u) failed at t = %g",
             k->name, k->vr, activationTime);
        return done(c, fmi3Error);
    }
#endif
    se_lock(c);
    ks->activations++;
    ks->last_activation = activationTime;
    if (k->interval_variability == FMUC_M_CLOCK_COUNTDOWN)
        ks->countdown = CD_NOT_YET_KNOWN; /* its announced tick has come */
    c->time = activationTime;
    c->se_active_partitions++;
    se_unlock(c);
#ifdef FMUC_DEFECT_SE_UNBALANCED_LOCK
    /* broken FMU (se-nominal-run--lock): a lock without its unlock per periodic activation */
    if (periodic(k))
        se_lock(c);
#endif
    fmi3Status st = fmi3OK;
    if (c->desc->activate)
        st = st3(c->desc->activate(c, c->data, k->vr, activationTime));
    se_lock(c);
    c->se_active_partitions--;
    c->dirty = 1;
    se_unlock(c);
    if (st > fmi3Warning) { /* Discard counts as Error in SE (F-27) */
        glog(c, fmi2Error, "fmi3ActivateModelPartition: the partition of clock '%s' (vr %u) "
             "returned %s at t = %g", k->name, k->vr,
             st == fmi3Discard ? "fmi3Discard" : st == fmi3Error ? "fmi3Error" : "fmi3Fatal",
             activationTime);
        return done(c, st == fmi3Fatal ? fmi3Fatal : fmi3Error);
    }
    return st;
}

/* services for SE models (fmuc_model.h) */
static const fmuc_m_clock *service_clock(fmuc_m_ctx *c, const char *service,
                                         fmi2ValueReference vr, fmuc_m_causality causality)
{
    if (!c->se_clocks) {
        glog(c, fmi2Error, "%s: clock vr %u: the instance has no clocks", service, vr);
        return NULL;
    }
    long i = fmuc_m_find_clock_vr(c->desc, vr);
    if (i < 0 || c->desc->clocks[i].causality != causality) {
        glog(c, fmi2Error, "%s: vr %u is not an %s clock", service, vr,
             causality == FMUC_M_INPUT ? "input" : "output");
        return NULL;
    }
    return &c->desc->clocks[i];
}

fmi2Status fmuc_m_clock_tick(fmuc_m_ctx *c, fmi2ValueReference output_clock_vr)
{
    const fmuc_m_clock *k = service_clock(c, "fmuc_m_clock_tick", output_clock_vr, FMUC_M_OUTPUT);
    if (!k)
        return fmi2Error;
    se_lock(c);
    se_state(c, k)->ticked = 1;
    se_state(c, k)->ticked_by = c->em_running;
    se_unlock(c);
    if (c->se_clock_update)
        c->se_clock_update(c->env);
    return fmi2OK;
}

fmi2Status fmuc_m_countdown_set(fmuc_m_ctx *c, fmi2ValueReference countdown_clock_vr,
                                double interval)
{
    const fmuc_m_clock *k = service_clock(c, "fmuc_m_countdown_set", countdown_clock_vr,
                                          FMUC_M_INPUT);
    if (!k)
        return fmi2Error;
    if ((k->interval_variability != FMUC_M_CLOCK_COUNTDOWN &&
         k->interval_variability != FMUC_M_CLOCK_CHANGING) ||
        !(interval >= 0.0) || !isfinite(interval)) {
        glog(c, fmi2Error, "fmuc_m_countdown_set: clock '%s' (vr %u) is neither a countdown nor "
             "a changing clock, or interval %g is not >= 0", k->name, k->vr, interval);
        return fmi2Error;
    }
    se_lock(c);
    struct se_clock_state *ks = se_state(c, k);
    ks->countdown_interval = interval;
    ks->countdown = CD_CHANGED;
    se_unlock(c);
    if (c->se_clock_update)
        c->se_clock_update(c->env);
    return fmi2OK;
}

void fmuc_m_preemption_lock(fmuc_m_ctx *c) { se_lock(c); }
void fmuc_m_preemption_unlock(fmuc_m_ctx *c) { se_unlock(c); }

/* --- FMU state ----------------------------------------------------------------------------- */
fmi3Status fmi3GetFMUState(fmi3Instance instance, fmi3FMUState *FMUState)
{
    BEGIN(GetFMUState);
    REQUIRE_PTR(FMUState, GetFMUState);
    return done(c, (fmi3Status)fmuc_gc_state_get(FS_(c), FMUState));
}

fmi3Status fmi3SetFMUState(fmi3Instance instance, fmi3FMUState FMUState)
{
    BEGIN(SetFMUState);
    c->evaluated = 0; /* the state restored replaces what an evaluation computed */
    return done(c, (fmi3Status)fmuc_gc_state_set(FS_(c), FMUState));
}

fmi3Status fmi3FreeFMUState(fmi3Instance instance, fmi3FMUState *FMUState)
{
    BEGIN(FreeFMUState);
    REQUIRE_PTR(FMUState, FreeFMUState);
    return done(c, (fmi3Status)fmuc_gc_state_free(FS_(c), FMUState));
}

fmi3Status fmi3SerializedFMUStateSize(fmi3Instance instance, fmi3FMUState FMUState, size_t *size)
{
    BEGIN(SerializedFMUStateSize);
    REQUIRE_PTR(size, SerializedFMUStateSize);
    return done(c, (fmi3Status)fmuc_gc_state_size(FS_(c), FMUState, size));
}

fmi3Status fmi3SerializeFMUState(fmi3Instance instance, fmi3FMUState FMUState,
                                 fmi3Byte serializedState[], size_t size)
{
    BEGIN(SerializeFMUState);
    REQUIRE_PTR(serializedState, SerializeFMUState);
    return done(c, (fmi3Status)fmuc_gc_state_serialize(FS_(c), FMUState, serializedState, size));
}

fmi3Status fmi3DeserializeFMUState(fmi3Instance instance, const fmi3Byte serializedState[],
                                   size_t size, fmi3FMUState *FMUState)
{
    BEGIN(DeserializeFMUState);
    REQUIRE_PTR(FMUState, DeserializeFMUState);
    return done(c, (fmi3Status)fmuc_gc_state_deserialize(FS_(c), serializedState, size,
                                                         FMUState));
}

/* --- directional and adjoint derivatives (scalar Float64 variables; sizes = element counts) -- */
/* The arguments of fmi3GetDirectionalDerivative / fmi3GetAdjointDerivative (fn): every
 * reference a scalar Float64, the seed as long as the knowns (adjoint: the unknowns) and the
 * sensitivity as long as the unknowns (adjoint: the knowns); then the values calculated. */
static fmi3Status partial_args(fmuc_m_ctx *c, int fn, int adjoint,
                               const fmi3ValueReference unknowns[], size_t nUnknowns,
                               const fmi3ValueReference knowns[], size_t nKnowns,
                               const fmi3Float64 seed[], size_t nSeed,
                               const fmi3Float64 sensitivity[], size_t nSensitivity)
{
    const char *name = fn_rules[fn].name;
    if (!(c->desc->caps & FMUC_M_CAP_DIR_DERIV) || !c->desc->dir_deriv) {
        glog(c, fmi2Error, "%s: not supported (%s=false)", name,
             adjoint ? "providesAdjointDerivatives" : "providesDirectionalDerivatives");
        return fmi3Error;
    }
    if ((nUnknowns && !unknowns) || (nSensitivity && !sensitivity) || (nKnowns && !knowns) ||
        (nSeed && !seed)) {
        glog(c, fmi2Error, "%s: NULL array", name);
        return fmi3Error;
    }
    const fmi3ValueReference *lists[2] = {unknowns, knowns};
    size_t counts[2] = {nUnknowns, nKnowns};
    size_t sizes[2] = {adjoint ? nSeed : nSensitivity, adjoint ? nSensitivity : nSeed};
    const char *size_names[2] = {adjoint ? "nSeed" : "nSensitivity",
                                 adjoint ? "nSensitivity" : "nSeed"};
    for (int l = 0; l < 2; l++) {
        size_t total = 0;
        for (size_t i = 0; i < counts[l]; i++) {
            const fmuc_m_var *v = find_vr(c, lists[l][i]);
            if (!v || v->type != FMUC_M_REAL || fmuc_g3sp_is_array(v)) {
                glog(c, fmi2Error, "%s: valueReference %u is not a scalar Float64", name,
                     lists[l][i]);
                return fmi3Error;
            }
            total++;
        }
        if (total != sizes[l]) {
            glog(c, fmi2Error, "%s: %s = %zu, expected %zu", name, size_names[l], sizes[l], total);
            return fmi3Error;
        }
    }
    return calc_for_read(c);
}

fmi3Status fmi3GetDirectionalDerivative(fmi3Instance instance, const fmi3ValueReference unknowns[],
                                        size_t nUnknowns, const fmi3ValueReference knowns[],
                                        size_t nKnowns, const fmi3Float64 seed[], size_t nSeed,
                                        fmi3Float64 sensitivity[], size_t nSensitivity)
{
    BEGIN(GetDirectionalDerivative);
    fmi3Status st = partial_args(c, FN_GetDirectionalDerivative, 0, unknowns, nUnknowns, knowns,
                                 nKnowns, seed, nSeed, sensitivity, nSensitivity);
    if (st > fmi3Warning)
        return done(c, st);
    st = worst(st, st3(c->desc->dir_deriv(c, c->data, unknowns, nUnknowns, knowns, nKnowns, seed,
                                          sensitivity)));
    return st > fmi3Discard ? done(c, st) : st;
}

/* seedᵀ·J from the model's directional derivatives: sensitivity[j] = Σᵢ seed[i]·∂unknownᵢ/∂knownⱼ,
 * each partial one directional derivative with a unit seed (§2.2.11, providesAdjointDerivatives
 * follows providesDirectionalDerivatives in the generated XML). */
fmi3Status fmi3GetAdjointDerivative(fmi3Instance instance, const fmi3ValueReference unknowns[],
                                    size_t nUnknowns, const fmi3ValueReference knowns[],
                                    size_t nKnowns, const fmi3Float64 seed[], size_t nSeed,
                                    fmi3Float64 sensitivity[], size_t nSensitivity)
{
    BEGIN(GetAdjointDerivative);
    fmi3Status st = partial_args(c, FN_GetAdjointDerivative, 1, unknowns, nUnknowns, knowns,
                                 nKnowns, seed, nSeed, sensitivity, nSensitivity);
    if (st > fmi3Warning)
        return done(c, st);
    const double one = 1.0;
    for (size_t j = 0; j < nKnowns && st <= fmi3Discard; j++) {
        double acc = 0.0;
        for (size_t i = 0; i < nUnknowns && st <= fmi3Discard; i++) {
            double d = 0.0;
            st = worst(st, st3(c->desc->dir_deriv(c, c->data, &unknowns[i], 1, &knowns[j], 1, &one,
                                                  &d)));
            acc += seed[i] * d;
        }
#ifdef FMUC_DEFECT_ADJOINT_DROPS_LAST_KNOWN
        /* defect: the adjoint of the last known is left out (a zero column of seedᵀ·J) */
        if (j + 1 == nKnowns)
            acc = 0.0;
#endif
        sensitivity[j] = acc;
    }
    return st > fmi3Discard ? done(c, st) : st;
}

/* --- discrete states ----------------------------------------------------------------------- */
/* With FMUC_M_CAP_EVAL_DISCRETE (providesEvaluateDiscreteStates="true", §2.3.5): the discrete
 * states are computed from their previous values (the model's event_update, which updates the
 * data block in place) and the outcome is kept; the following fmi3UpdateDiscreteStates hands it
 * out instead of running event_update a second time. A value set in between puts the previous
 * values back (unevaluate), so the next evaluation starts from them again. */
fmi3Status fmi3EvaluateDiscreteStates(fmi3Instance instance)
{
    BEGIN(EvaluateDiscreteStates);
    /* providesEvaluateDiscreteStates="false": the call has no effect (§2.3.5) */
    if (!(c->desc->caps & FMUC_M_CAP_EVAL_DISCRETE) || c->evaluated)
        return fmi3OK;
#ifdef FMUC_DEFECT_EVALUATE_DISCRETE_NOOP
    return fmi3OK; /* declares the flag, computes nothing: the outputs keep the previous values */
#endif
    size_t n = c->desc->data_size ? c->desc->data_size : 1;
    if (!c->eval_prev && !(c->eval_prev = calloc(1, n))) {
        glog(c, fmi2Error, "fmi3EvaluateDiscreteStates: out of memory");
        return done(c, fmi3Error);
    }
    memcpy(c->eval_prev, c->data, n);
    memset(&c->eval_info, 0, sizeof c->eval_info);
    fmi3Status st = run_calc(c);
    if (st <= fmi3Warning && c->desc->event_update) {
        st = worst(st, st3(c->desc->event_update(c, c->data, &c->eval_info)));
        c->dirty = 1;
    }
    if (st > fmi3Warning) {
        memcpy(c->data, c->eval_prev, n);
        c->dirty = 1;
        return st == fmi3Discard ? st : done(c, st);
    }
    c->evaluated = 1;
    c->eval_st = st;
    return st;
}

fmi3Status fmi3UpdateDiscreteStates(fmi3Instance instance, fmi3Boolean *discreteStatesNeedUpdate,
                                    fmi3Boolean *terminateSimulation,
                                    fmi3Boolean *nominalsOfContinuousStatesChanged,
                                    fmi3Boolean *valuesOfContinuousStatesChanged,
                                    fmi3Boolean *nextEventTimeDefined, fmi3Float64 *nextEventTime)
{
    BEGIN(UpdateDiscreteStates);
    REQUIRE_PTR(discreteStatesNeedUpdate, UpdateDiscreteStates);
    REQUIRE_PTR(terminateSimulation, UpdateDiscreteStates);
    REQUIRE_PTR(nominalsOfContinuousStatesChanged, UpdateDiscreteStates);
    REQUIRE_PTR(valuesOfContinuousStatesChanged, UpdateDiscreteStates);
    REQUIRE_PTR(nextEventTimeDefined, UpdateDiscreteStates);
    REQUIRE_PTR(nextEventTime, UpdateDiscreteStates);
#ifdef FMUC_HOSTILE_CRASH_IN_UDS_FROM
    /* a crash from the N-th call of the process on: the nominal run dies in it, and so does
     * every other worker that reaches that many event iterations (the probes' legal calls) */
    static int calls; /* the hostile part: state shared by every instance of the process */
    if (++calls >= FMUC_HOSTILE_CRASH_IN_UDS_FROM)
        raise(SIGSEGV);
#endif
    fmi2EventInfo info;
    memset(&info, 0, sizeof info);
    fmi3Status st = run_calc(c);
    if (c->evaluated) { /* fmi3EvaluateDiscreteStates computed them at this instant */
        info = c->eval_info;
        st = worst(st, c->eval_st);
        c->evaluated = 0;
    } else if (st <= fmi3Warning && c->desc->event_update) {
        st = worst(st, st3(c->desc->event_update(c, c->data, &info)));
        c->dirty = 1;
    }
    if (st > fmi3Warning)
        return st == fmi3Discard ? st : done(c, st);
    *discreteStatesNeedUpdate = info.newDiscreteStatesNeeded != 0;
    *terminateSimulation = info.terminateSimulation != 0;
    *nominalsOfContinuousStatesChanged = info.nominalsOfContinuousStatesChanged != 0;
    *valuesOfContinuousStatesChanged = info.valuesOfContinuousStatesChanged != 0;
#ifdef FMUC_DEFECT_STATES_CHANGED_ALWAYS
    *valuesOfContinuousStatesChanged = fmi3True;
#endif
    *nextEventTimeDefined = info.nextEventTimeDefined != 0;
    *nextEventTime = info.nextEventTimeDefined ? info.nextEventTime : 0.0;
#ifdef FMUC_DEFECT_NOMINALS_CHANGED_SILENTLY
    if (info.valuesOfContinuousStatesChanged)
        c->nominal_epoch++; /* rescales the nominals without nominalsOfContinuousStatesChanged */
#endif
    if (info.terminateSimulation)
        c->terminated = 1;
    em_end_clocks(c);
    if (c->iface == FMUC_FMI3_IFACE_CS) { /* Event Mode of CS: where DoStep stops for it */
        c->cs_next_event_defined = info.nextEventTimeDefined != 0;
        c->cs_next_event = info.nextEventTime;
    }
    return st;
}

/* --- Model Exchange ------------------------------------------------------------------------ */
fmi3Status fmi3EnterContinuousTimeMode(fmi3Instance instance)
{
    BEGIN(EnterContinuousTimeMode);
    c->state = ST_CTM;
    return fmi3OK;
}

fmi3Status fmi3CompletedIntegratorStep(fmi3Instance instance,
                                       fmi3Boolean noSetFMUStatePriorToCurrentPoint,
                                       fmi3Boolean *enterEventMode, fmi3Boolean *terminateSimulation)
{
    BEGIN(CompletedIntegratorStep);
    (void)noSetFMUStatePriorToCurrentPoint;
    REQUIRE_PTR(enterEventMode, CompletedIntegratorStep);
    REQUIRE_PTR(terminateSimulation, CompletedIntegratorStep);
#ifdef FMUC_DEFECT_IGNORE_COMPLETED_STEP
    c->t_cis_prev = c->t_cis_last;
    c->t_cis_last = c->time;
    return fmi3OK; /* outputs left unwritten */
#endif
    fmi2Boolean enter = fmi2False;
    fmi3Status st = fmi3OK;
    if (c->desc->step_completed) {
        st = run_calc(c);
        if (st <= fmi3Warning)
            st = worst(st, st3(c->desc->step_completed(c, c->data, &enter)));
    }
    *enterEventMode = enter != 0;
    *terminateSimulation = false;
    c->t_cis_prev = c->t_cis_last;
    c->t_cis_last = c->time;
    return st > fmi3Warning ? done(c, st) : st;
}

static double time_tol(double a, double b)
{
    double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return 1e-9 * (m > 1.0 ? m : 1.0);
}

fmi3Status fmi3SetTime(fmi3Instance instance, fmi3Float64 time)
{
    BEGIN(SetTime);
    double floor = c->t_cis_prev > c->t_event ? c->t_cis_prev : c->t_event;
    if (!isfinite(time) || time < floor - time_tol(time, floor)) {
        glog(c, fmi2Error,
             "fmi3SetTime: time %.17g is before %.17g (the last fmi3EnterEventMode or the "
             "second-last fmi3CompletedIntegratorStep)",
             time, floor);
        return done(c, fmi3Error);
    }
#ifndef FMUC_DEFECT_IGNORE_STOP_TIME
    if (c->stop_defined && time > c->stop_time + time_tol(time, c->stop_time)) {
        glog(c, fmi2Error, "fmi3SetTime: time %.17g is beyond stopTime %.17g", time, c->stop_time);
        return done(c, fmi3Error);
    }
#endif
    c->time = time;
    c->dirty = 1;
    return fmi3OK;
}

static int check_n(fmuc_m_ctx *c, const char *fn, size_t n, size_t expect)
{
    if (n != expect) {
        glog(c, fmi2Error, "%s: n = %zu but the model has %zu", fn, n, expect);
        return 0;
    }
    return 1;
}

/* State vector <-> data block: state variables in table order, arrays element by element. */
static void read_vec(const fmuc_m_ctx *c, const size_t *idx, double *x)
{
    size_t o = 0;
    for (size_t i = 0; i < c->nxv; i++) {
        const fmuc_m_var *v = &c->desc->vars[idx[i]];
        const double *p = field(c, v);
        for (size_t k = 0; k < nel(c, v); k++)
            x[o++] = p[k];
    }
}

static void write_states(fmuc_m_ctx *c, const double *x)
{
    size_t o = 0;
    for (size_t i = 0; i < c->nxv; i++) {
        const fmuc_m_var *v = &c->desc->vars[c->xi[i]];
        double *p = field(c, v);
        for (size_t k = 0; k < nel(c, v); k++)
            p[k] = x[o++];
    }
    c->dirty = 1;
}

fmi3Status fmi3SetContinuousStates(fmi3Instance instance, const fmi3Float64 continuousStates[],
                                   size_t nContinuousStates)
{
    BEGIN(SetContinuousStates);
    if (!check_n(c, "fmi3SetContinuousStates", nContinuousStates, c->nx))
        return done(c, fmi3Error);
    if (nContinuousStates)
        REQUIRE_PTR(continuousStates, SetContinuousStates);
    write_states(c, continuousStates);
    return fmi3OK;
}

fmi3Status fmi3GetContinuousStates(fmi3Instance instance, fmi3Float64 continuousStates[],
                                   size_t nContinuousStates)
{
    BEGIN(GetContinuousStates);
    if (!check_n(c, "fmi3GetContinuousStates", nContinuousStates, c->nx))
        return done(c, fmi3Error);
    if (nContinuousStates)
        REQUIRE_PTR(continuousStates, GetContinuousStates);
    fmi3Status st = c->state == ST_INIT ? run_calc(c) : fmi3OK; /* calculated initial states */
    if (st > fmi3Warning)
        return st == fmi3Discard ? st : done(c, st);
    read_vec(c, c->xi, continuousStates);
    return st;
}

fmi3Status fmi3GetContinuousStateDerivatives(fmi3Instance instance, fmi3Float64 derivatives[],
                                             size_t nContinuousStates)
{
    BEGIN(GetContinuousStateDerivatives);
    if (!check_n(c, "fmi3GetContinuousStateDerivatives", nContinuousStates, c->nx))
        return done(c, fmi3Error);
    if (nContinuousStates)
        REQUIRE_PTR(derivatives, GetContinuousStateDerivatives);
    fmi3Status st = calc_for_read(c);
    if (st > fmi3Warning)
        return st == fmi3Discard ? st : done(c, st);
    read_vec(c, c->dxi, derivatives);
    return st;
}

fmi3Status fmi3GetEventIndicators(fmi3Instance instance, fmi3Float64 eventIndicators[],
                                  size_t nEventIndicators)
{
    BEGIN(GetEventIndicators);
    if (!check_n(c, "fmi3GetEventIndicators", nEventIndicators,
                 fmuc_g3sp_event_indicators(c->desc, c->data)))
        return done(c, fmi3Error);
    if (nEventIndicators == 0)
        return fmi3OK;
    REQUIRE_PTR(eventIndicators, GetEventIndicators);
    fmi3Status st = calc_for_read(c);
    if (st <= fmi3Warning && c->desc->event_indicators)
        st = worst(st, st3(c->desc->event_indicators(c, c->data, eventIndicators,
                                                     nEventIndicators)));
    return st > fmi3Discard ? done(c, st) : st;
}

fmi3Status fmi3GetNominalsOfContinuousStates(fmi3Instance instance, fmi3Float64 nominals[],
                                             size_t nContinuousStates)
{
    BEGIN(GetNominalsOfContinuousStates);
    if (!check_n(c, "fmi3GetNominalsOfContinuousStates", nContinuousStates, c->nx))
        return done(c, fmi3Error);
    if (nContinuousStates)
        REQUIRE_PTR(nominals, GetNominalsOfContinuousStates);
    size_t o = 0;
    for (size_t i = 0; i < c->nxv; i++) {
        const fmuc_m_var *v = &c->desc->vars[c->xi[i]];
        for (size_t k = 0; k < nel(c, v); k++) {
            nominals[o++] = (v->flags & FMUC_M_HAS_NOMINAL) ? v->nominal : 1.0;
#ifdef FMUC_DEFECT_NOMINALS_CHANGED_SILENTLY
            nominals[o - 1] *= 1.0 + (double)c->nominal_epoch;
#endif
        }
    }
#ifdef FMUC_DEFECT_ZERO_NOMINALS
    for (size_t i = 0; i < nContinuousStates; i++)
        nominals[i] = 0.0;
#endif
    return fmi3OK;
}

fmi3Status fmi3GetNumberOfEventIndicators(fmi3Instance instance, size_t *nEventIndicators)
{
    BEGIN(GetNumberOfEventIndicators);
    REQUIRE_PTR(nEventIndicators, GetNumberOfEventIndicators);
    *nEventIndicators = fmuc_g3sp_event_indicators(c->desc, c->data);
    return fmi3OK;
}

fmi3Status fmi3GetNumberOfContinuousStates(fmi3Instance instance, size_t *nContinuousStates)
{
    BEGIN(GetNumberOfContinuousStates);
    REQUIRE_PTR(nContinuousStates, GetNumberOfContinuousStates);
    *nContinuousStates = c->nx;
#ifdef FMUC_DEFECT_CFG_STALE_NSTATES
    /* defect: the number of states of the modelDescription's sizes (the structural parameters'
     * start values), also after fmi3ExitConfigurationMode changed them (§2.3.2, §3.2.1) */
    *nContinuousStates = 0;
    for (size_t i = 0; i < c->nxv; i++)
        *nContinuousStates += fmuc_g3sp_elements_at_start(c->desc, &c->desc->vars[c->xi[i]]);
#endif
#ifdef FMUC_DEFECT_NSTATES_PLUS_ONE
    /* defect: one state more than the model description declares (§2.3.2) */
    *nContinuousStates += 1;
#endif
    return fmi3OK;
}

/* --- Co-Simulation ------------------------------------------------------------------------- */
fmi3Status fmi3EnterStepMode(fmi3Instance instance)
{
    BEGIN(EnterStepMode);
    c->state = ST_SM;
    return fmi3OK;
}

fmi3Status fmi3GetOutputDerivatives(fmi3Instance instance,
                                    const fmi3ValueReference valueReferences[],
                                    size_t nValueReferences, const fmi3Int32 orders[],
                                    fmi3Float64 values[], size_t nValues)
{
    BEGIN(GetOutputDerivatives);
    (void)valueReferences;
    (void)orders;
    (void)values;
    if (nValueReferences == 0 && nValues == 0)
        return fmi3OK;
    glog(c, fmi2Error, "fmi3GetOutputDerivatives: maxOutputDerivativeOrder is 0");
    return done(c, fmi3Error);
}

/* Fixed-step RK4 over the table's states (glue_core's stepper, as in the FMI 1.0/2.0 glue). */
static int eval_f(void *inst, double t, const double *x, double *dx)
{
    fmuc_m_ctx *c = inst;
    c->time = t;
    write_states(c, x);
    fmi3Status st = run_calc(c);
    read_vec(c, c->dxi, dx);
    return st;
}

static fmi3Status rk4_step(fmuc_m_ctx *c, double tc, double h)
{
    if (c->nx == 0) {
        c->dirty = 1;
        return fmi3OK;
    }
    read_vec(c, c->xi, c->work);
    fmi3Status st = (fmi3Status)fmuc_gc_rk4(c, eval_f, c->nx, c->work, c->desc->cs_h_max, tc, h);
    if (st <= fmi3Warning)
        write_states(c, c->work);
    return st;
}

/* Where a Co-Simulation step ends (FMUC_M_CAP_CS_EVENT_MODE): at tc+h, or at the announced
 * event inside it when earlyReturnAllowed (*early); *at_event when it ends at that event. */
static void cs_event_step(fmuc_m_ctx *c, double tc, double h, double *h_eff, int *early,
                          int *at_event)
{
    *h_eff = h;
    *early = *at_event = 0;
    if (!c->cs_next_event_defined || !(c->desc->caps & FMUC_M_CAP_CS_EVENT_MODE))
        return;
    double tev = c->cs_next_event, end = tc + h;
#ifdef FMUC_DEFECT_CS_EARLY_RETURN
    /* broken FMU (cs-event-mode): the step that reaches an announced event returns early half
     * way, also when earlyReturnAllowed=false (§2.3.1 forbids it); the step after it goes on */
    if (tev <= end + time_tol(tev, end) && c->cs_defect_tev != tev) {
        c->cs_defect_tev = tev;
        *h_eff = 0.5 * h;
        *early = 1;
        return;
    }
#endif
    if (fabs(tev - end) <= time_tol(tev, end)) {
        *at_event = 1;
        return;
    }
    if (c->cs_early_return_allowed && tev > tc + time_tol(tev, tc) && tev < end) {
        *h_eff = tev - tc;
        *early = *at_event = 1;
    }
}

fmi3Status fmi3DoStep(fmi3Instance instance, fmi3Float64 currentCommunicationPoint,
                      fmi3Float64 communicationStepSize,
                      fmi3Boolean noSetFMUStatePriorToCurrentPoint,
                      fmi3Boolean *eventHandlingNeeded, fmi3Boolean *terminateSimulation,
                      fmi3Boolean *earlyReturn, fmi3Float64 *lastSuccessfulTime)
{
    BEGIN(DoStep);
    (void)noSetFMUStatePriorToCurrentPoint;
#ifdef FMUC_DEFECT_DOSTEP_FPU_CONTROL
    fmuc_gc_defect_fpu_control();
#endif
    REQUIRE_PTR(eventHandlingNeeded, DoStep);
    REQUIRE_PTR(terminateSimulation, DoStep);
    REQUIRE_PTR(earlyReturn, DoStep);
    REQUIRE_PTR(lastSuccessfulTime, DoStep);
    double tc = currentCommunicationPoint, h = communicationStepSize;
    if (!isfinite(h) || !(h > 0.0)) {
        glog(c, fmi2Error, "fmi3DoStep: communicationStepSize %.17g must be > 0", h);
        return done(c, fmi3Error);
    }
    if (!isfinite(tc) || fabs(tc - c->time) > time_tol(tc, c->time)) {
        glog(c, fmi2Error,
             "fmi3DoStep: currentCommunicationPoint %.17g does not match the FMU time %.17g", tc,
             c->time);
        return done(c, fmi3Error);
    }
#ifndef FMUC_DEFECT_IGNORE_STOP_TIME
    if (c->stop_defined && tc + h > c->stop_time + time_tol(tc + h, c->stop_time)) {
        glog(c, fmi2Error, "fmi3DoStep: step to %.17g goes beyond stopTime %.17g", tc + h,
             c->stop_time);
        return done(c, fmi3Error);
    }
#endif
#ifdef FMUC_GLUE_TERMINATE_FROM
    /* no defect (fixture cs-nominal-run--fmi3-terminate): the model ends FMUC_GLUE_TERMINATE_FROM
     * after the start; the step that gets there returns terminateSimulation = true and the FMU
     * takes no step from there (FMI 3.0.2 §4.2.1: the importer should stop) */
    double t_end = c->start_time + FMUC_GLUE_TERMINATE_FROM;
    if (tc >= t_end - time_tol(tc, t_end)) {
        glog(c, fmi2Error, "fmi3DoStep: the model ended at t=%.17g (terminateSimulation); no step "
                           "from t=%.17g", t_end, tc);
        return done(c, fmi3Error);
    }
#endif
#ifdef FMUC_DEFECT_FIXED_COMM_STEP
    /* canHandleVariableCommunicationStepSize is declared, yet only the default step is taken */
    if (fabs(h - c->desc->experiment.step) > 1e-9 * c->desc->experiment.step) {
        glog(c, fmi2Error, "fmi3DoStep: communicationStepSize %.17g is not %.17g", h,
             c->desc->experiment.step);
        return done(c, fmi3Error);
    }
#endif
    fmi3Status st;
    /* FMUC_M_CAP_CS_EVENT_MODE: an announced event inside the step ends it there when early
     * return is allowed (§4.2.1); reaching it raises eventHandlingNeeded with eventModeUsed */
    double h_eff = h;
    int early = 0, at_event = 0;
    cs_event_step(c, tc, h, &h_eff, &early, &at_event);
    if (c->cs_iu_registered && c->cs_intermediate_update) {
        /* registered intermediate variables: the step goes in two halves, with Intermediate
         * Update Mode between them (§4.2.2: the importer may get the intermediate outputs) */
        double h1 = 0.5 * h_eff;
        st = c->desc->do_step ? st3(c->desc->do_step(c, c->data, tc, h1)) : rk4_step(c, tc, h1);
        if (st <= fmi3Warning) {
            fmi3Boolean req = false;
            fmi3Float64 req_t = 0.0;
            c->time = tc + h1;
            c->dirty = 1;
            c->in_ium = 1;
            c->cs_intermediate_update(c->env, c->time, false, true, true, false, &req, &req_t);
            c->in_ium = 0;
            c->time = tc;
            fmi3Status st2 = c->desc->do_step
                                 ? st3(c->desc->do_step(c, c->data, tc + h1, h_eff - h1))
                                 : rk4_step(c, tc + h1, h_eff - h1);
            if (st2 > st)
                st = st2;
        }
    } else if (c->desc->do_step)
        st = st3(c->desc->do_step(c, c->data, tc, h_eff));
    else
        st = rk4_step(c, tc, h_eff);
    c->dirty = 1;
    *eventHandlingNeeded = false;
    *terminateSimulation = false;
    *earlyReturn = false; /* without FMUC_M_CAP_CS_EVENT_MODE: mightReturnEarlyFromDoStep="false" */
    if (st <= fmi3Warning) {
        c->time = tc + h_eff;
        *earlyReturn = early != 0;
#ifdef FMUC_GLUE_TERMINATE_FROM
        if (c->time >= t_end - time_tol(c->time, t_end)) {
            *terminateSimulation = true;
            glog(c, fmi2OK, "fmi3DoStep: the model ends at t=%.17g", c->time);
        }
#endif
        *eventHandlingNeeded = at_event && c->cs_event_mode_used;
        if (at_event)
            c->cs_next_event_defined = 0; /* Event Mode announces the next one */
        if (c->cs_intermediate_update) {
            /* the step is finished: no variable access, no early return (§4.2.2) */
            fmi3Boolean req = false;
            fmi3Float64 req_t = 0.0;
#ifdef FMUC_DEFECT_IU_NULL_ENV
            /* the callback without the importer's instanceEnvironment (§2.3.1) */
            c->cs_intermediate_update(NULL, c->time, false, false, true, false, &req, &req_t);
#else
            c->cs_intermediate_update(c->env, c->time, false, false, true, false, &req, &req_t);
#endif
        }
    } else if (st == fmi3Discard) {
        c->time = tc;
    } else {
        glog(c, (fmi2Status)st, "fmi3DoStep: step from %.17g failed", tc);
        return done(c, st);
    }
    *lastSuccessfulTime = c->time;
#ifdef FMUC_DEFECT_EARLY_RETURN_LAST_PAST
    /* broken FMU (cs-event-mode--early-last-past): an early return that reports a time past the
     * end of the step as reached */
    if (*earlyReturn)
        *lastSuccessfulTime = tc + 2.0 * communicationStepSize;
#endif
#ifdef FMUC_DEFECT_EARLY_RETURN_DISCARD
    /* broken FMU (cs-event-mode--early-discard): an early return reported as a failure */
    if (*earlyReturn && st <= fmi3Warning)
        st = fmi3Discard;
#endif
    return st;
}
