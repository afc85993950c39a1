/* fmuc model API: what a model implements so that the model-agnostic FMI 2.0 glue (fmi2_glue.c)
 * or FMI 3.0 glue (fmi3_glue.c) and the modelDescription generator (mdgen.c, --fmi3 for 3.0) can
 * turn it into an FMU. Callbacks use the FMI 2.0 status codes, whose values 0..4 equal FMI 3.0's. One model = one const
 * descriptor `fmuc_model` (variable table + capabilities + callbacks); no mutable globals.
 * Variables live in the model's flat data block (`data_size` bytes, zeroed, allocated by the
 * glue through the host's allocateMemory); the table gives each variable's byte offset there. */
#ifndef FMUC_MODEL_H
#define FMUC_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "fmi2/fmi2.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Base type of a variable; storage in the data block: double, int, int (fmi2Boolean),
 *  char[FMUC_M_STRLEN] (NUL-terminated), uint64_t (FMUC_M_UINT64: FMI 3.0 only, the type of a
 *  structural parameter that dimensions arrays). */
typedef enum {
    FMUC_M_REAL = 0,
    FMUC_M_INTEGER,
    FMUC_M_BOOLEAN,
    FMUC_M_STRING,
    FMUC_M_UINT64
} fmuc_m_type;

typedef enum {
    FMUC_M_LOCAL = 0, /* default (zero) */
    FMUC_M_PARAMETER,
    FMUC_M_CALCULATED_PARAMETER,
    FMUC_M_INPUT,
    FMUC_M_OUTPUT,
    FMUC_M_INDEPENDENT, /* no storage: the glue serves the current time */
    /* FMI 3.0 only: a structural parameter (FMUC_M_UINT64, variability fixed, start/min/max),
     * set in Configuration Mode; arrays name it in .dim_param */
    FMUC_M_STRUCTURAL_PARAMETER
} fmuc_m_causality;

typedef enum {
    FMUC_M_CONTINUOUS = 0, /* default (zero), Real only */
    FMUC_M_DISCRETE,
    FMUC_M_TUNABLE,
    FMUC_M_FIXED,
    FMUC_M_CONSTANT
} fmuc_m_variability;

/** FMUC_M_INITIAL_DEFAULT = the default of the causality x variability cell (§2.2.7). */
typedef enum {
    FMUC_M_INITIAL_DEFAULT = 0,
    FMUC_M_EXACT,
    FMUC_M_APPROX,
    FMUC_M_CALCULATED,
    FMUC_M_INITIAL_NONE /* effective value for input / independent (attribute absent) */
} fmuc_m_initial;

/* fmuc_m_var.flags */
#define FMUC_M_HAS_START 0x01u
#define FMUC_M_HAS_MIN 0x02u
#define FMUC_M_HAS_MAX 0x04u
#define FMUC_M_HAS_NOMINAL 0x08u
/* FMI 3.0 only: the variable is an event indicator (ModelStructure/EventIndicator); the values
 * still come from the event_indicators callback, in the table order of these variables. */
#define FMUC_M_EVENT_INDICATOR 0x10u
/* FMI 3.0 Co-Simulation only (FMUC_M_CAP_CS_EVENT_MODE): intermediateUpdate="true" on a
 * continuous Real input or output; a master may list it in requiredIntermediateVariables and
 * access it in Intermediate Update Mode, which the glue then enters in the middle of every
 * step (fmi3_glue.c). Other versions and interfaces ignore it. */
#define FMUC_M_INTERMEDIATE 0x20u

#define FMUC_M_STRLEN 256

