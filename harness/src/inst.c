/* The version-neutral instance API: argument plumbing and dispatch through the instance's table of
 * operations (inst_internal.h). Nothing here knows an FMI function. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inst_internal.h"

_Static_assert(FMUC_STATUS_NOT_PROVIDED == (int)FMUC_FMI_NOT_PROVIDED,
               "one not-provided status for the wrappers and the instance API");

static const fmuc_inst_ops *ops_for(int version)
{
    return version == 2 ? &fmuc_inst__fmi2_ops : NULL;
}

int fmuc_inst_version(const fmuc_worker_ctx *ctx)
{
    (void)ctx;
    return 2; /* FMI 3.0 and 1.0 select their table here when their implementations land */
}

const char *fmuc_status_name(int version, int status, char *buf, size_t bufsize)
{
    static const char *const names[] = {"OK", "Warning", "Discard", "Error", "Fatal", "Pending"};
    const char *pre = version == 1 ? "fmi" : version == 3 ? "fmi3" : "fmi2";
    if (status == FMUC_STATUS_NOT_PROVIDED)
        return "not provided";
    if (status >= 0 && status <= (version == 3 ? 4 : 5)) {
        snprintf(buf, bufsize, "%s%s", pre, names[status]);
        return buf;
    }
    snprintf(buf, bufsize, "invalid(%d)", status);
    return buf;
}

const char *fmuc_inst_op_name(int version, fmuc_inst_op op)
{
    const fmuc_inst_ops *o = ops_for(version);
    if (!o || !o->op_names || (int)op < 0 || op >= FMUC_INST_NOPS)
        return NULL;
    return o->op_names[op];
}

/* ---- library ------------------------------------------------------------------------------ */

static const void *lib_of(fmuc_worker_ctx *ctx, fmuc_iface iface, const fmuc_inst_ops **o)
{
    const void *lib = NULL;
    *o = ops_for(fmuc_inst_version(ctx));
    if (!*o || !(*o)->load || (*o)->load(ctx, iface, &lib) < 0)
        return NULL;
    return lib;
}

int fmuc_inst_load(fmuc_worker_ctx *ctx, fmuc_iface iface)
{
    const fmuc_inst_ops *o;
    return lib_of(ctx, iface, &o) ? 0 : -1;
}

int fmuc_inst_lib_has(fmuc_worker_ctx *ctx, fmuc_iface iface, const char *name)
{
    const fmuc_inst_ops *o;
    const void *lib = lib_of(ctx, iface, &o);
    return lib && o->lib_has ? o->lib_has(lib, name) : 0;
}

const char *fmuc_inst_lib_version(fmuc_worker_ctx *ctx, fmuc_iface iface)
{
    const fmuc_inst_ops *o;
    const void *lib = lib_of(ctx, iface, &o);
    return lib && o->lib_version ? o->lib_version(lib) : NULL;
}

const char *fmuc_inst_lib_types_platform(fmuc_worker_ctx *ctx, fmuc_iface iface)
{
    const fmuc_inst_ops *o;
    const void *lib = lib_of(ctx, iface, &o);
    return lib && o->lib_types_platform ? o->lib_types_platform(lib) : NULL;
}

size_t fmuc_inst_lib_missing(fmuc_worker_ctx *ctx, fmuc_iface iface, const char *const **names)
{
    const fmuc_inst_ops *o;
    const void *lib = lib_of(ctx, iface, &o);
    *names = NULL;
    return lib && o->lib_missing ? o->lib_missing(lib, names) : 0;
}

void fmuc_inst_lib_free_null(fmuc_worker_ctx *ctx, fmuc_iface iface)
{
    const fmuc_inst_ops *o;
    const void *lib = lib_of(ctx, iface, &o);
    if (lib && o->lib_free_null)
        o->lib_free_null(lib);
}

/* ---- instances ---------------------------------------------------------------------------- */

void fmuc_inst_args_init(fmuc_inst_args *a)
{
    memset(a, 0, sizeof *a);
    a->name = "fmucheck";
    a->logging_on = 1;
    a->as_iface = -1;
}

