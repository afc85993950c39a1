/* md-ms-event-indicators: FMI 3.0 ModelStructure/EventIndicator (§2.4.8, §2.4.7.4; fmi3-rules
 * B-405, B-216): every entry names a continuous Float32/Float64 variable of causality local or
 * output, each variable once (the concatenation of their values is the event indicator vector
 * of fmi3GetEventIndicators). Whether Model Exchange lists all its indicators, and their count
 * against fmi3GetNumberOfEventIndicators, only a run can tell (me-events). */
#include <stdlib.h>

#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    char d[FMUC_MDU_DESC_LEN];
    if (!md->nevent_indicators) {
        fmuc_result_na(res, "no EventIndicator in ModelStructure");
        return;
    }
    uint8_t *seen = calloc(md->nvars + 1, 1);
    if (!seen) {
        fmuc_result_error(res, "out of memory");
        return;
    }
    for (size_t i = 0; i < md->nevent_indicators; i++) {
        const fmuc_md_unknown *u = &md->event_indicators[i];
        const fmuc_md_var *v = fmuc_md_var_at(md, u->index);
        if (!v)
            continue; /* md-ms-indices */
        fmuc_mdu__var_desc(d, sizeof d, v);
        if (seen[u->index]) {
            fmuc_result_violation(res, "<EventIndicator valueReference=\"%u\"> (line %u): %s is "
                                  "listed more than once", (unsigned)u->value_reference,
                                  (unsigned)u->line, d);
            continue;
        }
        seen[u->index] = 1;
        if (v->type != FMUC_TYPE_REAL)
            fmuc_result_violation(res, "<EventIndicator valueReference=\"%u\"> (line %u): %s is a "
                                  "%s; event indicators are Float32 or Float64",
                                  (unsigned)u->value_reference, (unsigned)u->line, d,
                                  fmuc_mdu__var_type_name(md, v));
        else if (v->variability != FMUC_VAR_CONTINUOUS)
            fmuc_result_violation(res, "<EventIndicator valueReference=\"%u\"> (line %u): %s has "
                                  "variability=\"%s\"; event indicators are continuous",
                                  (unsigned)u->value_reference, (unsigned)u->line, d,
                                  fmuc_mdu__variability_name(v->variability));
        if (v->causality != FMUC_CAUS_LOCAL && v->causality != FMUC_CAUS_OUTPUT)
            fmuc_result_violation(res, "<EventIndicator valueReference=\"%u\"> (line %u): %s has "
                                  "causality=\"%s\"; event indicators are locals or outputs",
                                  (unsigned)u->value_reference, (unsigned)u->line, d,
                                  fmuc_mdu__causality_name(v->causality));
    }
    cJSON *ev = fmuc_result_evidence(res);
    if (ev)
        cJSON_AddNumberToObject(ev, "event_indicators_listed", (double)md->nevent_indicators);
    free(seen);
}

const fmuc_check fmuc_check_md_ms_event_indicators = {
    .id = "md-ms-event-indicators",
    .title = "FMI 3.0: EventIndicator entries name continuous Float locals or outputs, once",
    .spec = "FMI 3.0.2 §2.4.8, §2.4.7.4",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers build the event indicator vector from the EventIndicator entries and watch "
           "it for zero crossings: a non-Float, non-continuous or repeated entry corrupts the "
           "vector's size or meaning, so events are missed.",
    .fix = "List each event indicator once as an EventIndicator naming a continuous Float32 or "
           "Float64 local or output variable.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
