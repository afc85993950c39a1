/* api-configuration-mode: an FMU with structural parameters goes into Configuration Mode, takes
 * new values of its structural parameters, resizes the arrays they dimension, initializes and
 * runs with the new sizes; tunable ones are changed again in Reconfiguration Mode.
 *   FMI 3.0.2 §3.2 / §4.2 (state machines, fmi3-rules C-20, D tables notes 10-13):
 *     fmi3EnterConfigurationMode from Instantiated enters Configuration Mode when the FMU has
 *     structural parameters; there fmi3Set{T} sets structural parameters (note 12);
 *     fmi3ExitConfigurationMode returns to Instantiated. From Event Mode (ME) or Step Mode (CS)
 *     it enters Reconfiguration Mode when the FMU has tunable structural parameters, where only
 *     tunable structural parameters are set (note 13), and fmi3ExitConfigurationMode returns to
 *     the mode it came from.
 *   FMI 3.0.2 §2.4.7.2 (B-256, C-42): the size of a <Dimension valueReference=...> is the
 *     current value of the structural parameter; within its min/max; the array's current
 *     values and start values are invalid after a resize; fmi3Get{T}/fmi3Set{T} take nValues,
 *     the sum of the element counts (§2.2.6.2).
 *   FMI 3.0.2 §2.3.2, §3.2.1 (C-27, C-28): ME vector arguments use the current sizes, and
 *     fmi3GetNumberOfContinuousStates / fmi3GetNumberOfEventIndicators answer them.
 * Probe (one instance per interface): instantiate; fmi3EnterConfigurationMode; each integer
 * structural parameter set to another valid value (start+1 within max, else start-1 within min,
 * at least 1 when it dimensions an array), each Boolean one to its start value (another value
 * may change the equations, not only sizes); fmi3ExitConfigurationMode; the parameter and input
 * arrays they dimension set with their new element counts (the start values cycled);
 * initialization; every array they dimension read with its new count (OK and finite); ME:
 * fmi3GetNumberOfContinuousStates and fmi3GetNumberOfEventIndicators equal the counts the
 * modelDescription gives for the new sizes (C-28; another answer or a refusal fails); five
 * intervals of at most 1e-3 s (CS fmi3DoStep, ME RK4, 10 substeps, with the new number of states); then, with tunable
 * structural parameters, Reconfiguration Mode from Event Mode / Step Mode, the tunable ones back
 * to their start values, five more intervals. A refused transition or set, a refused get with
 * the new counts or a failed step fails (must). Derived, warn: a structural parameter set in
 * Event Mode / Step Mode outside (Re)Configuration Mode is accepted (notes 4/5: not settable
 * there; the rules catalogue notes the text's wording on structural parameters as unclear). */

#include "api_util.h"
#include "fmuc/fmuc_step.h"

#define NSTEPS 5
#define MAX_SP 32      /* structural parameters changed */
#define MAX_ELEMS 4096 /* elements of one array handled */

typedef struct cm_job {
    fmuc_iface type;
} cm_job;

/* the structural parameters the probe changes: valueReference, current and start value */
typedef struct cm_sp {
    size_t n;
    size_t var[MAX_SP];
    fmuc_vr vr[MAX_SP];
    double cur[MAX_SP], start[MAX_SP];
} cm_sp;


static int is_int_base(unsigned b)
{
    return b == FMUC_BT_INT8 || b == FMUC_BT_UINT8 || b == FMUC_BT_INT16 ||
           b == FMUC_BT_UINT16 || b == FMUC_BT_INT32 || b == FMUC_BT_UINT32 ||
           b == FMUC_BT_INT64 || b == FMUC_BT_UINT64;
}

static int dimensions_something(const fmuc_md *md, fmuc_vr vr)
{
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, i);
        for (uint32_t k = 0; x && k < x->ndims; k++)
            if (x->dims[k].has_vr && x->dims[k].value_reference == vr)
                return 1;
    }
    return 0;
}

/* The value of the structural parameter or constant with valueReference vr: sp's current value
 * when it is one of them, else its start value; NAN when unknown. */
