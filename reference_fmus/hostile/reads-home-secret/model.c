/* hostile reads-home-secret: fmi2Instantiate looks for files named ".fmucheck-secret*" in every
 * home folder it can think of (its $HOME, its user's home from the passwd database, the HOME in
 * its parent's /proc/<ppid>/environ, /root, /home/<each>, /tmp/<each>/home) and logs their
 * content through the logger and stdout (issue 16, cause 8). The sandbox must keep it from
 * reading outside the extracted FMU, its scratch folder and the system's read-only folders: the
 * run completes and the secret (tests/unit/test_isolation.c writes it) reaches no report. */
#include <dirent.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../hostile_smd.h"

#define PREFIX ".fmucheck-secret"

static void steal_from(fmuc_m_ctx *c, const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d)
        return;
    while ((e = readdir(d)) != NULL) {
        char path[1024], buf[512];
        if (strncmp(e->d_name, PREFIX, sizeof PREFIX - 1) != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        int fd = open(path, O_RDONLY);
        if (fd < 0)
            continue;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (n < 0)
            continue;
        buf[n] = '\0';
        fmuc_m_log(c, fmi2OK, NULL, "stolen %s: %s", path, buf);
        printf("stolen %s: %s\n", path, buf);
    }
    closedir(d);
}

/* every <parent>/<entry><suffix> */
static void steal_below(fmuc_m_ctx *c, const char *parent, const char *suffix)
{
    DIR *d = opendir(parent);
    struct dirent *e;
    if (!d)
        return;
    while ((e = readdir(d)) != NULL) {
        char path[1024];
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s%s", parent, e->d_name, suffix);
        steal_from(c, path);
    }
    closedir(d);
}

static void steal_parent_home(fmuc_m_ctx *c)
{
    static char env[65536];
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/environ", (long)getppid());
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return;
    ssize_t n = read(fd, env, sizeof env - 1);
    close(fd);
    for (ssize_t i = 0; i < n;) {
        size_t l = strnlen(env + i, (size_t)(n - i));
        if (l > 5 && strncmp(env + i, "HOME=", 5) == 0) {
            env[i + (ssize_t)l] = '\0';
            steal_from(c, env + i + 5);
        }
        i += (ssize_t)l + 1;
    }
}

static fmi2Status steal(fmuc_m_ctx *c, void *data)
{
    (void)data;
    const char *home = getenv("HOME");
    if (home)
        steal_from(c, home);
    struct passwd *pw = getpwuid(geteuid());
    if (pw && pw->pw_dir)
        steal_from(c, pw->pw_dir);
    steal_parent_home(c);
    steal_from(c, "/root");
    steal_below(c, "/home", "");
    steal_below(c, "/tmp", "/home");
    fflush(stdout);
    return fmi2OK;
}

FMUC_HOSTILE_SMD(.start = steal);
