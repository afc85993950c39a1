/* Tests of the eq-* checks: determinism, bit-exact native round trip, compare, reference CSV,
 * FMU state and serialization. The checks run directly on FMUs opened with fmuc_fmu_open
 * (vdsim, good and broken reference FMUs of this build). */
#include <criterion/criterion.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "eq/eq_util.h"
#include "fmuc/fmuc_refcsv.h"
#include "fmuc_test_util.h"

typedef struct eq_run {
    fmuc_fmu fmu;
    fmuc_options opts;
    fmuc_result res;
} eq_run;

static void open_fmu(eq_run *r, const char *path)
{
    fmuc_diag d = {{0}, FMUC_OK};
    memset(r, 0, sizeof *r);
    fmuc_options_init(&r->opts);
    const char *m = fmuc_test_timeout_multiplier();
    r->opts.timeout_multiplier = strtod(m, NULL);
    cr_assert(access(path, R_OK) == 0, "FMU not built: %s", path);
    cr_assert_eq(fmuc_fmu_open(&r->fmu, path, NULL, NULL, &d), FMUC_OK, "%s: %s", path, d.msg);
}

static fmuc_verdict run_check(eq_run *r, const char *id)
{
    const fmuc_check *c = fmuc_check_find(id);
    cr_assert(c, "check %s not registered", id);
    fmuc_result_clear(&r->res);
    fmuc_result_init(&r->res, c->id, c->title, c->spec, c->level);
    fmuc_subject s = {.fmu = &r->fmu, .opts = &r->opts};
    c->run(&s, &r->res);
    if (r->res.verdict == FMUC_VERDICT_ERROR || getenv("FMUC_TEST_VERBOSE"))
        for (size_t i = 0; i < r->res.nmessages; i++)
            cr_log_info("%s: %s", id, r->res.messages[i]);
    return r->res.verdict;
}

static void close_run(eq_run *r)
{
    fmuc_result_clear(&r->res);
    fmuc_fmu_close(&r->fmu);
}

static fmuc_verdict check_on(const char *path, const char *id)
{
    eq_run r;
    open_fmu(&r, path);
    fmuc_verdict v = run_check(&r, id);
    close_run(&r);
    return v;
}

#define VDSIM(l) FMUC_FMU_DIR "/vdsim_l" #l ".fmu"
#define GOOD(n) FMUC_FMU_DIR "/good/" n ".fmu"
#define BROKEN(n) FMUC_FMU_DIR "/broken/" n ".fmu"
#define HOSTILE(n) FMUC_FMU_DIR "/hostile/" n ".fmu"

static void expect_verdict(const char *path, const char *id, fmuc_verdict want)
{
    fmuc_verdict v = check_on(path, id);
    cr_expect_eq(v, want, "%s on %s: %s, expected %s", id, path, fmuc_verdict_name(v),
                 fmuc_verdict_name(want));
}

/* --- eq-native-roundtrip -------------------------------------------------------------------- */

/* The check passes on path with max |d| = 0 everywhere; r stays open for more assertions. */
static void roundtrip_exact_on(eq_run *rp, const char *path, int level, int one_cpu)
{
    eq_run r;
    open_fmu(&r, path);
    cr_assert_eq(run_check(&r, "eq-native-roundtrip"), FMUC_VERDICT_PASS);
    cJSON *ev = r.res.evidence;
    cr_assert(ev);
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(ev, "native_level")), level);
    cJSON *tab = cJSON_GetObjectItem(ev, "max_abs_diff");
    const char *ifs[2] = {"ME", "CS"};
    for (int i = 0; i < 2; i++) {
        cJSON *t = cJSON_GetObjectItem(tab, ifs[i]);
        cr_assert(t, "no %s table", ifs[i]);
        cr_expect_eq(cJSON_GetArraySize(t), level == 2 ? 8 : 18);
        cJSON *o;
        cJSON_ArrayForEach(o, t)
        {
            cJSON *d = cJSON_GetObjectItem(o, "max_abs_diff");
            cr_expect(cJSON_IsNumber(d) && d->valuedouble == 0.0, "%s %s: max |d| not 0",
                      ifs[i], o->string);
        }
    }
    cr_expect(cJSON_GetArraySize(cJSON_GetObjectItem(ev, "plots")) >= 4);
    cpu_set_t set;
    CPU_ZERO(&set);
    int many = sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) >= 2;
    cr_expect(!(one_cpu && many));
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(ev, "native_run")),
                     many ? "beside the FMU run" : "before the FMU run");
    *rp = r;
}

static void roundtrip_exact(const char *path, int level, int one_cpu)
{
    eq_run r;
    roundtrip_exact_on(&r, path, level, one_cpu);
    close_run(&r);
}

Test(eq_native_roundtrip, l2_cs_me_bit_exact) { roundtrip_exact(VDSIM(2), 2, 0); }
Test(eq_native_roundtrip, l3_cs_me_bit_exact) { roundtrip_exact(VDSIM(3), 3, 0); }

/* FMI 3.0: vdsim_l<N>_fmi3 recognised by its instantiationToken; L3's susp_comp and Fz (arrays of
 * 4) compared element by element: the same 18 outputs, bit for bit, named "Fz[1]".."Fz[4]". */
#define VDSIM3(l) FMUC_FMU_DIR "/fmi3/vdsim_l" #l "_fmi3.fmu"
Test(eq_native_roundtrip, fmi3_l2_cs_me_bit_exact, .timeout = 300)
{
    roundtrip_exact(VDSIM3(2), 2, 0);
}
Test(eq_native_roundtrip, fmi3_l3_arrays_bit_exact_per_element, .timeout = 300)
{
    eq_run r;
    roundtrip_exact_on(&r, VDSIM3(3), 3, 0);
    const char *el[] = {"susp_comp[1]", "susp_comp[4]", "Fz[1]", "Fz[2]", "Fz[3]", "Fz[4]"};
    for (size_t i = 0; i < sizeof el / sizeof el[0]; i++) {
        cJSON *o = cJSON_GetObjectItem(
            cJSON_GetObjectItem(cJSON_GetObjectItem(r.res.evidence, "max_abs_diff"), "CS"), el[i]);
        cr_expect(o, "no CS entry %s", el[i]);
        cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(o, "vr")), el[i][0] == 'F' ? 40 : 30);
    }
    close_run(&r);
}

