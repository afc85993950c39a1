/* mdgen: build-time host tool that writes modelDescription.xml from the model descriptor linked
 * into it (the same table the FMU library uses), validating the table against §B.5/B.6/B.10.
 * Usage: mdgen_<model> [--lenient] [--fmi3] <out.xml>   |   mdgen_<model> --guid
 * --lenient turns table errors into warnings (for deliberately broken fixtures). --fmi3 writes
 * an FMI 3.0 modelDescription.xml (fmi3-rules §B: instantiationToken = the same table hash,
 * typed variable elements, Dimension for arrays, ModelStructure by value reference). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmuc_model.h"
#include "mdgen_xml.h"

typedef struct {
    const fmuc_m_desc *d;
    int lenient, errors;
    int fmi3; /* write FMI 3.0 */
} gen;

static void problem(gen *g, const char *fmt, const char *a, const char *b)
{
    fmuc_mdx_problem("mdgen", g->lenient, fmt, a, b);
    g->errors++;
}

static const char *caus_name(fmuc_m_causality c)
{
    static const char *const n[] = {"local", "parameter", "calculatedParameter",
                                    "input", "output", "independent",
                                    "structuralParameter"};
    return n[c];
}

static const char *var_name(fmuc_m_variability v)
{
    static const char *const n[] = {"continuous", "discrete", "tunable", "fixed", "constant"};
    return n[v];
}

static const char *init_name(fmuc_m_initial i)
{
    static const char *const n[] = {NULL, "exact", "approx", "calculated", NULL};
    return n[i];
}

/* --- units --------------------------------------------------------------------------------- */
typedef struct {
    const char *name;
    int kg, m, s, A, K, mol, cd, rad;
    double factor;
} unit_def;

static const unit_def known_units[] = {
    {"m", 0, 1, 0, 0, 0, 0, 0, 0, 1.0},        {"s", 0, 0, 1, 0, 0, 0, 0, 0, 1.0},
    {"kg", 1, 0, 0, 0, 0, 0, 0, 0, 1.0},       {"rad", 0, 0, 0, 0, 0, 0, 0, 1, 1.0},
    {"N", 1, 1, -2, 0, 0, 0, 0, 0, 1.0},       {"N/m", 1, 0, -2, 0, 0, 0, 0, 0, 1.0},
    {"N.s/m", 1, 0, -1, 0, 0, 0, 0, 0, 1.0},   {"J", 1, 2, -2, 0, 0, 0, 0, 0, 1.0},
    {"W", 1, 2, -3, 0, 0, 0, 0, 0, 1.0},       {"m/s", 0, 1, -1, 0, 0, 0, 0, 0, 1.0},
    {"m/s2", 0, 1, -2, 0, 0, 0, 0, 0, 1.0},    {"rad/s", 0, 0, -1, 0, 0, 0, 0, 1, 1.0},
    {"rad/s2", 0, 0, -2, 0, 0, 0, 0, 1, 1.0},  {"kg.m2", 1, 2, 0, 0, 0, 0, 0, 0, 1.0},
    {"N.m", 1, 2, -2, 0, 0, 0, 0, 0, 1.0},     {"N/rad", 1, 1, -2, 0, 0, 0, 0, -1, 1.0},
    {"N.m/rad", 1, 2, -2, 0, 0, 0, 0, -1, 1.0}, {"N.m.s/rad", 1, 2, -1, 0, 0, 0, 0, -1, 1.0},
    {"Pa", 1, -1, -2, 0, 0, 0, 0, 0, 1.0},     {"Hz", 0, 0, -1, 0, 0, 0, 0, 0, 1.0},
    {"1/m", 0, -1, 0, 0, 0, 0, 0, 0, 1.0},     {"m2", 0, 2, 0, 0, 0, 0, 0, 0, 1.0},
    {"1", 0, 0, 0, 0, 0, 0, 0, 0, 1.0},     {"1/rad", 0, 0, 0, 0, 0, 0, 0, -1, 1.0},
    {"deg", 0, 0, 0, 0, 0, 0, 0, 1, 0.017453292519943295},
    {"km/h", 0, 1, -1, 0, 0, 0, 0, 0, 1.0 / 3.6},
};

static void write_unit(FILE *f, const char *name)
{
    fputs("    <Unit", f);
    fmuc_mdx_attr(f, "name", name);
    for (size_t i = 0; i < sizeof known_units / sizeof known_units[0]; i++) {
        const unit_def *u = &known_units[i];
        if (strcmp(u->name, name) != 0)
            continue;
        fputs(">\n      <BaseUnit", f);
        const struct {
            const char *n;
            int e;
        } ex[] = {{"kg", u->kg}, {"m", u->m},     {"s", u->s},   {"A", u->A},
                  {"K", u->K},   {"mol", u->mol}, {"cd", u->cd}, {"rad", u->rad}};
        for (size_t k = 0; k < 8; k++)
            if (ex[k].e)
                fprintf(f, " %s=\"%d\"", ex[k].n, ex[k].e);
        if (u->factor != 1.0)
            fmuc_mdx_attr_dbl(f, "factor", u->factor);
        fputs("/>\n    </Unit>\n", f);
        return;
    }
    fputs("/>\n", f);
}

/* --- table validation ---------------------------------------------------------------------- */
static int cell_valid(const fmuc_m_var *v)
{
    switch (v->variability) {
    case FMUC_M_CONSTANT:
        return v->causality == FMUC_M_OUTPUT || v->causality == FMUC_M_LOCAL;
    case FMUC_M_FIXED:
    case FMUC_M_TUNABLE:
        return v->causality == FMUC_M_PARAMETER || v->causality == FMUC_M_CALCULATED_PARAMETER ||
               v->causality == FMUC_M_LOCAL || v->causality == FMUC_M_STRUCTURAL_PARAMETER;
    case FMUC_M_DISCRETE:
        return v->causality == FMUC_M_INPUT || v->causality == FMUC_M_OUTPUT ||
               v->causality == FMUC_M_LOCAL;
    case FMUC_M_CONTINUOUS:
        return v->causality != FMUC_M_PARAMETER && v->causality != FMUC_M_CALCULATED_PARAMETER &&
               v->causality != FMUC_M_STRUCTURAL_PARAMETER;
    }
    return 0;
}

