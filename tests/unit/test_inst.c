/* The version-neutral instance API (fmuc_inst.h): the FMI 2.0 table traces every call exactly as
 * the fmi2 wrappers do, the not-provided status, enumerations through the Integer calls, and the
 * operation names that the state tables speak of. */
#include <criterion/criterion.h>

#include <string.h>

#include "fmuc/fmuc_inst.h"
#include "fmuc/fmuc_sim.h"
#include "fmuc_test_util.h"

#define SMD FMUC_FMU_DIR "/good/SpringMassDamper.fmu"

static fmuc_fmu fmu;

static void open_smd(void)
{
    fmuc_diag d = {{0}, FMUC_OK};
    cr_assert_eq(fmuc_fmu_open(&fmu, SMD, NULL, NULL, &d), FMUC_OK, "%s", d.msg);
}

static void close_smd(void)
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

/* one CS session with the given call path; replies the statuses */
static int session_inst(fmuc_worker_ctx *ctx, void *payload)
{
    (void)payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    fmuc_inst *in = fmuc_inst_instantiate(ctx, FMUC_IFACE_CS, NULL, "t");
    if (!in)
        return 1;
    fmuc_inst_experiment e = {0, 0.0, 0.0, 1, 1.0};
    fmuc_vr vr = var("x")->value_reference;
    double x = 0.0;
    int st = fmuc_inst_setup_experiment(in, &e);
    st |= fmuc_inst_enter_initialization_mode(in);
    st |= fmuc_inst_exit_initialization_mode(in);
    st |= fmuc_inst_do_step(in, 0.0, 0.1, 0, NULL);
    st |= fmuc_inst_get_float64(in, &vr, 1, &x);
    cJSON_AddNumberToObject(reply, "st", st);
    cJSON_AddNumberToObject(reply, "x", x);
    /* a base type FMI 2.0 does not have: not provided, and no trace entry */
    float f32 = 0.0f;
    cJSON_AddNumberToObject(reply, "f32", fmuc_inst_get(in, FMUC_INST_FLOAT32, &vr, 1, &f32, 1));
    /* nor adjoint derivatives (fmi3GetAdjointDerivative came with FMI 3.0) */
    double seed = 1.0, sens = 0.0;
    cJSON_AddNumberToObject(reply, "adj", fmuc_inst_get_adjoint_derivative(in, &vr, 1, &vr, 1,
                                                                           &seed, 1, &sens, 1));
    /* nor per-element dependencies (fmi3GetNumberOfVariableDependencies came with FMI 3.0) */
    size_t nd = 0;
    cJSON_AddNumberToObject(reply, "deps", fmuc_inst_get_number_of_variable_dependencies(in, vr,
                                                                                         &nd));
    /* nor clock intervals and shifts as fractions (FMI 3.0 only) */
    uint64_t cnt = 0, res = 0;
    int q = 0;
    cJSON_AddNumberToObject(reply, "ivfrac",
                            fmuc_inst_get_interval_fraction(in, &vr, 1, &cnt, &res, &q));
    cJSON_AddNumberToObject(reply, "shfrac", fmuc_inst_get_shift_fraction(in, &vr, 1, &cnt, &res));
    fmuc_inst_terminate(in);
    fmuc_inst_free(in);
    return 0;
}

static int session_fmi2(fmuc_worker_ctx *ctx, void *payload)
{
    (void)payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    const fmuc_fmi *f = fmuc_worker_load(ctx, fmi2CoSimulation);
    if (!f)
        return 1;
    fmi2Component c = fmuc_fmi_instantiate(f, fmi2CoSimulation, NULL, "t");
    if (!c)
        return 1;
    fmi2ValueReference vr = var("x")->value_reference;
    double x = 0.0;
    int st = fmuc_fmi_setupExperiment(f, c, 0, 0.0, 0.0, 1, 1.0);
    st |= fmuc_fmi_enterInitializationMode(f, c);
    st |= fmuc_fmi_exitInitializationMode(f, c);
    st |= fmuc_fmi_doStep(f, c, 0.0, 0.1, 0);
    st |= fmuc_fmi_getReal(f, c, &vr, 1, &x);
    cJSON_AddNumberToObject(reply, "st", st);
    cJSON_AddNumberToObject(reply, "x", x);
    fmuc_fmi_terminate(f, c);
    fmuc_fmi_freeInstance(f, c);
    return 0;
}

