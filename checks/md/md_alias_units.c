/* md-alias-units: in a Real alias set either no member has a unit, or all have the same unit
 * (same Unit name, hence the same BaseUnit) (FMI 2.0.4 §2.2.7, catalogue B-305). The unit in
 * effect is the variable's own, else that of its declaredType. displayUnit may differ. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "md_util.h"

typedef struct ctx {
    fmuc_result *res;
    const fmuc_md_type **types; /* sorted by name */
    size_t ntypes;
} ctx;

static int cmp_type(const void *a, const void *b)
{
    const fmuc_md_type *x = *(const fmuc_md_type *const *)a, *y = *(const fmuc_md_type *const *)b;
    return strcmp(x->name ? x->name : "", y->name ? y->name : "");
}

static int cmp_key_type(const void *key, const void *elem)
{
    const fmuc_md_type *t = *(const fmuc_md_type *const *)elem;
    return strcmp((const char *)key, t->name ? t->name : "");
}

static const char *unit_of(const ctx *c, const fmuc_md_var *v)
{
    if (v->unit)
        return v->unit;
    if (!v->declared_type || !c->ntypes)
        return NULL;
    const fmuc_md_type *const *t =
        bsearch(v->declared_type, c->types, c->ntypes, sizeof *c->types, cmp_key_type);
    if (!t || (*t)->type != FMUC_TYPE_REAL)
        return NULL;
    return (*t)->unit;
}

static void on_set(const fmuc_md *md, int kind, uint32_t vr, const uint32_t *m, size_t n,
                   void *payload)
{
    ctx *c = payload;
    if (kind != FMUC_MS_KIND_REAL)
        return;
    const fmuc_md_var *ref = &md->vars[m[0] - 1];
    const char *ref_unit = unit_of(c, ref);
    for (size_t i = 1; i < n; i++) {
        const fmuc_md_var *v = &md->vars[m[i] - 1];
        const char *u = unit_of(c, v);
        if (u == ref_unit || (u && ref_unit && strcmp(u, ref_unit) == 0))
            continue;
        fmuc_result_violation(c->res, "alias set fmi2Real vr %u: " FMUC_MS_VAR " has unit %s%s%s "
                              "but its alias '%s' (line %u) has unit %s%s%s; either no member of "
                              "an alias set has a unit or all have the same one",
                              (unsigned)vr, FMUC_MS_VAR_ARGS(v), u ? "\"" : "", u ? u : "(none)",
                              u ? "\"" : "", fmuc_ms__name(ref), (unsigned)ref->line,
                              ref_unit ? "\"" : "", ref_unit ? ref_unit : "(none)",
                              ref_unit ? "\"" : "");
    }
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    ctx c = {res, NULL, 0};
    if (md->ntypes) {
        c.types = malloc(md->ntypes * sizeof *c.types);
        if (!c.types) {
            fmuc_result_error(res, "out of memory");
            return;
        }
        for (size_t i = 0; i < md->ntypes; i++)
            if (md->types[i].name)
                c.types[c.ntypes++] = &md->types[i];
        qsort(c.types, c.ntypes, sizeof *c.types, cmp_type);
    }
    long sets = fmuc_ms__alias_sets_of(s, on_set, &c);
    if (sets < 0)
        fmuc_result_error(res, "out of memory");
    else if (sets == 0)
        fmuc_result_na(res, "no alias variables (every valueReference is unique per base type)");
    free(c.types);
}

const fmuc_check fmuc_check_md_alias_units = {
    .id = "md-alias-units",
    .title = "Real aliases have the same unit, or none",
    .spec = "FMI 2.0.4 §2.2.7",
    .level = FMUC_LEVEL_MUST,
    .why = "An importer converts values of aliased variables with their units; different units on "
           "one stored value make it show or pass the same number as two different physical "
           "quantities.",
    .fix = "Give all members of a Real alias set the same unit (or none); use displayUnit where a "
           "member should be shown in another unit.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
