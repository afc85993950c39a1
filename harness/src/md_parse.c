/* Streaming parse of modelDescription.xml (FMI 2.0 §2.2, XSD fmi2ModelDescription.xsd) into the
 * compact fmuc_md model with libxml2's xmlTextReader. Lenient: every syntax problem becomes an
 * fmuc_md_issue; a DOCTYPE is refused before libxml2 sees it (no entity expansion, no fetches). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>

#include "fmuc/fmuc_md.h"
#include "md_arena.h"

enum {
    DEF_MAX_BYTES = 512u * 1024 * 1024,
    DEF_MAX_VARS = 10000000,
    DEF_MAX_DEPTH = 64,
    DEF_MAX_ISSUES = 10000,
    MAX_VALUE_COPY = 256, /* bytes of an offending value kept in an issue */
    MAX_NAME_COPY = 128
};

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

typedef struct frame {
    uint8_t st, kind;
    uint8_t aux;       /* SourceFiles: 1 when inside CoSimulation */
    int8_t last_rank;  /* order rank of the last child seen (-1: none) */
    uint32_t nchild;   /* child elements seen */
    uint32_t line;
    unsigned seen;     /* per-parent bitset of once-only children */
} frame;

typedef struct vec {
    void *p;
    size_t n, cap;
} vec;

typedef struct parser {
    fmuc_md *md;
    fmuc_md__arena *ar;
    xmlTextReaderPtr r;
    fmuc_md_limits lim;
    frame *stack;
    size_t depth;
    size_t cap_vars, cap_issues, cap_units, cap_disp, cap_types, cap_items, cap_cats, cap_tools,
        cap_children, cap_src[2], cap_unk[3];
    int oom, stop;
    uint32_t line;    /* line of the current element */
    const char *elem; /* its name (libxml2 dictionary string; copied when kept) */
    int sv_vr_seen;
    /* The document streams through a window: bytes come from the source (src), are handed to
     * libxml2 by io_read and kept until the start-tag cursor has passed them. The cursor gives
     * exact start-tag lines, advanced one start tag per element (libxml2 keeps only 16-bit
     * element lines, at the end of the start tag). Offsets are absolute in the document. */
    fmuc_md_read_fn src;
    void *src_ctx;
    char *win;
    size_t win_off, win_len, win_cap; /* win[0] is document byte win_off; win_len bytes held */
    size_t fed;                       /* bytes handed to libxml2 (absolute) */
    size_t raw_pos;                   /* cursor (absolute) */
    uint64_t total;                   /* bytes read from the source */
    int src_eof, src_err, too_big;
    int non_ascii;                    /* a byte >= 0x80 or NUL was read */
    uint32_t raw_line;
    int raw_ok;
    int root_seen;
    size_t dropped;
    char root_version[64];            /* fmiVersion of the first element, whatever its name */
    int root_version_seen;
    /* short strings that repeat (start values, units, declared types, quantities) are kept once:
     * a direct-mapped cache of arena copies, by hash */
    const char *icache[4096];
} parser;

/* ---------------------------------------------------------------------------------------- */

static int grow(parser *p, void **arr, size_t *cap, size_t need, size_t elsz)
{
    if (need <= *cap)
        return 0;
    size_t nc = *cap ? *cap : 8;
    while (nc < need) {
        if (nc > SIZE_MAX / 2 / elsz)
            return p->oom = 1, -1;
        nc *= 2;
    }
    void *np = realloc(*arr, nc * elsz);
    if (!np)
        return p->oom = 1, -1;
    *arr = np;
    *cap = nc;
    return 0;
}

/* Append one zeroed element to a growing array (*n elements, capacity *cap): its address, or
 * NULL when out of memory (p->oom set). */
static void *append(parser *p, void **arr, size_t *cap, size_t *n, size_t elsz)
{
    char *e;
    if (grow(p, arr, cap, *n + 1, elsz) < 0)
        return NULL;
    e = (char *)*arr + *n * elsz;
    (*n)++;
    memset(e, 0, elsz);
    return e;
}

static const char *dup_n(parser *p, const char *s, size_t max)
{
    if (!s)
        return NULL;
    size_t n = strlen(s);
    if (n > max) {
        n = max;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--; /* cut at a UTF-8 boundary */
    }
    char *d = fmuc_md__arena_strndup(p->ar, s, n);
    if (!d)
        p->oom = 1;
    return d;
}

static const char *dup(parser *p, const char *s)
{
    if (!s)
        return NULL;
    char *d = fmuc_md__arena_strndup(p->ar, s, strlen(s));
    if (!d)
        p->oom = 1;
    return d;
}

/* dup for values that often repeat: an equal string seen recently is shared (read-only). */
static const char *dup_i(parser *p, const char *s)
{
    size_t n = 0;
    uint32_t h = 2166136261u;
    for (; s[n] && n <= 64; n++)
        h = (h ^ (unsigned char)s[n]) * 16777619u;
    if (n > 64)
        return dup(p, s);
    const char **slot = &p->icache[(h ^ (h >> 12)) & 4095u];
    if (*slot && strcmp(*slot, s) == 0)
        return *slot;
    const char *d = fmuc_md__arena_strndup(p->ar, s, n);
    if (!d)
        p->oom = 1;
    return *slot = d;
}

static void issue_at(parser *p, int kind, uint32_t line, const char *elem, const char *attr,
                     const char *value, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static void issue_at(parser *p, int kind, uint32_t line, const char *elem, const char *attr,
                     const char *value, const char *fmt, ...)
{
    fmuc_md *md = p->md;
    if (md->nissues >= p->lim.max_issues) {
        p->dropped++;
        return;
    }
    if (grow(p, (void **)&md->issues, &p->cap_issues, md->nissues + 1, sizeof *md->issues) < 0)
        return;
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fmuc_md_issue *is = &md->issues[md->nissues++];
    is->kind = (uint8_t)kind;
    is->line = line;
    is->element = dup_n(p, elem ? elem : "", MAX_NAME_COPY);
    is->attribute = dup_n(p, attr, MAX_NAME_COPY);
    is->value = dup_n(p, value, MAX_VALUE_COPY);
    is->message = dup(p, msg);
}

#define ISSUE(p, kind, attr, value, ...) issue_at(p, kind, (p)->line, (p)->elem, attr, value, __VA_ARGS__)

/* Quote a value for a message, shortened. */
static const char *shorten(char buf[80], const char *v)
{
    size_t n = strlen(v);
    if (n < 72)
        return v;
    size_t k = 64;
    while (k > 0 && ((unsigned char)v[k] & 0xC0) == 0x80)
        k--;
    snprintf(buf, 80, "%.*s...", (int)k, v);
    return buf;
}

static double attr_double(parser *p, const char *attr, const char *v)
{
    double d;
    int rc = fmuc_md__parse_double(v, &d);
    if (rc == 0)
        return d;
    char b[80];
    ISSUE(p, FMUC_ISSUE_ATTR_SYNTAX, attr, v,
          "%s at line %u: attribute %s=\"%s\" is not a valid xs:double%s (§2.2)", p->elem, p->line,
          attr, shorten(b, v), rc == -2 ? " (NaN/INF or overflow not allowed)" : "");
    return NAN;
}

static int attr_int(parser *p, const char *attr, const char *v, int32_t *out)
{
    int rc = fmuc_md__parse_int32(v, out);
    if (rc == 0)
        return 0;
    char b[80];
    ISSUE(p, FMUC_ISSUE_ATTR_SYNTAX, attr, v,
          "%s at line %u: attribute %s=\"%s\" is not a valid xs:int%s (§2.2)", p->elem, p->line,
          attr, shorten(b, v), rc == -2 ? " (out of 32-bit range)" : "");
    return -1;
}

static int attr_uint(parser *p, const char *attr, const char *v, uint32_t *out)
{
    int rc = fmuc_md__parse_uint32(v, out);
    if (rc == 0)
        return 0;
    char b[80];
    ISSUE(p, FMUC_ISSUE_ATTR_SYNTAX, attr, v,
          "%s at line %u: attribute %s=\"%s\" is not a valid xs:unsignedInt%s (§2.2)", p->elem,
          p->line, attr, shorten(b, v), rc == -2 ? " (out of range 0..4294967295)" : "");
    return -1;
}

static int attr_bool(parser *p, const char *attr, const char *v, int *out)
{
    if (fmuc_md__parse_bool(v, out) == 0)
        return 0;
    char b[80];
    ISSUE(p, FMUC_ISSUE_ATTR_SYNTAX, attr, v,
          "%s at line %u: attribute %s=\"%s\" is not a valid xs:boolean (true, false, 1, 0)",
          p->elem, p->line, attr, shorten(b, v));
    return -1;
}

static int lookup(const char *v, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(v, names[i]) == 0)
            return i;
    return -1;
}

