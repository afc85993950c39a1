/* zip-documentation-index: when documentation/ is present its entry point is
 * documentation/index.html, and documentation/licenses/ has license.txt or license.html
 * (FMI 2.0.4 §2.3, A-22). FMI 3.0 (§2.5.1.1, §2.5.1.1.1; fmi3-rules ): license.spdx is
 * an entry point too, and the licenses entry and diagram.png beside diagram.svg are musts. */
#include "check.h"
#include "zip_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_zip_listing *l = &s->fmu->listing;
    int docs = 0, licenses = 0;
    for (size_t i = 0; i < l->nentries; i++) {
        const fmuc_zip_entry *e = &l->entries[i];
        if (zipu_is_dir(e))
            continue;
        if (zipu_under(e->name, "documentation/"))
            docs = 1;
        if (zipu_under(e->name, "documentation/licenses/"))
            licenses = 1;
    }
    if (!docs) {
        fmuc_result_na(res, "no files in documentation/");
        return;
    }
    if (fmuc_fmu_fmi_version(s->fmu) == 1) {
        /* FMI 1.0: the entry point is documentation/_main.html (fmi1-rules A-06; index.html is
         * FMI 2.0's name, fmi-cross-check#43); 1.0 has no licenses/ folder */
        if (!zipu_find(l, "documentation/_main.html"))
            fmuc_result_violation(res, "documentation/ has files but no FMI 1.0 entry point "
                                       "documentation/_main.html%s",
                                  zipu_find(l, "documentation/index.html")
                                      ? " (index.html is the FMI 2.0 name)"
                                      : "");
        return;
    }
    if (!zipu_find(l, "documentation/index.html"))
        fmuc_result_violation(res, "documentation/ has files but no entry point "
                                   "documentation/index.html");
    int fmi3 = s->fmu->md_parsed && s->fmu->md.fmi == FMUC_FMI3;
    /* FMI 3.0 §2.5.1.1.1 also takes license.spdx as the entry point */
    if (licenses && !zipu_find(l, "documentation/licenses/license.txt") &&
        !zipu_find(l, "documentation/licenses/license.html") &&
        !(fmi3 && zipu_find(l, "documentation/licenses/license.spdx")))
        /* a must in FMI 3.0 ("it must contain"), a should in 2.0.4's figure */
        (fmi3 ? fmuc_result_fail : fmuc_result_violation)(
            res, "documentation/licenses/ has files but no entry point license.txt or "
                 "license.html%s", fmi3 ? " or license.spdx" : "");
    /* FMI 3.0 §2.5.1.1: diagram.svg only together with diagram.png */
    if (fmi3 && zipu_find(l, "documentation/diagram.svg") &&
        !zipu_find(l, "documentation/diagram.png"))
        fmuc_result_fail(res, "documentation/diagram.svg without documentation/diagram.png (the "
                              "PNG is required when the SVG is given)");
}

const fmuc_check fmuc_check_zip_documentation_index = {
    .id = "zip-documentation-index",
    .title = "documentation/ has the entry point index.html",
    .spec = "FMI 2.0.4 §2.3; FMI 3.0.2 §2.5.1.1, §2.5.1.1.1; FMI 1.0 ME (FMU distribution)",
    .level = FMUC_LEVEL_SHOULD,
    .interop = FMUC_INTEROP_WARN,
    .interop_why = "documentation files are read by people, never by an importer: a missing entry "
                   "page, license entry or diagram.png cannot break loading or simulation",
    .why = "Tools open documentation/index.html as the FMU's documentation entry point; without "
           "it the user sees nothing, and without the license file the terms of use are unknown.",
    .fix = "Add documentation/index.html as the entry page, and a license.txt or license.html in "
           "documentation/licenses/ if that folder exists.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_ARCHIVE,
    .run = run,
};
