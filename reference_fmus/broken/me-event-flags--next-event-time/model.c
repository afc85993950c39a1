/* me-event-flags--next-event-time fixture: Stair (Model Exchange only) whose time event at
 * t = 4 s ends its event iteration announcing nextEventTime = 3.5 s, a time already passed,
 * instead of the next whole second: no host can integrate "until time = nextEventTime" from
 * there (FMI 2.0.4 §3.2.2). (The instant just handled, 4 s, would be legal: the host enters
 * Event Mode again at once; fixture me-event-flags--next-event-now.) */
#define fmuc_model stair_base_model
#include "../../good/Stair/model.c"
#undef fmuc_model

static fmi2Status stale_event_update(fmuc_m_ctx *ctx, void *data, fmi2EventInfo *info)
{
    fmi2Status st = event_update(ctx, data, info);
    const stair *s = data;
    if (s->counter == 5 && info->nextEventTimeDefined)
        info->nextEventTime = s->next_t - 1.5; /* the defect: half a second before now */
    return st;
}

extern const fmuc_m_desc fmuc_model;
const fmuc_m_desc fmuc_model = {
    .model_name = "Stair",
    .model_identifier = "Stair",
    .version = "1.0",
    .description = "Stair whose event at t = 4 s announces nextEventTime = 3.5 s (fixture)",
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
    .event_update = stale_event_update,
};
