/* eq-compare (--compare other.fmu): both FMUs run with the same inputs (--input, else the
 * deterministic excitation of the checked FMU's inputs, matched by name) on the same time grid
 * (the checked FMU's default experiment); their outputs, matched by name, agree within
 * |y - y_other| <= atol + rtol*|y_other|. Variables of one without a counterpart are listed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eq_util.h"

static void run_iface(const fmuc_subject *s, fmuc_result *res, const fmuc_fmu *other,
                      fmuc_iface iface, const fmuc_refcsv *inputs, int level)
{
    const char *ifn = equ_iface_name(iface);
    equ_plan pa, pb;
    double *ra = NULL, *rb = NULL;
    equ_var *vb = NULL, *va = NULL;
    size_t *map = NULL;
    char why[512];
    memset(&pb, 0, sizeof pb);
    if (equ_plan_init(&pa, s->fmu, iface, EQU_STEPS_LONG) < 0) {
        fmuc_result_na(res, "%s: %s", ifn, pa.why);
        goto out;
    }
    equ_plan_me_budget(&pa, level, EQU_ME_SUBSTEPS_LONG);
    if (equ_plan_init_grid_any(&pb, other, iface, pa.t, pa.nsteps + 1) < 0) {
        fmuc_result_error(res, "%s: %s", ifn, pb.why);
        goto out;
    }
    pb.tol_defined = pa.tol_defined;
    pb.tol = pa.tol;
    /* inputs: the checked FMU's trajectory, by name for the other one */
    if (inputs)
        equ_plan_inputs_from_table(&pa, inputs);
    else
        equ_plan_excite(&pa, res);
    for (size_t j = 0; j < pb.nin; j++)
        for (size_t i = 0; i < pa.nin; i++)
            if (strcmp(pb.in[j].name, pa.in[i].name) == 0)
                for (size_t k = 0; k <= pb.nsteps; k++)
                    pb.in_values[k * pb.nin + j] = pa.in_values[k * pa.nin + i];
    /* outputs matched by name: any variable of the other FMU of a comparable type */
    va = calloc(pa.nout ? pa.nout : 1, sizeof *va);
    vb = calloc(pa.nout ? pa.nout : 1, sizeof *vb);
    map = calloc(pa.nout ? pa.nout : 1, sizeof *map);
    if (!va || !vb || !map)
        goto out;
    size_t nm = 0;
    for (size_t j = 0; j < pa.nout; j++) {
        const fmuc_md_var *v = equ_md_find(&other->md, pa.out[j].name);
        if (!v || v->type == FMUC_TYPE_STRING || v->type == FMUC_TYPE_NONE ||
            !(v->has & FMUC_HAS_VALUE_REFERENCE)) {
            fmuc_result_note(res, "%s: '%s' (vr %u) of %s has no counterpart in %s", ifn,
                             pa.out[j].name, pa.out[j].vr, s->fmu->file_name, other->file_name);
            continue;
        }
        va[nm] = pa.out[j];
        vb[nm] = equ_var_of(&other->md, v);
        nm++;
    }
    for (size_t i = 0; i < other->md.nvars; i++) {
        const fmuc_md_var *v = &other->md.vars[i];
        if (v->causality == FMUC_CAUS_OUTPUT && v->name && !equ_md_find(&s->fmu->md, v->name))
            fmuc_result_note(res, "%s: output '%s' (vr %u) of %s has no counterpart in %s", ifn,
                             v->name, v->value_reference, other->file_name, s->fmu->file_name);
    }
    if (!nm) {
        fmuc_result_violation(res, "%s: no output of %s exists in %s: nothing to compare", ifn,
                              s->fmu->file_name, other->file_name);
        goto out;
    }
    if (equ_plan_set_outputs(&pa, va, nm) < 0 || equ_plan_set_outputs(&pb, vb, nm) < 0)
        goto out;
    /* identical integrator settings and grid for both (ME): the checked FMU's substep rule */
    pb.nsub = pa.nsub;
    pb.nsteps = pa.nsteps;
    pb.stop = pa.stop;
    ra = equ_run_plan(s, &pa, "eq-compare", res, why, sizeof why);
    if (!ra) {
        if (why[0])
            fmuc_result_na(res, "%s: the run of %s failed (%s)", ifn, s->fmu->file_name, why);
        goto out;
    }
    rb = equ_run_plan(s, &pb, "eq-compare (other FMU)", res, why, sizeof why);
    if (!rb) {
        if (why[0])
            fmuc_result_error(res, "%s: the run of the other FMU %s failed: %s", ifn,
                              other->file_name, why);
        goto out;
    }
    char group[64];
    snprintf(group, sizeof group, "%s deviations", ifn);
    for (size_t j = 0; j < nm; j++)
        equ_tol_compare(res, group, ifn, va[j].name, va[j].vr, pa.t, pa.nsteps + 1, rb + j, nm,
                        ra + j, nm, s->opts->rtol, s->opts->atol, "other", "this FMU", j < 8,
                        &s->fmu->md);
