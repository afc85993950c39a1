/* zip-non-ascii-names: entry names should be ASCII; other names are allowed but discouraged
 * (FMI 2.0.4 §2.3, A-10). */
#include "check.h"
#include "zip_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_zip_listing *l = &s->fmu->listing;
    char shown[512];
    for (size_t i = 0; i < l->nentries; i++) {
        const fmuc_zip_entry *e = &l->entries[i];
        int non_ascii = 0;
        for (const unsigned char *p = (const unsigned char *)(e->name ? e->name : ""); *p; p++)
            if (*p >= 0x80)
                non_ascii = 1;
        if (non_ascii)
            fmuc_result_violation(res, "entry '%s': non-ASCII characters in the name%s",
                                  zipu_show(shown, sizeof shown, e->name),
                                  (e->flags & 0x0800u) ? " (marked UTF-8)"
                                                       : " (not marked UTF-8: code page unknown)");
    }
}

const fmuc_check fmuc_check_zip_non_ascii_names = {
    .id = "zip-non-ascii-names",
    .title = "Entry names are ASCII",
    .spec = "FMI 2.0.4 §2.3; FMI 3.0.2 §2.5; FMI 1.0 ME (FMU distribution; a heuristic in 1.0)",
    .level = FMUC_LEVEL_SHOULD,
    .why = "Non-ASCII entry names are encoded differently by zip tools and file systems; an "
           "importer may extract them under garbled names and not find the files.",
    .fix = "Rename files in the archive to ASCII names, e.g. replacing umlauts and spaces, and "
           "update references to them.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_ARCHIVE,
    .run = run,
};
