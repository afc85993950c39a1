/* Model-agnostic FMI 2.0 glue: all 44 fmi2* functions, the ME/CS state machine as per-function
 * masks (fmi2-rules §D), variable validation from the model's table (§B.6, §D.3, C-05), FMU
 * state and serialization with a checked header (§2.1.8), CS fixed-step RK4 when the model has
 * no do_step. The model is reached only through fmuc_model.h. Deliberate defects for fixture
 * FMUs are compiled in with -DFMUC_DEFECT_* (see README.md); each is one #ifdef. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef FMUC_DEFECT_PROCESS_GLOBALS
#include <locale.h>
#include <signal.h>
#include <sys/stat.h>
#endif
#if defined(FMUC_DEFECT_PROCESS_RLIMIT) || defined(FMUC_DEFECT_PROCESS_CPU_LIMIT)
#include <sys/resource.h>
#endif
#if defined(FMUC_HOSTILE_CRASH_IN_DOSTEP) || defined(FMUC_HOSTILE_ABORT_IN_INSTANTIATE) || \
    defined(FMUC_HOSTILE_CRASH_IN_FREE_INSTANCE) || \
    defined(FMUC_HOSTILE_ONCE_PER_PROCESS) || defined(FMUC_HOSTILE_CRASH_ON_ILLEGAL_CALL) ||    \
    defined(FMUC_HOSTILE_CRASH_ON_UNKNOWN_VR) || defined(FMUC_DEFECT_FIXED_COMM_STEP_CRASH)
#include <signal.h>
#endif

#include "fmuc_model.h"
#include "glue_core.h"

/* Helpers that a FMUC_DEFECT_* build may leave unused. */
#define MAYBE_UNUSED __attribute__((unused))

/* --- state machine as data ----------------------------------------------------------------- */
enum {
    ST_INST = 1u << 0,
    ST_INIT = 1u << 1,
    ST_EM = 1u << 2,   /* ME event mode */
    ST_CTM = 1u << 3,  /* ME continuous-time mode */
    ST_SC = 1u << 4,   /* CS stepComplete */
    ST_SIP = 1u << 5,  /* CS stepInProgress (never entered: no asynchronous steps) */
    ST_SF = 1u << 6,   /* CS stepFailed */
    ST_SCAN = 1u << 7, /* CS stepCanceled */
    ST_TERM = 1u << 8,
    ST_ERR = 1u << 9,
    ST_FAT = 1u << 10
};
#define ST_SETTABLE_STATE (ST_INST | ST_INIT | ST_EM | ST_CTM | ST_SC | ST_SF | ST_SCAN | ST_TERM | ST_ERR)
#define ST_GETTERS (ST_INIT | ST_EM | ST_CTM | ST_SC | ST_SF | ST_SCAN | ST_TERM | ST_ERR)

enum { IF_C = 3, IF_ME = 1, IF_CS = 2 }; /* bit 0: ME instance may call, bit 1: CS instance */

/* F(name, allowed states, interface) — D.1 (ME) and D.2 (CS) merged: ME-only states never occur
 * in a CS instance and vice versa, the interface column keeps ME functions off CS instances. */
#define GLUE_FUNCTIONS(F)                                                                          \
    F(SetDebugLogging, ST_SETTABLE_STATE | ST_SIP, IF_C)                                           \
    F(SetupExperiment, ST_INST, IF_C)                                                              \
    F(EnterInitializationMode, ST_INST, IF_C)                                                      \
    F(ExitInitializationMode, ST_INIT, IF_C)                                                       \
    F(Terminate, ST_EM | ST_CTM | ST_SC | ST_SF, IF_C)                                             \
    F(Reset, ST_SETTABLE_STATE, IF_C)                                                              \
    F(GetReal, ST_GETTERS, IF_C)                                                                   \
    F(GetInteger, ST_GETTERS, IF_C)                                                                \
    F(GetBoolean, ST_GETTERS, IF_C)                                                                \
    F(GetString, ST_GETTERS, IF_C)                                                                 \
    F(SetReal, ST_INST | ST_INIT | ST_EM | ST_CTM | ST_SC, IF_C)                                   \
    F(SetInteger, ST_INST | ST_INIT | ST_EM | ST_SC, IF_C)                                          \
    F(SetBoolean, ST_INST | ST_INIT | ST_EM | ST_SC, IF_C)                                          \
    F(SetString, ST_INST | ST_INIT | ST_EM | ST_SC, IF_C)                                           \
    F(GetFMUstate, ST_SETTABLE_STATE, IF_C)                                                        \
    F(SetFMUstate, ST_SETTABLE_STATE, IF_C)                                                        \
    F(FreeFMUstate, ST_SETTABLE_STATE, IF_C)                                                       \
    F(SerializedFMUstateSize, ST_SETTABLE_STATE, IF_C)                                             \
    F(SerializeFMUstate, ST_SETTABLE_STATE, IF_C)                                                  \
    F(DeSerializeFMUstate, ST_SETTABLE_STATE, IF_C)                                                \
    F(GetDirectionalDerivative, ST_GETTERS, IF_C)                                                  \
    F(EnterEventMode, ST_EM | ST_CTM, IF_ME)                                                       \
    F(NewDiscreteStates, ST_EM, IF_ME)                                                             \
    F(EnterContinuousTimeMode, ST_EM, IF_ME)                                                       \
    F(CompletedIntegratorStep, ST_CTM, IF_ME)                                                      \
    F(SetTime, ST_EM | ST_CTM, IF_ME) /* EM only for pure discrete-time models (rule 8) */         \
    F(SetContinuousStates, ST_CTM, IF_ME)                                                          \
    F(GetEventIndicators, ST_INIT | ST_EM | ST_CTM | ST_TERM | ST_ERR, IF_ME)                      \
    F(GetContinuousStates, ST_INIT | ST_EM | ST_CTM | ST_TERM | ST_ERR, IF_ME)                     \
    F(GetDerivatives, ST_INIT | ST_EM | ST_CTM | ST_TERM | ST_ERR, IF_ME)                          \
    F(GetNominalsOfContinuousStates, ST_INST | ST_INIT | ST_EM | ST_CTM | ST_TERM | ST_ERR, IF_ME) \
    F(SetRealInputDerivatives, ST_INST | ST_INIT | ST_SC, IF_CS)                                   \
    F(GetRealOutputDerivatives, ST_SC | ST_SF | ST_SCAN | ST_TERM | ST_ERR, IF_CS)                 \
    F(DoStep, ST_SC, IF_CS)                                                                        \
    F(CancelStep, ST_SIP, IF_CS)                                                                   \
    F(GetStatus, ST_SC | ST_SIP | ST_SF | ST_TERM, IF_CS)                                          \
    F(GetRealStatus, ST_SC | ST_SIP | ST_SF | ST_TERM, IF_CS)                                      \
    F(GetIntegerStatus, ST_SC | ST_SIP | ST_SF | ST_TERM, IF_CS)                                   \
    F(GetBooleanStatus, ST_SC | ST_SIP | ST_SF | ST_TERM, IF_CS)                                   \
    F(GetStringStatus, ST_SC | ST_SIP | ST_SF | ST_TERM, IF_CS)

#define GLUE_ENUM_(name, mask, iface) FN_##name,
enum { GLUE_FUNCTIONS(GLUE_ENUM_) FN_COUNT_ };
#undef GLUE_ENUM_

typedef struct {
    const char *name;
    unsigned mask, iface;
} fn_rule;

#define GLUE_RULE_(name, mask, iface) {"fmi2" #name, (mask), (iface)},
static const fn_rule fn_rules[FN_COUNT_] = {GLUE_FUNCTIONS(GLUE_RULE_)};
#undef GLUE_RULE_

/* --- instance ------------------------------------------------------------------------------ */
#define CTX_MAGIC 0x464d5543u   /* "FMUC" */
#define NODE_MAGIC 0x464d5354u  /* "FMST" */
#define BLOB_MAGIC 0x53554d46u  /* "FMUS" */
#define MAX_CATEGORIES 64

/* the glue's fields in an FMU state (glue_core.h) */
typedef struct {
    uint32_t state, flags;
    double time, start_time, stop_time, tolerance, t_floor, last_ok_time;
    int32_t last_step_status, pad;
} blob_glue;

#define GF_STOP 1u
#define GF_TOL 2u
#define GF_TERMINATED 4u

struct fmuc_m_ctx {
    uint32_t magic;
    fmi2CallbackFunctions cb;
#ifdef FMUC_DEFECT_KEEP_CALLBACKS_POINTER
    const fmi2CallbackFunctions *cbp;
#endif
    const fmuc_m_desc *desc;
    char guid[39];
    char *name;
    char *res_dir;
    fmi2Type type;
    unsigned state;
    unsigned char cat_on[MAX_CATEGORIES];
    size_t ncat;
    const char *const *cats;
    double time, start_time, stop_time, tolerance, t_floor, last_ok_time;
    int stop_defined, tol_defined, terminated, dirty;
    fmi2Status last_step_status;
#ifdef FMUC_GLUE_ASYNC_STEP
    int async_polls;  /* polls of fmi2GetStatus(fmi2DoStepStatus) during the running step */
    double async_tc, async_h; /* the running step */
#endif
    size_t nx;
    size_t *xi, *dxi; /* table indices of the states and of their derivatives */
    double *work;     /* 6*nx doubles for the RK4 */
    fmuc_gc_state *states;
    void *data;
#ifdef FMUC_DEFECT_NOMINALS_CHANGED_SILENTLY
    unsigned nominal_epoch; /* state-changing event iterations so far */
#endif
#ifdef FMUC_HOSTILE_HANG_AFTER_RESET
    int was_reset; /* fmi2Reset was called on this instance: its next fmi2DoStep never returns */
#endif
#ifdef FMUC_GLUE_CONSTANT_STEP
    double const_h; /* the first communicationStepSize since instantiation or reset (0: none) */
#endif
#ifdef FMUC_HOSTILE_SLOW_START_MS
    int started; /* the first step since instantiation or reset was made (slow_start) */
#endif
};

