/* The FMI 1.0 element parser (FMI 1.0 ME/CS schemas fmiModelDescription.xsd and
 * fmiImplementation.xsd; ../shared/fmi1-rules.md part B): fills the version-neutral fmuc_md.
 * The root carries modelIdentifier, guid, numberOfContinuousStates and numberOfEventIndicators;
 * variables are ScalarVariables with alias/negatedAlias and DirectDependency; an Implementation
 * element (CoSimulation_StandAlone or CoSimulation_Tool with Capabilities) makes the FMU a
 * Co-Simulation FMU, without it it is a Model Exchange FMU. Mapping onto the model: causality
 * internal -> LOCAL, none -> NONE; variability parameter -> FIXED (an internal parameter gets
 * causality PARAMETER); enumeration items are numbered 1, 2, ... in order (1.0 has no value). */
#include "md_parse_internal.h"

typedef enum {
    S1_ROOT = 1, S1_UNITDEFS, S1_BASEUNIT, S1_TYPEDEFS, S1_TYPE, S1_ENUMTYPE, S1_MODELVARS, S1_SV,
    S1_DIRECTDEP, S1_NAME, S1_IMPL, S1_COSIM, S1_LEAF, S1_SKIP
} state1;

static const char *const caus1[] = {"input", "output", "internal", "none"};
static const char *const var1[] = {"constant", "parameter", "discrete", "continuous"};
static const char *const alias1[] = {"noAlias", "alias", "negatedAlias"};
static const char *const types1[] = {"Real", "Integer", "Boolean", "String", "Enumeration"};

static fmuc_md_var_ext *ext_of_last(parser *p)
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

static int a_root(parser *p, const char *n, const char *v, void *obj)
{
    fmuc_md *md = p->md;
    unsigned *seen = obj;
    if (strcmp(n, "fmiVersion") == 0)
        md->fmi_version = dup(p, v), *seen |= 1;
    else if (strcmp(n, "modelName") == 0)
        md->model_name = dup(p, v), *seen |= 2;
    else if (strcmp(n, "modelIdentifier") == 0)
        md->fmi1_model_identifier = dup(p, v), *seen |= 4;
    else if (strcmp(n, "guid") == 0)
        md->guid = dup(p, v), *seen |= 8;
    else if (strcmp(n, "description") == 0)
        md->description = dup(p, v);
    else if (strcmp(n, "author") == 0)
        md->author = dup(p, v);
    else if (strcmp(n, "version") == 0)
        md->version = dup(p, v);
    else if (strcmp(n, "generationTool") == 0)
        md->generation_tool = dup(p, v);
    else if (strcmp(n, "generationDateAndTime") == 0)
        md->generation_date_and_time = dup(p, v);
    else if (strcmp(n, "variableNamingConvention") == 0) {
        static const char *const conv[] = {"flat", "structured"};
        md->variable_naming_convention = dup(p, v);
        attr_enum(p, n, v, conv, 2);
    } else if (strcmp(n, "numberOfContinuousStates") == 0) {
        md->has_number_of_continuous_states = 1;
        if (attr_uint(p, n, v, &md->number_of_continuous_states) < 0)
            md->number_of_continuous_states = 0;
    } else if (strcmp(n, "numberOfEventIndicators") == 0) {
        md->has_number_of_event_indicators = 1;
        if (attr_uint(p, n, v, &md->number_of_event_indicators) < 0)
            md->number_of_event_indicators = 0;
    } else
        return 0;
    return 1;
}

static int a_caps(parser *p, const char *n, const char *v, void *obj)
{
    fmuc_md_interface *itf = obj;
    if (strcmp(n, "maxOutputDerivativeOrder") == 0) {
        itf->has_max_output_derivative_order = 1;
        if (attr_uint(p, n, v, &itf->max_output_derivative_order) < 0)
            itf->max_output_derivative_order = 0;
        return 1;
    }
    for (int k = 0; k < FMUC_CAP_COUNT; k++) {
        const char *a = fmuc_md_cap_attr((fmuc_cap)k, 1);
        if (!a || strcmp(n, a) != 0)
            continue;
        itf->caps_explicit |= 1u << k;
        int b = 0;
        if (attr_bool(p, n, v, &b) == 0 && b)
            itf->caps |= 1u << k;
        return 1;
    }
    return 0;
}

