/* me-energy-residual (opt-in): energy bookkeeping of a damped mechanical model simulated through
 * Model Exchange. The run's options name a JSON spec (--energy-spec FILE, fmuc_options.energy_spec):
 *   {"energy": "E", "velocity": "v", "damping": "c"}      damping: variable name or number
 *   optional "t0", "t1" (default: the default experiment), "tolerance" (default 1e-8),
 *   "limit" (default 1e-4)
 * The CVODE host loop runs at rtol 1e-8 (atol = rtol·nominal) on a fine grid (2000 intervals) and
 *   ε_E = |E(t1) − E(t0) + ∫ c·v² dt| / |E(t0)|      (composite Simpson on the grid)
 * must stay ≤ 1e-4: the energy an FMU reports has to match the power its damping dissipates.
 * Not an FMI rule but a plausibility test of the results (FMI 2.0.4 §3.1); reported as a warning.
 * Not applicable without a spec. FMI 3.0 ME (§3.1) alike: the spec names scalar Float64 or
 * Float32 variables or single elements of array variables, "Fz[2]", "A[1,2]" (1-based indices,
 * one per <Dimension>, row-major: me_varref.h); an array named without an index, an index on a
 * scalar, the wrong number of indices or one out of range is an error naming the spec text. */
#include <errno.h>

#include "fmuc/fmuc_sim.h"
#include "me_util.h"
#include "me_varref.h"

#define DEFAULT_LIMIT 1e-4
#define DEFAULT_TOL 1e-8
#define NINTERVALS 2000

typedef struct energy_spec {
    char energy[256], velocity[256], damping_name[256];
    double damping;        /* when given as a number (damping_name empty) */
    double t0, t1, tol, limit;
    int has_t0, has_t1;
} energy_spec;

static int read_spec(const char *path, energy_spec *sp, fmuc_result *res)
{
    memset(sp, 0, sizeof *sp);
    sp->tol = DEFAULT_TOL;
    sp->limit = DEFAULT_LIMIT;
    FILE *f = fopen(path, "rb");
    if (!f) {
        fmuc_result_error(res, "energy spec '%s': cannot open: %s", path, strerror(errno));
        return -1;
    }
    char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    cJSON *j = cJSON_Parse(buf);
    if (!cJSON_IsObject(j)) {
        fmuc_result_error(res, "energy spec '%s': not a JSON object", path);
        cJSON_Delete(j);
        return -1;
    }
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "energy");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "velocity");
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(j, "damping");
    int rc = 0;
    if (!cJSON_IsString(e) || !cJSON_IsString(v) || !(cJSON_IsString(c) || cJSON_IsNumber(c))) {
        fmuc_result_error(res, "energy spec '%s': needs \"energy\" and \"velocity\" (variable "
                               "names) and \"damping\" (a variable name or a number)", path);
        rc = -1;
        goto out;
    }
    snprintf(sp->energy, sizeof sp->energy, "%s", e->valuestring);
    snprintf(sp->velocity, sizeof sp->velocity, "%s", v->valuestring);
    if (cJSON_IsString(c))
        snprintf(sp->damping_name, sizeof sp->damping_name, "%s", c->valuestring);
    else
        sp->damping = c->valuedouble;
    const cJSON *x;
    if (cJSON_IsNumber(x = cJSON_GetObjectItemCaseSensitive(j, "t0"))) {
        sp->t0 = x->valuedouble;
        sp->has_t0 = 1;
    }
    if (cJSON_IsNumber(x = cJSON_GetObjectItemCaseSensitive(j, "t1"))) {
        sp->t1 = x->valuedouble;
        sp->has_t1 = 1;
    }
    if (cJSON_IsNumber(x = cJSON_GetObjectItemCaseSensitive(j, "tolerance")) && x->valuedouble > 0)
        sp->tol = x->valuedouble;
    if (cJSON_IsNumber(x = cJSON_GetObjectItemCaseSensitive(j, "limit")) && x->valuedouble > 0)
        sp->limit = x->valuedouble;
