/* glue_core: the version-neutral part of the fmuc FMU glue; see glue_core.h. */
#include "glue_core.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const fmuc_m_var *fmuc_gc_find_vr(const fmuc_m_desc *d, unsigned vr, fmuc_m_type t)
{
    for (size_t i = 0; i < d->nvars; i++)
        if (d->vars[i].vr == vr && d->vars[i].type == t)
            return &d->vars[i];
    return NULL;
}

const char *fmuc_gc_type_name(fmuc_m_type t)
{
    static const char *const n[] = {"Real", "Integer", "Boolean", "String"};
    return n[t];
}

int fmuc_gc_out_of_range(const fmuc_m_var *v, double x)
{
#ifdef FMUC_DEFECT_NO_RANGE_CHECK
    (void)v;
    (void)x;
    return 0;
#else
    if (isnan(x))
        return 1;
    if ((v->flags & FMUC_M_HAS_MIN) && x < v->min)
        return 1;
    if ((v->flags & FMUC_M_HAS_MAX) && x > v->max)
        return 1;
    return 0;
#endif
}

void fmuc_gc_write_starts(const fmuc_m_desc *d, void *data)
{
    for (size_t i = 0; i < d->nvars; i++) {
        const fmuc_m_var *v = &d->vars[i];
        if (v->causality == FMUC_M_INDEPENDENT)
            continue;
        char *p = (char *)data + v->offset;
        size_t n = v->dim > 1 ? v->dim : 1;
        for (size_t k = 0; k < n; k++) {
            switch (v->type) {
            case FMUC_M_REAL:
                ((double *)(void *)p)[k] = v->start;
                break;
            case FMUC_M_INTEGER:
                ((int *)(void *)p)[k] = (int)v->start;
                break;
            case FMUC_M_BOOLEAN:
                ((int *)(void *)p)[k] = v->start != 0.0;
                break;
            case FMUC_M_STRING:
                snprintf(p + k * FMUC_M_STRLEN, FMUC_M_STRLEN, "%s",
                         v->start_str ? v->start_str : "");
                break;
            }
        }
    }
}

int fmuc_gc_blank(const char *s)
{
    for (; *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
            return 0;
    return 1;
}

uint64_t fmuc_gc_fnv64(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

const char *fmuc_gc_status_category(int status)
{
    switch (status) {
    case 0:
        return "logEvents";
    case 1:
        return "logStatusWarning";
    case 2:
        return "logStatusDiscard";
    case 3:
        return "logStatusError";
    case 4:
        return "logStatusFatal";
    default:
        return "logStatusPending";
    }
}

void fmuc_gc_read_reals(const fmuc_m_desc *d, const void *data, const size_t *idx, size_t n,
                        double *x)
{
    for (size_t i = 0; i < n; i++)
        x[i] = *(const double *)(const void *)((const char *)data + d->vars[idx[i]].offset);
}

void fmuc_gc_write_reals(const fmuc_m_desc *d, void *data, const size_t *idx, size_t n,
                         const double *x)
{
    for (size_t i = 0; i < n; i++)
        *(double *)(void *)((char *)data + d->vars[idx[i]].offset) = x[i];
}

#ifndef FMUC_DEFECT_URI_NO_DECODE
static int hexval(int ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}
#endif

char *fmuc_gc_file_uri_path(const char *uri, size_t extra, fmuc_gc_alloc_fn alloc,
                            fmuc_gc_free_fn release, void *arg, size_t *len, const char **why)
{
    const char *p;
#ifdef FMUC_DEFECT_URI_NO_DECODE
    (void)release;
#endif
    if (strncmp(uri, "file:", 5) != 0) {
        *why = "only the file: scheme is supported";
        return NULL;
    }
    p = uri + 5;
    if (p[0] == '/' && p[1] == '/') {
        const char *auth = p + 2, *slash = strchr(auth, '/');
        if (!slash) {
            *why = "no path after the authority";
            return NULL;
        }
        size_t alen = (size_t)(slash - auth);
        if (alen != 0 && !(alen == 9 && strncmp(auth, "localhost", 9) == 0)) {
            *why = "only an empty or 'localhost' authority is supported";
            return NULL;
        }
        p = slash;
    }
#ifdef FMUC_DEFECT_URI_AUTHORITY_ONLY
    else {
        *why = "expected file:///";
        return NULL;
    }
#endif
    if (p[0] != '/') {
        *why = "the path is not absolute";
        return NULL;
    }
    size_t n = strlen(p);
    char *out = alloc(arg, n + extra);
    if (!out) {
        *why = "out of memory";
        return NULL;
    }
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
#ifndef FMUC_DEFECT_URI_NO_DECODE
        if (p[i] == '%') {
            int hi = hexval((unsigned char)p[i + 1]); /* p[i+1] may be the NUL */
            int lo = hi >= 0 ? hexval((unsigned char)p[i + 2]) : -1;
            if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
                release(arg, out);
                *why = "invalid percent-encoding";
                return NULL;
            }
            out[o++] = (char)(hi * 16 + lo);
            i += 2;
            continue;
        }
#endif
        out[o++] = p[i];
    }
    while (o > 1 && out[o - 1] == '/')
        o--;
    *len = o;
    return out;
}

static int worst(int a, int b) { return a > b ? a : b; }

int fmuc_gc_rk4(void *inst, fmuc_gc_deriv_fn deriv, size_t nx, double *work, double hmax,
                double tc, double h)
{
    double nd = hmax > 0.0 ? ceil(h / hmax - 1e-9) : 1.0;
    long n = nd < 1.0 ? 1 : (long)nd;
    double hs = h / (double)n;
    double *x = work, *k1 = x + nx, *k2 = k1 + nx, *k3 = k2 + nx, *k4 = k3 + nx, *xt = k4 + nx;
    int st = 0;
    for (long i = 0; i < n; i++) {
        double ti = tc + (double)i * hs;
        st = worst(st, deriv(inst, ti, x, k1));
        for (size_t j = 0; j < nx; j++)
            xt[j] = x[j] + (hs / 2.0) * k1[j];
        st = worst(st, deriv(inst, ti + hs / 2.0, xt, k2));
        for (size_t j = 0; j < nx; j++)
            xt[j] = x[j] + (hs / 2.0) * k2[j];
        st = worst(st, deriv(inst, ti + hs / 2.0, xt, k3));
        for (size_t j = 0; j < nx; j++)
            xt[j] = x[j] + hs * k3[j];
        st = worst(st, deriv(inst, ti + hs, xt, k4));
        if (st > 1)
            return st;
        for (size_t j = 0; j < nx; j++)
            x[j] = x[j] + (hs / 6.0) * (k1[j] + 2.0 * k2[j] + 2.0 * k3[j] + k4[j]);
    }
    return st;
}
