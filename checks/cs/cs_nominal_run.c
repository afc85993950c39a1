/* cs-nominal-run: the Co-Simulation run from startTime to stopTime of the DefaultExperiment at
 * its step size, inputs from --input or held at their start values: every call returns
 * fmi2OK/fmi2Warning, outputs are finite and within [min,max] (FMI 2.0.4 §4.2.2, §2.1.3, §2.2.3);
 * fmi2Discard from fmi2DoStep is handled via fmi2GetBooleanStatus/GetRealStatus. FMI 3.0: the
 * same run through fmi3DoStep (without Event Mode; its terminateSimulation and lastSuccessfulTime
 * outputs instead of the status queries), outputs of every numeric type, arrays element-wise. */
#include "api/api_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    apiu_nominal_check(s, FMUC_IFACE_CS, "cs-nominal-run", res);
}

const fmuc_check fmuc_check_cs_nominal_run = {
    .id = "cs-nominal-run",
    .title = "A nominal Co-Simulation run succeeds with in-range outputs (non-finite ones warn)",
    .spec = "FMI 2.0.4 §4.2.2, §2.1.3, §2.2.3; FMI 3.0.2 §4.2.1, §2.2.4, §2.2.7.3; FMI 1.0 CS §3.4 "
            "(fmiInitializeSlave, fmiDoStep), §3.2.3 (fmiDiscard: fmiLastSuccessfulTime)",
    .level = FMUC_LEVEL_MUST,
    .why = "If the plain default experiment does not run through with finite outputs inside their "
           "declared bounds, any co-simulation using this FMU fails or propagates bad values to "
           "others.",
    .fix = "Run the FMU over its DefaultExperiment in a simple master (e.g. fmpy simulate) and "
           "fix the failing call, or correct min/max and the default experiment to what the model "
           "supports.",
    .applies = FMUC_APPLIES_CS,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .run = run,
};
