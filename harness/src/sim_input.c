/* Inputs of the simulation driver: the --input CSV (time column + one column per input variable,
 * continuous Reals interpolated linearly, everything else held) and the documented deterministic
 * excitation used without a CSV (fmuc_sim.h). */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmuc/fmuc_sim.h"

#define MAX_LINE (1u << 20)

static double parse_num(const char *s, int *ok)
{
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    char *end = NULL;
    errno = 0;
    double v = c ? strtod_l(s, &end, c) : strtod(s, &end);
    if (c)
        freelocale(c);
    *ok = end && end != s && *end == '\0';
    return v;
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    size_t k = 0;
    while (s[k] == ' ' || s[k] == '\t')
        k++;
    if (k)
        memmove(s, s + k, n - k + 1);
}

/* Split one CSV line into fields (in place); handles "quoted, fields" and "" escapes.
 * Returns the number of fields or -1 for an unterminated quote. */
static int split_csv(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        if (n == max)
            return n + 1; /* too many: reported by the caller */
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '"') {
            char *w = ++p;
            fields[n++] = w;
            for (;;) {
                if (*p == '\0')
                    return -1;
                if (*p == '"') {
                    if (p[1] == '"') {
                        *w++ = '"';
                        p += 2;
                        continue;
                    }
                    p++;
                    break;
                }
                *w++ = *p++;
            }
            *w = '\0';
            while (*p && *p != ',')
                p++;
        } else {
            fields[n++] = p;
            while (*p && *p != ',')
                p++;
            if (*p == ',') {
                *p = '\0';
                trim(fields[n - 1]);
                p++;
                continue;
            }
            trim(fields[n - 1]);
            return n;
        }
        if (*p == ',') {
            *p = '\0';
            p++;
            continue;
        }
        return n;
    }
}

static const fmuc_md_var *find_input(const fmuc_md *md, const char *name, uint32_t *index)
{
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (v->name && strcmp(v->name, name) == 0) {
            *index = (uint32_t)(i + 1);
            return v;
        }
    }
    return NULL;
}

/* Why the input v (index1: 1-based) cannot be driven by a table, or NULL: FMI 3.0 arrays,
 * clocked inputs, Binary and Clock inputs (a scalar value per column is all a table holds). */
static const char *not_drivable(const fmuc_md *md, const fmuc_md_var *v, uint32_t index1)
{
    if (v->type == FMUC_TYPE_BINARY)
        return "a Binary input";
    if (v->type == FMUC_TYPE_CLOCK)
        return "a Clock";
    if (v->type == FMUC_TYPE_NONE)
        return "an input without a type";
    const fmuc_md_var_ext *x = v->ext && index1 ? fmuc_md_var_ext_of(md, index1 - 1) : NULL;
    if (x && x->ndims)
        return "an array input (FMI 3.0 Dimension)";
    if (x && x->nclocks)
        return "a clocked input";
    return NULL;
}

/* The value range of an FMI 3.0 integer base type; 0 for other types. */
static int base_range(unsigned bt, double *lo, double *hi)
{
    switch (bt) {
    case FMUC_BT_INT8: *lo = -128.0; *hi = 127.0; return 1;
    case FMUC_BT_UINT8: *lo = 0.0; *hi = 255.0; return 1;
    case FMUC_BT_INT16: *lo = -32768.0; *hi = 32767.0; return 1;
    case FMUC_BT_UINT16: *lo = 0.0; *hi = 65535.0; return 1;
    case FMUC_BT_INT32: *lo = -2147483648.0; *hi = 2147483647.0; return 1;
    case FMUC_BT_UINT32: *lo = 0.0; *hi = 4294967295.0; return 1;
    case FMUC_BT_INT64: *lo = -9223372036854775808.0; *hi = 9223372036854774784.0; return 1;
    case FMUC_BT_UINT64: *lo = 0.0; *hi = 18446744073709549568.0; return 1;
    default: return 0;
    }
}

