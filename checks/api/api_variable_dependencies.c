/* api-variable-dependencies: with providesPerElementDependencies="true" the per-element
 * dependencies of fmi3GetNumberOfVariableDependencies / fmi3GetVariableDependencies are well
 * formed and refine the <ModelStructure> ones.
 *   FMI 3.0.2 §2.2.9 (fmi3-rules E-13): the functions are defined only with the flag; the caller
 *     allocates nDependencies entries per array; element indices start with 1, 0 means all
 *     elements of the variable (serialized as the values, §2.2.6.1); each entry names the value
 *     reference of an independent variable and an fmi3DependencyKind (fmi3Independent ..
 *     fmi3Dependent); "If this function is called before the fmi3ExitInitializationMode call, it
 *     returns the initial dependencies. If this function is called after the
 *     fmi3ExitInitializationMode call, it returns the run-time dependencies."
 *   FMI 3.0.2 §2.4.8 (fmi3-rules B-406, B-409, B-410, B-257): the ModelStructure lists the
 *     dependencies of whole variables (absent: every known; present: exactly the listed
 *     valueReferences), dependenciesKind one kind per entry (absent: dependent); non-dependent
 *     kinds only for Float unknowns, an InitialUnknown only dependent or constant.
 * In a fresh instance of each interface whose element declares the flag: in Initialization Mode
 * every <InitialUnknown>, then after fmi3ExitInitializationMode (ME in Continuous-Time Mode after
 * the initial event iteration, CS in Step Mode) every <Output>, every <ClockedState> (§2.2.9
 * asks for the dependencies of any variable; §2.4.8 lists ClockedStates with dependencies) and,
 * for ME and for CS with providesDirectionalDerivatives, every <ContinuousStateDerivative> is
 * asked for its count and its entries; then again after 3 communication intervals of the
 * step-wise driver (CS: fmi3DoStep; ME: RK4 integrator steps with event handling; the interval:
 * the default experiment's stepSize, else a hundredth of its span, else 0.01 s). An answer that
 * changed is a note and is judged again: §2.2.9 says the number of dependencies "may change if
 * structural parameters are changed" and that the answer "becomes invalid" when a linked
 * structural parameter is set, but nowhere that it may change only then (the later text of the
 * standard says the answer depends on the operating point), and fmucheck sets none. What the FMU writes is checked before it is used: the count (at most MAX_ENTRIES
 * are fetched), element indices within the variable's element count (fmuc_sim_var_elements: the
 * Dimension sizes, structural parameters at their start values), value references that name a
 * variable, kinds within the enumeration; writing past the nDependencies entries of an array is
 * seen by the instance layer's guards. These fail (must), as does an entry on a variable the
 * unknown's dependencies attribute does not list (B-257: the per-element information refines the
 * whole-variable one; without the attribute every variable is allowed). fmi3Independent entries
 * state no dependency and are only counted. Derived, warn: a kind more general than the declared
 * dependenciesKind of that known (constant < fixed < tunable < discrete < dependent: an element's
 * factor cannot change more often than the variable's), fixed/tunable/discrete for an
 * InitialUnknown in Initialization Mode, a non-dependent kind for a non-Float unknown.
 * A refused call after fmi3ExitInitializationMode fails (the flag says the run-time dependencies
 * can be retrieved); in Initialization Mode it warns: the state tables do not list the functions
 * (E-13: allowed states not stated, U). */
#include "api_util.h"
#include "fmuc/fmuc_step.h"

#define MAX_ENTRIES 100000u /* entries fetched per variable (the count comes from the FMU) */
#define MAX_DETAILED 8      /* findings of one kind per interface and phase in full */

#define NINTERVALS 3        /* communication intervals between the two run-time askings */
#define ME_SUBSTEPS 4       /* ME: RK4 integrator steps per interval */

typedef struct vd_job {
    fmuc_iface type;
    int derivatives; /* ask the ContinuousStateDerivatives after initialization */
    double h;        /* the communication interval of the NINTERVALS steps */
    size_t nx, nz;   /* ME: continuous states, event indicators (elements) */
} vd_job;

typedef struct vd_init {
    fmuc_worker_ctx *ctx;
    cJSON *out;
    int stop;  /* a call failed with Error/Fatal: no further calls */
    int fatal; /* one returned Fatal: the instance is abandoned */
} vd_init;

/* Asks each of the n unknowns u for its dependencies; one reply item per unknown:
 * {"vr", "count_status", "n", "status", "entries": [[elementOfDependent, independent,
 * elementOfIndependent, kind], ...]} ("n" and "entries" only as far as the calls succeeded,
 * "too_many" when the count exceeds MAX_ENTRIES). Returns -1 after an Error or Fatal (the
 * instance must not be used on), else 0. */
