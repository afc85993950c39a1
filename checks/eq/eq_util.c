/* Shared engine of the eq-* checks (see eq_util.h). */
#include "eq_util.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmuc/fmuc_drive.h"
#include "fmuc/fmuc_md.h"
#include "fmuc/fmuc_sim.h"

/* ---------------------------------------------------------------------------------------------
 * Plans
 * ------------------------------------------------------------------------------------------- */

const char *equ_iface_name(fmuc_iface t) { return t == FMUC_IFACE_ME ? "ME" : "CS"; }

size_t equ_interfaces(const fmuc_fmu *fmu, fmuc_iface ifaces[2])
{
    size_t n = 0;
    if (fmu->md.me.present && fmu->lib_path_me)
        ifaces[n++] = FMUC_IFACE_ME;
    if (fmu->md.cs.present && fmu->lib_path_cs)
        ifaces[n++] = FMUC_IFACE_CS;
    return n;
}

size_t equ_keep_usable(const fmuc_subject *s, fmuc_result *res, const fmuc_iface *in, size_t n,
                       fmuc_iface out[2])
{
    const char *gone[2] = {NULL, NULL};
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const char *u = fmuc_shared_unusable(s, in[i], FMUC_UNUSABLE_RUN);
        if (u)
            gone[i - k] = u;
        else
            out[k++] = in[i];
    }
    if (!gone[0])
        return k;
    if (k) /* each reason names its interface and the check that saw it */
        fmuc_result_note(res, "not run on every interface: %s", gone[0]);
    else if (gone[1])
        fmuc_result_na(res, "%s; %s", gone[0], gone[1]);
    else
        fmuc_result_na(res, "%s", gone[0]);
    return k;
}

size_t equ_usable_interfaces(const fmuc_subject *s, fmuc_result *res, fmuc_iface ifaces[2])
{
    fmuc_iface all[2];
    return equ_keep_usable(s, res, all, equ_interfaces(s->fmu, all), ifaces);
}

int equ_cap(const fmuc_fmu *fmu, fmuc_iface iface, fmuc_cap cap)
{
    const fmuc_md_interface *i = iface == FMUC_IFACE_ME ? &fmu->md.me : &fmu->md.cs;
    return i->present && (i->caps & (1u << cap)) != 0;
}

void equ_for_capable(const fmuc_subject *s, fmuc_result *res, unsigned caps, const char *need,
                     equ_iface_fn fn)
{
    fmuc_iface ifaces[2], capable[2], usable[2];
    size_t ni = equ_interfaces(s->fmu, ifaces), nc = 0;
    char why[512];
    int level = fmuc_eq__vdsim_level(s->fmu, s->opts, why, sizeof why);
    for (size_t i = 0; i < ni; i++) {
        const fmuc_md_interface *itf =
            ifaces[i] == FMUC_IFACE_ME ? &s->fmu->md.me : &s->fmu->md.cs;
        if (itf->present && (itf->caps & caps) == caps)
            capable[nc++] = ifaces[i];
    }
    if (!nc) {
        fmuc_result_na(res, "no interface with a binary declares %s", need);
        return;
    }
    size_t nu = equ_keep_usable(s, res, capable, nc, usable);
    equ_each_interface(s, res, usable, nu, level, fn);
}

void equ_each_interface(const fmuc_subject *s, fmuc_result *res, const fmuc_iface *ifaces,
                        size_t n, int level, equ_iface_fn fn)
{
    size_t judged = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned parts = res->na_parts;
        unsigned char whole = res->na_whole;
        fn(s, res, ifaces[i], level);
        judged += res->na_parts == parts && res->na_whole == whole;
    }
    fmuc_result_parts_judged(res, judged);
}

const fmuc_md_var *equ_md_find(const fmuc_md *md, const char *name)
{
    for (size_t i = 0; i < md->nvars; i++)
        if (md->vars[i].name && strcmp(md->vars[i].name, name) == 0)
            return &md->vars[i];
    return NULL;
}

/* FMI 3.0: the variables the runs here read and set are scalars of the types FMI 2.0 has
 * (Float64, Int32, Boolean: read with fmi3GetFloat64/Int32/Boolean); arrays and the other types
 * are left out of these checks' recordings (the nominal runs record them). */
static int v3_plain(const fmuc_md *md, const fmuc_md_var *v)
{
    if (md->fmi != FMUC_FMI3)
        return 1;
    if (fmuc_md_var_ext_of(md, (size_t)(v - md->vars)) &&
        fmuc_md_var_ext_of(md, (size_t)(v - md->vars))->ndims)
        return 0;
    return v->base == FMUC_BT_FLOAT64 || v->base == FMUC_BT_INT32 || v->base == FMUC_BT_BOOLEAN;
}

static int recordable_in(const fmuc_md *md, const fmuc_md_var *v)
{
    return v->name && (v->has & FMUC_HAS_VALUE_REFERENCE) && v3_plain(md, v) &&
           (v->type == FMUC_TYPE_REAL || v->type == FMUC_TYPE_INTEGER ||
            v->type == FMUC_TYPE_BOOLEAN || v->type == FMUC_TYPE_ENUMERATION);
}
#define recordable(v) recordable_in(md, (v))

void equ_v3_names(const fmuc_subject *s, fmuc_result *res, size_t from)
{
    /* longest first; the rest of "fmi2" becomes "fmi3" (fmi2OK, fmi2Reset, fmi2DoStep ...) */
    static const char *const map[][2] = {
        {"fmi2DeSerializeFMUstate", "fmi3DeserializeFMUState"},
        {"fmi2SerializedFMUstateSize", "fmi3SerializedFMUStateSize"},
        {"fmi2SerializeFMUstate", "fmi3SerializeFMUState"},
        {"fmi2GetFMUstate", "fmi3GetFMUState"},
        {"fmi2SetFMUstate", "fmi3SetFMUState"},
        {"fmi2FreeFMUstate", "fmi3FreeFMUState"},
        {"canGetAndSetFMUstate", "canGetAndSetFMUState"},
        {"canSerializeFMUstate", "canSerializeFMUState"},
        {"FMUstate", "FMUState"},
        {"fmi2NewDiscreteStates", "fmi3UpdateDiscreteStates"},
        {"fmi2GetDerivatives", "fmi3GetContinuousStateDerivatives"},
        {"fmi2GetReal", "fmi3GetFloat64"},
        {"fmi2SetReal", "fmi3SetFloat64"},
        {"fmi2GetInteger", "fmi3GetInt32"},
        {"fmi2SetInteger", "fmi3SetInt32"},
        {"fmi2SetupExperiment", "fmi3EnterInitializationMode"},
        {"fmi2Instantiate", "fmi3Instantiate*"},
        {"fmi2", "fmi3"},
    };
    if (!s->fmu->md_parsed || s->fmu->md.fmi != FMUC_FMI3)
        return;
    for (size_t i = from; i < res->nmessages; i++) {
        const char *m = res->messages[i];
        size_t cap = strlen(m) * 2 + 16, o = 0;
        char *out = malloc(cap);
        if (!out)
            continue;
        while (*m && o + 40 < cap) {
            size_t k, n = sizeof map / sizeof map[0];
            for (k = 0; k < n; k++)
                if (strncmp(m, map[k][0], strlen(map[k][0])) == 0)
                    break;
            if (k < n) {
                size_t l = strlen(map[k][1]);
                memcpy(out + o, map[k][1], l);
                o += l;
                m += strlen(map[k][0]);
            } else {
                out[o++] = *m++;
            }
        }
        out[o] = '\0';
        free(res->messages[i]);
        res->messages[i] = out;
    }
}

