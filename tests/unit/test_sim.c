/* Simulation driver: CS and ME runs of SpringMassDamper against the analytic damped oscillation,
 * input CSV parsing (errors name file, line and column; interpolation and hold), the
 * deterministic excitation, the JSON round trip and the §D state tables. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmuc/fmuc_sim.h"
#include "fmuc_test_util.h"

#define SMD FMUC_FMU_DIR "/good/SpringMassDamper.fmu"

static fmuc_fmu fmu;
static fmuc_options opts;

static void open_smd(void)
{
    fmuc_diag d = {{0}, FMUC_OK};
    cr_assert_eq(fmuc_fmu_open(&fmu, SMD, NULL, NULL, &d), FMUC_OK, "%s", d.msg);
    fmuc_options_init(&opts);
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

static void run_sim(fmuc_iface iface, fmuc_sim_config *cfg, fmuc_sim_result *r)
{
    fmuc_worker_outcome o;
    fmuc_result res;
    fmuc_result_init(&res, "t-sim", "t", "spec", FMUC_LEVEL_MUST);
    (void)iface;
    int rc = fmuc_sim_run_isolated(&fmu, &opts, cfg, "test", r, &o, &res);
    cr_assert_eq(rc, 0, "run failed: %s", res.nmessages ? res.messages[0] : "?");
    fmuc_worker_outcome_free(&o);
    fmuc_result_clear(&res);
}

static double max_err_x(const fmuc_sim_result *r)
{
    long cx = fmuc_sim_column_find(r, "x");
    cr_assert_geq(cx, 0);
    double e = 0.0;
    for (size_t k = 0; k < r->npoints; k++) {
        double d = fabs(fmuc_sim_value(r, k, (size_t)cx) - analytic_x(r->times[k]));
        if (!(d <= e))
            e = d;
    }
    return e;
}

Test(sim, cs_run_matches_analytic_oscillation, .init = open_smd, .fini = close_smd, .timeout = 30)
{
    fmuc_sim_config cfg;
    fmuc_sim_result r;
    fmuc_sim_config_init(&cfg, FMUC_IFACE_CS);
    cfg.no_excitation = 1;
    run_sim(FMUC_IFACE_CS, &cfg, &r);
    cr_assert(r.completed);
    cr_assert_null(r.stop_reason, "%s", r.stop_reason);
    cr_assert_eq(r.npoints, 201); /* DefaultExperiment 0..2 s, stepSize 0.01 */
    cr_assert_float_eq(r.times[r.npoints - 1], 2.0, 1e-12);
    cr_assert_eq(r.steps, 200);
    cr_assert_eq(r.status_counts[FMUC_SIM_FN_DoStep][fmi2OK], 200);
    cr_assert_eq(r.status_counts[FMUC_SIM_FN_Terminate][fmi2OK], 1);
    double e = max_err_x(&r);
    cr_assert_lt(e, 1e-7, "max |x - analytic| = %g", e);
    fmuc_sim_result_free(&r);
}

/* max_steps: a short session of the first steps of the grid (api-resources-released), CS and ME;
 * a limit beyond the experiment changes nothing. */
Test(sim, max_steps_ends_the_run_early, .init = open_smd, .fini = close_smd, .timeout = 30)
{
    fmuc_iface ifs[2] = {FMUC_IFACE_CS, FMUC_IFACE_ME};
    for (int i = 0; i < 2; i++) {
        fmuc_sim_config cfg;
        fmuc_sim_result r;
        fmuc_sim_config_init(&cfg, ifs[i]);
        cfg.max_steps = 10;
        run_sim(ifs[i], &cfg, &r);
        cr_assert(r.completed, "%s", r.stop_reason ? r.stop_reason : "");
        cr_expect_eq(r.npoints, 11);
        cr_expect_float_eq(r.stop, 0.1, 1e-12);
        cr_expect_float_eq(r.times[r.npoints - 1], 0.1, 1e-12);
        fmuc_sim_result_free(&r);
        cfg.max_steps = 1000;
        run_sim(ifs[i], &cfg, &r);
        cr_expect_eq(r.npoints, 201);
        cr_expect_float_eq(r.stop, 2.0, 1e-12);
        fmuc_sim_result_free(&r);
    }
}

