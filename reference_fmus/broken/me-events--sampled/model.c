/* me-events--sampled fixture, no defect: BouncingBall whose event iteration also announces a time
 * event every PERIOD s that changes nothing (a sampled controller that is idle; FMI 2.0.4 §3.2.2:
 * the importer "shall integrate at most until time = nextEventTime" and enter Event Mode there).
 * Every such event restarts the host's integrator, and its error in locating the impacts adds
 * up: at tolerance 1e-8 the later impacts lie further from the 1e-10 reference than the plain
 * ball's, beyond me-events's limit, while at 1e-9 they come back under half of it. A correct
 * FMU: me-events must pass (it failed before the third tolerance was asked). */
#include <math.h>

#define fmuc_model fmuc_model_base
#include "../../good/BouncingBall/model.c"
#undef fmuc_model

#ifndef PERIOD
#define PERIOD 0.01
#endif

static fmi2Status sampled_event_update(fmuc_m_ctx *ctx, void *data, fmi2EventInfo *info)
{
    fmi2Status st = event_update(ctx, data, info);
    double t = fmuc_m_time(ctx);
    info->nextEventTimeDefined = fmi2True;
    info->nextEventTime = (floor(t / PERIOD + 1e-6) + 1.0) * PERIOD;
    return st;
}

const fmuc_m_desc fmuc_model = {
    BB_DESC_BASE,
    .description = "BouncingBall with an idle time event every 0.01 s (fixture)",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_CS | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE |
            FMUC_M_CAP_VAR_STEP | FMUC_M_CAP_COMPLETED_STEP_NOT_NEEDED,
    .data_size = sizeof(ball),
    .calc = calc,
    .do_step = do_step,
    .event_indicators = event_indicators,
    .event_update = sampled_event_update,
};
