/* The FMI 3.0 element parser (FMI 3.0 §2.4, XSD fmi3ModelDescription.xsd; ../shared/fmi3-rules.md
 * part B): fills the version-neutral fmuc_md from the elements the streaming core (md_parse.c)
 * hands over. Variables are typed elements (Float32 ... Clock) with Dimension, Alias and Start
 * children; ModelStructure elements name valueReferences, which are resolved to variable
 * indices when the root ends. Annotations are skipped. Lenient like the FMI 2.0 parser: unknown
 * elements and attributes, bad attribute syntax and missing required attributes become issues. */
#include "md_parse_internal.h"

typedef enum {
    S3_ROOT = 1, S3_IFACE, S3_UNITDEFS, S3_UNIT, S3_TYPEDEFS, S3_TYPE, S3_LOGCATS, S3_MODELVARS,
    S3_VAR, S3_MODELSTRUCT, S3_LEAF, S3_SKIP, S3_ANNOTS,
    S3_ANNOTATED /* an element whose one child may be <Annotations> (fmi3ModelDescription.xsd
                  * DefaultExperiment; fmi3VariableDependency.xsd fmi3Unknown) */
} state3;

enum { K3_NONE = 0, K3_ME, K3_CS, K3_SE };

/* variable element names, in fmuc_base_type order from FMUC_BT_FLOAT32 */
static const char *const var_elems[] = {"Float32", "Float64", "Int8",    "UInt8",  "Int16",
                                        "UInt16",  "Int32",   "UInt32",  "Int64",  "UInt64",
                                        "Boolean", "String",  "Binary",  "Clock",  "Enumeration"};
enum { NVAR_ELEMS = 15 };

static uint8_t kind_of(int bt)
{
    if (bt == FMUC_BT_FLOAT32 || bt == FMUC_BT_FLOAT64)
        return FMUC_TYPE_REAL;
    if (bt >= FMUC_BT_INT8 && bt <= FMUC_BT_UINT64)
        return FMUC_TYPE_INTEGER;
    switch (bt) {
    case FMUC_BT_BOOLEAN: return FMUC_TYPE_BOOLEAN;
    case FMUC_BT_STRING: return FMUC_TYPE_STRING;
    case FMUC_BT_BINARY: return FMUC_TYPE_BINARY;
    case FMUC_BT_CLOCK: return FMUC_TYPE_CLOCK;
    case FMUC_BT_ENUMERATION: return FMUC_TYPE_ENUMERATION;
    default: return FMUC_TYPE_NONE;
    }
}

static const char *const ivar_names[] = {"constant", "fixed", "tunable", "changing", "countdown",
                                         "triggered"};

/* ---- root and interfaces ---- */

typedef struct req3 {
    unsigned seen;
} req3;

static int a_root(parser *p, const char *n, const char *v, void *obj)
{
    fmuc_md *md = p->md;
    req3 *q = obj;
    if (strcmp(n, "fmiVersion") == 0)
        md->fmi_version = dup(p, v), q->seen |= 1;
    else if (strcmp(n, "modelName") == 0)
        md->model_name = dup(p, v), q->seen |= 2;
    else if (strcmp(n, "instantiationToken") == 0)
        md->instantiation_token = md->guid = dup(p, v), q->seen |= 4;
    else
        return a_root_info(p, n, v);
    return 1;
}

typedef struct iface3 {
    fmuc_md_interface *itf;
    unsigned iface; /* FMUC_IF_* */
    int has_id;
} iface3;

static int a_iface(parser *p, const char *n, const char *v, void *obj)
{
    iface3 *c = obj;
    fmuc_md_interface *itf = c->itf;
    if (strcmp(n, "modelIdentifier") == 0) {
        itf->model_identifier = dup(p, v);
        c->has_id = 1;
        return 1;
    }
    if (c->iface == FMUC_IF_CS) {
        int32_t i;
        if (strcmp(n, "maxOutputDerivativeOrder") == 0) {
            itf->has_max_output_derivative_order = 1;
            if (attr_uint(p, n, v, &itf->max_output_derivative_order) < 0)
                itf->max_output_derivative_order = 0;
            return 1;
        }
        if (strcmp(n, "fixedInternalStepSize") == 0) {
            itf->has_fixed_internal_step_size = 1;
            itf->fixed_internal_step_size = attr_double(p, n, v);
            return 1;
        }
        if (strcmp(n, "recommendedIntermediateInputSmoothness") == 0) {
            itf->has_recommended_intermediate_input_smoothness = 1;
            if (attr_int(p, n, v, &i) == 0)
                itf->recommended_intermediate_input_smoothness = i;
            return 1;
        }
    }
    return a_cap(p, n, v, itf, c->iface) > 0;
}

