/* md-model-identifier fixture (FMI 1.0): the Model Exchange 1.0 Stair of
 * reference_fmus/fmi1/good/me/Stair under the modelIdentifier "CON". In 1.0 the modelIdentifier
 * prefixes every function (CON_fmiGetVersion ...) and names the library (CON.so here, CON.dll on
 * Windows, a reserved device name there). Everything else is the good 1.0 Stair. */
#define fmuc_model stair_model_fmi2
#include "../../good/Stair/model.c"
#undef fmuc_model

extern const fmuc_m_desc fmuc_model;
const fmuc_m_desc fmuc_model = {
    .model_name = "Stair",
    .model_identifier = "CON",
    .version = "1.0",
    .description = "Integer stair with time events every second (FMI 1.0 ME, modelIdentifier CON)",
    .author = "fmucheck",
    .caps = FMUC_M_CAP_ME,
    .vars = vars,
    .nvars = sizeof vars / sizeof vars[0],
    .experiment = {.flags = FMUC_M_EXP_START | FMUC_M_EXP_STOP, .start = 0.0, .stop = 10.0},
    .data_size = sizeof(stair),
    .start = start,
    .calc = calc,
    .do_step = do_step, /* unused by the ME glue */
    .event_update = event_update,
};
