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
 *   FMI 1.0 ME (fmiScalarVariable.xsd, fmi1-rules B-208, B-209): the <DirectDependency>
 *     element of an output lists by <Name> the inputs it depends on directly; absent, it
 *     depends on all inputs; empty, on none. 1.0 declares nothing of state derivatives: outputs
 *     only. (FMI 1.0 CS shares the declaration but is not judged, see below.)
 * Each scalar input of a float, integer, Boolean or enumeration type (FMI 2.0/1.0 Real,
 * Integer, Boolean, Enumeration; FMI 3.0 Float32/64, Int8..UInt64, Boolean, Enumeration) is
 * perturbed and restored while time stays where it is (and the continuous states, unless an
 * event iteration changes them): a float one to
 * two values within [min, max] (1 % of |value|, else of |nominal|, else 1 away), an integer one
 * to two neighbours within [min, max] and the type's range, an enumeration to up to two other
 * declared items within [min, max], a Boolean flipped (one value). Where the state machine lets
 * it be set:
 *   ModelExchange  a continuous input (variability="continuous", none declared
 *                  canHandleMultipleSetPerTimeInstant="false", F-12) in Continuous-Time Mode
 *                  after initialization (2.0 §3.2.3 rule 5; FMI 1.0: after fmiInitialize and
 *                  the event iteration); a discrete one (variability="discrete": every
 *                  integer, Boolean and enumeration input, and discrete floats) only in Event
 *                  Mode (2.0 §3.2.3 rule 4, 3.0.2 §3.2 state table): fmi2EnterEventMode /
 *                  fmi3EnterEventMode, the set, the event iteration of the step driver
 *                  (fmi2NewDiscreteStates / fmi3UpdateDiscreteStates until no new one is
 *                  needed; FMI 1.0: the set, then fmiEventUpdate, fmi1-rules F-05), back to
 *                  Continuous-Time Mode; outputs and (2.0, 3.0) state derivatives are read
 *                  there;
 *   CoSimulation   only through steps, as a master calls: an output may not be read after an
 *                  input is set before the next doStep (FMI 2.0.4 §4.2.4, fmi2-rules D-01:
 *                  "no feed-through evaluation at a communication point"; FMI 3.0.2 Step
 *                  Mode, fmi3-rules condition 18). From the FMU state taken at the
 *                  communication point reached by one step of h1 (below) after
 *                  initialization (cs_first_step; fmi2GetFMUstate /
 *                  fmi3GetFMUState), each input (non-clocked discrete ones too) is set to
 *                  each perturbation value and then to its own value before one step of h1 =
 *                  1e-3 of the nominal communication step (the DefaultExperiment's stepSize,
 *                  else a 500th of the experiment) and one of h2 = h1 / 10, the state set back
 *                  before each step (the step driver, fmuc_step.h), the outputs read after it.
 *                  First a screening step per input (its first perturbation value, h2, against
 *                  base steps made once with every input at its value): an input that moves
 *                  no unknown outside its declared dependencies there cannot fail (a failure
 *                  needs a move after both sizes for every value), so only the others get the
 *                  full set of steps (issue 16: a slow FMU restarts its solver at every
 *                  restored state; Dymola's FS_OPSC, 13 inputs, went from 30 s to 5 s, and to
 *                  1.4 s with the first step: its steps from the start time cost 0.25 s each).
 *                  A direct feedthrough changes the output by about as much after either step
 *                  (a float one keeps more than half of its change at h2); a dependency
 *                  through the dynamics shrinks with h (about h2/h1 = 1/10) and is counted,
 *                  not judged. Not applicable without canGetAndSetFMUstate /
 *                  canGetAndSetFMUState (no step repeated from one state), without
 *                  canHandleVariableCommunicationStepSize (no small steps), when the FMU
 *                  refuses a probe step (Discard, Error, an early return) or the state, and in
 *                  FMI 1.0 CS (no FMU state; inputs set after fmiInitializeSlave are
 *                  "effective for the next step", fmi1-rules D.2 condition 2); also when
 *                  the nominal CS run crashed or hung, when a probe step ends the worker (the
 *                  step is cs-nominal-run's and cs-variable-step's to judge), and when the
 *                  base steps look like an FMU that ignores the step size (outputs that move
 *                  from the communication point move alike after h1 and h2, none shrinking:
 *                  it would pass the dynamics off as a direct feedthrough).
 * Watched unknowns: scalar outputs of the same types and (ME 2.0/3.0) the state derivatives; a
 * float one "moves" when it leaves the noise band, a discrete one when its value differs, for
 * both perturbation values (the one flip of a Boolean).
 * An unknown whose declaration leaves out that input (or an alias of it) and that moves for
 * every perturbation value (ME: and returns to its value when the input is restored; CS: after
 * both step sizes, not shrinking) fails: an importer that orders its calls by the declared
 * structure (§3.2.2: "output variables can be retrieved ... according to the model structure")
 * reads it before setting the input and gets a stale value, and a master that breaks algebraic
 * loops by it misses one. An ME unknown that does not return (a discrete state latched the
 * input at the event) is not judged. Declared dependencies that do not move are only counted
 * (declaring more than is used is allowed).
 * FMI 3.0 arrays (inputs or unknowns with <Dimension>), clocked inputs, String/Binary/Clock
 * inputs and outputs are counted and left out. At most MAX_INPUTS inputs per interface (the
 * count is noted). */
#include "fmuc/fmuc_step.h"
#include "me/me_util.h"

#define MAX_INPUTS 100
#define MAX_INPUTS_TEXT "100" /* the same, for messages */
#define REL_STEP 1e-2  /* the perturbation, of |value| (else |nominal|, else 1) */
#define REL_MOVE 1e-6  /* moved: |y - y0| > REL_MOVE * max|y| + ABS_MOVE * nominal */
#define ABS_MOVE 1e-10
#define MAX_REPORTED 30
#define MAX_EVENT_ITERATIONS 1000
#define MAX_EVENT_TEXT "1000" /* the same, for messages */
#define CS_H1_REL 1e-3 /* CS: the first probe step, of the nominal communication step */
#define CS_H_RATIO 10.0 /* CS: the second probe step is the first divided by this */
#define CS_KEEP 0.5    /* CS: a change kept above this share at the smaller step is direct */
#define CS_PHASE "probe steps" /* CS: the worker phase of the probe steps (a death there) */

/* What a value is: float (f), or integer, Boolean and enumeration (i: the value; FMI 3.0 UInt64
 * as its bit pattern) */
typedef struct dval {
    double f;
    int64_t i;
} dval;

typedef struct dep_in {
    const fmuc_md_var *var;
    uint32_t index; /* 1-based ModelVariables index */
    fmuc_inst_base ib;
    int flt;        /* a float type (Float64/Real, Float32) */
    int at_event;   /* ME: set in Event Mode (a discrete input) */
    int hmin, hmax;
    double mn, mx, nom; /* nom: |nominal| when declared, else 0 */
    const fmuc_md_type *et; /* enumeration: its declared type (items), or NULL */
} dep_in;

typedef struct dep_unk {
    const fmuc_md_var *var;
    uint32_t index;           /* 1-based ModelVariables index */
    const fmuc_md_unknown *u; /* FMI 2.0/3.0 declaration; NULL in FMI 1.0 */
    const fmuc_md_var_ext *x; /* FMI 1.0: the DirectDependency record (NULL: none given) */
    const char *list;         /* "Outputs" / "Derivatives" (2.0), "Output" / ... (3.0) */
    double nom;               /* |nominal| when declared, else 1 */
    fmuc_inst_base ib;        /* derivatives: FLOAT64 */
} dep_unk;

/* The unknowns are read in groups of one base type: outputs in the order of fmuc_inst_base,
 * then the state derivatives. */
typedef struct dep_plan {
    fmuc_iface iface;
    const char *iname;
    int ver;
    size_t nin, nin_eligible, nin_event;
    dep_in *in;
    size_t ny, nx; /* outputs, state derivatives (ME) */
    size_t gstart[FMUC_INST_NBASE], gn[FMUC_INST_NBASE]; /* output groups by base type */
    dep_unk *unk;  /* ny outputs, then nx derivatives in state order */
    fmuc_vr *yvr;
    size_t npairs; /* (input, unknown) pairs the declarations exclude */
    size_t skipped_type, skipped_multiset, skipped_bounds, skipped_array, skipped_clocked,
        unk_array;
    int dx_arrays; /* FMI 3.0: a state derivative is an array (derivatives not watched) */
    double h[3];   /* CS: the two probe step sizes (h[1] = h[0] / CS_H_RATIO) and the
                    * confirmation step (h[2] = h[1] / CS_H_RATIO^2) */
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

/* The instance base type a variable is perturbed or watched as: float, integer, Boolean or
 * enumeration with a valueReference; FMUC_INST_NBASE otherwise (String, Binary, Clock). */
static fmuc_inst_base watch_base(const fmuc_md_var *v)
{
    if (!v || !(v->has & FMUC_HAS_VALUE_REFERENCE))
        return FMUC_INST_NBASE;
    fmuc_inst_base b = apiu_inst_base(v->base);
    return b == FMUC_INST_STRING || b == FMUC_INST_BINARY || b == FMUC_INST_CLOCK
               ? FMUC_INST_NBASE
               : b;
}

static int is_float_base(fmuc_inst_base b)
{
    return b == FMUC_INST_FLOAT64 || b == FMUC_INST_FLOAT32;
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

/* Does unknown q declare a dependency on input k (itself or a variable of its base type with
 * its valueReference, i.e. an alias)? No declaration: on every known (every input in 1.0). */
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
                    watch_base(&md->vars[j]) == k->ib &&
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
        if (d && watch_base(d) == k->ib && d->value_reference == k->var->value_reference)
            return 1;
    }
    return 0;
}

