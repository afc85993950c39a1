/* The static checks on FMI 3.0 (issue 19, archive and modelDescription.xml): small FMI 3.0
 * documents that are right by the 3.0.2 text but wrong by 2.0's (they must pass), and the
 * Reference-FMUs 3.0 of ../shared and the project's FMI 3.0 FMUs, which pass every static check
 * under the default (interop) profile. The broken FMI 3.0 FMUs (reference_fmus/broken/ *--fmi3
 * and the FMI 3.0-only checks) are in the reference matrix (test_reference_fmus). */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <dirent.h>
#include <stdlib.h>
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

/* ---------------------------------------------------------------- in-process, one check */

static fmuc_verdict run_xml(const char *id, const char *xml)
{
    fmuc_fmu fmu;
    memset(&fmu, 0, sizeof fmu);
    cr_assert_eq(fmuc_md_parse(&fmu.md, xml, strlen(xml), NULL), FMUC_OK, "%s", xml);
    fmu.md_parsed = 1;
    fmu.has_md_file = 1;
    const fmuc_check *c = fmuc_check_find(id);
    cr_assert_not_null(c, "no check %s", id);
    cr_assert(c->versions & FMUC_V3, "%s does not judge FMI 3.0", id);
    fmuc_options opts;
    memset(&opts, 0, sizeof opts);
    fmuc_subject s = {.fmu = &fmu, .opts = &opts};
    fmuc_result r;
    fmuc_result_init(&r, c->id, c->title, c->spec, c->level);
    c->run(&s, &r);
    fmuc_verdict v = r.verdict;
    for (size_t i = 0; i < r.nmessages && v != FMUC_VERDICT_PASS; i++)
        cr_log_info("%s: %s", id, r.messages[i]);
    fmuc_result_clear(&r);
    fmuc_md_free(&fmu.md);
    return v;
}

/* An FMI 3.0 document: ME+CS interfaces, the independent variable, then vars, then structure. */
static char *doc3(const char *vars, const char *structure)
{
    static char buf[8192];
    snprintf(buf, sizeof buf,
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<fmiModelDescription fmiVersion=\"3.0\" modelName=\"M\" instantiationToken=\"{x}\">\n"
             "<ModelExchange modelIdentifier=\"M\"/>\n<CoSimulation modelIdentifier=\"M\"/>\n"
             "<ModelVariables>\n"
             "<Float64 name=\"time\" valueReference=\"0\" causality=\"independent\"/>\n"
             "%s\n</ModelVariables>\n<ModelStructure>\n%s\n</ModelStructure>\n"
             "</fmiModelDescription>\n",
             vars, structure);
    return buf;
}

#define PASSES(id, xml) cr_expect_eq(run_xml(id, xml), FMUC_VERDICT_PASS, "%s should pass", id)
#define FAILS(id, xml) cr_expect_eq(run_xml(id, xml), FMUC_VERDICT_FAIL, "%s should fail", id)

Test(fmi3_md, parameters_default_to_fixed_and_structural_parameters_have_their_cells)
{
    /* §2.4.7.4: no variability on a parameter means fixed (2.0's default continuous would make
     * the cell invalid); structural parameters are fixed or tunable */
    const char *x = doc3("<Float64 name=\"p\" valueReference=\"1\" causality=\"parameter\" "
                         "start=\"1\"/>\n"
                         "<UInt64 name=\"n\" valueReference=\"2\" causality=\"structuralParameter\" "
                         "variability=\"tunable\" start=\"3\"/>",
                         "");
    PASSES("md-var-causality-variability", x);
    PASSES("md-var-start-required", x);
    PASSES("md-var-initial", x);
    FAILS("md-var-causality-variability",
          doc3("<UInt64 name=\"n\" valueReference=\"2\" causality=\"structuralParameter\" "
               "variability=\"discrete\" start=\"3\"/>",
               ""));
}

Test(fmi3_md, inputs_may_state_initial_exact_and_need_a_start)
{
    /* §2.4.7.5 (G-07): FMI 2.0 forbade initial on inputs */
    PASSES("md-var-initial", doc3("<Float64 name=\"u\" valueReference=\"1\" causality=\"input\" "
                                  "initial=\"exact\" start=\"0\"/>",
                                  ""));
    FAILS("md-var-start-required", doc3("<Float64 name=\"u\" valueReference=\"1\" "
                                        "causality=\"input\" initial=\"exact\"/>",
                                        ""));
    FAILS("md-var-initial", doc3("<Float64 name=\"u\" valueReference=\"1\" causality=\"input\" "
                                 "initial=\"approx\" start=\"0\"/>",
                                 ""));
}

Test(fmi3_md, exactly_one_independent_variable)
{
    const char *none = "<?xml version=\"1.0\"?><fmiModelDescription fmiVersion=\"3.0\" "
                       "modelName=\"M\" instantiationToken=\"t\"><CoSimulation "
                       "modelIdentifier=\"M\"/><ModelVariables><Float64 name=\"x\" "
                       "valueReference=\"1\"/></ModelVariables><ModelStructure/>"
                       "</fmiModelDescription>";
    FAILS("md-independent", none);
    PASSES("md-independent", doc3("", ""));
}

Test(fmi3_md, value_references_are_unique_over_all_types)
{
    FAILS("md-var-value-references",
          doc3("<Int32 name=\"i\" valueReference=\"1\" causality=\"output\"/>\n"
               "<Boolean name=\"b\" valueReference=\"1\" causality=\"output\"/>",
               "<Output valueReference=\"1\"/>"));
    PASSES("md-var-value-references",
           doc3("<Int32 name=\"i\" valueReference=\"1\" causality=\"output\"/>\n"
                "<Boolean name=\"b\" valueReference=\"2\" causality=\"output\"/>",
                ""));
}

Test(fmi3_md, alias_names_are_variable_names_too)
{
    FAILS("md-var-names", doc3("<Float64 name=\"x\" valueReference=\"1\"><Alias name=\"time\"/>"
                               "</Float64>",
                               ""));
    FAILS("md-var-names", doc3("<Float64 name=\"x\" valueReference=\"1\"><Alias name=\"a\"/>"
                               "<Alias name=\"a\"/></Float64>",
                               ""));
    PASSES("md-var-names", doc3("<Float64 name=\"x\" valueReference=\"1\"><Alias name=\"a\"/>"
                                "</Float64>",
                                ""));
}

Test(fmi3_md, arrays_sizes_and_start_lists)
{
    const char *sp = "<UInt64 name=\"n\" valueReference=\"2\" causality=\"structuralParameter\" "
                     "variability=\"fixed\" start=\"3\"/>\n";
    char vars[1024];
    snprintf(vars, sizeof vars,
             "%s<Float64 name=\"a\" valueReference=\"3\" causality=\"parameter\" "
             "variability=\"fixed\" start=\"1 2 3\"><Dimension valueReference=\"2\"/></Float64>",
             sp);
    PASSES("md-var-arrays", doc3(vars, ""));
    snprintf(vars, sizeof vars,
             "%s<Float64 name=\"a\" valueReference=\"3\" causality=\"parameter\" "
             "variability=\"fixed\" start=\"7\"><Dimension valueReference=\"2\"/>"
             "<Dimension start=\"2\"/></Float64>",
             sp);
    PASSES("md-var-arrays", doc3(vars, "")); /* one value for every element */
    snprintf(vars, sizeof vars,
             "%s<Float64 name=\"a\" valueReference=\"3\" causality=\"parameter\" "
             "variability=\"fixed\" start=\"1 2\"><Dimension valueReference=\"2\"/></Float64>",
             sp);
    FAILS("md-var-arrays", doc3(vars, ""));
    /* a size from an Int32 parameter, and a size 0 */
    FAILS("md-var-arrays",
          doc3("<Int32 name=\"n\" valueReference=\"2\" causality=\"parameter\" start=\"3\"/>\n"
               "<Float64 name=\"a\" valueReference=\"3\"><Dimension valueReference=\"2\"/>"
               "</Float64>",
               ""));
    FAILS("md-var-arrays", doc3("<Float64 name=\"a\" valueReference=\"3\"><Dimension "
                                "start=\"0\"/></Float64>",
                                ""));
}

Test(fmi3_md, clocks)
{
    const char *ok = "<Clock name=\"c\" valueReference=\"1\" causality=\"input\" "
                     "intervalVariability=\"constant\" intervalDecimal=\"0.1\"/>\n"
                     "<Clock name=\"o\" valueReference=\"2\" causality=\"output\" "
                     "intervalVariability=\"triggered\" clocks=\"1\"/>\n"
                     "<Int32 name=\"k\" valueReference=\"3\" causality=\"output\" clocks=\"1\"/>";
    const char *st = "<Output valueReference=\"2\" dependencies=\"1\"/>\n"
                     "<Output valueReference=\"3\" dependencies=\"1\"/>";
    /* no CoSimulation hasEventMode in doc3: md-clocks fails on that alone */
    FAILS("md-clocks", doc3(ok, st));
    PASSES("md-var-clocked", doc3(ok, st));
    /* a clocked output need not be an InitialUnknown (§2.4.8); Clocks never are required */
    PASSES("md-ms-initial-unknowns", doc3(ok, st));
    PASSES("md-ms-outputs", doc3(ok, st));
    PASSES("md-ms-dependencies", doc3(ok, st));
    FAILS("md-var-clocked", doc3("<Int32 name=\"k\" valueReference=\"3\" causality=\"output\" "
                                 "clocks=\"0\"/>",
                                 "<Output valueReference=\"3\"/>"));
}

Test(fmi3_md, model_structure_has_no_ordering_rule_and_parameters_are_knowns)
{
    const char *vars = "<Float64 name=\"x\" valueReference=\"1\" causality=\"output\" "
                       "initial=\"exact\" start=\"1\"/>\n"
                       "<Float64 name=\"der(x)\" valueReference=\"2\" derivative=\"1\"/>\n"
                       "<Float64 name=\"k\" valueReference=\"3\" causality=\"parameter\" "
                       "start=\"1\"/>\n"
                       "<Float64 name=\"y\" valueReference=\"4\" causality=\"output\"/>";
    const char *st = "<Output valueReference=\"4\" dependencies=\"3 1\"/>\n"
                     "<Output valueReference=\"1\" dependencies=\"1\"/>\n"
                     "<ContinuousStateDerivative valueReference=\"2\" dependencies=\"3 1\"/>\n"
                     "<InitialUnknown valueReference=\"4\" dependencies=\"3 1\"/>\n"
                     "<InitialUnknown valueReference=\"2\" dependencies=\"3 1\"/>";
    PASSES("md-ms-dependencies", doc3(vars, st));
    PASSES("md-ms-initial-unknowns", doc3(vars, st));
    PASSES("md-ms-outputs", doc3(vars, st));
    PASSES("md-ms-derivatives", doc3(vars, st));
    PASSES("md-ms-indices", doc3(vars, st));
    FAILS("md-ms-indices", doc3(vars, "<Output valueReference=\"77\"/>"));
}

Test(fmi3_md, display_units_are_a_must)
{
    const char *x = "<?xml version=\"1.0\"?><fmiModelDescription fmiVersion=\"3.0\" "
                    "modelName=\"M\" instantiationToken=\"t\"><CoSimulation modelIdentifier=\"M\"/>"
                    "<UnitDefinitions><Unit name=\"m\"><DisplayUnit name=\"mm\" factor=\"1000\"/>"
                    "</Unit></UnitDefinitions><ModelVariables><Float64 name=\"t\" "
                    "valueReference=\"0\" causality=\"independent\"/><Float64 name=\"x\" "
                    "valueReference=\"1\" unit=\"m\"><Alias name=\"x_km\" displayUnit=\"km\"/>"
                    "</Float64></ModelVariables><ModelStructure/></fmiModelDescription>";
    FAILS("md-display-unit-known", x);
}

Test(fmi3_md, schema_defects_of_real_tools)
{
    /* G-02: Annotation with another attribute than type; Annotations after Alias. G-03: a start
     * attribute on a String */
    FAILS("md-xml-schema", doc3("<Float64 name=\"x\" valueReference=\"1\"><Annotations>"
                                "<Annotation type=\"com.x\" order=\"1\"/></Annotations></Float64>",
                                ""));
    FAILS("md-element-order", doc3("<Float64 name=\"x\" valueReference=\"1\"><Alias name=\"a\"/>"
                                   "<Annotations><Annotation type=\"com.x\"/></Annotations>"
                                   "</Float64>",
                                   ""));
    FAILS("md-xml-schema", doc3("<String name=\"s\" valueReference=\"1\" causality=\"parameter\" "
                                "variability=\"fixed\" start=\"a\"/>",
                                ""));
    PASSES("md-xml-schema", doc3("<String name=\"s\" valueReference=\"1\" causality=\"parameter\" "
                                 "variability=\"fixed\"><Start value=\"a\"/></String>",
                                 ""));
    PASSES("md-var-start-required", doc3("<String name=\"s\" valueReference=\"1\" "
                                         "causality=\"parameter\" variability=\"fixed\"><Start "
                                         "value=\"a\"/></String>",
                                         ""));
}

Test(fmi3_md, fmi_version_pattern)
{
    char buf[8192];
    const char *base = doc3("", "");
    const char *at = strstr(base, "fmiVersion=\"3.0\"");
    cr_assert_not_null(at);
    snprintf(buf, sizeof buf, "%.*sfmiVersion=\"3.0.2\"%s", (int)(at - base), base, at + 16);
    cr_expect_eq(run_xml("md-fmi-version", buf), FMUC_VERDICT_WARN);
    PASSES("md-fmi-version", doc3("", ""));
}

Test(fmi3_md, integer_ranges_binary_starts_and_inverse_display_units)
{
    FAILS("md-var-min-max", doc3("<Int8 name=\"i\" valueReference=\"1\" min=\"-200\"/>", ""));
    PASSES("md-var-min-max", doc3("<Int8 name=\"i\" valueReference=\"1\" min=\"-128\" "
                                  "max=\"127\"/>",
                                  ""));
    FAILS("md-attribute-syntax", doc3("<Binary name=\"b\" valueReference=\"1\" "
                                      "causality=\"parameter\" variability=\"fixed\"><Start "
                                      "value=\"0a1\"/></Binary>",
                                      ""));
    PASSES("md-attribute-syntax", doc3("<Binary name=\"b\" valueReference=\"1\" "
                                       "causality=\"parameter\" variability=\"fixed\"><Start "
                                       "value=\"0a1B\"/></Binary>",
                                       ""));
    /* Binary <Start> longer than maxSize (derived rule: warn), from the variable or its type */
    cr_expect_eq(run_xml("md-var-start-range",
                         doc3("<Binary name=\"b\" valueReference=\"1\" causality=\"parameter\" "
                              "variability=\"fixed\" maxSize=\"2\"><Start value=\"0a1b2c\"/>"
                              "</Binary>",
                              "")),
                 FMUC_VERDICT_WARN);
    PASSES("md-var-start-range", doc3("<Binary name=\"b\" valueReference=\"1\" "
                                      "causality=\"parameter\" variability=\"fixed\" "
                                      "maxSize=\"3\"><Start value=\" 0a1b2c \"/></Binary>",
                                      ""));
    const char *typed = "<?xml version=\"1.0\"?><fmiModelDescription fmiVersion=\"3.0\" "
                        "modelName=\"M\" instantiationToken=\"t\"><CoSimulation "
                        "modelIdentifier=\"M\"/><TypeDefinitions><BinaryType name=\"B4\" "
                        "maxSize=\"1\"/></TypeDefinitions><ModelVariables><Float64 name=\"t\" "
                        "valueReference=\"0\" causality=\"independent\"/><Binary name=\"b\" "
                        "valueReference=\"1\" declaredType=\"B4\" causality=\"parameter\" "
                        "variability=\"fixed\"><Start value=\"ff\"/><Start value=\"ffee\"/>"
                        "</Binary></ModelVariables><ModelStructure/></fmiModelDescription>";
    cr_expect_eq(run_xml("md-var-start-range", typed), FMUC_VERDICT_WARN);
    const char *inv = "<?xml version=\"1.0\"?><fmiModelDescription fmiVersion=\"3.0\" "
                      "modelName=\"M\" instantiationToken=\"t\"><CoSimulation "
                      "modelIdentifier=\"M\"/><UnitDefinitions><Unit name=\"s\"><DisplayUnit "
                      "name=\"Hz\" inverse=\"true\" offset=\"1\"/></Unit></UnitDefinitions>"
                      "<ModelVariables><Float64 name=\"t\" valueReference=\"0\" "
                      "causality=\"independent\"/></ModelVariables><ModelStructure/>"
                      "</fmiModelDescription>";
    FAILS("md-display-units", inv);
}

/* A derivative and its variable have the same dimensions (derived rule: warn) */
Test(fmi3_md, derivatives_have_the_dimensions_of_their_variable)
{
    const char *x = "<Float64 name=\"x\" valueReference=\"1\"><Dimension start=\"3\"/>"
                    "</Float64>";
    char vars[1024];
    snprintf(vars, sizeof vars, "%s<Float64 name=\"der(x)\" valueReference=\"2\" "
             "derivative=\"1\"><Dimension start=\"%s\"/></Float64>", x, "2");
    cr_expect_eq(run_xml("md-var-derivative", doc3(vars, "")), FMUC_VERDICT_WARN);
    snprintf(vars, sizeof vars, "%s<Float64 name=\"der(x)\" valueReference=\"2\" "
             "derivative=\"1\"><Dimension start=\"%s\"/></Float64>", x, "3");
    PASSES("md-var-derivative", doc3(vars, ""));
    /* a size from a structural parameter counts by its start value */
    snprintf(vars, sizeof vars, "%s<UInt64 name=\"n\" valueReference=\"3\" "
             "causality=\"structuralParameter\" variability=\"fixed\" start=\"3\"/>"
             "<Float64 name=\"der(x)\" valueReference=\"2\" derivative=\"1\">"
             "<Dimension valueReference=\"3\"/></Float64>", x);
    PASSES("md-var-derivative", doc3(vars, ""));
    /* a scalar derivative of an array */
    snprintf(vars, sizeof vars, "%s<Float64 name=\"der(x)\" valueReference=\"2\" "
             "derivative=\"1\"/>", x);
    cr_expect_eq(run_xml("md-var-derivative", doc3(vars, "")), FMUC_VERDICT_WARN);
}

