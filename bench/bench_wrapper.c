/* Wrapper overhead: VDSim native core steps per second vs the same steps through the FMU's
 * fmi2DoStep (our own vdsim_l2/l3 FMU, its .so dlopen'ed in this process; target: under 2 %
 * apart), and, for reference, through the harness's traced wrappers inside a worker
 * (fmuc_fmi_setReal + fmuc_fmi_doStep: what the checks pay per step). Every step sets the three
 * inputs (sine steer, throttle, brake) and advances dt = 1 ms. The three variants run
 * interleaved, --runs times (5); the overhead is the median of the per-round ratios. Figures are
 * CPU time of the loop (robust against other work on the machine) with wall time beside. The
 * native model is built from the FMU's own extracted resources, so both sides compute the same
 * trajectory (checked: the final x must agree bit for bit).
 *   bench_wrapper [--runs N] [--steps N] [--json FILE] */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "fmi2/fmi2.h"
#include "fmuc/fmuc_fmu.h"
#include "fmuc/fmuc_options.h"
#include "fmuc/fmuc_worker.h"
#include "vd/vd.h"

#define MAXRUNS 15
#define DT 0.001

static double thread_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void input_at(double t, double u[3])
{
    u[0] = 0.04 * sin(2.0 * 3.14159265358979 * 0.5 * t);
    u[1] = 0.1;
    u[2] = 0.0;
}

typedef struct timing {
    double wall, cpu;
    double sink;
    int ok;
} timing;

static timing run_native(vd_model *m, long n)
{
    timing r = {0, 0, 0, 1};
    vd_init(m);
    double w0 = bench_now_s(), c0 = thread_cpu_s();
    for (long k = 0; k < n; k++) {
        double u[3];
        input_at((double)k * DT, u);
        vd_cmd cmd = {u[0], u[1], u[2]};
        vd_step(m, DT, &cmd);
    }
    r.cpu = thread_cpu_s() - c0;
    r.wall = bench_now_s() - w0;
    vd_out y;
    vd_outputs(m, &y);
    r.sink = y.x;
    return r;
}

/* --- direct: the FMU's library in this process -------------------------------------------- */

typedef struct api {
    void *h;
    fmi2InstantiateTYPE instantiate;
    fmi2SetupExperimentTYPE setup;
    fmi2EnterInitializationModeTYPE enter;
    fmi2ExitInitializationModeTYPE exit_init;
    fmi2SetRealTYPE set_real;
    fmi2GetRealTYPE get_real;
    fmi2DoStepTYPE do_step;
    fmi2TerminateTYPE terminate;
    fmi2FreeInstanceTYPE free_instance;
} api;

static void *sym(void *h, const char *name)
{
    void *p = dlsym(h, name);
    if (!p)
        fprintf(stderr, "bench_wrapper: %s missing\n", name);
    return p;
}

static int api_load(api *a, const char *lib)
{
    memset(a, 0, sizeof *a);
    a->h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!a->h) {
        fprintf(stderr, "bench_wrapper: dlopen %s: %s\n", lib, dlerror());
        return -1;
    }
    void *p;
#define LOAD_(field, name)                                                                   \
    if (!(p = sym(a->h, name)))                                                              \
        return -1;                                                                           \
    memcpy(&a->field, &p, sizeof p);
    LOAD_(instantiate, "fmi2Instantiate")
    LOAD_(setup, "fmi2SetupExperiment")
    LOAD_(enter, "fmi2EnterInitializationMode")
    LOAD_(exit_init, "fmi2ExitInitializationMode")
    LOAD_(set_real, "fmi2SetReal")
    LOAD_(get_real, "fmi2GetReal")
    LOAD_(do_step, "fmi2DoStep")
    LOAD_(terminate, "fmi2Terminate")
    LOAD_(free_instance, "fmi2FreeInstance")
#undef LOAD_
    return 0;
}

static void quiet_logger(fmi2ComponentEnvironment env, fmi2String inst, fmi2Status st,
                         fmi2String cat, fmi2String msg, ...)
{
    (void)env;
    (void)inst;
    (void)st;
    (void)cat;
    (void)msg;
}

static void *alloc_mem(size_t n, size_t s)
{
    return calloc(n, s);
}

