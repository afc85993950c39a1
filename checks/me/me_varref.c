/* Variable references of the me-* spec files: a name, or one element of an FMI 3.0 array
 * variable (me_varref.h). */
#include "me/me_varref.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fmuc/fmuc_sim.h"

#define MAX_DIMS 8 /* the simulation result names elements of up to 8 dimensions */

static long find(const fmuc_md *md, const char *name, size_t len)
{
    for (size_t i = 0; i < md->nvars; i++)
        if (md->vars[i].name && strlen(md->vars[i].name) == len &&
            strncmp(md->vars[i].name, name, len) == 0)
            return (long)i;
    return -1;
}

/* The indices between '[' and ']' (p .. end): decimal digits with optional spaces around,
 * separated by commas. Returns the count, or -1 (a malformed index; *bad points at it). */
static int indices(const char *p, const char *end, uint64_t *idx, int max, const char **bad)
{
    int n = 0;
    for (;;) {
        while (p < end && *p == ' ')
            p++;
        const char *d = p;
        uint64_t v = 0;
        while (p < end && isdigit((unsigned char)*p) && v <= UINT64_MAX / 10 - 9)
            v = v * 10 + (uint64_t)(*p++ - '0');
        if (p == d || (p < end && isdigit((unsigned char)*p))) {
            *bad = d;
            return -1;
        }
        while (p < end && *p == ' ')
            p++;
        if (n < max)
            idx[n] = v;
        n++;
        if (p == end)
            return n;
        if (*p != ',') {
            *bad = p;
            return -1;
        }
        p++;
    }
}

int fmuc_me__varref_parse(const fmuc_md *md, const char *what, const char *text, int need_scalar,
                          fmuc_me_varref *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    size_t len = strlen(text);
    long vi = find(md, text, len);
    size_t dims[MAX_DIMS], nd = 0;
    if (vi >= 0) {
        const fmuc_md_var *v = &md->vars[vi];
        out->var = (size_t)vi;
        out->nelements = fmuc_sim_var_elements(md, (size_t)vi, NULL, 0, NULL);
        snprintf(out->column, sizeof out->column, "%s", text);
        if (need_scalar && out->nelements != 1) {
            snprintf(err, errlen, "%s '%s': '%s' (vr %u, line %u) is an array variable; name one "
                                  "element, e.g. '%s[1%s]' (indices from 1, FMI 3.0.2 §2.2.9)",
                     what, text, v->name, v->value_reference, v->line, v->name,
                     fmuc_md_var_ext_of(md, (size_t)vi) &&
                             fmuc_md_var_ext_of(md, (size_t)vi)->ndims > 1
                         ? ",1"
                         : "");
            return -1;
        }
        return 0;
    }
    const char *open = len && text[len - 1] == ']' ? strrchr(text, '[') : NULL;
    if (!open || md->fmi != FMUC_FMI3) {
        snprintf(err, errlen, "%s '%s': no variable of the model has this name", what, text);
        return -1;
    }
    size_t blen = (size_t)(open - text);
    while (blen && text[blen - 1] == ' ')
        blen--;
    vi = find(md, text, blen);
    if (vi < 0) {
        snprintf(err, errlen, "%s '%s': no variable of the model is named '%.*s'", what, text,
                 (int)blen, text);
        return -1;
    }
    const fmuc_md_var *v = &md->vars[vi];
    const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, (size_t)vi);
    if (!x || x->ndims == 0) {
        snprintf(err, errlen, "%s '%s': '%s' (vr %u, line %u) is a scalar variable (no "
                              "<Dimension>); an index names an element of an array variable only",
                 what, text, v->name, v->value_reference, v->line);
        return -1;
    }
    size_t n = fmuc_sim_var_elements(md, (size_t)vi, dims, MAX_DIMS, &nd);
    if (n == 0 || nd > MAX_DIMS) {
        snprintf(err, errlen, "%s '%s': the size of '%s' (vr %u, line %u) is not known%s", what,
                 text, v->name, v->value_reference, v->line,
                 nd > MAX_DIMS ? " to the recorder (more than 8 dimensions)"
                               : " (a <Dimension> without start or structural parameter start)");
        return -1;
    }
    uint64_t idx[MAX_DIMS];
    const char *bad = NULL;
    int ni = indices(open + 1, text + len - 1, idx, MAX_DIMS, &bad);
    if (ni < 0) {
        snprintf(err, errlen, "%s '%s': malformed index at '%.*s' (indices are unsigned decimal "
                              "integers separated by commas)",
                 what, text, (int)(text + len - 1 - bad), bad);
        return -1;
    }
    if ((size_t)ni != nd) {
        snprintf(err, errlen, "%s '%s': '%s' (vr %u, line %u) has %zu dimension%s, the reference "
                              "gives %d ind%s",
                 what, text, v->name, v->value_reference, v->line, nd, nd == 1 ? "" : "s", ni,
                 ni == 1 ? "ex" : "ices");
        return -1;
    }
    size_t e = 0;
    int o = snprintf(out->column, sizeof out->column, "%s[", v->name);
    for (size_t k = 0; k < nd; k++) {
        if (idx[k] < 1 || idx[k] > dims[k]) {
            snprintf(err, errlen, "%s '%s': index %llu of dimension %zu of '%s' (vr %u, line %u) "
                                  "is outside 1 .. %zu (element indices start with 1, FMI 3.0.2 "
                                  "§2.2.9)",
                     what, text, (unsigned long long)idx[k], k + 1, v->name, v->value_reference,
                     v->line, dims[k]);
            return -1;
        }
        e = e * dims[k] + (size_t)(idx[k] - 1);
        if (o > 0 && (size_t)o < sizeof out->column)
            o += snprintf(out->column + o, sizeof out->column - (size_t)o, "%s%llu", k ? "," : "",
                          (unsigned long long)idx[k]);
    }
    if (o <= 0 || (size_t)o + 2 > sizeof out->column) {
        snprintf(err, errlen, "%s '%s': the name is too long", what, text);
        return -1;
    }
    snprintf(out->column + o, sizeof out->column - (size_t)o, "]");
    out->var = (size_t)vi;
    out->element = e + 1;
    out->nelements = n;
    return 0;
}
