/* The FMI 2.0 element parser (FMI 2.0 §2.2, XSD fmi2ModelDescription.xsd): fills fmuc_md from
 * the elements the streaming core (md_parse.c) hands over. */
#include "md_parse_internal.h"

/* Element states (what the element on the stack is) */
typedef enum {
    S_DOC, S_ROOT, S_IFACE, S_SRCFILES, S_LEAF, S_UNITDEFS, S_UNIT, S_TYPEDEFS, S_STYPE,
    S_STYPE_ENUM, S_LOGCATS, S_VENDOR, S_SKIP, S_MODELVARS, S_SV, S_SV_ANNOT, S_MODELSTRUCT,
    S_UNKLIST
} state;

/* Leaf / list kinds used to finish an element */
typedef enum {
    K_NONE, K_ME, K_CS, K_UNITDEFS, K_TYPEDEFS, K_LOGCATS, K_VENDOR, K_MODELVARS, K_MODELSTRUCT,
    K_SRCFILES, K_UNIT, K_STYPE, K_ENUM, K_SV, K_SV_ANNOT, K_OUTPUTS, K_DERIVS, K_INITS
} elem_kind;

/* ---------------------------------------------------------------------------------------- */
/* attribute handlers */

enum { R_A = 1u << 0, R_B = 1u << 1, R_C = 1u << 2 };

typedef struct req {
    unsigned seen;
} req;

static int a_root(parser *p, const char *n, const char *v, void *obj)
{
    fmuc_md *md = p->md;
    req *q = obj;
    if (strcmp(n, "fmiVersion") == 0)
        md->fmi_version = dup(p, v), q->seen |= R_A;
    else if (strcmp(n, "modelName") == 0)
        md->model_name = dup(p, v), q->seen |= R_B;
    else if (strcmp(n, "guid") == 0)
        md->guid = dup(p, v), q->seen |= R_C;
    else
        return a_root_info(p, n, v);
    return 1;
}

typedef struct iface_ctx {
    fmuc_md_interface *itf;
    int cs;
    req q;
} iface_ctx;

static int a_iface(parser *p, const char *n, const char *v, void *obj)
{
    iface_ctx *c = obj;
    if (strcmp(n, "modelIdentifier") == 0) {
        c->itf->model_identifier = dup(p, v);
        c->q.seen |= R_A;
        return 1;
    }
    if (c->cs && strcmp(n, "maxOutputDerivativeOrder") == 0) {
        c->itf->has_max_output_derivative_order = 1;
        c->itf->max_output_derivative_order = attr_uint0(p, n, v);
        return 1;
    }
    return a_cap(p, n, v, c->itf, c->cs ? FMUC_IF_CS : FMUC_IF_ME) > 0;
}

static int a_name_only(parser *p, const char *n, const char *v, void *obj)
{
    struct {
        const char *name;
        req q;
    } *c = obj;
    if (strcmp(n, "name") == 0) {
        c->name = dup(p, v);
        c->q.seen |= R_A;
        return 1;
    }
    return 0;
}

/* The attributes of an element that has a required name only (File, Tool): the name. */
static const char *read_name(parser *p)
{
    struct {
        const char *name;
        req q;
    } c = {NULL, {0}};
    for_attrs(p, a_name_only, &c);
    if (!(c.q.seen & R_A))
        missing_attr(p, "name");
    return c.name;
}

/* Attributes shared by SimpleType type elements and ScalarVariable type elements. */
typedef struct tattr {
    uint8_t type;
    int in_var;
    const char **quantity, **unit, **display_unit, **declared_type;
    double *min, *max, *nominal;
    uint32_t *has;
    uint8_t *flags;
    fmuc_md_var *var; /* in_var */
    uint32_t var_has; /* in_var: bits collected here, then or-ed into the variable's bit-fields */
    uint8_t var_flags;
    req q;
} tattr;

/* the presence and flag bits of the variable (bit-fields) or of the SimpleType */
#define T_HAS(t) (*((t)->in_var ? &(t)->var_has : (t)->has))
#define T_FLAGS(t) (*((t)->in_var ? &(t)->var_flags : (t)->flags))

