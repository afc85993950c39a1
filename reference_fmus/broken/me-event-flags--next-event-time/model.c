/* me-event-flags--next-event-time fixture: Stair (Model Exchange only) whose time event at
 * t = 4 s ends its event iteration announcing nextEventTime = 3.5 s, a time already passed,
 * instead of the next whole second: no host can integrate "until time = nextEventTime" from
 * there (FMI 2.0.4 §3.2.2). (The instant just handled, 4 s, would be legal: the host enters
 * Event Mode again at once; fixture me-event-flags--next-event-now.)
 * The fixtures me-event-flags--next-event-now and --next-event-stuck are this file with
 * STAIR_ANNOUNCE_NOW_ONCE or STAIR_ANNOUNCE_NOW defined: the same event announcing 4 s, once
 * or every time. */
#define fmuc_model stair_base_model
#include "../../good/Stair/model.c"
#undef fmuc_model

/* which calls of the event at t = 4 s (the counter at 5, "before" its value before the call)
 * announce what */
#if defined(STAIR_ANNOUNCE_NOW_ONCE)
#define ANNOUNCES(before, s) ((before) == 4 && (s)->counter == 5) /* the call that stepped it */
#define ANNOUNCED(s) ((s)->next_t - 1.0)                         /* 4 s: the instant itself */
#define DESCRIPTION "Stair whose event at t = 4 s announces nextEventTime = 4 s once (fixture)"
#elif defined(STAIR_ANNOUNCE_NOW)
#define ANNOUNCES(before, s) ((void)(before), (s)->counter == 5) /* every call at 4 s */
#define ANNOUNCED(s) ((s)->next_t - 1.0)                         /* 4 s, every time */
#define DESCRIPTION "Stair whose events at t = 4 s announce nextEventTime = 4 s forever (fixture)"
#else
#define ANNOUNCES(before, s) ((void)(before), (s)->counter == 5)
#define ANNOUNCED(s) ((s)->next_t - 1.5) /* the defect: half a second before now */
#define DESCRIPTION "Stair whose event at t = 4 s announces nextEventTime = 3.5 s (fixture)"
#endif

static fmi2Status announcing_event_update(fmuc_m_ctx *ctx, void *data, fmi2EventInfo *info)
{
    const stair *s = data;
    int before = s->counter;
    fmi2Status st = event_update(ctx, data, info);
    if (ANNOUNCES(before, s) && info->nextEventTimeDefined)
        info->nextEventTime = ANNOUNCED(s);
    return st;
}

extern const fmuc_m_desc fmuc_model;
const fmuc_m_desc fmuc_model = {
    .model_name = "Stair",
    .model_identifier = "Stair",
    .version = "1.0",
    .description = DESCRIPTION,
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
    .event_update = announcing_event_update,
};
