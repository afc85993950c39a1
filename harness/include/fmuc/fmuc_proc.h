/* Facts about other processes from /proc, for the code that cleans up after workers: the
 * worker's sweep of escaped descendants (worker.c) and the runner's lane kill (checks/runner.c).
 * Plain reads, no allocation; not async-signal-safe in general (cli/cli_signal.c keeps its own
 * reader for a signal handler). */
#ifndef FMUC_PROC_H
#define FMUC_PROC_H

#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

/** The children of process pid (/proc/<pid>/task/<pid>/children, which lists the children of
 *  every thread of it on current kernels), read whole: the first cap into out. Only numbers
 *  followed by a separator count, so a number cut off by the read is never taken for another
 *  pid. *complete (may be NULL) is 1 when every child listed fit into out. Returns the count,
 *  or -1 when the file cannot be read (no such process, or a kernel without it). */
long fmuc_proc_children(pid_t pid, pid_t *out, size_t cap, int *complete);

/** Numeric fields first .. first + count - 1 of /proc/<pid>/stat (numbered as in proc(5), 4 and
 *  up: after the command name, which may hold anything, and the state) into out, and the state
 *  letter (field 3) into *state when not NULL. pid 0: the calling process. 0, or -1 when the file
 *  cannot be read or has fewer fields. */
int fmuc_proc_stat(pid_t pid, char *state, int first, int count, unsigned long long *out);

/** The parent of process pid (/proc/<pid>/stat), or -1 when it cannot be read. */
pid_t fmuc_proc_ppid(pid_t pid);

/** 1 when process pid has ended: a zombie not yet reaped, or gone; 0 while it runs. */
int fmuc_proc_ended(pid_t pid);

/** The CPU time limit (RLIMIT_CPU, soft and hard, RLIM_INFINITY for "unlimited") of process
 *  pid from /proc/<pid>/limits, which anyone may read (prlimit needs the target's uid or
 *  CAP_SYS_RESOURCE) and which stays readable while pid is a zombie not yet reaped. 0, or -1. */
int fmuc_proc_cpu_limit(pid_t pid, struct rlimit *out);

/** A resource limit as text: "unlimited" or the number. Returns buf. */
const char *fmuc_proc_limit_text(rlim_t v, char *buf, size_t n);

#endif