static void run(fmuc_worker_fn fn, fmuc_worker_outcome *o)
{
    fmuc_worker_spec spec;
    fmuc_diag d = {{0}, FMUC_OK};
    fmuc_worker_spec_init(&spec, &fmu, NULL);
    cr_assert_eq(fmuc_worker_run(&spec, fn, NULL, o, &d), FMUC_OK, "%s", d.msg);
    cr_assert_eq(o->end, FMUC_WORKER_OK, "worker ended %s", fmuc_worker_end_name(o->end));
    cr_assert_eq(o->fn_status, 0);
}

static char *calls_text(const fmuc_worker_outcome *o)
{
    cJSON *a = cJSON_CreateArray(), *it;
    cJSON_ArrayForEach(it, o->trace)
    {
        cJSON *c = cJSON_GetObjectItemCaseSensitive(it, "call");
        cJSON *s = cJSON_GetObjectItemCaseSensitive(it, "status");
        cJSON_AddItemToArray(a, cJSON_CreateString(cJSON_GetStringValue(c) ? c->valuestring : "?"));
        if (s)
            cJSON_AddItemToArray(a, cJSON_Duplicate(s, 1));
    }
    char *t = cJSON_PrintUnformatted(a);
    cJSON_Delete(a);
    return t;
}

Test(inst, fmi2_calls_are_traced_as_the_wrappers_trace_them, .init = open_smd, .fini = close_smd,
     .timeout = 60)
{
    fmuc_worker_outcome a, b;
    run(session_inst, &a);
    run(session_fmi2, &b);
    char *ta = calls_text(&a), *tb = calls_text(&b);
    cr_assert_str_eq(ta, tb);
    cr_assert_eq(a.ncalls, b.ncalls);
    cr_assert_eq(cJSON_GetObjectItem(a.reply, "st")->valueint, 0);
    cr_assert_eq(cJSON_GetObjectItem(a.reply, "x")->valuedouble,
                 cJSON_GetObjectItem(b.reply, "x")->valuedouble);
    cr_assert_eq(cJSON_GetObjectItem(a.reply, "f32")->valueint, FMUC_STATUS_NOT_PROVIDED);
    cr_assert_eq(cJSON_GetObjectItem(a.reply, "adj")->valueint, FMUC_STATUS_NOT_PROVIDED);
    cr_assert_eq(cJSON_GetObjectItem(a.reply, "deps")->valueint, FMUC_STATUS_NOT_PROVIDED);
    cr_assert_eq(cJSON_GetObjectItem(a.reply, "ivfrac")->valueint, FMUC_STATUS_NOT_PROVIDED);
    cr_assert_eq(cJSON_GetObjectItem(a.reply, "shfrac")->valueint, FMUC_STATUS_NOT_PROVIDED);
    cr_assert(strstr(ta, "fmi2DoStep") != NULL, "%s", ta);
    free(ta);
    free(tb);
    fmuc_worker_outcome_free(&a);
    fmuc_worker_outcome_free(&b);
}

static int enum_and_lib(fmuc_worker_ctx *ctx, void *payload)
{
    (void)payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    cJSON_AddBoolToObject(reply, "load", fmuc_inst_load(ctx, FMUC_IFACE_ME) == 0);
    cJSON_AddBoolToObject(reply, "has", fmuc_inst_lib_has(ctx, FMUC_IFACE_ME, "fmi2GetDerivatives"));
    const char *v = fmuc_inst_lib_version(ctx, FMUC_IFACE_ME);
    cJSON_AddStringToObject(reply, "version", v ? v : "");
    fmuc_inst *in = fmuc_inst_instantiate(ctx, FMUC_IFACE_ME, NULL, "t");
    if (!in)
        return 1;
    cJSON_AddNumberToObject(reply, "iface", fmuc_inst_iface(in));
    cJSON_AddNumberToObject(reply, "version_n", fmuc_inst_fmi_version(in));
    /* no enumeration in SpringMassDamper: an Integer call on a Real's reference is the FMU's
     * business; what matters is that the call went out as fmi2GetInteger */
    fmuc_vr vr = var("x")->value_reference;
    int64_t e = 0;
    fmuc_inst_get(in, FMUC_INST_ENUMERATION, &vr, 1, &e, 1);
    fmuc_inst_free(in);
    return 0;
}

Test(inst, library_queries_and_enumerations_as_integer_calls, .init = open_smd, .fini = close_smd,
     .timeout = 60)
{
    fmuc_worker_outcome o;
    run(enum_and_lib, &o);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(o.reply, "load")));
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(o.reply, "has")));
    cr_assert_str_eq(cJSON_GetObjectItem(o.reply, "version")->valuestring, "2.0");
    cr_assert_eq(cJSON_GetObjectItem(o.reply, "iface")->valueint, FMUC_IFACE_ME);
    cr_assert_eq(cJSON_GetObjectItem(o.reply, "version_n")->valueint, 2);
    char *t = calls_text(&o);
    cr_assert(strstr(t, "fmi2GetInteger") != NULL, "%s", t);
    free(t);
    fmuc_worker_outcome_free(&o);
}

