/* se-nominal-run: an FMI 3.0 Scheduled Execution FMU runs its model partitions on the schedule of
 * its input clocks, as a scheduler that follows FMI 3.0.2 §5 would drive it.
 *   §5.1/§5.2 (fmi3-rules D.3, F-26, F-27): fmi3InstantiateScheduledExecution with the
 *     importer's clockUpdate, lockPreemption and unlockPreemption callbacks; Initialization Mode;
 *     fmi3ExitInitializationMode enters Clock Activation Mode, where fmi3ActivateModelPartition
 *     runs the partition of an input clock at its activationTime (strictly increasing per clock,
 *     condition 27); a Discard counts as an Error there (F-27); fmi3Terminate ends it.
 *   §2.2.8.2, §2.3.3 (F.3, conditions 15-17, 28, 29): the interval of a periodic clock is its
 *     intervalDecimal, else fmi3GetIntervalDecimal in Initialization Mode (with
 *     fmi3GetShiftDecimal); a changing clock's interval comes from fmi3GetIntervalDecimal in
 *     Initialization Mode and after each of its activations; a countdown clock is announced by the
 *     FMU through clockUpdate and fmi3GetIntervalDecimal in Clock Update Mode (qualifier
 *     fmi3IntervalChanged); triggered input clocks tick when the importer decides (here: every
 *     third point of the communication grid). Intervals are > 0 for periodic clocks and >= 0
 *     otherwise (F-20).
 *   §5.2.2 (condition 26): in Clock Update Mode fmi3GetClock reports the output clocks that ticked.
 *   §5.2.1 (D-09): lockPreemption and unlockPreemption bracket a critical section; a partition
 *     that returns with preemption still locked (or unlocks without a lock) leaves the importer's
 *     scheduler blocked or corrupt.
 * Probe: one instance; the experiment of DefaultExperiment (start, stop; no stop: start + 1 s), at
 * most MAX_ACTIVATIONS activations; instants in time order, the clocks due at one instant by
 * priority (smaller value first, §5.1.1); after each instant the outputs (scalars, not Binary) are
 * read (CAM get, condition 24). Must (fail): instantiation returning NULL; Enter/Exit
 * Initialization Mode, fmi3ActivateModelPartition, fmi3Terminate, the interval/shift/clock getters
 * or an output get not OK/Warning; a negative or non-finite interval; unbalanced lock/unlock
 * after a partition returned. After a failed call nothing but fmi3FreeInstance is called (§5.2:
 * the error state). Notes: clockUpdate outside an activation or with nothing to report. */
#include <math.h>
#include <stdlib.h>

#include "api/api_util.h"

#define MAX_CLOCKS 64
#define MAX_ACTIVATIONS 2000
#define MAX_READ 256
#define MAX_INPUTS 256
#define TRIGGER_EVERY 3 /* triggered input clocks tick on every third grid point */
#define PHASE_CAM "Clock Activation Mode"

typedef struct se_clock {
    size_t var;
    fmuc_vr vr;
    unsigned iv;       /* fmuc_interval_variability (NONE: not declared, e.g. from a ClockType) */
    uint32_t priority;
    double interval;   /* periodic / changing: current interval */
    double next;       /* next activation time when pending */
    int pending;
    double last;       /* last activation time (NAN before the first) */
    size_t nact;
} se_clock;

typedef struct se_plan {
    se_clock in[MAX_CLOCKS];
    size_t nin;
    fmuc_vr out[FMUC_INST_SE_WATCH], cd[FMUC_INST_SE_WATCH];
    size_t nout, ncd;
    size_t out_var[FMUC_INST_SE_WATCH];
    size_t out_ticks[FMUC_INST_SE_WATCH];
    size_t read[MAX_READ]; /* variables read after an instant */
    size_t nread;
    size_t input[MAX_INPUTS]; /* scalar inputs set to their start values before partitions */
    size_t ninput, nset;
    int fatal; /* a call returned fmi3Fatal: no call may follow (§2.2.4), not even FreeInstance */
} se_plan;

