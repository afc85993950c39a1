/* api-illegal-calls: calls the state machine does not allow are refused with fmi2Error and do
 * not crash. The probes are derived from the function x state tables as data
 * (harness/src/fmi2_states.def via fmuc_fmi2_states): for each reachable state, every
 * representative call that is neither allowed ("x") nor conditionally allowed there, plus
 * fmi2SetReal of a fixed parameter after initialization (conditions 4/6). The behaviour is
 * undefined by the standard (fmi2-rules C-19, level U): a status other than fmi2Error warns, and
 * so does a crash or hang in the illegal call or in the fmi2FreeInstance after it (FMI 2.0.4
 * §3.2.3, §4.2.4). Each probe is made on an instance of its own; a crash while reaching the
 * probe's state with legal calls is not the probed behaviour (ERROR, or the interface unusable).
 * The same probes judge FMI 3.0 FMUs by 3.0's tables (harness/src/fmi3_states.def) in the check
 * api-illegal-calls-fmi3, where the rule is a must (apiu_illegal_calls_run, version 3). */
#include "api_util.h"

/* representative calls, each with valid arguments: operations of the instance API, named and
 * looked up in the state table by the version's function name (fmuc_inst_op_name) */
static const fmuc_inst_op candidates[] = {
    FMUC_INST_OP_SETUP_EXPERIMENT, FMUC_INST_OP_ENTER_INIT,       FMUC_INST_OP_EXIT_INIT,
    FMUC_INST_OP_TERMINATE,        FMUC_INST_OP_DO_STEP,          FMUC_INST_OP_CANCEL_STEP,
    FMUC_INST_OP_GET_STATUS,       FMUC_INST_OP_UPDATE_DISCRETE_STATES,
    FMUC_INST_OP_ENTER_CT_MODE,    FMUC_INST_OP_ENTER_EVENT_MODE,
    FMUC_INST_OP_COMPLETED_INTEGRATOR_STEP, FMUC_INST_OP_SET_STATES,
    FMUC_INST_OP_GET_FLOAT64,      FMUC_INST_OP_GET_DERIVATIVES,
};
#define NCAND (sizeof candidates / sizeof candidates[0])
#define SET_FIXED "fmi2SetReal(fixed parameter)"
#define SET_FIXED3 "fmi3SetFloat64(fixed parameter)"
#define OP_SET_FIXED (-1) /* the probe of SET_FIXED */
#define OP_ACTIVATE (-2)  /* FMI 3.0 SE: fmi3ActivateModelPartition of an input clock */
#define ACTIVATE3 "fmi3ActivateModelPartition"
#define MAX_PROBES 96

static const unsigned me_states[] = {FMUC_ST_INST, FMUC_ST_INIT, FMUC_ST_EM, FMUC_ST_CTM, FMUC_ST_TERM};
static const unsigned cs_states[] = {FMUC_ST_INST, FMUC_ST_INIT, FMUC_ST_SC, FMUC_ST_TERM};
static const unsigned se_states[] = {FMUC_ST_INST, FMUC_ST_INIT, FMUC_ST_CAM, FMUC_ST_TERM};

typedef struct probe {
    const char *fn;
    int op; /* fmuc_inst_op, or OP_SET_FIXED */
    unsigned state;
} probe;

typedef struct plan {
    int ver;                      /* FMI version of the FMU (1, 2, 3) */
    size_t nx;                    /* continuous states (3.0: elements) */
    fmuc_iface iface;
    const fmuc_md *md;
    probe p[MAX_PROBES];
    size_t n;
    const fmuc_md_var *real_var;  /* for fmi2GetReal */
    const fmuc_md_var *fixed_par; /* fixed Real parameter */
    const fmuc_md_var *in_clock;  /* FMI 3.0 SE: an input clock (fmi3ActivateModelPartition) */
    char desc[160];
} plan;

