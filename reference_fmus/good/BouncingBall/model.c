/* BouncingBall: good reference FMU (ME + CS) with state events, on the fmuc glue.
 * der(h) = v, der(v) = g; event indicator z = h. At an impact (h <= 0, v < 0): h := DBL_MIN
 * (so z != 0 at the restart, §3.2.2), v := -e*v; when the rebound speed is below v_min the
 * ball comes to rest (v := 0, no more acceleration). Default experiment 0..3 s (about a dozen
 * impacts). CS: own do_step that solves the piecewise-parabolic motion exactly (impact times
 * from the quadratic), so ME (host integrator + root finding) and CS must agree closely.
 * FMI_VERSIONS lists 2 and 3: the same file also makes ${build}/fmus/fmi3/good/BouncingBall.fmu. */
#include <float.h>
#include <math.h>
#include <stddef.h>

#include "fmuc_model.h"

typedef struct {
    double h, v, der_h, der_v, g, e, v_min;
    int resting; /* discrete internal state: ball at rest on the floor */
    int impacts; /* number of impacts so far (output) */
} ball;

enum { VR_TIME = 0, VR_H, VR_DER_H, VR_V, VR_DER_V, VR_G, VR_E, VR_VMIN, VR_IMPACTS };

#define OFF(f) offsetof(ball, f)

/* the start of e; the eq-compare--fmi3 fixture builds this model with another one */
#ifndef BB_E_START
#define BB_E_START 0.7
#endif

/* FMI 3.0 (FMI_VERSIONS): h is declared as the event indicator (ModelStructure/EventIndicator) */
#if defined(FMUC_FMI_VERSION) && FMUC_FMI_VERSION == 3
#define BB_H_FLAGS (FMUC_M_HAS_START | FMUC_M_HAS_NOMINAL | FMUC_M_EVENT_INDICATOR)
#else
#define BB_H_FLAGS (FMUC_M_HAS_START | FMUC_M_HAS_NOMINAL)
#endif

static const fmuc_m_var vars[] = {
    {.name = "time", .vr = VR_TIME, .causality = FMUC_M_INDEPENDENT, .unit = "s",
     .description = "Simulation time"},
    {.name = "h", .vr = VR_H, .causality = FMUC_M_OUTPUT, .initial = FMUC_M_EXACT,
     .flags = BB_H_FLAGS, .start = 1.0, .nominal = 1.0, .unit = "m",
     .offset = OFF(h), .description = "Height of the ball", .deps = "h"},
    {.name = "der(h)", .vr = VR_DER_H, .unit = "m/s", .offset = OFF(der_h),
     .derivative_of = "h", .description = "Derivative of h", .deps = "v", .init_deps = "v"},
    {.name = "v", .vr = VR_V, .causality = FMUC_M_OUTPUT, .initial = FMUC_M_EXACT,
     .flags = FMUC_M_HAS_START | FMUC_M_HAS_NOMINAL, .start = 0.0, .nominal = 1.0,
     .unit = "m/s", .offset = OFF(v), .description = "Velocity of the ball", .deps = "v"},
    {.name = "der(v)", .vr = VR_DER_V, .unit = "m/s2", .offset = OFF(der_v),
     .derivative_of = "v", .description = "Derivative of v", .deps = "", .init_deps = "g"},
    {.name = "g", .vr = VR_G, .causality = FMUC_M_PARAMETER, .variability = FMUC_M_FIXED,
     .flags = FMUC_M_HAS_START, .start = -9.81, .unit = "m/s2", .offset = OFF(g),
     .description = "Gravity acting on the ball"},
    {.name = "e", .vr = VR_E, .causality = FMUC_M_PARAMETER, .variability = FMUC_M_TUNABLE,
     .flags = FMUC_M_HAS_START | FMUC_M_HAS_MIN | FMUC_M_HAS_MAX, .start = BB_E_START, .min = 0.5,
     .max = 1.0, .offset = OFF(e), .description = "Coefficient of restitution"},
    {.name = "v_min", .vr = VR_VMIN, .causality = FMUC_M_PARAMETER,
     .variability = FMUC_M_FIXED, .flags = FMUC_M_HAS_START, .start = 0.1, .unit = "m/s",
     .offset = OFF(v_min), .description = "Rebound speed below which the ball rests"},
    {.name = "impacts", .vr = VR_IMPACTS, .type = FMUC_M_INTEGER, .causality = FMUC_M_OUTPUT,
     .variability = FMUC_M_DISCRETE, .initial = FMUC_M_EXACT, .flags = FMUC_M_HAS_START,
     .start = 0, .offset = OFF(impacts), .description = "Number of impacts", .deps = ""},
};

