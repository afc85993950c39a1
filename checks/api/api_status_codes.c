/* api-status-codes: functions return only the statuses allowed for them (FMI 2.0.4 §2.1.3,
 * fmi2-rules C.3): fmi2Discard only from the setters, ME fmi2GetReal / GetDerivatives /
 * GetContinuousStates / GetEventIndicators / SetContinuousStates and CS fmi2DoStep /
 * fmi2Get*Status; fmi2Pending only from CS fmi2DoStep / fmi2GetStatus; nothing outside
 * fmi2OK..fmi2Pending. Judged over the calls of a nominal run of each declared interface.
 * FMI 3.0 (FMI 3.0.2 §2.2.4, fmi3-rules C.4): every function may return fmi3Discard, and there is
 * no Pending: only a value outside fmi3OK..fmi3Fatal is a violation. */
#include "api_util.h"

static int discard_allowed(fmuc_iface t, int fn)
{
    switch (fn) {
    case FMUC_SIM_FN_SetReal:
    case FMUC_SIM_FN_SetInteger:
    case FMUC_SIM_FN_SetBoolean:
    case FMUC_SIM_FN_SetString:
        return 1;
    case FMUC_SIM_FN_GetReal:
    case FMUC_SIM_FN_GetDerivatives:
    case FMUC_SIM_FN_GetContinuousStates:
    case FMUC_SIM_FN_GetEventIndicators:
    case FMUC_SIM_FN_SetContinuousStates:
        return t == FMUC_IFACE_ME;
    case FMUC_SIM_FN_DoStep:
    case FMUC_SIM_FN_GetStatus:
    case FMUC_SIM_FN_GetRealStatus:
    case FMUC_SIM_FN_GetBooleanStatus:
        return t == FMUC_IFACE_CS;
    default:
        return 0;
    }
}

/* FMI 1.0: ME 1.0 gives fmiDiscard to model evaluation without naming functions (ME1:types),
 * so any; CS 1.0: fmiDoStep did part of the step (D-04) or a status kind is unavailable (D-05),
 * and the setters as in 2.0; fmiPending only from fmiDoStep / fmiGetStatus of a slave with
 * canRunAsynchronuously (D-03). ME 1.0's fmiStatus ends at fmiFatal. */
static int allowed_v1(fmuc_iface t, int fn, int k, int async)
{
    if (k == fmi2Discard)
        return t == FMUC_IFACE_ME || discard_allowed(t, fn);
    if (k == fmi2Pending)
        return t == FMUC_IFACE_CS && async &&
               (fn == FMUC_SIM_FN_DoStep || fn == FMUC_SIM_FN_GetStatus);
    return k >= fmi2OK && k <= fmi2Fatal;
}

/* async: the FMU declares canRunAsynchronuously (2.0 §4.2.2: fmi2Pending "is returned if the
 * slave executes the function in an asynchronous way", which the flag announces) */
