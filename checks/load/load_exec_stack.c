/* load-exec-stack: no shared library of this platform asks for an executable stack
 * (PT_GNU_STACK with PF_X, or no PT_GNU_STACK at all): loading it would make the importer's whole
 * process stack executable, and newer glibc refuses such libraries (hardening; FMI 2.0.4 §2.3,
 * A-27 self-contained, portable libraries). */
#include "fmuc/fmuc_elf.h"
#include "load_util.h"
#include "zip/zip_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_zip_listing *l = &s->fmu->listing;
    char path[4096], shown[512];
    size_t checked = 0;
    for (size_t i = 0; i < l->nentries; i++) {
        const fmuc_zip_entry *e = &l->entries[i];
        if (!loadu_host_file(s->fmu, e, path, sizeof path))
            continue;
        fmuc_elf_info info;
        fmuc_diag diag = {0};
        fmuc_err err = fmuc_elf_parse_file(&info, path, 0, &diag);
        zipu_show(shown, sizeof shown, e->name);
        if (err == FMUC_EINPUT) {
            fmuc_elf_free(&info);
            continue; /* not ELF: load-binary-arch judges library files */
        }
        checked++;
        if (err < 0)
            fmuc_result_note(res, "%s: %s", shown, diag.msg);
        else if (!info.has_gnu_stack)
            fmuc_result_violation(res, "%s has no PT_GNU_STACK program header: the loader assumes "
                                       "it needs an executable stack (link with -z noexecstack)",
                                  shown);
        else if (info.exec_stack)
            fmuc_result_violation(res, "%s requests an executable stack (PT_GNU_STACK flags RWX); "
                                       "link with -z noexecstack", shown);
        fmuc_elf_free(&info);
    }
    if (!checked)
        fmuc_result_na(res, "no ELF files in the platform folder");
}

const fmuc_check fmuc_check_load_exec_stack = {
    .id = "load-exec-stack",
    .title = "Libraries do not require an executable stack",
    .spec = "FMI 2.0.4 §2.3; FMI 3.0.2 §2.5.1.4 (binaries/<platform tuple>: shared libraries of the "
            "platform); FMI 1.0 ME (binaries/linux32, linux64: shared libraries of the platform); "
            "FMI 1.0 CS (the same)",
    .level = FMUC_LEVEL_SHOULD,
    .why = "Loading a library that asks for an executable stack makes the importer's whole "
           "process stack executable, and recent glibc versions refuse to load such a library at "
           "all.",
    .fix = "Link with -Wl,-z,noexecstack and mark assembly sources with a .note.GNU-stack "
           "section; rebuild any static dependency that lacks that note.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY,
    .run = run,
};
