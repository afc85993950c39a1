/* Shared engine of the eq-* checks: a run plan (time grid, input trajectory, recorded variables)
 * built in the parent from the model description, instances that run inside a worker and are
 * stepped by the harness's step-wise driver (fmuc_step.h; CS: fmi2DoStep per communication step;
 * ME: fixed-step RK4 with event handling at step ends, stage arithmetic identical to the VDSim
 * core's RK4), bit-pattern transport of recorded series,
 * bit-exact and tolerance comparisons, plot evidence, and the vdsim (native core) detection. */
#ifndef FMUC_EQ_UTIL_H
#define FMUC_EQ_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "fmi2/fmi2.h"
#include "fmuc/fmuc_inst.h"
#include "fmuc/fmuc_refcsv.h"
#include "fmuc/fmuc_sim.h"
#include "fmuc/fmuc_step.h"
#include "fmuc/fmuc_worker.h"

/* Run lengths (communication steps): bit-exact round trips and comparisons use the long runs,
 * the repeated runs of determinism and FMU-state checks the short ones. */
#define EQU_STEPS_LONG 1000
#define EQU_STEPS_SHORT 200
/* The largest grid eq-reference runs on (rows of the reference file). */
#define EQU_STEPS_MAX 100000
/* At most this many variables are recorded per run (the first ones in document order). */
#define EQU_MAX_VARS 2000
/* equ_plan_excite_held, Co-Simulation: an excited input changes at most this many times in a
 * run (held over blocks of steps). A Co-Simulation FMU sees its inputs as a
 * staircase anyway, and one whose integrator restarts at every input change (Dymola's CS
 * export) pays a restart per change, not per step: 0001_ECS_HW's excited step cost 2.6 ms
 * against 0.1 ms with the inputs held (issue 16's time bounds). */
#define EQU_CS_INPUT_CHANGES 32
/* ME runs: RK4 substeps per run (every substep costs about ten traced FMI calls) */
#define EQU_ME_SUBSTEPS_LONG 4000
#define EQU_ME_SUBSTEPS_SHORT 2000

typedef struct equ_var {
    const char *name;   /* model description string (lives as long as the fmu) */
    fmuc_vr vr;
    uint8_t type;       /* fmuc_type */
    uint32_t line;
    uint8_t negated;    /* FMI 1.0 negatedAlias (Real/Integer): the value is -value(vr) */
    uint32_t elem;      /* FMI 3.0 array element (equ_plan_array_outputs): its 0-based index in
                           the serialized (row-major, §2.4.7.2) order of the array's values */
    uint32_t nelem;     /* the array's element count; 0 for a scalar */
} equ_var;

/** The record of variable v (an element of md->vars), negatedAlias included. */
equ_var equ_var_of(const fmuc_md *md, const fmuc_md_var *v);
/** The name of a recorded variable in messages, plots and evidence: its name, an array element
 *  with 1-based indices as fmucheck's result columns ("Fz[3]", "A[1,2]"). */
const char *equ_var_label(const fmuc_md *md, const equ_var *v, char *buf, size_t n);

/* How the inputs are driven. */
typedef enum {
    EQU_IN_START = 0, /* inputs keep their start values (not set) */
    EQU_IN_EXCITE,    /* deterministic excitation of continuous Real inputs (equ_plan_excite) */
    EQU_IN_TABLE      /* values given by the caller in in_values */
} equ_in_mode;

/** One run: everything the worker needs, built in the parent (pointers stay valid in the
 *  forked worker). Free with equ_plan_free. */
typedef struct equ_plan {
    const fmuc_fmu *fmu;
    fmuc_iface iface;
    size_t nsteps;          /* communication steps; nsteps + 1 rows are recorded */
    size_t nplanned;        /* steps of the planned run (t has nplanned + 1 points); a bounded
                             * horizon cuts nsteps below it, not this: its run is the start of
                             * the planned one, inputs included (equ_plan_excite) */
    double *t;              /* nsteps + 1 communication points, t[0] = start time */
    double stop;            /* stopTime passed to fmi2SetupExperiment (defined) */
    int stop_undefined;     /* pass stopTimeDefined=false (stop is then passed as it is) */
    int tol_defined;
    double tol;
    int nsub;               /* ME: RK4 substeps per communication step (>= 1) */
    int vdsim_substeps;     /* ME: substeps from the native core's rule (set by equ_vdsim_*) */
    size_t nin;             /* Real inputs set at every communication point */
    equ_var *in;
    double *in_values;      /* (nsteps + 1) x nin, row k = value held over step k */
    size_t nout;            /* recorded variables */
    equ_var *out;
    size_t nx, nz;          /* ME: states (Derivatives) and event indicators */
    char why[256];          /* why the plan could not be built */
} equ_plan;

