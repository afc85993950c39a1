/* Unit tests of the ModelStructure, alias and naming checks (checks/md_ms_*.c, md_alias_*.c,
 * md_naming_*.c): parse a model description from a string, run one check, assert the verdict and
 * the number of messages. Good descriptions in the style of other tools must pass every check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "check.h"
#include "md/md_util.h"

/* ---- harness ---- */

typedef struct outcome {
    fmuc_verdict verdict;
    size_t nmessages; /* kept + dropped, notes excluded only when the verdict is pass/na */
} outcome;

static outcome run_md(const fmuc_check *c, const fmuc_md *md)
{
    fmuc_fmu fmu;
    memset(&fmu, 0, sizeof fmu);
    fmu.md = *md;
    fmu.md_parsed = 1;
    fmuc_options opts;
    memset(&opts, 0, sizeof opts);
    fmuc_subject s = {.fmu = &fmu, .opts = &opts};
    fmuc_result res;
    fmuc_result_init(&res, c->id, c->title, c->spec, c->level);
    c->run(&s, &res);
    outcome o = {res.verdict, res.nmessages + res.messages_dropped};
    if (o.verdict == FMUC_VERDICT_FAIL || o.verdict == FMUC_VERDICT_WARN)
        for (size_t i = 0; i < res.nmessages; i++)
            cr_log_info("%s: %s", c->id, res.messages[i]);
    fmuc_result_clear(&res);
    return o;
}

static outcome run_on(const fmuc_check *c, const char *xml)
{
    fmuc_md md;
    fmuc_err err = fmuc_md_parse(&md, xml, strlen(xml), NULL);
    cr_assert_eq(err, FMUC_OK, "parse failed for:\n%s", xml);
    outcome o = run_md(c, &md);
    fmuc_md_free(&md);
    return o;
}

/* A complete document: root attributes, interfaces, unit/type definitions, variables, structure. */
static char *doc(const char *root_attrs, const char *ifaces, const char *defs, const char *vars,
                 const char *ms)
{
    char *s = NULL;
    int n = asprintf(&s,
                     "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                     "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"M\" guid=\"{g}\" %s>\n"
                     "%s\n%s\n<ModelVariables>\n%s\n</ModelVariables>\n"
                     "<ModelStructure>\n%s\n</ModelStructure>\n</fmiModelDescription>\n",
                     root_attrs, ifaces, defs, vars, ms);
    cr_assert(n > 0 && s);
    return s;
}

#define ME "<ModelExchange modelIdentifier=\"M\"/>"
#define CS "<CoSimulation modelIdentifier=\"M\"/>"
#define MECS ME "\n" CS

static const fmuc_check *const all_mine[] = {
    &fmuc_check_md_ms_indices,         &fmuc_check_md_ms_outputs,
    &fmuc_check_md_ms_derivatives,     &fmuc_check_md_ms_initial_unknowns,
    &fmuc_check_md_ms_dependencies,    &fmuc_check_md_ms_dependencies_kind,
    &fmuc_check_md_alias_settable,     &fmuc_check_md_alias_start,
    &fmuc_check_md_alias_units,        &fmuc_check_md_alias_variability,
    &fmuc_check_md_alias_states,       &fmuc_check_md_naming_structured,
    &fmuc_check_md_naming_der_real,    &fmuc_check_md_naming_arrays,
};

static void assert_all_ok(const char *xml)
{
    fmuc_md md;
    cr_assert_eq(fmuc_md_parse(&md, xml, strlen(xml), NULL), FMUC_OK);
    cr_expect_eq(md.nissues, 0, "parser issues: %s", md.nissues ? md.issues[0].message : "");
    for (size_t i = 0; i < sizeof all_mine / sizeof all_mine[0]; i++) {
        outcome o = run_md(all_mine[i], &md);
        cr_expect(o.verdict == FMUC_VERDICT_PASS || o.verdict == FMUC_VERDICT_NA,
                  "%s: verdict %s on a good description", all_mine[i]->id,
                  fmuc_verdict_name(o.verdict));
    }
    fmuc_md_free(&md);
}

/* Run c on xml, expect verdict and (when nmsg != 0) that many messages. */
static void expect(const fmuc_check *c, char *xml, fmuc_verdict v, size_t nmsg)
{
    outcome o = run_on(c, xml);
    cr_expect_eq(o.verdict, v, "%s: verdict %s, expected %s", c->id,
                 fmuc_verdict_name(o.verdict), fmuc_verdict_name(v));
    if (nmsg)
        cr_expect_eq(o.nmessages, nmsg, "%s: %zu messages, expected %zu", c->id, o.nmessages,
                     nmsg);
    free(xml);
}

/* ---- a Reference-FMUs-like BouncingBall (ME + CS) ---- */

static const char bb_defs[] =
    "<UnitDefinitions>\n"
    " <Unit name=\"m\"><BaseUnit m=\"1\"/></Unit>\n"
    " <Unit name=\"m/s\"><BaseUnit m=\"1\" s=\"-1\"/></Unit>\n"
    " <Unit name=\"m/s2\"><BaseUnit m=\"1\" s=\"-2\"/></Unit>\n"
    "</UnitDefinitions>\n"
    "<TypeDefinitions>\n"
    " <SimpleType name=\"Position\"><Real quantity=\"Position\" unit=\"m\"/></SimpleType>\n"
    " <SimpleType name=\"Velocity\"><Real quantity=\"Velocity\" unit=\"m/s\"/></SimpleType>\n"
    " <SimpleType name=\"Acceleration\"><Real quantity=\"Acceleration\" unit=\"m/s2\"/>"
    "</SimpleType>\n"
    "</TypeDefinitions>";

