/* api-dependencies-observed: the declared dependencies of outputs (and state derivatives) on
 * inputs hold in experiment.
 *   FMI 2.0.4 §2.2.8 (fmi2-rules B-406): <ModelStructure> Unknown "dependencies ... If not
 *     present, it must be assumed that the unknown depends on all knowns. If present as empty
 *     list, the unknown depends on none of the knowns. Otherwise the unknown depends on the
 *     knowns defined by the given variable indices".
 *   FMI 3.0.2 §2.4.8 (fmi3-rules B-406, B-407): <ModelStructure><Output> and
 *     <ContinuousStateDerivative> give dependencies as valueReferences with the same meaning
 *     (absent: all knowns; empty: none); the knowns of both in Continuous-Time and Event Mode
 *     (ME) and at communication points (CS) include the inputs.
 *   FMI 1.0 ME and CS (fmiScalarVariable.xsd, fmi1-rules B-208, B-209; the CS 1.0 model
 *     description is the ME one plus <Implementation>): the <DirectDependency> element of an
 *     output lists by <Name> the inputs it depends on directly; absent, it depends on all
 *     inputs; empty, on none. 1.0 declares nothing of state derivatives: outputs only.
 * Each float input (FMI 2.0/1.0 Real, FMI 3.0 Float64 or Float32 scalar) is perturbed (two
 * values within [min, max], 1 % of |value| or else of |nominal| or 1 away) while time and
 * continuous states stay where they are:
 *   ModelExchange  in Continuous-Time Mode after initialization (FMI 1.0: after fmiInitialize
 *                  and the event iteration; continuous inputs only, and none declared
 *                  canHandleMultipleSetPerTimeInstant="false", F-12); outputs and (2.0, 3.0)
 *                  state derivatives are read;
 *   CoSimulation   at the communication point after initialization, before any doStep;
 *                  outputs are read (the direct feedthrough an importer's algebraic loop
 *                  handling relies on).
 * An unknown whose declaration leaves out that input (or an alias of it) and that moves clearly
 * beyond noise for both values and returns to its value when the input is restored fails: an
 * importer that orders its calls by the declared structure (§3.2.2: "output variables can be
 * retrieved ... according to the model structure") reads it before setting the input and gets
 * a stale value, and a master that breaks algebraic loops by it misses one. Declared
 * dependencies that do not move are only counted (declaring more than is used is allowed).
 * FMI 3.0 arrays (inputs or unknowns with <Dimension>), clocked inputs and other base types are
 * counted and left out. At most MAX_INPUTS inputs per interface (the count is noted). */
#include "me/me_util.h"

#define MAX_INPUTS 100
#define MAX_INPUTS_TEXT "100" /* the same, for messages */
#define REL_STEP 1e-2  /* the perturbation, of |value| (else |nominal|, else 1) */
#define REL_MOVE 1e-6  /* moved: |y - y0| > REL_MOVE * max|y| + ABS_MOVE * nominal */
#define ABS_MOVE 1e-10
#define MAX_REPORTED 30

typedef struct dep_in {
    const fmuc_md_var *var;
    uint32_t index; /* 1-based ModelVariables index */
    int f32;        /* FMI 3.0 Float32 */
    int hmin, hmax;
    double mn, mx, nom; /* nom: |nominal| when declared, else 0 */
} dep_in;

typedef struct dep_unk {
    const fmuc_md_var *var;
    uint32_t index;           /* 1-based ModelVariables index */
    const fmuc_md_unknown *u; /* FMI 2.0/3.0 declaration; NULL in FMI 1.0 */
    const fmuc_md_var_ext *x; /* FMI 1.0: the DirectDependency record (NULL: none given) */
    const char *list;         /* "Outputs" / "Derivatives" (2.0), "Output" / ... (3.0) */
    double nom;               /* |nominal| when declared, else 1 */
} dep_unk;

typedef struct dep_plan {
    fmuc_iface iface;
    const char *iname;
    int ver;
    size_t nin, nin_eligible;
    dep_in *in;
    size_t ny, ny64, nx; /* float outputs (the first ny64 Float64/Real), state derivatives (ME) */
    dep_unk *unk;        /* ny outputs, then nx derivatives in state order */
    fmuc_vr *yvr;
    size_t npairs; /* (input, unknown) pairs the declarations exclude */
    size_t skipped_type, skipped_discrete, skipped_multiset, skipped_bounds, skipped_array,
        skipped_clocked, unk_array;
    int dx_arrays; /* FMI 3.0: a state derivative is an array (derivatives not watched) */
} dep_plan;

