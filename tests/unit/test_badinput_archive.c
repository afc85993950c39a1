/* Bad-input suite, archives (robustness.md §4.1, A01-A12), end to end through fmucheck: each case
 * is built on the fly (libzip or patched bytes) and must give the documented exit code (3 =
 * input rejected, 1 = a check failed) with its reason, while keeping the contract checked by
 * bi_expect_hygiene (no writes outside the run's folders, no temp files, no processes left, a
 * complete report or none). */
#include <criterion/criterion.h>
#include <time.h>

#include "test_badinput_util.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Run fmu and expect exit 3 with a reason containing one of the needles (NULL-terminated). */
static void expect_rejected(bi_env *e, const char *fmu, const char *const needles[])
{
    fmuc_test_run r;
    double t0 = now_s();
    cJSON *rep = bi_check(e, fmu, NULL, 3, &r);
    double dt = now_s() - t0;
    cr_expect(dt < 5.0, "%s: took %.1f s (budget 5 s)", fmu, dt);
    int found = 0;
    for (size_t i = 0; needles && needles[i]; i++)
        found |= bi_reason_has(&r, rep, needles[i]);
    cr_expect(!needles || found, "%s: reason does not name '%s'\nstderr: %s\nstatusReason: %s", fmu,
              needles ? needles[0] : "", r.err,
              cJSON_GetStringValue(cJSON_GetObjectItem(rep, "statusReason")));
    if (rep) {
        cr_expect_str_eq(bi_status(rep), "rejected", "%s: a report for a rejected FMU says so", fmu);
        /* and its summary is no pass (the archive checks that ran may all have passed) */
        const char *v = cJSON_GetStringValue(
            cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "summary"), "verdict"));
        cr_expect(v && strcmp(v, "fail") == 0, "%s: summary verdict %s for a rejected FMU", fmu,
                  v ? v : "(none)");
    }
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
}

/* The good FMU plus one extra entry. */
static void good_plus(const char *path, const char *name, const void *data, size_t len)
{
    bi_fmu f;
    bi_fmu_load(&f, BI_GOOD_FMU);
    bi_fmu_set(&f, name, data, len);
    bi_fmu_write(&f, path);
    bi_fmu_free(&f);
}

static unsigned char *read_all(const char *path, size_t *len)
{
    return (unsigned char *)bi_file_bytes(path, len);
}

/* ---- A01 ----------------------------------------------------------------------------------- */

Test(badinput_archive, a01_not_a_zip_and_not_a_file, .timeout = 60)
{
    bi_env e;
    bi_env_init(&e, "a01");
    char p[700];
    const char *not_zip[] = {"not a ZIP", "empty", NULL};
    bi_in(&e, "empty.fmu", p, sizeof p);
    cr_assert(fmuc_test_write_file(p, "", 0) == 0);
    expect_rejected(&e, p, not_zip);

    unsigned char rnd[4096];
    for (size_t i = 0; i < sizeof rnd; i++)
        rnd[i] = (unsigned char)(i * 2654435761u >> 13);
    bi_in(&e, "random.fmu", p, sizeof p);
    cr_assert(fmuc_test_write_file(p, rnd, sizeof rnd) == 0);
    expect_rejected(&e, p, not_zip);

    /* truncated inside the central directory: no end record any more */
    size_t n;
    unsigned char *good = read_all(BI_GOOD_FMU, &n);
    long cd = bi_find_hdr(good, n, "modelDescription.xml", 1);
    cr_assert(cd > 0);
    bi_in(&e, "truncated.fmu", p, sizeof p);
    cr_assert(fmuc_test_write_file(p, good, (size_t)cd + 20) == 0);
    expect_rejected(&e, p, not_zip);

    /* a FIFO must not hang, /dev/zero must not be read forever, a symlink to a device */
    const char *not_file[] = {"FIFO", "device", "not a regular", NULL};
    bi_in(&e, "fifo.fmu", p, sizeof p);
    cr_assert(mkfifo(p, 0600) == 0);
    expect_rejected(&e, p, not_file);
    expect_rejected(&e, "/dev/zero", not_file);
    bi_in(&e, "zero-link.fmu", p, sizeof p);
    cr_assert(symlink("/dev/zero", p) == 0);
    expect_rejected(&e, p, not_file);
    free(good);
    bi_env_fini(&e);
}