#ifdef FMUC_HOSTILE_SLOW_START_MS
/* The first step of every instance (after fmi2Instantiate or fmi2Reset) costs
 * FMUC_HOSTILE_SLOW_START_MS milliseconds of CPU time, like an FMU that fits its tables or
 * solves its initial system there (Dymola's FS_OPSC: about a second). */
static void slow_start(struct fmuc_m_ctx *c)
{
    if (c->started)
        return;
    c->started = 1;
    struct timespec a, b;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    do {
        for (volatile int k = 0; k < 10000; k++)
            ;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    } while ((double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) * 1e-6 <
             (double)(FMUC_HOSTILE_SLOW_START_MS));
}
#endif

static const char *const default_categories[] = {
    "logEvents", "logStatusWarning", "logStatusDiscard", "logStatusError",
    "logStatusFatal", "logAll", NULL};

/* --- memory through the host callbacks ------------------------------------------------------ */
static void *mem_alloc(const fmi2CallbackFunctions *cb, size_t n, size_t size)
{
#ifdef FMUC_DEFECT_MALLOC
    (void)cb;
    return calloc(n, size);
#else
    return cb->allocateMemory(n, size);
#endif
}

static void mem_free(const fmi2CallbackFunctions *cb, void *p)
{
    if (!p)
        return;
#ifdef FMUC_DEFECT_MALLOC
    (void)cb;
    free(p);
#else
    cb->freeMemory(p);
#endif
}

static const fmi2CallbackFunctions *cbs(const fmuc_m_ctx *c)
{
#ifdef FMUC_DEFECT_KEEP_CALLBACKS_POINTER
    return c->cbp;
#else
    return &c->cb;
#endif
}

/* --- logging ------------------------------------------------------------------------------- */
static long cat_index(const fmuc_m_ctx *c, const char *name)
{
    for (size_t i = 0; i < c->ncat; i++)
        if (strcmp(c->cats[i], name) == 0)
            return (long)i;
    return -1;
}

/* Errors, fatals and warnings are always reported (§2.1.3: "logger called"); OK and Discard
 * messages only for enabled categories (C-10). The category is always a declared one or NULL. */
static void vlog(const fmuc_m_ctx *c, fmi2Status st, const char *category, const char *fmt,
                 va_list ap)
{
    const fmi2CallbackFunctions *cb = cbs(c);
    if (!cb->logger)
        return;
    long idx = category ? cat_index(c, category) : -1;
    if (idx < 0) {
        idx = cat_index(c, fmuc_gc_status_category(st));
        if (idx < 0 && c->ncat > 0)
            idx = 0;
    }
    int always = st == fmi2Error || st == fmi2Fatal || st == fmi2Warning;
    int on = idx >= 0 ? c->cat_on[idx] : 0;
    if (!always && !on)
        return;
    const char *cat = idx >= 0 ? c->cats[idx] : NULL;
#ifdef FMUC_DEFECT_UNDECLARED_LOG_CATEGORY
    cat = "fmucUndeclaredCategory";
#endif
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    fmi2ComponentEnvironment env = cb->componentEnvironment;
#ifdef FMUC_DEFECT_LOGGER_ENV_NULL
    env = NULL;
#endif
    const char *name = c->name;
#ifdef FMUC_DEFECT_LOGGER_WRONG_NAME
    name = "model"; /* not the instanceName the importer gave */
#endif
#ifdef FMUC_HOSTILE_LOGGER_FORMAT
    cb->logger(env, name, st, cat, "%s%s%n"); /* directives without arguments (B15) */
#else
    cb->logger(env, name, st, cat, "%s", buf);
#endif
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

void *fmuc_m_alloc(fmuc_m_ctx *c, size_t n, size_t size) { return mem_alloc(cbs(c), n, size); }
void fmuc_m_free(fmuc_m_ctx *c, void *p) { mem_free(cbs(c), p); }
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
        return FMUC_M_PHASE_INSTANTIATED;
    case ST_INIT:
        return FMUC_M_PHASE_INIT;
    case ST_EM:
        return FMUC_M_PHASE_EVENT;
    case ST_CTM:
        return FMUC_M_PHASE_CONTINUOUS;
    case ST_SC:
    case ST_SF:
    case ST_SCAN:
    case ST_SIP:
        return FMUC_M_PHASE_STEP;
    case ST_TERM:
        return FMUC_M_PHASE_TERMINATED;
    default:
        return FMUC_M_PHASE_ERROR;
    }
}

/* --- common helpers ------------------------------------------------------------------------ */
static fmuc_m_ctx *ctx_of(fmi2Component c)
{
    fmuc_m_ctx *x = c;
    if (!x || x->magic != CTX_MAGIC)
        return NULL;
    return x;
}

static const char *state_name(unsigned st)
{
    switch (st) {
    case ST_INST:
        return "instantiated";
    case ST_INIT:
        return "initializationMode";
    case ST_EM:
        return "eventMode";
    case ST_CTM:
        return "continuousTimeMode";
    case ST_SC:
        return "stepComplete";
    case ST_SIP:
        return "stepInProgress";
    case ST_SF:
        return "stepFailed";
    case ST_SCAN:
        return "stepCanceled";
    case ST_TERM:
        return "terminated";
    case ST_ERR:
        return "error";
    default:
        return "fatal";
    }
}

/* A status of Error/Fatal moves the instance to the error/fatal state (§D transitions). */
static fmi2Status done(fmuc_m_ctx *c, fmi2Status st)
{
    if (st == fmi2Error)
        c->state = ST_ERR;
    else if (st == fmi2Fatal)
        c->state = ST_FAT;
    return st;
}

static int allowed(fmuc_m_ctx *c, int fn)
{
    const fn_rule *r = &fn_rules[fn];
    unsigned iface = c->type == fmi2ModelExchange ? IF_ME : IF_CS;
    if (!(r->iface & iface)) {
        glog(c, fmi2Error, "%s: not available for a %s instance", r->name,
             c->type == fmi2ModelExchange ? "ModelExchange" : "CoSimulation");
        return 0;
    }
#ifndef FMUC_DEFECT_NO_STATE_MACHINE
    if (!(r->mask & c->state)) {
#ifdef FMUC_HOSTILE_CRASH_ON_ILLEGAL_CALL
        raise(SIGSEGV); /* undefined behaviour (§3.2.3, §4.2.4): crash instead of fmi2Error */
#endif
        glog(c, fmi2Error, "%s: illegal call sequence (not allowed in state %s)", r->name,
             state_name(c->state));
        return 0;
    }
#endif
    return 1;
}

