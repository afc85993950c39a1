/* fmucheck --config (profile, levels, advisory, waivers, pins, tolerances, timeouts), --baseline
 * and --fail-on, end to end on the reference FMUs. Only static checks run (fast, FMU code free). */
#include <criterion/criterion.h>
#include <criterion/logging.h>

#include "fmuc_test_util.h"

FMUC_TEST_LSAN_IGNORE_CRITERION()

#define GOOD_FMU FMUC_FMU_DIR "/good/SpringMassDamper.fmu"
#define GUID_FMU FMUC_FMU_DIR "/broken/md-guid-present.fmu"
#define UTC_FMU FMUC_FMU_DIR "/broken/md-generation-date-utc.fmu" /* one SHOULD violation: warn */
/* one MUST violation that warns under interop (md-ms-initial-unknowns) */
#define IU_FMU FMUC_FMU_DIR "/broken/md-ms-initial-unknowns.fmu"
#define STATIC_CHECKS "zip-*,md-*"

typedef struct ctx {
    char *dir;
    char cfg[4200], out[4200], report[4300];
} ctx;

static void ctx_init(ctx *c, const char *tag)
{
    c->dir = fmuc_test_mkdtemp(tag);
    cr_assert(c->dir);
    snprintf(c->cfg, sizeof c->cfg, "%s/gate.json", c->dir);
    snprintf(c->out, sizeof c->out, "%s/out", c->dir);
    snprintf(c->report, sizeof c->report, "%s/report.json", c->out);
}

static void ctx_free(ctx *c)
{
    fmuc_test_rm_rf(c->dir);
    free(c->dir);
}

static void write_cfg(const ctx *c, const char *json)
{
    cr_assert(fmuc_test_write_file(c->cfg, json, strlen(json)) == 0);
}

/* fmucheck -o OUT --no-html --only STATIC [extra...] FMU */
static void run(fmuc_test_run *r, const ctx *c, const char *fmu, const char *e1, const char *e2,
                const char *e3, const char *e4)
{
    char *argv[20];
    size_t k = 0;
    argv[k++] = FMUC_EXE;
    argv[k++] = "-o";
    argv[k++] = (char *)c->out;
    argv[k++] = "--no-html";
    argv[k++] = "--only";
    argv[k++] = STATIC_CHECKS;
    const char *extra[] = {e1, e2, e3, e4};
    for (int i = 0; i < 4; i++)
        if (extra[i])
            argv[k++] = (char *)extra[i];
    argv[k++] = (char *)fmu;
    argv[k] = NULL;
    cr_assert(fmuc_test_exec(r, argv, NULL) == 0);
}

static cJSON *find_check(cJSON *rep, const char *id)
{
    cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(rep, "checks"))
    {
        if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(it, "id")), id) == 0)
            return it;
    }
    return NULL;
}

static const char *verdict_of(cJSON *rep, const char *id)
{
    cJSON *c = find_check(rep, id);
    return c ? cJSON_GetStringValue(cJSON_GetObjectItem(c, "verdict")) : "(absent)";
}

static int has_message(cJSON *chk, const char *needle)
{
    cJSON *m;
    cJSON_ArrayForEach(m, cJSON_GetObjectItem(chk, "messages"))
    {
        if (strstr(cJSON_GetStringValue(m), needle))
            return 1;
    }
    return 0;
}

