/* The static checks on FMI 1.0 model descriptions (issue 20): the 1.0 branches of the md-*
 * checks and the 1.0-only checks (md-alias-base, md-direct-dependency, md-var-fixed) on small
 * 1.0 documents, and the Modelica Reference-FMUs v0.0.39 (FMI 1.0 ME and CS, ../shared) passing
 * every zip-* and md-* check that judges FMI 1.0. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fmuc/fmuc_md.h"
#include "fmuc_test_util.h"

#ifndef FMUC_SHARED_DIR
#define FMUC_SHARED_DIR FMUC_SOURCE_DIR "/../shared"
#endif

/* Run check id on a 1.0 document with modelIdentifier mi: root attributes beyond the required
 * ones, and the body. *other_fail (may be NULL): a failure that is not a violation of the letter
 * only (one the interop profile keeps). */
static fmuc_verdict run1_mi(const char *id, const char *mi, const char *root_extra,
                            const char *body, int *other_fail)
{
    char *xml = NULL;
    cr_assert(asprintf(&xml,
                       "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                       "<fmiModelDescription fmiVersion=\"1.0\" modelName=\"M\" "
                       "modelIdentifier=\"%s\" guid=\"{1}\"%s>\n%s\n</fmiModelDescription>\n",
                       mi, root_extra ? root_extra
                                  : " numberOfContinuousStates=\"0\" numberOfEventIndicators=\"0\"",
                       body) > 0);
    fmuc_fmu fmu;
    memset(&fmu, 0, sizeof fmu);
    cr_assert_eq(fmuc_md_parse(&fmu.md, xml, strlen(xml), NULL), FMUC_OK, "%s", xml);
    cr_assert_eq(fmu.md.fmi, FMUC_FMI1);
    fmu.md_parsed = 1;
    fmu.has_md_file = 1;
    const fmuc_check *c = fmuc_check_find(id);
    cr_assert(c, "no check %s", id);
    cr_assert(c->versions & FMUC_V1, "%s does not judge FMI 1.0", id);
    fmuc_options opts;
    memset(&opts, 0, sizeof opts);
    fmuc_subject s = {.fmu = &fmu, .opts = &opts};
    fmuc_result r;
    fmuc_result_init(&r, c->id, c->title, c->spec, c->level);
    c->run(&s, &r);
    fmuc_verdict v = r.verdict;
    if (other_fail)
        *other_fail = r.other_fail;
    fmuc_result_clear(&r);
    fmuc_md_free(&fmu.md);
    free(xml);
    return v;
}

static fmuc_verdict run1(const char *id, const char *root_extra, const char *body)
{
    return run1_mi(id, "M", root_extra, body, NULL);
}

#define SV(name, vr, attrs, type) \
    "<ScalarVariable name=\"" name "\" valueReference=\"" #vr "\" " attrs ">" type "</ScalarVariable>\n"
#define MV(...) "<ModelVariables>\n" __VA_ARGS__ "</ModelVariables>"

Test(fmi1_checks, alias_sets)
{
    /* a base, an alias and a negated alias with agreeing starts */
    cr_expect_eq(run1("md-alias-base", NULL,
                      MV(SV("x", 1, "", "<Real start=\"2\"/>")
                         SV("y", 1, "alias=\"alias\"", "<Real start=\"2\"/>")
                         SV("z", 1, "alias=\"negatedAlias\"", "<Real start=\"-2\"/>"))),
                 FMUC_VERDICT_PASS);
    /* two noAlias variables on one valueReference: an unmarked set */
    cr_expect_eq(run1("md-alias-base", NULL, MV(SV("x", 1, "", "<Real/>") SV("y", 1, "", "<Real/>"))),
                 FMUC_VERDICT_FAIL);
    /* every member marked alias: no base */
    cr_expect_eq(run1("md-alias-base", NULL,
                      MV(SV("x", 1, "alias=\"alias\"", "<Real/>")
                         SV("y", 1, "alias=\"negatedAlias\"", "<Real/>"))),
                 FMUC_VERDICT_FAIL);
    /* an alias whose valueReference no other Real has (the Integer does not count) */
    cr_expect_eq(run1("md-alias-base", NULL,
                      MV(SV("x", 1, "variability=\"discrete\"", "<Integer/>")
                         SV("y", 1, "alias=\"alias\"", "<Real/>"))),
                 FMUC_VERDICT_FAIL);
    /* a negated alias whose start is not the negation: a warning */
    cr_expect_eq(run1("md-alias-base", NULL,
                      MV(SV("x", 1, "", "<Real start=\"2\"/>")
                         SV("z", 1, "alias=\"negatedAlias\"", "<Real start=\"2\"/>"))),
                 FMUC_VERDICT_WARN);
    /* a negated Boolean alias: a warning */
    cr_expect_eq(run1("md-alias-base", NULL,
                      MV(SV("b", 3, "variability=\"discrete\"", "<Boolean/>")
                         SV("nb", 3, "variability=\"discrete\" alias=\"negatedAlias\"", "<Boolean/>"))),
                 FMUC_VERDICT_WARN);
    cr_expect_eq(run1("md-alias-base", NULL, MV(SV("x", 1, "", "<Real/>"))), FMUC_VERDICT_NA);
}

Test(fmi1_checks, direct_dependency)
{
#define DD(names) "<DirectDependency>" names "</DirectDependency>"
    const char *u = SV("u", 1, "causality=\"input\"", "<Real start=\"0\"/>");
    const char *p = SV("p", 2, "variability=\"parameter\"", "<Real start=\"1\"/>");
    char body[2048];
    snprintf(body, sizeof body, "<ModelVariables>\n%s%s%s</ModelVariables>", u, p,
             SV("y", 3, "causality=\"output\"", "<Real/>" DD("<Name>u</Name>")));
    cr_expect_eq(run1("md-direct-dependency", NULL, body), FMUC_VERDICT_PASS);
    snprintf(body, sizeof body, "<ModelVariables>\n%s%s%s</ModelVariables>", u, p,
             SV("y", 3, "causality=\"output\"", "<Real/>" DD("<Name>p</Name>")));
    cr_expect_eq(run1("md-direct-dependency", NULL, body), FMUC_VERDICT_FAIL);
    snprintf(body, sizeof body, "<ModelVariables>\n%s%s%s</ModelVariables>", u, p,
             SV("y", 3, "causality=\"output\"", "<Real/>" DD("<Name>uu</Name>")));
    cr_expect_eq(run1("md-direct-dependency", NULL, body), FMUC_VERDICT_FAIL);
    snprintf(body, sizeof body, "<ModelVariables>\n%s%s%s</ModelVariables>", u, p,
             SV("w", 3, "", "<Real/>" DD("<Name>u</Name>")));
    cr_expect_eq(run1("md-direct-dependency", NULL, body), FMUC_VERDICT_WARN);
#undef DD
}

