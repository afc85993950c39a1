/* The instance API's table of operations (one per FMI version) and the instance record. The
 * version-neutral part (inst.c) checks arguments and dispatches; a version's file (inst_fmi2.c)
 * holds only what differs: which function it calls and how its types convert. A NULL entry means
 * the version has no such function (FMUC_STATUS_NOT_PROVIDED, no trace entry). */
#ifndef FMUC_INST_INTERNAL_H
#define FMUC_INST_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "fmuc/fmuc_inst.h"

/* The byte a version whose Boolean is narrower than int (fmiBoolean char, fmi3Boolean bool)
 * fills an output Boolean with before the call: neither false nor true, so an output the FMU
 * leaves unwritten is told apart and the caller's value kept (fmuc_inst_completed_integrator_step). */
#define FMUC_INST__BOOL_FILL 0xA5u

/* A version's functions in the record of one library's resolved functions (the "lib" of the
 * table below): each function's name, where its pointer lives in the record, and the interfaces
 * whose library must export it. One resolver, lookup and missing list serve every version. */
enum { FMUC_INST_FN_ME = 1, FMUC_INST_FN_CS = 2, FMUC_INST_FN_SE = 4 }; /* 1 << fmuc_iface */
typedef struct fmuc_inst_fn {
    const char *name; /* the standard's name, without FMI 1.0's "<modelIdentifier>_" */
    size_t off;       /* offsetof the function pointer in the record */
    unsigned need;    /* FMUC_INST_FN_ME | FMUC_INST_FN_CS: the libraries that must export it */
} fmuc_inst_fn;
typedef struct fmuc_inst_fns {
    const fmuc_inst_fn *fn; /* in the standard's order (the order of the missing list) */
    size_t n;
    size_t missing_off;     /* offsetof the record's const char *missing[] (n entries at most) */
    size_t nmissing_off;    /* offsetof the record's size_t count of them */
} fmuc_inst_fns;

/** Resolve every function of t in library k into the record rec (symbol "<prefix>_<name>" when
 *  prefix, FMI 1.0; else the name), and list the ones library k needs and lacks, in t's order, in
 *  the record's missing list; for each of them fn[i], bit i % 64 of mask[i / 64] is set (mask may
 *  be NULL). A function listed twice in t is looked up twice, listed missing once per need. */
void fmuc_inst__resolve(fmuc_worker_ctx *ctx, int k, const char *prefix, const fmuc_inst_fns *t,
                        void *rec, uint64_t *mask);
/** 1 when name is a function of t and resolved in rec, else 0 (also for a NULL name). */
int fmuc_inst__has(const fmuc_inst_fns *t, const void *rec, const char *name);

