/* The version-neutral instance API (worker side): one FMU instance of FMI 1.0, 2.0 or 3.0 behind
 * one set of calls, so that a dynamic check is written once for every version. Each operation
 * goes through the instance's table of operations (fmuc_inst_ops, harness/src/inst_internal.h),
 * one table per FMI version; only that table's file calls the version's functions, through the
 * traced wrappers of the worker (the trace text of every call is the version's own: "fmi2DoStep(
 * t=0, h=0.1, noSet=0)"). FMI 2.0 (harness/src/inst_fmi2.c), FMI 1.0 (inst_fmi1.c: the
 * <modelIdentifier>_fmiXxx functions, traced unprefixed) and FMI 3.0 Model Exchange,
 * Co-Simulation and Scheduled Execution (harness/src/inst_fmi3.c, SE: end of this file) are
 * implemented. FMI 3.0 Co-Simulation instances are created with eventModeUsed = earlyReturnAllowed = false and no intermediate update callback, unless made by
 * fmuc_inst_instantiate_cs3 (end of this file).
 *
 * Typical use inside a worker function (fmuc_worker.h):
 *
 *   fmuc_inst *in = fmuc_inst_instantiate(ctx, FMUC_IFACE_CS, NULL, "probe");
 *   if (!in) return 1;                                  // load error or instantiate returned NULL
 *   fmuc_inst_experiment e = {.start = 0.0, .stop_defined = 1, .stop = 1.0};
 *   fmuc_status st = fmuc_inst_setup_experiment(in, &e);
 *   if (fmuc_status_ok(st)) st = fmuc_inst_enter_initialization_mode(in);
 *   ...
 *   st = fmuc_inst_do_step(in, 0.0, 0.1, 0, NULL);
 *   fmuc_inst_terminate(in);
 *   fmuc_inst_free(in);                                 // also frees the handle
 *
 * Mapping of the life cycle per version (what each call does):
 *   setup_experiment          2.0 fmi2SetupExperiment; 3.0 and 1.0: no call, the values are kept
 *                             for the call that takes them (fmi3EnterInitializationMode,
 *                             fmiInitialize / fmiInitializeSlave)
 *   enter_initialization_mode 2.0 fmi2EnterInitializationMode; 3.0 fmi3EnterInitializationMode
 *                             (tolerance, start, stop); 1.0 ME fmiSetTime(start), CS no call
 *   exit_initialization_mode  2.0 fmi2ExitInitializationMode; 3.0 fmi3ExitInitializationMode;
 *                             1.0 fmiInitialize (ME) / fmiInitializeSlave (CS)
 *   update_discrete_states    2.0 fmi2NewDiscreteStates; 3.0 fmi3UpdateDiscreteStates;
 *                             1.0 fmiEventUpdate (the first one after fmiInitialize hands out
 *                             fmiInitialize's eventInfo when it had converged, no call)
 *   enter_event_mode, enter_continuous_time_mode: 1.0 no call (no such modes), OK
 *   do_step                   1.0 fmiDoStep(t, h, newStep=true)
 * A function the version does not have (fmi2CancelStep in 3.0, get_fmu_state in 1.0) returns
 * FMUC_STATUS_NOT_PROVIDED without a trace entry; a function the version has but the library does
 * not export returns FMUC_STATUS_NOT_PROVIDED with a "not provided" trace entry (as the wrappers
 * always did).
 *
 * Output arrays (values of get, derivatives, states, indicators, nominals, serialized bytes) are
 * always handed over with their length: the FMU gets a copy with guard space behind it, checked
 * after the call, and the arrays it may only read (vr, values to set, x, seeds, serialized bytes)
 * as copies compared after the call (inst.c, issue 18). What it wrote past the end or changed is
 * recorded in the worker and reaches the parent as fmuc_worker_outcome.buffer_violations (check
 * api-buffer-bounds); the caller's own arrays are never written past nor changed. The
 * temporaries a version table hands to the FMU instead (FMI 2.0 enumerations through an
 * fmi2Integer array, FMI 1.0 Booleans through a char array, FMI 3.0 Boolean/Clock values through
 * a bool array, the single value of a status query of fmuc_inst_cs_status and
 * fmuc_inst_cs_integer_status) are guarded the same way (fmuc_inst__gout of inst_internal.h).
 */
#ifndef FMUC_INST_H
#define FMUC_INST_H

#include <stddef.h>
#include <stdint.h>

#include "fmuc/fmuc_worker.h"

/** The interface of an instance. */
typedef enum {
    FMUC_IFACE_ME = 0, /* Model Exchange */
    FMUC_IFACE_CS = 1, /* Co-Simulation */
    FMUC_IFACE_SE = 2  /* Scheduled Execution (FMI 3.0 only) */
} fmuc_iface;
/* The values are the worker's library slots and index per-interface tables (0, 1, 2). */
_Static_assert(FMUC_IFACE_ME == 0 && FMUC_IFACE_CS == 1 && FMUC_IFACE_SE == 2,
               "fmuc_iface values are slot numbers");

/** Status of a call, version-neutral. The values are those of fmi2Status (and of fmiStatus of
 *  FMI 1.0; fmi3Status has OK..Fatal with the same values): a status the FMU returns is kept as
 *  it is, including values outside the enumeration (an "invalid(42)" status stays 42). */