fmuc_inst *fmuc_inst_instantiate_ex(fmuc_worker_ctx *ctx, fmuc_iface iface,
                                    const fmuc_inst_args *args)
{
    const fmuc_inst_ops *o;
    const void *lib = lib_of(ctx, iface, &o);
    fmuc_inst *in;
    if (!lib || !o->instantiate)
        return NULL;
    in = calloc(1, sizeof *in);
    if (!in)
        return NULL;
    in->ops = o;
    in->ctx = ctx;
    in->iface = args->as_iface >= 0 ? (fmuc_iface)args->as_iface : iface;
    in->lib = lib;
    in->c = o->instantiate(in, args);
    if (!in->c) {
        free(in->priv);
        free(in);
        return NULL;
    }
    return in;
}

fmuc_inst *fmuc_inst_instantiate(fmuc_worker_ctx *ctx, fmuc_iface iface, const char *token,
                                 const char *name)
{
    fmuc_inst_args a;
    fmuc_inst_args_init(&a);
    a.token = token;
    if (name)
        a.name = name;
    return fmuc_inst_instantiate_ex(ctx, iface, &a);
}

void fmuc_inst_free(fmuc_inst *in)
{
    if (!in)
        return;
    if (in->ops->free_instance)
        in->ops->free_instance(in);
    free(in->priv);
    free(in);
}

void fmuc_inst_abandon(fmuc_inst *in)
{
    if (!in)
        return;
    free(in->priv);
    free(in);
}

fmuc_iface fmuc_inst_iface(const fmuc_inst *in)
{
    return in->iface;
}

int fmuc_inst_fmi_version(const fmuc_inst *in)
{
    return in->ops->version;
}

fmuc_worker_ctx *fmuc_inst_ctx(const fmuc_inst *in)
{
    return in->ctx;
}

/* ---- dispatch ----------------------------------------------------------------------------- */

#define DISPATCH_(op, ...) return in->ops->op ? in->ops->op(in, __VA_ARGS__) : FMUC_STATUS_NOT_PROVIDED
#define DISPATCH0_(op) return in->ops->op ? in->ops->op(in) : FMUC_STATUS_NOT_PROVIDED

fmuc_status fmuc_inst_set_debug_logging(fmuc_inst *in, int logging_on, size_t ncat,
                                        const char *const cats[])
{
    DISPATCH_(set_debug_logging, logging_on, ncat, cats);
}

fmuc_status fmuc_inst_setup_experiment(fmuc_inst *in, const fmuc_inst_experiment *e)
{
    in->exp = *e;
    DISPATCH_(setup_experiment, e);
}

fmuc_status fmuc_inst_enter_initialization_mode(fmuc_inst *in) { DISPATCH0_(enter_initialization_mode); }
fmuc_status fmuc_inst_exit_initialization_mode(fmuc_inst *in) { DISPATCH0_(exit_initialization_mode); }
fmuc_status fmuc_inst_terminate(fmuc_inst *in) { DISPATCH0_(terminate); }
fmuc_status fmuc_inst_reset(fmuc_inst *in) { DISPATCH0_(reset); }

fmuc_status fmuc_inst_get(fmuc_inst *in, fmuc_inst_base type, const fmuc_vr *vr, size_t nvr,
                          void *values, size_t nvalues)
{
    DISPATCH_(get, type, vr, nvr, values, nvalues);
}

fmuc_status fmuc_inst_set(fmuc_inst *in, fmuc_inst_base type, const fmuc_vr *vr, size_t nvr,
                          const void *values, size_t nvalues)
{
    DISPATCH_(set, type, vr, nvr, values, nvalues);
}

fmuc_status fmuc_inst_do_step(fmuc_inst *in, double t, double h, int no_set_prior,
                              fmuc_inst_step_info *info)
{
    DISPATCH_(do_step, t, h, no_set_prior, info);
}

fmuc_status fmuc_inst_cancel_step(fmuc_inst *in) { DISPATCH0_(cancel_step); }

