/* api-clocks: the clocks of an FMI 3.0 Model Exchange or Co-Simulation FMU, driven as an importer
 * drives them (FMI 3.0.2 §2.2.8, §2.3.3, §2.3.5; fmi3-rules F.3, C-45, C-46, F-20, F-21). Per
 * interface with clocks (ME; CS when hasEventMode="true": clocks are set in Event Mode only, so
 * the instance is made with eventModeUsed=true) one life cycle in a worker of its own:
 *  - Initialization Mode (D table conditions 15 and 17): fmi3GetIntervalDecimal of every input
 *    clock whose kind allows it there (constant; fixed and tunable without intervalDecimal;
 *    changing; countdown) and fmi3GetShiftDecimal of the periodic ones among them. The call must
 *    succeed; fmi3IntervalNotYetKnown is for countdown clocks only (F-21); a Changed interval is
 *    > 0 for periodic clocks and >= 0 for aperiodic ones (F-20, §2.2.8.2). A constant clock's
 *    interval and shift that differ from its intervalDecimal / shiftDecimal warn (derived: the
 *    importer schedules by the XML). A periodic clock with supportsFraction="true" also answers
 *    fmi3GetIntervalFraction and fmi3GetShiftFraction, with the same times as counter /
 *    resolution (F-22; fails otherwise).
 *  - Event Mode at the clocks' ticks over a short schedule (the first three ticks of each
 *    periodic input clock with a known interval, t = start + shift + k * interval; a changing
 *    clock's first three ticks, at start + interval and then at each tick + the interval it
 *    announces there (condition 15: asked in the Event Mode where it ticked, after the
 *    update; fmi3IntervalNotYetKnown or an unwritten qualifier fails); every triggered input
 *    clock at the first instant
 *    after the start; countdown clocks when their interval is announced): the instance steps to
 *    the tick (ME: RK4 through the step-wise driver, CS: fmi3DoStep), enters Event Mode, and
 *    fmi3SetClock activates the input clocks due (C-45: input clocks are set in Event Mode);
 *    the first due clock with canBeDeactivated="true" in a run is set inactive again at once
 *    (C-45, F-23: the FMU must accept it; its clocked variables are not read then);
 *    then the clocked variables of those clocks are read (C-46: accessible while a clock of
 *    theirs is active), every output clock is inquired with fmi3GetClock and every countdown
 *    clock's interval (condition 15: in every Event Mode), and fmi3UpdateDiscreteStates runs the
 *    partitions until discreteStatesNeedUpdate=false. A call of these that does not succeed
 *    fails (must); the run stops at the first.
 * Scheduled Execution is se-nominal-run's; an FMU without Clock variables is not applicable. */
#include <math.h>
#include <stdlib.h>

#include "api_util.h"
#include "fmuc/fmuc_step.h"
#include "me/me_util.h"

#define CK_MAX_CLOCKS 64
#define CK_TICKS 3         /* ticks per periodic clock in the schedule */
#define CK_MAX_INSTANTS 24 /* Event Mode instants of a run */
#define CK_MAX_CLOCKED 64  /* clocked variables read per instant */
#define CK_MAX_ITER 100    /* fmi3UpdateDiscreteStates calls per instant */
#define CK_HORIZON 1000    /* grid steps the schedule spans at most */
#define CK_PROBE "clocks"  /* phase prefix of the probed calls */

typedef struct ck_clock {
    size_t var;
    fmuc_vr vr;
    unsigned iv;             /* fmuc_interval_variability */
    int input;               /* causality input (else output or local) */
    int deact;               /* an input clock with canBeDeactivated="true" */
    int ticks;               /* changing clocks: ticks scheduled so far */
    int xml_interval, xml_shift;
    double interval, shift;  /* known interval (NAN: not known) and shift (0 default) */
} ck_clock;

typedef struct ck_job {
    fmuc_iface iface;
    ck_clock c[CK_MAX_CLOCKS];
    size_t n;
} ck_job;

/* q is an fmi3IntervalQualifier */
static int is_qualifier(int q)
{
    return q == FMUC_INST_INTERVAL_NOT_YET_KNOWN || q == FMUC_INST_INTERVAL_UNCHANGED ||
           q == FMUC_INST_INTERVAL_CHANGED;
}

/* the kinds whose interval is asked in Initialization Mode (condition 15) */
static int interval_in_init(const ck_clock *k)
{
    return k->input && (k->iv == FMUC_IV_CONSTANT || k->iv == FMUC_IV_CHANGING ||
                        k->iv == FMUC_IV_COUNTDOWN ||
                        ((k->iv == FMUC_IV_FIXED || k->iv == FMUC_IV_TUNABLE) && !k->xml_interval));
}

/* Worker state of one run. */
typedef struct ck_run {
    fmuc_worker_ctx *ctx;
    const fmuc_md *md;
    ck_job *job;
    cJSON *reply;
    cJSON *init;                             /* what the Initialization Mode getters said */
    double t0, end;                          /* start, end of the schedule's horizon */
    double h;                                /* the grid's step */
    int grid_only;                           /* CS without variable steps: grid ticks only */
    size_t off_grid;                         /* ticks left out for it */
    double when[CK_MAX_INSTANTS];           /* the schedule: instant times, sorted */
    unsigned char due[CK_MAX_INSTANTS][CK_MAX_CLOCKS];
    size_t ninst;
    size_t n_queries, n_set, n_clocked_gets, n_output_gets, n_countdown_gets;
    size_t n_fraction;                       /* Fraction getters among n_queries */
    size_t n_deactivated;                    /* fmi3SetClock(inactive) calls (one a run) */
    size_t n_changing_gets;                  /* changing clocks' intervals asked at their ticks */
    long cur;                                /* the instant in Event Mode now (-1: none) */
    int stop;                                /* a probed call failed: no more calls */
} ck_run;

/* The index of the instant at t in the schedule, made when new (merged with one within
 * round-off); -1 when t is not finite, off the grid of a fixed-step Co-Simulation run (counted
 * in *off_grid when not NULL) or after every instant of a full schedule (the latest one goes to
 * make room for an earlier one). */
