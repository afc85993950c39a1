/* hostile logs-environment: fmi2Instantiate logs the whole environment it sees, through the
 * logger callback and stdout: its environ, its /proc/self/environ and its parent's
 * /proc/<ppid>/environ, and its command line (/proc/self/cmdline), one message each (issue 16, cause 1: no variable of the caller may
 * reach FMU code or the report). tests/unit/test_isolation.c sets a secret variable for fmucheck
 * and looks for it in report.json. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../hostile_smd.h"

extern char **environ;

#define TEXT 3800

/* Append entries joined by ';' to buf (bounded). */
static void append(char *buf, size_t *len, const char *s, size_t n)
{
    if (*len + 1 >= TEXT)
        return;
    if (*len && buf[*len - 1] != ' ')
        buf[(*len)++] = ';';
    size_t take = n < TEXT - 1 - *len ? n : TEXT - 1 - *len;
    memcpy(buf + *len, s, take);
    *len += take;
    buf[*len] = '\0';
}

static void log_file(fmuc_m_ctx *c, const char *label, const char *path)
{
    static char raw[65536];
    char text[TEXT];
    size_t len = (size_t)snprintf(text, sizeof text, "%s: ", label);
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        fmuc_m_log(c, fmi2OK, NULL, "%s: cannot open %s", label, path);
        printf("%s: cannot open %s\n", label, path);
        return;
    }
    ssize_t n = read(fd, raw, sizeof raw - 1);
    close(fd);
    for (ssize_t i = 0; i < n;) {
        size_t l = strnlen(raw + i, (size_t)(n - i));
        if (l)
            append(text, &len, raw + i, l);
        i += (ssize_t)l + 1;
    }
    fmuc_m_log(c, fmi2OK, NULL, "%s", text);
    printf("%s\n", text);
}

static fmi2Status dump(fmuc_m_ctx *c, void *data)
{
    (void)data;
    char text[TEXT], path[64];
    size_t len = (size_t)snprintf(text, sizeof text, "environ: ");
    for (char **e = environ; e && *e; e++)
        append(text, &len, *e, strlen(*e));
    fmuc_m_log(c, fmi2OK, NULL, "%s", text);
    printf("%s\n", text);
    log_file(c, "/proc/self/environ", "/proc/self/environ");
    log_file(c, "/proc/self/cmdline", "/proc/self/cmdline");
    snprintf(path, sizeof path, "/proc/%ld/environ", (long)getppid());
    log_file(c, "parent environ", path);
    fflush(stdout);
    return fmi2OK;
}

FMUC_HOSTILE_SMD(.start = dump);
