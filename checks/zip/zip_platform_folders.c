/* zip-platform-folders: folders under binaries/ are standard FMI 2 platform names (win32, win64,
 * linux32, linux64, darwin32, darwin64), in their case, and no file sits directly in binaries/
 * (FMI 2.0.4 §2.3, A-14). Other names are allowed ("Further names can be introduced by
 * vendors"): a note, not a finding (FMI 3 platform tuples are recognised as such). */
#include <string.h>
#include <strings.h>

#include "check.h"
#include "fmuc/fmuc_elf.h"
#include "zip_util.h"

static const char *const fmi2_names[] = {"win32", "win64", "linux32", "linux64", "darwin32",
                                         "darwin64"};

/* FMI 3.0 FMUs: the tuples; an FMI 2 name is reported by the caller (fmi2_name) */
static int is_standard(const char *p, int *case_only, int fmi3, int *fmi2_name)
{
    *case_only = 0;
    *fmi2_name = 0;
    for (size_t i = 0; i < sizeof fmi2_names / sizeof fmi2_names[0]; i++) {
        if (strcmp(fmi2_names[i], p) == 0) {
            *fmi2_name = fmi3;
            return !fmi3;
        }
        if (strcasecmp(fmi2_names[i], p) == 0)
            *case_only = 1;
    }
    return fmuc_platform_is_tuple(p);
}

/* FMI 1.0 (fmi1-rules A-03): the platform folders are win32, win64, linux32 and linux64;
 * darwin32/darwin64 are customary for 1.0 (fmusdk, FMPy) and official only from 2.0 on (a note);
 * an FMI 3.0 platform tuple is no 1.0 folder, no 1.0 importer looks there (FMPy#395). 1 when
 * plat was judged here. */
static int fmi1_folder(const char *plat, fmuc_result *res)
{
    char shown[512];
    zipu_show(shown, sizeof shown, plat);
    if (strcmp(plat, "darwin32") == 0 || strcmp(plat, "darwin64") == 0) {
        fmuc_result_note(res, "platform folder 'binaries/%s/': customary for FMI 1.0 (fmusdk, "
                         "FMPy), a standard name only from FMI 2.0 on", shown);
        return 1;
    }
    if (fmuc_platform_is_tuple(plat)) {
        fmuc_result_violation(res, "platform folder 'binaries/%s/' is an FMI 3.0 platform tuple; "
                              "FMI 1.0 importers look for win32, win64, linux32 or linux64",
                              shown);
        return 1;
    }
    return 0;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_zip_listing *l = &s->fmu->listing;
    char shown[512], plat[256];
    int any = 0;
    int fmi1 = fmuc_fmu_fmi_version(s->fmu) == 1;
    int fmi3 = s->fmu->md_parsed && s->fmu->md.fmi == FMUC_FMI3;
    for (size_t i = 0; i < l->nentries; i++) {
        const fmuc_zip_entry *e = &l->entries[i];
        if (!zipu_under(e->name, "binaries/") || !zipu_component(e->name, 1, plat, sizeof plat))
            continue;
        any = 1;
        const char *rest = e->name + strlen("binaries/") + strlen(plat);
        if (*rest != '/' && !zipu_is_dir(e)) {
            fmuc_result_violation(res, "entry '%s': file directly in binaries/, not in a platform folder",
                                  zipu_show(shown, sizeof shown, e->name));
            continue;
        }
        /* Report each folder once: only at its first entry. */
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++) {
            char other[256];
            if (zipu_under(l->entries[j].name, "binaries/") &&
                zipu_component(l->entries[j].name, 1, other, sizeof other) &&
                strcmp(other, plat) == 0)
                seen = 1;
        }
        int case_only, fmi2_name;
        if (!seen && fmi1 && fmi1_folder(plat, res))
            continue;
        if (seen || is_standard(plat, &case_only, fmi3, &fmi2_name))
            continue;
        zipu_show(shown, sizeof shown, plat);
        if (fmi2_name)
            fmuc_result_violation(res, "platform folder 'binaries/%s/' has an FMI 2 platform name; "
                                       "FMI 3.0 names it by its platform tuple <arch>-<sys> "
                                       "(x86_64-windows, x86_64-linux, aarch64-darwin ...)",
                                  shown);
        else if (fmi3)
            fmuc_result_note(res, "platform folder 'binaries/%s/' is a vendor-specific name (not "
                                  "an FMI 3.0 platform tuple), which §2.5.1.4.1 allows; "
                                  "importers look for the standard tuples only",
                             shown);
        else if (case_only)
            fmuc_result_violation(res, "platform folder 'binaries/%s/': FMI 2 platform names are "
                                       "lower case (win32, win64, linux32, linux64, darwin32, darwin64)",
                                  shown);
        else
            fmuc_result_note(res, "platform folder 'binaries/%s/' is a vendor-specific name (neither "
                                  "an FMI 2 platform name nor an FMI 3 platform tuple), which §2.3 "
                                  "allows; importers look for the standard names only",
                             shown);
    }
    if (!any)
        fmuc_result_na(res, "no binaries/ folder");
}

const fmuc_check fmuc_check_zip_platform_folders = {
    .id = "zip-platform-folders",
    .title = "Platform folders under binaries/ use standard names",
    .spec = "FMI 2.0.4 §2.3; FMI 3.0.2 §2.5.1.4.1, §2.5.1.4.2; FMI 1.0 ME (FMU distribution)",
    .level = FMUC_LEVEL_SHOULD,
    .why = "Importers look for the library under a standard platform folder name; a library in a "
           "misspelled folder (Linux64) or directly in binaries/ is never found.",
    .fix = "Put libraries in binaries/win32, win64, linux32, linux64, darwin32 or darwin64, with "
           "exactly that spelling (FMI 3.0: x86_64-linux, x86_64-windows ...), and no files "
           "directly in binaries/.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_ARCHIVE,
    .run = run,
};
