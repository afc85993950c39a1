/* Reader for reference-result CSV files (FMI cross-check format), see fmuc_refcsv.h. */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "fmuc/fmuc_refcsv.h"

#define REFCSV_MAX_BYTES (1ull << 30)
#define REFCSV_MAX_COLS 100000u

typedef struct field {
    char *text;   /* unquoted, NUL-terminated (malloc) */
    int quoted;
} field;

typedef struct parser {
    const char *s, *end;
    const char *name;
    size_t line;
    fmuc_diag *diag;
    locale_t c_locale;
} parser;

void fmuc_refcsv_free(fmuc_refcsv *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->ncols; i++)
        free(c->cols[i]);
    free(c->cols);
    free(c->time);
    free(c->values);
    free(c->name);
    memset(c, 0, sizeof *c);
}

long fmuc_refcsv_column(const fmuc_refcsv *c, const char *name)
{
    for (size_t i = 0; i < c->ncols; i++)
        if (strcmp(c->cols[i], name) == 0)
            return (long)i;
    return -1;
}

static int is_blank_line(const char *s, const char *end)
{
    for (; s < end && *s != '\n'; s++)
        if (*s != ' ' && *s != '\t' && *s != '\r')
            return 0;
    return 1;
}

static void free_fields(field *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(f[i].text);
    free(f);
}

/* Split the line at p->s into fields; advances p->s past the line end. Returns the field count
 * or -1 (diag set). */
static long split_line(parser *p, field **out)
{
    size_t n = 0, cap = 8;
    field *f = calloc(cap, sizeof *f);
    const char *s = p->s;
    if (!f)
        return fmuc_diag_set(p->diag, FMUC_ENOMEM, "out of memory"), -1;
    for (;;) {
        if (n == cap) {
            if (cap >= REFCSV_MAX_COLS + 1) {
                free_fields(f, n);
                fmuc_diag_set(p->diag, FMUC_EINPUT, "%s:%zu: more than %u columns", p->name,
                              p->line, REFCSV_MAX_COLS);
                return -1;
            }
            field *nf = realloc(f, 2 * cap * sizeof *f);
            if (!nf) {
                free_fields(f, n);
                return fmuc_diag_set(p->diag, FMUC_ENOMEM, "out of memory"), -1;
            }
            f = nf;
            memset(f + cap, 0, cap * sizeof *f);
            cap *= 2;
        }
        while (s < p->end && (*s == ' ' || *s == '\t'))
            s++;
        size_t len = 0, bcap = 16;
        char *buf = malloc(bcap);
        if (!buf) {
            free_fields(f, n);
            return fmuc_diag_set(p->diag, FMUC_ENOMEM, "out of memory"), -1;
        }
        int quoted = 0;
        if (s < p->end && *s == '"') {
            quoted = 1;
            s++;
            for (;;) {
                if (s >= p->end || *s == '\n') {
                    free(buf);
                    free_fields(f, n);
                    fmuc_diag_set(p->diag, FMUC_EINPUT, "%s:%zu:%zu: unterminated quoted field",
                                  p->name, p->line, n + 1);
                    return -1;
                }
                char ch = *s++;
                if (ch == '"') {
                    if (s < p->end && *s == '"')
                        s++;
                    else
                        break;
                }
                if (len + 2 > bcap) {
                    char *nb = realloc(buf, bcap *= 2);
                    if (!nb) {
                        free(buf);
                        free_fields(f, n);
                        return fmuc_diag_set(p->diag, FMUC_ENOMEM, "out of memory"), -1;
                    }
                    buf = nb;
                }
                buf[len++] = ch;
            }
            while (s < p->end && (*s == ' ' || *s == '\t' || *s == '\r'))
                s++;
            if (s < p->end && *s != ',' && *s != '\n') {
                free(buf);
                free_fields(f, n);
                fmuc_diag_set(p->diag, FMUC_EINPUT,
                              "%s:%zu:%zu: unexpected character after a quoted field", p->name,
                              p->line, n + 1);
                return -1;
            }
        } else {
            while (s < p->end && *s != ',' && *s != '\n') {
                if (len + 2 > bcap) {
                    char *nb = realloc(buf, bcap *= 2);
                    if (!nb) {
                        free(buf);
                        free_fields(f, n);
                        return fmuc_diag_set(p->diag, FMUC_ENOMEM, "out of memory"), -1;
                    }
                    buf = nb;
                }
                buf[len++] = *s++;
            }
            while (len > 0 && (buf[len - 1] == ' ' || buf[len - 1] == '\t' || buf[len - 1] == '\r'))
                len--;
        }
        buf[len] = '\0';
        f[n].text = buf;
        f[n].quoted = quoted;
        n++;
        if (s < p->end && *s == ',') {
            s++;
            continue;
        }
        break;
    }
    if (s < p->end && *s == '\n')
        s++;
    p->s = s;
    *out = f;
    return (long)n;
}

