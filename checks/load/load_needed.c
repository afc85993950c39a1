/* load-needed: every DT_NEEDED of the platform's libraries is a library of a plain Debian
 * system (glibc, libgcc_s, libstdc++, zlib) or a file shipped in the same binaries folder (found
 * through an $ORIGIN RPATH/RUNPATH), and none names a path outside the FMU (FMI 2.0.4 §2.3, A-27:
 * libraries should be self-contained). */
#include <string.h>

#include "fmuc/fmuc_elf.h"
#include "load_util.h"
#include "zip/zip_util.h"

static const char *const base_libs[] = {
    "libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1", "libutil.so.1",
    "libresolv.so.2", "libanl.so.1", "libmvec.so.1", "libcrypt.so.1", "libgcc_s.so.1",
    "libstdc++.so.6", "libz.so.1", "ld-linux-x86-64.so.2", "ld-linux.so.2",
    "ld-linux-aarch64.so.1", "ld-linux-armhf.so.3", "linux-vdso.so.1",
};

static int is_base(const char *n)
{
    for (size_t i = 0; i < sizeof base_libs / sizeof base_libs[0]; i++)
        if (strcmp(base_libs[i], n) == 0)
            return 1;
    return 0;
}

static int has_origin(const char *list)
{
    return list && (strstr(list, "$ORIGIN") || strstr(list, "${ORIGIN}"));
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_fmu *fmu = s->fmu;
    const fmuc_zip_listing *l = &fmu->listing;
    const char *plat = fmu->platform ? fmu->platform : fmuc_host_platform();
    char path[4096], shown[512], shipped[600];
    size_t checked = 0;
    for (size_t i = 0; i < l->nentries; i++) {
        const fmuc_zip_entry *e = &l->entries[i];
        if (!loadu_host_file(fmu, e, path, sizeof path))
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
        for (size_t k = 0; k < info.nneeded; k++) {
            const char *n = info.needed[k];
            char nshown[512];
            zipu_show(nshown, sizeof nshown, n);
            if (strchr(n, '/')) {
                fmuc_result_violation(res, "%s: DT_NEEDED \"%s\" is a path, it points outside the FMU",
                                      shown, nshown);
                continue;
            }
            if (is_base(n))
                continue;
            snprintf(shipped, sizeof shipped, "binaries/%s/%s", plat, n);
            if (zipu_find(l, shipped)) {
                if (!has_origin(info.runpath) && !has_origin(info.rpath))
                    fmuc_result_violation(res, "%s: DT_NEEDED \"%s\" is shipped next to it, but "
                                               "there is no $ORIGIN RPATH/RUNPATH, so the loader "
                                               "will not find it", shown, nshown);
                continue;
            }
            fmuc_result_violation(res, "%s: DT_NEEDED \"%s\" is neither a base system library "
                                       "(glibc, libgcc_s, libstdc++, zlib) nor shipped in "
                                       "binaries/%s/", shown, nshown, plat);
        }
        fmuc_elf_free(&info);
    }
    if (!checked)
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