static int allowed(int ver, fmuc_iface t, int fn, int k, int async)
{
    if (ver == 3)
        return k >= fmi2OK && k <= fmi2Fatal;
    if (k == fmi2Discard)
        return discard_allowed(t, fn);
    if (k == fmi2Pending)
        return t == FMUC_IFACE_CS && async &&
               (fn == FMUC_SIM_FN_DoStep || fn == FMUC_SIM_FN_GetStatus);
    return k >= fmi2OK && k <= fmi2Fatal;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    apiu_iface ifs[2];
    size_t n = apiu_usable_ifaces(s, res, FMUC_UNUSABLE_RUN, ifs), tested = 0;
    if (!n) {
        fmuc_result_na(res, "no binary for this platform");
        return;
    }
    const int ver = apiu_version(s);
    const int async = (s->fmu->md.cs.caps >> FMUC_CAP_CAN_RUN_ASYNCHRONUOUSLY) & 1u;
    for (size_t i = 0; i < n; i++) {
        fmuc_sim_result own;
        const fmuc_sim_result *r =
            fmuc_shared_nominal_run(s, ifs[i].type, "api-status-codes", res, &own);
        if (r && r->instantiate_failed) {
            fmuc_result_note(res, "%s: %s returned NULL (see api-instantiate)", ifs[i].name,
                             apiu_fn(ver, ifs[i].type, FMUC_INST_OP_INSTANTIATE));
        } else if (r) {
            tested++;
            for (int fn = 0; fn < FMUC_SIM_NFN; fn++)
                for (int k = 0; k < FMUC_SIM_NSTATUS; k++) {
                    uint64_t cnt = r->status_counts[fn][k];
                    if (!cnt || (k < FMUC_SIM_NSTATUS - 1 &&
                                 (ver == 1 ? allowed_v1(ifs[i].type, fn, k, async)
                                           : allowed(ver, ifs[i].type, fn, k, async))))
                        continue;
                    /* FMI 3.0: the value 5 (Pending in 2.0) is outside fmi3Status as well */
                    int invalid = k == FMUC_SIM_NSTATUS - 1 || (ver == 3 && k == fmi2Pending);
                    char b[32], nb[64];
                    const char *fname = fmuc_sim_fn_name_v(ver, ifs[i].type, fn, nb, sizeof nb);
                    char when[48] = "";
                    for (size_t j = 0; j < r->nbad; j++)
                        if (r->bad[j].fn == fn &&
                            (k == FMUC_SIM_NSTATUS - 1
                                 ? (r->bad[j].status < 0 || r->bad[j].status > fmi2Pending)
                                 : r->bad[j].status == k)) {
                            snprintf(when, sizeof when, ", first at t=%.9g", r->bad[j].t);
                            break;
                        }
                    if (invalid)
                        fmuc_result_violation(res, "%s: %s returned a status outside %s "
                                                   "(%llu times%s)",
                                              ifs[i].name, fname,
                                              ver == 1   ? "fmiOK..fmiPending"
                                              : ver == 3 ? "fmi3OK..fmi3Fatal"
                                                         : "fmi2OK..fmi2Pending",
                                              (unsigned long long)cnt, when);
                    else if (ver == 1)
                        fmuc_result_violation(res, "%s: %s returned %s (%llu times%s), which only %s",
                                              ifs[i].name, fname, fmuc_status_name(1, k, b, sizeof b),
                                              (unsigned long long)cnt, when,
                                              k == fmi2Pending
                                                  ? "fmiDoStep or fmiGetStatus of a slave with "
                                                    "canRunAsynchronuously=\"true\" may return"
                                                  : "fmiDoStep, the status queries and the setters "
                                                    "of a slave may return");
                    else
                        fmuc_result_violation(res, "%s: %s returned %s (%llu times%s), which only %s",
                                              ifs[i].name, fname,
                                              fmuc_status_name(2, k, b, sizeof b),
                                              (unsigned long long)cnt, when,
                                              k == fmi2Pending
                                                  ? "a CS fmi2DoStep or fmi2GetStatus of an FMU that "
                                                    "declares canRunAsynchronuously=\"true\" may return"
                                                  : "setters, ME state/derivative/indicator access and "
                                                    "CS fmi2DoStep/fmi2Get*Status may return");
                }
            fmuc_sim_add_summary(r, fmuc_result_evidence(res));
        }
        fmuc_sim_result_free(&own);
    }
    if (!tested && res->verdict <= FMUC_VERDICT_PASS)
        fmuc_result_na(res, "no interface could be simulated");
}

const fmuc_check fmuc_check_api_status_codes = {
    .id = "api-status-codes",
    .title = "Functions return only the status codes allowed for them",
    .spec = "FMI 2.0.4 §2.1.3; FMI 3.0.2 §2.2.4; FMI 1.0 ME (fmiStatus: OK..Fatal); FMI 1.0 CS "
            "§3.2.3 (fmiDiscard from fmiDoStep and the status queries, fmiPending only with "
            "canRunAsynchronuously)",
    .level = FMUC_LEVEL_MUST,
    .why = "A master branches on the returned status; fmi2Discard or fmi2Pending from a function "
           "that may not return it has no defined handling, so the master may go on with values "
           "never written.",
    .fix = "Return fmi2Discard only from the functions that may discard and fmi2Pending only from "
           "asynchronous fmi2DoStep/fmi2GetStatus; map other internal failures to fmi2Error.",
    .applies = FMUC_APPLIES_MECS,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .run = run,
};
