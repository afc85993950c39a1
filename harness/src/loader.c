/* The FMI loader (worker side): the extracted library is loaded with dlmopen into a link-map
 * namespace of its own (RTLD_NOW|RTLD_LOCAL), the 44-function table, and traced wrappers that
 * record every call in the crash-proof trace.
 *
 * Why a namespace of its own: the worker is a fork of fmucheck, whose global symbol scope holds
 * libsundials_cvode, libxml2, libzip, zlib, cJSON, libcrypto, ICU and libstdc++. A library
 * dlopen'ed into that namespace binds its own exported-but-interposable symbols (a Dymola FMU's
 * CVode*, a bundled zlib's inflate*) to fmucheck's copies, and crashes. In a new namespace the
 * library's lookup scope is a fresh libm/libc (the namespace's global scope), the library and its
 * own DT_NEEDED objects: nothing of fmucheck. glibc has 16 namespaces per process, so a worker
 * makes one and loads every later library of the same worker into it (dlinfo RTLD_DI_LMID). */
#include <dlfcn.h>
#include <gnu/lib-names.h>
#include <stdarg.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inst_internal.h"
#include "worker_internal.h"

/* FMI 2.0's functions in fmuc_fmi (inst_internal.h): common ones needed by both libraries */
#define NEED_C_ (FMUC_INST_FN_ME | FMUC_INST_FN_CS)
#define NEED_ME_ FMUC_INST_FN_ME
#define NEED_CS_ FMUC_INST_FN_CS
static const fmuc_inst_fn fn_table[] = {
#define FMUC_FN_(ret, name, params, iface) {#name, offsetof(fmuc_fmi, raw.name), NEED_##iface##_},
    FMUC_FMI2_FUNCTIONS(FMUC_FN_)
#undef FMUC_FN_
};
#undef NEED_C_
#undef NEED_ME_
#undef NEED_CS_
_Static_assert(sizeof fn_table / sizeof fn_table[0] == FMUC_FMI_NFUNCTIONS, "44 functions");
const fmuc_inst_fns fmuc_inst__fmi2_fns = {fn_table, FMUC_FMI_NFUNCTIONS,
                                           offsetof(fmuc_fmi, missing),
                                           offsetof(fmuc_fmi, nmissing)};

static void set_load_error(fmuc_worker_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void set_load_error(fmuc_worker_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->sh->load_error, sizeof ctx->sh->load_error, fmt, ap);
    va_end(ap);
}

void *fmuc_loader__sym(fmuc_worker_ctx *ctx, int k, const char *name)
{
    return ctx->handle[k] && name ? dlsym(ctx->handle[k], name) : NULL;
}

