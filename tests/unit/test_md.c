/* Tests of the streaming modelDescription.xml parser (harness/src/md_parse.c). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fmuc/fmuc_md.h"

static const char GOOD[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"                                          /* 1 */
    "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"Good\" guid=\"{1234}\"\n"        /* 2 */
    "  description=\"d\" author=\"a\" version=\"1.1\" copyright=\"c\" license=\"l\"\n"     /* 3 */
    "  generationTool=\"gt\" generationDateAndTime=\"2024-01-01T00:00:00Z\"\n"            /* 4 */
    "  variableNamingConvention=\"structured\" numberOfEventIndicators=\"2\"\n"           /* 5 */
    "  xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:noNamespaceSchemaLocation=\"x.xsd\">\n" /* 6 */
    "  <ModelExchange modelIdentifier=\"good\" needsExecutionTool=\"false\"\n"             /* 7 */
    "    completedIntegratorStepNotNeeded=\"true\" canBeInstantiatedOnlyOncePerProcess=\"0\"\n" /* 8 */
    "    canNotUseMemoryManagementFunctions=\"1\" canGetAndSetFMUstate=\"true\"\n"        /* 9 */
    "    canSerializeFMUstate=\"true\" providesDirectionalDerivative=\"false\">\n"         /* 10 */
    "    <SourceFiles><File name=\"a.c\"/><File name=\"b.c\"/></SourceFiles>\n"           /* 11 */
    "  </ModelExchange>\n"                                                                 /* 12 */
    "  <CoSimulation modelIdentifier=\"goodcs\" canHandleVariableCommunicationStepSize=\"true\"\n" /* 13 */
    "    canInterpolateInputs=\"true\" maxOutputDerivativeOrder=\"2\" canRunAsynchronuously=\"false\"/>\n" /* 14 */
    "  <UnitDefinitions>\n"                                                                /* 15 */
    "    <Unit name=\"rad/s\"><BaseUnit s=\"-1\" rad=\"1\" factor=\"2\" offset=\"0.5\"/>\n"  /* 16 */
    "      <DisplayUnit name=\"rpm\" factor=\"9.549\"/><DisplayUnit name=\"x\" offset=\"1\"/></Unit>\n" /* 17 */
    "    <Unit name=\"m\"/>\n"                                                             /* 18 */
    "  </UnitDefinitions>\n"                                                               /* 19 */
    "  <TypeDefinitions>\n"                                                                /* 20 */
    "    <SimpleType name=\"Speed\" description=\"sp\"><Real quantity=\"AngularVelocity\" unit=\"rad/s\"\n" /* 21 */
    "      displayUnit=\"rpm\" relativeQuantity=\"true\" min=\"-1e3\" max=\"1E3\" nominal=\"10\" unbounded=\"true\"/></SimpleType>\n" /* 22 */
    "    <SimpleType name=\"Mode\"><Enumeration quantity=\"q\"><Item name=\"off\" value=\"0\"/>\n" /* 23 */
    "      <Item name=\"on\" value=\"-1\" description=\"On\"/></Enumeration></SimpleType>\n" /* 24 */
    "    <SimpleType name=\"Count\"><Integer min=\"0\" max=\"10\"/></SimpleType>\n"      /* 25 */
    "  </TypeDefinitions>\n"                                                               /* 26 */
    "  <LogCategories><Category name=\"logAll\" description=\"all\"/><Category name=\"logEvents\"/></LogCategories>\n" /* 27 */
    "  <DefaultExperiment startTime=\"0\" stopTime=\"10.5\" tolerance=\"1e-6\" stepSize=\"0.01\"/>\n" /* 28 */
    "  <VendorAnnotations><Tool name=\"T\"><anything deep=\"1\"><x/></anything></Tool></VendorAnnotations>\n" /* 29 */
    "  <ModelVariables>\n"                                                                 /* 30 */
    "    <ScalarVariable name=\"x\" valueReference=\"0\" description=\"state\" initial=\"exact\">\n" /* 31 */
    "      <Real start=\"1.5\" min=\"-2\" max=\"2\" nominal=\"1\" reinit=\"true\"/></ScalarVariable>\n" /* 32 */
    "    <ScalarVariable name=\"der(x)\" valueReference=\"1\"><Real derivative=\"1\" declaredType=\"Speed\"/></ScalarVariable>\n" /* 33 */
    "    <ScalarVariable name=\"k\" valueReference=\"2\" causality=\"parameter\" variability=\"fixed\">\n" /* 34 */
    "      <Integer start=\"-7\" quantity=\"n\" min=\"-10\" max=\"10\"/>\n"               /* 35 */
    "      <Annotations><Tool name=\"T\"><y/></Tool></Annotations></ScalarVariable>\n"      /* 36 */
    "    <ScalarVariable name=\"b\" valueReference=\"3\" causality=\"input\" variability=\"discrete\"\n" /* 37 */
    "      canHandleMultipleSetPerTimeInstant=\"false\"><Boolean start=\"true\"/></ScalarVariable>\n" /* 38 */
    "    <ScalarVariable name=\"s\" valueReference=\"4\" causality=\"parameter\" variability=\"tunable\"><String start=\"hi\"/></ScalarVariable>\n" /* 39 */
    "    <ScalarVariable name=\"e\" valueReference=\"5\" causality=\"output\" variability=\"discrete\"><Enumeration declaredType=\"Mode\" min=\"-1\" max=\"0\"/></ScalarVariable>\n" /* 40 */
    "    <ScalarVariable name=\"t\" valueReference=\"6\" causality=\"independent\"><Real unit=\"s\"/></ScalarVariable>\n" /* 41 */
    "  </ModelVariables>\n"                                                                /* 42 */
    "  <ModelStructure>\n"                                                                 /* 43 */
    "    <Outputs><Unknown index=\"6\" dependencies=\"\"/></Outputs>\n"                    /* 44 */
    "    <Derivatives><Unknown index=\"2\" dependencies=\"1 4\" dependenciesKind=\"dependent fixed\"/></Derivatives>\n" /* 45 */
    "    <InitialUnknowns><Unknown index=\"2\"/><Unknown index=\"6\"/></InitialUnknowns>\n" /* 46 */
    "  </ModelStructure>\n"                                                                /* 47 */
    "</fmiModelDescription>\n";

static fmuc_md parse_ok(const char *xml)
{
    fmuc_md md;
    fmuc_err e = fmuc_md_parse(&md, xml, strlen(xml), NULL);
    cr_assert_eq(e, FMUC_OK, "parse returned %d", e);
    return md;
}

static size_t count_kind(const fmuc_md *md, int kind)
{
    size_t n = 0;
    for (size_t i = 0; i < md->nissues; i++)
        n += md->issues[i].kind == kind;
    return n;
}

