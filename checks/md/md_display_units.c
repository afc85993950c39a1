/* md-display-units: DisplayUnit@name is unique within its Unit (the same name may appear under
 * different Units); FMI 3.0 (§2.4.3, B-103): inverse="true" needs offset 0. Original text:
 * different Units) (FMI 2.0.4 §2.2.2, B-103; VDM validDisplayUnitNames). */
#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    fmuc_mdu_map m = {0};
    size_t total = 0;
    for (size_t i = 0; i < md->nunits; i++)
        total += md->units[i].ndisplay;
    if (!total) {
        fmuc_result_na(res, "no DisplayUnit defined");
        return;
    }
    for (size_t i = 0; i < md->nunits; i++) {
        const fmuc_md_unit *u = &md->units[i];
        /* FMI 3.0 §2.4.3 (B-103): an inverse display unit (factor/value) has no offset */
        for (size_t k = 0; k < u->ndisplay; k++) {
            const fmuc_md_display_unit *du = &u->display[k];
            char b1[32];
            if (du->inverse && du->offset != 0)
                fmuc_result_violation(res, "line %u: Unit '%.200s': DisplayUnit '%.200s' has "
                                      "inverse=\"true\" with offset=\"%s\"; an inverse display "
                                      "unit has offset 0", (unsigned)du->line,
                                      fmuc_mdu__str(u->name), fmuc_mdu__str(du->name),
                                      fmuc_md_fmt_double(b1, du->offset));
        }
        if (u->ndisplay < 2)
            continue;
        fmuc_mdu__map_free(&m);
        if (fmuc_mdu__map_init(&m, u->ndisplay) < 0)
            goto oom;
        for (size_t k = 0; k < u->ndisplay; k++) {
            const fmuc_md_display_unit *du = &u->display[k];
            size_t first;
            if (!du->name)
                continue;
            int r = fmuc_mdu__map_put(&m, du->name, k, &first);
            if (r < 0)
                goto oom;
            if (r == 0)
                fmuc_result_violation(res, "line %u: Unit '%.200s': %s=\"%.200s\" is already "
                                      "defined for this unit at line %u", (unsigned)du->line,
                                      fmuc_mdu__str(u->name),
                                      md->fmi == FMUC_FMI1 ? "DisplayUnitDefinition displayUnit"
                                                           : "DisplayUnit name", du->name,
                                      (unsigned)u->display[first].line);
        }
    }
    fmuc_mdu__map_free(&m);
    return;
oom:
    fmuc_mdu__map_free(&m);
    fmuc_result_error(res, "out of memory");
}

const fmuc_check fmuc_check_md_display_units = {
    .id = "md-display-units",
    .title = "display unit names are unique per unit (FMI 3.0: inverse ones have no offset)",
    .spec = "FMI 2.0.4 §2.2.2; FMI 3.0.2 §2.4.3; FMI 1.0 ME (fmiBaseUnit.xsd: DisplayUnitDefinition unique)",
    .level = FMUC_LEVEL_MUST,
    .why = "Two DisplayUnits of one name under the same Unit can have different factors; an "
           "importer picks one of them and shows values converted with the wrong factor.",
    .fix = "Keep each DisplayUnit name unique within its Unit and delete or rename the duplicates.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
