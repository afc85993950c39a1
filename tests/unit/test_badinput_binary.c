/* Bad-input suite, misbehaving binaries not covered by tests/unit/test_worker.c (robustness.md
 * §4.3): B13 garbage status codes from fmi2DoStep (42, -1), B14 fmi2Instantiate returning NULL,
 * B17 an FMU that switches LC_NUMERIC to de_DE and the FP rounding mode. End to end: a CS FMU is
 * packaged at test time from tests/fixtures/badinput/bi_fmu.c builds and a hand-written
 * modelDescription.xml; the well-behaved build passes every check. */
#include <criterion/criterion.h>
#include <glob.h>
#include <criterion/logging.h>

#include "test_badinput_util.h"

#define BI_FIXTURES FMUC_BUILD_DIR "/tests/fixtures/badinput"

static const char bi_md[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"bi\" "
    "guid=\"{6f1d2c3a-0000-4000-8000-00000000b1b1}\" description=\"bad-input fixture\" "
    "generationTool=\"fmucheck tests\" variableNamingConvention=\"flat\" "
    "numberOfEventIndicators=\"0\">\n"
    "  <CoSimulation modelIdentifier=\"bi\" canHandleVariableCommunicationStepSize=\"true\"/>\n"
    "  <DefaultExperiment startTime=\"0\" stopTime=\"1\" stepSize=\"0.1\"/>\n"
    "  <ModelVariables>\n"
    "    <ScalarVariable name=\"y\" valueReference=\"0\" causality=\"output\" "
    "variability=\"continuous\" initial=\"calculated\" description=\"y = time\">\n"
    "      <Real/>\n"
    "    </ScalarVariable>\n"
    "  </ModelVariables>\n"
    "  <ModelStructure>\n"
    "    <Outputs>\n      <Unknown index=\"1\" dependencies=\"\"/>\n    </Outputs>\n"
    "    <InitialUnknowns>\n      <Unknown index=\"1\" dependencies=\"\"/>\n    </InitialUnknowns>\n"
    "  </ModelStructure>\n"
    "</fmiModelDescription>\n";

/* e->in/bi_<mode>.fmu from the fixture build bi_<mode>.so */
static void make_bi_fmu(bi_env *e, const char *mode, char *path, size_t n)
{
    char so[512];
    snprintf(so, sizeof so, BI_FIXTURES "/bi_%s.so", mode);
    size_t len;
    char *lib = bi_file_bytes(so, &len);
    bi_fmu f;
    memset(&f, 0, sizeof f);
    bi_fmu_set(&f, "modelDescription.xml", bi_md, sizeof bi_md - 1);
    bi_fmu_set(&f, "binaries/linux64/bi.so", lib, len);
    char name[64];
    snprintf(name, sizeof name, "bi_%s.fmu", mode);
    bi_in(e, name, path, n);
    bi_fmu_write(&f, path);
    bi_fmu_free(&f);
    free(lib);
}

/* Any check whose verdict is v and one of whose messages contains needle. */
static int some_check_says(const cJSON *rep, const char *v, const char *needle)
{
    const cJSON *c, *m;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(rep, "checks"))
    {
        const char *cv = cJSON_GetStringValue(cJSON_GetObjectItem(c, "verdict"));
        if (!cv || strcmp(cv, v))
            continue;
        cJSON_ArrayForEach(m, cJSON_GetObjectItem(c, "messages"))
        {
            const char *s = cJSON_GetStringValue(m);
            if (s && strstr(s, needle))
                return 1;
        }
    }
    return 0;
}

Test(badinput_binary, well_behaved_fixture_passes, .timeout = 120)
{
    bi_env e;
    bi_env_init(&e, "bok");
    char p[700];
    make_bi_fmu(&e, "ok", p, sizeof p);
    fmuc_test_run r;
    cJSON *rep = bi_check(&e, p, NULL, 0, &r);
    cr_expect_str_eq(bi_status(rep), "complete", "%s", r.out);
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    bi_env_fini(&e);
}

