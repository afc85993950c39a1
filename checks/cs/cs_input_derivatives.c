/* cs-input-derivatives: with canInterpolateInputs="true", "calling of
 * fmi2SetRealInputDerivatives(..) has an effect for the slave" (FMI 2.0.4 §4.3.1); the inputs and
 * their derivatives are set "with respect to the beginning of a communication time step"
 * (§4.2.1). FMI 1.0 CS has the same capability (<Implementation><CoSimulation_StandAlone|Tool>
 * <Capabilities canInterpolateInputs>) and fmiSetRealInputDerivatives: the order-th derivative
 * of Real inputs at the step start, used when the flag is true (fmi1-rules B.8, E-01). FMI 3.0
 * has neither the flag nor a function of this kind (fmi2SetRealInputDerivatives has no
 * successor; intermediate update takes its place, fmi3-rules E-14): 3.0 is not judged.
 * Every continuous Real input follows a slow ramp over a bounded horizon (a tenth of the default
 * experiment's grid, 10 to 50 steps, cs_util.h): from its start value (clamped to [min, max]) by
 * the simulation driver's excitation amplitude (10 % of |start|, else of the nominal, else 1,
 * away from zero, cut to the room before the bound: its sign is kept), never leaving
 * [min, max]. Up to three runs, each a fresh instance in its own worker: (1) the ramp set with
 * fmi2SetReal at every communication point (held over the step), (2) the same with
 * fmi2SetRealInputDerivatives (order 1, the ramp's slope) after fmi2SetReal, and, only when (2)
 * is (1) bit for bit, (0) the inputs held at their start values (each instance start can cost
 * most of a run: issue 16's time bounds). The order-1 call must return fmi2OK or fmi2Warning
 * and the steps after it must succeed (fail otherwise). When the inputs change the outputs (run
 * 1 differs from run 0) but the derivatives change nothing (run 2 is run 1 bit for bit), the
 * declared interpolation has no effect: a warning (the text states no accuracy). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_util.h"

#define CSID_MIN_STEPS 10
#define CSID_MAX_STEPS 50

enum { RUN_HOLD = 0, RUN_RAMP, RUN_DERIV, NRUNS };
static const char *const run_label[NRUNS] = {"cs-input-derivatives (inputs held)",
                                             "cs-input-derivatives (ramp, values only)",
                                             "cs-input-derivatives (ramp, with derivatives)"};

/* The version's functions, for messages. */
static const char *id_fn(int ver)
{
    return ver == 1 ? "fmiSetRealInputDerivatives" : "fmi2SetRealInputDerivatives";
}

static const char *id_set_fn(int ver) { return ver == 1 ? "fmiSetReal" : "fmi2SetReal"; }

typedef struct id_job {
    const equ_plan *plan;
    const double *slope; /* nin: the order-1 derivatives (RUN_DERIV) */
    int mode, ver;
} id_job;

/* The step-wise driver's inputs hook (fmuc_step.h): before the step from p->t[k], the phase,
 * the inputs of row k with fmi2SetReal and, in RUN_DERIV, their order-1 derivatives. */
typedef struct id_step {
    fmuc_worker_ctx *ctx;
    const id_job *job;
    const fmuc_vr *vr;
    const int32_t *ord;
    size_t k; /* the row the step starts from */
} id_step;

static int id_inputs(void *user, fmuc_inst *c, double tk)
{
    id_step *sx = user;
    const equ_plan *p = sx->job->plan;
    size_t nin = p->nin;
    cJSON *reply = fmuc_worker_reply(sx->ctx);
    char b[32];
    fmuc_worker_phase_at(sx->ctx, "step", (long long)sx->k, tk);
    int st = fmuc_inst_set_float64(c, sx->vr, nin, p->in_values + sx->k * nin);
    if (st != FMUC_STATUS_OK && st != FMUC_STATUS_WARNING) {
        char e[160];
        snprintf(e, sizeof e, "%s of the inputs at t=%.17g returned %s", id_set_fn(sx->job->ver),
                 tk, fmuc_status_name(sx->job->ver, (int)st, b, sizeof b));
        cJSON_AddStringToObject(reply, "error", e);
        return 1;
    }
    if (sx->job->mode == RUN_DERIV) {
        st = fmuc_inst_set_input_derivatives(c, sx->vr, nin, sx->ord, sx->job->slope, nin);
        if (st != FMUC_STATUS_OK && st != FMUC_STATUS_WARNING) {
            cJSON_AddNumberToObject(reply, "bad_status", (double)st);
            cJSON_AddNumberToObject(reply, "bad_at", tk);
            return 1;
        }
    }
    return 0;
}

