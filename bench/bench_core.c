/* bench_core: VDSim native core throughput. For L2 and L3 at dt = 1 ms and 10 ms prints macro
 * steps per second (median of 5 runs, with min and max), the RK4 substep count per macro step
 * and the cost of one RK4 stage (one evaluation of f(x, u)) in ns. Wall-clock figures, plus
 * the same from the loop's CPU time (robust when other work shares the machine).
 *   bench_core [CONFIG_DIR] [--json FILE] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "vd/vd.h"

#define RUNS 5

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double thread_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One run: sim_time seconds of a sine-steer manoeuvre; returns wall seconds (*cpu: CPU s). */
static double run(vd_model *m, double dt, double sim_time, double *sink, double *cpu)
{
    long n = lround(sim_time / dt);
    vd_init(m);
    double c0 = thread_cpu_s();
    double t0 = now_s();
    for (long k = 0; k < n; k++) {
        double t = (double)k * dt;
        vd_cmd u = {0.04 * sin(2.0 * 3.14159265358979 * 0.5 * t), 0.1, 0.0};
        vd_step(m, dt, &u);
    }
    double el = now_s() - t0;
    *cpu = thread_cpu_s() - c0;
    vd_out y;
    vd_outputs(m, &y);
    *sink += y.x;
    return el;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 && strcmp(argv[1], "--json") != 0 ? argv[1]
                                                                  : FMUC_SOURCE_DIR "/core/configs";
    const char *json = bench_json_arg(argc, argv);
    cJSON *root = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "runs");
    char veh[4096], tire[4096];
    snprintf(veh, sizeof veh, "%s/vehicle.json", dir);
    snprintf(tire, sizeof tire, "%s/tire.json", dir);
    vd_params *p = NULL;
    vd_error err = {{0}};
    if (vd_params_load(&p, veh, tire, &err) != VD_OK) {
        fprintf(stderr, "bench_core: %s\n", err.msg);
        return 1;
    }
    const vd_level levels[2] = {VD_L2, VD_L3};
    const double dts[2] = {0.001, 0.01};
    double sink = 0;
    double h_max;
    vd_param_get(p, "h_max", &h_max);
    printf("VDSim core benchmark (h_max = %g s, sine steer; median of %d runs)\n", h_max, RUNS);
    printf("%-5s %-7s %-8s %14s %14s %14s %12s %16s %12s\n", "level", "dt [s]", "substeps",
           "steps/s med", "steps/s min", "steps/s max", "ns/stage", "cpu steps/s med",
           "cpu ns/stage");
    for (int li = 0; li < 2; li++) {
        vd_model *m = NULL;
        if (vd_create(&m, levels[li], p, &err) != VD_OK) {
            fprintf(stderr, "bench_core: %s\n", err.msg);
            vd_params_free(p);
            return 1;
        }
        for (int di = 0; di < 2; di++) {
            double dt = dts[di];
            int sub = vd_substeps(m, dt);
            double sim_time = 20.0;
            long steps = lround(sim_time / dt);
            double rate[RUNS], stage[RUNS], crate[RUNS], cstage[RUNS], cpu;
            run(m, dt, 1.0, &sink, &cpu); /* warm-up */
            for (int r = 0; r < RUNS; r++) {
                double el = run(m, dt, sim_time, &sink, &cpu);
                rate[r] = (double)steps / el;
                stage[r] = 1e9 * el / ((double)steps * sub * 4.0);
                crate[r] = (double)steps / cpu;
                cstage[r] = 1e9 * cpu / ((double)steps * sub * 4.0);
            }
            bench_stat sr = bench_stats(rate, RUNS), sc = bench_stats(crate, RUNS),
                       ss = bench_stats(stage, RUNS), scs = bench_stats(cstage, RUNS);
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "level", levels[li] == VD_L2 ? "L2" : "L3");
            cJSON_AddNumberToObject(o, "dt_s", dt);
            cJSON_AddNumberToObject(o, "substeps", sub);
            cJSON_AddItemToObject(o, "steps_per_s", bench_stat_json(sr, "steps/s (wall)"));
            cJSON_AddItemToObject(o, "cpu_steps_per_s", bench_stat_json(sc, "steps/s (cpu)"));
            cJSON_AddItemToObject(o, "ns_per_stage", bench_stat_json(ss, "ns (wall)"));
            cJSON_AddItemToObject(o, "cpu_ns_per_stage", bench_stat_json(scs, "ns (cpu)"));
            cJSON_AddItemToArray(arr, o);
            qsort(rate, RUNS, sizeof rate[0], cmp_d);
            qsort(stage, RUNS, sizeof stage[0], cmp_d);
            printf("%-5s %-7g %-8d %14.0f %14.0f %14.0f %12.1f %16.0f %12.1f\n",
                   levels[li] == VD_L2 ? "L2" : "L3", dt, sub, rate[RUNS / 2], rate[0],
                   rate[RUNS - 1], stage[RUNS / 2], sc.med, scs.med);
        }
        vd_destroy(m);
    }
    vd_params_free(p);
    bench_load_warning(stdout);
    cJSON_AddNumberToObject(root, "h_max_s", h_max);
    cJSON_AddItemToObject(root, "host", bench_host_json());
    bench_json_write(root, json);
    return sink == 12345.678 ? 2 : 0; /* keep the work observable */
}
