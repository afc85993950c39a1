/* Structural parameters and the arrays they dimension for the FMI 3.0 glue: see fmi3_glue_sp.h. */
#include "fmi3_glue_sp.h"

#include <stdint.h>

static const fmuc_m_var *dimensioning_parameter(const fmuc_m_desc *d, const fmuc_m_var *v)
{
    if (!v->dim_param)
        return NULL;
    long p = fmuc_m_find(d, v->dim_param);
    if (p < 0 || d->vars[p].causality != FMUC_M_STRUCTURAL_PARAMETER ||
        d->vars[p].type != FMUC_M_UINT64)
        return NULL;
    return &d->vars[p];
}

size_t fmuc_g3sp_count(const fmuc_m_desc *d)
{
    size_t n = 0;
    for (size_t i = 0; i < d->nvars; i++)
        n += d->vars[i].causality == FMUC_M_STRUCTURAL_PARAMETER;
    return n;
}

int fmuc_g3sp_is_array(const fmuc_m_var *v) { return v->dim > 1 || v->dim_param != NULL; }

size_t fmuc_g3sp_elements(const fmuc_m_desc *d, const void *data, const fmuc_m_var *v)
{
    size_t storage = v->dim > 1 ? v->dim : 1;
    const fmuc_m_var *p = dimensioning_parameter(d, v);
    if (!p)
        return storage;
    uint64_t n = *(const uint64_t *)(const void *)((const char *)data + p->offset);
    return n < storage ? (size_t)n : storage;
}

size_t fmuc_g3sp_elements_at_start(const fmuc_m_desc *d, const fmuc_m_var *v)
{
    size_t storage = v->dim > 1 ? v->dim : 1;
    const fmuc_m_var *p = dimensioning_parameter(d, v);
    if (!p)
        return storage;
    size_t n = p->start > 0.0 ? (size_t)p->start : 0;
    return n < storage ? n : storage;
}

size_t fmuc_g3sp_event_indicators(const fmuc_m_desc *d, const void *data)
{
    size_t n = 0;
    int sized = 0;
    for (size_t i = 0; i < d->nvars; i++) {
        const fmuc_m_var *v = &d->vars[i];
        if (!(v->flags & FMUC_M_EVENT_INDICATOR))
            continue;
        sized |= v->dim_param != NULL;
        n += fmuc_g3sp_elements(d, data, v);
    }
    return sized ? n : d->n_event_indicators;
}

const char *fmuc_g3sp_not_settable(const fmuc_m_var *v, int configuration_mode)
{
    int structural = v->causality == FMUC_M_STRUCTURAL_PARAMETER;
    if (configuration_mode)
        return structural ? NULL
                          : "only structural parameters may be set in Configuration Mode "
                            "(FMI 3.0.2 §3.2)";
    if (structural)
        return "it is a fixed structural parameter, set only in Configuration Mode "
               "(FMI 3.0.2 §3.2, §2.4.7.4)";
    return NULL;
}

void fmuc_g3sp_resize(const fmuc_m_desc *d, void *data)
{
    for (size_t i = 0; i < d->nvars; i++) {
        const fmuc_m_var *v = &d->vars[i];
        if (!dimensioning_parameter(d, v) || v->type != FMUC_M_REAL)
            continue;
        double *p = (double *)(void *)((char *)data + v->offset);
        for (size_t k = 0; k < v->dim; k++)
            p[k] = v->start;
    }
}