/* The FMI 3.0 fixture: vdsim_l3 on the 3.0 glue with Fz's rear wheels swapped. Recognised by the
 * token (no --native), it fails in both interfaces on Fz[3] and Fz[4] only. */
Test(eq_native_roundtrip, fmi3_fixture_fails_on_the_swapped_elements, .timeout = 300)
{
    eq_run r;
    open_fmu(&r, BROKEN("eq-native-roundtrip--fmi3"));
    cr_assert_eq(run_check(&r, "eq-native-roundtrip"), FMUC_VERDICT_FAIL);
    size_t first = 0, fz3 = 0, fz4 = 0, other = 0;
    for (size_t i = 0; i < r.res.nmessages; i++) {
        const char *m = r.res.messages[i];
        if (!strstr(m, "must be 0") && !strstr(m, "first differs"))
            continue;
        first += strstr(m, "first differs") != NULL;
        if (strstr(m, "output 'Fz[3]' (vr 40)"))
            fz3++;
        else if (strstr(m, "output 'Fz[4]' (vr 40)"))
            fz4++;
        else
            other++;
    }
    cr_expect_eq(first, 2, "one first difference per interface");
    cr_expect(fz3 >= 2 && fz4 >= 2, "Fz[3] %zu, Fz[4] %zu", fz3, fz4);
    cr_expect_eq(other, 0, "only the swapped elements differ");
    cJSON *cs = cJSON_GetObjectItem(cJSON_GetObjectItem(r.res.evidence, "max_abs_diff"), "CS");
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(cJSON_GetObjectItem(cs, "Fz[2]"),
                                                          "max_abs_diff")),
                 0.0);
    cr_expect_gt(cJSON_GetNumberValue(cJSON_GetObjectItem(cJSON_GetObjectItem(cs, "Fz[3]"),
                                                          "max_abs_diff")),
                 0.0);
    close_run(&r);
}

/* A look-alike by name whose token is not this build's is not compared unless forced. */
Test(eq_native_roundtrip, fmi3_token_and_names_recognise_the_model, .timeout = 300)
{
    cr_expect(fmuc_eq__vdsim_token(2) && fmuc_eq__vdsim_token(2)[0] == '{');
    cr_expect(fmuc_eq__vdsim_token(3) && strcmp(fmuc_eq__vdsim_token(3), fmuc_eq__vdsim_guid(3)),
              "the L3 table of FMI 3.0 (arrays) hashes to another token");
    cr_expect_null(fmuc_eq__vdsim_token(1));
    eq_run r;
    open_fmu(&r, VDSIM3(3));
    char why[512];
    cr_expect_eq(fmuc_eq__vdsim_level(&r.fmu, &r.opts, why, sizeof why), 3, "%s", why);
    const char *token = r.fmu.md.guid;
    r.fmu.md.guid = fmuc_eq__vdsim_guid(3); /* the FMI 2.0 GUID is not the token */
    cr_expect_eq(fmuc_eq__vdsim_level(&r.fmu, &r.opts, why, sizeof why), 0);
    cr_expect(strstr(why, "instantiationToken"), "%s", why);
    r.opts.native = "l3";
    cr_expect_eq(fmuc_eq__vdsim_level(&r.fmu, &r.opts, why, sizeof why), 3);
    r.fmu.md.guid = token;
    close_run(&r);
}

/* A native parameter other than the FMU's: both interfaces differ. */
static void perturbed_fails(void)
{
    eq_run r;
    open_fmu(&r, VDSIM(2));
    fmuc_eq_native_tweak tw = {"mass", 1700.0};
    fmuc_result_init(&r.res, "eq-native-roundtrip", "t", "s", FMUC_LEVEL_MUST);
    fmuc_subject s = {.fmu = &r.fmu, .opts = &r.opts};
    fmuc_eq__native_roundtrip(&s, &r.res, &tw);
    cr_expect_eq(r.res.verdict, FMUC_VERDICT_FAIL);
    cr_expect_geq(r.res.nmessages, 2); /* ME and CS both differ */
    close_run(&r);
}

Test(eq_native_roundtrip, perturbed_native_parameter_fails) { perturbed_fails(); }

/* With one CPU the native core runs before the FMU instead of beside it: same figures. */
Test(eq_native_roundtrip, one_cpu_runs_the_native_core_first)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(sched_getcpu() >= 0 ? sched_getcpu() : 0, &one);
    cr_assert_eq(sched_setaffinity(0, sizeof one, &one), 0); /* this test's process only */
    roundtrip_exact(VDSIM(2), 2, 1);
    perturbed_fails();
}

Test(eq_native_roundtrip, tiny_perturbation_is_seen)
{
    eq_run r;
    open_fmu(&r, VDSIM(3));
    /* one ulp-scale change of the initial speed must already be a difference */
    fmuc_eq_native_tweak tw = {"vx0", nextafter(20.0, 21.0)};
    fmuc_result_init(&r.res, "eq-native-roundtrip", "t", "s", FMUC_LEVEL_MUST);
    fmuc_subject s = {.fmu = &r.fmu, .opts = &r.opts};
    fmuc_eq__native_roundtrip(&s, &r.res, &tw);
    cr_expect_eq(r.res.verdict, FMUC_VERDICT_FAIL);
    close_run(&r);
}

Test(eq_native_roundtrip, not_applicable_for_other_fmus)
{
    expect_verdict(GOOD("SpringMassDamper"), "eq-native-roundtrip", FMUC_VERDICT_NA);
}

Test(eq_native_roundtrip, native_none_disables)
{
    eq_run r;
    open_fmu(&r, VDSIM(2));
    r.opts.native = "none";
    cr_expect_eq(run_check(&r, "eq-native-roundtrip"), FMUC_VERDICT_NA);
    close_run(&r);
}

Test(eq_native_roundtrip, wrong_level_forced_fails)
{
    eq_run r;
    open_fmu(&r, VDSIM(2));
    r.opts.native = "l3"; /* the L2 FMU against the L3 core: different dynamics */
    cr_expect_eq(run_check(&r, "eq-native-roundtrip"), FMUC_VERDICT_FAIL);
    close_run(&r);
}

