/* Tests of FMI 3.0 Scheduled Execution on the fmuc glue (fmi_export/glue/fmi3_glue.c): the good
 * model SampledCounter (build/fmus/fmi3/good/SampledCounter.fmu) run through a 2 s schedule by a
 * small single-threaded scheduler here (tick every 0.1 s, trigger at 0.5 and 1.5 s, the countdown
 * clock `delayed` when announced through clockUpdate + fmi3GetIntervalDecimal): the counts, the
 * output clock, the interval qualifiers, the balance of lockPreemption/unlockPreemption; the
 * calls SE forbids; and the two defect switches (build/fmus/broken/se-nominal-run*.fmu). The
 * harness does not load FMI 3.0 SE, so the library is taken out of the FMU with libzip and loaded
 * with dlopen. */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zip.h>

#include "fmi3/fmi3.h"

/* SampledCounter's value references (reference_fmus/good/SampledCounter/model.c) */
enum { VR_TICK = 1, VR_TRIGGER, VR_DELAYED, VR_OVERFLOW, VR_INCREMENT, VR_COUNT, VR_TRIGGERS,
       VR_DELAYED_COUNT };

typedef struct {
    void *h;
    char lib[256]; /* the extracted library, removed by unload */
    char token[64];
#define SE_MEMBER_(ret, name, params, iface) name##TYPE name;
    FMUC_FMI3_FUNCTIONS(SE_MEMBER_)
#undef SE_MEMBER_
} fmu3;

/* lockPreemption/unlockPreemption take no argument: their counts are file-scope (test only) */
static int lock_depth, lock_calls, unlock_calls, unlock_underflow;
static void on_lock(void) { lock_calls++, lock_depth++; }
static void on_unlock(void)
{
    unlock_calls++;
    if (--lock_depth < 0)
        unlock_underflow = 1;
}

static char last_msg[2048];
static void on_log(fmi3InstanceEnvironment env, fmi3Status st, fmi3String cat, fmi3String msg)
{
    (void)env, (void)st, (void)cat;
    snprintf(last_msg, sizeof last_msg, "%s", msg ? msg : "");
}

/* The scheduler's view, reached by clockUpdate through instanceEnvironment. */
typedef struct {
    fmu3 *F;
    fmi3Instance inst;
    double now;              /* activationTime of the partition running */
    int clock_updates, overflow_active, overflow_inactive;
    double overflow_at[8];
    int changed, unchanged, not_yet_known;
    double delayed_due[8];   /* announced activations of `delayed` not yet run */
    int n_due;
    fmi3Status worst;
} sched;

static void on_clock_update(fmi3InstanceEnvironment env)
{
    sched *S = env;
    S->clock_updates++;
    fmi3ValueReference out = VR_OVERFLOW, cd = VR_DELAYED;
    fmi3Clock active = false;
    fmi3Status st = S->F->fmi3GetClock(S->inst, &out, 1, &active);
    if (st > S->worst)
        S->worst = st;
    if (active) {
        if (S->overflow_active < 8)
            S->overflow_at[S->overflow_active] = S->now;
        S->overflow_active++;
    } else {
        S->overflow_inactive++;
    }
    fmi3Float64 interval = -1.0;
    fmi3IntervalQualifier q = fmi3IntervalNotYetKnown;
    st = S->F->fmi3GetIntervalDecimal(S->inst, &cd, 1, &interval, &q);
    if (st > S->worst)
        S->worst = st;
    if (q == fmi3IntervalChanged) {
        S->changed++;
        if (S->n_due < 8)
            S->delayed_due[S->n_due++] = S->now + interval;
    } else if (q == fmi3IntervalUnchanged) {
        S->unchanged++;
    } else {
        S->not_yet_known++;
    }
}

static void load_lib(fmu3 *F, const char *fmu, const char *model);
static void load(fmu3 *F, const char *fmu) { load_lib(F, fmu, "SampledCounter"); }