/* Opens every instance function: valid handle, allowed state; failures end in error state. */
#define BEGIN(fn)                                                                                  \
    fmuc_m_ctx *c = ctx_of(comp);                                                                  \
    if (!c)                                                                                        \
        return fmi2Error;                                                                          \
    if (c->state == ST_FAT)                                                                        \
        return fmi2Fatal;                                                                          \
    if (!allowed(c, FN_##fn))                                                                      \
        return done(c, fmi2Error)

#define REQUIRE_PTR(p, fn)                                                                         \
    do {                                                                                           \
        if (!(p)) {                                                                                \
            glog(c, fmi2Error, "fmi2" #fn ": argument '" #p "' is NULL");                          \
            return done(c, fmi2Error);                                                             \
        }                                                                                          \
    } while (0)

static fmi2Status worst(fmi2Status a, fmi2Status b) { return a > b ? a : b; }

static void *field(const fmuc_m_ctx *c, const fmuc_m_var *v)
{
    return (char *)c->data + v->offset;
}

MAYBE_UNUSED static int is_state(const fmuc_m_ctx *c, const fmuc_m_var *v)
{
    for (size_t i = 0; i < c->nx; i++)
        if (&c->desc->vars[c->xi[i]] == v)
            return 1;
    return 0;
}

/* Why variable v may not be set now (NULL: it may). §D.3 / conditions 1, 3, 4, 5, 6. */
static const char *not_settable(const fmuc_m_ctx *c, const fmuc_m_var *v)
{
#ifdef FMUC_DEFECT_SET_ANY_VARIABLE
    (void)c;
    (void)v;
    return NULL;
#else
    fmuc_m_initial ini = fmuc_m_effective_initial(v);
    if (v->causality == FMUC_M_INDEPENDENT)
        return "it is the independent variable (set by fmi2SetupExperiment/SetTime/DoStep)";
    if (v->variability == FMUC_M_CONSTANT)
        return "it is a constant";
    switch (c->state) {
    case ST_INST:
        if (ini == FMUC_M_EXACT || ini == FMUC_M_APPROX)
            return NULL;
        return "only variables with initial exact/approx may be set before initialization";
    case ST_INIT:
        if (ini == FMUC_M_EXACT || v->causality == FMUC_M_INPUT)
            return NULL;
        return "only inputs and initial=\"exact\" variables may be set in initialization mode";
    case ST_EM:
    case ST_SC:
        if (v->causality == FMUC_M_INPUT ||
            (v->causality == FMUC_M_PARAMETER && v->variability == FMUC_M_TUNABLE))
            return NULL;
        if (v->causality == FMUC_M_PARAMETER)
            return "it is a fixed parameter (only settable before fmi2ExitInitializationMode)";
        if (v->causality == FMUC_M_OUTPUT)
            return "it is an output";
        return "only inputs and tunable parameters may be set after initialization";
    case ST_CTM:
        if ((v->causality == FMUC_M_INPUT && v->variability == FMUC_M_CONTINUOUS) ||
            is_state(c, v))
            return NULL;
        if (v->causality == FMUC_M_OUTPUT)
            return "it is an output";
        return "only continuous inputs and states may be set in continuous-time mode";
    default:
        return "not settable in this state";
    }
#endif
}

static fmi2Status run_calc(fmuc_m_ctx *c)
{
    if (!c->dirty || !c->desc->calc)
        return fmi2OK;
    fmi2Status st = c->desc->calc(c, c->data);
    if (st <= fmi2Warning)
        c->dirty = 0;
    return st;
}

/* Reads in the error state serve the last values (rule 7: debugging only). */
static fmi2Status calc_for_read(fmuc_m_ctx *c)
{
    if (c->state == ST_ERR)
        return fmi2OK;
    return run_calc(c);
}

/* --- resource URI -------------------------------------------------------------------------- */
static void *uri_alloc(void *arg, size_t size) { return mem_alloc(arg, size, 1); }
static void uri_free(void *arg, void *p) { mem_free(arg, p); }

/* file:///abs, file:/abs, file://localhost/abs with %XX decoding (C-07) -> "/abs". */
static char *decode_uri(const fmi2CallbackFunctions *cb, const char *uri, const char **why)
{
    size_t o;
    char *out = fmuc_gc_file_uri_path(uri, 1, uri_alloc, uri_free, (void *)cb, &o, why);
    if (out)
        out[o] = '\0';
    return out;
}

/* --- FMU state blobs (glue_core.c) --------------------------------------------------------- */
static void fs_save(const fmuc_m_ctx *c, void *glue)
{
    blob_glue g = {0};
    g.state = c->state;
    g.flags = (c->stop_defined ? GF_STOP : 0) | (c->tol_defined ? GF_TOL : 0) |
              (c->terminated ? GF_TERMINATED : 0);
    g.time = c->time;
    g.start_time = c->start_time;
    g.stop_time = c->stop_time;
    g.tolerance = c->tolerance;
    g.t_floor = c->t_floor;
    g.last_ok_time = c->last_ok_time;
    g.last_step_status = (int32_t)c->last_step_status;
    memcpy(glue, &g, sizeof g);
}

static unsigned fs_restorable(const fmuc_m_ctx *c)
{
    (void)c;
    return ST_SETTABLE_STATE;
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
    c->t_floor = g.t_floor;
    c->last_ok_time = g.last_ok_time;
    c->last_step_status = (fmi2Status)g.last_step_status;
    c->dirty = 1;
}

static const fmuc_gc_state_kind fs_kind = {
    {"fmi2GetFMUstate", "fmi2SetFMUstate", "fmi2FreeFMUstate", "fmi2SerializedFMUstateSize",
     "fmi2SerializeFMUstate", "fmi2DeSerializeFMUstate"},
    NODE_MAGIC,
    BLOB_MAGIC,
    "FMUstate",
    "state was made by a different model (GUID hash differs)",
    "invalid state-machine state in the FMU state",
    sizeof(blob_glue),
    fs_save,
    fs_restorable,
    fs_set_phase,
    fs_load,
};

/* the instance's FMU states for glue_core */
#define FS_(c) (&(fmuc_gc_states){&fs_kind, (c), (c)->desc, (c)->data, (c)->guid, &(c)->states})

/* --- inquiry ------------------------------------------------------------------------------- */
const char *fmi2GetTypesPlatform(void) { return fmi2TypesPlatform; }

const char *fmi2GetVersion(void)
{
#ifdef FMUC_DEFECT_WRONG_VERSION
    return "1.0";
#elif defined FMUC_DEFECT_UNREADABLE_VERSION
    return (const char *)16; /* a pointer no string can be read at */
#else
    return fmi2Version;
#endif
}

fmi2Status fmi2SetDebugLogging(fmi2Component comp, fmi2Boolean loggingOn, size_t nCategories,
                               const fmi2String categories[])
{
    BEGIN(SetDebugLogging);
    if (nCategories == 0) {
        for (size_t i = 0; i < c->ncat; i++)
            c->cat_on[i] = loggingOn ? 1 : 0;
        return fmi2OK;
    }
    REQUIRE_PTR(categories, SetDebugLogging);
#ifdef FMUC_DEFECT_DEBUG_LOGGING_CATEGORIES_ERROR
    glog(c, fmi2Error, "fmi2SetDebugLogging: categories are not supported");
    return done(c, fmi2Error); /* refuses even its own declared LogCategories (§2.1.5) */
#endif
    for (size_t i = 0; i < nCategories; i++) {
        long k = categories[i] ? cat_index(c, categories[i]) : -1;
        if (k < 0) {
            glog(c, fmi2Error, "fmi2SetDebugLogging: category '%s' is not declared in LogCategories",
                 categories[i] ? categories[i] : "(null)");
            return done(c, fmi2Error);
        }
    }
    for (size_t i = 0; i < nCategories; i++)
        c->cat_on[cat_index(c, categories[i])] = loggingOn ? 1 : 0;
    return fmi2OK;
}

/* --- creation and destruction -------------------------------------------------------------- */
static void free_ctx(fmuc_m_ctx *c)
{
    const fmi2CallbackFunctions cb = *cbs(c);
    fmuc_gc_state_free_all(FS_(c));
    if (c->data && c->desc->release)
        c->desc->release(c, c->data);
    mem_free(&cb, c->data);
    mem_free(&cb, c->work);
    mem_free(&cb, c->xi);
    mem_free(&cb, c->dxi);
    mem_free(&cb, c->res_dir);
    mem_free(&cb, c->name);
    c->magic = 0;
    mem_free(&cb, c);
}

static void early_log(const fmi2CallbackFunctions *f, fmi2String name, const char *msg)
{
    if (f && f->logger) {
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
        f->logger(f->componentEnvironment, name ? name : "", fmi2Error, cat, "%s", msg);
    }
}

fmi2Component fmi2Instantiate(fmi2String instanceName, fmi2Type fmuType, fmi2String fmuGUID,
                              fmi2String fmuResourceLocation,
                              const fmi2CallbackFunctions *functions, fmi2Boolean visible,
                              fmi2Boolean loggingOn)
{
    const fmuc_m_desc *d = &fmuc_model;
    char guid[39], msg[512];
    (void)visible;
#ifdef FMUC_HOSTILE_ABORT_IN_INSTANTIATE
    raise(SIGABRT);
#endif
#ifdef FMUC_HOSTILE_ONCE_PER_PROCESS
    {
        /* process-wide state that a second instance would corrupt: the second fmi2Instantiate
         * call in one process (even after fmi2FreeInstance, even a refused one) crashes */
        static int instantiated_in_this_process;
        if (instantiated_in_this_process)
            raise(SIGSEGV);
        instantiated_in_this_process = 1;
    }
#endif
    if (!functions)
        return NULL;
#ifndef FMUC_DEFECT_ACCEPT_EMPTY_NAME
    if (!instanceName || fmuc_gc_blank(instanceName)) {
        early_log(functions, instanceName, "fmi2Instantiate: instanceName is NULL or empty");
        return NULL;
    }
#else
    if (!instanceName)
        instanceName = "";
#endif
#ifndef FMUC_DEFECT_MALLOC
    if (!functions->allocateMemory || !functions->freeMemory) {
        early_log(functions, instanceName,
                  "fmi2Instantiate: allocateMemory/freeMemory are required "
                  "(canNotUseMemoryManagementFunctions=false)");
        return NULL;
    }
#endif
#ifndef FMUC_DEFECT_ACCEPT_ANY_INTERFACE
    if ((fmuType != fmi2ModelExchange && fmuType != fmi2CoSimulation) ||
        (fmuType == fmi2ModelExchange && !(d->caps & FMUC_M_CAP_ME)) ||
        (fmuType == fmi2CoSimulation && !(d->caps & FMUC_M_CAP_CS))) {
        snprintf(msg, sizeof msg, "fmi2Instantiate: interface type %d is not provided by %s",
                 (int)fmuType, d->model_identifier);
        early_log(functions, instanceName, msg);
        return NULL;
    }
#endif
    fmuc_m_guid(d, guid);
#ifndef FMUC_DEFECT_ACCEPT_ANY_GUID
    if (!fmuGUID || strcmp(fmuGUID, guid) != 0) {
        snprintf(msg, sizeof msg, "fmi2Instantiate: GUID '%s' does not match the model GUID '%s'",
                 fmuGUID ? fmuGUID : "(null)", guid);
        early_log(functions, instanceName, msg);
        return NULL;
    }
#else
    (void)fmuGUID;
#endif

#ifdef FMUC_HOSTILE_NEEDS_TOOL
    /* needsExecutionTool="true" stand-in: the "tool" is present when the variable is set */
    if (!getenv("FMUC_FIXTURE_EXECUTION_TOOL")) {
        early_log(functions, instanceName,
                  "fmi2Instantiate: the execution tool is not available "
                  "(FMUC_FIXTURE_EXECUTION_TOOL is not set)");
        return NULL;
    }
#endif
#ifdef FMUC_DEFECT_INSTANTIATE_NEEDS_LOGGING
    if (!loggingOn) {
        early_log(functions, instanceName, "fmi2Instantiate: loggingOn=false is not supported");
        return NULL;
    }
#endif
    fmuc_m_ctx *c = mem_alloc(functions, 1, sizeof *c);
    if (!c) {
        early_log(functions, instanceName, "fmi2Instantiate: out of memory");
        return NULL;
    }
    c->magic = CTX_MAGIC;
    c->cb = *functions; /* copy: the struct is only valid during this call (2.0.5) */
#ifdef FMUC_DEFECT_KEEP_CALLBACKS_POINTER
    c->cbp = functions;
#endif
    c->desc = d;
    memcpy(c->guid, guid, sizeof guid);
    c->type = fmuType;
    c->state = ST_INST;
    c->cats = d->log_categories ? d->log_categories : default_categories;
    while (c->ncat < MAX_CATEGORIES && c->cats[c->ncat])
        c->ncat++;
    for (size_t i = 0; i < c->ncat; i++)
        c->cat_on[i] = loggingOn ? 1 : 0;
    c->last_step_status = fmi2OK;

    size_t nlen = strlen(instanceName);
    c->name = mem_alloc(cbs(c), nlen + 1, 1);
    if (!c->name)
        goto oom;
    memcpy(c->name, instanceName, nlen + 1);

    if (fmuResourceLocation && *fmuResourceLocation) {
        const char *why = NULL;
        c->res_dir = decode_uri(cbs(c), fmuResourceLocation, &why);
        if (!c->res_dir)
            glog(c, fmi2Warning, "fmi2Instantiate: cannot use fmuResourceLocation '%s': %s",
                 fmuResourceLocation, why ? why : "?");
    }

    /* states = targets of the derivative variables, in table order of the derivatives */
    for (size_t i = 0; i < d->nvars; i++)
        if (d->vars[i].derivative_of && fmuc_m_find(d, d->vars[i].derivative_of) >= 0)
            c->nx++;
    if (c->nx) {
        c->xi = mem_alloc(cbs(c), c->nx, sizeof *c->xi);
        c->dxi = mem_alloc(cbs(c), c->nx, sizeof *c->dxi);
        c->work = mem_alloc(cbs(c), 6 * c->nx, sizeof *c->work);
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
    c->data = mem_alloc(cbs(c), 1, d->data_size ? d->data_size : 1);
    if (!c->data)
        goto oom;
    fmuc_gc_write_starts(c->desc, c->data);
    c->dirty = 1;
    if (d->start) {
        fmi2Status st = d->start(c, c->data);
        if (st > fmi2Warning) {
            glog(c, st, "fmi2Instantiate: model start failed");
            free_ctx(c);
            return NULL;
        }
    }
    return c;
oom:
    early_log(functions, instanceName, "fmi2Instantiate: out of memory");
    free_ctx(c);
    return NULL;
}

void fmi2FreeInstance(fmi2Component comp)
{
#ifdef FMUC_DEFECT_FREE_NULL_CRASH
    volatile uint32_t m = ((fmuc_m_ctx *)comp)->magic;
    (void)m;
#endif
    fmuc_m_ctx *c = ctx_of(comp);
    if (!c)
        return;
#ifdef FMUC_HOSTILE_HANG_IN_FREE_INSTANCE
    for (volatile int spin = 1; spin;) { /* never returns for an instance (NULL is ignored) */
    }
#endif
    free_ctx(c);
#ifdef FMUC_HOSTILE_CRASH_IN_FREE_INSTANCE
    raise(SIGSEGV); /* after freeing an instance (NULL is ignored above) */
#endif
}

/* --- initialization, termination, reset ---------------------------------------------------- */
fmi2Status fmi2SetupExperiment(fmi2Component comp, fmi2Boolean toleranceDefined,
                               fmi2Real tolerance, fmi2Real startTime, fmi2Boolean stopTimeDefined,
                               fmi2Real stopTime)
{
    BEGIN(SetupExperiment);
    if (!isfinite(startTime) || (stopTimeDefined && !(stopTime >= startTime))) {
        glog(c, fmi2Error, "fmi2SetupExperiment: invalid startTime %g / stopTime %g", startTime,
             stopTime);
        return done(c, fmi2Error);
    }
    c->tol_defined = toleranceDefined != 0;
    c->tolerance = tolerance;
    c->start_time = startTime;
    c->stop_defined = stopTimeDefined != 0;
    c->stop_time = stopTime;
    c->time = startTime;
    c->dirty = 1;
    return fmi2OK;
}

fmi2Status fmi2EnterInitializationMode(fmi2Component comp)
{
    BEGIN(EnterInitializationMode);
    fmi2Status st = fmi2OK;
    c->time = c->start_time;
    if (c->desc->enter_init)
        st = c->desc->enter_init(c, c->data);
    if (st > fmi2Warning)
        return done(c, st);
    c->state = ST_INIT;
    c->dirty = 1;
    return st;
}

fmi2Status fmi2ExitInitializationMode(fmi2Component comp)
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
#ifdef FMUC_DEFECT_START_VALUES_LATE
    fmuc_gc_defect_late_starts(c->desc, c->data);
#endif
#ifdef FMUC_DEFECT_PROCESS_GLOBALS
    /* process-wide settings changed for good: locale, umask, a signal disposition */
    setlocale(LC_ALL, "C.UTF-8");
    umask(077);
    signal(SIGPIPE, SIG_IGN);
#endif
#ifdef FMUC_DEFECT_PROCESS_RLIMIT
    {
        /* a process-wide resource limit lowered for good: at most 64 open files */
        struct rlimit rl;
        if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 64)) {
            rl.rlim_cur = 64;
            setrlimit(RLIMIT_NOFILE, &rl);
        }
    }
#endif
#ifdef FMUC_DEFECT_PROCESS_CPU_LIMIT
    {
        /* the process's CPU time limit lowered to 0 for good, the hard one too: the kernel
         * kills the process (SIGKILL) at its next check of the CPU time, a few ms later */
        struct rlimit rl = {0, 0};
        setrlimit(RLIMIT_CPU, &rl);
    }
#endif
    fmi2Status st = fmi2OK;
    c->dirty = 1;
    st = run_calc(c); /* initial equations see the final init-mode values */
    if (st <= fmi2Warning && c->desc->exit_init)
        st = worst(st, c->desc->exit_init(c, c->data));
#if defined(FMUC_DEFECT_EXACT_JUMPS_AT_EXIT) || defined(FMUC_DEFECT_PARAMETER_JUMPS_AT_EXIT)
    /* the first local or output Real with initial="exact" (..._PARAMETER_...: the first Real
     * parameter) leaves its start value as initialization ends (by a tenth of its nominal, else
     * 0.01) */
    for (size_t i = 0; st <= fmi2Warning && i < c->desc->nvars; i++) {
        const fmuc_m_var *v = &c->desc->vars[i];
#ifdef FMUC_DEFECT_PARAMETER_JUMPS_AT_EXIT
        if (v->type != FMUC_M_REAL || v->dim > 1 || v->causality != FMUC_M_PARAMETER)
            continue;
#else
        if (v->type != FMUC_M_REAL || v->initial != FMUC_M_EXACT || v->dim > 1 ||
            v->causality == FMUC_M_PARAMETER || v->causality == FMUC_M_INPUT)
            continue;
#endif
        *(double *)(void *)((char *)c->data + v->offset) +=
            (v->flags & FMUC_M_HAS_NOMINAL) ? 0.1 * v->nominal : 0.01;
        st = worst(st, run_calc(c));
        break;
    }
#endif
    if (st > fmi2Warning)
        return done(c, st);
    c->dirty = 1;
    c->t_floor = c->time;
    c->last_ok_time = c->time;
    c->state = c->type == fmi2ModelExchange ? ST_EM : ST_SC;
    return st;
}

fmi2Status fmi2Terminate(fmi2Component comp)
{
    BEGIN(Terminate);
    c->state = ST_TERM;
#ifdef FMUC_DEFECT_TERMINATE_DISCARD
    return fmi2Discard; /* not a status fmi2Terminate may return (§2.1.3) */
#endif
    return fmi2OK;
}

fmi2Status fmi2Reset(fmi2Component comp)
{
    BEGIN(Reset);
    const fmuc_m_desc *d = c->desc;
    fmi2Status st = fmi2OK;
#ifdef FMUC_HOSTILE_HANG_IN_RESET
    for (volatile int spin = 1; spin;) { /* fmi2Reset never returns */
    }
#endif
#ifdef FMUC_HOSTILE_HANG_AFTER_RESET
    c->was_reset = 1;
#endif
#ifdef FMUC_GLUE_CONSTANT_STEP
    c->const_h = 0.0;
#endif
#ifdef FMUC_HOSTILE_SLOW_START_MS
    c->started = 0;
#endif
#ifdef FMUC_DEFECT_RESET_ERROR
    glog(c, fmi2Error, "fmi2Reset: not supported");
    return done(c, fmi2Error); /* §2.1.6: the FMU must go back to the instantiated state */
#endif
#ifndef FMUC_DEFECT_RESET_KEEPS_STATE
#ifdef FMUC_DEFECT_RESET_KEEPS_PARAMETERS
    /* broken FMUs (api-start-values--reset-keeps-parameters): the Real parameters keep the
     * values set before fmi2Reset instead of going back to their start values (§2.1.6) */
    double keep[64];
    size_t nk = 0;
    for (size_t i = 0; i < d->nvars && nk < 64; i++)
        if (d->vars[i].causality == FMUC_M_PARAMETER && d->vars[i].type == FMUC_M_REAL)
            keep[nk++] = *(const double *)field(c, &d->vars[i]);
#endif
    if (d->release)
        d->release(c, c->data);
    memset(c->data, 0, d->data_size);
    fmuc_gc_write_starts(c->desc, c->data);
#ifdef FMUC_DEFECT_RESET_KEEPS_PARAMETERS
    nk = 0;
    for (size_t i = 0; i < d->nvars && nk < 64; i++)
        if (d->vars[i].causality == FMUC_M_PARAMETER && d->vars[i].type == FMUC_M_REAL)
            *(double *)field(c, &d->vars[i]) = keep[nk++];
#endif
    if (d->start)
        st = d->start(c, c->data);
    c->time = 0.0;
    c->start_time = 0.0;
    c->stop_defined = 0;
    c->tol_defined = 0;
    c->terminated = 0;
    c->t_floor = 0.0;
    c->last_ok_time = 0.0;
    c->last_step_status = fmi2OK;
#else
    (void)d;
#endif
    c->dirty = 1;
    if (st > fmi2Warning)
        return done(c, st);
    c->state = ST_INST;
    return st;
}

/* --- getters and setters ------------------------------------------------------------------- */
static fmi2Status get_values(fmi2Component comp, int fn, fmuc_m_type t,
                             const fmi2ValueReference vr[], size_t nvr, void *value)
{
    fmuc_m_ctx *c = ctx_of(comp);
    if (!c)
        return fmi2Error;
    if (c->state == ST_FAT)
        return fmi2Fatal;
    if (!allowed(c, fn))
        return done(c, fmi2Error);
#ifdef FMUC_DEFECT_GET_AFTER_TERMINATE
    if (c->state == ST_TERM && t == FMUC_M_REAL) { /* §2.1.6: final values can be inquired */
        glog(c, fmi2Error, "%s: the instance is terminated", fn_rules[fn].name);
        return done(c, fmi2Error);
    }
#endif
    if (nvr == 0)
        return fmi2OK;
    if (!vr || !value) {
        glog(c, fmi2Error, "%s: vr or value is NULL", fn_rules[fn].name);
        return done(c, fmi2Error);
    }
    fmi2Status st = calc_for_read(c);
    if (st > fmi2Warning) {
        glog(c, st, "%s: model evaluation failed", fn_rules[fn].name);
        return st == fmi2Discard ? st : done(c, st);
    }
    for (size_t i = 0; i < nvr; i++) {
        const fmuc_m_var *v = fmuc_gc_find_vr(c->desc, vr[i], t);
        if (!v) {
#ifdef FMUC_HOSTILE_CRASH_ON_UNKNOWN_VR
            raise(SIGSEGV); /* instead of the fmi2Error §2.1.2 requires */
#endif
#ifdef FMUC_DEFECT_UNKNOWN_VR_OK
            switch (t) {
            case FMUC_M_REAL:
                ((fmi2Real *)value)[i] = 0.0;
                break;
            case FMUC_M_STRING:
                ((fmi2String *)value)[i] = "";
                break;
            default:
                ((int *)value)[i] = 0;
                break;
            }
            continue;
#else
            glog(c, fmi2Error, "%s: unknown valueReference %u for type %s", fn_rules[fn].name,
                 vr[i], fmuc_gc_type_name(t));
            return done(c, fmi2Error);
#endif
        }
        switch (t) {
        case FMUC_M_REAL:
            ((fmi2Real *)value)[i] = v->causality == FMUC_M_INDEPENDENT
                                         ? c->time
                                         : *(const double *)field(c, v);
#ifdef FMUC_DEFECT_TIME_VARIABLE_ZERO
            /* broken FMUs (cs-nominal-run--time-variable): the independent variable reads 0 */
            if (v->causality == FMUC_M_INDEPENDENT)
                ((fmi2Real *)value)[i] = 0.0;
#endif
#ifdef FMUC_DEFECT_DERIVATIVE_VARIABLE_OFF
            /* broken FMUs (me-state-roundtrip--derivative-variable): a derivative variable read
             * by fmi2GetReal is 10 % off the value fmi2GetDerivatives returns */
            if (v->derivative_of)
                ((fmi2Real *)value)[i] *= 1.1;
#endif
            break;
        case FMUC_M_INTEGER:
        case FMUC_M_BOOLEAN:
            ((int *)value)[i] = *(const int *)field(c, v);
            break;
        case FMUC_M_STRING:
            ((fmi2String *)value)[i] = (const char *)field(c, v);
#ifdef FMUC_DEFECT_STRING_NOT_COPIED
            if (((const char *)field(c, v))[0] == '\x01') {
                fmi2String kept;
                memcpy(&kept, (const char *)field(c, v) + 1, sizeof kept);
                ((fmi2String *)value)[i] = kept;
            }
#endif
            break;
        case FMUC_M_UINT64: /* FMI 3.0 only: no FMI 2.0 accessor has this type */
            break;
        }
    }
#ifdef FMUC_DEFECT_GET_REAL_OVERRUN
    /* one element past nvr: the last value once more (a loop to <= nvr) */
    if (t == FMUC_M_REAL)
        ((fmi2Real *)value)[nvr] = ((fmi2Real *)value)[nvr - 1];
#endif
#ifdef FMUC_DEFECT_GET_REAL_OVERRUN_FAR
    /* eight elements past nvr (64 bytes: the whole guard zone behind a small array) */
    if (t == FMUC_M_REAL)
        for (size_t k = 0; k < 8; k++)
            ((fmi2Real *)value)[nvr + k] = ((fmi2Real *)value)[nvr - 1];
#endif
#ifdef FMUC_DEFECT_GET_MODIFIES_VR
    /* writes through the const vr[] it was given (the last reference, cast away) */
    ((fmi2ValueReference *)vr)[nvr - 1] = 0xFFFFFFFFu;
#endif
    return st;
}

static fmi2Status set_values(fmi2Component comp, int fn, fmuc_m_type t,
                             const fmi2ValueReference vr[], size_t nvr, const void *value)
{
    fmuc_m_ctx *c = ctx_of(comp);
    if (!c)
        return fmi2Error;
    if (c->state == ST_FAT)
        return fmi2Fatal;
    if (!allowed(c, fn))
        return done(c, fmi2Error);
    if (nvr == 0)
        return fmi2OK;
    if (!vr || !value) {
        glog(c, fmi2Error, "%s: vr or value is NULL", fn_rules[fn].name);
        return done(c, fmi2Error);
    }
    fmi2Status st = fmi2OK;
    for (size_t i = 0; i < nvr; i++) {
        const fmuc_m_var *v = fmuc_gc_find_vr(c->desc, vr[i], t);
        if (!v) {
#ifdef FMUC_HOSTILE_CRASH_ON_UNKNOWN_VR
            raise(SIGSEGV); /* instead of the fmi2Error §2.1.2 requires */
#endif
#ifdef FMUC_DEFECT_UNKNOWN_VR_OK
            continue;
#else
            glog(c, fmi2Error, "%s: unknown valueReference %u for type %s", fn_rules[fn].name,
                 vr[i], fmuc_gc_type_name(t));
            return done(c, fmi2Error);
#endif
        }
        const char *why = not_settable(c, v);
        if (why) {
            glog(c, fmi2Error, "%s: variable '%s' (vr %u) cannot be set in state %s: %s",
                 fn_rules[fn].name, v->name, v->vr, state_name(c->state), why);
            return done(c, fmi2Error);
        }
        void *p = field(c, v);
        switch (t) {
        case FMUC_M_REAL: {
            double x = ((const fmi2Real *)value)[i];
            if (fmuc_gc_out_of_range(v, x)) {
                glog(c, fmi2Discard, "%s: value %.17g for '%s' (vr %u) is outside [%g, %g]; ignored",
                     fn_rules[fn].name, x, v->name, v->vr,
                     (v->flags & FMUC_M_HAS_MIN) ? v->min : -HUGE_VAL,
                     (v->flags & FMUC_M_HAS_MAX) ? v->max : HUGE_VAL);
                st = worst(st, fmi2Discard);
                continue;
            }
#ifdef FMUC_DEFECT_SET_NOT_KEPT_IN_INIT
            /* a parameter set in Initialization Mode is acknowledged and dropped */
            if (c->state == ST_INIT && v->causality == FMUC_M_PARAMETER)
                break;
#endif
            *(double *)p = x;
            break;
        }
        case FMUC_M_INTEGER: {
            int x = ((const fmi2Integer *)value)[i];
            if (fmuc_gc_out_of_range(v, (double)x)) {
                glog(c, fmi2Discard, "%s: value %d for '%s' (vr %u) is out of range; ignored",
                     fn_rules[fn].name, x, v->name, v->vr);
                st = worst(st, fmi2Discard);
                continue;
            }
            *(int *)p = x;
            break;
        }
        case FMUC_M_BOOLEAN:
            *(int *)p = ((const fmi2Boolean *)value)[i] ? fmi2True : fmi2False;
            break;
        case FMUC_M_STRING: {
            const char *s = ((const fmi2String *)value)[i];
            if (!s || strlen(s) >= FMUC_M_STRLEN) {
                glog(c, fmi2Error, "%s: string for '%s' (vr %u) is NULL or longer than %d bytes",
                     fn_rules[fn].name, v->name, v->vr, FMUC_M_STRLEN - 1);
                return done(c, fmi2Error);
            }
#ifdef FMUC_DEFECT_STRING_NOT_COPIED
            /* the caller's pointer is kept (behind a marker byte) instead of its characters */
            ((char *)p)[0] = '\x01';
            memcpy((char *)p + 1, &s, sizeof s);
#else
            memcpy(p, s, strlen(s) + 1);
#endif
            break;
        }
        case FMUC_M_UINT64: /* FMI 3.0 only: no FMI 2.0 accessor has this type */
            break;
        }
        c->dirty = 1;
    }
    return st;
}

fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Real value[])
{
    return get_values(c, FN_GetReal, FMUC_M_REAL, vr, nvr, value);
}

fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                          fmi2Integer value[])
{
    return get_values(c, FN_GetInteger, FMUC_M_INTEGER, vr, nvr, value);
}

fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                          fmi2Boolean value[])
{
    return get_values(c, FN_GetBoolean, FMUC_M_BOOLEAN, vr, nvr, value);
}

fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                         fmi2String value[])
{
    return get_values(c, FN_GetString, FMUC_M_STRING, vr, nvr, (void *)value);
}

fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                       const fmi2Real value[])
{
#ifdef FMUC_DEFECT_SET_CLOBBERS_VALUES
    /* broken FMUs (api-buffer-bounds--set-clobbers): the values are taken, then the caller's
     * const value[] is zeroed */
    fmi2Status st = set_values(c, FN_SetReal, FMUC_M_REAL, vr, nvr, value);
    if (value)
        memset((void *)(uintptr_t)value, 0, nvr * sizeof *value);
    return st;
#else
    return set_values(c, FN_SetReal, FMUC_M_REAL, vr, nvr, value);
#endif
}

fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                          const fmi2Integer value[])
{
    return set_values(c, FN_SetInteger, FMUC_M_INTEGER, vr, nvr, value);
}

fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                          const fmi2Boolean value[])
{
    return set_values(c, FN_SetBoolean, FMUC_M_BOOLEAN, vr, nvr, value);
}

fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                         const fmi2String value[])
{
    return set_values(c, FN_SetString, FMUC_M_STRING, vr, nvr, (const void *)value);
}

/* --- FMU state ----------------------------------------------------------------------------- */
/* FMUC_GLUE_STATE_WARNING (fixture eq-fmu-state--warning, no defect): every state function that
 * succeeds says fmi2Warning with a log message, which §2.1.3 allows ("things are not quite
 * right, but the computation can continue") */
static fmi2Status state_status(fmuc_m_ctx *c, const char *fn, fmi2Status st)
{
#ifdef FMUC_GLUE_STATE_WARNING
    if (st == fmi2OK) {
        glog(c, fmi2Warning, "%s: the state is kept in a slower way than it could be", fn);
        return fmi2Warning;
    }
#else
    (void)c;
    (void)fn;
#endif
    return st;
}

fmi2Status fmi2GetFMUstate(fmi2Component comp, fmi2FMUstate *FMUstate)
{
    BEGIN(GetFMUstate);
    REQUIRE_PTR(FMUstate, GetFMUstate);
    return done(c, state_status(c, "fmi2GetFMUstate",
                                (fmi2Status)fmuc_gc_state_get(FS_(c), FMUstate)));
}

fmi2Status fmi2SetFMUstate(fmi2Component comp, fmi2FMUstate FMUstate)
{
    BEGIN(SetFMUstate);
    return done(c, state_status(c, "fmi2SetFMUstate",
                                (fmi2Status)fmuc_gc_state_set(FS_(c), FMUstate)));
}