static const char *const causality_names[] = {"parameter", "calculatedParameter", "input",
                                              "output",    "local",               "independent"};
static const char *const variability_names[] = {"constant", "fixed", "tunable", "discrete",
                                                "continuous"};
static const char *const initial_names[] = {"exact", "approx", "calculated"};
static const char *const depkind_names[] = {"dependent", "constant", "fixed", "tunable",
                                            "discrete"};
static const char *const type_names[] = {"", "Real", "Integer", "Boolean", "String",
                                         "Enumeration", "Binary", "Clock"};
/* fmuc_type of an FMI 2.0 / 1.0 type element -> its base type */
static const uint8_t fmi2_base[] = {FMUC_BT_NONE,    FMUC_BT_FLOAT64, FMUC_BT_INT32,
                                    FMUC_BT_BOOLEAN, FMUC_BT_STRING,  FMUC_BT_ENUMERATION};
static const struct cap_row {
    const char *attr[3]; /* FMI 1.0, 2.0, 3.0 */
    unsigned ifaces[3];
} cap_table[FMUC_CAP_COUNT] = {
#define FMUC_CAP_DEF(id, a1, a2, a3, i1, i2, i3) {{a1, a2, a3}, {i1, i2, i3}},
#include "fmuc/fmuc_caps.def"
#undef FMUC_CAP_DEF
};

const char *fmuc_md_cap_attr(fmuc_cap cap, int fmi_version)
{
    if ((unsigned)cap >= FMUC_CAP_COUNT || fmi_version < 1 || fmi_version > 3)
        return NULL;
    return cap_table[cap].attr[fmi_version - 1];
}

unsigned fmuc_md_cap_ifaces(fmuc_cap cap, int fmi_version)
{
    if ((unsigned)cap >= FMUC_CAP_COUNT || fmi_version < 1 || fmi_version > 3)
        return 0;
    return cap_table[cap].ifaces[fmi_version - 1];
}

static int attr_enum(parser *p, const char *attr, const char *v, const char *const *names, int n)
{
    int i = lookup(v, names, n);
    if (i >= 0)
        return i;
    char list[256] = "";
    size_t off = 0;
    for (int k = 0; k < n && off < sizeof list; k++)
        off += (size_t)snprintf(list + off, sizeof list - off, "%s%s", k ? ", " : "", names[k]);
    char b[80];
    ISSUE(p, FMUC_ISSUE_ATTR_SYNTAX, attr, v,
          "%s at line %u: attribute %s=\"%s\" is not one of %s", p->elem, p->line, attr,
          shorten(b, v), list);
    return -1;
}

static int a_none(parser *p, const char *n, const char *v, void *obj)
{
    (void)p, (void)n, (void)v, (void)obj;
    return 0;
}

static void unknown_attr(parser *p, const char *attr, const char *v)
{
    char b[80];
    ISSUE(p, FMUC_ISSUE_ATTR_UNKNOWN, attr, v,
          "%s at line %u: attribute %s=\"%s\" is not defined by the FMI 2.0 schema", p->elem,
          p->line, attr, shorten(b, v));
}

static void missing_attr(parser *p, const char *attr)
{
    ISSUE(p, FMUC_ISSUE_ATTR_MISSING, attr, NULL,
          "%s at line %u: required attribute %s is missing", p->elem, p->line, attr);
}

/* Iterate the attributes of the current element: fn returns 1 when it knows the attribute. */
typedef int (*attr_fn)(parser *p, const char *name, const char *value, void *obj);

static void for_attrs(parser *p, attr_fn fn, void *obj)
{
    xmlTextReaderPtr r = p->r;
    if (xmlTextReaderHasAttributes(r) != 1)
        return;
    int rc = xmlTextReaderMoveToFirstAttribute(r);
    while (rc == 1 && !p->oom) {
        if (xmlTextReaderIsNamespaceDecl(r) != 1) {
            const char *name = (const char *)xmlTextReaderConstName(r);
            const char *value = (const char *)xmlTextReaderConstValue(r);
            if (!value)
                value = "";
            /* attributes in a namespace (xsi:noNamespaceSchemaLocation ...) belong to others */
            if (name && !xmlTextReaderConstNamespaceUri(r) && !fn(p, name, value, obj))
                unknown_attr(p, name, value);
        }
        rc = xmlTextReaderMoveToNextAttribute(r);
    }
    xmlTextReaderMoveToElement(r);
}

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
    else if (strcmp(n, "description") == 0)
        md->description = dup(p, v);
    else if (strcmp(n, "author") == 0)
        md->author = dup(p, v);
    else if (strcmp(n, "version") == 0)
        md->version = dup(p, v);
    else if (strcmp(n, "copyright") == 0)
        md->copyright = dup(p, v);
    else if (strcmp(n, "license") == 0)
        md->license = dup(p, v);
    else if (strcmp(n, "generationTool") == 0)
        md->generation_tool = dup(p, v);
    else if (strcmp(n, "generationDateAndTime") == 0)
        md->generation_date_and_time = dup(p, v);
    else if (strcmp(n, "variableNamingConvention") == 0) {
        md->variable_naming_convention = dup(p, v);
        static const char *const conv[] = {"flat", "structured"};
        attr_enum(p, n, v, conv, 2);
    } else if (strcmp(n, "numberOfEventIndicators") == 0) {
        md->has_number_of_event_indicators = 1;
        if (attr_uint(p, n, v, &md->number_of_event_indicators) < 0)
            md->number_of_event_indicators = 0;
    } else
        return 0;
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
        if (attr_uint(p, n, v, &c->itf->max_output_derivative_order) < 0)
            c->itf->max_output_derivative_order = 0;
        return 1;
    }
    unsigned iface = c->cs ? FMUC_IF_CS : FMUC_IF_ME;
    for (int k = 0; k < FMUC_CAP_COUNT; k++) {
        const char *a = cap_table[k].attr[1];
        if (!a || strcmp(n, a) != 0)
            continue;
        if (!(cap_table[k].ifaces[1] & iface))
            return 0;
        c->itf->caps_explicit |= 1u << k;
        int b = 0;
        if (attr_bool(p, n, v, &b) == 0 && b)
            c->itf->caps |= 1u << k;
        return 1;
    }
    return 0;
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

typedef struct name_desc {
    const char *name, *desc;
    req q;
} name_desc;

