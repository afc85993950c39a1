/* Simulation driver (runs inside a worker): the CS master loop with DoStep at the default step and
 * the ME host loop of §3.2.4 (event iteration, CVODE BDF with root finding on the event
 * indicators, time events, CompletedIntegratorStep), both stepped by the step-wise driver
 * (fmuc_step.h, harness/src/step.c), recording series, events and call statuses (the driver's
 * host). fmuc_sim.h documents the contract. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fmuc/fmuc_drive.h"
#include "fmuc/fmuc_inst.h"
#include "fmuc/fmuc_sim.h"
#include "fmuc/fmuc_step.h"

#define MAX_BAD 200
#define MAX_NONFINITE 50
#define MAX_EVENTS_KEPT 1000
#define MAX_VALUES 2000000u /* npoints * ncols recorded at most */

#define FN_NAME_(n) "fmi2" #n,
static const char *const fn_names[FMUC_SIM_NFN] = {FMUC_SIM_FUNCTIONS(FN_NAME_)};
#undef FN_NAME_

const char *fmuc_sim_fn_name(int fn)
{
    return fn >= 0 && fn < FMUC_SIM_NFN ? fn_names[fn] : "?";
}

/* FMI 3.0's function for each statistics slot (FMI 3.0.2 §2.3, §3.2, §4.2): the numeric reads
 * and writes of other integer types count under the Int32 slot, the status queries of 2.0 under
 * fmi3DoStep (whose outputs answer them) */
static const char *const fn_names3[FMUC_SIM_NFN] = {
    [FMUC_SIM_FN_Instantiate] = "fmi3InstantiateCoSimulation",
    [FMUC_SIM_FN_SetupExperiment] = "fmi3EnterInitializationMode",
    [FMUC_SIM_FN_EnterInitializationMode] = "fmi3EnterInitializationMode",
    [FMUC_SIM_FN_ExitInitializationMode] = "fmi3ExitInitializationMode",
    [FMUC_SIM_FN_Terminate] = "fmi3Terminate",
    [FMUC_SIM_FN_FreeInstance] = "fmi3FreeInstance",
    [FMUC_SIM_FN_GetReal] = "fmi3GetFloat64",
    [FMUC_SIM_FN_GetInteger] = "fmi3GetInt32",
    [FMUC_SIM_FN_GetBoolean] = "fmi3GetBoolean",
    [FMUC_SIM_FN_GetString] = "fmi3GetString",
    [FMUC_SIM_FN_SetReal] = "fmi3SetFloat64",
    [FMUC_SIM_FN_SetInteger] = "fmi3SetInt32",
    [FMUC_SIM_FN_SetBoolean] = "fmi3SetBoolean",
    [FMUC_SIM_FN_SetString] = "fmi3SetString",
    [FMUC_SIM_FN_DoStep] = "fmi3DoStep",
    [FMUC_SIM_FN_GetStatus] = "fmi3DoStep",
    [FMUC_SIM_FN_GetRealStatus] = "fmi3DoStep",
    [FMUC_SIM_FN_GetBooleanStatus] = "fmi3DoStep",
    [FMUC_SIM_FN_EnterEventMode] = "fmi3EnterEventMode",
    [FMUC_SIM_FN_NewDiscreteStates] = "fmi3UpdateDiscreteStates",
    [FMUC_SIM_FN_EnterContinuousTimeMode] = "fmi3EnterContinuousTimeMode",
    [FMUC_SIM_FN_CompletedIntegratorStep] = "fmi3CompletedIntegratorStep",
    [FMUC_SIM_FN_SetTime] = "fmi3SetTime",
    [FMUC_SIM_FN_SetContinuousStates] = "fmi3SetContinuousStates",
    [FMUC_SIM_FN_GetContinuousStates] = "fmi3GetContinuousStates",
    [FMUC_SIM_FN_GetDerivatives] = "fmi3GetContinuousStateDerivatives",
    [FMUC_SIM_FN_GetEventIndicators] = "fmi3GetEventIndicators",
    [FMUC_SIM_FN_GetNominalsOfContinuousStates] = "fmi3GetNominalsOfContinuousStates",
};

static const char *fn_name3(int iface, int fn)
{
    if (fn == FMUC_SIM_FN_Instantiate && iface == FMUC_IFACE_ME)
        return "fmi3InstantiateModelExchange";
    return fn >= 0 && fn < FMUC_SIM_NFN && fn_names3[fn] ? fn_names3[fn] : "?";
}

size_t fmuc_sim_var_elements(const fmuc_md *md, size_t i, size_t *dims, size_t maxdims,
                             size_t *ndims)
{
    const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, i);
    size_t n = 1;
    if (ndims)
        *ndims = 0;
    if (!x || !x->ndims)
        return 1;
    for (uint32_t k = 0; k < x->ndims; k++) {
        const fmuc_md_dim *d = &x->dims[k];
        double size = NAN;
        if (d->has_start) {
            size = (double)d->start;
        } else if (d->has_vr) {
            /* §2.4.7.2: the size is the value of a structural parameter: its start value */
            for (size_t j = 0; j < md->nvars; j++)
                if ((md->vars[j].has & FMUC_HAS_VALUE_REFERENCE) &&
                    md->vars[j].value_reference == d->value_reference &&
                    (md->vars[j].has & FMUC_HAS_START)) {
                    size = md->vars[j].start;
                    break;
                }
        }
        if (!(size >= 1.0) || size > (double)FMUC_MD_MAX_DYNAMIC_COUNT ||
            n > FMUC_MD_MAX_DYNAMIC_COUNT / (size_t)size)
            return 0;
        n *= (size_t)size;
        if (dims && k < maxdims)
            dims[k] = (size_t)size;
    }
    if (ndims)
        *ndims = x->ndims;
    return n;
}

void fmuc_sim_config_init(fmuc_sim_config *cfg, fmuc_iface iface)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->iface = iface;
    cfg->start = cfg->stop = cfg->step = cfg->tolerance = NAN;
    cfg->record_inputs = 1;
    cfg->max_event_iterations = 1000;
    cfg->max_points = 20000;
    cfg->max_events = 100000;
}

/* ---- driver state ----------------------------------------------------------------------- */

typedef struct rec_var {
    fmuc_vr vr;
    size_t col;
    int negated; /* FMI 1.0 negatedAlias: the value is the negated value of vr */
} rec_var;

/* FMI 3.0 recording: one get call per base type over all its variables (arrays: nvalues) */
typedef struct rec_group {
    size_t nvr, nval;
    fmuc_vr *vr;
    size_t *col0, *nel;   /* per vr: first column, elements */
    void *buf;            /* nval elements */
} rec_group;

typedef struct sim {
    int ver;                  /* FMI version (1, 2 or 3) */
    double cpu0;              /* process CPU time when the run began (start_cpu_s) */
    char fnbuf[64];           /* fnname's name built on the fly (FMI 1.0) */
    rec_group grp[FMUC_INST_NBASE];
    fmuc_worker_ctx *ctx;
    fmuc_inst *in_;           /* the instance (NULL before instantiation and after freeing) */
    const fmuc_md *md;
    const fmuc_sim_config *cfg;
    fmuc_sim_result *r;
    const fmuc_sim_input *in;
    fmuc_sim_input own_in;
    double *last_in;          /* last value set per input column (discrete change detection) */
    const char **last_str;
    fmuc_vr *in_vr;           /* Real inputs gathered for one fmi2SetReal call */
    double *in_val;
    size_t *in_col;
    /* recording by base type */
    rec_var *rr, *ri, *rb;
    size_t nr, ni_, nb;
    fmuc_vr *vbuf;
    double *rbuf;
    int has_indep;    /* FMI 2.0: the independent variable is read after each row (until refused) */
    fmuc_vr indep_vr;
    int32_t *ibuf;
    int *bbuf;
    size_t cap_points;
    size_t max_points;
    int fatal;                /* fmi2Fatal seen: no more calls at all */
    int error;                /* fmi2Error seen: only FreeInstance */
} sim;

static int ok(fmuc_status st)
{
    return fmuc_status_ok(st);
}