/** FMI 3.0 FMU: rewrite the messages res->messages[from..] of an eq-* check, written with FMI 2.0
 *  names, into FMI 3.0's (fmi2GetFMUstate -> fmi3GetFMUState, fmi2NewDiscreteStates ->
 *  fmi3UpdateDiscreteStates, fmi2GetReal -> fmi3GetFloat64, fmi2OK -> fmi3OK, ...). Nothing for
 *  other versions. */
void equ_v3_names(const fmuc_subject *s, fmuc_result *res, size_t from);

/** Grid from the default experiment (start 0, stop start+1, step (stop-start)/max_steps when
 *  absent), at most max_steps steps; outputs = every output variable of a base type (all
 *  Real locals when there are none; at most EQU_MAX_VARS); inputs = continuous Real inputs (not yet valued).
 *  Returns 0, or -1 with plan->why set (nothing to record, bad experiment). */
int equ_plan_init(equ_plan *p, const fmuc_fmu *fmu, fmuc_iface iface, size_t max_steps);
/** Same with an explicit grid (times copied; strictly increasing after the caller removed
 *  duplicates). */
int equ_plan_init_grid(equ_plan *p, const fmuc_fmu *fmu, fmuc_iface iface, const double *t,
                       size_t nt);
/** Same, also when the model has nothing to record (the caller sets the outputs). */
int equ_plan_init_grid_any(equ_plan *p, const fmuc_fmu *fmu, fmuc_iface iface, const double *t,
                           size_t nt);
/** Fill in_values with the simulation driver's excitation (fmuc_sim_input_excitation: a
 *  one-sided swing from the start value, within [min, max] of the variable or its declared type,
 *  its sign kept) over the planned run [t[0], t[nplanned]] (the same after equ_plan_horizon,
 *  whose run is the start of the planned one): its value at every t[k]. Pure function of the
 *  model description and the grid; out of memory, the start values stay. With res, the
 *  excitation goes into its evidence ("inputs": {"<interface>": {"source", "t0", "t1",
 *  "inputs": [{"name", "vr", "pattern", "offset", "amplitude", "cycles"}]}}; "swing": u =
 *  offset + amplitude (1 - cos(2 pi cycles tau)) / 2, tau = (t - t0) / (t1 - t0)) when the run
 *  has inputs. The checks of FMU states (eq-fmu-state, eq-serialize) use it: an input that
 *  changes at every step is what shows a state that lost the inputs' history. */
void equ_plan_excite(equ_plan *p, fmuc_result *res);
/** The same excitation, for Co-Simulation held over blocks of equ_cs_input_block(nsteps)
 *  steps of the run as made (after equ_plan_horizon: the value at each block's first point; at
 *  most EQU_CS_INPUT_CHANGES changes in the run; evidence "held_steps"); Model Exchange as
 *  equ_plan_excite. For checks that ask whether runs with the same moving inputs agree
 *  (eq-determinism), where when the inputs move does not matter. An input whose swing has a
 *  whole number of cycles per block is sampled at one phase and stays at its start value (with
 *  32 blocks, the 32nd input of a run whose steps are a multiple of 32). */
void equ_plan_excite_held(equ_plan *p, fmuc_result *res);
/** Steps a Co-Simulation input is held for in a run of n steps: the smallest block that gives
 *  at most EQU_CS_INPUT_CHANGES changes, at least 1. */
size_t equ_cs_input_block(size_t n);
/** The column of variable v in an excitation (fmuc_sim_input_excitation), matched by its line
 *  and value reference (names may repeat in a bad file); in->ncols when it has none. */
size_t equ_excite_column(const fmuc_sim_input *in, const equ_var *v);
/** Fill in_values from a table (zero-order hold at t[k]: the last row with time <= t[k], the
 *  first row before the table starts); columns matched by input name; inputs without a column
 *  keep their start value. Returns the number of inputs driven by the table. */
