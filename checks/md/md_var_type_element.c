/* md-var-type-element: every ScalarVariable has exactly one type element (Real, Integer, Boolean,
 * String or Enumeration) (FMI 2.0.4 §2.2.7, fmi2ScalarVariable.xsd choice). */
#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    char d[FMUC_MDU_DESC_LEN];
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (v->has & FMUC_HAS_SEVERAL_TYPES)
            fmuc_result_violation(res, "%s: more than one type element; exactly one of Real, Integer, "
                                  "Boolean, String, Enumeration is allowed",
                                  fmuc_mdu__var_desc(d, sizeof d, v));
        else if (v->type == FMUC_TYPE_NONE)
            fmuc_result_violation(res, "%s: no type element (Real, Integer, Boolean, String or "
                                  "Enumeration)", fmuc_mdu__var_desc(d, sizeof d, v));
    }
}

const fmuc_check fmuc_check_md_var_type_element = {
    .id = "md-var-type-element",
    .title = "each variable has exactly one type element",
    .spec = "FMI 2.0.4 §2.2.7; FMI 1.0 ME (fmiScalarVariable.xsd choice)",
    .level = FMUC_LEVEL_MUST,
    .why = "Without exactly one type element, an importer cannot know whether to use fmi2GetReal, "
           "Integer, Boolean or String for a variable, so it reads garbage or rejects the FMU.",
    .fix = "Give every ScalarVariable exactly one child Real, Integer, Boolean, String or "
           "Enumeration element.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
