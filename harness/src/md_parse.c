/* The streaming core of the model-description parsers: the document's bytes pass through a small
 * window into libxml2's xmlTextReader (never held whole, never a DOM); the element parser of the
 * document's FMI version (chosen by the root's fmiVersion: md_parse_fmi1.c, md_parse_fmi2.c,
 * md_parse_fmi3.c) fills the version-neutral fmuc_md. Lenient: every syntax problem becomes an
 * fmuc_md_issue; a DOCTYPE is refused before libxml2 sees it (no entity expansion, no fetches). */
#include "md_parse_internal.h"

/* ---------------------------------------------------------------------------------------- */

int grow(parser *p, void **arr, size_t *cap, size_t need, size_t elsz)
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
void *append(parser *p, void **arr, size_t *cap, size_t *n, size_t elsz)
{
    char *e;
    if (grow(p, arr, cap, *n + 1, elsz) < 0)
        return NULL;
    e = (char *)*arr + *n * elsz;
    (*n)++;
    memset(e, 0, elsz);
    return e;
}

const char *dup_n(parser *p, const char *s, size_t max)
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

const char *dup(parser *p, const char *s)
{
    if (!s)
        return NULL;
    char *d = fmuc_md__arena_strndup(p->ar, s, strlen(s));
    if (!d)
        p->oom = 1;
    return d;
}

/* dup for values that often repeat: an equal string seen recently is shared (read-only). */
const char *dup_i(parser *p, const char *s)
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


void issue_at(parser *p, int kind, uint32_t line, const char *elem, const char *attr,
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


/* Quote a value for a message, shortened. */
const char *shorten(char buf[80], const char *v)
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

double attr_double(parser *p, const char *attr, const char *v)
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

int attr_int(parser *p, const char *attr, const char *v, int32_t *out)
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

int attr_uint(parser *p, const char *attr, const char *v, uint32_t *out)
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

int attr_bool(parser *p, const char *attr, const char *v, int *out)
{
    if (fmuc_md__parse_bool(v, out) == 0)
        return 0;
    char b[80];
    ISSUE(p, FMUC_ISSUE_ATTR_SYNTAX, attr, v,
          "%s at line %u: attribute %s=\"%s\" is not a valid xs:boolean (true, false, 1, 0)",
          p->elem, p->line, attr, shorten(b, v));
    return -1;
}

int lookup(const char *v, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(v, names[i]) == 0)
            return i;
    return -1;
}

const char *const causality_names[] = {"parameter", "calculatedParameter", "input",
                                              "output",    "local",               "independent"};
const char *const variability_names[] = {"constant", "fixed", "tunable", "discrete",
                                                "continuous"};
const char *const initial_names[] = {"exact", "approx", "calculated"};
const char *const depkind_names[] = {"dependent", "constant", "fixed", "tunable",
                                            "discrete"};
const char *const type_names[] = {"", "Real", "Integer", "Boolean", "String",
                                         "Enumeration", "Binary", "Clock"};
