/* md-enumerations: an Enumeration SimpleType has at least one Item; Item values are unique and so
 * are Item names (the name <-> value mapping is a bijection) (FMI 2.0.4 §2.2.3, B-109;
 * VDM validEnumerationTypeBijection). */
#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    fmuc_mdu_map names = {0};
    fmuc_mdu_imap values = {0};
    size_t nenum = 0;
    for (size_t i = 0; i < md->ntypes; i++) {
        const fmuc_md_type *t = &md->types[i];
        if (t->type != FMUC_TYPE_ENUMERATION)
            continue;
        nenum++;
        const char *tn = fmuc_mdu__str(t->name);
        if (!t->nitems) {
            fmuc_result_violation(res, "line %u: Enumeration type '%.200s' has no Item",
                                  (unsigned)t->line, tn);
            continue;
        }
        fmuc_mdu__map_free(&names);
        fmuc_mdu__imap_free(&values);
        if (fmuc_mdu__map_init(&names, t->nitems) < 0 || fmuc_mdu__imap_init(&values, t->nitems) < 0)
            goto oom;
        for (size_t k = 0; k < t->nitems; k++) {
            const fmuc_md_item *it = &t->items[k];
            size_t first;
            int r;
            if (it->name) {
                if ((r = fmuc_mdu__map_put(&names, it->name, k, &first)) < 0)
                    goto oom;
                if (r == 0)
                    fmuc_result_violation(res, "line %u: Enumeration type '%.200s': Item name=\"%.200s\" "
                                          "repeats the Item at line %u", (unsigned)it->line, tn,
                                          it->name, (unsigned)t->items[first].line);
            }
            if (it->has_value) {
                if ((r = fmuc_mdu__imap_put(&values, (uint64_t)(int64_t)it->value, k, &first)) < 0)
                    goto oom;
                if (r == 0)
                    fmuc_result_violation(res, "line %u: Enumeration type '%.200s': Item '%.200s' "
                                          "value=\"%lld\" repeats the value of Item '%.200s' (line %u)",
                                          (unsigned)it->line, tn, fmuc_mdu__str(it->name),
                                          (long long)it->value,
                                          fmuc_mdu__str(t->items[first].name),
                                          (unsigned)t->items[first].line);
            }
        }
    }
    if (!nenum)
        fmuc_result_na(res, "no Enumeration type defined");
    goto out;
oom:
    fmuc_result_error(res, "out of memory");
out:
    fmuc_mdu__map_free(&names);
    fmuc_mdu__imap_free(&values);
}

const fmuc_check fmuc_check_md_enumerations = {
    .id = "md-enumerations",
    .title = "enumeration types have unique item names and values",
    .spec = "FMI 2.0.4 §2.2.3; FMI 3.0.2 §2.4.4; FMI 1.0 ME (fmiType.xsd Item; values are positions)",
    .level = FMUC_LEVEL_MUST,
    .why = "Enumeration values are exchanged as integers and shown by item name; duplicate names "
           "or values make the mapping ambiguous, so a user picks one item and the model receives "
           "another.",
    .fix = "Give every Enumeration type at least one Item, with names and values that are unique "
           "within the type.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
