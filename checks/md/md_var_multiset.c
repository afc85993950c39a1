/* md-var-multiset: canHandleMultipleSetPerTimeInstant is a Model Exchange attribute of inputs
 * (the spec's "variability = input" means causality): only on causality="input", and absent in a
 * Co-Simulation-only FMU (FMI 2.0.4 §2.2.7, B-217; VDM validMultipleSets). */
#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    char d[FMUC_MDU_DESC_LEN];
    int cs_only = (md->cs.present || md->se.present) && !md->me.present;
    size_t n = 0;
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (!(v->has & FMUC_HAS_MULTISET))
            continue;
        n++;
        const char *val = (v->flags & FMUC_FLAG_MULTISET) ? "true" : "false";
        if (cs_only && md->fmi == FMUC_FMI3)
            /* FMI 3.0 §2.4.7.4: the "Model Exchange only" part is VDMCheck's (T) */
            fmuc_result_warn(res, "%s: canHandleMultipleSetPerTimeInstant=\"%s\" in an FMU "
                             "without ModelExchange, where it has no use",
                             fmuc_mdu__var_desc(d, sizeof d, v), val);
        else if (cs_only)
            fmuc_result_violation(res, "%s: canHandleMultipleSetPerTimeInstant=\"%s\" in a "
                                  "Co-Simulation-only FMU (Model Exchange only)",
                                  fmuc_mdu__var_desc(d, sizeof d, v), val);
        else if (v->causality != FMUC_CAUS_INPUT)
            fmuc_result_violation(res, "%s: canHandleMultipleSetPerTimeInstant=\"%s\" on a variable "
                                  "with causality=\"%s\"; only inputs may have it",
                                  fmuc_mdu__var_desc(d, sizeof d, v), val,
                                  fmuc_mdu__causality_name(v->causality));
    }
    if (!n)
        fmuc_result_na(res, "no variable has canHandleMultipleSetPerTimeInstant");
}

const fmuc_check fmuc_check_md_var_multiset = {
    .id = "md-var-multiset",
    .title = "canHandleMultipleSetPerTimeInstant only on Model Exchange inputs",
    .spec = "FMI 2.0.4 §2.2.7; FMI 3.0.2 §2.4.7.4",
    .level = FMUC_LEVEL_MUST,
    .why = "canHandleMultipleSetPerTimeInstant only has a meaning for Model Exchange inputs; on "
           "other variables or in a Co-Simulation-only FMU it is undefined and tools may reject "
           "it.",
    .fix = "Put canHandleMultipleSetPerTimeInstant only on causality=\"input\" variables of an "
           "FMU that declares ModelExchange, and remove it elsewhere.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
