/* Stair: good reference FMU (ME + CS) with time events, on the fmuc glue.
 * counter (Integer output) starts at 1 and goes up by one at t = 1, 2, ... s (announced as
 * nextEventTime) until it reaches 10; x = integral of counter over time is a continuous state
 * (der(x) = counter), so a host that misses or shifts a time event gets a visibly wrong x.
 * CS: own exact do_step (piecewise-linear x, events at the whole seconds); FMI 3.0 CS also with
 * Event Mode, early return and the intermediate update (FMUC_M_CAP_CS_EVENT_MODE: the glue stops
 * at the nextEventTime of Event Mode); x has intermediateUpdate="true" (a master that registers
 * it reads it in Intermediate Update Mode in the middle of each step). */
#include <math.h>
#include <stddef.h>

#include "fmuc_model.h"

typedef struct {
    double x, der_x;
    int counter;
    double next_t; /* internal: time of the next step of the stair */
#ifdef STAIR_LABEL
    char label[FMUC_M_STRLEN];
#endif
} stair;

enum { VR_TIME = 0, VR_COUNTER, VR_X, VR_DER_X, VR_LABEL };

#define OFF(f) offsetof(stair, f)
#define STAIR_MAX 10
/* the first step of the stair; fixtures move it off the communication grid (a step that
 * reaches it ends early there when the master allows early returns) */
#ifndef STAIR_FIRST_EVENT
#define STAIR_FIRST_EVENT 1.0
#endif

static const fmuc_m_var vars[] = {
    {.name = "time", .vr = VR_TIME, .causality = FMUC_M_INDEPENDENT, .unit = "s",
     .description = "Simulation time"},
    {.name = "counter", .vr = VR_COUNTER, .type = FMUC_M_INTEGER, .causality = FMUC_M_OUTPUT,
     .variability = FMUC_M_DISCRETE, .initial = FMUC_M_EXACT, .flags = FMUC_M_HAS_START,
     .start = 1, .offset = OFF(counter), .description = "Counts the seconds", .deps = ""},
    {.name = "x", .vr = VR_X, .causality = FMUC_M_OUTPUT, .initial = FMUC_M_EXACT,
     .flags = FMUC_M_HAS_START | FMUC_M_HAS_NOMINAL | FMUC_M_INTERMEDIATE, .start = 0.0,
     .nominal = 10.0,
     .unit = "s", .offset = OFF(x), .description = "Integral of counter", .deps = "x"},
    {.name = "der(x)", .vr = VR_DER_X, .offset = OFF(der_x), .derivative_of = "x",
     .description = "Derivative of x", .deps = "", .init_deps = ""},
#ifdef STAIR_LABEL
    /* a String parameter, for fixtures of the String accessors (api-variable-access--string) */
    {.name = "label", .vr = VR_LABEL, .type = FMUC_M_STRING, .causality = FMUC_M_PARAMETER,
     .variability = FMUC_M_FIXED, .flags = FMUC_M_HAS_START, .start_str = "stair",
     .offset = OFF(label), .description = "A name for the stair"},
#endif
};

static fmi2Status start(fmuc_m_ctx *ctx, void *data)
{
    stair *s = data;
    (void)ctx;
    s->next_t = STAIR_FIRST_EVENT;
    return fmi2OK;
}

static fmi2Status calc(fmuc_m_ctx *ctx, void *data)
{
    stair *s = data;
    (void)ctx;
    s->der_x = (double)s->counter;
    return fmi2OK;
}

static double tol(double t)
{
    return 1e-9 * (fabs(t) > 1.0 ? fabs(t) : 1.0);
}

static fmi2Status event_update(fmuc_m_ctx *ctx, void *data, fmi2EventInfo *info)
{
    stair *s = data;
    double t = fmuc_m_time(ctx);
    if (s->counter < STAIR_MAX && t >= s->next_t - tol(s->next_t)) {
        s->counter++;
        s->next_t += 1.0;
        fmuc_m_log(ctx, fmi2OK, "logEvents", "counter = %d at t = %.17g", s->counter, t);
    }
    if (s->counter < STAIR_MAX) {
        info->nextEventTimeDefined = fmi2True;
        info->nextEventTime = s->next_t;
    }
    return fmi2OK;
}

static fmi2Status do_step(fmuc_m_ctx *ctx, void *data, double t, double h)
{
    stair *s = data;
    (void)ctx;
    double end = t + h;
    while (s->counter < STAIR_MAX && s->next_t <= end + tol(end)) {
        if (s->next_t > t)
            s->x += (double)s->counter * (s->next_t - t);
        t = s->next_t > t ? s->next_t : t;
        s->counter++;
        s->next_t += 1.0;
    }
    if (end > t)
        s->x += (double)s->counter * (end - t);
    return fmi2OK;
}

const fmuc_m_desc fmuc_model = {
    .model_name = "Stair",
    .model_identifier = "Stair",
    .version = "1.0",
    .description = "Integer stair with time events every second and its integral",
    .author = "fmucheck",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_CS | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE |
            FMUC_M_CAP_VAR_STEP | FMUC_M_CAP_COMPLETED_STEP_NOT_NEEDED | FMUC_M_CAP_CS_EVENT_MODE |
            FMUC_M_CAP_EVAL_DISCRETE,
    .vars = vars,
    .nvars = sizeof vars / sizeof vars[0],
    .experiment = {.flags = FMUC_M_EXP_START | FMUC_M_EXP_STOP | FMUC_M_EXP_STEP,
                   .start = 0.0, .stop = 10.0, .step = 0.1},
    .data_size = sizeof(stair),
    .start = start,
    .calc = calc,
    .do_step = do_step,
    .event_indicators = NULL,
    .event_update = event_update,
};