fmi2Status fmi2FreeFMUstate(fmi2Component comp, fmi2FMUstate *FMUstate)
{
    BEGIN(FreeFMUstate);
    REQUIRE_PTR(FMUstate, FreeFMUstate);
    return done(c, (fmi2Status)fmuc_gc_state_free(FS_(c), FMUstate));
}

fmi2Status fmi2SerializedFMUstateSize(fmi2Component comp, fmi2FMUstate FMUstate, size_t *size)
{
    BEGIN(SerializedFMUstateSize);
    REQUIRE_PTR(size, SerializedFMUstateSize);
    return done(c, state_status(c, "fmi2SerializedFMUstateSize",
                                (fmi2Status)fmuc_gc_state_size(FS_(c), FMUstate, size)));
}

fmi2Status fmi2SerializeFMUstate(fmi2Component comp, fmi2FMUstate FMUstate,
                                 fmi2Byte serializedState[], size_t size)
{
    BEGIN(SerializeFMUstate);
    REQUIRE_PTR(serializedState, SerializeFMUstate);
    return done(c, state_status(c, "fmi2SerializeFMUstate",
                                (fmi2Status)fmuc_gc_state_serialize(
                                    FS_(c), FMUstate, (unsigned char *)serializedState, size)));
}

fmi2Status fmi2DeSerializeFMUstate(fmi2Component comp, const fmi2Byte serializedState[],
                                   size_t size, fmi2FMUstate *FMUstate)
{
    BEGIN(DeSerializeFMUstate);
    REQUIRE_PTR(FMUstate, DeSerializeFMUstate);
    return done(c, state_status(c, "fmi2DeSerializeFMUstate",
                                (fmi2Status)fmuc_gc_state_deserialize(
                                    FS_(c), (const unsigned char *)serializedState, size,
                                    FMUstate)));
}

/* --- directional derivatives --------------------------------------------------------------- */
fmi2Status fmi2GetDirectionalDerivative(fmi2Component comp, const fmi2ValueReference vUnknown_ref[],
                                        size_t nUnknown, const fmi2ValueReference vKnown_ref[],
                                        size_t nKnown, const fmi2Real dvKnown[],
                                        fmi2Real dvUnknown[])
{
    BEGIN(GetDirectionalDerivative);
    if (!(c->desc->caps & FMUC_M_CAP_DIR_DERIV) || !c->desc->dir_deriv) {
        glog(c, fmi2Error,
             "fmi2GetDirectionalDerivative: not supported (providesDirectionalDerivative=false)");
        return done(c, fmi2Error);
    }
    if ((nUnknown && (!vUnknown_ref || !dvUnknown)) || (nKnown && (!vKnown_ref || !dvKnown))) {
        glog(c, fmi2Error, "fmi2GetDirectionalDerivative: NULL array");
        return done(c, fmi2Error);
    }
    for (size_t i = 0; i < nUnknown; i++)
        if (!fmuc_gc_find_vr(c->desc, vUnknown_ref[i], FMUC_M_REAL)) {
            glog(c, fmi2Error, "fmi2GetDirectionalDerivative: unknown Real valueReference %u",
                 vUnknown_ref[i]);
            return done(c, fmi2Error);
        }
    for (size_t i = 0; i < nKnown; i++)
        if (!fmuc_gc_find_vr(c->desc, vKnown_ref[i], FMUC_M_REAL)) {
            glog(c, fmi2Error, "fmi2GetDirectionalDerivative: unknown Real valueReference %u",
                 vKnown_ref[i]);
            return done(c, fmi2Error);
        }
    fmi2Status st = calc_for_read(c);
    if (st > fmi2Warning)
        return done(c, st);
    st = worst(st, c->desc->dir_deriv(c, c->data, vUnknown_ref, nUnknown, vKnown_ref, nKnown,
                                      dvKnown, dvUnknown));
    return st > fmi2Discard ? done(c, st) : st;
}

/* --- Model Exchange ------------------------------------------------------------------------ */
fmi2Status fmi2EnterEventMode(fmi2Component comp)
{
    BEGIN(EnterEventMode);
    c->state = ST_EM;
    c->t_floor = c->time;
    return fmi2OK;
}

fmi2Status fmi2NewDiscreteStates(fmi2Component comp, fmi2EventInfo *info)
{
    BEGIN(NewDiscreteStates);
    REQUIRE_PTR(info, NewDiscreteStates);
    memset(info, 0, sizeof *info);
    fmi2Status st = run_calc(c);
    if (st <= fmi2Warning && c->desc->event_update) {
        st = worst(st, c->desc->event_update(c, c->data, info));
        c->dirty = 1;
    }
#ifdef FMUC_DEFECT_STATES_CHANGED_ALWAYS
    info->valuesOfContinuousStatesChanged = fmi2True;
#endif
#ifdef FMUC_DEFECT_NOMINALS_CHANGED_SILENTLY
    if (info->valuesOfContinuousStatesChanged)
        c->nominal_epoch++; /* rescales the nominals without nominalsOfContinuousStatesChanged */
#endif
    if (info->terminateSimulation)
        c->terminated = 1;
    return st > fmi2Warning ? done(c, st) : st;
}

fmi2Status fmi2EnterContinuousTimeMode(fmi2Component comp)
{
    BEGIN(EnterContinuousTimeMode);
    c->state = ST_CTM;
    return fmi2OK;
}

fmi2Status fmi2CompletedIntegratorStep(fmi2Component comp,
                                       fmi2Boolean noSetFMUStatePriorToCurrentPoint,
                                       fmi2Boolean *enterEventMode, fmi2Boolean *terminateSimulation)
{
    BEGIN(CompletedIntegratorStep);
    (void)noSetFMUStatePriorToCurrentPoint;
    REQUIRE_PTR(enterEventMode, CompletedIntegratorStep);
    REQUIRE_PTR(terminateSimulation, CompletedIntegratorStep);
#ifdef FMUC_HOSTILE_SLOW_START_MS
    slow_start(c);
#endif
#ifdef FMUC_DEFECT_IGNORE_COMPLETED_STEP
    return fmi2OK; /* outputs left unwritten */
#else
    *enterEventMode = fmi2False;
    *terminateSimulation = fmi2False;
    fmi2Status st = fmi2OK;
    if (c->desc->step_completed) {
        st = run_calc(c);
        if (st <= fmi2Warning)
            st = worst(st, c->desc->step_completed(c, c->data, enterEventMode));
    }
    c->t_floor = c->time;
    return st > fmi2Warning ? done(c, st) : st;
#endif
}

