/* api-mandatory-functions: the mandatory functions a master calls around a run do their job.
 * One worker per interface, one instance (canBeInstantiatedOnlyOncePerProcess is kept), a short
 * run on the eq engine (checks/eq/eq_util.h: the grid of eq-determinism, bounded by the shared
 * horizon, at most MF_STEPS steps):
 *  (a) fmi2SetDebugLogging(fmi2True) in the instantiated state with the declared LogCategories
 *      (when there are any) and with nCategories = 0: fmi2OK/fmi2Warning (§2.1.5: both are the
 *      function's own arguments; nothing in the text lets it refuse them);
 *  (b) fmi2SetupExperiment with stopTimeDefined = fmi2False (stopTime = startTime passed as a
 *      value without meaning): the set-up and the run must work where the nominal run, with a
 *      stop time, does (§2.1.6: the stop time is optional);
 *  (c) CS, no step pending or discarded: fmi2GetStatus(fmi2DoStepStatus),
 *      fmi2GetStringStatus(fmi2PendingStatus), fmi2GetRealStatus(fmi2LastSuccessfulTime),
 *      fmi2GetBooleanStatus(fmi2Terminated), fmi2GetIntegerStatus: "If a status is required
 *      which cannot be retrieved by the slave it returns fmi2Discard" (§4.2.3), so fmi2OK,
 *      fmi2Warning or fmi2Discard; anything else fails (a conforming master asks only after
 *      fmi2Discard or fmi2Pending, so under the interop profile this warns). A
 *      fmi2LastSuccessfulTime answered with fmi2OK that is not the current communication point
 *      is noted only ("Can be called after fmi2DoStep(..) returned fmi2Discard"). After a step the FMU
 *      discarded: fmi2GetBooleanStatus(fmi2Terminated) and fmi2GetRealStatus(
 *      fmi2LastSuccessfulTime) answer fmi2OK/fmi2Warning/fmi2Discard, and a time answered lies
 *      within the discarded step (§4.2.2, §4.2.3);
 *  (d) fmi2Terminate returns fmi2OK/fmi2Warning (where the nominal run's did; else that run's
 *      check reports it; fmi2Discard is api-status-codes'), and then every variable can be read
 *      with fmi2GetReal/Integer/Boolean/String: "After calling this function, the final values
 *      of all variables can be inquired with the fmi2GetXXX(..) functions" (§2.1.6, state
 *      tables §3.2.3/§4.2.4: allowed in Terminated) - a getter that fails there fails. Values
 *      that differ from those read right before fmi2Terminate are noted, not judged: the text
 *      calls them final values and does not forbid a terminal computation to change them;
 *  (e) fmi2Reset after fmi2Terminate (the end of a run, §2.1.6) returns fmi2OK/fmi2Warning and
 *      the same run after it works; results that differ from the first run warn (eq-determinism
 *      judges fmi2Reset within a run, with the integrator-restart test);
 *  (f) fmi2Terminate, then fmi2FreeInstance: a crash there fails (§2.1.5).
 * Optional functions are not called. Every failure names the call, its arguments and state.
 *
 * FMI 3.0.2 (mf_names_of): (a) fmi3SetDebugLogging (§2.3.1), (b) fmi3EnterInitializationMode
 * with stopTimeDefined=fmi3False (§2.3.2), (d) fmi3Get* of the scalar Float64/Int32/Boolean/
 * String variables of no clock after fmi3Terminate ("State: Terminated": the final values can be
 * retrieved), (e) fmi3Reset (§2.3.1), (f) fmi3FreeInstance, all must; no (c): 3.0 has no
 * asynchronous step and no status functions (fmi3DoStep returns what they answered).
 * FMI 1.0: (a) fmiSetDebugLogging(fmiTrue), must. ME: (d) fmiGet* after fmiTerminate, must ("the
 * final values of all variables can be inquired"); fmiInitialize takes no stop time and ME 1.0
 * has no reset, so no (b), (e). CS: (b) fmiInitializeSlave(StopTimeDefined=fmiFalse), must; (c)
 * fmiGetStatus/fmiGetStringStatus/fmiGetRealStatus/fmiGetIntegerStatus (no Terminated kind in
 * 1.0), asked last, in the Terminated state, so that slaves answering them with fmiError still
 * get the other probes; after a discarded step fmiLastSuccessfulTime; (d) after
 * fmiTerminateSlave and (e) fmiResetSlave after it warn only: the 1.0 text says nothing of
 * values after fmiTerminateSlave and leaves when fmiResetSlave may be called open ("after a
 * simulation run"); the Reference-FMUs and FMPy do both. A crash or hang there warns too. */
#include "api_util.h"
#include "eq/eq_util.h"

#define MF_STEPS 50
#define MF_MAX_VARS 20000 /* per base type */

enum { MF_REAL = 0, MF_INT, MF_BOOL, MF_STR, MF_NTYPES };
static const char *const mf_type_key[MF_NTYPES] = {"real", "integer", "boolean", "string"};

/* the five status queries of (c): function, kind */
enum { Q_STATUS = 0, Q_STRING, Q_REAL, Q_BOOL, Q_INT, NQ };

/* The functions of the FMU's version and interface that the probes call, for the messages and
 * the worker's phases, and each probe's clause and level in that version's text. */
typedef struct mf_names {
    int ver;
    const char *debug, *stop, *init, *terminate, *reset, *free_fn, *discard, *ok, *falsestr;
    const char *getter[MF_NTYPES];
    const char *q_call[NQ];          /* NULL: the version has no such query */
    const char *c_debug, *c_stop, *c_status, *c_term, *c_reset, *c_free;
    int has_stop;                    /* the initialization takes a stop time */
    int has_status;                  /* CS status queries exist (1.0 and 2.0 CS) */
    int has_reset;                   /* 2.0, 3.0, 1.0 CS */
    int term_must;                   /* values after terminate: the text says so (else should) */
    int reset_must;                  /* reset after terminate: the text says so (else should) */
} mf_names;