Test(sim, me_run_with_cvode_matches_analytic, .init = open_smd, .fini = close_smd, .timeout = 30)
{
    fmuc_sim_config cfg;
    fmuc_sim_result r;
    fmuc_sim_config_init(&cfg, FMUC_IFACE_ME);
    cfg.no_excitation = 1;
    run_sim(FMUC_IFACE_ME, &cfg, &r);
    cr_assert(r.completed);
    cr_assert_null(r.stop_reason, "%s", r.stop_reason);
    cr_assert_eq(r.npoints, 201);
    cr_assert_gt(r.steps, 20);
    cr_assert_gt(r.rhs_evals, r.steps);
    /* one CompletedIntegratorStep per accepted step, no failures */
    cr_assert_eq(r.status_counts[FMUC_SIM_FN_CompletedIntegratorStep][fmi2OK], r.steps);
    cr_assert_eq(r.nbad, 0);
    cr_assert_geq(r.nevents, 1); /* the initial event iteration */
    cr_assert_eq(r.events[0].kind, FMUC_SIM_EV_INIT);
    double e = max_err_x(&r);
    cr_assert_lt(e, 2e-4, "max |x - analytic| = %g", e);
    fmuc_sim_result_free(&r);
}

static char *write_tmp(const char *dir, const char *name, const char *text)
{
    char *p = malloc(4096);
    snprintf(p, 4096, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    cr_assert(f);
    fputs(text, f);
    fclose(f);
    return p;
}

static void expect_csv_error(const char *text, const char *where, const char *what)
{
    char *dir = fmuc_test_mkdtemp("simcsv");
    char *p = write_tmp(dir, "in.csv", text);
    fmuc_sim_input in;
    fmuc_diag d = {{0}, FMUC_OK};
    cr_assert_eq(fmuc_sim_input_load_csv(&in, p, &fmu.md, &d), FMUC_EINPUT, "accepted: %s", text);
    char want[4200];
    snprintf(want, sizeof want, "%s:%s", p, where);
    cr_assert(strstr(d.msg, want), "message '%s' does not name '%s'", d.msg, want);
    cr_assert(strstr(d.msg, what), "message '%s' does not mention '%s'", d.msg, what);
    cr_assert_eq(in.ncols, 0);
    fmuc_test_rm_rf(dir);
    free(dir);
    free(p);
}

Test(sim, csv_errors_name_file_line_and_column, .init = open_smd, .fini = close_smd, .timeout = 30)
{
    expect_csv_error("time,F\n0,0\n0.5,abc\n", "3:2:", "abc");
    expect_csv_error("time,F,G\n0,0,0\n", "1:3:", "'G'");
    expect_csv_error("time,x\n0,0\n", "1:2:", "not an input");
    expect_csv_error("time,F\n0,0\n1\n", "3:", "fields");
    expect_csv_error("time,F\n1,0\n0.5,1\n", "3:1:", "before");
    expect_csv_error("time,F\n# only a comment\n", "2:", "no data");
    expect_csv_error("time,F\nzero,1\n", "2:1:", "zero");
}

Test(sim, csv_inputs_interpolate_continuous_reals, .init = open_smd, .fini = close_smd, .timeout = 30)
{
    char *dir = fmuc_test_mkdtemp("simcsv");
    char *p = write_tmp(dir, "in.csv", "# comment\ntime, \"F\"\n0, 0\n1, 10\n2, 10\n");
    fmuc_sim_input in;
    fmuc_diag d = {{0}, FMUC_OK};
    cr_assert_eq(fmuc_sim_input_load_csv(&in, p, &fmu.md, &d), FMUC_OK, "%s", d.msg);
    cr_assert_eq(in.ncols, 1);
    cr_assert_eq(in.npoints, 3);
    cr_assert_float_eq(fmuc_sim_input_value(&in, 0, 0.25), 2.5, 1e-12);
    cr_assert_float_eq(fmuc_sim_input_value(&in, 0, -1.0), 0.0, 1e-12);
    cr_assert_float_eq(fmuc_sim_input_value(&in, 0, 1.5), 10.0, 1e-12);
    cr_assert_float_eq(fmuc_sim_input_value(&in, 0, 5.0), 10.0, 1e-12);
    fmuc_sim_input_free(&in);

    /* a constant force F shifts the equilibrium to F/k: CS run driven by the CSV */
    char *p2 = write_tmp(dir, "f.csv", "time,F\n0,6\n2,6\n");
    fmuc_sim_config cfg;
    fmuc_sim_result r;
    fmuc_sim_config_init(&cfg, FMUC_IFACE_CS);
    cfg.input_csv = p2;
    cfg.stop = 20.0;
    cfg.step = 0.05;
    run_sim(FMUC_IFACE_CS, &cfg, &r);
    long cx = fmuc_sim_column_find(&r, "x"), cf = fmuc_sim_column_find(&r, "F");
    cr_assert_geq(cf, 0, "inputs are recorded");
    cr_assert_float_eq(fmuc_sim_value(&r, r.npoints - 1, (size_t)cf), 6.0, 1e-12);
    cr_assert_float_eq(fmuc_sim_value(&r, r.npoints - 1, (size_t)cx), 6.0 / 120.0, 2e-4);
    fmuc_sim_result_free(&r);
    fmuc_test_rm_rf(dir);
    free(dir);
    free(p);
    free(p2);
}

Test(sim, excitation_is_deterministic_and_documented, .init = open_smd, .fini = close_smd, .timeout = 30)
{
    fmuc_sim_input in;
    fmuc_diag d = {{0}, FMUC_OK};
    cr_assert_eq(fmuc_sim_input_excitation(&in, &fmu.md, 0.0, 2.0, &d), FMUC_OK);
    cr_assert_eq(in.ncols, 1); /* F */
    cr_assert_str_eq(in.cols[0].kind, "swing");
    /* F: no bounds, start 0, no nominal -> 0.1*(1-cos(2 pi tau))/2, from the start value up */
    cr_assert_float_eq(fmuc_sim_input_value(&in, 0, 0.0), 0.0, 1e-12);
    cr_assert_float_eq(fmuc_sim_input_value(&in, 0, 0.5), 0.05, 1e-12);
    cr_assert_float_eq(fmuc_sim_input_value(&in, 0, 1.0), 0.1, 1e-12);
    cJSON *j = fmuc_sim_input_to_json(&in);
    cJSON *c0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "inputs"), 0);
    cr_assert_str_eq(cJSON_GetObjectItem(c0, "pattern")->valuestring, "swing");
    cr_assert_float_eq(cJSON_GetObjectItem(c0, "amplitude")->valuedouble, 0.1, 0);
    cJSON_Delete(j);
    fmuc_sim_input_free(&in);

    fmuc_sim_config cfg;
    fmuc_sim_result a, b;
    fmuc_sim_config_init(&cfg, FMUC_IFACE_CS);
    cfg.no_excitation = 0; /* the default: the excitation */
    run_sim(FMUC_IFACE_CS, &cfg, &a);
    run_sim(FMUC_IFACE_CS, &cfg, &b);
    cr_assert_eq(a.npoints, b.npoints);
    cr_assert_eq(a.ncols, b.ncols);
    cr_assert_eq(memcmp(a.values, b.values, a.npoints * a.ncols * sizeof(double)), 0);
    long cf = fmuc_sim_column_find(&a, "F");
    cr_assert_geq(cf, 0);
    /* the row at t = 0.5 shows the input held over the step from 0.49 (CS: no set before get) */
    cr_assert_float_eq(fmuc_sim_value(&a, 50, (size_t)cf),
                       0.05 * (1.0 - cos(2.0 * M_PI * 0.49 / 2.0)), 1e-9);
    cr_assert_str_eq(cJSON_GetObjectItem(a.inputs, "source")->valuestring, "excitation");
    fmuc_sim_result_free(&a);
    fmuc_sim_result_free(&b);
}

