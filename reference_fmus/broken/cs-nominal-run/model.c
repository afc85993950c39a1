/* cs-nominal-run fixture: SpringMassDamper whose fmi2DoStep returns fmi2Error from t = 1 s in
 * Co-Simulation, for no cause a master could remove (Model Exchange stays good). */
#define fmuc_model fmuc_model_base
#include "../../good/SpringMassDamper/model.c"
#undef fmuc_model

static fmi2Status calc_fails(fmuc_m_ctx *ctx, void *data)
{
    fmi2Status st = calc(ctx, data);
    if (st == fmi2OK && fmuc_m_interface(ctx) == fmi2CoSimulation && fmuc_m_time(ctx) >= 1.0)
        return fmi2Error;
    return st;
}

const fmuc_m_desc fmuc_model = {
    SMD_DESC_BASE,
    .description = "SpringMassDamper whose fmi2DoStep fails from t = 1 s (fixture)",
    .caps = SMD_CAPS,
    .data_size = sizeof(smd),
    .cs_h_max = 1e-3,
    .calc = calc_fails,
    .dir_deriv = dir_deriv,
};
