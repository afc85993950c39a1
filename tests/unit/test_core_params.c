/* VDSim core parameters: JSON schema validation (missing, mistyped, out of range, unknown),
 * kinematics CSV validation, tunables, clone, and locale independence. */
#include <locale.h>

#include "test_core_util.h"

static vd_status parse_with(const tc_edit *ve, int nve, const tc_edit *te, int nte, vd_error *err)
{
    char *vt = tc_read(VEHICLE_JSON), *tt = tc_read(TIRE_JSON);
    char *v2 = tc_patch(vt, ve, nve), *t2 = tc_patch(tt, te, nte);
    vd_params *p = NULL;
    memset(err, 0, sizeof *err);
    vd_status st = vd_params_parse(&p, v2, "vehicle.json", t2, "tire.json", err);
    if (st == VD_OK)
        cr_assert_not_null(p);
    else
        cr_assert_null(p);
    vd_params_free(p);
    free(vt);
    free(tt);
    free(v2);
    free(t2);
    return st;
}

#define ASSERT_MSG_HAS(err, s) cr_assert_not_null(strstr((err).msg, s), "'%s' not in: %s", s, (err).msg)

Test(core_params, load_shipped_configs)
{
    vd_params *p = NULL;
    vd_error err = {{0}};
    cr_assert_eq(vd_params_load(&p, VEHICLE_JSON, TIRE_JSON, &err), VD_OK, "%s", err.msg);
    double v;
    cr_assert_eq(vd_param_get(p, "mass", &v), VD_OK);
    cr_assert_eq(v, 1720.0);
    vd_param_get(p, "vx0", &v);
    cr_assert_eq(v, 20.0);
    vd_param_get(p, "mu", &v);
    cr_assert_eq(v, 0.9);
    vd_param_get(p, "h_max", &v);
    cr_assert_eq(v, 0.00025);
    cr_assert_eq(vd_params_tire_model(p), VD_TIRE_LINEAR);
    cr_assert_eq(vd_params_load_kinematics(p, KIN_FRONT, KIN_REAR, &err), VD_OK, "%s", err.msg);
    vd_params_free(p);
}

Test(core_params, missing_field_names_file_field_and_range)
{
    vd_error err;
    tc_edit e = {"geometry", "a", NULL};
    cr_assert_eq(parse_with(&e, 1, NULL, 0, &err), VD_ECONFIG);
    ASSERT_MSG_HAS(err, "vehicle.json");
    ASSERT_MSG_HAS(err, "geometry.a");
    ASSERT_MSG_HAS(err, "missing");
    ASSERT_MSG_HAS(err, "[0.2, 5] m");
}

Test(core_params, missing_section)
{
    vd_error err;
    tc_edit e = {NULL, "suspension", NULL};
    cr_assert_eq(parse_with(&e, 1, NULL, 0, &err), VD_ECONFIG);
    ASSERT_MSG_HAS(err, "suspension.k_s_front");
}

Test(core_params, wrong_type_names_field)
{
    vd_error err;
    tc_edit e = {"mass", "m_s", "\"1400\""};
    cr_assert_eq(parse_with(&e, 1, NULL, 0, &err), VD_ECONFIG);
    ASSERT_MSG_HAS(err, "mass.m_s");
    ASSERT_MSG_HAS(err, "string");
    tc_edit b = {"steering", "ackermann", "1"};
    cr_assert_eq(parse_with(&b, 1, NULL, 0, &err), VD_ECONFIG);
    ASSERT_MSG_HAS(err, "steering.ackermann");
    ASSERT_MSG_HAS(err, "boolean");
    tc_edit s = {NULL, "wheel", "[1,2]"};
    cr_assert_eq(parse_with(&s, 1, NULL, 0, &err), VD_ECONFIG);
    ASSERT_MSG_HAS(err, "wheel");
}