static int ask(fmuc_worker_ctx *ctx, fmuc_inst *in, const char *phase, const fmuc_md_unknown *u,
               size_t n, cJSON *out, int *fatal)
{
    for (size_t i = 0; i < n; i++) {
        fmuc_vr vr = u[i].value_reference;
        cJSON *it = cJSON_CreateObject();
        cJSON_AddItemToArray(out, it);
        cJSON_AddNumberToObject(it, "vr", vr);
        fmuc_worker_phase(ctx, "%s: dependencies of valueReference %u", phase, vr);
        size_t nd = 0;
        fmuc_status st = fmuc_inst_get_number_of_variable_dependencies(in, vr, &nd);
        cJSON_AddNumberToObject(it, "count_status", st);
        if (st != FMUC_STATUS_OK && st != FMUC_STATUS_WARNING) {
            *fatal |= st == FMUC_STATUS_FATAL;
            if (st == FMUC_STATUS_ERROR || st == FMUC_STATUS_FATAL)
                return -1;
            continue;
        }
        cJSON_AddNumberToObject(it, "n", (double)nd);
        if (nd > MAX_ENTRIES) {
            cJSON_AddTrueToObject(it, "too_many");
            continue;
        }
        size_t *ed = malloc((nd + 1) * sizeof *ed), *ei = malloc((nd + 1) * sizeof *ei);
        fmuc_vr *iv = malloc((nd + 1) * sizeof *iv);
        int *kd = malloc((nd + 1) * sizeof *kd);
        if (!ed || !ei || !iv || !kd) {
            free(ed);
            free(ei);
            free(iv);
            free(kd);
            cJSON_AddStringToObject(it, "skipped", "out of memory");
            continue;
        }
        /* what the FMU leaves unwritten shows as out of range */
        for (size_t k = 0; k < nd; k++) {
            ed[k] = ei[k] = SIZE_MAX;
            iv[k] = 0xFFFFFFFFu;
            kd[k] = -1;
        }
        st = fmuc_inst_get_variable_dependencies(in, vr, ed, iv, ei, kd, nd);
        cJSON_AddNumberToObject(it, "status", st);
        if (st == FMUC_STATUS_OK || st == FMUC_STATUS_WARNING) {
            cJSON *es = cJSON_AddArrayToObject(it, "entries");
            for (size_t k = 0; k < nd; k++) {
                cJSON *e = cJSON_CreateArray();
                cJSON_AddItemToArray(e, cJSON_CreateNumber((double)ed[k]));
                cJSON_AddItemToArray(e, cJSON_CreateNumber(iv[k]));
                cJSON_AddItemToArray(e, cJSON_CreateNumber((double)ei[k]));
                cJSON_AddItemToArray(e, cJSON_CreateNumber(kd[k]));
                cJSON_AddItemToArray(es, e);
            }
        }
        free(ed);
        free(ei);
        free(iv);
        free(kd);
        *fatal |= st == FMUC_STATUS_FATAL;
        if (st == FMUC_STATUS_ERROR || st == FMUC_STATUS_FATAL)
            return -1;
    }
    return 0;
}

/* After initialization: every Output, ContinuousStateDerivative (job->derivatives) and
 * ClockedState; -1 after an Error or Fatal. */
static int ask_run(fmuc_worker_ctx *ctx, fmuc_inst *in, const char *phase, const vd_job *job,
                   cJSON *out, int *fatal)
{
    const fmuc_md *md = &fmuc_worker_fmu(ctx)->md;
    if (ask(ctx, in, phase, md->outputs, md->noutputs, out, fatal) < 0)
        return -1;
    if (job->derivatives && ask(ctx, in, phase, md->derivatives, md->nderivatives, out, fatal) < 0)
        return -1;
    return ask(ctx, in, phase, md->clocked_states, md->nclocked_states, out, fatal);
}

/* NINTERVALS communication intervals from t0 with the step-wise driver (CS: fmi3DoStep; ME:
 * RK4 integrator steps with CompletedIntegratorStep and event handling), then the run-time
 * dependencies asked again (reply "run2"); "steps" says how many intervals were made and
 * "steps_stopped" why fewer. */
