/* The ELF/PE/Mach-O reader (harness/src/elf.c) on libraries built by the reference fixtures and on
 * truncated or garbled copies, and the load-* checks on constructed and on real fixture FMUs. */
#include <criterion/criterion.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "fmuc/fmuc_elf.h"
#include "fmuc_test_util.h"

static char *fixture_lib(const char *name)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/reference_fmus/fmulib/%s/SpringMassDamper.so", FMUC_BUILD_DIR,
             name);
    cr_assert(access(path, R_OK) == 0, "fixture library %s not built", path);
    return path;
}

static int has_symbol(const fmuc_elf_info *info, const char *name)
{
    for (size_t i = 0; i < info->nsymbols; i++)
        if (strcmp(info->symbols[i].name, name) == 0)
            return 1;
    return 0;
}

static int has_needed(const fmuc_elf_info *info, const char *name)
{
    for (size_t i = 0; i < info->nneeded; i++)
        if (strcmp(info->needed[i], name) == 0)
            return 1;
    return 0;
}

Test(elf, good_library)
{
    fmuc_elf_info info;
    fmuc_diag diag = {0};
    cr_assert_eq(fmuc_elf_parse_file(&info, fixture_lib("SpringMassDamper"), 0, &diag), FMUC_OK,
                 "%s", diag.msg);
    cr_expect_eq(info.header.format, FMUC_BIN_ELF);
    cr_expect_eq(info.header.bits, 64);
    cr_expect_eq(info.header.machine, EM_X86_64);
    cr_expect_eq(info.type, ET_DYN);
    cr_expect(info.has_gnu_stack);
    cr_expect(!info.exec_stack);
    cr_expect(info.has_dynamic);
    cr_expect(info.has_dynsym);
    cr_expect(has_needed(&info, "libc.so.6"));
    cr_expect(!info.rpath && !info.runpath);
    size_t fmi2 = 0;
    for (size_t i = 0; i < info.nsymbols; i++)
        fmi2 += strncmp(info.symbols[i].name, "fmi2", 4) == 0;
    cr_expect_eq(fmi2, 44);
    cr_expect(has_symbol(&info, "fmi2GetStringStatus"));
    fmuc_elf_free(&info);
}

Test(elf, fixture_defects_visible)
{
    fmuc_elf_info info;
    cr_assert_eq(fmuc_elf_parse_file(&info, fixture_lib("broken__load-exec-stack"), 0, NULL), FMUC_OK);
    cr_expect(info.exec_stack);
    fmuc_elf_free(&info);

    cr_assert_eq(fmuc_elf_parse_file(&info, fixture_lib("broken__load-rpath"), 0, NULL), FMUC_OK);
    const char *rp = info.runpath ? info.runpath : info.rpath;
    cr_expect(rp && strstr(rp, "/opt/vendor/lib"));
    fmuc_elf_free(&info);

    cr_assert_eq(fmuc_elf_parse_file(&info, fixture_lib("broken__load-needed"), 0, NULL), FMUC_OK);
    cr_expect(has_needed(&info, "libzip.so.4"));
    fmuc_elf_free(&info);

    cr_assert_eq(fmuc_elf_parse_file(&info, fixture_lib("broken__load-dlopen"), 0, NULL), FMUC_OK);
    cr_expect(has_needed(&info, "libnotthere.so"));
    fmuc_elf_free(&info);

    cr_assert_eq(fmuc_elf_parse_file(&info, fixture_lib("broken__load-only-fmi2-exports"), 0, NULL),
                 FMUC_OK);
    cr_expect(has_symbol(&info, "vd_fixture_extra_export"));
    fmuc_elf_free(&info);

    cr_assert_eq(fmuc_elf_parse_file(&info, fixture_lib("broken__load-exports"), 0, NULL), FMUC_OK);
    cr_expect(!has_symbol(&info, "fmi2GetStringStatus"));
    cr_expect(has_symbol(&info, "fmi2GetRealStatus"));
    fmuc_elf_free(&info);
}