Test(cli_gating, strict_profile_turns_warnings_into_failures, .timeout = 60)
{
    ctx c;
    ctx_init(&c, "gate-strict");
    fmuc_test_run r;
    run(&r, &c, UTC_FMU, NULL, NULL, NULL, NULL);
    cr_expect_eq(r.status, 0, "lenient by default: a warning passes (stderr %s)", r.err);
    fmuc_test_run_free(&r);
    write_cfg(&c, "{\"profile\": \"strict\"}");
    run(&r, &c, UTC_FMU, "--config", c.cfg, NULL, NULL);
    cr_expect_eq(r.status, 1, "strict: exit %d (stderr %s)", r.status, r.err);
    cJSON *rep = fmuc_test_read_json(c.report);
    cr_assert(rep);
    cr_expect_str_eq(verdict_of(rep, "md-generation-date-utc"), "fail");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(find_check(rep, "md-generation-date-utc"),
                                                              "level")),
                     "must");
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    write_cfg(&c, "{\"profile\": \"lenient\"}");
    run(&r, &c, UTC_FMU, "--config", c.cfg, NULL, NULL);
    cr_expect_eq(r.status, 0);
    fmuc_test_run_free(&r);
    ctx_free(&c);
}

Test(cli_gating, level_overrides_and_advisory_checks, .timeout = 60)
{
    ctx c;
    ctx_init(&c, "gate-levels");
    fmuc_test_run r;
    /* exact id wins over a glob */
    write_cfg(&c, "{\"levels\": {\"md-*\": \"must\", \"md-guid-present\": \"should\"}}");
    run(&r, &c, GUID_FMU, "--config", c.cfg, NULL, NULL);
    cr_expect_eq(r.status, 0, "a should-level finding only warns: exit %d %s", r.status, r.err);
    cJSON *rep = fmuc_test_read_json(c.report);
    cr_assert(rep);
    cr_expect_str_eq(verdict_of(rep, "md-guid-present"), "warn");
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    /* raising a should check to must fails it */
    write_cfg(&c, "{\"levels\": {\"md-generation-date-utc\": \"must\"}}");
    run(&r, &c, UTC_FMU, "--config", c.cfg, NULL, NULL);
    cr_expect_eq(r.status, 1);
    fmuc_test_run_free(&r);
    /* advisory: MUST failures of these checks become warnings */
    write_cfg(&c, "{\"profile\": \"lenient\", \"advisory\": [\"md-guid-*\"]}");
    run(&r, &c, GUID_FMU, "--config", c.cfg, NULL, NULL);
    cr_expect_eq(r.status, 0, "advisory: exit %d", r.status);
    rep = fmuc_test_read_json(c.report);
    cr_assert(rep);
    cr_expect_str_eq(verdict_of(rep, "md-guid-present"), "warn");
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    ctx_free(&c);
}

Test(cli_gating, waiver_turns_failure_into_recorded_pass, .timeout = 60)
{
    ctx c;
    ctx_init(&c, "gate-waive");
    fmuc_test_run r;
    write_cfg(&c, "{\"waivers\": [{\"check\": \"md-guid-*\", \"fmu\": \"md-guid-present.fmu\","
                  " \"reason\": \"vendor ticket 42\", \"expires\": \"2999-12-31\"}]}");
    run(&r, &c, GUID_FMU, "--config", c.cfg, NULL, NULL);
    cr_expect_eq(r.status, 0, "waived: exit %d %s", r.status, r.err);
    cJSON *rep = fmuc_test_read_json(c.report);
    cr_assert(rep);
    cJSON *chk = find_check(rep, "md-guid-present");
    cr_assert(chk);
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(chk, "verdict")), "pass");
    const char *w = cJSON_GetStringValue(cJSON_GetObjectItem(chk, "waiver"));
    cr_assert(w, "the waiver is recorded in the result");
    cr_expect(strstr(w, "vendor ticket 42"));
    cr_expect(!find_check(rep, "config-gating"), "no config problem to report");
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    /* a waiver for another FMU (by name or by sha256) does not apply */
    write_cfg(&c, "{\"waivers\": [{\"check\": \"md-guid-present\", \"fmu\": \"other.fmu\","
                  " \"reason\": \"x\", \"expires\": \"2999-12-31\"},"
                  "{\"check\": \"md-guid-present\", \"sha256\": "
                  "\"0000000000000000000000000000000000000000000000000000000000000000\","
                  " \"reason\": \"y\", \"expires\": \"2999-12-31\"}]}");
    run(&r, &c, GUID_FMU, "--config", c.cfg, NULL, NULL);
    cr_expect_eq(r.status, 1);
    fmuc_test_run_free(&r);
    /* by sha256 of the very file */
    rep = fmuc_test_read_json(c.report);
    cr_assert(rep);
    char cfg[1024];
    snprintf(cfg, sizeof cfg,
             "{\"waivers\": [{\"check\": \"md-guid-present\", \"sha256\": \"%s\", \"reason\": "
             "\"z\", \"expires\": \"2999-12-31\"}]}",
             cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "fmu"), "sha256")));
    cJSON_Delete(rep);
    write_cfg(&c, cfg);
    run(&r, &c, GUID_FMU, "--config", c.cfg, NULL, NULL);
    cr_expect_eq(r.status, 0);
    fmuc_test_run_free(&r);
    ctx_free(&c);
}

