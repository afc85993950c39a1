/* Helpers shared by the dynamic checks (api-*, cs-*, me-*): the declared interfaces with a
 * library, a worker round trip that turns crash/timeout/exit into ERROR and copies the FMU log
 * into the evidence, driving a fresh instance into a given FMI state, and value references
 * unused per base type. */
#ifndef FMUC_API_UTIL_H
#define FMUC_API_UTIL_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fmuc/fmuc_drive.h"
#include "fmuc/fmuc_inst.h"
#include "fmuc/fmuc_sim.h"
#include "fmuc/fmuc_worker.h"

typedef struct apiu_iface {
    fmuc_iface type;
    const char *name; /* "ModelExchange" / "CoSimulation" */
} apiu_iface;

/** Declared interfaces whose library was extracted (0..2). */
static inline size_t apiu_ifaces(const fmuc_fmu *fmu, apiu_iface out[2])
{
    size_t n = 0;
    if (fmu->md_parsed && fmu->md.me.present && fmu->lib_path_me)
        out[n++] = (apiu_iface){FMUC_IFACE_ME, "ModelExchange"};
    if (fmu->md_parsed && fmu->md.cs.present && fmu->lib_path_cs)
        out[n++] = (apiu_iface){FMUC_IFACE_CS, "CoSimulation"};
    return n;
}

/** X10: canBeInstantiatedOnlyOncePerProcess="true" on the interface t. The harness then never
 *  calls fmi2Instantiate twice in one worker process: every instance gets its own worker. */
static inline int apiu_once_per_process(const fmuc_fmu *fmu, fmuc_iface t)
{
    const fmuc_md_interface *i = t == FMUC_IFACE_ME   ? &fmu->md.me
                                 : t == FMUC_IFACE_SE ? &fmu->md.se
                                                      : &fmu->md.cs;
    return i->present && (i->caps & (1u << FMUC_CAP_CAN_BE_INSTANTIATED_ONLY_ONCE_PER_PROCESS));
}

static inline const char *apiu_iface_name(fmuc_iface t)
{
    return t == FMUC_IFACE_ME ? "ModelExchange" : t == FMUC_IFACE_SE ? "ScheduledExecution"
                                                                     : "CoSimulation";
}

/** The function of the FMU's version behind op for interface t, for messages and lib_has:
 *  "fmi2Instantiate"; FMI 1.0 "fmiInstantiateModel" (ME) / "fmiInstantiateSlave" (CS); FMI 3.0
 *  "fmi3InstantiateModelExchange" / "fmi3InstantiateCoSimulation". */
static inline const char *apiu_fn(int version, fmuc_iface t, fmuc_inst_op op)
{
    if (version == 3 && op == FMUC_INST_OP_INSTANTIATE)
        return t == FMUC_IFACE_ME   ? "fmi3InstantiateModelExchange"
               : t == FMUC_IFACE_SE ? "fmi3InstantiateScheduledExecution"
                                    : "fmi3InstantiateCoSimulation";
    if (version == 1) {
        int cs = t == FMUC_IFACE_CS;
        switch (op) {
        case FMUC_INST_OP_INSTANTIATE: return cs ? "fmiInstantiateSlave" : "fmiInstantiateModel";
        case FMUC_INST_OP_FREE: return cs ? "fmiFreeSlaveInstance" : "fmiFreeModelInstance";
        case FMUC_INST_OP_EXIT_INIT: return cs ? "fmiInitializeSlave" : "fmiInitialize";
        case FMUC_INST_OP_TERMINATE: return cs ? "fmiTerminateSlave" : "fmiTerminate";
        default: break;
        }
    }
    const char *n = fmuc_inst_op_name(version, op);
    return n ? n : "?";
}

/** The FMU ended the worker (crash, hang, exit) while loading its library or in a call every
 *  dynamic check of the interface needs: fmi2Instantiate, fmi2SetupExperiment,
 *  fmi2EnterInitializationMode, fmi2ExitInitializationMode, and their FMI 1.0 (fmiInstantiateModel,
 *  fmiInstantiateSlave, fmiInitialize, fmiInitializeSlave) and FMI 3.0 forms
 *  (fmi3InstantiateModelExchange, ...CoSimulation, ...ScheduledExecution,
 *  fmi3EnterInitializationMode, fmi3ExitInitializationMode). */
static inline int apiu_common_phase(const fmuc_worker_outcome *o)
{
    static const char *const calls[] = {
        "fmi2Instantiate",
        "fmi2SetupExperiment",
        "fmi2EnterInitializationMode",
        "fmi2ExitInitializationMode",
        "fmiInstantiateModel",
        "fmiInstantiateSlave",
        "fmiInitialize",
        "fmiInitializeSlave",
        "fmi3InstantiateModelExchange",
        "fmi3InstantiateCoSimulation",
        "fmi3InstantiateScheduledExecution",
        "fmi3EnterInitializationMode",
        "fmi3ExitInitializationMode"};
    if (o->end != FMUC_WORKER_CRASHED && o->end != FMUC_WORKER_TIMEOUT &&
        o->end != FMUC_WORKER_EXITED_EARLY)
        return 0;
    if (o->load_attempted && !o->load_ok)
        return 1;
    if (!o->call_in_progress)
        return 0;
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        size_t n = strlen(calls[i]);
        if (strncmp(o->last_call, calls[i], n) == 0 && (o->last_call[n] == '(' || !o->last_call[n]))
            return 1;
    }
    return 0;
}

/** After a worker of res's check on iface ended badly: when it died in a phase every dynamic
 *  check needs (apiu_common_phase), the interface is recorded as unusable (the runner makes the
 *  later checks that need it not-applicable, naming res's check) and res says so. 1 then. */
static inline int apiu_note_death(const fmuc_subject *s, fmuc_result *res, fmuc_iface iface,
                                  const fmuc_worker_outcome *o)
{
    char why[600];
    /* a stop before a call that hung in an earlier worker: that worker's check recorded it */
    if (o->hung_before || !apiu_common_phase(o))
        return 0;
    int first = fmuc_shared_unusable(s, iface, FMUC_UNUSABLE_INSTANCE) == NULL;
    fmuc_worker_death_text(o, why, sizeof why);
    fmuc_shared_mark_unusable(s, iface, FMUC_UNUSABLE_INSTANCE, res->id, why, o);
    if (first)
        fmuc_result_note(res, "%s: %s, a phase every dynamic check needs: the later checks of this "
                              "interface are not applicable",
                         apiu_iface_name(iface), why);
    return 1;
}

/** The worker died in the very call the check probes: that is the check's finding, not a check
 *  that could not be carried out. Copies the worker evidence (with its last calls) into res
 *  without changing its verdict; the caller judges the death (fmuc_worker_death_text). */
static inline void apiu_absorb_probed_death(const fmuc_worker_outcome *o, fmuc_result *res)
{
    fmuc_result tmp;
    fmuc_result_init(&tmp, res->id, res->title, res->spec, res->level);
    cJSON *ev = fmuc_result_evidence(res);
    cJSON *prev = cJSON_GetObjectItemCaseSensitive(ev, "worker");
    cJSON *tev = fmuc_result_evidence(&tmp);
    if (prev && tev)
        cJSON_AddItemToObject(tev, "worker", cJSON_Duplicate(prev, 1));
    fmuc_worker_outcome_to_result(o, &tmp); /* its messages: the death's text, the last calls */
    cJSON *w = tev ? cJSON_DetachItemFromObjectCaseSensitive(tev, "worker") : NULL;
    if (w && ev) {
        cJSON_DeleteItemFromObjectCaseSensitive(ev, "worker");
        cJSON_AddItemToObject(ev, "worker", w);
    } else {
        cJSON_Delete(w);
    }
    fmuc_result_clear(&tmp);
}