static int initial_allowed(const fmuc_m_var *v)
{
    fmuc_m_initial i = fmuc_m_effective_initial(v);
    if (v->causality == FMUC_M_INPUT || v->causality == FMUC_M_INDEPENDENT)
        return v->initial == FMUC_M_INITIAL_DEFAULT;
    if (v->variability == FMUC_M_CONSTANT ||
        ((v->variability == FMUC_M_FIXED || v->variability == FMUC_M_TUNABLE) &&
         (v->causality == FMUC_M_PARAMETER || v->causality == FMUC_M_STRUCTURAL_PARAMETER)))
        return i == FMUC_M_EXACT;
    if (v->variability == FMUC_M_FIXED || v->variability == FMUC_M_TUNABLE)
        return i == FMUC_M_APPROX || i == FMUC_M_CALCULATED;
    return i == FMUC_M_EXACT || i == FMUC_M_APPROX || i == FMUC_M_CALCULATED;
}

static void validate_clocks(gen *g);
/* Elements of v with every structural parameter at its start value. */
static size_t element_count_at_start(const fmuc_m_desc *d, const fmuc_m_var *v)
{
    if (v->dim_param) {
        long p = fmuc_m_find(d, v->dim_param);
        return p >= 0 && d->vars[p].start > 0.0 ? (size_t)d->vars[p].start : 0;
    }
    return v->dim > 1 ? v->dim : 1;
}

