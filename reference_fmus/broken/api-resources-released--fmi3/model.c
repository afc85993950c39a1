/* api-resources-released fixture (FMI 3.0): BouncingBall that starts a helper thread with its
 * first instance and never stops it, so the thread is still running after fmi3FreeInstance
 * (FMI 3.0.2 §2.3.1: fmi3FreeInstance frees "all the allocated memory and other resources").
 * The thread waits in pause() inside libc and so survives dlclose without crashing. */
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#define fmuc_model fmuc_model_base
#include "../../good/BouncingBall/model.c"
#undef fmuc_model

static volatile sig_atomic_t lingering_ready;

static void *lingering(void *arg)
{
    (void)arg;
    lingering_ready = 1;
    for (;;)
        pause();
    return NULL;
}

static fmi2Status start_lingering(fmuc_m_ctx *ctx, void *data)
{
    pthread_t th;
    (void)ctx;
    (void)data;
    if (lingering_ready || pthread_create(&th, NULL, lingering, NULL) != 0)
        return fmi2OK;
    pthread_detach(th);
    while (!lingering_ready)
        usleep(1000);
    usleep(20000);
    return fmi2OK;
}

const fmuc_m_desc fmuc_model = {
    BB_DESC_BASE,
    .description = "BouncingBall that leaves a helper thread running after FreeInstance (fixture)",
    .caps = FMUC_M_CAP_ME | FMUC_M_CAP_CS | FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE |
            FMUC_M_CAP_VAR_STEP | FMUC_M_CAP_COMPLETED_STEP_NOT_NEEDED,
    .data_size = sizeof(ball),
    .start = start_lingering,
    .calc = calc,
    .do_step = do_step,
    .event_indicators = event_indicators,
    .event_update = event_update,
};