typedef enum {
    FMUC_STATUS_OK = 0,
    FMUC_STATUS_WARNING = 1,
    FMUC_STATUS_DISCARD = 2,
    FMUC_STATUS_ERROR = 3,
    FMUC_STATUS_FATAL = 4,
    FMUC_STATUS_PENDING = 5,      /* FMI 1.0 and 2.0 (asynchronous doStep) */
    FMUC_STATUS_NOT_PROVIDED = 99 /* the library or the version lacks the function: never an FMU
                                     status (equal to FMUC_FMI_NOT_PROVIDED) */
} fmuc_status;

/** OK or Warning. */
static inline int fmuc_status_ok(int st)
{
    return st == FMUC_STATUS_OK || st == FMUC_STATUS_WARNING;
}

/** "fmi2OK", "fmi3Discard", "fmiError" (version 1, 2, 3); "not provided"; "invalid(42)" in buf
 *  for anything else. */
const char *fmuc_status_name(int version, int status, char *buf, size_t bufsize);

/** Base types of values. Mapping note: the version-neutral model (fmuc_md.h, issue 17 item 2)
 *  adds the same list of base types; when it lands, this enum becomes an alias of it (same
 *  members in the same order). Element types of the value arrays:
 *    FLOAT32 float, FLOAT64 double, INTn intN_t, UINTn uintN_t, BOOLEAN int (0/1, whatever the
 *    version's own type), STRING const char *, BINARY const uint8_t * (with sizes),
 *    CLOCK int, ENUMERATION int64_t (FMI 3.0's; FMI 1.0/2.0 enumerations are Integer calls).
 *  FMI 2.0 knows FLOAT64 (Real), INT32 (Integer), BOOLEAN, STRING and ENUMERATION; other types
 *  return FMUC_STATUS_NOT_PROVIDED there. */
typedef enum {
    FMUC_INST_FLOAT32 = 0,
    FMUC_INST_FLOAT64,
    FMUC_INST_INT8,
    FMUC_INST_UINT8,
    FMUC_INST_INT16,
    FMUC_INST_UINT16,
    FMUC_INST_INT32,
    FMUC_INST_UINT32,
    FMUC_INST_INT64,
    FMUC_INST_UINT64,
    FMUC_INST_BOOLEAN,
    FMUC_INST_STRING,
    FMUC_INST_BINARY,
    FMUC_INST_CLOCK,
    FMUC_INST_ENUMERATION,
    FMUC_INST_NBASE
} fmuc_inst_base;

/** A value reference (fmi2ValueReference, fmi3ValueReference, fmiValueReference). */
typedef uint32_t fmuc_vr;

/** One instance (opaque). Lives in the worker; freed by fmuc_inst_free / fmuc_inst_abandon. */
typedef struct fmuc_inst fmuc_inst;

/* ---------------------------------------------------------------------------------------------
 * Library and instantiation
 * ------------------------------------------------------------------------------------------- */

/** Load the library of iface (fmuc_worker_load; traced as dlopen). 0, or -1 with the reason in
 *  fmuc_worker_load_error(ctx). Loading again is free. */
int fmuc_inst_load(fmuc_worker_ctx *ctx, fmuc_iface iface);
/** The FMI version of the FMU being worked on (1, 2 or 3: fmuc_fmu_fmi_version). */
int fmuc_inst_version(const fmuc_worker_ctx *ctx);
/** 1 if the loaded library of iface exports the function of the version named name
 *  ("fmi2DoStep"); 0 otherwise (also when not loaded). */
int fmuc_inst_lib_has(fmuc_worker_ctx *ctx, fmuc_iface iface, const char *name);
/** The library's version string (fmi2GetVersion, fmi3GetVersion, fmiGetVersion), traced; NULL
 *  when the function is missing or returned NULL. */
const char *fmuc_inst_lib_version(fmuc_worker_ctx *ctx, fmuc_iface iface);
/** The types-platform string (fmi2GetTypesPlatform, fmiGetTypesPlatform; NULL in 3.0). */
const char *fmuc_inst_lib_types_platform(fmuc_worker_ctx *ctx, fmuc_iface iface);
/** The functions of the version (common and this interface's) that the loaded library does not
 *  export: their count, and the names in *names (valid while the library is loaded). */
size_t fmuc_inst_lib_missing(fmuc_worker_ctx *ctx, fmuc_iface iface, const char *const **names);
/** The version's free function called with a NULL instance (robustness probe; no-op when the
 *  library lacks it). */
void fmuc_inst_lib_free_null(fmuc_worker_ctx *ctx, fmuc_iface iface);

