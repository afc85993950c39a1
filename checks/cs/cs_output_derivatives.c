/* cs-output-derivatives: with maxOutputDerivativeOrder >= 1, "calling of
 * fmi2GetRealOutputDerivatives(..) is allowed up to the order defined by
 * maxOutputDerivativeOrder" (FMI 2.0.4 §4.3.1), and the values "correspond to the current slave
 * time" (§4.2.1; "if the actual order is lower ... the retrieved value is 0"). FMI 1.0 CS says
 * the same of fmiGetRealOutputDerivatives and the capability maxOutputDerivativeOrder of
 * <Implementation><CoSimulation_StandAlone|Tool><Capabilities> (fmi1-rules E-02: the derivatives
 * at the end of the last step; the reads right after fmiInitializeSlave are disputed, E#80, so
 * 1.0 is read after every fmiDoStep only). FMI 3.0.2 keeps it as fmi3GetOutputDerivatives
 * (§4.1.2; maxOutputDerivativeOrder on <CoSimulation>, §4.4) for the continuous outputs in Step
 * Mode, with the values of an array variable serialized per element inside each (value
 * reference, order) pair, nValues their sum (fmi3-rules E-14); 3.0 has no input derivatives.
 * Over a bounded horizon (a tenth of the default experiment's grid, 10 to 50 steps, cs_util.h;
 * inputs held at their start values clamped to [min, max]) the derivatives of orders 1..max (at
 * most CSOD_MAX_ORDER) of every continuous Real output (3.0: Float32/Float64, arrays element by
 * element) are read at every communication point, one call per point:
 * anything but OK/Warning fails (literal); a non-finite value warns (derived: the
 * text asks for "the actual values of the derivatives", no FMI text forbids NaN as such; an
 * importer extrapolating with it gets NaN inputs, and many tools return it before the first
 * step, where they have no difference quotient yet). The first derivative of each scalar output
 * the runs record (3.0: scalar Float64) is compared with the
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
#define CSOD_MAX_VALUES 4096 /* values of one call (FMI 3.0 arrays: elements x orders) */

/* A continuous Real output whose derivatives are read: its elements (1 but for FMI 3.0 arrays),
 * the index of its first value in one call's values (off) and its column in the recorded
 * outputs (rec, or -1 when the runs do not record it: FMI 3.0 arrays and Float32). */
typedef struct od_var {
    const char *name;
    fmuc_vr vr;
    unsigned line;
    size_t elems, off;
    long rec;
} od_var;

typedef struct od_job {
    const equ_plan *plan;
    int ver, nord;
    const fmuc_vr *vr;    /* nq: each output nord times */
    const int32_t *ord;   /* nq: 1..nord */
    size_t nq, nvals;     /* value references of a call, values of a call */
} od_job;

/* The version's function, for messages and phases. */
static const char *od_fn(int ver)
{
    return ver == 1   ? "fmiGetRealOutputDerivatives"
           : ver == 3 ? "fmi3GetOutputDerivatives"
                      : "fmi2GetRealOutputDerivatives";
}

/* The version's clause of the capability, for messages. */
static const char *od_clause(int ver)
{
    return ver == 1   ? "FMI 1.0 CS Capabilities"
           : ver == 3 ? "FMI 3.0.2 §4.1.2"
                      : "§4.3.1";
}