static equ_var mkvar(const fmuc_md *md, size_t i)
{
    const fmuc_md_var *v = &md->vars[i];
    equ_var e = {.name = v->name, .vr = v->value_reference, .type = v->type, .line = v->line};
    if (v->ext && v->type != FMUC_TYPE_BOOLEAN) {
        /* FMI 1.0 ME §2.9 alias="negatedAlias": the importer negates the base's value */
        const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, i);
        e.negated = x && x->alias_kind == FMUC_ALIAS_NEGATED;
    }
    return e;
}

equ_var equ_var_of(const fmuc_md *md, const fmuc_md_var *v)
{
    return mkvar(md, (size_t)(v - md->vars));
}

const char *equ_var_label(const fmuc_md *md, const equ_var *v, char *buf, size_t n)
{
    size_t dims[8], nd = 0;
    const fmuc_md_var *mv = v->nelem ? equ_md_find(md, v->name) : NULL;
    if (!v->nelem) {
        snprintf(buf, n, "%s", v->name);
        return buf;
    }
    if (!mv || fmuc_sim_var_elements(md, (size_t)(mv - md->vars), dims, 8, &nd) != v->nelem ||
        nd == 0 || nd > 8)
        nd = 0;
    /* row-major (§2.4.7.2): the last index runs fastest */
    size_t o = (size_t)snprintf(buf, n, "%s[", v->name), rem = v->elem, stride = v->nelem;
    for (size_t k = 0; k < (nd ? nd : 1) && o < n; k++) {
        stride /= nd ? dims[k] : v->nelem;
        o += (size_t)snprintf(buf + o, n - o, "%s%zu", k ? "," : "", rem / stride + 1);
        rem %= stride;
    }
    if (o < n)
        snprintf(buf + o, n - o, "]");
    return buf;
}

/* FMI 3.0: an output array of Float64 with a known element count (*n) */
static int float64_array_output(const fmuc_md *md, size_t i, size_t *n)
{
    const fmuc_md_var *v = &md->vars[i];
    const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, i);
    if (md->fmi != FMUC_FMI3 || !v->name || v->causality != FMUC_CAUS_OUTPUT ||
        !(v->has & FMUC_HAS_VALUE_REFERENCE) || v->base != FMUC_BT_FLOAT64 || !x || !x->ndims)
        return 0;
    *n = fmuc_sim_var_elements(md, i, NULL, 0, NULL);
    return *n > 0 && *n <= EQU_MAX_VARS;
}

