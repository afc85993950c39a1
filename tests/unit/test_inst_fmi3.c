/* The FMI 3.0 table of the instance API (harness/src/inst_fmi3.c) on the project's FMI 3.0
 * BouncingBall (ME+CS, FMU state) and vdsim_l3_fmi3 (arrays of 4): every call traced with the
 * 3.0 function's own name, the experiment passed to fmi3EnterInitializationMode, Model Exchange
 * through event mode, fmi3UpdateDiscreteStates and continuous-time mode, Co-Simulation steps,
 * FMU state and serialization, array values with nValues, directional and adjoint derivatives
 * (SpringMassDamper 3.0), and what 3.0 does not have. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmuc/fmuc_drive.h"
#include "fmuc/fmuc_inst.h"
#include "fmuc/fmuc_sim.h"
#include "fmuc_test_util.h"

#ifndef FMUC_SHARED_DIR
#define FMUC_SHARED_DIR FMUC_SOURCE_DIR "/../shared"
#endif

#define BB FMUC_FMU_DIR "/fmi3/good/BouncingBall.fmu"
#define VD3 FMUC_FMU_DIR "/fmi3/vdsim_l3_fmi3.fmu"
#define SMD3 FMUC_FMU_DIR "/fmi3/good/SpringMassDamper.fmu"

static fmuc_fmu fmu;

static void open_path(const char *path)
{
    fmuc_diag d = {{0}, FMUC_OK};
    cr_assert_eq(fmuc_fmu_open(&fmu, path, NULL, NULL, &d), FMUC_OK, "%s", d.msg);
    cr_assert_eq(fmuc_fmu_fmi_version(&fmu), 3);
}

static void open_bb(void)
{
    open_path(BB);
}

static void open_vd3(void)
{
    open_path(VD3);
}

static void open_smd3(void)
{
    open_path(SMD3);
}

static void close_fmu(void)
{
    fmuc_fmu_close(&fmu);
}

static const fmuc_md_var *var(const char *name)
{
    for (size_t i = 0; i < fmu.md.nvars; i++)
        if (strcmp(fmu.md.vars[i].name, name) == 0)
            return &fmu.md.vars[i];
    cr_assert_fail("no variable %s", name);
    return NULL;
}

static void run(fmuc_worker_fn fn, fmuc_worker_outcome *o)
{
    fmuc_worker_spec spec;
    fmuc_diag d = {{0}, FMUC_OK};
    fmuc_worker_spec_init(&spec, &fmu, NULL);
    cr_assert_eq(fmuc_worker_run(&spec, fn, NULL, o, &d), FMUC_OK, "%s", d.msg);
    cr_assert_eq(o->end, FMUC_WORKER_OK, "worker ended %s (%s)", fmuc_worker_end_name(o->end),
                 o->detail);
    cr_assert_eq(o->fn_status, 0);
}

/* 1 when some traced call's text starts with prefix (and, when status is given, has it) */
static int traced(const fmuc_worker_outcome *o, const char *prefix, const char *status)
{
    cJSON *it;
    cJSON_ArrayForEach(it, o->trace)
    {
        const char *c = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "call"));
        const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "status"));
        if (c && strncmp(c, prefix, strlen(prefix)) == 0 &&
            (!status || (s && strcmp(s, status) == 0)))
            return 1;
    }
    return 0;
}

static double num(const fmuc_worker_outcome *o, const char *key)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o->reply, key);
    cr_assert(cJSON_IsNumber(j), "reply has no %s", key);
    return j->valuedouble;
}