static void step_and_ask(fmuc_worker_ctx *ctx, fmuc_inst *in, const vd_job *job, double t0,
                         cJSON *reply, int *fatal)
{
    int me = job->type == FMUC_IFACE_ME;
    fmuc_stepper sp;
    if (fmuc_stepper_init(&sp, in, me, me ? job->nx : 0, me ? job->nz : 0) < 0) {
        cJSON_AddStringToObject(reply, "steps_stopped", "out of memory");
        return;
    }
    sp.nsub = ME_SUBSTEPS;
    fmuc_step_rc rc = me ? fmuc_step_me_resync(&sp) : FMUC_STEP_OK;
    int k = 0;
    for (; rc == FMUC_STEP_OK && k < NINTERVALS; k++) {
        double ta = t0 + (double)k * job->h, tb = t0 + (double)(k + 1) * job->h;
        fmuc_step_cs_out o;
        fmuc_worker_phase_at(ctx, "communication interval", k, ta);
        rc = fmuc_step_interval(&sp, ta, tb, &o);
    }
    cJSON_AddNumberToObject(reply, "steps", rc == FMUC_STEP_OK ? k : k - 1);
    cJSON_AddNumberToObject(reply, "t", rc == FMUC_STEP_OK ? t0 + (double)k * job->h : t0);
    if (rc != FMUC_STEP_OK) {
        char b[32], why[256];
        if (rc == FMUC_STEP_FAILED)
            snprintf(why, sizeof why, "%s returned %s", sp.call,
                     fmuc_status_name(3, sp.status, b, sizeof b));
        else
            snprintf(why, sizeof why, "%s", sp.why[0] ? sp.why : "the step driver stopped");
        cJSON_AddStringToObject(reply, "steps_stopped", why);
        *fatal |= rc == FMUC_STEP_FAILED && sp.status == FMUC_STATUS_FATAL;
    } else {
        const char *phase = me ? "Continuous-Time Mode after the intervals"
                               : "Step Mode after the intervals";
        ask_run(ctx, in, phase, job, cJSON_AddArrayToObject(reply, "run2"), fatal);
    }
    fmuc_stepper_free(&sp);
}

static int in_init(void *user, fmuc_inst *in)
{
    vd_init *vi = user;
    const fmuc_md *md = &fmuc_worker_fmu(vi->ctx)->md;
    vi->stop = ask(vi->ctx, in, "Initialization Mode", md->initial_unknowns,
                   md->ninitial_unknowns, vi->out, &vi->fatal) < 0;
    return vi->stop;
}

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    const vd_job *job = payload;
    const fmuc_md *md = &fmuc_worker_fmu(ctx)->md;
    cJSON *reply = fmuc_worker_reply(ctx);
    if (apiu_load(ctx, job->type) < 0)
        return 0;
    fmuc_worker_phase(ctx, "instantiate");
    fmuc_inst *in = fmuc_inst_instantiate(ctx, job->type, NULL, "variable-dependencies");
    if (!in) {
        cJSON_AddStringToObject(reply, "stopped", "instantiation returned NULL");
        return 0;
    }
    vd_init vi = {ctx, cJSON_AddArrayToObject(reply, "init"), 0, 0};
    fmuc_drive_start ds;
    fmuc_drive_reached r;
    fmuc_drive_start_init(&ds, md);
    ds.in_init = in_init;
    ds.user = &vi;
    ds.phase_init = "initialization";
    unsigned target = job->type == FMUC_IFACE_ME ? FMUC_ST_CTM : FMUC_ST_SC;
    int reached = fmuc_drive_reach(in, target, &ds, &r);
    if (reached == 0) {
        cJSON *run = cJSON_AddArrayToObject(reply, "run");
        const char *phase = job->type == FMUC_IFACE_ME ? "Continuous-Time Mode" : "Step Mode";
        if (ask_run(ctx, in, phase, job, run, &vi.fatal) == 0)
            step_and_ask(ctx, in, job, ds.exp.start, reply, &vi.fatal);
    } else if (!vi.stop) {
        char b[32];
        cJSON_AddStringToObject(reply, "stopped",
                                reached > 0 ? "the FMU asked to terminate in the initial event "
                                              "iteration"
                                            : "initialization failed");
        if (reached < 0 && r.failed_op >= 0)
            cJSON_AddStringToObject(reply, "stopped_status",
                                    fmuc_status_name(3, r.status, b, sizeof b));
    }
    if (vi.fatal || (reached < 0 && r.status == FMUC_STATUS_FATAL))
        fmuc_inst_abandon(in);
    else
        fmuc_inst_free(in);
    return 0;
}

/* ---- judging (parent side) ------------------------------------------------------------------ */

typedef struct vd_ctx {
    const fmuc_md *md;
    fmuc_result *res;
    const char *iname; /* "ModelExchange" */
    int init;          /* the initial dependencies (Initialization Mode) */
    size_t entries, independent, shown[6];
    const char *phase; /* when set, names the phase instead of init */
} vd_ctx;