/* ---- A02, A03, A04 ------------------------------------------------------------------------- */

Test(badinput_archive, a02_path_traversal_creates_nothing, .timeout = 60)
{
    bi_env e;
    bi_env_init(&e, "a02");
    char p[700];
    const char *why[] = {"dotdot", NULL};
    const char *names[] = {"../../x", "binaries/linux64/../../../x", "resources/../../../../sentinel/x"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        bi_in(&e, "trav.fmu", p, sizeof p);
        good_plus(p, names[i], "pwned", 5);
        expect_rejected(&e, p, why);
    }
    /* "a/./b" is not a traversal, but it is not a valid FMU path either: a check fails */
    bi_in(&e, "dot.fmu", p, sizeof p);
    good_plus(p, "resources/./b", "b", 1);
    cJSON *rep = bi_check(&e, p, NULL, 1, NULL);
    cr_expect_str_eq(bi_verdict(rep, "zip-dot-components"), "fail");
    cJSON_Delete(rep);
    bi_env_fini(&e);
}

Test(badinput_archive, a03_absolute_drive_backslash_colon, .timeout = 60)
{
    bi_env e;
    bi_env_init(&e, "a03");
    char p[700], abs_name[700];
    snprintf(abs_name, sizeof abs_name, "%s/sentinel/abs", e.root);
    struct {
        const char *name, *why;
    } cases[] = {{abs_name, "absolute"},
                 {"C:/x", "absolute"},
                 {"resources\\x", "backslash"},
                 {"resources/a:b", "bad-name"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bi_in(&e, "path.fmu", p, sizeof p);
        good_plus(p, cases[i].name, "x", 1);
        const char *why[] = {cases[i].why, NULL};
        expect_rejected(&e, p, why);
    }
    bi_env_fini(&e);
}

/* Set the external attributes of name to a Unix symlink (mode 0120777). */
static void make_symlink_entry(zip_t *z, const char *name, const char *target)
{
    zip_source_t *s = zip_source_buffer(z, target, strlen(target), 0);
    zip_int64_t ix = zip_file_add(z, name, s, ZIP_FL_ENC_RAW);
    cr_assert(ix >= 0);
    cr_assert(zip_file_set_external_attributes(z, (zip_uint64_t)ix, 0, ZIP_OPSYS_UNIX,
                                               (zip_uint32_t)(0120777u << 16)) == 0);
}

Test(badinput_archive, a04_links_in_the_archive, .timeout = 60)
{
    bi_env e;
    bi_env_init(&e, "a04");
    char p[700];
    const char *why[] = {"symlink", NULL};
    for (int variant = 0; variant < 2; variant++) {
        bi_fmu f;
        bi_fmu_load(&f, BI_GOOD_FMU);
        if (variant == 0)
            bi_fmu_remove(&f, "binaries/linux64/SpringMassDamper.so");
        bi_in(&e, "link.fmu", p, sizeof p);
        bi_fmu_write(&f, p);
        bi_fmu_free(&f);
        int err = 0;
        zip_t *z = zip_open(p, 0, &err);
        cr_assert(z);
        if (variant == 0) {
            make_symlink_entry(z, "binaries/linux64/SpringMassDamper.so", "/etc/passwd");
        } else {
            make_symlink_entry(z, "resources/d", e.sentinel);
            zip_source_t *s = zip_source_buffer(z, "x", 1, 0);
            cr_assert(zip_file_add(z, "resources/d/x", s, 0) >= 0);
        }
        cr_assert(zip_close(z) == 0);
        expect_rejected(&e, p, why);
    }
    bi_env_fini(&e);
}

/* ---- A05 bombs ----------------------------------------------------------------------------- */

Test(badinput_archive, a05_bomb_by_ratio, .timeout = 60)
{
    bi_env e;
    bi_env_init(&e, "a05r");
    char p[700];
    size_t n = 48u << 20; /* zeros deflate ~1030:1, over the 1000:1 cap */
    char *zeros = calloc(1, n);
    bi_in(&e, "ratio.fmu", p, sizeof p);
    good_plus(p, "resources/zeros.bin", zeros, n);
    free(zeros);
    const char *why[] = {"ratio", "zip bomb", NULL};
    expect_rejected(&e, p, why);
    bi_env_fini(&e);
}

Test(badinput_archive, a05_bomb_by_size_lies_and_cap, .timeout = 60)
{
    bi_env e;
    bi_env_init(&e, "a05s");
    char p[700];
    /* header says 1 KiB, the stream inflates to 4 MiB */
    size_t n = 4u << 20;
    char *data = malloc(n);
    for (size_t i = 0; i < n; i++)
        data[i] = (char)(i % 251);
    bi_fmu f;
    bi_fmu_load(&f, BI_GOOD_FMU);
    bi_fmu_set(&f, "resources/liar.bin", data, n);
    bi_in(&e, "liar.fmu", p, sizeof p);
    bi_fmu_write(&f, p);
    size_t len;
    unsigned char *z = read_all(p, &len);
    long lh = bi_find_hdr(z, len, "resources/liar.bin", 0);
    long ch = bi_find_hdr(z, len, "resources/liar.bin", 1);
    cr_assert(lh >= 0 && ch >= 0);
    bi_put32(z + lh + 22, 1024);
    bi_put32(z + ch + 24, 1024);
    cr_assert(fmuc_test_write_file(p, z, len) == 0);
    const char *why[] = {"declared size", "inflat", NULL};
    expect_rejected(&e, p, why);

    /* declared 3.5 GiB: over the per-entry cap before a byte is inflated */
    bi_put32(z + lh + 22, 0xE0000000u);
    bi_put32(z + ch + 24, 0xE0000000u);
    cr_assert(fmuc_test_write_file(p, z, len) == 0);
    const char *why2[] = {"too-large", "ratio", NULL};
    expect_rejected(&e, p, why2);
    free(z);
    free(data);
    bi_fmu_free(&f);
    bi_env_fini(&e);
}

Test(badinput_archive, a05_bomb_by_overlap, .timeout = 60)
{
    bi_env e;
    bi_env_init(&e, "a05o");
    char p[700];
    bi_fmu f;
    bi_fmu_load(&f, BI_GOOD_FMU);
    char blob[4096];
    memset(blob, 'A', sizeof blob);
    bi_fmu_set(&f, "resources/aaaa", blob, sizeof blob);
    bi_fmu_set(&f, "resources/bbbb", blob, sizeof blob);
    bi_fmu_find(&f, "resources/aaaa")->store = 1;
    bi_fmu_find(&f, "resources/bbbb")->store = 1;
    bi_in(&e, "overlap.fmu", p, sizeof p);
    bi_fmu_write(&f, p);
    bi_fmu_free(&f);
    size_t len;
    unsigned char *z = read_all(p, &len);
    long la = bi_find_hdr(z, len, "resources/aaaa", 0);
    long cb = bi_find_hdr(z, len, "resources/bbbb", 1);
    cr_assert(la >= 0 && cb >= 0);
    /* b's central entry points into a's data (Fifield-style overlapping entries) */
    bi_put32(z + cb + 42, (uint32_t)la);
    cr_assert(fmuc_test_write_file(p, z, len) == 0);
    free(z);
    const char *why[] = {"overlap", "inconsistent", NULL};
    expect_rejected(&e, p, why);
    bi_env_fini(&e);
}

/* 70,000 empty stored entries written as raw bytes (over the 65,536 entry cap). */
Test(badinput_archive, a05_bomb_by_entry_count, .timeout = 60)
{
    bi_env e;
    bi_env_init(&e, "a05c");
    char p[700];
    const size_t count = 70000;
    size_t cap = count * 120 + 1024, off = 0;
    unsigned char *buf = calloc(1, cap), *cd = calloc(1, count * 70);
    size_t cdlen = 0;
    for (size_t i = 0; i < count; i++) {
        char name[32];
        int nl = snprintf(name, sizeof name, "resources/%07zu", i);
        unsigned char *h = buf + off;
        bi_put32(h, 0x04034b50u);
        bi_put16(h + 4, 20);
        bi_put16(h + 26, (unsigned)nl);
        memcpy(h + 30, name, (size_t)nl);
        unsigned char *c = cd + cdlen;
        bi_put32(c, 0x02014b50u);
        bi_put16(c + 4, 20);
        bi_put16(c + 6, 20);
        bi_put16(c + 28, (unsigned)nl);
        bi_put32(c + 42, (uint32_t)off);
        memcpy(c + 46, name, (size_t)nl);
        off += 30 + (size_t)nl;
        cdlen += 46 + (size_t)nl;
    }
    memcpy(buf + off, cd, cdlen);
    unsigned char *eo = buf + off + cdlen;
    bi_put32(eo, 0x06054b50u);
    bi_put16(eo + 8, 0xFFFF); /* 70000 does not fit 16 bits: the records say "see ZIP64" */
    bi_put16(eo + 10, 0xFFFF);
    bi_put32(eo + 12, (uint32_t)cdlen);
    bi_put32(eo + 16, (uint32_t)off);
    bi_in(&e, "many.fmu", p, sizeof p);
    cr_assert(fmuc_test_write_file(p, buf, off + cdlen + 22) == 0);
    free(buf);
    free(cd);
    const char *why[] = {"entries", "entry-count", "inconsistent", "libzip", NULL};
    expect_rejected(&e, p, why);
    bi_env_fini(&e);
}

/* ---- A06, A07 ------------------------------------------------------------------------------ */

Test(badinput_archive, a06_duplicate_entry_and_header_mismatch, .timeout = 60)
{
    bi_env e;
    bi_env_init(&e, "a06");
    char p[700];
    bi_fmu f;
    bi_fmu_load(&f, BI_GOOD_FMU);
    bi_fmu_set(&f, "modelDescriptioX.xml", "<fmiModelDescription/>", 22);
    bi_in(&e, "dup.fmu", p, sizeof p);
    bi_fmu_write(&f, p);
    bi_fmu_free(&f);
    size_t len;
    unsigned char *z = read_all(p, &len);
    long lh = bi_find_hdr(z, len, "modelDescriptioX.xml", 0);
    long ch = bi_find_hdr(z, len, "modelDescriptioX.xml", 1);
    cr_assert(lh >= 0 && ch >= 0);
    z[lh + 30 + 15] = 'n';
    z[ch + 46 + 15] = 'n';
    cr_assert(fmuc_test_write_file(p, z, len) == 0);
    const char *why[] = {"duplicate", "inconsistent", "libzip", NULL};
    expect_rejected(&e, p, why);

    /* local header name differs from the central directory's */
    z[ch + 46 + 15] = 'X';
    z[lh + 30 + 15] = 'Y';
    cr_assert(fmuc_test_write_file(p, z, len) == 0);
    const char *why2[] = {"inconsistent", "libzip", NULL};
    expect_rejected(&e, p, why2);
    free(z);
    bi_env_fini(&e);
}

Test(badinput_archive, a07_bad_names, .timeout = 60)
{
    bi_env e;
    bi_env_init(&e, "a07");
    char p[700];
    char longname[4200], deep[1200];
    memcpy(longname, "resources/", 10);
    memset(longname + 10, 'n', 4096);
    longname[4106] = '\0';
    size_t o = (size_t)snprintf(deep, sizeof deep, "resources/");
    for (int i = 0; i < 200; i++)
        o += (size_t)snprintf(deep + o, sizeof deep - o, "d/");
    snprintf(deep + o, sizeof deep - o, "x");
    const char *names[] = {"resources/ctl\x01name", "resources/bad\xC3\x28utf8", "resources/esc\x1b[31m",
                           longname, deep};
    const char *why[] = {"bad-name", NULL};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        bi_in(&e, "name.fmu", p, sizeof p);
        good_plus(p, names[i], "x", 1);
        expect_rejected(&e, p, why);
    }
    /* NUL inside a stored name: patch "resources/nulXname" */
    bi_in(&e, "nul.fmu", p, sizeof p);
    good_plus(p, "resources/nulXname", "x", 1);
    size_t len;
    unsigned char *z = read_all(p, &len);
    long lh = bi_find_hdr(z, len, "resources/nulXname", 0);
    long ch = bi_find_hdr(z, len, "resources/nulXname", 1);
    cr_assert(lh >= 0 && ch >= 0);
    z[lh + 30 + 13] = 0;
    z[ch + 46 + 13] = 0;
    cr_assert(fmuc_test_write_file(p, z, len) == 0);
    free(z);
    const char *why_nul[] = {"bad-name", "libzip", "inconsistent", NULL};
    expect_rejected(&e, p, why_nul);

    /* a case collision is no danger on Linux: accepted (recorded in the listing, not yet in the
     * report; see the hardening notes), but the contract holds */
    bi_in(&e, "case.fmu", p, sizeof p);
    bi_fmu f;
    bi_fmu_load(&f, BI_GOOD_FMU);
    bi_fmu_set(&f, "resources/M.txt", "a", 1);
    bi_fmu_set(&f, "resources/m.txt", "b", 1);
    bi_fmu_write(&f, p);
    bi_fmu_free(&f);
    fmuc_test_run r;
    cr_assert(bi_exec(&e, &r, NULL, p, NULL) == 0);
    bi_expect_hygiene(&e, p);
    cJSON *rep = bi_report(&e);
    cr_assert(rep, "a report for the case-collision FMU");
    cr_expect_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    bi_env_fini(&e);
}