static void stop(sim *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void stop(sim *s, const char *fmt, ...)
{
    if (s->r->stop_reason)
        return;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    s->r->stop_reason = strdup(buf);
}

static const char *stname(const sim *s, int st, char *buf, size_t n)
{
    return fmuc_status_name(s->ver, st, buf, n);
}

/* The call's name in the FMU's version ("fmi2DoStep", "fmiDoStep", "fmi3DoStep"); the text
 * lives until the next fnname call. */
static const char *fnname(sim *s, int fn)
{
    return fmuc_sim_fn_name_v(s->ver, s->cfg->iface, fn, s->fnbuf, sizeof s->fnbuf);
}
/* Count the status of one call; keep calls that were not OK/Warning. */
static fmuc_status rec(sim *s, int fn, fmuc_status st, double t, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static fmuc_status rec(sim *s, int fn, fmuc_status st, double t, const char *fmt, ...)
{
    fmuc_sim_result *r = s->r;
    int k = ((int)st >= 0 && (int)st <= FMUC_STATUS_PENDING) ? (int)st : 6;
    r->status_counts[fn][k]++;
    if (ok(st))
        return st;
    if (st == FMUC_STATUS_FATAL)
        s->fatal = 1;
    else if (st != FMUC_STATUS_DISCARD)
        s->error = 1;
    if (r->nbad >= MAX_BAD) {
        r->bad_dropped++;
        return st;
    }
    fmuc_sim_bad_call *b = &r->bad[r->nbad++];
    b->fn = fn;
    b->status = (int)st;
    b->t = t;
    b->detail[0] = '\0';
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(b->detail, sizeof b->detail, fmt, ap);
        va_end(ap);
    }
    return st;
}

static void nonfinite(sim *s, double t, const char *what, const char *name, double v)
{
    fmuc_sim_result *r = s->r;
    if (r->nnonfinite >= MAX_NONFINITE) {
        r->nonfinite_dropped++;
        return;
    }
    fmuc_sim_nonfinite *n = &r->nonfinite[r->nnonfinite++];
    n->t = t;
    snprintf(n->what, sizeof n->what, "%s", what);
    snprintf(n->name, sizeof n->name, "%s", name);
    n->value = v;
}

/* The FMI 1.0 function behind a driver call (fmi1.h names; NULL: no call of its own). */
static const char *fmi1_fn_name(int fn, int cs)
{
    switch (fn) {
    case FMUC_SIM_FN_Instantiate: return cs ? "fmiInstantiateSlave" : "fmiInstantiateModel";
    case FMUC_SIM_FN_EnterInitializationMode: return cs ? NULL : "fmiSetTime";
    case FMUC_SIM_FN_ExitInitializationMode: return cs ? "fmiInitializeSlave" : "fmiInitialize";
    case FMUC_SIM_FN_Terminate: return cs ? "fmiTerminateSlave" : "fmiTerminate";
    case FMUC_SIM_FN_FreeInstance: return cs ? "fmiFreeSlaveInstance" : "fmiFreeModelInstance";
    case FMUC_SIM_FN_NewDiscreteStates: return "fmiEventUpdate";
    case FMUC_SIM_FN_GetNominalsOfContinuousStates: return "fmiGetNominalContinuousStates";
    case FMUC_SIM_FN_SetupExperiment:
    case FMUC_SIM_FN_EnterEventMode:
    case FMUC_SIM_FN_EnterContinuousTimeMode: return NULL;
    default: return NULL;
    }
}

const char *fmuc_sim_fn_name_v(int version, fmuc_iface iface, int fn, char *buf, size_t n)
{
    if (version == 3)
        return fn_name3((int)iface, fn);
    const char *name = fmuc_sim_fn_name(fn);
    if (version != 1 || strncmp(name, "fmi2", 4) != 0)
        return name;
    const char *one = fmi1_fn_name(fn, iface == FMUC_IFACE_CS);
    if (one)
        return one;
    snprintf(buf, n, "fmi%s", name + 4);
    return buf;
}

/* A call failed hard (Error/Fatal/invalid): describe it as the stop reason. */
static void stop_call(sim *s, int fn, fmuc_status st, double t)
{
    char b[32];
    stop(s, "%s returned %s at t=%.17g", fnname(s, fn), stname(s, st, b, sizeof b), t);
}

/* ---- columns ------------------------------------------------------------------------------ */

static int want_column(const fmuc_sim_config *cfg, const fmuc_md_var *v)
{
    if (!v->name || !(v->has & FMUC_HAS_VALUE_REFERENCE))
        return 0;
    if (v->type == FMUC_TYPE_NONE || v->type == FMUC_TYPE_STRING)
        return 0;
    if (v->causality == FMUC_CAUS_OUTPUT)
        return 1;
    if (cfg->record_inputs && v->causality == FMUC_CAUS_INPUT)
        return 1;
    return cfg->record_all_reals && v->type == FMUC_TYPE_REAL;
}

/* The unit of v as declared (the variable's, else its declaredType's) and the display unit a
 * person reads (§2.2.2: the variable's displayUnit, else its declaredType's, taken only when it is
 * a DisplayUnit of that unit in UnitDefinitions, whose factor and offset convert the values). */
void fmuc_sim_column_units(const fmuc_md *md, const fmuc_md_var *v, fmuc_sim_column *c)
{
    const fmuc_md_type *t = NULL;
    for (size_t i = 0; v->declared_type && i < md->ntypes; i++)
        if (md->types[i].name && strcmp(md->types[i].name, v->declared_type) == 0) {
            t = &md->types[i];
            break;
        }
    const char *unit = v->unit ? v->unit : t ? t->unit : NULL;
    const char *disp = v->display_unit ? v->display_unit : t ? t->display_unit : NULL;
    c->unit = unit ? strdup(unit) : NULL;
    c->display_unit = NULL;
    c->display_factor = 1.0;
    c->display_offset = 0.0;
    for (size_t i = 0; unit && disp && i < md->nunits; i++) {
        const fmuc_md_unit *u = &md->units[i];
        if (!u->name || strcmp(u->name, unit) != 0)
            continue;
        for (size_t k = 0; k < u->ndisplay; k++) {
            const fmuc_md_display_unit *du = &u->display[k];
            if (du->name && strcmp(du->name, disp) == 0 && isfinite(du->factor) &&
                du->factor != 0.0 && isfinite(du->offset)) {
                c->display_unit = strdup(disp);
                c->display_factor = du->factor;
                c->display_offset = du->offset;
                return;
            }
        }
        return;
    }
}

static fmuc_inst_base inst_base_of(unsigned bt)
{
    switch (bt) {
    case FMUC_BT_FLOAT32: return FMUC_INST_FLOAT32;
    case FMUC_BT_FLOAT64: return FMUC_INST_FLOAT64;
    case FMUC_BT_INT8: return FMUC_INST_INT8;
    case FMUC_BT_UINT8: return FMUC_INST_UINT8;
    case FMUC_BT_INT16: return FMUC_INST_INT16;
    case FMUC_BT_UINT16: return FMUC_INST_UINT16;
    case FMUC_BT_INT32: return FMUC_INST_INT32;
    case FMUC_BT_UINT32: return FMUC_INST_UINT32;
    case FMUC_BT_INT64: return FMUC_INST_INT64;
    case FMUC_BT_UINT64: return FMUC_INST_UINT64;
    case FMUC_BT_BOOLEAN: return FMUC_INST_BOOLEAN;
    case FMUC_BT_ENUMERATION: return FMUC_INST_ENUMERATION;
    default: return FMUC_INST_NBASE; /* not recorded */
    }
}

static size_t inst_base_size(fmuc_inst_base t)
{
    switch (t) {
    case FMUC_INST_INT8: case FMUC_INST_UINT8: return 1;
    case FMUC_INST_INT16: case FMUC_INST_UINT16: return 2;
    case FMUC_INST_FLOAT32: case FMUC_INST_INT32: case FMUC_INST_UINT32: return 4;
    case FMUC_INST_BOOLEAN: return sizeof(int);
    default: return 8;
    }
}

static const char *const inst_base_fn3[FMUC_INST_NBASE] = {
    "fmi3GetFloat32", "fmi3GetFloat64", "fmi3GetInt8", "fmi3GetUInt8", "fmi3GetInt16",
    "fmi3GetUInt16", "fmi3GetInt32", "fmi3GetUInt32", "fmi3GetInt64", "fmi3GetUInt64",
    "fmi3GetBoolean", "fmi3GetString", "fmi3GetBinary", "fmi3GetClock", "fmi3GetInt64"};

static double elem_as_double(fmuc_inst_base t, const void *buf, size_t i)
{
    switch (t) {
    case FMUC_INST_FLOAT32: return ((const float *)buf)[i];
    case FMUC_INST_FLOAT64: return ((const double *)buf)[i];
    case FMUC_INST_INT8: return ((const int8_t *)buf)[i];
    case FMUC_INST_UINT8: return ((const uint8_t *)buf)[i];
    case FMUC_INST_INT16: return ((const int16_t *)buf)[i];
    case FMUC_INST_UINT16: return ((const uint16_t *)buf)[i];
    case FMUC_INST_INT32: return ((const int32_t *)buf)[i];
    case FMUC_INST_UINT32: return ((const uint32_t *)buf)[i];
    case FMUC_INST_INT64: case FMUC_INST_ENUMERATION: return (double)((const int64_t *)buf)[i];
    case FMUC_INST_UINT64: return (double)((const uint64_t *)buf)[i];
    case FMUC_INST_BOOLEAN: return ((const int *)buf)[i] ? 1.0 : 0.0;
    default: return NAN;
    }
}

/* "x[2]", "A[1,3]": element e (row-major, §2.4.7.2) of an array named name, 1-based */
static char *element_name(const char *name, const size_t *dims, size_t ndims, size_t e)
{
    char idx[128];
    size_t o = 0, rem = e, stride = 1;
    for (size_t k = 0; k < ndims; k++)
        stride *= dims[k];
    for (size_t k = 0; k < ndims && o < sizeof idx; k++) {
        stride /= dims[k];
        size_t i = rem / stride;
        rem %= stride;
        int w = snprintf(idx + o, sizeof idx - o, "%s%zu", k ? "," : "", i + 1);
        o += w > 0 ? (size_t)w : 0;
    }
    size_t len = strlen(name) + strlen(idx) + 3;
    char *out = malloc(len);
    if (out)
        snprintf(out, len, "%s[%s]", name, idx);
    return out;
}

/* FMI 3.0: columns for every element of the recorded variables, grouped by base type */
static fmuc_err setup_columns3(sim *s, fmuc_diag *diag)
{
    const fmuc_md *md = s->md;
    fmuc_sim_result *r = s->r;
    size_t n = 0;
    size_t nvr[FMUC_INST_NBASE] = {0}, nval[FMUC_INST_NBASE] = {0};
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        fmuc_inst_base b = inst_base_of(v->base);
        size_t ne;
        if (!want_column(s->cfg, v) || b == FMUC_INST_NBASE)
            continue;
        if ((ne = fmuc_sim_var_elements(md, i, NULL, 0, NULL)) == 0)
            continue;
        if (n > MAX_VALUES)
            break;
        n += ne;
        nvr[b]++;
        nval[b] += ne;
    }
    r->cols = calloc(n ? n : 1, sizeof *r->cols);
    if (!r->cols)
        return fmuc_diag_set(diag, FMUC_ENOMEM, "simulation: out of memory");
    for (int b = 0; b < FMUC_INST_NBASE; b++) {
        rec_group *g = &s->grp[b];
        if (!nvr[b])
            continue;
        g->vr = calloc(nvr[b], sizeof *g->vr);
        g->col0 = calloc(nvr[b], sizeof *g->col0);
        g->nel = calloc(nvr[b], sizeof *g->nel);
        g->buf = calloc(nval[b], inst_base_size((fmuc_inst_base)b));
        if (!g->vr || !g->col0 || !g->nel || !g->buf)
            return fmuc_diag_set(diag, FMUC_ENOMEM, "simulation: out of memory");
    }
    for (size_t i = 0; i < md->nvars && r->ncols < n; i++) {
        const fmuc_md_var *v = &md->vars[i];
        fmuc_inst_base b = inst_base_of(v->base);
        size_t dims[8], nd = 0, ne;
        if (!want_column(s->cfg, v) || b == FMUC_INST_NBASE)
            continue;
        if ((ne = fmuc_sim_var_elements(md, i, dims, 8, &nd)) == 0 || r->ncols + ne > n)
            continue;
        rec_group *g = &s->grp[b];
        g->vr[g->nvr] = v->value_reference;
        g->col0[g->nvr] = r->ncols;
        g->nel[g->nvr] = ne;
        g->nvr++;
        g->nval += ne;
        for (size_t e = 0; e < ne; e++) {
            fmuc_sim_column *c = &r->cols[r->ncols];
            c->name = nd == 0 ? strdup(v->name) : nd <= 8 ? element_name(v->name, dims, nd, e)
                                                          : NULL;
            if (!c->name)
                return fmuc_diag_set(diag, FMUC_ENOMEM, "simulation: out of memory");
            fmuc_sim_column_units(md, v, c);
            c->vr = v->value_reference;
            c->var_index = (uint32_t)(i + 1);
            c->type = v->type;
            c->causality = v->causality;
            r->ncols++;
        }
    }
    return FMUC_OK;
}

