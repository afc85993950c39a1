/* The version-neutral instance API: argument plumbing and dispatch through the instance's table of
 * operations (inst_internal.h). Nothing here knows an FMI function.
 *
 * Guarded buffers (issue 18): every array handed to the FMU for output goes through a copy with
 * guard space behind it (GUARD_MIN bytes of a fixed pattern, more for large arrays), checked when
 * the call returns; every array the FMU may only read is handed over as a copy and compared with
 * the caller's after the call. A difference is recorded in the worker's shared region
 * (fmuc_trace__buffer_violation: the call, the argument, how far it wrote or which element
 * changed) and reaches the parent as the outcome's buffer_violations, whatever the check does;
 * the caller's own arrays are never written past their end nor changed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inst_internal.h"
#include "worker_internal.h"

_Static_assert(FMUC_STATUS_NOT_PROVIDED == (int)FMUC_FMI_NOT_PROVIDED,
               "one not-provided status for the wrappers and the instance API");

static const fmuc_inst_ops *ops_for(int version)
{
    return version == 2   ? &fmuc_inst__fmi2_ops
           : version == 1 ? &fmuc_inst__fmi1_ops
           : version == 3 ? &fmuc_inst__fmi3_ops
                          : NULL;
}

int fmuc_inst_version(const fmuc_worker_ctx *ctx)
{
    return ctx && ctx->spec && ctx->spec->fmu ? fmuc_fmu_fmi_version(ctx->spec->fmu) : 2;
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

/* ---- the versions' tables of functions ----------------------------------------------------- */

void fmuc_inst__resolve(fmuc_worker_ctx *ctx, int k, const char *prefix, const fmuc_inst_fns *t,
                        void *rec, uint64_t *mask)
{
    unsigned mine = 1u << k; /* FMUC_INST_FN_ME, _CS, _SE for slots 0, 1, 2 */
    const char **missing = (const char **)((char *)rec + t->missing_off);
    size_t *nmissing = (size_t *)((char *)rec + t->nmissing_off);
    for (size_t i = 0; i < t->n; i++) {
        const fmuc_inst_fn *f = &t->fn[i];
        char sym[512];
        void *p = NULL;
        if (!prefix)
            p = fmuc_loader__sym(ctx, k, f->name);
        else if (fmuc_fmi1_symbol(sym, sizeof sym, prefix, f->name) == 0)
            p = fmuc_loader__sym(ctx, k, sym);
        /* dlsym gives void*; POSIX guarantees it converts to a function pointer, memcpy avoids
         * the object-to-function pointer cast. */
        memcpy((char *)rec + f->off, &p, sizeof p);
        if (!p && (f->need & mine)) {
            missing[(*nmissing)++] = f->name;
            if (mask)
                mask[i / 64] |= 1ull << (i % 64);
        }
    }
}

int fmuc_inst__has(const fmuc_inst_fns *t, const void *rec, const char *name)
{
    if (!name)
        return 0;
    for (size_t i = 0; i < t->n; i++) {
        if (strcmp(t->fn[i].name, name) == 0) {
            void (*p)(void);
            memcpy(&p, (const char *)rec + t->fn[i].off, sizeof p);
            return p != NULL;
        }
    }
    return 0;
}

/* ---- library ------------------------------------------------------------------------------ */

static const void *lib_of(fmuc_worker_ctx *ctx, fmuc_iface iface, const fmuc_inst_ops **o)
{
    const void *lib = NULL;
    *o = ops_for(fmuc_inst_version(ctx));
    if (!*o || !(*o)->load) {
        ctx->sh->load_attempted = 1;
        snprintf(ctx->sh->load_error, sizeof ctx->sh->load_error,
                 "the worker has no FMI %d.0 instance implementation", fmuc_inst_version(ctx));
        return NULL;
    }
    if (iface == FMUC_IFACE_SE && fmuc_inst_version(ctx) != 3) {
        ctx->sh->load_attempted = 1;
        snprintf(ctx->sh->load_error, sizeof ctx->sh->load_error,
                 "Scheduled Execution exists only in FMI 3.0; this FMU is FMI %d.0",
                 fmuc_inst_version(ctx));
        return NULL;
    }
    if ((*o)->load(ctx, iface, &lib) < 0)
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
    return lib && o->fns ? fmuc_inst__has(o->fns, lib, name) : 0;
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
    if (!lib || !o->fns)
        return 0;
    *names = (const char *const *)((const char *)lib + o->fns->missing_off);
    return *(const size_t *)((const char *)lib + o->fns->nmissing_off);
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
    if (in->ops->forget)
        in->ops->forget(in);
    free(in->priv);
    free(in);
}