/* the status of a call: notes fmi3Fatal in the plan; 1 when OK or Warning */
static int se_ok(se_plan *p, fmuc_status st)
{
    if (st == FMUC_STATUS_FATAL)
        p->fatal = 1;
    return apiu_ok(st);
}


static int is_clock(const fmuc_md_var *v) { return v->base == FMUC_BT_CLOCK; }

static void plan_clocks(const fmuc_md *md, se_plan *p)
{
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, i);
        if (!is_clock(v) || (x && x->ndims))
            continue;
        unsigned iv = x ? x->interval_variability : FMUC_IV_NONE;
        if (v->causality == FMUC_CAUS_INPUT && p->nin < MAX_CLOCKS) {
            se_clock *c = &p->in[p->nin++];
            *c = (se_clock){.var = i, .vr = v->value_reference, .iv = iv,
                            .priority = x && (x->clock_has & FMUC_CLK_PRIORITY) ? x->priority
                                                                                : UINT32_MAX,
                            .interval = NAN, .next = NAN, .last = NAN};
            if (iv == FMUC_IV_COUNTDOWN && p->ncd < FMUC_INST_SE_WATCH)
                p->cd[p->ncd++] = v->value_reference;
        } else if (v->causality == FMUC_CAUS_OUTPUT && p->nout < FMUC_INST_SE_WATCH) {
            p->out_var[p->nout] = i;
            p->out[p->nout++] = v->value_reference;
        }
    }
    /* inputs set before the partitions: scalar numbers and Booleans with a finite start */
    for (size_t i = 0; i < md->nvars && p->ninput < MAX_INPUTS; i++) {
        const fmuc_md_var *v = &md->vars[i];
        const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, i);
        fmuc_inst_base b = apiu_inst_base(v->base);
        if (v->causality != FMUC_CAUS_INPUT || is_clock(v) || (x && x->ndims) ||
            b == FMUC_INST_NBASE || b == FMUC_INST_STRING || b == FMUC_INST_BINARY ||
            !(v->has & FMUC_HAS_START) || !isfinite(v->start))
            continue;
        p->input[p->ninput++] = i;
    }
    /* outputs read after each instant: scalar, not Clock or Binary */
    for (size_t i = 0; i < md->nvars && p->nread < MAX_READ; i++) {
        const fmuc_md_var *v = &md->vars[i];
        const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, i);
        if (v->causality != FMUC_CAUS_OUTPUT || is_clock(v) || v->base == FMUC_BT_BINARY ||
            (x && x->ndims) || apiu_inst_base(v->base) == FMUC_INST_NBASE)
            continue;
        p->read[p->nread++] = i;
    }
}

