/* Helpers of the cs-* capability checks (cs-variable-step, cs-input-derivatives,
 * cs-output-derivatives): inputs kept within the physics the model description declares. */
#ifndef FMUC_CS_UTIL_H
#define FMUC_CS_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_util.h"
#include "eq_util.h"

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
 *  equ_plan_init_grid's result (p->why on failure). */
static inline int csu_plan_init(equ_plan *p, const fmuc_fmu *fmu, size_t min_steps,
                                size_t max_steps)
{
    const fmuc_md_experiment *e = &fmu->md.experiment;
    double t0 = e->present && e->has_start && isfinite(e->start_time) ? e->start_time : 0.0;
    double t1 = e->present && e->has_stop && isfinite(e->stop_time) && e->stop_time > t0
                    ? e->stop_time
                    : t0 + 1.0;
    double dt = e->present && e->has_step && isfinite(e->step_size) && e->step_size > 0
                    ? e->step_size
                    : (t1 - t0) / 500.0;
    double all = ceil((t1 - t0) / dt - 1e-9);
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
    int rc = equ_plan_init_grid(p, fmu, fmi2CoSimulation, t, n + 1);
    free(t);
    return rc;
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
            out[n++] = (equ_var){v->name, v->value_reference, v->type, v->line};
    }
    return n;
}

#endif
