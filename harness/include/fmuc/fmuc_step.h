/* The step-wise driver (worker side): advance an instance that fmuc_drive_reach started, one
 * communication interval at a time. Co-Simulation: one fmuc_drive_do_step (the wait for an
 * asynchronous step included) with the inputs set first, and on Discard the status queries a
 * master makes. Model Exchange: one interval with a solver choice, events detected and handled
 * on the way (Event Mode, the event iteration, Continuous-Time Mode, states re-read):
 *   FMUC_STEP_RK4: fixed RK4 substeps, events at substep ends (sign changes of the event
 *     indicators, time events, CompletedIntegratorStep); the stage arithmetic is the VDSim
 *     core's, so the vdsim FMUs give its bits (the eq-* engine, checks/eq/eq_util.h);
 *   FMUC_STEP_CVODE: SUNDIALS CVODE BDF steps with root finding on the event indicators, stops
 *     at time events, input events at the interval's end; the run's bookkeeping (call
 *     statuses, stop reason, events, inputs, hooks) is the host's (the simulation driver,
 *     fmuc_sim.h).
 * Every ME loop, fmuc_drive_reach's initial one included, iterates events with
 * fmuc_step_event_iteration.
 *
 *   fmuc_stepper sp;                              // after fmuc_drive_reach(in, FMUC_ST_SC/EM)
 *   fmuc_stepper_init(&sp, in, me, nx, nz);
 *   sp.inputs = my_inputs; sp.user = me;          // optional hooks
 *   if (me) fmuc_step_me_enter_ctm(&sp);          // RK4: initial event iteration, CTM, states
 *   for (k...) if (fmuc_step_interval(&sp, t[k], t[k+1], &o) != FMUC_STEP_OK) ... sp.call ...
 *   fmuc_stepper_free(&sp);
 */
#ifndef FMUC_STEP_H
#define FMUC_STEP_H

#include <stddef.h>

#include "fmuc/fmuc_inst.h"
#include "fmuc/fmuc_sim.h"

/* What ended an interval early (fmuc_step_interval, fmuc_step_me_enter_ctm) */
typedef enum {
    FMUC_STEP_OK = 0,
    FMUC_STEP_FAILED,      /* an FMI call failed: call (2.0 wording) and status */
    FMUC_STEP_INPUTS,      /* the inputs hook failed (it said why) */
    FMUC_STEP_HOOK,        /* the before_step hook asked to stop */
    FMUC_STEP_TERMINATE,   /* the FMU asked to terminate (why) */
    FMUC_STEP_NO_SETTLE,   /* the event iteration did not settle (why) */
    FMUC_STEP_STOPPED,     /* ME/CVODE: the run stops (host->stop said why; term_after) */
    FMUC_STEP_NOMEM        /* ME/CVODE: the solver could not be made */
} fmuc_step_rc;

/** One event instant's iteration (Event Mode): its outcome. */
typedef struct fmuc_step_event {
    unsigned iterations;        /* update_discrete_states calls */
    int states_changed;         /* valuesOfContinuousStatesChanged seen (or-ed) */
    int nominals_changed;       /* nominalsOfContinuousStatesChanged seen (or-ed) */
    int status;                 /* the failed call's status (result -1, not hook_stopped) */
    int failed;                 /* a call failed */
    int hook_stopped;           /* in_event returned nonzero */
    int no_settle;              /* max calls made, still asking for another */
    fmuc_inst_event_info info;  /* what the last call returned */
} fmuc_step_event;

/** Hook of the event iteration: before the first call (iteration 0, info NULL) and after each
 *  call that succeeded (iteration = calls so far); nonzero stops it. */
typedef int (*fmuc_step_in_event_fn)(void *user, fmuc_inst *in, unsigned iteration,
                                     const fmuc_inst_event_info *info);
/** Observer of each call of the iteration (its status). */
typedef void (*fmuc_step_on_call_fn)(void *user, fmuc_inst_op op, int status, unsigned iteration);

/** The event iteration at one instant: fmuc_inst_update_discrete_states until the FMU no
 *  longer asks for another call (at most max calls). Returns 0 settled, 1 the FMU asked to
 *  terminate, -1 a call failed (out->failed, status), the hook stopped it or it did not settle
 *  within max calls (out->no_settle). Hooks may be NULL. */
int fmuc_step_event_iteration(fmuc_inst *in, unsigned max, fmuc_step_in_event_fn in_event,
                              fmuc_step_on_call_fn on_call, void *user, fmuc_step_event *out);

