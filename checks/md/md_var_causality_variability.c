/* md-var-causality-variability: causality x variability is one of the 15 valid combinations of
 * the §2.2.7 table (FMI 2.0.4 §2.2.7, B-205/B.6; G-09); FMI 3.0 (§2.4.7.4, fmi3-rules B.6) adds
 * the column structuralParameter (fixed or tunable, cells 16, 17) and its own defaults
 * (variability fixed for parameters, discrete for non-Float types: the parser applies them). Unknown attribute values are
 * md-attribute-syntax'. */
#include "check.h"
#include "md_util.h"

static const char *reason(unsigned c, unsigned v)
{
    if (c == FMUC_CAUS_INDEPENDENT)
        return "(c) the independent variable must be continuous";
    if (v == FMUC_VAR_CONSTANT)
        return "(a) parameters and inputs get their value from outside, a constant has a fixed one";
    if (v == FMUC_VAR_DISCRETE || v == FMUC_VAR_CONTINUOUS)
        return "(b) parameters are time-invariant, discrete/continuous variables vary in time";
    if (c == FMUC_CAUS_INPUT)
        return "(d) a fixed/tunable input is a parameter: use causality=\"parameter\"";
    return "(e) a fixed/tunable output is a calculated parameter: use "
           "causality=\"calculatedParameter\"";
}

/* FMI 1.0 has four causalities and four variabilities and no table of valid pairs; only an
 * input that is a constant contradicts itself (fmi1-rules B-205, derived: a warning). An input
 * parameter and an output parameter are 1.0 usage (20-sim, fmiCppCore). */
static void run_fmi1(const fmuc_md *md, fmuc_result *res)
{
    char d[FMUC_MDU_DESC_LEN];
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (v->causality == FMUC_CAUS_INPUT && v->variability == FMUC_VAR_CONSTANT)
            fmuc_result_warn(res, "%s: causality=\"input\" with variability=\"constant\": an "
                             "input gets its value from outside, a constant never changes",
                             fmuc_mdu__var_desc(d, sizeof d, v));
    }
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    char d[FMUC_MDU_DESC_LEN];
    if (md->fmi == FMUC_FMI1) {
        run_fmi1(md, res);
        return;
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if ((v->causality >= FMUC_CAUS_INVALID &&
             v->causality != FMUC_CAUS_STRUCTURAL_PARAMETER) ||
            v->variability >= FMUC_VAR_INVALID ||
            fmuc_mdu__cell_valid(v->causality, v->variability))
            continue;
        fmuc_result_violation(res, "%s: causality=\"%s\"%s with variability=\"%s\"%s is not allowed: "
                              "%s", fmuc_mdu__var_desc(d, sizeof d, v),
                              fmuc_mdu__causality_name(v->causality),
                              (v->has & FMUC_HAS_CAUSALITY) ? "" : " (default)",
                              fmuc_mdu__variability_name(v->variability),
                              (v->has & FMUC_HAS_VARIABILITY) ? "" : " (default)",
                              reason(v->causality, v->variability));
    }
}

const fmuc_check fmuc_check_md_var_causality_variability = {
    .id = "md-var-causality-variability",
    .title = "causality and variability form a valid combination",
    .spec = "FMI 2.0.4 §2.2.7; FMI 3.0.2 §2.4.7.4; FMI 1.0 ME (fmiScalarVariable.xsd causality, variability; derived)",
    .level = FMUC_LEVEL_MUST,
    .why = "The causality x variability pair tells an importer when a variable may be set and how "
           "it changes; an invalid pair (e.g. a constant input) has no defined handling at all.",
    .fix = "Pick one of the 15 valid combinations of the §2.2.7 table, e.g. make an input "
           "discrete or continuous and an unchanging value a parameter or constant.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
