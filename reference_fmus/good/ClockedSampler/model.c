/* ClockedSampler: good reference FMU for FMI 3.0 clocks in Model Exchange and Co-Simulation Event
 * Mode (FMUC_M_CAP_EM_CLOCKS), on the fmuc glue. A continuous ramp x (der(x) = rate) is sampled
 * by the constant periodic input clock `sample` (every 0.1 s from t = 0.05) into `sampled`;
 * the triggered input clock `trigger` counts its activations in `triggers`; every 5th sample
 * ticks the output clock `fifth`. The importer enters Event Mode at the ticks, sets the input
 * clocks with fmi3SetClock and calls fmi3UpdateDiscreteStates, which runs the partitions below
 * (fmi3-rules F.3, C-45, F-23). Co-Simulation has Event Mode (hasEventMode="true"). `sample`
 * supports fractions (resolution 100 per second; fmi3GetIntervalFraction and
 * fmi3GetShiftFraction answer 10 and 5 ticks, F-22); `trigger` can be deactivated
 * (canBeDeactivated="true": fmi3SetClock(inactive) in the same instant gives `triggers` back its
 * value from before the activation, F-23). Every 2nd sample announces the countdown input clock
 * `alarm` 0.02 s later (its interval reads fmi3IntervalChanged once in Event Mode after that
 * sample, F-21); its partition counts into `alarms`. The changing input clock `chirp` ticks first
 * 0.12 s after the start (its interval, Changed, in Initialization Mode) and announces 0.07 s for
 * the next tick each time (read in the Event Mode of its tick, F-20); it counts into `chirps`. */
#include <stddef.h>

#include "fmuc_model.h"

typedef struct {
    double rate;
    double x, der_x;
    double sampled;
    int triggers;
    int alarms;
    int chirps;
    unsigned long samples; /* internal: activations of sample so far */
} sampler;

enum {
    VR_TIME = 0,
    VR_SAMPLE,
    VR_TRIGGER,
    VR_FIFTH,
    VR_RATE,
    VR_X,
    VR_DER_X,
    VR_SAMPLED,
    VR_TRIGGERS,
    VR_ALARM,
    VR_ALARMS,
    VR_CHIRP,
    VR_CHIRPS
};

#define OFF(f) offsetof(sampler, f)
#define FIFTH_EVERY 5
#define ALARM_EVERY 2     /* every 2nd sample announces the countdown clock alarm */
#define ALARM_DELAY 0.02  /* s after that sample */
#define CHIRP_FIRST 0.12  /* s: chirp's first interval (its first tick at the start + this) */
#define CHIRP_NEXT 0.07   /* s: the interval every chirp announces for the next one */

static const fmuc_m_clock clocks[] = {
    {.name = "sample", .vr = VR_SAMPLE, .causality = FMUC_M_INPUT,
     .interval_variability = FMUC_M_CLOCK_CONSTANT,
     .flags = FMUC_M_CLOCK_HAS_INTERVAL | FMUC_M_CLOCK_HAS_SHIFT | FMUC_M_CLOCK_HAS_FRACTION,
     .interval = 0.1, .shift = 0.05, .resolution = 100,
     .description = "Periodic sample clock (0.1 s, first tick 0.05 s after the start)"},
    {.name = "trigger", .vr = VR_TRIGGER, .causality = FMUC_M_INPUT,
     .interval_variability = FMUC_M_CLOCK_TRIGGERED, .flags = FMUC_M_CLOCK_CAN_DEACTIVATE,
     .description = "Set by the importer (and may be unset in the same instant)"},
    {.name = "alarm", .vr = VR_ALARM, .causality = FMUC_M_INPUT,
     .interval_variability = FMUC_M_CLOCK_COUNTDOWN,
     .description = "Countdown clock: 0.02 s after every 2nd sample"},
    {.name = "chirp", .vr = VR_CHIRP, .causality = FMUC_M_INPUT,
     .interval_variability = FMUC_M_CLOCK_CHANGING, .interval = CHIRP_FIRST,
     .description = "Changing clock: first tick 0.12 s after the start, then every 0.07 s"},
    {.name = "fifth", .vr = VR_FIFTH, .causality = FMUC_M_OUTPUT,
     .interval_variability = FMUC_M_CLOCK_TRIGGERED, .description = "Ticks with every 5th sample"},
};

