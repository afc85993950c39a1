/* Batches: `fmucheck [-j N] [--shard I/N] a.fmu b.fmu dir/ ...` checks many FMUs, one child
 * process per FMU (at most N at once), each writing OUTDIR/<stem>/ (report.json, report.html,
 * log.txt, junit.xml with --junit), then OUTDIR/index.json + index.html. `fmucheck merge` combines
 * the indexes of several shards. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "report.h"

#define BATCH_DEFAULT_OUT "fmucheck-batch"

enum { ITEM_PENDING = 0, ITEM_RUNNING, ITEM_DONE, ITEM_NOT_RUN };

typedef struct batch_item {
    char *path;
    char *stem;      /* unique folder name under OUTDIR */
    size_t pos;      /* position k in the sorted list of all FMUs (from 0) */
    pid_t pid;
    int state;
    int rc;          /* child's exit code */
    int term_signal; /* the child was killed by this signal */
    double t0, duration_s;
} batch_item;

typedef struct batch {
    batch_item *items;
    size_t n, cap;
    int worst;       /* highest exit code so far (inputs that are not there count too) */
} batch;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int add_item(batch *b, const char *path)
{
    if (b->n == b->cap) {
        size_t ncap = b->cap ? b->cap * 2 : 64;
        batch_item *ni = realloc(b->items, ncap * sizeof *ni);
        if (!ni)
            return -1;
        b->items = ni;
        b->cap = ncap;
    }
    batch_item *it = &b->items[b->n];
    memset(it, 0, sizeof *it);
    it->path = strdup(path);
    if (!it->path)
        return -1;
    b->n++;
    return 0;
}

static int ends_with_fmu(const char *s)
{
    size_t n = strlen(s);
    return n > 4 && strcmp(s + n - 4, ".fmu") == 0;
}

static int expand_dir(batch *b, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "fmucheck: %s: cannot read the folder: %s\n", dir, strerror(errno));
        return 0;
    }
    size_t dl = strlen(dir), found = 0;
    while (dl > 1 && dir[dl - 1] == '/')
        dl--;
    struct dirent *e;
    int err = 0;
    while (!err && (e = readdir(d))) {
        if (e->d_name[0] == '.' || !ends_with_fmu(e->d_name))
            continue;
        char *p = NULL;
        if (asprintf(&p, "%.*s/%s", (int)dl, dir, e->d_name) < 0)
            err = -1;
        else {
            struct stat st;
            if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
                free(p);
                continue;
            }
            err = add_item(b, p);
            found++;
            free(p);
        }
    }
    closedir(d);
    if (err < 0)
        return -1;
    if (!found) {
        fprintf(stderr, "fmucheck: %s: no *.fmu files in this folder\n", dir);
        if (b->worst < FMUC_EXIT_REJECTED)
            b->worst = FMUC_EXIT_REJECTED;
    }
    return 0;
}

static int cmp_item(const void *a, const void *b)
{
    return strcmp(((const batch_item *)a)->path, ((const batch_item *)b)->path);
}

static int stem_taken(const batch *b, size_t upto, const char *stem)
{
    for (size_t i = 0; i < upto; i++)
        if (strcmp(b->items[i].stem, stem) == 0)
            return 1;
    return 0;
}

/* Sorted by path (bytes), duplicates removed, unique stems, positions. */
static int finalize_list(batch *b)
{
    if (b->n == 0)
        return 0;
    qsort(b->items, b->n, sizeof *b->items, cmp_item);
    size_t w = 0;
    for (size_t i = 0; i < b->n; i++) {
        if (w && strcmp(b->items[w - 1].path, b->items[i].path) == 0) {
            free(b->items[i].path);
            continue;
        }
        b->items[w++] = b->items[i];
    }
    b->n = w;
    for (size_t i = 0; i < b->n; i++) {
        char *base = fmuc_cli_stem(b->items[i].path);
        if (!base)
            return -1;
        if (!*base || base[0] == '.') {
            char *p = NULL;
            if (asprintf(&p, "_%s", base) < 0)
                p = NULL;
            free(base);
            if (!(base = p))
                return -1;
        }
        char *stem = strdup(base);
        for (int k = 2; stem && stem_taken(b, i, stem); k++) {
            free(stem);
            if (asprintf(&stem, "%s-%d", base, k) < 0)
                stem = NULL;
        }
        free(base);
        if (!stem)
            return -1;
        b->items[i].stem = stem;
        b->items[i].pos = i;
    }
    return 0;
}

