/* md-var-enumeration-start: the start value of an Enumeration variable is the value of one of its
 * type's Items (FMI 2.0.4 §2.2.7, B-213: derived, so a warning). */
#include "check.h"
#include "md_util.h"

static uint64_t key(size_t type_index, int64_t value)
{
    return ((uint64_t)type_index << 32) | (uint32_t)value;
}

/* Is v the value of an Item of t? The map is keyed by the low 32 bits (FMI 3.0 values are
 * xs:long): a hit is confirmed on the Item it names; anything else is searched. */
static int is_item(const fmuc_mdu_imap *items, const fmuc_md_type *t, size_t ti, double v)
{
    if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0) || (double)(int64_t)v != v)
        return 0;
    int64_t x = (int64_t)v;
    size_t k;
    if (fmuc_mdu__imap_get(items, key(ti, x), &k) && k < t->nitems && t->items[k].value == x)
        return 1;
    for (k = 0; k < t->nitems; k++)
        if (t->items[k].has_value && t->items[k].value == x)
            return 1;
    return 0;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    fmuc_mdu_map types = {0};
    fmuc_mdu_imap items = {0};
    char d[FMUC_MDU_DESC_LEN];
    size_t nitems = 0, nchecked = 0;
    for (size_t i = 0; i < md->ntypes; i++)
        if (md->types[i].type == FMUC_TYPE_ENUMERATION)
            nitems += md->types[i].nitems;
    if (fmuc_mdu__types_map(&types, md) < 0 || fmuc_mdu__imap_init(&items, nitems) < 0)
        goto oom;
    for (size_t i = 0; i < md->ntypes; i++) {
        const fmuc_md_type *t = &md->types[i];
        if (t->type != FMUC_TYPE_ENUMERATION)
            continue;
        for (size_t k = 0; k < t->nitems; k++)
            if (t->items[k].has_value &&
                fmuc_mdu__imap_put(&items, key(i, t->items[k].value), k, NULL) < 0)
                goto oom;
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (v->type != FMUC_TYPE_ENUMERATION || !(v->has & FMUC_HAS_START))
            continue;
        const fmuc_md_type *t = fmuc_mdu__var_type(md, &types, v);
        if (!t || t->type != FMUC_TYPE_ENUMERATION || !t->nitems)
            continue; /* md-var-declared-type / md-enumerations */
        nchecked++;
        if (!is_item(&items, t, (size_t)(t - md->types), v->start))
            fmuc_result_violation(res, "%s: start=\"%.100s\" is not the value of an Item of "
                                  "Enumeration type '%.200s' (line %u)",
                                  fmuc_mdu__var_desc(d, sizeof d, v), fmuc_mdu__str(v->start_text),
                                  v->declared_type, (unsigned)t->line);
    }
    if (!nchecked)
        fmuc_result_na(res, "no Enumeration variable with a start value");
    goto out;
oom:
    fmuc_result_error(res, "out of memory");
out:
    fmuc_mdu__map_free(&types);
    fmuc_mdu__imap_free(&items);
}

const fmuc_check fmuc_check_md_var_enumeration_start = {
    .id = "md-var-enumeration-start",
    .title = "Enumeration start values are item values",
    .spec = "FMI 2.0.4 §2.2.7; FMI 3.0.2 §2.4.7.5, §2.4.4; FMI 1.0 ME (TypeDefinitions: item value = position; derived)",
    .level = FMUC_LEVEL_SHOULD,
    .why = "A start value that is not one of the type's item values puts the model in a state no "
           "item describes; importers show no name for it and may reject it on fmi2SetInteger.",
    .fix = "Set the start of each Enumeration variable to the value of one of its type's Items.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