/* Initialization Mode: the intervals (and shifts) the schedule needs. -1 on a failed call. */
static int plan_intervals(cJSON *reply, fmuc_inst *in, const fmuc_md *md, se_plan *p, double t0)
{
    char sb[32];
    for (size_t k = 0; k < p->nin; k++) {
        se_clock *c = &p->in[k];
        const fmuc_md_var *v = &md->vars[c->var];
        const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, c->var);
        int xml_interval = x && (x->clock_has & FMUC_CLK_INTERVAL_DECIMAL);
        if (c->iv == FMUC_IV_TRIGGERED)
            continue; /* scheduled by the importer (below) */
        if (c->iv == FMUC_IV_NONE || c->iv == FMUC_IV_INVALID) {
            /* its kind comes from a ClockType (or is invalid: md-clocks): asking its interval
             * could be a call condition 15 forbids for this kind, so it is left out */
            apiu_finding(reply, "note",
                         "input clock '%s' (vr %u) has no intervalVariability of its own (a "
                         "ClockType's, or invalid): not activated",
                         apiu_vname(v), c->vr);
            continue;
        }
        if (apiu_iv_periodic(c->iv) && xml_interval) {
            c->interval = x->interval_decimal;
            c->next = t0 + ((x->clock_has & FMUC_CLK_SHIFT_DECIMAL) ? x->shift_decimal : 0.0);
            c->pending = c->interval > 0;
            continue;
        }
        /* periodic without intervalDecimal, changing, countdown, or kind from a ClockType */
        double iv = NAN;
        int q = -1;
        fmuc_status st = fmuc_inst_get_interval_decimal(in, &c->vr, 1, &iv, &q);
        if (!se_ok(p, st)) {
            apiu_finding(reply, "fail",
                         "fmi3GetIntervalDecimal of input clock '%s' (vr %u, %s) in "
                         "Initialization Mode returned %s (§2.3.3: allowed there for this "
                         "clock type)",
                         apiu_vname(v), c->vr, apiu_iv_name(c->iv), apiu_st3(st, sb, sizeof sb));
            return -1;
        }
        if (q == FMUC_INST_INTERVAL_NOT_YET_KNOWN ||
            (c->iv == FMUC_IV_COUNTDOWN && q != FMUC_INST_INTERVAL_CHANGED))
            continue; /* a countdown clock waits for its announcement */
        if ((!isfinite(iv) || iv < 0 || (apiu_iv_periodic(c->iv) && iv == 0)) &&
            q != FMUC_INST_INTERVAL_CHANGED) {
            /* fmi3IntervalUnchanged: the value need not be meaningful (F-21) */
            apiu_finding(reply, "note",
                         "input clock '%s' (vr %u, %s): fmi3GetIntervalDecimal in Initialization "
                         "Mode gave no interval (%g, qualifier %d): not activated",
                         apiu_vname(v), c->vr, apiu_iv_name(c->iv), iv, q);
            continue;
        }
        if (!isfinite(iv) || iv < 0 || (apiu_iv_periodic(c->iv) && iv == 0)) {
            apiu_finding(reply, "fail",
                         "fmi3GetIntervalDecimal of input clock '%s' (vr %u, %s) returned "
                         "interval %g; intervals are >= 0, and > 0 for periodic clocks (§2.2.8.2)",
                         apiu_vname(v), c->vr, apiu_iv_name(c->iv), iv);
            return -1;
        }
        c->interval = iv;
        double shift = 0.0;
        if (apiu_iv_periodic(c->iv)) {
            st = fmuc_inst_get_shift_decimal(in, &c->vr, 1, &shift);
            if (!se_ok(p, st)) {
                apiu_finding(reply, "fail",
                             "fmi3GetShiftDecimal of periodic input clock '%s' (vr %u, %s, no "
                             "intervalDecimal) in Initialization Mode returned %s (§2.3.3)",
                             apiu_vname(v), c->vr, apiu_iv_name(c->iv), apiu_st3(st, sb, sizeof sb));
                return -1;
            }
            if (!isfinite(shift) || shift < 0)
                shift = 0.0;
        }
        c->next = apiu_iv_periodic(c->iv) || c->iv == FMUC_IV_NONE ? t0 + shift : t0 + iv;
        c->pending = 1;
    }
    return 0;
}

/* The outputs after an instant (CAM get): -1 when a get failed. */
/* variable i is in the clocks list of clock vr */
static int clocked_by(const fmuc_md *md, size_t i, fmuc_vr vr)
{
    const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, i);
    for (uint32_t j = 0; x && j < x->nclocks; j++)
        if (x->clocks[j] == vr)
            return 1;
    return 0;
}

/* Before the partition of clock c: its clocked inputs, and at the first partition of an instant
 * (first) the unclocked ones, set to their start values (condition 25: inputs are set in Clock
 * Activation Mode before their partition runs). -1 when a set was refused. */
