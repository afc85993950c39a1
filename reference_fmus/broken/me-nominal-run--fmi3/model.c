/* me-nominal-run fixture (FMI 3.0): BouncingBall whose derivative der(v) becomes NaN from t = 1 s
 * in Model Exchange (Co-Simulation, solved inside the FMU, stays good): the derivatives come back
 * with fmi3OK and a NaN that no integrator of the importer can use. */
#include <math.h>

#define fmuc_model fmuc_model_base
#include "../../good/BouncingBall/model.c"
#undef fmuc_model

static fmi2Status calc_nan_derivative(fmuc_m_ctx *ctx, void *data)
{
    fmi2Status st = calc(ctx, data);
    ball *b = data;
    if (fmuc_m_interface(ctx) == fmi2ModelExchange && fmuc_m_time(ctx) >= 1.0)
        b->der_v = NAN; /* the defect */
    return st;
}

const fmuc_m_desc fmuc_model = {
    BB_DESC_BASE,
    .description = "BouncingBall with a NaN derivative in Model Exchange (fixture)",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_CS | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE |
            FMUC_M_CAP_VAR_STEP | FMUC_M_CAP_COMPLETED_STEP_NOT_NEEDED,
    .data_size = sizeof(ball),
    .calc = calc_nan_derivative,
    .do_step = do_step,
    .event_indicators = event_indicators,
    .event_update = event_update,
};
