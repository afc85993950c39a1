/* cs-variable-step: canHandleVariableCommunicationStepSize="true" promises that "the
 * communication step size (parameter communicationStepSize of fmi2DoStep) has not to be constant
 * for each call" (FMI 2.0.4 §4.3.1), and every fmi2DoStep "must integrate until time instant
 * tc + hc" (§4.2.2). Over a bounded horizon (a tenth of the default experiment's grid h, 10 to
 * 50 steps, cs_util.h; inputs held at their start values clamped to [min, max]) three runs are
 * made, each a fresh instance in its own worker: (A) the nominal grid h, (B) the constant grid
 * h/2, (C) alternating steps h/2, 3h/2. B and C must be accepted (fmi2OK/fmi2Warning) and agree
 * with A at the common points within a tolerance: 5 % of the output's range in A plus
 * 1e-6 * max|y| (C also gets twice the largest A-B difference: the FMU's own sensitivity to the
 * step size), a point also passing when the value lies within A's values over the neighbouring
 * points (an event located a little earlier or later). Where B misses, (D) the constant grid
 * h/4 tells the FMU's integration error from an ignored step: a difference that shrinks from
 * (h, h/2) to (h/2, h/4) to at most 0.6 times is an error of order >= 1 (noted). An FMU that
 * refuses the changed step fails; results that differ fail when most of the outputs that vary
 * differ (an ignored step size moves them all), and warn when only a minority does (a quantity
 * that is discontinuous in the state, such as the upstream enthalpy of a flow near zero, may
 * flip with any change of the grid).
 * Without the flag the master must keep the step constant (§4.3.1): only the constant grid B is
 * tried; a refusal is noted, a disagreement is a warning. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_util.h"

/* Steps of the nominal grid at most (a bounded horizon, issue 16 cause 6). */
#define CSVS_MIN_STEPS 10
#define CSVS_MAX_STEPS 50
#define CSVS_RTOL_RANGE 0.05
#define CSVS_MAX_REPORTED 8

enum { RUN_A = 0, RUN_B, RUN_C, RUN_D, NRUNS };
static const char *const run_name[NRUNS] = {"nominal grid h", "constant grid h/2",
                                            "alternating grid h/2, 3h/2", "constant grid h/4"};
/* A difference between h and h/2 is the FMU's integration error when the h/2-h/4 difference is
 * at most this fraction of it (an error that shrinks with the step, order >= 1). */
#define CSVS_CONVERGENCE 0.6

/* Grid of run r from the nominal grid a (n steps): B every half step, D every quarter step, C
 * alternating h/2, 3h/2 (common with A at every other point and at the end). Times are computed,
 * never accumulated, so that the common points are bit-identical to A's. map[i] is the A point
 * of grid point i, or (size_t)-1. */
static double *make_grid(const equ_plan *a, int r, size_t *nt, size_t **to_a)
{
    size_t n = a->nsteps, cap = 4 * n + 1, m = 0;
    double *t = malloc(cap * sizeof *t);
    size_t *map = malloc(cap * sizeof *map);
    if (!t || !map) {
        free(t);
        free(map);
        return NULL;
    }
    double t0 = a->t[0], h = (a->t[n] - t0) / (double)n;
    for (size_t k = 0; k < n; k++) {
        t[m] = a->t[k];
        map[m++] = k;
        if (r == RUN_B || r == RUN_D) {
            int sub = r == RUN_B ? 2 : 4;
            for (int q = 1; q < sub; q++) {
                t[m] = t0 + ((double)k + (double)q / sub) * h;
                map[m++] = (size_t)-1;
            }
        } else if (k % 2 == 0 && k + 1 < n) {
            t[m] = t0 + ((double)k + 0.5) * h; /* h/2, then 3h/2 to a->t[k + 2] */
            map[m++] = (size_t)-1;
            k++;
        }
    }
    t[m] = a->t[n];
    map[m++] = n;
    *nt = m;
    *to_a = map;
    return t;
}

typedef struct col_stats {
    double range, amax, ab_diff;
} col_stats;

/* How run y compares with A for one variable. */
typedef struct col_cmp {
    size_t misses, first; /* grid index of the worst miss */
    double worst, tol, max_diff;
} col_cmp;