static void plan_free(dep_plan *p)
{
    free(p->in);
    free(p->unk);
    free(p->yvr);
    memset(p, 0, sizeof *p);
}

static double nominal_of(const fmuc_md *md, const fmuc_md_var *v)
{
    if ((v->has & FMUC_HAS_NOMINAL) && isfinite(v->nominal) && v->nominal != 0.0)
        return fabs(v->nominal);
    const fmuc_md_type *t = apiu_decl_type(md, v);
    if (t && (t->has & FMUC_HAS_NOMINAL) && isfinite(t->nominal) && t->nominal != 0.0)
        return fabs(t->nominal);
    return 0.0;
}

/* A float variable with a valueReference: Real (1.0, 2.0), Float64 or Float32 (3.0). */
static int is_float(const fmuc_md_var *v)
{
    return v && v->type == FMUC_TYPE_REAL &&
           (v->base == FMUC_BT_FLOAT64 || v->base == FMUC_BT_FLOAT32) &&
           (v->has & FMUC_HAS_VALUE_REFERENCE);
}

/* The extension record of the variable at 1-based index, or NULL. */
static const fmuc_md_var_ext *ext_at(const fmuc_md *md, uint32_t index)
{
    const fmuc_md_var *v = fmuc_md_var_at(md, index);
    return v && v->ext ? fmuc_md_var_ext_of(md, index - 1) : NULL;
}

/* FMI 3.0: an array variable (<Dimension> elements). */
static int is_array(const fmuc_md *md, uint32_t index)
{
    const fmuc_md_var_ext *x = ext_at(md, index);
    return x && x->ndims > 0;
}

/* Does unknown q declare a dependency on input k (itself or a float variable with its
 * valueReference, i.e. an alias)? No declaration: on every known (every input in 1.0). */
static int declares(const fmuc_md *md, const dep_unk *q, const dep_in *k)
{
    if (md->fmi == FMUC_FMI1) {
        if (!q->x || !q->x->has_direct_dependency)
            return 1;
        for (uint32_t i = 0; i < q->x->ndirect; i++) {
            const char *n = q->x->direct[i];
            if (!n)
                continue;
            if (k->var->name && strcmp(n, k->var->name) == 0)
                return 1;
            for (size_t j = 0; j < md->nvars; j++) /* an alias of k named instead */
                if (md->vars[j].name && strcmp(md->vars[j].name, n) == 0 &&
                    is_float(&md->vars[j]) &&
                    md->vars[j].value_reference == k->var->value_reference)
                    return 1;
        }
        return 0;
    }
    const fmuc_md_unknown *u = q->u;
    if (!u->has_deps)
        return 1;
    for (uint32_t i = 0; i < u->ndeps; i++) {
        if (u->deps[i] == k->index)
            return 1;
        const fmuc_md_var *d = fmuc_md_var_at(md, u->deps[i]);
        if (is_float(d) && d->value_reference == k->var->value_reference)
            return 1;
    }
    return 0;
}

/* The unknown gives an explicit list (declared dependencies that do not move are counted). */
static int explicit_list(const fmuc_md *md, const dep_unk *q)
{
    return md->fmi == FMUC_FMI1 ? q->x && q->x->has_direct_dependency : q->u->has_deps;
}

/* Add the float outputs of base bt (Float64/Real or Float32) to the plan. */
static void plan_outputs(const fmuc_md *md, dep_plan *p, unsigned bt)
{
    int v3 = md->fmi == FMUC_FMI3;
    if (md->fmi == FMUC_FMI1) {
        for (size_t i = 0; i < md->nvars; i++) {
            const fmuc_md_var *v = &md->vars[i];
            if (v->causality != FMUC_CAUS_OUTPUT || !is_float(v) || v->base != bt)
                continue;
            double n = nominal_of(md, v);
            p->unk[p->ny] = (dep_unk){v, (uint32_t)(i + 1), NULL, ext_at(md, (uint32_t)(i + 1)),
                                      "DirectDependency", n > 0 ? n : 1.0};
            p->yvr[p->ny++] = v->value_reference;
        }
        return;
    }
    for (size_t i = 0; i < md->noutputs; i++) {
        const fmuc_md_var *v = fmuc_md_var_at(md, md->outputs[i].index);
        if (!is_float(v) || v->base != bt)
            continue;
        if (v3 && is_array(md, md->outputs[i].index)) {
            p->unk_array++;
            continue;
        }
        double n = nominal_of(md, v);
        p->unk[p->ny] = (dep_unk){v, md->outputs[i].index, &md->outputs[i], NULL,
                                  v3 ? "Output" : "Outputs", n > 0 ? n : 1.0};
        p->yvr[p->ny++] = v->value_reference;
    }
}