/** The declared interfaces with a library (apiu_ifaces) that are not unusable at level
 *  (FMUC_UNUSABLE_*): each skipped one gets a note in res naming the check that saw why. */
static inline size_t apiu_keep_usable(const fmuc_subject *s, fmuc_result *res, int level,
                                      const apiu_iface *all, size_t n, apiu_iface *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const char *u = fmuc_shared_unusable(s, all[i].type, level);
        if (u)
            fmuc_result_note(res, "%s not probed: %s", all[i].name, u);
        else
            out[k++] = all[i];
    }
    return k;
}

static inline size_t apiu_usable_ifaces(const fmuc_subject *s, fmuc_result *res, int level,
                                        apiu_iface out[2])
{
    apiu_iface all[2];
    size_t n = apiu_ifaces(s->fmu, all);
    return apiu_keep_usable(s, res, level, all, n, out);
}

/** The extracted library of interface t ("" when none). */
static inline const char *apiu_lib_path(const fmuc_fmu *fmu, fmuc_iface t)
{
    const char *p = fmuc_fmu_lib_path(fmu, (int)t);
    return p ? p : "";
}

/** apiu_ifaces and the FMI 3.0 ScheduledExecution interface with its library (0..3; only an
 *  FMI 3.0 model description has one), for the checks that also judge Scheduled Execution
 *  (api-instantiate, api-guid, api-free-instance-null, api-illegal-calls-fmi3, api-bad-vr). */
static inline size_t apiu_ifaces_with_se(const fmuc_fmu *fmu, apiu_iface out[3])
{
    size_t n = apiu_ifaces(fmu, out);
    if (fmu->md_parsed && fmu->md.se.present && fmu->lib_path_se)
        out[n++] = (apiu_iface){FMUC_IFACE_SE, "ScheduledExecution"};
    return n;
}

static inline size_t apiu_usable_ifaces_with_se(const fmuc_subject *s, fmuc_result *res, int level,
                                                apiu_iface out[3])
{
    apiu_iface all[3];
    size_t n = apiu_ifaces_with_se(s->fmu, all);
    return apiu_keep_usable(s, res, level, all, n, out);
}

/** The check that judges the optional FMI function the worker of check self_id ended in (a
 *  crash, a hang, or an exit inside the call), when that is another check: "eq-fmu-state" for
 *  the FMU-state functions, "eq-serialize" for their serialization, "me-directional-
 *  derivatives" (ME), "cs-input-derivatives" and "cs-output-derivatives" (CS), "api-instantiate"
 *  for the free of an instance (every worker's last call; not of NULL), "api-mandatory-functions"
 *  for the Co-Simulation status queries. NULL otherwise.
 *  Such a death is the judging check's finding, not a failure to carry out self_id. */
static inline const char *apiu_judged_elsewhere(const fmuc_worker_outcome *o, fmuc_iface iface,
                                                const char *self_id)
{
    static const struct {
        const char *fn, *check;
        int iface; /* -1: any */
    } by[] = {
        {"fmi2GetFMUstate", "eq-fmu-state", -1},
        {"fmi2SetFMUstate", "eq-fmu-state", -1},
        {"fmi2FreeFMUstate", "eq-fmu-state", -1},
        {"fmi3GetFMUState", "eq-fmu-state", -1},
        {"fmi3SetFMUState", "eq-fmu-state", -1},
        {"fmi3FreeFMUState", "eq-fmu-state", -1},
        {"fmi2SerializedFMUstateSize", "eq-serialize", -1},
        {"fmi2SerializeFMUstate", "eq-serialize", -1},
        {"fmi2DeSerializeFMUstate", "eq-serialize", -1},
        {"fmi3SerializedFMUStateSize", "eq-serialize", -1},
        {"fmi3SerializeFMUState", "eq-serialize", -1},
        {"fmi3DeserializeFMUState", "eq-serialize", -1},
        {"fmi2GetDirectionalDerivative", "me-directional-derivatives", FMUC_IFACE_ME},
        {"fmi3GetDirectionalDerivative", "me-directional-derivatives", FMUC_IFACE_ME},
        {"fmi2SetRealInputDerivatives", "cs-input-derivatives", FMUC_IFACE_CS},
        {"fmiSetRealInputDerivatives", "cs-input-derivatives", FMUC_IFACE_CS},
        {"fmi2GetRealOutputDerivatives", "cs-output-derivatives", FMUC_IFACE_CS},
        {"fmiGetRealOutputDerivatives", "cs-output-derivatives", FMUC_IFACE_CS},
        {"fmi3GetOutputDerivatives", "cs-output-derivatives", FMUC_IFACE_CS},
        /* the end of every worker's life cycle: api-instantiate probes it on a fresh instance
         * (a NULL instance is api-free-instance-null's, excluded below) */
        {"fmi2FreeInstance", "api-instantiate", -1},
        {"fmi3FreeInstance", "api-instantiate", -1},
        {"fmiFreeModelInstance", "api-instantiate", FMUC_IFACE_ME},
        {"fmiFreeSlaveInstance", "api-instantiate", FMUC_IFACE_CS},
        /* Co-Simulation status queries: api-mandatory-functions asks each after a step */
        {"fmi2GetStatus", "api-mandatory-functions", FMUC_IFACE_CS},
        {"fmi2GetRealStatus", "api-mandatory-functions", FMUC_IFACE_CS},
        {"fmi2GetIntegerStatus", "api-mandatory-functions", FMUC_IFACE_CS},
        {"fmi2GetBooleanStatus", "api-mandatory-functions", FMUC_IFACE_CS},
        {"fmi2GetStringStatus", "api-mandatory-functions", FMUC_IFACE_CS},
        {"fmiGetStatus", "api-mandatory-functions", FMUC_IFACE_CS},
        {"fmiGetRealStatus", "api-mandatory-functions", FMUC_IFACE_CS},
        {"fmiGetIntegerStatus", "api-mandatory-functions", FMUC_IFACE_CS},
        {"fmiGetBooleanStatus", "api-mandatory-functions", FMUC_IFACE_CS},
        {"fmiGetStringStatus", "api-mandatory-functions", FMUC_IFACE_CS},
    };
    if (!o->call_in_progress || o->hung_before || o->own_limit[0] ||
        (o->end != FMUC_WORKER_CRASHED && o->end != FMUC_WORKER_TIMEOUT &&
         o->end != FMUC_WORKER_EXITED_EARLY))
        return NULL;
    for (size_t i = 0; i < sizeof by / sizeof by[0]; i++) {
        size_t n = strlen(by[i].fn);
        if (strncmp(o->last_call, by[i].fn, n) == 0 && o->last_call[n] == '(' &&
            strncmp(o->last_call + n, "(NULL)", 6) != 0 &&
            (by[i].iface < 0 || by[i].iface == (int)iface))
            return strcmp(by[i].check, self_id) == 0 ? NULL : by[i].check;
    }
    return NULL;
}

/** A check whose short life cycle of n steps does not fit before the horizon of later runs
 *  (fmuc_shared_horizon, fmuc_shared_run_config) notes why, in why (kept when the horizon
 *  already said it), and skips the interface. */
static inline void apiu_note_short_horizon(fmuc_result *res, char *why, size_t len,
                                           const char *iface, int n)
{
    if (!why[0])
        snprintf(why, len,
                 "%s: the horizon of later runs ends within the first %d steps (a call hung "
                 "there, or the nominal run ended there at the FMU's request)",
                 iface, n);
    fmuc_result_note(res, "%s", why);
}

