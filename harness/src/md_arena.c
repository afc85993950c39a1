/* Chunked arena and locale-independent XSD number parsing for the model-description parser. */
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "md_arena.h"

struct fmuc_md__chunk {
    fmuc_md__chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

enum { CHUNK_BYTES = 64 * 1024 - 64, BIG_BYTES = 8 * 1024 };

static fmuc_md__chunk *chunk_new(size_t cap)
{
    fmuc_md__chunk *c = malloc(sizeof *c + cap);
    if (!c)
        return NULL;
    c->next = NULL;
    c->used = 0;
    c->cap = cap;
    return c;
}

void *fmuc_md__arena_alloc(fmuc_md__arena *a, size_t n, size_t align)
{
    if (n == 0)
        n = 1;
    if (n > SIZE_MAX / 2)
        return NULL;
    if (n >= BIG_BYTES) {
        /* a dedicated chunk behind the head, so the head's free space stays usable */
        fmuc_md__chunk *c = chunk_new(n);
        if (!c)
            return NULL;
        c->used = n;
        if (a->head) {
            c->next = a->head->next;
            a->head->next = c;
        } else {
            a->head = c;
        }
        a->total += n;
        return c->data;
    }
    fmuc_md__chunk *h = a->head;
    size_t off = h ? (h->used + (align - 1)) & ~(align - 1) : 0;
    if (!h || off + n > h->cap) {
        fmuc_md__chunk *c = chunk_new(CHUNK_BYTES);
        if (!c)
            return NULL;
        c->next = a->head;
        a->head = c;
        a->total += CHUNK_BYTES;
        h = c;
        off = 0;
    }
    h->used = off + n;
    return h->data + off;
}

char *fmuc_md__arena_strndup(fmuc_md__arena *a, const char *s, size_t n)
{
    char *d = fmuc_md__arena_alloc(a, n + 1, 1);
    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

void fmuc_md__arena_free(fmuc_md__arena *a)
{
    fmuc_md__chunk *c = a->head;
    while (c) {
        fmuc_md__chunk *n = c->next;
        free(c);
        c = n;
    }
    a->head = NULL;
    a->total = 0;
}

static int is_xml_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Trim XML whitespace; returns the start and sets *len. */
static const char *trim(const char *s, size_t *len)
{
    while (is_xml_space(*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && is_xml_space(s[n - 1]))
        n--;
    *len = n;
    return s;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

int fmuc_md__parse_double(const char *s, double *out)
{
    size_t n;
    s = trim(s, &n);
    if (n == 0)
        return -1;
    /* NaN and INF are xs:double literals but FMI 2.0 §2.2 forbids them */
    if ((n == 3 && (memcmp(s, "NaN", 3) == 0 || memcmp(s, "INF", 3) == 0)) ||
        (n == 4 && (memcmp(s, "-INF", 4) == 0 || memcmp(s, "+INF", 4) == 0)))
        return -2;
    /* xs:double lexical form: [+-]? (d+ (. d*)? | . d+) ([eE] [+-]? d+)? */
    size_t i = 0, digits = 0;
    char buf[128];
    if (s[i] == '+' || s[i] == '-')
        i++;
    while (i < n && is_digit(s[i]))
        i++, digits++;
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && is_digit(s[i]))
            i++, digits++;
    }
    if (digits == 0)
        return -1;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        size_t ed = 0;
        while (i < n && is_digit(s[i]))
            i++, ed++;
        if (ed == 0)
            return -1;
    }
    if (i != n)
        return -1;
    /* The text is now plain ASCII digits, sign, '.', 'e': convert in the C locale. */
    const char *src = s;
    char *heap = NULL;
    if (n < sizeof buf) {
        memcpy(buf, s, n);
        buf[n] = '\0';
        src = buf;
    } else {
        heap = malloc(n + 1);
        if (!heap)
            return -1;
        memcpy(heap, s, n);
        heap[n] = '\0';
        src = heap;
    }
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (c == (locale_t)0) {
        free(heap);
        return -1;
    }
    errno = 0;
    char *end = NULL;
    double v = strtod_l(src, &end, c);
    int e = errno;
    int complete = end && *end == '\0';
    freelocale(c);
    free(heap);
    if (!complete)
        return -1;
    if (e == ERANGE && isinf(v))
        return -2; /* would be INF */
    *out = v;
    return 0;
}

static int parse_u64_digits(const char *s, size_t n, uint64_t limit, uint64_t *out)
{
    if (n == 0)
        return -1;
    uint64_t v = 0;
    int over = 0;
    for (size_t i = 0; i < n; i++) {
        if (!is_digit(s[i]))
            return -1;
        uint64_t d = (uint64_t)(s[i] - '0');
        if (!over && v > (limit - d) / 10) /* v * 10 + d > limit, without wrapping */
            over = 1;
        if (!over)
            v = v * 10 + d;
    }
    if (over)
        return -2;
    *out = v;
    return 0;
}

int fmuc_md__parse_int64(const char *s, int64_t *out)
{
    size_t n;
    s = trim(s, &n);
    int neg = 0;
    if (n > 0 && (s[0] == '+' || s[0] == '-')) {
        neg = s[0] == '-';
        s++, n--;
    }
    uint64_t v;
    int rc = parse_u64_digits(s, n, (uint64_t)INT64_MAX + 1, &v);
    if (rc < 0)
        return rc;
    if (!neg && v > (uint64_t)INT64_MAX)
        return -2;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return 0;
}

int fmuc_md__parse_uint64(const char *s, uint64_t *out)
{
    size_t n;
    s = trim(s, &n);
    if (n > 0 && s[0] == '+')
        s++, n--;
    else if (n > 1 && s[0] == '-') {
        for (size_t i = 1; i < n; i++) /* "-0" only */
            if (s[i] != '0')
                return is_digit(s[i]) ? -2 : -1;
        *out = 0;
        return 0;
    }
    return parse_u64_digits(s, n, UINT64_MAX, out);
}

int fmuc_md__parse_int32(const char *s, int32_t *out)
{
    int64_t v;
    int rc = fmuc_md__parse_int64(s, &v);
    if (rc < 0)
        return rc;
    if (v < INT32_MIN || v > INT32_MAX)
        return -2;
    *out = (int32_t)v;
    return 0;
}

int fmuc_md__parse_uint32(const char *s, uint32_t *out)
{
    uint64_t v;
    int rc = fmuc_md__parse_uint64(s, &v);
    if (rc < 0)
        return rc;
    if (v > UINT32_MAX)
        return -2;
    *out = (uint32_t)v;
    return 0;
}

int fmuc_md__parse_bool(const char *s, int *out)
{
    size_t n;
    s = trim(s, &n);
    if ((n == 4 && memcmp(s, "true", 4) == 0) || (n == 1 && s[0] == '1')) {
        *out = 1;
        return 0;
    }
    if ((n == 5 && memcmp(s, "false", 5) == 0) || (n == 1 && s[0] == '0')) {
        *out = 0;
        return 0;
    }
    return -1;
}
