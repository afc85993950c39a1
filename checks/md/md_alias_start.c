/* md-alias-start: in an alias set at most one member with variability != constant has a start
 * attribute; a constant aliases only constants, and all their start values are equal
 * (FMI 2.0.4 §2.2.7, catalogue B-303, B-304). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "md_util.h"

typedef struct ctx {
    fmuc_result *res;
    uint32_t *buf; /* scratch, nvars entries */
} ctx;

static int same_start(const fmuc_md_var *a, const fmuc_md_var *b)
{
    if (a->type == FMUC_TYPE_STRING || b->type == FMUC_TYPE_STRING)
        return a->start_text && b->start_text && strcmp(a->start_text, b->start_text) == 0;
    return a->start == b->start;
}

static void on_set(const fmuc_md *md, int kind, uint32_t vr, const uint32_t *m, size_t n,
                   void *payload)
{
    ctx *c = payload;
    size_t nstart = 0, nconst = 0, nnonconst = 0, nsettable = 0;
    const fmuc_md_var *first_const = NULL;
    char text[FMUC_MS_MEMBERS_LEN];
    for (size_t i = 0; i < n; i++) {
        const fmuc_md_var *v = &md->vars[m[i] - 1];
        if (v->variability == FMUC_VAR_CONSTANT) {
            nconst++;
            if (!(v->has & FMUC_HAS_START))
                continue;
            if (!first_const)
                first_const = v;
            else if (!same_start(first_const, v))
                fmuc_result_violation(c->res, "alias set %s vr %u: constant " FMUC_MS_VAR
                                      " has start=\"%s\" but the aliased constant '%s' (line %u) "
                                      "has start=\"%s\"",
                                      fmuc_ms__kind_name(kind), (unsigned)vr, FMUC_MS_VAR_ARGS(v),
                                      v->start_text ? v->start_text : "",
                                      fmuc_ms__name(first_const), (unsigned)first_const->line,
                                      first_const->start_text ? first_const->start_text : "");
        } else {
            c->buf[nnonconst++] = m[i];
            if (v->has & FMUC_HAS_START)
                nstart++;
            if (fmuc_ms__settable(v))
                nsettable++;
        }
    }
    /* Every member carrying a start is settable unless the start rules (B-207/B-208) are broken,
     * so several starts next to several settable members is md-alias-settable's finding. */
    if (nstart > 1 && nsettable <= 1) {
        size_t k = 0;
        for (size_t i = 0; i < nnonconst; i++)
            if (md->vars[c->buf[i] - 1].has & FMUC_HAS_START)
                c->buf[k++] = c->buf[i];
        fmuc_result_violation(c->res, "alias set %s vr %u: %zu non-constant members have a start "
                              "attribute (%s); at most one may",
                              fmuc_ms__kind_name(kind), (unsigned)vr, nstart,
                              fmuc_ms__members_text(text, sizeof text, md, c->buf, k));
        nnonconst = 0; /* buf reused; recollect below */
        for (size_t i = 0; i < n; i++)
            if (md->vars[m[i] - 1].variability != FMUC_VAR_CONSTANT)
                c->buf[nnonconst++] = m[i];
    }
    if (nconst && nnonconst) {
        const fmuc_md_var *k = NULL;
        for (size_t i = 0; i < n && !k; i++)
            if (md->vars[m[i] - 1].variability == FMUC_VAR_CONSTANT)
                k = &md->vars[m[i] - 1];
        fmuc_result_violation(c->res, "alias set %s vr %u: constant '%s' (line %u) is aliased "
                              "by non-constant variable(s) %s; a constant may alias only "
                              "constants",
                              fmuc_ms__kind_name(kind), (unsigned)vr, fmuc_ms__name(k),
                              (unsigned)k->line,
                              fmuc_ms__members_text(text, sizeof text, md, c->buf, nnonconst));
    }
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

const fmuc_check fmuc_check_md_alias_start = {
    .id = "md-alias-start",
    .title = "Alias sets: one start value at most; constants alias only equal constants",
    .spec = "FMI 2.0.4 §2.2.7",
    .level = FMUC_LEVEL_MUST,
    .why = "Aliases share storage, so two start values for one set are contradictory: an importer "
           "that applies them in order ends with the last one, another tool with the first.",
    .fix = "Keep a start value on at most one non-constant member of each alias set, and let a "
           "constant alias only constants with the same start value.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
