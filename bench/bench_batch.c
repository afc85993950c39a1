/* Batches: 50 FMUs (copies of the good reference FMUs, plus the vdsim FMUs with --with-vdsim)
 * checked with one and with two parallel jobs; target: two jobs >= 1.8x faster on two cores.
 * Uses `fmucheck -j N a.fmu b.fmu ...` when fmucheck --help lists -j (batch mode), otherwise
 * 50 single fmucheck processes through `xargs -P1` / `xargs -P2` (labelled so). Median with
 * min/max of --runs runs (3); -q --no-html.
 *   bench_batch [--runs N] [--count N] [--with-vdsim 1] [--fmucheck PATH] [--json FILE] */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"
#include "fmuc/fmuc_fmu.h"

#define MAXRUNS 9
#define MAXFMUS 400

static int copy_file(const char *from, const char *to)
{
    int in = open(from, O_RDONLY | O_CLOEXEC), out = -1, rc = -1;
    char buf[65536];
    ssize_t n;
    if (in < 0)
        return -1;
    out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out < 0)
        goto done;
    while ((n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n)
            goto done;
    rc = n == 0 ? 0 : -1;
done:
    close(in);
    if (out >= 0 && close(out) != 0)
        rc = -1;
    return rc;
}

/* Does `fmucheck --help` mention a -j option? */
static int has_batch_mode(const char *exe)
{
    int fds[2];
    if (pipe(fds) < 0)
        return 0;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        close(fds[1]);
        execl(exe, exe, "--help", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    char buf[16384];
    size_t len = 0;
    ssize_t n;
    while (len + 1 < sizeof buf && (n = read(fds[0], buf + len, sizeof buf - 1 - len)) > 0)
        len += (size_t)n;
    buf[len] = '\0';
    close(fds[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);
    return strstr(buf, "-j N") || strstr(buf, "-j, --jobs") || strstr(buf, "--jobs");
}

/* Run argv in dir, stdin from the file list (NULL: /dev/null); wall seconds and exit code. */
static int run_in(const char *dir, char *const *argv, const char *stdin_text, double *wall,
                  double *cpu)
{
    int fds[2] = {-1, -1};
    if (stdin_text && pipe(fds) < 0)
        return -1;
    double t0 = bench_now_s();
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(126);
        int quiet = open("/dev/null", O_WRONLY); /* per-FMU progress lines: not the figures */
        if (quiet >= 0) {
            dup2(quiet, 1);
            dup2(quiet, 2);
            close(quiet);
        }
        if (stdin_text) {
            dup2(fds[0], 0);
            close(fds[0]);
            close(fds[1]);
        } else {
            int nul = open("/dev/null", O_RDONLY);
            if (nul >= 0)
                dup2(nul, 0);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    if (stdin_text) {
        close(fds[0]);
        size_t len = strlen(stdin_text), off = 0;
        while (off < len) {
            ssize_t w = write(fds[1], stdin_text + off, len - off);
            if (w <= 0)
                break;
            off += (size_t)w;
        }
        close(fds[1]);
    }
    int st = 0;
    struct rusage ru;
    while (wait4(pid, &st, 0, &ru) < 0)
        if (errno != EINTR)
            return -1;
    *wall = bench_now_s() - t0;
    *cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    const char *exe = bench_arg(argc, argv, "--fmucheck", FMUC_BUILD_DIR "/fmucheck");
    long kr = strtol(bench_arg(argc, argv, "--runs", "3"), NULL, 10);
    long kc = strtol(bench_arg(argc, argv, "--count", "50"), NULL, 10);
    int with_vdsim = strcmp(bench_arg(argc, argv, "--with-vdsim", "0"), "0") != 0;
    int runs = kr >= 1 && kr <= MAXRUNS ? (int)kr : 3;
    int count = kc >= 2 && kc <= MAXFMUS ? (int)kc : 50;
    const char *json = bench_json_arg(argc, argv);

    char *src[64];
    size_t nsrc = 0;
    DIR *d = opendir(FMUC_BUILD_DIR "/fmus/good");
    struct dirent *e;
    while (d && (e = readdir(d)) && nsrc < 60) {
        size_t l = strlen(e->d_name);
        if (l > 4 && strcmp(e->d_name + l - 4, ".fmu") == 0) {
            char p[1024];
            snprintf(p, sizeof p, "%s/fmus/good/%s", FMUC_BUILD_DIR, e->d_name);
            src[nsrc++] = strdup(p);
        }
    }
    if (d)
        closedir(d);
    qsort(src, nsrc, sizeof *src, cmp_name);
    if (with_vdsim) {
        src[nsrc++] = strdup(FMUC_BUILD_DIR "/fmus/vdsim_l2.fmu");
        src[nsrc++] = strdup(FMUC_BUILD_DIR "/fmus/vdsim_l3.fmu");
    }
    if (nsrc == 0) {
        fprintf(stderr, "bench_batch: no FMUs in %s/fmus/good\n", FMUC_BUILD_DIR);
        return 1;
    }
    char tmpl[] = "/tmp/fmuc-bench-batch-XXXXXX";
    char *tmp = mkdtemp(tmpl);
    if (!tmp) {
        perror("mkdtemp");
        return 1;
    }
    /* the copies: NN-<name>.fmu, cycling through the sources */
    char **files = calloc((size_t)count, sizeof *files);
    size_t listlen = 0;
    char *list = NULL;
    for (int i = 0; i < count && files; i++) {
        const char *b = strrchr(src[(size_t)i % nsrc], '/') + 1;
        char p[1200];
        snprintf(p, sizeof p, "%s/%02d-%s", tmp, i, b);
        if (copy_file(src[(size_t)i % nsrc], p) != 0) {
            fprintf(stderr, "bench_batch: cannot copy to %s\n", p);
            fmuc_rmtree(tmp);
            return 1;
        }
        files[i] = strdup(p);
        size_t l = strlen(p);
        list = realloc(list, listlen + l + 2);
        memcpy(list + listlen, p, l);
        list[listlen + l] = '\n';
        listlen += l + 1;
        list[listlen] = '\0';
    }
    int batch = has_batch_mode(exe);
    const char *mode = batch ? "fmucheck -j N (batch mode)"
                             : "xargs -P N: one fmucheck process per FMU (no batch mode yet)";
    double wall[2][MAXRUNS], cpu[2][MAXRUNS];
    int bad_exit = 0;
    for (int r = 0; r < runs; r++)
        for (int j = 0; j < 2; j++) {
            char dir[1200], jobs[8];
            snprintf(dir, sizeof dir, "%s/run-%d-%d", tmp, r, j + 1);
            mkdir(dir, 0700);
            snprintf(jobs, sizeof jobs, "%d", j + 1);
            char *av[MAXFMUS + 16];
            int n = 0, rc;
            if (batch) {
                av[n++] = (char *)exe;
                av[n++] = (char *)"-j";
                av[n++] = jobs;
                av[n++] = (char *)"-q";
                av[n++] = (char *)"--no-html";
                /* the FMUs in parallel, not the checks of one FMU (which -j 1 would run in two
                 * lanes): the speed-up of the batch alone */
                av[n++] = (char *)"--check-jobs";
                av[n++] = (char *)"1";
                for (int i = 0; i < count; i++)
                    av[n++] = files[i];
                av[n] = NULL;
                rc = run_in(dir, av, NULL, &wall[j][r], &cpu[j][r]);
            } else {
                av[n++] = (char *)"xargs";
                av[n++] = (char *)"-n1";
                av[n++] = (char *)"-P";
                av[n++] = jobs;
                av[n++] = (char *)exe;
                av[n++] = (char *)"-q";
                av[n++] = (char *)"--no-html";
                av[n] = NULL;
                rc = run_in(dir, av, list, &wall[j][r], &cpu[j][r]);
            }
            /* xargs: 123 when some fmucheck exited 1..125 (a failing check): still timed */
            if (rc != 0) {
                if (rc != 123 && rc != 1 && rc != 2) {
                    fprintf(stderr, "bench_batch: run exited %d\n", rc);
                    bad_exit = 1;
                } else if (r == 0 && j == 0) {
                    fprintf(stderr, "bench_batch: note: some FMUs did not pass (exit %d)\n", rc);
                }
            }
        }
    fmuc_rmtree(tmp);
    bench_stat s1 = bench_stats(wall[0], runs), s2 = bench_stats(wall[1], runs),
               c1 = bench_stats(cpu[0], runs), c2 = bench_stats(cpu[1], runs);
    double sp[MAXRUNS];
    for (int r = 0; r < runs; r++)
        sp[r] = wall[1][r] > 0 ? wall[0][r] / wall[1][r] : 0;
    bench_stat ss = bench_stats(sp, runs);
    int met = ss.med >= 1.8;
    printf("Batches: %d FMUs (copies of %zu FMUs), %s; %d runs, median [min..max]\n", count, nsrc,
           mode, runs);
    printf("%-6s %24s %10s %14s\n", "jobs", "wall s", "cpu s", "FMUs/s");
    printf("%-6s %17.2f [%.2f..%.2f] %10.2f %14.2f\n", "1", s1.med, s1.min, s1.max, c1.med,
           count / s1.med);
    printf("%-6s %17.2f [%.2f..%.2f] %10.2f %14.2f\n", "2", s2.med, s2.min, s2.max, c2.med,
           count / s2.med);
    printf("speed-up 2 jobs vs 1: %.2fx [%.2f..%.2f] (target >= 1.8x on two cores): %s\n", ss.med,
           ss.min, ss.max, met ? "met" : "MISSED");
    bench_load_warning(stdout);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "mode", mode);
    cJSON_AddNumberToObject(root, "fmus", count);
    cJSON *srcs = cJSON_AddArrayToObject(root, "sources");
    for (size_t i = 0; i < nsrc; i++)
        cJSON_AddItemToArray(srcs, cJSON_CreateString(strrchr(src[i], '/') + 1));
    cJSON_AddItemToObject(root, "jobs1_wall_s", bench_stat_json(s1, "s"));
    cJSON_AddItemToObject(root, "jobs2_wall_s", bench_stat_json(s2, "s"));
    cJSON_AddItemToObject(root, "jobs1_cpu_s", bench_stat_json(c1, "s"));
    cJSON_AddItemToObject(root, "jobs2_cpu_s", bench_stat_json(c2, "s"));
    cJSON_AddItemToObject(root, "speedup", bench_stat_json(ss, "x"));
    cJSON *g = cJSON_AddObjectToObject(root, "target");
    cJSON_AddNumberToObject(g, "speedup_at_least", 1.8);
    cJSON_AddBoolToObject(g, "met", met);
    cJSON_AddItemToObject(root, "host", bench_host_json());
    bench_json_write(root, json);
    for (size_t i = 0; i < nsrc; i++)
        free(src[i]);
    for (int i = 0; i < count && files; i++)
        free(files[i]);
    free(files);
    free(list);
    return bad_exit;
}
