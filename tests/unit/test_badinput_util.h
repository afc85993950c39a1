/* The bad-input suite (robustness.md §4): a private run environment per case and the contract
 * every case must keep, whatever the input: the expected exit code, nothing written outside the
 * run's own folders (a sentinel folder, the input folder, the cwd and $TMPDIR are compared before
 * and after), --tmpdir empty afterwards, no process of the run left, and report.json complete or
 * absent. Header-only; included by tests/unit/test_badinput_*.c. */
#ifndef FMUC_TEST_BADINPUT_UTIL_H
#define FMUC_TEST_BADINPUT_UTIL_H

#include <criterion/criterion.h>
#include <signal.h>
#include <sys/prctl.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zip.h>

#include <cjson/cJSON.h>

#include "fmuc_test_util.h"

#define BI_GOOD_FMU FMUC_FMU_DIR "/good/SpringMassDamper.fmu"

typedef struct bi_env {
    char root[512];
    char tmp[600], envtmp[600], out[600], cwd[600], sentinel[600], in[600];
    char *before_sentinel, *before_in, *before_cwd;
} bi_env;

/* ---- listings ------------------------------------------------------------------------------ */

static inline void bi__list(const char *dir, const char *rel, char **buf, size_t *len)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char p[4096], r[4096], line[8400];
        if (snprintf(p, sizeof p, "%s/%s", dir, e->d_name) >= (int)sizeof p ||
            snprintf(r, sizeof r, "%s%s", rel, e->d_name) >= (int)sizeof r)
            continue;
        struct stat st;
        if (lstat(p, &st) != 0)
            continue;
        int n = snprintf(line, sizeof line, "%s %o %lld %lld.%09ld\n", r, (unsigned)st.st_mode,
                         (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
        fmuc_test__append(buf, len, line, (size_t)n);
        if (S_ISDIR(st.st_mode)) {
            char sub[4200];
            snprintf(sub, sizeof sub, "%s/", r);
            bi__list(p, sub, buf, len);
        }
    }
    closedir(d);
}

/* Sorted recursive listing (name, mode, size, mtime) of dir as one string. */
static inline int bi__cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static inline char *bi_listing(const char *dir)
{
    char *buf = NULL;
    size_t len = 0;
    bi__list(dir, "", &buf, &len);
    if (!buf)
        return calloc(1, 1);
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += buf[i] == '\n';
    char **lines = calloc(n + 1, sizeof *lines);
    size_t k = 0;
    for (char *save = NULL, *t = strtok_r(buf, "\n", &save); t && k < n; t = strtok_r(NULL, "\n", &save))
        lines[k++] = t;
    qsort(lines, k, sizeof *lines, bi__cmp);
    char *out = NULL;
    size_t olen = 0;
    for (size_t i = 0; i < k; i++) {
        fmuc_test__append(&out, &olen, lines[i], strlen(lines[i]));
        fmuc_test__append(&out, &olen, "\n", 1);
    }
    free(lines);
    free(buf);
    return out ? out : calloc(1, 1);
}

/* ---- environment --------------------------------------------------------------------------- */

static inline void bi_env_init(bi_env *e, const char *tag)
{
    memset(e, 0, sizeof *e);
    char *r = fmuc_test_mkdtemp(tag);
    cr_assert(r, "mkdtemp");
    snprintf(e->root, sizeof e->root, "%s", r);
    free(r);
    snprintf(e->tmp, sizeof e->tmp, "%s/tmp", e->root);
    snprintf(e->envtmp, sizeof e->envtmp, "%s/envtmp", e->root);
    snprintf(e->out, sizeof e->out, "%s/out", e->root);
    snprintf(e->cwd, sizeof e->cwd, "%s/cwd", e->root);
    snprintf(e->sentinel, sizeof e->sentinel, "%s/sentinel", e->root);
    snprintf(e->in, sizeof e->in, "%s/in", e->root);
    const char *dirs[] = {e->tmp, e->envtmp, e->cwd, e->sentinel, e->in};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        cr_assert(mkdir(dirs[i], 0755) == 0, "mkdir %s", dirs[i]);
    char p[700];
    snprintf(p, sizeof p, "%s/keep.txt", e->sentinel);
    cr_assert(fmuc_test_write_file(p, "sentinel\n", 9) == 0);
}

