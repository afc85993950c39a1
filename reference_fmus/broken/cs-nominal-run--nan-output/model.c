/* cs-nominal-run variant: SpringMassDamper whose output E becomes NaN from t = 1 s in
 * Co-Simulation (Model Exchange stays good). */
#include <math.h>

#define fmuc_model fmuc_model_base
#include "../../good/SpringMassDamper/model.c"
#undef fmuc_model

static fmi2Status calc_nan(fmuc_m_ctx *ctx, void *data)
{
    fmi2Status st = calc(ctx, data);
    smd *s = data;
    if (fmuc_m_interface(ctx) == fmi2CoSimulation && fmuc_m_time(ctx) >= 1.0)
        s->E = NAN;
    return st;
}

const fmuc_m_desc fmuc_model = {
    SMD_DESC_BASE,
    .description = "SpringMassDamper with a NaN output in Co-Simulation (fixture)",
    .caps = SMD_CAPS,
    .data_size = sizeof(smd),
    .cs_h_max = 1e-3,
    .calc = calc_nan,
    .dir_deriv = dir_deriv,
};
