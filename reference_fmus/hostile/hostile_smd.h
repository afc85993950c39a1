/* Hostile fixtures: SpringMassDamper (reference_fmus/good) with extra model hooks that misbehave.
 * A fixture's model.c includes this header and writes FMUC_HOSTILE_SMD(.enter_init = f, ...)
 * with the hooks it adds; everything else is the good model. */
#ifndef FMUC_HOSTILE_SMD_H
#define FMUC_HOSTILE_SMD_H

#define fmuc_model fmuc_model_base
#include "../good/SpringMassDamper/model.c" /* relative to this header */
#undef fmuc_model

#define FMUC_HOSTILE_SMD(...)                                                                   \
    const fmuc_m_desc fmuc_model = {                                                            \
        SMD_DESC_BASE,                                                                          \
        .description = "SpringMassDamper with a hostile behaviour (fixture)",                   \
        .caps = FMUC_M_CAP_ME | FMUC_M_CAP_CS | FMUC_M_CAP_GET_SET_STATE |                      \
                FMUC_M_CAP_SERIALIZE | FMUC_M_CAP_DIR_DERIV | FMUC_M_CAP_VAR_STEP,              \
        .data_size = sizeof(smd),                                                               \
        .cs_h_max = 1e-3,                                                                       \
        .calc = calc,                                                                           \
        .dir_deriv = dir_deriv,                                                                 \
        __VA_ARGS__}

#endif
