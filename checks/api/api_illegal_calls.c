/* api-illegal-calls: calls the state machine does not allow are refused with fmi2Error and do
 * not crash. The probes are derived from the function x state tables as data
 * (harness/src/fmi2_states.def via fmuc_fmi2_states): for each reachable state, every
 * representative call that is neither allowed ("x") nor conditionally allowed there, plus
 * fmi2SetReal of a fixed parameter after initialization (conditions 4/6). The behaviour is
 * undefined by the standard (fmi2-rules C-19, level U): a status other than fmi2Error warns, and
 * so does a crash or hang in the illegal call or in the fmi2FreeInstance after it (FMI 2.0.4
 * §3.2.3, §4.2.4). Each probe is made on an instance of its own; a crash while reaching the
 * probe's state with legal calls is not the probed behaviour (ERROR, or the interface unusable). */
#include "api_util.h"

/* representative calls, each with valid arguments */
static const char *const candidates[] = {
    "fmi2SetupExperiment",     "fmi2EnterInitializationMode", "fmi2ExitInitializationMode",
    "fmi2Terminate",           "fmi2DoStep",                  "fmi2CancelStep",
    "fmi2GetStatus",           "fmi2NewDiscreteStates",       "fmi2EnterContinuousTimeMode",
    "fmi2EnterEventMode",      "fmi2CompletedIntegratorStep", "fmi2SetContinuousStates",
    "fmi2GetReal",             "fmi2GetDerivatives",
};
#define NCAND (sizeof candidates / sizeof candidates[0])
#define SET_FIXED "fmi2SetReal(fixed parameter)"
#define MAX_PROBES 96

static const unsigned me_states[] = {FMUC_ST_INST, FMUC_ST_INIT, FMUC_ST_EM, FMUC_ST_CTM, FMUC_ST_TERM};
static const unsigned cs_states[] = {FMUC_ST_INST, FMUC_ST_INIT, FMUC_ST_SC, FMUC_ST_TERM};

typedef struct probe {
    const char *fn;
    unsigned state;
} probe;

typedef struct plan {
    fmi2Type iface;
    const fmuc_md *md;
    probe p[MAX_PROBES];
    size_t n;
    const fmuc_md_var *real_var;  /* for fmi2GetReal */
    const fmuc_md_var *fixed_par; /* fixed Real parameter */
    char desc[160];
} plan;

static void build(plan *pl)
{
    const fmuc_md *md = pl->md;
    const unsigned *st = pl->iface == fmi2ModelExchange ? me_states : cs_states;
    size_t nst = pl->iface == fmi2ModelExchange ? sizeof me_states / sizeof me_states[0]
                                                : sizeof cs_states / sizeof cs_states[0];
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (v->type != FMUC_TYPE_REAL || !(v->has & FMUC_HAS_VALUE_REFERENCE))
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
            if (fmuc_fmi2_states(candidates[k], pl->iface, &a, &c) < 0)
                continue; /* not a function of this interface */
            if ((a | c) & st[s])
                continue; /* allowed (or allowed under a condition) there */
            if (strcmp(candidates[k], "fmi2GetReal") == 0 && !pl->real_var)
                continue;
            if (pl->n < MAX_PROBES)
                pl->p[pl->n++] = (probe){candidates[k], st[s]};
        }
    }
    /* conditions 4 (ME Event Mode) / 6 (CS stepComplete) exclude fixed parameters */
    if (pl->fixed_par && pl->n < MAX_PROBES)
        pl->p[pl->n++] = (probe){SET_FIXED, pl->iface == fmi2ModelExchange ? FMUC_ST_EM : FMUC_ST_SC};
}

static const char *describe(size_t i, void *user)
{
    plan *pl = user;
    snprintf(pl->desc, sizeof pl->desc, "%s in state %s", pl->p[i].fn,
             fmuc_fmi2_state_name(pl->p[i].state));
    return pl->desc;
}