static int plan_vars(equ_plan *p, int require)
{
    const fmuc_md *md = &p->fmu->md;
    p->out = calloc(md->nvars ? md->nvars : 1, sizeof *p->out);
    p->in = calloc(md->nvars ? md->nvars : 1, sizeof *p->in);
    if (!p->out || !p->in) {
        snprintf(p->why, sizeof p->why, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (v->causality == FMUC_CAUS_OUTPUT && recordable(v) && p->nout < EQU_MAX_VARS)
            p->out[p->nout++] = mkvar(md, i);
        if (v->causality == FMUC_CAUS_INPUT && v->type == FMUC_TYPE_REAL && v3_plain(md, v) &&
            v->variability == FMUC_VAR_CONTINUOUS && (v->has & FMUC_HAS_VALUE_REFERENCE))
            p->in[p->nin++] = mkvar(md, i);
    }
    if (p->nout == 0) /* no outputs: every Real local (states and the like) */
        for (size_t i = 0; i < md->nvars; i++) {
            const fmuc_md_var *v = &md->vars[i];
            if (v->causality == FMUC_CAUS_LOCAL && v->type == FMUC_TYPE_REAL && recordable(v) &&
                p->nout < EQU_MAX_VARS)
                p->out[p->nout++] = mkvar(md, i);
        }
    if (p->nout == 0 && require) {
        snprintf(p->why, sizeof p->why, "the model has no outputs and no Real local variables "
                                        "to record");
        return -1;
    }
    p->nx = md->nderivatives;
    if (md->fmi == FMUC_FMI1 && md->has_number_of_continuous_states) /* no ModelStructure */
        p->nx = md->number_of_continuous_states;
    p->nz = md->number_of_event_indicators;
    if (md->fmi == FMUC_FMI3) { /* §2.4.8: elements of the derivative / indicator variables */
        p->nx = p->nz = 0;
        for (size_t i = 0; i < md->nderivatives; i++)
            p->nx += md->derivatives[i].index
                         ? fmuc_sim_var_elements(md, md->derivatives[i].index - 1, NULL, 0, NULL)
                         : 1;
        for (size_t i = 0; i < md->nevent_indicators; i++)
            p->nz += md->event_indicators[i].index
                         ? fmuc_sim_var_elements(md, md->event_indicators[i].index - 1, NULL, 0,
                                                 NULL)
                         : 1;
    }
    if (fmuc_check_dynamic_counts_ok(p->nz, p->nx, p->why, sizeof p->why) < 0)
        return -1;
    return 0;
}

static int plan_alloc_inputs(equ_plan *p)
{
    size_t rows = p->nsteps + 1;
    p->in_values = calloc(rows * (p->nin ? p->nin : 1), sizeof *p->in_values);
    if (!p->in_values) {
        snprintf(p->why, sizeof p->why, "out of memory");
        return -1;
    }
    /* start values by default */
    for (size_t j = 0; j < p->nin; j++) {
        const fmuc_md_var *v = equ_md_find(&p->fmu->md, p->in[j].name);
        double s = v && (v->has & FMUC_HAS_START) && isfinite(v->start) ? v->start : 0.0;
        for (size_t k = 0; k < rows; k++)
            p->in_values[k * p->nin + j] = s;
    }
    return 0;
}

static void plan_common(equ_plan *p, const fmuc_fmu *fmu, fmuc_iface iface)
{
    memset(p, 0, sizeof *p);
    p->fmu = fmu;
    p->iface = iface;
    p->nsub = 4;
    const fmuc_md_experiment *e = &fmu->md.experiment;
    if (e->present && e->has_tolerance && e->tolerance > 0 && isfinite(e->tolerance)) {
        p->tol_defined = 1;
        p->tol = e->tolerance;
    }
}

int equ_plan_init(equ_plan *p, const fmuc_fmu *fmu, fmuc_iface iface, size_t max_steps)
{
    plan_common(p, fmu, iface);
    const fmuc_md_experiment *e = &fmu->md.experiment;
    double t0 = e->present && e->has_start && isfinite(e->start_time) ? e->start_time : 0.0;
    double t1 = e->present && e->has_stop && isfinite(e->stop_time) && e->stop_time > t0
                    ? e->stop_time
                    : t0 + 1.0;
    t1 = fmuc_shared_fixed_step_stop(&fmu->md, iface, t0, t1); /* FMI 3.0 fixed-step CS bound */
    double dt = (t1 - t0) / (double)max_steps;
    size_t n = max_steps;
    if (e->present && e->has_step && isfinite(e->step_size) && e->step_size > 0) {
        dt = e->step_size;
        double steps = ceil((t1 - t0) / dt - 1e-9);
        n = steps < 1 ? 1 : steps > (double)max_steps ? max_steps : (size_t)steps;
    }
    if (plan_vars(p, 1) < 0)
        return -1;
    p->nsteps = n;
    p->t = malloc((n + 1) * sizeof *p->t);
    if (!p->t) {
        snprintf(p->why, sizeof p->why, "out of memory");
        return -1;
    }
    for (size_t k = 0; k <= n; k++)
        p->t[k] = t0 + (double)k * dt; /* never accumulated */
    p->stop = p->t[n];
    p->nplanned = n;
    return plan_alloc_inputs(p);
}

static int plan_init_grid(equ_plan *p, const fmuc_fmu *fmu, fmuc_iface iface, const double *t,
                          size_t nt, int require);

int equ_plan_init_grid(equ_plan *p, const fmuc_fmu *fmu, fmuc_iface iface, const double *t,
                       size_t nt)
{
    return plan_init_grid(p, fmu, iface, t, nt, 1);
}

int equ_plan_init_grid_any(equ_plan *p, const fmuc_fmu *fmu, fmuc_iface iface, const double *t,
                           size_t nt)
{
    return plan_init_grid(p, fmu, iface, t, nt, 0);
}

static int plan_init_grid(equ_plan *p, const fmuc_fmu *fmu, fmuc_iface iface, const double *t,
                          size_t nt, int require)
{
    plan_common(p, fmu, iface);
    if (nt < 2) {
        snprintf(p->why, sizeof p->why, "the time grid needs at least two points");
        return -1;
    }
    if (plan_vars(p, require) < 0)
        return -1;
    p->nsteps = nt - 1;
    p->t = malloc(nt * sizeof *p->t);
    if (!p->t) {
        snprintf(p->why, sizeof p->why, "out of memory");
        return -1;
    }
    memcpy(p->t, t, nt * sizeof *t);
    p->stop = t[nt - 1];
    p->nplanned = nt - 1;
    return plan_alloc_inputs(p);
}

size_t equ_excite_column(const fmuc_sim_input *in, const equ_var *v)
{
    size_t c = 0;
    while (c < in->ncols &&
           !(in->cols[c].var->line == v->line && in->cols[c].var->value_reference == v->vr))
        c++;
    return c;
}

size_t equ_cs_input_block(size_t n)
{
    size_t b = (n + EQU_CS_INPUT_CHANGES - 1) / EQU_CS_INPUT_CHANGES;
    return b ? b : 1;
}

/* The excitation, each input held over blocks of `block` steps (1: the value of every step). */
static void excite_blocks(equ_plan *p, fmuc_result *res, size_t block)
{
    double t0 = p->t[0], span = p->t[p->nplanned > 0 ? p->nplanned : p->nsteps] - t0;
    double t1 = t0 + (span > 0.0 ? span : 1.0);
    fmuc_sim_input in;
    fmuc_diag d = {{0}, FMUC_OK};
    /* the simulation driver's excitation over the planned run (one shape for every check that
     * moves inputs: within [min, max] of the variable or its type, near the start value, its
     * sign kept); out of memory: the start values stay */
    if (fmuc_sim_input_excitation(&in, &p->fmu->md, t0, t1, &d) < 0)
        return;
    cJSON *ev = res && p->nin ? fmuc_result_evidence(res) : NULL;
    cJSON *all = ev ? cJSON_GetObjectItemCaseSensitive(ev, "inputs") : NULL;
    if (ev && !all)
        all = cJSON_AddObjectToObject(ev, "inputs");
    cJSON *mine = NULL, *cols = NULL;
    if (all && !cJSON_GetObjectItemCaseSensitive(all, equ_iface_name(p->iface))) {
        /* "inputs": {"CS": {"source", "t0", "t1", "inputs": [{name, vr, pattern, offset,
         * amplitude, cycles}]}} (eq_util.h) */
        mine = cJSON_AddObjectToObject(all, equ_iface_name(p->iface));
        if (mine) {
            cJSON_AddStringToObject(mine, "source", "excitation");
            cJSON_AddNumberToObject(mine, "t0", t0);
            cJSON_AddNumberToObject(mine, "t1", t1);
            cols = cJSON_AddArrayToObject(mine, "inputs");
        }
    }
    if (mine && block > 1)
        cJSON_AddNumberToObject(mine, "held_steps", (double)block);
    for (size_t j = 0; j < p->nin; j++) {
        size_t c = equ_excite_column(&in, &p->in[j]);
        if (c == in.ncols)
            continue;
        for (size_t k = 0; k <= p->nsteps; k++)
            p->in_values[k * p->nin + j] = fmuc_sim_input_value(&in, c, p->t[k / block * block]);
        cJSON *o = cols ? cJSON_CreateObject() : NULL;
        if (o) {
            cJSON_AddStringToObject(o, "name", p->in[j].name);
            cJSON_AddNumberToObject(o, "vr", p->in[j].vr);
            cJSON_AddStringToObject(o, "pattern", in.cols[c].kind);
            cJSON_AddNumberToObject(o, "offset", in.cols[c].c);
            cJSON_AddNumberToObject(o, "amplitude", in.cols[c].a);
            cJSON_AddNumberToObject(o, "cycles", in.cols[c].cycles);
            cJSON_AddItemToArray(cols, o);
        }
    }
    fmuc_sim_input_free(&in);
}

void equ_plan_excite(equ_plan *p, fmuc_result *res)
{
    excite_blocks(p, res, 1);
}

void equ_plan_excite_held(equ_plan *p, fmuc_result *res)
{
    /* blocks of the run as made (after a horizon's cut), so that a short run moves too */
    excite_blocks(p, res, p->iface == FMUC_IFACE_CS ? equ_cs_input_block(p->nsteps) : 1);
}

size_t equ_plan_inputs_from_table(equ_plan *p, const fmuc_refcsv *tab)
{
    size_t used = 0;
    for (size_t j = 0; j < p->nin; j++) {
        long col = fmuc_refcsv_column(tab, p->in[j].name);
        if (col < 0)
            continue;
        used++;
        size_t r = 0;
        for (size_t k = 0; k <= p->nsteps; k++) {
            while (r + 1 < tab->nrows && tab->time[r + 1] <= p->t[k])
                r++;
            p->in_values[k * p->nin + j] = fmuc_refcsv_at(tab, r, (size_t)col);
        }
    }
    return used;
}

int equ_plan_horizon(equ_plan *p, const fmuc_subject *s, fmuc_result *res)
{
    char why[400];
    double t_end;
    if (p->nsteps == 0)
        return 0;
    if (fmuc_shared_horizon(s, p->iface, p->t[0], p->t[1] - p->t[0], &t_end, res, why,
                            sizeof why) != 0) {
        fmuc_result_na_part(res, "%s", why); /* this interface; the other may be judged */
        return 1;
    }
    size_t n = p->nsteps;
    while (n > 1 && p->t[n] > t_end + 1e-12 * fabs(t_end))
        n--;
    /* the run ends early; the FMU is still told the experiment's stop time, so the bounded
     * run is the start of the full one (no last step that ends exactly on a new stopTime) */
    if (n < p->nsteps)
        p->nsteps = n;
    return 0;
}

void equ_plan_me_budget(equ_plan *p, int level, size_t budget)
{
    if (p->iface != FMUC_IFACE_ME || p->nsteps == 0)
        return;
    if (level) {
        char why[256];
        int n = fmuc_eq__vdsim_nsub(p->fmu, level, p->t[1] - p->t[0], why, sizeof why);
        if (n > 0)
            p->nsub = n;
    }
    p->vdsim_substeps = 0;
    size_t max_steps = budget / (size_t)(p->nsub > 0 ? p->nsub : 1);
    if (max_steps < 10)
        max_steps = 10;
    /* against the planned run, not a horizon's cut of it: the budgeted run is the planned one,
     * whether or not the horizon cut it shorter still (its stop and excitation are the same) */
    if (p->nplanned > max_steps) {
        p->nplanned = max_steps;
        if (p->nsteps > max_steps)
            p->nsteps = max_steps;
        p->stop = p->t[max_steps];
    }
}

int equ_plan_array_outputs(equ_plan *p)
{
    const fmuc_md *md = &p->fmu->md;
    size_t n, nel = 0, k = 0, added = 0;
    for (size_t i = 0; i < md->nvars; i++)
        if (float64_array_output(md, i, &n))
            nel += n;
    if (!nel)
        return 0;
    equ_var *nv = calloc(p->nout + nel, sizeof *nv);
    if (!nv) {
        snprintf(p->why, sizeof p->why, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < md->nvars && k < EQU_MAX_VARS; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (float64_array_output(md, i, &n)) {
            for (size_t e = 0; e < n && k < EQU_MAX_VARS; e++, added++) {
                nv[k] = mkvar(md, i);
                nv[k].elem = (uint32_t)e;
                nv[k++].nelem = (uint32_t)n;
            }
        } else if (v->causality == FMUC_CAUS_OUTPUT && recordable(v)) {
            nv[k++] = mkvar(md, i);
        }
    }
    free(p->out);
    p->out = nv;
    p->nout = k;
    return (int)added;
}

int equ_plan_set_outputs(equ_plan *p, const equ_var *vars, size_t n)
{
    equ_var *nv = calloc(n ? n : 1, sizeof *nv);
    if (!nv)
        return -1;
    memcpy(nv, vars, n * sizeof *nv);
    free(p->out);
    p->out = nv;
    p->nout = n;
    return 0;
}

void equ_plan_free(equ_plan *p)
{
    free(p->t);
    free(p->in);
    free(p->in_values);
    free(p->out);
    memset(p, 0, sizeof *p);
}

/* ---------------------------------------------------------------------------------------------
 * Worker side: the stepping engine
 * ------------------------------------------------------------------------------------------- */

static int bad(int st) { return st != FMUC_STATUS_OK && st != FMUC_STATUS_WARNING; }

int equ_inst_status(equ_inst *in, int st)
{
    /* FMUC_STATUS_NOT_PROVIDED (a missing function) counts as an error of the call */
    int s = st > FMUC_STATUS_PENDING ? FMUC_STATUS_ERROR : st;
    if (s != FMUC_STATUS_PENDING && s > in->worst)
        in->worst = s;
    return st;
}

int equ_inst_usable(const equ_inst *in) { return in->c && in->worst < FMUC_STATUS_ERROR; }

/* The FMI 1.0 name of a call named the 2.0 way ("fmi2DoStep(t=1)" -> "fmiDoStep(t=1)"). */
static const char *v1_call(const char *call, char *buf, size_t n)
{
    static const char *const map[][2] = {
        {"fmi2NewDiscreteStates", "fmiEventUpdate"},
        {"fmi2GetNominalsOfContinuousStates", "fmiGetNominalContinuousStates"},
        {"fmi2ExitInitializationMode", "fmiInitialize/fmiInitializeSlave"},
        {"fmi2Instantiate", "fmiInstantiateModel/fmiInstantiateSlave"}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        size_t l = strlen(map[i][0]);
        if (strncmp(call, map[i][0], l) == 0 && (call[l] == '\0' || call[l] == '(')) {
            snprintf(buf, n, "%s%s", map[i][1], call + l);
            return buf;
        }
    }
    if (strncmp(call, "fmi2", 4) == 0) {
        snprintf(buf, n, "fmi%s", call + 4);
        return buf;
    }
    return call;
}

static int failf(equ_inst *in, const char *call, int st)
{
    char sb[32], cb[256];
    const int ver = in->c ? fmuc_inst_fmi_version(in->c) : 2;
    equ_inst_status(in, st);
    if (!in->err[0])
        snprintf(in->err, sizeof in->err, "%s returned %s",
                 ver == 1 ? v1_call(call, cb, sizeof cb) : call,
                 fmuc_status_name(ver, (int)st, sb, sizeof sb));
    return -1;
}

static int set_inputs(equ_inst *in, size_t k)
{
    const equ_plan *p = in->p;
    if (!p->nin)
        return 0;
    fmuc_vr vr[64];
    for (size_t j0 = 0; j0 < p->nin; j0 += 64) {
        size_t m = p->nin - j0 < 64 ? p->nin - j0 : 64;
        for (size_t j = 0; j < m; j++)
            vr[j] = p->in[j0 + j].vr;
        int st = fmuc_inst_set_float64(in->c, vr, m, &p->in_values[k * p->nin + j0]);
        if (bad(st)) {
            char call[128];
            snprintf(call, sizeof call, "fmi2SetReal(inputs at t=%.17g)", p->t[k]);
            return failf(in, call, st);
        }
    }
    return 0;
}

/* A stepper outcome that is not FMUC_STEP_OK into in->err (the call's name the FMU's version's). */
static int step_fail(equ_inst *in, fmuc_step_rc rc)
{
    switch (rc) {
    case FMUC_STEP_OK: return 0;
    case FMUC_STEP_FAILED: return failf(in, in->st.call, in->st.status);
    case FMUC_STEP_TERMINATE: in->terminated = 1; /* fall through */
    case FMUC_STEP_NO_SETTLE:
        snprintf(in->err, sizeof in->err, "%s", in->st.why);
        return -1;
    default: return -1; /* the inputs: failf said why */
    }
}

static int me_enter_ctm(equ_inst *in)
{
    return step_fail(in, fmuc_step_me_enter_ctm(&in->st));
}

static int init_inputs(void *user, fmuc_inst *c)
{
    (void)c;
    return set_inputs(user, 0) < 0;
}

/* the stepper's inputs hook: the inputs of the row the step starts from */
static int step_inputs(void *user, fmuc_inst *c, double t)
{
    equ_inst *in = user;
    (void)c;
    (void)t;
    return set_inputs(in, in->k) < 0;
}

/* The life-cycle driver (fmuc_drive_reach) to the end of Initialization Mode with the inputs of
 * row 0 set in it; ME then goes on with the step-wise driver's event iteration (fmuc_step.h). */
static int initialize(equ_inst *in)
{
    const equ_plan *p = in->p;
    fmuc_drive_start ds;
    fmuc_drive_reached dr;
    fmuc_drive_start_init(&ds, NULL);
    ds.exp = (fmuc_inst_experiment){p->tol_defined, p->tol, p->t[0], !p->stop_undefined, p->stop};
    ds.in_init = init_inputs;
    ds.user = in;
    if (fmuc_drive_reach(in->c, fmuc_drive_after_init_state(p->iface), &ds,
                         &dr) != 0) {
        if (dr.failed_op < 0)
            return -1; /* the inputs: failf said why */
        return failf(in, fmuc_inst_op_name(fmuc_inst_fmi_version(in->c), (fmuc_inst_op)dr.failed_op),
                     dr.status);
    }
    in->k = 0;
    if (p->iface == FMUC_IFACE_ME)
        return me_enter_ctm(in);
    return 0;
}

int equ_inst_instantiate(equ_inst *in, fmuc_worker_ctx *ctx, const equ_plan *p,
                         const char *instance_name)
{
    return equ_inst_adopt(in, ctx, p, fmuc_inst_instantiate(ctx, (fmuc_iface)p->iface, NULL,
                                                            instance_name));
}

int equ_inst_adopt(equ_inst *in, fmuc_worker_ctx *ctx, const equ_plan *p, fmuc_inst *c)
{
    memset(in, 0, sizeof *in);
    in->ctx = ctx;
    in->p = p;
    in->c = c;
    if (!in->c) {
        if (fmuc_inst_version(ctx) == 1)
            snprintf(in->err, sizeof in->err, "%s returned NULL",
                     p->iface == FMUC_IFACE_CS ? "fmiInstantiateSlave" : "fmiInstantiateModel");
        else
            snprintf(in->err, sizeof in->err, "fmi2Instantiate(%s) returned NULL",
                     equ_iface_name(p->iface));
        return -1;
    }
    /* the step-wise driver (fmuc_step.h): ME with the plan's RK4 substeps */
    if (fmuc_stepper_init(&in->st, in->c, p->iface == FMUC_IFACE_ME,
                          p->iface == FMUC_IFACE_ME ? p->nx : 0,
                          p->iface == FMUC_IFACE_ME ? p->nz : 0) < 0) {
        snprintf(in->err, sizeof in->err, "out of memory");
        return -1;
    }
    in->x = in->st.x;
    in->st.nsub = p->nsub > 0 ? p->nsub : 1;
    in->st.inputs = step_inputs;
    in->st.user = in;
    return 0;
}

int equ_inst_initialize(equ_inst *in)
{
    return initialize(in);
}

int equ_inst_start(equ_inst *in, fmuc_worker_ctx *ctx, const equ_plan *p,
                   const char *instance_name)
{
    if (equ_inst_instantiate(in, ctx, p, instance_name) < 0)
        return -1;
    return initialize(in);
}

int equ_inst_reset(equ_inst *in)
{
    int st = fmuc_inst_reset(in->c);
    if (bad(st))
        return failf(in, fmuc_inst_fmi_version(in->c) == 1 ? "fmiResetSlave" : "fmi2Reset", st);
    in->worst = FMUC_STATUS_OK; /* fmi2Reset leaves the error state (§2.1.3) */
    in->terminated = 0;
    in->st.next_event_defined = 0;
    return initialize(in);
}

int equ_inst_resync(equ_inst *in)
{
    if (in->p->iface != FMUC_IFACE_ME)
        return 0;
    return step_fail(in, fmuc_step_me_resync(&in->st));
}

void equ_inst_snap(const equ_inst *in, equ_snap *s)
{
    s->k = in->k;
    s->next_event_defined = in->st.next_event_defined;
    s->next_event = in->st.next_event;
}

int equ_inst_restore(equ_inst *in, const equ_snap *s)
{
    in->k = s->k;
    in->st.next_event_defined = s->next_event_defined;
    in->st.next_event = s->next_event;
    in->terminated = 0;
    return equ_inst_resync(in);
}

int equ_inst_record(equ_inst *in, double *row)
{
    const equ_plan *p = in->p;
    fmuc_vr vr[64];
    double rv[64];
    int32_t iv[64];
    int bv[64];
    size_t idx[64];
    /* batches per type, in plan order */
    for (int type = FMUC_TYPE_REAL; type <= FMUC_TYPE_ENUMERATION; type++) {
        size_t m = 0;
        for (size_t j = 0; j <= p->nout; j++) {
            int flush = j == p->nout || m == 64;
            if (flush && m) {
                int st;
                const char *call;
                if (type == FMUC_TYPE_REAL) {
                    st = fmuc_inst_get_float64(in->c, vr, m, rv);
                    call = "fmi2GetReal";
                } else if (type == FMUC_TYPE_BOOLEAN) {
                    st = fmuc_inst_get_boolean(in->c, vr, m, bv);
                    call = "fmi2GetBoolean";
                } else {
                    st = fmuc_inst_get_int32(in->c, vr, m, iv);
                    call = "fmi2GetInteger";
                }
                if (bad(st)) {
                    char cb[160];
                    snprintf(cb, sizeof cb, "%s(outputs at t=%.17g)", call, p->t[in->k]);
                    return failf(in, cb, st);
                }
                for (size_t q = 0; q < m; q++) {
                    row[idx[q]] = type == FMUC_TYPE_REAL      ? rv[q]
                                  : type == FMUC_TYPE_BOOLEAN ? (bv[q] ? 1.0 : 0.0)
                                                              : (double)iv[q];
                    if (type != FMUC_TYPE_BOOLEAN && p->out[idx[q]].negated)
                        row[idx[q]] = -row[idx[q]];
                }
                m = 0;
            }
            if (j == p->nout)
                break;
            int vt = p->out[j].type;
            if (vt == FMUC_TYPE_ENUMERATION)
                vt = FMUC_TYPE_INTEGER;
            if (vt != type || p->out[j].nelem)
                continue;
            vr[m] = p->out[j].vr;
            idx[m++] = j;
        }
    }
    /* FMI 3.0 array elements: one fmi3GetFloat64 of the whole array per run of its elements */
    for (size_t j = 0; j < p->nout; j++) {
        const equ_var *a = &p->out[j];
        if (!a->nelem || (j > 0 && p->out[j - 1].nelem && p->out[j - 1].vr == a->vr))
            continue;
        double *buf = a->nelem <= 64 ? rv : malloc(a->nelem * sizeof *buf);
        if (!buf) {
            snprintf(in->err, sizeof in->err, "out of memory");
            return -1;
        }
        int st = fmuc_inst_get(in->c, FMUC_INST_FLOAT64, &a->vr, 1, buf, a->nelem);
        if (bad(st)) {
            char cb[320];
            snprintf(cb, sizeof cb, "fmi2GetReal(array '%s', %u values, at t=%.17g)", a->name,
                     a->nelem, p->t[in->k]);
            if (buf != rv)
                free(buf);
            return failf(in, cb, st);
        }
        for (size_t q = j; q < p->nout && p->out[q].nelem && p->out[q].vr == a->vr; q++)
            row[q] = p->out[q].elem < a->nelem ? buf[p->out[q].elem] : NAN;
        if (buf != rv)
            free(buf);
    }
    return 0;
}

double equ_rk4_combine(double x, double h6, double k1, double k2, double k3, double k4)
{
    return fmuc_step_rk4_combine(x, h6, k1, k2, k3, k4);
}

int equ_inst_step(equ_inst *in)
{
    const equ_plan *p = in->p;
    if (in->k >= p->nsteps) {
        snprintf(in->err, sizeof in->err, "no step beyond the end of the grid");
        return -1;
    }
    if (step_fail(in, fmuc_step_interval(&in->st, p->t[in->k], p->t[in->k + 1], NULL)) < 0)
        return -1;
    in->k++;
    return 0;
}

int equ_inst_run_to(equ_inst *in, size_t to, double *rows)
{
    while (in->k < to) {
        if (equ_inst_step(in) < 0)
            return -1;
        if (rows && equ_inst_record(in, rows + in->k * in->p->nout) < 0)
            return -1;
    }
    return 0;
}

void equ_inst_free(equ_inst *in)
{
    if (in->c && in->worst != FMUC_STATUS_FATAL)
        fmuc_inst_free(in->c);
    else
        fmuc_inst_abandon(in->c);
    in->c = NULL;
    fmuc_stepper_free(&in->st);
    in->x = NULL;
}

int equ_run_fresh(fmuc_worker_ctx *ctx, const equ_plan *p, const char *name, double *rows,
                  char *err, size_t errsz)
{
    equ_inst in;
    int rc = equ_inst_start(&in, ctx, p, name);
    if (rc == 0)
        rc = equ_inst_record(&in, rows);
    if (rc == 0)
        rc = equ_inst_run_to(&in, p->nsteps, rows);
    if (rc < 0 && err)
        snprintf(err, errsz, "%s", in.err);
    equ_inst_free(&in);
    return rc;
}

/* ---------------------------------------------------------------------------------------------
 * Series, comparisons, plots
 * ------------------------------------------------------------------------------------------- */

int equ_first_diff(const double *a, const double *b, size_t rows, size_t cols, size_t *row,
                   size_t *col)
{
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++)
            if (memcmp(&a[r * cols + c], &b[r * cols + c], sizeof(double)) != 0) {
                *row = r;
                *col = c;
                return 1;
            }
    return 0;
}

int equ_first_mismatch(const double *a, const double *b, size_t rows, size_t cols, size_t *row,
                       size_t *col)
{
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++)
            if (!equ_same(a[r * cols + c], b[r * cols + c])) {
                *row = r;
                *col = c;
                return 1;
            }
    return 0;
}

