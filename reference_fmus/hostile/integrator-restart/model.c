/* integrator-restart fixture: the good SpringMassDamper whose Co-Simulation step integrates
 * with an adaptive embedded Runge-Kutta 2(3) (Bogacki-Shampine) under the relative tolerance of
 * fmi2SetupExperiment (1e-4 when none is given), as FMUs with a variable-step solver inside do.
 * The solver's step size is not part of the FMU state: fmi2SetFMUstate and
 * fmi2DeSerializeFMUstate restart it from its initial step, and after fmi2Reset it starts with
 * another initial step. So runs after a restore or a reset differ from the original by the
 * integration error (which shrinks with the tolerance), never by a lost state: every check
 * passes. With VS_LOSE_VELOCITY (broken/eq-fmu-state--lost-velocity) fmi2SetFMUstate also keeps
 * the velocity it had, a real state loss. */
#include <math.h>
#include <string.h>

#define fmuc_model fmuc_model_base
#include "../../good/SpringMassDamper/model.c"
#undef fmuc_model

typedef struct {
    smd s;          /* first: the variable offsets of the good model apply */
    double h;       /* the solver's proposed step (0: start with h_first) */
    double h_first; /* initial step of this run */
} vs;

static void rhs(const smd *s, double x, double v, double *dx, double *dv)
{
    *dx = v;
    *dv = (s->F - s->k * x - s->c * v) / s->m;
}

static fmi2Status start_vs(fmuc_m_ctx *ctx, void *data)
{
    vs *m = data;
    /* fmi2Reset calls this hook before the glue sets the time back to the start: another first
     * step after a reset (a solver that does not start the same way twice) */
    m->h = 0.0;
    m->h_first = fmuc_m_time(ctx) > 0.0 ? 7e-4 : 1e-3;
    return fmi2OK;
}

static fmi2Status do_step_vs(fmuc_m_ctx *ctx, void *data, double t, double H)
{
    vs *m = data;
    smd *s = &m->s;
    int defined = 0;
    double tol = fmuc_m_tolerance(ctx, &defined);
    if (!defined || !(tol > 0.0))
        tol = 1e-4;
    double tend = t + H, h = m->h > 0.0 ? m->h : m->h_first, x = s->x, v = s->v;
    for (int guard = 0; guard < 1000000; guard++) {
        int last = h >= tend - t;
        double hs = last ? tend - t : h;
        double a1, b1, a2, b2, a3, b3, a4, b4;
        rhs(s, x, v, &a1, &b1);
        rhs(s, x + 0.5 * hs * a1, v + 0.5 * hs * b1, &a2, &b2);
        rhs(s, x + 0.75 * hs * a2, v + 0.75 * hs * b2, &a3, &b3);
        double x1 = x + hs * (2.0 / 9.0 * a1 + 1.0 / 3.0 * a2 + 4.0 / 9.0 * a3);
        double v1 = v + hs * (2.0 / 9.0 * b1 + 1.0 / 3.0 * b2 + 4.0 / 9.0 * b3);
        rhs(s, x1, v1, &a4, &b4);
        double ex = hs * (-5.0 / 72.0 * a1 + 1.0 / 12.0 * a2 + 1.0 / 9.0 * a3 - 1.0 / 8.0 * a4);
        double ev = hs * (-5.0 / 72.0 * b1 + 1.0 / 12.0 * b2 + 1.0 / 9.0 * b3 - 1.0 / 8.0 * b4);
        /* scaled by the nominal values (0.05 m, 0.5 m/s) */
        double e = fmax(fabs(ex) / (tol * (0.05 + fabs(x))), fabs(ev) / (tol * (0.5 + fabs(v))));
        double grow = e > 0.0 ? 0.9 * pow(e, -1.0 / 3.0) : 5.0;
        grow = grow > 5.0 ? 5.0 : grow < 0.2 ? 0.2 : grow;
        if (e <= 1.0) {
            x = x1;
            v = v1;
            if (last) {
                if (!(hs < h)) /* a step cut short at the end keeps the proposal */
                    h = hs * grow;
                break;
            }
            t += hs;
        }
        h = hs * grow;
    }
    s->x = x;
    s->v = v;
    m->h = h;
    return fmi2OK;
}

/* The FMU state: the model variables, not the solver (it restarts). */
static fmi2Status state_size_vs(fmuc_m_ctx *ctx, const void *data, size_t *size)
{
    (void)ctx;
    (void)data;
    *size = sizeof(smd);
    return fmi2OK;
}

static fmi2Status state_save_vs(fmuc_m_ctx *ctx, const void *data, void *buf, size_t size)
{
    (void)ctx;
    if (size != sizeof(smd))
        return fmi2Error;
    memcpy(buf, &((const vs *)data)->s, sizeof(smd));
    return fmi2OK;
}

static fmi2Status state_load_vs(fmuc_m_ctx *ctx, void *data, const void *buf, size_t size)
{
    vs *m = data;
    (void)ctx;
    if (size != sizeof(smd))
        return fmi2Error;
#ifdef VS_LOSE_VELOCITY
    double v = m->s.v;
    memcpy(&m->s, buf, sizeof(smd));
    m->s.v = v; /* the defect: the velocity is not restored */
#else
    memcpy(&m->s, buf, sizeof(smd));
#endif
    m->h = 0.0; /* the solver restarts */
    return fmi2OK;
}

const fmuc_m_desc fmuc_model = {
    SMD_DESC_BASE,
    .description = "Spring-mass-damper, CS with a variable-step solver that restarts after "
                   "fmi2SetFMUstate (fixture)",
    .caps = SMD_CAPS,
    .data_size = sizeof(vs),
    .calc = calc,
    .dir_deriv = dir_deriv,
    .start = start_vs,
    .do_step = do_step_vs,
    .state_size = state_size_vs,
    .state_save = state_save_vs,
    .state_load = state_load_vs,
};
