/* md-var-names: every ScalarVariable name is non-empty and unique in ModelVariables
 * (FMI 2.0.4 §2.2.7, §2.2.9, B-201). A missing name is md-required-attributes'. */
#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    fmuc_mdu_nameset m;
    char d[FMUC_MDU_DESC_LEN];
    if (fmuc_mdu__nameset_init(&m, md) < 0) {
        fmuc_result_error(res, "out of memory");
        return;
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        size_t first;
        if (!v->name)
            continue;
        if (!*v->name) {
            fmuc_result_violation(res, "%s: name is empty", fmuc_mdu__var_desc(d, sizeof d, v));
            continue;
        }
        int r = fmuc_mdu__nameset_put(&m, i, &first);
        if (r < 0) {
            fmuc_result_error(res, "out of memory");
            break;
        }
        if (r == 0)
            fmuc_result_violation(res, "%s: name already used by the variable at line %u",
                                  fmuc_mdu__var_desc(d, sizeof d, v), (unsigned)md->vars[first].line);
    }
    fmuc_mdu__nameset_free(&m);
}

const fmuc_check fmuc_check_md_var_names = {
    .id = "md-var-names",
    .title = "variable names are non-empty and unique",
    .spec = "FMI 2.0.4 §2.2.7; FMI 1.0 ME p.34 (ModelVariables: unique names)",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers, connections and result files address variables by name; an empty or "
           "repeated name makes two variables indistinguishable, so one is connected or plotted "
           "instead of the other.",
    .fix = "Give every ScalarVariable a non-empty name that is unique within ModelVariables.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