double equ_deviation(const double *a, const double *b, size_t rows, size_t cols, size_t *row,
                     size_t *col)
{
    double worst = 0.0;
    size_t wr = 0, wc = 0;
    for (size_t c = 0; c < cols; c++) {
        double scale = 0.0, dmax = 0.0;
        size_t at = 0;
        for (size_t r = 0; r < rows; r++) {
            double x = a[r * cols + c], y = b[r * cols + c];
            if (isfinite(x) && fabs(x) > scale)
                scale = fabs(x);
            if (isfinite(y) && fabs(y) > scale)
                scale = fabs(y);
        }
        for (size_t r = 0; r < rows; r++) {
            double x = a[r * cols + c], y = b[r * cols + c], d;
            if (equ_same(x, y))
                continue;
            d = isfinite(x) && isfinite(y) ? fabs(x - y) / scale : INFINITY;
            if (d > dmax) {
                dmax = d;
                at = r;
            }
        }
        if (dmax > worst) {
            worst = dmax;
            wr = at;
            wc = c;
        }
    }
    if (row)
        *row = wr;
    if (col)
        *col = wc;
    return worst;
}

const char *equ_fmt_bits(double v, char *buf, size_t n)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    snprintf(buf, n, "%.17g (0x%016" PRIx64 ")", v, b);
    return buf;
}