Test(fmi3_md, structured_names_of_aliases)
{
    const char *x = "<?xml version=\"1.0\"?><fmiModelDescription fmiVersion=\"3.0\" "
                    "modelName=\"M\" instantiationToken=\"t\" "
                    "variableNamingConvention=\"structured\"><CoSimulation modelIdentifier=\"M\"/>"
                    "<ModelVariables><Float64 name=\"t\" valueReference=\"0\" "
                    "causality=\"independent\"/><Float64 name=\"a.x\" valueReference=\"1\">"
                    "<Alias name=\"a x\"/></Float64></ModelVariables><ModelStructure/>"
                    "</fmiModelDescription>";
    FAILS("md-naming-structured", x);
}

/* ---------------------------------------------------------------- whole FMUs, static checks */

/* fmucheck --only 'zip-*,md-*' on fmu: every check passes under the default (interop) profile. */
static void static_checks_pass(const char *fmu)
{
    char *out = fmuc_test_mkdtemp("f3s");
    cr_assert(out);
    char *argv[] = {FMUC_EXE, "-q", "--no-html", "--only", "zip-*,md-*", "-o", out,
                    (char *)fmu, NULL};
    fmuc_test_run run;
    cr_assert(fmuc_test_exec(&run, argv, NULL) == 0);
    char rpath[4200];
    snprintf(rpath, sizeof rpath, "%s/report.json", out);
    cJSON *rep = fmuc_test_read_json(rpath);
    cr_assert(rep, "%s: no report.json (exit %d): %s", fmu, run.status, run.err);
    cJSON *it;
    size_t n = 0;
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(rep, "checks"))
    {
        const char *id = cJSON_GetStringValue(cJSON_GetObjectItem(it, "id"));
        const char *v = cJSON_GetStringValue(cJSON_GetObjectItem(it, "verdict"));
        const char *m0 =
            cJSON_GetStringValue(cJSON_GetArrayItem(cJSON_GetObjectItem(it, "messages"), 0));
        cr_expect(v && strcmp(v, "fail") != 0 && strcmp(v, "error") != 0, "%s: %s is %s: %s",
                  fmu, id, v ? v : "?", m0 ? m0 : "");
        n++;
    }
    cr_expect(n > 50, "%s: only %zu static checks judged it", fmu, n);
    cJSON_Delete(rep);
    fmuc_test_rm_rf(out);
    free(out);
    fmuc_test_run_free(&run);
}

static size_t fmus_in(const char *dir, char paths[][1024], size_t max)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) && n < max) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".fmu") == 0)
            snprintf(paths[n++], 1024, "%s/%s", dir, e->d_name);
    }
    if (d)
        closedir(d);
    return n;
}

Test(fmi3_fmus, reference_fmus_pass_every_static_check, .timeout = 600)
{
    static char paths[32][1024];
    size_t n = fmus_in(FMUC_SHARED_DIR "/reference-fmus/fmi3", paths, 32);
    if (!n)
        cr_skip("no FMI 3.0 Reference-FMUs in %s/reference-fmus/fmi3", FMUC_SHARED_DIR);
    for (size_t i = 0; i < n; i++)
        static_checks_pass(paths[i]);
}

Test(fmi3_fmus, own_fmi3_fmus_pass_every_static_check, .timeout = 600)
{
    static char paths[32][1024];
    size_t n = fmus_in(FMUC_FMU_DIR "/fmi3/good", paths, 32);
    cr_assert(n > 0, "no FMI 3.0 FMUs built in %s/fmi3/good", FMUC_FMU_DIR);
    n += fmus_in(FMUC_FMU_DIR "/fmi3", paths + n, 32 - n);
    for (size_t i = 0; i < n; i++)
        static_checks_pass(paths[i]);
}

/* ---------------------------------------------------------------- me-event-flags (issue 18) */

/* check.run of c on an opened FMU of the build (fmus/<rel>.fmu), workers as in fmucheck. */
/* Run check c (workers as in fmucheck) on the FMI 3.0 FMU at path; its verdict, *out filled. */
static fmuc_verdict run_file3(const char *path, const fmuc_check *c, fmuc_result *out)
{
    cr_assert(access(path, R_OK) == 0, "FMU %s not built or not there", path);
    fmuc_fmu fmu;
    fmuc_diag d = {0};
    cr_assert_eq(fmuc_fmu_open(&fmu, path, NULL, NULL, &d), FMUC_OK, "%s: %s", path, d.msg);
    cr_assert_eq(fmuc_fmu_fmi_version(&fmu), 3, "%s is no FMI 3.0 FMU", path);
    fmuc_options opts;
    fmuc_options_init(&opts);
    opts.timeout_multiplier = strtod(fmuc_test_timeout_multiplier(), NULL);
    fmuc_subject s = {.fmu = &fmu, .opts = &opts};
    fmuc_result_init(out, c->id, c->title, c->spec, c->level);
    out->verdict = FMUC_VERDICT_PASS;
    c->run(&s, out);
    for (size_t i = 0; i < out->nmessages; i++)
        cr_log_info("%s on %s: %s", c->id, path, out->messages[i]);
    fmuc_fmu_close(&fmu);
    return out->verdict;
}

static fmuc_verdict run_built3(const char *rel, const fmuc_check *c, fmuc_result *out)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.fmu", FMUC_FMU_DIR, rel);
    cr_assert(access(path, R_OK) == 0, "fixture %s not built", path);
    return run_file3(path, c, out);
}

/* The good FMI 3.0 BouncingBall passes with its impacts compared; the variant of the fixture's
 * defect (me-event-flags--fmi3: the impact's state change without
 * valuesOfContinuousStatesChanged) rescales the nominals at every impact without
 * nominalsOfContinuousStatesChanged (another flag, another vector, the glue's
 * fmi3GetNominalsOfContinuousStates) and fails too. */
Test(fmi3_dynamic, event_flags_follow_fmi3UpdateDiscreteStates, .timeout = 300)
{
    fmuc_result r;
    cr_expect_eq(run_built3("fmi3/good/BouncingBall", &fmuc_check_me_event_flags, &r),
                 FMUC_VERDICT_PASS);
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(r.evidence, "instants_compared");
    cr_expect(cJSON_IsNumber(n) && n->valueint >= 10, "the impacts were compared");
    fmuc_result_clear(&r);
    cr_expect_eq(run_built3("broken/me-event-flags--fmi3-nominals", &fmuc_check_me_event_flags,
                            &r),
                 FMUC_VERDICT_FAIL);
    fmuc_result_clear(&r);
    cr_expect_eq(run_built3("broken/me-event-flags--fmi3", &fmuc_check_me_event_flags, &r),
                 FMUC_VERDICT_FAIL);
    fmuc_result_clear(&r);
}

/* ------------------------------------------- me-directional-derivatives on FMI 3.0 (issue 19) */

/* 1 when some message of r contains all of the given texts */
static int message_has(const fmuc_result *r, const char *a, const char *b)
{
    for (size_t i = 0; i < r->nmessages; i++)
        if (strstr(r->messages[i], a) && (!b || strstr(r->messages[i], b)))
            return 1;
    return 0;
}

/* SpringMassDamper 3.0 declares providesDirectionalDerivatives and providesAdjointDerivatives:
 * J·v agrees with the central differences and wᵀJ from fmi3GetAdjointDerivative with the
 * Jacobian from unit-seed directional derivatives; BouncingBall 3.0 declares neither (n/a). */
Test(fmi3_dynamic, directional_and_adjoint_derivatives_pass_on_the_good_fmu, .timeout = 300)
{
    fmuc_result r;
    cr_expect_eq(run_built3("fmi3/good/SpringMassDamper", &fmuc_check_me_directional_derivatives,
                            &r),
                 FMUC_VERDICT_PASS);
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(r.evidence, "evaluated");
    cr_expect(cJSON_IsNumber(n) && n->valueint == 12,
              "6 points (4 around the start, 2 on the trajectory) x 2 directions evaluated");
    n = cJSON_GetObjectItemCaseSensitive(r.evidence, "adjoint_evaluated");
    cr_expect(cJSON_IsNumber(n) && n->valueint == 6, "the adjoint compared at 6 points");
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(r.evidence, "worst_eps_adj");
    cr_expect(cJSON_IsNumber(w) && w->valuedouble <= 1e-12, "adjoint = transposed directional");
    fmuc_result_clear(&r);
    cr_expect_eq(run_built3("fmi3/good/BouncingBall", &fmuc_check_me_directional_derivatives, &r),
                 FMUC_VERDICT_NA);
    fmuc_result_clear(&r);
}

/* --fmi3: doubled directional derivatives (J·v against the central differences, the message
 * names fmi3GetDirectionalDerivative and the derivative); --fmi3-adjoint: right directional
 * derivatives, an adjoint without its last known v (the message names the state 'v'). */
Test(fmi3_dynamic, wrong_directional_or_adjoint_derivatives_fail, .timeout = 300)
{
    fmuc_result r;
    cr_expect_eq(run_built3("broken/me-directional-derivatives--fmi3",
                            &fmuc_check_me_directional_derivatives, &r),
                 FMUC_VERDICT_FAIL);
    cr_expect(message_has(&r, "fmi3GetDirectionalDerivative: ε_dd", "'der(v)' (vr 4)"));
    cr_expect_not(message_has(&r, "fmi3GetAdjointDerivative: ε_adj", NULL),
                  "the adjoint agrees with the (wrong) directional derivatives");
    fmuc_result_clear(&r);
    cr_expect_eq(run_built3("broken/me-directional-derivatives--fmi3-adjoint",
                            &fmuc_check_me_directional_derivatives, &r),
                 FMUC_VERDICT_FAIL);
    cr_expect(message_has(&r, "fmi3GetAdjointDerivative: ε_adj", "state 'v' (vr 2"));
    cr_expect_not(message_has(&r, "fmi3GetDirectionalDerivative: ε_dd", NULL),
                  "the directional derivatives are right");
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(r.evidence, "adjoint_evaluated");
    cr_expect(cJSON_IsNumber(n) && n->valueint == 6);
    fmuc_result_clear(&r);
}

/* ------------------------------------------- api-variable-dependencies (FMI 3.0 only, E-13) */

/* The number key of evidence[iface][phase], -1 when absent. */
static double vd_count(const fmuc_result *r, const char *iface, const char *phase, const char *key)
{
    const cJSON *o = r->evidence ? cJSON_GetObjectItemCaseSensitive(r->evidence, iface) : NULL;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, phase),
                                                      key);
    return cJSON_IsNumber(v) ? v->valuedouble : -1.0;
}

/* The FMI 3.0 glue declares providesPerElementDependencies and serves the declared dependencies
 * per element: BouncingBall and SpringMassDamper pass in both interfaces, with their
 * InitialUnknowns asked in Initialization Mode and the Outputs and state derivatives after. */
Test(fmi3_dynamic, per_element_dependencies_pass_on_the_good_fmus, .timeout = 300)
{
    static const char *const good[] = {"fmi3/good/BouncingBall", "fmi3/good/SpringMassDamper"};
    for (size_t i = 0; i < 2; i++) {
        fmuc_result r;
        cr_expect_eq(run_built3(good[i], &fmuc_check_api_variable_dependencies, &r),
                     FMUC_VERDICT_PASS, "%s", good[i]);
        cr_expect_gt(vd_count(&r, "ModelExchange", "initialization", "variables"), 0, "%s",
                     good[i]);
        cr_expect_gt(vd_count(&r, "ModelExchange", "run", "entries"), 0, "%s", good[i]);
        cr_expect_gt(vd_count(&r, "CoSimulation", "run", "entries"), 0, "%s", good[i]);
        fmuc_result_clear(&r);
    }
}

/* api-variable-dependencies: after initialization 'h' (vr 1, dependencies="1") also
 * reports a dependency on 'time' (vr 0): a failure naming the variable, its element and the
 * dependency, in both interfaces; the initial dependencies are right. */
Test(fmi3_dynamic, undeclared_per_element_dependency_fails, .timeout = 300)
{
    fmuc_result r;
    cr_expect_eq(run_built3("broken/api-variable-dependencies",
                            &fmuc_check_api_variable_dependencies, &r),
                 FMUC_VERDICT_FAIL);
    cr_expect(message_has(&r, "ModelExchange after fmi3ExitInitializationMode: element 1 of "
                              "'h' (vr 1) depends on element 1 of 'time' (vr 0",
                          "does not list valueReference 0"));
    cr_expect(message_has(&r, "CoSimulation after fmi3ExitInitializationMode: element 1 of 'h'",
                          "'time' (vr 0"));
    cr_expect_not(message_has(&r, "ModelExchange in Initialization Mode", NULL));
    cr_expect_not(message_has(&r, "CoSimulation in Initialization Mode", NULL));
    fmuc_result_clear(&r);
}

/* The run-time dependencies are asked again after 3 communication intervals: on the good FMUs
 * nothing changed (t = 3 intervals in both interfaces). */
Test(fmi3_dynamic, per_element_dependencies_asked_again_after_the_intervals, .timeout = 300)
{
    fmuc_result r;
    cr_expect_eq(run_built3("fmi3/good/BouncingBall", &fmuc_check_api_variable_dependencies, &r),
                 FMUC_VERDICT_PASS);
    for (int k = 0; k < 2; k++) {
        const char *ifn = k ? "CoSimulation" : "ModelExchange";
        cr_expect_eq(vd_count(&r, ifn, "after_intervals", "intervals"), 3, "%s", ifn);
        cr_expect_gt(vd_count(&r, ifn, "after_intervals", "t"), 0, "%s", ifn);
        cr_expect_eq(vd_count(&r, ifn, "after_intervals", "changed"), 0, "%s", ifn);
        cr_expect_eq(vd_count(&r, ifn, "after_intervals", "variables"),
                     vd_count(&r, ifn, "run", "variables"), "%s", ifn);
    }
    cr_expect_not(message_has(&r, "changed:", NULL));
    fmuc_result_clear(&r);
}

/* The four fixtures of FMUC_DEFECT_DEPENDENCY_*: an element index past the end that only the
 * second asking sees (a changed answer noted, the entry failed), a valueReference no variable
 * has, a kind past fmi3Dependent (fail), fmi3Fixed for InitialUnknowns (derived: warn). */
