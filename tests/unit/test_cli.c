/* The fmucheck command end to end: exit codes, report identity, rejected inputs, temp hygiene. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <zip.h>

#include "check.h"
#include "fmuc_test_util.h"

FMUC_TEST_LSAN_IGNORE_CRITERION()

#define GOOD_FMU FMUC_FMU_DIR "/good/SpringMassDamper.fmu"
#define GUID_FMU FMUC_FMU_DIR "/broken/md-guid-present.fmu"
#define STATIC_CHECKS "zip-*,md-*" /* no FMU code runs: fast and independent of dynamic checks */

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
    expect_rejected(missing);
    /* a folder is a batch: one without any *.fmu is rejected with one line */
    char sub[4200];
    snprintf(sub, sizeof sub, "%s/no-fmus-here", dir);
    cr_assert(mkdir(sub, 0755) == 0);
    expect_rejected(sub);
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

/* FMI 1.0 is judged by the checks that list it (issue 20): an FMU with nothing but a 1.0
 * modelDescription.xml gets verdicts, not exit 4; the checks of 2.0 rules are not applicable. */
Test(cli, fmi1_is_judged, .timeout = 60)
{
    char *dir = fmuc_test_mkdtemp("cli-v1"), *tmp = fmuc_test_mkdtemp("cli-v1-tmp");
    char fmu[4200], out[4200], rp[4300];
    snprintf(fmu, sizeof fmu, "%s/m.fmu", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    make_md_only_fmu(fmu, "1.0");
    fmuc_test_run r;
    cr_assert(run_fmucheck(&r, tmp, out, fmu, NULL, NULL) == 0);
    cr_expect_neq(r.status, 4, "FMI 1.0: exit 4, stderr %s", r.err);
    snprintf(rp, sizeof rp, "%s/report.json", out);
    cJSON *rep = fmuc_test_read_json(rp);
    cr_assert(rep, "FMI 1.0: no report");
    const char *st = cJSON_GetStringValue(cJSON_GetObjectItem(rep, "status"));
    cr_expect(st && strcmp(st, "unsupported") != 0, "FMI 1.0: status %s", st ? st : "(none)");
    int judged = 0, ms_na = 0;
    cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(rep, "checks"))
    {
        const char *id = cJSON_GetStringValue(cJSON_GetObjectItem(it, "id"));
        const char *v = cJSON_GetStringValue(cJSON_GetObjectItem(it, "verdict"));
        if (strcmp(id, "md-fmi-version") == 0)
            judged = strcmp(v, "pass") == 0;
        if (strcmp(id, "md-ms-outputs") == 0)
            ms_na = strcmp(v, "not-applicable") == 0;
    }
    cr_expect(judged, "md-fmi-version judges fmiVersion=\"1.0\"");
    cr_expect(ms_na, "md-ms-outputs (an FMI 2.0 rule) is not applicable to FMI 1.0");
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    fmuc_test_rm_rf(dir);
    fmuc_test_rm_rf(tmp);
    free(dir);
    free(tmp);
}

/* FMI 3.0 is judged (checks list FMUC_V3): no longer "unsupported"; a document without binaries
 * gets its static checks and no harness error */
Test(cli, fmi3_is_judged, .timeout = 60)
{
    char *dir = fmuc_test_mkdtemp("cli-v3"), *tmp = fmuc_test_mkdtemp("cli-v3-tmp");
    char fmu[4200], out[4200], rp[4300];
    snprintf(fmu, sizeof fmu, "%s/m3.fmu", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    make_md_only_fmu(fmu, "3.0");
    fmuc_test_run r;
    cr_assert(run_fmucheck(&r, tmp, out, fmu, NULL, NULL) == 0);
    cr_expect_neq(r.status, 4, "FMI 3.0: exit 4 (unsupported), stderr %s", r.err);
    snprintf(rp, sizeof rp, "%s/report.json", out);
    cJSON *rep = fmuc_test_read_json(rp);
    cr_assert(rep, "FMI 3.0: no report");
    cr_expect_str_neq(cJSON_GetStringValue(cJSON_GetObjectItem(rep, "status")), "unsupported");
    cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(rep, "checks"))
    {
        const char *v = cJSON_GetStringValue(cJSON_GetObjectItem(it, "verdict"));
        cr_expect(strcmp(v, "error"), "FMI 3.0: %s is %s",
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
    cJSON *it;
    int downgraded = 0;
    cJSON_ArrayForEach(it, arr)
    {
        cJSON *lv = cJSON_GetObjectItem(it, "levels");
        const char *std = cJSON_GetStringValue(cJSON_GetObjectItem(lv, "standard"));
        const char *iop = cJSON_GetStringValue(cJSON_GetObjectItem(lv, "interop"));
        cr_expect(std && iop, "levels per profile");
        cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(lv, "strict")), "must");
        cr_expect(cJSON_GetStringValue(cJSON_GetObjectItem(it, "why")), "every entry has why");
        cr_expect(cJSON_GetStringValue(cJSON_GetObjectItem(it, "fix")), "every entry has fix");
        if (std && iop && strcmp(std, iop) != 0) {
            downgraded++;
            cr_expect(cJSON_GetStringValue(cJSON_GetObjectItem(it, "interopReason")),
                      "a check downgraded under interop names why");
        }
    }
    cr_expect(downgraded > 0);
    cJSON_Delete(arr);
    fmuc_test_run_free(&r);
}

