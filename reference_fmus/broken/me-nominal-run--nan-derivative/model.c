/* me-nominal-run fixture: SpringMassDamper whose derivative der(v) becomes NaN from t = 1 s in
 * Model Exchange (Co-Simulation, integrated inside the FMU, stays good up to that point too). */
#include <math.h>

#define fmuc_model fmuc_model_base
#include "../../good/SpringMassDamper/model.c"
#undef fmuc_model

static fmi2Status calc_nan_derivative(fmuc_m_ctx *ctx, void *data)
{
    fmi2Status st = calc(ctx, data);
    smd *s = data;
    if (fmuc_m_interface(ctx) == fmi2ModelExchange && fmuc_m_time(ctx) >= 1.0)
        s->der_v = NAN; /* the defect */
    return st;
}

const fmuc_m_desc fmuc_model = {
    SMD_DESC_BASE,
    .description = "SpringMassDamper with a NaN derivative in Model Exchange (fixture)",
    .caps = SMD_CAPS,
    .data_size = sizeof(smd),
    .cs_h_max = 1e-3,
    .calc = calc_nan_derivative,
    .dir_deriv = dir_deriv,
};