static int a_model(parser *p, const char *n, const char *v, void *obj)
{
    fmuc_md_interface *itf = obj;
    if (strcmp(n, "entryPoint") == 0)
        itf->fmi1_entry_point = dup(p, v);
    else if (strcmp(n, "manualStart") == 0 || strcmp(n, "type") == 0)
        ;
    else
        return 0;
    return 1;
}

static int a_defexp(parser *p, const char *n, const char *v, void *obj)
{
    fmuc_md_experiment *e = obj;
    if (strcmp(n, "startTime") == 0)
        e->has_start = 1, e->start_time = attr_double(p, n, v);
    else if (strcmp(n, "stopTime") == 0)
        e->has_stop = 1, e->stop_time = attr_double(p, n, v);
    else if (strcmp(n, "tolerance") == 0)
        e->has_tolerance = 1, e->tolerance = attr_double(p, n, v);
    else
        return 0;
    return 1;
}

static int a_baseunit(parser *p, const char *n, const char *v, void *obj)
{
    fmuc_md_unit *u = obj;
    if (strcmp(n, "unit") != 0)
        return 0;
    u->name = dup(p, v);
    return 1;
}

static int a_dispunit(parser *p, const char *n, const char *v, void *obj)
{
    fmuc_md_display_unit *du = obj;
    if (strcmp(n, "displayUnit") == 0)
        du->name = dup(p, v);
    else if (strcmp(n, "gain") == 0)
        du->factor = attr_double(p, n, v);
    else if (strcmp(n, "offset") == 0)
        du->offset = attr_double(p, n, v);
    else
        return 0;
    return 1;
}

static int a_name_desc(parser *p, const char *n, const char *v, void *obj)
{
    const char **nd = obj;
    if (strcmp(n, "name") == 0)
        nd[0] = dup(p, v);
    else if (strcmp(n, "description") == 0)
        nd[1] = dup(p, v);
    else
        return 0;
    return 1;
}

/* attributes of a type element of a Type (RealType ...) */
static int a_typeattr(parser *p, const char *n, const char *v, void *obj)
{
    fmuc_md_type *t = obj;
    int b;
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
    else if (strcmp(n, "relativeQuantity") == 0) {
        t->has |= FMUC_HAS_RELATIVE_QUANTITY;
        if (attr_bool(p, n, v, &b) == 0 && b)
            t->flags |= FMUC_FLAG_RELATIVE_QUANTITY;
    } else
        return 0;
    return 1;
}

typedef struct sv1 {
    fmuc_md_var *v;
    int caus_given, var_param;
} sv1;

static int a_sv(parser *p, const char *n, const char *v, void *obj)
{
    sv1 *c = obj;
    fmuc_md_var *var = c->v;
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
        k = attr_enum(p, n, v, caus1, 4);
        var->causality = k < 0   ? FMUC_CAUS_INVALID
                         : k == 0 ? FMUC_CAUS_INPUT
                         : k == 1 ? FMUC_CAUS_OUTPUT
                         : k == 2 ? FMUC_CAUS_LOCAL
                                  : FMUC_CAUS_NONE;
    } else if (strcmp(n, "variability") == 0) {
        var->has |= FMUC_HAS_VARIABILITY;
        k = attr_enum(p, n, v, var1, 4);
        c->var_param = k == 1;
        var->variability = k < 0   ? FMUC_VAR_INVALID
                           : k == 0 ? FMUC_VAR_CONSTANT
                           : k == 1 ? FMUC_VAR_FIXED
                           : k == 2 ? FMUC_VAR_DISCRETE
                                    : FMUC_VAR_CONTINUOUS;
    } else if (strcmp(n, "alias") == 0) {
        k = attr_enum(p, n, v, alias1, 3);
        fmuc_md_var_ext *e;
        if (k > 0 && (e = ext_of_last(p)))
            e->alias_kind = (uint8_t)k;
    } else
        return 0;
    return 1;
}