static void mf_names_of(mf_names *n, int ver, fmuc_iface iface)
{
    int cs = iface == FMUC_IFACE_CS;
    memset(n, 0, sizeof *n);
    n->ver = ver;
    if (ver == 3) {
        *n = (mf_names){3, "fmi3SetDebugLogging", "fmi3EnterInitializationMode(stopTimeDefined=fmi3False",
                        "fmi3EnterInitializationMode", "fmi3Terminate", "fmi3Reset",
                        "fmi3FreeInstance", "fmi3Discard", "fmi3OK/fmi3Warning", "fmi3False",
                        {"fmi3GetFloat64", "fmi3GetInt32", "fmi3GetBoolean", "fmi3GetString"},
                        {NULL, NULL, NULL, NULL, NULL},
                        "FMI 3.0.2 §2.3.1", "FMI 3.0.2 §2.3.2", "",
                        "FMI 3.0.2 §2.3.4 and State: Terminated", "FMI 3.0.2 §2.3.1",
                        "FMI 3.0.2 §2.3.1", 1, 0, 1, 1, 1};
    } else if (ver == 1) {
        *n = (mf_names){1, "fmiSetDebugLogging",
                        cs ? "fmiInitializeSlave(StopTimeDefined=fmiFalse" : NULL,
                        cs ? "fmiInitializeSlave" : "fmiInitialize",
                        cs ? "fmiTerminateSlave" : "fmiTerminate", cs ? "fmiResetSlave" : NULL,
                        cs ? "fmiFreeSlaveInstance" : "fmiFreeModelInstance", "fmiDiscard",
                        "fmiOK/fmiWarning", "fmiFalse",
                        {"fmiGetReal", "fmiGetInteger", "fmiGetBoolean", "fmiGetString"},
                        {"fmiGetStatus(fmiDoStepStatus)", "fmiGetStringStatus(fmiPendingStatus)",
                         "fmiGetRealStatus(fmiLastSuccessfulTime)", NULL,
                         "fmiGetIntegerStatus(fmiDoStepStatus)"},
                        cs ? "FMI 1.0 CS (fmiSetDebugLogging)" : "FMI 1.0 ME (fmiSetDebugLogging)",
                        "FMI 1.0 CS (fmiInitializeSlave)", "FMI 1.0 CS (fmiGetXXXStatus)",
                        cs ? "FMI 1.0 CS (fmiTerminateSlave; the text is silent on values after "
                             "it, FMPy and the Reference-FMUs read them: should)"
                           : "FMI 1.0 ME (fmiTerminate: the final values can be inquired)",
                        "FMI 1.0 CS (fmiResetSlave: 'after a simulation run'; when it may be "
                        "called is left open, the Reference-FMUs accept it: should)",
                        cs ? "FMI 1.0 CS (fmiFreeSlaveInstance)" : "FMI 1.0 ME (fmiFreeModelInstance)",
                        cs, cs, cs, !cs, 0};
    } else {
        *n = (mf_names){2, "fmi2SetDebugLogging", "fmi2SetupExperiment(stopTimeDefined=fmi2False",
                        "fmi2SetupExperiment", "fmi2Terminate", "fmi2Reset", "fmi2FreeInstance",
                        "fmi2Discard", "fmi2OK/fmi2Warning", "fmi2False",
                        {"fmi2GetReal", "fmi2GetInteger", "fmi2GetBoolean", "fmi2GetString"},
                        {"fmi2GetStatus(fmi2DoStepStatus)", "fmi2GetStringStatus(fmi2PendingStatus)",
                         "fmi2GetRealStatus(fmi2LastSuccessfulTime)",
                         "fmi2GetBooleanStatus(fmi2Terminated)",
                         "fmi2GetIntegerStatus(fmi2DoStepStatus)"},
                        "§2.1.5", "§2.1.6", "§4.2.3", "§2.1.6", "§2.1.6", "§2.1.5",
                        1, cs, 1, 1, 1};
    }
}

typedef struct mf_job {
    mf_names nm;
    const equ_plan *plan;  /* stop_undefined, at most MF_STEPS steps */
    int once;              /* canBeInstantiatedOnlyOncePerProcess */
    size_t ncat;
    const char **cats;     /* the declared LogCategories */
    size_t nv[MF_NTYPES];
    fmuc_vr *vr[MF_NTYPES];
    const fmuc_md_var **var[MF_NTYPES];
} mf_job;


/* ---- worker ---------------------------------------------------------------------------------- */

/* Read every variable of each base type (one call per type) into o: {"<type>": values,
 * "<type>_status": status}. Returns the worst status. */
static int read_all(equ_inst *in, const mf_job *j, cJSON *o)
{
    int worst = FMUC_STATUS_OK;
    for (int t = 0; t < MF_NTYPES; t++) {
        size_t n = j->nv[t];
        if (!n)
            continue;
        char key[32];
        snprintf(key, sizeof key, "%s_status", mf_type_key[t]);
        int st;
        if (t == MF_STR) {
            const char **v = calloc(n, sizeof *v);
            if (!v)
                return FMUC_STATUS_ERROR;
            st = fmuc_inst_get_string(in->c, j->vr[t], n, v);
            if (fmuc_status_ok(st)) {
                cJSON *a = cJSON_AddArrayToObject(o, mf_type_key[t]);
                for (size_t i = 0; i < n; i++)
                    cJSON_AddItemToArray(a, v[i] ? cJSON_CreateString(v[i]) : cJSON_CreateNull());
            }
            free(v);
        } else {
            double *d = calloc(n, sizeof *d);
            int32_t *iv = t == MF_INT ? calloc(n, sizeof *iv) : NULL;
            int *bv = t == MF_BOOL ? calloc(n, sizeof *bv) : NULL;
            if (!d || (t == MF_INT && !iv) || (t == MF_BOOL && !bv)) {
                free(d);
                free(iv);
                free(bv);
                return FMUC_STATUS_ERROR;
            }
            st = t == MF_REAL  ? fmuc_inst_get_float64(in->c, j->vr[t], n, d)
                 : t == MF_INT ? fmuc_inst_get_int32(in->c, j->vr[t], n, iv)
                               : fmuc_inst_get_boolean(in->c, j->vr[t], n, bv);
            if (fmuc_status_ok(st)) {
                for (size_t i = 0; i < n && t != MF_REAL; i++)
                    d[i] = t == MF_INT ? (double)iv[i] : (bv[i] ? 1.0 : 0.0);
                cJSON_AddItemToObject(o, mf_type_key[t], fmuc_worker_f64_to_json(d, n));
            }
            free(d);
            free(iv);
            free(bv);
        }
        cJSON_AddNumberToObject(o, key, (double)st);
        equ_inst_status(in, st);
        if (!fmuc_status_ok(st) && st > worst)
            worst = st;
        if (!equ_inst_usable(in))
            break;
    }
    return worst;
}

static void put_err(cJSON *rp, const char *key, const equ_inst *in)
{
    cJSON *o = cJSON_AddObjectToObject(rp, key);
    cJSON_AddStringToObject(o, "error", in->err[0] ? in->err : "failed");
    cJSON_AddNumberToObject(o, "k", (double)in->k);
    cJSON_AddNumberToObject(o, "worst", (double)in->worst);
    cJSON_AddBoolToObject(o, "terminated", in->terminated);
}