/* Both NULL, or the same name. */
static int same_name(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* FMI 3.0 structural parameters (§2.4.7.2, fmi3-rules B-219, B-253, B-254): a fixed UInt64
 * structural parameter with start, min and max, start > 0 when it dimensions an array; an array
 * sized by one (.dim_param) names such a parameter and has .dim = its max elements of storage. */
static void validate_structural(gen *g, const fmuc_m_var *v)
{
    const fmuc_m_desc *d = g->d;
    if (v->causality == FMUC_M_STRUCTURAL_PARAMETER) {
        if (v->type != FMUC_M_UINT64 || v->variability != FMUC_M_FIXED)
            problem(g, "'%s': a structural parameter of the glue is a fixed UInt64%s", v->name, "");
        if ((v->flags & (FMUC_M_HAS_START | FMUC_M_HAS_MIN | FMUC_M_HAS_MAX)) !=
            (FMUC_M_HAS_START | FMUC_M_HAS_MIN | FMUC_M_HAS_MAX))
            problem(g, "'%s': a structural parameter needs start, min and max%s", v->name, "");
        if (v->dim > 1 || v->dim_param)
            problem(g, "'%s': a structural parameter is a scalar (B-219)%s", v->name, "");
        if (!(v->start >= 1.0) || v->min < 0.0)
            problem(g, "'%s': a structural parameter sizing arrays needs start >= 1, min >= 0%s",
                    v->name, "");
    } else if (v->type == FMUC_M_UINT64) {
        problem(g, "'%s': UInt64 is only the type of structural parameters%s", v->name, "");
    }
    if (!v->dim_param)
        return;
    long p = fmuc_m_find(d, v->dim_param);
    if (p < 0 || d->vars[p].causality != FMUC_M_STRUCTURAL_PARAMETER) {
        problem(g, "'%s': dim_param '%s' is not a structural parameter", v->name, v->dim_param);
        return;
    }
    if ((double)v->dim != d->vars[p].max)
        problem(g, "'%s': its storage (.dim) must equal the max of '%s'", v->name, v->dim_param);
    if (v->type != FMUC_M_REAL)
        problem(g, "'%s': arrays sized by '%s' are Real", v->name, v->dim_param);
}

static void validate(gen *g)
{
    const fmuc_m_desc *d = g->d;
    size_t n_indep = 0, n_ind = 0;
    const char *id = d->model_identifier;
    if (!id || !*id || !((id[0] >= 'A' && id[0] <= 'Z') || (id[0] >= 'a' && id[0] <= 'z') || id[0] == '_'))
        problem(g, "modelIdentifier '%s' is not a C identifier%s", id, "");
    if ((d->caps & FMUC_M_CAP_SERIALIZE) && !(d->caps & FMUC_M_CAP_GET_SET_STATE))
        problem(g, "canSerializeFMUstate requires canGetAndSetFMUstate%s%s", "", "");
    if ((d->caps & FMUC_M_CAP_DIR_DERIV) && !d->dir_deriv)
        problem(g, "providesDirectionalDerivative without a dir_deriv callback%s%s", "", "");
    if (!(d->caps & (FMUC_M_CAP_ME | FMUC_M_CAP_CS | (g->fmi3 ? FMUC_M_CAP_SE : 0u))))
        problem(g, "neither ModelExchange nor CoSimulation%s%s",
                g->fmi3 ? " nor ScheduledExecution" : "", "");
    if (!g->fmi3 && (d->nclocks || (d->caps & FMUC_M_CAP_SE)))
        problem(g, "Clocks and Scheduled Execution exist only in FMI 3.0%s%s", "", "");
    if (d->nclocks && !(d->caps & (FMUC_M_CAP_SE | FMUC_M_CAP_EM_CLOCKS)))
        problem(g, "Clocks are provided only for Scheduled Execution (FMUC_M_CAP_SE) and Event "
                   "Mode (FMUC_M_CAP_EM_CLOCKS)%s%s", "", "");
    if ((d->caps & FMUC_M_CAP_EM_CLOCKS) && (d->caps & FMUC_M_CAP_CS) &&
        !(d->caps & FMUC_M_CAP_CS_EVENT_MODE))
        problem(g, "Event Mode clocks in Co-Simulation need FMUC_M_CAP_CS_EVENT_MODE%s%s", "", "");
    validate_clocks(g);
    if (d->naliases)
        problem(g, "alias variables are written only by the FMI 1.0 generator (mdgen1)%s%s", "",
                "");
    for (size_t i = 0; i < d->nvars; i++) {
        const fmuc_m_var *v = &d->vars[i];
        if (!v->name || !*v->name) {
            problem(g, "variable without a name%s%s", "", "");
            continue;
        }
        for (size_t j = 0; j < i; j++) {
            const fmuc_m_var *w = &d->vars[j];
            if (w->name && strcmp(w->name, v->name) == 0)
                problem(g, "duplicate variable name '%s'%s", v->name, "");
            if (w->vr == v->vr && (w->type == v->type || g->fmi3))
                problem(g, "'%s' and '%s' share a valueReference", w->name, v->name);
        }
        if (v->dim > 1 && !g->fmi3)
            problem(g, "'%s': arrays exist only in FMI 3.0%s", v->name, "");
        if (v->clocks && !g->fmi3)
            problem(g, "'%s': clocked variables exist only in FMI 3.0%s", v->name, "");
        if (v->clocks && strspn(v->clocks, " ") == strlen(v->clocks))
            problem(g, "'%s': clocks names no clock%s", v->name, "");
        if (fmuc_m_find_clock_vr(d, v->vr) >= 0)
            problem(g, "'%s' and a clock share a valueReference%s", v->name, "");
        if (!g->fmi3 && (v->type == FMUC_M_UINT64 || v->causality == FMUC_M_STRUCTURAL_PARAMETER))
            problem(g, "'%s': UInt64 variables and structural parameters exist only in FMI 3.0%s",
                    v->name, "");
        validate_structural(g, v);
        if (v->dim > 1 && v->causality == FMUC_M_INDEPENDENT)
            problem(g, "'%s': the independent variable is a scalar%s", v->name, "");
        if (v->derivative_of) {
            long s = fmuc_m_find(d, v->derivative_of);
            if (s >= 0 && ((d->vars[s].dim > 1 ? d->vars[s].dim : 1) != (v->dim > 1 ? v->dim : 1) ||
                           !same_name(d->vars[s].dim_param, v->dim_param)))
                problem(g, "'%s': a derivative has the dimensions of its state '%s'", v->name,
                        v->derivative_of);
        }
        if (v->flags & FMUC_M_EVENT_INDICATOR) {
            n_ind += element_count_at_start(d, v);
            if (v->type != FMUC_M_REAL || v->variability != FMUC_M_CONTINUOUS ||
                (v->causality != FMUC_M_LOCAL && v->causality != FMUC_M_OUTPUT))
                problem(g, "'%s': an event indicator is a continuous Real local or output%s",
                        v->name, "");
        }
        if (g->fmi3 && (v->flags & FMUC_M_INTERMEDIATE) &&
            (v->type != FMUC_M_REAL || v->variability != FMUC_M_CONTINUOUS ||
             (v->causality != FMUC_M_INPUT && v->causality != FMUC_M_OUTPUT) ||
             !(d->caps & FMUC_M_CAP_CS_EVENT_MODE)))
            problem(g, "'%s': intermediateUpdate only on a continuous Real input or output of a "
                       "model with FMUC_M_CAP_CS_EVENT_MODE%s", v->name, "");
        if (v->type != FMUC_M_REAL && v->variability == FMUC_M_CONTINUOUS)
            problem(g, "'%s': only Real variables may be continuous%s", v->name, "");
        if (!cell_valid(v))
            problem(g, "'%s': invalid causality/variability combination (%s)", v->name,
                    caus_name(v->causality));
        if (!initial_allowed(v))
            problem(g, "'%s': initial not allowed for its causality/variability%s", v->name, "");
        fmuc_m_initial ini = fmuc_m_effective_initial(v);
        int need = ini == FMUC_M_EXACT || ini == FMUC_M_APPROX || v->causality == FMUC_M_INPUT;
        int has = (v->flags & FMUC_M_HAS_START) != 0;
        if (need && !has)
            problem(g, "'%s': start is required%s", v->name, "");
        if (!need && has)
            problem(g, "'%s': start is forbidden (initial calculated or independent)%s", v->name,
                    "");
        if (v->causality == FMUC_M_INDEPENDENT) {
            n_indep++;
            if (v->type != FMUC_M_REAL)
                problem(g, "'%s': the independent variable must be Real%s", v->name, "");
        }
        if (has && (v->type == FMUC_M_REAL || v->type == FMUC_M_INTEGER) &&
            (((v->flags & FMUC_M_HAS_MIN) && v->start < v->min) ||
             ((v->flags & FMUC_M_HAS_MAX) && v->start > v->max)))
            problem(g, "'%s': start outside [min, max]%s", v->name, "");
        if ((v->flags & FMUC_M_HAS_MIN) && (v->flags & FMUC_M_HAS_MAX) && v->min > v->max)
            problem(g, "'%s': min > max%s", v->name, "");
        if ((v->flags & FMUC_M_HAS_NOMINAL) && !(v->nominal > 0.0))
            problem(g, "'%s': nominal must be > 0%s", v->name, "");
        if (v->derivative_of) {
            long s = fmuc_m_find(d, v->derivative_of);
            if (s < 0 || (size_t)s == i)
                problem(g, "'%s': derivative_of '%s' does not name another variable", v->name,
                        v->derivative_of);
            else if (d->vars[s].type != FMUC_M_REAL || v->type != FMUC_M_REAL ||
                     d->vars[s].variability != FMUC_M_CONTINUOUS ||
                     (d->vars[s].causality != FMUC_M_LOCAL &&
                      d->vars[s].causality != FMUC_M_OUTPUT))
                problem(g, "'%s': state '%s' must be a continuous Real local or output", v->name,
                        v->derivative_of);
        }
    }
    if (n_indep > 1)
        problem(g, "more than one independent variable%s%s", "", "");
    if (g->fmi3 && n_indep != 1)
        problem(g, "FMI 3.0 needs exactly one independent variable%s%s", "", "");
    if (g->fmi3 && (d->caps & FMUC_M_CAP_ME) && n_ind != d->n_event_indicators)
        problem(g, "FMI 3.0: the event indicator variables (FMUC_M_EVENT_INDICATOR) do not "
                   "match n_event_indicators%s%s", "", "");
}

/* The clock table (FMI 3.0 Scheduled Execution; fmi3-rules F.3, B-351 to B-358). The glue
 * provides constant and fixed periodic clocks (with intervalDecimal), countdown and triggered
 * input clocks and triggered output clocks. */
static void validate_clocks(gen *g)
{
    const fmuc_m_desc *d = g->d;
    int any_input = 0;
    if (d->nclocks > 16 && (d->caps & FMUC_M_CAP_GET_SET_STATE))
        problem(g, "more than 16 clocks%s: an FMU state of the glue holds the announced "
                   "intervals of at most 16%s", "", "");
    for (size_t i = 0; i < d->nclocks; i++) {
        const fmuc_m_clock *k = &d->clocks[i];
        if (!k->name || !*k->name) {
            problem(g, "clock without a name%s%s", "", "");
            continue;
        }
        for (size_t j = 0; j < i; j++) {
            if (d->clocks[j].name && strcmp(d->clocks[j].name, k->name) == 0)
                problem(g, "duplicate clock name '%s'%s", k->name, "");
            if (d->clocks[j].vr == k->vr)
                problem(g, "clocks '%s' and '%s' share a valueReference", d->clocks[j].name,
                        k->name);
        }
        if (fmuc_m_find(d, k->name) >= 0)
            problem(g, "clock '%s': a variable has the same name%s", k->name, "");
        fmuc_m_interval_variability iv = k->interval_variability;
        int periodic = iv == FMUC_M_CLOCK_CONSTANT || iv == FMUC_M_CLOCK_FIXED;
        if (k->causality == FMUC_M_INPUT) {
            any_input = 1;
            if (!periodic && iv != FMUC_M_CLOCK_COUNTDOWN && iv != FMUC_M_CLOCK_TRIGGERED &&
                !(iv == FMUC_M_CLOCK_CHANGING && !(d->caps & FMUC_M_CAP_SE)))
                problem(g, "clock '%s': tunable clocks, and changing clocks in Scheduled "
                           "Execution, are not provided by the glue%s", k->name, "");
            if (iv == FMUC_M_CLOCK_CHANGING && !(k->interval >= 0.0 && isfinite(k->interval)))
                problem(g, "clock '%s': a changing clock needs its first interval >= 0 in "
                           ".interval%s", k->name, "");
            if (!(k->flags & FMUC_M_CLOCK_HAS_PRIORITY) && (d->caps & FMUC_M_CAP_SE))
                problem(g, "clock '%s': an input clock of Scheduled Execution needs a "
                           "priority%s", k->name, "");
        } else if (k->causality == FMUC_M_OUTPUT) {
            if (iv != FMUC_M_CLOCK_TRIGGERED)
                problem(g, "clock '%s': output clocks are triggered%s", k->name, "");
            if (k->flags & FMUC_M_CLOCK_HAS_PRIORITY)
                problem(g, "clock '%s': output clocks have no priority%s", k->name, "");
        } else {
            problem(g, "clock '%s': a clock is an input or an output%s", k->name, "");
        }
        if (periodic && (!(k->flags & FMUC_M_CLOCK_HAS_INTERVAL) || !(k->interval > 0.0)))
            problem(g, "clock '%s': a periodic clock needs intervalDecimal > 0%s", k->name, "");
        if (!periodic && (k->flags & (FMUC_M_CLOCK_HAS_INTERVAL | FMUC_M_CLOCK_HAS_SHIFT)))
            problem(g, "clock '%s': intervalDecimal and shiftDecimal only for periodic "
                       "clocks%s", k->name, "");
        if (k->flags & FMUC_M_CLOCK_HAS_FRACTION) {
            double ci = k->interval * (double)k->resolution, cs = k->shift * (double)k->resolution;
            if (!periodic || !k->resolution)
                problem(g, "clock '%s': the Fraction variants need a periodic clock and a "
                           "resolution > 0%s", k->name, "");
            else if (ci > 9007199254740992.0 || cs > 9007199254740992.0)
                problem(g, "clock '%s': interval or shift times resolution exceeds 2^53 (no "
                           "exact counter)%s", k->name, "");
            else if (fabs(ci - nearbyint(ci)) > 1e-9 || fabs(cs - nearbyint(cs)) > 1e-9)
                problem(g, "clock '%s': interval and shift are no whole multiples of "
                           "1/resolution%s", k->name, "");
        }
        if ((k->flags & FMUC_M_CLOCK_CAN_DEACTIVATE) &&
            (k->causality != FMUC_M_INPUT || iv != FMUC_M_CLOCK_TRIGGERED ||
             (d->caps & FMUC_M_CAP_SE)))
            problem(g, "clock '%s': the glue deactivates triggered input clocks of ME/CS Event "
                       "Mode only%s", k->name, "");
        if ((k->flags & FMUC_M_CLOCK_HAS_SHIFT) && !(k->shift >= 0.0))
            problem(g, "clock '%s': shiftDecimal must be >= 0%s", k->name, "");
    }
    if (any_input && !d->activate)
        problem(g, "input clocks without an activate callback%s%s", "", "");
}

/* --- ModelStructure ------------------------------------------------------------------------ */
static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* init: 0 = Outputs/Derivatives knowns, 1 = InitialUnknowns knowns. */
static void write_deps(gen *g, FILE *f, const fmuc_m_var *u, const char *deps, int init)
{
    const fmuc_m_desc *d = g->d;
    if (!deps)
        return;
    long idx[512];
    size_t n = 0;
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", deps);
    for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        long k = fmuc_m_find(d, tok);
        if (k < 0) {
            problem(g, "'%s': dependency '%s' is not a variable", u->name, tok);
            continue;
        }
        if (!fmuc_m_is_known(d, (size_t)k, init))
            problem(g, "'%s': dependency '%s' is not an allowed known", u->name, tok);
        if (n < sizeof idx / sizeof idx[0])
            idx[n++] = k + 1;
    }
    qsort(idx, n, sizeof idx[0], cmp_long);
    fputs(" dependencies=\"", f);
    for (size_t i = 0; i < n; i++)
        if (i == 0 || idx[i] != idx[i - 1])
            fprintf(f, "%s%ld", i ? " " : "", idx[i]);
    fputc('"', f);
}