/* der(h) is an alias of v (vr 3), b is a calculatedParameter alias of the parameter p. */
#define BB_VARS                                                                               \
    "<ScalarVariable name=\"time\" valueReference=\"0\" causality=\"independent\" "           \
    "variability=\"continuous\"><Real unit=\"s\"/></ScalarVariable>\n"                         \
    "<ScalarVariable name=\"h\" valueReference=\"1\" causality=\"output\" initial=\"exact\">" \
    "<Real declaredType=\"Position\" start=\"1\"/></ScalarVariable>\n"                        \
    "<ScalarVariable name=\"der(h)\" valueReference=\"3\">"                                   \
    "<Real declaredType=\"Velocity\" derivative=\"2\"/></ScalarVariable>\n"                   \
    "<ScalarVariable name=\"v\" valueReference=\"3\" causality=\"output\" initial=\"exact\">" \
    "<Real declaredType=\"Velocity\" start=\"0\" reinit=\"true\"/></ScalarVariable>\n"        \
    "<ScalarVariable name=\"der(v)\" valueReference=\"4\">"                                   \
    "<Real declaredType=\"Acceleration\" derivative=\"4\"/></ScalarVariable>\n"               \
    "<ScalarVariable name=\"g\" valueReference=\"5\" causality=\"parameter\" "                \
    "variability=\"fixed\"><Real declaredType=\"Acceleration\" start=\"-9.81\"/>"             \
    "</ScalarVariable>\n"                                                                     \
    "<ScalarVariable name=\"e\" valueReference=\"6\" causality=\"parameter\" "                \
    "variability=\"tunable\"><Real start=\"0.7\" min=\"0.5\" max=\"1\"/></ScalarVariable>\n"  \
    "<ScalarVariable name=\"v_min\" valueReference=\"7\" variability=\"constant\">"           \
    "<Real declaredType=\"Velocity\" start=\"0.1\"/></ScalarVariable>\n"                      \
    "<ScalarVariable name=\"p\" valueReference=\"8\" causality=\"parameter\" "                \
    "variability=\"fixed\"><Real start=\"2\"/></ScalarVariable>\n"                            \
    "<ScalarVariable name=\"b\" valueReference=\"8\" causality=\"calculatedParameter\" "      \
    "variability=\"fixed\"><Real/></ScalarVariable>\n"                                        \
    "<ScalarVariable name=\"count\" valueReference=\"1\" causality=\"output\" "               \
    "variability=\"discrete\"><Integer/></ScalarVariable>"

#define BB_MS                                                                                 \
    "<Outputs><Unknown index=\"2\" dependencies=\"2\"/><Unknown index=\"4\" "                 \
    "dependencies=\"4\" dependenciesKind=\"dependent\"/><Unknown index=\"11\" "               \
    "dependencies=\"\"/></Outputs>\n"                                                         \
    "<Derivatives><Unknown index=\"3\" dependencies=\"4\"/><Unknown index=\"5\" "             \
    "dependencies=\"\"/></Derivatives>\n"                                                     \
    "<InitialUnknowns><Unknown index=\"3\" dependencies=\"4\"/><Unknown index=\"5\" "         \
    "dependencies=\"6\" dependenciesKind=\"constant\"/><Unknown index=\"10\" "                \
    "dependencies=\"9\"/><Unknown index=\"11\"/></InitialUnknowns>"

static char *bb(const char *vars, const char *ms)
{
    return doc("variableNamingConvention=\"structured\" numberOfEventIndicators=\"1\"", MECS,
               bb_defs, vars, ms);
}

Test(ms_good, bouncing_ball_passes_all)
{
    char *x = bb(BB_VARS, BB_MS);
    assert_all_ok(x);
    /* and the alias sets were really seen */
    fmuc_md md;
    cr_assert_eq(fmuc_md_parse(&md, x, strlen(x), NULL), FMUC_OK);
    cr_expect_eq(fmuc_ms__alias_sets(&md, NULL, NULL), 2);
    fmuc_ms_roles r;
    cr_assert_eq(fmuc_ms__roles(&r, &md), 0);
    cr_expect(r.role[2] & FMUC_MS_STATE);
    cr_expect(r.role[4] & FMUC_MS_STATE);
    cr_expect(r.role[3] & FMUC_MS_DERIV);
    cr_expect(!(r.role[3] & FMUC_MS_STATE));
    fmuc_ms__roles_free(&r);
    fmuc_md_free(&md);
    free(x);
}

Test(ms_good, no_outputs_me_only)
{
    char *x = doc("", ME, "",
                  "<ScalarVariable name=\"x\" valueReference=\"0\" initial=\"exact\">"
                  "<Real start=\"1\"/></ScalarVariable>\n"
                  "<ScalarVariable name=\"der(x)\" valueReference=\"1\">"
                  "<Real derivative=\"1\"/></ScalarVariable>\n"
                  "<ScalarVariable name=\"k\" valueReference=\"2\" causality=\"parameter\" "
                  "variability=\"fixed\"><Real start=\"-1\"/></ScalarVariable>",
                  "<Derivatives><Unknown index=\"2\" dependencies=\"1\"/></Derivatives>\n"
                  "<InitialUnknowns><Unknown index=\"2\" dependencies=\"1 3\"/></InitialUnknowns>");
    assert_all_ok(x);
    free(x);
}

/* CS only, no Derivatives: a local x with a derivative attribute is no state; Integer and
 * Enumeration share fmi2Integer VRs (an alias set), a Real and a Boolean with vr 0 do not alias. */
#define CS_VARS                                                                               \
    "<ScalarVariable name=\"u\" valueReference=\"0\" causality=\"input\">"                    \
    "<Real start=\"0\"/></ScalarVariable>\n"                                                  \
    "<ScalarVariable name=\"y\" valueReference=\"1\" causality=\"output\">"                   \
    "<Real/></ScalarVariable>\n"                                                              \
    "<ScalarVariable name=\"n\" valueReference=\"0\" causality=\"output\" "                   \
    "variability=\"discrete\"><Integer/></ScalarVariable>\n"                                  \
    "<ScalarVariable name=\"mode\" valueReference=\"0\" variability=\"discrete\">"            \
    "<Enumeration declaredType=\"Mode\"/></ScalarVariable>\n"                                 \
    "<ScalarVariable name=\"on\" valueReference=\"0\" causality=\"input\" "                   \
    "variability=\"discrete\"><Boolean start=\"false\"/></ScalarVariable>\n"                  \
    "<ScalarVariable name=\"x\" valueReference=\"2\" initial=\"exact\">"                      \
    "<Real start=\"0\"/></ScalarVariable>\n"                                                  \
    "<ScalarVariable name=\"dx\" valueReference=\"3\"><Real derivative=\"6\"/>"               \
    "</ScalarVariable>\n"                                                                     \
    "<ScalarVariable name=\"k\" valueReference=\"4\" causality=\"parameter\" "                \
    "variability=\"tunable\"><Real start=\"1\"/></ScalarVariable>"

