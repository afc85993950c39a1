/* Simulation results as JSON (worker -> parent), the worker round trip, and the report evidence
 * built from a result: plots (reports/README.md "plots" format), final values, call statistics,
 * events and the FMU log. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmuc/fmuc_sim.h"

static const char *const status_keys[FMUC_SIM_NSTATUS] = {
    "fmi2OK", "fmi2Warning", "fmi2Discard", "fmi2Error", "fmi2Fatal", "fmi2Pending", "invalid"};
/* the evidence's names for an FMI 3.0 run (the worker transfer keeps the keys above) */
static const char *const status_keys3[FMUC_SIM_NSTATUS] = {
    "fmi3OK", "fmi3Warning", "fmi3Discard", "fmi3Error", "fmi3Fatal", "pending", "invalid"};

static const char *event_kind_name(int k)
{
    switch (k) {
    case FMUC_SIM_EV_INIT: return "initial";
    case FMUC_SIM_EV_TIME: return "time";
    case FMUC_SIM_EV_STATE: return "state";
    case FMUC_SIM_EV_STEP: return "step";
    case FMUC_SIM_EV_INPUT: return "input";
    }
    return "?";
}

static int event_kind_parse(const char *s)
{
    for (int k = FMUC_SIM_EV_INIT; k <= FMUC_SIM_EV_INPUT; k++)
        if (s && strcmp(event_kind_name(k), s) == 0)
            return k;
    return FMUC_SIM_EV_INIT;
}

void fmuc_sim_result_free(fmuc_sim_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; r->cols && i < r->ncols; i++) {
        free(r->cols[i].name);
        free(r->cols[i].unit);
        free(r->cols[i].display_unit);
    }
    free(r->cols);
    free(r->times);
    free(r->values);
    free(r->events);
    free(r->bad);
    free(r->nonfinite);
    free(r->stop_reason);
    cJSON_Delete(r->inputs);
    memset(r, 0, sizeof *r);
}

long fmuc_sim_column_find(const fmuc_sim_result *r, const char *name)
{
    for (size_t i = 0; i < r->ncols; i++)
        if (r->cols[i].name && strcmp(r->cols[i].name, name) == 0)
            return (long)i;
    return -1;
}

static void add_num(cJSON *o, const char *k, double v)
{
    cJSON_AddNumberToObject(o, k, v); /* cJSON writes NaN/inf as null */
}