/** Arguments of an instantiation. fmuc_inst_args_init gives the harness's usual ones. */
typedef struct fmuc_inst_args {
    const char *name;          /* instance name; NULL passes NULL (after args_init: "fmucheck") */
    const char *token;         /* GUID (1.0/2.0) or instantiationToken (3.0); NULL: the model
                                  description's */
    int token_null;            /* pass NULL as the token (robustness probes) */
    int visible;               /* 0 */
    int logging_on;            /* 1 */
    int no_memory_callbacks;   /* allocateMemory = freeMemory = NULL (2.0; 1.0 the same for
                                  its callbacks; 3.0 has none: ignored) */
    int no_callbacks;          /* a NULL callback structure (2.0 probes; ignored elsewhere) */
    int as_iface;              /* -1 (args_init): the interface of the library; else instantiate
                                  this fmuc_iface from the library loaded for the other one (the
                                  probe of an undeclared interface type) */
    /* FMI 3.0 Co-Simulation only (0 after args_init; ignored elsewhere): the arguments
     * eventModeUsed and earlyReturnAllowed of fmi3InstantiateCoSimulation, and whether the
     * harness's intermediateUpdate callback is passed (it logs every call, see
     * fmuc_inst_intermediate_log; it never requests an early return) */
    int cs_event_mode_used;
    int cs_early_return_allowed;
    int cs_intermediate_update;
    /* requiredIntermediateVariables (NULL/0: none) and what the callback reads and writes in
     * Intermediate Update Mode (NULL: nothing); see fmuc_inst_cs3_options */
    const fmuc_vr *cs_required;
    size_t cs_n_required;
    const struct fmuc_inst_iu_access *cs_access;
    /* FMI 3.0 only (0 after args_init; ignored elsewhere): pass NULL as logMessage, as
     * resourcePath (api-null-arguments: both are NULLs the text defines, §2.3.1) */
    int log_message_null;
    int resource_path_null;
} fmuc_inst_args;
void fmuc_inst_args_init(fmuc_inst_args *a);

/** Load (when not yet loaded) and instantiate with the harness callbacks, the resource location
 *  of the FMU, visible=false, loggingOn=true. token NULL: the model description's GUID/token.
 *  NULL when the library does not load (fmuc_worker_load_error) or the FMU returned NULL. */
fmuc_inst *fmuc_inst_instantiate(fmuc_worker_ctx *ctx, fmuc_iface iface, const char *token,
                                 const char *name);
fmuc_inst *fmuc_inst_instantiate_ex(fmuc_worker_ctx *ctx, fmuc_iface iface,
                                    const fmuc_inst_args *args);
/** The version's free call (fmi2FreeInstance), then the handle is released. NULL: no-op. */
void fmuc_inst_free(fmuc_inst *in);
/** Release the handle WITHOUT calling the FMU (after Fatal nothing may be called, §2.1.3). */
void fmuc_inst_abandon(fmuc_inst *in);

fmuc_iface fmuc_inst_iface(const fmuc_inst *in);
int fmuc_inst_fmi_version(const fmuc_inst *in);
fmuc_worker_ctx *fmuc_inst_ctx(const fmuc_inst *in);
/** communicationStepSize of the last fmuc_inst_do_step call on this instance (0: none yet). */
double fmuc_inst_last_step_size(const fmuc_inst *in);

/* ---------------------------------------------------------------------------------------------
 * Life cycle
 * ------------------------------------------------------------------------------------------- */

typedef struct fmuc_inst_experiment {
    int tolerance_defined;
    double tolerance;
    double start;
    int stop_defined;
    double stop;
} fmuc_inst_experiment;
/** The experiment fmuc_inst_setup_experiment was given (zeros before it). */
const fmuc_inst_experiment *fmuc_inst_experiment_set(const fmuc_inst *in);

fmuc_status fmuc_inst_set_debug_logging(fmuc_inst *in, int logging_on, size_t ncat,
                                        const char *const cats[]);
fmuc_status fmuc_inst_setup_experiment(fmuc_inst *in, const fmuc_inst_experiment *e);
fmuc_status fmuc_inst_enter_initialization_mode(fmuc_inst *in);
fmuc_status fmuc_inst_exit_initialization_mode(fmuc_inst *in);
fmuc_status fmuc_inst_terminate(fmuc_inst *in);
fmuc_status fmuc_inst_reset(fmuc_inst *in);

/* ---------------------------------------------------------------------------------------------
 * Values
 * ------------------------------------------------------------------------------------------- */

/** Get nvr variables of one base type into values (nvalues elements of the base type's element
 *  type; nvalues == nvr for scalars, larger for FMI 3.0 arrays). vr or values may be NULL (the
 *  FMU gets NULL: robustness probes). */
fmuc_status fmuc_inst_get(fmuc_inst *in, fmuc_inst_base type, const fmuc_vr *vr, size_t nvr,
                          void *values, size_t nvalues);
fmuc_status fmuc_inst_set(fmuc_inst *in, fmuc_inst_base type, const fmuc_vr *vr, size_t nvr,
                          const void *values, size_t nvalues);