/** One ScalarVariable. Use designated initializers; zero means "absent/default". */
typedef struct fmuc_m_var {
    const char *name;
    fmi2ValueReference vr;
    fmuc_m_type type;
    fmuc_m_causality causality;
    fmuc_m_variability variability;
    fmuc_m_initial initial;
    unsigned flags;         /* FMUC_M_HAS_* */
    double start;           /* Real/Integer/Boolean start (Integer/Boolean: integral value) */
    const char *start_str;  /* String start */
    double min, max, nominal;
    const char *unit;        /* Real: unit name (UnitDefinitions are generated) */
    const char *description;
    size_t offset;           /* byte offset in the data block (offsetof); unused for independent */
    const char *derivative_of; /* Real: this variable is d/dt of the named variable (a state) */
    /* ModelStructure dependencies: space-separated variable names. NULL = attribute omitted
     * (depends on all knowns); "" = depends on no known. */
    const char *deps;      /* for Outputs / Derivatives: inputs, states, independent */
    const char *init_deps; /* for InitialUnknowns: inputs, initial="exact" variables, independent */
    /* FMI 3.0 only: 0 or 1 = scalar; n > 1 = a one-dimensional array of n elements stored
     * contiguously at offset (<Dimension start="n"/>; one value reference for all elements; the
     * start value goes into every element). The FMI 2.0 mdgen refuses arrays. */
    size_t dim;
    /* FMI 3.0 (Scheduled Execution, FMUC_M_CAP_EM_CLOCKS) only: a clocked variable; space-separated names of clocks of
     * the model's clock table (fmuc_m_clock), written as clocks="<their valueReferences>". NULL:
     * not clocked. */
    const char *clocks;
    /* FMI 3.0 only: the name of a structural parameter (FMUC_M_STRUCTURAL_PARAMETER) whose
     * current value is the number of elements (<Dimension valueReference=.../>); .dim is then
     * the storage, which must equal the parameter's max. The start value goes into every
     * element again when fmi3ExitConfigurationMode resizes the array (§2.4.7.2). States,
     * derivatives and event indicators dimensioned so make the number of continuous states and
     * event indicators follow the parameter. */
    const char *dim_param;
} fmuc_m_var;

/** intervalVariability of a Clock (FMI 3.0 §2.4.7.4, fmi3-rules F.3). */
typedef enum {
    FMUC_M_CLOCK_CONSTANT = 0, /* periodic, interval fixed by the XML */
    FMUC_M_CLOCK_FIXED,        /* periodic, interval set once in Initialization Mode */
    FMUC_M_CLOCK_TUNABLE,      /* periodic, interval may change */
    FMUC_M_CLOCK_CHANGING,     /* aperiodic, next interval known when it ticks (ME/CS Event Mode
                                * only: .interval is the first, without HAS_INTERVAL; a partition
                                * gives the next one with fmuc_m_countdown_set) */
    FMUC_M_CLOCK_COUNTDOWN,    /* aperiodic, announced by the FMU (fmuc_m_countdown_set) */
    FMUC_M_CLOCK_TRIGGERED     /* no interval: the importer (input) or the FMU (output) decides */
} fmuc_m_interval_variability;

/* fmuc_m_clock.flags */
#define FMUC_M_CLOCK_HAS_INTERVAL 0x1u /* intervalDecimal (periodic clocks) */
#define FMUC_M_CLOCK_HAS_SHIFT 0x2u    /* shiftDecimal (periodic clocks; default 0) */
#define FMUC_M_CLOCK_HAS_PRIORITY 0x4u /* priority (required for input clocks in SE, B-356) */
#define FMUC_M_CLOCK_HAS_FRACTION 0x8u /* supportsFraction="true" with resolution, intervalCounter
                                        * and shiftCounter (periodic clocks: interval and shift
                                        * whole multiples of 1/resolution s) */
#define FMUC_M_CLOCK_CAN_DEACTIVATE 0x10u /* canBeDeactivated="true" (triggered input clocks,
                                           * ME/CS Event Mode): fmi3SetClock(inactive) undoes the
                                           * clock's activation in this instant (F-23) */

/** One <Clock> variable (FMI 3.0, Scheduled Execution: FMUC_M_CAP_SE). Clocks have no storage
 *  in the data block; the glue keeps their runtime state. Their valueReferences share the
 *  value-reference space of the variable table. An input clock's partition is the model's
 *  activate callback; an output clock ticks through fmuc_m_clock_tick. */
typedef struct fmuc_m_clock {
    const char *name;
    fmi2ValueReference vr;
    fmuc_m_causality causality; /* FMUC_M_INPUT or FMUC_M_OUTPUT */
    fmuc_m_interval_variability interval_variability;
    unsigned flags; /* FMUC_M_CLOCK_HAS_* */
    double interval, shift; /* seconds (intervalDecimal, shiftDecimal) */
    uint64_t resolution;    /* ticks per second of the Fraction variants (FMUC_M_CLOCK_HAS_FRACTION) */
    unsigned priority;      /* smaller = more urgent (§5.1.1) */
    const char *description;
} fmuc_m_clock;

/** An alias variable: another name for the base variable's value, with the base's
 *  valueReference, type, causality and variability and no storage of its own. Only the FMI 1.0
 *  generator writes aliases (alias="alias" / "negatedAlias", fmi1-rules B-303/B-304); the FMU
 *  serves the base value and the importer negates a negated alias (C-12). */
typedef struct fmuc_m_alias {
    const char *name;
    const char *base;  /* name of a variable of the table */
    int negated;       /* 1: negatedAlias (value = -base; Real and Integer only) */
    const char *description;
} fmuc_m_alias;

