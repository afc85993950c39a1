/* The FMI 3.0 and FMI 1.0 parsers (harness/src/md_parse_fmi3.c, md_parse_fmi1.c) on the
 * Reference-FMUs and the third-party FMUs of ../shared: every modelDescription.xml parses into the
 * version-neutral model without issues, and concrete facts of the files come out (counts per
 * base type, causality, dimensions, start lists, clocks, capability flags, ModelStructure).
 * Skips when ../shared is absent. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

#include "fmuc/fmuc_md.h"

#ifndef FMUC_SHARED_DIR
#define FMUC_SHARED_DIR FMUC_SOURCE_DIR "/../shared"
#endif

typedef struct zsrc {
    zip_file_t *f;
} zsrc;

static long zread(void *ctx, char *buf, size_t n)
{
    return (long)zip_fread(((zsrc *)ctx)->f, buf, n);
}

/* Parse modelDescription.xml of FMUC_SHARED_DIR/rel streaming from the archive; 0 when the file
 * is absent (the caller skips). */
static int parse_fmu(fmuc_md *md, const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", FMUC_SHARED_DIR, rel);
    int e = 0;
    zip_t *z = zip_open(path, ZIP_RDONLY, &e);
    if (!z)
        return 0;
    zsrc s = {zip_fopen(z, "modelDescription.xml", 0)};
    cr_assert_not_null(s.f, "%s has no modelDescription.xml", rel);
    cr_assert_eq(fmuc_md_parse_stream(md, zread, &s, UINT64_MAX, NULL), FMUC_OK, "%s", rel);
    zip_fclose(s.f);
    zip_close(z);
    return 1;
}

#define PARSE_OR_SKIP(md, rel)                                                                    \
    do {                                                                                          \
        if (!parse_fmu(md, rel))                                                                  \
            cr_skip("%s is not in %s", rel, FMUC_SHARED_DIR);                                    \
    } while (0)

static const fmuc_md_var *by_name(const fmuc_md *md, const char *name)
{
    for (size_t i = 0; i < md->nvars; i++)
        if (md->vars[i].name && strcmp(md->vars[i].name, name) == 0)
            return &md->vars[i];
    cr_assert_fail("no variable %s", name);
    return NULL;
}

static size_t count_base(const fmuc_md *md, fmuc_base_type bt)
{
    size_t n = 0;
    for (size_t i = 0; i < md->nvars; i++)
        n += md->vars[i].base == bt;
    return n;
}

static int has_cap(const fmuc_md_interface *itf, fmuc_cap c)
{
    return (itf->caps >> c) & 1u;
}

/* every issue other than a declared non-UTF-8 encoding fails the test */
static void no_issues(const fmuc_md *md, const char *what)
{
    for (size_t i = 0; i < md->nissues; i++)
        cr_expect(md->issues[i].message && strncmp(md->issues[i].message, "encoding", 8) == 0,
                  "%s: %s", what, md->issues[i].message);
    cr_expect(!md->parse_stopped, "%s", what);
}

/* Dymola 2023x's FMI 3.0 files carry schema defects the parser reports (fmi3-rules G-02, G-03):
 * Annotation@order, <Annotations> after <Alias>, a start attribute on a String; nothing else */
static void dymola_issues(const fmuc_md *md, const char *what)
{
    for (size_t i = 0; i < md->nissues; i++) {
        const fmuc_md_issue *is = &md->issues[i];
        int known = (is->kind == FMUC_ISSUE_ATTR_UNKNOWN && is->element && is->attribute &&
                     ((strcmp(is->element, "Annotation") == 0 &&
                       strcmp(is->attribute, "order") == 0) ||
                      (strcmp(is->element, "String") == 0 &&
                       strcmp(is->attribute, "start") == 0))) ||
                    (is->kind == FMUC_ISSUE_ELEMENT_ORDER && is->element &&
                     strcmp(is->element, "Annotations") == 0);
        cr_expect(known, "%s: %s", what, is->message);
    }
    cr_expect(!md->parse_stopped, "%s", what);
}

