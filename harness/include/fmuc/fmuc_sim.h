/* Simulation driver used INSIDE a worker: a Co-Simulation master loop and a Model Exchange host
 * loop (§3.2.4, fmi2-rules §F) on SUNDIALS CVODE, fed by an input CSV or a deterministic
 * excitation, recording output series, events and the status of every call. Results travel to
 * the parent as JSON (fmuc_sim_result_to_json / _from_json) and become report evidence there.
 * Also the FMI 2.0 function x state tables (§D) as data (harness/src/fmi2_states.def).
 *
 * Typical use in a check (parent side):
 *
 *   fmuc_sim_config cfg; fmuc_sim_result r; fmuc_worker_outcome o;
 *   fmuc_sim_config_init(&cfg, FMUC_IFACE_CS);
 *   cfg.input_csv = s->opts->input_csv;
 *   if (fmuc_sim_run_isolated(s->fmu, s->opts, &cfg, "cs-nominal-run", &r, &o, res) == 0) {
 *       ... judge r.calls, r.series ...; fmuc_sim_add_plots(&r, fmuc_result_evidence(res), "outputs");
 *   }
 *   fmuc_sim_result_free(&r); fmuc_worker_outcome_free(&o);
 */
#ifndef FMUC_SIM_H
#define FMUC_SIM_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "fmi2/fmi2.h"
#include "fmuc/fmuc_err.h"
#include "fmuc/fmuc_fmu.h"
#include "fmuc/fmuc_inst.h"
#include "fmuc/fmuc_md.h"
#include "fmuc/fmuc_options.h"
#include "fmuc/fmuc_result.h"
#include "fmuc/fmuc_worker.h"

/* ---------------------------------------------------------------------------------------------
 * FMI 2.0 state machines as data (§D.1 ME, §D.2 CS)
 * ------------------------------------------------------------------------------------------- */

enum {
    FMUC_ST_START = 1u << 0, /* start/end (before Instantiate) */
    FMUC_ST_INST = 1u << 1,  /* instantiated */
    FMUC_ST_INIT = 1u << 2,  /* Initialization Mode */
    FMUC_ST_EM = 1u << 3,    /* ME Event Mode */
    FMUC_ST_CTM = 1u << 4,   /* ME Continuous-Time Mode */
    FMUC_ST_SC = 1u << 5,    /* CS stepComplete */
    FMUC_ST_SIP = 1u << 6,   /* CS stepInProgress */
    FMUC_ST_SF = 1u << 7,    /* CS stepFailed */
    FMUC_ST_SCAN = 1u << 8,  /* CS stepCanceled */
    FMUC_ST_TERM = 1u << 9,  /* terminated */
    FMUC_ST_ERR = 1u << 10,  /* error */
    FMUC_ST_FAT = 1u << 11,  /* fatal */
    FMUC_ST_CAM = 1u << 12   /* FMI 3.0 Scheduled Execution: Clock Activation Mode */
};

/** The table row of one function ("fmi2DoStep") for one interface: *allowed = states where the
 *  call is allowed unconditionally ("x"), *conditional = states where a numbered condition
 *  decides (1..8). Returns 0 when found, -1 for an unknown name or a function that does not
 *  belong to that interface (ME functions for CS and vice versa). */
int fmuc_fmi2_states(const char *fn, fmuc_iface iface, unsigned *allowed, unsigned *conditional);
/** Short name of one FMUC_ST_* bit ("instantiated", "eventMode", ...). */
const char *fmuc_fmi2_state_name(unsigned st);
/** FMI 3.0's table (harness/src/fmi3_states.def, fmi3-rules §D.1/§D.2) for "fmi3DoStep" etc., as
 *  fmuc_fmi2_states; FMUC_ST_SC is Co-Simulation Step Mode. -1 for a function the table does not
 *  list or one the interface type does not have. */
int fmuc_fmi3_states(const char *fn, fmuc_iface iface, unsigned *allowed, unsigned *conditional);
/** FMI 3.0's name of a state ("Step Mode", "Event Mode", ...). */
const char *fmuc_fmi3_state_name(unsigned st);

/* ---------------------------------------------------------------------------------------------
 * Inputs: CSV file or deterministic excitation
 * ------------------------------------------------------------------------------------------- */