static inline void bi_env_fini(bi_env *e)
{
    free(e->before_sentinel);
    free(e->before_in);
    free(e->before_cwd);
    /* a case may leave read-only folders behind: make them removable */
    char *argv[] = {"/bin/chmod", "-R", "u+rwx", e->root, NULL};
    fmuc_test_run r;
    if (fmuc_test_exec(&r, argv, NULL) == 0)
        fmuc_test_run_free(&r);
    fmuc_test_rm_rf(e->root);
}

/* Path below the run's input folder. */
static inline const char *bi_in(const bi_env *e, const char *name, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s", e->in, name);
    return buf;
}

/* ---- running fmucheck ---------------------------------------------------------------------- */

enum { BI_STDOUT_CAPTURE = 0, BI_STDOUT_CLOSED_PIPE = 1 };

typedef struct bi_opts {
    const char *tmpdir;     /* --tmpdir (default e->tmp; "" = none given) */
    const char *outdir;     /* -o (default e->out) */
    const char *envtmp;     /* $TMPDIR (default e->envtmp) */
    int html;               /* write report.html too */
    int stdout_mode;
    double timeout_s;       /* kill after this (default 60) */
    int no_tmult;           /* leave out --timeout-multiplier (the environment decides) */
    void (*child_setup)(void *arg); /* in the child before exec (limits, namespaces, env) */
    void *child_arg;
} bi_opts;

/* Run fmucheck [--tmpdir T] [-o O] [--no-html] extra... fmu in e->cwd with TMPDIR set. */
static inline int bi_exec(bi_env *e, fmuc_test_run *r, const bi_opts *o_in, const char *fmu,
                          const char *const extra[])
{
    bi_opts o = o_in ? *o_in : (bi_opts){0};
    const char *tmpdir = o.tmpdir ? o.tmpdir : e->tmp;
    const char *outdir = o.outdir ? o.outdir : e->out;
    const char *envtmp = o.envtmp ? o.envtmp : e->envtmp;
    char *argv[64];
    size_t k = 0;
    /* FMUC_BI_EXE: run another fmucheck binary (development aid), default the one built here */
    const char *exe = getenv("FMUC_BI_EXE");
    argv[k++] = (char *)(exe && *exe ? exe : FMUC_EXE);
    if (*tmpdir) {
        argv[k++] = "--tmpdir";
        argv[k++] = (char *)tmpdir;
    }
    argv[k++] = "-o";
    argv[k++] = (char *)outdir;
    if (!o.html)
        argv[k++] = "--no-html";
    if (!o.no_tmult) {
        argv[k++] = "--timeout-multiplier";
        argv[k++] = (char *)fmuc_test_timeout_multiplier();
    }
    for (size_t i = 0; extra && extra[i] && k < 60; i++)
        argv[k++] = (char *)extra[i];
    argv[k++] = (char *)fmu;
    argv[k] = NULL;

    free(e->before_sentinel);
    free(e->before_in);
    free(e->before_cwd);
    e->before_sentinel = bi_listing(e->sentinel);
    e->before_in = bi_listing(e->in);
    e->before_cwd = bi_listing(e->cwd);

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
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive a test that failed half-way */
        if (o.stdout_mode == BI_STDOUT_CLOSED_PIPE) {
            close(po[0]); /* nobody reads: writes get EPIPE / SIGPIPE */
            signal(SIGPIPE, SIG_DFL);
        }
        dup2(po[1], 1);
        dup2(pe[1], 2);
        if (o.stdout_mode != BI_STDOUT_CLOSED_PIPE)
            close(po[0]);
        close(pe[0]);
        close(po[1]);
        close(pe[1]);
        if (chdir(e->cwd) != 0)
            _exit(126);
        if (envtmp && *envtmp)
            setenv("TMPDIR", envtmp, 1);
        else
            unsetenv("TMPDIR");
        setenv("NO_COLOR", "1", 1);
        if (o.child_setup)
            o.child_setup(o.child_arg);
        execv(argv[0], argv);
        _exit(127);
    }
    close(po[1]);
    close(pe[1]);
    if (o.stdout_mode == BI_STDOUT_CLOSED_PIPE) {
        close(po[0]);
        po[0] = -1;
    }
    struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
    int open_fds = po[0] >= 0 ? 2 : 1;
    char buf[65536];
    double limit = o.timeout_s > 0 ? o.timeout_s : 60.0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int killed = 0;
    while (open_fds > 0) {
        int pr = poll(fds, 2, 100);
        if (pr < 0 && errno != EINTR)
            break;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (!killed && (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9 > limit) {
            kill(pid, SIGKILL);
            killed = 1;
        }
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t n = read(fds[i].fd, buf, sizeof buf);
            if (n > 0) {
                if (i == 0)
                    fmuc_test__append(&r->out, &r->out_len, buf, (size_t)n);
                else
                    fmuc_test__append(&r->err, &r->err_len, buf, (size_t)n);
            } else {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
            }
        }
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    cr_expect(!killed, "fmucheck %s did not finish within %g s", fmu, limit);
    return 0;
}