static double dim_value(const fmuc_md *md, const cm_sp *sp, fmuc_vr vr)
{
    for (size_t k = 0; k < sp->n; k++)
        if (sp->vr[k] == vr)
            return sp->cur[k];
    for (size_t j = 0; j < md->nvars; j++)
        if ((md->vars[j].has & FMUC_HAS_VALUE_REFERENCE) && md->vars[j].value_reference == vr &&
            (md->vars[j].has & FMUC_HAS_START))
            return md->vars[j].start;
    return NAN;
}

/* Elements of variable i with the structural parameters at sp's current values (§2.4.7.2):
 * 1 for a scalar, the product of the sizes (0 allowed); SIZE_MAX when unknown or too large.
 * *dep: whether a size comes from one of sp's parameters. */
static size_t elements(const fmuc_md *md, const cm_sp *sp, size_t i, int *dep)
{
    const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, i);
    size_t n = 1;
    if (dep)
        *dep = 0;
    for (uint32_t k = 0; x && k < x->ndims; k++) {
        const fmuc_md_dim *d = &x->dims[k];
        double s = d->has_start ? (double)d->start
                   : d->has_vr  ? dim_value(md, sp, d->value_reference)
                                : NAN;
        for (size_t j = 0; dep && d->has_vr && j < sp->n; j++)
            *dep |= sp->vr[j] == d->value_reference;
        if (!(s >= 0.0) || s > (double)MAX_ELEMS)
            return SIZE_MAX;
        n *= (size_t)s;
        if (n > MAX_ELEMS)
            return SIZE_MAX;
    }
    return n;
}

/* The start values of a Float variable as a list (the attribute's space-separated text or the
 * <Start> elements); at most max of them, the count returned (0: none). */
static size_t start_values(const fmuc_md *md, size_t i, double *out, size_t max)
{
    const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, i);
    size_t n = 0;
    if (x && x->nstarts) {
        for (uint32_t k = 0; k < x->nstarts && n < max; k++) {
            char *end;
            double v = x->starts[k] ? strtod(x->starts[k], &end) : NAN;
            if (x->starts[k] && end != x->starts[k] && isfinite(v))
                out[n++] = v;
        }
        return n;
    }
    const char *p = md->vars[i].start_text;
    while (p && *p && n < max) {
        char *end;
        double v = strtod(p, &end);
        if (end == p)
            break;
        if (isfinite(v))
            out[n++] = v;
        p = end;
    }
    return n;
}

static const char *stname(fmuc_status st, char *b, size_t n) { return fmuc_status_name(3, st, b, n); }

/* Sets each changed structural parameter to sp->cur; 0 or -1 (a refusal, reported). */
static int set_sps(cJSON *reply, fmuc_inst *in, const fmuc_md *md, const cm_sp *sp,
                   const char *mode, const char *iname)
{
    for (size_t k = 0; k < sp->n; k++) {
        const fmuc_md_var *v = &md->vars[sp->var[k]];
        fmuc_inst_base b = apiu_inst_base(v->base);
        uint64_t buf = 0;
        char sb[32];
        apiu_put_number(b, &buf, sp->cur[k]);
        fmuc_status st = fmuc_inst_set(in, b, &sp->vr[k], 1, &buf, 1);
        if (!apiu_ok(st)) {
            apiu_finding(reply, "fail",
                    "%s: fmi3Set%s of structural parameter '%s' (vr %u) to %.0f in %s returned %s "
                    "(§3.2/§4.2: structural parameters are set in %s)",
                    iname, apiu_base3_name(b), apiu_vname(v), sp->vr[k], sp->cur[k], mode,
                    stname(st, sb, sizeof sb), mode);
            return -1;
        }
    }
    return 0;
}

