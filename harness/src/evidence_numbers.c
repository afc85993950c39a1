/* Number arrays in evidence (plot series) as one raw JSON text each: exact ("%.17g" round-trips
 * every double) and far cheaper than a cJSON node per value, to build, to copy and to print. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmuc/fmuc_result.h"

#define NUM_MAX_CHARS 25 /* "-1.2345678901234567e-308" plus the comma */

cJSON *fmuc_evidence_numbers(const double *v, size_t n, size_t stride, size_t step)
{
    size_t kept, cap, o = 0;
    char *buf;
    cJSON *raw;

    if (!step)
        step = 1;
    if (!stride)
        stride = 1;
    kept = n ? (n - 1) / step + 1 : 0;
    if (kept > (SIZE_MAX - 3) / (NUM_MAX_CHARS + 1) || (n && !v))
        return NULL;
    cap = 3 + kept * (NUM_MAX_CHARS + 1);
    buf = malloc(cap);
    if (!buf)
        return NULL;
    buf[o++] = '[';
    for (size_t i = 0; i < n; i += step) {
        double x = v[i * stride];
        int w;
        if (i)
            buf[o++] = ',';
        w = isfinite(x) ? snprintf(buf + o, cap - o, "%.17g", x) : snprintf(buf + o, cap - o, "null");
        if (w < 0 || (size_t)w >= cap - o) {
            free(buf);
            return NULL;
        }
        o += (size_t)w;
    }
    buf[o++] = ']';
    buf[o] = '\0';
    raw = cJSON_CreateRaw(buf);
    free(buf);
    return raw;
}

static long read_array(const cJSON *a, size_t max, double **out)
{
    size_t n = 0;
    const cJSON *c;
    double *v;

    for (c = a->child; c; c = c->next)
        if (++n > max)
            return -1;
    v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return -1;
    n = 0;
    for (c = a->child; c; c = c->next) {
        if (!cJSON_IsNumber(c) && !cJSON_IsNull(c)) {
            free(v);
            return -1;
        }
        v[n++] = cJSON_IsNumber(c) ? c->valuedouble : NAN;
    }
    *out = v;
    return (long)n;
}

long fmuc_evidence_numbers_read(const cJSON *a, size_t max, double **out)
{
    *out = NULL;
    if (cJSON_IsArray(a))
        return read_array(a, max, out);
    if (cJSON_IsRaw(a) && a->valuestring) {
        cJSON *parsed = cJSON_Parse(a->valuestring);
        long n = cJSON_IsArray(parsed) ? read_array(parsed, max, out) : -1;
        cJSON_Delete(parsed);
        return n;
    }
    return -1;
}