/* Cause 5 of issue 16: the excitation stays within [min, max] and near start/nominal, keeps the
 * sign of the start value (no 0 Pa pressure, no reversed flow) and starts at the start value. */
static const char EXC_XML[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"E\" guid=\"{e}\">\n"
    "<CoSimulation modelIdentifier=\"E\"/>\n"
    "<TypeDefinitions><SimpleType name=\"Pressure\"><Real unit=\"Pa\" min=\"0\" "
    "nominal=\"1e5\"/></SimpleType>\n"
    "<SimpleType name=\"Mode\"><Enumeration><Item name=\"a\" value=\"1\"/><Item name=\"b\" "
    "value=\"2\"/><Item name=\"c\" value=\"3\"/></Enumeration></SimpleType></TypeDefinitions>\n"
    "<ModelVariables>\n"
    "<ScalarVariable name=\"p\" valueReference=\"1\" causality=\"input\"><Real "
    "declaredType=\"Pressure\" start=\"2e5\"/></ScalarVariable>\n"
    "<ScalarVariable name=\"p0\" valueReference=\"2\" causality=\"input\"><Real "
    "declaredType=\"Pressure\" start=\"0\"/></ScalarVariable>\n"
    "<ScalarVariable name=\"q\" valueReference=\"3\" causality=\"input\"><Real start=\"-0.5\" "
    "min=\"-0.52\" max=\"0\"/></ScalarVariable>\n"
    "<ScalarVariable name=\"near_max\" valueReference=\"4\" causality=\"input\"><Real "
    "start=\"9.9\" min=\"0\" max=\"10\" nominal=\"10\"/></ScalarVariable>\n"
    "<ScalarVariable name=\"n\" valueReference=\"5\" causality=\"input\" "
    "variability=\"discrete\"><Integer start=\"3\" min=\"0\" max=\"3\"/></ScalarVariable>\n"
    "<ScalarVariable name=\"m\" valueReference=\"6\" causality=\"input\" "
    "variability=\"discrete\"><Enumeration declaredType=\"Mode\" start=\"2\" "
    "min=\"1\" max=\"2\"/></ScalarVariable>\n"
    "<ScalarVariable name=\"on\" valueReference=\"7\" causality=\"input\" "
    "variability=\"discrete\"><Boolean start=\"true\"/></ScalarVariable>\n"
    "<ScalarVariable name=\"big\" valueReference=\"8\" causality=\"input\"><Real start=\"1e5\" "
    "min=\"0\" max=\"1e10\"/></ScalarVariable>\n"
    "</ModelVariables>\n<ModelStructure/>\n</fmiModelDescription>\n";

Test(sim, excitation_stays_within_bounds_near_start, .timeout = 30)
{
    fmuc_md md;
    cr_assert_eq(fmuc_md_parse(&md, EXC_XML, strlen(EXC_XML), NULL), FMUC_OK);
    fmuc_sim_input in;
    fmuc_diag d = {{0}, FMUC_OK};
    cr_assert_eq(fmuc_sim_input_excitation(&in, &md, 0.0, 10.0, &d), FMUC_OK);
    cr_assert_eq(in.ncols, 8);
    /* {start, lowest allowed, highest allowed} per input (within min/max and 10 % of the
     * start value's scale, on the start value's side of zero) */
    const double want[8][3] = {
        {2e5, 2e5, 2.2e5},  /* p: start 2e5, min 0 of the type: 2e5 .. 2.2e5, never 0 Pa */
        {0.0, 0.0, 1e4},    /* p0: start 0: by 10 % of the type's nominal, upwards (min 0) */
        {-0.5, -0.52, -0.45}, /* q: min too near below: towards 0, but stays negative */
        {9.9, 8.9, 10.0},   /* near_max: max is nearer, so downwards */
        {3.0, 2.0, 3.0},    /* n: Integer at max: one down */
        {2.0, 1.0, 2.0},    /* m: the start item and another one within [min, max] */
        {1.0, 0.0, 1.0},    /* on */
        {1e5, 1e5, 1.1e5},  /* big: not the middle of [0, 1e10] */
    };
    for (size_t c = 0; c < in.ncols; c++) {
        double lo = HUGE_VAL, hi = -HUGE_VAL;
        for (int k = 0; k <= 1000; k++) {
            double x = fmuc_sim_input_value(&in, c, 0.01 * k);
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
        cr_expect_float_eq(fmuc_sim_input_value(&in, c, 0.0), want[c][0], 1e-9,
                           "%s starts at its start value", in.cols[c].var->name);
        cr_expect(lo >= want[c][1] - 1e-9 && hi <= want[c][2] + 1e-9,
                  "%s ranges over [%g, %g], allowed [%g, %g]", in.cols[c].var->name, lo, hi,
                  want[c][1], want[c][2]);
        cr_expect(hi > lo, "%s moves", in.cols[c].var->name);
    }
    fmuc_sim_input_free(&in);
    fmuc_md_free(&md);
}

Test(sim, result_json_round_trip_and_evidence, .init = open_smd, .fini = close_smd, .timeout = 30)
{
    fmuc_sim_config cfg;
    fmuc_sim_result r, back;
    fmuc_sim_config_init(&cfg, FMUC_IFACE_ME);
    cfg.record_all_reals = 1;
    run_sim(FMUC_IFACE_ME, &cfg, &r);
    cr_assert_geq(fmuc_sim_column_find(&r, "der(v)"), 0);
    cJSON *j = fmuc_sim_result_to_json(&r);
    cr_assert_eq(fmuc_sim_result_from_json(&back, j), FMUC_OK);
    cr_assert_eq(back.npoints, r.npoints);
    cr_assert_eq(back.ncols, r.ncols);
    cr_assert_eq(memcmp(back.values, r.values, r.npoints * r.ncols * sizeof(double)), 0);
    cr_assert_eq(back.steps, r.steps);
    cr_assert_eq(back.nevents, r.nevents);
    cr_assert_eq(memcmp(back.status_counts, r.status_counts, sizeof r.status_counts), 0);
    cJSON_Delete(j);

    cJSON *ev = cJSON_CreateObject();
    fmuc_sim_add_plots(&r, ev, "outputs");
    fmuc_sim_add_summary(&r, ev);
    cJSON *plots = cJSON_GetObjectItem(ev, "plots");
    cr_assert(cJSON_IsArray(plots));
    cr_assert_geq(cJSON_GetArraySize(plots), 2); /* grouped by unit */
    cJSON *p0 = cJSON_GetArrayItem(plots, 0);
    double *xv = NULL, *yv = NULL;
    long nx = fmuc_evidence_numbers_read(cJSON_GetObjectItem(p0, "x"), 1000000, &xv);
    cr_assert_eq((size_t)nx, r.npoints);
    for (size_t k = 0; k < r.npoints; k++)
        cr_assert_eq(xv[k], r.times[k], "x[%zu] is not exact", k); /* %.17g round-trips */
    cJSON *s0 = cJSON_GetArrayItem(cJSON_GetObjectItem(p0, "series"), 0);
    cr_assert_eq(fmuc_evidence_numbers_read(cJSON_GetObjectItem(s0, "y"), 1000000, &yv), nx);
    free(xv);
    free(yv);
    cr_assert(cJSON_IsNumber(cJSON_GetObjectItem(cJSON_GetObjectItem(ev, "final_values"), "x")));
    cJSON_Delete(ev);
    fmuc_sim_result_free(&back);
    fmuc_sim_result_free(&r);
}

Test(sim, state_tables_are_data)
{
    unsigned a, c;
    cr_assert_eq(fmuc_fmi2_states("fmi2DoStep", FMUC_IFACE_CS, &a, &c), 0);
    cr_assert_eq(a, FMUC_ST_SC);
    cr_assert_eq(c, 0);
    cr_assert_eq(fmuc_fmi2_states("fmi2DoStep", FMUC_IFACE_ME, &a, &c), -1);
    cr_assert_eq(fmuc_fmi2_states("fmi2SetTime", FMUC_IFACE_ME, &a, &c), 0);
    cr_assert_eq(a, FMUC_ST_CTM);
    cr_assert_eq(c, FMUC_ST_EM);
    cr_assert_eq(fmuc_fmi2_states("fmi2GetReal", FMUC_IFACE_ME, &a, &c), 0);
    cr_assert(!(a & FMUC_ST_INST) && !(c & FMUC_ST_INST));
    cr_assert(c & FMUC_ST_INIT);
    cr_assert_eq(fmuc_fmi2_states("fmi2GetNominalsOfContinuousStates", FMUC_IFACE_ME, &a, &c), 0);
    cr_assert(a & FMUC_ST_INST);
    cr_assert_eq(fmuc_fmi2_states("fmi2Nope", FMUC_IFACE_CS, &a, &c), -1);
    cr_assert_str_eq(fmuc_fmi2_state_name(FMUC_ST_EM), "eventMode");
}