/* Enter (Re)Configuration Mode, set, exit. 0, or -1 (reported; the instance is unusable). */
static int configure(cJSON *reply, fmuc_inst *in, const fmuc_md *md, const cm_sp *sp,
                     const char *mode, const char *from, const char *iname)
{
    char sb[32];
    fmuc_status st = fmuc_inst_enter_configuration_mode(in);
    if (!apiu_ok(st)) {
        apiu_finding(reply, "fail",
                "%s: fmi3EnterConfigurationMode from %s returned %s; the FMU declares %s"
                "structural parameters, so it enters %s (§3.2/§4.2, transitions to %s)",
                iname, from, stname(st, sb, sizeof sb),
                strcmp(mode, "Configuration Mode") == 0 ? "" : "tunable ", mode, mode);
        return -1;
    }
    if (set_sps(reply, in, md, sp, mode, iname) < 0)
        return -1;
    st = fmuc_inst_exit_configuration_mode(in);
    if (!apiu_ok(st)) {
        apiu_finding(reply, "fail", "%s: fmi3ExitConfigurationMode in %s returned %s (§3.2/§4.2)",
                iname, mode, stname(st, sb, sizeof sb));
        return -1;
    }
    return 0;
}

/* The parameter and input Float64/Float32 arrays dimensioned by a changed structural parameter
 * get their new element counts (start values cycled; 0 without start values). In Instantiated
 * (set rule 1: parameters and inputs with initial exact). -1 after a refusal (reported). */
static int set_arrays(cJSON *reply, fmuc_inst *in, const fmuc_md *md, const cm_sp *sp,
                      const char *iname, size_t *nset)
{
    double *sv = malloc(MAX_ELEMS * sizeof *sv);
    double *vals = malloc(MAX_ELEMS * sizeof *vals);
    float *fv = malloc(MAX_ELEMS * sizeof *fv);
    int rc = 0;
    if (!sv || !vals || !fv) {
        free(sv);
        free(vals);
        free(fv);
        return 0;
    }
    for (size_t i = 0; i < md->nvars && rc == 0; i++) {
        const fmuc_md_var *v = &md->vars[i];
        int dep = 0;
        size_t ne = elements(md, sp, i, &dep);
        if (!dep || ne == SIZE_MAX || ne == 0 || !(v->has & FMUC_HAS_VALUE_REFERENCE))
            continue;
        if (v->causality != FMUC_CAUS_PARAMETER && v->causality != FMUC_CAUS_INPUT)
            continue;
        if (v->variability == FMUC_VAR_CONSTANT ||
            (v->base != FMUC_BT_FLOAT64 && v->base != FMUC_BT_FLOAT32))
            continue;
        size_t ns = start_values(md, i, sv, MAX_ELEMS);
        for (size_t k = 0; k < ne; k++) {
            vals[k] = ns ? sv[k % ns] : 0.0;
            fv[k] = (float)vals[k];
        }
        fmuc_vr vr = v->value_reference;
        fmuc_inst_base b = v->base == FMUC_BT_FLOAT64 ? FMUC_INST_FLOAT64 : FMUC_INST_FLOAT32;
        fmuc_status st = fmuc_inst_set(in, b, &vr, 1,
                                       b == FMUC_INST_FLOAT64 ? (void *)vals : (void *)fv, ne);
        char sb[32];
        if (!apiu_ok(st)) {
            apiu_finding(reply, "fail",
                    "%s: fmi3Set%s of '%s' (vr %u) with its new size, nValues=%zu, after "
                    "fmi3ExitConfigurationMode returned %s (§2.4.7.2: the size is the structural "
                    "parameter's current value; §3.2 set rule 1 in Instantiated)",
                    iname, apiu_base3_name(b), apiu_vname(v), vr, ne, stname(st, sb, sizeof sb));
            rc = -1;
        }
        (*nset)++;
    }
    free(sv);
    free(vals);
    free(fv);
    return rc;
}

/* Every numeric array dimensioned by a changed structural parameter read with its new element
 * count: the call is accepted and Float values are finite. -1 after a refusal (reported). */
