/* md-var-value-references: FMI 3.0: every variable has its own valueReference, unique over the
 * variables of all types; an alias is an <Alias> child, never a second variable with the same
 * valueReference (FMI 3.0.2 §2.4.7.4, §2.4.7.3; fmi3-rules B-202, B-301; G-14: FMI 2.0's
 * per-type spaces and shared valueReferences carried into 3.0). O(N log N). */
#include <stdlib.h>

#include "check.h"
#include "md_util.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    char d[FMUC_MDU_DESC_LEN];
    uint64_t *key = malloc((md->nvars ? md->nvars : 1) * sizeof *key);
    size_t n = 0, dups = 0;
    if (!key) {
        fmuc_result_error(res, "out of memory");
        return;
    }
    for (size_t i = 0; i < md->nvars; i++)
        if (md->vars[i].has & FMUC_HAS_VALUE_REFERENCE)
            key[n++] = (uint64_t)md->vars[i].value_reference << 32 | (uint64_t)i;
    qsort(key, n, sizeof *key, cmp_u64);
    for (size_t k = 1; k < n; k++) {
        if ((key[k] >> 32) != (key[k - 1] >> 32))
            continue;
        /* the first variable of the run of equal valueReferences */
        size_t first = k - 1;
        while (first > 0 && (key[first - 1] >> 32) == (key[k] >> 32))
            first--;
        const fmuc_md_var *a = &md->vars[key[first] & 0xffffffffu];
        const fmuc_md_var *v = &md->vars[key[k] & 0xffffffffu];
        dups++;
        fmuc_result_violation(res, "%s (%s) has the valueReference of variable '%.200s' (%s, "
                              "line %u); FMI 3.0 valueReferences are unique over all variables "
                              "(an alias is an <Alias> child of its variable)",
                              fmuc_mdu__var_desc(d, sizeof d, v), fmuc_mdu__var_type_name(md, v),
                              fmuc_ms__name(a), fmuc_mdu__var_type_name(md, a),
                              (unsigned)a->line);
    }
    cJSON *ev = fmuc_result_evidence(res);
    if (ev)
        cJSON_AddNumberToObject(ev, "shared_value_references", (double)dups);
    free(key);
}

const fmuc_check fmuc_check_md_var_value_references = {
    .id = "md-var-value-references",
    .title = "FMI 3.0: valueReferences are unique over all variables",
    .spec = "FMI 3.0.2 §2.4.7.4, §2.4.7.3",
    .level = FMUC_LEVEL_MUST,
    .why = "FMI 3.0 importers map each valueReference to one variable: a second variable with the "
           "same number (an FMI 2.0 alias or per-type numbering) makes get/set calls hit the "
           "wrong variable.",
    .fix = "Give every variable its own valueReference across all types, and declare alias names "
           "as <Alias> children of the one variable instead of separate variables.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
