/* Tests of the fmuc FMI 2.0 glue through the SpringMassDamper reference FMU (dlopen of the built
 * library): exports, instantiation rules, state machine, variable validation, CS/ME numerics,
 * directional derivatives, FMU state and serialization, reset, memory callbacks, logging. */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmi2/fmi2.h"

#define SMD_DIR FMUC_BUILD_DIR "/reference_fmus"
#define SMD_LIB SMD_DIR "/fmulib/SpringMassDamper/SpringMassDamper.so"
#define SMD_XML SMD_DIR "/mdgen/SpringMassDamper/modelDescription.xml"

enum { VR_TIME = 0, VR_X, VR_V, VR_DER_X, VR_DER_V, VR_E, VR_F, VR_M, VR_K, VR_C, VR_X0 };

typedef struct {
    void *h;
#define API_MEMBER_(ret, name, params, iface) name##TYPE name;
    FMUC_FMI2_FUNCTIONS(API_MEMBER_)
#undef API_MEMBER_
} api;

static api A;
static char guid[64];
static long n_alloc, n_free;
static int n_log, n_bad_category, n_bad_env;
static fmi2Status last_status;
static char last_msg[2048];
static int env_token;

static const char *const declared[] = {"logEvents", "logStatusWarning", "logStatusDiscard",
                                       "logStatusError", "logStatusFatal", "logAll"};

static void logger(fmi2ComponentEnvironment env, fmi2String name, fmi2Status st, fmi2String cat,
                   fmi2String msg, ...)
{
    (void)name;
    if (env != &env_token)
        n_bad_env++;
    int ok = cat == NULL;
    for (size_t i = 0; cat && i < sizeof declared / sizeof declared[0]; i++)
        ok |= strcmp(cat, declared[i]) == 0;
    if (!ok)
        n_bad_category++;
    va_list ap;
    va_start(ap, msg);
    vsnprintf(last_msg, sizeof last_msg, msg, ap);
    va_end(ap);
    last_status = st;
    n_log++;
}

static void *alloc_cb(size_t n, size_t s)
{
    n_alloc++;
    return calloc(n, s);
}

static void free_cb(void *p)
{
    if (p)
        n_free++;
    free(p);
}

static const fmi2CallbackFunctions cbs = {logger, alloc_cb, free_cb, NULL, &env_token};