Test(md_fmi3, every_reference_and_thirdparty_fmi3_fmu_parses)
{
    static const char *const fmus[] = {
        "reference-fmus/fmi3/BouncingBall.fmu", "reference-fmus/fmi3/Clocks.fmu",
        "reference-fmus/fmi3/Dahlquist.fmu",    "reference-fmus/fmi3/Feedthrough.fmu",
        "reference-fmus/fmi3/Resource.fmu",     "reference-fmus/fmi3/Roberts.fmu",
        "reference-fmus/fmi3/Stair.fmu",        "reference-fmus/fmi3/StateSpace.fmu",
        "reference-fmus/fmi3/VanDerPol.fmu",
        "thirdparty/fmus/INTO-CPS-Association+maestro/maestro/src/test/resources/fmi3/"
        "periodic_clock.fmu",
        "thirdparty/fmus/ThummeTo+FMIZoo.jl/models/bin/Dymola/2023x/3.0/IO.fmu",
        "thirdparty/fmus/ThummeTo+FMIZoo.jl/models/bin/Dymola/2023x/3.0/"
        "SpringFrictionPendulumExtForce1D.fmu",
        "thirdparty/fmus/ThummeTo+FMIZoo.jl/models/bin/Dymola/2023x/3.0/SpringPendulum1D.fmu"};
    for (size_t i = 0; i < sizeof fmus / sizeof fmus[0]; i++) {
        fmuc_md md;
        PARSE_OR_SKIP(&md, fmus[i]);
        cr_expect_eq(md.fmi, FMUC_FMI3, "%s", fmus[i]);
        cr_expect(md.nvars > 0, "%s", fmus[i]);
        cr_expect_not_null(md.instantiation_token, "%s", fmus[i]);
        if (strstr(fmus[i], "Dymola"))
            dymola_issues(&md, fmus[i]);
        else
            no_issues(&md, fmus[i]);
        for (size_t k = 0; k < md.nunknowns; k++)
            cr_expect(md.unknowns[k].index > 0, "%s: unknown at line %u resolves", fmus[i],
                      md.unknowns[k].line);
        fmuc_md_free(&md);
    }
}

