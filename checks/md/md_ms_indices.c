/* md-ms-indices: every ModelStructure Unknown@index and every dependencies entry is a valid
 * 1-based variable index 1..N (FMI 2.0.4 §2.2.8, catalogue B-401). */
#include "check.h"
#include "md_util.h"
#include "md_util.h"

/* FMI 3.0 §2.4.8: every element of ModelStructure (Output, ContinuousStateDerivative,
 * ClockedState, InitialUnknown, EventIndicator) names a variable by its valueReference, and so
 * does every item of its dependencies (uint32 values: the parser resolves them). */
static void run3(const fmuc_md *md, fmuc_result *res)
{
    char u_d[FMUC_MDU_UNK_LEN];
    for (size_t i = 0; i < md->nunknowns; i++) {
        const fmuc_md_unknown *u = &md->unknowns[i];
        fmuc_mdu__unknown_desc(u_d, sizeof u_d, md, NULL, u);
        if (u->index == 0 &&
            !fmuc_mdu__issue_at(md, FMUC_ISSUE_ATTR_SYNTAX, NULL, "valueReference", u->line) &&
            !fmuc_mdu__issue_at(md, FMUC_ISSUE_ATTR_MISSING, NULL, "valueReference", u->line))
            fmuc_result_violation(res, "%s: no variable has valueReference %u", u_d,
                                  (unsigned)u->value_reference);
        int syntax = -1;
        for (uint32_t k = 0; k < u->ndeps && u->deps && u->deps_vr; k++) {
            if (u->deps[k] != 0)
                continue;
            if (syntax < 0)
                syntax = fmuc_mdu__issue_at(md, FMUC_ISSUE_ATTR_SYNTAX, NULL, "dependencies",
                                            u->line);
            if (syntax == 1)
                continue; /* an unparsable item: md-attribute-syntax */
            fmuc_result_violation(res, "%s: dependencies item %u = %u is not the valueReference "
                                  "of any variable", u_d, k + 1, (unsigned)u->deps_vr[k]);
        }
    }
    if (!md->has_model_structure)
        fmuc_result_na(res, "no ModelStructure element");
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    size_t bad = 0;
    if (md->fmi == FMUC_FMI3) {
        run3(md, res);
        return;
    }
    for (int id = FMUC_MS_OUTPUTS; id <= FMUC_MS_INITIAL_UNKNOWNS; id++) {
        fmuc_ms_list l;
        fmuc_ms__list(&l, md, (fmuc_ms_list_id)id);
        for (size_t i = 0; i < l.n; i++) {
            const fmuc_md_unknown *u = &l.u[i];
            if (!fmuc_ms__valid_index(md, u->index)) {
                bad++;
                if (u->index == 0 &&
                    (fmuc_mdu__issue_at(md, FMUC_ISSUE_ATTR_SYNTAX, NULL, "index", u->line) ||
                     fmuc_mdu__issue_at(md, FMUC_ISSUE_ATTR_MISSING, NULL, "index", u->line)))
                    ; /* absent or unparsable: md-required-attributes / md-attribute-syntax */
                else if (u->index == 0)
                    fmuc_result_violation(res,
                                          "%s/Unknown (line %u): index is missing or not a valid "
                                          "variable index (1..%zu)",
                                          l.name, (unsigned)u->line, md->nvars);
                else
                    fmuc_result_violation(res,
                                          "%s/Unknown (line %u): index=\"%u\" is not a variable "
                                          "index (1..%zu)",
                                          l.name, (unsigned)u->line, (unsigned)u->index,
                                          md->nvars);
            }
            int syntax = -1; /* unknown yet */
            for (uint32_t k = 0; k < u->ndeps && u->deps; k++) {
                if (fmuc_ms__valid_index(md, u->deps[k]))
                    continue;
                bad++;
                if (u->deps[k] == 0 && syntax < 0)
                    syntax = fmuc_mdu__issue_at(md, FMUC_ISSUE_ATTR_SYNTAX, NULL, "dependencies",
                                                u->line);
                if (u->deps[k] == 0 && syntax == 1)
                    continue; /* an unparsable item: md-attribute-syntax */
                if (u->deps[k] == 0)
                    fmuc_result_violation(res,
                                          "%s/Unknown index=%u (line %u): dependencies entry %u "
                                          "is 0, not a variable index (1..%zu)",
                                          l.name, (unsigned)u->index, (unsigned)u->line, k + 1,
                                          md->nvars);
                else
                    fmuc_result_violation(res,
                                          "%s/Unknown index=%u (line %u): dependencies entry %u "
                                          "= %u is not a variable index (1..%zu)",
                                          l.name, (unsigned)u->index, (unsigned)u->line, k + 1,
                                          (unsigned)u->deps[k], md->nvars);
            }
        }
    }
    if (!md->has_model_structure && !bad)
        fmuc_result_na(res, "no ModelStructure element");
}

const fmuc_check fmuc_check_md_ms_indices = {
    .id = "md-ms-indices",
    .title = "ModelStructure indices (FMI 3.0: valueReferences) and dependencies name existing "
             "variables",
    .spec = "FMI 2.0.4 §2.2.8; FMI 3.0.2 §2.4.8",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers index their variable arrays with these numbers; an index of 0 or beyond the "
           "number of variables makes them reject the FMU or read past the end of a table.",
    .fix = "Write every Unknown index and dependency as the 1-based position of an existing "
           "ScalarVariable in ModelVariables, and regenerate them after adding or removing "
           "variables.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
