/* md-normalized-strings: xs:normalizedString attributes (guid, version, generationTool,
 * modelIdentifier, File@name, unit and type names, quantity, unit, displayUnit, declaredType,
 * Category/Tool/Item/ScalarVariable names) contain no carriage return, line feed or tab
 * (FMI 2.0.4 §2.2, B-007). Such characters survive XML attribute normalisation only as character
 * references (&#10; &#13; &#9;), which is what this catches. A should: the whiteSpace facet of
 * xs:normalizedString is "replace", so a schema validator turns them into spaces before it
 * validates and accepts the file (red-team round 5: this failed a valid file); a reader without
 * the schema keeps them, and the names then differ between tools. fmiVersion: md-fmi-version. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "md_util.h"

static void chk(fmuc_result *res, uint32_t line, const char *what, const char *attr, const char *v)
{
    if (!v || !v[strcspn(v, "\r\n\t")])
        return;
    size_t at = strcspn(v, "\r\n\t");
    fmuc_result_violation(res, "line %u: %s: %s contains a %s at offset %zu (normalizedString "
                          "values hold no CR, LF or TAB: a schema validator reads a space there, a plain "
                          "XML reader this character)", (unsigned)line, what, attr,
                          v[at] == '\t' ? "tab" : v[at] == '\n' ? "line feed" : "carriage return",
                          at);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    char w[FMUC_MDU_DESC_LEN];
    chk(res, md->root_line, "fmiModelDescription",
        md->fmi == FMUC_FMI3 ? "instantiationToken" : "guid", md->guid);
    chk(res, md->root_line, "fmiModelDescription", "version", md->version);
    chk(res, md->root_line, "fmiModelDescription", "generationTool", md->generation_tool);
    const fmuc_md_interface *ifs[3] = {&md->me, &md->cs, &md->se};
    static const char *const els[3] = {"ModelExchange", "CoSimulation", "ScheduledExecution"};
    for (int k = 0; k < 3; k++) {
        const fmuc_md_interface *f = ifs[k];
        if (!f->present)
            continue;
        const char *el = els[k];
        chk(res, f->line, el, "modelIdentifier", f->model_identifier);
        for (size_t i = 0; i < f->nsource_files; i++)
            chk(res, f->line, el, "SourceFiles/File@name", f->source_files[i]);
    }
    for (size_t i = 0; i < md->nunits; i++) {
        const fmuc_md_unit *u = &md->units[i];
        chk(res, u->line, "Unit", "name", u->name);
        for (size_t k = 0; k < u->ndisplay; k++)
            chk(res, u->display[k].line, "DisplayUnit", "name", u->display[k].name);
    }
    for (size_t i = 0; i < md->ntypes; i++) {
        const fmuc_md_type *t = &md->types[i];
        snprintf(w, sizeof w, "SimpleType '%.200s'", fmuc_mdu__str(t->name));
        chk(res, t->line, "SimpleType", "name", t->name);
        chk(res, t->line, w, "quantity", t->quantity);
        chk(res, t->line, w, "unit", t->unit);
        chk(res, t->line, w, "displayUnit", t->display_unit);
        for (size_t k = 0; k < t->nitems; k++)
            chk(res, t->items[k].line, w, "Item@name", t->items[k].name);
    }
    for (size_t i = 0; i < md->ncategories; i++)
        chk(res, md->categories[i].line, "Category", "name", md->categories[i].name);
    for (size_t i = 0; i < md->ntools; i++)
        chk(res, md->tool_lines ? md->tool_lines[i] : 0, "Tool", "name", md->tools[i]);
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        /* FMI 3.0 §2.4.7.3: Alias names (and display units) are normalizedStrings too */
        const fmuc_md_var_ext *x = md->nexts ? fmuc_md_var_ext_of(md, i) : NULL;
        for (uint32_t k = 0; x && k < x->naliases; k++) {
            fmuc_mdu__var_desc(w, sizeof w, v);
            chk(res, x->aliases[k].line, w, "Alias@name", x->aliases[k].name);
            chk(res, x->aliases[k].line, w, "Alias@displayUnit", x->aliases[k].display_unit);
        }
        if (!(v->name && v->name[strcspn(v->name, "\r\n\t")]) &&
            !(v->declared_type && v->declared_type[strcspn(v->declared_type, "\r\n\t")]) &&
            !(v->quantity && v->quantity[strcspn(v->quantity, "\r\n\t")]) &&
            !(v->unit && v->unit[strcspn(v->unit, "\r\n\t")]) &&
            !(v->display_unit && v->display_unit[strcspn(v->display_unit, "\r\n\t")]))
            continue;
        fmuc_mdu__var_desc(w, sizeof w, v);
        chk(res, v->line, w, "name", v->name);
        chk(res, v->type_line, w, "declaredType", v->declared_type);
        chk(res, v->type_line, w, "quantity", v->quantity);
        chk(res, v->type_line, w, "unit", v->unit);
        chk(res, v->type_line, w, "displayUnit", v->display_unit);
    }
}

const fmuc_check fmuc_check_md_normalized_strings = {
    .id = "md-normalized-strings",
    .title = "normalizedString attributes contain no CR, LF or TAB",
    .spec = "FMI 2.0.4 §2.2; FMI 3.0.2 §2.4; FMI 1.0 ME (fmiModelDescription.xsd normalizedString attributes)",
    .level = FMUC_LEVEL_SHOULD,
    .why = "Names and identifiers with CR, LF or TAB are altered by XML attribute normalisation "
           "in some parsers and not in others, so lookups by name or identifier fail between "
           "tools.",
    .fix = "Remove carriage returns, line feeds and tabs from names, units, guid and other "
           "normalizedString attributes; put multi-line text into description attributes.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