static void write_iface(FILE *f, const fmuc_m_desc *d, int cs)
{
    fputs(cs ? "  <CoSimulation" : "  <ModelExchange", f);
    fmuc_mdx_attr(f, "modelIdentifier", d->model_identifier);
    if (!cs && (d->caps & FMUC_M_CAP_COMPLETED_STEP_NOT_NEEDED))
        fmuc_mdx_attr(f, "completedIntegratorStepNotNeeded", "true");
    if (cs)
        fmuc_mdx_attr(f, "canHandleVariableCommunicationStepSize",
             (d->caps & FMUC_M_CAP_VAR_STEP) ? "true" : "false");
#ifdef FMUC_GLUE_ASYNC_STEP
    if (cs) /* fmi2_glue.c: fmi2DoStep returns fmi2Pending, fmi2GetStatus finishes the step */
        fmuc_mdx_attr(f, "canRunAsynchronuously", "true");
#endif
    if (d->caps & FMUC_M_CAP_ONCE_PER_PROCESS)
        fmuc_mdx_attr(f, "canBeInstantiatedOnlyOncePerProcess", "true");
    fmuc_mdx_attr(f, "canNotUseMemoryManagementFunctions", "false"); /* instance memory via the host */
    fmuc_mdx_attr(f, "canGetAndSetFMUstate", (d->caps & FMUC_M_CAP_GET_SET_STATE) ? "true" : "false");
    fmuc_mdx_attr(f, "canSerializeFMUstate", (d->caps & FMUC_M_CAP_SERIALIZE) ? "true" : "false");
    fmuc_mdx_attr(f, "providesDirectionalDerivative", (d->caps & FMUC_M_CAP_DIR_DERIV) ? "true" : "false");
    fputs("/>\n", f);
}

