/* eq-determinism--global fixture: the good SpringMassDamper whose Co-Simulation step integrates
 * a position and velocity kept in a static global, shared by all instances of the process. One
 * instance at a time behaves; two live instances stepped alternately disturb each other.
 * (No FMU state capabilities: restoring the instance data could not restore the global.) */
#define fmuc_model fmuc_model_base
#include "../../good/SpringMassDamper/model.c"
#undef fmuc_model

static struct {
    double x, v;
} shared_state; /* the defect */

static fmi2Status calc_shared(fmuc_m_ctx *ctx, void *data)
{
    smd *s = data;
    fmi2Status st = calc(ctx, data);
    fmuc_m_phase ph = fmuc_m_get_phase(ctx);
    if (ph == FMUC_M_PHASE_INSTANTIATED || ph == FMUC_M_PHASE_INIT) {
        shared_state.x = s->x;
        shared_state.v = s->v;
    }
    return st;
}

static void f(const smd *s, double x, double v, double *dx, double *dv)
{
    *dx = v;
    *dv = (s->F - s->k * x - s->c * v) / s->m;
}

/* RK4 substeps (1 ms) on the shared globals */
static fmi2Status do_step(fmuc_m_ctx *ctx, void *data, double t, double h)
{
    smd *s = data;
    (void)t;
    int n = (int)(h / 1e-3 - 1e-9) + 1;
    double dt = h / n;
    for (int i = 0; i < n; i++) {
        double x = shared_state.x, v = shared_state.v, a1, b1, a2, b2, a3, b3, a4, b4;
        f(s, x, v, &a1, &b1);
        f(s, x + 0.5 * dt * a1, v + 0.5 * dt * b1, &a2, &b2);
        f(s, x + 0.5 * dt * a2, v + 0.5 * dt * b2, &a3, &b3);
        f(s, x + dt * a3, v + dt * b3, &a4, &b4);
        shared_state.x = x + dt / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
        shared_state.v = v + dt / 6.0 * (b1 + 2.0 * b2 + 2.0 * b3 + b4);
    }
    s->x = shared_state.x;
    s->v = shared_state.v;
    (void)ctx;
    return fmi2OK;
}

const fmuc_m_desc fmuc_model = {
    SMD_DESC_BASE,
    .description = "Spring-mass-damper with CS state in a static global (eq-determinism fixture)",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_CS | FMUC_M_CAP_VAR_STEP,
    .data_size = sizeof(smd),
    .calc = calc_shared,
    .do_step = do_step,
};
