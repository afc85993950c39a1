/* Helpers of the cs-* capability checks (cs-variable-step, cs-input-derivatives,
 * cs-output-derivatives): inputs kept within the physics the model description declares. */
#ifndef FMUC_CS_UTIL_H
#define FMUC_CS_UTIL_H

#include <math.h>

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
