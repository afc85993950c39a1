/* The fmucheck command end to end: exit codes, report identity, rejected inputs, temp hygiene. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <zip.h>

#include "fmuc_test_util.h"

#define GOOD_FMU FMUC_FMU_DIR "/good/SpringMassDamper.fmu"

static int run_fmucheck(fmuc_test_run *r, const char *tmpdir, const char *outdir,
                        const char *a1, const char *a2, const char *a3)
{
    char *argv[16];
    size_t k = 0;
    argv[k++] = FMUC_EXE;
    if (tmpdir) {
        argv[k++] = "--tmpdir";
        argv[k++] = (char *)tmpdir;
    }
    if (outdir) {
        argv[k++] = "-o";
        argv[k++] = (char *)outdir;
        argv[k++] = "--no-html";
    }
    if (a1)
        argv[k++] = (char *)a1;
    if (a2)
        argv[k++] = (char *)a2;
    if (a3)
        argv[k++] = (char *)a3;
    argv[k] = NULL;
    return fmuc_test_exec(r, argv, NULL);
}

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

Test(cli, good_fmu_passes_and_report_names_sha256, .timeout = 300)
{
    char *tmp = fmuc_test_mkdtemp("cli-tmp"), *out = fmuc_test_mkdtemp("cli-out");
    fmuc_test_run r;
    cr_assert(run_fmucheck(&r, tmp, out, GOOD_FMU, NULL, NULL) == 0);
    cr_expect_eq(r.status, 0, "exit %d\nstdout: %s\nstderr: %s", r.status, r.out, r.err);
    cr_expect(strstr(r.out, "report.json"), "summary names the report path: %s", r.out);
    char rp[4096];
    snprintf(rp, sizeof rp, "%s/report.json", out);
    cJSON *rep = fmuc_test_read_json(rp);
    cr_assert(rep, "report.json missing or invalid");
    const char *sha = cJSON_GetStringValue(
        cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "fmu"), "sha256"));
    cr_assert(sha);
    fmuc_test_run s;
    char *sargv[] = {"/usr/bin/sha256sum", GOOD_FMU, NULL};
    cr_assert(fmuc_test_exec(&s, sargv, NULL) == 0 && s.status == 0);
    cr_expect(strncmp(s.out, sha, 64) == 0, "sha256 %s vs sha256sum %.64s", sha, s.out);
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(rep, "schema")), "fmucheck-report");
    cr_expect_eq(cJSON_GetObjectItem(rep, "schemaVersion")->valuedouble, 1);
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(rep, "status")), "complete");
    cJSON *fmu = cJSON_GetObjectItem(rep, "fmu");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(fmu, "fmiVersion")), "2.0");
    cr_expect(cJSON_GetStringValue(cJSON_GetObjectItem(fmu, "guid")));
    cr_expect(cJSON_GetObjectItem(cJSON_GetObjectItem(fmu, "interfaces"), "modelExchange"));
    cr_expect(cJSON_GetObjectItem(cJSON_GetObjectItem(fmu, "interfaces"), "coSimulation"));
    cr_expect(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "tool"), "libzip")));
    cJSON *checks = cJSON_GetObjectItem(rep, "checks");
    cr_expect(cJSON_GetArraySize(checks) > 0);
    cJSON_Delete(rep);
    cr_expect_eq(fmuc_test_count_entries(tmp), 0, "temp folder left behind");
    fmuc_test_run_free(&r);
    fmuc_test_run_free(&s);
    fmuc_test_rm_rf(tmp);
    fmuc_test_rm_rf(out);
    free(tmp);
    free(out);
}

static void expect_rejected(const char *path)
{
    char *tmp = fmuc_test_mkdtemp("cli-rej"), *out = fmuc_test_mkdtemp("cli-rej-out");
    fmuc_test_run r;
    cr_assert(run_fmucheck(&r, tmp, out, path, NULL, NULL) == 0);
    cr_expect_eq(r.status, 3, "%s: exit %d (stderr: %s)", path, r.status, r.err);
    cr_expect_eq(count_lines(r.err), 1, "%s: expected one line, got: %s", path, r.err);
    cr_expect(strstr(r.err, path), "%s: the message names the path: %s", path, r.err);
    cr_expect_eq(fmuc_test_count_entries(tmp), 0, "%s: temp folder left behind", path);
    fmuc_test_run_free(&r);
    fmuc_test_rm_rf(tmp);
    fmuc_test_rm_rf(out);
    free(tmp);
    free(out);
}

Test(cli, rejects_text_empty_directory_missing, .timeout = 60)
{
    char *dir = fmuc_test_mkdtemp("cli-inputs");
    char text[4200], empty[4200], missing[4200];
    snprintf(text, sizeof text, "%s/notes.fmu", dir);
    snprintf(empty, sizeof empty, "%s/empty.fmu", dir);
    snprintf(missing, sizeof missing, "%s/missing.fmu", dir);
    cr_assert(fmuc_test_write_file(text, "hello, not a zip\n", 17) == 0);
    cr_assert(fmuc_test_write_file(empty, "", 0) == 0);
    expect_rejected(text);
    expect_rejected(empty);
    expect_rejected(dir);
    expect_rejected(missing);
    fmuc_test_rm_rf(dir);
    free(dir);
}

static void make_md_only_fmu(const char *path, const char *fmi_version)
{
    int err = 0;
    zip_t *z = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &err);
    cr_assert(z);
    char *xml = NULL;
    cr_assert(asprintf(&xml,
                       "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                       "<fmiModelDescription fmiVersion=\"%s\" modelName=\"m\" "
                       "instantiationToken=\"{1}\" guid=\"{1}\"><ModelVariables/>"
                       "</fmiModelDescription>\n",
                       fmi_version) > 0);
    zip_source_t *src = zip_source_buffer(z, xml, strlen(xml), 0);
    cr_assert(zip_file_add(z, "modelDescription.xml", src, ZIP_FL_ENC_UTF_8) >= 0);
    cr_assert(zip_close(z) == 0);
    free(xml);
}

Test(cli, fmi1_and_fmi3_are_unsupported_not_broken, .timeout = 60)
{
    const char *versions[] = {"1.0", "3.0"};
    for (int i = 0; i < 2; i++) {
        char *dir = fmuc_test_mkdtemp("cli-ver"), *tmp = fmuc_test_mkdtemp("cli-ver-tmp");
        char fmu[4200], out[4200], rp[4300];
        snprintf(fmu, sizeof fmu, "%s/m%d.fmu", dir, i);
        snprintf(out, sizeof out, "%s/out", dir);
        make_md_only_fmu(fmu, versions[i]);
        fmuc_test_run r;
        cr_assert(run_fmucheck(&r, tmp, out, fmu, NULL, NULL) == 0);
        cr_expect_eq(r.status, 4, "FMI %s: exit %d, stderr %s", versions[i], r.status, r.err);
        snprintf(rp, sizeof rp, "%s/report.json", out);
        cJSON *rep = fmuc_test_read_json(rp);
        cr_assert(rep, "FMI %s: no report", versions[i]);
        cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(rep, "status")), "unsupported");
        cJSON *it;
        cJSON_ArrayForEach(it, cJSON_GetObjectItem(rep, "checks"))
        {
            const char *v = cJSON_GetStringValue(cJSON_GetObjectItem(it, "verdict"));
            cr_expect(strcmp(v, "fail") && strcmp(v, "error"), "FMI %s: %s is %s", versions[i],
                      cJSON_GetStringValue(cJSON_GetObjectItem(it, "id")), v);
        }
        cJSON_Delete(rep);
        cr_expect_eq(fmuc_test_count_entries(tmp), 0);
        fmuc_test_run_free(&r);
        fmuc_test_rm_rf(dir);
        fmuc_test_rm_rf(tmp);
        free(dir);
        free(tmp);
    }
}

Test(cli, list_checks_text_and_json)
{
    fmuc_test_run r;
    cr_assert(run_fmucheck(&r, NULL, NULL, "--list-checks", NULL, NULL) == 0);
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "md-guid-present"));
    fmuc_test_run_free(&r);
    cr_assert(run_fmucheck(&r, NULL, NULL, "--list-checks", "--json", NULL) == 0);
    cr_expect_eq(r.status, 0);
    cJSON *arr = cJSON_Parse(r.out);
    cr_assert(cJSON_IsArray(arr), "not a JSON array: %.200s", r.out);
    cr_expect(cJSON_GetArraySize(arr) > 3);
    cJSON *first = cJSON_GetArrayItem(arr, 0);
    cr_expect(cJSON_GetStringValue(cJSON_GetObjectItem(first, "spec")));
    cr_expect(cJSON_GetStringValue(cJSON_GetObjectItem(first, "level")));
    cJSON_Delete(arr);
    fmuc_test_run_free(&r);
}

Test(cli, usage_errors_and_help)
{
    fmuc_test_run r;
    cr_assert(run_fmucheck(&r, NULL, NULL, "--help", NULL, NULL) == 0);
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "exit codes"));
    fmuc_test_run_free(&r);
    cr_assert(run_fmucheck(&r, NULL, NULL, "--version", NULL, NULL) == 0);
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "fmucheck"));
    fmuc_test_run_free(&r);
    cr_assert(run_fmucheck(&r, NULL, NULL, "--no-such-option", NULL, NULL) == 0);
    cr_expect_eq(r.status, 64);
    fmuc_test_run_free(&r);
    cr_assert(run_fmucheck(&r, NULL, NULL, "--timeout", "abc", GOOD_FMU) == 0);
    cr_expect_eq(r.status, 64);
    fmuc_test_run_free(&r);
    cr_assert(run_fmucheck(&r, NULL, NULL, NULL, NULL, NULL) == 0);
    cr_expect_eq(r.status, 64);
    fmuc_test_run_free(&r);
}

Test(cli, only_and_skip_select_checks, .timeout = 120)
{
    char *out = fmuc_test_mkdtemp("cli-only");
    fmuc_test_run r;
    cr_assert(run_fmucheck(&r, NULL, out, "--only", "md-*", GOOD_FMU) == 0);
    cr_expect_eq(r.status, 0, "stderr %s", r.err);
    char rp[4200];
    snprintf(rp, sizeof rp, "%s/report.json", out);
    cJSON *rep = fmuc_test_read_json(rp);
    cr_assert(rep);
    cJSON *it;
    int n = 0;
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(rep, "checks"))
    {
        cr_expect(strncmp(cJSON_GetStringValue(cJSON_GetObjectItem(it, "id")), "md-", 3) == 0);
        n++;
    }
    cr_expect(n > 0);
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    fmuc_test_rm_rf(out);
    free(out);
}