Test(fmi3_dynamic, per_element_dependency_fixtures, .timeout = 300)
{
    static const struct {
        const char *fmu;
        fmuc_verdict v;
        const char *has, *and_has;
    } cases[] = {
        {"broken/api-variable-dependencies--element-late", FMUC_VERDICT_FAIL,
         "ModelExchange after 3 communication intervals", "has the element index 2 of the "
                                                         "dependent (1 .. 1"},
        {"broken/api-variable-dependencies--unknown-vr", FMUC_VERDICT_FAIL,
         "CoSimulation after fmi3ExitInitializationMode: element 1 of 'h' (vr 1)",
         "depends on valueReference 9, which no variable has"},
        {"broken/api-variable-dependencies--kind-range", FMUC_VERDICT_FAIL,
         "ModelExchange after fmi3ExitInitializationMode", "has the kind 6, which is no "
                                                           "fmi3DependencyKind"},
        {"broken/api-variable-dependencies--kind-general", FMUC_VERDICT_WARN,
         "ModelExchange in Initialization Mode: element 1 of 'der(v)' (vr 4) depends on 'g'",
         "as fmi3Fixed"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fmuc_result r;
        cr_expect_eq(run_built3(cases[i].fmu, &fmuc_check_api_variable_dependencies, &r),
                     cases[i].v, "%s", cases[i].fmu);
        cr_expect(message_has(&r, cases[i].has, cases[i].and_has), "%s", cases[i].fmu);
        if (i == 0) {
            cr_expect(message_has(&r, "the run-time dependencies of 'h' (vr 1) changed", NULL));
            cr_expect_not(message_has(&r, "after fmi3ExitInitializationMode: an entry", NULL));
            cr_expect_gt(vd_count(&r, "CoSimulation", "after_intervals", "changed"), 0);
        }
        fmuc_result_clear(&r);
    }
}

/* None of the Reference-FMUs 3.0 declares providesPerElementDependencies="true": not applicable,
 * with the reason. */
Test(fmi3_dynamic, per_element_dependencies_not_applicable_without_the_flag, .timeout = 300)
{
    char paths[32][1024];
    size_t n = fmus_in(FMUC_SHARED_DIR "/reference-fmus/fmi3", paths, 32);
    if (n == 0)
        cr_skip("no FMI 3.0 Reference-FMUs in %s/reference-fmus/fmi3", FMUC_SHARED_DIR);
    for (size_t i = 0; i < n; i++) {
        fmuc_result r;
        cr_expect_eq(run_file3(paths[i], &fmuc_check_api_variable_dependencies, &r),
                     FMUC_VERDICT_NA, "%s", paths[i]);
        cr_expect(message_has(&r, "providesPerElementDependencies", NULL), "%s", paths[i]);
        fmuc_result_clear(&r);
    }
}

/* ------------------------------------------- api-dependencies-observed on FMI 3.0 (issue 18) */

/* Run api-dependencies-observed (workers as in fmucheck) on an FMU; its verdict, and the
 * evidence count key of interface iface in *count (-1 when absent). */
static fmuc_verdict deps3_run(const char *path, const char *iface, const char *key, double *count)
{
    cr_assert(access(path, R_OK) == 0, "FMU %s not built or not there", path);
    fmuc_fmu fmu;
    fmuc_options opts;
    fmuc_result r;
    fmuc_diag d = {0};
    cr_assert_eq(fmuc_fmu_open(&fmu, path, NULL, NULL, &d), FMUC_OK, "%s: %s", path, d.msg);
    fmuc_options_init(&opts);
    opts.timeout_multiplier = strtod(fmuc_test_timeout_multiplier(), NULL);
    fmuc_subject s = {.fmu = &fmu, .opts = &opts};
    const fmuc_check *c = &fmuc_check_api_dependencies_observed;
    fmuc_result_init(&r, c->id, c->title, c->spec, c->level);
    c->run(&s, &r);
    for (size_t i = 0; i < r.nmessages; i++)
        cr_log_info("%s: %s", path, r.messages[i]);
    const cJSON *o = r.evidence ? cJSON_GetObjectItemCaseSensitive(r.evidence, iface) : NULL;
    const cJSON *v = o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
    *count = cJSON_IsNumber(v) ? v->valuedouble : -1.0;
    fmuc_verdict verdict = r.verdict;
    fmuc_result_clear(&r);
    fmuc_fmu_close(&fmu);
    return verdict;
}

Test(fmi3_dependencies_observed, hidden_output_feedthrough_fails_in_both_interfaces,
     .timeout = 120)
{
    double n = 0;
    const char *f = FMUC_FMU_DIR "/broken/api-dependencies-observed--fmi3.fmu";
    cr_expect_eq(deps3_run(f, "ModelExchange", "undeclared", &n), FMUC_VERDICT_FAIL);
    cr_expect_eq(n, 1.0, "E moves with F in Continuous-Time Mode");
    cr_expect_eq(deps3_run(f, "CoSimulation", "undeclared", &n), FMUC_VERDICT_FAIL);
    cr_expect_eq(n, 1.0, "E follows F after steps of both probe sizes");
}

Test(fmi3_dependencies_observed, the_variant_hides_a_state_derivative_dependency,
     .timeout = 120)
{
    /* the model is right, the ContinuousStateDerivative of der(v) drops the input F: ME fails,
     * CS (outputs only) does not see it */
    double n = 0;
    const char *f = FMUC_FMU_DIR "/broken/api-dependencies-observed--fmi3-derivative.fmu";
    cr_expect_eq(deps3_run(f, "ModelExchange", "undeclared", &n), FMUC_VERDICT_FAIL);
    cr_expect_eq(n, 1.0);
    deps3_run(f, "CoSimulation", "undeclared", &n);
    cr_expect_eq(n, 0.0);
}

Test(fmi3_dependencies_observed, reference_feedthrough_passes_float32_and_float64, .timeout = 120)
{
    const char *f = FMUC_SHARED_DIR "/reference-fmus/fmi3/Feedthrough.fmu";
    if (access(f, R_OK) != 0)
        cr_skip("no %s", f);
    double n = 0;
    /* its Float32 and Float64 continuous inputs move their outputs, as declared, and so do its
     * twelve discrete ones (Float32/Float64 discrete, Int8..UInt64, Boolean, Enumeration; set
     * in Event Mode) */
    cr_expect_eq(deps3_run(f, "ModelExchange", "confirmed", &n), FMUC_VERDICT_PASS);
    cr_expect_eq(n, 14.0);
    /* Co-Simulation sees all fourteen through the screening steps from one FMU state (each
     * input moves only what it declares, so none needs the other probe steps) */
    cr_expect_eq(deps3_run(f, "CoSimulation", "declared_moved_screened", &n), FMUC_VERDICT_PASS);
    cr_expect_eq(n, 14.0);
    deps3_run(f, "CoSimulation", "screened_out", &n);
    cr_expect_eq(n, 14.0);
    /* the StateSpace model has array inputs only: not judged, with a reason */
    f = FMUC_SHARED_DIR "/reference-fmus/fmi3/StateSpace.fmu";
    if (access(f, R_OK) == 0)
        cr_expect_eq(deps3_run(f, "ModelExchange", "confirmed", &n), FMUC_VERDICT_NA);
}

/* ---------------------------------------------------------------- me-* checks on FMI 3.0 */

#include "me_version_util.h"

static const char *const me3_checks[] = {"me-events", "me-state-roundtrip", "me-no-hidden-state",
                                         "me-completed-integrator-step"};

/* The Reference-FMUs 3.0 and the project's FMI 3.0 BouncingBall: nothing worse than pass. */
Test(fmi3_me, widened_me_checks_pass_on_good_fmus, .timeout = 600)
{
    static char paths[32][1024];
    size_t n = fmus_in(FMUC_SHARED_DIR "/reference-fmus/fmi3", paths, 31);
    snprintf(paths[n++], 1024, "%s/fmi3/good/BouncingBall.fmu", FMUC_FMU_DIR);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < sizeof me3_checks / sizeof me3_checks[0]; k++) {
            fmuc_verdict v = mev_run(me3_checks[k], paths[i]);
            cr_expect(v == FMUC_VERDICT_PASS || v == FMUC_VERDICT_NA, "%s on %s: %s",
                      me3_checks[k], paths[i], fmuc_verdict_name(v));
        }
}

/* Fixture: fmi3UpdateDiscreteStates always sets valuesOfContinuousStatesChanged. Variant: two
 * <EventIndicator> elements where the binary has one (fmi3GetEventIndicators refuses ni = 2). */
Test(fmi3_me, me_events_fixture_and_indicator_count_variant_fail, .timeout = 300)
{
    cr_expect_eq(mev_run("me-events", FMUC_FMU_DIR "/broken/me-events--fmi3.fmu"),
                 FMUC_VERDICT_FAIL);
    char *dir = NULL;
    char *fmu = mev_xml_variant(FMUC_FMU_DIR "/fmi3/good/BouncingBall.fmu", "me3-ni",
                                "<EventIndicator valueReference=\"1\" dependencies=\"1\"/>",
                                "<EventIndicator valueReference=\"1\" dependencies=\"1\"/>"
                                "<EventIndicator valueReference=\"3\" dependencies=\"3\"/>",
                                &dir);
    cr_expect_eq(mev_run("me-events", fmu), FMUC_VERDICT_FAIL);
    free(fmu);
    fmuc_test_rm_rf(dir);
    free(dir);
}

/* Fixture: fmi3GetNominalsOfContinuousStates returns 0.0. Variant: one <ContinuousStateDerivative>
 * fewer than the binary's states (fmi3GetContinuousStates refuses nx = 1). */
Test(fmi3_me, me_state_roundtrip_fixture_and_state_count_variant_fail, .timeout = 300)
{
    cr_expect_eq(mev_run("me-state-roundtrip", FMUC_FMU_DIR "/broken/me-state-roundtrip--fmi3.fmu"),
                 FMUC_VERDICT_FAIL);
    char *dir = NULL;
    char *fmu = mev_xml_variant(FMUC_FMU_DIR "/fmi3/good/BouncingBall.fmu", "me3-nx",
                                "<ContinuousStateDerivative valueReference=\"4\" dependencies=\"\"/>",
                                "", &dir);
    cr_expect_eq(mev_run("me-state-roundtrip", fmu), FMUC_VERDICT_FAIL);
    free(fmu);
    fmuc_test_rm_rf(dir);
    free(dir);
}

/* Fixture: der(v) carries a call counter (one ulp every other evaluation). */
Test(fmi3_me, me_no_hidden_state_fixture_fails, .timeout = 300)
{
    cr_expect_eq(mev_run("me-no-hidden-state", FMUC_FMU_DIR "/broken/me-no-hidden-state--fmi3.fmu"),
                 FMUC_VERDICT_FAIL);
}

/* Fixture: needsCompletedIntegratorStep="true", fmi3CompletedIntegratorStep returns fmi3OK and
 * leaves both outputs unwritten. Variant: the same binary declaring the call unneeded (the
 * default): the call then has no effect, but an importer that makes it still reads the outputs,
 * so they must be written. The good BouncingBall declaring the call needed passes. */
Test(fmi3_me, me_completed_integrator_step_fixture_and_flag_variants, .timeout = 300)
{
    const char *broken = FMUC_FMU_DIR "/broken/me-completed-integrator-step--fmi3.fmu";
    cr_expect_eq(mev_run("me-completed-integrator-step", broken), FMUC_VERDICT_FAIL);
    char *dir = NULL;
    char *fmu = mev_xml_variant(broken, "me3-cis", "needsCompletedIntegratorStep=\"true\"",
                                "needsCompletedIntegratorStep=\"false\"", &dir);
    cr_expect_eq(mev_run("me-completed-integrator-step", fmu), FMUC_VERDICT_FAIL);
    free(fmu);
    fmuc_test_rm_rf(dir);
    free(dir);
    fmu = mev_xml_variant(FMUC_FMU_DIR "/fmi3/good/BouncingBall.fmu", "me3-cis-good",
                          "needsCompletedIntegratorStep=\"false\"",
                          "needsCompletedIntegratorStep=\"true\"", &dir);
    cr_expect_eq(mev_run("me-completed-integrator-step", fmu), FMUC_VERDICT_PASS);
    free(fmu);
    fmuc_test_rm_rf(dir);
    free(dir);
}

/* me-vs-cs on FMI 3.0. Fixture: BouncingBall whose CS step is a plain RK4 without impacts (the
 * CS ball falls through the floor): a warning. The good BouncingBall, whose CS step handles the
 * impacts, passes. */
Test(fmi3_me, me_vs_cs_fixture_warns_and_the_good_model_passes, .timeout = 300)
{
    cr_expect_eq(mev_run("me-vs-cs", FMUC_FMU_DIR "/broken/me-vs-cs--fmi3.fmu"),
                 FMUC_VERDICT_WARN);
    cr_expect_eq(mev_run("me-vs-cs", FMUC_FMU_DIR "/fmi3/good/BouncingBall.fmu"),
                 FMUC_VERDICT_PASS);
}

/* api-sandbox on FMI 3.0 (not applicable where this system records no sandbox events).
 * Fixture: SpringMassDamper on the 3.0 glue whose fmi3ExitInitializationMode creates files in
 * $HOME, /tmp and its resources/, in both interfaces: the write in resources/ breaks a must of
 * 3.0.2 §2.5.1.5 and fails. Variant: a TCP connection instead, tool policy only: a warning. The
 * project's good 3.0 BouncingBall passes. */
Test(fmi3_api, sandbox_resources_write_fails_network_warns_good_passes, .timeout = 300)
{
    fmuc_verdict v = mev_run("api-sandbox", FMUC_FMU_DIR "/broken/api-sandbox--fmi3.fmu");
    if (v == FMUC_VERDICT_NA)
        cr_skip("this system records no sandbox events");
    cr_expect_eq(v, FMUC_VERDICT_FAIL);
    cr_expect_eq(mev_run("api-sandbox", FMUC_FMU_DIR "/broken/api-sandbox--fmi3-tcp.fmu"),
                 FMUC_VERDICT_WARN);
    cr_expect_eq(mev_run("api-sandbox", FMUC_FMU_DIR "/fmi3/good/BouncingBall.fmu"),
                 FMUC_VERDICT_PASS);
}

/* ------------------------------------------- api-instantiate-refuses, api-resources-released */

/* The verdict of check id under --profile standard from `fmucheck --only id` on fmu ("?" when
 * it is missing; caller frees). */
static char *only_verdict(const char *fmu, const char *id)
{
    char *out = fmuc_test_mkdtemp("f3o"), *v = NULL;
    cr_assert(out);
    char *argv[] = {FMUC_EXE, "-q", "--no-html", "--only", (char *)id, "-o", out, (char *)fmu,
                    NULL};
    fmuc_test_run run;
    cr_assert(fmuc_test_exec(&run, argv, NULL) == 0);
    char rpath[4200];
    snprintf(rpath, sizeof rpath, "%s/report.json", out);
    cJSON *rep = fmuc_test_read_json(rpath), *it;
    cr_assert(rep, "%s: no report.json (exit %d): %s", fmu, run.status, run.err);
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(rep, "checks"))
    {
        const char *cid = cJSON_GetStringValue(cJSON_GetObjectItem(it, "id"));
        const char *sv = cJSON_GetStringValue(
            cJSON_GetObjectItem(cJSON_GetObjectItem(it, "verdicts"), "standard"));
        if (cid && strcmp(cid, id) == 0 && sv)
            v = strdup(sv);
    }
    cJSON_Delete(rep);
    fmuc_test_rm_rf(out);
    free(out);
    fmuc_test_run_free(&run);
    return v ? v : strdup("?");
}

/* A copy of fmu in dir whose modelDescription.xml lacks the <CoSimulation .../> element (the
 * library still serves fmi3InstantiateCoSimulation): returns the path (caller frees) or NULL. */
static char *without_cosimulation(const char *dir, const char *fmu)
{
    char *path = NULL;
    size_t len = 0;
    char *bytes = fmuc_test_read_file(fmu, &len);
    if (!bytes || asprintf(&path, "%s/noCS.fmu", dir) < 0 ||
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
        char *xml = calloc(1, (size_t)st.size + 1);
        zip_file_t *f = zip_fopen(z, "modelDescription.xml", 0);
        if (xml && f && zip_fread(f, xml, st.size) == (zip_int64_t)st.size) {
            char *a = strstr(xml, "<CoSimulation"), *b = a ? strstr(a, "/>") : NULL;
            if (a && b && !memchr(a, '>', (size_t)(b - a))) {
                memmove(a, b + 2, strlen(b + 2) + 1);
                zip_source_t *src = zip_source_buffer(z, xml, strlen(xml), 1);
                ok = src && zip_file_add(z, "modelDescription.xml", src, ZIP_FL_OVERWRITE) >= 0;
                if (ok)
                    xml = NULL; /* the source owns it */
            }
        }
        if (f)
            zip_fclose(f);
        free(xml);
    }
    if (z && zip_close(z) != 0)
        ok = 0;
    if (!ok) {
        free(path);
        return NULL;
    }
    return path;
}

#define FMI3_GOOD_BB FMUC_FMU_DIR "/fmi3/good/BouncingBall.fmu"

Test(fmi3_api, instantiate_refuses_an_undeclared_interface_and_an_empty_name, .timeout = 120)
{
    char *v = only_verdict(FMI3_GOOD_BB, "api-instantiate-refuses");
    cr_expect_str_eq(v, "pass", "good BouncingBall (FMI 3.0): %s", v);
    free(v);
    /* the fixture: an empty instanceName accepted */
    v = only_verdict(FMUC_FMU_DIR "/broken/api-instantiate-refuses--fmi3.fmu",
                     "api-instantiate-refuses");
    cr_expect_str_eq(v, "warn", "empty name: %s", v);
    free(v);
    /* the variant: the model description declares only ModelExchange, the library still gives
     * an instance from fmi3InstantiateCoSimulation */
    char *dir = fmuc_test_mkdtemp("f3r");
    cr_assert(dir);
    char *fmu = without_cosimulation(dir, FMI3_GOOD_BB);
    cr_assert(fmu, "could not derive the ME-only FMU");
    v = only_verdict(fmu, "api-instantiate-refuses");
    cr_expect_str_eq(v, "warn", "undeclared CoSimulation: %s", v);
    free(v);
    free(fmu);
    fmuc_test_rm_rf(dir);
    free(dir);
}

Test(fmi3_api, resources_released_counts_the_threads_left, .timeout = 120)
{
    char *v = only_verdict(FMI3_GOOD_BB, "api-resources-released");
    cr_expect_str_eq(v, "pass", "good BouncingBall (FMI 3.0): %s", v);
    free(v);
    v = only_verdict(FMUC_FMU_DIR "/broken/api-resources-released--fmi3.fmu",
                     "api-resources-released");
    cr_expect_str_eq(v, "warn", "lingering thread: %s", v);
    free(v);
    /* the variant: the same thread behind a Model Exchange session only */
    char *dir = fmuc_test_mkdtemp("f3t");
    cr_assert(dir);
    char *fmu = without_cosimulation(dir, FMUC_FMU_DIR "/broken/api-resources-released--fmi3.fmu");
    cr_assert(fmu, "could not derive the ME-only FMU");
    v = only_verdict(fmu, "api-resources-released");
    cr_expect_str_eq(v, "warn", "lingering thread, ME only: %s", v);
    free(v);
    free(fmu);
    fmuc_test_rm_rf(dir);
    free(dir);
}

/* ----------------------------------------------------- cs-output-derivatives (issue 19) */

/* The Reference-FMUs 3.0 and the project's FMI 3.0 BouncingBall declare no
 * maxOutputDerivativeOrder: not applicable. cs-input-derivatives does not judge FMI 3.0 (3.0
 * has neither canInterpolateInputs nor an fmi3SetInputDerivatives). */
