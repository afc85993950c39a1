/* The life-cycle driver's start: one way into every state of the state machine (fmuc_drive.h). */
#include <math.h>
#include <string.h>
#include <time.h>

#include "fmuc/fmuc_drive.h"
#include "fmuc/fmuc_sim.h"
#include "fmuc/fmuc_step.h"

void fmuc_drive_start_init(fmuc_drive_start *st, const fmuc_md *md)
{
    memset(st, 0, sizeof *st);
    st->exp.start = md && md->experiment.present && md->experiment.has_start
                        ? md->experiment.start_time
                        : 0.0;
    st->max_iterations = 100;
}

static int worse(int a, int b)
{
    /* Error and Fatal are kept, the larger wins; anything else is not "worse" here */
    if (b == FMUC_STATUS_ERROR || b == FMUC_STATUS_FATAL)
        return b > a ? b : a;
    return a;
}

/* one call's status: hook, worst, failure */
static int step(fmuc_inst *in, const fmuc_drive_start *st, fmuc_drive_reached *out,
                fmuc_inst_op op, int status)
{
    (void)in;
    if (st->on_call)
        st->on_call(st->user, op, status);
    out->worst = worse(out->worst, status);
    if (fmuc_status_ok(status))
        return 0;
    out->failed_op = (int)op;
    out->status = status;
    return -1;
}

/* the initial event iteration's calls go through step() as the driver's own */
typedef struct reach_ctx {
    fmuc_inst *in;
    const fmuc_drive_start *st;
    fmuc_drive_reached *out;
} reach_ctx;

static void iteration_call(void *user, fmuc_inst_op op, int status, unsigned iteration)
{
    reach_ctx *c = user;
    (void)iteration;
    step(c->in, c->st, c->out, op, status);
}

int fmuc_drive_reach(fmuc_inst *in, unsigned target, const fmuc_drive_start *st,
                     fmuc_drive_reached *out)
{
    fmuc_worker_ctx *ctx = fmuc_inst_ctx(in);
    int me = fmuc_inst_iface(in) == FMUC_IFACE_ME;
    unsigned max = st->max_iterations ? st->max_iterations : 100;

    memset(out, 0, sizeof *out);
    out->failed_op = -1;
    if (target == FMUC_ST_INST)
        return 0;
    if (st->phase_init)
        fmuc_worker_phase(ctx, "%s", st->phase_init);
    if (step(in, st, out, FMUC_INST_OP_SETUP_EXPERIMENT, fmuc_inst_setup_experiment(in, &st->exp)) ||
        step(in, st, out, FMUC_INST_OP_ENTER_INIT, fmuc_inst_enter_initialization_mode(in)))
        return -1;
    if (target == FMUC_ST_INIT)
        return 0;
    if (st->in_init && st->in_init(st->user, in)) {
        out->hook_stopped = 1;
        return -1;
    }
    if (step(in, st, out, FMUC_INST_OP_EXIT_INIT, fmuc_inst_exit_initialization_mode(in)))
        return -1;
    if (target == FMUC_ST_EM || target == FMUC_ST_SC || target == FMUC_ST_CAM ||
        (target == FMUC_ST_TERM && !me))
        goto term;
    /* ME: the initial event iteration, then Continuous-Time Mode */
    if (st->phase_iteration)
        fmuc_worker_phase(ctx, "%s", st->phase_iteration);
    /* the step-wise driver's event iteration (fmuc_step.h), each call through step() */
    reach_ctx rc = {in, st, out};
    fmuc_step_event ev;
    int k = fmuc_step_event_iteration(in, max, NULL, iteration_call, &rc, &ev);
    out->iterations = ev.iterations;
    out->info = ev.info;
    if (k < 0 && ev.failed)
        return -1;
    if (k < 0) {
        out->no_settle = 1;
        return -1;
    }
    if (out->info.terminate_simulation && st->stop_on_terminate)
        return 1;
    if (target == FMUC_ST_TERM)
        goto term;
    if (step(in, st, out, FMUC_INST_OP_ENTER_CT_MODE, fmuc_inst_enter_continuous_time_mode(in)))
        return -1;
    if (st->phase_ctm)
        fmuc_worker_phase(ctx, "%s", st->phase_ctm);
    return 0;
term:
    if (target != FMUC_ST_TERM)
        return 0;
    return step(in, st, out, FMUC_INST_OP_TERMINATE, fmuc_inst_terminate(in));
}

/* The distance between two representable numbers at |x| */
static double ulp(double x)
{
    x = fabs(x);
    return nextafter(x, INFINITY) - x;
}

double fmuc_drive_step_size(const fmuc_inst *in, double t, double h)
{
    if (fmuc_inst_iface(in) != FMUC_IFACE_CS || !fmuc_inst_ctx(in))
        return h;
    const fmuc_fmu *fmu = fmuc_worker_fmu(fmuc_inst_ctx(in));
    if (!fmu || (fmu->md.cs.caps >> FMUC_CAP_CAN_HANDLE_VARIABLE_COMMUNICATION_STEP_SIZE) & 1u)
        return h;
    double prev = fmuc_inst_last_step_size(in);
    if (!(prev > 0.0) || !isfinite(h) || !isfinite(t) || h == prev)
        return h;
    /* two grid points t0 + k*h, each rounded, differ from h by a few units in the last place of
     * the time; a step meant to be another size differs by far more */
    if (fabs(h - prev) > 4.0 * ulp(fabs(t) + fabs(h)) + 4.0 * ulp(prev))
        return h;
    const fmuc_inst_experiment *e = fmuc_inst_experiment_set(in);
    if (e->stop_defined && t + prev > e->stop && !(t + h > e->stop))
        return h; /* the constant step would pass the stop time the step stays within */
    return prev;
}

fmuc_status fmuc_drive_do_step(fmuc_inst *in, double t, double h, int no_set_prior,
                               fmuc_inst_step_info *info, int *pending)
{
    fmuc_status st = fmuc_inst_do_step(in, t, fmuc_drive_step_size(in, t, h), no_set_prior, info);
    long wait_ns = 100000;
    if (pending)
        *pending = st == FMUC_STATUS_PENDING;
    while (st == FMUC_STATUS_PENDING) {
        int value = FMUC_STATUS_PENDING;
        fmuc_status q = fmuc_inst_cs_status(in, FMUC_INST_Q_DO_STEP_STATUS, &value);
        if (!fmuc_status_ok(q))
            return q;
        if (value != FMUC_STATUS_PENDING)
            return (fmuc_status)value;
        struct timespec ts = {0, wait_ns};
        nanosleep(&ts, NULL);
        if (wait_ns < 10000000)
            wait_ns *= 2;
    }
    return st;
}