static void status_queries(equ_inst *in, const mf_names *nm, cJSON *rp)
{
    cJSON *a = cJSON_AddArrayToObject(rp, "status");
    for (int q = 0; q < NQ && equ_inst_usable(in); q++) {
        if (!nm->q_call[q])
            continue;
        int iv = 0, bv = 0, sv = 0;
        double rv = NAN;
        const char *str = NULL;
        int st;
        switch (q) {
        case Q_STATUS: st = fmuc_inst_cs_status(in->c, FMUC_INST_Q_DO_STEP_STATUS, &sv); break;
        case Q_STRING: st = fmuc_inst_cs_status(in->c, FMUC_INST_Q_PENDING_STATUS, &str); break;
        case Q_REAL: st = fmuc_inst_cs_status(in->c, FMUC_INST_Q_LAST_SUCCESSFUL_TIME, &rv); break;
        case Q_BOOL: st = fmuc_inst_cs_status(in->c, FMUC_INST_Q_TERMINATED, &bv); break;
        default: st = fmuc_inst_cs_integer_status(in->c, FMUC_INST_Q_DO_STEP_STATUS, &iv); break;
        }
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "q", q);
        cJSON_AddNumberToObject(e, "status", st);
        if (fmuc_status_ok(st)) {
            if (q == Q_REAL)
                cJSON_AddItemToObject(e, "value", fmuc_worker_f64_to_json(&rv, 1));
            else
                cJSON_AddNumberToObject(e, "value", q == Q_STATUS ? sv : q == Q_BOOL ? bv : iv);
        }
        cJSON_AddItemToArray(a, e);
        if (st != FMUC_STATUS_NOT_PROVIDED)
            equ_inst_status(in, st);
    }
}

static int mf_worker(fmuc_worker_ctx *ctx, void *payload)
{
    const mf_job *j = payload;
    const mf_names *nm = &j->nm;
    cJSON *rp = fmuc_worker_reply(ctx);
    equ_plan copy;
    const equ_plan *p = equ_worker_plan(&copy, j->plan);
    size_t n = (p->nsteps + 1) * p->nout;
    double *rows1 = calloc(n ? n : 1, sizeof *rows1), *rows2 = calloc(n ? n : 1, sizeof *rows2);
    equ_inst in;
    memset(&in, 0, sizeof in);
    if (!rows1 || !rows2 || fmuc_inst_load(ctx, (fmuc_iface)p->iface) != 0) {
        cJSON_AddStringToObject(rp, "load_error",
                                rows1 && rows2 ? fmuc_worker_load_error(ctx) : "out of memory");
        goto out;
    }
    /* (a) fmi2SetDebugLogging in the instantiated state */
    fmuc_worker_phase(ctx, "%s", nm->debug);
    if (equ_inst_instantiate(&in, ctx, p, "fmucheck-mandatory") < 0) {
        cJSON_AddStringToObject(rp, "instantiate_error", in.err);
        goto out;
    }
    if (j->ncat) {
        int st = fmuc_inst_set_debug_logging(in.c, 1, j->ncat, j->cats);
        cJSON_AddNumberToObject(rp, "debug_categories", st);
        if (st != FMUC_STATUS_NOT_PROVIDED)
            equ_inst_status(&in, st);
    }
    if (equ_inst_usable(&in)) {
        int st = fmuc_inst_set_debug_logging(in.c, 1, 0, NULL);
        cJSON_AddNumberToObject(rp, "debug_all", st);
        if (st != FMUC_STATUS_NOT_PROVIDED)
            equ_inst_status(&in, st);
    }
    if (!equ_inst_usable(&in)) {
        int fatal = in.worst == FMUC_STATUS_FATAL;
        equ_inst_free(&in);
        if (j->once || fatal) {
            char why[160];
            if (fatal)
                snprintf(why, sizeof why, "%s returned %s", nm->debug,
                         fmuc_status_name(nm->ver, FMUC_STATUS_FATAL, (char[32]){0}, 32));
            else
                snprintf(why, sizeof why, "canBeInstantiatedOnlyOncePerProcess=\"true\" and the "
                                          "instance is in the error state");
            cJSON_AddStringToObject(rp, "stopped", why);
            goto out;
        }
        if (equ_inst_instantiate(&in, ctx, p, "fmucheck-mandatory") < 0) {
            cJSON_AddStringToObject(rp, "instantiate_error", in.err);
            goto out;
        }
    }
    /* (b) a run without a stop time */
    fmuc_worker_phase(ctx, "set-up without a stop time and run");
    int rc = equ_inst_initialize(&in);
    if (rc == 0)
        rc = equ_inst_record(&in, rows1);
    if (rc == 0)
        rc = equ_inst_run_to(&in, p->nsteps, rows1);
    if (rc < 0) {
        put_err(rp, "run1_error", &in);
    } else {
        cJSON_AddItemToObject(rp, "run1", fmuc_worker_f64_to_json(rows1, n));
    }
    if (rc < 0 && nm->has_status && in.worst == FMUC_STATUS_DISCARD && in.k < p->nsteps) {
        /* (c) after a discarded step */
        fmuc_worker_phase(ctx, "status queries after a discarded step");
        int term = 0;
        double last = NAN;
        int s1 = nm->q_call[Q_BOOL] ? fmuc_inst_cs_status(in.c, FMUC_INST_Q_TERMINATED, &term)
                                    : FMUC_STATUS_NOT_PROVIDED;
        if (s1 != FMUC_STATUS_NOT_PROVIDED)
            equ_inst_status(&in, s1);
        int s2 = equ_inst_usable(&in)
                     ? fmuc_inst_cs_status(in.c, FMUC_INST_Q_LAST_SUCCESSFUL_TIME, &last)
                     : FMUC_STATUS_NOT_PROVIDED;
        if (s2 != FMUC_STATUS_NOT_PROVIDED)
            equ_inst_status(&in, s2);
        cJSON *d = cJSON_AddObjectToObject(rp, "discard");
        cJSON_AddNumberToObject(d, "k", (double)in.k);
        cJSON_AddNumberToObject(d, "terminated_status", s1);
        cJSON_AddNumberToObject(d, "terminated", term);
        cJSON_AddNumberToObject(d, "last_status", s2);
        cJSON_AddItemToObject(d, "last", fmuc_worker_f64_to_json(&last, 1));
    } else if (rc == 0 && nm->has_status && nm->ver != 1) {
        /* (c) no step pending or discarded */
        fmuc_worker_phase(ctx, "status queries");
        status_queries(&in, nm, rp);
    }
    /* (d) the values before fmi2Terminate, fmi2Terminate, the values after it */
    int terminated = 0;
    if (equ_inst_usable(&in)) {
        fmuc_worker_phase(ctx, "values before %s", nm->terminate);
        read_all(&in, j, cJSON_AddObjectToObject(rp, "before"));
    }
    if (equ_inst_usable(&in)) {
        fmuc_worker_phase(ctx, "%s", nm->terminate);
        int st = fmuc_inst_terminate(in.c);
        cJSON_AddNumberToObject(rp, "terminate", st);
        equ_inst_status(&in, st);
        terminated = fmuc_status_ok(st);
    }
    if (terminated) {
        fmuc_worker_phase(ctx, "values after %s", nm->terminate);
        read_all(&in, j, cJSON_AddObjectToObject(rp, "after"));
    }
    /* (e) fmi2Reset after fmi2Terminate and the same run again */
    if (terminated && rc == 0 && nm->has_reset && equ_inst_usable(&in)) {
        fmuc_worker_phase(ctx, "%s after %s", nm->reset, nm->terminate);
        int r2 = equ_inst_reset(&in);
        if (r2 == 0) {
            fmuc_worker_phase(ctx, "the run after %s", nm->reset);
            r2 = equ_inst_record(&in, rows2);
        }
        if (r2 == 0)
            r2 = equ_inst_run_to(&in, p->nsteps, rows2);
        if (r2 < 0) {
            put_err(rp, "run2_error", &in);
        } else {
            cJSON_AddItemToObject(rp, "run2", fmuc_worker_f64_to_json(rows2, n));
            fmuc_worker_phase(ctx, "%s after the second run", nm->terminate);
            int st = fmuc_inst_terminate(in.c);
            cJSON_AddNumberToObject(rp, "terminate2", st);
            equ_inst_status(&in, st);
        }
    }
    /* (c) FMI 1.0 CS: the status queries last, in the Terminated state (allowed there; nothing is
     * pending): the 1.0 slaves that answer them with fmiError would otherwise end every other
     * probe, as fmiError leaves only the free call */
    if (rc == 0 && nm->has_status && nm->ver == 1 && terminated && equ_inst_usable(&in)) {
        fmuc_worker_phase(ctx, "status queries");
        cJSON_AddBoolToObject(rp, "status_terminated", 1);
        status_queries(&in, nm, rp);
    }
    /* (f) fmi2FreeInstance (after fmi2Terminate when that worked) */
    if (terminated)
        fmuc_worker_phase(ctx, "%s after %s", nm->free_fn, nm->terminate);
    else
        fmuc_worker_phase(ctx, "%s", nm->free_fn);
    equ_inst_free(&in);
    cJSON_AddBoolToObject(rp, "freed", 1);
out:
    if (in.c || in.x)
        equ_inst_free(&in);
    free(rows1);
    free(rows2);
    return 0;
}

