/* md-var-clocked: FMI 3.0 clocked variables (§2.2.8.2, §2.2.8.3, §2.4.7.4, §2.4.8; fmi3-rules
 * B-203 part, B-222, B-223, B-357, B-403):
 *  - every valueReference of a clocks attribute names a Clock; clocks is given only on discrete
 *    or tunable variables; a variable clocked by a local Clock is a local itself;
 *  - previous is given only together with clocks, on a discrete variable that is no Clock; it
 *    names another variable of the same type, discrete and not an input, that no other
 *    variable's previous names;
 *  - a ClockedState entry names a discrete variable with previous and clocks, not a Clock;
 *  - local Clocks never appear in ModelStructure and not in Scheduled Execution FMUs. */
#include <stdlib.h>

#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    char d[FMUC_MDU_DESC_LEN], d2[FMUC_MDU_DESC_LEN];
    size_t nkeys = 0, nclocked = 0;
    uint64_t *keys = fmuc_mdu__vr_sort(md, &nkeys);
    uint8_t *prev_seen = calloc(md->nvars + 1, 1);
    if (!keys || !prev_seen) {
        fmuc_result_error(res, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < md->nexts; i++) {
        const fmuc_md_var_ext *x = &md->exts[i];
        const fmuc_md_var *v = &md->vars[x->var];
        if (!x->nclocks && !x->has_previous)
            continue;
        nclocked++;
        fmuc_mdu__var_desc(d, sizeof d, v);
        if (x->nclocks && v->variability != FMUC_VAR_DISCRETE &&
            v->variability != FMUC_VAR_TUNABLE && v->variability != FMUC_VAR_INVALID)
            fmuc_result_violation(res, "%s: clocks given on a variable with variability=\"%s\"; "
                                  "only discrete and tunable variables are clocked", d,
                                  fmuc_mdu__variability_name(v->variability));
        for (uint32_t k = 0; k < x->nclocks; k++) {
            const fmuc_md_var *c = fmuc_mdu__vr_find(md, keys, nkeys, x->clocks[k]);
            if (!c)
                fmuc_result_violation(res, "%s: clocks item %u = %u names no variable", d, k + 1,
                                      (unsigned)x->clocks[k]);
            else if (c->base != FMUC_BT_CLOCK)
                fmuc_result_violation(res, "%s: clocks item %u names %s, a %s, not a Clock", d,
                                      k + 1, fmuc_mdu__var_desc(d2, sizeof d2, c),
                                      fmuc_mdu__var_type_name(md, c));
            else if (c->causality == FMUC_CAUS_LOCAL && v->causality != FMUC_CAUS_LOCAL &&
                     v->base != FMUC_BT_CLOCK)
                fmuc_result_violation(res, "%s (causality=\"%s\") is clocked by the local Clock "
                                      "%s; only local variables are", d,
                                      fmuc_mdu__causality_name(v->causality),
                                      fmuc_mdu__var_desc(d2, sizeof d2, c));
        }
        if (!x->has_previous)
            continue;
        if (v->base == FMUC_BT_CLOCK) {
            fmuc_result_violation(res, "%s: a Clock with previous", d);
            continue;
        }
        if (!x->nclocks)
            fmuc_result_violation(res, "%s: previous without clocks", d);
        if (v->variability != FMUC_VAR_DISCRETE && v->variability != FMUC_VAR_INVALID)
            fmuc_result_violation(res, "%s: previous on a variable with variability=\"%s\"; only "
                                  "discrete variables have one", d,
                                  fmuc_mdu__variability_name(v->variability));
        const fmuc_md_var *t = fmuc_mdu__vr_find(md, keys, nkeys, x->previous);
        if (!t) {
            fmuc_result_violation(res, "%s: previous=\"%u\" names no variable", d,
                                  (unsigned)x->previous);
            continue;
        }
        fmuc_mdu__var_desc(d2, sizeof d2, t);
        size_t ti = (size_t)(t - md->vars);
        if (t == v)
            fmuc_result_violation(res, "%s: previous names the variable itself", d);
        else if (prev_seen[ti + 1])
            fmuc_result_violation(res, "%s: previous names %s, which another variable's previous "
                                  "names already", d, d2);
        prev_seen[ti + 1] = 1;
        if (t != v && t->base != v->base)
            fmuc_result_violation(res, "%s: previous names %s, a %s; the types differ", d, d2,
                                  fmuc_mdu__var_type_name(md, t));
        if (t != v && t->variability != FMUC_VAR_DISCRETE && t->variability != FMUC_VAR_INVALID)
            fmuc_result_violation(res, "%s: previous names %s, whose variability is \"%s\", not "
                                  "discrete", d, d2, fmuc_mdu__variability_name(t->variability));
        if (t != v && t->causality == FMUC_CAUS_INPUT)
            fmuc_result_violation(res, "%s: previous names %s, an input", d, d2);
    }
    /* ClockedState entries (§2.4.8) */
    for (size_t i = 0; i < md->nclocked_states; i++) {
        const fmuc_md_unknown *u = &md->clocked_states[i];
        const fmuc_md_var *v = fmuc_md_var_at(md, u->index);
        if (!v)
            continue; /* md-ms-indices */
        const fmuc_md_var_ext *x = v->ext ? fmuc_md_var_ext_of(md, u->index - 1) : NULL;
        fmuc_mdu__var_desc(d, sizeof d, v);
        if (v->base == FMUC_BT_CLOCK)
            fmuc_result_violation(res, "<ClockedState valueReference=\"%u\"> (line %u): %s is a "
                                  "Clock", (unsigned)u->value_reference, (unsigned)u->line, d);
        else if (!x || !x->has_previous || !x->nclocks ||
                 (v->variability != FMUC_VAR_DISCRETE && v->variability != FMUC_VAR_INVALID))
            fmuc_result_violation(res, "<ClockedState valueReference=\"%u\"> (line %u): %s is not "
                                  "a clocked state (a discrete variable with previous and clocks)",
                                  (unsigned)u->value_reference, (unsigned)u->line, d);
    }
    /* local clocks (§2.2.8.2) */
    for (size_t i = 0; i < md->nunknowns; i++) {
        const fmuc_md_unknown *u = &md->unknowns[i];
        const fmuc_md_var *v = fmuc_md_var_at(md, u->index);
        if (v && v->base == FMUC_BT_CLOCK && v->causality == FMUC_CAUS_LOCAL)
            fmuc_result_violation(res, "<%s valueReference=\"%u\"> (line %u): %s is a local "
                                  "Clock; local clocks never appear in ModelStructure",
                                  fmuc_md_unknown_kind_name((fmuc_unknown_kind)u->kind),
                                  (unsigned)u->value_reference, (unsigned)u->line,
                                  fmuc_mdu__var_desc(d, sizeof d, v));
    }
    for (size_t i = 0; md->se.present && i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (v->base == FMUC_BT_CLOCK && v->causality == FMUC_CAUS_LOCAL) {
            fmuc_result_violation(res, "%s: a local Clock in an FMU with ScheduledExecution, "
                                  "which has no local clocks", fmuc_mdu__var_desc(d, sizeof d, v));
            nclocked++;
        }
    }
    if (!nclocked && !md->nclocked_states)
        fmuc_result_na(res, "no variable has clocks or previous");
out:
    free(keys);
    free(prev_seen);
}

const fmuc_check fmuc_check_md_var_clocked = {
    .id = "md-var-clocked",
    .title = "FMI 3.0: clocks and previous attributes, clocked states and local clocks",
    .spec = "FMI 3.0.2 §2.2.8.2, §2.2.8.3, §2.4.7.4, §2.4.8",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers read and set clocked variables only while their clocks tick and pair each "
           "clocked state with its previous value: a clocks list naming non-clocks or a broken "
           "previous link makes them access variables at the wrong instants.",
    .fix = "List only Clock valueReferences in clocks (on discrete or tunable variables), and let "
           "previous name a distinct discrete variable of the same type for each clocked state.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
