/* Tests of safe FMU opening (harness/src/fmu_open.c, zip_list.c, sha256.c, rmtree.c): archives
 * are built on the fly with libzip's write API, some patched byte-wise, in a private temp dir. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include "fmuc/fmuc_fmu.h"

uint32_t fmuc_zip__name_problems(const char *name, size_t len); /* internal, tested directly */

static char g_root[256];   /* per test process (Criterion forks each test) */
static char g_tmp[512];    /* tmp_parent given to fmuc_fmu_open */

static void setup(void)
{
    snprintf(g_root, sizeof g_root, "/tmp/fmuc-test-zip-XXXXXX");
    cr_assert_not_null(mkdtemp(g_root));
    snprintf(g_tmp, sizeof g_tmp, "%s/tmp", g_root);
    cr_assert_eq(mkdir(g_tmp, 0700), 0);
}

static void teardown(void)
{
    fmuc_rmtree(g_root);
}

TestSuite(zip, .init = setup, .fini = teardown);

static int count_tmp(void)
{
    DIR *d = opendir(g_tmp);
    cr_assert_not_null(d);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

static char *path_of(const char *name)
{
    static char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", g_root, name);
    return p;
}

static const char MD_FMT[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<fmiModelDescription fmiVersion=\"%s\" modelName=\"m\" guid=\"{g}\">\n"
    "<CoSimulation modelIdentifier=\"%s\"/>\n"
    "<ModelVariables><ScalarVariable name=\"y\" valueReference=\"0\" causality=\"output\">"
    "<Real/></ScalarVariable></ModelVariables>\n"
    "<ModelStructure><Outputs><Unknown index=\"1\"/></Outputs>"
    "<InitialUnknowns><Unknown index=\"1\"/></InitialUnknowns></ModelStructure>\n"
    "</fmiModelDescription>\n";

typedef struct spec {
    const char *name;
    const char *data; /* NULL: directory entry */
    size_t len;       /* 0: strlen(data) */
    int store;        /* ZIP_CM_STORE */
    int symlink;
    int bzip2;
    int encrypt;
} spec;

static char g_md[2048];

static const char *md_text(const char *version, const char *mi)
{
    snprintf(g_md, sizeof g_md, MD_FMT, version, mi);
    return g_md;
}

/* Write an archive; returns its path. */
static char *build(const char *file, const spec *sp, size_t n)
{
    char *p = path_of(file);
    int ze = 0;
    zip_t *za = zip_open(p, ZIP_CREATE | ZIP_TRUNCATE, &ze);
    cr_assert_not_null(za, "zip_open for writing: %d", ze);
    for (size_t i = 0; i < n; i++) {
        zip_int64_t idx;
        if (!sp[i].data) {
            idx = zip_dir_add(za, sp[i].name, ZIP_FL_ENC_RAW);
        } else {
            size_t len = sp[i].len ? sp[i].len : strlen(sp[i].data);
            zip_source_t *s = zip_source_buffer(za, sp[i].data, len, 0);
            cr_assert_not_null(s);
            idx = zip_file_add(za, sp[i].name, s, ZIP_FL_ENC_RAW);
        }
        cr_assert_geq(idx, 0, "adding %s: %s", sp[i].name, zip_strerror(za));
        if (sp[i].store)
            cr_assert_eq(zip_set_file_compression(za, (zip_uint64_t)idx, ZIP_CM_STORE, 0), 0);
        if (sp[i].bzip2)
            cr_assert_eq(zip_set_file_compression(za, (zip_uint64_t)idx, ZIP_CM_BZIP2, 0), 0);
        if (sp[i].symlink)
            cr_assert_eq(zip_file_set_external_attributes(za, (zip_uint64_t)idx, 0, ZIP_OPSYS_UNIX,
                                                          0120777u << 16), 0);
        if (sp[i].encrypt)
            cr_assert_eq(zip_file_set_encryption(za, (zip_uint64_t)idx, (zip_uint16_t)sp[i].encrypt,
                                                 "secret"), 0);
    }
    cr_assert_eq(zip_close(za), 0, "zip_close: %s", zip_strerror(za));
    return p;
}

/* Replace every occurrence of from by to (same length) in the file's bytes. */
static int patch(const char *p, const void *from, const void *to, size_t n)
{
    FILE *f = fopen(p, "r+b");
    cr_assert_not_null(f);
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    rewind(f);
    unsigned char *b = malloc((size_t)sz);
    cr_assert_eq(fread(b, 1, (size_t)sz, f), (size_t)sz);
    int hits = 0;
    for (long i = 0; i + (long)n <= sz; i++)
        if (memcmp(b + i, from, n) == 0) {
            memcpy(b + i, to, n);
            hits++;
        }
    rewind(f);
    cr_assert_eq(fwrite(b, 1, (size_t)sz, f), (size_t)sz);
    fclose(f);
    free(b);
    return hits;
}

/* Set the uncompressed size of entry name in its local header and central directory record. */
static int patch_size(const char *p, const char *name, uint32_t size)
{
    FILE *f = fopen(p, "r+b");
    cr_assert_not_null(f);
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    rewind(f);
    unsigned char *b = malloc((size_t)sz);
    cr_assert_eq(fread(b, 1, (size_t)sz, f), (size_t)sz);
    size_t n = strlen(name);
    int hits = 0;
    for (long i = 46; i + (long)n <= sz; i++) {
        if (memcmp(b + i, name, n) != 0)
            continue;
        long at = -1;
        if (memcmp(b + i - 30, "PK\3\4", 4) == 0)
            at = i - 30 + 22;
        else if (memcmp(b + i - 46, "PK\1\2", 4) == 0)
            at = i - 46 + 24;
        if (at < 0)
            continue;
        for (int k = 0; k < 4; k++)
            b[at + k] = (unsigned char)(size >> (8 * k));
        hits++;
    }
    rewind(f);
    cr_assert_eq(fwrite(b, 1, (size_t)sz, f), (size_t)sz);
    fclose(f);
    free(b);
    return hits;
}

static const fmuc_zip_entry *entry(const fmuc_fmu *f, const char *name)
{
    for (size_t i = 0; i < f->listing.nentries; i++)
        if (strcmp(f->listing.entries[i].name, name) == 0)
            return &f->listing.entries[i];
    return NULL;
}

/* Open expecting rc; no temp dir may remain unless the open succeeded. */
static void open_expect(fmuc_fmu *f, const char *p, const fmuc_fmu_limits *lim, fmuc_err rc)
{
    fmuc_diag d = {{0}, 0};
    fmuc_err e = fmuc_fmu_open(f, p, lim, g_tmp, &d);
    cr_assert_eq(e, rc, "open %s: got %d (%s), want %d", p, e, d.msg, rc);
    if (rc != FMUC_OK) {
        cr_assert_eq(count_tmp(), 0, "temp dir left behind");
        cr_assert_null(f->tmp_dir);
        cr_assert_neq(d.msg[0], '\0');
    }
}

static char *good_fmu(const char *file)
{
    const char *md = md_text("2.0", "m");
    spec sp[] = {
        {"modelDescription.xml", md, 0, 0, 0, 0, 0},
        {"binaries/", NULL, 0, 0, 0, 0, 0},
        {"binaries/linux64/m.so", "\x7f" "ELF-not-really", 0, 0, 0, 0, 0},
        {"binaries/linux64/libdep.so", "dep", 0, 1, 0, 0, 0},
        {"binaries/win64/m.dll", "MZ", 0, 0, 0, 0, 0},
        {"resources/data.txt", "hello resources", 0, 0, 0, 0, 0},
        {"resources/sub/deep.txt", "deep", 0, 0, 0, 0, 0},
        {"sources/m.c", "int x;", 0, 0, 0, 0, 0},
        {"documentation/index.html", "<html/>", 0, 0, 0, 0, 0},
    };
    return build(file, sp, sizeof sp / sizeof sp[0]);
}

static char *read_file(const char *p)
{
    FILE *f = fopen(p, "rb");
    if (!f)
        return NULL;
    static char b[4096];
    size_t n = fread(b, 1, sizeof b - 1, f);
    b[n] = '\0';
    fclose(f);
    return b;
}

Test(zip, good_fmu_opens_and_extracts_only_what_the_run_needs)
{
    char *p = good_fmu("good.fmu");
    fmuc_fmu f;
    open_expect(&f, p, NULL, FMUC_OK);
    char sha[65];
    cr_assert_eq(fmuc_sha256_file(sha, p, NULL), FMUC_OK);
    cr_assert_str_eq(f.sha256, sha);
    cr_assert_eq(strlen(f.sha256), 64);
    cr_assert_str_eq(f.file_name, "good.fmu");
    cr_assert_eq(f.listing.nentries, 9);
    cr_assert_eq(f.listing.problems & FMUC_ZIP_UNSAFE, 0, "problems %x", f.listing.problems);
    cr_assert(f.has_md_file && f.md_parsed);
    cr_assert_str_eq(f.fmi_version_seen, "2.0");
    cr_assert_str_eq(f.md.cs.model_identifier, "m");
    cr_assert_str_eq(f.platform, "linux64");
    cr_assert_eq(count_tmp(), 1);
    cr_assert_not_null(f.tmp_dir);
    struct stat st;
    cr_assert_eq(stat(f.tmp_dir, &st), 0);
    cr_assert_eq(st.st_mode & 0777, 0700);
    cr_assert_not_null(f.lib_path_cs);
    cr_assert_null(f.lib_path_me);
    size_t L = strlen(f.lib_path_cs);
    cr_assert(L > 21 && strcmp(f.lib_path_cs + L - 21, "binaries/linux64/m.so") == 0);
    cr_assert_str_eq(read_file(f.lib_path_cs), "\x7f" "ELF-not-really");
    char q[PATH_MAX];
    snprintf(q, sizeof q, "%s/binaries/linux64/libdep.so", f.unpack_dir);
    cr_assert_str_eq(read_file(q), "dep");
    snprintf(q, sizeof q, "%s/resources/sub/deep.txt", f.unpack_dir);
    cr_assert_str_eq(read_file(q), "deep");
    snprintf(q, sizeof q, "%s/sources/m.c", f.unpack_dir);
    cr_assert_eq(access(q, F_OK), -1, "sources must not be extracted");
    snprintf(q, sizeof q, "%s/binaries/win64/m.dll", f.unpack_dir);
    cr_assert_eq(access(q, F_OK), -1, "other platforms must not be extracted");
    cr_assert(entry(&f, "sources/m.c")->verified);
    cr_assert(entry(&f, "resources/data.txt")->extracted);
    cr_assert_eq(strncmp(f.resource_uri, "file:///", 8), 0);
    size_t R = strlen(f.resource_uri);
    cr_assert_str_eq(f.resource_uri + R - 11, "/resources/");
    fmuc_fmu_close(&f);
    cr_assert_eq(count_tmp(), 0);
}

Test(zip, missing_resources_dir_is_created_and_uri_is_percent_encoded)
{
    const char *md = md_text("2.0", "m");
    spec sp[] = {{"modelDescription.xml", md, 0, 0, 0, 0, 0}};
    char *p = build("no res.fmu", sp, 1);
    char sub[PATH_MAX];
    snprintf(sub, sizeof sub, "%s/tmp/a b%%", g_root);
    cr_assert_eq(mkdir(sub, 0700), 0);
    fmuc_fmu f;
    fmuc_diag d = {{0}, 0};
    cr_assert_eq(fmuc_fmu_open(&f, p, NULL, sub, &d), FMUC_OK, "%s", d.msg);
    cr_assert_not_null(strstr(f.resource_uri, "/a%20b%25/fmucheck-"));
    char q[PATH_MAX];
    snprintf(q, sizeof q, "%s/resources", f.unpack_dir);
    struct stat st;
    cr_assert_eq(stat(q, &st), 0);
    cr_assert(S_ISDIR(st.st_mode));
    cr_assert_null(f.lib_path_cs);
    fmuc_fmu_close(&f);
    rmdir(sub);
}

Test(zip, symlink_to_a_good_fmu_on_the_command_line_is_fine)
{
    char *p = good_fmu("good.fmu");
    char target[PATH_MAX];
    snprintf(target, sizeof target, "%s", p);
    cr_assert_eq(symlink(target, path_of("link.fmu")), 0);
    fmuc_fmu f;
    open_expect(&f, path_of("link.fmu"), NULL, FMUC_OK);
    fmuc_fmu_close(&f);
}

static void expect_unsafe(const char *name, uint32_t bit)
{
    const char *md = md_text("2.0", "m");
    spec sp[] = {{"modelDescription.xml", md, 0, 0, 0, 0, 0}, {name, "evil", 0, 0, 0, 0, 0}};
    char *p = build("bad.fmu", sp, 2);
    fmuc_fmu f;
    open_expect(&f, p, NULL, FMUC_EZIP);
    cr_assert_eq(f.listing.nentries, 2, "listing stays filled");
    const fmuc_zip_entry *e = entry(&f, name);
    cr_assert_not_null(e);
    cr_assert(e->problems & bit, "%s: problems %x lack %x", name, e->problems, bit);
    cr_assert(f.listing.problems & bit);
    cr_assert_eq(entry(&f, "modelDescription.xml")->problems & FMUC_ZIP_UNSAFE, 0);
    fmuc_fmu_close(&f);
    char q[PATH_MAX];
    snprintf(q, sizeof q, "%s/evil", g_root);
    cr_assert_eq(access(q, F_OK), -1);
}

Test(zip, rejects_dotdot_entry)
{
    expect_unsafe("../evil", FMUC_ZIP_DOTDOT);
}

Test(zip, rejects_nested_dotdot_entry)
{
    expect_unsafe("resources/../../evil", FMUC_ZIP_DOTDOT);
}

Test(zip, rejects_absolute_entries)
{
    expect_unsafe("/tmp/evil", FMUC_ZIP_ABSOLUTE);
}

Test(zip, rejects_drive_letter_entry)
{
    expect_unsafe("C:/evil", FMUC_ZIP_ABSOLUTE);
}

Test(zip, rejects_backslash_entry)
{
    expect_unsafe("resources\\evil", FMUC_ZIP_BACKSLASH);
}

Test(zip, rejects_control_character_entry)
{
    expect_unsafe("resources/a\x01" "b", FMUC_ZIP_BAD_NAME);
}

Test(zip, rejects_symlink_entry)
{
    const char *md = md_text("2.0", "m");
    spec sp[] = {{"modelDescription.xml", md, 0, 0, 0, 0, 0},
                 {"binaries/linux64/m.so", "/etc/passwd", 0, 0, 1, 0, 0}};
    char *p = build("link.fmu", sp, 2);
    fmuc_fmu f;
    open_expect(&f, p, NULL, FMUC_EZIP);
    cr_assert(entry(&f, "binaries/linux64/m.so")->problems & FMUC_ZIP_SYMLINK);
    cr_assert_eq(entry(&f, "binaries/linux64/m.so")->made_by_os, ZIP_OPSYS_UNIX);
    fmuc_fmu_close(&f);
}

Test(zip, rejects_encrypted_entry)
{
    int em = zip_encryption_method_supported(ZIP_EM_AES_256, 1)       ? ZIP_EM_AES_256
             : zip_encryption_method_supported(ZIP_EM_TRAD_PKWARE, 1) ? ZIP_EM_TRAD_PKWARE
                                                                      : 0;
    if (!em)
        cr_skip_test("libzip cannot write encrypted entries here");
    const char *md = md_text("2.0", "m");
    spec sp[] = {{"modelDescription.xml", md, 0, 0, 0, 0, 0},
                 {"resources/secret.txt", "secret data", 0, 0, 0, 0, em}};
    char *p = build("enc.fmu", sp, 2);
    fmuc_fmu f;
    open_expect(&f, p, NULL, FMUC_EZIP);
    cr_assert(entry(&f, "resources/secret.txt")->problems & FMUC_ZIP_ENCRYPTED);
    fmuc_fmu_close(&f);
}

Test(zip, rejects_bzip2_entry)
{
    if (!zip_compression_method_supported(ZIP_CM_BZIP2, 1))
        cr_skip_test("libzip has no bzip2 support here");
    const char *md = md_text("2.0", "m");
    spec sp[] = {{"modelDescription.xml", md, 0, 0, 0, 0, 0},
                 {"resources/b.txt", "bzip2 bzip2 bzip2 bzip2", 0, 0, 0, 1, 0}};
    char *p = build("bz.fmu", sp, 2);
    fmuc_fmu f;
    open_expect(&f, p, NULL, FMUC_EZIP);
    const fmuc_zip_entry *e = entry(&f, "resources/b.txt");
    cr_assert(e->problems & FMUC_ZIP_METHOD);
    cr_assert_eq(e->method, ZIP_CM_BZIP2);
    cr_assert(e->problems & FMUC_ZIP_VERSION); /* bzip2 needs version 4.6 */
    fmuc_fmu_close(&f);
}

static char *zeros_fmu(const char *file, const char *name, size_t n)
{
    char *z = calloc(1, n);
    const char *md = md_text("2.0", "m");
    spec sp[] = {{"modelDescription.xml", md, 0, 0, 0, 0, 0}, {name, z, n, 0, 0, 0, 0}};
    char *p = build(file, sp, 2);
    free(z);
    return p;
}

Test(zip, rejects_bomb_by_declared_ratio, .timeout = 60)
{
    char *p = zeros_fmu("bomb.fmu", "documentation/zeros.bin", 200u << 20);
    fmuc_fmu f;
    fmuc_fmu_limits lim = {.max_ratio = 200};
    open_expect(&f, p, &lim, FMUC_EZIP);
    const fmuc_zip_entry *e = entry(&f, "documentation/zeros.bin");
    cr_assert(e->problems & FMUC_ZIP_RATIO);
    cr_assert_eq(e->size, 200u << 20);
    cr_assert(!e->verified, "refused from the headers, never inflated");
    fmuc_fmu_close(&f);
}

/* The header lies: it declares 2 MiB but the stream inflates to 32 MiB. Only counting the bytes
 * actually produced catches it; inside resources/ this also exercises the extraction rollback. */
Test(zip, rejects_bomb_that_lies_about_its_size, .timeout = 60)
{
    size_t real = 32u << 20;
    char *p = zeros_fmu("liar.fmu", "resources/zeros.bin", real);
    uint32_t to = 2u << 20;
    cr_assert_eq(patch_size(p, "resources/zeros.bin", to), 2); /* local and central headers */
    fmuc_fmu f;
    open_expect(&f, p, NULL, FMUC_EZIP);
    const fmuc_zip_entry *e = entry(&f, "resources/zeros.bin");
    cr_assert_eq(e->size, to);
    cr_assert(e->problems & (FMUC_ZIP_TOO_LARGE | FMUC_ZIP_RATIO | FMUC_ZIP_INCONSISTENT),
              "problems %x", e->problems);
    cr_assert(!e->extracted);
    fmuc_fmu_close(&f);
}

Test(zip, rejects_too_many_entries)
{
    enum { N = 150 };
    spec sp[N];
    char names[N][32];
    const char *md = md_text("2.0", "m");
    sp[0] = (spec){"modelDescription.xml", md, 0, 0, 0, 0, 0};
    for (int i = 1; i < N; i++) {
        snprintf(names[i], sizeof names[i], "documentation/f%d.txt", i);
        sp[i] = (spec){names[i], "x", 0, 1, 0, 0, 0};
    }
    char *p = build("many.fmu", sp, N);
    fmuc_fmu f;
    fmuc_fmu_limits lim = {.max_entries = 100};
    open_expect(&f, p, &lim, FMUC_EZIP);
    cr_assert(f.listing.problems & FMUC_ZIP_ENTRY_COUNT);
    fmuc_fmu_close(&f);
    fmuc_fmu_limits lim2 = {.max_entries = 200};
    open_expect(&f, p, &lim2, FMUC_OK);
    fmuc_fmu_close(&f);
}

Test(zip, rejects_crc_mismatch)
{
    const char *md = md_text("2.0", "m");
    spec sp[] = {{"modelDescription.xml", md, 0, 0, 0, 0, 0},
                 {"binaries/linux64/m.so", "PAYLOAD-ORIGINAL-BYTES", 0, 1, 0, 0, 0}};
    char *p = build("crc.fmu", sp, 2);
    cr_assert_eq(patch(p, "ORIGINAL", "TAMPERED", 8), 1);
    fmuc_fmu f;
    open_expect(&f, p, NULL, FMUC_EZIP);
    const fmuc_zip_entry *e = entry(&f, "binaries/linux64/m.so");
    cr_assert(e->problems & FMUC_ZIP_CRC, "problems %x", e->problems);
    cr_assert_null(f.lib_path_cs);
    fmuc_fmu_close(&f);
}

Test(zip, rejects_duplicate_names)
{
    const char *md = md_text("2.0", "m");
    spec sp[] = {{"modelDescription.xml", md, 0, 0, 0, 0, 0},
                 {"resources/a.txt", "one", 0, 0, 0, 0, 0},
                 {"resources/b.txt", "two", 0, 0, 0, 0, 0}};
    char *p = build("dup.fmu", sp, 3);
    cr_assert_eq(patch(p, "resources/b.txt", "resources/a.txt", 15), 2);
    fmuc_fmu f;
    open_expect(&f, p, NULL, FMUC_EZIP);
    cr_assert_eq(f.listing.nentries, 3);
    cr_assert(f.listing.problems & (FMUC_ZIP_DUPLICATE | FMUC_ZIP_INCONSISTENT));
    cr_assert(f.listing.entries[1].problems & FMUC_ZIP_DUPLICATE);
    fmuc_fmu_close(&f);
}

/* a name twice where fmucheck reads or extracts nothing (extra/, folder entries: the FMI 3.0
 * Reference-FMU Roberts has such copies) is not unsafe: the archive opens, the entries are marked
 * for zip-case-collision */
Test(zip, duplicate_names_outside_what_is_read_are_not_unsafe)
{
    const char *md = md_text("2.0", "m");
    spec sp[] = {{"modelDescription.xml", md, 0, 0, 0, 0, 0},
                 {"extra/org.x/a.txt", "one", 0, 0, 0, 0, 0},
                 {"extra/org.x/b.txt", "two", 0, 0, 0, 0, 0}};
    char *p = build("dupx.fmu", sp, 3);
    cr_assert_eq(patch(p, "extra/org.x/b.txt", "extra/org.x/a.txt", 17), 2);
    fmuc_fmu f;
    open_expect(&f, p, NULL, FMUC_OK);
    cr_assert(f.listing.entries[1].problems & FMUC_ZIP_DUPLICATE_OTHER);
    cr_assert(!(f.listing.problems & FMUC_ZIP_DUPLICATE));
    fmuc_fmu_close(&f);
}

/* fmuc_fmu_read_entry: one listed entry into memory after the open, with its cap; names not
 * listed, folders, copies stored twice and a file changed since the open are refused */
Test(zip, read_entry_inflates_one_listed_entry_with_a_cap)
{
    const char *md = md_text("2.0", "m");
    spec sp[] = {{"modelDescription.xml", md, 0, 0, 0, 0, 0},
                 {"sources/", NULL, 0, 0, 0, 0, 0},
                 {"sources/buildDescription.xml", "<fmiBuildDescription/>", 0, 0, 0, 0, 0},
                 {"extra/org.x/a.txt", "one", 0, 0, 0, 0, 0},
                 {"extra/org.x/b.txt", "two", 0, 0, 0, 0, 0}};
    char *p = build("entry.fmu", sp, 5);
    cr_assert_eq(patch(p, "extra/org.x/b.txt", "extra/org.x/a.txt", 17), 2);
    fmuc_fmu f;
    open_expect(&f, p, NULL, FMUC_OK);
    char *buf = NULL;
    size_t len = 0;
    fmuc_diag d = {{0}, 0};
    cr_assert_eq(fmuc_fmu_read_entry(&f, "sources/buildDescription.xml", 1024, &buf, &len, &d),
                 FMUC_OK, "%s", d.msg);
    cr_assert_eq(len, 22);
    cr_assert_str_eq(buf, "<fmiBuildDescription/>");
    free(buf);
    cr_assert_eq(fmuc_fmu_read_entry(&f, "sources/buildDescription.xml", 10, &buf, &len, &d),
                 FMUC_EZIP, "over the cap");
    cr_assert_null(buf);
    cr_assert_eq(fmuc_fmu_read_entry(&f, "sources/none.xml", 1024, &buf, &len, &d), FMUC_EINPUT);
    cr_assert_eq(fmuc_fmu_read_entry(&f, "sources/", 1024, &buf, &len, &d), FMUC_EINPUT);
    cr_assert_eq(fmuc_fmu_read_entry(&f, "extra/org.x/a.txt", 1024, &buf, &len, &d), FMUC_EZIP,
                 "stored twice");
    cr_assert_null(buf);
    /* the file replaced by another archive of the same size: refused, nothing read */
    cr_assert_eq(patch(p, "<fmiBuildDescription/>", "<fmiBuildDescriptioX/>", 22), 1);
    cr_assert_neq(fmuc_fmu_read_entry(&f, "sources/buildDescription.xml", 1024, &buf, &len, &d),
                  FMUC_OK);
    cr_assert_null(buf);
    fmuc_fmu_close(&f);
}

Test(zip, rejects_nul_in_name)
{
    const char *md = md_text("2.0", "m");
    spec sp[] = {{"modelDescription.xml", md, 0, 0, 0, 0, 0},
                 {"resources/aXb.txt", "one", 0, 0, 0, 0, 0}};
    char *p = build("nul.fmu", sp, 2);
    cr_assert_eq(patch(p, "resources/aXb", "resources/a\0b", 13), 2);
    fmuc_fmu f;
    open_expect(&f, p, NULL, FMUC_EZIP);
    cr_assert(f.listing.problems & (FMUC_ZIP_BAD_NAME | FMUC_ZIP_INCONSISTENT));
    fmuc_fmu_close(&f);
}

Test(zip, case_collision_and_dot_prefix_are_recorded_not_fatal)
{
    const char *md = md_text("2.0", "m");
    spec sp[] = {{"modelDescription.xml", md, 0, 0, 0, 0, 0},
                 {"documentation/A.txt", "1", 0, 0, 0, 0, 0},
                 {"documentation/a.txt", "2", 0, 0, 0, 0, 0},
                 {"./documentation/x.txt", "3", 0, 0, 0, 0, 0},
                 {"documentation/caf\xc3\xa9.txt", "4", 0, 0, 0, 0, 0}};
    char *p = build("case.fmu", sp, 5);
    fmuc_fmu f;
    open_expect(&f, p, NULL, FMUC_OK);
    cr_assert(entry(&f, "documentation/A.txt")->problems & FMUC_ZIP_CASE_COLLISION);
    cr_assert(entry(&f, "./documentation/x.txt")->problems & FMUC_ZIP_DOT_PREFIX);
    cr_assert(entry(&f, "documentation/caf\xc3\xa9.txt")->problems & FMUC_ZIP_NON_ASCII);
    fmuc_fmu_close(&f);
}

Test(zip, refuses_non_files)
{
    fmuc_fmu f;
    open_expect(&f, path_of("missing.fmu"), NULL, FMUC_EINPUT);
    fmuc_fmu_close(&f);
    cr_assert_eq(mkdir(path_of("dir.fmu"), 0700), 0);
    open_expect(&f, path_of("dir.fmu"), NULL, FMUC_EINPUT);
    fmuc_fmu_close(&f);
    cr_assert_eq(mkfifo(path_of("fifo.fmu"), 0600), 0);
    open_expect(&f, path_of("fifo.fmu"), NULL, FMUC_EINPUT);
    fmuc_fmu_close(&f);
    open_expect(&f, "/dev/zero", NULL, FMUC_EINPUT);
    fmuc_fmu_close(&f);
    FILE *e = fopen(path_of("empty.fmu"), "w");
    fclose(e);
    open_expect(&f, path_of("empty.fmu"), NULL, FMUC_EINPUT);
    fmuc_fmu_close(&f);
    FILE *t = fopen(path_of("text.fmu"), "w");
    fputs("this is not a zip archive\n", t);
    fclose(t);
    fmuc_diag d = {{0}, 0};
    cr_assert_eq(fmuc_fmu_open(&f, path_of("text.fmu"), NULL, g_tmp, &d), FMUC_EINPUT);
    cr_assert_not_null(strstr(d.msg, "text.fmu"), "diag names the path: %s", d.msg);
    fmuc_fmu_close(&f);
    cr_assert_eq(count_tmp(), 0);
}

Test(zip, refuses_truncated_archive)
{
    char *p = good_fmu("trunc.fmu");
    struct stat st;
    cr_assert_eq(stat(p, &st), 0);
    cr_assert_eq(truncate(p, st.st_size - 40), 0); /* cut inside the central directory */
    fmuc_fmu f;
    open_expect(&f, p, NULL, FMUC_EINPUT);
    fmuc_fmu_close(&f);
    cr_assert_eq(truncate(p, st.st_size / 2), 0);
    open_expect(&f, p, NULL, FMUC_EINPUT);
    fmuc_fmu_close(&f);
}

/* FMI 1.0 and 3.0 FMUs are opened and keep their model; the library is looked for in the
 * version's own binaries folder (FMI 3.0 §2.5.1.4: platform tuples). */
Test(zip, fmi1_and_fmi3_are_opened_in_their_platform_folder)
{
    const char *vs[] = {"1.0", "3.0", "3.0-beta.2"};
    const int want[] = {1, 3, 3};
    for (int i = 0; i < 3; i++) {
        const char *md = md_text(vs[i], "m");
        const char *plat = fmuc_host_platform_for(want[i]);
        char lib[64], other[64];
        snprintf(lib, sizeof lib, "binaries/%s/m.so", plat);
        snprintf(other, sizeof other, "binaries/%s/m.so",
                 want[i] == 3 ? fmuc_host_platform() : fmuc_host_platform_for(3));
        spec sp[] = {{"modelDescription.xml", md, 0, 0, 0, 0, 0}, {lib, "x", 0, 0, 0, 0, 0}};
        char *p = build("other.fmu", sp, 2);
        fmuc_fmu f;
        open_expect(&f, p, NULL, FMUC_OK);
        cr_assert_str_eq(f.fmi_version_seen, vs[i]);
        cr_assert_eq(fmuc_fmu_fmi_version(&f), want[i]);
        cr_assert_str_eq(f.platform, plat);
        cr_assert(f.md_parsed);
        if (want[i] == 3) /* <CoSimulation modelIdentifier="m"/> as in FMI 3.0 */
            cr_assert_not_null(f.lib_path_cs);
        fmuc_fmu_close(&f);
        /* the other convention's folder is not this version's binary */
        spec sp2[] = {{"modelDescription.xml", md, 0, 0, 0, 0, 0}, {other, "x", 0, 0, 0, 0, 0}};
        p = build("other2.fmu", sp2, 2);
        open_expect(&f, p, NULL, FMUC_OK);
        cr_assert_null(f.lib_path_cs);
        cr_assert_null(f.lib_path_me);
        fmuc_fmu_close(&f);
    }
    cr_assert_str_eq(fmuc_host_platform_for(3), "x86_64-linux");
    cr_assert_str_eq(fmuc_host_platform_for(1), "linux64");
}

Test(zip, missing_or_broken_model_description)
{
    spec sp[] = {{"binaries/linux64/m.so", "x", 0, 0, 0, 0, 0}};
    char *p = build("nomd.fmu", sp, 1);
    fmuc_fmu f;
    open_expect(&f, p, NULL, FMUC_EXML);
    cr_assert(!f.has_md_file);
    cr_assert_eq(f.listing.nentries, 1);
    fmuc_fmu_close(&f);
    spec sp2[] = {{"modelDescription.xml", "<fmiModelDescription", 0, 0, 0, 0, 0}};
    p = build("badmd.fmu", sp2, 1);
    open_expect(&f, p, NULL, FMUC_EXML);
    cr_assert(f.has_md_file);
    cr_assert(!f.md_parsed);
    cr_assert_geq(f.md.nissues, 1);
    fmuc_fmu_close(&f);
}

Test(zip, invalid_model_identifier_gives_no_library_path)
{
    const char *md = md_text("2.0", "../../evil");
    spec sp[] = {{"modelDescription.xml", md, 0, 0, 0, 0, 0},
                 {"binaries/linux64/m.so", "x", 0, 0, 0, 0, 0}};
    char *p = build("mi.fmu", sp, 2);
    fmuc_fmu f;
    open_expect(&f, p, NULL, FMUC_OK);
    cr_assert_null(f.lib_path_cs);
    fmuc_fmu_close(&f);
}

Test(zip, non_c_model_identifier_still_names_the_library_file)
{
    /* "water-tank" breaks the C-identifier rule (md-model-identifier judges that), but the library
     * binaries/linux64/water-tank.so is what an importer loads, so the dynamic checks get it. */
    const char *md = md_text("2.0", "water-tank");
    spec sp[] = {{"modelDescription.xml", md, 0, 0, 0, 0, 0},
                 {"binaries/linux64/water-tank.so", "x", 0, 0, 0, 0, 0}};
    char *p = build("wt.fmu", sp, 2);
    fmuc_fmu f;
    open_expect(&f, p, NULL, FMUC_OK);
    cr_assert_not_null(f.lib_path_cs);
    size_t L = strlen(f.lib_path_cs);
    cr_assert(L > 30 && strcmp(f.lib_path_cs + L - 30, "binaries/linux64/water-tank.so") == 0);
    fmuc_fmu_close(&f);
}

Test(zip, name_rules)
{
    struct {
        const char *n;
        uint32_t want;
    } c[] = {
        {"modelDescription.xml", 0},
        {"binaries/linux64/", 0},
        {"a/../b", FMUC_ZIP_DOTDOT},
        {"..", FMUC_ZIP_DOTDOT},
        {"a\\..\\b", FMUC_ZIP_BACKSLASH | FMUC_ZIP_DOTDOT},
        {"/abs", FMUC_ZIP_ABSOLUTE},
        {"c:\\x", FMUC_ZIP_ABSOLUTE | FMUC_ZIP_BACKSLASH},
        {"a//b", FMUC_ZIP_BAD_NAME},
        {"ab:c", FMUC_ZIP_BAD_NAME},
        {"a:b", FMUC_ZIP_ABSOLUTE}, /* drive-relative */
        {"a/./b", FMUC_ZIP_DOT_PREFIX},
        {"\xff\xfe", FMUC_ZIP_BAD_NAME},
        {"\xc0\xaf", FMUC_ZIP_BAD_NAME}, /* overlong '/' */
        {"r\xc3\xa9sum\xc3\xa9", FMUC_ZIP_NON_ASCII},
        {"", FMUC_ZIP_BAD_NAME},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        cr_assert_eq(fmuc_zip__name_problems(c[i].n, strlen(c[i].n)), c[i].want, "%zu: %s -> %x",
                     i, c[i].n, fmuc_zip__name_problems(c[i].n, strlen(c[i].n)));
    char longname[300];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    cr_assert_eq(fmuc_zip__name_problems(longname, strlen(longname)), FMUC_ZIP_BAD_NAME);
    cr_assert_str_eq(fmuc_zip_problem_name(FMUC_ZIP_SYMLINK), "symlink");
    cr_assert_str_eq(fmuc_zip_problem_name(FMUC_ZIP_MULTI_DISK), "multi-disk");
}

Test(zip, rmtree_does_not_follow_links)
{
    char outside[1024], tree[1024], q[PATH_MAX];
    snprintf(outside, sizeof outside, "%s/outside", g_root);
    snprintf(tree, sizeof tree, "%s/tree", g_root);
    cr_assert_eq(mkdir(outside, 0700), 0);
    snprintf(q, sizeof q, "%s/keep.txt", outside);
    FILE *k = fopen(q, "w");
    fclose(k);
    cr_assert_eq(mkdir(tree, 0700), 0);
    snprintf(q, sizeof q, "%s/sub", tree);
    cr_assert_eq(mkdir(q, 0500), 0);
    snprintf(q, sizeof q, "%s/link", tree);
    cr_assert_eq(symlink(outside, q), 0);
    cr_assert_eq(fmuc_rmtree(tree), FMUC_OK);
    cr_assert_eq(access(tree, F_OK), -1);
    snprintf(q, sizeof q, "%s/keep.txt", outside);
    cr_assert_eq(access(q, F_OK), 0);
}

Test(zip, host_platform)
{
#if defined(__x86_64__) && defined(__linux__)
    cr_assert_str_eq(fmuc_host_platform(), "linux64");
#endif
}

/* The project's own FMUs are zipped by `cmake -E tar --format=zip` (libarchive): data descriptors
 * with the uncompressed size also in the local header. They must open. */
Test(zip, project_fmus_open)
{
#ifdef FMUC_FMU_DIR
    const char *dirs[] = {FMUC_FMU_DIR, FMUC_FMU_DIR "/good"};
    int opened = 0;
    for (int k = 0; k < 2; k++) {
        DIR *d = opendir(dirs[k]);
        if (!d)
            continue;
        struct dirent *de;
        while ((de = readdir(d))) {
            size_t n = strlen(de->d_name);
            if (n < 5 || strcmp(de->d_name + n - 4, ".fmu") != 0)
                continue;
            char p[PATH_MAX];
            snprintf(p, sizeof p, "%s/%s", dirs[k], de->d_name);
            fmuc_fmu f;
            open_expect(&f, p, NULL, FMUC_OK);
            cr_assert(f.lib_path_me || f.lib_path_cs, "%s: no library for this platform", p);
            fmuc_fmu_close(&f);
            opened++;
        }
        closedir(d);
    }
    if (!opened)
        cr_skip_test("no project FMUs built");
    cr_assert_eq(count_tmp(), 0);
#else
    cr_skip_test("FMUC_FMU_DIR not defined");
#endif
}