/* attributes of a type definition (FMI 3.0 §2.4.4) */
static int a_typedef(parser *p, const char *n, const char *v, void *obj)
{
    fmuc_md_type *t = obj;
    if (strcmp(n, "name") == 0)
        t->name = dup(p, v);
    else if (strcmp(n, "description") == 0)
        t->description = dup(p, v);
    else if (a_type_real(p, n, v, t))
        ;
    else if (strcmp(n, "maxSize") == 0) {
        if (attr_uint(p, n, v, &t->max_size) == 0)
            t->has_max_size = 1;
    } else if (strcmp(n, "mimeType") == 0 ||
               strcmp(n, "canBeDeactivated") == 0 || strcmp(n, "priority") == 0 ||
               strcmp(n, "intervalVariability") == 0 || strcmp(n, "intervalDecimal") == 0 ||
               strcmp(n, "shiftDecimal") == 0 || strcmp(n, "supportsFraction") == 0 ||
               strcmp(n, "resolution") == 0 || strcmp(n, "intervalCounter") == 0 ||
               strcmp(n, "shiftCounter") == 0)
        ; /* the other Binary and Clock type attributes: not kept on types */
    else
        return 0;
    return 1;
}

static int a_item(parser *p, const char *n, const char *v, void *obj)
{
    fmuc_md_item *it = obj;
    if (strcmp(n, "name") == 0)
        it->name = dup(p, v);
    else if (strcmp(n, "description") == 0)
        it->description = dup(p, v);
    else if (strcmp(n, "value") == 0) {
        /* xs:long (fmi3Type.xsd) */
        if (fmuc_md__parse_int64(v, &it->value) == 0) {
            it->has_value = 1;
        } else {
            char b[80];
            ISSUE(p, FMUC_ISSUE_ATTR_SYNTAX, n, v,
                  "%s at line %u: attribute %s=\"%s\" is not a valid xs:long", p->elem, p->line,
                  n, shorten(b, v));
        }
    } else
        return 0;
    return 1;
}

/* ---- variables ---- */

/* Is v (an integral number d) within the range of an integer base type's XSD type
 * (fmi3Variable.xsd: xs:byte for Int8 ... xs:unsignedLong for UInt64; xs:long for Enumeration)?
 * 1 when it is or the type has no such range; else 0 with *xs naming the type and its range. The
 * 64-bit types are read as exact integers where the text is a plain one (a double cannot tell
 * 2^64 - 1 from 2^64). */
static int int_in_range(int bt, const char *v, double d, const char **xs)
{
    static const struct {
        int bt;
        double lo, hi;
        const char *xs;
    } r[] = {{FMUC_BT_INT8, -128.0, 127.0, "xs:byte, -128 to 127"},
             {FMUC_BT_UINT8, 0.0, 255.0, "xs:unsignedByte, 0 to 255"},
             {FMUC_BT_INT16, -32768.0, 32767.0, "xs:short, -32768 to 32767"},
             {FMUC_BT_UINT16, 0.0, 65535.0, "xs:unsignedShort, 0 to 65535"},
             {FMUC_BT_INT32, -2147483648.0, 2147483647.0, "xs:int, -2147483648 to 2147483647"},
             {FMUC_BT_UINT32, 0.0, 4294967295.0, "xs:unsignedInt, 0 to 4294967295"},
             {FMUC_BT_INT64, -9223372036854775808.0, 9223372036854775808.0,
              "xs:long, -9223372036854775808 to 9223372036854775807"},
             {FMUC_BT_UINT64, 0.0, 18446744073709551616.0,
              "xs:unsignedLong, 0 to 18446744073709551615"},
             {FMUC_BT_ENUMERATION, -9223372036854775808.0, 9223372036854775808.0,
              "xs:long, -9223372036854775808 to 9223372036854775807"}};
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
        if (r[i].bt != bt)
            continue;
        *xs = r[i].xs;
        int wide = bt == FMUC_BT_INT64 || bt == FMUC_BT_UINT64 || bt == FMUC_BT_ENUMERATION;
        if (wide) {
            int64_t x;
            uint64_t u;
            int rc = bt == FMUC_BT_UINT64 ? fmuc_md__parse_uint64(v, &u)
                                          : fmuc_md__parse_int64(v, &x);
            if (rc != -1) /* a plain integer: exact */
                return rc == 0;
            return d >= r[i].lo && d < r[i].hi; /* 64-bit bounds exclusive as doubles */
        }
        return d >= r[i].lo && d <= r[i].hi;
    }
    return 1;
}