Test(elf, not_elf_and_empty)
{
    fmuc_elf_info info;
    const unsigned char text[] = "just some text, not a library";
    cr_expect_eq(fmuc_elf_parse(&info, text, sizeof text, NULL), FMUC_EINPUT);
    fmuc_elf_free(&info);
    cr_expect_eq(fmuc_elf_parse(&info, text, 0, NULL), FMUC_EINPUT);
    fmuc_elf_free(&info);
    cr_expect_eq(fmuc_elf_parse(&info, NULL, 0, NULL), FMUC_EINPUT);
    fmuc_elf_free(&info);
    cr_expect_lt(fmuc_elf_parse_file(&info, "/nonexistent/x.so", 0, NULL), 0);
    fmuc_elf_free(&info);
    cr_expect_lt(fmuc_elf_parse_file(&info, "/", 0, NULL), 0); /* a directory */
    fmuc_elf_free(&info);
}

/* Every prefix of a real library and many corrupted copies parse without crashing (the
 * sanitizer build turns any out-of-bounds read into a failure). */
Test(elf, truncated_and_garbled_never_crash)
{
    size_t len = 0;
    unsigned char *data = (unsigned char *)fmuc_test_read_file(fixture_lib("SpringMassDamper"), &len);
    cr_assert(data && len > 4096);
    fmuc_elf_info info;
    size_t ok = 0;
    for (size_t n = 0; n < len; n += n < 4096 ? 1 : 509) {
        fmuc_err e = fmuc_elf_parse(&info, data, n, NULL);
        ok += e == FMUC_OK;
        cr_assert(e == FMUC_OK || e == FMUC_ERROR || e == FMUC_EINPUT);
        fmuc_elf_free(&info);
    }
    cr_expect_eq(fmuc_elf_parse(&info, data, len, NULL), FMUC_OK);
    fmuc_elf_free(&info);

    unsigned char *copy = malloc(len);
    cr_assert(copy);
    uint32_t seed = 12345;
    for (int round = 0; round < 400; round++) {
        memcpy(copy, data, len);
        for (int k = 0; k < 8; k++) {
            seed = seed * 1103515245u + 12345u;
            /* Mostly hit the headers and tables at the start, sometimes anywhere. */
            size_t at = (k & 1) ? (seed >> 8) % len : (seed >> 8) % 1024;
            seed = seed * 1103515245u + 12345u;
            copy[at] = (unsigned char)(seed >> 16);
        }
        fmuc_err e = fmuc_elf_parse(&info, copy, len, NULL);
        cr_assert(e == FMUC_OK || e == FMUC_ERROR || e == FMUC_EINPUT);
        for (size_t i = 0; i < info.nsymbols; i++)
            cr_assert(info.symbols[i].name);
        fmuc_elf_free(&info);
    }
    free(copy);
    free(data);
    (void)ok;
}

Test(elf, header_formats)
{
    unsigned char b[512];
    fmuc_bin_header h;
    memset(b, 0, sizeof b);
    /* PE32+ AMD64: MZ, e_lfanew = 0x80, "PE\0\0", Machine, optional header magic 0x20b */
    b[0] = 'M';
    b[1] = 'Z';
    b[0x3c] = 0x80;
    memcpy(b + 0x80, "PE\0\0", 4);
    b[0x84] = 0x64;
    b[0x85] = 0x86;
    b[0x80 + 24] = 0x0b;
    b[0x80 + 25] = 0x02;
    fmuc_bin_header_parse(&h, b, sizeof b);
    cr_expect_eq(h.format, FMUC_BIN_PE);
    cr_expect_eq(h.machine, 0x8664u);
    cr_expect_eq(h.bits, 64);
    /* e_lfanew beyond the buffer: not PE, no crash */
    b[0x3c] = 0xff;
    b[0x3d] = 0xff;
    fmuc_bin_header_parse(&h, b, sizeof b);
    cr_expect_eq(h.format, FMUC_BIN_UNKNOWN);

    /* Mach-O 64 arm64, little endian */
    memset(b, 0, sizeof b);
    const unsigned char macho[] = {0xcf, 0xfa, 0xed, 0xfe, 0x0c, 0x00, 0x00, 0x01};
    memcpy(b, macho, sizeof macho);
    fmuc_bin_header_parse(&h, b, 32);
    cr_expect_eq(h.format, FMUC_BIN_MACHO);
    cr_expect_eq(h.machine, 0x0100000cu);
    cr_expect_eq(h.bits, 64);

    /* Universal binary with x86_64 and arm64 slices */
    memset(b, 0, sizeof b);
    const unsigned char fat[] = {0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2, 0x01, 0, 0, 0x07};
    memcpy(b, fat, sizeof fat);
    b[28] = 0x01;
    b[31] = 0x0c;
    fmuc_bin_header_parse(&h, b, 64);
    cr_expect_eq(h.format, FMUC_BIN_MACHO_FAT);
    cr_expect_eq(h.nslices, 2);
    cr_expect_eq(h.slices[0], 0x01000007u);
    cr_expect_eq(h.slices[1], 0x0100000cu);
    /* A Java class file shares the magic but not the shape */
    b[6] = 0x00;
    b[7] = 0x34;
    fmuc_bin_header_parse(&h, b, 64);
    cr_expect_eq(h.format, FMUC_BIN_UNKNOWN);
}