size_t equ_plan_inputs_from_table(equ_plan *p, const fmuc_refcsv *tab);
/** Bound the run to the horizon of runs beyond the nominal one (fmuc_shared_horizon: the time
 *  the nominal run took, a call that hung). Call right after building the plan. Returns 1 when
 *  the run would repeat a hang (res is then not-applicable naming it), else 0. */
int equ_plan_horizon(equ_plan *p, const fmuc_subject *s, fmuc_result *res);
/** ME: resolve the RK4 substep count now (the native core's rule for vdsim level 2/3, else
 *  nsub) and shorten the run so that nsteps * nsub <= budget (at least 10 steps). Call before
 *  filling the inputs. No effect for CS. */
void equ_plan_me_budget(equ_plan *p, int level, size_t budget);
/** FMI 3.0: record the outputs again, in document order, with every Float64 output array of a
 *  known size element by element (read with one fmi3GetFloat64 of the whole array per row);
 *  nothing for other versions or when the model has no such array. Returns the number of
 *  elements added (0), or -1 (out of memory, why set). */
int equ_plan_array_outputs(equ_plan *p);
/** Replace the recorded variables by the given list (copied). */
int equ_plan_set_outputs(equ_plan *p, const equ_var *vars, size_t n);
void equ_plan_free(equ_plan *p);

/** Variable by name in the model description, or NULL. */
const fmuc_md_var *equ_md_find(const fmuc_md *md, const char *name);
/** The interfaces to run: ME and/or CS that are declared and whose library was extracted.
 *  Returns the count (0..2), fills ifaces. */
size_t equ_interfaces(const fmuc_fmu *fmu, fmuc_iface ifaces[2]);
/** equ_interfaces without those an earlier check found unusable for runs (a crash or hang in
 *  loading, instantiation, initialization or the nominal run: fmuc_shared_unusable): each one
 *  left out gets a note in res naming the check that saw it. When every interface is left out,
 *  res is not applicable with that reason. Returns the count (0..2), fills ifaces. */
size_t equ_usable_interfaces(const fmuc_subject *s, fmuc_result *res, fmuc_iface ifaces[2]);
/** The same for a list of interfaces in[0..n) (n <= 2): the usable ones into out. */
size_t equ_keep_usable(const fmuc_subject *s, fmuc_result *res, const fmuc_iface *in, size_t n,
                       fmuc_iface out[2]);
int equ_cap(const fmuc_fmu *fmu, fmuc_iface iface, fmuc_cap cap);
const char *equ_iface_name(fmuc_iface t);
/** The FMU-state checks: fn(s, res, iface, vdsim level) for every interface with a binary whose
 *  capability flags include every bit of caps (1u << fmuc_cap); not applicable naming need when
 *  there is none. */
typedef void (*equ_iface_fn)(const fmuc_subject *s, fmuc_result *res, fmuc_iface iface, int level);
void equ_for_capable(const fmuc_subject *s, fmuc_result *res, unsigned caps, const char *need,
                     equ_iface_fn fn);
/** fn for each of the n interfaces; an interface fn could not judge (fmuc_result_na_part, as
 *  when its own run on the nominal grid ended early) leaves the check not applicable only when
 *  no other one was judged (fmuc_result_parts_judged). */
void equ_each_interface(const fmuc_subject *s, fmuc_result *res, const fmuc_iface *ifaces,
                        size_t n, int level, equ_iface_fn fn);
/** A status into a worker reply, as a number. */
static inline void equ_put_status(cJSON *reply, const char *key, int st)
{
    cJSON_AddNumberToObject(reply, key, (double)st);
}

/* ---------------------------------------------------------------------------------------------
 * Worker side
 * ------------------------------------------------------------------------------------------- */

/** A running instance stepped by the engine. */
typedef struct equ_inst {
    fmuc_worker_ctx *ctx;
    fmuc_inst *c;          /* the instance (instance API) */
    const equ_plan *p;
    size_t k;              /* rows done: outputs of row k are current */
    fmuc_stepper st;       /* the harness's step-wise driver (fmuc_step.h) that steps it */
    double *x;             /* ME: its continuous states (st.x; non-NULL while allocated) */
    int terminated;
    int worst;             /* worst status an FMI call of this instance returned (equ_inst_status) */
    char err[512];         /* first failure ("fmi2DoStep(t=0.5, h=0.01) returned fmi2Error") */
} equ_inst;