cJSON *fmuc_sim_result_to_json(const fmuc_sim_result *r)
{
    cJSON *j = cJSON_CreateObject();
    if (!j)
        return NULL;
    cJSON_AddStringToObject(j, "interface",
                            r->iface == FMUC_IFACE_ME ? "ModelExchange" : "CoSimulation");
    add_num(j, "fmi_version", r->fmi_version ? r->fmi_version : 2);
    add_num(j, "start", r->start);
    add_num(j, "stop", r->stop);
    add_num(j, "step", r->step);
    add_num(j, "tolerance", r->tolerance);
    cJSON_AddBoolToObject(j, "tolerance_defined", r->tolerance_defined);
    cJSON *cols = cJSON_AddArrayToObject(j, "columns");
    for (size_t i = 0; cols && i < r->ncols; i++) {
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "name", r->cols[i].name);
        add_num(c, "vr", r->cols[i].vr);
        add_num(c, "index", r->cols[i].var_index);
        add_num(c, "type", r->cols[i].type);
        add_num(c, "causality", r->cols[i].causality);
        if (r->cols[i].unit)
            cJSON_AddStringToObject(c, "unit", r->cols[i].unit);
        if (r->cols[i].display_unit) {
            cJSON_AddStringToObject(c, "display_unit", r->cols[i].display_unit);
            add_num(c, "display_factor", r->cols[i].display_factor);
            add_num(c, "display_offset", r->cols[i].display_offset);
        }
        cJSON_AddItemToArray(cols, c);
    }
    /* exact and cheap: bit patterns, not printed numbers */
    add_num(j, "npoints", (double)r->npoints);
    cJSON_AddItemToObject(j, "times", fmuc_worker_f64_to_json(r->times, r->npoints));
    cJSON_AddItemToObject(j, "values", fmuc_worker_f64_to_json(r->values, r->npoints * r->ncols));
    cJSON *ev = cJSON_AddArrayToObject(j, "events");
    for (size_t i = 0; ev && i < r->nevents; i++) {
        cJSON *e = cJSON_CreateObject();
        add_num(e, "t", r->events[i].t);
        cJSON_AddStringToObject(e, "kind", event_kind_name(r->events[i].kind));
        add_num(e, "iterations", r->events[i].iterations);
        cJSON_AddBoolToObject(e, "states_changed", r->events[i].states_changed);
        add_num(e, "root", r->events[i].root);
        cJSON_AddItemToArray(ev, e);
    }
    add_num(j, "nevents", (double)(r->nevents + r->events_dropped)); /* every event */
    cJSON *calls = cJSON_AddObjectToObject(j, "calls");
    for (int fn = 0; calls && fn < FMUC_SIM_NFN; fn++) {
        cJSON *o = NULL;
        for (int k = 0; k < FMUC_SIM_NSTATUS; k++) {
            if (!r->status_counts[fn][k])
                continue;
            if (!o)
                o = cJSON_AddObjectToObject(calls, fmuc_sim_fn_name(fn));
            add_num(o, status_keys[k], (double)r->status_counts[fn][k]);
        }
    }
    cJSON *bad = cJSON_AddArrayToObject(j, "bad_calls");
    for (size_t i = 0; bad && i < r->nbad; i++) {
        cJSON *b = cJSON_CreateObject();
        cJSON_AddStringToObject(b, "call", fmuc_sim_fn_name(r->bad[i].fn));
        add_num(b, "status", r->bad[i].status);
        add_num(b, "t", r->bad[i].t);
        cJSON_AddStringToObject(b, "detail", r->bad[i].detail);
        cJSON_AddItemToArray(bad, b);
    }
    add_num(j, "bad_dropped", (double)r->bad_dropped);
    cJSON *nf = cJSON_AddArrayToObject(j, "nonfinite");
    for (size_t i = 0; nf && i < r->nnonfinite; i++) {
        cJSON *b = cJSON_CreateObject();
        add_num(b, "t", r->nonfinite[i].t);
        cJSON_AddStringToObject(b, "what", r->nonfinite[i].what);
        cJSON_AddStringToObject(b, "name", r->nonfinite[i].name);
        double v = r->nonfinite[i].value;
        cJSON_AddStringToObject(b, "value", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
        cJSON_AddItemToArray(nf, b);
    }
    add_num(j, "nonfinite_dropped", (double)r->nonfinite_dropped);
    add_num(j, "steps", (double)r->steps);
    add_num(j, "rhs_evals", (double)r->rhs_evals);
    add_num(j, "root_evals", (double)r->root_evals);
    add_num(j, "start_cpu_s", r->start_cpu_s);
    add_num(j, "run_cpu_s", r->run_cpu_s);
    cJSON_AddBoolToObject(j, "completed", r->completed);
    cJSON_AddBoolToObject(j, "terminated_by_fmu", r->terminated_by_fmu);
    cJSON_AddBoolToObject(j, "instantiate_failed", r->instantiate_failed);
    cJSON_AddBoolToObject(j, "event_iteration_overflow", r->event_iteration_overflow);
    add_num(j, "end_time", r->end_time);
    add_num(j, "last_successful_time", r->last_successful_time);
    if (r->time_mismatches) {
        add_num(j, "time_mismatches", (double)r->time_mismatches);
        add_num(j, "time_bad_t", r->time_bad_t);
        add_num(j, "time_bad_value", r->time_bad_value);
        add_num(j, "time_vr", r->time_vr);
    }
    if (r->stop_reason)
        cJSON_AddStringToObject(j, "stop_reason", r->stop_reason);
    if (r->inputs)
        cJSON_AddItemToObject(j, "inputs", cJSON_Duplicate(r->inputs, 1));
    return j;
}