Test(elf, platform_map)
{
    fmuc_bin_format f;
    int bits;
    uint32_t m;
    cr_assert(fmuc_platform_arch("linux64", &f, &bits, &m));
    cr_expect(f == FMUC_BIN_ELF && bits == 64 && m == EM_X86_64);
    cr_assert(fmuc_platform_arch("linux32", &f, &bits, &m));
    cr_expect(f == FMUC_BIN_ELF && bits == 32 && m == EM_386);
    cr_assert(fmuc_platform_arch("aarch64-linux", &f, &bits, &m));
    cr_expect(f == FMUC_BIN_ELF && bits == 64 && m == EM_AARCH64);
    cr_assert(fmuc_platform_arch("win64", &f, &bits, &m));
    cr_expect(f == FMUC_BIN_PE && m == 0x8664u);
    cr_assert(fmuc_platform_arch("darwin64", &f, &bits, &m));
    cr_expect(f == FMUC_BIN_MACHO && m == 0x01000007u);
    cr_expect(!fmuc_platform_arch("sparc64-solaris", NULL, NULL, NULL));
    cr_expect(!fmuc_platform_arch(NULL, NULL, NULL, NULL));
}

/* --- checks ---------------------------------------------------------------------------------- */

static fmuc_verdict run_on(const fmuc_check *c, const fmuc_fmu *fmu, size_t *nmsg)
{
    fmuc_options opts;
    fmuc_options_init(&opts);
    opts.timeout_multiplier = strtod(fmuc_test_timeout_multiplier(), NULL);
    if (!(opts.timeout_multiplier > 0))
        opts.timeout_multiplier = 1;
    fmuc_subject s = {.fmu = fmu, .opts = &opts};
    fmuc_result r;
    fmuc_result_init(&r, c->id, c->title, c->spec, c->level);
    c->run(&s, &r);
    fmuc_verdict v = r.verdict;
    if (nmsg)
        *nmsg = r.nmessages;
    fmuc_result_clear(&r);
    return v;
}

/* Open a fixture FMU ("good/SpringMassDamper", "broken/load-version"). */
static void open_fmu(fmuc_fmu *fmu, const char *rel)
{
    char path[4096];
    fmuc_diag diag = {0};
    snprintf(path, sizeof path, "%s/%s.fmu", FMUC_FMU_DIR, rel);
    cr_assert_eq(fmuc_fmu_open(fmu, path, NULL, NULL, &diag), FMUC_OK, "%s: %s", rel, diag.msg);
}

static fmuc_verdict check_fmu(const fmuc_check *c, const char *rel)
{
    fmuc_fmu fmu;
    open_fmu(&fmu, rel);
    fmuc_verdict v = run_on(c, &fmu, NULL);
    fmuc_fmu_close(&fmu);
    return v;
}

