/* load-binary-arch: the real architecture of each shared library matches its platform folder:
 * ELF class and e_machine for linux folders, PE Machine for win folders, Mach-O cputype for darwin
 * folders (FMI 2.0.4 §2.3: "32"/"64" mean 32/64-bit x86; A-16). Reads the first bytes of every
 * library from the archive, for all platforms, not only this host's. FMI 3.0: the folders are
 * platform tuples (x86_64-linux, aarch64-darwin, ...: FMI 3.0.2 §2.5.1.4.1, fmi3-rules A-16). */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "fmuc/fmuc_elf.h"
#include "zip/zip_util.h"

static const char *format_name(fmuc_bin_format f)
{
    switch (f) {
    case FMUC_BIN_ELF: return "ELF";
    case FMUC_BIN_PE: return "PE";
    case FMUC_BIN_MACHO: return "Mach-O";
    case FMUC_BIN_MACHO_FAT: return "universal Mach-O";
    default: return "unknown";
    }
}

static const char *ext_of(fmuc_bin_format f)
{
    return f == FMUC_BIN_ELF ? ".so" : f == FMUC_BIN_PE ? ".dll" : ".dylib";
}

static int is_library(const char *base, fmuc_bin_format f)
{
    size_t n = strlen(base), e = strlen(ext_of(f));
    if (n > e && strcmp(base + n - e, ext_of(f)) == 0)
        return 1;
    return f == FMUC_BIN_ELF && strstr(base, ".so.") != NULL;
}

static void describe(char *buf, size_t n, const fmuc_bin_header *h)
{
    if (h->format == FMUC_BIN_ELF) {
        const char *m = fmuc_elf_machine_name(h->machine);
        snprintf(buf, n, "ELF %d-bit, e_machine %u (%s)", h->bits, (unsigned)h->machine,
                 m ? m : "unknown");
    } else if (h->format == FMUC_BIN_MACHO_FAT) {
        snprintf(buf, n, "universal Mach-O with %zu architecture(s)", h->nslices);
    } else {
        snprintf(buf, n, "%s %d-bit, machine 0x%x", format_name(h->format), h->bits,
                 (unsigned)h->machine);
    }
}

/* A wrong library in another platform's folder, while this host's folder has a library of its
 * own (judged by the same check), cannot break an importer on this platform: a violation of the
 * letter (interop warns). In this host's folder, or when the FMU has no library for this host,
 * it is a failure. */
#define ARCH_VIOLATION(letter, ...)                                                           \
    do {                                                                                      \
        char m_[1024];                                                                        \
        snprintf(m_, sizeof m_, __VA_ARGS__);                                                 \
        if (letter)                                                                           \
            fmuc_result_violation_letter(res, "%s (not this host's platform %s, which has "   \
                                         "its own library)", m_, host);                       \
        else                                                                                  \
            fmuc_result_violation(res, "%s", m_);                                             \
    } while (0)

