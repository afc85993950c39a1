/* zip-* checks on listings built directly (no archive needed), plus the model description
 * parts (SourceFiles, modelIdentifier) from small XML strings. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "fmuc/fmuc_md.h"

#define MAXE 16

typedef struct fixture {
    fmuc_fmu fmu;
    fmuc_zip_entry entries[MAXE];
    fmuc_options opts;
} fixture;

/* A good, minimal listing: modelDescription.xml + binaries/linux64/M.so (deflated). */
static void base(fixture *f)
{
    memset(f, 0, sizeof *f);
    f->fmu.file_name = "M.fmu";
    f->fmu.listing.entries = f->entries;
    fmuc_options_init(&f->opts);
}

static fmuc_zip_entry *add(fixture *f, const char *name)
{
    size_t n = f->fmu.listing.nentries++;
    cr_assert(n < MAXE);
    fmuc_zip_entry *e = &f->entries[n];
    memset(e, 0, sizeof *e);
    e->name = name;
    e->method = 8;
    e->flags = 0x0008; /* data descriptor on a deflated entry is fine */
    e->version_needed = 20;
    e->made_by_os = 3;
    e->external_attr = (uint32_t)(S_IFREG | 0644) << 16;
    e->size = 100;
    e->comp_size = 50;
    size_t len = strlen(name);
    if (len && name[len - 1] == '/') {
        e->is_dir = 1;
        e->method = 0;
        e->flags = 0;
        e->size = e->comp_size = 0;
        e->external_attr = (uint32_t)(S_IFDIR | 0755) << 16;
    }
    return e;
}

static void good_layout(fixture *f)
{
    base(f);
    add(f, "modelDescription.xml");
    add(f, "binaries/");
    add(f, "binaries/linux64/");
    add(f, "binaries/linux64/M.so");
}

static fmuc_verdict run_check(const fmuc_check *c, fixture *f, size_t *nmsg)
{
    fmuc_subject s = {.fmu = &f->fmu, .opts = &f->opts};
    fmuc_result r;
    fmuc_result_init(&r, c->id, c->title, c->spec, c->level);
    c->run(&s, &r);
    fmuc_verdict v = r.verdict;
    if (nmsg)
        *nmsg = r.nmessages;
    fmuc_result_clear(&r);
    return v;
}

static const char *md_xml(const char *me_extra)
{
    static char buf[2048];
    snprintf(buf, sizeof buf,
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"M\" guid=\"{1}\">\n"
             "<ModelExchange modelIdentifier=\"M\">%s</ModelExchange>\n"
             "<ModelVariables><ScalarVariable name=\"x\" valueReference=\"0\"><Real/></ScalarVariable>"
             "</ModelVariables>\n<ModelStructure/>\n</fmiModelDescription>\n",
             me_extra);
    return buf;
}

static void parse_md(fixture *f, const char *xml)
{
    cr_assert_eq(fmuc_md_parse(&f->fmu.md, xml, strlen(xml), NULL), FMUC_OK);
    f->fmu.md_parsed = 1;
}

/* Every zip check is clean (pass or not applicable) on a good FMU layout. */
Test(zip_checks, good_layout_passes_all)
{
    fixture f;
    good_layout(&f);
    add(&f, "documentation/index.html");
    add(&f, "extra/com.example.tool/data.json");
    add(&f, "binaries/win64/M.dll");
    add(&f, "binaries/aarch64-darwin/M.dylib");
    add(&f, "binaries/linux64/gcc12/libM.a");
    add(&f, "sources/model.c");
    parse_md(&f, md_xml("<SourceFiles><File name=\"model.c\"/></SourceFiles>"));
    for (size_t i = 0; fmuc_checks[i]; i++) {
        const fmuc_check *c = fmuc_checks[i];
        if (strncmp(c->id, "zip-", 4) != 0 || !strcmp(c->id, "zip-model-description-present") ||
            !strcmp(c->id, "zip-binary-present"))
            continue;
        fmuc_verdict v = run_check(c, &f, NULL);
        cr_expect(v == FMUC_VERDICT_PASS || v == FMUC_VERDICT_NA, "%s: %s", c->id,
                  fmuc_verdict_name(v));
    }
    fmuc_md_free(&f.fmu.md);
}

