/* md-var-intermediate-update: FMI 3.0 intermediateUpdate="true" marks a continuous-time
 * variable the importer may access in Intermediate Update Mode: only Float32/Float64 variables
 * of variability continuous carry it (FMI 3.0.2 §2.4.7.4; fmi3-rules B-221, since 3.0.1). On a
 * Clock: md-clocks. The attribute means nothing to ME and SE but is still declared on the
 * variable, so the rule holds for every FMU. */
#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    char d[FMUC_MDU_DESC_LEN];
    size_t n = 0;
    for (size_t i = 0; i < md->nexts; i++) {
        const fmuc_md_var_ext *x = &md->exts[i];
        const fmuc_md_var *v = &md->vars[x->var];
        if (!x->has_intermediate_update || !x->intermediate_update || v->base == FMUC_BT_CLOCK)
            continue;
        n++;
        if (v->type != FMUC_TYPE_REAL || v->variability != FMUC_VAR_CONTINUOUS)
            fmuc_result_violation(res, "%s: intermediateUpdate=\"true\" on a %s with "
                                  "variability=\"%s\"; only continuous-time (continuous Float) "
                                  "variables are accessible in Intermediate Update Mode",
                                  fmuc_mdu__var_desc(d, sizeof d, v),
                                  fmuc_mdu__var_type_name(md, v),
                                  fmuc_mdu__variability_name(v->variability));
    }
    if (!n)
        fmuc_result_na(res, "no variable has intermediateUpdate=\"true\"");
}

const fmuc_check fmuc_check_md_var_intermediate_update = {
    .id = "md-var-intermediate-update",
    .title = "FMI 3.0: intermediateUpdate only on continuous-time variables",
    .spec = "FMI 3.0.2 §2.4.7.4",
    .level = FMUC_LEVEL_MUST,
    .why = "A co-simulation master reads and sets variables marked intermediateUpdate inside the "
           "intermediate update callback; a discrete or non-Float one changes only at events, so "
           "the values it exchanges there are stale or inconsistent.",
    .fix = "Set intermediateUpdate=\"true\" only on continuous Float32/Float64 variables (inputs, "
           "outputs or locals of variability continuous) and remove it elsewhere.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
