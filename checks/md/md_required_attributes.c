/* md-required-attributes: every attribute the schema marks use="required" is present:
 * fmiModelDescription@modelName, ModelExchange/CoSimulation@modelIdentifier, File@name,
 * Unit@name, DisplayUnit@name, SimpleType@name, Item@name/@value, Category@name, Tool@name,
 * ScalarVariable@name/@valueReference, Unknown@index (FMI 2.0.4 §2.2, XSD). The parser's
 * ATTR_MISSING issues are reported, plus what the model shows missing and no issue covers.
 * fmiVersion/guid: md-fmi-version/md-guid-present; Enumeration@declaredType: md-var-enumeration.
 * FMI 3.0 (§2.4, fmi3*.xsd): the same for its elements (Float64@name ..., ScheduledExecution@
 * modelIdentifier, Annotation@type, Clock@intervalVariability); instantiationToken: md-guid-present. */
#include "check.h"
#include "md_util.h"

typedef struct ctx {
    const fmuc_md *md;
    fmuc_mdu_imap missing, syntax;
    fmuc_result *res;
} ctx;

static int covered(const ctx *c, const char *attr, uint32_t line)
{
    return fmuc_mdu__imap_get(&c->missing, fmuc_mdu__issue_key(FMUC_ISSUE_ATTR_MISSING, attr, line),
                              NULL) ||
           fmuc_mdu__imap_get(&c->syntax, fmuc_mdu__issue_key(FMUC_ISSUE_ATTR_SYNTAX, attr, line),
                              NULL);
}

static void miss(const ctx *c, const char *element, const char *attr, uint32_t line,
                 const char *what)
{
    if (!covered(c, attr, line))
        fmuc_result_violation(c->res, "line %u: <%s>%s%s: required attribute %s is missing",
                              (unsigned)line, element, what ? " " : "", what ? what : "", attr);
}

/* FMI 1.0 (fmiModelDescription.xsd, fmiBaseUnit.xsd, fmiType.xsd, fmiScalarVariable.xsd,
 * fmiImplementation.xsd): the parser reports the root's modelName, modelIdentifier,
 * numberOfContinuousStates, numberOfEventIndicators, BaseUnit@unit, Type@name, Item@name,
 * Tool@name, Annotation@name/@value, Model@entryPoint/@type, File@file and the variables'
 * name/valueReference; DisplayUnitDefinition@displayUnit is judged from the model. */
static void run_fmi1(const ctx *c)
{
    const fmuc_md *md = c->md;
    for (size_t i = 0; i < md->nunits; i++)
        for (size_t k = 0; k < md->units[i].ndisplay; k++)
            if (!md->units[i].display[k].name)
                miss(c, "DisplayUnitDefinition", "displayUnit", md->units[i].display[k].line,
                     NULL);
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        char d[FMUC_MDU_DESC_LEN];
        if (!v->name)
            miss(c, "ScalarVariable", "name", v->line, NULL);
        if (!(v->has & FMUC_HAS_VALUE_REFERENCE))
            miss(c, "ScalarVariable", "valueReference", v->line,
                 v->name ? fmuc_mdu__var_desc(d, sizeof d, v) : NULL);
    }
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    ctx c = {.md = md, .res = res};
    if (fmuc_mdu__issue_keys(&c.missing, md, FMUC_ISSUE_ATTR_MISSING) < 0 ||
        fmuc_mdu__issue_keys(&c.syntax, md, FMUC_ISSUE_ATTR_SYNTAX) < 0) {
        fmuc_result_error(res, "out of memory");
        goto out;
    }
    fmuc_mdu__report_issues(md, "md-required-attributes", res);
    if (md->fmi == FMUC_FMI1) {
        run_fmi1(&c);
        goto out;
    }

    if (!md->model_name)
        miss(&c, "fmiModelDescription", "modelName", md->root_line, NULL);
    if (md->me.present && !md->me.model_identifier)
        miss(&c, "ModelExchange", "modelIdentifier", md->me.line, NULL);
    if (md->cs.present && !md->cs.model_identifier)
        miss(&c, "CoSimulation", "modelIdentifier", md->cs.line, NULL);
    if (md->se.present && !md->se.model_identifier)
        miss(&c, "ScheduledExecution", "modelIdentifier", md->se.line, NULL);
    for (size_t i = 0; i < md->nunits; i++) {
        const fmuc_md_unit *u = &md->units[i];
        if (!u->name)
            miss(&c, "Unit", "name", u->line, NULL);
        for (size_t k = 0; k < u->ndisplay; k++)
            if (!u->display[k].name)
                miss(&c, "DisplayUnit", "name", u->display[k].line, NULL);
    }
    for (size_t i = 0; i < md->ntypes; i++) {
        const fmuc_md_type *t = &md->types[i];
        char tel[32];
        if (!t->name)
            miss(&c, fmuc_mdu__type_element(md, t, tel, sizeof tel), "name", t->line, NULL);
        for (size_t k = 0; k < t->nitems; k++) {
            const fmuc_md_item *it = &t->items[k];
            if (!it->name)
                miss(&c, "Item", "name", it->line, NULL);
            if (!it->has_value)
                miss(&c, "Item", "value", it->line, it->name);
        }
    }
    for (size_t i = 0; i < md->ncategories; i++)
        if (!md->categories[i].name)
            miss(&c, "Category", "name", md->categories[i].line, NULL);
    for (size_t i = 0; i < md->ntools; i++)
        if (!md->tools[i])
            miss(&c, "Tool", "name", md->tool_lines ? md->tool_lines[i] : 0, NULL);
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        char d[FMUC_MDU_DESC_LEN];
        const char *vel = fmuc_mdu__var_element(md, v);
        if (!v->name)
            miss(&c, vel, "name", v->line, NULL);
        if (!(v->has & FMUC_HAS_VALUE_REFERENCE))
            miss(&c, vel, "valueReference", v->line,
                 v->name ? fmuc_mdu__var_desc(d, sizeof d, v) : NULL);
        /* FMI 3.0 §2.4.4, §2.4.7.4: a Clock's intervalVariability is required (B-351); a
         * declaredType ClockType may give it instead */
        const fmuc_md_var_ext *x = v->base == FMUC_BT_CLOCK ? fmuc_md_var_ext_of(md, i) : NULL;
        if (md->fmi == FMUC_FMI3 && v->base == FMUC_BT_CLOCK && !v->declared_type &&
            !(x && (x->clock_has & FMUC_CLK_INTERVAL_VARIABILITY)))
            miss(&c, vel, "intervalVariability", v->line,
                 v->name ? fmuc_mdu__var_desc(d, sizeof d, v) : NULL);
    }
out:
    fmuc_mdu__imap_free(&c.missing);
    fmuc_mdu__imap_free(&c.syntax);
}

const fmuc_check fmuc_check_md_required_attributes = {
    .id = "md-required-attributes",
    .title = "required attributes are present",
    .spec = "FMI 2.0.4 §2.2 (XSD use=\"required\"); FMI 3.0.2 §2.4 (XSD use=\"required\"); FMI 1.0 ME and CS (XSD use=\"required\")",
    .level = FMUC_LEVEL_MUST,
    .why = "A missing required attribute (e.g. a variable's valueReference or name) leaves the "
           "importer without the information it needs; schema-validating tools reject the file.",
    .fix = "Emit every attribute the FMI 2.0 schema marks required, such as modelName, "
           "modelIdentifier, ScalarVariable name and valueReference, and Unknown index.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