static inline fmuc_status fmuc_inst_get_float64(fmuc_inst *in, const fmuc_vr *vr, size_t n,
                                                double *v)
{
    return fmuc_inst_get(in, FMUC_INST_FLOAT64, vr, n, v, n);
}
static inline fmuc_status fmuc_inst_set_float64(fmuc_inst *in, const fmuc_vr *vr, size_t n,
                                                const double *v)
{
    return fmuc_inst_set(in, FMUC_INST_FLOAT64, vr, n, v, n);
}
static inline fmuc_status fmuc_inst_get_int32(fmuc_inst *in, const fmuc_vr *vr, size_t n,
                                              int32_t *v)
{
    return fmuc_inst_get(in, FMUC_INST_INT32, vr, n, v, n);
}
static inline fmuc_status fmuc_inst_set_int32(fmuc_inst *in, const fmuc_vr *vr, size_t n,
                                              const int32_t *v)
{
    return fmuc_inst_set(in, FMUC_INST_INT32, vr, n, v, n);
}
static inline fmuc_status fmuc_inst_get_boolean(fmuc_inst *in, const fmuc_vr *vr, size_t n, int *v)
{
    return fmuc_inst_get(in, FMUC_INST_BOOLEAN, vr, n, v, n);
}
static inline fmuc_status fmuc_inst_set_boolean(fmuc_inst *in, const fmuc_vr *vr, size_t n,
                                                const int *v)
{
    return fmuc_inst_set(in, FMUC_INST_BOOLEAN, vr, n, v, n);
}
static inline fmuc_status fmuc_inst_get_string(fmuc_inst *in, const fmuc_vr *vr, size_t n,
                                               const char **v)
{
    return fmuc_inst_get(in, FMUC_INST_STRING, vr, n, (void *)v, n);
}
static inline fmuc_status fmuc_inst_set_string(fmuc_inst *in, const fmuc_vr *vr, size_t n,
                                               const char *const *v)
{
    return fmuc_inst_set(in, FMUC_INST_STRING, vr, n, (const void *)v, n);
}

/** FMI 3.0 Binary values (fmi3GetBinary / fmi3SetBinary): nvalues pointers and their sizes. The
 *  bytes a get returns belong to the FMU (valid until its next call). Other versions:
 *  FMUC_STATUS_NOT_PROVIDED. */
fmuc_status fmuc_inst_get_binary(fmuc_inst *in, const fmuc_vr *vr, size_t nvr, size_t *sizes,
                                 const uint8_t **values, size_t nvalues);
fmuc_status fmuc_inst_set_binary(fmuc_inst *in, const fmuc_vr *vr, size_t nvr,
                                 const size_t *sizes, const uint8_t *const *values,
                                 size_t nvalues);

/* ---------------------------------------------------------------------------------------------
 * Co-Simulation
 * ------------------------------------------------------------------------------------------- */

/** What a step reported besides its status (FMI 3.0 returns these from fmi3DoStep; 2.0 and 1.0
 *  leave them 0 / NaN: ask fmuc_inst_cs_status). */
typedef struct fmuc_inst_step_info {
    int event_handling_needed, terminate_simulation, early_return;
    double last_successful_time;
} fmuc_inst_step_info;

fmuc_status fmuc_inst_do_step(fmuc_inst *in, double t, double h, int no_set_prior,
                              fmuc_inst_step_info *info);
fmuc_status fmuc_inst_cancel_step(fmuc_inst *in);

/** CS status queries (2.0 fmi2Get*Status, 1.0 fmiGet*Status; 3.0 answers from the last step). */
typedef enum {
    FMUC_INST_Q_DO_STEP_STATUS = 0, /* value: int status */
    FMUC_INST_Q_PENDING_STATUS,     /* value: const char * */
    FMUC_INST_Q_LAST_SUCCESSFUL_TIME, /* value: double */
    FMUC_INST_Q_TERMINATED          /* value: int */
} fmuc_inst_query;
fmuc_status fmuc_inst_cs_status(fmuc_inst *in, fmuc_inst_query q, void *value);
/** The Integer status function (2.0 fmi2GetIntegerStatus, 1.0 fmiGetIntegerStatus) asked for the
 *  kind of q: no kind of either version is an Integer, so the FMU answers that it cannot
 *  deliver it (fmi2Discard, §4.2.3). NOT_PROVIDED in 3.0. */
fmuc_status fmuc_inst_cs_integer_status(fmuc_inst *in, fmuc_inst_query q, int *value);

/** Input derivatives (2.0 fmi2SetRealInputDerivatives; 3.0 fmi3SetInputDerivatives) and output
 *  derivatives (fmi2GetRealOutputDerivatives / fmi3GetOutputDerivatives), order per entry. */
fmuc_status fmuc_inst_set_input_derivatives(fmuc_inst *in, const fmuc_vr *vr, size_t nvr,
                                            const int32_t *order, const double *values,
                                            size_t nvalues);
fmuc_status fmuc_inst_get_output_derivatives(fmuc_inst *in, const fmuc_vr *vr, size_t nvr,
                                             const int32_t *order, double *values,
                                             size_t nvalues);

/* ---------------------------------------------------------------------------------------------
 * Model Exchange
 * ------------------------------------------------------------------------------------------- */

typedef struct fmuc_inst_event_info {
    int new_discrete_states_needed;
    int terminate_simulation;
    int nominals_changed;
    int values_changed;
    int next_event_time_defined;
    double next_event_time;
    int from_initialize; /* FMI 1.0: this answer is fmiInitialize's eventInfo (it converged),
                          * handed out as the first of the iteration without an fmiEventUpdate */
} fmuc_inst_event_info;

fmuc_status fmuc_inst_enter_event_mode(fmuc_inst *in);
/** One step of the event iteration (*info zeroed first). */
fmuc_status fmuc_inst_update_discrete_states(fmuc_inst *in, fmuc_inst_event_info *info);
fmuc_status fmuc_inst_enter_continuous_time_mode(fmuc_inst *in);
/** The integrator step is complete (fmi2/fmi3CompletedIntegratorStep, fmiCompletedIntegratorStep).
 *  *enter_event_mode gets enterEventMode (FMI 1.0: callEventUpdate), *terminate
 *  terminateSimulation (FMI 1.0 has none: set to 0). In every version an output the FMU does not
 *  write keeps the caller's value (2.0 hands the FMU the caller's int; 1.0 and 3.0 a Boolean of
 *  their own pre-set to a fill byte, copied back only when the FMU changed it), so a caller that
 *  pre-sets a value other than 0 and 1 sees whether the FMU wrote the output. */