/** The worker o died inside a call, the same way and in the same function as the nominal run
 *  of iface: how that run ended, else NULL. Not for a death under the FMU's own CPU limit, nor
 *  in a phase every check needs (that keeps its one error and unusable interface). */
static inline const char *apiu_died_as_nominal(const fmuc_subject *s, fmuc_iface iface,
                                               const fmuc_worker_outcome *o)
{
    if (o->end == FMUC_WORKER_OK || !o->call_in_progress || o->own_limit[0] ||
        apiu_common_phase(o))
        return NULL;
    fmuc_worker_death d;
    fmuc_worker_death_of(o, &d);
    return fmuc_shared_nominal_died_in(s, iface, &d);
}

/** Run fn in a worker for interface iface. Returns the reply (owned by *o) or NULL when the
 *  worker did not end well. The FMU log goes to evidence "log". When the worker died, and
 *  probed is non-NULL and the worker's phase began with it, the death is the probed behaviour:
 *  nothing is recorded in res but the worker's evidence and *probed_death is set to 1 (the
 *  caller judges it). Any other death is an ERROR in res (and, in a phase every dynamic check
 *  needs, marks the interface unusable: apiu_note_death). Free *o always. */
static inline const cJSON *apiu_run_probed(const fmuc_subject *s, fmuc_result *res,
                                           const char *label, fmuc_iface iface, fmuc_worker_fn fn,
                                           void *payload, fmuc_worker_outcome *o,
                                           const char *probed, int *probed_death)
{
    fmuc_worker_spec spec;
    fmuc_diag d = {{0}, FMUC_OK};
    if (probed_death)
        *probed_death = 0;
    fmuc_worker_spec_init(&spec, s->fmu, s->opts);
    spec.label = label;
    if (fmuc_worker_run(&spec, fn, payload, o, &d) < 0) {
        fmuc_result_error(res, "%s: could not start a worker: %s", label, d.msg);
        return NULL;
    }
    fmuc_sim_add_log(o, fmuc_result_evidence(res));
    /* a death by a limit the FMU lowered answers nothing probed (fmuc_worker_outcome_to_result) */
    if (o->end != FMUC_WORKER_OK && !o->own_limit[0] && probed && probed_death &&
        strncmp(o->phase, probed, strlen(probed)) == 0) {
        apiu_absorb_probed_death(o, res);
        *probed_death = 1;
        return NULL;
    }
    const char *judge = apiu_judged_elsewhere(o, iface, res->id);
    if (judge) {
        /* e.g. a crash in fmi2GetFMUstate, which this check uses and eq-fmu-state judges */
        char why[600];
        fmuc_worker_death_text(o, why, sizeof why);
        apiu_absorb_probed_death(o, res);
        fmuc_result_na_part(res,
                            "%s: not judged: the worker ended with %s, a call that check %s "
                            "judges",
                            apiu_iface_name(iface), why, judge);
        return NULL;
    }
    /* a legal call that ended the nominal run too, the same way (e.g. every
     * fmi3UpdateDiscreteStates crashes): that run's check reports it */
    char death[600];
    fmuc_worker_death_text(o, death, sizeof death);
    const char *nominal = apiu_died_as_nominal(s, iface, o);
    if (nominal) {
        apiu_absorb_probed_death(o, res);
        fmuc_result_na_part(res,
                            "%s: not judged: the worker ended with %s, in the function in "
                            "which the nominal run ended too (%.300s)",
                            apiu_iface_name(iface), death, nominal);
        return NULL;
    }
    if (fmuc_worker_outcome_to_result(o, res)) {
        apiu_note_death(s, res, iface, o);
        return NULL;
    }
    return o->reply;
}

/** apiu_run_probed without a probed phase: every death is an ERROR. */
static inline const cJSON *apiu_run(const fmuc_subject *s, fmuc_result *res, const char *label,
                                    fmuc_iface iface, fmuc_worker_fn fn, void *payload,
                                    fmuc_worker_outcome *o)
{
    return apiu_run_probed(s, res, label, iface, fn, payload, o, NULL, NULL);
}

/** The FMI version of the FMU a check judges (1, 2 or 3: fmuc_fmu_fmi_version; 2 when the
 *  model description was not parsed). */
static inline int apiu_version(const fmuc_subject *s)
{
    return s->fmu->md_parsed ? fmuc_fmu_fmi_version(s->fmu) : 2;
}

/** The reply says the library did not load: a note, and 1 (the interface is skipped). */
static inline int apiu_load_failed(const cJSON *reply, fmuc_result *res, fmuc_iface t)
{
    const char *le = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(reply, "load_error"));
    if (!le)
        return 0;
    fmuc_result_note(res, "%s: the library does not load (see load-dlopen): %s",
                     apiu_iface_name(t), le);
    return 1;
}

/** One probe of interface t in a worker whose probed calls run in phases starting with probed
 *  (apiu_run_probed), judged the same way by every probing check: returns the reply to judge,
 *  or NULL when there is none, after putting into res what happened instead: a death in a
 *  probed phase is a violation ("<what>: the FMU ended (<how, where>)", *judged = 1), any other
 *  abnormal end a note "<what>: not probed (...)", a library that does not load a note. Free *o
 *  always. */
static inline const cJSON *apiu_probe_reply(const fmuc_subject *s, fmuc_result *res,
                                            const char *label, const char *what, fmuc_iface t,
                                            fmuc_worker_fn fn, void *payload,
                                            fmuc_worker_outcome *o, const char *probed,
                                            int *judged)
{
    fmuc_result scratch;
    int died = 0;
    *judged = 0;
    fmuc_result_init(&scratch, res->id, res->title, res->spec, res->level);
    const cJSON *r = apiu_run_probed(s, &scratch, label, t, fn, payload, o, probed, &died);
    if (!r && died) {
        char death[640];
        fmuc_worker_death_text(o, death, sizeof death);
        fmuc_result_violation(res, "%s: the FMU ended (%s)", what, death);
        *judged = 1;
    } else if (!r) {
        /* outside the probe (loading, a plain instantiation): not this check's */
        fmuc_result_note(res, "%s: not probed (%s)", what,
                         scratch.nmessages ? scratch.messages[0] : "the worker ended abnormally");
    }
    fmuc_result_clear(&scratch);
    if (r && apiu_load_failed(r, res, t))
        return NULL;
    return r;
}

/** Worker side: one finding of a probe in the reply's "findings" list: kind "fail", "letter"
 *  (a failure the check's interop profile downgrades: fmuc_result_violation_letter), "warn" or
 *  "note" and the message; the parent turns them into the result (apiu_report_findings). */
static inline void apiu_finding(cJSON *reply, const char *kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline void apiu_finding(cJSON *reply, const char *kind, const char *fmt, ...)
{
    char m[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    cJSON *list = cJSON_GetObjectItemCaseSensitive(reply, "findings");
    if (!list)
        list = cJSON_AddArrayToObject(reply, "findings");
    cJSON *it = cJSON_CreateObject();
    cJSON_AddStringToObject(it, "k", kind);
    cJSON_AddStringToObject(it, "m", m);
    cJSON_AddItemToArray(list, it);
}

/** Parent side: the reply's findings (apiu_finding) as violations, warnings and notes. */
static inline void apiu_report_findings(const cJSON *reply, fmuc_result *res)
{
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(reply, "findings"))
    {
        const char *k = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "k"));
        const char *m = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "m"));
        if (!k || !m)
            continue;
        if (strcmp(k, "fail") == 0)
            fmuc_result_violation(res, "%s", m);
        else if (strcmp(k, "letter") == 0)
            fmuc_result_violation_letter(res, "%s", m);
        else if (strcmp(k, "warn") == 0)
            fmuc_result_warn(res, "%s", m);
        else
            fmuc_result_note(res, "%s", m);
    }
}

