/* load-needed: every DT_NEEDED of the platform's libraries is a library of a plain Debian
 * system (glibc, libgcc_s, libstdc++, zlib) or a file shipped in the same binaries folder (found
 * through an $ORIGIN RPATH/RUNPATH), and none names a path outside the FMU (FMI 2.0.4 §2.3, A-27:
 * libraries should be self-contained). */
#include <string.h>

#include "load_util.h"

/* one DT_NEEDED entry, judged */
static void judge(void *user, const char *file, const char *needed, loadu_needed_kind kind)
{
    fmuc_result *res = user;
    char shown[512], nshown[512];
    zipu_show(shown, sizeof shown, file);
    zipu_show(nshown, sizeof nshown, needed);
    switch (kind) {
    case LOADU_NEEDED_PATH:
        fmuc_result_violation(res, "%s: DT_NEEDED \"%s\" is a path, it points outside the FMU",
                              shown, nshown);
        break;
    case LOADU_NEEDED_SHIPPED_NO_ORIGIN:
        fmuc_result_violation(res, "%s: DT_NEEDED \"%s\" is shipped next to it, but there is no "
                                   "$ORIGIN RPATH/RUNPATH, so the loader will not find it",
                              shown, nshown);
        break;
    case LOADU_NEEDED_EXTERNAL: {
        const char *slash = strrchr(file, '/');
        fmuc_result_violation(res, "%s: DT_NEEDED \"%s\" is neither a base system library "
                                   "(glibc, libgcc_s, libstdc++, zlib) nor shipped in %.*s/",
                              shown, nshown, slash ? (int)(slash - file) : 0, file);
        break;
    }
    default:
        break;
    }
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    if (!loadu_each_needed(s->fmu, judge, res, res))
        fmuc_result_na(res, "no ELF files in the platform folder");
}

const fmuc_check fmuc_check_load_needed = {
    .id = "load-needed",
    .title = "Library dependencies are base system libraries or shipped in the FMU",
    .spec = "FMI 2.0.4 §2.3; FMI 3.0.2 §2.5.1.4 (binaries/<platform tuple>: shared libraries of the "
            "platform); FMI 1.0 ME (binaries/linux32, linux64: shared libraries of the platform); "
            "FMI 1.0 CS (the same)",
    .level = FMUC_LEVEL_SHOULD,
    .why = "A library that needs a shared library which is neither part of a base system nor "
           "shipped in the FMU fails to load on machines that lack it, e.g. a cluster or a "
           "customer's PC.",
    .fix = "Link dependencies statically or ship them in the same binaries/<platform> folder with "
           "RPATH=$ORIGIN, and document any run-time library that cannot be shipped.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY,
    .run = run,
};