fmuc_status fmuc_inst_completed_integrator_step(fmuc_inst *in, int no_set_prior,
                                                int *enter_event_mode, int *terminate);
fmuc_status fmuc_inst_set_time(fmuc_inst *in, double t);
fmuc_status fmuc_inst_set_continuous_states(fmuc_inst *in, const double *x, size_t nx);
fmuc_status fmuc_inst_get_continuous_states(fmuc_inst *in, double *x, size_t nx);
fmuc_status fmuc_inst_get_derivatives(fmuc_inst *in, double *dx, size_t nx);
fmuc_status fmuc_inst_get_event_indicators(fmuc_inst *in, double *z, size_t nz);
fmuc_status fmuc_inst_get_nominals(fmuc_inst *in, double *nominal, size_t nx);
/** FMI 1.0 ME fmiGetStateValueReferences: the valueReference of each continuous state, or
 *  fmiUndefinedValueReference (FMUC_VR_UNDEFINED_FMI1); not provided in FMI 2.0 and 3.0, which
 *  declare the states in the model description. */
fmuc_status fmuc_inst_get_state_value_references(fmuc_inst *in, fmuc_vr *vr, size_t nx);
#define FMUC_VR_UNDEFINED_FMI1 ((fmuc_vr)0xFFFFFFFFu)

/* ---------------------------------------------------------------------------------------------
 * FMU state and directional derivatives
 * ------------------------------------------------------------------------------------------- */

/** An FMU state handle (fmi2FMUstate, fmi3FMUState). */
typedef void *fmuc_fmu_state;

fmuc_status fmuc_inst_get_state(fmuc_inst *in, fmuc_fmu_state *state);
fmuc_status fmuc_inst_set_state(fmuc_inst *in, fmuc_fmu_state state);
fmuc_status fmuc_inst_free_state(fmuc_inst *in, fmuc_fmu_state *state);
fmuc_status fmuc_inst_serialized_state_size(fmuc_inst *in, fmuc_fmu_state state, size_t *size);
fmuc_status fmuc_inst_serialize_state(fmuc_inst *in, fmuc_fmu_state state, uint8_t *buf,
                                      size_t size);
fmuc_status fmuc_inst_deserialize_state(fmuc_inst *in, const uint8_t *buf, size_t size,
                                        fmuc_fmu_state *state);

/** d(unknown)/d(known) * dv_known (2.0 fmi2GetDirectionalDerivative, 3.0
 *  fmi3GetDirectionalDerivative with nSeed = nknown_values, nSensitivity = nunknown_values). */
fmuc_status fmuc_inst_get_directional_derivative(fmuc_inst *in, const fmuc_vr *unknown,
                                                 size_t nunknown, const fmuc_vr *known,
                                                 size_t nknown, const double *dv_known,
                                                 size_t nknown_values, double *dv_unknown,
                                                 size_t nunknown_values);

/** seedᵀ·d(unknown)/d(known), the adjoint (vector-Jacobian) product (3.0
 *  fmi3GetAdjointDerivative: seed has one value per element of the unknowns, nseed of them,
 *  sensitivity one per element of the knowns, nsensitivity of them). FMUC_STATUS_NOT_PROVIDED
 *  in FMI 1.0 and 2.0 (no adjoint derivatives there) and when the library lacks the function. */
fmuc_status fmuc_inst_get_adjoint_derivative(fmuc_inst *in, const fmuc_vr *unknown, size_t nunknown,
                                             const fmuc_vr *known, size_t nknown,
                                             const double *seed, size_t nseed,
                                             double *sensitivity, size_t nsensitivity);

/** The number of per-element dependencies of variable vr (3.0
 *  fmi3GetNumberOfVariableDependencies, with providesPerElementDependencies="true"): before
 *  fmi3ExitInitializationMode the initial dependencies, afterwards the run-time ones.
 *  FMUC_STATUS_NOT_PROVIDED in FMI 1.0 and 2.0 (no such function there) and when the library
 *  lacks the function. *n is the FMU's answer, unchecked. */
fmuc_status fmuc_inst_get_number_of_variable_dependencies(fmuc_inst *in, fmuc_vr vr, size_t *n);

/** Kinds of a per-element dependency as fmi3DependencyKind numbers them (fmi3FunctionTypes.h);
 *  the XML's dependenciesKind has no "independent" and another order (fmuc_dep_kind). */
typedef enum {
    FMUC_INST_DEP_INDEPENDENT = 0,
    FMUC_INST_DEP_CONSTANT,
    FMUC_INST_DEP_FIXED,
    FMUC_INST_DEP_TUNABLE,
    FMUC_INST_DEP_DISCRETE,
    FMUC_INST_DEP_DEPENDENT,
    FMUC_INST_NDEP
} fmuc_inst_dep_kind;