Test(fmi1_checks, fixed_needs_start)
{
    cr_expect_eq(run1("md-var-fixed", NULL, MV(SV("x", 1, "", "<Real fixed=\"true\"/>"))),
                 FMUC_VERDICT_WARN);
    cr_expect_eq(run1("md-var-fixed", NULL,
                      MV(SV("x", 1, "", "<Real start=\"1\" fixed=\"false\"/>"))),
                 FMUC_VERDICT_PASS);
}

Test(fmi1_checks, element_order_and_implementation)
{
    const char *cs = "<Implementation><CoSimulation_StandAlone><Capabilities/>"
                     "</CoSimulation_StandAlone></Implementation>";
    char body[1024];
    snprintf(body, sizeof body, "<DefaultExperiment stopTime=\"1\"/>\n%s\n%s",
             MV(SV("x", 1, "", "<Real/>")), cs);
    /* the 1.0 sequence, no ModelStructure: nothing missing */
    cr_expect_eq(run1("md-element-order", NULL, body), FMUC_VERDICT_PASS);
    cr_expect_eq(run1("md-interfaces", NULL, body), FMUC_VERDICT_PASS);
    snprintf(body, sizeof body, "%s\n<DefaultExperiment stopTime=\"1\"/>",
             MV(SV("x", 1, "", "<Real/>")));
    cr_expect_eq(run1("md-element-order", NULL, body), FMUC_VERDICT_FAIL);
    /* no ModelVariables: optional in the schema, FMPy refuses it */
    cr_expect_eq(run1("md-element-order", NULL, "<DefaultExperiment stopTime=\"1\"/>"),
                 FMUC_VERDICT_WARN);
    /* Implementation without Capabilities; a tool coupling without Model */
    cr_expect_eq(run1("md-interfaces", NULL,
                      "<Implementation><CoSimulation_StandAlone/></Implementation>"),
                 FMUC_VERDICT_FAIL);
    cr_expect_eq(run1("md-interfaces", NULL,
                      "<Implementation><CoSimulation_Tool><Capabilities/></CoSimulation_Tool>"
                      "</Implementation>"),
                 FMUC_VERDICT_FAIL);
    /* the 1.0 flag is spelt canRunAsynchronuously; the usual spelling is no 1.0 attribute */
    cr_expect_eq(run1("md-xml-schema", NULL,
                      "<Implementation><CoSimulation_StandAlone><Capabilities "
                      "canRunAsynchronuously=\"false\" canSignalEvents=\"false\"/>"
                      "</CoSimulation_StandAlone></Implementation>"),
                 FMUC_VERDICT_PASS);
    cr_expect_eq(run1("md-xml-schema", NULL,
                      "<Implementation><CoSimulation_StandAlone><Capabilities "
                      "canRunAsynchronously=\"false\"/></CoSimulation_StandAlone>"
                      "</Implementation>"),
                 FMUC_VERDICT_FAIL);
    /* FMI 2.0 elements are no 1.0 elements */
    cr_expect_eq(run1("md-xml-schema", NULL, "<ModelVariables/>\n<ModelStructure/>"),
                 FMUC_VERDICT_FAIL);
    /* Model needs entryPoint and type */
    cr_expect_eq(run1("md-required-attributes", NULL,
                      "<Implementation><CoSimulation_Tool><Capabilities/>"
                      "<Model entryPoint=\"fmu://resources/m.mo\"/></CoSimulation_Tool>"
                      "</Implementation>"),
                 FMUC_VERDICT_FAIL);
}

Test(fmi1_checks, root_attributes)
{
    cr_expect_eq(run1("md-required-attributes", " numberOfContinuousStates=\"0\"",
                      MV(SV("x", 1, "", "<Real/>"))),
                 FMUC_VERDICT_FAIL);
    cr_expect_eq(run1("md-required-attributes", NULL, MV(SV("x", 1, "", "<Real/>"))),
                 FMUC_VERDICT_PASS);
    cr_expect_eq(run1("md-fmi-version", NULL, MV(SV("x", 1, "", "<Real/>"))), FMUC_VERDICT_PASS);
    /* the root's modelIdentifier prefixes every 1.0 function, also in shared libraries: one
     * that is no C identifier fails outright (2.0 downgrades it for shared-library FMUs) */
    int other = 0;
    cr_expect_eq(run1_mi("md-model-identifier", "1M", NULL, MV(SV("x", 1, "", "<Real/>")), &other),
                 FMUC_VERDICT_FAIL);
    cr_expect(other, "a violation of the rule, not only of its letter");
    cr_expect_eq(run1_mi("md-model-identifier", "CON", NULL, MV(SV("x", 1, "", "<Real/>")), NULL),
                 FMUC_VERDICT_FAIL);
    cr_expect_eq(run1_mi("md-model-identifier", "M_1", NULL, MV(SV("x", 1, "", "<Real/>")), NULL),
                 FMUC_VERDICT_PASS);
}

Test(fmi1_checks, variable_rules_of_1_0)
{
    /* an output parameter and an input parameter are 1.0 usage; an input constant warns */
    cr_expect_eq(run1("md-var-causality-variability", NULL,
                      MV(SV("p", 1, "variability=\"parameter\" causality=\"output\"",
                            "<Real start=\"1\"/>")
                         SV("q", 2, "variability=\"parameter\" causality=\"input\"",
                            "<Real start=\"1\"/>"))),
                 FMUC_VERDICT_PASS);
    cr_expect_eq(run1("md-var-causality-variability", NULL,
                      MV(SV("c", 1, "variability=\"constant\" causality=\"input\"",
                            "<Real start=\"1\"/>"))),
                 FMUC_VERDICT_WARN);
    /* 1.0 has no initial: an output with start is fine, an input without start warns */
    cr_expect_eq(run1("md-var-start-required", NULL,
                      MV(SV("y", 1, "causality=\"output\"", "<Real start=\"1\"/>"))),
                 FMUC_VERDICT_PASS);
    cr_expect_eq(run1("md-var-start-required", NULL,
                      MV(SV("u", 1, "causality=\"input\"", "<Real/>"))),
                 FMUC_VERDICT_WARN);
    /* a start outside [min, max] is a derived rule in 1.0 */
    cr_expect_eq(run1("md-var-start-range", NULL,
                      MV(SV("x", 1, "", "<Real min=\"0\" max=\"1\" start=\"2\"/>"))),
                 FMUC_VERDICT_WARN);
    /* a Type's unit need not be in UnitDefinitions in 1.0; duplicate Type names fail */
    cr_expect_eq(run1("md-type-definitions", NULL,
                      "<TypeDefinitions><Type name=\"T\"><RealType unit=\"m\"/></Type>"
                      "</TypeDefinitions>"),
                 FMUC_VERDICT_PASS);
    cr_expect_eq(run1("md-type-definitions", NULL,
                      "<TypeDefinitions><Type name=\"T\"><RealType/></Type>"
                      "<Type name=\"T\"><IntegerType/></Type></TypeDefinitions>"),
                 FMUC_VERDICT_FAIL);
}