static const char cs_defs[] =
    "<TypeDefinitions><SimpleType name=\"Mode\"><Enumeration><Item name=\"off\" value=\"1\"/>"
    "<Item name=\"on\" value=\"2\"/></Enumeration></SimpleType></TypeDefinitions>";

#define CS_MS                                                                                 \
    "<Outputs><Unknown index=\"2\" dependencies=\"1\" dependenciesKind=\"fixed\"/>"           \
    "<Unknown index=\"3\" dependencies=\"5\"/></Outputs>\n"                                   \
    "<InitialUnknowns><Unknown index=\"2\" dependencies=\"1 8\"/>"                            \
    "<Unknown index=\"3\" dependencies=\"\"/></InitialUnknowns>"

Test(ms_good, cs_only_without_derivatives)
{
    char *x = doc("", CS, cs_defs, CS_VARS, CS_MS);
    assert_all_ok(x);
    free(x);
}

#define STRUCT_VARS                                                                           \
    "<ScalarVariable name=\"a.b[1].c\" valueReference=\"0\" initial=\"exact\">"               \
    "<Real start=\"0\"/></ScalarVariable>\n"                                                  \
    "<ScalarVariable name=\"a.b[2].c\" valueReference=\"1\" initial=\"exact\">"               \
    "<Real start=\"0\"/></ScalarVariable>\n"                                                  \
    "<ScalarVariable name=\"der(a.b[1].c)\" valueReference=\"2\">"                            \
    "<Real derivative=\"1\"/></ScalarVariable>\n"                                             \
    "<ScalarVariable name=\"der(a.b[2].c)\" valueReference=\"3\">"                            \
    "<Real derivative=\"2\"/></ScalarVariable>\n"                                             \
    "<ScalarVariable name=\"'quoted name'\" valueReference=\"4\" causality=\"parameter\" "    \
    "variability=\"fixed\"><Real start=\"1\"/></ScalarVariable>\n"                            \
    "<ScalarVariable name=\"'it\\'s \\\\ [ok]'.x_1\" valueReference=\"5\" "                   \
    "causality=\"parameter\" variability=\"fixed\"><Integer start=\"1\"/></ScalarVariable>\n" \
    "<ScalarVariable name=\"m[1,1]\" valueReference=\"6\" causality=\"parameter\" "           \
    "variability=\"fixed\"><Real start=\"1\"/></ScalarVariable>\n"                            \
    "<ScalarVariable name=\"m[1,2]\" valueReference=\"7\" causality=\"parameter\" "           \
    "variability=\"fixed\"><Real start=\"1\"/></ScalarVariable>\n"                            \
    "<ScalarVariable name=\"m[2,1]\" valueReference=\"8\" causality=\"parameter\" "           \
    "variability=\"fixed\"><Real start=\"1\"/></ScalarVariable>\n"                            \
    "<ScalarVariable name=\"der(a.b[1].c,2)\" valueReference=\"9\"><Real/></ScalarVariable>"

Test(ms_good, structured_names)
{
    char *x = doc("variableNamingConvention=\"structured\"", ME, "", STRUCT_VARS,
                  "<Derivatives><Unknown index=\"3\"/><Unknown index=\"4\"/></Derivatives>\n"
                  "<InitialUnknowns><Unknown index=\"3\"/><Unknown index=\"4\"/>"
                  "</InitialUnknowns>");
    assert_all_ok(x);
    free(x);
}

/* ---- the structured-name grammar ---- */