Test(inst, operation_names_are_rows_of_the_state_table)
{
    for (int op = 0; op < FMUC_INST_NOPS; op++) {
        const char *n = fmuc_inst_op_name(2, (fmuc_inst_op)op);
        cr_assert_not_null(n, "op %d has no FMI 2.0 name", op);
        unsigned a, c;
        int me = fmuc_fmi2_states(n, FMUC_IFACE_ME, &a, &c);
        int cs = fmuc_fmi2_states(n, FMUC_IFACE_CS, &a, &c);
        cr_assert(me == 0 || cs == 0, "%s is in no state table", n);
    }
    cr_assert_null(fmuc_inst_op_name(4, FMUC_INST_OP_DO_STEP));
}

Test(inst, status_names_per_version)
{
    char b[32];
    cr_assert_str_eq(fmuc_status_name(2, FMUC_STATUS_ERROR, b, sizeof b), "fmi2Error");
    cr_assert_str_eq(fmuc_status_name(3, FMUC_STATUS_DISCARD, b, sizeof b), "fmi3Discard");
    cr_assert_str_eq(fmuc_status_name(1, FMUC_STATUS_PENDING, b, sizeof b), "fmiPending");
    cr_assert_str_eq(fmuc_status_name(3, FMUC_STATUS_PENDING, b, sizeof b), "invalid(5)");
    cr_assert_str_eq(fmuc_status_name(2, FMUC_STATUS_NOT_PROVIDED, b, sizeof b), "not provided");
    cr_assert_str_eq(fmuc_status_name(2, 42, b, sizeof b), "invalid(42)");
}

/* ---- the simulation driver's per-step hooks ---- */

typedef struct counts {
    int before, after, events, stop_after;
} counts;

static int h_before(void *u, fmuc_inst *in, double t, double h)
{
    (void)in;
    (void)t;
    (void)h;
    ((counts *)u)->before++;
    return 0;
}

static int h_after(void *u, fmuc_inst *in, double t)
{
    counts *c = u;
    (void)t;
    cr_assert_not_null(in);
    return ++c->after == c->stop_after;
}

static int h_event(void *u, fmuc_inst *in, double t, int kind)
{
    (void)in;
    (void)t;
    (void)kind;
    ((counts *)u)->events++;
    return 0;
}

static int hooked_run(fmuc_worker_ctx *ctx, void *payload)
{
    const int *mode = payload; /* 0 CS whole run, 1 CS stopped after 3 steps, 2 ME */
    counts c = {0, 0, 0, *mode == 1 ? 3 : -1};
    fmuc_sim_config cfg;
    fmuc_sim_result r;
    fmuc_diag d = {{0}, FMUC_OK};
    fmuc_sim_config_init(&cfg, *mode == 2 ? FMUC_IFACE_ME : FMUC_IFACE_CS);
    cfg.no_excitation = 1;
    cfg.hooks = (fmuc_sim_hooks){.user = &c, .before_step = h_before, .after_step = h_after,
                                 .at_event = h_event};
    int rc = fmuc_sim_run(ctx, &cfg, &r, &d);
    cJSON *reply = fmuc_worker_reply(ctx);
    cJSON_AddNumberToObject(reply, "rc", rc);
    cJSON_AddNumberToObject(reply, "steps", (double)r.steps);
    cJSON_AddNumberToObject(reply, "events", (double)r.nevents);
    cJSON_AddNumberToObject(reply, "before", c.before);
    cJSON_AddNumberToObject(reply, "after", c.after);
    cJSON_AddNumberToObject(reply, "at_event", c.events);
    cJSON_AddStringToObject(reply, "stop", r.stop_reason ? r.stop_reason : "");
    fmuc_sim_result_free(&r);
    return 0;
}

static int num(const cJSON *o, const char *k)
{
    return cJSON_GetObjectItem(o, k)->valueint;
}

