/* api-resources-released fixture: SpringMassDamper that starts a helper thread with its first
 * instance and never stops it. The thread waits in pause() inside libc, so it outlives
 * fmi2FreeInstance and even dlclose without crashing: the defect is only the thread left behind
 * (one that ran this library's code again would crash the host; see robustness B18). */
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#define fmuc_model fmuc_model_base
#include "../../good/SpringMassDamper/model.c"
#undef fmuc_model

static volatile sig_atomic_t helper_waiting;

static void *helper(void *arg)
{
    (void)arg;
    helper_waiting = 1;
    for (;;)
        pause();
    return NULL;
}

static fmi2Status start_with_thread(fmuc_m_ctx *ctx, void *data)
{
    (void)ctx;
    (void)data;
    pthread_t th;
    if (helper_waiting || pthread_create(&th, NULL, helper, NULL) != 0)
        return fmi2OK;
    pthread_detach(th);
    while (!helper_waiting) /* return once it waits inside libc, not on its way there */
        usleep(1000);
    usleep(20000);
    return fmi2OK;
}

const fmuc_m_desc fmuc_model = {
    SMD_DESC_BASE,
    .description = "SpringMassDamper that leaves a helper thread running (fixture)",
    .caps = SMD_CAPS,
    .data_size = sizeof(smd),
    .cs_h_max = 1e-3,
    .start = start_with_thread,
    .calc = calc,
    .dir_deriv = dir_deriv,
};
