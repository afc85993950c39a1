/* What the FMI 1.0, 2.0 and 3.0 element parsers do alike (issue 17: one code, per-version data
 * only where the standards differ): the root element and its common attributes, default
 * experiment, units and display units, type-definition and variable attributes that carry the
 * same meaning (causality/variability/initial through per-version name tables), capability
 * flags, ModelStructure lists (dependencies, dependenciesKind), the extra records of a variable.
 * The version is p->ops->fmi; the diagnostics are those the version parsers gave before. */
#include "md_parse_internal.h"

/* ---- per-version names ---- */

static const char *const caus1[] = {"input", "output", "internal", "none"};
static const uint8_t caus1_to[] = {FMUC_CAUS_INPUT, FMUC_CAUS_OUTPUT, FMUC_CAUS_LOCAL,
                                   FMUC_CAUS_NONE};
static const char *const var1[] = {"constant", "parameter", "discrete", "continuous"};
static const uint8_t var1_to[] = {FMUC_VAR_CONSTANT, FMUC_VAR_FIXED, FMUC_VAR_DISCRETE,
                                  FMUC_VAR_CONTINUOUS};
static const uint8_t caus2_to[] = {FMUC_CAUS_PARAMETER, FMUC_CAUS_CALCULATED_PARAMETER,
                                   FMUC_CAUS_INPUT,     FMUC_CAUS_OUTPUT,
                                   FMUC_CAUS_LOCAL,     FMUC_CAUS_INDEPENDENT};
static const uint8_t var2_to[] = {FMUC_VAR_CONSTANT, FMUC_VAR_FIXED, FMUC_VAR_TUNABLE,
                                  FMUC_VAR_DISCRETE, FMUC_VAR_CONTINUOUS};
static const char *const caus3[] = {"parameter", "calculatedParameter", "input", "output",
                                    "local",     "independent",         "structuralParameter"};
static const uint8_t caus3_to[] = {FMUC_CAUS_PARAMETER, FMUC_CAUS_CALCULATED_PARAMETER,
                                   FMUC_CAUS_INPUT,     FMUC_CAUS_OUTPUT,
                                   FMUC_CAUS_LOCAL,     FMUC_CAUS_INDEPENDENT,
                                   FMUC_CAUS_STRUCTURAL_PARAMETER};

typedef struct vnames {
    const char *const *caus;
    const uint8_t *caus_to;
    int ncaus;
    const char *const *vari;
    const uint8_t *vari_to;
    int nvari;
    const char *vars_word;    /* what the limit message counts */
    const char *required_ref; /* cited when ModelVariables/ModelStructure is missing */
} vnames;

static const vnames *names_of(const parser *p)
{
    static const vnames v[3] = {
        {caus1, caus1_to, 4, var1, var1_to, 4, "ScalarVariables", ""},
        {causality_names, caus2_to, 6, variability_names, var2_to, 5, "ScalarVariables",
         " (required, §2.2.1)"},
        {caus3, caus3_to, 7, variability_names, var2_to, 5, "variables",
         " (required, FMI 3.0 §2.4.1)"},
    };
    return &v[p->ops->fmi - 1];
}

/* ---- small attribute readers ---- */

uint32_t attr_uint0(parser *p, const char *attr, const char *v)
{
    uint32_t u;
    return attr_uint(p, attr, v, &u) == 0 ? u : 0;
}

int attr_flag(parser *p, const char *attr, const char *v)
{
    int b = 0;
    return attr_bool(p, attr, v, &b) == 0 && b;
}

/* ---- root ---- */

int start_root(parser *p)
{
    fmuc_md *md = p->md;
    p->root_seen = 1;
    md->root_name = dup_n(p, p->elem, MAX_NAME_COPY);
    md->root_line = p->line;
    if (strcmp(p->elem, "fmiModelDescription") == 0)
        return 0;
    ISSUE(p, FMUC_ISSUE_ELEMENT_UNKNOWN, NULL, NULL,
          "the root element is <%s> at line %u, expected <fmiModelDescription>", p->elem, p->line);
    return -1;
}