/* The Reference-FMUs v0.0.39 (the last release with FMI 1.0) pass every static check that
 * judges FMI 1.0 (issue 20: done when they pass). */
Test(fmi1_checks, reference_fmus_pass_the_static_checks, .timeout = 120)
{
    static const char *const fmus[] = {
        "cs/BouncingBall", "cs/Dahlquist", "cs/Feedthrough", "cs/Resource", "cs/Stair",
        "cs/VanDerPol",    "me/BouncingBall", "me/Dahlquist", "me/Feedthrough", "me/Stair",
        "me/VanDerPol"};
    char probe[4096];
    snprintf(probe, sizeof probe, "%s/reference-fmus/fmi1/me/BouncingBall.fmu", FMUC_SHARED_DIR);
    if (access(probe, R_OK) != 0)
        cr_skip_test("no %s", probe);
    for (size_t i = 0; i < sizeof fmus / sizeof fmus[0]; i++) {
        char fmu[4096], rp[4200];
        snprintf(fmu, sizeof fmu, "%s/reference-fmus/fmi1/%s.fmu", FMUC_SHARED_DIR, fmus[i]);
        char *out = fmuc_test_mkdtemp("fmi1ref");
        cr_assert(out);
        char *argv[] = {FMUC_EXE, "-q", "--no-html", "--only", "zip-*", "--only", "md-*",
                        "-o", out, fmu, NULL};
        fmuc_test_run run;
        cr_assert(fmuc_test_exec(&run, argv, NULL) == 0);
        cr_expect_eq(run.status, 0, "%s: exit %d", fmus[i], run.status);
        snprintf(rp, sizeof rp, "%s/report.json", out);
        cJSON *rep = fmuc_test_read_json(rp);
        cr_assert(rep, "%s: no report", fmus[i]);
        size_t judged = 0;
        cJSON *it;
        cJSON_ArrayForEach(it, cJSON_GetObjectItem(rep, "checks"))
        {
            const char *id = cJSON_GetStringValue(cJSON_GetObjectItem(it, "id"));
            const char *v = cJSON_GetStringValue(
                cJSON_GetObjectItem(cJSON_GetObjectItem(it, "verdicts"), "standard"));
            cr_expect(v && (strcmp(v, "pass") == 0 || strcmp(v, "not-applicable") == 0),
                      "%s: %s is %s", fmus[i], id, v ? v : "?");
            judged += v && strcmp(v, "pass") == 0;
        }
        cr_expect_geq(judged, 30, "%s: only %zu checks passed", fmus[i], judged);
        cJSON_Delete(rep);
        fmuc_test_run_free(&run);
        fmuc_test_rm_rf(out);
        free(out);
    }
}

/* ---- archive checks on a 1.0 FMU (listings built directly) ---- */

typedef struct zfix {
    fmuc_fmu fmu;
    fmuc_zip_entry entries[8];
    fmuc_options opts;
} zfix;

static void zbase(zfix *f)
{
    memset(f, 0, sizeof *f);
    f->fmu.file_name = "M.fmu";
    f->fmu.fmi_version_seen = "1.0";
    f->fmu.md.fmi = FMUC_FMI1;
    f->fmu.md.fmi1_model_identifier = "M";
    f->fmu.md_parsed = 1;
    f->fmu.has_md_file = 1;
    f->fmu.listing.entries = f->entries;
    fmuc_options_init(&f->opts);
}

static fmuc_zip_entry *zadd(zfix *f, const char *name)
{
    size_t n = f->fmu.listing.nentries++;
    cr_assert(n < 8);
    fmuc_zip_entry *e = &f->entries[n];
    memset(e, 0, sizeof *e);
    e->name = name;
    e->method = 8;
    e->version_needed = 20;
    e->size = 100;
    e->comp_size = 50;
    return e;
}

static fmuc_verdict zrun(const char *id, zfix *f)
{
    const fmuc_check *c = fmuc_check_find(id);
    cr_assert(c && (c->versions & FMUC_V1), "%s does not judge FMI 1.0", id);
    cr_assert_eq(fmuc_fmu_fmi_version(&f->fmu), 1);
    fmuc_subject s = {.fmu = &f->fmu, .opts = &f->opts};
    fmuc_result r;
    fmuc_result_init(&r, c->id, c->title, c->spec, c->level);
    c->run(&s, &r);
    fmuc_verdict v = r.verdict;
    fmuc_result_clear(&r);
    return v;
}

Test(fmi1_checks, archive_rules_of_1_0)
{
    zfix f;
    /* darwin64 is customary for 1.0 (a note); an FMI 3.0 tuple is no 1.0 folder */
    zbase(&f);
    zadd(&f, "modelDescription.xml");
    zadd(&f, "binaries/linux64/M.so");
    zadd(&f, "binaries/darwin64/M.dylib");
    cr_expect_eq(zrun("zip-platform-folders", &f), FMUC_VERDICT_PASS);
    zadd(&f, "binaries/x86_64-linux/M.so");
    cr_expect_eq(zrun("zip-platform-folders", &f), FMUC_VERDICT_WARN);
    /* the 1.0 documentation entry point is _main.html */
    zbase(&f);
    zadd(&f, "documentation/index.html");
    cr_expect_eq(zrun("zip-documentation-index", &f), FMUC_VERDICT_WARN);
    zbase(&f);
    zadd(&f, "documentation/_main.html");
    cr_expect_eq(zrun("zip-documentation-index", &f), FMUC_VERDICT_PASS);
    /* 1.0 names no compression methods: bzip2 is a tool heuristic's finding */
    zbase(&f);
    zadd(&f, "modelDescription.xml")->method = 12;
    cr_expect_eq(zrun("zip-compression-method", &f), FMUC_VERDICT_WARN);
    /* a file not named after the modelIdentifier: a note only */
    zbase(&f);
    f.fmu.file_name = "renamed.fmu";
    zadd(&f, "modelDescription.xml");
    cr_expect_eq(zrun("zip-fmu-file", &f), FMUC_VERDICT_PASS);
    /* the 1.0 headers in sources/ */
    zbase(&f);
    zadd(&f, "sources/fmiModelFunctions.h");
    cr_expect_eq(zrun("zip-sources-fmi-headers", &f), FMUC_VERDICT_WARN);
}

