/* me-event-flags--fmi1-next-event-time fixture: Stair as an FMI 1.0 Model Exchange FMU whose
 * time event at t = 6 s ends fmiEventUpdate with upcomingTimeEvent = fmiTrue and nextEventTime
 * = 5 s, a time already passed, instead of the next whole second: no host can "integrate at
 * most until time = nextEventTime" from there (FMI 1.0 ME, fmiEventInfo). */
#define fmuc_model stair_model_fmi2
#include "../../good/Stair/model.c"
#undef fmuc_model

static fmi2Status past_event_update(fmuc_m_ctx *ctx, void *data, fmi2EventInfo *info)
{
    fmi2Status st = event_update(ctx, data, info);
    const stair *s = data;
    if (s->counter == 7 && info->nextEventTimeDefined)
        info->nextEventTime = s->next_t - 2.0; /* the defect: one second before now */
    return st;
}

extern const fmuc_m_desc fmuc_model;
const fmuc_m_desc fmuc_model = {
    .model_name = "Stair",
    .model_identifier = "Stair",
    .version = "1.0",
    .description = "Stair (FMI 1.0 ME) whose event at t = 6 s announces nextEventTime = 5 s",
    .author = "fmucheck",
    .caps = FMUC_M_CAP_ME,
    .vars = vars,
    .nvars = sizeof vars / sizeof vars[0],
    .experiment = {.flags = FMUC_M_EXP_START | FMUC_M_EXP_STOP, .start = 0.0, .stop = 10.0},
    .data_size = sizeof(stair),
    .start = start,
    .calc = calc,
    .event_update = past_event_update,
};
