/* mdgen1: build-time host tool that writes the FMI 1.0 modelDescription.xml of a Model Exchange or
 * Co-Simulation 1.0 FMU from the model descriptor linked into it (the table the FMU library
 * uses), and checks the table against the 1.0 rules it relies on (fmi1-rules §B).
 * Usage: mdgen1_<model> --kind me|cs [--lenient] <out.xml>   |   mdgen1_<model> --guid
 *
 * The 2.0 table maps onto 1.0 as follows (B.4): causality input/output stay, every other
 * causality becomes internal (the independent variable is the internal Real "time", as the
 * Reference-FMUs list it); parameters (fixed or tunable, also calculated) become
 * variability="parameter"; initial="approx" becomes fixed="false"; ModelStructure output
 * dependencies become DirectDependency (B-208/B-209: the inputs among them; omitted when the
 * table says "all knowns"). Aliases of the table follow their base variable (B-303). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmuc_model.h"
#include "mdgen_xml.h"

typedef struct {
    const fmuc_m_desc *d;
    int cs, lenient, errors;
} gen;

static void problem(gen *g, const char *fmt, const char *a, const char *b)
{
    fmuc_mdx_problem("mdgen1", g->lenient, fmt, a, b);
    g->errors++;
}

static const char *causality1(const fmuc_m_var *v)
{
    switch (v->causality) {
    case FMUC_M_INPUT:
        return "input";
    case FMUC_M_OUTPUT:
        return "output";
    default:
        return "internal";
    }
}

static const char *variability1(const fmuc_m_var *v)
{
    if (v->variability == FMUC_M_CONSTANT)
        return "constant";
    if (v->causality == FMUC_M_PARAMETER || v->causality == FMUC_M_CALCULATED_PARAMETER ||
        v->variability == FMUC_M_FIXED || v->variability == FMUC_M_TUNABLE)
        return "parameter";
    if (v->variability == FMUC_M_DISCRETE)
        return "discrete";
    return "continuous";
}

static size_t n_states(const fmuc_m_desc *d)
{
    size_t n = 0;
    for (size_t i = 0; i < d->nvars; i++)
        if (d->vars[i].derivative_of && fmuc_m_find(d, d->vars[i].derivative_of) >= 0)
            n++;
    return n;
}

/* --- table checks (the 1.0 rules the generated XML must meet) ------------------------------- */
static void validate(gen *g)
{
    const fmuc_m_desc *d = g->d;
    const char *id = d->model_identifier;
    if (!id || !*id || !((id[0] >= 'A' && id[0] <= 'Z') || (id[0] >= 'a' && id[0] <= 'z') || id[0] == '_'))
        problem(g, "modelIdentifier '%s' is not a C identifier%s (B-101)", id, "");
    if (!(d->caps & (g->cs ? FMUC_M_CAP_CS : FMUC_M_CAP_ME)))
        problem(g, "the model does not declare the %s interface%s", g->cs ? "CS" : "ME", "");
    for (size_t i = 0; i < d->nvars; i++) {
        const fmuc_m_var *v = &d->vars[i];
        if (!v->name || !*v->name) {
            problem(g, "variable without a name%s%s", "", "");
            continue;
        }
        if (strpbrk(v->name, "\r\n\t"))
            problem(g, "'%s': CR, LF or TAB in a flat name%s (B-351)", v->name, "");
        for (size_t j = 0; j < i; j++) {
            const fmuc_m_var *w = &d->vars[j];
            if (w->name && strcmp(w->name, v->name) == 0)
                problem(g, "duplicate variable name '%s'%s (B-201)", v->name, "");
            if (w->vr == v->vr && w->type == v->type)
                problem(g, "'%s' and '%s' share a valueReference of the same type (B-303: only "
                           "aliases may)", w->name, v->name);
        }
        if (v->type == FMUC_M_UINT64 || v->causality == FMUC_M_STRUCTURAL_PARAMETER ||
            v->dim_param)
            problem(g, "'%s': a UInt64 variable, structural parameter or array sized by one%s "
                       "(FMI 3.0 only)", v->name, "");
        if (v->dim > 1)
            problem(g, "'%s': an array variable%s (FMI 1.0 has scalar variables only)", v->name,
                    "");
        if (v->vr == 0xffffffffu)
            problem(g, "'%s' uses fmiUndefinedValueReference%s (B-302)", v->name, "");
        if (v->type != FMUC_M_REAL && v->variability == FMUC_M_CONTINUOUS)
            problem(g, "'%s': only Real variables may be continuous%s (B-202)", v->name, "");
        if (v->causality == FMUC_M_INPUT && v->variability == FMUC_M_CONSTANT)
            problem(g, "'%s': a constant input%s (B-205)", v->name, "");
        if (v->causality == FMUC_M_INPUT && !(v->flags & FMUC_M_HAS_START))
            problem(g, "'%s': an input needs a start value%s (B-204)", v->name, "");
        if (v->causality == FMUC_M_INDEPENDENT && v->type != FMUC_M_REAL)
            problem(g, "'%s': the time must be Real%s", v->name, "");
        if ((v->flags & FMUC_M_HAS_NOMINAL) && !(v->nominal > 0.0))
            problem(g, "'%s': nominal must be > 0%s (B-156)", v->name, "");
    }
    for (size_t i = 0; i < d->naliases; i++) {
        const fmuc_m_alias *a = &d->aliases[i];
        long b = a->base ? fmuc_m_find(d, a->base) : -1;
        if (!a->name || !*a->name || fmuc_m_find(d, a->name) >= 0)
            problem(g, "alias '%s' has no name or the name of a variable%s (B-201)", a->name, "");
        for (size_t j = 0; j < i; j++)
            if (a->name && d->aliases[j].name && strcmp(a->name, d->aliases[j].name) == 0)
                problem(g, "duplicate alias name '%s'%s (B-201)", a->name, "");
        if (b < 0)
            problem(g, "alias '%s': base '%s' is not a variable of the table", a->name, a->base);
        else if (d->vars[b].causality == FMUC_M_INDEPENDENT)
            problem(g, "alias '%s': base '%s' is the time", a->name, a->base);
        else if (a->negated && d->vars[b].type != FMUC_M_REAL &&
                 d->vars[b].type != FMUC_M_INTEGER)
            problem(g, "alias '%s': a negated alias of the non-numeric '%s' (B-304)", a->name,
                    a->base);
    }
}