Test(badinput_binary, b13_garbage_status_codes_fail_with_the_value, .timeout = 120)
{
    const char *modes[] = {"status42", "status_minus1"}, *vals[] = {"42", "-1"};
    for (int i = 0; i < 2; i++) {
        bi_env e;
        bi_env_init(&e, modes[i]);
        char p[700], needle[64];
        make_bi_fmu(&e, modes[i], p, sizeof p);
        fmuc_test_run r;
        cJSON *rep = bi_check(&e, p, NULL, 1, &r);
        snprintf(needle, sizeof needle, "invalid status %s", vals[i]);
        cr_expect(some_check_says(rep, "fail", needle), "%s: a failed check names '%s'\n%s", modes[i],
                  needle, r.out);
        cr_expect_str_eq(bi_status(rep), "complete");
        cJSON_Delete(rep);
        fmuc_test_run_free(&r);
        bi_env_fini(&e);
    }
}

Test(badinput_binary, b14_instantiate_null_is_a_failure_not_a_crash, .timeout = 120)
{
    bi_env e;
    bi_env_init(&e, "b14");
    char p[700];
    make_bi_fmu(&e, "null_instance", p, sizeof p);
    fmuc_test_run r;
    cJSON *rep = bi_check(&e, p, NULL, 1, &r);
    cr_expect_str_eq(bi_verdict(rep, "api-instantiate"), "fail", "%s", r.out);
    cr_expect(some_check_says(rep, "fail", "returned NULL"), "the failure says NULL: %s", r.out);
    /* nothing may be called on a NULL instance: no check crashed the worker */
    cr_expect(!strstr(r.out, "SIGSEGV") && !strstr(r.err, "SIGSEGV"), "a worker crashed: %s", r.out);
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    bi_env_fini(&e);
}

Test(badinput_binary, b17_fmu_locale_and_fp_mode_do_not_reach_the_report, .timeout = 180)
{
    bi_env e;
    bi_env_init(&e, "b17");
    /* a de_DE locale of our own (LOCPATH), so the FMU's setlocale really takes effect */
    char loc[700], locale_dir[800], marker[700];
    snprintf(loc, sizeof loc, "%s/locales", e.root);
    mkdir(loc, 0755);
    snprintf(locale_dir, sizeof locale_dir, "%s/de_DE.UTF-8", loc);
    char *argv[] = {"/usr/bin/localedef", "-i", "de_DE", "-f", "UTF-8", locale_dir, NULL};
    fmuc_test_run l;
    memset(&l, 0, sizeof l);
    int made = access(argv[0], X_OK) == 0 && fmuc_test_exec(&l, argv, NULL) == 0 && l.status == 0;
    fmuc_test_run_free(&l);
    if (!made) {
        bi_env_fini(&e);
        cr_skip("cannot build a de_DE locale with localedef");
    }
    /* the marker goes where the worker sandbox lets the FMU write (--allow-write) */
    char markdir[600];
    snprintf(markdir, sizeof markdir, "%s/marker", e.root);
    cr_assert(mkdir(markdir, 0777) == 0 && chmod(markdir, 0777) == 0);
    snprintf(marker, sizeof marker, "%s/locale-took-effect", markdir);
    /* FMU code sees neither variable nor the locale folder unless named: --pass-env, and the
     * locale folder made readable with --allow-write (issue 16: minimal environment, reads
     * confined) */
    const char *allow[] = {"--allow-write", markdir, "--allow-write", loc,
                           "--pass-env", "LOCPATH", "--pass-env", "FMUC_BI_LOCALE_OK", NULL};
    setenv("LOCPATH", loc, 1);
    setenv("FMUC_BI_LOCALE_OK", marker, 1);
    char p[700];
    make_bi_fmu(&e, "locale", p, sizeof p);
    fmuc_test_run r;
    /* the FMU leaves its locale and rounding mode behind: api-process-state fails (FMI 2.0.4
     * §2.1, C-03), the only failure, so the exit is 1 */
    cJSON *rep = bi_check(&e, p, allow, 1, &r);
    unsetenv("LOCPATH");
    unsetenv("FMUC_BI_LOCALE_OK");
    if (access(marker, F_OK) != 0)
        cr_log_warn("b17: the FMU's setlocale(de_DE) did not take effect; the case is weaker");
    cr_expect(rep, "report.json parses (numbers with '.')");
    cr_expect_str_eq(bi_status(rep), "complete", "%s", r.out);
    cr_expect_str_eq(bi_verdict(rep, "api-process-state"), "fail",
                     "the rounding mode and locale left behind are named");
    /* a decimal comma anywhere in a number would have made report.json unparseable above */
    cr_expect(!some_check_says(rep, "error", "reply"), "the worker reply survived the FMU's locale");
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    bi_env_fini(&e);
}