static int a_type(parser *p, const char *n, const char *v, void *obj)
{
    tattr *t = obj;
    int real = t->type == FMUC_TYPE_REAL, integer = t->type == FMUC_TYPE_INTEGER,
        en = t->type == FMUC_TYPE_ENUMERATION;
    int b;
    if (t->in_var && strcmp(n, "declaredType") == 0) {
        *t->declared_type = dup_i(p, v);
        T_HAS(t) |= FMUC_HAS_DECLARED_TYPE;
        t->q.seen |= R_A;
    } else if (t->in_var && strcmp(n, "start") == 0) {
        fmuc_md_var *var = t->var;
        var->start_text = dup_i(p, v);
        var->has |= FMUC_HAS_START;
        if (real) {
            var->start = attr_double(p, n, v);
        } else if (integer || en) {
            int32_t i;
            var->start = attr_int(p, n, v, &i) == 0 ? (double)i : NAN;
        } else if (t->type == FMUC_TYPE_BOOLEAN) {
            var->start = attr_bool(p, n, v, &b) == 0 ? (double)b : NAN;
        }
    } else if ((real || integer || en) && strcmp(n, "quantity") == 0) {
        *t->quantity = dup_i(p, v);
        T_HAS(t) |= FMUC_HAS_QUANTITY;
    } else if ((real || integer || (en && t->in_var)) &&
               (strcmp(n, "min") == 0 || strcmp(n, "max") == 0)) {
        int ismin = n[1] == 'i';
        double d;
        if (real) {
            d = attr_double(p, n, v);
        } else {
            int32_t i;
            d = attr_int(p, n, v, &i) == 0 ? (double)i : NAN;
        }
        *(ismin ? t->min : t->max) = d;
        T_HAS(t) |= ismin ? FMUC_HAS_MIN : FMUC_HAS_MAX;
    } else if (real && strcmp(n, "unit") == 0) {
        *t->unit = dup_i(p, v);
        T_HAS(t) |= FMUC_HAS_UNIT;
    } else if (real && strcmp(n, "displayUnit") == 0) {
        *t->display_unit = dup_i(p, v);
        T_HAS(t) |= FMUC_HAS_DISPLAY_UNIT;
    } else if (real && strcmp(n, "nominal") == 0) {
        *t->nominal = attr_double(p, n, v);
        T_HAS(t) |= FMUC_HAS_NOMINAL;
    } else if (real && a_flag(p, n, v, t->in_var ? FLAG_ON_REAL_VAR : FLAG_ON_REAL_TYPE,
                              &T_HAS(t), &T_FLAGS(t))) {
        /* relativeQuantity, unbounded, reinit (variable) */
    } else if (real && t->in_var && strcmp(n, "derivative") == 0) {
        fmuc_md_var *var = t->var;
        var->has |= FMUC_HAS_DERIVATIVE;
        var->derivative = attr_uint0(p, n, v);
    } else {
        return 0;
    }
    return 1;
}

static int a_item(parser *p, const char *n, const char *v, void *obj)
{
    struct {
        fmuc_md_item *it;
        req q;
    } *c = obj;
    if (strcmp(n, "name") == 0)
        c->it->name = dup(p, v), c->q.seen |= R_A;
    else if (strcmp(n, "description") == 0)
        c->it->description = dup(p, v);
    else if (strcmp(n, "value") == 0) {
        c->q.seen |= R_B;
        int32_t i;
        if (attr_int(p, n, v, &i) == 0)
            c->it->value = i, c->it->has_value = 1;
    } else
        return 0;
    return 1;
}

static int a_sv(parser *p, const char *n, const char *v, void *obj)
{
    return a_var_common(p, n, v, obj);
}