/* ---- me-event-flags on FMI 1.0 ME (issue 18) ---- */

/* check.run of c on an FMU of the build (fmus/<rel>.fmu), workers as in fmucheck. */
static fmuc_verdict run_built1(const char *rel, const fmuc_check *c, fmuc_result *out)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.fmu", FMUC_FMU_DIR, rel);
    cr_assert(access(path, R_OK) == 0, "fixture %s not built", path);
    fmuc_fmu fmu;
    fmuc_diag d = {0};
    cr_assert_eq(fmuc_fmu_open(&fmu, path, NULL, NULL, &d), FMUC_OK, "%s: %s", path, d.msg);
    cr_assert_eq(fmuc_fmu_fmi_version(&fmu), 1, "%s is no FMI 1.0 FMU", path);
    fmuc_options opts;
    fmuc_options_init(&opts);
    opts.timeout_multiplier = strtod(fmuc_test_timeout_multiplier(), NULL);
    fmuc_subject s = {.fmu = &fmu, .opts = &opts};
    fmuc_result_init(out, c->id, c->title, c->spec, c->level);
    out->verdict = FMUC_VERDICT_PASS;
    c->run(&s, out);
    for (size_t i = 0; i < out->nmessages; i++)
        cr_log_info("%s on %s: %s", c->id, rel, out->messages[i]);
    fmuc_fmu_close(&fmu);
    return out->verdict;
}

/* The good 1.0 FMUs pass with their events compared (fmiInitialize's eventInfo, then one
 * fmiEventUpdate per event); the fixture (me-event-flags--fmi1: an impact without
 * stateValuesChanged) fails; the variants differ in flag and model: Stair announcing a
 * nextEventTime already passed (upcomingTimeEvent) fails, and BouncingBall rescaling its
 * nominals without stateValueReferencesChanged only warns (1.0 has no nominals flag: the text
 * ties re-reading them to the state selection, it does not forbid other changes). */
