/* me-event-flags: the event-handling flags of the event iteration tell the truth (FMI 2.0.4
 * §3.2.2, fmi2-rules F.1, F-02; FMI 3.0.2 §2.3.5 fmi3UpdateDiscreteStates; FMI 1.0 ME
 * fmiEventUpdate / fmiEventInfo). At every event instant of a Model Exchange run (the iteration
 * after initialization, time, state and step events) the continuous states and their nominals
 * are read in Event Mode before the first fmi2NewDiscreteStates and after the last one:
 *   - a state that changed while no call of the iteration set valuesOfContinuousStatesChanged
 *     fails ("If valuesOfContinuousStatesChanged = fmi2True, then at least one element of the
 *     continuous state vector has changed its value due to the function call. The new values of
 *     the states can be retrieved with fmi2GetContinuousStates": the flag is the importer's only
 *     sign to read them again; without it the importer integrates on from the old values);
 *   - a nominal that changed while no call set nominalsOfContinuousStatesChanged fails ("If
 *     nominalsOfContinuousStatesChanged = fmi2True, then the nominal values of the states have
 *     changed due to the function call and can be inquired with
 *     fmi2GetNominalsOfContinuousStates");
 *   - nextEventTime, when defined by the call that ends the iteration, does not lie before the
 *     current time ("the simulation shall integrate at most until time = nextEventTime, and
 *     shall call fmi2EnterEventMode at this time instant": a time before the instant just
 *     handled cannot be reached; the instant itself can, by entering Event Mode again at once,
 *     which is legal, if odd: an FMU that needs another iteration at the same time has
 *     newDiscreteStatesNeeded for it).
 * FMI 3.0 (§2.3.5, Event Mode): fmi3UpdateDiscreteStates returns the same flags under the same
 * names ("fmi3GetContinuousStates ... must be called if fmi3UpdateDiscreteStates returned with
 * valuesOfContinuousStatesChanged == fmi3True"; nominalsOfContinuousStatesChanged: "at least one
 * nominal value of the states has changed and can be inquired with
 * fmi3GetNominalsOfContinuousStates"; nextEventTime: "the importer must compute up to
 * nextEventTime ... and then enter Event Mode"); the states are the elements of the
 * ContinuousStateDerivative variables' states (§2.4.8), as the harness counts them.
 * FMI 1.0 ME (fmiInitialize / fmiEventUpdate, fmiEventInfo): stateValuesChanged says that "at
 * least one element of the continuous state vector has changed its value" and the new values
 * "must be inquired with fmiGetContinuousStates", which an importer calls "if the state vector
 * changed at an event instant": a state change without stateValuesChanged fails, unless
 * stateValueReferencesChanged said that the states themselves were chosen anew (then the vector
 * means other variables and an importer starts again from it). 1.0 has no flag for the
 * nominals: fmiGetNominalContinuousStates "should" be called again when
 * stateValueReferencesChanged, "since then the association of the continuous states to variables
 * has changed and therefore also their nominal values"; the text asks the nominals to follow the
 * state selection, not to stay fixed otherwise, so a nominal change without that flag warns
 * (the 1.0 importer keeps the old absolute tolerance). upcomingTimeEvent/nextEventTime: "the
 * simulation shall integrate at most until time = nextEventTime and shall call fmiEventUpdate
 * at this time instant" (the same rule as 2.0). The harness calls fmiEventUpdate with
 * intermediateResults = fmiFalse; fmiInitialize's eventInfo is the first answer of the
 * iteration after initialization (inst_fmi1.c).
 * The flags are or-ed over the calls of one iteration, as an importer does. After the iteration
 * that follows initialization every version's host loop reads states and nominals
 * unconditionally (2.0 §3.2.4; 3.0 §3.2.1; 1.0: fmiGetContinuousStates "must be called after
 * initialization"), so a silent change there cannot mislead a conforming importer: it fails the
 * letter (standard) and warns under interop. The other direction of the value flag (set while
 * nothing changed) is me-events' (external event). The run is the harness's CVODE host loop
 * (fmuc_sim_run, hook in_event) on the nominal run's configuration over the bounded horizon of
 * check.h. */