/* The unknown gives an explicit list (declared dependencies that do not move are counted). */
static int explicit_list(const fmuc_md *md, const dep_unk *q)
{
    return md->fmi == FMUC_FMI1 ? q->x && q->x->has_direct_dependency : q->u->has_deps;
}

/* Add the scalar outputs of instance base type b to the plan (one group). */
static void plan_outputs(const fmuc_md *md, dep_plan *p, fmuc_inst_base b)
{
    int v3 = md->fmi == FMUC_FMI3;
    p->gstart[b] = p->ny;
    if (md->fmi == FMUC_FMI1) {
        for (size_t i = 0; i < md->nvars; i++) {
            const fmuc_md_var *v = &md->vars[i];
            if (v->causality != FMUC_CAUS_OUTPUT || watch_base(v) != b)
                continue;
            double n = nominal_of(md, v);
            p->unk[p->ny] = (dep_unk){v, (uint32_t)(i + 1), NULL, ext_at(md, (uint32_t)(i + 1)),
                                      "DirectDependency", n > 0 ? n : 1.0, b};
            p->yvr[p->ny++] = v->value_reference;
        }
    } else {
        for (size_t i = 0; i < md->noutputs; i++) {
            const fmuc_md_var *v = fmuc_md_var_at(md, md->outputs[i].index);
            if (watch_base(v) != b)
                continue;
            if (v3 && is_array(md, md->outputs[i].index)) {
                p->unk_array++;
                continue;
            }
            double n = nominal_of(md, v);
            p->unk[p->ny] = (dep_unk){v, md->outputs[i].index, &md->outputs[i], NULL,
                                      v3 ? "Output" : "Outputs", n > 0 ? n : 1.0, b};
            p->yvr[p->ny++] = v->value_reference;
        }
    }
    p->gn[b] = p->ny - p->gstart[b];
}

/* The enumeration type of v (its declared type when that has items), or NULL. */
static const fmuc_md_type *enum_type(const fmuc_md *md, const fmuc_md_var *v)
{
    const fmuc_md_type *t = apiu_decl_type(md, v);
    return t && t->nitems ? t : NULL;
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
        fmuc_inst_base b = watch_base(v);
        if (b == FMUC_INST_NBASE) {
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
        if (me && (v->has & FMUC_HAS_MULTISET) && !(v->flags & FMUC_FLAG_MULTISET)) {
            p->skipped_multiset++;
            continue;
        }
        dep_in k = {.var = v, .index = (uint32_t)(i + 1), .ib = b, .flt = is_float_base(b)};
        /* ME: only a continuous float input may be set in Continuous-Time Mode */
        k.at_event = me && (!k.flt || v->variability != FMUC_VAR_CONTINUOUS);
        k.hmin = apiu_min(md, v, &k.mn);
        k.hmax = apiu_max(md, v, &k.mx);
        k.nom = nominal_of(md, v);
        if (b == FMUC_INST_ENUMERATION)
            k.et = enum_type(md, v);
        if (k.hmin && k.hmax && !(k.mn < k.mx)) {
            p->skipped_bounds++;
            continue;
        }
        p->nin_eligible++;
        if (p->nin < MAX_INPUTS) {
            p->nin_event += k.at_event;
            p->in[p->nin++] = k;
        }
    }
    for (int b = 0; b < FMUC_INST_NBASE; b++)
        if (b != FMUC_INST_STRING && b != FMUC_INST_BINARY && b != FMUC_INST_CLOCK)
            plan_outputs(md, p, (fmuc_inst_base)b);
    for (size_t i = 0; watch_dx && i < m.nx; i++) {
        double n = nominal_of(md, m.dxvar[i]);
        p->unk[p->ny + i] = (dep_unk){m.dxvar[i], m.dx_index[i], m.dx_unknown[i], NULL,
                                      v3 ? "ContinuousStateDerivative" : "Derivatives",
                                      n > 0 ? n : 1.0, FMUC_INST_FLOAT64};
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
        snprintf(why, wl, "no %s input that can be set (other types: %zu, "
                          "canHandleMultipleSetPerTimeInstant=\"false\": %zu, empty [min, max]: "
                          "%zu%s)",
                 v3 ? "scalar float, integer, Boolean or enumeration"
                    : "Real, Integer, Boolean or Enumeration",
                 p->skipped_type, p->skipped_multiset, p->skipped_bounds, more);
        return -1;
    }
    if (!p->npairs) {
        if (p->ver == 1)
            snprintf(why, wl, "every Real, Integer, Boolean or Enumeration output lists every "
                              "input it could move with in its <DirectDependency>, or has none "
                              "(then it depends on all inputs): nothing an experiment could "
                              "contradict");
        else
            snprintf(why, wl, "every %soutput and state derivative lists every input it could "
                              "move with, or has no dependencies attribute (then it depends on "
                              "all knowns): nothing an experiment could contradict%s",
                     v3 ? "scalar " : "", p->unk_array || p->dx_arrays
                                              ? " (array unknowns not watched)"
                                              : "");
        return -1;
    }
    if (!me && p->ver == 1) {
        snprintf(why, wl, "FMI 1.0 Co-Simulation: inputs set after fmiInitializeSlave are "
                          "effective for the next fmiDoStep only and 1.0 has no FMU state to "
                          "repeat a step from the same state, so a direct feedthrough cannot be "
                          "told from the dynamics by legal calls");
        return -1;
    }
    if (!me) {
        const char *ds = v3 ? "fmi3DoStep" : "fmi2DoStep";
        if (!(md->cs.caps & (1u << FMUC_CAP_CAN_GET_AND_SET_FMU_STATE))) {
            snprintf(why, wl, "needs %s to repeat a step from the same state: outputs may not "
                              "be read after inputs are set before the next %s (%s), so a "
                              "direct feedthrough is observed only through steps",
                     v3 ? "canGetAndSetFMUState" : "canGetAndSetFMUstate", ds,
                     v3 ? "FMI 3.0.2 Step Mode" : "FMI 2.0.4 §4.2.4");
            return -1;
        }
        if (!(md->cs.caps & (1u << FMUC_CAP_CAN_HANDLE_VARIABLE_COMMUNICATION_STEP_SIZE))) {
            snprintf(why, wl, "needs canHandleVariableCommunicationStepSize: a direct "
                              "feedthrough is told from the dynamics by two small %s step "
                              "sizes from the same FMU state",
                     ds);
            return -1;
        }
        /* the nominal communication step: the DefaultExperiment's stepSize, else a 500th of
         * the experiment (of 1 s without a stopTime), as the simulation driver takes it */
        const fmuc_md_experiment *e = &md->experiment;
        double t0 = e->present && e->has_start && isfinite(e->start_time) ? e->start_time : 0.0;
        double t1 = e->present && e->has_stop && isfinite(e->stop_time) && e->stop_time > t0
                        ? e->stop_time
                        : t0 + 1.0;
        double dt = e->present && e->has_step && isfinite(e->step_size) && e->step_size > 0
                        ? e->step_size
                        : (t1 - t0) / 500.0;
        p->h[0] = CS_H1_REL * dt;
        p->h[1] = p->h[0] / CS_H_RATIO;
        p->h[2] = p->h[1] / (CS_H_RATIO * CS_H_RATIO);
    }
    return 0;
}

/* Two values for float input k near u0, within [min, max], different from u0 and each other. */
static int choose_float(const dep_in *k, double u0, double *p1, double *p2)
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
    if (k->ib == FMUC_INST_FLOAT32) { /* the values the FMU will hold */
        *p1 = (float)*p1;
        *p2 = (float)*p2;
    }
    return *p1 != u0 && *p2 != u0 && *p1 != *p2 && *p1 >= lo && *p1 <= hi && *p2 >= lo &&
                   *p2 <= hi
               ? 0
               : -1;
}

