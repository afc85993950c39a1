/* FMI 1.0 glue, the part both standards share: the instance (created with the host's callbacks,
 * all memory through them), the checks of instantiation (C-04..C-07, GUID B-102), logging
 * (C-08, C-09), variable access with the settability rules of fmi1-rules §D.3 and C-11, and the
 * services of fmuc_model.h for the model. Model Exchange and Co-Simulation functions live in
 * fmi1_me_glue.c and fmi1_cs_glue.c; see fmi1_glue.h. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fmi1_glue.h"
#include "glue_core.h"

#define CTX_MAGIC 0x464d3143u /* "FM1C" */

/* --- logging ------------------------------------------------------------------------------- */
/* The message reaches the logger as the argument of "%s"; '#' is doubled because a 1.0 host may
 * replace #<type><vr># references in it and reads "##" as '#' (C-08). */
static void emit(fmiCallbackLogger logger, fmiComponent comp, const char *name, fmiStatus st,
                 const char *category, const char *text)
{
    char buf[1024];
    size_t o = 0;
    for (const char *p = text; *p && o + 2 < sizeof buf; p++) {
        if (*p == '#')
            buf[o++] = '#';
        buf[o++] = *p;
    }
    buf[o] = '\0';
    logger(comp, name ? name : "", st, category, "%s", buf);
}

static void vlog(const fmuc_m_ctx *c, fmiStatus st, const char *category, const char *fmt,
                 va_list ap)
{
    if (!c->logger)
        return;
    int always = st == fmiWarning || st == fmiError || st == fmiFatal;
    if (!always && !c->logging_on)
        return;
    char text[1024];
    vsnprintf(text, sizeof text, fmt, ap);
#ifdef FMUC_DEFECT_LOGGER_WRONG_NAME
    const char *name = "model"; /* not the instanceName the importer gave */
#else
    const char *name = c->name;
#endif
    emit(c->logger, (fmiComponent)c, name, st, category ? category : fmuc_gc_status_category(st),
         text);
}

void fmuc_g1__log(const fmuc_m_ctx *c, fmiStatus st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(c, st, NULL, fmt, ap);
    va_end(ap);
}