static long instant_at(ck_run *r, double t, size_t *off_grid)
{
    double eps = 1e-9 * fmax(1.0, fabs(t));
    size_t i = 0;
    if (!isfinite(t))
        return -1;
    if (r->grid_only) { /* CS with a fixed communication step: the grid only */
        double m = (t - r->t0) / r->h;
        if (fabs(m - nearbyint(m)) > 1e-6) {
            if (off_grid)
                (*off_grid)++;
            return -1;
        }
    }
    while (i < r->ninst && r->when[i] < t - eps)
        i++;
    if (i < r->ninst && fabs(r->when[i] - t) <= eps)
        return (long)i;
    if (r->ninst == CK_MAX_INSTANTS) {
        if (i == CK_MAX_INSTANTS)
            return -1;
        r->ninst--;
    }
    memmove(&r->when[i + 1], &r->when[i], (r->ninst - i) * sizeof r->when[0]);
    memmove(&r->due[i + 1], &r->due[i], (r->ninst - i) * sizeof r->due[0]);
    memset(r->due[i], 0, sizeof r->due[i]);
    r->when[i] = t;
    r->ninst++;
    return (long)i;
}

/* Clock k ticks at t. */
static void schedule(ck_run *r, size_t k, double t)
{
    long i = instant_at(r, t, &r->off_grid);
    if (i >= 0)
        r->due[i][k] = 1;
}

/* An instant with no clock due (a time event the FMU announced in Co-Simulation). */
static void add_instant(ck_run *r, double t)
{
    (void)instant_at(r, t, NULL);
}

/* F-22: a clock with supportsFraction="true" answers the Fraction variant of the getter whose
 * Decimal variant answered `decimal` (interval: shift=0; shift: shift=1) with the same time,
 * counter / resolution seconds (1e-9 relative: the Decimal one may be rounded). A finding and
 * -1 when it does not. */
static int fraction_probe(ck_run *r, fmuc_inst *in, const ck_clock *k, int shift, double decimal)
{
    char b[32];
    const char *IFN = apiu_iface_name(r->job->iface);
    const fmuc_md_var *v = &r->md->vars[k->var];
    const char *fn = shift ? "fmi3GetShiftFraction" : "fmi3GetIntervalFraction";
    uint64_t cnt = UINT64_MAX, res = 0;
    int q = -1;
    r->n_queries++;
    r->n_fraction++;
    fmuc_status st = shift ? fmuc_inst_get_shift_fraction(in, &k->vr, 1, &cnt, &res)
                           : fmuc_inst_get_interval_fraction(in, &k->vr, 1, &cnt, &res, &q);
    if (!apiu_ok(st)) {
        apiu_finding(r->reply, "fail",
                     "%s: %s of clock '%s' (vr %u, %s, supportsFraction=\"true\", line %u) in "
                     "Initialization Mode returned %s, its Decimal variant OK (FMI 3.0.2 "
                     "§2.2.8.4: a clock that supports fractions answers both variants)",
                     IFN, fn, apiu_vname(v), k->vr, apiu_iv_name(k->iv), v->line,
                     apiu_st3(st, b, sizeof b));
        return -1;
    }
    if (!shift && (!is_qualifier(q) || q == FMUC_INST_INTERVAL_NOT_YET_KNOWN)) {
        apiu_finding(r->reply, "fail",
                     "%s: fmi3GetIntervalFraction of clock '%s' (vr %u, %s) returned %s "
                     "with the qualifier %d%s, fmi3GetIntervalDecimal a known interval (FMI "
                     "3.0.2 §2.2.8.4)",
                     IFN, apiu_vname(v), k->vr, apiu_iv_name(k->iv), apiu_st3(st, b, sizeof b), q,
                     q == -1 ? " (the argument left unwritten)"
                     : q == FMUC_INST_INTERVAL_NOT_YET_KNOWN ? " (fmi3IntervalNotYetKnown)"
                                                             : "");
        return -1;
    }
    double secs = res ? (double)cnt / (double)res : NAN;
    if (!res || fabs(secs - decimal) > 1e-9 * fmax(fabs(decimal), 1e-12)) {
        apiu_finding(r->reply, "fail",
                     "%s: %s of clock '%s' (vr %u, %s) returned counter %llu and resolution "
                     "%llu (%s%.17g s), %s %.17g s (FMI 3.0.2 §2.2.8.4: both variants give the "
                     "same %s, counter / resolution seconds)",
                     IFN, fn, apiu_vname(v), k->vr, apiu_iv_name(k->iv),
                     (unsigned long long)cnt, (unsigned long long)res, res ? "" : "undefined: ",
                     res ? secs : 0.0, shift ? "fmi3GetShiftDecimal" : "fmi3GetIntervalDecimal",
                     decimal, shift ? "shift" : "interval");
        return -1;
    }
    return 0;
}