enum { F_FORM, F_UNDECLARED, F_KIND, F_INIT_KIND, F_TYPE_KIND, F_CALL };

/* The variable with value reference vr (FMI 3.0: one space for all types), or NULL. */
static const fmuc_md_var *var_by_vr(const fmuc_md *md, uint32_t vr, size_t *index)
{
    for (size_t i = 0; i < md->nvars; i++)
        if ((md->vars[i].has & FMUC_HAS_VALUE_REFERENCE) && md->vars[i].value_reference == vr) {
            *index = i;
            return &md->vars[i];
        }
    return NULL;
}

static const char *vname(const fmuc_md_var *v)
{
    return v && v->name ? v->name : "?";
}

static const char *phase_text(const vd_ctx *c)
{
    if (c->phase)
        return c->phase;
    return c->init ? "in Initialization Mode" : "after fmi3ExitInitializationMode";
}

/* "element 3 of" / "all elements of" (index 0) */
static const char *elem_text(char *b, size_t n, double e)
{
    if (e == 0.0)
        snprintf(b, n, "all elements of");
    else
        snprintf(b, n, "element %.0f of", e);
    return b;
}

/* Reports finding kind f: the first MAX_DETAILED of a kind per phase and interface in full. */
static int shown(vd_ctx *c, int f)
{
    return c->shown[f]++ < MAX_DETAILED;
}

/* A rank of generality for both numberings: constant 1 < fixed 2 < tunable 3 < discrete 4 <
 * dependent 5 (fmuc_dep_kind puts dependent first, fmi3DependencyKind last). */
static int md_kind_rank(unsigned k)
{
    return k == FMUC_DEPKIND_DEPENDENT ? 5 : (int)k;
}

static const char *kind3_name(int k)
{
    static const char *const n[FMUC_INST_NDEP] = {"fmi3Independent", "fmi3Constant", "fmi3Fixed",
                                                  "fmi3Tunable", "fmi3Discrete", "fmi3Dependent"};
    return k >= 0 && k < FMUC_INST_NDEP ? n[k] : "?";
}