static int get_arrays(cJSON *reply, fmuc_inst *in, const fmuc_md *md, const cm_sp *sp,
                      const char *iname, const char *when, size_t *nget)
{
    double *vals = malloc(MAX_ELEMS * sizeof(double));
    int rc = 0;
    if (!vals)
        return 0;
    for (size_t i = 0; i < md->nvars && rc == 0; i++) {
        const fmuc_md_var *v = &md->vars[i];
        int dep = 0;
        size_t ne = elements(md, sp, i, &dep);
        if (!dep || ne == SIZE_MAX || !(v->has & FMUC_HAS_VALUE_REFERENCE))
            continue;
        fmuc_inst_base b = apiu_inst_base(v->base);
        if (b > FMUC_INST_UINT64 || v->causality == FMUC_CAUS_STRUCTURAL_PARAMETER)
            continue;
        fmuc_vr vr = v->value_reference;
        char sb[32];
        fmuc_status st = fmuc_inst_get(in, b, &vr, 1, vals, ne);
        (*nget)++;
        if (!apiu_ok(st)) {
            apiu_finding(reply, "fail",
                    "%s: fmi3Get%s of '%s' (vr %u) with its new size, nValues=%zu, %s returned %s "
                    "(§2.4.7.2: the size is the structural parameter's current value)",
                    iname, apiu_base3_name(b), apiu_vname(v), vr, ne, when, stname(st, sb, sizeof sb));
            rc = -1;
            break;
        }
        for (size_t k = 0; k < ne; k++) {
            double x = b == FMUC_INST_FLOAT64 ? vals[k]
                       : b == FMUC_INST_FLOAT32 ? (double)((float *)vals)[k]
                                                : 0.0;
            if (!isfinite(x)) {
                apiu_finding(reply, "fail", "%s: '%s' (vr %u) element %zu of %zu is %g %s", iname,
                        apiu_vname(v), vr, k + 1, ne, x, when);
                rc = -1;
                break;
            }
        }
    }
    free(vals);
    return rc;
}

/* ME: states and event indicators with the current sizes (C-27) */
static void me_sizes(const fmuc_md *md, const cm_sp *sp, size_t *nx, size_t *nz)
{
    *nx = *nz = 0;
    for (size_t k = 0; k < md->nderivatives; k++) {
        size_t e = md->derivatives[k].index ? elements(md, sp, md->derivatives[k].index - 1, NULL)
                                            : SIZE_MAX;
        *nx += e == SIZE_MAX ? 0 : e;
    }
    for (size_t k = 0; k < md->nevent_indicators; k++) {
        size_t e = md->event_indicators[k].index
                       ? elements(md, sp, md->event_indicators[k].index - 1, NULL)
                       : SIZE_MAX;
        *nz += e == SIZE_MAX ? 0 : e;
    }
}

/* "'n' (vr 1) 3 -> 4, ..." : the structural parameters sp changed, for messages. */
static const char *sp_changes(const fmuc_md *md, const cm_sp *sp, char *buf, size_t size)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < sp->n && o < size; k++) {
        int w = snprintf(buf + o, size - o, "%s'%s' (vr %u) %.0f -> %.0f", k ? ", " : "",
                         apiu_vname(&md->vars[sp->var[k]]), sp->vr[k], sp->start[k], sp->cur[k]);
        if (w < 0)
            break;
        o += (size_t)w;
    }
    return buf;
}

/* ME after initialization with the new values (C-28, FMI 3.0.2 §2.3.2, §3.2.1):
 * fmi3GetNumberOfContinuousStates and fmi3GetNumberOfEventIndicators answer the counts the
 * modelDescription gives for the new sizes. -1 after a refusal or another answer (reported). */