/** One driven input variable. */
typedef struct fmuc_sim_input_col {
    const fmuc_md_var *var;      /* the input variable (points into the md) */
    uint32_t var_index;          /* 1-based index in ModelVariables */
    int interpolate;             /* continuous Real: linear; else held (zero-order) */
    double *values;              /* npoints (numeric types) */
    char **strings;              /* npoints (String inputs), else NULL */
    /* excitation (no CSV): u(t) = c + a*(1-cos(2*pi*cycles*tau))/2 for continuous Reals, a
     * step pattern otherwise (see fmuc_sim_input_excitation) */
    char kind[16];               /* "csv", "swing", "steps", "hold" */
    double c, a, cycles, lo, hi;
} fmuc_sim_input_col;

typedef struct fmuc_sim_input {
    char *source;                /* the CSV path, or "excitation" */
    size_t npoints;              /* CSV rows */
    double *times;               /* npoints, non-decreasing */
    size_t ncols;
    fmuc_sim_input_col *cols;
    double t0, t1;               /* excitation: the run's start/stop (tau = (t-t0)/(t1-t0)) */
    const fmuc_md *md;
} fmuc_sim_input;

/** Parse an input CSV: first column time (any header name), the others named like input
 *  variables (causality="input"); numbers in C locale, Booleans true/false/1/0, Strings as
 *  written (double quotes allowed, "" for a quote). Errors (FMUC_EINPUT) name the file, line and
 *  column: "in.csv:3:2: 'abc' is not a number for input 'F'". *in is always initialised. */
fmuc_err fmuc_sim_input_load_csv(fmuc_sim_input *in, const char *path, const fmuc_md *md,
                                 fmuc_diag *diag);
/** Relative size of the excitation (of |start|, else |nominal|, else 1). */
#define FMUC_SIM_EXCITATION_REL 0.1
/** The deterministic excitation for every input of md over [t0, t1], for the checks that need
 *  inputs that move (the nominal runs keep the start values). It stays within [min, max]
 *  (the variable's or its declared type's) and near the start value, and keeps its sign. Input
 *  k (k-th input in ModelVariables order, from 0), tau = (t-t0)/(t1-t0), base c = start (else
 *  nominal, else 0) clipped to [min, max]:
 *    continuous Real "swing": c + a*(1 - cos(2*pi*(k+1)*tau))/2, which starts at c;
 *    discrete Real / Integer "steps": c over the first and third quarter of the run, c + a over
 *      the second and fourth;
 *    a = FMUC_SIM_EXCITATION_REL * (|c|, else |nominal|, else 1) (Integer: 1), directed away
 *      from zero (c < 0: downwards), turned the other way when the bound that way is nearer
 *      than the other one, and cut to the room left before the bound;
 *    Enumeration "steps": the start item, then the next declared item within [min, max];
 *    Boolean "steps": the start value, then its negation; String: the start value held. */
fmuc_err fmuc_sim_input_excitation(fmuc_sim_input *in, const fmuc_md *md, double t0, double t1,
                                   fmuc_diag *diag);
/** Value of column col at time t (interpolated or held; before the first row: the first row). */
double fmuc_sim_input_value(const fmuc_sim_input *in, size_t col, double t);
const char *fmuc_sim_input_string(const fmuc_sim_input *in, size_t col, double t);
/** How the inputs were driven, for the report evidence. */
cJSON *fmuc_sim_input_to_json(const fmuc_sim_input *in);
void fmuc_sim_input_free(fmuc_sim_input *in);

/* ---------------------------------------------------------------------------------------------
 * Configuration and result
 * ------------------------------------------------------------------------------------------- */

typedef struct fmuc_sim_config fmuc_sim_config;

/** Optional hooks for other checks (determinism, FMU state round trips ...). Called inside the
 *  worker; return nonzero to stop the run (stop_reason "stopped by hook"). */