Test(load_checks, good_fmu_passes_all)
{
    fmuc_fmu fmu;
    open_fmu(&fmu, "good/SpringMassDamper");
    for (size_t i = 0; fmuc_checks[i]; i++) {
        const fmuc_check *c = fmuc_checks[i];
        if (strncmp(c->id, "load-", 5) != 0)
            continue;
        fmuc_verdict v = run_on(c, &fmu, NULL);
        cr_expect(v == FMUC_VERDICT_PASS, "%s: %s", c->id, fmuc_verdict_name(v));
    }
    fmuc_fmu_close(&fmu);
}

Test(load_checks, each_fixture_trips_its_check)
{
    cr_expect_eq(check_fmu(&fmuc_check_load_version, "broken/load-version"), FMUC_VERDICT_FAIL);
    cr_expect_eq(check_fmu(&fmuc_check_load_types_platform, "broken/load-types-platform"),
                 FMUC_VERDICT_FAIL);
    cr_expect_eq(check_fmu(&fmuc_check_load_exports, "broken/load-exports"), FMUC_VERDICT_FAIL);
    /* a dependency neither shipped nor installed: should-level (§2.3), it warns */
    cr_expect_eq(check_fmu(&fmuc_check_load_dlopen, "broken/load-dlopen"), FMUC_VERDICT_WARN);
    cr_expect_eq(check_fmu(&fmuc_check_load_dlopen, "broken/load-dlopen--undefined-symbol"),
                 FMUC_VERDICT_FAIL);
    cr_expect_eq(check_fmu(&fmuc_check_load_exec_stack, "broken/load-exec-stack"), FMUC_VERDICT_WARN);
    cr_expect_eq(check_fmu(&fmuc_check_load_rpath, "broken/load-rpath"), FMUC_VERDICT_WARN);
    cr_expect_eq(check_fmu(&fmuc_check_load_needed, "broken/load-needed"), FMUC_VERDICT_WARN);
    cr_expect_eq(check_fmu(&fmuc_check_load_only_fmi2_exports, "broken/load-only-fmi2-exports"),
                 FMUC_VERDICT_WARN);
    cr_expect_eq(check_fmu(&fmuc_check_load_binary_arch, "broken/load-binary-arch"), FMUC_VERDICT_FAIL);
    cr_expect_eq(check_fmu(&fmuc_check_load_binary_arch, "broken/load-binary-arch--machine"),
                 FMUC_VERDICT_FAIL);
}

/* A library that does not load: exports fall back to .dynsym (all there), the getters are n/a. */
Test(load_checks, unloadable_library)
{
    fmuc_fmu fmu;
    open_fmu(&fmu, "broken/load-dlopen");
    cr_expect_eq(run_on(&fmuc_check_load_exports, &fmu, NULL), FMUC_VERDICT_PASS);
    cr_expect_eq(run_on(&fmuc_check_load_version, &fmu, NULL), FMUC_VERDICT_NA);
    cr_expect_eq(run_on(&fmuc_check_load_types_platform, &fmu, NULL), FMUC_VERDICT_NA);
    size_t n;
    cr_expect_eq(run_on(&fmuc_check_load_needed, &fmu, &n), FMUC_VERDICT_WARN);
    cr_expect_eq(n, 1);
    fmuc_fmu_close(&fmu);
}

/* The missing function is named once per library, for an ME+CS FMU sharing one library. */
Test(load_checks, missing_export_counted_once)
{
    fmuc_fmu fmu;
    open_fmu(&fmu, "broken/load-exports");
    size_t n;
    cr_expect_eq(run_on(&fmuc_check_load_exports, &fmu, &n), FMUC_VERDICT_FAIL);
    cr_expect_eq(n, 1);
    fmuc_fmu_close(&fmu);
}

