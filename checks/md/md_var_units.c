/* md-var-units: a variable's unit names a Unit of UnitDefinitions (an empty string too), and a
 * displayUnit needs a unit, given on the variable or by its declaredType (FMI 2.0.4 §2.2.7,
 * §2.2.3; B-106, B-107; VDM validVariableUnits). Whether the displayUnit is one of that unit's
 * DisplayUnits: md-display-unit-known. Units of types: md-type-definitions. */
#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    fmuc_mdu_map types = {0}, units = {0};
    char d[FMUC_MDU_DESC_LEN];
    if (fmuc_mdu__types_map(&types, md) < 0 || fmuc_mdu__units_map(&units, md) < 0) {
        fmuc_result_error(res, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (!v->unit && !v->display_unit)
            continue;
        if (v->unit && !fmuc_mdu__map_get(&units, v->unit, NULL))
            fmuc_result_violation(res, "%s: unit=\"%.200s\" is not defined in UnitDefinitions",
                                  fmuc_mdu__var_desc(d, sizeof d, v), v->unit);
        if (v->display_unit) {
            fmuc_mdu_eff e;
            fmuc_mdu__effective(&e, v, fmuc_mdu__var_type(md, &types, v));
            if (!e.unit)
                fmuc_result_violation(res, "%s: displayUnit=\"%.200s\" without a unit (neither the "
                                      "variable nor its declaredType gives one)",
                                      fmuc_mdu__var_desc(d, sizeof d, v), v->display_unit);
        }
    }
out:
    fmuc_mdu__map_free(&types);
    fmuc_mdu__map_free(&units);
}

const fmuc_check fmuc_check_md_var_units = {
    .id = "md-var-units",
    .title = "variable units are defined",
    .spec = "FMI 2.0.4 §2.2.7; FMI 3.0.2 §2.4.4, §2.4.7.5",
    .level = FMUC_LEVEL_MUST,
    .why = "A unit that is not defined in UnitDefinitions cannot be converted or checked; "
           "importers show no unit, refuse unit-checked connections or reject the FMU.",
    .fix = "Define every unit a variable names in UnitDefinitions, and give a variable with a "
           "displayUnit a unit (on itself or its declaredType).",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
