/* md-var-min-max: a variable's effective min <= max (own attributes, else its declaredType's) and
 * its nominal > 0 (FMI 2.0.4 §2.2.7, XSD doc; B-108). Type-level bounds: md-type-definitions. */
#include <math.h>

#include "check.h"
#include "md_util.h"

/* the value range of an FMI 3.0 integer type (doubles: exact up to 2^53, the bounds of the
 * 64-bit types are compared as the nearest doubles) */
static int int_range(unsigned base, double *lo, double *hi)
{
    switch (base) {
    case FMUC_BT_INT8: *lo = -128.0, *hi = 127.0; return 1;
    case FMUC_BT_UINT8: *lo = 0.0, *hi = 255.0; return 1;
    case FMUC_BT_INT16: *lo = -32768.0, *hi = 32767.0; return 1;
    case FMUC_BT_UINT16: *lo = 0.0, *hi = 65535.0; return 1;
    case FMUC_BT_INT32: *lo = -2147483648.0, *hi = 2147483647.0; return 1;
    case FMUC_BT_UINT32: *lo = 0.0, *hi = 4294967295.0; return 1;
    case FMUC_BT_INT64: *lo = -9223372036854775808.0, *hi = 9223372036854775807.0; return 1;
    case FMUC_BT_UINT64: *lo = 0.0, *hi = 18446744073709551615.0; return 1;
    default: return 0;
    }
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    fmuc_mdu_map types;
    char d[FMUC_MDU_DESC_LEN], b1[32], b2[32];
    if (fmuc_mdu__types_map(&types, md) < 0) {
        fmuc_mdu__map_free(&types);
        fmuc_result_error(res, "out of memory");
        return;
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        /* FMI 3.0 §2.4.4 (B-108, B-211): min and max of Int8..UInt64 lie in the type's range */
        double lo, hi;
        if (md->fmi == FMUC_FMI3 && int_range(v->base, &lo, &hi)) {
            if ((v->has & FMUC_HAS_MIN) && isfinite(v->min) && (v->min < lo || v->min > hi))
                fmuc_result_violation(res, "%s: min=\"%s\" is outside the range of %s",
                                      fmuc_mdu__var_desc(d, sizeof d, v),
                                      fmuc_md_fmt_double(b1, v->min),
                                      fmuc_mdu__var_type_name(md, v));
            if ((v->has & FMUC_HAS_MAX) && isfinite(v->max) && (v->max < lo || v->max > hi))
                fmuc_result_violation(res, "%s: max=\"%s\" is outside the range of %s",
                                      fmuc_mdu__var_desc(d, sizeof d, v),
                                      fmuc_md_fmt_double(b1, v->max),
                                      fmuc_mdu__var_type_name(md, v));
        }
        if (!(v->has & (FMUC_HAS_MIN | FMUC_HAS_MAX | FMUC_HAS_NOMINAL)))
            continue; /* nothing of its own: the type's values are checked with the type */
        fmuc_mdu_eff e;
        fmuc_mdu__effective(&e, v, fmuc_mdu__var_type(md, &types, v));
        if (e.has_min && e.has_max && e.min > e.max && (v->has & (FMUC_HAS_MIN | FMUC_HAS_MAX)))
            FMUC_MDU_VIOLATION_V1_WARN(md, res, "%s: min=\"%s\"%s > max=\"%s\"%s",
                                  fmuc_mdu__var_desc(d, sizeof d, v), fmuc_md_fmt_double(b1, e.min),
                                  (v->has & FMUC_HAS_MIN) ? "" : " (declaredType)",
                                  fmuc_md_fmt_double(b2, e.max),
                                  (v->has & FMUC_HAS_MAX) ? "" : " (declaredType)");
        if ((v->has & FMUC_HAS_NOMINAL) && v->nominal <= 0)
            FMUC_MDU_VIOLATION_V1_WARN(md, res, "%s: nominal=\"%s\" must be > 0",
                                  fmuc_mdu__var_desc(d, sizeof d, v),
                                  fmuc_md_fmt_double(b1, v->nominal));
    }
    fmuc_mdu__map_free(&types);
}

const fmuc_check fmuc_check_md_var_min_max = {
    .id = "md-var-min-max",
    .title = "variable min <= max and nominal > 0",
    .spec = "FMI 2.0.4 §2.2.7; FMI 3.0.2 §2.4.4; FMI 1.0 ME (fmiScalarVariable.xsd min/max/nominal; derived)",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers clip inputs, check parameter edits and scale solvers with min, max and "
           "nominal; min > max or nominal <= 0 makes every value invalid or breaks error control.",
    .fix = "Make each variable's effective min <= max, including bounds inherited from its "
           "declaredType, and give nominal a positive value near the variable's typical magnitude.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
