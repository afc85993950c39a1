/* me-event-flags--fmi1 fixture: BouncingBall as an FMI 1.0 Model Exchange FMU whose impact
 * changes h and v in fmiEventUpdate but returns stateValuesChanged = fmiFalse: an importer, which
 * calls fmiGetContinuousStates after an event only when the state vector changed (FMI 1.0 ME,
 * fmiEventInfo), integrates on from the state before the impact. */
#define fmuc_model bb_model_fmi2
#include "../../good/BouncingBall/model.c"
#undef fmuc_model

static fmi2Status silent_event_update(fmuc_m_ctx *ctx, void *data, fmi2EventInfo *info)
{
    fmi2Status st = event_update(ctx, data, info);
    info->valuesOfContinuousStatesChanged = fmi2False; /* the defect (the glue's stateValuesChanged) */
    return st;
}

extern const fmuc_m_desc fmuc_model;
const fmuc_m_desc fmuc_model = {
    BB_DESC_BASE,
    .description = "BouncingBall (FMI 1.0 ME) whose impacts do not report stateValuesChanged",
    .caps = FMUC_M_CAP_ME,
    .data_size = sizeof(ball),
    .calc = calc,
    .event_indicators = event_indicators,
    .event_update = silent_event_update,
};