/* ---- A08, A09 ------------------------------------------------------------------------------ */

Test(badinput_archive, a08_forbidden_zip_features, .timeout = 60)
{
    bi_env e;
    bi_env_init(&e, "a08");
    char p[700];
    /* bzip2 (if this libzip can write it) and AES encryption */
    if (zip_compression_method_supported(ZIP_CM_BZIP2, 1)) {
        bi_fmu f;
        bi_fmu_load(&f, BI_GOOD_FMU);
        bi_fmu_set(&f, "resources/b.txt", "bzip2 bzip2 bzip2", 17);
        bi_fmu_find(&f, "resources/b.txt")->method = ZIP_CM_BZIP2;
        bi_in(&e, "bz.fmu", p, sizeof p);
        bi_fmu_write(&f, p);
        bi_fmu_free(&f);
        const char *why[] = {"method", NULL};
        expect_rejected(&e, p, why);
    }
    if (zip_encryption_method_supported(ZIP_EM_AES_256, 1)) {
        bi_fmu f;
        bi_fmu_load(&f, BI_GOOD_FMU);
        bi_fmu_set(&f, "resources/secret.txt", "secret", 6);
        bi_fmu_find(&f, "resources/secret.txt")->encrypt = 1;
        bi_in(&e, "aes.fmu", p, sizeof p);
        bi_fmu_write(&f, p);
        bi_fmu_free(&f);
        const char *why[] = {"encrypted", NULL};
        expect_rejected(&e, p, why);
    }
    /* split archive: the end record names another disk */
    size_t len;
    unsigned char *z = read_all(BI_GOOD_FMU, &len);
    long eo = bi_find_eocd(z, len);
    cr_assert(eo >= 0);
    bi_put16(z + eo + 4, 1);
    bi_put16(z + eo + 6, 1);
    bi_in(&e, "split.fmu", p, sizeof p);
    cr_assert(fmuc_test_write_file(p, z, len) == 0);
    const char *why_split[] = {"multi-disk", "libzip", "split", NULL};
    expect_rejected(&e, p, why_split);
    free(z);

    /* "version needed to extract" 4.5 (ZIP64): not unsafe, but not a valid FMU: a check fails */
    z = read_all(BI_GOOD_FMU, &len);
    long ch = bi_find_hdr(z, len, "modelDescription.xml", 1);
    long lh = bi_find_hdr(z, len, "modelDescription.xml", 0);
    cr_assert(ch >= 0 && lh >= 0);
    bi_put16(z + ch + 6, 45);
    bi_put16(z + lh + 4, 45);
    bi_in(&e, "v45.fmu", p, sizeof p);
    cr_assert(fmuc_test_write_file(p, z, len) == 0);
    free(z);
    cJSON *rep = bi_check(&e, p, NULL, 1, NULL);
    cr_expect_str_eq(bi_verdict(rep, "zip-version-needed"), "fail");
    cJSON_Delete(rep);
    bi_env_fini(&e);
}