static int is_continuous_real(const fmuc_md_var *v)
{
    return v->type == FMUC_TYPE_REAL && v->variability == FMUC_VAR_CONTINUOUS;
}

void fmuc_sim_input_free(fmuc_sim_input *in)
{
    if (!in)
        return;
    for (size_t c = 0; c < in->ncols; c++) {
        free(in->cols[c].values);
        if (in->cols[c].strings) {
            for (size_t k = 0; k < in->npoints; k++)
                free(in->cols[c].strings[k]);
            free(in->cols[c].strings);
        }
    }
    free(in->cols);
    free(in->times);
    free(in->source);
    memset(in, 0, sizeof *in);
}

static fmuc_err grow_rows(fmuc_sim_input *in, size_t *cap)
{
    if (in->npoints < *cap)
        return FMUC_OK;
    size_t ncap = *cap ? *cap * 2 : 256;
    double *t = realloc(in->times, ncap * sizeof *t);
    if (!t)
        return FMUC_ENOMEM;
    in->times = t;
    for (size_t c = 0; c < in->ncols; c++) {
        fmuc_sim_input_col *col = &in->cols[c];
        if (col->strings) {
            char **s = realloc(col->strings, ncap * sizeof *s);
            if (!s)
                return FMUC_ENOMEM;
            col->strings = s;
        }
        double *v = realloc(col->values, ncap * sizeof *v);
        if (!v)
            return FMUC_ENOMEM;
        col->values = v;
    }
    *cap = ncap;
    return FMUC_OK;
}