/* A number in C notation (decimal, exponent, nan, inf); hex and anything else rejected. */
static int parse_number(parser *p, const char *t, double *v)
{
    if (!*t)
        return -1;
    if (strcasecmp(t, "true") == 0) {
        *v = 1.0;
        return 0;
    }
    if (strcasecmp(t, "false") == 0) {
        *v = 0.0;
        return 0;
    }
    const char *q = t;
    if (*q == '+' || *q == '-')
        q++;
    if (strcasecmp(q, "nan") == 0 || strcasecmp(q, "inf") == 0 || strcasecmp(q, "infinity") == 0) {
        /* spelled out: accepted */
    } else {
        for (const char *c = q; *c; c++)
            if (!((*c >= '0' && *c <= '9') || *c == '.' || *c == 'e' || *c == 'E' || *c == '+' ||
                  *c == '-'))
                return -1;
    }
    char *endp = NULL;
    errno = 0;
    double d = strtod_l(t, &endp, p->c_locale);
    if (endp == t || *endp != '\0')
        return -1;
    if (errno == ERANGE && isinf(d))
        return -1;
    *v = d;
    return 0;
}

fmuc_err fmuc_refcsv_parse(fmuc_refcsv *out, const char *text, size_t len, const char *name,
                           fmuc_diag *diag)
{
    fmuc_err err = FMUC_OK;
    field *f = NULL;
    long nf = 0;
    size_t rcap = 0;
    parser p = {text, text + len, name ? name : "(csv)", 0, diag, (locale_t)0};

    memset(out, 0, sizeof *out);
    out->name = strdup(p.name);
    p.c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    if (!out->name || p.c_locale == (locale_t)0) {
        err = fmuc_diag_set(diag, FMUC_ENOMEM, "out of memory");
        goto out;
    }
    if (len >= 3 && memcmp(p.s, "\xEF\xBB\xBF", 3) == 0)
        p.s += 3;
    /* header */
    while (p.s < p.end && is_blank_line(p.s, p.end)) {
        p.line++;
        const char *nl = memchr(p.s, '\n', (size_t)(p.end - p.s));
        p.s = nl ? nl + 1 : p.end;
    }
    if (p.s >= p.end) {
        err = fmuc_diag_set(diag, FMUC_EINPUT, "%s: no header row (the file is empty)", p.name);
        goto out;
    }
    p.line++;
    nf = split_line(&p, &f);
    if (nf < 0) {
        err = diag ? diag->code : FMUC_EINPUT;
        goto out;
    }
    if (nf < 2) {
        err = fmuc_diag_set(diag, FMUC_EINPUT,
                            "%s:%zu: the header needs a time column and at least one variable "
                            "column",
                            p.name, p.line);
        goto out;
    }
    out->ncols = (size_t)nf - 1;
    out->cols = calloc(out->ncols, sizeof *out->cols);
    if (!out->cols) {
        out->ncols = 0;
        err = fmuc_diag_set(diag, FMUC_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < out->ncols; i++) {
        if (!f[i + 1].text[0]) {
            err = fmuc_diag_set(diag, FMUC_EINPUT, "%s:%zu:%zu: empty column name", p.name,
                                p.line, i + 2);
            goto out;
        }
        for (size_t j = 0; j < i; j++)
            if (strcmp(out->cols[j], f[i + 1].text) == 0) {
                err = fmuc_diag_set(diag, FMUC_EINPUT, "%s:%zu:%zu: column '%s' appears twice",
                                    p.name, p.line, i + 2, f[i + 1].text);
                goto out;
            }
        out->cols[i] = f[i + 1].text;
        f[i + 1].text = NULL;
    }
    free_fields(f, (size_t)nf);
    f = NULL;
    /* data rows */
    while (p.s < p.end) {
        p.line++;
        if (is_blank_line(p.s, p.end)) {
            const char *nl = memchr(p.s, '\n', (size_t)(p.end - p.s));
            p.s = nl ? nl + 1 : p.end;
            continue;
        }
        nf = split_line(&p, &f);
        if (nf < 0) {
            err = diag ? diag->code : FMUC_EINPUT;
            goto out;
        }
        if ((size_t)nf != out->ncols + 1) {
            err = fmuc_diag_set(diag, FMUC_EINPUT, "%s:%zu: %ld fields, the header has %zu",
                                p.name, p.line, nf, out->ncols + 1);
            goto out;
        }
        if (out->nrows == rcap) {
            size_t ncap = rcap ? rcap * 2 : 256;
            double *nt = realloc(out->time, ncap * sizeof *nt);
            if (!nt) {
                err = fmuc_diag_set(diag, FMUC_ENOMEM, "out of memory");
                goto out;
            }
            out->time = nt;
            double *nv = realloc(out->values, ncap * out->ncols * sizeof *nv);
            if (!nv) {
                err = fmuc_diag_set(diag, FMUC_ENOMEM, "out of memory");
                goto out;
            }
            out->values = nv;
            rcap = ncap;
        }
        for (long i = 0; i < nf; i++) {
            double v;
            if (parse_number(&p, f[i].text, &v) < 0) {
                err = fmuc_diag_set(diag, FMUC_EINPUT,
                                    "%s:%zu:%ld: '%.40s' (column '%s') is not a number", p.name,
                                    p.line, i + 1, f[i].text, i == 0 ? "time" : out->cols[i - 1]);
                goto out;
            }
            if (i == 0) {
                if (!isfinite(v)) {
                    err = fmuc_diag_set(diag, FMUC_EINPUT, "%s:%zu:1: time '%s' is not finite",
                                        p.name, p.line, f[i].text);
                    goto out;
                }
                if (out->nrows > 0 && v < out->time[out->nrows - 1]) {
                    err = fmuc_diag_set(diag, FMUC_EINPUT,
                                        "%s:%zu:1: time %s is before the previous row's %.17g",
                                        p.name, p.line, f[i].text, out->time[out->nrows - 1]);
                    goto out;
                }
                out->time[out->nrows] = v;
            } else {
                out->values[out->nrows * out->ncols + (size_t)(i - 1)] = v;
            }
        }
        out->nrows++;
        free_fields(f, (size_t)nf);
        f = NULL;
    }
    if (out->nrows == 0)
        err = fmuc_diag_set(diag, FMUC_EINPUT, "%s: no data rows after the header", p.name);
out:
    if (f)
        free_fields(f, (size_t)nf);
    if (p.c_locale != (locale_t)0)
        freelocale(p.c_locale);
    if (err < 0) {
        char *keep = out->name;
        out->name = NULL;
        fmuc_refcsv_free(out);
        out->name = keep;
    }
    return err;
}

fmuc_err fmuc_refcsv_read(fmuc_refcsv *out, const char *path, fmuc_diag *diag)
{
    struct stat st;
    char *buf = NULL;
    fmuc_err err = FMUC_OK;
    FILE *fp = NULL;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;

    memset(out, 0, sizeof *out);
    fp = fopen(path, "rb");
    if (!fp || fstat(fileno(fp), &st) != 0) {
        err = fmuc_diag_set(diag, FMUC_EINPUT, "%s: cannot open: %s", path, strerror(errno));
        goto out;
    }
    if (!S_ISREG(st.st_mode) || (unsigned long long)st.st_size > REFCSV_MAX_BYTES) {
        err = fmuc_diag_set(diag, FMUC_EINPUT, "%s: not a regular file of at most 1 GiB", path);
        goto out;
    }
    buf = malloc((size_t)st.st_size + 1);
    if (!buf) {
        err = fmuc_diag_set(diag, FMUC_ENOMEM, "out of memory");
        goto out;
    }
    size_t n = fread(buf, 1, (size_t)st.st_size, fp);
    if (n != (size_t)st.st_size || ferror(fp)) {
        err = fmuc_diag_set(diag, FMUC_EIO, "%s: read error", path);
        goto out;
    }
    buf[n] = '\0';
    err = fmuc_refcsv_parse(out, buf, n, base, diag);
out:
    if (fp)
        fclose(fp);
    free(buf);
    return err;
}
