/* hostile thread-after-unload: the first fmi2Instantiate of a process starts a thread that wakes
 * every millisecond in the library's own code and is never stopped, so it crashes once the
 * importer unloads the library (robustness B18). api-resources-released fails (a host that
 * unloads the FMU crashes); the worker replies before unloading, so every other check judges its
 * calls (each result notes how the unload ended) instead of ending in error. */
#include <pthread.h>
#include <time.h>

#include "../hostile_smd.h"

static void *tick(void *arg)
{
    (void)arg;
    for (;;) {
        struct timespec ts = {0, 1000000L};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

static fmi2Status start_once(fmuc_m_ctx *c, void *data)
{
    static int started;
    pthread_t t;
    (void)c;
    (void)data;
    if (!started && pthread_create(&t, NULL, tick, NULL) == 0) {
        started = 1;
        pthread_detach(t);
    }
    return fmi2OK;
}

FMUC_HOSTILE_SMD(.start = start_once);