static fmuc_err setup_columns(sim *s, fmuc_diag *diag)
{
    if (s->ver == 3) {
        fmuc_err e3 = setup_columns3(s, diag);
        if (e3 < 0)
            return e3;
    }
    const fmuc_md *md = s->md;
    fmuc_sim_result *r = s->r;
    size_t n = 0;
    for (size_t i = 0; i < md->nvars; i++)
        n += want_column(s->cfg, &md->vars[i]) != 0;
    if (s->ver == 3)
        n = 0; /* the 2.0 per-type lists stay empty */
    if (s->ver != 3)
        r->cols = calloc(n ? n : 1, sizeof *r->cols);
    s->rr = calloc(n ? n : 1, sizeof *s->rr);
    s->ri = calloc(n ? n : 1, sizeof *s->ri);
    s->rb = calloc(n ? n : 1, sizeof *s->rb);
    s->vbuf = calloc(n ? n : 1, sizeof *s->vbuf);
    s->rbuf = calloc(n ? n : 1, sizeof *s->rbuf);
    s->ibuf = calloc(n ? n : 1, sizeof *s->ibuf);
    /* FMI 2.0.4 §2.2.7: the independent variable's value is set by fmi2SetupExperiment, then
     * fmi2SetTime / fmi2DoStep: "The actual value can be inquired with fmi2GetReal" */
    for (size_t i = 0; i < md->nvars && s->ver == 2; i++)
        if (md->vars[i].causality == FMUC_CAUS_INDEPENDENT &&
            md->vars[i].type == FMUC_TYPE_REAL &&
            (md->vars[i].has & FMUC_HAS_VALUE_REFERENCE)) {
            s->has_indep = 1;
            s->indep_vr = md->vars[i].value_reference;
            break;
        }
    s->bbuf = calloc(n ? n : 1, sizeof *s->bbuf);
    if (!r->cols || !s->rr || !s->ri || !s->rb || !s->vbuf || !s->rbuf || !s->ibuf || !s->bbuf)
        return fmuc_diag_set(diag, FMUC_ENOMEM, "simulation: out of memory");
    for (size_t i = 0; i < md->nvars && s->ver != 3; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (!want_column(s->cfg, v))
            continue;
        fmuc_sim_column *c = &r->cols[r->ncols];
        c->name = strdup(v->name);
        fmuc_sim_column_units(md, v, c);
        if (!c->name)
            return fmuc_diag_set(diag, FMUC_ENOMEM, "simulation: out of memory");
        c->vr = v->value_reference;
        c->var_index = (uint32_t)(i + 1);
        c->type = v->type;
        c->causality = v->causality;
        rec_var rv = {v->value_reference, r->ncols, 0};
        if (v->ext && v->type != FMUC_TYPE_BOOLEAN) {
            /* FMI 1.0 ME §2.9: alias="negatedAlias" is the negated value of the variable of the
             * same valueReference, and the importer negates (meaningful for Real and Integer) */
            const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, i);
            rv.negated = x && x->alias_kind == FMUC_ALIAS_NEGATED;
        }
        if (v->type == FMUC_TYPE_REAL)
            s->rr[s->nr++] = rv;
        else if (v->type == FMUC_TYPE_BOOLEAN)
            s->rb[s->nb++] = rv;
        else
            s->ri[s->ni_++] = rv;
        r->ncols++;
    }
    return FMUC_OK;
}

