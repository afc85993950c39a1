/* md-var-declared-type: a declaredType names an existing SimpleType of the same kind as the
 * variable's type element (Real -> Real, ..., Enumeration -> Enumeration) (FMI 2.0.4 §2.2.7,
 * B-212; VDM validVariableTypes). */
#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    fmuc_mdu_map types;
    char d[FMUC_MDU_DESC_LEN];
    if (fmuc_mdu__types_map(&types, md) < 0) {
        fmuc_mdu__map_free(&types);
        fmuc_result_error(res, "out of memory");
        return;
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (!v->declared_type)
            continue;
        const fmuc_md_type *t = fmuc_mdu__var_type(md, &types, v);
        if (!t)
            fmuc_result_violation(res, "%s: declaredType=\"%.200s\" is not defined in TypeDefinitions",
                                  fmuc_mdu__var_desc(d, sizeof d, v), v->declared_type);
        else if (md->fmi == FMUC_FMI3 && t->base != FMUC_BT_NONE && v->base != FMUC_BT_NONE &&
                 t->base != v->base)
            /* FMI 3.0 §2.4.7.5: the type element matches the variable element exactly
             * (Float64 -> Float64Type, Int8 -> Int8Type, Clock -> ClockType) */
            fmuc_result_violation(res, "%s: %s variable with declaredType=\"%.200s\", which is "
                                  "a %sType (line %u); a %s needs a %sType",
                                  fmuc_mdu__var_desc(d, sizeof d, v),
                                  fmuc_md_base_type_name((fmuc_base_type)v->base),
                                  v->declared_type, fmuc_md_base_type_name((fmuc_base_type)t->base),
                                  (unsigned)t->line, fmuc_md_base_type_name((fmuc_base_type)v->base),
                                  fmuc_md_base_type_name((fmuc_base_type)v->base));
        else if (t->type != FMUC_TYPE_NONE && v->type != FMUC_TYPE_NONE && t->type != v->type)
            fmuc_result_violation(res, "%s: %s variable with declaredType=\"%.200s\", which is a %s "
                                  "type (line %u)", fmuc_mdu__var_desc(d, sizeof d, v),
                                  fmuc_mdu__type_name(v->type), v->declared_type,
                                  fmuc_mdu__type_name(t->type), (unsigned)t->line);
    }
    fmuc_mdu__map_free(&types);
}

const fmuc_check fmuc_check_md_var_declared_type = {
    .id = "md-var-declared-type",
    .title = "declaredType exists and is of the variable's kind",
    .spec = "FMI 2.0.4 §2.2.7; FMI 3.0.2 §2.4.7.5; FMI 1.0 ME (fmiScalarVariable.xsd declaredType)",
    .level = FMUC_LEVEL_MUST,
    .why = "A declaredType that is missing or of another kind makes importers drop the variable's "
           "inherited unit, bounds and enumeration items, or reject the FMU.",
    .fix = "Point declaredType at an existing SimpleType of the same kind as the variable (Real "
           "to Real, Enumeration to Enumeration), or define the missing type.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
