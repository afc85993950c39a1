/* hostile signals-parent: fmi2EnterInitializationMode sends SIGKILL to its parent (fmucheck)
 * and to the parent's process group, and logs what the kernel answered (issue 16, cause 8). The
 * sandbox must make both fail (Landlock signal scope, else a seccomp filter): the run completes
 * with a report and nothing fails. tests/unit/test_isolation.c runs it as root and as an
 * ordinary user in a process group of its own. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "../hostile_smd.h"

static fmi2Status attack(fmuc_m_ctx *c, void *data)
{
    (void)data;
    pid_t pp = getppid();
    pid_t pg = getpgid(pp);
    int r1 = kill(pp, SIGKILL);
    int e1 = r1 ? errno : 0;
    int r2 = pg > 1 && pg != getpgrp() ? kill(-pg, SIGKILL) : -1;
    int e2 = r2 ? errno : 0;
    fmuc_m_log(c, fmi2OK, NULL, "kill(parent %ld, SIGKILL): %s; kill(-group %ld, SIGKILL): %s",
               (long)pp, r1 ? strerror(e1) : "delivered", (long)pg,
               r2 ? strerror(e2) : "delivered");
    return fmi2OK;
}

FMUC_HOSTILE_SMD(.enter_init = attack);