Test(badinput_archive, a09_crc_mismatch_in_the_library_is_never_loaded, .timeout = 60)
{
    bi_env e;
    bi_env_init(&e, "a09");
    char p[700];
    bi_fmu f;
    bi_fmu_load(&f, BI_GOOD_FMU);
    bi_entry *so = bi_fmu_find(&f, "binaries/linux64/SpringMassDamper.so");
    cr_assert(so);
    so->store = 1;
    bi_in(&e, "crc.fmu", p, sizeof p);
    bi_fmu_write(&f, p);
    size_t len;
    unsigned char *z = read_all(p, &len);
    long lh = bi_find_hdr(z, len, "binaries/linux64/SpringMassDamper.so", 0);
    cr_assert(lh >= 0);
    size_t data = (size_t)lh + 30 + strlen("binaries/linux64/SpringMassDamper.so") +
                  ((size_t)z[lh + 28] | ((size_t)z[lh + 29] << 8));
    z[data + so->len / 2] ^= 0x10;
    cr_assert(fmuc_test_write_file(p, z, len) == 0);
    free(z);
    bi_fmu_free(&f);
    const char *why[] = {"CRC", "crc", NULL};
    expect_rejected(&e, p, why);
    bi_env_fini(&e);
}

/* ---- A10 ----------------------------------------------------------------------------------- */

