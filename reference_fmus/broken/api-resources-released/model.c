/* api-resources-released fixture: SpringMassDamper that takes one 64-byte block from the host's
 * allocateMemory at every (re)start and never gives it back. */
#define fmuc_model fmuc_model_base
#include "../../good/SpringMassDamper/model.c"
#undef fmuc_model

static fmi2Status start_leaky(fmuc_m_ctx *ctx, void *data)
{
    (void)data;
    return fmuc_m_alloc(ctx, 1, 64) ? fmi2OK : fmi2Error; /* the defect: the block is dropped */
}

const fmuc_m_desc fmuc_model = {
    SMD_DESC_BASE,
    .description = "SpringMassDamper that leaks a block of host memory per instance (fixture)",
    .caps = SMD_CAPS,
    .data_size = sizeof(smd),
    .cs_h_max = 1e-3,
    .start = start_leaky,
    .calc = calc,
    .dir_deriv = dir_deriv,
};