Test(ms_grammar, accepts)
{
    const char *ok[] = {"x", "_x1", "a.b.c", "a[1]", "a[1,20].b[3]", "der(x)", "der(a.b[2])",
                        "der(x,2)", "'q'", "'a b'", "'x\\'y'", "'\\\\'", "'a.b'.c[1]",
                        "'!#$%&()*+,-./:;<>=?@[]^{}|~'", "der('q x')", "der"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        cr_expect(fmuc_ms__structured_name(ok[i], NULL), "should accept %s", ok[i]);
}

Test(ms_grammar, rejects)
{
    const char *bad[] = {"",      "1x",     "a..b",   "a.",     ".a",       "a[]",     "a[1,]",
                         "a[x]",  "a[1",    "a b",    "''",     "'a",       "'a\\q'",  "der(x",
                         "der()", "der(x,)", "der(x,y)", "der(1)", "x)",     "a-b",     "der(x)y",
                         "'a\"b'", "a[-1]",  "der (x)"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_expect(!fmuc_ms__structured_name(bad[i], NULL), "should reject '%s'", bad[i]);
    size_t where = 0;
    cr_expect(!fmuc_ms__structured_name("a.b c", &where));
    cr_expect_eq(where, 3);
    cr_expect(fmuc_ms__is_der_name("der(x)"));
    cr_expect(!fmuc_ms__is_der_name("derx"));
    cr_expect(!fmuc_ms__is_der_name("der(1)"));
}

/* ---- md-ms-indices ---- */

Test(ms_indices, index_out_of_range_fails)
{
    expect(&fmuc_check_md_ms_indices,
           bb(BB_VARS, "<Outputs><Unknown index=\"2\" dependencies=\"2\"/><Unknown index=\"4\" "
                       "dependencies=\"4\"/><Unknown index=\"11\"/><Unknown index=\"99\"/>"
                       "</Outputs>"),
           FMUC_VERDICT_FAIL, 1);
}

Test(ms_indices, dependency_out_of_range_fails)
{
    expect(&fmuc_check_md_ms_indices,
           bb(BB_VARS, "<Outputs><Unknown index=\"2\" dependencies=\"2 12\"/><Unknown "
                       "index=\"4\" dependencies=\"0 4\"/><Unknown index=\"11\"/></Outputs>"),
           FMUC_VERDICT_FAIL, 2);
}

/* ---- md-ms-outputs ---- */

Test(ms_outputs, missing_output_fails)
{
    expect(&fmuc_check_md_ms_outputs,
           bb(BB_VARS, "<Outputs><Unknown index=\"2\"/><Unknown index=\"4\"/></Outputs>"),
           FMUC_VERDICT_FAIL, 1);
}

/* The verdict under interop of c on xml (the registry's downgrades and letter findings). */
static fmuc_verdict interop_verdict(const fmuc_check *c, char *xml)
{
    fmuc_md md;
    cr_assert_eq(fmuc_md_parse(&md, xml, strlen(xml), NULL), FMUC_OK);
    fmuc_fmu fmu;
    memset(&fmu, 0, sizeof fmu);
    fmu.md = md;
    fmu.md_parsed = 1;
    fmuc_options opts;
    memset(&opts, 0, sizeof opts);
    fmuc_subject sj = {.fmu = &fmu, .opts = &opts};
    fmuc_result res;
    fmuc_result_init(&res, c->id, c->title, c->spec, c->level);
    c->run(&sj, &res);
    fmuc_check_profiles(c, &res, FMUC_PROFILE_INTEROP);
    fmuc_verdict v = res.verdict;
    fmuc_result_clear(&res);
    fmuc_md_free(&md);
    free(xml);
    return v;
}

Test(ms_outputs, missing_output_warns_under_interop)
{
    /* importers take outputs from causality: a missing entry is a violation of the letter */
    cr_expect_eq(interop_verdict(&fmuc_check_md_ms_outputs, bb(BB_VARS, "")), FMUC_VERDICT_WARN);
    /* a non-output listed misleads: it fails under interop too */
    cr_expect_eq(interop_verdict(&fmuc_check_md_ms_outputs,
                                 bb(BB_VARS, "<Outputs><Unknown index=\"2\"/><Unknown "
                                             "index=\"4\"/><Unknown index=\"6\"/><Unknown "
                                             "index=\"11\"/></Outputs>")),
                 FMUC_VERDICT_FAIL);
}

Test(ms_outputs, non_output_listed_and_duplicate_fail)
{
    expect(&fmuc_check_md_ms_outputs,
           bb(BB_VARS, "<Outputs><Unknown index=\"2\"/><Unknown index=\"4\"/><Unknown "
                       "index=\"4\"/><Unknown index=\"6\"/><Unknown index=\"11\"/></Outputs>"),
           FMUC_VERDICT_FAIL, 2);
}

Test(ms_outputs, no_outputs_element_with_outputs_fails)
{
    expect(&fmuc_check_md_ms_outputs, bb(BB_VARS, ""), FMUC_VERDICT_FAIL, 3);
}

Test(ms_outputs, empty_outputs_element_fails)
{
    expect(&fmuc_check_md_ms_outputs,
           doc("", CS, "", "<ScalarVariable name=\"x\" valueReference=\"0\"><Real/>"
                           "</ScalarVariable>", "<Outputs></Outputs>"),
           FMUC_VERDICT_FAIL, 1);
}

/* ---- md-ms-derivatives ---- */

Test(ms_derivatives, state_listed_instead_of_derivative_fails)
{
    /* G-04: the states h and v listed in Derivatives, each without a derivative attribute */
    expect(&fmuc_check_md_ms_derivatives,
           bb(BB_VARS, "<Derivatives><Unknown index=\"2\"/><Unknown index=\"4\"/></Derivatives>"),
           FMUC_VERDICT_FAIL, 2);
}

Test(ms_derivatives, derivative_attribute_outside_the_list_passes)
{
    /* §2.2.8 defines the states by the Derivatives list: der(v) has a derivative attribute but is
     * not listed, so v is no continuous-time state (a derivative attribute may relate any two
     * variables); whether the FMU has more states cannot be told from the XML */
    expect(&fmuc_check_md_ms_derivatives,
           bb(BB_VARS, "<Derivatives><Unknown index=\"3\"/></Derivatives>"), FMUC_VERDICT_PASS,
           0);
}

Test(ms_derivatives, cs_without_directional_derivatives_is_ignored)
{
    /* §2.2.8: for Co-Simulation, Derivatives is ignored if providesDirectionalDerivative=false;
     * even the states listed instead of their derivatives are then not judged */
    char *x = doc("", CS, bb_defs, BB_VARS, "<Derivatives><Unknown index=\"2\"/></Derivatives>");
    expect(&fmuc_check_md_ms_derivatives, x, FMUC_VERDICT_NA, 0);
    x = doc("", "<CoSimulation modelIdentifier=\"M\" providesDirectionalDerivative=\"true\"/>",
            bb_defs, BB_VARS, "<Derivatives><Unknown index=\"2\"/></Derivatives>");
    expect(&fmuc_check_md_ms_derivatives, x, FMUC_VERDICT_FAIL, 1);
}

Test(ms_derivatives, duplicates_warn)
{
    /* B-404: no duplicate entries is a D-level statement */
    expect(&fmuc_check_md_ms_derivatives,
           bb(BB_VARS, "<Derivatives><Unknown index=\"3\"/><Unknown index=\"5\"/>"
                       "<Unknown index=\"3\"/></Derivatives>"),
           FMUC_VERDICT_WARN, 1);
}

Test(ms_derivatives, non_real_and_bad_state_fail)
{
    /* der(y) points to an Integer; der(p) points to a parameter */
    char *x = doc("", ME, "",
                  "<ScalarVariable name=\"y\" valueReference=\"0\" variability=\"discrete\">"
                  "<Integer/></ScalarVariable>\n"
                  "<ScalarVariable name=\"der(y)\" valueReference=\"1\"><Real derivative=\"1\"/>"
                  "</ScalarVariable>\n"
                  "<ScalarVariable name=\"p\" valueReference=\"2\" causality=\"parameter\" "
                  "variability=\"fixed\"><Real start=\"1\"/></ScalarVariable>\n"
                  "<ScalarVariable name=\"der(p)\" valueReference=\"3\"><Real derivative=\"3\"/>"
                  "</ScalarVariable>\n"
                  "<ScalarVariable name=\"i\" valueReference=\"4\" variability=\"discrete\">"
                  "<Integer/></ScalarVariable>",
                  "<Derivatives><Unknown index=\"2\"/><Unknown index=\"4\"/><Unknown index=\"5\"/>"
                  "</Derivatives>");
    /* y: not Real (1); p: not continuous (1) and not local/output (1); i: not Real (1) */
    expect(&fmuc_check_md_ms_derivatives, x, FMUC_VERDICT_FAIL, 4);
}

Test(ms_derivatives, alias_of_listed_state_is_not_missing)
{
    /* y is an alias of the state x, der(y) an alias of der(x): not a missing state */
    char *x = doc("", ME, "",
                  "<ScalarVariable name=\"x\" valueReference=\"0\" initial=\"exact\">"
                  "<Real start=\"1\"/></ScalarVariable>\n"
                  "<ScalarVariable name=\"der(x)\" valueReference=\"1\"><Real derivative=\"1\"/>"
                  "</ScalarVariable>\n"
                  "<ScalarVariable name=\"y\" valueReference=\"0\"><Real/></ScalarVariable>\n"
                  "<ScalarVariable name=\"der(y)\" valueReference=\"1\"><Real derivative=\"3\"/>"
                  "</ScalarVariable>",
                  "<Derivatives><Unknown index=\"2\"/></Derivatives>\n"
                  "<InitialUnknowns><Unknown index=\"2\"/></InitialUnknowns>");
    expect(&fmuc_check_md_ms_derivatives, x, FMUC_VERDICT_PASS, 0);
}

/* ---- md-ms-initial-unknowns ---- */

#define BB_OUT                                                                                \
    "<Outputs><Unknown index=\"2\"/><Unknown index=\"4\"/><Unknown index=\"11\"/></Outputs>\n" \
    "<Derivatives><Unknown index=\"3\"/><Unknown index=\"5\"/></Derivatives>\n"

Test(ms_initial, missing_element_fails)
{
    /* der(h), der(v), b and count are required */
    expect(&fmuc_check_md_ms_initial_unknowns, bb(BB_VARS, BB_OUT), FMUC_VERDICT_FAIL, 4);
}

Test(ms_initial, missing_calculated_output_and_parameter_fail)
{
    expect(&fmuc_check_md_ms_initial_unknowns,
           bb(BB_VARS, BB_OUT "<InitialUnknowns><Unknown index=\"3\"/><Unknown index=\"5\"/>"
                              "</InitialUnknowns>"),
           FMUC_VERDICT_FAIL, 2);
}

Test(ms_initial, exact_state_listed_fails)
{
    expect(&fmuc_check_md_ms_initial_unknowns,
           bb(BB_VARS, BB_OUT "<InitialUnknowns><Unknown index=\"2\"/><Unknown index=\"3\"/>"
                              "<Unknown index=\"5\"/><Unknown index=\"10\"/><Unknown index=\"11\"/>"
                              "</InitialUnknowns>"),
           FMUC_VERDICT_FAIL, 1);
}

Test(ms_initial, unsorted_and_duplicate_fail)
{
    expect(&fmuc_check_md_ms_initial_unknowns,
           bb(BB_VARS, BB_OUT "<InitialUnknowns><Unknown index=\"5\"/><Unknown index=\"3\"/>"
                              "<Unknown index=\"10\"/><Unknown index=\"10\"/><Unknown index=\"11\"/>"
                              "</InitialUnknowns>"),
           FMUC_VERDICT_FAIL, 2);
}

Test(ms_initial, approx_state_required)
{
    char *x = doc("", ME, "",
                  "<ScalarVariable name=\"x\" valueReference=\"0\" initial=\"approx\">"
                  "<Real start=\"1\"/></ScalarVariable>\n"
                  "<ScalarVariable name=\"der(x)\" valueReference=\"1\"><Real derivative=\"1\"/>"
                  "</ScalarVariable>",
                  "<Derivatives><Unknown index=\"2\"/></Derivatives>\n"
                  "<InitialUnknowns><Unknown index=\"2\"/></InitialUnknowns>");
    expect(&fmuc_check_md_ms_initial_unknowns, x, FMUC_VERDICT_FAIL, 1);
}

Test(ms_initial, cs_without_directional_derivatives_needs_no_states)
{
    /* the Derivatives list is ignored (§2.2.8): der(h), der(v) are neither required nor
     * refused; b and count are */
    char *x = doc("", CS, bb_defs, BB_VARS,
                  BB_OUT "<InitialUnknowns><Unknown index=\"10\"/><Unknown index=\"11\"/>"
                         "</InitialUnknowns>");
    expect(&fmuc_check_md_ms_initial_unknowns, x, FMUC_VERDICT_PASS, 0);
    x = doc("", CS, bb_defs, BB_VARS,
            BB_OUT "<InitialUnknowns><Unknown index=\"3\"/><Unknown index=\"5\"/>"
                   "<Unknown index=\"10\"/><Unknown index=\"11\"/></InitialUnknowns>");
    expect(&fmuc_check_md_ms_initial_unknowns, x, FMUC_VERDICT_PASS, 0);
    x = doc("", ME, bb_defs, BB_VARS,
            BB_OUT "<InitialUnknowns><Unknown index=\"10\"/><Unknown index=\"11\"/>"
                   "</InitialUnknowns>");
    expect(&fmuc_check_md_ms_initial_unknowns, x, FMUC_VERDICT_FAIL, 2);
}

/* ---- md-ms-dependencies ---- */

#define BB_DER "<Derivatives><Unknown index=\"3\"/><Unknown index=\"5\"/></Derivatives>"

Test(ms_dependencies, unsorted_and_duplicate_fail)
{
    expect(&fmuc_check_md_ms_dependencies,
           bb(BB_VARS, "<Outputs><Unknown index=\"2\" dependencies=\"4 2\"/><Unknown index=\"4\" "
                       "dependencies=\"4 4\"/><Unknown index=\"11\"/></Outputs>" BB_DER),
           FMUC_VERDICT_FAIL, 2);
}

Test(ms_dependencies, parameter_in_outputs_fails)
{
    /* g (a parameter) is a known only for InitialUnknowns */
    expect(&fmuc_check_md_ms_dependencies,
           bb(BB_VARS, "<Outputs><Unknown index=\"2\" dependencies=\"2 6\"/><Unknown index=\"4\"/>"
                       "<Unknown index=\"11\"/></Outputs>" BB_DER),
           FMUC_VERDICT_FAIL, 1);
}

Test(ms_dependencies, calculated_variable_in_initial_unknowns_fails)
{
    /* der(h) (calculated) is no known; b lists itself */
    expect(&fmuc_check_md_ms_dependencies,
           bb(BB_VARS, BB_OUT "<InitialUnknowns><Unknown index=\"3\"/><Unknown index=\"5\" "
                              "dependencies=\"1 3\"/><Unknown index=\"10\" dependencies=\"10\"/>"
                              "<Unknown index=\"11\"/></InitialUnknowns>"),
           FMUC_VERDICT_FAIL, 2);
}

Test(ms_dependencies, state_in_cs_without_directional_derivatives_passes)
{
    /* FMI 2.0.4 §2.2.8: continuous-time states are knowns at communication points too; without
     * providesDirectionalDerivative only the Derivatives list is ignored (and not judged) */
    char *x = doc("", CS, bb_defs, BB_VARS, BB_MS);
    expect(&fmuc_check_md_ms_dependencies, x, FMUC_VERDICT_PASS, 0);
    x = doc("", "<CoSimulation modelIdentifier=\"M\" providesDirectionalDerivative=\"true\"/>",
            bb_defs, BB_VARS, BB_MS);
    expect(&fmuc_check_md_ms_dependencies, x, FMUC_VERDICT_PASS, 0);
}

/* ---- md-ms-dependencies-kind ---- */

Test(ms_dependencies_kind, count_mismatch_fails)
{
    expect(&fmuc_check_md_ms_dependencies_kind,
           bb(BB_VARS, "<Outputs><Unknown index=\"2\" dependencies=\"2\" dependenciesKind="
                       "\"dependent dependent\"/><Unknown index=\"4\" dependenciesKind="
                       "\"dependent\"/><Unknown index=\"11\"/></Outputs>"),
           FMUC_VERDICT_FAIL, 2);
}

Test(ms_dependencies_kind, non_real_and_initial_kinds_fail)
{
    expect(&fmuc_check_md_ms_dependencies_kind,
           bb(BB_VARS, "<Outputs><Unknown index=\"2\" dependencies=\"2\" dependenciesKind="
                       "\"tunable\"/><Unknown index=\"4\"/><Unknown index=\"11\" dependencies=\"1\" "
                       "dependenciesKind=\"discrete\"/></Outputs>\n"
                       "<InitialUnknowns><Unknown index=\"3\" dependencies=\"4\" "
                       "dependenciesKind=\"fixed\"/><Unknown index=\"5\" dependencies=\"6\" "
                       "dependenciesKind=\"constant\"/></InitialUnknowns>"),
           FMUC_VERDICT_FAIL, 2);
}

/* ---- alias checks ---- */

#define V(name, vr, attrs, type)                                                              \
    "<ScalarVariable name=\"" name "\" valueReference=\"" vr "\" " attrs ">" type             \
    "</ScalarVariable>\n"

Test(alias, two_settable_fail)
{
    char *x = doc("", CS, "",
                  V("a", "1", "causality=\"parameter\" variability=\"fixed\"", "<Real start=\"1\"/>")
                  V("b", "1", "causality=\"input\"", "<Real start=\"1\"/>")
                  V("c", "1", "causality=\"output\"", "<Real/>"),
                  "<Outputs><Unknown index=\"3\"/></Outputs>");
    expect(&fmuc_check_md_alias_settable, x, FMUC_VERDICT_FAIL, 1);
}

Test(alias, settable_aliasing_independent_fails)
{
    char *x = doc("", CS, "",
                  V("t", "0", "causality=\"independent\"", "<Real/>")
                  V("tt", "0", "initial=\"exact\"", "<Real start=\"0\"/>")
                  V("t2", "0", "", "<Real/>"),
                  "");
    expect(&fmuc_check_md_alias_settable, x, FMUC_VERDICT_FAIL, 1);
}

Test(alias, different_base_types_do_not_alias)
{
    char *x = doc("", CS, "",
                  V("a", "1", "causality=\"input\"", "<Real start=\"1\"/>")
                  V("b", "1", "causality=\"input\" variability=\"discrete\"",
                    "<Integer start=\"1\"/>")
                  V("c", "1", "causality=\"input\" variability=\"discrete\"",
                    "<Boolean start=\"true\"/>")
                  V("d", "1", "causality=\"input\" variability=\"discrete\"",
                    "<String start=\"x\"/>"),
                  "");
    expect(&fmuc_check_md_alias_settable, x, FMUC_VERDICT_NA, 0);
}

Test(alias, integer_and_enumeration_share_vrs)
{
    char *x = doc("", CS, cs_defs,
                  V("a", "1", "causality=\"input\" variability=\"discrete\"", "<Integer start=\"1\"/>")
                  V("b", "1", "causality=\"input\" variability=\"discrete\"",
                    "<Enumeration declaredType=\"Mode\" start=\"1\"/>"),
                  "");
    expect(&fmuc_check_md_alias_settable, x, FMUC_VERDICT_FAIL, 1);
}

Test(alias, two_starts_fail)
{
    /* b has a start although it is calculated (a B-208 defect): two starts, one settable */
    char *x = doc("", CS, "",
                  V("a", "1", "initial=\"exact\"", "<Real start=\"1\"/>")
                  V("b", "1", "", "<Real start=\"1\"/>"),
                  "");
    expect(&fmuc_check_md_alias_start, x, FMUC_VERDICT_FAIL, 1);
    /* two settable members with starts are md-alias-settable's finding only */
    x = doc("", CS, "",
            V("a", "1", "initial=\"exact\"", "<Real start=\"1\"/>")
            V("b", "1", "initial=\"approx\"", "<Real start=\"1\"/>"),
            "");
    expect(&fmuc_check_md_alias_start, x, FMUC_VERDICT_PASS, 0);
}

Test(alias, constant_with_non_constant_fails)
{
    char *x = doc("", CS, "",
                  V("a", "1", "variability=\"constant\"", "<Real start=\"1\"/>")
                  V("b", "1", "", "<Real/>"),
                  "");
    expect(&fmuc_check_md_alias_start, x, FMUC_VERDICT_FAIL, 1);
}

Test(alias, constants_with_different_starts_fail)
{
    char *x = doc("", CS, "",
                  V("a", "1", "variability=\"constant\"", "<Real start=\"1\"/>")
                  V("b", "1", "variability=\"constant\"", "<Real start=\"1.0\"/>")
                  V("c", "1", "variability=\"constant\"", "<Real start=\"2\"/>")
                  V("s1", "1", "variability=\"constant\"", "<String start=\"x\"/>")
                  V("s2", "1", "variability=\"constant\"", "<String start=\"x\"/>"),
                  "");
    expect(&fmuc_check_md_alias_start, x, FMUC_VERDICT_FAIL, 1);
}

Test(alias, units_differ_fail)
{
    char *x = doc("", CS, bb_defs,
                  V("a", "1", "initial=\"exact\"", "<Real declaredType=\"Velocity\" start=\"1\"/>")
                  V("b", "1", "", "<Real unit=\"m/s\"/>")
                  V("c", "1", "", "<Real unit=\"m\"/>")
                  V("d", "1", "", "<Real/>")
                  V("e", "2", "", "<Real unit=\"m\"/>")
                  V("f", "2", "", "<Real declaredType=\"Position\" unit=\"m\"/>"),
                  "");
    expect(&fmuc_check_md_alias_units, x, FMUC_VERDICT_FAIL, 2);
}

Test(alias, variability_differs_warns)
{
    char *x = doc("", CS, "",
                  V("p", "1", "causality=\"parameter\" variability=\"fixed\"", "<Real start=\"1\"/>")
                  V("b", "1", "causality=\"calculatedParameter\" variability=\"tunable\"", "<Real/>")
                  V("x", "2", "", "<Real/>")
                  V("y", "2", "variability=\"discrete\"", "<Real/>")
                  V("z", "2", "variability=\"discrete\"", "<Real/>"),
                  "");
    expect(&fmuc_check_md_alias_variability, x, FMUC_VERDICT_WARN, 3);
}

Test(alias, two_states_fail)
{
    char *x = doc("", ME, "",
                  V("x", "0", "initial=\"exact\"", "<Real start=\"1\"/>")
                  V("der(x)", "1", "", "<Real derivative=\"1\"/>")
                  V("y", "0", "", "<Real/>")
                  V("der(y)", "2", "", "<Real derivative=\"3\"/>"),
                  "<Derivatives><Unknown index=\"2\"/><Unknown index=\"4\"/></Derivatives>\n"
                  "<InitialUnknowns><Unknown index=\"2\"/><Unknown index=\"4\"/></InitialUnknowns>");
    expect(&fmuc_check_md_alias_states, x, FMUC_VERDICT_FAIL, 1);
}

/* ---- naming ---- */

Test(naming, bad_structured_names_fail)
{
    char *x = doc("variableNamingConvention=\"structured\"", CS, "",
                  V("a b", "1", "", "<Real/>") V("x[1", "2", "", "<Real/>")
                  V("ok.name", "3", "", "<Real/>") V("1abc", "4", "", "<Real/>"),
                  "");
    expect(&fmuc_check_md_naming_structured, x, FMUC_VERDICT_FAIL, 3);
}

Test(naming, flat_names_are_free)
{
    char *x = doc("", CS, "", V("a b", "1", "", "<Real/>") V("x[1", "2", "", "<Real/>"), "");
    expect(&fmuc_check_md_naming_structured, x, FMUC_VERDICT_NA, 0);
}

Test(naming, der_not_real_warns)
{
    char *x = doc("variableNamingConvention=\"structured\"", CS, "",
                  V("der(n)", "1", "variability=\"discrete\"", "<Integer/>")
                  V("der(x)", "2", "", "<Real/>"),
                  "");
    expect(&fmuc_check_md_naming_der_real, x, FMUC_VERDICT_WARN, 1);
}

Test(naming, arrays_not_consecutive_warn)
{
    char *x = doc("variableNamingConvention=\"structured\"", CS, "",
                  V("x[1]", "1", "", "<Real/>") V("y", "2", "", "<Real/>")
                  V("x[2]", "3", "", "<Real/>") V("m[2,1]", "4", "", "<Real/>")
                  V("m[1,1]", "5", "", "<Real/>") V("a.x[1]", "6", "", "<Real/>")
                  V("a.x[2]", "7", "", "<Real/>"),
                  "");
    expect(&fmuc_check_md_naming_arrays, x, FMUC_VERDICT_WARN, 2);
}

/* ---- performance: one million variables, linear-ish ---- */

Test(ms_perf, million_variables, .timeout = 60)
{
    const size_t n = 1000000;
    size_t cap = n * 200 + 4096, len = 0;
    char *x = malloc(cap);
    cr_assert(x);
    len += (size_t)snprintf(x + len, cap - len,
                            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<fmiModelDescription "
                            "fmiVersion=\"2.0\" modelName=\"M\" guid=\"{g}\" "
                            "variableNamingConvention=\"structured\">" ME "<ModelVariables>\n");
    /* pairs: x[i] (state, exact) and der(x[i]); every 10th x aliased by an output */
    for (size_t i = 0; i < n / 2; i++)
        len += (size_t)snprintf(x + len, cap - len,
                                "<ScalarVariable name=\"x[%zu]\" valueReference=\"%zu\" "
                                "initial=\"exact\"><Real start=\"0\"/></ScalarVariable>\n",
                                i + 1, i);
    for (size_t i = 0; i < n / 2; i++)
        len += (size_t)snprintf(x + len, cap - len,
                                "<ScalarVariable name=\"der(x[%zu])\" valueReference=\"%zu\">"
                                "<Real derivative=\"%zu\"/></ScalarVariable>\n",
                                i + 1, n + i, i + 1);
    len += (size_t)snprintf(x + len, cap - len, "</ModelVariables><ModelStructure><Derivatives>");
    for (size_t i = 0; i < n / 2; i++)
        len += (size_t)snprintf(x + len, cap - len, "<Unknown index=\"%zu\" dependencies=\"%zu\"/>",
                                n / 2 + i + 1, i + 1);
    len += (size_t)snprintf(x + len, cap - len, "</Derivatives><InitialUnknowns>");
    for (size_t i = 0; i < n / 2; i++)
        len += (size_t)snprintf(x + len, cap - len, "<Unknown index=\"%zu\"/>", n / 2 + i + 1);
    len += (size_t)snprintf(x + len, cap - len,
                            "</InitialUnknowns></ModelStructure></fmiModelDescription>\n");
    cr_assert(len < cap);
    assert_all_ok(x);
    free(x);
}

/* ---- alias sets: the radix sort against a plain reference ---------------------------------- */

typedef struct alias_log {
    size_t n;
    uint64_t sig; /* order-sensitive digest of (kind, vr, members) */
} alias_log;

static void log_set(const fmuc_md *md, int kind, uint32_t vr, const uint32_t *members, size_t n,
                    void *payload)
{
    (void)md;
    alias_log *l = payload;
    l->n++;
    l->sig = l->sig * 1000003u ^ ((uint64_t)kind << 40 ^ vr);
    for (size_t i = 0; i < n; i++)
        l->sig = l->sig * 1000003u ^ members[i];
}

typedef struct ref_elem {
    int kind;
    uint32_t vr, index1;
} ref_elem;

static int cmp_ref(const void *a, const void *b)
{
    const ref_elem *x = a, *y = b;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    if (x->vr != y->vr)
        return x->vr < y->vr ? -1 : 1;
    return (x->index1 > y->index1) - (x->index1 < y->index1);
}

Test(ms_alias, radix_sorted_sets_match_a_reference_sort)
{
    enum { N = 6000 };
    static const unsigned types[] = {FMUC_TYPE_REAL, FMUC_TYPE_INTEGER, FMUC_TYPE_BOOLEAN,
                                     FMUC_TYPE_STRING, FMUC_TYPE_ENUMERATION, FMUC_TYPE_NONE};
    fmuc_md md;
    memset(&md, 0, sizeof md);
    md.vars = calloc(N, sizeof *md.vars);
    md.nvars = N;
    ref_elem *ref = calloc(N, sizeof *ref);
    cr_assert(md.vars && ref);
    uint64_t x = 88172645463325252ull;
    size_t nref = 0;
    for (size_t i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        fmuc_md_var *v = &md.vars[i];
        v->type = (uint8_t)types[x % 6];
        /* small vrs collide often; some above 2^24 and 2^31 exercise the high bytes */
        uint32_t vr = (uint32_t)((x >> 8) % 900);
        if (x % 7 == 0)
            vr |= 0x81000000u;
        else if (x % 5 == 0)
            vr |= 0x01020000u;
        v->value_reference = vr;
        if (x % 11 != 0)
            v->has |= FMUC_HAS_VALUE_REFERENCE;
        int kind = fmuc_ms__base_kind(v->type);
        if (kind != FMUC_MS_KIND_NONE && (v->has & FMUC_HAS_VALUE_REFERENCE))
            ref[nref++] = (ref_elem){kind, vr, (uint32_t)(i + 1)};
    }
    qsort(ref, nref, sizeof *ref, cmp_ref);
    alias_log want = {0, 0};
    uint32_t members[N];
    for (size_t i = 0; i < nref;) {
        size_t j = i + 1;
        while (j < nref && ref[j].kind == ref[i].kind && ref[j].vr == ref[i].vr)
            j++;
        if (j - i >= 2) {
            for (size_t k = i; k < j; k++)
                members[k - i] = ref[k].index1;
            log_set(&md, ref[i].kind, ref[i].vr, members, j - i, &want);
        }
        i = j;
    }
    cr_assert_gt(want.n, 100, "the fixture has many alias sets");

    alias_log got = {0, 0};
    cr_expect_eq(fmuc_ms__alias_sets(&md, log_set, &got), (long)want.n);
    cr_expect_eq(got.n, want.n);
    cr_expect_eq(got.sig, want.sig, "same sets, same order, members in document order");

    /* through a subject's cache: made once, the same walk each time */
    fmuc_fmu fmu;
    memset(&fmu, 0, sizeof fmu);
    fmu.md = md;
    fmuc_subject s = {.fmu = &fmu, .opts = NULL, .shared = fmuc_shared_runs_new()};
    cr_assert(s.shared);
    for (int rep = 0; rep < 2; rep++) {
        alias_log c = {0, 0};
        cr_expect_eq(fmuc_ms__alias_sets_of(&s, log_set, &c), (long)want.n);
        cr_expect_eq(c.sig, want.sig);
    }
    size_t n1, n2;
    const uint64_t *a1 = fmuc_shared_alias_index(&s, &n1), *a2 = fmuc_shared_alias_index(&s, &n2);
    cr_expect(a1 && a1 == a2 && n1 == nref && n2 == nref, "sorted once");
    fmuc_shared_runs_free(s.shared);
    free(ref);
    free(md.vars);
}
