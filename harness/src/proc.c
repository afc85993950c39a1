/* Facts about other processes from /proc (fmuc_proc.h). */
#include "fmuc/fmuc_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The start of a small /proc file into buf (NUL-terminated): its length, or -1. */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    return n;
}

long fmuc_proc_children(pid_t pid, pid_t *out, size_t cap, int *complete)
{
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/%ld/task/%ld/children", (long)pid, (long)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (complete)
        *complete = 0;
    if (fd < 0)
        return -1;
    size_t n = 0;
    int all = 1, digits = 0;
    long c = 0;
    ssize_t k;
    /* read to the end: the list may be longer than one read */
    while ((k = read(fd, buf, sizeof buf)) > 0 || (k < 0 && errno == EINTR)) {
        for (ssize_t i = 0; i < k; i++) {
            if (buf[i] >= '0' && buf[i] <= '9' && c < 100000000L) {
                c = c * 10 + (buf[i] - '0');
                digits = 1;
                continue;
            }
            if (digits && c > 0) {
                if (n < cap)
                    out[n++] = (pid_t)c;
                else
                    all = 0;
            }
            c = 0;
            digits = 0;
        }
    }
    close(fd);
    if (k < 0)
        return -1;
    if (complete)
        *complete = all;
    return (long)n;
}

int fmuc_proc_stat(pid_t pid, char *state, int first, int count, unsigned long long *out)
{
    char path[64], buf[2048];
    if (pid > 0)
        snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    else
        snprintf(path, sizeof path, "/proc/self/stat");
    if (read_small(path, buf, sizeof buf) < 0)
        return -1;
    const char *p = strrchr(buf, ')');
    if (!p || p[1] != ' ' || !p[2])
        return -1;
    if (state)
        *state = p[2];
    p += 3; /* at the space before field 4 */
    for (int field = 4; field < first + count; field++) {
        if (*p != ' ')
            return -1;
        p++;
        char *end;
        unsigned long long v = strtoull(p, &end, 10);
        if (end == p)
            return -1;
        if (field >= first)
            out[field - first] = v;
        p = end;
    }
    return 0;
}

pid_t fmuc_proc_ppid(pid_t pid)
{
    unsigned long long ppid;
    return fmuc_proc_stat(pid, NULL, 4, 1, &ppid) == 0 ? (pid_t)ppid : -1;
}

int fmuc_proc_ended(pid_t pid)
{
    char state;
    if (fmuc_proc_stat(pid, &state, 4, 0, NULL) != 0)
        return 1;
    return state == 'Z' || state == 'X';
}

const char *fmuc_proc_limit_text(rlim_t v, char *buf, size_t n)
{
    if (v == RLIM_INFINITY)
        snprintf(buf, n, "unlimited");
    else
        snprintf(buf, n, "%llu", (unsigned long long)v);
    return buf;
}

/* one field of /proc/<pid>/limits: a number or "unlimited"; the text after it in *end */
static int limit_field(const char *p, rlim_t *v, const char **end)
{
    while (*p == ' ')
        p++;
    if (strncmp(p, "unlimited", 9) == 0) {
        *v = RLIM_INFINITY;
        *end = p + 9;
        return 0;
    }
    char *e;
    errno = 0;
    unsigned long long x = strtoull(p, &e, 10);
    if (e == p || errno)
        return -1;
    *v = (rlim_t)x;
    *end = e;
    return 0;
}

int fmuc_proc_cpu_limit(pid_t pid, struct rlimit *out)
{
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/%ld/limits", (long)pid);
    if (read_small(path, buf, sizeof buf) < 0)
        return -1;
    static const char key[] = "Max cpu time";
    const char *line = buf;
    while (strncmp(line, key, sizeof key - 1) != 0) {
        line = strchr(line, '\n');
        if (!line)
            return -1;
        line++;
    }
    const char *p = line + sizeof key - 1;
    if (limit_field(p, &out->rlim_cur, &p) < 0 || limit_field(p, &out->rlim_max, &p) < 0)
        return -1;
    return 0;
}