static const fmi2ValueReference IN_VR[3] = {1, 2, 3}, X_VR[1] = {10};

static timing run_direct(const api *a, const fmuc_fmu *fmu, long n)
{
    timing r = {0, 0, 0, 0};
    fmi2CallbackFunctions cb = {quiet_logger, alloc_mem, free, NULL, NULL};
    fmi2Component c = a->instantiate("bench", fmi2CoSimulation, fmu->md.guid, fmu->resource_uri,
                                     &cb, fmi2False, fmi2False);
    if (!c)
        return r;
    int ok = a->setup(c, fmi2False, 0, 0, fmi2False, 0) == fmi2OK &&
             a->enter(c) == fmi2OK && a->exit_init(c) == fmi2OK;
    double w0 = bench_now_s(), c0 = thread_cpu_s();
    for (long k = 0; k < n && ok; k++) {
        double t = (double)k * DT, u[3];
        input_at(t, u);
        ok = a->set_real(c, IN_VR, 3, u) == fmi2OK && a->do_step(c, t, DT, fmi2True) == fmi2OK;
    }
    r.cpu = thread_cpu_s() - c0;
    r.wall = bench_now_s() - w0;
    a->get_real(c, X_VR, 1, &r.sink);
    a->terminate(c);
    a->free_instance(c);
    r.ok = ok;
    return r;
}

/* --- traced: the harness wrappers inside a worker ----------------------------------------- */

typedef struct traced_args {
    long n;
} traced_args;

static int traced_fn(fmuc_worker_ctx *ctx, void *payload)
{
    const traced_args *ta = payload;
    cJSON *rep = fmuc_worker_reply(ctx);
    const fmuc_fmi *f = fmuc_worker_load(ctx, fmi2CoSimulation);
    if (!f)
        return 1;
    fmi2Component c = fmuc_fmi_instantiate(f, fmi2CoSimulation, NULL, "bench");
    if (!c)
        return 2;
    int ok = fmuc_fmi_setupExperiment(f, c, 0, 0, 0, 0, 0) == fmi2OK &&
             fmuc_fmi_enterInitializationMode(f, c) == fmi2OK &&
             fmuc_fmi_exitInitializationMode(f, c) == fmi2OK;
    double w0 = bench_now_s(), c0 = thread_cpu_s();
    for (long k = 0; k < ta->n && ok; k++) {
        double t = (double)k * DT, u[3];
        input_at(t, u);
        ok = fmuc_fmi_setReal(f, c, IN_VR, 3, u) == fmi2OK &&
             fmuc_fmi_doStep(f, c, t, DT, 1) == fmi2OK;
    }
    double cpu = thread_cpu_s() - c0, wall = bench_now_s() - w0;
    cJSON_AddNumberToObject(rep, "cpu", cpu);
    cJSON_AddNumberToObject(rep, "wall", wall);
    cJSON_AddBoolToObject(rep, "ok", ok);
    fmuc_fmi_terminate(f, c);
    fmuc_fmi_freeInstance(f, c);
    return 0;
}

static timing run_traced(const fmuc_fmu *fmu, long n, double *fmi_s)
{
    timing r = {0, 0, 0, 0};
    fmuc_options opts;
    fmuc_options_init(&opts);
    fmuc_worker_spec spec;
    fmuc_worker_spec_init(&spec, fmu, &opts);
    spec.label = "bench-traced";
    fmuc_worker_outcome o;
    fmuc_diag d = {{0}, FMUC_OK};
    traced_args ta = {n};
    if (fmuc_worker_run(&spec, traced_fn, &ta, &o, &d) < 0) {
        fprintf(stderr, "bench_wrapper: worker: %s\n", d.msg);
        return r;
    }
    if (o.end == FMUC_WORKER_OK && o.fn_status == 0) {
        r.cpu = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o.reply, "cpu"));
        r.wall = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o.reply, "wall"));
        r.ok = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o.reply, "ok"));
        *fmi_s = o.fmi_time_s;
    } else {
        fprintf(stderr, "bench_wrapper: worker ended %s (fn %d)\n", fmuc_worker_end_name(o.end),
                o.fn_status);
    }
    fmuc_worker_outcome_free(&o);
    return r;
}

/* The native model gets exactly the FMU's parameters: its extracted resources (vehicle.json,
 * tire.json and, for L3, the kinematics tables), so both sides do the same work. */
