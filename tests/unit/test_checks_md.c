/* Unit tests of the static modelDescription checks (checks/md_*.c owned by the md-vars part):
 * parse small XML documents, run one check, assert the verdict (and, where duplicates could
 * arise, the number of messages). Good descriptions from other tools must pass every check. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "fmuc/fmuc_md.h"
#include "md/md_util.h"

/* ---------------------------------------------------------------- harness */

static const fmuc_check *const mine[] = {
    &fmuc_check_md_xml_schema,
    &fmuc_check_md_element_order,
    &fmuc_check_md_nonempty_lists,
    &fmuc_check_md_required_attributes,
    &fmuc_check_md_attribute_syntax,
    &fmuc_check_md_special_values,
    &fmuc_check_md_normalized_strings,
    &fmuc_check_md_fmi_attributes,
    &fmuc_check_md_generation_date,
    &fmuc_check_md_generation_date_utc,
    &fmuc_check_md_interfaces,
    &fmuc_check_md_model_identifier,
    &fmuc_check_md_capability_flags,
    &fmuc_check_md_source_files,
    &fmuc_check_md_units,
    &fmuc_check_md_display_units,
    &fmuc_check_md_type_definitions,
    &fmuc_check_md_enumerations,
    &fmuc_check_md_log_categories,
    &fmuc_check_md_default_experiment,
    &fmuc_check_md_vendor_annotations,
    &fmuc_check_md_var_names,
    &fmuc_check_md_var_type_element,
    &fmuc_check_md_var_variability_type,
    &fmuc_check_md_var_causality_variability,
    &fmuc_check_md_var_initial,
    &fmuc_check_md_var_start_required,
    &fmuc_check_md_var_start_forbidden,
    &fmuc_check_md_var_start_range,
    &fmuc_check_md_var_min_max,
    &fmuc_check_md_var_declared_type,
    &fmuc_check_md_var_enumeration,
    &fmuc_check_md_var_enumeration_start,
    &fmuc_check_md_var_derivative,
    &fmuc_check_md_var_reinit,
    &fmuc_check_md_var_multiset,
    &fmuc_check_md_var_units,
    &fmuc_check_md_display_unit_known,
    &fmuc_check_md_independent,
    NULL,
};

static const fmuc_check *find(const char *id)
{
    for (size_t i = 0; mine[i]; i++)
        if (strcmp(mine[i]->id, id) == 0)
            return mine[i];
    cr_assert_fail("unknown check %s", id);
    return NULL;
}

typedef struct outcome {
    fmuc_verdict verdict;
    size_t nmessages;
} outcome;

/* Run one check on an already parsed model. */
static outcome run_on(const fmuc_check *c, fmuc_fmu *fmu)
{
    fmuc_options opts;
    memset(&opts, 0, sizeof opts);
    fmuc_subject s = {.fmu = fmu, .opts = &opts};
    fmuc_result r;
    fmuc_result_init(&r, c->id, c->title, c->spec, c->level);
    c->run(&s, &r);
    outcome o = {r.verdict, r.nmessages + r.messages_dropped};
    fmuc_result_clear(&r);
    return o;
}

static void parse_into(fmuc_fmu *fmu, const char *xml)
{
    memset(fmu, 0, sizeof *fmu);
    fmuc_err e = fmuc_md_parse(&fmu->md, xml, strlen(xml), NULL);
    cr_assert_eq(e, FMUC_OK, "parse failed (%d) for:\n%s", (int)e, xml);
    fmu->md_parsed = 1;
    fmu->has_md_file = 1;
}

static outcome run_xml(const char *id, const char *xml)
{
    fmuc_fmu fmu;
    parse_into(&fmu, xml);
    outcome o = run_on(find(id), &fmu);
    fmuc_md_free(&fmu.md);
    return o;
}

#define DEF_IFACES "<ModelExchange modelIdentifier=\"M\"/>\n<CoSimulation modelIdentifier=\"M\"/>"
#define DEF_VARS "<ScalarVariable name=\"x\" valueReference=\"1\"><Real/></ScalarVariable>"

/* A description from pieces; NULL takes the default piece. */
static char *doc(const char *root_attrs, const char *ifaces, const char *defs, const char *vars)
{
    char *s = NULL;
    int n = asprintf(&s,
                     "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                     "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"M\" "
                     "guid=\"{8c4e810f-3df3-4a00-8276-176fa3c9f000}\"%s>\n%s\n%s\n"
                     "<ModelVariables>\n%s\n</ModelVariables>\n<ModelStructure/>\n"
                     "</fmiModelDescription>\n",
                     root_attrs ? root_attrs : "", ifaces ? ifaces : DEF_IFACES, defs ? defs : "",
                     vars ? vars : DEF_VARS);
    cr_assert(n > 0);
    return s;
}

typedef struct tcase {
    const char *name;
    const char *check;
    fmuc_verdict verdict;
    const char *root, *ifaces, *defs, *vars;
    size_t nmessages;   /* 0 = do not check */
    const char *quiet;  /* another check that must stay pass/na on this document */
} tcase;

static void run_cases(const tcase *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const tcase *t = &cases[i];
        char *xml = doc(t->root, t->ifaces, t->defs, t->vars);
        fmuc_fmu fmu;
        parse_into(&fmu, xml);
        outcome o = run_on(find(t->check), &fmu);
        cr_expect_eq(o.verdict, t->verdict, "%s: %s gave %s, expected %s", t->name, t->check,
                     fmuc_verdict_name(o.verdict), fmuc_verdict_name(t->verdict));
        if (t->nmessages)
            cr_expect_eq(o.nmessages, t->nmessages, "%s: %s gave %zu messages, expected %zu",
                         t->name, t->check, o.nmessages, t->nmessages);
        if (t->quiet) {
            outcome q = run_on(find(t->quiet), &fmu);
            cr_expect(q.verdict == FMUC_VERDICT_PASS || q.verdict == FMUC_VERDICT_NA,
                      "%s: %s should stay quiet but gave %s", t->name, t->quiet,
                      fmuc_verdict_name(q.verdict));
        }
        fmuc_md_free(&fmu.md);
        free(xml);
    }
}

#define RUN(arr) run_cases(arr, sizeof arr / sizeof arr[0])
#define PASS FMUC_VERDICT_PASS
#define FAIL FMUC_VERDICT_FAIL
#define WARN FMUC_VERDICT_WARN
#define NA FMUC_VERDICT_NA

static void expect_all_quiet(const char *what, const char *xml)
{
    fmuc_fmu fmu;
    parse_into(&fmu, xml);
    for (size_t i = 0; mine[i]; i++) {
        outcome o = run_on(mine[i], &fmu);
        cr_expect(o.verdict == FMUC_VERDICT_PASS || o.verdict == FMUC_VERDICT_NA,
                  "%s: %s gave %s", what, mine[i]->id, fmuc_verdict_name(o.verdict));
    }
    fmuc_md_free(&fmu.md);
}

/* ---------------------------------------------------------------- good descriptions */

