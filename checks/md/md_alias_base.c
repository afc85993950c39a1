/* md-alias-base: FMI 1.0 alias sets. Variables of one base type (Real; Integer and Enumeration;
 * Boolean; String) that share a valueReference are one value: exactly one of them is the base
 * (alias="noAlias", the default), every other member says alias="alias" or "negatedAlias"
 * (fmiScalarVariable.xsd alias attribute; ../shared/fmi1-rules.md B-303, M; FMI Library
 * rejects unmarked sharing). A variable marked alias/negatedAlias whose valueReference no other
 * variable of its type has aliases nothing (M). Derived and tool rules, warnings: negatedAlias
 * is meaningful for Real and Integer only (B-304, T), and start values given in a set agree,
 * negated for a negatedAlias (B-305, D/T). Variability/causality of the members: FMI 1.0 does
 * not regulate it (fmi-standard#436), md-alias-variability warns. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "md_util.h"

typedef struct ctx {
    fmuc_result *res;
    uint8_t *in_set; /* nvars entries: 1 when the variable is a member of a set of two or more */
    uint32_t *buf;   /* scratch, nvars entries */
} ctx;

/* the FMI 1.0 C type of a value-reference name space */
static const char *kind1_name(int kind)
{
    switch (kind) {
    case FMUC_MS_KIND_REAL: return "fmiReal";
    case FMUC_MS_KIND_INTEGER: return "fmiInteger";
    case FMUC_MS_KIND_BOOLEAN: return "fmiBoolean";
    case FMUC_MS_KIND_STRING: return "fmiString";
    default: return "(no type)";
    }
}

static unsigned alias_kind(const fmuc_md *md, uint32_t index1)
{
    const fmuc_md_var_ext *x = md->vars[index1 - 1].ext ? fmuc_md_var_ext_of(md, index1 - 1)
                                                        : NULL;
    return x ? x->alias_kind : FMUC_ALIAS_NONE;
}

static const char *kind_word(unsigned k)
{
    return k == FMUC_ALIAS_NEGATED ? "negatedAlias" : k == FMUC_ALIAS_ALIAS ? "alias" : "noAlias";
}

/* Does member v's start agree with the base's (negated for a negatedAlias)? */
static int start_agrees(const fmuc_md_var *base, const fmuc_md_var *v, unsigned k)
{
    if (v->type == FMUC_TYPE_STRING || base->type == FMUC_TYPE_STRING)
        return base->start_text && v->start_text && strcmp(base->start_text, v->start_text) == 0;
    if (base->start != base->start || v->start != v->start)
        return 1; /* unparsable start: md-attribute-syntax */
    if (k != FMUC_ALIAS_NEGATED)
        return v->start == base->start;
    if (v->type == FMUC_TYPE_BOOLEAN)
        return (v->start != 0) != (base->start != 0);
    return v->start == -base->start;
}