static void compare(const equ_plan *a, const double *ya, const double *y, const size_t *map,
                    size_t nt, const col_stats *cs, int with_ab, col_cmp *out)
{
    size_t nout = a->nout;
    for (size_t j = 0; j < nout; j++) {
        const equ_var *v = &a->out[j];
        col_cmp *c = &out[j];
        memset(c, 0, sizeof *c);
        c->tol = CSVS_RTOL_RANGE * cs[j].range + 1e-6 * cs[j].amax + 1e-12;
        if (with_ab)
            c->tol += 2.0 * cs[j].ab_diff;
        if (v->type != FMUC_TYPE_REAL)
            c->tol = 0.0; /* Integer, Boolean, Enumeration: the same value (or a neighbour's) */
        for (size_t i = 0; i < nt; i++) {
            if (map[i] == (size_t)-1)
                continue;
            size_t k = map[i];
            double ref = ya[k * nout + j], x = y[i * nout + j];
            if (isnan(ref) && isnan(x))
                continue;
            double d = isnan(ref) != isnan(x) ? INFINITY : fabs(x - ref);
            c->max_diff = fmax(c->max_diff, d);
            if (d <= c->tol)
                continue;
            /* within A's values over the neighbouring points (an event a little earlier/later) */
            double lo = ref, hi = ref;
            for (size_t q = k ? k - 1 : 0; q <= k + 1 && q <= a->nsteps; q++) {
                lo = fmin(lo, ya[q * nout + j]);
                hi = fmax(hi, ya[q * nout + j]);
            }
            if (x >= lo - c->tol && x <= hi + c->tol)
                continue;
            if (!c->misses++ || d > c->worst) {
                c->worst = d;
                c->first = i;
            }
        }
    }
}

/* max |y1 - y2| of variable j over A's points, both runs on grids with maps to A */
static double diff_at_a(const equ_plan *a, size_t j, const double *y1, const size_t *m1,
                        size_t n1, const double *y2, const size_t *m2, size_t n2)
{
    size_t nout = a->nout, i2 = 0;
    double dmax = 0.0;
    for (size_t i1 = 0; i1 < n1; i1++) {
        if (m1[i1] == (size_t)-1)
            continue;
        while (i2 < n2 && (m2[i2] == (size_t)-1 || m2[i2] < m1[i1]))
            i2++;
        if (i2 == n2)
            break;
        if (m2[i2] != m1[i1])
            continue;
        double x1 = y1[i1 * nout + j], x2 = y2[i2 * nout + j];
        if (isnan(x1) && isnan(x2))
            continue;
        dmax = fmax(dmax, isnan(x1) != isnan(x2) ? INFINITY : fabs(x1 - x2));
    }
    return dmax;
}

typedef struct vs_ctx {
    const fmuc_subject *s;
    fmuc_result *res;
    equ_plan *a;
    equ_plan p[NRUNS];
    double *rows[NRUNS];
    size_t *maps[NRUNS], nts[NRUNS];
    col_stats *cs;
    col_cmp *cmp;
    int var_step;
} vs_ctx;

/* Make run r (B, C or D). 0 with rows[r], 1 when the FMU refused it (reported), -1 when the
 * worker failed (error in res). */