static void judge_entry(vd_ctx *c, const fmuc_md_unknown *u, const fmuc_md_var *dv, size_t ndv,
                        const cJSON *e)
{
    double ed = cJSON_GetArrayItem(e, 0) ? cJSON_GetArrayItem(e, 0)->valuedouble : -1;
    double ivr = cJSON_GetArrayItem(e, 1) ? cJSON_GetArrayItem(e, 1)->valuedouble : -1;
    double ei = cJSON_GetArrayItem(e, 2) ? cJSON_GetArrayItem(e, 2)->valuedouble : -1;
    double kd = cJSON_GetArrayItem(e, 3) ? cJSON_GetArrayItem(e, 3)->valuedouble : -1;
    const char *un = fmuc_md_unknown_kind_name((fmuc_unknown_kind)u->kind);
    char b1[40], b2[40];
    c->entries++;
    if (!(ed >= 0 && (ndv == 0 || ed <= (double)ndv))) {
        if (shown(c, F_FORM))
            fmuc_result_violation(c->res, "%s %s: an entry of '%s' (vr %u, %zu element%s) has "
                                          "the element index %.0f of the dependent (1 .. %zu, "
                                          "or 0 for all elements)",
                                  c->iname, phase_text(c), vname(dv), u->value_reference, ndv,
                                  ndv == 1 ? "" : "s", ed, ndv);
        return;
    }
    size_t ki = 0;
    const fmuc_md_var *kv = ivr >= 0 && ivr <= 4294967295.0 ? var_by_vr(c->md, (uint32_t)ivr, &ki)
                                                            : NULL;
    if (!kv) {
        if (shown(c, F_FORM))
            fmuc_result_violation(c->res, "%s %s: %s '%s' (vr %u) depends on valueReference "
                                          "%.0f, which no variable has",
                                  c->iname, phase_text(c), elem_text(b1, sizeof b1, ed),
                                  vname(dv), u->value_reference, ivr);
        return;
    }
    size_t nkv = fmuc_sim_var_elements(c->md, ki, NULL, 0, NULL);
    if (!(ei >= 0 && (nkv == 0 || ei <= (double)nkv))) {
        if (shown(c, F_FORM))
            fmuc_result_violation(c->res, "%s %s: %s '%s' (vr %u) depends on element %.0f of "
                                          "'%s' (vr %u), which has %zu element%s",
                                  c->iname, phase_text(c), elem_text(b1, sizeof b1, ed),
                                  vname(dv), u->value_reference, ei, vname(kv),
                                  kv->value_reference, nkv, nkv == 1 ? "" : "s");
        return;
    }
    if (!(kd >= 0 && kd < FMUC_INST_NDEP && kd == (int)kd)) {
        if (shown(c, F_FORM))
            fmuc_result_violation(c->res, "%s %s: the dependency of %s '%s' (vr %u) on '%s' "
                                          "(vr %u) has the kind %.0f, which is no "
                                          "fmi3DependencyKind (0 .. 5)",
                                  c->iname, phase_text(c), elem_text(b1, sizeof b1, ed),
                                  vname(dv), u->value_reference, vname(kv), kv->value_reference,
                                  kd);
        return;
    }
    int kind = (int)kd;
    if (kind == FMUC_INST_DEP_INDEPENDENT) {
        c->independent++;
        return;
    }
    /* the declared entry of this known (B-406: absent attribute, every known) */
    long j = -1;
    for (uint32_t k = 0; u->has_deps && u->deps_vr && k < u->ndeps && j < 0; k++)
        if (u->deps_vr[k] == kv->value_reference)
            j = (long)k;
    if (u->has_deps && j < 0) {
        if (shown(c, F_UNDECLARED))
            fmuc_result_violation(c->res, "%s %s: %s '%s' (vr %u) depends on %s '%s' (vr %u, "
                                          "%s), but <%s valueReference=\"%u\"> (line %u) does not "
                                          "list valueReference %u in dependencies",
                                  c->iname, phase_text(c), elem_text(b1, sizeof b1, ed),
                                  vname(dv), u->value_reference, elem_text(b2, sizeof b2, ei),
                                  vname(kv), kv->value_reference, kind3_name(kind), un,
                                  u->value_reference, u->line, kv->value_reference);
        return;
    }
    if (j >= 0 && u->has_kinds && (uint32_t)j < u->nkinds && u->kinds[j] < FMUC_DEPKIND_INVALID &&
        kind > md_kind_rank(u->kinds[j]) && shown(c, F_KIND))
        fmuc_result_warn(c->res, "%s %s: %s '%s' (vr %u) depends on '%s' (vr %u) as %s, more "
                                 "general than the dependenciesKind \"%s\" <%s> (line %u) "
                                 "declares for the whole variable (derived: an element's "
                                 "dependency refines the variable's)",
                         c->iname, phase_text(c), elem_text(b1, sizeof b1, ed), vname(dv),
                         u->value_reference, vname(kv), kv->value_reference, kind3_name(kind),
                         fmuc_md_dep_kind_name((fmuc_dep_kind)u->kinds[j]), un, u->line);
    if (c->init && (kind == FMUC_INST_DEP_FIXED || kind == FMUC_INST_DEP_TUNABLE ||
                    kind == FMUC_INST_DEP_DISCRETE) &&
        shown(c, F_INIT_KIND))
        fmuc_result_warn(c->res, "%s %s: %s '%s' (vr %u) depends on '%s' (vr %u) as %s; an "
                                 "InitialUnknown's dependencies are only dependent or constant "
                                 "(§2.4.8; derived for the initial dependencies)",
                         c->iname, phase_text(c), elem_text(b1, sizeof b1, ed), vname(dv),
                         u->value_reference, vname(kv), kv->value_reference, kind3_name(kind));
    if (kind != FMUC_INST_DEP_DEPENDENT && dv->base != FMUC_BT_FLOAT32 &&
        dv->base != FMUC_BT_FLOAT64 && shown(c, F_TYPE_KIND))
        fmuc_result_warn(c->res, "%s %s: %s '%s' (vr %u, %s) depends on '%s' (vr %u) as %s; "
                                 "kinds other than dependent are defined for Float unknowns only "
                                 "(§2.4.8; derived)",
                         c->iname, phase_text(c), elem_text(b1, sizeof b1, ed), vname(dv),
                         u->value_reference, fmuc_md_base_type_name((fmuc_base_type)dv->base), vname(kv),
                         kv->value_reference, kind3_name(kind));
}

/* The unknown whose value reference is vr among list (the same order as asked). */
static const fmuc_md_unknown *unknown_of(const fmuc_md_unknown *list, size_t n, uint32_t vr)
{
    for (size_t i = 0; i < n; i++)
        if (list[i].value_reference == vr)
            return &list[i];
    return NULL;
}

