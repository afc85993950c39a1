/* md-var-names: every ScalarVariable name is non-empty and unique in ModelVariables
 * (FMI 2.0.4 §2.2.7, §2.2.9, B-201). A missing name is md-required-attributes'. */
#include "check.h"
#include "md_util.h"

/* FMI 3.0 §2.4.7.3: Alias names are non-empty and unique among the variables' and the other
 * aliases' names. Built only when the document has aliases. */
static void aliases(const fmuc_md *md, fmuc_result *res)
{
    size_t n = 0;
    for (size_t i = 0; i < md->nexts; i++)
        n += md->exts[i].naliases;
    if (!n)
        return;
    fmuc_mdu_map vars = {0}, names = {0};
    char d[FMUC_MDU_DESC_LEN];
    if (fmuc_mdu__map_init(&vars, md->nvars) < 0 || fmuc_mdu__map_init(&names, n) < 0)
        goto oom;
    for (size_t i = 0; i < md->nvars; i++)
        if (md->vars[i].name && fmuc_mdu__map_put(&vars, md->vars[i].name, i, NULL) < 0)
            goto oom;
    for (size_t i = 0; i < md->nexts; i++) {
        const fmuc_md_var_ext *x = &md->exts[i];
        const fmuc_md_var *v = &md->vars[x->var];
        for (uint32_t k = 0; k < x->naliases; k++) {
            const fmuc_md_alias *a = &x->aliases[k];
            size_t other;
            if (!a->name)
                continue; /* md-required-attributes */
            fmuc_mdu__var_desc(d, sizeof d, v);
            if (!*a->name) {
                fmuc_result_violation(res, "%s: Alias (line %u): name is empty", d,
                                      (unsigned)a->line);
                continue;
            }
            if (fmuc_mdu__map_get(&vars, a->name, &other)) {
                fmuc_result_violation(res, "%s: Alias name=\"%.200s\" (line %u) is the name of the "
                                      "variable at line %u", d, a->name, (unsigned)a->line,
                                      (unsigned)md->vars[other].line);
                continue;
            }
            int r = fmuc_mdu__map_put(&names, a->name, a->line, &other);
            if (r < 0)
                goto oom;
            if (r == 0)
                fmuc_result_violation(res, "%s: Alias name=\"%.200s\" (line %u) is already the "
                                      "name of the Alias at line %zu", d, a->name,
                                      (unsigned)a->line, other);
        }
    }
    goto out;
oom:
    fmuc_result_error(res, "out of memory");
out:
    fmuc_mdu__map_free(&vars);
    fmuc_mdu__map_free(&names);
}

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
    aliases(md, res);
}

const fmuc_check fmuc_check_md_var_names = {
    .id = "md-var-names",
    .title = "variable names are non-empty and unique",
    .spec = "FMI 2.0.4 §2.2.7; FMI 3.0.2 §2.4.7, §2.4.7.3; FMI 1.0 ME p.34 (ModelVariables: unique names)",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers, connections and result files address variables by name; an empty or "
           "repeated name makes two variables indistinguishable, so one is connected or plotted "
           "instead of the other.",
    .fix = "Give every ScalarVariable a non-empty name that is unique within ModelVariables.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