/** Worker side: load iface, reply "load_error" on failure. 0 when loaded, -1 not. */
static inline int apiu_load(fmuc_worker_ctx *ctx, fmuc_iface t)
{
    if (fmuc_inst_load(ctx, (fmuc_iface)t) == 0)
        return 0;
    cJSON_AddStringToObject(fmuc_worker_reply(ctx), "load_error", fmuc_worker_load_error(ctx));
    return -1;
}

/** The last logged message of the instance named name (parent side), or NULL. */
static inline const char *apiu_last_log(const fmuc_worker_outcome *o, const char *name)
{
    const char *m = NULL;
    const cJSON *it;
    cJSON_ArrayForEach(it, o->log)
    {
        const cJSON *ij = cJSON_GetObjectItemCaseSensitive(it, "instance");
        const char *in = cJSON_GetStringValue(ij);
        /* FMI 3.0's logMessage names no instance: its messages are the worker's last */
        if (!ij || (in && strcmp(in, name) == 0))
            m = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "message"));
    }
    return m;
}

static inline int apiu_ok(int st)
{
    return fmuc_status_ok(st);
}

/** Worker side: instantiate and drive a fresh instance into state st (FMUC_ST_INST, _INIT,
 *  _EM, _CTM, _SC, _TERM) with legal calls (fmuc_drive_reach: no tolerance, no stop time).
 *  Returns the instance, or NULL with why[] set (the instance is freed then). */
static inline fmuc_inst *apiu_reach(fmuc_worker_ctx *ctx, fmuc_iface t, const fmuc_md *md,
                                    unsigned st, const char *name, char *why, size_t whylen)
{
    char b[32];
    fmuc_drive_start ds;
    fmuc_drive_reached r;
    fmuc_inst *in = fmuc_inst_instantiate(ctx, (fmuc_iface)t, NULL, name);
    if (!in) {
        snprintf(why, whylen, "%s returned NULL",
                 apiu_fn(fmuc_inst_version(ctx), t, FMUC_INST_OP_INSTANTIATE));
        return NULL;
    }
    fmuc_drive_start_init(&ds, md);
    if (fmuc_drive_reach(in, st, &ds, &r) == 0)
        return in;
    if (r.no_settle)
        snprintf(why, whylen, "the event iteration did not settle");
    else
        snprintf(why, whylen, "%s returned %s",
                 apiu_fn(fmuc_inst_fmi_version(in), t, (fmuc_inst_op)r.failed_op),
                 fmuc_status_name(fmuc_inst_fmi_version(in), r.status, b, sizeof b));
    if (r.status != FMUC_STATUS_FATAL)
        fmuc_inst_free(in);
    else
        fmuc_inst_abandon(in);
    return NULL;
}

/** Base-type class of a variable for value references: Enumeration shares Integer's. */
static inline int apiu_vr_class(int type)
{
    return type == FMUC_TYPE_ENUMERATION ? FMUC_TYPE_INTEGER : type;
}

/** A value reference not used by any variable of that base type (Integer incl. Enumeration). */
static inline fmi2ValueReference apiu_unused_vr(const fmuc_md *md, int type)
{
    uint64_t max = 0;
    int any = 0;
    for (size_t i = 0; i < md->nvars; i++)
        if (apiu_vr_class(md->vars[i].type) == type && (md->vars[i].has & FMUC_HAS_VALUE_REFERENCE)) {
            if (!any || md->vars[i].value_reference > max)
                max = md->vars[i].value_reference;
            any = 1;
        }
    if (!any || max < 0xFFFFFFFFu)
        return any ? (fmi2ValueReference)(max + 1) : 0x7FFFFFF0u;
    for (fmi2ValueReference v = 0;; v++) { /* the maximum is taken: first gap */
        int used = 0;
        for (size_t i = 0; i < md->nvars && !used; i++)
            used = apiu_vr_class(md->vars[i].type) == type && md->vars[i].value_reference == v;
        if (!used)
            return v;
    }
}

/** FMI 3.0: a value reference no variable uses (one space for all types, §2.4.7). */
static inline fmi2ValueReference apiu_unused_vr3(const fmuc_md *md)
{
    uint64_t max = 0;
    int any = 0;
    for (size_t i = 0; i < md->nvars; i++)
        if (md->vars[i].has & FMUC_HAS_VALUE_REFERENCE) {
            if (!any || md->vars[i].value_reference > max)
                max = md->vars[i].value_reference;
            any = 1;
        }
    if (!any || max < 0xFFFFFFFFu)
        return any ? (fmi2ValueReference)(max + 1) : 0x7FFFFFF0u;
    for (fmi2ValueReference v = 0;; v++) {
        int used = 0;
        for (size_t i = 0; i < md->nvars && !used; i++)
            used = md->vars[i].value_reference == v;
        if (!used)
            return v;
    }
}

/** One number v as a value of base type b into buf (at least 8 bytes): integers truncated,
 *  Boolean 0/1 (an int), Enumeration an int64_t, Float32/Float64 as such. */
static inline void apiu_put_number(fmuc_inst_base b, void *buf, double v)
{
    switch (b) {
    case FMUC_INST_FLOAT32: *(float *)buf = (float)v; break;
    case FMUC_INST_FLOAT64: *(double *)buf = v; break;
    case FMUC_INST_INT8: *(int8_t *)buf = (int8_t)v; break;
    case FMUC_INST_UINT8: *(uint8_t *)buf = (uint8_t)v; break;
    case FMUC_INST_INT16: *(int16_t *)buf = (int16_t)v; break;
    case FMUC_INST_UINT16: *(uint16_t *)buf = (uint16_t)v; break;
    case FMUC_INST_INT32: *(int32_t *)buf = (int32_t)v; break;
    case FMUC_INST_UINT32: *(uint32_t *)buf = (uint32_t)v; break;
    case FMUC_INST_INT64:
    case FMUC_INST_ENUMERATION: *(int64_t *)buf = (int64_t)v; break;
    case FMUC_INST_BOOLEAN: *(int *)buf = v != 0.0; break;
    default: *(uint64_t *)buf = (uint64_t)v; break;
    }
}

/** The instance API's base type of a model variable's base type (fmuc_md.h); FMUC_INST_NBASE for
 *  none. */
static inline fmuc_inst_base apiu_inst_base(unsigned bt)
{
    switch (bt) {
    case FMUC_BT_FLOAT32: return FMUC_INST_FLOAT32;
    case FMUC_BT_FLOAT64: return FMUC_INST_FLOAT64;
    case FMUC_BT_INT8: return FMUC_INST_INT8;
    case FMUC_BT_UINT8: return FMUC_INST_UINT8;
    case FMUC_BT_INT16: return FMUC_INST_INT16;
    case FMUC_BT_UINT16: return FMUC_INST_UINT16;
    case FMUC_BT_INT32: return FMUC_INST_INT32;
    case FMUC_BT_UINT32: return FMUC_INST_UINT32;
    case FMUC_BT_INT64: return FMUC_INST_INT64;
    case FMUC_BT_UINT64: return FMUC_INST_UINT64;
    case FMUC_BT_BOOLEAN: return FMUC_INST_BOOLEAN;
    case FMUC_BT_STRING: return FMUC_INST_STRING;
    case FMUC_BT_BINARY: return FMUC_INST_BINARY;
    case FMUC_BT_CLOCK: return FMUC_INST_CLOCK;
    case FMUC_BT_ENUMERATION: return FMUC_INST_ENUMERATION;
    default: return FMUC_INST_NBASE;
    }
}