static const fmuc_md_issue *find_issue(const fmuc_md *md, int kind, const char *attr)
{
    for (size_t i = 0; i < md->nissues; i++)
        if (md->issues[i].kind == kind &&
            (!attr || (md->issues[i].attribute && strcmp(md->issues[i].attribute, attr) == 0)))
            return &md->issues[i];
    return NULL;
}

/* Wrap variables / structure into a minimal valid document. */
static char *doc(const char *vars, const char *structure)
{
    size_t n = strlen(vars) + strlen(structure) + 512;
    char *s = malloc(n);
    snprintf(s, n,
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"m\" guid=\"g\">\n"
             "<CoSimulation modelIdentifier=\"m\"/>\n"
             "<ModelVariables>\n%s</ModelVariables>\n"
             "<ModelStructure>%s</ModelStructure>\n"
             "</fmiModelDescription>\n",
             vars, structure);
    return s;
}

Test(md, good_document_fills_every_element)
{
    fmuc_md md = parse_ok(GOOD);
    for (size_t i = 0; i < md.nissues; i++)
        cr_log_error("unexpected issue: %s", md.issues[i].message);
    cr_assert_eq(md.nissues, 0);
    cr_assert_str_eq(md.fmi_version, "2.0");
    cr_assert_str_eq(md.model_name, "Good");
    cr_assert_str_eq(md.guid, "{1234}");
    cr_assert_str_eq(md.description, "d");
    cr_assert_str_eq(md.author, "a");
    cr_assert_str_eq(md.version, "1.1");
    cr_assert_str_eq(md.copyright, "c");
    cr_assert_str_eq(md.license, "l");
    cr_assert_str_eq(md.generation_tool, "gt");
    cr_assert_str_eq(md.generation_date_and_time, "2024-01-01T00:00:00Z");
    cr_assert_str_eq(md.variable_naming_convention, "structured");
    cr_assert_str_eq(md.root_name, "fmiModelDescription");
    cr_assert_eq(md.root_line, 2); /* line of the start tag's '<' */
    cr_assert(md.has_number_of_event_indicators);
    cr_assert_eq(md.number_of_event_indicators, 2);

    cr_assert(md.me.present);
    cr_assert_eq(md.me.count, 1);
    cr_assert_eq(md.me.line, 7);
    cr_assert_str_eq(md.me.model_identifier, "good");
    unsigned me_caps = (1u << FMUC_CAP_COMPLETED_INTEGRATOR_STEP_NOT_NEEDED) |
                       (1u << FMUC_CAP_CAN_NOT_USE_MEMORY_MANAGEMENT_FUNCTIONS) |
                       (1u << FMUC_CAP_CAN_GET_AND_SET_FMU_STATE) |
                       (1u << FMUC_CAP_CAN_SERIALIZE_FMU_STATE);
    cr_assert_eq(md.me.caps, me_caps);
    cr_assert_eq(md.me.caps_explicit, (1u << 7) - 1);
    cr_assert_eq(md.me.nsource_files, 2);
    cr_assert_str_eq(md.me.source_files[1], "b.c");
    cr_assert(md.cs.present);
    cr_assert_str_eq(md.cs.model_identifier, "goodcs");
    cr_assert_eq(md.cs.caps, (1u << FMUC_CAP_CAN_HANDLE_VARIABLE_COMMUNICATION_STEP_SIZE) |
                                 (1u << FMUC_CAP_CAN_INTERPOLATE_INPUTS));
    cr_assert(md.cs.caps_explicit & (1u << FMUC_CAP_CAN_RUN_ASYNCHRONUOUSLY));
    cr_assert(md.cs.has_max_output_derivative_order);
    cr_assert_eq(md.cs.max_output_derivative_order, 2);

    cr_assert_eq(md.nunits, 2);
    cr_assert_str_eq(md.units[0].name, "rad/s");
    cr_assert(md.units[0].has_base_unit);
    cr_assert_eq(md.units[0].exp[2], -1);
    cr_assert_eq(md.units[0].exp[7], 1);
    cr_assert_eq(md.units[0].exp[0], 0);
    cr_assert_float_eq(md.units[0].factor, 2.0, 1e-15);
    cr_assert_float_eq(md.units[0].offset, 0.5, 1e-15);
    cr_assert_eq(md.units[0].ndisplay, 2);
    cr_assert_str_eq(md.units[0].display[0].name, "rpm");
    cr_assert_float_eq(md.units[0].display[0].factor, 9.549, 1e-12);
    cr_assert_float_eq(md.units[0].display[1].factor, 1.0, 0);
    cr_assert_float_eq(md.units[0].display[1].offset, 1.0, 0);
    cr_assert_eq(md.units[1].ndisplay, 0);
    cr_assert(!md.units[1].has_base_unit);
    cr_assert_eq(md.units[1].line, 18);

    cr_assert_eq(md.ntypes, 3);
    const fmuc_md_type *sp = &md.types[0];
    cr_assert_str_eq(sp->name, "Speed");
    cr_assert_str_eq(sp->description, "sp");
    cr_assert_eq(sp->type, FMUC_TYPE_REAL);
    cr_assert_eq(sp->ntypes, 1);
    cr_assert_str_eq(sp->quantity, "AngularVelocity");
    cr_assert_str_eq(sp->unit, "rad/s");
    cr_assert_str_eq(sp->display_unit, "rpm");
    cr_assert_float_eq(sp->min, -1000.0, 0);
    cr_assert_float_eq(sp->max, 1000.0, 0);
    cr_assert_float_eq(sp->nominal, 10.0, 0);
    cr_assert_eq(sp->flags, FMUC_FLAG_RELATIVE_QUANTITY | FMUC_FLAG_UNBOUNDED);
    cr_assert(sp->has & FMUC_HAS_MIN && sp->has & FMUC_HAS_NOMINAL && sp->has & FMUC_HAS_UNIT);
    const fmuc_md_type *mode = &md.types[1];
    cr_assert_eq(mode->type, FMUC_TYPE_ENUMERATION);
    cr_assert_eq(mode->nitems, 2);
    cr_assert_str_eq(mode->items[1].name, "on");
    cr_assert_eq(mode->items[1].value, -1);
    cr_assert(mode->items[1].has_value);
    cr_assert_str_eq(mode->items[1].description, "On");
    cr_assert_eq(md.types[2].type, FMUC_TYPE_INTEGER);
    cr_assert_float_eq(md.types[2].max, 10.0, 0);

    cr_assert_eq(md.ncategories, 2);
    cr_assert_str_eq(md.categories[0].description, "all");
    cr_assert_str_eq(md.categories[1].name, "logEvents");
    cr_assert(md.experiment.present);
    cr_assert(md.experiment.has_start && md.experiment.has_stop && md.experiment.has_tolerance &&
              md.experiment.has_step);
    cr_assert_float_eq(md.experiment.stop_time, 10.5, 0);
    cr_assert_float_eq(md.experiment.tolerance, 1e-6, 1e-20);
    cr_assert_eq(md.ntools, 1);
    cr_assert_str_eq(md.tools[0], "T");
    cr_assert_eq(md.tool_lines[0], 29);

    cr_assert_eq(md.nvars, 7);
    const fmuc_md_var *x = fmuc_md_var_at(&md, 1);
    cr_assert_str_eq(x->name, "x");
    cr_assert_str_eq(x->description, "state");
    cr_assert_eq(x->line, 31);
    cr_assert_eq(x->type_line, 32);
    cr_assert_eq(x->type, FMUC_TYPE_REAL);
    cr_assert_eq(x->causality, FMUC_CAUS_LOCAL);
    cr_assert_eq(x->variability, FMUC_VAR_CONTINUOUS);
    cr_assert(!(x->has & (FMUC_HAS_CAUSALITY | FMUC_HAS_VARIABILITY)));
    cr_assert_eq(x->initial, FMUC_INIT_EXACT);
    cr_assert_str_eq(x->start_text, "1.5");
    cr_assert_float_eq(x->start, 1.5, 0);
    cr_assert_float_eq(x->min, -2.0, 0);
    cr_assert_float_eq(x->nominal, 1.0, 0);
    cr_assert(x->flags & FMUC_FLAG_REINIT);
    cr_assert(x->has & FMUC_HAS_REINIT && x->has & FMUC_HAS_START);
    const fmuc_md_var *dx = fmuc_md_var_at(&md, 2);
    cr_assert_eq(dx->derivative, 1);
    cr_assert_str_eq(dx->declared_type, "Speed");
    cr_assert(dx->has & FMUC_HAS_DERIVATIVE);
    cr_assert(!(dx->has & FMUC_HAS_START));
    cr_assert_null(dx->start_text);
    const fmuc_md_var *k = fmuc_md_var_at(&md, 3);
    cr_assert_eq(k->type, FMUC_TYPE_INTEGER);
    cr_assert_float_eq(k->start, -7.0, 0);
    cr_assert_str_eq(k->quantity, "n");
    cr_assert_eq(k->causality, FMUC_CAUS_PARAMETER);
    cr_assert_eq(k->variability, FMUC_VAR_FIXED);
    const fmuc_md_var *b = fmuc_md_var_at(&md, 4);
    cr_assert_eq(b->type, FMUC_TYPE_BOOLEAN);
    cr_assert_float_eq(b->start, 1.0, 0);
    cr_assert(b->has & FMUC_HAS_MULTISET);
    cr_assert(!(b->flags & FMUC_FLAG_MULTISET));
    cr_assert_str_eq(fmuc_md_var_at(&md, 5)->start_text, "hi");
    cr_assert_eq(fmuc_md_var_at(&md, 5)->type, FMUC_TYPE_STRING);
    const fmuc_md_var *e = fmuc_md_var_at(&md, 6);
    cr_assert_eq(e->type, FMUC_TYPE_ENUMERATION);
    cr_assert_str_eq(e->declared_type, "Mode");
    cr_assert_float_eq(e->min, -1.0, 0);
    cr_assert_eq(fmuc_md_var_at(&md, 7)->causality, FMUC_CAUS_INDEPENDENT);
    cr_assert_str_eq(fmuc_md_var_at(&md, 7)->unit, "s");
    cr_assert_null(fmuc_md_var_at(&md, 0));
    cr_assert_null(fmuc_md_var_at(&md, 8));

    cr_assert(md.has_model_variables && md.has_model_structure);
    cr_assert(md.has_outputs && md.has_derivatives && md.has_initial_unknowns);
    cr_assert_eq(md.noutputs, 1);
    cr_assert_eq(md.outputs[0].index, 6);
    cr_assert(md.outputs[0].has_deps);
    cr_assert_eq(md.outputs[0].ndeps, 0);
    cr_assert_eq(md.nderivatives, 1);
    cr_assert_eq(md.derivatives[0].ndeps, 2);
    cr_assert_eq(md.derivatives[0].deps[1], 4);
    cr_assert_eq(md.derivatives[0].nkinds, 2);
    cr_assert_eq(md.derivatives[0].kinds[1], FMUC_DEPKIND_FIXED);
    cr_assert_eq(md.derivatives[0].line, 45);
    cr_assert_eq(md.ninitial_unknowns, 2);
    cr_assert(!md.initial_unknowns[0].has_deps);

    cr_assert_eq(md.nchildren, 9);
    cr_assert_str_eq(md.children[0].name, "ModelExchange");
    cr_assert_str_eq(md.children[8].name, "ModelStructure");
    cr_assert_eq(md.children[8].line, 43);
    cr_assert(!md.parse_stopped);
    fmuc_md_free(&md);
}