static void judge_item(vd_ctx *c, const cJSON *it)
{
    const fmuc_md *md = c->md;
    uint32_t vr = (uint32_t)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(it, "vr"));
    const fmuc_md_unknown *u =
        c->init ? unknown_of(md->initial_unknowns, md->ninitial_unknowns, vr)
                : unknown_of(md->outputs, md->noutputs, vr);
    if (!u && !c->init)
        u = unknown_of(md->derivatives, md->nderivatives, vr);
    if (!u && !c->init)
        u = unknown_of(md->clocked_states, md->nclocked_states, vr);
    size_t di = 0;
    const fmuc_md_var *dv = var_by_vr(md, vr, &di);
    if (!u || !dv)
        return; /* a valueReference no variable has: the md-ms-* checks report it */
    size_t ndv = fmuc_sim_var_elements(md, di, NULL, 0, NULL);
    char sb[32];
    const char *fn = "fmi3GetNumberOfVariableDependencies";
    const cJSON *cs = cJSON_GetObjectItemCaseSensitive(it, "count_status");
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(it, "status");
    int status = cJSON_IsNumber(cs) ? cs->valueint : FMUC_STATUS_ERROR;
    if ((status == FMUC_STATUS_OK || status == FMUC_STATUS_WARNING) && cJSON_IsNumber(st)) {
        fn = "fmi3GetVariableDependencies";
        status = st->valueint;
    }
    if (status != FMUC_STATUS_OK && status != FMUC_STATUS_WARNING) {
        void (*judge)(fmuc_result *, const char *, ...) __attribute__((format(printf, 2, 3))) =
            c->init ? fmuc_result_warn : fmuc_result_violation;
        if (shown(c, F_CALL))
            judge(c->res, "%s %s: providesPerElementDependencies=\"true\" but %s for '%s' (vr "
                          "%u) %s%s",
                  c->iname, phase_text(c), fn, vname(dv), vr,
                  status == FMUC_STATUS_NOT_PROVIDED ? "is not exported"
                                                     : "returned ",
                  status == FMUC_STATUS_NOT_PROVIDED ? ""
                                                     : fmuc_status_name(3, status, sb, sizeof sb));
        if (c->init && c->shown[F_CALL] == 1)
            fmuc_result_note(c->res, "%s: the state tables of FMI 3.0.2 do not list the "
                                     "per-element dependency functions (fmi3-rules E-13, U): a "
                                     "refusal in Initialization Mode warns",
                             c->iname);
        return;
    }
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "too_many"))) {
        fmuc_result_note(c->res, "%s %s: '%s' (vr %u) reports %.0f dependencies, more than the "
                                 "%u fetched: not judged",
                         c->iname, phase_text(c), vname(dv), vr,
                         cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(it, "n")),
                         MAX_ENTRIES);
        return;
    }
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(it, "entries"))
        judge_entry(c, u, dv, ndv, e);
}

/* The first reply item of list about value reference vr, or NULL. */
static const cJSON *item_of(const cJSON *list, double vr)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, list)
    {
        if (cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(it, "vr")) == vr)
            return it;
    }
    return NULL;
}

/* The entries of a reply item as text: "n entries" or the call's status. */
static const char *answer_text(const cJSON *it, char *b, size_t n)
{
    const cJSON *es = cJSON_GetObjectItemCaseSensitive(it, "entries");
    if (es)
        snprintf(b, n, "%d entr%s", cJSON_GetArraySize(es), cJSON_GetArraySize(es) == 1 ? "y" : "ies");
    else
        snprintf(b, n, "no entries (the call was refused)");
    return b;
}

/* Judges the reply items of one phase. With first (the run-time answers right after
 * initialization), items are the answers after the intervals: an unchanged answer was judged
 * already; a changed one is noted (§2.2.9 names a change of a linked structural parameter as
 * what invalidates the answer, it does not say the answer may change only then; fmucheck sets
 * no structural parameter) and judged again. */