typedef struct fmuc_inst_ops {
    int version;                                   /* 1, 2, 3 */
    const char *const *op_names;                   /* FMUC_INST_NOPS names (NULL: none) */
    /* library level */
    int (*load)(fmuc_worker_ctx *ctx, fmuc_iface iface, const void **lib);
    const fmuc_inst_fns *fns;                      /* the functions in the record load gives */
    const char *(*lib_version)(const void *lib);
    const char *(*lib_types_platform)(const void *lib);
    void (*lib_free_null)(const void *lib);
    /* instance */
    void *(*instantiate)(fmuc_inst *in, const fmuc_inst_args *a);
    void (*free_instance)(fmuc_inst *in);
    /* before the handle's memory goes (free or abandon): drop what callbacks could still find
     * of it (NULL: nothing) */
    void (*forget)(fmuc_inst *in);
    fmuc_status (*set_debug_logging)(fmuc_inst *in, int on, size_t ncat, const char *const cats[]);
    fmuc_status (*setup_experiment)(fmuc_inst *in, const fmuc_inst_experiment *e);
    fmuc_status (*enter_initialization_mode)(fmuc_inst *in);
    fmuc_status (*exit_initialization_mode)(fmuc_inst *in);
    fmuc_status (*terminate)(fmuc_inst *in);
    fmuc_status (*reset)(fmuc_inst *in);
    fmuc_status (*get)(fmuc_inst *in, fmuc_inst_base type, const fmuc_vr *vr, size_t nvr,
                       void *values, size_t nvalues);
    fmuc_status (*set)(fmuc_inst *in, fmuc_inst_base type, const fmuc_vr *vr, size_t nvr,
                       const void *values, size_t nvalues);
    fmuc_status (*get_binary)(fmuc_inst *in, const fmuc_vr *vr, size_t nvr, size_t *sizes,
                              const uint8_t **values, size_t nvalues);
    fmuc_status (*set_binary)(fmuc_inst *in, const fmuc_vr *vr, size_t nvr, const size_t *sizes,
                              const uint8_t *const *values, size_t nvalues);
    fmuc_status (*do_step)(fmuc_inst *in, double t, double h, int no_set_prior,
                           fmuc_inst_step_info *info);
    fmuc_status (*cancel_step)(fmuc_inst *in);
    fmuc_status (*cs_status)(fmuc_inst *in, fmuc_inst_query q, void *value);
    fmuc_status (*set_input_derivatives)(fmuc_inst *in, const fmuc_vr *vr, size_t nvr,
                                         const int32_t *order, const double *v, size_t nv);
    fmuc_status (*get_output_derivatives)(fmuc_inst *in, const fmuc_vr *vr, size_t nvr,
                                          const int32_t *order, double *v, size_t nv);
    fmuc_status (*enter_event_mode)(fmuc_inst *in);
    fmuc_status (*update_discrete_states)(fmuc_inst *in, fmuc_inst_event_info *info);
    fmuc_status (*enter_continuous_time_mode)(fmuc_inst *in);
    fmuc_status (*completed_integrator_step)(fmuc_inst *in, int no_set_prior, int *enter,
                                             int *term);
    fmuc_status (*set_time)(fmuc_inst *in, double t);
    fmuc_status (*set_continuous_states)(fmuc_inst *in, const double *x, size_t nx);
    fmuc_status (*get_continuous_states)(fmuc_inst *in, double *x, size_t nx);
    fmuc_status (*get_derivatives)(fmuc_inst *in, double *dx, size_t nx);
    fmuc_status (*get_event_indicators)(fmuc_inst *in, double *z, size_t nz);
    fmuc_status (*get_nominals)(fmuc_inst *in, double *x, size_t nx);
    fmuc_status (*get_state_value_references)(fmuc_inst *in, fmuc_vr *vr, size_t nx);
    fmuc_status (*get_state)(fmuc_inst *in, fmuc_fmu_state *s);
    fmuc_status (*set_state)(fmuc_inst *in, fmuc_fmu_state s);
    fmuc_status (*free_state)(fmuc_inst *in, fmuc_fmu_state *s);
    fmuc_status (*serialized_state_size)(fmuc_inst *in, fmuc_fmu_state s, size_t *size);
    fmuc_status (*serialize_state)(fmuc_inst *in, fmuc_fmu_state s, uint8_t *buf, size_t size);
    fmuc_status (*deserialize_state)(fmuc_inst *in, const uint8_t *buf, size_t size,
                                     fmuc_fmu_state *s);
    fmuc_status (*get_directional_derivative)(fmuc_inst *in, const fmuc_vr *unknown, size_t nu,
                                              const fmuc_vr *known, size_t nk,
                                              const double *dv_known, size_t nkv,
                                              double *dv_unknown, size_t nuv);
    /* vᵀ·∂unknown/∂known (3.0 fmi3GetAdjointDerivative; NULL: not in the version) */
    fmuc_status (*get_adjoint_derivative)(fmuc_inst *in, const fmuc_vr *unknown, size_t nu,
                                          const fmuc_vr *known, size_t nk, const double *seed,
                                          size_t nseed, double *sensitivity, size_t nsens);
    /* per-element dependencies (3.0 fmi3GetNumberOfVariableDependencies /
     * fmi3GetVariableDependencies; NULL: not in the version) */
    fmuc_status (*get_number_of_variable_dependencies)(fmuc_inst *in, fmuc_vr vr, size_t *n);
    fmuc_status (*get_variable_dependencies)(fmuc_inst *in, fmuc_vr dependent, size_t *element_dep,
                                             fmuc_vr *independent, size_t *element_indep,
                                             int *kind, size_t n);
    fmuc_status (*cs_integer_status)(fmuc_inst *in, fmuc_inst_query q, int *value);
    /* FMI 3.0 Co-Simulation (NULL: not in the version): fmi3EnterStepMode, and the log of the
     * intermediateUpdate callback */
    fmuc_status (*enter_step_mode)(fmuc_inst *in);
    /* FMI 3.0 ME and CS Event Mode: fmi3EvaluateDiscreteStates (NULL: not in the version) */
    fmuc_status (*evaluate_discrete_states)(fmuc_inst *in);
    size_t (*intermediate_log)(const fmuc_inst *in, const fmuc_inst_iu_call **calls,
                               size_t *nkept);
    /* Configuration / Reconfiguration Mode (3.0 fmi3EnterConfigurationMode /
     * fmi3ExitConfigurationMode; NULL: not in the version) */
    fmuc_status (*enter_configuration_mode)(fmuc_inst *in);
    fmuc_status (*exit_configuration_mode)(fmuc_inst *in);
    /* the current sizes (3.0 fmi3GetNumberOfContinuousStates / fmi3GetNumberOfEventIndicators;
     * NULL: not in the version) */
    fmuc_status (*get_number_of_continuous_states)(fmuc_inst *in, size_t *n);
    fmuc_status (*get_number_of_event_indicators)(fmuc_inst *in, size_t *n);
    /* Scheduled Execution (3.0; NULL: not in the version): see fmuc_inst.h */
    int (*se_watch)(fmuc_inst *in, const fmuc_vr *out, size_t nout, const fmuc_vr *cd, size_t ncd);
    fmuc_status (*activate_model_partition)(fmuc_inst *in, fmuc_vr clock, double time);
    fmuc_status (*get_interval_decimal)(fmuc_inst *in, const fmuc_vr *vr, size_t n,
                                        double *intervals, int *qualifiers);
    fmuc_status (*get_shift_decimal)(fmuc_inst *in, const fmuc_vr *vr, size_t n, double *shifts);
    fmuc_status (*get_interval_fraction)(fmuc_inst *in, const fmuc_vr *vr, size_t n,
                                         uint64_t *counters, uint64_t *resolutions,
                                         int *qualifiers);
    fmuc_status (*get_shift_fraction)(fmuc_inst *in, const fmuc_vr *vr, size_t n,
                                      uint64_t *counters, uint64_t *resolutions);
    size_t (*se_log)(const fmuc_inst *in, const fmuc_inst_cu_event **events, size_t *nkept,
                     fmuc_inst_se_counts *counts);
    void (*se_log_clear)(fmuc_inst *in);
} fmuc_inst_ops;

