/* me-event-flags--fmi3 fixture: BouncingBall as an FMI 3.0 Model Exchange FMU whose impact
 * changes h and v in fmi3UpdateDiscreteStates but returns valuesOfContinuousStatesChanged =
 * fmi3False: an importer, which must call fmi3GetContinuousStates only when the flag is set
 * (FMI 3.0.2 §2.3.5), integrates on from the state before the impact. */
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
    .description = "BouncingBall (FMI 3.0) whose impacts do not report "
                   "valuesOfContinuousStatesChanged",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE |
            FMUC_M_CAP_COMPLETED_STEP_NOT_NEEDED,
    .data_size = sizeof(ball),
    .calc = calc,
    .event_indicators = event_indicators,
    .event_update = silent_event_update,
};
