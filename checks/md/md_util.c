/* Shared helpers of the static modelDescription checks (see md_util.h). */
#include "md_util.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------------- hashing */

uint64_t fmuc_mdu__hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    if (s)
        for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
            h ^= *p;
            h *= 1099511628211ull;
        }
    return h;
}

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

static size_t cap_for(size_t expected)
{
    size_t cap = 16;
    while (cap < expected * 2 + 2)
        cap <<= 1;
    return cap;
}

/* ---------------------------------------------------------------- string map */

int fmuc_mdu__map_init(fmuc_mdu_map *m, size_t expected)
{
    memset(m, 0, sizeof *m);
    m->cap = cap_for(expected);
    m->slots = calloc(m->cap, sizeof *m->slots);
    if (!m->slots) {
        m->cap = 0;
        return -1;
    }
    return 0;
}

/* The slot index comes from the low bits of the 64-bit hash, the stored check from the high 32. */
static size_t map_slot(const fmuc_mdu_slot *slots, size_t cap, uint64_t h, const char *key)
{
    uint32_t hh = (uint32_t)(h >> 32);
    size_t i = (size_t)h & (cap - 1);
    while (slots[i].key && (slots[i].hash != hh || strcmp(slots[i].key, key) != 0))
        i = (i + 1) & (cap - 1);
    return i;
}

static int map_grow(fmuc_mdu_map *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 16;
    fmuc_mdu_slot *ns = calloc(ncap, sizeof *ns);
    if (!ns)
        return -1;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key) {
            size_t j = (size_t)fmuc_mdu__hash(m->slots[i].key) & (ncap - 1);
            while (ns[j].key) /* the keys are distinct: only a free slot is looked for */
                j = (j + 1) & (ncap - 1);
            ns[j] = m->slots[i];
        }
    free(m->slots);
    m->slots = ns;
    m->cap = ncap;
    return 0;
}

int fmuc_mdu__map_put(fmuc_mdu_map *m, const char *key, size_t val, size_t *existing)
{
    if (!key)
        key = "";
    if (val > UINT32_MAX || ((m->n + 1) * 2 > m->cap && map_grow(m) < 0))
        return -1;
    uint64_t h = fmuc_mdu__hash(key);
    size_t i = map_slot(m->slots, m->cap, h, key);
    if (m->slots[i].key) {
        if (existing)
            *existing = m->slots[i].val;
        return 0;
    }
    m->slots[i] = (fmuc_mdu_slot){key, (uint32_t)(h >> 32), (uint32_t)val};
    m->n++;
    return 1;
}

int fmuc_mdu__map_get(const fmuc_mdu_map *m, const char *key, size_t *val)
{
    if (!m->cap)
        return 0;
    if (!key)
        key = "";
    size_t i = map_slot(m->slots, m->cap, fmuc_mdu__hash(key), key);
    if (!m->slots[i].key)
        return 0;
    if (val)
        *val = m->slots[i].val;
    return 1;
}

void fmuc_mdu__map_free(fmuc_mdu_map *m)
{
    free(m->slots);
    memset(m, 0, sizeof *m);
}

int fmuc_mdu__map_entries(fmuc_mdu_map *m, const fmuc_zip_listing *zl)
{
    if (fmuc_mdu__map_init(m, zl->nentries + 1) < 0)
        return -1;
    for (size_t i = 0; i < zl->nentries; i++)
        if (zl->entries[i].name && fmuc_mdu__map_put(m, zl->entries[i].name, i, NULL) < 0)
            return -1;
    return 0;
}

/* ---------------------------------------------------------------- variable-name set */

int fmuc_mdu__nameset_init(fmuc_mdu_nameset *m, const fmuc_md *md)
{
    memset(m, 0, sizeof *m);
    m->md = md;
    m->cap = md->nvars + md->nvars / 2 + 16;
    m->slots = calloc(m->cap, sizeof *m->slots);
    if (!m->slots) {
        m->cap = 0;
        return -1;
    }
    return 0;
}

int fmuc_mdu__nameset_put(fmuc_mdu_nameset *m, size_t i, size_t *existing)
{
    if (i >= UINT32_MAX || m->n + 1 >= m->cap)
        return -1;
    const char *key = m->md->vars[i].name;
    uint64_t h = fmuc_mdu__hash(key);
    uint64_t hh = h >> 32;
    /* position from the low 32 bits scaled onto [0, cap), check value from the high 32 */
    size_t k = (size_t)(((h & 0xffffffffu) * (uint64_t)m->cap) >> 32);
    for (;;) {
        uint64_t s = m->slots[k];
        if (!s)
            break;
        if ((s >> 32) == hh) {
            size_t j = (size_t)(s & 0xffffffffu) - 1;
            if (strcmp(m->md->vars[j].name, key) == 0) {
                if (existing)
                    *existing = j;
                return 0;
            }
        }
        if (++k == m->cap)
            k = 0;
    }
    m->slots[k] = (hh << 32) | (uint64_t)(i + 1);
    m->n++;
    return 1;
}

void fmuc_mdu__nameset_free(fmuc_mdu_nameset *m)
{
    free(m->slots);
    memset(m, 0, sizeof *m);
}

