/* The step-wise driver: one communication interval of a started instance (fmuc_step.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "fmuc/fmuc_drive.h"
#include "fmuc/fmuc_step.h"
#include "fmuc/fmuc_worker.h"

static int bad(int st) { return !fmuc_status_ok(st); }

int fmuc_step_event_iteration(fmuc_inst *in, unsigned max, fmuc_step_in_event_fn in_event,
                              fmuc_step_on_call_fn on_call, void *user, fmuc_step_event *out)
{
    memset(out, 0, sizeof *out);
    if (in_event && in_event(user, in, 0, NULL)) {
        out->hook_stopped = 1;
        return -1;
    }
    for (;;) {
        int st = fmuc_inst_update_discrete_states(in, &out->info);
        out->iterations++;
        if (on_call)
            on_call(user, FMUC_INST_OP_UPDATE_DISCRETE_STATES, st, out->iterations);
        if (bad(st)) {
            out->failed = 1;
            out->status = st;
            return -1;
        }
        if (out->info.values_changed)
            out->states_changed = 1;
        if (out->info.nominals_changed)
            out->nominals_changed = 1;
        if (in_event && in_event(user, in, out->iterations, &out->info)) {
            out->hook_stopped = 1;
            return -1;
        }
        if (out->info.terminate_simulation)
            return 1;
        if (!out->info.new_discrete_states_needed)
            return 0;
        if (out->iterations >= max) {
            out->no_settle = 1;
            return -1;
        }
    }
}

int fmuc_stepper_init(fmuc_stepper *sp, fmuc_inst *in, int me, size_t nx, size_t nz)
{
    memset(sp, 0, sizeof *sp);
    sp->in = in;
    sp->me = me;
    sp->nx = nx;
    sp->nz = nz;
    sp->nsub = 1;
    sp->max_event_iterations = 1000;
    sp->tnext = HUGE_VAL;
    if (!sp->me)
        return 0;
    size_t n = nx ? nx : 1, m = nz ? nz : 1;
    double *blk = calloc(7 * n + 2 * m, sizeof *blk);
    if (!blk)
        return -1;
    sp->nom = blk + 6 * n + 2 * m;
    for (size_t i = 0; i < n; i++)
        sp->nom[i] = 1.0;
    sp->x = blk;
    sp->dx = blk + n;
    sp->xt = blk + 2 * n;
    sp->k1 = blk + 3 * n;
    sp->k2 = blk + 4 * n;
    sp->k3 = blk + 5 * n;
    sp->z = blk + 6 * n;
    sp->zprev = blk + 6 * n + m;
    return 0;
}

static void cvode_free(fmuc_stepper *sp);

void fmuc_stepper_free(fmuc_stepper *sp)
{
    cvode_free(sp);
    free(sp->x);
    sp->x = NULL;
}

static fmuc_step_rc failed(fmuc_stepper *sp, const char *call, int st)
{
    snprintf(sp->call, sizeof sp->call, "%s", call);
    sp->status = st;
    return FMUC_STEP_FAILED;
}

/* The same for the FMI function fn of the instance's version and interface ("fmiDoStep",
 * "fmi3GetContinuousStates"). */
static fmuc_step_rc failed_fn(fmuc_stepper *sp, fmuc_iface iface, int fn, int st)
{
    char nb[64];
    return failed(sp, fmuc_sim_fn_name_v(fmuc_inst_fmi_version(sp->in), iface, fn, nb, sizeof nb),
                  st);
}

/* ---- Co-Simulation ------------------------------------------------------------------------ */

static fmuc_step_rc cs_step(fmuc_stepper *sp, double ta, double h, fmuc_step_cs_out *o)
{
    if (sp->cs_phase)
        fmuc_worker_phase_at(fmuc_inst_ctx(sp->in), sp->cs_phase, sp->step_no, ta);
    o->status = fmuc_drive_do_step(sp->in, ta, h, sp->cs_no_set_prior, &o->info, &o->pending);
    o->st_terminated = o->st_last = FMUC_STATUS_OK;
    o->terminated = 0;
    o->last_successful_time = NAN;
    if (o->status == FMUC_STATUS_DISCARD && sp->query_discard) {
        o->st_terminated = fmuc_inst_cs_status(sp->in, FMUC_INST_Q_TERMINATED, &o->terminated);
        o->st_last = fmuc_inst_cs_status(sp->in, FMUC_INST_Q_LAST_SUCCESSFUL_TIME,
                                         &o->last_successful_time);
    }
    if (bad(o->status)) {
        char cb[128], nb[64];
        snprintf(cb, sizeof cb, "%s(t=%.17g, h=%.17g)",
                 fmuc_sim_fn_name_v(fmuc_inst_fmi_version(sp->in), FMUC_IFACE_CS,
                                    FMUC_SIM_FN_DoStep, nb, sizeof nb),
                 ta, fmuc_inst_last_step_size(sp->in)); /* the size passed (fmuc_drive_step_size) */
        return failed(sp, cb, o->status);
    }
    if (o->info.terminate_simulation && fmuc_inst_fmi_version(sp->in) == 3) {
        /* fmi3DoStep's terminateSimulation: the FMU asks to stop and the importer should
         * (FMI 3.0.2 §4.2.1); the step itself succeeded */
        snprintf(sp->why, sizeof sp->why,
                 "fmi3DoStep(t=%.17g, h=%.17g) returned terminateSimulation = true", ta,
                 fmuc_inst_last_step_size(sp->in));
        return FMUC_STEP_TERMINATE;
    }
    return FMUC_STEP_OK;
}

