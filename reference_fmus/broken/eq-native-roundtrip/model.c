/* eq-native-roundtrip fixture: a vdsim_l2 look-alike (same inputs vr 1-3 and outputs vr 10-17,
 * the core's parameter files as resources) whose dynamics are a simple kinematic single-track
 * model instead of the VDSim core. Checked with --native l2 (fmucheck.args), its outputs differ
 * from the native core's: max |Δ| != 0. A valid FMU otherwise. */
#include <math.h>
#include <stddef.h>

#include "fmuc_model.h"

typedef struct {
    double steer, throttle, brake;
    double X, Y, psi, vx;                      /* states */
    double dX, dY, dpsi, dvx;                  /* derivatives */
    double x, y, yaw, vx_out, vy, r, ax, ay;   /* outputs */
    double wheelbase, vx0;
} car;

#define OFF(f) offsetof(car, f)
#define OUT(n, v, f, u) {.name = n, .vr = v, .causality = FMUC_M_OUTPUT, .unit = u, .offset = OFF(f)}

static const fmuc_m_var vars[] = {
    {.name = "time", .vr = 0, .causality = FMUC_M_INDEPENDENT, .unit = "s"},
    {.name = "steer_angle_wheel", .vr = 1, .causality = FMUC_M_INPUT, .unit = "rad",
     .flags = FMUC_M_HAS_START | FMUC_M_HAS_MIN | FMUC_M_HAS_MAX, .min = -1.2, .max = 1.2,
     .offset = OFF(steer)},
    {.name = "throttle", .vr = 2, .causality = FMUC_M_INPUT, .unit = "1",
     .flags = FMUC_M_HAS_START | FMUC_M_HAS_MIN | FMUC_M_HAS_MAX, .min = 0.0, .max = 1.0,
     .offset = OFF(throttle)},
    {.name = "brake", .vr = 3, .causality = FMUC_M_INPUT, .unit = "1",
     .flags = FMUC_M_HAS_START | FMUC_M_HAS_MIN | FMUC_M_HAS_MAX, .min = 0.0, .max = 1.0,
     .offset = OFF(brake)},
    OUT("x", 10, x, "m"),
    OUT("y", 11, y, "m"),
    OUT("yaw", 12, yaw, "rad"),
    OUT("vx", 13, vx_out, "m/s"),
    OUT("vy", 14, vy, "m/s"),
    OUT("yaw_rate", 15, r, "rad/s"),
    OUT("ax", 16, ax, "m/s2"),
    OUT("ay", 17, ay, "m/s2"),
    {.name = "wheelbase", .vr = 100, .causality = FMUC_M_PARAMETER, .variability = FMUC_M_FIXED,
     .flags = FMUC_M_HAS_START, .start = 2.54, .unit = "m", .offset = OFF(wheelbase)},
    {.name = "vx0", .vr = 101, .causality = FMUC_M_PARAMETER, .variability = FMUC_M_FIXED,
     .flags = FMUC_M_HAS_START, .start = 20.0, .unit = "m/s", .offset = OFF(vx0)},
    {.name = "state.X", .vr = 200, .offset = OFF(X), .initial = FMUC_M_EXACT,
     .flags = FMUC_M_HAS_START, .start = 0.0},
    {.name = "state.Y", .vr = 201, .offset = OFF(Y), .initial = FMUC_M_EXACT,
     .flags = FMUC_M_HAS_START, .start = 0.0},
    {.name = "state.psi", .vr = 202, .offset = OFF(psi), .initial = FMUC_M_EXACT,
     .flags = FMUC_M_HAS_START, .start = 0.0},
    {.name = "state.vx", .vr = 203, .offset = OFF(vx), .initial = FMUC_M_CALCULATED,
     .init_deps = "vx0"},
    {.name = "der(state.X)", .vr = 300, .offset = OFF(dX), .derivative_of = "state.X"},
    {.name = "der(state.Y)", .vr = 301, .offset = OFF(dY), .derivative_of = "state.Y"},
    {.name = "der(state.psi)", .vr = 302, .offset = OFF(dpsi), .derivative_of = "state.psi"},
    {.name = "der(state.vx)", .vr = 303, .offset = OFF(dvx), .derivative_of = "state.vx"},
};

static fmi2Status calc(fmuc_m_ctx *ctx, void *data)
{
    car *c = data;
    fmuc_m_phase ph = fmuc_m_get_phase(ctx);
    if (ph == FMUC_M_PHASE_INSTANTIATED || ph == FMUC_M_PHASE_INIT)
        c->vx = c->vx0;
    double r = c->vx * tan(c->steer) / c->wheelbase;
    double a = 3.0 * c->throttle - 8.0 * c->brake * c->vx / sqrt(c->vx * c->vx + 1.0);
    c->dX = c->vx * cos(c->psi);
    c->dY = c->vx * sin(c->psi);
    c->dpsi = r;
    c->dvx = a;
    c->x = c->X;
    c->y = c->Y;
    c->yaw = c->psi;
    c->vx_out = c->vx;
    c->vy = 0.0;
    c->r = r;
    c->ax = a;
    c->ay = c->vx * r;
    return fmi2OK;
}

const fmuc_m_desc fmuc_model = {
    .model_name = "SpringMassDamper",
    .model_identifier = "SpringMassDamper",
    .version = "1.0",
    .description = "Kinematic single-track look-alike of vdsim_l2 (eq-native-roundtrip fixture)",
    .author = "fmucheck",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_CS | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE |
            FMUC_M_CAP_VAR_STEP,
    .vars = vars,
    .nvars = sizeof vars / sizeof vars[0],
    .experiment = {.flags = FMUC_M_EXP_START | FMUC_M_EXP_STOP | FMUC_M_EXP_STEP,
                   .start = 0.0, .stop = 10.0, .step = 0.01},
    .data_size = sizeof(car),
    .cs_h_max = 1e-3,
    .calc = calc,
};
