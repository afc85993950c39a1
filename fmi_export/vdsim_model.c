/* vdsim_l2 / vdsim_l3 FMU model (ME + CS) on the fmuc glue, wrapping the VDSim core (vd.h).
 * Compiled once per level with -DVDSIM_LEVEL=2|3 and the generated table part vdsim_gen.h
 * (parameters from vd_param_names/vd_param_info, states from vd_state_name; see vdgen.c).
 * Parameters come from resources/vehicle.json + tire.json (L3: kinematics/front.csv, rear.csv),
 * loaded in fmi2EnterInitializationMode; the parameter variables override the loaded values.
 * CS: fmi2DoStep = vd_step(dt = communicationStepSize). ME: derivatives = vd_derivatives.
 * The same file makes the FMI 3.0 FMUs (FMUC_FMI_VERSION=3, fmi3_glue.c): there L3's per-wheel
 * outputs are two arrays of 4 instead of 8 scalars, and its per-wheel states (vdgen --fmi3)
 * arrays of 4 too (same state vector order); everything else is identical. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "fmuc_model.h"
#include "vd/vd.h"
#include "vdsim_gen.h"

#if VDSIM_LEVEL == 2
#define VDSIM_ID "vdsim_l2"
#define VDSIM_VD_LEVEL VD_L2
#elif VDSIM_LEVEL == 3
#define VDSIM_ID "vdsim_l3"
#define VDSIM_VD_LEVEL VD_L3
#else
#error "VDSIM_LEVEL must be 2 or 3"
#endif

typedef struct {
    /* plain data: saved in FMU states */
    double steer, throttle, brake;
    double x, y, yaw, vx, vy, yaw_rate, ax, ay, roll, pitch;
    double comp[4], fz[4];
    double param[VDSIM_GEN_NPARAM];
    double xs[VDSIM_GEN_NX], dxs[VDSIM_GEN_NX];
    /* owned objects (not part of FMU states) */
    vd_params *loaded; /* as read from the resources */
    vd_model *m;
} vdsim;

#define STATE_BYTES offsetof(vdsim, loaded)
#define OFF(f) offsetof(vdsim, f)
#define OUT(n, v, f, d, u)                                                                         \
    {.name = n, .vr = v, .causality = FMUC_M_OUTPUT, .unit = u, .offset = OFF(f), .description = d}

