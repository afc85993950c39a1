/* me-event-flags--next-event-stuck fixture: Stair (Model Exchange only) whose time event at
 * t = 4 s ends every event iteration announcing nextEventTime = 4 s, the instant just handled:
 * legal once (the host enters Event Mode again at once), but without end time never advances
 * past 4 s (FMI 2.0.4 §3.2.2). */
#define fmuc_model stair_base_model
#include "../../good/Stair/model.c"
#undef fmuc_model

static fmi2Status stuck_event_update(fmuc_m_ctx *ctx, void *data, fmi2EventInfo *info)
{
    fmi2Status st = event_update(ctx, data, info);
    const stair *s = data;
    if (s->counter == 5 && info->nextEventTimeDefined)
        info->nextEventTime = s->next_t - 1.0; /* the defect: the current time, every time */
    return st;
}

extern const fmuc_m_desc fmuc_model;
const fmuc_m_desc fmuc_model = {
    .model_name = "Stair",
    .model_identifier = "Stair",
    .version = "1.0",
    .description = "Stair whose events at t = 4 s announce nextEventTime = 4 s forever (fixture)",
    .author = "fmucheck",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE |
            FMUC_M_CAP_COMPLETED_STEP_NOT_NEEDED,
    .vars = vars,
    .nvars = sizeof vars / sizeof vars[0],
    .experiment = {.flags = FMUC_M_EXP_START | FMUC_M_EXP_STOP | FMUC_M_EXP_STEP,
                   .start = 0.0, .stop = 10.0, .step = 0.1},
    .data_size = sizeof(stair),
    .start = start,
    .calc = calc,
    .event_update = stuck_event_update,
};