/* ---- B11/B12: the worker sandbox ------------------------------------------------------------ */

static int fmuc_test_copy(const char *src, const char *dst)
{
    size_t n = 0;
    char *data = fmuc_test_read_file(src, &n);
    int rc = data ? fmuc_test_write_file(dst, data, n) : -1;
    free(data);
    return rc;
}

/* api-sandbox's recorded events of kind with errno err (NULL: any errno, but denied by
 * something: "deniedBy" present) */
static int sandbox_events_with(const cJSON *rep, const char *kind, const char *err)
{
    int n = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(rep, "checks"))
    {
        const char *id = cJSON_GetStringValue(cJSON_GetObjectItem(c, "id"));
        if (!id || strcmp(id, "api-sandbox"))
            continue;
        const cJSON *iface;
        cJSON_ArrayForEach(iface, cJSON_GetObjectItem(c, "evidence"))
        {
            const cJSON *ev;
            cJSON_ArrayForEach(ev, cJSON_GetObjectItem(iface, "events"))
            {
                const char *k = cJSON_GetStringValue(cJSON_GetObjectItem(ev, "kind"));
                const char *e = cJSON_GetStringValue(cJSON_GetObjectItem(ev, "errno"));
                const char *by = cJSON_GetStringValue(cJSON_GetObjectItem(ev, "deniedBy"));
                if (k && e && !strcmp(k, kind) && (err ? !strcmp(e, err) : by && by[0]))
                    n++;
            }
        }
    }
    return n;
}

static int iso_has(const cJSON *rep, const char *key)
{
    return cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "isolation"), key)) ||
           (cJSON_IsNumber(cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "isolation"), key)) &&
            cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "isolation"), key)->valuedouble > 0);
}

/* B11: an FMU writing to $HOME, /tmp, its resources/ and the report folder. Run as root without
 * the privilege drop, so that only Landlock stands between it and those folders. The run's
 * folders are in /var/tmp: /tmp is the worker's own (make_private_tmp), where the write to /tmp
 * is allowed and no finding, and a host folder beneath /tmp is not even visible. */