/* fmuc_m_desc.caps */
#define FMUC_M_CAP_ME 0x001u                     /* ModelExchange element + ME functions work */
#define FMUC_M_CAP_CS 0x002u                     /* CoSimulation */
#define FMUC_M_CAP_GET_SET_STATE 0x004u          /* canGetAndSetFMUstate */
#define FMUC_M_CAP_SERIALIZE 0x008u              /* canSerializeFMUstate */
#define FMUC_M_CAP_DIR_DERIV 0x010u              /* providesDirectionalDerivative (needs dir_deriv) */
#define FMUC_M_CAP_VAR_STEP 0x020u               /* canHandleVariableCommunicationStepSize */
#define FMUC_M_CAP_COMPLETED_STEP_NOT_NEEDED 0x040u
#define FMUC_M_CAP_ONCE_PER_PROCESS 0x080u       /* canBeInstantiatedOnlyOncePerProcess (XML only) */
/* FMI 3.0 Co-Simulation: hasEventMode, mightReturnEarlyFromDoStep, providesIntermediateUpdate
 * (fmi3_glue.c: Event Mode after a step that reaches the event time announced by the model's
 * event_update, an early return at an announced event inside a step when earlyReturnAllowed, the
 * intermediateUpdate callback at the end of every step); other versions ignore it */
#define FMUC_M_CAP_CS_EVENT_MODE 0x100u
/* FMI 3.0 Scheduled Execution: ScheduledExecution element, fmi3InstantiateScheduledExecution and
 * the SE functions work (fmi3ActivateModelPartition runs the model's activate callback for an
 * input clock of the clock table); mdgen refuses it for FMI 2.0. An SE-only model (neither
 * FMUC_M_CAP_ME nor FMUC_M_CAP_CS) gets no ModelExchange / CoSimulation element. */
#define FMUC_M_CAP_SE 0x200u
/* FMI 3.0 ME and CS: providesEvaluateDiscreteStates; fmi3EvaluateDiscreteStates runs the model's
 * event_update on the previous values and the following fmi3UpdateDiscreteStates hands its outcome
 * out (fmi3_glue.c); other versions ignore it */
#define FMUC_M_CAP_EVAL_DISCRETE 0x400u
/* FMI 3.0 Model Exchange and Co-Simulation (the latter with FMUC_M_CAP_CS_EVENT_MODE): the clock
 * table in Event Mode. The importer activates input clocks with fmi3SetClock (Event Mode only,
 * active only: no clock can be deactivated), which runs the model's activate callback for each
 * (Event Mode evaluates the active partitions); output clocks ticked there (fmuc_m_clock_tick)
 * are reported by fmi3GetClock until fmi3UpdateDiscreteStates, which deactivates every clock
 * of the instant (fmi3-rules F-23); periodic clocks' intervals and shifts are answered by the
 * getters in Initialization Mode (fmi3_glue.c). The importer schedules the ticks: the glue
 * announces no event time for them. The clocks' activity is not part of the FMU state (an
 * instant's activity ends before a state can be got). */
#define FMUC_M_CAP_EM_CLOCKS 0x800u

/* fmuc_m_desc.experiment.flags */
#define FMUC_M_EXP_START 0x1u
#define FMUC_M_EXP_STOP 0x2u
#define FMUC_M_EXP_TOL 0x4u
#define FMUC_M_EXP_STEP 0x8u

/** Opaque instance handle the glue passes to every callback (logger, allocator, time, ...). */
typedef struct fmuc_m_ctx fmuc_m_ctx;

/** Phase of the instance as seen by the model (a coarse view of the FMI state machine). */
typedef enum {
    FMUC_M_PHASE_INSTANTIATED = 0,
    FMUC_M_PHASE_INIT,
    FMUC_M_PHASE_EVENT,      /* ME Event Mode */
    FMUC_M_PHASE_CONTINUOUS, /* ME Continuous-Time Mode */
    FMUC_M_PHASE_STEP,       /* CS stepComplete / stepFailed */
    FMUC_M_PHASE_TERMINATED,
    FMUC_M_PHASE_ERROR,
    FMUC_M_PHASE_CLOCK_ACTIVATION /* SE Clock Activation Mode (after initialization) */
} fmuc_m_phase;