/* --stop-time (fmuc_md_override_stop_time): the runs' experiment gets the new stop, the file's
 * stays readable; a stop before the start or within one stepSize is refused with the reason. */
Test(md, stop_time_override_keeps_the_declared_experiment)
{
    fmuc_md md = parse_ok(GOOD);
    char why[256] = "";
    cr_assert_eq(fmuc_md_override_stop_time(&md, 0.0, why, sizeof why), -1);
    cr_assert(strstr(why, "not after the start time 0 (DefaultExperiment startTime)"), "%s", why);
    cr_assert_eq(fmuc_md_override_stop_time(&md, 0.01, why, sizeof why), -1);
    cr_assert(strstr(why, "DefaultExperiment stepSize=0.01"), "%s", why);
    cr_assert_eq(fmuc_md_override_stop_time(&md, NAN, why, sizeof why), -1);
    cr_assert_eq(fmuc_md_declared_experiment(&md), &md.experiment, "nothing changed yet");
    cr_assert_eq(fmuc_md_override_stop_time(&md, 3.0, why, sizeof why), 0);
    cr_assert_float_eq(md.experiment.stop_time, 3.0, 0);
    cr_assert_float_eq(md.experiment.step_size, 0.01, 0);
    cr_assert_float_eq(fmuc_md_declared_experiment(&md)->stop_time, 10.5, 0);
    cr_assert_eq(fmuc_md_override_stop_time(&md, 4.0, why, sizeof why), 0);
    cr_assert_float_eq(fmuc_md_declared_experiment(&md)->stop_time, 10.5, 0, "a second override "
                       "keeps the file's values");
    fmuc_md_free(&md);

    /* no DefaultExperiment: the runs get one with only the stop time; start 0 by default */
    char *x = doc("<ScalarVariable name=\"x\" valueReference=\"1\"><Real/></ScalarVariable>\n", "");
    md = parse_ok(x);
    cr_assert_eq(fmuc_md_override_stop_time(&md, -1.0, why, sizeof why), -1);
    cr_assert(strstr(why, "start time 0 (default 0)"), "%s", why);
    cr_assert_eq(fmuc_md_override_stop_time(&md, 2.0, why, sizeof why), 0);
    cr_assert(md.experiment.present && md.experiment.has_stop && !md.experiment.has_start);
    cr_assert(!fmuc_md_declared_experiment(&md)->present);
    fmuc_md_free(&md);
    free(x);
}