/* Issue 21: `fmucheck explain ID` works for every check of the registry and names what the
 * command promises (id, spec section, levels, why, fix, re-run command); an unknown id is a
 * usage error. */
Test(cli, explain_every_check_and_unknown_id, .timeout = 120)
{
    fmuc_test_run r;
    size_t n = 0;
    for (size_t i = 0; fmuc_checks[i]; i++, n++) {
        const fmuc_check *c = fmuc_checks[i];
        cr_assert(run_fmucheck(&r, NULL, NULL, "explain", c->id, NULL) == 0);
        cr_expect_eq(r.status, 0, "explain %s: exit %d, %s", c->id, r.status, r.err);
        cr_expect(strncmp(r.out, c->id, strlen(c->id)) == 0, "explain %s starts with the id",
                  c->id);
        cr_expect(strstr(r.out, c->spec), "explain %s: spec section", c->id);
        cr_expect(c->why && strstr(r.out, c->why), "explain %s: why it matters", c->id);
        cr_expect(c->fix && strstr(r.out, c->fix), "explain %s: how to fix", c->id);
        char rerun[256], broken[256];
        snprintf(rerun, sizeof rerun, "fmucheck --only %s -v FILE.fmu", c->id);
        cr_expect(strstr(r.out, rerun), "explain %s: re-run command", c->id);
        snprintf(broken, sizeof broken, "reference_fmus/broken/%s/", c->id);
        cr_expect(strstr(r.out, broken), "explain %s: its broken reference FMU", c->id);
        for (int p = 0; p < FMUC_PROFILE_COUNT; p++) {
            char lv[64];
            snprintf(lv, sizeof lv, "%s=%s", fmuc_profile_name((fmuc_profile)p),
                     fmuc_check_profile_level(c, (fmuc_profile)p));
            cr_expect(strstr(r.out, lv), "explain %s: level %s", c->id, lv);
        }
        fmuc_test_run_free(&r);
    }
    cr_expect(n == fmuc_checks_count() && n > 0);
    cr_assert(run_fmucheck(&r, NULL, NULL, "explain", "md-no-such-check", NULL) == 0);
    cr_expect_eq(r.status, 64);
    cr_expect(strstr(r.err, "md-no-such-check") && strstr(r.err, "--list-checks"),
              "the error names the id and --list-checks: %s", r.err);
    cr_expect_eq(r.out[0], '\0', "nothing on stdout for an unknown id");
    fmuc_test_run_free(&r);
    cr_assert(run_fmucheck(&r, NULL, NULL, "explain", NULL, NULL) == 0);
    cr_expect_eq(r.status, 64);
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
    static const char *const bad_soak[] = {"0", "1.5", "x", "2000000", "-3"};
    for (size_t i = 0; i < sizeof bad_soak / sizeof *bad_soak; i++) {
        cr_assert(run_fmucheck(&r, NULL, NULL, "--soak", bad_soak[i], GOOD_FMU) == 0);
        cr_expect_eq(r.status, 64, "--soak %s", bad_soak[i]);
        cr_expect(strstr(r.err, "--soak"), "the message names the option: %s", r.err);
        fmuc_test_run_free(&r);
    }
    cr_assert(run_fmucheck(&r, NULL, NULL, NULL, NULL, NULL) == 0);
    cr_expect_eq(r.status, 64);
    fmuc_test_run_free(&r);
}

/* --stop-time: the runs end there, the file's DefaultExperiment is still the one judged, and a
 * stop time the experiment cannot take is a usage error naming the option and the attribute. */