static void judge_phase(vd_ctx *c, const cJSON *items, const cJSON *first, cJSON *ev)
{
    size_t asked = 0, changed = 0;
    memset(c->shown, 0, sizeof c->shown);
    c->entries = c->independent = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, items)
    {
        asked++;
        if (first) {
            double vr = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(it, "vr"));
            const cJSON *f = item_of(first, vr);
            if (f && cJSON_Compare(f, it, 1))
                continue;
            if (changed++ < MAX_DETAILED) {
                size_t di = 0;
                char b1[48], b2[48];
                const char *t1 = f ? answer_text(f, b1, sizeof b1) : "not asked";
                const char *t2 = answer_text(it, b2, sizeof b2);
                const fmuc_md_var *dv = vr >= 0 && vr <= 4294967295.0
                                            ? var_by_vr(c->md, (uint32_t)vr, &di)
                                            : NULL;
                fmuc_result_note(c->res, "%s %s: the run-time dependencies of '%s' (vr %.0f) "
                                         "changed: %s right after fmi3ExitInitializationMode, "
                                         "%s now%s, with no structural parameter set (FMI 3.0.2 "
                                         "§2.2.9 does not restrict changes to structural "
                                         "parameter changes: noted, judged again)",
                                 c->iname, phase_text(c), vname(dv), vr, t1, t2,
                                 strcmp(t1, t2) == 0 ? " (other entries)" : "");
            }
        }
        judge_item(c, it);
    }
    if (changed > MAX_DETAILED)
        fmuc_result_note(c->res, "%s %s: %zu variables' run-time dependencies changed in all (the "
                                 "first %d shown)",
                         c->iname, phase_text(c), changed, MAX_DETAILED);
    static const char *const what[] = {"malformed entries", "undeclared dependencies",
                                       "kinds more general than declared",
                                       "initial dependencies of kind fixed/tunable/discrete",
                                       "non-dependent kinds of non-Float unknowns",
                                       "refused calls"};
    for (int f = 0; f < 6; f++)
        if (c->shown[f] > MAX_DETAILED)
            fmuc_result_note(c->res, "%s %s: %zu %s in all (the first %d shown)", c->iname,
                             phase_text(c), c->shown[f], what[f], MAX_DETAILED);
    cJSON *o = cJSON_AddObjectToObject(ev, first ? "after_intervals"
                                           : c->init ? "initialization"
                                                     : "run");
    if (first)
        cJSON_AddNumberToObject(o, "changed", (double)changed);
    cJSON_AddNumberToObject(o, "variables", (double)asked);
    cJSON_AddNumberToObject(o, "entries", (double)c->entries);
    cJSON_AddNumberToObject(o, "independent_entries", (double)c->independent);
}

/* The FMU wrote past the nDependencies entries of an output array (the guards of fmuc_inst.h). */
static void judge_overruns(fmuc_result *res, const char *iname, const cJSON *list)
{
    const cJSON *v;
    cJSON_ArrayForEach(v, list)
    {
        const char *fn = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "function"));
        const char *kind = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "kind"));
        if (!fn || !strstr(fn, "VariableDependencies") || !kind || strcmp(kind, "overrun") != 0)
            continue;
        const char *call = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "call"));
        const char *arr = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "array"));
        fmuc_result_violation(res, "%s: %s wrote %.0f element(s) past the end of %s[%.0f]",
                              iname, call ? call : fn,
                              cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(v, "elementsPast")),
                              arr ? arr : "?",
                              cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(v, "length")));
    }
}

/* The communication interval of the steps between the run-time askings: the default
 * experiment's stepSize, else a hundredth of its span, else 0.01 s. */