void equ_max_abs_diff(const double *a, const double *b, size_t rows, size_t cols, double *out,
                      size_t *at_row)
{
    for (size_t c = 0; c < cols; c++) {
        out[c] = 0.0;
        if (at_row)
            at_row[c] = 0;
        for (size_t r = 0; r < rows; r++) {
            double x = a[r * cols + c], y = b[r * cols + c], d;
            if (isnan(x) || isnan(y))
                d = isnan(x) && isnan(y) ? 0.0 : NAN;
            else if (x == y)
                d = 0.0;
            else
                d = fabs(x - y);
            if (isnan(d) ? !isnan(out[c]) : d > out[c]) {
                out[c] = d;
                if (at_row)
                    at_row[c] = r;
            }
        }
    }
}

cJSON *equ_plot_add(fmuc_result *res, const char *title, const char *ylabel, const double *x,
                    size_t n, const equ_series_ref *s, size_t ns, const double *band_lo,
                    const double *band_hi, size_t band_stride, size_t max_points)
{
    cJSON *ev = fmuc_result_evidence(res);
    cJSON *plots = cJSON_GetObjectItem(ev, "plots");
    if (!plots)
        plots = cJSON_AddArrayToObject(ev, "plots");
    if (!plots || cJSON_GetArraySize(plots) >= 16 || n == 0)
        return NULL;
    size_t step = max_points && n > max_points ? (n + max_points - 1) / max_points : 1;
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "title", title);
    cJSON_AddStringToObject(p, "xlabel", "time");
    cJSON_AddStringToObject(p, "xunit", "s");
    if (ylabel)
        cJSON_AddStringToObject(p, "ylabel", ylabel);
    cJSON_AddItemToObject(p, "x", fmuc_evidence_numbers(x, n, 1, step));
    cJSON *ser = cJSON_AddArrayToObject(p, "series");
    for (size_t i = 0; i < ns && i < 16; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", s[i].name);
        cJSON_AddItemToObject(o, "y", fmuc_evidence_numbers(s[i].y, n, s[i].stride, step));
        cJSON_AddItemToArray(ser, o);
    }
    if (band_lo && band_hi) {
        cJSON *b = cJSON_AddObjectToObject(p, "band");
        cJSON_AddItemToObject(b, "lo", fmuc_evidence_numbers(band_lo, n, band_stride, step));
        cJSON_AddItemToObject(b, "hi", fmuc_evidence_numbers(band_hi, n, band_stride, step));
    }
    cJSON_AddItemToArray(plots, p);
    return p;
}

