/* me-events--fast-sampling fixture, no defect: a sampled system (Model Exchange only, keeps the
 * Stair modelIdentifier) with a time event every 4 ms over the 10 s experiment, 2500 events:
 * counter goes up by one at each sample, x integrates it. Like many generated FMUs it announces
 * each next sample as the sum of the periods so far (rounding: a sample lands a few ulp before
 * or after the output grid point it is meant to coincide with) and fires a sample only when
 * time >= the announced time, exactly. FMI 2.0.4 §3.2.2: the host integrates "until time =
 * nextEventTime" and enters Event Mode "at this time instant"; nothing limits the number of
 * events. Before the fix, fmucheck entered Event Mode a few ulp early at such grid points, where
 * the FMU rightly saw no event yet and announced the same time again (me-nominal-run failed "time
 * does not advance"), and the parent read past its array of 1000 kept events (wrong me-events
 * evidence; a crash with tens of thousands). */
#include <stddef.h>

#include "fmuc_model.h"

typedef struct {
    double x, der_x;
    int counter;
    double next_t; /* the announced time of the next sample: a running sum of PERIOD */
} sampler;

enum { VR_TIME = 0, VR_COUNTER, VR_X, VR_DER_X };

#define OFF(f) offsetof(sampler, f)
#define PERIOD 0.004

static const fmuc_m_var vars[] = {
    {.name = "time", .vr = VR_TIME, .causality = FMUC_M_INDEPENDENT, .unit = "s",
     .description = "Simulation time"},
    {.name = "counter", .vr = VR_COUNTER, .type = FMUC_M_INTEGER, .causality = FMUC_M_OUTPUT,
     .variability = FMUC_M_DISCRETE, .initial = FMUC_M_EXACT, .flags = FMUC_M_HAS_START,
     .start = 0, .offset = OFF(counter), .description = "Samples so far", .deps = ""},
    {.name = "x", .vr = VR_X, .causality = FMUC_M_OUTPUT, .initial = FMUC_M_EXACT,
     .flags = FMUC_M_HAS_START | FMUC_M_HAS_NOMINAL, .start = 0.0, .nominal = 1000.0,
     .offset = OFF(x), .description = "Integral of counter", .deps = "x"},
    {.name = "der(x)", .vr = VR_DER_X, .offset = OFF(der_x), .derivative_of = "x",
     .description = "Derivative of x", .deps = "", .init_deps = ""},
};

static fmi2Status start(fmuc_m_ctx *ctx, void *data)
{
    sampler *s = data;
    (void)ctx;
    s->next_t = PERIOD;
    return fmi2OK;
}

static fmi2Status calc(fmuc_m_ctx *ctx, void *data)
{
    sampler *s = data;
    (void)ctx;
    s->der_x = (double)s->counter;
    return fmi2OK;
}

static fmi2Status event_update(fmuc_m_ctx *ctx, void *data, fmi2EventInfo *info)
{
    sampler *s = data;
    if (fmuc_m_time(ctx) >= s->next_t) { /* exactly: no tolerance */
        s->counter++;
        s->next_t += PERIOD;
    }
    info->nextEventTimeDefined = fmi2True;
    info->nextEventTime = s->next_t;
    return fmi2OK;
}

const fmuc_m_desc fmuc_model = {
    .model_name = "Stair",
    .model_identifier = "Stair",
    .version = "1.0",
    .description = "Sampled counter: a time event every 4 ms, announced as a running sum "
                   "(fixture)",
    .author = "fmucheck",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE |
            FMUC_M_CAP_COMPLETED_STEP_NOT_NEEDED,
    .vars = vars,
    .nvars = sizeof vars / sizeof vars[0],
    .experiment = {.flags = FMUC_M_EXP_START | FMUC_M_EXP_STOP | FMUC_M_EXP_STEP,
                   .start = 0.0, .stop = 10.0, .step = 0.1},
    .data_size = sizeof(sampler),
    .start = start,
    .calc = calc,
    .event_update = event_update,
};
