/* me-vs-cs fixture: BouncingBall whose Co-Simulation step ignores the floor (the glue's plain
 * RK4 over the ME equations, no event handling), so the CS ball falls through while the ME ball
 * bounces: the two interfaces of one FMU disagree. */
#define fmuc_model bb_base_model
#include "../../good/BouncingBall/model.c"
#undef fmuc_model

extern const fmuc_m_desc fmuc_model;
const fmuc_m_desc fmuc_model = {
    .model_name = "BouncingBall",
    .model_identifier = "BouncingBall",
    .version = "1.0",
    .description = "BouncingBall whose CS step does not handle the impacts (defect)",
    .author = "fmucheck",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_CS | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE |
            FMUC_M_CAP_VAR_STEP | FMUC_M_CAP_COMPLETED_STEP_NOT_NEEDED,
    .vars = vars,
    .nvars = sizeof vars / sizeof vars[0],
    .n_event_indicators = 1,
    .experiment = {.flags = FMUC_M_EXP_START | FMUC_M_EXP_STOP | FMUC_M_EXP_STEP,
                   .start = 0.0, .stop = 3.0, .step = 0.01},
    .data_size = sizeof(ball),
    .cs_h_max = 1e-3,
    .calc = calc,
    .event_indicators = event_indicators,
    .event_update = event_update,
};
