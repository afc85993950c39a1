/* LagChain: good FMI 3.0 reference FMU (ME + CS) with a structural parameter and arrays.
 * A chain of n first-order lags driven by the input u:
 *   der(x)[0] = gains[0] (u - x[0]) / tau,  der(x)[i] = gains[i] (x[i-1] - x[i]) / tau,
 *   y = x[n-1],
 * n a fixed UInt64 structural parameter (start 3, min 1, max 16) that sizes x, der(x) and gains
 * (<Dimension valueReference="n"/>, FMI 3.0.2 §2.4.7.2): set it in Configuration Mode and the
 * arrays, the number of continuous states and y follow. CS uses the glue's fixed-step RK4. */
#include <stddef.h>
#include <stdint.h>

#include "fmuc_model.h"

#define LAG_MAX 16

typedef struct {
    uint64_t n;
    double x[LAG_MAX], der_x[LAG_MAX], gains[LAG_MAX];
    double u, tau, y;
} lag_chain;

enum { VR_TIME = 0, VR_N, VR_X, VR_DER_X, VR_GAINS, VR_U, VR_TAU, VR_Y };

#define OFF(f) offsetof(lag_chain, f)

static const fmuc_m_var vars[] = {
    {.name = "time", .vr = VR_TIME, .causality = FMUC_M_INDEPENDENT, .unit = "s",
     .description = "Simulation time"},
    {.name = "n", .vr = VR_N, .type = FMUC_M_UINT64, .causality = FMUC_M_STRUCTURAL_PARAMETER,
     .variability = FMUC_M_FIXED, .flags = FMUC_M_HAS_START | FMUC_M_HAS_MIN | FMUC_M_HAS_MAX,
     .start = 3, .min = 1, .max = LAG_MAX, .offset = OFF(n),
     .description = "Number of lags in the chain (sizes x, der(x) and gains)"},
    {.name = "x", .vr = VR_X, .initial = FMUC_M_EXACT, .flags = FMUC_M_HAS_START, .start = 0.0,
     .offset = OFF(x), .dim = LAG_MAX, .dim_param = "n", .description = "Outputs of the lags"},
    {.name = "der(x)", .vr = VR_DER_X, .offset = OFF(der_x), .dim = LAG_MAX, .dim_param = "n",
     .derivative_of = "x", .description = "Derivatives of x", .deps = "u x",
     .init_deps = "u x gains tau"},
    {.name = "gains", .vr = VR_GAINS, .causality = FMUC_M_PARAMETER,
     .variability = FMUC_M_FIXED, .flags = FMUC_M_HAS_START, .start = 1.0, .offset = OFF(gains),
     .dim = LAG_MAX, .dim_param = "n", .description = "Gain of each lag"},
    {.name = "u", .vr = VR_U, .causality = FMUC_M_INPUT, .flags = FMUC_M_HAS_START, .start = 1.0,
     .offset = OFF(u), .description = "Input of the first lag"},
    {.name = "tau", .vr = VR_TAU, .causality = FMUC_M_PARAMETER, .variability = FMUC_M_FIXED,
     .flags = FMUC_M_HAS_START | FMUC_M_HAS_MIN, .start = 0.5, .min = 1e-3, .unit = "s",
     .offset = OFF(tau), .description = "Time constant of every lag"},
    {.name = "y", .vr = VR_Y, .causality = FMUC_M_OUTPUT, .offset = OFF(y),
     .description = "Output of the last lag, x[n-1]", .deps = "x", .init_deps = "x"},
};

static fmi2Status calc(fmuc_m_ctx *ctx, void *data)
{
    (void)ctx;
    lag_chain *s = data;
    size_t n = s->n < LAG_MAX ? (size_t)s->n : LAG_MAX;
    for (size_t i = 0; i < n; i++) {
        double in = i ? s->x[i - 1] : s->u;
        s->der_x[i] = s->gains[i] * (in - s->x[i]) / s->tau;
    }
    s->y = n ? s->x[n - 1] : 0.0;
    return fmi2OK;
}

const fmuc_m_desc fmuc_model = {
    .model_name = "LagChain",
    .model_identifier = "LagChain",
    .version = "1.0",
    .author = "fmucheck",
    .description = "A chain of n first-order lags, n a structural parameter (start 3, max 16)",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_CS | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE |
            FMUC_M_CAP_VAR_STEP,
    .vars = vars,
    .nvars = sizeof vars / sizeof vars[0],
    .experiment = {.flags = FMUC_M_EXP_START | FMUC_M_EXP_STOP | FMUC_M_EXP_STEP,
                   .start = 0.0, .stop = 5.0, .step = 0.01},
    .data_size = sizeof(lag_chain),
    .cs_h_max = 1e-3,
    .calc = calc,
};
