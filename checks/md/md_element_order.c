/* md-element-order: the children of fmiModelDescription come in the XSD order
 * (ModelExchange/CoSimulation, UnitDefinitions, TypeDefinitions, LogCategories, DefaultExperiment,
 * VendorAnnotations, ModelVariables, ModelStructure), each at most once, with ModelVariables and
 * ModelStructure present (FMI 2.0.4 §2.2.1, B-002). Nested order problems come from the parser's
 * ELEMENT_ORDER issues; the top level is computed here from md->children. */
#include <string.h>

#include "check.h"
#include "md_util.h"

static const char *const top[] = {"ModelExchange", "CoSimulation", "UnitDefinitions",
                                  "TypeDefinitions", "LogCategories", "DefaultExperiment",
                                  "VendorAnnotations", "ModelVariables", "ModelStructure", NULL};
/* FMI 3.0 §2.4.1 (fmi3ModelDescription.xsd): the three interfaces share rank 0 */
static const char *const top3[] = {"ModelExchange",  "CoSimulation",      "ScheduledExecution",
                                   "UnitDefinitions", "TypeDefinitions",  "LogCategories",
                                   "DefaultExperiment", "ModelVariables", "ModelStructure",
                                   "Annotations",    NULL};

/* rank in the sequence; the interfaces share rank 0; -1 for unknown names */
static int rank_of(const char *name, int fmi3)
{
    const char *const *t = fmi3 ? top3 : top;
    int nif = fmi3 ? 3 : 2;
    for (int i = 0; name && t[i]; i++)
        if (strcmp(name, t[i]) == 0)
            return i < nif ? 0 : i - nif + 1;
    return -1;
}

/* FMI 1.0 (fmiModelDescription.xsd, fmi1-rules B-003): UnitDefinitions, TypeDefinitions,
 * DefaultExperiment, VendorAnnotations, ModelVariables, Implementation, each optional and at
 * most once. ModelVariables is optional in the 1.0 schema, but FMPy refuses a 1.0 FMU without
 * it (B-005, a tool rule): a warning. */
static const char *const top1[] = {"UnitDefinitions", "TypeDefinitions", "DefaultExperiment",
                                   "VendorAnnotations", "ModelVariables", "Implementation", NULL};

static int rank1_of(const char *name)
{
    for (int i = 0; name && top1[i]; i++)
        if (strcmp(name, top1[i]) == 0)
            return i;
    return -1;
}