Test(md, bad_numbers_booleans_and_enums_are_issues)
{
    char *x = doc("<ScalarVariable name=\"a\" valueReference=\"4294967296\" causality=\"bogus\""
                  " variability=\"sometimes\" initial=\"maybe\"><Real start=\"nan\" min=\"1,5\""
                  " max=\"INF\" nominal=\"1e400\" reinit=\"yes\"/></ScalarVariable>\n"
                  "<ScalarVariable name=\"b\" valueReference=\"-1\"><Integer start=\"2147483648\""
                  " max=\"0x10\"/></ScalarVariable>\n"
                  "<ScalarVariable name=\"c\" valueReference=\" 7 \" variability=\"discrete\">"
                  "<Real start=\" -1.25E-3 \" min=\".5\" max=\"5.\"/></ScalarVariable>\n",
                  "<InitialUnknowns><Unknown index=\"x\" dependencies=\"1 two 3\""
                  " dependenciesKind=\"dependent sometimes fixed\"/></InitialUnknowns>");
    fmuc_md md = parse_ok(x);
    const fmuc_md_var *a = fmuc_md_var_at(&md, 1);
    cr_assert_eq(a->causality, FMUC_CAUS_INVALID);
    cr_assert_eq(a->variability, FMUC_VAR_INVALID);
    cr_assert_eq(a->initial, FMUC_INIT_INVALID);
    cr_assert(!(a->has & FMUC_HAS_VALUE_REFERENCE));
    cr_assert(isnan(a->start));
    cr_assert(isnan(a->min) && isnan(a->max) && isnan(a->nominal));
    cr_assert_str_eq(a->start_text, "nan");
    const char *attrs[] = {"valueReference", "causality", "variability", "initial", "start",
                           "min",            "max",       "nominal",     "reinit"};
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        const fmuc_md_issue *is = find_issue(&md, FMUC_ISSUE_ATTR_SYNTAX, attrs[i]);
        cr_assert_not_null(is, "no issue for %s", attrs[i]);
        cr_assert_eq(is->line, 5, "line of %s", attrs[i]);
        cr_assert_not_null(is->value);
        cr_assert_not_null(strstr(is->message, "\"a\""), "message names the variable: %s",
                           is->message);
    }
    cr_assert_str_eq(find_issue(&md, FMUC_ISSUE_ATTR_SYNTAX, "valueReference")->value,
                     "4294967296");
    cr_assert_str_eq(find_issue(&md, FMUC_ISSUE_ATTR_SYNTAX, "causality")->element,
                     "ScalarVariable");
    cr_assert_str_eq(find_issue(&md, FMUC_ISSUE_ATTR_SYNTAX, "start")->element, "Real");
    const fmuc_md_var *bb = fmuc_md_var_at(&md, 2);
    cr_assert(!(bb->has & FMUC_HAS_VALUE_REFERENCE));
    cr_assert(isnan(bb->start));
    cr_assert(isnan(bb->max));
    const fmuc_md_var *c = fmuc_md_var_at(&md, 3);
    cr_assert(c->has & FMUC_HAS_VALUE_REFERENCE);
    cr_assert_eq(c->value_reference, 7);
    cr_assert_float_eq(c->start, -1.25e-3, 1e-18);
    cr_assert_float_eq(c->min, 0.5, 0);
    cr_assert_float_eq(c->max, 5.0, 0);
    cr_assert_eq(c->variability, FMUC_VAR_DISCRETE);
    cr_assert_eq(md.ninitial_unknowns, 1);
    const fmuc_md_unknown *u = &md.initial_unknowns[0];
    cr_assert_eq(u->index, 0);
    cr_assert_eq(u->ndeps, 3);
    cr_assert_eq(u->deps[0], 1);
    cr_assert_eq(u->deps[1], 0);
    cr_assert_eq(u->deps[2], 3);
    cr_assert_eq(u->nkinds, 3);
    cr_assert_eq(u->kinds[1], FMUC_DEPKIND_INVALID);
    cr_assert_not_null(find_issue(&md, FMUC_ISSUE_ATTR_SYNTAX, "index"));
    cr_assert_not_null(find_issue(&md, FMUC_ISSUE_ATTR_SYNTAX, "dependencies"));
    cr_assert_not_null(find_issue(&md, FMUC_ISSUE_ATTR_SYNTAX, "dependenciesKind"));
    fmuc_md_free(&md);
    free(x);
}

Test(md, dependency_counts_kept_when_they_disagree)
{
    char *x = doc("<ScalarVariable name=\"a\" valueReference=\"1\"><Real/></ScalarVariable>\n",
                  "<Derivatives><Unknown index=\"1\" dependencies=\"1\""
                  " dependenciesKind=\"dependent constant\"/></Derivatives>");
    fmuc_md md = parse_ok(x);
    cr_assert_eq(md.derivatives[0].ndeps, 1);
    cr_assert_eq(md.derivatives[0].nkinds, 2);
    cr_assert_eq(md.derivatives[0].kinds[1], FMUC_DEPKIND_CONSTANT);
    cr_assert_eq(md.nissues, 0);
    fmuc_md_free(&md);
    free(x);
}

