/* me-event-flags--next-event-now fixture, no defect: Stair (Model Exchange only) whose time
 * event at t = 4 s ends its event iteration announcing nextEventTime = 4 s, the instant just
 * handled, once. "The simulation shall integrate at most until time = nextEventTime, and shall
 * call fmi2EnterEventMode at this time instant" (FMI 2.0.4 §3.2.2): the host integrates nothing
 * and enters Event Mode again at 4 s, where the next answer is 5 s. Legal, if odd. */
#define fmuc_model stair_base_model
#include "../../good/Stair/model.c"
#undef fmuc_model

static fmi2Status now_event_update(fmuc_m_ctx *ctx, void *data, fmi2EventInfo *info)
{
    const stair *s = data;
    int before = s->counter;
    fmi2Status st = event_update(ctx, data, info);
    /* the call that stepped the counter to 5 (at t = 4 s) announces t = 4 s itself; the call
     * of the time event that follows at once steps nothing and announces 5 s */
    if (before == 4 && s->counter == 5 && info->nextEventTimeDefined)
        info->nextEventTime = s->next_t - 1.0;
    return st;
}

extern const fmuc_m_desc fmuc_model;
const fmuc_m_desc fmuc_model = {
    .model_name = "Stair",
    .model_identifier = "Stair",
    .version = "1.0",
    .description = "Stair whose event at t = 4 s announces nextEventTime = 4 s once (fixture)",
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
    .event_update = now_event_update,
};