/** Instantiate (instance_name), set up the experiment, initialize (inputs of row 0 set in
 *  Initialization Mode), ME: event iteration, Continuous-Time Mode, states. 0 or -1 (err). */
int equ_inst_start(equ_inst *in, fmuc_worker_ctx *ctx, const equ_plan *p,
                   const char *instance_name);
/** equ_inst_start in two halves: the instantiation alone (work arrays, fmi2Instantiate), then
 *  (after calls in the instantiated state) set-up and initialization. 0 or -1 (err). */
int equ_inst_instantiate(equ_inst *in, fmuc_worker_ctx *ctx, const equ_plan *p,
                         const char *instance_name);
int equ_inst_initialize(equ_inst *in);
/** The first half of equ_inst_start for an instance the caller made itself (FMI 3.0 CS with
 *  fmuc_inst_instantiate_cs3): c NULL is a failed instantiation (err). 0 or -1 (err). */
int equ_inst_adopt(equ_inst *in, fmuc_worker_ctx *ctx, const equ_plan *p, fmuc_inst *c);
/** fmi2Reset, then set up and initialize again as in equ_inst_start. */
int equ_inst_reset(equ_inst *in);
/** Record the current values of the plan's variables into row (nout doubles). */
int equ_inst_record(equ_inst *in, double *row);
/** One communication step from row k to k + 1 (inputs of row k set first). */
int equ_inst_step(equ_inst *in);
/** Steps until row `to`, recording rows k+1..to into rows[(k+1)*nout ...] when rows != NULL. */
int equ_inst_run_to(equ_inst *in, size_t to, double *rows);
/** ME: re-read the continuous states (after fmi2SetFMUstate). */
int equ_inst_resync(equ_inst *in);
/** The host's side of a run position (row, pending time event): taken with fmi2GetFMUstate,
 *  put back with fmi2SetFMUstate so the host continues exactly as it did from there. */
typedef struct equ_snap {
    size_t k;
    int next_event_defined;
    double next_event;
} equ_snap;
void equ_inst_snap(const equ_inst *in, equ_snap *s);
/** Restore the host position (and resync the ME states) after fmi2SetFMUstate. */
int equ_inst_restore(equ_inst *in, const equ_snap *s);
/** Record the status of an FMI call the caller made on this instance itself (the engine records
 *  its own); returns st. */
int equ_inst_status(equ_inst *in, int st);
/** 1 while the instance may still be used as the state machine allows after its calls so far:
 *  no call returned fmi2Error or worse (after fmi2Error only fmi2FreeInstance / fmi2Reset /
 *  fmi2SetFMUstate are meaningful, after fmi2Fatal nothing; §2.1.3). */
int equ_inst_usable(const equ_inst *in);
/** Free the instance (fmi2Terminate is not called: runs may end anywhere). After fmi2Fatal the
 *  instance is not freed: §2.1.3 allows no further call. */
void equ_inst_free(equ_inst *in);
/** A whole fresh run: start, record row 0, run to nsteps; rows has (nsteps+1)*nout doubles. */
int equ_run_fresh(fmuc_worker_ctx *ctx, const equ_plan *p, const char *name, double *rows,
                  char *err, size_t errsz);

/** RK4 substep exactly as the VDSim core: x + (h/6)*(((k1 + 2k2) + 2k3) + k4), tiny values
 *  (|v| < 1e-200) flushed to a signed zero. (Exposed for the tests.) */
double equ_rk4_combine(double x, double h6, double k1, double k2, double k3, double k4);

/* ---------------------------------------------------------------------------------------------
 * Series transport and comparison (parent and worker)
 * ------------------------------------------------------------------------------------------- */

/** Two recorded values are the same: equal as numbers (so -0.0 and +0.0 are the same) or both NaN
 *  (whatever their bit patterns). */
static inline int equ_same(double a, double b) { return a == b || (a != a && b != b); }
/** First pair of values of two row-major series (rows x cols) that are not the same (equ_same);
 *  1 if found (*row, *col). */
int equ_first_mismatch(const double *a, const double *b, size_t rows, size_t cols, size_t *row,
                       size_t *col);