static const char *cat_description(const char *c)
{
    static const char *const t[][2] = {
        {"logEvents", "Log events"},
        {"logStatusWarning", "Log messages with status fmi2Warning"},
        {"logStatusDiscard", "Log messages with status fmi2Discard"},
        {"logStatusError", "Log messages with status fmi2Error"},
        {"logStatusFatal", "Log messages with status fmi2Fatal"},
        {"logAll", "Log everything"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(t[i][0], c) == 0)
            return t[i][1];
    return NULL;
}

static int write_xml(gen *g, FILE *f)
{
    const fmuc_m_desc *d = g->d;
    static const char *const std_cats[] = {"logEvents",      "logStatusWarning",
                                           "logStatusDiscard", "logStatusError",
                                           "logStatusFatal", "logAll", NULL};
    const char *const *cats = d->log_categories ? d->log_categories : std_cats;
    char guid[39];
    fmuc_m_guid(d, guid);

    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<fmiModelDescription", f);
    fmuc_mdx_attr(f, "fmiVersion", "2.0");
    fmuc_mdx_attr(f, "modelName", d->model_name);
    fmuc_mdx_attr(f, "guid", guid);
    fmuc_mdx_attr(f, "description", d->description);
    fmuc_mdx_attr(f, "author", d->author);
    fmuc_mdx_attr(f, "version", d->version);
    fmuc_mdx_attr(f, "generationTool", "fmucheck mdgen");
    fmuc_mdx_attr(f, "variableNamingConvention", "flat");
    if (d->caps & FMUC_M_CAP_ME)
        fprintf(f, " numberOfEventIndicators=\"%zu\"", d->n_event_indicators);
    fputs(">\n", f);
    if (d->caps & FMUC_M_CAP_ME)
        write_iface(f, d, 0);
    if (d->caps & FMUC_M_CAP_CS)
        write_iface(f, d, 1);

    /* UnitDefinitions: each used unit once, in first-use order */
    int any_unit = 0;
    for (size_t i = 0; i < d->nvars; i++) {
        const char *u = d->vars[i].type == FMUC_M_REAL ? d->vars[i].unit : NULL;
        if (!u)
            continue;
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = d->vars[j].type == FMUC_M_REAL && d->vars[j].unit &&
                   strcmp(d->vars[j].unit, u) == 0;
        if (seen)
            continue;
        if (!any_unit)
            fputs("  <UnitDefinitions>\n", f);
        any_unit = 1;
        write_unit(f, u);
    }
    if (any_unit)
        fputs("  </UnitDefinitions>\n", f);

    if (cats[0]) {
        fputs("  <LogCategories>\n", f);
        for (size_t i = 0; cats[i]; i++) {
            fputs("    <Category", f);
            fmuc_mdx_attr(f, "name", cats[i]);
            fmuc_mdx_attr(f, "description", cat_description(cats[i]));
            fputs("/>\n", f);
        }
        fputs("  </LogCategories>\n", f);
    }
    if (d->experiment.flags) {
        fputs("  <DefaultExperiment", f);
        if (d->experiment.flags & FMUC_M_EXP_START)
            fmuc_mdx_attr_dbl(f, "startTime", d->experiment.start);
        if (d->experiment.flags & FMUC_M_EXP_STOP)
            fmuc_mdx_attr_dbl(f, "stopTime", d->experiment.stop);
        if (d->experiment.flags & FMUC_M_EXP_TOL)
            fmuc_mdx_attr_dbl(f, "tolerance", d->experiment.tolerance);
        if (d->experiment.flags & FMUC_M_EXP_STEP)
            fmuc_mdx_attr_dbl(f, "stepSize", d->experiment.step);
        fputs("/>\n", f);
    }

    fputs("  <ModelVariables>\n", f);
    for (size_t i = 0; i < d->nvars; i++) {
        const fmuc_m_var *v = &d->vars[i];
        fprintf(f, "    <!-- index %zu -->\n    <ScalarVariable", i + 1);
        fmuc_mdx_attr(f, "name", v->name);
        fprintf(f, " valueReference=\"%u\"", v->vr);
        fmuc_mdx_attr(f, "description", v->description);
        fmuc_mdx_attr(f, "causality", caus_name(v->causality));
        fmuc_mdx_attr(f, "variability", var_name(v->variability));
        fmuc_mdx_attr(f, "initial", init_name(fmuc_m_effective_initial(v)));
        fputs(">\n      ", f);
        int has_start = (v->flags & FMUC_M_HAS_START) != 0;
        switch (v->type) {
        case FMUC_M_REAL:
            fputs("<Real", f);
            fmuc_mdx_attr(f, "unit", v->unit);
            if (v->flags & FMUC_M_HAS_MIN)
                fmuc_mdx_attr_dbl(f, "min", v->min);
            if (v->flags & FMUC_M_HAS_MAX)
                fmuc_mdx_attr_dbl(f, "max", v->max);
            if (v->flags & FMUC_M_HAS_NOMINAL)
                fmuc_mdx_attr_dbl(f, "nominal", v->nominal);
            if (has_start)
                fmuc_mdx_attr_dbl(f, "start", v->start);
            if (v->derivative_of) {
                long s = fmuc_m_find(d, v->derivative_of);
                if (s >= 0)
                    fprintf(f, " derivative=\"%ld\"", s + 1);
            }
            break;
        case FMUC_M_INTEGER:
            fputs("<Integer", f);
            if (v->flags & FMUC_M_HAS_MIN)
                fprintf(f, " min=\"%d\"", (int)v->min);
            if (v->flags & FMUC_M_HAS_MAX)
                fprintf(f, " max=\"%d\"", (int)v->max);
            if (has_start)
                fprintf(f, " start=\"%d\"", (int)v->start);
            break;
        case FMUC_M_BOOLEAN:
            fputs("<Boolean", f);
            if (has_start)
                fmuc_mdx_attr(f, "start", v->start != 0.0 ? "true" : "false");
            break;
        case FMUC_M_STRING:
            fputs("<String", f);
            if (has_start)
                fmuc_mdx_attr(f, "start", v->start_str ? v->start_str : "");
            break;
        case FMUC_M_UINT64: /* refused by validate() for FMI 2.0 */
            fputs("<Integer", f);
            break;
        }
        fputs("/>\n    </ScalarVariable>\n", f);
    }
    fputs("  </ModelVariables>\n  <ModelStructure>\n", f);

    int any = 0;
    for (size_t i = 0; i < d->nvars; i++) {
        const fmuc_m_var *v = &d->vars[i];
        if (v->causality != FMUC_M_OUTPUT)
            continue;
        if (!any)
            fputs("    <Outputs>\n", f);
        any = 1;
        fprintf(f, "      <Unknown index=\"%zu\"", i + 1);
        write_deps(g, f, v, v->deps, 0);
        fputs("/>\n", f);
    }
    if (any)
        fputs("    </Outputs>\n", f);
    any = 0;
    for (size_t i = 0; i < d->nvars; i++) {
        const fmuc_m_var *v = &d->vars[i];
        if (!v->derivative_of || fmuc_m_find(d, v->derivative_of) < 0)
            continue;
        if (!any)
            fputs("    <Derivatives>\n", f);
        any = 1;
        fprintf(f, "      <Unknown index=\"%zu\"", i + 1);
        write_deps(g, f, v, v->deps, 0);
        fputs("/>\n", f);
    }
    if (any)
        fputs("    </Derivatives>\n", f);
    any = 0;
    for (size_t i = 0; i < d->nvars; i++) {
        if (!fmuc_m_is_initial_unknown(d, i))
            continue;
        if (!any)
            fputs("    <InitialUnknowns>\n", f);
        any = 1;
        fprintf(f, "      <Unknown index=\"%zu\"", i + 1);
        write_deps(g, f, &d->vars[i], d->vars[i].init_deps, 1);
        fputs("/>\n", f);
    }
    if (any)
        fputs("    </InitialUnknowns>\n", f);
    fputs("  </ModelStructure>\n</fmiModelDescription>\n", f);
    return ferror(f) ? -1 : 0;
}

/* --- FMI 3.0 ------------------------------------------------------------------------------- */
static const char *const type3_name[] = {"Float64", "Int32", "Boolean", "String", "UInt64"};

/* dependencies="vr vr ...": value references of the named knowns (§2.4.8). */
static void write_deps3(gen *g, FILE *f, const fmuc_m_var *u, const char *deps, int init)
{
    const fmuc_m_desc *d = g->d;
    if (!deps)
        return;
    unsigned vrs[512];
    size_t n = 0;
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", deps);
    for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        long k = fmuc_m_find(d, tok);
        if (k < 0) {
            problem(g, "'%s': dependency '%s' is not a variable", u->name, tok);
            continue;
        }
        const fmuc_m_var *kv = &d->vars[k];
        if (!fmuc_m_is_known(d, (size_t)k, init))
            problem(g, "'%s': dependency '%s' is not an allowed known", u->name, tok);
        int dup = 0;
        for (size_t i = 0; i < n; i++)
            dup |= vrs[i] == kv->vr;
        if (!dup && n < sizeof vrs / sizeof vrs[0])
            vrs[n++] = kv->vr;
    }
    fputs(" dependencies=\"", f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%u", i ? " " : "", vrs[i]);
    fputc('"', f);
}

/* kind: 0 ModelExchange, 1 CoSimulation, 2 ScheduledExecution */
static void write_iface3(FILE *f, const fmuc_m_desc *d, int kind)
{
    static const char *const elem[] = {"  <ModelExchange", "  <CoSimulation",
                                       "  <ScheduledExecution"};
    int cs = kind == 1;
    fputs(elem[kind], f);
    fmuc_mdx_attr(f, "modelIdentifier", d->model_identifier);
    if (d->caps & FMUC_M_CAP_ONCE_PER_PROCESS)
        fmuc_mdx_attr(f, "canBeInstantiatedOnlyOncePerProcess", "true");
    fmuc_mdx_attr(f, "canGetAndSetFMUState", (d->caps & FMUC_M_CAP_GET_SET_STATE) ? "true" : "false");
    fmuc_mdx_attr(f, "canSerializeFMUState", (d->caps & FMUC_M_CAP_SERIALIZE) ? "true" : "false");
    fmuc_mdx_attr(f, "providesDirectionalDerivatives", (d->caps & FMUC_M_CAP_DIR_DERIV) ? "true" : "false");
    /* the FMI 3.0 glue computes adjoints from the model's directional derivatives */
    fmuc_mdx_attr(f, "providesAdjointDerivatives", (d->caps & FMUC_M_CAP_DIR_DERIV) ? "true" : "false");
    /* the FMI 3.0 glue serves the declared dependencies per element (whole variables) */
    fmuc_mdx_attr(f, "providesPerElementDependencies", "true");
    if (kind != 2 && (d->caps & FMUC_M_CAP_EVAL_DISCRETE))
        fmuc_mdx_attr(f, "providesEvaluateDiscreteStates", "true");
    if (kind == 0)
        fmuc_mdx_attr(f, "needsCompletedIntegratorStep",
             d->step_completed && !(d->caps & FMUC_M_CAP_COMPLETED_STEP_NOT_NEEDED) ? "true"
                                                                                      : "false");
    if (cs) {
        fmuc_mdx_attr(f, "canHandleVariableCommunicationStepSize",
             (d->caps & FMUC_M_CAP_VAR_STEP) ? "true" : "false");
        const char *ev = (d->caps & FMUC_M_CAP_CS_EVENT_MODE) ? "true" : "false";
        fmuc_mdx_attr(f, "hasEventMode", ev);
        fmuc_mdx_attr(f, "providesIntermediateUpdate", ev);
        fmuc_mdx_attr(f, "mightReturnEarlyFromDoStep", ev);
    }
    fputs("/>\n", f);
}

/* A start list: the value once per element (row-major, §2.4.7.5; an array sized by a structural
 * parameter has the parameter's start value of elements). */
static void write_start3(FILE *f, const fmuc_m_desc *d, const fmuc_m_var *v)
{
    size_t n = element_count_at_start(d, v);
    char buf[64];
    switch (v->type) {
    case FMUC_M_REAL:
        for (int p = 15; p <= 17; p++) {
            snprintf(buf, sizeof buf, "%.*g", p, v->start);
            if (strtod(buf, NULL) == v->start)
                break;
        }
        break;
    case FMUC_M_INTEGER:
        snprintf(buf, sizeof buf, "%d", (int)v->start);
        break;
    case FMUC_M_BOOLEAN:
        snprintf(buf, sizeof buf, "%s", v->start != 0.0 ? "true" : "false");
        break;
    case FMUC_M_UINT64:
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)v->start);
        break;
    case FMUC_M_STRING:
        return;
    }
    fputs(" start=\"", f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%s", i ? " " : "", buf);
    fputc('"', f);
}