static double time_tol(double a, double b)
{
    double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return 1e-9 * (m > 1.0 ? m : 1.0);
}

fmi2Status fmi2SetTime(fmi2Component comp, fmi2Real time)
{
    BEGIN(SetTime);
    if (c->state == ST_EM && (c->nx > 0 || c->desc->n_event_indicators > 0)) {
        glog(c, fmi2Error, "fmi2SetTime: not allowed in event mode for a model with continuous "
                           "states or event indicators (only pure discrete-time FMUs)");
        return done(c, fmi2Error);
    }
    if (!isfinite(time) || time < c->t_floor - time_tol(time, c->t_floor)) {
        glog(c, fmi2Error, "fmi2SetTime: time %.17g is before the last accepted time %.17g", time,
             c->t_floor);
        return done(c, fmi2Error);
    }
#ifdef FMUC_DEFECT_STOP_TIME_ALWAYS
    c->stop_defined = 1;
#endif
#ifndef FMUC_DEFECT_IGNORE_STOP_TIME
    if (c->stop_defined && time > c->stop_time + time_tol(time, c->stop_time)) {
        glog(c, fmi2Error, "fmi2SetTime: time %.17g is beyond stopTime %.17g", time, c->stop_time);
        return done(c, fmi2Error);
    }
#endif
    c->time = time;
    c->dirty = 1;
    return fmi2OK;
}

static int check_nx(fmuc_m_ctx *c, const char *fn, size_t nx, size_t expect)
{
#ifdef FMUC_DEFECT_NX_UNCHECKED
    (void)c;
    (void)fn;
    (void)nx;
    (void)expect;
    return 1;
#else
    if (nx != expect) {
        glog(c, fmi2Error, "%s: n = %zu but the model has %zu", fn, nx, expect);
        return 0;
    }
    return 1;
#endif
}

static void read_states(const fmuc_m_ctx *c, double *x)
{
    fmuc_gc_read_reals(c->desc, c->data, c->xi, c->nx, x);
}

static void write_states(fmuc_m_ctx *c, const double *x)
{
    fmuc_gc_write_reals(c->desc, c->data, c->xi, c->nx, x);
    c->dirty = 1;
}

static void read_derivs(const fmuc_m_ctx *c, double *dx)
{
    fmuc_gc_read_reals(c->desc, c->data, c->dxi, c->nx, dx);
}

fmi2Status fmi2SetContinuousStates(fmi2Component comp, const fmi2Real x[], size_t nx)
{
    BEGIN(SetContinuousStates);
    if (!check_nx(c, "fmi2SetContinuousStates", nx, c->nx))
        return done(c, fmi2Error);
    if (nx)
        REQUIRE_PTR(x, SetContinuousStates);
    size_t n = nx < c->nx ? nx : c->nx;
    for (size_t i = 0; i < n; i++)
#if defined(FMUC_GLUE_FLOAT32_STATES)
        /* no defect: the states are kept to float32 precision (no FMI text asks for the same
         * bits back; fixture me-state-roundtrip--float32) */
        *(double *)field(c, &c->desc->vars[c->xi[i]]) = (double)(float)x[i];
#elif defined(FMUC_DEFECT_STATES_CLIPPED)
        /* the defect: states beyond +-1 are clipped, the state set is not the state held */
        *(double *)field(c, &c->desc->vars[c->xi[i]]) = x[i] > 1.0 ? 1.0 : x[i] < -1.0 ? -1.0 : x[i];
#else
        *(double *)field(c, &c->desc->vars[c->xi[i]]) = x[i];
#endif
    c->dirty = 1;
    return fmi2OK;
}

fmi2Status fmi2GetContinuousStates(fmi2Component comp, fmi2Real x[], size_t nx)
{
    BEGIN(GetContinuousStates);
    if (!check_nx(c, "fmi2GetContinuousStates", nx, c->nx))
        return done(c, fmi2Error);
    if (nx)
        REQUIRE_PTR(x, GetContinuousStates);
    fmi2Status st = c->state == ST_INIT ? run_calc(c) : fmi2OK; /* calculated initial states */
    if (st > fmi2Warning)
        return st == fmi2Discard ? st : done(c, st);
    size_t n = nx < c->nx ? nx : c->nx;
    for (size_t i = 0; i < n; i++)
        x[i] = *(const double *)field(c, &c->desc->vars[c->xi[i]]);
    return st;
}

fmi2Status fmi2GetDerivatives(fmi2Component comp, fmi2Real derivatives[], size_t nx)
{
    BEGIN(GetDerivatives);
    if (!check_nx(c, "fmi2GetDerivatives", nx, c->nx))
        return done(c, fmi2Error);
    if (nx)
        REQUIRE_PTR(derivatives, GetDerivatives);
    fmi2Status st = calc_for_read(c);
    if (st > fmi2Warning)
        return st == fmi2Discard ? st : done(c, st);
    size_t n = nx < c->nx ? nx : c->nx;
    for (size_t i = 0; i < n; i++)
        derivatives[i] = *(const double *)field(c, &c->desc->vars[c->dxi[i]]);
#ifdef FMUC_DEFECT_GET_DERIVATIVES_OVERRUN
    /* two elements past nx (a scratch area the FMU thinks it owns) */
    derivatives[n] = derivatives[n + 1] = 0.0;
#endif
    return st;
}

fmi2Status fmi2GetEventIndicators(fmi2Component comp, fmi2Real eventIndicators[], size_t ni)
{
    BEGIN(GetEventIndicators);
    if (!check_nx(c, "fmi2GetEventIndicators", ni, c->desc->n_event_indicators))
        return done(c, fmi2Error);
    if (ni == 0)
        return fmi2OK;
    REQUIRE_PTR(eventIndicators, GetEventIndicators);
    fmi2Status st = calc_for_read(c);
    if (st <= fmi2Warning && c->desc->event_indicators)
        st = worst(st, c->desc->event_indicators(c, c->data, eventIndicators, ni));
    return st > fmi2Discard ? done(c, st) : st;
}

fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component comp, fmi2Real x_nominal[], size_t nx)
{
    BEGIN(GetNominalsOfContinuousStates);
    if (!check_nx(c, "fmi2GetNominalsOfContinuousStates", nx, c->nx))
        return done(c, fmi2Error);
    if (nx)
        REQUIRE_PTR(x_nominal, GetNominalsOfContinuousStates);
    size_t n = nx < c->nx ? nx : c->nx;
    for (size_t i = 0; i < n; i++) {
        const fmuc_m_var *v = &c->desc->vars[c->xi[i]];
        x_nominal[i] = (v->flags & FMUC_M_HAS_NOMINAL) ? v->nominal : 1.0;
#ifdef FMUC_DEFECT_ZERO_NOMINALS
        x_nominal[i] = 0.0;
#endif
#ifdef FMUC_DEFECT_NOMINALS_CHANGED_SILENTLY
        x_nominal[i] *= 1.0 + (double)c->nominal_epoch;
#endif
    }
    return fmi2OK;
}

/* --- Co-Simulation ------------------------------------------------------------------------- */
fmi2Status fmi2SetRealInputDerivatives(fmi2Component comp, const fmi2ValueReference vr[],
                                       size_t nvr, const fmi2Integer order[],
                                       const fmi2Real value[])
{
    BEGIN(SetRealInputDerivatives);
    if (nvr && (!vr || !order || !value)) {
        glog(c, fmi2Error, "fmi2SetRealInputDerivatives: NULL array");
        return done(c, fmi2Error);
    }
    for (size_t i = 0; i < nvr; i++) {
        const fmuc_m_var *v = fmuc_gc_find_vr(c->desc, vr[i], FMUC_M_REAL);
        if (!v || v->causality != FMUC_M_INPUT || order[i] < 1) {
            glog(c, fmi2Error,
                 "fmi2SetRealInputDerivatives: vr %u is not a Real input or order %d < 1", vr[i],
                 (int)order[i]);
            return done(c, fmi2Error);
        }
    }
#ifdef FMUC_DEFECT_INPUT_DERIVATIVES_REFUSED
    glog(c, fmi2Error, "fmi2SetRealInputDerivatives: not supported");
    return done(c, fmi2Error);
#endif
    /* canInterpolateInputs=false: accepted without effect (§4.2.1). */
    return fmi2OK;
}

fmi2Status fmi2GetRealOutputDerivatives(fmi2Component comp, const fmi2ValueReference vr[],
                                        size_t nvr, const fmi2Integer order[], fmi2Real value[])
{
    BEGIN(GetRealOutputDerivatives);
    (void)vr;
    (void)order;
    (void)value;
    if (nvr == 0)
        return fmi2OK;
#ifdef FMUC_DEFECT_OUTPUT_DERIVATIVES_NAN
    if (value) {
        for (size_t i = 0; i < nvr; i++)
            value[i] = NAN;
        return fmi2OK;
    }
#endif
    glog(c, fmi2Error, "fmi2GetRealOutputDerivatives: maxOutputDerivativeOrder is 0");
    return done(c, fmi2Error);
}

/* Fixed-step RK4 over the table's states (vehicle-brief §5 stage form; glue_core's stepper). */
static int eval_f(void *inst, double t, const double *x, double *dx)
{
    fmuc_m_ctx *c = inst;
    c->time = t;
    write_states(c, x);
    fmi2Status st = run_calc(c);
    read_derivs(c, dx);
    return st;
}

