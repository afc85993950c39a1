/* Helpers for the ModelStructure, alias and naming checks (see md_ms_util.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "md_ms_util.h"

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
