/* me-directional-derivatives fixture: SpringMassDamper whose analytic directional derivatives
 * are scaled by 1.001 (a slightly wrong Jacobian: eps_dd = 1e-3 against finite differences). */
#define fmuc_model smd_base_model
#include "../../good/SpringMassDamper/model.c"
#undef fmuc_model

static fmi2Status scaled_dir_deriv(fmuc_m_ctx *ctx, void *data, const fmi2ValueReference *unknown,
                                   size_t n_unknown, const fmi2ValueReference *known,
                                   size_t n_known, const double *dv_known, double *dv_unknown)
{
    fmi2Status st = dir_deriv(ctx, data, unknown, n_unknown, known, n_known, dv_known, dv_unknown);
    for (size_t i = 0; i < n_unknown; i++)
        dv_unknown[i] *= 1.001;
    return st;
}

extern const fmuc_m_desc fmuc_model;
const fmuc_m_desc fmuc_model = {
    SMD_DESC_BASE,
    .description = "SpringMassDamper with directional derivatives scaled by 1.001 (defect)",
    .caps = SMD_CAPS,
    .data_size = sizeof(smd),
    .cs_h_max = 1e-3,
    .calc = calc,
    .dir_deriv = scaled_dir_deriv,
};
