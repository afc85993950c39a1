/* md-var-initial: an explicit `initial` is one the causality x variability cell allows: constant
 * outputs/locals and fixed/tunable parameters only "exact"; calculatedParameters and fixed/tunable
 * locals "approx" or "calculated"; discrete/continuous outputs and locals any; inputs and the
 * independent variable none at all (FMI 2.0.4 §2.2.7, B-205, B-206). FMI 3.0 (§2.4.7.5, B-209,
 * G-07): inputs may state initial="exact"; structural parameters are exact. Invalid cells:
 * md-var-causality-variability. */
#include "check.h"
#include "md_util.h"

static const char *allowed(const fmuc_md *md, unsigned c, unsigned v)
{
    if (md->fmi == FMUC_FMI3 && c == FMUC_CAUS_INPUT)
        return "only \"exact\" is allowed (FMI 3.0)";
    switch (fmuc_mdu__initial_default(c, v)) {
    case FMUC_INIT_EXACT:
        return "only \"exact\" is allowed";
    case FMUC_INIT_CALCULATED:
        return (c == FMUC_CAUS_OUTPUT || c == FMUC_CAUS_LOCAL) && v >= FMUC_VAR_DISCRETE
                   ? "\"exact\", \"approx\" or \"calculated\" are allowed"
                   : "only \"approx\" or \"calculated\" are allowed";
    default:
        return "initial must not be given";
    }
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    char d[FMUC_MDU_DESC_LEN];
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (v->initial == FMUC_INIT_NONE || v->initial >= FMUC_INIT_INVALID ||
            !fmuc_mdu__cell_valid(v->causality, v->variability) ||
            fmuc_mdu__initial_allowed_md(md, v))
            continue;
        fmuc_result_violation(res, "%s: initial=\"%s\" is not allowed for causality=\"%s\", "
                              "variability=\"%s\": %s", fmuc_mdu__var_desc(d, sizeof d, v),
                              fmuc_mdu__initial_name(v->initial),
                              fmuc_mdu__causality_name(v->causality),
                              fmuc_mdu__variability_name(v->variability),
                              allowed(md, v->causality, v->variability));
    }
}

const fmuc_check fmuc_check_md_var_initial = {
    .id = "md-var-initial",
    .title = "initial is allowed for the variable's causality and variability",
    .spec = "FMI 2.0.4 §2.2.7; FMI 3.0.2 §2.4.7.5",
    .level = FMUC_LEVEL_MUST,
    .why = "The initial attribute tells an importer whether a start value is used or computed; an "
           "initial the causality and variability forbid leaves initialisation undefined.",
    .fix = "Use only an initial value the §2.2.7 table allows (e.g. exact for parameters, none "
           "for inputs) or omit it to get the default.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