/* ---- the contract -------------------------------------------------------------------------- */

/* Number of live processes whose command line mentions needle (our unique root path). */
static inline int bi_processes_mentioning(const char *needle)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    int n = 0;
    struct dirent *de;
    pid_t self = getpid();
    while ((de = readdir(d))) {
        char *end;
        long pid = strtol(de->d_name, &end, 10);
        if (*end || pid <= 0 || pid == self)
            continue;
        char p[64];
        snprintf(p, sizeof p, "/proc/%ld/cmdline", pid);
        int fd = open(p, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        char buf[8192];
        ssize_t k = read(fd, buf, sizeof buf);
        close(fd);
        if (k > 0 && memmem(buf, (size_t)k, needle, strlen(needle))) {
            /* zombies (already dead, not yet reaped by someone else) do not count */
            char sp[64], sb[512];
            snprintf(sp, sizeof sp, "/proc/%ld/stat", pid);
            int sf = open(sp, O_RDONLY | O_CLOEXEC);
            ssize_t sk = sf >= 0 ? read(sf, sb, sizeof sb - 1) : -1;
            if (sf >= 0)
                close(sf);
            if (sk > 0) {
                sb[sk] = '\0';
                char *rp = strrchr(sb, ')');
                if (rp && rp[1] == ' ' && rp[2] == 'Z')
                    continue;
            }
            n++;
        }
    }
    closedir(d);
    return n;
}

/* report.json of the run: NULL when absent; a cr_expect failure when present but not a complete
 * JSON document with a status. */
static inline cJSON *bi_report_at(const char *outdir)
{
    char p[1100];
    int k = snprintf(p, sizeof p, "%s/report.json", outdir);
    cr_assert(k > 0 && (size_t)k < sizeof p, "output folder path too long: %s", outdir);
    struct stat st;
    if (stat(p, &st) != 0)
        return NULL;
    char *s = fmuc_test_read_file(p, NULL);
    cJSON *j = s ? cJSON_Parse(s) : NULL;
    cr_expect(j, "%s is not valid JSON (truncated report?)", p);
    cr_expect(cJSON_IsString(cJSON_GetObjectItem(j, "status")), "%s has no status", p);
    free(s);
    return j;
}

static inline cJSON *bi_report(const bi_env *e)
{
    return bi_report_at(e->out);
}

/* No stray temp files next to the report (atomic writes leave none). */
static inline void bi_expect_no_partial(const char *outdir)
{
    DIR *d = opendir(outdir);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d)))
        cr_expect(!strstr(de->d_name, ".tmp"), "partial file left in %s: %s", outdir, de->d_name);
    closedir(d);
}

/* Everything every case must keep, whatever the verdict. */
static inline void bi_expect_hygiene(bi_env *e, const char *what)
{
    cr_expect_eq(fmuc_test_count_entries(e->tmp), 0, "%s: --tmpdir not empty afterwards", what);
    cr_expect_eq(fmuc_test_count_entries(e->envtmp), 0, "%s: $TMPDIR not empty afterwards", what);
    char *s = bi_listing(e->sentinel), *in = bi_listing(e->in), *cwd = bi_listing(e->cwd);
    cr_expect_str_eq(s, e->before_sentinel, "%s: sentinel folder changed", what);
    cr_expect_str_eq(in, e->before_in, "%s: input folder changed", what);
    cr_expect_str_eq(cwd, e->before_cwd, "%s: working directory changed", what);
    free(s);
    free(in);
    free(cwd);
    /* workers are killed and reaped before fmucheck exits; allow the kernel a moment */
    int left = 0;
    for (int i = 0; i < 50 && (left = bi_processes_mentioning(e->root)) > 0; i++)
        usleep(20000);
    cr_expect_eq(left, 0, "%s: %d process(es) of the run still alive", what, left);
    cJSON *rep = bi_report(e);
    cJSON_Delete(rep);
    bi_expect_no_partial(e->out);
}