Test(zip_checks, fmu_file_name_and_second_fmu)
{
    fixture f;
    good_layout(&f);
    cr_expect_eq(run_check(&fmuc_check_zip_fmu_file, &f, NULL), FMUC_VERDICT_PASS);
    f.fmu.file_name = "M.zip";
    cr_expect_eq(run_check(&fmuc_check_zip_fmu_file, &f, NULL), FMUC_VERDICT_FAIL);
    f.fmu.file_name = ".fmu";
    cr_expect_eq(run_check(&fmuc_check_zip_fmu_file, &f, NULL), FMUC_VERDICT_FAIL);
    f.fmu.file_name = "M.fmu";
    add(&f, "resources/inner/modelDescription.xml"); /* nested data is fine */
    cr_expect_eq(run_check(&fmuc_check_zip_fmu_file, &f, NULL), FMUC_VERDICT_PASS);
    add(&f, "Other/modelDescription.xml");
    size_t n;
    cr_expect_eq(run_check(&fmuc_check_zip_fmu_file, &f, &n), FMUC_VERDICT_FAIL);
    cr_expect_eq(n, 1);
}

Test(zip_checks, compression_method)
{
    fixture f;
    good_layout(&f);
    add(&f, "resources/a.txt")->method = 12;
    add(&f, "resources/b.txt")->method = 14;
    add(&f, "resources/c.txt")->method = 0;
    size_t n;
    cr_expect_eq(run_check(&fmuc_check_zip_compression_method, &f, &n), FMUC_VERDICT_FAIL);
    cr_expect_eq(n, 2);
}

Test(zip_checks, data_descriptor_only_on_deflated)
{
    fixture f;
    good_layout(&f);
    cr_expect_eq(run_check(&fmuc_check_zip_data_descriptor, &f, NULL), FMUC_VERDICT_PASS);
    fmuc_zip_entry *e = add(&f, "resources/a.txt");
    e->method = 0;
    e->flags = 0x0008;
    cr_expect_eq(run_check(&fmuc_check_zip_data_descriptor, &f, NULL), FMUC_VERDICT_FAIL);
}

Test(zip_checks, version_needed_and_zip64)
{
    fixture f;
    good_layout(&f);
    f.entries[0].version_needed = 0x0314; /* high byte is not part of the version */
    cr_expect_eq(run_check(&fmuc_check_zip_version_needed, &f, NULL), FMUC_VERDICT_PASS);
    add(&f, "resources/a.txt")->version_needed = 45;
    size_t n;
    cr_expect_eq(run_check(&fmuc_check_zip_version_needed, &f, &n), FMUC_VERDICT_FAIL);
    cr_expect_eq(n, 1);
    f.fmu.listing.zip64 = 1;
    cr_expect_eq(run_check(&fmuc_check_zip_version_needed, &f, &n), FMUC_VERDICT_FAIL);
    cr_expect_eq(n, 2);
}

Test(zip_checks, encryption_bits)
{
    fixture f;
    good_layout(&f);
    add(&f, "resources/a.txt")->flags |= 0x0001;
    add(&f, "resources/b.txt")->flags |= 0x0040;
    size_t n;
    cr_expect_eq(run_check(&fmuc_check_zip_encryption, &f, &n), FMUC_VERDICT_FAIL);
    cr_expect_eq(n, 2);
}

Test(zip_checks, split_archive)
{
    fixture f;
    good_layout(&f);
    cr_expect_eq(run_check(&fmuc_check_zip_split, &f, NULL), FMUC_VERDICT_PASS);
    f.fmu.listing.multi_disk = 1;
    cr_expect_eq(run_check(&fmuc_check_zip_split, &f, NULL), FMUC_VERDICT_FAIL);
}

Test(zip_checks, symlinks)
{
    fixture f;
    good_layout(&f);
    fmuc_zip_entry *e = add(&f, "resources/link");
    e->external_attr = (uint32_t)(S_IFLNK | 0777) << 16;
    cr_expect_eq(run_check(&fmuc_check_zip_links, &f, NULL), FMUC_VERDICT_FAIL);
    e->made_by_os = 0; /* MS-DOS attributes: the high half means nothing */
    cr_expect_eq(run_check(&fmuc_check_zip_links, &f, NULL), FMUC_VERDICT_PASS);
    e->problems = FMUC_ZIP_SYMLINK;
    cr_expect_eq(run_check(&fmuc_check_zip_links, &f, NULL), FMUC_VERDICT_FAIL);
}

