/* me-no-hidden-state fixture (FMI 3.0 and, through ../me-no-hidden-state--fmi1, FMI 1.0 ME):
 * BouncingBall whose derivative der(v) carries a call counter (hidden state outside t, x, u):
 * every other evaluation moves it by one unit in the last place, far too little for a
 * tolerance-based comparison or an integrator, but not a function of (t, x, u). As in the 2.0
 * fixture, the FMU offers no FMU state (a restored state would not restore the counter). */
#include <math.h>
#define fmuc_model bb_base_model
#include "../../good/BouncingBall/model.c"
#undef fmuc_model

typedef struct {
    ball base;
    unsigned long calls; /* the hidden state */
} ball_counted;

static fmi2Status counted_calc(fmuc_m_ctx *ctx, void *data)
{
    ball_counted *s = data;
    fmi2Status st = calc(ctx, &s->base);
    s->calls++;
    if (s->calls & 1u)
        s->base.der_v = nextafter(s->base.der_v, INFINITY);
    return st;
}

extern const fmuc_m_desc fmuc_model;
const fmuc_m_desc fmuc_model = {
    BB_DESC_BASE,
    .description = "BouncingBall with a call counter in its derivatives (defect)",
#ifdef FMUC_FIXTURE_FMI1_ME
    .caps = FMUC_M_CAP_ME,
#else
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_CS | FMUC_M_CAP_VAR_STEP |
            FMUC_M_CAP_COMPLETED_STEP_NOT_NEEDED,
#endif
    .data_size = sizeof(ball_counted),
    .calc = counted_calc,
    .do_step = do_step,
    .event_indicators = event_indicators,
    .event_update = event_update,
};