Test(core_params, out_of_range_names_field_and_range)
{
    vd_error err;
    tc_edit e = {"wheel", "r0", "5"};
    cr_assert_eq(parse_with(&e, 1, NULL, 0, &err), VD_ECONFIG);
    ASSERT_MSG_HAS(err, "wheel.r0");
    ASSERT_MSG_HAS(err, "out of range");
    ASSERT_MSG_HAS(err, "[0.1, 1.5]");
    tc_edit n = {"driveline", "drive_front_share", "-0.1"};
    cr_assert_eq(parse_with(&n, 1, NULL, 0, &err), VD_ECONFIG);
    ASSERT_MSG_HAS(err, "driveline.drive_front_share");
    tc_edit t = {NULL, "mu", "7"};
    cr_assert_eq(parse_with(NULL, 0, &t, 1, &err), VD_ECONFIG);
    ASSERT_MSG_HAS(err, "tire.json");
    ASSERT_MSG_HAS(err, "mu");
    tc_edit h = {"geometry", "h_rc_front", "0.9"};
    cr_assert_eq(parse_with(&h, 1, NULL, 0, &err), VD_ECONFIG);
    ASSERT_MSG_HAS(err, "h_rc_front");
}

Test(core_params, unknown_field_is_an_error)
{
    vd_error err;
    tc_edit e = {"geometry", "aa", "1.0"};
    cr_assert_eq(parse_with(&e, 1, NULL, 0, &err), VD_ECONFIG);
    ASSERT_MSG_HAS(err, "geometry.aa");
    tc_edit t = {NULL, "grip", "1.0"};
    cr_assert_eq(parse_with(NULL, 0, &t, 1, &err), VD_ECONFIG);
    ASSERT_MSG_HAS(err, "grip");
    tc_edit c = {"geometry", "_comment", "\"comments are allowed\""};
    cr_assert_eq(parse_with(&c, 1, NULL, 0, &err), VD_OK, "%s", err.msg);
}

Test(core_params, tire_model_selection)
{
    vd_error err;
    tc_edit bad = {NULL, "model", "\"pacejka96\""};
    cr_assert_eq(parse_with(NULL, 0, &bad, 1, &err), VD_ECONFIG);
    ASSERT_MSG_HAS(err, "model");
    tc_edit miss[2] = {{NULL, "model", "\"magic\""}, {NULL, "magic", NULL}};
    cr_assert_eq(parse_with(NULL, 0, miss, 2, &err), VD_ECONFIG);
    ASSERT_MSG_HAS(err, "magic.B_x");
    /* the unused model's section may be absent */
    tc_edit ok[2] = {{NULL, "model", "\"magic\""}, {NULL, "linear", NULL}};
    cr_assert_eq(parse_with(NULL, 0, ok, 2, &err), VD_OK, "%s", err.msg);
    /* ... but if present it is validated too */
    tc_edit bad_e[2] = {{NULL, "model", "\"linear\""}, {"magic", "E_x", "3"}};
    cr_assert_eq(parse_with(NULL, 0, bad_e, 2, &err), VD_ECONFIG);
    ASSERT_MSG_HAS(err, "magic.E_x");
}

Test(core_params, invalid_json_and_missing_file)
{
    vd_params *p = NULL;
    vd_error err = {{0}};
    char *tt = tc_read(TIRE_JSON);
    cr_assert_eq(vd_params_parse(&p, "{\n\"mass\": {,\n}", "broken.json", tt, "tire.json", &err),
                 VD_ECONFIG);
    ASSERT_MSG_HAS(err, "broken.json");
    ASSERT_MSG_HAS(err, "line 2");
    free(tt);
    cr_assert_eq(vd_params_load(&p, "/nonexistent/vehicle.json", TIRE_JSON, &err), VD_EIO);
    ASSERT_MSG_HAS(err, "/nonexistent/vehicle.json");
    cr_assert_null(p);
}

static vd_status kin(const char *csv, vd_error *err)
{
    vd_params *p = tc_params("\"linear\"");
    memset(err, 0, sizeof *err);
    vd_status st = vd_params_parse_kinematics(p, 0, csv, "front.csv", err);
    vd_params_free(p);
    return st;
}