/** The per-element dependencies of variable dependent (3.0 fmi3GetVariableDependencies): the
 *  caller allocates n entries in each array (n from
 *  fmuc_inst_get_number_of_variable_dependencies); entry k says element element_dep[k] of
 *  dependent (1-based, 0 = all elements) depends on element element_indep[k] of the variable
 *  independent[k] by kind[k] (fmi3DependencyKind numbers, fmuc_inst_dep_kind). What the FMU
 *  writes is unchecked. FMUC_STATUS_NOT_PROVIDED as above. */
fmuc_status fmuc_inst_get_variable_dependencies(fmuc_inst *in, fmuc_vr dependent,
                                                size_t *element_dep, fmuc_vr *independent,
                                                size_t *element_indep, int *kind, size_t n);

/** Configuration Mode (3.0 fmi3EnterConfigurationMode / fmi3ExitConfigurationMode, §3.2 / §4.2
 *  state machines): from Instantiated the Configuration Mode, from Event Mode (ME) or Step Mode
 *  (CS) the Reconfiguration Mode, where structural parameters (tunable ones only in
 *  Reconfiguration Mode) may be set; exiting applies them (array sizes may change).
 *  FMUC_STATUS_NOT_PROVIDED in FMI 1.0 and 2.0 (no such functions there) and when the library
 *  lacks the function. */
fmuc_status fmuc_inst_enter_configuration_mode(fmuc_inst *in);
fmuc_status fmuc_inst_exit_configuration_mode(fmuc_inst *in);

/** The FMU's current number of continuous states / event indicators (3.0 Model Exchange
 *  fmi3GetNumberOfContinuousStates / fmi3GetNumberOfEventIndicators, §2.3.2, §3.2.1: they follow
 *  the structural parameters, C-28). FMUC_STATUS_NOT_PROVIDED in FMI 1.0 and 2.0 (no such
 *  functions there) and when the library lacks the function. *n is the FMU's answer, unchecked. */
fmuc_status fmuc_inst_get_number_of_continuous_states(fmuc_inst *in, size_t *n);
fmuc_status fmuc_inst_get_number_of_event_indicators(fmuc_inst *in, size_t *n);

/* ---------------------------------------------------------------------------------------------
 * Operations by name: the illegal-call probes and the state tables speak of operations
 * ------------------------------------------------------------------------------------------- */

#define FMUC_INST_OPS(X)                                                                        \
    X(INSTANTIATE) X(FREE) X(SETUP_EXPERIMENT) X(ENTER_INIT) X(EXIT_INIT) X(TERMINATE) X(RESET)  \
    X(GET_FLOAT64) X(SET_FLOAT64) X(DO_STEP) X(CANCEL_STEP) X(GET_STATUS) X(ENTER_EVENT_MODE)    \
    X(UPDATE_DISCRETE_STATES) X(ENTER_CT_MODE) X(COMPLETED_INTEGRATOR_STEP) X(SET_TIME)          \
    X(SET_STATES) X(GET_STATES) X(GET_DERIVATIVES) X(GET_EVENT_INDICATORS) X(GET_NOMINALS)

#define FMUC_INST_OP_ENUM_(n) FMUC_INST_OP_##n,
typedef enum { FMUC_INST_OPS(FMUC_INST_OP_ENUM_) FMUC_INST_NOPS } fmuc_inst_op;
#undef FMUC_INST_OP_ENUM_

/** The version's function for an operation ("fmi2NewDiscreteStates" for
 *  FMUC_INST_OP_UPDATE_DISCRETE_STATES in version 2), NULL when the version has none. */
const char *fmuc_inst_op_name(int version, fmuc_inst_op op);

/* ---------------------------------------------------------------------------------------------
 * FMI 3.0 Co-Simulation: Event Mode, early return, intermediate update (cs-event-mode)
 * ------------------------------------------------------------------------------------------- */

/** What the harness's intermediateUpdate does in Intermediate Update Mode (FMI 3.0.2 §4.2.2):
 *  with intermediateVariableGetAllowed it reads the n_get scalar outputs (fmi3GetFloat64, or
 *  fmi3GetFloat32 where single[i] is set), all in one call per type; with
 *  intermediateVariableSetRequested it sets the n_set scalar inputs to value[] (gets before sets,
 *  condition 19 of the CS table). At most FMUC_INST_IU_WATCH of each are kept. After a get or
 *  set that returned Error or Fatal the instance accesses nothing more (the FMU has left the
 *  state that allows it). */
#define FMUC_INST_IU_WATCH 32
typedef struct fmuc_inst_iu_access {
    const fmuc_vr *get_vr;
    const unsigned char *get_single;
    size_t n_get;
    const fmuc_vr *set_vr;
    const unsigned char *set_single;
    const double *set_value;
    size_t n_set;
} fmuc_inst_iu_access;

/** How an FMI 3.0 Co-Simulation instance is made (FMI 3.0.2 §2.3.1, §4.2): eventModeUsed,
 *  earlyReturnAllowed, the harness's intermediateUpdate callback, requiredIntermediateVariables
 *  (n_required value references, NULL/0: none) and what the callback accesses (access NULL:
 *  nothing; only with intermediate_update). name NULL: "fmucheck". */