void fmuc_inst_abandon(fmuc_inst *in)
{
    if (!in)
        return;
    if (in->ops->forget)
        in->ops->forget(in);
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

double fmuc_inst_last_step_size(const fmuc_inst *in)
{
    return in->last_h;
}

const fmuc_inst_experiment *fmuc_inst_experiment_set(const fmuc_inst *in)
{
    return &in->exp;
}

/* ---- guarded buffers ---------------------------------------------------------------------- */

#define GUARD_MIN 64           /* bytes of guard behind every output array */
#define GUARD_MAX (64u << 10)  /* large arrays: a quarter of their size, up to this */
#define GUARD_LOCAL 512        /* input copies up to this size live on the stack */

static unsigned char guard_byte(size_t i)
{
    return (unsigned char)(0xA5u + 0x3Bu * (unsigned)i); /* not one repeated byte value */
}

typedef fmuc_inst__gout guard_out;

void *fmuc_inst__gout_begin(guard_out *g, void *user, size_t n, size_t es)
{
    memset(g, 0, sizeof *g);
    g->user = user;
    if (!user || es == 0 || n > (SIZE_MAX - GUARD_MAX) / es / 2)
        return user;
    g->n = n;
    g->es = es;
    g->bytes = n * es;
    g->guard = g->bytes / 4 > GUARD_MIN ? g->bytes / 4 : GUARD_MIN;
    if (g->guard > GUARD_MAX)
        g->guard = GUARD_MAX;
    g->buf = malloc(g->bytes + g->guard);
    if (!g->buf)
        return user; /* no memory: unguarded rather than no call */
    memcpy(g->buf, user, g->bytes); /* what the caller put there stays unless the FMU writes */
    for (size_t i = 0; i < g->guard; i++)
        g->buf[g->bytes + i] = guard_byte(i);
    return g->buf;
}

void fmuc_inst__gout_end(fmuc_inst *in, guard_out *g, const char *array)
{
    if (!g->buf)
        return;
    size_t past = 0;
    for (size_t i = g->guard; i > 0; i--)
        if (g->buf[g->bytes + i - 1] != guard_byte(i - 1)) {
            past = i;
            break;
        }
    if (past)
        fmuc_trace__buffer_violation(in->ctx,
                                     past == g->guard ? FMUC_W_BUFV_OVERRUN_ALL
                                                      : FMUC_W_BUFV_OVERRUN,
                                     array, g->n,
                                     (uint32_t)g->es, past);
    memcpy(g->user, g->buf, g->bytes);
    free(g->buf);
    g->buf = NULL;
}

typedef struct guard_in {
    const void *user;    /* the caller's array */
    unsigned char *copy; /* what the FMU gets (NULL: the caller's, unchecked) */
    size_t n, es, bytes;
    unsigned char local[GUARD_LOCAL];
} guard_in;

static const void *gin_begin(guard_in *g, const void *user, size_t n, size_t es)
{
    g->user = user;
    g->copy = NULL;
    if (!user || es == 0 || n > SIZE_MAX / es)
        return user;
    g->n = n;
    g->es = es;
    g->bytes = n * es;
    g->copy = g->bytes <= sizeof g->local ? g->local : malloc(g->bytes ? g->bytes : 1);
    if (!g->copy)
        return user;
    memcpy(g->copy, user, g->bytes);
    return g->copy;
}

static void gin_end(fmuc_inst *in, guard_in *g, const char *array)
{
    if (!g->copy)
        return;
    if (memcmp(g->copy, g->user, g->bytes) != 0) {
        size_t i = 0;
        while (i < g->bytes && g->copy[i] == ((const unsigned char *)g->user)[i])
            i++;
        fmuc_trace__buffer_violation(in->ctx, FMUC_W_BUFV_INPUT_CHANGED, array, g->n,
                                     (uint32_t)g->es, i / g->es);
    }
    if (g->copy != g->local)
        free(g->copy);
    g->copy = NULL;
}

/* element size of a base type's value arrays (fmuc_inst.h) */
static size_t base_size(fmuc_inst_base t)
{
    switch (t) {
    case FMUC_INST_INT8:
    case FMUC_INST_UINT8:
        return 1;
    case FMUC_INST_INT16:
    case FMUC_INST_UINT16:
        return 2;
    case FMUC_INST_FLOAT32:
    case FMUC_INST_INT32:
    case FMUC_INST_UINT32:
        return 4;
    case FMUC_INST_FLOAT64:
    case FMUC_INST_INT64:
    case FMUC_INST_UINT64:
    case FMUC_INST_ENUMERATION:
        return 8;
    case FMUC_INST_BOOLEAN:
    case FMUC_INST_CLOCK:
        return sizeof(int);
    case FMUC_INST_STRING:
    case FMUC_INST_BINARY:
        return sizeof(void *);
    default:
        return 0; /* unknown type: not guarded */
    }
}

/* ---- dispatch ----------------------------------------------------------------------------- */

#define DISPATCH_(op, ...) return in->ops->op ? in->ops->op(in, __VA_ARGS__) : FMUC_STATUS_NOT_PROVIDED
#define DISPATCH0_(op) return in->ops->op ? in->ops->op(in) : FMUC_STATUS_NOT_PROVIDED

fmuc_status fmuc_inst_set_debug_logging(fmuc_inst *in, int logging_on, size_t ncat,
                                        const char *const cats[])
{
    if (!in->ops->set_debug_logging)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_in gc;
    const char *const *c = gin_begin(&gc, cats, ncat, sizeof *cats);
    fmuc_status st = in->ops->set_debug_logging(in, logging_on, ncat, c);
    gin_end(in, &gc, "categories");
    return st;
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
    if (!in->ops->get)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_in gv;
    guard_out go;
    const fmuc_vr *v = gin_begin(&gv, vr, nvr, sizeof *vr);
    void *o = fmuc_inst__gout_begin(&go, values, nvalues, base_size(type));
    fmuc_status st = in->ops->get(in, type, v, nvr, o, nvalues);
    fmuc_inst__gout_end(in, &go, "value");
    gin_end(in, &gv, "vr");
    return st;
}

fmuc_status fmuc_inst_set(fmuc_inst *in, fmuc_inst_base type, const fmuc_vr *vr, size_t nvr,
                          const void *values, size_t nvalues)
{
    if (!in->ops->set)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_in gv, gx;
    const fmuc_vr *v = gin_begin(&gv, vr, nvr, sizeof *vr);
    const void *x = gin_begin(&gx, values, nvalues, base_size(type));
    fmuc_status st = in->ops->set(in, type, v, nvr, x, nvalues);
    gin_end(in, &gv, "vr");
    gin_end(in, &gx, "value");
    return st;
}

fmuc_status fmuc_inst_get_binary(fmuc_inst *in, const fmuc_vr *vr, size_t nvr, size_t *sizes,
                                 const uint8_t **values, size_t nvalues)
{
    if (!in->ops->get_binary)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_in gv;
    guard_out gs, go;
    const fmuc_vr *v = gin_begin(&gv, vr, nvr, sizeof *vr);
    size_t *s = fmuc_inst__gout_begin(&gs, sizes, nvalues, sizeof *sizes);
    const uint8_t **o = fmuc_inst__gout_begin(&go, (void *)values, nvalues, sizeof *values);
    fmuc_status st = in->ops->get_binary(in, v, nvr, s, o, nvalues);
    fmuc_inst__gout_end(in, &go, "value");
    fmuc_inst__gout_end(in, &gs, "valueSizes");
    gin_end(in, &gv, "vr");
    return st;
}

fmuc_status fmuc_inst_set_binary(fmuc_inst *in, const fmuc_vr *vr, size_t nvr,
                                 const size_t *sizes, const uint8_t *const *values,
                                 size_t nvalues)
{
    if (!in->ops->set_binary)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_in gv, gs, gx;
    const fmuc_vr *v = gin_begin(&gv, vr, nvr, sizeof *vr);
    const size_t *s = gin_begin(&gs, sizes, nvalues, sizeof *sizes);
    const uint8_t *const *x = gin_begin(&gx, values, nvalues, sizeof *values);
    fmuc_status st = in->ops->set_binary(in, v, nvr, s, x, nvalues);
    gin_end(in, &gv, "vr");
    gin_end(in, &gs, "valueSizes");
    gin_end(in, &gx, "value");
    return st;
}

fmuc_status fmuc_inst_do_step(fmuc_inst *in, double t, double h, int no_set_prior,
                              fmuc_inst_step_info *info)
{
    in->last_h = h;
    DISPATCH_(do_step, t, h, no_set_prior, info);
}

fmuc_status fmuc_inst_cancel_step(fmuc_inst *in) { DISPATCH0_(cancel_step); }

fmuc_status fmuc_inst_cs_status(fmuc_inst *in, fmuc_inst_query q, void *value)
{
    DISPATCH_(cs_status, q, value);
}

fmuc_status fmuc_inst_cs_integer_status(fmuc_inst *in, fmuc_inst_query q, int *value)
{
    DISPATCH_(cs_integer_status, q, value);
}

fmuc_status fmuc_inst_set_input_derivatives(fmuc_inst *in, const fmuc_vr *vr, size_t nvr,
                                            const int32_t *order, const double *values,
                                            size_t nvalues)
{
    if (!in->ops->set_input_derivatives)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_in gv, go, gx;
    const fmuc_vr *v = gin_begin(&gv, vr, nvr, sizeof *vr);
    const int32_t *o = gin_begin(&go, order, nvr, sizeof *order);
    const double *x = gin_begin(&gx, values, nvalues, sizeof *values);
    fmuc_status st = in->ops->set_input_derivatives(in, v, nvr, o, x, nvalues);
    gin_end(in, &gv, "vr");
    gin_end(in, &go, "order");
    gin_end(in, &gx, "value");
    return st;
}

fmuc_status fmuc_inst_get_output_derivatives(fmuc_inst *in, const fmuc_vr *vr, size_t nvr,
                                             const int32_t *order, double *values,
                                             size_t nvalues)
{
    if (!in->ops->get_output_derivatives)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_in gv, go;
    guard_out gx;
    const fmuc_vr *v = gin_begin(&gv, vr, nvr, sizeof *vr);
    const int32_t *o = gin_begin(&go, order, nvr, sizeof *order);
    double *x = fmuc_inst__gout_begin(&gx, values, nvalues, sizeof *values);
    fmuc_status st = in->ops->get_output_derivatives(in, v, nvr, o, x, nvalues);
    fmuc_inst__gout_end(in, &gx, "value");
    gin_end(in, &gv, "vr");
    gin_end(in, &go, "order");
    return st;
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
    if (!in->ops->set_continuous_states)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_in gx;
    const double *c = gin_begin(&gx, x, nx, sizeof *x);
    fmuc_status st = in->ops->set_continuous_states(in, c, nx);
    gin_end(in, &gx, "x");
    return st;
}

fmuc_status fmuc_inst_get_continuous_states(fmuc_inst *in, double *x, size_t nx)
{
    if (!in->ops->get_continuous_states)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_out g;
    double *b = fmuc_inst__gout_begin(&g, x, nx, sizeof *x);
    fmuc_status st = in->ops->get_continuous_states(in, b, nx);
    fmuc_inst__gout_end(in, &g, "x");
    return st;
}

fmuc_status fmuc_inst_get_derivatives(fmuc_inst *in, double *dx, size_t nx)
{
    if (!in->ops->get_derivatives)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_out g;
    double *b = fmuc_inst__gout_begin(&g, dx, nx, sizeof *dx);
    fmuc_status st = in->ops->get_derivatives(in, b, nx);
    fmuc_inst__gout_end(in, &g, "derivatives");
    return st;
}

fmuc_status fmuc_inst_get_event_indicators(fmuc_inst *in, double *z, size_t nz)
{
    if (!in->ops->get_event_indicators)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_out g;
    double *b = fmuc_inst__gout_begin(&g, z, nz, sizeof *z);
    fmuc_status st = in->ops->get_event_indicators(in, b, nz);
    fmuc_inst__gout_end(in, &g, "eventIndicators");
    return st;
}

fmuc_status fmuc_inst_get_nominals(fmuc_inst *in, double *nominal, size_t nx)
{
    if (!in->ops->get_nominals)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_out g;
    double *b = fmuc_inst__gout_begin(&g, nominal, nx, sizeof *nominal);
    fmuc_status st = in->ops->get_nominals(in, b, nx);
    fmuc_inst__gout_end(in, &g, "x_nominal");
    return st;
}

fmuc_status fmuc_inst_get_state_value_references(fmuc_inst *in, fmuc_vr *vr, size_t nx)
{
    if (!in->ops->get_state_value_references)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_out g;
    fmuc_vr *b = fmuc_inst__gout_begin(&g, vr, nx, sizeof *vr);
    fmuc_status st = in->ops->get_state_value_references(in, b, nx);
    fmuc_inst__gout_end(in, &g, "vrx");
    return st;
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
    if (!in->ops->serialize_state)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_out g;
    uint8_t *b = fmuc_inst__gout_begin(&g, buf, size, 1);
    fmuc_status st = in->ops->serialize_state(in, state, b, size);
    fmuc_inst__gout_end(in, &g, "serializedState");
    return st;
}

fmuc_status fmuc_inst_deserialize_state(fmuc_inst *in, const uint8_t *buf, size_t size,
                                        fmuc_fmu_state *state)
{
    if (!in->ops->deserialize_state)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_in g;
    const uint8_t *b = gin_begin(&g, buf, size, 1);
    fmuc_status st = in->ops->deserialize_state(in, b, size, state);
    gin_end(in, &g, "serializedState");
    return st;
}

fmuc_status fmuc_inst_get_directional_derivative(fmuc_inst *in, const fmuc_vr *unknown,
                                                 size_t nunknown, const fmuc_vr *known,
                                                 size_t nknown, const double *dv_known,
                                                 size_t nknown_values, double *dv_unknown,
                                                 size_t nunknown_values)
{
    if (!in->ops->get_directional_derivative)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_in gu, gk, gs;
    guard_out gd;
    const fmuc_vr *u = gin_begin(&gu, unknown, nunknown, sizeof *unknown);
    const fmuc_vr *k = gin_begin(&gk, known, nknown, sizeof *known);
    const double *sv = gin_begin(&gs, dv_known, nknown_values, sizeof *dv_known);
    double *d = fmuc_inst__gout_begin(&gd, dv_unknown, nunknown_values, sizeof *dv_unknown);
    fmuc_status st = in->ops->get_directional_derivative(in, u, nunknown, k, nknown, sv,
                                                         nknown_values, d, nunknown_values);
    fmuc_inst__gout_end(in, &gd, "dvUnknown");
    gin_end(in, &gu, "vUnknown_ref");
    gin_end(in, &gk, "vKnown_ref");
    gin_end(in, &gs, "dvKnown");
    return st;
}

fmuc_status fmuc_inst_get_adjoint_derivative(fmuc_inst *in, const fmuc_vr *unknown, size_t nunknown,
                                             const fmuc_vr *known, size_t nknown,
                                             const double *seed, size_t nseed,
                                             double *sensitivity, size_t nsensitivity)
{
    if (!in->ops->get_adjoint_derivative)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_in gu, gk, gs;
    guard_out gd;
    const fmuc_vr *u = gin_begin(&gu, unknown, nunknown, sizeof *unknown);
    const fmuc_vr *k = gin_begin(&gk, known, nknown, sizeof *known);
    const double *sv = gin_begin(&gs, seed, nseed, sizeof *seed);
    double *d = fmuc_inst__gout_begin(&gd, sensitivity, nsensitivity, sizeof *sensitivity);
    fmuc_status st =
        in->ops->get_adjoint_derivative(in, u, nunknown, k, nknown, sv, nseed, d, nsensitivity);
    fmuc_inst__gout_end(in, &gd, "sensitivity");
    gin_end(in, &gu, "unknowns");
    gin_end(in, &gk, "knowns");
    gin_end(in, &gs, "seed");
    return st;
}

fmuc_status fmuc_inst_get_number_of_variable_dependencies(fmuc_inst *in, fmuc_vr vr, size_t *n)
{
    if (!in->ops->get_number_of_variable_dependencies)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_out gn;
    size_t *np = fmuc_inst__gout_begin(&gn, n, 1, sizeof *n);
    fmuc_status st = in->ops->get_number_of_variable_dependencies(in, vr, np);
    fmuc_inst__gout_end(in, &gn, "nDependencies");
    return st;
}

fmuc_status fmuc_inst_get_variable_dependencies(fmuc_inst *in, fmuc_vr dependent,
                                                size_t *element_dep, fmuc_vr *independent,
                                                size_t *element_indep, int *kind, size_t n)
{
    if (!in->ops->get_variable_dependencies)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_out ge, gi, gx, gk;
    size_t *e = fmuc_inst__gout_begin(&ge, element_dep, n, sizeof *element_dep);
    fmuc_vr *i = fmuc_inst__gout_begin(&gi, independent, n, sizeof *independent);
    size_t *x = fmuc_inst__gout_begin(&gx, element_indep, n, sizeof *element_indep);
    int *k = fmuc_inst__gout_begin(&gk, kind, n, sizeof *kind);
    fmuc_status st = in->ops->get_variable_dependencies(in, dependent, e, i, x, k, n);
    fmuc_inst__gout_end(in, &ge, "elementIndicesOfDependent");
    fmuc_inst__gout_end(in, &gi, "independents");
    fmuc_inst__gout_end(in, &gx, "elementIndicesOfIndependents");
    fmuc_inst__gout_end(in, &gk, "dependencyKinds");
    return st;
}

fmuc_inst *fmuc_inst_instantiate_cs3(fmuc_worker_ctx *ctx, const fmuc_inst_cs3_options *o)
{
    fmuc_inst_args a;
    if (fmuc_inst_version(ctx) != 3)
        return NULL;
    fmuc_inst_args_init(&a);
    if (o->name)
        a.name = o->name;
    a.cs_event_mode_used = o->event_mode_used != 0;
    a.cs_early_return_allowed = o->early_return_allowed != 0;
    a.cs_intermediate_update = o->intermediate_update != 0;
    a.cs_required = o->required;
    a.cs_n_required = o->required ? o->n_required : 0;
    a.cs_access = o->intermediate_update ? o->access : NULL;
    return fmuc_inst_instantiate_ex(ctx, FMUC_IFACE_CS, &a);
}

fmuc_status fmuc_inst_evaluate_discrete_states(fmuc_inst *in)
{
    if (!in->ops->evaluate_discrete_states)
        return FMUC_STATUS_NOT_PROVIDED;
    return in->ops->evaluate_discrete_states(in);
}

fmuc_status fmuc_inst_enter_step_mode(fmuc_inst *in)
{
    if (!in->ops->enter_step_mode)
        return FMUC_STATUS_NOT_PROVIDED;
    return in->ops->enter_step_mode(in);
}

size_t fmuc_inst_intermediate_log(const fmuc_inst *in, const fmuc_inst_iu_call **calls,
                                  size_t *nkept)
{
    *calls = NULL;
    *nkept = 0;
    if (!in->ops->intermediate_log)
        return 0;
    return in->ops->intermediate_log(in, calls, nkept);
}
fmuc_status fmuc_inst_enter_configuration_mode(fmuc_inst *in) { DISPATCH0_(enter_configuration_mode); }
fmuc_status fmuc_inst_exit_configuration_mode(fmuc_inst *in) { DISPATCH0_(exit_configuration_mode); }

/* The FMU writes one size_t: guarded like the other outputs the FMU writes. */
static fmuc_status get_count(fmuc_inst *in, fmuc_status (*op)(fmuc_inst *, size_t *), size_t *n,
                             const char *arg)
{
    if (!op)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_out gn;
    size_t *np = fmuc_inst__gout_begin(&gn, n, 1, sizeof *n);
    fmuc_status st = op(in, np);
    fmuc_inst__gout_end(in, &gn, arg);
    return st;
}

fmuc_status fmuc_inst_get_number_of_continuous_states(fmuc_inst *in, size_t *n)
{
    return get_count(in, in->ops->get_number_of_continuous_states, n, "nContinuousStates");
}

fmuc_status fmuc_inst_get_number_of_event_indicators(fmuc_inst *in, size_t *n)
{
    return get_count(in, in->ops->get_number_of_event_indicators, n, "nEventIndicators");
}

/* ---- Scheduled Execution (FMI 3.0) ---------------------------------------------------------- */

int fmuc_inst_se_watch(fmuc_inst *in, const fmuc_vr *output_clocks, size_t nout,
                       const fmuc_vr *countdown_clocks, size_t ncountdown)
{
    if (!in->ops->se_watch || in->iface != FMUC_IFACE_SE)
        return -1;
    return in->ops->se_watch(in, output_clocks, nout, countdown_clocks, ncountdown);
}

fmuc_status fmuc_inst_activate_model_partition(fmuc_inst *in, fmuc_vr clock, double time)
{
    if (!in->ops->activate_model_partition)
        return FMUC_STATUS_NOT_PROVIDED;
    return in->ops->activate_model_partition(in, clock, time);
}

fmuc_status fmuc_inst_get_interval_decimal(fmuc_inst *in, const fmuc_vr *vr, size_t n,
                                           double *intervals, int *qualifiers)
{
    if (!in->ops->get_interval_decimal)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_in gv;
    guard_out gi, gq;
    const fmuc_vr *v = gin_begin(&gv, vr, n, sizeof *vr);
    double *iv = fmuc_inst__gout_begin(&gi, intervals, n, sizeof *intervals);
    int *q = fmuc_inst__gout_begin(&gq, qualifiers, n, sizeof *qualifiers);
    fmuc_status st = in->ops->get_interval_decimal(in, v, n, iv, q);
    fmuc_inst__gout_end(in, &gi, "intervals");
    fmuc_inst__gout_end(in, &gq, "qualifiers");
    gin_end(in, &gv, "valueReferences");
    return st;
}

fmuc_status fmuc_inst_get_shift_decimal(fmuc_inst *in, const fmuc_vr *vr, size_t n, double *shifts)
{
    if (!in->ops->get_shift_decimal)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_in gv;
    guard_out gs;
    const fmuc_vr *v = gin_begin(&gv, vr, n, sizeof *vr);
    double *sh = fmuc_inst__gout_begin(&gs, shifts, n, sizeof *shifts);
    fmuc_status st = in->ops->get_shift_decimal(in, v, n, sh);
    fmuc_inst__gout_end(in, &gs, "shifts");
    gin_end(in, &gv, "valueReferences");
    return st;
}

fmuc_status fmuc_inst_get_interval_fraction(fmuc_inst *in, const fmuc_vr *vr, size_t n,
                                            uint64_t *counters, uint64_t *resolutions,
                                            int *qualifiers)
{
    if (!in->ops->get_interval_fraction)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_in gv;
    guard_out gc, gr, gq;
    const fmuc_vr *v = gin_begin(&gv, vr, n, sizeof *vr);
    uint64_t *c = fmuc_inst__gout_begin(&gc, counters, n, sizeof *counters);
    uint64_t *r = fmuc_inst__gout_begin(&gr, resolutions, n, sizeof *resolutions);
    int *q = fmuc_inst__gout_begin(&gq, qualifiers, n, sizeof *qualifiers);
    fmuc_status st = in->ops->get_interval_fraction(in, v, n, c, r, q);
    fmuc_inst__gout_end(in, &gc, "counters");
    fmuc_inst__gout_end(in, &gr, "resolutions");
    fmuc_inst__gout_end(in, &gq, "qualifiers");
    gin_end(in, &gv, "valueReferences");
    return st;
}

fmuc_status fmuc_inst_get_shift_fraction(fmuc_inst *in, const fmuc_vr *vr, size_t n,
                                         uint64_t *counters, uint64_t *resolutions)
{
    if (!in->ops->get_shift_fraction)
        return FMUC_STATUS_NOT_PROVIDED;
    guard_in gv;
    guard_out gc, gr;
    const fmuc_vr *v = gin_begin(&gv, vr, n, sizeof *vr);
    uint64_t *c = fmuc_inst__gout_begin(&gc, counters, n, sizeof *counters);
    uint64_t *r = fmuc_inst__gout_begin(&gr, resolutions, n, sizeof *resolutions);
    fmuc_status st = in->ops->get_shift_fraction(in, v, n, c, r);
    fmuc_inst__gout_end(in, &gc, "counters");
    fmuc_inst__gout_end(in, &gr, "resolutions");
    gin_end(in, &gv, "valueReferences");
    return st;
}

size_t fmuc_inst_se_log(const fmuc_inst *in, const fmuc_inst_cu_event **events, size_t *nkept,
                        fmuc_inst_se_counts *counts)
{
    *events = NULL;
    *nkept = 0;
    if (counts)
        memset(counts, 0, sizeof *counts);
    if (!in->ops->se_log)
        return 0;
    return in->ops->se_log(in, events, nkept, counts);
}

void fmuc_inst_se_log_clear(fmuc_inst *in)
{
    if (in->ops->se_log_clear)
        in->ops->se_log_clear(in);
}