Test(eq_native_roundtrip, guid_exposed)
{
    cr_expect(fmuc_eq__vdsim_guid(2) && fmuc_eq__vdsim_guid(2)[0] == '{');
    cr_expect(fmuc_eq__vdsim_guid(3) && strcmp(fmuc_eq__vdsim_guid(2), fmuc_eq__vdsim_guid(3)));
    cr_expect_null(fmuc_eq__vdsim_guid(4));
}

/* --- eq-determinism ------------------------------------------------------------------------- */

Test(eq_determinism, vdsim_and_good_pass)
{
    expect_verdict(VDSIM(2), "eq-determinism", FMUC_VERDICT_PASS);
    expect_verdict(VDSIM(3), "eq-determinism", FMUC_VERDICT_PASS);
    expect_verdict(GOOD("SpringMassDamper"), "eq-determinism", FMUC_VERDICT_PASS);
}

/* the eq-* checks drive their inputs with the simulation driver's excitation over the planned
 * run, recorded in the evidence: within [min, max], starting at the start value, its sign kept */
Test(eq_determinism, inputs_are_the_drivers_excitation_in_the_evidence)
{
    eq_run r;
    open_fmu(&r, VDSIM(2));
    cr_assert_eq(run_check(&r, "eq-determinism"), FMUC_VERDICT_PASS);
    const cJSON *cs = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(r.res.evidence, "inputs"), "CS");
    cr_assert(cs, "no inputs.CS in the evidence");
    cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cs, "source")),
                     "excitation");
    const fmuc_md_experiment *e = &r.fmu.md.experiment;
    cr_assert(e->present && e->has_stop);
    /* the planned run: within the experiment */
    double t1 = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(cs, "t1"));
    cr_assert(t1 > e->start_time && t1 <= e->stop_time * (1.0 + 1e-12), "t1 %g outside (%g, %g]",
              t1, e->start_time, e->stop_time);
    const cJSON *it;
    size_t n = 0;
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(cs, "inputs"))
    {
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "name"));
        const fmuc_md_var *v = equ_md_find(&r.fmu.md, name ? name : "");
        cr_assert(v, "input '%s' not in the model description", name ? name : "?");
        double c = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(it, "offset"));
        double a = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(it, "amplitude"));
        cr_expect(a != 0.0, "%s: the input does not move", name);
        if (v->has & FMUC_HAS_START)
            cr_expect_float_eq(c, v->start, 1e-12, "%s: starts at %g, not its start", name, c);
        if (v->has & FMUC_HAS_MIN)
            cr_expect(c >= v->min && c + a >= v->min, "%s: below min", name);
        if (v->has & FMUC_HAS_MAX)
            cr_expect(c <= v->max && c + a <= v->max, "%s: above max", name);
        cr_expect(c * (c + a) >= 0.0, "%s: the excitation changes the sign of %g", name, c);
        n++;
    }
    cr_assert_gt(n, 0, "vdsim_l2 has inputs");
    close_run(&r);
}

/* a run cut short (the bounded horizon cuts nsteps) sees the beginning of the planned run's
 * inputs, not the whole excitation squeezed into its shorter time; for ME also when the
 * substep budget (vdsim: 40 RK4 substeps a step) shortens the planned run after the cut */
static void cut_run_case(fmuc_iface iface)
{
    eq_run r;
    equ_plan full, cut;
    open_fmu(&r, VDSIM(2));
    cr_assert_eq(equ_plan_init(&full, &r.fmu, iface, EQU_STEPS_SHORT), 0, "%s", full.why);
    cr_assert_eq(equ_plan_init(&cut, &r.fmu, iface, EQU_STEPS_SHORT), 0, "%s", cut.why);
    cr_assert_gt(full.nin, 0);
    cut.nsteps = 20; /* what equ_plan_horizon does, before the budget */
    equ_plan_me_budget(&full, 2, EQU_ME_SUBSTEPS_SHORT);
    equ_plan_me_budget(&cut, 2, EQU_ME_SUBSTEPS_SHORT);
    cr_assert_gt(full.nsteps, cut.nsteps, "the cut run is shorter");
    cr_assert_eq(cut.nplanned, full.nplanned, "the same planned run");
    cr_assert_eq(cut.t[cut.nplanned], full.t[full.nplanned], "the same planned run");
    cr_assert_eq(cut.stop, full.stop, "the FMU is told the same stop time");
    equ_plan_excite(&full, NULL);
    equ_plan_excite(&cut, NULL);
    int moved = 0;
    for (size_t k = 0; k <= cut.nsteps; k++)
        for (size_t j = 0; j < cut.nin; j++) {
            cr_assert_eq(cut.in_values[k * cut.nin + j], full.in_values[k * full.nin + j],
                         "input %zu at step %zu", j, k);
            moved |= cut.in_values[k * cut.nin + j] != cut.in_values[j];
        }
    cr_assert(moved, "the inputs do not move within the cut run");
    equ_plan_free(&full);
    equ_plan_free(&cut);
    close_run(&r);
}

Test(eq_determinism, a_cut_run_gets_the_start_of_the_planned_excitation)
{
    cut_run_case(FMUC_IFACE_CS);
}

Test(eq_determinism, a_cut_me_run_gets_the_start_of_the_budgeted_excitation)
{
    cut_run_case(FMUC_IFACE_ME);
}

/* Changes of any input between consecutive steps of p: how many, and whether one falls inside a
 * block of b steps (*inside). */
static size_t input_changes(const equ_plan *p, size_t b, int *inside)
{
    size_t changes = 0;
    *inside = 0;
    for (size_t k = 1; k <= p->nsteps; k++) {
        int changed = 0;
        for (size_t j = 0; j < p->nin; j++)
            changed |= p->in_values[k * p->nin + j] != p->in_values[(k - 1) * p->nin + j];
        changes += (size_t)changed;
        *inside |= changed && k % b != 0;
    }
    return changes;
}

/* equ_plan_excite_held (eq-determinism), Co-Simulation: the excitation changes the inputs only
 * at the first step of each block of equ_cs_input_block(nsteps) steps of the run as made, at
 * most EQU_CS_INPUT_CHANGES times (an FMU that restarts its integrator at every input change
 * pays per change, not per step), also in a run a horizon cut short; Model Exchange keeps the
 * value of every step, and so does equ_plan_excite (the FMU-state checks) in Co-Simulation. */