static double jnum(const cJSON *o, const char *k)
{
    const cJSON *i = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(i) ? i->valuedouble : NAN;
}

static int jbool(const cJSON *o, const char *k)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, k));
}

static char *jstrdup(const cJSON *o, const char *k)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));
    return s ? strdup(s) : NULL;
}

static size_t jcount(double v)
{
    return isfinite(v) && v > 0 ? (size_t)v : 0;
}

fmuc_err fmuc_sim_result_from_json(fmuc_sim_result *r, const cJSON *j)
{
    memset(r, 0, sizeof *r);
    if (!cJSON_IsObject(j))
        return FMUC_ERROR;
    const char *iface = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "interface"));
    r->iface = iface && strcmp(iface, "ModelExchange") == 0 ? FMUC_IFACE_ME : FMUC_IFACE_CS;
    r->fmi_version = jnum(j, "fmi_version") == 3.0 ? 3 : jnum(j, "fmi_version") == 1.0 ? 1 : 2;
    r->start = jnum(j, "start");
    r->stop = jnum(j, "stop");
    r->step = jnum(j, "step");
    r->tolerance = jnum(j, "tolerance");
    r->tolerance_defined = jbool(j, "tolerance_defined");
    const cJSON *cols = cJSON_GetObjectItemCaseSensitive(j, "columns");
    const cJSON *times = cJSON_GetObjectItemCaseSensitive(j, "times");
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(j, "values");
    double np = jnum(j, "npoints");
    if (!cJSON_IsArray(cols) || !cJSON_IsString(times) || !cJSON_IsString(values) ||
        !(np >= 0 && np <= 1e15) || np != (double)(size_t)np)
        return FMUC_ERROR;
    r->ncols = (size_t)cJSON_GetArraySize(cols);
    r->npoints = (size_t)np;
    r->cols = calloc(r->ncols ? r->ncols : 1, sizeof *r->cols);
    r->times = fmuc_worker_f64_from_json(times, r->npoints);
    r->values = r->ncols && r->npoints > SIZE_MAX / r->ncols
                    ? NULL
                    : fmuc_worker_f64_from_json(values, r->npoints * r->ncols);
    r->bad = calloc(200, sizeof *r->bad);
    r->nonfinite = calloc(50, sizeof *r->nonfinite);
    if (!r->cols || !r->times || !r->values || !r->bad || !r->nonfinite)
        goto bad;
    size_t i = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, cols)
    {
        fmuc_sim_column *c = &r->cols[i++];
        c->name = jstrdup(it, "name");
        if (!c->name)
            c->name = strdup("?");
        c->unit = jstrdup(it, "unit");
        c->display_unit = jstrdup(it, "display_unit");
        c->display_factor = c->display_unit ? jnum(it, "display_factor") : 1.0;
        c->display_offset = c->display_unit ? jnum(it, "display_offset") : 0.0;
        c->vr = (uint32_t)jcount(jnum(it, "vr"));
        c->var_index = (uint32_t)jcount(jnum(it, "index"));
        c->type = (int)jcount(jnum(it, "type"));
        c->causality = (int)jcount(jnum(it, "causality"));
    }
    const cJSON *ev = cJSON_GetObjectItemCaseSensitive(j, "events");
    size_t nev = cJSON_IsArray(ev) ? (size_t)cJSON_GetArraySize(ev) : 0;
    r->events = calloc(nev ? nev : 1, sizeof *r->events);
    if (!r->events)
        goto bad;
    i = 0;
    cJSON_ArrayForEach(it, ev)
    {
        fmuc_sim_event *e = &r->events[i++];
        e->t = jnum(it, "t");
        e->kind = event_kind_parse(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "kind")));
        e->iterations = (unsigned)jcount(jnum(it, "iterations"));
        e->states_changed = jbool(it, "states_changed");
        double root = jnum(it, "root");
        e->root = isfinite(root) ? (int)root : -1;
    }
    size_t all = jcount(jnum(j, "nevents"));
    r->nevents = nev;
    r->events_dropped = all > nev ? all - nev : 0;
    const cJSON *calls = cJSON_GetObjectItemCaseSensitive(j, "calls");
    for (int fn = 0; fn < FMUC_SIM_NFN; fn++) {
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(calls, fmuc_sim_fn_name(fn));
        for (int k = 0; o && k < FMUC_SIM_NSTATUS; k++)
            r->status_counts[fn][k] = jcount(jnum(o, status_keys[k]));
    }
    const cJSON *bad = cJSON_GetObjectItemCaseSensitive(j, "bad_calls");
    cJSON_ArrayForEach(it, bad)
    {
        if (r->nbad >= 200)
            break;
        fmuc_sim_bad_call *b = &r->bad[r->nbad++];
        const char *call = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "call"));
        b->fn = 0;
        for (int fn = 0; call && fn < FMUC_SIM_NFN; fn++)
            if (strcmp(fmuc_sim_fn_name(fn), call) == 0)
                b->fn = fn;
        double st = jnum(it, "status");
        b->status = isfinite(st) ? (int)st : -1;
        b->t = jnum(it, "t");
        const char *d = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "detail"));
        snprintf(b->detail, sizeof b->detail, "%s", d ? d : "");
    }
    r->bad_dropped = jcount(jnum(j, "bad_dropped"));
    const cJSON *nf = cJSON_GetObjectItemCaseSensitive(j, "nonfinite");
    cJSON_ArrayForEach(it, nf)
    {
        if (r->nnonfinite >= 50)
            break;
        fmuc_sim_nonfinite *n = &r->nonfinite[r->nnonfinite++];
        n->t = jnum(it, "t");
        const char *w = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "what"));
        const char *nm = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "name"));
        const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "value"));
        snprintf(n->what, sizeof n->what, "%s", w ? w : "?");
        snprintf(n->name, sizeof n->name, "%s", nm ? nm : "?");
        n->value = v && strcmp(v, "inf") == 0 ? HUGE_VAL : v && strcmp(v, "-inf") == 0 ? -HUGE_VAL : NAN;
    }
    r->nonfinite_dropped = jcount(jnum(j, "nonfinite_dropped"));
    r->steps = jcount(jnum(j, "steps"));
    r->rhs_evals = jcount(jnum(j, "rhs_evals"));
    r->root_evals = jcount(jnum(j, "root_evals"));
    double sc = jnum(j, "start_cpu_s");
    r->start_cpu_s = isfinite(sc) && sc > 0.0 ? sc : 0.0;
    double rc = jnum(j, "run_cpu_s");
    r->run_cpu_s = isfinite(rc) && rc > 0.0 ? rc : 0.0;
    r->completed = jbool(j, "completed");
    r->terminated_by_fmu = jbool(j, "terminated_by_fmu");
    r->instantiate_failed = jbool(j, "instantiate_failed");
    r->event_iteration_overflow = jbool(j, "event_iteration_overflow");
    r->end_time = jnum(j, "end_time");
    r->last_successful_time = jnum(j, "last_successful_time");
    r->time_mismatches = jcount(jnum(j, "time_mismatches"));
    if (r->time_mismatches) {
        r->time_bad_t = jnum(j, "time_bad_t");
        r->time_bad_value = jnum(j, "time_bad_value");
        r->time_vr = (uint32_t)jcount(jnum(j, "time_vr"));
    }
    r->stop_reason = jstrdup(j, "stop_reason");
    const cJSON *in = cJSON_GetObjectItemCaseSensitive(j, "inputs");
    if (in)
        r->inputs = cJSON_Duplicate(in, 1);
    return FMUC_OK;