/* The number in v; range: also the range of an integer type (start values: min and max outside
 * it are md-var-min-max's). */
static double number_of(parser *p, int bt, const char *attr, const char *v, int range)
{
    if (bt == FMUC_BT_BOOLEAN) {
        int b;
        return attr_bool(p, attr, v, &b) == 0 ? (double)b : NAN;
    }
    double d;
    const char *xs = NULL;
    char b[80];
    int rc = fmuc_md__parse_double(v, &d);
    if (rc == 0 && (kind_of(bt) != FMUC_TYPE_INTEGER || d == floor(d)) &&
        (bt != FMUC_BT_ENUMERATION || d == floor(d))) {
        if (!range || int_in_range(bt, v, d, &xs))
            return d;
        ISSUE(p, FMUC_ISSUE_ATTR_SYNTAX, attr, v,
              "%s at line %u: attribute %s=\"%s\" is not a valid %s value (out of the range of "
              "%s)",
              p->elem, p->line, attr, shorten(b, v), var_elems[bt - 1], xs);
        return NAN;
    }
    ISSUE(p, FMUC_ISSUE_ATTR_SYNTAX, attr, v,
          "%s at line %u: attribute %s=\"%s\" is not a valid %s value", p->elem, p->line, attr,
          shorten(b, v), var_elems[bt - 1]);
    return NAN;
}