Test(inst, simulation_hooks_before_and_after_each_step, .init = open_smd, .fini = close_smd,
     .timeout = 60)
{
    int modes[3] = {0, 1, 2};
    fmuc_worker_outcome o[3];
    for (int m = 0; m < 3; m++) {
        fmuc_worker_spec spec;
        fmuc_diag d = {{0}, FMUC_OK};
        fmuc_worker_spec_init(&spec, &fmu, NULL);
        cr_assert_eq(fmuc_worker_run(&spec, hooked_run, &modes[m], &o[m], &d), FMUC_OK);
        cr_assert_eq(o[m].end, FMUC_WORKER_OK);
    }
    /* CS: one before and one after per step (200 steps of the default experiment) */
    cr_assert_eq(num(o[0].reply, "rc"), 0);
    cr_assert_eq(num(o[0].reply, "steps"), 200);
    cr_assert_eq(num(o[0].reply, "before"), 200);
    cr_assert_eq(num(o[0].reply, "after"), 200);
    /* a hook that returns nonzero stops the run there */
    cr_assert_eq(num(o[1].reply, "rc"), 1);
    cr_assert_eq(num(o[1].reply, "steps"), 3);
    cr_assert(strstr(cJSON_GetObjectItem(o[1].reply, "stop")->valuestring, "hook"));
    /* ME: every accepted integrator step, and every event after the initial one */
    cr_assert_eq(num(o[2].reply, "rc"), 0);
    cr_assert_eq(num(o[2].reply, "before"), num(o[2].reply, "steps"));
    cr_assert_eq(num(o[2].reply, "after"), num(o[2].reply, "steps"));
    cr_assert_eq(num(o[2].reply, "at_event"), num(o[2].reply, "events") - 1);
    for (int m = 0; m < 3; m++)
        fmuc_worker_outcome_free(&o[m]);
}

/* ---- guarded buffers (issue 18): the FMU gets guarded copies, the caller's arrays stay intact */

static void open_path(const char *p)
{
    fmuc_diag d = {{0}, FMUC_OK};
    cr_assert_eq(fmuc_fmu_open(&fmu, p, NULL, NULL, &d), FMUC_OK, "%s: %s", p, d.msg);
}
static void open_overrun(void)
{
    open_path(FMUC_FMU_DIR "/broken/api-buffer-bounds.fmu");
}
static void open_overrun_far(void)
{
    open_path(FMUC_FMU_DIR "/broken/api-buffer-bounds--far.fmu");
}
static void open_const_vr(void)
{
    open_path(FMUC_FMU_DIR "/broken/api-buffer-bounds--const-vr.fmu");
}

/* fmi2GetReal of two references into an array with a neighbour behind it */
static int guarded_get(fmuc_worker_ctx *ctx, void *payload)
{
    (void)payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    fmuc_inst *in = fmuc_inst_instantiate(ctx, FMUC_IFACE_CS, NULL, "t");
    if (!in)
        return 1;
    fmuc_inst_experiment e = {0, 0.0, 0.0, 1, 1.0};
    fmuc_inst_setup_experiment(in, &e);
    fmuc_inst_enter_initialization_mode(in);
    fmuc_inst_exit_initialization_mode(in);
    fmuc_vr vr[2] = {var("x")->value_reference, var("v")->value_reference};
    fmuc_vr keep[2] = {vr[0], vr[1]};
    struct {
        double v[2];
        double after;
    } b = {{0.0, 0.0}, 42.0};
    cJSON_AddNumberToObject(reply, "st", fmuc_inst_get_float64(in, vr, 2, b.v));
    cJSON_AddNumberToObject(reply, "after", b.after);
    cJSON_AddBoolToObject(reply, "vr_same", memcmp(vr, keep, sizeof vr) == 0);
    fmuc_inst_terminate(in);
    fmuc_inst_free(in);
    return 0;
}

static const cJSON *only_violation(const fmuc_worker_outcome *o)
{
    cr_assert(cJSON_IsArray(o->buffer_violations), "no buffer_violations");
    cr_assert_eq(cJSON_GetArraySize(o->buffer_violations), 1);
    cr_assert_eq(o->buffer_violations_total, 1);
    return cJSON_GetArrayItem(o->buffer_violations, 0);
}

static const char *jstr(const cJSON *v, const char *k)
{
    return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, k));
}

static double jnum(const cJSON *v, const char *k)
{
    return cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(v, k));
}

Test(inst, a_write_past_nvr_is_caught_and_the_callers_memory_kept, .init = open_overrun,
     .fini = close_smd, .timeout = 60)
{
    fmuc_worker_outcome o;
    run(guarded_get, &o);
    cr_assert_eq(jnum(o.reply, "after"), 42.0);
    const cJSON *v = only_violation(&o);
    cr_assert_str_eq(jstr(v, "function"), "fmi2GetReal");
    cr_assert_str_eq(jstr(v, "kind"), "overrun");
    cr_assert_str_eq(jstr(v, "array"), "value");
    cr_assert_eq(jnum(v, "length"), 2);
    cr_assert_eq(jnum(v, "bytesPast"), 8);
    cr_assert_eq(jnum(v, "elementsPast"), 1);
    cr_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(v, "beyondGuard")));
    fmuc_worker_outcome_free(&o);
}

