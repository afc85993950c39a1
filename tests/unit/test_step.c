/* The step-wise driver (fmuc_step.h): SpringMassDamper stepped interval by interval in a worker,
 * CS (DoStep per interval) and ME with fixed RK4 substeps, against the analytic damped
 * oscillation; the event iteration counts its calls and stops at the FMU's answer. */
#include <criterion/criterion.h>

#include <math.h>
#include <string.h>

#include "fmuc/fmuc_drive.h"
#include "fmuc/fmuc_step.h"
#include "fmuc/fmuc_worker.h"
#include "fmuc_test_util.h"

#define SMD FMUC_FMU_DIR "/good/SpringMassDamper.fmu"

static fmuc_fmu fmu;

/* a fixture FMU, opened (the tests' own FMU: SMD into fmu, open_smd) */
static void open_fixture(fmuc_fmu *f, const char *path)
{
    fmuc_diag d = {{0}, FMUC_OK};
    cr_assert_eq(fmuc_fmu_open(f, path, NULL, NULL, &d), FMUC_OK, "%s: %s", path, d.msg);
}

static void open_smd(void)
{
    open_fixture(&fmu, SMD);
}

static void close_smd(void)
{
    fmuc_fmu_close(&fmu);
}

/* x(t) of m x'' + c x' + k x = 0, x(0) = 0.05, v(0) = 0 (the model's start values) */
static double analytic_x(double t)
{
    double m = 2.5, k = 120.0, c = 3.0, x0 = 0.05;
    double w0 = sqrt(k / m), z = c / (2.0 * sqrt(k * m)), wd = w0 * sqrt(1.0 - z * z);
    return exp(-z * w0 * t) * (x0 * cos(wd * t) + (z * w0 * x0 / wd) * sin(wd * t));
}

typedef struct job {
    int me;
    int intervals;      /* over [0, 1] */
    int nsub;
    int inputs_called;  /* worker side only */
} job;

static int count_inputs(void *user, fmuc_inst *in, double t)
{
    (void)in;
    (void)t;
    ((job *)user)->inputs_called++;
    return 0;
}

/* reply: rc of the first interval that did not succeed (0: none), x at t = 1, inputs hook calls,
 * iterations of the initial event iteration (ME) */
static int step_worker(fmuc_worker_ctx *ctx, void *payload)
{
    job *j = payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    fmuc_iface iface = j->me ? FMUC_IFACE_ME : FMUC_IFACE_CS;
    if (fmuc_inst_load(ctx, iface) < 0)
        return 1;
    fmuc_inst *in = fmuc_inst_instantiate(ctx, iface, NULL, "step");
    if (!in)
        return 1;
    fmuc_drive_start ds;
    fmuc_drive_reached dr;
    fmuc_drive_start_init(&ds, &fmuc_worker_fmu(ctx)->md);
    ds.exp.stop_defined = 1;
    ds.exp.stop = 1.0;
    if (fmuc_drive_reach(in, j->me ? FMUC_ST_EM : FMUC_ST_SC, &ds, &dr) != 0)
        return 1;
    fmuc_stepper sp;
    if (fmuc_stepper_init(&sp, in, j->me, j->me ? 2 : 0, 0) < 0)
        return 1;
    sp.nsub = j->nsub;
    sp.inputs = count_inputs;
    sp.user = j;
    int rc = 0;
    if (j->me)
        rc = (int)fmuc_step_me_enter_ctm(&sp);
    for (int k = 0; rc == 0 && k < j->intervals; k++)
        rc = (int)fmuc_step_interval(&sp, (double)k / j->intervals, (double)(k + 1) / j->intervals,
                                     NULL);
    double x = NAN;
    const fmuc_md *md = &fmuc_worker_fmu(ctx)->md;
    for (size_t i = 0; i < md->nvars; i++)
        if (strcmp(md->vars[i].name, "x") == 0) {
            fmuc_vr vr = md->vars[i].value_reference;
            fmuc_inst_get_float64(in, &vr, 1, &x);
        }
    cJSON_AddNumberToObject(reply, "rc", rc);
    cJSON_AddNumberToObject(reply, "x", x);
    cJSON_AddNumberToObject(reply, "inputs", j->inputs_called);
    fmuc_stepper_free(&sp);
    fmuc_inst_free(in);
    return 0;
}

