/* cs-nominal-run--boolean-two fixture: the SpringMassDamper with a Boolean output "ready" that is
 * always true, stored as the C truth value 2 in its fmi2Boolean (an int), so fmi2GetBoolean hands
 * out 2. FMI 2.0.4 §2.1.2 (fmi2TypesPlatform.h): the values of fmi2Boolean are fmi2True (1) and
 * fmi2False (0); an importer comparing with fmi2True reads "ready" as false. Both nominal runs
 * (cs-nominal-run, me-nominal-run) see it. */
#include <stddef.h>

#define fmuc_model fmuc_model_base
#include "../../good/SpringMassDamper/model.c"
#undef fmuc_model
#undef SMD_DESC_BASE

typedef struct {
    smd s;
    int ready; /* fmi2Boolean storage */
} smd_ready;

enum { VR_READY = VR_X0 + 1 };

#define ROFF(f) offsetof(smd_ready, f)
#define SOFF(f) (offsetof(smd_ready, s) + offsetof(smd, f))

static const fmuc_m_var ready_vars[] = {
    {.name = "time", .vr = VR_TIME, .causality = FMUC_M_INDEPENDENT, .unit = "s",
     .description = "Simulation time"},
    {.name = "x", .vr = VR_X, .causality = FMUC_M_OUTPUT, .initial = FMUC_M_CALCULATED,
     .unit = "m", .flags = FMUC_M_HAS_NOMINAL, .nominal = 0.05, .offset = SOFF(x),
     .description = "Position of the mass", .init_deps = "x0"},
    {.name = "v", .vr = VR_V, .causality = FMUC_M_OUTPUT, .initial = FMUC_M_EXACT,
     .flags = FMUC_M_HAS_START | FMUC_M_HAS_NOMINAL, .start = 0.0, .nominal = 0.5, .unit = "m/s",
     .offset = SOFF(v), .description = "Velocity of the mass"},
    {.name = "der(x)", .vr = VR_DER_X, .unit = "m/s", .offset = SOFF(der_x),
     .derivative_of = "x", .description = "Derivative of x", .deps = "v", .init_deps = "v"},
    {.name = "der(v)", .vr = VR_DER_V, .unit = "m/s2", .offset = SOFF(der_v),
     .derivative_of = "v", .description = "Derivative of v", .deps = "x v F",
     .init_deps = "v F m k c x0"},
    {.name = "E", .vr = VR_E, .causality = FMUC_M_OUTPUT, .unit = "J", .offset = SOFF(E),
     .description = "Mechanical energy m*v^2/2 + k*x^2/2", .deps = "x v",
     .init_deps = "v m k x0"},
    {.name = "F", .vr = VR_F, .causality = FMUC_M_INPUT, .flags = FMUC_M_HAS_START, .start = 0.0,
     .unit = "N", .offset = SOFF(F), .description = "External force on the mass"},
    {.name = "m", .vr = VR_M, .causality = FMUC_M_PARAMETER, .variability = FMUC_M_TUNABLE,
     .flags = FMUC_M_HAS_START | FMUC_M_HAS_MIN, .start = 2.5, .min = 1e-3, .unit = "kg",
     .offset = SOFF(m), .description = "Mass"},
    {.name = "k", .vr = VR_K, .causality = FMUC_M_PARAMETER, .variability = FMUC_M_TUNABLE,
     .flags = FMUC_M_HAS_START | FMUC_M_HAS_MIN, .start = 120.0, .min = 0.0, .unit = "N/m",
     .offset = SOFF(k), .description = "Spring stiffness"},
    {.name = "c", .vr = VR_C, .causality = FMUC_M_PARAMETER, .variability = FMUC_M_TUNABLE,
     .flags = FMUC_M_HAS_START | FMUC_M_HAS_MIN, .start = SMD_DAMPING_START, .min = 0.0,
     .unit = "N.s/m", .offset = SOFF(c), .description = "Damping coefficient"},
    {.name = "x0", .vr = VR_X0, .causality = FMUC_M_PARAMETER, .variability = FMUC_M_FIXED,
     .flags = FMUC_M_HAS_START, .start = 0.05, .unit = "m", .offset = SOFF(x0),
     .description = "Initial position"},
    /* the defect: true is written as 2 */
    {.name = "ready", .vr = VR_READY, .type = FMUC_M_BOOLEAN, .causality = FMUC_M_OUTPUT,
     .variability = FMUC_M_DISCRETE, .offset = ROFF(ready),
     .description = "Always true, stored as the C truth value 2", .deps = "", .init_deps = ""},
};

static fmi2Status calc_ready(fmuc_m_ctx *ctx, void *data)
{
    smd_ready *r = data;
    fmi2Status st = calc(ctx, &r->s);
    r->ready = 2;
    return st;
}

static fmi2Status dir_deriv_ready(fmuc_m_ctx *ctx, void *data, const fmi2ValueReference *unknown,
                                  size_t n_unknown, const fmi2ValueReference *known,
                                  size_t n_known, const double *dv_known, double *dv_unknown)
{
    return dir_deriv(ctx, &((smd_ready *)data)->s, unknown, n_unknown, known, n_known, dv_known,
                     dv_unknown);
}

const fmuc_m_desc fmuc_model = {
    .model_name = "SpringMassDamper", .model_identifier = "SpringMassDamper", .version = "1.0",
    .author = "fmucheck", .vars = ready_vars, .nvars = sizeof ready_vars / sizeof ready_vars[0],
    .experiment = {.flags = FMUC_M_EXP_START | FMUC_M_EXP_STOP | FMUC_M_EXP_STEP, .start = 0.0,
                   .stop = 2.0, .step = 0.01},
    .description = "SpringMassDamper whose Boolean output ready reads 2 (fixture)",
    .caps = SMD_CAPS,
    .data_size = sizeof(smd_ready),
    .cs_h_max = 1e-3,
    .calc = calc_ready,
    .dir_deriv = dir_deriv_ready,
};
