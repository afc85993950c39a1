/* md-direct-dependency: FMI 1.0 <DirectDependency> lists, by <Name>, the inputs an output
 * depends on directly (fmiScalarVariable.xsd; ../shared/fmi1-rules.md B-208, B-209): absent,
 * the output depends on every input; empty, on none. Each Name must be the name of an input
 * variable (M; FMI Library checks it): a misspelt name or a non-input makes an importer build
 * a wrong dependency graph (algebraic loops it misses or breaks). The element belongs to
 * outputs; on another variable it means nothing and importers ignore it (a warning). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "md_util.h"

/* the FMI 1.0 name of a causality (internal parameters map to PARAMETER) */
static const char *causality1_name(unsigned c)
{
    return c == FMUC_CAUS_INPUT ? "input" : c == FMUC_CAUS_OUTPUT ? "output"
           : c == FMUC_CAUS_NONE ? "none" : "internal";
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    fmuc_mdu_map names = {0};
    char d[FMUC_MDU_DESC_LEN];
    size_t ndd = 0;
    for (size_t i = 0; i < md->nexts; i++)
        ndd += md->exts[i].has_direct_dependency != 0;
    if (!ndd) {
        fmuc_result_na(res, "no DirectDependency element");
        return;
    }
    if (fmuc_mdu__map_init(&names, md->nvars) < 0)
        goto oom;
    for (size_t i = 0; i < md->nvars; i++)
        if (md->vars[i].name && fmuc_mdu__map_put(&names, md->vars[i].name, i, NULL) < 0)
            goto oom;
    for (size_t i = 0; i < md->nexts; i++) {
        const fmuc_md_var_ext *x = &md->exts[i];
        const fmuc_md_var *v = &md->vars[x->var];
        if (!x->has_direct_dependency)
            continue;
        fmuc_mdu__var_desc(d, sizeof d, v);
        if (v->causality != FMUC_CAUS_OUTPUT)
            fmuc_result_warn(res, "%s: <DirectDependency> on a variable with causality=\"%s\"; "
                             "it describes outputs only and is ignored here", d,
                             causality1_name(v->causality));
        for (uint32_t k = 0; k < x->ndirect; k++) {
            const char *n = x->direct[k];
            size_t j;
            if (!n || !*n) {
                fmuc_result_violation(res, "%s: <DirectDependency> has an empty <Name>", d);
                continue;
            }
            if (!fmuc_mdu__map_get(&names, n, &j)) {
                fmuc_result_violation(res, "%s: <DirectDependency> names \"%.200s\", which is no "
                                      "variable of the model", d, n);
                continue;
            }
            const fmuc_md_var *in = &md->vars[j];
            if (in->causality != FMUC_CAUS_INPUT)
                fmuc_result_violation(res, "%s: <DirectDependency> names '%.200s' (vr %u, line "
                                      "%u), which is not an input", d, n,
                                      (unsigned)in->value_reference, (unsigned)in->line);
        }
    }
    goto out;
oom:
    fmuc_result_error(res, "out of memory");
out:
    fmuc_mdu__map_free(&names);
}

const fmuc_check fmuc_check_md_direct_dependency = {
    .id = "md-direct-dependency",
    .title = "FMI 1.0: DirectDependency names inputs, on outputs",
    .spec = "FMI 1.0 ME (fmiScalarVariable.xsd DirectDependency)",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers order the evaluation of connected FMUs by the direct dependencies of "
           "outputs on inputs; a Name that is no input makes them miss or invent an algebraic "
           "loop.",
    .fix = "List in each output's DirectDependency only the exact names of input variables it "
           "depends on directly, and put DirectDependency on outputs only.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
