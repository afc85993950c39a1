/* Helpers of the cs-* capability checks (cs-variable-step, cs-input-derivatives,
 * cs-output-derivatives): inputs kept within the physics the model description declares. */
#ifndef FMUC_CS_UTIL_H
#define FMUC_CS_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_util.h"
#include "eq/eq_util.h"

/** Clamp every input value of the plan to its variable's [min, max] (own or declared type's). */
static inline void csu_clamp_inputs(equ_plan *p)
{
    const fmuc_md *md = &p->fmu->md;
    for (size_t j = 0; j < p->nin; j++) {
        const fmuc_md_var *v = equ_md_find(md, p->in[j].name);
        double lo, hi;
        if (!v)
            continue;
        for (size_t k = 0; k <= p->nsteps; k++) {
            double *u = &p->in_values[k * p->nin + j];
            if (apiu_min(md, v, &lo) && *u < lo)
                *u = lo;
            if (apiu_max(md, v, &hi) && *u > hi)
                *u = hi;
        }
    }
}

/** A bounded horizon (issue 16: runs beyond the nominal one do not repeat the whole experiment):
 *  the nominal run's communication grid (the DefaultExperiment's start and stepSize; without a
 *  stepSize a 500th of the experiment, as the simulation driver does), over a tenth of its steps,
 *  at least min_steps and at most max_steps (never more than the experiment has). Returns
 *  equ_plan_init_grid's result (p->why on failure); with any, equ_plan_init_grid_any's (the
 *  caller sets the outputs, also when the model has nothing the runs record). */
/** The same grid with, when step_multiple > 0 (FMI 3.0 fixedInternalStepSize), a step that is
 *  the nearest integer multiple (at least 1) of step_multiple and only the whole steps that fit
 *  in the experiment (an FMU that integrates in fixed internal steps cannot reach a
 *  communication point between them, nor go past the stop time). */
static inline int csu_plan_init_multiple(equ_plan *p, const fmuc_fmu *fmu, size_t min_steps,
                                         size_t max_steps, int any, double step_multiple)
{
    const fmuc_md_experiment *e = &fmu->md.experiment;
    double t0 = e->present && e->has_start && isfinite(e->start_time) ? e->start_time : 0.0;
    double t1 = e->present && e->has_stop && isfinite(e->stop_time) && e->stop_time > t0
                    ? e->stop_time
                    : t0 + 1.0;
    /* FMI 3.0 CS with fixedInternalStepSize: the same bound as the nominal run (Roberts) */
    t1 = fmuc_shared_fixed_step_stop(&fmu->md, FMUC_IFACE_CS, t0, t1);
    double dt = e->present && e->has_step && isfinite(e->step_size) && e->step_size > 0 &&
                        e->step_size <= t1 - t0
                    ? e->step_size
                    : (t1 - t0) / 500.0;
    double all;
    if (step_multiple > 0.0 && isfinite(step_multiple)) {
        double m = round(dt / step_multiple);
        dt = (m < 1.0 ? 1.0 : m) * step_multiple;
        all = floor((t1 - t0) / dt + 1e-9);
    } else {
        all = ceil((t1 - t0) / dt - 1e-9);
    }
    size_t n_all = all < 1.0 ? 1 : all > 1e9 ? (size_t)1e9 : (size_t)all;
    size_t n = (n_all + 9) / 10;
    if (n < min_steps)
        n = min_steps;
    if (n > max_steps)
        n = max_steps;
    if (n > n_all)
        n = n_all;
    double *t = malloc((n + 1) * sizeof *t);
    if (!t) {
        memset(p, 0, sizeof *p);
        snprintf(p->why, sizeof p->why, "out of memory");
        return -1;
    }
    for (size_t k = 0; k <= n; k++)
        t[k] = t0 + (double)k * dt; /* never accumulated */
    int rc = any ? equ_plan_init_grid_any(p, fmu, FMUC_IFACE_CS, t, n + 1)
                 : equ_plan_init_grid(p, fmu, FMUC_IFACE_CS, t, n + 1);
    free(t);
    return rc;
}

static inline int csu_plan_init_ex(equ_plan *p, const fmuc_fmu *fmu, size_t min_steps,
                                   size_t max_steps, int any)
{
    return csu_plan_init_multiple(p, fmu, min_steps, max_steps, any, 0.0);
}

static inline int csu_plan_init(equ_plan *p, const fmuc_fmu *fmu, size_t min_steps,
                                size_t max_steps)
{
    return csu_plan_init_ex(p, fmu, min_steps, max_steps, 0);
}

/** The nominal Co-Simulation run shared between checks (when the runner keeps one) ended
 *  abnormally (crash, timeout, load failure: an ERROR): this check is not applicable, naming it,
 *  instead of a second crash or timeout in the same phase (issue 16). Returns 1 when the check
 *  may go on (also when there is no shared run: no extra full run is made for this). */
