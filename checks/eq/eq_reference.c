/* eq-reference (--reference ref.csv): the FMU run on the reference file's time grid matches each
 * of its columns within |y - y_ref| <= atol + rtol*|y_ref| (--rtol/--atol). Columns naming an
 * input drive that input (zero-order hold, like --input); every other column must name a
 * variable of the model (a missing one fails). CS steps between consecutive times (a uniform
 * grid with linear interpolation when the grid is irregular and the FMU cannot vary its step);
 * ME integrates with fixed-step RK4 between them. FMI cross-check result format. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eq_util.h"

/* Distinct times (the last row of a repeated time is the value after the event). */
static size_t distinct_rows(const fmuc_refcsv *c, size_t *idx)
{
    size_t n = 0;
    for (size_t r = 0; r < c->nrows; r++) {
        if (n && c->time[idx[n - 1]] == c->time[r])
            idx[n - 1] = r;
        else
            idx[n++] = r;
    }
    return n;
}

static int uniform(const double *t, size_t n)
{
    double dt = (t[n - 1] - t[0]) / (double)(n - 1);
    for (size_t k = 1; k < n; k++)
        if (fabs((t[k] - t[k - 1]) - dt) > 1e-9 * (fabs(t[k]) > 1.0 ? fabs(t[k]) : 1.0))
            return 0;
    return 1;
}

static void run_iface(const fmuc_subject *s, fmuc_result *res, fmuc_iface iface,
                      const fmuc_refcsv *ref, const fmuc_refcsv *inputs, const size_t *idx,
                      size_t nt, const equ_var *cmp, const size_t *cmp_col, size_t ncmp,
                      int level)
{
    const char *ifn = equ_iface_name(iface);
    double *tr = malloc(nt * sizeof *tr), *rows = NULL, *refv = NULL, *yv = NULL;
    equ_plan p;
    char why[512];
    memset(&p, 0, sizeof p);
    if (!tr)
        goto out;
    for (size_t k = 0; k < nt; k++)
        tr[k] = ref->time[idx[k]];
    int resample = iface == FMUC_IFACE_CS && !uniform(tr, nt) &&
                   !equ_cap(s->fmu, iface, FMUC_CAP_CAN_HANDLE_VARIABLE_COMMUNICATION_STEP_SIZE);
    int rc;
    if (resample) {
        size_t nu = nt - 1 > EQU_STEPS_LONG ? nt - 1 : EQU_STEPS_LONG;
        double *tu = malloc((nu + 1) * sizeof *tu);
        if (!tu)
            goto out;
        for (size_t k = 0; k <= nu; k++)
            tu[k] = tr[0] + (double)k * ((tr[nt - 1] - tr[0]) / (double)nu);
        rc = equ_plan_init_grid(&p, s->fmu, iface, tu, nu + 1);
        free(tu);
        fmuc_result_note(res, "%s: irregular reference grid and no variable step size: run on a "
                              "uniform grid, outputs interpolated linearly",
                         ifn);
    } else {
        rc = equ_plan_init_grid(&p, s->fmu, iface, tr, nt);
    }
    if (rc < 0 || equ_plan_set_outputs(&p, cmp, ncmp) < 0) {
        fmuc_result_error(res, "%s: %s", ifn, p.why[0] ? p.why : "out of memory");
        goto out;
    }
    if (inputs)
        equ_plan_inputs_from_table(&p, inputs);
    equ_plan_inputs_from_table(&p, ref);
    if (level && iface == FMUC_IFACE_ME) {
        char w2[256];
        int nsub = fmuc_eq__vdsim_nsub(s->fmu, level, p.t[1] - p.t[0], w2, sizeof w2);
        if (nsub > 0)
            p.nsub = nsub;
    }
    rows = equ_run_plan(s, &p, "eq-reference", res, why, sizeof why);
    if (!rows) {
        if (why[0])
            fmuc_result_violation(res, "%s: the run on the reference grid failed: %s", ifn, why);
        goto out;
    }
    refv = malloc(nt * sizeof *refv);
    yv = malloc(nt * sizeof *yv);
    if (!refv || !yv)
        goto out;
    char group[64];
    snprintf(group, sizeof group, "%s deviations", ifn);
    for (size_t j = 0; j < ncmp; j++) {
        for (size_t k = 0; k < nt; k++) {
            refv[k] = fmuc_refcsv_at(ref, idx[k], cmp_col[j]);
            yv[k] = resample ? equ_interp(p.t, p.nsteps + 1, rows + j, p.nout, tr[k])
                             : rows[k * p.nout + j];
        }
        equ_tol_compare(res, group, ifn, cmp[j].name, cmp[j].vr, tr, nt, refv, 1, yv, 1,
                        s->opts->rtol, s->opts->atol, "reference", "FMU", 1, &s->fmu->md);
    }
out:
    free(tr);
    free(rows);
    free(refv);
    free(yv);
    equ_plan_free(&p);
}