static void build(plan *pl)
{
    const fmuc_md *md = pl->md;
    const unsigned *st = pl->iface == FMUC_IFACE_ME   ? me_states
                         : pl->iface == FMUC_IFACE_SE ? se_states
                                                      : cs_states;
    size_t nst = pl->iface == FMUC_IFACE_ME   ? sizeof me_states / sizeof me_states[0]
                 : pl->iface == FMUC_IFACE_SE ? sizeof se_states / sizeof se_states[0]
                                              : sizeof cs_states / sizeof cs_states[0];
    pl->nx = md->nderivatives;
    if (pl->ver == 3) {
        pl->nx = 0;
        for (size_t i = 0; i < md->nderivatives; i++)
            pl->nx += md->derivatives[i].index
                          ? fmuc_sim_var_elements(md, md->derivatives[i].index - 1, NULL, 0, NULL)
                          : 1;
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (!pl->in_clock && v->base == FMUC_BT_CLOCK && v->causality == FMUC_CAUS_INPUT &&
            (v->has & FMUC_HAS_VALUE_REFERENCE))
            pl->in_clock = v;
        if (v->type != FMUC_TYPE_REAL || !(v->has & FMUC_HAS_VALUE_REFERENCE))
            continue;
        /* FMI 3.0: a scalar Float64 (the probes pass one value) */
        if (pl->ver == 3 && (v->base != FMUC_BT_FLOAT64 ||
                             fmuc_sim_var_elements(md, i, NULL, 0, NULL) != 1 ||
                             fmuc_md_var_ext_of(md, i)))
            continue;
        if (!pl->real_var)
            pl->real_var = v;
        if (!pl->fixed_par && v->causality == FMUC_CAUS_PARAMETER && v->variability == FMUC_VAR_FIXED)
            pl->fixed_par = v;
    }
    pl->n = 0;
    for (size_t s = 0; s < nst; s++) {
        for (size_t k = 0; k < NCAND; k++) {
            unsigned a, c;
            const char *name = fmuc_inst_op_name(pl->ver, candidates[k]);
            if (!name || (pl->ver == 3 ? fmuc_fmi3_states(name, pl->iface, &a, &c)
                                       : fmuc_fmi2_states(name, pl->iface, &a, &c)) < 0)
                continue; /* not a function of this interface */
            if ((a | c) & st[s])
                continue; /* allowed (or allowed under a condition) there */
            if (candidates[k] == FMUC_INST_OP_GET_FLOAT64 && !pl->real_var)
                continue;
            if (pl->n < MAX_PROBES)
                pl->p[pl->n++] = (probe){name, (int)candidates[k], st[s]};
        }
        /* FMI 3.0 SE: fmi3ActivateModelPartition outside Clock Activation Mode */
        unsigned a, c;
        if (pl->ver == 3 && pl->iface == FMUC_IFACE_SE && pl->in_clock &&
            fmuc_fmi3_states(ACTIVATE3, pl->iface, &a, &c) == 0 && !((a | c) & st[s]) &&
            pl->n < MAX_PROBES)
            pl->p[pl->n++] = (probe){ACTIVATE3, OP_ACTIVATE, st[s]};
    }
    /* conditions 4 (ME Event Mode) / 6 (CS stepComplete) / 25 (SE Clock Activation Mode: inputs
     * and tunable parameters) exclude fixed parameters */
    if (pl->fixed_par && pl->n < MAX_PROBES)
        pl->p[pl->n++] = (probe){pl->ver == 3 ? SET_FIXED3 : SET_FIXED, OP_SET_FIXED,
                                 fmuc_drive_after_init_state(pl->iface)};
}

/* FMI 1.0 (fmi1-rules §D.1 ME, §D.2 CS, from ME1 §2.9 and the CS chart): calls that are blank
 * in a state the harness reaches with legal calls. 1.0 has three such states per standard:
 * instantiated, initialized (after fmiInitialize / fmiInitializeSlave: the driver's CTM / SC)
 * and terminated. Cells the catalogue marks as unclear or conditional (getters right after
 * fmiInitializeSlave, status queries when instantiated, fmiResetSlave after fmiTerminateSlave,
 * errata 4, 8, 9 of docs/rule-maps/fmi1-map.md) are not probed. */
typedef struct v1_row {
    fmuc_iface iface;
    unsigned state;
    int op;
    const char *fn;
} v1_row;

