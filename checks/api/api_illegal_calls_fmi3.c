/* api-illegal-calls-fmi3: FMI 3.0: a call the state machine does not allow in the current state
 * must return fmi3Error (FMI 3.0.2 §2.2.4: fmi3Error is the answer to "calls not allowed in the
 * current state"; the per-state "Allowed Function Calls" of §3.2 and §4.2 as the table
 * harness/src/fmi3_states.def, fmi3-rules C-21, D.1, D.2). FMI 2.0 left the same calls undefined
 * (api-illegal-calls warns), 3.0 makes the refusal a must: a separate check. The probes are
 * api-illegal-calls' (apiu_illegal_calls_run): for each reachable state (Instantiated,
 * Initialization, Event, Continuous-Time or Step Mode, Terminated) every representative call the
 * table does not allow there, plus fmi3SetFloat64 of a fixed parameter after initialization
 * (conditions 4/6), each on an instance of its own; a crash or hang is the violation. Scheduled
 * Execution (§5.2, fmi3-rules D.3) by the same table: Instantiated, Initialization Mode, Clock
 * Activation Mode and Terminated, fmi3ActivateModelPartition of an input clock outside Clock
 * Activation Mode, a fixed parameter set in Clock Activation Mode (condition 25). */
#include "api_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    apiu_illegal_calls_run(s, res, 3);
}

const fmuc_check fmuc_check_api_illegal_calls_fmi3 = {
    .id = "api-illegal-calls-fmi3",
    .title = "FMI 3.0: calls not allowed in the current state return fmi3Error",
    .spec = "FMI 3.0.2 §2.2.4, §3.2, §4.2, §5.2",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_WARN,
    .interop_why = "a conforming importer makes only the calls the state machine allows: an FMU that does not refuse others cannot break it",
    .why = "FMI 3.0 promises fmi3Error for an out-of-place call; an importer or a test harness "
           "that probes the state (or has a sequencing bug) is misled when the FMU acts on it or "
           "crashes instead.",
    .fix = "Keep the current state (Instantiated, Initialization, Event, Continuous-Time, Step or "
           "Clock Activation Mode, Terminated) in the instance and return fmi3Error with a log "
           "message from every function called outside its states.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