/* fn(payload) in a worker on f, which must end well with a reply */
static cJSON *run_on(fmuc_fmu *f, fmuc_worker_fn fn, void *payload, fmuc_worker_outcome *o)
{
    fmuc_options wo;
    fmuc_worker_spec spec;
    fmuc_diag d = {{0}, FMUC_OK};
    fmuc_options_init(&wo);
    fmuc_worker_spec_init(&spec, f, &wo);
    cr_assert_eq(fmuc_worker_run(&spec, fn, payload, o, &d), FMUC_OK, "%s", d.msg);
    cr_assert_eq(o->end, FMUC_WORKER_OK, "worker: %s", fmuc_worker_end_name(o->end));
    cr_assert_not_null(o->reply);
    return o->reply;
}

static cJSON *run(job *j, fmuc_worker_outcome *o)
{
    return run_on(&fmu, step_worker, j, o);
}


static double num(const cJSON *r, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(r, k);
    cr_assert(cJSON_IsNumber(v), "reply has no %s", k);
    return v->valuedouble;
}

Test(step, cs_intervals_follow_the_analytic_oscillation, .init = open_smd, .fini = close_smd,
     .timeout = 30)
{
    job j = {0, 200, 1, 0};
    fmuc_worker_outcome o;
    cJSON *r = run(&j, &o);
    cr_assert_eq(num(r, "rc"), FMUC_STEP_OK);
    cr_assert_eq(num(r, "inputs"), 200); /* the inputs hook before every interval */
    cr_assert_lt(fabs(num(r, "x") - analytic_x(1.0)), 1e-4, "x(1) = %g", num(r, "x"));
    fmuc_worker_outcome_free(&o);
}

Test(step, me_rk4_intervals_follow_the_analytic_oscillation, .init = open_smd, .fini = close_smd,
     .timeout = 30)
{
    job j = {1, 100, 10, 0};
    fmuc_worker_outcome o;
    cJSON *r = run(&j, &o);
    cr_assert_eq(num(r, "rc"), FMUC_STEP_OK);
    cr_assert_eq(num(r, "inputs"), 100);
    cr_assert_lt(fabs(num(r, "x") - analytic_x(1.0)), 1e-8, "x(1) = %.17g", num(r, "x"));
    fmuc_worker_outcome_free(&o);
}

Test(step, rk4_combine_is_the_core_arithmetic)
{
    cr_assert_eq(fmuc_step_rk4_combine(1.0, 0.5, 1.0, 1.0, 1.0, 1.0), 4.0);
    double z = fmuc_step_rk4_combine(-1e-210, 0.0, 0, 0, 0, 0);
    cr_assert(z == 0.0 && signbit(z));
}

/* ---- a constant communication step without canHandleVariableCommunicationStepSize ---------- */

#define CONST_STEP FMUC_FMU_DIR "/broken/cs-nominal-run--constant-step.fmu"

/* reply: the step sizes fmuc_drive_step_size gives in the cases below (as numbers, compared bit
 * for bit), and rc of a run of ten grid intervals k/10 over [0, 1] in a fresh instance */
static int const_step_worker(fmuc_worker_ctx *ctx, void *payload)
{
    (void)payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    if (fmuc_inst_load(ctx, FMUC_IFACE_CS) < 0)
        return 1;
    fmuc_drive_start ds;
    fmuc_drive_reached dr;
    fmuc_drive_start_init(&ds, &fmuc_worker_fmu(ctx)->md);
    ds.exp.stop_defined = 1;
    ds.exp.stop = 1.0;
    fmuc_inst *in = fmuc_inst_instantiate(ctx, FMUC_IFACE_CS, NULL, "const-step");
    if (!in || fmuc_drive_reach(in, FMUC_ST_SC, &ds, &dr) != 0)
        return 1;
    cJSON_AddNumberToObject(reply, "first", fmuc_drive_step_size(in, 0.0, 0.3 - 0.2));
    if (!fmuc_status_ok(fmuc_drive_do_step(in, 0.0, 0.1, 0, NULL, NULL)))
        return 1;
    cJSON_AddNumberToObject(reply, "rounded", fmuc_drive_step_size(in, 0.1, 0.3 - 0.2));
    cJSON_AddNumberToObject(reply, "shorter", fmuc_drive_step_size(in, 0.1, 0.05));
    double t = nextafter(0.9, 1.0); /* 0.1 from here ends past stopTime = 1 */
    cJSON_AddNumberToObject(reply, "last", fmuc_drive_step_size(in, t, 1.0 - t));
    fmuc_inst_free(in);
    in = fmuc_inst_instantiate(ctx, FMUC_IFACE_CS, NULL, "const-step-run");
    if (!in || fmuc_drive_reach(in, FMUC_ST_SC, &ds, &dr) != 0)
        return 1;
    fmuc_stepper sp;
    fmuc_stepper_init(&sp, in, 0, 0, 0);
    int rc = 0;
    for (int k = 0; rc == 0 && k < 10; k++)
        rc = (int)fmuc_step_interval(&sp, k / 10.0, (k + 1) / 10.0, NULL);
    cJSON_AddNumberToObject(reply, "rc", rc);
    fmuc_stepper_free(&sp);
    fmuc_inst_free(in);
    return 0;
}