static int set_inputs(cJSON *reply, fmuc_inst *in, const fmuc_md *md, se_plan *p,
                      const se_clock *c, double t, int first)
{
    char sb[32];
    for (size_t k = 0; k < p->ninput; k++) {
        size_t i = p->input[k];
        const fmuc_md_var *v = &md->vars[i];
        const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, i);
        int clocked = x && x->nclocks;
        if (clocked ? !clocked_by(md, i, c->vr) : !first)
            continue;
        fmuc_inst_base b = apiu_inst_base(v->base);
        fmuc_vr vr = v->value_reference;
        uint64_t buf = 0;
        apiu_put_number(b, &buf, v->start);
        fmuc_status st = fmuc_inst_set(in, b, &vr, 1, &buf, 1);
        p->nset++;
        if (!se_ok(p, st)) {
            apiu_finding(reply, "fail",
                         "fmi3Set%s of input '%s' (vr %u) to its start value before the partition "
                         "of clock '%s' at t=%.10g returned %s (§5.2, condition 25: inputs are "
                         "set in Clock Activation Mode before their partition)",
                         apiu_base3_name(b), apiu_vname(v), vr, apiu_vname(&md->vars[c->var]), t,
                         apiu_st3(st, sb, sizeof sb));
            return -1;
        }
    }
    return 0;
}

/* a clocked variable is readable once one of its input clocks' partitions ran (condition 24) */
static int readable(const fmuc_md *md, const se_plan *p, size_t i)
{
    const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, i);
    if (!x || !x->nclocks)
        return 1;
    for (uint32_t j = 0; j < x->nclocks; j++)
        for (size_t k = 0; k < p->nin; k++)
            if (p->in[k].vr == x->clocks[j] && p->in[k].nact > 0)
                return 1;
    return 0;
}

static int read_outputs(cJSON *reply, fmuc_inst *in, const fmuc_md *md, se_plan *p, double t,
                        size_t *nonfinite)
{
    char sb[32];
    for (size_t k = 0; k < p->nread; k++) {
        if (!readable(md, p, p->read[k]))
            continue;
        const fmuc_md_var *v = &md->vars[p->read[k]];
        fmuc_inst_base b = apiu_inst_base(v->base);
        fmuc_vr vr = v->value_reference;
        union {
            double d;
            float f;
            uint64_t u;
            const char *s;
        } val = {0};
        fmuc_status st = fmuc_inst_get(in, b, &vr, 1, &val, 1);
        if (!se_ok(p, st)) {
            apiu_finding(reply, "fail",
                         "fmi3Get%s of output '%s' (vr %u) after the partitions of t=%.10g "
                         "returned %s (§5.2, Clock Activation Mode: outputs are readable once "
                         "their partition ran)",
                         apiu_base3_name(b), apiu_vname(v), vr, t, apiu_st3(st, sb, sizeof sb));
            return -1;
        }
        if ((b == FMUC_INST_FLOAT64 && !isfinite(val.d)) ||
            (b == FMUC_INST_FLOAT32 && !isfinite(val.f)))
            (*nonfinite)++;
    }
    return 0;
}

/* What the FMU said in Clock Update Mode during the last activation: output ticks counted,
 * countdown clocks scheduled; -1 on a failed getter or a bad interval. */