static fmi2Status call(const fmuc_fmi *f, fmi2Component c, const plan *pl, const char *fn)
{
    const fmuc_md *md = pl->md;
    double t0 = md->experiment.present && md->experiment.has_start ? md->experiment.start_time : 0.0;
    double h = md->experiment.present && md->experiment.has_step && md->experiment.step_size > 0
                   ? md->experiment.step_size
                   : 1e-3;
    size_t nx = md->nderivatives;
    double x[64] = {0};
    fmi2Boolean a = fmi2False, b = fmi2False;
    fmi2EventInfo info;
    fmi2Status st = fmi2OK;
    memset(&info, 0, sizeof info);
    if (strcmp(fn, "fmi2SetupExperiment") == 0)
        return fmuc_fmi_setupExperiment(f, c, 0, 0.0, t0, 0, 0.0);
    if (strcmp(fn, "fmi2EnterInitializationMode") == 0)
        return fmuc_fmi_enterInitializationMode(f, c);
    if (strcmp(fn, "fmi2ExitInitializationMode") == 0)
        return fmuc_fmi_exitInitializationMode(f, c);
    if (strcmp(fn, "fmi2Terminate") == 0)
        return fmuc_fmi_terminate(f, c);
    if (strcmp(fn, "fmi2DoStep") == 0)
        return fmuc_fmi_doStep(f, c, t0, h, 0);
    if (strcmp(fn, "fmi2CancelStep") == 0)
        return fmuc_fmi_cancelStep(f, c);
    if (strcmp(fn, "fmi2GetStatus") == 0)
        return fmuc_fmi_getStatus(f, c, fmi2DoStepStatus, &st);
    if (strcmp(fn, "fmi2NewDiscreteStates") == 0)
        return fmuc_fmi_newDiscreteStates(f, c, &info);
    if (strcmp(fn, "fmi2EnterContinuousTimeMode") == 0)
        return fmuc_fmi_enterContinuousTimeMode(f, c);
    if (strcmp(fn, "fmi2EnterEventMode") == 0)
        return fmuc_fmi_enterEventMode(f, c);
    if (strcmp(fn, "fmi2CompletedIntegratorStep") == 0)
        return fmuc_fmi_completedIntegratorStep(f, c, 0, &a, &b);
    if (strcmp(fn, "fmi2SetContinuousStates") == 0 || strcmp(fn, "fmi2GetDerivatives") == 0) {
        double *buf = nx <= 64 ? x : calloc(nx, sizeof *buf);
        if (!buf)
            return FMUC_FMI_NOT_PROVIDED;
        st = fn[4] == 'S' ? fmuc_fmi_setContinuousStates(f, c, nx ? buf : NULL, nx)
                          : fmuc_fmi_getDerivatives(f, c, nx ? buf : NULL, nx);
        if (buf != x)
            free(buf);
        return st;
    }
    if (strcmp(fn, "fmi2GetReal") == 0) {
        fmi2ValueReference vr = pl->real_var->value_reference;
        return fmuc_fmi_getReal(f, c, &vr, 1, x);
    }
    if (strcmp(fn, SET_FIXED) == 0) {
        fmi2ValueReference vr = pl->fixed_par->value_reference;
        double v = isfinite(pl->fixed_par->start) && (pl->fixed_par->has & FMUC_HAS_START)
                       ? pl->fixed_par->start
                       : 0.0;
        return fmuc_fmi_setReal(f, c, &vr, 1, &v);
    }
    return FMUC_FMI_NOT_PROVIDED;
}