int fmuc_cli_is_batch(const fmuc_cli *cli)
{
    if (cli->ninputs > 1 || cli->shard_n > 0)
        return 1;
    struct stat st;
    return cli->ninputs == 1 && stat(cli->inputs[0], &st) == 0 && S_ISDIR(st.st_mode);
}

/* ---- the child: one FMU ------------------------------------------------------------------- */

static char *path_join(const char *a, const char *b)
{
    char *p = NULL;
    return asprintf(&p, "%s/%s", a, b) < 0 ? NULL : p;
}

/* The per-FMU baseline: OLD/<stem>/report.json where OLD is the earlier OUTDIR (or the folder of
 * the index.json given). */
static char *child_baseline(const char *given, const char *stem)
{
    struct stat st;
    char *dir = NULL;
    if (stat(given, &st) == 0 && S_ISDIR(st.st_mode)) {
        dir = strdup(given);
    } else {
        const char *slash = strrchr(given, '/');
        dir = slash ? strndup(given, (size_t)(slash - given)) : strdup(".");
    }
    if (!dir)
        return NULL;
    char *p = NULL;
    if (asprintf(&p, "%s/%s/report.json", dir, stem) < 0)
        p = NULL;
    free(dir);
    return p;
}

static void run_child(fmuc_cli *cli, const char *outdir, const batch_item *it, pid_t parent)
    __attribute__((noreturn));
static void run_child(fmuc_cli *cli, const char *outdir, const batch_item *it, pid_t parent)
{
    setpgid(0, 0); /* terminal signals reach the parent only; it forwards them */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent)
        _exit(FMUC_EXIT_INTERNAL);
    fmuc_cli_signals_install();
    char *dir = path_join(outdir, it->stem);
    if (!dir || fmuc_cli_make_dirs(dir) < 0)
        _exit(FMUC_EXIT_USAGE);
    static const char *const stale[] = {"report.json", "report.html", "junit.xml", "log.txt"};
    for (size_t i = 0; i < sizeof stale / sizeof *stale; i++) {
        char *p = path_join(dir, stale[i]);
        if (p)
            unlink(p);
        free(p);
    }
    char *log = path_join(dir, "log.txt");
    int fd = log ? open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -1;
    if (fd < 0)
        _exit(FMUC_EXIT_USAGE);
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    close(fd);
    int nul = open("/dev/null", O_RDONLY);
    if (nul >= 0) {
        dup2(nul, STDIN_FILENO);
        close(nul);
    }
    cli->batch_child = 1;
    /* -j N already keeps N CPUs busy: one check at a time per FMU unless asked otherwise */
    if (cli->jobs > 1 && cli->opts.check_jobs == 0)
        cli->opts.check_jobs = 1;
    cli->output_dir = dir;
    cli->json_path = NULL;
    cli->junit_path = cli->junit_path ? path_join(dir, "junit.xml") : NULL;
    cli->color = cli->stdout_color = cli->stderr_tty = 0;
    cli->quiet = 0;
    if (cli->baseline_path)
        cli->baseline_path = child_baseline(cli->baseline_path, it->stem);
    int rc = fmuc_cli_check_one(cli, it->path);
    fflush(NULL);
    _exit(rc);
}

/* ---- the index ---------------------------------------------------------------------------- */

static const char *status_for(int rc)
{
    switch (rc) {
    case FMUC_EXIT_REJECTED: return "rejected";
    case FMUC_EXIT_UNSUPPORTED: return "unsupported";
    case FMUC_EXIT_SIGINT:
    case FMUC_EXIT_SIGTERM: return "incomplete";
    default: return "error";
    }
}

static void first_line(char *buf, size_t n, const char *path)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    if (fgets(buf, (int)n, f))
        buf[strcspn(buf, "\n")] = '\0';
    fclose(f);
}

static cJSON *counts_from(const cJSON *summary)
{
    cJSON *c = cJSON_CreateObject();
    static const char *const keys[] = {"total", "pass", "warn", "fail", "error", "notApplicable"};
    for (size_t i = 0; i < 6; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(summary, keys[i]);
        cJSON_AddNumberToObject(c, keys[i], cJSON_IsNumber(v) ? v->valuedouble : 0);
    }
    return c;
}