#include "fmuc/fmuc_sim.h"
#include "fmuc/fmuc_step.h"
#include "me_util.h"

#define REL_CHANGE 1e-12 /* a value "changed" beyond rounding of a recomputation */
#define MAX_REPORTED 20
#define INIT_HARMLESS                                                                           \
    "the letter of the rule only: after the iteration that follows initialization the "         \
    "importer reads states and nominals anyway"

/* The names of the flags and functions in the FMU's version. */
typedef struct ef_names {
    const char *update;   /* fmi2NewDiscreteStates, fmi3UpdateDiscreteStates, fmiEventUpdate */
    const char *values;   /* the flag of changed state values */
    const char *nominals; /* the flag that makes an importer read the nominals again */
    const char *ned;      /* nextEventTimeDefined / upcomingTimeEvent */
    const char *get_x, *get_nom;
} ef_names;

static ef_names names_of(int ver)
{
    ef_names n;
    n.update = apiu_fn(ver, FMUC_IFACE_ME, FMUC_INST_OP_UPDATE_DISCRETE_STATES);
    n.get_x = apiu_fn(ver, FMUC_IFACE_ME, FMUC_INST_OP_GET_STATES);
    n.get_nom = apiu_fn(ver, FMUC_IFACE_ME, FMUC_INST_OP_GET_NOMINALS);
    n.values = ver == 1 ? "stateValuesChanged" : "valuesOfContinuousStatesChanged";
    n.nominals = ver == 1 ? "stateValueReferencesChanged" : "nominalsOfContinuousStatesChanged";
    n.ned = ver == 1 ? "upcomingTimeEvent" : "nextEventTimeDefined";
    return n;
}

typedef struct ef_job {
    const meu_model *m;
    const fmuc_md *md;
    int ver;                   /* 1, 2 or 3 */
    ef_names nm;
    size_t nx;                 /* states as the harness counts them (3.0: elements; 1.0:
                                * numberOfContinuousStates) */
    const fmuc_sim_config *cfg;
    fmuc_worker_ctx *ctx;
    double *xb, *xa, *nb, *na; /* states / nominals before and after (nx each) */
    int have_before;           /* the "before" values of this instant were read */
    int vflag, nflag;          /* or-ed flags of this instant */
    unsigned instants, compared, reported, read_failures;
    unsigned by_kind[5];
    double now_t;              /* the instant last announced as its own nextEventTime */
    unsigned now_n;            /* ... how many times in a row */
} ef_job;

static const char *kind_name(int k)
{
    static const char *const n[] = {"initial", "time", "state", "step", "input"};
    return k >= 0 && k < 5 ? n[k] : "?";
}

static int differs(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) != isnan(b);
    double s = fmax(fabs(a), fabs(b));
    return fabs(a - b) > REL_CHANGE * s && a != b;
}

/* "'h' (vr 1, x[0])"; 3.0 array states "'x' element 2 (vr 5, x[3])"; 1.0 "x[0]" (the variable
 * behind a 1.0 state is fmiGetStateValueReferences's answer, not declared in the XML). */
static const char *state_label(const ef_job *j, size_t i, char *buf, size_t n)
{
    const meu_model *m = j->m;
    if (j->ver == 1 || i >= m->nx)
        snprintf(buf, n, "x[%zu]", i);
    else if (j->ver == 3 &&
             ((i + 1 < m->nx && m->xvar[i + 1] == m->xvar[i]) || m->x_elem[i] > 0))
        snprintf(buf, n, "'%s' element %u (vr %u, x[%zu])", meu_name(m->xvar[i]),
                 m->x_elem[i] + 1, m->xvr[i], i);
    else
        snprintf(buf, n, "'%s' (vr %u, x[%zu])", meu_name(m->xvar[i]), m->xvr[i], i);
    return buf;
}

/* Reads states and nominals into x, nom; 0, -1 (the instant is not compared) or -2 (Error or
 * Fatal: the run must stop, FMI 2.0.4 §2.1.3). */