Test(md_fmi3, feedthrough_types_and_flags)
{
    fmuc_md md;
    PARSE_OR_SKIP(&md, "reference-fmus/fmi3/Feedthrough.fmu");
    cr_expect_eq(md.nvars, 35);
    cr_expect_eq(count_base(&md, FMUC_BT_FLOAT32), 4);
    cr_expect_eq(count_base(&md, FMUC_BT_FLOAT64), 7);
    static const fmuc_base_type two[] = {FMUC_BT_INT8,   FMUC_BT_UINT8,   FMUC_BT_INT16,
                                         FMUC_BT_UINT16, FMUC_BT_INT32,   FMUC_BT_UINT32,
                                         FMUC_BT_INT64,  FMUC_BT_UINT64,  FMUC_BT_BOOLEAN,
                                         FMUC_BT_STRING, FMUC_BT_BINARY,  FMUC_BT_ENUMERATION};
    for (size_t i = 0; i < sizeof two / sizeof two[0]; i++)
        cr_expect_eq(count_base(&md, two[i]), 2, "%s", fmuc_md_base_type_name(two[i]));
    /* the kinds FMI 2.0 checks know */
    for (size_t i = 0; i < md.nvars; i++)
        if (md.vars[i].base == FMUC_BT_FLOAT32 || md.vars[i].base == FMUC_BT_FLOAT64)
            cr_expect_eq(md.vars[i].type, FMUC_TYPE_REAL);
        else if (md.vars[i].base >= FMUC_BT_INT8 && md.vars[i].base <= FMUC_BT_UINT64)
            cr_expect_eq(md.vars[i].type, FMUC_TYPE_INTEGER);
    cr_expect(md.me.present && md.cs.present && !md.se.present);
    cr_expect_str_eq(md.me.model_identifier, "Feedthrough");
    /* <EnumerationType name="Option"> with items of values 1 and 2 */
    cr_assert_geq(md.ntypes, 1);
    cr_expect_str_eq(md.types[0].name, "Option");
    cr_expect_eq(md.types[0].base, FMUC_BT_ENUMERATION);
    cr_assert_eq(md.types[0].nitems, 2);
    cr_expect_eq(md.types[0].items[0].value, 1);
    cr_expect(has_cap(&md.me, FMUC_CAP_CAN_GET_AND_SET_FMU_STATE));
    cr_expect(has_cap(&md.me, FMUC_CAP_CAN_SERIALIZE_FMU_STATE));
    cr_expect(has_cap(&md.cs, FMUC_CAP_CAN_HANDLE_VARIABLE_COMMUNICATION_STEP_SIZE));
    cr_expect(has_cap(&md.cs, FMUC_CAP_PROVIDES_INTERMEDIATE_UPDATE));
    cr_expect(has_cap(&md.cs, FMUC_CAP_CAN_RETURN_EARLY_AFTER_INTERMEDIATE_UPDATE));
    cr_expect(has_cap(&md.cs, FMUC_CAP_HAS_EVENT_MODE));
    cr_expect(!has_cap(&md.me, FMUC_CAP_NEEDS_COMPLETED_INTEGRATOR_STEP));
    cr_expect(md.cs.has_fixed_internal_step_size && md.cs.fixed_internal_step_size == 0.1);
    /* <Output valueReference="2" dependencies="1" dependenciesKind="constant"/> */
    cr_assert_geq(md.noutputs, 1);
    const fmuc_md_unknown *o = &md.outputs[0];
    cr_expect_eq(o->kind, FMUC_UNK_OUTPUT);
    cr_expect_eq(o->value_reference, 2);
    cr_expect_eq(md.vars[o->index - 1].value_reference, 2);
    cr_assert_eq(o->ndeps, 1);
    cr_expect_eq(o->deps_vr[0], 1);
    cr_expect_eq(md.vars[o->deps[0] - 1].value_reference, 1);
    cr_expect_eq(o->kinds[0], FMUC_DEPKIND_CONSTANT);
    fmuc_md_free(&md);
}

Test(md_fmi3, bouncing_ball_states_and_event_indicator)
{
    fmuc_md md;
    PARSE_OR_SKIP(&md, "reference-fmus/fmi3/BouncingBall.fmu");
    const fmuc_md_var *der_h = by_name(&md, "der(h)");
    cr_expect_eq(der_h->causality, FMUC_CAUS_LOCAL);
    cr_expect_eq(der_h->initial, FMUC_INIT_CALCULATED);
    cr_expect_str_eq(der_h->declared_type, "Velocity");
    /* derivative="1" names h by valueReference; the model holds h's 1-based index */
    cr_assert_gt(der_h->derivative, 0);
    cr_expect_str_eq(md.vars[der_h->derivative - 1].name, "h");
    cr_expect_eq(md.noutputs, 2);
    cr_expect_eq(md.nderivatives, 2);
    cr_expect_eq(md.nevent_indicators, 1);
    cr_expect_eq(md.nunknowns, md.noutputs + md.nderivatives + md.nclocked_states +
                                   md.ninitial_unknowns + md.nevent_indicators);
    cr_expect_eq(md.derivatives[0].kind, FMUC_UNK_DERIVATIVE);
    cr_expect_str_eq(md.vars[md.derivatives[0].index - 1].name, "der(h)");
    cr_expect_eq(md.event_indicators[0].kind, FMUC_UNK_EVENT_INDICATOR);
    fmuc_md_free(&md);
}