/* ---- Model Exchange: fixed-step RK4 ------------------------------------------------------- */

fmuc_step_rc fmuc_step_me_resync(fmuc_stepper *sp)
{
    int st;
    if (sp->nx) {
        st = fmuc_inst_get_continuous_states(sp->in, sp->x, sp->nx);
        if (bad(st))
            return failed_fn(sp, FMUC_IFACE_ME, FMUC_SIM_FN_GetContinuousStates, st);
    }
    if (sp->nz) {
        st = fmuc_inst_get_event_indicators(sp->in, sp->zprev, sp->nz);
        if (bad(st))
            return failed_fn(sp, FMUC_IFACE_ME, FMUC_SIM_FN_GetEventIndicators, st);
    }
    return FMUC_STEP_OK;
}

fmuc_step_rc fmuc_step_me_enter_ctm(fmuc_stepper *sp)
{
    fmuc_step_event ev;
    unsigned max = sp->max_event_iterations ? sp->max_event_iterations : 1000;
    int k = fmuc_step_event_iteration(sp->in, max, NULL, NULL, NULL, &ev);
    if (k > 0) {
        snprintf(sp->why, sizeof sp->why, "the FMU requested terminateSimulation in event mode");
        return FMUC_STEP_TERMINATE;
    }
    if (k < 0 && ev.failed)
        return failed_fn(sp, FMUC_IFACE_ME, FMUC_SIM_FN_NewDiscreteStates, ev.status);
    if (k < 0) {
        snprintf(sp->why, sizeof sp->why, "event iteration did not converge in %u rounds", max);
        return FMUC_STEP_NO_SETTLE;
    }
    sp->next_event_defined = ev.info.next_event_time_defined != 0;
    sp->next_event = ev.info.next_event_time;
    int st = fmuc_inst_enter_continuous_time_mode(sp->in);
    if (bad(st))
        return failed_fn(sp, FMUC_IFACE_ME, FMUC_SIM_FN_EnterContinuousTimeMode, st);
    return fmuc_step_me_resync(sp);
}

double fmuc_step_rk4_combine(double x, double h6, double k1, double k2, double k3, double k4)
{
    double v = x + h6 * (((k1 + 2.0 * k2) + 2.0 * k3) + k4);
    if (fabs(v) < 1e-200)
        v = copysign(0.0, v);
    return v;
}

static fmuc_step_rc me_deriv(fmuc_stepper *sp, const double *x, double *k, int set)
{
    int st;
    if (set) {
        st = fmuc_inst_set_continuous_states(sp->in, x, sp->nx);
        if (bad(st))
            return failed_fn(sp, FMUC_IFACE_ME, FMUC_SIM_FN_SetContinuousStates, st);
    }
    st = fmuc_inst_get_derivatives(sp->in, k, sp->nx);
    if (bad(st))
        return failed_fn(sp, FMUC_IFACE_ME, FMUC_SIM_FN_GetDerivatives, st);
    return FMUC_STEP_OK;
}

static fmuc_step_rc me_settime(fmuc_stepper *sp, double t)
{
    int st = fmuc_inst_set_time(sp->in, t);
    if (bad(st)) {
        char cb[96], nb[64];
        snprintf(cb, sizeof cb, "%s(%.17g)",
                 fmuc_sim_fn_name_v(fmuc_inst_fmi_version(sp->in), FMUC_IFACE_ME,
                                    FMUC_SIM_FN_SetTime, nb, sizeof nb),
                 t);
        return failed(sp, cb, st);
    }
    return FMUC_STEP_OK;
}