static fmuc_err grow_points(sim *s, fmuc_diag *diag)
{
    fmuc_sim_result *r = s->r;
    if (r->npoints < s->cap_points)
        return FMUC_OK;
    size_t ncap = s->cap_points ? s->cap_points * 2 : 512;
    double *t = realloc(r->times, ncap * sizeof *t);
    if (!t)
        return fmuc_diag_set(diag, FMUC_ENOMEM, "simulation: out of memory");
    r->times = t;
    double *v = realloc(r->values, ncap * (r->ncols ? r->ncols : 1) * sizeof *v);
    if (!v)
        return fmuc_diag_set(diag, FMUC_ENOMEM, "simulation: out of memory");
    r->values = v;
    s->cap_points = ncap;
    return FMUC_OK;
}

/* The independent variable read at the recorded time t: another value (beyond the rounding of a
 * sum of steps) is counted, the first kept. */
static void check_time(sim *s, double t, double v)
{
    fmuc_sim_result *r = s->r;
    if (v == t || fabs(v - t) <= 1e-9 * fmax(1.0, fabs(t)))
        return;
    if (!r->time_mismatches++) {
        r->time_bad_t = t;
        r->time_bad_value = v;
        r->time_vr = s->indep_vr;
    }
}

/* CPU time of the whole process (the FMU's threads included), s. */
static double cpu_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Read every recorded column at time t into a new row. Returns 0, or -1 when a read failed
 * hard (Error/Fatal) or an output was not finite (the run stops). */
static int record_row(sim *s, double t, fmuc_diag *diag)
{
    fmuc_sim_result *r = s->r;
    if (r->npoints >= s->max_points)
        return 0;
    if (grow_points(s, diag) < 0)
        return -1;
    if (r->npoints == 1)
        r->start_cpu_s = fmax(0.0, cpu_now() - s->cpu0);
    double *row = r->values + r->npoints * r->ncols;
    for (size_t k = 0; k < r->ncols; k++)
        row[k] = NAN;
    r->times[r->npoints] = t;
    int bad = 0;
    /* FMI 1.0 CS: the state chart allows reads only after the first fmiDoStep (fmi1-rules D.2
     * condition 4, erratum #80); nearly every master reads right after fmiInitializeSlave, and
     * so does fmucheck, but a refusal there answers a call the chart forbids: the row keeps NaN
     * for what was refused and the run goes on (the refusal stays in the bad calls) */
    int chart_forbids = s->ver == 1 && s->cfg->iface == FMUC_IFACE_CS && r->npoints == 0;
    int error_before = s->error, refused = 0;
    for (int b = 0; s->ver == 3 && b < FMUC_INST_NBASE && !bad; b++) {
        rec_group *g = &s->grp[b];
        if (!g->nvr)
            continue;
        int fn = b == FMUC_INST_FLOAT64 || b == FMUC_INST_FLOAT32 ? FMUC_SIM_FN_GetReal
                 : b == FMUC_INST_BOOLEAN                         ? FMUC_SIM_FN_GetBoolean
                                                                  : FMUC_SIM_FN_GetInteger;
        fmuc_status st = rec(s, fn, fmuc_inst_get(s->in_, (fmuc_inst_base)b, g->vr, g->nvr,
                                                  g->buf, g->nval),
                             t, "%s: %zu variables, %zu values", inst_base_fn3[b], g->nvr, g->nval);
        if (ok(st)) {
            size_t e = 0;
            for (size_t k = 0; k < g->nvr; k++)
                for (size_t j = 0; j < g->nel[k]; j++)
                    row[g->col0[k] + j] = elem_as_double((fmuc_inst_base)b, g->buf, e++);
        } else if (st != FMUC_STATUS_DISCARD || fn != FMUC_SIM_FN_GetReal) {
            char sb[32];
            stop(s, "%s returned %s at t=%.17g", inst_base_fn3[b], stname(s, st, sb, sizeof sb), t);
            bad = 1;
        }
    }
    if (s->nr) {
        for (size_t k = 0; k < s->nr; k++)
            s->vbuf[k] = s->rr[k].vr;
        fmuc_status st = rec(s, FMUC_SIM_FN_GetReal, fmuc_inst_get_float64(s->in_, s->vbuf, s->nr, s->rbuf),
                            t, "%zu outputs", s->nr);
        if (ok(st)) {
            for (size_t k = 0; k < s->nr; k++)
                row[s->rr[k].col] = s->rr[k].negated ? -s->rbuf[k] : s->rbuf[k];
        } else if (chart_forbids && st == FMUC_STATUS_ERROR)
            refused = 1;
        else if (st != FMUC_STATUS_DISCARD) {
            stop_call(s, FMUC_SIM_FN_GetReal, st, t);
            bad = 1;
        }
    }
    if (s->ni_ && !bad) {
        for (size_t k = 0; k < s->ni_; k++)
            s->vbuf[k] = s->ri[k].vr;
        fmuc_status st = rec(s, FMUC_SIM_FN_GetInteger,
                             fmuc_inst_get_int32(s->in_, s->vbuf, s->ni_, s->ibuf), t,
                            "%zu variables", s->ni_);
        if (ok(st))
            for (size_t k = 0; k < s->ni_; k++)
                row[s->ri[k].col] = s->ri[k].negated ? -(double)s->ibuf[k] : (double)s->ibuf[k];
        else if (chart_forbids && st == FMUC_STATUS_ERROR)
            refused = 1;
        else {
            stop_call(s, FMUC_SIM_FN_GetInteger, st, t);
            bad = 1;
        }
    }
    if (s->nb && !bad) {
        for (size_t k = 0; k < s->nb; k++)
            s->vbuf[k] = s->rb[k].vr;
        fmuc_status st = rec(s, FMUC_SIM_FN_GetBoolean,
                             fmuc_inst_get_boolean(s->in_, s->vbuf, s->nb, s->bbuf), t,
                            "%zu variables", s->nb);
        if (ok(st))
            for (size_t k = 0; k < s->nb; k++)
                /* FMI 2.0: the value as the FMU gave it (cs-/me-nominal-run judge values other
                 * than fmi2True and fmi2False); the 1.0 and 3.0 instance layers give 0 or 1 */
                row[s->rb[k].col] = s->ver == 2 ? (double)s->bbuf[k] : s->bbuf[k] ? 1.0 : 0.0;
        else if (chart_forbids && st == FMUC_STATUS_ERROR)
            refused = 1;
        else {
            stop_call(s, FMUC_SIM_FN_GetBoolean, st, t);
            bad = 1;
        }
    }
    r->npoints++;
    if (bad)
        return -1;
    if (s->has_indep) {
        /* a call of its own, not counted among the run's calls: a refusal only ends these
         * reads (the outputs of the row are kept; the text's "can be inquired" is bracketed) */
        double tv = NAN;
        if (ok(fmuc_inst_get_float64(s->in_, &s->indep_vr, 1, &tv)))
            check_time(s, t, tv);
        else
            s->has_indep = 0;
    }
    if (refused) {
        s->error = error_before;
        return 0; /* NaN where refused, none of them an output value */
    }
    int nf = 0;
    for (size_t k = 0; s->ver == 3 && k < r->ncols; k++) {
        double v = row[k];
        if (!isfinite(v) && r->cols[k].type == FMUC_TYPE_REAL &&
            r->cols[k].causality == FMUC_CAUS_OUTPUT) {
            nonfinite(s, t, "output", r->cols[k].name, v);
            nf = 1;
        }
    }
    for (size_t k = 0; k < s->nr; k++) {
        double v = row[s->rr[k].col];
        if (!isfinite(v) && r->cols[s->rr[k].col].causality == FMUC_CAUS_OUTPUT) {
            nonfinite(s, t, "output", r->cols[s->rr[k].col].name, v);
            nf = 1;
        }
    }
    if (nf) {
        stop(s, "non-finite output at t=%.17g", t);
        return -1;
    }
    return 0;
}