static int a_var(parser *p, const char *n, const char *v, void *obj)
{
    fmuc_md_var *var = obj;
    int bt = var->base, k, b;
    fmuc_md_var_ext *e;
    uint32_t u;
    if (a_var_common(p, n, v, var)) {
        ;
    } else if (strcmp(n, "intermediateUpdate") == 0) {
        if ((e = ext_of_last(p)) && attr_bool(p, n, v, &b) == 0)
            e->intermediate_update = (uint8_t)b, e->has_intermediate_update = 1;
    } else if (strcmp(n, "previous") == 0) {
        if ((e = ext_of_last(p)) && attr_uint(p, n, v, &u) == 0)
            e->previous = u, e->has_previous = 1;
    } else if (strcmp(n, "clocks") == 0) {
        if ((e = ext_of_last(p)))
            e->clocks = u32_list(p, n, v, &e->nclocks);
    } else if (strcmp(n, "declaredType") == 0) {
        var->declared_type = dup_i(p, v);
        var->has |= FMUC_HAS_DECLARED_TYPE;
    } else if (strcmp(n, "start") == 0 && bt != FMUC_BT_BINARY && bt != FMUC_BT_CLOCK) {
        if (bt == FMUC_BT_STRING) {
            /* fmi3Variable.xsd: String start values are <Start value="..."/> children (G-03);
             * the value is kept so that no other check reports a missing start as well */
            char sb[80];
            ISSUE(p, FMUC_ISSUE_ATTR_UNKNOWN, n, v,
                  "%s at line %u: attribute start=\"%s\" is not defined by the %s schema for "
                  "String variables; give the start value as a <Start value=\"...\"/> child",
                  p->elem, p->line, shorten(sb, v), p->schema);
        }
        var->start_text = dup_i(p, v);
        var->has |= FMUC_HAS_START;
        size_t cnt = bt == FMUC_BT_STRING ? 1 : count_tokens(v);
        if (bt == FMUC_BT_STRING) {
            var->start = NAN;
        } else if (cnt <= 1) {
            var->start = number_of(p, bt, n, v, 1);
        } else if ((e = ext_of_last(p))) {
            /* an array's start values: the list, and the first as the number */
            const char *s = v;
            char tok[128];
            int trunc;
            while (next_token(&s, tok, sizeof tok, &trunc)) {
                const char **slot = ext_push(p, (void **)&e->starts, &e->nstarts, sizeof *slot);
                if (!slot)
                    break;
                *slot = dup_i(p, tok);
                double x = number_of(p, bt, n, tok, 1); /* each one's syntax and range */
                if (e->nstarts == 1)
                    var->start = x;
            }
        }
    } else if ((kind_of(bt) == FMUC_TYPE_REAL || kind_of(bt) == FMUC_TYPE_INTEGER ||
                bt == FMUC_BT_ENUMERATION) &&
               (strcmp(n, "min") == 0 || strcmp(n, "max") == 0 || strcmp(n, "quantity") == 0)) {
        if (n[0] == 'q') {
            var->quantity = dup_i(p, v);
            var->has |= FMUC_HAS_QUANTITY;
        } else if (n[1] == 'i') {
            var->min = number_of(p, bt, n, v, 0);
            var->has |= FMUC_HAS_MIN;
        } else {
            var->max = number_of(p, bt, n, v, 0);
            var->has |= FMUC_HAS_MAX;
        }
    } else if (kind_of(bt) == FMUC_TYPE_REAL && a_var_real(p, n, v, var)) {
        ;
    } else if (kind_of(bt) == FMUC_TYPE_REAL && strcmp(n, "derivative") == 0) {
        /* a valueReference in FMI 3.0: resolved to the 1-based index when the root ends */
        var->has |= FMUC_HAS_DERIVATIVE;
        if (attr_uint(p, n, v, &u) == 0)
            var->derivative = u;
    } else if (bt == FMUC_BT_BINARY && strcmp(n, "mimeType") == 0) {
        if ((e = ext_of_last(p)))
            e->mime_type = dup_i(p, v);
    } else if (bt == FMUC_BT_BINARY && strcmp(n, "maxSize") == 0) {
        if ((e = ext_of_last(p)) && attr_uint(p, n, v, &e->max_size) == 0)
            e->has_max_size = 1;
    } else if (bt == FMUC_BT_CLOCK) {
        if (!(e = ext_of_last(p)))
            return 1;
        if (strcmp(n, "canBeDeactivated") == 0) {
            e->clock_has |= FMUC_CLK_CAN_BE_DEACTIVATED;
            if (attr_bool(p, n, v, &b) == 0)
                e->can_be_deactivated = (uint8_t)b;
        } else if (strcmp(n, "priority") == 0) {
            e->clock_has |= FMUC_CLK_PRIORITY;
            attr_uint(p, n, v, &e->priority);
        } else if (strcmp(n, "intervalVariability") == 0) {
            e->clock_has |= FMUC_CLK_INTERVAL_VARIABILITY;
            k = attr_enum(p, n, v, ivar_names, 6);
            e->interval_variability = (uint8_t)(k < 0 ? FMUC_IV_INVALID : k + 1);
        } else if (strcmp(n, "intervalDecimal") == 0) {
            e->clock_has |= FMUC_CLK_INTERVAL_DECIMAL;
            e->interval_decimal = attr_double(p, n, v);
        } else if (strcmp(n, "shiftDecimal") == 0) {
            e->clock_has |= FMUC_CLK_SHIFT_DECIMAL;
            e->shift_decimal = attr_double(p, n, v);
        } else if (strcmp(n, "supportsFraction") == 0) {
            e->clock_has |= FMUC_CLK_SUPPORTS_FRACTION;
            if (attr_bool(p, n, v, &b) == 0)
                e->supports_fraction = (uint8_t)b;
        } else if (strcmp(n, "resolution") == 0 || strcmp(n, "intervalCounter") == 0 ||
                   strcmp(n, "shiftCounter") == 0) {
            double d = attr_double(p, n, v);
            uint64_t x = d >= 0 && d < 1.8e19 ? (uint64_t)d : 0;
            if (n[0] == 'r')
                e->clock_has |= FMUC_CLK_RESOLUTION, e->resolution = x;
            else if (n[0] == 'i')
                e->clock_has |= FMUC_CLK_INTERVAL_COUNTER, e->interval_counter = x;
            else
                e->clock_has |= FMUC_CLK_SHIFT_COUNTER, e->shift_counter = x;
        } else {
            return 0;
        }
    } else {
        return 0;
    }
    return 1;
}