static int session_cs(fmuc_worker_ctx *ctx, void *payload)
{
    (void)payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    fmuc_inst *in = fmuc_inst_instantiate(ctx, FMUC_IFACE_CS, NULL, "t3");
    if (!in)
        return 1;
    fmuc_inst_experiment e = {0, 0.0, 0.0, 1, 3.0};
    fmuc_vr h = var("h")->value_reference, imp = var("impacts")->value_reference;
    double hv = 0.0;
    int32_t iv = -1;
    fmuc_inst_step_info info;
    int st = fmuc_inst_setup_experiment(in, &e);
    st |= fmuc_inst_enter_initialization_mode(in);
    st |= fmuc_inst_exit_initialization_mode(in);
    for (int k = 0; k < 100 && st == 0; k++)
        st |= fmuc_inst_do_step(in, 0.01 * k, 0.01, 0, &info);
    st |= fmuc_inst_get_float64(in, &h, 1, &hv);
    st |= fmuc_inst_get_int32(in, &imp, 1, &iv);
    cJSON_AddNumberToObject(reply, "st", st);
    cJSON_AddNumberToObject(reply, "h", hv);
    cJSON_AddNumberToObject(reply, "impacts", iv);
    cJSON_AddNumberToObject(reply, "term", info.terminate_simulation);
    int term = -1;
    cJSON_AddNumberToObject(reply, "q_term", fmuc_inst_cs_status(in, FMUC_INST_Q_TERMINATED, &term));
    /* what FMI 3.0 does not have: not provided, no trace entry */
    cJSON_AddNumberToObject(reply, "cancel", fmuc_inst_cancel_step(in));
    cJSON_AddNumberToObject(reply, "version_ok",
                            fmuc_inst_lib_version(ctx, FMUC_IFACE_CS) &&
                                strncmp(fmuc_inst_lib_version(ctx, FMUC_IFACE_CS), "3.", 2) == 0);
    const char *const *missing;
    cJSON_AddNumberToObject(reply, "missing", (double)fmuc_inst_lib_missing(ctx, FMUC_IFACE_CS,
                                                                             &missing));
    cJSON_AddNumberToObject(reply, "has_dostep", fmuc_inst_lib_has(ctx, FMUC_IFACE_CS, "fmi3DoStep"));
    cJSON_AddNumberToObject(reply, "has_fmi2", fmuc_inst_lib_has(ctx, FMUC_IFACE_CS, "fmi2DoStep"));
    /* the fraction getters reach the FMU and are traced (h is no clock: the FMU refuses) */
    uint64_t cnt = 0, res = 0;
    int q = 0;
    cJSON_AddNumberToObject(reply, "ivfrac",
                            fmuc_inst_get_interval_fraction(in, &h, 1, &cnt, &res, &q));
    cJSON_AddNumberToObject(reply, "shfrac", fmuc_inst_get_shift_fraction(in, &h, 1, &cnt, &res));
    fmuc_inst_terminate(in);
    fmuc_inst_free(in);
    return 0;
}

Test(inst_fmi3, cs_steps_through_the_fmi3_functions, .init = open_bb, .fini = close_fmu,
     .timeout = 60)
{
    fmuc_worker_outcome o;
    run(session_cs, &o);
    cr_assert_eq(num(&o, "st"), 0);
    cr_assert_lt(num(&o, "h"), 1.0);     /* it fell */
    cr_assert_geq(num(&o, "impacts"), 1); /* and bounced (first impact near t=0.45) */
    cr_assert_eq(num(&o, "term"), 0);
    cr_assert_eq(num(&o, "q_term"), FMUC_STATUS_OK);
    cr_assert_eq(num(&o, "cancel"), FMUC_STATUS_NOT_PROVIDED);
    cr_assert_eq(num(&o, "version_ok"), 1);
    cr_assert_eq(num(&o, "missing"), 0);
    cr_assert_eq(num(&o, "has_dostep"), 1);
    cr_assert_eq(num(&o, "has_fmi2"), 0);
    cr_assert(traced(&o, "fmi3InstantiateCoSimulation(instanceName=\"t3\"", "non-NULL"));
    cr_assert(traced(&o, "fmi3EnterInitializationMode(toleranceDefined=0, tolerance=0, "
                         "startTime=0, stopTimeDefined=1, stopTime=3)", "fmi3OK"));
    cr_assert(traced(&o, "fmi3DoStep(t=0, h=0.01, noSet=0)", "fmi3OK"));
    cr_assert(traced(&o, "fmi3GetInt32(vr=[8], nvr=1, nValues=1)", "fmi3OK"));
    cr_assert(traced(&o, "fmi3FreeInstance(instance)", "returned"));
    cr_assert_not(traced(&o, "fmi2", NULL));
    cr_assert_not(traced(&o, "fmi3CancelStep", NULL));
    cr_assert_eq(num(&o, "ivfrac"), FMUC_STATUS_ERROR);
    cr_assert_eq(num(&o, "shfrac"), FMUC_STATUS_ERROR);
    cr_assert(traced(&o, "fmi3GetIntervalFraction(vr=[", "fmi3Error"));
    cr_assert(traced(&o, "fmi3GetShiftFraction(vr=[", "fmi3Error"));
    fmuc_worker_outcome_free(&o);
}

