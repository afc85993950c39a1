/* md-type-definitions: SimpleType@name is unique and differs from every ScalarVariable name
 * (B-104); a SimpleType holds exactly one of Real/Integer/Boolean/String/Enumeration (B-105);
 * min <= max, nominal > 0 (B-108); a type's unit names a defined Unit, and a displayUnit needs a
 * defined unit (B-106, B-107) (FMI 2.0.4 §2.2.3; VDM validTypeDefinitionNames, validTypeNames,
 * validTypeUnits, validTypeMinMax). Enumeration items: md-enumerations. */
#include <stdlib.h>

#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    fmuc_mdu_map types = {0}, vars = {0}, units = {0};
    size_t *first_var = NULL;
    uint32_t *first_alias_line = NULL;
    char b1[32], b2[32];
    if (!md->ntypes) {
        fmuc_result_na(res, "no TypeDefinitions");
        return;
    }
    /* a type name that is also a variable name: the first such variable per type name, found
     * by looking every variable name up among the (few) type names (vars: type name -> the
     * first type of that name; first_var[that type]: the first variable of that name) */
    if (fmuc_mdu__map_init(&types, md->ntypes) < 0 || fmuc_mdu__map_init(&vars, md->ntypes) < 0 ||
        fmuc_mdu__units_map(&units, md) < 0 || !(first_var = malloc(md->ntypes * sizeof *first_var)) ||
        !(first_alias_line = calloc(md->ntypes, sizeof *first_alias_line)))
        goto oom;
    for (size_t i = 0; i < md->ntypes; i++) {
        first_var[i] = SIZE_MAX;
        if (md->types[i].name && fmuc_mdu__map_put(&vars, md->types[i].name, i, NULL) < 0)
            goto oom;
    }
    for (size_t i = 0; i < md->nvars; i++) {
        size_t t;
        if (md->vars[i].name && fmuc_mdu__map_get(&vars, md->vars[i].name, &t) &&
            first_var[t] == SIZE_MAX)
            first_var[t] = i;
    }
    /* FMI 1.0 (fmiType.xsd, fmi1-rules B-153): <Type> names are unique, one type element each;
     * min <= max and nominal > 0 are derived there (warn); 1.0 neither requires units to be
     * listed in UnitDefinitions nor forbids a type named like a variable */
    int fmi1 = md->fmi == FMUC_FMI1;
    /* FMI 3.0 §2.4.4 (B-104): type names also differ from the names of Alias elements */
    for (size_t i = 0; i < md->nexts; i++) {
        const fmuc_md_var_ext *x = &md->exts[i];
        for (uint32_t k = 0; k < x->naliases; k++) {
            size_t t;
            if (x->aliases[k].name && fmuc_mdu__map_get(&vars, x->aliases[k].name, &t) &&
                first_alias_line[t] == 0)
                first_alias_line[t] = x->aliases[k].line ? x->aliases[k].line : 1;
        }
    }
    for (size_t i = 0; i < md->ntypes; i++) {
        const fmuc_md_type *t = &md->types[i];
        const char *n = fmuc_mdu__str(t->name);
        char elb[32];
        const char *el = fmi1 ? "Type" : fmuc_mdu__type_element(md, t, elb, sizeof elb);
        size_t other;
        if (t->name) {
            int r = fmuc_mdu__map_put(&types, t->name, i, &other);
            if (r < 0)
                goto oom;
            if (r == 0)
                fmuc_result_violation(res, "line %u: %s name=\"%.200s\" is already defined "
                                      "at line %u", (unsigned)t->line, el, n,
                                      (unsigned)md->types[other].line);
            if (!fmi1 && fmuc_mdu__map_get(&vars, t->name, &other) &&
                first_var[other] != SIZE_MAX)
                fmuc_result_violation(res, "line %u: %s name=\"%.200s\" equals the name of "
                                      "the variable at line %u", (unsigned)t->line, el, n,
                                      (unsigned)md->vars[first_var[other]].line);
            if (fmuc_mdu__map_get(&vars, t->name, &other) && first_alias_line[other])
                fmuc_result_violation(res, "line %u: %s name=\"%.200s\" equals the name of the "
                                      "Alias at line %u", (unsigned)t->line, el, n,
                                      (unsigned)first_alias_line[other]);
        }
        if (t->ntypes != 1)
            fmuc_result_violation(res, "line %u: %s '%.200s' has %u type elements; exactly "
                                  "one of Real, Integer, Boolean, String, Enumeration is required",
                                  (unsigned)t->line, el, n, (unsigned)t->ntypes);
        if ((t->has & FMUC_HAS_MIN) && (t->has & FMUC_HAS_MAX) && t->min > t->max)
            FMUC_MDU_VIOLATION_V1_WARN(md, res, "line %u: %s '%.200s': min=\"%s\" > max=\"%s\"",
                                  (unsigned)t->line, el, n, fmuc_md_fmt_double(b1, t->min),
                                  fmuc_md_fmt_double(b2, t->max));
        if ((t->has & FMUC_HAS_NOMINAL) && t->nominal <= 0)
            FMUC_MDU_VIOLATION_V1_WARN(md, res, "line %u: %s '%.200s': nominal=\"%s\" must be > 0",
                                  (unsigned)t->line, el, n, fmuc_md_fmt_double(b1, t->nominal));
        if (!fmi1 && t->unit && !fmuc_mdu__map_get(&units, t->unit, NULL))
            fmuc_result_violation(res, "line %u: %s '%.200s': unit=\"%.200s\" is not defined "
                                  "in UnitDefinitions", (unsigned)t->line, el, n, t->unit);
        if (!fmi1 && t->display_unit && !t->unit)
            fmuc_result_violation(res, "line %u: %s '%.200s': displayUnit=\"%.200s\" given "
                                  "without a unit", (unsigned)t->line, el, n, t->display_unit);
    }
    goto out;
oom:
    fmuc_result_error(res, "out of memory");
out:
    fmuc_mdu__map_free(&types);
    fmuc_mdu__map_free(&vars);
    fmuc_mdu__map_free(&units);
    free(first_var);
    free(first_alias_line);
}

const fmuc_check fmuc_check_md_type_definitions = {
    .id = "md-type-definitions",
    .title = "type definitions are unique, well-formed and consistent",
    .spec = "FMI 2.0.4 §2.2.3; FMI 3.0.2 §2.4.4; FMI 1.0 ME (fmiType.xsd)",
    .level = FMUC_LEVEL_MUST,
    .why = "Variables inherit units and bounds from their declaredType; duplicate, malformed or "
           "inconsistent SimpleTypes make importers apply the wrong bounds or units to every user.",
    .fix = "Give each SimpleType a unique name (not a variable's), exactly one type element, min "
           "<= max, nominal > 0, and units that are defined in UnitDefinitions.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
