/* Isolation cost: what a worker process costs. Per worker start (fmuc_worker_run with an empty
 * fn), per worker with an FMU load (fmuc_worker_load + fmi2Instantiate + fmi2FreeInstance of
 * vdsim_l2's CS library), and per check through the runner with and without FMU work (on the
 * opened vdsim_l2.fmu: an XML-only check, and checks that run workers), with the time inside
 * FMU calls and dlopen beside it. Median with min/max over --runs rounds (5) of --batch (20)
 * workers or checks each.
 *   bench_isolation [--runs N] [--batch N] [--fmu PATH] [--json FILE] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench_util.h"
#include "check.h"
#include "fmuc/fmuc_fmu.h"
#include "fmuc/fmuc_options.h"
#include "fmuc/fmuc_worker.h"
#include "runner.h"

#define MAXRUNS 15

/* CPU time of this process and its reaped children (the workers), seconds */
static double cpu_all_s(void)
{
    struct rusage a, b;
    getrusage(RUSAGE_SELF, &a);
    getrusage(RUSAGE_CHILDREN, &b);
    return (double)(a.ru_utime.tv_sec + a.ru_stime.tv_sec + b.ru_utime.tv_sec +
                    b.ru_stime.tv_sec) +
           1e-6 * (double)(a.ru_utime.tv_usec + a.ru_stime.tv_usec + b.ru_utime.tv_usec +
                           b.ru_stime.tv_usec);
}

static int empty_fn(fmuc_worker_ctx *ctx, void *payload)
{
    (void)ctx;
    (void)payload;
    return 0;
}

static int load_fn(fmuc_worker_ctx *ctx, void *payload)
{
    (void)payload;
    const fmuc_fmi *f = fmuc_worker_load(ctx, fmi2CoSimulation);
    if (!f)
        return 1;
    fmi2Component c = fmuc_fmi_instantiate(f, fmi2CoSimulation, NULL, "bench");
    if (!c)
        return 2;
    fmuc_fmi_freeInstance(f, c);
    return 0;
}

typedef struct per {
    double wall, fmi, lib, cpu; /* per item, seconds */
    int ok;
} per;

static per workers(const fmuc_fmu *fmu, const fmuc_options *opts, fmuc_worker_fn fn, int batch)
{
    per p = {0, 0, 0, 0, 1};
    fmuc_worker_spec spec;
    fmuc_worker_spec_init(&spec, fmu, opts);
    spec.label = "bench";
    double t0 = bench_now_s(), c0 = cpu_all_s();
    for (int i = 0; i < batch; i++) {
        fmuc_worker_outcome o;
        fmuc_diag d = {{0}, FMUC_OK};
        if (fmuc_worker_run(&spec, fn, NULL, &o, &d) < 0 || o.end != FMUC_WORKER_OK ||
            o.fn_status != 0)
            p.ok = 0;
        p.fmi += o.fmi_time_s;
        p.lib += o.lib_time_s;
        fmuc_worker_outcome_free(&o);
    }
    p.wall = (bench_now_s() - t0) / batch;
    p.cpu = (cpu_all_s() - c0) / batch;
    p.fmi /= batch;
    p.lib /= batch;
    return p;
}

static per one_check(const fmuc_fmu *fmu, const fmuc_options *opts, const char *id, int batch,
                     int *nworkers)
{
    per p = {0, 0, 0, 0, 1};
    const char *only[1] = {id};
    fmuc_run_filter filter = {only, 1, NULL, 0};
    double t0 = bench_now_s(), c0 = cpu_all_s();
    for (int i = 0; i < batch; i++) {
        fmuc_report rep;
        memset(&rep, 0, sizeof rep);
        if (fmuc_run_checks(&rep, fmu, FMUC_OK, opts, &filter, NULL) < 0 || rep.nresults != 1 ||
            rep.results[0].verdict != FMUC_VERDICT_PASS) {
            p.ok = 0;
        } else {
            const cJSON *w = cJSON_GetObjectItemCaseSensitive(rep.results[0].evidence, "worker");
            p.fmi += cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(w, "fmi_time_total_s"));
            const cJSON *nw = cJSON_GetObjectItemCaseSensitive(w, "workers");
            *nworkers = cJSON_IsNumber(nw) ? nw->valueint : 0;
        }
        fmuc_report_free(&rep);
    }
    if (p.fmi != p.fmi) /* NaN: no worker evidence */
        p.fmi = 0;
    p.wall = (bench_now_s() - t0) / batch;
    p.cpu = (cpu_all_s() - c0) / batch;
    p.fmi /= batch;
    return p;
}

typedef struct row {
    const char *name, *check; /* check NULL: worker rows */
    fmuc_worker_fn fn;
    double wall[MAXRUNS], fmi[MAXRUNS], lib[MAXRUNS], cpu[MAXRUNS];
    int nworkers, ok;
} row;