Test(cli_gating, expired_waiver_does_not_apply_and_fails_the_run, .timeout = 60)
{
    ctx c;
    ctx_init(&c, "gate-expired");
    fmuc_test_run r;
    write_cfg(&c, "{\"waivers\": [{\"check\": \"md-guid-present\", \"reason\": \"old ticket\","
                  " \"expires\": \"2001-02-03\"}]}");
    run(&r, &c, GUID_FMU, "--config", c.cfg, NULL, NULL);
    cr_expect_eq(r.status, 1);
    cJSON *rep = fmuc_test_read_json(c.report);
    cr_assert(rep);
    cJSON *chk = find_check(rep, "md-guid-present");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(chk, "verdict")), "fail");
    cr_expect(!cJSON_GetObjectItem(chk, "waiver"));
    cr_expect(has_message(chk, "waiver expired on 2001-02-03"));
    cJSON *cg = find_check(rep, "config-gating");
    cr_assert(cg, "the expiry is visible as a result of its own");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(cg, "verdict")), "fail");
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    /* an expired waiver fails the run even when its check passes now */
    run(&r, &c, GOOD_FMU, "--config", c.cfg, NULL, NULL);
    cr_expect_eq(r.status, 1, "stale waiver: exit %d", r.status);
    rep = fmuc_test_read_json(c.report);
    cr_expect_str_eq(verdict_of(rep, "config-gating"), "fail");
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    ctx_free(&c);
}

Test(cli_gating, pinned_sha256_refuses_a_different_file, .timeout = 60)
{
    ctx c;
    ctx_init(&c, "gate-pin");
    fmuc_test_run r;
    write_cfg(&c, "{\"sha256\": \"1111111111111111111111111111111111111111111111111111111111111111\"}");
    run(&r, &c, GOOD_FMU, "--config", c.cfg, NULL, NULL);
    cr_expect_eq(r.status, 3, "exit %d", r.status);
    cr_expect(strstr(r.err, "pinned"), "stderr: %s", r.err);
    cr_expect(strstr(r.err, c.cfg), "names the config: %s", r.err);
    fmuc_test_run_free(&r);
    char *sargv[] = {"/usr/bin/sha256sum", GOOD_FMU, NULL};
    fmuc_test_run s;
    cr_assert(fmuc_test_exec(&s, sargv, NULL) == 0 && s.status == 0);
    char cfg[256];
    snprintf(cfg, sizeof cfg, "{\"sha256\": [\"%.64s\"]}", s.out);
    fmuc_test_run_free(&s);
    write_cfg(&c, cfg);
    run(&r, &c, GOOD_FMU, "--config", c.cfg, NULL, NULL);
    cr_expect_eq(r.status, 0, "the pinned file is checked: exit %d %s", r.status, r.err);
    fmuc_test_run_free(&r);
    ctx_free(&c);
}

