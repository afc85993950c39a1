/* md-ms-dependencies: the dependencies attribute of every ModelStructure Unknown (FMI 2.0.4 §2.2.8,
 * catalogue B-406, B-407, B-408): indices sorted ascending without duplicates; only allowed knowns:
 * for Outputs and Derivatives the inputs, the continuous-time states and the independent variable;
 * for InitialUnknowns the inputs, the variables with initial="exact" and the independent variable.
 * In Co-Simulation the same knowns hold "at communication points" (§2.2.8, and the XSD's
 * fmi2VariableDependency: "The Knowns are inputs, continuous states and independent variable"),
 * also without providesDirectionalDerivative: then the Derivatives list is ignored (not judged
 * here), but "the model still has continuous-time states" (§2.2.8 on Derivatives), so an output
 * of such an FMU may list a state; the catalogue's B-408, which forbids it, is in no 2.0.4 text
 * (red-team round 6: JModelica's LinearCoSimulation sub-systems failed on it). FMI 3.0 keeps it
 * as a warning (B-412, derived). Out-of-range entries are md-ms-indices'. FMI 3.0 (§2.4.8,
 * B-406, B-407): no ordering rule; the knowns of Output and
 * ContinuousStateDerivative add parameters and discrete states; entries name valueReferences. */
#include "check.h"
#include "md_util.h"

/* an entry for messages: "<list>/Unknown index=3 (line 40)" (FMI 2.0),
 * "<Output valueReference=\"5\"> (line 40)" (FMI 3.0); a dependency by its index (FMI 2.0) or
 * valueReference (FMI 3.0) */
#define UD(u) fmuc_mdu__unknown_desc(u_d, sizeof u_d, md, l.name, (u))
#define DEP(u, k) (md->fmi == FMUC_FMI3 && (u)->deps_vr ? (u)->deps_vr[k] : (u)->deps[k])

