/* zip-fmu-file: the FMU is a ZIP file whose name ends in ".fmu" and that holds one FMU, not
 * several side by side (FMI 2.0.4 §2.3, A-01). A second FMU is recognised as a modelDescription.xml
 * in a top-level folder that is not one of the standard FMU folders. */
#include <string.h>

#include "check.h"
#include "zip_util.h"

static int standard_folder(const char *top)
{
    static const char *const std[] = {"binaries", "sources", "resources", "documentation",
                                      "extra", "terminalsAndIcons"};
    for (size_t i = 0; i < sizeof std / sizeof std[0]; i++)
        if (strcmp(std[i], top) == 0)
            return 1;
    return 0;
}

/* FMI 1.0: the headers describe MODEL_IDENTIFIER as "the short name of the model used as the
 * name of the zip-file where the model is stored" (fmiModelFunctions.h). A description, not a
 * requirement of the text, and users rename files: a note (FMPy does not compare them either). */
static void fmi1_file_name(const fmuc_subject *s, const char *name, fmuc_result *res)
{
    const fmuc_fmu *fmu = s->fmu;
    const char *id = fmu->md_parsed ? fmu->md.fmi1_model_identifier : NULL;
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    size_t n = strlen(base), k = id ? strlen(id) : 0;
    if (fmuc_fmu_fmi_version(fmu) != 1 || !id || !*id)
        return;
    if (n == k + 4 && strncmp(base, id, k) == 0 && strcmp(base + k, ".fmu") == 0)
        return;
    char shown[512];
    fmuc_result_note(res, "FMI 1.0: the file is '%s', the modelIdentifier '%.200s'; the FMI 1.0 "
                     "headers name the zip file after the modelIdentifier (%.200s.fmu), which "
                     "some 1.0 importers assume", zipu_show(shown, sizeof shown, base), id, id);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const char *name = s->fmu->file_name;
    const fmuc_zip_listing *l = &s->fmu->listing;
    char shown[512], top[256];
    if (name && *name) {
        size_t n = strlen(name);
        if (n <= 4 || strcmp(name + n - 4, ".fmu") != 0)
            fmuc_result_violation(res, "file name '%s' does not end in \".fmu\"",
                                  zipu_show(shown, sizeof shown, name));
        fmi1_file_name(s, name, res);
    }
    for (size_t i = 0; i < l->nentries; i++) {
        const char *e = l->entries[i].name;
        const char *slash = e ? strchr(e, '/') : NULL;
        if (!slash || strcmp(slash + 1, "modelDescription.xml") != 0)
            continue;
        zipu_component(e, 0, top, sizeof top);
        if (!standard_folder(top))
            fmuc_result_violation(res, "entry '%s': a second FMU inside the archive (one FMU per "
                                       "ZIP file)", zipu_show(shown, sizeof shown, e));
    }
}

const fmuc_check fmuc_check_zip_fmu_file = {
    .id = "zip-fmu-file",
    .title = "The FMU is one .fmu file holding one FMU",
    .spec = "FMI 2.0.4 §2.3; FMI 3.0.2 §2.5; FMI 1.0 ME (FMU distribution); FMI 1.0 CS (FMU distribution)",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers pick files by the .fmu extension and read one model from the archive root; "
           "a different name or several FMUs side by side are not loaded.",
    .fix = "Name the archive <model>.fmu and put one FMU's folders directly at its root; "
           "distribute several FMUs as separate files.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_ARCHIVE,
    .run = run,
};