struct fmuc_inst {
    const fmuc_inst_ops *ops;
    fmuc_worker_ctx *ctx;
    fmuc_iface iface;
    const void *lib;     /* the version's resolved functions (2.0: const fmuc_fmi *) */
    void *c;             /* the FMU's instance (fmi2Component ...) */
    fmuc_inst_experiment exp; /* kept by setup_experiment for versions that pass it later */
    fmuc_inst_step_info last_step; /* 3.0: the last step's outputs for cs_status */
    double last_h;       /* communicationStepSize of the last do_step call (0: none yet) */
    void *priv;          /* the version's own data (2.0: a callbacks copy); free()d with the handle */
};

extern const fmuc_inst_ops fmuc_inst__fmi2_ops;
extern const fmuc_inst_ops fmuc_inst__fmi1_ops;
extern const fmuc_inst_ops fmuc_inst__fmi3_ops;
/* FMI 2.0's functions in its record, fmuc_fmi (loader.c) */
extern const fmuc_inst_fns fmuc_inst__fmi2_fns;

/* A guarded output buffer (inst.c): fmuc_inst__gout_begin returns what the FMU gets (a copy of
 * user's n elements of es bytes with guard space behind it; user itself when it cannot guard),
 * fmuc_inst__gout_end checks the guard (an overrun is recorded against the last traced call,
 * argument name array) and copies the elements back. The version tables use it for the
 * temporaries they hand to the FMU instead of the caller's array (FMI 2.0 enumerations through
 * fmi2Integer, the single value of a status query). */
typedef struct fmuc_inst__gout {
    void *user;          /* the caller's array (NULL: passed through) */
    unsigned char *buf;  /* what the FMU gets: bytes + guard (NULL: unguarded) */
    size_t n, es, bytes, guard;
} fmuc_inst__gout;
void *fmuc_inst__gout_begin(fmuc_inst__gout *g, void *user, size_t n, size_t es);
void fmuc_inst__gout_end(fmuc_inst *in, fmuc_inst__gout *g, const char *array);

#endif