static int take_clock_updates(cJSON *reply, fmuc_inst *in, const fmuc_md *md, se_plan *p,
                              double t)
{
    const fmuc_inst_cu_event *ev;
    size_t nkept;
    size_t n = fmuc_inst_se_log(in, &ev, &nkept, NULL);
    char sb[32];
    if (n > nkept)
        apiu_finding(reply, "note", "%zu clockUpdate answers at t=%.10g; the first %zu judged",
                     n, t, nkept);
    for (size_t i = 0; i < nkept; i++) {
        const fmuc_inst_cu_event *e = &ev[i];
        if (e->kind == FMUC_INST_CU_CALL_FAILED) {
            if (e->status == FMUC_STATUS_FATAL)
                p->fatal = 1;
            apiu_finding(reply, "fail",
                         "in Clock Update Mode (clockUpdate during the partition of t=%.10g) "
                         "fmi3GetClock or fmi3GetIntervalDecimal returned %s (§5.2.2: the "
                         "importer asks the output and countdown clocks there)",
                         t, apiu_st3(e->status, sb, sizeof sb));
            return -1;
        }
        if (e->kind == FMUC_INST_CU_OUTPUT_TICK) {
            for (size_t k = 0; k < p->nout; k++)
                if (p->out[k] == e->clock)
                    p->out_ticks[k]++;
            continue;
        }
        if (e->kind != FMUC_INST_CU_COUNTDOWN)
            continue;
        for (size_t k = 0; k < p->nin; k++) {
            se_clock *c = &p->in[k];
            if (c->vr != e->clock)
                continue;
            if (!isfinite(e->interval) || e->interval < 0) {
                apiu_finding(reply, "fail",
                             "countdown clock '%s' (vr %u) announced interval %g in Clock "
                             "Update Mode at t=%.10g; a countdown interval is >= 0 (§2.2.8.2)",
                             apiu_vname(&md->vars[c->var]), c->vr, e->interval, t);
                return -1;
            }
            c->next = t + e->interval;
            c->pending = 1;
        }
    }
    fmuc_inst_se_log_clear(in);
    return 0;
}

/* The next instant: the earliest pending time <= stop (NAN: none). */
static double next_instant(const se_plan *p, double stop)
{
    double t = NAN;
    double limit = stop + 1e-12 * fmax(1.0, fabs(stop)); /* stop is finite */
    for (size_t k = 0; k < p->nin; k++)
        if (p->in[k].pending && isfinite(p->in[k].next) && p->in[k].next <= limit &&
            !(p->in[k].next >= t))
            t = p->in[k].next;
    return t;
}

static int same_time(double a, double b)
{
    return fabs(a - b) <= 1e-12 * fmax(1.0, fmax(fabs(a), fabs(b)));
}