/* Initialization Mode (the driver's in_init hook): the interval and shift getters. */
static int init_probe(void *user, fmuc_inst *in)
{
    ck_run *r = user;
    char b[32];
    const char *IFN = apiu_iface_name(r->job->iface);
    fmuc_worker_phase(r->ctx, CK_PROBE ": Initialization Mode");
    for (size_t i = 0; i < r->job->n; i++) {
        ck_clock *k = &r->job->c[i];
        const fmuc_md_var *v = &r->md->vars[k->var];
        const fmuc_md_var_ext *x = fmuc_md_var_ext_of(r->md, k->var);
        if (!interval_in_init(k))
            continue;
        double iv = NAN;
        int q = -1;
        r->n_queries++;
        fmuc_status st = fmuc_inst_get_interval_decimal(in, &k->vr, 1, &iv, &q);
        cJSON *rec = cJSON_CreateObject();
        cJSON_AddStringToObject(rec, "clock", apiu_vname(v));
        cJSON_AddNumberToObject(rec, "status", st);
        cJSON_AddNumberToObject(rec, "interval", isfinite(iv) ? iv : -1.0);
        cJSON_AddNumberToObject(rec, "qualifier", q);
        cJSON_AddItemToArray(r->init, rec);
        if (!apiu_ok(st)) {
            apiu_finding(r->reply, "fail",
                         "%s: fmi3GetIntervalDecimal of input clock '%s' (vr %u, %s) in "
                         "Initialization Mode returned %s (FMI 3.0.2 §2.3.3, §2.2.8.4: the "
                         "interval of this kind of clock is inquired there)",
                         IFN, apiu_vname(v), k->vr, apiu_iv_name(k->iv), apiu_st3(st, b, sizeof b));
            continue;
        }
        if (q == -1) {
            apiu_finding(r->reply, "fail",
                         "%s: fmi3GetIntervalDecimal of input clock '%s' (vr %u, %s) in "
                         "Initialization Mode returned %s and interval %.17g but left the "
                         "qualifiers argument unwritten (FMI 3.0.2 §2.2.8.4: the qualifier says "
                         "whether the interval is known and new; an importer reads what its "
                         "memory held)",
                         IFN, apiu_vname(v), k->vr, apiu_iv_name(k->iv), apiu_st3(st, b, sizeof b), iv);
            continue;
        }
        if (!is_qualifier(q)) {
            apiu_finding(r->reply, "fail",
                         "%s: fmi3GetIntervalDecimal of input clock '%s' (vr %u) returned the "
                         "qualifier %d, no fmi3IntervalQualifier (FMI 3.0.2 §2.2.8.4)",
                         IFN, apiu_vname(v), k->vr, q);
            continue;
        }
        if (q == FMUC_INST_INTERVAL_NOT_YET_KNOWN && k->iv != FMUC_IV_COUNTDOWN) {
            apiu_finding(r->reply, "fail",
                         "%s: fmi3GetIntervalDecimal of input clock '%s' (vr %u, %s) in "
                         "Initialization Mode returned fmi3IntervalNotYetKnown (FMI 3.0.2 "
                         "§2.2.8.4: only countdown clocks may answer it; the importer cannot "
                         "schedule this clock)",
                         IFN, apiu_vname(v), k->vr, apiu_iv_name(k->iv));
            continue;
        }
        if (q == FMUC_INST_INTERVAL_CHANGED) {
            int per = apiu_iv_periodic(k->iv);
            if (!isfinite(iv) || iv < 0 || (per && iv == 0)) {
                apiu_finding(r->reply, "fail",
                             "%s: fmi3GetIntervalDecimal of input clock '%s' (vr %u, %s) "
                             "returned interval %.17g with fmi3IntervalChanged (FMI 3.0.2 "
                             "§2.2.8.2: intervals are > 0 for periodic clocks, >= 0 for "
                             "aperiodic ones)",
                             IFN, apiu_vname(v), k->vr, apiu_iv_name(k->iv), iv);
                continue;
            }
            if (k->iv == FMUC_IV_CONSTANT && x && (x->clock_has & FMUC_CLK_INTERVAL_DECIMAL) &&
                fabs(iv - x->interval_decimal) > 1e-12 * fmax(1.0, fabs(x->interval_decimal)))
                apiu_finding(r->reply, "warn",
                             "%s: fmi3GetIntervalDecimal of constant clock '%s' (vr %u) "
                             "returned %.17g, its intervalDecimal (line %u) is %.17g (FMI 3.0.2 "
                             "§2.2.8.2; derived: a constant clock ticks at the interval of its "
                             "XML)",
                             IFN, apiu_vname(v), k->vr, iv, v->line, x->interval_decimal);
            else if (k->iv != FMUC_IV_COUNTDOWN)
                k->interval = iv;
        } else if (q == FMUC_INST_INTERVAL_UNCHANGED && k->iv != FMUC_IV_COUNTDOWN &&
                   isnan(k->interval) && isfinite(iv) &&
                   (apiu_iv_periodic(k->iv) ? iv > 0 : iv >= 0)) {
            k->interval = iv; /* the first answer: Unchanged from what the FMU always had */
        }
        /* a failed Fraction probe is recorded; the Decimal shift is still asked (condition
         * 17), which the schedule needs */
        int fraction = x && x->supports_fraction && apiu_iv_periodic(k->iv);
        if (fraction && q != FMUC_INST_INTERVAL_NOT_YET_KNOWN && isfinite(iv))
            (void)fraction_probe(r, in, k, 0, iv);
        if (!apiu_iv_periodic(k->iv))
            continue;
        /* condition 17: the shift of the same periodic clocks */
        double sh = NAN;
        r->n_queries++;
        st = fmuc_inst_get_shift_decimal(in, &k->vr, 1, &sh);
        cJSON_AddNumberToObject(rec, "shift_status", st);
        cJSON_AddNumberToObject(rec, "shift", isfinite(sh) ? sh : -1.0);
        if (!apiu_ok(st)) {
            apiu_finding(r->reply, "fail",
                         "%s: fmi3GetShiftDecimal of periodic input clock '%s' (vr %u, %s) in "
                         "Initialization Mode returned %s (FMI 3.0.2 §2.3.3, §2.2.8.4)",
                         IFN, apiu_vname(v), k->vr, apiu_iv_name(k->iv), apiu_st3(st, b, sizeof b));
            continue;
        }
        double xs = x && (x->clock_has & FMUC_CLK_SHIFT_DECIMAL) ? x->shift_decimal : 0.0;
        if (!isfinite(sh) || sh < 0)
            apiu_finding(r->reply, "warn",
                         "%s: fmi3GetShiftDecimal of periodic input clock '%s' (vr %u) "
                         "returned %.17g (FMI 3.0.2 §2.2.8.2: the first tick is at the start "
                         "time plus the shift; derived)",
                         IFN, apiu_vname(v), k->vr, sh);
        else if (k->iv == FMUC_IV_CONSTANT && fabs(sh - xs) > 1e-12 * fmax(1.0, fabs(xs)))
            apiu_finding(r->reply, "warn",
                         "%s: fmi3GetShiftDecimal of constant clock '%s' (vr %u) returned "
                         "%.17g, its shiftDecimal (line %u) is %.17g (FMI 3.0.2 §2.2.8.2; "
                         "derived)",
                         IFN, apiu_vname(v), k->vr, sh, v->line, xs);
        else if (k->iv != FMUC_IV_CONSTANT || !k->xml_shift)
            k->shift = sh;
        if (fraction && isfinite(sh) && sh >= 0)
            (void)fraction_probe(r, in, k, 1, sh);
    }
    fmuc_worker_phase(r->ctx, "initialization"); /* the rest of it is not this check's probe */
    return 0;
}

