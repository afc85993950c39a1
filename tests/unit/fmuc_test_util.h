/* Helpers shared by the test executables: run a command and capture its output, read files,
 * private temp dirs. Header-only (static functions); each test file is one executable. */
#ifndef FMUC_TEST_UTIL_H
#define FMUC_TEST_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

typedef struct fmuc_test_run {
    int status;        /* exit code, or 128+signal */
    char *out, *err;   /* captured, NUL-terminated */
    size_t out_len, err_len;
} fmuc_test_run;

static inline void fmuc_test_run_free(fmuc_test_run *r)
{
    free(r->out);
    free(r->err);
    memset(r, 0, sizeof *r);
}

static inline void fmuc_test__append(char **buf, size_t *len, const char *data, size_t n)
{
    char *nb = realloc(*buf, *len + n + 1);
    if (!nb)
        return;
    memcpy(nb + *len, data, n);
    *len += n;
    nb[*len] = '\0';
    *buf = nb;
}

/* Run argv (NULL-terminated) with optional extra environment entries, capture stdout/stderr. */
static inline int fmuc_test_exec(fmuc_test_run *r, char *const argv[], char *const extra_env[])
{
    memset(r, 0, sizeof *r);
    r->out = calloc(1, 1);
    r->err = calloc(1, 1);
    int po[2], pe[2];
    if (pipe(po) < 0 || pipe(pe) < 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(po[1], 1);
        dup2(pe[1], 2);
        close(po[0]);
        close(pe[0]);
        close(po[1]);
        close(pe[1]);
        for (size_t i = 0; extra_env && extra_env[i]; i++)
            putenv(extra_env[i]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(po[1]);
    close(pe[1]);
    struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
    int open_fds = 2;
    char buf[65536];
    while (open_fds > 0) {
        if (poll(fds, 2, -1) < 0 && errno != EINTR)
            break;
        for (int k = 0; k < 2; k++) {
            if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t n = read(fds[k].fd, buf, sizeof buf);
            if (n > 0) {
                if (k == 0)
                    fmuc_test__append(&r->out, &r->out_len, buf, (size_t)n);
                else
                    fmuc_test__append(&r->err, &r->err_len, buf, (size_t)n);
            } else {
                close(fds[k].fd);
                fds[k].fd = -1;
                open_fds--;
            }
        }
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    return 0;
}

static inline char *fmuc_test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t n = 0;
    char tmp[65536];
    size_t k;
    while ((k = fread(tmp, 1, sizeof tmp, f)) > 0)
        fmuc_test__append(&buf, &n, tmp, k);
    fclose(f);
    if (len)
        *len = n;
    if (!buf)
        buf = calloc(1, 1);
    return buf;
}

static inline cJSON *fmuc_test_read_json(const char *path)
{
    char *s = fmuc_test_read_file(path, NULL);
    if (!s)
        return NULL;
    cJSON *j = cJSON_Parse(s);
    free(s);
    return j;
}

static inline int fmuc_test_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(data, 1, len, f);
    return fclose(f) == 0 && w == len ? 0 : -1;
}

/* A fresh private temp dir (caller frees the string). */
static inline char *fmuc_test_mkdtemp(const char *tag)
{
    char *p = NULL;
    const char *base = getenv("TMPDIR");
    if (asprintf(&p, "%s/fmuc-test-%s-XXXXXX", base && *base ? base : "/tmp", tag) < 0)
        return NULL;
    if (!mkdtemp(p)) {
        free(p);
        return NULL;
    }
    return p;
}

/* Number of entries in a directory (excluding . and ..), -1 on error. */
static inline int fmuc_test_count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

static inline void fmuc_test_rm_rf(const char *path)
{
    char *argv[] = {"/bin/rm", "-rf", (char *)path, NULL};
    fmuc_test_run r;
    if (fmuc_test_exec(&r, argv, NULL) == 0)
        fmuc_test_run_free(&r);
}

/* The timeout multiplier for sanitizer builds (FMUC_TIMEOUT_MULTIPLIER, default "1"). */
static inline const char *fmuc_test_timeout_multiplier(void)
{
    const char *m = getenv("FMUC_TIMEOUT_MULTIPLIER");
    return m && *m ? m : "1";
}

#endif
