/* Small helpers shared by the bench_*.c programs (header-only; each bench is one executable):
 * monotonic time, median/min/max of repeated runs, and the JSON result file every bench writes
 * when given --json FILE (bench/run.sh merges them into bench/results.json). */
#ifndef FMUC_BENCH_UTIL_H
#define FMUC_BENCH_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

static inline double bench_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/** CPU time of this process (user + system), seconds. */
static inline double bench_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int bench_cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/** Median, min and max of n samples (n >= 1); the samples are not modified. */
typedef struct bench_stat {
    double med, min, max;
    int n;
} bench_stat;

static inline bench_stat bench_stats(const double *v, int n)
{
    bench_stat s = {0, 0, 0, n};
    double *c;
    if (n <= 0)
        return s;
    c = malloc((size_t)n * sizeof *c);
    if (!c)
        return s;
    memcpy(c, v, (size_t)n * sizeof *c);
    qsort(c, (size_t)n, sizeof *c, bench_cmp_d);
    s.med = n % 2 ? c[n / 2] : 0.5 * (c[n / 2 - 1] + c[n / 2]);
    s.min = c[0];
    s.max = c[n - 1];
    free(c);
    return s;
}

/** {"median":m,"min":a,"max":b,"runs":n[,"unit":u]} */
static inline cJSON *bench_stat_json(bench_stat s, const char *unit)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "median", s.med);
    cJSON_AddNumberToObject(o, "min", s.min);
    cJSON_AddNumberToObject(o, "max", s.max);
    cJSON_AddNumberToObject(o, "runs", s.n);
    if (unit)
        cJSON_AddStringToObject(o, "unit", unit);
    return o;
}

/** The value of "--json FILE" in argv, or NULL. */
static inline const char *bench_json_arg(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--json") == 0)
            return argv[i + 1];
    return NULL;
}

/** The value of "--NAME VALUE" in argv, or def. */
static inline const char *bench_arg(int argc, char **argv, const char *name, const char *def)
{
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return argv[i + 1];
    return def;
}

/** Write (and free) root to path; NULL path frees only. Returns 0 on success. */
static inline int bench_json_write(cJSON *root, const char *path)
{
    int rc = 0;
    if (path) {
        char *txt = cJSON_Print(root);
        FILE *f = fopen(path, "w");
        if (!txt || !f || fputs(txt, f) < 0 || fputc('\n', f) < 0)
            rc = -1;
        if (f && fclose(f) != 0)
            rc = -1;
        free(txt);
        if (rc)
            fprintf(stderr, "cannot write %s\n", path);
    }
    cJSON_Delete(root);
    return rc;
}

/** A warning line when the 1-minute load average exceeds the online CPUs (wall times are then
 *  inflated by other work on the machine); empty otherwise. */
static inline void bench_load_warning(FILE *out)
{
    double l1 = 0;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f)
        return;
    if (fscanf(f, "%lf", &l1) == 1 && ncpu > 0 && l1 > (double)ncpu)
        fprintf(out, "WARNING: load average %.1f on %ld CPUs while measuring: wall times are "
                     "inflated by other work (CPU times are printed beside them)\n",
                l1, ncpu);
    fclose(f);
}

/** Host description for the results: CPU model and online CPUs. */
static inline cJSON *bench_host_json(void)
{
    cJSON *o = cJSON_CreateObject();
    char line[512], model[256] = "unknown";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "model name", 10) == 0) {
                char *c = strchr(line, ':');
                if (c) {
                    c += c[1] == ' ' ? 2 : 1;
                    c[strcspn(c, "\n")] = '\0';
                    snprintf(model, sizeof model, "%s", c);
                }
                break;
            }
        fclose(f);
    }
    cJSON_AddStringToObject(o, "cpu", model);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    cJSON_AddNumberToObject(o, "online_cpus", (double)ncpu);
    /* other work on the machine inflates wall times: record the load when measured */
    f = fopen("/proc/loadavg", "r");
    if (f) {
        double l1 = 0;
        if (fscanf(f, "%lf", &l1) == 1)
            cJSON_AddNumberToObject(o, "loadavg_1min", l1);
        fclose(f);
    }
    return o;
}

#endif