Test(step, without_variable_steps_the_step_size_stays_constant_bit_for_bit, .timeout = 30)
{
    fmuc_fmu f;
    open_fixture(&f, CONST_STEP);
    cr_assert(!((f.md.cs.caps >> FMUC_CAP_CAN_HANDLE_VARIABLE_COMMUNICATION_STEP_SIZE) & 1u));
    fmuc_worker_outcome o;
    run_on(&f, const_step_worker, NULL, &o);
    double rounded = 0.3 - 0.2;
    cr_assert_neq(rounded, 0.1); /* the grid difference this is about */
    cr_assert_eq(num(o.reply, "first"), rounded, "a first step is passed as it is");
    cr_assert_eq(num(o.reply, "rounded"), 0.1, "the previous step size, bit for bit");
    cr_assert_eq(num(o.reply, "shorter"), 0.05, "a step meant to be shorter keeps its size");
    double t = nextafter(0.9, 1.0);
    cr_assert_eq(num(o.reply, "last"), 1.0 - t, "never past the stop time");
    /* the fixture refuses any other step size: the grid k/10 runs to its end */
    cr_assert_eq(num(o.reply, "rc"), FMUC_STEP_OK);
    fmuc_worker_outcome_free(&o);
    fmuc_fmu_close(&f);
}

Test(step, with_variable_steps_the_step_size_is_passed_as_it_is, .init = open_smd,
     .fini = close_smd, .timeout = 30)
{
    cr_assert((fmu.md.cs.caps >> FMUC_CAP_CAN_HANDLE_VARIABLE_COMMUNICATION_STEP_SIZE) & 1u);
    fmuc_worker_outcome o;
    run_on(&fmu, const_step_worker, NULL, &o);
    cr_assert_eq(num(o.reply, "rounded"), 0.3 - 0.2);
    cr_assert_eq(num(o.reply, "rc"), FMUC_STEP_OK);
    fmuc_worker_outcome_free(&o);
}

/* ---- FMI 3.0: a step that returns terminateSimulation ends the run -------------------------- */

#define TERMINATE3 FMUC_FMU_DIR "/broken/cs-nominal-run--fmi3-terminate.fmu"

/* reply: rc of the first interval that was not OK, its index, the stepper's why, and the
 * status of one more step (made only to show the FMU refuses it) */
static int terminate_worker(fmuc_worker_ctx *ctx, void *payload)
{
    (void)payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    if (fmuc_inst_load(ctx, FMUC_IFACE_CS) < 0)
        return 1;
    fmuc_inst *in = fmuc_inst_instantiate(ctx, FMUC_IFACE_CS, NULL, "terminate");
    fmuc_drive_start ds;
    fmuc_drive_reached dr;
    fmuc_drive_start_init(&ds, &fmuc_worker_fmu(ctx)->md);
    if (!in || fmuc_drive_reach(in, FMUC_ST_SC, &ds, &dr) != 0)
        return 1;
    fmuc_stepper sp;
    fmuc_stepper_init(&sp, in, 0, 0, 0);
    int rc = 0, k = 0;
    for (; rc == 0 && k < 30; k++)
        rc = (int)fmuc_step_interval(&sp, k / 10.0, (k + 1) / 10.0, NULL);
    cJSON_AddNumberToObject(reply, "rc", rc);
    cJSON_AddNumberToObject(reply, "k", k);
    cJSON_AddStringToObject(reply, "why", sp.why);
    fmuc_stepper_free(&sp);
    fmuc_inst_free(in);
    return 0;
}

Test(step, an_fmi3_step_that_requests_termination_ends_the_run, .timeout = 30)
{
    fmuc_fmu f;
    open_fixture(&f, TERMINATE3);
    fmuc_worker_outcome o;
    run_on(&f, terminate_worker, NULL, &o);
    cr_assert_eq(num(o.reply, "rc"), FMUC_STEP_TERMINATE);
    cr_expect_eq(num(o.reply, "k"), 15, "the step to t = 1.5 asks to terminate");
    const char *why = cJSON_GetStringValue(cJSON_GetObjectItem(o.reply, "why"));
    cr_expect(why && strstr(why, "terminateSimulation = true"), "%s", why ? why : "-");
    fmuc_worker_outcome_free(&o);
    fmuc_fmu_close(&f);
}