fmuc_err fmuc_sim_input_load_csv(fmuc_sim_input *in, const char *path, const fmuc_md *md,
                                 fmuc_diag *diag)
{
    memset(in, 0, sizeof *in);
    in->md = md;
    fmuc_err err = FMUC_OK;
    char *line = NULL, **fields = NULL;
    size_t cap = 0, lineno = 0;
    int nf = 0, row_open = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return fmuc_diag_set(diag, FMUC_EINPUT, "%s: cannot open input file: %s", path,
                             strerror(errno));
    in->source = strdup(path);
    line = malloc(MAX_LINE);
    if (!in->source || !line) {
        err = fmuc_diag_set(diag, FMUC_ENOMEM, "%s: out of memory", path);
        goto out;
    }
    /* header */
    for (;;) {
        if (!fgets(line, MAX_LINE, f)) {
            err = fmuc_diag_set(diag, FMUC_EINPUT, "%s:%zu: no header line (time,<input>...)",
                                path, lineno + 1);
            goto out;
        }
        lineno++;
        trim(line);
        if (line[0] && line[0] != '#')
            break;
    }
    size_t maxf = strlen(line) + 2;
    fields = calloc(maxf, sizeof *fields);
    if (!fields) {
        err = fmuc_diag_set(diag, FMUC_ENOMEM, "%s: out of memory", path);
        goto out;
    }
    nf = split_csv(line, fields, (int)maxf);
    if (nf < 1) {
        err = fmuc_diag_set(diag, FMUC_EINPUT, "%s:%zu: unterminated quote in the header", path,
                            lineno);
        goto out;
    }
    in->ncols = (size_t)(nf - 1);
    in->cols = calloc(in->ncols ? in->ncols : 1, sizeof *in->cols);
    if (!in->cols) {
        err = fmuc_diag_set(diag, FMUC_ENOMEM, "%s: out of memory", path);
        goto out;
    }
    for (int k = 1; k < nf; k++) {
        fmuc_sim_input_col *col = &in->cols[k - 1];
        uint32_t idx = 0;
        const fmuc_md_var *v = find_input(md, fields[k], &idx);
        if (!v) {
            err = fmuc_diag_set(diag, FMUC_EINPUT, "%s:%zu:%d: column '%s' is not a variable",
                                path, lineno, k + 1, fields[k]);
            goto out;
        }
        if (v->causality != FMUC_CAUS_INPUT) {
            err = fmuc_diag_set(diag, FMUC_EINPUT,
                                "%s:%zu:%d: column '%s' (vr %u) is not an input (causality=\"%s\")",
                                path, lineno, k + 1, fields[k], v->value_reference,
                                fmuc_md_causality_name((fmuc_causality)v->causality));
            goto out;
        }
        const char *nd = not_drivable(md, v, idx);
        if (nd) {
            err = fmuc_diag_set(diag, FMUC_EINPUT,
                                "%s:%zu:%d: column '%s' (vr %u) is %s, which --input cannot drive",
                                path, lineno, k + 1, fields[k], v->value_reference, nd);
            goto out;
        }
        for (int j = 1; j < k; j++)
            if (in->cols[j - 1].var == v) {
                err = fmuc_diag_set(diag, FMUC_EINPUT, "%s:%zu:%d: column '%s' appears twice",
                                    path, lineno, k + 1, fields[k]);
                goto out;
            }
        col->var = v;
        col->var_index = idx;
        col->interpolate = is_continuous_real(v);
        snprintf(col->kind, sizeof col->kind, "csv");
        if (v->type == FMUC_TYPE_STRING) {
            col->strings = calloc(1, sizeof *col->strings);
            if (!col->strings) {
                err = fmuc_diag_set(diag, FMUC_ENOMEM, "%s: out of memory", path);
                goto out;
            }
        }
    }
    /* rows */
    while (fgets(line, MAX_LINE, f)) {
        lineno++;
        size_t len = strlen(line);
        if (len == MAX_LINE - 1 && line[len - 1] != '\n') {
            err = fmuc_diag_set(diag, FMUC_EINPUT, "%s:%zu: line longer than %u bytes", path,
                                lineno, MAX_LINE - 2);
            goto out;
        }
        trim(line);
        if (!line[0] || line[0] == '#')
            continue;
        int n = split_csv(line, fields, (int)maxf);
        if (n < 0) {
            err = fmuc_diag_set(diag, FMUC_EINPUT, "%s:%zu: unterminated quote", path, lineno);
            goto out;
        }
        if (n != nf) {
            err = fmuc_diag_set(diag, FMUC_EINPUT, "%s:%zu:%d: %d fields, the header has %d",
                                path, lineno, n < nf ? n : nf + 1, n, nf);
            goto out;
        }
        if ((err = grow_rows(in, &cap)) < 0) {
            row_open = 0;
            fmuc_diag_set(diag, err, "%s: out of memory", path);
            goto out;
        }
        int ok;
        double t = parse_num(fields[0], &ok);
        if (!ok || !isfinite(t)) {
            err = fmuc_diag_set(diag, FMUC_EINPUT, "%s:%zu:1: time '%s' is not a finite number",
                                path, lineno, fields[0]);
            goto out;
        }
        if (in->npoints && t < in->times[in->npoints - 1]) {
            err = fmuc_diag_set(diag, FMUC_EINPUT, "%s:%zu:1: time %s is before the previous row",
                                path, lineno, fields[0]);
            goto out;
        }
        size_t r = in->npoints;
        in->times[r] = t;
        for (size_t c = 0; c < in->ncols; c++)
            if (in->cols[c].strings)
                in->cols[c].strings[r] = NULL;
        row_open = 1;
        for (int k = 1; k < nf; k++) {
            fmuc_sim_input_col *col = &in->cols[k - 1];
            const fmuc_md_var *v = col->var;
            const char *s = fields[k];
            double x = NAN;
            if (v->type == FMUC_TYPE_STRING) {
                col->strings[r] = strdup(s);
                if (!col->strings[r]) {
                    err = fmuc_diag_set(diag, FMUC_ENOMEM, "%s: out of memory", path);
                    goto out;
                }
                x = 0.0;
            } else if (v->type == FMUC_TYPE_BOOLEAN) {
                if (strcmp(s, "true") == 0 || strcmp(s, "1") == 0)
                    x = 1.0;
                else if (strcmp(s, "false") == 0 || strcmp(s, "0") == 0)
                    x = 0.0;
                else {
                    err = fmuc_diag_set(diag, FMUC_EINPUT,
                                        "%s:%zu:%d: '%s' is not a Boolean (true/false/1/0) for "
                                        "input '%s'",
                                        path, lineno, k + 1, s, v->name);
                    goto out;
                }
            } else {
                x = parse_num(s, &ok);
                if (!ok || !isfinite(x)) {
                    err = fmuc_diag_set(diag, FMUC_EINPUT,
                                        "%s:%zu:%d: '%s' is not a finite number for input '%s'",
                                        path, lineno, k + 1, s, v->name);
                    goto out;
                }
                if ((v->type == FMUC_TYPE_INTEGER || v->type == FMUC_TYPE_ENUMERATION) &&
                    (x != floor(x) || x < -2147483648.0 || x > 2147483647.0)) {
                    err = fmuc_diag_set(diag, FMUC_EINPUT,
                                        "%s:%zu:%d: '%s' is not an Integer for input '%s'", path,
                                        lineno, k + 1, s, v->name);
                    goto out;
                }
            }
            col->values[r] = x;
        }
        in->npoints++;
        row_open = 0;
    }
    if (ferror(f)) {
        err = fmuc_diag_set(diag, FMUC_EIO, "%s: read error", path);
        goto out;
    }
    if (in->npoints == 0) {
        err = fmuc_diag_set(diag, FMUC_EINPUT, "%s:%zu: no data rows", path, lineno);
        goto out;
    }
out:
    if (err < 0) {
        /* strings of the row being read when the error came (not yet counted in npoints) */
        for (size_t c = 0; row_open && c < in->ncols; c++)
            if (in->cols[c].strings)
                free(in->cols[c].strings[in->npoints]);
        fmuc_sim_input_free(in);
    }
    free(fields);
    free(line);
    fclose(f);
    return err;
}