static void run_all(const fmuc_subject *s, fmuc_result *res)
{
    fmuc_refcsv ref, inp;
    fmuc_diag d = {{0}, FMUC_OK};
    const fmuc_md *md = &s->fmu->md;
    size_t *idx = NULL, *cmp_col = NULL;
    equ_var *cmp = NULL;
    int have_inp = 0;
    memset(&ref, 0, sizeof ref);
    memset(&inp, 0, sizeof inp);
    if (!s->opts->reference_csv) {
        fmuc_result_na(res, "no --reference file given");
        return;
    }
    if (fmuc_refcsv_read(&ref, s->opts->reference_csv, &d) < 0) {
        fmuc_result_error(res, "reference file: %s", d.msg);
        goto out;
    }
    if (s->opts->input_csv) {
        if (fmuc_refcsv_read(&inp, s->opts->input_csv, &d) < 0) {
            fmuc_result_error(res, "input file: %s", d.msg);
            goto out;
        }
        have_inp = 1;
    }
    idx = malloc(ref.nrows * sizeof *idx);
    cmp = calloc(ref.ncols ? ref.ncols : 1, sizeof *cmp);
    cmp_col = calloc(ref.ncols ? ref.ncols : 1, sizeof *cmp_col);
    if (!idx || !cmp || !cmp_col) {
        fmuc_result_error(res, "out of memory");
        goto out;
    }
    size_t nt = distinct_rows(&ref, idx), ncmp = 0, ninputs = 0;
    if (nt < 2) {
        fmuc_result_error(res, "%s: needs at least two distinct times", ref.name);
        goto out;
    }
    for (size_t c = 0; c < ref.ncols; c++) {
        const fmuc_md_var *v = equ_md_find(md, ref.cols[c]);
        if (!v) {
            fmuc_result_violation(res, "%s:1:%zu: column '%s' is not a variable of the model",
                                  ref.name, c + 2, ref.cols[c]);
            continue;
        }
        if (v->causality == FMUC_CAUS_INPUT) {
            ninputs++;
            continue;
        }
        if (v->type == FMUC_TYPE_STRING || v->type == FMUC_TYPE_NONE ||
            !(v->has & FMUC_HAS_VALUE_REFERENCE)) {
            fmuc_result_note(res, "%s: column '%s' (%s variable) not compared", ref.name,
                             ref.cols[c], fmuc_md_type_name((fmuc_type)v->type));
            continue;
        }
        cmp[ncmp] = equ_var_of(&s->fmu->md, v);
        cmp_col[ncmp++] = c;
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (v->causality == FMUC_CAUS_OUTPUT && v->name && fmuc_refcsv_column(&ref, v->name) < 0)
            fmuc_result_note(res, "output '%s' (vr %u) has no column in %s", v->name,
                             v->value_reference, ref.name);
    }
    if (!ncmp) {
        if (res->verdict < FMUC_VERDICT_FAIL)
            fmuc_result_violation(res, "%s: no column to compare", ref.name);
        goto out;
    }
    char why[512];
    int level = fmuc_eq__vdsim_level(s->fmu, s->opts, why, sizeof why);
    fmuc_iface ifaces[2];
    size_t ni = equ_interfaces(s->fmu, ifaces);
    if (!ni) {
        fmuc_result_na(res, "no interface with a binary for this platform");
        goto out;
    }
    if (!(ni = equ_usable_interfaces(s, res, ifaces)))
        goto out;
    cJSON *ev = fmuc_result_evidence(res);
    cJSON_AddStringToObject(ev, "reference", ref.name);
    cJSON_AddNumberToObject(ev, "rows", (double)ref.nrows);
    cJSON_AddNumberToObject(ev, "compared_columns", (double)ncmp);
    cJSON_AddNumberToObject(ev, "input_columns", (double)ninputs);
    cJSON_AddNumberToObject(ev, "rtol", s->opts->rtol);
    cJSON_AddNumberToObject(ev, "atol", s->opts->atol);
    if (nt - 1 > EQU_STEPS_MAX) {
        fmuc_result_error(res, "%s: %zu distinct times, at most %d supported", ref.name, nt,
                          EQU_STEPS_MAX + 1);
        goto out;
    }
    if ((double)nt * (double)ncmp > 8e6) {
        fmuc_result_error(res, "%s: %zu times x %zu columns is more than 8 million values",
                          ref.name, nt, ncmp);
        goto out;
    }
    for (size_t i = 0; i < ni; i++)
        run_iface(s, res, ifaces[i], &ref, have_inp ? &inp : NULL, idx, nt, cmp, cmp_col, ncmp,
                  level);
out:
    free(idx);
    free(cmp);
    free(cmp_col);
    fmuc_refcsv_free(&ref);
    fmuc_refcsv_free(&inp);
}

/* FMI 3.0 FMUs: the same runs (scalar Float64/Int32/Boolean variables), messages in 3.0's
 * names */
static void run(const fmuc_subject *s, fmuc_result *res)
{
    run_all(s, res);
    equ_v3_names(s, res, 0);
}

const fmuc_check fmuc_check_eq_reference = {
    .id = "eq-reference",
    .title = "Results match the reference CSV within rtol/atol",
    .spec = "FMI 2.0.4 §3.2, §4.2; FMI 3.0.2 §3.2, §4.2; FMI 1.0 ME §2.9; FMI 1.0 CS §3.4; FMI "
            "cross-check rules",
    .level = FMUC_LEVEL_MUST,
    .why = "Results that leave the reference trajectory beyond the tolerances mean the FMU no "
           "longer computes what was validated; anyone relying on the reference gets different "
           "numbers.",
    .fix = "Find the first time the named column departs from the reference, check parameters, "
           "inputs and solver settings of the export, and regenerate the reference only if the "
           "change is intended.",
    .applies = FMUC_APPLIES_MECS,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .run = run,
};
