/* me-nominal-run fixture (FMI 1.0 ME): the Model Exchange 1.0 Stair whose derivative der(x)
 * becomes NaN from t = 1 s (the descriptor of reference_fmus/fmi1/good/me/Stair otherwise). */
#include <math.h>

#define fmuc_model stair_model_fmi2
#include "../../good/Stair/model.c"
#undef fmuc_model

static fmi2Status calc_nan_derivative(fmuc_m_ctx *ctx, void *data)
{
    fmi2Status st = calc(ctx, data);
    stair *s = data;
    if (fmuc_m_time(ctx) >= 1.0)
        s->der_x = NAN; /* the defect */
    return st;
}

extern const fmuc_m_desc fmuc_model;
const fmuc_m_desc fmuc_model = {
    .model_name = "Stair",
    .model_identifier = "Stair",
    .version = "1.0",
    .description = "Integer stair whose derivative is NaN from t = 1 s (FMI 1.0 ME fixture)",
    .author = "fmucheck",
    .caps = FMUC_M_CAP_ME,
    .vars = vars,
    .nvars = sizeof vars / sizeof vars[0],
    .experiment = {.flags = FMUC_M_EXP_START | FMUC_M_EXP_STOP, .start = 0.0, .stop = 10.0},
    .data_size = sizeof(stair),
    .start = start,
    .calc = calc_nan_derivative,
    .do_step = do_step, /* unused by the ME glue */
    .event_update = event_update,
};