static int check_counts(cJSON *reply, fmuc_inst *in, const fmuc_md *md, const cm_sp *sp,
                        const char *iname)
{
    size_t want[2], got[2] = {0, 0};
    me_sizes(md, sp, &want[0], &want[1]);
    static const char *const fn[2] = {"fmi3GetNumberOfContinuousStates",
                                      "fmi3GetNumberOfEventIndicators"};
    static const char *const what[2] = {"continuous states", "event indicators"};
    static const char *const key[2] = {"n_continuous_states", "n_event_indicators"};
    char changes[512], sb[32];
    for (size_t k = 0; k < md->nderivatives + md->nevent_indicators; k++) {
        const fmuc_md_unknown *u = k < md->nderivatives
                                       ? &md->derivatives[k]
                                       : &md->event_indicators[k - md->nderivatives];
        if (!u->index || elements(md, sp, u->index - 1, NULL) == SIZE_MAX) {
            apiu_finding(reply, "note", "%s: the number of states and event indicators for the "
                                        "new sizes is not known: not compared with "
                                        "fmi3GetNumberOfContinuousStates", iname);
            return 0;
        }
    }
    for (int i = 0; i < 2; i++) {
        fmuc_status st = i == 0 ? fmuc_inst_get_number_of_continuous_states(in, &got[i])
                                : fmuc_inst_get_number_of_event_indicators(in, &got[i]);
        if (st == FMUC_STATUS_NOT_PROVIDED)
            continue; /* a missing function: api-mandatory-functions */
        if (!apiu_ok(st)) {
            apiu_finding(reply, "fail",
                    "%s: %s in Event Mode after initialization with the new structural parameter "
                    "values (%s) returned %s (FMI 3.0.2 §2.3.2, §3.2.1)",
                    iname, fn[i], sp_changes(md, sp, changes, sizeof changes),
                    stname(st, sb, sizeof sb));
            return -1;
        }
        cJSON_AddNumberToObject(reply, key[i], (double)got[i]);
        if (got[i] != want[i]) {
            apiu_finding(reply, "fail",
                    "%s: %s answered %zu after initialization with the new structural parameter "
                    "values (%s), but the modelDescription gives %zu %s for the new sizes "
                    "(FMI 3.0.2 §2.3.2, §3.2.1: the number follows the structural parameters, "
                    "C-28)",
                    iname, fn[i], got[i], sp_changes(md, sp, changes, sizeof changes), want[i],
                    what[i]);
            return -1;
        }
    }
    return 0;
}

/* NSTEPS intervals from t0 by h; ME enters Continuous-Time Mode first (from Event Mode) and
 * ends in it. 0, or -1 (reported). */
static int run_intervals(cJSON *reply, fmuc_inst *in, const fmuc_md *md, const cm_sp *sp, int me,
                         double t0, double h, const char *iname, const char *when)
{
    size_t nx = 0, nz = 0;
    if (me)
        me_sizes(md, sp, &nx, &nz);
    fmuc_stepper st;
    if (fmuc_stepper_init(&st, in, me, nx, nz) < 0)
        return -1;
    st.cs_no_set_prior = 1;
    st.nsub = 10; /* ME: RK4 substeps of at most 1e-4 (h <= 1e-3): stiff models stay stable */
    fmuc_step_rc rc = me ? fmuc_step_me_enter_ctm(&st) : FMUC_STEP_OK;
    for (int k = 0; k < NSTEPS && rc == FMUC_STEP_OK; k++)
        rc = fmuc_step_interval(&st, t0 + k * h, t0 + (k + 1) * h, NULL);
    if (rc != FMUC_STEP_OK && rc != FMUC_STEP_TERMINATE)
        apiu_finding(reply, "fail", "%s: the run %s (%s%zu states) stopped: %s", iname, when,
                me ? "" : "CS, ", nx,
                rc == FMUC_STEP_FAILED ? st.call : st.why[0] ? st.why : "the step-wise driver");
    for (size_t k = 0; me && k < nx && rc == FMUC_STEP_OK; k++)
        if (!isfinite(st.x[k])) {
            apiu_finding(reply, "fail", "%s: state %zu of %zu is %g %s", iname, k + 1, nx, st.x[k],
                    when);
            rc = FMUC_STEP_FAILED;
        }
    fmuc_stepper_free(&st);
    return rc == FMUC_STEP_OK ? 0 : rc == FMUC_STEP_TERMINATE ? 1 : -1;
}

/* Choose the new values: sp->cur = start+1 within max, else start-1 within min (>= 1 for a
 * size). Notes the parameters left alone. */