/* The plan of one interface; 0, or -1 with why (not applicable there). */
static int plan_build(const fmuc_md *md, fmuc_iface iface, dep_plan *p, char *why, size_t wl)
{
    memset(p, 0, sizeof *p);
    p->iface = iface;
    p->iname = apiu_iface_name(iface);
    p->ver = md->fmi == FMUC_FMI1 ? 1 : md->fmi == FMUC_FMI3 ? 3 : 2;
    int me = iface == FMUC_IFACE_ME, v3 = p->ver == 3;
    /* FMI 1.0 declares no state derivatives in the XML: outputs only */
    int watch_dx = me && p->ver != 1;
    meu_model m;
    memset(&m, 0, sizeof m);
    if (watch_dx) {
        for (size_t i = 0; v3 && i < md->nderivatives; i++)
            p->dx_arrays |= is_array(md, md->derivatives[i].index);
        if (p->dx_arrays) {
            watch_dx = 0;
        } else if (meu_model_build(md, &m) < 0) {
            snprintf(why, wl, "%s", m.why);
            meu_model_free(&m);
            return -1;
        }
    }
    size_t nout = p->ver == 1 ? md->nvars : md->noutputs;
    size_t nunk = nout + (watch_dx ? m.nx : 0);
    p->in = calloc(MAX_INPUTS, sizeof *p->in);
    p->unk = calloc(nunk ? nunk : 1, sizeof *p->unk);
    p->yvr = calloc(nout ? nout : 1, sizeof *p->yvr);
    if (!p->in || !p->unk || !p->yvr) {
        snprintf(why, wl, "out of memory");
        meu_model_free(&m);
        return -1;
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (v->causality != FMUC_CAUS_INPUT)
            continue;
        if (!is_float(v)) {
            p->skipped_type++;
            continue;
        }
        const fmuc_md_var_ext *x = ext_at(md, (uint32_t)(i + 1));
        if (x && x->ndims > 0) {
            p->skipped_array++;
            continue;
        }
        if (x && x->nclocks > 0) {
            p->skipped_clocked++; /* FMI 3.0: set only in Event Mode of its clock */
            continue;
        }
        if (me && v->variability != FMUC_VAR_CONTINUOUS) {
            p->skipped_discrete++; /* set only in Event Mode (1.0: at an event) */
            continue;
        }
        if (me && (v->has & FMUC_HAS_MULTISET) && !(v->flags & FMUC_FLAG_MULTISET)) {
            p->skipped_multiset++;
            continue;
        }
        dep_in k = {.var = v, .index = (uint32_t)(i + 1), .f32 = v->base == FMUC_BT_FLOAT32};
        k.hmin = apiu_min(md, v, &k.mn);
        k.hmax = apiu_max(md, v, &k.mx);
        k.nom = nominal_of(md, v);
        if (k.hmin && k.hmax && !(k.mn < k.mx)) {
            p->skipped_bounds++;
            continue;
        }
        p->nin_eligible++;
        if (p->nin < MAX_INPUTS)
            p->in[p->nin++] = k;
    }
    plan_outputs(md, p, FMUC_BT_FLOAT64);
    p->ny64 = p->ny;
    plan_outputs(md, p, FMUC_BT_FLOAT32);
    for (size_t i = 0; watch_dx && i < m.nx; i++) {
        double n = nominal_of(md, m.dxvar[i]);
        p->unk[p->ny + i] = (dep_unk){m.dxvar[i], m.dx_index[i], m.dx_unknown[i], NULL,
                                      v3 ? "ContinuousStateDerivative" : "Derivatives",
                                      n > 0 ? n : 1.0};
    }
    p->nx = watch_dx ? m.nx : 0;
    meu_model_free(&m);
    for (size_t k = 0; k < p->nin; k++)
        for (size_t i = 0; i < p->ny + p->nx; i++)
            p->npairs += !declares(md, &p->unk[i], &p->in[k]);
    if (!p->nin) {
        char more[80] = "";
        if (v3)
            snprintf(more, sizeof more, ", arrays: %zu, clocked: %zu", p->skipped_array,
                     p->skipped_clocked);
        snprintf(why, wl, "no %s input that can be set %s (other types: %zu, discrete: %zu, "
                          "canHandleMultipleSetPerTimeInstant=\"false\": %zu, empty [min, max]: "
                          "%zu%s)",
                 v3 ? "scalar Float64/Float32" : "Real",
                 me ? "in Continuous-Time Mode" : "at a communication point", p->skipped_type,
                 p->skipped_discrete, p->skipped_multiset, p->skipped_bounds, more);
        return -1;
    }
    if (!p->npairs) {
        if (p->ver == 1)
            snprintf(why, wl, "every Real output lists every input it could move with in its "
                              "<DirectDependency>, or has none (then it depends on all inputs): "
                              "nothing an experiment could contradict");
        else
            snprintf(why, wl, "every %soutput and state derivative lists every input it could "
                              "move with, or has no dependencies attribute (then it depends on "
                              "all knowns): nothing an experiment could contradict%s",
                     v3 ? "scalar float " : "Real ",
                     p->unk_array || p->dx_arrays ? " (array unknowns not watched)" : "");
        return -1;
    }
    return 0;
}