int a_root_info(parser *p, const char *n, const char *v)
{
    fmuc_md *md = p->md;
    int fmi = p->ops->fmi;
    if (strcmp(n, "description") == 0)
        md->description = dup(p, v);
    else if (strcmp(n, "author") == 0)
        md->author = dup(p, v);
    else if (strcmp(n, "version") == 0)
        md->version = dup(p, v);
    else if (fmi >= 2 && strcmp(n, "copyright") == 0)
        md->copyright = dup(p, v);
    else if (fmi >= 2 && strcmp(n, "license") == 0)
        md->license = dup(p, v);
    else if (strcmp(n, "generationTool") == 0)
        md->generation_tool = dup(p, v);
    else if (strcmp(n, "generationDateAndTime") == 0)
        md->generation_date_and_time = dup(p, v);
    else if (strcmp(n, "variableNamingConvention") == 0) {
        static const char *const conv[] = {"flat", "structured"};
        md->variable_naming_convention = dup(p, v);
        attr_enum(p, n, v, conv, 2);
    } else if (fmi <= 2 && strcmp(n, "numberOfEventIndicators") == 0) {
        md->has_number_of_event_indicators = 1;
        md->number_of_event_indicators = attr_uint0(p, n, v);
    } else
        return 0;
    return 1;
}

void note_root_child(parser *p)
{
    fmuc_md *md = p->md;
    if (grow(p, (void **)&md->children, &p->cap_children, md->nchildren + 1,
             sizeof *md->children) == 0) {
        md->children[md->nchildren].name = dup_n(p, p->elem, MAX_NAME_COPY);
        md->children[md->nchildren].line = p->line;
        md->nchildren++;
    }
}

void end_root(parser *p, const frame *f)
{
    const fmuc_md *md = p->md;
    const char *ref = names_of(p)->required_ref;
    if (!md->has_model_variables)
        issue_at(p, FMUC_ISSUE_ELEMENT_MISSING, f->line, "fmiModelDescription", NULL, NULL,
                 "<fmiModelDescription> has no <ModelVariables>%s", ref);
    if (!md->has_model_structure)
        issue_at(p, FMUC_ISSUE_ELEMENT_MISSING, f->line, "fmiModelDescription", NULL, NULL,
                 "<fmiModelDescription> has no <ModelStructure>%s", ref);
}

void leaf_child(parser *p)
{
    ISSUE(p, FMUC_ISSUE_ELEMENT_UNKNOWN, NULL, NULL,
          "element <%s> at line %u is not allowed here (the parent element has no child "
          "elements in the %s schema)",
          p->elem, p->line, p->ops->schema);
}

int a_cap(parser *p, const char *n, const char *v, fmuc_md_interface *itf, unsigned iface)
{
    int fmi = p->ops->fmi;
    for (int k = 0; k < FMUC_CAP_COUNT; k++) {
        const char *a = fmuc_md_cap_attr((fmuc_cap)k, fmi);
        if (!a || strcmp(n, a) != 0)
            continue;
        if (iface && !(fmuc_md_cap_ifaces((fmuc_cap)k, fmi) & iface))
            return 0;
        itf->caps_explicit |= 1u << k;
        if (attr_flag(p, n, v))
            itf->caps |= 1u << k;
        return 1;
    }
    return -1;
}

int a_defexp(parser *p, const char *n, const char *v, void *obj)
{
    fmuc_md_experiment *e = obj;
    if (strcmp(n, "startTime") == 0)
        e->has_start = 1, e->start_time = attr_double(p, n, v);
    else if (strcmp(n, "stopTime") == 0)
        e->has_stop = 1, e->stop_time = attr_double(p, n, v);
    else if (strcmp(n, "tolerance") == 0)
        e->has_tolerance = 1, e->tolerance = attr_double(p, n, v);
    else if (p->ops->fmi >= 2 && strcmp(n, "stepSize") == 0)
        e->has_step = 1, e->step_size = attr_double(p, n, v);
    else
        return 0;
    return 1;
}