/* the due clock of highest priority at t (index or -1) */
static long due(const se_plan *p, double t)
{
    long best = -1;
    for (size_t k = 0; k < p->nin; k++) {
        const se_clock *c = &p->in[k];
        if (!c->pending || !isfinite(c->next) || !same_time(c->next, t))
            continue;
        if (best < 0 || c->priority < p->in[best].priority ||
            (c->priority == p->in[best].priority && c->vr < p->in[best].vr))
            best = (long)k;
    }
    return best;
}

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    (void)payload;
    const fmuc_md *md = &fmuc_worker_fmu(ctx)->md;
    cJSON *reply = fmuc_worker_reply(ctx);
    se_plan *p = calloc(1, sizeof *p);
    char sb[32];
    if (!p) {
        cJSON_AddStringToObject(reply, "stopped", "out of memory");
        return 0;
    }
    plan_clocks(md, p);
    if (p->nin == 0) {
        cJSON_AddStringToObject(reply, "stopped", "no scalar input Clock: no model partition "
                                                  "to activate");
        free(p);
        return 0;
    }
    if (apiu_load(ctx, FMUC_IFACE_SE) < 0) {
        free(p);
        return 0;
    }
    fmuc_worker_phase(ctx, "instantiate");
    fmuc_inst *in = fmuc_inst_instantiate(ctx, FMUC_IFACE_SE, NULL, "se-nominal-run");
    if (!in) {
        apiu_finding(reply, "fail", "fmi3InstantiateScheduledExecution returned NULL for the "
                                    "declared ScheduledExecution interface (§5.2)");
        free(p);
        return 0;
    }
    fmuc_inst_se_watch(in, p->out, p->nout, p->cd, p->ncd);
    const fmuc_md_experiment *x = &md->experiment;
    double t0 = x->present && x->has_start ? x->start_time : 0.0;
    double stop = x->present && x->has_stop && x->stop_time > t0 ? x->stop_time : t0 + 1.0;
    double h = x->present && x->has_step && x->step_size > 0 ? x->step_size : (stop - t0) / 20;
    fmuc_inst_experiment e = {.start = t0, .stop_defined = 1, .stop = stop};
    size_t nact = 0, ninstants = 0, nonfinite = 0;
    double t_end = t0;
    fmuc_inst_se_counts cnt;
    const fmuc_inst_cu_event *ev;
    size_t nk;
    fmuc_worker_phase(ctx, "initialization");
    fmuc_status st = fmuc_inst_setup_experiment(in, &e);
    if (se_ok(p, st))
        st = fmuc_inst_enter_initialization_mode(in);
    if (!se_ok(p, st)) {
        apiu_finding(reply, "fail", "fmi3EnterInitializationMode(startTime=%.10g, stopTime=%.10g) "
                                    "returned %s (§5.2: Instantiated -> Initialization Mode)",
                     t0, stop, apiu_st3(st, sb, sizeof sb));
        goto out;
    }
    if (plan_intervals(reply, in, md, p, t0) < 0) {
        goto out;
    }
    st = fmuc_inst_exit_initialization_mode(in);
    if (!se_ok(p, st)) {
        apiu_finding(reply, "fail", "fmi3ExitInitializationMode returned %s (§5.2: "
                                    "Initialization Mode -> Clock Activation Mode)",
                     apiu_st3(st, sb, sizeof sb));
        goto out;
    }
    fmuc_inst_se_log_clear(in); /* a clockUpdate before Clock Activation Mode: counted below */
    /* triggered input clocks: on every TRIGGER_EVERY-th grid point, from the first */
    for (size_t k = 0; k < p->nin; k++)
        if (p->in[k].iv == FMUC_IV_TRIGGERED) {
            p->in[k].next = t0 + h;
            p->in[k].pending = 1;
        }
    fmuc_worker_phase(ctx, PHASE_CAM);
    for (double t = next_instant(p, stop); !isnan(t) && nact < MAX_ACTIVATIONS;
         t = next_instant(p, stop)) {
        long k;
        int first_at_instant = 1;
        ninstants++;
        t_end = t;
        while ((k = due(p, t)) >= 0 && nact < MAX_ACTIVATIONS) {
            se_clock *c = &p->in[k];
            const fmuc_md_var *v = &md->vars[c->var];
            fmuc_inst_se_counts before, after;
            c->pending = 0;
            if (!isnan(c->last) && !(t > c->last)) {
                apiu_finding(reply, "note",
                             "input clock '%s' (vr %u) is due again at t=%.10g, the time of its "
                             "last activation; not activated twice (condition 27: strictly "
                             "increasing activationTime)",
                             apiu_vname(v), c->vr, t);
                continue;
            }
            if (set_inputs(reply, in, md, p, c, t, first_at_instant) < 0)
                goto out;
            first_at_instant = 0;
            fmuc_inst_se_log(in, &ev, &nk, &before);
            st = fmuc_inst_activate_model_partition(in, c->vr, t);
            fmuc_inst_se_log(in, &ev, &nk, &after);
            nact++;
            c->nact++;
            c->last = t;
            if (!se_ok(p, st)) {
                apiu_finding(reply, "fail",
                             "fmi3ActivateModelPartition(clockReference=%u '%s', "
                             "activationTime=%.10g) returned %s (activation %zu of this clock; "
                             "§5.2: Discard counts as Error in Scheduled Execution)",
                             c->vr, apiu_vname(v), t, apiu_st3(st, sb, sizeof sb), c->nact);
                goto out;
            }
            long dl = after.lock - before.lock, du = after.unlock - before.unlock;
            int unlock_first = after.min_depth < before.depth; /* depth fell below the start */
            if (dl != du || unlock_first) {
                apiu_finding(reply, "fail",
                             "the partition of input clock '%s' (vr %u) at t=%.10g called "
                             "lockPreemption %ld and unlockPreemption %ld times%s; each lock "
                             "must be released before the partition returns (§5.2.1: they "
                             "bracket a critical section; an unreleased lock blocks the "
                             "importer's scheduler)",
                             apiu_vname(v), c->vr, t, dl, du,
                             unlock_first ? " (an unlock without a lock)" : "");
                goto out;
            }
            if (take_clock_updates(reply, in, md, p, t) < 0) {
                goto out;
            }
            /* the clock's next activation */
            if (apiu_iv_periodic(c->iv) || (c->iv == FMUC_IV_NONE && c->interval > 0)) {
                c->next = t + c->interval;
                c->pending = 1;
            } else if (c->iv == FMUC_IV_CHANGING) {
                double iv = NAN;
                int q = -1;
                st = fmuc_inst_get_interval_decimal(in, &c->vr, 1, &iv, &q);
                if (!se_ok(p, st)) {
                    apiu_finding(reply, "fail",
                                 "fmi3GetIntervalDecimal of changing clock '%s' (vr %u) after "
                                 "its activation at t=%.10g returned %s (condition 28)",
                                 apiu_vname(v), c->vr, t, apiu_st3(st, sb, sizeof sb));
                    goto out;
                }
                if (q == FMUC_INST_INTERVAL_CHANGED && isfinite(iv) && iv >= 0) {
                    c->next = t + iv;
                    c->pending = 1;
                }
            } else if (c->iv == FMUC_IV_TRIGGERED) {
                c->next = t + TRIGGER_EVERY * h;
                c->pending = 1;
            }
        }
        if (read_outputs(reply, in, md, p, t, &nonfinite) < 0) {
            goto out;
        }
    }
    if (nact >= MAX_ACTIVATIONS)
        apiu_finding(reply, "note", "stopped after %d activations at t=%.10g (the probe's bound)",
                     MAX_ACTIVATIONS, t_end);
    fmuc_worker_phase(ctx, "terminate");
    st = fmuc_inst_terminate(in);
    if (!se_ok(p, st)) {
        apiu_finding(reply, "fail", "fmi3Terminate after the last partition (t=%.10g) returned %s",
                     t_end, apiu_st3(st, sb, sizeof sb));
    }