static int a_name_desc(parser *p, const char *n, const char *v, void *obj)
{
    name_desc *c = obj;
    if (strcmp(n, "name") == 0) {
        c->name = dup(p, v);
        c->q.seen |= R_A;
        return 1;
    }
    if (strcmp(n, "description") == 0) {
        c->desc = dup(p, v);
        return 1;
    }
    return 0;
}

/* The attributes of an element that has a required name and an optional description only
 * (SimpleType, Category). */
static void read_name_desc(parser *p, const char **name, const char **desc)
{
    name_desc c = {NULL, NULL, {0}};
    for_attrs(p, a_name_desc, &c);
    *name = c.name;
    *desc = c.desc;
    if (!(c.q.seen & R_A))
        missing_attr(p, "name");
}

static const char *const base_exps[8] = {"kg", "m", "s", "A", "K", "mol", "cd", "rad"};

static int a_baseunit(parser *p, const char *n, const char *v, void *obj)
{
    fmuc_md_unit *u = obj;
    int k = lookup(n, base_exps, 8);
    if (k >= 0) {
        int32_t e = 0;
        if (attr_int(p, n, v, &e) == 0)
            u->exp[k] = e;
        return 1;
    }
    if (strcmp(n, "factor") == 0)
        u->factor = attr_double(p, n, v);
    else if (strcmp(n, "offset") == 0)
        u->offset = attr_double(p, n, v);
    else
        return 0;
    return 1;
}

typedef struct du_ctx {
    fmuc_md_display_unit *du;
    req q;
} du_ctx;

