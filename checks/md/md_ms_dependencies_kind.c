/* md-ms-dependencies-kind: the dependenciesKind attribute of ModelStructure Unknowns (FMI 2.0.4
 * §2.2.8, catalogue B-409, B-410): given only together with dependencies and with the same number
 * of items (values other than dependent/constant/fixed/tunable/discrete are parser issues,
 * reported by md-attribute-syntax); kinds other than "dependent" only
 * for Real unknowns; in InitialUnknowns only "dependent" and "constant". */
#include "check.h"
#include "md_util.h"

/* an entry for messages (FMI 2.0: list and index; FMI 3.0: element and valueReference) and
 * a dependency (index or valueReference) */
#define UD(u) fmuc_mdu__unknown_desc(u_d, sizeof u_d, md, l.name, (u))
#define DEP(u, k) (md->fmi == FMUC_FMI3 && (u)->deps_vr ? (u)->deps_vr[k] : (u)->deps[k])

static const char *kind_name(unsigned k)
{
    static const char *const names[] = {"dependent", "constant", "fixed", "tunable", "discrete"};
    return k < sizeof names / sizeof names[0] ? names[k] : "(invalid)";
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    char u_d[FMUC_MDU_UNK_LEN];
    const fmuc_md *md = &s->fmu->md;
    for (int id = FMUC_MS_OUTPUTS; id <= FMUC_MS_INITIAL_UNKNOWNS; id++) {
        fmuc_ms_list l;
        fmuc_ms__list(&l, md, (fmuc_ms_list_id)id);
        for (size_t i = 0; i < l.n; i++) {
            const fmuc_md_unknown *u = &l.u[i];
            if (!u->has_kinds)
                continue;
            if (!u->has_deps) {
                fmuc_result_violation(res, "%s: dependenciesKind "
                                      "is given (%u items) without dependencies", 
                                      UD(u),
                                      (unsigned)u->nkinds);
                continue;
            }
            if (u->nkinds != u->ndeps)
                fmuc_result_violation(res, "%s: dependenciesKind "
                                      "has %u items but dependencies has %u", 
                                      UD(u),
                                      (unsigned)u->nkinds, (unsigned)u->ndeps);
            const fmuc_md_var *v =
                fmuc_ms__valid_index(md, u->index) ? &md->vars[u->index - 1] : NULL;
            for (uint32_t k = 0; k < u->nkinds && u->kinds; k++) {
                unsigned kind = u->kinds[k];
                uint32_t dep = k < u->ndeps && u->deps ? DEP(u, k) : 0;
                /* an unknown value is a parser issue (md-attribute-syntax reports it) */
                if (kind >= FMUC_DEPKIND_INVALID || kind == FMUC_DEPKIND_DEPENDENT)
                    continue;
                if (id == FMUC_MS_INITIAL_UNKNOWNS && kind != FMUC_DEPKIND_CONSTANT)
                    fmuc_result_violation(res, "%s: "
                                          "dependenciesKind item %u (dependency %u) is \"%s\"; "
                                          "only \"dependent\" and \"constant\" are allowed in "
                                          "InitialUnknowns", UD(u), k + 1, (unsigned)dep,
                                          kind_name(kind));
                else if (v && v->type != FMUC_TYPE_REAL)
                    /* kinds only describe Real unknowns (their partial derivatives); no importer
                     * differentiates a non-Real one: a violation of the letter */
                    fmuc_result_violation_letter(res, "%s: "
                                          "dependenciesKind "
                                          "item %u (dependency %u) is \"%s\" but the unknown "
                                          FMUC_MS_VAR " is %s; only \"dependent\" is allowed "
                                          "for non-Real unknowns", UD(u), k + 1, (unsigned)dep,
                                          kind_name(kind), FMUC_MS_VAR_ARGS(v),
                                          fmuc_md_type_name((fmuc_type)v->type));
            }
        }
    }
}

const fmuc_check fmuc_check_md_ms_dependencies_kind = {
    .id = "md-ms-dependencies-kind",
    .title = "ModelStructure dependenciesKind matches dependencies and is allowed",
    .spec = "FMI 2.0.4 §2.2.8; FMI 3.0.2 §2.4.8",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_SOME,
    .interop_why = "a kind other than dependent on a non-Real unknown misleads no importer: kinds "
                   "describe partial derivatives, which exist for Real unknowns only",
    .why = "Masters use dependenciesKind to decide where linearisation or a fixed coupling is "
           "valid; kinds that do not line up with the dependencies make them treat the wrong "
           "pairs as constant.",
    .fix = "Give dependenciesKind only together with dependencies and with one kind per listed "
           "index; use only \"dependent\" for non-Real unknowns and only allowed kinds in "
           "InitialUnknowns.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