/** How far series b strays from a: the largest |a - b| of a column divided by the largest |value|
 *  of that column in a and b (0 where the values are the same, +inf where only one side is NaN or
 *  infinite); the largest over the columns, with its place in *row, *col (may be NULL). */
double equ_deviation(const double *a, const double *b, size_t rows, size_t cols, size_t *row,
                     size_t *col);
/** First bit difference between two row-major series (rows x cols); 1 if found (*row, *col). */
int equ_first_diff(const double *a, const double *b, size_t rows, size_t cols, size_t *row,
                   size_t *col);
/** "%.17g (0x%016llx)" into buf. */
const char *equ_fmt_bits(double v, char *buf, size_t n);
/** max |a-b| per column (NaN when a NaN appears on one side only; 0 for identical NaNs). */
void equ_max_abs_diff(const double *a, const double *b, size_t rows, size_t cols, double *out,
                      size_t *at_row);

/** A plot in the reports/README.md "plots" format appended to evidence["plots"]. x has n
 *  values; series given as (name, y) pairs with stride (column step) and offset; at most
 *  max_points points are kept (every k-th row) when downsample is set. */
typedef struct equ_series_ref {
    const char *name;
    const double *y;  /* element i is y[i * stride] */
    size_t stride;
} equ_series_ref;
cJSON *equ_plot_add(fmuc_result *res, const char *title, const char *ylabel, const double *x,
                    size_t n, const equ_series_ref *s, size_t ns, const double *band_lo,
                    const double *band_hi, size_t band_stride, size_t max_points);

/** Tolerance comparison of one variable: y (actual) against ref at n points x (both with the
 *  given strides): |y - ref| <= atol + rtol*|ref| (NaN on either side is a miss unless both
 *  are NaN). Reports one violation when points miss, adds evidence[group][name] = {worst, at,
 *  misses} and, when plot is set, a plot with ref, actual and the band. Returns the misses. */
size_t equ_tol_compare(fmuc_result *res, const char *group, const char *label, const char *name,
                       uint32_t vr, const double *x, size_t n, const double *ref,
                       size_t ref_stride, const double *y, size_t y_stride, double rtol,
                       double atol, const char *ref_name, const char *y_name, int plot,
                       const fmuc_md *md);
/** The y axis of plot (from equ_plot_add; NULL: nothing) in the unit of variable var of md: its
 *  display unit when it has one (series and band converted, display = factor*value + offset;
 *  without the offset for a difference), else its unit; "yunit" is set when there is one. */
void equ_plot_units(cJSON *plot, const fmuc_md *md, const char *var, int difference);
/** y at time t from a series on grid tg (n points, stride): exact at grid points, linear in
 *  between, held outside. */
double equ_interp(const double *tg, size_t n, const double *y, size_t stride, double t);

/** Run fn in a worker for this check; on a crash/timeout the result gets the error and -1 is
 *  returned; otherwise 0 and *o must be freed by the caller. */
int equ_worker(const fmuc_subject *s, const fmuc_fmu *fmu, const char *label, fmuc_worker_fn fn,
               void *payload, fmuc_worker_outcome *o, fmuc_result *res);

/** Like equ_worker, but when the worker crashed (a signal), or timed out in an FMI call that had
 *  not returned, while it announced a phase that starts with one of probe_phases (NULL-terminated),
 *  the FMU answered the very calls the check probes:
 *  that is the check's result, with the worker's description prefixed by what, raised to
 *  verdict (FMUC_VERDICT_FAIL where the text says must, FMUC_VERDICT_WARN where it leaves the
 *  behaviour undefined, FMUC_VERDICT_NA where another check judges those calls). Any other crash is an error as in equ_worker. Returns 0 (reply to be
 *  read, *o to be freed) or -1. */
int equ_worker_probe(const fmuc_subject *s, const fmuc_fmu *fmu, const char *label,
                     fmuc_worker_fn fn, void *payload, fmuc_worker_outcome *o, fmuc_result *res,
                     const char *const *probe_phases, fmuc_verdict verdict, const char *what);

