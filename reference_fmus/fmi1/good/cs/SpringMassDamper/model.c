/* SpringMassDamper as a Co-Simulation 1.0 FMU: the model of reference_fmus/good/SpringMassDamper
 * stepped by the glue's fixed-step RK4 (1e-3 s substeps, the arithmetic of the 2.0 glue). It has
 * the input F: the energy output E gets an empty DirectDependency (it does not depend on F
 * directly), x and v none (the table does not narrow them). Aliases: "a" = der(v) and the
 * negated alias "x_compression" = -x. The directional derivatives stay in the descriptor
 * (1.0 has none; the glue does not call them). */
#define fmuc_model smd_model_fmi2
#include "../../../../good/SpringMassDamper/model.c"
#undef fmuc_model

extern const fmuc_m_desc fmuc_model;

static const fmuc_m_alias aliases[] = {
    {.name = "a", .base = "der(v)", .description = "Acceleration of the mass (alias of der(v))"},
    {.name = "x_compression", .base = "x", .negated = 1,
     .description = "Compression of the spring (negated alias of x)"},
};

const fmuc_m_desc fmuc_model = {
    SMD_DESC_BASE,
    .description = "Linear spring-mass-damper (FMI 1.0 Co-Simulation), m = 2.5 kg, k = 120 N/m",
    .caps = FMUC_M_CAP_CS | FMUC_M_CAP_VAR_STEP,
    .data_size = sizeof(smd),
    .cs_h_max = 1e-3,
    .calc = calc,
    .dir_deriv = dir_deriv,
    .aliases = aliases,
    .naliases = sizeof aliases / sizeof aliases[0],
};