static void choose(cJSON *reply, const fmuc_md *md, cm_sp *sp)
{
    for (size_t i = 0; i < md->nvars && sp->n < MAX_SP; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (v->causality != FMUC_CAUS_STRUCTURAL_PARAMETER ||
            !(v->has & FMUC_HAS_VALUE_REFERENCE) || !(v->has & FMUC_HAS_START) ||
            !isfinite(v->start))
            continue;
        if (v->base == FMUC_BT_BOOLEAN) {
            /* what another value does to the model is unknown (it may change the equations,
             * not only sizes): set to its start value, the transitions and the set judged */
            sp->var[sp->n] = i;
            sp->vr[sp->n] = v->value_reference;
            sp->start[sp->n] = sp->cur[sp->n] = v->start != 0.0;
            sp->n++;
            continue;
        }
        if (!is_int_base(v->base))
            continue;
        double lo = -HUGE_VAL, hi = HUGE_VAL, s = v->start, nv = NAN;
        apiu_min(md, v, &lo);
        apiu_max(md, v, &hi);
        int size = dimensions_something(md, v->value_reference);
        if (size && hi > 64)
            hi = 64; /* a small change is enough */
        if (s + 1 <= hi && s + 1 >= lo)
            nv = s + 1;
        else if (s - 1 >= lo && s - 1 <= hi && (!size || s - 1 >= 1))
            nv = s - 1;
        if (!isfinite(nv)) {
            apiu_finding(reply, "note", "structural parameter '%s' (vr %u): no other valid value next "
                                   "to start %.0f within min/max: left alone",
                    apiu_vname(v), v->value_reference, s);
            continue;
        }
        sp->var[sp->n] = i;
        sp->vr[sp->n] = v->value_reference;
        sp->start[sp->n] = s;
        sp->cur[sp->n] = nv;
        sp->n++;
    }
}

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    const cm_job *job = payload;
    const fmuc_md *md = &fmuc_worker_fmu(ctx)->md;
    cJSON *reply = fmuc_worker_reply(ctx);
    const char *iname = apiu_iface_name(job->type);
    int me = job->type == FMUC_IFACE_ME;
    cm_sp sp = {0};
    choose(reply, md, &sp);
    if (sp.n == 0) {
        cJSON_AddStringToObject(reply, "stopped", "no integer or Boolean structural parameter "
                                                  "with a valid value to set");
        return 0;
    }
    if (apiu_load(ctx, job->type) < 0)
        return 0;
    fmuc_worker_phase(ctx, "instantiate");
    fmuc_inst *in = fmuc_inst_instantiate(ctx, job->type, NULL, "configuration-mode");
    if (!in) {
        cJSON_AddStringToObject(reply, "stopped", "instantiation returned NULL");
        return 0;
    }
    size_t nset = 0, nget = 0;
    fmuc_worker_phase(ctx, "Configuration Mode");
    if (configure(reply, in, md, &sp, "Configuration Mode", "Instantiated", iname) < 0)
        goto out;
    cJSON_AddNumberToObject(reply, "configured", (double)sp.n);
    if (set_arrays(reply, in, md, &sp, iname, &nset) < 0)
        goto out;
    fmuc_worker_phase(ctx, "initialization");
    fmuc_drive_start ds;
    fmuc_drive_reached r;
    fmuc_drive_start_init(&ds, md);
    int reached = fmuc_drive_reach(in, fmuc_drive_after_init_state(job->type), &ds, &r);
    if (reached != 0) {
        char sb[32];
        const char *fn = r.failed_op >= 0 ? fmuc_inst_op_name(3, (fmuc_inst_op)r.failed_op) : NULL;
        apiu_finding(reply, "fail", "%s: initialization with the new structural parameter values "
                               "failed: %s returned %s",
                iname, fn ? fn : "a call", stname(r.status, sb, sizeof sb));
        goto out;
    }
    if (get_arrays(reply, in, md, &sp, iname, me ? "in Event Mode after initialization"
                                                 : "in Step Mode after initialization",
                   &nget) < 0)
        goto out;
    if (me && check_counts(reply, in, md, &sp, iname) < 0)
        goto out;
    double t0 = md->experiment.present && md->experiment.has_start ? md->experiment.start_time
                                                                   : 0.0;
    double h = md->experiment.present && md->experiment.has_step && md->experiment.step_size > 0
                   ? md->experiment.step_size
                   : 1e-2;
    if (h > 1e-3)
        h = 1e-3; /* a short run: the probe judges the new sizes, not the dynamics */
    fmuc_worker_phase(ctx, "run");
    int rr = run_intervals(reply, in, md, &sp, me, t0, h, iname, "after Configuration Mode");
    if (rr != 0)
        goto out;
    cJSON_AddNumberToObject(reply, "run1", NSTEPS);
    /* Reconfiguration Mode: the tunable ones back to their start values */
    cm_sp tun = {0};
    for (size_t k = 0; k < sp.n; k++)
        if (md->vars[sp.var[k]].variability == FMUC_VAR_TUNABLE) {
            tun.var[tun.n] = sp.var[k];
            tun.vr[tun.n] = sp.vr[k];
            tun.start[tun.n] = sp.start[k];
            tun.cur[tun.n] = sp.start[k];
            tun.n++;
        }
    if (tun.n == 0)
        goto probe;
    fmuc_worker_phase(ctx, "Reconfiguration Mode");
    if (me) {
        char sb[32];
        fmuc_status st = fmuc_inst_enter_event_mode(in);
        if (!apiu_ok(st)) {
            apiu_finding(reply, "fail", "%s: fmi3EnterEventMode returned %s", iname,
                    stname(st, sb, sizeof sb));
            goto out;
        }
    }
    if (configure(reply, in, md, &tun, "Reconfiguration Mode", me ? "Event Mode" : "Step Mode",
                  iname) < 0)
        goto out;
    for (size_t k = 0; k < sp.n; k++)
        for (size_t j = 0; j < tun.n; j++)
            if (sp.vr[k] == tun.vr[j])
                sp.cur[k] = tun.cur[j];
    cJSON_AddNumberToObject(reply, "reconfigured", (double)tun.n);
    if (get_arrays(reply, in, md, &sp, iname, "after Reconfiguration Mode", &nget) < 0)
        goto out;
    rr = run_intervals(reply, in, md, &sp, me, t0 + NSTEPS * h, h, iname,
                       "after Reconfiguration Mode");
    if (rr != 0)
        goto out;
    cJSON_AddNumberToObject(reply, "run2", NSTEPS);