static cJSON *item_json(const batch_item *it, const char *outdir)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "position", (double)it->pos);
    cJSON_AddStringToObject(o, "path", it->path);
    const char *base = strrchr(it->path, '/');
    cJSON_AddStringToObject(o, "fileName", base ? base + 1 : it->path);
    cJSON_AddStringToObject(o, "stem", it->stem);
    char *dir = path_join(outdir, it->stem);
    char *rp = dir ? path_join(dir, "report.json") : NULL;
    cJSON *rep = NULL;
    if (it->state == ITEM_DONE && rp) {
        char *text = fmuc_cli_read_file(rp, NULL);
        rep = text ? cJSON_Parse(text) : NULL;
        free(text);
    }
    const cJSON *fmu = cJSON_GetObjectItemCaseSensitive(rep, "fmu");
    const char *sha = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(fmu, "sha256"));
    char hex[65] = "";
    fmuc_diag d = {{0}, FMUC_OK};
    if (!sha && fmuc_sha256_file(hex, it->path, &d) == FMUC_OK)
        sha = hex;
    if (sha)
        cJSON_AddStringToObject(o, "sha256", sha);
    else
        cJSON_AddNullToObject(o, "sha256");
    if (it->state == ITEM_NOT_RUN) {
        cJSON_AddStringToObject(o, "status", "not-run");
        cJSON_AddNullToObject(o, "verdict");
        cJSON_AddNullToObject(o, "exitCode");
    } else if (rep) {
        const cJSON *sum = cJSON_GetObjectItemCaseSensitive(rep, "summary");
        const char *status = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(rep, "status"));
        cJSON_AddStringToObject(o, "status", status ? status : "complete");
        const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(sum, "verdict"));
        if (v)
            cJSON_AddStringToObject(o, "verdict", v);
        else
            cJSON_AddNullToObject(o, "verdict");
        const cJSON *vs = cJSON_GetObjectItemCaseSensitive(sum, "verdicts");
        if (cJSON_IsObject(vs)) /* the overall verdict under every profile */
            cJSON_AddItemToObject(o, "verdicts", cJSON_Duplicate(vs, 1));
        cJSON_AddNumberToObject(o, "exitCode", it->rc);
        cJSON_AddItemToObject(o, "counts", counts_from(sum));
        const cJSON *tb = cJSON_GetObjectItemCaseSensitive(sum, "timeBudget");
        const cJSON *tbn = cJSON_GetObjectItemCaseSensitive(tb, "notRun");
        if (cJSON_IsObject(tb) && cJSON_IsNumber(tbn) && tbn->valuedouble > 0)
            /* checks the time budget left out */
            cJSON_AddItemToObject(o, "timeBudget", cJSON_Duplicate(tb, 1));
    } else {
        cJSON_AddStringToObject(o, "status", status_for(it->rc));
        cJSON_AddNullToObject(o, "verdict");
        cJSON_AddNumberToObject(o, "exitCode", it->rc);
    }
    if (rep) {
        fmuc_report_batch_entry(o, rep); /* areas, highlights, baseline */
        char *l = NULL;
        if (asprintf(&l, "%s/report.json", it->stem) >= 0)
            cJSON_AddStringToObject(o, "report", l);
        free(l);
        char *hp = dir ? path_join(dir, "report.html") : NULL;
        struct stat st;
        if (hp && stat(hp, &st) == 0 && asprintf(&l, "%s/report.html", it->stem) >= 0) {
            cJSON_AddStringToObject(o, "html", l);
            free(l);
        } else {
            cJSON_AddNullToObject(o, "html");
        }
        free(hp);
    } else {
        cJSON_AddNullToObject(o, "report");
        cJSON_AddNullToObject(o, "html");
    }
    if (it->state == ITEM_DONE) {
        char *l = NULL;
        if (asprintf(&l, "%s/log.txt", it->stem) >= 0)
            cJSON_AddStringToObject(o, "log", l);
        free(l);
        if (!rep) {
            char msg[512], *lp = dir ? path_join(dir, "log.txt") : NULL;
            msg[0] = '\0';
            if (lp)
                first_line(msg, sizeof msg, lp);
            if (it->term_signal)
                snprintf(msg, sizeof msg, "the fmucheck child process was killed by signal %d",
                         it->term_signal);
            cJSON_AddStringToObject(o, "message", msg);
            free(lp);
        }
        cJSON_AddNumberToObject(o, "durationSeconds", it->duration_s);
    }
    cJSON_Delete(rep);
    free(rp);
    free(dir);
    return o;
}