/* a write over the whole guard zone: the distance seen is a lower bound (beyondGuard) */
Test(inst, a_write_over_the_whole_guard_is_a_lower_bound, .init = open_overrun_far,
     .fini = close_smd, .timeout = 60)
{
    fmuc_worker_outcome o;
    run(guarded_get, &o);
    const cJSON *v = only_violation(&o);
    cr_assert_str_eq(jstr(v, "kind"), "overrun");
    cr_assert_eq(jnum(v, "bytesPast"), 64);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(v, "beyondGuard")));
    fmuc_worker_outcome_free(&o);
}

Test(inst, a_change_of_the_const_vr_is_caught_and_the_callers_array_kept, .init = open_const_vr,
     .fini = close_smd, .timeout = 60)
{
    fmuc_worker_outcome o;
    run(guarded_get, &o);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(o.reply, "vr_same")));
    const cJSON *v = only_violation(&o);
    cr_assert_str_eq(jstr(v, "function"), "fmi2GetReal");
    cr_assert_str_eq(jstr(v, "kind"), "input-changed");
    cr_assert_str_eq(jstr(v, "array"), "vr");
    cr_assert_eq(jnum(v, "index"), 1);
    fmuc_worker_outcome_free(&o);
}

Test(inst, a_good_fmu_leaves_the_guards_alone, .init = open_smd, .fini = close_smd, .timeout = 60)
{
    fmuc_worker_outcome o;
    run(guarded_get, &o);
    cr_assert_eq(jnum(o.reply, "st"), 0);
    cr_assert_null(o.buffer_violations);
    cr_assert_eq(o.buffer_violations_total, 0);
    fmuc_worker_outcome_free(&o);
}

/* The single value of a status query is guarded too (issue 18 item 1): fmi2GetRealStatus of the
 * fixture writes a second fmi2Real behind it; the caller's neighbour stays, the call is named. */
static void open_status_overrun(void)
{
    open_path(FMUC_FMU_DIR "/broken/api-buffer-bounds--status.fmu");
}

static int guarded_status(fmuc_worker_ctx *ctx, void *payload)
{
    (void)payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    fmuc_inst *in = fmuc_inst_instantiate(ctx, FMUC_IFACE_CS, NULL, "t");
    if (!in)
        return 1;
    fmuc_inst_experiment e = {0, 0.0, 0.0, 1, 1.0};
    fmuc_inst_setup_experiment(in, &e);
    fmuc_inst_enter_initialization_mode(in);
    fmuc_inst_exit_initialization_mode(in);
    fmuc_inst_do_step(in, 0.0, 0.1, 1, NULL);
    struct {
        double t;
        double after;
    } b = {0.0, 42.0};
    int term = 0;
    cJSON_AddNumberToObject(reply, "st",
                            fmuc_inst_cs_status(in, FMUC_INST_Q_LAST_SUCCESSFUL_TIME, &b.t));
    fmuc_inst_cs_status(in, FMUC_INST_Q_TERMINATED, &term);
    cJSON_AddNumberToObject(reply, "t", b.t);
    cJSON_AddNumberToObject(reply, "after", b.after);
    fmuc_inst_terminate(in);
    fmuc_inst_free(in);
    return 0;
}

Test(inst, a_status_query_writing_two_values_is_caught, .init = open_status_overrun,
     .fini = close_smd, .timeout = 60)
{
    fmuc_worker_outcome o;
    run(guarded_status, &o);
    cr_assert_eq(jnum(o.reply, "st"), 0);
    cr_assert_eq(jnum(o.reply, "t"), 0.1);
    cr_assert_eq(jnum(o.reply, "after"), 42.0);
    const cJSON *v = only_violation(&o);
    cr_assert_str_eq(jstr(v, "function"), "fmi2GetRealStatus");
    cr_assert_str_eq(jstr(v, "kind"), "overrun");
    cr_assert_str_eq(jstr(v, "array"), "value");
    cr_assert_eq(jnum(v, "length"), 1);
    cr_assert_eq(jnum(v, "bytesPast"), 8);
    fmuc_worker_outcome_free(&o);
}

Test(inst, a_good_fmu_answers_status_queries_within_their_value, .init = open_smd,
     .fini = close_smd, .timeout = 60)
{
    fmuc_worker_outcome o;
    run(guarded_status, &o);
    cr_assert_eq(jnum(o.reply, "after"), 42.0);
    cr_assert_null(o.buffer_violations);
    fmuc_worker_outcome_free(&o);
}
