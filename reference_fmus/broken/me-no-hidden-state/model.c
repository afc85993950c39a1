/* me-no-hidden-state fixture: SpringMassDamper whose derivative der(v) carries a call counter
 * (hidden state outside t, x, u): every other evaluation moves it by one unit in the last place,
 * far too little for any tolerance-based comparison (or an integrator), but not a function of
 * (t, x, u). As in the seed's scenario (a static cache with canGetAndSetFMUstate="false"), the
 * FMU does not offer FMU states. */
#include <math.h>
#define fmuc_model smd_base_model
#include "../../good/SpringMassDamper/model.c"
#undef fmuc_model

typedef struct {
    smd base;
    unsigned long calls; /* the hidden state */
} smd_counted;

static fmi2Status counted_calc(fmuc_m_ctx *ctx, void *data)
{
    smd_counted *s = data;
    fmi2Status st = calc(ctx, &s->base);
    s->calls++;
    if (s->calls & 1u)
        s->base.der_v = nextafter(s->base.der_v, INFINITY);
    return st;
}

extern const fmuc_m_desc fmuc_model;
const fmuc_m_desc fmuc_model = {
    SMD_DESC_BASE,
    .description = "SpringMassDamper with a call counter in its derivatives (defect)",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_CS | FMUC_M_CAP_DIR_DERIV | FMUC_M_CAP_VAR_STEP,
    .data_size = sizeof(smd_counted),
    .cs_h_max = 1e-3,
    .calc = counted_calc,
    .dir_deriv = dir_deriv,
};