static inline int csu_nominal_usable_iface(const fmuc_subject *s, fmuc_iface iface,
                                           const char *check_id, fmuc_result *res)
{
    if (!s->shared)
        return 1;
    fmuc_result scratch;
    fmuc_sim_result own;
    fmuc_result_init(&scratch, res->id, res->title, res->spec, res->level);
    const fmuc_sim_result *r = fmuc_shared_nominal_run(s, iface, check_id, &scratch, &own);
    /* an ERROR, or a stop before a call that hung in an earlier worker (not applicable) */
    int ok = r != NULL || (scratch.verdict != FMUC_VERDICT_ERROR &&
                           !cJSON_GetObjectItemCaseSensitive(
                               cJSON_GetObjectItemCaseSensitive(scratch.evidence, "worker"),
                               "not_called_again_hung_in"));
    if (!ok)
        fmuc_result_na(res, "%s: the nominal run ended abnormally, so the phase this check needs "
                            "is not available (see %s): %s",
                       apiu_iface_name(iface),
                       iface == FMUC_IFACE_CS ? "cs-nominal-run" : "me-nominal-run",
                       scratch.nmessages ? scratch.messages[0] : "no result");
    fmuc_sim_result_free(&own);
    fmuc_result_clear(&scratch);
    return ok;
}

static inline int csu_nominal_usable(const fmuc_subject *s, const char *check_id, fmuc_result *res)
{
    return csu_nominal_usable_iface(s, FMUC_IFACE_CS, check_id, res);
}

/** A worker ended abnormally (scratch carries what fmuc_worker_outcome_to_result made of it) in
 *  the very call the check probes: that is the check's result (issue 16: a crash in answer to
 *  the probed call fails a MUST rule). A timeout only warns (a slow FMU cannot be told from a hanging one here);
 *  a garbled reply (the worker did not die in a call) stays an ERROR; a stop before a call that
 *  hung in an earlier worker is not applicable. How the worker ended is read from the evidence
 *  (worker.end), not from the message. The worker evidence goes to evidence[key]. scratch is
 *  cleared. */
static inline void csu_probe_died(fmuc_result *res, fmuc_result *scratch, int must,
                                  const char *what, const char *key)
{
    const char *m = scratch->nmessages ? scratch->messages[0] : "the worker ended abnormally";
    /* how the worker ended, as fmuc_worker_outcome_to_result recorded it */
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(scratch->evidence, "worker");
    const char *end = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(w, "end"));
    if (scratch->verdict == FMUC_VERDICT_NA)
        /* stopped before a call that hung in an earlier worker, which judged it */
        fmuc_result_na(res, "%s: %s", what, m);
    else if (!end)
        /* no worker ran (it could not be started): nothing was probed */
        fmuc_result_error(res, "%s: %s", what, m);
    else if (strcmp(end, fmuc_worker_end_name(FMUC_WORKER_PROTOCOL)) == 0)
        /* the worker did not die: its reply came back garbled or forged: nothing was judged */
        fmuc_result_error(res, "%s: %s", what, m);
    else if (strcmp(end, fmuc_worker_end_name(FMUC_WORKER_TIMEOUT)) == 0)
        fmuc_result_warn(res, "%s: %s", what, m);
    else if (must)
        fmuc_result_violation(res, "%s: %s", what, m);
    else
        fmuc_result_warn(res, "%s: %s", what, m);
    for (size_t i = 1; i < scratch->nmessages; i++)
        fmuc_result_note(res, "%s", scratch->messages[i]);
    if (scratch->evidence)
        cJSON_AddItemToObject(fmuc_result_evidence(res), key,
                              cJSON_Duplicate(scratch->evidence, 1));
    fmuc_result_clear(scratch);
}

/** Otherwise: scratch's messages and verdict into res, its evidence to evidence[key]; cleared. */
static inline void csu_merge(fmuc_result *res, fmuc_result *scratch, const char *key)
{
    fmuc_result_merge(res, scratch);
    if (scratch->evidence)
        cJSON_AddItemToObject(fmuc_result_evidence(res), key,
                              cJSON_Duplicate(scratch->evidence, 1));
    fmuc_result_clear(scratch);
}

/** Continuous Real outputs of the model (name, vr), at most max; returns the count. */
static inline size_t csu_continuous_outputs(const fmuc_md *md, equ_var *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < md->nvars && n < max; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (v->causality == FMUC_CAUS_OUTPUT && v->type == FMUC_TYPE_REAL &&
            v->variability == FMUC_VAR_CONTINUOUS && v->name &&
            (v->has & FMUC_HAS_VALUE_REFERENCE))
            out[n++] = (equ_var){.name = v->name, .vr = v->value_reference, .type = v->type, .line = v->line};
    }
    return n;
}

#endif