Test(badinput_binary, b11_fmu_writes_outside_its_scratch_are_denied, .timeout = 180)
{
    bi_env e;
    const char *old_tmpdir = getenv("TMPDIR");
    char *saved_tmpdir = old_tmpdir ? strdup(old_tmpdir) : NULL;
    setenv("TMPDIR", "/var/tmp", 1);
    bi_env_init(&e, "b11");
    if (saved_tmpdir) {
        setenv("TMPDIR", saved_tmpdir, 1);
        free(saved_tmpdir);
    } else {
        unsetenv("TMPDIR");
    }
    char p[700];
    snprintf(p, sizeof p, "%s/fs.fmu", e.in);
    cr_assert(fmuc_test_copy(FMUC_FMU_DIR "/broken/api-sandbox.fmu", p) == 0);
    cr_assert(chmod(e.sentinel, 0777) == 0);
    const char *old_home = getenv("HOME");
    char *home = old_home ? strdup(old_home) : NULL;
    setenv("HOME", e.sentinel, 1);
    const char *extra[] = {"--only", "api-sandbox", geteuid() == 0 ? "--no-privilege-drop" : NULL,
                           NULL};
    fmuc_test_run r;
    cr_assert(bi_exec(&e, &r, NULL, p, extra) == 0);
    if (home) {
        setenv("HOME", home, 1);
        free(home);
    }
    bi_expect_hygiene(&e, p);
    cJSON *rep = bi_report(&e);
    cr_assert(rep, "report.json");
    if (iso_has(rep, "landlockAbi") && iso_has(rep, "seccomp")) {
        /* tool policy: a warning by default (a gating config can make it must: see B12) */
        cr_expect_eq(r.status, 0, "%s", r.out);
        cr_expect_str_eq(bi_verdict(rep, "api-sandbox"), "warn");
        /* resources/ denied per interface ($HOME is the scratch folder in the worker, the
         * private /tmp takes the write to /tmp; until the private /tmp this counted 4) */
        cr_expect_geq(sandbox_events_with(rep, "filesystem", "EACCES"), 2, "%s", r.out);
        cr_expect(strstr(r.out, "fmu-wrote-resources"), "%s", r.out);
        cr_expect(!strstr(r.out, "fmu-wrote-tmp"), "a write into the private /tmp is no finding");
        glob_t g;
        cr_expect_eq(glob("/tmp/fmu-wrote-tmp*", 0, NULL, &g), GLOB_NOMATCH,
                     "the FMU's write into its /tmp reached the host's");
        globfree(&g);
    }
    cr_expect_eq(fmuc_test_count_entries(e.out), 1, "only report.json in the report folder");
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    bi_env_fini(&e);
}

/* B12: TCP connect and a UDP DNS-style packet are denied and named. */
Test(badinput_binary, b12_fmu_network_use_is_denied_and_named, .timeout = 180)
{
    static const char *const fmus[] = {"api-sandbox--tcp", "api-sandbox--udp"};
    for (size_t i = 0; i < 2; i++) {
        bi_env e;
        bi_env_init(&e, "b12");
        char src[700], p[700];
        snprintf(src, sizeof src, "%s/broken/%s.fmu", FMUC_FMU_DIR, fmus[i]);
        snprintf(p, sizeof p, "%s/net.fmu", e.in);
        cr_assert(fmuc_test_copy(src, p) == 0);
        /* a release gate that makes the tool policy a must: the violation fails the run */
        char cfg[760], *cfgdir = fmuc_test_mkdtemp("b12-gate");
        cr_assert(cfgdir);
        snprintf(cfg, sizeof cfg, "%s/gate.json", cfgdir);
        FILE *cf = fopen(cfg, "w");
        cr_assert(cf && fputs("{\"levels\": {\"api-sandbox\": \"must\"}}\n", cf) >= 0 &&
                  fclose(cf) == 0);
        const char *extra[] = {"--only", "api-sandbox", "--config", cfg, NULL};
        fmuc_test_run r;
        cr_assert(bi_exec(&e, &r, NULL, p, extra) == 0);
        fmuc_test_rm_rf(cfgdir);
        free(cfgdir);
        bi_expect_hygiene(&e, p);
        cJSON *rep = bi_report(&e);
        cr_assert(rep, "report.json");
        if (iso_has(rep, "seccomp")) {
            cr_expect_eq(r.status, 1, "%s: %s", fmus[i], r.out);
            cr_expect_str_eq(bi_verdict(rep, "api-sandbox"), "fail");
            /* the nominal run's recording refuses nothing itself: the network namespace
             * denies (errno "unknown" to the recorder); a session of its own: EACCES */
            cr_expect_geq(sandbox_events_with(rep, "network", NULL), 2, "%s", fmus[i]);
        }
        cJSON_Delete(rep);
        fmuc_test_run_free(&r);
        bi_env_fini(&e);
    }
}