static void run_fmi1(const fmuc_md *md, fmuc_result *res)
{
    int max_rank = -1;
    const fmuc_md_child *max_child = NULL;
    uint32_t seen_line[6] = {0};
    for (size_t i = 0; i < md->nchildren; i++) {
        const fmuc_md_child *c = &md->children[i];
        int r = rank1_of(c->name);
        if (r < 0)
            continue; /* unknown element: md-xml-schema */
        if (seen_line[r])
            fmuc_result_violation(res, "line %u: <%s> repeated (first at line %u); it may appear "
                                  "at most once", (unsigned)c->line, c->name,
                                  (unsigned)seen_line[r]);
        else
            seen_line[r] = c->line ? c->line : 1;
        if (r < max_rank)
            fmuc_result_violation(res, "line %u: <%s> after <%s> (line %u); the FMI 1.0 schema "
                                  "orders the children of fmiModelDescription as "
                                  "UnitDefinitions, TypeDefinitions, DefaultExperiment, "
                                  "VendorAnnotations, ModelVariables, Implementation",
                                  (unsigned)c->line, c->name, max_child->name,
                                  (unsigned)max_child->line);
        else if (r > max_rank) {
            max_rank = r;
            max_child = c;
        }
    }
    if (!md->has_model_variables)
        fmuc_result_warn(res, "line %u: <ModelVariables> is missing; optional in the FMI 1.0 "
                         "schema, but an FMU without variables cannot be used and FMPy refuses it",
                         (unsigned)md->root_line);
    for (size_t i = 0; i < md->nissues; i++) {
        const fmuc_md_issue *is = &md->issues[i];
        if (strcmp(fmuc_mdu__issue_owner(md, is), "md-element-order") != 0 ||
            is->kind != FMUC_ISSUE_ELEMENT_ORDER || rank1_of(is->element) >= 0)
            continue;
        if (is->message)
            fmuc_result_violation(res, "%s", is->message);
        else
            fmuc_result_violation(res, "line %u: element <%s> out of order", (unsigned)is->line,
                                  fmuc_mdu__str(is->element));
    }
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    if (md->fmi == FMUC_FMI1) {
        run_fmi1(md, res);
        return;
    }
    int fmi3 = md->fmi == FMUC_FMI3;
    int max_rank = -1;
    const fmuc_md_child *max_child = NULL;
    uint32_t seen_line[9] = {0};
    int seen[9] = {0};
    for (size_t i = 0; i < md->nchildren; i++) {
        const fmuc_md_child *c = &md->children[i];
        int r = rank_of(c->name, fmi3);
        if (r < 0)
            continue; /* unknown element: md-xml-schema */
        if (r > 0) {  /* ME/CS repetition: md-interfaces */
            if (seen[r])
                fmuc_result_violation(res, "line %u: <%s> repeated (first at line %u); it may "
                                      "appear at most once", (unsigned)c->line, c->name,
                                      (unsigned)seen_line[r]);
            else {
                seen[r] = 1;
                seen_line[r] = c->line;
            }
        }
        if (r < max_rank)
            fmuc_result_violation(res, "line %u: <%s> after <%s> (line %u); the schema orders the "
                                  "children of fmiModelDescription as %s", (unsigned)c->line,
                                  c->name, max_child->name, (unsigned)max_child->line,
                                  fmi3 ? "ModelExchange, CoSimulation, ScheduledExecution, "
                                         "UnitDefinitions, TypeDefinitions, LogCategories, "
                                         "DefaultExperiment, ModelVariables, ModelStructure, "
                                         "Annotations"
                                       : "ModelExchange, CoSimulation, UnitDefinitions, "
                                         "TypeDefinitions, LogCategories, DefaultExperiment, "
                                         "VendorAnnotations, ModelVariables, ModelStructure");
        else if (r > max_rank) {
            max_rank = r;
            max_child = c;
        }
    }
    if (!md->has_model_variables)
        fmuc_result_violation(res, "line %u: required element <ModelVariables> is missing",
                              (unsigned)md->root_line);
    if (!md->has_model_structure)
        fmuc_result_violation(res, "line %u: required element <ModelStructure> is missing",
                              (unsigned)md->root_line);
    /* nested order issues from the parser; top-level ones are covered above */
    for (size_t i = 0; i < md->nissues; i++) {
        const fmuc_md_issue *is = &md->issues[i];
        if (strcmp(fmuc_mdu__issue_owner(md, is), "md-element-order") != 0 ||
            is->kind != FMUC_ISSUE_ELEMENT_ORDER ||
            (rank_of(is->element, fmi3) >= 0 &&
             (!fmi3 || (is->message && strstr(is->message, "inside <fmiModelDescription>")))))
            continue;
        if (is->message)
            fmuc_result_violation(res, "%s", is->message);
        else
            fmuc_result_violation(res, "line %u: element <%s> out of order", (unsigned)is->line,
                                  fmuc_mdu__str(is->element));
    }
}

const fmuc_check fmuc_check_md_element_order = {
    .id = "md-element-order",
    .title = "elements in schema order, required elements present",
    .spec = "FMI 2.0.4 §2.2.1; FMI 3.0.2 §2.4.1, §2.4.7, §2.4.8 (XSD); FMI 1.0 ME (fmiModelDescription.xsd sequence); FMI 1.0 CS (Implementation)",
    .level = FMUC_LEVEL_MUST,
    .why = "Schema-validating importers reject a modelDescription.xml whose elements are out of "
           "order or lack ModelVariables/ModelStructure; streaming parsers may skip misplaced "
           "elements.",
    .fix = "Emit the children of fmiModelDescription in the XSD order, each at most once, always "
           "with ModelVariables and ModelStructure, and validate the file against the XSD of its "
           "FMI version.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