/* ---- inputs ------------------------------------------------------------------------------- */

enum { IN_ALL = 0, IN_CONTINUOUS, IN_DISCRETE };

/* One fmi2SetReal call for the Real inputs gathered in s->in_vr/in_val (columns in s->in_col). */
static int set_real_inputs(sim *s, double t, size_t m)
{
    const fmuc_sim_input *in = s->in;
    fmuc_status st;
    char names[256];
    size_t o = 0;
    if (!m)
        return 0;
    st = fmuc_inst_set_float64(s->in_, s->in_vr, m, s->in_val);
    if (ok(st)) {
        rec(s, FMUC_SIM_FN_SetReal, st, t, NULL);
        return 0;
    }
    names[0] = '\0';
    for (size_t j = 0; j < m && o < sizeof names; j++) {
        const fmuc_md_var *v = in->cols[s->in_col[j]].var;
        int w = snprintf(names + o, sizeof names - o, "%s'%s' (vr %u)", j ? ", " : "", v->name,
                         v->value_reference);
        o += w > 0 ? (size_t)w : 0;
    }
    rec(s, FMUC_SIM_FN_SetReal, st, t, "input%s %s", m > 1 ? "s" : "", names);
    if (st != FMUC_STATUS_DISCARD) {
        stop_call(s, FMUC_SIM_FN_SetReal, st, t);
        return -1;
    }
    return 0;
}

/* Set inputs at time t. which: all, continuous Reals only, discrete ones only. changed_only:
 * discrete inputs only when their value changed. Real inputs go in one fmi2SetReal call.
 * Returns the number set, -1 on a hard failure. */
static int set_inputs(sim *s, double t, int which, int changed_only)
{
    const fmuc_sim_input *in = s->in;
    int n = 0;
    size_t m = 0;
    if (!in)
        return 0;
    for (size_t k = 0; k < in->ncols; k++) {
        const fmuc_md_var *v = in->cols[k].var;
        int cont = in->cols[k].interpolate;
        if ((which == IN_CONTINUOUS && !cont) || (which == IN_DISCRETE && cont))
            continue;
        fmuc_vr vr = v->value_reference;
        fmuc_status st;
        int fn;
        if (v->type == FMUC_TYPE_STRING) {
            const char *str = fmuc_sim_input_string(in, k, t);
            if (changed_only && s->last_str[k] && strcmp(s->last_str[k], str) == 0)
                continue;
            s->last_str[k] = str;
            fn = FMUC_SIM_FN_SetString;
            st = fmuc_inst_set_string(s->in_, &vr, 1, &str);
        } else {
            double x = fmuc_sim_input_value(in, k, t);
            if (changed_only && !cont && x == s->last_in[k])
                continue;
            s->last_in[k] = x;
            fmuc_inst_base ib = s->ver == 3 ? inst_base_of(v->base) : FMUC_INST_NBASE;
            if (v->type == FMUC_TYPE_REAL && (s->ver != 3 || ib == FMUC_INST_FLOAT64)) {
                s->in_vr[m] = vr;
                s->in_val[m] = x;
                s->in_col[m++] = k;
                n++;
                continue;
            } else if (s->ver == 3 && ib != FMUC_INST_NBASE) {
                /* FMI 3.0: the variable's own type (Float32, Int8..UInt64, Boolean,
                 * Enumeration); the table holds the value as a double */
                union {
                    float f;
                    int8_t i8;
                    uint8_t u8;
                    int16_t i16;
                    uint16_t u16;
                    int32_t i32;
                    uint32_t u32;
                    int64_t i64;
                    uint64_t u64;
                    int b;
                } u;
                memset(&u, 0, sizeof u);
                switch (ib) {
                case FMUC_INST_FLOAT32: u.f = (float)x; break;
                case FMUC_INST_INT8: u.i8 = (int8_t)x; break;
                case FMUC_INST_UINT8: u.u8 = (uint8_t)x; break;
                case FMUC_INST_INT16: u.i16 = (int16_t)x; break;
                case FMUC_INST_UINT16: u.u16 = (uint16_t)x; break;
                case FMUC_INST_INT32: u.i32 = (int32_t)x; break;
                case FMUC_INST_UINT32: u.u32 = (uint32_t)x; break;
                case FMUC_INST_UINT64: u.u64 = (uint64_t)x; break;
                case FMUC_INST_BOOLEAN: u.b = x != 0.0; break;
                default: u.i64 = (int64_t)x; break; /* Int64, Enumeration */
                }
                fn = v->type == FMUC_TYPE_REAL      ? FMUC_SIM_FN_SetReal
                     : v->type == FMUC_TYPE_BOOLEAN ? FMUC_SIM_FN_SetBoolean
                                                    : FMUC_SIM_FN_SetInteger;
                st = fmuc_inst_set(s->in_, ib, &vr, 1, &u, 1);
            } else if (v->type == FMUC_TYPE_BOOLEAN) {
                int b = x != 0.0;
                fn = FMUC_SIM_FN_SetBoolean;
                st = fmuc_inst_set_boolean(s->in_, &vr, 1, &b);
            } else {
                int32_t i = (int32_t)x;
                fn = FMUC_SIM_FN_SetInteger;
                st = fmuc_inst_set_int32(s->in_, &vr, 1, &i);
            }
        }
        rec(s, fn, st, t, "input '%s' (vr %u)", v->name, vr);
        if (!ok(st) && st != FMUC_STATUS_DISCARD) {
            stop_call(s, fn, st, t);
            return -1;
        }
        n++;
    }
    if (set_real_inputs(s, t, m) < 0)
        return -1;
    return n;
}

/* Would a discrete input change at time t? */
static int discrete_change(const sim *s, double t)
{
    const fmuc_sim_input *in = s->in;
    for (size_t k = 0; in && k < in->ncols; k++) {
        if (in->cols[k].interpolate)
            continue;
        if (in->cols[k].var->type == FMUC_TYPE_STRING) {
            const char *str = fmuc_sim_input_string(in, k, t);
            if (!s->last_str[k] || strcmp(s->last_str[k], str) != 0)
                return 1;
        } else if (fmuc_sim_input_value(in, k, t) != s->last_in[k]) {
            return 1;
        }
    }
    return 0;
}

/* ---- common setup ------------------------------------------------------------------------- */

static fmuc_err resolve_times(sim *s, fmuc_diag *diag)
{
    const fmuc_md_experiment *e = &s->md->experiment;
    const fmuc_sim_config *cfg = s->cfg;
    fmuc_sim_result *r = s->r;
    r->start = !isnan(cfg->start) ? cfg->start : (e->present && e->has_start && isfinite(e->start_time)) ? e->start_time : 0.0;
    r->stop = !isnan(cfg->stop) ? cfg->stop : (e->present && e->has_stop && isfinite(e->stop_time)) ? e->stop_time : r->start + 1.0;
    /* a default experiment that ends before it starts is md-default-experiment's finding; the
     * runs then simulate as if it gave no stop time (one second), not fail for the checker */
    if (isnan(cfg->stop) && !(r->stop > r->start))
        r->stop = r->start + 1.0;
    if (!(r->stop > r->start))
        return fmuc_diag_set(diag, FMUC_ERROR, "simulation: stop time %.17g is not after start %.17g",
                             r->stop, r->start);
    if (!isnan(cfg->step))
        r->step = cfg->step;
    else if (e->present && e->has_step && isfinite(e->step_size) && e->step_size > 0.0)
        r->step = e->step_size;
    else
        r->step = (r->stop - r->start) / 500.0;
    if (!(r->step > 0.0) || !isfinite(r->step))
        return fmuc_diag_set(diag, FMUC_ERROR, "simulation: invalid step size %.17g", r->step);
    if (r->step > r->stop - r->start)
        r->step = r->stop - r->start;
    if (cfg->max_steps && r->start + (double)cfg->max_steps * r->step < r->stop)
        r->stop = r->start + (double)cfg->max_steps * r->step;
    if (!isnan(cfg->tolerance)) {
        r->tolerance = cfg->tolerance;
        r->tolerance_defined = 1;
    } else if (e->present && e->has_tolerance && isfinite(e->tolerance) && e->tolerance > 0.0) {
        r->tolerance = e->tolerance;
        r->tolerance_defined = 1;
    } else {
        r->tolerance = 1e-6;
        r->tolerance_defined = cfg->iface == FMUC_IFACE_ME;
    }
    return FMUC_OK;
}