/* The clocked variables of clock vr that can be read as scalars (C-46), at most n. */
static size_t clocked_of(const fmuc_md *md, fmuc_vr vr, size_t *out, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < md->nvars && m < n; i++) {
        const fmuc_md_var *v = &md->vars[i];
        const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, i);
        fmuc_inst_base b = apiu_inst_base(v->base);
        if (!x || x->ndims || v->base == FMUC_BT_CLOCK || b == FMUC_INST_NBASE ||
            b == FMUC_INST_STRING || b == FMUC_INST_BINARY)
            continue;
        for (uint32_t j = 0; j < x->nclocks; j++)
            if (x->clocks[j] == vr) {
                out[m++] = i;
                break;
            }
    }
    return m;
}

/* Event Mode at instant i: set the clocks due, read what they make readable, inquire the
 * output and countdown clocks. 0, or -1 when a probed call failed (r->stop). */
static int in_event_mode(ck_run *r, fmuc_inst *in, size_t i)
{
    char b[32];
    double t = r->when[i];
    r->cur = (long)i;
    fmuc_vr set[CK_MAX_CLOCKS];
    int on[CK_MAX_CLOCKS];
    size_t idx[CK_MAX_CLOCKS]; /* set[j] is the clock r->job->c[idx[j]] */
    size_t nset = 0, first = 0;
    for (size_t k = 0; k < r->job->n; k++)
        if (r->due[i][k]) {
            if (!nset)
                first = k;
            on[nset] = 1;
            idx[nset] = k;
            set[nset++] = r->job->c[k].vr;
        }
    const fmuc_md_var *fv = &r->md->vars[r->job->c[first].var];
    if (nset) {
        fmuc_worker_phase_at(r->ctx, CK_PROBE ": fmi3SetClock", -1, t);
        r->n_set += nset;
        fmuc_status st = fmuc_inst_set(in, FMUC_INST_CLOCK, set, nset, on, nset);
        if (!apiu_ok(st)) {
            apiu_finding(r->reply, "fail",
                         "%s: fmi3SetClock(active) of input clock%s '%s' (vr %u)%s at t=%.17g in "
                         "Event Mode returned %s (FMI 3.0.2 §2.3.5, §2.2.8.4: the importer "
                         "activates input clocks in Event Mode with fmi3SetClock)",
                         apiu_iface_name(r->job->iface), nset > 1 ? "s" : "", apiu_vname(fv),
                         set[0], nset > 1 ? " and others" : "", t, apiu_st3(st, b, sizeof b));
            return r->stop = -1;
        }
        /* C-45, F-23: the first due clock with canBeDeactivated="true" is set inactive again
         * in the instant that activated it, once a run (before anything is read: an FMU may
         * refuse fmi3SetClock after evaluating the instant, G-17); its clocked variables are
         * then not read */
        for (size_t k = 0; k < nset && !r->n_deactivated; k++) {
            size_t ci = idx[k];
            if (!r->job->c[ci].deact)
                continue;
            const fmuc_md_var *dv = &r->md->vars[r->job->c[ci].var];
            int off = 0;
            fmuc_worker_phase_at(r->ctx, CK_PROBE ": fmi3SetClock(inactive)", -1, t);
            r->n_deactivated++;
            st = fmuc_inst_set(in, FMUC_INST_CLOCK, &set[k], 1, &off, 1);
            if (!apiu_ok(st)) {
                apiu_finding(r->reply, "fail",
                             "%s: fmi3SetClock(inactive) of input clock '%s' (vr %u, "
                             "canBeDeactivated=\"true\", line %u) at t=%.17g, in the Event Mode "
                             "that activated it, returned %s (FMI 3.0.2 §2.2.8.4, §2.3.5: a "
                             "clock that can be deactivated is deactivated with fmi3SetClock)",
                             apiu_iface_name(r->job->iface), apiu_vname(dv), set[k], dv->line, t,
                             apiu_st3(st, b, sizeof b));
                return r->stop = -1;
            }
            on[k] = 0;
            r->due[i][ci] = 0; /* it did not tick: nothing asked of it after the update */
        }
        /* C-46: the clocked variables of the active clocks */
        for (size_t k = 0; k < nset; k++) {
            if (!on[k])
                continue;
            size_t vars[CK_MAX_CLOCKED];
            size_t m = clocked_of(r->md, set[k], vars, CK_MAX_CLOCKED);
            for (size_t j = 0; j < m; j++) {
                const fmuc_md_var *v = &r->md->vars[vars[j]];
                unsigned char buf[16] = {0};
                fmuc_worker_phase_at(r->ctx, CK_PROBE ": get of a clocked variable", -1, t);
                r->n_clocked_gets++;
                st = fmuc_inst_get(in, apiu_inst_base(v->base), &(fmuc_vr){v->value_reference}, 1,
                                   buf, 1);
                if (!apiu_ok(st)) {
                    apiu_finding(r->reply, "fail",
                                 "%s: the get of '%s' (vr %u, clocked by vr %u, line %u) at "
                                 "t=%.17g in Event Mode, its clock active, returned %s (FMI "
                                 "3.0.2 §2.2.8.3: clocked variables are accessible while a clock "
                                 "of theirs is active)",
                                 apiu_iface_name(r->job->iface), apiu_vname(v), v->value_reference,
                                 set[k], v->line, t, apiu_st3(st, b, sizeof b));
                    return r->stop = -1;
                }
            }
        }
    }
    for (size_t k = 0; k < r->job->n; k++) {
        ck_clock *c = &r->job->c[k];
        const fmuc_md_var *v = &r->md->vars[c->var];
        fmuc_status st;
        if (v->causality == FMUC_CAUS_OUTPUT) {
            int val = 0;
            fmuc_worker_phase_at(r->ctx, CK_PROBE ": fmi3GetClock", -1, t);
            r->n_output_gets++;
            st = fmuc_inst_get(in, FMUC_INST_CLOCK, &c->vr, 1, &val, 1);
            if (!apiu_ok(st)) {
                apiu_finding(r->reply, "fail",
                             "%s: fmi3GetClock of output clock '%s' (vr %u) at t=%.17g in Event "
                             "Mode returned %s (FMI 3.0.2 §2.2.8.4: output clocks are inquired "
                             "in Event Mode)",
                             apiu_iface_name(r->job->iface), apiu_vname(v), c->vr, t,
                             apiu_st3(st, b, sizeof b));
                return r->stop = -1;
            }
        }
    }
    return 0;
}