/** The FMI 3.0 name of an instance base type's accessor suffix ("Float64"; Enumeration: "Int64"). */
static inline const char *apiu_base3_name(fmuc_inst_base b)
{
    static const char *const n[FMUC_INST_NBASE] = {
        "Float32", "Float64", "Int8", "UInt8", "Int16", "UInt16", "Int32", "UInt32",
        "Int64", "UInt64", "Boolean", "String", "Binary", "Clock", "Int64"};
    return (int)b >= 0 && b < FMUC_INST_NBASE ? n[b] : "?";
}

/* ---- nominal runs (cs-nominal-run, me-nominal-run) ----------------------------------------- */

static inline const fmuc_md_type *apiu_decl_type(const fmuc_md *md, const fmuc_md_var *v)
{
    for (size_t i = 0; v->declared_type && i < md->ntypes; i++)
        if (md->types[i].name && strcmp(md->types[i].name, v->declared_type) == 0)
            return &md->types[i];
    return NULL;
}

/* min/max of a variable (its own attribute, else its declared type's); 0 when absent */
static inline int apiu_min(const fmuc_md *md, const fmuc_md_var *v, double *x)
{
    const fmuc_md_type *t = apiu_decl_type(md, v);
    if ((v->has & FMUC_HAS_MIN) && isfinite(v->min)) {
        *x = v->min;
        return 1;
    }
    if (t && (t->has & FMUC_HAS_MIN) && isfinite(t->min)) {
        *x = t->min;
        return 1;
    }
    return 0;
}

static inline int apiu_max(const fmuc_md *md, const fmuc_md_var *v, double *x)
{
    const fmuc_md_type *t = apiu_decl_type(md, v);
    if ((v->has & FMUC_HAS_MAX) && isfinite(v->max)) {
        *x = v->max;
        return 1;
    }
    if (t && (t->has & FMUC_HAS_MAX) && isfinite(t->max)) {
        *x = t->max;
        return 1;
    }
    return 0;
}

/** Judge a nominal run: failed calls, non-finite values, event iteration, early end and output
 *  ranges (Integer/Enumeration outside [min,max] fail, Reals beyond a small tolerance warn,
 *  §2.2.3 / fmi2-rules C-18). Adds the summary and the plots to the evidence. */
/** The illegal-call probes of FMI version ver (2: fmi2_states.def, 3: fmi3_states.def) on every
 *  usable interface, judged into res (checks api-illegal-calls and api-illegal-calls-fmi3;
 *  implemented in api_illegal_calls.c). */
void apiu_illegal_calls_run(const fmuc_subject *s, fmuc_result *res, int ver);

/** A variable's name for messages ("?" when it has none). */
static inline const char *apiu_vname(const fmuc_md_var *v) { return v->name ? v->name : "?"; }

/** An FMI 3.0 status's name (fmi3OK, ...) in b. */
static inline const char *apiu_st3(int st, char *b, size_t n)
{
    return fmuc_status_name(3, st, b, n);
}

/** The name of a clock's intervalVariability (fmuc_interval_variability). */
static inline const char *apiu_iv_name(unsigned iv)
{
    static const char *const n[] = {"(not declared)", "constant",  "fixed",     "tunable",
                                    "changing",       "countdown", "triggered", "(invalid)"};
    return iv < sizeof n / sizeof n[0] ? n[iv] : "?";
}

/** A periodic clock: constant, fixed or tunable (FMI 3.0.2 §2.2.8.2). */
static inline int apiu_iv_periodic(unsigned iv)
{
    return iv == FMUC_IV_CONSTANT || iv == FMUC_IV_FIXED || iv == FMUC_IV_TUNABLE;
}

/** The grid of the short life cycles: the default experiment's startTime (else 0) and
 *  stepSize (else 0.01). */
static inline void apiu_grid(const fmuc_md *md, double *t0, double *h)
{
    const fmuc_md_experiment *ex = &md->experiment;
    *t0 = ex->present && ex->has_start ? ex->start_time : 0.0;
    *h = ex->present && ex->has_step && ex->step_size > 0 ? ex->step_size : 1e-2;
}

/** What apiu_short_steps did. */
typedef struct apiu_steps {
    int rc;             /* fmuc_step_rc of the last interval; FMUC_STEP_TERMINATE also when no
                           step was made (ME sizes unusable, out of memory: stopped says which) */
    fmuc_status status; /* FMUC_STEP_FAILED: the failed call's status */
    char call[160];     /* FMUC_STEP_FAILED: the failed call */
    char stopped[256];  /* why the steps ended early ("" when all were made) */
} apiu_steps;

/** The steps of a short life cycle (api-sandbox, api-process-state, api-null-arguments): from
 *  the state apiu_reach left (CS Step Mode, ME Event Mode), nsteps intervals of apiu_grid through
 *  the step-wise driver (fmuc_step.h): CS DoStep(t0 + k*h, h) with
 *  noSetFMUStatePriorToCurrentPoint, ME Continuous-Time Mode with one RK4 substep per interval
 *  and its events. ME without usable sizes (meu_model_build) makes no step. The worker phase of
 *  interval k is "step k+1". (api_util.c) */
void apiu_short_steps(fmuc_worker_ctx *ctx, fmuc_inst *in, fmuc_iface t, int nsteps,
                      apiu_steps *out);

/** --soak N (B20): after a nominal run that passed, repeat it N times, each a new instance, in
 *  one worker process; a failing repetition is a violation naming the run and time, the counts
 *  go into the evidence ("soak"). Nothing without --soak. (api_util.c) */
void apiu_soak(const fmuc_subject *s, const fmuc_sim_config *cfg, const char *label,
               fmuc_result *res);