static int a_displayunit(parser *p, const char *n, const char *v, void *obj)
{
    du_ctx *c = obj;
    if (strcmp(n, "name") == 0)
        c->du->name = dup(p, v), c->q.seen |= R_A;
    else if (strcmp(n, "factor") == 0)
        c->du->factor = attr_double(p, n, v);
    else if (strcmp(n, "offset") == 0)
        c->du->offset = attr_double(p, n, v);
    else
        return 0;
    return 1;
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
    } else if (real && strcmp(n, "relativeQuantity") == 0) {
        T_HAS(t) |= FMUC_HAS_RELATIVE_QUANTITY;
        if (attr_bool(p, n, v, &b) == 0 && b)
            T_FLAGS(t) |= FMUC_FLAG_RELATIVE_QUANTITY;
    } else if (real && strcmp(n, "unbounded") == 0) {
        T_HAS(t) |= FMUC_HAS_UNBOUNDED;
        if (attr_bool(p, n, v, &b) == 0 && b)
            T_FLAGS(t) |= FMUC_FLAG_UNBOUNDED;
    } else if (real && t->in_var && strcmp(n, "derivative") == 0) {
        fmuc_md_var *var = t->var;
        var->has |= FMUC_HAS_DERIVATIVE;
        if (attr_uint(p, n, v, &var->derivative) < 0)
            var->derivative = 0;
    } else if (real && t->in_var && strcmp(n, "reinit") == 0) {
        fmuc_md_var *var = t->var;
        var->has |= FMUC_HAS_REINIT;
        if (attr_bool(p, n, v, &b) == 0 && b)
            var->flags |= FMUC_FLAG_REINIT;
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

static int a_defexp(parser *p, const char *n, const char *v, void *obj)
{
    fmuc_md_experiment *e = obj;
    if (strcmp(n, "startTime") == 0)
        e->has_start = 1, e->start_time = attr_double(p, n, v);
    else if (strcmp(n, "stopTime") == 0)
        e->has_stop = 1, e->stop_time = attr_double(p, n, v);
    else if (strcmp(n, "tolerance") == 0)
        e->has_tolerance = 1, e->tolerance = attr_double(p, n, v);
    else if (strcmp(n, "stepSize") == 0)
        e->has_step = 1, e->step_size = attr_double(p, n, v);
    else
        return 0;
    return 1;
}

static int a_sv(parser *p, const char *n, const char *v, void *obj)
{
    fmuc_md_var *var = obj;
    int k;
    if (strcmp(n, "name") == 0) {
        var->name = dup(p, v);
        var->has |= FMUC_HAS_NAME;
    } else if (strcmp(n, "valueReference") == 0) {
        p->sv_vr_seen = 1;
        if (attr_uint(p, n, v, &var->value_reference) == 0)
            var->has |= FMUC_HAS_VALUE_REFERENCE;
        else
            var->value_reference = 0;
    } else if (strcmp(n, "causality") == 0) {
        var->has |= FMUC_HAS_CAUSALITY;
        k = attr_enum(p, n, v, causality_names, 6);
        var->causality = (uint8_t)(k < 0 ? FMUC_CAUS_INVALID : k);
    } else if (strcmp(n, "variability") == 0) {
        var->has |= FMUC_HAS_VARIABILITY;
        k = attr_enum(p, n, v, variability_names, 5);
        var->variability = (uint8_t)(k < 0 ? FMUC_VAR_INVALID : k);
    } else if (strcmp(n, "initial") == 0) {
        k = attr_enum(p, n, v, initial_names, 3);
        var->initial = (uint8_t)(k < 0 ? FMUC_INIT_INVALID : k + 1);
    } else if (strcmp(n, "description") == 0) {
        var->description = dup(p, v);
        var->has |= FMUC_HAS_DESCRIPTION;
    } else if (strcmp(n, "canHandleMultipleSetPerTimeInstant") == 0) {
        var->has |= FMUC_HAS_MULTISET;
        int b;
        if (attr_bool(p, n, v, &b) == 0 && b)
            var->flags |= FMUC_FLAG_MULTISET;
    } else {
        return 0;
    }
    return 1;
}

static size_t count_tokens(const char *v)
{
    size_t n = 0;
    int in = 0;
    for (; *v; v++) {
        int sp = *v == ' ' || *v == '\t' || *v == '\n' || *v == '\r';
        if (!sp && !in)
            n++;
        in = !sp;
    }
    return n;
}

/* Next whitespace-separated token of *s into buf (truncated); returns 0 at the end. */
static int next_token(const char **s, char *buf, size_t bufsz, int *truncated)
{
    const char *c = *s;
    while (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r')
        c++;
    if (!*c)
        return 0;
    size_t n = 0;
    *truncated = 0;
    while (*c && !(*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r')) {
        if (n + 1 < bufsz)
            buf[n++] = *c;
        else
            *truncated = 1;
        c++;
    }
    buf[n] = '\0';
    *s = c;
    return 1;
}

static int a_unknown(parser *p, const char *n, const char *v, void *obj)
{
    struct {
        fmuc_md_unknown *u;
        req q;
    } *c = obj;
    fmuc_md_unknown *u = c->u;
    char tok[64];
    int trunc;
    if (strcmp(n, "index") == 0) {
        c->q.seen |= R_A;
        if (attr_uint(p, n, v, &u->index) < 0)
            u->index = 0;
    } else if (strcmp(n, "dependencies") == 0) {
        u->has_deps = 1;
        size_t cnt = count_tokens(v);
        if (cnt > UINT32_MAX)
            cnt = UINT32_MAX;
        uint32_t *d = cnt ? fmuc_md__arena_alloc(p->ar, cnt * sizeof *d, sizeof *d) : NULL;
        if (cnt && !d)
            return p->oom = 1, 1;
        const char *s = v;
        size_t i = 0;
        int bad = 0;
        while (i < cnt && next_token(&s, tok, sizeof tok, &trunc)) {
            uint32_t x = 0;
            if (trunc || fmuc_md__parse_uint32(tok, &x) < 0) {
                x = 0;
                if (!bad++) {
                    char b[80];
                    ISSUE(p, FMUC_ISSUE_ATTR_SYNTAX, n, v,
                          "%s at line %u: attribute dependencies=\"%s\" has the item \"%s\" that "
                          "is not a valid xs:unsignedInt",
                          p->elem, p->line, shorten(b, v), tok);
                }
            }
            d[i++] = x;
        }
        u->deps = d;
        u->ndeps = (uint32_t)i;
    } else if (strcmp(n, "dependenciesKind") == 0) {
        u->has_kinds = 1;
        size_t cnt = count_tokens(v);
        if (cnt > UINT32_MAX)
            cnt = UINT32_MAX;
        uint8_t *d = cnt ? fmuc_md__arena_alloc(p->ar, cnt, 1) : NULL;
        if (cnt && !d)
            return p->oom = 1, 1;
        const char *s = v;
        size_t i = 0;
        int bad = 0;
        while (i < cnt && next_token(&s, tok, sizeof tok, &trunc)) {
            int k = trunc ? -1 : lookup(tok, depkind_names, 5);
            if (k < 0 && !bad++) {
                char b[80];
                ISSUE(p, FMUC_ISSUE_ATTR_SYNTAX, n, v,
                      "%s at line %u: attribute dependenciesKind=\"%s\" has the item \"%s\" that "
                      "is not one of dependent, constant, fixed, tunable, discrete",
                      p->elem, p->line, shorten(b, v), tok);
            }
            d[i++] = (uint8_t)(k < 0 ? FMUC_DEPKIND_INVALID : k);
        }
        u->kinds = d;
        u->nkinds = (uint32_t)i;
    } else {
        return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------------------------------- */
/* elements */

static void unknown_element(parser *p, const char *parent)
{
    ISSUE(p, FMUC_ISSUE_ELEMENT_UNKNOWN, NULL, NULL,
          "element <%s> at line %u is not allowed inside <%s> by the FMI 2.0 schema", p->elem,
          p->line, parent);
}

static void order_issue(parser *p, const char *parent, int repeated)
{
    if (repeated)
        ISSUE(p, FMUC_ISSUE_ELEMENT_ORDER, NULL, NULL,
              "element <%s> at line %u appears more than once inside <%s>", p->elem, p->line,
              parent);
    else
        ISSUE(p, FMUC_ISSUE_ELEMENT_ORDER, NULL, NULL,
              "element <%s> at line %u is out of the schema order inside <%s> (§2.2.1)", p->elem,
              p->line, parent);
}

/* Ordered child check: rank order must not decrease, once-only ranks appear once.
 * Returns 1 when the element is a repetition (its content is then skipped). */
static int child_order(parser *p, frame *f, const char *parent, int rank, int once)
{
    int rep = 0;
    if (rank < f->last_rank) {
        order_issue(p, parent, 0);
    }
    if (once) {
        if (f->seen & (1u << rank)) {
            order_issue(p, parent, 1);
            rep = 1;
        }
        f->seen |= 1u << rank;
    }
    if (rank > f->last_rank)
        f->last_rank = (int8_t)rank;
    return rep;
}

static void push(parser *p, uint8_t st, uint8_t k)
{
    frame *f = &p->stack[p->depth++];
    f->st = st;
    f->kind = k;
    f->last_rank = -1;
    f->nchild = 0;
    f->line = p->line;
    f->seen = 0;
    f->aux = 0;
}

static const char *top_names[] = {"ModelExchange",     "CoSimulation",  "UnitDefinitions",
                                  "TypeDefinitions",   "LogCategories", "DefaultExperiment",
                                  "VendorAnnotations", "ModelVariables", "ModelStructure"};

static void start_root_child(parser *p, frame *f)
{
    fmuc_md *md = p->md;
    const char *e = p->elem;
    int idx = lookup(e, top_names, 9);
    if (grow(p, (void **)&md->children, &p->cap_children, md->nchildren + 1,
             sizeof *md->children) == 0) {
        md->children[md->nchildren].name = dup_n(p, e, MAX_NAME_COPY);
        md->children[md->nchildren].line = p->line;
        md->nchildren++;
    }
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
    case 2:
        for_attrs(p, a_none, NULL);
        push(p, S_UNITDEFS, K_UNITDEFS);
        break;
    case 3:
        for_attrs(p, a_none, NULL);
        push(p, S_TYPEDEFS, K_TYPEDEFS);
        break;
    case 4:
        for_attrs(p, a_none, NULL);
        push(p, S_LOGCATS, K_LOGCATS);
        break;
    case 5:
        md->experiment.present = 1;
        md->experiment.line = p->line;
        for_attrs(p, a_defexp, &md->experiment);
        push(p, S_LEAF, K_NONE);
        break;
    case 6:
        for_attrs(p, a_none, NULL);
        push(p, S_VENDOR, K_VENDOR);
        break;
    case 7:
        md->has_model_variables = 1;
        for_attrs(p, a_none, NULL);
        push(p, S_MODELVARS, K_MODELVARS);
        break;
    case 8:
        md->has_model_structure = 1;
        for_attrs(p, a_none, NULL);
        push(p, S_MODELSTRUCT, K_MODELSTRUCT);
        break;
    }
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
    v->causality = FMUC_CAUS_LOCAL;
    v->variability = FMUC_VAR_CONTINUOUS;
    v->line = p->line;
    size_t mark = md->nissues;
    p->sv_vr_seen = 0;
    for_attrs(p, a_sv, v);
    if (!(v->has & FMUC_HAS_NAME))
        missing_attr(p, "name");
    if (!p->sv_vr_seen)
        missing_attr(p, "valueReference");
    /* name the variable in the messages of its issues */
    for (size_t i = mark; i < md->nissues; i++) {
        char buf[1024];
        snprintf(buf, sizeof buf, "variable %u \"%s\" (valueReference %u): %s",
                 (unsigned)md->nvars, v->name ? v->name : "?", v->value_reference,
                 md->issues[i].message ? md->issues[i].message : "");
        md->issues[i].message = dup(p, buf);
    }
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
        v->has |= FMUC_HAS_SEVERAL_TYPES;
        ISSUE(p, FMUC_ISSUE_ELEMENT_ORDER, NULL, NULL,
              "variable %u \"%s\": a second type element <%s> at line %u (exactly one allowed)",
              (unsigned)md->nvars, v->name ? v->name : "?", e, p->line);
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
    for (size_t i = mark; i < md->nissues; i++) {
        char buf[1024];
        snprintf(buf, sizeof buf, "variable %u \"%s\" (valueReference %u): %s",
                 (unsigned)md->nvars, v->name ? v->name : "?", v->value_reference,
                 md->issues[i].message ? md->issues[i].message : "");
        md->issues[i].message = dup(p, buf);
    }
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
        p->root_seen = 1;
        xmlChar *ver = xmlTextReaderGetAttribute(p->r, (const xmlChar *)"fmiVersion");
        if (ver) {
            snprintf(p->root_version, sizeof p->root_version, "%s", (const char *)ver);
            p->root_version_seen = 1;
            xmlFree(ver);
            md->fmi = strcmp(p->root_version, "2.0") == 0   ? FMUC_FMI2
                          : strncmp(p->root_version, "1.", 2) == 0 ? FMUC_FMI1
                          : strncmp(p->root_version, "3.", 2) == 0 ? FMUC_FMI3
                                                                  : FMUC_FMI_UNKNOWN;
        }
        md->root_name = dup_n(p, p->elem, MAX_NAME_COPY);
        md->root_line = p->line;
        if (strcmp(p->elem, "fmiModelDescription") != 0) {
            ISSUE(p, FMUC_ISSUE_ELEMENT_UNKNOWN, NULL, NULL,
                  "the root element is <%s> at line %u, expected <fmiModelDescription>", p->elem,
                  p->line);
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
            struct {
                const char *name;
                req q;
            } c = {NULL, {0}};
            for_attrs(p, a_name_only, &c);
            if (!(c.q.seen & R_A))
                missing_attr(p, "name");
            if (grow(p, (void **)&itf->source_files, &p->cap_src[f->aux],
                     itf->nsource_files + 1, sizeof *itf->source_files) == 0)
                itf->source_files[itf->nsource_files++] = c.name ? c.name : dup(p, "");
            push(p, S_LEAF, K_NONE);
            return;
        }
        unknown_element(p, "SourceFiles");
        break;
    case S_UNITDEFS:
        if (strcmp(e, "Unit") == 0) {
            fmuc_md_unit *u = append(p, (void **)&md->units, &p->cap_units, &md->nunits, sizeof *u);
            if (!u)
                return;
            u->line = p->line;
            u->factor = 1.0;
            struct {
                const char *name;
                req q;
            } c = {NULL, {0}};
            for_attrs(p, a_name_only, &c);
            u->name = c.name;
            if (!(c.q.seen & R_A))
                missing_attr(p, "name");
            p->cap_disp = 0;
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
            fmuc_md_display_unit *du =
                append(p, (void **)&u->display, &p->cap_disp, &u->ndisplay, sizeof *du);
            if (!du)
                return;
            du->factor = 1.0;
            du->line = p->line;
            du_ctx c = {du, {0}};
            for_attrs(p, a_displayunit, &c);
            if (!(c.q.seen & R_A))
                missing_attr(p, "name");
            push(p, S_LEAF, K_NONE);
            return;
        }
        unknown_element(p, "Unit");
        break;
    }
    case S_TYPEDEFS:
        if (strcmp(e, "SimpleType") == 0) {
            fmuc_md_type *t = append(p, (void **)&md->types, &p->cap_types, &md->ntypes, sizeof *t);
            if (!t)
                return;
            t->line = p->line;
            read_name_desc(p, &t->name, &t->description);
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
            fmuc_md_category *c =
                append(p, (void **)&md->categories, &p->cap_cats, &md->ncategories, sizeof *c);
            if (!c)
                return;
            c->line = p->line;
            read_name_desc(p, &c->name, &c->description);
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
            struct {
                const char *name;
                req q;
            } c = {NULL, {0}};
            for_attrs(p, a_name_only, &c);
            if (!(c.q.seen & R_A))
                missing_attr(p, "name");
            md->tools[md->ntools] = c.name ? c.name : dup(p, "");
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
            struct {
                const char *name;
                req q;
            } c = {NULL, {0}};
            for_attrs(p, a_name_only, &c);
            if (!(c.q.seen & R_A))
                missing_attr(p, "name");
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
    case S_LEAF: {
        /* the parent of a leaf is the element one below the top */
        ISSUE(p, FMUC_ISSUE_ELEMENT_UNKNOWN, NULL, NULL,
              "element <%s> at line %u is not allowed here (the parent element has no child "
              "elements in the FMI 2.0 schema)",
              e, p->line);
        break;
    }
    case S_DOC:
        break;
    }
    push(p, S_SKIP, K_NONE);
}

static void empty_list(parser *p, frame *f, const char *list, const char *child)
{
    issue_at(p, FMUC_ISSUE_ELEMENT_MISSING, f->line, list, NULL, NULL,
             "<%s> at line %u has no <%s> (at least one required)", list, f->line, child);
}

static void end_element(parser *p)
{
    frame *f = &p->stack[--p->depth];
    fmuc_md *md = p->md;
    switch ((elem_kind)f->kind) {
    case K_SRCFILES:
        if (!f->nchild)
            empty_list(p, f, "SourceFiles", "File");
        break;
    case K_UNITDEFS:
        if (!f->nchild)
            empty_list(p, f, "UnitDefinitions", "Unit");
        break;
    case K_TYPEDEFS:
        if (!f->nchild)
            empty_list(p, f, "TypeDefinitions", "SimpleType");
        break;
    case K_LOGCATS:
        if (!f->nchild)
            empty_list(p, f, "LogCategories", "Category");
        break;
    case K_VENDOR:
        if (!f->nchild)
            empty_list(p, f, "VendorAnnotations", "Tool");
        break;
    case K_MODELVARS:
        if (!f->nchild)
            empty_list(p, f, "ModelVariables", "ScalarVariable");
        break;
    case K_SV_ANNOT:
        if (!f->nchild)
            empty_list(p, f, "Annotations", "Tool");
        break;
    case K_ENUM:
        if (!f->nchild)
            empty_list(p, f, "Enumeration", "Item");
        break;
    case K_OUTPUTS:
        if (!f->nchild)
            empty_list(p, f, "Outputs", "Unknown");
        break;
    case K_DERIVS:
        if (!f->nchild)
            empty_list(p, f, "Derivatives", "Unknown");
        break;
    case K_INITS:
        if (!f->nchild)
            empty_list(p, f, "InitialUnknowns", "Unknown");
        break;
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
    if (f->st == S_ROOT) {
        if (!md->has_model_variables)
            issue_at(p, FMUC_ISSUE_ELEMENT_MISSING, f->line, "fmiModelDescription", NULL, NULL,
                     "<fmiModelDescription> has no <ModelVariables> (required, §2.2.1)");
        if (!md->has_model_structure)
            issue_at(p, FMUC_ISSUE_ELEMENT_MISSING, f->line, "fmiModelDescription", NULL, NULL,
                     "<fmiModelDescription> has no <ModelStructure> (required, §2.2.1)");
    }
}

/* ---------------------------------------------------------------------------------------- */

static void on_xml_error(void *arg, xmlErrorPtr err)
{
    parser *p = arg;
    if (!err)
        return;
    char msg[512];
    snprintf(msg, sizeof msg, "%s", err->message ? err->message : "XML error");
    size_t n = strlen(msg);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        msg[--n] = '\0';
    issue_at(p, FMUC_ISSUE_XML, err->line > 0 ? (uint32_t)err->line : 0, "", NULL, NULL,
             "XML %s at line %d: %s", err->level == XML_ERR_WARNING ? "warning" : "error",
             err->line, msg);
    if (err->level >= XML_ERR_FATAL)
        p->md->parse_stopped = 1;
}

static xmlParserInputPtr deny_loader(const char *url, const char *id, xmlParserCtxtPtr ctxt)
{
    (void)url, (void)id, (void)ctxt;
    return NULL; /* never load anything external */
}

static const char *skip_past(const char *from, const char *end, const char *pat, size_t patlen)
{
    const char *e = memmem(from, (size_t)(end - from), pat, patlen);
    return e ? e + patlen : NULL;
}

/* Line of the next start tag in the window; 0 when the scan lost track. The start tag of the
 * element libxml2 reports was handed to it, so it is in the window. */
static uint32_t next_start_tag_line(parser *p)
{
    if (!p->raw_ok)
        return 0;
    const char *end = p->win + p->win_len;
    const char *c = p->win + (p->raw_pos - p->win_off);
    for (;;) {
        const char *lt = memchr(c, '<', (size_t)(end - c));
        if (!lt || lt + 1 >= end)
            break;
        const char *nx = NULL;
        if (lt[1] == '?')
            nx = skip_past(lt + 2, end, "?>", 2);
        else if (lt[1] == '!' && end - lt >= 4 && lt[2] == '-' && lt[3] == '-')
            nx = skip_past(lt + 4, end, "-->", 3);
        else if (lt[1] == '!' && end - lt >= 9 && memcmp(lt, "<![CDATA[", 9) == 0)
            nx = skip_past(lt + 9, end, "]]>", 3);
        else if (lt[1] == '/' || lt[1] == '!')
            nx = lt + 2;
        else {
            const char *q = p->win + (p->raw_pos - p->win_off);
            uint32_t ln = p->raw_line;
            while ((q = memchr(q, '\n', (size_t)(lt - q))) != NULL)
                ln++, q++;
            p->raw_line = ln;
            p->raw_pos = p->win_off + (size_t)(lt - p->win) + 1; /* past the '<' */
            return p->raw_line;
        }
        if (!nx)
            break;
        c = nx;
    }
    p->raw_ok = 0;
    return 0;
}

/* Read more of the document into the window (dropping what the cursor has passed). 1 when
 * bytes were added, 0 at the end (or after a source error or the size limit). */
static int refill(parser *p)
{
    enum { STEP = 64 * 1024 };
    if (p->src_eof || p->src_err || p->too_big)
        return 0;
    size_t keep_from = p->raw_ok ? p->raw_pos : p->fed;
    if (keep_from > p->fed)
        keep_from = p->fed;
    size_t drop = keep_from - p->win_off;
    if (drop > 0 && drop >= p->win_len / 2) {
        memmove(p->win, p->win + drop, p->win_len - drop);
        p->win_len -= drop;
        p->win_off += drop;
    }
    if (p->win_cap - p->win_len < STEP) {
        size_t nc = p->win_cap ? p->win_cap : STEP * 2;
        while (nc - p->win_len < STEP)
            nc *= 2;
        char *nw = realloc(p->win, nc);
        if (!nw)
            return p->oom = 1, 0;
        p->win = nw;
        p->win_cap = nc;
    }
    long k = p->src(p->src_ctx, p->win + p->win_len, STEP);
    if (k < 0) {
        p->src_err = 1;
        return 0;
    }
    if (k == 0) {
        p->src_eof = 1;
        return 0;
    }
    const unsigned char *b = (const unsigned char *)p->win + p->win_len;
    for (long i = 0; i < k && !p->non_ascii; i++)
        p->non_ascii = b[i] >= 0x80 || b[i] == 0;
    p->win_len += (size_t)k;
    p->total += (uint64_t)k;
    if (p->total > p->lim.max_bytes)
        p->too_big = 1;
    return 1;
}

/* libxml2's input callback: the next bytes of the window. */
static int io_read(void *ctx, char *buf, int len)
{
    parser *p = ctx;
    if (len <= 0)
        return 0;
    while (p->fed == p->win_off + p->win_len) {
        if (p->too_big || !refill(p))
            return p->src_err || p->too_big ? -1 : 0;
    }
    size_t have = p->win_off + p->win_len - p->fed;
    size_t n = have < (size_t)len ? have : (size_t)len;
    memcpy(buf, p->win + (p->fed - p->win_off), n);
    p->fed += n;
    return (int)n;
}

/* Skip the XML prolog (BOM, declaration, comments, PIs, whitespace): 1 and *line when a
 * DOCTYPE follows, 0 when not, -1 when the bytes end inside the prolog (more are needed). */
static int prolog_doctype(const char *x, size_t n, uint32_t *line)
{
    size_t i = 0;
    uint32_t ln = 1;
    if (n < 3)
        return -1;
    if ((unsigned char)x[0] == 0xEF && (unsigned char)x[1] == 0xBB && (unsigned char)x[2] == 0xBF)
        i = 3;
    for (;;) {
        while (i < n && (x[i] == ' ' || x[i] == '\t' || x[i] == '\r' || x[i] == '\n'))
            ln += x[i++] == '\n';
        if (i + 9 > n)
            return -1;
        if (x[i] == '<' && x[i + 1] == '?') {
            const char *e = memmem(x + i, n - i, "?>", 2);
            if (!e)
                return -1;
            for (; x + i < e; i++)
                ln += x[i] == '\n';
            i += 2;
        } else if (memcmp(x + i, "<!--", 4) == 0) {
            const char *e = memmem(x + i + 4, n - i - 4, "-->", 3);
            if (!e)
                return -1;
            for (; x + i < e; i++)
                ln += x[i] == '\n';
            i += 3;
        } else if (memcmp(x + i, "<!DOCTYPE", 9) == 0) {
            *line = ln;
            return 1;
        } else {
            return 0;
        }
    }
}

/* One list of every unknown, grouped by kind; the per-kind lists become views into it. */
static void gather_unknowns(parser *p)
{
    fmuc_md *md = p->md;
    fmuc_md_unknown **lists[FMUC_UNK_COUNT] = {&md->outputs, &md->derivatives, &md->clocked_states,
                                               &md->initial_unknowns, &md->event_indicators};
    size_t *counts[FMUC_UNK_COUNT] = {&md->noutputs, &md->nderivatives, &md->nclocked_states,
                                      &md->ninitial_unknowns, &md->nevent_indicators};
    size_t total = 0;
    for (int k = 0; k < FMUC_UNK_COUNT; k++)
        total += *counts[k];
    fmuc_md_unknown *all = total ? malloc(total * sizeof *all) : NULL;
    if (total && !all) {
        p->oom = 1;
        return;
    }
    size_t at = 0;
    for (int k = 0; k < FMUC_UNK_COUNT; k++) {
        fmuc_md_unknown *l = *lists[k];
        for (size_t i = 0; i < *counts[k]; i++) {
            all[at + i] = l[i];
            all[at + i].kind = (uint8_t)k;
        }
        free(l);
        *lists[k] = *counts[k] ? all + at : NULL;
        at += *counts[k];
    }
    md->unknowns = all;
    md->nunknowns = total;
}

static void defaults(fmuc_md_limits *l, const fmuc_md_limits *in)
{
    memset(l, 0, sizeof *l);
    if (in)
        *l = *in;
    if (!l->max_bytes)
        l->max_bytes = DEF_MAX_BYTES;
    if (!l->max_variables)
        l->max_variables = DEF_MAX_VARS;
    if (!l->max_depth)
        l->max_depth = DEF_MAX_DEPTH;
    if (l->max_depth > 4096)
        l->max_depth = 4096;
    if (!l->max_issues)
        l->max_issues = DEF_MAX_ISSUES;
}

static xmlTextReaderPtr open_reader(parser *p)
{
    xmlSetExternalEntityLoader(deny_loader);
    /* No NOENT (no entity substitution), no DTDLOAD/DTDATTR/DTDVALID, no XINCLUDE, no HUGE. */
    int opts = XML_PARSE_NONET | XML_PARSE_NOBLANKS | XML_PARSE_COMPACT | XML_PARSE_BIG_LINES |
               XML_PARSE_NOERROR | XML_PARSE_NOWARNING;
    xmlTextReaderPtr r =
        xmlReaderForIO(io_read, NULL, p, "modelDescription.xml", NULL, opts);
    if (r)
        xmlTextReaderSetStructuredErrorHandler(r, on_xml_error, p);
    return r;
}

typedef struct mem_src {
    const char *p;
    size_t n, pos;
} mem_src;

static long mem_read(void *ctx, char *buf, size_t n)
{
    mem_src *m = ctx;
    size_t k = m->n - m->pos < n ? m->n - m->pos : n;
    memcpy(buf, m->p + m->pos, k);
    m->pos += k;
    return (long)k;
}

fmuc_err fmuc_md_parse(fmuc_md *out, const char *xml, size_t len, const fmuc_md_limits *limits)
{
    mem_src m = {xml ? xml : "", xml ? len : 0, 0};
    return fmuc_md_parse_stream(out, mem_read, &m, m.n, limits);
}

enum { MAX_PROLOG = 1024 * 1024 };

fmuc_err fmuc_md_parse_stream(fmuc_md *out, fmuc_md_read_fn read, void *ctx, uint64_t size_hint,
                              const fmuc_md_limits *limits)
{
    memset(out, 0, sizeof *out);
    parser ps;
    parser *p = &ps;
    memset(p, 0, sizeof *p);
    p->md = out;
    p->src = read;
    p->src_ctx = ctx;
    defaults(&p->lim, limits);
    fmuc_err err = FMUC_OK;
    p->ar = calloc(1, sizeof *p->ar);
    if (!p->ar)
        return FMUC_ENOMEM;
    out->arena_ = p->ar;
    p->elem = "";
    uint32_t dline = 0;
    if (size_hint != UINT64_MAX && size_hint > p->lim.max_bytes) {
        issue_at(p, FMUC_ISSUE_LIMIT, 0, "", NULL, NULL,
                 "modelDescription.xml is %llu bytes, over the parser limit of %zu",
                 (unsigned long long)size_hint, p->lim.max_bytes);
        out->parse_stopped = 1;
        err = FMUC_EXML;
        goto out;
    }
    /* the prolog is judged before libxml2 sees a byte: a DOCTYPE is refused unread */
    int pro;
    while ((pro = prolog_doctype(p->win, p->win_len, &dline)) < 0 && p->win_len < MAX_PROLOG &&
           refill(p))
        ;
    if (p->oom) {
        err = FMUC_ENOMEM;
        goto out;
    }
    if (pro < 0 && p->win_len >= MAX_PROLOG) {
        issue_at(p, FMUC_ISSUE_XML, 1, "", NULL, NULL,
                 "the XML prolog (declaration, comments and processing instructions before the "
                 "root element) is longer than %d bytes: the document was not read",
                 MAX_PROLOG);
        out->parse_stopped = 1;
        err = FMUC_EXML;
        goto out;
    }
    if (pro > 0) {
        issue_at(p, FMUC_ISSUE_XML, dline, "!DOCTYPE", NULL, NULL,
                 "a DOCTYPE declaration at line %u is not allowed (DTDs and entities are refused; "
                 "modelDescription.xml never needs one)",
                 dline);
        out->parse_stopped = 1;
        err = FMUC_EXML;
        goto out;
    }
    const unsigned char *w = (const unsigned char *)p->win;
    size_t len = p->win_len;
    if (len >= 2 && ((w[0] == 0xFF && w[1] == 0xFE) || (w[0] == 0xFE && w[1] == 0xFF)))
        issue_at(p, FMUC_ISSUE_XML, 1, "", NULL, NULL,
                 "modelDescription.xml is UTF-16 encoded; FMI 2.0 §2.2 requires UTF-8");
    p->stack = malloc(sizeof *p->stack * (p->lim.max_depth + 1));
    if (!p->stack) {
        err = FMUC_ENOMEM;
        goto out;
    }
    p->raw_line = 1;
    /* the byte scan works for ASCII-compatible encodings only (not UTF-16/32) */
    p->raw_ok = !(len >= 2 && (w[0] == '\0' || w[1] == '\0' || w[0] >= 0xFE));
    p->r = open_reader(p);
    if (!p->r) {
        err = FMUC_ENOMEM;
        goto out;
    }
    int enc_checked = 0;
    int rc;
    while (!p->stop && !p->oom && (rc = xmlTextReaderRead(p->r)) == 1) {
        int type = xmlTextReaderNodeType(p->r);
        if (!enc_checked) {
            enc_checked = 1;
            const char *enc = (const char *)xmlTextReaderConstEncoding(p->r);
            if (enc && strcasecmp(enc, "UTF-8") != 0)
                issue_at(p, FMUC_ISSUE_XML, 1, "", NULL, enc,
                         "encoding \"%s\" declared; FMI 2.0 §2.2 requires UTF-8", enc);
        }
        if (type == XML_READER_TYPE_DOCUMENT_TYPE) {
            p->line = (uint32_t)xmlTextReaderGetParserLineNumber(p->r);
            issue_at(p, FMUC_ISSUE_XML, p->line, "!DOCTYPE", NULL, NULL,
                     "a DOCTYPE declaration is not allowed (DTDs and entities are refused)");
            out->parse_stopped = 1;
            break;
        }
        if (type == XML_READER_TYPE_ENTITY_REFERENCE) {
            p->line = (uint32_t)xmlTextReaderGetParserLineNumber(p->r);
            issue_at(p, FMUC_ISSUE_XML, p->line, "", NULL, NULL,
                     "entity reference at line %u is not allowed", p->line);
            continue;
        }
        if (type == XML_READER_TYPE_ELEMENT) {
            uint32_t sl = next_start_tag_line(p);
            if (sl) {
                p->line = sl;
            } else {
                xmlNodePtr node = xmlTextReaderCurrentNode(p->r);
                long ln = node ? xmlGetLineNo(node) : -1;
                p->line = ln > 0 ? (uint32_t)ln : (uint32_t)xmlTextReaderGetParserLineNumber(p->r);
            }
            p->elem = (const char *)xmlTextReaderConstName(p->r);
            if (!p->elem)
                p->elem = "";
            if (p->depth >= p->lim.max_depth) {
                ISSUE(p, FMUC_ISSUE_LIMIT, NULL, NULL,
                      "element <%s> at line %u is nested deeper than %zu levels: parse stopped",
                      p->elem, p->line, p->lim.max_depth);
                out->parse_stopped = 1;
                break;
            }
            if (p->depth == 0 && p->root_seen) {
                ISSUE(p, FMUC_ISSUE_XML, NULL, NULL, "a second root element <%s> at line %u",
                      p->elem, p->line);
                break;
            }
            int empty = xmlTextReaderIsEmptyElement(p->r) == 1;
            size_t d0 = p->depth;
            start_element(p);
            if (empty && p->depth > d0)
                end_element(p);
        } else if (type == XML_READER_TYPE_END_ELEMENT) {
            if (p->depth > 0)
                end_element(p);
        }
    }
    if (p->src_err && !p->too_big)
        out->parse_stopped = 1; /* the source's own diagnostic tells why */
    if (p->too_big) {
        issue_at(p, FMUC_ISSUE_LIMIT, p->line, "", NULL, NULL,
                 "modelDescription.xml is longer than the parser limit of %zu bytes: parse "
                 "stopped at line %u",
                 p->lim.max_bytes, p->line);
        out->parse_stopped = 1;
    }
    /* Read the rest, unparsed: the source sees its end (an archive entry checks its CRC and
     * size there) and the ASCII fact covers every byte. */
    p->raw_ok = 0;
    do
        p->fed = p->win_off + p->win_len;
    while (!p->oom && refill(p));
    out->xml_all_ascii = p->src_eof && !p->non_ascii;
    gather_unknowns(p);
    if (p->root_version_seen)
        out->root_fmi_version = dup(p, p->root_version);
    if (p->oom) {
        err = FMUC_ENOMEM;
        goto out;
    }
    if (!p->root_seen) {
        if (!out->nissues)
            issue_at(p, FMUC_ISSUE_XML, 0, "", NULL, NULL, "no root element could be read");
        out->parse_stopped = 1;
        err = FMUC_EXML;
    }
out:
    if (out->parse_stopped && err != FMUC_ENOMEM && !p->oom) {
        /* A parse cut short (by a parser limit too) leaves a partial model that the checks
         * must not judge; md-well-formed reports XML issues, so it must see one, or the run
         * would end as a silent PASS of an unread document. Recorded even over max_issues. */
        int have_xml = 0;
        for (size_t i = 0; i < out->nissues && !have_xml; i++)
            have_xml = out->issues[i].kind == FMUC_ISSUE_XML;
        if (!have_xml) {
            size_t keep = p->lim.max_issues;
            p->lim.max_issues = SIZE_MAX;
            issue_at(p, FMUC_ISSUE_XML, p->line, "", NULL, NULL,
                     "the document was not read to the end: a parser limit stopped the parse at "
                     "line %u",
                     p->line);
            p->lim.max_issues = keep;
        }
    }
    if (p->dropped) {
        size_t keep = p->lim.max_issues;
        p->lim.max_issues = SIZE_MAX; /* room for the one summary */
        issue_at(p, FMUC_ISSUE_LIMIT, 0, "", NULL, NULL,
                 "%zu more issues were found but not recorded (limit %zu)", p->dropped, keep);
    }
    out->nissues_dropped = p->dropped;
    if (p->r)
        xmlFreeTextReader(p->r);
    free(p->stack);
    free(p->win);
    if (p->oom && err == FMUC_OK)
        err = FMUC_ENOMEM;
    return err;
}

/* Read the root element's fmiVersion without building a model. */
fmuc_err fmuc_md_peek_fmi_version(char *out, size_t outsz, const char *xml, size_t len)
{
    if (outsz)
        out[0] = '\0';
    if (!xml)
        return FMUC_EXML;
    fmuc_md md;
    fmuc_err err = fmuc_md_parse(&md, xml, len, NULL);
    if (err == FMUC_ENOMEM) {
        fmuc_md_free(&md);
        return err;
    }
    if (md.root_fmi_version) {
        snprintf(out, outsz, "%s", md.root_fmi_version);
        err = FMUC_OK;
    } else {
        err = md.root_name ? FMUC_ERROR : FMUC_EXML;
    }
    fmuc_md_free(&md);
    return err;
}

/* ---------------------------------------------------------------------------------------- */

void fmuc_md_free(fmuc_md *md)
{
    if (!md)
        return;
    for (size_t i = 0; i < md->nunits; i++)
        free(md->units[i].display);
    for (size_t i = 0; i < md->ntypes; i++)
        free(md->types[i].items);
    free(md->units);
    free(md->types);
    free(md->categories);
    free((void *)md->tools);
    free(md->tool_lines);
    free(md->vars);
    if (md->unknowns) {
        free(md->unknowns); /* the per-kind lists point into it */
    } else {
        free(md->outputs);
        free(md->derivatives);
        free(md->clocked_states);
        free(md->initial_unknowns);
        free(md->event_indicators);
    }
    free(md->exts);
    free(md->children);
    free(md->issues);
    free((void *)md->me.source_files);
    free((void *)md->cs.source_files);
    if (md->arena_) {
        fmuc_md__arena_free(md->arena_);
        free(md->arena_);
    }
    memset(md, 0, sizeof *md);
}

const fmuc_md_var *fmuc_md_var_at(const fmuc_md *md, uint32_t index1)
{
    if (!md || index1 == 0 || index1 > md->nvars)
        return NULL;
    return &md->vars[index1 - 1];
}

const char *fmuc_md_causality_name(fmuc_causality c)
{
    if (c == FMUC_CAUS_STRUCTURAL_PARAMETER)
        return "structuralParameter";
    if (c == FMUC_CAUS_NONE)
        return "none";
    return (unsigned)c < 6 ? causality_names[c] : "invalid";
}

const char *fmuc_md_variability_name(fmuc_variability v)
{
    return (unsigned)v < 5 ? variability_names[v] : "invalid";
}

const char *fmuc_md_initial_name(fmuc_initial i)
{
    if (i == FMUC_INIT_NONE)
        return "none";
    return (unsigned)i <= 3 ? initial_names[i - 1] : "invalid";
}

const char *fmuc_md_type_name(fmuc_type t)
{
    if (t == FMUC_TYPE_NONE)
        return "none";
    return (unsigned)t <= FMUC_TYPE_CLOCK ? type_names[t] : "invalid";
}

const char *fmuc_md_cap_name(fmuc_cap cap)
{
    if ((unsigned)cap >= FMUC_CAP_COUNT)
        return "invalid";
    const struct cap_row *r = &cap_table[cap];
    return r->attr[1] ? r->attr[1] : r->attr[2] ? r->attr[2] : r->attr[0];
}

const fmuc_md_var_ext *fmuc_md_var_ext_of(const fmuc_md *md, size_t i)
{
    if (!md || i >= md->nvars || !md->vars[i].ext)
        return NULL;
    size_t lo = 0, hi = md->nexts;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (md->exts[mid].var < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < md->nexts && md->exts[lo].var == i ? &md->exts[lo] : NULL;
}

const char *fmuc_md_base_type_name(fmuc_base_type t)
{
    static const char *const names[FMUC_BT_COUNT] = {
        "none",   "Float32", "Float64", "Int8",   "UInt8",  "Int16",  "UInt16",     "Int32",
        "UInt32", "Int64",   "UInt64",  "Boolean", "String", "Binary", "Clock", "Enumeration"};
    return (unsigned)t < FMUC_BT_COUNT ? names[t] : "invalid";
}

const char *fmuc_md_unknown_kind_name(fmuc_unknown_kind k)
{
    static const char *const names[FMUC_UNK_COUNT] = {
        "Output", "ContinuousStateDerivative", "ClockedState", "InitialUnknown", "EventIndicator"};
    return (unsigned)k < FMUC_UNK_COUNT ? names[k] : "invalid";
}

const char *fmuc_md_dep_kind_name(fmuc_dep_kind k)
{
    return (unsigned)k < 5 ? depkind_names[k] : "invalid";
}

const char *fmuc_md_issue_kind_name(fmuc_md_issue_kind k)
{
    static const char *const names[] = {"xml",         "attr-syntax",     "attr-missing",
                                        "attr-unknown", "element-unknown", "element-order",
                                        "limit",        "element-missing"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "invalid";
}

fmuc_initial fmuc_md_effective_initial(const fmuc_md_var *v)
{
    if (v->initial != FMUC_INIT_NONE)
        return (fmuc_initial)v->initial;
    int c = v->causality, var = v->variability;
    /* §2.2.7 tables: A = exact, B = calculated (allowed approx), C = calculated */
    switch (var) {
    case FMUC_VAR_CONSTANT:
        if (c == FMUC_CAUS_OUTPUT || c == FMUC_CAUS_LOCAL)
            return FMUC_INIT_EXACT; /* A */
        return FMUC_INIT_NONE;
    case FMUC_VAR_FIXED:
    case FMUC_VAR_TUNABLE:
        if (c == FMUC_CAUS_PARAMETER)
            return FMUC_INIT_EXACT; /* A */
        if (c == FMUC_CAUS_CALCULATED_PARAMETER || c == FMUC_CAUS_LOCAL)
            return FMUC_INIT_CALCULATED; /* B */
        return FMUC_INIT_NONE;
    case FMUC_VAR_DISCRETE:
    case FMUC_VAR_CONTINUOUS:
        if (c == FMUC_CAUS_OUTPUT || c == FMUC_CAUS_LOCAL)
            return FMUC_INIT_CALCULATED; /* C */
        return FMUC_INIT_NONE;           /* D, E, or an invalid cell */
    default:
        return FMUC_INIT_NONE;
    }
}