/* Before an instance exists: the logger gets c = NULL (ME1:inst). */
static void early_log(fmiCallbackLogger logger, fmiString name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void early_log(fmiCallbackLogger logger, fmiString name, const char *fmt, ...)
{
    if (!logger)
        return;
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    emit(logger, NULL, name, fmiError, fmuc_gc_status_category(fmiError), text);
}

/* --- services for models (fmuc_model.h) ---------------------------------------------------- */
void fmuc_m_log(fmuc_m_ctx *c, fmi2Status status, const char *category, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(c, (fmiStatus)status, category, fmt, ap);
    va_end(ap);
}

void *fmuc_m_alloc(fmuc_m_ctx *c, size_t n, size_t size) { return c->allocate(n, size); }

void fmuc_m_free(fmuc_m_ctx *c, void *p)
{
    if (p)
        c->release(p);
}

const char *fmuc_m_resource_dir(const fmuc_m_ctx *c) { return c->res_dir; }
double fmuc_m_time(const fmuc_m_ctx *c) { return c->time; }

double fmuc_m_tolerance(const fmuc_m_ctx *c, int *defined)
{
    if (defined)
        *defined = c->tol_defined;
    return c->tolerance;
}

fmi2Type fmuc_m_interface(const fmuc_m_ctx *c)
{
    return c->kind == G1_ME ? fmi2ModelExchange : fmi2CoSimulation;
}

const char *fmuc_m_instance_name(const fmuc_m_ctx *c) { return c->name; }

int fmuc_m_resource_path(const fmuc_m_ctx *c, const char *rel, char *out, size_t size)
{
    if (!c->res_dir || !rel)
        return -1;
    int n = snprintf(out, size, "%s/%s", c->res_dir, rel);
    return (n < 0 || (size_t)n >= size) ? -1 : 0;
}

/* 1.0 has no modes: the model sees INIT inside fmiInitialize(Slave), EVENT inside an event
 * iteration, CONTINUOUS (ME) or STEP (CS) in between. */
fmuc_m_phase fmuc_m_get_phase(const fmuc_m_ctx *c)
{
    if (c->in_init)
        return FMUC_M_PHASE_INIT;
    if (c->in_event)
        return FMUC_M_PHASE_EVENT;
    switch (c->state) {
    case G1_INST:
        return FMUC_M_PHASE_INSTANTIATED;
    case G1_INITD:
        return c->kind == G1_ME ? FMUC_M_PHASE_CONTINUOUS : FMUC_M_PHASE_STEP;
    case G1_SIP:
    case G1_SF:
    case G1_SCAN:
        return FMUC_M_PHASE_STEP;
    case G1_TERM:
        return FMUC_M_PHASE_TERMINATED;
    default:
        return FMUC_M_PHASE_ERROR;
    }
}

/* --- state machine ------------------------------------------------------------------------- */
fmuc_m_ctx *fmuc_g1__ctx(fmiComponent comp)
{
    fmuc_m_ctx *x = comp;
    if (!x || x->magic != CTX_MAGIC)
        return NULL;
    return x;
}

const char *fmuc_g1__state_name(unsigned st)
{
    switch (st) {
    case G1_INST:
        return "instantiated";
    case G1_INITD:
        return "initialized";
    case G1_SIP:
        return "stepInProgress";
    case G1_SF:
        return "stepFailed";
    case G1_SCAN:
        return "stepCanceled";
    case G1_TERM:
        return "terminated";
    case G1_ERR:
        return "error";
    default:
        return "fatal";
    }
}

fmiStatus fmuc_g1__done(fmuc_m_ctx *c, fmiStatus st)
{
    if (st == fmiError)
        c->state = G1_ERR;
    else if (st == fmiFatal)
        c->state = G1_FAT;
    return st;
}

int fmuc_g1__allowed(fmuc_m_ctx *c, const fmuc_g1_rule *r)
{
#ifndef FMUC_DEFECT_NO_STATE_MACHINE
    if (!(r->mask & c->state)) {
        fmuc_g1__log(c, fmiError, "%s: illegal call sequence (not allowed in state %s)", r->name,
                     fmuc_g1__state_name(c->state));
        return 0;
    }
#else
    (void)c;
    (void)r;
#endif
    return 1;
}

double fmuc_g1__time_tol(double a, double b)
{
    double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return 1e-9 * (m > 1.0 ? m : 1.0);
}

int fmuc_g1__check_n(fmuc_m_ctx *c, const char *fn, const char *what, size_t n, size_t expect)
{
    if (n != expect) {
        fmuc_g1__log(c, fmiError, "%s: %s = %zu but the model has %zu (numberOf... in the XML)",
                     fn, what, n, expect);
        return 0;
    }
    return 1;
}

/* --- model data ---------------------------------------------------------------------------- */
static void *field(const fmuc_m_ctx *c, const fmuc_m_var *v)
{
    return (char *)c->data + v->offset;
}

fmiStatus fmuc_g1__restart(fmuc_m_ctx *c)
{
    const fmuc_m_desc *d = c->desc;
    memset(c->data, 0, d->data_size ? d->data_size : 1);
    fmuc_gc_write_starts(c->desc, c->data);
    c->time = 0.0;
    c->start_time = 0.0;
    c->stop_time = 0.0;
    c->tolerance = 0.0;
    c->t_floor = 0.0;
    c->last_ok_time = 0.0;
    c->stop_defined = 0;
    c->tol_defined = 0;
    c->last_step_status = fmiOK;
    c->dirty = 1;
    return d->start ? (fmiStatus)d->start(c, c->data) : fmiOK;
}

fmiStatus fmuc_g1__calc(fmuc_m_ctx *c)
{
    if (!c->dirty || !c->desc->calc)
        return fmiOK;
    fmiStatus st = (fmiStatus)c->desc->calc(c, c->data);
    if (st <= fmiWarning)
        c->dirty = 0;
    return st;
}

/* --- creation and destruction -------------------------------------------------------------- */
void fmuc_g1__free(fmuc_m_ctx *c)
{
    fmiCallbackFreeMemory release = c->release;
    if (c->data && c->desc->release)
        c->desc->release(c, c->data);
    void *blocks[] = {c->data, c->work, c->xi, c->dxi, c->res_dir, c->name};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
        if (blocks[i])
            release(blocks[i]);
    c->magic = 0;
    release(c);
}

fmuc_m_ctx *fmuc_g1__new(fmuc_g1_kind kind, const char *fn, fmiString instanceName,
                         fmiString guid, fmiCallbackLogger logger,
                         fmiCallbackAllocateMemory allocate, fmiCallbackFreeMemory release,
                         fmiStepFinished step_finished, fmiBoolean loggingOn)
{
    const fmuc_m_desc *d = &fmuc_model;
    char own[39];
#ifndef FMUC_DEFECT_ACCEPT_EMPTY_NAME
    if (!instanceName || fmuc_gc_blank(instanceName)) {
        early_log(logger, instanceName, "%s: instanceName is NULL or empty", fn);
        return NULL;
    }
#else
    if (!instanceName)
        instanceName = "";
#endif
    if (kind == G1_ME && !logger)
        return NULL; /* C-07: all three callbacks are required for ME (nothing to log with) */
    if (!allocate || !release) {
        early_log(logger, instanceName,
                  "%s: allocateMemory and freeMemory are required "
                  "(canNotUseMemoryManagementFunctions is false)",
                  fn);
        return NULL;
    }
    unsigned need = kind == G1_ME ? FMUC_M_CAP_ME : FMUC_M_CAP_CS;
    if (!(d->caps & need)) {
        early_log(logger, instanceName, "%s: %s does not implement %s 1.0", fn,
                  d->model_identifier, kind == G1_ME ? "Model Exchange" : "Co-Simulation");
        return NULL;
    }
    fmuc_m_guid_salted(d, FMUC_M_GUID_SALT_FMI1, own);
#ifndef FMUC_DEFECT_ACCEPT_ANY_GUID
    if (!guid || strcmp(guid, own) != 0) {
        early_log(logger, instanceName, "%s: GUID '%s' does not match the model's guid '%s'", fn,
                  guid ? guid : "(null)", own);
        return NULL;
    }
#else
    (void)guid;
#endif
#ifdef FMUC_DEFECT_INSTANTIATE_NEEDS_LOGGING
    /* Defect (api-instantiate): refuses loggingOn = fmiFalse, a legal argument */
    if (loggingOn == fmiFalse) {
        early_log(logger, instanceName, "%s: loggingOn=fmiFalse is not supported", fn);
        return NULL;
    }
#endif
    fmuc_m_ctx *c = allocate(1, sizeof *c);
    if (!c) {
        early_log(logger, instanceName, "%s: out of memory", fn);
        return NULL;
    }
    memset(c, 0, sizeof *c);
    c->magic = CTX_MAGIC;
    c->kind = kind;
    c->logger = logger;
    c->allocate = allocate;
    c->release = release;
    c->step_finished = step_finished;
    c->desc = d;
    memcpy(c->guid, own, sizeof own);
    c->state = G1_INST;
    c->logging_on = loggingOn != fmiFalse;

    size_t nlen = strlen(instanceName); /* copied: the host's string may go away (C-06) */
    c->name = allocate(nlen + 1, 1);
    if (!c->name)
        goto oom;
    memcpy(c->name, instanceName, nlen + 1);

    /* states = targets of the derivative variables, in table order of the derivatives */
    for (size_t i = 0; i < d->nvars; i++)
        if (d->vars[i].derivative_of && fmuc_m_find(d, d->vars[i].derivative_of) >= 0)
            c->nx++;
    if (c->nx) {
        c->xi = allocate(c->nx, sizeof *c->xi);
        c->dxi = allocate(c->nx, sizeof *c->dxi);
        c->work = allocate(6 * c->nx, sizeof *c->work);
        if (!c->xi || !c->dxi || !c->work)
            goto oom;
        size_t k = 0;
        for (size_t i = 0; i < d->nvars; i++) {
            long s = d->vars[i].derivative_of ? fmuc_m_find(d, d->vars[i].derivative_of) : -1;
            if (s >= 0) {
                c->dxi[k] = i;
                c->xi[k] = (size_t)s;
                k++;
            }
        }
    }
    c->data = allocate(1, d->data_size ? d->data_size : 1);
    if (!c->data)
        goto oom;
    fmiStatus st = fmuc_g1__restart(c);
    if (st > fmiWarning) {
        fmuc_g1__log(c, st, "%s: the model's start failed", fn);
        fmuc_g1__free(c);
        return NULL;
    }
    return c;
oom:
    early_log(logger, instanceName, "%s: out of memory", fn);
    fmuc_g1__free(c);
    return NULL;
}

/* --- variable access ----------------------------------------------------------------------- */
/* fmi1-rules §D.3: before initialization every variable with a start value but constants;
 * afterwards inputs only (ME continuous states through fmiSetContinuousStates). */
static const char *not_settable(const fmuc_m_ctx *c, const fmuc_m_var *v)
{
#ifdef FMUC_DEFECT_SET_ANY_VARIABLE
    (void)c;
    (void)v;
    return NULL;
#else
    if (v->causality == FMUC_M_INDEPENDENT)
        return "it is the time (fmiSetTime / fmiInitializeSlave / fmiDoStep set it)";
    if (v->variability == FMUC_M_CONSTANT)
        return "it is a constant";
    if (c->state == G1_INST) {
        if (v->flags & FMUC_M_HAS_START)
            return NULL;
        return "it has no start value (only those may be set before initialization)";
    }
    if (c->state == G1_INITD && v->causality == FMUC_M_INPUT)
        return NULL;
    return "only inputs may be set after initialization";
#endif
}

fmiStatus fmuc_g1__get(fmuc_m_ctx *c, const char *fn, fmuc_m_type t, const fmiValueReference vr[],
                       size_t nvr, void *value)
{
    if (nvr == 0)
        return fmiOK; /* NULL arrays with nvr = 0 are fine (C-10) */
    if (!vr || !value) {
        fmuc_g1__log(c, fmiError, "%s: vr or value is NULL with nvr = %zu", fn, nvr);
        return fmuc_g1__done(c, fmiError);
    }
#ifdef FMUC_GLUE_FMI1_CS_GETS_AFTER_STEP
    /* a slave that keeps to the letter of the Co-Simulation 1.0 state chart (fmi1-rules D.2
     * condition 4, erratum #80): no reads between fmiInitializeSlave and the first fmiDoStep;
     * refused, and the slave stays usable */
    if (c->kind == G1_CS && c->state == G1_INITD && c->time == c->start_time) {
        fmuc_g1__log(c, fmiError, "%s: no values before the first fmiDoStep", fn);
        return fmiError;
    }
#endif
#ifdef FMUC_DEFECT_GET_AFTER_TERMINATE
    if (c->state == G1_TERM && t == FMUC_M_REAL) { /* ME 1.0 fmiTerminate: the final values can
                                                      be inquired */
        fmuc_g1__log(c, fmiError, "%s: the model is terminated", fn);
        return fmuc_g1__done(c, fmiError);
    }
#endif
    fmiStatus st = c->state == G1_ERR ? fmiOK : fmuc_g1__calc(c); /* error: last values */
    if (st > fmiWarning) {
        fmuc_g1__log(c, st, "%s: model evaluation failed", fn);
        return st == fmiDiscard ? st : fmuc_g1__done(c, st);
    }
    for (size_t i = 0; i < nvr; i++) {
        const fmuc_m_var *v = fmuc_gc_find_vr(c->desc, vr[i], t);
        if (!v) {
            fmuc_g1__log(c, fmiError, "%s: unknown valueReference %u for type %s", fn, vr[i],
                         fmuc_gc_type_name(t));
            return fmuc_g1__done(c, fmiError);
        }
        switch (t) {
        case FMUC_M_REAL:
            ((fmiReal *)value)[i] =
                v->causality == FMUC_M_INDEPENDENT ? c->time : *(const double *)field(c, v);
            break;
        case FMUC_M_INTEGER:
            ((fmiInteger *)value)[i] = *(const int *)field(c, v);
            break;
        case FMUC_M_BOOLEAN:
            ((fmiBoolean *)value)[i] = *(const int *)field(c, v) ? fmiTrue : fmiFalse;
            break;
        case FMUC_M_STRING:
            ((fmiString *)value)[i] = (const char *)field(c, v);
            break;
        case FMUC_M_UINT64: /* FMI 3.0 only: no FMI 1.0 accessor has this type */
            break;
        }
    }
#ifdef FMUC_DEFECT_GET_REAL_OVERRUN
    /* Defect (api-buffer-bounds): fmiGetReal writes one element past nvr (a loop to <= nvr) */
    if (t == FMUC_M_REAL)
        ((fmiReal *)value)[nvr] = ((fmiReal *)value)[nvr - 1];
#endif
    return st;
}

fmiStatus fmuc_g1__set(fmuc_m_ctx *c, const char *fn, fmuc_m_type t, const fmiValueReference vr[],
                       size_t nvr, const void *value)
{
    if (nvr == 0)
        return fmiOK;
    if (!vr || !value) {
        fmuc_g1__log(c, fmiError, "%s: vr or value is NULL with nvr = %zu", fn, nvr);
        return fmuc_g1__done(c, fmiError);
    }
    fmiStatus st = fmiOK;
    for (size_t i = 0; i < nvr; i++) {
        const fmuc_m_var *v = fmuc_gc_find_vr(c->desc, vr[i], t);
        if (!v) {
            fmuc_g1__log(c, fmiError, "%s: unknown valueReference %u for type %s", fn, vr[i],
                         fmuc_gc_type_name(t));
            return fmuc_g1__done(c, fmiError);
        }
        const char *why = not_settable(c, v);
        if (why) {
            fmuc_g1__log(c, fmiError, "%s: variable '%s' (vr %u) cannot be set in state %s: %s",
                         fn, v->name, v->vr, fmuc_g1__state_name(c->state), why);
            return fmuc_g1__done(c, fmiError);
        }
        void *p = field(c, v);
        switch (t) {
        case FMUC_M_REAL: {
            double x = ((const fmiReal *)value)[i];
            if (fmuc_gc_out_of_range(v, x)) {
                fmuc_g1__log(c, fmiDiscard,
                             "%s: value %.17g for '%s' (vr %u) is outside [%g, %g]; ignored", fn,
                             x, v->name, v->vr, (v->flags & FMUC_M_HAS_MIN) ? v->min : -HUGE_VAL,
                             (v->flags & FMUC_M_HAS_MAX) ? v->max : HUGE_VAL);
                st = fmuc_g1__worst(st, fmiDiscard);
                continue;
            }
            *(double *)p = x;
            break;
        }
        case FMUC_M_INTEGER: {
            int x = ((const fmiInteger *)value)[i];
            if (fmuc_gc_out_of_range(v, (double)x)) {
                fmuc_g1__log(c, fmiDiscard, "%s: value %d for '%s' (vr %u) is out of range; ignored",
                             fn, x, v->name, v->vr);
                st = fmuc_g1__worst(st, fmiDiscard);
                continue;
            }
            *(int *)p = x;
            break;
        }
        case FMUC_M_BOOLEAN:
            *(int *)p = ((const fmiBoolean *)value)[i] != fmiFalse;
            break;
        case FMUC_M_STRING: {
            const char *s = ((const fmiString *)value)[i];
            if (!s || strlen(s) >= FMUC_M_STRLEN) {
                fmuc_g1__log(c, fmiError,
                             "%s: string for '%s' (vr %u) is NULL or longer than %d bytes", fn,
                             v->name, v->vr, FMUC_M_STRLEN - 1);
                return fmuc_g1__done(c, fmiError);
            }
            memcpy(p, s, strlen(s) + 1); /* copied (C-06) */
            break;
        }
        case FMUC_M_UINT64: /* FMI 3.0 only: no FMI 1.0 accessor has this type */
            break;
        }
        c->dirty = 1;
    }
    return st;
}
