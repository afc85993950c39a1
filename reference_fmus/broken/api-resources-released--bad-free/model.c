/* api-resources-released fixture: SpringMassDamper that hands the host's freeMemory a pointer
 * allocateMemory never returned (a static buffer) at every (re)start. */
#define fmuc_model fmuc_model_base
#include "../../good/SpringMassDamper/model.c"
#undef fmuc_model

static char not_from_the_host[16];

static fmi2Status start_bad_free(fmuc_m_ctx *ctx, void *data)
{
    (void)data;
    fmuc_m_free(ctx, not_from_the_host); /* the defect */
    return fmi2OK;
}

const fmuc_m_desc fmuc_model = {
    SMD_DESC_BASE,
    .description = "SpringMassDamper that frees a pointer the host never allocated (fixture)",
    .caps = SMD_CAPS,
    .data_size = sizeof(smd),
    .cs_h_max = 1e-3,
    .start = start_bad_free,
    .calc = calc,
    .dir_deriv = dir_deriv,
};
