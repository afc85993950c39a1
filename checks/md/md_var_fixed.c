/* md-var-fixed: FMI 1.0's fixed attribute of a type element says whether the start value is the
 * value (true) or a guess for the initialisation (false); it is only relevant when start is
 * present (fmiScalarVariable.xsd; ../shared/fmi1-rules.md B-203, derived: a warning; FMI Library
 * reports fixed without start). fixed without start promises a value that is not there. */
#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    char d[FMUC_MDU_DESC_LEN];
    size_t nfixed = 0;
    for (size_t i = 0; i < md->nexts; i++) {
        const fmuc_md_var_ext *x = &md->exts[i];
        const fmuc_md_var *v = &md->vars[x->var];
        if (!x->fmi1_fixed)
            continue;
        nfixed++;
        if (!(v->has & FMUC_HAS_START))
            fmuc_result_violation(res, "%s: fixed=\"%s\" without a start value (line %u); fixed "
                                  "says whether start is the value or a guess",
                                  fmuc_mdu__var_desc(d, sizeof d, v),
                                  x->fmi1_fixed == 2 ? "true" : "false", (unsigned)v->type_line);
    }
    if (!nfixed)
        fmuc_result_na(res, "no variable has a fixed attribute");
}

const fmuc_check fmuc_check_md_var_fixed = {
    .id = "md-var-fixed",
    .title = "FMI 1.0: fixed is given only with a start value",
    .spec = "FMI 1.0 ME (fmiScalarVariable.xsd fixed; derived)",
    .level = FMUC_LEVEL_SHOULD,
    .why = "fixed tells a 1.0 importer whether to hold the start value during initialisation; "
           "without a start value there is nothing to hold, and importers disagree on what the "
           "attribute then means.",
    .fix = "Give the variable a start value where fixed matters, or drop the fixed attribute "
           "from type elements without start.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
