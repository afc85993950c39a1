/* md-nonempty-lists: an optional list element, if present, has at least one child:
 * UnitDefinitions/Unit, TypeDefinitions/SimpleType, LogCategories/Category,
 * VendorAnnotations/Tool, SourceFiles/File, Annotations/Tool; ModelVariables holds at least one
 * ScalarVariable (FMI 2.0.4 §2.2.1 footnote, XSD minOccurs=1; B-004). The parser's
 * ELEMENT_MISSING issues, plus the top-level lists from the model. Enumeration items:
 * md-enumerations; ModelStructure lists: md-ms-*. */
#include <string.h>

#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    static const struct {
        const char *list, *child;
    } lists[] = {{"UnitDefinitions", "Unit"},
                 {"TypeDefinitions", "SimpleType"},
                 {"LogCategories", "Category"},
                 {"VendorAnnotations", "Tool"},
                 {"ModelVariables", "ScalarVariable"}};
    /* FMI 3.0 §2.4.1: the type elements are Float64Type ..., the variables Float64 ...; no
     * VendorAnnotations (its Annotations lists come as parser issues) */
    static const struct {
        const char *list, *child;
    } lists3[] = {{"UnitDefinitions", "Unit"},
                  {"TypeDefinitions", "Float64Type/Int32Type/..."},
                  {"LogCategories", "Category"},
                  {"(none)", "(none)"},
                  {"ModelVariables", "Float64/Int32/.../Clock"}};
    const size_t counts[] = {md->nunits, md->ntypes, md->ncategories, md->ntools, md->nvars};
    fmuc_mdu__report_issues(md, "md-nonempty-lists", res);
    int fmi3 = md->fmi == FMUC_FMI3;
    for (size_t i = 0; i < md->nchildren; i++) {
        const fmuc_md_child *c = &md->children[i];
        for (size_t k = 0; k < sizeof lists / sizeof lists[0]; k++) {
            const char *list = fmi3 ? lists3[k].list : lists[k].list;
            const char *child = fmi3 ? lists3[k].child : lists[k].child;
            if (c->name && strcmp(c->name, list) == 0 && counts[k] == 0 &&
                !fmuc_mdu__issue_at(md, FMUC_ISSUE_ELEMENT_MISSING, list, NULL, c->line))
                fmuc_result_violation(res, "line %u: <%s> is present but has no <%s> child; the "
                                      "schema requires at least one (leave the element out "
                                      "instead)", (unsigned)c->line, list, child);
        }
    }
}

const fmuc_check fmuc_check_md_nonempty_lists = {
    .id = "md-nonempty-lists",
    .title = "list elements, when present, are not empty",
    .spec = "FMI 2.0.4 §2.2.1; FMI 3.0.2 §2.4.1",
    .level = FMUC_LEVEL_MUST,
    .why = "An empty list element (e.g. UnitDefinitions with no Unit) is invalid under the XSD, "
           "so schema-validating importers reject the whole model description.",
    .fix = "Leave out optional list elements that would be empty, and give ModelVariables at "
           "least one ScalarVariable.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