static fmuc_err setup_inputs(sim *s, fmuc_diag *diag)
{
    const fmuc_sim_config *cfg = s->cfg;
    fmuc_err err = FMUC_OK;
    if (cfg->no_excitation) {
        s->in = NULL;
    } else if (cfg->input) {
        s->in = cfg->input;
    } else if (cfg->input_csv) {
        if ((err = fmuc_sim_input_load_csv(&s->own_in, cfg->input_csv, s->md, diag)) < 0)
            return err;
        s->in = &s->own_in;
    } else {
        if ((err = fmuc_sim_input_excitation(&s->own_in, s->md, s->r->start, s->r->stop, diag)) < 0)
            return err;
        s->in = &s->own_in;
    }
    if (s->in) {
        size_t n = s->in->ncols ? s->in->ncols : 1;
        s->last_in = calloc(n, sizeof *s->last_in);
        s->last_str = calloc(n, sizeof *s->last_str);
        s->in_vr = calloc(n, sizeof *s->in_vr);
        s->in_val = calloc(n, sizeof *s->in_val);
        s->in_col = calloc(n, sizeof *s->in_col);
        if (!s->last_in || !s->last_str || !s->in_vr || !s->in_val || !s->in_col)
            return fmuc_diag_set(diag, FMUC_ENOMEM, "simulation: out of memory");
        for (size_t k = 0; k < s->in->ncols; k++)
            s->last_in[k] = NAN;
        s->r->inputs = fmuc_sim_input_to_json(s->in);
    } else {
        s->r->inputs = cJSON_CreateObject();
        if (s->r->inputs)
            cJSON_AddStringToObject(s->r->inputs, "source",
                                    "start values (no excitation)");
    }
    return FMUC_OK;
}

/* The life-cycle driver's hooks while it initializes: count each call's status (as rec does) and
 * set the inputs in Initialization Mode. */
static int sim_fn_of(fmuc_inst_op op)
{
    switch (op) {
    case FMUC_INST_OP_SETUP_EXPERIMENT: return FMUC_SIM_FN_SetupExperiment;
    case FMUC_INST_OP_ENTER_INIT: return FMUC_SIM_FN_EnterInitializationMode;
    case FMUC_INST_OP_EXIT_INIT: return FMUC_SIM_FN_ExitInitializationMode;
    default: return -1;
    }
}

static void init_on_call(void *user, fmuc_inst_op op, int status)
{
    sim *s = user;
    double t0 = s->r->start;
    int fn = sim_fn_of(op);
    if (fn < 0 || !fmuc_inst_op_name(s->ver, op)) /* no such call in the version (3.0 setup) */
        return;
    if (op == FMUC_INST_OP_SETUP_EXPERIMENT)
        rec(s, fn, (fmuc_status)status, t0, "start=%g stop=%g", t0, s->r->stop);
    else
        rec(s, fn, (fmuc_status)status, t0, NULL);
}

static int init_inputs(void *user, fmuc_inst *in)
{
    sim *s = user;
    (void)in;
    return set_inputs(s, s->r->start, IN_ALL, 0) < 0;
}

/* Instantiate, then the life-cycle driver (fmuc_drive_reach): SetupExperiment,
 * EnterInitializationMode, inputs, ExitInitializationMode. Returns 0 or -1 (stop_reason set). */
static int initialize(sim *s)
{
    fmuc_sim_result *r = s->r;
    double t0 = r->start;
    const char *name = s->cfg->instance_name ? s->cfg->instance_name : "fmucheck-sim";
    fmuc_worker_phase(s->ctx, "instantiate");
    s->in_ = fmuc_inst_instantiate(s->ctx, (fmuc_iface)s->cfg->iface, NULL, name);
    r->status_counts[FMUC_SIM_FN_Instantiate][s->in_ ? FMUC_STATUS_OK : FMUC_STATUS_ERROR]++;
    if (!s->in_) {
        r->instantiate_failed = 1;
        if (s->ver != 2)
            stop(s, "%s returned NULL", fnname(s, FMUC_SIM_FN_Instantiate));
        else
            stop(s, "fmi2Instantiate(%s) returned NULL",
                 s->cfg->iface == FMUC_IFACE_ME ? "fmi2ModelExchange" : "fmi2CoSimulation");
        return -1;
    }
    fmuc_drive_start ds;
    fmuc_drive_reached dr;
    fmuc_drive_start_init(&ds, s->md);
    ds.exp = (fmuc_inst_experiment){r->tolerance_defined, r->tolerance, t0, 1, r->stop};
    ds.phase_init = "initialization";
    ds.on_call = init_on_call;
    ds.in_init = init_inputs;
    ds.user = s;
    if (fmuc_drive_reach(s->in_, fmuc_drive_after_init_state(s->cfg->iface), &ds,
                         &dr) == 0)
        return 0;
    if (dr.failed_op >= 0)
        stop_call(s, sim_fn_of((fmuc_inst_op)dr.failed_op), (fmuc_status)dr.status, t0);
    return -1;
}

/* Terminate (when the state allows it) and FreeInstance (unless fatal). */
static void finish(sim *s, int can_terminate, double t)
{
    if (!s->in_)
        return;
    if (s->fatal) {
        fmuc_inst_abandon(s->in_); /* §C.3: no call at all after fmi2Fatal */
        s->in_ = NULL;
        return;
    }
    if (can_terminate && !s->error) {
        fmuc_worker_phase(s->ctx, "terminate");
        fmuc_status st = rec(s, FMUC_SIM_FN_Terminate, fmuc_inst_terminate(s->in_), t, NULL);
        if (!ok(st))
            stop_call(s, FMUC_SIM_FN_Terminate, st, t);
    }
    if (s->fatal) {
        fmuc_inst_abandon(s->in_);
        s->in_ = NULL;
        return;
    }
    fmuc_worker_phase(s->ctx, "free instance");
    fmuc_inst_free(s->in_);
    s->r->status_counts[FMUC_SIM_FN_FreeInstance][FMUC_STATUS_OK]++;
    s->in_ = NULL;
}

/* ---- Co-Simulation ------------------------------------------------------------------------ */

/* the step-wise driver's hooks (fmuc_step.h): the inputs at the step's start, then before_step */
static int cs_inputs(void *user, fmuc_inst *in, double t)
{
    (void)in;
    return set_inputs(user, t, IN_ALL, 0) < 0;
}

static int cs_before_step(void *user, fmuc_inst *in, double t, double h)
{
    const sim *s = user;
    return s->cfg->hooks.before_step && s->cfg->hooks.before_step(s->cfg->hooks.user, in, t, h);
}

