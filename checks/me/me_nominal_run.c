/* me-nominal-run: the Model Exchange run with the harness's own host loop (§3.2.4): initial
 * event iteration, CVODE BDF with root finding on the event indicators, time events,
 * fmi2CompletedIntegratorStep after every accepted step; every call succeeds, derivatives,
 * event indicators, states and outputs are finite, every event iteration settles within 1000
 * fmi2NewDiscreteStates calls (FMI 2.0.4 §3.2.2, §3.2.4, fmi2-rules §F). FMI 3.0: the same loop
 * with fmi3UpdateDiscreteStates (Event Mode after fmi3ExitInitializationMode, §3.2.1), the
 * states counted as the elements of the ContinuousStateDerivative variables. */
#include "api/api_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    apiu_nominal_check(s, FMUC_IFACE_ME, "me-nominal-run", res);
}

const fmuc_check fmuc_check_me_nominal_run = {
    .id = "me-nominal-run",
    .title = "A nominal Model Exchange run succeeds (CVODE, events settle, values finite)",
    .spec = "FMI 2.0.4 §3.2.2, §3.2.4; FMI 3.0.2 §3.2.1, §3.2.2, §2.3.5; FMI 1.0 ME §2.9 (calling "
            "sequence; fmiInitialize, fmiEventUpdate, fmiCompletedIntegratorStep)",
    .level = FMUC_LEVEL_MUST,
    .why = "If a standard integrator cannot run the default experiment through Model Exchange, "
           "any importer's solver will fail or get non-finite values from the FMU.",
    .fix = "Simulate the FMU with an external solver (e.g. fmpy with CVODE) over its default "
           "experiment and fix the first failing call or non-finite value the messages name.",
    .applies = FMUC_APPLIES_ME,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .run = run,
};
