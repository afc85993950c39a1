/* eq-determinism fixture: the good SpringMassDamper whose energy output carries a tiny "noise"
 * offset seeded from the clock (nanoseconds), the process id and a stack address at every Instantiate and
 * Reset. The offset lives in the instance data, so FMU states restore it; only fresh runs differ. */
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#define fmuc_model fmuc_model_base
#include "../../good/SpringMassDamper/model.c"
#undef fmuc_model

typedef struct {
    smd s; /* first: the variable offsets of the good model apply */
    double noise;
} noisy;

static fmi2Status start_seeded(fmuc_m_ctx *ctx, void *data)
{
    noisy *n = data;
    struct timespec ts;
    (void)ctx;
    clock_gettime(CLOCK_REALTIME, &ts);
    /* the process id too: worker processes are forks of one parent (same stack addresses), and a
     * coarse clock can give two of them the same nanoseconds; the wide modulus keeps two
     * processes' offsets apart (a collision would make (4) agree and the fixture flaky) */
    uint64_t seed = (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)&ts;
    seed ^= seed >> 17;
    seed *= 0x9e3779b97f4a7c15ull;
    seed ^= seed >> 29;
    n->noise = (double)(1 + seed % 1000003) * 1e-13;
    return fmi2OK;
}

static fmi2Status calc_noisy(fmuc_m_ctx *ctx, void *data)
{
    noisy *n = data;
    fmi2Status st = calc(ctx, data);
    n->s.E += n->noise;
    return st;
}

const fmuc_m_desc fmuc_model = {
    SMD_DESC_BASE,
    .description = "Spring-mass-damper with clock-seeded noise on E (eq-determinism fixture)",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_CS | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE |
            FMUC_M_CAP_VAR_STEP,
    .data_size = sizeof(noisy),
    .cs_h_max = 1e-3,
    .start = start_seeded,
    .calc = calc_noisy,
};