static int run_cs(sim *s, fmuc_diag *diag)
{
    fmuc_sim_result *r = s->r;
    const fmuc_md *md = s->md;
    double t0 = r->start, h = r->step;
    int var_step = (md->cs.caps >> FMUC_CAP_CAN_HANDLE_VARIABLE_COMMUNICATION_STEP_SIZE) & 1u;
    double q = (r->stop - t0) / h;
    size_t nsteps = (size_t)ceil(q - 1e-9);
    if (!var_step && fabs(q - round(q)) > 1e-9) /* constant steps only: stop before stopTime */
        nsteps = (size_t)floor(q + 1e-9);
    if (nsteps == 0)
        nsteps = 1;
    size_t every = (nsteps + s->max_points - 2) / (s->max_points - 1);
    if (every < 1)
        every = 1;
    int can_terminate = 0;
    double t = t0;

    if (initialize(s) < 0)
        goto out;
    can_terminate = 1;
    if (s->cfg->hooks.after_init && s->cfg->hooks.after_init(s->cfg->hooks.user, s->in_, t0)) {
        stop(s, "stopped by hook after initialization");
        goto out;
    }
    if (record_row(s, t0, diag) < 0)
        goto out;
    if (s->cfg->hooks.at_point && s->cfg->hooks.at_point(s->cfg->hooks.user, s->in_, 0, t0)) {
        stop(s, "stopped by hook at t=%.17g", t0);
        goto out;
    }
    /* the step-wise driver: inputs, before_step, the step (with the wait for Pending), and after
     * Discard the status queries */
    fmuc_stepper sp;
    fmuc_stepper_init(&sp, s->in_, 0, 0, 0);
    sp.inputs = cs_inputs;
    sp.before_step = cs_before_step;
    sp.user = s;
    sp.cs_phase = "step";
    sp.query_discard = 1;
    for (size_t k = 0; k < nsteps; k++) {
        double tc = t0 + (double)k * h;
        double tn = k + 1 == nsteps && var_step ? r->stop : t0 + (double)(k + 1) * h;
        if (tn > r->stop)
            tn = r->stop;
        double hk = tn - tc;
        if (!(hk > 0.0))
            break;
        sp.step_no = (long long)(k + 1);
        fmuc_step_cs_out so;
        fmuc_step_rc rc = fmuc_step_interval(&sp, tc, tn, &so);
        if (rc == FMUC_STEP_INPUTS) {
            can_terminate = 0;
            goto out;
        }
        if (rc == FMUC_STEP_HOOK) {
            stop(s, "stopped by hook at t=%.17g", tc);
            goto out;
        }
        fmuc_inst_step_info sinfo = so.info;
        if (so.pending) /* counted for api-status-codes; the step's outcome is what the wait gave */
            r->status_counts[FMUC_SIM_FN_DoStep][FMUC_STATUS_PENDING]++;
        fmuc_status st = rec(s, FMUC_SIM_FN_DoStep, so.status, tc, "t=%.9g h=%.9g", tc, hk);
        r->steps++;
        if (st == FMUC_STATUS_DISCARD) {
            int term = so.terminated;
            double last = so.last_successful_time;
            fmuc_status s1, s2;
            if (s->ver == 3) { /* fmi3DoStep returned them (§4.2.1): no call */
                s1 = so.st_terminated;
                s2 = so.st_last;
            } else if (s->ver == 1) {
                /* 1.0 has no fmiTerminated status kind (the instance layer made no call): only
                 * fmiGetRealStatus(fmiLastSuccessfulTime) was asked */
                s1 = so.st_terminated;
                s2 = rec(s, FMUC_SIM_FN_GetRealStatus, so.st_last, tc, "fmiLastSuccessfulTime");
            } else {
                s1 = rec(s, FMUC_SIM_FN_GetBooleanStatus, so.st_terminated, tc, "fmi2Terminated");
                s2 = rec(s, FMUC_SIM_FN_GetRealStatus, so.st_last, tc, "fmi2LastSuccessfulTime");
            }
            r->last_successful_time = ok(s2) ? last : NAN;
            if (ok(s1) && term)
                r->terminated_by_fmu = 1;
            r->end_time = ok(s2) && isfinite(last) ? last : tc;
            if (s->ver == 1) /* 1.0 has no fmiTerminated status kind */
                stop(s, "fmiDoStep(t=%.9g, h=%.9g) returned fmiDiscard; lastSuccessfulTime=%.17g",
                     tc, hk, last);
            else if (s->ver == 3)
                stop(s, "fmi3DoStep(t=%.9g, h=%.9g) returned fmi3Discard; terminateSimulation=%s, "
                        "lastSuccessfulTime=%.17g",
                     tc, hk, term ? "true" : "false", last);
            else
                stop(s, "fmi2DoStep(t=%.9g, h=%.9g) returned fmi2Discard; fmi2Terminated=%s, "
                        "lastSuccessfulTime=%.17g",
                     tc, hk, ok(s1) ? (term ? "true" : "false") : "unavailable", last);
            can_terminate = !s->error && !s->fatal;
            if (r->terminated_by_fmu)
                r->completed = 1;
            goto out;
        }
        if (!ok(st)) {
            stop_call(s, FMUC_SIM_FN_DoStep, st, tc);
            can_terminate = 0;
            goto out;
        }
        t = tn;
        r->end_time = t;
        if (s->ver == 3 && sinfo.terminate_simulation) {
            /* FMI 3.0.2 §4.2.1: fmi3DoStep returned terminateSimulation=true: the FMU wants the
             * simulation to end; the step itself succeeded (its values are recorded) */
            r->terminated_by_fmu = 1;
            r->completed = 1;
            record_row(s, tn, diag);
            goto out;
        }
        if (s->cfg->hooks.after_step && s->cfg->hooks.after_step(s->cfg->hooks.user, s->in_, t)) {
            stop(s, "stopped by hook at t=%.17g", t);
            goto out;
        }
        if ((k + 1) % every == 0 || k + 1 == nsteps) {
            if (record_row(s, tn, diag) < 0) {
                can_terminate = !s->error;
                goto out;
            }
            if (s->cfg->hooks.at_point &&
                s->cfg->hooks.at_point(s->cfg->hooks.user, s->in_, r->npoints - 1, tn)) {
                stop(s, "stopped by hook at t=%.17g", tn);
                goto out;
            }
        }
    }
    r->completed = 1;
out:
    finish(s, can_terminate, t);
    return r->completed && !r->stop_reason ? 0 : 1;
}

/* ---- Model Exchange ----------------------------------------------------------------------- */

static void add_event(sim *s, double t, int kind, unsigned iter, int changed, int root)
{
    fmuc_sim_result *r = s->r;
    if (r->nevents >= MAX_EVENTS_KEPT) {
        r->events_dropped++; /* counted, not kept (as bad calls and non-finite values) */
        return;
    }
    fmuc_sim_event *e = &r->events[r->nevents++];
    e->t = t;
    e->kind = kind;
    e->iterations = iter;
    e->states_changed = changed;
    e->root = root;
}

/* The step-wise driver's host (fmuc_step.h): the run's bookkeeping of the ME loop */
static void h_on_call(void *user, int fn, fmuc_status st, double t, const char *detail)
{
    if (detail)
        rec(user, fn, st, t, "%s", detail);
    else
        rec(user, fn, st, t, NULL);
}

static void h_stop(void *user, const char *reason)
{
    stop(user, "%s", reason);
}

static void h_nonfinite(void *user, double t, const char *what, const char *name, double v)
{
    nonfinite(user, t, what, name, v);
}

static int h_set_inputs(void *user, double t, int which)
{
    return which == FMUC_STEP_IN_CONTINUOUS ? set_inputs(user, t, IN_CONTINUOUS, 0)
                                            : set_inputs(user, t, IN_DISCRETE, 1);
}

static int h_discrete_change(void *user, double t)
{
    return discrete_change(user, t);
}

static int h_event_limit(void *user, double t)
{
    sim *s = user;
    if (s->r->nevents + s->r->events_dropped >= s->cfg->max_events) {
        stop(s, "more than %zu events; the run was stopped at t=%.17g", s->cfg->max_events, t);
        return 1;
    }
    return 0;
}

static void h_event(void *user, double t, int kind, unsigned iterations, int states_changed,
                    int root)
{
    add_event(user, t, kind, iterations, states_changed, root);
}

static int term_after(const sim *s, int how)
{
    switch (how) {
    case FMUC_STEP_TERM_NO: return 0;
    case FMUC_STEP_TERM_UNLESS_ERROR: return !s->error;
    case FMUC_STEP_TERM_UNLESS_ERROR_FATAL: return !s->error && !s->fatal;
    default: return 1;
    }
}

/* The ME host loop: initialization (fmuc_drive_reach), then the step-wise driver with CVODE
 * (fmuc_step.h) from output point to output point, each recorded. */