/* Checks on a constructed FMU: a temp unpack dir with copies of fixture libraries. */
Test(load_checks, rpath_entries)
{
    char *dir = fmuc_test_mkdtemp("loadrp");
    cr_assert(dir);
    char sub[4200], lib[4300];
    snprintf(sub, sizeof sub, "%s/binaries", dir);
    mkdir(sub, 0700);
    snprintf(sub, sizeof sub, "%s/binaries/linux64", dir);
    mkdir(sub, 0700);
    snprintf(lib, sizeof lib, "%s/M.so", sub);
    size_t len;
    char *data = fmuc_test_read_file(fixture_lib("broken__load-rpath"), &len);
    cr_assert(data && fmuc_test_write_file(lib, data, len) == 0);
    free(data);
    fmuc_zip_entry e[2] = {{.name = "modelDescription.xml"}, {.name = "binaries/linux64/M.so"}};
    fmuc_fmu fmu;
    memset(&fmu, 0, sizeof fmu);
    fmu.listing.entries = e;
    fmu.listing.nentries = 2;
    fmu.unpack_dir = dir;
    fmu.platform = "linux64";
    size_t n;
    cr_expect_eq(run_on(&fmuc_check_load_rpath, &fmu, &n), FMUC_VERDICT_WARN);
    cr_expect_eq(n, 1);
    cr_expect_eq(run_on(&fmuc_check_load_exec_stack, &fmu, NULL), FMUC_VERDICT_PASS);
    cr_expect_eq(run_on(&fmuc_check_load_needed, &fmu, NULL), FMUC_VERDICT_PASS);
    /* A file that is not ELF in the folder is not judged by these checks */
    fmuc_test_write_file(lib, "text", 4);
    cr_expect_eq(run_on(&fmuc_check_load_rpath, &fmu, NULL), FMUC_VERDICT_NA);
    fmuc_test_rm_rf(dir);
    free(dir);
}

/* Profiles: a wrong library in another platform's folder beside this host's own library is a
 * violation of the letter (interop warns); without a library for this host it fails. */
static void arch_profiles(const fmuc_fmu *fmu, fmuc_verdict *std, fmuc_verdict *iop)
{
    const fmuc_check *c = &fmuc_check_load_binary_arch;
    fmuc_options opts;
    fmuc_options_init(&opts);
    fmuc_subject s = {.fmu = fmu, .opts = &opts};
    fmuc_result r;
    fmuc_result_init(&r, c->id, c->title, c->spec, c->level);
    c->run(&s, &r);
    fmuc_check_profiles(c, &r, FMUC_PROFILE_STANDARD);
    *std = r.verdicts[FMUC_PROFILE_STANDARD];
    *iop = r.verdicts[FMUC_PROFILE_INTEROP];
    fmuc_result_clear(&r);
}

Test(load_checks, binary_arch_of_another_platform_warns_under_interop)
{
    static const char *const fixtures[] = {"broken/load-binary-arch",
                                           "broken/load-binary-arch--machine"};
    for (size_t k = 0; k < 2; k++) {
        fmuc_fmu fmu;
        fmuc_verdict std, iop;
        open_fmu(&fmu, fixtures[k]);
        arch_profiles(&fmu, &std, &iop);
        cr_expect_eq(std, FMUC_VERDICT_FAIL, "%s: standard", fixtures[k]);
        cr_expect_eq(iop, FMUC_VERDICT_WARN, "%s: interop (linux64/ has its own library)",
                     fixtures[k]);
        /* hide this host's library: the wrong one elsewhere is all the FMU has, it fails */
        char host_dir[64];
        snprintf(host_dir, sizeof host_dir, "binaries/%s/", fmuc_host_platform());
        const char *saved[64] = {0};
        size_t n = fmu.listing.nentries < 64 ? fmu.listing.nentries : 64;
        for (size_t i = 0; i < n; i++)
            if (fmu.listing.entries[i].name &&
                strncmp(fmu.listing.entries[i].name, host_dir, strlen(host_dir)) == 0) {
                saved[i] = fmu.listing.entries[i].name;
                fmu.listing.entries[i].name = "binaries/hidden";
            }
        arch_profiles(&fmu, &std, &iop);
        cr_expect_eq(iop, FMUC_VERDICT_FAIL, "%s: interop without a host library", fixtures[k]);
        for (size_t i = 0; i < n; i++)
            if (saved[i])
                fmu.listing.entries[i].name = saved[i];
        fmuc_fmu_close(&fmu);
    }
}
