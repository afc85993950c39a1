/* zip-model-description-present: modelDescription.xml at the archive root (FMI 2.0.4 §2.3, A-11). */
#include <string.h>
#include <strings.h>

#include "check.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_fmu *fmu = s->fmu;
    if (fmu->has_md_file)
        return;
    const fmuc_zip_listing *l = &fmu->listing;
    /* A rejected archive is listed but not read (has_md_file 0): judge by the listing. */
    for (size_t i = 0; i < l->nentries; i++)
        if (l->entries[i].name && strcmp(l->entries[i].name, "modelDescription.xml") == 0)
            return;
    for (size_t i = 0; i < l->nentries; i++) {
        const char *n = l->entries[i].name;
        if (n && strcasecmp(n, "modelDescription.xml") == 0) {
            fmuc_result_violation(res,
                                  "archive has '%s' but the name must be exactly "
                                  "'modelDescription.xml' (case-sensitive)",
                                  n);
            return;
        }
    }
    fmuc_result_violation(res, "modelDescription.xml is missing at the archive root (%zu entries)",
                          l->nentries);
}

const fmuc_check fmuc_check_zip_model_description_present = {
    .id = "zip-model-description-present",
    .title = "modelDescription.xml is present at the archive root",
    .spec = "FMI 2.0.4 §2.3; FMI 3.0.2 §2.5.1; FMI 1.0 ME (FMU distribution); FMI 1.0 CS (FMU distribution)",
    .level = FMUC_LEVEL_MUST,
    .why = "Every importer reads modelDescription.xml from the archive root first; without it, or "
           "with it in a subfolder, the FMU cannot be opened at all.",
    .fix = "Put modelDescription.xml at the root of the archive, zipping the contents of the FMU "
           "folder and not the folder itself.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_ARCHIVE,
    .run = run,
};