static const char *why_not_known(const fmuc_md *md, const fmuc_ms_roles *roles,
                                 fmuc_ms_list_id list, uint32_t j)
{
    const fmuc_md_var *w = &md->vars[j - 1];
    if (w->causality == FMUC_CAUS_INPUT || w->causality == FMUC_CAUS_INDEPENDENT)
        return NULL;
    if (list == FMUC_MS_INITIAL_UNKNOWNS) {
        if (fmuc_md_effective_initial(w) == FMUC_INIT_EXACT)
            return NULL;
        return "InitialUnknowns may depend only on inputs, variables with initial=\"exact\" "
               "and the independent variable";
    }
    if (roles->role[j] & FMUC_MS_STATE)
        return NULL;
    /* FMI 3.0 §2.4.8 (B-407): knowns of Output and ContinuousStateDerivative also are the
     * parameters and the discrete states (discrete locals, whose list is ClockedState or, in
     * Model Exchange, implicit) */
    if (md->fmi == FMUC_FMI3 &&
        (w->causality == FMUC_CAUS_PARAMETER || w->causality == FMUC_CAUS_STRUCTURAL_PARAMETER ||
         (w->causality == FMUC_CAUS_LOCAL && w->variability == FMUC_VAR_DISCRETE)))
        return NULL;
    if (md->fmi == FMUC_FMI3)
        return "Output and ContinuousStateDerivative may depend only on inputs, continuous-time "
               "and discrete states, parameters and the independent variable";
    return "Outputs and Derivatives may depend only on inputs, continuous-time states and the "
           "independent variable";
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    char u_d[FMUC_MDU_UNK_LEN];
    const fmuc_md *md = &s->fmu->md;
    fmuc_ms_roles roles = {0};
    size_t nchecked = 0;
    int cs_no_dd = md->fmi == FMUC_FMI3 && md->cs.present && !md->me.present &&
                   !(md->cs.caps & (1u << FMUC_CAP_PROVIDES_DIRECTIONAL_DERIVATIVE));
    if (fmuc_ms__roles(&roles, md) < 0) {
        fmuc_result_error(res, "out of memory");
        return;
    }
    for (int id = FMUC_MS_OUTPUTS; id <= FMUC_MS_INITIAL_UNKNOWNS; id++) {
        fmuc_ms_list l;
        fmuc_ms__list(&l, md, (fmuc_ms_list_id)id);
        if (id == FMUC_MS_DERIVATIVES && fmuc_ms__derivatives_ignored(md))
            continue; /* §2.2.8: ignored for CS without providesDirectionalDerivative */
        for (size_t i = 0; i < l.n; i++) {
            const fmuc_md_unknown *u = &l.u[i];
            if (!u->has_deps || !u->deps)
                continue;
            nchecked++;
            uint32_t prev = 0;
            for (uint32_t k = 0; k < u->ndeps; k++) {
                uint32_t j = u->deps[k];
                if (j == 0)
                    continue; /* unparsable: md-ms-indices */
                if (md->fmi == FMUC_FMI3)
                    ; /* FMI 3.0 has no ordering rule (duplicates: md-ms-indices' order aside) */
                else if (prev && j == prev)
                    fmuc_result_violation(res, "%s: dependencies "
                                          "lists %u twice", UD(u), (unsigned)DEP(u, k));
                else if (prev && j < prev)
                    fmuc_result_violation(res, "%s: dependencies "
                                          "not sorted ascending (%u after %u)", UD(u),
                                          (unsigned)j, (unsigned)prev);
                if (j > prev)
                    prev = j;
                if (!fmuc_ms__valid_index(md, j))
                    continue;
                const fmuc_md_var *w = &md->vars[j - 1];
                const char *why = why_not_known(md, &roles, (fmuc_ms_list_id)id, j);
                if (why) {
                    fmuc_result_violation(res, "%s: dependency %u, "
                                          FMUC_MS_VAR " (causality=\"%s\"%s), is not a known%s: "
                                          "%s",  UD(u),
                                          (unsigned)j, FMUC_MS_VAR_ARGS(w),
                                          fmuc_md_causality_name((fmuc_causality)w->causality),
                                          (roles.role[j] & FMUC_MS_STATE) ? ", a state" : "",
                                          j == u->index ? " (the unknown lists itself)" : "",
                                          why);
                } else if (cs_no_dd && id != FMUC_MS_INITIAL_UNKNOWNS &&
                           (roles.role[j] & FMUC_MS_STATE)) {
                    /* FMI 3.0 only: a derived rule (B-412, D) */
                    fmuc_result_warn(res, "%s: dependency %u, "
                                          FMUC_MS_VAR ", is a continuous-time state, but this "
                                          "Co-Simulation FMU has providesDirectionalDerivative="
                                          "false (states are not knowns then)", 
                                          UD(u), (unsigned)j,
                                          FMUC_MS_VAR_ARGS(w));
                }
            }
        }
    }
    cJSON *ev = fmuc_result_evidence(res);
    if (ev)
        cJSON_AddNumberToObject(ev, "unknowns_with_dependencies", (double)nchecked);
    fmuc_ms__roles_free(&roles);
}

const fmuc_check fmuc_check_md_ms_dependencies = {
    .id = "md-ms-dependencies",
    .title = "ModelStructure dependencies are sorted and name only allowed knowns",
    .spec = "FMI 2.0.4 §2.2.8; FMI 3.0.2 §2.4.8",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_WARN,
    .interop_why = "a dependency on a variable that is not a known, or an unsorted list, only "
                   "over-states dependencies: it never hides one from an importer",
    .why = "A co-simulation master that trusts these dependencies builds its evaluation order "
           "from them; unsorted lists or forbidden knowns make it misread which outputs depend on "
           "which inputs.",
    .fix = "List each unknown's dependencies as ascending, unique indices of allowed knowns only: "
           "inputs, states and the independent variable (InitialUnknowns: inputs and "
           "initial=\"exact\" ones).",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