static fmuc_step_rc me_rk4(fmuc_stepper *sp, double ta, double tb)
{
    size_t nx = sp->nx;
    int n = sp->nsub > 0 ? sp->nsub : 1;
    double h = (tb - ta) / (double)n, hh = 0.5 * h, h6 = h / 6.0;
    fmuc_step_rc rc;
    int st;
    for (int s = 0; s < n; s++) {
        double ts = ta + (double)s * h;
        double te = s + 1 == n ? tb : ta + (double)(s + 1) * h;
        if (nx) {
            /* the FMU holds x at ts already (set at the end of the previous substep) */
            if ((rc = me_deriv(sp, sp->x, sp->dx, 0)) != FMUC_STEP_OK)
                return rc;
            for (size_t i = 0; i < nx; i++)
                sp->xt[i] = sp->x[i] + hh * sp->dx[i];
            if ((rc = me_settime(sp, ts + hh)) != FMUC_STEP_OK ||
                (rc = me_deriv(sp, sp->xt, sp->k1, 1)) != FMUC_STEP_OK)
                return rc;
            for (size_t i = 0; i < nx; i++)
                sp->xt[i] = sp->x[i] + hh * sp->k1[i];
            if ((rc = me_deriv(sp, sp->xt, sp->k2, 1)) != FMUC_STEP_OK)
                return rc;
            for (size_t i = 0; i < nx; i++)
                sp->xt[i] = sp->x[i] + h * sp->k2[i];
            if ((rc = me_settime(sp, te)) != FMUC_STEP_OK ||
                (rc = me_deriv(sp, sp->xt, sp->k3, 1)) != FMUC_STEP_OK)
                return rc;
            for (size_t i = 0; i < nx; i++)
                sp->x[i] = fmuc_step_rk4_combine(sp->x[i], h6, sp->dx[i], sp->k1[i], sp->k2[i],
                                                 sp->k3[i]);
            st = fmuc_inst_set_continuous_states(sp->in, sp->x, nx);
            if (bad(st))
                return failed_fn(sp, FMUC_IFACE_ME, FMUC_SIM_FN_SetContinuousStates, st);
        } else if ((rc = me_settime(sp, te)) != FMUC_STEP_OK) {
            return rc;
        }
        int enter = 0, term = 0;
        st = fmuc_inst_completed_integrator_step(sp->in, 0, &enter, &term);
        if (bad(st))
            return failed_fn(sp, FMUC_IFACE_ME, FMUC_SIM_FN_CompletedIntegratorStep, st);
        if (term) {
            char nb[64];
            snprintf(sp->why, sizeof sp->why, "%s at t=%.17g requested terminateSimulation",
                     fmuc_sim_fn_name_v(fmuc_inst_fmi_version(sp->in), FMUC_IFACE_ME,
                                        FMUC_SIM_FN_CompletedIntegratorStep, nb, sizeof nb),
                     te);
            return FMUC_STEP_TERMINATE;
        }
        int ev = enter != 0;
        if (sp->nz) {
            st = fmuc_inst_get_event_indicators(sp->in, sp->z, sp->nz);
            if (bad(st))
                return failed_fn(sp, FMUC_IFACE_ME, FMUC_SIM_FN_GetEventIndicators, st);
            for (size_t j = 0; j < sp->nz; j++)
                if ((sp->z[j] > 0) != (sp->zprev[j] > 0))
                    ev = 1;
            memcpy(sp->zprev, sp->z, sp->nz * sizeof *sp->z);
        }
        if (sp->next_event_defined && sp->next_event <= te)
            ev = 1;
        if (ev) {
            st = fmuc_inst_enter_event_mode(sp->in);
            if (bad(st))
                return failed_fn(sp, FMUC_IFACE_ME, FMUC_SIM_FN_EnterEventMode, st);
            if ((rc = fmuc_step_me_enter_ctm(sp)) != FMUC_STEP_OK)
                return rc;
        }
    }
    return FMUC_STEP_OK;
}

/* ---- Model Exchange: CVODE ------------------------------------------------------------------ */

struct fmuc_step_cvode {
    SUNContext sunctx;
    N_Vector y, atol;
    SUNMatrix A;
    SUNLinearSolver LS;
    void *cv;
    int *rootsfound;
    int cb_failed;            /* an RHS/root callback hit a hard failure (reason given) */
    char msg[256];            /* CVODE's last error message */
    double t_synced;          /* time last given to SetTime, with the continuous inputs */
    int synced;               /* t_synced is valid */
    double stop;              /* the run's stop time (time never moves past it) */
};

static int ok(fmuc_status st) { return fmuc_status_ok(st); }

static void hstop(fmuc_stepper *sp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void hstop(fmuc_stepper *sp, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    sp->host->stop(sp->host->user, buf);
}

/* Count one call with the host; detail (formatted only for a call that failed) */
static fmuc_status hrec(fmuc_stepper *sp, int fn, fmuc_status st, double t, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static fmuc_status hrec(fmuc_stepper *sp, int fn, fmuc_status st, double t, const char *fmt, ...)
{
    char buf[96];
    buf[0] = '\0';
    if (!ok(st) && fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf, sizeof buf, fmt, ap);
        va_end(ap);
    }
    sp->host->on_call(sp->host->user, fn, st, t, fmt && !ok(st) ? buf : NULL);
    return st;
}

static int ver_of(const fmuc_stepper *sp) { return fmuc_inst_fmi_version(sp->in); }

static const char *fnname(const fmuc_stepper *sp, int fn, char *buf, size_t n)
{
    return fmuc_sim_fn_name_v(ver_of(sp), FMUC_IFACE_ME, fn, buf, n);
}

/* A call failed hard (Error/Fatal/invalid): the stop reason names it. */
static void stop_call(fmuc_stepper *sp, int fn, fmuc_status st, double t)
{
    char b[32], nb[64];
    hstop(sp, "%s returned %s at t=%.17g", fnname(sp, fn, nb, sizeof nb),
          fmuc_status_name(ver_of(sp), st, b, sizeof b), t);
}

/* The vector kinds the driver reads from the FMU, for all_finite. */
typedef enum { VEC_STATES, VEC_DERIVATIVES, VEC_INDICATORS } vec_kind;

/* The variable behind state/derivative i: ModelStructure <Derivatives> entry i is der(x_i), and
 * its derivative attribute names x_i (§2.2.8). NULL when the model description does not say. */
static const char *vec_name(const fmuc_stepper *sp, vec_kind k, size_t i)
{
    const fmuc_fmu *fmu = fmuc_worker_fmu(fmuc_inst_ctx(sp->in));
    const fmuc_md *md = &fmu->md;
    if (k == VEC_INDICATORS || i >= md->nderivatives || sp->nx != md->nderivatives)
        return NULL;
    uint32_t d = md->derivatives[i].index;
    if (d < 1 || d > md->nvars)
        return NULL;
    const fmuc_md_var *dv = &md->vars[d - 1];
    if (k == VEC_DERIVATIVES)
        return dv->name;
    return dv->derivative >= 1 && dv->derivative <= md->nvars ? md->vars[dv->derivative - 1].name
                                                              : NULL;
}

/* 0 when v[0..n) are all finite (copied to out when not NULL); else the first other value is
 * given to the host as "x[3]", "der(x[3])" or "z[3]" (with the variable's name when the model
 * description gives it), the run is stopped naming it, and -1. */
static int all_finite(fmuc_stepper *sp, double t, vec_kind k, const double *v, double *out,
                      size_t n)
{
    static const char *const what[] = {"state", "derivative", "eventIndicator"};
    static const char *const pre[] = {"x[", "der(x[", "z["}, *const post[] = {"]", "])", "]"};
    static const char *const said[] = {"continuous state", "state derivative", "event indicator"};
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(v[i])) {
            char nm[96];
            const char *var = vec_name(sp, k, i);
            if (var)
                snprintf(nm, sizeof nm, "%s%zu%s '%.60s'", pre[k], i, post[k], var);
            else
                snprintf(nm, sizeof nm, "%s%zu%s", pre[k], i, post[k]);
            sp->host->nonfinite(sp->host->user, t, what[k], nm, v[i]);
            hstop(sp, "non-finite %s at t=%.17g", said[k], t);
            return -1;
        }
        if (out)
            out[i] = v[i];
    }
    return 0;
}

