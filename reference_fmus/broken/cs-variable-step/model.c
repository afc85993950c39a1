/* cs-variable-step fixture: SpringMassDamper that declares canHandleVariableCommunicationStepSize
 * but whose fmi2DoStep always integrates 0.01 s (its default experiment's step), whatever
 * communicationStepSize asks for. On the default grid it is right; on any other grid its
 * results drift away from the time the master reached (FMI 2.0.4 §4.2.2, §4.3.1). */
#define fmuc_model fmuc_model_base
#include "../../good/SpringMassDamper/model.c"
#undef fmuc_model

static void accel(const smd *s, double x, double v, double *a)
{
    *a = (s->F - s->k * x - s->c * v) / s->m;
}

static fmi2Status do_step_fixed(fmuc_m_ctx *ctx, void *data, double t, double h)
{
    (void)ctx;
    (void)t;
    (void)h; /* the defect: the requested step size is ignored */
    smd *s = data;
    const double hs = 1e-3;
    for (int i = 0; i < 10; i++) {
        double x = s->x, v = s->v, a1, a2, a3, a4;
        accel(s, x, v, &a1);
        double x2 = x + 0.5 * hs * v, v2 = v + 0.5 * hs * a1;
        accel(s, x2, v2, &a2);
        double x3 = x + 0.5 * hs * v2, v3 = v + 0.5 * hs * a2;
        accel(s, x3, v3, &a3);
        double x4 = x + hs * v3, v4 = v + hs * a3;
        accel(s, x4, v4, &a4);
        s->x = x + hs / 6.0 * (v + 2.0 * v2 + 2.0 * v3 + v4);
        s->v = v + hs / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
    }
    return fmi2OK;
}

const fmuc_m_desc fmuc_model = {
    SMD_DESC_BASE,
    .description = "SpringMassDamper whose fmi2DoStep ignores communicationStepSize (fixture)",
    .caps = SMD_CAPS,
    .data_size = sizeof(smd),
    .calc = calc,
    .do_step = do_step_fixed,
    .dir_deriv = dir_deriv,
};
