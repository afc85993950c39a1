/* Table helpers shared by the FMI glue and mdgen: effective `initial`, name lookup and the
 * GUID derived from the descriptor content (so the XML and the binary cannot drift apart). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fmuc_model.h"

fmuc_m_initial fmuc_m_effective_initial(const fmuc_m_var *v)
{
    if (v->causality == FMUC_M_INPUT || v->causality == FMUC_M_INDEPENDENT)
        return FMUC_M_INITIAL_NONE;
    if (v->initial != FMUC_M_INITIAL_DEFAULT)
        return v->initial;
    switch (v->variability) {
    case FMUC_M_CONSTANT:
        return FMUC_M_EXACT;
    case FMUC_M_FIXED:
    case FMUC_M_TUNABLE:
        return v->causality == FMUC_M_PARAMETER || v->causality == FMUC_M_STRUCTURAL_PARAMETER
                   ? FMUC_M_EXACT
                   : FMUC_M_CALCULATED;
    case FMUC_M_DISCRETE:
    case FMUC_M_CONTINUOUS:
    default:
        return FMUC_M_CALCULATED;
    }
}

long fmuc_m_find(const fmuc_m_desc *d, const char *name)
{
    for (size_t i = 0; i < d->nvars; i++)
        if (d->vars[i].name && strcmp(d->vars[i].name, name) == 0)
            return (long)i;
    return -1;
}

int fmuc_m_is_state(const fmuc_m_desc *d, size_t i)
{
    for (size_t k = 0; k < d->nvars; k++)
        if (d->vars[k].derivative_of && fmuc_m_find(d, d->vars[k].derivative_of) == (long)i)
            return 1;
    return 0;
}

int fmuc_m_is_initial_unknown(const fmuc_m_desc *d, size_t i)
{
    const fmuc_m_var *v = &d->vars[i];
    fmuc_m_initial ini = fmuc_m_effective_initial(v);
    int calc = ini == FMUC_M_APPROX || ini == FMUC_M_CALCULATED;
    if (v->causality == FMUC_M_OUTPUT && calc)
        return 1;
    if (v->causality == FMUC_M_CALCULATED_PARAMETER)
        return 1;
    return calc && (fmuc_m_is_state(d, i) ||
                    (v->derivative_of && fmuc_m_find(d, v->derivative_of) >= 0));
}

int fmuc_m_is_known(const fmuc_m_desc *d, size_t i, int init)
{
    const fmuc_m_var *v = &d->vars[i];
    if (v->causality == FMUC_M_INPUT || v->causality == FMUC_M_INDEPENDENT)
        return 1;
    return init ? fmuc_m_effective_initial(v) == FMUC_M_EXACT : fmuc_m_is_state(d, i);
}

/* FNV-1a 64 over a canonical byte stream; two streams with different offsets give 128 bits. */
typedef struct {
    uint64_t h[2];
} hash2;

static void feed(hash2 *s, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 2; k++) {
            s->h[k] ^= b[i];
            s->h[k] *= 1099511628211ull;
        }
    }
}

static void feed_u64(hash2 *s, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    feed(s, b, 8);
}

static void feed_str(hash2 *s, const char *str)
{
    if (!str) {
        feed_u64(s, UINT64_MAX);
        return;
    }
    size_t n = strlen(str);
    feed_u64(s, n);
    feed(s, str, n);
}

static void feed_dbl(hash2 *s, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    feed_u64(s, u);
}

long fmuc_m_find_clock_vr(const fmuc_m_desc *d, fmi2ValueReference vr)
{
    for (size_t i = 0; i < d->nclocks; i++)
        if (d->clocks[i].vr == vr)
            return (long)i;
    return -1;
}

uint64_t fmuc_m_clock_counter(const fmuc_m_clock *k, double seconds)
{
    return (uint64_t)llround(seconds * (double)k->resolution);
}

long fmuc_m_find_clock(const fmuc_m_desc *d, const char *name)
{
    for (size_t i = 0; name && i < d->nclocks; i++)
        if (d->clocks[i].name && strcmp(d->clocks[i].name, name) == 0)
            return (long)i;
    return -1;
}

void fmuc_m_guid(const fmuc_m_desc *d, char out[39])
{
    fmuc_m_guid_salted(d, "fmucheck-model-v1", out);
}

void fmuc_m_guid_salted(const fmuc_m_desc *d, const char *salt, char out[39])
{
    hash2 s = {{14695981039346656037ull, 0x6c62272e07bb0142ull}};
    feed_str(&s, salt);
    feed_str(&s, d->model_name);
    feed_str(&s, d->model_identifier);
    feed_str(&s, d->version);
    feed_u64(&s, d->caps);
    feed_u64(&s, d->nvars);
    feed_u64(&s, d->n_event_indicators);
    for (size_t i = 0; i < d->nvars; i++) {
        const fmuc_m_var *v = &d->vars[i];
        feed_str(&s, v->name);
        feed_u64(&s, v->vr);
        feed_u64(&s, (uint64_t)v->type);
        feed_u64(&s, (uint64_t)v->causality);
        feed_u64(&s, (uint64_t)v->variability);
        feed_u64(&s, (uint64_t)v->initial);
        feed_u64(&s, v->flags);
        feed_dbl(&s, v->start);
        feed_str(&s, v->start_str);
        feed_dbl(&s, v->min);
        feed_dbl(&s, v->max);
        feed_dbl(&s, v->nominal);
        feed_str(&s, v->unit);
        feed_str(&s, v->derivative_of);
        feed_str(&s, v->deps);
        feed_str(&s, v->init_deps);
        if (v->dim > 1) /* FMI 3.0 arrays only: scalar tables keep their FMI 2.0 GUID */
            feed_u64(&s, v->dim);
        if (v->dim_param) /* FMI 3.0 arrays sized by a structural parameter */
            feed_str(&s, v->dim_param);
        if (v->clocks) /* SE tables only: the others keep their GUID */
            feed_str(&s, v->clocks);
    }
    for (size_t i = 0; i < d->nclocks; i++) { /* none in ME/CS tables: GUIDs unchanged */
        const fmuc_m_clock *k = &d->clocks[i];
        feed_str(&s, k->name);
        feed_u64(&s, k->vr);
        feed_u64(&s, (uint64_t)k->causality);
        feed_u64(&s, (uint64_t)k->interval_variability);
        feed_u64(&s, k->flags);
        feed_dbl(&s, k->interval);
        feed_dbl(&s, k->shift);
        feed_u64(&s, k->priority);
    }
    for (size_t i = 0; i < d->naliases; i++) { /* none in 2.0 tables: their GUIDs are unchanged */
        feed_str(&s, d->aliases[i].name);
        feed_str(&s, d->aliases[i].base);
        feed_u64(&s, (uint64_t)d->aliases[i].negated);
    }
    uint64_t a = s.h[0], b = s.h[1];
    snprintf(out, 39, "{%08x-%04x-%04x-%04x-%012llx}", (unsigned)(a >> 32),
             (unsigned)((a >> 16) & 0xffffu), (unsigned)(a & 0xffffu), (unsigned)(b >> 48),
             (unsigned long long)(b & 0xffffffffffffull));
}
