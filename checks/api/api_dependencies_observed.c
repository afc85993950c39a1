/* api-dependencies-observed: the dependencies of <ModelStructure> hold in experiment (FMI 2.0.4
 * §2.2.8, fmi2-rules B-406: "dependencies ... If not present, it must be assumed that the
 * unknown depends on all knowns. If present as empty list, the unknown depends on none of the
 * knowns. Otherwise the unknown depends on the knowns defined by the given variable indices").
 * Each Real input is perturbed (two values within [min, max], 1 % of |value| or else of
 * |nominal| or 1 away) while time and continuous states stay where they are:
 *   ModelExchange  in Continuous-Time Mode after initialization (continuous inputs only, and
 *                  none declared canHandleMultipleSetPerTimeInstant="false", F-12); outputs and
 *                  state derivatives are read;
 *   CoSimulation   at the communication point after initialization, before any fmi2DoStep;
 *                  outputs are read (the direct feedthrough an importer's algebraic loop
 *                  handling relies on).
 * An unknown whose Unknown element gives a dependencies attribute without that input (or an
 * alias of it) and that moves clearly beyond noise for both values and returns to its value
 * when the input is restored fails: an importer that orders its calls by the declared
 * structure (§3.2.2: "output variables can be retrieved ... according to the model structure")
 * reads it before setting the input and gets a stale value, and a master that breaks algebraic
 * loops by it misses one. Declared dependencies that do not move are only counted (declaring
 * more than is used is allowed). At most MAX_INPUTS inputs per interface (the count is noted). */
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
    int hmin, hmax;
    double mn, mx, nom; /* nom: |nominal| when declared, else 0 */
} dep_in;

typedef struct dep_unk {
    const fmuc_md_var *var;
    const fmuc_md_unknown *u;
    const char *list; /* "Outputs" / "Derivatives" */
    double nom;       /* |nominal| when declared, else 1 */
} dep_unk;