static int id_worker(fmuc_worker_ctx *ctx, void *payload)
{
    const id_job *job = payload;
    const equ_plan *p = job->plan;
    cJSON *reply = fmuc_worker_reply(ctx);
    size_t rows = p->nsteps + 1, nin = p->nin;
    double *y = calloc(rows * p->nout, sizeof *y);
    fmuc_vr *vr = calloc(nin ? nin : 1, sizeof *vr);
    int32_t *ord = calloc(nin ? nin : 1, sizeof *ord);
    int f_loaded = fmuc_inst_load(ctx, FMUC_IFACE_CS) == 0;
    equ_inst in;
    fmuc_stepper sp;
    id_step sx = {ctx, job, vr, ord, 0};
    char b[32];
    memset(&in, 0, sizeof in);
    fmuc_stepper_init(&sp, NULL, 0, 0, 0); /* Co-Simulation: allocates nothing */
    if (!f_loaded || !y || !vr || !ord) {
        cJSON_AddStringToObject(reply, "load_error", f_loaded ? "out of memory" : fmuc_worker_load_error(ctx));
        goto out;
    }
    for (size_t j = 0; j < nin; j++) {
        vr[j] = p->in[j].vr;
        ord[j] = 1;
    }
    fmuc_worker_phase(ctx, "initialize");
    if (equ_inst_start(&in, ctx, p, "input-derivatives") < 0 || equ_inst_record(&in, y) < 0) {
        cJSON_AddStringToObject(reply, "error", in.err);
        goto out;
    }
    /* the step-wise driver: the hook sets the inputs (and derivatives), then one DoStep */
    sp.in = in.c;
    sp.inputs = id_inputs;
    sp.user = &sx;
    for (size_t k = 0; k < p->nsteps; k++) {
        sx.k = k;
        fmuc_step_rc rc = fmuc_step_interval(&sp, p->t[k], p->t[k + 1], NULL);
        if (rc == FMUC_STEP_INPUTS)
            goto out; /* the hook put the failure in the reply */
        if (rc != FMUC_STEP_OK) {
            char e[400];
            /* the step driver names the call in the FMU's version ("fmiDoStep(...)" in 1.0) */
            snprintf(e, sizeof e, "%s returned %s", sp.call,
                     fmuc_status_name(job->ver, sp.status, b, sizeof b));
            cJSON_AddStringToObject(reply, "step_error", e);
            goto out;
        }
        if (equ_inst_record(&in, y + (k + 1) * p->nout) < 0) {
            cJSON_AddStringToObject(reply, "error", in.err);
            goto out;
        }
    }
    cJSON_AddItemToObject(reply, "y", fmuc_worker_f64_to_json(y, rows * p->nout));
out:
    fmuc_stepper_free(&sp);
    equ_inst_free(&in);
    free(y);
    free(vr);
    free(ord);
    return 0;
}

/* The ramp's change of input v: the simulation driver's signed amplitude (fmuc_sim_input_
 * excitation: 10 % of |start| (else nominal, else 1) away from zero, cut to the room before
 * [min, max] of the variable or its declared type), so that a ramp never changes an input's sign
 * (a pressure stays positive, a flow keeps its direction: issue 16 cause 5); 0 when the
 * excitation has no column for it. */
static double ramp_delta(const fmuc_sim_input *ex, const equ_var *v)
{
    size_t c = equ_excite_column(ex, v);
    return c < ex->ncols ? ex->cols[c].a : 0.0;
}

/* Run r of the plans p in a worker of its own into rows[r]. 0, or -1 with the result in res
 * (not applicable, a violation, an error: the caller stops). */