out:
    fmuc_inst_se_log(in, &ev, &nk, &cnt);
    if (cnt.outside)
        apiu_finding(reply, "note", "clockUpdate was called %zu time(s) while no partition was "
                                    "running (§5.2.2: the FMU calls it from a partition)",
                     cnt.outside);
    if (cnt.nested)
        apiu_finding(reply, "note", "clockUpdate was called %zu time(s) from within Clock "
                                    "Update Mode",
                     cnt.nested);
    if (cnt.empty)
        apiu_finding(reply, "note", "%zu clockUpdate call(s) reported no output clock tick and no "
                                    "new countdown interval (§5.2.2)",
                     cnt.empty);
    if (nonfinite)
        apiu_finding(reply, "note", "%zu output reading(s) were not finite (no FMI rule forbids "
                                    "it; listed for the reader)",
                     nonfinite);
    cJSON *stats = cJSON_AddObjectToObject(reply, "schedule");
    cJSON_AddNumberToObject(stats, "start", t0);
    cJSON_AddNumberToObject(stats, "stop", stop);
    cJSON_AddNumberToObject(stats, "end", t_end);
    cJSON_AddNumberToObject(stats, "instants", (double)ninstants);
    cJSON_AddNumberToObject(stats, "activations", (double)nact);
    cJSON_AddNumberToObject(stats, "inputsSet", (double)p->nset);
    cJSON_AddNumberToObject(stats, "clockUpdates", (double)cnt.clock_updates);
    cJSON_AddNumberToObject(stats, "lockPreemption", (double)cnt.lock);
    cJSON_AddNumberToObject(stats, "unlockPreemption", (double)cnt.unlock);
    cJSON *pc = cJSON_AddObjectToObject(stats, "inputClocks");
    for (size_t k = 0; k < p->nin; k++)
        cJSON_AddNumberToObject(pc, apiu_vname(&md->vars[p->in[k].var]), (double)p->in[k].nact);
    cJSON *oc = cJSON_AddObjectToObject(stats, "outputClockTicks");
    for (size_t k = 0; k < p->nout; k++)
        cJSON_AddNumberToObject(oc, apiu_vname(&md->vars[p->out_var[k]]), (double)p->out_ticks[k]);
    fmuc_worker_phase(ctx, "free");
    if (p->fatal) /* §2.2.4: after fmi3Fatal nothing may be called, not even FreeInstance */
        fmuc_inst_abandon(in);
    else /* after a failed call (no fmi3Terminate): the error state allows it */
        fmuc_inst_free(in);
    free(p);
    return 0;
}