static int make_run(vs_ctx *x, int r)
{
    char why[512], label[96];
    double *grid = make_grid(x->a, r, &x->nts[r], &x->maps[r]);
    equ_plan *p = &x->p[r];
    if (!grid || equ_plan_init_grid(p, x->s->fmu, FMUC_IFACE_CS, grid, x->nts[r]) < 0 ||
        equ_plan_set_outputs(p, x->a->out, x->a->nout) < 0) {
        fmuc_result_error(x->res, "%s", grid && p->why[0] ? p->why : "out of memory");
        free(grid);
        return -1;
    }
    free(grid);
    /* the same outputs, stop time and inputs (start values, clamped) as the nominal run */
    p->stop = x->a->stop;
    p->tol_defined = x->a->tol_defined;
    p->tol = x->a->tol;
    csu_clamp_inputs(p);
    snprintf(label, sizeof label, "cs-variable-step (%s)", run_name[r]);
    fmuc_result scratch;
    fmuc_result_init(&scratch, x->res->id, x->res->title, x->res->spec, x->res->level);
    x->rows[r] = equ_run_plan(x->s, p, label, &scratch, why, sizeof why);
    if (!x->rows[r] && !why[0] && scratch.verdict == FMUC_VERDICT_ERROR) {
        /* the nominal grid ran in the same way: the changed step is what the worker died in */
        char what[160];
        snprintf(what, sizeof what, "on the %s (the nominal grid runs)", run_name[r]);
        csu_probe_died(x->res, &scratch, x->var_step, what, label);
        return 1;
    }
    csu_merge(x->res, &scratch, label);
    if (x->rows[r])
        return 0;
    if (!why[0])
        return -1;
    if (!x->var_step)
        fmuc_result_note(x->res, "the %s was refused (%s); canHandleVariableCommunicationStepSize "
                                 "is not \"true\", so the FMU may require its own step size",
                         run_name[r], why);
    else if (strstr(why, "fmi2Discard") || strstr(why, "fmiDiscard"))
        fmuc_result_warn(x->res, "canHandleVariableCommunicationStepSize=\"true\", yet on the %s "
                                 "%s",
                         run_name[r], why);
    else
        fmuc_result_violation(x->res, "canHandleVariableCommunicationStepSize=\"true\", yet on "
                                      "the %s %s (§4.3.1: the step size need not be constant)",
                              run_name[r], why);
    return 1;
}

static void plot(vs_ctx *x, int r, size_t j)
{
    const equ_plan *a = x->a;
    double *yr = malloc((a->nsteps + 1) * sizeof *yr);
    if (!yr)
        return;
    for (size_t k = 0; k <= a->nsteps; k++)
        yr[k] = equ_interp(x->p[r].t, x->nts[r], x->rows[r] + j, a->nout, a->t[k]);
    equ_series_ref sr[2] = {{"nominal grid", x->rows[RUN_A] + j, a->nout}, {run_name[r], yr, 1}};
    char title[160];
    snprintf(title, sizeof title, "%s: nominal grid vs %s", a->out[j].name, run_name[r]);
    equ_plot_units(equ_plot_add(x->res, title, a->out[j].name, a->t, a->nsteps + 1, sr, 2, NULL,
                                NULL, 0, 2000),
                   &a->fmu->md, a->out[j].name, 0);
    free(yr);
}

/* Report the variables of run r that disagree with A; returns how many. */
static size_t report(vs_ctx *x, int r)
{
    const equ_plan *a = x->a;
    size_t nbad = 0, ndiff = 0, nvary = 0;
    for (size_t j = 0; j < a->nout; j++) {
        ndiff += x->cmp[j].misses != 0;
        nvary += x->cs[j].range > 0.0;
    }
    /* most of the varying outputs differ: the step size is not honoured */
    int most = ndiff * 2 > (nvary ? nvary : 1);
    cJSON *ev = cJSON_AddObjectToObject(fmuc_result_evidence(x->res), run_name[r]);
    for (size_t j = 0; j < a->nout; j++) {
        const col_cmp *c = &x->cmp[j];
        const equ_var *v = &a->out[j];
        if (!c->misses)
            continue;
        cJSON *o = cJSON_AddObjectToObject(ev, v->name);
        cJSON_AddNumberToObject(o, "vr", v->vr);
        cJSON_AddNumberToObject(o, "misses", (double)c->misses);
        cJSON_AddNumberToObject(o, "worst", c->worst);
        cJSON_AddNumberToObject(o, "tolerance", c->tol);
        if (!nbad)
            plot(x, r, j);
        if (nbad++ >= CSVS_MAX_REPORTED)
            continue;
        size_t k = x->maps[r][c->first];
        char msg[700];
        snprintf(msg, sizeof msg,
                 "output '%s' (vr %u, line %u): on the %s it is %.9g at t=%.9g where the "
                 "nominal grid gives %.9g (difference %.3g, tolerance %.3g; %zu common points "
                 "differ): the result depends on the communication step size beyond the FMU's "
                 "integration error (§4.2.2: each step integrates to tc+hc)",
                 v->name, v->vr, v->line, run_name[r], x->rows[r][c->first * a->nout + j],
                 a->t[k], x->rows[RUN_A][k * a->nout + j], c->worst, c->tol, c->misses);
        if (x->var_step && most)
            fmuc_result_violation(x->res, "%s", msg);
        else if (x->var_step)
            fmuc_result_warn(x->res, "%s; only %zu of the %zu outputs that vary differ", msg,
                             ndiff, nvary);
        else
            fmuc_result_warn(x->res, "%s; canHandleVariableCommunicationStepSize is not "
                                     "\"true\", yet %s accepted h/2",
                             msg, fmuc_fmu_fmi_version(x->s->fmu) == 1 ? "fmiDoStep" : "fmi2DoStep");
    }
    if (nbad > CSVS_MAX_REPORTED)
        fmuc_result_note(x->res, "%zu further outputs differ on the %s",
                         nbad - CSVS_MAX_REPORTED, run_name[r]);
    if (!nbad)
        fmuc_result_note(x->res, "the %s (%zu steps) agrees with the nominal grid at its common "
                                 "points",
                         run_name[r], x->nts[r] - 1);
    return nbad;
}