/** The model. All callbacks are optional unless noted; return fmi2OK/Warning/Discard/Error. */
typedef struct fmuc_m_desc {
    const char *model_name;
    const char *model_identifier; /* library name, C identifier */
    const char *version;          /* model version; part of the GUID hash */
    const char *description, *author;
    unsigned caps; /* FMUC_M_CAP_* */
    const fmuc_m_var *vars;
    size_t nvars;
    size_t n_event_indicators;
    /** NULL-terminated; NULL = the standard set (logEvents, logStatusWarning, logStatusDiscard,
     *  logStatusError, logStatusFatal, logAll). Glue messages use logStatus* / logEvents if
     *  declared, else the first category (or NULL when none). */
    const char *const *log_categories;
    struct {
        unsigned flags; /* FMUC_M_EXP_* */
        double start, stop, tolerance, step;
    } experiment;
    size_t data_size; /* bytes of the flat data block */
    /** CS without do_step: the glue integrates the ME equations with fixed-step RK4,
     *  n = max(1, ceil(h/cs_h_max - 1e-9)) substeps of h/n. */
    double cs_h_max;

    /** After the start values of the table were written into data (Instantiate, Reset). */
    fmi2Status (*start)(fmuc_m_ctx *c, void *data);
    /** Release what the model owns (FreeInstance, and Reset before start runs again). */
    void (*release)(fmuc_m_ctx *c, void *data);
    fmi2Status (*enter_init)(fmuc_m_ctx *c, void *data);
    fmi2Status (*exit_init)(fmuc_m_ctx *c, void *data);
    /** Compute every calculated variable (outputs, derivatives, ...) from parameters, inputs,
     *  states and fmuc_m_time(). Called lazily before reads after anything changed. */
    fmi2Status (*calc)(fmuc_m_ctx *c, void *data);
    /** CS step from t to t+h (t = currentCommunicationPoint). NULL: the glue's RK4 (above). */
    fmi2Status (*do_step)(fmuc_m_ctx *c, void *data, double t, double h);
    fmi2Status (*event_indicators)(fmuc_m_ctx *c, void *data, double *z, size_t ni);
    /** ME fmi2NewDiscreteStates; info arrives cleared (all false). */
    fmi2Status (*event_update)(fmuc_m_ctx *c, void *data, fmi2EventInfo *info);
    /** ME fmi2CompletedIntegratorStep; *enter_event arrives false. */
    fmi2Status (*step_completed)(fmuc_m_ctx *c, void *data, fmi2Boolean *enter_event);
    /** dvUnknown = J * dvKnown; VRs already validated as Real. calc has run. */
    fmi2Status (*dir_deriv)(fmuc_m_ctx *c, void *data, const fmi2ValueReference *unknown,
                            size_t n_unknown, const fmi2ValueReference *known, size_t n_known,
                            const double *dv_known, double *dv_unknown);
    /** FMU state of the model (Get/SetFMUstate, serialization). NULL: the data block itself is
     *  copied (right for plain-data models). With hooks, state_size gives the byte count. */
    fmi2Status (*state_size)(fmuc_m_ctx *c, const void *data, size_t *size);
    fmi2Status (*state_save)(fmuc_m_ctx *c, const void *data, void *buf, size_t size);
    fmi2Status (*state_load)(fmuc_m_ctx *c, void *data, const void *buf, size_t size);
    /** Alias variables (FMI 1.0 FMUs only; see fmuc_m_alias). */
    const fmuc_m_alias *aliases;
    size_t naliases;
    /** FMI 3.0 Scheduled Execution (FMUC_M_CAP_SE): the Clock variables. */
    const fmuc_m_clock *clocks;
    size_t nclocks;
    /** SE: run the model partition of input clock `clock` (its vr) at `time`
     *  (fmi3ActivateModelPartition in Clock Activation Mode; fmuc_m_time gives the same time).
     *  Partitions may preempt each other: update data shared between partitions between
     *  fmuc_m_preemption_lock and fmuc_m_preemption_unlock. Discard counts as Error (F-27). */
    fmi2Status (*activate)(fmuc_m_ctx *c, void *data, fmi2ValueReference clock, double time);
} fmuc_m_desc;

/** The one model linked into an FMU (defined by model.c). */
extern const fmuc_m_desc fmuc_model;