Test(zip_checks, path_syntax)
{
    fixture f;
    good_layout(&f);
    add(&f, "binaries\\win64\\M.dll");
    add(&f, "/etc/x");
    add(&f, "C:/x");
    add(&f, "resources/C:x"); /* a colon later in the name is not a drive */
    size_t n;
    cr_expect_eq(run_check(&fmuc_check_zip_path_syntax, &f, &n), FMUC_VERDICT_FAIL);
    cr_expect_eq(n, 3);
}

Test(zip_checks, dot_components)
{
    fixture f;
    good_layout(&f);
    add(&f, "resources/..data/x"); /* not a ".." component */
    add(&f, "resources/.hidden");
    cr_expect_eq(run_check(&fmuc_check_zip_dot_components, &f, NULL), FMUC_VERDICT_PASS);
    add(&f, "../x");
    add(&f, "resources/../../x");
    add(&f, "./modelDescription.xml");
    add(&f, "resources/./x");
    size_t n;
    cr_expect_eq(run_check(&fmuc_check_zip_dot_components, &f, &n), FMUC_VERDICT_FAIL);
    cr_expect_eq(n, 4);
}

Test(zip_checks, non_ascii_warns)
{
    fixture f;
    good_layout(&f);
    add(&f, "resources/caf\xc3\xa9.txt");
    add(&f, "resources/\xff\xfe.bin"); /* not UTF-8: shown escaped, still reported */
    size_t n;
    cr_expect_eq(run_check(&fmuc_check_zip_non_ascii_names, &f, &n), FMUC_VERDICT_WARN);
    cr_expect_eq(n, 2);
}

Test(zip_checks, platform_folders)
{
    fixture f;
    good_layout(&f);
    add(&f, "binaries/x86_64-linux/M.so");
    add(&f, "binaries/aarch64-linux/M.so");
    add(&f, "binaries/win32/M.dll");
    cr_expect_eq(run_check(&fmuc_check_zip_platform_folders, &f, NULL), FMUC_VERDICT_PASS);
    add(&f, "binaries/Linux64/M.so");
    add(&f, "binaries/Linux64/other.so"); /* same folder: reported once */
    add(&f, "binaries/arm64-macos/M.dylib"); /* a vendor name: allowed by §2.3, a note */
    add(&f, "binaries/M.so");
    size_t n;
    cr_expect_eq(run_check(&fmuc_check_zip_platform_folders, &f, &n), FMUC_VERDICT_WARN);
    cr_expect_eq(n, 3, "two findings and the note");
    fixture g;
    good_layout(&g);
    add(&g, "binaries/arm-linux-gnueabihf/M.so");
    cr_expect_eq(run_check(&fmuc_check_zip_platform_folders, &g, NULL), FMUC_VERDICT_PASS,
                 "a vendor-specific folder alone is no finding");
}

Test(zip_checks, platform_folders_na_without_binaries)
{
    fixture f;
    base(&f);
    add(&f, "modelDescription.xml");
    cr_expect_eq(run_check(&fmuc_check_zip_platform_folders, &f, NULL), FMUC_VERDICT_NA);
}

Test(zip_checks, static_library_names)
{
    fixture f;
    good_layout(&f);
    parse_md(&f, md_xml(""));
    cr_expect_eq(run_check(&fmuc_check_zip_static_library_names, &f, NULL), FMUC_VERDICT_NA);
    add(&f, "binaries/win64/VisualStudio14/M.lib");
    add(&f, "binaries/linux64/gcc9/libM.a");
    add(&f, "binaries/linux64/gcc9/libdep.a"); /* dependencies may sit next to it */
    cr_expect_eq(run_check(&fmuc_check_zip_static_library_names, &f, NULL), FMUC_VERDICT_PASS);
    add(&f, "binaries/linux64/gcc12/libOther.a");
    add(&f, "binaries/linux64/static/libM.a");
    add(&f, "binaries/linux64/libM.a");
    size_t n;
    cr_expect_eq(run_check(&fmuc_check_zip_static_library_names, &f, &n), FMUC_VERDICT_WARN);
    cr_expect_eq(n, 3);
    fmuc_md_free(&f.fmu.md);
}