/* B missed for some variables: a difference that shrinks from (h, h/2) to (h/2, h/4) is the
 * FMU's integration error, not a step it ignores. Clears those misses (noted). */
static int converging(vs_ctx *x)
{
    const equ_plan *a = x->a;
    int rd = make_run(x, RUN_D);
    if (rd != 0)
        return rd;
    for (size_t j = 0; j < a->nout; j++) {
        col_cmp *c = &x->cmp[j];
        if (!c->misses)
            continue;
        double dab = c->max_diff;
        double dbd = diff_at_a(a, j, x->rows[RUN_B], x->maps[RUN_B], x->nts[RUN_B],
                               x->rows[RUN_D], x->maps[RUN_D], x->nts[RUN_D]);
        if (isfinite(dab) && dbd <= CSVS_CONVERGENCE * dab) {
            fmuc_result_note(x->res, "output '%s' (vr %u): h and h/2 differ by up to %.3g, h/2 "
                                     "and h/4 by %.3g: an integration error that shrinks with "
                                     "the step",
                             a->out[j].name, a->out[j].vr, dab, dbd);
            c->misses = 0;
        }
    }
    return 0;
}

static void run_all(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_fmu *fmu = s->fmu;
    equ_plan a;
    vs_ctx x;
    char why[512];
    memset(&x, 0, sizeof x);
    memset(&a, 0, sizeof a);
    x.s = s;
    x.res = res;
    x.a = &a;
    if (!fmu->lib_path_cs) {
        fmuc_result_na(res, "no CoSimulation binary for this platform");
        return;
    }
    if (!csu_nominal_usable(s, "cs-variable-step", res))
        return;
    x.var_step = equ_cap(fmu, FMUC_IFACE_CS, FMUC_CAP_CAN_HANDLE_VARIABLE_COMMUNICATION_STEP_SIZE);
    if (csu_plan_init(&a, fmu, CSVS_MIN_STEPS, CSVS_MAX_STEPS) < 0) {
        fmuc_result_na(res, "%s", a.why);
        goto out;
    }
    if (a.nsteps < 2) {
        fmuc_result_na(res, "the default experiment has fewer than two communication steps");
        goto out;
    }
    csu_clamp_inputs(&a);
    cJSON *ev = fmuc_result_evidence(res);
    cJSON_AddBoolToObject(ev, "canHandleVariableCommunicationStepSize", x.var_step);
    cJSON_AddNumberToObject(ev, "h", a.t[1] - a.t[0]);
    cJSON_AddNumberToObject(ev, "horizon", a.t[a.nsteps] - a.t[0]);
    cJSON_AddNumberToObject(ev, "nominal_steps", (double)a.nsteps);
    x.rows[RUN_A] = equ_run_plan(s, &a, "cs-variable-step (nominal grid)", res, why, sizeof why);
    const int v1 = fmuc_fmu_fmi_version(s->fmu) == 1;
    const char *at = why[0] && strstr(why, v1 ? "fmiDiscard" : "fmi2Discard")
                         ? strstr(why, v1 ? "fmiDoStep(t=" : "fmi2DoStep(t=")
                         : NULL;
    if (!x.rows[RUN_A] && at) {
        /* the FMU ended the simulation (fmi2Discard, §4.2.2): the horizon ends before that step */
        double td = strtod(at + strlen(v1 ? "fmiDoStep(t=" : "fmi2DoStep(t="), NULL);
        size_t k = 0;
        while (k < a.nsteps && a.t[k] < td)
            k++;
        if (k >= 2 && a.t[k] == td) {
            fmuc_result_note(res, "the nominal grid's step from t=%.9g was discarded (%s): the "
                                  "horizon ends there",
                             td, why);
            a.nsteps = k;
            a.stop = a.t[k];
            x.rows[RUN_A] = equ_run_plan(s, &a, "cs-variable-step (nominal grid)", res, why,
                                         sizeof why);
        }
    }
    if (!x.rows[RUN_A]) {
        if (why[0])
            fmuc_result_na(res, "the run on the nominal grid failed (%s; see cs-nominal-run)", why);
        goto out;
    }
    x.cs = calloc(a.nout, sizeof *x.cs);
    x.cmp = calloc(a.nout, sizeof *x.cmp);
    if (!x.cs || !x.cmp) {
        fmuc_result_error(res, "out of memory");
        goto out;
    }
    for (size_t j = 0; j < a.nout; j++) {
        double lo = INFINITY, hi = -INFINITY, am = 0.0;
        for (size_t k = 0; k <= a.nsteps; k++) {
            double v = x.rows[RUN_A][k * a.nout + j];
            if (!isfinite(v))
                continue;
            lo = fmin(lo, v);
            hi = fmax(hi, v);
            am = fmax(am, fabs(v));
        }
        x.cs[j].range = hi >= lo ? hi - lo : 0.0;
        x.cs[j].amax = am;
    }
    /* B: the constant grid h/2 (legal with or without the flag: the step stays constant) */
    int rb = make_run(&x, RUN_B);
    if (rb < 0)
        goto out;
    if (rb == 0) {
        compare(&a, x.rows[RUN_A], x.rows[RUN_B], x.maps[RUN_B], x.nts[RUN_B], x.cs, 0, x.cmp);
        int any = 0;
        for (size_t j = 0; j < a.nout; j++)
            any |= x.cmp[j].misses != 0;
        if (any && converging(&x) < 0)
            goto out;
        for (size_t j = 0; j < a.nout; j++)
            x.cs[j].ab_diff = isfinite(x.cmp[j].max_diff) ? x.cmp[j].max_diff : 0.0;
        report(&x, RUN_B);
    }
    /* C: alternating steps, only when the flag allows a changing step size */
    if (!x.var_step) {
        fmuc_result_note(res, "canHandleVariableCommunicationStepSize is not \"true\": only a "
                              "constant smaller step was tried");
        goto out;
    }
    int rc = make_run(&x, RUN_C);
    if (rc == 0) {
        compare(&a, x.rows[RUN_A], x.rows[RUN_C], x.maps[RUN_C], x.nts[RUN_C], x.cs, 1, x.cmp);
        report(&x, RUN_C);
    }
out:
    free(x.cs);
    free(x.cmp);
    for (int r = 0; r < NRUNS; r++) {
        free(x.rows[r]);
        free(x.maps[r]);
        if (r)
            equ_plan_free(&x.p[r]);
    }
    equ_plan_free(&a);
}