static void start_var(parser *p, int bt)
{
    fmuc_md_var *v = start_var_common(p);
    if (!v)
        return;
    v->base = (uint32_t)bt;
    v->type = kind_of(bt);
    /* §2.4.7.4: continuous for Float32/Float64, discrete for every other type */
    v->variability = v->type == FMUC_TYPE_REAL ? FMUC_VAR_CONTINUOUS : FMUC_VAR_DISCRETE;
    v->type_line = p->line;
    for_attrs(p, a_var, v);
    /* §2.4.7.4: the default variability of (structural, calculated) parameters is fixed */
    if (!(v->has & FMUC_HAS_VARIABILITY) &&
        (v->causality == FMUC_CAUS_PARAMETER || v->causality == FMUC_CAUS_CALCULATED_PARAMETER ||
         v->causality == FMUC_CAUS_STRUCTURAL_PARAMETER))
        v->variability = FMUC_VAR_FIXED;
    var_required(p, v);
    if (bt == FMUC_BT_ENUMERATION && !(v->has & FMUC_HAS_DECLARED_TYPE))
        missing_attr(p, "declaredType");
    push(p, S3_VAR, K3_NONE);
}

static int a_dim(parser *p, const char *n, const char *v, void *obj)
{
    fmuc_md_dim *d = obj;
    uint32_t u;
    if (strcmp(n, "start") == 0) {
        if (attr_uint(p, n, v, &u) == 0)
            d->start = u, d->has_start = 1;
    } else if (strcmp(n, "valueReference") == 0) {
        if (attr_uint(p, n, v, &u) == 0)
            d->value_reference = u, d->has_vr = 1;
    } else
        return 0;
    return 1;
}

static int a_alias(parser *p, const char *n, const char *v, void *obj)
{
    fmuc_md_alias *a = obj;
    if (strcmp(n, "name") == 0)
        a->name = dup(p, v);
    else if (strcmp(n, "description") == 0)
        a->description = dup(p, v);
    else if (strcmp(n, "displayUnit") == 0)
        a->display_unit = dup_i(p, v);
    else
        return 0;
    return 1;
}

static int a_startval(parser *p, const char *n, const char *v, void *obj)
{
    const char **out = obj;
    if (strcmp(n, "value") != 0)
        return 0;
    *out = dup(p, v);
    return 1;
}

/* Annotations/Annotation (fmi3Annotation.xsd): one required attribute, type; any content. */
static int a_annotation(parser *p, const char *n, const char *v, void *obj)
{
    (void)p, (void)v;
    if (strcmp(n, "type") != 0)
        return 0;
    *(int *)obj = 1;
    return 1;
}

static void start_annotation(parser *p)
{
    if (strcmp(p->elem, "Annotation") != 0) {
        unknown_element(p, "Annotations");
        return;
    }
    int has_type = 0;
    for_attrs(p, a_annotation, &has_type);
    if (!has_type)
        missing_attr(p, "type");
}

/* the sequence of a variable's children (fmi3Variable.xsd): Annotations?, Dimension*, Start*
 * (String, Binary), Alias* */
static int var_child_rank(const char *e)
{
    static const char *const seq[] = {"Annotations", "Dimension", "Start", "Alias"};
    return lookup(e, seq, 4);
}

static void start_var_child(parser *p)
{
    fmuc_md *md = p->md;
    fmuc_md_var *v = &md->vars[md->nvars - 1];
    const char *e = p->elem;
    fmuc_md_var_ext *x;
    int rank = var_child_rank(e);
    if (rank >= 0)
        child_order(p, &p->stack[p->depth - 1], var_elems[v->base - 1], rank, rank == 0);
    if (strcmp(e, "Annotations") == 0) {
        push(p, S3_ANNOTS, K3_NONE);
        return;
    }
    if (strcmp(e, "Dimension") == 0 && (x = ext_of_last(p))) {
        fmuc_md_dim *d = ext_push(p, (void **)&x->dims, &x->ndims, sizeof *d);
        if (d) {
            d->line = p->line;
            for_attrs(p, a_dim, d);
            if (!d->has_start && !d->has_vr)
                missing_attr(p, "start");
        }
    } else if (strcmp(e, "Alias") == 0 && (x = ext_of_last(p))) {
        fmuc_md_alias *a = ext_push(p, (void **)&x->aliases, &x->naliases, sizeof *a);
        if (a) {
            a->line = p->line;
            for_attrs(p, a_alias, a);
            if (!a->name)
                missing_attr(p, "name");
        }
    } else if (strcmp(e, "Start") == 0 &&
               (v->base == FMUC_BT_STRING || v->base == FMUC_BT_BINARY) && (x = ext_of_last(p))) {
        const char **s = ext_push(p, (void **)&x->starts, &x->nstarts, sizeof *s);
        if (s) {
            for_attrs(p, a_startval, s);
            if (!*s)
                missing_attr(p, "value");
            if (x->nstarts == 1) {
                v->start_text = *s;
                v->has |= FMUC_HAS_START;
            }
        }
    } else {
        unknown_element(p, var_elems[v->base - 1]);
        push(p, S3_SKIP, K3_NONE);
        return;
    }
    push(p, S3_LEAF, K3_NONE);
}

