/* api-dependencies-observed--discrete-fmi1 fixture, FMI 1.0 Model Exchange: the model of
 * ../api-dependencies-observed--discrete (the SpringMassDamper whose output E also moves with
 * the discrete Integer input gear) on the FMI 1.0 ME glue, packaged under its base's
 * modelIdentifier Stair. The generated model description gives E an empty <DirectDependency/>
 * (it depends on no input, fmiScalarVariable.xsd; fmi1-rules B-209) and gearShown one naming
 * gear: after gear is set and fmiEventUpdate has converged, E has moved against its
 * declaration. */
#define DD_DESC_NAME smd_gear_fmi2
#include "../api-dependencies-observed--discrete/model.c"

extern const fmuc_m_desc fmuc_model;
const fmuc_m_desc fmuc_model = {
    .model_name = "Stair",
    .model_identifier = "Stair",
    .version = "1.0",
    .author = "fmucheck",
    .description = "SpringMassDamper (FMI 1.0 ME) whose output E depends on the discrete input "
                   "gear against its empty DirectDependency (fixture)",
    .caps = FMUC_M_CAP_ME,
    .vars = gear_vars,
    .nvars = sizeof gear_vars / sizeof gear_vars[0],
    .experiment = {.flags = FMUC_M_EXP_START | FMUC_M_EXP_STOP | FMUC_M_EXP_STEP, .start = 0.0,
                   .stop = 2.0, .step = 0.01},
    .data_size = sizeof(smd_gear),
    .calc = calc_gear,
};