typedef struct fmuc_inst_cs3_options {
    const char *name;
    int event_mode_used;
    int early_return_allowed;
    int intermediate_update;
    const fmuc_vr *required;
    size_t n_required;
    const fmuc_inst_iu_access *access;
} fmuc_inst_cs3_options;
/** Load (when not yet loaded) and instantiate FMI 3.0 Co-Simulation with the options; NULL when
 *  the library does not load, the FMU is not FMI 3.0 or fmi3InstantiateCoSimulation returned
 *  NULL. */
fmuc_inst *fmuc_inst_instantiate_cs3(fmuc_worker_ctx *ctx, const fmuc_inst_cs3_options *o);

/** FMI 3.0 Model Exchange and Co-Simulation, in Event Mode: fmi3EvaluateDiscreteStates (§2.3.5,
 *  with providesEvaluateDiscreteStates: the discrete states computed from their previous values);
 *  NOT_PROVIDED in FMI 1.0 and 2.0 and when the library lacks the function. */
fmuc_status fmuc_inst_evaluate_discrete_states(fmuc_inst *in);

/** FMI 3.0 Co-Simulation Event Mode -> Step Mode (fmi3EnterStepMode); NOT_PROVIDED elsewhere.
 *  (Step Mode -> Event Mode is fmuc_inst_enter_event_mode.) */
fmuc_status fmuc_inst_enter_step_mode(fmuc_inst *in);

/** One call of the intermediateUpdate callback, as the harness logged it: the arguments, the
 *  communication step in progress (tc, h of the fmi3DoStep the call came from; NaN outside a
 *  step) and the flags below. */
#define FMUC_INST_IU_VALUES 4 /* values of the first watched outputs kept per call */
typedef struct fmuc_inst_iu_call {
    double time;   /* intermediateUpdateTime */
    double tc, h;  /* the fmi3DoStep in progress */
    unsigned flags;
    /* with fmuc_inst_iu_access: the worst status of the harness's gets and of its sets in this
     * call (-1: none made), and the values got for the first FMUC_INST_IU_VALUES outputs */
    int get_status, set_status;
    double got[FMUC_INST_IU_VALUES];
} fmuc_inst_iu_call;
#define FMUC_INST_IU_SET_REQUESTED 0x02u
#define FMUC_INST_IU_GET_ALLOWED 0x04u
#define FMUC_INST_IU_STEP_FINISHED 0x08u
#define FMUC_INST_IU_CAN_RETURN_EARLY 0x10u
#define FMUC_INST_IU_OUTSIDE_DO_STEP 0x20u /* called while no fmi3DoStep of it was running */
#define FMUC_INST_IU_NESTED 0x40u /* called while the harness was still in an earlier call's
                                     Intermediate Update Mode (nothing accessed) */
#define FMUC_INST_IU_FOREIGN_ENV 0x80u /* instanceEnvironment was not the one the harness passed
                                         (FMI 3.0.2 §2.3.1); never dereferenced */
#define FMUC_INST_IU_KEPT 1024             /* calls kept per instance (the count goes on) */
/** The intermediateUpdate calls logged for in (at most FMUC_INST_IU_KEPT, the first ones) in
 *  *calls; returns how many were made in all. 0 for an instance without the callback. */
size_t fmuc_inst_intermediate_log(const fmuc_inst *in, const fmuc_inst_iu_call **calls,
                                  size_t *nkept);

/* ---------------------------------------------------------------------------------------------
 * FMI 3.0 Scheduled Execution (se-nominal-run; FMI 3.0.2 §5)
 * ------------------------------------------------------------------------------------------- */
/* An SE instance is made by fmuc_inst_instantiate(ctx, FMUC_IFACE_SE, ...): the harness passes
 * its clockUpdate, lockPreemption and unlockPreemption callbacks. In clockUpdate (Clock Update
 * Mode) it calls fmi3GetClock for the output clocks and fmi3GetIntervalDecimal for the countdown
 * clocks named by fmuc_inst_se_watch and logs what they say (fmuc_inst_se_log). Lock and unlock
 * are counted (they take no argument: the counts are per worker process). */

/** Clocks of one kind asked about in Clock Update Mode, at most this many. */
#define FMUC_INST_SE_WATCH 64
/** Log entries kept per instance (the counts go on). */
#define FMUC_INST_CU_KEPT 512

/** What one entry of the clockUpdate log says. */
typedef enum {
    FMUC_INST_CU_OUTPUT_TICK = 0, /* fmi3GetClock said the output clock ticked */
    FMUC_INST_CU_COUNTDOWN,       /* fmi3GetIntervalDecimal: a countdown clock's new interval */
    FMUC_INST_CU_NOT_YET_KNOWN,   /* fmi3GetIntervalDecimal: fmi3IntervalNotYetKnown */
    FMUC_INST_CU_CALL_FAILED      /* fmi3GetClock / fmi3GetIntervalDecimal did not return OK or
                                     Warning (status); clock = 0 */
} fmuc_inst_cu_kind;

typedef struct fmuc_inst_cu_event {
    fmuc_inst_cu_kind kind;
    fmuc_vr clock;     /* the clock it is about */
    double interval;   /* FMUC_INST_CU_COUNTDOWN: the interval */
    int status;        /* the status of the call that told it */
    int outside;       /* 1: clockUpdate came while no fmi3ActivateModelPartition was running */
    fmuc_vr during;    /* the clock being activated (when !outside) */
    double time;       /* its activationTime (when !outside) */
} fmuc_inst_cu_event;

