/* zip-case-collision: no two entry names differ only in letter case. FMUs are unpacked on
 * case-insensitive file systems too (Windows, macOS), where such entries overwrite each other, so
 * what an importer sees depends on its platform (derived from FMI 2.0.4 §2.3; SHOULD). The same
 * holds for a name stored twice where fmucheck reads nothing (a folder entry, extra/ ...: which
 * copy an unpacker keeps depends on the tool); twice where it reads or extracts, the archive is
 * refused as unsafe before any check. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "check.h"
#include "zip_util.h"

static int cmp_ci(const void *a, const void *b, void *ctx)
{
    const fmuc_zip_entry *e = ctx;
    int c = strcasecmp(e[*(const size_t *)a].name, e[*(const size_t *)b].name);
    return c ? c : strcmp(e[*(const size_t *)a].name, e[*(const size_t *)b].name);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_zip_listing *l = &s->fmu->listing;
    size_t n = 0, ndup = 0;
    char a[512], b[512];
    for (size_t i = 0; i < l->nentries; i++) {
        uint32_t pr = l->entries[i].problems;
        if (!(pr & (FMUC_ZIP_DUPLICATE_OTHER | FMUC_ZIP_DUPLICATE)))
            continue;
        int first = 1; /* one message per name, at its first copy */
        for (size_t j = 0; j < i && first; j++)
            first = strcmp(l->entries[j].name, l->entries[i].name) != 0;
        if (first && ndup++ < 20)
            fmuc_result_violation(res,
                                  "entry '%s' is stored more than once: which copy an unpacker "
                                  "keeps depends on the tool%s",
                                  zipu_show(a, sizeof a, l->entries[i].name),
                                  pr & FMUC_ZIP_DUPLICATE
                                      ? " (an entry an importer reads: fmucheck refuses the "
                                        "archive)"
                                      : "");
    }
    if (ndup > 20)
        fmuc_result_note(res, "%zu more names stored more than once", ndup - 20);
    for (size_t i = 0; i < l->nentries; i++)
        n += (l->entries[i].problems & FMUC_ZIP_CASE_COLLISION) != 0;
    if (n == 0)
        return;
    size_t *ix = malloc(n * sizeof *ix);
    if (!ix) {
        fmuc_result_error(res, "out of memory");
        return;
    }
    size_t k = 0;
    for (size_t i = 0; i < l->nentries; i++)
        if (l->entries[i].problems & FMUC_ZIP_CASE_COLLISION)
            ix[k++] = i;
    /* sorted case-insensitively, colliding names are neighbours: one message per group */
    qsort_r(ix, n, sizeof *ix, cmp_ci, l->entries);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && strcasecmp(l->entries[ix[i]].name, l->entries[ix[j]].name) == 0)
            j++;
        if (j - i >= 2)
            fmuc_result_violation(res,
                                  "entries '%s' and '%s'%s differ only in letter case: on a "
                                  "case-insensitive file system one overwrites the other",
                                  zipu_show(a, sizeof a, l->entries[ix[i]].name),
                                  zipu_show(b, sizeof b, l->entries[ix[i + 1]].name),
                                  j - i > 2 ? " (and more)" : "");
        i = j;
    }
    free(ix);
}

const fmuc_check fmuc_check_zip_case_collision = {
    .id = "zip-case-collision",
    .title = "No two entry names are equal or differ only in letter case",
    .spec = "FMI 2.0.4 §2.3 (derived: portable unpacking); FMI 3.0.2 §2.5 (derived); FMI 1.0 ME (FMU distribution; derived)",
    .level = FMUC_LEVEL_SHOULD,
    .why = "On case-insensitive file systems (Windows, macOS) two entries whose names differ only "
           "in case overwrite each other, so the FMU extracted there misses one of the files.",
    .fix = "Rename the colliding files so that their names differ by more than letter case.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_ARCHIVE,
    .run = run,
};