/* The in_event hook at the instant being iterated */
typedef struct ev_ctx {
    fmuc_stepper *sp;
    double t;
    int kind;
} ev_ctx;

static void ev_on_call(void *user, fmuc_inst_op op, int status, unsigned iteration)
{
    ev_ctx *e = user;
    (void)op;
    hrec(e->sp, FMUC_SIM_FN_NewDiscreteStates, (fmuc_status)status, e->t, "iteration %u",
         iteration);
}

static int ev_in_event(void *user, fmuc_inst *in, unsigned iteration,
                       const fmuc_inst_event_info *info)
{
    ev_ctx *e = user;
    const fmuc_sim_hooks *hk = e->sp->host->hooks;
    return hk->in_event && hk->in_event(hk->user, in, e->t, e->kind, iteration, info);
}

/* The event iteration at one instant (F-02), recorded with the host. Returns 0 (settled), 1
 * (the FMU asked to terminate), -1 (failure or no settling: stop given). *states_changed and
 * *nominals_changed are or-ed over the iterations; sp->tnext is updated. */
static int cv_event_iteration(fmuc_stepper *sp, double t, int kind, int root, unsigned max,
                              int *states_changed, int *nominals_changed)
{
    const fmuc_step_host *h = sp->host;
    fmuc_step_event ev;
    ev_ctx e = {sp, t, kind};
    char nb[64];
    fmuc_worker_phase(fmuc_inst_ctx(sp->in), "event iteration (t=%.9g)", t);
    int k = fmuc_step_event_iteration(sp->in, max, ev_in_event, ev_on_call, &e, &ev);
    unsigned it = ev.iterations;
    *states_changed = ev.states_changed;
    *nominals_changed = ev.nominals_changed;
    if (k < 0 && ev.failed) {
        stop_call(sp, FMUC_SIM_FN_NewDiscreteStates, (fmuc_status)ev.status, t);
        h->event(h->user, t, kind, it, *states_changed, root);
        return -1;
    }
    h->event(h->user, t, kind, it, *states_changed, root);
    if (k < 0 && ev.hook_stopped) {
        hstop(sp, "stopped by hook at t=%.17g", t);
        return -1;
    }
    if (k > 0) {
        sp->terminated_by_fmu = 1;
        return 1;
    }
    if (k < 0) { /* no_settle */
        sp->event_iteration_overflow = 1;
        hstop(sp, "event iteration did not settle: %s still reports %s after %u iterations "
                  "at t=%.17g",
              fnname(sp, FMUC_SIM_FN_NewDiscreteStates, nb, sizeof nb),
              ver_of(sp) == 3 ? "discreteStatesNeedUpdate" : "newDiscreteStatesNeeded", it, t);
        return -1;
    }
    if (ev.info.next_event_time_defined) {
        /* "integrate at most until time = nextEventTime" (FMI 2.0.4 §3.2.2): a time event at
         * the instant just handled is due at once (the loop enters Event Mode again at t, at
         * most FMUC_STEP_SAME_INSTANT_MAX times in a row); one before it cannot be reached */
        if (!isfinite(ev.info.next_event_time) || ev.info.next_event_time < t - sp->eps) {
            /* FMI 1.0: the first answer after initialization is fmiInitialize's eventInfo
             * (inst_fmi1.c), handed out without an fmiEventUpdate */
            hstop(sp, "%s at t=%.17g announced nextEventTime=%.17g (not "
                      "finite or before the current time)",
                  ev.info.from_initialize
                      ? "fmiInitialize"
                      : fnname(sp, FMUC_SIM_FN_NewDiscreteStates, nb, sizeof nb),
                  t, ev.info.next_event_time);
            return -1;
        }
        sp->tnext = ev.info.next_event_time;
    } else {
        sp->tnext = HUGE_VAL;
    }
    return 0;
}