static void convert_numbers(cJSON *parent, const char *key, double f, double o)
{
    cJSON *a = cJSON_GetObjectItemCaseSensitive(parent, key);
    double *v = NULL;
    long n = a ? fmuc_evidence_numbers_read(a, (size_t)1 << 30, &v) : -1;
    if (n >= 0) {
        for (long i = 0; i < n; i++)
            v[i] = f * v[i] + o;
        cJSON *b = fmuc_evidence_numbers(v, (size_t)n, 1, 1);
        if (b)
            cJSON_ReplaceItemInObjectCaseSensitive(parent, key, b);
    }
    free(v);
}

void equ_plot_units(cJSON *plot, const fmuc_md *md, const char *var, int difference)
{
    if (!plot || !md || !var)
        return;
    const fmuc_md_var *v = NULL;
    for (size_t i = 0; i < md->nvars && !v; i++)
        if (md->vars[i].name && strcmp(md->vars[i].name, var) == 0)
            v = &md->vars[i];
    if (!v)
        return;
    fmuc_sim_column c;
    memset(&c, 0, sizeof c);
    fmuc_sim_column_units(md, v, &c);
    const char *unit = c.display_unit ? c.display_unit : c.unit;
    if (unit)
        cJSON_AddStringToObject(plot, "yunit", unit);
    if (c.display_unit) {
        double off = difference ? 0.0 : c.display_offset;
        cJSON *it;
        cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(plot, "series"))
        convert_numbers(it, "y", c.display_factor, off);
        cJSON *band = cJSON_GetObjectItemCaseSensitive(plot, "band");
        if (band) {
            convert_numbers(band, "lo", c.display_factor, off);
            convert_numbers(band, "hi", c.display_factor, off);
        }
    }
    free(c.unit);
    free(c.display_unit);
}