static int a_unknown(parser *p, const char *n, const char *v, void *obj)
{
    struct {
        fmuc_md_unknown *u;
        req q;
    } *c = obj;
    fmuc_md_unknown *u = c->u;
    if (strcmp(n, "index") == 0) {
        c->q.seen |= R_A;
        u->index = attr_uint0(p, n, v);
    } else if (strcmp(n, "dependencies") == 0) {
        u->has_deps = 1;
        u->deps = u32_list(p, n, v, &u->ndeps);
    } else if (strcmp(n, "dependenciesKind") == 0) {
        u->has_kinds = 1;
        u->kinds = depkind_list(p, n, v, &u->nkinds);
    } else {
        return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------------------------------- */
/* elements */

static const char *top_names[] = {"ModelExchange",     "CoSimulation",  "UnitDefinitions",
                                  "TypeDefinitions",   "LogCategories", "DefaultExperiment",
                                  "VendorAnnotations", "ModelVariables", "ModelStructure"};

static void start_root_child(parser *p, frame *f)
{
    fmuc_md *md = p->md;
    const char *e = p->elem;
    int idx = lookup(e, top_names, 9);
    note_root_child(p);
    if (idx < 0) {
        unknown_element(p, "fmiModelDescription");
        push(p, S_SKIP, K_NONE);
        return;
    }
    /* ranks: ME/CS 0 (each once, either order), then one rank per element */
    int rank = idx <= 1 ? 0 : idx - 1;
    int rep = 0;
    if (idx <= 1) {
        fmuc_md_interface *itf = idx == 0 ? &md->me : &md->cs;
        itf->count++;
        if (rank < f->last_rank)
            order_issue(p, "fmiModelDescription", 0);
        if (rank > f->last_rank)
            f->last_rank = (int8_t)rank;
        if (itf->count > 1) {
            order_issue(p, "fmiModelDescription", 1);
            rep = 1;
        }
    } else {
        rep = child_order(p, f, "fmiModelDescription", rank, 1);
    }
    if (rep) {
        push(p, S_SKIP, K_NONE);
        return;
    }
    switch (idx) {
    case 0:
    case 1: {
        iface_ctx c = {idx == 0 ? &md->me : &md->cs, idx == 1, {0}};
        c.itf->present = 1;
        c.itf->line = p->line;
        for_attrs(p, a_iface, &c);
        if (!(c.q.seen & R_A))
            missing_attr(p, "modelIdentifier");
        push(p, S_IFACE, idx == 0 ? K_ME : K_CS);
        break;
    }
    default: {
        static const uint8_t next[9][2] = {
            [2] = {S_UNITDEFS, K_UNITDEFS}, [3] = {S_TYPEDEFS, K_TYPEDEFS},
            [4] = {S_LOGCATS, K_LOGCATS},   [5] = {S_LEAF, K_NONE},
            [6] = {S_VENDOR, K_VENDOR},     [7] = {S_MODELVARS, K_MODELVARS},
            [8] = {S_MODELSTRUCT, K_MODELSTRUCT}};
        start_root_section(p);
        push(p, next[idx][0], next[idx][1]);
        break;
    }
    }
}

/* name the variable in the messages of the issues from mark on */
static void name_issues(parser *p, const fmuc_md_var *v, size_t mark)
{
    fmuc_md *md = p->md;
    for (size_t i = mark; i < md->nissues; i++) {
        char buf[1024];
        snprintf(buf, sizeof buf, "variable %u \"%s\" (valueReference %u): %s",
                 (unsigned)md->nvars, v->name ? v->name : "?", v->value_reference,
                 md->issues[i].message ? md->issues[i].message : "");
        md->issues[i].message = dup(p, buf);
    }
}

static void start_sv(parser *p)
{
    size_t mark = p->md->nissues;
    fmuc_md_var *v = start_var_common(p);
    if (!v)
        return;
    for_attrs(p, a_sv, v);
    var_required(p, v);
    name_issues(p, v, mark);
    push(p, S_SV, K_SV);
}

static void start_sv_child(parser *p, frame *f)
{
    fmuc_md *md = p->md;
    fmuc_md_var *v = &md->vars[md->nvars - 1];
    const char *e = p->elem;
    if (strcmp(e, "Annotations") == 0) {
        if (child_order(p, f, "ScalarVariable", 1, 1)) {
            push(p, S_SKIP, K_NONE);
            return;
        }
        for_attrs(p, a_none, NULL);
        push(p, S_SV_ANNOT, K_SV_ANNOT);
        return;
    }
    int t = lookup(e, type_names + 1, 5);
    if (t < 0) {
        unknown_element(p, "ScalarVariable");
        push(p, S_SKIP, K_NONE);
        return;
    }
    if (f->last_rank >= 1)
        order_issue(p, "ScalarVariable", 0);
    if (f->seen & 1u) {
        second_type(p, v);
        push(p, S_SKIP, K_NONE);
        return;
    }
    f->seen |= 1u;
    if (f->last_rank < 0)
        f->last_rank = 0;
    v->type = (uint8_t)(t + 1);
    v->base = fmi2_base[t + 1];
    v->type_line = p->line;
    tattr ta = {.type = v->type, .in_var = 1, .quantity = &v->quantity, .unit = &v->unit,
                .display_unit = &v->display_unit, .declared_type = &v->declared_type,
                .min = &v->min, .max = &v->max, .nominal = &v->nominal, .var = v};
    size_t mark = md->nissues;
    for_attrs(p, a_type, &ta);
    v->has |= ta.var_has;
    v->flags |= ta.var_flags;
    if (v->type == FMUC_TYPE_ENUMERATION && !(ta.q.seen & R_A))
        missing_attr(p, "declaredType");
    name_issues(p, v, mark);
    push(p, S_LEAF, K_NONE);
}

static void start_stype_child(parser *p, frame *f)
{
    fmuc_md *md = p->md;
    fmuc_md_type *ty = &md->types[md->ntypes - 1];
    int t = lookup(p->elem, type_names + 1, 5);
    if (t < 0) {
        unknown_element(p, "SimpleType");
        push(p, S_SKIP, K_NONE);
        return;
    }
    f->nchild++; /* counted here: nchild is the type-element count */
    if (ty->ntypes < 255)
        ty->ntypes++;
    if (ty->ntypes > 1) {
        ISSUE(p, FMUC_ISSUE_ELEMENT_ORDER, NULL, NULL,
              "SimpleType \"%s\": a second type element <%s> at line %u (exactly one allowed)",
              ty->name ? ty->name : "?", p->elem, p->line);
        ty->type = FMUC_TYPE_NONE;
        push(p, S_SKIP, K_NONE);
        return;
    }
    ty->type = (uint8_t)(t + 1);
    ty->base = fmi2_base[t + 1];
    tattr ta = {.type = ty->type, .in_var = 0, .quantity = &ty->quantity, .unit = &ty->unit,
                .display_unit = &ty->display_unit, .min = &ty->min, .max = &ty->max,
                .nominal = &ty->nominal, .has = &ty->has, .flags = &ty->flags};
    for_attrs(p, a_type, &ta);
    if (ty->type == FMUC_TYPE_ENUMERATION) {
        p->cap_items = 0;
        push(p, S_STYPE_ENUM, K_ENUM);
    } else {
        push(p, S_LEAF, K_NONE);
    }
}

static void start_unknown(parser *p, int which)
{
    fmuc_md *md = p->md;
    fmuc_md_unknown **arr = which == 0 ? &md->outputs : which == 1 ? &md->derivatives
                                                                   : &md->initial_unknowns;
    size_t *n = which == 0 ? &md->noutputs : which == 1 ? &md->nderivatives
                                                        : &md->ninitial_unknowns;
    fmuc_md_unknown *u = append(p, (void **)arr, &p->cap_unk[which], n, sizeof *u);
    if (!u)
        return;
    u->line = p->line;
    struct {
        fmuc_md_unknown *u;
        req q;
    } c = {u, {0}};
    for_attrs(p, a_unknown, &c);
    if (!(c.q.seen & R_A))
        missing_attr(p, "index");
}

static void start_element(parser *p)
{
    fmuc_md *md = p->md;
    if (p->depth == 0) {
        if (start_root(p) < 0) {
            push(p, S_SKIP, K_NONE);
            return;
        }
        req q = {0};
        for_attrs(p, a_root, &q);
        if (!(q.seen & R_A))
            missing_attr(p, "fmiVersion");
        if (!(q.seen & R_B))
            missing_attr(p, "modelName");
        if (!(q.seen & R_C))
            missing_attr(p, "guid");
        push(p, S_ROOT, K_NONE);
        return;
    }
    frame *f = &p->stack[p->depth - 1];
    const char *e = p->elem;
    if (f->st != S_STYPE)
        f->nchild++;
    switch ((state)f->st) {
    case S_ROOT:
        start_root_child(p, f);
        return;
    case S_IFACE:
        if (strcmp(e, "SourceFiles") == 0) {
            if (child_order(p, f, f->kind == K_ME ? "ModelExchange" : "CoSimulation", 0, 1)) {
                push(p, S_SKIP, K_NONE);
                return;
            }
            for_attrs(p, a_none, NULL);
            p->cap_src[f->kind == K_CS] = 0;
            uint8_t cs = f->kind == K_CS;
            push(p, S_SRCFILES, K_SRCFILES);
            p->stack[p->depth - 1].aux = cs;
            return;
        }
        unknown_element(p, f->kind == K_ME ? "ModelExchange" : "CoSimulation");
        break;
    case S_SRCFILES:
        if (strcmp(e, "File") == 0) {
            fmuc_md_interface *itf = f->aux ? &md->cs : &md->me;
            const char *name = read_name(p);
            if (grow(p, (void **)&itf->source_files, &p->cap_src[f->aux],
                     itf->nsource_files + 1, sizeof *itf->source_files) == 0)
                itf->source_files[itf->nsource_files++] = name ? name : dup(p, "");
            push(p, S_LEAF, K_NONE);
            return;
        }
        unknown_element(p, "SourceFiles");
        break;
    case S_UNITDEFS:
        if (strcmp(e, "Unit") == 0) {
            if (start_unit(p) < 0)
                return;
            push(p, S_UNIT, K_UNIT);
            return;
        }
        unknown_element(p, "UnitDefinitions");
        break;
    case S_UNIT: {
        fmuc_md_unit *u = &md->units[md->nunits - 1];
        if (strcmp(e, "BaseUnit") == 0) {
            if (child_order(p, f, "Unit", 0, 1)) {
                push(p, S_SKIP, K_NONE);
                return;
            }
            u->has_base_unit = 1;
            for_attrs(p, a_baseunit, u);
            push(p, S_LEAF, K_NONE);
            return;
        }
        if (strcmp(e, "DisplayUnit") == 0) {
            child_order(p, f, "Unit", 1, 0);
            if (start_display_unit(p) < 0)
                return;
            push(p, S_LEAF, K_NONE);
            return;
        }
        unknown_element(p, "Unit");
        break;
    }
    case S_TYPEDEFS:
        if (strcmp(e, "SimpleType") == 0) {
            if (!start_named_type(p))
                return;
            push(p, S_STYPE, K_STYPE);
            return;
        }
        unknown_element(p, "TypeDefinitions");
        break;
    case S_STYPE:
        start_stype_child(p, f);
        return;
    case S_STYPE_ENUM:
        if (strcmp(e, "Item") == 0) {
            fmuc_md_type *t = &md->types[md->ntypes - 1];
            fmuc_md_item *it = append(p, (void **)&t->items, &p->cap_items, &t->nitems, sizeof *it);
            if (!it)
                return;
            it->line = p->line;
            struct {
                fmuc_md_item *it;
                req q;
            } c = {it, {0}};
            for_attrs(p, a_item, &c);
            if (!(c.q.seen & R_A))
                missing_attr(p, "name");
            if (!(c.q.seen & R_B))
                missing_attr(p, "value");
            push(p, S_LEAF, K_NONE);
            return;
        }
        unknown_element(p, "Enumeration");
        break;
    case S_LOGCATS:
        if (strcmp(e, "Category") == 0) {
            if (start_category(p) < 0)
                return;
            push(p, S_LEAF, K_NONE);
            return;
        }
        unknown_element(p, "LogCategories");
        break;
    case S_VENDOR:
        if (strcmp(e, "Tool") == 0) {
            size_t cap = p->cap_tools;
            if (grow(p, (void **)&md->tools, &p->cap_tools, md->ntools + 1, sizeof *md->tools) < 0)
                return;
            if (grow(p, (void **)&md->tool_lines, &cap, md->ntools + 1, sizeof *md->tool_lines) < 0)
                return;
            const char *name = read_name(p);
            md->tools[md->ntools] = name ? name : dup(p, "");
            md->tool_lines[md->ntools] = p->line;
            md->ntools++;
            push(p, S_SKIP, K_NONE); /* any content is the vendor's */
            return;
        }
        unknown_element(p, "VendorAnnotations");
        break;
    case S_MODELVARS:
        if (strcmp(e, "ScalarVariable") == 0) {
            start_sv(p);
            return;
        }
        unknown_element(p, "ModelVariables");
        break;
    case S_SV:
        start_sv_child(p, f);
        return;
    case S_SV_ANNOT:
        if (strcmp(e, "Tool") == 0) {
            read_name(p);
            push(p, S_SKIP, K_NONE);
            return;
        }
        unknown_element(p, "Annotations");
        break;
    case S_MODELSTRUCT: {
        static const char *const lists[] = {"Outputs", "Derivatives", "InitialUnknowns"};
        int k = lookup(e, lists, 3);
        if (k >= 0) {
            if (child_order(p, f, "ModelStructure", k, 1)) {
                push(p, S_SKIP, K_NONE);
                return;
            }
            for_attrs(p, a_none, NULL);
            if (k == 0)
                md->has_outputs = 1;
            else if (k == 1)
                md->has_derivatives = 1;
            else
                md->has_initial_unknowns = 1;
            push(p, S_UNKLIST, (uint8_t)(K_OUTPUTS + k));
            return;
        }
        unknown_element(p, "ModelStructure");
        break;
    }
    case S_UNKLIST:
        if (strcmp(e, "Unknown") == 0) {
            start_unknown(p, f->kind - K_OUTPUTS);
            push(p, S_LEAF, K_NONE);
            return;
        }
        unknown_element(p, f->kind == K_OUTPUTS ? "Outputs"
                           : f->kind == K_DERIVS ? "Derivatives"
                                                 : "InitialUnknowns");
        break;
    case S_SKIP:
        break;
    case S_LEAF:
        leaf_child(p);
        break;
    case S_DOC:
        break;
    }
    push(p, S_SKIP, K_NONE);
}

static void end_element(parser *p)
{
    frame *f = &p->stack[--p->depth];
    fmuc_md *md = p->md;
    /* list elements that need at least one child (XSD minOccurs=1): the list and its child */
    static const char *const lists[][2] = {
        [K_SRCFILES] = {"SourceFiles", "File"},
        [K_UNITDEFS] = {"UnitDefinitions", "Unit"},
        [K_TYPEDEFS] = {"TypeDefinitions", "SimpleType"},
        [K_LOGCATS] = {"LogCategories", "Category"},
        [K_VENDOR] = {"VendorAnnotations", "Tool"},
        [K_MODELVARS] = {"ModelVariables", "ScalarVariable"},
        [K_SV_ANNOT] = {"Annotations", "Tool"},
        [K_ENUM] = {"Enumeration", "Item"},
        [K_OUTPUTS] = {"Outputs", "Unknown"},
        [K_DERIVS] = {"Derivatives", "Unknown"},
        [K_INITS] = {"InitialUnknowns", "Unknown"},
    };
    if (f->kind < sizeof lists / sizeof lists[0] && lists[f->kind][0] && !f->nchild)
        empty_list(p, f, lists[f->kind][0], lists[f->kind][1]);
    switch ((elem_kind)f->kind) {
    case K_STYPE: {
        fmuc_md_type *t = &md->types[md->ntypes - 1];
        if (t->ntypes == 0)
            issue_at(p, FMUC_ISSUE_ELEMENT_MISSING, f->line, "SimpleType", NULL, NULL,
                     "SimpleType \"%s\" at line %u has no type element (Real, Integer, Boolean, "
                     "String or Enumeration)",
                     t->name ? t->name : "?", f->line);
        break;
    }
    case K_SV: {
        fmuc_md_var *v = &md->vars[md->nvars - 1];
        if (v->type == FMUC_TYPE_NONE)
            issue_at(p, FMUC_ISSUE_ELEMENT_MISSING, f->line, "ScalarVariable", NULL, NULL,
                     "variable %u \"%s\" (valueReference %u) at line %u has no type element "
                     "(Real, Integer, Boolean, String or Enumeration)",
                     (unsigned)md->nvars, v->name ? v->name : "?", v->value_reference, f->line);
        break;
    }
    default:
        break;
    }
    if (f->st == S_ROOT)
        end_root(p, f);
}

const fmuc_md__ops fmuc_md__fmi2_ops = {start_element, end_element, "FMI 2.0", NULL, 2};