#define BI_FIXTURES FMUC_BUILD_DIR "/tests/fixtures/badinput"

Test(badinput_archive, a10_missing_entries_and_evil_model_identifier, .timeout = 120)
{
    bi_env e;
    bi_env_init(&e, "a10");
    char p[700];
    /* no modelDescription.xml */
    bi_fmu f;
    bi_fmu_load(&f, BI_GOOD_FMU);
    bi_fmu_remove(&f, "modelDescription.xml");
    bi_in(&e, "nomd.fmu", p, sizeof p);
    bi_fmu_write(&f, p);
    bi_fmu_free(&f);
    cJSON *rep = bi_check(&e, p, NULL, 1, NULL);
    cr_expect_str_eq(bi_verdict(rep, "zip-model-description-present"), "fail");
    cJSON_Delete(rep);

    /* only win64 */
    bi_fmu_load(&f, BI_GOOD_FMU);
    bi_fmu_rename(&f, "binaries/linux64/SpringMassDamper.so", "binaries/win64/SpringMassDamper.dll");
    bi_in(&e, "win.fmu", p, sizeof p);
    bi_fmu_write(&f, p);
    bi_fmu_free(&f);
    rep = bi_check(&e, p, NULL, 1, NULL);
    cr_expect_str_eq(bi_verdict(rep, "load-binary-arch"), "fail");
    cr_expect_str_eq(bi_verdict(rep, "load-dlopen"), "not-applicable", "nothing to load here");
    cJSON_Delete(rep);

    /* modelIdentifier climbing out of binaries/linux64 to a library of ours: never loaded */
    char evil[800], canary[700], id[900];
    snprintf(evil, sizeof evil, "%s/evil.so", e.sentinel);
    snprintf(canary, sizeof canary, "%s/canary-loaded", e.root);
    size_t n;
    char *lib = bi_file_bytes(BI_FIXTURES "/bi_canary.so", &n);
    cr_assert(fmuc_test_write_file(evil, lib, n) == 0);
    free(lib);
    setenv("FMUC_BI_CANARY", canary, 1);
    snprintf(id, sizeof id, "../../../../../../../../../../../..%s/evil", e.sentinel);
    const char *ids[] = {id, "../../../../tmp/evil", "sub/dir"};
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
        size_t ml;
        bi_fmu_load(&f, BI_GOOD_FMU);
        char *md = (char *)bi_fmu_find(&f, "modelDescription.xml")->data;
        char from[] = "modelIdentifier=\"SpringMassDamper\"", to[1000];
        snprintf(to, sizeof to, "modelIdentifier=\"%s\"", ids[k]);
        char *m1 = bi_replace(md, from, to);
        char *m2 = strstr(m1, from) ? bi_replace(m1, from, to) : strdup(m1);
        ml = strlen(m2);
        bi_fmu_set(&f, "modelDescription.xml", m2, ml);
        free(m1);
        free(m2);
        bi_in(&e, "evil.fmu", p, sizeof p);
        bi_fmu_write(&f, p);
        bi_fmu_free(&f);
        rep = bi_check(&e, p, NULL, 1, NULL);
        cr_expect_str_eq(bi_verdict(rep, "md-model-identifier"), "fail", "id %s", ids[k]);
        cr_expect(access(canary, F_OK) != 0, "a library outside the FMU was loaded (id %s)", ids[k]);
        cJSON_Delete(rep);
    }
    unsetenv("FMUC_BI_CANARY");
    bi_env_fini(&e);
}

