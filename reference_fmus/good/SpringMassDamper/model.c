/* SpringMassDamper: good reference FMU (ME + CS) on the fmuc glue.
 * m x'' = F - k x - c x', x(0) = x0, v(0) = v_start; E = m v^2/2 + k x^2/2 as an output.
 * CS uses the glue's fixed-step RK4 (1e-3 s substeps); analytic directional derivatives. */
#include <stddef.h>

#include "fmuc_model.h"

typedef struct {
    double x, v, der_x, der_v, E, F, m, k, c, x0;
} smd;

/* Start value of the damping; the eq-compare fixture builds this model with another one. */
#ifndef SMD_DAMPING_START
#define SMD_DAMPING_START 3.0
#endif

enum { VR_TIME = 0, VR_X, VR_V, VR_DER_X, VR_DER_V, VR_E, VR_F, VR_M, VR_K, VR_C, VR_X0 };

#define OFF(f) offsetof(smd, f)

static const fmuc_m_var vars[] = {
    {.name = "time", .vr = VR_TIME, .causality = FMUC_M_INDEPENDENT, .unit = "s",
     .description = "Simulation time"},
    {.name = "x", .vr = VR_X, .causality = FMUC_M_OUTPUT, .initial = FMUC_M_CALCULATED,
     .unit = "m", .flags = FMUC_M_HAS_NOMINAL, .nominal = 0.05, .offset = OFF(x),
     .description = "Position of the mass", .init_deps = "x0"},
    {.name = "v", .vr = VR_V, .causality = FMUC_M_OUTPUT, .initial = FMUC_M_EXACT,
     .flags = FMUC_M_HAS_START | FMUC_M_HAS_NOMINAL, .start = 0.0, .nominal = 0.5, .unit = "m/s",
     .offset = OFF(v), .description = "Velocity of the mass"},
    {.name = "der(x)", .vr = VR_DER_X, .unit = "m/s", .offset = OFF(der_x), .derivative_of = "x",
     .description = "Derivative of x", .deps = "v", .init_deps = "v"},
    {.name = "der(v)", .vr = VR_DER_V, .unit = "m/s2", .offset = OFF(der_v), .derivative_of = "v",
     .description = "Derivative of v", .deps = "x v F", .init_deps = "v F m k c x0"},
    {.name = "E", .vr = VR_E, .causality = FMUC_M_OUTPUT, .unit = "J", .offset = OFF(E),
     .description = "Mechanical energy m*v^2/2 + k*x^2/2", .deps = "x v",
     .init_deps = "v m k x0"},
    {.name = "F", .vr = VR_F, .causality = FMUC_M_INPUT, .flags = FMUC_M_HAS_START, .start = 0.0,
     .unit = "N", .offset = OFF(F), .description = "External force on the mass"},
    {.name = "m", .vr = VR_M, .causality = FMUC_M_PARAMETER, .variability = FMUC_M_TUNABLE,
     .flags = FMUC_M_HAS_START | FMUC_M_HAS_MIN, .start = 2.5, .min = 1e-3, .unit = "kg",
     .offset = OFF(m), .description = "Mass"},
    {.name = "k", .vr = VR_K, .causality = FMUC_M_PARAMETER, .variability = FMUC_M_TUNABLE,
     .flags = FMUC_M_HAS_START | FMUC_M_HAS_MIN, .start = 120.0, .min = 0.0, .unit = "N/m",
     .offset = OFF(k), .description = "Spring stiffness"},
    {.name = "c", .vr = VR_C, .causality = FMUC_M_PARAMETER, .variability = FMUC_M_TUNABLE,
     .flags = FMUC_M_HAS_START | FMUC_M_HAS_MIN, .start = SMD_DAMPING_START, .min = 0.0,
     .unit = "N.s/m",
     .offset = OFF(c), .description = "Damping coefficient"},
    {.name = "x0", .vr = VR_X0, .causality = FMUC_M_PARAMETER, .variability = FMUC_M_FIXED,
     .flags = FMUC_M_HAS_START, .start = 0.05, .unit = "m", .offset = OFF(x0),
     .description = "Initial position"},
};