/* fmi3GetIntervalDecimal of input clock c (kind: "countdown", "changing") in Event Mode at t,
 * after the event iteration (condition 15). 0 with *iv and a valid qualifier in *q; -1 with a
 * finding (r->stop) when the call failed, left the qualifier unwritten or wrote no
 * fmi3IntervalQualifier. */
static int em_interval(ck_run *r, fmuc_inst *in, double t, const ck_clock *c, const char *kind,
                       double *iv, int *q)
{
    char b[32];
    const fmuc_md_var *v = &r->md->vars[c->var];
    const char *IFN = apiu_iface_name(r->job->iface);
    *iv = NAN;
    *q = -1;
    fmuc_worker_phase_at(r->ctx, CK_PROBE ": fmi3GetIntervalDecimal", -1, t);
    fmuc_status st = fmuc_inst_get_interval_decimal(in, &c->vr, 1, iv, q);
    if (!apiu_ok(st)) {
        apiu_finding(r->reply, "fail",
                     "%s: fmi3GetIntervalDecimal of %s clock '%s' (vr %u) at t=%.17g in Event "
                     "Mode returned %s (FMI 3.0.2 §2.2.8.4: a %s clock's interval is inquired "
                     "in %s)",
                     IFN, kind, apiu_vname(v), c->vr, t, apiu_st3(st, b, sizeof b), kind,
                     strcmp(kind, "countdown") == 0 ? "every Event Mode"
                                                    : "the Event Mode where it ticked");
        return r->stop = -1;
    }
    if (*q == -1 || !is_qualifier(*q)) {
        apiu_finding(r->reply, "fail",
                     "%s: fmi3GetIntervalDecimal of %s clock '%s' (vr %u) at t=%.17g in Event "
                     "Mode %s (FMI 3.0.2 §2.2.8.4)",
                     IFN, kind, apiu_vname(v), c->vr, t,
                     *q == -1 ? "left the qualifiers argument unwritten"
                              : "returned no fmi3IntervalQualifier");
        return r->stop = -1;
    }
    return 0;
}

/* An interval announced with fmi3IntervalChanged is >= 0 (F-20); 0, or -1 with a finding. */
static int announced_ok(ck_run *r, double t, const ck_clock *c, const char *kind, double iv)
{
    if (isfinite(iv) && iv >= 0)
        return 0;
    apiu_finding(r->reply, "fail",
                 "%s: %s clock '%s' (vr %u) announced the interval %.17g at t=%.17g (FMI 3.0.2 "
                 "§2.2.8.2: >= 0)",
                 apiu_iface_name(r->job->iface), kind, apiu_vname(&r->md->vars[c->var]), c->vr,
                 iv, t);
    return -1;
}

/* Condition 15: a changing clock that ticked in this Event Mode is asked its next interval
 * there (after fmi3UpdateDiscreteStates); its next tick is scheduled at t + interval (F-20),
 * up to CK_TICKS ticks. 0, or -1 when a probed call failed (r->stop). */
static int changing_after_tick(ck_run *r, fmuc_inst *in, double t, size_t k)
{
    ck_clock *c = &r->job->c[k];
    double iv;
    int q;
    r->n_changing_gets++;
    if (em_interval(r, in, t, c, "changing", &iv, &q) < 0)
        return -1;
    if (q == FMUC_INST_INTERVAL_NOT_YET_KNOWN) {
        apiu_finding(r->reply, "fail",
                     "%s: fmi3GetIntervalDecimal of changing clock '%s' (vr %u) at its tick "
                     "t=%.17g, in Event Mode, answered with the qualifier %d "
                     "(fmi3IntervalNotYetKnown; FMI 3.0.2 §2.2.8.4, §2.3.5: a changing clock's "
                     "next interval is known when it ticks; only countdown clocks answer it)",
                     apiu_iface_name(r->job->iface), apiu_vname(&r->md->vars[c->var]), c->vr, t,
                     q);
        return r->stop = -1;
    }
    if (q == FMUC_INST_INTERVAL_CHANGED) {
        if (announced_ok(r, t, c, "changing", iv) < 0)
            return 0;
        c->interval = iv;
    }
    if (c->ticks < CK_TICKS && isfinite(c->interval) && c->interval > 0 &&
        t + c->interval <= r->end) {
        schedule(r, k, t + c->interval);
        c->ticks++;
    }
    return 0;
}

/* Event Mode at instant i after the event iteration (condition 15: a countdown clock's interval
 * is asked in every Event Mode, a changing clock's in the one where it ticked, after
 * fmi3UpdateDiscreteStates): an announced tick is scheduled at t + interval (F-20). 0, or -1
 * when a probed call failed (r->stop). */
