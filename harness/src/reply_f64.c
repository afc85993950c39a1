/* Exact transport of double arrays in worker replies: each value as the 16 hex digits of its
 * bit pattern. Printing and parsing JSON numbers cost more than the FMU calls that produced them.
 * Byte arrays (a serialized FMU state) travel the same way, two hex digits per byte. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fmuc/fmuc_worker.h"

cJSON *fmuc_worker_f64_to_json(const double *v, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    char *s;
    cJSON *j;

    if (n > (SIZE_MAX - 1) / 16 || (n && !v))
        return NULL;
    s = malloc(n * 16 + 1);
    if (!s)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        uint64_t b;
        memcpy(&b, &v[i], sizeof b);
        for (int d = 15; d >= 0; d--) {
            s[i * 16 + (size_t)d] = hex[b & 15u];
            b >>= 4;
        }
    }
    s[n * 16] = '\0';
    j = cJSON_CreateString(s);
    free(s);
    return j;
}

/* 0..15 for a lowercase hex digit, 16 for anything else */
static const unsigned char hexval[256] = {
#define X16_ 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16
    X16_, X16_, X16_,
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 16, 16, 16, 16, 16,        /* '0'..'9' */
    X16_, X16_,
    16, 10, 11, 12, 13, 14, 15, 16, 16, 16, 16, 16, 16, 16, 16, 16, /* 'a'..'f' */
    X16_, X16_, X16_, X16_, X16_, X16_, X16_, X16_, X16_,
#undef X16_
};

double *fmuc_worker_f64_from_json(const cJSON *s, size_t n)
{
    const char *t = cJSON_GetStringValue(s);
    double *v;

    if (!t || n > (SIZE_MAX - 1) / 16 || strlen(t) != n * 16)
        return NULL;
    v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *p = (const unsigned char *)t + i * 16;
        uint64_t b = 0;
        unsigned bad = 0;
        for (int d = 0; d < 16; d++) {
            unsigned x = hexval[p[d]];
            bad |= x;
            b = (b << 4) | (x & 15u);
        }
        if (bad & 16u) {
            free(v);
            return NULL;
        }
        memcpy(&v[i], &b, sizeof b);
    }
    return v;
}

cJSON *fmuc_worker_bytes_to_json(const void *b, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = b;
    char *s;
    cJSON *j;

    if (n > (SIZE_MAX - 1) / 2 || (n && !b))
        return NULL;
    s = malloc(n * 2 + 1);
    if (!s)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        s[2 * i] = hex[p[i] >> 4];
        s[2 * i + 1] = hex[p[i] & 15u];
    }
    s[n * 2] = '\0';
    j = cJSON_CreateString(s);
    free(s);
    return j;
}

unsigned char *fmuc_worker_bytes_from_json(const cJSON *s, size_t n)
{
    const char *t = cJSON_GetStringValue(s);
    unsigned char *b;

    if (!t || n > (SIZE_MAX - 1) / 2 || strlen(t) != n * 2)
        return NULL;
    b = malloc(n ? n : 1);
    if (!b)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        unsigned hi = hexval[(unsigned char)t[2 * i]], lo = hexval[(unsigned char)t[2 * i + 1]];
        if ((hi | lo) & 16u) {
            free(b);
            return NULL;
        }
        b[i] = (unsigned char)(hi << 4 | lo);
    }
    return b;
}