/* --- XML ----------------------------------------------------------------------------------- */
/* DirectDependency of an output (B-208/B-209): its table dependencies that are inputs; absent
 * when the table gives none (= all knowns, so all inputs). */
static void write_direct_dependency(gen *g, FILE *f, const fmuc_m_var *v)
{
    const fmuc_m_desc *d = g->d;
    if (v->causality != FMUC_M_OUTPUT || !v->deps)
        return;
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", v->deps);
    int any = 0;
    for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        long k = fmuc_m_find(d, tok);
        if (k < 0) {
            problem(g, "'%s': dependency '%s' is not a variable", v->name, tok);
            continue;
        }
        if (d->vars[k].causality != FMUC_M_INPUT)
            continue; /* states and time are not inputs: no direct feed-through */
        if (!any)
            fputs("      <DirectDependency>\n", f);
        any = 1;
        fputs("        <Name>", f);
        fmuc_mdx_xml_str(f, d->vars[k].name);
        fputs("</Name>\n", f);
    }
    fputs(any ? "      </DirectDependency>\n" : "      <DirectDependency/>\n", f);
}

static void write_type(FILE *f, const fmuc_m_var *v, int alias)
{
    int has_start = !alias && (v->flags & FMUC_M_HAS_START);
    switch (v->type) {
    case FMUC_M_REAL:
        fputs("      <Real", f);
        fmuc_mdx_attr(f, "unit", v->unit);
        if (!alias && (v->flags & FMUC_M_HAS_MIN))
            fmuc_mdx_attr_dbl(f, "min", v->min);
        if (!alias && (v->flags & FMUC_M_HAS_MAX))
            fmuc_mdx_attr_dbl(f, "max", v->max);
        if (!alias && (v->flags & FMUC_M_HAS_NOMINAL))
            fmuc_mdx_attr_dbl(f, "nominal", v->nominal);
        if (has_start)
            fmuc_mdx_attr_dbl(f, "start", v->start);
        break;
    case FMUC_M_INTEGER:
        fputs("      <Integer", f);
        if (!alias && (v->flags & FMUC_M_HAS_MIN))
            fprintf(f, " min=\"%d\"", (int)v->min);
        if (!alias && (v->flags & FMUC_M_HAS_MAX))
            fprintf(f, " max=\"%d\"", (int)v->max);
        if (has_start)
            fprintf(f, " start=\"%d\"", (int)v->start);
        break;
    case FMUC_M_BOOLEAN:
        fputs("      <Boolean", f);
        if (has_start)
            fmuc_mdx_attr(f, "start", v->start != 0.0 ? "true" : "false");
        break;
    case FMUC_M_STRING:
        fputs("      <String", f);
        if (has_start)
            fmuc_mdx_attr(f, "start", v->start_str ? v->start_str : "");
        break;
    case FMUC_M_UINT64: /* FMI 3.0 only: refused by validate() */
        fputs("      <Integer", f);
        break;
    }
    /* a start value of a 2.0 initial="approx" variable is a guess (B-203) */
    if (has_start && fmuc_m_effective_initial(v) == FMUC_M_APPROX)
        fmuc_mdx_attr(f, "fixed", "false");
    fputs("/>\n", f);
}