static fmi2Status rk4_step(fmuc_m_ctx *c, double tc, double h)
{
    if (c->nx == 0) {
        c->dirty = 1;
        return fmi2OK;
    }
    read_states(c, c->work);
    fmi2Status st = (fmi2Status)fmuc_gc_rk4(c, eval_f, c->nx, c->work, c->desc->cs_h_max, tc, h);
    if (st <= fmi2Warning)
        write_states(c, c->work);
    return st;
}

/* A step's outcome: the new communication point (stepComplete) or stepFailed at tc. */
static void finish_step(fmuc_m_ctx *c, double tc, double h, fmi2Status st)
{
    if (st <= fmi2Warning) {
        c->time = tc + h;
        c->last_ok_time = c->time;
        c->state = ST_SC;
    } else {
        c->time = tc;
        c->state = ST_SF;
    }
}

fmi2Status fmi2DoStep(fmi2Component comp, fmi2Real currentCommunicationPoint,
                      fmi2Real communicationStepSize, fmi2Boolean noSetFMUStatePriorToCurrentPoint)
{
    BEGIN(DoStep);
    (void)noSetFMUStatePriorToCurrentPoint;
#ifdef FMUC_HOSTILE_HANG_AFTER_RESET
    for (volatile int spin = c->was_reset; spin;) { /* the run after fmi2Reset never steps */
    }
#endif
#ifdef FMUC_DEFECT_DOSTEP_FPU_CONTROL
    fmuc_gc_defect_fpu_control();
#endif
    double tc = currentCommunicationPoint, h = communicationStepSize;
    if (!isfinite(h) || !(h > 0.0)) {
        glog(c, fmi2Error, "fmi2DoStep: communicationStepSize %.17g must be > 0", h);
        return done(c, fmi2Error);
    }
#ifdef FMUC_GLUE_CONSTANT_STEP
    /* no defect: canHandleVariableCommunicationStepSize="false" (xml.sed) taken at its word, the
     * step size compared bit for bit with the first one (§4.3.1: the master keeps it constant),
     * a last step that ends at the stop time excepted */
    if (c->const_h == 0.0) {
        c->const_h = h;
    } else if (h != c->const_h &&
               !(c->stop_defined && fabs(tc + h - c->stop_time) <= time_tol(tc + h, c->stop_time))) {
        glog(c, fmi2Error, "fmi2DoStep: communicationStepSize %.17g is not the constant step "
                           "size %.17g", h, c->const_h);
        return done(c, fmi2Error);
    }
#endif
#ifdef FMUC_DEFECT_FIXED_COMM_STEP
    if (fabs(h - c->desc->experiment.step) > 1e-9 * c->desc->experiment.step) {
#ifdef FMUC_DEFECT_FIXED_COMM_STEP_CRASH
        raise(SIGSEGV);
#endif
        glog(c, fmi2Error, "fmi2DoStep: communicationStepSize %.17g is not %.17g", h,
             c->desc->experiment.step);
        return done(c, fmi2Error);
    }
#endif
#ifdef FMUC_DEFECT_EXACT_COMM_POINT
    int off = tc != c->time;
#else
    int off = !isfinite(tc) || fabs(tc - c->time) > time_tol(tc, c->time);
#endif
    if (off) {
        glog(c, fmi2Error,
             "fmi2DoStep: currentCommunicationPoint %.17g does not match the FMU time %.17g", tc,
             c->time);
        return done(c, fmi2Error);
    }
#ifdef FMUC_DEFECT_STOP_TIME_ALWAYS
    c->stop_defined = 1; /* takes stopTime as defined whatever stopTimeDefined said (§2.1.6) */
#endif
#ifndef FMUC_DEFECT_IGNORE_STOP_TIME
    if (c->stop_defined && tc + h > c->stop_time + time_tol(tc + h, c->stop_time)) {
        glog(c, fmi2Error, "fmi2DoStep: step to %.17g goes beyond stopTime %.17g", tc + h,
             c->stop_time);
        return done(c, fmi2Error);
    }
#endif
#if defined(FMUC_DEFECT_DISCARD_FROM_0_2) && !defined(FMUC_DEFECT_DISCARD_FROM)
#define FMUC_DEFECT_DISCARD_FROM 0.2
#endif
#ifdef FMUC_DEFECT_DISCARD_FROM
    if (tc >= c->start_time + FMUC_DEFECT_DISCARD_FROM) { /* legal by itself: the slave stops
                                                           * early (§4.2.2) */
        glog(c, fmi2Discard, "fmi2DoStep: the model ends at t=%.17g", tc);
        c->last_step_status = fmi2Discard;
        c->time = tc;
        c->state = ST_SF;
        return fmi2Discard;
    }
#endif
#ifdef FMUC_HOSTILE_CRASH_IN_DOSTEP
    raise(SIGSEGV);
#endif
#ifdef FMUC_HOSTILE_EXIT_IN_DOSTEP
    exit(0); /* ends the process as a crash would, with status 0 */
#endif
#ifdef FMUC_HOSTILE_HANG_IN_DOSTEP
    for (volatile int spin = 1; spin;) {
    }
#endif
#ifdef FMUC_HOSTILE_SLOW_START_MS
    slow_start(c);
#endif
    fmi2Status st;
    if (c->desc->do_step)
        st = c->desc->do_step(c, c->data, tc, h);
    else
        st = rk4_step(c, tc, h);
    c->dirty = 1;
    c->last_step_status = st;
#ifdef FMUC_GLUE_ASYNC_STEP
    /* canRunAsynchronuously (§4.2.2): the step's result is kept and the step reported as running
     * (stepInProgress) until a later fmi2GetStatus(fmi2DoStepStatus) finishes it */
    if (st <= fmi2Discard) {
        c->async_polls = 0;
        c->async_tc = tc;
        c->async_h = h;
        c->state = ST_SIP;
        return fmi2Pending;
    }
#endif
    if (st <= fmi2Discard) {
        finish_step(c, tc, h, st);
    } else {
        glog(c, st, "fmi2DoStep: step from %.17g failed", tc);
        return done(c, st);
    }
    return st;
}

fmi2Status fmi2CancelStep(fmi2Component comp)
{
    BEGIN(CancelStep);
    c->state = ST_SCAN;
    return fmi2OK;
}

fmi2Status fmi2GetStatus(fmi2Component comp, const fmi2StatusKind s, fmi2Status *value)
{
    BEGIN(GetStatus);
    REQUIRE_PTR(value, GetStatus);
    if (s != fmi2DoStepStatus)
        return fmi2Discard;
#ifdef FMUC_GLUE_ASYNC_STEP
    if (c->state == ST_SIP) {
        if (c->async_polls++ < 2) { /* still running for two polls */
            *value = fmi2Pending;
            return fmi2OK;
        }
        finish_step(c, c->async_tc, c->async_h, c->last_step_status);
        if (c->cb.stepFinished) /* the callback of the host (NULL: it polls) */
            c->cb.stepFinished(c->cb.componentEnvironment, c->last_step_status);
    }
#endif
    *value = c->last_step_status;
    return fmi2OK;
}

fmi2Status fmi2GetRealStatus(fmi2Component comp, const fmi2StatusKind s, fmi2Real *value)
{
    BEGIN(GetRealStatus);
    REQUIRE_PTR(value, GetRealStatus);
    if (s != fmi2LastSuccessfulTime)
        return fmi2Discard;
#ifdef FMUC_DEFECT_LAST_SUCCESSFUL_TIME_NAN
    *value = NAN; /* §4.2.3: the end time of the last completed step, not NaN */
    return fmi2OK;
#endif
    *value = c->last_ok_time;
#ifdef FMUC_DEFECT_REAL_STATUS_OVERRUN
    value[1] = c->time; /* a second fmi2Real behind the single value the importer lends */
#endif
    return fmi2OK;
}

fmi2Status fmi2GetIntegerStatus(fmi2Component comp, const fmi2StatusKind s, fmi2Integer *value)
{
    BEGIN(GetIntegerStatus);
    (void)s;
    REQUIRE_PTR(value, GetIntegerStatus);
    return fmi2Discard; /* no Integer status kind exists */
}

fmi2Status fmi2GetBooleanStatus(fmi2Component comp, const fmi2StatusKind s, fmi2Boolean *value)
{
    BEGIN(GetBooleanStatus);
    REQUIRE_PTR(value, GetBooleanStatus);
    if (s != fmi2Terminated)
        return fmi2Discard;
#ifdef FMUC_DEFECT_TERMINATED_STATUS_ERROR
    if (c->last_step_status == fmi2Discard) { /* §4.2.3: asked after a discarded step; a status
                                                 it cannot give is fmi2Discard, not an error */
        glog(c, fmi2Error, "fmi2GetBooleanStatus: terminated status not available");
        return done(c, fmi2Error);
    }
#endif
    *value = c->terminated ? fmi2True : fmi2False;
    return fmi2OK;
}

fmi2Status fmi2GetStringStatus(fmi2Component comp, const fmi2StatusKind s, fmi2String *value)
{
    BEGIN(GetStringStatus);
    (void)s;
    REQUIRE_PTR(value, GetStringStatus);
#ifdef FMUC_DEFECT_STATUS_QUERY_ERROR
    glog(c, fmi2Error, "fmi2GetStringStatus: no asynchronous step");
    return done(c, fmi2Error); /* §4.2.3: a status it cannot deliver is fmi2Discard */
#endif
    return fmi2Discard; /* fmi2PendingStatus: no asynchronous steps */
}
