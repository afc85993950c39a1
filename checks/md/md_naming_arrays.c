/* md-naming-arrays: with variableNamingConvention="structured", the elements of one array
 * (names that differ only in their final [i,j,...]) should be listed consecutively and in
 * row-major order (FMI 2.0.4 §2.2.9, catalogue B.9, a recommendation). Index base is not
 * checked (unspecified). O(N log N): elements are grouped by sorting on the array name. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "md_util.h"

typedef struct elem {
    const char *name;
    size_t prefix;   /* length of the array name (up to the final '[') */
    uint32_t index1; /* position in ModelVariables */
} elem;

static int cmp_elem(const void *a, const void *b)
{
    const elem *x = a, *y = b;
    size_t n = x->prefix < y->prefix ? x->prefix : y->prefix;
    int c = memcmp(x->name, y->name, n);
    if (c)
        return c;
    if (x->prefix != y->prefix)
        return x->prefix < y->prefix ? -1 : 1;
    return (x->index1 > y->index1) - (x->index1 < y->index1);
}

/* Length of the array name when name ends with arrayIndices, else 0. */
static size_t array_prefix(const char *name)
{
    size_t n = strlen(name);
    if (n < 3 || name[n - 1] != ']')
        return 0;
    size_t i = n - 1;
    while (i > 0 && ((name[i - 1] >= '0' && name[i - 1] <= '9') || name[i - 1] == ','))
        i--;
    if (i == 0 || name[i - 1] != '[' || i == n - 1)
        return 0;
    return i - 1;
}

/* Compare the index tuples after the prefix numerically (row-major = lexicographic). */
static int cmp_indices(const char *a, const char *b)
{
    for (;;) {
        char *ea, *eb;
        unsigned long long x = strtoull(a, &ea, 10), y = strtoull(b, &eb, 10);
        if (x != y)
            return x < y ? -1 : 1;
        a = ea;
        b = eb;
        int ma = *a == ',', mb = *b == ',';
        if (!ma || !mb)
            return ma - mb; /* shorter tuple first */
        a++;
        b++;
    }
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    const char *conv = md->variable_naming_convention;
    if (!conv || strcmp(conv, "structured") != 0) {
        fmuc_result_na(res, "variableNamingConvention is not \"structured\"");
        return;
    }
    elem *e = malloc((md->nvars ? md->nvars : 1) * sizeof *e);
    size_t n = 0, arrays = 0;
    if (!e) {
        fmuc_result_error(res, "out of memory");
        return;
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const char *name = md->vars[i].name;
        if (!name || !fmuc_ms__structured_name(name, NULL) || strncmp(name, "der(", 4) == 0)
            continue;
        size_t p = array_prefix(name);
        if (p)
            e[n++] = (elem){name, p, (uint32_t)(i + 1)};
    }
    qsort(e, n, sizeof *e, cmp_elem);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && e[j].prefix == e[i].prefix && memcmp(e[j].name, e[i].name, e[i].prefix) == 0)
            j++;
        arrays++;
        uint32_t first = e[i].index1, last = e[j - 1].index1;
        if ((size_t)(last - first) + 1 != j - i) {
            /* the first gap: an element followed by a non-member */
            size_t k = i;
            while (k + 1 < j && e[k + 1].index1 == e[k].index1 + 1)
                k++;
            const fmuc_md_var *other = &md->vars[e[k].index1]; /* index1 + 1, 0-based */
            fmuc_result_violation(res, "array '%.*s' (%zu elements, indices %u..%u) is not "
                                  "listed consecutively: " FMUC_MS_VAR " (index %u) comes "
                                  "between '%s' and '%s'",
                                  (int)e[i].prefix, e[i].name, j - i, (unsigned)first,
                                  (unsigned)last, FMUC_MS_VAR_ARGS(other),
                                  (unsigned)(e[k].index1 + 1), e[k].name, e[k + 1].name);
        }
        for (size_t k = i + 1; k < j; k++) {
            if (cmp_indices(e[k - 1].name + e[k - 1].prefix + 1, e[k].name + e[k].prefix + 1) < 0)
                continue;
            const fmuc_md_var *v = &md->vars[e[k].index1 - 1];
            fmuc_result_violation(res, FMUC_MS_VAR " comes after '%s' (line %u): array elements "
                                  "should be in row-major order",
                                  FMUC_MS_VAR_ARGS(v), e[k - 1].name,
                                  (unsigned)md->vars[e[k - 1].index1 - 1].line);
            break;
        }
        i = j;
    }
    cJSON *ev = fmuc_result_evidence(res);
    if (ev)
        cJSON_AddNumberToObject(ev, "arrays", (double)arrays);
    free(e);
}

const fmuc_check fmuc_check_md_naming_arrays = {
    .id = "md-naming-arrays",
    .title = "Array elements are listed consecutively in row-major order",
    .spec = "FMI 2.0.4 §2.2.9; FMI 3.0.2 §2.4.7.5.1; FMI 1.0 ME (variableNamingConvention structured; a recommendation)",
    .level = FMUC_LEVEL_SHOULD,
    .why = "Tools rebuild arrays from structured names; elements that are scattered or out of "
           "row-major order are regrouped wrongly or shown as separate scalars.",
    .fix = "Emit the elements of each array consecutively, with the last index varying fastest "
           "(row-major), e.g. a[1,1], a[1,2], a[2,1], a[2,2].",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