/* Two values for input k near u0, within [min, max], different from u0 and each other. */
static int choose(const dep_in *k, double u0, double *p1, double *p2)
{
    double lo = k->hmin ? k->mn : -HUGE_VAL, hi = k->hmax ? k->mx : HUGE_VAL;
    if (!isfinite(u0) || u0 < lo || u0 > hi)
        return -1;
    double sc = u0 != 0.0 ? fabs(u0) : k->nom > 0.0 ? k->nom : 1.0;
    double d = REL_STEP * sc, up = hi - u0, dn = u0 - lo;
    if (up >= d && dn >= d) {
        *p1 = u0 + d;
        *p2 = u0 - d;
    } else if (up >= 2.0 * d) {
        *p1 = u0 + d;
        *p2 = u0 + 2.0 * d;
    } else if (dn >= 2.0 * d) {
        *p1 = u0 - d;
        *p2 = u0 - 2.0 * d;
    } else {
        double r = up >= dn ? up : -dn;
        *p1 = u0 + r / 3.0;
        *p2 = u0 + 2.0 * r / 3.0;
    }
    if (k->f32) { /* the values the FMU will hold */
        *p1 = (float)*p1;
        *p2 = (float)*p2;
    }
    return *p1 != u0 && *p2 != u0 && *p1 != *p2 && *p1 >= lo && *p1 <= hi && *p2 >= lo &&
                   *p2 <= hi
               ? 0
               : -1;
}

/* --- worker ------------------------------------------------------------------------------- */

typedef struct dep_run {
    const dep_plan *p;
    fmuc_worker_ctx *ctx;
    fmuc_inst *c;
    int worst;
    double t;
    float *f32; /* scratch for Float32 values (ny - ny64, at least 1) */
    size_t reported, undeclared, confirmed, unused, unsteady, inputs_done;
} dep_run;

static int st_of(dep_run *r, int st)
{
    if ((st == FMUC_STATUS_ERROR || st == FMUC_STATUS_FATAL) && st > r->worst)
        r->worst = st;
    return st;
}

/* The version's get/set function of a float base type, for messages. */
static const char *fn_name(int ver, int set, int f32)
{
    if (ver == 3)
        return set ? (f32 ? "fmi3SetFloat32" : "fmi3SetFloat64")
                   : (f32 ? "fmi3GetFloat32" : "fmi3GetFloat64");
    if (ver == 1)
        return set ? "fmiSetReal" : "fmiGetReal";
    return set ? "fmi2SetReal" : "fmi2GetReal";
}

static const char *do_step_name(int ver)
{
    return ver == 1 ? "fmiDoStep" : ver == 3 ? "fmi3DoStep" : "fmi2DoStep";
}