static const fmuc_md_type *decl_type(const fmuc_md *md, const fmuc_md_var *v)
{
    if (!v->declared_type)
        return NULL;
    for (size_t i = 0; i < md->ntypes; i++)
        if (md->types[i].name && strcmp(md->types[i].name, v->declared_type) == 0)
            return &md->types[i];
    return NULL;
}

/* min/max/nominal of a variable, falling back to its declared type */
static void bounds(const fmuc_md *md, const fmuc_md_var *v, int *hmin, double *mn, int *hmax,
                   double *mx, int *hnom, double *nom)
{
    const fmuc_md_type *t = decl_type(md, v);
    *hmin = (v->has & FMUC_HAS_MIN) && isfinite(v->min);
    *mn = v->min;
    if (!*hmin && t && (t->has & FMUC_HAS_MIN) && isfinite(t->min)) {
        *hmin = 1;
        *mn = t->min;
    }
    *hmax = (v->has & FMUC_HAS_MAX) && isfinite(v->max);
    *mx = v->max;
    if (!*hmax && t && (t->has & FMUC_HAS_MAX) && isfinite(t->max)) {
        *hmax = 1;
        *mx = t->max;
    }
    *hnom = (v->has & FMUC_HAS_NOMINAL) && isfinite(v->nominal) && v->nominal != 0.0;
    *nom = v->nominal;
    if (!*hnom && t && (t->has & FMUC_HAS_NOMINAL) && isfinite(t->nominal) && t->nominal != 0.0) {
        *hnom = 1;
        *nom = t->nominal;
    }
}

/* The excitation's scale of a variable: |start| when it is not 0, else |nominal|, else 1. */
static double scale_of(double start, int hnom, double nom)
{
    if (start != 0.0)
        return fabs(start);
    return hnom ? fabs(nom) : 1.0;
}

