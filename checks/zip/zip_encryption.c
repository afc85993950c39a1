/* zip-encryption: no entry is encrypted (flag bits 0 and 6 clear) (FMI 2.0.4 §2.3, A-05). */
#include "check.h"
#include "zip_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_zip_listing *l = &s->fmu->listing;
    char shown[512];
    for (size_t i = 0; i < l->nentries; i++) {
        const fmuc_zip_entry *e = &l->entries[i];
        if ((e->flags & 0x0041u) || (e->problems & FMUC_ZIP_ENCRYPTED) || e->method == 99)
            ZIPU_VIOLATION(s, res, "entry '%s' is encrypted (flags 0x%04x, method %u)",
                                  zipu_show(shown, sizeof shown, e->name), (unsigned)e->flags,
                                  (unsigned)e->method);
    }
}

const fmuc_check fmuc_check_zip_encryption = {
    .id = "zip-encryption",
    .title = "No archive entry is encrypted",
    .spec = "FMI 2.0.4 §2.3; FMI 3.0.2 §2.5; FMI 1.0 ME (FMU distribution; a heuristic in 1.0)",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers cannot extract encrypted entries: they have no password, so the FMU cannot "
           "be loaded at all.",
    .fix = "Repack the FMU without encryption; protect intellectual property with binary-only "
           "export instead.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_ARCHIVE,
    .run = run,
};