/* ---- parent ---------------------------------------------------------------------------------- */

#define ID "api-mandatory-functions"

static int num(const cJSON *o, const char *key, int dflt)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(it) ? (int)it->valuedouble : dflt;
}

#define SNAME(st, b) fmuc_status_name(nm->ver, (st), (b), sizeof(b))

/* A rule of the text (must: a violation) or one the text leaves open (should: a warning). */
#define JUDGE(must) ((must) ? fmuc_result_violation : fmuc_result_warn)

/* The nominal run (stop time defined, same start and step) passed time t without a call that
 * failed or discarded. */
static int nominal_passes(const fmuc_sim_result *r, double t)
{
    if (!r || r->instantiate_failed)
        return 0;
    for (size_t i = 0; i < r->nbad; i++)
        if (r->bad[i].t <= t)
            return 0;
    double tol = 1e-9 * fmax(1.0, fabs(t));
    if (r->terminated_by_fmu && r->end_time < t - tol)
        return 0; /* the FMU ended the nominal run before t (FMI 3.0 terminateSimulation) */
    return r->completed || r->end_time >= t - tol;
}

/* err starts with the version's function fn ("fmi2DoStep", "fmiDoStep", "fmi3DoStep" all match
 * "DoStep") */
static int err_is(const char *err, const char *fn)
{
    const char *e = err;
    if (strncmp(e, "fmi", 3) == 0)
        e += 3;
    if (*e == '2' || *e == '3')
        e++;
    return strncmp(e, fn, strlen(fn)) == 0;
}

static void judge_debug(fmuc_result *res, const mf_names *nm, const char *ifn, const cJSON *rp,
                        const fmuc_md *md)
{
    char b[32];
    int st = num(rp, "debug_categories", -1);
    if (st >= 0 && st != FMUC_STATUS_NOT_PROVIDED && !fmuc_status_ok(st))
        fmuc_result_violation(res, "%s: %s(loggingOn=true, nCategories=%zu: the declared "
                                   "LogCategories, the first '%s' at line %u) in the "
                                   "instantiated state returned %s — the declared categories "
                                   "are the function's own arguments (%s)",
                              ifn, nm->debug, md->ncategories,
                              md->categories[0].name ? md->categories[0].name : "?",
                              md->categories[0].line, SNAME(st, b), nm->c_debug);
    st = num(rp, "debug_all", -1);
    if (st >= 0 && st != FMUC_STATUS_NOT_PROVIDED && !fmuc_status_ok(st)) {
        if (nm->ver == 1)
            fmuc_result_violation(res, "%s: %s(loggingOn=fmiTrue) in the instantiated state "
                                       "returned %s — switching debug logging on is the "
                                       "function's only job (%s)",
                                  ifn, nm->debug, SNAME(st, b), nm->c_debug);
        else
            fmuc_result_violation(res, "%s: %s(loggingOn=true, nCategories=0: all categories) in "
                                       "the instantiated state returned %s (%s)",
                                  ifn, nm->debug, SNAME(st, b), nm->c_debug);
    }
    const char *stop = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(rp, "stopped"));
    if (stop)
        fmuc_result_note(res, "%s: the other calls were not made: %s", ifn, stop);
}

