/* md-naming-der-real: with variableNamingConvention="structured", a variable named der(...) is a
 * derivative and should be Real (FMI 2.0.4 §2.2.9; catalogue B.9, a tool heuristic of VDMCheck). */
#include <string.h>

#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    const char *conv = md->variable_naming_convention;
    if (!conv || strcmp(conv, "structured") != 0) {
        fmuc_result_na(res, "variableNamingConvention is not \"structured\"");
        return;
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (v->type == FMUC_TYPE_REAL || v->type == FMUC_TYPE_NONE || !fmuc_ms__is_der_name(v->name))
            continue;
        fmuc_result_violation(res, FMUC_MS_VAR ": a der(...) name denotes a derivative, but the "
                              "variable is %s, not Real",
                              FMUC_MS_VAR_ARGS(v), fmuc_md_type_name((fmuc_type)v->type));
    }
}

const fmuc_check fmuc_check_md_naming_der_real = {
    .id = "md-naming-der-real",
    .title = "der(...) variables are Real",
    .spec = "FMI 2.0.4 §2.2.9; FMI 3.0.2 §2.4.7.5.1; FMI 1.0 ME (variableNamingConvention structured; a tool heuristic)",
    .level = FMUC_LEVEL_SHOULD,
    .why = "Tools treat a structured name der(x) as the derivative of x; a non-Real der(...) "
           "variable confuses importers that pair states with their derivatives by name.",
    .fix = "Declare variables named der(...) as Real, or rename a non-Real variable so that it "
           "does not use the der( ) form.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