Test(fmi1_dynamic, event_flags_follow_fmiEventUpdate, .timeout = 300)
{
    static const struct {
        const char *rel;
        fmuc_verdict v;
        int min_compared;
    } cases[] = {
        {"fmi1/good/me/BouncingBall", FMUC_VERDICT_PASS, 10},
        {"fmi1/good/me/Stair", FMUC_VERDICT_PASS, 5},
        {"broken/me-event-flags--fmi1", FMUC_VERDICT_FAIL, 0},
        {"broken/me-event-flags--fmi1-next-event-time", FMUC_VERDICT_FAIL, 0},
        {"broken/me-event-flags--fmi1-nominals", FMUC_VERDICT_WARN, 10},
        {"broken/me-event-flags--fmi1-init-past", FMUC_VERDICT_FAIL, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fmuc_result r;
        cr_expect_eq(run_built1(cases[i].rel, &fmuc_check_me_event_flags, &r), cases[i].v, "%s",
                     cases[i].rel);
        /* the answer that announced a past time is named: fmiInitialize's eventInfo (no
         * fmiEventUpdate was called at t = 0) or fmiEventUpdate's */
        int init_past = strstr(cases[i].rel, "init-past") != NULL;
        int named = 0;
        for (size_t k = 0; k < r.nmessages; k++)
            named |= strstr(r.messages[k], init_past ? "t = 0: fmiInitialize ended the iteration"
                                                     : "fmiInitialize ended") != NULL;
        cr_expect(named == init_past, "%s: fmiInitialize named %d", cases[i].rel, named);
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(r.evidence, "instants_compared");
        cr_expect(cases[i].min_compared == 0 ||
                      (cJSON_IsNumber(n) && n->valueint >= cases[i].min_compared),
                  "%s: the events were compared", cases[i].rel);
        fmuc_result_clear(&r);
    }
}

/* ------------------------------------------- api-dependencies-observed on FMI 1.0 (issue 18) */

/* Open an FMU, let edit change its parsed model description (NULL: none), run
 * api-dependencies-observed with workers as fmucheck does; the verdict and the evidence count
 * "undeclared" of interface iface (-1 when absent). */
static fmuc_verdict deps1_run_iface(const char *path, void (*edit)(fmuc_md *), const char *iface,
                                   double *undeclared)
{
    cr_assert(access(path, R_OK) == 0, "FMU %s not built or not there", path);
    fmuc_fmu fmu;
    fmuc_options opts;
    fmuc_result r;
    fmuc_diag d = {0};
    cr_assert_eq(fmuc_fmu_open(&fmu, path, NULL, NULL, &d), FMUC_OK, "%s: %s", path, d.msg);
    if (edit)
        edit(&fmu.md);
    fmuc_options_init(&opts);
    opts.timeout_multiplier = strtod(fmuc_test_timeout_multiplier(), NULL);
    fmuc_subject s = {.fmu = &fmu, .opts = &opts};
    const fmuc_check *c = &fmuc_check_api_dependencies_observed;
    cr_assert(c->versions & FMUC_V1);
    fmuc_result_init(&r, c->id, c->title, c->spec, c->level);
    c->run(&s, &r);
    for (size_t i = 0; i < r.nmessages; i++)
        cr_log_info("%s: %s", path, r.messages[i]);
    const cJSON *o = r.evidence ? cJSON_GetObjectItemCaseSensitive(r.evidence, iface) : NULL;
    const cJSON *v = o ? cJSON_GetObjectItemCaseSensitive(o, "undeclared") : NULL;
    *undeclared = cJSON_IsNumber(v) ? v->valuedouble : -1.0;
    fmuc_verdict verdict = r.verdict;
    fmuc_result_clear(&r);
    fmuc_fmu_close(&fmu);
    return verdict;
}

static fmuc_verdict deps1_run(const char *path, void (*edit)(fmuc_md *), double *undeclared)
{
    return deps1_run_iface(path, edit, "CoSimulation", undeclared);
}

/* the DirectDependency record of the output E */
static fmuc_md_var_ext *dd_of_e(fmuc_md *md)
{
    for (size_t i = 0; i < md->nexts; i++)
        if (md->vars[md->exts[i].var].name && strcmp(md->vars[md->exts[i].var].name, "E") == 0)
            return &md->exts[i];
    cr_assert_fail("no DirectDependency record of E");
    return NULL;
}

static void dd_absent(fmuc_md *md)
{
    dd_of_e(md)->has_direct_dependency = 0; /* absent: E depends on all inputs */
}

static void dd_names_f(fmuc_md *md)
{
    fmuc_md_var_ext *x = dd_of_e(md);
    const char **f = malloc(sizeof *f); /* fmuc_md_free frees the list, not its names */
    cr_assert_not_null(f);
    f[0] = "F";
    free((void *)x->direct);
    x->direct = f;
    x->ndirect = 1;
}

Test(fmi1_dependencies_observed, an_output_moving_with_an_input_its_empty_list_rules_out_fails,
     .timeout = 120)
{
    double n = 0;
    const char *f = FMUC_FMU_DIR "/broken/api-dependencies-observed--fmi1.fmu";
    cr_expect_eq(deps1_run_iface(f, NULL, "ModelExchange", &n), FMUC_VERDICT_FAIL);
    cr_expect_eq(n, 1.0, "E moves with F after fmiInitialize");
    /* the same FMU with E's DirectDependency absent (depends on all inputs) or naming F: the
     * declaration admits the feedthrough, nothing is left to contradict */
    cr_expect_eq(deps1_run_iface(f, dd_absent, "ModelExchange", &n), FMUC_VERDICT_NA);
    cr_expect_eq(deps1_run_iface(f, dd_names_f, "ModelExchange", &n), FMUC_VERDICT_NA);
}

static void dd_names_gear(fmuc_md *md)
{
    fmuc_md_var_ext *x = dd_of_e(md);
    const char **g = malloc(sizeof *g); /* fmuc_md_free frees the list, not its names */
    cr_assert_not_null(g);
    g[0] = "gear";
    free((void *)x->direct);
    x->direct = g;
    x->ndirect = 1;
}

/* Model Exchange 1.0: a discrete (Integer) input is set, then fmiEventUpdate until it converges;
 * E moves with it against its empty DirectDependency. Named there, the same FMU passes (the
 * declared gearShown and E both move with gear as declared). */
Test(fmi1_dependencies_observed, a_discrete_input_set_before_fmiEventUpdate_is_judged,
     .timeout = 120)
{
    double n = 0;
    const char *f = FMUC_FMU_DIR "/broken/api-dependencies-observed--discrete-fmi1.fmu";
    cr_expect_eq(deps1_run_iface(f, NULL, "ModelExchange", &n), FMUC_VERDICT_FAIL);
    cr_expect_eq(n, 1.0, "E moves with gear after fmiEventUpdate");
    cr_expect_eq(deps1_run_iface(f, dd_names_gear, "ModelExchange", &n), FMUC_VERDICT_PASS);
    cr_expect_eq(n, 0.0);
}

Test(fmi1_dependencies_observed, co_simulation_is_not_judged, .timeout = 120)
{
    /* FMI 1.0 CS: inputs set at a communication point are effective for the next fmiDoStep
     * only and there is no FMU state to repeat a step from: not applicable, also where an
     * output follows its input against an empty DirectDependency (the Reference-FMU
     * Feedthrough below) */
    double n = 0;
    cr_expect_eq(deps1_run(FMUC_FMU_DIR "/fmi1/good/cs/SpringMassDamper.fmu", NULL, &n),
                 FMUC_VERDICT_NA);
    cr_expect_eq(n, -1.0);
}

/* Give the variable named name an empty DirectDependency (depends on no input), adding its
 * extension record when it has none. */
static void dd_empty_on(fmuc_md *md, const char *name)
{
    size_t v = md->nvars;
    for (size_t i = 0; i < md->nvars; i++)
        if (md->vars[i].name && strcmp(md->vars[i].name, name) == 0)
            v = i;
    cr_assert(v < md->nvars, "no variable %s", name);
    size_t k = 0;
    while (k < md->nexts && md->exts[k].var < v)
        k++;
    if (!(k < md->nexts && md->exts[k].var == v)) {
        fmuc_md_var_ext *x = realloc(md->exts, (md->nexts + 1) * sizeof *x);
        cr_assert_not_null(x);
        memmove(x + k + 1, x + k, (md->nexts - k) * sizeof *x);
        memset(&x[k], 0, sizeof x[k]);
        x[k].var = (uint32_t)v;
        md->exts = x;
        md->nexts++;
        md->vars[v].ext = 1;
    }
    free((void *)md->exts[k].direct);
    md->exts[k].direct = NULL;
    md->exts[k].ndirect = 0;
    md->exts[k].has_direct_dependency = 1;
}

static void feedthrough_output_declared_independent(fmuc_md *md)
{
    dd_empty_on(md, "Float64_continuous_output");
}

Test(fmi1_dependencies_observed, the_variant_a_model_exchange_output_declared_independent,
     .timeout = 120)
{
    /* the Reference-FMU Feedthrough 1.0 (output = input) with an empty DirectDependency put on
     * its continuous output: in Model Exchange after fmiInitialize the output follows the input
     * the declaration rules out; unchanged (no DirectDependency: all inputs) it does not apply;
     * in Co-Simulation 1.0 it is not judged */
    const char *me = FMUC_SHARED_DIR "/reference-fmus/fmi1/me/Feedthrough.fmu";
    const char *cs = FMUC_SHARED_DIR "/reference-fmus/fmi1/cs/Feedthrough.fmu";
    if (access(me, R_OK) != 0 || access(cs, R_OK) != 0)
        cr_skip("no FMI 1.0 Reference-FMUs Feedthrough in %s", FMUC_SHARED_DIR);
    double n = 0;
    cr_expect_eq(deps1_run_iface(me, NULL, "ModelExchange", &n), FMUC_VERDICT_NA);
    cr_expect_eq(deps1_run_iface(me, feedthrough_output_declared_independent, "ModelExchange",
                                 &n),
                 FMUC_VERDICT_FAIL);
    cr_expect_eq(n, 1.0);
    cr_expect_eq(deps1_run(cs, feedthrough_output_declared_independent, &n), FMUC_VERDICT_NA);
    cr_expect_eq(n, -1.0);
}

/* ---------------------------------------------------------------- me-* checks on FMI 1.0 ME */

#include "me_version_util.h"

static const char *const me1_checks[] = {"me-events", "me-state-roundtrip", "me-no-hidden-state"};

/* The Reference-FMUs v0.0.39 ME and the project's FMI 1.0 ME FMUs: nothing worse than pass. */
Test(fmi1_me, widened_me_checks_pass_on_good_fmus, .timeout = 600)
{
    static const char *const ref[] = {"BouncingBall", "Dahlquist", "Feedthrough", "Stair",
                                      "VanDerPol"};
    char paths[8][4096];
    size_t n = 0;
    for (size_t i = 0; i < sizeof ref / sizeof ref[0]; i++) {
        snprintf(paths[n], sizeof paths[n], "%s/reference-fmus/fmi1/me/%s.fmu", FMUC_SHARED_DIR,
                 ref[i]);
        if (access(paths[n], R_OK) == 0)
            n++;
    }
    snprintf(paths[n++], sizeof paths[0], "%s/fmi1/good/me/BouncingBall.fmu", FMUC_FMU_DIR);
    snprintf(paths[n++], sizeof paths[0], "%s/fmi1/good/me/Stair.fmu", FMUC_FMU_DIR);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < sizeof me1_checks / sizeof me1_checks[0]; k++) {
            fmuc_verdict v = mev_run(me1_checks[k], paths[i]);
            cr_expect(v == FMUC_VERDICT_PASS || v == FMUC_VERDICT_NA, "%s on %s: %s",
                      me1_checks[k], paths[i], fmuc_verdict_name(v));
        }
}