/* (b) the run without a stop time */
static void judge_run1(fmuc_result *res, const mf_names *nm, const char *ifn, const cJSON *rp,
                       const equ_plan *p, const fmuc_sim_result *nom)
{
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(rp, "run1_error");
    if (!e)
        return;
    const char *err = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "error"));
    int k = num(e, "k", 0), worst = num(e, "worst", 0);
    int term = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "terminated"));
    if (k < 0 || (size_t)k > p->nsteps)
        k = 0;
    if (term || (worst == FMUC_STATUS_DISCARD && p->iface == FMUC_IFACE_CS)) {
        fmuc_result_note(res, "%s: the run%s ended at t=%.17g: %s", ifn,
                         nm->stop ? " without a stop time" : "", p->t[k], err ? err : "?");
        return;
    }
    if (!nm->stop) { /* ME 1.0: fmiInitialize takes no stop time; the nominal run judges it */
        fmuc_result_note(res, "%s: the run failed (%s): not judged here (%s takes no stop time; "
                              "me-nominal-run judges the run)",
                         ifn, err ? err : "?", nm->init);
        return;
    }
    /* the initialization (k = 0, nothing recorded) or step k + 1 */
    int init = k == 0 && err && !err_is(err, "DoStep") && !err_is(err, "SetTime") &&
               !err_is(err, "Get") && !err_is(err, "SetContinuous") &&
               !err_is(err, "Completed");
    double t = init ? p->t[0] : p->t[(size_t)k < p->nsteps ? (size_t)k + 1 : p->nsteps];
    if (nominal_passes(nom, t))
        fmuc_result_violation(res, "%s: with %s, stopTime=%.17g passed without meaning) %s%s at "
                                   "t=%.17g, where the nominal run with a defined stop time "
                                   "passes — the stop time is optional (%s)",
                              ifn, nm->stop, p->t[0], err ? err : "a call failed",
                              init ? " in the set-up" : "", t, nm->c_stop);
    else
        fmuc_result_note(res, "%s: the run without a stop time failed (%s) at t=%.17g, which "
                              "the nominal run does not pass either%s: not judged here",
                         ifn, err ? err : "?", t,
                         nom && nom->terminated_by_fmu ? " (the FMU asked it to terminate)" : "");
}

/* (c) after a discarded step, and with nothing pending */
static void judge_status(fmuc_result *res, const mf_names *nm, const char *ifn, const cJSON *rp,
                         const equ_plan *p)
{
    char b[32];
    const char *ds = nm->ver == 1 ? "fmiDoStep" : "fmi2DoStep";
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(rp, "discard");
    if (d) {
        int k = num(d, "k", 0);
        if (k < 0 || (size_t)k >= p->nsteps)
            k = 0;
        double t = p->t[k], h = p->t[k + 1] - t;
        int st = num(d, "terminated_status", FMUC_STATUS_NOT_PROVIDED);
        if (nm->q_call[Q_BOOL] && st != FMUC_STATUS_NOT_PROVIDED && !fmuc_status_ok(st) &&
            st != FMUC_STATUS_DISCARD)
            fmuc_result_violation(res, "%s: %s after %s(t=%.17g, h=%.17g) returned %s "
                                       "returned %s (%s with the answer, or %s when it cannot "
                                       "be given: §4.2.2, %s)",
                                  ifn, nm->q_call[Q_BOOL], ds, t, h, nm->discard, SNAME(st, b),
                                  nm->ok, nm->discard, nm->c_status);
        st = num(d, "last_status", FMUC_STATUS_NOT_PROVIDED);
        double *last = fmuc_worker_f64_from_json(cJSON_GetObjectItemCaseSensitive(d, "last"), 1);
        double tol = 1e-9 * fmax(1.0, fabs(t + h));
        if (st != FMUC_STATUS_NOT_PROVIDED && !fmuc_status_ok(st) && st != FMUC_STATUS_DISCARD)
            fmuc_result_violation(res, "%s: %s after %s(t=%.17g, h=%.17g) returned %s "
                                       "returned %s (%s)",
                                  ifn, nm->q_call[Q_REAL], ds, t, h, nm->discard, SNAME(st, b),
                                  nm->c_status);
        else if (fmuc_status_ok(st) && last &&
                 !(last[0] >= t - tol && last[0] <= t + h + tol))
            fmuc_result_violation(res, "%s: %s after %s(t=%.17g, h=%.17g) returned %s "
                                       "answered %s with %.17g, not a time within that step "
                                       "— it is the end time of the last successfully completed "
                                       "communication step (%s)",
                                  ifn, nm->q_call[Q_REAL], ds, t, h, nm->discard, SNAME(st, b),
                                  last[0], nm->c_status);
        free(last);
    }
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(rp, "status");
    const cJSON *e;
    double tn = p->t[p->nsteps];
    char where[64] = "";
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rp, "status_terminated")))
        snprintf(where, sizeof where, " after %s", nm->terminate);
    cJSON_ArrayForEach(e, a)
    {
        int q = num(e, "q", -1), st = num(e, "status", FMUC_STATUS_NOT_PROVIDED);
        if (q < 0 || q >= NQ || !nm->q_call[q] || st == FMUC_STATUS_NOT_PROVIDED)
            continue;
        if (st == FMUC_STATUS_PENDING) {
            fmuc_result_violation(res, "%s: %s at t=%.17g%s, with no asynchronous step running, "
                                       "returned %s (%s)",
                                  ifn, nm->q_call[q], tn, where, SNAME(st, b), nm->c_status);
        } else if (!fmuc_status_ok(st) && st != FMUC_STATUS_DISCARD) {
            fmuc_result_violation_letter(res, "%s: %s at t=%.17g%s, with no step pending or "
                                              "discarded, returned %s — a status the FMU cannot "
                                              "give is answered with %s (%s)",
                                         ifn, nm->q_call[q], tn, where, SNAME(st, b),
                                         nm->discard, nm->c_status);
        } else if (q == Q_REAL && fmuc_status_ok(st)) {
            double *v = fmuc_worker_f64_from_json(cJSON_GetObjectItemCaseSensitive(e, "value"), 1);
            if (v && !(fabs(v[0] - tn) <= 1e-9 * fmax(1.0, fabs(tn))))
                fmuc_result_note(res, "%s: %s at the communication point t=%.17g%s returned "
                                      "%s with %.17g, not %.17g (not judged: %s has it asked "
                                      "after a discarded step)",
                                 ifn, nm->q_call[q], tn, where, SNAME(st, b), v[0], tn,
                                 nm->c_status);
            free(v);
        }
    }
}