/* ---- model structure ---- */

static const char *const unk_elems[FMUC_UNK_COUNT] = {
    "Output", "ContinuousStateDerivative", "ClockedState", "InitialUnknown", "EventIndicator"};

typedef struct unk3 {
    fmuc_md_unknown *u;
    int has_vr;
} unk3;

static int a_unknown(parser *p, const char *n, const char *v, void *obj)
{
    unk3 *c = obj;
    fmuc_md_unknown *u = c->u;
    if (strcmp(n, "valueReference") == 0) {
        c->has_vr = 1;
        attr_uint(p, n, v, &u->value_reference);
    } else if (strcmp(n, "dependencies") == 0) {
        u->has_deps = 1;
        u->deps_vr = u32_list(p, n, v, &u->ndeps);
    } else if (strcmp(n, "dependenciesKind") == 0) {
        u->has_kinds = 1;
        u->kinds = depkind_list(p, n, v, &u->nkinds);
    } else
        return 0;
    return 1;
}

static void start_unknown(parser *p, int kind)
{
    fmuc_md *md = p->md;
    fmuc_md_unknown **lists[FMUC_UNK_COUNT] = {&md->outputs, &md->derivatives, &md->clocked_states,
                                               &md->initial_unknowns, &md->event_indicators};
    size_t *counts[FMUC_UNK_COUNT] = {&md->noutputs, &md->nderivatives, &md->nclocked_states,
                                      &md->ninitial_unknowns, &md->nevent_indicators};
    fmuc_md_unknown *u =
        append(p, (void **)lists[kind], &p->cap_unk[kind], counts[kind], sizeof *u);
    if (!u)
        return;
    u->line = p->line;
    u->kind = (uint8_t)kind;
    unk3 c = {u, 0};
    for_attrs(p, a_unknown, &c);
    if (!c.has_vr)
        missing_attr(p, "valueReference");
}

/* valueReference -> 1-based index, by binary search over (vr << 32 | index) sorted */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint32_t index_of(const uint64_t *map, size_t n, uint32_t vr)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((map[mid] >> 32) < vr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && (map[lo] >> 32) == vr ? (uint32_t)(map[lo] & 0xffffffffu) + 1 : 0;
}

/* When the root ends: valueReferences in derivative and ModelStructure become indices. */
static void resolve(parser *p)
{
    fmuc_md *md = p->md;
    uint64_t *map = md->nvars ? malloc(md->nvars * sizeof *map) : NULL;
    if (md->nvars && !map) {
        p->oom = 1;
        return;
    }
    size_t n = 0;
    for (size_t i = 0; i < md->nvars; i++)
        if (md->vars[i].has & FMUC_HAS_VALUE_REFERENCE)
            map[n++] = (uint64_t)md->vars[i].value_reference << 32 | (uint64_t)i;
    if (n)
        qsort(map, n, sizeof *map, cmp_u64);
    for (size_t i = 0; i < md->nvars; i++)
        if (md->vars[i].has & FMUC_HAS_DERIVATIVE)
            md->vars[i].derivative = index_of(map, n, md->vars[i].derivative);
    fmuc_md_unknown *lists[FMUC_UNK_COUNT] = {md->outputs, md->derivatives, md->clocked_states,
                                              md->initial_unknowns, md->event_indicators};
    size_t counts[FMUC_UNK_COUNT] = {md->noutputs, md->nderivatives, md->nclocked_states,
                                     md->ninitial_unknowns, md->nevent_indicators};
    for (int k = 0; k < FMUC_UNK_COUNT; k++)
        for (size_t i = 0; i < counts[k]; i++) {
            fmuc_md_unknown *u = &lists[k][i];
            u->index = index_of(map, n, u->value_reference);
            if (u->ndeps) {
                uint32_t *d = fmuc_md__arena_alloc(p->ar, u->ndeps * sizeof *d, sizeof *d);
                if (!d) {
                    p->oom = 1;
                    break;
                }
                for (uint32_t j = 0; j < u->ndeps; j++)
                    d[j] = index_of(map, n, u->deps_vr[j]);
                u->deps = d;
            }
        }
    free(map);
}

