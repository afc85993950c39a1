/* Bad-input suite, misbehaving binaries not covered by tests/unit/test_worker.c (robustness.md
 * §4.3): B13 garbage status codes from fmi2DoStep (42, -1), B14 fmi2Instantiate returning NULL,
 * B17 an FMU that switches LC_NUMERIC to de_DE and the FP rounding mode. End to end: a CS FMU is
 * packaged at test time from tests/fixtures/badinput/bi_fmu.c builds and a hand-written
 * modelDescription.xml; the well-behaved build passes every check. */
#include <criterion/criterion.h>
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
    int made = access(argv[0], X_OK) == 0 && fmuc_test_exec(&l, argv, NULL) == 0 && l.status == 0;
    if (access(argv[0], X_OK) == 0)
        fmuc_test_run_free(&l);
    if (!made) {
        bi_env_fini(&e);
        cr_skip("cannot build a de_DE locale with localedef");
    }
    snprintf(marker, sizeof marker, "%s/locale-took-effect", e.root);
    setenv("LOCPATH", loc, 1);
    setenv("FMUC_BI_LOCALE_OK", marker, 1);
    char p[700];
    make_bi_fmu(&e, "locale", p, sizeof p);
    fmuc_test_run r;
    cJSON *rep = bi_check(&e, p, NULL, 0, &r);
    unsetenv("LOCPATH");
    unsetenv("FMUC_BI_LOCALE_OK");
    if (access(marker, F_OK) != 0)
        cr_log_warn("b17: the FMU's setlocale(de_DE) did not take effect; the case is weaker");
    cr_expect(rep, "report.json parses (numbers with '.')");
    cr_expect_str_eq(bi_status(rep), "complete", "%s", r.out);
    /* a decimal comma anywhere in a number would have made report.json unparseable above */
    cr_expect(!some_check_says(rep, "error", "reply"), "the worker reply survived the FMU's locale");
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    bi_env_fini(&e);
}