static int after_iteration(ck_run *r, fmuc_inst *in, double t)
{
    for (size_t k = 0; r->cur >= 0 && k < r->job->n; k++)
        if (r->job->c[k].input && r->job->c[k].iv == FMUC_IV_CHANGING &&
            r->due[r->cur][k] && changing_after_tick(r, in, t, k) < 0)
            return -1;
    for (size_t k = 0; k < r->job->n; k++) {
        ck_clock *c = &r->job->c[k];
        if (!c->input || c->iv != FMUC_IV_COUNTDOWN)
            continue;
        double iv;
        int q;
        r->n_countdown_gets++;
        if (em_interval(r, in, t, c, "countdown", &iv, &q) < 0)
            return -1;
        if (q == FMUC_INST_INTERVAL_CHANGED && announced_ok(r, t, c, "countdown", iv) == 0 &&
            t + iv <= r->end)
            schedule(r, k, t + iv);
    }
    return 0;
}

/* The first instants of the schedule (before Event Mode at the start), within CK_HORIZON steps
 * of the default experiment's grid (a tick beyond is not driven: the ME steps stay those of the
 * grid, the run stays short). */
static void plan_schedule(ck_run *r, double h, int grid_only)
{
    double end = r->end = r->t0 + CK_HORIZON * h;
    r->h = h;
    r->grid_only = grid_only;
    for (size_t k = 0; k < r->job->n; k++) {
        const ck_clock *c = &r->job->c[k];
        if (!c->input)
            continue;
        if (apiu_iv_periodic(c->iv) && isfinite(c->interval) && c->interval > 0) {
            for (int j = 0; j < CK_TICKS; j++) {
                double t = r->t0 + c->shift + j * c->interval;
                if (t <= end)
                    schedule(r, k, t);
            }
        } else if (c->iv == FMUC_IV_CHANGING && isfinite(c->interval) &&
                   r->t0 + c->interval <= end) {
            schedule(r, k, r->t0 + c->interval);
            r->job->c[k].ticks = 1;
        }
    }
    /* triggered input clocks: at the first instant after the start (else one grid step on) */
    double tt = r->t0 + h;
    for (size_t i = 0; i < r->ninst; i++)
        if (r->when[i] > r->t0 + 1e-9 * fmax(1.0, fabs(r->t0))) {
            tt = r->when[i];
            break;
        }
    for (size_t k = 0; k < r->job->n; k++)
        if (r->job->c[k].input && r->job->c[k].iv == FMUC_IV_TRIGGERED)
            schedule(r, k, tt);
}

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    ck_job *job = payload;
    const fmuc_md *md = &fmuc_worker_fmu(ctx)->md;
    cJSON *reply = fmuc_worker_reply(ctx);
    ck_run r;
    char b[32];
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.md = md;
    r.job = job;
    r.reply = reply;
    r.cur = -1;
    r.init = cJSON_AddArrayToObject(reply, "init_answers");
    if (apiu_load(ctx, job->iface) < 0)
        return 0;
    fmuc_inst *in;
    if (job->iface == FMUC_IFACE_CS) {
        fmuc_inst_cs3_options o = {.name = "fmucheck-clocks", .event_mode_used = 1};
        in = fmuc_inst_instantiate_cs3(ctx, &o);
    } else {
        in = fmuc_inst_instantiate(ctx, FMUC_IFACE_ME, NULL, "fmucheck-clocks");
    }
    if (!in) {
        cJSON_AddBoolToObject(reply, "refused", 1);
        return 0;
    }
    double h;
    apiu_grid(md, &r.t0, &h);
    fmuc_drive_start ds;
    fmuc_drive_reached dr;
    fmuc_drive_start_init(&ds, md);
    ds.in_init = init_probe;
    ds.user = &r;
    ds.phase_init = "initialization";
    /* CS with eventModeUsed: fmi3ExitInitializationMode leads to Event Mode (§2.3.3) */
    if (fmuc_drive_reach(in, job->iface == FMUC_IFACE_CS ? FMUC_ST_SC : FMUC_ST_EM, &ds, &dr) !=
        0) {
        cJSON_AddStringToObject(reply, "stopped",
                                dr.no_settle ? "the initial event iteration did not settle"
                                : dr.failed_op >= 0
                                    ? apiu_fn(3, job->iface, (fmuc_inst_op)dr.failed_op)
                                    : "initialization stopped");
        goto out;
    }
    int cs = job->iface == FMUC_IFACE_CS;
    int var_step = cs && ((md->cs.caps >> FMUC_CAP_CAN_HANDLE_VARIABLE_COMMUNICATION_STEP_SIZE) & 1u);
    plan_schedule(&r, h, cs && !var_step);
    size_t nx = 0, nz = 0;
    if (job->iface == FMUC_IFACE_ME) {
        meu_model m;
        int sized = meu_model_build(md, &m) == 0;
        nx = m.nx;
        nz = m.ni;
        meu_model_free(&m);
        if (!sized) {
            cJSON_AddStringToObject(reply, "stopped", "the model's state sizes are unusable");
            goto out;
        }
    }
    fmuc_stepper sp;
    if (fmuc_stepper_init(&sp, in, job->iface == FMUC_IFACE_ME, nx, nz) < 0) {
        cJSON_AddStringToObject(reply, "stopped", "out of memory");
        goto out;
    }
    double cur = r.t0, eps0 = 1e-9 * fmax(1.0, fabs(r.t0));
    /* Co-Simulation without canHandleVariableCommunicationStepSize keeps the grid's step h
     * (D-01): only ticks on the grid are driven (plan_schedule dropped the others) */
    /* Event Mode after initialization: the clocks due at the start */
    int have = r.ninst && fabs(r.when[0] - r.t0) <= eps0;
    size_t i = have ? 1 : 0;
    if (have && in_event_mode(&r, in, 0) < 0)
        goto stepped;
    for (;;) {
        /* the event iteration, then (still in Event Mode) the countdown intervals, then
         * Continuous-Time Mode (ME) / Step Mode (CS) */
        if (have)
            fmuc_worker_phase_at(ctx, CK_PROBE ": fmi3UpdateDiscreteStates", -1, cur);
        else
            fmuc_worker_phase_at(ctx, "event iteration", -1, cur);
        fmuc_step_event ev;
        fmuc_status st = FMUC_STATUS_OK;
        const char *call = "fmi3UpdateDiscreteStates";
        int er = fmuc_step_event_iteration(in, CK_MAX_ITER, NULL, NULL, NULL, &ev);
        if (er < 0 && ev.failed)
            st = (fmuc_status)ev.status;
        if (er == 0 && after_iteration(&r, in, cur) < 0)
            break;
        if (er == 0) {
            call = cs ? "fmi3EnterStepMode" : "fmi3EnterContinuousTimeMode";
            fmuc_worker_phase_at(ctx, have ? CK_PROBE ": leaving Event Mode" : "leaving Event Mode",
                                 -1, cur);
            st = cs ? fmuc_inst_enter_step_mode(in) : fmuc_inst_enter_continuous_time_mode(in);
            if (apiu_ok(st) && !cs) {
                sp.next_event_defined = ev.info.next_event_time_defined != 0;
                sp.next_event = ev.info.next_event_time;
                if (fmuc_step_me_resync(&sp) != FMUC_STEP_OK) {
                    call = sp.call;
                    st = (fmuc_status)sp.status;
                }
            }
            if (apiu_ok(st) && cs && ev.info.next_event_time_defined &&
                ev.info.next_event_time > cur + 1e-9 * fmax(1.0, fabs(cur)) &&
                ev.info.next_event_time <= r.end)
                add_instant(&r, ev.info.next_event_time); /* a time event (D-06) */
        }
        if (!apiu_ok(st) || er != 0) {
            if (!apiu_ok(st) && have)
                apiu_finding(reply, "fail",
                             "%s: %s at t=%.17g, after fmi3SetClock activated the input clocks "
                             "due, returned %s (FMI 3.0.2 §2.3.5: the event iteration of the "
                             "active clocks' instant)",
                             apiu_iface_name(job->iface), call, cur, apiu_st3(st, b, sizeof b));
            if (st == FMUC_STATUS_ERROR || st == FMUC_STATUS_FATAL)
                r.stop = 1; /* Terminated or Fatal: nothing more is called */
            cJSON_AddStringToObject(reply, "stopped", !apiu_ok(st) ? call
                                                      : er == 1 ? "the FMU asked to terminate"
                                                                : "the event iteration did not "
                                                                  "settle");
            break;
        }
        /* the next instant after cur */
        while (i < r.ninst && r.when[i] <= cur + 1e-9 * fmax(1.0, fabs(cur)))
            i++;
        if (i >= r.ninst)
            break;
        double t = r.when[i];
        fmuc_worker_phase_at(ctx, "step to the next tick", -1, t);
        fmuc_step_cs_out so;
        memset(&so, 0, sizeof so);
        fmuc_step_rc rc = FMUC_STEP_OK;
        if (!cs) {
            double m = ceil((t - cur) / h - 1e-9);
            sp.nsub = m < 1 ? 1 : m > CK_HORIZON ? CK_HORIZON : (int)m;
            rc = fmuc_step_interval(&sp, cur, t, &so);
        } else {
            /* one step to the tick, or grid steps of h; Event Mode where a step asks for it */
            double ta = cur;
            while (rc == FMUC_STEP_OK && ta < t - 1e-9 * fmax(1.0, fabs(t))) {
                double tb = var_step ? t : fmin(t, ta + h);
                if (!var_step && fabs(tb - t) <= 1e-9 * fmax(1.0, fabs(t)))
                    tb = t;
                rc = fmuc_step_interval(&sp, ta, tb, &so);
                if (rc != FMUC_STEP_OK)
                    break;
                if (so.info.terminate_simulation) {
                    rc = FMUC_STEP_TERMINATE;
                    break;
                }
                ta = tb;
                if (so.info.event_handling_needed && ta < t - 1e-9 * fmax(1.0, fabs(t))) {
                    /* an event of the FMU's own before the tick: handled at ta */
                    fmuc_worker_phase_at(ctx, "event iteration", -1, ta);
                    if (!apiu_ok(fmuc_inst_enter_event_mode(in)) ||
                        fmuc_step_event_iteration(in, CK_MAX_ITER, NULL, NULL, NULL, &ev) != 0 ||
                        !apiu_ok(fmuc_inst_enter_step_mode(in))) {
                        rc = FMUC_STEP_FAILED;
                        snprintf(sp.call, sizeof sp.call, "the Event Mode of the FMU's event");
                        sp.status = FMUC_STATUS_ERROR;
                    }
                }
            }
        }
        if (rc != FMUC_STEP_OK) {
            if (rc == FMUC_STEP_FAILED &&
                (sp.status == FMUC_STATUS_ERROR || sp.status == FMUC_STATUS_FATAL))
                r.stop = 1;
            cJSON_AddStringToObject(reply, "stopped",
                                    rc == FMUC_STEP_FAILED ? sp.call : "the step stopped");
            break;
        }
        cur = t;
        have = 0;
        for (size_t k = 0; k < job->n; k++)
            have |= r.due[i][k];
        if (!have)
            r.cur = -1; /* a time event of the FMU's: no clock ticked */
        fmuc_worker_phase_at(ctx, have ? CK_PROBE ": fmi3EnterEventMode" : "fmi3EnterEventMode",
                             -1, t);
        st = fmuc_inst_enter_event_mode(in);
        if (!apiu_ok(st)) {
            if (have)
                apiu_finding(reply, "fail",
                             "%s: fmi3EnterEventMode at the tick t=%.17g returned %s (FMI 3.0.2 "
                             "§2.3.5: the importer enters Event Mode to set input clocks)",
                             apiu_iface_name(job->iface), t, apiu_st3(st, b, sizeof b));
            r.stop = 1;
            break;
        }
        if (have && in_event_mode(&r, in, i) < 0)
            break;
        i++;
    }