/* ---- elements ---- */

static const char *const top3[] = {"ModelExchange",   "CoSimulation",    "ScheduledExecution",
                                   "UnitDefinitions", "TypeDefinitions", "LogCategories",
                                   "DefaultExperiment", "ModelVariables", "ModelStructure",
                                   "Annotations"};

static void start_root_child(parser *p, frame *f)
{
    fmuc_md *md = p->md;
    int idx = lookup(p->elem, top3, 10);
    note_root_child(p);
    if (idx < 0) {
        unknown_element(p, "fmiModelDescription");
        push(p, S3_SKIP, K3_NONE);
        return;
    }
    /* ranks: the three interfaces 0 (any order), then one rank per element */
    if (idx <= 2) {
        fmuc_md_interface *itf = idx == 0 ? &md->me : idx == 1 ? &md->cs : &md->se;
        if (f->last_rank > 0)
            order_issue(p, "fmiModelDescription", 0);
        if (f->last_rank < 0)
            f->last_rank = 0;
        if (++itf->count > 1) {
            order_issue(p, "fmiModelDescription", 1);
            push(p, S3_SKIP, K3_NONE);
            return;
        }
        iface3 c = {itf, idx == 0 ? FMUC_IF_ME : idx == 1 ? FMUC_IF_CS : FMUC_IF_SE, 0};
        itf->present = 1;
        itf->line = p->line;
        for_attrs(p, a_iface, &c);
        if (!c.has_id)
            missing_attr(p, "modelIdentifier");
        push(p, S3_IFACE, (uint8_t)(K3_ME + idx));
        return;
    }
    if (child_order(p, f, "fmiModelDescription", idx - 2, 1)) {
        push(p, S3_SKIP, K3_NONE);
        return;
    }
    if (idx == 9) {
        push(p, S3_ANNOTS, K3_NONE);
        return;
    }
    static const uint8_t next[9] = {[3] = S3_UNITDEFS, [4] = S3_TYPEDEFS,  [5] = S3_LOGCATS,
                                    [6] = S3_ANNOTATED, [7] = S3_MODELVARS, [8] = S3_MODELSTRUCT};
    start_root_section(p);
    push(p, next[idx], K3_NONE);
}