static int a_svtype(parser *p, const char *n, const char *v, void *obj)
{
    fmuc_md_var *var = obj;
    int b;
    int t = var->type;
    if (strcmp(n, "declaredType") == 0) {
        var->declared_type = dup_i(p, v);
        var->has |= FMUC_HAS_DECLARED_TYPE;
    } else if (strcmp(n, "start") == 0) {
        var->start_text = dup_i(p, v);
        var->has |= FMUC_HAS_START;
        if (t == FMUC_TYPE_REAL)
            var->start = attr_double(p, n, v);
        else if (t == FMUC_TYPE_INTEGER || t == FMUC_TYPE_ENUMERATION) {
            int32_t i;
            var->start = attr_int(p, n, v, &i) == 0 ? (double)i : NAN;
        } else if (t == FMUC_TYPE_BOOLEAN)
            var->start = attr_bool(p, n, v, &b) == 0 ? (double)b : NAN;
    } else if (strcmp(n, "fixed") == 0) {
        attr_bool(p, n, v, &b);
    } else if (t != FMUC_TYPE_BOOLEAN && t != FMUC_TYPE_STRING &&
               (strcmp(n, "min") == 0 || strcmp(n, "max") == 0 || strcmp(n, "quantity") == 0)) {
        if (n[0] == 'q') {
            var->quantity = dup_i(p, v);
            var->has |= FMUC_HAS_QUANTITY;
        } else {
            double d = attr_double(p, n, v);
            if (n[1] == 'i')
                var->min = d, var->has |= FMUC_HAS_MIN;
            else
                var->max = d, var->has |= FMUC_HAS_MAX;
        }
    } else if (t == FMUC_TYPE_REAL && strcmp(n, "unit") == 0) {
        var->unit = dup_i(p, v);
        var->has |= FMUC_HAS_UNIT;
    } else if (t == FMUC_TYPE_REAL && strcmp(n, "displayUnit") == 0) {
        var->display_unit = dup_i(p, v);
        var->has |= FMUC_HAS_DISPLAY_UNIT;
    } else if (t == FMUC_TYPE_REAL && strcmp(n, "nominal") == 0) {
        var->nominal = attr_double(p, n, v);
        var->has |= FMUC_HAS_NOMINAL;
    } else if (t == FMUC_TYPE_REAL && strcmp(n, "relativeQuantity") == 0) {
        var->has |= FMUC_HAS_RELATIVE_QUANTITY;
        if (attr_bool(p, n, v, &b) == 0 && b)
            var->flags |= FMUC_FLAG_RELATIVE_QUANTITY;
    } else
        return 0;
    return 1;
}

static void start_sv(parser *p)
{
    fmuc_md *md = p->md;
    if (md->nvars >= p->lim.max_variables) {
        ISSUE(p, FMUC_ISSUE_LIMIT, NULL, NULL,
              "more than %zu ScalarVariables: parse stopped at line %u", p->lim.max_variables,
              p->line);
        p->stop = 1;
        md->parse_stopped = 1;
        return;
    }
    fmuc_md_var *v = append(p, (void **)&md->vars, &p->cap_vars, &md->nvars, sizeof *v);
    if (!v)
        return;
    v->causality = FMUC_CAUS_LOCAL; /* internal */
    v->variability = FMUC_VAR_CONTINUOUS;
    v->line = p->line;
    p->sv_vr_seen = 0;
    sv1 c = {v, 0, 0};
    for_attrs(p, a_sv, &c);
    /* an internal parameter is FMI 2.0's parameter */
    if (c.var_param && v->causality == FMUC_CAUS_LOCAL)
        v->causality = FMUC_CAUS_PARAMETER;
    if (!(v->has & FMUC_HAS_NAME))
        missing_attr(p, "name");
    if (!p->sv_vr_seen)
        missing_attr(p, "valueReference");
    push(p, S1_SV, 0);
}