Test(zip_checks, sources_listed)
{
    fixture f;
    base(&f);
    add(&f, "modelDescription.xml");
    add(&f, "sources/model.c");
    parse_md(&f, md_xml(""));
    cr_expect_eq(run_check(&fmuc_check_zip_sources_listed, &f, NULL), FMUC_VERDICT_FAIL);
    add(&f, "sources/buildDescription.xml");
    cr_expect_eq(run_check(&fmuc_check_zip_sources_listed, &f, NULL), FMUC_VERDICT_PASS);
    fmuc_md_free(&f.fmu.md);

    base(&f);
    add(&f, "modelDescription.xml");
    add(&f, "sources/model.c");
    parse_md(&f, md_xml("<SourceFiles><File name=\"model.c\"/></SourceFiles>"));
    cr_expect_eq(run_check(&fmuc_check_zip_sources_listed, &f, NULL), FMUC_VERDICT_PASS);
    fmuc_md_free(&f.fmu.md);

    good_layout(&f); /* binary present: sources may be informative */
    add(&f, "sources/model.c");
    parse_md(&f, md_xml(""));
    cr_expect_eq(run_check(&fmuc_check_zip_sources_listed, &f, NULL), FMUC_VERDICT_NA);
    fmuc_md_free(&f.fmu.md);
}

Test(zip_checks, sources_fmi_headers)
{
    fixture f;
    good_layout(&f);
    cr_expect_eq(run_check(&fmuc_check_zip_sources_fmi_headers, &f, NULL), FMUC_VERDICT_NA);
    add(&f, "sources/model.c");
    add(&f, "sources/model.h");
    cr_expect_eq(run_check(&fmuc_check_zip_sources_fmi_headers, &f, NULL), FMUC_VERDICT_PASS);
    add(&f, "sources/fmi2Functions.h");
    add(&f, "sources/include/fmi2TypesPlatform.h");
    size_t n;
    cr_expect_eq(run_check(&fmuc_check_zip_sources_fmi_headers, &f, &n), FMUC_VERDICT_WARN);
    cr_expect_eq(n, 2);
}

Test(zip_checks, documentation_index)
{
    fixture f;
    good_layout(&f);
    add(&f, "documentation/");
    cr_expect_eq(run_check(&fmuc_check_zip_documentation_index, &f, NULL), FMUC_VERDICT_NA);
    add(&f, "documentation/_main.html");
    cr_expect_eq(run_check(&fmuc_check_zip_documentation_index, &f, NULL), FMUC_VERDICT_WARN);
    add(&f, "documentation/index.html");
    cr_expect_eq(run_check(&fmuc_check_zip_documentation_index, &f, NULL), FMUC_VERDICT_PASS);
    add(&f, "documentation/licenses/BSD.txt");
    cr_expect_eq(run_check(&fmuc_check_zip_documentation_index, &f, NULL), FMUC_VERDICT_WARN);
    add(&f, "documentation/licenses/license.html");
    cr_expect_eq(run_check(&fmuc_check_zip_documentation_index, &f, NULL), FMUC_VERDICT_PASS);
}

Test(zip_checks, extra_reverse_domain)
{
    fixture f;
    good_layout(&f);
    cr_expect_eq(run_check(&fmuc_check_zip_extra_reverse_domain, &f, NULL), FMUC_VERDICT_NA);
    add(&f, "extra/com.example.tool/a.json");
    add(&f, "extra/org.modelica.ssp/b.xml"); /* reserved: a note, not a warning */
    cr_expect_eq(run_check(&fmuc_check_zip_extra_reverse_domain, &f, NULL), FMUC_VERDICT_PASS);
    add(&f, "extra/readme.txt");
    add(&f, "extra/mytool/data.txt");
    add(&f, "extra/mytool/more.txt"); /* same folder: once */
    add(&f, "extra/.hidden/x");
    size_t n;
    cr_expect_eq(run_check(&fmuc_check_zip_extra_reverse_domain, &f, &n), FMUC_VERDICT_WARN);
    cr_expect_eq(n, 4); /* three warnings and the note about the reserved folder */
}

/* Odd names never crash a check and are shown escaped. */
Test(zip_checks, hostile_names_do_not_crash)
{
    fixture f;
    base(&f);
    add(&f, "");
    add(&f, "/");
    add(&f, "binaries/");
    add(&f, "binaries//x");
    add(&f, "extra/");
    add(&f, "extra//");
    add(&f, "\x01\x02\x7f");
    static char longname[3000];
    memset(longname, 'a', sizeof longname - 1);
    memcpy(longname, "binaries/", 9);
    add(&f, longname);
    f.entries[0].name = NULL;
    parse_md(&f, md_xml(""));
    for (size_t i = 0; fmuc_checks[i]; i++) {
        const char *id = fmuc_checks[i]->id;
        if (strncmp(id, "zip-", 4) == 0 && strcmp(id, "zip-model-description-present") != 0 &&
            strcmp(id, "zip-binary-present") != 0)
            (void)run_check(fmuc_checks[i], &f, NULL);
    }
    fmuc_md_free(&f.fmu.md);
}