/* The FMU's library binaries/x86_64-linux/<model>.so, extracted and loaded. */
static void load_lib(fmu3 *F, const char *fmu, const char *model)
{
    memset(F, 0, sizeof *F);
    int zerr = 0;
    zip_t *z = zip_open(fmu, ZIP_RDONLY, &zerr);
    cr_assert(z, "cannot open %s", fmu);
    /* the instantiationToken of modelDescription.xml */
    static char xml[1 << 16];
    zip_file_t *zf = zip_fopen(z, "modelDescription.xml", 0);
    cr_assert(zf);
    zip_int64_t n = zip_fread(zf, xml, sizeof xml - 1);
    zip_fclose(zf);
    cr_assert(n > 0);
    xml[n] = '\0';
    const char *t = strstr(xml, "instantiationToken=\"");
    cr_assert(t);
    t += strlen("instantiationToken=\"");
    snprintf(F->token, sizeof F->token, "%.*s", (int)strcspn(t, "\""), t);
    /* the library, into a temporary file */
    snprintf(F->lib, sizeof F->lib, "/tmp/fmuc-se-XXXXXX");
    int fd = mkstemp(F->lib);
    cr_assert(fd >= 0);
    char member[128];
    snprintf(member, sizeof member, "binaries/x86_64-linux/%s.so", model);
    zf = zip_fopen(z, member, 0);
    cr_assert(zf, "%s: no %s", fmu, member);
    char buf[8192];
    while ((n = zip_fread(zf, buf, sizeof buf)) > 0)
        cr_assert_eq(write(fd, buf, (size_t)n), n);
    zip_fclose(zf);
    close(fd);
    zip_close(z);
    F->h = dlopen(F->lib, RTLD_NOW | RTLD_LOCAL);
    cr_assert(F->h, "dlopen: %s", dlerror());
#define SE_LOAD_(ret, name, params, iface)                                                         \
    *(void **)&F->name = dlsym(F->h, #name);                                                       \
    cr_assert(F->name, "missing %s", #name);
    FMUC_FMI3_FUNCTIONS(SE_LOAD_)
#undef SE_LOAD_
}

static void unload(fmu3 *F)
{
    if (F->h)
        dlclose(F->h);
    unlink(F->lib);
}

static void reset_counts(void)
{
    lock_depth = lock_calls = unlock_calls = unlock_underflow = 0;
    last_msg[0] = '\0';
}

/* An SE instance in Initialization Mode (start 0, stop 2). */
static fmi3Instance se_init(fmu3 *F, sched *S)
{
    reset_counts();
    fmi3Instance c = F->fmi3InstantiateScheduledExecution("se", F->token, NULL, false, true, S,
                                                          on_log, on_clock_update, on_lock,
                                                          on_unlock);
    cr_assert(c, "fmi3InstantiateScheduledExecution refused: %s", last_msg);
    if (S) {
        memset(S, 0, sizeof *S);
        S->F = F;
        S->inst = c;
    }
    cr_assert_eq(F->fmi3EnterInitializationMode(c, false, 0.0, 0.0, true, 2.0), fmi3OK, "%s",
                 last_msg);
    return c;
}

static fmi3Instance se_cam(fmu3 *F, sched *S)
{
    fmi3Instance c = se_init(F, S);
    cr_assert_eq(F->fmi3ExitInitializationMode(c), fmi3OK, "%s", last_msg);
    return c;
}

static int get_int(fmu3 *F, fmi3Instance c, fmi3ValueReference vr)
{
    fmi3Int32 v = -12345;
    cr_assert_eq(F->fmi3GetInt32(c, &vr, 1, &v, 1), fmi3OK, "%s", last_msg);
    return v;
}

static fmi3Status activate(fmu3 *F, sched *S, fmi3ValueReference clock, double t)
{
    S->now = t;
    return F->fmi3ActivateModelPartition(S->inst, clock, t);
}

Test(fmi3_export_se, sampled_counter_two_second_schedule)
{
    fmu3 F;
    sched S;
    load(&F, FMUC_FMU_DIR "/fmi3/good/SampledCounter.fmu");
    fmi3Instance c = se_init(&F, &S);

    /* Initialization Mode: tick's interval and shift, delayed not yet announced */
    fmi3ValueReference tick = VR_TICK, delayed = VR_DELAYED;
    fmi3Float64 iv = 0.0, shift = -1.0;
    fmi3IntervalQualifier q = fmi3IntervalChanged;
    cr_assert_eq(F.fmi3GetIntervalDecimal(c, &tick, 1, &iv, &q), fmi3OK, "%s", last_msg);
    cr_expect_float_eq(iv, 0.1, 1e-15);
    cr_expect_eq(q, fmi3IntervalUnchanged);
    cr_assert_eq(F.fmi3GetShiftDecimal(c, &tick, 1, &shift), fmi3OK, "%s", last_msg);
    cr_expect_float_eq(shift, 0.0, 1e-15);
    cr_assert_eq(F.fmi3GetIntervalDecimal(c, &delayed, 1, &iv, &q), fmi3OK, "%s", last_msg);
    cr_expect_eq(q, fmi3IntervalNotYetKnown);
    cr_assert_eq(F.fmi3ExitInitializationMode(c), fmi3OK, "%s", last_msg);
    cr_expect_eq(get_int(&F, c, VR_INCREMENT), 1);

    /* ticks at k/10 (k = 0..19), triggers at 0.5 and 1.5, delayed when due; at equal times in
     * priority order (tick 0, trigger 1, delayed 2) */
    const double triggers_at[] = {0.5, 1.5};
    int k = 0, ntr = 0, n_delayed = 0, n_ticks = 0;
    int delayed_seen[8];
    for (;;) {
        double t_tick = k < 20 ? k / 10.0 : INFINITY;
        double t_trig = ntr < 2 ? triggers_at[ntr] : INFINITY;
        double t_del = n_delayed < S.n_due ? S.delayed_due[n_delayed] : INFINITY;
        if (isinf(t_tick) && isinf(t_trig) && isinf(t_del))
            break;
        if (t_tick <= t_trig && t_tick <= t_del) {
            cr_assert_eq(activate(&F, &S, VR_TICK, t_tick), fmi3OK, "t=%g: %s", t_tick, last_msg);
            k++, n_ticks++;
            cr_expect_eq(get_int(&F, c, VR_COUNT), n_ticks, "count after tick %d", n_ticks);
        } else if (t_trig <= t_del) {
            cr_assert_eq(activate(&F, &S, VR_TRIGGER, t_trig), fmi3OK, "%s", last_msg);
            ntr++;
            cr_expect_eq(get_int(&F, c, VR_TRIGGERS), ntr);
        } else {
            cr_assert_eq(activate(&F, &S, VR_DELAYED, t_del), fmi3OK, "%s", last_msg);
            delayed_seen[n_delayed++] = get_int(&F, c, VR_DELAYED_COUNT);
        }
        cr_assert_eq(lock_depth, 0, "lockPreemption unbalanced after a partition at t=%g",
                     S.now);
    }
    cr_expect_eq(S.worst, fmi3OK, "clockUpdate inquiries: %s", last_msg);
    cr_expect_eq(n_ticks, 20);
    cr_expect_eq(get_int(&F, c, VR_COUNT), 20);
    cr_expect_eq(get_int(&F, c, VR_TRIGGERS), 2);
    /* every 4th tick (t = 0.3, 0.7, 1.1, 1.5, 1.9) announced delayed 0.05 s later; it sampled
     * count = 4, 8, 12, 16, 20 */
    cr_assert_eq(n_delayed, 5);
    const double due[] = {0.35, 0.75, 1.15, 1.55, 1.95};
    for (int i = 0; i < 5; i++) {
        cr_expect_float_eq(S.delayed_due[i], due[i], 1e-12, "delayed %d", i);
        cr_expect_eq(delayed_seen[i], 4 * (i + 1), "delayedCount at %g", due[i]);
    }
    /* overflow ticked at the 5th, 10th, 15th, 20th tick; clockUpdate 5 + 4 times */
    cr_expect_eq(S.clock_updates, 9);
    cr_assert_eq(S.overflow_active, 4);
    cr_expect_eq(S.overflow_inactive, 5);
    for (int i = 0; i < 4; i++)
        cr_expect_float_eq(S.overflow_at[i], 0.4 + 0.5 * i, 1e-12);
    /* qualifiers: Changed after each announcement (5); at 0.4, 0.9, 1.4 delayed had run since
     * (NotYetKnown); at 1.9 the overflow clockUpdate came after that tick's announcement
     * (Unchanged) */
    cr_expect_eq(S.changed, 5);
    cr_expect_eq(S.not_yet_known, 3);
    cr_expect_eq(S.unchanged, 1);
    /* the later fmi3GetClock of the same tick reports the output clock inactive */
    fmi3ValueReference out = VR_OVERFLOW;
    fmi3Clock active = true;
    cr_assert_eq(F.fmi3GetClock(c, &out, 1, &active), fmi3OK, "%s", last_msg);
    cr_expect(!active);
    /* the glue and the model locked around their shared updates, balanced */
    cr_expect_gt(lock_calls, 40);
    cr_expect_eq(lock_calls, unlock_calls);
    cr_expect(!unlock_underflow);
    /* a setter in Clock Activation Mode takes effect at the next tick */
    fmi3ValueReference inc = VR_INCREMENT;
    fmi3Int32 two = 2;
    cr_assert_eq(F.fmi3SetInt32(c, &inc, 1, &two, 1), fmi3OK, "%s", last_msg);
    cr_assert_eq(activate(&F, &S, VR_TICK, 2.0), fmi3OK, "%s", last_msg);
    cr_expect_eq(get_int(&F, c, VR_COUNT), 22);
    cr_expect_eq(F.fmi3Terminate(c), fmi3OK, "%s", last_msg);
    F.fmi3FreeInstance(c);
    unload(&F);
}

/* Each refused call returns fmi3Error with a message naming what it is about; the instance is
 * in its error state afterwards (further activations refused). */
static void expect_error_state(fmu3 *F, sched *S)
{
    cr_expect_eq(activate(F, S, VR_TICK, 10.0), fmi3Error, "activation after an fmi3Error");
}

Test(fmi3_export_se, activation_before_exit_initialization_refused)
{
    fmu3 F;
    sched S;
    load(&F, FMUC_FMU_DIR "/fmi3/good/SampledCounter.fmu");
    fmi3Instance c = se_init(&F, &S);
    cr_expect_eq(activate(&F, &S, VR_TICK, 0.0), fmi3Error);
    cr_expect(strstr(last_msg, "fmi3ActivateModelPartition"), "%s", last_msg);
    cr_expect(strstr(last_msg, "Initialization Mode"), "%s", last_msg);
    F.fmi3FreeInstance(c);
    unload(&F);
}

Test(fmi3_export_se, functions_of_other_interfaces_refused)
{
    fmu3 F;
    sched S;
    load(&F, FMUC_FMU_DIR "/fmi3/good/SampledCounter.fmu");
    fmi3Instance c = se_cam(&F, &S);
    fmi3Boolean ev, term, early;
    fmi3Float64 last;
    cr_expect_eq(F.fmi3DoStep(c, 0.0, 0.1, true, &ev, &term, &early, &last), fmi3Error);
    cr_expect(strstr(last_msg, "fmi3DoStep") && strstr(last_msg, "ScheduledExecution"), "%s",
              last_msg);
    expect_error_state(&F, &S);
    F.fmi3FreeInstance(c);

    c = se_cam(&F, &S);
    fmi3ValueReference trig = VR_TRIGGER;
    fmi3Clock on = true;
    cr_expect_eq(F.fmi3SetClock(c, &trig, 1, &on), fmi3Error);
    cr_expect(strstr(last_msg, "fmi3SetClock"), "%s", last_msg);
    expect_error_state(&F, &S);
    F.fmi3FreeInstance(c);

    c = se_cam(&F, &S);
    cr_expect_eq(F.fmi3EnterEventMode(c), fmi3Error);
    cr_expect(strstr(last_msg, "fmi3EnterEventMode"), "%s", last_msg);
    F.fmi3FreeInstance(c);

    c = se_cam(&F, &S);
    fmi3Boolean a, b, d, e, f;
    fmi3Float64 tn;
    cr_expect_eq(F.fmi3UpdateDiscreteStates(c, &a, &b, &d, &e, &f, &tn), fmi3Error);
    cr_expect(strstr(last_msg, "fmi3UpdateDiscreteStates"), "%s", last_msg);
    F.fmi3FreeInstance(c);
    unload(&F);
}

Test(fmi3_export_se, clock_misuse_refused)
{
    fmu3 F;
    sched S;
    load(&F, FMUC_FMU_DIR "/fmi3/good/SampledCounter.fmu");
    /* the output clock has no partition the importer activates */
    fmi3Instance c = se_cam(&F, &S);
    cr_expect_eq(activate(&F, &S, VR_OVERFLOW, 0.0), fmi3Error);
    cr_expect(strstr(last_msg, "'overflow'"), "%s", last_msg);
    expect_error_state(&F, &S);
    F.fmi3FreeInstance(c);
    /* activationTime strictly increasing per clock */
    c = se_cam(&F, &S);
    cr_assert_eq(activate(&F, &S, VR_TICK, 0.1), fmi3OK, "%s", last_msg);
    cr_assert_eq(activate(&F, &S, VR_TRIGGER, 0.1), fmi3OK, "%s", last_msg); /* other clock */
    cr_expect_eq(activate(&F, &S, VR_TICK, 0.1), fmi3Error);
    cr_expect(strstr(last_msg, "'tick'"), "%s", last_msg);
    F.fmi3FreeInstance(c);
    c = se_cam(&F, &S);
    cr_assert_eq(activate(&F, &S, VR_TICK, 0.2), fmi3OK, "%s", last_msg);
    cr_expect_eq(activate(&F, &S, VR_TICK, 0.1), fmi3Error);
    F.fmi3FreeInstance(c);
    /* fmi3GetClock only for output clocks */
    c = se_cam(&F, &S);
    fmi3ValueReference tick = VR_TICK;
    fmi3Clock v = false;
    cr_expect_eq(F.fmi3GetClock(c, &tick, 1, &v), fmi3Error);
    cr_expect(strstr(last_msg, "'tick'"), "%s", last_msg);
    F.fmi3FreeInstance(c);
    /* triggered clocks have no interval */
    c = se_cam(&F, &S);
    fmi3ValueReference trig = VR_TRIGGER;
    fmi3Float64 iv;
    fmi3IntervalQualifier q;
    cr_expect_eq(F.fmi3GetIntervalDecimal(c, &trig, 1, &iv, &q), fmi3Error);
    cr_expect(strstr(last_msg, "'trigger'"), "%s", last_msg);
    F.fmi3FreeInstance(c);
    unload(&F);
}

Test(fmi3_export_se, instantiation_refusals)
{
    fmu3 F;
    load(&F, FMUC_FMU_DIR "/fmi3/good/SampledCounter.fmu");
    reset_counts();
    cr_expect_null(F.fmi3InstantiateScheduledExecution("se", "{wrong}", NULL, false, true, NULL,
                                                       on_log, NULL, NULL, NULL));
    cr_expect(strstr(last_msg, "instantiationToken"), "%s", last_msg);
    /* SE only: no Co-Simulation or Model Exchange instance */
    cr_expect_null(F.fmi3InstantiateCoSimulation("cs", F.token, NULL, false, true, false, false,
                                                 NULL, 0, NULL, on_log, NULL));
    cr_expect_null(F.fmi3InstantiateModelExchange("me", F.token, NULL, false, true, NULL, on_log));
    /* NULL preemption callbacks are not called; Reset back to Instantiated */
    fmi3Instance c = F.fmi3InstantiateScheduledExecution("se", F.token, NULL, false, true, NULL,
                                                         on_log, NULL, NULL, NULL);
    cr_assert(c, "%s", last_msg);
    cr_assert_eq(F.fmi3EnterInitializationMode(c, false, 0.0, 0.0, false, 0.0), fmi3OK);
    cr_assert_eq(F.fmi3ExitInitializationMode(c), fmi3OK);
    cr_assert_eq(F.fmi3ActivateModelPartition(c, VR_TICK, 0.0), fmi3OK, "%s", last_msg);
    cr_expect_eq(lock_calls, 0);
    cr_assert_eq(F.fmi3Reset(c), fmi3OK, "%s", last_msg);
    fmi3ValueReference cnt = VR_COUNT;
    fmi3Int32 v = -1;
    cr_assert_eq(F.fmi3GetInt32(c, &cnt, 1, &v, 1), fmi3OK);
    cr_expect_eq(v, 0);
    F.fmi3FreeInstance(c);
    unload(&F);
}

Test(fmi3_export_se, defect_activate_error)
{
    fmu3 F;
    sched S;
    load(&F, FMUC_FMU_DIR "/broken/se-nominal-run.fmu");
    fmi3Instance c = se_cam(&F, &S);
    cr_assert_eq(activate(&F, &S, VR_TICK, 0.0), fmi3OK, "%s", last_msg);
    cr_assert_eq(activate(&F, &S, VR_TRIGGER, 0.5), fmi3OK, "%s", last_msg);
    cr_expect_eq(get_int(&F, c, VR_TRIGGERS), 1);
    cr_expect_eq(activate(&F, &S, VR_TRIGGER, 1.5), fmi3Error);
    cr_expect(strstr(last_msg, "fmi3ActivateModelPartition") && strstr(last_msg, "'trigger'"),
              "%s", last_msg);
    expect_error_state(&F, &S);
    F.fmi3FreeInstance(c);
    unload(&F);
}

Test(fmi3_export_se, defect_unbalanced_lock)
{
    fmu3 F;
    sched S;
    load(&F, FMUC_FMU_DIR "/broken/se-nominal-run--lock.fmu");
    fmi3Instance c = se_cam(&F, &S);
    for (int k = 0; k < 3; k++) {
        cr_assert_eq(activate(&F, &S, VR_TICK, k / 10.0), fmi3OK, "%s", last_msg);
        cr_expect_eq(lock_depth, k + 1, "one lock left open per tick");
    }
    cr_assert_eq(activate(&F, &S, VR_TRIGGER, 0.25), fmi3OK, "%s", last_msg);
    cr_expect_eq(lock_depth, 3, "the triggered partition is balanced");
    cr_expect_eq(lock_calls - unlock_calls, 3);
    F.fmi3FreeInstance(c);
    unload(&F);
}

/* ClockedSampler (reference_fmus/good/ClockedSampler): the same clock table in Model Exchange
 * Event Mode (FMUC_M_CAP_EM_CLOCKS). Input clocks are set with fmi3SetClock in Event Mode only
 * and only to active, which runs their partitions (sampled = x at the tick, triggers counts;
 * once per instant); every 5th sample ticks the output clock `fifth`, which fmi3GetClock reports
 * until fmi3UpdateDiscreteStates deactivates the instant's clocks; the interval and shift
 * getters answer in Initialization Mode. */
enum {
    CS_SAMPLE = 1,
    CS_TRIGGER,
    CS_FIFTH,
    CS_RATE,
    CS_X,
    CS_DER_X,
    CS_SAMPLED,
    CS_TRIGGERS,
    CS_ALARM,
    CS_ALARMS,
    CS_CHIRP,
    CS_CHIRPS
};

static void me_event_iteration(fmu3 *F, fmi3Instance c)
{
    fmi3Boolean need = true, term, nom, val, ned;
    fmi3Float64 net;
    for (int k = 0; need && k < 10; k++)
        cr_assert_eq(F->fmi3UpdateDiscreteStates(c, &need, &term, &nom, &val, &ned, &net), fmi3OK,
                     "%s", last_msg);
    cr_assert(!need);
}

Test(fmi3_export_se, clocked_sampler_event_mode_clocks)
{
    fmu3 F;
    load_lib(&F, FMUC_FMU_DIR "/fmi3/good/ClockedSampler.fmu", "ClockedSampler");
    reset_counts();
    fmi3Instance c = F.fmi3InstantiateModelExchange("me", F.token, NULL, false, true, NULL, on_log);
    cr_assert(c, "%s", last_msg);
    cr_assert_eq(F.fmi3EnterInitializationMode(c, false, 0.0, 0.0, true, 1.0), fmi3OK, "%s",
                 last_msg);
    fmi3ValueReference sample = CS_SAMPLE, trigger = CS_TRIGGER, fifth = CS_FIFTH;
    fmi3Float64 iv = 0.0, shift = -1.0;
    fmi3IntervalQualifier q = fmi3IntervalNotYetKnown;
    cr_assert_eq(F.fmi3GetIntervalDecimal(c, &sample, 1, &iv, &q), fmi3OK, "%s", last_msg);
    cr_expect_float_eq(iv, 0.1, 1e-15);
    cr_expect_eq(q, fmi3IntervalUnchanged);
    cr_assert_eq(F.fmi3GetShiftDecimal(c, &sample, 1, &shift), fmi3OK, "%s", last_msg);
    cr_expect_float_eq(shift, 0.05, 1e-15);
    /* F-22: sample supports fractions (resolution 100): 10 and 5 ticks; trigger does not */
    fmi3UInt64 cnt = 0, res = 0;
    q = fmi3IntervalNotYetKnown;
    cr_assert_eq(F.fmi3GetIntervalFraction(c, &sample, 1, &cnt, &res, &q), fmi3OK, "%s", last_msg);
    cr_expect(cnt == 10 && res == 100 && q == fmi3IntervalUnchanged, "%llu/%llu q %d",
              (unsigned long long)cnt, (unsigned long long)res, (int)q);
    cr_assert_eq(F.fmi3GetShiftFraction(c, &sample, 1, &cnt, &res), fmi3OK, "%s", last_msg);
    cr_expect(cnt == 5 && res == 100);
    /* the changing clock chirp: its first interval is known from the start (F-20) */
    fmi3ValueReference chirp = CS_CHIRP;
    fmi3Float64 ci = -1.0;
    fmi3IntervalQualifier cq = fmi3IntervalNotYetKnown;
    cr_assert_eq(F.fmi3GetIntervalDecimal(c, &chirp, 1, &ci, &cq), fmi3OK, "%s", last_msg);
    cr_expect(cq == fmi3IntervalChanged && ci == 0.12, "q %d interval %g", (int)cq, ci);
    fmi3Clock on = true, got = false;
    cr_assert_eq(F.fmi3ExitInitializationMode(c), fmi3OK, "%s", last_msg);
    me_event_iteration(&F, c);
    cr_assert_eq(F.fmi3EnterContinuousTimeMode(c), fmi3OK);
    for (int k = 0; k < 5; k++) {
        double t = 0.05 + 0.1 * k;
        cr_assert_eq(F.fmi3SetTime(c, t), fmi3OK, "%s", last_msg);
        cr_assert_eq(F.fmi3SetContinuousStates(c, &t, 1), fmi3OK, "%s", last_msg); /* x = t */
        cr_assert_eq(F.fmi3EnterEventMode(c), fmi3OK, "%s", last_msg);
        cr_assert_eq(F.fmi3SetClock(c, &sample, 1, &on), fmi3OK, "%s", last_msg);
        if (k == 2 || k == 3)
            cr_assert_eq(F.fmi3SetClock(c, &trigger, 1, &on), fmi3OK, "%s", last_msg);
        if (k == 3) { /* F-23: deactivated in the same instant, the activation is undone */
            cr_expect_eq(get_int(&F, c, CS_TRIGGERS), 2);
            fmi3Clock off = false;
            cr_assert_eq(F.fmi3SetClock(c, &trigger, 1, &off), fmi3OK, "%s", last_msg);
            cr_expect_eq(get_int(&F, c, CS_TRIGGERS), 1, "triggers back to its value before");
        }
        /* the active partition has run: its clocked variable and the output clock it ticks */
        fmi3ValueReference vr = CS_SAMPLED;
        fmi3Float64 sampled = -1.0;
        cr_assert_eq(F.fmi3GetFloat64(c, &vr, 1, &sampled, 1), fmi3OK, "%s", last_msg);
        cr_expect_float_eq(sampled, t, 1e-12, "sampled at tick %d", k);
        cr_assert_eq(F.fmi3GetClock(c, &fifth, 1, &got), fmi3OK, "%s", last_msg);
        cr_expect_eq(got, k == 4, "fifth after sample %d", k + 1);
        cr_assert_eq(F.fmi3SetClock(c, &sample, 1, &on), fmi3OK, "set again: one activation");
        me_event_iteration(&F, c);
        /* F-23: the instant's clocks are inactive after fmi3UpdateDiscreteStates */
        cr_assert_eq(F.fmi3GetClock(c, &fifth, 1, &got), fmi3OK, "%s", last_msg);
        cr_expect(!got, "fifth still active after the iteration");
        cr_assert_eq(F.fmi3GetFloat64(c, &vr, 1, &sampled, 1), fmi3OK, "%s", last_msg);
        cr_expect_float_eq(sampled, t, 1e-12, "sampled once at tick %d", k);
        /* every 2nd sample announces the countdown clock alarm 0.02 s later: Changed once */
        fmi3ValueReference alarm = CS_ALARM;
        fmi3Float64 ai = -1.0;
        fmi3IntervalQualifier aq = fmi3IntervalChanged;
        cr_assert_eq(F.fmi3GetIntervalDecimal(c, &alarm, 1, &ai, &aq), fmi3OK, "%s", last_msg);
        if (k % 2 == 1) {
            cr_expect_eq(aq, fmi3IntervalChanged, "alarm announced after sample %d", k + 1);
            cr_expect_float_eq(ai, 0.02, 1e-15);
            cr_assert_eq(F.fmi3GetIntervalDecimal(c, &alarm, 1, &ai, &aq), fmi3OK);
            cr_expect_eq(aq, fmi3IntervalUnchanged, "asked again: unchanged");
        } else {
            cr_expect_eq(aq, k == 0 ? fmi3IntervalNotYetKnown : fmi3IntervalUnchanged,
                         "no new announcement after sample %d", k + 1);
        }
        cr_assert_eq(F.fmi3EnterContinuousTimeMode(c), fmi3OK);
    }
    cr_expect_eq(get_int(&F, c, CS_TRIGGERS), 1);
    /* a tick of chirp: its partition announces the next interval, Changed once, in that Event
     * Mode */
    cr_assert_eq(F.fmi3EnterEventMode(c), fmi3OK, "%s", last_msg);
    cr_assert_eq(F.fmi3SetClock(c, &chirp, 1, &on), fmi3OK, "%s", last_msg);
    cr_expect_eq(get_int(&F, c, CS_CHIRPS), 1);
    me_event_iteration(&F, c);
    /* the announcement is part of the FMU state: restored, it reads Changed again */
    fmi3FMUState fs = NULL;
    cr_assert_eq(F.fmi3GetFMUState(c, &fs), fmi3OK, "%s", last_msg);
    for (int round = 0; round < 2; round++) {
        cr_assert_eq(F.fmi3GetIntervalDecimal(c, &chirp, 1, &ci, &cq), fmi3OK, "%s", last_msg);
        cr_expect(cq == fmi3IntervalChanged && ci == 0.07, "q %d interval %g", (int)cq, ci);
        cr_assert_eq(F.fmi3GetIntervalDecimal(c, &chirp, 1, &ci, &cq), fmi3OK, "%s", last_msg);
        cr_expect_eq(cq, fmi3IntervalUnchanged);
        if (round == 0)
            cr_assert_eq(F.fmi3SetFMUState(c, fs), fmi3OK, "%s", last_msg);
    }
    cr_assert_eq(F.fmi3FreeFMUState(c, &fs), fmi3OK);
    cr_assert_eq(F.fmi3EnterContinuousTimeMode(c), fmi3OK);
    F.fmi3FreeInstance(c);
    /* what is refused (fmi3Error), each in an instance of its own: a clock set in
     * Initialization Mode, in Continuous-Time Mode, an output clock set, a clock deactivated,
     * the Fraction interval of a clock without supportsFraction (F-22), the interval of the
     * changing clock in an Event Mode where it did not tick (condition 15) */
    for (int probe = 0; probe < 6; probe++) {
        c = F.fmi3InstantiateModelExchange("me", F.token, NULL, false, true, NULL, on_log);
        cr_assert(c, "%s", last_msg);
        cr_assert_eq(F.fmi3EnterInitializationMode(c, false, 0.0, 0.0, true, 1.0), fmi3OK);
        fmi3Clock v = probe != 3;
        fmi3ValueReference k = probe == 2 ? CS_FIFTH : CS_SAMPLE;
        if (probe == 5) {
            fmi3ValueReference ch = CS_CHIRP;
            fmi3Float64 iv = 0.0;
            fmi3IntervalQualifier q = fmi3IntervalNotYetKnown;
            cr_assert_eq(F.fmi3ExitInitializationMode(c), fmi3OK, "%s", last_msg);
            cr_expect_eq(F.fmi3GetIntervalDecimal(c, &ch, 1, &iv, &q), fmi3Error);
            cr_expect(strstr(last_msg, "did not tick in this Event Mode"), "%s", last_msg);
            F.fmi3FreeInstance(c);
            continue;
        }
        if (probe == 4) {
            fmi3UInt64 cnt = 0, res = 0;
            fmi3IntervalQualifier q = fmi3IntervalNotYetKnown;
            cr_expect_eq(F.fmi3GetIntervalFraction(c, &trigger, 1, &cnt, &res, &q), fmi3Error);
            cr_expect(strstr(last_msg, "has no supportsFraction"), "%s", last_msg);
            F.fmi3FreeInstance(c);
            continue;
        }
        if (probe > 0) {
            cr_assert_eq(F.fmi3ExitInitializationMode(c), fmi3OK, "%s", last_msg);
            if (probe == 1) {
                me_event_iteration(&F, c);
                cr_assert_eq(F.fmi3EnterContinuousTimeMode(c), fmi3OK);
            }
        }
        cr_expect_eq(F.fmi3SetClock(c, &k, 1, &v), fmi3Error, "probe %d", probe);
        if (probe == 2)
            cr_expect(strstr(last_msg, "output clock"), "%s", last_msg);
        if (probe == 3)
            cr_expect(strstr(last_msg, "cannot be deactivated"), "%s", last_msg);
        F.fmi3FreeInstance(c);
    }
    unload(&F);
}