static void expect_bad_config(ctx *c, const char *json, const char *key)
{
    write_cfg(c, json);
    fmuc_test_run r;
    run(&r, c, GOOD_FMU, "--config", c->cfg, NULL, NULL);
    cr_expect_eq(r.status, 64, "%s: exit %d", json, r.status);
    cr_expect(strstr(r.err, c->cfg), "%s: names the file: %s", json, r.err);
    if (key)
        cr_expect(strstr(r.err, key), "%s: names the key '%s': %s", json, key, r.err);
    fmuc_test_run_free(&r);
}

Test(cli_gating, bad_config_is_a_usage_error_naming_file_and_key, .timeout = 60)
{
    ctx c;
    ctx_init(&c, "gate-bad");
    expect_bad_config(&c, "{\"profile\": \"paranoid\"}", "profile");
    expect_bad_config(&c, "{\"levels\": {\"md-guid-present\": \"maybe\"}}", "levels.md-guid-present");
    expect_bad_config(&c, "{\"levels\": {\"md-guid-presnt\": \"must\"}}", "levels.md-guid-presnt");
    expect_bad_config(&c, "{\"waivers\": [{\"check\": \"md-guid-present\", \"expires\": "
                          "\"2999-01-01\"}]}", "waivers[0].reason");
    expect_bad_config(&c, "{\"waivers\": [{\"check\": \"md-guid-present\", \"reason\": \"r\", "
                          "\"expires\": \"31.12.2999\"}]}", "waivers[0].expires");
    expect_bad_config(&c, "{\"tolerances\": {\"rtol\": -1}}", "tolerances.rtol");
    expect_bad_config(&c, "{\"timeouts\": {\"default\": 0}}", "timeouts.default");
    expect_bad_config(&c, "{\"sha256\": \"xyz\"}", "sha256");
    expect_bad_config(&c, "{\"colour\": 1}", "colour");
    expect_bad_config(&c, "{\"passEnv\": [\"LICENSE_SERVER\", \"A=B\"]}", "passEnv[1]");
    expect_bad_config(&c, "{\"passEnv\": \"LICENSE_SERVER\"}", "passEnv");
    expect_bad_config(&c, "{\"stopTime\": \"10\"}", "stopTime");
    expect_bad_config(&c, "{\"profile\": ", NULL);
    fmuc_test_run r;
    run(&r, &c, GOOD_FMU, "--config", "/nonexistent/gate.json", NULL, NULL);
    cr_expect_eq(r.status, 64);
    fmuc_test_run_free(&r);
    ctx_free(&c);
}

Test(cli_gating, command_line_overrides_config_values, .timeout = 60)
{
    ctx c;
    ctx_init(&c, "gate-override");
    write_cfg(&c, "{\"tolerances\": {\"rtol\": 0.01, \"atol\": 0.5},"
                  " \"timeouts\": {\"default\": 7, \"multiplier\": 3}, \"stopTime\": 0.5}");
    fmuc_test_run r;
    run(&r, &c, GOOD_FMU, "--config", c.cfg, "--rtol", "0.25");
    cr_expect_eq(r.status, 0);
    cJSON *rep = fmuc_test_read_json(c.report);
    cr_assert(rep);
    cJSON *o = cJSON_GetObjectItem(rep, "options");
    cr_expect_eq(cJSON_GetObjectItem(o, "rtol")->valuedouble, 0.25, "command line wins");
    cr_expect_eq(cJSON_GetObjectItem(o, "atol")->valuedouble, 0.5, "config applies");
    cr_expect_eq(cJSON_GetObjectItem(o, "timeoutSeconds")->valuedouble, 7);
    cr_expect_eq(cJSON_GetObjectItem(o, "timeoutMultiplier")->valuedouble, 3);
    cr_expect_eq(cJSON_GetObjectItem(o, "stopTime")->valuedouble, 0.5, "config's stopTime");
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    run(&r, &c, GOOD_FMU, "--config", c.cfg, "--stop-time", "0.25");
    cr_expect_eq(r.status, 0);
    rep = fmuc_test_read_json(c.report);
    cr_assert(rep);
    o = cJSON_GetObjectItem(rep, "options");
    cr_expect_eq(cJSON_GetObjectItem(o, "stopTime")->valuedouble, 0.25, "--stop-time wins");
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    ctx_free(&c);
}