static const fmuc_m_var vars[] = {
    {.name = "time", .vr = VR_TIME, .causality = FMUC_M_INDEPENDENT, .unit = "s",
     .description = "Simulation time"},
    {.name = "rate", .vr = VR_RATE, .causality = FMUC_M_PARAMETER, .variability = FMUC_M_FIXED,
     .flags = FMUC_M_HAS_START, .start = 1.0, .offset = OFF(rate),
     .description = "Slope of the ramp"},
    {.name = "x", .vr = VR_X, .causality = FMUC_M_OUTPUT, .initial = FMUC_M_EXACT,
     .flags = FMUC_M_HAS_START, .start = 0.0, .offset = OFF(x), .description = "The ramp",
     .deps = "x"},
    {.name = "der(x)", .vr = VR_DER_X, .offset = OFF(der_x), .derivative_of = "x",
     .description = "Derivative of x", .deps = "", .init_deps = "rate"},
    {.name = "sampled", .vr = VR_SAMPLED, .causality = FMUC_M_OUTPUT,
     .variability = FMUC_M_DISCRETE, .initial = FMUC_M_EXACT, .flags = FMUC_M_HAS_START,
     .start = 0.0, .offset = OFF(sampled), .clocks = "sample", .deps = "x",
     .description = "x at the last tick of sample"},
    {.name = "triggers", .vr = VR_TRIGGERS, .type = FMUC_M_INTEGER, .causality = FMUC_M_OUTPUT,
     .variability = FMUC_M_DISCRETE, .initial = FMUC_M_EXACT, .flags = FMUC_M_HAS_START,
     .start = 0, .offset = OFF(triggers), .clocks = "trigger", .deps = "",
     .description = "Activations of trigger"},
    {.name = "alarms", .vr = VR_ALARMS, .type = FMUC_M_INTEGER, .causality = FMUC_M_OUTPUT,
     .variability = FMUC_M_DISCRETE, .initial = FMUC_M_EXACT, .flags = FMUC_M_HAS_START,
     .start = 0, .offset = OFF(alarms), .clocks = "alarm", .deps = "",
     .description = "Activations of alarm"},
    {.name = "chirps", .vr = VR_CHIRPS, .type = FMUC_M_INTEGER, .causality = FMUC_M_OUTPUT,
     .variability = FMUC_M_DISCRETE, .initial = FMUC_M_EXACT, .flags = FMUC_M_HAS_START,
     .start = 0, .offset = OFF(chirps), .clocks = "chirp", .deps = "",
     .description = "Activations of chirp"},
};

static fmi2Status calc(fmuc_m_ctx *ctx, void *data)
{
    sampler *m = data;
    (void)ctx;
    m->der_x = m->rate;
    return fmi2OK;
}

static fmi2Status activate(fmuc_m_ctx *ctx, void *data, fmi2ValueReference clock, double time)
{
    sampler *m = data;
    switch (clock) {
    case VR_SAMPLE: {
        fmi2Status st = fmi2OK;
        m->sampled = m->x;
        if (++m->samples % ALARM_EVERY == 0)
            st = fmuc_m_countdown_set(ctx, VR_ALARM, ALARM_DELAY);
        if (st == fmi2OK && m->samples % FIFTH_EVERY == 0)
            st = fmuc_m_clock_tick(ctx, VR_FIFTH);
        return st;
    }
    case VR_ALARM:
        m->alarms++;
        return fmi2OK;
    case VR_CHIRP:
        m->chirps++;
        return fmuc_m_countdown_set(ctx, VR_CHIRP, CHIRP_NEXT);
    case VR_TRIGGER:
        m->triggers++;
        fmuc_m_log(ctx, fmi2OK, "logEvents", "trigger: %d activations at t = %.17g", m->triggers,
                   time);
        return fmi2OK;
    default:
        fmuc_m_log(ctx, fmi2Error, NULL, "activate: vr %u is not an input clock of %s", clock,
                   fmuc_model.model_identifier);
        return fmi2Error;
    }
}

const fmuc_m_desc fmuc_model = {
    .model_name = "ClockedSampler",
    .model_identifier = "ClockedSampler",
    .version = "1.0",
    .description = "A ramp sampled by a periodic input clock, with a triggered, a countdown "
                   "and a changing input clock and an output clock, in Event Mode (ME and CS)",
    .author = "fmucheck",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_CS | FMUC_M_CAP_CS_EVENT_MODE | FMUC_M_CAP_EM_CLOCKS |
            FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_VAR_STEP | FMUC_M_CAP_COMPLETED_STEP_NOT_NEEDED,
    .vars = vars,
    .nvars = sizeof vars / sizeof vars[0],
    .clocks = clocks,
    .nclocks = sizeof clocks / sizeof clocks[0],
    .experiment = {.flags = FMUC_M_EXP_START | FMUC_M_EXP_STOP | FMUC_M_EXP_STEP,
                   .start = 0.0, .stop = 1.0, .step = 0.01},
    .data_size = sizeof(sampler),
    .calc = calc,
    .activate = activate,
};
