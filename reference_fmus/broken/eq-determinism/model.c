/* eq-determinism fixture: a spring-mass-damper whose energy output carries a tiny "noise" offset
 * seeded from the clock (nanoseconds) and a stack address (ASLR) at every Instantiate/Reset.
 * The offset lives in the instance data, so FMU states restore it; only fresh runs differ. */
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "fmuc_model.h"

typedef struct {
    double x, v, der_x, der_v, E, F, m, k, c, x0, noise;
} smd;

#define OFF(f) offsetof(smd, f)

static const fmuc_m_var vars[] = {
    {.name = "time", .vr = 0, .causality = FMUC_M_INDEPENDENT, .unit = "s"},
    {.name = "x", .vr = 1, .causality = FMUC_M_OUTPUT, .initial = FMUC_M_CALCULATED, .unit = "m",
     .offset = OFF(x), .init_deps = "x0"},
    {.name = "v", .vr = 2, .causality = FMUC_M_OUTPUT, .initial = FMUC_M_EXACT,
     .flags = FMUC_M_HAS_START, .start = 0.0, .unit = "m/s", .offset = OFF(v)},
    {.name = "der(x)", .vr = 3, .unit = "m/s", .offset = OFF(der_x), .derivative_of = "x",
     .deps = "v", .init_deps = "v"},
    {.name = "der(v)", .vr = 4, .unit = "m/s2", .offset = OFF(der_v), .derivative_of = "v",
     .deps = "x v F", .init_deps = "v F m k c x0"},
    {.name = "E", .vr = 5, .causality = FMUC_M_OUTPUT, .unit = "J", .offset = OFF(E),
     .deps = "x v", .init_deps = "v m k x0"},
    {.name = "F", .vr = 6, .causality = FMUC_M_INPUT, .flags = FMUC_M_HAS_START, .start = 0.0,
     .unit = "N", .offset = OFF(F)},
    {.name = "m", .vr = 7, .causality = FMUC_M_PARAMETER, .variability = FMUC_M_FIXED,
     .flags = FMUC_M_HAS_START, .start = 2.5, .unit = "kg", .offset = OFF(m)},
    {.name = "k", .vr = 8, .causality = FMUC_M_PARAMETER, .variability = FMUC_M_FIXED,
     .flags = FMUC_M_HAS_START, .start = 120.0, .unit = "N/m", .offset = OFF(k)},
    {.name = "c", .vr = 9, .causality = FMUC_M_PARAMETER, .variability = FMUC_M_FIXED,
     .flags = FMUC_M_HAS_START, .start = 3.0, .unit = "N.s/m", .offset = OFF(c)},
    {.name = "x0", .vr = 10, .causality = FMUC_M_PARAMETER, .variability = FMUC_M_FIXED,
     .flags = FMUC_M_HAS_START, .start = 0.05, .unit = "m", .offset = OFF(x0)},
};

static fmi2Status start(fmuc_m_ctx *ctx, void *data)
{
    smd *s = data;
    struct timespec ts;
    (void)ctx;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t seed = (uint64_t)ts.tv_nsec ^ (uint64_t)(uintptr_t)&ts;
    seed ^= seed >> 17;
    s->noise = (double)(1 + seed % 997) * 1e-12;
    return fmi2OK;
}

static fmi2Status calc(fmuc_m_ctx *ctx, void *data)
{
    smd *s = data;
    fmuc_m_phase ph = fmuc_m_get_phase(ctx);
    if (ph == FMUC_M_PHASE_INSTANTIATED || ph == FMUC_M_PHASE_INIT)
        s->x = s->x0;
    s->der_x = s->v;
    s->der_v = (s->F - s->k * s->x - s->c * s->v) / s->m;
    s->E = 0.5 * s->m * s->v * s->v + 0.5 * s->k * s->x * s->x + s->noise;
    return fmi2OK;
}

const fmuc_m_desc fmuc_model = {
    .model_name = "SpringMassDamper",
    .model_identifier = "SpringMassDamper",
    .version = "1.0",
    .description = "Spring-mass-damper with clock-seeded noise on E (eq-determinism fixture)",
    .author = "fmucheck",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_CS | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE |
            FMUC_M_CAP_VAR_STEP,
    .vars = vars,
    .nvars = sizeof vars / sizeof vars[0],
    .experiment = {.flags = FMUC_M_EXP_START | FMUC_M_EXP_STOP | FMUC_M_EXP_STEP,
                   .start = 0.0, .stop = 2.0, .step = 0.01},
    .data_size = sizeof(smd),
    .cs_h_max = 1e-3,
    .start = start,
    .calc = calc,
};