/* <Clock> with its attributes in schema order (fmi3AbstractVariable, then fmi3Clock). */
static void write_clock3(FILE *f, const fmuc_m_clock *k)
{
    static const char *const iv[] = {"constant", "fixed",     "tunable",
                                     "changing", "countdown", "triggered"};
    fputs("    <Clock", f);
    fmuc_mdx_attr(f, "name", k->name);
    fprintf(f, " valueReference=\"%u\"", k->vr);
    fmuc_mdx_attr(f, "description", k->description);
    fmuc_mdx_attr(f, "causality", caus_name(k->causality));
    fmuc_mdx_attr(f, "variability", "discrete");
    if (k->flags & FMUC_M_CLOCK_CAN_DEACTIVATE)
        fputs(" canBeDeactivated=\"true\"", f);
    if (k->flags & FMUC_M_CLOCK_HAS_PRIORITY)
        fprintf(f, " priority=\"%u\"", k->priority);
    fmuc_mdx_attr(f, "intervalVariability", iv[k->interval_variability]);
    if (k->flags & FMUC_M_CLOCK_HAS_INTERVAL)
        fmuc_mdx_attr_dbl(f, "intervalDecimal", k->interval);
    if (k->flags & FMUC_M_CLOCK_HAS_SHIFT)
        fmuc_mdx_attr_dbl(f, "shiftDecimal", k->shift);
    if (k->flags & FMUC_M_CLOCK_HAS_FRACTION) {
        fputs(" supportsFraction=\"true\"", f);
        fprintf(f, " resolution=\"%llu\" intervalCounter=\"%llu\"",
                (unsigned long long)k->resolution,
                (unsigned long long)fmuc_m_clock_counter(k, k->interval));
        if (k->flags & FMUC_M_CLOCK_HAS_SHIFT)
            fprintf(f, " shiftCounter=\"%llu\"",
                    (unsigned long long)fmuc_m_clock_counter(k, k->shift));
    }
    fputs("/>\n", f);
}