static cJSON *ids_of(cJSON *baseline, const char *key)
{
    return cJSON_GetObjectItem(baseline, key);
}

static int lists(cJSON *arr, const char *id)
{
    cJSON *it;
    cJSON_ArrayForEach(it, arr)
    {
        if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(it, "id")), id) == 0)
            return 1;
    }
    return 0;
}

Test(cli_gating, baseline_new_fixed_unchanged_and_fail_on_new, .timeout = 90)
{
    ctx c;
    ctx_init(&c, "gate-base");
    char broken_rep[4300], good_rep[4300];
    snprintf(broken_rep, sizeof broken_rep, "%s/broken.json", c.dir);
    snprintf(good_rep, sizeof good_rep, "%s/good.json", c.dir);
    fmuc_test_run r;
    run(&r, &c, GUID_FMU, NULL, NULL, NULL, NULL);
    cr_assert_eq(r.status, 1);
    fmuc_test_run_free(&r);
    cr_assert(rename(c.report, broken_rep) == 0);
    run(&r, &c, GOOD_FMU, NULL, NULL, NULL, NULL);
    cr_assert_eq(r.status, 0);
    fmuc_test_run_free(&r);
    cr_assert(rename(c.report, good_rep) == 0);

    /* fixed: failing in the baseline, passing now */
    run(&r, &c, GOOD_FMU, "--baseline", broken_rep, NULL, NULL);
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "fixed"), "summary lists the baseline: %s", r.out);
    cJSON *rep = fmuc_test_read_json(c.report);
    cJSON *b = cJSON_GetObjectItem(rep, "baseline");
    cr_assert(b, "report.json has a baseline object");
    cr_expect(lists(ids_of(b, "fixed"), "md-guid-present"));
    cr_expect_eq(cJSON_GetArraySize(ids_of(b, "newFailures")), 0);
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);

    /* new failure against a clean baseline: --fail-on new still fails */
    run(&r, &c, GUID_FMU, "--baseline", good_rep, "--fail-on", "new");
    cr_expect_eq(r.status, 1, "a regression fails: exit %d", r.status);
    rep = fmuc_test_read_json(c.report);
    b = cJSON_GetObjectItem(rep, "baseline");
    cr_expect(lists(ids_of(b, "newFailures"), "md-guid-present"));
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);

    /* unchanged failure: --fail-on new passes, --fail-on any (default) fails */
    run(&r, &c, GUID_FMU, "--baseline", broken_rep, "--fail-on", "new");
    cr_expect_eq(r.status, 0, "only known failures: exit %d %s", r.status, r.err);
    rep = fmuc_test_read_json(c.report);
    b = cJSON_GetObjectItem(rep, "baseline");
    cr_expect(lists(ids_of(b, "unchangedFailures"), "md-guid-present"));
    cr_expect_eq(cJSON_GetArraySize(ids_of(b, "newFailures")), 0);
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    run(&r, &c, GUID_FMU, "--baseline", broken_rep, NULL, NULL);
    cr_expect_eq(r.status, 1);
    fmuc_test_run_free(&r);

    /* usage errors */
    run(&r, &c, GUID_FMU, "--fail-on", "new", NULL, NULL);
    cr_expect_eq(r.status, 64, "--fail-on new needs --baseline");
    fmuc_test_run_free(&r);
    run(&r, &c, GUID_FMU, "--baseline", c.cfg /* missing */, NULL, NULL);
    cr_expect_eq(r.status, 64);
    fmuc_test_run_free(&r);
    write_cfg(&c, "{\"not\": \"a report\"}");
    run(&r, &c, GUID_FMU, "--baseline", c.cfg, NULL, NULL);
    cr_expect_eq(r.status, 64);
    fmuc_test_run_free(&r);
    ctx_free(&c);
}

