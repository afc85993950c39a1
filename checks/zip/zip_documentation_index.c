/* zip-documentation-index: when documentation/ is present its entry point is
 * documentation/index.html, and documentation/licenses/ has license.txt or license.html
 * (FMI 2.0.4 §2.3, A-22). */
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
    if (licenses && !zipu_find(l, "documentation/licenses/license.txt") &&
        !zipu_find(l, "documentation/licenses/license.html"))
        fmuc_result_violation(res, "documentation/licenses/ has files but no entry point "
                                   "license.txt or license.html");
}

const fmuc_check fmuc_check_zip_documentation_index = {
    .id = "zip-documentation-index",
    .title = "documentation/ has its entry point (index.html; 1.0: _main.html)",
    .spec = "FMI 2.0.4 §2.3; FMI 1.0 ME (FMU distribution)",
    .level = FMUC_LEVEL_SHOULD,
    .why = "Tools open documentation/index.html as the FMU's documentation entry point; without "
           "it the user sees nothing, and without the license file the terms of use are unknown.",
    .fix = "Add documentation/index.html as the entry page, and a license.txt or license.html in "
           "documentation/licenses/ if that folder exists.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V1,
    .needs = FMUC_NEEDS_ARCHIVE,
    .run = run,
};