static int session_me(fmuc_worker_ctx *ctx, void *payload)
{
    (void)payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    fmuc_inst *in = fmuc_inst_instantiate(ctx, FMUC_IFACE_ME, NULL, "m3");
    if (!in)
        return 1;
    fmuc_drive_start ds;
    fmuc_drive_reached dr;
    fmuc_drive_start_init(&ds, &fmu.md);
    int st = fmuc_drive_reach(in, FMUC_ST_CTM, &ds, &dr);
    double x[2] = {0}, dx[2] = {0}, z[1] = {0}, nom[2] = {0};
    st |= fmuc_inst_set_time(in, 0.1);
    st |= fmuc_inst_get_continuous_states(in, x, 2);
    st |= fmuc_inst_get_derivatives(in, dx, 2);
    st |= fmuc_inst_get_event_indicators(in, z, 1);
    st |= fmuc_inst_get_nominals(in, nom, 2);
    int enter = -1, term = -1;
    st |= fmuc_inst_completed_integrator_step(in, 1, &enter, &term);
    cJSON_AddNumberToObject(reply, "st", st);
    cJSON_AddNumberToObject(reply, "x0", x[0]);
    cJSON_AddNumberToObject(reply, "dx1", dx[1]);
    cJSON_AddNumberToObject(reply, "z0", z[0]);
    cJSON_AddNumberToObject(reply, "enter", enter);
    cJSON_AddNumberToObject(reply, "term", term);
    /* FMU state: get, move on, set back, serialize and deserialize */
    fmuc_fmu_state s = NULL, s2 = NULL;
    size_t size = 0;
    st = fmuc_inst_get_state(in, &s);
    double moved[2] = {0.5, -1.0}, back[2] = {0};
    st |= fmuc_inst_set_continuous_states(in, moved, 2);
    st |= fmuc_inst_set_state(in, s);
    st |= fmuc_inst_get_continuous_states(in, back, 2);
    st |= fmuc_inst_serialized_state_size(in, s, &size);
    uint8_t *buf = size ? calloc(1, size) : NULL;
    if (buf) {
        st |= fmuc_inst_serialize_state(in, s, buf, size);
        st |= fmuc_inst_deserialize_state(in, buf, size, &s2);
        st |= fmuc_inst_free_state(in, &s2);
    }
    free(buf);
    st |= fmuc_inst_free_state(in, &s);
    cJSON_AddNumberToObject(reply, "st_state", st);
    cJSON_AddNumberToObject(reply, "back0", back[0]);
    cJSON_AddNumberToObject(reply, "size", (double)size);
    /* event mode and back */
    fmuc_inst_event_info ei;
    st = fmuc_inst_enter_event_mode(in);
    st |= fmuc_inst_update_discrete_states(in, &ei);
    st |= fmuc_inst_enter_continuous_time_mode(in);
    cJSON_AddNumberToObject(reply, "st_event", st);
    fmuc_inst_terminate(in);
    fmuc_inst_free(in);
    return 0;
}