static const v1_row v1_rows[] = {
    {FMUC_IFACE_ME, FMUC_ST_INST, FMUC_INST_OP_SET_STATES, "fmiSetContinuousStates"},
    {FMUC_IFACE_ME, FMUC_ST_INST, FMUC_INST_OP_COMPLETED_INTEGRATOR_STEP,
     "fmiCompletedIntegratorStep"},
    {FMUC_IFACE_ME, FMUC_ST_INST, FMUC_INST_OP_UPDATE_DISCRETE_STATES, "fmiEventUpdate"},
    {FMUC_IFACE_ME, FMUC_ST_INST, FMUC_INST_OP_TERMINATE, "fmiTerminate"},
    {FMUC_IFACE_ME, FMUC_ST_CTM, FMUC_INST_OP_EXIT_INIT, "fmiInitialize"},
    {FMUC_IFACE_ME, FMUC_ST_TERM, FMUC_INST_OP_SET_TIME, "fmiSetTime"},
    {FMUC_IFACE_ME, FMUC_ST_TERM, FMUC_INST_OP_EXIT_INIT, "fmiInitialize"},
    {FMUC_IFACE_ME, FMUC_ST_TERM, FMUC_INST_OP_SET_STATES, "fmiSetContinuousStates"},
    {FMUC_IFACE_ME, FMUC_ST_TERM, FMUC_INST_OP_COMPLETED_INTEGRATOR_STEP,
     "fmiCompletedIntegratorStep"},
    {FMUC_IFACE_ME, FMUC_ST_TERM, FMUC_INST_OP_UPDATE_DISCRETE_STATES, "fmiEventUpdate"},
    {FMUC_IFACE_ME, FMUC_ST_TERM, FMUC_INST_OP_TERMINATE, "fmiTerminate"},
    {FMUC_IFACE_CS, FMUC_ST_INST, FMUC_INST_OP_DO_STEP, "fmiDoStep"},
    {FMUC_IFACE_CS, FMUC_ST_INST, FMUC_INST_OP_TERMINATE, "fmiTerminateSlave"},
    {FMUC_IFACE_CS, FMUC_ST_INST, FMUC_INST_OP_CANCEL_STEP, "fmiCancelStep"},
    {FMUC_IFACE_CS, FMUC_ST_SC, FMUC_INST_OP_EXIT_INIT, "fmiInitializeSlave"},
    {FMUC_IFACE_CS, FMUC_ST_SC, FMUC_INST_OP_CANCEL_STEP, "fmiCancelStep"},
    {FMUC_IFACE_CS, FMUC_ST_TERM, FMUC_INST_OP_DO_STEP, "fmiDoStep"},
    {FMUC_IFACE_CS, FMUC_ST_TERM, FMUC_INST_OP_EXIT_INIT, "fmiInitializeSlave"},
    {FMUC_IFACE_CS, FMUC_ST_TERM, FMUC_INST_OP_TERMINATE, "fmiTerminateSlave"},
    {FMUC_IFACE_CS, FMUC_ST_TERM, FMUC_INST_OP_CANCEL_STEP, "fmiCancelStep"},
};

static void build_v1(plan *pl)
{
    pl->n = 0;
    pl->nx = pl->md->number_of_continuous_states;
    for (size_t i = 0; i < sizeof v1_rows / sizeof v1_rows[0] && pl->n < MAX_PROBES; i++)
        if (v1_rows[i].iface == pl->iface)
            pl->p[pl->n++] = (probe){v1_rows[i].fn, v1_rows[i].op, v1_rows[i].state};
}

/* the name of a state in the FMU's version (1.0 has no modes) */
static const char *state_name(const plan *pl, unsigned st)
{
    if (pl->ver == 3)
        return fmuc_fmi3_state_name(st);
    if (pl->ver != 1)
        return fmuc_fmi2_state_name(st);
    return st == FMUC_ST_INST ? "instantiated" : st == FMUC_ST_TERM ? "terminated" : "initialized";
}

static const char *describe(size_t i, void *user)
{
    plan *pl = user;
    snprintf(pl->desc, sizeof pl->desc, "%s in state %s", pl->p[i].fn,
             state_name(pl, pl->p[i].state));
    return pl->desc;
}