static int read_states(fmuc_stepper *sp, double t, int nominals)
{
    if (!sp->nx)
        return 0;
    fmuc_status st = hrec(sp, FMUC_SIM_FN_GetContinuousStates,
                          fmuc_inst_get_continuous_states(sp->in, sp->x, sp->nx), t, "nx=%zu",
                          sp->nx);
    if (!ok(st)) {
        stop_call(sp, FMUC_SIM_FN_GetContinuousStates, st, t);
        return -1;
    }
    if (all_finite(sp, t, VEC_STATES, sp->x, NULL, sp->nx) < 0)
        return -1;
    if (nominals) {
        st = hrec(sp, FMUC_SIM_FN_GetNominalsOfContinuousStates,
                  fmuc_inst_get_nominals(sp->in, sp->nom, sp->nx), t, "nx=%zu", sp->nx);
        if (!ok(st)) {
            stop_call(sp, FMUC_SIM_FN_GetNominalsOfContinuousStates, st, t);
            return -1;
        }
        for (size_t i = 0; i < sp->nx; i++) /* only used for the absolute tolerance here */
            if (!isfinite(sp->nom[i]) || !(sp->nom[i] > 0.0))
                sp->nom[i] = 1.0;
    }
    return 0;
}

fmuc_step_rc fmuc_step_cvode_start(fmuc_stepper *sp, double t0, unsigned max_event_iterations)
{
    int sc, nc;
    sp->t = t0;
    int k = cv_event_iteration(sp, t0, FMUC_SIM_EV_INIT, -1, max_event_iterations, &sc, &nc);
    if (k < 0) {
        sp->term_after = FMUC_STEP_TERM_UNLESS_ERROR;
        return FMUC_STEP_STOPPED;
    }
    if (k > 0)
        return FMUC_STEP_TERMINATE;
    sp->max_event_iterations = max_event_iterations;
    fmuc_status st = hrec(sp, FMUC_SIM_FN_EnterContinuousTimeMode,
                          fmuc_inst_enter_continuous_time_mode(sp->in), t0, NULL);
    if (!ok(st)) {
        stop_call(sp, FMUC_SIM_FN_EnterContinuousTimeMode, st, t0);
        sp->term_after = FMUC_STEP_TERM_NO;
        return FMUC_STEP_STOPPED;
    }
    if (read_states(sp, t0, 1) < 0) { /* after the initial iteration: unconditionally (F-02) */
        sp->term_after = FMUC_STEP_TERM_UNLESS_ERROR;
        return FMUC_STEP_STOPPED;
    }
    return FMUC_STEP_OK;
}

/* Put the FMU at (t, y) with continuous inputs at t (inside CVODE callbacks and after steps). */
static int sync_fmu(fmuc_stepper *sp, double t, const double *y)
{
    struct fmuc_step_cvode *c = sp->cvode;
    fmuc_status st;
    /* CVODE evaluates several times at one t (Newton iterations, difference quotients): the time
     * and the continuous inputs (functions of t) are set again only when t changes, which FMI
     * 2.0 §3.2.1 allows (fmi2SetTime with the same time has no effect). */
    if (!c->synced || t != c->t_synced) {
        c->synced = 0;
        st = hrec(sp, FMUC_SIM_FN_SetTime, fmuc_inst_set_time(sp->in, t), t, NULL);
        if (!ok(st)) {
            stop_call(sp, FMUC_SIM_FN_SetTime, st, t);
            return -1;
        }
        if (sp->host->set_inputs(sp->host->user, t, FMUC_STEP_IN_CONTINUOUS) < 0)
            return -1;
        c->t_synced = t;
        c->synced = 1;
    }
    if (sp->nx) {
        st = hrec(sp, FMUC_SIM_FN_SetContinuousStates,
                  fmuc_inst_set_continuous_states(sp->in, y, sp->nx), t, "nx=%zu", sp->nx);
        if (st == FMUC_STATUS_DISCARD)
            return 1;
        if (!ok(st)) {
            stop_call(sp, FMUC_SIM_FN_SetContinuousStates, st, t);
            return -1;
        }
    }
    return 0;
}

/* sync_fmu at an accepted point (at_event 0) or at the nextEventTime time moved on to
 * (at_event 1); when it fails the run stops (a Discard named here, other statuses by
 * sync_fmu). 0, or -1 with the run stopped. */
static int sync_or_stop(fmuc_stepper *sp, double t, const double *y, int at_event)
{
    char nb[64], db[32];
    int ks = sync_fmu(sp, t, y);
    if (!ks)
        return 0;
    if (ks > 0)
        hstop(sp, at_event ? "%s returned %s at t=%.17g (nextEventTime)"
                           : "%s returned %s at an accepted step (t=%.17g)",
              fnname(sp, FMUC_SIM_FN_SetContinuousStates, nb, sizeof nb),
              fmuc_status_name(ver_of(sp), FMUC_STATUS_DISCARD, db, sizeof db), t);
    sp->term_after = FMUC_STEP_TERM_UNLESS_ERROR;
    return -1;
}