Test(md_fmi3, state_space_dimensions_and_start_lists)
{
    fmuc_md md;
    PARSE_OR_SKIP(&md, "reference-fmus/fmi3/StateSpace.fmu");
    const fmuc_md_var *m = by_name(&md, "m");
    cr_expect_eq(m->base, FMUC_BT_UINT64);
    cr_expect_eq(m->causality, FMUC_CAUS_STRUCTURAL_PARAMETER);
    cr_expect_eq(m->variability, FMUC_VAR_TUNABLE);
    cr_expect_eq(m->start, 3.0);
    const fmuc_md_var *a = by_name(&md, "A");
    const fmuc_md_var_ext *x = fmuc_md_var_ext_of(&md, (size_t)(a - md.vars));
    cr_assert_not_null(x);
    cr_assert_eq(x->ndims, 2);
    cr_expect(x->dims[0].has_vr && !x->dims[0].has_start);
    cr_expect_eq(x->dims[0].value_reference, 2);
    cr_expect_eq(x->nstarts, 9); /* start="1 0 0 0 1 0 0 0 1" */
    cr_expect_str_eq(x->starts[4], "1");
    cr_expect_eq(a->start, 1.0);
    cr_expect_null(fmuc_md_var_ext_of(&md, (size_t)(m - md.vars)));
    fmuc_md_free(&md);
}

Test(md_fmi3, clocks_attributes_and_scheduled_execution)
{
    fmuc_md md;
    PARSE_OR_SKIP(&md, "reference-fmus/fmi3/Clocks.fmu");
    cr_expect(md.se.present && !md.me.present && !md.cs.present);
    cr_expect_str_eq(md.se.model_identifier, "Clocks");
    cr_expect_eq(count_base(&md, FMUC_BT_CLOCK), 4);
    const fmuc_md_var *c1 = by_name(&md, "inClock1");
    cr_expect_eq(c1->type, FMUC_TYPE_CLOCK);
    cr_expect_eq(c1->causality, FMUC_CAUS_INPUT);
    const fmuc_md_var_ext *x = fmuc_md_var_ext_of(&md, (size_t)(c1 - md.vars));
    cr_assert_not_null(x);
    cr_expect_eq(x->interval_variability, FMUC_IV_CONSTANT);
    cr_expect(x->clock_has & FMUC_CLK_INTERVAL_DECIMAL);
    cr_expect_eq(x->interval_decimal, 1.0);
    cr_expect(x->clock_has & FMUC_CLK_PRIORITY);
    cr_expect_eq(x->priority, 0);
    const fmuc_md_var *out = by_name(&md, "outClock");
    x = fmuc_md_var_ext_of(&md, (size_t)(out - md.vars));
    cr_assert_not_null(x);
    cr_expect_eq(x->interval_variability, FMUC_IV_TRIGGERED);
    cr_assert_eq(x->nclocks, 3);
    cr_expect_eq(x->clocks[2], 1003);
    cr_expect_eq(md.noutputs, 7);
    cr_expect_eq(md.ninitial_unknowns, 1);
    cr_expect_str_eq(md.vars[md.initial_unknowns[0].index - 1].name, "inClock3Ticks");
    fmuc_md_free(&md);
}

Test(md_fmi3, thirdparty_periodic_clock)
{
    fmuc_md md;
    PARSE_OR_SKIP(&md, "thirdparty/fmus/INTO-CPS-Association+maestro/maestro/src/test/resources/"
                       "fmi3/periodic_clock.fmu");
    const fmuc_md_var *c = by_name(&md, "SampleClock");
    const fmuc_md_var_ext *x = fmuc_md_var_ext_of(&md, (size_t)(c - md.vars));
    cr_assert_not_null(x);
    cr_expect_eq(x->interval_variability, FMUC_IV_CONSTANT);
    cr_expect_eq(x->interval_decimal, 0.2);
    cr_expect(x->clock_has & FMUC_CLK_SHIFT_DECIMAL);
    fmuc_md_free(&md);
}

