/* md-naming-der-real fixture: x' = -k x (ME + CS) plus an Integer counter named "der(n)", which
 * under variableNamingConvention="structured" (set by xml.sed) reads as a derivative but is no
 * Real. Keeps the base modelIdentifier SpringMassDamper. */
#include <stddef.h>

#include "fmuc_model.h"

typedef struct {
    double x, der_x, k;
    int n;
} decay;

#define OFF(f) offsetof(decay, f)

static const fmuc_m_var vars[] = {
    {.name = "time", .vr = 0, .causality = FMUC_M_INDEPENDENT, .unit = "s"},
    {.name = "x", .vr = 1, .causality = FMUC_M_OUTPUT, .initial = FMUC_M_EXACT,
     .flags = FMUC_M_HAS_START, .start = 1.0, .offset = OFF(x), .deps = "x"},
    {.name = "der(x)", .vr = 2, .offset = OFF(der_x), .derivative_of = "x", .deps = "x",
     .init_deps = "x k"},
    {.name = "k", .vr = 3, .causality = FMUC_M_PARAMETER, .variability = FMUC_M_TUNABLE,
     .flags = FMUC_M_HAS_START, .start = 0.5, .offset = OFF(k)},
    {.name = "der(n)", .vr = 4, .type = FMUC_M_INTEGER, .variability = FMUC_M_DISCRETE,
     .offset = OFF(n), .description = "a counter, not a derivative"},
};

static fmi2Status calc(fmuc_m_ctx *c, void *p)
{
    decay *d = p;
    (void)c;
    d->der_x = -d->k * d->x;
    d->n = 0;
    return fmi2OK;
}

const fmuc_m_desc fmuc_model = {
    .model_name = "Decay",
    .model_identifier = "SpringMassDamper",
    .version = "1.0",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_CS | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE,
    .vars = vars,
    .nvars = sizeof vars / sizeof vars[0],
    .data_size = sizeof(decay),
    .cs_h_max = 1e-3,
    .calc = calc,
};