Test(core_params, kinematics_csv_good)
{
    vd_error err;
    cr_assert_eq(kin("# c\ntravel,toe,camber\n-0.1,0.001,0.01\n0.1,-0.001,-0.01\n", &err), VD_OK,
                 "%s", err.msg);
    cr_assert_eq(kin("travel, toe, camber, mr, h_rc\r\n-0.1, 0, 0, 1.0, 0.1\r\n0.1, 0, 0, 0.9, 0.12\r\n",
                     &err),
                 VD_OK, "%s", err.msg);
}

Test(core_params, kinematics_csv_errors_name_line_and_column)
{
    vd_error err;
    cr_assert_eq(kin("travel,toe,camber\n0.1,0,0\n0.0,0,0\n", &err), VD_ECONFIG);
    ASSERT_MSG_HAS(err, "front.csv");
    ASSERT_MSG_HAS(err, "line 3");
    ASSERT_MSG_HAS(err, "strictly increasing");
    cr_assert_eq(kin("travel,toe,camber\n0.0,abc,0\n0.1,0,0\n", &err), VD_ECONFIG);
    ASSERT_MSG_HAS(err, "'toe'");
    ASSERT_MSG_HAS(err, "line 2");
    /* a decimal comma splits the field: caught as a column-count error, never parsed as 0 */
    cr_assert_eq(kin("travel,toe,camber\n0,0,0\n0,1,0.001,0\n", &err), VD_ECONFIG);
    ASSERT_MSG_HAS(err, "columns");
    cr_assert_eq(kin("travel,toe,camber,spring\n0,0,0,0\n0.1,0,0,0\n", &err), VD_ECONFIG);
    ASSERT_MSG_HAS(err, "spring");
    cr_assert_eq(kin("travel,toe\n0,0\n0.1,0\n", &err), VD_ECONFIG);
    ASSERT_MSG_HAS(err, "camber");
    cr_assert_eq(kin("travel,toe,camber\n0,0,0\n", &err), VD_ECONFIG);
    ASSERT_MSG_HAS(err, "2 data rows");
    cr_assert_eq(kin("travel,toe,camber\n0,0.5,0\n0.1,0,0\n", &err), VD_ECONFIG);
    ASSERT_MSG_HAS(err, "out of range");
    cr_assert_eq(kin("travel,toe,camber\n0,0x1p-3,0\n0.1,0,0\n", &err), VD_ECONFIG);
    cr_assert_eq(kin("travel,toe,camber\n0,nan,0\n0.1,0,0\n", &err), VD_ECONFIG);
    cr_assert_eq(kin("toe,travel,camber\n0,0,0\n0,0.1,0\n", &err), VD_ECONFIG);
    ASSERT_MSG_HAS(err, "travel");
    vd_params *p = tc_params("\"linear\"");
    cr_assert_eq(vd_params_load_kinematics(p, "/nonexistent/front.csv", NULL, &err), VD_EIO);
    ASSERT_MSG_HAS(err, "/nonexistent/front.csv");
    vd_params_free(p);
}

Test(core_params, tunables_listed_with_info)
{
    const char *required[] = {"vx0", "mass", "mu", "drive_torque_max", "brake_torque_max",
                              "drive_front_share", "brake_front_share", "h_max"};
    const char *const *names = vd_param_names();
    for (size_t r = 0; r < sizeof required / sizeof required[0]; r++) {
        int found = 0;
        for (const char *const *n = names; *n; n++)
            found |= strcmp(*n, required[r]) == 0;
        cr_assert(found, "tunable %s missing", required[r]);
    }
    vd_params *p = tc_params("\"linear\"");
    for (const char *const *n = names; *n; n++) {
        double lo, hi, v;
        const char *unit = NULL, *desc = NULL;
        cr_assert_eq(vd_param_info(*n, &lo, &hi, &unit, &desc), VD_OK, "%s", *n);
        cr_assert_lt(lo, hi);
        cr_assert_not_null(unit);
        cr_assert_not_null(desc);
        cr_assert_eq(vd_param_get(p, *n, &v), VD_OK);
        cr_assert(v >= lo && v <= hi, "%s = %g outside [%g, %g]", *n, v, lo, hi);
    }
    cr_assert_eq(vd_param_info("nope", NULL, NULL, NULL, NULL), VD_EINVAL);
    vd_params_free(p);
}