static int run_me(sim *s, fmuc_diag *diag)
{
    fmuc_sim_result *r = s->r;
    const fmuc_md *md = s->md;
    double t0 = r->start;
    int can_terminate = 0;
    size_t nx, nz;
    fmuc_stepper sp;
    const fmuc_step_host host = {s,           h_on_call,     h_stop,   h_nonfinite,
                                 h_set_inputs, h_discrete_change, h_event_limit, h_event,
                                 &s->cfg->hooks};
    memset(&sp, 0, sizeof sp);

    nx = md->nderivatives;
    if (md->fmi == FMUC_FMI1 && md->has_number_of_continuous_states) /* 1.0: no ModelStructure */
        nx = md->number_of_continuous_states;
    nz = md->has_number_of_event_indicators ? md->number_of_event_indicators : 0;
    if (s->ver == 3) {
        /* §2.4.8: the continuous states are the elements of the ContinuousStateDerivative
         * variables, the event indicators those of the EventIndicator variables */
        size_t n3 = 0, z3 = 0;
        for (size_t i = 0; i < md->nderivatives; i++)
            n3 += md->derivatives[i].index ? fmuc_sim_var_elements(md, md->derivatives[i].index - 1,
                                                                   NULL, 0, NULL)
                                           : 1;
        for (size_t i = 0; i < md->nevent_indicators; i++)
            z3 += md->event_indicators[i].index
                      ? fmuc_sim_var_elements(md, md->event_indicators[i].index - 1, NULL, 0, NULL)
                      : 1;
        nx = n3;
        nz = z3;
    }
    if (nx > FMUC_MD_MAX_DYNAMIC_COUNT || nz > FMUC_MD_MAX_DYNAMIC_COUNT) {
        stop(s, "model too large for the harness (%zu states, %zu event indicators)", nx, nz);
        return 1;
    }
    if (fmuc_stepper_init(&sp, NULL, 1, nx, nz) < 0) {
        fmuc_diag_set(diag, FMUC_ENOMEM, "simulation: out of memory");
        return -1;
    }
    sp.solver = FMUC_STEP_CVODE;
    sp.host = &host;
    /* FMI 3.0 has needsCompletedIntegratorStep instead (default false); calling it anyway is
     * allowed (§3.2.3), so 3.0 FMUs get it after every step as 2.0 FMUs without the flag do */
    sp.cis_needed = s->ver == 3 ||
                    !((md->me.caps >> FMUC_CAP_COMPLETED_INTEGRATOR_STEP_NOT_NEEDED) & 1u);

    if (initialize(s) < 0)
        goto out;
    sp.in = s->in_;
    can_terminate = 1;
    fmuc_step_rc rc = fmuc_step_cvode_start(&sp, t0, s->cfg->max_event_iterations);
    if (rc == FMUC_STEP_TERMINATE) {
        r->completed = 1;
        goto out;
    }
    if (rc != FMUC_STEP_OK) {
        can_terminate = term_after(s, sp.term_after);
        goto out;
    }
    if (s->cfg->hooks.after_init && s->cfg->hooks.after_init(s->cfg->hooks.user, s->in_, t0)) {
        stop(s, "stopped by hook after initialization");
        goto out;
    }
    if (record_row(s, t0, diag) < 0) {
        can_terminate = !s->error;
        goto out;
    }
    if (s->cfg->hooks.at_point && s->cfg->hooks.at_point(s->cfg->hooks.user, s->in_, 0, t0)) {
        stop(s, "stopped by hook at t=%.17g", t0);
        goto out;
    }
    rc = fmuc_step_cvode_init(&sp, t0, r->tolerance, r->stop);
    if (rc == FMUC_STEP_NOMEM) {
        fmuc_diag_set(diag, FMUC_ENOMEM, "simulation: cannot create the CVODE solver");
        goto out;
    }
    if (rc != FMUC_STEP_OK)
        goto out;

    double h = r->step, span = r->stop - t0;
    size_t npts = (size_t)ceil(span / h - 1e-9);
    if (npts + 1 > s->max_points) {
        npts = s->max_points - 1;
        h = span / (double)npts;
    }
    size_t kpt = 1;
    while (kpt <= npts) {
        double tout = kpt == npts ? r->stop : t0 + (double)kpt * h;
        rc = fmuc_step_interval(&sp, sp.t, tout, NULL);
        r->end_time = sp.t;
        if (rc == FMUC_STEP_TERMINATE) {
            r->completed = 1;
            break;
        }
        if (rc != FMUC_STEP_OK) {
            can_terminate = term_after(s, sp.term_after);
            break;
        }
        if (record_row(s, sp.t, diag) < 0) {
            can_terminate = !s->error;
            break;
        }
        if (s->cfg->hooks.at_point &&
            s->cfg->hooks.at_point(s->cfg->hooks.user, s->in_, r->npoints - 1, sp.t)) {
            stop(s, "stopped by hook at t=%.17g", sp.t);
            break;
        }
        kpt++;
    }
    if (kpt > npts && !r->stop_reason)
        r->completed = 1;
out:
    r->steps = sp.steps;
    r->rhs_evals = sp.rhs_evals;
    r->root_evals = sp.root_evals;
    if (sp.terminated_by_fmu)
        r->terminated_by_fmu = 1;
    if (sp.event_iteration_overflow)
        r->event_iteration_overflow = 1;
    finish(s, can_terminate, sp.in ? sp.t : t0);
    fmuc_stepper_free(&sp);
    return r->completed && !r->stop_reason ? 0 : 1;
}

/* ---- entry -------------------------------------------------------------------------------- */

int fmuc_sim_run(fmuc_worker_ctx *ctx, const fmuc_sim_config *cfg, fmuc_sim_result *out,
                 fmuc_diag *diag)
{
    memset(out, 0, sizeof *out);
    out->iface = cfg->iface;
    out->last_successful_time = NAN;
    out->end_time = NAN;
    const fmuc_fmu *fmu = fmuc_worker_fmu(ctx);
    if (!fmu || !fmu->md_parsed)
        return fmuc_diag_set(diag, FMUC_ERROR, "simulation: no parsed model description");
    if (fmuc_inst_load(ctx, (fmuc_iface)cfg->iface) < 0)
        return fmuc_diag_set(diag, FMUC_ERROR, "simulation: the library does not load: %s",
                             fmuc_worker_load_error(ctx));
    sim s;
    memset(&s, 0, sizeof s);
    s.ctx = ctx;
    s.md = &fmu->md;
    s.ver = fmuc_inst_version(ctx);
    out->fmi_version = s.ver;
    s.cfg = cfg;
    s.r = out;
    out->bad = calloc(MAX_BAD, sizeof *out->bad);
    out->nonfinite = calloc(MAX_NONFINITE, sizeof *out->nonfinite);
    out->events = calloc(MAX_EVENTS_KEPT, sizeof *out->events);
    int rc;
    fmuc_err err;
    if (!out->bad || !out->nonfinite || !out->events) {
        rc = fmuc_diag_set(diag, FMUC_ENOMEM, "simulation: out of memory");
        goto done;
    }
    if ((err = resolve_times(&s, diag)) < 0 || (err = setup_columns(&s, diag)) < 0 ||
        (err = setup_inputs(&s, diag)) < 0) {
        rc = err;
        goto done;
    }
    s.max_points = cfg->max_points >= 2 ? cfg->max_points : 2;
    if (out->ncols && s.max_points > MAX_VALUES / out->ncols)
        s.max_points = MAX_VALUES / out->ncols > 2 ? MAX_VALUES / out->ncols : 2;
    out->end_time = out->start;
    s.cpu0 = cpu_now();
    rc = cfg->iface == FMUC_IFACE_ME ? run_me(&s, diag) : run_cs(&s, diag);
    out->run_cpu_s = fmax(0.0, cpu_now() - s.cpu0);
done:
    for (int b = 0; b < FMUC_INST_NBASE; b++) {
        free(s.grp[b].vr);
        free(s.grp[b].col0);
        free(s.grp[b].nel);
        free(s.grp[b].buf);
    }
    free(s.rr);
    free(s.ri);
    free(s.rb);
    free(s.vbuf);
    free(s.rbuf);
    free(s.ibuf);
    free(s.bbuf);
    free(s.last_in);
    free(s.in_vr);
    free(s.in_val);
    free(s.in_col);
    free(s.last_str);
    fmuc_sim_input_free(&s.own_in);
    return rc;
}
