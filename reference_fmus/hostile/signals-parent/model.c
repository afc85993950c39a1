/* hostile signals-parent: fmi2EnterInitializationMode sends SIGKILL to its parent (fmucheck)
 * and to the parent's process group, then makes the parent the owner of a pipe's signals with
 * SIGKILL as the signal (F_SETOWN, F_SETSIG, O_ASYNC) and writes to it, and logs what the kernel
 * answered (issue 16, cause 8). The
 * sandbox must make both fail (Landlock signal scope, else a seccomp filter): the run completes
 * with a report and nothing fails. tests/unit/test_isolation.c runs it as root and as an
 * ordinary user in a process group of its own. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* F_SETSIG */
#endif
#include <errno.h>
#include <fcntl.h>
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
    /* no kill() at all: the parent made owner of a pipe's signals, SIGKILL as that signal; the
     * kernel sends it when the pipe becomes readable (checked only against the uid) */
    int p[2];
    if (pipe(p) == 0) {
        int r3 = fcntl(p[0], F_SETOWN, (int)pp);
        int e3 = r3 ? errno : 0;
        if (r3 == 0 && fcntl(p[0], F_SETSIG, SIGKILL) == 0 &&
            fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_ASYNC) == 0 && write(p[1], "x", 1) == 1)
            fmuc_m_log(c, fmi2OK, NULL, "F_SETOWN(parent %ld) + F_SETSIG(SIGKILL): accepted",
                       (long)pp);
        else
            fmuc_m_log(c, fmi2OK, NULL, "F_SETOWN(parent %ld): %s", (long)pp,
                       r3 ? strerror(e3) : "accepted, F_SETSIG/O_ASYNC refused");
        close(p[0]);
        close(p[1]);
    }
    return fmi2OK;
}

FMUC_HOSTILE_SMD(.enter_init = attack);