Test(fmi3_cs, output_derivatives_not_applicable_on_good_fmus, .timeout = 300)
{
    static char paths[32][1024];
    size_t n = fmus_in(FMUC_SHARED_DIR "/reference-fmus/fmi3", paths, 31);
    snprintf(paths[n++], 1024, "%s", FMI3_GOOD_BB);
    for (size_t i = 0; i < n; i++) {
        fmuc_verdict v = mev_run("cs-output-derivatives", paths[i]);
        cr_expect_eq(v, FMUC_VERDICT_NA, "cs-output-derivatives on %s: %s", paths[i],
                     fmuc_verdict_name(v));
    }
    cr_expect(!(fmuc_check_cs_input_derivatives.versions & FMUC_V3));
    cr_expect(fmuc_check_cs_output_derivatives.versions & FMUC_V3);
}

/* Fixture: the FMI 3.0 BouncingBall declares maxOutputDerivativeOrder="1" and
 * fmi3GetOutputDerivatives refuses. Variants: another order (3) on the good BouncingBall, and
 * another variable: the Reference-FMUs StateSpace with order 2, whose output y is an array of
 * 3 (6 values a call) and whose fmi3GetOutputDerivatives is not implemented. */
Test(fmi3_cs, output_derivatives_fixture_and_variants_fail, .timeout = 300)
{
    cr_expect_eq(mev_run("cs-output-derivatives",
                         FMUC_FMU_DIR "/broken/cs-output-derivatives--fmi3.fmu"),
                 FMUC_VERDICT_FAIL);
    char *dir = NULL;
    char *fmu = mev_xml_variant(FMI3_GOOD_BB, "od3-order",
                                "<CoSimulation modelIdentifier=\"BouncingBall\"",
                                "<CoSimulation modelIdentifier=\"BouncingBall\" "
                                "maxOutputDerivativeOrder=\"3\"",
                                &dir);
    cr_expect_eq(mev_run("cs-output-derivatives", fmu), FMUC_VERDICT_FAIL);
    free(fmu);
    fmuc_test_rm_rf(dir);
    free(dir);
    const char *ss = FMUC_SHARED_DIR "/reference-fmus/fmi3/StateSpace.fmu";
    if (access(ss, R_OK) != 0)
        return;
    fmu = mev_xml_variant(ss, "od3-array", "<CoSimulation",
                          "<CoSimulation maxOutputDerivativeOrder=\"2\"", &dir);
    cr_expect_eq(mev_run("cs-output-derivatives", fmu), FMUC_VERDICT_FAIL);
    free(fmu);
    fmuc_test_rm_rf(dir);
    free(dir);
}

/* ------------------------ md-terminals-and-icons, md-build-description (issue 19, B-501..B-556) */

/* A copy of the FMI 3.0 BouncingBall of the build in dir with entries added: pairs of archive
 * name and text, NULL-terminated; a text of NULL adds 17 MiB (stored, over the checks' cap). */
static char *bb_with(const char *dir, const char *const *entries)
{
    char *path = NULL;
    size_t len = 0;
    char *bytes = fmuc_test_read_file(FMI3_GOOD_BB, &len);
    if (!bytes || asprintf(&path, "%s/bb.fmu", dir) < 0 ||
        fmuc_test_write_file(path, bytes, len) < 0) {
        free(bytes);
        free(path);
        return NULL;
    }
    free(bytes);
    int zerr = 0, ok = 1;
    zip_t *z = zip_open(path, 0, &zerr);
    ok = z != NULL;
    for (size_t i = 0; ok && entries[i]; i += 2) {
        const char *text = entries[i + 1];
        size_t n = text ? strlen(text) : (size_t)17 << 20;
        char *copy = n ? malloc(n) : NULL; /* an empty entry: no buffer for libzip to own */
        if (n && !copy) {
            ok = 0;
            break;
        }
        if (!text)
            memset(copy, ' ', n);
        else if (n)
            memcpy(copy, text, n);
        zip_source_t *src = zip_source_buffer(z, copy, n, n > 0);
        zip_int64_t idx = src ? zip_file_add(z, entries[i], src, ZIP_FL_OVERWRITE) : -1;
        if (idx < 0) {
            if (src)
                zip_source_free(src);
            else
                free(copy);
            ok = 0;
        } else if (!text) {
            ok = zip_set_file_compression(z, (zip_uint64_t)idx, ZIP_CM_STORE, 0) == 0;
        }
    }
    if (z && zip_close(z) != 0) {
        zip_discard(z);
        ok = 0;
    }
    if (!ok) {
        free(path);
        return NULL;
    }
    return path;
}

/* Check id on the FMU at path, in-process (both checks are static); with a needle, one of the
 * result's messages contains it. */
static fmuc_verdict run_static3_msg(const char *path, const char *id, const char *needle)
{
    fmuc_fmu fmu;
    fmuc_diag d = {0};
    cr_assert_eq(fmuc_fmu_open(&fmu, path, NULL, NULL, &d), FMUC_OK, "%s: %s", path, d.msg);
    const fmuc_check *c = fmuc_check_find(id);
    cr_assert_not_null(c, "no check %s", id);
    fmuc_options opts;
    fmuc_options_init(&opts);
    fmuc_subject s = {.fmu = &fmu, .opts = &opts};
    fmuc_result r;
    fmuc_result_init(&r, c->id, c->title, c->spec, c->level);
    r.verdict = FMUC_VERDICT_PASS;
    c->run(&s, &r);
    int found = 0;
    for (size_t i = 0; i < r.nmessages; i++) {
        cr_log_info("%s: %s", id, r.messages[i]);
        found |= needle && strstr(r.messages[i], needle) != NULL;
    }
    if (needle)
        cr_expect(found, "%s on %s: no message contains \"%s\"", id, path, needle);
    fmuc_verdict v = r.verdict;
    fmuc_result_clear(&r);
    fmuc_fmu_close(&fmu);
    return v;
}

static fmuc_verdict run_static3(const char *path, const char *id)
{
    return run_static3_msg(path, id, NULL);
}

/* The verdict of id on BouncingBall with one added file (name, text); with a needle, one of the
 * messages contains it. */
static fmuc_verdict bb_file_msg(const char *id, const char *name, const char *text,
                                const char *needle)
{
    char *dir = fmuc_test_mkdtemp("f3x");
    cr_assert(dir);
    const char *e[] = {name, text, "terminalsAndIcons/ball.png", "png", "sources/model.c", "",
                       NULL};
    char *fmu = bb_with(dir, e);
    cr_assert(fmu, "could not derive the FMU");
    fmuc_verdict v = run_static3_msg(fmu, id, needle);
    free(fmu);
    fmuc_test_rm_rf(dir);
    free(dir);
    return v;
}

static fmuc_verdict bb_file(const char *id, const char *name, const char *text)
{
    return bb_file_msg(id, name, text, NULL);
}

#define TI_FILE "terminalsAndIcons/terminalsAndIcons.xml"
#define TI_HEAD "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<fmiTerminalsAndIcons fmiVersion=\"3.0\">\n"
#define TI_TAIL "</fmiTerminalsAndIcons>\n"
#define TI_T(rule, members)                                                                   \
    TI_HEAD "<Terminals><Terminal name=\"ball\" matchingRule=\"" rule "\">" members            \
            "</Terminal></Terminals>" TI_TAIL

Test(fmi3_xmlfiles, terminals_and_icons_by_the_text)
{
    const char *id = "md-terminals-and-icons";
    const char *good =
        TI_HEAD "<GraphicalRepresentation><CoordinateSystem x1=\"-100\" y1=\"-100\" x2=\"100\" "
                "y2=\"100\" suggestedScalingFactorTo_mm=\"0.1\"/><Icon x1=\"100\" y1=\"-100\" "
                "x2=\"-100\" y2=\"100\"/></GraphicalRepresentation>\n<Terminals>\n"
                "<Terminal name=\"ball\" matchingRule=\"bus\" terminalKind=\"x\">\n"
                "<TerminalMemberVariable variableName=\"h\" memberName=\"h\" variableKind=\"signal\"/>\n"
                "<TerminalMemberVariable variableName=\"v\" memberName=\"v\" variableKind=\"inflow\"/>\n"
                "<TerminalMemberVariable variableName=\"der(h)\" memberName=\"dh\" "
                "variableKind=\"org.example.kind\"/>\n"
                "<Terminal name=\"ball\" matchingRule=\"sequence\"><TerminalMemberVariable "
                "variableName=\"g\" variableKind=\"signal\"/></Terminal>\n"
                "<TerminalGraphicalRepresentation x1=\"0\" y1=\"0\" x2=\"10\" y2=\"10\" "
                "iconBaseName=\"./ball\" defaultConnectionColor=\"255 0 12\" "
                "defaultConnectionStrokeSize=\"0.5\"/>\n"
                "</Terminal>\n<Terminal name=\"params\" matchingRule=\"org.example.rule\"/>\n"
                "</Terminals>\n" TI_TAIL;
    cr_expect_eq(bb_file(id, TI_FILE, good), FMUC_VERDICT_PASS, "a correct file passes");
    cr_expect_eq(run_static3(FMI3_GOOD_BB, id), FMUC_VERDICT_NA, "no terminalsAndIcons.xml");
    /* the fixture and its variant */
    cr_expect_eq(run_static3(FMUC_FMU_DIR "/broken/md-terminals-and-icons.fmu", id),
                 FMUC_VERDICT_FAIL);
    cr_expect_eq(run_static3(FMUC_FMU_DIR "/broken/md-terminals-and-icons--member-name.fmu", id),
                 FMUC_VERDICT_FAIL);
    /* B-505: members name variables; memberName for plug/bus only; predefined kinds on
     * inputs, outputs and parameters */
    cr_expect_eq(bb_file(id, TI_FILE, TI_T("plug", "<TerminalMemberVariable variableName=\"x\" "
                                                   "memberName=\"x\" variableKind=\"signal\"/>")),
                 FMUC_VERDICT_FAIL);
    cr_expect_eq(bb_file(id, TI_FILE, TI_T("plug", "<TerminalMemberVariable variableName=\"h\" "
                                                   "variableKind=\"signal\"/>")),
                 FMUC_VERDICT_FAIL, "plug needs memberName");
    cr_expect_eq(bb_file(id, TI_FILE, TI_T("sequence", "<TerminalMemberVariable "
                                                       "variableName=\"h\" variableKind=\"signal\"/>"
                                                       "<TerminalMemberVariable variableName=\"v\" "
                                                       "variableKind=\"signal\"/>")),
                 FMUC_VERDICT_PASS, "sequence needs no memberName");
    cr_expect_eq(bb_file(id, TI_FILE, TI_T("bus", "<TerminalMemberVariable variableName=\"der(h)\" "
                                                  "memberName=\"d\" variableKind=\"signal\"/>")),
                 FMUC_VERDICT_FAIL, "signal on a local variable");
    /* B-504: names unique on a level, matching rules */
    cr_expect_eq(bb_file(id, TI_FILE, TI_HEAD "<Terminals><Terminal name=\"a\" matchingRule=\"bus\"/>"
                                              "<Terminal name=\"a\" matchingRule=\"bus\"/>"
                                              "</Terminals>" TI_TAIL),
                 FMUC_VERDICT_FAIL);
    cr_expect_eq(bb_file(id, TI_FILE, TI_T("NOTBUS", "")), FMUC_VERDICT_FAIL);
    /* B-506: one flow member beside stream members */
    cr_expect_eq(bb_file(id, TI_FILE,
                         TI_T("bus", "<TerminalMemberVariable variableName=\"h\" memberName=\"a\" "
                                     "variableKind=\"inflow\"/><TerminalMemberVariable "
                                     "variableName=\"v\" memberName=\"b\" variableKind=\"outflow\"/>"
                                     "<TerminalStreamMemberVariable inStreamMemberName=\"i\" "
                                     "outStreamMemberName=\"o\" inStreamVariableName=\"g\" "
                                     "outStreamVariableName=\"h\"/>")),
                 FMUC_VERDICT_FAIL);
    /* B-501..B-503, B-507 */
    cr_expect_eq(bb_file(id, TI_FILE, "<?xml version=\"1.0\"?><fmiTerminalsAndIcons "
                                      "fmiVersion=\"3.1\"/>"),
                 FMUC_VERDICT_FAIL, "fmiVersion differs from the model description's");
    cr_expect_eq(bb_file(id, TI_FILE, TI_HEAD "<GraphicalRepresentation><CoordinateSystem x1=\"100\" "
                                              "y1=\"-100\" x2=\"-100\" y2=\"100\" "
                                              "suggestedScalingFactorTo_mm=\"0.1\"/>"
                                              "</GraphicalRepresentation>" TI_TAIL),
                 FMUC_VERDICT_FAIL, "x1 > x2 in the coordinate system");
    cr_expect_eq(bb_file(id, TI_FILE, TI_HEAD "<GraphicalRepresentation><Icon x1=\"0\" y1=\"0\" "
                                              "x2=\"0\" y2=\"10\"/></GraphicalRepresentation>"
                                              TI_TAIL),
                 FMUC_VERDICT_WARN, "an icon without area (T)");
    cr_expect_eq(bb_file(id, TI_FILE, TI_T("bus", "<TerminalGraphicalRepresentation x1=\"0\" "
                                                  "y1=\"0\" x2=\"1\" y2=\"1\" "
                                                  "iconBaseName=\"plug\"/>")),
                 FMUC_VERDICT_FAIL, "no plug.png");
    cr_expect_eq(bb_file(id, TI_FILE, TI_T("bus", "<TerminalGraphicalRepresentation x1=\"0\" "
                                                  "y1=\"0\" x2=\"1\" y2=\"1\" "
                                                  "iconBaseName=\"../ball\"/>")),
                 FMUC_VERDICT_WARN, "'..' above terminalsAndIcons/ (D)");
    /* bad input: a finding naming the file, never a crash */
    cr_expect_eq(bb_file(id, TI_FILE, ""), FMUC_VERDICT_FAIL, "empty");
    cr_expect_eq(bb_file(id, TI_FILE, TI_HEAD "<Terminals>"), FMUC_VERDICT_FAIL, "not well-formed");
    cr_expect_eq(bb_file(id, TI_FILE, "<fmiModelDescription fmiVersion=\"3.0\"/>"),
                 FMUC_VERDICT_FAIL, "wrong root");
    cr_expect_eq(bb_file(id, TI_FILE, "<?xml version=\"1.0\"?>\n<!DOCTYPE x [<!ENTITY a \"b\">]>\n"
                                      "<fmiTerminalsAndIcons fmiVersion=\"3.0\"/>"),
                 FMUC_VERDICT_FAIL, "DOCTYPE");
    cr_expect_eq(bb_file(id, TI_FILE, NULL), FMUC_VERDICT_ERROR, "over the size cap");
}

/* B-506: the in- and outStream arrays of a stream member have one size */
Test(fmi3_xmlfiles, stream_member_arrays_have_equal_sizes)
{
    const char *md = doc3("<Float64 name=\"q_in\" valueReference=\"1\" causality=\"input\" "
                          "start=\"0\"><Dimension start=\"3\"/></Float64>\n"
                          "<Float64 name=\"q_out\" valueReference=\"2\" causality=\"output\">"
                          "<Dimension start=\"2\"/></Float64>\n"
                          "<Float64 name=\"q_out3\" valueReference=\"3\" causality=\"output\">"
                          "<Dimension start=\"3\"/></Float64>\n"
                          "<UInt64 name=\"n\" valueReference=\"4\" causality=\"structuralParameter\" "
                          "variability=\"fixed\" start=\"3\"/>\n"
                          "<Float64 name=\"q_n\" valueReference=\"5\" causality=\"input\" "
                          "start=\"0\"><Dimension valueReference=\"4\"/></Float64>",
                          "<Output valueReference=\"2\"/><Output valueReference=\"3\"/>");
    char *md_copy = strdup(md);
    cr_assert(md_copy);
    /* a size given by the structural parameter n counts with its start value 3 */
    const char *ti[4] = {
        TI_T("bus", "<TerminalStreamMemberVariable inStreamMemberName=\"i\" "
                    "outStreamMemberName=\"o\" inStreamVariableName=\"q_in\" "
                    "outStreamVariableName=\"q_out\"/>"),
        TI_T("bus", "<TerminalStreamMemberVariable inStreamMemberName=\"i\" "
                    "outStreamMemberName=\"o\" inStreamVariableName=\"q_in\" "
                    "outStreamVariableName=\"q_out3\"/>"),
        TI_T("bus", "<TerminalStreamMemberVariable inStreamMemberName=\"i\" "
                    "outStreamMemberName=\"o\" inStreamVariableName=\"q_n\" "
                    "outStreamVariableName=\"q_out\"/>"),
        TI_T("bus", "<TerminalStreamMemberVariable inStreamMemberName=\"i\" "
                    "outStreamMemberName=\"o\" inStreamVariableName=\"q_n\" "
                    "outStreamVariableName=\"q_out3\"/>")};
    const fmuc_verdict want[4] = {FMUC_VERDICT_FAIL, FMUC_VERDICT_PASS, FMUC_VERDICT_FAIL,
                                  FMUC_VERDICT_PASS};
    const char *needle[4] = {"\"q_in\" (3 elements) and \"q_out\" (2 elements) differ", NULL,
                             "\"q_n\" (3 elements) and \"q_out\" (2 elements) differ in size "
                             "(they must be equal); a size given by a structural parameter",
                             NULL};
    for (int k = 0; k < 4; k++) {
        char *dir = fmuc_test_mkdtemp("f3s");
        cr_assert(dir);
        const char *e[] = {"modelDescription.xml", md_copy, TI_FILE, ti[k], NULL};
        char *fmu = bb_with(dir, e);
        cr_assert(fmu, "could not derive the FMU");
        cr_expect_eq(run_static3_msg(fmu, "md-terminals-and-icons", needle[k]), want[k], "case %d",
                     k);
        free(fmu);
        fmuc_test_rm_rf(dir);
        free(dir);
    }
    free(md_copy);
    cr_expect_eq(run_static3_msg(FMUC_FMU_DIR "/broken/md-terminals-and-icons--fmi3-stream-sizes.fmu",
                                 "md-terminals-and-icons",
                                 "\"q_in\" (3 elements) and \"q_out\" (2 elements) differ"),
                 FMUC_VERDICT_FAIL);
}