static inline void apiu_judge_run(const fmuc_subject *s, const fmuc_sim_result *r, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    const int ver = fmuc_fmu_fmi_version(s->fmu);
    char b[32], nb[64];
    size_t explained = 0, discards = 0;
    cJSON *ev = fmuc_result_evidence(res);
    fmuc_sim_add_summary(r, ev);
    fmuc_sim_add_plots(r, ev, r->iface == FMUC_IFACE_ME ? "ME run" : "CS run");
    if (r->instantiate_failed) {
        fmuc_result_na(res, "%s returned NULL (see api-instantiate)",
                       fmuc_sim_fn_name_v(ver, r->iface, FMUC_SIM_FN_Instantiate, nb, sizeof nb));
        return;
    }
    for (size_t i = 0; i < r->nbad; i++) {
        const fmuc_sim_bad_call *c = &r->bad[i];
        const char *fn = fmuc_sim_fn_name_v(ver, r->iface, c->fn, nb, sizeof nb);
        if (c->status == fmi2Discard) {
            if (discards++ < 5)
                fmuc_result_note(res, "%s (%s) returned %s at t=%.9g (handled)", fn, c->detail,
                                 fmuc_status_name(ver, c->status, b, sizeof b), c->t);
            continue;
        }
        explained++;
        if (ver == 1 && r->iface == FMUC_IFACE_CS && c->status == fmi2Error && c->t == r->start &&
            (c->fn == FMUC_SIM_FN_GetReal || c->fn == FMUC_SIM_FN_GetInteger ||
             c->fn == FMUC_SIM_FN_GetBoolean)) {
            /* the run went on (sim.c): the 1.0 CS chart allows reads after the first step only */
            fmuc_result_warn(res, "%s (%s) returned %s at t=%.9g, before the first fmiDoStep: the "
                                  "Co-Simulation 1.0 state chart allows reads only after a step "
                                  "(erratum #80), but nearly every master reads right after "
                                  "fmiInitializeSlave (fmi1-rules D.2 condition 4); the values at "
                                  "the start time are not recorded",
                             fn, c->detail, fmuc_status_name(ver, c->status, b, sizeof b), c->t);
            continue;
        }
        if (c->status == fmi2Error || c->status == fmi2Fatal)
            fmuc_result_violation(res, "%s (%s) returned %s at t=%.9g", fn, c->detail,
                                  fmuc_status_name(ver, c->status, b, sizeof b), c->t);
        else if (c->status == fmi2Pending && ver != 3) /* FMI 3.0 has no Pending (§2.2.4) */
            fmuc_result_violation(res, "%s (%s) returned %s at t=%.9g (only an asynchronous "
                                       "%s or %s may)",
                                  fn, c->detail, fmuc_status_name(ver, c->status, b, sizeof b),
                                  c->t, ver == 1 ? "fmiDoStep" : "fmi2DoStep",
                                  ver == 1 ? "fmiGetStatus" : "fmi2GetStatus");
        else
            fmuc_result_violation(res, "%s (%s) returned the invalid status %d at t=%.9g", fn,
                                  c->detail, c->status, c->t);
    }
    if (r->bad_dropped)
        fmuc_result_note(res, "%zu further failed calls not listed", r->bad_dropped);
    if (r->time_mismatches) {
        /* FMI 2.0.4 §2.2.7 causality "independent": its value is initialized with
         * fmi2SetupExperiment and set by fmi2SetTime (ME) or by the arguments of fmi2DoStep
         * (CS); "The actual value can be inquired with fmi2GetReal" */
        const char *name = "?";
        for (size_t i = 0; i < md->nvars; i++)
            if (md->vars[i].causality == FMUC_CAUS_INDEPENDENT &&
                md->vars[i].value_reference == r->time_vr && md->vars[i].name)
                name = md->vars[i].name;
        explained++;
        /* a warning: the normative text says how the value is set, the sentence that it can be
         * read is bracketed (informative); an importer keeps its own time (the Reference-FMUs
         * 2.0 Feedthrough and Resource read 0 there in CS) */
        fmuc_result_warn(res, "the independent variable '%s' (vr %u) reads %.17g at "
                                   "t=%.17g (fmi2GetReal), and another time at %zu of %zu recorded "
                                   "points: its value is the time fmi2SetupExperiment, fmi2SetTime "
                                   "and fmi2DoStep set (§2.2.7)",
                              name, (unsigned)r->time_vr, r->time_bad_value, r->time_bad_t,
                              r->time_mismatches, r->npoints);
    }
    for (size_t i = 0; i < r->nnonfinite; i++) {
        const fmuc_sim_nonfinite *n = &r->nonfinite[i];
        long col = fmuc_sim_column_find(r, n->name);
        explained++;
        /* no FMI 2.0.4 text forbids a non-finite output as such (issue 16): it warns, as an
         * importer that passes it on propagates it; a non-finite state or derivative stops
         * any integration and stays a violation */
        void (*judge)(fmuc_result *, const char *, ...) __attribute__((format(printf, 2, 3))) =
            strcmp(n->what, "output") == 0 ? fmuc_result_warn : fmuc_result_violation;
        if (col >= 0)
            judge(res, "%s '%s' (vr %u) is %s at t=%.9g", n->what, n->name, r->cols[col].vr,
                  isnan(n->value) ? "NaN" : "infinite", n->t);
        else
            judge(res, "%s %s is %s at t=%.9g", n->what, n->name,
                  isnan(n->value) ? "NaN" : "infinite", n->t);
    }
    if (r->event_iteration_overflow) {
        explained++;
        fmuc_result_violation(res, "%s", r->stop_reason ? r->stop_reason : "event iteration did not settle");
    }
    if (r->stop_reason && !r->completed && !explained) {
        if (strncmp(r->stop_reason, "CVODE failed", 12) == 0)
            fmuc_result_warn(res, "the harness integrator could not complete the run: %s",
                             r->stop_reason);
        else if (strstr(r->stop_reason, "returned fmi2Discard") ||
                 strstr(r->stop_reason, "returned fmiDiscard") ||
                 strstr(r->stop_reason, "returned fmi3Discard"))
            fmuc_result_note(res, "run ended early: %s", r->stop_reason);
        else
            fmuc_result_violation(res, "run ended early: %s", r->stop_reason);
    }
    if (r->terminated_by_fmu)
        fmuc_result_note(res, "the FMU asked to terminate the simulation at t=%.9g", r->end_time);
    /* output ranges */
    for (size_t k = 0; k < r->ncols; k++) {
        const fmuc_sim_column *col = &r->cols[k];
        const fmuc_md_var *v = fmuc_md_var_at(md, col->var_index);
        if (v && col->causality == FMUC_CAUS_OUTPUT && col->type == FMUC_TYPE_BOOLEAN &&
            ver == 2) {
            /* FMI 2.0.4 §2.1.2 (fmi2TypesPlatform.h), "Values for fmi2Boolean": fmi2True 1,
             * fmi2False 0. An importer that compares with fmi2True reads any other value as
             * false, one that tests it as a C truth value as true. (The 1.0 and 3.0 instance
             * layers hand the harness 0 or 1: not judged there.) */
            size_t nbad = 0, first = 0;
            for (size_t p = 0; p < r->npoints; p++) {
                double x = fmuc_sim_value(r, p, k);
                if (isfinite(x) && x != 0.0 && x != 1.0 && !nbad++)
                    first = p;
            }
            if (nbad)
                fmuc_result_violation(res, "Boolean output '%s' (vr %u, line %u): fmi2GetBoolean "
                                           "gave %.17g at t=%.9g (%zu of %zu points); the values "
                                           "of fmi2Boolean are fmi2True (1) and fmi2False (0) "
                                           "(FMI 2.0.4 §2.1.2, fmi2TypesPlatform.h)",
                                      col->name, col->vr, v->line, fmuc_sim_value(r, first, k),
                                      r->times[first], nbad, r->npoints);
        }
        if (!v || col->causality != FMUC_CAUS_OUTPUT || col->type == FMUC_TYPE_BOOLEAN)
            continue;
        double mn = 0, mx = 0;
        int hmin = apiu_min(md, v, &mn), hmax = apiu_max(md, v, &mx);
        if (!hmin && !hmax)
            continue;
        int integer = col->type == FMUC_TYPE_INTEGER || col->type == FMUC_TYPE_ENUMERATION;
        double scale = fmax(1.0, fmax(hmin ? fabs(mn) : 0.0, hmax ? fabs(mx) : 0.0));
        double tol = integer ? 0.0 : 1e-6 * scale;
        size_t nout = 0, first = 0;
        for (size_t p = 0; p < r->npoints; p++) {
            double x = fmuc_sim_value(r, p, k);
            if (!isfinite(x))
                continue;
            if ((hmin && x < mn - tol) || (hmax && x > mx + tol)) {
                if (!nout)
                    first = p;
                nout++;
            }
        }
        if (!nout)
            continue;
        char lo[40] = "-inf", hi[40] = "+inf";
        if (hmin)
            snprintf(lo, sizeof lo, "%.17g", mn);
        if (hmax)
            snprintf(hi, sizeof hi, "%.17g", mx);
        if (integer && ver == 1 && r->iface == FMUC_IFACE_CS)
            /* FMI 1.0 CS gives a slave no way to end the simulation (fmi-standard#80): a model
             * that would stop itself is stepped on by every master (FMPy too) and may leave its
             * range; a warning, as the text leaves the master no choice */
            fmuc_result_warn(res, "output '%s' (vr %u, line %u): value %.17g at t=%.9g outside "
                                  "[min=%s, max=%s] (%zu of %zu points); Co-Simulation 1.0 has "
                                  "no terminate signal, so a slave cannot stop the master first "
                                  "(fmi-standard#80; FMPy steps on the same way)",
                             col->name, col->vr, v->line, fmuc_sim_value(r, first, k),
                             r->times[first], lo, hi, nout, r->npoints);
        else if (integer)
            fmuc_result_fail(res, "output '%s' (vr %u, line %u): value %.17g at t=%.9g outside "
                                  "[min=%s, max=%s] (%zu of %zu points)",
                             col->name, col->vr, v->line, fmuc_sim_value(r, first, k),
                             r->times[first], lo, hi, nout, r->npoints);
        else
            fmuc_result_warn(res, "output '%s' (vr %u, line %u): value %.17g at t=%.9g outside "
                                  "[min=%s, max=%s] beyond the tolerance %g (%zu of %zu points)",
                             col->name, col->vr, v->line, fmuc_sim_value(r, first, k),
                             r->times[first], lo, hi, tol, nout, r->npoints);
    }
}