Test(cli, stop_time_replaces_the_default_experiments_stop, .timeout = 120)
{
    fmuc_test_run r;
    cr_assert(run_fmucheck(&r, NULL, NULL, "--stop-time", "abc", GOOD_FMU) == 0);
    cr_expect_eq(r.status, 64);
    cr_expect(strstr(r.err, "--stop-time: 'abc' is not a finite number"), "%s", r.err);
    fmuc_test_run_free(&r);
    cr_assert(run_fmucheck(&r, NULL, NULL, "--stop-time", "0", GOOD_FMU) == 0);
    cr_expect_eq(r.status, 64);
    cr_expect(strstr(r.err, "SpringMassDamper.fmu: --stop-time: stop time 0 is not after the "
                            "start time 0 (DefaultExperiment startTime)"), "%s", r.err);
    fmuc_test_run_free(&r);
    cr_assert(run_fmucheck(&r, NULL, NULL, "--stop-time", "0.005", GOOD_FMU) == 0);
    cr_expect_eq(r.status, 64);
    cr_expect(strstr(r.err, "leaves an interval of 0.005, no longer than DefaultExperiment "
                            "stepSize=0.01"), "%s", r.err);
    fmuc_test_run_free(&r);

    char *out = fmuc_test_mkdtemp("cli-stop-time");
    char *argv[] = {FMUC_EXE, "-q", "--no-html", "-o", out, "--stop-time", "0.5", "--only",
                    "cs-nominal-run,me-nominal-run,md-default-experiment",
                    FMUC_FMU_DIR "/broken/md-default-experiment.fmu", NULL};
    cr_assert(fmuc_test_exec(&r, argv, NULL) == 0);
    cr_expect_eq(r.status, 0, "stderr %s", r.err);
    char rp[4200];
    snprintf(rp, sizeof rp, "%s/report.json", out);
    cJSON *rep = fmuc_test_read_json(rp);
    cr_assert(rep);
    const cJSON *st = cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "options"), "stopTime");
    cr_expect(cJSON_IsNumber(st) && st->valuedouble == 0.5, "options.stopTime is recorded");
    int seen = 0;
    cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(rep, "checks"))
    {
        const char *id = cJSON_GetStringValue(cJSON_GetObjectItem(it, "id"));
        const char *v = cJSON_GetStringValue(cJSON_GetObjectItem(it, "verdict"));
        if (strcmp(id, "md-default-experiment") == 0) {
            /* the file's negative tolerance is still judged */
            cr_expect_str_eq(v, "warn");
            seen++;
            continue;
        }
        const cJSON *sim = cJSON_GetObjectItem(cJSON_GetObjectItem(it, "evidence"), "simulation");
        cr_expect_str_eq(v, "pass", "%s", id);
        cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(sim, "stop")), 0.5, "%s", id);
        cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(sim, "end_time")), 0.5, "%s", id);
        cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(sim, "steps")) > 0, 1, "%s", id);
        seen++;
    }
    cr_expect_eq(seen, 3);
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    fmuc_test_rm_rf(out);
    free(out);
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