/* fmi3TerminalsAndIcons.xsd and fmi3Terminal.xsd: the schema's elements in its order and
 * number, with the line of the element out of place */
Test(fmi3_xmlfiles, terminals_and_icons_follow_the_schema_order)
{
    const char *id = "md-terminals-and-icons";
    const char *gr = "<GraphicalRepresentation><CoordinateSystem x1=\"-100\" y1=\"-100\" "
                     "x2=\"100\" y2=\"100\" suggestedScalingFactorTo_mm=\"0.1\"/>"
                     "</GraphicalRepresentation>\n";
    const char *terms = "<Terminals><Terminal name=\"t\" matchingRule=\"sequence\"/></Terminals>\n";
    char buf[2048];
    snprintf(buf, sizeof buf, TI_HEAD "%s%s<Annotations><Annotation type=\"org.example\"/>"
             "</Annotations>\n" TI_TAIL, gr, terms);
    cr_expect_eq(bb_file(id, TI_FILE, buf), FMUC_VERDICT_PASS, "the schema's order");
    snprintf(buf, sizeof buf, TI_HEAD "%s%s" TI_TAIL, terms, gr);
    cr_expect_eq(bb_file_msg(id, TI_FILE, buf, "terminalsAndIcons.xml line 4: <GraphicalRepresentation> comes after "
                             "<Terminals> (line 3)"),
                 FMUC_VERDICT_FAIL, "Terminals before GraphicalRepresentation");
    snprintf(buf, sizeof buf, TI_HEAD "%s%s" TI_TAIL, gr, gr);
    cr_expect_eq(bb_file_msg(id, TI_FILE, buf, "a second <GraphicalRepresentation> in "
                             "<fmiTerminalsAndIcons> (the first at line 3)"),
                 FMUC_VERDICT_FAIL, "two GraphicalRepresentation");
    cr_expect_eq(bb_file_msg(id, TI_FILE, TI_HEAD "<Icons/>" TI_TAIL,
                             "<Icons> is no element of <fmiTerminalsAndIcons>"),
                 FMUC_VERDICT_FAIL, "an unknown element");
    cr_expect_eq(bb_file_msg(id, TI_FILE, TI_HEAD "<GraphicalRepresentation><Icon x1=\"0\" "
                             "y1=\"0\" x2=\"1\" y2=\"1\"/><CoordinateSystem x1=\"0\" y1=\"0\" "
                             "x2=\"1\" y2=\"1\" suggestedScalingFactorTo_mm=\"1\"/>"
                             "</GraphicalRepresentation>" TI_TAIL,
                             "<CoordinateSystem> comes after <Icon>"),
                 FMUC_VERDICT_FAIL, "Icon before CoordinateSystem");
    cr_expect_eq(bb_file_msg(id, TI_FILE, TI_HEAD "<GraphicalRepresentation><Icon x1=\"0\" "
                             "y1=\"0\" x2=\"1\" y2=\"1\"><Image/></Icon>"
                             "</GraphicalRepresentation>" TI_TAIL,
                             "<Image> inside <Icon>, which has no child elements"),
                 FMUC_VERDICT_FAIL, "a child of the empty Icon");
    /* Terminal: TerminalMemberVariable*, TerminalStreamMemberVariable*, Terminal*,
     * TerminalGraphicalRepresentation?, Annotations? */
    const char *member = "<TerminalMemberVariable variableName=\"h\" variableKind=\"signal\">"
                         "<Annotations><Annotation type=\"org.example\"/></Annotations>"
                         "</TerminalMemberVariable>";
    const char *stream = "<TerminalStreamMemberVariable inStreamMemberName=\"i\" "
                         "outStreamMemberName=\"o\" inStreamVariableName=\"g\" "
                         "outStreamVariableName=\"h\"/>";
    const char *nested = "<Terminal name=\"n\" matchingRule=\"sequence\"/>";
    const char *graphics = "<TerminalGraphicalRepresentation x1=\"0\" y1=\"0\" x2=\"1\" "
                           "y2=\"1\" iconBaseName=\"ball\"/>";
    const char *ann = "<Annotations><Annotation type=\"org.example\"/></Annotations>";
    snprintf(buf, sizeof buf, TI_T("sequence", "%s%s%s%s%s"), member, stream, nested, graphics,
             ann);
    cr_expect_eq(bb_file(id, TI_FILE, buf), FMUC_VERDICT_PASS, "a terminal in the schema's order");
    snprintf(buf, sizeof buf, TI_T("sequence", "%s%s"), nested, member);
    cr_expect_eq(bb_file_msg(id, TI_FILE, buf, "<TerminalMemberVariable> comes after <Terminal>"),
                 FMUC_VERDICT_FAIL, "a member after a nested terminal");
    snprintf(buf, sizeof buf, TI_T("sequence", "%s%s"), stream, member);
    cr_expect_eq(bb_file_msg(id, TI_FILE, buf, "<TerminalMemberVariable> comes after "
                             "<TerminalStreamMemberVariable>"),
                 FMUC_VERDICT_FAIL, "a member after a stream member");
    snprintf(buf, sizeof buf, TI_T("sequence", "%s%s"), ann, graphics);
    cr_expect_eq(bb_file_msg(id, TI_FILE, buf, "<TerminalGraphicalRepresentation> comes after "
                             "<Annotations>"),
                 FMUC_VERDICT_FAIL, "graphics after the annotations");
    snprintf(buf, sizeof buf, TI_T("sequence", "%s%s"), graphics, graphics);
    cr_expect_eq(bb_file_msg(id, TI_FILE, buf, "a second <TerminalGraphicalRepresentation> in "
                             "<Terminal>"),
                 FMUC_VERDICT_FAIL, "two graphical representations of one terminal");
    cr_expect_eq(bb_file_msg(id, TI_FILE, TI_T("sequence", "<TerminalMemberVariable "
                                               "variableName=\"h\" variableKind=\"signal\">"
                                               "<Member/></TerminalMemberVariable>"),
                             "<Member> is no element of <TerminalMemberVariable> (the schema "
                             "allows Annotations)"),
                 FMUC_VERDICT_FAIL, "a child of a member other than Annotations");
    cr_expect_eq(run_static3_msg(FMUC_FMU_DIR "/broken/md-terminals-and-icons--fmi3-order.fmu", id,
                                 "<GraphicalRepresentation> comes after <Terminals>"),
                 FMUC_VERDICT_FAIL);
}

/* defaultConnectionColor: an xs:list of xs:unsignedByte (a fail otherwise); three of them is
 * the text's "RGB values" (derived: a warning) */
