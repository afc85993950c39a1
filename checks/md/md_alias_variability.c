/* md-alias-variability: the members of an alias set should have one variability: that of the
 * parameter or input of the set if it has one, else the highest (continuous > discrete >
 * tunable > fixed) (FMI 2.0.4 §2.2.7, catalogue B-306, a recommendation). Sets with constants are
 * md-alias-start's (a constant may alias only constants). */
#include "check.h"
#include "md_util.h"

typedef struct ctx {
    fmuc_result *res;
} ctx;

/* names as the FMU's version writes them (FMI 1.0: fmiReal, variability "parameter") */
static const char *kind_name(const fmuc_md *md, int kind)
{
    static const char *const v1[] = {"(no type)", "fmiReal", "fmiInteger", "fmiBoolean",
                                     "fmiString"};
    return md->fmi == FMUC_FMI1 && kind >= 0 && kind <= 4 ? v1[kind] : fmuc_ms__kind_name(kind);
}

static const char *variability_name(const fmuc_md *md, unsigned v)
{
    if (md->fmi == FMUC_FMI1 && v == FMUC_VAR_FIXED)
        return "parameter";
    return fmuc_md_variability_name((fmuc_variability)v);
}

static void on_set(const fmuc_md *md, int kind, uint32_t vr, const uint32_t *m, size_t n,
                   void *payload)
{
    ctx *c = payload;
    const fmuc_md_var *lead = NULL; /* the parameter or input that defines the variability */
    unsigned highest = FMUC_VAR_CONSTANT;
    for (size_t i = 0; i < n; i++) {
        const fmuc_md_var *v = &md->vars[m[i] - 1];
        if (v->variability == FMUC_VAR_CONSTANT || v->variability >= FMUC_VAR_INVALID)
            return;
        if (!lead && (v->causality == FMUC_CAUS_PARAMETER || v->causality == FMUC_CAUS_INPUT))
            lead = v;
        if (v->variability > highest)
            highest = v->variability;
    }
    unsigned want = lead ? lead->variability : highest;
    for (size_t i = 0; i < n; i++) {
        const fmuc_md_var *v = &md->vars[m[i] - 1];
        if (v->variability == want)
            continue;
        if (lead)
            fmuc_result_violation(c->res, "alias set %s vr %u: " FMUC_MS_VAR " has "
                                  "variability=\"%s\" but the set's %s '%s' (line %u) is \"%s\"",
                                  kind_name(md, kind), (unsigned)vr, FMUC_MS_VAR_ARGS(v),
                                  variability_name(md, v->variability),
                                  fmuc_md_causality_name((fmuc_causality)lead->causality),
                                  fmuc_ms__name(lead), (unsigned)lead->line,
                                  variability_name(md, want));
        else
            fmuc_result_violation(c->res, "alias set %s vr %u: " FMUC_MS_VAR " has "
                                  "variability=\"%s\" but the highest variability in the set is "
                                  "\"%s\"; aliases should share one variability",
                                  kind_name(md, kind), (unsigned)vr, FMUC_MS_VAR_ARGS(v),
                                  variability_name(md, v->variability),
                                  variability_name(md, want));
    }
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    ctx c = {res};
    long sets = fmuc_ms__alias_sets_of(s, on_set, &c);
    if (sets < 0)
        fmuc_result_error(res, "out of memory");
    else if (sets == 0)
        fmuc_result_na(res, "no alias variables (every valueReference is unique per base type)");
}

const fmuc_check fmuc_check_md_alias_variability = {
    .id = "md-alias-variability",
    .title = "Aliases share one variability",
    .spec = "FMI 2.0.4 §2.2.7; FMI 1.0 ME (alias attribute; unregulated in 1.0, fmi-standard#436)",
    .level = FMUC_LEVEL_SHOULD,
    .why = "Aliases share one value, so members with different variabilities promise different "
           "change patterns; an importer may cache the 'fixed' member while the value really "
           "changes.",
    .fix = "Declare every member of an alias set with the variability of its parameter or input, "
           "or else the highest one among them.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