Test(md_fmi1, every_reference_and_thirdparty_fmi1_fmu_parses)
{
    static const char *const fmus[] = {
        "reference-fmus/fmi1/cs/BouncingBall.fmu", "reference-fmus/fmi1/cs/Dahlquist.fmu",
        "reference-fmus/fmi1/cs/Feedthrough.fmu",  "reference-fmus/fmi1/cs/Resource.fmu",
        "reference-fmus/fmi1/cs/Stair.fmu",        "reference-fmus/fmi1/cs/VanDerPol.fmu",
        "reference-fmus/fmi1/me/BouncingBall.fmu", "reference-fmus/fmi1/me/Dahlquist.fmu",
        "reference-fmus/fmi1/me/Feedthrough.fmu",  "reference-fmus/fmi1/me/Stair.fmu",
        "reference-fmus/fmi1/me/VanDerPol.fmu",
        "thirdparty/fmus/Ecos-platform+ecos/data/ssp/1.0/dp_ship/models/OSOM.fmu",
        "thirdparty/fmus/Ecos-platform+ecos/data/ssp/1.0/dp_ship/models/ReferenceGenerator.fmu",
        "thirdparty/fmus/Ecos-platform+ecos/data/ssp/1.0/dp_ship/models/DPController.fmu",
        "thirdparty/fmus/Ecos-platform+ecos/data/fmus/1.0/mass_spring_damper/Spring.fmu",
        "thirdparty/fmus/modelon-community+PyFMI/src/pyfmi/examples/files/FMUs/CS1.0/"
        "bouncingBall.fmu",
        "thirdparty/fmus/modelon-community+PyFMI/src/pyfmi/examples/files/FMUs/ME1.0/"
        "bouncingBall.fmu",
        "thirdparty/fmus/modelon-community+PyFMI/tests/files/FMUs/XML/ME1.0/Description.fmu"};
    for (size_t i = 0; i < sizeof fmus / sizeof fmus[0]; i++) {
        fmuc_md md;
        PARSE_OR_SKIP(&md, fmus[i]);
        cr_expect_eq(md.fmi, FMUC_FMI1, "%s", fmus[i]);
        cr_expect(md.nvars > 0, "%s", fmus[i]);
        cr_expect(md.me.present != md.cs.present, "%s: ME or CS", fmus[i]);
        cr_expect_not_null(md.guid, "%s", fmus[i]);
        cr_expect_not_null(md.fmi1_model_identifier, "%s", fmus[i]);
        fmuc_md_free(&md);
    }
}

Test(md_fmi1, bouncing_ball_cs_capabilities_and_mapping)
{
    fmuc_md md;
    PARSE_OR_SKIP(&md, "reference-fmus/fmi1/cs/BouncingBall.fmu");
    no_issues(&md, "BouncingBall 1.0 CS");
    cr_expect_eq(md.nvars, 8);
    cr_expect(md.cs.present && !md.me.present && !md.cs.fmi1_tool);
    cr_expect_str_eq(md.cs.model_identifier, "BouncingBall");
    cr_expect(has_cap(&md.cs, FMUC_CAP_CAN_HANDLE_VARIABLE_COMMUNICATION_STEP_SIZE));
    cr_expect(has_cap(&md.cs, FMUC_CAP_CAN_HANDLE_EVENTS));
    cr_expect(!has_cap(&md.cs, FMUC_CAP_CAN_REJECT_STEPS));
    cr_expect(md.has_number_of_continuous_states && md.number_of_continuous_states == 2);
    cr_expect_eq(md.number_of_event_indicators, 1);
    /* variability="parameter" (causality internal by default) is FMI 2.0's fixed parameter */
    const fmuc_md_var *g = by_name(&md, "g");
    cr_expect_eq(g->causality, FMUC_CAUS_PARAMETER);
    cr_expect_eq(g->variability, FMUC_VAR_FIXED);
    cr_expect_eq(g->start, -9.81);
    cr_expect_eq(g->base, FMUC_BT_FLOAT64);
    const fmuc_md_var *t = by_name(&md, "time");
    cr_expect_eq(t->causality, FMUC_CAUS_LOCAL); /* internal */
    cr_expect_eq(by_name(&md, "h")->causality, FMUC_CAUS_OUTPUT);
    cr_expect_eq(by_name(&md, "v_min")->variability, FMUC_VAR_CONSTANT);
    fmuc_md_free(&md);
}