/* Run and check the contract plus the exit code; returns the parsed report (or NULL). */
static inline cJSON *bi_check(bi_env *e, const char *fmu, const char *const extra[], int want_exit,
                              fmuc_test_run *r_out)
{
    fmuc_test_run r;
    cr_assert(bi_exec(e, &r, NULL, fmu, extra) == 0);
    cr_expect_eq(r.status, want_exit, "%s: exit %d, want %d\nstdout: %.2000s\nstderr: %.2000s", fmu,
                 r.status, want_exit, r.out, r.err);
    bi_expect_hygiene(e, fmu);
    cJSON *rep = bi_report(e);
    if (r_out)
        *r_out = r;
    else
        fmuc_test_run_free(&r);
    return rep;
}

/* The reason: stderr or the report's statusReason contains needle. */
static inline int bi_reason_has(const fmuc_test_run *r, const cJSON *rep, const char *needle)
{
    if (r && strstr(r->err, needle))
        return 1;
    if (r && strstr(r->out, needle))
        return 1;
    const char *why = cJSON_GetStringValue(cJSON_GetObjectItem(rep, "statusReason"));
    return why && strstr(why, needle);
}

static inline const char *bi_status(const cJSON *rep)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItem(rep, "status"));
    return s ? s : "(none)";
}

/* Verdict of check id in the report, "-" when absent. */
static inline const char *bi_verdict(const cJSON *rep, const char *id)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(rep, "checks"))
    {
        const char *cid = cJSON_GetStringValue(cJSON_GetObjectItem(c, "id"));
        if (cid && !strcmp(cid, id))
        {
            const char *v = cJSON_GetStringValue(cJSON_GetObjectItem(c, "verdict"));
            return v ? v : "-";
        }
    }
    return "-";
}

/* ---- building FMUs ------------------------------------------------------------------------- */

typedef struct bi_entry {
    char *name;
    unsigned char *data;
    size_t len;
    int store;          /* write uncompressed */
    int method;         /* >0: this libzip method instead (e.g. ZIP_CM_BZIP2) */
    int encrypt;        /* AES-256 with a password */
} bi_entry;

typedef struct bi_fmu {
    bi_entry e[64];
    size_t n;
} bi_fmu;

/* Load every entry of an existing FMU into memory. */
static inline void bi_fmu_load(bi_fmu *f, const char *path)
{
    memset(f, 0, sizeof *f);
    int err = 0;
    zip_t *z = zip_open(path, ZIP_RDONLY, &err);
    cr_assert(z, "open %s", path);
    zip_int64_t n = zip_get_num_entries(z, 0);
    for (zip_int64_t i = 0; i < n && f->n < 64; i++) {
        zip_stat_t st;
        cr_assert(zip_stat_index(z, (zip_uint64_t)i, 0, &st) == 0);
        bi_entry *x = &f->e[f->n++];
        x->name = strdup(st.name);
        x->len = (size_t)st.size;
        x->data = malloc(x->len + 1);
        zip_file_t *zf = zip_fopen_index(z, (zip_uint64_t)i, 0);
        cr_assert(zf);
        cr_assert(zip_fread(zf, x->data, x->len) == (zip_int64_t)x->len);
        zip_fclose(zf);
        x->data[x->len] = '\0';
    }
    zip_close(z);
}

static inline bi_entry *bi_fmu_find(bi_fmu *f, const char *name)
{
    for (size_t i = 0; i < f->n; i++)
        if (!strcmp(f->e[i].name, name))
            return &f->e[i];
    return NULL;
}

/* Replace (or add) an entry. */
static inline void bi_fmu_set(bi_fmu *f, const char *name, const void *data, size_t len)
{
    bi_entry *x = bi_fmu_find(f, name);
    if (!x) {
        cr_assert(f->n < 64);
        x = &f->e[f->n++];
        memset(x, 0, sizeof *x);
        x->name = strdup(name);
    } else {
        free(x->data);
    }
    x->store = x->method = x->encrypt = 0;
    x->data = malloc(len + 1);
    memcpy(x->data, data, len);
    x->data[len] = '\0';
    x->len = len;
}