static void start_element(parser *p)
{
    fmuc_md *md = p->md;
    const char *e = p->elem;
    if (p->depth == 0) {
        p->root_seen = 1;
        md->root_name = dup_n(p, e, MAX_NAME_COPY);
        md->root_line = p->line;
        if (strcmp(e, "fmiModelDescription") != 0) {
            ISSUE(p, FMUC_ISSUE_ELEMENT_UNKNOWN, NULL, NULL,
                  "the root element is <%s> at line %u, expected <fmiModelDescription>", e,
                  p->line);
            push(p, S1_SKIP, 0);
            return;
        }
        unsigned seen = 0;
        for_attrs(p, a_root, &seen);
        if (!(seen & 1))
            missing_attr(p, "fmiVersion");
        if (!(seen & 2))
            missing_attr(p, "modelName");
        if (!(seen & 4))
            missing_attr(p, "modelIdentifier");
        if (!(seen & 8))
            missing_attr(p, "guid");
        push(p, S1_ROOT, 0);
        return;
    }
    frame *f = &p->stack[p->depth - 1];
    f->nchild++;
    int k;
    switch ((state1)f->st) {
    case S1_ROOT: {
        static const char *const top1[] = {"UnitDefinitions", "TypeDefinitions",
                                           "DefaultExperiment", "VendorAnnotations",
                                           "ModelVariables", "Implementation"};
        k = lookup(e, top1, 6);
        if (grow(p, (void **)&md->children, &p->cap_children, md->nchildren + 1,
                 sizeof *md->children) == 0) {
            md->children[md->nchildren].name = dup_n(p, e, MAX_NAME_COPY);
            md->children[md->nchildren].line = p->line;
            md->nchildren++;
        }
        if (k < 0) {
            unknown_element(p, "fmiModelDescription");
            break;
        }
        if (child_order(p, f, "fmiModelDescription", k, 1))
            break;
        if (k == 0) {
            push(p, S1_UNITDEFS, 0);
        } else if (k == 1) {
            push(p, S1_TYPEDEFS, 0);
        } else if (k == 2) {
            md->experiment.present = 1;
            md->experiment.line = p->line;
            for_attrs(p, a_defexp, &md->experiment);
            push(p, S1_LEAF, 0);
        } else if (k == 3) {
            push(p, S1_SKIP, 0);
        } else if (k == 4) {
            md->has_model_variables = 1;
            push(p, S1_MODELVARS, 0);
        } else {
            push(p, S1_IMPL, 0);
        }
        return;
    }
    case S1_UNITDEFS:
        if (strcmp(e, "BaseUnit") == 0) {
            fmuc_md_unit *u = append(p, (void **)&md->units, &p->cap_units, &md->nunits, sizeof *u);
            if (!u)
                return;
            u->line = p->line;
            u->factor = 1.0;
            for_attrs(p, a_baseunit, u);
            if (!u->name)
                missing_attr(p, "unit");
            p->cap_disp = 0;
            push(p, S1_BASEUNIT, 0);
            return;
        }
        unknown_element(p, "UnitDefinitions");
        break;
    case S1_BASEUNIT:
        if (strcmp(e, "DisplayUnitDefinition") == 0) {
            fmuc_md_unit *u = &md->units[md->nunits - 1];
            fmuc_md_display_unit *du =
                append(p, (void **)&u->display, &p->cap_disp, &u->ndisplay, sizeof *du);
            if (!du)
                return;
            du->factor = 1.0;
            du->line = p->line;
            for_attrs(p, a_dispunit, du);
            push(p, S1_LEAF, 0);
            return;
        }
        unknown_element(p, "BaseUnit");
        break;
    case S1_TYPEDEFS:
        if (strcmp(e, "Type") == 0) {
            fmuc_md_type *t = append(p, (void **)&md->types, &p->cap_types, &md->ntypes, sizeof *t);
            if (!t)
                return;
            t->line = p->line;
            const char *nd[2] = {NULL, NULL};
            for_attrs(p, a_name_desc, nd);
            t->name = nd[0];
            t->description = nd[1];
            if (!t->name)
                missing_attr(p, "name");
            push(p, S1_TYPE, 0);
            return;
        }
        unknown_element(p, "TypeDefinitions");
        break;
    case S1_TYPE: {
        static const char *const tt[] = {"RealType", "IntegerType", "BooleanType", "StringType",
                                         "EnumerationType"};
        fmuc_md_type *t = &md->types[md->ntypes - 1];
        k = lookup(e, tt, 5);
        if (k >= 0) {
            if (t->ntypes < 255)
                t->ntypes++;
            t->type = (uint8_t)(k + 1);
            t->base = fmi2_base[k + 1];
            for_attrs(p, a_typeattr, t);
            p->cap_items = 0;
            push(p, k == 4 ? S1_ENUMTYPE : S1_LEAF, 0);
            return;
        }
        unknown_element(p, "Type");
        break;
    }
    case S1_ENUMTYPE:
        if (strcmp(e, "Item") == 0) {
            fmuc_md_type *t = &md->types[md->ntypes - 1];
            fmuc_md_item *it = append(p, (void **)&t->items, &p->cap_items, &t->nitems, sizeof *it);
            if (!it)
                return;
            it->line = p->line;
            it->value = (int)t->nitems; /* FMI 1.0: items are numbered from 1 in order */
            it->has_value = 1;
            const char *nd[2] = {NULL, NULL};
            for_attrs(p, a_name_desc, nd);
            it->name = nd[0];
            it->description = nd[1];
            if (!it->name)
                missing_attr(p, "name");
            push(p, S1_LEAF, 0);
            return;
        }
        unknown_element(p, "EnumerationType");
        break;
    case S1_MODELVARS:
        if (strcmp(e, "ScalarVariable") == 0) {
            start_sv(p);
            return;
        }
        unknown_element(p, "ModelVariables");
        break;
    case S1_SV: {
        fmuc_md_var *v = &md->vars[md->nvars - 1];
        k = lookup(e, types1, 5);
        if (k >= 0 && v->type == FMUC_TYPE_NONE) {
            v->type = (uint8_t)(k + 1);
            v->base = fmi2_base[k + 1];
            v->type_line = p->line;
            for_attrs(p, a_svtype, v);
            if (v->type == FMUC_TYPE_ENUMERATION && !(v->has & FMUC_HAS_DECLARED_TYPE))
                missing_attr(p, "declaredType");
            push(p, S1_LEAF, 0);
            return;
        }
        if (k >= 0) {
            v->has |= FMUC_HAS_SEVERAL_TYPES;
            ISSUE(p, FMUC_ISSUE_ELEMENT_ORDER, NULL, NULL,
                  "variable %u \"%s\": a second type element <%s> at line %u (exactly one "
                  "allowed)",
                  (unsigned)md->nvars, v->name ? v->name : "?", e, p->line);
            break;
        }
        if (strcmp(e, "DirectDependency") == 0) {
            fmuc_md_var_ext *x = ext_of_last(p);
            if (x)
                x->has_direct_dependency = 1;
            push(p, S1_DIRECTDEP, 0);
            return;
        }
        unknown_element(p, "ScalarVariable");
        break;
    }
    case S1_DIRECTDEP:
        if (strcmp(e, "Name") == 0) {
            push(p, S1_NAME, 0);
            return;
        }
        unknown_element(p, "DirectDependency");
        break;
    case S1_IMPL:
        if (strcmp(e, "CoSimulation_StandAlone") == 0 || strcmp(e, "CoSimulation_Tool") == 0) {
            if (md->cs.count++) {
                order_issue(p, "Implementation", 1);
                break;
            }
            md->cs.present = 1;
            md->cs.line = p->line;
            md->cs.fmi1_tool = e[13] == 'T';
            push(p, S1_COSIM, 0);
            return;
        }
        unknown_element(p, "Implementation");
        break;
    case S1_COSIM:
        if (strcmp(e, "Capabilities") == 0) {
            for_attrs(p, a_caps, &md->cs);
            push(p, S1_LEAF, 0);
            return;
        }
        if (strcmp(e, "Model") == 0 && md->cs.fmi1_tool) {
            for_attrs(p, a_model, &md->cs);
            push(p, S1_SKIP, 0); /* File children */
            return;
        }
        unknown_element(p, md->cs.fmi1_tool ? "CoSimulation_Tool" : "CoSimulation_StandAlone");
        break;
    case S1_NAME:
    case S1_LEAF:
        ISSUE(p, FMUC_ISSUE_ELEMENT_UNKNOWN, NULL, NULL,
              "element <%s> at line %u is not allowed here (the parent element has no child "
              "elements in the FMI 1.0 schema)",
              e, p->line);
        break;
    case S1_SKIP:
    default:
        break;
    }
    push(p, S1_SKIP, 0);
}