/* Read the outputs into y and the derivatives into y + ny. 0, or the failing status. */
static int read_unknowns(dep_run *r, double *y)
{
    const dep_plan *p = r->p;
    int st = FMUC_STATUS_OK;
    size_t n32 = p->ny - p->ny64;
    if (p->ny64)
        st = st_of(r, fmuc_inst_get_float64(r->c, p->yvr, p->ny64, y));
    if (fmuc_status_ok(st) && n32) {
        st = st_of(r, fmuc_inst_get(r->c, FMUC_INST_FLOAT32, p->yvr + p->ny64, n32, r->f32, n32));
        for (size_t i = 0; fmuc_status_ok(st) && i < n32; i++)
            y[p->ny64 + i] = r->f32[i];
    }
    if (fmuc_status_ok(st) && p->nx)
        st = st_of(r, fmuc_inst_get_derivatives(r->c, y + p->ny, p->nx));
    return fmuc_status_ok(st) ? 0 : st;
}

static int set_input(dep_run *r, const dep_in *k, double u)
{
    fmuc_vr vr = k->var->value_reference;
    float f = (float)u;
    int st = st_of(r, k->f32 ? fmuc_inst_set(r->c, FMUC_INST_FLOAT32, &vr, 1, &f, 1)
                             : fmuc_inst_set_float64(r->c, &vr, 1, &u));
    return fmuc_status_ok(st) ? 0 : st;
}

static int get_input(dep_run *r, const dep_in *k, double *u)
{
    fmuc_vr vr = k->var->value_reference;
    float f = 0.0f;
    int st = st_of(r, k->f32 ? fmuc_inst_get(r->c, FMUC_INST_FLOAT32, &vr, 1, &f, 1)
                             : fmuc_inst_get_float64(r->c, &vr, 1, u));
    if (k->f32 && fmuc_status_ok(st))
        *u = f;
    return st;
}

/* The declaration of q as written, for the message: "dependencies=\"...\"" (2.0: indices and
 * names, 3.0: valueReferences and names) or the 1.0 DirectDependency names. */
static void decl_text(const fmuc_md *md, const dep_unk *q, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    if (md->fmi == FMUC_FMI1) {
        k += (size_t)snprintf(buf, n, "its <DirectDependency> (ScalarVariable line %u) lists %s",
                              q->var->line, q->x->ndirect ? "only:" : "no input");
        for (uint32_t i = 0; i < q->x->ndirect && i < 12 && k < n; i++)
            k += (size_t)snprintf(buf + k, n - k, " '%s'",
                                  q->x->direct[i] ? q->x->direct[i] : "");
        if (q->x->ndirect > 12 && k < n)
            snprintf(buf + k, n - k, " ...");
        return;
    }
    const fmuc_md_unknown *u = q->u;
    int v3 = md->fmi == FMUC_FMI3;
    k += (size_t)snprintf(buf, n, "its <ModelStructure><%s>%s (line %u) declares dependencies=\"",
                          q->list, v3 ? "" : " Unknown", u->line);
    for (uint32_t i = 0; i < u->ndeps && i < 12 && k < n; i++) {
        const fmuc_md_var *d = fmuc_md_var_at(md, u->deps[i]);
        unsigned tok = v3 && u->deps_vr ? u->deps_vr[i] : u->deps[i];
        k += (size_t)snprintf(buf + k, n - k, "%s%u%s%s%s", i ? " " : "", tok, d ? " (" : "",
                              d ? meu_name(d) : "", d ? ")" : "");
    }
    if (u->ndeps > 12 && k < n)
        k += (size_t)snprintf(buf + k, n - k, " ...");
    if (k < n)
        snprintf(buf + k, n - k, "\" without it");
}

