/* md-ms-initial-unknowns: ModelStructure/InitialUnknowns lists exactly (1) the outputs with
 * initial approx/calculated, (2) all calculatedParameters, (3) the continuous-time states and
 * state derivatives with initial approx/calculated; no duplicates, ascending index order; the
 * element is mandatory when that set is non-empty (FMI 2.0.4 §2.2.8, catalogue B-405). The states
 * are those of the Derivatives list, which a Co-Simulation-only FMU without
 * providesDirectionalDerivative has not (§2.2.8: the list is ignored then). */
#include <stdlib.h>

#include "check.h"
#include "md_util.h"

/* an entry for messages (FMI 2.0: list and index; FMI 3.0: element and valueReference) and
 * a dependency (index or valueReference) */
#define UD(u) fmuc_mdu__unknown_desc(u_d, sizeof u_d, md, "InitialUnknowns", (u))
#define DEP(u, k) (md->fmi == FMUC_FMI3 && (u)->deps_vr ? (u)->deps_vr[k] : (u)->deps[k])

static int approx_or_calculated(const fmuc_md_var *v)
{
    fmuc_initial i = fmuc_md_effective_initial(v);
    return i == FMUC_INIT_APPROX || i == FMUC_INIT_CALCULATED;
}

/* FMI 3.0 §2.4.8 (B-404): Clocks and clocked variables (with a clocks attribute) need not be
 * listed, and may be (those the FMU initializes in Initialization Mode). */
static int clocked(const fmuc_md *md, const fmuc_md_var *v)
{
    if (md->fmi != FMUC_FMI3)
        return 0;
    if (v->type == FMUC_TYPE_CLOCK)
        return 1;
    const fmuc_md_var_ext *x = v->ext ? fmuc_md_var_ext_of(md, (size_t)(v - md->vars)) : NULL;
    return x && x->nclocks > 0;
}

/* Why a variable must be an initial unknown, or NULL when it must not be one. role has no
 * state/derivative bits when the Derivatives list is ignored (CS without directional
 * derivatives): its variables then neither must nor must not be listed. */
static const char *required_because(const fmuc_md *md, const fmuc_md_var *v, uint8_t role)
{
    if (clocked(md, v))
        return NULL;
    if (v->causality == FMUC_CAUS_CALCULATED_PARAMETER)
        return "it is a calculatedParameter";
    if (!approx_or_calculated(v))
        return NULL;
    if (v->causality == FMUC_CAUS_OUTPUT)
        return "it is an output with initial approx/calculated";
    if (role & FMUC_MS_STATE)
        return "it is a continuous-time state with initial approx/calculated";
    if (role & FMUC_MS_DERIV)
        return "it is a state derivative with initial approx/calculated";
    return NULL;
}

