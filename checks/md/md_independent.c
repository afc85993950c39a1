/* md-independent: at most one variable has causality="independent", and it is a Real
 * (FMI 2.0.4 §2.2.7, B-209; VDM validIndependentVariable). Its variability: 
 * md-var-causality-variability; its start/initial: md-var-start-forbidden / md-var-initial. */
#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    char d[FMUC_MDU_DESC_LEN];
    const fmuc_md_var *first = NULL;
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (v->causality != FMUC_CAUS_INDEPENDENT)
            continue;
        if (v->type != FMUC_TYPE_REAL && v->type != FMUC_TYPE_NONE)
            fmuc_result_violation(res, "%s: the independent variable is a %s; it must be a %s",
                                  fmuc_mdu__var_desc(d, sizeof d, v), fmuc_mdu__var_type_name(md, v),
                                  md->fmi == FMUC_FMI3 ? "Float32 or Float64" : "Real");
        if (first)
            fmuc_result_violation(res, "%s: a second independent variable (the first is at line %u); "
                                  "at most one is allowed", fmuc_mdu__var_desc(d, sizeof d, v),
                                  (unsigned)first->line);
        else
            first = v;
    }
    if (!first && md->fmi == FMUC_FMI3)
        /* FMI 3.0 §2.4.7.4: "exactly one" variable is the independent one (B-212) */
        fmuc_result_violation(res, "line %u: no variable has causality=\"independent\"; an FMI "
                              "3.0 FMU declares exactly one (e.g. <Float64 name=\"time\" "
                              "causality=\"independent\" .../>)", (unsigned)md->root_line);
    else if (!first)
        fmuc_result_na(res, "no independent variable declared (implicit time)");
}

const fmuc_check fmuc_check_md_independent = {
    .id = "md-independent",
    .title = "at most one independent variable (FMI 3.0: exactly one), and it is a Real",
    .spec = "FMI 2.0.4 §2.2.7; FMI 3.0.2 §2.4.7.4",
    .level = FMUC_LEVEL_MUST,
    .why = "The independent variable is the model's time; with several, or one that is not a "
           "Real, an importer cannot tell which to plot against or relate to fmi2SetTime.",
    .fix = "Declare at most one variable with causality=\"independent\", as a Real (usually named "
           "time) without start or initial.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
