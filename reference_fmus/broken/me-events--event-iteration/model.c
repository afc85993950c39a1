/* me-events--event-iteration fixture: BouncingBall whose event iteration never settles once the
 * ball has hit the floor: from the first impact on, every fmi2NewDiscreteStates asks for another
 * iteration (newDiscreteStatesNeeded = true forever). Initialization and the first flight are
 * fine, so only a host that simulates through the first state event sees it. */
#define fmuc_model bb_base_model
#include "../../good/BouncingBall/model.c"
#undef fmuc_model

static fmi2Status endless_event_update(fmuc_m_ctx *ctx, void *data, fmi2EventInfo *info)
{
    fmi2Status st = event_update(ctx, data, info);
    const ball *b = data;
    if (b->impacts > 0)
        info->newDiscreteStatesNeeded = fmi2True;
    return st;
}

extern const fmuc_m_desc fmuc_model;
const fmuc_m_desc fmuc_model = {
    BB_DESC_BASE,
    .description = "BouncingBall whose event iteration never settles after the first impact",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_CS | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE |
            FMUC_M_CAP_VAR_STEP | FMUC_M_CAP_COMPLETED_STEP_NOT_NEEDED,
    .data_size = sizeof(ball),
    .calc = calc,
    .do_step = do_step,
    .event_indicators = event_indicators,
    .event_update = endless_event_update,
};