Test(inst_fmi3, me_runs_event_mode_update_discrete_states_and_fmu_state, .init = open_bb,
     .fini = close_fmu, .timeout = 60)
{
    fmuc_worker_outcome o;
    run(session_me, &o);
    cr_assert_eq(num(&o, "st"), 0);
    cr_assert_float_eq(num(&o, "x0"), 1.0, 1e-12); /* h starts at 1 */
    cr_assert_float_eq(num(&o, "dx1"), -9.81, 1e-12);
    cr_assert_float_eq(num(&o, "z0"), 1.0, 1e-12);
    /* both outputs written by the FMU: the caller's -1 replaced (fmuc_inst.h) */
    cr_assert_eq(num(&o, "enter"), 0);
    cr_assert_eq(num(&o, "term"), 0);
    cr_assert_eq(num(&o, "st_state"), 0);
    cr_assert_float_eq(num(&o, "back0"), 1.0, 1e-12);
    cr_assert_gt(num(&o, "size"), 0);
    cr_assert_eq(num(&o, "st_event"), 0);
    cr_assert(traced(&o, "fmi3InstantiateModelExchange(instanceName=\"m3\"", "non-NULL"));
    cr_assert(traced(&o, "fmi3UpdateDiscreteStates()", "fmi3OK"));
    cr_assert(traced(&o, "fmi3EnterContinuousTimeMode()", "fmi3OK"));
    cr_assert(traced(&o, "fmi3GetContinuousStateDerivatives(nContinuousStates=2)", "fmi3OK"));
    cr_assert(traced(&o, "fmi3SetTime(time=0.1)", "fmi3OK"));
    cr_assert(traced(&o, "fmi3SerializeFMUState(size=", "fmi3OK"));
    cr_assert(traced(&o, "fmi3DeserializeFMUState(size=", "fmi3OK"));
    cr_assert_not(traced(&o, "fmi2", NULL));
    fmuc_worker_outcome_free(&o);
}

/* vdsim_l3_fmi3 has per-wheel arrays of 4: one vr, four values */
static int session_array(fmuc_worker_ctx *ctx, void *payload)
{
    (void)payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    const fmuc_md_var *arr = NULL;
    for (size_t i = 0; i < fmu.md.nvars && !arr; i++) {
        const fmuc_md_var_ext *x = fmuc_md_var_ext_of(&fmu.md, i);
        if (x && x->ndims == 1 && x->dims[0].has_start && x->dims[0].start == 4 &&
            fmu.md.vars[i].base == FMUC_BT_FLOAT64)
            arr = &fmu.md.vars[i];
    }
    if (!arr)
        return 2;
    fmuc_inst *in = fmuc_inst_instantiate(ctx, FMUC_IFACE_CS, NULL, "a3");
    if (!in)
        return 1;
    fmuc_inst_experiment e = {0, 0.0, 0.0, 0, 0.0};
    fmuc_vr vr = arr->value_reference;
    double v[4] = {NAN, NAN, NAN, NAN};
    int st = fmuc_inst_setup_experiment(in, &e);
    st |= fmuc_inst_enter_initialization_mode(in);
    st |= fmuc_inst_exit_initialization_mode(in);
    st |= fmuc_inst_get(in, FMUC_INST_FLOAT64, &vr, 1, v, 4);
    int finite = 1;
    for (int k = 0; k < 4; k++)
        finite &= isfinite(v[k]) != 0;
    cJSON_AddNumberToObject(reply, "st", st);
    cJSON_AddNumberToObject(reply, "finite", finite);
    fmuc_inst_terminate(in);
    fmuc_inst_free(in);
    return 0;
}

Test(inst_fmi3, array_values_take_n_values, .init = open_vd3, .fini = close_fmu, .timeout = 60)
{
    fmuc_worker_outcome o;
    run(session_array, &o);
    cr_assert_eq(num(&o, "st"), 0);
    cr_assert_eq(num(&o, "finite"), 1);
    cr_assert(traced(&o, "fmi3GetFloat64(vr=[", "fmi3OK"));
    cr_assert(traced(&o, "fmi3InstantiateCoSimulation", "non-NULL"));
    fmuc_worker_outcome_free(&o);
}

/* J = ∂(der(x), der(v))/∂(x, v) = [[0, 1], [-k/m, -c/m]] = [[0, 1], [-48, -1.2]] at the start
 * values: J·(1, 0) from fmi3GetDirectionalDerivative, (1, 2)ᵀJ from fmi3GetAdjointDerivative. */
