/* The FMI 1.0 element parser (FMI 1.0 ME/CS schemas fmiModelDescription.xsd and
 * fmiImplementation.xsd; ../shared/fmi1-rules.md part B): fills the version-neutral fmuc_md.
 * The root carries modelIdentifier, guid, numberOfContinuousStates and numberOfEventIndicators;
 * variables are ScalarVariables with alias/negatedAlias and DirectDependency; an Implementation
 * element (CoSimulation_StandAlone or CoSimulation_Tool with Capabilities) makes the FMU a
 * Co-Simulation FMU, without it it is a Model Exchange FMU. Mapping onto the model: causality
 * internal -> LOCAL, none -> NONE; variability parameter -> FIXED (an internal parameter gets
 * causality PARAMETER); enumeration items are numbered 1, 2, ... in order (1.0 has no value);
 * the fixed attribute is kept in the variable's extra record. Reported as issues: the root's
 * required numberOfContinuousStates/numberOfEventIndicators, Implementation without
 * Capabilities (CoSimulation_Tool also without Model), Model@entryPoint/@type, File@file,
 * VendorAnnotations Tool@name and Annotation@name/@value. */
#include "md_parse_internal.h"

typedef enum {
    S1_ROOT = 1, S1_UNITDEFS, S1_BASEUNIT, S1_TYPEDEFS, S1_TYPE, S1_ENUMTYPE, S1_MODELVARS, S1_SV,
    S1_DIRECTDEP, S1_NAME, S1_IMPL, S1_COSIM, S1_LEAF, S1_SKIP, S1_VENDOR, S1_TOOL, S1_MODEL
} state1;

static const char *const alias1[] = {"noAlias", "alias", "negatedAlias"};
static const char *const types1[] = {"Real", "Integer", "Boolean", "String", "Enumeration"};

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
    else if (strcmp(n, "numberOfContinuousStates") == 0) {
        md->has_number_of_continuous_states = 1;
        md->number_of_continuous_states = attr_uint0(p, n, v);
    } else
        return a_root_info(p, n, v);
    return 1;
}

static int a_caps(parser *p, const char *n, const char *v, void *obj)
{
    fmuc_md_interface *itf = obj;
    if (strcmp(n, "maxOutputDerivativeOrder") == 0) {
        itf->has_max_output_derivative_order = 1;
        itf->max_output_derivative_order = attr_uint0(p, n, v);
        return 1;
    }
    return a_cap(p, n, v, itf, 0) > 0;
}

/* Model of CoSimulation_Tool: entryPoint and type are required (fmiImplementation.xsd) */
static int a_model(parser *p, const char *n, const char *v, void *obj)
{
    unsigned *seen = obj;
    int b;
    if (strcmp(n, "entryPoint") == 0) {
        p->md->cs.fmi1_entry_point = dup(p, v);
        *seen |= 1;
    } else if (strcmp(n, "type") == 0)
        *seen |= 2;
    else if (strcmp(n, "manualStart") == 0)
        attr_bool(p, n, v, &b);
    else
        return 0;
    return 1;
}

/* name and value pairs: Annotation (VendorAnnotations), bit 1 name, bit 2 value; File: file */
static int a_pair(parser *p, const char *n, const char *v, void *obj)
{
    (void)p;
    (void)v;
    unsigned *seen = obj;
    if (strcmp(n, "name") == 0)
        *seen |= 1;
    else if (strcmp(n, "value") == 0)
        *seen |= 2;
    else
        return 0;
    return 1;
}

static int a_file(parser *p, const char *n, const char *v, void *obj)
{
    (void)p;
    (void)v;
    if (strcmp(n, "file") != 0)
        return 0;
    *(unsigned *)obj |= 1;
    return 1;
}

static int a_tool(parser *p, const char *n, const char *v, void *obj)
{
    if (strcmp(n, "name") != 0)
        return 0;
    *(const char **)obj = dup(p, v);
    return 1;
}

static int a_unit1(parser *p, const char *n, const char *v, void *obj)
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

/* attributes of a type element of a Type (RealType ...) */
static int a_typeattr(parser *p, const char *n, const char *v, void *obj)
{
    return a_type_real(p, n, v, obj);
}

static int a_sv(parser *p, const char *n, const char *v, void *obj)
{
    fmuc_md_var *var = obj;
    int k;
    if (a_var_common(p, n, v, var)) {
        ;
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
        fmuc_md_var_ext *e;
        if (attr_bool(p, n, v, &b) == 0 && (e = ext_of_last(p)))
            e->fmi1_fixed = b ? 2 : 1;
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
    } else if (t == FMUC_TYPE_REAL && a_var_real(p, n, v, var)) {
        ;
    } else
        return 0;
    return 1;
}