fmuc_err fmuc_sim_input_excitation(fmuc_sim_input *in, const fmuc_md *md, double t0, double t1,
                                   fmuc_diag *diag)
{
    memset(in, 0, sizeof *in);
    in->md = md;
    in->t0 = t0;
    in->t1 = t1;
    in->source = strdup("excitation");
    size_t n = 0;
    for (size_t i = 0; i < md->nvars; i++)
        if (md->vars[i].causality == FMUC_CAUS_INPUT)
            n++;
    in->cols = calloc(n ? n : 1, sizeof *in->cols);
    if (!in->source || !in->cols) {
        fmuc_sim_input_free(in);
        return fmuc_diag_set(diag, FMUC_ENOMEM, "excitation: out of memory");
    }
    size_t k = 0;
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (v->causality != FMUC_CAUS_INPUT || not_drivable(md, v, (uint32_t)(i + 1)))
            continue; /* FMI 3.0 arrays, clocked, Binary and Clock inputs keep their start */
        fmuc_sim_input_col *col = &in->cols[k];
        col->var = v;
        col->var_index = (uint32_t)(i + 1);
        col->interpolate = is_continuous_real(v);
        int hmin, hmax, hnom;
        double mn, mx, nom;
        bounds(md, v, &hmin, &mn, &hmax, &mx, &hnom, &nom);
        if (hmin && hmax && mn > mx)
            hmin = hmax = 0; /* contradictory bounds (md-var-min-max): ignored */
        double start = (v->has & FMUC_HAS_START) && isfinite(v->start) ? v->start
                       : hnom                                         ? nom
                                                                      : 0.0;
        col->lo = hmin ? mn : -HUGE_VAL;
        col->hi = hmax ? mx : HUGE_VAL;
        double tlo, thi; /* FMI 3.0 Int8..UInt64: never past the type's range */
        if (base_range(v->base, &tlo, &thi)) {
            if (col->lo < tlo)
                col->lo = tlo;
            if (col->hi > thi)
                col->hi = thi;
        }
        if (start < col->lo)
            start = col->lo;
        if (start > col->hi)
            start = col->hi;
        col->c = start;
        col->cycles = (double)(k + 1);
        if (v->type == FMUC_TYPE_STRING) {
            snprintf(col->kind, sizeof col->kind, "hold");
        } else if (v->type == FMUC_TYPE_BOOLEAN || v->type == FMUC_TYPE_ENUMERATION) {
            snprintf(col->kind, sizeof col->kind, "steps");
            col->a = 1.0;
        } else {
            snprintf(col->kind, sizeof col->kind, col->interpolate ? "swing" : "steps");
            /* away from zero (a positive pressure stays positive, a flow keeps its direction),
             * by FMUC_SIM_EXCITATION_REL of the variable's scale; the other way when a bound is
             * in the way; never past a bound */
            double a = FMUC_SIM_EXCITATION_REL * scale_of(start, hnom, nom);
            if (v->type == FMUC_TYPE_INTEGER)
                a = 1.0;
            double dir = start < 0.0 ? -1.0 : 1.0;
            double room_up = col->hi - start, room_down = start - col->lo;
            double room = dir > 0 ? room_up : room_down;
            if (room < a && (dir > 0 ? room_down : room_up) > room) {
                dir = -dir;
                room = dir > 0 ? room_up : room_down;
            }
            if (a > room)
                a = room;
            if (v->type == FMUC_TYPE_INTEGER)
                a = floor(a);
            col->a = dir * a;
        }
        k++;
    }
    in->ncols = k;
    return FMUC_OK;
}

