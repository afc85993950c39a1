/* zip-path-syntax: entry names use '/' as separator only, are relative, and carry no drive
 * letter (FMI 2.0.4 §2.3 referring to ZIP APPNOTE §4.4.17, A-08). */
#include <ctype.h>
#include <string.h>

#include "check.h"
#include "zip_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_zip_listing *l = &s->fmu->listing;
    char shown[512];
    for (size_t i = 0; i < l->nentries; i++) {
        const fmuc_zip_entry *e = &l->entries[i];
        const char *n = e->name ? e->name : "";
        zipu_show(shown, sizeof shown, n);
        if (strchr(n, '\\') || (e->problems & FMUC_ZIP_BACKSLASH))
            fmuc_result_violation(res, "entry '%s': backslash in the name; the separator must be '/'",
                                  shown);
        if (n[0] == '/')
            fmuc_result_violation(res, "entry '%s': absolute path (leading '/')", shown);
        else if (isalpha((unsigned char)n[0]) && n[1] == ':')
            fmuc_result_violation(res, "entry '%s': drive letter in the name", shown);
        else if (e->problems & FMUC_ZIP_ABSOLUTE)
            fmuc_result_violation(res, "entry '%s': absolute path", shown);
    }
}

const fmuc_check fmuc_check_zip_path_syntax = {
    .id = "zip-path-syntax",
    .title = "Entry names are relative and use '/' separators only",
    .spec = "FMI 2.0.4 §2.3; FMI 3.0.2 §2.5; FMI 1.0 ME (FMU distribution: a ZIP file; APPNOTE 4.4.17)",
    .level = FMUC_LEVEL_MUST,
    .why = "Entries with backslashes, absolute paths or drive letters are extracted into wrong "
           "places or as files with backslashes in their names, depending on the platform.",
    .fix = "Write entry names relative to the archive root with '/' as separator, e.g. by zipping "
           "with a tool that normalises Windows paths.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_ARCHIVE,
    .run = run,
};