/* clocks="vr vr ...": the value references of the clocks v->clocks names. */
static void write_clocks_attr3(gen *g, FILE *f, const fmuc_m_var *v)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", v->clocks);
    fputs(" clocks=\"", f);
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        long k = fmuc_m_find_clock(g->d, tok);
        if (k < 0) {
            problem(g, "'%s': clocks names '%s', which is not a clock", v->name, tok);
            continue;
        }
        fprintf(f, "%s%u", n++ ? " " : "", g->d->clocks[k].vr);
    }
    fputc('"', f);
}

static void write_unknowns3(gen *g, FILE *f, const char *elem, size_t i, const char *deps,
                            int init)
{
    const fmuc_m_var *v = &g->d->vars[i];
    fprintf(f, "    <%s valueReference=\"%u\"", elem, v->vr);
    write_deps3(g, f, v, deps, init);
    fputs("/>\n", f);
}

static int write_xml3(gen *g, FILE *f)
{
    const fmuc_m_desc *d = g->d;
    static const char *const std_cats[] = {"logEvents",      "logStatusWarning",
                                           "logStatusDiscard", "logStatusError",
                                           "logStatusFatal", NULL};
    const char *const *cats = d->log_categories ? d->log_categories : std_cats;
    char token[39];
    fmuc_m_guid(d, token);

    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<fmiModelDescription", f);
    fmuc_mdx_attr(f, "fmiVersion", "3.0");
    fmuc_mdx_attr(f, "modelName", d->model_name);
    fmuc_mdx_attr(f, "instantiationToken", token);
    fmuc_mdx_attr(f, "description", d->description);
    fmuc_mdx_attr(f, "author", d->author);
    fmuc_mdx_attr(f, "version", d->version);
    fmuc_mdx_attr(f, "generationTool", "fmucheck mdgen");
    fmuc_mdx_attr(f, "variableNamingConvention", "flat");
    fputs(">\n", f);
    if (d->caps & FMUC_M_CAP_ME)
        write_iface3(f, d, 0);
    if (d->caps & FMUC_M_CAP_CS)
        write_iface3(f, d, 1);
    if (d->caps & FMUC_M_CAP_SE)
        write_iface3(f, d, 2);

    int any_unit = 0;
    for (size_t i = 0; i < d->nvars; i++) {
        const char *u = d->vars[i].type == FMUC_M_REAL ? d->vars[i].unit : NULL;
        if (!u)
            continue;
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = d->vars[j].type == FMUC_M_REAL && d->vars[j].unit &&
                   strcmp(d->vars[j].unit, u) == 0;
        if (seen)
            continue;
        if (!any_unit)
            fputs("  <UnitDefinitions>\n", f);
        any_unit = 1;
        write_unit(f, u);
    }
    if (any_unit)
        fputs("  </UnitDefinitions>\n", f);

    if (cats[0]) {
        fputs("  <LogCategories>\n", f);
        for (size_t i = 0; cats[i]; i++) {
            fputs("    <Category", f);
            fmuc_mdx_attr(f, "name", cats[i]);
            const char *desc = cat_description(cats[i]);
            char buf[128];
            if (desc && strstr(desc, "fmi2")) { /* the status names of FMI 3.0 */
                snprintf(buf, sizeof buf, "Log messages with status fmi3%s",
                         strstr(desc, "fmi2") + 4);
                desc = buf;
            }
            fmuc_mdx_attr(f, "description", desc);
            fputs("/>\n", f);
        }
        fputs("  </LogCategories>\n", f);
    }
    if (d->experiment.flags) {
        fputs("  <DefaultExperiment", f);
        if (d->experiment.flags & FMUC_M_EXP_START)
            fmuc_mdx_attr_dbl(f, "startTime", d->experiment.start);
        if (d->experiment.flags & FMUC_M_EXP_STOP)
            fmuc_mdx_attr_dbl(f, "stopTime", d->experiment.stop);
        if (d->experiment.flags & FMUC_M_EXP_TOL)
            fmuc_mdx_attr_dbl(f, "tolerance", d->experiment.tolerance);
        if (d->experiment.flags & FMUC_M_EXP_STEP)
            fmuc_mdx_attr_dbl(f, "stepSize", d->experiment.step);
        fputs("/>\n", f);
    }

    fputs("  <ModelVariables>\n", f);
    for (size_t i = 0; i < d->nclocks; i++)
        write_clock3(f, &d->clocks[i]);
    for (size_t i = 0; i < d->nvars; i++) {
        const fmuc_m_var *v = &d->vars[i];
        fprintf(f, "    <%s", type3_name[v->type]);
        fmuc_mdx_attr(f, "name", v->name);
        fprintf(f, " valueReference=\"%u\"", v->vr);
        fmuc_mdx_attr(f, "description", v->description);
        fmuc_mdx_attr(f, "causality", caus_name(v->causality));
        fmuc_mdx_attr(f, "variability", var_name(v->variability));
        if (v->clocks)
            write_clocks_attr3(g, f, v);
        fmuc_m_initial ini = fmuc_m_effective_initial(v);
        if (v->causality == FMUC_M_INPUT)
            ini = FMUC_M_INITIAL_NONE; /* default exact (§2.4.7.5) */
        fmuc_mdx_attr(f, "initial", init_name(ini));
        if (v->flags & FMUC_M_INTERMEDIATE)
            fmuc_mdx_attr(f, "intermediateUpdate", "true");
        int has_start = (v->flags & FMUC_M_HAS_START) != 0;
        if (v->type == FMUC_M_REAL) {
            fmuc_mdx_attr(f, "unit", v->unit);
            if (v->flags & FMUC_M_HAS_MIN)
                fmuc_mdx_attr_dbl(f, "min", v->min);
            if (v->flags & FMUC_M_HAS_MAX)
                fmuc_mdx_attr_dbl(f, "max", v->max);
            if (v->flags & FMUC_M_HAS_NOMINAL)
                fmuc_mdx_attr_dbl(f, "nominal", v->nominal);
            if (v->derivative_of) {
                long s = fmuc_m_find(d, v->derivative_of);
                if (s >= 0)
                    fprintf(f, " derivative=\"%u\"", d->vars[s].vr);
            }
        } else if (v->type == FMUC_M_INTEGER) {
            if (v->flags & FMUC_M_HAS_MIN)
                fprintf(f, " min=\"%d\"", (int)v->min);
            if (v->flags & FMUC_M_HAS_MAX)
                fprintf(f, " max=\"%d\"", (int)v->max);
        } else if (v->type == FMUC_M_UINT64) {
            if (v->flags & FMUC_M_HAS_MIN)
                fprintf(f, " min=\"%llu\"", (unsigned long long)v->min);
            if (v->flags & FMUC_M_HAS_MAX)
                fprintf(f, " max=\"%llu\"", (unsigned long long)v->max);
        }
        if (has_start)
            write_start3(f, d, v);
        int children = v->dim > 1 || v->dim_param || (v->type == FMUC_M_STRING && has_start);
        if (!children) {
            fputs("/>\n", f);
            continue;
        }
        fputs(">\n", f);
        long dp = v->dim_param ? fmuc_m_find(d, v->dim_param) : -1;
        if (dp >= 0)
            fprintf(f, "      <Dimension valueReference=\"%u\"/>\n", d->vars[dp].vr);
        else if (v->dim > 1)
            fprintf(f, "      <Dimension start=\"%zu\"/>\n", v->dim);
        if (v->type == FMUC_M_STRING && has_start) {
            for (size_t k = 0; k < (v->dim > 1 ? v->dim : 1); k++) {
                fputs("      <Start", f);
                fmuc_mdx_attr(f, "value", v->start_str ? v->start_str : "");
                fputs("/>\n", f);
            }
        }
        fprintf(f, "    </%s>\n", type3_name[v->type]);
    }
    fputs("  </ModelVariables>\n  <ModelStructure>\n", f);
    for (size_t i = 0; i < d->nclocks; i++) /* output clocks, dependencies omitted */
        if (d->clocks[i].causality == FMUC_M_OUTPUT)
            fprintf(f, "    <Output valueReference=\"%u\"/>\n", d->clocks[i].vr);
    for (size_t i = 0; i < d->nvars; i++)
        if (d->vars[i].causality == FMUC_M_OUTPUT)
            write_unknowns3(g, f, "Output", i, d->vars[i].deps, 0);
    for (size_t i = 0; i < d->nvars; i++)
        if (d->vars[i].derivative_of && fmuc_m_find(d, d->vars[i].derivative_of) >= 0)
            write_unknowns3(g, f, "ContinuousStateDerivative", i, d->vars[i].deps, 0);
    for (size_t i = 0; i < d->nvars; i++)
        if (fmuc_m_is_initial_unknown(d, i))
            write_unknowns3(g, f, "InitialUnknown", i, d->vars[i].init_deps, 1);
    if (d->caps & FMUC_M_CAP_ME)
        for (size_t i = 0; i < d->nvars; i++)
            if (d->vars[i].flags & FMUC_M_EVENT_INDICATOR)
                write_unknowns3(g, f, "EventIndicator", i, d->vars[i].deps, 0);
    fputs("  </ModelStructure>\n</fmiModelDescription>\n", f);
    return ferror(f) ? -1 : 0;
}

static int write_any(void *arg, FILE *f)
{
    gen *g = arg;
    return g->fmi3 ? write_xml3(g, f) : write_xml(g, f);
}

int main(int argc, char **argv)
{
    gen g = {&fmuc_model, 0, 0, 0};
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--lenient") == 0)
            g.lenient = 1;
        else if (strcmp(argv[i], "--fmi3") == 0)
            g.fmi3 = 1;
        else if (strcmp(argv[i], "--guid") == 0) {
            char guid[39];
            fmuc_m_guid(g.d, guid);
            printf("%s\n", guid);
            return 0;
        } else
            out = argv[i];
    }
    if (!out) {
        fprintf(stderr, "usage: %s [--lenient] [--fmi3] <modelDescription.xml> | --guid\n", argv[0]);
        return 64;
    }
    validate(&g);
    return fmuc_mdx_write_file("mdgen", out, write_any, &g, &g.errors, g.lenient,
                               g.d->model_identifier);
}