void *fmuc_loader__open(fmuc_worker_ctx *ctx, int k)
{
    const fmuc_fmu *fmu = ctx->spec->fmu;
    const char *path;
    fmuc_w_call *e;
    void *h;

    if (ctx->handle[k])
        return ctx->handle[k];
    ctx->sh->load_attempted = 1;
    ctx->sh->load_ok = 0;
    path = fmuc_fmu_lib_path(fmu, k);
    if (!path) {
        set_load_error(ctx, "no %s binary for this platform",
                       k == 2 ? "Scheduled Execution" : k ? "Co-Simulation" : "Model Exchange");
        return NULL;
    }
    if (path[0] != '/') {
        set_load_error(ctx, "library path is not absolute: %s", path);
        return NULL;
    }
    /* S4: the library must resolve to a file inside the FMU's extraction directory. */
    if (fmu->unpack_dir) {
        char *real = realpath(path, NULL), *base = realpath(fmu->unpack_dir, NULL);
        size_t bl = base ? strlen(base) : 0;
        int inside = real && base && strncmp(real, base, bl) == 0 && real[bl] == '/';
        free(real);
        free(base);
        if (!inside) {
            set_load_error(ctx, "library %s does not resolve to a file inside %s", path,
                           fmu->unpack_dir);
            return NULL;
        }
    }
    fmuc_worker_phase(ctx, "load");
    dlerror();
    e = fmuc_trace__begin(ctx, FMUC_W_FN_DLOPEN);
    fmuc_trace__str(e, 0, strrchr(path, '/') + 1);
    fmuc_trace__go(ctx, e);
    /* Never chdir (FMIL): the library gets an absolute path, a namespace of its own (see the
     * top of this file) and RTLD_LOCAL so two libraries' helper symbols cannot clash. */
    h = NULL;
    if (ctx->sh->sandbox.valgrind) {
        /* valgrind 3.19 intercepts malloc and the string functions per soname and gets them
         * wrong once a second libc.so.6 is mapped (false "uninitialised" reports from the
         * copy's unintercepted SSE string code reached from fmucheck's own calls): under
         * valgrind the library joins fmucheck's namespace as before (isolation.symbolScope
         * says so). */
        h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    } else if (!ctx->libm) {
        /* The namespace starts with libm: the first object of a namespace is its global scope
         * (with its dependencies libc and ld.so), as the program is in the base namespace. So
         * libraries that use sin() or malloc() without a DT_NEEDED entry for libm or libc (many
         * real FMUs) still resolve them, there and nowhere else. */
        Lmid_t lmid = 0;
        ctx->libm = dlmopen(LM_ID_NEWLM, LIBM_SO, RTLD_NOW | RTLD_LOCAL);
        if (ctx->libm && dlinfo(ctx->libm, RTLD_DI_LMID, &lmid) == 0)
            ctx->lmid = (long)lmid;
        else if (ctx->libm) {
            dlclose(ctx->libm);
            ctx->libm = NULL;
        }
    }
    if (ctx->libm && !h)
        h = dlmopen((Lmid_t)ctx->lmid, path, RTLD_NOW | RTLD_LOCAL);
    fmuc_trace__end(ctx, e, h != NULL, FMUC_W_CALL_RETURNED_PTR);
    if (!h) {
        const char *msg = dlerror();
        set_load_error(ctx, "dlopen failed: %s%s",
                       ctx->libm || ctx->sh->sandbox.valgrind ? "" : "(namespace of " LIBM_SO ") ",
                       msg ? msg : "unknown error");
        return NULL;
    }
    ctx->handle[k] = h;
    ctx->lib_path[k] = path;
    ctx->sh->load_ok = 1;
    return h;
}

const fmuc_fmi *fmuc_worker_load(fmuc_worker_ctx *ctx, fmi2Type iface)
{
    int k = iface == fmi2CoSimulation ? 1 : 0;
    fmuc_fmi *f = &ctx->fmi[k];

    if (ctx->loaded[k])
        return f;
    if (!fmuc_loader__open(ctx, k))
        return NULL;
    memset(f, 0, sizeof *f);
    fmuc_inst__resolve(ctx, k, NULL, &fmuc_inst__fmi2_fns, f, &ctx->sh->missing_mask);
    f->iface = k ? fmi2CoSimulation : fmi2ModelExchange;
    f->lib_path = ctx->lib_path[k];
    f->ctx = ctx;
    ctx->loaded[k] = 1;
    ctx->sh->load_ok = 1;
    return f;
}

const char *fmuc_worker_load_error(const fmuc_worker_ctx *ctx)
{
    return ctx->sh->load_error;
}

int fmuc_fmi_has(const fmuc_fmi *f, const char *name)
{
    return f ? fmuc_inst__has(&fmuc_inst__fmi2_fns, f, name) : 0;
}

/* The library's namespace has its own libc, so its own stdio buffers, which the worker's _exit
 * would drop: flush them (fflush(NULL) of that libc) while the library is still loaded. */
static void flush_namespace_stdio(void *h)
{
    int (*ff)(FILE *) = NULL;
    void *sym = dlsym(h, "fflush");
    memcpy(&ff, &sym, sizeof sym);
    if (ff)
        ff(NULL);
}

void fmuc_loader__flush_stdio(fmuc_worker_ctx *ctx)
{
    if (ctx->libm) /* libm's scope holds the namespace's libc (one namespace per worker) */
        flush_namespace_stdio(ctx->libm);
}

void fmuc_loader__unload_all(fmuc_worker_ctx *ctx)
{
    int k;
    fmuc_loader__flush_stdio(ctx);
    for (k = 0; k < 3; k++) {
        if (!ctx->handle[k])
            continue;
        fmuc_worker_phase(ctx, "unload");
        fmuc_w_call *e = fmuc_trace__begin(ctx, FMUC_W_FN_DLCLOSE);
        fmuc_trace__str(e, 0, strrchr(ctx->lib_path[k], '/') + 1);
        fmuc_trace__go(ctx, e);
        dlclose(ctx->handle[k]);
        fmuc_trace__end(ctx, e, 0, FMUC_W_CALL_RETURNED_VOID);
        ctx->handle[k] = NULL;
        ctx->loaded[k] = 0;
    }
}

