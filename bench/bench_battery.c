/* Battery cost (issue 7): the full fmucheck battery on vdsim_l2.fmu, vdsim_l3.fmu and every good
 * reference FMU. Per FMU: total wall time of the fmucheck process (and its CPU time, children
 * included), the time spent inside FMU calls (the floor: the sum over checks of the workers'
 * fmi_time_total_s evidence, measured around every traced fmi2* call) and the overhead ratio
 * total / FMU time (target for vdsim_l2: <= 2), on wall and on CPU time. Per check: wall time
 * and FMU time. Median with min/max over --runs runs (3).
 *   bench_battery [--runs N] [--fmucheck PATH] [--json FILE] [FMU ...] */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"
#include "fmuc/fmuc_fmu.h"

#define MAXRUNS 9
#define MAXCHECKS 512
#define MAXFMUS 32

typedef struct chk {
    char id[64];
    double wall[MAXRUNS], fmi[MAXRUNS];
    int workers;
    char verdict[24];
} chk;

typedef struct fmu_res {
    char path[1024], name[256];
    double wall[MAXRUNS], cpu[MAXRUNS], fmi[MAXRUNS], inner[MAXRUNS], ratio[MAXRUNS],
        cpu_ratio[MAXRUNS];
    int exit_code;
    char verdict[24];
    size_t nchecks;
    chk *checks;
} fmu_res;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *p = NULL;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        p = malloc((size_t)n + 1);
        if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
            free(p);
            p = NULL;
        } else if (p) {
            p[n] = '\0';
        }
    }
    fclose(f);
    return p;
}

static double num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : 0.0;
}

/* Run fmucheck once; returns the exit code (-1: could not run) and wall/CPU seconds. */
static int run_fmucheck(const char *exe, const char *fmu, const char *outdir, double *wall,
                        double *cpu)
{
    double t0 = bench_now_s();
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int quiet = open("/dev/null", O_WRONLY); /* its verdict line: not the figures */
        if (quiet >= 0) {
            dup2(quiet, 1);
            close(quiet);
        }
        execl(exe, exe, "-q", "--no-html", "-o", outdir, fmu, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    struct rusage ru;
    while (wait4(pid, &st, 0, &ru) < 0)
        if (errno != EINTR)
            return -1;
    *wall = bench_now_s() - t0;
    *cpu = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
           (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* Read one run's report.json into fr (run index r). Returns 0 on success. */
static int read_report(const char *path, fmu_res *fr, int r)
{
    char *txt = slurp(path);
    cJSON *root = txt ? cJSON_Parse(txt) : NULL;
    free(txt);
    if (!root)
        return -1;
    const cJSON *checks = cJSON_GetObjectItemCaseSensitive(root, "checks"), *c;
    const cJSON *sum = cJSON_GetObjectItemCaseSensitive(root, "summary");
    const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(sum, "verdict"));
    snprintf(fr->verdict, sizeof fr->verdict, "%s", v ? v : "?");
    fr->inner[r] = num(sum, "durationSeconds");
    if (!fr->checks) {
        fr->checks = calloc(MAXCHECKS, sizeof *fr->checks);
        if (!fr->checks) {
            cJSON_Delete(root);
            return -1;
        }
    }
    size_t i = 0;
    double fmi = 0;
    cJSON_ArrayForEach(c, checks)
    {
        if (i >= MAXCHECKS)
            break;
        chk *k = &fr->checks[i++];
        const char *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "id"));
        const char *vd = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "verdict"));
        snprintf(k->id, sizeof k->id, "%s", id ? id : "?");
        snprintf(k->verdict, sizeof k->verdict, "%s", vd ? vd : "?");
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(c, "evidence"), "worker");
        k->wall[r] = num(c, "durationSeconds");
        /* older reports: only the last worker's fmi_time_s */
        k->fmi[r] = cJSON_GetObjectItemCaseSensitive(w, "fmi_time_total_s")
                        ? num(w, "fmi_time_total_s")
                        : num(w, "fmi_time_s");
        k->workers = (int)num(w, "workers");
        fmi += k->fmi[r];
    }
    fr->nchecks = i;
    fr->fmi[r] = fmi;
    cJSON_Delete(root);
    return 0;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static size_t default_fmus(char **list, size_t max)
{
    size_t n = 0;
    char p[1024];
    const char *own[] = {"vdsim_l2.fmu", "vdsim_l3.fmu"};
    for (size_t i = 0; i < 2 && n < max; i++) {
        snprintf(p, sizeof p, "%s/fmus/%s", FMUC_BUILD_DIR, own[i]);
        if (access(p, R_OK) == 0)
            list[n++] = strdup(p);
    }
    size_t first_good = n;
    DIR *d = opendir(FMUC_BUILD_DIR "/fmus/good");
    struct dirent *e;
    while (d && (e = readdir(d)) && n < max) {
        size_t l = strlen(e->d_name);
        if (l > 4 && strcmp(e->d_name + l - 4, ".fmu") == 0) {
            snprintf(p, sizeof p, "%s/fmus/good/%s", FMUC_BUILD_DIR, e->d_name);
            list[n++] = strdup(p);
        }
    }
    if (d)
        closedir(d);
    qsort(list + first_good, n - first_good, sizeof *list, cmp_name);
    return n;
}