static void judge(dep_run *r, const fmuc_md *md, const dep_in *k, double u0, double p1,
                  double p2, const double *y0, const double *y1, const double *y2,
                  const double *yr)
{
    const dep_plan *p = r->p;
    for (size_t i = 0; i < p->ny + p->nx; i++) {
        const dep_unk *q = &p->unk[i];
        if (!isfinite(y0[i]) || !isfinite(y1[i]) || !isfinite(y2[i]) || !isfinite(yr[i]))
            continue;
        double sc = fmax(fabs(y0[i]), fmax(fabs(y1[i]), fabs(y2[i])));
        /* Float32 unknowns carry about 7 digits */
        double rel = i >= p->ny64 && i < p->ny ? 1e-5 : REL_MOVE;
        double thr = rel * sc + ABS_MOVE * q->nom;
        if (fabs(yr[i] - y0[i]) > thr) {
            r->unsteady++; /* does not come back: not judged */
            continue;
        }
        int moved = fabs(y1[i] - y0[i]) > thr && fabs(y2[i] - y0[i]) > thr;
        int decl = declares(md, q, k);
        if (moved && decl) {
            r->confirmed++;
        } else if (!moved && decl && explicit_list(md, q)) {
            r->unused++;
        } else if (moved && !decl) {
            r->undeclared++;
            if (r->reported++ >= MAX_REPORTED)
                continue;
            char decl_buf[600], where[160];
            decl_text(md, q, decl_buf, sizeof decl_buf);
            if (p->iface == FMUC_IFACE_ME)
                snprintf(where, sizeof where, "%s, time and states unchanged",
                         p->ver == 1 ? "after fmiInitialize" : "Continuous-Time Mode");
            else
                snprintf(where, sizeof where, "communication point, no %s in between",
                         do_step_name(p->ver));
            meu_violation(r->ctx,
                          "%s: %s '%s' (vr %u) moved from %.17g to %.17g and %.17g when input "
                          "'%s' (vr %u, index %u) was set from %.17g to %.17g and %.17g at t = "
                          "%.17g (%s), but %s",
                          p->iname, i < p->ny ? "output" : "state derivative", meu_name(q->var),
                          q->var->value_reference, y0[i], y1[i], y2[i], meu_name(k->var),
                          k->var->value_reference, k->index, u0, p1, p2, r->t, where, decl_buf);
        }
    }
}

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    const dep_plan *p = payload;
    const fmuc_md *md = &fmuc_worker_fmu(ctx)->md;
    char why[256], sb[32];
    if (apiu_load(ctx, p->iface) < 0)
        return 0;
    dep_run r;
    memset(&r, 0, sizeof r);
    r.p = p;
    r.ctx = ctx;
    fmuc_worker_phase(ctx, "initialize");
    r.c = apiu_reach(ctx, p->iface, md, p->iface == FMUC_IFACE_ME ? FMUC_ST_CTM : FMUC_ST_SC,
                     "fmucheck-deps", why, sizeof why);
    if (!r.c) {
        meu_na(ctx, "%s: the instance could not be initialized: %s (see %s)", p->iname, why,
               p->iface == FMUC_IFACE_ME ? "me-nominal-run" : "cs-nominal-run");
        return 0;
    }
    r.t = md->experiment.present && md->experiment.has_start ? md->experiment.start_time : 0.0;
    size_t nu = p->ny + p->nx ? p->ny + p->nx : 1;
    double *blk = calloc(4 * nu + p->nin + 1, sizeof *blk);
    r.f32 = calloc(p->ny - p->ny64 + 1, sizeof *r.f32);
    if (!blk || !r.f32) {
        meu_fatal(ctx, "out of memory");
        goto out;
    }
    double *y0 = blk, *y1 = blk + nu, *y2 = blk + 2 * nu, *yr = blk + 3 * nu;
    double *u0 = blk + 4 * nu;
    fmuc_worker_phase(ctx, "base point");
    for (size_t k = 0; k < p->nin && !r.worst; k++) {
        int st = get_input(&r, &p->in[k], &u0[k]);
        if (!fmuc_status_ok(st)) {
            meu_note(ctx, "%s: %s of input '%s' (vr %u) returned %s; its start value is used",
                     p->iname, fn_name(p->ver, 0, p->in[k].f32), meu_name(p->in[k].var),
                     p->in[k].var->value_reference, fmuc_status_name(p->ver, st, sb, sizeof sb));
            u0[k] = p->in[k].var->start; /* a float input has a start (NaN: not perturbed) */
        }
    }
    if (r.worst)
        goto out;
    int st0;
    if ((st0 = read_unknowns(&r, y0)) != 0) {
        meu_na(ctx, "%s: reading the outputs%s at the base point returned %s", p->iname,
               p->nx ? " and derivatives" : "", fmuc_status_name(p->ver, st0, sb, sizeof sb));
        goto out;
    }
    for (size_t k = 0; k < p->nin && !r.worst; k++) {
        const dep_in *in = &p->in[k];
        double p1, p2;
        if (choose(in, u0[k], &p1, &p2) < 0) {
            meu_note(ctx, "%s: input '%s' (vr %u) = %.17g leaves no room within [min, max]: not "
                          "perturbed",
                     p->iname, meu_name(in->var), in->var->value_reference, u0[k]);
            continue;
        }
        fmuc_worker_phase(ctx, "perturb input '%s'", meu_name(in->var));
        int s1 = set_input(&r, in, p1);
        int g1 = s1 ? 0 : read_unknowns(&r, y1);
        int s2 = s1 || g1 ? 0 : set_input(&r, in, p2);
        int g2 = s1 || g1 || s2 ? 0 : read_unknowns(&r, y2);
        int s3 = r.worst ? 0 : set_input(&r, in, u0[k]); /* restore whatever happened */
        int g3 = s3 || r.worst ? 0 : read_unknowns(&r, yr);
        int bad = s1 ? s1 : g1 ? g1 : s2 ? s2 : g2 ? g2 : s3 ? s3 : g3;
        if (bad) {
            meu_note(ctx, "%s: input '%s' (vr %u) not judged: setting it or reading the unknowns "
                          "returned %s",
                     p->iname, meu_name(in->var), in->var->value_reference,
                     fmuc_status_name(p->ver, bad, sb, sizeof sb));
            continue;
        }
        r.inputs_done++;
        judge(&r, md, in, u0[k], p1, p2, y0, y1, y2, yr);
    }
