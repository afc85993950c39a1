/* zip-links: the archive holds no links (entries whose Unix mode is a symlink)
 * (FMI 2.0.4 §2.3, A-07). */
#include <sys/stat.h>

#include "check.h"
#include "zip_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_zip_listing *l = &s->fmu->listing;
    char shown[512];
    for (size_t i = 0; i < l->nentries; i++) {
        const fmuc_zip_entry *e = &l->entries[i];
        unsigned mode = e->external_attr >> 16;
        /* made-by 3 is Unix; 19 (OS X) also carries Unix modes in the high half. */
        int unix_link = (e->made_by_os == 3 || e->made_by_os == 19) && S_ISLNK(mode);
        if (unix_link || (e->problems & FMUC_ZIP_SYMLINK))
            ZIPU_VIOLATION(s, res, "entry '%s' is a symbolic link (mode %06o)",
                                  zipu_show(shown, sizeof shown, e->name), mode);
    }
}

const fmuc_check fmuc_check_zip_links = {
    .id = "zip-links",
    .title = "The archive contains no links",
    .spec = "FMI 2.0.4 §2.3; FMI 3.0.2 §2.5; FMI 1.0 ME (FMU distribution; a heuristic in 1.0)",
    .level = FMUC_LEVEL_MUST,
    .why = "Symbolic links in the archive are extracted as plain files, dropped or followed "
           "outside the target folder depending on the tool, so the FMU breaks or becomes unsafe.",
    .fix = "Replace links with copies of the files they point to before zipping (zip without -y).",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_ARCHIVE,
    .run = run,
};