/** cs-nominal-run and me-nominal-run: judge the shared nominal run of iface (apiu_judge_run),
 *  then the --soak repetitions. check_id names the check ("<id> (soak)" for the repetitions). */
static inline void apiu_nominal_check(const fmuc_subject *s, fmuc_iface iface, const char *check_id,
                                      fmuc_result *res)
{
    const char *lib = iface == FMUC_IFACE_ME ? s->fmu->lib_path_me : s->fmu->lib_path_cs;
    if (!lib) {
        fmuc_result_na(res, "no %s binary for this platform", apiu_iface_name(iface));
        return;
    }
    fmuc_sim_result own;
    const fmuc_sim_result *r = fmuc_shared_nominal_run(s, iface, check_id, res, &own);
    if (r) {
        fmuc_sim_config cfg;
        char label[96];
        const fmuc_md_experiment *e = &s->fmu->md.experiment;
        if (e->present && e->has_stop && r->stop < e->stop_time)
            fmuc_result_note(res, "the run was bounded to [%.9g, %.9g] of the default experiment's "
                                  "stopTime %.9g (fixedInternalStepSize %.9g: at most %g internal "
                                  "steps)",
                             r->start, r->stop, e->stop_time,
                             s->fmu->md.cs.fixed_internal_step_size, FMUC_NOMINAL_MAX_INTERNAL_STEPS);
        apiu_judge_run(s, r, res);
        fmuc_shared_nominal_config(s, iface, &cfg);
        snprintf(label, sizeof label, "%s (soak)", check_id);
        apiu_soak(s, &cfg, label, res);
    }
    fmuc_sim_result_free(&own);
}

/* ---- probe sets: many small probes, restarted after a crash ---------------------------------- */

/** One probe runs in the worker on its own fresh instance and returns its outcome as a cJSON
 *  item (a number = the status (fmuc_status), a string = why it was not carried out). Before the probed call
 *  it announces apiu_probe_phase(ctx, i, APIU_PROBE_CALL), before the cleanup after it
 *  APIU_PROBE_CLEANUP: a death there is the probe's result, a death before it (reaching the
 *  state with legal calls) is not. */
typedef cJSON *(*apiu_probe_fn)(fmuc_worker_ctx *ctx, size_t i, void *user);

#define APIU_PROBE_CALL "call"
#define APIU_PROBE_CLEANUP "cleanup"

static inline void apiu_probe_phase(fmuc_worker_ctx *ctx, size_t i, const char *stage)
{
    fmuc_worker_phase(ctx, "probe %zu %s", i, stage);
}

/** A probe's item when the worker died in its probed call or its cleanup:
 *  {"died": "<fmuc_worker_death_text>", "stage": "call"|"cleanup"}. */
static inline int apiu_probe_died(const cJSON *item, const char **why, const char **stage)
{
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(item, "died");
    if (!cJSON_IsString(d))
        return 0;
    *why = d->valuestring;
    *stage = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "stage"));
    if (!*stage)
        *stage = APIU_PROBE_CALL;
    return 1;
}

typedef struct apiu_probes {
    fmuc_iface iface;
    size_t n;
    apiu_probe_fn one;
    void *user;
    size_t from, to; /* internal */
} apiu_probes;

/* internal: a probe set with the probes not run again the way one hung */
typedef struct apiu_probe_job {
    apiu_probes *set;
    unsigned char *skip; /* NULL: none */
    char skip_why[256];
} apiu_probe_job;

static inline int apiu_probe_worker(fmuc_worker_ctx *ctx, void *payload)
{
    const apiu_probe_job *job = payload;
    const apiu_probes *p = job->set;
    if (apiu_load(ctx, p->iface) < 0)
        return 0;
    cJSON *out = cJSON_AddArrayToObject(fmuc_worker_reply(ctx), "results");
    for (size_t i = p->from; i < p->to; i++) {
        if (job->skip && job->skip[i]) {
            cJSON_AddItemToArray(out, cJSON_CreateString(job->skip_why));
            continue;
        }
        fmuc_worker_phase(ctx, "probe %zu", i);
        cJSON *item = p->one(ctx, i, p->user);
        cJSON_AddItemToArray(out, item ? item : cJSON_CreateNull());
    }
    return 0;
}

/* internal: when every probe that ran (two at least) ended the worker in its cleanup, in the same
 * call (e.g. fmi2FreeInstance hanging for any instance), the cleanup fails by itself, not
 * because of what was probed: those results become "not judged" strings */
static inline void apiu_probes_cleanup_systematic(cJSON **results, size_t n)
{
    const char *call = NULL, *why = NULL;
    size_t ran = 0, same = 0;
    for (size_t i = 0; i < n; i++) {
        const char *d, *st;
        if (!results[i] || cJSON_IsString(results[i]))
            continue; /* not carried out */
        ran++;
        if (!apiu_probe_died(results[i], &d, &st) || strcmp(st, APIU_PROBE_CLEANUP) != 0)
            continue;
        const char *c = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(results[i], "call"));
        if (!c || (call && strcmp(c, call) != 0))
            continue;
        call = c;
        why = why ? why : d;
        same++;
    }
    if (ran < 2 || same != ran)
        return;
    char text[800];
    snprintf(text, sizeof text, "not judged: the cleanup after every probe ended the worker in %s "
                                "(first: %s), whatever the probe did",
             call, why);
    for (size_t i = 0; i < n; i++)
        if (results[i] && !cJSON_IsString(results[i])) {
            cJSON_Delete(results[i]);
            results[i] = cJSON_CreateString(text);
        }
}

/** Run all probes of set; results[i] (owned by the caller, cJSON_Delete each) is the probe's
 *  item, an apiu_probe_died item when the worker died in its probed call or cleanup (res keeps
 *  its verdict: the caller judges that), or NULL when it was not carried out: the worker died
 *  while reaching the probe's state (res then carries an ERROR naming the probe, given by
 *  describe(i); when that was in a phase every dynamic check needs, the interface is marked
 *  unusable and the remaining probes are not made). Returns 0, or 1 when the library did not
 *  load (noted). */