static void on_set(const fmuc_md *md, int kind, uint32_t vr, const uint32_t *m, size_t n,
                   void *payload)
{
    ctx *c = payload;
    size_t nbase = 0;
    const fmuc_md_var *base = NULL;
    char text[FMUC_MS_MEMBERS_LEN], all[FMUC_MS_MEMBERS_LEN];
    for (size_t i = 0; i < n; i++) {
        c->in_set[m[i] - 1] = 1;
        if (alias_kind(md, m[i]) == FMUC_ALIAS_NONE) {
            c->buf[nbase++] = m[i];
            if (!base)
                base = &md->vars[m[i] - 1];
        }
    }
    if (nbase == 0)
        fmuc_result_violation(c->res, "alias set %s vr %u (%zu variables: %s): no member is the "
                              "base variable (alias=\"noAlias\"); every member is marked alias "
                              "or negatedAlias",
                              kind1_name(kind), (unsigned)vr, n,
                              fmuc_ms__members_text(all, sizeof all, md, m, n));
    else if (nbase > 1)
        fmuc_result_violation(c->res, "alias set %s vr %u (%zu variables: %s): %zu members share "
                              "the valueReference without an alias attribute (%s); exactly one "
                              "is the noAlias base, the others must say alias=\"alias\" or "
                              "\"negatedAlias\"",
                              kind1_name(kind), (unsigned)vr, n,
                              fmuc_ms__members_text(all, sizeof all, md, m, n), nbase,
                              fmuc_ms__members_text(text, sizeof text, md, c->buf, nbase));
    for (size_t i = 0; i < n; i++) {
        const fmuc_md_var *v = &md->vars[m[i] - 1];
        unsigned k = alias_kind(md, m[i]);
        if (k == FMUC_ALIAS_NEGATED && kind != FMUC_MS_KIND_REAL && kind != FMUC_MS_KIND_INTEGER)
            fmuc_result_warn(c->res, "alias set %s vr %u: " FMUC_MS_VAR " is a negatedAlias of "
                             "a %s; FMI 1.0 defines negation for Real and Integer values (FMI "
                             "Library inverts Booleans, others reject it)",
                             kind1_name(kind), (unsigned)vr, FMUC_MS_VAR_ARGS(v),
                             fmuc_mdu__type_name(v->type));
        if (nbase != 1 || v == base || !(v->has & FMUC_HAS_START) ||
            !(base->has & FMUC_HAS_START) || start_agrees(base, v, k))
            continue;
        fmuc_result_warn(c->res, "alias set %s vr %u: " FMUC_MS_VAR " (%s) has start=\"%.100s\" "
                         "but its base '%s' (line %u) has start=\"%.100s\"%s; aliases hold one "
                         "value",
                         kind1_name(kind), (unsigned)vr, FMUC_MS_VAR_ARGS(v), kind_word(k),
                         fmuc_mdu__str(v->start_text), fmuc_ms__name(base), (unsigned)base->line,
                         fmuc_mdu__str(base->start_text),
                         k == FMUC_ALIAS_NEGATED ? " (a negatedAlias starts at its negation)"
                                                 : "");
    }
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    char d[FMUC_MDU_DESC_LEN];
    size_t nalias = 0;
    for (size_t i = 0; i < md->nexts; i++)
        if (md->exts[i].alias_kind != FMUC_ALIAS_NONE)
            nalias++;
    ctx c = {res, calloc(md->nvars ? md->nvars : 1, 1),
             malloc((md->nvars ? md->nvars : 1) * sizeof(uint32_t))};
    long sets = c.in_set && c.buf ? fmuc_ms__alias_sets_of(s, on_set, &c) : -1;
    if (sets < 0) {
        fmuc_result_error(res, "out of memory");
        goto out;
    }
    /* a variable marked alias/negatedAlias that shares its valueReference with nothing */
    for (size_t i = 0; i < md->nexts; i++) {
        const fmuc_md_var_ext *x = &md->exts[i];
        const fmuc_md_var *v = &md->vars[x->var];
        if (x->alias_kind == FMUC_ALIAS_NONE || c.in_set[x->var] || v->type == FMUC_TYPE_NONE ||
            !(v->has & FMUC_HAS_VALUE_REFERENCE))
            continue;
        fmuc_result_violation(res, "%s: alias=\"%s\", but no other %s variable has "
                              "valueReference %u; the variable aliases nothing",
                              fmuc_mdu__var_desc(d, sizeof d, v), kind_word(x->alias_kind),
                              kind1_name(fmuc_ms__base_kind(v->type)),
                              (unsigned)v->value_reference);
    }
    if (sets == 0 && nalias == 0)
        fmuc_result_na(res, "no alias variables (every valueReference is unique per base type)");
out:
    free(c.in_set);
    free(c.buf);
}

const fmuc_check fmuc_check_md_alias_base = {
    .id = "md-alias-base",
    .title = "FMI 1.0: each alias set has one noAlias base and consistent aliases",
    .spec = "FMI 1.0 ME (fmiScalarVariable.xsd alias, valueReference)",
    .level = FMUC_LEVEL_MUST,
    .why = "A 1.0 importer maps alias and negatedAlias members onto the one noAlias variable of "
           "their valueReference; without exactly one base it cannot tell which value to store "
           "or whether to negate it.",
    .fix = "For every valueReference shared within a base type, mark exactly one variable "
           "noAlias and the others alias or negatedAlias, with matching start values.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
