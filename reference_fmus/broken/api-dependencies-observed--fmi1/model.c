/* api-dependencies-observed fixture, FMI 1.0 Model Exchange: the SpringMassDamper whose output
 * E = m v^2/2 + k x^2/2 + F x also contains the work of the input force F, on the FMI 1.0 ME
 * glue and packaged under its base's modelIdentifier Stair. The generated model description
 * gives E an empty <DirectDependency/> (it depends on no input, fmiScalarVariable.xsd;
 * fmi1-rules B-209): after fmiInitialize, with time and states unchanged, E moves with F that
 * the declaration rules out. (FMI 1.0 Co-Simulation is not judged: inputs set at a
 * communication point are effective for the next fmiDoStep only, and 1.0 has no FMU state to
 * repeat a step from.) */
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

const fmuc_m_desc fmuc_model = {
    .model_name = "Stair",
    .model_identifier = "Stair",
    .version = "1.0",
    .author = "fmucheck",
    .description = "SpringMassDamper (FMI 1.0 ME) whose output E depends on the input F "
                   "against its empty DirectDependency (fixture)",
    .caps = FMUC_M_CAP_ME,
    .vars = vars,
    .nvars = sizeof vars / sizeof vars[0],
    .experiment = {.flags = FMUC_M_EXP_START | FMUC_M_EXP_STOP | FMUC_M_EXP_STEP, .start = 0.0,
                   .stop = 2.0, .step = 0.01},
    .data_size = sizeof(smd),
    .calc = calc_feedthrough,
};