probe:
    /* a structural parameter set outside (Re)Configuration Mode (ME: back in Event Mode) */
    if (me && !apiu_ok(fmuc_inst_enter_event_mode(in)))
        goto out;
    {
        const fmuc_md_var *v = &md->vars[sp.var[0]];
        fmuc_inst_base b = apiu_inst_base(v->base);
        uint64_t buf = 0;
        char sb[32];
        apiu_put_number(b, &buf, b == FMUC_INST_BOOLEAN      ? sp.start[0]
                         : sp.cur[0] == sp.start[0] ? sp.cur[0] + (sp.cur[0] < 1 ? 1 : -1)
                                                    : sp.start[0]);
        fmuc_status st = fmuc_inst_set(in, b, &sp.vr[0], 1, &buf, 1);
        cJSON_AddNumberToObject(reply, "outside_status", st);
        if (apiu_ok(st))
            apiu_finding(reply, "warn",
                    "%s: fmi3Set%s of structural parameter '%s' (vr %u, %s) in %s, outside "
                    "Configuration Mode, returned %s; §3.2/§4.2 set structural parameters only in "
                    "Configuration Mode%s (derived: expected fmi3Error)",
                    iname, apiu_base3_name(b), apiu_vname(v), sp.vr[0],
                    v->variability == FMUC_VAR_TUNABLE ? "tunable" : "fixed",
                    me ? "Event Mode" : "Step Mode", stname(st, sb, sizeof sb),
                    v->variability == FMUC_VAR_TUNABLE ? " and Reconfiguration Mode" : "");
    }
out:
    cJSON_AddNumberToObject(reply, "arrays_set", (double)nset);
    cJSON_AddNumberToObject(reply, "arrays_read", (double)nget);
    fmuc_worker_phase(ctx, "free");
    fmuc_inst_terminate(in);
    fmuc_inst_free(in);
    return 0;
}