/* Fixture: numberOfEventIndicators="2" over a binary with one that does not check ni (z[1] is
 * never written). Variant: the same declaration over the good binary, which refuses ni = 2. */
Test(fmi1_me, me_events_fixture_and_refused_count_variant_fail, .timeout = 300)
{
    cr_expect_eq(mev_run("me-events", FMUC_FMU_DIR "/broken/me-events--fmi1.fmu"),
                 FMUC_VERDICT_FAIL);
    char *dir = NULL;
    char *fmu = mev_xml_variant(FMUC_FMU_DIR "/fmi1/good/me/BouncingBall.fmu", "me1-ni",
                                "numberOfEventIndicators=\"1\"", "numberOfEventIndicators=\"2\"",
                                &dir);
    cr_expect_eq(mev_run("me-events", fmu), FMUC_VERDICT_FAIL);
    free(fmu);
    fmuc_test_rm_rf(dir);
    free(dir);
}

/* Fixture: fmiGetNominalContinuousStates returns 0.0. Variant: numberOfContinuousStates="3"
 * over a binary with two states (fmiGetContinuousStates refuses nx = 3). */
Test(fmi1_me, me_state_roundtrip_fixture_and_state_count_variant_fail, .timeout = 300)
{
    cr_expect_eq(mev_run("me-state-roundtrip", FMUC_FMU_DIR "/broken/me-state-roundtrip--fmi1.fmu"),
                 FMUC_VERDICT_FAIL);
    char *dir = NULL;
    char *fmu = mev_xml_variant(FMUC_FMU_DIR "/fmi1/good/me/BouncingBall.fmu", "me1-nx",
                                "numberOfContinuousStates=\"2\"", "numberOfContinuousStates=\"3\"",
                                &dir);
    cr_expect_eq(mev_run("me-state-roundtrip", fmu), FMUC_VERDICT_FAIL);
    free(fmu);
    fmuc_test_rm_rf(dir);
    free(dir);
}

/* Fixture: der(v) carries a call counter (one ulp every other evaluation). */
Test(fmi1_me, me_no_hidden_state_fixture_fails, .timeout = 300)
{
    cr_expect_eq(mev_run("me-no-hidden-state", FMUC_FMU_DIR "/broken/me-no-hidden-state--fmi1.fmu"),
                 FMUC_VERDICT_FAIL);
}

/* me-completed-integrator-step on FMI 1.0 ME: fmiCompletedIntegratorStep after every completed
 * step, its callEventUpdate written. Fixture: the call returns fmiOK and leaves callEventUpdate
 * unwritten. The project's good 1.0 ME FMUs pass. The Reference-FMUs v0.0.39 ME have the same
 * defect as the fixture (their fmiCompletedIntegratorStep only checks the pointer): they fail
 * too (tests/thirdparty/TRIAGE.md). */
Test(fmi1_me, me_completed_integrator_step_fixture_and_reference_fmus, .timeout = 300)
{
    cr_expect_eq(mev_run("me-completed-integrator-step",
                         FMUC_FMU_DIR "/broken/me-completed-integrator-step--fmi1.fmu"),
                 FMUC_VERDICT_FAIL);
    cr_expect_eq(mev_run("me-completed-integrator-step",
                         FMUC_FMU_DIR "/fmi1/good/me/BouncingBall.fmu"),
                 FMUC_VERDICT_PASS);
    cr_expect_eq(mev_run("me-completed-integrator-step", FMUC_FMU_DIR "/fmi1/good/me/Stair.fmu"),
                 FMUC_VERDICT_PASS);
    const char *ref = FMUC_SHARED_DIR "/reference-fmus/fmi1/me/Dahlquist.fmu";
    if (access(ref, R_OK) == 0)
        cr_expect_eq(mev_run("me-completed-integrator-step", ref), FMUC_VERDICT_FAIL);
    /* a Co-Simulation 1.0 FMU has no Model Exchange interface */
    cr_expect_eq(mev_run("me-completed-integrator-step", FMUC_FMU_DIR "/fmi1/good/cs/BouncingBall.fmu"),
                 FMUC_VERDICT_NA);
}

/* ---- api-instantiate-refuses on FMI 1.0 (the empty instanceName; no interface-type probe) ---- */

