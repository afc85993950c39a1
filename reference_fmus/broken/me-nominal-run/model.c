/* me-nominal-run fixture: SpringMassDamper that announces a time event at t = 1 s; from then on
 * fmi2NewDiscreteStates always reports newDiscreteStatesNeeded: that event iteration never
 * settles (initialization and the first second are fine). */
#define fmuc_model fmuc_model_base
#include "../../good/SpringMassDamper/model.c"
#undef fmuc_model

static fmi2Status never_settles(fmuc_m_ctx *ctx, void *data, fmi2EventInfo *info)
{
    (void)data;
    if (fmuc_m_time(ctx) >= 1.0) {
        info->newDiscreteStatesNeeded = fmi2True;
    } else {
        info->nextEventTimeDefined = fmi2True;
        info->nextEventTime = 1.0;
    }
    return fmi2OK;
}

const fmuc_m_desc fmuc_model = {
    SMD_DESC_BASE,
    .description = "SpringMassDamper whose event iteration never settles (fixture)",
    .caps = SMD_CAPS,
    .data_size = sizeof(smd),
    .cs_h_max = 1e-3,
    .calc = calc,
    .event_update = never_settles,
    .dir_deriv = dir_deriv,
};