/* The range of an integer base type (UInt64 capped at INT64_MAX: larger values are left). */
static void int_range(fmuc_inst_base b, int64_t *lo, int64_t *hi)
{
    switch (b) {
    case FMUC_INST_INT8: *lo = INT8_MIN, *hi = INT8_MAX; break;
    case FMUC_INST_UINT8: *lo = 0, *hi = UINT8_MAX; break;
    case FMUC_INST_INT16: *lo = INT16_MIN, *hi = INT16_MAX; break;
    case FMUC_INST_UINT16: *lo = 0, *hi = UINT16_MAX; break;
    case FMUC_INST_INT32: *lo = INT32_MIN, *hi = INT32_MAX; break;
    case FMUC_INST_UINT32: *lo = 0, *hi = UINT32_MAX; break;
    case FMUC_INST_UINT64: *lo = 0, *hi = INT64_MAX; break;
    default: *lo = INT64_MIN, *hi = INT64_MAX; break;
    }
}

/* Narrow [lo, hi] to the declared [min, max] (doubles, rounded inward). */
static void clamp_declared(const dep_in *k, int64_t *lo, int64_t *hi)
{
    if (k->hmin && ceil(k->mn) > (double)*lo)
        *lo = ceil(k->mn) >= 9.2233720368547758e18 ? INT64_MAX : (int64_t)ceil(k->mn);
    if (k->hmax && floor(k->mx) < (double)*hi)
        *hi = floor(k->mx) <= -9.2233720368547758e18 ? INT64_MIN : (int64_t)floor(k->mx);
}

/* Up to two perturbation values of input k at u0 (another legal value each); the count (0: no
 * room). */
static int choose(const dep_in *k, const dval *u0, dval *p)
{
    memset(p, 0, 2 * sizeof *p);
    if (k->flt)
        return choose_float(k, u0->f, &p[0].f, &p[1].f) == 0 ? 2 : 0;
    if (k->ib == FMUC_INST_BOOLEAN) {
        p[0].i = !u0->i;
        return 1;
    }
    int64_t lo, hi, u = u0->i;
    int_range(k->ib == FMUC_INST_ENUMERATION ? FMUC_INST_INT64 : k->ib, &lo, &hi);
    clamp_declared(k, &lo, &hi);
    if (k->ib == FMUC_INST_UINT64 && u < 0)
        return 0; /* beyond INT64_MAX */
    if (k->ib == FMUC_INST_ENUMERATION) {
        /* other declared items within [min, max], from the one after u0's on, cyclically */
        if (!k->et)
            return 0;
        size_t n = k->et->nitems, at = 0, got = 0;
        for (size_t j = 0; j < n; j++) {
            const fmuc_md_item *it = &k->et->items[j];
            if ((it->has_value ? it->value : (int64_t)j + 1) == u)
                at = j + 1;
        }
        for (size_t s = 0; s < n && got < 2; s++) {
            size_t j = (at + s) % n;
            const fmuc_md_item *it = &k->et->items[j];
            int64_t v = it->has_value ? it->value : (int64_t)j + 1;
            if (v != u && v >= lo && v <= hi && (!got || v != p[0].i))
                p[got++].i = v;
        }
        return (int)got;
    }
    if (u < lo || u > hi)
        return 0;
    int up1 = u < hi, up2 = up1 && u + 1 < hi, dn1 = u > lo, dn2 = dn1 && u - 1 > lo;
    if (up1 && dn1) {
        p[0].i = u + 1;
        p[1].i = u - 1;
    } else if (up2) {
        p[0].i = u + 1;
        p[1].i = u + 2;
    } else if (dn2) {
        p[0].i = u - 1;
        p[1].i = u - 2;
    } else if (up1 || dn1) {
        p[0].i = up1 ? u + 1 : u - 1;
        return 1;
    } else {
        return 0;
    }
    return 2;
}

/* --- worker ------------------------------------------------------------------------------- */

typedef struct dep_run {
    const dep_plan *p;
    fmuc_worker_ctx *ctx;
    fmuc_inst *c;
    int worst;
    int ended; /* the FMU asked to terminate, or an event iteration did not settle */
    double t;
    void *scratch; /* values of one group of unknowns (ny elements of 8 bytes, at least 1) */
    const dep_in *setting; /* the input the event iteration's hook sets */
    const dval *set_all;   /* CS base steps (setting NULL): every input set to these values */
    int u0_guessed;        /* an input's value could not be read (its start value stands in) */
    const dval *setval;
    int setst;
    size_t reported, undeclared, confirmed, unused, unsteady, dynamic, inputs_done,
        inputs_event;
    size_t screened; /* CS: inputs whose screening step moved nothing outside their declared
                      * dependencies (not probed further) */
    size_t screen_declared; /* CS: declared (input, unknown) pairs that moved in those steps */
    size_t late_shrink;     /* CS: of dynamic, the changes that shrank only at h3 (stiff) */
} dep_run;

static int st_of(dep_run *r, int st)
{
    if ((st == FMUC_STATUS_ERROR || st == FMUC_STATUS_FATAL) && st > r->worst)
        r->worst = st;
    return st;
}

/* The version's get/set function of base type b, for messages. */
static const char *fn_name(int ver, int set, fmuc_inst_base b, char *buf, size_t n)
{
    if (ver == 3) {
        snprintf(buf, n, "fmi3%s%s", set ? "Set" : "Get", apiu_base3_name(b));
        return buf;
    }
    const char *t = is_float_base(b) ? "Real" : b == FMUC_INST_BOOLEAN ? "Boolean" : "Integer";
    snprintf(buf, n, "fmi%s%s%s", ver == 2 ? "2" : "", set ? "Set" : "Get", t);
    return buf;
}

static const char *do_step_name(int ver)
{
    return ver == 1 ? "fmiDoStep" : ver == 3 ? "fmi3DoStep" : "fmi2DoStep";
}

/* Element i of a value array of base type b into v. */
static void from_raw(fmuc_inst_base b, const void *raw, size_t i, dval *v)
{
    memset(v, 0, sizeof *v);
    switch (b) {
    case FMUC_INST_FLOAT32: v->f = ((const float *)raw)[i]; break;
    case FMUC_INST_FLOAT64: v->f = ((const double *)raw)[i]; break;
    case FMUC_INST_INT8: v->i = ((const int8_t *)raw)[i]; break;
    case FMUC_INST_UINT8: v->i = ((const uint8_t *)raw)[i]; break;
    case FMUC_INST_INT16: v->i = ((const int16_t *)raw)[i]; break;
    case FMUC_INST_UINT16: v->i = ((const uint16_t *)raw)[i]; break;
    case FMUC_INST_INT32: v->i = ((const int32_t *)raw)[i]; break;
    case FMUC_INST_UINT32: v->i = ((const uint32_t *)raw)[i]; break;
    case FMUC_INST_UINT64: v->i = (int64_t)((const uint64_t *)raw)[i]; break;
    case FMUC_INST_BOOLEAN: v->i = ((const int *)raw)[i] != 0; break;
    default: v->i = ((const int64_t *)raw)[i]; break; /* INT64, ENUMERATION */
    }
}

/* One value of base type b into raw (8 bytes or more). */
static void to_raw(fmuc_inst_base b, const dval *v, void *raw)
{
    switch (b) {
    case FMUC_INST_FLOAT32: *(float *)raw = (float)v->f; break;
    case FMUC_INST_FLOAT64: *(double *)raw = v->f; break;
    case FMUC_INST_INT8: *(int8_t *)raw = (int8_t)v->i; break;
    case FMUC_INST_UINT8: *(uint8_t *)raw = (uint8_t)v->i; break;
    case FMUC_INST_INT16: *(int16_t *)raw = (int16_t)v->i; break;
    case FMUC_INST_UINT16: *(uint16_t *)raw = (uint16_t)v->i; break;
    case FMUC_INST_INT32: *(int32_t *)raw = (int32_t)v->i; break;
    case FMUC_INST_UINT32: *(uint32_t *)raw = (uint32_t)v->i; break;
    case FMUC_INST_UINT64: *(uint64_t *)raw = (uint64_t)v->i; break;
    case FMUC_INST_BOOLEAN: *(int *)raw = v->i != 0; break;
    default: *(int64_t *)raw = v->i; break;
    }
}

/* A value of base type b as text. */
static const char *val_text(fmuc_inst_base b, const dval *v, char *buf, size_t n)
{
    if (is_float_base(b))
        snprintf(buf, n, "%.17g", v->f);
    else if (b == FMUC_INST_BOOLEAN)
        snprintf(buf, n, "%s", v->i ? "true" : "false");
    else if (b == FMUC_INST_UINT64)
        snprintf(buf, n, "%llu", (unsigned long long)(uint64_t)v->i);
    else
        snprintf(buf, n, "%lld", (long long)v->i);
    return buf;
}