void start_defexp(parser *p)
{
    fmuc_md *md = p->md;
    md->experiment.present = 1;
    md->experiment.line = p->line;
    for_attrs(p, a_defexp, &md->experiment);
}

void start_root_section(parser *p)
{
    fmuc_md *md = p->md;
    if (strcmp(p->elem, "DefaultExperiment") == 0) {
        start_defexp(p);
        return;
    }
    if (strcmp(p->elem, "ModelVariables") == 0)
        md->has_model_variables = 1;
    else if (strcmp(p->elem, "ModelStructure") == 0)
        md->has_model_structure = 1;
    for_attrs(p, a_none, NULL);
}

int a_name_desc(parser *p, const char *n, const char *v, void *obj)
{
    const char **nd = obj; /* [0] name, [1] description */
    if (strcmp(n, "name") == 0)
        nd[0] = dup(p, v);
    else if (strcmp(n, "description") == 0)
        nd[1] = dup(p, v);
    else
        return 0;
    return 1;
}

/* ---- units (FMI 2.0 §2.2.2, FMI 3.0 §2.4.3) ---- */

static int a_unit(parser *p, const char *n, const char *v, void *obj)
{
    /* FMI 2.0's Unit has a name only, FMI 3.0's also a description */
    if (p->ops->fmi < 3 && strcmp(n, "name") != 0)
        return 0;
    return a_name_desc(p, n, v, obj);
}

int start_unit(parser *p)
{
    fmuc_md *md = p->md;
    fmuc_md_unit *u = append(p, (void **)&md->units, &p->cap_units, &md->nunits, sizeof *u);
    if (!u)
        return -1;
    u->line = p->line;
    u->factor = 1.0;
    const char *nd[2] = {NULL, NULL};
    for_attrs(p, a_unit, nd);
    u->name = nd[0];
    if (!u->name)
        missing_attr(p, "name");
    p->cap_disp = 0;
    return 0;
}

static const char *const base_exps[8] = {"kg", "m", "s", "A", "K", "mol", "cd", "rad"};

int a_baseunit(parser *p, const char *n, const char *v, void *obj)
{
    fmuc_md_unit *u = obj;
    int k = lookup(n, base_exps, 8);
    int32_t e;
    if (k >= 0) {
        if (attr_int(p, n, v, &e) == 0)
            u->exp[k] = e;
    } else if (strcmp(n, "factor") == 0)
        u->factor = attr_double(p, n, v);
    else if (strcmp(n, "offset") == 0)
        u->offset = attr_double(p, n, v);
    else
        return 0;
    return 1;
}

static int a_displayunit(parser *p, const char *n, const char *v, void *obj)
{
    fmuc_md_display_unit *du = obj;
    int b;
    if (strcmp(n, "name") == 0)
        du->name = dup(p, v);
    else if (strcmp(n, "factor") == 0)
        du->factor = attr_double(p, n, v);
    else if (strcmp(n, "offset") == 0)
        du->offset = attr_double(p, n, v);
    else if (p->ops->fmi >= 3 && strcmp(n, "inverse") == 0) {
        if (attr_bool(p, n, v, &b) == 0)
            du->inverse = (uint8_t)b;
    }
    else
        return 0;
    return 1;
}

int start_display_unit(parser *p)
{
    fmuc_md *md = p->md;
    fmuc_md_unit *u = &md->units[md->nunits - 1];
    fmuc_md_display_unit *du = append(p, (void **)&u->display, &p->cap_disp, &u->ndisplay,
                                      sizeof *du);
    if (!du)
        return -1;
    du->factor = 1.0;
    du->line = p->line;
    for_attrs(p, a_displayunit, du);
    if (!du->name)
        missing_attr(p, "name");
    return 0;
}