/* summary over the fmus array: per outcome and the exit code (highest wins) */
static cJSON *index_summary(const cJSON *fmus, int extra_rc, int *rc_out)
{
    size_t n = 0, pass = 0, fail = 0, error = 0, rejected = 0, unsupported = 0, other = 0,
           notrun = 0;
    int rc = extra_rc;
    const cJSON *it;
    cJSON_ArrayForEach(it, fmus)
    {
        n++;
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(it, "exitCode");
        if (!cJSON_IsNumber(e)) {
            notrun++;
            continue;
        }
        int c = e->valueint;
        if (c > rc)
            rc = c;
        pass += c == FMUC_EXIT_OK;
        fail += c == FMUC_EXIT_FAIL;
        error += c == FMUC_EXIT_ERROR;
        rejected += c == FMUC_EXIT_REJECTED;
        unsupported += c == FMUC_EXIT_UNSUPPORTED;
        other += c > FMUC_EXIT_UNSUPPORTED;
    }
    cJSON *s = cJSON_CreateObject();
    cJSON_AddNumberToObject(s, "fmus", (double)n);
    cJSON_AddNumberToObject(s, "pass", (double)pass);
    cJSON_AddNumberToObject(s, "fail", (double)fail);
    cJSON_AddNumberToObject(s, "error", (double)error);
    cJSON_AddNumberToObject(s, "rejected", (double)rejected);
    cJSON_AddNumberToObject(s, "unsupported", (double)unsupported);
    cJSON_AddNumberToObject(s, "other", (double)other);
    cJSON_AddNumberToObject(s, "notRun", (double)notrun);
    cJSON_AddNumberToObject(s, "exitCode", rc);
    *rc_out = rc;
    return s;
}

/* The index page, rendered by the batch reporter from the index data alone. */
static char *index_html(const cJSON *idx)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    fmuc_err err = fmuc_report_batch_html_write(f, idx);
    if (fclose(f) != 0 || err != FMUC_OK) {
        free(buf);
        return NULL;
    }
    return buf;
}

static int write_index(const char *outdir, const cJSON *idx)
{
    char *text = cJSON_Print(idx);
    char *jp = path_join(outdir, "index.json"), *hp = path_join(outdir, "index.html");
    char *html = index_html(idx);
    int rc = -1;
    if (!text || !jp || !hp || !html) {
        fprintf(stderr, "fmucheck: out of memory writing the index\n");
        rc = FMUC_EXIT_INTERNAL;
    } else if (fmuc_cli_write_file_atomic(jp, text, strlen(text)) < 0) {
        fprintf(stderr, "fmucheck: cannot write '%s': %s\n", jp, strerror(errno));
        rc = FMUC_EXIT_USAGE;
    } else if (fmuc_cli_write_file_atomic(hp, html, strlen(html)) < 0) {
        fprintf(stderr, "fmucheck: cannot write '%s': %s\n", hp, strerror(errno));
        rc = FMUC_EXIT_USAGE;
    }
    cJSON_free(text);
    free(html);
    free(jp);
    free(hp);
    return rc;
}

static cJSON *index_new(void)
{
    cJSON *idx = cJSON_CreateObject();
    cJSON_AddStringToObject(idx, "schema", "fmucheck-index");
    cJSON_AddNumberToObject(idx, "schemaVersion", 1);
    cJSON *tool = cJSON_AddObjectToObject(idx, "tool");
    cJSON_AddStringToObject(tool, "name", "fmucheck");
    cJSON_AddStringToObject(tool, "version", FMUC_VERSION);
    char *d = fmuc_cli_utc_now();
    if (d)
        cJSON_AddStringToObject(idx, "dateUtc", d);
    free(d);
    return idx;
}