int main(int argc, char **argv)
{
    const char *exe = bench_arg(argc, argv, "--fmucheck", FMUC_BUILD_DIR "/fmucheck");
    long kr = strtol(bench_arg(argc, argv, "--runs", "3"), NULL, 10);
    int runs = kr >= 1 && kr <= MAXRUNS ? (int)kr : 3;
    const char *json = bench_json_arg(argc, argv);
    char *fmus[MAXFMUS];
    size_t nfmus = 0;
    for (int i = 1; i < argc && nfmus < MAXFMUS; i++) {
        if (argv[i][0] == '-' && argv[i][1] == '-') {
            i++; /* every option takes a value */
            continue;
        }
        fmus[nfmus++] = strdup(argv[i]);
    }
    if (nfmus == 0)
        nfmus = default_fmus(fmus, MAXFMUS);
    if (nfmus == 0) {
        fprintf(stderr, "bench_battery: no FMUs (build fmu_vdsim_l2 and the good FMUs)\n");
        return 1;
    }
    char tmpl[] = "/tmp/fmuc-bench-battery-XXXXXX";
    char *tmp = mkdtemp(tmpl);
    if (!tmp) {
        perror("mkdtemp");
        return 1;
    }
    fmu_res *res = calloc(nfmus, sizeof *res);
    int all_ok = 1;
    for (size_t f = 0; f < nfmus && res; f++) {
        fmu_res *fr = &res[f];
        const char *b = strrchr(fmus[f], '/');
        snprintf(fr->path, sizeof fr->path, "%s", fmus[f]);
        snprintf(fr->name, sizeof fr->name, "%s", b ? b + 1 : fmus[f]);
        fprintf(stderr, "battery: %s x%d ...\n", fr->name, runs);
        for (int r = 0; r < runs; r++) {
            char out[1200], rep[1300];
            snprintf(out, sizeof out, "%s/%zu-%d", tmp, f, r);
            snprintf(rep, sizeof rep, "%s/report.json", out);
            fr->exit_code = run_fmucheck(exe, fmus[f], out, &fr->wall[r], &fr->cpu[r]);
            /* exit 1/2 (a check failed / ended in error) still times the battery: report it */
            if (fr->exit_code < 0 || fr->exit_code > 2 || read_report(rep, fr, r) != 0) {
                fprintf(stderr, "  run %d: fmucheck exit %d%s\n", r, fr->exit_code,
                        access(rep, R_OK) == 0 ? "" : ", no report.json");
                all_ok = 0;
            } else if (fr->exit_code != 0 && r == 0) {
                fprintf(stderr, "  note: fmucheck exit %d (verdict %s) on %s\n", fr->exit_code,
                        fr->verdict, fr->name);
            }
            fr->ratio[r] = fr->fmi[r] > 0 ? fr->wall[r] / fr->fmi[r] : 0;
            fr->cpu_ratio[r] = fr->fmi[r] > 0 ? fr->cpu[r] / fr->fmi[r] : 0;
        }
    }
    fmuc_rmtree(tmp);

    cJSON *root = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "fmus");
    cJSON_AddStringToObject(root, "what",
                            "fmucheck -q --no-html on each FMU; fmu_time = sum of the checks' "
                            "worker fmi_time_total_s (wall time inside traced fmi2* calls)");
    printf("Battery cost: fmucheck -q --no-html, %d runs; median [min..max]\n", runs);
    printf("%-22s %-7s %6s %24s %8s %22s %8s %7s  %s\n", "FMU", "verdict", "checks",
           "total wall s", "cpu s", "inside FMU calls s", "ratio", "runner", "target");
    for (size_t f = 0; f < nfmus && res; f++) {
        fmu_res *fr = &res[f];
        bench_stat sw = bench_stats(fr->wall, runs), sc = bench_stats(fr->cpu, runs),
                   sf = bench_stats(fr->fmi, runs), sr = bench_stats(fr->ratio, runs),
                   si = bench_stats(fr->inner, runs), scr = bench_stats(fr->cpu_ratio, runs);
        int is_l2 = strcmp(fr->name, "vdsim_l2.fmu") == 0;
        char a[64], c[64], tgt[96] = "-";
        snprintf(a, sizeof a, "%.2f [%.2f..%.2f]", sw.med, sw.min, sw.max);
        snprintf(c, sizeof c, "%.2f [%.2f..%.2f]", sf.med, sf.min, sf.max);
        if (is_l2)
            snprintf(tgt, sizeof tgt, "ratio <= 2: %s (on CPU time: %.2f, %s)",
                     sr.med <= 2 ? "met" : "MISSED", scr.med, scr.med <= 2 ? "met" : "MISSED");
        printf("%-22s %-7s %6zu %24s %8.2f %22s %8.2f %7.2f  %s\n", fr->name, fr->verdict,
               fr->nchecks, a, sc.med, c, sr.med, si.med, tgt);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "fmu", fr->name);
        cJSON_AddStringToObject(o, "verdict", fr->verdict);
        cJSON_AddNumberToObject(o, "checks", (double)fr->nchecks);
        cJSON_AddItemToObject(o, "wall_s", bench_stat_json(sw, "s"));
        cJSON_AddItemToObject(o, "cpu_s", bench_stat_json(sc, "s"));
        cJSON_AddItemToObject(o, "runner_s", bench_stat_json(si, "s"));
        cJSON_AddItemToObject(o, "fmu_time_s", bench_stat_json(sf, "s"));
        cJSON_AddItemToObject(o, "overhead_ratio", bench_stat_json(sr, NULL));
        cJSON_AddItemToObject(o, "cpu_overhead_ratio", bench_stat_json(scr, NULL));
        if (is_l2) {
            cJSON *g = cJSON_AddObjectToObject(o, "target");
            cJSON_AddNumberToObject(g, "overhead_ratio_at_most", 2);
            cJSON_AddBoolToObject(g, "met", sr.med <= 2);
        }
        cJSON *ca = cJSON_AddArrayToObject(o, "per_check");
        double small = 0;
        int nsmall = 0;
        for (size_t k = 0; k < fr->nchecks; k++) {
            chk *ck = &fr->checks[k];
            bench_stat kw = bench_stats(ck->wall, runs), kf = bench_stats(ck->fmi, runs);
            cJSON *x = cJSON_CreateObject();
            cJSON_AddStringToObject(x, "id", ck->id);
            cJSON_AddStringToObject(x, "verdict", ck->verdict);
            cJSON_AddItemToObject(x, "wall_s", bench_stat_json(kw, "s"));
            cJSON_AddItemToObject(x, "fmu_time_s", bench_stat_json(kf, "s"));
            cJSON_AddNumberToObject(x, "workers", ck->workers);
            cJSON_AddItemToArray(ca, x);
            if (kw.med < 0.05) {
                small += kw.med;
                nsmall++;
                continue;
            }
            printf("    %-34s %8.3f [%.3f..%.3f] s  in FMU %7.3f s  ratio %6.1f\n", ck->id,
                   kw.med, kw.min, kw.max, kf.med, kf.med > 0 ? kw.med / kf.med : 0.0);
        }
        printf("    %d other checks under 50 ms each: %.3f s together\n", nsmall, small);
        cJSON_AddItemToArray(arr, o);
        free(fr->checks);
    }
    printf("(ratio = total wall / time inside FMU calls; CPU time = the process and its workers, "
           "which exceeds wall time where eq-native-roundtrip runs the native core beside the FMU "
           "on a second CPU; runner = the runner's own total from report.json)\n");
    bench_load_warning(stdout);
    cJSON_AddItemToObject(root, "host", bench_host_json());
    for (size_t f = 0; f < nfmus; f++)
        free(fmus[f]);
    free(res);
    bench_json_write(root, json);
    return all_ok ? 0 : 1;
}
