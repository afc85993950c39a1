/* SampledCounter: good reference FMU for FMI 3.0 Scheduled Execution (SE only), on the fmuc glue.
 * Four clocks: the periodic input clock `tick` (every 0.1 s, priority 0) adds the input
 * `increment` to `count`; the triggered input clock `trigger` (priority 1) counts its activations
 * in `triggers`; every 4th `tick` announces the countdown clock `delayed` (priority 2) 0.05 s
 * later, whose partition samples `count` into `delayedCount`; every 5th `tick` ticks the output
 * clock `overflow`. Data shared between partitions (count, the tick counter) is updated only
 * between fmuc_m_preemption_lock and fmuc_m_preemption_unlock, so a higher-priority partition
 * preempting a lower one never sees half an update. */
#include <stddef.h>

#include "fmuc_model.h"

typedef struct {
    int increment;
    int count, triggers, delayed_count;
    unsigned long ticks; /* internal: tick activations so far */
} sampled_counter;

enum {
    VR_TIME = 0,
    VR_TICK,
    VR_TRIGGER,
    VR_DELAYED,
    VR_OVERFLOW,
    VR_INCREMENT,
    VR_COUNT,
    VR_TRIGGERS,
    VR_DELAYED_COUNT
};

#define OFF(f) offsetof(sampled_counter, f)
#define DELAY_EVERY 4    /* every 4th tick announces `delayed` */
#define DELAY_SECONDS 0.05
#define OVERFLOW_EVERY 5 /* every 5th tick ticks `overflow` */

static const fmuc_m_clock clocks[] = {
    {.name = "tick", .vr = VR_TICK, .causality = FMUC_M_INPUT,
     .interval_variability = FMUC_M_CLOCK_CONSTANT,
     .flags = FMUC_M_CLOCK_HAS_INTERVAL | FMUC_M_CLOCK_HAS_PRIORITY, .interval = 0.1,
     .priority = 0, .description = "Periodic sample clock (0.1 s)"},
    {.name = "trigger", .vr = VR_TRIGGER, .causality = FMUC_M_INPUT,
     .interval_variability = FMUC_M_CLOCK_TRIGGERED, .flags = FMUC_M_CLOCK_HAS_PRIORITY,
     .priority = 1, .description = "Triggered by the importer"},
    {.name = "delayed", .vr = VR_DELAYED, .causality = FMUC_M_INPUT,
     .interval_variability = FMUC_M_CLOCK_COUNTDOWN, .flags = FMUC_M_CLOCK_HAS_PRIORITY,
     .priority = 2, .description = "Announced by every 4th tick, 0.05 s later"},
    {.name = "overflow", .vr = VR_OVERFLOW, .causality = FMUC_M_OUTPUT,
     .interval_variability = FMUC_M_CLOCK_TRIGGERED, .description = "Ticks with every 5th tick"},
};

static const fmuc_m_var vars[] = {
    {.name = "time", .vr = VR_TIME, .causality = FMUC_M_INDEPENDENT, .unit = "s",
     .description = "Simulation time"},
    {.name = "increment", .vr = VR_INCREMENT, .type = FMUC_M_INTEGER, .causality = FMUC_M_INPUT,
     .variability = FMUC_M_DISCRETE, .flags = FMUC_M_HAS_START, .start = 1,
     .offset = OFF(increment), .description = "Added to count at every tick"},
    {.name = "count", .vr = VR_COUNT, .type = FMUC_M_INTEGER, .causality = FMUC_M_OUTPUT,
     .variability = FMUC_M_DISCRETE, .initial = FMUC_M_EXACT, .flags = FMUC_M_HAS_START,
     .start = 0, .offset = OFF(count), .clocks = "tick", .deps = "increment",
     .description = "Sum of increment over the ticks"},
    {.name = "triggers", .vr = VR_TRIGGERS, .type = FMUC_M_INTEGER, .causality = FMUC_M_OUTPUT,
     .variability = FMUC_M_DISCRETE, .initial = FMUC_M_EXACT, .flags = FMUC_M_HAS_START,
     .start = 0, .offset = OFF(triggers), .clocks = "trigger", .deps = "",
     .description = "Activations of trigger"},
    {.name = "delayedCount", .vr = VR_DELAYED_COUNT, .type = FMUC_M_INTEGER,
     .causality = FMUC_M_OUTPUT, .variability = FMUC_M_DISCRETE, .initial = FMUC_M_EXACT,
     .flags = FMUC_M_HAS_START, .start = 0, .offset = OFF(delayed_count), .clocks = "delayed",
     .deps = "", .description = "count, sampled at each activation of delayed"},
};

static fmi2Status on_tick(fmuc_m_ctx *ctx, sampled_counter *m)
{
    fmuc_m_preemption_lock(ctx);
    m->count += m->increment;
    unsigned long ticks = ++m->ticks;
    fmuc_m_preemption_unlock(ctx);
    fmi2Status st = fmi2OK;
    if (ticks % DELAY_EVERY == 0 &&
        fmuc_m_countdown_set(ctx, VR_DELAYED, DELAY_SECONDS) != fmi2OK)
        st = fmi2Error;
    if (ticks % OVERFLOW_EVERY == 0 && fmuc_m_clock_tick(ctx, VR_OVERFLOW) != fmi2OK)
        st = fmi2Error;
    return st;
}

static fmi2Status activate(fmuc_m_ctx *ctx, void *data, fmi2ValueReference clock, double time)
{
    sampled_counter *m = data;
    switch (clock) {
    case VR_TICK:
        return on_tick(ctx, m);
    case VR_TRIGGER:
        fmuc_m_preemption_lock(ctx);
        m->triggers++;
        fmuc_m_preemption_unlock(ctx);
        return fmi2OK;
    case VR_DELAYED:
        fmuc_m_preemption_lock(ctx);
        m->delayed_count = m->count;
        fmuc_m_preemption_unlock(ctx);
        fmuc_m_log(ctx, fmi2OK, "logEvents", "delayed: delayedCount = count = %d at t = %.17g",
                   m->delayed_count, time);
        return fmi2OK;
    default:
        fmuc_m_log(ctx, fmi2Error, NULL, "activate: vr %u is not an input clock of %s", clock,
                   fmuc_model.model_identifier);
        return fmi2Error;
    }
}

const fmuc_m_desc fmuc_model = {
    .model_name = "SampledCounter",
    .model_identifier = "SampledCounter",
    .version = "1.0",
    .description = "Scheduled Execution: a periodic, a triggered and a countdown partition, an "
                   "output clock",
    .author = "fmucheck",
    .caps = FMUC_M_CAP_SE,
    .vars = vars,
    .nvars = sizeof vars / sizeof vars[0],
    .clocks = clocks,
    .nclocks = sizeof clocks / sizeof clocks[0],
    .experiment = {.flags = FMUC_M_EXP_START | FMUC_M_EXP_STOP | FMUC_M_EXP_STEP,
                   .start = 0.0, .stop = 2.0, .step = 0.1},
    .data_size = sizeof(sampled_counter),
    .activate = activate,
};