static void print_index(const fmuc_cli *cli, const cJSON *idx, const char *outdir)
{
    const cJSON *sum = cJSON_GetObjectItemCaseSensitive(idx, "summary");
    int rc = cJSON_GetObjectItemCaseSensitive(sum, "exitCode")->valueint;
    int incomplete = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(idx, "incomplete"));
    if (!cli->quiet) {
        putchar('\n');
        const cJSON *it;
        cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(idx, "fmus"))
        {
            const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "verdict"));
            const char *st = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "status"));
            const cJSON *ec = cJSON_GetObjectItemCaseSensitive(it, "exitCode");
            char code[8] = "-";
            if (cJSON_IsNumber(ec))
                snprintf(code, sizeof code, "%d", ec->valueint);
            printf("  %-12s exit %-3s %s", v && st && !strcmp(st, "complete") ? v : st ? st : "?",
                   code,
                   cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "path")));
            const cJSON *nr = cJSON_GetObjectItemCaseSensitive(
                cJSON_GetObjectItemCaseSensitive(it, "timeBudget"), "notRun");
            if (cJSON_IsNumber(nr) && nr->valueint > 0)
                printf(" (%d check(s) not run: time budget)", nr->valueint);
            putchar('\n');
        }
        printf("  index: %s/index.json\n  html:  %s/index.html\n", outdir, outdir);
    }
    printf("%s %d FMUs: %d pass, %d fail, %d error, %d rejected, %d unsupported, %d not run "
           "(exit %d)\n",
           incomplete ? "INTERRUPTED" : rc == 0 ? "PASS" : "FAIL",
           cJSON_GetObjectItemCaseSensitive(sum, "fmus")->valueint,
           cJSON_GetObjectItemCaseSensitive(sum, "pass")->valueint,
           cJSON_GetObjectItemCaseSensitive(sum, "fail")->valueint,
           cJSON_GetObjectItemCaseSensitive(sum, "error")->valueint,
           cJSON_GetObjectItemCaseSensitive(sum, "rejected")->valueint,
           cJSON_GetObjectItemCaseSensitive(sum, "unsupported")->valueint,
           cJSON_GetObjectItemCaseSensitive(sum, "notRun")->valueint, rc);
    fflush(stdout);
}

/* ---- combined JUnit ----------------------------------------------------------------------- */

/* The per-FMU junit.xml texts, in index order, composed by the batch JUnit reporter. */
static int write_junit(const fmuc_cli *cli, const batch *b, const char *outdir, const cJSON *idx)
{
    char **suites = calloc(b->n ? b->n : 1, sizeof *suites);
    char *all = NULL;
    size_t n = 0;
    int rc = FMUC_EXIT_INTERNAL;
    if (!suites)
        return rc;
    for (size_t i = 0; i < b->n; i++) {
        if (b->items[i].state != ITEM_DONE)
            continue;
        char *dir = path_join(outdir, b->items[i].stem);
        char *jp = dir ? path_join(dir, "junit.xml") : NULL;
        suites[i] = jp ? fmuc_cli_read_file(jp, NULL) : NULL;
        free(jp);
        free(dir);
    }
    FILE *f = open_memstream(&all, &n);
    if (f) {
        fmuc_err err = fmuc_report_batch_junit_write(f, idx, (const char *const *)suites);
        if (fclose(f) == 0 && err == FMUC_OK)
            rc = -1;
    }
    if (rc < 0 && fmuc_cli_write_file_atomic(cli->junit_path, all, n) < 0) {
        fprintf(stderr, "fmucheck: cannot write '%s': %s\n", cli->junit_path, strerror(errno));
        rc = FMUC_EXIT_USAGE;
    }
    for (size_t i = 0; i < b->n; i++)
        free(suites[i]);
    free(suites);
    free(all);
    return rc;
}

/* ---- the batch ---------------------------------------------------------------------------- */

static void finish_item(batch_item *it, int status, size_t done, size_t total, const char *outdir)
{
    it->state = ITEM_DONE;
    it->duration_s = now_s() - it->t0;
    if (WIFEXITED(status)) {
        it->rc = WEXITSTATUS(status);
    } else {
        it->term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
        it->rc = FMUC_EXIT_INTERNAL;
    }
    fprintf(stderr, "[%3zu/%zu] exit %-3d %s -> %s/%s/\n", done, total, it->rc, it->path, outdir,
            it->stem);
}