/* (d) terminate and the values in the Terminated state */
static void judge_terminate(fmuc_result *res, const mf_names *nm, const char *ifn,
                            const cJSON *rp, const fmuc_sim_result *nom, const mf_job *j,
                            int discarded)
{
    char b[32], b1[64], b2[64];
    int st = num(rp, "terminate", -1);
    if (st < 0)
        return;
    if (!fmuc_status_ok(st)) {
        uint64_t nom_ok = nom->status_counts[FMUC_SIM_FN_Terminate][FMUC_STATUS_OK] +
                          nom->status_counts[FMUC_SIM_FN_Terminate][FMUC_STATUS_WARNING];
        if (st == FMUC_STATUS_DISCARD)
            fmuc_result_note(res, "%s: %s returned %s (see api-status-codes)", ifn,
                             nm->terminate, SNAME(st, b));
        else if (nom_ok)
            fmuc_result_violation(res, "%s: %s%s returned %s, where the nominal run's %s "
                                       "returned %s (%s)",
                                  ifn, nm->terminate,
                                  discarded ? " after a discarded step" : " before the stop time",
                                  SNAME(st, b), nm->terminate, nm->ok, nm->c_term);
        else
            fmuc_result_note(res, "%s: %s returned %s, as in the nominal run (judged by its "
                                  "nominal-run check)", ifn, nm->terminate, SNAME(st, b));
        return;
    }
    const cJSON *be = cJSON_GetObjectItemCaseSensitive(rp, "before");
    const cJSON *af = cJSON_GetObjectItemCaseSensitive(rp, "after");
    for (int t = 0; t < MF_NTYPES; t++) {
        size_t n = j->nv[t];
        char key[32];
        snprintf(key, sizeof key, "%s_status", mf_type_key[t]);
        int sb = num(be, key, -1), sa = num(af, key, -1);
        if (!n || sa < 0)
            continue;
        if (!fmuc_status_ok(sa)) {
            if (sb >= 0 && fmuc_status_ok(sb))
                JUDGE(nm->term_must)(res, "%s: %s of the %zu %s variables (the first '%s', vr "
                                          "%u) in the Terminated state returned %s, while before "
                                          "%s it returned %s — after %s the final values of all "
                                          "variables can be inquired (%s)",
                                     ifn, nm->getter[t], n, mf_type_key[t], j->var[t][0]->name,
                                     j->vr[t][0], SNAME(sa, b), nm->terminate, SNAME(sb, b1),
                                     nm->terminate, nm->c_term);
            else
                fmuc_result_note(res, "%s: %s in the Terminated state returned %s (not judged: it "
                                      "failed before %s too)",
                                 ifn, nm->getter[t], SNAME(sa, b), nm->terminate);
            continue;
        }
        if (sb < 0 || !fmuc_status_ok(sb) || discarded)
            continue;
        /* values: final values, compared with those right before terminate */
        size_t diff = 0, first = 0;
        char vb[160] = "", va[160] = "";
        if (t == MF_STR) {
            const cJSON *xa = cJSON_GetObjectItemCaseSensitive(af, mf_type_key[t]);
            const cJSON *xb = cJSON_GetObjectItemCaseSensitive(be, mf_type_key[t]);
            for (size_t i = 0; i < n; i++) {
                const char *s1 = cJSON_GetStringValue(cJSON_GetArrayItem(xb, (int)i));
                const char *s2 = cJSON_GetStringValue(cJSON_GetArrayItem(xa, (int)i));
                if ((s1 == NULL) != (s2 == NULL) || (s1 && strcmp(s1, s2) != 0)) {
                    if (!diff++) {
                        first = i;
                        snprintf(vb, sizeof vb, "\"%.60s\"", s1 ? s1 : "(NULL)");
                        snprintf(va, sizeof va, "\"%.60s\"", s2 ? s2 : "(NULL)");
                    }
                }
            }
        } else {
            double *xb = fmuc_worker_f64_from_json(cJSON_GetObjectItemCaseSensitive(be, mf_type_key[t]), n);
            double *xa = fmuc_worker_f64_from_json(cJSON_GetObjectItemCaseSensitive(af, mf_type_key[t]), n);
            for (size_t i = 0; xa && xb && i < n; i++)
                if (!equ_same(xb[i], xa[i]) && !diff++) {
                    first = i;
                    snprintf(vb, sizeof vb, "%s", equ_fmt_bits(xb[i], b1, sizeof b1));
                    snprintf(va, sizeof va, "%s", equ_fmt_bits(xa[i], b2, sizeof b2));
                }
            free(xa);
            free(xb);
        }
        if (diff)
            fmuc_result_note(res, "%s: %s in the Terminated state gives '%s' (vr %u, line %u) %s, "
                                  "right before %s it was %s (%zu of %zu %s variables differ) — "
                                  "%s: final values; the text lets a terminal computation change "
                                  "them, so this is not judged",
                             ifn, nm->getter[t], j->var[t][first]->name, j->vr[t][first],
                             j->var[t][first]->line, va, nm->terminate, vb, diff, n,
                             mf_type_key[t], nm->c_term);
    }
}

/* (e) reset after terminate and the run after it */
static void judge_reset(fmuc_result *res, const mf_names *nm, const char *ifn, const cJSON *rp,
                        const equ_plan *p)
{
    char b[32];
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(rp, "run2_error");
    if (e) {
        const char *err = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "error"));
        size_t rl = strlen(nm->reset);
        if (err && strncmp(err, nm->reset, rl) == 0 && err[rl] == ' ')
            JUDGE(nm->reset_must)(res, "%s: %s after %s — %s must put the FMU into the state "
                                       "after instantiation (%s)",
                                  ifn, err, nm->terminate, nm->reset, nm->c_reset);
        else
            JUDGE(nm->reset_must)(res, "%s: the run after %s and %s failed: %s, while the same "
                                       "run before it succeeded — after %s the FMU must behave "
                                       "as after instantiation (%s)",
                                  ifn, nm->terminate, nm->reset, err ? err : "?", nm->reset,
                                  nm->c_reset);
        return;
    }
    size_t n = (p->nsteps + 1) * p->nout, r, c;
    double *a = fmuc_worker_f64_from_json(cJSON_GetObjectItemCaseSensitive(rp, "run1"), n);
    double *z = fmuc_worker_f64_from_json(cJSON_GetObjectItemCaseSensitive(rp, "run2"), n);
    if (a && z && equ_first_mismatch(a, z, p->nsteps + 1, p->nout, &r, &c)) {
        char b1[64], b2[64];
        fmuc_result_warn(res, "%s: after %s and %s the same run gives '%s' (vr %u) %s at "
                              "t=%.17g, the first run %s — %s must restore the state after "
                              "instantiation (%s); eq-determinism judges the difference with the "
                              "integrator-restart test, so this warns",
                         ifn, nm->terminate, nm->reset, p->out[c].name, p->out[c].vr,
                         equ_fmt_bits(z[r * p->nout + c], b1, sizeof b1), p->t[r],
                         equ_fmt_bits(a[r * p->nout + c], b2, sizeof b2), nm->reset,
                         nm->c_reset);
    }
    free(a);
    free(z);
    int st = num(rp, "terminate2", -1);
    if (st >= 0 && !fmuc_status_ok(st) && st != FMUC_STATUS_DISCARD)
        JUDGE(nm->reset_must)(res, "%s: %s after the run that followed %s returned %s (%s)", ifn,
                              nm->terminate, nm->reset, SNAME(st, b), nm->c_term);
}