static void start_sv(parser *p)
{
    fmuc_md_var *v = start_var_common(p);
    if (!v)
        return;
    for_attrs(p, a_sv, v);
    /* an internal parameter is FMI 2.0's parameter */
    if (v->variability == FMUC_VAR_FIXED && v->causality == FMUC_CAUS_LOCAL)
        v->causality = FMUC_CAUS_PARAMETER;
    var_required(p, v);
    push(p, S1_SV, 0);
}

static void start_element(parser *p)
{
    fmuc_md *md = p->md;
    const char *e = p->elem;
    if (p->depth == 0) {
        if (start_root(p) < 0) {
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
        if (!md->has_number_of_continuous_states)
            missing_attr(p, "numberOfContinuousStates");
        if (!md->has_number_of_event_indicators)
            missing_attr(p, "numberOfEventIndicators");
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
        note_root_child(p);
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
            start_defexp(p);
            push(p, S1_LEAF, 0);
        } else if (k == 3) {
            push(p, S1_VENDOR, 0);
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
            for_attrs(p, a_unit1, u);
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
            if (!start_named_type(p))
                return;
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
            second_type(p, v);
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
    case S1_COSIM: {
        const char *el = md->cs.fmi1_tool ? "CoSimulation_Tool" : "CoSimulation_StandAlone";
        if (strcmp(e, "Capabilities") == 0) {
            if (child_order(p, f, el, 0, 1))
                break;
            for_attrs(p, a_caps, &md->cs);
            push(p, S1_LEAF, 0);
            return;
        }
        if (strcmp(e, "Model") == 0 && md->cs.fmi1_tool) {
            if (child_order(p, f, el, 1, 1))
                break;
            unsigned seen = 0;
            for_attrs(p, a_model, &seen);
            if (!(seen & 1))
                missing_attr(p, "entryPoint");
            if (!(seen & 2))
                missing_attr(p, "type");
            push(p, S1_MODEL, 0);
            return;
        }
        unknown_element(p, el);
        break;
    }
    case S1_MODEL:
        if (strcmp(e, "File") == 0) {
            unsigned seen = 0;
            for_attrs(p, a_file, &seen);
            if (!seen)
                missing_attr(p, "file");
            push(p, S1_LEAF, 0);
            return;
        }
        unknown_element(p, "Model");
        break;
    case S1_VENDOR:
        if (strcmp(e, "Tool") == 0) {
            size_t cap = p->cap_tools;
            if (grow(p, (void **)&md->tools, &p->cap_tools, md->ntools + 1, sizeof *md->tools) < 0)
                return;
            if (grow(p, (void **)&md->tool_lines, &cap, md->ntools + 1, sizeof *md->tool_lines) < 0)
                return;
            const char *name = NULL;
            for_attrs(p, a_tool, &name);
            if (!name)
                missing_attr(p, "name");
            md->tools[md->ntools] = name ? name : dup(p, "");
            md->tool_lines[md->ntools] = p->line;
            md->ntools++;
            push(p, S1_TOOL, 0);
            return;
        }
        unknown_element(p, "VendorAnnotations");
        break;
    case S1_TOOL:
        if (strcmp(e, "Annotation") == 0) {
            unsigned seen = 0;
            for_attrs(p, a_pair, &seen);
            if (!(seen & 1))
                missing_attr(p, "name");
            if (!(seen & 2))
                missing_attr(p, "value");
            push(p, S1_LEAF, 0);
            return;
        }
        unknown_element(p, "Tool");
        break;
    case S1_NAME:
    case S1_LEAF:
        leaf_child(p);
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
    const char **slot = ext_push(p, (void **)&x->direct, &x->ndirect, sizeof *slot);
    if (!slot)
        return;
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
    if (f->st == S1_COSIM) {
        /* fmiImplementation.xsd: Capabilities required, CoSimulation_Tool also Model */
        const char *el = md->cs.fmi1_tool ? "CoSimulation_Tool" : "CoSimulation_StandAlone";
        if (!(f->seen & 1u))
            issue_at(p, FMUC_ISSUE_ELEMENT_MISSING, f->line, el, NULL, NULL,
                     "<%s> at line %u has no <Capabilities> (required)", el, f->line);
        if (md->cs.fmi1_tool && !(f->seen & 2u))
            issue_at(p, FMUC_ISSUE_ELEMENT_MISSING, f->line, el, NULL, NULL,
                     "<CoSimulation_Tool> at line %u has no <Model> (required: the tool's entry "
                     "point and type)", f->line);
    }
    if (f->st == S1_IMPL && f->nchild == 0)
        issue_at(p, FMUC_ISSUE_ELEMENT_MISSING, f->line, "Implementation", NULL, NULL,
                 "<Implementation> at line %u has neither <CoSimulation_StandAlone> nor "
                 "<CoSimulation_Tool>", f->line);
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
        end_root(p, f);
    }
}

const fmuc_md__ops fmuc_md__fmi1_ops = {start_element, end_element, "FMI 1.0", text, 1};