int fmuc_cli_batch(fmuc_cli *cli)
{
    batch b = {0};
    int rc = FMUC_EXIT_INTERNAL;
    cJSON *idx = NULL;
    const char *outdir = cli->output_dir ? cli->output_dir : BATCH_DEFAULT_OUT;
    if (cli->json_path) {
        fprintf(stderr, "fmucheck: --json=FILE is for one FMU; a batch writes OUTDIR/index.json\n");
        return FMUC_EXIT_USAGE;
    }
    for (size_t i = 0; i < cli->ninputs; i++) {
        struct stat st;
        int err = stat(cli->inputs[i], &st) == 0 && S_ISDIR(st.st_mode)
                      ? expand_dir(&b, cli->inputs[i])
                      : add_item(&b, cli->inputs[i]);
        if (err < 0)
            goto oom;
    }
    if (finalize_list(&b) < 0)
        goto oom;
    size_t total_all = b.n;
    if (cli->shard_n > 0) { /* keep positions k with k % n == i - 1 */
        size_t w = 0;
        for (size_t i = 0; i < b.n; i++) {
            if (b.items[i].pos % (size_t)cli->shard_n == (size_t)(cli->shard_i - 1)) {
                b.items[w++] = b.items[i];
            } else {
                free(b.items[i].path);
                free(b.items[i].stem);
            }
        }
        b.n = w;
    }
    if (fmuc_cli_make_dirs(outdir) < 0) {
        fprintf(stderr, "fmucheck: cannot create output folder '%s': %s\n", outdir,
                strerror(errno));
        rc = FMUC_EXIT_USAGE;
        goto out;
    }
    if (total_all == 0 && b.worst) {
        rc = b.worst;
        goto out;
    }

    size_t next = 0, running = 0, done = 0;
    int forwarded = 0;
    pid_t self = getpid();
    while (next < b.n || running > 0) {
        int stop = fmuc_cli_signal_stop();
        if (stop && !forwarded) {
            for (size_t i = 0; i < b.n; i++)
                if (b.items[i].state == ITEM_RUNNING)
                    kill(b.items[i].pid, stop);
            forwarded = 1;
        }
        while (!stop && next < b.n && running < (size_t)cli->jobs) {
            batch_item *it = &b.items[next++];
            fflush(NULL);
            it->t0 = now_s();
            pid_t pid = fork();
            if (pid < 0) {
                fprintf(stderr, "fmucheck: fork failed: %s\n", strerror(errno));
                it->state = ITEM_DONE;
                it->rc = FMUC_EXIT_INTERNAL;
                done++;
                continue;
            }
            if (pid == 0)
                run_child(cli, outdir, it, self);
            setpgid(pid, pid);
            it->pid = pid;
            it->state = ITEM_RUNNING;
            running++;
        }
        if (stop)
            while (next < b.n)
                b.items[next++].state = ITEM_NOT_RUN;
        if (running == 0)
            continue;
        int status = 0;
        pid_t p = waitpid(-1, &status, WNOHANG);
        if (p > 0) {
            for (size_t i = 0; i < b.n; i++)
                if (b.items[i].state == ITEM_RUNNING && b.items[i].pid == p) {
                    finish_item(&b.items[i], status, ++done, b.n, outdir);
                    running--;
                }
            continue;
        }
        if (p < 0 && errno == ECHILD) { /* cannot happen unless SIGCHLD is ignored */
            for (size_t i = 0; i < b.n; i++)
                if (b.items[i].state == ITEM_RUNNING) {
                    b.items[i].state = ITEM_DONE;
                    b.items[i].rc = FMUC_EXIT_INTERNAL;
                }
            running = 0;
            continue;
        }
        sleep_ms(20);
    }

    idx = index_new();
    int stop = fmuc_cli_signal_stop();
    if (cli->shard_n > 0) {
        cJSON *sh = cJSON_AddObjectToObject(idx, "shard");
        cJSON_AddNumberToObject(sh, "index", cli->shard_i);
        cJSON_AddNumberToObject(sh, "count", cli->shard_n);
    } else {
        cJSON_AddNullToObject(idx, "shard");
    }
    cJSON_AddNumberToObject(idx, "totalFmus", (double)total_all);
    cJSON_AddBoolToObject(idx, "incomplete", stop != 0);
    cJSON *fmus = cJSON_AddArrayToObject(idx, "fmus");
    for (size_t i = 0; i < b.n; i++)
        cJSON_AddItemToArray(fmus, item_json(&b.items[i], outdir));
    int worst = 0;
    cJSON_AddItemToObject(idx, "summary",
                          index_summary(fmus, stop ? 128 + stop : b.worst, &worst));
    int wrc = write_index(outdir, idx);
    if (wrc >= 0) {
        rc = wrc;
        goto out;
    }
    if (cli->junit_path && (wrc = write_junit(cli, &b, outdir, idx)) >= 0) {
        rc = wrc;
        goto out;
    }
    print_index(cli, idx, outdir);
    rc = worst;
    goto out;
oom:
    fprintf(stderr, "fmucheck: out of memory\n");
    rc = FMUC_EXIT_INTERNAL;
out:
    cJSON_Delete(idx);
    for (size_t i = 0; i < b.n; i++) {
        free(b.items[i].path);
        free(b.items[i].stem);
    }
    free(b.items);
    return rc;
}