int start_category(parser *p)
{
    fmuc_md *md = p->md;
    fmuc_md_category *c =
        append(p, (void **)&md->categories, &p->cap_cats, &md->ncategories, sizeof *c);
    if (!c)
        return -1;
    c->line = p->line;
    const char *nd[2] = {NULL, NULL};
    for_attrs(p, a_name_desc, nd);
    c->name = nd[0];
    c->description = nd[1];
    if (!c->name)
        missing_attr(p, "name");
    return 0;
}

/* ---- types and variables ---- */

fmuc_md_type *start_named_type(parser *p)
{
    fmuc_md *md = p->md;
    fmuc_md_type *t = append(p, (void **)&md->types, &p->cap_types, &md->ntypes, sizeof *t);
    if (!t)
        return NULL;
    t->line = p->line;
    const char *nd[2] = {NULL, NULL};
    for_attrs(p, a_name_desc, nd);
    t->name = nd[0];
    t->description = nd[1];
    if (!t->name)
        missing_attr(p, "name");
    return t;
}

/* The boolean attributes that set a presence bit (FMUC_HAS_*) and, when true, a flag
 * (FMUC_FLAG_*), with the first FMI version that has them and where they stand. */
static const struct flag_attr {
    const char *name;
    uint8_t fmi; /* first version */
    uint8_t on;  /* FLAG_ON_* */
    uint8_t flag;
    uint32_t has;
} flag_attrs[] = {
    {"relativeQuantity", 1, FLAG_ON_REAL_TYPE | FLAG_ON_REAL_VAR, FMUC_FLAG_RELATIVE_QUANTITY,
     FMUC_HAS_RELATIVE_QUANTITY},
    {"unbounded", 2, FLAG_ON_REAL_TYPE | FLAG_ON_REAL_VAR, FMUC_FLAG_UNBOUNDED, FMUC_HAS_UNBOUNDED},
    {"reinit", 2, FLAG_ON_REAL_VAR, FMUC_FLAG_REINIT, FMUC_HAS_REINIT},
    {"canHandleMultipleSetPerTimeInstant", 2, FLAG_ON_VAR, FMUC_FLAG_MULTISET, FMUC_HAS_MULTISET},
};

int a_flag(parser *p, const char *n, const char *v, unsigned on, uint32_t *has, uint8_t *flags)
{
    for (size_t k = 0; k < sizeof flag_attrs / sizeof flag_attrs[0]; k++) {
        const struct flag_attr *f = &flag_attrs[k];
        if (!(f->on & on) || p->ops->fmi < f->fmi || strcmp(n, f->name) != 0)
            continue;
        *has |= f->has;
        if (attr_flag(p, n, v))
            *flags |= f->flag;
        return 1;
    }
    return 0;
}

/* a_flag into a variable's bit-fields */
static int a_var_flag(parser *p, const char *n, const char *v, unsigned on, fmuc_md_var *var)
{
    uint32_t has = 0;
    uint8_t flags = 0;
    if (!a_flag(p, n, v, on, &has, &flags))
        return 0;
    var->has |= has;
    var->flags |= flags;
    return 1;
}

int a_type_real(parser *p, const char *n, const char *v, fmuc_md_type *t)
{
    if (strcmp(n, "quantity") == 0)
        t->quantity = dup_i(p, v), t->has |= FMUC_HAS_QUANTITY;
    else if (strcmp(n, "unit") == 0)
        t->unit = dup_i(p, v), t->has |= FMUC_HAS_UNIT;
    else if (strcmp(n, "displayUnit") == 0)
        t->display_unit = dup_i(p, v), t->has |= FMUC_HAS_DISPLAY_UNIT;
    else if (strcmp(n, "min") == 0)
        t->min = attr_double(p, n, v), t->has |= FMUC_HAS_MIN;
    else if (strcmp(n, "max") == 0)
        t->max = attr_double(p, n, v), t->has |= FMUC_HAS_MAX;
    else if (strcmp(n, "nominal") == 0)
        t->nominal = attr_double(p, n, v), t->has |= FMUC_HAS_NOMINAL;
    else
        return a_flag(p, n, v, FLAG_ON_REAL_TYPE, &t->has, &t->flags);
    return 1;
}

