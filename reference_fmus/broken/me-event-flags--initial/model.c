/* me-event-flags--initial fixture: BouncingBall (Model Exchange only) whose first
 * fmi2NewDiscreteStates after initialization lifts the ball from h = 1 m to 1.5 m without
 * valuesOfContinuousStatesChanged. The letter of FMI 2.0.4 §3.2.2 is violated (fail under
 * standard), but the §3.2.4 host loop reads the states after that iteration anyway, so no
 * conforming importer is misled (warn under interop). */
#define fmuc_model bb_base_model
#include "../../good/BouncingBall/model.c"
#undef fmuc_model

static fmi2Status lifting_event_update(fmuc_m_ctx *ctx, void *data, fmi2EventInfo *info)
{
    ball *b = data;
    fmi2Status st = event_update(ctx, data, info);
    if (fmuc_m_time(ctx) <= 0.0 && b->h == 1.0 && b->impacts == 0)
        b->h = 1.5; /* the defect: a silent change in the initial event iteration */
    return st;
}

extern const fmuc_m_desc fmuc_model;
const fmuc_m_desc fmuc_model = {
    BB_DESC_BASE,
    .description = "BouncingBall lifted silently in the event iteration after initialization",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE |
            FMUC_M_CAP_COMPLETED_STEP_NOT_NEEDED,
    .data_size = sizeof(ball),
    .calc = calc,
    .event_indicators = event_indicators,
    .event_update = lifting_event_update,
};