static inline void bi_fmu_remove(bi_fmu *f, const char *name)
{
    for (size_t i = 0; i < f->n; i++)
        if (!strcmp(f->e[i].name, name)) {
            free(f->e[i].name);
            free(f->e[i].data);
            f->e[i] = f->e[--f->n];
            return;
        }
}

/* Rename an entry (keeps its data). */
static inline void bi_fmu_rename(bi_fmu *f, const char *from, const char *to)
{
    bi_entry *x = bi_fmu_find(f, from);
    cr_assert(x, "no entry %s", from);
    free(x->name);
    x->name = strdup(to);
}

static inline void bi_fmu_free(bi_fmu *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->e[i].name);
        free(f->e[i].data);
    }
    memset(f, 0, sizeof *f);
}

/* Write the entries as a deflated zip archive with libzip. */
static inline void bi_fmu_write(const bi_fmu *f, const char *path)
{
    int err = 0;
    unlink(path);
    zip_t *z = zip_open(path, ZIP_CREATE | ZIP_EXCL, &err);
    cr_assert(z, "create %s", path);
    for (size_t i = 0; i < f->n; i++) {
        zip_source_t *s = zip_source_buffer(z, f->e[i].data, f->e[i].len, 0);
        cr_assert(s);
        zip_int64_t ix = zip_file_add(z, f->e[i].name, s, ZIP_FL_ENC_RAW);
        cr_assert(ix >= 0, "add %s: %s", f->e[i].name, zip_strerror(z));
        int m = f->e[i].method > 0 ? f->e[i].method : f->e[i].store ? ZIP_CM_STORE : ZIP_CM_DEFLATE;
        cr_assert(zip_set_file_compression(z, (zip_uint64_t)ix, m, 0) == 0, "method %d", m);
        if (f->e[i].encrypt)
            cr_assert(zip_file_set_encryption(z, (zip_uint64_t)ix, ZIP_EM_AES_256, "secret") == 0);
    }
    cr_assert(zip_close(z) == 0, "write %s: %s", path, zip_strerror(z));
}

/* The good FMU's modelDescription.xml with the first occurrence of from replaced by to. */
static inline char *bi_replace(const char *s, const char *from, const char *to)
{
    const char *p = strstr(s, from);
    cr_assert(p, "'%s' not found", from);
    size_t a = (size_t)(p - s), fl = strlen(from), tl = strlen(to), rest = strlen(p + fl);
    char *o = malloc(a + tl + rest + 1);
    memcpy(o, s, a);
    memcpy(o + a, to, tl);
    memcpy(o + a + tl, p + fl, rest + 1);
    return o;
}

/* Write the good FMU with its modelDescription.xml replaced by xml to path. */
static inline void bi_fmu_with_md(const char *path, const char *xml, size_t len)
{
    bi_fmu f;
    bi_fmu_load(&f, BI_GOOD_FMU);
    bi_fmu_set(&f, "modelDescription.xml", xml, len);
    bi_fmu_write(&f, path);
    bi_fmu_free(&f);
}

static inline char *bi_file_bytes(const char *path, size_t *len)
{
    char *s = fmuc_test_read_file(path, len);
    cr_assert(s, "read %s", path);
    return s;
}

/* ---- patching written archives ------------------------------------------------------------ */

static inline uint32_t bi_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline void bi_put16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static inline void bi_put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Offset of the local header (sig 0x04034b50, name at +30) or central entry (0x02014b50, name at
 * +46) of name in buf; -1 when absent. */
static inline long bi_find_hdr(const unsigned char *buf, size_t len, const char *name, int central)
{
    uint32_t sig = central ? 0x02014b50u : 0x04034b50u;
    size_t off = central ? 46 : 30, nl = strlen(name);
    for (size_t i = 0; i + off + nl <= len; i++) {
        if (bi_le32(buf + i) != sig)
            continue;
        size_t l = (size_t)buf[i + (central ? 28 : 26)] | ((size_t)buf[i + (central ? 29 : 27)] << 8);
        if (l == nl && memcmp(buf + i + off, name, nl) == 0)
            return (long)i;
    }
    return -1;
}

static inline long bi_find_eocd(const unsigned char *buf, size_t len)
{
    for (long i = (long)len - 22; i >= 0; i--)
        if (bi_le32(buf + i) == 0x06054b50u)
            return i;
    return -1;
}

#endif
