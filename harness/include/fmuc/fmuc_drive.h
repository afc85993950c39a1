/* The life-cycle driver's start (worker side): bring a fresh instance (fmuc_inst.h) into a state
 * of the state machine with legal calls, version-neutral. The simulation driver (fmuc_sim.h) and
 * every check that needs an instance in a given state (the illegal-call probes, the ME sessions,
 * the API probes) start here, so there is one way through the life cycle and the states are the
 * state table's (FMUC_ST_*, fmuc_sim.h / fmi2_states.def).
 *
 *   fmuc_drive_start st; fmuc_drive_reached r;
 *   fmuc_drive_start_init(&st, md);                 // default experiment's start, nothing else
 *   if (fmuc_drive_reach(in, FMUC_ST_CTM, &st, &r) != 0) ... r.failed_op, r.status ...
 */
#ifndef FMUC_DRIVE_H
#define FMUC_DRIVE_H

#include "fmuc/fmuc_inst.h"
#include "fmuc/fmuc_md.h"
#include "fmuc/fmuc_sim.h" /* the states FMUC_ST_* */

typedef struct fmuc_drive_start {
    fmuc_inst_experiment exp;   /* passed to fmuc_inst_setup_experiment */
    unsigned max_iterations;    /* ME initial event iteration: calls at most (100) */
    int stop_on_terminate;      /* ME: end (return 1) when the initial iteration asks to
                                   terminate, instead of going on */
    /* phases announced (fmuc_worker_phase) before set-up, before the initial event iteration and
     * after Continuous-Time Mode was entered; NULL: none */
    const char *phase_init, *phase_iteration, *phase_ctm;
    /** Per-step hooks: after every call the driver makes (op, its status), and in Initialization
     *  Mode before it is left (inputs, start values; nonzero ends the start with -1). */
    void (*on_call)(void *user, fmuc_inst_op op, int status);
    int (*in_init)(void *user, fmuc_inst *in);
    void *user;
} fmuc_drive_start;

/** Defaults: start time from the default experiment (else 0), tolerance and stop not defined,
 *  100 iterations, no phases, no hooks. */
void fmuc_drive_start_init(fmuc_drive_start *st, const fmuc_md *md);

typedef struct fmuc_drive_reached {
    int failed_op;              /* fmuc_inst_op of the call that failed; -1 none */
    int status;                 /* its status */
    int no_settle;              /* the initial event iteration did not settle */
    int hook_stopped;           /* in_init returned nonzero */
    unsigned iterations;        /* update_discrete_states calls of the initial event iteration */
    fmuc_inst_event_info info;  /* the last of them */
    int worst;                  /* worst status of the driver's calls (OK .. Fatal, or invalid) */
} fmuc_drive_reached;

/** The state right after initialization for interface iface: ME Event Mode (FMUC_ST_EM), CS Step
 *  Mode (FMUC_ST_SC), FMI 3.0 SE Clock Activation Mode (FMUC_ST_CAM). */
static inline unsigned fmuc_drive_after_init_state(fmuc_iface iface)
{
    return iface == FMUC_IFACE_ME ? FMUC_ST_EM : iface == FMUC_IFACE_SE ? FMUC_ST_CAM : FMUC_ST_SC;
}

/** Drive in (instantiated) to target: FMUC_ST_INST (nothing), FMUC_ST_INIT (set up, enter
 *  Initialization Mode), FMUC_ST_EM (ME: initialization left, before the event iteration),
 *  FMUC_ST_SC (CS: initialization left), FMUC_ST_CAM (FMI 3.0 SE: initialization left, Clock
 *  Activation Mode), FMUC_ST_CTM (ME: initial event iteration, Continuous-
 *  Time Mode), FMUC_ST_TERM (CS: after initialization, ME: after the event iteration;
 *  terminate). Returns 0 when there, 1 when the FMU asked to terminate in the initial iteration
 *  (stop_on_terminate), -1 when a call failed (not OK/Warning: failed_op, status), the iteration
 *  did not settle (no_settle) or a hook stopped it. The instance is not freed. */
int fmuc_drive_reach(fmuc_inst *in, unsigned target, const fmuc_drive_start *st,
                     fmuc_drive_reached *out);

/** The communicationStepSize a master passes for a step of h from t (Co-Simulation). Without
 *  canHandleVariableCommunicationStepSize the master keeps the step size constant (FMI 2.0.4
 *  §4.3.1, FMI 3.0.2 §4.4 and the 1.0 CS capability of the same name): an h that differs from
 *  the instance's previous step size only by the rounding of two grid points (t0 + (k+1)*h minus
 *  t0 + k*h: a few units in the last place of t) is passed as that previous size, bit for bit,
 *  unless the previous size would take the step past a stopTime that h stays within. Any other
 *  h (a first step, a step meant to be shorter, an FMU with the capability, Model Exchange) is
 *  passed as it is. */
double fmuc_drive_step_size(const fmuc_inst *in, double t, double h);

/** One communication step as a master makes it (Co-Simulation): fmuc_inst_do_step with
 *  fmuc_drive_step_size's step size, and when the
 *  step returns Pending (an asynchronous step, FMI 2.0 §4.2.2, FMI 1.0 CS §3.4), the wait for it:
 *  the DoStep status is polled (fmuc_inst_cs_status FMUC_INST_Q_DO_STEP_STATUS, backing off from
 *  0.1 ms to 10 ms; the worker's time limit bounds a step that never ends) until it is no longer
 *  Pending, and that status is the step's. A poll that fails ends the wait with its status. The
 *  driver waits whether or not the FMU declares canRunAsynchronuously, so that the rest of the
 *  run is still judged; *pending (may be NULL) says the step returned Pending, and whether it
 *  was allowed to is api-status-codes's question. */
fmuc_status fmuc_drive_do_step(fmuc_inst *in, double t, double h, int no_set_prior,
                               fmuc_inst_step_info *info, int *pending);

#endif