/* ---- judging (parent side) ------------------------------------------------------------------ */

static void run(const fmuc_subject *s, fmuc_result *res)
{
    if (!s->fmu->md.se.present || !s->fmu->lib_path_se) {
        fmuc_result_na(res, "no ScheduledExecution interface with a library for this platform");
        return;
    }
    const char *u = fmuc_shared_unusable(s, FMUC_IFACE_SE, FMUC_UNUSABLE_INSTANCE);
    if (u) {
        fmuc_result_na(res, "%s", u);
        return;
    }
    fmuc_worker_outcome o;
    int died = 0;
    /* a crash or hang while partitions run is what this check probes: a failure, not an error */
    const cJSON *reply = apiu_run_probed(s, res, "se-nominal-run", FMUC_IFACE_SE, worker, NULL,
                                         &o, PHASE_CAM, &died);
    if (died) {
        char why[600];
        fmuc_worker_death_text(&o, why, sizeof why);
        fmuc_result_violation(res, "ScheduledExecution: in Clock Activation Mode the worker ended "
                                   "with %s (§5.2: an activation returns a status)",
                              why);
    }
    if (reply && !apiu_load_failed(reply, res, FMUC_IFACE_SE)) {
        cJSON_AddItemToObject(fmuc_result_evidence(res), "ScheduledExecution",
                              cJSON_Duplicate(reply, 1));
        const char *stop = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(reply, "stopped"));
        if (stop && !cJSON_GetObjectItemCaseSensitive(reply, "findings"))
            fmuc_result_na(res, "%s", stop);
        apiu_report_findings(reply, res);
        const cJSON *sc = cJSON_GetObjectItemCaseSensitive(reply, "schedule");
        if (sc)
            fmuc_result_note(
                res, "ScheduledExecution: %.0f activation(s) at %.0f instant(s) from t=%.10g to "
                     "t=%.10g, %.0f clockUpdate call(s), lockPreemption %.0f / unlockPreemption "
                     "%.0f",
                cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(sc, "activations")),
                cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(sc, "instants")),
                cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(sc, "start")),
                cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(sc, "end")),
                cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(sc, "clockUpdates")),
                cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(sc, "lockPreemption")),
                cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(sc, "unlockPreemption")));
    }
    fmuc_worker_outcome_free(&o);
}

const fmuc_check fmuc_check_se_nominal_run = {
    .id = "se-nominal-run",
    .title = "A Scheduled Execution FMU runs its model partitions on its clocks' schedule",
    .spec = "FMI 3.0.2 §5.1, §5.2 (Scheduled Execution), §2.2.8.2, §2.3.3 (clocks)",
    .level = FMUC_LEVEL_MUST,
    .why = "A scheduler that activates the FMU's partitions as §5 describes cannot use an FMU "
           "that refuses an activation, a clock query or leaves preemption locked.",
    .fix = "Accept fmi3ActivateModelPartition for every input clock at increasing times, answer "
           "fmi3GetClock and fmi3GetIntervalDecimal in Clock Update Mode, and unlock preemption "
           "before a partition returns.",
    .applies = FMUC_APPLIES_SE,
    .versions = FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