/* Read the outputs (group by group) and the derivatives into y. 0, or the failing status. */
static int read_unknowns(dep_run *r, dval *y)
{
    const dep_plan *p = r->p;
    int st = FMUC_STATUS_OK;
    for (int b = 0; b < FMUC_INST_NBASE && fmuc_status_ok(st); b++) {
        size_t n = p->gn[b], s = p->gstart[b];
        if (!n)
            continue;
        st = st_of(r, fmuc_inst_get(r->c, (fmuc_inst_base)b, p->yvr + s, n, r->scratch, n));
        for (size_t i = 0; fmuc_status_ok(st) && i < n; i++)
            from_raw((fmuc_inst_base)b, r->scratch, i, &y[s + i]);
    }
    if (fmuc_status_ok(st) && p->nx) {
        double *dx = r->scratch;
        st = st_of(r, fmuc_inst_get_derivatives(r->c, dx, p->nx));
        for (size_t i = 0; fmuc_status_ok(st) && i < p->nx; i++)
            y[p->ny + i] = (dval){.f = dx[i]};
    }
    return fmuc_status_ok(st) ? 0 : st;
}

/* One value of any base type, aligned for each */
typedef union raw1 {
    double d;
    int64_t i;
    unsigned char b[16];
} raw1;

static int set_value(dep_run *r, const dep_in *k, const dval *u)
{
    fmuc_vr vr = k->var->value_reference;
    raw1 raw;
    memset(&raw, 0, sizeof raw);
    to_raw(k->ib, u, &raw);
    int st = st_of(r, fmuc_inst_set(r->c, k->ib, &vr, 1, &raw, 1));
    return fmuc_status_ok(st) ? 0 : st;
}

static int get_input(dep_run *r, const dep_in *k, dval *u)
{
    fmuc_vr vr = k->var->value_reference;
    raw1 raw;
    memset(&raw, 0, sizeof raw);
    int st = st_of(r, fmuc_inst_get(r->c, k->ib, &vr, 1, &raw, 1));
    if (fmuc_status_ok(st))
        from_raw(k->ib, &raw, 0, u);
    return st;
}

/* The event iteration's hook: the input is set before its first call. */
static int set_in_event(void *user, fmuc_inst *in, unsigned iteration,
                        const fmuc_inst_event_info *info)
{
    (void)in;
    (void)info;
    dep_run *r = user;
    if (iteration > 0)
        return 0;
    r->setst = set_value(r, r->setting, r->setval);
    return r->setst != 0;
}

/* Set input k to u: a continuous one as it is; a discrete one in Model Exchange at an event
 * (Event Mode, the set, the step driver's event iteration, Continuous-Time Mode; FMI 1.0: the
 * set and fmiEventUpdate). 0, or the failing status (-1: the FMU asked to terminate or the
 * iteration did not settle); after any failure at an event r->ended is set (the instance may
 * still be in Event Mode); why names the call. */