Test(eq_determinism, co_simulation_inputs_change_only_at_block_starts)
{
    eq_run r;
    equ_plan cs, me, cut;
    int inside;
    open_fmu(&r, VDSIM(2));
    cr_assert_eq(equ_plan_init(&cs, &r.fmu, FMUC_IFACE_CS, EQU_STEPS_SHORT), 0, "%s", cs.why);
    cr_assert_eq(equ_plan_init(&me, &r.fmu, FMUC_IFACE_ME, EQU_STEPS_SHORT), 0, "%s", me.why);
    cr_assert_eq(equ_plan_init(&cut, &r.fmu, FMUC_IFACE_CS, EQU_STEPS_SHORT), 0, "%s", cut.why);
    cr_assert_gt(cs.nin, 0);
    cut.nsteps = 6; /* a horizon's cut: fewer steps than a block of the planned run */
    equ_plan_excite_held(&cs, NULL);
    equ_plan_excite_held(&me, NULL);
    equ_plan_excite_held(&cut, NULL);
    size_t b = equ_cs_input_block(cs.nsteps);
    cr_assert_gt(b, 1, "%zu steps, more than %d changes", cs.nsteps, EQU_CS_INPUT_CHANGES);
    size_t changes = input_changes(&cs, b, &inside);
    cr_expect(!inside, "CS inputs change inside a block of %zu", b);
    cr_expect_gt(changes, 0, "the CS inputs never move");
    cr_expect_leq(changes, (size_t)EQU_CS_INPUT_CHANGES, "%zu changes", changes);
    cr_expect_gt(input_changes(&cut, 1, &inside), 0, "a cut CS run's inputs never move");
    equ_plan_free(&cut);
    input_changes(&me, b, &inside);
    cr_expect(inside, "ME inputs are held like CS ones");
    equ_plan every;
    cr_assert_eq(equ_plan_init(&every, &r.fmu, FMUC_IFACE_CS, EQU_STEPS_SHORT), 0, "%s",
                 every.why);
    equ_plan_excite(&every, NULL);
    input_changes(&every, b, &inside);
    cr_expect(inside, "equ_plan_excite holds CS inputs over blocks too");
    equ_plan_free(&every);
    cr_expect_eq(equ_cs_input_block(0), 1);
    cr_expect_eq(equ_cs_input_block(EQU_CS_INPUT_CHANGES), 1);
    cr_expect_eq(equ_cs_input_block(EQU_CS_INPUT_CHANGES + 1), 2);
    equ_plan_free(&cs);
    equ_plan_free(&me);
    close_run(&r);
}

/* An interface an earlier check found unusable (a crash or hang in a phase every run needs) is
 * left out, naming that check; with none left the check is not applicable, not an error */
static fmuc_verdict run_with_unusable(eq_run *r, const char *id, int me, int cs)
{
    const fmuc_check *c = fmuc_check_find(id);
    cr_assert(c, "check %s not registered", id);
    fmuc_shared_runs *sr = fmuc_shared_runs_new();
    cr_assert(sr);
    fmuc_subject s = {.fmu = &r->fmu, .shared = sr};
    s.opts = fmuc_shared_runs_bind(sr, &r->opts);
    if (me)
        fmuc_shared_mark_unusable(&s, FMUC_IFACE_ME, FMUC_UNUSABLE_RUN, "check-me",
                                  "crashed in fmi2EnterInitializationMode", NULL);
    if (cs)
        fmuc_shared_mark_unusable(&s, FMUC_IFACE_CS, FMUC_UNUSABLE_RUN, "check-cs",
                                  "hung in fmi2ExitInitializationMode", NULL);
    fmuc_result_clear(&r->res);
    fmuc_result_init(&r->res, c->id, c->title, c->spec, c->level);
    c->run(&s, &r->res);
    fmuc_shared_runs_free(sr);
    return r->res.verdict;
}

static int has_message(const fmuc_result *res, const char *a, const char *b)
{
    for (size_t i = 0; i < res->nmessages; i++)
        if (strstr(res->messages[i], a) && (!b || strstr(res->messages[i], b)))
            return 1;
    return 0;
}

Test(eq_determinism, unusable_interfaces_are_left_out_naming_the_check, .timeout = 120)
{
    static const char *const ids[] = {"eq-determinism", "eq-fmu-state", "eq-serialize",
                                      "eq-serialize-corrupt"};
    eq_run r;
    open_fmu(&r, GOOD("SpringMassDamper"));
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        fmuc_verdict v = run_with_unusable(&r, ids[i], 1, 1);
        cr_expect_eq(v, FMUC_VERDICT_NA, "%s with no usable interface: %s", ids[i],
                     fmuc_verdict_name(v));
        cr_expect(has_message(&r.res, "check-me", "check-cs"), "%s: both checks named", ids[i]);
        cr_expect(!cJSON_GetObjectItemCaseSensitive(r.res.evidence, "worker"),
                  "%s: no worker ran", ids[i]);
    }
    /* one left: judged there, the other named */
    fmuc_verdict v = run_with_unusable(&r, "eq-determinism", 0, 1);
    cr_expect_eq(v, FMUC_VERDICT_PASS, "ME judged: %s", fmuc_verdict_name(v));
    cr_expect(has_message(&r.res, "not run on every interface", "check-cs"));
    cr_expect(!has_message(&r.res, "CS:", NULL), "CS not run");
    close_run(&r);
}

/* FMI 2.0.4 does not require reproducible results: noise seeded from the clock differs between
 * processes (4), which warns, and leaves (1) to (3) unjudged */
Test(eq_determinism, clock_seeded_noise_warns)
{
    eq_run r;
    open_fmu(&r, BROKEN("eq-determinism"));
    cr_expect_eq(run_check(&r, "eq-determinism"), FMUC_VERDICT_WARN);
    cJSON *me = cJSON_GetObjectItem(r.res.evidence, "ME");
    cr_expect(cJSON_IsObject(cJSON_GetObjectItem(me, "(4) separate worker processes")));
    cr_expect(cJSON_IsObject(cJSON_GetObjectItem(me, "(1) two fresh instances in sequence")));
    close_run(&r);
}