/* FMI 3.0: the probes read scalar Float64, Int32, Boolean and String variables that belong to
 * no clock (a clocked variable is readable only while its clock ticks, §2.2.8.3) */
static int v3_readable(const fmuc_md *md, const fmuc_md_var *v)
{
    const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, (size_t)(v - md->vars));
    if (x && (x->ndims || x->nclocks))
        return 0;
    return v->base == FMUC_BT_FLOAT64 || v->base == FMUC_BT_INT32 || v->base == FMUC_BT_BOOLEAN ||
           v->base == FMUC_BT_STRING;
}

static int build_job(mf_job *j, const fmuc_fmu *fmu, fmuc_iface iface, const equ_plan *p)
{
    const fmuc_md *md = &fmu->md;
    memset(j, 0, sizeof *j);
    mf_names_of(&j->nm, fmuc_fmu_fmi_version(fmu), iface);
    j->plan = p;
    j->once = apiu_once_per_process(fmu, iface);
    if (md->ncategories) {
        j->cats = calloc(md->ncategories, sizeof *j->cats);
        if (!j->cats)
            return -1;
        for (size_t i = 0; i < md->ncategories; i++)
            if (md->categories[i].name)
                j->cats[j->ncat++] = md->categories[i].name;
    }
    for (int t = 0; t < MF_NTYPES; t++) {
        j->vr[t] = calloc(md->nvars ? md->nvars : 1, sizeof *j->vr[t]);
        j->var[t] = calloc(md->nvars ? md->nvars : 1, sizeof *j->var[t]);
        if (!j->vr[t] || !j->var[t])
            return -1;
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (!(v->has & FMUC_HAS_VALUE_REFERENCE) || !v->name)
            continue;
        if (md->fmi == FMUC_FMI3 && !v3_readable(md, v))
            continue;
        int t = v->type == FMUC_TYPE_REAL                                           ? MF_REAL
                : v->type == FMUC_TYPE_INTEGER || v->type == FMUC_TYPE_ENUMERATION ? MF_INT
                : v->type == FMUC_TYPE_BOOLEAN                                        ? MF_BOOL
                : v->type == FMUC_TYPE_STRING                                         ? MF_STR
                                                                                      : -1;
        if (t < 0 || j->nv[t] >= MF_MAX_VARS)
            continue;
        j->var[t][j->nv[t]] = v;
        j->vr[t][j->nv[t]++] = v->value_reference;
    }
    return 0;
}

static void free_job(mf_job *j)
{
    free(j->cats);
    for (int t = 0; t < MF_NTYPES; t++) {
        free(j->vr[t]);
        free(j->var[t]);
    }
}

/* Run the worker; a crash, or a hang in an FMI call, while it announced one of the probed
 * phases is the check's result: a failure where the version's text says must, a warning where it
 * leaves the behaviour open (FMI 1.0 CS: fmiResetSlave and the run after it; values after
 * fmiTerminateSlave). Any other death is an error. Returns 0 (*o to be read and freed) or -1. */
static int mf_run_worker(const fmuc_subject *s, mf_job *job, fmuc_worker_outcome *o,
                         fmuc_result *res, const char *what)
{
    const mf_names *nm = &job->nm;
    char ph[7][96];
    fmuc_verdict v[7];
    const char *why[7];
    size_t np = 0;
#define MF_PHASE(verdict, reason, ...)                                                          \
    do {                                                                                       \
        snprintf(ph[np], sizeof ph[np], __VA_ARGS__);                                          \
        v[np] = (verdict);                                                                     \
        why[np++] = (reason);                                                                  \
    } while (0)
    MF_PHASE(FMUC_VERDICT_FAIL, NULL, "%s", nm->debug);
    MF_PHASE(FMUC_VERDICT_FAIL, NULL, "status queries");
    MF_PHASE(FMUC_VERDICT_FAIL, NULL, "%s", nm->terminate);
    MF_PHASE(nm->term_must ? FMUC_VERDICT_FAIL : FMUC_VERDICT_WARN, nm->c_term, "values after %s",
             nm->terminate);
    MF_PHASE(FMUC_VERDICT_FAIL, NULL, "%s after", nm->free_fn);
    if (nm->has_reset) {
        /* the reset itself and the run after it, which shows whether the reset went back to
         * the state after instantiation (2.0 §2.1.6, 3.0.2 §2.3.1: must; the 1.0 CS text leaves
         * the state after fmiResetSlave open: DPController and ReferenceGenerator hang in
         * fmiDoStep there) */
        fmuc_verdict rv = nm->reset_must ? FMUC_VERDICT_FAIL : FMUC_VERDICT_WARN;
        MF_PHASE(rv, nm->c_reset, "%s after", nm->reset);
        MF_PHASE(rv, nm->c_reset, "the run after %s", nm->reset);
    }
#undef MF_PHASE
    fmuc_worker_spec spec;
    fmuc_diag d = {{0}, FMUC_OK};
    fmuc_worker_spec_init(&spec, s->fmu, s->opts);
    spec.label = ID;
    if (spec.reply_max_bytes < ((size_t)256 << 20))
        spec.reply_max_bytes = (size_t)256 << 20;
    if (fmuc_worker_run(&spec, mf_worker, job, o, &d) < 0) {
        fmuc_result_error(res, "%s: cannot run a worker: %s", ID, d.msg);
        fmuc_worker_outcome_free(o);
        return -1;
    }
    int hit = -1;
    if ((o->end == FMUC_WORKER_CRASHED && !o->own_limit[0]) ||
        (o->end == FMUC_WORKER_TIMEOUT && o->call_in_progress))
        for (size_t i = 0; i < np && hit < 0; i++)
            if (strncmp(o->phase, ph[i], strlen(ph[i])) == 0)
                hit = (int)i;
    if (hit < 0) {
        if (fmuc_worker_outcome_to_result(o, res)) {
            fmuc_worker_outcome_free(o);
            return -1;
        }
        return 0;
    }
    fmuc_result scratch;
    fmuc_result_init(&scratch, res->id, res->title, res->spec, res->level);
    fmuc_worker_outcome_to_result(o, &scratch);
    for (size_t i = 0; i < scratch.nmessages; i++) {
        const char *m = scratch.messages[i];
        if (i > 0)
            fmuc_result_note(res, "%s", m);
        else if (v[hit] == FMUC_VERDICT_FAIL)
            fmuc_result_fail(res, "%s: %s", what, m);
        else
            fmuc_result_warn(res, "%s: %s (%s)", what, m, why[hit] ? why[hit] : "");
    }
    cJSON *w = scratch.evidence ? cJSON_DetachItemFromObject(scratch.evidence, "worker") : NULL;
    if (w) {
        cJSON *ev = fmuc_result_evidence(res);
        cJSON_DeleteItemFromObject(ev, "worker");
        cJSON_AddItemToObject(ev, "worker", w);
    }
    fmuc_result_clear(&scratch);
    fmuc_worker_outcome_free(o);
    return -1;
}