Test(md_fmi1, feedthrough_me_enumeration_items)
{
    fmuc_md md;
    PARSE_OR_SKIP(&md, "reference-fmus/fmi1/me/Feedthrough.fmu");
    no_issues(&md, "Feedthrough 1.0 ME");
    cr_expect(md.me.present && !md.cs.present);
    cr_expect_str_eq(md.me.model_identifier, "Feedthrough");
    cr_assert_eq(md.ntypes, 1);
    cr_expect_str_eq(md.types[0].name, "Option");
    cr_expect_eq(md.types[0].type, FMUC_TYPE_ENUMERATION);
    cr_assert_eq(md.types[0].nitems, 2);
    cr_expect_str_eq(md.types[0].items[1].name, "Option 2");
    cr_expect_eq(md.types[0].items[1].value, 2); /* numbered in order from 1 */
    fmuc_md_free(&md);
}

Test(md_fmi1, negated_alias_of_pyfmi_bouncing_ball)
{
    fmuc_md md;
    PARSE_OR_SKIP(&md, "thirdparty/fmus/modelon-community+PyFMI/src/pyfmi/examples/files/FMUs/"
                       "ME1.0/bouncingBall.fmu");
    cr_expect_eq(md.nvars, 6);
    const fmuc_md_var *g = by_name(&md, "g");
    const fmuc_md_var_ext *x = fmuc_md_var_ext_of(&md, (size_t)(g - md.vars));
    cr_assert_not_null(x);
    cr_expect_eq(x->alias_kind, FMUC_ALIAS_NEGATED);
    cr_expect_eq(g->value_reference, 3);
    fmuc_md_free(&md);
}

Test(md_fmi1, direct_dependency_names)
{
    static const char xml[] =
        "<?xml version=\"1.0\"?>\n<fmiModelDescription fmiVersion=\"1.0\" modelName=\"m\" "
        "modelIdentifier=\"m\" guid=\"{1}\" numberOfContinuousStates=\"0\" "
        "numberOfEventIndicators=\"0\">\n<ModelVariables>\n"
        "<ScalarVariable name=\"u\" valueReference=\"0\" causality=\"input\"><Real/></ScalarVariable>\n"
        "<ScalarVariable name=\"y\" valueReference=\"1\" causality=\"output\"><Real/>"
        "<DirectDependency><Name> u </Name></DirectDependency></ScalarVariable>\n"
        "</ModelVariables>\n</fmiModelDescription>\n";
    fmuc_md md;
    cr_assert_eq(fmuc_md_parse(&md, xml, sizeof xml - 1, NULL), FMUC_OK);
    cr_expect_eq(md.nissues, 0, "%s", md.nissues ? md.issues[0].message : "");
    const fmuc_md_var_ext *x = fmuc_md_var_ext_of(&md, 1);
    cr_assert_not_null(x);
    cr_expect(x->has_direct_dependency);
    cr_assert_eq(x->ndirect, 1);
    cr_expect_str_eq(x->direct[0], "u");
    cr_expect_null(fmuc_md_var_ext_of(&md, 0));
    fmuc_md_free(&md);
}

Test(md_caps, the_table_names_each_versions_attribute)
{
    cr_expect_str_eq(fmuc_md_cap_attr(FMUC_CAP_CAN_GET_AND_SET_FMU_STATE, 2), "canGetAndSetFMUstate");
    cr_expect_str_eq(fmuc_md_cap_attr(FMUC_CAP_CAN_GET_AND_SET_FMU_STATE, 3), "canGetAndSetFMUState");
    cr_expect_null(fmuc_md_cap_attr(FMUC_CAP_CAN_GET_AND_SET_FMU_STATE, 1));
    cr_expect_eq(fmuc_md_cap_ifaces(FMUC_CAP_COMPLETED_INTEGRATOR_STEP_NOT_NEEDED, 2), FMUC_IF_ME);
    cr_expect_eq(fmuc_md_cap_ifaces(FMUC_CAP_HAS_EVENT_MODE, 3), FMUC_IF_CS);
    cr_expect_str_eq(fmuc_md_cap_name(FMUC_CAP_CAN_RUN_ASYNCHRONUOUSLY), "canRunAsynchronuously");
    /* the first ten flags keep the FMI 2.0 bit numbers the reports and checks use */
    cr_expect_eq(FMUC_CAP_CAN_RUN_ASYNCHRONUOUSLY, 9);
}
