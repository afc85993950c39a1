/* The worker's cumulative timers around traced calls (fmi_time_s, lib_time_s) and their report
 * evidence. Structural assertions only (what is counted, bounds, totals), never speed. */
#include <criterion/criterion.h>
#include <string.h>
#include <time.h>

#include "fmuc/fmuc_fmu.h"
#include "fmuc/fmuc_result.h"
#include "fmuc/fmuc_worker.h"

#define L2_FMU FMUC_FMU_DIR "/vdsim_l2.fmu"

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct steps_args {
    int nsteps;
} steps_args;

/* load, instantiate, nsteps DoSteps, free; reply "span": wall time from just before the first
 * FMI call to just after the last one (an upper bound for the time inside them) */
static int fn_steps(fmuc_worker_ctx *ctx, void *payload)
{
    const steps_args *a = payload;
    const fmuc_fmi *f = fmuc_worker_load(ctx, fmi2CoSimulation);
    if (!f)
        return 1;
    double t0 = mono_s();
    fmi2Component c = fmuc_fmi_instantiate(f, fmi2CoSimulation, NULL, "timing");
    if (!c)
        return 2;
    int ok = fmuc_fmi_setupExperiment(f, c, 0, 0, 0, 0, 0) == fmi2OK &&
             fmuc_fmi_enterInitializationMode(f, c) == fmi2OK &&
             fmuc_fmi_exitInitializationMode(f, c) == fmi2OK;
    for (int k = 0; k < a->nsteps && ok; k++)
        ok = fmuc_fmi_doStep(f, c, 0.001 * k, 0.001, 1) == fmi2OK;
    fmuc_fmi_freeInstance(f, c);
    cJSON_AddNumberToObject(fmuc_worker_reply(ctx), "span", mono_s() - t0);
    return ok ? 0 : 3;
}

static int fn_empty(fmuc_worker_ctx *ctx, void *payload)
{
    (void)ctx;
    (void)payload;
    return 0;
}

static void run_on_l2(fmuc_worker_fn fn, void *payload, fmuc_worker_outcome *o)
{
    fmuc_fmu fmu;
    fmuc_diag d = {{0}, FMUC_OK};
    cr_assert_geq(fmuc_fmu_open(&fmu, L2_FMU, NULL, NULL, &d), 0, "%s", d.msg);
    fmuc_worker_spec spec;
    fmuc_worker_spec_init(&spec, &fmu, NULL);
    spec.timeout_s = 30;
    cr_assert_eq(fmuc_worker_run(&spec, fn, payload, o, &d), FMUC_OK, "%s", d.msg);
    fmuc_fmu_close(&fmu);
    cr_assert_eq(o->end, FMUC_WORKER_OK, "end=%s", fmuc_worker_end_name(o->end));
}

Test(worker_timing, fmi_calls_are_timed_within_their_span, .timeout = 60)
{
    fmuc_worker_outcome o;
    steps_args a = {20};
    run_on_l2(fn_steps, &a, &o);
    cr_assert_eq(o.fn_status, 0);
    double span = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o.reply, "span"));
    cr_assert_gt(o.fmi_time_s, 0.0);
    cr_assert_leq(o.fmi_time_s, span);
    cr_assert_gt(o.lib_time_s, 0.0, "dlopen is timed apart");
    cr_assert_leq(o.fmi_time_s + o.lib_time_s, o.duration_s);
    fmuc_worker_outcome_free(&o);
}

Test(worker_timing, calls_beyond_the_kept_trace_are_still_counted, .timeout = 60)
{
    /* 400 steps: far more calls than the trace keeps (64 first + 64 last) */
    fmuc_worker_outcome o;
    steps_args a = {400};
    run_on_l2(fn_steps, &a, &o);
    cr_assert_eq(o.fn_status, 0);
    cr_assert_gt(o.ncalls, 400);
    double span = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o.reply, "span"));
    cr_assert_gt(o.fmi_time_s, 0.0);
    cr_assert_leq(o.fmi_time_s, span);
    fmuc_worker_outcome_free(&o);
}

Test(worker_timing, no_fmu_calls_no_fmu_time, .timeout = 60)
{
    fmuc_worker_outcome o;
    run_on_l2(fn_empty, NULL, &o);
    cr_assert_eq(o.ncalls, 0);
    cr_assert_eq(o.fmi_time_s, 0.0);
    cr_assert_eq(o.lib_time_s, 0.0);
    fmuc_worker_outcome_free(&o);
}

Test(worker_timing, evidence_totals_add_up_over_a_checks_workers, .timeout = 60)
{
    fmuc_worker_outcome o1, o2;
    steps_args a = {5};
    run_on_l2(fn_steps, &a, &o1);
    run_on_l2(fn_steps, &a, &o2);
    fmuc_result r;
    fmuc_result_init(&r, "x-timing", "timing", "none", FMUC_LEVEL_MUST);
    cr_assert_eq(fmuc_worker_outcome_to_result(&o1, &r), 0);
    cr_assert_eq(fmuc_worker_outcome_to_result(&o2, &r), 0);
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(r.evidence, "worker");
    cr_assert(cJSON_IsObject(w));
    cr_assert_eq(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(w, "workers")), 2.0);
    double last = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(w, "fmi_time_s"));
    double total = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(w, "fmi_time_total_s"));
    double dur = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(w, "duration_total_s"));
    cr_assert_float_eq(last, o2.fmi_time_s, 1e-12);
    cr_assert_float_eq(total, o1.fmi_time_s + o2.fmi_time_s, 1e-12);
    cr_assert_float_eq(dur, o1.duration_s + o2.duration_s, 1e-12);
    cr_assert(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(w, "lib_time_s")));
    fmuc_result_clear(&r);
    fmuc_worker_outcome_free(&o1);
    fmuc_worker_outcome_free(&o2);
}