/* ---- A11, A12 ------------------------------------------------------------------------------ */

/* Same bytes twice: same exit code and status (determinism), never a crash or a hang. */
static int run_twice_same(bi_env *e, const char *p)
{
    int codes[2];
    char status[2][32];
    for (int k = 0; k < 2; k++) {
        fmuc_test_run r;
        cr_assert(bi_exec(e, &r, NULL, p, NULL) == 0);
        bi_expect_hygiene(e, p);
        codes[k] = r.status;
        cJSON *rep = bi_report(e);
        snprintf(status[k], sizeof status[k], "%s", rep ? bi_status(rep) : "none");
        cJSON_Delete(rep);
        fmuc_test_run_free(&r);
        fmuc_test_rm_rf(e->out);
    }
    cr_expect_eq(codes[0], codes[1], "%s: exit codes differ between runs", p);
    cr_expect_str_eq(status[0], status[1], "%s: report status differs between runs", p);
    cr_expect(codes[0] == 0 || codes[0] == 1 || codes[0] == 3, "%s: exit %d", p, codes[0]);
    return codes[0];
}

Test(badinput_archive, a11_prefix_trailing_garbage_and_comment_length, .timeout = 120)
{
    bi_env e;
    bi_env_init(&e, "a11");
    char p[700];
    size_t len;
    unsigned char *z = read_all(BI_GOOD_FMU, &len);
    /* a self-extractor stub before the first local header, offsets not adjusted */
    unsigned char *pre = malloc(len + 1024);
    memset(pre, 0x90, 1024);
    memcpy(pre + 1024, z, len);
    bi_in(&e, "sfx.fmu", p, sizeof p);
    cr_assert(fmuc_test_write_file(p, pre, len + 1024) == 0);
    int c = run_twice_same(&e, p);
    cr_expect_eq(c, 3, "data before the first header with unadjusted offsets is rejected");
    /* trailing garbage after the end record */
    memcpy(pre, z, len);
    memset(pre + len, 0x41, 1024);
    bi_in(&e, "trail.fmu", p, sizeof p);
    cr_assert(fmuc_test_write_file(p, pre, len + 1024) == 0);
    run_twice_same(&e, p);
    /* comment length pointing past the end of the file */
    long eo = bi_find_eocd(z, len);
    bi_put16(z + eo + 20, 500);
    bi_in(&e, "comment.fmu", p, sizeof p);
    cr_assert(fmuc_test_write_file(p, z, len) == 0);
    run_twice_same(&e, p);
    free(pre);
    free(z);
    bi_env_fini(&e);
}