static int rhs(sunrealtype t, N_Vector y, N_Vector ydot, void *ud)
{
    fmuc_stepper *sp = ud;
    double *yd = N_VGetArrayPointer(ydot);
    sp->rhs_evals++;
    if (sp->cvode->cb_failed)
        return -1;
    int k = sync_fmu(sp, t, N_VGetArrayPointer(y));
    if (k)
        return k < 0 ? (sp->cvode->cb_failed = 1, -1) : 1;
    if (!sp->nx) {
        yd[0] = 0.0;
        return 0;
    }
    fmuc_status st = hrec(sp, FMUC_SIM_FN_GetDerivatives,
                          fmuc_inst_get_derivatives(sp->in, sp->dx, sp->nx), t, "nx=%zu", sp->nx);
    if (st == FMUC_STATUS_DISCARD)
        return 1; /* recoverable: CVODE retries with a smaller step */
    if (!ok(st)) {
        stop_call(sp, FMUC_SIM_FN_GetDerivatives, st, t);
        sp->cvode->cb_failed = 1;
        return -1;
    }
    if (all_finite(sp, t, VEC_DERIVATIVES, sp->dx, yd, sp->nx) < 0) {
        sp->cvode->cb_failed = 1;
        return -1;
    }
    return 0;
}

static int rootfn(sunrealtype t, N_Vector y, sunrealtype *g, void *ud)
{
    fmuc_stepper *sp = ud;
    sp->root_evals++;
    if (sp->cvode->cb_failed)
        return -1;
    if (sync_fmu(sp, t, N_VGetArrayPointer(y)) != 0) {
        sp->cvode->cb_failed = 1;
        return -1;
    }
    fmuc_status st = hrec(sp, FMUC_SIM_FN_GetEventIndicators,
                          fmuc_inst_get_event_indicators(sp->in, sp->z, sp->nz), t, "ni=%zu",
                          sp->nz);
    if (!ok(st)) {
        stop_call(sp, FMUC_SIM_FN_GetEventIndicators, st, t);
        sp->cvode->cb_failed = 1;
        return -1;
    }
    if (all_finite(sp, t, VEC_INDICATORS, sp->z, g, sp->nz) < 0) {
        sp->cvode->cb_failed = 1;
        return -1;
    }
    return 0;
}

static void cvode_err(int code, const char *module, const char *function, char *msg, void *ud)
{
    fmuc_stepper *sp = ud;
    (void)module;
    snprintf(sp->cvode->msg, sizeof sp->cvode->msg, "%s (%d): %s",
             function ? function : "CVODE", code, msg ? msg : "");
}

static void cvode_free(fmuc_stepper *sp)
{
    struct fmuc_step_cvode *c = sp->cvode;
    if (!c)
        return;
    if (c->cv)
        CVodeFree(&c->cv);
    if (c->LS)
        SUNLinSolFree(c->LS);
    if (c->A)
        SUNMatDestroy(c->A);
    if (c->y)
        N_VDestroy(c->y);
    if (c->atol)
        N_VDestroy(c->atol);
    if (c->sunctx)
        SUNContext_Free(&c->sunctx);
    free(c->rootsfound);
    free(c);
    sp->cvode = NULL;
}

fmuc_step_rc fmuc_step_cvode_init(fmuc_stepper *sp, double t0, double rtol, double stop)
{
    size_t N = sp->nx ? sp->nx : 1;
    struct fmuc_step_cvode *c = calloc(1, sizeof *c);
    sp->cvode = c;
    sp->t = t0;
    sp->eps = 1e-12 * fmax(1.0, fabs(stop)) + 1e-14;
    /* CVODE: BDF, dense Newton, atol_i = rtol * nominal_i */
    if (!c || SUNContext_Create(NULL, &c->sunctx) != 0 ||
        !(c->y = N_VNew_Serial((sunindextype)N, c->sunctx)) ||
        !(c->atol = N_VNew_Serial((sunindextype)N, c->sunctx)) ||
        !(c->A = SUNDenseMatrix((sunindextype)N, (sunindextype)N, c->sunctx)) ||
        !(c->LS = SUNLinSol_Dense(c->y, c->A, c->sunctx)) ||
        !(c->cv = CVodeCreate(CV_BDF, c->sunctx))) {
        hstop(sp, "cannot create the CVODE solver");
        return FMUC_STEP_NOMEM;
    }
    double *yv = N_VGetArrayPointer(c->y), *av = N_VGetArrayPointer(c->atol);
    for (size_t i = 0; i < N; i++) {
        yv[i] = sp->nx ? sp->x[i] : 0.0;
        av[i] = rtol * sp->nom[i];
    }
    c->stop = stop;
    if (CVodeSetErrHandlerFn(c->cv, cvode_err, sp) < 0 || CVodeInit(c->cv, rhs, t0, c->y) < 0 ||
        CVodeSVtolerances(c->cv, rtol, c->atol) < 0 || CVodeSetUserData(c->cv, sp) < 0 ||
        CVodeSetLinearSolver(c->cv, c->LS, c->A) < 0 || CVodeSetMaxNumSteps(c->cv, 100000) < 0 ||
        (sp->nz && CVodeRootInit(c->cv, (int)sp->nz, rootfn) < 0)) {
        hstop(sp, "cannot set up CVODE: %s", c->msg);
        return FMUC_STEP_STOPPED;
    }
    if (c->cb_failed) /* CVodeInit does not call f, but be safe */
        return FMUC_STEP_STOPPED;
    c->rootsfound = calloc(sp->nz ? sp->nz : 1, sizeof *c->rootsfound);
    if (!c->rootsfound)
        return FMUC_STEP_NOMEM;
    return FMUC_STEP_OK;
}