static void load(void)
{
    A.h = dlopen(SMD_LIB, RTLD_NOW | RTLD_LOCAL);
    cr_assert(A.h, "dlopen %s: %s", SMD_LIB, dlerror());
#define API_LOAD_(ret, name, params, iface)                                                        \
    *(void **)&A.name = dlsym(A.h, #name);                                                         \
    cr_assert(A.name, "missing %s", #name);
    FMUC_FMI2_FUNCTIONS(API_LOAD_)
#undef API_LOAD_
    FILE *f = fopen(SMD_XML, "r");
    cr_assert(f);
    static char xml[65536];
    size_t n = fread(xml, 1, sizeof xml - 1, f);
    fclose(f);
    xml[n] = 0;
    const char *g = strstr(xml, " guid=\"");
    cr_assert(g);
    g += 7;
    size_t len = strcspn(g, "\"");
    cr_assert(len < sizeof guid);
    memcpy(guid, g, len);
    guid[len] = 0;
}

static void unload(void)
{
    if (A.h)
        dlclose(A.h);
}

TestSuite(glue, .init = load, .fini = unload);

static fmi2Component inst(fmi2Type t)
{
    fmi2Component c = A.fmi2Instantiate("smd", t, guid, NULL, &cbs, fmi2False, fmi2False);
    cr_assert(c, "instantiate: %s", last_msg);
    return c;
}

static fmi2Component inst_init(fmi2Type t)
{
    fmi2Component c = inst(t);
    cr_assert_eq(A.fmi2SetupExperiment(c, fmi2False, 0, 0.0, fmi2False, 0), fmi2OK);
    cr_assert_eq(A.fmi2EnterInitializationMode(c), fmi2OK);
    cr_assert_eq(A.fmi2ExitInitializationMode(c), fmi2OK);
    return c;
}

static double get1(fmi2Component c, fmi2ValueReference vr)
{
    double v = NAN;
    cr_assert_eq(A.fmi2GetReal(c, &vr, 1, &v), fmi2OK, "GetReal %u: %s", vr, last_msg);
    return v;
}

static fmi2Status set1(fmi2Component c, fmi2ValueReference vr, double v)
{
    return A.fmi2SetReal(c, &vr, 1, &v);
}

static void run_cs(fmi2Component c, double t0, int n, double h)
{
    for (int i = 0; i < n; i++)
        cr_assert_eq(A.fmi2DoStep(c, t0 + i * h, h, fmi2True), fmi2OK, "step %d: %s", i, last_msg);
}

static double exact_x(double t)
{
    double m = 2.5, k = 120.0, c = 3.0, x0 = 0.05;
    double w0 = sqrt(k / m), z = c / (2.0 * sqrt(k * m)), wd = w0 * sqrt(1.0 - z * z);
    return exp(-z * w0 * t) * (x0 * cos(wd * t) + (z * w0 * x0 / wd) * sin(wd * t));
}

Test(glue, exports_exactly_the_44_fmi2_functions)
{
    FILE *p = popen("nm -D --defined-only " SMD_LIB, "r");
    cr_assert(p);
    char line[512];
    int n_fmi2 = 0, n_other = 0;
    while (fgets(line, sizeof line, p)) {
        char addr[64], type[8], name[256];
        if (sscanf(line, "%63s %7s %255s", addr, type, name) != 3)
            continue;
        if (strncmp(name, "fmi2", 4) == 0 && (type[0] == 'T' || type[0] == 't'))
            n_fmi2++;
        else
            n_other++;
    }
    pclose(p);
    cr_expect_eq(n_fmi2, 44);
    cr_expect_eq(n_other, 0);
}

Test(glue, version_and_platform)
{
    cr_expect_str_eq(A.fmi2GetVersion(), "2.0");
    cr_expect_str_eq(A.fmi2GetTypesPlatform(), "default");
}

Test(glue, guid_is_derived_and_well_formed)
{
    cr_assert_eq(strlen(guid), 38);
    cr_expect_eq(guid[0], '{');
    cr_expect_eq(guid[37], '}');
    cr_expect_eq(guid[9], '-');
}

Test(glue, wrong_guid_gives_null_and_a_log)
{
    n_log = 0;
    fmi2Component c = A.fmi2Instantiate("smd", fmi2CoSimulation, "{00000000-0000-0000-0000-000000000000}",
                                        NULL, &cbs, fmi2False, fmi2False);
    cr_expect_null(c);
    cr_expect_gt(n_log, 0);
    cr_expect_eq(last_status, fmi2Error);
    cr_expect_null(A.fmi2Instantiate("smd", fmi2CoSimulation, NULL, NULL, &cbs, 0, 0));
}

Test(glue, empty_name_and_bad_interface_refused)
{
    cr_expect_null(A.fmi2Instantiate("", fmi2CoSimulation, guid, NULL, &cbs, 0, 0));
    cr_expect_null(A.fmi2Instantiate("  ", fmi2CoSimulation, guid, NULL, &cbs, 0, 0));
    cr_expect_null(A.fmi2Instantiate(NULL, fmi2CoSimulation, guid, NULL, &cbs, 0, 0));
    cr_expect_null(A.fmi2Instantiate("smd", (fmi2Type)7, guid, NULL, &cbs, 0, 0));
    fmi2CallbackFunctions nomem = cbs;
    nomem.allocateMemory = NULL;
    cr_expect_null(A.fmi2Instantiate("smd", fmi2CoSimulation, guid, NULL, &nomem, 0, 0));
}

Test(glue, resource_uri_forms)
{
    const char *good[] = {"file:///tmp/a%20b/resources", "file:/tmp/resources",
                          "file://localhost/tmp/resources/", "file:///"};
    const char *bad[] = {"http://example.com/r", "file://otherhost/tmp", "file:///x%zz",
                         "file:relative/path", "file:///x%00y"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        n_log = 0;
        fmi2Component c = A.fmi2Instantiate("smd", fmi2CoSimulation, guid, good[i], &cbs, 0, 0);
        cr_assert(c);
        cr_expect_eq(n_log, 0, "%s: %s", good[i], last_msg);
        A.fmi2FreeInstance(c);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        n_log = 0;
        fmi2Component c = A.fmi2Instantiate("smd", fmi2CoSimulation, guid, bad[i], &cbs, 0, 0);
        cr_assert(c);
        cr_expect_eq(n_log, 1, "%s not reported", bad[i]);
        cr_expect_eq(last_status, fmi2Warning);
        A.fmi2FreeInstance(c);
    }
}

Test(glue, memory_goes_through_callbacks_and_is_released)
{
    n_alloc = n_free = 0;
    fmi2Component c = inst_init(fmi2CoSimulation);
    fmi2FMUstate s = NULL;
    cr_assert_eq(A.fmi2GetFMUstate(c, &s), fmi2OK);
    cr_expect_gt(n_alloc, 2);
    A.fmi2FreeInstance(c); /* frees the outstanding FMU state too */
    cr_expect_eq(n_alloc, n_free);
    A.fmi2FreeInstance(NULL);
}

Test(glue, dostep_before_init_is_an_error)
{
    fmi2Component c = inst(fmi2CoSimulation);
    n_log = 0;
    cr_expect_eq(A.fmi2DoStep(c, 0.0, 0.01, fmi2True), fmi2Error);
    cr_expect_gt(n_log, 0);
    /* the instance is now in the error state: Reset recovers */
    cr_expect_eq(A.fmi2SetupExperiment(c, 0, 0, 0, 0, 0), fmi2Error);
    cr_expect_eq(A.fmi2Reset(c), fmi2OK);
    cr_expect_eq(A.fmi2SetupExperiment(c, 0, 0, 0, 0, 0), fmi2OK);
    A.fmi2FreeInstance(c);
}

Test(glue, illegal_sequences_are_errors)
{
    fmi2Component c = inst(fmi2CoSimulation);
    cr_expect_eq(A.fmi2ExitInitializationMode(c), fmi2Error);
    A.fmi2FreeInstance(c);
    c = inst(fmi2ModelExchange);
    cr_expect_eq(A.fmi2Terminate(c), fmi2Error);
    A.fmi2FreeInstance(c);
    c = inst_init(fmi2ModelExchange);
    cr_expect_eq(A.fmi2DoStep(c, 0, 0.1, 0), fmi2Error); /* CS function on an ME instance */
    A.fmi2FreeInstance(c);
    c = inst_init(fmi2CoSimulation);
    cr_expect_eq(A.fmi2SetTime(c, 0.1), fmi2Error);
    A.fmi2FreeInstance(c);
    c = inst_init(fmi2ModelExchange);
    cr_expect_eq(A.fmi2SetTime(c, 0.1), fmi2Error); /* event mode, model has states */
    A.fmi2FreeInstance(c);
    c = inst_init(fmi2ModelExchange);
    double x[2];
    cr_expect_eq(A.fmi2SetContinuousStates(c, x, 2), fmi2Error); /* not in event mode */
    A.fmi2FreeInstance(c);
}

Test(glue, variable_validation)
{
    fmi2Component c = inst(fmi2CoSimulation);
    fmi2ValueReference vr = 999;
    double v = 1.0;
    cr_expect_eq(A.fmi2SetReal(c, &vr, 1, &v), fmi2Error); /* unknown VR */
    A.fmi2FreeInstance(c);

    c = inst(fmi2CoSimulation);
    cr_expect_eq(set1(c, VR_X, 1.0), fmi2Error); /* x is initial=calculated */
    A.fmi2FreeInstance(c);
    c = inst(fmi2CoSimulation);
    cr_expect_eq(set1(c, VR_TIME, 1.0), fmi2Error); /* independent */
    A.fmi2FreeInstance(c);
    c = inst(fmi2CoSimulation);
    cr_expect_eq(set1(c, VR_F, 1.0), fmi2Error); /* inputs not before initialization mode */
    A.fmi2FreeInstance(c);

    c = inst_init(fmi2CoSimulation);
    n_log = 0;
    cr_expect_eq(set1(c, VR_E, 1.0), fmi2Error); /* output */
    cr_expect_gt(n_log, 0);
    cr_expect(strstr(last_msg, "'E'") != NULL, "message names the variable: %s", last_msg);
    A.fmi2FreeInstance(c);
    c = inst_init(fmi2CoSimulation);
    cr_expect_eq(set1(c, VR_X0, 0.1), fmi2Error); /* fixed parameter after init */
    A.fmi2FreeInstance(c);
    c = inst_init(fmi2CoSimulation);
    cr_expect_eq(set1(c, VR_K, 100.0), fmi2OK); /* tunable parameter */
    cr_expect_eq(set1(c, VR_F, 2.0), fmi2OK);   /* input */
    cr_expect_eq(set1(c, VR_M, -1.0), fmi2Discard); /* below min */
    cr_expect_eq(get1(c, VR_M), 2.5);
    int iv = 0;
    vr = VR_X;
    cr_expect_eq(A.fmi2GetInteger(c, &vr, 1, &iv), fmi2Error); /* no Integer with that VR */
    A.fmi2FreeInstance(c);
}

Test(glue, logging_categories_declared_and_environment_passed)
{
    n_bad_category = n_bad_env = n_log = 0;
    fmi2Component c = A.fmi2Instantiate("smd", fmi2CoSimulation, guid, NULL, &cbs, 0, fmi2True);
    cr_assert(c);
    fmi2String cats[] = {"logEvents", "logStatusError"};
    cr_expect_eq(A.fmi2SetDebugLogging(c, fmi2True, 2, cats), fmi2OK);
    cr_expect_eq(set1(c, VR_X, 1.0), fmi2Error);
    A.fmi2FreeInstance(c);
    c = inst(fmi2CoSimulation);
    fmi2String bad[] = {"noSuchCategory"};
    cr_expect_eq(A.fmi2SetDebugLogging(c, fmi2True, 1, bad), fmi2Error);
    A.fmi2FreeInstance(c);
    cr_expect_gt(n_log, 0);
    cr_expect_eq(n_bad_category, 0);
    cr_expect_eq(n_bad_env, 0);
}

Test(glue, cs_matches_the_analytic_solution)
{
    fmi2Component c = inst_init(fmi2CoSimulation);
    cr_expect_eq(get1(c, VR_X), 0.05);
    double e0 = get1(c, VR_E);
    cr_expect_float_eq(e0, 0.5 * 120.0 * 0.05 * 0.05, 1e-15);
    for (int i = 0; i < 200; i++) {
        cr_assert_eq(A.fmi2DoStep(c, i * 0.01, 0.01, fmi2True), fmi2OK);
        double t = (i + 1) * 0.01;
        cr_assert(fabs(get1(c, VR_X) - exact_x(t)) < 1e-9, "t=%g x=%.17g exact %.17g", t,
                  get1(c, VR_X), exact_x(t));
        cr_assert_eq(get1(c, VR_TIME), i * 0.01 + 0.01); /* tc + h */
    }
    cr_expect_lt(get1(c, VR_E), e0);
    double t_last = 0;
    cr_expect_eq(A.fmi2GetRealStatus(c, fmi2LastSuccessfulTime, &t_last), fmi2OK);
    cr_expect_float_eq(t_last, 2.0, 1e-12);
    cr_expect_eq(A.fmi2Terminate(c), fmi2OK);
    cr_expect_eq(get1(c, VR_TIME), t_last);
    A.fmi2FreeInstance(c);
}

Test(glue, dostep_communication_point_and_stop_time)
{
    fmi2Component c = inst(fmi2CoSimulation);
    cr_assert_eq(A.fmi2SetupExperiment(c, 0, 0, 0.0, fmi2True, 0.05), fmi2OK);
    cr_assert_eq(A.fmi2EnterInitializationMode(c), fmi2OK);
    cr_assert_eq(A.fmi2ExitInitializationMode(c), fmi2OK);
    double t = 0.0;
    for (int i = 0; i < 5; i++) { /* accumulated rounding is tolerated */
        cr_assert_eq(A.fmi2DoStep(c, t, 0.01, fmi2True), fmi2OK, "%s", last_msg);
        t += 0.01;
    }
    cr_expect_eq(A.fmi2DoStep(c, t, 0.01, fmi2True), fmi2Error); /* beyond stopTime */
    A.fmi2FreeInstance(c);
    c = inst_init(fmi2CoSimulation);
    cr_expect_eq(A.fmi2DoStep(c, 0.5, 0.01, fmi2True), fmi2Error); /* wrong point */
    A.fmi2FreeInstance(c);
    c = inst_init(fmi2CoSimulation);
    cr_expect_eq(A.fmi2DoStep(c, 0.0, 0.0, fmi2True), fmi2Error); /* h = 0 */
    A.fmi2FreeInstance(c);
}

Test(glue, me_derivatives_and_nominals)
{
    fmi2Component c = inst(fmi2ModelExchange);
    cr_assert_eq(A.fmi2SetupExperiment(c, 0, 0, 0.0, 0, 0), fmi2OK);
    cr_assert_eq(A.fmi2EnterInitializationMode(c), fmi2OK);
    double x[2], dx[2], nom[2];
    cr_expect_eq(A.fmi2GetContinuousStates(c, x, 2), fmi2OK);
    cr_expect_eq(x[0], 0.05);
    cr_assert_eq(A.fmi2ExitInitializationMode(c), fmi2OK);
    fmi2EventInfo ei;
    memset(&ei, 0x55, sizeof ei);
    cr_assert_eq(A.fmi2NewDiscreteStates(c, &ei), fmi2OK);
    cr_expect_eq(ei.newDiscreteStatesNeeded, fmi2False);
    cr_expect_eq(ei.valuesOfContinuousStatesChanged, fmi2False);
    cr_expect_eq(ei.nextEventTimeDefined, fmi2False);
    cr_assert_eq(A.fmi2EnterContinuousTimeMode(c), fmi2OK);
    cr_expect_eq(A.fmi2GetNominalsOfContinuousStates(c, nom, 2), fmi2OK);
    cr_expect_eq(nom[0], 0.05);
    cr_expect_eq(nom[1], 0.5);
    cr_expect_eq(A.fmi2GetDerivatives(c, dx, 2), fmi2OK);
    cr_expect_eq(dx[0], 0.0);
    cr_expect_float_eq(dx[1], -120.0 * 0.05 / 2.5, 1e-15);
    cr_expect_eq(A.fmi2GetDerivatives(c, dx, 3), fmi2Error); /* nx mismatch */
    A.fmi2FreeInstance(c);

    /* ME integration with RK4 and CompletedIntegratorStep reproduces the analytic solution */
    c = inst_init(fmi2ModelExchange);
    cr_assert_eq(A.fmi2NewDiscreteStates(c, &ei), fmi2OK);
    cr_assert_eq(A.fmi2EnterContinuousTimeMode(c), fmi2OK);
    double h = 1e-3, k[4][2], xs[2], xt[2];
    cr_assert_eq(A.fmi2GetContinuousStates(c, xs, 2), fmi2OK);
    for (int i = 0; i < 1000; i++) {
        double t = i * h;
        const double cs[4] = {0, 0.5, 0.5, 1};
        for (int s = 0; s < 4; s++) {
            for (int j = 0; j < 2; j++)
                xt[j] = s == 0 ? xs[j] : xs[j] + cs[s] * h * k[s - 1][j];
            cr_assert_eq(A.fmi2SetTime(c, t + cs[s] * h), fmi2OK, "%s", last_msg);
            cr_assert_eq(A.fmi2SetContinuousStates(c, xt, 2), fmi2OK);
            cr_assert_eq(A.fmi2GetDerivatives(c, k[s], 2), fmi2OK);
        }
        for (int j = 0; j < 2; j++)
            xs[j] += h / 6.0 * (k[0][j] + 2 * k[1][j] + 2 * k[2][j] + k[3][j]);
        cr_assert_eq(A.fmi2SetTime(c, t + h), fmi2OK);
        cr_assert_eq(A.fmi2SetContinuousStates(c, xs, 2), fmi2OK);
        fmi2Boolean ev = 7, term = 7;
        cr_assert_eq(A.fmi2CompletedIntegratorStep(c, fmi2True, &ev, &term), fmi2OK);
        cr_assert_eq(ev, fmi2False);
        cr_assert_eq(term, fmi2False);
    }
    cr_expect(fabs(get1(c, VR_X) - exact_x(1.0)) < 1e-9);
    cr_expect_eq(A.fmi2SetTime(c, 0.5), fmi2Error); /* before the last completed step */
    A.fmi2FreeInstance(c);
}

Test(glue, directional_derivatives_match_finite_differences)
{
    fmi2Component c = inst_init(fmi2ModelExchange);
    fmi2EventInfo ei;
    cr_assert_eq(A.fmi2NewDiscreteStates(c, &ei), fmi2OK);
    cr_assert_eq(A.fmi2EnterContinuousTimeMode(c), fmi2OK);
    double x[2] = {0.03, -0.2};
    cr_assert_eq(A.fmi2SetContinuousStates(c, x, 2), fmi2OK);
    cr_assert_eq(set1(c, VR_F, 1.5), fmi2OK);
    const fmi2ValueReference unk[] = {VR_DER_X, VR_DER_V, VR_E, VR_X, VR_V};
    const fmi2ValueReference kn[] = {VR_X, VR_V, VR_F};
    for (int j = 0; j < 3; j++) {
        double seed[3] = {0, 0, 0}, J[5], base[5], pert[5];
        seed[j] = 1.0;
        cr_assert_eq(A.fmi2GetDirectionalDerivative(c, unk, 5, kn, 3, seed, J), fmi2OK);
        cr_assert_eq(A.fmi2GetReal(c, unk, 5, base), fmi2OK);
        double eps = 1e-7, xp[2] = {x[0], x[1]};
        if (j < 2) {
            xp[j] += eps;
            cr_assert_eq(A.fmi2SetContinuousStates(c, xp, 2), fmi2OK);
        } else {
            cr_assert_eq(set1(c, VR_F, 1.5 + eps), fmi2OK);
        }
        cr_assert_eq(A.fmi2GetReal(c, unk, 5, pert), fmi2OK);
        for (int i = 0; i < 5; i++)
            cr_expect(fabs((pert[i] - base[i]) / eps - J[i]) < 1e-5, "d%u/d%u: fd %g vs %g",
                      unk[i], kn[j], (pert[i] - base[i]) / eps, J[i]);
        cr_assert_eq(A.fmi2SetContinuousStates(c, x, 2), fmi2OK);
        cr_assert_eq(set1(c, VR_F, 1.5), fmi2OK);
    }
    A.fmi2FreeInstance(c);
}

static void outputs(fmi2Component c, double out[3])
{
    const fmi2ValueReference vr[] = {VR_X, VR_V, VR_E};
    cr_assert_eq(A.fmi2GetReal(c, vr, 3, out), fmi2OK);
}

Test(glue, fmu_state_round_trip_is_bit_identical)
{
    fmi2Component c = inst_init(fmi2CoSimulation);
    run_cs(c, 0.0, 50, 0.01);
    fmi2FMUstate s = NULL;
    cr_assert_eq(A.fmi2GetFMUstate(c, &s), fmi2OK);
    run_cs(c, 0.5, 50, 0.01);
    double a[3], b[3];
    outputs(c, a);
    cr_assert_eq(A.fmi2SetFMUstate(c, s), fmi2OK);
    cr_expect_float_eq(get1(c, VR_TIME), 0.5, 1e-12);
    run_cs(c, 0.5, 50, 0.01);
    outputs(c, b);
    cr_expect_eq(memcmp(a, b, sizeof a), 0);

    /* serialize -> deserialize (in a second instance) -> set: same again */
    size_t n = 0;
    cr_assert_eq(A.fmi2SerializedFMUstateSize(c, s, &n), fmi2OK);
    char *bytes = malloc(n);
    cr_assert_eq(A.fmi2SerializeFMUstate(c, s, bytes, n), fmi2OK);
    fmi2Component d = inst(fmi2CoSimulation);
    fmi2FMUstate s2 = NULL;
    cr_assert_eq(A.fmi2DeSerializeFMUstate(d, bytes, n, &s2), fmi2OK);
    cr_assert_eq(A.fmi2SetFMUstate(d, s2), fmi2OK);
    run_cs(d, 0.5, 50, 0.01);
    outputs(d, b);
    cr_expect_eq(memcmp(a, b, sizeof a), 0);
    /* re-serializing the deserialized state gives the same bytes */
    char *bytes2 = malloc(n);
    cr_assert_eq(A.fmi2SerializeFMUstate(d, s2, bytes2, n), fmi2OK);
    cr_expect_eq(memcmp(bytes, bytes2, n), 0);
    cr_assert_eq(A.fmi2FreeFMUstate(d, &s2), fmi2OK);
    cr_expect_null(s2);
    cr_assert_eq(A.fmi2FreeFMUstate(c, &s), fmi2OK);
    free(bytes);
    free(bytes2);
    A.fmi2FreeInstance(c);
    A.fmi2FreeInstance(d);
}

Test(glue, corrupt_or_foreign_state_bytes_refused)
{
    fmi2Component c = inst_init(fmi2CoSimulation);
    fmi2FMUstate s = NULL;
    cr_assert_eq(A.fmi2GetFMUstate(c, &s), fmi2OK);
    size_t n = 0;
    cr_assert_eq(A.fmi2SerializedFMUstateSize(c, s, &n), fmi2OK);
    char *bytes = malloc(n);
    cr_assert_eq(A.fmi2SerializeFMUstate(c, s, bytes, n), fmi2OK);
    for (size_t pos = 0; pos < n; pos += 7) {
        fmi2Component d = inst(fmi2CoSimulation);
        bytes[pos] ^= 0x10;
        fmi2FMUstate t = NULL;
        cr_expect_eq(A.fmi2DeSerializeFMUstate(d, bytes, n, &t), fmi2Error, "byte %zu", pos);
        bytes[pos] ^= 0x10;
        A.fmi2FreeInstance(d);
    }
    fmi2Component d = inst(fmi2CoSimulation);
    fmi2FMUstate t = NULL;
    cr_expect_eq(A.fmi2DeSerializeFMUstate(d, bytes, n - 1, &t), fmi2Error); /* truncated */
    A.fmi2FreeInstance(d);
    d = inst(fmi2CoSimulation);
    char junk[256];
    memset(junk, 0xab, sizeof junk);
    cr_expect_eq(A.fmi2DeSerializeFMUstate(d, junk, sizeof junk, &t), fmi2Error);
    A.fmi2FreeInstance(d);
    d = inst(fmi2CoSimulation); /* a state of another instance is not ours */
    cr_expect_eq(A.fmi2SetFMUstate(d, s), fmi2Error);
    A.fmi2FreeInstance(d);
    free(bytes);
    A.fmi2FreeInstance(c);
}

Test(glue, reset_reproduces_the_first_run)
{
    fmi2Component c = inst_init(fmi2CoSimulation);
    cr_assert_eq(set1(c, VR_F, 0.7), fmi2OK);
    run_cs(c, 0.0, 30, 0.01);
    double a[3], b[3];
    outputs(c, a);
    cr_assert_eq(A.fmi2Terminate(c), fmi2OK);
    cr_assert_eq(A.fmi2Reset(c), fmi2OK);
    cr_assert_eq(A.fmi2SetupExperiment(c, 0, 0, 0.0, 0, 0), fmi2OK);
    cr_assert_eq(A.fmi2EnterInitializationMode(c), fmi2OK);
    cr_expect_eq(get1(c, VR_F), 0.0); /* start value again */
    cr_assert_eq(A.fmi2ExitInitializationMode(c), fmi2OK);
    cr_assert_eq(set1(c, VR_F, 0.7), fmi2OK);
    run_cs(c, 0.0, 30, 0.01);
    outputs(c, b);
    cr_expect_eq(memcmp(a, b, sizeof a), 0);
    A.fmi2FreeInstance(c);
}

Test(glue, two_instances_are_independent)
{
    fmi2Component a = inst(fmi2CoSimulation), b = inst(fmi2CoSimulation);
    cr_assert_eq(set1(a, VR_X0, 0.1), fmi2OK);
    fmi2Component both[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(A.fmi2SetupExperiment(both[i], 0, 0, 0.0, 0, 0), fmi2OK);
        cr_assert_eq(A.fmi2EnterInitializationMode(both[i]), fmi2OK);
        cr_assert_eq(A.fmi2ExitInitializationMode(both[i]), fmi2OK);
    }
    run_cs(a, 0.0, 10, 0.01);
    cr_expect_eq(get1(b, VR_X), 0.05);
    cr_expect_eq(get1(b, VR_TIME), 0.0);
    run_cs(b, 0.0, 10, 0.01);
    cr_expect_float_eq(get1(a, VR_X), 2.0 * get1(b, VR_X), 1e-15);
    A.fmi2FreeInstance(a);
    A.fmi2FreeInstance(b);
}

Test(glue, unsupported_status_kinds_discard)
{
    fmi2Component c = inst_init(fmi2CoSimulation);
    fmi2Status st;
    fmi2String s;
    fmi2Integer i;
    fmi2Boolean b = 5;
    cr_expect_eq(A.fmi2GetStatus(c, fmi2DoStepStatus, &st), fmi2OK);
    cr_expect_eq(A.fmi2GetStringStatus(c, fmi2PendingStatus, &s), fmi2Discard);
    cr_expect_eq(A.fmi2GetIntegerStatus(c, fmi2DoStepStatus, &i), fmi2Discard);
    cr_expect_eq(A.fmi2GetBooleanStatus(c, fmi2Terminated, &b), fmi2OK);
    cr_expect_eq(b, fmi2False);
    cr_expect_eq(A.fmi2CancelStep(c), fmi2Error);
    A.fmi2FreeInstance(c);
}