Test(eq_determinism, static_global_fails_only_interleaved)
{
    eq_run r;
    open_fmu(&r, BROKEN("eq-determinism--global"));
    cr_expect_eq(run_check(&r, "eq-determinism"), FMUC_VERDICT_FAIL);
    cJSON *cs = cJSON_GetObjectItem(r.res.evidence, "CS");
    cr_expect(cJSON_IsString(cJSON_GetObjectItem(cs, "(1) two fresh instances in sequence")));
    cr_expect(cJSON_IsString(cJSON_GetObjectItem(cs, "(2) after fmi2Reset")));
    cr_expect(cJSON_IsObject(
        cJSON_GetObjectItem(cs, "(3) two live instances stepped alternately, first")));
    cr_expect(cJSON_IsString(cJSON_GetObjectItem(cs, "(4) separate worker processes")));
    cJSON *me = cJSON_GetObjectItem(r.res.evidence, "ME");
    cr_expect(cJSON_IsString(
        cJSON_GetObjectItem(me, "(3) two live instances stepped alternately, second")));
    close_run(&r);
}

/* issue 16 (time): when both instances of (3) repeat instance 1, instance A also stands for
 * (1) and the run before fmi2Reset (one instance fewer); otherwise the full sequence runs */
Test(eq_determinism, short_sequence_when_instances_agree)
{
    eq_run r;
    open_fmu(&r, GOOD("SpringMassDamper"));
    cr_expect_eq(run_check(&r, "eq-determinism"), FMUC_VERDICT_PASS);
    cJSON *cs = cJSON_GetObjectItem(r.res.evidence, "CS");
    cr_expect(cJSON_IsString(cJSON_GetObjectItem(cs, "(1) and (2) instance")));
    cr_expect(cJSON_IsString(cJSON_GetObjectItem(cs, "(1) two fresh instances in sequence")));
    cr_expect(cJSON_IsString(cJSON_GetObjectItem(cs, "(2) after fmi2Reset")));
    close_run(&r);
    open_fmu(&r, BROKEN("eq-determinism--global"));
    cr_expect_eq(run_check(&r, "eq-determinism"), FMUC_VERDICT_FAIL);
    cr_expect_null(cJSON_GetObjectItem(cJSON_GetObjectItem(r.res.evidence, "CS"),
                                       "(1) and (2) instance"));
    close_run(&r);
}

Test(eq_determinism, reset_keeping_state_fails)
{
    eq_run r;
    open_fmu(&r, BROKEN("eq-determinism--reset"));
    cr_expect_eq(run_check(&r, "eq-determinism"), FMUC_VERDICT_FAIL);
    cJSON *cs = cJSON_GetObjectItem(r.res.evidence, "CS");
    cr_expect(cJSON_IsString(cJSON_GetObjectItem(cs, "(1) two fresh instances in sequence")));
    cr_expect(cJSON_IsObject(cJSON_GetObjectItem(cs, "(2) after fmi2Reset")));
    close_run(&r);
}

/* §2.1.6: an fmi2Reset that returns fmi2Error after a run that succeeded is the reset rule's
 * failure, not a comparison left undone */
Test(eq_determinism, reset_returning_error_fails)
{
    eq_run r;
    open_fmu(&r, BROKEN("eq-determinism--reset-error"));
    cr_expect_eq(run_check(&r, "eq-determinism"), FMUC_VERDICT_FAIL);
    size_t named = 0;
    for (size_t i = 0; i < r.res.nmessages; i++)
        named += strstr(r.res.messages[i], "fmi2Reset returned fmi2Error") != NULL;
    cr_expect_eq(named, 2, "one failure per interface naming the call");
    close_run(&r);
}

/* --- eq-fmu-state, eq-serialize, eq-serialize-corrupt -------------------------------------- */

Test(eq_fmu_state, vdsim_and_good_pass)
{
    expect_verdict(VDSIM(2), "eq-fmu-state", FMUC_VERDICT_PASS);
    expect_verdict(VDSIM(3), "eq-fmu-state", FMUC_VERDICT_PASS);
    expect_verdict(GOOD("SpringMassDamper"), "eq-fmu-state", FMUC_VERDICT_PASS);
}

Test(eq_fmu_state, partial_restore_fails)
{
    expect_verdict(BROKEN("eq-fmu-state"), "eq-fmu-state", FMUC_VERDICT_FAIL);
    expect_verdict(BROKEN("eq-fmu-state"), "eq-serialize", FMUC_VERDICT_NA);
}

/* a variable-step solver that restarts after fmi2SetFMUstate differs by the integration error:
 * not bit-identical, but the difference shrinks with the tolerance */
static const char *restart_conclusion(const fmuc_result *res, const char *iface, const char *key)
{
    cJSON *o = cJSON_GetObjectItem(cJSON_GetObjectItem(res->evidence, iface), key);
    return cJSON_GetStringValue(cJSON_GetObjectItem(o, "conclusion"));
}

Test(eq_fmu_state, integrator_restart_passes)
{
    eq_run r;
    open_fmu(&r, HOSTILE("integrator-restart"));
    cr_expect_eq(run_check(&r, "eq-fmu-state"), FMUC_VERDICT_PASS);
    cr_expect(cJSON_IsFalse(
        cJSON_GetObjectItem(cJSON_GetObjectItem(r.res.evidence, "CS"), "bit_identical")));
    const char *k = restart_conclusion(&r.res, "CS", "restored_runs_differ");
    cr_expect(k && strcmp(k, "integrator restart") == 0, "conclusion %s", k ? k : "(none)");
    cr_expect(cJSON_IsTrue(
        cJSON_GetObjectItem(cJSON_GetObjectItem(r.res.evidence, "ME"), "bit_identical")));
    cr_expect_eq(run_check(&r, "eq-serialize"), FMUC_VERDICT_PASS);
    k = restart_conclusion(&r.res, "CS", "continuation_differs");
    cr_expect(k && strcmp(k, "integrator restart") == 0, "conclusion %s", k ? k : "(none)");
    /* after fmi2Reset the solver starts with another step: within the integration error */
    cr_expect_eq(run_check(&r, "eq-determinism"), FMUC_VERDICT_PASS);
    k = restart_conclusion(&r.res, "CS", "(2) tolerance");
    cr_expect(k && strcmp(k, "integrator restart") == 0, "conclusion %s", k ? k : "(none)");
    close_run(&r);
}

