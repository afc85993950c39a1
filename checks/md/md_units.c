/* md-units: Unit@name is unique in UnitDefinitions (FMI 2.0.4 §2.2.2, B-101; VDM validUnitNames).
 * A missing name is md-required-attributes'. */
#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    fmuc_mdu_map m;
    if (!md->nunits) {
        fmuc_result_na(res, "no UnitDefinitions");
        return;
    }
    if (fmuc_mdu__map_init(&m, md->nunits) < 0) {
        fmuc_result_error(res, "out of memory");
        return;
    }
    for (size_t i = 0; i < md->nunits; i++) {
        const fmuc_md_unit *u = &md->units[i];
        size_t first;
        if (!u->name)
            continue;
        int r = fmuc_mdu__map_put(&m, u->name, i, &first);
        if (r < 0) {
            fmuc_result_error(res, "out of memory");
            break;
        }
        if (r == 0)
            fmuc_result_violation(res, "line %u: %s=\"%.200s\" is already defined at line %u",
                                  (unsigned)u->line,
                                  md->fmi == FMUC_FMI1 ? "BaseUnit unit" : "Unit name", u->name,
                                  (unsigned)md->units[first].line);
    }
    fmuc_mdu__map_free(&m);
}

const fmuc_check fmuc_check_md_units = {
    .id = "md-units",
    .title = "unit names are unique",
    .spec = "FMI 2.0.4 §2.2.2; FMI 3.0.2 §2.4.3; FMI 1.0 ME (fmiBaseUnit.xsd: BaseUnit unit unique)",
    .level = FMUC_LEVEL_MUST,
    .why = "Variables refer to units by name; two Unit definitions with one name can carry "
           "different base units, so an importer may convert values with the wrong one.",
    .fix = "Define each Unit name once in UnitDefinitions and merge or rename duplicates.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