int equ_worker(const fmuc_subject *s, const fmuc_fmu *fmu, const char *label, fmuc_worker_fn fn,
               void *payload, fmuc_worker_outcome *o, fmuc_result *res)
{
    fmuc_worker_spec spec;
    fmuc_diag d = {{0}, FMUC_OK};
    fmuc_worker_spec_init(&spec, fmu, s->opts);
    spec.label = label;
    if (spec.reply_max_bytes < ((size_t)256 << 20))
        spec.reply_max_bytes = (size_t)256 << 20; /* series travel as 16 hex digits a value */
    if (fmuc_worker_run(&spec, fn, payload, o, &d) < 0) {
        fmuc_result_error(res, "%s: cannot run a worker: %s", label, d.msg);
        fmuc_worker_outcome_free(o);
        return -1;
    }
    if (fmuc_worker_outcome_to_result(o, res)) {
        fmuc_worker_outcome_free(o);
        return -1;
    }
    return 0;
}

int equ_worker_probe(const fmuc_subject *s, const fmuc_fmu *fmu, const char *label,
                     fmuc_worker_fn fn, void *payload, fmuc_worker_outcome *o, fmuc_result *res,
                     const char *const *probe_phases, fmuc_verdict verdict, const char *what)
{
    fmuc_worker_spec spec;
    fmuc_diag d = {{0}, FMUC_OK};
    fmuc_worker_spec_init(&spec, fmu, s->opts);
    spec.label = label;
    if (spec.reply_max_bytes < ((size_t)256 << 20))
        spec.reply_max_bytes = (size_t)256 << 20;
    if (fmuc_worker_run(&spec, fn, payload, o, &d) < 0) {
        fmuc_result_error(res, "%s: cannot run a worker: %s", label, d.msg);
        fmuc_worker_outcome_free(o);
        return -1;
    }
    int probed = 0;
    /* a crash, or a timeout while an FMI call of the probed phase had not returned: the worker's
     * limit is many times the nominal run's worker (fmuc_shared_scaled_timeout), so a call still
     * running then is a hang in answer to the probe (issue 16, cause 3), not a slow run */
    if ((o->end == FMUC_WORKER_CRASHED && !o->own_limit[0]) ||
        (o->end == FMUC_WORKER_TIMEOUT && o->call_in_progress))
        for (size_t i = 0; probe_phases && probe_phases[i] && !probed; i++)
            probed = strncmp(o->phase, probe_phases[i], strlen(probe_phases[i])) == 0;
    if (!probed) {
        if (fmuc_worker_outcome_to_result(o, res)) {
            fmuc_worker_outcome_free(o);
            return -1;
        }
        return 0;
    }
    /* the worker's own description (signal or timeout, call, phase, last calls), as the verdict */
    fmuc_result scratch;
    fmuc_result_init(&scratch, res->id, res->title, res->spec, res->level);
    fmuc_worker_outcome_to_result(o, &scratch);
    for (size_t i = 0; i < scratch.nmessages; i++) {
        const char *m = scratch.messages[i];
        if (i > 0)
            fmuc_result_note(res, "%s", m);
        else if (verdict == FMUC_VERDICT_NA)
            fmuc_result_na(res, "%s: %s", what, m);
        else if (verdict == FMUC_VERDICT_FAIL)
            fmuc_result_fail(res, "%s: %s", what, m);
        else
            fmuc_result_warn(res, "%s: %s", what, m);
    }
    cJSON *w = scratch.evidence ? cJSON_DetachItemFromObject(scratch.evidence, "worker") : NULL;
    if (w) {
        cJSON *ev = fmuc_result_evidence(res);
        cJSON_DeleteItemFromObject(ev, "worker");
        cJSON_AddItemToObject(ev, "worker", w);
    }
    fmuc_result_clear(&scratch);
    fmuc_worker_outcome_free(o);
    return -1;
}

void equ_restart_test(const fmuc_subject *s, const equ_plan *p, double dev_base,
                      equ_deviation_fn fn, void *ctx, equ_restart *out)
{
    memset(out, 0, sizeof *out);
    out->verdict = -1;
    out->tol_hi = p->tol_defined ? p->tol : EQU_RESTART_TOL_UNDEFINED;
    out->tol_lo = out->tol_hi / EQU_RESTART_TOL_FACTOR;
    equ_plan q = *p; /* shares the arrays of p; only the tolerance differs */
    q.tol_defined = 1;
    fmuc_result scratch;
    fmuc_result_init(&scratch, "eq-restart", "", "", FMUC_LEVEL_MUST);
    char why[512] = "";
    if (p->tol_defined) {
        out->dev_hi = dev_base;
    } else {
        q.tol = out->tol_hi;
        out->dev_hi = fn(s, &q, ctx, &scratch, why, sizeof why);
    }
    if (out->dev_hi >= 0) {
        q.tol = out->tol_lo;
        out->dev_lo = fn(s, &q, ctx, &scratch, why, sizeof why);
    }
    if (out->dev_hi < 0 || out->dev_lo < 0) {
        snprintf(out->why, sizeof out->why, "the run at tolerance %g failed: %s",
                 out->dev_hi < 0 ? out->tol_hi : out->tol_lo,
                 why[0] ? why : scratch.nmessages ? scratch.messages[0] : "no result");
    } else {
        int shrinks = out->dev_lo <= EQU_RESTART_SHRINK * out->dev_hi;
        int within = out->dev_hi <= out->tol_hi && out->dev_lo <= out->tol_lo;
        out->verdict = isfinite(out->dev_hi) && isfinite(out->dev_lo) && (shrinks || within);
    }
    fmuc_result_clear(&scratch);
}

const char *equ_restart_text(const equ_restart *r, char *buf, size_t n)
{
    if (r->verdict < 0)
        snprintf(buf, n, "deviation %.3g at tolerance %g; %s", r->dev_hi, r->tol_hi, r->why);
    else
        snprintf(buf, n, "deviation %.3g at tolerance %g, %.3g at tolerance %g", r->dev_hi,
                 r->tol_hi, r->dev_lo, r->tol_lo);
    return buf;
}