Test(eq_fmu_state, lost_state_with_a_variable_step_fails)
{
    eq_run r;
    open_fmu(&r, BROKEN("eq-fmu-state--lost-velocity"));
    cr_expect_eq(run_check(&r, "eq-fmu-state"), FMUC_VERDICT_FAIL);
    const char *k = restart_conclusion(&r.res, "CS", "restored_runs_differ");
    cr_expect(k && strcmp(k, "state not restored") == 0, "conclusion %s", k ? k : "(none)");
    close_run(&r);
}

Test(eq_fmu_state, not_applicable_without_capability)
{
    expect_verdict(BROKEN("eq-determinism--global"), "eq-fmu-state", FMUC_VERDICT_NA);
}

Test(eq_serialize, vdsim_and_good_pass)
{
    const char *paths[] = {VDSIM(2), VDSIM(3), GOOD("SpringMassDamper")};
    for (int i = 0; i < 3; i++) {
        expect_verdict(paths[i], "eq-serialize", FMUC_VERDICT_PASS);
        expect_verdict(paths[i], "eq-serialize-corrupt", FMUC_VERDICT_PASS);
    }
}

Test(eq_serialize, deserialize_ignoring_bytes_fails)
{
    expect_verdict(BROKEN("eq-serialize"), "eq-serialize", FMUC_VERDICT_FAIL);
    expect_verdict(BROKEN("eq-serialize"), "eq-fmu-state", FMUC_VERDICT_PASS);
    eq_run r;
    open_fmu(&r, BROKEN("eq-serialize-corrupt"));
    cr_expect_eq(run_check(&r, "eq-serialize-corrupt"), FMUC_VERDICT_WARN);
    cr_expect_eq(r.res.nmessages, 6); /* 3 corruptions x (ME, CS) */
    close_run(&r);
}

/* a crash on damaged bytes: undefined by the text, so a warning, and each probe in a worker of
 * its own */
Test(eq_serialize, crash_on_damaged_bytes_warns)
{
    eq_run r;
    open_fmu(&r, BROKEN("eq-serialize-corrupt--crash"));
    cr_expect_eq(run_check(&r, "eq-serialize-corrupt"), FMUC_VERDICT_WARN);
    cJSON *cs = cJSON_GetObjectItem(r.res.evidence, "CS");
    cr_expect_eq(cJSON_GetArraySize(cs), 4, "serialized_bytes and three probes");
    cr_expect_eq(run_check(&r, "eq-serialize"), FMUC_VERDICT_PASS);
    close_run(&r);
}

/* a refusing fmi2DeSerializeFMUstate that leaves a pointer whose fmi2FreeFMUstate aborts: the
 * output of a failed call is never used */
Test(eq_serialize, output_of_a_refusal_is_not_freed)
{
    expect_verdict(HOSTILE("deserialize-garbage-on-error"), "eq-serialize-corrupt",
                   FMUC_VERDICT_PASS);
}

/* --- reference CSV reader ------------------------------------------------------------------- */

static fmuc_err parse_csv(const char *text, fmuc_refcsv *c, fmuc_diag *d)
{
    memset(d, 0, sizeof *d);
    return fmuc_refcsv_parse(c, text, strlen(text), "ref.csv", d);
}

Test(refcsv, parses_quoted_names_crlf_bom_and_booleans)
{
    fmuc_refcsv c;
    fmuc_diag d;
    const char *t = "\xEF\xBB\xBF\"time\",\"der(x)\", \"a,b\" ,flag\r\n"
                    "0, 1.5e0 ,-2,true\r\n\r\n0.5,NaN,3,false\r\n0.5,4,5,1\r\n";
    cr_assert_eq(parse_csv(t, &c, &d), FMUC_OK, "%s", d.msg);
    cr_expect_eq(c.ncols, 3);
    cr_expect_str_eq(c.cols[0], "der(x)");
    cr_expect_str_eq(c.cols[1], "a,b");
    cr_expect_eq(fmuc_refcsv_column(&c, "flag"), 2);
    cr_expect_eq(fmuc_refcsv_column(&c, "time"), -1);
    cr_expect_eq(c.nrows, 3);
    cr_expect_eq(fmuc_refcsv_at(&c, 0, 0), 1.5);
    cr_expect(isnan(fmuc_refcsv_at(&c, 1, 0)));
    cr_expect_eq(fmuc_refcsv_at(&c, 0, 2), 1.0);
    cr_expect_eq(fmuc_refcsv_at(&c, 1, 2), 0.0);
    cr_expect_eq(c.time[2], 0.5);
    fmuc_refcsv_free(&c);
}

static void expect_csv_error(const char *text, const char *where)
{
    fmuc_refcsv c;
    fmuc_diag d;
    cr_expect_eq(parse_csv(text, &c, &d), FMUC_EINPUT, "accepted: %s", text);
    cr_expect(strstr(d.msg, where) != NULL, "'%s' does not name %s", d.msg, where);
    fmuc_refcsv_free(&c);
}

Test(refcsv, errors_name_file_line_and_column)
{
    expect_csv_error("time,x\n0,1\n0.1,abc\n", "ref.csv:3:2:");
    expect_csv_error("time,x\n0,1\n0.1,0x10\n", "ref.csv:3:2:");  /* hex is refused */
    expect_csv_error("time,x\n0,1\n0.1,1,5\n", "ref.csv:3:");     /* field count */
    expect_csv_error("time,x\n0,1\n0.1,1\n0.05,1\n", "ref.csv:4:1:"); /* time goes back */
    expect_csv_error("time,x,x\n0,1,2\n", "ref.csv:1:3:");        /* duplicate column */
    expect_csv_error("time,\"x\n0,1\n", "ref.csv:1:2:");         /* unterminated quote */
    expect_csv_error("time,x\n0,1,\n", "ref.csv:2:");
    expect_csv_error("time,x\n0,1,5\n", "ref.csv:2:");
    expect_csv_error("time,x\n0,1\n0.1,1\n0.2,\n", "ref.csv:4:2:"); /* empty cell */
    expect_csv_error("time,x\n0,0,5\n", "ref.csv:2");
    expect_csv_error("time,x\n", "no data rows");
    expect_csv_error("", "no header");
    expect_csv_error("time\n0\n", "ref.csv:1:");
    expect_csv_error("time,x\n0,1\n0,5 ,1\n", "ref.csv:3:");
    expect_csv_error("time,x\ninf,1\n", "ref.csv:2:1:");
    expect_csv_error("time,x\n0,1,5e\n", "ref.csv:2");
}