fmuc_status fmuc_inst_cs_status(fmuc_inst *in, fmuc_inst_query q, void *value)
{
    DISPATCH_(cs_status, q, value);
}

fmuc_status fmuc_inst_set_input_derivatives(fmuc_inst *in, const fmuc_vr *vr, size_t nvr,
                                            const int32_t *order, const double *values,
                                            size_t nvalues)
{
    DISPATCH_(set_input_derivatives, vr, nvr, order, values, nvalues);
}

fmuc_status fmuc_inst_get_output_derivatives(fmuc_inst *in, const fmuc_vr *vr, size_t nvr,
                                             const int32_t *order, double *values,
                                             size_t nvalues)
{
    DISPATCH_(get_output_derivatives, vr, nvr, order, values, nvalues);
}

fmuc_status fmuc_inst_enter_event_mode(fmuc_inst *in) { DISPATCH0_(enter_event_mode); }

fmuc_status fmuc_inst_update_discrete_states(fmuc_inst *in, fmuc_inst_event_info *info)
{
    memset(info, 0, sizeof *info);
    DISPATCH_(update_discrete_states, info);
}

fmuc_status fmuc_inst_enter_continuous_time_mode(fmuc_inst *in) { DISPATCH0_(enter_continuous_time_mode); }

fmuc_status fmuc_inst_completed_integrator_step(fmuc_inst *in, int no_set_prior,
                                                int *enter_event_mode, int *terminate)
{
    DISPATCH_(completed_integrator_step, no_set_prior, enter_event_mode, terminate);
}

fmuc_status fmuc_inst_set_time(fmuc_inst *in, double t) { DISPATCH_(set_time, t); }

fmuc_status fmuc_inst_set_continuous_states(fmuc_inst *in, const double *x, size_t nx)
{
    DISPATCH_(set_continuous_states, x, nx);
}

fmuc_status fmuc_inst_get_continuous_states(fmuc_inst *in, double *x, size_t nx)
{
    DISPATCH_(get_continuous_states, x, nx);
}

fmuc_status fmuc_inst_get_derivatives(fmuc_inst *in, double *dx, size_t nx)
{
    DISPATCH_(get_derivatives, dx, nx);
}

fmuc_status fmuc_inst_get_event_indicators(fmuc_inst *in, double *z, size_t nz)
{
    DISPATCH_(get_event_indicators, z, nz);
}

fmuc_status fmuc_inst_get_nominals(fmuc_inst *in, double *nominal, size_t nx)
{
    DISPATCH_(get_nominals, nominal, nx);
}

fmuc_status fmuc_inst_get_state(fmuc_inst *in, fmuc_fmu_state *state) { DISPATCH_(get_state, state); }
fmuc_status fmuc_inst_set_state(fmuc_inst *in, fmuc_fmu_state state) { DISPATCH_(set_state, state); }
fmuc_status fmuc_inst_free_state(fmuc_inst *in, fmuc_fmu_state *state) { DISPATCH_(free_state, state); }

fmuc_status fmuc_inst_serialized_state_size(fmuc_inst *in, fmuc_fmu_state state, size_t *size)
{
    DISPATCH_(serialized_state_size, state, size);
}

fmuc_status fmuc_inst_serialize_state(fmuc_inst *in, fmuc_fmu_state state, uint8_t *buf,
                                      size_t size)
{
    DISPATCH_(serialize_state, state, buf, size);
}

fmuc_status fmuc_inst_deserialize_state(fmuc_inst *in, const uint8_t *buf, size_t size,
                                        fmuc_fmu_state *state)
{
    DISPATCH_(deserialize_state, buf, size, state);
}

fmuc_status fmuc_inst_get_directional_derivative(fmuc_inst *in, const fmuc_vr *unknown,
                                                 size_t nunknown, const fmuc_vr *known,
                                                 size_t nknown, const double *dv_known,
                                                 size_t nknown_values, double *dv_unknown,
                                                 size_t nunknown_values)
{
    DISPATCH_(get_directional_derivative, unknown, nunknown, known, nknown, dv_known,
              nknown_values, dv_unknown, nunknown_values);
}