/* ---- merge -------------------------------------------------------------------------------- */

/* Relative path from folder `from` to `to` (both absolute, canonical): by components. */
static char *relative_path(const char *from, const char *to)
{
    char *fc = strdup(from), *tc = strdup(to), *out = NULL;
    const char *fv[256], *tv[256];
    size_t nf = 0, nt = 0;
    if (!fc || !tc)
        goto done;
    for (char *sv = NULL, *c = strtok_r(fc, "/", &sv); c && nf < 256; c = strtok_r(NULL, "/", &sv))
        fv[nf++] = c;
    for (char *sv = NULL, *c = strtok_r(tc, "/", &sv); c && nt < 256; c = strtok_r(NULL, "/", &sv))
        tv[nt++] = c;
    size_t common = 0;
    while (common < nf && common < nt && strcmp(fv[common], tv[common]) == 0)
        common++;
    size_t len = (nf - common) * 3 + strlen(to) + 2;
    out = malloc(len);
    if (!out)
        goto done;
    size_t o = 0;
    for (size_t k = common; k < nf; k++)
        o += (size_t)snprintf(out + o, len - o, "../");
    for (size_t k = common; k < nt; k++)
        o += (size_t)snprintf(out + o, len - o, "%s%s", tv[k], k + 1 < nt ? "/" : "");
    out[o] = '\0';
done:
    free(fc);
    free(tc);
    return out;
}

static void relink(cJSON *entry, const char *key, const char *idxdir, const char *outreal)
{
    cJSON *v = cJSON_GetObjectItemCaseSensitive(entry, key);
    const char *s = cJSON_GetStringValue(v);
    if (!s || s[0] == '/')
        return;
    char *abs = path_join(idxdir, s);
    char *rel = abs ? relative_path(outreal, abs) : NULL;
    if (rel)
        cJSON_SetValuestring(v, rel);
    free(rel);
    free(abs);
}

static int cmp_entry(const void *a, const void *b)
{
    const cJSON *x = *(const cJSON *const *)a, *y = *(const cJSON *const *)b;
    double px = cJSON_GetObjectItemCaseSensitive(x, "position")->valuedouble;
    double py = cJSON_GetObjectItemCaseSensitive(y, "position")->valuedouble;
    if (px != py)
        return px < py ? -1 : 1;
    return strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(x, "path")),
                  cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(y, "path")));
}