static void write_var_head(FILE *f, const char *name, const fmuc_m_var *v, const char *alias,
                           const char *description)
{
    fputs("    <ScalarVariable", f);
    fmuc_mdx_attr(f, "name", name);
    fprintf(f, " valueReference=\"%u\"", v->vr);
    fmuc_mdx_attr(f, "description", description);
    fmuc_mdx_attr(f, "variability", variability1(v));
    fmuc_mdx_attr(f, "causality", causality1(v));
    fmuc_mdx_attr(f, "alias", alias);
    fputs(">\n", f);
}

static int write_xml(gen *g, FILE *f)
{
    const fmuc_m_desc *d = g->d;
    char guid[39];
    fmuc_m_guid_salted(d, FMUC_M_GUID_SALT_FMI1, guid);

    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<fmiModelDescription", f);
    fmuc_mdx_attr(f, "fmiVersion", "1.0");
    fmuc_mdx_attr(f, "modelName", d->model_name);
    fmuc_mdx_attr(f, "modelIdentifier", d->model_identifier);
    fmuc_mdx_attr(f, "guid", guid);
    fmuc_mdx_attr(f, "description", d->description);
    fmuc_mdx_attr(f, "author", d->author);
    fmuc_mdx_attr(f, "version", d->version);
    fmuc_mdx_attr(f, "generationTool", "fmucheck mdgen1");
    fmuc_mdx_attr(f, "variableNamingConvention", "flat");
    fprintf(f, " numberOfContinuousStates=\"%zu\"", n_states(d));
    fprintf(f, " numberOfEventIndicators=\"%zu\"", d->n_event_indicators);
    fputs(">\n", f);

    /* UnitDefinitions: each used unit once as a BaseUnit without display units (B-151) */
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
        fputs("    <BaseUnit", f);
        fmuc_mdx_attr(f, "unit", u);
        fputs("/>\n", f);
    }
    if (any_unit)
        fputs("  </UnitDefinitions>\n", f);

    /* DefaultExperiment: 1.0 has no stepSize (B-158) */
    unsigned ef = d->experiment.flags & (FMUC_M_EXP_START | FMUC_M_EXP_STOP | FMUC_M_EXP_TOL);
    if (ef) {
        fputs("  <DefaultExperiment", f);
        if (ef & FMUC_M_EXP_START)
            fmuc_mdx_attr_dbl(f, "startTime", d->experiment.start);
        if (ef & FMUC_M_EXP_STOP)
            fmuc_mdx_attr_dbl(f, "stopTime", d->experiment.stop);
        if (ef & FMUC_M_EXP_TOL)
            fmuc_mdx_attr_dbl(f, "tolerance", d->experiment.tolerance);
        fputs("/>\n", f);
    }

    fputs("  <ModelVariables>\n", f);
    for (size_t i = 0; i < d->nvars; i++) {
        const fmuc_m_var *v = &d->vars[i];
        write_var_head(f, v->name, v, NULL, v->description);
        write_type(f, v, 0);
        write_direct_dependency(g, f, v);
        fputs("    </ScalarVariable>\n", f);
    }
    for (size_t i = 0; i < d->naliases; i++) {
        const fmuc_m_alias *a = &d->aliases[i];
        long b = a->base ? fmuc_m_find(d, a->base) : -1;
        if (b < 0)
            continue;
        const fmuc_m_var *v = &d->vars[b];
        write_var_head(f, a->name, v, a->negated ? "negatedAlias" : "alias", a->description);
        write_type(f, v, 1);
        fputs("    </ScalarVariable>\n", f);
    }
    fputs("  </ModelVariables>\n", f);

    if (g->cs) {
        /* B-401: a stand-alone slave; the capabilities of fmi1_cs_glue.c (B.8 table) */
        fputs("  <Implementation>\n    <CoSimulation_StandAlone>\n      <Capabilities", f);
        fmuc_mdx_attr(f, "canHandleVariableCommunicationStepSize",
             (d->caps & FMUC_M_CAP_VAR_STEP) ? "true" : "false");
        fmuc_mdx_attr(f, "canHandleEvents", "false");
        fmuc_mdx_attr(f, "canRejectSteps", "false");
        fmuc_mdx_attr(f, "canInterpolateInputs", "false");
        fmuc_mdx_attr(f, "maxOutputDerivativeOrder", "0");
        fmuc_mdx_attr(f, "canRunAsynchronuously", "false");
        fmuc_mdx_attr(f, "canSignalEvents", "false");
        fmuc_mdx_attr(f, "canBeInstantiatedOnlyOncePerProcess",
             (d->caps & FMUC_M_CAP_ONCE_PER_PROCESS) ? "true" : "false");
        fmuc_mdx_attr(f, "canNotUseMemoryManagementFunctions", "false");
        fputs("/>\n    </CoSimulation_StandAlone>\n  </Implementation>\n", f);
    }
    fputs("</fmiModelDescription>\n", f);
    return ferror(f) ? -1 : 0;
}

static int write_any(void *arg, FILE *f)
{
    gen *g = arg;
    return write_xml(g, f);
}

int main(int argc, char **argv)
{
    gen g = {&fmuc_model, -1, 0, 0};
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--lenient") == 0)
            g.lenient = 1;
        else if (strcmp(argv[i], "--kind") == 0 && i + 1 < argc) {
            i++;
            g.cs = strcmp(argv[i], "cs") == 0 ? 1 : strcmp(argv[i], "me") == 0 ? 0 : -1;
        } else if (strcmp(argv[i], "--guid") == 0) {
            char guid[39];
            fmuc_m_guid_salted(g.d, FMUC_M_GUID_SALT_FMI1, guid);
            printf("%s\n", guid);
            return 0;
        } else
            out = argv[i];
    }
    if (!out || g.cs < 0) {
        fprintf(stderr, "usage: %s --kind me|cs [--lenient] <modelDescription.xml> | --guid\n",
                argv[0]);
        return 64;
    }
    validate(&g);
    return fmuc_mdx_write_file("mdgen1", out, write_any, &g, &g.errors, g.lenient,
                               g.d->model_identifier);
}
