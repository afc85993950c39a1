/* md-special-values: NaN, INF, +INF and -INF are not allowed as attribute values (FMI 2.0.4 §2.2,
 * B-006; 2.0.4 added INF). Reports the parser's ATTR_SYNTAX issues carrying such a literal and any
 * non-finite number the parser accepted (start/min/max/nominal, unit factors/offsets,
 * DefaultExperiment). */
#include <math.h>

#include "check.h"
#include "md_util.h"

typedef struct ctx {
    fmuc_mdu_imap syntax;
    fmuc_result *res;
} ctx;

static int covered(const ctx *c, const char *attr, uint32_t l1, uint32_t l2)
{
    return fmuc_mdu__imap_get(&c->syntax, fmuc_mdu__issue_key(FMUC_ISSUE_ATTR_SYNTAX, attr, l1),
                              NULL) ||
           fmuc_mdu__imap_get(&c->syntax, fmuc_mdu__issue_key(FMUC_ISSUE_ATTR_SYNTAX, attr, l2),
                              NULL);
}

static void num(const ctx *c, const char *what, const char *attr, double v, uint32_t l1,
                uint32_t l2)
{
    if (isfinite(v) || covered(c, attr, l1, l2))
        return;
    char b[32];
    fmuc_result_violation(c->res, "line %u: %s: %s=\"%s\" is not a finite number (NaN/INF are not "
                          "allowed)", (unsigned)l1, what, attr, fmuc_mdu__fmt_double(b, v));
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    ctx c = {.res = res};
    if (fmuc_mdu__issue_keys(&c.syntax, md, FMUC_ISSUE_ATTR_SYNTAX) < 0) {
        fmuc_result_error(res, "out of memory");
        return;
    }
    fmuc_mdu__report_issues(md, "md-special-values", res);
    char d[FMUC_MDU_DESC_LEN];
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (!(v->has & (FMUC_HAS_START | FMUC_HAS_MIN | FMUC_HAS_MAX | FMUC_HAS_NOMINAL)))
            continue;
        fmuc_mdu__var_desc(d, sizeof d, v);
        if ((v->has & FMUC_HAS_START) && v->type != FMUC_TYPE_STRING &&
            !covered(&c, "start", v->type_line, v->line) &&
            (fmuc_mdu__is_special_double(v->start_text) || !isfinite(v->start)))
            fmuc_result_violation(res, "line %u: %s: start=\"%s\" is not a finite number (NaN/INF "
                                  "are not allowed)", (unsigned)v->type_line, d,
                                  fmuc_mdu__str(v->start_text));
        if (v->has & FMUC_HAS_MIN)
            num(&c, d, "min", v->min, v->type_line, v->line);
        if (v->has & FMUC_HAS_MAX)
            num(&c, d, "max", v->max, v->type_line, v->line);
        if (v->has & FMUC_HAS_NOMINAL)
            num(&c, d, "nominal", v->nominal, v->type_line, v->line);
    }
    for (size_t i = 0; i < md->ntypes; i++) {
        const fmuc_md_type *t = &md->types[i];
        char what[256];
        snprintf(what, sizeof what, "SimpleType '%.200s'", fmuc_mdu__str(t->name));
        if (t->has & FMUC_HAS_MIN)
            num(&c, what, "min", t->min, t->line, t->line + 1);
        if (t->has & FMUC_HAS_MAX)
            num(&c, what, "max", t->max, t->line, t->line + 1);
        if (t->has & FMUC_HAS_NOMINAL)
            num(&c, what, "nominal", t->nominal, t->line, t->line + 1);
    }
    for (size_t i = 0; i < md->nunits; i++) {
        const fmuc_md_unit *u = &md->units[i];
        char what[256];
        snprintf(what, sizeof what, "Unit '%.200s'", fmuc_mdu__str(u->name));
        if (u->has_base_unit) {
            num(&c, what, "factor", u->factor, u->line, u->line + 1);
            num(&c, what, "offset", u->offset, u->line, u->line + 1);
        }
        for (size_t k = 0; k < u->ndisplay; k++) {
            const fmuc_md_display_unit *du = &u->display[k];
            snprintf(what, sizeof what, "DisplayUnit '%.200s'", fmuc_mdu__str(du->name));
            num(&c, what, "factor", du->factor, du->line, du->line);
            num(&c, what, "offset", du->offset, du->line, du->line);
        }
    }
    const fmuc_md_experiment *e = &md->experiment;
    if (e->present) {
        if (e->has_start)
            num(&c, "DefaultExperiment", "startTime", e->start_time, e->line, e->line);
        if (e->has_stop)
            num(&c, "DefaultExperiment", "stopTime", e->stop_time, e->line, e->line);
        if (e->has_tolerance)
            num(&c, "DefaultExperiment", "tolerance", e->tolerance, e->line, e->line);
        if (e->has_step)
            num(&c, "DefaultExperiment", "stepSize", e->step_size, e->line, e->line);
    }
    fmuc_mdu__imap_free(&c.syntax);
}

const fmuc_check fmuc_check_md_special_values = {
    .id = "md-special-values",
    .title = "no NaN or INF literals in attribute values",
    .spec = "FMI 2.0.4 §2.2",
    .level = FMUC_LEVEL_MUST,
    .applies = FMUC_APPLIES_ANY,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