static int od_worker(fmuc_worker_ctx *ctx, void *payload)
{
    const od_job *job = payload;
    const equ_plan *p = job->plan;
    cJSON *reply = fmuc_worker_reply(ctx);
    size_t nc = p->nout, nv = job->nvals, rows = p->nsteps + 1;
    double *y = calloc(rows * (nc ? nc : 1), sizeof *y), *d = calloc(rows * nv, sizeof *d);
    int f_loaded = fmuc_inst_load(ctx, (fmuc_iface)(FMUC_IFACE_CS)) == 0;
    equ_inst in;
    memset(&in, 0, sizeof in);
    if (!f_loaded || !y || !d) {
        cJSON_AddStringToObject(reply, "load_error", f_loaded ? "out of memory" : fmuc_worker_load_error(ctx));
        goto out;
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
        /* FMI 1.0: not right after fmiInitializeSlave (disputed there, fmi1-rules D.2 note 4) */
        if (job->ver != 1 || k > 0) {
            fmuc_worker_phase_at(ctx, od_fn(job->ver), (long long)k, p->t[k]);
            int st = fmuc_inst_get_output_derivatives(in.c, job->vr, job->nq, job->ord,
                                                      d + k * nv, nv);
            if (st != FMUC_STATUS_OK && st != FMUC_STATUS_WARNING) {
                cJSON_AddNumberToObject(reply, "bad_status", (double)st);
                cJSON_AddNumberToObject(reply, "bad_at", (double)k);
                break;
            }
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
    cJSON_AddItemToObject(reply, "d", fmuc_worker_f64_to_json(d, rows * nv));
out:
    equ_inst_free(&in);
    free(y);
    free(d);
    return 0;
}

/* The first derivative (value column dc of d, nv values a row) against the difference quotients
 * of output column yc of y (nc a row), points k0..npts-1; returns the misses. */
static size_t judge_fd(const equ_plan *p, size_t k0, size_t npts, const double *y, size_t nc,
                       size_t yc, const double *d, size_t nv, size_t dc, size_t *first,
                       double *fd_at, int *all_zero, double *qmax_out)
{
    double qmax = 0.0;
    size_t misses = 0;
    *all_zero = 1;
    for (size_t k = k0; k + 1 < npts; k++) {
        double q = (y[(k + 1) * nc + yc] - y[k * nc + yc]) / (p->t[k + 1] - p->t[k]);
        if (isfinite(q))
            qmax = fmax(qmax, fabs(q));
    }
    *qmax_out = qmax;
    for (size_t k = k0; k < npts; k++)
        if (d[k * nv + dc] != 0.0)
            *all_zero = 0;
    if (*all_zero)
        return 0;
    for (size_t k = k0 ? k0 : 1; k + 1 < npts; k++) {
        double qb = (y[k * nc + yc] - y[(k - 1) * nc + yc]) / (p->t[k] - p->t[k - 1]);
        double qf = (y[(k + 1) * nc + yc] - y[k * nc + yc]) / (p->t[k + 1] - p->t[k]);
        double dk = d[k * nv + dc];
        if (!isfinite(qb) || !isfinite(qf))
            continue;
        double w = 0.2 * qmax + 1e-9 * (1.0 + fabs(y[k * nc + yc]));
        if (dk >= fmin(qb, qf) - w && dk <= fmax(qb, qf) + w)
            continue;
        if (!misses++) {
            *first = k;
            *fd_at = 0.5 * (qb + qf);
        }
    }
    return misses;
}

/* The continuous Real outputs (at most max) and the recorded ones among them (rec, equ_var).
 * *skipped counts FMI 3.0 arrays of unknown size or beyond CSOD_MAX_VALUES. */
static size_t od_outputs(const fmuc_md *md, int ver, int nord, od_var *dv, size_t max,
                         equ_var *rec, size_t *nrec, size_t *nvals, size_t *skipped)
{
    size_t n = 0, off = 0;
    *nrec = *skipped = 0;
    for (size_t i = 0; i < md->nvars && n < max; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (v->causality != FMUC_CAUS_OUTPUT || v->type != FMUC_TYPE_REAL ||
            v->variability != FMUC_VAR_CONTINUOUS || !v->name ||
            !(v->has & FMUC_HAS_VALUE_REFERENCE))
            continue;
        const fmuc_md_var_ext *x = ver == 3 ? fmuc_md_var_ext_of(md, i) : NULL;
        int array = x && x->ndims;
        size_t el = array ? fmuc_sim_var_elements(md, i, NULL, 0, NULL) : 1;
        if (!el || off + el * (size_t)nord > CSOD_MAX_VALUES) {
            ++*skipped;
            continue;
        }
        long r = -1;
        if (ver != 3 || (!array && v->base == FMUC_BT_FLOAT64)) {
            r = (long)*nrec;
            rec[(*nrec)++] = (equ_var){.name = v->name, .vr = v->value_reference,
                                       .type = v->type, .line = v->line};
        }
        dv[n++] = (od_var){v->name, v->value_reference, v->line, el, off, r};
        off += el * (size_t)nord;
    }
    *nvals = off;
    return n;
}

/* The output, order (1-based) and element of value q of a call. */
static const od_var *od_value_of(const od_var *dv, size_t nd, int nord, size_t q, int *order,
                                 size_t *elem)
{
    for (size_t j = 0; j < nd; j++)
        if (q >= dv[j].off && q < dv[j].off + dv[j].elems * (size_t)nord) {
            *order = (int)((q - dv[j].off) / dv[j].elems) + 1;
            *elem = (q - dv[j].off) % dv[j].elems;
            return &dv[j];
        }
    return NULL;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_fmu *fmu = s->fmu;
    const fmuc_md *md = &fmu->md;
    const int ver = fmuc_fmu_fmi_version(fmu);
    const char *fn = od_fn(ver), *ds = ver == 1 ? "fmiDoStep" : ver == 3 ? "fmi3DoStep" : "fmi2DoStep";
    equ_plan p;
    equ_var *outs = NULL;
    od_var *dv = NULL;
    fmuc_vr *vr = NULL;
    int32_t *ord = NULL;
    double *y = NULL, *d = NULL;
    fmuc_worker_outcome o;
    int have_o = 0;
    char b[32];
    memset(&p, 0, sizeof p);
    if (!md->cs.present || md->cs.max_output_derivative_order < 1) {
        fmuc_result_na(res, ver == 1 ? "maxOutputDerivativeOrder of the Co-Simulation "
                                       "Capabilities (Implementation) is 0 (or absent)"
                                     : "maxOutputDerivativeOrder of CoSimulation is 0 (or absent)");
        return;
    }
    if (!fmu->lib_path_cs) {
        fmuc_result_na(res, "no CoSimulation binary for this platform");
        return;
    }
    if (!csu_nominal_usable(s, "cs-output-derivatives", res))
        return;
    int nord = md->cs.max_output_derivative_order > CSOD_MAX_ORDER
                   ? CSOD_MAX_ORDER
                   : (int)md->cs.max_output_derivative_order;
    outs = calloc(CSOD_MAX_OUTPUTS, sizeof *outs);
    dv = calloc(CSOD_MAX_OUTPUTS, sizeof *dv);
    size_t nc = 0, nvals = 0, skipped = 0;
    size_t nd = outs && dv ? od_outputs(md, ver, nord, dv, CSOD_MAX_OUTPUTS, outs, &nc, &nvals,
                                        &skipped)
                           : 0;
    if (!nd) {
        fmuc_result_na(res, "maxOutputDerivativeOrder=%u, but there is no continuous Real output%s",
                       md->cs.max_output_derivative_order,
                       skipped ? " whose elements are known" : "");
        goto out;
    }
    if (skipped)
        fmuc_result_note(res, "%zu array outputs of unknown or too large size are left out",
                         skipped);
    if ((unsigned)nord < md->cs.max_output_derivative_order)
        fmuc_result_note(res, "maxOutputDerivativeOrder=%u: orders 1..%d are read",
                         md->cs.max_output_derivative_order, nord);
    size_t nq = nd * (size_t)nord;
    vr = calloc(nq, sizeof *vr);
    ord = calloc(nq, sizeof *ord);
    if (!vr || !ord) {
        fmuc_result_error(res, "out of memory");
        goto out;
    }
    for (size_t j = 0; j < nd; j++)
        for (int q = 0; q < nord; q++) {
            vr[j * (size_t)nord + (size_t)q] = dv[j].vr;
            ord[j * (size_t)nord + (size_t)q] = q + 1;
        }
    if (csu_plan_init_ex(&p, fmu, CSOD_MIN_STEPS, CSOD_MAX_STEPS, 1) < 0 ||
        equ_plan_set_outputs(&p, outs, nc) < 0) {
        fmuc_result_na(res, "%s", p.why[0] ? p.why : "out of memory");
        goto out;
    }
    csu_clamp_inputs(&p);
    od_job job = {&p, ver, nord, vr, ord, nq, nvals};
    fmuc_result scratch;
    fmuc_result_init(&scratch, res->id, res->title, res->spec, res->level);
    if (equ_worker(s, fmu, "cs-output-derivatives", od_worker, &job, &o, &scratch) < 0) {
        char what[80];
        snprintf(what, sizeof what, "in %s", fn);
        if (scratch.verdict == FMUC_VERDICT_ERROR && scratch.nmessages &&
            strstr(scratch.messages[0], fn))
            csu_probe_died(res, &scratch, 1, what, "worker");
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
    size_t rows = p.nsteps + 1;
    size_t npts = (size_t)cJSON_GetNumberValue(cJSON_GetObjectItem(r, "points"));
    y = fmuc_worker_f64_from_json(cJSON_GetObjectItem(r, "y"), rows * nc);
    d = fmuc_worker_f64_from_json(cJSON_GetObjectItem(r, "d"), rows * nvals);
    if ((!y && nc) || !d || npts < 1 || npts > rows) {
        fmuc_result_error(res, "malformed worker reply");
        goto out;
    }
    cJSON *ev = fmuc_result_evidence(res);
    cJSON_AddNumberToObject(ev, "maxOutputDerivativeOrder", md->cs.max_output_derivative_order);
    cJSON_AddNumberToObject(ev, "points", (double)npts);
    cJSON_AddNumberToObject(ev, "outputs", (double)nd);
    cJSON_AddNumberToObject(ev, "values_per_call", (double)nvals);
    const cJSON *bs = cJSON_GetObjectItem(r, "bad_status");
    if (bs) {
        size_t k = (size_t)cJSON_GetNumberValue(cJSON_GetObjectItem(r, "bad_at"));
        if (k >= rows)
            k = 0;
        char nv_txt[40] = "";
        if (ver == 3)
            snprintf(nv_txt, sizeof nv_txt, ", %zu values", nvals);
        fmuc_result_violation(res, "%s (orders 1..%d of %zu continuous Real outputs%s, first '%s' "
                                   "vr %u) returned %s at t=%.9g although "
                                   "maxOutputDerivativeOrder=%u (%s)",
                              fn, nord, nd, nv_txt, dv[0].name, dv[0].vr,
                              fmuc_status_name(ver, (int)cJSON_GetNumberValue(bs), b, sizeof b),
                              p.t[k], md->cs.max_output_derivative_order, od_clause(ver));
        npts = k; /* the values of the failed call are not used */
    }
    const char *se = cJSON_GetStringValue(cJSON_GetObjectItem(r, "step_error"));
    if (se)
        fmuc_result_note(res, "the run ended early (%s; see cs-nominal-run): %zu points judged",
                         se, npts);
    /* finite values (FMI 1.0: none read at the first point) */
    size_t k0 = ver == 1 ? 1 : 0, nonfinite = 0;
    for (size_t k = k0; k < npts; k++)
        for (size_t q = 0; q < nvals; q++) {
            int order = 0;
            size_t el = 0;
            const od_var *w = od_value_of(dv, nd, nord, q, &order, &el);
            char elt[48] = "";
            if (!w || isfinite(d[k * nvals + q]) || nonfinite++ >= 5)
                continue;
            if (w->elems > 1)
                snprintf(elt, sizeof elt, ", element %zu", el + 1);
            fmuc_result_warn(res, "%s returned %s, but order %d of '%s' (vr %u, line %u%s) is "
                                  "%.17g at t=%.9g%s%s%s",
                             fn, fmuc_status_name(ver, FMUC_STATUS_OK, b, sizeof b), order, w->name, w->vr, w->line, elt, d[k * nvals + q], p.t[k],
                             k ? "" : " (before the first ", k ? "" : ds, k ? "" : ")");
        }
    if (nonfinite > 5)
        fmuc_result_note(res, "%zu further non-finite derivative values", nonfinite - 5);
    /* first order against the difference quotients (the recorded scalar outputs) */
    size_t zero = 0, compared = 0;
    for (size_t j = 0; j < nd && npts >= k0 + 3; j++) {
        if (dv[j].rec < 0)
            continue;
        size_t first = 0, yc = (size_t)dv[j].rec;
        double fd = 0.0, qmax = 0.0;
        int all_zero = 0;
        compared++;
        size_t miss = judge_fd(&p, k0, npts, y, nc, yc, d, nvals, dv[j].off, &first, &fd,
                               &all_zero, &qmax);
        if (all_zero && qmax > 0.0 && zero++ < 3)
            fmuc_result_note(res, "the first derivative of '%s' (vr %u) is 0 at every point "
                                  "while the output changes (allowed: the internal order may be "
                                  "lower%s)",
                             dv[j].name, dv[j].vr,
                             ver == 2 ? ", §4.2.1" : ver == 3 ? ", FMI 3.0.2 §4.1.2" : "");
        if (miss * 10 > npts - k0)
            fmuc_result_warn(res, "the first derivative of '%s' (vr %u, line %u) is %.9g at "
                                  "t=%.9g where the output's difference quotient is %.9g (%zu of "
                                  "%zu points disagree beyond 20 %% of its largest quotient %.3g)",
                             dv[j].name, dv[j].vr, dv[j].line, d[first * nvals + dv[j].off],
                             p.t[first], fd, miss, npts - k0, qmax);
    }
    if (npts >= k0 + 3 && compared < nd)
        fmuc_result_note(res, "%zu of %zu outputs (arrays, Float32) are judged by their status "
                              "and finite values only, without the difference quotients",
                         nd - compared, nd);
out:
    if (have_o)
        fmuc_worker_outcome_free(&o);
    free(y);
    free(d);
    free(outs);
    free(dv);
    free(vr);
    free(ord);
    equ_plan_free(&p);
    equ_v3_names(s, res, 0);
}

const fmuc_check fmuc_check_cs_output_derivatives = {
    .id = "cs-output-derivatives",
    .title = "With maxOutputDerivativeOrder >= 1, the output derivatives can be read up to that "
             "order",
    .spec = "FMI 2.0.4 §4.3.1, §4.2.1; FMI 3.0.2 §4.1.2, §4.4; FMI 1.0 CS (Capabilities "
            "maxOutputDerivativeOrder; fmiGetRealOutputDerivatives)",
    .level = FMUC_LEVEL_MUST,
    .why = "A master that uses output derivatives (maxOutputDerivativeOrder >= 1) to extrapolate "
           "between steps gets wrong coupling values when the FMU returns an error or stale "
           "derivatives.",
    .fix = "Compute the output derivatives (fmi2GetRealOutputDerivatives, fmi3GetOutputDerivatives, "
           "fmiGetRealOutputDerivatives) at the current time for every order up to "
           "maxOutputDerivativeOrder, or lower that flag.",
    .applies = FMUC_APPLIES_CS,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .sessions = 1,
    .run = run,
};
