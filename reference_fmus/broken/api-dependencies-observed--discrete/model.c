/* api-dependencies-observed--discrete fixture: the SpringMassDamper with a discrete input
 * "gear" (Integer; FMUC_DD_BOOLEAN: Boolean) and a discrete output "gearShown" that copies it
 * and declares so (dependencies="gear"). The output E = m v^2/2 + k x^2/2 + 0.5 gear also moves
 * with the discrete input, while its <ModelStructure> entry still declares dependencies on x
 * and v only (FMI 2.0.4 §2.2.8; FMI 3.0.2 §2.4.8): an undeclared direct feedthrough from a
 * discrete input. Model Exchange sees it after setting the input in Event Mode (the glue
 * refuses a discrete input in Continuous-Time Mode), Co-Simulation at a communication point. */
#include <stddef.h>

#define fmuc_model fmuc_model_base
#include "../../good/SpringMassDamper/model.c"
#undef fmuc_model
#undef SMD_DESC_BASE

typedef struct {
    smd s;
    int gear, shown; /* Integer or fmi2Boolean storage (int) */
} smd_gear;

enum { VR_GEAR = VR_X0 + 1, VR_SHOWN };

#ifdef FMUC_DD_BOOLEAN
#define GEAR_TYPE FMUC_M_BOOLEAN
#define GEAR_DESC "Boolean"
#else
#define GEAR_TYPE FMUC_M_INTEGER
#define GEAR_DESC "Integer"
#endif

#define GOFF(f) offsetof(smd_gear, f)
#define SOFF(f) (offsetof(smd_gear, s) + offsetof(smd, f))

static const fmuc_m_var gear_vars[] = {
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
    /* the defect: E moves with gear, its dependencies leave gear out */
    {.name = "E", .vr = VR_E, .causality = FMUC_M_OUTPUT, .unit = "J", .offset = SOFF(E),
     .description = "Mechanical energy m*v^2/2 + k*x^2/2 plus half the gear", .deps = "x v",
     .init_deps = "v m k x0 gear"},
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
    {.name = "gear", .vr = VR_GEAR, .type = GEAR_TYPE, .causality = FMUC_M_INPUT,
     .variability = FMUC_M_DISCRETE, .flags = FMUC_M_HAS_START, .start = 0.0,
     .offset = GOFF(gear), .description = "Selected gear (" GEAR_DESC " input)"},
    /* declared right: gearShown depends on gear */
    {.name = "gearShown", .vr = VR_SHOWN, .type = GEAR_TYPE, .causality = FMUC_M_OUTPUT,
     .variability = FMUC_M_DISCRETE, .offset = GOFF(shown),
     .description = "The selected gear as shown (" GEAR_DESC " output)", .deps = "gear",
     .init_deps = "gear"},
};

static fmi2Status calc_gear(fmuc_m_ctx *ctx, void *data)
{
    smd_gear *g = data;
    fmi2Status st = calc(ctx, &g->s);
    g->shown = g->gear;
    g->s.E += 0.5 * g->gear; /* the defect: E depends on the input gear, undeclared */
    return st;
}

static fmi2Status dir_deriv_gear(fmuc_m_ctx *ctx, void *data, const fmi2ValueReference *unknown,
                                 size_t n_unknown, const fmi2ValueReference *known,
                                 size_t n_known, const double *dv_known, double *dv_unknown)
{
    return dir_deriv(ctx, &((smd_gear *)data)->s, unknown, n_unknown, known, n_known, dv_known,
                     dv_unknown);
}

/* The FMI 1.0 fixture names this descriptor otherwise and gives its own */
#ifndef DD_DESC_NAME
#define DD_DESC_NAME fmuc_model
#endif

const fmuc_m_desc DD_DESC_NAME = {
    .model_name = "SpringMassDamper", .model_identifier = "SpringMassDamper", .version = "1.0",
    .author = "fmucheck", .vars = gear_vars, .nvars = sizeof gear_vars / sizeof gear_vars[0],
    .experiment = {.flags = FMUC_M_EXP_START | FMUC_M_EXP_STOP | FMUC_M_EXP_STEP, .start = 0.0,
                   .stop = 2.0, .step = 0.01},
    .description = "SpringMassDamper whose output E depends on the discrete input gear "
                   "undeclared (fixture)",
    .caps = SMD_CAPS,
    .data_size = sizeof(smd_gear),
    .cs_h_max = 1e-3,
    .calc = calc_gear,
    .dir_deriv = dir_deriv_gear,
};
