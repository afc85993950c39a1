/* Stair as a Model Exchange 1.0 FMU: the model of reference_fmus/good/Stair (an Integer counter
 * stepping up at t = 1, 2, ... s, announced through upcomingTimeEvent / nextEventTime, and its
 * integral x as the one state), with a 1.0 descriptor (ME only). No event indicators: every
 * event is a time event. */
#define fmuc_model stair_model_fmi2
#include "../../../../good/Stair/model.c"
#undef fmuc_model

extern const fmuc_m_desc fmuc_model;
const fmuc_m_desc fmuc_model = {
    .model_name = "Stair",
    .model_identifier = "Stair",
    .version = "1.0",
    .description = "Integer stair with time events every second and its integral (FMI 1.0 ME)",
    .author = "fmucheck",
    .caps = FMUC_M_CAP_ME,
    .vars = vars,
    .nvars = sizeof vars / sizeof vars[0],
    .experiment = {.flags = FMUC_M_EXP_START | FMUC_M_EXP_STOP, .start = 0.0, .stop = 10.0},
    .data_size = sizeof(stair),
    .start = start,
    .calc = calc,
    .do_step = do_step, /* unused by the ME glue */
    .event_update = event_update,
};