Test(fmi3_xmlfiles, terminal_connection_color_is_a_list_of_bytes)
{
    const char *id = "md-terminals-and-icons";
    static const struct {
        const char *color;
        fmuc_verdict want;
        const char *needle;
    } cases[] = {
        {"255 255 0", FMUC_VERDICT_PASS, NULL},
        {" +1\t-0  007 ", FMUC_VERDICT_PASS, NULL},
        {"0 128 300", FMUC_VERDICT_FAIL, "the item \"300\" is no xs:unsignedByte"},
        {"-1 0 0", FMUC_VERDICT_FAIL, "the item \"-1\" is no xs:unsignedByte"},
        {"red", FMUC_VERDICT_FAIL, "the item \"red\" is no xs:unsignedByte"},
        {"255,0,0", FMUC_VERDICT_FAIL, "the item \"255,0,0\" is no xs:unsignedByte"},
        {"255 255", FMUC_VERDICT_WARN, "has 2 values; an RGB color is three"},
        {"1 2 3 4", FMUC_VERDICT_WARN, "has 4 values"},
        {"", FMUC_VERDICT_WARN, "has 0 values"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char buf[1024];
        snprintf(buf, sizeof buf, TI_T("bus", "<TerminalGraphicalRepresentation x1=\"0\" y1=\"0\" "
                                              "x2=\"1\" y2=\"1\" iconBaseName=\"ball\" "
                                              "defaultConnectionColor=\"%s\"/>"),
                 cases[k].color);
        cr_expect_eq(bb_file_msg(id, TI_FILE, buf, cases[k].needle), cases[k].want,
                     "defaultConnectionColor=\"%s\"", cases[k].color);
    }
    cr_expect_eq(run_static3_msg(FMUC_FMU_DIR "/broken/md-terminals-and-icons--fmi3-color.fmu", id,
                                 "the item \"300\" is no xs:unsignedByte"),
                 FMUC_VERDICT_FAIL);
}

#define BD_FILE "sources/buildDescription.xml"
#define BD_HEAD "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<fmiBuildDescription fmiVersion=\"3.0\">\n"
#define BD_TAIL "</fmiBuildDescription>\n"
#define BD_SET "<SourceFileSet><SourceFile name=\"model.c\"/></SourceFileSet>"

Test(fmi3_xmlfiles, build_description_by_the_text)
{
    const char *id = "md-build-description";
    const char *good =
        BD_HEAD "<BuildConfiguration modelIdentifier=\"BouncingBall\">\n"
                "<SourceFileSet name=\"a\" language=\"C99\" compiler=\"gcc\" compilerOptions=\"-O2\">"
                "<SourceFile name=\"model.c\"/><PreprocessorDefinition name=\"FMI_VERSION\" "
                "value=\"3\" optional=\"true\"><Option value=\"2\"/><Option value=\"3\"/>"
                "</PreprocessorDefinition><IncludeDirectory name=\".\"/></SourceFileSet>\n"
                "<SourceFileSet name=\"b\"><SourceFile name=\"./model.c\"/></SourceFileSet>\n"
                "<Library name=\"m\" external=\"true\" version=\"&gt;=2.0\"/>\n"
                "</BuildConfiguration>\n"
                "<BuildConfiguration modelIdentifier=\"BouncingBall\" platform=\"x86_64-linux\">"
                BD_SET "</BuildConfiguration>\n"
                "<BuildConfiguration modelIdentifier=\"BouncingBall\" platform=\"x86_64-windows\">"
                BD_SET "</BuildConfiguration>\n" BD_TAIL;
    cr_expect_eq(bb_file(id, BD_FILE, good), FMUC_VERDICT_PASS, "a correct file passes");
    cr_expect_eq(run_static3(FMI3_GOOD_BB, id), FMUC_VERDICT_NA, "no buildDescription.xml");
    cr_expect_eq(run_static3(FMUC_FMU_DIR "/broken/md-build-description.fmu", id),
                 FMUC_VERDICT_FAIL);
    cr_expect_eq(run_static3(FMUC_FMU_DIR "/broken/md-build-description--fallbacks.fmu", id),
                 FMUC_VERDICT_FAIL);
    /* B-552 */
    cr_expect_eq(bb_file(id, BD_FILE, BD_HEAD "<BuildConfiguration modelIdentifier=\"BouncingBall\" "
                                              "platform=\"x86_64-linux\">" BD_SET
                                              "</BuildConfiguration><BuildConfiguration "
                                              "modelIdentifier=\"BouncingBall\" "
                                              "platform=\"x86_64-linux\">" BD_SET
                                              "</BuildConfiguration>" BD_TAIL),
                 FMUC_VERDICT_FAIL, "one platform twice");
    cr_expect_eq(bb_file(id, BD_FILE, BD_HEAD "<BuildConfiguration modelIdentifier=\"Other\">" BD_SET
                                              "</BuildConfiguration>" BD_TAIL),
                 FMUC_VERDICT_WARN, "a modelIdentifier of no interface (D)");
    /* B-551, B-553, B-554 */
    cr_expect_eq(bb_file(id, BD_FILE, BD_HEAD BD_TAIL), FMUC_VERDICT_FAIL, "no configuration");
    cr_expect_eq(bb_file(id, BD_FILE, BD_HEAD "<BuildConfiguration modelIdentifier=\"BouncingBall\"/>"
                                              BD_TAIL),
                 FMUC_VERDICT_FAIL, "no SourceFileSet");
    cr_expect_eq(bb_file(id, BD_FILE, BD_HEAD "<BuildConfiguration modelIdentifier=\"BouncingBall\">"
                                              "<SourceFileSet/></BuildConfiguration>" BD_TAIL),
                 FMUC_VERDICT_FAIL, "a set without SourceFile");
    cr_expect_eq(bb_file(id, BD_FILE, BD_HEAD "<BuildConfiguration modelIdentifier=\"BouncingBall\">"
                                              "<SourceFileSet><SourceFile name=\"../model.c\"/>"
                                              "</SourceFileSet></BuildConfiguration>" BD_TAIL),
                 FMUC_VERDICT_FAIL, "a path leaving sources/");
    cr_expect_eq(bb_file(id, BD_FILE, BD_HEAD "<BuildConfiguration modelIdentifier=\"BouncingBall\">"
                                              "<SourceFileSet><SourceFile name=\"other.c\"/>"
                                              "</SourceFileSet></BuildConfiguration>" BD_TAIL),
                 FMUC_VERDICT_WARN, "a listed file not shipped (D)");
    cr_expect_eq(bb_file(id, BD_FILE, BD_HEAD "<BuildConfiguration modelIdentifier=\"BouncingBall\">"
                                              BD_SET "<Library name=\"hdf5\"/>"
                                              "</BuildConfiguration>" BD_TAIL),
                 FMUC_VERDICT_WARN, "a non-external library not in binaries/ (D)");
    cr_expect_eq(bb_file(id, BD_FILE, "<fmiBuildDescription fmiVersion=\"2.0\">"
                                      "<BuildConfiguration modelIdentifier=\"BouncingBall\">" BD_SET
                                      "</BuildConfiguration></fmiBuildDescription>"),
                 FMUC_VERDICT_FAIL, "fmiVersion not 3.x");
    cr_expect_eq(bb_file(id, BD_FILE, "<fmiBuildDescription"), FMUC_VERDICT_FAIL,
                 "not well-formed");
    /* values are compared as the parser resolved their character and predefined references */
    cr_expect_eq(bb_file(id, BD_FILE, BD_HEAD "<BuildConfiguration modelIdentifier=\"BouncingBall\">"
                                              "<SourceFileSet><SourceFile name=\"model.c\"/>"
                                              "<PreprocessorDefinition name=\"V\" value=\"a&lt;&#51;\">"
                                              "<Option value=\"a&#60;3\"/></PreprocessorDefinition>"
                                              "</SourceFileSet></BuildConfiguration>" BD_TAIL),
                 FMUC_VERDICT_PASS, "a<3 written two ways");
}

/* fmi3BuildDescription.xsd: the schema's elements in its order, with the line of the element
 * out of place */
Test(fmi3_xmlfiles, build_description_follows_the_schema_order)
{
    const char *id = "md-build-description";
    const char *ann = "<Annotations><Annotation type=\"org.example\"/></Annotations>";
    char buf[2048];
    snprintf(buf, sizeof buf, BD_HEAD "<BuildConfiguration modelIdentifier=\"BouncingBall\">"
             "<SourceFileSet><SourceFile name=\"model.c\">%s</SourceFile>"
             "<PreprocessorDefinition name=\"A\" value=\"1\"><Option value=\"1\"/>%s"
             "</PreprocessorDefinition><IncludeDirectory name=\".\">%s</IncludeDirectory>%s"
             "</SourceFileSet><Library name=\"m\" external=\"true\">%s</Library>%s"
             "</BuildConfiguration>%s" BD_TAIL, ann, ann, ann, ann, ann, ann, ann);
    cr_expect_eq(bb_file(id, BD_FILE, buf), FMUC_VERDICT_PASS, "the schema's order");
    static const struct {
        const char *body, *needle, *what;
    } cases[] = {
        {"<BuildConfiguration modelIdentifier=\"BouncingBall\"><Library name=\"m\" "
         "external=\"true\"/>" BD_SET "</BuildConfiguration>",
         "buildDescription.xml line 3: <SourceFileSet> comes after <Library> (line 3); the schema "
         "orders the children of <BuildConfiguration> as SourceFileSet, Library, Annotations",
         "a Library before a SourceFileSet"},
        {"<Annotations><Annotation type=\"org.example\"/></Annotations>"
         "<BuildConfiguration modelIdentifier=\"BouncingBall\">" BD_SET "</BuildConfiguration>",
         "<BuildConfiguration> comes after <Annotations>", "Annotations first"},
        {"<BuildConfiguration modelIdentifier=\"BouncingBall\"><SourceFileSet>"
         "<PreprocessorDefinition name=\"A\"/><SourceFile name=\"model.c\"/></SourceFileSet>"
         "</BuildConfiguration>",
         "<SourceFile> comes after <PreprocessorDefinition>", "a define before the files"},
        {"<BuildConfiguration modelIdentifier=\"BouncingBall\"><SourceFileSet>"
         "<SourceFile name=\"model.c\"/><IncludeDirectory name=\".\"/>"
         "<PreprocessorDefinition name=\"A\"/></SourceFileSet></BuildConfiguration>",
         "<PreprocessorDefinition> comes after <IncludeDirectory>",
         "an include directory before a define"},
        {"<BuildConfiguration modelIdentifier=\"BouncingBall\"><SourceFileSet>"
         "<SourceFile name=\"model.c\"/><PreprocessorDefinition name=\"A\" value=\"1\">"
         "<Annotations><Annotation type=\"org.example\"/></Annotations><Option value=\"1\"/>"
         "</PreprocessorDefinition></SourceFileSet></BuildConfiguration>",
         "<Option> comes after <Annotations>", "an Option after the annotations"},
        {"<BuildConfiguration modelIdentifier=\"BouncingBall\">" BD_SET
         "<Compiler name=\"gcc\"/></BuildConfiguration>",
         "<Compiler> is no element of <BuildConfiguration> (the schema allows SourceFileSet, "
         "Library, Annotations)",
         "an unknown element"},
        {"<BuildConfiguration modelIdentifier=\"BouncingBall\">" BD_SET
         "<Annotations/><Annotations/></BuildConfiguration>",
         "a second <Annotations> in <BuildConfiguration>", "two Annotations"},
        {"<BuildConfiguration modelIdentifier=\"BouncingBall\"><SourceFileSet>"
         "<SourceFile name=\"model.c\"/><PreprocessorDefinition name=\"A\" value=\"1\">"
         "<Option value=\"1\"><Text/></Option></PreprocessorDefinition></SourceFileSet>"
         "</BuildConfiguration>",
         "<Text> inside <Option>, which has no child elements", "a child of an Option"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        snprintf(buf, sizeof buf, BD_HEAD "%s" BD_TAIL, cases[k].body);
        cr_expect_eq(bb_file_msg(id, BD_FILE, buf, cases[k].needle), FMUC_VERDICT_FAIL, "%s",
                     cases[k].what);
    }
    cr_expect_eq(run_static3_msg(FMUC_FMU_DIR "/broken/md-build-description--fmi3-order.fmu", id,
                                 "<SourceFileSet> comes after <Library>"),
                 FMUC_VERDICT_FAIL);
}

/* Every Annotations element of terminalsAndIcons.xml and buildDescription.xml has the type of
 * fmi3Annotation.xsd: one or more Annotation, each with its required type and no other
 * attribute; an Annotation's content is free (B-113, B-004) */
Test(fmi3_xmlfiles, annotations_follow_fmi3_annotation_xsd)
{
    static const struct {
        const char *ann, *needle, *what; /* needle NULL: passes */
    } cases[] = {
        {"<Annotations><Annotation type=\"com.example.tool\"><Tool xmlns=\"urn:x\" a=\"1\">"
         "text<Deeper/></Tool></Annotation><Annotation type=\"org.example\"/></Annotations>",
         NULL, "two Annotations with free content"},
        {"<Annotations><Annotation/></Annotations>", "<Annotation> has no type (required",
         "an Annotation without type"},
        {"<Annotations><Annotation type=\"com.example\" order=\"1\"/></Annotations>",
         "<Annotation> has attribute order, which fmi3Annotation.xsd does not declare",
         "Dymola's order attribute"},
        {"<Annotations></Annotations>", "<Annotations> holds no <Annotation> (at least one",
         "an empty Annotations"},
        {"<Annotations><Tool name=\"x\"/></Annotations>",
         "<Tool> is no element of <Annotations> (the schema allows Annotation only)",
         "an FMI 2.0 Tool element"},
    };
    char buf[2048];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        fmuc_verdict want = cases[k].needle ? FMUC_VERDICT_FAIL : FMUC_VERDICT_PASS;
        snprintf(buf, sizeof buf, BD_HEAD "<BuildConfiguration modelIdentifier=\"BouncingBall\">"
                 "<SourceFileSet><SourceFile name=\"model.c\"/>%s</SourceFileSet>"
                 "</BuildConfiguration>" BD_TAIL, cases[k].ann);
        cr_expect_eq(bb_file_msg("md-build-description", BD_FILE, buf, cases[k].needle), want,
                     "buildDescription.xml: %s", cases[k].what);
        snprintf(buf, sizeof buf, TI_HEAD "%s" TI_TAIL, cases[k].ann);
        cr_expect_eq(bb_file_msg("md-terminals-and-icons", TI_FILE, buf, cases[k].needle), want,
                     "terminalsAndIcons.xml: %s", cases[k].what);
    }
}

/* Library@version is a PEP 440 version specifier (FMI 3.0.2 §2.5.1.3; the text's examples
 * include the bare version 2.5); BuildConfiguration@platform a platform tuple (vendors may add
 * names: a warning) */
Test(fmi3_xmlfiles, build_description_library_version_and_platform)
{
    const char *id = "md-build-description";
    static const struct {
        const char *version;
        fmuc_verdict want;
        const char *needle;
    } cases[] = {
        {"2.5", FMUC_VERDICT_PASS, NULL},
        {"&gt;=2.0,&lt;3.0", FMUC_VERDICT_PASS, NULL},
        {"&gt;=1.0, !=1.2", FMUC_VERDICT_PASS, NULL},
        {"~=1.4.5", FMUC_VERDICT_PASS, NULL},
        {"==1.2.*", FMUC_VERDICT_PASS, NULL},
        {"==1.0+ubuntu.1", FMUC_VERDICT_PASS, NULL},
        {"1.0rc1", FMUC_VERDICT_PASS, NULL},
        {"v1.0.post2.dev3", FMUC_VERDICT_PASS, NULL},
        {"1!2.0-alpha_1", FMUC_VERDICT_PASS, NULL},
        {"1.0-1", FMUC_VERDICT_PASS, NULL},
        {"===foobar", FMUC_VERDICT_PASS, NULL},
        {"latest", FMUC_VERDICT_FAIL,
         "version=\"latest\" is no PEP 440 version specifier (such as 2.5, >=2.0,<3.0 or "
         ">=1.0,!=1.2): clause 1 \"latest\": no comparison operator"},
        {"~=1", FMUC_VERDICT_FAIL, "\"~=\" needs a release of at least two numbers"},
        {"&gt;=", FMUC_VERDICT_FAIL, "clause 1 \">=\": no version after the operator"},
        {"&gt;=1.0 &lt;2", FMUC_VERDICT_FAIL, "unexpected text after the version"},
        {"&gt;=1.0,", FMUC_VERDICT_FAIL, "clause 2"},
        {"2.5.*", FMUC_VERDICT_FAIL, "no comparison operator"},
        {"&gt;=1.0+local", FMUC_VERDICT_FAIL, "unexpected text after the version"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char buf[1024];
        snprintf(buf, sizeof buf, BD_HEAD "<BuildConfiguration modelIdentifier=\"BouncingBall\">"
                 BD_SET "<Library name=\"m\" external=\"true\" version=\"%s\"/>"
                 "</BuildConfiguration>" BD_TAIL, cases[k].version);
        cr_expect_eq(bb_file_msg(id, BD_FILE, buf, cases[k].needle), cases[k].want,
                     "version=\"%s\"", cases[k].version);
    }
    cr_expect_eq(run_static3_msg(FMUC_FMU_DIR "/broken/md-build-description--fmi3-library-"
                                 "version.fmu", id, "version=\"latest\" is no PEP 440"),
                 FMUC_VERDICT_FAIL);
    static const struct {
        const char *platform;
        fmuc_verdict want;
        const char *needle;
    } plats[] = {
        {"x86_64-linux", FMUC_VERDICT_PASS, NULL},
        {"aarch64-darwin", FMUC_VERDICT_PASS, NULL},
        {"x86_64-windows-msvc140mt", FMUC_VERDICT_PASS, NULL},
        {"win64", FMUC_VERDICT_WARN,
         "platform=\"win64\"> is no FMI 3.0 platform tuple <arch>-<sys> (such as x86_64-linux, "
         "x86_64-windows, aarch64-darwin) but an FMI 2.0 platform name"},
        {"linux-x86_64", FMUC_VERDICT_WARN, "platform=\"linux-x86_64\"> is no FMI 3.0 platform "
                                            "tuple"},
        {"myboard", FMUC_VERDICT_WARN, "importers pick the configuration whose platform matches"},
    };
    for (size_t k = 0; k < sizeof plats / sizeof plats[0]; k++) {
        char buf[1024];
        snprintf(buf, sizeof buf, BD_HEAD "<BuildConfiguration modelIdentifier=\"BouncingBall\" "
                 "platform=\"%s\">" BD_SET "</BuildConfiguration>" BD_TAIL, plats[k].platform);
        cr_expect_eq(bb_file_msg(id, BD_FILE, buf, plats[k].needle), plats[k].want,
                     "platform=\"%s\"", plats[k].platform);
    }
}

/* ------------------------------------------------- FMI 3.0 inputs driven by --input (issue 19) */

/* The Reference-FMU Feedthrough 3.0 driven through a table in both interfaces: Float64, Float32,
 * Int8, UInt64, Boolean and Enumeration inputs each get their own type's set call and the
 * outputs that feed them through end at the table's last row; a Binary column is refused naming
 * the file, the column and why. */
Test(fmi3_inputs, feedthrough_follows_a_table_of_every_scalar_type, .timeout = 120)
{
    const char *fmu = FMUC_SHARED_DIR "/reference-fmus/fmi3/Feedthrough.fmu";
    if (access(fmu, R_OK) != 0)
        cr_skip("no Reference-FMU Feedthrough 3.0 in %s", FMUC_SHARED_DIR);
    char *dir = fmuc_test_mkdtemp("f3in"), csv[4200], bad[4200], rpath[4200];
    cr_assert(dir);
    snprintf(csv, sizeof csv, "%s/in.csv", dir);
    snprintf(bad, sizeof bad, "%s/bad.csv", dir);
    FILE *f = fopen(csv, "w");
    cr_assert(f);
    fputs("time,Float64_continuous_input,Float32_continuous_input,Int8_input,UInt64_input,"
          "Boolean_input,Enumeration_input\n0,1.5,2.5,-3,7,1,2\n1,2.5,3.5,4,9,0,1\n",
          f);
    fclose(f);
    static const char *const ids[] = {"cs-nominal-run", "me-nominal-run"};
    for (size_t k = 0; k < 2; k++) {
        char *argv[] = {FMUC_EXE, "-q", "--no-html", "--input", csv, "--only", (char *)ids[k],
                        "-o", dir, (char *)fmu, NULL};
        fmuc_test_run run;
        cr_assert(fmuc_test_exec(&run, argv, NULL) == 0);
        snprintf(rpath, sizeof rpath, "%s/report.json", dir);
        cJSON *rep = fmuc_test_read_json(rpath), *it;
        cr_assert(rep, "no report (exit %d): %s", run.status, run.err);
        int seen = 0;
        cJSON_ArrayForEach(it, cJSON_GetObjectItem(rep, "checks"))
        {
            if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(it, "id")), ids[k]) != 0)
                continue;
            seen = 1;
            cJSON *fv = cJSON_GetObjectItem(cJSON_GetObjectItem(it, "evidence"), "final_values");
            cr_assert(fv, "%s: no final values", ids[k]);
            static const struct {
                const char *name;
                double want;
            } w[] = {{"Float64_continuous_output", 2.5}, {"Float32_continuous_output", 3.5},
                     {"Int8_output", 4}, {"UInt64_output", 9}, {"Boolean_output", 0},
                     {"Enumeration_output", 1}};
            for (size_t j = 0; j < sizeof w / sizeof w[0]; j++) {
                cJSON *x = cJSON_GetObjectItem(fv, w[j].name);
                cr_expect(cJSON_IsNumber(x) && x->valuedouble == w[j].want, "%s: %s = %g, want %g",
                          ids[k], w[j].name, cJSON_IsNumber(x) ? x->valuedouble : -1e300, w[j].want);
            }
        }
        cr_expect(seen, "%s missing", ids[k]);
        cJSON_Delete(rep);
        fmuc_test_run_free(&run);
    }
    f = fopen(bad, "w");
    cr_assert(f);
    fputs("time,Binary_input\n0,1\n", f);
    fclose(f);
    char *argv[] = {FMUC_EXE, "--no-html", "--input", bad, "--only", "cs-nominal-run", "-o", dir,
                    (char *)fmu, NULL};
    fmuc_test_run run;
    cr_assert(fmuc_test_exec(&run, argv, NULL) == 0);
    cr_expect(strstr(run.out, "column 'Binary_input'") && strstr(run.out, "is a Binary input"),
              "%s", run.out);
    fmuc_test_run_free(&run);
    fmuc_test_rm_rf(dir);
    free(dir);
}

/* ------------------------------------------------------------ cs-event-mode (FMI 3.0 CS) */

static double em_count(const fmuc_result *r, const char *run, const char *key)
{
    const cJSON *o = r->evidence ? cJSON_GetObjectItemCaseSensitive(r->evidence, run) : NULL;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : -1.0;
}

/* Stair 3.0 declares hasEventMode, mightReturnEarlyFromDoStep and providesIntermediateUpdate
 * (FMUC_M_CAP_CS_EVENT_MODE): both runs pass, with Event Mode after initialization and after
 * the step that reaches t=1, and the intermediate update at every step. */
Test(fmi3_cs_event_mode, stair_passes_with_event_mode_and_intermediate_update, .timeout = 300)
{
    fmuc_result r;
    cr_expect_eq(run_built3("fmi3/good/Stair", &fmuc_check_cs_event_mode, &r), FMUC_VERDICT_PASS);
    static const char *const runs[] = {"run A (earlyReturnAllowed=false)",
                                       "run B (earlyReturnAllowed=true)"};
    for (size_t i = 0; i < 2; i++) {
        cr_expect_eq(em_count(&r, runs[i], "event_instants"), 2, "%s", runs[i]);
        cr_expect_eq(em_count(&r, runs[i], "event_handling_needed"), 1, "%s", runs[i]);
        cr_expect_eq(em_count(&r, runs[i], "early_returns"), 0, "%s", runs[i]);
        cr_expect_eq(em_count(&r, runs[i], "intermediate_update_calls"),
                     em_count(&r, runs[i], "do_steps"), "%s", runs[i]);
    }
    fmuc_result_clear(&r);
}

/* BouncingBall 3.0 of the project declares none of the flags: not applicable, saying so. */
Test(fmi3_cs_event_mode, not_applicable_without_the_flags, .timeout = 120)
{
    fmuc_result r;
    cr_expect_eq(run_built3("fmi3/good/BouncingBall", &fmuc_check_cs_event_mode, &r),
                 FMUC_VERDICT_NA);
    cr_expect(message_has(&r, "hasEventMode", "mightReturnEarlyFromDoStep"));
    fmuc_result_clear(&r);
}

/* The broken fixture returns early although earlyReturnAllowed=false: run A fails naming the
 * step and the argument; run B (early return allowed) is not faulted for it. */
Test(fmi3_cs_event_mode, early_return_without_permission_fails, .timeout = 300)
{
    fmuc_result r;
    cr_expect_eq(run_built3("broken/cs-event-mode", &fmuc_check_cs_event_mode, &r),
                 FMUC_VERDICT_FAIL);
    cr_expect(message_has(&r, "run A (earlyReturnAllowed=false): fmi3DoStep(t=0.9",
                          "earlyReturnAllowed=false (FMI 3.0.2 §2.3.1"));
    cr_expect_not(message_has(&r, "run B", NULL));
    fmuc_result_clear(&r);
}

/* An early return without permission that also reports a lastSuccessfulTime past the step: both
 * are reported in run A (the time used to be judged only where early returns were allowed). */
Test(fmi3_cs_event_mode, early_return_past_the_step_is_reported_without_permission_too,
     .timeout = 300)
{
    fmuc_result r;
    cr_expect_eq(run_built3("broken/cs-event-mode--early-last-past", &fmuc_check_cs_event_mode,
                            &r),
                 FMUC_VERDICT_FAIL);
    cr_expect(message_has(&r, "run A (earlyReturnAllowed=false): fmi3DoStep(t=0.9",
                          "earlyReturnAllowed=false (FMI 3.0.2 §2.3.1"));
    cr_expect(message_has(&r, "run A (earlyReturnAllowed=false): fmi3DoStep(t=0.9",
                          "lastSuccessfulTime=1.1000000000000001 outside [tc, tc+h]"));
    cr_expect(message_has(&r, "run B (earlyReturnAllowed=true): fmi3DoStep(t=0.9",
                          "outside [tc, tc+h]"));
    fmuc_result_clear(&r);
}

/* D-03: Stair with its steps off the grid (0.55, 1.55, ...) returns early in run B; the fixture
 * reports that early return with fmi3Discard: a failure naming the step, the status and
 * lastSuccessfulTime. */
Test(fmi3_cs_event_mode, early_return_reported_as_discard_fails, .timeout = 300)
{
    fmuc_result r;
    cr_expect_eq(run_built3("broken/cs-event-mode--early-discard", &fmuc_check_cs_event_mode, &r),
                 FMUC_VERDICT_FAIL);
    cr_expect(message_has(&r, "run B (earlyReturnAllowed=true): fmi3DoStep(t=0.5",
                          "returned earlyReturn=true with fmi3Discard (lastSuccessfulTime=0.55"));
    cr_expect_not(message_has(&r, "run A", NULL));
    fmuc_result_clear(&r);
}

/* C-10: Stair's x has intermediateUpdate="true"; run C registers it in
 * requiredIntermediateVariables and reads it in Intermediate Update Mode (the glue enters it in
 * the middle of every step). The good Stair answers every get; the fixture refuses the first
 * with fmi3Error: one failure naming the variable and the time, and no access after it. */
