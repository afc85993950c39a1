/* me-event-flags fixture: BouncingBall (Model Exchange only) whose impact changes h and v in
 * fmi2NewDiscreteStates but never sets valuesOfContinuousStatesChanged: an importer keeps
 * integrating from the state before the impact and the ball falls through the floor (FMI 2.0.4
 * §3.2.2). Without a Co-Simulation interface no other check compares it with the true motion. */
#define fmuc_model bb_base_model
#include "../../good/BouncingBall/model.c"
#undef fmuc_model

static fmi2Status silent_event_update(fmuc_m_ctx *ctx, void *data, fmi2EventInfo *info)
{
    fmi2Status st = event_update(ctx, data, info);
    info->valuesOfContinuousStatesChanged = fmi2False; /* the defect */
    return st;
}

extern const fmuc_m_desc fmuc_model;
const fmuc_m_desc fmuc_model = {
    BB_DESC_BASE,
    .description = "BouncingBall whose impacts do not report valuesOfContinuousStatesChanged",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE |
            FMUC_M_CAP_COMPLETED_STEP_NOT_NEEDED,
    .data_size = sizeof(ball),
    .calc = calc,
    .event_indicators = event_indicators,
    .event_update = silent_event_update,
};