const char *fmuc_fmi_status_name(int status, char *buf, size_t bufsize)
{
    static const char *const names[] = {"fmi2OK", "fmi2Warning", "fmi2Discard",
                                        "fmi2Error", "fmi2Fatal", "fmi2Pending"};
    if (status >= 0 && status <= 5)
        return names[status];
    if (status == (int)FMUC_FMI_NOT_PROVIDED)
        return "not provided";
    snprintf(buf, bufsize, "invalid(%d)", status);
    return buf;
}

/* ---- traced wrappers: record the arguments, publish, call, record the result ---- */

static void keep_ints(fmuc_w_call *e, const int *v, size_t n)
{
    size_t i;
    e->n[0] = n;
    if (!v) {
        e->flags |= FMUC_W_A_NULL1;
        return;
    }
    for (i = 0; i < n && i < FMUC_W_VAL_KEPT; i++)
        e->i[i] = v[i];
}

#define NOT_PROVIDED_(name, ret)                                                             \
    do {                                                                                     \
        fmuc_w_call *np_ = fmuc_trace__begin(f->ctx, FMUC_W_FN_##name);                      \
        fmuc_trace__go(f->ctx, np_);                                                         \
        fmuc_trace__end(f->ctx, np_, (int)FMUC_FMI_NOT_PROVIDED, FMUC_W_CALL_NOT_PROVIDED);      \
        return ret;                                                                          \
    } while (0)

/* Record, call, record the status. args is a statement filling e_'s arguments. */
#define TRACED_(name, args, call)                                                            \
    do {                                                                                     \
        fmuc_w_call *e_;                                                                     \
        fmi2Status st_;                                                                      \
        if (!f->raw.name)                                                                    \
            NOT_PROVIDED_(name, FMUC_FMI_NOT_PROVIDED);                                      \
        e_ = fmuc_trace__begin(f->ctx, FMUC_W_FN_##name);                                    \
        args;                                                                                \
        fmuc_trace__go(f->ctx, e_);                                                          \
        st_ = call;                                                                          \
        fmuc_trace__end(f->ctx, e_, (int)st_, FMUC_W_CALL_RETURNED);                             \
        return st_;                                                                          \
    } while (0)

#define NOARGS_ ((void)e_)

#define SIMPLE_(wrapper, name)                                                               \
    fmi2Status wrapper(const fmuc_fmi *f, fmi2Component c)                                   \
    {                                                                                        \
        TRACED_(name, NOARGS_, f->raw.name(c));                                              \
    }

const char *fmuc_fmi_getTypesPlatform(const fmuc_fmi *f)
{
    fmuc_w_call *e;
    const char *r;
    if (!f->raw.fmi2GetTypesPlatform)
        NOT_PROVIDED_(fmi2GetTypesPlatform, NULL);
    e = fmuc_trace__begin(f->ctx, FMUC_W_FN_fmi2GetTypesPlatform);
    fmuc_trace__go(f->ctx, e);
    r = f->raw.fmi2GetTypesPlatform();
    fmuc_trace__end(f->ctx, e, r != NULL, FMUC_W_CALL_RETURNED_PTR);
    return r;
}

const char *fmuc_fmi_getVersion(const fmuc_fmi *f)
{
    fmuc_w_call *e;
    const char *r;
    if (!f->raw.fmi2GetVersion)
        NOT_PROVIDED_(fmi2GetVersion, NULL);
    e = fmuc_trace__begin(f->ctx, FMUC_W_FN_fmi2GetVersion);
    fmuc_trace__go(f->ctx, e);
    r = f->raw.fmi2GetVersion();
    fmuc_trace__end(f->ctx, e, r != NULL, FMUC_W_CALL_RETURNED_PTR);
    return r;
}

fmi2Status fmuc_fmi_setDebugLogging(const fmuc_fmi *f, fmi2Component c, int logging_on,
                                    size_t ncat, const fmi2String cats[])
{
    TRACED_(fmi2SetDebugLogging, (e_->i[0] = logging_on, e_->n[0] = ncat),
            f->raw.fmi2SetDebugLogging(c, logging_on, ncat, cats));
}

fmi2Component fmuc_fmi_instantiate_ex(const fmuc_fmi *f, const char *instance_name, fmi2Type type,
                                      const char *guid, const char *resource_uri,
                                      const fmi2CallbackFunctions *functions, int visible,
                                      int logging_on)
{
    fmuc_w_call *e;
    fmi2Component c;
    if (!f->raw.fmi2Instantiate)
        NOT_PROVIDED_(fmi2Instantiate, NULL);
    e = fmuc_trace__begin(f->ctx, FMUC_W_FN_fmi2Instantiate);
    fmuc_trace__str(e, 0, instance_name);
    fmuc_trace__str(e, 1, guid);
    e->i[0] = (int32_t)type;
    e->i[1] = visible;
    e->i[2] = logging_on;
    if (!functions)
        e->flags |= FMUC_W_A_NULLP;
    fmuc_trace__go(f->ctx, e);
    c = f->raw.fmi2Instantiate(instance_name, type, guid, resource_uri, functions, visible,
                               logging_on);
    fmuc_trace__end(f->ctx, e, c != NULL, FMUC_W_CALL_RETURNED_PTR);
    return c;
}

fmi2Component fmuc_fmi_instantiate(const fmuc_fmi *f, fmi2Type type, const char *guid,
                                   const char *instance_name)
{
    const fmuc_fmu *fmu = f->ctx->spec->fmu;
    if (!guid && fmu && fmu->md_parsed)
        guid = fmu->md.guid;
    return fmuc_fmi_instantiate_ex(f, instance_name ? instance_name : "fmucheck", type, guid,
                                   fmu ? fmu->resource_uri : NULL, &f->ctx->cb, 0, 1);
}

void fmuc_fmi_freeInstance(const fmuc_fmi *f, fmi2Component c)
{
    fmuc_w_call *e = fmuc_trace__begin(f->ctx, FMUC_W_FN_fmi2FreeInstance);
    if (!f->raw.fmi2FreeInstance) {
        fmuc_trace__go(f->ctx, e);
        fmuc_trace__end(f->ctx, e, (int)FMUC_FMI_NOT_PROVIDED, FMUC_W_CALL_NOT_PROVIDED);
        return;
    }
    if (!c)
        e->flags |= FMUC_W_A_NULLP;
    fmuc_trace__go(f->ctx, e);
    f->raw.fmi2FreeInstance(c);
    fmuc_trace__end(f->ctx, e, 0, FMUC_W_CALL_RETURNED_VOID);
}

fmi2Status fmuc_fmi_setupExperiment(const fmuc_fmi *f, fmi2Component c, int tol_defined,
                                    double tol, double start, int stop_defined, double stop)
{
    TRACED_(fmi2SetupExperiment,
            (e_->i[0] = tol_defined, e_->d[0] = tol, e_->d[1] = start, e_->i[1] = stop_defined,
             e_->d[2] = stop),
            f->raw.fmi2SetupExperiment(c, tol_defined, tol, start, stop_defined, stop));
}

SIMPLE_(fmuc_fmi_enterInitializationMode, fmi2EnterInitializationMode)
SIMPLE_(fmuc_fmi_exitInitializationMode, fmi2ExitInitializationMode)
SIMPLE_(fmuc_fmi_terminate, fmi2Terminate)
SIMPLE_(fmuc_fmi_reset, fmi2Reset)
SIMPLE_(fmuc_fmi_enterEventMode, fmi2EnterEventMode)
SIMPLE_(fmuc_fmi_enterContinuousTimeMode, fmi2EnterContinuousTimeMode)
SIMPLE_(fmuc_fmi_cancelStep, fmi2CancelStep)

#define GETTER_(wrapper, name, vtype)                                                        \
    fmi2Status wrapper(const fmuc_fmi *f, fmi2Component c, const fmi2ValueReference vr[],    \
                       size_t nvr, vtype value[])                                            \
    {                                                                                        \
        TRACED_(name, fmuc_trace__vrs(e_, 0, vr, nvr), f->raw.name(c, vr, nvr, value));      \
    }

GETTER_(fmuc_fmi_getReal, fmi2GetReal, fmi2Real)
GETTER_(fmuc_fmi_getInteger, fmi2GetInteger, fmi2Integer)
GETTER_(fmuc_fmi_getBoolean, fmi2GetBoolean, fmi2Boolean)
GETTER_(fmuc_fmi_getString, fmi2GetString, fmi2String)

fmi2Status fmuc_fmi_setReal(const fmuc_fmi *f, fmi2Component c, const fmi2ValueReference vr[],
                            size_t nvr, const fmi2Real value[])
{
    TRACED_(fmi2SetReal, (fmuc_trace__vrs(e_, 0, vr, nvr), fmuc_trace__reals(e_, value, nvr)),
            f->raw.fmi2SetReal(c, vr, nvr, value));
}

fmi2Status fmuc_fmi_setInteger(const fmuc_fmi *f, fmi2Component c, const fmi2ValueReference vr[],
                               size_t nvr, const fmi2Integer value[])
{
    TRACED_(fmi2SetInteger, (fmuc_trace__vrs(e_, 0, vr, nvr), keep_ints(e_, value, nvr)),
            f->raw.fmi2SetInteger(c, vr, nvr, value));
}

fmi2Status fmuc_fmi_setBoolean(const fmuc_fmi *f, fmi2Component c, const fmi2ValueReference vr[],
                               size_t nvr, const fmi2Boolean value[])
{
    TRACED_(fmi2SetBoolean, (fmuc_trace__vrs(e_, 0, vr, nvr), keep_ints(e_, value, nvr)),
            f->raw.fmi2SetBoolean(c, vr, nvr, value));
}

fmi2Status fmuc_fmi_setString(const fmuc_fmi *f, fmi2Component c, const fmi2ValueReference vr[],
                              size_t nvr, const fmi2String value[])
{
    TRACED_(fmi2SetString, fmuc_trace__vrs(e_, 0, vr, nvr),
            f->raw.fmi2SetString(c, vr, nvr, value));
}

fmi2Status fmuc_fmi_getFMUstate(const fmuc_fmi *f, fmi2Component c, fmi2FMUstate *state)
{
    TRACED_(fmi2GetFMUstate, NOARGS_, f->raw.fmi2GetFMUstate(c, state));
}

fmi2Status fmuc_fmi_setFMUstate(const fmuc_fmi *f, fmi2Component c, fmi2FMUstate state)
{
    TRACED_(fmi2SetFMUstate, (void)(state ? 0 : (e_->flags |= FMUC_W_A_NULLP)),
            f->raw.fmi2SetFMUstate(c, state));
}

fmi2Status fmuc_fmi_freeFMUstate(const fmuc_fmi *f, fmi2Component c, fmi2FMUstate *state)
{
    TRACED_(fmi2FreeFMUstate, NOARGS_, f->raw.fmi2FreeFMUstate(c, state));
}

fmi2Status fmuc_fmi_serializedFMUstateSize(const fmuc_fmi *f, fmi2Component c,
                                           fmi2FMUstate state, size_t *size)
{
    TRACED_(fmi2SerializedFMUstateSize, NOARGS_,
            f->raw.fmi2SerializedFMUstateSize(c, state, size));
}

fmi2Status fmuc_fmi_serializeFMUstate(const fmuc_fmi *f, fmi2Component c, fmi2FMUstate state,
                                      fmi2Byte buf[], size_t size)
{
    TRACED_(fmi2SerializeFMUstate, e_->n[0] = size,
            f->raw.fmi2SerializeFMUstate(c, state, buf, size));
}

fmi2Status fmuc_fmi_deSerializeFMUstate(const fmuc_fmi *f, fmi2Component c, const fmi2Byte buf[],
                                        size_t size, fmi2FMUstate *state)
{
    TRACED_(fmi2DeSerializeFMUstate, e_->n[0] = size,
            f->raw.fmi2DeSerializeFMUstate(c, buf, size, state));
}

fmi2Status fmuc_fmi_getDirectionalDerivative(const fmuc_fmi *f, fmi2Component c,
                                             const fmi2ValueReference unknown[], size_t nunknown,
                                             const fmi2ValueReference known[], size_t nknown,
                                             const fmi2Real dv_known[], fmi2Real dv_unknown[])
{
    TRACED_(fmi2GetDirectionalDerivative,
            (fmuc_trace__vrs(e_, 0, unknown, nunknown), fmuc_trace__vrs(e_, 1, known, nknown)),
            f->raw.fmi2GetDirectionalDerivative(c, unknown, nunknown, known, nknown, dv_known,
                                                dv_unknown));
}

fmi2Status fmuc_fmi_newDiscreteStates(const fmuc_fmi *f, fmi2Component c, fmi2EventInfo *info)
{
    TRACED_(fmi2NewDiscreteStates, NOARGS_, f->raw.fmi2NewDiscreteStates(c, info));
}

fmi2Status fmuc_fmi_completedIntegratorStep(const fmuc_fmi *f, fmi2Component c, int no_set_prior,
                                            fmi2Boolean *enter_event_mode,
                                            fmi2Boolean *terminate_simulation)
{
    TRACED_(fmi2CompletedIntegratorStep, e_->i[0] = no_set_prior,
            f->raw.fmi2CompletedIntegratorStep(c, no_set_prior, enter_event_mode,
                                               terminate_simulation));
}

fmi2Status fmuc_fmi_setTime(const fmuc_fmi *f, fmi2Component c, double t)
{
    TRACED_(fmi2SetTime, e_->d[0] = t, f->raw.fmi2SetTime(c, t));
}

fmi2Status fmuc_fmi_setContinuousStates(const fmuc_fmi *f, fmi2Component c, const fmi2Real x[],
                                        size_t nx)
{
    TRACED_(fmi2SetContinuousStates, fmuc_trace__reals(e_, x, nx),
            f->raw.fmi2SetContinuousStates(c, x, nx));
}

#define ARRAY_OUT_(wrapper, name)                                                            \
    fmi2Status wrapper(const fmuc_fmi *f, fmi2Component c, fmi2Real v[], size_t n)           \
    {                                                                                        \
        TRACED_(name, e_->n[0] = n, f->raw.name(c, v, n));                                   \
    }

ARRAY_OUT_(fmuc_fmi_getDerivatives, fmi2GetDerivatives)
ARRAY_OUT_(fmuc_fmi_getEventIndicators, fmi2GetEventIndicators)
ARRAY_OUT_(fmuc_fmi_getContinuousStates, fmi2GetContinuousStates)
ARRAY_OUT_(fmuc_fmi_getNominalsOfContinuousStates, fmi2GetNominalsOfContinuousStates)

fmi2Status fmuc_fmi_setRealInputDerivatives(const fmuc_fmi *f, fmi2Component c,
                                            const fmi2ValueReference vr[], size_t nvr,
                                            const fmi2Integer order[], const fmi2Real value[])
{
    TRACED_(fmi2SetRealInputDerivatives, fmuc_trace__vrs(e_, 0, vr, nvr),
            f->raw.fmi2SetRealInputDerivatives(c, vr, nvr, order, value));
}

fmi2Status fmuc_fmi_getRealOutputDerivatives(const fmuc_fmi *f, fmi2Component c,
                                             const fmi2ValueReference vr[], size_t nvr,
                                             const fmi2Integer order[], fmi2Real value[])
{
    TRACED_(fmi2GetRealOutputDerivatives, fmuc_trace__vrs(e_, 0, vr, nvr),
            f->raw.fmi2GetRealOutputDerivatives(c, vr, nvr, order, value));
}

fmi2Status fmuc_fmi_doStep(const fmuc_fmi *f, fmi2Component c, double t, double h, int no_set_prior)
{
    TRACED_(fmi2DoStep, (e_->d[0] = t, e_->d[1] = h, e_->i[0] = no_set_prior),
            f->raw.fmi2DoStep(c, t, h, no_set_prior));
}

#define STATUS_(wrapper, name, vtype)                                                        \
    fmi2Status wrapper(const fmuc_fmi *f, fmi2Component c, fmi2StatusKind s, vtype *value)   \
    {                                                                                        \
        TRACED_(name, e_->i[0] = (int32_t)s, f->raw.name(c, s, value));                      \
    }

STATUS_(fmuc_fmi_getStatus, fmi2GetStatus, fmi2Status)
STATUS_(fmuc_fmi_getRealStatus, fmi2GetRealStatus, fmi2Real)
STATUS_(fmuc_fmi_getIntegerStatus, fmi2GetIntegerStatus, fmi2Integer)
STATUS_(fmuc_fmi_getBooleanStatus, fmi2GetBooleanStatus, fmi2Boolean)
STATUS_(fmuc_fmi_getStringStatus, fmi2GetStringStatus, fmi2String)