Test(fmi3_cs_event_mode, intermediate_get_refused_fails, .timeout = 300)
{
    fmuc_result r;
    cr_expect_eq(run_built3("fmi3/good/Stair", &fmuc_check_cs_event_mode, &r), FMUC_VERDICT_PASS);
    const cJSON *c = cJSON_GetObjectItem(fmuc_result_evidence(&r),
                                         "run C (requiredIntermediateVariables)");
    cr_assert(c != NULL);
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(c, "required_intermediate_variables")),
                 1.0);
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(c, "ium_gets")), 10.0);
    fmuc_result_clear(&r);
    cr_expect_eq(run_built3("broken/cs-event-mode--ium-get", &fmuc_check_cs_event_mode, &r),
                 FMUC_VERDICT_FAIL);
    cr_expect(message_has(&r, "run C (requiredIntermediateVariables): in Intermediate Update "
                              "Mode at intermediateUpdateTime=0.05",
                          "the get of the registered output 'x' returned fmi3Error"));
    /* after the Error the harness accesses nothing more in that instance (the FMU has left
     * the state that allows it) */
    cr_expect_not(message_has(&r, "further refused accesses", NULL));
    c = cJSON_GetObjectItem(fmuc_result_evidence(&r), "run C (requiredIntermediateVariables)");
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(c, "ium_gets")), 1.0);
    cr_expect_not(message_has(&r, "run A", NULL));
    fmuc_result_clear(&r);
}

/* Reference-FMUs 3.0: Roberts declares hasEventMode="true" and refuses eventModeUsed=true
 * ("Event Mode is not supported."): a failure naming the instantiation; the others pass or are
 * not applicable (Clocks has no binary for this platform). */
Test(fmi3_cs_event_mode, reference_fmus, .timeout = 600)
{
    char paths[32][1024];
    size_t n = fmus_in(FMUC_SHARED_DIR "/reference-fmus/fmi3", paths, 32);
    if (n == 0)
        cr_skip("no FMI 3.0 Reference-FMUs in %s/reference-fmus/fmi3", FMUC_SHARED_DIR);
    for (size_t i = 0; i < n; i++) {
        fmuc_result r;
        fmuc_verdict v = run_file3(paths[i], &fmuc_check_cs_event_mode, &r);
        if (strstr(paths[i], "/Roberts.fmu")) {
            cr_expect_eq(v, FMUC_VERDICT_FAIL, "%s", paths[i]);
            cr_expect(message_has(&r, "fmi3InstantiateCoSimulation(eventModeUsed=true",
                                  "hasEventMode=\"true\""));
        } else {
            cr_expect(v == FMUC_VERDICT_PASS || v == FMUC_VERDICT_NA, "%s: %s", paths[i],
                      r.nmessages ? r.messages[0] : "");
        }
        fmuc_result_clear(&r);
    }
}

/* ------------------------------------------- api-configuration-mode (FMI 3.0 only, §3.2/§4.2) */

/* The fixture declares a structural parameter on the glue that refuses Configuration Mode: a
 * failure naming the call, in both interfaces. */
Test(fmi3_dynamic, configuration_mode_refused_fails, .timeout = 300)
{
    fmuc_result r;
    cr_expect_eq(run_built3("broken/api-configuration-mode", &fmuc_check_api_configuration_mode,
                            &r),
                 FMUC_VERDICT_FAIL);
    cr_expect(message_has(&r, "ModelExchange: fmi3EnterConfigurationMode from Instantiated "
                              "returned fmi3Error",
                          NULL));
    cr_expect(message_has(&r, "CoSimulation: fmi3EnterConfigurationMode", NULL));
    fmuc_result_clear(&r);
}

/* LagChain (the project's good FMU with a structural parameter): n goes from 3 to 4 in
 * Configuration Mode, gains (a parameter array) is set and x, der(x), gains read with 4 elements,
 * both interfaces run; ME: fmi3GetNumberOfContinuousStates answers 4 (C-28). A fixed structural
 * parameter set in Event / Step Mode is refused, as it must be (no warning). */
Test(fmi3_dynamic, configuration_mode_lag_chain_passes, .timeout = 300)
{
    fmuc_result r;
    cr_expect_eq(run_built3("fmi3/good/LagChain", &fmuc_check_api_configuration_mode, &r),
                 FMUC_VERDICT_PASS);
    const char *ifs[2] = {"ModelExchange", "CoSimulation"};
    for (int i = 0; i < 2; i++) {
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(r.evidence, ifs[i]);
        cr_assert(e, "no evidence for %s", ifs[i]);
        cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "configured")), 1);
        cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "arrays_set")), 1);
        cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "arrays_read")), 3);
        cr_expect(cJSON_GetObjectItemCaseSensitive(e, "run1"), "%s ran", ifs[i]);
        cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "outside_status")),
                     3, "%s: n set outside Configuration Mode is fmi3Error", ifs[i]);
    }
    const cJSON *me = cJSON_GetObjectItemCaseSensitive(r.evidence, "ModelExchange");
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(me, "n_continuous_states")),
                 4);
    cr_expect(message_has(&r, "fmi3GetNumberOfContinuousStates = 4", NULL));
    /* the calls the worker made with the new size: x read with nValues 4 */
    char *ev = cJSON_PrintUnformatted(r.evidence);
    cr_expect(ev && !strstr(ev, "fmi3Error\",\"category\":\"logStatusError\",\"message\":"
                                "\"fmi3GetFloat64"),
              "no refused fmi3GetFloat64");
    free(ev);
    fmuc_result_clear(&r);
}

/* api-configuration-mode--nstates: LagChain whose fmi3GetNumberOfContinuousStates keeps the
 * start size (3) after n became 4: fails C-28 naming both numbers and the parameter (ME only;
 * CS has no such function and passes its part). */
Test(fmi3_dynamic, configuration_mode_stale_number_of_states_fails, .timeout = 300)
{
    fmuc_result r;
    cr_expect_eq(run_built3("broken/api-configuration-mode--nstates",
                            &fmuc_check_api_configuration_mode, &r),
                 FMUC_VERDICT_FAIL);
    cr_expect(message_has(&r, "ModelExchange: fmi3GetNumberOfContinuousStates answered 3",
                          "the modelDescription gives 4 continuous states"));
    cr_expect(message_has(&r, "'n' (vr 1) 3 -> 4", "C-28"));
    cr_expect(message_has(&r, "§2.3.2", NULL));
    cr_expect(!message_has(&r, "CoSimulation: fmi3", NULL), "CS passes its part");
    fmuc_result_clear(&r);
}

/* The good FMUs of the project without structural parameters: not applicable. */
Test(fmi3_dynamic, configuration_mode_not_applicable_without_structural_parameters,
     .timeout = 300)
{
    fmuc_result r;
    cr_expect_eq(run_built3("fmi3/good/BouncingBall", &fmuc_check_api_configuration_mode, &r),
                 FMUC_VERDICT_NA);
    cr_expect(message_has(&r, "structuralParameter", NULL));
    fmuc_result_clear(&r);
}

/* The Reference-FMU StateSpace (3.0) refuses every fmi3SetUInt64 of its structural parameters:
 * its setUInt64 advances the value index before checking nValues (an upstream defect, §2.2.6.2):
 * a failure naming 'm'. Roberts warns (below); the others have no structural parameters. */
Test(fmi3_dynamic, configuration_mode_on_the_reference_fmus, .timeout = 600)
{
    char paths[32][1024];
    size_t n = fmus_in(FMUC_SHARED_DIR "/reference-fmus/fmi3", paths, 32);
    if (n == 0)
        cr_skip("no FMI 3.0 Reference-FMUs in %s/reference-fmus/fmi3", FMUC_SHARED_DIR);
    for (size_t i = 0; i < n; i++) {
        fmuc_result r;
        fmuc_verdict v = run_file3(paths[i], &fmuc_check_api_configuration_mode, &r);
        if (strstr(paths[i], "/StateSpace.fmu")) {
            cr_expect_eq(v, FMUC_VERDICT_FAIL);
            cr_expect(message_has(&r, "fmi3SetUInt64 of structural parameter 'm' (vr 1)",
                                  "in Configuration Mode returned fmi3Error"));
        } else if (strstr(paths[i], "/Roberts.fmu")) {
            /* its Boolean structural parameter 'dae' is accepted in Event/Step Mode too:
             * derived, warn; Configuration and Reconfiguration Mode work */
            cr_expect_eq(v, FMUC_VERDICT_WARN);
            cr_expect(message_has(&r, "fmi3SetBoolean of structural parameter 'dae'",
                                  "outside Configuration Mode"));
        } else {
            cr_expect_eq(v, FMUC_VERDICT_NA, "%s", paths[i]);
        }
        fmuc_result_clear(&r);
    }
}

/* ------------------------------------------- api-stop-time (2.0 §2.1.6, FMI 3.0.2 §2.3.2) */

/* The glue refuses fmi3DoStep and fmi3SetTime past a defined stopTime: BouncingBall 3.0 passes,
 * both interfaces probed; the fixture accepts both and fails, naming the call, the time reached
 * and stopTime (default experiment stepSize 0.01: stopTime 0.03, probed at 0.04). */
Test(fmi3_dynamic, stop_time_refused_by_the_glue_accepted_by_the_fixture, .timeout = 300)
{
    fmuc_result r;
    cr_expect_eq(run_built3("fmi3/good/BouncingBall", &fmuc_check_api_stop_time, &r),
                 FMUC_VERDICT_PASS);
    cr_expect(message_has(&r, "ModelExchange: fmi3SetTime", "returned fmi3Error"));
    cr_expect(message_has(&r, "CoSimulation: fmi3DoStep", "returned fmi3Error"));
    fmuc_result_clear(&r);
    cr_expect_eq(run_built3("broken/api-stop-time--fmi3", &fmuc_check_api_stop_time, &r),
                 FMUC_VERDICT_FAIL);
    cr_expect(message_has(&r, "CoSimulation: with stopTime = 0.03 defined, fmi3DoStep(0.03, 0.01)",
                          "to t=0.04 past stopTime and returned fmi3OK (expected fmi3Error)"));
    cr_expect(message_has(&r, "ModelExchange: with stopTime = 0.03 defined, fmi3SetTime(0.04)",
                          "returned fmi3OK"));
    fmuc_result_clear(&r);
}

/* The Reference-FMUs 3.0 refuse a step past stopTime in Co-Simulation; their Model Exchange
 * interfaces with something to evaluate accept the time and evaluate there (warn: derived for
 * ME, the sentence names no Model Exchange call); Clocks
 * declares Scheduled Execution only (the runner makes it not applicable; run directly, no
 * interface is probed). */
Test(fmi3_dynamic, stop_time_on_the_reference_fmus, .timeout = 600)
{
    char paths[32][1024];
    size_t n = fmus_in(FMUC_SHARED_DIR "/reference-fmus/fmi3", paths, 32);
    if (n == 0)
        cr_skip("no FMI 3.0 Reference-FMUs in %s/reference-fmus/fmi3", FMUC_SHARED_DIR);
    for (size_t i = 0; i < n; i++) {
        fmuc_result r;
        fmuc_verdict v = run_file3(paths[i], &fmuc_check_api_stop_time, &r);
        if (strstr(paths[i], "/Clocks.fmu")) {
            cr_expect_eq(v, FMUC_VERDICT_NA, "%s", paths[i]);
        } else if (strstr(paths[i], "/Resource.fmu") || strstr(paths[i], "/Stair.fmu")) {
            cr_expect_eq(v, FMUC_VERDICT_PASS, "%s", paths[i]);
            cr_expect(message_has(&r, "ModelExchange not probed", NULL), "%s", paths[i]);
        } else {
            cr_expect_eq(v, FMUC_VERDICT_WARN, "%s", paths[i]);
            cr_expect(message_has(&r, "ModelExchange: with stopTime", "was accepted"), "%s",
                      paths[i]);
        }
        cr_expect(message_has(&r, "CoSimulation: fmi3DoStep", "returned fmi3Error") ||
                      strstr(paths[i], "/Clocks.fmu"),
                  "%s: CS refuses", paths[i]);
        fmuc_result_clear(&r);
    }
}

/* ------------------------------------------- api-evaluate-discrete-states (FMI 3.0.2 §2.3.5) */

/* Stair 3.0 declares providesEvaluateDiscreteStates: at the instant after initialization and at
 * its time events the outputs after fmi3EvaluateDiscreteStates equal those after the update, in
 * both interfaces (CS with eventModeUsed). The fixture declares the flag and computes nothing: the
 * counter read after the evaluation is the previous one (warn, ME). BouncingBall declares no
 * flag: not applicable. The comparison is derived from §2.3.5 (warn). */
Test(fmi3_dynamic, evaluate_discrete_states_stair_and_fixture, .timeout = 300)
{
    fmuc_result r;
    cr_expect_eq(run_built3("fmi3/good/Stair", &fmuc_check_api_evaluate_discrete_states, &r),
                 FMUC_VERDICT_PASS);
    cr_expect(message_has(&r, "ModelExchange: 4 instant(s)", "4 compared"));
    cr_expect(message_has(&r, "CoSimulation: 4 instant(s)", "4 compared"));
    fmuc_result_clear(&r);
    cr_expect_eq(run_built3("broken/api-evaluate-discrete-states",
                            &fmuc_check_api_evaluate_discrete_states, &r),
                 FMUC_VERDICT_WARN);
    cr_expect(message_has(&r, "ModelExchange: at t=1 output 'counter' (vr 1)",
                          "after fmi3EvaluateDiscreteStates but"));
    fmuc_result_clear(&r);
    cr_expect_eq(run_built3("fmi3/good/BouncingBall", &fmuc_check_api_evaluate_discrete_states, &r),
                 FMUC_VERDICT_NA);
    cr_expect(message_has(&r, "providesEvaluateDiscreteStates", NULL));
    fmuc_result_clear(&r);
}

/* ---------------------------------- api-start-values (FMI 3.0.2 §2.4.7.5 initial, §2.4) */

/* The glue's FMUs start from the start values of their XML (LagChain: arrays sized by a
 * structural parameter); the fixture (FMUC_DEFECT_START_VALUE_DIFFERS) starts g from -9.9071
 * instead of -9.81 and fails in both interfaces. The Reference-FMUs 3.0 pass, Feedthrough with
 * its String and Binary start values compared. */
Test(fmi3_dynamic, start_values_in_initialization_mode, .timeout = 600)
{
    fmuc_result r;
    static const char *const good[] = {"fmi3/good/BouncingBall", "fmi3/good/LagChain",
                                       "fmi3/good/SpringMassDamper", "fmi3/vdsim_l3_fmi3"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        cr_expect_eq(run_built3(good[i], &fmuc_check_api_start_values, &r), FMUC_VERDICT_PASS,
                     "%s", good[i]);
        cr_expect(message_has(&r, "CoSimulation:", ", 0 differ"), "%s", good[i]);
        fmuc_result_clear(&r);
    }
    cr_expect_eq(run_built3("broken/api-start-values--fmi3", &fmuc_check_api_start_values, &r),
                 FMUC_VERDICT_FAIL);
    cr_expect(message_has(&r, "ModelExchange: parameter 'g' (valueReference 5",
                          "fmi3GetFloat64 in Initialization Mode, before any set, returned "
                          "-9.9071000000000016, but modelDescription.xml gives the start value "
                          "-9.81"));
    cr_expect(message_has(&r, "CoSimulation: parameter 'g'",
                          "after fmi3ExitInitializationMode it is -9.9071000000000016"));
    fmuc_result_clear(&r);
    char p[1024];
    snprintf(p, sizeof p, "%s/reference-fmus/fmi3/Feedthrough.fmu", FMUC_SHARED_DIR);
    if (access(p, R_OK) == 0) {
        cr_expect_eq(run_file3(p, &fmuc_check_api_start_values, &r), FMUC_VERDICT_PASS);
        cr_expect(message_has(&r, "ModelExchange: 18 value(s) compared", ", 0 differ"));
        fmuc_result_clear(&r);
    }
}

/* ------------------------- api-variable-access (FMI 3.0.2 §2.2.7.1-2, §2.2.3; C-24/25/41/44) */

/* BouncingBall 3.0 keeps its parameters set in Initialization Mode and refuses nValues = 2 for a
 * scalar; the fixture that drops a Float64 parameter set there fails, the one that does not
 * check nValues warns (derived). The Reference-FMU Feedthrough 3.0 passes with its String and
 * Binary inputs set from the probe's buffers, overwritten after the set. */
Test(fmi3_dynamic, variable_access_round_trip_and_nvalues, .timeout = 600)
{
    fmuc_result r;
    cr_expect_eq(run_built3("fmi3/good/BouncingBall", &fmuc_check_api_variable_access, &r),
                 FMUC_VERDICT_PASS);
    cr_expect(message_has(&r, "ModelExchange: fmi3GetFloat64 with nValues = 2", "fmi3Error"));
    cr_expect(message_has(&r, "CoSimulation: 5 value(s) set and read back", "0 differ"));
    fmuc_result_clear(&r);
    cr_expect_eq(run_built3("fmi3/good/LagChain", &fmuc_check_api_variable_access, &r),
                 FMUC_VERDICT_PASS);
    fmuc_result_clear(&r);
    cr_expect_eq(run_built3("broken/api-variable-access--fmi3", &fmuc_check_api_variable_access,
                            &r),
                 FMUC_VERDICT_FAIL);
    cr_expect(message_has(&r, "CoSimulation: parameter 'g' (valueReference 5, line 33): "
                              "fmi3SetFloat64 set -9.8100098100000004",
                          "fmi3GetFloat64 then returned -9.8100000000000005"));
    fmuc_result_clear(&r);
    cr_expect_eq(run_built3("broken/api-variable-access--fmi3-nvalues",
                            &fmuc_check_api_variable_access, &r),
                 FMUC_VERDICT_WARN);
    cr_expect(message_has(&r, "ModelExchange: fmi3GetFloat64 of the scalar 'h'",
                          "with nValues = 2 returned fmi3OK (expected fmi3Error"));
    fmuc_result_clear(&r);
    char p[1024];
    snprintf(p, sizeof p, "%s/reference-fmus/fmi3/Feedthrough.fmu", FMUC_SHARED_DIR);
    if (access(p, R_OK) == 0) {
        cr_expect_eq(run_file3(p, &fmuc_check_api_variable_access, &r), FMUC_VERDICT_PASS);
        cr_expect(message_has(&r, "CoSimulation: 18 value(s) set and read back, 0 differ",
                              "2 String variable(s) read"));
        fmuc_result_clear(&r);
    }
}

