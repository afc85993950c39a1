/* BouncingBall as a Co-Simulation 1.0 FMU: the model of reference_fmus/good/BouncingBall with its
 * exact do_step (impact times from the parabola), so its steps equal the 2.0 FMU's bit for bit;
 * the negated alias "v_down" of v as in the ME 1.0 FMU. */
#define fmuc_model bb_model_fmi2
#include "../../../../good/BouncingBall/model.c"
#undef fmuc_model

extern const fmuc_m_desc fmuc_model;

static const fmuc_m_alias aliases[] = {
    {.name = "v_down", .base = "v", .negated = 1,
     .description = "Downward velocity of the ball (negated alias of v)"},
};

const fmuc_m_desc fmuc_model = {
    BB_DESC_BASE,
    .description = "Ball bouncing on the floor (FMI 1.0 Co-Simulation): exact steps, e = 0.7",
    .caps = FMUC_M_CAP_CS | FMUC_M_CAP_VAR_STEP,
    .data_size = sizeof(ball),
    .calc = calc,
    .do_step = do_step,
    .event_indicators = event_indicators,
    .event_update = event_update,
    .aliases = aliases,
    .naliases = sizeof aliases / sizeof aliases[0],
};
