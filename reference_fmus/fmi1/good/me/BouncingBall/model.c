/* BouncingBall as a Model Exchange 1.0 FMU: the model of reference_fmus/good/BouncingBall (state
 * event z = h, impacts in the event update) with a 1.0 descriptor: ME only, and two alias
 * variables, "height" (alias of h) and "v_down" (negatedAlias of v: the downward velocity), so
 * an importer's alias handling (fmi1-rules B-303, B-304, C-12) has something to read. */
#define fmuc_model bb_model_fmi2
#include "../../../../good/BouncingBall/model.c"
#undef fmuc_model

extern const fmuc_m_desc fmuc_model;

static const fmuc_m_alias aliases[] = {
    {.name = "height", .base = "h", .description = "Height of the ball (alias of h)"},
    {.name = "v_down", .base = "v", .negated = 1,
     .description = "Downward velocity of the ball (negated alias of v)"},
};

const fmuc_m_desc fmuc_model = {
    BB_DESC_BASE,
    .description = "Ball bouncing on the floor (FMI 1.0 Model Exchange): state events, e = 0.7",
    .caps = FMUC_M_CAP_ME,
    .data_size = sizeof(ball),
    .calc = calc,
    .event_indicators = event_indicators,
    .event_update = event_update,
    .do_step = do_step, /* unused by the ME glue */
    .aliases = aliases,
    .naliases = sizeof aliases / sizeof aliases[0],
};