static int session_partials(fmuc_worker_ctx *ctx, void *payload)
{
    (void)payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    fmuc_inst *in = fmuc_inst_instantiate(ctx, FMUC_IFACE_ME, NULL, "p3");
    if (!in)
        return 1;
    fmuc_vr unk[2] = {var("der(x)")->value_reference, var("der(v)")->value_reference};
    fmuc_vr kn[2] = {var("x")->value_reference, var("v")->value_reference};
    double seed[2] = {1.0, 0.0}, w[2] = {1.0, 2.0}, jv[2] = {NAN, NAN}, wj[2] = {NAN, NAN};
    fmuc_drive_start ds;
    fmuc_drive_reached dr;
    fmuc_drive_start_init(&ds, &fmu.md);
    int st = fmuc_drive_reach(in, FMUC_ST_CTM, &ds, &dr);
    cJSON_AddNumberToObject(reply, "st", st);
    cJSON_AddNumberToObject(reply, "dd", fmuc_inst_get_directional_derivative(in, unk, 2, kn, 2,
                                                                            seed, 2, jv, 2));
    cJSON_AddNumberToObject(reply, "adj",
                            fmuc_inst_get_adjoint_derivative(in, unk, 2, kn, 2, w, 2, wj, 2));
    cJSON_AddNumberToObject(reply, "jv0", jv[0]);
    cJSON_AddNumberToObject(reply, "jv1", jv[1]);
    cJSON_AddNumberToObject(reply, "wj0", wj[0]);
    cJSON_AddNumberToObject(reply, "wj1", wj[1]);
    /* nSensitivity must be the knowns' element count: 1 is refused */
    cJSON_AddNumberToObject(reply, "adj_short",
                            fmuc_inst_get_adjoint_derivative(in, unk, 2, kn, 2, w, 2, wj, 1));
    fmuc_inst_terminate(in);
    fmuc_inst_free(in);
    return 0;
}

Test(inst_fmi3, directional_and_adjoint_derivatives, .init = open_smd3, .fini = close_fmu,
     .timeout = 60)
{
    fmuc_worker_outcome o;
    run(session_partials, &o);
    cr_assert_eq(num(&o, "st"), 0);
    cr_assert_eq(num(&o, "dd"), 0);
    cr_assert_eq(num(&o, "adj"), 0);
    cr_expect_float_eq(num(&o, "jv0"), 0.0, 1e-12);
    cr_expect_float_eq(num(&o, "jv1"), -48.0, 1e-12);
    cr_expect_float_eq(num(&o, "wj0"), -96.0, 1e-12);
    cr_expect_float_eq(num(&o, "wj1"), 1.0 - 2.4, 1e-12);
    cr_expect_eq(num(&o, "adj_short"), 3); /* fmi3Error */
    cr_assert(traced(&o, "fmi3GetDirectionalDerivative(", "fmi3OK"));
    cr_assert(traced(&o, "fmi3GetAdjointDerivative(", "fmi3OK"));
    cr_assert(traced(&o, "fmi3GetAdjointDerivative(", "fmi3Error"));
    fmuc_worker_outcome_free(&o);
}

/* Per-element dependencies of der(v) (vr 4): before fmi3ExitInitializationMode the initial ones
 * (v F m k c x0 = vr 2 6 7 8 9 10), in Continuous-Time Mode the run-time ones (x v F = 1 2 6),
 * each on element 1 of a scalar, kind fmi3Dependent; a wrong nDependencies is refused. */