/* Event Mode at t, iteration, back to CTM, states/nominals re-read (*changed: either changed).
 * 0 go on, 1 terminate, -1 stop. */
static int handle_event(fmuc_stepper *sp, double t, int kind, int root, int input_change,
                        double *y, int *changed)
{
    *changed = 0;
    const fmuc_step_host *h = sp->host;
    if (h->event_limit(h->user, t))
        return -1;
    fmuc_status st = hrec(sp, FMUC_SIM_FN_EnterEventMode, fmuc_inst_enter_event_mode(sp->in), t,
                          NULL);
    if (!ok(st)) {
        stop_call(sp, FMUC_SIM_FN_EnterEventMode, st, t);
        return -1;
    }
    if (input_change && h->set_inputs(h->user, t, FMUC_STEP_IN_DISCRETE_CHANGED) < 0)
        return -1;
    int sc, nc;
    int k = cv_event_iteration(sp, t, kind, root, sp->max_event_iterations, &sc, &nc);
    if (k)
        return k;
    st = hrec(sp, FMUC_SIM_FN_EnterContinuousTimeMode,
              fmuc_inst_enter_continuous_time_mode(sp->in), t, NULL);
    if (!ok(st)) {
        stop_call(sp, FMUC_SIM_FN_EnterContinuousTimeMode, st, t);
        return -1;
    }
    *changed = sc || nc;
    if ((sc || nc) && read_states(sp, t, nc) < 0)
        return -1;
    if (sp->nx && sc)
        memcpy(y, sp->x, sp->nx * sizeof *y);
    return 0;
}