static void start_element(parser *p)
{
    fmuc_md *md = p->md;
    const char *e = p->elem;
    if (p->depth == 0) {
        if (start_root(p) < 0) {
            push(p, S3_SKIP, K3_NONE);
            return;
        }
        req3 q = {0};
        for_attrs(p, a_root, &q);
        if (!(q.seen & 1))
            missing_attr(p, "fmiVersion");
        if (!(q.seen & 2))
            missing_attr(p, "modelName");
        if (!(q.seen & 4))
            missing_attr(p, "instantiationToken");
        push(p, S3_ROOT, K3_NONE);
        return;
    }
    frame *f = &p->stack[p->depth - 1];
    f->nchild++;
    int k;
    switch ((state3)f->st) {
    case S3_ROOT:
        start_root_child(p, f);
        return;
    case S3_IFACE:
        if (strcmp(e, "Annotations") == 0) {
            push(p, S3_ANNOTS, K3_NONE);
            return;
        }
        unknown_element(p, top3[f->kind - K3_ME]);
        break;
    case S3_UNITDEFS:
        if (strcmp(e, "Unit") == 0) {
            if (start_unit(p) < 0)
                return;
            push(p, S3_UNIT, K3_NONE);
            return;
        }
        unknown_element(p, "UnitDefinitions");
        break;
    case S3_UNIT: {
        /* fmi3Unit.xsd: BaseUnit?, DisplayUnit*, Annotations? in this order */
        fmuc_md_unit *u = &md->units[md->nunits - 1];
        int rank = strcmp(e, "BaseUnit") == 0      ? 0
                   : strcmp(e, "DisplayUnit") == 0 ? 1
                   : strcmp(e, "Annotations") == 0 ? 2
                                                    : -1;
        if (rank >= 0)
            child_order(p, f, "Unit", rank, rank != 1);
        if (strcmp(e, "BaseUnit") == 0) {
            u->has_base_unit = 1;
            for_attrs(p, a_baseunit, u);
            push(p, S3_LEAF, K3_NONE);
            return;
        }
        if (strcmp(e, "DisplayUnit") == 0) {
            if (start_display_unit(p) < 0)
                return;
            push(p, S3_SKIP, K3_NONE); /* Annotations inside */
            return;
        }
        if (strcmp(e, "Annotations") == 0) {
            push(p, S3_ANNOTS, K3_NONE);
            return;
        }
        unknown_element(p, "Unit");
        break;
    }
    case S3_TYPEDEFS: {
        size_t n = strlen(e);
        k = n > 4 && strcmp(e + n - 4, "Type") == 0 ? -2 : -1;
        if (k == -2) {
            char base[32];
            snprintf(base, sizeof base, "%.*s", (int)(n - 4), e);
            k = lookup(base, var_elems, NVAR_ELEMS);
        }
        if (k >= 0) {
            fmuc_md_type *t = append(p, (void **)&md->types, &p->cap_types, &md->ntypes, sizeof *t);
            if (!t)
                return;
            t->line = p->line;
            t->type = kind_of(k + 1);
            t->base = (uint8_t)(k + 1);
            t->ntypes = 1;
            for_attrs(p, a_typedef, t);
            if (!t->name)
                missing_attr(p, "name");
            p->cap_items = 0;
            push(p, S3_TYPE, K3_NONE);
            return;
        }
        unknown_element(p, "TypeDefinitions");
        break;
    }
    case S3_TYPE: {
        fmuc_md_type *t = &md->types[md->ntypes - 1];
        if (strcmp(e, "Item") == 0 && t->type == FMUC_TYPE_ENUMERATION) {
            fmuc_md_item *it = append(p, (void **)&t->items, &p->cap_items, &t->nitems, sizeof *it);
            if (!it)
                return;
            it->line = p->line;
            for_attrs(p, a_item, it);
            if (!it->name)
                missing_attr(p, "name");
            push(p, S3_SKIP, K3_NONE);
            return;
        }
        if (strcmp(e, "Annotations") == 0) {
            push(p, S3_ANNOTS, K3_NONE);
            return;
        }
        unknown_element(p, "TypeDefinitions");
        break;
    }
    case S3_ANNOTS:
        start_annotation(p);
        break;
    case S3_LOGCATS:
        if (strcmp(e, "Category") == 0) {
            if (start_category(p) < 0)
                return;
            push(p, S3_SKIP, K3_NONE);
            return;
        }
        unknown_element(p, "LogCategories");
        break;
    case S3_MODELVARS:
        k = lookup(e, var_elems, NVAR_ELEMS);
        if (k >= 0) {
            start_var(p, k + 1);
            return;
        }
        unknown_element(p, "ModelVariables");
        break;
    case S3_VAR:
        start_var_child(p);
        return;
    case S3_MODELSTRUCT:
        k = lookup(e, unk_elems, FMUC_UNK_COUNT);
        if (k >= 0) {
            child_order(p, f, "ModelStructure", k, 0);
            start_unknown(p, k);
            push(p, S3_ANNOTATED, K3_NONE);
            return;
        }
        unknown_element(p, "ModelStructure");
        break;
    case S3_LEAF:
        leaf_child(p);
        break;
    case S3_ANNOTATED:
        if (strcmp(e, "Annotations") == 0 && f->nchild == 1) {
            push(p, S3_ANNOTS, K3_NONE);
            return;
        }
        ISSUE(p, FMUC_ISSUE_ELEMENT_UNKNOWN, NULL, NULL,
              "element <%s> at line %u is not allowed here (the parent element has one "
              "<Annotations> at most in the %s schema)",
              e, p->line, p->ops->schema);
        break;
    case S3_SKIP:
    default:
        break;
    }
    push(p, S3_SKIP, K3_NONE);
}

static void end_element(parser *p)
{
    frame *f = &p->stack[--p->depth];
    if (f->st == S3_MODELVARS && !f->nchild)
        empty_list(p, f, "ModelVariables", "Float64/Int32/.../Clock");
    if (f->st == S3_ANNOTS && !f->nchild)
        empty_list(p, f, "Annotations", "Annotation");
    if (f->st == S3_ROOT) {
        resolve(p);
        end_root(p, f);
    }
}

const fmuc_md__ops fmuc_md__fmi3_ops = {start_element, end_element, "FMI 3.0", NULL, 3};
