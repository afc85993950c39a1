/* md-display-unit-known: a displayUnit (of a variable or a SimpleType) is one of the DisplayUnits
 * of its unit. The spec says an unknown displayUnit is ignored; FMPy reports it as an error
 * (FMI 2.0.4 §2.2.3, B-107: T, so a warning). FMI 3.0 (§2.4.4, §2.4.7.3; fmi3-rules B-107,
 * B-303, G-21): the displayUnit must name a DisplayUnit of the unit, also on Alias elements. */
#include <stdarg.h>
#include <stdio.h>

#include "check.h"
#include "md_util.h"

static uint64_t key(size_t unit_index, const char *display)
{
    return fmuc_mdu__hash(display) ^ ((uint64_t)unit_index * 0x9e3779b97f4a7c15ull);
}

/* FMI 2.0.4 ignores an unknown displayUnit (a should here); FMI 3.0 §2.4.4 makes it a must */
__attribute__((format(printf, 3, 4))) static void bad(fmuc_result *res, const fmuc_md *md,
                                                     const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (md->fmi == FMUC_FMI3)
        fmuc_result_fail(res, "%s", msg);
    else
        fmuc_result_violation(res, "%s", msg);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    fmuc_mdu_map types = {0}, units = {0};
    fmuc_mdu_imap dus = {0};
    char d[FMUC_MDU_DESC_LEN];
    size_t total = 0;
    for (size_t i = 0; i < md->nunits; i++)
        total += md->units[i].ndisplay;
    if (fmuc_mdu__types_map(&types, md) < 0 || fmuc_mdu__units_map(&units, md) < 0 ||
        fmuc_mdu__imap_init(&dus, total) < 0)
        goto oom;
    for (size_t i = 0; i < md->nunits; i++)
        for (size_t k = 0; k < md->units[i].ndisplay; k++)
            if (md->units[i].display[k].name &&
                fmuc_mdu__imap_put(&dus, key(i, md->units[i].display[k].name), k, NULL) < 0)
                goto oom;
    for (size_t i = 0; i < md->ntypes; i++) {
        const fmuc_md_type *t = &md->types[i];
        size_t ui;
        if (t->display_unit && t->unit && fmuc_mdu__map_get(&units, t->unit, &ui) &&
            !fmuc_mdu__imap_get(&dus, key(ui, t->display_unit), NULL))
            bad(res, md, "line %u: SimpleType '%.200s': displayUnit=\"%.200s\" is not "
                                  "a DisplayUnit of unit '%.200s' (line %u)", (unsigned)t->line,
                                  fmuc_mdu__str(t->name), t->display_unit, t->unit,
                                  (unsigned)md->units[ui].line);
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (!v->display_unit)
            continue;
        fmuc_mdu_eff e;
        size_t ui;
        fmuc_mdu__effective(&e, v, fmuc_mdu__var_type(md, &types, v));
        if (e.unit && fmuc_mdu__map_get(&units, e.unit, &ui) &&
            !fmuc_mdu__imap_get(&dus, key(ui, v->display_unit), NULL))
            bad(res, md, "%s: displayUnit=\"%.200s\" is not a DisplayUnit of unit "
                                  "'%.200s' (line %u)", fmuc_mdu__var_desc(d, sizeof d, v),
                                  v->display_unit, e.unit, (unsigned)md->units[ui].line);
    }
    /* FMI 3.0 §2.4.7.3: an Alias's displayUnit is one of the DisplayUnits of its variable's
     * unit, and only Float variables (with a unit) may give one */
    for (size_t i = 0; i < md->nexts; i++) {
        const fmuc_md_var_ext *x = &md->exts[i];
        const fmuc_md_var *v = &md->vars[x->var];
        for (uint32_t k = 0; k < x->naliases; k++) {
            const fmuc_md_alias *a = &x->aliases[k];
            fmuc_mdu_eff e;
            size_t ui;
            if (!a->display_unit)
                continue;
            fmuc_mdu__effective(&e, v, fmuc_mdu__var_type(md, &types, v));
            if (v->type != FMUC_TYPE_REAL || !e.unit)
                bad(res, md, "%s: Alias '%.200s' (line %u) has displayUnit=\"%.200s\" but its "
                             "variable has no unit", fmuc_mdu__var_desc(d, sizeof d, v),
                    fmuc_mdu__str(a->name), (unsigned)a->line, a->display_unit);
            else if (fmuc_mdu__map_get(&units, e.unit, &ui) &&
                     !fmuc_mdu__imap_get(&dus, key(ui, a->display_unit), NULL))
                bad(res, md, "%s: Alias '%.200s' (line %u): displayUnit=\"%.200s\" is not a "
                             "DisplayUnit of unit '%.200s' (line %u)",
                    fmuc_mdu__var_desc(d, sizeof d, v), fmuc_mdu__str(a->name),
                    (unsigned)a->line, a->display_unit, e.unit, (unsigned)md->units[ui].line);
        }
    }
    goto out;
oom:
    fmuc_result_error(res, "out of memory");
out:
    fmuc_mdu__map_free(&types);
    fmuc_mdu__map_free(&units);
    fmuc_mdu__imap_free(&dus);
}

const fmuc_check fmuc_check_md_display_unit_known = {
    .id = "md-display-unit-known",
    .title = "display units are listed under their unit",
    .spec = "FMI 2.0.4 §2.2.3; FMI 3.0.2 §2.4.4, §2.4.7.3; FMI 1.0 ME (fmiScalarVariable.xsd displayUnit; derived)",
    .level = FMUC_LEVEL_SHOULD,
    .why = "The standard says an unknown displayUnit is ignored, yet some tools reject it: users "
           "see values in the base unit or cannot load the FMU, depending on the importer.",
    .fix = "Add the displayUnit as a DisplayUnit (with factor and offset) under the variable's "
           "Unit in UnitDefinitions, or remove the displayUnit attribute.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