int fmuc_cli_merge(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: fmucheck merge OUTDIR index1.json [index2.json ...]\n");
        return FMUC_EXIT_USAGE;
    }
    const char *out = argv[1];
    if (fmuc_cli_make_dirs(out) < 0) {
        fprintf(stderr, "fmucheck: cannot create output folder '%s': %s\n", out, strerror(errno));
        return FMUC_EXIT_USAGE;
    }
    char outreal[PATH_MAX];
    if (!realpath(out, outreal)) {
        fprintf(stderr, "fmucheck: %s: %s\n", out, strerror(errno));
        return FMUC_EXIT_USAGE;
    }
    int rc = FMUC_EXIT_OK, incomplete = 0, shard_count = 0;
    size_t nidx = (size_t)argc - 2, nentries = 0, cap = 0;
    double total = 0;
    cJSON **entries = NULL;
    unsigned char *seen_shard = NULL;
    int bad = 0;
    for (size_t k = 0; k < nidx && !bad; k++) {
        const char *ip = argv[2 + k];
        char *text = fmuc_cli_read_file(ip, NULL);
        cJSON *idx = text ? cJSON_Parse(text) : NULL;
        free(text);
        const char *schema = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(idx, "schema"));
        const cJSON *fmus = cJSON_GetObjectItemCaseSensitive(idx, "fmus");
        if (!idx || !schema || strcmp(schema, "fmucheck-index") || !cJSON_IsArray(fmus)) {
            fprintf(stderr, "fmucheck: merge: %s is not an fmucheck index.json\n", ip);
            cJSON_Delete(idx);
            bad = FMUC_EXIT_USAGE;
            break;
        }
        char ireal[PATH_MAX];
        if (!realpath(ip, ireal)) {
            cJSON_Delete(idx);
            bad = FMUC_EXIT_USAGE;
            break;
        }
        char *slash = strrchr(ireal, '/');
        if (slash == ireal)
            slash[1] = '\0';
        else if (slash)
            *slash = '\0';
        const cJSON *sum = cJSON_GetObjectItemCaseSensitive(idx, "summary");
        const cJSON *ec = cJSON_GetObjectItemCaseSensitive(sum, "exitCode");
        if (cJSON_IsNumber(ec) && ec->valueint > rc)
            rc = ec->valueint;
        incomplete |= cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(idx, "incomplete"));
        const cJSON *tf = cJSON_GetObjectItemCaseSensitive(idx, "totalFmus");
        if (cJSON_IsNumber(tf) && tf->valuedouble > total)
            total = tf->valuedouble;
        const cJSON *sh = cJSON_GetObjectItemCaseSensitive(idx, "shard");
        if (cJSON_IsObject(sh)) {
            const cJSON *jsi = cJSON_GetObjectItemCaseSensitive(sh, "index");
            const cJSON *jsn = cJSON_GetObjectItemCaseSensitive(sh, "count");
            int si = cJSON_IsNumber(jsi) ? jsi->valueint : 0;
            int sn = cJSON_IsNumber(jsn) ? jsn->valueint : 0;
            if (!shard_count && sn > 0 && sn <= 100000) {
                shard_count = sn;
                seen_shard = calloc((size_t)sn + 1, 1);
            }
            if (seen_shard && sn == shard_count && si >= 1 && si <= sn)
                seen_shard[si] = 1;
        }
        const cJSON *it;
        cJSON_ArrayForEach(it, fmus)
        {
            const char *p = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "path"));
            if (!p || !cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(it, "position")))
                continue;
            int dup = 0;
            for (size_t j = 0; j < nentries && !dup; j++)
                dup = strcmp(p, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
                                    entries[j], "path"))) == 0;
            if (dup) {
                fprintf(stderr, "fmucheck: merge: %s appears in more than one index; kept the "
                                "first\n", p);
                continue;
            }
            if (nentries == cap) {
                cap = cap ? cap * 2 : 64;
                cJSON **ne = realloc(entries, cap * sizeof *ne);
                if (!ne) {
                    bad = FMUC_EXIT_INTERNAL;
                    break;
                }
                entries = ne;
            }
            cJSON *e = cJSON_Duplicate(it, 1);
            relink(e, "report", ireal, outreal);
            relink(e, "html", ireal, outreal);
            relink(e, "log", ireal, outreal);
            entries[nentries++] = e;
        }
        cJSON_Delete(idx);
    }
    if (bad) {
        for (size_t j = 0; j < nentries; j++)
            cJSON_Delete(entries[j]);
        free(entries);
        free(seen_shard);
        return bad;
    }
    if (nentries)
        qsort(entries, nentries, sizeof *entries, cmp_entry);
    cJSON *idx = index_new();
    cJSON_AddNullToObject(idx, "shard");
    /* shards of one batch share their total; indexes of different batches add FMUs beyond it */
    cJSON_AddNumberToObject(idx, "totalFmus", total > (double)nentries ? total : (double)nentries);
    cJSON_AddBoolToObject(idx, "incomplete", incomplete);
    cJSON *missing = cJSON_AddArrayToObject(idx, "shardsMissing");
    for (int s = 1; seen_shard && s <= shard_count; s++)
        if (!seen_shard[s]) {
            char buf[40];
            snprintf(buf, sizeof buf, "%d/%d", s, shard_count);
            cJSON_AddItemToArray(missing, cJSON_CreateString(buf));
            fprintf(stderr, "fmucheck: merge: shard %s is missing\n", buf);
            if (rc < FMUC_EXIT_USAGE)
                rc = FMUC_EXIT_USAGE;
        }
    free(seen_shard);
    cJSON *fmus = cJSON_AddArrayToObject(idx, "fmus");
    for (size_t j = 0; j < nentries; j++)
        cJSON_AddItemToArray(fmus, entries[j]);
    free(entries);
    int worst = 0;
    cJSON_AddItemToObject(idx, "summary", index_summary(fmus, rc, &worst));
    int wrc = write_index(out, idx);
    if (wrc < 0) {
        fmuc_cli quiet_cli;
        memset(&quiet_cli, 0, sizeof quiet_cli);
        print_index(&quiet_cli, idx, out);
    }
    cJSON_Delete(idx);
    return wrc >= 0 ? wrc : worst;
}