/* fmuc_type of an FMI 2.0 / 1.0 type element -> its base type */
const uint8_t fmi2_base[] = {FMUC_BT_NONE,    FMUC_BT_FLOAT64, FMUC_BT_INT32,
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

int attr_enum(parser *p, const char *attr, const char *v, const char *const *names, int n)
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

int a_none(parser *p, const char *n, const char *v, void *obj)
{
    (void)p, (void)n, (void)v, (void)obj;
    return 0;
}

void unknown_attr(parser *p, const char *attr, const char *v)
{
    char b[80];
    ISSUE(p, FMUC_ISSUE_ATTR_UNKNOWN, attr, v,
          "%s at line %u: attribute %s=\"%s\" is not defined by the %s schema", p->elem,
          p->line, attr, shorten(b, v), p->schema);
}

void missing_attr(parser *p, const char *attr)
{
    ISSUE(p, FMUC_ISSUE_ATTR_MISSING, attr, NULL,
          "%s at line %u: required attribute %s is missing", p->elem, p->line, attr);
}


void for_attrs(parser *p, attr_fn fn, void *obj)
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

size_t count_tokens(const char *v)
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
int next_token(const char **s, char *buf, size_t bufsz, int *truncated)
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


void unknown_element(parser *p, const char *parent)
{
    ISSUE(p, FMUC_ISSUE_ELEMENT_UNKNOWN, NULL, NULL,
          "element <%s> at line %u is not allowed inside <%s> by the %s schema", p->elem,
          p->line, parent, p->schema);
}

void order_issue(parser *p, const char *parent, int repeated)
{
    if (repeated)
        ISSUE(p, FMUC_ISSUE_ELEMENT_ORDER, NULL, NULL,
              "element <%s> at line %u appears more than once inside <%s>", p->elem, p->line,
              parent);
    else
        ISSUE(p, FMUC_ISSUE_ELEMENT_ORDER, NULL, NULL,
              "element <%s> at line %u is out of the schema order inside <%s> (%s)", p->elem,
              p->line, parent, p->ops->fmi == 3 ? "FMI 3.0 §2.4" : "§2.2.1");
}

/* Ordered child check: rank order must not decrease, once-only ranks appear once.
 * Returns 1 when the element is a repetition (its content is then skipped). */
int child_order(parser *p, frame *f, const char *parent, int rank, int once)
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

void push(parser *p, uint8_t st, uint8_t k)
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


void empty_list(parser *p, frame *f, const char *list, const char *child)
{
    issue_at(p, FMUC_ISSUE_ELEMENT_MISSING, f->line, list, NULL, NULL,
             "<%s> at line %u has no <%s> (at least one required)", list, f->line, child);
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

/* Skip the XML prolog (BOM, declaration, comments, PIs, whitespace) incrementally over the
 * window as it fills: 1 and *line when a DOCTYPE follows, 0 when not, -1 when the bytes end
 * inside the prolog (more are needed). Each byte is looked at once however long the prolog. */
static int prolog_doctype(parser *p, uint32_t *line)
{
    const char *x = p->win;
    size_t n = p->win_len, i = p->pro_i;
    if (!p->pro_line) {
        if (n < 3)
            return -1;
        p->pro_line = 1;
        if ((unsigned char)x[0] == 0xEF && (unsigned char)x[1] == 0xBB &&
            (unsigned char)x[2] == 0xBF)
            i = 3;
    }
    for (;;) {
        if (p->pro_state == 0) {
            while (i < n && (x[i] == ' ' || x[i] == '\t' || x[i] == '\r' || x[i] == '\n'))
                p->pro_line += x[i++] == '\n';
            if (i + 9 > n) {
                p->pro_i = i;
                return -1;
            }
            if (x[i] == '<' && x[i + 1] == '?') {
                p->pro_state = 1;
                i += 2;
            } else if (memcmp(x + i, "<!--", 4) == 0) {
                p->pro_state = 2;
                i += 4;
            } else if (memcmp(x + i, "<!DOCTYPE", 9) == 0) {
                *line = p->pro_line;
                return 1;
            } else {
                return 0;
            }
        } else {
            const char *pat = p->pro_state == 1 ? "?>" : "-->";
            size_t pl = p->pro_state == 1 ? 2 : 3;
            const char *e = memmem(x + i, n - i, pat, pl);
            size_t to = e ? (size_t)(e - x) : (n - i >= pl - 1 ? n - (pl - 1) : i);
            for (; i < to; i++)
                p->pro_line += x[i] == '\n';
            if (!e) {
                p->pro_i = i;
                return -1;
            }
            i += pl;
            p->pro_state = 0;
        }
    }
}

/* At the root: read fmiVersion (whatever the root's name) and take that version's parser. */
static void choose_version(parser *p)
{
    fmuc_md *md = p->md;
    xmlChar *ver = xmlTextReaderGetAttribute(p->r, (const xmlChar *)"fmiVersion");
    if (ver) {
        snprintf(p->root_version, sizeof p->root_version, "%s", (const char *)ver);
        p->root_version_seen = 1;
        xmlFree(ver);
        md->fmi = strcmp(p->root_version, "2.0") == 0       ? FMUC_FMI2
                  : strncmp(p->root_version, "1.", 2) == 0 ? FMUC_FMI1
                  : strncmp(p->root_version, "3.", 2) == 0 ? FMUC_FMI3
                                                          : FMUC_FMI_UNKNOWN;
    }
    p->ops = md->fmi == FMUC_FMI3   ? &fmuc_md__fmi3_ops
             : md->fmi == FMUC_FMI1 ? &fmuc_md__fmi1_ops
                                    : &fmuc_md__fmi2_ops;
    p->schema = p->ops->schema;
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
    p->ops = &fmuc_md__fmi2_ops;
    p->schema = p->ops->schema;
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
    while ((pro = prolog_doctype(p, &dline)) < 0 && refill(p))
        ;
    if (p->oom) {
        err = FMUC_ENOMEM;
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
            const char *ns = (const char *)xmlTextReaderConstNamespaceUri(p->r);
            if (p->depth == 0 && ns) /* inherited by every element below it */
                ISSUE(p, FMUC_ISSUE_ELEMENT_UNKNOWN, NULL, NULL,
                      "the root element <%s> at line %u is in the XML namespace '%.200s': the "
                      "FMI schema has no target namespace, its elements are in none",
                      p->elem, p->line, ns);
            if (p->depth == 0)
                choose_version(p);
            p->ops->start(p);
            if (empty && p->depth > d0)
                p->ops->end(p);
        } else if ((type == XML_READER_TYPE_TEXT || type == XML_READER_TYPE_CDATA) &&
                   p->ops->text && p->depth > 0) {
            const char *t = (const char *)xmlTextReaderConstValue(p->r);
            if (t)
                p->ops->text(p, t);
        } else if (type == XML_READER_TYPE_END_ELEMENT) {
            if (p->depth > 0)
                p->ops->end(p);
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
    /* Read the rest, unparsed (also after a refusal): the source sees its end (an archive entry
     * checks its CRC and size there) and the ASCII fact covers every byte. */
    if (p->total || p->win) {
        p->raw_ok = 0;
        do
            p->fed = p->win_off + p->win_len;
        while (!p->oom && refill(p));
        out->xml_all_ascii = p->src_eof && !p->non_ascii;
    }
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
    for (size_t i = 0; i < md->nexts; i++) {
        free(md->exts[i].dims);
        free((void *)md->exts[i].starts);
        free(md->exts[i].aliases);
        free((void *)md->exts[i].direct);
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

const char *fmuc_md_fmt_double(char buf[32], double v)
{
    snprintf(buf, 32, "%.15g", v);
    if (isfinite(v) && strtod(buf, NULL) != v)
        snprintf(buf, 32, "%.17g", v);
    return buf;
}

int fmuc_md_override_stop_time(fmuc_md *md, double stop, char *why, size_t whylen)
{
    const fmuc_md_experiment *d = fmuc_md_declared_experiment(md);
    double start = d->present && d->has_start ? d->start_time : 0.0;
    char a[32], b[32], c[32];
    if (!isfinite(stop) || !isfinite(start) || !(stop > start)) {
        snprintf(why, whylen, "stop time %s is not after the start time %s (%s)",
                 fmuc_md_fmt_double(a, stop), fmuc_md_fmt_double(b, start),
                 d->present && d->has_start ? "DefaultExperiment startTime" : "default 0");
        return -1;
    }
    if (d->present && d->has_step && isfinite(d->step_size) && d->step_size > 0 &&
        !(d->step_size < stop - start)) {
        snprintf(why, whylen, "stop time %s leaves an interval of %s, no longer than "
                 "DefaultExperiment stepSize=%s", fmuc_md_fmt_double(a, stop),
                 fmuc_md_fmt_double(b, stop - start), fmuc_md_fmt_double(c, d->step_size));
        return -1;
    }
    if (!md->experiment_overridden) {
        md->experiment_declared = md->experiment;
        md->experiment_overridden = 1;
    }
    md->experiment.present = 1;
    md->experiment.has_stop = 1;
    md->experiment.stop_time = stop;
    return 0;
}

const fmuc_md_experiment *fmuc_md_declared_experiment(const fmuc_md *md)
{
    return md->experiment_overridden ? &md->experiment_declared : &md->experiment;
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
        if (c == FMUC_CAUS_PARAMETER || c == FMUC_CAUS_STRUCTURAL_PARAMETER)
            return FMUC_INIT_EXACT; /* A (FMI 3.0 cells 16, 17 for structural parameters) */
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