/* 2,100 entries of 1 MiB of zeros each (deflated once, the same bytes reused): every entry is
 * under the per-entry and ratio caps (the ratio applies above 1 MiB), the sum is over the 2 GiB
 * total cap. Rejected from the listing, before anything is inflated. */
Test(badinput_archive, a12_resources_over_the_total_cap, .timeout = 60)
{
    bi_env e;
    bi_env_init(&e, "a12");
    char p[700];
    const size_t count = 2100, usize = 1u << 20;
    /* deflate 1 MiB of zeros once, with libzip, and reuse the compressed bytes */
    unsigned char *zeros = calloc(1, usize), comp[8192];
    bi_fmu one;
    memset(&one, 0, sizeof one);
    bi_fmu_set(&one, "z", zeros, usize);
    free(zeros);
    bi_in(&e, "one.zip", p, sizeof p);
    bi_fmu_write(&one, p);
    bi_fmu_free(&one);
    size_t olen;
    unsigned char *oz = read_all(p, &olen);
    unlink(p);
    long olh = bi_find_hdr(oz, olen, "z", 0), och = bi_find_hdr(oz, olen, "z", 1);
    cr_assert(olh >= 0 && och >= 0);
    size_t clen = bi_le32(oz + och + 20);
    uint32_t crc = bi_le32(oz + och + 16);
    size_t oxl = (size_t)oz[olh + 28] | ((size_t)oz[olh + 29] << 8);
    cr_assert(clen <= sizeof comp);
    memcpy(comp, oz + olh + 30 + 1 + oxl, clen);
    free(oz);
    size_t cap = count * (160 + clen) + 1024, off = 0, cdlen = 0;
    unsigned char *buf = calloc(1, cap), *cd = calloc(1, count * 80);
    for (size_t i = 0; i < count; i++) {
        char name[32];
        int nl = snprintf(name, sizeof name, "resources/%05zu", i);
        unsigned char *h = buf + off, *c = cd + cdlen;
        bi_put32(h, 0x04034b50u);
        bi_put16(h + 4, 20);
        bi_put16(h + 8, 8);
        bi_put32(h + 14, crc);
        bi_put32(h + 18, (uint32_t)clen);
        bi_put32(h + 22, (uint32_t)usize);
        bi_put16(h + 26, (unsigned)nl);
        memcpy(h + 30, name, (size_t)nl);
        memcpy(h + 30 + nl, comp, clen);
        bi_put32(c, 0x02014b50u);
        bi_put16(c + 4, 20);
        bi_put16(c + 6, 20);
        bi_put16(c + 10, 8);
        bi_put32(c + 16, crc);
        bi_put32(c + 20, (uint32_t)clen);
        bi_put32(c + 24, (uint32_t)usize);
        bi_put16(c + 28, (unsigned)nl);
        bi_put32(c + 42, (uint32_t)off);
        memcpy(c + 46, name, (size_t)nl);
        off += 30 + (size_t)nl + clen;
        cdlen += 46 + (size_t)nl;
    }
    memcpy(buf + off, cd, cdlen);
    unsigned char *eo = buf + off + cdlen;
    bi_put32(eo, 0x06054b50u);
    bi_put16(eo + 8, (unsigned)count);
    bi_put16(eo + 10, (unsigned)count);
    bi_put32(eo + 12, (uint32_t)cdlen);
    bi_put32(eo + 16, (uint32_t)off);
    bi_in(&e, "big.fmu", p, sizeof p);
    cr_assert(fmuc_test_write_file(p, buf, off + cdlen + 22) == 0);
    free(buf);
    free(cd);
    const char *why[] = {"total", NULL};
    expect_rejected(&e, p, why);
    bi_env_fini(&e);
}