/* Does binaries/<host>/ hold a shared library? */
static int host_has_library(const fmuc_zip_listing *l, const char *host)
{
    fmuc_bin_format fmt;
    int bits;
    uint32_t machine;
    char plat[256];
    if (!fmuc_platform_arch(host, &fmt, &bits, &machine))
        return 0;
    for (size_t i = 0; i < l->nentries; i++) {
        const fmuc_zip_entry *e = &l->entries[i];
        if (!zipu_under(e->name, "binaries/") || zipu_is_dir(e) ||
            !zipu_component(e->name, 1, plat, sizeof plat) || strcmp(plat, host) != 0)
            continue;
        const char *base = e->name + strlen("binaries/") + strlen(plat);
        if (*base == '/' && !strchr(base + 1, '/') && is_library(base + 1, fmt) && e->size > 0)
            return 1;
    }
    return 0;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_fmu *fmu = s->fmu;
    const fmuc_zip_listing *l = &fmu->listing;
    char shown[512], plat[256], got[160];
    size_t checked = 0;
    if (l->problems & FMUC_ZIP_UNSAFE) {
        fmuc_result_na(res, "the archive was rejected as unsafe");
        return;
    }
    const char *host = fmuc_host_platform_for(fmu->md.fmi == FMUC_FMI3 ? 3 : 2);
    int host_lib = host_has_library(l, host);
    for (size_t i = 0; i < l->nentries; i++) {
        const fmuc_zip_entry *e = &l->entries[i];
        fmuc_bin_format want_fmt;
        int want_bits;
        uint32_t want_machine;
        if (!zipu_under(e->name, "binaries/") || zipu_is_dir(e) ||
            !zipu_component(e->name, 1, plat, sizeof plat) ||
            !fmuc_platform_arch(plat, &want_fmt, &want_bits, &want_machine))
            continue;
        const char *base = e->name + strlen("binaries/") + strlen(plat);
        if (*base != '/' || strchr(base + 1, '/') || !is_library(base + 1, want_fmt))
            continue;
        zipu_show(shown, sizeof shown, e->name);
        checked++;
        int letter = host_lib && strcmp(plat, host) != 0;
        if (e->size == 0) {
            ARCH_VIOLATION(letter, "%s is empty; %s needs a %s library", shown, plat,
                                  format_name(want_fmt));
            continue;
        }
        fmuc_bin_header h;
        fmuc_diag diag = {0};
        if (fmuc_bin_header_from_zip(&h, fmu->path, e->name, &diag) < 0) {
            fmuc_result_error(res, "%s: cannot read its header: %s", shown, diag.msg);
            continue;
        }
        describe(got, sizeof got, &h);
        int fmt_ok = h.format == want_fmt || (want_fmt == FMUC_BIN_MACHO && h.format == FMUC_BIN_MACHO_FAT);
        if (!fmt_ok) {
            ARCH_VIOLATION(letter, "%s is not a %s file (%s); platform folder %s needs %s",
                                  shown, format_name(want_fmt),
                                  h.format == FMUC_BIN_UNKNOWN ? "unknown format" : got, plat,
                                  format_name(want_fmt));
            continue;
        }
        if (h.format == FMUC_BIN_MACHO_FAT) {
            int found = 0;
            for (size_t k = 0; k < h.nslices; k++)
                found |= h.slices[k] == want_machine;
            if (!found)
                ARCH_VIOLATION(letter, "%s (%s) has no slice for the architecture of %s "
                                           "(cputype 0x%x)", shown, got, plat, (unsigned)want_machine);
            continue;
        }
        if (h.bits != want_bits || h.machine != want_machine) {
            if (want_fmt == FMUC_BIN_ELF) {
                const char *m = fmuc_elf_machine_name(want_machine);
                ARCH_VIOLATION(letter, "%s is %s; platform folder %s needs ELFCLASS%d, %s", shown,
                                      got, plat, want_bits, m ? m : "?");
            } else {
                ARCH_VIOLATION(letter, "%s is %s; platform folder %s needs %d-bit, machine 0x%x",
                                      shown, got, plat, want_bits, (unsigned)want_machine);
            }
        }
        if (want_fmt == FMUC_BIN_ELF && h.elf_type != ET_DYN)
            ARCH_VIOLATION(letter, "%s is an ELF file of type %u, not a shared object (ET_DYN)",
                                  shown, (unsigned)h.elf_type);
    }
    if (!checked)
        fmuc_result_na(res, "no shared libraries in known platform folders");
}

const fmuc_check fmuc_check_load_binary_arch = {
    .id = "load-binary-arch",
    .title = "Each library's architecture matches its platform folder",
    .spec = "FMI 2.0.4 §2.3; FMI 3.0.2 §2.5.1.4.1; FMI 1.0 ME (binaries/linux32, linux64: shared "
            "libraries of the platform); FMI 1.0 CS (the same)",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_SOME,
    .interop_why = "a wrong library in another platform's folder, beside a library for this "
                   "host's platform, cannot break an importer on this platform",
    .why = "An importer picks the library by its platform folder; a 32-bit or "
           "foreign-architecture library in the wrong folder fails to load there although the FMU "
           "claims that platform.",
    .fix = "Build each library for the platform its folder names (linux64: x86-64 ELF, win32: "
           "i386 PE, ...) and put it in the matching folder of binaries/.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_ARCHIVE,
    .run = run,
};
