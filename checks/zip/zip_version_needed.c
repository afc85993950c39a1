/* zip-version-needed: "version needed to extract" of every entry is at most 2.0, hence no ZIP64
 * (FMI 2.0.4 §2.3, A-04). */
#include "check.h"
#include "zip_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_zip_listing *l = &s->fmu->listing;
    char shown[512];
    if (l->zip64)
        ZIPU_VIOLATION(s, res, "the archive uses ZIP64 records (needs ZIP version 4.5)");
    for (size_t i = 0; i < l->nentries; i++) {
        const fmuc_zip_entry *e = &l->entries[i];
        /* The low byte is the version (major*10 + minor); the high byte is not a version. */
        unsigned v = e->version_needed & 0xffu;
        if (v > 20)
            ZIPU_VIOLATION(s, res, "entry '%s': version needed to extract is %u.%u (> 2.0)",
                                  zipu_show(shown, sizeof shown, e->name), v / 10, v % 10);
    }
}

const fmuc_check fmuc_check_zip_version_needed = {
    .id = "zip-version-needed",
    .title = "Entries need at most ZIP version 2.0 to extract (no ZIP64)",
    .spec = "FMI 2.0.4 §2.3; FMI 3.0.2 §2.5; FMI 1.0 ME (FMU distribution; a heuristic in 1.0)",
    .level = FMUC_LEVEL_MUST,
    .why = "An entry that needs a ZIP version above 2.0 (e.g. ZIP64) is beyond what FMI 2.0 "
           "allows; importers with plain ZIP 2.0 readers cannot open such an FMU.",
    .fix = "Write the archive with ZIP 2.0 features only: no ZIP64 (entries under 4 GiB, e.g. "
           "Python zipfile with allowZip64=False), no newer compression or encryption.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_ARCHIVE,
    .run = run,
};
