/* SIGINT/SIGTERM in the CLI. The only file-scope mutable state of fmucheck lives here: a signal
 * handler has no payload, so the stop flag and the kill mode are static sig_atomic_t.
 *
 * First signal: the stop flag is set (the runner stops starting checks, the batch stops starting
 * FMUs). In kill mode (checks running in this process) the handler also SIGKILLs every child
 * process of ours that leads its process group (the workers, and their groups), and an interval
 * timer repeats that every 50 ms, so a check that starts another worker cannot hold the exit up.
 * The runner's lanes (forked copies of this process in its group, checks/runner.c) get the
 * signal itself, once: with this handler they stop their workers the same way, end the check in
 * progress (its workers clean up) and start no other. The checks in progress come back with an
 * error the CLI discards; the report is written marked incomplete. A second signal restores the
 * default action and re-raises it: fmucheck ends at once. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "cli.h"

static volatile sig_atomic_t stop_signal;  /* first SIGINT/SIGTERM, 0 while none */
static volatile sig_atomic_t kill_mode;    /* kill our children from the handler */

static void utoa(char *out, size_t n, unsigned long v);

/* Async-signal-safe: one child: a process-group leader (a worker) is SIGKILLed with its group;
 * another child (a lane of the runner) gets `forward` (0: nothing). */
static void kill_child(long pid, int forward)
{
    if (pid <= 1)
        return;
    if (getpgid((pid_t)pid) == (pid_t)pid) {
        kill((pid_t)-pid, SIGKILL); /* a worker leads its own process group */
        kill((pid_t)pid, SIGKILL);
    } else if (forward) {
        kill((pid_t)pid, forward);
    }
}

/* Async-signal-safe: read our child list (/proc/self/task/<our pid>/children, built from
 * getpid() now: a lane is a fork of the runner) and treat each child (kill_child). */
static void kill_children(int forward)
{
    char path[64] = "/proc/self/task/", num[24];
    utoa(num, sizeof num, (unsigned long)getpid());
    size_t k = strlen(path);
    for (size_t i = 0; num[i] && k + 1 < sizeof path; i++)
        path[k++] = num[i];
    const char tail[] = "/children";
    for (size_t i = 0; tail[i] && k + 1 < sizeof path; i++)
        path[k++] = tail[i];
    path[k] = '\0';
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    char buf[4096];
    ssize_t n;
    long pid = 0;
    int have = 0;
    while ((n = read(fd, buf, sizeof buf)) > 0) {
        for (ssize_t i = 0; i < n; i++) {
            char c = buf[i];
            if (c >= '0' && c <= '9') {
                pid = pid * 10 + (c - '0');
                have = 1;
            } else if (have) {
                kill_child(pid, forward);
                pid = 0;
                have = 0;
            }
        }
    }
    if (have)
        kill_child(pid, forward);
    close(fd);
}

static void arm_timer(int on)
{
    struct itimerval it;
    memset(&it, 0, sizeof it);
    if (on) {
        it.it_interval.tv_usec = 50000;
        it.it_value.tv_usec = 50000;
    }
    setitimer(ITIMER_REAL, &it, NULL);
}

static void on_signal(int sig)
{
    int saved = errno;
    if (sig == SIGALRM) {
        if (kill_mode && stop_signal)
            kill_children(0);
        errno = saved;
        return;
    }
    if (stop_signal) {
        signal(sig, SIG_DFL);
        raise(sig);
        errno = saved;
        return;
    }
    stop_signal = sig;
    if (kill_mode) {
        kill_children(sig);
        arm_timer(1);
    }
    errno = saved;
}

static void utoa(char *out, size_t n, unsigned long v)
{
    char tmp[24];
    size_t k = 0;
    do {
        tmp[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v && k < sizeof tmp);
    size_t i = 0;
    while (k && i + 1 < n)
        out[i++] = tmp[--k];
    out[i] = '\0';
}

void fmuc_cli_signals_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaddset(&sa.sa_mask, SIGALRM);
    sa.sa_flags = 0; /* no SA_RESTART: blocking waits see EINTR and look at the flag */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &sa, NULL);
    /* A closed stdout (fmucheck | head) must not kill the run before cleanup: writes then fail
     * with EPIPE, and the report files are written regardless (robustness E10). */
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
}

int fmuc_cli_signal_stop(void)
{
    return (int)stop_signal;
}

void fmuc_cli_signals_kill_children(int on)
{
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGALRM);
    sigprocmask(SIG_BLOCK, &set, &old);
    kill_mode = on ? 1 : 0;
    if (!on)
        arm_timer(0);
    else if (stop_signal) {
        kill_children(stop_signal);
        arm_timer(1);
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
}