static int call(fmuc_inst *in, const plan *pl, int op)
{
    const fmuc_md *md = pl->md;
    double t0 = md->experiment.present && md->experiment.has_start ? md->experiment.start_time : 0.0;
    double h = md->experiment.present && md->experiment.has_step && md->experiment.step_size > 0
                   ? md->experiment.step_size
                   : 1e-3;
    size_t nx = pl->nx;
    double x[64] = {0};
    int a = 0, b = 0, st = FMUC_STATUS_OK;
    fmuc_inst_event_info info;
    fmuc_inst_experiment ex = {0, 0.0, t0, 0, 0.0};
    switch (op) {
    case FMUC_INST_OP_SETUP_EXPERIMENT: return fmuc_inst_setup_experiment(in, &ex);
    case FMUC_INST_OP_ENTER_INIT: return fmuc_inst_enter_initialization_mode(in);
    case FMUC_INST_OP_EXIT_INIT: return fmuc_inst_exit_initialization_mode(in);
    case FMUC_INST_OP_TERMINATE: return fmuc_inst_terminate(in);
    case FMUC_INST_OP_DO_STEP: return fmuc_inst_do_step(in, t0, h, 0, NULL);
    case FMUC_INST_OP_CANCEL_STEP: return fmuc_inst_cancel_step(in);
    case FMUC_INST_OP_SET_TIME: return fmuc_inst_set_time(in, t0);
    case FMUC_INST_OP_GET_STATUS: return fmuc_inst_cs_status(in, FMUC_INST_Q_DO_STEP_STATUS, &st);
    case FMUC_INST_OP_UPDATE_DISCRETE_STATES: return fmuc_inst_update_discrete_states(in, &info);
    case FMUC_INST_OP_ENTER_CT_MODE: return fmuc_inst_enter_continuous_time_mode(in);
    case FMUC_INST_OP_ENTER_EVENT_MODE: return fmuc_inst_enter_event_mode(in);
    case FMUC_INST_OP_COMPLETED_INTEGRATOR_STEP:
        return fmuc_inst_completed_integrator_step(in, 0, &a, &b);
    case FMUC_INST_OP_SET_STATES:
    case FMUC_INST_OP_GET_DERIVATIVES: {
        double *buf = nx <= 64 ? x : calloc(nx, sizeof *buf);
        if (!buf)
            return FMUC_STATUS_NOT_PROVIDED;
        st = op == FMUC_INST_OP_SET_STATES ? fmuc_inst_set_continuous_states(in, nx ? buf : NULL, nx)
                                           : fmuc_inst_get_derivatives(in, nx ? buf : NULL, nx);
        if (buf != x)
            free(buf);
        return st;
    }
    case FMUC_INST_OP_GET_FLOAT64: {
        fmuc_vr vr = pl->real_var->value_reference;
        return fmuc_inst_get_float64(in, &vr, 1, x);
    }
    case OP_ACTIVATE:
        return fmuc_inst_activate_model_partition(in, pl->in_clock->value_reference, t0);
    case OP_SET_FIXED: {
        fmuc_vr vr = pl->fixed_par->value_reference;
        double v = isfinite(pl->fixed_par->start) && (pl->fixed_par->has & FMUC_HAS_START)
                       ? pl->fixed_par->start
                       : 0.0;
        return fmuc_inst_set_float64(in, &vr, 1, &v);
    }
    }
    return FMUC_STATUS_NOT_PROVIDED;
}

static cJSON *one(fmuc_worker_ctx *ctx, size_t i, void *user)
{
    const plan *pl = user;
    char why[160];
    fmuc_inst *in = apiu_reach(ctx, pl->iface, pl->md, pl->p[i].state, "fmucheck-illegal", why,
                               sizeof why);
    if (!in)
        return cJSON_CreateString(why);
    apiu_probe_phase(ctx, i, APIU_PROBE_CALL);
    int st = call(in, pl, pl->p[i].op);
    /* fmi2FreeInstance is allowed in every state the probes reach and in the error state; after
     * fmi2Fatal nothing may be called (§2.1.3) */
    apiu_probe_phase(ctx, i, APIU_PROBE_CLEANUP);
    if (st != FMUC_STATUS_FATAL && st != FMUC_STATUS_PENDING)
        fmuc_inst_free(in);
    else
        fmuc_inst_abandon(in);
    return cJSON_CreateNumber((double)st);
}

