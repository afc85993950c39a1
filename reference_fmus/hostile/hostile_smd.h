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
        .caps = SMD_CAPS,                                                                       \
        .data_size = sizeof(smd),                                                               \
        .cs_h_max = 1e-3,                                                                       \
        .calc = calc,                                                                           \
        .dir_deriv = dir_deriv,                                                                 \
        __VA_ARGS__}

#endif