static double excite(const fmuc_sim_input *in, const fmuc_sim_input_col *col, double t)
{
    double span = in->t1 - in->t0;
    double tau = span > 0.0 ? (t - in->t0) / span : 0.0;
    if (tau < 0.0)
        tau = 0.0;
    if (tau > 1.0)
        tau = 1.0;
    const fmuc_md_var *v = col->var;
    double x;
    if (strcmp(col->kind, "swing") == 0) {
        /* starts at the start value, smooth, one-sided */
        x = col->c + col->a * 0.5 * (1.0 - cos(2.0 * M_PI * col->cycles * tau));
    } else if (strcmp(col->kind, "hold") == 0) {
        return 0.0;
    } else {
        /* steps: start, moved, start, moved over the four quarters of the run */
        int p = (int)floor(4.0 * tau);
        int moved = (p & 1) != 0;
        if (v->type == FMUC_TYPE_BOOLEAN)
            return (double)((col->c != 0.0) != moved);
        if (v->type == FMUC_TYPE_ENUMERATION) {
            const fmuc_md_type *dt = decl_type(in->md, v);
            if (!moved || !dt || dt->nitems == 0)
                return col->c;
            /* the next declared item after the start value inside [min,max] (cyclic) */
            size_t at = dt->nitems;
            for (size_t i = 0; i < dt->nitems; i++)
                if (dt->items[i].has_value && (double)dt->items[i].value == col->c)
                    at = i;
            for (size_t j = 1; j <= dt->nitems; j++) {
                size_t i = at == dt->nitems ? j - 1 : (at + j) % dt->nitems;
                double y = dt->items[i].value;
                if (dt->items[i].has_value && y >= col->lo && y <= col->hi)
                    return y;
            }
            return col->c;
        }
        x = moved ? col->c + col->a : col->c;
    }
    if (x > col->hi)
        x = col->hi;
    if (x < col->lo)
        x = col->lo;
    return x;
}

/* Row index r with times[r] <= t < times[r+1] (r = 0 before the first row). */
static size_t row_at(const fmuc_sim_input *in, double t)
{
    size_t lo = 0, hi = in->npoints;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (in->times[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

double fmuc_sim_input_value(const fmuc_sim_input *in, size_t col, double t)
{
    const fmuc_sim_input_col *c = &in->cols[col];
    if (!c->values)
        return excite(in, c, t);
    if (in->npoints == 0)
        return NAN;
    size_t r = row_at(in, t);
    if (t <= in->times[0] || r + 1 >= in->npoints || !c->interpolate)
        return c->values[r];
    double t0 = in->times[r], t1 = in->times[r + 1];
    if (t1 <= t0)
        return c->values[r + 1];
    double w = (t - t0) / (t1 - t0);
    return c->values[r] + w * (c->values[r + 1] - c->values[r]);
}

const char *fmuc_sim_input_string(const fmuc_sim_input *in, size_t col, double t)
{
    const fmuc_sim_input_col *c = &in->cols[col];
    if (!c->strings || in->npoints == 0)
        return c->var->start_text ? c->var->start_text : "";
    return c->strings[row_at(in, t)];
}

cJSON *fmuc_sim_input_to_json(const fmuc_sim_input *in)
{
    cJSON *j = cJSON_CreateObject();
    if (!j)
        return NULL;
    cJSON_AddStringToObject(j, "source", in->source ? in->source : "");
    cJSON *cols = cJSON_AddArrayToObject(j, "inputs");
    for (size_t k = 0; cols && k < in->ncols; k++) {
        const fmuc_sim_input_col *c = &in->cols[k];
        cJSON *o = cJSON_CreateObject();
        if (!o)
            break;
        cJSON_AddStringToObject(o, "name", c->var->name ? c->var->name : "");
        cJSON_AddNumberToObject(o, "vr", c->var->value_reference);
        cJSON_AddStringToObject(o, "pattern", c->kind);
        if (!c->values && strcmp(c->kind, "swing") == 0) {
            cJSON_AddNumberToObject(o, "offset", c->c);
            cJSON_AddNumberToObject(o, "amplitude", c->a);
            cJSON_AddNumberToObject(o, "cycles", c->cycles);
        } else if (!c->values && strcmp(c->kind, "steps") == 0) {
            cJSON_AddNumberToObject(o, "base", c->c);
            cJSON_AddNumberToObject(o, "increment", c->a);
        } else if (c->values) {
            cJSON_AddNumberToObject(o, "rows", (double)in->npoints);
            cJSON_AddStringToObject(o, "interpolation", c->interpolate ? "linear" : "hold");
        }
        cJSON_AddItemToArray(cols, o);
    }
    if (in->ncols == 0)
        cJSON_AddStringToObject(j, "note", "the model has no inputs");
    return j;
}
