/* hostile traces-parent: fmi2EnterInitializationMode tries to ptrace-attach its parent
 * (fmucheck); when that works it kills the tracee through ptrace (PTRACE_CONT with SIGKILL) and
 * reads its memory first (process_vm_readv), and logs what the kernel answered (issue 16,
 * cause 8). The sandbox must refuse the attach: the run completes and nothing fails. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../hostile_smd.h"

static fmi2Status attack(fmuc_m_ctx *c, void *data)
{
    (void)data;
    pid_t pp = getppid();
    char buf[64];
    struct iovec local = {buf, sizeof buf}, remote = {(void *)&attack, sizeof buf};
    ssize_t rd = process_vm_readv(pp, &local, 1, &remote, 1, 0);
    int erd = rd < 0 ? errno : 0;
    long r = ptrace(PTRACE_ATTACH, pp, NULL, NULL);
    int e = r < 0 ? errno : 0;
    fmuc_m_log(c, fmi2OK, NULL, "process_vm_readv(parent %ld): %s; ptrace(PTRACE_ATTACH): %s",
               (long)pp, rd < 0 ? strerror(erd) : "read", r < 0 ? strerror(e) : "attached");
    if (r == 0) {
        int st;
        waitpid(pp, &st, __WALL);
        ptrace(PTRACE_CONT, pp, NULL, (void *)(long)SIGKILL);
    }
    return fmi2OK;
}

FMUC_HOSTILE_SMD(.enter_init = attack);