static size_t count_str(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

Test(cli, quiet_prints_only_the_verdict_line, .timeout = 60)
{
    char *out = fmuc_test_mkdtemp("cli-quiet");
    fmuc_test_run r;
    cr_assert(run_fmucheck(&r, NULL, out, "-q", "--only=" STATIC_CHECKS, GUID_FMU) == 0);
    cr_expect_eq(r.status, 1, "exit %d, stderr %s", r.status, r.err);
    cr_expect_eq(count_lines(r.out), 1, "stdout: %s", r.out);
    cr_expect(strncmp(r.out, "FAIL md-guid-present.fmu", 24) == 0, "stdout: %s", r.out);
    cr_expect_eq(r.err_len, 0, "stderr: %s", r.err);
    fmuc_test_run_free(&r);
    fmuc_test_rm_rf(out);
    free(out);
}

Test(cli, plain_progress_one_line_per_check_and_summary_table, .timeout = 60)
{
    char *out = fmuc_test_mkdtemp("cli-prog");
    fmuc_test_run r;
    char *argv[] = {FMUC_EXE, "-o", out, "--no-html", "--only", STATIC_CHECKS, GUID_FMU, NULL};
    char *env[] = {"NO_COLOR=1", NULL};
    cr_assert(fmuc_test_exec(&r, argv, env) == 0);
    cr_expect_eq(r.status, 1);
    char rp[4200];
    snprintf(rp, sizeof rp, "%s/report.json", out);
    cJSON *rep = fmuc_test_read_json(rp);
    cr_assert(rep);
    size_t nchecks = (size_t)cJSON_GetArraySize(cJSON_GetObjectItem(rep, "checks"));
    cr_expect_eq(count_lines(r.err), nchecks, "one progress line per check (%zu): %s", nchecks,
                 r.err);
    cr_expect(strstr(r.err, "fail           md-guid-present"), "stderr: %s", r.err);
    cr_expect(!strchr(r.err, '\r') && !strchr(r.err, '\033'), "no terminal control when piped");
    cr_expect(!strchr(r.out, '\033'), "NO_COLOR: no escape sequences");
    cr_expect(strstr(r.out, "Overall: FAIL"), "summary table from the text reporter: %s", r.out);
    cr_expect(strstr(r.out, "FAIL   md-guid-present"), "the failing check is listed: %s", r.out);
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    fmuc_test_rm_rf(out);
    free(out);
}

/* On a terminal (util-linux `script` provides a pty) progress is one live counter line. */
Test(cli, tty_progress_is_a_live_counter_line, .timeout = 60)
{
    if (access("/usr/bin/script", X_OK) != 0)
        cr_skip_test("no /usr/bin/script for a pseudo terminal");
    char *out = fmuc_test_mkdtemp("cli-tty");
    char *cmd = NULL;
    cr_assert(asprintf(&cmd, "%s -o %s --no-html --only '%s' %s", FMUC_EXE, out, STATIC_CHECKS,
                       GUID_FMU) > 0);
    char *argv[] = {"/usr/bin/script", "-qec", cmd, "/dev/null", NULL};
    fmuc_test_run r;
    cr_assert(fmuc_test_exec(&r, argv, NULL) == 0);
    cr_expect_eq(r.status, 1, "exit %d: %s", r.status, r.out);
    cr_expect(count_str(r.out, "\r\033[K") > 10, "the counter line is redrawn in place: %.300s", r.out);
    cr_expect(strstr(r.out, "md-guid-present: "), "the failure stays on screen");
    cr_expect_eq(count_str(r.out, "pass           "), 0, "passing checks get no line of their own");
    cr_expect(strstr(r.out, "\033[31"), "colors on a terminal");
    fmuc_test_run_free(&r);
    char *argv2[] = {"/usr/bin/script", "-qec", cmd, "/dev/null", NULL};
    char *env[] = {"NO_COLOR=1", NULL};
    cr_assert(fmuc_test_exec(&r, argv2, env) == 0);
    cr_expect(!strstr(r.out, "\033[3"), "NO_COLOR honoured on a terminal");
    fmuc_test_run_free(&r);
    free(cmd);
    fmuc_test_rm_rf(out);
    free(out);
}

static xmlNode *child_el(xmlNode *n, const char *name)
{
    for (xmlNode *c = n ? n->children : NULL; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, name) == 0)
            return c;
    return NULL;
}

static long attr_long(xmlNode *n, const char *name)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
    long x = v ? strtol((const char *)v, NULL, 10) : -1;
    xmlFree(v);
    return x;
}

Test(cli, junit_end_to_end_shape, .timeout = 60)
{
    char *out = fmuc_test_mkdtemp("cli-junit");
    char jp[4200], rp[4200];
    snprintf(jp, sizeof jp, "%s/junit.xml", out);
    snprintf(rp, sizeof rp, "%s/report.json", out);
    fmuc_test_run r;
    char *argv[] = {FMUC_EXE, "-o", out, "--no-html", "--only", STATIC_CHECKS, "--junit", jp,
                    GUID_FMU, NULL};
    cr_assert(fmuc_test_exec(&r, argv, NULL) == 0);
    cr_expect_eq(r.status, 1);
    cJSON *rep = fmuc_test_read_json(rp);
    cr_assert(rep);
    int nchecks = cJSON_GetArraySize(cJSON_GetObjectItem(rep, "checks"));
    xmlDoc *doc = xmlReadFile(jp, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR);
    cr_assert(doc, "junit.xml is not well-formed XML");
    xmlNode *root = xmlDocGetRootElement(doc);
    cr_assert_str_eq((const char *)root->name, "testsuites");
    xmlNode *suite = child_el(root, "testsuite");
    cr_assert(suite);
    xmlChar *sname = xmlGetProp(suite, (const xmlChar *)"name");
    cr_expect_str_eq((const char *)sname, "md-guid-present.fmu");
    xmlFree(sname);
    cr_expect_eq(attr_long(root, "tests"), nchecks);
    cr_expect_eq(attr_long(suite, "tests"), nchecks);
    cr_expect_eq(attr_long(suite, "failures"), 1);
    int ncases = 0, failed_guid = 0;
    for (xmlNode *c = suite->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE || strcmp((const char *)c->name, "testcase"))
            continue;
        ncases++;
        xmlChar *name = xmlGetProp(c, (const xmlChar *)"name");
        xmlChar *cls = xmlGetProp(c, (const xmlChar *)"classname");
        cr_expect(cls && strncmp((const char *)cls, "fmucheck.", 9) == 0);
        if (name && strcmp((const char *)name, "md-guid-present") == 0)
            failed_guid = child_el(c, "failure") != NULL;
        xmlFree(name);
        xmlFree(cls);
    }
    cr_expect_eq(ncases, nchecks, "one testcase per check");
    cr_expect(failed_guid, "md-guid-present is a <failure>");
    xmlFreeDoc(doc);
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    fmuc_test_rm_rf(out);
    free(out);
}