/* ---------------------------------------------------------------- integer map */

int fmuc_mdu__imap_init(fmuc_mdu_imap *m, size_t expected)
{
    memset(m, 0, sizeof *m);
    m->cap = cap_for(expected);
    m->keys = calloc(m->cap, sizeof *m->keys);
    m->vals = calloc(m->cap, sizeof *m->vals);
    m->used = calloc(m->cap, 1);
    if (!m->keys || !m->vals || !m->used) {
        fmuc_mdu__imap_free(m);
        return -1;
    }
    return 0;
}

static size_t imap_slot(const uint64_t *keys, const unsigned char *used, size_t cap, uint64_t key)
{
    size_t i = (size_t)mix64(key) & (cap - 1);
    while (used[i] && keys[i] != key)
        i = (i + 1) & (cap - 1);
    return i;
}

static int imap_grow(fmuc_mdu_imap *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 16;
    uint64_t *nk = calloc(ncap, sizeof *nk);
    size_t *nv = calloc(ncap, sizeof *nv);
    unsigned char *nu = calloc(ncap, 1);
    if (!nk || !nv || !nu) {
        free(nk);
        free(nv);
        free(nu);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++)
        if (m->used[i]) {
            size_t j = imap_slot(nk, nu, ncap, m->keys[i]);
            nk[j] = m->keys[i];
            nv[j] = m->vals[i];
            nu[j] = 1;
        }
    free(m->keys);
    free(m->vals);
    free(m->used);
    m->keys = nk;
    m->vals = nv;
    m->used = nu;
    m->cap = ncap;
    return 0;
}

int fmuc_mdu__imap_put(fmuc_mdu_imap *m, uint64_t key, size_t val, size_t *existing)
{
    if ((m->n + 1) * 2 > m->cap && imap_grow(m) < 0)
        return -1;
    size_t i = imap_slot(m->keys, m->used, m->cap, key);
    if (m->used[i]) {
        if (existing)
            *existing = m->vals[i];
        return 0;
    }
    m->used[i] = 1;
    m->keys[i] = key;
    m->vals[i] = val;
    m->n++;
    return 1;
}

int fmuc_mdu__imap_get(const fmuc_mdu_imap *m, uint64_t key, size_t *val)
{
    if (!m->cap)
        return 0;
    size_t i = imap_slot(m->keys, m->used, m->cap, key);
    if (!m->used[i])
        return 0;
    if (val)
        *val = m->vals[i];
    return 1;
}

void fmuc_mdu__imap_free(fmuc_mdu_imap *m)
{
    free(m->keys);
    free(m->vals);
    free(m->used);
    memset(m, 0, sizeof *m);
}

/* ---------------------------------------------------------------- formatting */

const char *fmuc_mdu__var_desc(char *buf, size_t n, const fmuc_md_var *v)
{
    char vr[16];
    if (v->has & FMUC_HAS_VALUE_REFERENCE)
        snprintf(vr, sizeof vr, "%u", (unsigned)v->value_reference);
    else
        snprintf(vr, sizeof vr, "?");
    if (v->name)
        snprintf(buf, n, "variable '%.200s' (vr %s, line %u)", v->name, vr, (unsigned)v->line);
    else
        snprintf(buf, n, "unnamed variable (vr %s, line %u)", vr, (unsigned)v->line);
    return buf;
}