/* api-clocks: ClockedSampler (ME and CS with Event Mode clocks) passes, its constant clock's
 * interval and shift answered in Initialization Mode and three ticks driven per interface; the
 * fixture that refuses fmi3SetClock in Event Mode and the one that answers its constant clock
 * with fmi3IntervalNotYetKnown fail, per interface, and so does the one whose Fraction getters
 * report a tenth of the Decimal interval and shift (F-22), the one that refuses to deactivate
 * its canBeDeactivated clock (C-45, F-23), the one whose countdown clock announces a negative
 * interval (F-20) and the one whose changing clock answers fmi3IntervalNotYetKnown at its tick
 * (F-21). */
Test(fmi3_api_clocks, sampler_and_its_defects, .timeout = 300)
{
    fmuc_result r;
    cr_expect_eq(run_built3("fmi3/good/ClockedSampler", &fmuc_check_api_clocks, &r),
                 FMUC_VERDICT_PASS, "%s", r.nmessages ? r.messages[0] : "");
    const cJSON *me = cJSON_GetObjectItem(fmuc_result_evidence(&r), "ModelExchange");
    const cJSON *cs = cJSON_GetObjectItem(fmuc_result_evidence(&r), "CoSimulation");
    cr_assert(me && cs);
    /* the Decimal and the Fraction getters of sample's interval and shift (supportsFraction),
     * the countdown clock alarm's interval (not yet known) and the changing clock chirp's */
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(me, "init_queries")), 6.0);
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(me, "fraction_queries")), 2.0);
    /* trigger (canBeDeactivated) set inactive again in its first instant */
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(cs, "deactivations")), 1.0);
    /* three ticks of sample, alarm 0.02 s after the second (announced in Event Mode), three
     * ticks of chirp (0.12 s, then the 0.07 s announced at each tick) */
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(me, "instants")), 7.0);
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(cs, "instants")), 7.0);
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(cs, "clocks_set")), 8.0);
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(cs, "output_clock_gets")), 7.0);
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(me, "clocked_gets")), 7.0);
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(me, "changing_gets")), 3.0);
    fmuc_result_clear(&r);
    cr_expect_eq(run_built3("broken/api-clocks", &fmuc_check_api_clocks, &r), FMUC_VERDICT_FAIL);
    cr_expect(message_has(&r, "ModelExchange: fmi3SetClock(active) of input clocks 'sample'",
                          "returned fmi3Error"));
    cr_expect(message_has(&r, "CoSimulation: fmi3SetClock(active)", NULL));
    fmuc_result_clear(&r);
    cr_expect_eq(run_built3("broken/api-clocks--not-yet-known", &fmuc_check_api_clocks, &r),
                 FMUC_VERDICT_FAIL);
    cr_expect(message_has(&r, "fmi3GetIntervalDecimal of input clock 'sample' (vr 1, constant)",
                          "returned fmi3IntervalNotYetKnown"));
    fmuc_result_clear(&r);
    cr_expect_eq(run_built3("broken/api-clocks--qualifier", &fmuc_check_api_clocks, &r),
                 FMUC_VERDICT_FAIL);
    cr_expect(message_has(&r, "fmi3GetIntervalDecimal of input clock 'sample'",
                          "left the qualifiers argument unwritten"));
    fmuc_result_clear(&r);
    cr_expect_eq(run_built3("broken/api-clocks--fraction", &fmuc_check_api_clocks, &r),
                 FMUC_VERDICT_FAIL);
    cr_expect(message_has(&r, "ModelExchange: fmi3GetIntervalFraction of clock 'sample' (vr 1, "
                              "constant) returned counter 10 and resolution 1000 (0.01 s)",
                          "fmi3GetIntervalDecimal 0.10000000000000001 s"));
    cr_expect(message_has(&r, "CoSimulation: fmi3GetIntervalFraction of clock 'sample'",
                          "counter 10 and resolution 1000"));
    cr_expect(message_has(&r, "ModelExchange: fmi3GetShiftFraction of clock 'sample'",
                          "counter 5 and resolution 1000 (0.0050000000000000001 s)"));
    fmuc_result_clear(&r);
    cr_expect_eq(run_built3("broken/api-clocks--deactivation", &fmuc_check_api_clocks, &r),
                 FMUC_VERDICT_FAIL);
    cr_expect(message_has(&r, "ModelExchange: fmi3SetClock(inactive) of input clock 'trigger' "
                              "(vr 2, canBeDeactivated=\"true\"",
                          "returned fmi3Error"));
    cr_expect(message_has(&r, "CoSimulation: fmi3SetClock(inactive)", NULL));
    fmuc_result_clear(&r);
    cr_expect_eq(run_built3("broken/api-clocks--countdown", &fmuc_check_api_clocks, &r),
                 FMUC_VERDICT_FAIL);
    cr_expect(message_has(&r, "ModelExchange: countdown clock 'alarm' (vr 9) announced the "
                              "interval -0.02 at t=0.15",
                          ">= 0"));
    cr_expect(message_has(&r, "CoSimulation: countdown clock 'alarm'", NULL));
    fmuc_result_clear(&r);
    cr_expect_eq(run_built3("broken/api-clocks--changing", &fmuc_check_api_clocks, &r),
                 FMUC_VERDICT_FAIL);
    cr_expect(message_has(&r, "ModelExchange: fmi3GetIntervalDecimal of changing clock 'chirp' "
                              "(vr 11) at its tick t=0.12",
                          "with the qualifier 0"));
    cr_expect(message_has(&r, "CoSimulation: fmi3GetIntervalDecimal of changing clock", NULL));
    fmuc_result_clear(&r);
}

/* The Reference-FMUs 3.0 have no Clock variable in ME/CS (Clocks is Scheduled Execution only):
 * not applicable. Altair Activate's periodic_clock.fmu (ME and CS, a constant input clock of
 * 0.2 s) answers its interval 0.2 in Initialization Mode but never writes the qualifier: it
 * fails, per interface, and its ticks are still driven from the XML's interval. */
Test(fmi3_api_clocks, reference_and_third_party, .timeout = 600)
{
    char paths[32][1024];
    size_t n = fmus_in(FMUC_SHARED_DIR "/reference-fmus/fmi3", paths, 32);
    if (n == 0)
        cr_skip("no FMI 3.0 Reference-FMUs in %s/reference-fmus/fmi3", FMUC_SHARED_DIR);
    for (size_t i = 0; i < n; i++) {
        fmuc_result r;
        cr_expect_eq(run_file3(paths[i], &fmuc_check_api_clocks, &r), FMUC_VERDICT_NA, "%s",
                     paths[i]);
        fmuc_result_clear(&r);
    }
    const char *pc = FMUC_SHARED_DIR "/thirdparty/fmus/INTO-CPS-Association+maestro/maestro/src/"
                                     "test/resources/fmi3/periodic_clock.fmu";
    if (access(pc, R_OK) == 0) {
        fmuc_result r;
        cr_expect_eq(run_file3(pc, &fmuc_check_api_clocks, &r), FMUC_VERDICT_FAIL);
        cr_expect(message_has(&r, "ModelExchange: fmi3GetIntervalDecimal of input clock "
                                  "'SampleClock' (vr 2, constant)",
                              "left the qualifiers argument unwritten"));
        cr_expect(message_has(&r, "CoSimulation: fmi3GetIntervalDecimal", NULL));
        const cJSON *me = cJSON_GetObjectItem(fmuc_result_evidence(&r), "ModelExchange");
        cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(me, "clocks_set")), 3.0);
        fmuc_result_clear(&r);
    }
}

/* A-15: an FMI 3.0 static library needs documentation/staticLinking (the fixture without it
 * fails naming the library, and nothing about its folder x86_64-linux-gnu, a valid ABI
 * section); with the description there, an ABI section with upper-case letters fails naming
 * it; the Reference BouncingBall ships no static library: not applicable. */
Test(fmi3_zip_static_library_names, linking_description_and_abi_section)
{
    fmuc_result r;
    cr_expect_eq(run_built3("broken/zip-static-library-names--fmi3",
                            &fmuc_check_zip_static_library_names, &r),
                 FMUC_VERDICT_FAIL);
    cr_expect(message_has(&r, "binaries/x86_64-linux-gnu/libBouncingBall.a",
                          "no documentation/staticLinking.txt or .html"));
    cr_expect_eq(r.nmessages, 1);
    fmuc_result_clear(&r);
    cr_expect_eq(run_built3("broken/zip-static-library-names--fmi3-abi",
                            &fmuc_check_zip_static_library_names, &r),
                 FMUC_VERDICT_FAIL);
    cr_expect(message_has(&r, "the ABI section 'MSVC140mt'", "platform folder 'x86_64-windows'"));
    cr_expect(!message_has(&r, "staticLinking", NULL));
    fmuc_result_clear(&r);
    cr_expect_eq(run_built3("fmi3/good/BouncingBall", &fmuc_check_zip_static_library_names, &r),
                 FMUC_VERDICT_NA);
    fmuc_result_clear(&r);
}

/* A-19: an FMI 3.0 library that needs libzip, neither a base system library nor shipped,
 * without documentation/externalDependencies fails naming both; the same library documented
 * (load-needed--fmi3) passes; the Reference BouncingBall needs nothing external: not
 * applicable. */
Test(fmi3_zip_external_dependencies, unshipped_library_must_be_documented)
{
    fmuc_result r;
    cr_expect_eq(run_built3("broken/zip-external-dependencies--library",
                            &fmuc_check_zip_external_dependencies, &r),
                 FMUC_VERDICT_FAIL);
    cr_expect(message_has(&r, "binaries/x86_64-linux/BouncingBall.so needs \"libzip.so.4\"",
                          "no documentation/externalDependencies.txt or .html"));
    fmuc_result_clear(&r);
    cr_expect_eq(run_built3("broken/load-needed--fmi3", &fmuc_check_zip_external_dependencies,
                            &r),
                 FMUC_VERDICT_PASS);
    fmuc_result_clear(&r);
    cr_expect_eq(run_built3("fmi3/good/BouncingBall", &fmuc_check_zip_external_dependencies, &r),
                 FMUC_VERDICT_NA);
    fmuc_result_clear(&r);
}

/* Red-team round 5: what fmi3ModelDescription.xsd, fmi3VariableDependency.xsd, fmi3Type.xsd and
 * fmi3Variable.xsd allow and forbid beyond the FMI 2.0 schema's shapes. */
Test(fmi3_md, annotations_in_default_experiment_and_unknowns)
{
    /* fmi3Unknown and DefaultExperiment each hold one optional <Annotations> */
    const char *vars = "<Float64 name=\"y\" valueReference=\"1\" causality=\"output\"/>";
    PASSES("md-xml-schema",
           doc3(vars, "<Output valueReference=\"1\"><Annotations><Annotation type=\"com.x\"/>"
                      "</Annotations></Output>"));
    FAILS("md-xml-schema", doc3(vars, "<Output valueReference=\"1\"><Dimension start=\"1\"/>"
                                      "</Output>"));
    FAILS("md-xml-schema",
          doc3(vars, "<Output valueReference=\"1\"><Annotations><Annotation type=\"com.x\"/>"
                     "</Annotations><Annotations><Annotation type=\"com.y\"/></Annotations>"
                     "</Output>"));
    char buf[8192];
    const char *base = doc3(vars, "<Output valueReference=\"1\"/>");
    const char *at = strstr(base, "<ModelVariables>");
    cr_assert_not_null(at);
    snprintf(buf, sizeof buf,
             "%.*s<DefaultExperiment stopTime=\"1\"><Annotations><Annotation type=\"com.x\"/>"
             "</Annotations></DefaultExperiment>\n%s",
             (int)(at - base), base, at);
    PASSES("md-xml-schema", buf);
}

Test(fmi3_md, integer_start_values_within_their_xsd_types)
{
    FAILS("md-attribute-syntax", doc3("<Int8 name=\"i\" valueReference=\"1\" "
                                      "causality=\"parameter\" variability=\"fixed\" "
                                      "start=\"200\"/>",
                                      ""));
    PASSES("md-attribute-syntax", doc3("<Int8 name=\"i\" valueReference=\"1\" "
                                       "causality=\"parameter\" variability=\"fixed\" "
                                       "start=\"-128\"/>",
                                       ""));
    /* every element of an array's start list */
    FAILS("md-attribute-syntax", doc3("<UInt8 name=\"a\" valueReference=\"1\" "
                                      "causality=\"parameter\" variability=\"fixed\" "
                                      "start=\"1 2 256\"><Dimension start=\"3\"/></UInt8>",
                                      ""));
    /* the 64-bit bounds exactly (a double cannot tell 2^64 - 1 from 2^64) */
    PASSES("md-attribute-syntax", doc3("<UInt64 name=\"u\" valueReference=\"1\" "
                                       "causality=\"parameter\" variability=\"fixed\" "
                                       "start=\"18446744073709551615\"/>",
                                       ""));
    FAILS("md-attribute-syntax", doc3("<UInt64 name=\"u\" valueReference=\"1\" "
                                      "causality=\"parameter\" variability=\"fixed\" "
                                      "start=\"18446744073709551616\"/>",
                                      ""));
    FAILS("md-attribute-syntax", doc3("<UInt64 name=\"u\" valueReference=\"1\" "
                                      "causality=\"parameter\" variability=\"fixed\" "
                                      "start=\"-1\"/>",
                                      ""));
    PASSES("md-attribute-syntax", doc3("<Int64 name=\"l\" valueReference=\"1\" "
                                       "causality=\"parameter\" variability=\"fixed\" "
                                       "start=\"-9223372036854775808\"/>",
                                       ""));
    FAILS("md-attribute-syntax", doc3("<Int64 name=\"l\" valueReference=\"1\" "
                                      "causality=\"parameter\" variability=\"fixed\" "
                                      "start=\"20000000000000000000\"/>",
                                      ""));
}

Test(fmi3_md, enumeration_items_are_xs_long)
{
    char buf[8192];
    const char *base = doc3("<Enumeration name=\"e\" valueReference=\"1\" declaredType=\"E\" "
                            "causality=\"parameter\" variability=\"fixed\" "
                            "start=\"5000000000\"/>",
                            "");
    const char *at = strstr(base, "<ModelVariables>");
    cr_assert_not_null(at);
    snprintf(buf, sizeof buf,
             "%.*s<TypeDefinitions><EnumerationType name=\"E\"><Item name=\"a\" "
             "value=\"5000000000\"/><Item name=\"b\" value=\"6000000000\"/></EnumerationType>"
             "</TypeDefinitions>\n%s",
             (int)(at - base), base, at);
    PASSES("md-enumerations", buf);
    PASSES("md-var-enumeration-start", buf);
    PASSES("md-attribute-syntax", buf);
    /* two items whose values agree in their low 32 bits only are different values */
    char buf2[8192];
    snprintf(buf2, sizeof buf2, "%s", buf);
    char *six = strstr(buf2, "6000000000");
    cr_assert_not_null(six);
    memcpy(six, "0705032704", 10); /* 5000000000 - 2^32 */
    PASSES("md-enumerations", buf2);
}

Test(fmi3_md, special_values_only_in_their_xsd_spelling)
{
    PASSES("md-special-values", doc3("<Float64 name=\"p\" valueReference=\"1\" "
                                     "causality=\"parameter\" variability=\"fixed\" "
                                     "start=\"INF\"/>",
                                     ""));
    cr_expect_neq(run_xml("md-special-values",
                          doc3("<Float64 name=\"p\" valueReference=\"1\" causality=\"parameter\" "
                               "variability=\"fixed\" start=\"nan\"/>",
                               "")),
                  FMUC_VERDICT_PASS, "start=\"nan\" is no xs:double");
    cr_expect_neq(run_xml("md-special-values",
                          doc3("<Float64 name=\"p\" valueReference=\"1\" causality=\"parameter\" "
                               "variability=\"fixed\" start=\"Infinity\"/>",
                               "")),
                  FMUC_VERDICT_PASS, "start=\"Infinity\" is no xs:double");
}

Test(fmi3_md, unit_children_in_schema_order)
{
    /* fmi3Unit.xsd: BaseUnit?, DisplayUnit*, Annotations? */
    char buf[8192];
    const char *base = doc3("<Float64 name=\"p\" valueReference=\"1\" unit=\"m\"/>", "");
    const char *at = strstr(base, "<ModelVariables>");
    cr_assert_not_null(at);
    snprintf(buf, sizeof buf,
             "%.*s<UnitDefinitions><Unit name=\"m\"><BaseUnit m=\"1\"/><DisplayUnit "
             "name=\"mm\" factor=\"1000\"/><Annotations><Annotation type=\"com.x\"/>"
             "</Annotations></Unit></UnitDefinitions>\n%s",
             (int)(at - base), base, at);
    PASSES("md-element-order", buf);
    snprintf(buf, sizeof buf,
             "%.*s<UnitDefinitions><Unit name=\"m\"><DisplayUnit name=\"mm\" "
             "factor=\"1000\"/><BaseUnit m=\"1\"/></Unit></UnitDefinitions>\n%s",
             (int)(at - base), base, at);
    FAILS("md-element-order", buf);
}
