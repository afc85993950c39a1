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
#include <sys/prctl.h>
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

/* The parent's side of a run: read the child's stdout and stderr pipes to their end, reap it. */
static inline void fmuc_test__capture(fmuc_test_run *r, pid_t pid, int po[2], int pe[2])
{
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
}

/* Run argv (NULL-terminated), capture stdout/stderr. The child gets this environment plus
 * extra_env, or exactly envp when envp is not NULL; own_group: a process group of its own (a
 * fixture that signals its group must not reach the test). */
static inline int fmuc_test_exec_with(fmuc_test_run *r, char *const argv[],
                                      char *const extra_env[], char *const envp[], int own_group)
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
        if (own_group)
            setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive a test that failed half-way */
        dup2(po[1], 1);
        dup2(pe[1], 2);
        close(po[0]);
        close(pe[0]);
        close(po[1]);
        close(pe[1]);
        for (size_t i = 0; extra_env && extra_env[i]; i++)
            putenv(extra_env[i]);
        if (envp)
            execve(argv[0], argv, envp);
        else
            execv(argv[0], argv);
        _exit(127);
    }
    fmuc_test__capture(r, pid, po, pe);
    return 0;
}

/* Run argv (NULL-terminated) with optional extra environment entries, capture stdout/stderr. */
static inline int fmuc_test_exec(fmuc_test_run *r, char *const argv[], char *const extra_env[])
{
    return fmuc_test_exec_with(r, argv, extra_env, NULL, 0);
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

/* ---- asynchronous runs, signals, hostile FMUs (used by the CLI tests) ------------------------- */

#include <time.h>
#include <zip.h>

/* Start argv with stdout/stderr redirected to files (NULL: /dev/null); returns the pid or -1. */
static inline pid_t fmuc_test_spawn(char *const argv[], char *const extra_env[], const char *out_path,
                                    const char *err_path)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive a test that failed half-way */
    int fo = open(out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int fe = open(err_path ? err_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fo < 0 || fe < 0)
        _exit(127);
    dup2(fo, 1);
    dup2(fe, 2);
    for (size_t i = 0; extra_env && extra_env[i]; i++)
        putenv(extra_env[i]);
    execv(argv[0], argv);
    _exit(127);
}

static inline double fmuc_test_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Wait up to timeout_s for pid; *code = exit code or 128+signal. Returns -1 (and SIGKILLs it) on
 * timeout. */
static inline int fmuc_test_wait(pid_t pid, double timeout_s, int *code)
{
    double end = fmuc_test_now() + timeout_s;
    int st = 0;
    for (;;) {
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid)
            break;
        if (r < 0 && errno != EINTR)
            return -1;
        if (fmuc_test_now() > end) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            return -1;
        }
        struct timespec ts = {0, 10000000L};
        nanosleep(&ts, NULL);
    }
    *code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    return 0;
}

/* Wait until path exists (up to timeout_s). 0 when it does. */
static inline int fmuc_test_wait_file(const char *path, double timeout_s)
{
    double end = fmuc_test_now() + timeout_s;
    struct stat st;
    while (stat(path, &st) != 0) {
        if (fmuc_test_now() > end)
            return -1;
        struct timespec ts = {0, 10000000L};
        nanosleep(&ts, NULL);
    }
    return 0;
}

/* Number of live (non-zombie) processes whose command line or environment mentions needle. */
static inline int fmuc_test_procs_with(const char *needle)
{
    DIR *d = opendir("/proc");
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9' || strtol(e->d_name, NULL, 10) == (long)getpid())
            continue;
        static const char *const files[] = {"cmdline", "environ"};
        int hit = 0;
        for (int k = 0; k < 2 && !hit; k++) {
            char p[300];
            snprintf(p, sizeof p, "/proc/%s/%s", e->d_name, files[k]);
            size_t len = 0;
            char *buf = fmuc_test_read_file(p, &len);
            if (!buf)
                continue;
            for (size_t i = 0; i < len; i++)
                if (buf[i] == '\0')
                    buf[i] = ' ';
            hit = len > 0 && strstr(buf, needle) != NULL;
            free(buf);
        }
        if (hit) {
            char sp[300];
            snprintf(sp, sizeof sp, "/proc/%s/stat", e->d_name);
            char *st = fmuc_test_read_file(sp, NULL);
            const char *rp = st ? strrchr(st, ')') : NULL;
            if (!(rp && rp[1] == ' ' && rp[2] == 'Z'))
                n++;
            free(st);
        }
    }
    closedir(d);
    return n;
}