const char *fmuc_mdu__str(const char *s)
{
    return s ? s : "(absent)";
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int fmuc_mdu__hex_binary(const char *v, size_t *where, size_t *nbytes)
{
    size_t n = 0, i = 0;
    while (is_blank(v[i]))
        i++;
    for (; v[i] && !is_blank(v[i]); i++, n++)
        if (!isxdigit((unsigned char)v[i])) {
            *where = i;
            return 0;
        }
    size_t end = i;
    while (is_blank(v[i]))
        i++;
    *where = v[i] ? i : end;
    *nbytes = n / 2;
    return !v[i] && n % 2 == 0;
}

const char *fmuc_mdu__type_name(unsigned t)
{
    static const char *const n[] = {"(none)", "Real", "Integer", "Boolean", "String", "Enumeration"};
    return t < sizeof n / sizeof n[0] ? n[t] : "?";
}

const char *fmuc_mdu__causality_name(unsigned c)
{
    static const char *const n[] = {"parameter", "calculatedParameter", "input",
                                    "output",    "local",               "independent"};
    if (c == FMUC_CAUS_STRUCTURAL_PARAMETER)
        return "structuralParameter";
    return c < sizeof n / sizeof n[0] ? n[c] : "?";
}

const char *fmuc_mdu__variability_name(unsigned v)
{
    static const char *const n[] = {"constant", "fixed", "tunable", "discrete", "continuous"};
    return v < sizeof n / sizeof n[0] ? n[v] : "?";
}

const char *fmuc_mdu__initial_name(unsigned i)
{
    static const char *const n[] = {"(absent)", "exact", "approx", "calculated"};
    return i < sizeof n / sizeof n[0] ? n[i] : "?";
}

/* ---------------------------------------------------------------- §2.2.7 tables */

/* Per cell: 0 = invalid; else 'A'..'E' as in the catalogue (B.6). Rows: variability
 * constant, fixed, tunable, discrete, continuous; columns: causality parameter,
 * calculatedParameter, input, output, local, independent. */
static const char cells[5][6] = {
    /* constant   */ {0, 0, 0, 'A', 'A', 0},
    /* fixed      */ {'A', 'B', 0, 0, 'B', 0},
    /* tunable    */ {'A', 'B', 0, 0, 'B', 0},
    /* discrete   */ {0, 0, 'D', 'C', 'C', 0},
    /* continuous */ {0, 0, 'D', 'C', 'C', 'E'},
};

static char cell(unsigned causality, unsigned variability)
{
    /* FMI 3.0 §2.4.7.4: a structural parameter's cells (16, 17) are the parameter's */
    if (causality == FMUC_CAUS_STRUCTURAL_PARAMETER)
        causality = FMUC_CAUS_PARAMETER;
    if (causality > FMUC_CAUS_INDEPENDENT || variability > FMUC_VAR_CONTINUOUS)
        return 0;
    return cells[variability][causality];
}

int fmuc_mdu__cell_valid(unsigned causality, unsigned variability)
{
    return cell(causality, variability) != 0;
}

fmuc_initial fmuc_mdu__initial_default(unsigned causality, unsigned variability)
{
    switch (cell(causality, variability)) {
    case 'A':
        return FMUC_INIT_EXACT;
    case 'B':
    case 'C':
        return FMUC_INIT_CALCULATED;
    default:
        return FMUC_INIT_NONE;
    }
}

int fmuc_mdu__initial_allowed(unsigned causality, unsigned variability, unsigned initial)
{
    if (initial == FMUC_INIT_NONE)
        return cell(causality, variability) != 0;
    switch (cell(causality, variability)) {
    case 'A':
        return initial == FMUC_INIT_EXACT;
    case 'B':
        return initial == FMUC_INIT_APPROX || initial == FMUC_INIT_CALCULATED;
    case 'C':
        return initial == FMUC_INIT_EXACT || initial == FMUC_INIT_APPROX ||
               initial == FMUC_INIT_CALCULATED;
    default:
        return 0;
    }
}

int fmuc_mdu__var_consistent(const fmuc_md_var *v)
{
    return fmuc_mdu__initial_allowed(v->causality, v->variability, v->initial);
}

fmuc_initial fmuc_mdu__var_initial(const fmuc_md_var *v)
{
    if (v->initial != FMUC_INIT_NONE)
        return (fmuc_initial)v->initial;
    return fmuc_mdu__initial_default(v->causality, v->variability);
}

/* ---------------------------------------------------------------- types and units */

int fmuc_mdu__types_map(fmuc_mdu_map *m, const fmuc_md *md)
{
    if (fmuc_mdu__map_init(m, md->ntypes) < 0)
        return -1;
    for (size_t i = 0; i < md->ntypes; i++)
        if (md->types[i].name && fmuc_mdu__map_put(m, md->types[i].name, i, NULL) < 0)
            return -1;
    return 0;
}

int fmuc_mdu__units_map(fmuc_mdu_map *m, const fmuc_md *md)
{
    if (fmuc_mdu__map_init(m, md->nunits) < 0)
        return -1;
    for (size_t i = 0; i < md->nunits; i++)
        if (md->units[i].name && fmuc_mdu__map_put(m, md->units[i].name, i, NULL) < 0)
            return -1;
    return 0;
}

const fmuc_md_type *fmuc_mdu__var_type(const fmuc_md *md, const fmuc_mdu_map *types,
                                       const fmuc_md_var *v)
{
    size_t idx;
    if (!v->declared_type || !fmuc_mdu__map_get(types, v->declared_type, &idx) || idx >= md->ntypes)
        return NULL;
    return &md->types[idx];
}

void fmuc_mdu__effective(fmuc_mdu_eff *e, const fmuc_md_var *v, const fmuc_md_type *t)
{
    memset(e, 0, sizeof *e);
    if (t && t->type != v->type)
        t = NULL;
    if (v->has & FMUC_HAS_MIN) {
        e->has_min = 1;
        e->min = v->min;
    } else if (t && (t->has & FMUC_HAS_MIN)) {
        e->has_min = 1;
        e->min = t->min;
    }
    if (v->has & FMUC_HAS_MAX) {
        e->has_max = 1;
        e->max = v->max;
    } else if (t && (t->has & FMUC_HAS_MAX)) {
        e->has_max = 1;
        e->max = t->max;
    }
    if (v->has & FMUC_HAS_NOMINAL) {
        e->has_nominal = 1;
        e->nominal = v->nominal;
    } else if (t && (t->has & FMUC_HAS_NOMINAL)) {
        e->has_nominal = 1;
        e->nominal = t->nominal;
    }
    e->unit = v->unit ? v->unit : (t ? t->unit : NULL);
    e->display_unit = v->display_unit ? v->display_unit : (t ? t->display_unit : NULL);
}

/* ---------------------------------------------------------------- issues */

static int eq(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

int fmuc_mdu__is_special_double(const char *s)
{
    if (!s)
        return 0;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    if (*s == '+' || *s == '-')
        s++;
    size_t n = 0;
    if (strncasecmp(s, "infinity", 8) == 0)
        n = 8;
    else if (strncasecmp(s, "inf", 3) == 0 || strncasecmp(s, "nan", 3) == 0)
        n = 3;
    else
        return 0;
    s += n;
    if (n == 3 && *s == '(') { /* nan(chars) */
        const char *close = strchr(s, ')');
        if (!close)
            return 0;
        s = close + 1;
    }
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    return *s == '\0';
}

static int is_cap_attribute(const char *a, int fmi)
{
    if (eq(a, "maxOutputDerivativeOrder"))
        return 1;
    if (fmi == 3 && (eq(a, "fixedInternalStepSize") ||
                     eq(a, "recommendedIntermediateInputSmoothness")))
        return 1;
    for (unsigned k = 0; k < FMUC_CAP_COUNT; k++) {
        const char *n = fmuc_md_cap_attr((fmuc_cap)k, fmi);
        if (n && eq(a, n))
            return 1;
    }
    return 0;
}

static int is_type_element(const char *e)
{
    return eq(e, "Real") || eq(e, "Integer") || eq(e, "Boolean") || eq(e, "String") ||
           eq(e, "Enumeration");
}

/* Elements are stored in document order, so their lines ascend: the element whose line is the
 * greatest one <= line contains it (binary search). */
static const fmuc_md_var *var_containing(const fmuc_md *md, uint32_t line)
{
    size_t lo = 0, hi = md->nvars;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (md->vars[mid].line <= line)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? &md->vars[lo - 1] : NULL;
}

static const fmuc_md_type *type_containing(const fmuc_md *md, uint32_t line)
{
    size_t lo = 0, hi = md->ntypes;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (md->types[mid].line <= line)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? &md->types[lo - 1] : NULL;
}

const char *fmuc_mdu__issue_owner(const fmuc_md *md, const fmuc_md_issue *is)
{
    const char *el = is->element, *at = is->attribute;
    int root = eq(el, "fmiModelDescription");
    if (root && eq(at, "fmiVersion"))
        return "md-fmi-version";
    if (root && (eq(at, "guid") || eq(at, "instantiationToken")))
        return "md-guid-present";
    switch (is->kind) {
    case FMUC_ISSUE_XML:
        return "md-well-formed";
    case FMUC_ISSUE_LIMIT:
        return "md-xml-schema";
    case FMUC_ISSUE_ELEMENT_UNKNOWN:
        if (is->line == md->root_line && md->root_name && eq(el, md->root_name) &&
            !eq(el, "fmiModelDescription"))
            return "md-well-formed"; /* wrong root element */
        return "md-xml-schema";
    case FMUC_ISSUE_ATTR_UNKNOWN:
        if ((eq(el, "ModelExchange") || eq(el, "CoSimulation")) &&
            is_cap_attribute(at, md->fmi == FMUC_FMI3 ? 3 : 2))
            return "md-capability-flags";
        if (md->fmi == FMUC_FMI3 && eq(el, "ScheduledExecution") && is_cap_attribute(at, 3))
            return "md-capability-flags";
        return "md-xml-schema";
    case FMUC_ISSUE_ELEMENT_ORDER:
        if ((eq(el, "ModelExchange") && md->me.count > 1) ||
            (eq(el, "CoSimulation") && md->cs.count > 1))
            return "md-interfaces";
        if (is_type_element(el)) {
            /* a second type element: reported from the model by the owner of that element */
            const fmuc_md_var *v = var_containing(md, is->line);
            const fmuc_md_type *t = type_containing(md, is->line);
            uint32_t vl = v ? v->line : 0, tl = t ? t->line : 0;
            if (v && vl >= tl && (v->has & FMUC_HAS_SEVERAL_TYPES))
                return "md-var-type-element";
            if (t && tl > vl && t->ntypes > 1)
                return "md-type-definitions";
        }
        return "md-element-order";
    case FMUC_ISSUE_ELEMENT_MISSING:
        if (eq(el, "Outputs") || eq(el, "Derivatives") || eq(el, "InitialUnknowns"))
            return "md-ms-*"; /* the md-ms-* checks report empty lists from the model */
        if (eq(el, "Enumeration"))
            return "md-enumerations";
        if (eq(el, "SimpleType"))
            return "md-type-definitions";
        if (eq(el, "ScalarVariable"))
            return "md-var-type-element";
        if (eq(el, "Implementation") || eq(el, "CoSimulation_StandAlone") ||
            eq(el, "CoSimulation_Tool"))
            return "md-interfaces"; /* FMI 1.0 */
        if (root)
            return "md-element-order";
        return "md-nonempty-lists";
    case FMUC_ISSUE_ATTR_MISSING:
        if (eq(el, "Enumeration") && eq(at, "declaredType"))
            return "md-var-enumeration";
        return "md-required-attributes";
    case FMUC_ISSUE_ATTR_SYNTAX:
        if (fmuc_mdu__is_special_double(is->value))
            return "md-special-values";
        if (root && (eq(at, "variableNamingConvention") || eq(at, "numberOfEventIndicators")))
            return "md-fmi-attributes";
        if (root && eq(at, "generationDateAndTime"))
            return "md-generation-date";
        return "md-attribute-syntax";
    default:
        return "md-xml-schema";
    }
}

size_t fmuc_mdu__report_issues(const fmuc_md *md, const char *check_id, fmuc_result *res)
{
    size_t n = 0;
    for (size_t i = 0; i < md->nissues; i++) {
        const fmuc_md_issue *is = &md->issues[i];
        if (strcmp(fmuc_mdu__issue_owner(md, is), check_id) != 0)
            continue;
        if (is->kind == FMUC_ISSUE_LIMIT) {
            fmuc_result_note(res, "line %u: parser limit: %s", (unsigned)is->line,
                             fmuc_mdu__str(is->message));
            continue;
        }
        n++;
        if (is->message)
            fmuc_result_violation(res, "%s", is->message);
        else if (is->attribute)
            fmuc_result_violation(res, "line %u: <%s> attribute %s%s%s%s", (unsigned)is->line,
                                  fmuc_mdu__str(is->element), is->attribute,
                                  is->value ? "=\"" : "", is->value ? is->value : "",
                                  is->value ? "\"" : "");
        else
            fmuc_result_violation(res, "line %u: element <%s>", (unsigned)is->line,
                                  fmuc_mdu__str(is->element));
    }
    return n;
}

int fmuc_mdu__issue_at(const fmuc_md *md, unsigned kind, const char *element,
                       const char *attribute, uint32_t line)
{
    for (size_t i = 0; i < md->nissues; i++) {
        const fmuc_md_issue *is = &md->issues[i];
        if (is->kind == kind && is->line == line && (!element || eq(is->element, element)) &&
            (!attribute || eq(is->attribute, attribute)))
            return 1;
    }
    return 0;
}

uint64_t fmuc_mdu__issue_key(unsigned kind, const char *attribute, uint32_t line)
{
    return ((uint64_t)line << 32) ^ (fmuc_mdu__hash(attribute) & 0xffffff00u) ^ kind;
}

int fmuc_mdu__issue_keys(fmuc_mdu_imap *set, const fmuc_md *md, unsigned kind)
{
    if (fmuc_mdu__imap_init(set, 16) < 0)
        return -1;
    for (size_t i = 0; i < md->nissues; i++) {
        const fmuc_md_issue *is = &md->issues[i];
        if (is->kind == kind &&
            fmuc_mdu__imap_put(set, fmuc_mdu__issue_key(kind, is->attribute, is->line), i,
                               NULL) < 0)
            return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- xs:dateTime */

static int digits(const char **p, int n, int *out)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        char ch = (*p)[i];
        if (ch < '0' || ch > '9')
            return 0;
        v = v * 10 + (ch - '0');
    }
    *p += n;
    *out = v;
    return 1;
}

int fmuc_mdu__parse_datetime(const char *s, int *utc_form)
{
    static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int year = 0, mon, day, hh, mm, ss, utc = 1;
    if (utc_form)
        *utc_form = 0;
    if (!s)
        return 0;
    const char *p = s;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    if (*p == '-') { /* negative years are lexically valid */
        utc = 0;
        p++;
    }
    const char *y0 = p;
    while (*p >= '0' && *p <= '9') {
        if (p - y0 < 9)
            year = year * 10 + (*p - '0');
        p++;
    }
    size_t ny = (size_t)(p - y0);
    if (ny < 4 || (ny > 4 && *y0 == '0') || year == 0)
        return 0;
    if (ny != 4)
        utc = 0;
    if (*p++ != '-' || !digits(&p, 2, &mon) || *p++ != '-' || !digits(&p, 2, &day) ||
        *p++ != 'T' || !digits(&p, 2, &hh) || *p++ != ':' || !digits(&p, 2, &mm) ||
        *p++ != ':' || !digits(&p, 2, &ss))
        return 0;
    if (mon < 1 || mon > 12 || day < 1 || day > mdays[mon - 1])
        return 0;
    int leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    if (mon == 2 && day == 29 && !leap)
        return 0;
    if (mm > 59 || ss > 59 || hh > 24)
        return 0;
    int frac_nonzero = 0;
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9')
            return 0;
        while (*p >= '0' && *p <= '9')
            frac_nonzero |= *p++ != '0';
    }
    if (hh == 24 && (mm || ss || frac_nonzero))
        return 0;
    if (*p == 'Z')
        p++;
    else if (*p == '+' || *p == '-') {
        int th, tm;
        p++;
        if (!digits(&p, 2, &th) || *p++ != ':' || !digits(&p, 2, &tm))
            return 0;
        if (th > 14 || tm > 59 || (th == 14 && tm))
            return 0;
        utc = 0;
    } else
        utc = 0;
    if (p > s && p[-1] != 'Z')
        utc = 0;
    const char *end = p;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    if (*p)
        return 0;
    if (utc_form)
        *utc_form = utc && end[-1] == 'Z' && *s != ' ' && *s != '\t' && end[0] == '\0' &&
                    hh != 24;
    return 1;
}

/* ---- ModelStructure, alias and naming helpers --------------------------------------------- */
/* Helpers for the ModelStructure, alias and naming checks (declared in md_util.h). */

const char *fmuc_ms__name(const fmuc_md_var *v)
{
    return v && v->name ? v->name : "(unnamed)";
}

int fmuc_ms__base_kind(unsigned type)
{
    switch (type) {
    case FMUC_TYPE_REAL: return FMUC_MS_KIND_REAL;
    case FMUC_TYPE_INTEGER:
    case FMUC_TYPE_ENUMERATION: return FMUC_MS_KIND_INTEGER;
    case FMUC_TYPE_BOOLEAN: return FMUC_MS_KIND_BOOLEAN;
    case FMUC_TYPE_STRING: return FMUC_MS_KIND_STRING;
    default: return FMUC_MS_KIND_NONE;
    }
}

const char *fmuc_ms__kind_name(int kind)
{
    switch (kind) {
    case FMUC_MS_KIND_REAL: return "fmi2Real";
    case FMUC_MS_KIND_INTEGER: return "fmi2Integer";
    case FMUC_MS_KIND_BOOLEAN: return "fmi2Boolean";
    case FMUC_MS_KIND_STRING: return "fmi2String";
    default: return "(no type)";
    }
}

void fmuc_ms__list(fmuc_ms_list *out, const fmuc_md *md, fmuc_ms_list_id id)
{
    switch (id) {
    case FMUC_MS_OUTPUTS:
        *out = (fmuc_ms_list){"Outputs", md->has_outputs, md->noutputs, md->outputs};
        break;
    case FMUC_MS_DERIVATIVES:
        *out = (fmuc_ms_list){"Derivatives", md->has_derivatives, md->nderivatives,
                              md->derivatives};
        break;
    default:
        *out = (fmuc_ms_list){"InitialUnknowns", md->has_initial_unknowns, md->ninitial_unknowns,
                              md->initial_unknowns};
        break;
    }
    if (!out->u)
        out->n = 0;
}

int fmuc_ms__roles(fmuc_ms_roles *out, const fmuc_md *md)
{
    out->n = md->nvars;
    out->role = calloc(md->nvars + 1, 1);
    if (!out->role) {
        out->n = 0;
        return -1;
    }
    for (size_t i = 0; i < md->noutputs && md->outputs; i++)
        if (fmuc_ms__valid_index(md, md->outputs[i].index))
            out->role[md->outputs[i].index] |= FMUC_MS_IN_OUTPUTS;
    for (size_t i = 0; i < md->ninitial_unknowns && md->initial_unknowns; i++)
        if (fmuc_ms__valid_index(md, md->initial_unknowns[i].index))
            out->role[md->initial_unknowns[i].index] |= FMUC_MS_IN_INITIAL;
    for (size_t i = 0; i < md->nderivatives && md->derivatives; i++) {
        uint32_t d = md->derivatives[i].index;
        if (!fmuc_ms__valid_index(md, d))
            continue;
        out->role[d] |= FMUC_MS_DERIV;
        const fmuc_md_var *v = &md->vars[d - 1];
        if (v->type == FMUC_TYPE_REAL && (v->has & FMUC_HAS_DERIVATIVE) &&
            fmuc_ms__valid_index(md, v->derivative))
            out->role[v->derivative] |= FMUC_MS_STATE;
    }
    return 0;
}

void fmuc_ms__roles_free(fmuc_ms_roles *r)
{
    free(r->role);
    r->role = NULL;
    r->n = 0;
}

const char *fmuc_ms__members_text(char *buf, size_t len, const fmuc_md *md,
                                  const uint32_t *members, size_t n)
{
    size_t used = 0;
    if (!len)
        return buf;
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < len; i++) {
        if (i == 6) {
            snprintf(buf + used, len - used, ", ... (%zu in all)", n);
            break;
        }
        const fmuc_md_var *v = &md->vars[members[i] - 1];
        int w = snprintf(buf + used, len - used, "%s'%.120s' (line %u)", i ? ", " : "",
                     fmuc_ms__name(v), (unsigned)v->line);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    return buf;
}

int fmuc_ms__settable(const fmuc_md_var *v)
{
    if (v->causality == FMUC_CAUS_INPUT)
        return 1;
    if (v->causality == FMUC_CAUS_PARAMETER && v->variability == FMUC_VAR_TUNABLE)
        return 1;
    if (v->causality == FMUC_CAUS_INDEPENDENT || v->variability == FMUC_VAR_CONSTANT)
        return 0;
    fmuc_initial ini = fmuc_md_effective_initial(v);
    return ini == FMUC_INIT_EXACT || ini == FMUC_INIT_APPROX;
}

/* ---- alias sets ---- */

/* One sort element per variable: kind (3 bits) << 61 | valueReference (32 bits) << 29 | 1-based
 * index (29 bits; the 512 MiB modelDescription cap allows far fewer variables). */
#define ALIAS_INDEX_BITS 29
#define ALIAS_INDEX_MASK ((UINT64_C(1) << ALIAS_INDEX_BITS) - 1)

/* Stable LSD radix sort on the (kind, valueReference) bits, 8 bits per pass from bit 24 (the top
 * of the index shares that byte, which keeps the order right); a pass whose byte is the same in
 * every element is skipped. The elements come in document order, so an alias set stays in index
 * order. Linear where qsort's n log n indirect comparisons made the five alias checks the slowest
 * static checks at 1M variables. Returns the sorted array (a or tmp). */
static uint64_t *radix_sort(uint64_t *a, uint64_t *tmp, size_t n)
{
    enum { FIRST = 3, BYTES = 8 };
    size_t count[BYTES][256];
    memset(count, 0, sizeof count);
    for (size_t i = 0; i < n; i++)
        for (int b = FIRST; b < BYTES; b++)
            count[b][(a[i] >> (8 * b)) & 0xffu]++;
    uint64_t *src = a, *dst = tmp;
    for (int b = FIRST; b < BYTES; b++) {
        size_t pos = 0;
        int trivial = 0;
        for (size_t d = 0; d < 256; d++) {
            size_t c = count[b][d];
            trivial |= c == n;
            count[b][d] = pos;
            pos += c;
        }
        if (trivial)
            continue;
        for (size_t i = 0; i < n; i++)
            dst[count[b][(src[i] >> (8 * b)) & 0xffu]++] = src[i];
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    return src;
}

uint64_t *fmuc_ms__alias_sort(const fmuc_md *md, size_t *count)
{
    size_t n = 0, cap = md->nvars ? md->nvars : 1;
    *count = 0;
    if (md->nvars >= ALIAS_INDEX_MASK)
        return NULL;
    uint64_t *elems = malloc(cap * sizeof *elems), *tmp = malloc(cap * sizeof *tmp);
    if (!elems || !tmp) {
        free(elems);
        free(tmp);
        return NULL;
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        int kind = fmuc_ms__base_kind(v->type);
        if (kind == FMUC_MS_KIND_NONE || !(v->has & FMUC_HAS_VALUE_REFERENCE))
            continue;
        elems[n++] = (uint64_t)kind << 61 | (uint64_t)v->value_reference << ALIAS_INDEX_BITS |
                     (uint64_t)(i + 1);
    }
    uint64_t *sorted = radix_sort(elems, tmp, n);
    free(sorted == elems ? tmp : elems);
    *count = n;
    return sorted;
}

long fmuc_ms__alias_walk(const fmuc_md *md, const uint64_t *sorted, size_t n, fmuc_ms_alias_fn fn,
                         void *payload)
{
    uint32_t *members = NULL;
    long sets = 0;
    for (size_t i = 0; i < n;) {
        uint64_t key = sorted[i] >> ALIAS_INDEX_BITS;
        size_t j = i + 1;
        while (j < n && sorted[j] >> ALIAS_INDEX_BITS == key)
            j++;
        if (j - i >= 2) {
            uint32_t *m = realloc(members, (j - i) * sizeof *members);
            if (!m) {
                sets = -1;
                break;
            }
            members = m;
            for (size_t k = i; k < j; k++)
                members[k - i] = (uint32_t)(sorted[k] & ALIAS_INDEX_MASK);
            sets++;
            if (fn)
                fn(md, (int)(key >> 32), (uint32_t)key, members, j - i, payload);
        }
        i = j;
    }
    free(members);
    return sets;
}

long fmuc_ms__alias_sets(const fmuc_md *md, fmuc_ms_alias_fn fn, void *payload)
{
    size_t n;
    uint64_t *sorted = fmuc_ms__alias_sort(md, &n);
    if (!sorted)
        return -1;
    long sets = fmuc_ms__alias_walk(md, sorted, n, fn, payload);
    free(sorted);
    return sets;
}

long fmuc_ms__alias_sets_of(const fmuc_subject *s, fmuc_ms_alias_fn fn, void *payload)
{
    size_t n;
    const uint64_t *sorted = fmuc_shared_alias_index(s, &n);
    if (!sorted)
        return fmuc_ms__alias_sets(&s->fmu->md, fn, payload);
    return fmuc_ms__alias_walk(&s->fmu->md, sorted, n, fn, payload);
}

/* ---- structured names ---- */

static int is_nondigit(char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int is_qchar(char c)
{
    if (is_nondigit(c) || is_digit(c) || c == ' ')
        return 1;
    return c != '\0' && strchr("!#$%&()*+,-./:;<>=?@[]^{}|~", c) != NULL;
}

static int is_escape(char c)
{
    return c != '\0' && strchr("'\"?\\abfnrtv", c) != NULL;
}

/* Each matcher takes the position, returns the position after the match or -1 (with *fail set
 * to the furthest position reached). */
static long m_unsigned(const char *s, long p, long *fail)
{
    if (!is_digit(s[p])) {
        *fail = p;
        return -1;
    }
    while (is_digit(s[p]))
        p++;
    return p;
}

static long m_bname(const char *s, long p, long *fail)
{
    if (is_nondigit(s[p])) {
        p++;
        while (is_nondigit(s[p]) || is_digit(s[p]))
            p++;
        return p;
    }
    if (s[p] != '\'') {
        *fail = p;
        return -1;
    }
    long start = ++p;
    for (;;) {
        if (s[p] == '\\') {
            if (!is_escape(s[p + 1])) {
                *fail = p + 1;
                return -1;
            }
            p += 2;
        } else if (s[p] == '\'') {
            if (p == start) { /* Q-name needs at least one character */
                *fail = p;
                return -1;
            }
            return p + 1;
        } else if (is_qchar(s[p])) {
            p++;
        } else {
            *fail = p;
            return -1;
        }
    }
}

static long m_indices(const char *s, long p, long *fail)
{
    /* s[p] == '[' */
    p = m_unsigned(s, p + 1, fail);
    if (p < 0)
        return -1;
    while (s[p] == ',') {
        p = m_unsigned(s, p + 1, fail);
        if (p < 0)
            return -1;
    }
    if (s[p] != ']') {
        *fail = p;
        return -1;
    }
    return p + 1;
}

static long m_identifier(const char *s, long p, long *fail)
{
    for (;;) {
        p = m_bname(s, p, fail);
        if (p < 0)
            return -1;
        if (s[p] == '[') {
            p = m_indices(s, p, fail);
            if (p < 0)
                return -1;
        }
        if (s[p] != '.')
            return p;
        p++;
    }
}

int fmuc_ms__structured_name(const char *name, size_t *where)
{
    long fail = 0, p;
    if (!name) {
        if (where)
            *where = 0;
        return 0;
    }
    if (strncmp(name, "der(", 4) == 0) {
        p = m_identifier(name, 4, &fail);
        if (p >= 0 && name[p] == ',')
            p = m_unsigned(name, p + 1, &fail);
        if (p >= 0) {
            if (name[p] != ')')
                fail = p, p = -1;
            else
                p++;
        }
    } else {
        p = m_identifier(name, 0, &fail);
    }
    if (p >= 0 && name[p] != '\0')
        fail = p, p = -1;
    if (p < 0 && where)
        *where = (size_t)fail;
    return p >= 0;
}

int fmuc_ms__is_der_name(const char *name)
{
    return name && strncmp(name, "der(", 4) == 0 && fmuc_ms__structured_name(name, NULL);
}

/* ---- FMI 3.0 (md_util.h "FMI 3.0 helpers") ---- */

const char *fmuc_mdu__var_type_name(const fmuc_md *md, const fmuc_md_var *v)
{
    if (md->fmi == FMUC_FMI3 && v->base != FMUC_BT_NONE)
        return fmuc_md_base_type_name((fmuc_base_type)v->base);
    return fmuc_mdu__type_name(v->type);
}

const char *fmuc_mdu__var_element(const fmuc_md *md, const fmuc_md_var *v)
{
    if (md->fmi == FMUC_FMI3)
        return v->base != FMUC_BT_NONE ? fmuc_md_base_type_name((fmuc_base_type)v->base)
                                       : "variable";
    return "ScalarVariable";
}

const char *fmuc_mdu__type_element(const fmuc_md *md, const fmuc_md_type *t, char *buf,
                                   size_t n)
{
    if (md->fmi != FMUC_FMI3 || t->base == FMUC_BT_NONE)
        return "SimpleType";
    snprintf(buf, n, "%sType", fmuc_md_base_type_name((fmuc_base_type)t->base));
    return buf;
}

int fmuc_mdu__initial_allowed_md(const fmuc_md *md, const fmuc_md_var *v)
{
    /* FMI 3.0 §2.4.7.5 (cells 5, 6): an input may state initial="exact" */
    if (md->fmi == FMUC_FMI3 && v->causality == FMUC_CAUS_INPUT && v->initial == FMUC_INIT_EXACT &&
        fmuc_mdu__cell_valid(v->causality, v->variability))
        return 1;
    return fmuc_mdu__initial_allowed(v->causality, v->variability, v->initial);
}

const char *fmuc_mdu__unknown_desc(char *buf, size_t n, const fmuc_md *md, const char *list,
                                   const fmuc_md_unknown *u)
{
    if (md->fmi == FMUC_FMI3)
        snprintf(buf, n, "<%s valueReference=\"%u\"> (line %u)",
                 fmuc_md_unknown_kind_name((fmuc_unknown_kind)u->kind),
                 (unsigned)u->value_reference, (unsigned)u->line);
    else
        snprintf(buf, n, "%s/Unknown index=%u (line %u)", list, (unsigned)u->index,
                 (unsigned)u->line);
    return buf;
}

static int cmp_vr_key(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

uint64_t *fmuc_mdu__vr_sort(const fmuc_md *md, size_t *n)
{
    uint64_t *k = malloc((md->nvars ? md->nvars : 1) * sizeof *k);
    *n = 0;
    if (!k)
        return NULL;
    for (size_t i = 0; i < md->nvars; i++)
        if (md->vars[i].has & FMUC_HAS_VALUE_REFERENCE)
            k[(*n)++] = (uint64_t)md->vars[i].value_reference << 32 | (uint64_t)i;
    qsort(k, *n, sizeof *k, cmp_vr_key);
    return k;
}

const fmuc_md_var *fmuc_mdu__vr_find(const fmuc_md *md, const uint64_t *keys, size_t n,
                                     uint32_t vr)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((keys[mid] >> 32) < vr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && (keys[lo] >> 32) == vr ? &md->vars[keys[lo] & 0xffffffffu] : NULL;
}