/* ---------------------------------------------------------------------------------------------
 * Integrator restart or lost state
 *
 * After fmi2SetFMUstate (or fmi2Reset) an FMU with a variable-step integrator inside may restart
 * it (step size and order back to their initial values), so the continuation differs from the
 * original run by the integration error, which the tolerance bounds. A state that was not
 * restored makes a difference the tolerance does not govern. So when a comparison differs, the
 * experiment is repeated at two relative tolerances given in fmi2SetupExperiment, tol_hi (the
 * default experiment's, else EQU_RESTART_TOL_UNDEFINED) and tol_hi / EQU_RESTART_TOL_FACTOR: a
 * restart's deviation (equ_deviation) shrinks at least by EQU_RESTART_SHRINK, or stays within
 * the tolerance asked for at both (a solver whose steps the communication interval caps hardly
 * shrinks its error); a lost state's deviation does neither.
 * ------------------------------------------------------------------------------------------- */
#define EQU_RESTART_TOL_UNDEFINED 1e-4
#define EQU_RESTART_TOL_FACTOR 100.0
#define EQU_RESTART_SHRINK 0.25

/** Runs the check's experiment once on plan q (q->tol set by the caller) and returns its
 *  deviation (>= 0), or -1 with why when it could not be run; crashes go to scratch. */
typedef double (*equ_deviation_fn)(const fmuc_subject *s, const equ_plan *q, void *ctx,
                                   fmuc_result *scratch, char *why, size_t whysz);

typedef struct equ_restart {
    int verdict;          /* 1 integrator restart, 0 not (a state was lost), -1 undetermined */
    double tol_hi, dev_hi, tol_lo, dev_lo;
    char why[512];        /* undetermined: why */
} equ_restart;

/** Tell a restart from a lost state for a comparison whose deviation on plan p was dev_base
 *  (p's tolerance is reused as tol_hi when the default experiment defines one). */
void equ_restart_test(const fmuc_subject *s, const equ_plan *p, double dev_base,
                      equ_deviation_fn fn, void *ctx, equ_restart *out);
/** evidence[key] = {tolerances, deviations, conclusion}. */
void equ_restart_evidence(cJSON *evi, const char *key, const equ_restart *r);
/** A sentence for messages: "deviation 3.2e-05 at tolerance 0.0001, 2.9e-07 at 1e-06". */
const char *equ_restart_text(const equ_restart *r, char *buf, size_t n);

/** A whole fresh run of p in a worker on p->fmu; the (nsteps+1) x nout rows (malloc), or NULL:
 *  worker crash/timeout (already in res, why empty) or the FMU failed (why set). */
double *equ_run_plan(const fmuc_subject *s, const equ_plan *p, const char *label,
                     fmuc_result *res, char *why, size_t whysz);

/* ---------------------------------------------------------------------------------------------
 * vdsim: the project's own FMUs and the native core
 * ------------------------------------------------------------------------------------------- */

/** The GUID generated for vdsim_l2 / vdsim_l3 in this build (level 2 or 3), NULL otherwise. */
const char *fmuc_eq__vdsim_guid(int level);
/** The instantiationToken of the FMI 3.0 vdsim_l2_fmi3 / vdsim_l3_fmi3 of this build (level 2
 *  or 3), NULL otherwise. */
const char *fmuc_eq__vdsim_token(int level);
/** Which native model applies: 2 or 3, 0 when none (reason in why). opts->native "l2"/"l3"
 *  forces, "none" disables; otherwise modelName and modelIdentifier vdsim_lN and the GUID
 *  (FMI 3.0: the instantiationToken). */
int fmuc_eq__vdsim_level(const fmuc_fmu *fmu, const fmuc_options *opts, char *why, size_t n);
/** Worker side: RK4 substeps per step of dt from the native core's rule (vd_substeps) for
 *  the FMU's parameter files; -1 when the native parameters cannot be loaded (why). */
int fmuc_eq__vdsim_nsub(const fmuc_fmu *fmu, int level, double dt, char *why, size_t n);
/** Worker side: a copy of p with nsub resolved (vdsim_substeps); returns copy. */
const equ_plan *equ_worker_plan(equ_plan *copy, const equ_plan *p);

/** A deliberate difference injected into the native side (unit tests of eq-native-roundtrip). */
typedef struct fmuc_eq_native_tweak {
    const char *param;  /* vd_param_set name, e.g. "mass" */
    double value;
} fmuc_eq_native_tweak;
/** The eq-native-roundtrip check with an optional tweak (the check itself passes NULL). */
void fmuc_eq__native_roundtrip(const fmuc_subject *s, fmuc_result *res,
                               const fmuc_eq_native_tweak *tweak);

#endif
