/* md-var-start-forbidden: no start value when the (explicit or default) initial is "calculated",
 * nor on the independent variable (FMI 2.0.4 §2.2.7, B-208, B-209; G-07, G-10). Outputs, locals
 * and calculatedParameters default to "calculated": a start there needs initial="exact" or
 * "approx". */
#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    char d[FMUC_MDU_DESC_LEN];
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (!(v->has & FMUC_HAS_START) || !fmuc_mdu__initial_allowed_md(md, v))
            continue;
        if (v->causality == FMUC_CAUS_INDEPENDENT)
            fmuc_result_violation(res, "%s: the independent variable must not have a start value "
                                  "(start=\"%.100s\")", fmuc_mdu__var_desc(d, sizeof d, v),
                                  fmuc_mdu__str(v->start_text));
        else if (fmuc_mdu__var_initial(v) == FMUC_INIT_CALCULATED)
            fmuc_result_violation(res, "%s: start=\"%.100s\" given although initial is "
                                  "\"calculated\"%s (causality=\"%s\", variability=\"%s\"); add "
                                  "initial=\"exact\" or \"approx\", or drop start",
                                  fmuc_mdu__var_desc(d, sizeof d, v), fmuc_mdu__str(v->start_text),
                                  v->initial == FMUC_INIT_NONE ? " (default)" : "",
                                  fmuc_mdu__causality_name(v->causality),
                                  fmuc_mdu__variability_name(v->variability));
    }
}

const fmuc_check fmuc_check_md_var_start_forbidden = {
    .id = "md-var-start-forbidden",
    .title = "no start where initial is calculated or on the independent variable",
    .spec = "FMI 2.0.4 §2.2.7; FMI 3.0.2 §2.4.7.5",
    .level = FMUC_LEVEL_MUST,
    .why = "A start value where initial is calculated (or on time) is not used by the FMU, yet "
           "importers show and let users edit it; their edits silently have no effect.",
    .fix = "Remove start from variables whose initial is calculated and from the independent "
           "variable, or set initial=\"exact\" or \"approx\" if the start value is really used.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
