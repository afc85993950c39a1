/* load-rpath: DT_RPATH / DT_RUNPATH of the platform's libraries hold only $ORIGIN-relative
 * entries; an absolute path points into the build host and a plain relative one resolves against
 * the importer's working directory (FMI 2.0.4 §2.3, A-27: "RPATH=$ORIGIN"). */
#include <string.h>

#include "fmuc/fmuc_elf.h"
#include "load_util.h"
#include "zip/zip_util.h"

static void check_list(const char *shown, const char *tag, const char *list, fmuc_result *res)
{
    const char *p = list;
    for (;;) {
        size_t len = strcspn(p, ":");
        int origin = (len >= 7 && strncmp(p, "$ORIGIN", 7) == 0 && (len == 7 || p[7] == '/')) ||
                     (len >= 9 && strncmp(p, "${ORIGIN}", 9) == 0 && (len == 9 || p[9] == '/'));
        if (!origin) {
            if (len == 0)
                fmuc_result_violation(res, "%s: %s \"%s\" has an empty entry (the current working "
                                           "directory)", shown, tag, list);
            else if (p[0] == '/')
                fmuc_result_violation(res, "%s: %s entry \"%.*s\" is an absolute path of the build "
                                           "host; use $ORIGIN-relative paths", shown, tag, (int)len, p);
            else
                fmuc_result_violation(res, "%s: %s entry \"%.*s\" is relative to the importer's "
                                           "working directory; use $ORIGIN-relative paths", shown, tag,
                                      (int)len, p);
        }
        if (!p[len])
            break;
        p += len + 1;
    }
}

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
            continue;
        }
        checked++;
        if (err < 0)
            fmuc_result_note(res, "%s: %s", shown, diag.msg);
        if (info.rpath)
            check_list(shown, "DT_RPATH", info.rpath, res);
        if (info.runpath)
            check_list(shown, "DT_RUNPATH", info.runpath, res);
        fmuc_elf_free(&info);
    }
    if (!checked)
        fmuc_result_na(res, "no ELF files in the platform folder");
}

const fmuc_check fmuc_check_load_rpath = {
    .id = "load-rpath",
    .title = "RPATH/RUNPATH entries are $ORIGIN-relative",
    .spec = "FMI 2.0.4 §2.3; FMI 3.0.2 §2.5.1.4 (binaries/<platform tuple>: shared libraries of the "
            "platform); FMI 1.0 ME (binaries/linux32, linux64: shared libraries of the platform); "
            "FMI 1.0 CS (the same)",
    .level = FMUC_LEVEL_SHOULD,
    .why = "An absolute RPATH points into the build machine and a plain relative one depends on "
           "the importer's working directory: dependencies are found by chance or not at all.",
    .fix = "Link with -Wl,-rpath,'$ORIGIN' (relative paths only from $ORIGIN) and remove "
           "build-host paths, e.g. with patchelf --set-rpath '$ORIGIN'.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY,
    .run = run,
};