static fmi2Status calc(fmuc_m_ctx *ctx, void *data)
{
    ball *b = data;
    (void)ctx;
    b->der_h = b->v;
    b->der_v = b->resting ? 0.0 : b->g;
    return fmi2OK;
}

static fmi2Status event_indicators(fmuc_m_ctx *ctx, void *data, double *z, size_t ni)
{
    const ball *b = data;
    (void)ctx;
    if (ni > 0)
        z[0] = b->h;
    return fmi2OK;
}

/* The impact rule, shared by ME (event update) and CS (do_step). Returns 1 if the state jumped. */
static int impact(ball *b)
{
    if (b->resting || !(b->h <= 0.0 && b->v < 0.0))
        return 0;
    b->h = DBL_MIN;
    b->v = -b->e * b->v;
    b->impacts++;
    if (b->v < b->v_min) {
        b->v = 0.0;
        b->resting = 1;
    }
    return 1;
}

static fmi2Status event_update(fmuc_m_ctx *ctx, void *data, fmi2EventInfo *info)
{
    ball *b = data;
    if (impact(b)) {
        info->valuesOfContinuousStatesChanged = fmi2True;
        fmuc_m_log(ctx, fmi2OK, "logEvents", "impact %d at t = %.17g, rebound v = %.17g",
                   b->impacts, fmuc_m_time(ctx), b->v);
    }
    return fmi2OK;
}

/* Exact CS step: parabolic flight between impacts, impact times from h + v*s + g*s^2/2 = 0. */
static fmi2Status do_step(fmuc_m_ctx *ctx, void *data, double t, double hstep)
{
    ball *b = data;
    (void)t;
    double left = hstep;
    for (int guard = 0; left > 0.0 && guard < 100000; guard++) {
        if (b->resting) {
            b->h += b->v * left;
            break;
        }
        /* time s > 0 to reach h = 0 going down: root of g/2 s^2 + v s + h = 0 */
        double s_hit = INFINITY;
        double a = 0.5 * b->g, bb = b->v, c = b->h;
        if (a < 0.0) {
            double disc = bb * bb - 4.0 * a * c;
            if (disc >= 0.0) {
                double sq = sqrt(disc);
                /* larger root of a s^2 + b s + c with a < 0: (-b - sq) / (2a) */
                double q = -0.5 * (bb + (bb >= 0.0 ? sq : -sq));
                double r1 = q / a, r2 = q != 0.0 ? c / q : -INFINITY;
                s_hit = r1 > r2 ? r1 : r2;
                if (!(s_hit > 0.0))
                    s_hit = c <= 0.0 && bb < 0.0 ? 0.0 : INFINITY;
            }
        }
        if (s_hit > left) {
            b->h += b->v * left + 0.5 * b->g * left * left;
            b->v += b->g * left;
            break;
        }
        b->v += b->g * s_hit;
        b->h = 0.0;
        left -= s_hit;
        if (b->v >= 0.0)
            b->v = -DBL_MIN; /* grazing contact: still count it as an impact */
        impact(b);
    }
    (void)ctx;
    return fmi2OK;
}

/* What every variant of this model shares; the fixtures in reference_fmus/broken and hostile
 * include this file and give the rest (description, capabilities, hooks) with their defect. */
#define BB_DESC_BASE                                                                            \
    .model_name = "BouncingBall", .model_identifier = "BouncingBall", .version = "1.0",            \
    .author = "fmucheck", .vars = vars, .nvars = sizeof vars / sizeof vars[0],                     \
    .n_event_indicators = 1,                                                                       \
    .experiment = {.flags = FMUC_M_EXP_START | FMUC_M_EXP_STOP | FMUC_M_EXP_STEP,                  \
                   .start = 0.0, .stop = 3.0, .step = 0.01}

const fmuc_m_desc fmuc_model = {
    BB_DESC_BASE,
    .description = "Ball bouncing on the floor: state events, e = 0.7, rests below 0.1 m/s",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_CS | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE |
            FMUC_M_CAP_VAR_STEP | FMUC_M_CAP_COMPLETED_STEP_NOT_NEEDED,
    .data_size = sizeof(ball),
    .calc = calc,
    .do_step = do_step,
    .event_indicators = event_indicators,
    .event_update = event_update,
};