Test(md, missing_required_attributes)
{
    const char *xml = "<fmiModelDescription><ModelExchange/><ModelVariables>"
                      "<ScalarVariable><Enumeration/></ScalarVariable></ModelVariables>"
                      "<ModelStructure><Outputs><Unknown/></Outputs></ModelStructure>"
                      "</fmiModelDescription>";
    fmuc_md md = parse_ok(xml);
    const char *want[] = {"fmiVersion", "modelName", "guid", "modelIdentifier", "name",
                          "valueReference", "declaredType", "index"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_assert_not_null(find_issue(&md, FMUC_ISSUE_ATTR_MISSING, want[i]), "missing %s",
                           want[i]);
    cr_assert_null(md.fmi_version);
    cr_assert_null(md.me.model_identifier);
    cr_assert(md.me.present);
    cr_assert_null(md.vars[0].name);
    fmuc_md_free(&md);
}

Test(md, unknown_attributes_and_elements)
{
    char *x = doc("<ScalarVariable name=\"a\" valueReference=\"1\" colour=\"red\">"
                  "<Integer unit=\"m\"/><Extra/></ScalarVariable>\n",
                  "<Outputs><Unknown index=\"1\"><Child/></Unknown></Outputs><Bogus/>");
    fmuc_md md = parse_ok(x);
    cr_assert_not_null(find_issue(&md, FMUC_ISSUE_ATTR_UNKNOWN, "colour"));
    const fmuc_md_issue *u = find_issue(&md, FMUC_ISSUE_ATTR_UNKNOWN, "unit");
    cr_assert_not_null(u);
    cr_assert_str_eq(u->element, "Integer");
    cr_assert_eq(count_kind(&md, FMUC_ISSUE_ELEMENT_UNKNOWN), 3);
    cr_assert_eq(md.vars[0].type, FMUC_TYPE_INTEGER);
    cr_assert_eq(md.noutputs, 1);
    fmuc_md_free(&md);
    free(x);
}

Test(md, element_order_and_repetition)
{
    const char *xml =
        "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"m\" guid=\"g\">\n" /* 1 */
        "<ModelVariables><ScalarVariable name=\"a\" valueReference=\"1\"><Real/></ScalarVariable></ModelVariables>\n" /* 2 */
        "<UnitDefinitions><Unit name=\"m\"/></UnitDefinitions>\n"            /* 3 */
        "<CoSimulation modelIdentifier=\"m\"/>\n"                           /* 4 */
        "<CoSimulation modelIdentifier=\"other\"/>\n"                       /* 5 */
        "<ModelStructure><InitialUnknowns><Unknown index=\"1\"/></InitialUnknowns>"
        "<Outputs><Unknown index=\"1\"/></Outputs></ModelStructure>\n"     /* 6 */
        "<ModelStructure/>\n"                                               /* 7 */
        "</fmiModelDescription>\n";
    fmuc_md md = parse_ok(xml);
    cr_assert_eq(md.nchildren, 6);
    cr_assert_str_eq(md.children[2].name, "CoSimulation");
    cr_assert_eq(md.children[2].line, 4);
    cr_assert_eq(md.cs.count, 2);
    cr_assert_str_eq(md.cs.model_identifier, "m"); /* the first one is kept */
    size_t order = count_kind(&md, FMUC_ISSUE_ELEMENT_ORDER);
    /* UnitDefinitions after ModelVariables, CoSimulation x2 out of order, second CoSimulation
     * repeated, Outputs after InitialUnknowns, second ModelStructure */
    cr_assert_eq(order, 6, "got %zu order issues", order);
    cr_assert_eq(md.nunits, 1);
    cr_assert_eq(md.noutputs, 1);
    fmuc_md_free(&md);
}

Test(md, scalar_variable_without_type_and_with_two_types)
{
    char *x = doc("<ScalarVariable name=\"none\" valueReference=\"1\"/>\n"
                  "<ScalarVariable name=\"ann\" valueReference=\"2\"><Annotations><Tool name=\"t\"/>"
                  "</Annotations></ScalarVariable>\n"
                  "<ScalarVariable name=\"two\" valueReference=\"3\"><Real start=\"1\"/>"
                  "<Integer start=\"2\"/></ScalarVariable>\n"
                  "<ScalarVariable name=\"weird\" valueReference=\"4\"><Float64/></ScalarVariable>\n",
                  "");
    fmuc_md md = parse_ok(x);
    cr_assert_eq(md.nvars, 4);
    cr_assert_eq(md.vars[0].type, FMUC_TYPE_NONE);
    cr_assert_eq(md.vars[1].type, FMUC_TYPE_NONE);
    cr_assert_eq(md.vars[2].type, FMUC_TYPE_REAL);
    cr_assert(md.vars[2].has & FMUC_HAS_SEVERAL_TYPES);
    cr_assert_float_eq(md.vars[2].start, 1.0, 0);
    cr_assert_eq(md.vars[3].type, FMUC_TYPE_NONE);
    cr_assert_eq(count_kind(&md, FMUC_ISSUE_ELEMENT_MISSING), 3);
    cr_assert_eq(count_kind(&md, FMUC_ISSUE_ELEMENT_UNKNOWN), 1);
    fmuc_md_free(&md);
    free(x);
}

Test(md, empty_lists_and_missing_required_elements)
{
    const char *xml = "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"m\" guid=\"g\">"
                      "<CoSimulation modelIdentifier=\"m\"><SourceFiles/></CoSimulation>"
                      "<UnitDefinitions/><TypeDefinitions><SimpleType name=\"E\"><Enumeration/>"
                      "</SimpleType><SimpleType name=\"N\"/></TypeDefinitions>"
                      "<LogCategories></LogCategories><VendorAnnotations/>"
                      "</fmiModelDescription>";
    fmuc_md md = parse_ok(xml);
    /* SourceFiles, UnitDefinitions, Enumeration, SimpleType N, LogCategories, VendorAnnotations,
     * ModelVariables, ModelStructure */
    cr_assert_eq(count_kind(&md, FMUC_ISSUE_ELEMENT_MISSING), 8);
    cr_assert(!md.has_model_variables);
    cr_assert(!md.has_model_structure);
    cr_assert_eq(md.ntypes, 2);
    cr_assert_eq(md.types[1].type, FMUC_TYPE_NONE);
    cr_assert_eq(md.types[1].ntypes, 0);
    fmuc_md_free(&md);
}

Test(md, doctype_is_refused_without_expansion_or_fetch)
{
    const char *xxe = "<?xml version=\"1.0\"?>\n<!-- c -->\n"
                      "<!DOCTYPE fmiModelDescription [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n"
                      "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"&x;\" guid=\"g\"/>";
    fmuc_md md;
    cr_assert_eq(fmuc_md_parse(&md, xxe, strlen(xxe), NULL), FMUC_EXML);
    cr_assert(md.parse_stopped);
    cr_assert_eq(md.nissues, 1);
    cr_assert_eq(md.issues[0].kind, FMUC_ISSUE_XML);
    cr_assert_eq(md.issues[0].line, 3);
    cr_assert_null(md.model_name);
    fmuc_md_free(&md);

    /* billion laughs: must return quickly with nothing expanded */
    char lol[4096];
    size_t off = (size_t)snprintf(lol, sizeof lol, "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n"
                                                   "<!ENTITY lol \"lol\">\n");
    for (int i = 1; i < 10; i++) {
        off += (size_t)snprintf(lol + off, sizeof lol - off, "<!ENTITY lol%d \"", i);
        for (int j = 0; j < 10; j++)
            off += (size_t)snprintf(lol + off, sizeof lol - off, "&lol%s;",
                                    i == 1 ? "" : (char[4]){(char)('0' + i - 1), 0});
        off += (size_t)snprintf(lol + off, sizeof lol - off, "\">\n");
    }
    snprintf(lol + off, sizeof lol - off,
             "]>\n<fmiModelDescription fmiVersion=\"2.0\" modelName=\"&lol9;\" guid=\"g\"/>");
    clock_t t0 = clock();
    cr_assert_eq(fmuc_md_parse(&md, lol, strlen(lol), NULL), FMUC_EXML);
    cr_assert_lt((double)(clock() - t0) / CLOCKS_PER_SEC, 1.0);
    cr_assert_null(md.model_name);
    fmuc_md_free(&md);

    /* a DOCTYPE that slips past the prolog scan (UTF-16 would) is still refused by the reader;
     * an external DTD is never fetched */
    const char *ext = "<?xml version=\"1.0\"?><!DOCTYPE fmiModelDescription SYSTEM "
                      "\"http://169.254.169.254/x.dtd\"><fmiModelDescription/>";
    cr_assert_eq(fmuc_md_parse(&md, ext, strlen(ext), NULL), FMUC_EXML);
    fmuc_md_free(&md);
}

Test(md, undeclared_entity_is_an_xml_error)
{
    const char *xml = "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"&x;\" guid=\"g\"/>";
    fmuc_md md;
    fmuc_md_parse(&md, xml, strlen(xml), NULL);
    cr_assert_geq(count_kind(&md, FMUC_ISSUE_XML), 1);
    cr_assert(md.model_name == NULL || strstr(md.model_name, "passwd") == NULL);
    fmuc_md_free(&md);
}

Test(md, malformed_xml_reports_line)
{
    const char *xml = "<?xml version=\"1.0\"?>\n<fmiModelDescription fmiVersion=\"2.0\">\n"
                      "<ModelVariables>\n<ScalarVariable name=\"a\"\n</fmiModelDescription>\n";
    fmuc_md md;
    fmuc_md_parse(&md, xml, strlen(xml), NULL);
    cr_assert(md.parse_stopped);
    const fmuc_md_issue *is = find_issue(&md, FMUC_ISSUE_XML, NULL);
    cr_assert_not_null(is);
    cr_assert_geq(is->line, 4);
    fmuc_md_free(&md);

    const char *empty = "";
    cr_assert_eq(fmuc_md_parse(&md, empty, 0, NULL), FMUC_EXML);
    cr_assert_geq(md.nissues, 1);
    fmuc_md_free(&md);
    const char *text = "hello world";
    cr_assert_eq(fmuc_md_parse(&md, text, strlen(text), NULL), FMUC_EXML);
    fmuc_md_free(&md);
}

Test(md, non_utf8_encoding_is_an_issue)
{
    const char *xml = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n"
                      "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"caf\xe9\" guid=\"g\"/>";
    fmuc_md md;
    cr_assert_eq(fmuc_md_parse(&md, xml, strlen(xml), NULL), FMUC_OK);
    const fmuc_md_issue *is = find_issue(&md, FMUC_ISSUE_XML, NULL);
    cr_assert_not_null(is);
    cr_assert_str_eq(is->value, "ISO-8859-1");
    cr_assert_str_eq(md.model_name, "caf\xc3\xa9"); /* converted to UTF-8 */
    fmuc_md_free(&md);
    /* a UTF-8 BOM is fine */
    const char *bom = "\xef\xbb\xbf<fmiModelDescription fmiVersion=\"2.0\" modelName=\"m\" guid=\"g\">"
                      "<CoSimulation modelIdentifier=\"m\"/><ModelVariables><ScalarVariable name=\"a\""
                      " valueReference=\"0\"><Real/></ScalarVariable></ModelVariables><ModelStructure/>"
                      "</fmiModelDescription>";
    cr_assert_eq(fmuc_md_parse(&md, bom, strlen(bom), NULL), FMUC_OK);
    cr_assert_eq(md.nissues, 0);
    fmuc_md_free(&md);
}

Test(md, wrong_root_and_depth_limit)
{
    const char *xml = "<fmiModelDescriptionX/>";
    fmuc_md md;
    cr_assert_eq(fmuc_md_parse(&md, xml, strlen(xml), NULL), FMUC_OK);
    cr_assert_str_eq(md.root_name, "fmiModelDescriptionX");
    cr_assert_not_null(find_issue(&md, FMUC_ISSUE_ELEMENT_UNKNOWN, NULL));
    fmuc_md_free(&md);

    char deep[2048];
    size_t off = (size_t)snprintf(deep, sizeof deep, "<fmiModelDescription><VendorAnnotations>"
                                                     "<Tool name=\"t\">");
    for (int i = 0; i < 100; i++)
        off += (size_t)snprintf(deep + off, sizeof deep - off, "<a>");
    fmuc_md_limits lim = {.max_depth = 32};
    fmuc_md_parse(&md, deep, off, &lim);
    cr_assert(md.parse_stopped);
    cr_assert_not_null(find_issue(&md, FMUC_ISSUE_LIMIT, NULL));
    fmuc_md_free(&md);
}

Test(md, limits_on_variables_and_issues)
{
    size_t n_cap = 200 * 80;
    char *vars = malloc(n_cap);
    size_t off = 0;
    for (int i = 0; i < 200; i++)
        off += (size_t)snprintf(vars + off, n_cap - off, "<ScalarVariable name=\"v%d\" valueReference=\"x\"><Real/></ScalarVariable>", i);
    char *x = doc(vars, "");
    fmuc_md md;
    fmuc_md_limits lim = {.max_issues = 50};
    cr_assert_eq(fmuc_md_parse(&md, x, strlen(x), &lim), FMUC_OK);
    cr_assert_eq(md.nissues, 51); /* 50 plus the summary */
    cr_assert_eq(md.nissues_dropped, 150);
    cr_assert_eq(md.issues[50].kind, FMUC_ISSUE_LIMIT);
    cr_assert_eq(md.nvars, 200);
    fmuc_md_free(&md);
    fmuc_md_limits lim2 = {.max_variables = 10};
    fmuc_md_parse(&md, x, strlen(x), &lim2);
    cr_assert_eq(md.nvars, 10);
    cr_assert(md.parse_stopped);
    cr_assert_not_null(find_issue(&md, FMUC_ISSUE_LIMIT, NULL));
    fmuc_md_free(&md);
    free(x);
    free(vars);
}

Test(md, line_numbers_beyond_65535)
{
    size_t n = 70000;
    size_t n_cap = n * 80;
    char *vars = malloc(n_cap);
    size_t off = 0;
    for (size_t i = 0; i < n; i++)
        off += (size_t)snprintf(vars + off, n_cap - off, "<ScalarVariable name=\"v%zu\" valueReference=\"%zu\">\n<Real/></ScalarVariable>\n", i, i);
    char *x = doc(vars, "");
    fmuc_md md = parse_ok(x);
    cr_assert_eq(md.nvars, n);
    /* doc(): line 1 decl, 2 root, 3 CoSimulation, 4 ModelVariables, variable i at 5 + 2 i */
    cr_assert_eq(md.vars[0].line, 5);
    cr_assert_eq(md.vars[n - 1].line, 5 + 2 * (n - 1), "got %u", md.vars[n - 1].line);
    cr_assert_eq(md.vars[n - 1].type_line, 6 + 2 * (n - 1));
    fmuc_md_free(&md);
    free(x);
    free(vars);
}

Test(md, effective_initial_table)
{
    fmuc_md_var v;
    memset(&v, 0, sizeof v);
    struct {
        int c, var, want;
    } cases[] = {
        {FMUC_CAUS_OUTPUT, FMUC_VAR_CONSTANT, FMUC_INIT_EXACT},
        {FMUC_CAUS_LOCAL, FMUC_VAR_CONSTANT, FMUC_INIT_EXACT},
        {FMUC_CAUS_PARAMETER, FMUC_VAR_CONSTANT, FMUC_INIT_NONE},
        {FMUC_CAUS_PARAMETER, FMUC_VAR_FIXED, FMUC_INIT_EXACT},
        {FMUC_CAUS_PARAMETER, FMUC_VAR_TUNABLE, FMUC_INIT_EXACT},
        {FMUC_CAUS_CALCULATED_PARAMETER, FMUC_VAR_FIXED, FMUC_INIT_CALCULATED},
        {FMUC_CAUS_CALCULATED_PARAMETER, FMUC_VAR_TUNABLE, FMUC_INIT_CALCULATED},
        {FMUC_CAUS_LOCAL, FMUC_VAR_FIXED, FMUC_INIT_CALCULATED},
        {FMUC_CAUS_LOCAL, FMUC_VAR_TUNABLE, FMUC_INIT_CALCULATED},
        {FMUC_CAUS_INPUT, FMUC_VAR_DISCRETE, FMUC_INIT_NONE},
        {FMUC_CAUS_INPUT, FMUC_VAR_CONTINUOUS, FMUC_INIT_NONE},
        {FMUC_CAUS_OUTPUT, FMUC_VAR_DISCRETE, FMUC_INIT_CALCULATED},
        {FMUC_CAUS_OUTPUT, FMUC_VAR_CONTINUOUS, FMUC_INIT_CALCULATED},
        {FMUC_CAUS_LOCAL, FMUC_VAR_DISCRETE, FMUC_INIT_CALCULATED},
        {FMUC_CAUS_LOCAL, FMUC_VAR_CONTINUOUS, FMUC_INIT_CALCULATED},
        {FMUC_CAUS_INDEPENDENT, FMUC_VAR_CONTINUOUS, FMUC_INIT_NONE},
        {FMUC_CAUS_OUTPUT, FMUC_VAR_FIXED, FMUC_INIT_NONE},
        {FMUC_CAUS_INVALID, FMUC_VAR_CONTINUOUS, FMUC_INIT_NONE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        v.causality = (uint8_t)cases[i].c;
        v.variability = (uint8_t)cases[i].var;
        v.initial = FMUC_INIT_NONE;
        cr_assert_eq(fmuc_md_effective_initial(&v), cases[i].want, "case %zu", i);
    }
    v.causality = FMUC_CAUS_OUTPUT;
    v.variability = FMUC_VAR_CONTINUOUS;
    v.initial = FMUC_INIT_APPROX;
    cr_assert_eq(fmuc_md_effective_initial(&v), FMUC_INIT_APPROX);
}

Test(md, enum_names)
{
    cr_assert_str_eq(fmuc_md_causality_name(FMUC_CAUS_CALCULATED_PARAMETER), "calculatedParameter");
    cr_assert_str_eq(fmuc_md_variability_name(FMUC_VAR_TUNABLE), "tunable");
    cr_assert_str_eq(fmuc_md_initial_name(FMUC_INIT_APPROX), "approx");
    cr_assert_str_eq(fmuc_md_type_name(FMUC_TYPE_ENUMERATION), "Enumeration");
    cr_assert_str_eq(fmuc_md_cap_name(FMUC_CAP_CAN_RUN_ASYNCHRONUOUSLY), "canRunAsynchronuously");
    cr_assert_str_eq(fmuc_md_dep_kind_name(FMUC_DEPKIND_DISCRETE), "discrete");
    cr_assert_str_eq(fmuc_md_issue_kind_name(FMUC_ISSUE_ELEMENT_MISSING), "element-missing");
    cr_assert_str_eq(fmuc_md_causality_name(FMUC_CAUS_INVALID), "invalid");
}

Test(md, peek_fmi_version)
{
    char v[32];
    const char *x1 = "<?xml version=\"1.0\"?><fmiModelDescription fmiVersion=\"1.0\"/>";
    cr_assert_eq(fmuc_md_peek_fmi_version(v, sizeof v, x1, strlen(x1)), FMUC_OK);
    cr_assert_str_eq(v, "1.0");
    const char *x2 = "<fmiModelDescription/>";
    cr_assert_eq(fmuc_md_peek_fmi_version(v, sizeof v, x2, strlen(x2)), FMUC_ERROR);
    const char *x3 = "<!DOCTYPE a><a fmiVersion=\"2.0\"/>";
    cr_assert_eq(fmuc_md_peek_fmi_version(v, sizeof v, x3, strlen(x3)), FMUC_EXML);
}

Test(md, scale_100k_variables)
{
    size_t n = 100000;
    size_t cap = n * 200 + 8192;
    char *buf = malloc(cap);
    size_t off = (size_t)snprintf(buf, cap,
                                  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                                  "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"big\" guid=\"g\">\n"
                                  "<CoSimulation modelIdentifier=\"big\"/>\n<ModelVariables>\n");
    for (size_t i = 0; i < n; i++)
        off += (size_t)snprintf(buf + off, cap - off,
                                "<ScalarVariable name=\"p%zu\" valueReference=\"%zu\" causality=\"parameter\" "
                                "variability=\"fixed\"><Real start=\"%zu.5\"/></ScalarVariable>\n",
                                i, i, i);
    for (size_t i = 0; i < 10; i++)
        off += (size_t)snprintf(buf + off, cap - off,
                                "<ScalarVariable name=\"y%zu\" valueReference=\"%zu\" causality=\"output\">"
                                "<Real/></ScalarVariable>\n",
                                i, n + i);
    off += (size_t)snprintf(buf + off, cap - off, "</ModelVariables>\n<ModelStructure><Outputs>");
    for (size_t i = 0; i < 10; i++)
        off += (size_t)snprintf(buf + off, cap - off, "<Unknown index=\"%zu\" dependencies=\"\"/>", n + i + 1);
    off += (size_t)snprintf(buf + off, cap - off, "</Outputs><InitialUnknowns>");
    for (size_t i = 0; i < 10; i++)
        off += (size_t)snprintf(buf + off, cap - off, "<Unknown index=\"%zu\" dependencies=\"1 2\"/>", n + i + 1);
    off += (size_t)snprintf(buf + off, cap - off, "</InitialUnknowns></ModelStructure>\n</fmiModelDescription>\n");
    fmuc_md md;
    cr_assert_eq(fmuc_md_parse(&md, buf, off, NULL), FMUC_OK);
    cr_assert_eq(md.nissues, 0);
    cr_assert_eq(md.nvars, n + 10);
    cr_assert_eq(md.noutputs, 10);
    cr_assert_eq(md.ninitial_unknowns, 10);
    cr_assert_eq(md.initial_unknowns[9].deps[1], 2);
    cr_assert_str_eq(md.vars[n - 1].name, "p99999");
    cr_assert_float_eq(md.vars[n - 1].start, 99999.5, 0);
    cr_assert_eq(md.vars[n].causality, FMUC_CAUS_OUTPUT);
    cr_assert_eq(md.vars[n - 1].value_reference, n - 1);
    fmuc_md_free(&md);
    free(buf);
}

/* ---- streaming: the document comes from a source in pieces ---- */

typedef struct trickle {
    const char *p;
    size_t n, pos, step;
    int fail_at; /* fail the read that would pass this offset (0: never) */
} trickle;

static long trickle_read(void *ctx, char *buf, size_t n)
{
    trickle *t = ctx;
    if (t->fail_at && t->pos >= (size_t)t->fail_at)
        return -1;
    size_t k = t->n - t->pos;
    if (k > t->step)
        k = t->step;
    if (k > n)
        k = n;
    memcpy(buf, t->p + t->pos, k);
    t->pos += k;
    return (long)k;
}

Test(md_stream, one_byte_reads_give_the_same_model)
{
    fmuc_md a, b;
    cr_assert_eq(fmuc_md_parse(&a, GOOD, strlen(GOOD), NULL), FMUC_OK);
    trickle t = {GOOD, strlen(GOOD), 0, 1, 0};
    cr_assert_eq(fmuc_md_parse_stream(&b, trickle_read, &t, UINT64_MAX, NULL), FMUC_OK);
    cr_assert_eq(a.nvars, b.nvars);
    cr_assert_eq(a.nissues, b.nissues);
    for (size_t i = 0; i < a.nvars; i++) {
        cr_expect_eq(a.vars[i].line, b.vars[i].line);
        cr_expect_eq(a.vars[i].type_line, b.vars[i].type_line);
        cr_expect_str_eq(a.vars[i].name, b.vars[i].name);
    }
    cr_expect_eq(b.vars[6].line, 41);
    cr_expect_eq(b.derivatives[0].line, 45);
    cr_expect_str_eq(b.root_fmi_version, "2.0");
    cr_expect(b.xml_all_ascii);
    fmuc_md_free(&a);
    fmuc_md_free(&b);
}

Test(md_stream, source_is_read_to_its_end_after_an_early_stop)
{
    /* a fatal XML error at line 2: the rest of the bytes are still read (an archive entry
     * checks its CRC and size only at its end), and the non-ASCII byte after it is seen */
    static const char doc[] = "<?xml version=\"1.0\"?>\n<fmiModelDescription fmiVersion=\"2.0\" <<\n"
                              "<!-- \xc3\xa9 -->\n";
    trickle t = {doc, strlen(doc), 0, 7, 0};
    fmuc_md md;
    fmuc_md_parse_stream(&md, trickle_read, &t, UINT64_MAX, NULL);
    cr_expect_eq(t.pos, t.n);
    cr_expect(md.parse_stopped);
    cr_expect(!md.xml_all_ascii);
    fmuc_md_free(&md);
}

Test(md_stream, a_failing_source_stops_the_parse)
{
    trickle t = {GOOD, strlen(GOOD), 0, 100, 600};
    fmuc_md md;
    fmuc_md_parse_stream(&md, trickle_read, &t, UINT64_MAX, NULL);
    cr_expect(md.parse_stopped);
    cr_expect(!md.xml_all_ascii);
    fmuc_md_free(&md);
}

Test(md_stream, doctype_after_a_prolog_split_over_reads_is_refused)
{
    static const char doc[] = "<?xml version=\"1.0\"?>\n<!-- a comment that spans several reads -->\n"
                              "<!DOCTYPE x [<!ENTITY a \"b\">]>\n<fmiModelDescription/>\n";
    trickle t = {doc, strlen(doc), 0, 3, 0};
    fmuc_md md;
    cr_expect_eq(fmuc_md_parse_stream(&md, trickle_read, &t, UINT64_MAX, NULL), FMUC_EXML);
    cr_assert_geq(md.nissues, 1);
    cr_expect_eq(md.issues[0].kind, FMUC_ISSUE_XML);
    cr_expect_eq(md.issues[0].line, 3);
    cr_expect_eq(t.pos, t.n); /* refused, and still read to its end */
    fmuc_md_free(&md);
}

Test(md_stream, a_long_prolog_is_scanned_once_and_kept_legal)
{
    /* 2 MiB of comment lines before the root: legal; lines still exact after it */
    size_t pad = 2u << 20;
    const char *root = strstr(GOOD, "<fmiModelDescription");
    size_t pre = (size_t)(root - GOOD), rl = strlen(root);
    char *big = malloc(pre + pad + 8 + rl + 1);
    memcpy(big, GOOD, pre);
    memcpy(big + pre, "<!--", 4);
    for (size_t i = 0; i < pad; i += 2)
        big[pre + 4 + i] = 'x', big[pre + 5 + i] = '\n';
    memcpy(big + pre + 4 + pad, "-->\n", 4);
    memcpy(big + pre + 8 + pad, root, rl + 1);
    trickle t = {big, strlen(big), 0, 4096, 0};
    fmuc_md md;
    cr_assert_eq(fmuc_md_parse_stream(&md, trickle_read, &t, UINT64_MAX, NULL), FMUC_OK);
    cr_expect_eq(md.nvars, 7);
    cr_expect_eq(md.root_line, 2 + pad / 2 + 1);
    fmuc_md_free(&md);
    free(big);
}

Test(md_stream, size_hint_over_the_limit_is_refused_unread)
{
    trickle t = {GOOD, strlen(GOOD), 0, 100, 0};
    fmuc_md_limits lim = {.max_bytes = 100};
    fmuc_md md;
    cr_expect_eq(fmuc_md_parse_stream(&md, trickle_read, &t, strlen(GOOD), &lim), FMUC_EXML);
    cr_expect_eq(t.pos, 0);
    fmuc_md_free(&md);
    /* unknown size: stopped when the bytes pass the limit */
    lim.max_bytes = 1000;
    trickle u = {GOOD, strlen(GOOD), 0, 50, 0};
    cr_expect_eq(fmuc_md_parse_stream(&md, trickle_read, &u, UINT64_MAX, &lim), FMUC_OK);
    cr_expect(md.parse_stopped);
    int limit = 0;
    for (size_t i = 0; i < md.nissues; i++)
        limit |= md.issues[i].kind == FMUC_ISSUE_LIMIT;
    cr_expect(limit);
    fmuc_md_free(&md);
}