static int session_dependencies(fmuc_worker_ctx *ctx, void *payload)
{
    (void)payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    fmuc_inst *in = fmuc_inst_instantiate(ctx, FMUC_IFACE_ME, NULL, "d3");
    if (!in)
        return 1;
    fmuc_vr dv = var("der(v)")->value_reference, iv[8];
    size_t n = 0, ed[8], ei[8];
    int kd[8];
    for (int phase = 0; phase < 2; phase++) {
        const char *key = phase ? "run" : "init";
        if (phase) {
            fmuc_drive_start ds;
            fmuc_drive_reached dr;
            fmuc_drive_start_init(&ds, &fmu.md);
            cJSON_AddNumberToObject(reply, "st", fmuc_drive_reach(in, FMUC_ST_CTM, &ds, &dr));
        }
        cJSON *o = cJSON_AddObjectToObject(reply, key);
        cJSON_AddNumberToObject(o, "count_st",
                                fmuc_inst_get_number_of_variable_dependencies(in, dv, &n));
        cJSON_AddNumberToObject(o, "n", (double)n);
        if (n > 8)
            continue;
        cJSON_AddNumberToObject(o, "st", fmuc_inst_get_variable_dependencies(in, dv, ed, iv, ei,
                                                                             kd, n));
        cJSON *a = cJSON_AddArrayToObject(o, "independents");
        int bad = 0;
        for (size_t k = 0; k < n; k++) {
            cJSON_AddItemToArray(a, cJSON_CreateNumber(iv[k]));
            bad += (ed[k] != 1) + (ei[k] != 1) + (kd[k] != FMUC_INST_DEP_DEPENDENT);
        }
        cJSON_AddNumberToObject(o, "bad", bad);
    }
    cJSON_AddNumberToObject(reply, "short",
                            fmuc_inst_get_variable_dependencies(in, dv, ed, iv, ei, kd, n - 1));
    fmuc_inst_free(in);
    return 0;
}

static int has_vrs(const fmuc_worker_outcome *o, const char *key, const int *want, int n)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(o->reply, key), "independents");
    if (cJSON_GetArraySize(a) != n)
        return 0;
    for (int k = 0; k < n; k++)
        if (cJSON_GetArrayItem(a, k)->valueint != want[k])
            return 0;
    return 1;
}

Test(inst_fmi3, per_element_dependencies_before_and_after_initialization, .init = open_smd3,
     .fini = close_fmu, .timeout = 60)
{
    fmuc_worker_outcome o;
    run(session_dependencies, &o);
    static const int init[] = {2, 6, 7, 8, 9, 10}, rt[] = {1, 2, 6};
    const cJSON *oi = cJSON_GetObjectItemCaseSensitive(o.reply, "init");
    const cJSON *orun = cJSON_GetObjectItemCaseSensitive(o.reply, "run");
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(oi, "count_st")->valueint, 0);
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(oi, "st")->valueint, 0);
    cr_expect(has_vrs(&o, "init", init, 6), "initial dependencies of der(v)");
    cr_expect_eq(num(&o, "st"), 0);
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(orun, "st")->valueint, 0);
    cr_expect(has_vrs(&o, "run", rt, 3), "run-time dependencies of der(v)");
    cr_expect_eq(cJSON_GetObjectItemCaseSensitive(orun, "bad")->valueint, 0);
    cr_expect_eq(num(&o, "short"), 3); /* fmi3Error */
    cr_assert(traced(&o, "fmi3GetNumberOfVariableDependencies(valueReference=4", "fmi3OK"));
    cr_assert(traced(&o, "fmi3GetVariableDependencies(dependent=4, nDependencies=3", "fmi3OK"));
    cr_assert(traced(&o, "fmi3GetVariableDependencies(dependent=4, nDependencies=2",
                     "fmi3Error"));
    fmuc_worker_outcome_free(&o);
}

Test(inst_fmi3, operation_names_are_the_fmi3_functions)
{
    cr_assert_str_eq(fmuc_inst_op_name(3, FMUC_INST_OP_UPDATE_DISCRETE_STATES),
                     "fmi3UpdateDiscreteStates");
    cr_assert_str_eq(fmuc_inst_op_name(3, FMUC_INST_OP_GET_DERIVATIVES),
                     "fmi3GetContinuousStateDerivatives");
    cr_assert_null(fmuc_inst_op_name(3, FMUC_INST_OP_SETUP_EXPERIMENT));
    cr_assert_null(fmuc_inst_op_name(3, FMUC_INST_OP_CANCEL_STEP));
    char b[32];
    cr_assert_str_eq(fmuc_status_name(3, 2, b, sizeof b), "fmi3Discard");
}

/* ------------------------------------------ Co-Simulation with Event Mode (cs-event-mode) */

#define STAIR3 FMUC_FMU_DIR "/fmi3/good/Stair.fmu"

static void open_stair3(void)
{
    open_path(STAIR3);
}

