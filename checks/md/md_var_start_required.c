/* md-var-start-required: a start value is given when the (explicit or default) initial is "exact"
 * or "approx", and for every input (this covers every parameter and constant) (FMI 2.0.4 §2.2.7,
 * B-207; G-07). Variables whose causality/variability/initial are inconsistent are left to
 * md-var-causality-variability and md-var-initial. FMI 3.0 (§2.4.7.5, B-207): String and Binary
 * take their start from <Start> children; Clocks have none. */
#include "check.h"
#include "md_util.h"

/* FMI 1.0 has no initial attribute: an input needs a start value (the FMU has no other value
 * before the first set; FMI Library rejects such an FMU), and so does a constant, whose value
 * it is (fmi1-rules B-204, derived/tool rules: warnings). */
static void run_fmi1(const fmuc_md *md, fmuc_result *res)
{
    char d[FMUC_MDU_DESC_LEN];
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if ((v->has & FMUC_HAS_START) || v->type == FMUC_TYPE_NONE)
            continue;
        if (v->causality == FMUC_CAUS_INPUT)
            fmuc_result_warn(res, "%s: input without start value (FMI 1.0: the value an importer "
                             "sees before it sets one)", fmuc_mdu__var_desc(d, sizeof d, v));
        else if (v->variability == FMUC_VAR_CONSTANT)
            fmuc_result_warn(res, "%s: constant without start value (FMI 1.0: start is the "
                             "constant's value)", fmuc_mdu__var_desc(d, sizeof d, v));
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
        /* FMI 3.0 §2.4.7.5: Clocks have no start value */
        if ((v->has & FMUC_HAS_START) || v->type == FMUC_TYPE_NONE ||
            v->type == FMUC_TYPE_CLOCK || !fmuc_mdu__initial_allowed_md(md, v))
            continue;
        fmuc_initial ini = fmuc_mdu__var_initial(v);
        if (v->causality == FMUC_CAUS_INPUT)
            fmuc_result_violation(res, "%s: input without start value",
                                  fmuc_mdu__var_desc(d, sizeof d, v));
        else if (ini == FMUC_INIT_EXACT || ini == FMUC_INIT_APPROX)
            fmuc_result_violation(res, "%s: no start value although initial=\"%s\"%s "
                                  "(causality=\"%s\", variability=\"%s\")",
                                  fmuc_mdu__var_desc(d, sizeof d, v), fmuc_mdu__initial_name(ini),
                                  v->initial == FMUC_INIT_NONE ? " (default)" : "",
                                  fmuc_mdu__causality_name(v->causality),
                                  fmuc_mdu__variability_name(v->variability));
    }
}

const fmuc_check fmuc_check_md_var_start_required = {
    .id = "md-var-start-required",
    .title = "start given where initial is exact/approx and for inputs",
    .spec = "FMI 2.0.4 §2.2.7; FMI 3.0.2 §2.4.7.5; FMI 1.0 ME (fmiScalarVariable.xsd start; derived)",
    .level = FMUC_LEVEL_MUST,
    .why = "Without a start value, an importer has nothing to set for a parameter, input or "
           "initial=exact variable, so initialisation uses an undefined value or the FMU is "
           "rejected.",
    .fix = "Give a start value to every input, parameter, constant and every variable with "
           "initial \"exact\" or \"approx\".",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
