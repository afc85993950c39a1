/* cs-nominal-run fixture: SpringMassDamper whose output E becomes NaN from t = 1 s in
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
    .model_name = "SpringMassDamper",
    .model_identifier = "SpringMassDamper",
    .version = "1.0",
    .description = "SpringMassDamper with a NaN output in Co-Simulation (fixture)",
    .author = "fmucheck",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_CS | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE |
            FMUC_M_CAP_DIR_DERIV | FMUC_M_CAP_VAR_STEP,
    .vars = vars,
    .nvars = sizeof vars / sizeof vars[0],
    .experiment = {.flags = FMUC_M_EXP_START | FMUC_M_EXP_STOP | FMUC_M_EXP_STEP,
                   .start = 0.0, .stop = 2.0, .step = 0.01},
    .data_size = sizeof(smd),
    .cs_h_max = 1e-3,
    .calc = calc_nan,
    .dir_deriv = dir_deriv,
};