/** Time events in a row at one instant (nextEventTime = the current time each time) before the
 *  host stops: time does not advance (legal once, FMI 2.0.4 §3.2.2; me-event-flags fails the
 *  endless repeat). */
#define FMUC_STEP_SAME_INSTANT_MAX 100u

/* ME solvers */
typedef enum {
    FMUC_STEP_RK4 = 0,        /* fixed-step RK4 substeps, events at substep ends (the eq-* runs) */
    FMUC_STEP_CVODE           /* SUNDIALS CVODE BDF with root finding (the simulation driver) */
} fmuc_step_solver;

/* ME with CVODE: what the run keeps (the simulation driver's bookkeeping, fmuc_sim.h). Calls
 * are named by fmuc_sim_fn (FMUC_SIM_FN_*). */
enum { FMUC_STEP_IN_CONTINUOUS = 1, FMUC_STEP_IN_DISCRETE_CHANGED };
typedef struct fmuc_step_host {
    void *user;
    /** Each call the driver made, its status and time; detail only when not OK/Warning. */
    void (*on_call)(void *user, int fn, fmuc_status st, double t, const char *detail);
    /** Why the run stops (the run keeps the first reason). */
    void (*stop)(void *user, const char *reason);
    /** A non-finite value seen (what "state", "derivative", "eventIndicator"; name "x[0] 'h'"). */
    void (*nonfinite)(void *user, double t, const char *what, const char *name, double v);
    /** Set the inputs at t (FMUC_STEP_IN_*); < 0 when a call failed (stop said why). */
    int (*set_inputs)(void *user, double t, int which);
    /** A discrete input changes at t. */
    int (*discrete_change)(void *user, double t);
    /** Nonzero when no more event may be handled at t (stop said why). */
    int (*event_limit)(void *user, double t);
    /** An event instant was iterated (kind fmuc_sim_event_kind, root: first indicator or -1). */
    void (*event)(void *user, double t, int kind, unsigned iterations, int states_changed,
                  int root);
    /** The run's hooks: before_step, after_step, at_event, in_event (with their user). */
    const fmuc_sim_hooks *hooks;
} fmuc_step_host;

/* After an ME/CVODE outcome: may the run still call Terminate? (the host knows its errors) */
enum {
    FMUC_STEP_TERM_YES = 0,
    FMUC_STEP_TERM_NO,
    FMUC_STEP_TERM_UNLESS_ERROR,        /* unless a call returned Error */
    FMUC_STEP_TERM_UNLESS_ERROR_FATAL   /* unless a call returned Error or Fatal */
};

struct fmuc_step_cvode;

/** A started instance stepped interval by interval. */
typedef struct fmuc_stepper {
    fmuc_inst *in;
    int me;                   /* Model Exchange */
    fmuc_step_solver solver;  /* ME */
    size_t nx, nz;            /* ME: continuous states, event indicators */
    int nsub;                 /* ME: RK4 substeps per interval (>= 1) */
    double *x, *dx, *xt, *k1, *k2, *k3, *z, *zprev; /* ME work arrays (one block: x) */
    int next_event_defined;   /* ME: a time event is pending at next_event */
    double next_event;
    unsigned max_event_iterations; /* ME: calls per event instant (1000) */
    /* CS and RK4 hooks (may be NULL; CVODE has the host's): the inputs for the interval from t
     * (before the step; nonzero: FMUC_STEP_INPUTS), and before the step (nonzero:
     * FMUC_STEP_HOOK) */
    int (*inputs)(void *user, fmuc_inst *in, double t);
    int (*before_step)(void *user, fmuc_inst *in, double t, double h);
    void *user;
    /* CS: when not NULL, the phase announced before each step (fmuc_worker_phase_at with
     * step_no, which the caller sets) */
    const char *cs_phase;
    long long step_no;
    int query_discard;        /* CS: after Discard ask terminated / last successful time */
    int cs_no_set_prior;      /* CS: noSetFMUStatePriorToCurrentPoint of each step (0: false) */
    double cs_h;              /* CS: when > 0, the communicationStepSize of each step instead of
                               * tb - ta (a probe of exact step sizes from one point; a run on a
                               * grid passes tb - ta, so that tc + h is the next tc, and
                               * fmuc_drive_step_size keeps it constant where it must be) */
    /* ME with CVODE: the run's side, its state and counters */
    const fmuc_step_host *host;
    double t;                 /* time reached */
    double tnext;             /* next time event (HUGE_VAL when none) */
    double *nom;              /* nominals of the states (atol = rtol * nominal) */
    double eps;               /* times this close are the same */
    int cis_needed;           /* CompletedIntegratorStep after each accepted step */
    int term_after;           /* FMUC_STEP_TERM_* after an outcome that ends the run */
    int terminated_by_fmu;    /* the FMU asked to end (CompletedIntegratorStep, an event) */
    int event_iteration_overflow; /* an event iteration did not settle */
    unsigned long long steps, rhs_evals, root_evals;
    double same_instant_t;        /* ME/CVODE: time events at one instant without a step between */
    unsigned same_instant_events; /* ... how many in a row (FMUC_STEP_SAME_INSTANT_MAX) */
    struct fmuc_step_cvode *cvode;
    /* the failure of the last call that failed: FMUC_STEP_FAILED */
    char call[160];           /* the call in FMI 2.0 wording ("fmi2SetTime(0.5)") */
    int status;
    char why[160];            /* FMUC_STEP_TERMINATE / FMUC_STEP_NO_SETTLE */
} fmuc_stepper;