static const fmuc_m_var vars[] = {
    {.name = "time", .vr = 0, .causality = FMUC_M_INDEPENDENT, .unit = "s"},
    {.name = "steer_angle_wheel", .vr = 1, .causality = FMUC_M_INPUT, .unit = "rad",
     .flags = FMUC_M_HAS_START | FMUC_M_HAS_MIN | FMUC_M_HAS_MAX, .start = 0.0, .min = -1.2,
     .max = 1.2, .offset = OFF(steer), .description = "Road-wheel steering angle"},
    {.name = "throttle", .vr = 2, .causality = FMUC_M_INPUT, .unit = "1",
     .flags = FMUC_M_HAS_START | FMUC_M_HAS_MIN | FMUC_M_HAS_MAX, .start = 0.0, .min = 0.0,
     .max = 1.0, .offset = OFF(throttle), .description = "Throttle pedal 0..1"},
    {.name = "brake", .vr = 3, .causality = FMUC_M_INPUT, .unit = "1",
     .flags = FMUC_M_HAS_START | FMUC_M_HAS_MIN | FMUC_M_HAS_MAX, .start = 0.0, .min = 0.0,
     .max = 1.0, .offset = OFF(brake), .description = "Brake pedal 0..1"},
    OUT("x", 10, x, "Global X position of the CG", "m"),
    OUT("y", 11, y, "Global Y position of the CG", "m"),
    OUT("yaw", 12, yaw, "Yaw angle", "rad"),
    OUT("vx", 13, vx, "Longitudinal velocity (body frame)", "m/s"),
    OUT("vy", 14, vy, "Lateral velocity (body frame)", "m/s"),
    OUT("yaw_rate", 15, yaw_rate, "Yaw rate", "rad/s"),
    OUT("ax", 16, ax, "Longitudinal acceleration", "m/s2"),
    OUT("ay", 17, ay, "Lateral acceleration", "m/s2"),
#if VDSIM_LEVEL == 3
    OUT("roll", 20, roll, "Roll angle", "rad"),
    OUT("pitch", 21, pitch, "Pitch angle", "rad"),
#if defined(FMUC_FMI_VERSION) && FMUC_FMI_VERSION == 3
    /* FMI 3.0: the per-wheel quantities as arrays of 4 (FL, FR, RL, RR), one VR each */
    {.name = "susp_comp", .vr = 30, .causality = FMUC_M_OUTPUT, .unit = "m", .offset = OFF(comp),
     .dim = 4, .description = "Suspension compression per wheel (FL, FR, RL, RR)"},
    {.name = "Fz", .vr = 40, .causality = FMUC_M_OUTPUT, .unit = "N", .offset = OFF(fz),
     .dim = 4, .description = "Vertical tire force per wheel (FL, FR, RL, RR)"},
#else
    OUT("susp_comp_FL", 30, comp[0], "Suspension compression front left", "m"),
    OUT("susp_comp_FR", 31, comp[1], "Suspension compression front right", "m"),
    OUT("susp_comp_RL", 32, comp[2], "Suspension compression rear left", "m"),
    OUT("susp_comp_RR", 33, comp[3], "Suspension compression rear right", "m"),
    OUT("Fz_FL", 40, fz[0], "Vertical tire force front left", "N"),
    OUT("Fz_FR", 41, fz[1], "Vertical tire force front right", "N"),
    OUT("Fz_RL", 42, fz[2], "Vertical tire force rear left", "N"),
    OUT("Fz_RR", 43, fz[3], "Vertical tire force rear right", "N"),
#endif
#endif
#define VDSIM_PARAM(i, n, st, lo, hi, u, d)                                                        \
    {.name = n, .vr = 100 + (i), .causality = FMUC_M_PARAMETER, .variability = FMUC_M_FIXED,      \
     .initial = FMUC_M_EXACT, .flags = FMUC_M_HAS_START | FMUC_M_HAS_MIN | FMUC_M_HAS_MAX,        \
     .start = st, .min = lo, .max = hi, .unit = u, .description = d,                              \
     .offset = OFF(param) + (i) * sizeof(double)},
#include "vdsim_gen.h"
#undef VDSIM_PARAM
#define VDSIM_STATE(i, n, nom, k)                                                                  \
    {.name = "state." n, .vr = 200 + (i), .flags = FMUC_M_HAS_NOMINAL, .nominal = nom,            \
     .offset = OFF(xs) + (i) * sizeof(double), .dim = k, .description = "Continuous state " n},
#include "vdsim_gen.h"
#undef VDSIM_STATE
#define VDSIM_STATE(i, n, nom, k)                                                                  \
    {.name = "der(state." n ")", .vr = 300 + (i), .offset = OFF(dxs) + (i) * sizeof(double),      \
     .dim = k, .derivative_of = "state." n, .description = "Derivative of state " n},
#include "vdsim_gen.h"
#undef VDSIM_STATE
};

static const char *const param_names[VDSIM_GEN_NPARAM] = {
#define VDSIM_PARAM(i, n, st, lo, hi, u, d) n,
#include "vdsim_gen.h"
#undef VDSIM_PARAM
};

/* The objects an instance keeps (parameters, core model) come from the host's allocateMemory
 * (canNotUseMemoryManagementFunctions="false"); only buffers inside one call use malloc. */
static void *host_alloc(void *env, size_t n, size_t size)
{
    return fmuc_m_alloc(env, n, size);
}

static void host_release(void *env, void *p)
{
    fmuc_m_free(env, p);
}

static vd_allocator host_allocator(fmuc_m_ctx *c)
{
    vd_allocator a = {host_alloc, host_release, c};
    return a;
}

static void release(fmuc_m_ctx *c, void *data)
{
    vdsim *d = data;
    vd_allocator a = host_allocator(c);
    vd_destroy(d->m);
    d->m = NULL;
    vd_params_free_with(d->loaded, &a);
    d->loaded = NULL;
}