static int native_params(const fmuc_fmu *fmu, vd_params **p, vd_error *err)
{
    char veh[4096], tire[4096], front[4096], rear[4096];
    snprintf(veh, sizeof veh, "%s/resources/vehicle.json", fmu->unpack_dir);
    snprintf(tire, sizeof tire, "%s/resources/tire.json", fmu->unpack_dir);
    snprintf(front, sizeof front, "%s/resources/kinematics/front.csv", fmu->unpack_dir);
    snprintf(rear, sizeof rear, "%s/resources/kinematics/rear.csv", fmu->unpack_dir);
    if (vd_params_load(p, veh, tire, err) != VD_OK)
        return -1;
    FILE *probe = fopen(front, "r");
    if (probe) {
        fclose(probe);
        if (vd_params_load_kinematics(*p, front, rear, err) != VD_OK)
            return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    long kr = strtol(bench_arg(argc, argv, "--runs", "5"), NULL, 10);
    long n = strtol(bench_arg(argc, argv, "--steps", "5000"), NULL, 10);
    int runs = kr >= 3 && kr <= MAXRUNS ? (int)kr : 5;
    if (n < 100)
        n = 5000;
    const char *json = bench_json_arg(argc, argv);
    vd_error err = {{0}};
    const char *fmus[2] = {FMUC_BUILD_DIR "/fmus/vdsim_l2.fmu", FMUC_BUILD_DIR "/fmus/vdsim_l3.fmu"};
    const vd_level levels[2] = {VD_L2, VD_L3};
    int all_ok = 1, all_met = 1;
    double sink = 0;
    cJSON *root = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "levels");
    cJSON_AddNumberToObject(root, "dt_s", DT);
    cJSON_AddNumberToObject(root, "steps_per_run", (double)n);
    cJSON_AddStringToObject(root, "what",
                            "steps/s from the loop's CPU time; each step sets 3 inputs and "
                            "advances dt; overhead = median over rounds of native/variant - 1");
    printf("Wrapper overhead: %ld steps of dt = %g s per run, %d interleaved rounds; steps/s from "
           "CPU time, median [min..max]\n",
           n, DT, runs);
    printf("%-5s %-30s %28s %12s %12s  %s\n", "level", "path", "steps/s (cpu)", "wall steps/s",
           "vs native", "target");
    for (int li = 0; li < 2; li++) {
        fmuc_fmu fmu;
        fmuc_diag d = {{0}, FMUC_OK};
        api a;
        vd_model *m = NULL;
        vd_params *p = NULL;
        if (fmuc_fmu_open(&fmu, fmus[li], NULL, NULL, &d) < 0 || !fmu.lib_path_cs ||
            api_load(&a, fmu.lib_path_cs) < 0 || native_params(&fmu, &p, &err) < 0 ||
            vd_create(&m, levels[li], p, &err) != VD_OK) {
            fprintf(stderr, "bench_wrapper: cannot prepare %s: %s %s\n", fmus[li], d.msg,
                    err.msg);
            vd_params_free(p);
            fmuc_fmu_close(&fmu);
            all_ok = 0;
            continue;
        }
        vd_params_free(p);
        double rn[MAXRUNS], rd[MAXRUNS], rt[MAXRUNS], wn[MAXRUNS], wd[MAXRUNS], wt[MAXRUNS];
        double od[MAXRUNS], ot[MAXRUNS], fmi_share[MAXRUNS];
        /* warm-up: caches, page faults, lazy binding */
        run_native(m, n / 10);
        run_direct(&a, &fmu, n / 10);
        for (int r = 0; r < runs; r++) {
            double fmi_s = 0;
            timing tn = run_native(m, n), td = run_direct(&a, &fmu, n),
                   tt = run_traced(&fmu, n, &fmi_s);
            if (!td.ok || !tt.ok || tn.cpu <= 0 || td.cpu <= 0 || tt.cpu <= 0) {
                all_ok = 0;
                rn[r] = rd[r] = rt[r] = wn[r] = wd[r] = wt[r] = od[r] = ot[r] = fmi_share[r] = 0;
                continue;
            }
            sink += tn.sink + td.sink;
            if (tn.sink != td.sink && r == 0) /* same work on both sides is the premise */
                fprintf(stderr, "bench_wrapper: native and FMU trajectories differ (x %.17g vs "
                                "%.17g)\n",
                        tn.sink, td.sink);
            rn[r] = (double)n / tn.cpu;
            rd[r] = (double)n / td.cpu;
            rt[r] = (double)n / tt.cpu;
            wn[r] = (double)n / tn.wall;
            wd[r] = (double)n / td.wall;
            wt[r] = (double)n / tt.wall;
            od[r] = 100.0 * (td.cpu / tn.cpu - 1.0);
            ot[r] = 100.0 * (tt.cpu / tn.cpu - 1.0);
            fmi_share[r] = tt.wall > 0 ? fmi_s / tt.wall : 0;
        }
        bench_stat sn = bench_stats(rn, runs), sd = bench_stats(rd, runs), st = bench_stats(rt, runs),
                   swn = bench_stats(wn, runs), swd = bench_stats(wd, runs),
                   swt = bench_stats(wt, runs), sod = bench_stats(od, runs),
                   sot = bench_stats(ot, runs), sfs = bench_stats(fmi_share, runs);
        const char *lv = levels[li] == VD_L2 ? "L2" : "L3";
        int met = fabs(sod.med) < 2.0;
        all_met &= met;
        char a1[64], a2[64], a3[64];
        snprintf(a1, sizeof a1, "%.0f [%.0f..%.0f]", sn.med, sn.min, sn.max);
        snprintf(a2, sizeof a2, "%.0f [%.0f..%.0f]", sd.med, sd.min, sd.max);
        snprintf(a3, sizeof a3, "%.0f [%.0f..%.0f]", st.med, st.min, st.max);
        printf("%-5s %-30s %28s %12.0f %12s  %s\n", lv, "native vd_step", a1, swn.med, "-", "-");
        printf("%-5s %-30s %28s %12.0f %+11.2f%%  < 2 %%: %s [%+.2f..%+.2f]\n", lv,
               "FMU fmi2DoStep (dlopen)", a2, swd.med, sod.med, met ? "met" : "MISSED", sod.min,
               sod.max);
        printf("%-5s %-30s %28s %12.0f %+11.2f%%  (harness cost per step; %.0f %% of the loop's "
               "wall time inside FMU calls)\n",
               lv, "traced wrappers in a worker", a3, swt.med, sot.med, 100.0 * sfs.med);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "level", lv);
        cJSON_AddItemToObject(o, "native_steps_per_s", bench_stat_json(sn, "steps/s (cpu)"));
        cJSON_AddItemToObject(o, "fmu_dostep_steps_per_s", bench_stat_json(sd, "steps/s (cpu)"));
        cJSON_AddItemToObject(o, "traced_worker_steps_per_s",
                              bench_stat_json(st, "steps/s (cpu)"));
        cJSON_AddItemToObject(o, "native_wall_steps_per_s", bench_stat_json(swn, "steps/s"));
        cJSON_AddItemToObject(o, "fmu_dostep_wall_steps_per_s", bench_stat_json(swd, "steps/s"));
        cJSON_AddItemToObject(o, "traced_worker_wall_steps_per_s",
                              bench_stat_json(swt, "steps/s"));
        cJSON_AddItemToObject(o, "fmu_dostep_overhead_pct", bench_stat_json(sod, "%"));
        cJSON_AddItemToObject(o, "traced_worker_overhead_pct", bench_stat_json(sot, "%"));
        cJSON_AddItemToObject(o, "traced_fmi_time_share", bench_stat_json(sfs, NULL));
        cJSON *g = cJSON_AddObjectToObject(o, "target");
        cJSON_AddNumberToObject(g, "fmu_dostep_overhead_pct_below", 2);
        cJSON_AddBoolToObject(g, "met", met);
        cJSON_AddItemToArray(arr, o);
        vd_destroy(m);
        dlclose(a.h);
        fmuc_fmu_close(&fmu);
    }
    bench_load_warning(stdout);
    cJSON_AddBoolToObject(root, "targets_met", all_met);
    cJSON_AddItemToObject(root, "host", bench_host_json());
    bench_json_write(root, json);
    return !all_ok ? 1 : sink == 12345.678 ? 2 : 0;
}
