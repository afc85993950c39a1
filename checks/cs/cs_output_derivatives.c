/* cs-output-derivatives: with maxOutputDerivativeOrder >= 1, "calling of
 * fmi2GetRealOutputDerivatives(..) is allowed up to the order defined by
 * maxOutputDerivativeOrder" (FMI 2.0.4 §4.3.1), and the values "correspond to the current slave
 * time" (§4.2.1; "if the actual order is lower ... the retrieved value is 0"). Over a bounded
 * horizon (a tenth of the default experiment's grid, 10 to 50 steps, cs_util.h; inputs held at
 * their start values clamped to [min, max]) the derivatives of orders 1..max (at most CSOD_MAX_ORDER) of
 * every continuous Real output are read at every communication point, one call per point:
 * anything but fmi2OK/fmi2Warning fails (literal); a non-finite value warns (derived: the
 * text asks for "the actual values of the derivatives", no FMI text forbids NaN as such; an
 * importer extrapolating with it gets NaN inputs, and many tools return it before the first
 * step, where they have no difference quotient yet). The first derivative is compared with the
 * difference quotients of the output between the neighbouring points (lenient: it has to lie
 * between the backward and forward quotients widened by 20 % of the output's largest quotient);
 * a disagreement at more than a tenth of the points is a warning (the text sets no accuracy),
 * a derivative that is 0 everywhere a note (a lower internal order). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_util.h"

#define CSOD_MIN_STEPS 10
#define CSOD_MAX_STEPS 50
#define CSOD_MAX_ORDER 4
#define CSOD_MAX_OUTPUTS 256

typedef struct od_job {
    const equ_plan *plan;
    int nord;
} od_job;

static int od_worker(fmuc_worker_ctx *ctx, void *payload)
{
    const od_job *job = payload;
    const equ_plan *p = job->plan;
    cJSON *reply = fmuc_worker_reply(ctx);
    size_t nc = p->nout, nq = nc * (size_t)job->nord, rows = p->nsteps + 1;
    double *y = calloc(rows * nc, sizeof *y), *d = calloc(rows * nq, sizeof *d);
    fmuc_vr *vr = calloc(nq, sizeof *vr);
    int32_t *ord = calloc(nq, sizeof *ord);
    int f_loaded = fmuc_inst_load(ctx, (fmuc_iface)(FMUC_IFACE_CS)) == 0;
    equ_inst in;
    memset(&in, 0, sizeof in);
    if (!f_loaded || !y || !d || !vr || !ord) {
        cJSON_AddStringToObject(reply, "load_error", f_loaded ? "out of memory" : fmuc_worker_load_error(ctx));
        goto out;
    }
    for (size_t j = 0; j < nc; j++)
        for (int o = 0; o < job->nord; o++) {
            vr[j * (size_t)job->nord + (size_t)o] = p->out[j].vr;
            ord[j * (size_t)job->nord + (size_t)o] = o + 1;
        }
    fmuc_worker_phase(ctx, "initialize");
    if (equ_inst_start(&in, ctx, p, "output-derivatives") < 0) {
        cJSON_AddStringToObject(reply, "error", in.err);
        goto out;
    }
    size_t k = 0;
    for (;; k++) {
        if (equ_inst_record(&in, y + k * nc) < 0) {
            cJSON_AddStringToObject(reply, "error", in.err);
            break;
        }
        fmuc_worker_phase_at(ctx, "fmi2GetRealOutputDerivatives", (long long)k, p->t[k]);
        int st = fmuc_inst_get_output_derivatives(in.c, vr, nq, ord, d + k * nq, nq);
        if (st != FMUC_STATUS_OK && st != FMUC_STATUS_WARNING) {
            cJSON_AddNumberToObject(reply, "bad_status", (double)st);
            cJSON_AddNumberToObject(reply, "bad_at", (double)k);
            break;
        }
        if (k == p->nsteps)
            break;
        fmuc_worker_phase_at(ctx, "step", (long long)k, p->t[k]);
        if (equ_inst_step(&in) < 0) {
            cJSON_AddStringToObject(reply, "step_error", in.err);
            break;
        }
    }
    cJSON_AddNumberToObject(reply, "points", (double)k + 1);
    cJSON_AddItemToObject(reply, "y", fmuc_worker_f64_to_json(y, rows * nc));
    cJSON_AddItemToObject(reply, "d", fmuc_worker_f64_to_json(d, rows * nq));
out:
    equ_inst_free(&in);
    free(y);
    free(d);
    free(vr);
    free(ord);
    return 0;
}

/* The first derivative against the difference quotients; returns the misses. */
static size_t judge_fd(const equ_plan *p, size_t npts, const double *y, const double *d,
                       size_t nc, size_t nq, size_t j, int nord, size_t *first, double *fd_at,
                       int *all_zero, double *qmax_out)
{
    double qmax = 0.0;
    size_t misses = 0;
    *all_zero = 1;
    for (size_t k = 0; k + 1 < npts; k++) {
        double q = (y[(k + 1) * nc + j] - y[k * nc + j]) / (p->t[k + 1] - p->t[k]);
        if (isfinite(q))
            qmax = fmax(qmax, fabs(q));
    }
    *qmax_out = qmax;
    for (size_t k = 0; k < npts; k++)
        if (d[k * nq + j * (size_t)nord] != 0.0)
            *all_zero = 0;
    if (*all_zero)
        return 0;
    for (size_t k = 1; k + 1 < npts; k++) {
        double qb = (y[k * nc + j] - y[(k - 1) * nc + j]) / (p->t[k] - p->t[k - 1]);
        double qf = (y[(k + 1) * nc + j] - y[k * nc + j]) / (p->t[k + 1] - p->t[k]);
        double dk = d[k * nq + j * (size_t)nord];
        if (!isfinite(qb) || !isfinite(qf))
            continue;
        double w = 0.2 * qmax + 1e-9 * (1.0 + fabs(y[k * nc + j]));
        if (dk >= fmin(qb, qf) - w && dk <= fmax(qb, qf) + w)
            continue;
        if (!misses++) {
            *first = k;
            *fd_at = 0.5 * (qb + qf);
        }
    }
    return misses;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_fmu *fmu = s->fmu;
    const fmuc_md *md = &fmu->md;
    equ_plan p;
    equ_var *outs = NULL;
    double *y = NULL, *d = NULL;
    fmuc_worker_outcome o;
    int have_o = 0;
    char b[32];
    memset(&p, 0, sizeof p);
    if (!md->cs.present || md->cs.max_output_derivative_order < 1) {
        fmuc_result_na(res, "maxOutputDerivativeOrder of CoSimulation is 0 (or absent)");
        return;
    }
    if (!fmu->lib_path_cs) {
        fmuc_result_na(res, "no CoSimulation binary for this platform");
        return;
    }
    if (!csu_nominal_usable(s, "cs-output-derivatives", res))
        return;
    outs = calloc(CSOD_MAX_OUTPUTS, sizeof *outs);
    size_t nc = outs ? csu_continuous_outputs(md, outs, CSOD_MAX_OUTPUTS) : 0;
    if (!nc) {
        fmuc_result_na(res, "maxOutputDerivativeOrder=%u, but there is no continuous Real output",
                        md->cs.max_output_derivative_order);
        goto out;
    }
    int nord = md->cs.max_output_derivative_order > CSOD_MAX_ORDER
                   ? CSOD_MAX_ORDER
                   : (int)md->cs.max_output_derivative_order;
    if ((unsigned)nord < md->cs.max_output_derivative_order)
        fmuc_result_note(res, "maxOutputDerivativeOrder=%u: orders 1..%d are read",
                         md->cs.max_output_derivative_order, nord);
    if (csu_plan_init(&p, fmu, CSOD_MIN_STEPS, CSOD_MAX_STEPS) < 0 ||
        equ_plan_set_outputs(&p, outs, nc) < 0) {
        fmuc_result_na(res, "%s", p.why[0] ? p.why : "out of memory");
        goto out;
    }
    csu_clamp_inputs(&p);
    od_job job = {&p, nord};
    fmuc_result scratch;
    fmuc_result_init(&scratch, res->id, res->title, res->spec, res->level);
    if (equ_worker(s, fmu, "cs-output-derivatives", od_worker, &job, &o, &scratch) < 0) {
        if (scratch.verdict == FMUC_VERDICT_ERROR && scratch.nmessages &&
            strstr(scratch.messages[0], "fmi2GetRealOutputDerivatives"))
            csu_probe_died(res, &scratch, 1, "in fmi2GetRealOutputDerivatives", "worker");
        else
            csu_merge(res, &scratch, "worker");
        goto out;
    }
    fmuc_result_clear(&scratch);
    have_o = 1;
    fmuc_sim_add_log(&o, fmuc_result_evidence(res));
    const cJSON *r = o.reply;
    const char *le = cJSON_GetStringValue(cJSON_GetObjectItem(r, "load_error"));
    const char *err = cJSON_GetStringValue(cJSON_GetObjectItem(r, "error"));
    if (le) {
        fmuc_result_na(res, "the library does not load (see load-dlopen): %s", le);
        goto out;
    }
    if (err) {
        fmuc_result_na(res, "the run failed before any derivative was read (%s; see "
                            "cs-nominal-run)",
                       err);
        goto out;
    }
    size_t nq = nc * (size_t)nord, rows = p.nsteps + 1;
    size_t npts = (size_t)cJSON_GetNumberValue(cJSON_GetObjectItem(r, "points"));
    y = fmuc_worker_f64_from_json(cJSON_GetObjectItem(r, "y"), rows * nc);
    d = fmuc_worker_f64_from_json(cJSON_GetObjectItem(r, "d"), rows * nq);
    if (!y || !d || npts < 1 || npts > rows) {
        fmuc_result_error(res, "malformed worker reply");
        goto out;
    }
    cJSON *ev = fmuc_result_evidence(res);
    cJSON_AddNumberToObject(ev, "maxOutputDerivativeOrder", md->cs.max_output_derivative_order);
    cJSON_AddNumberToObject(ev, "points", (double)npts);
    cJSON_AddNumberToObject(ev, "outputs", (double)nc);
    const cJSON *bs = cJSON_GetObjectItem(r, "bad_status");
    if (bs) {
        size_t k = (size_t)cJSON_GetNumberValue(cJSON_GetObjectItem(r, "bad_at"));
        if (k >= rows)
            k = 0;
        fmuc_result_violation(res, "fmi2GetRealOutputDerivatives (orders 1..%d of %zu continuous "
                                   "Real outputs, first '%s' vr %u) returned %s at t=%.9g although "
                                   "maxOutputDerivativeOrder=%u (§4.3.1)",
                              nord, nc, outs[0].name, outs[0].vr,
                              fmuc_status_name(2, (int)cJSON_GetNumberValue(bs), b, sizeof b),
                              p.t[k], md->cs.max_output_derivative_order);
        npts = k; /* the values of the failed call are not used */
    }
    const char *se = cJSON_GetStringValue(cJSON_GetObjectItem(r, "step_error"));
    if (se)
        fmuc_result_note(res, "the run ended early (%s; see cs-nominal-run): %zu points judged",
                         se, npts);
    /* finite values */
    size_t nonfinite = 0;
    for (size_t k = 0; k < npts; k++)
        for (size_t q = 0; q < nq; q++)
            if (!isfinite(d[k * nq + q]) && nonfinite++ < 5)
                fmuc_result_warn(res, "fmi2GetRealOutputDerivatives returned fmi2OK, but order "
                                      "%zu of '%s' (vr %u, line %u) is %.17g at t=%.9g%s",
                                 q % (size_t)nord + 1, outs[q / (size_t)nord].name,
                                 outs[q / (size_t)nord].vr, outs[q / (size_t)nord].line,
                                 d[k * nq + q], p.t[k],
                                 k ? "" : " (before the first fmi2DoStep)");
    if (nonfinite > 5)
        fmuc_result_note(res, "%zu further non-finite derivative values", nonfinite - 5);
    /* first order against the difference quotients */
    size_t zero = 0;
    for (size_t j = 0; j < nc && npts >= 3; j++) {
        size_t first = 0;
        double fd = 0.0, qmax = 0.0;
        int all_zero = 0;
        size_t miss = judge_fd(&p, npts, y, d, nc, nq, j, nord, &first, &fd, &all_zero, &qmax);
        if (all_zero && qmax > 0.0 && zero++ < 3)
            fmuc_result_note(res, "the first derivative of '%s' (vr %u) is 0 at every point "
                                  "while the output changes (allowed: the internal order may be "
                                  "lower, §4.2.1)",
                             outs[j].name, outs[j].vr);
        if (miss * 10 > npts)
            fmuc_result_warn(res, "the first derivative of '%s' (vr %u, line %u) is %.9g at "
                                  "t=%.9g where the output's difference quotient is %.9g (%zu of "
                                  "%zu points disagree beyond 20 %% of its largest quotient %.3g)",
                             outs[j].name, outs[j].vr, outs[j].line,
                             d[first * nq + j * (size_t)nord], p.t[first], fd, miss, npts, qmax);
    }
out:
    if (have_o)
        fmuc_worker_outcome_free(&o);
    free(y);
    free(d);
    free(outs);
    equ_plan_free(&p);
}

const fmuc_check fmuc_check_cs_output_derivatives = {
    .id = "cs-output-derivatives",
    .title = "With maxOutputDerivativeOrder >= 1, fmi2GetRealOutputDerivatives works up to that "
             "order",
    .spec = "FMI 2.0.4 §4.3.1, §4.2.1",
    .level = FMUC_LEVEL_MUST,
    .why = "A master that uses output derivatives (maxOutputDerivativeOrder >= 1) to extrapolate "
           "between steps gets wrong coupling values when the FMU returns an error or stale "
           "derivatives.",
    .fix = "Compute fmi2GetRealOutputDerivatives at the current slave time for every order up to "
           "maxOutputDerivativeOrder, or lower maxOutputDerivativeOrder to what the FMU really "
           "provides.",
    .applies = FMUC_APPLIES_CS,
    .versions = FMUC_V2,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .run = run,
};
