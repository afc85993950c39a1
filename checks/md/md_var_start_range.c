/* md-var-start-range: a numeric start (Real, Integer, Enumeration) lies within [min, max], the
 * bounds taken from the variable or else from its declaredType (FMI 2.0.4 §2.2.7, XSD doc; B-210;
 * VDM validStart). Inconsistent bounds (min > max) are md-var-min-max's. FMI 3.0: a Binary's
 * <Start> values decode to at most maxSize bytes, maxSize from the variable or else from its
 * BinaryType (FMI 3.0.2 §2.4.4 maxSize, derived: warn; B-226). */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "md_util.h"

/* FMI 3.0 §2.4.4: maxSize is the largest value of the Binary in bytes; a start value longer
 * than that cannot be a value of the variable (the text states no rule for start: derived). */
static void binary_starts(const fmuc_md *md, size_t i, const fmuc_md_type *t, fmuc_result *res)
{
    const fmuc_md_var *v = &md->vars[i];
    const fmuc_md_var_ext *x = v->ext ? fmuc_md_var_ext_of(md, i) : NULL;
    uint32_t max;
    const char *from;
    if (x && x->has_max_size) {
        max = x->max_size;
        from = "";
    } else if (t && t->has_max_size) {
        max = t->max_size;
        from = " (from its declaredType)";
    } else {
        return;
    }
    char d[FMUC_MDU_DESC_LEN];
    for (uint32_t k = 0; x && k < x->nstarts; k++) {
        size_t at, nbytes;
        if (!x->starts[k] || !fmuc_mdu__hex_binary(x->starts[k], &at, &nbytes))
            continue; /* not xs:hexBinary: md-attribute-syntax */
        if (nbytes > max)
            fmuc_result_warn(res,
                             "%s: <Start> value %u decodes to %zu bytes, more than "
                             "maxSize=\"%u\"%s",
                             fmuc_mdu__var_desc(d, sizeof d, v), k + 1, nbytes, max, from);
    }
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    fmuc_mdu_map types;
    char d[FMUC_MDU_DESC_LEN], b1[32];
    if (fmuc_mdu__types_map(&types, md) < 0) {
        fmuc_mdu__map_free(&types);
        fmuc_result_error(res, "out of memory");
        return;
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (md->fmi == FMUC_FMI3 && v->base == FMUC_BT_BINARY)
            binary_starts(md, i, fmuc_mdu__var_type(md, &types, v), res);
        if (!(v->has & FMUC_HAS_START) || !isfinite(v->start) ||
            (v->type != FMUC_TYPE_REAL && v->type != FMUC_TYPE_INTEGER &&
             v->type != FMUC_TYPE_ENUMERATION))
            continue;
        fmuc_mdu_eff e;
        fmuc_mdu__effective(&e, v, fmuc_mdu__var_type(md, &types, v));
        if (e.has_min && e.has_max && e.min > e.max)
            continue;
        /* FMI 3.0 §2.4.7.5: an array's start is a list; every element lies within the bounds
         * (the first is v->start, the others are judged here) */
        const fmuc_md_var_ext *x = v->ext ? fmuc_md_var_ext_of(md, i) : NULL;
        for (uint32_t k = 1; x && k < x->nstarts && v->type != FMUC_TYPE_STRING; k++) {
            char *end;
            const char *t = x->starts[k];
            double sv = t ? strtod(t, &end) : NAN;
            if (!t || end == t || *end || !isfinite(sv))
                continue; /* not a number: md-attribute-syntax */
            int l2 = e.has_min && sv < e.min, h2 = e.has_max && sv > e.max;
            if (l2 || h2)
                fmuc_result_violation(res, "%s: start element %u = %.100s is %s %s=\"%s\"",
                                      fmuc_mdu__var_desc(d, sizeof d, v), k + 1, t,
                                      l2 ? "below" : "above", l2 ? "min" : "max",
                                      fmuc_md_fmt_double(b1, l2 ? e.min : e.max));
        }
        int lo = e.has_min && v->start < e.min, hi = e.has_max && v->start > e.max;
        if (!lo && !hi)
            continue;
        FMUC_MDU_VIOLATION_V1_WARN(md, res, "%s: start=\"%.100s\" is %s %s=\"%s\"%s",
                              fmuc_mdu__var_desc(d, sizeof d, v), fmuc_mdu__str(v->start_text),
                              lo ? "below" : "above", lo ? "min" : "max",
                              fmuc_md_fmt_double(b1, lo ? e.min : e.max),
                              (lo ? (v->has & FMUC_HAS_MIN) : (v->has & FMUC_HAS_MAX))
                                  ? ""
                                  : " (from its declaredType)");
    }
    fmuc_mdu__map_free(&types);
}

const fmuc_check fmuc_check_md_var_start_range = {
    .id = "md-var-start-range",
    .title = "start values lie within [min, max]",
    .spec = "FMI 2.0.4 §2.2.7; FMI 3.0.2 §2.4.4; FMI 1.0 ME (fmiScalarVariable.xsd min/max; derived)",
    .level = FMUC_LEVEL_MUST,
    .why = "A start value outside [min, max] is refused by importers that check bounds, or makes "
           "the FMU start in a state it declares impossible.",
    .fix = "Correct the start value or the min/max (including those inherited from the "
           "declaredType) so that min <= start <= max.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