/* Integrator steps from sp->t until tout is reached (events handled on the way). */
static fmuc_step_rc cvode_interval(fmuc_stepper *sp, double tout)
{
    struct fmuc_step_cvode *c = sp->cvode;
    const fmuc_step_host *h = sp->host;
    const fmuc_sim_hooks *hk = h->hooks;
    double *yv = N_VGetArrayPointer(c->y);
    double eps = sp->eps;
    for (;;) {
        double t = sp->t;
        double tstop = sp->tnext < tout ? sp->tnext : tout;
        if (tstop <= t + eps && !(sp->tnext <= t + eps)) /* grid point already reached */
            tstop = tout;
        int flag = 0, stepped = 0;
        double tret = t;
        if (tstop > t + eps) {
            stepped = 1;
            if (hk->before_step && hk->before_step(hk->user, sp->in, t, tstop - t)) {
                hstop(sp, "stopped by hook at t=%.17g", t);
                sp->term_after = FMUC_STEP_TERM_YES;
                return FMUC_STEP_STOPPED;
            }
            CVodeSetStopTime(c->cv, tstop);
            fmuc_worker_phase_at(fmuc_inst_ctx(sp->in), "integrate", -1, t);
            flag = CVode(c->cv, tstop, c->y, &tret, CV_ONE_STEP);
            if (flag < 0) {
                if (!c->cb_failed)
                    hstop(sp, "CVODE failed at t=%.17g: %s%s%s", tret,
                          CVodeGetReturnFlagName(flag), c->msg[0] ? ": " : "", c->msg);
                sp->term_after = FMUC_STEP_TERM_UNLESS_ERROR_FATAL;
                return FMUC_STEP_STOPPED;
            }
            sp->steps++;
            if (fabs(tret - tstop) <= eps)
                tret = tstop;
            t = sp->t = tret;
            /* the accepted point: the FMU sees exactly CVODE's solution there */
            if (sync_or_stop(sp, t, yv, 0) < 0)
                return FMUC_STEP_STOPPED;
            if (all_finite(sp, t, VEC_STATES, yv, NULL, sp->nx) < 0) {
                sp->term_after = FMUC_STEP_TERM_YES;
                return FMUC_STEP_STOPPED;
            }
        }
        int enter = 0;
        if (sp->cis_needed && stepped) {
            int em = 0, term = 0;
            fmuc_status st = hrec(sp, FMUC_SIM_FN_CompletedIntegratorStep,
                                  fmuc_inst_completed_integrator_step(sp->in, 0, &em, &term), t,
                                  NULL);
            if (!ok(st)) {
                stop_call(sp, FMUC_SIM_FN_CompletedIntegratorStep, st, t);
                sp->term_after = FMUC_STEP_TERM_NO;
                return FMUC_STEP_STOPPED;
            }
            if (term) {
                sp->terminated_by_fmu = 1;
                return FMUC_STEP_TERMINATE;
            }
            enter = em != 0;
        }
        if (stepped && hk->after_step && hk->after_step(hk->user, sp->in, t)) {
            hstop(sp, "stopped by hook at t=%.17g", t);
            sp->term_after = FMUC_STEP_TERM_YES;
            return FMUC_STEP_STOPPED;
        }
        int time_ev = sp->tnext <= t + eps;
        int state_ev = flag == CV_ROOT_RETURN;
        if (time_ev && sp->tnext > t && sp->tnext > c->stop)
            time_ev = 0; /* due after the stop time: not within the run (§2.1.6: no time past
                          * stopTime) */
        if (time_ev && sp->tnext > t && !state_ev) {
            /* announced within eps ahead (a grid point just before it, or the rounding of the
             * FMU's own sum of periods): "integrate at most until time = nextEventTime" and
             * enter Event Mode "at this time instant", so time moves on to it (the states over
             * so short an interval are kept); handled at t, the FMU would rightly not see its
             * event yet and announce it again */
            t = sp->t = sp->tnext;
            if (sync_or_stop(sp, t, yv, 1) < 0)
                return FMUC_STEP_STOPPED;
        }
        /* a time event at the instant just handled, again and again: time does not advance */
        if (time_ev && !stepped) {
            sp->same_instant_events = sp->same_instant_t == t ? sp->same_instant_events + 1 : 1;
            sp->same_instant_t = t;
            if (sp->same_instant_events > FMUC_STEP_SAME_INSTANT_MAX) {
                hstop(sp, "nextEventTime=%.17g announced at t=%.17g %u times in a row: time does "
                          "not advance",
                      sp->tnext, t, sp->same_instant_events - 1);
                sp->term_after = FMUC_STEP_TERM_YES;
                return FMUC_STEP_STOPPED;
            }
        } else if (stepped) {
            sp->same_instant_events = 0;
        }
        int at_grid = fabs(t - tout) <= eps;
        int input_ev = at_grid && h->discrete_change(h->user, t);
        if (time_ev || state_ev || enter || input_ev) {
            int root = -1;
            if (state_ev && CVodeGetRootInfo(c->cv, c->rootsfound) == CV_SUCCESS)
                for (size_t i = 0; i < sp->nz; i++)
                    if (c->rootsfound[i]) {
                        root = (int)i;
                        break;
                    }
            int kind = state_ev ? FMUC_SIM_EV_STATE
                       : time_ev ? FMUC_SIM_EV_TIME
                       : enter   ? FMUC_SIM_EV_STEP
                                 : FMUC_SIM_EV_INPUT;
            double hlast = 0.0;
            if (kind == FMUC_SIM_EV_STEP && CVodeGetCurrentStep(c->cv, &hlast) != CV_SUCCESS)
                hlast = 0.0;
            int changed = 0;
            int ke = handle_event(sp, t, kind, root, input_ev, yv, &changed);
            if (ke < 0) {
                sp->term_after = FMUC_STEP_TERM_UNLESS_ERROR_FATAL;
                return FMUC_STEP_STOPPED;
            }
            if (ke > 0)
                return FMUC_STEP_TERMINATE;
            /* after a step event that changed neither states nor nominals (an FMU may ask for
             * Event Mode after every completed step, §3.2.2) the integration goes on with the
             * step size CVODE had planned next: from its small first step again, the next step
             * event would follow at once, and time would hardly advance */
            if (CVodeReInit(c->cv, t, c->y) < 0 ||
                CVodeSetInitStep(c->cv, kind == FMUC_SIM_EV_STEP && !changed && hlast > 0.0
                                            ? hlast
                                            : 0.0) < 0) {
                hstop(sp, "CVODE re-initialization failed at t=%.17g: %s", t, c->msg);
                sp->term_after = FMUC_STEP_TERM_YES;
                return FMUC_STEP_STOPPED;
            }
            if (hk->at_event && hk->at_event(hk->user, sp->in, t, kind)) {
                hstop(sp, "stopped by hook at t=%.17g", t);
                sp->term_after = FMUC_STEP_TERM_YES;
                return FMUC_STEP_STOPPED;
            }
        }
        if (at_grid)
            return FMUC_STEP_OK;
    }
}

/* ---- one interval --------------------------------------------------------------------------- */

static fmuc_step_rc fixed_interval(fmuc_stepper *sp, double ta, double tb, fmuc_step_cs_out *cs)
{
    fmuc_step_cs_out local;
    double h = !sp->me && sp->cs_h > 0 ? sp->cs_h : tb - ta;
    if (sp->inputs && sp->inputs(sp->user, sp->in, ta))
        return FMUC_STEP_INPUTS;
    if (sp->before_step && sp->before_step(sp->user, sp->in, ta, h))
        return FMUC_STEP_HOOK;
    if (!sp->me)
        return cs_step(sp, ta, h, cs ? cs : &local);
    return me_rk4(sp, ta, tb);
}

fmuc_step_rc fmuc_step_interval(fmuc_stepper *sp, double ta, double tb, fmuc_step_cs_out *cs)
{
    if (sp->me && sp->solver == FMUC_STEP_CVODE) {
        (void)ta;
        return cvode_interval(sp, tb);
    }
    return fixed_interval(sp, ta, tb, cs);
}