Test(core_params, tunable_set_get_and_range)
{
    vd_params *p = tc_params("\"linear\"");
    vd_error err = {{0}};
    double v;
    cr_assert_eq(vd_param_set(p, "mu", 0.5, &err), VD_OK);
    vd_param_get(p, "mu", &v);
    cr_assert_eq(v, 0.5);
    cr_assert_eq(vd_param_set(p, "mu", 9.0, &err), VD_EINVAL);
    ASSERT_MSG_HAS(err, "mu");
    ASSERT_MSG_HAS(err, "out of range");
    cr_assert_eq(vd_param_set(p, "mu", NAN, &err), VD_EINVAL);
    cr_assert_eq(vd_param_set(p, "no_such", 1.0, &err), VD_EINVAL);
    ASSERT_MSG_HAS(err, "no_such");
    cr_assert_eq(vd_param_set(p, "mass", 2000, &err), VD_OK);
    vd_param_get(p, "mass", &v);
    cr_assert_eq(v, 2000.0);
    cr_assert_eq(vd_param_set(p, "mass", 350, &err), VD_EINVAL, "sprung mass would be < 100 kg");
    ASSERT_MSG_HAS(err, "mass");
    vd_params_free(p);
}

Test(core_params, clone_is_independent)
{
    vd_params *p = tc_params("\"linear\"");
    vd_error err;
    cr_assert_eq(vd_params_load_kinematics(p, KIN_FRONT, KIN_REAR, &err), VD_OK);
    vd_params *c = vd_params_clone(p);
    cr_assert_not_null(c);
    tc_set(c, "vx0", 5);
    double a, b;
    vd_param_get(p, "vx0", &a);
    vd_param_get(c, "vx0", &b);
    cr_assert_eq(a, 20.0);
    cr_assert_eq(b, 5.0);
    vd_params_free(p); /* the clone owns its own tables */
    vd_model *m = NULL;
    cr_assert_eq(vd_create(&m, VD_L3, c, &err), VD_OK);
    vd_cmd u = {0.02, 0, 0};
    cr_assert_eq(vd_step(m, 0.01, &u), VD_OK);
    vd_destroy(m);
    vd_params_free(c);
}

Test(core_params, create_rejects_bad_level)
{
    vd_params *p = tc_params("\"linear\"");
    vd_model *m = NULL;
    vd_error err = {{0}};
    cr_assert_eq(vd_create(&m, (vd_level)7, p, &err), VD_EINVAL);
    cr_assert_null(m);
    cr_assert_eq(vd_create(&m, VD_L2, NULL, &err), VD_EINVAL);
    vd_params_free(p);
}

/* Run an L3 model with kinematics from the current locale and return a checksum of the bits. */
static uint64_t locale_run(void)
{
    vd_params *p = NULL;
    vd_error err = {{0}};
    cr_assert_eq(vd_params_load(&p, VEHICLE_JSON, TIRE_JSON, &err), VD_OK, "%s", err.msg);
    cr_assert_eq(vd_params_load_kinematics(p, KIN_FRONT, KIN_REAR, &err), VD_OK, "%s", err.msg);
    vd_model *m = tc_model(VD_L3, p);
    vd_cmd u = {0.03, 0.1, 0};
    uint64_t h = 1469598103934665603ull;
    for (int k = 0; k < 100; k++) {
        vd_step(m, 0.01, &u);
        double x[32];
        vd_state_get(m, x);
        for (size_t i = 0; i < vd_state_size(m); i++)
            h = (h ^ tc_bits(x[i])) * 1099511628211ull;
    }
    double v;
    vd_param_get(p, "h_max", &v);
    cr_assert_eq(v, 0.00025, "h_max parsed as %g", v);
    vd_destroy(m);
    vd_params_free(p);
    return h;
}

