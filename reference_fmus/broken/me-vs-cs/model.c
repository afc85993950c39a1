/* me-vs-cs fixture: BouncingBall whose Co-Simulation step ignores the floor (the glue's plain
 * RK4 over the ME equations, no event handling), so the CS ball falls through while the ME ball
 * bounces: the two interfaces of one FMU disagree. */
#define fmuc_model bb_base_model
#include "../../good/BouncingBall/model.c"
#undef fmuc_model

extern const fmuc_m_desc fmuc_model;
const fmuc_m_desc fmuc_model = {
    BB_DESC_BASE,
    .description = "BouncingBall whose CS step does not handle the impacts (defect)",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_CS | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE |
            FMUC_M_CAP_VAR_STEP | FMUC_M_CAP_COMPLETED_STEP_NOT_NEEDED,
    .data_size = sizeof(ball),
    .cs_h_max = 1e-3,
    .calc = calc,
    .event_indicators = event_indicators,
    .event_update = event_update,
};