typedef struct dep_plan {
    fmi2Type iface;
    const char *iname;
    size_t nin, nin_eligible;
    dep_in *in;
    size_t ny, nx; /* Real outputs, state derivatives (ME) */
    dep_unk *unk;  /* ny outputs, then nx derivatives in state order */
    fmuc_vr *yvr;
    size_t npairs; /* (input, unknown) pairs the declarations exclude */
    size_t skipped_type, skipped_discrete, skipped_multiset, skipped_bounds;
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

static int is_real(const fmuc_md_var *v)
{
    return v && v->type == FMUC_TYPE_REAL && v->base == FMUC_BT_FLOAT64 &&
           (v->has & FMUC_HAS_VALUE_REFERENCE);
}

/* Does unknown u declare a dependency on input k (itself or a Real variable with its
 * valueReference, i.e. an alias)? No dependencies attribute: on every known. */
static int declares(const fmuc_md *md, const fmuc_md_unknown *u, const dep_in *k)
{
    if (!u->has_deps)
        return 1;
    for (uint32_t i = 0; i < u->ndeps; i++) {
        if (u->deps[i] == k->index)
            return 1;
        const fmuc_md_var *d = fmuc_md_var_at(md, u->deps[i]);
        if (is_real(d) && d->value_reference == k->var->value_reference)
            return 1;
    }
    return 0;
}

/* The plan of one interface; 0, or -1 with why (not applicable there). */
static int plan_build(const fmuc_md *md, fmi2Type iface, dep_plan *p, char *why, size_t wl)
{
    memset(p, 0, sizeof *p);
    p->iface = iface;
    p->iname = apiu_iface_name(iface);
    int me = iface == fmi2ModelExchange;
    meu_model m;
    memset(&m, 0, sizeof m);
    if (me && meu_model_build(md, &m) < 0) {
        snprintf(why, wl, "%s", m.why);
        meu_model_free(&m);
        return -1;
    }
    size_t nunk = md->noutputs + (me ? m.nx : 0);
    p->in = calloc(MAX_INPUTS, sizeof *p->in);
    p->unk = calloc(nunk ? nunk : 1, sizeof *p->unk);
    p->yvr = calloc(md->noutputs ? md->noutputs : 1, sizeof *p->yvr);
    if (!p->in || !p->unk || !p->yvr) {
        snprintf(why, wl, "out of memory");
        meu_model_free(&m);
        return -1;
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (v->causality != FMUC_CAUS_INPUT)
            continue;
        if (!is_real(v)) {
            p->skipped_type++;
            continue;
        }
        if (me && v->variability != FMUC_VAR_CONTINUOUS) {
            p->skipped_discrete++; /* set only in Event Mode */
            continue;
        }
        if (me && (v->has & FMUC_HAS_MULTISET) && !(v->flags & FMUC_FLAG_MULTISET)) {
            p->skipped_multiset++;
            continue;
        }
        dep_in k = {.var = v, .index = (uint32_t)(i + 1)};
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
    for (size_t i = 0; i < md->noutputs; i++) {
        const fmuc_md_var *v = fmuc_md_var_at(md, md->outputs[i].index);
        if (!is_real(v))
            continue;
        double n = nominal_of(md, v);
        p->unk[p->ny] = (dep_unk){v, &md->outputs[i], "Outputs", n > 0 ? n : 1.0};
        p->yvr[p->ny++] = v->value_reference;
    }
    for (size_t i = 0; me && i < m.nx; i++) {
        double n = nominal_of(md, m.dxvar[i]);
        p->unk[p->ny + i] = (dep_unk){m.dxvar[i], m.dx_unknown[i], "Derivatives", n > 0 ? n : 1.0};
    }
    p->nx = me ? m.nx : 0;
    meu_model_free(&m);
    for (size_t k = 0; k < p->nin; k++)
        for (size_t i = 0; i < p->ny + p->nx; i++)
            p->npairs += !declares(md, p->unk[i].u, &p->in[k]);
    if (!p->nin) {
        snprintf(why, wl, "no Real input that can be set %s (not Real: %zu, discrete: %zu, "
                          "canHandleMultipleSetPerTimeInstant=\"false\": %zu, empty [min, max]: "
                          "%zu)",
                 me ? "in Continuous-Time Mode" : "at a communication point", p->skipped_type,
                 p->skipped_discrete, p->skipped_multiset, p->skipped_bounds);
        return -1;
    }
    if (!p->npairs) {
        snprintf(why, wl, "every Real output and state derivative lists every input it could "
                          "move with, or has no dependencies attribute (then it depends on all "
                          "knowns): nothing an experiment could contradict");
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
    size_t reported, undeclared, confirmed, unused, unsteady, inputs_done;
} dep_run;

static int st_of(dep_run *r, int st)
{
    if ((st == FMUC_STATUS_ERROR || st == FMUC_STATUS_FATAL) && st > r->worst)
        r->worst = st;
    return st;
}

/* Read the outputs into y and the derivatives into y + ny. 0, or the failing status. */
static int read_unknowns(dep_run *r, double *y)
{
    const dep_plan *p = r->p;
    int st = FMUC_STATUS_OK;
    if (p->ny)
        st = st_of(r, fmuc_inst_get_float64(r->c, p->yvr, p->ny, y));
    if (fmuc_status_ok(st) && p->nx)
        st = st_of(r, fmuc_inst_get_derivatives(r->c, y + p->ny, p->nx));
    return fmuc_status_ok(st) ? 0 : st;
}

static int set_input(dep_run *r, const dep_in *k, double u)
{
    fmuc_vr vr = k->var->value_reference;
    int st = st_of(r, fmuc_inst_set_float64(r->c, &vr, 1, &u));
    return fmuc_status_ok(st) ? 0 : st;
}

static void deps_text(const fmuc_md *md, const fmuc_md_unknown *u, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < u->ndeps && i < 12 && k < n; i++) {
        const fmuc_md_var *d = fmuc_md_var_at(md, u->deps[i]);
        k += (size_t)snprintf(buf + k, n - k, "%s%u%s%s%s", i ? " " : "", u->deps[i],
                              d ? " (" : "", d ? meu_name(d) : "", d ? ")" : "");
    }
    if (u->ndeps > 12 && k < n)
        snprintf(buf + k, n - k, " ...");
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
        double thr = REL_MOVE * sc + ABS_MOVE * q->nom;
        if (fabs(yr[i] - y0[i]) > thr) {
            r->unsteady++; /* does not come back: not judged */
            continue;
        }
        int moved = fabs(y1[i] - y0[i]) > thr && fabs(y2[i] - y0[i]) > thr;
        int decl = declares(md, q->u, k);
        if (moved && decl) {
            r->confirmed++;
        } else if (!moved && decl && q->u->has_deps) {
            r->unused++;
        } else if (moved && !decl) {
            r->undeclared++;
            if (r->reported++ >= MAX_REPORTED)
                continue;
            char deps[512];
            deps_text(md, q->u, deps, sizeof deps);
            meu_violation(r->ctx,
                          "%s: %s '%s' (vr %u) moved from %.17g to %.17g and %.17g when input "
                          "'%s' (vr %u, index %u) was set from %.17g to %.17g and %.17g at t = "
                          "%.17g (%s), but its <ModelStructure><%s> Unknown (line %u) declares "
                          "dependencies=\"%s\" without it",
                          p->iname, i < p->ny ? "output" : "state derivative", meu_name(q->var),
                          q->var->value_reference, y0[i], y1[i], y2[i], meu_name(k->var),
                          k->var->value_reference, k->index, u0, p1, p2, r->t,
                          p->iface == fmi2ModelExchange
                              ? "Continuous-Time Mode, time and states unchanged"
                              : "communication point, no fmi2DoStep in between",
                          q->list, q->u->line, deps);
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
    r.c = apiu_reach(ctx, p->iface, md, p->iface == fmi2ModelExchange ? FMUC_ST_CTM : FMUC_ST_SC,
                     "fmucheck-deps", why, sizeof why);
    if (!r.c) {
        meu_na(ctx, "%s: the instance could not be initialized: %s (see %s)", p->iname, why,
               p->iface == fmi2ModelExchange ? "me-nominal-run" : "cs-nominal-run");
        return 0;
    }
    r.t = md->experiment.present && md->experiment.has_start ? md->experiment.start_time : 0.0;
    size_t nu = p->ny + p->nx ? p->ny + p->nx : 1;
    double *blk = calloc(4 * nu + p->nin + 1, sizeof *blk);
    fmuc_vr *ivr = calloc(p->nin, sizeof *ivr);
    if (!blk || !ivr) {
        meu_fatal(ctx, "out of memory");
        goto out;
    }
    double *y0 = blk, *y1 = blk + nu, *y2 = blk + 2 * nu, *yr = blk + 3 * nu;
    double *u0 = blk + 4 * nu;
    for (size_t k = 0; k < p->nin; k++)
        ivr[k] = p->in[k].var->value_reference;
    fmuc_worker_phase(ctx, "base point");
    int st = st_of(&r, fmuc_inst_get_float64(r.c, ivr, p->nin, u0));
    if (!fmuc_status_ok(st)) {
        meu_note(ctx, "%s: fmi2GetReal of the inputs returned %s; their start values are used",
                 p->iname, meu_status(st, sb, sizeof sb));
        for (size_t k = 0; k < p->nin; k++)
            u0[k] = p->in[k].var->start; /* NaN-free: start of a Real input is required */
        if (r.worst)
            goto out;
    }
    if ((st = read_unknowns(&r, y0)) != 0) {
        meu_na(ctx, "%s: reading the outputs%s at the base point returned %s", p->iname,
               p->nx ? " and derivatives" : "", meu_status(st, sb, sizeof sb));
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
                     meu_status(bad, sb, sizeof sb));
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
    free(ivr);
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
                fmuc_result_note(res, "%s: %d of %zu Real input%s perturbed%s; watched: %zu "
                                      "(input, unknown) pair%s outside the declared "
                                      "dependencies",
                                 ifs[i].name, cJSON_IsNumber(dn) ? dn->valueint : 0,
                                 p.nin_eligible, p.nin_eligible == 1 ? "" : "s",
                                 p.nin_eligible > p.nin ? " (the first " MAX_INPUTS_TEXT ")" : "",
                                 p.npairs, p.npairs == 1 ? "" : "s");
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
    .spec = "FMI 2.0.4 §2.2.8, §3.2.2",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers order their set and get calls and break algebraic loops by the declared "
           "dependencies; an undeclared feedthrough gives stale outputs or an unresolved loop.",
    .fix = "List every input an output or state derivative depends on in its <ModelStructure> "
           "Unknown dependencies attribute (or omit the attribute: depends on all knowns).",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