/* SIGINT while a worker hangs in the FMU's library: prompt exit 130, report marked incomplete
 * with the checks that finished, no temp folder, no process left. */
Test(cli, sigint_stops_promptly_and_writes_incomplete_report, .timeout = 120)
{
    char *dir = fmuc_test_mkdtemp("cli-sig"), *tmp = fmuc_test_mkdtemp("cli-sig-tmp");
    char *fmu = fmuc_test_make_hang_fmu(dir, GOOD_FMU);
    if (!fmu)
        cr_skip_test("cannot build the hanging FMU (no /usr/bin/cc?)");
    char out[4200], pidfile[4200], envp[4300], so[4300], se[4300], rp[4300];
    snprintf(out, sizeof out, "%s/out", dir);
    /* the hanging FMU writes its pid where the worker sandbox lets it (--allow-write) */
    char piddir[4100];
    snprintf(piddir, sizeof piddir, "%s/pid", dir);
    cr_assert(chmod(dir, 0711) == 0 && mkdir(piddir, 0777) == 0 && chmod(piddir, 0777) == 0);
    snprintf(pidfile, sizeof pidfile, "%s/worker.pid", piddir);
    snprintf(envp, sizeof envp, "FMUC_TEST_HANG_PIDFILE=%s", pidfile);
    snprintf(so, sizeof so, "%s/stdout", dir);
    snprintf(se, sizeof se, "%s/stderr", dir);
    snprintf(rp, sizeof rp, "%s/report.json", out);
    char *argv[] = {FMUC_EXE, "--timeout", "60", "--tmpdir", tmp, "--allow-write", piddir,
                    "--pass-env", "FMUC_TEST_HANG_PIDFILE", "-o", out, fmu, NULL};
    char *env[] = {envp, NULL};
    pid_t pid = fmuc_test_spawn(argv, env, so, se);
    cr_assert(pid > 0);
    cr_assert(fmuc_test_wait_file(pidfile, 30) == 0, "the worker never reached the library");
    char *wp = fmuc_test_read_file(pidfile, NULL);
    long worker = wp ? strtol(wp, NULL, 10) : 0;
    free(wp);
    double t0 = fmuc_test_now();
    cr_assert(kill(pid, SIGINT) == 0);
    int code = -1;
    cr_assert(fmuc_test_wait(pid, 15, &code) == 0, "fmucheck did not exit after SIGINT");
    double dt = fmuc_test_now() - t0;
    cr_expect_eq(code, 130, "exit %d", code);
    cr_expect(dt < 10, "took %.2f s to stop", dt);
    cJSON *rep = fmuc_test_read_json(rp);
    cr_assert(rep, "no report.json after SIGINT");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(rep, "status")), "incomplete");
    int n = cJSON_GetArraySize(cJSON_GetObjectItem(rep, "checks"));
    cr_expect(n > 10, "the finished checks are kept (%d)", n);
    cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(rep, "checks"))
    {
        const char *v = cJSON_GetStringValue(cJSON_GetObjectItem(it, "verdict"));
        cr_expect(strcmp(v, "error"), "%s: an interrupted check is not reported as an error",
                  cJSON_GetStringValue(cJSON_GetObjectItem(it, "id")));
    }
    cJSON_Delete(rep);
    cr_expect_eq(fmuc_test_count_entries(tmp), 0, "temp folder left behind");
    cr_expect_eq(fmuc_test_procs_with(pidfile), 0, "a process is left over");
    char stat_path[64];
    snprintf(stat_path, sizeof stat_path, "/proc/%ld/stat", worker);
    char *st = fmuc_test_read_file(stat_path, NULL);
    const char *rpar = st ? strrchr(st, ')') : NULL;
    cr_expect(!st || (rpar && rpar[2] == 'Z'), "worker %ld still alive", worker);
    free(st);
    fmuc_test_rm_rf(dir);
    fmuc_test_rm_rf(tmp);
    free(fmu);
    free(dir);
    free(tmp);
}