out:
    free(ra);
    free(rb);
    free(va);
    free(vb);
    free(map);
    equ_plan_free(&pa);
    equ_plan_free(&pb);
}

static void run_all(const fmuc_subject *s, fmuc_result *res)
{
    fmuc_fmu other;
    fmuc_refcsv inp;
    fmuc_diag d = {{0}, FMUC_OK};
    int have_inp = 0;
    memset(&other, 0, sizeof other);
    memset(&inp, 0, sizeof inp);
    if (!s->opts->compare_fmu) {
        fmuc_result_na(res, "no --compare FMU given");
        return;
    }
    if (fmuc_fmu_open(&other, s->opts->compare_fmu, &s->opts->limits, s->opts->tmp_parent, &d) <
            0 ||
        !other.md_parsed) {
        fmuc_result_error(res, "--compare %s: %s", s->opts->compare_fmu,
                          d.msg[0] ? d.msg : "no model description");
        goto out;
    }
    if (s->opts->input_csv) {
        if (fmuc_refcsv_read(&inp, s->opts->input_csv, &d) < 0) {
            fmuc_result_error(res, "input file: %s", d.msg);
            goto out;
        }
        have_inp = 1;
    }
    cJSON *ev = fmuc_result_evidence(res);
    cJSON_AddStringToObject(ev, "other", other.file_name);
    cJSON_AddStringToObject(ev, "other_sha256", other.sha256);
    cJSON_AddNumberToObject(ev, "rtol", s->opts->rtol);
    cJSON_AddNumberToObject(ev, "atol", s->opts->atol);
    char why[512];
    int level = fmuc_eq__vdsim_level(s->fmu, s->opts, why, sizeof why);
    fmuc_iface ia[2], ib[2];
    fmuc_iface both[2], usable[2];
    size_t na = equ_interfaces(s->fmu, ia), nb = equ_interfaces(&other, ib), nboth = 0;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            if (ia[i] == ib[j])
                both[nboth++] = ia[i];
    if (!nboth) {
        fmuc_result_na(res, "%s and %s share no interface with a binary for this platform",
                       s->fmu->file_name, other.file_name);
        goto out;
    }
    /* of those, the ones an earlier check did not find unusable in this FMU */
    size_t nu = equ_keep_usable(s, res, both, nboth, usable);
    for (size_t i = 0; i < nu; i++)
        run_iface(s, res, &other, usable[i], have_inp ? &inp : NULL, level);
out:
    fmuc_refcsv_free(&inp);
    fmuc_fmu_close(&other);
}

/* FMI 3.0 FMUs: the same runs (scalar Float64/Int32/Boolean variables), messages in 3.0's
 * names */
static void run(const fmuc_subject *s, fmuc_result *res)
{
    run_all(s, res);
    equ_v3_names(s, res, 0);
}

const fmuc_check fmuc_check_eq_compare = {
    .id = "eq-compare",
    .title = "Outputs agree with another FMU within rtol/atol",
    .spec = "FMI 2.0.4 §3.2, §4.2; FMI 3.0.2 §3.2, §4.2; FMI 1.0 ME §2.9; FMI 1.0 CS §3.4 "
            "(negatedAlias read as the negated value of its base)",
    .level = FMUC_LEVEL_MUST,
    .why = "Two FMUs meant to be the same model (other tool, version or export setting) whose "
           "outputs disagree give different answers in the same study; one of them is wrong.",
    .fix = "Compare the diverging outputs named in the messages over time, check parameters, "
           "solver settings and start values of both exports, and fix the one that departs from "
           "the model.",
    .applies = FMUC_APPLIES_MECS,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .run = run,
};