static void run_iface(const fmuc_subject *s, fmuc_result *res, fmuc_iface iface)
{
    const char *ifn = equ_iface_name(iface);
    fmuc_sim_result own;
    mf_job job;
    equ_plan p;
    memset(&job, 0, sizeof job);
    memset(&p, 0, sizeof p);
    const fmuc_sim_result *nom = fmuc_shared_nominal_run(s, iface, ID, res, &own);
    if (!nom)
        goto out; /* res says why */
    if (nom->instantiate_failed) {
        fmuc_result_note(res, "%s: %s returned NULL (see api-instantiate)", ifn,
                         apiu_fn(apiu_version(s), iface, FMUC_INST_OP_INSTANTIATE));
        goto out;
    }
    if (equ_plan_init(&p, s->fmu, iface, EQU_STEPS_SHORT) < 0) {
        fmuc_result_note(res, "%s: not probed: %s", ifn, p.why);
        goto out;
    }
    if (equ_plan_horizon(&p, s, res) != 0)
        goto out;
    equ_plan_me_budget(&p, 0, EQU_ME_SUBSTEPS_SHORT);
    if (p.nsteps > MF_STEPS)
        p.nsteps = MF_STEPS;
    p.stop_undefined = 1;
    p.stop = p.t[0];
    if (build_job(&job, s->fmu, iface, &p) < 0) {
        fmuc_result_error(res, "%s: out of memory", ifn);
        goto out;
    }
    const mf_names *nm = &job.nm;
    fmuc_worker_outcome o;
    char what[96];
    snprintf(what, sizeof what, "%s: a mandatory function ended the worker", ifn);
    if (mf_run_worker(s, &job, &o, res, what) < 0)
        goto out;
    const cJSON *rp = o.reply;
    const char *le = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(rp, "load_error"));
    const char *ie = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(rp, "instantiate_error"));
    if (le || ie) {
        fmuc_result_note(res, "%s: not probed: %s", ifn, le ? le : ie);
    } else {
        cJSON *ev = cJSON_AddObjectToObject(fmuc_result_evidence(res), ifn);
        cJSON_AddNumberToObject(ev, "steps", (double)p.nsteps);
        cJSON_AddNumberToObject(ev, "log_categories", (double)job.ncat);
        const char *seq[] = {"debug_categories", "debug_all", "terminate", "terminate2"};
        for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
            int st = num(rp, seq[i], -1);
            char b[32];
            if (st >= 0)
                cJSON_AddStringToObject(ev, seq[i], SNAME(st, b));
        }
        judge_debug(res, nm, ifn, rp, &s->fmu->md);
        judge_run1(res, nm, ifn, rp, &p, nom);
        if (nm->has_status)
            judge_status(res, nm, ifn, rp, &p);
        judge_terminate(res, nm, ifn, rp, nom, &job,
                        cJSON_GetObjectItemCaseSensitive(rp, "discard") != NULL);
        if (nm->has_reset)
            judge_reset(res, nm, ifn, rp, &p);
        if (nm->ver == 3 && iface == FMUC_IFACE_CS)
            fmuc_result_note(res, "%s: no status queries: FMI 3.0 has no asynchronous step and "
                                  "no fmi3Get*Status functions (fmi3DoStep returns what they "
                                  "gave)", ifn);
        if (nm->ver == 1 && iface == FMUC_IFACE_ME)
            fmuc_result_note(res, "%s: Model Exchange 1.0 has no reset (an instance is freed "
                                  "and instantiated again) and fmiInitialize takes no stop time: "
                                  "those probes are not made", ifn);
    }
    fmuc_worker_outcome_free(&o);
out:
    free_job(&job);
    equ_plan_free(&p);
    fmuc_sim_result_free(&own);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    apiu_iface ifs[2];
    size_t n = apiu_usable_ifaces(s, res, FMUC_UNUSABLE_RUN, ifs);
    if (!n) {
        fmuc_result_na(res, "no interface with a binary for this platform");
        return;
    }
    size_t from = res->nmessages;
    for (size_t i = 0; i < n; i++)
        run_iface(s, res, ifs[i].type);
    /* the engine's own failure texts (run errors) name the 2.0 functions */
    equ_v3_names(s, res, from);
}

const fmuc_check fmuc_check_api_mandatory_functions = {
    .id = ID,
    .title = "Mandatory functions do their job: SetDebugLogging, the initialization without a "
             "stop time, CS status queries (1.0, 2.0), Get* after Terminate, Reset after "
             "Terminate, FreeInstance",
    .spec = "FMI 2.0.4 §2.1.5, §2.1.6, §4.2.3; FMI 3.0.2 §2.3.1, §2.3.2, §2.3.4; "
            "FMI 1.0 ME (fmiSetDebugLogging, fmiTerminate, fmiFreeModelInstance); "
            "FMI 1.0 CS (fmiSetDebugLogging, fmiInitializeSlave, fmiGetXXXStatus, "
            "fmiTerminateSlave, fmiResetSlave, fmiFreeSlaveInstance)",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_SOME,
    .interop_why = "Error instead of Discard from a CS status query made with no step pending "
                   "or discarded: a conforming master makes no such query",
    .why = "Masters switch logging on with the declared categories, leave the stop time open, "
           "read final results after terminating and reset an instance for the next run; an FMU "
           "failing one of these calls stops the run or loses its results.",
    .fix = "Accept every declared category and none in SetDebugLogging, honour an undefined stop "
           "time, keep values readable in the Terminated state, let Reset start over, and answer "
           "unavailable status kinds with Discard.",
    .applies = FMUC_APPLIES_MECS,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .sessions = 2,
    .run = run,
};