static fmi2Status calc(fmuc_m_ctx *ctx, void *data)
{
    smd *s = data;
    fmuc_m_phase ph = fmuc_m_get_phase(ctx);
    if (ph == FMUC_M_PHASE_INSTANTIATED || ph == FMUC_M_PHASE_INIT)
        s->x = s->x0; /* x has initial="calculated" */
    s->der_x = s->v;
    s->der_v = (s->F - s->k * s->x - s->c * s->v) / s->m;
    s->E = 0.5 * s->m * s->v * s->v + 0.5 * s->k * s->x * s->x;
    return fmi2OK;
}

/* d(unknown)/d(known), analytic. In initialization x = x0, so x0 acts through x. */
static double partial(const smd *s, int init, fmi2ValueReference u, fmi2ValueReference k)
{
    double dx = (k == VR_X || (init && k == VR_X0)) ? 1.0 : 0.0;
    double dv = k == VR_V ? 1.0 : 0.0;
    double dF = k == VR_F ? 1.0 : 0.0;
    switch (u) {
    case VR_X:
        return dx;
    case VR_V:
    case VR_DER_X:
        return dv;
    case VR_DER_V: {
        double d = (dF - s->k * dx - s->c * dv) / s->m;
        if (k == VR_M)
            d -= (s->F - s->k * s->x - s->c * s->v) / (s->m * s->m);
        else if (k == VR_K)
            d -= s->x / s->m;
        else if (k == VR_C)
            d -= s->v / s->m;
        return d;
    }
    case VR_E: {
        double d = s->m * s->v * dv + s->k * s->x * dx;
        if (k == VR_M)
            d += 0.5 * s->v * s->v;
        else if (k == VR_K)
            d += 0.5 * s->x * s->x;
        return d;
    }
    default:
        return u == k ? 1.0 : 0.0;
    }
}

static fmi2Status dir_deriv(fmuc_m_ctx *ctx, void *data, const fmi2ValueReference *unknown,
                            size_t n_unknown, const fmi2ValueReference *known, size_t n_known,
                            const double *dv_known, double *dv_unknown)
{
    const smd *s = data;
    fmuc_m_phase ph = fmuc_m_get_phase(ctx);
    int init = ph == FMUC_M_PHASE_INIT;
    for (size_t i = 0; i < n_unknown; i++) {
        double acc = 0.0;
        for (size_t j = 0; j < n_known; j++)
            acc += partial(s, init, unknown[i], known[j]) * dv_known[j];
#ifdef FMUC_DEFECT_DIR_DERIV_WRONG
        acc *= 2.0;
#endif
#ifdef FMUC_DEFECT_DIR_DERIV_WRONG_AWAY
        if (s->v < -0.08) /* only where the mass moves back fast: never near the start state */
            acc *= 2.0;
#endif
        dv_unknown[i] = acc;
    }
    return fmi2OK;
}

/* Its capabilities; fixtures that keep them write .caps = SMD_CAPS. */
#define SMD_CAPS                                                                                  \
    (FMUC_M_CAP_ME | FMUC_M_CAP_CS | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE |             \
     FMUC_M_CAP_DIR_DERIV | FMUC_M_CAP_VAR_STEP)

/* What every variant of this model shares; the fixtures in reference_fmus/broken and hostile
 * include this file and give the rest (description, capabilities, hooks) with their defect. */
#define SMD_DESC_BASE                                                                            \
    .model_name = "SpringMassDamper", .model_identifier = "SpringMassDamper", .version = "1.0",    \
    .author = "fmucheck", .vars = vars, .nvars = sizeof vars / sizeof vars[0],                     \
    .experiment = {.flags = FMUC_M_EXP_START | FMUC_M_EXP_STOP | FMUC_M_EXP_STEP,                  \
                   .start = 0.0, .stop = 2.0, .step = 0.01}

const fmuc_m_desc fmuc_model = {
    SMD_DESC_BASE,
    .description = "Linear spring-mass-damper, m = 2.5 kg, k = 120 N/m, c = 3 N.s/m",
    .caps = SMD_CAPS,
    .data_size = sizeof(smd),
    .cs_h_max = 1e-3,
    .calc = calc,
    .dir_deriv = dir_deriv,
};