static int id_make_run(const fmuc_subject *s, fmuc_result *res, equ_plan *p, int r,
                       const double *slope, int ver, double *rows[NRUNS])
{
    const fmuc_fmu *fmu = s->fmu;
    const char *fn = id_fn(ver);
    size_t nin = p[0].nin, n = p[0].nsteps;
    cJSON *ev = fmuc_result_evidence(res);
    char b[32];
    id_job job = {&p[r], slope, r, ver};
    fmuc_worker_outcome o;
    fmuc_result scratch;
    fmuc_result_init(&scratch, res->id, res->title, res->spec, res->level);
    if (equ_worker(s, fmu, run_label[r], id_worker, &job, &o, &scratch) < 0) {
        if (r == RUN_DERIV && scratch.verdict == FMUC_VERDICT_ERROR) {
            char what[120];
            snprintf(what, sizeof what, "with %s (the same run without them succeeds)", fn);
            csu_probe_died(res, &scratch, 1, what, run_label[r]);
        } else
            csu_merge(res, &scratch, run_label[r]);
        return -1;
    }
    fmuc_result_clear(&scratch);
    fmuc_sim_add_log(&o, ev);
    const cJSON *rep = o.reply;
    const char *le = cJSON_GetStringValue(cJSON_GetObjectItem(rep, "load_error"));
    const char *err = cJSON_GetStringValue(cJSON_GetObjectItem(rep, "error"));
    const char *se = cJSON_GetStringValue(cJSON_GetObjectItem(rep, "step_error"));
    const cJSON *bs = cJSON_GetObjectItem(rep, "bad_status");
    if (le)
        fmuc_result_na(res, "the library does not load (see load-dlopen): %s", le);
    else if (err)
        fmuc_result_na(res, "%s: the run failed (%s; see cs-nominal-run)", run_label[r], err);
    else if (bs)
        fmuc_result_violation(res, "%s (order 1 of %zu continuous Real inputs, first '%s' "
                                   "vr %u) returned %s at t=%.9g although "
                                   "canInterpolateInputs=\"true\" (%s)",
                              fn, nin, p[r].in[0].name, p[r].in[0].vr,
                              fmuc_status_name(ver, (int)cJSON_GetNumberValue(bs), b, sizeof b),
                              cJSON_GetNumberValue(cJSON_GetObjectItem(rep, "bad_at")),
                              ver == 1 ? "FMI 1.0 CS Capabilities" : "§4.3.1");
    else if (se && r == RUN_DERIV && rows[RUN_RAMP])
        fmuc_result_violation(res, "after %s %s, while the same run without the "
                                   "derivatives succeeds",
                              fn, se);
    else if (se)
        fmuc_result_na(res, "%s: %s (see cs-nominal-run)", run_label[r], se);
    else if (!(rows[r] = fmuc_worker_f64_from_json(cJSON_GetObjectItem(rep, "y"),
                                                   (n + 1) * p[r].nout)))
        fmuc_result_error(res, "%s: malformed worker reply", run_label[r]);
    fmuc_worker_outcome_free(&o);
    return rows[r] ? 0 : -1;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_fmu *fmu = s->fmu;
    const fmuc_md *md = &fmu->md;
    equ_plan p[NRUNS];
    double *rows[NRUNS] = {NULL, NULL, NULL}, *slope = NULL;
    const int ver = fmuc_fmu_fmi_version(fmu);
    const char *fn = id_fn(ver);
    memset(p, 0, sizeof p);
    if (!equ_cap(fmu, FMUC_IFACE_CS, FMUC_CAP_CAN_INTERPOLATE_INPUTS)) {
        fmuc_result_na(res, ver == 1 ? "canInterpolateInputs is not \"true\" in the "
                                       "Co-Simulation Capabilities (Implementation)"
                                     : "canInterpolateInputs is not \"true\" for CoSimulation");
        return;
    }
    if (!fmu->lib_path_cs) {
        fmuc_result_na(res, "no CoSimulation binary for this platform");
        return;
    }
    if (!csu_nominal_usable(s, "cs-input-derivatives", res))
        return;
    for (int r = 0; r < NRUNS; r++)
        if (csu_plan_init(&p[r], fmu, CSID_MIN_STEPS, CSID_MAX_STEPS) < 0) {
            fmuc_result_na(res, "%s", p[r].why);
            goto out;
        }
    size_t nin = p[0].nin, n = p[0].nsteps;
    if (!nin) {
        fmuc_result_na(res, "canInterpolateInputs=\"true\", but there is no continuous Real input");
        goto out;
    }
    slope = calloc(nin, sizeof *slope);
    if (!slope) {
        fmuc_result_error(res, "out of memory");
        goto out;
    }
    double t0 = p[0].t[0], T = p[0].t[n] - t0;
    fmuc_sim_input ex;
    fmuc_diag d = {{0}, FMUC_OK};
    if (fmuc_sim_input_excitation(&ex, md, t0, t0 + T, &d) < 0) {
        fmuc_result_error(res, "out of memory");
        goto out;
    }
    cJSON *ev = fmuc_result_evidence(res);
    cJSON *ins = cJSON_AddArrayToObject(ev, "inputs");
    for (int r = 0; r < NRUNS; r++)
        csu_clamp_inputs(&p[r]);
    for (size_t j = 0; j < nin; j++) {
        double u0 = p[0].in_values[j];
        double dlt = ramp_delta(&ex, &p[0].in[j]);
        slope[j] = dlt / T;
        for (size_t k = 0; k <= n; k++)
            for (int r = RUN_RAMP; r < NRUNS; r++)
                p[r].in_values[k * nin + j] = u0 + dlt * ((p[r].t[k] - t0) / T);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", p[0].in[j].name);
        cJSON_AddNumberToObject(o, "start", u0);
        cJSON_AddNumberToObject(o, "end", u0 + dlt);
        cJSON_AddNumberToObject(o, "derivative", slope[j]);
        cJSON_AddItemToArray(ins, o);
    }
    fmuc_sim_input_free(&ex);
    for (int r = RUN_RAMP; r < NRUNS; r++)
        csu_clamp_inputs(&p[r]); /* rounding at the bound */
    /* the ramp without and with the derivatives first: when the derivatives change the
     * outputs, the check passes and the run with the inputs held is not needed */
    if (id_make_run(s, res, p, RUN_RAMP, slope, ver, rows) < 0 ||
        id_make_run(s, res, p, RUN_DERIV, slope, ver, rows) < 0)
        goto out;
    size_t nv = p[0].nout, cells = (n + 1) * nv;
    double moved = 0.0, effect = 0.0;
    size_t at = 0;
    for (size_t i = 0; i < cells; i++) {
        double r1 = rows[RUN_RAMP][i], r2 = rows[RUN_DERIV][i];
        if (memcmp(&r1, &r2, sizeof r1) != 0) {
            double e = isfinite(r2 - r1) ? fabs(r2 - r1) : INFINITY;
            if (e > effect) {
                effect = e;
                at = i;
            }
        }
    }
    cJSON_AddNumberToObject(ev, "largest_output_change_by_the_derivatives", effect);
    cJSON_AddBoolToObject(ev, "held_run", effect == 0.0); /* made below only then */
    if (effect > 0.0) {
        fmuc_result_note(res, "the input derivatives change the outputs (largest: '%s' by %.3g "
                              "at t=%.9g)",
                         p[0].out[at % nv].name, effect, p[0].t[at / nv]);
        goto out;
    }
    /* no effect: does the ramp itself move the outputs (the run with the inputs held)? */
    if (id_make_run(s, res, p, RUN_HOLD, slope, ver, rows) < 0)
        goto out;
    for (size_t i = 0; i < cells; i++) {
        double a = rows[RUN_HOLD][i], r1 = rows[RUN_RAMP][i];
        if (memcmp(&a, &r1, sizeof a) != 0)
            moved = fmax(moved, isfinite(r1 - a) ? fabs(r1 - a) : INFINITY);
    }
    cJSON_AddNumberToObject(ev, "largest_output_change_by_the_ramp", moved);
    if (moved > 0.0)
        fmuc_result_warn(res, "canInterpolateInputs=\"true\", but %s has no effect: with the "
                              "input ramp the outputs change (by up to %.3g) and are bit for bit "
                              "the same with and without the order-1 derivatives (%s)",
                         fn, moved,
                         ver == 1 ? "FMI 1.0 CS Capabilities: with the flag the input derivatives "
                                    "are used"
                                  : "§4.3.1: the call \"has an effect for the slave\"");
    else
        fmuc_result_note(res, "the outputs do not depend on the inputs over %zu steps: the effect "
                              "of the input derivatives is not observable",
                         n);
out:
    for (int r = 0; r < NRUNS; r++) {
        free(rows[r]);
        equ_plan_free(&p[r]);
    }
    free(slope);
}

const fmuc_check fmuc_check_cs_input_derivatives = {
    .id = "cs-input-derivatives",
    .title = "With canInterpolateInputs, the input derivatives are accepted and have an effect",
    .spec = "FMI 2.0.4 §4.3.1, §4.2.1; FMI 1.0 CS (Capabilities canInterpolateInputs; "
            "fmiSetRealInputDerivatives)",
    .level = FMUC_LEVEL_MUST,
    .why = "With canInterpolateInputs declared, a master sends input slopes instead of smaller "
           "steps; if the FMU ignores the input derivatives, the slave sees staircase inputs and "
           "loses accuracy.",
    .fix = "Store the derivatives from fmi2SetRealInputDerivatives (1.0: "
           "fmiSetRealInputDerivatives) and extrapolate each input over the step from its value "
           "at the step start, or declare canInterpolateInputs=\"false\".",
    .applies = FMUC_APPLIES_CS,
    .versions = FMUC_V1 | FMUC_V2,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .sessions = 3, /* up to three fresh instances, each in its own worker */
    .run = run,
};