/* ---- judging (parent side) ------------------------------------------------------------------ */

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    size_t nsp = 0;
    for (size_t i = 0; i < md->nvars; i++)
        nsp += md->vars[i].causality == FMUC_CAUS_STRUCTURAL_PARAMETER;
    if (nsp == 0) {
        fmuc_result_na(res, "no variable with causality=\"structuralParameter\" (Configuration "
                            "Mode is only for FMUs with structural parameters, §3.2/§4.2)");
        return;
    }
    apiu_iface ifs[2];
    size_t n = apiu_ifaces(s->fmu, ifs);
    if (n == 0) {
        fmuc_result_na(res, "no ModelExchange or CoSimulation interface with a library for this "
                            "platform");
        return;
    }
    cJSON *ev = fmuc_result_evidence(res);
    for (size_t i = 0; i < n; i++) {
        if (fmuc_shared_unusable(s, ifs[i].type, FMUC_UNUSABLE_INSTANCE)) {
            fmuc_result_note(res, "%s not probed: %s", ifs[i].name,
                             fmuc_shared_unusable(s, ifs[i].type, FMUC_UNUSABLE_INSTANCE));
            continue;
        }
        cm_job job = {ifs[i].type};
        fmuc_worker_outcome o;
        const cJSON *reply =
            apiu_run(s, res, "api-configuration-mode", ifs[i].type, worker, &job, &o);
        if (reply && !apiu_load_failed(reply, res, ifs[i].type)) {
            cJSON_AddItemToObject(ev, ifs[i].name, cJSON_Duplicate(reply, 1));
            apiu_report_findings(reply, res);
            const char *stop =
                cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(reply, "stopped"));
            if (stop)
                fmuc_result_note(res, "%s: %s", ifs[i].name, stop);
            const cJSON *c = cJSON_GetObjectItemCaseSensitive(reply, "configured");
            const cJSON *nx = cJSON_GetObjectItemCaseSensitive(reply, "n_continuous_states");
            const cJSON *nz = cJSON_GetObjectItemCaseSensitive(reply, "n_event_indicators");
            char counts[128] = "";
            if (nx && nz)
                snprintf(counts, sizeof counts,
                         "; fmi3GetNumberOfContinuousStates = %.0f and "
                         "fmi3GetNumberOfEventIndicators = %.0f as the new sizes give",
                         nx->valuedouble, nz->valuedouble);
            const cJSON *rc = cJSON_GetObjectItemCaseSensitive(reply, "reconfigured");
            if (c)
                fmuc_result_note(
                    res, "%s: %.0f structural parameter(s) set in Configuration Mode, %.0f "
                         "in Reconfiguration Mode; %.0f array(s) set and %.0f read with their new "
                         "sizes; %s%s",
                    ifs[i].name, c->valuedouble, rc ? rc->valuedouble : 0.0,
                    cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(reply, "arrays_set")),
                    cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(reply, "arrays_read")),
                    cJSON_GetObjectItemCaseSensitive(reply, "run2")   ? "two runs of 5 intervals"
                    : cJSON_GetObjectItemCaseSensitive(reply, "run1") ? "one run of 5 intervals"
                                                                      : "no run",
                    counts);
        }
        fmuc_worker_outcome_free(&o);
    }
}

const fmuc_check fmuc_check_api_configuration_mode = {
    .id = "api-configuration-mode",
    .title = "Structural parameters change in Configuration and Reconfiguration Mode and resize "
             "their arrays",
    .spec = "FMI 3.0.2 §3.2, §4.2 (state machines), §2.4.7.2, §2.3.2",
    .level = FMUC_LEVEL_MUST,
    .why = "An importer that sizes a model through its structural parameters (array lengths, "
           "number of states) cannot use the FMU when Configuration Mode is refused or the "
           "arrays keep their old sizes.",
    .fix = "Accept fmi3EnterConfigurationMode from Instantiated (and, with tunable structural "
           "parameters, from Event/Step Mode), apply the new values in "
           "fmi3ExitConfigurationMode and size every dependent array from them.",
    .applies = FMUC_APPLIES_ME | FMUC_APPLIES_CS,
    .versions = FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .run = run,
};