void equ_restart_evidence(cJSON *evi, const char *key, const equ_restart *r)
{
    cJSON *o = cJSON_AddObjectToObject(evi, key);
    if (!o)
        return;
    cJSON_AddNumberToObject(o, "tolerance_hi", r->tol_hi);
    if (isfinite(r->dev_hi))
        cJSON_AddNumberToObject(o, "deviation_hi", r->dev_hi);
    else
        cJSON_AddStringToObject(o, "deviation_hi", "inf");
    cJSON_AddNumberToObject(o, "tolerance_lo", r->tol_lo);
    if (r->verdict >= 0) {
        if (isfinite(r->dev_lo))
            cJSON_AddNumberToObject(o, "deviation_lo", r->dev_lo);
        else
            cJSON_AddStringToObject(o, "deviation_lo", "inf");
    }
    cJSON_AddStringToObject(o, "conclusion", r->verdict > 0    ? "integrator restart"
                                             : r->verdict == 0 ? "state not restored"
                                                               : r->why);
}

const equ_plan *equ_worker_plan(equ_plan *copy, const equ_plan *p)
{
    *copy = *p;
    if (p->iface == FMUC_IFACE_ME && p->vdsim_substeps && p->nsteps) {
        char why[256];
        int n = fmuc_eq__vdsim_nsub(p->fmu, p->vdsim_substeps, p->t[1] - p->t[0], why,
                                    sizeof why);
        if (n > 0)
            copy->nsub = n;
    }
    return copy;
}

double equ_interp(const double *tg, size_t n, const double *y, size_t stride, double t)
{
    if (n == 0)
        return NAN;
    if (t <= tg[0])
        return y[0];
    if (t >= tg[n - 1])
        return y[(n - 1) * stride];
    size_t lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (tg[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    if (tg[lo] == t)
        return y[lo * stride];
    double w = (t - tg[lo]) / (tg[hi] - tg[lo]);
    return y[lo * stride] + w * (y[hi * stride] - y[lo * stride]);
}

size_t equ_tol_compare(fmuc_result *res, const char *group, const char *label, const char *name,
                       uint32_t vr, const double *x, size_t n, const double *ref,
                       size_t ref_stride, const double *y, size_t y_stride, double rtol,
                       double atol, const char *ref_name, const char *y_name, int plot,
                       const fmuc_md *md)
{
    size_t misses = 0, worst_i = 0;
    double worst = -1.0, worst_excess = -INFINITY;
    double *lo = plot ? malloc(n * sizeof *lo) : NULL, *hi = plot ? malloc(n * sizeof *hi) : NULL;
    for (size_t i = 0; i < n; i++) {
        double r = ref[i * ref_stride], v = y[i * y_stride];
        double tol = atol + rtol * fabs(r);
        if (lo && hi) {
            lo[i] = r - tol;
            hi[i] = r + tol;
        }
        double d, excess;
        if (isnan(r) || isnan(v)) {
            d = isnan(r) && isnan(v) ? 0.0 : INFINITY;
        } else if (r == v) {
            d = 0.0;
        } else {
            d = fabs(v - r);
        }
        excess = d - tol;
        if (d > tol)
            misses++;
        if (excess > worst_excess) { /* the point furthest outside (or least inside) */
            worst_excess = excess;
            worst = d;
            worst_i = i;
        }
    }
    cJSON *ev = fmuc_result_evidence(res);
    cJSON *g = cJSON_GetObjectItem(ev, group);
    if (!g)
        g = cJSON_AddObjectToObject(ev, group);
    cJSON *o = cJSON_AddObjectToObject(g, name);
    cJSON_AddNumberToObject(o, "vr", vr);
    if (isfinite(worst))
        cJSON_AddNumberToObject(o, "worst_abs_deviation", worst);
    else
        cJSON_AddStringToObject(o, "worst_abs_deviation", "NaN on one side");
    cJSON_AddNumberToObject(o, "at_time", x[worst_i]);
    cJSON_AddNumberToObject(o, "points_outside", (double)misses);
    cJSON_AddNumberToObject(o, "points", (double)n);
    if (misses) {
        char b1[64], b2[64];
        fmuc_result_violation(res,
                              "%s: '%s' (vr %u): %zu of %zu points outside |y - y_ref| <= %g + "
                              "%g*|y_ref|; worst |Δ| = %.3g at t=%.17g (%s %s, %s %s)",
                              label, name, vr, misses, n, atol, rtol, worst, x[worst_i], y_name,
                              equ_fmt_bits(y[worst_i * y_stride], b1, sizeof b1), ref_name,
                              equ_fmt_bits(ref[worst_i * ref_stride], b2, sizeof b2));
    }
    if (plot && lo && hi) {
        equ_series_ref s[2] = {{ref_name, ref, ref_stride}, {y_name, y, y_stride}};
        char title[200];
        snprintf(title, sizeof title, "%s: %s, %s vs %s", label, name, y_name, ref_name);
        equ_plot_units(equ_plot_add(res, title, name, x, n, s, 2, lo, hi, 1, 1000), md, name, 0);
    }
    free(lo);
    free(hi);
    return misses;
}

typedef struct plan_job {
    const equ_plan *plan;
} plan_job;

static int plan_worker(fmuc_worker_ctx *ctx, void *payload)
{
    const plan_job *job = payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    equ_plan copy;
    const equ_plan *p = equ_worker_plan(&copy, job->plan);
    size_t n = (p->nsteps + 1) * p->nout;
    char err[512];
    double *rows = calloc(n ? n : 1, sizeof *rows);
    int f_loaded = fmuc_inst_load(ctx, (fmuc_iface)(p->iface)) == 0;
    if (!f_loaded || !rows) {
        cJSON_AddStringToObject(reply, "error", f_loaded ? "out of memory" : fmuc_worker_load_error(ctx));
    } else {
        fmuc_worker_phase(ctx, "%s run", equ_iface_name(p->iface));
        if (equ_run_fresh(ctx, p, "fmucheck", rows, err, sizeof err) < 0)
            cJSON_AddStringToObject(reply, "error", err);
        else
            cJSON_AddItemToObject(reply, "rows", fmuc_worker_f64_to_json(rows, n));
    }
    free(rows);
    return 0;
}

double *equ_run_plan(const fmuc_subject *s, const equ_plan *p, const char *label,
                     fmuc_result *res, char *why, size_t whysz)
{
    fmuc_worker_outcome o;
    plan_job job = {p};
    why[0] = '\0';
    if (equ_worker(s, p->fmu, label, plan_worker, &job, &o, res) < 0)
        return NULL;
    const char *e = cJSON_GetStringValue(cJSON_GetObjectItem(o.reply, "error"));
    double *rows = NULL;
    if (e)
        snprintf(why, whysz, "%s", e);
    else if (!(rows = fmuc_worker_f64_from_json(cJSON_GetObjectItem(o.reply, "rows"),
                                           (p->nsteps + 1) * p->nout)))
        snprintf(why, whysz, "malformed series in the worker reply");
    fmuc_worker_outcome_free(&o);
    return rows;
}
