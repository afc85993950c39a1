/* md-var-variability-type: only Real variables may be continuous; since variability defaults to
 * "continuous", every Integer, Boolean, String and Enumeration variable must state another
 * variability (FMI 2.0.4 §2.2.7, B-204; 2.0.5 note; G-08). */
#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    char d[FMUC_MDU_DESC_LEN];
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (v->type == FMUC_TYPE_NONE || v->type == FMUC_TYPE_REAL ||
            v->variability != FMUC_VAR_CONTINUOUS)
            continue;
        fmuc_result_violation(res, "%s: %s variable is continuous%s; only Real variables may be "
                              "continuous", fmuc_mdu__var_desc(d, sizeof d, v),
                              fmuc_mdu__type_name(v->type),
                              (v->has & FMUC_HAS_VARIABILITY)
                                  ? ""
                                  : " (variability absent, default \"continuous\")");
    }
}

const fmuc_check fmuc_check_md_var_variability_type = {
    .id = "md-var-variability-type",
    .title = "only Real variables are continuous",
    .spec = "FMI 2.0.4 §2.2.7; FMI 3.0.2 §2.4.7.4; FMI 1.0 ME (ModelVariables: only Real is continuous)",
    .level = FMUC_LEVEL_MUST,
    .why = "Only Real variables may change continuously; an Integer or Boolean left on the "
           "default continuous variability makes importers treat a discrete value as continuous.",
    .fix = "State variability=\"discrete\" (or fixed/tunable/constant) explicitly on every "
           "Integer, Boolean, String and Enumeration variable.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