/* <Name> text inside DirectDependency: an input's name */
static void text(parser *p, const char *s)
{
    frame *f = &p->stack[p->depth - 1];
    if (f->st != S1_NAME)
        return;
    fmuc_md_var_ext *x = ext_of_last(p);
    if (!x)
        return;
    size_t cnt = x->ndirect, cap = 0;
    if (cnt)
        for (cap = 8; cap < cnt; cap *= 2)
            ;
    const char **slot = append(p, (void **)&x->direct, &cap, &cnt, sizeof *slot);
    if (!slot)
        return;
    x->ndirect = (uint32_t)cnt;
    size_t n = strlen(s); /* XML whitespace around the name is not part of it */
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\n' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    while (n && (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r'))
        s++, n--;
    *slot = fmuc_md__arena_strndup(p->ar, s, n);
    if (!*slot)
        p->oom = 1;
}

static void end_element(parser *p)
{
    frame *f = &p->stack[--p->depth];
    fmuc_md *md = p->md;
    if (f->st == S1_SV && md->vars[md->nvars - 1].type == FMUC_TYPE_NONE)
        issue_at(p, FMUC_ISSUE_ELEMENT_MISSING, f->line, "ScalarVariable", NULL, NULL,
                 "variable %u \"%s\" at line %u has no type element (Real, Integer, Boolean, "
                 "String or Enumeration)",
                 (unsigned)md->nvars, md->vars[md->nvars - 1].name ? md->vars[md->nvars - 1].name
                                                                   : "?",
                 f->line);
    if (f->st == S1_ROOT) {
        /* FMI 1.0: with an Implementation a Co-Simulation FMU, without a Model Exchange one;
         * the root's modelIdentifier names the functions of either */
        fmuc_md_interface *itf = md->cs.present ? &md->cs : &md->me;
        if (!md->cs.present) {
            itf->present = 1;
            itf->line = md->root_line;
        }
        itf->model_identifier = md->fmi1_model_identifier;
        md->has_model_structure = 1; /* FMI 1.0 has none; nothing is missing */
        if (!md->has_model_variables)
            issue_at(p, FMUC_ISSUE_ELEMENT_MISSING, f->line, "fmiModelDescription", NULL, NULL,
                     "<fmiModelDescription> has no <ModelVariables>");
    }
}

const fmuc_md__ops fmuc_md__fmi1_ops = {start_element, end_element, "FMI 1.0", text};