out:
    cJSON_Delete(j);
    return rc;
}

/* ∫ y dt over the grid: composite Simpson when uniform with an even number of intervals. */
static double integrate(const double *t, const double *y, size_t n, const char **method)
{
    if (n < 2) {
        *method = "none";
        return 0.0;
    }
    double h = (t[n - 1] - t[0]) / (double)(n - 1);
    int uniform = (n - 1) % 2 == 0;
    for (size_t k = 1; k < n && uniform; k++)
        uniform = fabs((t[k] - t[k - 1]) - h) <= 1e-9 * fabs(h);
    if (uniform && n >= 3) {
        double s = y[0] + y[n - 1];
        for (size_t k = 1; k + 1 < n; k++)
            s += (k % 2 ? 4.0 : 2.0) * y[k];
        *method = "composite Simpson";
        return s * h / 3.0;
    }
    double s = 0.0;
    for (size_t k = 1; k < n; k++)
        s += 0.5 * (t[k] - t[k - 1]) * (y[k] + y[k - 1]);
    *method = "trapezoid";
    return s;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    if (!s->opts || !s->opts->energy_spec || !*s->opts->energy_spec) {
        fmuc_result_na(res, "no energy spec given (opt-in: --energy-spec FILE.json with "
                            "{\"energy\", \"velocity\", \"damping\"})");
        return;
    }
    if (!md->me.present || !s->fmu->lib_path_me) {
        fmuc_result_na(res, "no ModelExchange interface with a binary for this platform");
        return;
    }
    energy_spec sp;
    if (read_spec(s->opts->energy_spec, &sp, res) < 0)
        return;
    /* the variables, or elements of FMI 3.0 array variables, the spec names */
    fmuc_me_varref re, rv;
    char why[768];
    if (fmuc_me__varref_parse(md, "energy", sp.energy, 1, &re, why, sizeof why) < 0 ||
        fmuc_me__varref_parse(md, "velocity", sp.velocity, 1, &rv, why, sizeof why) < 0) {
        fmuc_result_error(res, "energy spec: %s", why);
        return;
    }
    const fmuc_md_var *ve = &md->vars[re.var], *vv = &md->vars[rv.var];
    if (ve->type != FMUC_TYPE_REAL || vv->type != FMUC_TYPE_REAL) {
        fmuc_result_error(res, "energy spec: %s '%s' is not a %s variable of the model",
                          ve->type != FMUC_TYPE_REAL ? "energy" : "velocity",
                          ve->type != FMUC_TYPE_REAL ? sp.energy : sp.velocity,
                          md->fmi == FMUC_FMI3 ? "Float64 or Float32" : "Real");
        return;
    }
    double cdamp = sp.damping;
    if (sp.damping_name[0]) {
        fmuc_me_varref rc;
        if (fmuc_me__varref_parse(md, "damping", sp.damping_name, 1, &rc, why, sizeof why) < 0) {
            fmuc_result_error(res, "energy spec: %s", why);
            return;
        }
        const fmuc_md_var *vc = &md->vars[rc.var];
        if (rc.element) {
            fmuc_result_error(res, "energy spec: damping '%s' is an element of the array "
                                   "parameter '%s'; give its value as a number",
                              sp.damping_name, vc->name);
            return;
        }
        if (vc->type != FMUC_TYPE_REAL || !(vc->has & FMUC_HAS_START) ||
            (vc->causality != FMUC_CAUS_PARAMETER && vc->variability != FMUC_VAR_CONSTANT)) {
            fmuc_result_error(res, "energy spec: damping '%s' is not a Real parameter or constant "
                                   "with a start value", sp.damping_name);
            return;
        }
        cdamp = vc->start;
    }
    fmuc_sim_config cfg;
    fmuc_sim_result r;
    fmuc_worker_outcome o;
    fmuc_sim_config_init(&cfg, FMUC_IFACE_ME);
    const fmuc_md_experiment *ex = &md->experiment;
    cfg.start = sp.has_t0 ? sp.t0 : (ex->present && ex->has_start ? ex->start_time : 0.0);
    cfg.stop = sp.has_t1 ? sp.t1 : (ex->present && ex->has_stop ? ex->stop_time : cfg.start + 1.0);
    if (!(cfg.stop > cfg.start)) {
        fmuc_result_error(res, "energy spec: empty interval [%g, %g]", cfg.start, cfg.stop);
        return;
    }
    cfg.step = (cfg.stop - cfg.start) / NINTERVALS;
    cfg.tolerance = sp.tol;
    cfg.no_excitation = 1; /* free motion: the balance has no external work term */
    cfg.record_inputs = 0;
    cfg.record_all_reals = !(ve->causality == FMUC_CAUS_OUTPUT && vv->causality == FMUC_CAUS_OUTPUT);
    cfg.max_event_iterations = MEU_MAX_EVENT_ITERATIONS;
    int rc = fmuc_sim_run_isolated(s->fmu, s->opts, &cfg, "me-energy-residual", &r, &o, res);
    apiu_note_death(s, res, FMUC_IFACE_ME, &o);
    fmuc_worker_outcome_free(&o);
    if (rc != 0) {
        fmuc_sim_result_free(&r);
        return;
    }
    long ce = fmuc_sim_column_find(&r, re.column), cv = fmuc_sim_column_find(&r, rv.column);
    double *pw = calloc(r.npoints ? r.npoints : 1, sizeof *pw);
    double *ee = calloc(r.npoints ? r.npoints : 1, sizeof *ee);
    if (!pw || !ee) {
        fmuc_result_error(res, "out of memory");
        goto out;
    }
    if (!r.completed || ce < 0 || cv < 0 || r.npoints < 3) {
        fmuc_result_na(res, "the ME run %s; energy balance not evaluated (see me-nominal-run)",
                       !r.completed ? "did not reach t1" : "did not record the spec's variables");
        goto out;
    }
    for (size_t k = 0; k < r.npoints; k++) {
        double v = fmuc_sim_value(&r, k, (size_t)cv);
        pw[k] = cdamp * v * v;
        ee[k] = fmuc_sim_value(&r, k, (size_t)ce);
    }
    const char *method = "";
    double diss = integrate(r.times, pw, r.npoints, &method);
    double e0 = ee[0], e1 = ee[r.npoints - 1];
    double scale = fabs(e0);
    if (!(scale > 0.0))
        for (size_t k = 0; k < r.npoints; k++)
            scale = fabs(ee[k]) > scale ? fabs(ee[k]) : scale;
    double resid = e1 - e0 + diss;
    double eps = scale > 0.0 ? fabs(resid) / scale : (resid == 0.0 ? 0.0 : INFINITY);
    cJSON *ev = fmuc_result_evidence(res);
    cJSON_AddStringToObject(ev, "spec", s->opts->energy_spec);
    cJSON_AddStringToObject(ev, "energy", sp.energy);
    cJSON_AddStringToObject(ev, "velocity", sp.velocity);
    cJSON_AddNumberToObject(ev, "damping", cdamp);
    cJSON_AddNumberToObject(ev, "t0", r.times[0]);
    cJSON_AddNumberToObject(ev, "t1", r.times[r.npoints - 1]);
    cJSON_AddNumberToObject(ev, "rtol", sp.tol);
    cJSON_AddStringToObject(ev, "atol", "rtol * nominal per state (host loop)");
    cJSON_AddStringToObject(ev, "quadrature", method);
    cJSON_AddNumberToObject(ev, "E0", e0);
    cJSON_AddNumberToObject(ev, "E1", e1);
    cJSON_AddNumberToObject(ev, "delta_E", e1 - e0);
    cJSON_AddNumberToObject(ev, "dissipated", diss);
    cJSON_AddNumberToObject(ev, "residual", resid);
    cJSON_AddNumberToObject(ev, "eps_E", isfinite(eps) ? eps : 1e300);
    cJSON_AddNumberToObject(ev, "limit", sp.limit);
    /* plot: E(t) and E0 - cumulative dissipation (they coincide for a consistent model) */
    cJSON *plots = cJSON_AddArrayToObject(ev, "plots");
    cJSON *pl = cJSON_CreateObject();
    cJSON_AddStringToObject(pl, "title", "energy: E(t) vs E(t0) - integral of c v^2");
    cJSON_AddStringToObject(pl, "xlabel", "time");
    cJSON_AddStringToObject(pl, "xunit", "s");
    cJSON_AddStringToObject(pl, "ylabel", "energy");
    /* the energy variable's unit (its display unit, values converted, when it has one) */
    fmuc_sim_column eu;
    memset(&eu, 0, sizeof eu);
    fmuc_sim_column_units(md, ve, &eu);
    double ef = eu.display_unit ? eu.display_factor : 1.0, eo = eu.display_unit ? eu.display_offset : 0.0;
    if (eu.display_unit || eu.unit)
        cJSON_AddStringToObject(pl, "yunit", eu.display_unit ? eu.display_unit : eu.unit);
    free(eu.unit);
    free(eu.display_unit);
    cJSON *xs = cJSON_AddArrayToObject(pl, "x"), *series = cJSON_AddArrayToObject(pl, "series");
    cJSON *s1 = cJSON_CreateObject(), *s2 = cJSON_CreateObject();
    cJSON_AddStringToObject(s1, "name", sp.energy);
    cJSON_AddStringToObject(s2, "name", "E0 - dissipated");
    cJSON *y1 = cJSON_AddArrayToObject(s1, "y"), *y2 = cJSON_AddArrayToObject(s2, "y");
    cJSON_AddItemToArray(series, s1);
    cJSON_AddItemToArray(series, s2);
    double cum = 0.0;
    for (size_t k = 0; k < r.npoints; k++) {
        if (k)
            cum += 0.5 * (r.times[k] - r.times[k - 1]) * (pw[k] + pw[k - 1]);
        cJSON_AddItemToArray(xs, cJSON_CreateNumber(r.times[k]));
        cJSON_AddItemToArray(y1, isfinite(ee[k]) ? cJSON_CreateNumber(ef * ee[k] + eo)
                                                 : cJSON_CreateNull());
        cJSON_AddItemToArray(y2, cJSON_CreateNumber(ef * (e0 - cum) + eo));
    }
    cJSON_AddItemToArray(plots, pl);
    if (!(eps <= sp.limit))
        fmuc_result_violation(res, "energy balance over [%g, %g] s: E(t0) = %.6g, E(t1) = %.6g, "
                                   "∫ c·v² dt = %.6g (c = %g): ε_E = %.3g > %.0e — '%s' does not "
                                   "match the power dissipated by the damping",
                              r.times[0], r.times[r.npoints - 1], e0, e1, diss, cdamp, eps,
                              sp.limit, sp.energy);
    else
        fmuc_result_note(res, "E(t0) = %.6g, E(t1) = %.6g, dissipated %.6g: ε_E = %.3g (limit "
                              "%.0e)", e0, e1, diss, eps, sp.limit);
out:
    free(pw);
    free(ee);
    fmuc_sim_result_free(&r);
}

const fmuc_check fmuc_check_me_energy_residual = {
    .id = "me-energy-residual",
    .title = "Energy balance of a damped mechanical model (opt-in spec)",
    .spec = "FMI 2.0.4 §3.1; FMI 3.0.2 §3.1",
    .level = FMUC_LEVEL_SHOULD,
    .why = "An energy balance that does not close means the model or its export creates or loses "
           "energy; long simulations drift and results on dissipation or efficiency are wrong.",
    .fix = "Check the equations that exchange energy (damping, springs, sources) and the solver "
           "tolerance of the export, and recompute the energy variable named in the spec "
           "consistently.",
    .applies = FMUC_APPLIES_ME,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .run = run,
};