/* --- services of the glue for models ------------------------------------------------------- */
/** Log through the host logger (category: a declared one or NULL = the glue's choice). */
void fmuc_m_log(fmuc_m_ctx *c, fmi2Status status, const char *category, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/** Host allocateMemory (zeroed) / freeMemory. */
void *fmuc_m_alloc(fmuc_m_ctx *c, size_t n, size_t size);
void fmuc_m_free(fmuc_m_ctx *c, void *p);
/** Decoded local path of the resources directory (no trailing '/'), or NULL. */
const char *fmuc_m_resource_dir(const fmuc_m_ctx *c);
/** out = <resource dir>/<rel>; returns 0, or -1 (no resource location / too long). */
int fmuc_m_resource_path(const fmuc_m_ctx *c, const char *rel, char *out, size_t size);
double fmuc_m_time(const fmuc_m_ctx *c);
/** The relative tolerance of fmi2SetupExperiment; *defined (may be NULL) = toleranceDefined. */
double fmuc_m_tolerance(const fmuc_m_ctx *c, int *defined);
fmuc_m_phase fmuc_m_get_phase(const fmuc_m_ctx *c);
fmi2Type fmuc_m_interface(const fmuc_m_ctx *c);
const char *fmuc_m_instance_name(const fmuc_m_ctx *c);
/* Scheduled Execution services (FMI 3.0 SE instances; fmi2Error with a logged message when the
 * instance is not SE or the clock does not fit). An SE instance reports fmuc_m_interface =
 * fmi2CoSimulation (fmi2Type has no SE); fmuc_m_get_phase gives FMUC_M_PHASE_CLOCK_ACTIVATION. */
/** Output clock output_clock_vr ticks: the next fmi3GetClock reports it active once; the glue
 *  calls the importer's clockUpdate. */
fmi2Status fmuc_m_clock_tick(fmuc_m_ctx *c, fmi2ValueReference output_clock_vr);
/** Countdown input clock countdown_clock_vr shall tick interval (>= 0) seconds after the current
 *  activation time: reported as fmi3IntervalChanged by the next fmi3GetIntervalDecimal (then
 *  fmi3IntervalUnchanged until the clock is activated); the glue calls clockUpdate. A changing
 *  clock's partition gives its next interval the same way (reported Changed once, then
 *  Unchanged; without a call the interval stays the last one). */
fmi2Status fmuc_m_countdown_set(fmuc_m_ctx *c, fmi2ValueReference countdown_clock_vr,
                                double interval);
/** The importer's lockPreemption / unlockPreemption (no effect when it gave NULL, and for ME and
 *  CS instances): around updates of data shared between partitions (§5.2.1, D-09); keep the
 *  locked section short, and never call fmuc_m_clock_tick / fmuc_m_countdown_set inside it. */
void fmuc_m_preemption_lock(fmuc_m_ctx *c);
void fmuc_m_preemption_unlock(fmuc_m_ctx *c);
/** Index of the clock with value reference vr in d's clock table, or -1. */
long fmuc_m_find_clock_vr(const fmuc_m_desc *d, fmi2ValueReference vr);
/** seconds as a counter of 1/k->resolution s (FMUC_M_CLOCK_HAS_FRACTION): the intervalCounter /
 *  shiftCounter mdgen writes and the Fraction getters answer. */
uint64_t fmuc_m_clock_counter(const fmuc_m_clock *k, double seconds);
/** Index of the clock named name in d's clock table, or -1. */
long fmuc_m_find_clock(const fmuc_m_desc *d, const char *name);

/* --- table helpers (also used by mdgen) ---------------------------------------------------- */
/** Effective initial (resolving FMUC_M_INITIAL_DEFAULT; FMUC_M_INITIAL_NONE for input and
 *  independent). */
fmuc_m_initial fmuc_m_effective_initial(const fmuc_m_var *v);
/** The GUID "{xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}" derived from the descriptor content. */
void fmuc_m_guid(const fmuc_m_desc *d, char out[39]);
/** The same with another salt (the FMI 1.0 glue and generator use FMUC_M_GUID_SALT_FMI1, so a
 *  1.0 FMU never shares the GUID of the 2.0 FMU of the same table). */
#define FMUC_M_GUID_SALT_FMI1 "fmucheck-model-fmi1-v1"
void fmuc_m_guid_salted(const fmuc_m_desc *d, const char *salt, char out[39]);
/** Index of the variable named name, or -1. */
long fmuc_m_find(const fmuc_m_desc *d, const char *name);
/** Variable i is a continuous state (another variable's derivative_of names it). */
int fmuc_m_is_state(const fmuc_m_desc *d, size_t i);
/** Variable i is an InitialUnknown (FMI 2.0 §2.2.8, FMI 3.0 §2.4.8): an output or state or state
 *  derivative with initial approx/calculated, or a calculated parameter. */
int fmuc_m_is_initial_unknown(const fmuc_m_desc *d, size_t i);
/** Variable i may be a known in a dependency list: an input or the independent variable, and
 *  init = 0 (Outputs, Derivatives) a state, init = 1 (InitialUnknowns) an initial="exact"
 *  variable. */
int fmuc_m_is_known(const fmuc_m_desc *d, size_t i, int init);

#ifdef __cplusplus
}
#endif
#endif /* FMUC_MODEL_H */