/* Stair 3.0 (FMUC_M_CAP_CS_EVENT_MODE) made with eventModeUsed=true, earlyReturnAllowed as the
 * payload says and the logging intermediateUpdate: Event Mode after initialization, steps of
 * 0.3 s to 2.1 s (events at 1 s and 2 s inside steps), the event iteration after each
 * eventHandlingNeeded, the intermediateUpdate log. */
static int session_cs_event_mode(fmuc_worker_ctx *ctx, void *payload)
{
    int early_allowed = payload != NULL;
    cJSON *reply = fmuc_worker_reply(ctx);
    fmuc_inst_cs3_options opt = {.name = "t3ev", .event_mode_used = 1,
                                 .early_return_allowed = early_allowed, .intermediate_update = 1};
    fmuc_inst *in = fmuc_inst_instantiate_cs3(ctx, &opt);
    if (!in)
        return 1;
    fmuc_inst_experiment e = {0, 0.0, 0.0, 1, 10.0};
    fmuc_inst_event_info ev;
    fmuc_inst_step_info info;
    int st = fmuc_inst_setup_experiment(in, &e);
    st |= fmuc_inst_enter_initialization_mode(in);
    st |= fmuc_inst_exit_initialization_mode(in);
    st |= fmuc_inst_update_discrete_states(in, &ev); /* Event Mode after initialization */
    cJSON_AddNumberToObject(reply, "next_event", ev.next_event_time);
    st |= fmuc_inst_enter_step_mode(in);
    int early = 0, ehn = 0;
    double t = 0.0, last_early = NAN;
    for (int k = 0; k < 20 && st == 0 && t < 2.1 - 1e-9; k++) {
        double h = fmin(0.3, 2.1 - t);
        st |= fmuc_inst_do_step(in, t, h, 0, &info);
        early += info.early_return;
        if (info.early_return)
            last_early = info.last_successful_time;
        t = info.last_successful_time;
        if (info.event_handling_needed) {
            ehn++;
            st |= fmuc_inst_enter_event_mode(in);
            st |= fmuc_inst_update_discrete_states(in, &ev);
            st |= fmuc_inst_enter_step_mode(in);
        }
    }
    const fmuc_inst_iu_call *calls;
    size_t nkept, total = fmuc_inst_intermediate_log(in, &calls, &nkept);
    int inside = 1;
    for (size_t i = 0; i < nkept; i++)
        inside &= calls[i].time >= calls[i].tc && calls[i].time <= calls[i].tc + calls[i].h + 1e-9 &&
                  (calls[i].flags & FMUC_INST_IU_STEP_FINISHED) &&
                  !(calls[i].flags & FMUC_INST_IU_OUTSIDE_DO_STEP);
    cJSON_AddNumberToObject(reply, "st", st);
    cJSON_AddNumberToObject(reply, "t", t);
    cJSON_AddNumberToObject(reply, "early", early);
    cJSON_AddNumberToObject(reply, "last_early", isfinite(last_early) ? last_early : -1.0);
    cJSON_AddNumberToObject(reply, "ehn", ehn);
    cJSON_AddNumberToObject(reply, "iu_total", (double)total);
    cJSON_AddNumberToObject(reply, "iu_kept", (double)nkept);
    cJSON_AddNumberToObject(reply, "iu_inside", inside);
    fmuc_inst_terminate(in);
    fmuc_inst_free(in);
    return 0;
}

static void run_payload(fmuc_worker_fn fn, void *payload, fmuc_worker_outcome *o)
{
    fmuc_worker_spec spec;
    fmuc_diag d = {{0}, FMUC_OK};
    fmuc_worker_spec_init(&spec, &fmu, NULL);
    cr_assert_eq(fmuc_worker_run(&spec, fn, payload, o, &d), FMUC_OK, "%s", d.msg);
    cr_assert_eq(o->end, FMUC_WORKER_OK, "worker ended %s (%s)", fmuc_worker_end_name(o->end),
                 o->detail);
}