/* The verdict of check id under --profile standard from `fmucheck --only id` on fmu. */
static void expect_only(const char *fmu, const char *id, const char *want)
{
    char *out = fmuc_test_mkdtemp("fmi1only"), rp[4200];
    cr_assert(out);
    char *argv[] = {FMUC_EXE, "-q", "--no-html", "--only", (char *)id, "-o", out, (char *)fmu,
                    NULL};
    fmuc_test_run run;
    cr_assert(fmuc_test_exec(&run, argv, NULL) == 0);
    snprintf(rp, sizeof rp, "%s/report.json", out);
    cJSON *rep = fmuc_test_read_json(rp), *it;
    cr_assert(rep, "%s: no report (exit %d): %s", fmu, run.status, run.err);
    const char *got = "?";
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(rep, "checks"))
    {
        const char *cid = cJSON_GetStringValue(cJSON_GetObjectItem(it, "id"));
        const char *v = cJSON_GetStringValue(
            cJSON_GetObjectItem(cJSON_GetObjectItem(it, "verdicts"), "standard"));
        if (cid && v && strcmp(cid, id) == 0)
            got = v;
    }
    cr_expect_str_eq(got, want, "%s on %s: %s, expected %s", id, fmu, got, want);
    cJSON_Delete(rep);
    fmuc_test_run_free(&run);
    fmuc_test_rm_rf(out);
    free(out);
}

/* me-vs-cs: a 1.0 FMU is either Model Exchange or Co-Simulation, never both: not applicable,
 * with that reason, for both kinds. */
Test(fmi1_me, me_vs_cs_is_not_applicable, .timeout = 120)
{
    expect_only(FMUC_FMU_DIR "/fmi1/good/me/BouncingBall.fmu", "me-vs-cs", "not-applicable");
    expect_only(FMUC_FMU_DIR "/fmi1/good/cs/BouncingBall.fmu", "me-vs-cs", "not-applicable");
}

/* api-sandbox on FMI 1.0 Co-Simulation (not applicable where this system records no sandbox
 * events). Fixture: fmiInitializeSlave creates files in $HOME, /tmp and its resources/. Variant:
 * the same model opening a TCP connection instead. The good SpringMassDamper passes. */
Test(fmi1_api, sandbox_fixture_and_network_variant_warn, .timeout = 300)
{
    fmuc_verdict v = mev_run("api-sandbox", FMUC_FMU_DIR "/broken/api-sandbox--fmi1.fmu");
    if (v == FMUC_VERDICT_NA)
        cr_skip("this system records no sandbox events");
    cr_expect_eq(v, FMUC_VERDICT_WARN);
    cr_expect_eq(mev_run("api-sandbox", FMUC_FMU_DIR "/broken/api-sandbox--fmi1-tcp.fmu"),
                 FMUC_VERDICT_WARN);
    cr_expect_eq(mev_run("api-sandbox", FMUC_FMU_DIR "/fmi1/good/cs/SpringMassDamper.fmu"),
                 FMUC_VERDICT_PASS);
    cr_expect_eq(mev_run("api-sandbox", FMUC_FMU_DIR "/fmi1/good/me/BouncingBall.fmu"),
                 FMUC_VERDICT_PASS);
}

Test(fmi1_api, instantiate_refuses_an_empty_instance_name, .timeout = 120)
{
    expect_only(FMUC_FMU_DIR "/fmi1/good/me/Stair.fmu", "api-instantiate-refuses", "pass");
    expect_only(FMUC_FMU_DIR "/fmi1/good/cs/SpringMassDamper.fmu", "api-instantiate-refuses",
                "pass");
    /* the fixture: fmiInstantiateSlave (CS) accepts ""; the variant: fmiInstantiateModel (ME) */
    expect_only(FMUC_FMU_DIR "/broken/api-instantiate-refuses--fmi1.fmu",
                "api-instantiate-refuses", "warn");
    expect_only(FMUC_FMU_DIR "/broken/api-instantiate-refuses--fmi1-me.fmu",
                "api-instantiate-refuses", "warn");
}

/* ---- api-null-memory-callbacks on FMI 1.0 CS (canNotUseMemoryManagementFunctions) ---- */

/* A copy of fmu in dir named name whose modelDescription.xml has the first `from` replaced by
 * `to`; the path (caller frees) or NULL. */
static char *xml_replaced(const char *dir, const char *name, const char *fmu, const char *from,
                          const char *to)
{
    char *path = NULL;
    size_t len = 0;
    char *bytes = fmuc_test_read_file(fmu, &len);
    if (!bytes || asprintf(&path, "%s/%s", dir, name) < 0 ||
        fmuc_test_write_file(path, bytes, len) < 0) {
        free(bytes);
        free(path);
        return NULL;
    }
    free(bytes);
    int zerr = 0, ok = 0;
    zip_t *z = zip_open(path, 0, &zerr);
    zip_stat_t st;
    if (z && zip_stat(z, "modelDescription.xml", 0, &st) == 0) {
        size_t n = (size_t)st.size, fl = strlen(from), tl = strlen(to);
        char *xml = calloc(1, n + 1), *out = calloc(1, n + tl + 1);
        zip_file_t *f = zip_fopen(z, "modelDescription.xml", 0);
        char *at = xml && f && zip_fread(f, xml, st.size) == (zip_int64_t)st.size
                       ? strstr(xml, from)
                       : NULL;
        if (at && out) {
            size_t pre = (size_t)(at - xml);
            memcpy(out, xml, pre);
            memcpy(out + pre, to, tl);
            strcpy(out + pre + tl, at + fl);
            zip_source_t *src = zip_source_buffer(z, out, strlen(out), 1);
            ok = src && zip_file_add(z, "modelDescription.xml", src, ZIP_FL_OVERWRITE) >= 0;
            if (ok)
                out = NULL; /* the source owns it */
        }
        if (f)
            zip_fclose(f);
        free(xml);
        free(out);
    }
    if (z && zip_close(z) != 0)
        ok = 0;
    if (!ok) {
        free(path);
        return NULL;
    }
    return path;
}

Test(fmi1_api, null_memory_callbacks_with_the_cs_capability, .timeout = 120)
{
    /* the flag is false on the good FMUs: not applicable */
    expect_only(FMUC_FMU_DIR "/fmi1/good/cs/BouncingBall.fmu", "api-null-memory-callbacks",
                "not-applicable");
    /* the fixture: SpringMassDamper CS claims the flag; the variant: BouncingBall CS */
    expect_only(FMUC_FMU_DIR "/broken/api-null-memory-callbacks--fmi1.fmu",
                "api-null-memory-callbacks", "fail");
    char *dir = fmuc_test_mkdtemp("fmi1mem");
    cr_assert(dir);
    char *fmu = xml_replaced(dir, "BouncingBall.fmu", FMUC_FMU_DIR "/fmi1/good/cs/BouncingBall.fmu",
                             "canNotUseMemoryManagementFunctions=\"false\"",
                             "canNotUseMemoryManagementFunctions=\"true\"");
    cr_assert(fmu, "could not derive the FMU");
    expect_only(fmu, "api-null-memory-callbacks", "fail");
    free(fmu);
    fmuc_test_rm_rf(dir);
    free(dir);
}

