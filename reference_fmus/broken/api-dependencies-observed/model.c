/* api-dependencies-observed fixture: SpringMassDamper whose output E also contains the work of
 * the input force, E = m v^2/2 + k x^2/2 + F x, while its <ModelStructure><Outputs> entry still
 * declares dependencies on x and v only: E has a direct feedthrough from F that the model
 * structure hides (FMI 2.0.4 §2.2.8). Seen in both interfaces: ME in Continuous-Time Mode, CS
 * at a communication point. */
#define fmuc_model fmuc_model_base
#include "../../good/SpringMassDamper/model.c"
#undef fmuc_model

static fmi2Status calc_feedthrough(fmuc_m_ctx *ctx, void *data)
{
    fmi2Status st = calc(ctx, data);
    smd *s = data;
    s->E += s->F * s->x; /* the defect: E depends on the input F, undeclared */
    return st;
}

const fmuc_m_desc fmuc_model = {
    SMD_DESC_BASE,
    .description = "SpringMassDamper whose output E depends on the input F undeclared (fixture)",
    .caps = SMD_CAPS,
    .data_size = sizeof(smd),
    .cs_h_max = 1e-3,
    .calc = calc_feedthrough,
    .dir_deriv = dir_deriv,
};