static const char *initial_text(const fmuc_md_var *v)
{
    fmuc_initial i = fmuc_md_effective_initial(v);
    return i == FMUC_INIT_NONE ? "(none)" : fmuc_md_initial_name(i);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    char u_d[FMUC_MDU_UNK_LEN];
    const fmuc_md *md = &s->fmu->md;
    fmuc_ms_roles roles = {0};
    uint8_t *seen = calloc(md->nvars + 1, 1);
    size_t nrequired = 0, missing = 0, extra = 0;
    uint32_t prev = 0;
    int ignored = fmuc_ms__derivatives_ignored(md); /* §2.2.8: CS without directional derivs */
    if (!seen || fmuc_ms__roles(&roles, md) < 0) {
        fmuc_result_error(res, "out of memory");
        goto out;
    }
    if (md->has_initial_unknowns && md->ninitial_unknowns == 0)
        fmuc_result_violation(res, "ModelStructure/InitialUnknowns is present but has no "
                              "Unknown; the schema requires at least one");
    for (size_t i = 0; i < md->ninitial_unknowns && md->initial_unknowns; i++) {
        const fmuc_md_unknown *u = &md->initial_unknowns[i];
        if (!fmuc_ms__valid_index(md, u->index))
            continue; /* md-ms-indices */
        const fmuc_md_var *v = &md->vars[u->index - 1];
        if (seen[u->index]) {
            fmuc_result_violation(res, "%s: " FMUC_MS_VAR
                                  " is listed more than once",
                                  UD(u), FMUC_MS_VAR_ARGS(v));
            continue;
        }
        seen[u->index] = 1;
        if (md->fmi == FMUC_FMI3) /* no ordering rule in FMI 3.0 */
            ;
        else if (u->index < prev)
            fmuc_result_violation(res, "%s: " FMUC_MS_VAR
                                  " comes after index %u; InitialUnknowns must be sorted by "
                                  "ascending index",
                                  UD(u), FMUC_MS_VAR_ARGS(v),
                                  (unsigned)prev);
        else
            prev = u->index;
        if (!required_because(md, v, roles.role[u->index]) && !clocked(md, v) &&
            !(ignored && (roles.role[u->index] & (FMUC_MS_STATE | FMUC_MS_DERIV)))) {
            extra++;
            fmuc_result_violation(res, "%s: " FMUC_MS_VAR
                                  " (causality=\"%s\", initial=\"%s\"%s) is not an initial "
                                  "unknown: only outputs and states/derivatives with initial "
                                  "approx/calculated and calculatedParameters belong here",
                                  UD(u), FMUC_MS_VAR_ARGS(v),
                                  fmuc_md_causality_name((fmuc_causality)v->causality),
                                  initial_text(v),
                                  (roles.role[u->index] & FMUC_MS_STATE)   ? ", a state"
                                  : (roles.role[u->index] & FMUC_MS_DERIV) ? ", a derivative"
                                                                           : "");
        }
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        uint8_t role = roles.role[i + 1];
        if (ignored)
            role &= (uint8_t)~(FMUC_MS_STATE | FMUC_MS_DERIV);
        const char *why = required_because(md, v, role);
        if (!why)
            continue;
        nrequired++;
        if (seen[i + 1])
            continue;
        missing++;
        if (md->fmi == FMUC_FMI3)
            fmuc_result_violation(res, FMUC_MS_VAR " must be listed as an <InitialUnknown> of "
                                  "ModelStructure because %s%s", FMUC_MS_VAR_ARGS(v), why,
                                  md->ninitial_unknowns ? "" : " (there is no InitialUnknown)");
        else
            fmuc_result_violation(res, FMUC_MS_VAR " (index %zu) must be listed in "
                                  "ModelStructure/InitialUnknowns because %s%s",
                                  FMUC_MS_VAR_ARGS(v), i + 1, why,
                                  md->has_initial_unknowns ? "" : " (no InitialUnknowns element)");
    }
    cJSON *ev = fmuc_result_evidence(res);
    if (ev) {
        cJSON_AddNumberToObject(ev, "required", (double)nrequired);
        cJSON_AddNumberToObject(ev, "listed", (double)md->ninitial_unknowns);
        cJSON_AddNumberToObject(ev, "missing", (double)missing);
        cJSON_AddNumberToObject(ev, "not_allowed", (double)extra);
    }
out:
    fmuc_ms__roles_free(&roles);
    free(seen);
}

const fmuc_check fmuc_check_md_ms_initial_unknowns = {
    .id = "md-ms-initial-unknowns",
    .title = "ModelStructure/InitialUnknowns lists exactly the required set, sorted (FMI 3.0: "
             "unsorted, clocked variables optional)",
    .spec = "FMI 2.0.4 §2.2.8; FMI 3.0.2 §2.4.8",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_WARN,
    .interop_why = "outputs are readable in Initialization Mode whether listed or not (§2.2.7), "
                   "and an importer misses only dependency information of a wrong list",
    .why = "Masters solve initialisation from InitialUnknowns; a missing or extra entry makes "
           "them skip a value that must be computed or set up a wrong algebraic loop at "
           "initialisation.",
    .fix = "List exactly the outputs and states/derivatives with initial approx or calculated and "
           "every calculatedParameter, once each, in ascending index order.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