/* ---- profiles: findings that warn under interop (README "Profiles") ---- */

/* The verdicts of c under standard and interop. */
static void run_profiles(const fmuc_check *c, fixture *f, fmuc_verdict *std, fmuc_verdict *iop)
{
    fmuc_subject s = {.fmu = &f->fmu, .opts = &f->opts};
    fmuc_result r;
    fmuc_result_init(&r, c->id, c->title, c->spec, c->level);
    c->run(&s, &r);
    fmuc_check_profiles(c, &r, FMUC_PROFILE_STANDARD);
    for (size_t i = 0; i < r.nmessages; i++)
        cr_log_info("%s: %s", c->id, r.messages[i]);
    *std = r.verdicts[FMUC_PROFILE_STANDARD];
    *iop = r.verdicts[FMUC_PROFILE_INTEROP];
    fmuc_result_clear(&r);
}

static const char *two_id_xml(const char *cs_id)
{
    static char buf[1024];
    snprintf(buf, sizeof buf,
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"M\" guid=\"{1}\">\n"
             "<CoSimulation modelIdentifier=\"%s\"/>\n"
             "<ModelVariables><ScalarVariable name=\"x\" valueReference=\"0\"><Real/>"
             "</ScalarVariable></ModelVariables>\n<ModelStructure/>\n</fmiModelDescription>\n",
             cs_id);
    return buf;
}

Test(zip_profiles, binary_missing_for_another_platform_warns_under_interop)
{
    const fmuc_check *c = &fmuc_check_zip_binary_present;
    fmuc_verdict std, iop;
    fixture f;
    char host_lib[128];
    snprintf(host_lib, sizeof host_lib, "binaries/%s/M.so", fmuc_host_platform());
    /* this host's library is there, win32's is missing: a violation of the letter */
    base(&f);
    add(&f, "modelDescription.xml");
    add(&f, host_lib);
    add(&f, "binaries/win32/Other.dll");
    parse_md(&f, two_id_xml("M"));
    run_profiles(c, &f, &std, &iop);
    cr_expect_eq(std, FMUC_VERDICT_FAIL);
    cr_expect_eq(iop, FMUC_VERDICT_WARN);
    fmuc_md_free(&f.fmu.md);
    /* a Windows library named in another letter case */
    base(&f);
    add(&f, "modelDescription.xml");
    add(&f, "binaries/win64/m.dll");
    parse_md(&f, two_id_xml("M"));
    run_profiles(c, &f, &std, &iop);
    cr_expect_eq(std, FMUC_VERDICT_FAIL);
    cr_expect_eq(iop, FMUC_VERDICT_WARN);
    fmuc_md_free(&f.fmu.md);
    /* this host's library is missing (named otherwise): it fails under interop too */
    base(&f);
    add(&f, "modelDescription.xml");
    char other[128];
    snprintf(other, sizeof other, "binaries/%s/Other.so", fmuc_host_platform());
    add(&f, other);
    add(&f, "binaries/win64/M.dll");
    parse_md(&f, two_id_xml("M"));
    run_profiles(c, &f, &std, &iop);
    cr_expect_eq(iop, FMUC_VERDICT_FAIL);
    fmuc_md_free(&f.fmu.md);
}