static cJSON *one(fmuc_worker_ctx *ctx, const fmuc_fmi *f, size_t i, void *user)
{
    const plan *pl = user;
    char why[160];
    fmi2Component c = apiu_reach(f, pl->iface, pl->md, pl->p[i].state, "fmucheck-illegal", why,
                                 sizeof why);
    if (!c)
        return cJSON_CreateString(why);
    apiu_probe_phase(ctx, i, APIU_PROBE_CALL);
    fmi2Status st = call(f, c, pl, pl->p[i].fn);
    /* fmi2FreeInstance is allowed in every state the probes reach and in the error state; after
     * fmi2Fatal nothing may be called (§2.1.3) */
    apiu_probe_phase(ctx, i, APIU_PROBE_CLEANUP);
    if (st != fmi2Fatal && st != fmi2Pending)
        fmuc_fmi_freeInstance(f, c);
    return cJSON_CreateNumber((double)st);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    apiu_iface ifs[2];
    size_t n = apiu_usable_ifaces(s, res, FMUC_UNUSABLE_INSTANCE, ifs), tested = 0;
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
        build(&pl);
        cJSON *results[MAX_PROBES];
        apiu_probes set = {pl.iface, pl.n, one, &pl, 0, 0};
        if (apiu_run_probes(s, res, "api-illegal-calls", &set, results, describe) != 0)
            continue;
        for (size_t k = 0; k < pl.n; k++) {
            cJSON *r = results[k];
            char b[32], line[256];
            const char *st = fmuc_fmi2_state_name(pl.p[k].state);
            const char *died, *stage;
            if (!r) {
                snprintf(line, sizeof line, "%s: %s in %s -> not carried out (the worker died "
                                            "before)", ifs[i].name, pl.p[k].fn, st);
            } else if (apiu_probe_died(r, &died, &stage)) {
                /* undefined behaviour (U): a crash is what this FMU does there, a warning */
                snprintf(line, sizeof line, "%s: %s in %s -> %s", ifs[i].name, pl.p[k].fn, st, died);
                tested++;
                fmuc_result_violation(res, "%s: %s in state %s should return fmi2Error, but the "
                                           "worker ended with %s%s",
                                      ifs[i].name, pl.p[k].fn, st, died,
                                      strcmp(stage, APIU_PROBE_CLEANUP) == 0
                                          ? " (in fmi2FreeInstance after it)" : "");
            } else if (cJSON_IsString(r)) {
                snprintf(line, sizeof line, "%s: %s in %s -> not carried out: %s", ifs[i].name,
                         pl.p[k].fn, st, r->valuestring);
                fmuc_result_note(res, "%s: probe %s in state %s not carried out: %s", ifs[i].name,
                                 pl.p[k].fn, st, r->valuestring);
            } else {
                int code = (int)r->valuedouble;
                const char *sn = code == (int)FMUC_FMI_NOT_PROVIDED ? "not provided"
                                                                    : fmuc_fmi_status_name(code, b, sizeof b);
                snprintf(line, sizeof line, "%s: %s in %s -> %s", ifs[i].name, pl.p[k].fn, st, sn);
                tested++;
                if (code != fmi2Error && code != (int)FMUC_FMI_NOT_PROVIDED) {
                    if (strcmp(pl.p[k].fn, SET_FIXED) == 0)
                        fmuc_result_violation(res,
                                              "%s: fmi2SetReal of the fixed parameter '%s' (vr %u, "
                                              "line %u) in state %s returned %s (expected fmi2Error)",
                                              ifs[i].name, pl.fixed_par->name,
                                              pl.fixed_par->value_reference, pl.fixed_par->line, st, sn);
                    else
                        fmuc_result_violation(res,
                                              "%s: %s in state %s returned %s (expected fmi2Error: "
                                              "not allowed there by the state machine)",
                                              ifs[i].name, pl.p[k].fn, st, sn);
                }
            }
            cJSON_AddItemToArray(list, cJSON_CreateString(line));
            cJSON_Delete(r);
        }
    }
    if (!tested && res->verdict <= FMUC_VERDICT_PASS)
        fmuc_result_na(res, "no probe could be carried out");
}

const fmuc_check fmuc_check_api_illegal_calls = {
    .id = "api-illegal-calls",
    .title = "Calls not allowed by the state machine return fmi2Error",
    .spec = "FMI 2.0.4 §3.2.3, §4.2.4",
    .level = FMUC_LEVEL_SHOULD,
    .why = "A master with a bug or an unusual call order relies on fmi2Error to learn a call was "
           "out of place; an FMU that crashes or silently acts on it corrupts the simulation "
           "instead.",
    .fix = "Track the FMI state machine in the instance and let every function check the current "
           "state first, returning fmi2Error with a log message when the call is not allowed "
           "there.",
    .applies = FMUC_APPLIES_ANY,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
