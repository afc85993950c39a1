/* md-alias-settable: in an alias set (variables of one base type sharing a valueReference) at
 * most one member is settable, and no settable member aliases the independent variable
 * (FMI 2.0.4 §2.2.7, catalogue B-302). Settable: variability != constant with initial exact or
 * approx, causality input, or a tunable parameter. A parameter p and a calculatedParameter
 * b := p may share a valueReference. */
#include <stdlib.h>

#include "check.h"
#include "md_util.h"

typedef struct ctx {
    fmuc_result *res;
    uint32_t *buf; /* scratch, nvars entries */
} ctx;

static void on_set(const fmuc_md *md, int kind, uint32_t vr, const uint32_t *m, size_t n,
                   void *payload)
{
    ctx *c = payload;
    size_t ns = 0;
    const fmuc_md_var *indep = NULL;
    char text[FMUC_MS_MEMBERS_LEN], all[FMUC_MS_MEMBERS_LEN];
    for (size_t i = 0; i < n; i++) {
        const fmuc_md_var *v = &md->vars[m[i] - 1];
        if (v->causality == FMUC_CAUS_INDEPENDENT)
            indep = v;
        if (fmuc_ms__settable(v))
            c->buf[ns++] = m[i];
    }
    if (ns > 1)
        fmuc_result_violation(c->res, "alias set %s vr %u (%zu variables: %s): %zu members are "
                              "settable (%s); at most one may be",
                              fmuc_ms__kind_name(kind), (unsigned)vr, n,
                              fmuc_ms__members_text(all, sizeof all, md, m, n), ns,
                              fmuc_ms__members_text(text, sizeof text, md, c->buf, ns));
    if (indep && ns > 0)
        fmuc_result_violation(c->res, "alias set %s vr %u: settable member(s) %s alias the "
                              "independent variable '%s' (line %u)",
                              fmuc_ms__kind_name(kind), (unsigned)vr,
                              fmuc_ms__members_text(text, sizeof text, md, c->buf, ns),
                              fmuc_ms__name(indep), (unsigned)indep->line);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    ctx c = {res, malloc((md->nvars ? md->nvars : 1) * sizeof(uint32_t))};
    long sets = c.buf ? fmuc_ms__alias_sets_of(s, on_set, &c) : -1;
    if (sets < 0)
        fmuc_result_error(res, "out of memory");
    else if (sets == 0)
        fmuc_result_na(res, "no alias variables (every valueReference is unique per base type)");
    free(c.buf);
}

const fmuc_check fmuc_check_md_alias_settable = {
    .id = "md-alias-settable",
    .title = "An alias set has at most one settable member",
    .spec = "FMI 2.0.4 §2.2.7",
    .level = FMUC_LEVEL_MUST,
    .why = "With two settable members of one alias set, an importer that sets both writes the "
           "same memory twice, and which value the model uses depends on the order of the calls.",
    .fix = "Give each independently settable quantity its own valueReference, or make all but one "
           "alias member non-settable (e.g. initial=\"calculated\" on outputs or locals).",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
