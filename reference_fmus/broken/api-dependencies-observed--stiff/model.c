/* api-dependencies-observed--stiff fixture, no defect: SpringMassDamper, Co-Simulation only,
 * whose mass feels the input force through a first-order lag of time constant TAU = 1e-7 s
 * (Ff' = (F - Ff) / TAU, solved exactly inside fmi2DoStep) and whose output E also contains
 * Ff x. E's <ModelStructure><Outputs> entry declares x and v only, rightly: F reaches E only
 * through the state Ff. The lag is faster than the check's probe steps h1 = 1e-5 s and h2 =
 * 1e-6 s, so E moves by as much after either of them, like a direct feedthrough; only the
 * confirmation step h3 = 1e-8 s, shorter than TAU, shows the change shrinking. A correct FMU
 * with a mode that fast (Dymola's ECS_HW) must pass (FMI 2.0.4 §2.2.8: dependencies are the
 * direct ones). */
#include <math.h>

#define fmuc_model fmuc_model_base
#include "../../good/SpringMassDamper/model.c"
#undef fmuc_model

#define TAU 1e-7

typedef struct {
    smd s;     /* first: calc and the variables' offsets see an smd */
    double ff; /* the lagged force (0 = F's start value at the start, as the data is zeroed) */
} stiff;

static fmi2Status calc_stiff(fmuc_m_ctx *ctx, void *data)
{
    fmi2Status st = calc(ctx, data);
    stiff *z = data;
    z->s.E += z->ff * z->s.x;
    return st;
}

static void accel(const smd *s, double ff, double x, double v, double *a)
{
    *a = (ff - s->k * x - s->c * v) / s->m;
}

/* h in substeps of at most 1e-3 s: the lag exactly, then RK4 of the mass with the lagged force
 * at the substep's end (the lag has settled long before any step a master makes) */
static fmi2Status do_step_stiff(fmuc_m_ctx *ctx, void *data, double t, double h)
{
    (void)ctx;
    (void)t;
    stiff *z = data;
    smd *s = &z->s;
    int n = (int)ceil(h / 1e-3 - 1e-9);
    if (n < 1)
        n = 1;
    double hs = h / n;
    for (int i = 0; i < n; i++) {
        z->ff = s->F + (z->ff - s->F) * exp(-hs / TAU);
        double x = s->x, v = s->v, a1, a2, a3, a4;
        accel(s, z->ff, x, v, &a1);
        double x2 = x + 0.5 * hs * v, v2 = v + 0.5 * hs * a1;
        accel(s, z->ff, x2, v2, &a2);
        double x3 = x + 0.5 * hs * v2, v3 = v + 0.5 * hs * a2;
        accel(s, z->ff, x3, v3, &a3);
        double x4 = x + hs * v3, v4 = v + hs * a3;
        accel(s, z->ff, x4, v4, &a4);
        s->x = x + hs / 6.0 * (v + 2.0 * v2 + 2.0 * v3 + v4);
        s->v = v + hs / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
    }
    return fmi2OK;
}

/* SpringMassDamper's, plus Ff x in E: d E / d x gains Ff */
static fmi2Status dir_deriv_stiff(fmuc_m_ctx *ctx, void *data, const fmi2ValueReference *unknown,
                                  size_t n_unknown, const fmi2ValueReference *known,
                                  size_t n_known, const double *dv_known, double *dv_unknown)
{
    fmi2Status st = dir_deriv(ctx, data, unknown, n_unknown, known, n_known, dv_known,
                              dv_unknown);
    const stiff *z = data;
    int init = fmuc_m_get_phase(ctx) == FMUC_M_PHASE_INIT;
    for (size_t i = 0; i < n_unknown; i++)
        for (size_t j = 0; unknown[i] == VR_E && j < n_known; j++)
            if (known[j] == VR_X || (init && known[j] == VR_X0))
                dv_unknown[i] += z->ff * dv_known[j];
    return st;
}

const fmuc_m_desc fmuc_model = {
    SMD_DESC_BASE,
    .description = "SpringMassDamper (CS) whose force acts through a 1e-7 s lag (fixture)",
    .caps = FMUC_M_CAP_CS | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE |
            FMUC_M_CAP_VAR_STEP | FMUC_M_CAP_DIR_DERIV,
    .data_size = sizeof(stiff),
    .calc = calc_stiff,
    .do_step = do_step_stiff,
    .dir_deriv = dir_deriv_stiff,
};
