/* me-energy-residual fixture: SpringMassDamper whose dynamics use 1.02 * c for the damping force
 * while c (the declared parameter) stays 3 N.s/m: the reported energy E decays faster than the
 * power c*v^2 the declared damping dissipates (eps_E of about 2e-2 over 0..2 s).
 * Needs the run option --energy-spec (fmucheck.args). */
#define fmuc_model smd_base_model
#include "../../good/SpringMassDamper/model.c"
#undef fmuc_model

static fmi2Status lossy_calc(fmuc_m_ctx *ctx, void *data)
{
    smd *s = data;
    fmi2Status st = calc(ctx, data);
    s->der_v = (s->F - s->k * s->x - 1.02 * s->c * s->v) / s->m;
    return st;
}

extern const fmuc_m_desc fmuc_model;
const fmuc_m_desc fmuc_model = {
    SMD_DESC_BASE,
    .description = "SpringMassDamper whose damping force does not match c (defect)",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_CS | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE |
            FMUC_M_CAP_VAR_STEP,
    .data_size = sizeof(smd),
    .cs_h_max = 1e-3,
    .calc = lossy_calc,
};