/* Read the resources (A-24: at the latest before fmi2ExitInitializationMode returns). */
static fmi2Status load_resources(fmuc_m_ctx *c, vdsim *d)
{
    char veh[4096], tire[4096];
    vd_error err = {{0}};
    if (d->loaded)
        return fmi2OK;
    if (fmuc_m_resource_path(c, "vehicle.json", veh, sizeof veh) != 0 ||
        fmuc_m_resource_path(c, "tire.json", tire, sizeof tire) != 0) {
        fmuc_m_log(c, fmi2Error, NULL,
                   "no usable fmuResourceLocation: cannot read resources/vehicle.json and "
                   "resources/tire.json");
        return fmi2Error;
    }
    FILE *probe = fopen(veh, "r");
    if (!probe) {
        fmuc_m_log(c, fmi2Error, NULL, "cannot open resource file '%s'", veh);
        return fmi2Error;
    }
    fclose(probe);
    if (!(probe = fopen(tire, "r"))) {
        fmuc_m_log(c, fmi2Error, NULL, "cannot open resource file '%s'", tire);
        return fmi2Error;
    }
    fclose(probe);
    vd_params *p = NULL;
    if (vd_params_load(&p, veh, tire, &err) != VD_OK) {
        fmuc_m_log(c, fmi2Error, NULL, "cannot load parameters from '%s' / '%s': %s", veh, tire,
                   err.msg);
        return fmi2Error;
    }
#if VDSIM_LEVEL == 3
    char front[4096], rear[4096];
    if (fmuc_m_resource_path(c, "kinematics/front.csv", front, sizeof front) != 0 ||
        fmuc_m_resource_path(c, "kinematics/rear.csv", rear, sizeof rear) != 0 ||
        vd_params_load_kinematics(p, front, rear, &err) != VD_OK) {
        fmuc_m_log(c, fmi2Error, NULL, "cannot load kinematics '%s' / '%s': %s", front, rear,
                   err.msg);
        vd_params_free(p);
        return fmi2Error;
    }
#endif
    vd_allocator a = host_allocator(c);
    d->loaded = vd_params_clone_with(p, &a);
    vd_params_free(p);
    if (!d->loaded) {
        fmuc_m_log(c, fmi2Error, NULL, "allocateMemory failed for the parameters");
        return fmi2Error;
    }
    return fmi2OK;
}

/* (Re)create the core model: loaded parameters, overridden by every parameter variable whose
 * value differs bit-wise from the loaded one, then the initial condition. */
static fmi2Status build(fmuc_m_ctx *c, vdsim *d, int keep_state)
{
    vd_error err = {{0}};
    fmi2Status st = load_resources(c, d);
    if (st > fmi2Warning)
        return st;
    vd_params *p = vd_params_clone(d->loaded);
    if (!p) {
        fmuc_m_log(c, fmi2Error, NULL, "out of memory");
        return fmi2Error;
    }
    for (size_t i = 0; i < VDSIM_GEN_NPARAM; i++) {
        double v0 = 0;
        if (vd_param_get(p, param_names[i], &v0) != VD_OK)
            continue;
        if (memcmp(&v0, &d->param[i], sizeof v0) == 0)
            continue;
        if (vd_param_set(p, param_names[i], d->param[i], &err) != VD_OK) {
            fmuc_m_log(c, fmi2Error, NULL, "parameter '%s' (vr %zu): %s", param_names[i],
                       100 + i, err.msg);
            vd_params_free(p);
            return fmi2Error;
        }
    }
    vd_model *m = NULL;
    vd_allocator a = host_allocator(c);
    if (vd_create_with(&m, VDSIM_VD_LEVEL, p, &a, &err) != VD_OK) {
        fmuc_m_log(c, fmi2Error, NULL, "vd_create: %s", err.msg);
        vd_params_free(p);
        return fmi2Error;
    }
    vd_params_free(p);
    if (vd_state_size(m) != VDSIM_GEN_NX) {
        fmuc_m_log(c, fmi2Error, NULL, "core has %zu states, the FMU was generated for %d",
                   vd_state_size(m), VDSIM_GEN_NX);
        vd_destroy(m);
        return fmi2Error;
    }
    vd_destroy(d->m);
    d->m = m;
    if (keep_state) {
        vd_state_set(m, d->xs);
    } else {
        vd_init(m);
        vd_state_get(m, d->xs);
    }
    return fmi2OK;
}

static fmi2Status enter_init(fmuc_m_ctx *c, void *data) { return load_resources(c, data); }