Test(core_params, locale_independent_parsing)
{
    uint64_t ref = locale_run();
    const char *names[] = {"de_DE.UTF-8", "de_DE.utf8", "de_DE", "fr_FR.UTF-8", "fr_FR.utf8"};
    const char *got = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !got; i++)
        got = setlocale(LC_ALL, names[i]);
    if (!got) {
        setlocale(LC_ALL, "C");
        cr_skip_test("no de_DE/fr_FR locale installed; C-locale part passed");
    }
    cr_assert_str_eq(localeconv()->decimal_point, ",");
    uint64_t h = locale_run();
    setlocale(LC_ALL, "C");
    cr_assert_eq(h, ref, "results depend on the process locale");
}

Test(core_params, model_set_params_and_fp_env)
{
    cr_assert_eq(vd_fp_env_ok(), 1);
    vd_params *p = tc_params("\"linear\"");
    vd_model *m = tc_model(VD_L2, p);
    tc_set(p, "vx0", 7);
    cr_assert_eq(vd_model_set_params(m, p), VD_OK);
    vd_init(m);
    vd_out y;
    vd_outputs(m, &y);
    cr_assert_eq(y.vx, 7.0);
    double v;
    vd_param_get(vd_model_params(m), "vx0", &v);
    cr_assert_eq(v, 7.0);
    vd_destroy(m);
    vd_params_free(p);
}

Test(core_params, duplicate_field_is_an_error)
{
    char *vt = tc_read(VEHICLE_JSON), *tt = tc_read(TIRE_JSON);
    const char *at = strstr(vt, "\"m_s\"");
    cr_assert_not_null(at);
    size_t n = strlen(vt) + 32;
    char *dup = malloc(n);
    snprintf(dup, n, "%.*s\"m_s\": 1500, %s", (int)(at - vt), vt, at);
    vd_params *p = NULL;
    vd_error err = {{0}};
    cr_assert_eq(vd_params_parse(&p, dup, "vehicle.json", tt, "tire.json", &err), VD_ECONFIG);
    ASSERT_MSG_HAS(err, "mass.m_s");
    ASSERT_MSG_HAS(err, "duplicated");
    free(dup);
    free(vt);
    free(tt);
}

typedef struct counting {
    int allocs, frees;
} counting;

static void *count_alloc(void *env, size_t n, size_t size)
{
    ((counting *)env)->allocs++;
    return calloc(n, size);
}

static void count_release(void *env, void *p)
{
    ((counting *)env)->frees++;
    free(p);
}

/* The FMU gives the core its host's allocateMemory/freeMemory: kept objects come from there and
 * go back there; the results are the same as with calloc. */
Test(core_params, allocator_is_used_for_kept_objects)
{
    vd_params *p = NULL;
    vd_error err = {{0}};
    counting cnt = {0, 0};
    vd_allocator a = {count_alloc, count_release, &cnt};
    cr_assert_eq(vd_params_load(&p, VEHICLE_JSON, TIRE_JSON, &err), VD_OK, "%s", err.msg);
    vd_params *kept = vd_params_clone_with(p, &a);
    cr_assert_not_null(kept);
    vd_model *m = NULL, *ref = NULL;
    cr_assert_eq(vd_create_with(&m, VD_L2, kept, &a, &err), VD_OK, "%s", err.msg);
    cr_assert_eq(vd_create(&ref, VD_L2, p, &err), VD_OK, "%s", err.msg);
    cr_expect_eq(cnt.allocs, 2);
    vd_cmd u = {0.02, 0.3, 0.0};
    for (int k = 0; k < 100; k++) {
        vd_step(m, 0.01, &u);
        vd_step(ref, 0.01, &u);
    }
    vd_out o1, o2;
    vd_outputs(m, &o1);
    vd_outputs(ref, &o2);
    cr_expect_eq(memcmp(&o1, &o2, sizeof o1), 0, "same results whatever the allocator");
    vd_destroy(m);
    vd_params_free_with(kept, &a);
    cr_expect_eq(cnt.frees, 2);
    vd_destroy(ref);
    vd_params_free(p);
}
