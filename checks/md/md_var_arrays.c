/* md-var-arrays: FMI 3.0 arrays (§2.4.7.2, §2.4.7.5; fmi3-rules B-219, B-251 to B-255, B-258).
 * A variable with <Dimension> children is an array; Clocks and structural parameters never are.
 * Each Dimension has exactly one of start (a fixed size > 0) and valueReference, which names a
 * UInt64 constant or structural parameter (not the array itself) whose start is > 0. The start
 * values of an array are one value (for every element) or one per element in row-major order
 * (the product of the sizes), also as <Start> children; a scalar has one start value. A Dimension
 * with neither attribute is md-required-attributes'. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "md_util.h"

/* The size a Dimension gives (0: unknown or invalid, reported here). */
static uint64_t dim_size(const fmuc_md *md, const uint64_t *keys, size_t nkeys,
                         const fmuc_md_var *v, const fmuc_md_dim *dm, uint32_t k,
                         fmuc_result *res)
{
    char d[FMUC_MDU_DESC_LEN], d2[FMUC_MDU_DESC_LEN];
    fmuc_mdu__var_desc(d, sizeof d, v);
    if (dm->has_start && dm->has_vr) {
        fmuc_result_violation(res, "%s: Dimension %u (line %u) has both start and "
                              "valueReference; exactly one is allowed", d, k + 1,
                              (unsigned)dm->line);
        return 0;
    }
    if (dm->has_start) {
        if (dm->start == 0)
            fmuc_result_violation(res, "%s: Dimension %u (line %u) has start=\"0\"; sizes are "
                                  "> 0", d, k + 1, (unsigned)dm->line);
        return dm->start;
    }
    if (!dm->has_vr)
        return 0;
    const fmuc_md_var *t = fmuc_mdu__vr_find(md, keys, nkeys, dm->value_reference);
    if (!t) {
        fmuc_result_violation(res, "%s: Dimension %u (line %u) valueReference=\"%u\" names no "
                              "variable", d, k + 1, (unsigned)dm->line,
                              (unsigned)dm->value_reference);
        return 0;
    }
    fmuc_mdu__var_desc(d2, sizeof d2, t);
    if (t == v) {
        fmuc_result_violation(res, "%s: Dimension %u (line %u) refers to the array itself", d,
                              k + 1, (unsigned)dm->line);
        return 0;
    }
    if (t->base != FMUC_BT_UINT64) {
        fmuc_result_violation(res, "%s: Dimension %u (line %u) refers to %s, a %s; a size is a "
                              "UInt64", d, k + 1, (unsigned)dm->line, d2,
                              fmuc_mdu__var_type_name(md, t));
        return 0;
    }
    if (t->causality != FMUC_CAUS_STRUCTURAL_PARAMETER && t->variability != FMUC_VAR_CONSTANT) {
        fmuc_result_violation(res, "%s: Dimension %u (line %u) refers to %s (causality=\"%s\", "
                              "variability=\"%s\"); a size is a structural parameter or a "
                              "constant", d, k + 1, (unsigned)dm->line, d2,
                              fmuc_mdu__causality_name(t->causality),
                              fmuc_mdu__variability_name(t->variability));
        return 0;
    }
    if (!(t->has & FMUC_HAS_START) || !isfinite(t->start))
        return 0; /* md-var-start-required / md-attribute-syntax */
    if (t->start <= 0) {
        fmuc_result_violation(res, "%s: Dimension %u (line %u) refers to %s, whose start=\"%.60s\" "
                              "is not a size > 0", d, k + 1, (unsigned)dm->line, d2,
                              fmuc_mdu__str(t->start_text));
        return 0;
    }
    return t->start < 1.8e19 ? (uint64_t)t->start : 0;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    char d[FMUC_MDU_DESC_LEN];
    size_t nkeys = 0, narrays = 0;
    uint64_t *keys = fmuc_mdu__vr_sort(md, &nkeys);
    if (!keys) {
        fmuc_result_error(res, "out of memory");
        return;
    }
    for (size_t i = 0; i < md->nexts; i++) {
        const fmuc_md_var_ext *x = &md->exts[i];
        const fmuc_md_var *v = &md->vars[x->var];
        uint32_t nstarts = x->nstarts ? x->nstarts : ((v->has & FMUC_HAS_START) ? 1 : 0);
        if (!x->ndims) {
            if (nstarts > 1)
                fmuc_result_violation(res, "%s: %u start values for a scalar (no Dimension); a "
                                      "scalar has one", fmuc_mdu__var_desc(d, sizeof d, v),
                                      (unsigned)nstarts);
            continue;
        }
        narrays++;
        if (v->base == FMUC_BT_CLOCK)
            fmuc_result_violation(res, "%s: a Clock with %u Dimension element%s; Clocks are never "
                                  "arrays", fmuc_mdu__var_desc(d, sizeof d, v),
                                  (unsigned)x->ndims, x->ndims == 1 ? "" : "s");
        if (v->causality == FMUC_CAUS_STRUCTURAL_PARAMETER)
            fmuc_result_violation(res, "%s: a structural parameter with %u Dimension element%s; "
                                  "structural parameters are never arrays",
                                  fmuc_mdu__var_desc(d, sizeof d, v), (unsigned)x->ndims,
                                  x->ndims == 1 ? "" : "s");
        uint64_t n = 1;
        int known = 1;
        for (uint32_t k = 0; k < x->ndims; k++) {
            uint64_t sz = dim_size(md, keys, nkeys, v, &x->dims[k], k, res);
            if (!sz || n > UINT64_MAX / sz)
                known = 0;
            else
                n *= sz;
        }
        if (known && nstarts > 1 && nstarts != n)
            fmuc_result_violation(res, "%s: %u start values for an array of %llu elements; give "
                                  "one value (for every element) or one per element",
                                  fmuc_mdu__var_desc(d, sizeof d, v), (unsigned)nstarts,
                                  (unsigned long long)n);
    }
    free(keys);
    if (!narrays)
        fmuc_result_na(res, "no array variable (no Dimension element)");
}

const fmuc_check fmuc_check_md_var_arrays = {
    .id = "md-var-arrays",
    .title = "FMI 3.0: array dimensions and start lists are consistent",
    .spec = "FMI 3.0.2 §2.4.7.2, §2.4.7.4, §2.4.7.5",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers size their buffers and nValues from the Dimension elements: a size of 0, a "
           "size taken from a non-UInt64 or changing variable, or a start list of another length "
           "makes them allocate the wrong number of elements.",
    .fix = "Give each Dimension either start (> 0) or the valueReference of a UInt64 structural "
           "parameter or constant, and list one start value or exactly one per element.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