int main(int argc, char **argv)
{
    long kr = strtol(bench_arg(argc, argv, "--runs", "5"), NULL, 10);
    long kb = strtol(bench_arg(argc, argv, "--batch", "20"), NULL, 10);
    const char *path = bench_arg(argc, argv, "--fmu", FMUC_BUILD_DIR "/fmus/vdsim_l2.fmu");
    int runs = kr >= 3 && kr <= MAXRUNS ? (int)kr : 5;
    int batch = kb >= 1 && kb <= 1000 ? (int)kb : 20;
    const char *json = bench_json_arg(argc, argv);
    fmuc_fmu fmu;
    fmuc_diag d = {{0}, FMUC_OK};
    if (fmuc_fmu_open(&fmu, path, NULL, NULL, &d) < 0 || !fmu.lib_path_cs) {
        fprintf(stderr, "bench_isolation: cannot open %s: %s\n", path, d.msg);
        fmuc_fmu_close(&fmu);
        return 1;
    }
    fmuc_options opts;
    fmuc_options_init(&opts);
    /* as the CLI does: one network namespace for the process, inherited by every worker */
    fmuc_sandbox_isolate_network(&opts.sandbox);
    fmuc_sandbox_config_resolve(&opts.sandbox);
    row rows[] = {
        {"worker start (empty fn)", NULL, empty_fn, {0}, {0}, {0}, {0}, 1, 1},
        {"worker + load + instantiate + free", NULL, load_fn, {0}, {0}, {0}, {0}, 1, 1},
        {"check md-var-names (no FMU work)", "md-var-names", NULL, {0}, {0}, {0}, {0}, 0, 1},
        {"check load-version (FMU work)", "load-version", NULL, {0}, {0}, {0}, {0}, 0, 1},
        {"check api-instantiate (FMU work)", "api-instantiate", NULL, {0}, {0}, {0}, {0}, 0, 1},
    };
    size_t nrows = sizeof rows / sizeof rows[0];
    for (size_t k = 0; k < nrows; k++)
        if (rows[k].check && !fmuc_check_find(rows[k].check))
            rows[k].ok = -1; /* not in this build */
    for (int r = 0; r < runs; r++)
        for (size_t k = 0; k < nrows; k++) {
            row *w = &rows[k];
            if (w->ok < 0)
                continue;
            per p = w->check ? one_check(&fmu, &opts, w->check, batch, &w->nworkers)
                             : workers(&fmu, &opts, w->fn, batch);
            w->ok &= p.ok;
            w->wall[r] = p.wall * 1e3;
            w->fmi[r] = p.fmi * 1e3;
            w->lib[r] = p.lib * 1e3;
            w->cpu[r] = p.cpu * 1e3;
        }
    fmuc_fmu_close(&fmu);

    cJSON *root = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "rows");
    cJSON_AddNumberToObject(root, "batch", batch);
    int all_ok = 1;
    printf("Isolation cost on %s: per item, ms, median [min..max] of %d rounds of %d\n",
           strrchr(path, '/') ? strrchr(path, '/') + 1 : path, runs, batch);
    printf("%-38s %7s %24s %8s %10s %10s %11s\n", "what", "workers", "wall ms", "cpu ms",
           "in FMU ms", "dlopen ms", "harness ms");
    for (size_t k = 0; k < nrows; k++) {
        row *w = &rows[k];
        if (w->ok < 0) {
            printf("%-38s (check not in this build)\n", w->name);
            continue;
        }
        if (!w->ok) {
            all_ok = 0;
            printf("%-38s ERROR: a worker or the check did not end well\n", w->name);
        }
        bench_stat sw = bench_stats(w->wall, runs), sf = bench_stats(w->fmi, runs),
                   sl = bench_stats(w->lib, runs), sc = bench_stats(w->cpu, runs);
        char a[64], l[32] = "-";
        snprintf(a, sizeof a, "%.2f [%.2f..%.2f]", sw.med, sw.min, sw.max);
        if (!w->check)
            snprintf(l, sizeof l, "%.3f", sl.med);
        printf("%-38s %7d %24s %8.2f %10.3f %10s %11.2f\n", w->name, w->nworkers, a, sc.med,
               sf.med, l, sw.med - sf.med - (w->check ? 0 : sl.med));
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "what", w->name);
        cJSON_AddNumberToObject(o, "workers", w->nworkers);
        cJSON_AddItemToObject(o, "wall_ms", bench_stat_json(sw, "ms"));
        cJSON_AddItemToObject(o, "cpu_ms", bench_stat_json(sc, "ms"));
        cJSON_AddItemToObject(o, "fmu_time_ms", bench_stat_json(sf, "ms"));
        if (!w->check)
            cJSON_AddItemToObject(o, "dlopen_ms", bench_stat_json(sl, "ms"));
        cJSON_AddItemToArray(arr, o);
    }
    printf("(cpu = this process + its workers; harness = wall - in FMU - dlopen: fork, pipes, "
           "shared trace region, reply, reap)\n");
    bench_load_warning(stdout);
    cJSON_AddItemToObject(root, "host", bench_host_json());
    bench_json_write(root, json);
    return all_ok ? 0 : 1;
}