static int read_both(ef_job *j, fmuc_inst *in, double *x, double *nom)
{
    size_t nx = j->nx;
    if (!nx)
        return 0;
    int st = fmuc_inst_get_continuous_states(in, x, nx);
    if (fmuc_status_ok(st))
        st = fmuc_inst_get_nominals(in, nom, nx);
    if (fmuc_status_ok(st))
        return 0;
    j->read_failures++;
    if (st != FMUC_STATUS_ERROR && st != FMUC_STATUS_FATAL)
        return -1;
    char sb[32];
    meu_note(j->ctx, "reading states and nominals in Event Mode returned %s: the run was "
                     "stopped there", fmuc_status_name(j->ver, st, sb, sizeof sb));
    return -2;
}

/* One finding under key ("violations", "letters": harmless to a conforming importer, see the
 * header; "warnings"). */
static void report(ef_job *j, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void report(ef_job *j, const char *key, const char *fmt, ...)
{
    va_list ap;
    if (j->reported++ >= MAX_REPORTED)
        return;
    va_start(ap, fmt);
    meu_vmsg(j->ctx, key, fmt, ap);
    va_end(ap);
}

static void compare(ef_job *j, double t, int kind, unsigned calls)
{
    size_t nx = j->nx;
    int letter = kind == FMUC_SIM_EV_INIT;
    const ef_names *nm = &j->nm;
    char lb[200];
    j->compared++;
    for (size_t i = 0; i < nx; i++) {
        /* 1.0: a new state selection (stateValueReferencesChanged) redefines the vector */
        int vexcused = j->vflag || (j->ver == 1 && j->nflag);
        if (!vexcused && differs(j->xb[i], j->xa[i]))
            report(j, letter ? "letters" : "violations",
                   "%s event at t = %.17g: continuous state %s changed from %.17g to %.17g in "
                   "the %s iteration (%u call%s), but no call set %s: %s",
                   kind_name(kind), t, state_label(j, i, lb, sizeof lb), j->xb[i], j->xa[i],
                   nm->update, calls, calls == 1 ? "" : "s", nm->values,
                   letter ? INIT_HARMLESS : "an importer keeps integrating from the old value");
        if (j->nflag || !differs(j->nb[i], j->na[i]))
            continue;
        if (j->ver == 1) {
            if (!letter) /* after fmiInitialize an importer reads the nominals anyway */
                report(j, "warnings",
                       "%s event at t = %.17g: the nominal of continuous state %s changed from "
                       "%.17g to %.17g in the fmiEventUpdate iteration (%u call%s), but no call "
                       "set stateValueReferencesChanged, the only sign FMI 1.0 gives an "
                       "importer to call fmiGetNominalContinuousStates again: it keeps the old "
                       "nominal (absolute tolerance)",
                       kind_name(kind), t, state_label(j, i, lb, sizeof lb), j->nb[i], j->na[i],
                       calls, calls == 1 ? "" : "s");
            continue;
        }
        report(j, letter ? "letters" : "violations",
               "%s event at t = %.17g: the nominal of continuous state %s changed from %.17g "
               "to %.17g in the %s iteration (%u call%s), but no call set %s: %s",
               kind_name(kind), t, state_label(j, i, lb, sizeof lb), j->nb[i], j->na[i],
               nm->update, calls, calls == 1 ? "" : "s", nm->nominals,
               letter ? INIT_HARMLESS : "an importer keeps the old nominal (absolute tolerance)");
    }
}

static int in_event(void *user, fmuc_inst *in, double t, int kind, unsigned it,
                    const fmuc_inst_event_info *info)
{
    ef_job *j = user;
    if (it == 0) {
        j->instants++;
        if (kind >= 0 && kind < 5)
            j->by_kind[kind]++;
        j->vflag = j->nflag = 0;
        int rb = read_both(j, in, j->xb, j->nb);
        j->have_before = rb == 0;
        return rb == -2;
    }
    j->vflag |= info->values_changed != 0;
    j->nflag |= info->nominals_changed != 0;
    if (info->new_discrete_states_needed && !info->terminate_simulation)
        return 0; /* the iteration goes on */
    if (!info->terminate_simulation && info->next_event_time_defined &&
        info->next_event_time == t) {
        /* legal once (the importer enters Event Mode again at once); without end, time never
         * advances: the host stops after FMUC_STEP_SAME_INSTANT_MAX */
        j->now_n = j->now_t == t ? j->now_n + 1 : 1;
        j->now_t = t;
        if (j->now_n == FMUC_STEP_SAME_INSTANT_MAX)
            report(j, "violations",
                   "%s event at t = %.17g: %s ended the event iteration %u times in a row at "
                   "this instant with %s = true and nextEventTime = the current time: time "
                   "never advances",
                   kind_name(kind), t, j->nm.update, j->now_n, j->nm.ned);
    }
    if (!info->terminate_simulation && info->next_event_time_defined &&
        !(info->next_event_time >= t))
        report(j, "violations", /* never harmless: no importer can go back */
               "%s event at t = %.17g: %s ended the iteration with %s = true and nextEventTime "
               "= %.17g, which is before the current time (or not a number)",
               kind_name(kind), t,
               /* FMI 1.0: fmiInitialize's eventInfo is the first answer (inst_fmi1.c) */
               info->from_initialize ? "fmiInitialize" : j->nm.update,
               j->nm.ned, info->next_event_time);
    if (!j->have_before)
        return 0;
    int ra = read_both(j, in, j->xa, j->na);
    if (ra == 0)
        compare(j, t, kind, it);
    return ra == -2;
}

/* The states as the harness's host loop counts them (sim.c): 2.0 the <Derivatives> entries;
 * 3.0 the elements of the ContinuousStateDerivative variables (§2.4.8; meu_model already counts
 * them element by element); 1.0 numberOfContinuousStates (no ModelStructure). Returns 0, or -1
 * with why (the check does not apply). */
static int state_count(ef_job *j, char *why, size_t whylen)
{
    const meu_model *m = j->m;
    j->nx = m->nx;
    if (j->ver == 1)
        j->nx = j->md->has_number_of_continuous_states ? j->md->number_of_continuous_states : 0;
    return fmuc_check_dynamic_counts_ok(m->ni, j->nx, why, whylen);
}

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    ef_job *j = payload;
    j->ctx = ctx;
    if (fmuc_inst_load(ctx, FMUC_IFACE_ME) < 0) {
        meu_na(ctx, "the ModelExchange library does not load: %s", fmuc_worker_load_error(ctx));
        return 0;
    }
    size_t n = j->nx ? j->nx : 1;
    double *blk = calloc(4 * n, sizeof *blk);
    if (!blk) {
        meu_fatal(ctx, "out of memory");
        return 0;
    }
    j->xb = blk;
    j->xa = blk + n;
    j->nb = blk + 2 * n;
    j->na = blk + 3 * n;
    fmuc_sim_config cfg = *j->cfg;
    cfg.hooks.user = j;
    cfg.hooks.in_event = in_event;
    fmuc_sim_result r;
    fmuc_diag d = {{0}, FMUC_OK};
    int rc = fmuc_sim_run(ctx, &cfg, &r, &d);
    cJSON *reply = fmuc_worker_reply(ctx);
    if (rc < 0)
        meu_fatal(ctx, "the Model Exchange run could not be set up: %s", d.msg);
    else if (r.instantiate_failed)
        meu_na(ctx, "%s returned NULL", apiu_fn(j->ver, FMUC_IFACE_ME,
                                                FMUC_INST_OP_INSTANTIATE));
    cJSON_AddNumberToObject(reply, "event_instants", j->instants);
    cJSON_AddNumberToObject(reply, "instants_compared", j->compared);
    cJSON_AddNumberToObject(reply, "read_failures", j->read_failures);
    cJSON *k = cJSON_AddObjectToObject(reply, "instants_by_kind");
    for (int i = 0; i < 5 && k; i++)
        if (j->by_kind[i])
            cJSON_AddNumberToObject(k, kind_name(i), j->by_kind[i]);
    cJSON_AddNumberToObject(reply, "end_time", r.end_time);
    cJSON_AddBoolToObject(reply, "completed", r.completed != 0);
    if (r.stop_reason)
        cJSON_AddStringToObject(reply, "stop_reason", r.stop_reason);
    if (j->reported > MAX_REPORTED)
        meu_note(ctx, "%u findings, the first %d reported", j->reported, MAX_REPORTED);
    fmuc_sim_result_free(&r);
    free(blk);
    return 0;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    meu_model m;
    if (meu_applies(s, res, &m) < 0)
        return;
    fmuc_sim_config cfg;
    fmuc_shared_nominal_config(s, FMUC_IFACE_ME, &cfg);
    cfg.record_inputs = 0;
    cfg.instance_name = "fmucheck-event-flags";
    char why[400];
    if (fmuc_shared_run_config(s, &cfg, res, why, sizeof why) != 0) {
        fmuc_result_na(res, "%s", why);
        meu_model_free(&m);
        return;
    }
    ef_job job;
    memset(&job, 0, sizeof job);
    job.m = &m;
    job.md = &s->fmu->md;
    job.cfg = &cfg;
    job.ver = apiu_version(s);
    job.nm = names_of(job.ver);
    if (state_count(&job, why, sizeof why) < 0) {
        fmuc_result_na(res, "%s", why);
        meu_model_free(&m);
        return;
    }
    fmuc_worker_outcome o;
    const cJSON *reply = meu_run(s, res, "me-event-flags", worker, &job, &o);
    const cJSON *item;
    if (o.reply) {
        cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(o.reply, "letters"))
        {
            if (cJSON_IsString(item))
                fmuc_result_violation_letter(res, "%s", item->valuestring);
        }
        cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(o.reply, "warnings"))
        {
            if (cJSON_IsString(item))
                fmuc_result_warn(res, "%s", item->valuestring);
        }
    }
    if (reply) {
        cJSON *ev = fmuc_result_evidence(res);
        static const char *const keys[] = {"event_instants", "instants_compared",
                                           "read_failures", "instants_by_kind", "end_time",
                                           "completed", "stop_reason"};
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(reply, keys[i]);
            if (v)
                cJSON_AddItemToObject(ev, keys[i], cJSON_Duplicate(v, 1));
        }
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(reply, "instants_compared");
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(reply, "end_time");
        const cJSON *f = cJSON_GetObjectItemCaseSensitive(reply, "read_failures");
        if (cJSON_IsNumber(n))
            fmuc_result_note(res, "%d event instant%s compared (states and nominals before and "
                                  "after the event iteration) up to t = %.17g",
                             n->valueint, n->valueint == 1 ? "" : "s",
                             cJSON_IsNumber(e) ? e->valuedouble : NAN);
        if (cJSON_IsNumber(f) && f->valueint > 0)
            fmuc_result_note(res, "%d event instant%s not compared: %s or %s failed in Event "
                                  "Mode (see me-nominal-run)",
                             f->valueint, f->valueint == 1 ? "" : "s", job.nm.get_x,
                             job.nm.get_nom);
    }
    fmuc_worker_outcome_free(&o);
    meu_model_free(&m);
}

const fmuc_check fmuc_check_me_event_flags = {
    .id = "me-event-flags",
    .title = "The event iteration reports changed states and nominals; nextEventTime is not past",
    .spec = "FMI 2.0.4 §3.2.2, §3.2.4; FMI 3.0.2 §2.3.5 (fmi3UpdateDiscreteStates), §3.2.1; "
            "FMI 1.0 ME (fmiEventInfo of fmiInitialize and fmiEventUpdate, "
            "fmiGetContinuousStates, fmiGetNominalContinuousStates)",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_SOME,
    .interop_why = "a silent change in the iteration after initialization is harmless: the "
                   "host loop reads states and nominals there unconditionally",
    .why = "An importer reads the states and nominals again only when the event flags say they "
           "changed; a silent reinit is lost and the run goes on from the old state.",
    .fix = "Set valuesOfContinuousStatesChanged (nominalsOfContinuousStatesChanged; FMI 1.0: "
           "stateValuesChanged) whenever the event update changes a state (a nominal); "
           "never announce a nextEventTime before the current time.",
    .applies = FMUC_APPLIES_ME,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .sessions = 1,
    .run = run,
};
