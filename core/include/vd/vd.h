/* VDSim: native vehicle dynamics. L2 = 7-DOF double track, L3 = 14-DOF with suspension.
 * Fixed-substep RK4 inside vd_step. No FMI types, no globals, no printing. */
#ifndef VD_H
#define VD_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { VD_L2 = 2, VD_L3 = 3 } vd_level;
typedef enum { VD_OK = 0, VD_EINVAL = -1, VD_ENOMEM = -2, VD_EIO = -3, VD_ECONFIG = -4 } vd_status;
typedef enum { VD_TIRE_LINEAR = 0, VD_TIRE_MAGIC = 1 } vd_tire_model;

/** Error detail: which file and field, and what was expected. */
typedef struct vd_error {
    char msg[512];
} vd_error;

/** All parameters (SI units). Filled by vd_params_default_*() or vd_params_load(). */
typedef struct vd_params vd_params;

/** Driver command, held constant over one vd_step. */
typedef struct vd_cmd {
    double steer;    /* road-wheel angle [rad] (vr 1 steer_angle_wheel) */
    double throttle; /* 0..1 (vr 2) */
    double brake;    /* 0..1 (vr 3) */
} vd_cmd;

/** Outputs in the order of the FMU's value references. */
typedef struct vd_out {
    double x, y, yaw, vx, vy, yaw_rate, ax, ay; /* vr 10..17 */
    double roll, pitch;                         /* vr 20, 21 (L3; 0 for L2) */
    double susp_comp[4];                        /* vr 30..33 FL FR RL RR (L3) */
    double fz[4];                               /* vr 40..43 (L3; L2 gives its quasi-static loads) */
} vd_out;

typedef struct vd_model vd_model;

/** Where the objects a caller keeps come from (an FMU passes its host's allocateMemory and
 *  freeMemory). alloc returns zeroed memory for n objects of size bytes, or NULL. A NULL
 *  allocator means calloc/free. Temporary buffers inside a call always use malloc/free. */
typedef struct vd_allocator {
    void *(*alloc)(void *env, size_t n, size_t size);
    void (*release)(void *env, void *p);
    void *env;
} vd_allocator;

/* --- parameters ---------------------------------------------------------------------------- */
/** Load vehicle.json and tire.json (cJSON, locale-independent). Every field is required, typed
 *  and range-checked; on error err names the file, the field and the expected range. */
vd_status vd_params_load(vd_params **out, const char *vehicle_json_path, const char *tire_json_path,
                         vd_error *err);
/** The same from in-memory JSON text; names are used in messages. */
vd_status vd_params_parse(vd_params **out, const char *vehicle_json, const char *vehicle_name,
                          const char *tire_json, const char *tire_name, vd_error *err);
/** L3 only, optional: suspension kinematics tables (front.csv, rear.csv). */
vd_status vd_params_load_kinematics(vd_params *p, const char *front_csv_path,
                                    const char *rear_csv_path, vd_error *err);
/** The same from in-memory CSV text for one axle (0 front, 1 rear); name is used in messages. */
vd_status vd_params_parse_kinematics(vd_params *p, int axle, const char *csv_text,
                                     const char *name, vd_error *err);
/** Remove both kinematics tables (L3 then uses constant geometry). */
void vd_params_clear_kinematics(vd_params *p);
vd_tire_model vd_params_tire_model(const vd_params *p);
vd_params *vd_params_clone(const vd_params *p);
void vd_params_free(vd_params *p);
/** A copy from allocator a (NULL: calloc); free it with vd_params_free_with and the same a. */
vd_params *vd_params_clone_with(const vd_params *p, const vd_allocator *a);
void vd_params_free_with(vd_params *p, const vd_allocator *a);

/** Named scalar parameters a user may tune (FMU parameters): "mass", "vx0", ...
 *  vd_param_names lists them (NULL-terminated); get/set by name, set range-checked. */
const char *const *vd_param_names(void);
vd_status vd_param_get(const vd_params *p, const char *name, double *value);
vd_status vd_param_set(vd_params *p, const char *name, double value, vd_error *err);
/** Range and unit of a tunable parameter (for the modelDescription). */
vd_status vd_param_info(const char *name, double *min, double *max, const char **unit,
                        const char **description);

/* --- model --------------------------------------------------------------------------------- */
vd_status vd_create(vd_model **out, vd_level level, const vd_params *p, vd_error *err);
/** vd_create with the model's memory from allocator a (kept: vd_destroy gives it back there). */
vd_status vd_create_with(vd_model **out, vd_level level, const vd_params *p,
                         const vd_allocator *a, vd_error *err);
/** Replace the model's parameters (same level); the state is kept, call vd_init to reset. */
vd_status vd_model_set_params(vd_model *m, const vd_params *p);
/** 1 if the floating-point environment is the one results are defined for (round to nearest). */
int vd_fp_env_ok(void);
/** Reset to the initial condition from the parameters (speed vx0; L3 in static equilibrium). */
vd_status vd_init(vd_model *m);
/** Advance by dt with RK4 substeps: n = max(1, ceil(dt/h_max - 1e-9)), h = dt/n. */
vd_status vd_step(vd_model *m, double dt, const vd_cmd *cmd);
void vd_outputs(const vd_model *m, vd_out *out);
void vd_destroy(vd_model *m);
vd_level vd_model_level(const vd_model *m);
double vd_time(const vd_model *m);
/** Substep count for dt, or -1 if dt is not a positive finite value (or needs > 1e7 substeps). */
int vd_substeps(const vd_model *m, double dt);
/** Re-anchor the model time (e.g. to the host's communication point); no effect on dynamics. */
void vd_set_time(vd_model *m, double t);
/** The held command used by vd_outputs (set by vd_step; settable e.g. after vd_state_set). */
void vd_set_cmd(vd_model *m, const vd_cmd *u);
void vd_get_cmd(const vd_model *m, vd_cmd *u);
/** The model's own copy of its parameters (read with vd_param_get). */
const vd_params *vd_model_params(const vd_model *m);

/* --- state vector (FMU state, Model Exchange) ---------------------------------------------- */
/** Number of continuous states (pose, body, wheel spins, load-transfer lag, L3 suspension). */
size_t vd_state_size(const vd_model *m);
/** Name of state i ("vx", "omega_FL", ...) and its nominal value. */
const char *vd_state_name(const vd_model *m, size_t i);
double vd_state_nominal(const vd_model *m, size_t i);
void vd_state_get(const vd_model *m, double *x);
void vd_state_set(vd_model *m, const double *x);
/** dx = f(x, u): a pure function (no hidden state); the same f that vd_step's RK4 uses. */
void vd_derivatives(const vd_model *m, const double *x, const vd_cmd *u, double *dx);
/** Outputs at (x, u), evaluated through the same path as vd_outputs after a step. */
void vd_outputs_at(const vd_model *m, const double *x, const vd_cmd *u, vd_out *out);

#ifdef __cplusplus
}
#endif
#endif