stepped:
    fmuc_stepper_free(&sp);
    if (!r.stop)
        fmuc_inst_terminate(in);
out:
    cJSON_AddNumberToObject(reply, "init_queries", (double)r.n_queries);
    cJSON_AddNumberToObject(reply, "instants", (double)r.ninst);
    cJSON_AddNumberToObject(reply, "clocks_set", (double)r.n_set);
    cJSON_AddNumberToObject(reply, "clocked_gets", (double)r.n_clocked_gets);
    cJSON_AddNumberToObject(reply, "output_clock_gets", (double)r.n_output_gets);
    cJSON_AddNumberToObject(reply, "countdown_gets", (double)r.n_countdown_gets);
    cJSON_AddNumberToObject(reply, "fraction_queries", (double)r.n_fraction);
    cJSON_AddNumberToObject(reply, "deactivations", (double)r.n_deactivated);
    cJSON_AddNumberToObject(reply, "changing_gets", (double)r.n_changing_gets);
    cJSON_AddNumberToObject(reply, "ticks_off_grid", (double)r.off_grid);
    fmuc_worker_phase(ctx, "fmi3FreeInstance");
    fmuc_inst_free(in);
    cJSON_AddBoolToObject(reply, "done", 1);
    return 0;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    ck_job job;
    memset(&job, 0, sizeof job);
    for (size_t i = 0; i < md->nvars && job.n < CK_MAX_CLOCKS; i++) {
        const fmuc_md_var *v = &md->vars[i];
        const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, i);
        if (v->base != FMUC_BT_CLOCK || (x && x->ndims))
            continue;
        ck_clock *c = &job.c[job.n++];
        *c = (ck_clock){.var = i, .vr = v->value_reference,
                        .iv = x ? x->interval_variability : FMUC_IV_NONE,
                        .input = v->causality == FMUC_CAUS_INPUT,
                        .deact = v->causality == FMUC_CAUS_INPUT && x && x->can_be_deactivated,
                        .xml_interval = x && (x->clock_has & FMUC_CLK_INTERVAL_DECIMAL),
                        .xml_shift = x && (x->clock_has & FMUC_CLK_SHIFT_DECIMAL),
                        .interval = NAN, .shift = 0.0};
        if (c->xml_interval && apiu_iv_periodic(c->iv))
            c->interval = x->interval_decimal;
        if (c->xml_shift && apiu_iv_periodic(c->iv))
            c->shift = x->shift_decimal;
    }
    if (!job.n) {
        fmuc_result_na(res, "no Clock variable");
        return;
    }
    apiu_iface ifs[2];
    size_t n = apiu_usable_ifaces(s, res, FMUC_UNUSABLE_RUN, ifs), done = 0;
    cJSON *ev = fmuc_result_evidence(res);
    for (size_t i = 0; i < n; i++) {
        if (ifs[i].type == FMUC_IFACE_CS &&
            !((md->cs.caps >> FMUC_CAP_HAS_EVENT_MODE) & 1u)) {
            fmuc_result_note(res, "CoSimulation: <CoSimulation> (line %u) does not declare "
                                  "hasEventMode=\"true\": its clocks cannot be set (Event Mode "
                                  "only, FMI 3.0.2 §2.3.5)",
                             md->cs.line);
            continue;
        }
        job.iface = ifs[i].type;
        fmuc_worker_outcome o;
        int judged = 0;
        const cJSON *r = apiu_probe_reply(s, res, "api-clocks", ifs[i].name, ifs[i].type, worker,
                                          &job, &o, CK_PROBE, &judged);
        done += (size_t)judged;
        if (!r) {
            fmuc_worker_outcome_free(&o);
            continue;
        }
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "refused"))) {
            fmuc_result_note(res, "%s: not probed (%s returned NULL%s; see api-instantiate, "
                                  "cs-event-mode)",
                             ifs[i].name, apiu_fn(3, ifs[i].type, FMUC_INST_OP_INSTANTIATE),
                             ifs[i].type == FMUC_IFACE_CS ? " with eventModeUsed=true" : "");
            fmuc_worker_outcome_free(&o);
            continue;
        }
        done++;
        apiu_report_findings(r, res);
        double off = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(r, "ticks_off_grid"));
        if (off > 0)
            fmuc_result_note(res, "%s: %.0f ticks off the communication grid not driven "
                                  "(canHandleVariableCommunicationStepSize is not \"true\")",
                             ifs[i].name, off);
        const char *stopped = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "stopped"));
        if (stopped && res->verdict <= FMUC_VERDICT_PASS)
            fmuc_result_note(res, "%s: the run stopped early (%s)", ifs[i].name, stopped);
        cJSON *e = cJSON_AddObjectToObject(ev, ifs[i].name);
        static const char *const keys[] = {"init_queries", "instants", "clocks_set",
                                           "clocked_gets", "output_clock_gets", "countdown_gets",
                                           "fraction_queries", "deactivations",
                                           "changing_gets"};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            cJSON_AddNumberToObject(
                e, keys[k], cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(r, keys[k])));
        cJSON_AddItemToObject(
            e, "init_answers",
            cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(r, "init_answers"), 1));
        fmuc_worker_outcome_free(&o);
    }
    if (!done && res->verdict <= FMUC_VERDICT_PASS)
        fmuc_result_na(res, "no interface could be probed (ModelExchange, or CoSimulation with "
                            "hasEventMode=\"true\")");
}

const fmuc_check fmuc_check_api_clocks = {
    .id = "api-clocks",
    .title = "FMI 3.0 clocks of Model Exchange and Co-Simulation work as an importer drives them "
             "(interval and shift getters, fmi3SetClock and fmi3GetClock in Event Mode)",
    .spec = "FMI 3.0.2 §2.2.8.2, §2.2.8.3, §2.2.8.4, §2.3.3, §2.3.5",
    .level = FMUC_LEVEL_MUST,
    .why = "An importer schedules the clocks from the intervals given in Initialization Mode "
           "and sets them in Event Mode; an FMU that leaves a periodic interval unknown or "
           "refuses fmi3SetClock cannot be sampled at all.",
    .fix = "Answer the interval and shift getters (qualifier written; NotYetKnown only for "
           "countdown clocks), accept fmi3SetClock on input clocks in Event Mode and run their "
           "partitions in fmi3UpdateDiscreteStates.",
    .applies = FMUC_APPLIES_MECS,
    .versions = FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .run = run,
};