static const char bouncing_ball[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"BouncingBall\"\n"
    "  description=\"This model calculates the trajectory, over time, of a ball dropped from a "
    "height of 1 m.\"\n"
    "  guid=\"{1AE5E10D-9521-4DE3-80B9-D0EAAA7D5AF1}\" generationTool=\"Reference FMUs "
    "(v0.0.29)\"\n"
    "  generationDateAndTime=\"2024-01-15T09:28:29Z\" variableNamingConvention=\"structured\"\n"
    "  numberOfEventIndicators=\"1\">\n"
    "  <ModelExchange modelIdentifier=\"BouncingBall\" canNotUseMemoryManagementFunctions=\"true\"\n"
    "    canGetAndSetFMUstate=\"true\" canSerializeFMUstate=\"true\">\n"
    "    <SourceFiles><File name=\"all.c\"/></SourceFiles>\n"
    "  </ModelExchange>\n"
    "  <CoSimulation modelIdentifier=\"BouncingBall\" canHandleVariableCommunicationStepSize=\"true\"\n"
    "    canNotUseMemoryManagementFunctions=\"true\" canGetAndSetFMUstate=\"true\"\n"
    "    canSerializeFMUstate=\"true\">\n"
    "    <SourceFiles><File name=\"all.c\"/></SourceFiles>\n"
    "  </CoSimulation>\n"
    "  <UnitDefinitions>\n"
    "    <Unit name=\"m\"><BaseUnit m=\"1\"/></Unit>\n"
    "    <Unit name=\"m/s\"><BaseUnit m=\"1\" s=\"-1\"/></Unit>\n"
    "    <Unit name=\"m/s2\"><BaseUnit m=\"1\" s=\"-2\"/></Unit>\n"
    "  </UnitDefinitions>\n"
    "  <TypeDefinitions>\n"
    "    <SimpleType name=\"Position\"><Real quantity=\"Position\" unit=\"m\"/></SimpleType>\n"
    "    <SimpleType name=\"Velocity\"><Real quantity=\"Velocity\" unit=\"m/s\"/></SimpleType>\n"
    "    <SimpleType name=\"Acceleration\"><Real quantity=\"Acceleration\" unit=\"m/s2\"/>"
    "</SimpleType>\n"
    "  </TypeDefinitions>\n"
    "  <LogCategories>\n"
    "    <Category name=\"logEvents\" description=\"Log events\"/>\n"
    "    <Category name=\"logStatusError\" description=\"Log error messages\"/>\n"
    "  </LogCategories>\n"
    "  <DefaultExperiment startTime=\"0\" stopTime=\"3\" stepSize=\"1e-2\"/>\n"
    "  <ModelVariables>\n"
    "    <ScalarVariable name=\"time\" valueReference=\"0\" causality=\"independent\" "
    "variability=\"continuous\" description=\"Simulation time\"><Real/></ScalarVariable>\n"
    "    <ScalarVariable name=\"h\" valueReference=\"1\" causality=\"output\" "
    "variability=\"continuous\" initial=\"exact\"><Real declaredType=\"Position\" start=\"1\"/>"
    "</ScalarVariable>\n"
    "    <ScalarVariable name=\"der(h)\" valueReference=\"2\" causality=\"local\" "
    "variability=\"continuous\" initial=\"calculated\"><Real declaredType=\"Velocity\" "
    "derivative=\"2\"/></ScalarVariable>\n"
    "    <ScalarVariable name=\"v\" valueReference=\"3\" causality=\"output\" "
    "variability=\"continuous\" initial=\"exact\"><Real declaredType=\"Velocity\" start=\"0\" "
    "reinit=\"true\"/></ScalarVariable>\n"
    "    <ScalarVariable name=\"der(v)\" valueReference=\"4\" causality=\"local\" "
    "variability=\"continuous\" initial=\"calculated\"><Real declaredType=\"Acceleration\" "
    "derivative=\"4\"/></ScalarVariable>\n"
    "    <ScalarVariable name=\"g\" valueReference=\"5\" causality=\"parameter\" "
    "variability=\"fixed\" initial=\"exact\"><Real declaredType=\"Acceleration\" start=\"-9.81\"/>"
    "</ScalarVariable>\n"
    "    <ScalarVariable name=\"e\" valueReference=\"6\" causality=\"parameter\" "
    "variability=\"tunable\" initial=\"exact\"><Real start=\"0.7\" min=\"0.5\" max=\"1\"/>"
    "</ScalarVariable>\n"
    "    <ScalarVariable name=\"v_min\" valueReference=\"7\" variability=\"constant\">"
    "<Real declaredType=\"Velocity\" start=\"0.1\"/></ScalarVariable>\n"
    "  </ModelVariables>\n"
    "  <ModelStructure>\n"
    "    <Outputs><Unknown index=\"2\"/><Unknown index=\"4\"/></Outputs>\n"
    "    <Derivatives><Unknown index=\"3\"/><Unknown index=\"5\"/></Derivatives>\n"
    "    <InitialUnknowns><Unknown index=\"3\"/><Unknown index=\"5\"/></InitialUnknowns>\n"
    "  </ModelStructure>\n"
    "</fmiModelDescription>\n";

/* Dymola-style CS FMU: aliases (same VR), Integer and Enumeration sharing a VR, enumerations,
 * display units, declaredType defaults, vendor and variable annotations, no outputs. */
static const char dymola_like[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<fmiModelDescription\n"
    "  fmiVersion=\"2.0\"\n"
    "  modelName=\"Test.Heater\"\n"
    "  guid=\"{6b7f5ac1-8a3d-4e2b-9c1f-0d2e3f4a5b6c}\"\n"
    "  generationTool=\"Dymola Version 2023x (64-bit), 2022-10-07\"\n"
    "  generationDateAndTime=\"2023-01-11T10:37:38Z\"\n"
    "  variableNamingConvention=\"structured\"\n"
    "  numberOfEventIndicators=\"2\">\n"
    "  <CoSimulation\n"
    "    modelIdentifier=\"Test_Heater\"\n"
    "    canHandleVariableCommunicationStepSize=\"true\"\n"
    "    canInterpolateInputs=\"true\"\n"
    "    maxOutputDerivativeOrder=\"1\"\n"
    "    canGetAndSetFMUstate=\"true\"\n"
    "    canSerializeFMUstate=\"true\"\n"
    "    providesDirectionalDerivative=\"true\"/>\n"
    "  <UnitDefinitions>\n"
    "    <Unit name=\"K\"><BaseUnit K=\"1\"/><DisplayUnit name=\"degC\" offset=\"-273.15\"/></Unit>\n"
    "    <Unit name=\"K/s\"><BaseUnit K=\"1\" s=\"-1\"/></Unit>\n"
    "    <Unit name=\"rad\"><BaseUnit rad=\"1\"/><DisplayUnit name=\"deg\" "
    "factor=\"57.29577951308232\"/></Unit>\n"
    "    <Unit name=\"s\"><BaseUnit s=\"1\"/><DisplayUnit name=\"min\" factor=\"0.016666666666666666\"/>"
    "<DisplayUnit name=\"h\" factor=\"0.0002777777777777778\"/></Unit>\n"
    "    <Unit name=\"\"/>\n"
    "  </UnitDefinitions>\n"
    "  <TypeDefinitions>\n"
    "    <SimpleType name=\"Modelica.SIunits.Temperature\"><Real quantity=\"ThermodynamicTemperature\" "
    "unit=\"K\" displayUnit=\"degC\" min=\"0.0\" nominal=\"300\"/></SimpleType>\n"
    "    <SimpleType name=\"Modelica.SIunits.Angle\"><Real quantity=\"Angle\" unit=\"rad\" "
    "displayUnit=\"deg\"/></SimpleType>\n"
    "    <SimpleType name=\"Modelica.Blocks.Types.Init\">\n"
    "      <Enumeration>\n"
    "        <Item name=\"NoInit\" value=\"1\" description=\"No initialization\"/>\n"
    "        <Item name=\"SteadyState\" value=\"2\"/>\n"
    "        <Item name=\"InitialState\" value=\"3\"/>\n"
    "        <Item name=\"InitialOutput\" value=\"4\"/>\n"
    "      </Enumeration>\n"
    "    </SimpleType>\n"
    "  </TypeDefinitions>\n"
    "  <LogCategories><Category name=\"logDymolaSpecific\"/><Category name=\"logAll\"/>"
    "</LogCategories>\n"
    "  <DefaultExperiment startTime=\"0.0\" stopTime=\"1.0\" tolerance=\"0.0001\"/>\n"
    "  <VendorAnnotations><Tool name=\"Dymola\"><Options x=\"1\"/></Tool></VendorAnnotations>\n"
    "  <ModelVariables>\n"
    "    <!-- Index for next variable = 1 -->\n"
    "    <ScalarVariable name=\"T\" valueReference=\"33554432\" description=\"Temperature\">\n"
    "      <Real declaredType=\"Modelica.SIunits.Temperature\"/>\n"
    "    </ScalarVariable>\n"
    "    <!-- Index for next variable = 2 -->\n"
    "    <ScalarVariable name=\"der(T)\" valueReference=\"587202560\">\n"
    "      <Real unit=\"K/s\" derivative=\"1\"/>\n"
    "    </ScalarVariable>\n"
    "    <ScalarVariable name=\"T_start\" valueReference=\"16777216\" causality=\"parameter\" "
    "variability=\"fixed\">\n"
    "      <Real declaredType=\"Modelica.SIunits.Temperature\" start=\"293.15\"/>\n"
    "      <Annotations><Tool name=\"Dymola\"><Dialog group=\"Init\"/></Tool></Annotations>\n"
    "    </ScalarVariable>\n"
    "    <ScalarVariable name=\"init\" valueReference=\"100663296\" causality=\"parameter\" "
    "variability=\"fixed\">\n"
    "      <Enumeration declaredType=\"Modelica.Blocks.Types.Init\" start=\"3\"/>\n"
    "    </ScalarVariable>\n"
    "    <ScalarVariable name=\"initAsInteger\" valueReference=\"100663296\" "
    "causality=\"calculatedParameter\" variability=\"fixed\">\n"
    "      <Integer/>\n"
    "    </ScalarVariable>\n"
    "    <ScalarVariable name=\"n\" valueReference=\"100663297\" causality=\"parameter\" "
    "variability=\"fixed\"><Integer start=\"2\" min=\"1\"/></ScalarVariable>\n"
    "    <ScalarVariable name=\"use\" valueReference=\"100663298\" causality=\"parameter\" "
    "variability=\"fixed\"><Boolean start=\"true\"/></ScalarVariable>\n"
    "    <ScalarVariable name=\"alias.T\" valueReference=\"33554432\" description=\"alias of T\">\n"
    "      <Real declaredType=\"Modelica.SIunits.Temperature\"/>\n"
    "    </ScalarVariable>\n"
    "    <ScalarVariable name=\"k\" valueReference=\"16\" variability=\"constant\"><Real start=\"2\"/>"
    "</ScalarVariable>\n"
    "    <ScalarVariable name=\"counter\" valueReference=\"100663299\" variability=\"discrete\">"
    "<Integer/></ScalarVariable>\n"
    "    <ScalarVariable name=\"mode\" valueReference=\"100663300\" variability=\"discrete\">"
    "<Enumeration declaredType=\"Modelica.Blocks.Types.Init\"/></ScalarVariable>\n"
    "    <ScalarVariable name=\"label\" valueReference=\"134217728\" causality=\"parameter\" "
    "variability=\"fixed\"><String start=\"a&amp;b\"/></ScalarVariable>\n"
    "    <ScalarVariable name=\"tp\" valueReference=\"16777217\" causality=\"calculatedParameter\" "
    "variability=\"fixed\"><Real unit=\"s\" displayUnit=\"min\"/></ScalarVariable>\n"
    "    <ScalarVariable name=\"phi\" valueReference=\"33554433\" variability=\"continuous\" "
    "initial=\"approx\"><Real declaredType=\"Modelica.SIunits.Angle\" displayUnit=\"deg\" "
    "start=\"0.1\"/></ScalarVariable>\n"
    "    <ScalarVariable name=\"gain\" valueReference=\"16777218\" causality=\"parameter\" "
    "variability=\"tunable\"><Real unit=\"\" start=\"1\" min=\"0\" max=\"1e+100\"/>"
    "</ScalarVariable>\n"
    "    <ScalarVariable name=\"u\" valueReference=\"352321536\" causality=\"input\">"
    "<Real declaredType=\"Modelica.SIunits.Temperature\" start=\"300\"/></ScalarVariable>\n"
    "  </ModelVariables>\n"
    "  <ModelStructure>\n"
    "    <Derivatives><Unknown index=\"2\" dependencies=\"1\" dependenciesKind=\"dependent\"/>"
    "</Derivatives>\n"
    "    <InitialUnknowns><Unknown index=\"2\" dependencies=\"1\"/></InitialUnknowns>\n"
    "  </ModelStructure>\n"
    "</fmiModelDescription>\n";

/* Model Exchange only, with an input that can handle multiple sets, an independent time and an
 * OpenModelica-style layout (initial on states, ISO date with fraction). */
static const char om_like[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"Tank\" guid=\"{f00d}\"\n"
    "  generationTool=\"OpenModelica Compiler v1.22.0\" generationDateAndTime=\"2024-03-01T12:00:00.5Z\"\n"
    "  variableNamingConvention=\"structured\" numberOfEventIndicators=\"0\">\n"
    "  <ModelExchange modelIdentifier=\"Tank\" completedIntegratorStepNotNeeded=\"true\"/>\n"
    "  <DefaultExperiment startTime=\"0\" stopTime=\"10\" tolerance=\"1e-06\" stepSize=\"0.02\"/>\n"
    "  <ModelVariables>\n"
    "    <ScalarVariable name=\"time\" valueReference=\"0\" causality=\"independent\"><Real/>"
    "</ScalarVariable>\n"
    "    <ScalarVariable name=\"level\" valueReference=\"1\" causality=\"output\" initial=\"exact\">"
    "<Real start=\"1\" min=\"0\" reinit=\"false\"/></ScalarVariable>\n"
    "    <ScalarVariable name=\"der(level)\" valueReference=\"2\"><Real derivative=\"2\"/>"
    "</ScalarVariable>\n"
    "    <ScalarVariable name=\"q_in\" valueReference=\"3\" causality=\"input\" "
    "canHandleMultipleSetPerTimeInstant=\"false\"><Real start=\"0\"/></ScalarVariable>\n"
    "    <ScalarVariable name=\"open\" valueReference=\"0\" causality=\"input\" "
    "variability=\"discrete\"><Boolean start=\"false\"/></ScalarVariable>\n"
    "  </ModelVariables>\n"
    "  <ModelStructure>\n"
    "    <Outputs><Unknown index=\"2\"/></Outputs>\n"
    "    <Derivatives><Unknown index=\"3\" dependencies=\"4\"/></Derivatives>\n"
    "  </ModelStructure>\n"
    "</fmiModelDescription>\n";

Test(md_good, reference_fmus_bouncing_ball_passes_everything)
{
    expect_all_quiet("BouncingBall", bouncing_ball);
}

Test(md_good, dymola_like_passes_everything)
{
    expect_all_quiet("Dymola-like", dymola_like);
}

Test(md_good, openmodelica_like_me_only_passes_everything)
{
    expect_all_quiet("OM-like", om_like);
}

Test(md_good, minimal_default_document_passes_everything)
{
    char *xml = doc(NULL, NULL, NULL, NULL);
    expect_all_quiet("minimal", xml);
    free(xml);
}

/* ---------------------------------------------------------------- structure and syntax */

Test(md_structure, schema_order_required_lists)
{
    static const tcase c[] = {
        {"unknown attribute", "md-xml-schema", FAIL, .vars =
         "<ScalarVariable name=\"x\" valueReference=\"1\" foo=\"1\"><Real/></ScalarVariable>"},
        {"unknown element", "md-xml-schema", FAIL, .vars =
         "<ScalarVariable name=\"x\" valueReference=\"1\"><Real/><Bogus/></ScalarVariable>"},
        {"unknown top element", "md-xml-schema", FAIL, .defs = "<Extra/>", .quiet = "md-element-order"},
        /* the FMI schema has no target namespace (red-team round 5) */
        {"root in a namespace", "md-xml-schema", FAIL, .root = " xmlns=\"http://example.org/x\""},
        {"namespaced schema location is fine", "md-xml-schema", PASS,
         .root = " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
                 "xsi:noNamespaceSchemaLocation=\"fmi2ModelDescription.xsd\""},
        {"namespaced attribute is fine", "md-xml-schema", PASS,
         .root = " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
                 "xsi:noNamespaceSchemaLocation=\"fmi2ModelDescription.xsd\""},
        {"top-level order", "md-element-order", FAIL,
         .defs = "<DefaultExperiment stopTime=\"1\"/><UnitDefinitions><Unit name=\"m\"/>"
                 "</UnitDefinitions>", .nmessages = 1},
        {"CS before ME is fine", "md-element-order", PASS,
         .ifaces = "<CoSimulation modelIdentifier=\"M\"/><ModelExchange modelIdentifier=\"M\"/>"},
        {"repeated UnitDefinitions", "md-element-order", FAIL,
         .defs = "<UnitDefinitions><Unit name=\"m\"/></UnitDefinitions>"
                 "<UnitDefinitions><Unit name=\"s\"/></UnitDefinitions>", .nmessages = 1},
        {"nested order: BaseUnit after DisplayUnit", "md-element-order", FAIL,
         .defs = "<UnitDefinitions><Unit name=\"m\"><DisplayUnit name=\"mm\"/><BaseUnit m=\"1\"/>"
                 "</Unit></UnitDefinitions>"},
        {"type element after Annotations", "md-element-order", FAIL, .vars =
         "<ScalarVariable name=\"x\" valueReference=\"1\"><Annotations><Tool name=\"a\"/>"
         "</Annotations><Real/></ScalarVariable>", .quiet = "md-var-type-element"},
        {"empty UnitDefinitions", "md-nonempty-lists", FAIL, .defs = "<UnitDefinitions></UnitDefinitions>",
         .nmessages = 1},
        {"empty LogCategories", "md-nonempty-lists", FAIL, .defs = "<LogCategories/>", .nmessages = 1},
        {"empty SourceFiles", "md-nonempty-lists", FAIL,
         .ifaces = "<CoSimulation modelIdentifier=\"M\"><SourceFiles/></CoSimulation>"},
        {"empty Annotations", "md-nonempty-lists", FAIL, .vars =
         "<ScalarVariable name=\"x\" valueReference=\"1\"><Real/><Annotations/></ScalarVariable>"},
        {"missing valueReference", "md-required-attributes", FAIL, .vars =
         "<ScalarVariable name=\"x\"><Real/></ScalarVariable>", .nmessages = 1},
        {"missing variable name", "md-required-attributes", FAIL, .vars =
         "<ScalarVariable valueReference=\"1\"><Real/></ScalarVariable>", .nmessages = 1,
         .quiet = "md-var-names"},
        {"missing unit name", "md-required-attributes", FAIL,
         .defs = "<UnitDefinitions><Unit/></UnitDefinitions>", .nmessages = 1, .quiet = "md-units"},
        {"missing item value", "md-required-attributes", FAIL,
         .defs = "<TypeDefinitions><SimpleType name=\"E\"><Enumeration><Item name=\"a\"/>"
                 "</Enumeration></SimpleType></TypeDefinitions>", .nmessages = 1,
         .quiet = "md-enumerations"},
        {"missing modelIdentifier", "md-required-attributes", FAIL,
         .ifaces = "<CoSimulation/>", .nmessages = 1, .quiet = "md-model-identifier"},
        {"bad valueReference is syntax, not missing", "md-required-attributes", PASS, .vars =
         "<ScalarVariable name=\"x\" valueReference=\"-1\"><Real/></ScalarVariable>"},
        {"bad valueReference", "md-attribute-syntax", FAIL, .vars =
         "<ScalarVariable name=\"x\" valueReference=\"-1\"><Real/></ScalarVariable>"},
        {"bad causality", "md-attribute-syntax", FAIL, .vars =
         "<ScalarVariable name=\"x\" valueReference=\"1\" causality=\"out\"><Real/></ScalarVariable>",
         .quiet = "md-var-causality-variability"},
        {"bad double", "md-attribute-syntax", FAIL, .vars =
         "<ScalarVariable name=\"x\" valueReference=\"1\" initial=\"exact\"><Real start=\"1,5\"/>"
         "</ScalarVariable>", .quiet = "md-special-values"},
        {"int out of range", "md-attribute-syntax", FAIL, .vars =
         "<ScalarVariable name=\"x\" valueReference=\"1\" variability=\"discrete\" "
         "initial=\"exact\"><Integer start=\"3000000000\"/></ScalarVariable>",
         .quiet = "md-var-start-range"},
        {"bad boolean", "md-attribute-syntax", FAIL,
         .ifaces = "<CoSimulation modelIdentifier=\"M\" canGetAndSetFMUstate=\"yes\"/>"},
        {"INF start", "md-special-values", FAIL, .vars =
         "<ScalarVariable name=\"x\" valueReference=\"1\" initial=\"exact\"><Real start=\"INF\"/>"
         "</ScalarVariable>", .nmessages = 1, .quiet = "md-attribute-syntax"},
        {"NaN max", "md-special-values", FAIL, .vars =
         "<ScalarVariable name=\"x\" valueReference=\"1\"><Real max=\"NaN\"/></ScalarVariable>",
         .quiet = "md-var-min-max"},
        {"-INF in DefaultExperiment", "md-special-values", FAIL,
         .defs = "<DefaultExperiment startTime=\"-INF\"/>", .quiet = "md-default-experiment"},
        {"overflow is syntax", "md-special-values", PASS, .vars =
         "<ScalarVariable name=\"x\" valueReference=\"1\"><Real nominal=\"1e999\"/></ScalarVariable>"},
        {"tab in name", "md-normalized-strings", WARN, .vars =
         "<ScalarVariable name=\"a&#9;b\" valueReference=\"1\"><Real/></ScalarVariable>",
         .nmessages = 1},
        {"LF in unit", "md-normalized-strings", WARN,
         .defs = "<UnitDefinitions><Unit name=\"m&#10;\"/></UnitDefinitions>"},
        {"CR in guid-like version", "md-normalized-strings", WARN, .root = " version=\"1&#13;\""},
        {"newline in description is fine", "md-normalized-strings", PASS,
         .root = " description=\"two&#10;lines\""},
    };
    RUN(c);
}

Test(md_structure, missing_model_structure_and_model_name)
{
    const char *xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                      "<fmiModelDescription fmiVersion=\"2.0\" guid=\"{1}\">\n"
                      "<CoSimulation modelIdentifier=\"M\"/>\n"
                      "<ModelVariables><ScalarVariable name=\"x\" valueReference=\"1\"><Real/>"
                      "</ScalarVariable></ModelVariables>\n"
                      "</fmiModelDescription>\n";
    outcome o = run_xml("md-element-order", xml);
    cr_expect_eq(o.verdict, FMUC_VERDICT_FAIL);
    cr_expect_eq(o.nmessages, 1);
    o = run_xml("md-required-attributes", xml);
    cr_expect_eq(o.verdict, FMUC_VERDICT_FAIL);
    cr_expect_eq(o.nmessages, 1, "modelName reported once, got %zu", o.nmessages);
    o = run_xml("md-nonempty-lists", xml);
    cr_expect_eq(o.verdict, FMUC_VERDICT_PASS);
}

Test(md_structure, empty_model_variables)
{
    const char *xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                      "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"M\" guid=\"{1}\">\n"
                      "<CoSimulation modelIdentifier=\"M\"/>\n"
                      "<ModelVariables/>\n<ModelStructure/>\n</fmiModelDescription>\n";
    outcome o = run_xml("md-nonempty-lists", xml);
    cr_expect_eq(o.verdict, FMUC_VERDICT_FAIL);
    cr_expect_eq(o.nmessages, 1);
}

/* ---------------------------------------------------------------- root, interfaces */

Test(md_root, attributes_dates_interfaces)
{
    static const tcase c[] = {
        {"naming convention", "md-fmi-attributes", FAIL, .root = " variableNamingConvention=\"Flat\"",
         .nmessages = 1, .quiet = "md-attribute-syntax"},
        {"event indicators syntax", "md-fmi-attributes", FAIL, .root = " numberOfEventIndicators=\"-1\"",
         .quiet = "md-attribute-syntax"},
        {"structured ok", "md-fmi-attributes", PASS, .root = " variableNamingConvention=\"structured\""},
        {"date with space", "md-generation-date", FAIL,
         .root = " generationDateAndTime=\"2023-10-09 20:45:22.102681\"", .quiet = "md-generation-date-utc"},
        {"date 30 February", "md-generation-date", FAIL, .root = " generationDateAndTime=\"2023-02-30T10:00:00Z\""},
        {"date with offset ok", "md-generation-date", PASS,
         .root = " generationDateAndTime=\"2023-10-09T20:45:22+02:00\""},
        {"date local ok", "md-generation-date", PASS, .root = " generationDateAndTime=\"2024-02-29T23:59:59\""},
        {"date absent", "md-generation-date", NA, .root = NULL},
        {"date offset warns", "md-generation-date-utc", WARN,
         .root = " generationDateAndTime=\"2023-10-09T20:45:22+02:00\""},
        {"date local warns", "md-generation-date-utc", WARN,
         .root = " generationDateAndTime=\"2023-10-09T20:45:22\""},
        {"date Z", "md-generation-date-utc", PASS, .root = " generationDateAndTime=\"2023-10-09T20:45:22Z\""},
        {"date invalid is other check's", "md-generation-date-utc", NA,
         .root = " generationDateAndTime=\"yesterday\""},
        {"no interface", "md-interfaces", FAIL, .ifaces = ""},
        {"two CoSimulation", "md-interfaces", FAIL,
         .ifaces = "<CoSimulation modelIdentifier=\"M\"/><CoSimulation modelIdentifier=\"M\"/>",
         .nmessages = 1, .quiet = "md-element-order"},
        {"identifier digit", "md-model-identifier", FAIL, .ifaces = "<CoSimulation modelIdentifier=\"3M\"/>"},
        {"identifier path", "md-model-identifier", FAIL,
         .ifaces = "<CoSimulation modelIdentifier=\"../M\"/>"},
        {"identifier empty", "md-model-identifier", FAIL, .ifaces = "<CoSimulation modelIdentifier=\"\"/>"},
        {"identifier reserved", "md-model-identifier", FAIL,
         .ifaces = "<ModelExchange modelIdentifier=\"com1\"/>"},
        {"identifier ok", "md-model-identifier", PASS,
         .ifaces = "<ModelExchange modelIdentifier=\"_M1\"/><CoSimulation modelIdentifier=\"M_cs\"/>"},
        {"serialize without get/set", "md-capability-flags", FAIL,
         .ifaces = "<CoSimulation modelIdentifier=\"M\" canSerializeFMUstate=\"true\"/>", .nmessages = 1},
        {"serialize with get/set false", "md-capability-flags", FAIL,
         .ifaces = "<ModelExchange modelIdentifier=\"M\" canGetAndSetFMUstate=\"false\" "
                   "canSerializeFMUstate=\"1\"/>"},
        {"CS flag on ME", "md-capability-flags", FAIL,
         .ifaces = "<ModelExchange modelIdentifier=\"M\" canInterpolateInputs=\"true\"/>",
         .nmessages = 1, .quiet = "md-xml-schema"},
        {"ME flag on CS", "md-capability-flags", FAIL,
         .ifaces = "<CoSimulation modelIdentifier=\"M\" completedIntegratorStepNotNeeded=\"true\"/>",
         .quiet = "md-xml-schema"},
        {"maxOutputDerivativeOrder on ME", "md-capability-flags", FAIL,
         .ifaces = "<ModelExchange modelIdentifier=\"M\" maxOutputDerivativeOrder=\"1\"/>"},
        {"consistent flags", "md-capability-flags", PASS,
         .ifaces = "<ModelExchange modelIdentifier=\"M\" canGetAndSetFMUstate=\"true\" "
                   "canSerializeFMUstate=\"true\" completedIntegratorStepNotNeeded=\"true\"/>"},
        {"duplicate source file", "md-source-files", WARN,
         .ifaces = "<CoSimulation modelIdentifier=\"M\"><SourceFiles><File name=\"a.c\"/>"
                   "<File name=\"a.c\"/></SourceFiles></CoSimulation>", .nmessages = 1},
        {"absolute source file", "md-source-files", WARN,
         .ifaces = "<CoSimulation modelIdentifier=\"M\"><SourceFiles><File name=\"/tmp/a.c\"/>"
                   "</SourceFiles></CoSimulation>"},
        {"backslash source file", "md-source-files", WARN,
         .ifaces = "<CoSimulation modelIdentifier=\"M\"><SourceFiles><File name=\"src\\a.c\"/>"
                   "</SourceFiles></CoSimulation>"},
        {"dotdot source file", "md-source-files", WARN,
         .ifaces = "<CoSimulation modelIdentifier=\"M\"><SourceFiles><File name=\"x/../../a.c\"/>"
                   "</SourceFiles></CoSimulation>"},
        {"same file in ME and CS ok", "md-source-files", PASS,
         .ifaces = "<ModelExchange modelIdentifier=\"M\"><SourceFiles><File name=\"sub/a.c\"/>"
                   "</SourceFiles></ModelExchange><CoSimulation modelIdentifier=\"M\"><SourceFiles>"
                   "<File name=\"sub/a.c\"/></SourceFiles></CoSimulation>"},
        {"no sources", "md-source-files", NA, .root = NULL},
    };
    RUN(c);
}

Test(md_root, source_file_missing_from_archive)
{
    char *xml = doc(NULL,
                    "<CoSimulation modelIdentifier=\"M\"><SourceFiles><File name=\"a.c\"/>"
                    "<File name=\"b.c\"/></SourceFiles></CoSimulation>",
                    NULL, NULL);
    fmuc_fmu fmu;
    parse_into(&fmu, xml);
    fmuc_zip_entry entries[2];
    memset(entries, 0, sizeof entries);
    entries[0].name = "modelDescription.xml";
    entries[1].name = "sources/a.c";
    fmu.listing.entries = entries;
    fmu.listing.nentries = 2;
    outcome o = run_on(find("md-source-files"), &fmu);
    cr_expect_eq(o.verdict, FMUC_VERDICT_WARN);
    cr_expect_eq(o.nmessages, 1);
    fmuc_md_free(&fmu.md);
    free(xml);
}

/* ---------------------------------------------------------------- definitions */

#define UNITS_M "<UnitDefinitions><Unit name=\"m\"><DisplayUnit name=\"mm\" factor=\"1000\"/></Unit>" \
                "<Unit name=\"s\"/></UnitDefinitions>"

Test(md_defs, units_types_enums_categories_experiment_vendor)
{
    static const tcase c[] = {
        {"duplicate unit", "md-units", FAIL,
         .defs = "<UnitDefinitions><Unit name=\"m\"/><Unit name=\"s\"/><Unit name=\"m\"/>"
                 "</UnitDefinitions>", .nmessages = 1},
        {"no units", "md-units", NA, .root = NULL},
        {"duplicate display unit", "md-display-units", FAIL,
         .defs = "<UnitDefinitions><Unit name=\"K\"><DisplayUnit name=\"degC\" offset=\"-273.15\"/>"
                 "<DisplayUnit name=\"degC\"/></Unit></UnitDefinitions>", .nmessages = 1},
        {"same display name under two units", "md-display-units", PASS,
         .defs = "<UnitDefinitions><Unit name=\"a\"><DisplayUnit name=\"x\"/><DisplayUnit name=\"y\"/>"
                 "</Unit><Unit name=\"b\"><DisplayUnit name=\"x\"/></Unit></UnitDefinitions>"},
        {"duplicate type", "md-type-definitions", FAIL,
         .defs = "<TypeDefinitions><SimpleType name=\"T\"><Real/></SimpleType><SimpleType name=\"T\">"
                 "<Integer/></SimpleType></TypeDefinitions>", .nmessages = 1},
        {"type named like variable", "md-type-definitions", FAIL,
         .defs = "<TypeDefinitions><SimpleType name=\"x\"><Real/></SimpleType></TypeDefinitions>"},
        {"type without element", "md-type-definitions", FAIL,
         .defs = "<TypeDefinitions><SimpleType name=\"T\"/></TypeDefinitions>", .nmessages = 1,
         .quiet = "md-nonempty-lists"},
        {"type with two elements", "md-type-definitions", FAIL,
         .defs = "<TypeDefinitions><SimpleType name=\"T\"><Real/><Integer/></SimpleType>"
                 "</TypeDefinitions>", .nmessages = 1, .quiet = "md-element-order"},
        {"type min > max", "md-type-definitions", FAIL,
         .defs = "<TypeDefinitions><SimpleType name=\"T\"><Real min=\"2\" max=\"1\"/></SimpleType>"
                 "</TypeDefinitions>"},
        {"type nominal 0", "md-type-definitions", FAIL,
         .defs = "<TypeDefinitions><SimpleType name=\"T\"><Real nominal=\"0\"/></SimpleType>"
                 "</TypeDefinitions>"},
        {"type unit undefined", "md-type-definitions", FAIL,
         .defs = "<TypeDefinitions><SimpleType name=\"T\"><Real unit=\"m\"/></SimpleType>"
                 "</TypeDefinitions>"},
        {"type display unit without unit", "md-type-definitions", FAIL,
         .defs = UNITS_M "<TypeDefinitions><SimpleType name=\"T\"><Real displayUnit=\"mm\"/>"
                 "</SimpleType></TypeDefinitions>"},
        {"type ok", "md-type-definitions", PASS,
         .defs = UNITS_M "<TypeDefinitions><SimpleType name=\"T\"><Real unit=\"m\" displayUnit=\"mm\" "
                 "min=\"-1\" max=\"1\" nominal=\"0.5\"/></SimpleType></TypeDefinitions>"},
        {"empty enumeration", "md-enumerations", FAIL,
         .defs = "<TypeDefinitions><SimpleType name=\"E\"><Enumeration/></SimpleType></TypeDefinitions>",
         .nmessages = 1, .quiet = "md-nonempty-lists"},
        {"enumeration duplicate value", "md-enumerations", FAIL,
         .defs = "<TypeDefinitions><SimpleType name=\"E\"><Enumeration><Item name=\"a\" value=\"1\"/>"
                 "<Item name=\"b\" value=\"1\"/></Enumeration></SimpleType></TypeDefinitions>",
         .nmessages = 1},
        {"enumeration duplicate name", "md-enumerations", FAIL,
         .defs = "<TypeDefinitions><SimpleType name=\"E\"><Enumeration><Item name=\"a\" value=\"1\"/>"
                 "<Item name=\"a\" value=\"2\"/></Enumeration></SimpleType></TypeDefinitions>",
         .nmessages = 1},
        {"enumeration negative values ok", "md-enumerations", PASS,
         .defs = "<TypeDefinitions><SimpleType name=\"E\"><Enumeration><Item name=\"a\" value=\"-1\"/>"
                 "<Item name=\"b\" value=\"4294967295\"/></Enumeration></SimpleType></TypeDefinitions>"},
        {"duplicate category", "md-log-categories", FAIL,
         .defs = "<LogCategories><Category name=\"logAll\"/><Category name=\"logAll\"/></LogCategories>",
         .nmessages = 1},
        {"non-standard categories ok", "md-log-categories", PASS,
         .defs = "<LogCategories><Category name=\"myCat\"/><Category name=\"logEvents\"/></LogCategories>"},
        {"stop before start", "md-default-experiment", WARN,
         .defs = "<DefaultExperiment startTime=\"2\" stopTime=\"1\"/>", .nmessages = 1},
        {"stop at default start", "md-default-experiment", WARN, .defs = "<DefaultExperiment stopTime=\"0\"/>"},
        {"negative tolerance", "md-default-experiment", WARN, .defs = "<DefaultExperiment tolerance=\"-1e-4\"/>"},
        {"zero step", "md-default-experiment", WARN, .defs = "<DefaultExperiment stepSize=\"0\"/>"},
        {"step longer than interval", "md-default-experiment", WARN,
         .defs = "<DefaultExperiment startTime=\"0\" stopTime=\"1\" stepSize=\"2\"/>"},
        {"sensible experiment", "md-default-experiment", PASS,
         .defs = "<DefaultExperiment startTime=\"1\" stopTime=\"2\" tolerance=\"0\" stepSize=\"0.5\"/>"},
        {"no experiment", "md-default-experiment", NA, .root = NULL},
        {"duplicate tool", "md-vendor-annotations", FAIL,
         .defs = "<VendorAnnotations><Tool name=\"A\"/><Tool name=\"B\"/><Tool name=\"A\"><x/></Tool>"
                 "</VendorAnnotations>", .nmessages = 1},
    };
    RUN(c);
}

/* ---------------------------------------------------------------- variables */

#define SV(attrs, type) "<ScalarVariable " attrs "><" type "/></ScalarVariable>\n"

Test(md_vars, names_types_causality_initial)
{
    static const tcase c[] = {
        {"duplicate name", "md-var-names", FAIL,
         .vars = SV("name=\"x\" valueReference=\"1\"", "Real") SV("name=\"y\" valueReference=\"2\"", "Real")
             SV("name=\"x\" valueReference=\"3\"", "Real"), .nmessages = 1},
        {"empty name", "md-var-names", FAIL, .vars = SV("name=\"\" valueReference=\"1\"", "Real")},
        {"no type element", "md-var-type-element", FAIL,
         .vars = "<ScalarVariable name=\"x\" valueReference=\"1\"/>", .nmessages = 1},
        {"two type elements", "md-var-type-element", FAIL,
         .vars = "<ScalarVariable name=\"x\" valueReference=\"1\"><Real/><Integer/></ScalarVariable>",
         .nmessages = 1, .quiet = "md-element-order"},
        {"Integer default continuous", "md-var-variability-type", FAIL,
         .vars = SV("name=\"i\" valueReference=\"1\"", "Integer"), .nmessages = 1},
        {"Boolean explicit continuous", "md-var-variability-type", FAIL,
         .vars = SV("name=\"b\" valueReference=\"1\" variability=\"continuous\"", "Boolean")},
        {"Enumeration discrete ok", "md-var-variability-type", PASS,
         .vars = SV("name=\"b\" valueReference=\"1\" variability=\"discrete\"", "String")},
        {"parameter default continuous", "md-var-causality-variability", FAIL,
         .vars = "<ScalarVariable name=\"p\" valueReference=\"1\" causality=\"parameter\">"
                 "<Real start=\"1\"/></ScalarVariable>", .nmessages = 1},
        {"parameter constant", "md-var-causality-variability", FAIL,
         .vars = "<ScalarVariable name=\"p\" valueReference=\"1\" causality=\"parameter\" "
                 "variability=\"constant\"><Real start=\"1\"/></ScalarVariable>"},
        {"calculatedParameter constant", "md-var-causality-variability", FAIL,
         .vars = SV("name=\"p\" valueReference=\"1\" causality=\"calculatedParameter\" "
                    "variability=\"constant\"", "Real")},
        {"fixed input", "md-var-causality-variability", FAIL,
         .vars = "<ScalarVariable name=\"u\" valueReference=\"1\" causality=\"input\" "
                 "variability=\"fixed\"><Real start=\"1\"/></ScalarVariable>"},
        {"tunable output", "md-var-causality-variability", FAIL,
         .vars = SV("name=\"y\" valueReference=\"1\" causality=\"output\" variability=\"tunable\"",
                    "Real")},
        {"discrete independent", "md-var-causality-variability", FAIL,
         .vars = SV("name=\"t\" valueReference=\"1\" causality=\"independent\" variability=\"discrete\"",
                    "Real")},
        {"parameter calculated", "md-var-initial", FAIL,
         .vars = "<ScalarVariable name=\"p\" valueReference=\"1\" causality=\"parameter\" "
                 "variability=\"fixed\" initial=\"calculated\"><Real/></ScalarVariable>",
         .quiet = "md-var-start-required"},
        {"input with initial", "md-var-initial", FAIL,
         .vars = "<ScalarVariable name=\"u\" valueReference=\"1\" causality=\"input\" "
                 "initial=\"exact\"><Real start=\"0\"/></ScalarVariable>"},
        {"independent with initial", "md-var-initial", FAIL,
         .vars = SV("name=\"t\" valueReference=\"1\" causality=\"independent\" initial=\"calculated\"",
                    "Real")},
        {"constant approx", "md-var-initial", FAIL,
         .vars = "<ScalarVariable name=\"c\" valueReference=\"1\" causality=\"output\" "
                 "variability=\"constant\" initial=\"approx\"><Real start=\"1\"/></ScalarVariable>"},
        {"calculatedParameter exact", "md-var-initial", FAIL,
         .vars = "<ScalarVariable name=\"c\" valueReference=\"1\" causality=\"calculatedParameter\" "
                 "variability=\"tunable\" initial=\"exact\"><Real start=\"1\"/></ScalarVariable>"},
        {"invalid cell not initial's", "md-var-initial", PASS,
         .vars = "<ScalarVariable name=\"p\" valueReference=\"1\" causality=\"parameter\" "
                 "initial=\"exact\"><Real start=\"1\"/></ScalarVariable>"},
        {"local approx ok", "md-var-initial", PASS,
         .vars = "<ScalarVariable name=\"l\" valueReference=\"1\" variability=\"fixed\" "
                 "initial=\"approx\"><Real start=\"1\"/></ScalarVariable>"},
    };
    RUN(c);
}

Test(md_vars, start_rules)
{
    static const tcase c[] = {
        {"parameter without start", "md-var-start-required", FAIL,
         .vars = SV("name=\"p\" valueReference=\"1\" causality=\"parameter\" variability=\"fixed\"",
                    "Real"), .nmessages = 1},
        {"input without start", "md-var-start-required", FAIL,
         .vars = SV("name=\"u\" valueReference=\"1\" causality=\"input\"", "Real")},
        {"constant without start", "md-var-start-required", FAIL,
         .vars = SV("name=\"c\" valueReference=\"1\" variability=\"constant\"", "Real")},
        {"output exact without start", "md-var-start-required", FAIL,
         .vars = SV("name=\"y\" valueReference=\"1\" causality=\"output\" initial=\"exact\"", "Real")},
        {"local approx without start", "md-var-start-required", FAIL,
         .vars = SV("name=\"l\" valueReference=\"1\" initial=\"approx\"", "Real")},
        {"calculated output without start ok", "md-var-start-required", PASS,
         .vars = SV("name=\"y\" valueReference=\"1\" causality=\"output\"", "Real")},
        {"output with start, no initial", "md-var-start-forbidden", FAIL,
         .vars = "<ScalarVariable name=\"y\" valueReference=\"1\" causality=\"output\">"
                 "<Real start=\"1\"/></ScalarVariable>", .nmessages = 1},
        {"calculatedParameter with start", "md-var-start-forbidden", FAIL,
         .vars = "<ScalarVariable name=\"c\" valueReference=\"1\" causality=\"calculatedParameter\" "
                 "variability=\"fixed\"><Real start=\"1\"/></ScalarVariable>"},
        {"independent with start", "md-var-start-forbidden", FAIL,
         .vars = "<ScalarVariable name=\"t\" valueReference=\"1\" causality=\"independent\">"
                 "<Real start=\"0\"/></ScalarVariable>"},
        {"local calculated with start", "md-var-start-forbidden", FAIL,
         .vars = "<ScalarVariable name=\"l\" valueReference=\"1\" variability=\"discrete\" "
                 "initial=\"calculated\"><Integer start=\"0\"/></ScalarVariable>"},
        {"start above max", "md-var-start-range", FAIL,
         .vars = "<ScalarVariable name=\"p\" valueReference=\"1\" causality=\"parameter\" "
                 "variability=\"fixed\"><Real start=\"5\" min=\"0\" max=\"1\"/></ScalarVariable>",
         .nmessages = 1},
        {"start below declaredType min", "md-var-start-range", FAIL,
         .defs = "<TypeDefinitions><SimpleType name=\"T\"><Real min=\"0\"/></SimpleType></TypeDefinitions>",
         .vars = "<ScalarVariable name=\"p\" valueReference=\"1\" causality=\"parameter\" "
                 "variability=\"fixed\"><Real declaredType=\"T\" start=\"-1\"/></ScalarVariable>"},
        {"integer start below min", "md-var-start-range", FAIL,
         .vars = "<ScalarVariable name=\"n\" valueReference=\"1\" causality=\"parameter\" "
                 "variability=\"fixed\"><Integer start=\"0\" min=\"1\"/></ScalarVariable>"},
        {"variable min overrides type", "md-var-start-range", PASS,
         .defs = "<TypeDefinitions><SimpleType name=\"T\"><Real min=\"0\"/></SimpleType></TypeDefinitions>",
         .vars = "<ScalarVariable name=\"p\" valueReference=\"1\" causality=\"parameter\" "
                 "variability=\"fixed\"><Real declaredType=\"T\" min=\"-2\" start=\"-1\"/>"
                 "</ScalarVariable>"},
        {"start at bounds", "md-var-start-range", PASS,
         .vars = "<ScalarVariable name=\"p\" valueReference=\"1\" causality=\"parameter\" "
                 "variability=\"fixed\"><Real start=\"1\" min=\"1\" max=\"1\"/></ScalarVariable>"},
    };
    RUN(c);
}

#define ENUM_T "<TypeDefinitions><SimpleType name=\"E\"><Enumeration><Item name=\"a\" value=\"1\"/>" \
               "<Item name=\"b\" value=\"3\"/></Enumeration></SimpleType>"                        \
               "<SimpleType name=\"I\"><Integer/></SimpleType></TypeDefinitions>"

Test(md_vars, bounds_types_enumerations)
{
    static const tcase c[] = {
        {"min > max", "md-var-min-max", FAIL,
         .vars = SV("name=\"x\" valueReference=\"1\"", "Real min=\"2\" max=\"1\""), .nmessages = 1},
        {"nominal negative", "md-var-min-max", FAIL,
         .vars = SV("name=\"x\" valueReference=\"1\"", "Real nominal=\"-1\"")},
        {"min above type max", "md-var-min-max", FAIL,
         .defs = "<TypeDefinitions><SimpleType name=\"T\"><Real max=\"3\"/></SimpleType></TypeDefinitions>",
         .vars = SV("name=\"x\" valueReference=\"1\"", "Real declaredType=\"T\" min=\"5\"")},
        {"bounds ok", "md-var-min-max", PASS,
         .vars = SV("name=\"x\" valueReference=\"1\"", "Real min=\"-1\" max=\"1\" nominal=\"1e-3\"")},
        {"undefined declaredType", "md-var-declared-type", FAIL,
         .vars = SV("name=\"x\" valueReference=\"1\"", "Real declaredType=\"Nope\""), .nmessages = 1},
        {"Real with Integer type", "md-var-declared-type", FAIL, .defs = ENUM_T,
         .vars = SV("name=\"x\" valueReference=\"1\"", "Real declaredType=\"I\"")},
        {"Enumeration with Integer type", "md-var-declared-type", FAIL, .defs = ENUM_T,
         .vars = SV("name=\"x\" valueReference=\"1\" variability=\"discrete\"",
                    "Enumeration declaredType=\"I\"")},
        {"Enumeration without declaredType", "md-var-enumeration", FAIL,
         .vars = SV("name=\"x\" valueReference=\"1\" variability=\"discrete\"", "Enumeration"),
         .nmessages = 1, .quiet = "md-required-attributes"},
        {"enumeration start not an item", "md-var-enumeration-start", WARN, .defs = ENUM_T,
         .vars = "<ScalarVariable name=\"e\" valueReference=\"1\" causality=\"parameter\" "
                 "variability=\"fixed\"><Enumeration declaredType=\"E\" start=\"2\"/></ScalarVariable>",
         .nmessages = 1},
        {"enumeration start an item", "md-var-enumeration-start", PASS, .defs = ENUM_T,
         .vars = "<ScalarVariable name=\"e\" valueReference=\"1\" causality=\"parameter\" "
                 "variability=\"fixed\"><Enumeration declaredType=\"E\" start=\"3\"/></ScalarVariable>"},
    };
    RUN(c);
}

Test(md_vars, derivative_reinit_multiset_units_independent)
{
    static const tcase c[] = {
        {"derivative out of range", "md-var-derivative", FAIL,
         .vars = SV("name=\"x\" valueReference=\"1\"", "Real") SV("name=\"der(x)\" valueReference=\"2\"",
                                                                   "Real derivative=\"3\""),
         .nmessages = 1},
        {"derivative zero", "md-var-derivative", FAIL,
         .vars = SV("name=\"der(x)\" valueReference=\"2\"", "Real derivative=\"0\"")},
        {"derivative of an Integer", "md-var-derivative", FAIL,
         .vars = SV("name=\"i\" valueReference=\"1\" variability=\"discrete\"", "Integer")
             SV("name=\"der(i)\" valueReference=\"2\"", "Real derivative=\"1\"")},
        {"derivative not a number", "md-var-derivative", PASS,
         .vars = SV("name=\"x\" valueReference=\"1\"", "Real") SV("name=\"der(x)\" valueReference=\"2\"",
                                                                   "Real derivative=\"one\"")},
        {"reinit in CS-only", "md-var-reinit", FAIL, .ifaces = "<CoSimulation modelIdentifier=\"M\"/>",
         .vars = SV("name=\"x\" valueReference=\"1\"", "Real reinit=\"false\"")
             SV("name=\"der(x)\" valueReference=\"2\"", "Real derivative=\"1\""), .nmessages = 1},
        {"reinit on non-state", "md-var-reinit", FAIL,
         .vars = SV("name=\"x\" valueReference=\"1\"", "Real reinit=\"true\"")},
        {"reinit on state ok", "md-var-reinit", PASS,
         .vars = SV("name=\"x\" valueReference=\"1\"", "Real reinit=\"true\"")
             SV("name=\"der(x)\" valueReference=\"2\"", "Real derivative=\"1\"")},
        {"multiset in CS-only", "md-var-multiset", FAIL, .ifaces = "<CoSimulation modelIdentifier=\"M\"/>",
         .vars = "<ScalarVariable name=\"u\" valueReference=\"1\" causality=\"input\" "
                 "canHandleMultipleSetPerTimeInstant=\"true\"><Real start=\"0\"/></ScalarVariable>"},
        {"multiset on output", "md-var-multiset", FAIL,
         .vars = SV("name=\"y\" valueReference=\"1\" causality=\"output\" "
                    "canHandleMultipleSetPerTimeInstant=\"false\"", "Real")},
        {"multiset on ME input ok", "md-var-multiset", PASS,
         .vars = "<ScalarVariable name=\"u\" valueReference=\"1\" causality=\"input\" "
                 "canHandleMultipleSetPerTimeInstant=\"false\"><Real start=\"0\"/></ScalarVariable>"},
        {"unit undefined", "md-var-units", FAIL,
         .vars = SV("name=\"x\" valueReference=\"1\"", "Real unit=\"m\""), .nmessages = 1},
        {"empty unit undefined", "md-var-units", FAIL, .defs = UNITS_M,
         .vars = SV("name=\"x\" valueReference=\"1\"", "Real unit=\"\"")},
        {"displayUnit without unit", "md-var-units", FAIL, .defs = UNITS_M,
         .vars = SV("name=\"x\" valueReference=\"1\"", "Real displayUnit=\"mm\"")},
        {"displayUnit with type unit ok", "md-var-units", PASS,
         .defs = UNITS_M "<TypeDefinitions><SimpleType name=\"L\"><Real unit=\"m\"/></SimpleType>"
                 "</TypeDefinitions>",
         .vars = SV("name=\"x\" valueReference=\"1\"", "Real declaredType=\"L\" displayUnit=\"mm\"")},
        {"displayUnit not listed", "md-display-unit-known", WARN, .defs = UNITS_M,
         .vars = SV("name=\"x\" valueReference=\"1\"", "Real unit=\"m\" displayUnit=\"km\""),
         .nmessages = 1, .quiet = "md-var-units"},
        {"type displayUnit not listed", "md-display-unit-known", WARN,
         .defs = UNITS_M "<TypeDefinitions><SimpleType name=\"L\"><Real unit=\"s\" displayUnit=\"mm\"/>"
                 "</SimpleType></TypeDefinitions>", .quiet = "md-type-definitions"},
        {"displayUnit listed", "md-display-unit-known", PASS, .defs = UNITS_M,
         .vars = SV("name=\"x\" valueReference=\"1\"", "Real unit=\"m\" displayUnit=\"mm\"")},
        {"two independents", "md-independent", FAIL,
         .vars = SV("name=\"t\" valueReference=\"1\" causality=\"independent\"", "Real")
             SV("name=\"t2\" valueReference=\"2\" causality=\"independent\"", "Real"), .nmessages = 1},
        {"Integer independent", "md-independent", FAIL,
         .vars = SV("name=\"t\" valueReference=\"1\" causality=\"independent\"", "Integer")},
        {"no independent", "md-independent", NA, .root = NULL},
    };
    RUN(c);
}

/* ---------------------------------------------------------------- helpers */

Test(md_util, datetime_parser)
{
    int utc;
    cr_expect(fmuc_mdu__parse_datetime("2024-01-15T09:28:29Z", &utc) && utc);
    cr_expect(fmuc_mdu__parse_datetime("2024-01-15T09:28:29.123Z", &utc) && utc);
    cr_expect(fmuc_mdu__parse_datetime(" 2024-01-15T09:28:29-05:00 ", &utc) && !utc);
    cr_expect(fmuc_mdu__parse_datetime("2024-01-15T24:00:00", &utc) && !utc);
    cr_expect(fmuc_mdu__parse_datetime("12024-01-15T10:00:00Z", &utc) && !utc);
    cr_expect(!fmuc_mdu__parse_datetime("2023-02-29T00:00:00Z", NULL));
    cr_expect(!fmuc_mdu__parse_datetime("2024-13-01T00:00:00Z", NULL));
    cr_expect(!fmuc_mdu__parse_datetime("2024-01-15", NULL));
    cr_expect(!fmuc_mdu__parse_datetime("2024-01-15T09:28", NULL));
    cr_expect(!fmuc_mdu__parse_datetime("2024-01-15T24:00:01", NULL));
    cr_expect(!fmuc_mdu__parse_datetime("0000-01-15T10:00:00", NULL));
    cr_expect(!fmuc_mdu__parse_datetime("2024-01-15T10:00:00+15:00", NULL));
    cr_expect(!fmuc_mdu__parse_datetime("", NULL));
}

Test(md_util, special_doubles_and_maps)
{
    cr_expect(fmuc_mdu__is_special_double("INF"));
    cr_expect(fmuc_mdu__is_special_double(" -inf "));
    cr_expect(fmuc_mdu__is_special_double("+INF"));
    cr_expect(fmuc_mdu__is_special_double("NaN"));
    cr_expect(fmuc_mdu__is_special_double("Infinity"));
    cr_expect(!fmuc_mdu__is_special_double("1e999"));
    cr_expect(!fmuc_mdu__is_special_double("info"));
    cr_expect(!fmuc_mdu__is_special_double(NULL));

    fmuc_mdu_map m;
    cr_assert_eq(fmuc_mdu__map_init(&m, 1), 0);
    char keys[1000][16];
    for (int i = 0; i < 1000; i++) {
        snprintf(keys[i], sizeof keys[i], "k%d", i);
        cr_assert_eq(fmuc_mdu__map_put(&m, keys[i], (size_t)i, NULL), 1);
    }
    size_t v = 0;
    cr_expect_eq(fmuc_mdu__map_put(&m, "k7", 99, &v), 0);
    cr_expect_eq(v, 7);
    cr_expect(fmuc_mdu__map_get(&m, "k999", &v) && v == 999);
    cr_expect(!fmuc_mdu__map_get(&m, "k1000", NULL));
    fmuc_mdu__map_free(&m);

    fmuc_mdu_imap im;
    cr_assert_eq(fmuc_mdu__imap_init(&im, 0), 0);
    for (uint64_t i = 0; i < 5000; i++)
        cr_assert_eq(fmuc_mdu__imap_put(&im, i * 7919u, (size_t)i, NULL), 1);
    cr_expect(fmuc_mdu__imap_get(&im, 7919u * 4999u, &v) && v == 4999);
    cr_expect(!fmuc_mdu__imap_get(&im, 1, NULL));
    fmuc_mdu__imap_free(&im);

    char b[32];
    cr_expect_str_eq(fmuc_md_fmt_double(b, 0.1), "0.1");
    cr_expect_str_eq(fmuc_md_fmt_double(b, 1.0 / 3.0), "0.33333333333333331");
}

Test(md_util, cell_table)
{
    int valid = 0;
    for (unsigned c = 0; c <= FMUC_CAUS_INDEPENDENT; c++)
        for (unsigned v = 0; v <= FMUC_VAR_CONTINUOUS; v++)
            valid += fmuc_mdu__cell_valid(c, v);
    cr_expect_eq(valid, 15);
    cr_expect_eq(fmuc_mdu__initial_default(FMUC_CAUS_PARAMETER, FMUC_VAR_FIXED), FMUC_INIT_EXACT);
    cr_expect_eq(fmuc_mdu__initial_default(FMUC_CAUS_OUTPUT, FMUC_VAR_CONTINUOUS),
                 FMUC_INIT_CALCULATED);
    cr_expect_eq(fmuc_mdu__initial_default(FMUC_CAUS_INPUT, FMUC_VAR_DISCRETE), FMUC_INIT_NONE);
    cr_expect(!fmuc_mdu__initial_allowed(FMUC_CAUS_LOCAL, FMUC_VAR_FIXED, FMUC_INIT_EXACT));
    cr_expect(fmuc_mdu__initial_allowed(FMUC_CAUS_LOCAL, FMUC_VAR_DISCRETE, FMUC_INIT_EXACT));
}

/* ---------------------------------------------------------------- scale */

/* Many variables with duplicates everywhere: every check must stay near-linear. */
Test(md_scale, many_variables_run_fast, .timeout = 60)
{
    const size_t n = 200000;
    size_t cap = n * 160 + 4096, len = 0;
    char *xml = malloc(cap);
    cr_assert(xml);
    len += (size_t)snprintf(xml + len, cap - len,
                            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<fmiModelDescription "
                            "fmiVersion=\"2.0\" modelName=\"M\" guid=\"{1}\">\n"
                            "<ModelExchange modelIdentifier=\"M\"/>\n<UnitDefinitions><Unit name=\"m\"/>"
                            "</UnitDefinitions>\n<ModelVariables>\n");
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(xml + len, cap - len,
                                "<ScalarVariable name=\"v%zu\" valueReference=\"%zu\" "
                                "causality=\"output\"><Real unit=\"m\" start=\"1\" "
                                "derivative=\"%zu\"/></ScalarVariable>\n",
                                i % 2 ? i : i + 1, i / 2, (i % n) + 1);
    len += (size_t)snprintf(xml + len, cap - len,
                            "</ModelVariables>\n<ModelStructure/>\n</fmiModelDescription>\n");
    fmuc_fmu fmu;
    parse_into(&fmu, xml);
    cr_assert_eq(fmu.md.nvars, n);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (size_t i = 0; mine[i]; i++)
        (void)run_on(mine[i], &fmu);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double dt = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    cr_expect(dt < 20.0, "all md checks took %.2f s on %zu variables", dt, n);
    outcome o = run_on(find("md-var-names"), &fmu);
    cr_expect_eq(o.verdict, FMUC_VERDICT_FAIL);
    cr_expect_eq(o.nmessages, n / 2 - 0, "got %zu duplicate-name messages", o.nmessages);
    fmuc_md_free(&fmu.md);
    free(xml);
}