Test(refcsv, numbers_do_not_follow_the_locale)
{
    /* a decimal comma is a column-count error, never 1.5 */
    expect_csv_error("time,x\n0,1,5\n", "3 fields, the header has 2");
    fmuc_refcsv c;
    fmuc_diag d;
    cr_assert_eq(parse_csv("time,x\n0,1.25\n", &c, &d), FMUC_OK);
    cr_expect_eq(fmuc_refcsv_at(&c, 0, 0), 1.25);
    fmuc_refcsv_free(&c);
}

Test(refcsv, read_names_the_file)
{
    fmuc_refcsv c;
    fmuc_diag d = {{0}, FMUC_OK};
    cr_expect_eq(fmuc_refcsv_read(&c, "/nonexistent/dir/r.csv", &d), FMUC_EINPUT);
    cr_expect(strstr(d.msg, "/nonexistent/dir/r.csv") != NULL);
    fmuc_refcsv_free(&c);
    char *dir = fmuc_test_mkdtemp("refcsv");
    char path[512];
    snprintf(path, sizeof path, "%s/bad.csv", dir);
    fmuc_test_write_file(path, "time,x\n0,1\n1,zz\n", 16);
    cr_expect_eq(fmuc_refcsv_read(&c, path, &d), FMUC_EINPUT);
    cr_expect(strstr(d.msg, "bad.csv:3:2:") != NULL, "%s", d.msg);
    fmuc_refcsv_free(&c);
    fmuc_test_rm_rf(dir);
    free(dir);
}

/* --- eq-reference ----------------------------------------------------------------------------- */

/* The exact solution of the SpringMassDamper (m 2.5, k 120, x0 0.05, v0 0) with damping c. */
static char *smd_reference(double c, const char *extra_col)
{
    const double m = 2.5, k = 120.0, x0 = 0.05;
    double a = c / (2 * m), wd = sqrt(k / m - a * a), B = a * x0 / wd;
    size_t cap = 1 << 16, len = 0;
    char *s = malloc(cap);
    len += (size_t)snprintf(s + len, cap - len, "time,x,v%s%s\n", extra_col ? "," : "",
                            extra_col ? extra_col : "");
    for (int i = 0; i <= 100; i++) {
        double t = i * 0.02, e = exp(-a * t), cs = cos(wd * t), sn = sin(wd * t);
        double x = e * (x0 * cs + B * sn);
        double v = e * (-a * (x0 * cs + B * sn) + (-x0 * wd * sn + B * wd * cs));
        len += (size_t)snprintf(s + len, cap - len, "%.17g,%.17g,%.17g%s\n", t, x, v,
                                extra_col ? ",0" : "");
    }
    return s;
}

static fmuc_verdict reference_verdict(double c, const char *extra, double rtol, double atol,
                                      size_t *nmsg)
{
    char *dir = fmuc_test_mkdtemp("eqref");
    char path[512];
    snprintf(path, sizeof path, "%s/ref.csv", dir);
    char *csv = smd_reference(c, extra);
    fmuc_test_write_file(path, csv, strlen(csv));
    free(csv);
    eq_run r;
    open_fmu(&r, GOOD("SpringMassDamper"));
    r.opts.reference_csv = path;
    r.opts.rtol = rtol;
    r.opts.atol = atol;
    fmuc_verdict v = run_check(&r, "eq-reference");
    if (nmsg) {
        *nmsg = 0;
        for (size_t i = 0; i < r.res.nmessages; i++)
            *nmsg += strstr(r.res.messages[i], "points outside") != NULL;
    }
    if (v == FMUC_VERDICT_PASS) {
        cJSON *dev = cJSON_GetObjectItem(r.res.evidence, "CS deviations");
        cr_expect_eq(cJSON_GetArraySize(dev), 2);
        cr_expect_geq(cJSON_GetArraySize(cJSON_GetObjectItem(r.res.evidence, "plots")), 4);
    }
    close_run(&r);
    fmuc_test_rm_rf(dir);
    free(dir);
    return v;
}

Test(eq_reference, matching_reference_passes)
{
    cr_expect_eq(reference_verdict(3.0, NULL, 1e-4, 1e-6, NULL), FMUC_VERDICT_PASS);
}

Test(eq_reference, input_columns_drive_inputs)
{
    /* a column named like the input F drives it (all zero here) and is not compared */
    cr_expect_eq(reference_verdict(3.0, "F", 1e-4, 1e-6, NULL), FMUC_VERDICT_PASS);
}

Test(eq_reference, deviating_reference_fails)
{
    size_t n = 0;
    cr_expect_eq(reference_verdict(4.0, NULL, 1e-4, 1e-6, &n), FMUC_VERDICT_FAIL);
    cr_expect_eq(n, 4); /* x and v, ME and CS */
}

Test(eq_reference, unknown_column_fails)
{
    cr_expect_eq(reference_verdict(3.0, "no_such_variable", 1e-4, 1e-6, NULL),
                 FMUC_VERDICT_FAIL);
}

Test(eq_reference, bad_file_is_an_error_and_absent_is_na)
{
    eq_run r;
    open_fmu(&r, GOOD("SpringMassDamper"));
    cr_expect_eq(run_check(&r, "eq-reference"), FMUC_VERDICT_NA);
    r.opts.reference_csv = "/nonexistent/ref.csv";
    cr_expect_eq(run_check(&r, "eq-reference"), FMUC_VERDICT_ERROR);
    close_run(&r);
}

Test(eq_reference, fixture_fails)
{
    eq_run r;
    open_fmu(&r, BROKEN("eq-reference"));
    r.opts.reference_csv = FMUC_SOURCE_DIR "/reference_fmus/broken/eq-reference/ref.csv";
    cr_expect_eq(run_check(&r, "eq-reference"), FMUC_VERDICT_FAIL);
    close_run(&r);
}

/* --- eq-compare ------------------------------------------------------------------------------- */