Test(zip_profiles, model_identifier_of_a_binary_fmu_warns_under_interop)
{
    const fmuc_check *c = &fmuc_check_md_model_identifier;
    fmuc_verdict std, iop;
    fixture f;
    base(&f);
    add(&f, "modelDescription.xml");
    add(&f, "binaries/linux64/watertank-c.so");
    parse_md(&f, two_id_xml("watertank-c"));
    run_profiles(c, &f, &std, &iop);
    cr_expect_eq(std, FMUC_VERDICT_FAIL);
    cr_expect_eq(iop, FMUC_VERDICT_WARN, "shared libraries only: their functions have no prefix");
    fmuc_md_free(&f.fmu.md);
    /* sources/ beside the shared library, not listed in SourceFiles: still not compiled */
    add(&f, "sources/model.c");
    parse_md(&f, two_id_xml("watertank-c"));
    run_profiles(c, &f, &std, &iop);
    cr_expect_eq(iop, FMUC_VERDICT_WARN);
    fmuc_md_free(&f.fmu.md);
    /* a source-only FMU: the identifier prefixes C function names, it fails */
    base(&f);
    add(&f, "modelDescription.xml");
    add(&f, "sources/model.c");
    parse_md(&f, two_id_xml("watertank-c"));
    run_profiles(c, &f, &std, &iop);
    cr_expect_eq(iop, FMUC_VERDICT_FAIL);
    fmuc_md_free(&f.fmu.md);
    /* a static library: linked by the importer, it fails */
    base(&f);
    add(&f, "modelDescription.xml");
    add(&f, "binaries/linux64/watertank-c.so");
    add(&f, "binaries/linux64/gcc9/libwatertank-c.a");
    parse_md(&f, two_id_xml("watertank-c"));
    run_profiles(c, &f, &std, &iop);
    cr_expect_eq(iop, FMUC_VERDICT_FAIL);
    fmuc_md_free(&f.fmu.md);
    /* a name no file system takes as it is fails even for a binary FMU */
    base(&f);
    add(&f, "modelDescription.xml");
    parse_md(&f, two_id_xml("a:b"));
    run_profiles(c, &f, &std, &iop);
    cr_expect_eq(iop, FMUC_VERDICT_FAIL);
    fmuc_md_free(&f.fmu.md);
}

static void well_formed_with(const char *xml, fmuc_verdict *std, fmuc_verdict *iop)
{
    fixture f;
    base(&f);
    add(&f, "modelDescription.xml");
    cr_assert_eq(fmuc_md_parse(&f.fmu.md, xml, strlen(xml), NULL), FMUC_OK);
    f.fmu.md_parsed = 1;
    f.fmu.has_md_file = 1;
    run_profiles(&fmuc_check_md_well_formed, &f, std, iop);
    fmuc_md_free(&f.fmu.md);
}

Test(zip_profiles, latin1_declared_on_ascii_warns_under_interop)
{
    fmuc_verdict std, iop;
    well_formed_with("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n"
                     "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"M\" guid=\"{1}\">\n"
                     "<CoSimulation modelIdentifier=\"M\"/>\n<ModelVariables><ScalarVariable "
                     "name=\"x\" valueReference=\"0\"><Real/></ScalarVariable></ModelVariables>\n"
                     "<ModelStructure/>\n</fmiModelDescription>\n",
                     &std, &iop);
    cr_expect_eq(std, FMUC_VERDICT_FAIL, "the letter: FMI 2.0 requires UTF-8");
    cr_expect_eq(iop, FMUC_VERDICT_WARN, "pure ASCII reads the same in UTF-8");
    /* a Latin-1 byte (0xB0, the degree sign) reads differently as UTF-8: it fails */
    well_formed_with("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n"
                     "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"M\" guid=\"{1}\" "
                     "description=\"10 \xb0" "C\">\n"
                     "<CoSimulation modelIdentifier=\"M\"/>\n<ModelVariables><ScalarVariable "
                     "name=\"x\" valueReference=\"0\"><Real/></ScalarVariable></ModelVariables>\n"
                     "<ModelStructure/>\n</fmiModelDescription>\n",
                     &std, &iop);
    cr_expect_eq(std, FMUC_VERDICT_FAIL);
    cr_expect_eq(iop, FMUC_VERDICT_FAIL);
}

/* a name stored twice where fmucheck reads nothing (FMUC_ZIP_DUPLICATE_OTHER, set by the listing)
 * warns once per name, as a case collision does; a clean listing passes */
Test(zip_checks, duplicate_names_outside_what_is_read_warn)
{
    fixture f;
    good_layout(&f);
    size_t n = 0;
    cr_expect_eq(run_check(&fmuc_check_zip_case_collision, &f, &n), FMUC_VERDICT_PASS);
    add(&f, "extra/")->problems |= FMUC_ZIP_DUPLICATE_OTHER;
    add(&f, "extra/")->problems |= FMUC_ZIP_DUPLICATE_OTHER;
    add(&f, "extra/org.x/a.txt")->problems |= FMUC_ZIP_DUPLICATE_OTHER;
    add(&f, "extra/org.x/a.txt")->problems |= FMUC_ZIP_DUPLICATE_OTHER;
    cr_expect_eq(run_check(&fmuc_check_zip_case_collision, &f, &n), FMUC_VERDICT_WARN);
    cr_expect_eq(n, 2, "one message per duplicated name, got %zu", n);
}