static const char *profile_verdict(cJSON *rep, const char *id, const char *profile)
{
    cJSON *c = find_check(rep, id);
    return c ? cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(c, "verdicts"),
                                                        profile))
             : "(absent)";
}

static const char *options_profile(cJSON *rep)
{
    return cJSON_GetStringValue(
        cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "options"), "profile"));
}

Test(cli_gating, profile_selects_verdict_and_exit_code, .timeout = 60)
{
    ctx c;
    ctx_init(&c, "gate-profile");
    fmuc_test_run r;
    /* default interop: the downgraded must-level finding warns, exit 0; one run gives all three */
    run(&r, &c, IU_FMU, NULL, NULL, NULL, NULL);
    cr_expect_eq(r.status, 0, "interop: exit %d (stderr %s)", r.status, r.err);
    cJSON *rep = fmuc_test_read_json(c.report);
    cr_assert(rep);
    cr_expect_str_eq(options_profile(rep), "interop");
    cr_expect_str_eq(verdict_of(rep, "md-ms-initial-unknowns"), "warn");
    cr_expect_str_eq(profile_verdict(rep, "md-ms-initial-unknowns", "interop"), "warn");
    cr_expect_str_eq(profile_verdict(rep, "md-ms-initial-unknowns", "standard"), "fail");
    cr_expect_str_eq(profile_verdict(rep, "md-ms-initial-unknowns", "strict"), "fail");
    cr_expect(cJSON_GetStringValue(cJSON_GetObjectItem(find_check(rep, "md-ms-initial-unknowns"),
                                                       "interopReason")));
    cJSON *sv = cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "summary"), "verdicts");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(sv, "standard")), "fail");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(sv, "interop")), "warn");
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    /* standard and strict fail it */
    run(&r, &c, IU_FMU, "--profile", "standard", NULL, NULL);
    cr_expect_eq(r.status, 1, "standard: exit %d", r.status);
    rep = fmuc_test_read_json(c.report);
    cr_assert(rep);
    cr_expect_str_eq(options_profile(rep), "standard");
    cr_expect_str_eq(verdict_of(rep, "md-ms-initial-unknowns"), "fail");
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    run(&r, &c, IU_FMU, "--profile", "strict", NULL, NULL);
    cr_expect_eq(r.status, 1, "strict: exit %d", r.status);
    fmuc_test_run_free(&r);
    /* a should-level warning: interop and standard pass, strict fails */
    run(&r, &c, UTC_FMU, "--profile", "standard", NULL, NULL);
    cr_expect_eq(r.status, 0);
    fmuc_test_run_free(&r);
    run(&r, &c, UTC_FMU, "--profile", "strict", NULL, NULL);
    cr_expect_eq(r.status, 1);
    fmuc_test_run_free(&r);
    /* the config key, and the command line winning over it */
    write_cfg(&c, "{\"profile\": \"standard\"}");
    run(&r, &c, IU_FMU, "--config", c.cfg, NULL, NULL);
    cr_expect_eq(r.status, 1, "config standard: exit %d (stderr %s)", r.status, r.err);
    fmuc_test_run_free(&r);
    run(&r, &c, IU_FMU, "--config", c.cfg, "--profile", "interop");
    cr_expect_eq(r.status, 0, "--profile wins over the config: exit %d", r.status);
    fmuc_test_run_free(&r);
    /* "lenient" (before profiles had levels) reads as the default, interop */
    write_cfg(&c, "{\"profile\": \"lenient\"}");
    run(&r, &c, IU_FMU, "--config", c.cfg, NULL, NULL);
    cr_expect_eq(r.status, 0);
    rep = fmuc_test_read_json(c.report);
    cr_assert(rep);
    cr_expect_str_eq(options_profile(rep), "interop");
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    /* a bad value is a usage error */
    run(&r, &c, IU_FMU, "--profile", "paranoid", NULL, NULL);
    cr_expect_eq(r.status, 64);
    fmuc_test_run_free(&r);
    ctx_free(&c);
}