static fmi2Status calc(fmuc_m_ctx *c, void *data)
{
    vdsim *d = data;
    fmuc_m_phase ph = fmuc_m_get_phase(c);
    if (ph == FMUC_M_PHASE_INSTANTIATED || ph == FMUC_M_PHASE_INIT) {
        fmi2Status st = build(c, d, 0); /* parameters may still change */
        if (st > fmi2Warning)
            return st;
    }
    if (!d->m) {
        fmuc_m_log(c, fmi2Error, NULL, "model not initialized");
        return fmi2Error;
    }
    vd_cmd u = {d->steer, d->throttle, d->brake};
    vd_out o;
    vd_derivatives(d->m, d->xs, &u, d->dxs);
    vd_outputs_at(d->m, d->xs, &u, &o);
    d->x = o.x;
    d->y = o.y;
    d->yaw = o.yaw;
    d->vx = o.vx;
    d->vy = o.vy;
    d->yaw_rate = o.yaw_rate;
    d->ax = o.ax;
    d->ay = o.ay;
    d->roll = o.roll;
    d->pitch = o.pitch;
    memcpy(d->comp, o.susp_comp, sizeof d->comp);
    memcpy(d->fz, o.fz, sizeof d->fz);
#ifdef FMUC_DEFECT_VDSIM_FZ_REAR_SWAPPED
    /* fixture eq-native-roundtrip--fmi3: the rear wheels of Fz handed out as RR, RL */
    d->fz[2] = o.fz[3];
    d->fz[3] = o.fz[2];
#endif
    return fmi2OK;
}

static fmi2Status do_step(fmuc_m_ctx *c, void *data, double t, double h)
{
    vdsim *d = data;
    vd_cmd u = {d->steer, d->throttle, d->brake};
    if (!d->m)
        return fmi2Error;
    vd_set_time(d->m, t);
    if (vd_step(d->m, h, &u) != VD_OK) {
        fmuc_m_log(c, fmi2Error, NULL, "vd_step(dt=%.17g) failed at t=%.17g", h, t);
        return fmi2Error;
    }
    vd_state_get(d->m, d->xs);
    return fmi2OK;
}

static fmi2Status state_size(fmuc_m_ctx *c, const void *data, size_t *size)
{
    (void)c;
    (void)data;
    *size = STATE_BYTES;
    return fmi2OK;
}

static fmi2Status state_save(fmuc_m_ctx *c, const void *data, void *buf, size_t size)
{
    (void)c;
    memcpy(buf, data, size);
    return fmi2OK;
}

/* Restore the plain part; after initialization the core model is rebuilt from the restored
 * parameters and state (the same objects a native run would have). */
static fmi2Status state_load(fmuc_m_ctx *c, void *data, const void *buf, size_t size)
{
    vdsim *d = data;
    if (size != STATE_BYTES) {
        fmuc_m_log(c, fmi2Error, NULL, "FMU state of %zu bytes, expected %zu", size,
                   (size_t)STATE_BYTES);
        return fmi2Error;
    }
    memcpy(data, buf, size);
    fmuc_m_phase ph = fmuc_m_get_phase(c);
    if (ph == FMUC_M_PHASE_INSTANTIATED || ph == FMUC_M_PHASE_INIT) {
        vd_destroy(d->m);
        d->m = NULL;
        return fmi2OK;
    }
    fmi2Status st = build(c, d, 1);
    if (st <= fmi2Warning) {
        vd_cmd u = {d->steer, d->throttle, d->brake};
        vd_set_cmd(d->m, &u);
    }
    return st;
}

const fmuc_m_desc fmuc_model = {
    .model_name = VDSIM_ID,
    .model_identifier = VDSIM_ID,
    .version = "1.0",
#if VDSIM_LEVEL == 2
    .description = "VDSim L2: 7-DOF double-track vehicle model",
#else
    .description = "VDSim L3: 14-DOF vehicle model with suspension",
#endif
    .author = "fmucheck",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_CS | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE |
            FMUC_M_CAP_VAR_STEP,
    .vars = vars,
    .nvars = sizeof vars / sizeof vars[0],
    .experiment = {.flags = FMUC_M_EXP_START | FMUC_M_EXP_STOP | FMUC_M_EXP_STEP,
                   .start = 0.0, .stop = 10.0, .step = 0.01},
    .data_size = sizeof(vdsim),
    .release = release,
    .enter_init = enter_init,
    .calc = calc,
    .do_step = do_step,
    .state_size = state_size,
    .state_save = state_save,
    .state_load = state_load,
};
