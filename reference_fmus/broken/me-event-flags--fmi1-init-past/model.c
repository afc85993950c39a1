/* me-event-flags--fmi1-init-past fixture: Stair as an FMI 1.0 Model Exchange FMU whose
 * fmiInitialize answers upcomingTimeEvent = fmiTrue with nextEventTime = -1 s, before the start
 * time, and iterationConverged = fmiTrue: the first answer of the iteration after initialization
 * announces a time no host can integrate to (FMI 1.0 ME, fmiEventInfo: "the simulation shall
 * integrate at most until time = nextEventTime"). Later events are Stair's own. */
#define fmuc_model stair_model_fmi2
#include "../../good/Stair/model.c"
#undef fmuc_model
static fmi2Status init_past_event_update(fmuc_m_ctx *ctx, void *data, fmi2EventInfo *info)
{
    fmi2Status st = event_update(ctx, data, info);
    const stair *s = data;
    if (s->counter == 1 && info->nextEventTimeDefined)
        info->nextEventTime = -1.0; /* the defect: before the start time */
    return st;
}
extern const fmuc_m_desc fmuc_model;
const fmuc_m_desc fmuc_model = {
    .model_name = "Stair",
    .model_identifier = "Stair",
    .version = "1.0",
    .description = "Stair (FMI 1.0 ME) whose fmiInitialize announces nextEventTime = -1 s",
    .author = "fmucheck",
    .caps = FMUC_M_CAP_ME,
    .vars = vars,
    .nvars = sizeof vars / sizeof vars[0],
    .experiment = {.flags = FMUC_M_EXP_START | FMUC_M_EXP_STOP, .start = 0.0, .stop = 10.0},
    .data_size = sizeof(stair),
    .start = start,
    .calc = calc,
    .event_update = init_past_event_update,
};