/* A copy of good/SpringMassDamper.fmu whose linux64 library hangs in its ELF constructor (the
 * first dynamic check never returns) after writing its pid to $FMUC_TEST_HANG_PIDFILE. Built with
 * /usr/bin/cc into dir; returns the FMU path (caller frees) or NULL. */
static inline char *fmuc_test_make_hang_fmu(const char *dir, const char *good_fmu)
{
    static const char src[] =
        "#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>\n"
        "__attribute__((constructor)) static void hang(void)\n{\n"
        "    const char *p = getenv(\"FMUC_TEST_HANG_PIDFILE\");\n"
        "    if (p) {\n        char tmp[4200];\n"
        "        snprintf(tmp, sizeof tmp, \"%s.%ld.tmp\", p, (long)getpid());\n"
        "        FILE *f = fopen(tmp, \"w\");\n"
        "        if (f) { fprintf(f, \"%ld\\n\", (long)getpid()); fclose(f); rename(tmp, p); }\n"
        "    }\n    for (;;) pause();\n}\n";
    char c_path[4200], so_path[4200], *fmu = NULL;
    snprintf(c_path, sizeof c_path, "%s/hang.c", dir);
    snprintf(so_path, sizeof so_path, "%s/hang.so", dir);
    if (fmuc_test_write_file(c_path, src, sizeof src - 1) < 0)
        return NULL;
    char *cc[] = {"/usr/bin/cc", "-shared", "-fPIC", "-o", so_path, c_path, NULL};
    fmuc_test_run r;
    if (fmuc_test_exec(&r, cc, NULL) < 0 || r.status != 0) {
        fmuc_test_run_free(&r);
        return NULL;
    }
    fmuc_test_run_free(&r);
    if (asprintf(&fmu, "%s/hang.fmu", dir) < 0)
        return NULL;
    size_t len = 0;
    char *bytes = fmuc_test_read_file(good_fmu, &len);
    if (!bytes || fmuc_test_write_file(fmu, bytes, len) < 0) {
        free(bytes);
        free(fmu);
        return NULL;
    }
    free(bytes);
    int zerr = 0;
    zip_t *z = zip_open(fmu, 0, &zerr);
    int ok = z != NULL;
    for (zip_int64_t i = 0; ok && i < zip_get_num_entries(z, 0); i++) {
        const char *name = zip_get_name(z, (zip_uint64_t)i, 0);
        size_t nl = name ? strlen(name) : 0;
        if (!name || strncmp(name, "binaries/linux64/", 17) || nl < 4 || strcmp(name + nl - 3, ".so"))
            continue;
        zip_source_t *src_so = zip_source_file(z, so_path, 0, -1);
        ok = src_so && zip_file_replace(z, (zip_uint64_t)i, src_so, 0) == 0;
    }
    if (z && zip_close(z) != 0)
        ok = 0;
    if (!ok) {
        free(fmu);
        return NULL;
    }
    return fmu;
}

/* LeakSanitizer: Criterion's runner (libcriterion itself, not the code under test) leaks a few
 * bytes when tests run in parallel; a test file that spawns fmucheck many times hits it. Put
 * FMUC_TEST_LSAN_IGNORE_CRITERION() once in such a test file (outside any function). */
#define FMUC_TEST_LSAN_IGNORE_CRITERION()                                                       \
    const char *__lsan_default_suppressions(void);                                           \
    const char *__lsan_default_suppressions(void) { return "leak:libcriterion.so\n"; }

#endif