static double interval(const fmuc_md *md)
{
    const fmuc_md_experiment *x = &md->experiment;
    double t0 = x->present && x->has_start ? x->start_time : 0.0;
    if (x->present && x->has_step && x->step_size > 0.0 && isfinite(x->step_size))
        return x->step_size;
    if (x->present && x->has_stop && x->stop_time > t0 && isfinite(x->stop_time - t0))
        return (x->stop_time - t0) / 100.0;
    return 0.01;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    const unsigned flag = 1u << FMUC_CAP_PROVIDES_PER_ELEMENT_DEPENDENCIES;
    apiu_iface all[2], ifs[2];
    size_t na = apiu_ifaces(s->fmu, all), n = 0;
    for (size_t i = 0; i < na; i++)
        if (((all[i].type == FMUC_IFACE_ME ? &md->me : &md->cs)->caps & flag))
            ifs[n++] = all[i];
    if (n == 0) {
        fmuc_result_na(res, "no interface with a library for this platform declares "
                            "providesPerElementDependencies=\"true\" (without it the functions "
                            "are not defined, §2.2.9)");
        return;
    }
    for (size_t i = 0; i < na; i++)
        if (!((all[i].type == FMUC_IFACE_ME ? &md->me : &md->cs)->caps & flag))
            fmuc_result_note(res, "%s: providesPerElementDependencies is not \"true\": not asked",
                             all[i].name);
    if (md->ninitial_unknowns + md->noutputs + md->nderivatives + md->nclocked_states == 0) {
        fmuc_result_na(res, "no <InitialUnknown>, <Output>, <ContinuousStateDerivative> or "
                            "<ClockedState> to ask for its dependencies");
        return;
    }
    cJSON *ev = fmuc_result_evidence(res);
    size_t judged = 0;
    for (size_t i = 0; i < n; i++) {
        if (fmuc_shared_unusable(s, ifs[i].type, FMUC_UNUSABLE_INSTANCE)) {
            fmuc_result_note(res, "%s not probed: %s", ifs[i].name,
                             fmuc_shared_unusable(s, ifs[i].type, FMUC_UNUSABLE_INSTANCE));
            continue;
        }
        vd_job job = {ifs[i].type,
                      ifs[i].type == FMUC_IFACE_ME ||
                          (md->cs.caps & (1u << FMUC_CAP_PROVIDES_DIRECTIONAL_DERIVATIVE)),
                      interval(md), 0, 0};
        if (ifs[i].type == FMUC_IFACE_ME) /* §2.4.8: the elements of the variables */
            for (size_t k = 0; k < md->nderivatives + md->nevent_indicators; k++) {
                const fmuc_md_unknown *u = k < md->nderivatives
                                               ? &md->derivatives[k]
                                               : &md->event_indicators[k - md->nderivatives];
                size_t ne = u->index ? fmuc_sim_var_elements(md, u->index - 1, NULL, 0, NULL) : 1;
                *(k < md->nderivatives ? &job.nx : &job.nz) += ne;
            }
        fmuc_worker_outcome o;
        const cJSON *reply =
            apiu_run(s, res, "api-variable-dependencies", ifs[i].type, worker, &job, &o);
        judge_overruns(res, ifs[i].name, o.buffer_violations);
        if (reply && !apiu_load_failed(reply, res, ifs[i].type)) {
            cJSON *iev = cJSON_AddObjectToObject(ev, ifs[i].name);
            vd_ctx c = {.md = md, .res = res, .iname = ifs[i].name, .init = 1};
            judge_phase(&c, cJSON_GetObjectItemCaseSensitive(reply, "init"), NULL, iev);
            const cJSON *runs = cJSON_GetObjectItemCaseSensitive(reply, "run");
            if (runs) {
                c.init = 0;
                judge_phase(&c, runs, NULL, iev);
            }
            const cJSON *runs2 = cJSON_GetObjectItemCaseSensitive(reply, "run2");
            char p2[96];
            snprintf(p2, sizeof p2, "after %.0f communication interval%s (t = %g)",
                     cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(reply, "steps")),
                     NINTERVALS == 1 ? "" : "s",
                     cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(reply, "t")));
            if (runs && runs2) {
                c.phase = p2;
                judge_phase(&c, runs2, runs, iev);
                c.phase = NULL;
                cJSON *ai = cJSON_GetObjectItemCaseSensitive(iev, "after_intervals");
                cJSON_AddNumberToObject(
                    ai, "intervals",
                    cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(reply, "steps")));
                cJSON_AddNumberToObject(
                    ai, "t", cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(reply, "t")));
            }
            const char *sstop =
                cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(reply, "steps_stopped"));
            if (runs && sstop)
                fmuc_result_note(res, "%s: the %d communication intervals stopped (%s); the "
                                      "run-time dependencies were not asked again (the nominal "
                                      "runs judge the run)",
                                 ifs[i].name, NINTERVALS, sstop);
            const char *stop =
                cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(reply, "stopped"));
            if (stop)
                fmuc_result_note(res, "%s: %s%s%s; the run-time dependencies were not asked "
                                      "(api-instantiate and the nominal runs judge it)",
                                 ifs[i].name, stop,
                                 cJSON_GetObjectItemCaseSensitive(reply, "stopped_status") ? ": "
                                                                                           : "",
                                 cJSON_GetObjectItemCaseSensitive(reply, "stopped_status")
                                     ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
                                           reply, "stopped_status"))
                                     : "");
            judged++;
        }
        fmuc_worker_outcome_free(&o);
    }
    fmuc_result_parts_judged(res, judged);
    if (judged)
        fmuc_result_note(res, "asked %zu InitialUnknowns in Initialization Mode and %zu Outputs "
                              "(and ContinuousStateDerivatives: %zu, ClockedStates: %zu) after "
                              "fmi3ExitInitializationMode and again after %d communication "
                              "intervals, per interface",
                         md->ninitial_unknowns, md->noutputs, md->nderivatives,
                         md->nclocked_states, NINTERVALS);
}

const fmuc_check fmuc_check_api_variable_dependencies = {
    .id = "api-variable-dependencies",
    .title = "Per-element dependencies are well formed and refine the declared ModelStructure",
    .spec = "FMI 3.0.2 §2.2.9, §2.4.8",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers that resolve array dependencies per element (sparse Jacobians, loops) "
           "trust fmi3GetVariableDependencies; bad indices or undeclared dependencies corrupt "
           "their evaluation order and sparsity.",
    .fix = "Return only entries that refine the <ModelStructure> dependencies (element indices "
           "1-based or 0, known value references, fmi3DependencyKind values), or declare "
           "providesPerElementDependencies=\"false\".",
    .applies = FMUC_APPLIES_ME | FMUC_APPLIES_CS,
    .versions = FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .run = run,
};