bad:
    fmuc_sim_result_free(r);
    return FMUC_ERROR;
}

/* ---- evidence ----------------------------------------------------------------------------- */

static int same_unit(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

/* The unit a plot shows column c in: its display unit when it has one, else its unit. */
static const char *plot_unit(const fmuc_sim_column *c)
{
    return c->display_unit ? c->display_unit : c->unit;
}

/* Column k's values for a plot: in its display unit (display = factor*value + offset). */
static cJSON *plot_values(const fmuc_sim_result *r, size_t k)
{
    const fmuc_sim_column *c = &r->cols[k];
    if (!c->display_unit)
        return fmuc_evidence_numbers(r->values + k, r->npoints, r->ncols, 1);
    double *v = malloc(r->npoints * sizeof *v);
    if (!v)
        return NULL;
    for (size_t i = 0; i < r->npoints; i++)
        v[i] = c->display_factor * r->values[i * r->ncols + k] + c->display_offset;
    cJSON *a = fmuc_evidence_numbers(v, r->npoints, 1, 1);
    free(v);
    return a;
}

void fmuc_sim_add_plots(const fmuc_sim_result *r, cJSON *evidence, const char *title_prefix)
{
    if (!evidence || !r->npoints || !r->ncols)
        return;
    cJSON *plots = cJSON_GetObjectItemCaseSensitive(evidence, "plots");
    if (!cJSON_IsArray(plots))
        plots = cJSON_AddArrayToObject(evidence, "plots");
    if (!plots)
        return;
    unsigned char *used = calloc(r->ncols, 1);
    if (!used)
        return;
    int nplots = 0;
    cJSON *xs = NULL;
    for (size_t i = 0; i < r->ncols && nplots < 8; i++) {
        if (used[i])
            continue;
        cJSON *p = cJSON_CreateObject();
        char title[256];
        const char *unit = plot_unit(&r->cols[i]);
        snprintf(title, sizeof title, "%s%s%s", title_prefix ? title_prefix : "simulation",
                 unit ? " [" : "", unit ? unit : "");
        if (unit)
            snprintf(title + strlen(title), sizeof title - strlen(title), "]");
        cJSON_AddStringToObject(p, "title", title);
        /* axis units as data: the reporter prints "time [s]", "[unit]" */
        cJSON_AddStringToObject(p, "xlabel", "time");
        cJSON_AddStringToObject(p, "xunit", "s");
        if (unit)
            cJSON_AddStringToObject(p, "yunit", unit);
        /* every plot has the same time axis: print it once */
        if (!xs)
            xs = fmuc_evidence_numbers(r->times, r->npoints, 1, 1);
        cJSON_AddItemToObject(p, "x", cJSON_Duplicate(xs, 1));
        cJSON *series = cJSON_AddArrayToObject(p, "series");
        int n = 0;
        for (size_t k = i; k < r->ncols && n < 8; k++) {
            if (used[k] || !same_unit(unit, plot_unit(&r->cols[k])))
                continue;
            used[k] = 1;
            n++;
            cJSON *s = cJSON_CreateObject();
            cJSON_AddStringToObject(s, "name", r->cols[k].name);
            cJSON_AddItemToObject(s, "y", plot_values(r, k));
            cJSON_AddItemToArray(series, s);
        }
        cJSON_AddItemToArray(plots, p);
        nplots++;
    }
    cJSON_Delete(xs);
    free(used);
}

void fmuc_sim_add_summary(const fmuc_sim_result *r, cJSON *evidence)
{
    if (!evidence)
        return;
    cJSON *run = cJSON_AddObjectToObject(evidence, "simulation");
    if (run) {
        cJSON_AddStringToObject(run, "interface",
                                r->iface == FMUC_IFACE_ME ? "ModelExchange" : "CoSimulation");
        add_num(run, "start", r->start);
        add_num(run, "stop", r->stop);
        add_num(run, "step", r->step);
        if (r->tolerance_defined)
            add_num(run, "tolerance", r->tolerance);
        add_num(run, "end_time", r->end_time);
        add_num(run, "steps", (double)r->steps);
        if (r->iface == FMUC_IFACE_ME) {
            add_num(run, "rhs_evaluations", (double)r->rhs_evals);
            add_num(run, "indicator_evaluations", (double)r->root_evals);
            cJSON_AddStringToObject(run, "integrator", "CVODE BDF, dense Newton, rtol=tolerance, atol=rtol*nominal");
        }
        add_num(run, "output_points", (double)r->npoints);
        cJSON_AddBoolToObject(run, "completed", r->completed);
        if (r->terminated_by_fmu)
            cJSON_AddBoolToObject(run, "terminated_by_fmu", 1);
        if (r->stop_reason)
            cJSON_AddStringToObject(run, "stop_reason", r->stop_reason);
    }
    if (r->inputs)
        cJSON_AddItemToObject(evidence, "inputs", cJSON_Duplicate(r->inputs, 1));
    if (r->npoints) {
        cJSON *fv = cJSON_AddObjectToObject(evidence, "final_values");
        for (size_t k = 0; fv && k < r->ncols; k++)
            add_num(fv, r->cols[k].name, fmuc_sim_value(r, r->npoints - 1, k));
    }
    if (r->nevents) {
        cJSON *ev = cJSON_AddObjectToObject(evidence, "events");
        add_num(ev, "count", (double)(r->nevents + r->events_dropped));
        size_t counts[5] = {0};
        size_t kept = r->nevents;
        if (r->events_dropped)
            add_num(ev, "kept", (double)kept); /* the kinds below count these */
        for (size_t i = 0; i < kept; i++)
            if (r->events[i].kind >= 0 && r->events[i].kind < 5)
                counts[r->events[i].kind]++;
        for (int k = 0; k < 5; k++)
            if (counts[k])
                add_num(ev, event_kind_name(k), (double)counts[k]);
        cJSON *first = cJSON_AddArrayToObject(ev, "first");
        for (size_t i = 0; first && i < kept && i < 20; i++) {
            char b[128];
            snprintf(b, sizeof b, "t=%.9g %s (%u iterations%s)", r->events[i].t,
                     event_kind_name(r->events[i].kind), r->events[i].iterations,
                     r->events[i].states_changed ? ", states changed" : "");
            cJSON_AddItemToArray(first, cJSON_CreateString(b));
        }
    }
    cJSON *calls = cJSON_AddObjectToObject(evidence, "calls");
    for (int fn = 0; calls && fn < FMUC_SIM_NFN; fn++) {
        cJSON *o = NULL;
        char nb[64];
        for (int k = 0; k < FMUC_SIM_NSTATUS; k++) {
            if (!r->status_counts[fn][k])
                continue;
            if (!o)
                o = cJSON_AddObjectToObject(calls, fmuc_sim_fn_name_v(r->fmi_version, r->iface,
                                                                      fn, nb, sizeof nb));
            add_num(o, r->fmi_version == 3 ? status_keys3[k] : status_keys[k],
                    (double)r->status_counts[fn][k]);
        }
    }
}

void fmuc_sim_add_log(const fmuc_worker_outcome *o, cJSON *evidence)
{
    if (!evidence || !o->log || cJSON_GetArraySize(o->log) == 0)
        return;
    cJSON *log = cJSON_GetObjectItemCaseSensitive(evidence, "log");
    if (!cJSON_IsArray(log))
        log = cJSON_AddArrayToObject(evidence, "log");
    const cJSON *it;
    cJSON_ArrayForEach(it, o->log)
    {
        if (!log || cJSON_GetArraySize(log) >= 500)
            break;
        cJSON_AddItemToArray(log, cJSON_Duplicate(it, 1));
    }
}

/* ---- worker round trip -------------------------------------------------------------------- */

typedef struct iso_payload {
    const fmuc_sim_config *cfg;
} iso_payload;

static int iso_worker(fmuc_worker_ctx *ctx, void *payload)
{
    const iso_payload *p = payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    fmuc_worker_release_mark mark;
    fmuc_worker_release_begin(ctx, &mark); /* before the library: its threads count too */
    if (fmuc_inst_load(ctx, (fmuc_iface)p->cfg->iface) < 0) {
        cJSON_AddStringToObject(reply, "load_error", fmuc_worker_load_error(ctx));
        return 1;
    }
    fmuc_sim_result r;
    fmuc_diag d = {{0}, FMUC_OK};
    int rc = fmuc_sim_run(ctx, p->cfg, &r, &d);
    if (rc < 0)
        cJSON_AddStringToObject(reply, "harness_error", d.msg);
    else
        cJSON_AddItemToObject(reply, "sim", fmuc_sim_result_to_json(&r));
    /* when the run freed its instance (not after fmi2Fatal); no wait for threads still
     * running: one that crashed here would sink the whole run (api-resources-released waits
     * in a session of its own then) */
    if (rc >= 0 && p->cfg->observe_release &&
        r.status_counts[FMUC_SIM_FN_FreeInstance][FMUC_STATUS_OK] > 0)
        fmuc_worker_release_end(ctx, &mark, cJSON_AddObjectToObject(reply, "release"), 0);
    fmuc_sim_result_free(&r);
    return rc < 0 ? 2 : 0;
}

int fmuc_sim_run_isolated(const fmuc_fmu *fmu, const fmuc_options *opts,
                          const fmuc_sim_config *cfg, const char *label, fmuc_sim_result *out,
                          fmuc_worker_outcome *o, fmuc_result *res)
{
    memset(out, 0, sizeof *out);
    memset(o, 0, sizeof *o);
    fmuc_sim_config c = *cfg;
    fmuc_sim_input in;
    int have_in = 0, rc = -1;
    memset(&in, 0, sizeof in);
    if (!fmu->md_parsed) {
        fmuc_result_error(res, "%s: no parsed model description", label ? label : "simulation");
        return -1;
    }
    if (!c.no_excitation && !c.input && c.input_csv) {
        fmuc_diag d = {{0}, FMUC_OK};
        if (fmuc_sim_input_load_csv(&in, c.input_csv, &fmu->md, &d) < 0) {
            fmuc_result_error(res, "input: %s", d.msg);
            return -1;
        }
        have_in = 1;
        c.input = &in;
    }
    fmuc_worker_spec spec;
    fmuc_worker_spec_init(&spec, fmu, opts);
    spec.label = label;
    spec.record_sandbox = c.record_sandbox ? FMUC_RECORD_ONLY : 0;
    iso_payload p = {&c};
    fmuc_diag d = {{0}, FMUC_OK};
    if (fmuc_worker_run(&spec, iso_worker, &p, o, &d) < 0) {
        fmuc_result_error(res, "could not start a worker: %s", d.msg);
        goto done;
    }
    fmuc_sim_add_log(o, fmuc_result_evidence(res));
    /* the attempts were recorded for api-sandbox, which names them */
    if (fmuc_worker_outcome_to_result_ex(o, res,
                                         c.record_sandbox ? FMUC_OUTCOME_NO_SANDBOX_NOTE : 0))
        goto done;
    const char *le = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o->reply, "load_error"));
    const char *he = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o->reply, "harness_error"));
    if (le) {
        fmuc_result_na(res, "the %s library does not load (see load-dlopen): %s",
                       cfg->iface == FMUC_IFACE_ME ? "ModelExchange" : "CoSimulation", le);
        rc = 1;
        goto done;
    }
    if (he) {
        fmuc_result_error(res, "simulation: %s", he);
        goto done;
    }
    if (fmuc_sim_result_from_json(out, cJSON_GetObjectItemCaseSensitive(o->reply, "sim")) < 0) {
        fmuc_result_error(res, "simulation: malformed result from the worker");
        goto done;
    }
    rc = 0;
done:
    if (have_in)
        fmuc_sim_input_free(&in);
    return rc;
}