typedef struct fmuc_sim_hooks {
    void *user;
    /** After fmi2ExitInitializationMode (and, ME, the initial event iteration). */
    int (*after_init)(void *user, fmuc_inst *in, double t);
    /** After each output point was recorded (k = point index, 0 = start). */
    int (*at_point)(void *user, fmuc_inst *in, size_t k, double t);
    /** Before each step (CS: fmi2DoStep from t over h, after the inputs were set; ME: each
     *  integrator step from t towards t + h, the next stop). */
    int (*before_step)(void *user, fmuc_inst *in, double t, double h);
    /** After each step that succeeded (CS: the step ended at t; ME: an accepted integrator step
     *  at t, after fmi2CompletedIntegratorStep). */
    int (*after_step)(void *user, fmuc_inst *in, double t);
    /** ME: after an event at t was handled (event iteration done, Continuous-Time Mode again;
     *  kind = fmuc_sim_event_kind). */
    int (*at_event)(void *user, fmuc_inst *in, double t, int kind);
    /** ME: in Event Mode at t, around the fmi2NewDiscreteStates loop of an event of kind
     *  (fmuc_sim_event_kind; FMUC_SIM_EV_INIT for the one after initialization): iteration 0
     *  before the first call (info NULL), then after each call that succeeded (iteration = the
     *  calls so far, info = what that call returned). */
    int (*in_event)(void *user, fmuc_inst *in, double t, int kind, unsigned iteration,
                    const fmuc_inst_event_info *info);
} fmuc_sim_hooks;

struct fmuc_sim_config {
    fmuc_iface iface;               /* FMUC_IFACE_ME or FMUC_IFACE_CS */
    /* NaN = from DefaultExperiment (else start 0, stop 1, tolerance 1e-6 for ME / not defined
     * for CS, step DefaultExperiment stepSize else (stop-start)/500) */
    double start, stop, step, tolerance;
    const char *input_csv;        /* NULL: fmuc_sim_input_excitation */
    const fmuc_sim_input *input;  /* pre-parsed inputs (overrides input_csv); not owned */
    int no_excitation;            /* inputs keep their start values (input_csv/input ignored) */
    int record_inputs;            /* also record input columns (default 1) */
    int record_all_reals;         /* record every Real variable, not only outputs (and inputs) */
    unsigned max_event_iterations;/* ME: NewDiscreteStates calls per event instant (1000) */
    size_t max_points;            /* output grid points (200000) */
    size_t max_steps;             /* 0, or end the run after this many steps of the output grid
                                   * when that comes before stop (a short session) */
    size_t max_events;            /* events before the run is stopped (100000) */
    const char *instance_name;    /* default "fmucheck-sim" */
    fmuc_sim_hooks hooks;
    /* fmuc_sim_run_isolated only: the session is also watched for what api-sandbox and
     * api-resources-released judge, so that the nominal runs answer them */
    int record_sandbox;           /* the worker records write and network attempts, refusing
                                   * nothing itself (FMUC_RECORD_ONLY); the run's result gets no
                                   * note of them (api-sandbox names them) */
    int observe_release;          /* the reply gets "release" when the instance was freed: what
                                   * the session left (fmuc_worker_release_end, no wait for
                                   * threads: a thread still running is api-resources-released's
                                   * to wait for, in a session of its own) */
};

/** Defaults (NaN times, record_inputs 1, bounds as documented above). */
void fmuc_sim_config_init(fmuc_sim_config *cfg, fmuc_iface iface);

/* Event kinds */
typedef enum {
    FMUC_SIM_EV_INIT = 0,   /* event iteration after initialization */
    FMUC_SIM_EV_TIME,       /* nextEventTime reached */
    FMUC_SIM_EV_STATE,      /* event indicator changed domain (CVODE root) */
    FMUC_SIM_EV_STEP,       /* CompletedIntegratorStep asked for it */
    FMUC_SIM_EV_INPUT       /* external: a discrete input changed */
} fmuc_sim_event_kind;

typedef struct fmuc_sim_event {
    double t;
    int kind;                 /* fmuc_sim_event_kind */
    unsigned iterations;      /* fmi2NewDiscreteStates calls */
    int states_changed;       /* valuesOfContinuousStatesChanged seen */
    int root;                 /* STATE: index of the first indicator that crossed, else -1 */
} fmuc_sim_event;

/* Functions the driver calls, for the status statistics */
#define FMUC_SIM_FUNCTIONS(X)                                                                   \
    X(Instantiate) X(SetupExperiment) X(EnterInitializationMode) X(ExitInitializationMode)       \
    X(Terminate) X(FreeInstance) X(GetReal) X(GetInteger) X(GetBoolean) X(GetString) X(SetReal)  \
    X(SetInteger) X(SetBoolean) X(SetString) X(DoStep) X(GetStatus) X(GetRealStatus)             \
    X(GetBooleanStatus) X(EnterEventMode) X(NewDiscreteStates) X(EnterContinuousTimeMode)        \
    X(CompletedIntegratorStep) X(SetTime) X(SetContinuousStates) X(GetContinuousStates)          \
    X(GetDerivatives) X(GetEventIndicators) X(GetNominalsOfContinuousStates)

