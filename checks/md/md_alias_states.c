/* md-alias-states: an alias set holds at most one continuous-time state (FMI 2.0.4 §2.2.7,
 * catalogue B-301, B-203). fmi2SetContinuousStates sets every state separately, so two states
 * sharing a valueReference would behave differently from two distinct variables, which makes
 * the alias illegal (like two settable members, B-302). */
#include <stdlib.h>

#include "check.h"
#include "md_util.h"

typedef struct ctx {
    fmuc_result *res;
    const fmuc_ms_roles *roles;
    uint32_t *buf;
} ctx;

static void on_set(const fmuc_md *md, int kind, uint32_t vr, const uint32_t *m, size_t n,
                   void *payload)
{
    ctx *c = payload;
    size_t ns = 0;
    char text[FMUC_MS_MEMBERS_LEN];
    if (kind != FMUC_MS_KIND_REAL)
        return;
    for (size_t i = 0; i < n; i++)
        if (c->roles->role[m[i]] & FMUC_MS_STATE)
            c->buf[ns++] = m[i];
    if (ns > 1)
        fmuc_result_violation(c->res, "alias set fmi2Real vr %u: %zu continuous-time states share "
                              "the valueReference (%s); each state must have its own",
                              (unsigned)vr, ns,
                              fmuc_ms__members_text(text, sizeof text, md, c->buf, ns));
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    fmuc_ms_roles roles = {0};
    ctx c = {res, &roles, malloc((md->nvars ? md->nvars : 1) * sizeof(uint32_t))};
    if (!c.buf || fmuc_ms__roles(&roles, md) < 0) {
        fmuc_result_error(res, "out of memory");
        goto out;
    }
    long sets = fmuc_ms__alias_sets_of(s, on_set, &c);
    if (sets < 0)
        fmuc_result_error(res, "out of memory");
    else if (sets == 0)
        fmuc_result_na(res, "no alias variables (every valueReference is unique per base type)");
out:
    fmuc_ms__roles_free(&roles);
    free(c.buf);
}

const fmuc_check fmuc_check_md_alias_states = {
    .id = "md-alias-states",
    .title = "No two continuous-time states share a valueReference",
    .spec = "FMI 2.0.4 §2.2.7, §2.2.8",
    .level = FMUC_LEVEL_MUST,
    .why = "fmi2SetContinuousStates writes every state by position; two states sharing a "
           "valueReference overwrite each other, so the solver's state vector and the model's "
           "values diverge.",
    .fix = "Give each continuous-time state its own valueReference, or keep one of them as the "
           "state and reference it from the other variable through the model's equations.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