static inline int apiu_run_probes(const fmuc_subject *s, fmuc_result *res, const char *label,
                                  apiu_probes *set, cJSON **results,
                                  const char *(*describe)(size_t i, void *user))
{
    size_t from = 0;
    apiu_probe_job job = {set, NULL, ""};
    /* every probe instantiates: one worker per probe for a once-per-process FMU (X10) */
    size_t chunk = apiu_once_per_process(s->fmu, set->iface) ? 1 : set->n;
    size_t solo = (size_t)-1; /* a probe run again alone (see below) */
    for (size_t i = 0; i < set->n; i++)
        results[i] = NULL;
    while (from < set->n) {
        fmuc_worker_outcome o;
        int probed = 0, retry = 0;
        size_t to = from == solo ? from + 1 : from + chunk < set->n ? from + chunk : set->n;
        set->from = from;
        set->to = to;
        /* every probe is a session of its own: the scaled timeout for that many */
        fmuc_options po = *s->opts;
        po.timeout_s = fmuc_shared_worker_timeout(s, to - from);
        fmuc_subject ps = {s->fmu, &po, s->shared};
        const cJSON *r = apiu_run_probed(&ps, res, label, set->iface, apiu_probe_worker, &job, &o,
                                         "probe ", &probed);
        if (r && apiu_load_failed(r, res, set->iface)) {
            fmuc_worker_outcome_free(&o);
            free(job.skip);
            return 1;
        }
        if (r) {
            const cJSON *arr = cJSON_GetObjectItemCaseSensitive(r, "results");
            for (size_t i = from; i < to; i++)
                results[i] = cJSON_Duplicate(cJSON_GetArrayItem(arr, (int)(i - from)), 1);
            fmuc_worker_outcome_free(&o);
            from = to;
            continue;
        }
        size_t k;
        char stage[16] = "";
        int got = sscanf(o.phase, "probe %zu %15s", &k, stage);
        if (!probed || got < 1 || k < from || k >= to) {
            if (probed) { /* a phase "probe ..." that is none of ours */
                char why[600];
                fmuc_worker_death_text(&o, why, sizeof why);
                fmuc_result_error(res, "%s: the worker died outside a probe: %s",
                                  apiu_iface_name(set->iface), why);
                apiu_note_death(s, res, set->iface, &o);
            }
            fmuc_worker_outcome_free(&o);
            break; /* died outside a probe (load, setup): nothing to continue with */
        }
        int in_probe = probed && (strcmp(stage, APIU_PROBE_CALL) == 0 ||
                                  strcmp(stage, APIU_PROBE_CLEANUP) == 0);
        if (in_probe) {
            char why[600];
            fmuc_worker_death_text(&o, why, sizeof why);
            cJSON *item = cJSON_CreateObject();
            cJSON_AddStringToObject(item, "died", why);
            cJSON_AddStringToObject(item, "stage", stage);
            char fn[64];
            snprintf(fn, sizeof fn, "%.*s", (int)strcspn(o.last_call, "("), o.last_call);
            cJSON_AddStringToObject(item, "call", fn);
            results[k] = item;
        } else {
            /* reaching the probe's state: legal calls, not what is probed (the worker evidence
             * is in res already) */
            char why[600];
            fmuc_worker_death_text(&o, why, sizeof why);
            const char *nominal = apiu_died_as_nominal(s, set->iface, &o);
            if (nominal && k != solo) {
                /* the earlier probes of this worker may have brought the FMU there (a count
                 * per process): probe k once more alone, in a fresh worker */
                retry = 1;
            } else if (nominal) {
                /* a legal call that ended the nominal run too, the same way, with this probe
                 * alone: that run's check reports it */
                char *t = NULL;
                if (asprintf(&t, "not run: reaching its state ended the worker with %s, in "
                                 "the function in which the nominal run ended too (%.300s)",
                             why, nominal) < 0)
                    t = NULL;
                results[k] = cJSON_CreateString(t ? t : "not run: reaching its state ended the "
                                                        "worker as the nominal run ended");
                free(t);
            } else {
                fmuc_result_error(res,
                                  "%s: the worker died before probe %zu (%s) could be made: %s",
                                  apiu_iface_name(set->iface), k,
                                  describe ? describe(k, set->user) : "?", why);
                apiu_note_death(s, res, set->iface, &o);
            }
        }
        int unusable = !in_probe && apiu_common_phase(&o);
        /* a call that hung is not made again the same way: the later probes of the same
         * function (described "<function> ...") are not run */
        size_t fl = strcspn(o.last_call, "(");
        if (o.end == FMUC_WORKER_TIMEOUT && o.call_in_progress && describe && fl > 0 &&
            (job.skip || (job.skip = calloc(set->n, 1)) != NULL)) {
            snprintf(job.skip_why, sizeof job.skip_why,
                     "not run: %.*s hung in probe %zu (%s) and is not called again that way",
                     (int)fl, o.last_call, k, describe(k, set->user));
            for (size_t i = k + 1; i < set->n; i++) {
                const char *di = describe(i, set->user);
                if (di && strncmp(di, o.last_call, fl) == 0 && (di[fl] == ' ' || !di[fl]))
                    job.skip[i] = 1;
            }
        }
        fmuc_worker_outcome_free(&o);
        if (k > from) { /* the probes before k passed: run them again to get their results */
            set->from = from;
            set->to = k;
            fmuc_worker_outcome o2;
            po.timeout_s = fmuc_shared_worker_timeout(s, k - from);
            const cJSON *r2 = apiu_run(&ps, res, label, set->iface, apiu_probe_worker, &job, &o2);
            if (r2) {
                const cJSON *arr = cJSON_GetObjectItemCaseSensitive(r2, "results");
                for (size_t i = from; i < k; i++)
                    results[i] = cJSON_Duplicate(cJSON_GetArrayItem(arr, (int)(i - from)), 1);
            }
            fmuc_worker_outcome_free(&o2);
        }
        if (unusable)
            break; /* every further probe needs the phase that crashed */
        from = retry ? k : k + 1;
        if (retry)
            solo = k;
    }
    for (size_t i = 0; job.skip && i < set->n; i++)
        if (job.skip[i] && !results[i])
            results[i] = cJSON_CreateString(job.skip_why);
    free(job.skip);
    apiu_probes_cleanup_systematic(results, set->n);
    return 0;
}


/* ---- variable values (api-start-values, api-variable-access) ------------------------------- */

/** Bytes of one element of base type b in the instance API's value arrays. */
size_t apiu_value_size(fmuc_inst_base b);
/** The start value of element k of variable i (0-based) as the XML writes it: a token of the
 *  start list, or the whole attribute; NULL when the XML does not give that element (an array
 *  whose list does not have nelem values). */
const char *apiu_start_token(const fmuc_md *md, size_t i, size_t k, size_t nelem);
/** Get / set nvr variables of base type b with n elements: fmuc_inst_get / fmuc_inst_set, and
 *  for Binary fmuc_inst_get_binary / fmuc_inst_set_binary with sizes (unused otherwise). */
fmuc_status apiu_get_values(fmuc_inst *in, fmuc_inst_base b, const fmuc_vr *vr, size_t nvr,
                            void *vals, size_t *sizes, size_t n);
fmuc_status apiu_set_values(fmuc_inst *in, fmuc_inst_base b, const fmuc_vr *vr, size_t nvr,
                            const void *vals, const size_t *sizes, size_t n);
/** The accessor of base type b in FMI version ver into buf: "fmi3GetFloat64", "fmi2SetReal"
 *  (FMI 2.0: Enumeration through Integer). */
const char *apiu_accessor(int ver, fmuc_inst_base b, int set, char *buf, size_t n);
/** xs:hexBinary text t (surrounding blanks allowed) into out[0..cap): the byte count, or -1 when
 *  t is not hexBinary or does not fit. out may be NULL to count. */
long apiu_hex_decode(const char *t, uint8_t *out, size_t cap);
/** 1 when s is well-formed UTF-8 (no overlong forms, no surrogates, at most U+10FFFF). */
int apiu_utf8_valid(const char *s);
/** Per variable (0-based), the 1-based index of the first variable (document order) of its
 *  alias set (the variables of one base kind sharing its valueReference), 0 when it shares its
 *  valueReference with none; from the subject's sorted index, linear. malloc'ed; NULL when out
 *  of memory. */
uint32_t *apiu_alias_first(const fmuc_subject *s);

#endif