#define FMUC_SIM_FN_ENUM_(n) FMUC_SIM_FN_##n,
typedef enum { FMUC_SIM_FUNCTIONS(FMUC_SIM_FN_ENUM_) FMUC_SIM_NFN } fmuc_sim_fn;
#undef FMUC_SIM_FN_ENUM_

/** "fmi2DoStep" for FMUC_SIM_FN_DoStep. */
const char *fmuc_sim_fn_name(int fn);
/** The same call in the FMI version of the FMU: 1, the FMI 1.0 function of the interface iface
 *  ("fmiDoStep", "fmiInstantiateModel", "fmiEventUpdate"); 3, FMI 3.0's ("fmi3UpdateDiscreteStates"
 *  for NewDiscreteStates, "fmi3InstantiateModelExchange" for Instantiate with iface
 *  FMUC_IFACE_ME; reads of every integer type count as "fmi3GetInt32", the status queries as
 *  "fmi3DoStep"); 2: fmuc_sim_fn_name. buf holds a name built on the fly. */
const char *fmuc_sim_fn_name_v(int version, fmuc_iface iface, int fn, char *buf, size_t n);
/** FMI 3.0 arrays: the number of elements of variable i (0-based) of md, the product of its
 *  <Dimension> sizes (fixed start, or the start value of the structural parameter); 1 for a
 *  scalar, 0 when a size is unknown or too large. The sizes go to dims[0..maxdims) and their
 *  count to *ndims (either may be NULL). */
size_t fmuc_sim_var_elements(const fmuc_md *md, size_t i, size_t *dims, size_t maxdims,
                             size_t *ndims);

/* status index 6 collects values outside fmi2OK..fmi2Pending */
#define FMUC_SIM_NSTATUS 7

/** A call that returned something other than fmi2OK/fmi2Warning (kept: the first 200). */
typedef struct fmuc_sim_bad_call {
    int fn;                   /* fmuc_sim_fn */
    int status;               /* raw value */
    double t;                 /* simulation time of the call */
    char detail[96];          /* arguments or context ("h=0.01", "vr 3") */
} fmuc_sim_bad_call;

/** A non-finite value seen (kept: the first 50). */
typedef struct fmuc_sim_nonfinite {
    double t;
    char what[24];            /* "output", "derivative", "eventIndicator", "state", "nominal" */
    char name[104];           /* variable name or "x[3]" */
    double value;
} fmuc_sim_nonfinite;

/* One recorded column */
typedef struct fmuc_sim_column {
    char *name;
    uint32_t vr;
    uint32_t var_index;       /* 1-based ModelVariables index */
    int type;                 /* fmuc_type */
    int causality;            /* fmuc_causality */
    char *unit;               /* NULL if none (the variable's, else its declaredType's) */
    /* The unit a person reads (§2.2.2 DisplayUnit: display = factor*value + offset): the
     * variable's displayUnit (else its declaredType's) when it is declared under unit in the
     * UnitDefinitions; NULL otherwise (then plots use unit). Plots show the series converted. */
    char *display_unit;
    double display_factor, display_offset;
} fmuc_sim_column;

typedef struct fmuc_sim_result {
    int iface;                /* fmuc_iface */
    int fmi_version;          /* 2 or 3 (0 read as 2): names in the evidence */
    double start, stop, step, tolerance;
    int tolerance_defined;
    size_t ncols;
    fmuc_sim_column *cols;
    size_t npoints;           /* rows recorded */
    double *times;            /* npoints */
    double *values;           /* npoints * ncols, row-major (NaN for a failed read) */
    size_t nevents, events_dropped; /* events kept, further events counted, not kept */
    fmuc_sim_event *events;   /* the first 1000 (nevents) */
    uint64_t status_counts[FMUC_SIM_NFN][FMUC_SIM_NSTATUS];
    size_t nbad, bad_dropped;
    fmuc_sim_bad_call *bad;
    size_t nnonfinite, nonfinite_dropped;
    fmuc_sim_nonfinite *nonfinite;
    uint64_t steps;           /* CS DoStep calls / ME accepted integrator steps */
    uint64_t rhs_evals, root_evals;
    double start_cpu_s;       /* CPU time of the worker from instantiation to the second row
                               * (the first output interval: instantiate, initialize, the first
                               * steps), 0 when the run recorded no second row; what starting one
                               * more instance costs (the battery's time budget, checks/runner.c) */
    double run_cpu_s;         /* CPU time of the worker from instantiation to the end of the run
                               * (the FMU's and the driver's, not the worker's start nor the
                               * reply's encoding), 0 when not measured */
    int completed;            /* reached the stop time (or the FMU asked to terminate) */
    int terminated_by_fmu;    /* terminateSimulation / fmi2Terminated */
    int instantiate_failed;   /* fmi2Instantiate returned NULL */
    int event_iteration_overflow; /* max_event_iterations reached */
    double end_time;          /* last time reached */
    double last_successful_time; /* CS after Discard (NaN if not asked or failed) */
    char *stop_reason;        /* why the run ended early (NULL when completed normally) */
    size_t time_mismatches;   /* FMI 2.0: points where the independent variable read another time */
    double time_bad_t, time_bad_value; /* the first of them: the time and the value read */
    uint32_t time_vr;         /* the independent variable's value reference */
    cJSON *inputs;            /* fmuc_sim_input_to_json of the driving inputs */
} fmuc_sim_result;

