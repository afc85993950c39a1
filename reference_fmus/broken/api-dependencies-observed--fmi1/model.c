/* api-dependencies-observed fixture, FMI 1.0 Co-Simulation: the SpringMassDamper of
 * ../../fmi1/good/cs/SpringMassDamper whose output E = m v^2/2 + k x^2/2 + F x also contains the
 * work of the input force F, while the generated model description still gives E an empty
 * <DirectDependency/> (it depends on no input, fmiScalarVariable.xsd; fmi1-rules B-209): at a
 * communication point E moves with F that the declaration rules out. */
#define fmuc_model smd_model_fmi2
#include "../../good/SpringMassDamper/model.c"
#undef fmuc_model

extern const fmuc_m_desc fmuc_model;

static fmi2Status calc_feedthrough(fmuc_m_ctx *ctx, void *data)
{
    fmi2Status st = calc(ctx, data);
    smd *s = data;
    s->E += s->F * s->x; /* the defect: E depends on the input F, declared independent */
    return st;
}

static const fmuc_m_alias aliases[] = {
    {.name = "a", .base = "der(v)", .description = "Acceleration of the mass (alias of der(v))"},
    {.name = "x_compression", .base = "x", .negated = 1,
     .description = "Compression of the spring (negated alias of x)"},
};

const fmuc_m_desc fmuc_model = {
    SMD_DESC_BASE,
    .description = "SpringMassDamper (FMI 1.0 CS) whose output E depends on the input F "
                   "against its empty DirectDependency (fixture)",
    .caps = FMUC_M_CAP_CS | FMUC_M_CAP_VAR_STEP,
    .data_size = sizeof(smd),
    .cs_h_max = 1e-3,
    .calc = calc_feedthrough,
    .dir_deriv = dir_deriv,
    .aliases = aliases,
    .naliases = sizeof aliases / sizeof aliases[0],
};