Test(inst_fmi3, cs_event_mode_early_return_and_intermediate_update, .init = open_stair3,
     .fini = close_fmu, .timeout = 60)
{
    fmuc_worker_outcome o;
    /* earlyReturnAllowed=false: steps end at tc+h, the events are taken inside the steps */
    run_payload(session_cs_event_mode, NULL, &o);
    cr_assert_eq(o.fn_status, 0);
    cr_assert_eq(num(&o, "st"), 0);
    cr_assert_eq(num(&o, "next_event"), 1.0);
    cr_assert_eq(num(&o, "early"), 0);
    cr_assert_eq(num(&o, "ehn"), 0);
    cr_assert_float_eq(num(&o, "t"), 2.1, 1e-9);
    cr_assert_eq(num(&o, "iu_total"), num(&o, "iu_kept"));
    cr_assert_geq(num(&o, "iu_total"), 7);
    cr_assert_eq(num(&o, "iu_inside"), 1);
    cr_assert(traced(&o, "fmi3InstantiateCoSimulation(instanceName=\"t3ev\"", "non-NULL"));
    cr_assert(traced(&o, "fmi3EnterStepMode", "fmi3OK"));
    fmuc_worker_outcome_free(&o);
    /* earlyReturnAllowed=true: the step over t=1 returns early there, Event Mode follows */
    static int yes = 1;
    run_payload(session_cs_event_mode, &yes, &o);
    cr_assert_eq(o.fn_status, 0);
    cr_assert_eq(num(&o, "st"), 0);
    cr_assert_eq(num(&o, "early"), 2);
    cr_assert_float_eq(num(&o, "last_early"), 2.0, 1e-9);
    cr_assert_eq(num(&o, "ehn"), 2);
    cr_assert_float_eq(num(&o, "t"), 2.1, 1e-9);
    cr_assert_eq(num(&o, "iu_inside"), 1);
    cr_assert(traced(&o, "fmi3EnterEventMode", "fmi3OK"));
    fmuc_worker_outcome_free(&o);
}

/* Configuration Mode (FMI 3.0.2 §3.2/§4.2): enter and exit go to fmi3EnterConfigurationMode and
 * fmi3ExitConfigurationMode, traced with 3.0's names. The Reference-FMU StateSpace (structural
 * parameters m, n, r) enters and leaves it; the glue's BouncingBall, without structural
 * parameters, refuses it. */
static int session_configuration(fmuc_worker_ctx *ctx, void *payload)
{
    (void)payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    fmuc_inst *in = fmuc_inst_instantiate(ctx, FMUC_IFACE_CS, NULL, "cfg");
    if (!in)
        return 1;
    cJSON_AddNumberToObject(reply, "enter", fmuc_inst_enter_configuration_mode(in));
    cJSON_AddNumberToObject(reply, "exit", fmuc_inst_exit_configuration_mode(in));
    fmuc_inst_free(in);
    return 0;
}

Test(inst_fmi3, configuration_mode_is_refused_without_structural_parameters, .init = open_bb,
     .fini = close_fmu, .timeout = 60)
{
    fmuc_worker_outcome o;
    run(session_configuration, &o);
    cr_assert_eq(num(&o, "enter"), FMUC_STATUS_ERROR);
    cr_assert(traced(&o, "fmi3EnterConfigurationMode(", "fmi3Error"));
    fmuc_worker_outcome_free(&o);
}

Test(inst_fmi3, configuration_mode_enters_and_exits_with_structural_parameters,
     .fini = close_fmu, .timeout = 60)
{
    const char *ss = FMUC_SHARED_DIR "/reference-fmus/fmi3/StateSpace.fmu";
    if (access(ss, R_OK) != 0)
        cr_skip("no %s", ss);
    open_path(ss);
    fmuc_worker_outcome o;
    run(session_configuration, &o);
    cr_assert_eq(num(&o, "enter"), FMUC_STATUS_OK);
    cr_assert_eq(num(&o, "exit"), FMUC_STATUS_OK);
    cr_assert(traced(&o, "fmi3EnterConfigurationMode(", "fmi3OK"));
    cr_assert(traced(&o, "fmi3ExitConfigurationMode(", "fmi3OK"));
    fmuc_worker_outcome_free(&o);
}
