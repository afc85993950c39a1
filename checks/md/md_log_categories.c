/* md-log-categories: LogCategories/Category@name is unique (FMI 2.0.4 §2.2.4, B-110;
 * VDM validLogCategories). Names other than the standard ones (logEvents, logStatusError, ...) are
 * allowed. */
#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    fmuc_mdu_map m;
    if (!md->ncategories) {
        fmuc_result_na(res, "no LogCategories");
        return;
    }
    if (fmuc_mdu__map_init(&m, md->ncategories) < 0) {
        fmuc_result_error(res, "out of memory");
        return;
    }
    for (size_t i = 0; i < md->ncategories; i++) {
        const fmuc_md_category *c = &md->categories[i];
        size_t first;
        if (!c->name)
            continue;
        int r = fmuc_mdu__map_put(&m, c->name, i, &first);
        if (r < 0) {
            fmuc_result_error(res, "out of memory");
            break;
        }
        if (r == 0)
            fmuc_result_violation(res, "line %u: Category name=\"%.200s\" is already defined at line %u",
                                  (unsigned)c->line, c->name, (unsigned)md->categories[first].line);
    }
    fmuc_mdu__map_free(&m);
}

const fmuc_check fmuc_check_md_log_categories = {
    .id = "md-log-categories",
    .title = "log category names are unique",
    .spec = "FMI 2.0.4 §2.2.4; FMI 3.0.2 §2.4.5",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_WARN,
    .interop_why = "log categories only select which FMU messages are logged; a duplicate name changes no call and no result",
    .why = "Log categories are enabled by name via fmi2SetDebugLogging; two categories with one "
           "name cannot be told apart, so a user cannot switch one on without the other.",
    .fix = "Give each LogCategories/Category a unique name and merge or rename the duplicates.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
