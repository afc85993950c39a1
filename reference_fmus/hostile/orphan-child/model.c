/* hostile orphan-child: fmi2EnterInitializationMode double-forks a child that detaches
 * (setsid), names itself "fmuc-orphan" and sleeps for 10 minutes; the worker must kill it
 * (robustness B10). */
#include <sys/prctl.h>
#include <unistd.h>

#include "../hostile_smd.h"

static fmi2Status spawn(fmuc_m_ctx *c, void *data)
{
    (void)c;
    (void)data;
    pid_t p = fork();
    if (p == 0) {
        if (fork() == 0) {
            setsid();
            prctl(PR_SET_NAME, "fmuc-orphan");
            sleep(600);
        }
        _exit(0);
    }
    return fmi2OK;
}

FMUC_HOSTILE_SMD(.enter_init = spawn);