/** CS, or ME (me) with nx states and nz event indicators (RK4; set solver for CVODE); in may be
 *  set later. 0, or -1 out of memory. */
int fmuc_stepper_init(fmuc_stepper *sp, fmuc_inst *in, int me, size_t nx, size_t nz);
void fmuc_stepper_free(fmuc_stepper *sp);

/** What a Co-Simulation interval returned. */
typedef struct fmuc_step_cs_out {
    fmuc_status status;       /* the step's (after the wait for Pending) */
    int pending;              /* the step returned Pending first */
    fmuc_inst_step_info info; /* 3.0: terminateSimulation, ... */
    /* Discard with query_discard (FMI 1.0/2.0 status queries, 3.0 the values DoStep returned) */
    fmuc_status st_terminated, st_last;
    int terminated;
    double last_successful_time;
} fmuc_step_cs_out;

/** Advance from ta to tb: inputs(ta), before_step(ta, h) (h = tb - ta, CS: cs_h when set),
 *  then CS: one step (cs: its outcome, may be NULL; a step that is not OK/Warning is
 *  FMUC_STEP_FAILED, an FMI 3.0 step that returned terminateSimulation FMUC_STEP_TERMINATE
 *  with why: the importer should stop there); ME with RK4: nsub substeps, each followed by
 *  CompletedIntegratorStep and, when an indicator changed sign, a time event is due or the FMU
 *  asked for it, Event Mode, the event iteration and Continuous-Time Mode with the states
 *  re-read. ME with CVODE (ta is sp->t): integrator steps (host hooks before and after each) up
 *  to tb, stopping at time events, with CompletedIntegratorStep, state, time, step and (at tb)
 *  input events handled; FMUC_STEP_OK at tb, FMUC_STEP_TERMINATE when the FMU asked to end (the
 *  run is complete), else FMUC_STEP_STOPPED (host->stop said why; term_after). */
fmuc_step_rc fmuc_step_interval(fmuc_stepper *sp, double ta, double tb, fmuc_step_cs_out *cs);

/** ME (RK4), in Event Mode: the event iteration (max_event_iterations), Continuous-Time Mode,
 *  the states and event indicators re-read. */
fmuc_step_rc fmuc_step_me_enter_ctm(fmuc_stepper *sp);
/** ME (RK4): re-read the continuous states and event indicators (after an FMU state was set). */
fmuc_step_rc fmuc_step_me_resync(fmuc_stepper *sp);

/** ME with CVODE, in Event Mode after initialization at t0: the event iteration (kind
 *  FMUC_SIM_EV_INIT), Continuous-Time Mode, states and nominals read. FMUC_STEP_OK,
 *  FMUC_STEP_TERMINATE (the FMU asked to end) or FMUC_STEP_STOPPED (term_after). */
fmuc_step_rc fmuc_step_cvode_start(fmuc_stepper *sp, double t0, unsigned max_event_iterations);
/** ME with CVODE: make the solver at t0 (relative tolerance rtol, absolute rtol * nominals;
 *  times within eps of stop's scale are the same). FMUC_STEP_OK, FMUC_STEP_NOMEM or
 *  FMUC_STEP_STOPPED. */
fmuc_step_rc fmuc_step_cvode_init(fmuc_stepper *sp, double t0, double rtol, double stop);

/** RK4 substep exactly as the VDSim core: x + (h/6)*(((k1 + 2k2) + 2k3) + k4), tiny values
 *  (|v| < 1e-200) flushed to a signed zero. */
double fmuc_step_rk4_combine(double x, double h6, double k1, double k2, double k3, double k4);

#endif