/* FMI 3.0 FMUs: the same runs (scalar Float64/Int32/Boolean variables), messages in 3.0's
 * names */
static void run(const fmuc_subject *s, fmuc_result *res)
{
    run_all(s, res);
    equ_v3_names(s, res, 0);
}

const fmuc_check fmuc_check_cs_variable_step = {
    .id = "cs-variable-step",
    .title = "With canHandleVariableCommunicationStepSize, a changed step is accepted and "
             "gives the same results",
    .spec = "FMI 2.0.4 §4.3.1, §4.2.2; FMI 3.0.2 §4.4, §4.2.1; FMI 1.0 CS "
            "(canHandleVariableCommunicationStepSize; fmiDoStep integrates to "
            "currentCommunicationPoint + communicationStepSize)",
    .level = FMUC_LEVEL_MUST,
    .why = "A master with step-size control relies on canHandleVariableCommunicationStepSize; if "
           "a changed step is refused or integrated wrongly, adaptive co-simulation breaks or "
           "drifts.",
    .fix = "Integrate each fmi2DoStep exactly to currentCommunicationPoint + "
           "communicationStepSize whatever its size, or declare "
           "canHandleVariableCommunicationStepSize=\"false\".",
    .applies = FMUC_APPLIES_CS,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .sessions = 3,
    .run = run,
};
