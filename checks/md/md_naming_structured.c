/* md-naming-structured: with variableNamingConvention="structured" every variable name matches
 * the EBNF of FMI 2.0.4 §2.2.9 (identifiers with '.' hierarchy, [i,j] array indices, 'quoted'
 * names with escapes, der(name[,order])) (catalogue B.9). With "flat" (the default) any
 * normalizedString is a name: CR/LF/TAB are md-normalized-strings', empty and duplicate names
 * md-var-names'. FMI 3.0 (§2.4.7.5.1): Alias names and type names follow the convention too. */
#include <string.h>

#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    const char *conv = md->variable_naming_convention;
    int structured = conv && strcmp(conv, "structured") == 0;
    size_t bad = 0;
    if (!structured) {
        fmuc_result_na(res, "variableNamingConvention is \"flat\": any normalizedString is a name");
        return;
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (!v->name || !v->name[0])
            continue;
        size_t where = 0;
        if (fmuc_ms__structured_name(v->name, &where))
            continue;
        bad++;
        FMUC_MDU_VIOLATION_V1_WARN(md, res, FMUC_MS_VAR ": name is not a structured name (FMI 2.0 "
                              "§2.2.9 EBNF): unexpected %s at offset %zu",
                              FMUC_MS_VAR_ARGS(v), v->name[where] ? "character" : "end of name",
                              where);
    }
    /* FMI 3.0 §2.4.7.5.1: the convention governs Alias names and type names too */
    for (size_t i = 0; md->fmi == FMUC_FMI3 && i < md->nexts; i++) {
        const fmuc_md_var_ext *x = &md->exts[i];
        for (uint32_t k = 0; k < x->naliases; k++) {
            const char *an = x->aliases[k].name;
            size_t where = 0;
            if (!an || !an[0] || fmuc_ms__structured_name(an, &where))
                continue;
            bad++;
            fmuc_result_violation(res, FMUC_MS_VAR ": Alias name '%.200s' (line %u) is not a "
                                  "structured name: unexpected %s at offset %zu",
                                  FMUC_MS_VAR_ARGS(&md->vars[x->var]), an,
                                  (unsigned)x->aliases[k].line,
                                  an[where] ? "character" : "end of name", where);
        }
    }
    for (size_t i = 0; md->fmi == FMUC_FMI3 && i < md->ntypes; i++) {
        const fmuc_md_type *t = &md->types[i];
        size_t where = 0;
        if (!t->name || !t->name[0] || fmuc_ms__structured_name(t->name, &where))
            continue;
        bad++;
        fmuc_result_violation(res, "line %u: type name '%.200s' is not a structured name: "
                              "unexpected %s at offset %zu", (unsigned)t->line, t->name,
                              t->name[where] ? "character" : "end of name", where);
    }
    cJSON *ev = fmuc_result_evidence(res);
    if (ev) {
        cJSON_AddNumberToObject(ev, "bad_names", (double)bad);
    }
}

const fmuc_check fmuc_check_md_naming_structured = {
    .id = "md-naming-structured",
    .title = "Variable names follow the declared variableNamingConvention",
    .spec = "FMI 2.0.4 §2.2.9; FMI 3.0.2 §2.4.7.5.1; FMI 1.0 ME (variableNamingConvention structured; FMPy applies the 2.0 grammar)",
    .level = FMUC_LEVEL_MUST,
    .why = "With variableNamingConvention=\"structured\", importers parse names into hierarchies "
           "and arrays; a name that breaks the grammar is mis-split or rejected.",
    .fix = "Quote names containing special characters ('a b'), use [i,j] for array indices and "
           "der() for derivatives, or declare variableNamingConvention=\"flat\".",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