Test(cli_gating, waiver_applies_under_every_profile, .timeout = 60)
{
    ctx c;
    ctx_init(&c, "gate-profile-waive");
    fmuc_test_run r;
    write_cfg(&c, "{\"profile\": \"standard\", \"waivers\": [{\"check\": "
                  "\"md-ms-initial-unknowns\", \"reason\": \"tracked upstream\", "
                  "\"expires\": \"2999-12-31\"}]}");
    run(&r, &c, IU_FMU, "--config", c.cfg, NULL, NULL);
    cr_expect_eq(r.status, 0, "waived: exit %d (stderr %s)", r.status, r.err);
    cJSON *rep = fmuc_test_read_json(c.report);
    cr_assert(rep);
    cr_expect_str_eq(verdict_of(rep, "md-ms-initial-unknowns"), "pass");
    cr_expect_str_eq(profile_verdict(rep, "md-ms-initial-unknowns", "strict"), "pass");
    cr_expect_str_eq(profile_verdict(rep, "md-ms-initial-unknowns", "interop"), "pass");
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    ctx_free(&c);
}

Test(cli_gating, baseline_compares_under_the_selected_profile, .timeout = 60)
{
    ctx c;
    ctx_init(&c, "gate-profile-base");
    fmuc_test_run r;
    char base[4300];
    snprintf(base, sizeof base, "%s/base.json", c.dir);
    /* a baseline made under standard: md-ms-initial-unknowns failed there */
    run(&r, &c, IU_FMU, "--profile", "standard", NULL, NULL);
    cr_expect_eq(r.status, 1);
    fmuc_test_run_free(&r);
    cr_assert(rename(c.report, base) == 0);
    /* under interop the same check warns in the baseline too: nothing fixed, nothing new */
    run(&r, &c, IU_FMU, "--baseline", base, NULL, NULL);
    cr_expect_eq(r.status, 0);
    cJSON *rep = fmuc_test_read_json(c.report);
    cr_assert(rep);
    cJSON *b = cJSON_GetObjectItem(rep, "baseline");
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(b, "fixed")), 0);
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(b, "newFailures")), 0);
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    /* under standard it is an unchanged failure */
    run(&r, &c, IU_FMU, "--baseline", base, "--profile", "standard");
    rep = fmuc_test_read_json(c.report);
    cr_assert(rep);
    b = cJSON_GetObjectItem(rep, "baseline");
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(b, "unchangedFailures")), 1);
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    ctx_free(&c);
}

Test(cli_gating, config_pass_env_adds_to_the_command_line_names, .timeout = 60)
{
    ctx c;
    ctx_init(&c, "gate-passenv");
    write_cfg(&c, "{\"passEnv\": [\"LM_LICENSE_FILE\", \"VENDOR_KEY\"]}");
    fmuc_test_run r;
    run(&r, &c, GOOD_FMU, "--config", c.cfg, "--pass-env", "VENDOR_KEY");
    cr_expect_eq(r.status, 0, "exit %d (stderr %s)", r.status, r.err);
    cJSON *rep = fmuc_test_read_json(c.report);
    cr_assert(rep);
    cJSON *pe = cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "options"), "passEnv");
    cr_assert(cJSON_IsArray(pe), "options.passEnv lists the names");
    cr_expect_eq(cJSON_GetArraySize(pe), 2, "a name in both counts once");
    int seen_lm = 0, seen_vendor = 0;
    cJSON *it;
    cJSON_ArrayForEach(it, pe)
    {
        seen_lm |= strcmp(cJSON_GetStringValue(it), "LM_LICENSE_FILE") == 0;
        seen_vendor |= strcmp(cJSON_GetStringValue(it), "VENDOR_KEY") == 0;
    }
    cr_expect(seen_lm && seen_vendor);
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    ctx_free(&c);
}