/** Run the simulation inside a worker (the library of cfg->iface is loaded with fmuc_inst_load
 *  when it is not yet; a load failure is a harness error here, so callers that report it
 *  differently load first). The instance goes through the instance API (fmuc_inst.h). Always fills
 *  *out (free with fmuc_sim_result_free). Returns 0 when the run went to the end, 1 when it
 *  ended early (stop_reason says why: a call returned Error/Fatal, Discard, non-finite values,
 *  event iteration overflow, CVODE failure ...), a negative fmuc_err for a harness problem
 *  (bad config, input CSV error: diag). */
int fmuc_sim_run(fmuc_worker_ctx *ctx, const fmuc_sim_config *cfg, fmuc_sim_result *out,
                 fmuc_diag *diag);

/** The worker round trip: run fmuc_sim_run for cfg in a worker (label for messages) and rebuild
 *  the result in the parent. Returns 0 when *out is valid; 1 when the library does not load
 *  (res is then NOT-APPLICABLE, "see load-dlopen"); -1 when res already carries an ERROR (crash,
 *  timeout, early exit, harness failure, input CSV error: fmuc_worker_outcome_to_result), or is
 *  NOT-APPLICABLE for a stop before a call that hung in an earlier worker. The
 *  FMU log of the worker is appended to the evidence "log". *o and *out are always initialised
 *  (free both). */
int fmuc_sim_run_isolated(const fmuc_fmu *fmu, const fmuc_options *opts,
                          const fmuc_sim_config *cfg, const char *label, fmuc_sim_result *out,
                          fmuc_worker_outcome *o, fmuc_result *res);

cJSON *fmuc_sim_result_to_json(const fmuc_sim_result *r);
/** Rebuild from fmuc_sim_result_to_json output; FMUC_EPROTO-style error (< 0) when malformed. */
fmuc_err fmuc_sim_result_from_json(fmuc_sim_result *r, const cJSON *j);
void fmuc_sim_result_free(fmuc_sim_result *r);

/** Index of the column named name, or -1. */
long fmuc_sim_column_find(const fmuc_sim_result *r, const char *name);
/** Value of column col at row k. */
static inline double fmuc_sim_value(const fmuc_sim_result *r, size_t k, size_t col)
{
    return r->values[k * r->ncols + col];
}

/** Set c->unit, c->display_unit (both malloc'd or NULL), c->display_factor and c->display_offset
 *  for variable v of md (see fmuc_sim_column). */
void fmuc_sim_column_units(const fmuc_md *md, const fmuc_md_var *v, fmuc_sim_column *c);
/** Append plots of the series to evidence["plots"] (reports/README.md format): one plot per
 *  unit group of up to 8 columns, at most 8 plots; title_prefix names them. */
void fmuc_sim_add_plots(const fmuc_sim_result *r, cJSON *evidence, const char *title_prefix);
/** evidence["final_values"] = {name: last value}; evidence["events"] (count and the first 20),
 *  evidence["calls"] = {function: {status: count}} (non-zero only), evidence["inputs"]. */
void fmuc_sim_add_summary(const fmuc_sim_result *r, cJSON *evidence);

/** Append the logged FMU messages of a worker outcome to evidence["log"] (at most 500). */
void fmuc_sim_add_log(const fmuc_worker_outcome *o, cJSON *evidence);

#endif