out:;
    cJSON *o = fmuc_worker_reply(ctx);
    cJSON_AddNumberToObject(o, "inputs_perturbed", (double)r.inputs_done);
    cJSON_AddNumberToObject(o, "undeclared", (double)r.undeclared);
    cJSON_AddNumberToObject(o, "confirmed", (double)r.confirmed);
    cJSON_AddNumberToObject(o, "declared_unobserved", (double)r.unused);
    cJSON_AddNumberToObject(o, "not_restored", (double)r.unsteady);
    if (r.reported > MAX_REPORTED)
        meu_note(ctx, "%s: %zu undeclared dependencies, the first %d reported", p->iname,
                 r.reported, MAX_REPORTED);
    free(blk);
    free(r.f32);
    if (r.worst != FMUC_STATUS_FATAL) {
        if (r.worst != FMUC_STATUS_ERROR)
            fmuc_inst_terminate(r.c);
        fmuc_inst_free(r.c);
    } else {
        fmuc_inst_abandon(r.c);
    }
    return 0;
}

/* --- parent ------------------------------------------------------------------------------- */

static void forward(const cJSON *reply, const char *key, fmuc_result *res, int *count)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(reply, key))
    {
        if (!cJSON_IsString(it))
            continue;
        if (strcmp(key, "violations") == 0)
            fmuc_result_violation(res, "%s", it->valuestring);
        else if (strcmp(key, "errors") == 0)
            fmuc_result_error(res, "%s", it->valuestring);
        else
            fmuc_result_note(res, "%s", it->valuestring);
        if (count)
            (*count)++;
    }
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    size_t ninputs = 0;
    for (size_t i = 0; i < md->nvars; i++)
        ninputs += md->vars[i].causality == FMUC_CAUS_INPUT;
    if (!ninputs) {
        fmuc_result_na(res, "no input variables (causality=\"input\"): no known to perturb");
        return;
    }
    apiu_iface ifs[2];
    size_t n = apiu_usable_ifaces(s, res, FMUC_UNUSABLE_INSTANCE, ifs), tested = 0;
    char why[2][512], wname[2][16];
    size_t nwhy = 0;
    cJSON *ev = fmuc_result_evidence(res);
    for (size_t i = 0; i < n; i++) {
        dep_plan p;
        char w[400];
        if (plan_build(md, ifs[i].type, &p, w, sizeof w) < 0) {
            if (nwhy < 2) {
                snprintf(wname[nwhy], sizeof wname[0], "%s", ifs[i].name);
                snprintf(why[nwhy++], sizeof why[0], "%s", w);
            }
            plan_free(&p);
            continue;
        }
        fmuc_worker_outcome o;
        const cJSON *reply =
            apiu_run(s, res, "api-dependencies-observed", ifs[i].type, worker, &p, &o);
        if (reply && !apiu_load_failed(reply, res, ifs[i].type)) {
            int na = 0;
            forward(reply, "errors", res, NULL);
            forward(reply, "violations", res, NULL);
            forward(reply, "notes", res, NULL);
            const cJSON *it;
            cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(reply, "na"))
            {
                if (!cJSON_IsString(it))
                    continue;
                na = 1;
                if (nwhy < 2) {
                    wname[nwhy][0] = '\0'; /* the worker's text names the interface */
                    snprintf(why[nwhy++], sizeof why[0], "%s", it->valuestring);
                }
            }
            if (!na) {
                tested++;
                cJSON *e = cJSON_AddObjectToObject(ev, ifs[i].name);
                cJSON_AddNumberToObject(e, "inputs_eligible", (double)p.nin_eligible);
                cJSON_AddNumberToObject(e, "outputs", (double)p.ny);
                cJSON_AddNumberToObject(e, "derivatives", (double)p.nx);
                cJSON_AddNumberToObject(e, "pairs_not_declared", (double)p.npairs);
                static const char *const keys[] = {"inputs_perturbed", "undeclared", "confirmed",
                                                   "declared_unobserved", "not_restored"};
                for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
                    const cJSON *v = cJSON_GetObjectItemCaseSensitive(reply, keys[k]);
                    if (v)
                        cJSON_AddItemToObject(e, keys[k], cJSON_Duplicate(v, 1));
                }
                const cJSON *dn = cJSON_GetObjectItemCaseSensitive(reply, "inputs_perturbed");
                const cJSON *un = cJSON_GetObjectItemCaseSensitive(reply, "declared_unobserved");
                fmuc_result_note(res, "%s: %d of %zu %s input%s perturbed%s; watched: %zu "
                                      "(input, unknown) pair%s outside the declared "
                                      "dependencies",
                                 ifs[i].name, cJSON_IsNumber(dn) ? dn->valueint : 0,
                                 p.nin_eligible, p.ver == 3 ? "scalar float" : "Real",
                                 p.nin_eligible == 1 ? "" : "s",
                                 p.nin_eligible > p.nin ? " (the first " MAX_INPUTS_TEXT ")" : "",
                                 p.npairs, p.npairs == 1 ? "" : "s");
                if (p.skipped_array || p.skipped_clocked || p.unk_array || p.dx_arrays)
                    fmuc_result_note(res, "%s: not judged here: %zu array input%s, %zu clocked "
                                          "input%s, %zu array output%s%s (array dependencies "
                                          "name whole arrays, FMI 3.0.2 §2.4.8)",
                                     ifs[i].name, p.skipped_array,
                                     p.skipped_array == 1 ? "" : "s", p.skipped_clocked,
                                     p.skipped_clocked == 1 ? "" : "s", p.unk_array,
                                     p.unk_array == 1 ? "" : "s",
                                     p.dx_arrays ? ", the state derivatives (arrays among them)"
                                                 : "");
                if (cJSON_IsNumber(un) && un->valueint > 0)
                    fmuc_result_note(res, "%s: %d declared dependenc%s did not move in the "
                                          "experiment (declaring more than is used is allowed)",
                                     ifs[i].name, un->valueint, un->valueint == 1 ? "y" : "ies");
            }
        }
        fmuc_worker_outcome_free(&o);
        plan_free(&p);
    }
    for (size_t i = 0; tested && i < nwhy; i++) /* the other interface was judged */
        fmuc_result_note(res, "%s%s%s (not judged there)", wname[i], wname[i][0] ? ": " : "",
                         why[i]);
    if (!tested && res->verdict == FMUC_VERDICT_PASS) {
        if (!n)
            fmuc_result_na(res, "no usable interface with a binary for this platform");
        else if (nwhy == 2 && wname[0][0] && wname[1][0] && strcmp(why[0], why[1]) == 0)
            fmuc_result_na(res, "%s, %s: %s", wname[0], wname[1], why[0]);
        else if (nwhy >= 1)
            fmuc_result_na(res, "%s%s%s%s%s%s%s", wname[0], wname[0][0] ? ": " : "", why[0],
                           nwhy == 2 ? "; " : "", nwhy == 2 ? wname[1] : "",
                           nwhy == 2 && wname[1][0] ? ": " : "", nwhy == 2 ? why[1] : "");
    }
}

const fmuc_check fmuc_check_api_dependencies_observed = {
    .id = "api-dependencies-observed",
    .title = "Outputs and derivatives move only with the inputs their dependencies declare",
    .spec = "FMI 2.0.4 §2.2.8, §3.2.2; FMI 3.0.2 §2.4.8; FMI 1.0 ME (fmiScalarVariable.xsd "
            "DirectDependency); FMI 1.0 CS (its model description is ME 1.0's)",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers order their set and get calls and break algebraic loops by the declared "
           "dependencies; an undeclared feedthrough gives stale outputs or an unresolved loop.",
    .fix = "List every input an output or state derivative depends on in its <ModelStructure> "
           "dependencies (FMI 1.0: the output's DirectDependency), or omit the declaration.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
