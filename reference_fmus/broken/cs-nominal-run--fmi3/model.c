/* cs-nominal-run fixture (FMI 3.0): BouncingBall whose fmi3DoStep returns fmi3Error from t = 1 s,
 * for no cause a master could remove (Model Exchange stays good). FMI 3.0.2 §2.2.4: after
 * fmi3Error "the simulation cannot be continued", so the nominal run ends there. */
#define fmuc_model fmuc_model_base
#include "../../good/BouncingBall/model.c"
#undef fmuc_model

static fmi2Status do_step_fails(fmuc_m_ctx *ctx, void *data, double t, double hstep)
{
    if (t >= 1.0)
        return fmi2Error; /* the defect */
    return do_step(ctx, data, t, hstep);
}

const fmuc_m_desc fmuc_model = {
    BB_DESC_BASE,
    .description = "BouncingBall whose fmi3DoStep fails from t = 1 s (fixture)",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_CS | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE |
            FMUC_M_CAP_VAR_STEP | FMUC_M_CAP_COMPLETED_STEP_NOT_NEEDED,
    .data_size = sizeof(ball),
    .calc = calc,
    .do_step = do_step_fails,
    .event_indicators = event_indicators,
    .event_update = event_update,
};