void apiu_illegal_calls_run(const fmuc_subject *s, fmuc_result *res, int ver)
{
    apiu_iface ifs[3];
    size_t n = apiu_usable_ifaces_with_se(s, res, FMUC_UNUSABLE_INSTANCE, ifs), tested = 0;
    if (!n) {
        fmuc_result_na(res, "no binary for this platform");
        return;
    }
    cJSON *ev = fmuc_result_evidence(res);
    cJSON *list = cJSON_AddArrayToObject(ev, "probes");
    for (size_t i = 0; i < n; i++) {
        plan pl;
        memset(&pl, 0, sizeof pl);
        pl.iface = ifs[i].type;
        pl.md = &s->fmu->md;
        pl.ver = ver;
        if (pl.ver == 1)
            build_v1(&pl);
        else
            build(&pl);
        const char *err = ver == 1 ? "fmiError" : ver == 3 ? "fmi3Error" : "fmi2Error";
        const char *fr = apiu_fn(ver, pl.iface, FMUC_INST_OP_FREE);
        cJSON *results[MAX_PROBES];
        apiu_probes set = {pl.iface, pl.n, one, &pl, 0, 0};
        if (apiu_run_probes(s, res, res->id, &set, results, describe) != 0)
            continue;
        for (size_t k = 0; k < pl.n; k++) {
            cJSON *r = results[k];
            char b[32], line[256];
            const char *st = state_name(&pl, pl.p[k].state);
            const char *died, *stage;
            if (!r) {
                snprintf(line, sizeof line, "%s: %s in %s -> not carried out (the worker died "
                                            "before)", ifs[i].name, pl.p[k].fn, st);
            } else if (apiu_probe_died(r, &died, &stage)) {
                /* undefined behaviour (U): a crash is what this FMU does there, a warning */
                snprintf(line, sizeof line, "%s: %s in %s -> %s", ifs[i].name, pl.p[k].fn, st, died);
                tested++;
                fmuc_result_violation(res, "%s: %s in state %s %s return %s, but the "
                                           "worker ended with %s%s%s%s",
                                      ifs[i].name, pl.p[k].fn, st, ver == 3 ? "must" : "should",
                                      err, died,
                                      strcmp(stage, APIU_PROBE_CLEANUP) == 0 ? " (in " : "",
                                      strcmp(stage, APIU_PROBE_CLEANUP) == 0 ? fr : "",
                                      strcmp(stage, APIU_PROBE_CLEANUP) == 0 ? " after it)" : "");
            } else if (cJSON_IsString(r)) {
                snprintf(line, sizeof line, "%s: %s in %s -> not carried out: %s", ifs[i].name,
                         pl.p[k].fn, st, r->valuestring);
                fmuc_result_note(res, "%s: probe %s in state %s not carried out: %s", ifs[i].name,
                                 pl.p[k].fn, st, r->valuestring);
            } else {
                int code = (int)r->valuedouble;
                const char *sn = code == (int)FMUC_STATUS_NOT_PROVIDED ? "not provided"
                                                                    : fmuc_status_name(ver, code, b, sizeof b);
                snprintf(line, sizeof line, "%s: %s in %s -> %s", ifs[i].name, pl.p[k].fn, st, sn);
                tested++;
                if (code != fmi2Error && code != (int)FMUC_STATUS_NOT_PROVIDED) {
                    if (pl.p[k].op == OP_SET_FIXED)
                        fmuc_result_violation(res,
                                              "%s: %s of the fixed parameter '%s' (vr %u, "
                                              "line %u) in state %s returned %s (expected %s)",
                                              ifs[i].name, ver == 3 ? "fmi3SetFloat64" : "fmi2SetReal",
                                              pl.fixed_par->name, pl.fixed_par->value_reference,
                                              pl.fixed_par->line, st, sn, err);
                    else
                        fmuc_result_violation(res,
                                              "%s: %s in state %s returned %s (expected %s: "
                                              "not allowed there by the %s)",
                                              ifs[i].name, pl.p[k].fn, st, sn, err,
                                              ver == 1 ? "calling sequence of FMI 1.0"
                                                          : "state machine");
                }
            }
            cJSON_AddItemToArray(list, cJSON_CreateString(line));
            cJSON_Delete(r);
        }
    }
    if (!tested && res->verdict <= FMUC_VERDICT_PASS)
        fmuc_result_na(res, "no probe could be carried out");
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    /* FMI 1.0 by its calling sequence, 2.0 by fmi2_states.def (3.0: api-illegal-calls-fmi3) */
    apiu_illegal_calls_run(s, res, apiu_version(s) == 1 ? 1 : 2);
}

const fmuc_check fmuc_check_api_illegal_calls = {
    .id = "api-illegal-calls",
    .title = "Calls not allowed by the state machine return fmi2Error",
    .spec = "FMI 2.0.4 §3.2.3, §4.2.4; FMI 1.0 ME §2.9 (calling sequence); FMI 1.0 CS (state "
            "chart of the slave)",
    .level = FMUC_LEVEL_SHOULD,
    .why = "A master with a bug or an unusual call order relies on fmi2Error to learn a call was "
           "out of place; an FMU that crashes or silently acts on it corrupts the simulation "
           "instead.",
    .fix = "Track the FMI state machine in the instance and let every function check the current "
           "state first, returning fmi2Error with a log message when the call is not allowed "
           "there.",
    .applies = FMUC_APPLIES_MECS,
    .versions = FMUC_V1 | FMUC_V2,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