int a_var_real(parser *p, const char *n, const char *v, fmuc_md_var *var)
{
    if (strcmp(n, "unit") == 0) {
        var->unit = dup_i(p, v);
        var->has |= FMUC_HAS_UNIT;
    } else if (strcmp(n, "displayUnit") == 0) {
        var->display_unit = dup_i(p, v);
        var->has |= FMUC_HAS_DISPLAY_UNIT;
    } else if (strcmp(n, "nominal") == 0) {
        var->nominal = attr_double(p, n, v);
        var->has |= FMUC_HAS_NOMINAL;
    } else
        return a_var_flag(p, n, v, FLAG_ON_REAL_VAR, var);
    return 1;
}

int a_var_common(parser *p, const char *n, const char *v, fmuc_md_var *var)
{
    const vnames *t = names_of(p);
    int k;
    if (strcmp(n, "name") == 0) {
        var->name = dup(p, v);
        var->has |= FMUC_HAS_NAME;
    } else if (strcmp(n, "valueReference") == 0) {
        p->sv_vr_seen = 1;
        uint32_t u;
        if (attr_uint(p, n, v, &u) == 0) {
            var->value_reference = u;
            var->has |= FMUC_HAS_VALUE_REFERENCE;
        }
    } else if (strcmp(n, "description") == 0) {
        var->description = dup(p, v);
        var->has |= FMUC_HAS_DESCRIPTION;
    } else if (strcmp(n, "causality") == 0) {
        var->has |= FMUC_HAS_CAUSALITY;
        k = attr_enum(p, n, v, t->caus, t->ncaus);
        var->causality = k < 0 ? FMUC_CAUS_INVALID : t->caus_to[k];
    } else if (strcmp(n, "variability") == 0) {
        var->has |= FMUC_HAS_VARIABILITY;
        k = attr_enum(p, n, v, t->vari, t->nvari);
        var->variability = k < 0 ? FMUC_VAR_INVALID : t->vari_to[k];
    } else if (p->ops->fmi >= 2 && strcmp(n, "initial") == 0) {
        k = attr_enum(p, n, v, initial_names, 3);
        var->initial = (uint8_t)(k < 0 ? FMUC_INIT_INVALID : k + 1);
    } else
        return a_var_flag(p, n, v, FLAG_ON_VAR, var);
    return 1;
}

fmuc_md_var *start_var_common(parser *p)
{
    fmuc_md *md = p->md;
    if (md->nvars >= p->lim.max_variables) {
        ISSUE(p, FMUC_ISSUE_LIMIT, NULL, NULL, "more than %zu %s: parse stopped at line %u",
              p->lim.max_variables, names_of(p)->vars_word, p->line);
        p->stop = 1;
        md->parse_stopped = 1;
        return NULL;
    }
    fmuc_md_var *v = append(p, (void **)&md->vars, &p->cap_vars, &md->nvars, sizeof *v);
    if (!v)
        return NULL;
    v->causality = FMUC_CAUS_LOCAL;
    v->variability = FMUC_VAR_CONTINUOUS;
    v->line = p->line;
    p->sv_vr_seen = 0;
    return v;
}

void var_required(parser *p, const fmuc_md_var *v)
{
    if (!(v->has & FMUC_HAS_NAME))
        missing_attr(p, "name");
    if (!p->sv_vr_seen)
        missing_attr(p, "valueReference");
}