typedef struct fmuc_inst_se_counts {
    size_t clock_updates;  /* clockUpdate calls */
    size_t outside;        /* of them while no activation of this instance was running */
    size_t nested;         /* of them while the harness was still in Clock Update Mode */
    size_t empty;          /* of them after which no output clock ticked and no countdown
                              interval changed */
    size_t logged;         /* log entries made in all (at most FMUC_INST_CU_KEPT kept) */
    long lock, unlock;     /* lockPreemption / unlockPreemption calls (worker process) */
    long depth;            /* lock - unlock now */
    long min_depth;        /* lowest lock - unlock seen (negative: unlock without a lock) */
} fmuc_inst_se_counts;

/** The output clocks and countdown clocks the harness asks about in Clock Update Mode (at most
 *  FMUC_INST_SE_WATCH of each; more are ignored). 0, or -1 when in is not an SE instance. */
int fmuc_inst_se_watch(fmuc_inst *in, const fmuc_vr *output_clocks, size_t nout,
                       const fmuc_vr *countdown_clocks, size_t ncountdown);
/** fmi3ActivateModelPartition(clockReference, activationTime). NOT_PROVIDED outside FMI 3.0. */
fmuc_status fmuc_inst_activate_model_partition(fmuc_inst *in, fmuc_vr clock, double time);
/** Interval qualifiers (fmi3IntervalQualifier values). */
enum {
    FMUC_INST_INTERVAL_NOT_YET_KNOWN = 0,
    FMUC_INST_INTERVAL_UNCHANGED = 1,
    FMUC_INST_INTERVAL_CHANGED = 2
};
/** fmi3GetIntervalDecimal (qualifiers: FMUC_INST_INTERVAL_*; what the caller put there is what
 *  the FMU finds, so a value that is no qualifier shows an argument left unwritten) /
 *  fmi3GetShiftDecimal. NOT_PROVIDED outside FMI 3.0. */
fmuc_status fmuc_inst_get_interval_decimal(fmuc_inst *in, const fmuc_vr *vr, size_t n,
                                           double *intervals, int *qualifiers);
fmuc_status fmuc_inst_get_shift_decimal(fmuc_inst *in, const fmuc_vr *vr, size_t n,
                                        double *shifts);
/** fmi3GetIntervalFraction / fmi3GetShiftFraction: interval (shift) i is counters[i] /
 *  resolutions[i] seconds (qualifiers: FMUC_INST_INTERVAL_*, may be NULL). Legal only for an FMU
 *  with supportsFraction; NOT_PROVIDED outside FMI 3.0 or when the FMU lacks the function. */
fmuc_status fmuc_inst_get_interval_fraction(fmuc_inst *in, const fmuc_vr *vr, size_t n,
                                            uint64_t *counters, uint64_t *resolutions,
                                            int *qualifiers);
fmuc_status fmuc_inst_get_shift_fraction(fmuc_inst *in, const fmuc_vr *vr, size_t n,
                                         uint64_t *counters, uint64_t *resolutions);
/** The clockUpdate log of in (*events: the first FMUC_INST_CU_KEPT entries since the last
 *  fmuc_inst_se_log_clear, *nkept of them) and the counts so far (counts may be NULL). Returns
 *  the number of entries made since the last clear. 0 for other instances. */
size_t fmuc_inst_se_log(const fmuc_inst *in, const fmuc_inst_cu_event **events, size_t *nkept,
                        fmuc_inst_se_counts *counts);
/** Forget the log entries (not the counts). */
void fmuc_inst_se_log_clear(fmuc_inst *in);

/* ---------------------------------------------------------------------------------------------
 * Process state (api-process-state; FMI 3.0.2 §2.2.1, FMI 2.0.4 §2.1)
 * ------------------------------------------------------------------------------------------- */

#define FMUC_INST_PS_KEPT 16
/** One change of the process state an FMI call left behind. */
typedef struct fmuc_inst_ps_change {
    char call[240];  /* the call as traced: "fmi3DoStep(...)" */
    char what[640];  /* "the MXCSR rounding mode at 'toward zero' (was 'nearest')" */
    int fn_version;  /* the call's FMI version (1, 2, 3) */
    int suspended;   /* the change was seen when the FMU called back into the harness */
} fmuc_inst_ps_change;

/** Watch (on=1) or stop watching (on=0) the process state around every traced FMI call made
 *  from now on in this worker: the floating-point control registers (MXCSR and the x87 control
 *  word on x86), the locale of the FMU's C library (setlocale LC_ALL, uselocale), the working
 *  directory, the umask, the dispositions of the usual signals and the signal mask. The state is
 *  taken right before each call and compared after it (when the next call begins or the changes
 *  are read); a change is recorded and undone. Library loads are not watched. 0, or -1 when out
 *  of memory. Stopping forgets the changes. */
int fmuc_inst_watch_process_state(fmuc_worker_ctx *ctx, int on);
/** The changes recorded since watching began (the first FMUC_INST_PS_KEPT, at most max of them
 *  copied to out); returns how many were recorded in all. */
size_t fmuc_inst_process_state_changes(fmuc_worker_ctx *ctx, fmuc_inst_ps_change *out,
                                       size_t max);

#endif