static int set_input(dep_run *r, const dep_in *k, const dval *u, char *why, size_t wl)
{
    if (!k->at_event)
        return set_value(r, k, u);
    /* a failure anywhere below may leave the instance in Event Mode: nothing more is probed */
    r->ended = 1;
    const dep_plan *p = r->p;
    char nb[64];
    int st = st_of(r, fmuc_inst_enter_event_mode(r->c));
    if (!fmuc_status_ok(st)) {
        snprintf(why, wl, "%s", apiu_fn(p->ver, p->iface, FMUC_INST_OP_ENTER_EVENT_MODE));
        return st;
    }
    fmuc_step_event ev;
    r->setting = k;
    r->setval = u;
    r->setst = 0;
    int rc = fmuc_step_event_iteration(r->c, MAX_EVENT_ITERATIONS, set_in_event, NULL, r, &ev);
    if (r->setst) {
        snprintf(why, wl, "%s", fn_name(p->ver, 1, k->ib, nb, sizeof nb));
        return r->setst;
    }
    if (rc != 0 && ev.failed) {
        st_of(r, ev.status);
        snprintf(why, wl, "%s",
                 apiu_fn(p->ver, p->iface, FMUC_INST_OP_UPDATE_DISCRETE_STATES));
        return ev.status;
    }
    if (rc != 0) {
        snprintf(why, wl, "%s %s",
                 apiu_fn(p->ver, p->iface, FMUC_INST_OP_UPDATE_DISCRETE_STATES),
                 rc == 1 ? "asked to terminate the simulation"
                         : "still asked for another iteration after " MAX_EVENT_TEXT " calls");
        return -1;
    }
    st = st_of(r, fmuc_inst_enter_continuous_time_mode(r->c));
    if (!fmuc_status_ok(st)) {
        snprintf(why, wl, "%s", apiu_fn(p->ver, p->iface, FMUC_INST_OP_ENTER_CT_MODE));
        return st;
    }
    r->ended = 0; /* back in Continuous-Time Mode */
    return 0;
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

/* Does unknown i of values a and b differ beyond noise (floats) or at all (discrete)? */
static int differs(const dep_plan *p, size_t i, const dval *a, const dval *b, double thr)
{
    if (!is_float_base(p->unk[i].ib))
        return a->i != b->i;
    return fabs(a->f - b->f) > thr;
}

static void judge(dep_run *r, const fmuc_md *md, const dep_in *k, const dval *u0,
                  const dval *pv, int np, dval *const *y, const dval *y0, const dval *yr)
{
    const dep_plan *p = r->p;
    for (size_t i = 0; i < p->ny + p->nx; i++) {
        const dep_unk *q = &p->unk[i];
        int flt = is_float_base(q->ib);
        double thr = 0.0;
        if (flt) {
            int fin = isfinite(y0[i].f) && isfinite(yr[i].f);
            double sc = fmax(fabs(y0[i].f), fabs(yr[i].f));
            for (int j = 0; j < np; j++) {
                fin = fin && isfinite(y[j][i].f);
                sc = fmax(sc, fabs(y[j][i].f));
            }
            if (!fin)
                continue;
            /* Float32 unknowns carry about 7 digits */
            double rel = q->ib == FMUC_INST_FLOAT32 ? 1e-5 : REL_MOVE;
            thr = rel * sc + ABS_MOVE * q->nom;
        }
        if (differs(p, i, &yr[i], &y0[i], thr)) {
            r->unsteady++; /* does not come back: not judged */
            continue;
        }
        int moved = 1;
        for (int j = 0; j < np; j++)
            moved = moved && differs(p, i, &y[j][i], &y0[i], thr);
        int decl = declares(md, q, k);
        if (moved && decl) {
            r->confirmed++;
        } else if (!moved && decl && explicit_list(md, q)) {
            r->unused++;
        } else if (moved && !decl) {
            r->undeclared++;
            if (r->reported++ >= MAX_REPORTED)
                continue;
            char decl_buf[600], where[200], ys[3][40], us[3][40];
            decl_text(md, q, decl_buf, sizeof decl_buf);
            if (p->iface == FMUC_IFACE_ME && k->at_event)
                snprintf(where, sizeof where, "%s, time unchanged",
                         p->ver == 1 ? "set, then fmiEventUpdate iterated"
                         : p->ver == 3
                             ? "set in Event Mode, fmi3UpdateDiscreteStates iterated, read in "
                               "Continuous-Time Mode"
                             : "set in Event Mode, fmi2NewDiscreteStates iterated, read in "
                               "Continuous-Time Mode");
            else if (p->iface == FMUC_IFACE_ME)
                snprintf(where, sizeof where, "%s, time and states unchanged",
                         p->ver == 1 ? "after fmiInitialize" : "Continuous-Time Mode");
            else
                snprintf(where, sizeof where, "communication point, no %s in between",
                         do_step_name(p->ver));
            val_text(q->ib, &y0[i], ys[0], sizeof ys[0]);
            val_text(q->ib, &y[0][i], ys[1], sizeof ys[1]);
            val_text(q->ib, &y[np - 1][i], ys[2], sizeof ys[2]);
            val_text(k->ib, u0, us[0], sizeof us[0]);
            val_text(k->ib, &pv[0], us[1], sizeof us[1]);
            val_text(k->ib, &pv[np - 1], us[2], sizeof us[2]);
            meu_violation(r->ctx,
                          "%s: %s '%s' (vr %u) moved from %s to %s%s%s when input '%s' (vr %u, "
                          "index %u) was set from %s to %s%s%s at t = %.17g (%s), but %s",
                          p->iname, i < p->ny ? "output" : "state derivative", meu_name(q->var),
                          q->var->value_reference, ys[0], ys[1], np > 1 ? " and " : "",
                          np > 1 ? ys[2] : "", meu_name(k->var), k->var->value_reference,
                          k->index, us[0], us[1], np > 1 ? " and " : "", np > 1 ? us[2] : "",
                          r->t, where, decl_buf);
        }
    }
}

/* --- Co-Simulation: through steps from one FMU state ------------------------------------- */

static const char *state_fn(int ver, int set)
{
    if (ver == 3)
        return set ? "fmi3SetFMUState" : "fmi3GetFMUState";
    return set ? "fmi2SetFMUstate" : "fmi2GetFMUstate";
}

/* The step driver's inputs hook: the probed input takes its value before the step. */
static int cs_set_hook(void *user, fmuc_inst *in, double t)
{
    (void)in;
    (void)t;
    dep_run *r = user;
    if (r->setting) {
        r->setst = set_value(r, r->setting, r->setval);
    } else {
        r->setst = 0;
        for (size_t k = 0; r->set_all && k < r->p->nin && !r->setst; k++)
            r->setst = set_value(r, &r->p->in[k], &r->set_all[k]);
    }
    return r->setst != 0;
}

/* One probe: the FMU state s0 set, input k set to u (k NULL: every input set to r->set_all), one
 * step of h from the communication point (the step driver), the outputs read into y. 0; 1 the set of the input failed (r->setst);
 * -1 the interface cannot be probed (why). */
static int cs_run(dep_run *r, fmuc_stepper *sp, fmuc_fmu_state s0, const dep_in *k,
                  const dval *u, double h, dval *y, char *why, size_t wl)
{
    const dep_plan *p = r->p;
    char sb[32];
    int st = st_of(r, fmuc_inst_set_state(r->c, s0));
    if (!fmuc_status_ok(st)) {
        snprintf(why, wl, "%s (back to the communication point t = %.17g) returned %s",
                 state_fn(p->ver, 1), r->t, fmuc_status_name(p->ver, st, sb, sizeof sb));
        return -1;
    }
    r->setting = k;
    r->setval = u;
    r->setst = 0;
    sp->cs_h = h;
    fmuc_step_cs_out o;
    memset(&o, 0, sizeof o);
    fmuc_step_rc rc = fmuc_step_interval(sp, r->t, r->t + h, &o);
    if (rc == FMUC_STEP_INPUTS)
        return 1;
    if (rc != FMUC_STEP_OK) {
        if (rc == FMUC_STEP_FAILED)
            st_of(r, sp->status);
        snprintf(why, wl, "the probe step %s(%.17g, %.17g) returned %s%s%s", do_step_name(p->ver),
                 r->t, h,
                 rc == FMUC_STEP_FAILED ? fmuc_status_name(p->ver, sp->status, sb, sizeof sb)
                                        : "early",
                 sp->why[0] ? ": " : "", sp->why);
        return -1;
    }
    if ((st = read_unknowns(r, y)) != 0) {
        snprintf(why, wl, "reading the outputs after %s(%.17g, %.17g) returned %s",
                 do_step_name(p->ver), r->t, h, fmuc_status_name(p->ver, st, sb, sizeof sb));
        return -1;
    }
    return 0;
}

/* Judge input k from the steps of both sizes: yb[s] with the input at u0, yp[j][s] with it at
 * pv[j] (s: step size index). A float output whose change keeps more than CS_KEEP of itself
 * when the step shrinks by CS_H_RATIO, beyond noise at both sizes, for every perturbation
 * value, follows the input directly (a discrete one: differs at both sizes). With c3 (the
 * confirmation steps of h3: c3[j] at pv[j], c3[2] at u0) the change must also keep more than
 * CS_KEEP of its size at h2 at h3 (a non-finite value there: judged on h1 and h2): a stiff mode faster than h2 moves an output at h1 and h2 alike,
 * but a change through the dynamics vanishes as the step goes to 0 and a direct one does not.
 * Only suspects (judge 0: cs_suspects counts them) ask for c3. Returns the number of
 * suspects: unknowns the declaration leaves out that moved directly by h1 and h2. */
static int judge_cs(dep_run *r, const fmuc_md *md, const dep_in *k, const dval *u0,
                    const dval *pv, int np, dval *const *yb, dval *const (*yp)[2],
                    dval *const *c3, int judge)
{
    const dep_plan *p = r->p;
    int suspects = 0;
    for (size_t i = 0; i < p->ny; i++) {
        const dep_unk *q = &p->unk[i];
        int flt = is_float_base(q->ib), fin = 1;
        double thr[2] = {0.0, 0.0};
        for (int s = 0; flt && s < 2; s++) {
            double sc = fabs(yb[s][i].f);
            fin = fin && isfinite(yb[s][i].f);
            for (int j = 0; j < np; j++) {
                fin = fin && isfinite(yp[j][s][i].f);
                sc = fmax(sc, fabs(yp[j][s][i].f));
            }
            thr[s] = (q->ib == FMUC_INST_FLOAT32 ? 1e-5 : REL_MOVE) * sc + ABS_MOVE * q->nom;
        }
        if (!fin)
            continue;
        int direct = 1, any = 0, late = 0;
        for (int j = 0; j < np; j++) {
            int m0 = differs(p, i, &yp[j][0][i], &yb[0][i], thr[0]);
            int m1 = differs(p, i, &yp[j][1][i], &yb[1][i], thr[1]);
            any = any || m0 || m1;
            double d0 = flt ? fabs(yp[j][0][i].f - yb[0][i].f) : 0.0;
            double d1 = flt ? fabs(yp[j][1][i].f - yb[1][i].f) : 0.0;
            direct = direct && m0 && m1 && (!flt || d1 > CS_KEEP * d0);
        }
        int decl = declares(md, q, k);
        if (direct && !decl) {
            suspects++;
            if (!judge)
                continue;
        }
        if (!judge)
            continue;
        int fin3 = c3 != NULL;
        for (int j = 0; fin3 && flt && j <= np; j++)
            fin3 = isfinite(c3[j < np ? j : 2][i].f); /* else judged on h1 and h2 */
        if (direct && !decl && fin3) {
            /* the confirmation: still moved, by more than CS_KEEP of the change at h2 (a
             * direct part with a dynamic one on top shrinks from h1 to h2 by less than
             * CS_KEEP and stays at h3) */
            double t3 = 0.0;
            if (flt) {
                double sc = fabs(c3[2][i].f);
                for (int j = 0; j < np; j++)
                    sc = fmax(sc, fabs(c3[j][i].f));
                t3 = (q->ib == FMUC_INST_FLOAT32 ? 1e-5 : REL_MOVE) * sc + ABS_MOVE * q->nom;
            }
            for (int j = 0; j < np && direct; j++) {
                int m3 = differs(p, i, &c3[j][i], &c3[2][i], t3);
                double d1 = flt ? fabs(yp[j][1][i].f - yb[1][i].f) : 0.0;
                double d3 = flt ? fabs(c3[j][i].f - c3[2][i].f) : 0.0;
                direct = m3 && (!flt || d3 > CS_KEEP * d1);
            }
            late = !direct;
        }
        if (late) {
            r->dynamic++;
            r->late_shrink++; /* a stiff mode: shrank only at h3 */
        } else if (direct && decl) {
            r->confirmed++;
        } else if (!direct && decl && explicit_list(md, q)) {
            r->unused++;
        } else if (!direct && any && !decl) {
            r->dynamic++; /* moved through the dynamics: the change shrank with the step */
        } else if (direct && !decl) {
            r->undeclared++;
            if (r->reported++ >= MAX_REPORTED)
                continue;
            char decl_buf[600], v[6][40];
            decl_text(md, q, decl_buf, sizeof decl_buf);
            val_text(q->ib, &yp[0][0][i], v[0], sizeof v[0]);
            val_text(q->ib, &yb[0][i], v[1], sizeof v[1]);
            val_text(q->ib, &yp[0][1][i], v[2], sizeof v[2]);
            val_text(q->ib, &yb[1][i], v[3], sizeof v[3]);
            val_text(k->ib, u0, v[4], sizeof v[4]);
            val_text(k->ib, &pv[0], v[5], sizeof v[5]);
            char c3t[160] = "";
            if (fin3) {
                char a[40], b[40];
                val_text(q->ib, &c3[0][i], a, sizeof a);
                val_text(q->ib, &c3[2][i], b, sizeof b);
                snprintf(c3t, sizeof c3t, " and %s instead of %s after one of %.17g", a, b,
                         p->h[2]);
            }
            meu_violation(r->ctx,
                          "%s: output '%s' (vr %u) was %s instead of %s after %s(%.17g, %.17g) "
                          "and %s instead of %s after a step of %.17g%s, all from the same FMU "
                          "state, with input '%s' (vr %u, index %u) set to %s instead of %s "
                          "before the step%s: a change that does not shrink with the step "
                          "follows the input directly, but %s",
                          p->iname, meu_name(q->var), q->var->value_reference, v[0], v[1],
                          do_step_name(p->ver), r->t, p->h[0], v[2], v[3], p->h[1], c3t,
                          meu_name(k->var), k->var->value_reference, k->index, v[5], v[4],
                          np > 1 ? " (the other perturbation value too)" : "", decl_buf);
        }
    }
    return suspects;
}

/* The screening step of input k (the first perturbation value, the smaller step h2, against the
 * base step of h2 yb1): does an unknown whose declaration leaves k out move beyond noise? Only
 * such a move can fail judge_cs (it asks for a move after both sizes for every perturbation
 * value), so an input where none moves needs no further probe step. */
static int screen_moves(const dep_plan *p, const fmuc_md *md, const dep_in *k, const dval *yb1,
                        const dval *yp1, size_t *declared_moved)
{
    size_t dm = 0;
    for (size_t i = 0; i < p->ny; i++) {
        const dep_unk *q = &p->unk[i];
        double thr = 0.0;
        if (is_float_base(q->ib)) {
            if (!isfinite(yb1[i].f) || !isfinite(yp1[i].f))
                continue; /* judge_cs leaves an unknown with a non-finite value out */
            double sc = fmax(fabs(yb1[i].f), fabs(yp1[i].f));
            thr = (q->ib == FMUC_INST_FLOAT32 ? 1e-5 : REL_MOVE) * sc + ABS_MOVE * q->nom;
        }
        if (!differs(p, i, &yp1[i], &yb1[i], thr))
            continue;
        if (!declares(md, q, k))
            return 1;
        dm++;
    }
    *declared_moved += dm;
    return 0;
}

/* Do the base steps show an FMU that ignores the step size? Among the float outputs that moved
 * from the communication point y0 after the larger step, none moved less than CS_KEEP as much
 * after the smaller one (with none moving, nothing tells: the outputs follow no dynamics). */
static int ignores_step(const dep_plan *p, const dval *y0, dval *const *yb)
{
    int moving = 0;
    for (size_t i = 0; i < p->ny; i++) {
        const dep_unk *q = &p->unk[i];
        if (!is_float_base(q->ib) || !isfinite(y0[i].f) || !isfinite(yb[0][i].f) ||
            !isfinite(yb[1][i].f))
            continue;
        double sc = fmax(fabs(y0[i].f), fmax(fabs(yb[0][i].f), fabs(yb[1][i].f)));
        double thr = (q->ib == FMUC_INST_FLOAT32 ? 1e-5 : REL_MOVE) * sc + ABS_MOVE * q->nom;
        double d0 = fabs(yb[0][i].f - y0[i].f), d1 = fabs(yb[1][i].f - y0[i].f);
        if (d0 <= thr)
            continue;
        moving = 1;
        if (d1 <= CS_KEEP * d0)
            return 0; /* this one shrank with the step */
    }
    return moving;
}

/* Co-Simulation: from the FMU state at the communication point cs_first_step reached, the base
 * steps of both sizes once (every input at its value), then for each input a screening step (its
 * first perturbation value, the smaller step); an input that moves an unknown outside its
 * declared dependencies there is probed in full: both perturbation values and the base at both
 * sizes, the base steps last, so the input is left at its value; after a screening step alone
 * the input is set back to its value. Each step is followed by reading the outputs (the calls a
 * master makes). A slow FMU restarts its solver at every restored state (issue 16: seconds per
 * step), and most inputs of most FMUs move nothing undeclared: the screening saves four of the
 * six steps per input. */
/* The perturbation values of input in from its base value u (choose); none: a note naming the
 * input and why, 0. */
static int perturbations(fmuc_worker_ctx *ctx, const dep_plan *p, const dep_in *in,
                         const dval *u, dval pv[2])
{
    char nb[64];
    int np = choose(in, u, pv);
    if (!np)
        meu_note(ctx, "%s: input '%s' (vr %u) = %s leaves no other legal value%s: not perturbed",
                 p->iname, meu_name(in->var), in->var->value_reference,
                 val_text(in->ib, u, nb, sizeof nb),
                 in->ib == FMUC_INST_ENUMERATION ? " among its items within [min, max]"
                                                 : " within [min, max]");
    return np;
}
/* Co-Simulation: one step of h1 (the larger probe step) from the start time, every input at its
 * value, before the probes (issue 16: a Dymola FMU spends a quarter of a second in any step that
 * begins at the start time, restored or not, and a fiftieth of that in one that begins a little
 * later; the probes, a dozen restores for a dozen inputs, paid it each). The declared
 * dependencies hold at every communication point, and after so short a step the states are
 * still those of the start (an output at rest stays near rest: the noise band, relative to the
 * output, stays as narrow). When the step does not end at t + h1 as an ordinary one (an FMI 3.0
 * early return, event handling or termination requested, Discard) the state taken before it
 * is set back and the probes stay at the start time. 0, or -1 with an NA recorded. */
static int cs_first_step(dep_run *r)
{
    const dep_plan *p = r->p;
    fmuc_worker_ctx *ctx = r->ctx;
    char sb[32];
    fmuc_fmu_state si = NULL;
    fmuc_worker_phase(ctx, "%s at the start time", state_fn(p->ver, 0));
    int st = st_of(r, fmuc_inst_get_state(r->c, &si));
    if (!fmuc_status_ok(st) || !si) {
        meu_na(ctx, "%s: %s at the start time t = %.17g after initialization returned "
                    "%s%s: no state to repeat the probe steps from",
               p->iname, state_fn(p->ver, 0), r->t, fmuc_status_name(p->ver, st, sb, sizeof sb),
               fmuc_status_ok(st) ? " and no state" : "");
        return -1;
    }
    fmuc_worker_phase(ctx, CS_PHASE ": first a step of %.17g", p->h[0]);
    fmuc_inst_step_info info;
    memset(&info, 0, sizeof info);
    st = fmuc_drive_do_step(r->c, r->t, p->h[0], 0, &info, NULL);
    if (st == FMUC_STATUS_ERROR || st == FMUC_STATUS_FATAL) {
        st_of(r, st);
        meu_na(ctx, "%s: the first %s(%.17g, %.17g) before the probes returned %s (see "
                    "cs-nominal-run)",
               p->iname, do_step_name(p->ver), r->t, p->h[0],
               fmuc_status_name(p->ver, st, sb, sizeof sb));
        return -1;
    }
    int rc = 0;
    if (fmuc_status_ok(st) && !info.early_return && !info.event_handling_needed &&
        !info.terminate_simulation) {
        r->t += p->h[0];
    } else {
        fmuc_worker_phase(ctx, "%s back to the start time", state_fn(p->ver, 1));
        st = st_of(r, fmuc_inst_set_state(r->c, si));
        if (!fmuc_status_ok(st)) {
            meu_na(ctx, "%s: %s back to the start time t = %.17g after a first step that "
                        "was no ordinary one returned %s",
                   p->iname, state_fn(p->ver, 1), r->t,
                   fmuc_status_name(p->ver, st, sb, sizeof sb));
            rc = -1;
        }
    }
    if (r->worst != FMUC_STATUS_FATAL && r->worst != FMUC_STATUS_ERROR)
        fmuc_inst_free_state(r->c, &si);
    return rc;
}

static void cs_probe(dep_run *r, const fmuc_md *md, const dval *u0, dval *blk, size_t nu)
{
    const dep_plan *p = r->p;
    fmuc_worker_ctx *ctx = r->ctx;
    char why[320] = "", sb[32], nb[64];
    fmuc_fmu_state s0 = NULL;
    if (cs_first_step(r) < 0)
        return;
    /* the outputs at the communication point (read before any input is set) */
    int st = read_unknowns(r, blk + 6 * nu);
    if (st) {
        meu_na(ctx, "%s: reading the outputs at the communication point returned %s", p->iname,
               fmuc_status_name(p->ver, st, sb, sizeof sb));
        return;
    }
    fmuc_worker_phase(ctx, "%s at the communication point", state_fn(p->ver, 0));
    st = st_of(r, fmuc_inst_get_state(r->c, &s0));
    if (!fmuc_status_ok(st) || !s0) {
        meu_na(ctx, "%s: %s at the communication point t = %.17g returned "
                    "%s%s: no state to repeat the probe steps from",
               p->iname, state_fn(p->ver, 0), r->t, fmuc_status_name(p->ver, st, sb, sizeof sb),
               fmuc_status_ok(st) ? " and no state" : "");
        return;
    }
    dval *const yb[2] = {blk, blk + nu};
    dval *const yp[2][2] = {{blk + 2 * nu, blk + 3 * nu}, {blk + 4 * nu, blk + 5 * nu}};
    dval *y0 = blk + 6 * nu;
    /* the shared base steps (h1, h2), then the confirmation steps of h3 (pv[0], pv[1], u0) */
    dval *base = calloc(5 * nu, sizeof *base);
    dval *const ys[2] = {base, base ? base + nu : NULL};
    dval *const c3[3] = {base ? base + 2 * nu : NULL, base ? base + 3 * nu : NULL,
                         base ? base + 4 * nu : NULL};
    fmuc_stepper sp;
    fmuc_stepper_init(&sp, r->c, 0, 0, 0); /* Co-Simulation: allocates nothing */
    sp.inputs = cs_set_hook;
    sp.user = r;
    r->set_all = u0; /* the base steps set every input to its value, as each probe sets one */
    int rc = 0, any = 0;
    for (size_t k = 0; k < p->nin && !any; k++) {
        dval pv[2];
        any = choose(&p->in[k], &u0[k], pv) > 0;
    }
    if (!base) {
        meu_fatal(ctx, "out of memory");
        rc = -1;
    } else if (!any) {
        rc = 1; /* no input has another legal value: no step (the notes say why, below) */
    }
    fmuc_worker_phase(ctx, CS_PHASE " with every input at its value");
    for (int k = 0; k < 2 && !rc; k++)
        rc = cs_run(r, &sp, s0, NULL, NULL, p->h[k], ys[k], why, sizeof why);
    if (rc < 0 && base) {
        meu_na(ctx, "%s: %s", p->iname, why);
    } else if (rc > 0) {
        if (any) /* a base step's set failed */
            meu_note(ctx, "%s: setting the inputs to their own values before the base steps "
                          "returned %s: not judged",
                     p->iname, fmuc_status_name(p->ver, r->setst, sb, sizeof sb));
        for (size_t k = 0; !any && k < p->nin; k++) {
            dval pv[2];
            perturbations(ctx, p, &p->in[k], &u0[k], pv); /* the note of each input */
        }
        rc = -1;
    } else if (ignores_step(p, y0, ys)) {
        meu_na(ctx, "%s: the outputs changed alike from the communication point after "
                    "%s steps of %.17g and %.17g (none shrank with the step): the FMU "
                    "does not seem to honour communicationStepSize (see "
                    "cs-variable-step), so a direct feedthrough cannot be told from "
                    "the dynamics",
               p->iname, do_step_name(p->ver), p->h[0], p->h[1]);
        rc = -1;
    }
    for (size_t k = 0; k < p->nin && !r->worst && !rc; k++) {
        const dep_in *in = &p->in[k];
        dval pv[2];
        int np = perturbations(ctx, p, in, &u0[k], pv);
        if (!np)
            continue;
        fmuc_worker_phase(ctx, CS_PHASE " of input '%s'", meu_name(in->var));
        /* without every input's value read, the base steps are no base for one input: each is
         * probed in full against its own */
        int full = r->u0_guessed;
        rc = cs_run(r, &sp, s0, in, &pv[0], p->h[1], yp[0][1], why, sizeof why);
        if (!rc && !full &&
            !(full = screen_moves(p, md, in, ys[1], yp[0][1], &r->screen_declared))) {
            /* back to its value at the communication point the step reached */
            r->setst = set_value(r, in, &u0[k]);
            rc = r->setst != 0;
        }
        for (int j = 0; full && j <= np && !rc; j++) /* j == np: the base steps */
            for (int h = 0; h < 2 && !rc; h++)
                rc = cs_run(r, &sp, s0, in, j < np ? &pv[j] : &u0[k], p->h[h],
                            j < np ? yp[j][h] : yb[h], why, sizeof why);
        if (rc > 0) {
            meu_note(ctx, "%s: input '%s' (vr %u) not judged: %s returned %s", p->iname,
                     meu_name(in->var), in->var->value_reference,
                     fn_name(p->ver, 1, in->ib, nb, sizeof nb),
                     fmuc_status_name(p->ver, r->setst, sb, sizeof sb));
            rc = 0;
            continue;
        }
        if (rc < 0) {
            meu_na(ctx, "%s: %s", p->iname, why);
            break;
        }
        r->inputs_done++;
        if (!full) {
            r->screened++;
            continue;
        }
        int have3 = 0;
        if (judge_cs(r, md, in, &u0[k], pv, np, yb, yp, NULL, 0) > 0) {
            /* a suspect: the confirmation steps of h3, the base last (the input left at its
             * value) */
            char why3[320] = "";
            fmuc_worker_phase(ctx, CS_PHASE " of input '%s', confirmation", meu_name(in->var));
            int rc3 = 0;
            for (int j = 0; j <= np && !rc3; j++)
                rc3 = cs_run(r, &sp, s0, in, j < np ? &pv[j] : &u0[k], p->h[2],
                             j < np ? c3[j] : c3[2], why3, sizeof why3);
            char what[320];
            if (rc3 > 0)
                snprintf(what, sizeof what, "%s of input '%s' before the step returned %s",
                         fn_name(p->ver, 1, in->ib, nb, sizeof nb), meu_name(in->var),
                         fmuc_status_name(p->ver, r->setst, sb, sizeof sb));
            else
                snprintf(what, sizeof what, "%s", why3);
            if (r->worst) { /* Error or Fatal (a step or a set): nothing more is called */
                meu_na(ctx, "%s: a confirmation step of %.17g: %s", p->iname, p->h[2], what);
                break;
            }
            have3 = rc3 == 0;
            if (!have3) {
                meu_note(ctx, "%s: input '%s' (vr %u): the confirmation steps of %.17g were not "
                              "made (%s): judged on the steps of %.17g and %.17g",
                         p->iname, meu_name(in->var), in->var->value_reference, p->h[2], what,
                         p->h[0], p->h[1]);
                /* back to the communication point (legal after a Discard, which leaves no set
                 * of an input legal) and the input to its value */
                st = st_of(r, fmuc_inst_set_state(r->c, s0));
                if (fmuc_status_ok(st))
                    r->setst = set_value(r, in, &u0[k]);
                if (!fmuc_status_ok(st) || r->worst) {
                    meu_na(ctx, "%s: after the confirmation steps, %s returned %s", p->iname,
                           fmuc_status_ok(st) ? fn_name(p->ver, 1, in->ib, nb, sizeof nb)
                                              : state_fn(p->ver, 1),
                           fmuc_status_name(p->ver, fmuc_status_ok(st) ? r->setst : st, sb,
                                            sizeof sb));
                    break;
                }
            }
        }
        judge_cs(r, md, in, &u0[k], pv, np, yb, yp, have3 ? c3 : NULL, 1);
    }
    free(base);
    fmuc_stepper_free(&sp);
    if (r->worst != FMUC_STATUS_FATAL && r->worst != FMUC_STATUS_ERROR)
        fmuc_inst_free_state(r->c, &s0);
}

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    const dep_plan *p = payload;
    const fmuc_md *md = &fmuc_worker_fmu(ctx)->md;
    char why[256], sb[32], nb[64];
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
    dval *blk = calloc(7 * nu + p->nin + 1, sizeof *blk);
    r.scratch = calloc(nu, 8);
    if (!blk || !r.scratch) {
        meu_fatal(ctx, "out of memory");
        goto out;
    }
    dval *y0 = blk, *yr = blk + 3 * nu, *u0 = blk + 7 * nu;
    dval *const yp[2] = {blk + nu, blk + 2 * nu};
    fmuc_worker_phase(ctx, "base point");
    for (size_t k = 0; k < p->nin && !r.worst; k++) {
        int st = get_input(&r, &p->in[k], &u0[k]);
        if (!fmuc_status_ok(st)) {
            meu_note(ctx, "%s: %s of input '%s' (vr %u) returned %s; its start value is used",
                     p->iname, fn_name(p->ver, 0, p->in[k].ib, nb, sizeof nb),
                     meu_name(p->in[k].var), p->in[k].var->value_reference,
                     fmuc_status_name(p->ver, st, sb, sizeof sb));
            /* NaN (no start): a float input is not perturbed; a discrete one starts at 0 */
            u0[k] = (dval){.f = p->in[k].var->start,
                           .i = isfinite(p->in[k].var->start) ? (int64_t)p->in[k].var->start
                                                              : 0};
            r.u0_guessed = 1;
        }
    }
    if (r.worst)
        goto out;
    if (p->iface == FMUC_IFACE_CS) {
        cs_probe(&r, md, u0, blk, nu);
        goto out;
    }
    int st0;
    if ((st0 = read_unknowns(&r, y0)) != 0) {
        meu_na(ctx, "%s: reading the outputs%s at the base point returned %s", p->iname,
               p->nx ? " and derivatives" : "", fmuc_status_name(p->ver, st0, sb, sizeof sb));
        goto out;
    }
    for (size_t k = 0; k < p->nin && !r.worst && !r.ended; k++) {
        const dep_in *in = &p->in[k];
        dval pv[2];
        int np = perturbations(ctx, p, in, &u0[k], pv);
        if (!np)
            continue;
        fmuc_worker_phase(ctx, "perturb input '%s'", meu_name(in->var));
        char w[160] = "";
        int bad = 0;
        for (int j = 0; j < np && !bad; j++) {
            bad = set_input(&r, in, &pv[j], w, sizeof w);
            if (!bad && (bad = read_unknowns(&r, yp[j])) != 0)
                snprintf(w, sizeof w, "reading the unknowns");
        }
        /* restore whatever happened (not after an Error or a requested end) */
        if (!r.worst && !r.ended) {
            char w2[160] = "";
            int b2 = set_input(&r, in, &u0[k], w2, sizeof w2);
            if (!b2 && (b2 = read_unknowns(&r, yr)) != 0)
                snprintf(w2, sizeof w2, "reading the unknowns");
            if (!bad && b2) {
                bad = b2;
                snprintf(w, sizeof w, "%s", w2);
            }
        } else if (!bad) {
            bad = r.worst ? r.worst : -1;
        }
        if (bad) {
            meu_note(ctx, "%s: input '%s' (vr %u) not judged: %s%s%s", p->iname,
                     meu_name(in->var), in->var->value_reference, w[0] ? w : "the instance",
                     bad > 0 || bad < -1 ? " returned " : "",
                     bad > 0 || bad < -1 ? fmuc_status_name(p->ver, bad, sb, sizeof sb) : "");
            continue;
        }
        r.inputs_done++;
        r.inputs_event += in->at_event;
        judge(&r, md, in, &u0[k], pv, np, yp, y0, yr);
    }
out:;
    cJSON *o = fmuc_worker_reply(ctx);
    cJSON_AddNumberToObject(o, "inputs_perturbed", (double)r.inputs_done);
    cJSON_AddNumberToObject(o, "inputs_at_event", (double)r.inputs_event);
    cJSON_AddNumberToObject(o, "undeclared", (double)r.undeclared);
    cJSON_AddNumberToObject(o, "confirmed", (double)r.confirmed);
    cJSON_AddNumberToObject(o, "declared_unobserved", (double)r.unused);
    cJSON_AddNumberToObject(o, "not_restored", (double)r.unsteady);
    cJSON_AddNumberToObject(o, "through_dynamics", (double)r.dynamic);
    if (p->iface == FMUC_IFACE_CS) {
        cJSON_AddNumberToObject(o, "screened_out", (double)r.screened);
        cJSON_AddNumberToObject(o, "declared_moved_screened", (double)r.screen_declared);
        cJSON_AddNumberToObject(o, "probe_time", r.t); /* the communication point probed */
        cJSON_AddNumberToObject(o, "shrank_only_at_h3", (double)r.late_shrink);
    }
    if (r.reported > MAX_REPORTED)
        meu_note(ctx, "%s: %zu undeclared dependencies, the first %d reported", p->iname,
                 r.reported, MAX_REPORTED);
    free(blk);
    free(r.scratch);
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
    /* CS steps: not where the nominal run crashed or hung */
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        const char *u = ifs[i].type == FMUC_IFACE_CS
                            ? fmuc_shared_unusable(s, FMUC_IFACE_CS, FMUC_UNUSABLE_RUN)
                            : NULL;
        if (u)
            fmuc_result_note(res, "%s not probed: %s", ifs[i].name, u);
        else
            ifs[kept++] = ifs[i];
    }
    n = kept;
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
        int died = 0;
        const cJSON *reply =
            apiu_run_probed(s, res, "api-dependencies-observed", ifs[i].type, worker, &p, &o,
                            ifs[i].type == FMUC_IFACE_CS ? CS_PHASE : NULL, &died);
        if (died && nwhy < 2) {
            /* a probe step of a size the FMU declares it handles: cs-variable-step's finding */
            char dt[400];
            fmuc_worker_death_text(&o, dt, sizeof dt);
            snprintf(wname[nwhy], sizeof wname[0], "%s", ifs[i].name);
            snprintf(why[nwhy++], sizeof why[0], "the worker ended with %.300s in phase "
                                                 "'%.100s' (cs-nominal-run and cs-variable-step "
                                                 "judge the %s step)",
                     dt, o.phase, p.ver == 3 ? "fmi3DoStep" : "fmi2DoStep");
        }
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
                static const char *const keys[] = {"inputs_perturbed", "inputs_at_event",
                                                   "undeclared", "confirmed",
                                                   "declared_unobserved", "not_restored",
                                                   "through_dynamics", "screened_out",
                                                   "declared_moved_screened", "probe_time",
                                                   "shrank_only_at_h3"};
                for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
                    const cJSON *v = cJSON_GetObjectItemCaseSensitive(reply, keys[k]);
                    if (v)
                        cJSON_AddItemToObject(e, keys[k], cJSON_Duplicate(v, 1));
                }
                const cJSON *dn = cJSON_GetObjectItemCaseSensitive(reply, "inputs_perturbed");
                const cJSON *un = cJSON_GetObjectItemCaseSensitive(reply, "declared_unobserved");
                fmuc_result_note(res, "%s: %d of %zu input%s perturbed%s (%zu of them set at "
                                      "an event); watched: %zu (input, unknown) pair%s outside "
                                      "the declared dependencies",
                                 ifs[i].name, cJSON_IsNumber(dn) ? dn->valueint : 0,
                                 p.nin_eligible, p.nin_eligible == 1 ? "" : "s",
                                 p.nin_eligible > p.nin ? " (the first " MAX_INPUTS_TEXT ")" : "",
                                 p.nin_event, p.npairs, p.npairs == 1 ? "" : "s");
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
                const cJSON *dy = cJSON_GetObjectItemCaseSensitive(reply, "through_dynamics");
                const cJSON *so = cJSON_GetObjectItemCaseSensitive(reply, "screened_out");
                int nso = cJSON_IsNumber(so) ? so->valueint : 0;
                const cJSON *sd =
                    cJSON_GetObjectItemCaseSensitive(reply, "declared_moved_screened");
                int nsd = cJSON_IsNumber(sd) ? sd->valueint : 0;
                int ndn = cJSON_IsNumber(dn) ? dn->valueint : 0;
                const cJSON *pt = cJSON_GetObjectItemCaseSensitive(reply, "probe_time");
                const cJSON *l3 = cJSON_GetObjectItemCaseSensitive(reply, "shrank_only_at_h3");
                if (ifs[i].type == FMUC_IFACE_CS)
                    fmuc_result_note(res, "%s: each input set to its first perturbation value "
                                          "before a step of %.17g from one FMU state at the "
                                          "communication point t = %.17g; %d input%s moved no output "
                                          "outside %s declared dependencies there (%d "
                                          "declared pair%s moved; not probed further); the "
                                          "other %d also set to each value before steps of "
                                          "%.17g and %.17g: %d undeclared (input, output) "
                                          "pair%s moved only through the dynamics (the change "
                                          "shrank with the step; %d of them only at the "
                                          "confirmation step of %.17g: a mode faster than the "
                                          "probe steps)",
                                     ifs[i].name, p.h[1],
                                     cJSON_IsNumber(pt) ? pt->valuedouble : NAN, nso,
                                     nso == 1 ? "" : "s",
                                     nso == 1 ? "its" : "their", nsd, nsd == 1 ? "" : "s",
                                     ndn - nso, p.h[0], p.h[1],
                                     cJSON_IsNumber(dy) ? dy->valueint : 0,
                                     cJSON_IsNumber(dy) && dy->valueint == 1 ? "" : "s",
                                     cJSON_IsNumber(l3) ? l3->valueint : 0, p.h[2]);
                if (cJSON_IsNumber(un) && un->valueint > 0)
                    fmuc_result_note(res, "%s: %d declared dependenc%s did not move in the "
                                          "experiment%s (declaring more than is used is "
                                          "allowed)",
                                     ifs[i].name, un->valueint, un->valueint == 1 ? "y" : "ies",
                                     ifs[i].type == FMUC_IFACE_CS
                                         ? " (among the inputs probed at both step sizes)"
                                         : "");
            }
        }
        fmuc_worker_outcome_free(&o);
        plan_free(&p);
    }
    for (size_t i = 0; tested && i < nwhy; i++) /* the other interface was judged */
        fmuc_result_note(res, "%s%s%s (not judged there)", wname[i], wname[i][0] ? ": " : "",
                         why[i]);
    fmuc_result_parts_judged(res, tested);
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
    .spec = "FMI 2.0.4 §2.2.8, §3.2.2, §3.2.3, §4.2.4 (CS: outputs read after a step); FMI "
            "3.0.2 §2.4.8, §3.2, §4.2 Step Mode; FMI 1.0 ME (fmiScalarVariable.xsd "
            "DirectDependency, fmiEventUpdate)",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers order their set and get calls and break algebraic loops by the declared "
           "dependencies; an undeclared feedthrough gives stale outputs or an unresolved loop.",
    .fix = "List every input an output or state derivative depends on in its <ModelStructure> "
           "dependencies (FMI 1.0: the output's DirectDependency), or omit the declaration.",
    .applies = FMUC_APPLIES_MECS,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .sessions = 1,
    .run = run,
};