void second_type(parser *p, fmuc_md_var *v)
{
    v->has |= FMUC_HAS_SEVERAL_TYPES;
    ISSUE(p, FMUC_ISSUE_ELEMENT_ORDER, NULL, NULL,
          "variable %u \"%s\": a second type element <%s> at line %u (exactly one allowed)",
          (unsigned)p->md->nvars, v->name ? v->name : "?", p->elem, p->line);
}

/* ---- extra records (FMI 1.0 and 3.0) ---- */

fmuc_md_var_ext *ext_of_last(parser *p)
{
    fmuc_md *md = p->md;
    uint32_t i = (uint32_t)(md->nvars - 1);
    if (md->nexts && md->exts[md->nexts - 1].var == i)
        return &md->exts[md->nexts - 1];
    fmuc_md_var_ext *e = append(p, (void **)&md->exts, &p->cap_exts, &md->nexts, sizeof *e);
    if (!e)
        return NULL;
    e->var = i;
    md->vars[i].ext = 1;
    return e;
}

void *ext_push(parser *p, void **arr, uint32_t *n, size_t elsz)
{
    size_t cnt = *n, cap = 0;
    if (cnt) /* the capacity grow() gave: 8, 16, 32 ... */
        for (cap = 8; cap < cnt; cap *= 2)
            ;
    void *e = append(p, arr, &cap, &cnt, elsz);
    if (e)
        *n = (uint32_t)cnt;
    return e;
}

/* ---- ModelStructure (FMI 2.0 §2.2.8, FMI 3.0 §2.4.8) ---- */

uint32_t *u32_list(parser *p, const char *attr, const char *v, uint32_t *count)
{
    size_t cnt = count_tokens(v);
    if (cnt > UINT32_MAX)
        cnt = UINT32_MAX;
    uint32_t *d = cnt ? fmuc_md__arena_alloc(p->ar, cnt * sizeof *d, sizeof *d) : NULL;
    if (cnt && !d) {
        p->oom = 1;
        return NULL;
    }
    const char *s = v;
    char tok[64];
    int trunc, bad = 0;
    size_t i = 0;
    while (i < cnt && next_token(&s, tok, sizeof tok, &trunc)) {
        uint32_t x = 0;
        if ((trunc || fmuc_md__parse_uint32(tok, &x) < 0) && !bad++) {
            char b[80];
            ISSUE(p, FMUC_ISSUE_ATTR_SYNTAX, attr, v,
                  "%s at line %u: attribute %s=\"%s\" has the item \"%s\" that is not a valid "
                  "xs:unsignedInt",
                  p->elem, p->line, attr, shorten(b, v), tok);
        }
        d[i++] = x;
    }
    *count = (uint32_t)i;
    return d;
}

uint8_t *depkind_list(parser *p, const char *attr, const char *v, uint32_t *count)
{
    size_t cnt = count_tokens(v);
    if (cnt > UINT32_MAX)
        cnt = UINT32_MAX;
    uint8_t *d = cnt ? fmuc_md__arena_alloc(p->ar, cnt, 1) : NULL;
    if (cnt && !d) {
        p->oom = 1;
        return NULL;
    }
    const char *s = v;
    char tok[64];
    int trunc, bad = 0;
    size_t i = 0;
    while (i < cnt && next_token(&s, tok, sizeof tok, &trunc)) {
        int k = trunc ? -1 : lookup(tok, depkind_names, 5);
        if (k < 0 && !bad++) {
            char b[80];
            ISSUE(p, FMUC_ISSUE_ATTR_SYNTAX, attr, v,
                  "%s at line %u: attribute dependenciesKind=\"%s\" has the item \"%s\" that "
                  "is not one of dependent, constant, fixed, tunable, discrete",
                  p->elem, p->line, shorten(b, v), tok);
        }
        d[i++] = (uint8_t)(k < 0 ? FMUC_DEPKIND_INVALID : k);
    }
    *count = (uint32_t)i;
    return d;
}