Test(eq_compare, same_model_passes_other_damping_fails)
{
    eq_run r;
    open_fmu(&r, GOOD("SpringMassDamper"));
    cr_expect_eq(run_check(&r, "eq-compare"), FMUC_VERDICT_NA);
    r.opts.compare_fmu = GOOD("SpringMassDamper");
    cr_expect_eq(run_check(&r, "eq-compare"), FMUC_VERDICT_PASS);
    r.opts.compare_fmu = BROKEN("eq-compare");
    cr_expect_eq(run_check(&r, "eq-compare"), FMUC_VERDICT_FAIL);
    cJSON *dev = cJSON_GetObjectItem(r.res.evidence, "CS deviations");
    cr_expect(cJSON_GetObjectItem(dev, "x") && cJSON_GetObjectItem(dev, "v"));
    r.opts.compare_fmu = "/nonexistent.fmu";
    cr_expect_eq(run_check(&r, "eq-compare"), FMUC_VERDICT_ERROR);
    close_run(&r);
}

Test(eq_compare, vdsim_against_itself_and_missing_variables_listed)
{
    eq_run r;
    open_fmu(&r, VDSIM(3));
    r.opts.compare_fmu = VDSIM(2); /* L3 outputs roll, pitch, ... do not exist in L2 */
    fmuc_verdict v = run_check(&r, "eq-compare");
    cr_expect_eq(v, FMUC_VERDICT_FAIL); /* different dynamics */
    size_t notes = 0;
    for (size_t i = 0; i < r.res.nmessages; i++)
        if (strstr(r.res.messages[i], "no counterpart"))
            notes++;
    cr_expect_eq(notes, 20); /* 10 L3-only outputs, ME and CS */
    r.opts.compare_fmu = VDSIM(3);
    cr_expect_eq(run_check(&r, "eq-compare"), FMUC_VERDICT_PASS);
    close_run(&r);
}

/* --- engine ------------------------------------------------------------------------------- */

/* serialized FMU states between workers (eq-serialize, once per process) */
Test(eq_engine, byte_series_round_trip)
{
    const unsigned char b[5] = {0x00, 0xff, 0x10, 0xa5, 0x7f};
    cJSON *j = fmuc_worker_bytes_to_json(b, sizeof b);
    cr_assert(j);
    cr_expect_str_eq(cJSON_GetStringValue(j), "00ff10a57f");
    unsigned char *w = fmuc_worker_bytes_from_json(j, sizeof b);
    cr_assert(w);
    cr_expect_eq(memcmp(b, w, sizeof b), 0);
    free(w);
    cr_expect_null(fmuc_worker_bytes_from_json(j, 4), "the count must match");
    cJSON *upper = cJSON_CreateString("FF"), *junk = cJSON_CreateString("0g");
    cr_expect_null(fmuc_worker_bytes_from_json(upper, 1), "only lowercase hex digits");
    cr_expect_null(fmuc_worker_bytes_from_json(junk, 1), "a non-hex digit is refused");
    cJSON_Delete(upper);
    cJSON_Delete(junk);
    cJSON_Delete(j);
}

Test(eq_engine, rk4_combine_and_series_round_trip)
{
    cr_expect_eq(equ_rk4_combine(1.0, 0.5, 1.0, 1.0, 1.0, 1.0), 4.0);
    double z = equ_rk4_combine(1e-210, 0.0, 0, 0, 0, 0);
    cr_expect(z == 0.0 && !signbit(z));
    z = equ_rk4_combine(-1e-210, 0.0, 0, 0, 0, 0);
    cr_expect(z == 0.0 && signbit(z));
    double v[4] = {-0.0, NAN, 1.0 / 3.0, -1e300}, *w;
    cJSON *j = fmuc_worker_f64_to_json(v, 4);
    cr_assert((w = fmuc_worker_f64_from_json(j, 4)));
    cr_expect_eq(memcmp(v, w, sizeof v), 0);
    cr_expect_null(fmuc_worker_f64_from_json(j, 3));
    cJSON *upper = cJSON_CreateString("3FF0000000000000"), *junk = cJSON_CreateString("3ff000000000000g");
    cr_expect_null(fmuc_worker_f64_from_json(upper, 1), "only lowercase hex digits");
    cr_expect_null(fmuc_worker_f64_from_json(junk, 1), "a non-hex digit is refused");
    cJSON_Delete(upper);
    cJSON_Delete(junk);
    size_t r, c;
    cr_expect_eq(equ_first_diff(v, w, 2, 2, &r, &c), 0);
    w[3] = nextafter(w[3], 0);
    cr_expect_eq(equ_first_diff(v, w, 2, 2, &r, &c), 1);
    cr_expect(r == 1 && c == 1);
    free(w);
    cJSON_Delete(j);
    /* values, not bit patterns: -0.0 = +0.0, NaN = NaN whatever the payload */
    double p[4] = {0.0, NAN, 1.0, 2.0}, q[4] = {-0.0, -NAN, 1.0, 2.0};
    cr_expect_eq(equ_first_mismatch(p, q, 2, 2, &r, &c), 0);
    cr_expect_eq(equ_deviation(p, q, 2, 2, NULL, NULL), 0.0);
    q[3] = 2.5;
    cr_expect_eq(equ_first_mismatch(p, q, 2, 2, &r, &c), 1);
    cr_expect(r == 1 && c == 1);
    cr_expect_eq(equ_deviation(p, q, 2, 2, &r, &c), 0.2); /* 0.5 of the column's largest 2.5 */
    q[2] = NAN;
    cr_expect(isinf(equ_deviation(p, q, 2, 2, &r, &c)) && r == 1 && c == 0);
    double tg[3] = {0, 1, 2}, y[3] = {0, 10, 20};
    cr_expect_eq(equ_interp(tg, 3, y, 1, 1.0), 10.0);
    cr_expect_eq(equ_interp(tg, 3, y, 1, 1.5), 15.0);
    cr_expect_eq(equ_interp(tg, 3, y, 1, 5.0), 20.0);
}

Test(eq_native_roundtrip, lookalike_fixture_fails_when_forced)
{
    eq_run r;
    open_fmu(&r, BROKEN("eq-native-roundtrip"));
    cr_expect_eq(run_check(&r, "eq-native-roundtrip"), FMUC_VERDICT_NA); /* not recognised */
    r.opts.native = "l2";
    cr_expect_eq(run_check(&r, "eq-native-roundtrip"), FMUC_VERDICT_FAIL);
    close_run(&r);
}