/* ---- cs-output-derivatives and cs-input-derivatives on FMI 1.0 CS (issue 20) ---- */

/* The good 1.0 Co-Simulation FMUs (the project's and the Reference-FMUs v0.0.39) declare
 * neither maxOutputDerivativeOrder nor canInterpolateInputs: both checks are not applicable. */
Test(fmi1_cs, derivative_checks_not_applicable_on_good_fmus, .timeout = 300)
{
    static const char *const ref[] = {"BouncingBall", "Dahlquist", "Feedthrough", "Resource",
                                      "Stair",        "VanDerPol"};
    static const char *const ids[] = {"cs-output-derivatives", "cs-input-derivatives"};
    char paths[8][4096];
    size_t n = 0;
    for (size_t i = 0; i < sizeof ref / sizeof ref[0]; i++) {
        snprintf(paths[n], sizeof paths[n], "%s/reference-fmus/fmi1/cs/%s.fmu", FMUC_SHARED_DIR,
                 ref[i]);
        if (access(paths[n], R_OK) == 0)
            n++;
    }
    snprintf(paths[n++], sizeof paths[0], "%s/fmi1/good/cs/BouncingBall.fmu", FMUC_FMU_DIR);
    snprintf(paths[n++], sizeof paths[0], "%s/fmi1/good/cs/SpringMassDamper.fmu", FMUC_FMU_DIR);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
            fmuc_verdict v = mev_run(ids[k], paths[i]);
            cr_expect_eq(v, FMUC_VERDICT_NA, "%s on %s: %s", ids[k], paths[i],
                         fmuc_verdict_name(v));
        }
}

/* Fixture: SpringMassDamper CS declares maxOutputDerivativeOrder="1" and fmiGetRealOutputDerivatives
 * refuses. Variant: another model and order (BouncingBall CS, order 2). */
Test(fmi1_cs, output_derivatives_fixture_and_order_variant_fail, .timeout = 300)
{
    cr_expect_eq(mev_run("cs-output-derivatives",
                         FMUC_FMU_DIR "/broken/cs-output-derivatives--fmi1.fmu"),
                 FMUC_VERDICT_FAIL);
    char *dir = fmuc_test_mkdtemp("fmi1od");
    cr_assert(dir);
    char *fmu = xml_replaced(dir, "BouncingBall.fmu", FMUC_FMU_DIR "/fmi1/good/cs/BouncingBall.fmu",
                             "maxOutputDerivativeOrder=\"0\"", "maxOutputDerivativeOrder=\"2\"");
    cr_assert(fmu, "could not derive the FMU");
    cr_expect_eq(mev_run("cs-output-derivatives", fmu), FMUC_VERDICT_FAIL);
    free(fmu);
    fmuc_test_rm_rf(dir);
    free(dir);
}

/* Fixture: canInterpolateInputs="true" and fmiSetRealInputDerivatives refuses (fail). Variant,
 * the other direction: the good SpringMassDamper CS with the flag accepts the derivatives and
 * ignores them while its input F moves the outputs (warn). */
Test(fmi1_cs, input_derivatives_refused_fails_and_ignored_warns, .timeout = 300)
{
    cr_expect_eq(mev_run("cs-input-derivatives",
                         FMUC_FMU_DIR "/broken/cs-input-derivatives--fmi1.fmu"),
                 FMUC_VERDICT_FAIL);
    char *dir = fmuc_test_mkdtemp("fmi1id");
    cr_assert(dir);
    char *fmu = xml_replaced(dir, "SpringMassDamper.fmu",
                             FMUC_FMU_DIR "/fmi1/good/cs/SpringMassDamper.fmu",
                             "canInterpolateInputs=\"false\"", "canInterpolateInputs=\"true\"");
    cr_assert(fmu, "could not derive the FMU");
    cr_expect_eq(mev_run("cs-input-derivatives", fmu), FMUC_VERDICT_WARN);
    free(fmu);
    fmuc_test_rm_rf(dir);
    free(dir);
}

/* ---- me-state-value-references (FMI 1.0 ME only) ---- */

/* Fixture: the references of the derivatives instead of the states (Real variables whose values
 * are not the states). Variant: references no variable has. The project's good ME FMUs and the
 * PyFMI 1.0 bouncing ball name their states; the Reference-FMUs 0.0.39 refuse the call with
 * fmiError, which 1.0 allows for an unsupported function: not applicable, never a failure. */
Test(fmi1_me, state_value_references_fixtures_fail_good_fmus_pass, .timeout = 300)
{
    cr_expect_eq(mev_run("me-state-value-references",
                         FMUC_FMU_DIR "/broken/me-state-value-references.fmu"),
                 FMUC_VERDICT_FAIL);
    cr_expect_eq(mev_run("me-state-value-references",
                         FMUC_FMU_DIR "/broken/me-state-value-references--unknown.fmu"),
                 FMUC_VERDICT_FAIL);
    cr_expect_eq(mev_run("me-state-value-references",
                         FMUC_FMU_DIR "/fmi1/good/me/BouncingBall.fmu"),
                 FMUC_VERDICT_PASS);
    cr_expect_eq(mev_run("me-state-value-references", FMUC_FMU_DIR "/fmi1/good/me/Stair.fmu"),
                 FMUC_VERDICT_PASS);
    const char *ref = FMUC_SHARED_DIR "/reference-fmus/fmi1/me/VanDerPol.fmu";
    if (access(ref, R_OK) == 0)
        cr_expect_eq(mev_run("me-state-value-references", ref), FMUC_VERDICT_NA);
    const char *pyfmi = FMUC_SHARED_DIR
        "/thirdparty/fmus/modelon-community+PyFMI/src/pyfmi/examples/files/FMUs/ME1.0/"
        "bouncingBall.fmu";
    if (access(pyfmi, R_OK) == 0)
        cr_expect_eq(mev_run("me-state-value-references", pyfmi), FMUC_VERDICT_PASS);
}
