/* load-version: fmi2GetVersion() returns "2.0" (fmi2Version of fmi2Functions.h), called in a
 * worker (FMI 2.0.4 §2.1.4). */
#include "load_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    if (fmuc_fmu_fmi_version(s->fmu) == 1) /* FMI 1.0: fmiGetVersion returns fmiVersion "1.0" */
        loadu_check_string_fn(s, res, LOADU_GET_VERSION, "load-version", NULL, "1.0");
    else
        loadu_check_string_fn(s, res, LOADU_GET_VERSION, "load-version", "fmi2GetVersion", "2.0");
}

const fmuc_check fmuc_check_load_version = {
    .id = "load-version",
    .title = "fmi2GetVersion returns \"2.0\" (FMI 1.0: fmiGetVersion returns \"1.0\")",
    .spec = "FMI 2.0.4 §2.1.4; FMI 1.0 ME (fmiGetVersion, fmiModelFunctions.h: fmiVersion); FMI 1.0 CS (fmiFunctions.h)",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers call fmi2GetVersion to confirm the binary speaks FMI 2.0; any other string "
           "makes them reject the FMU or treat it as another FMI version.",
    .fix = "Return fmi2Version from the standard header fmi2Functions.h (\"2.0\") in "
           "fmi2GetVersion.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V1 | FMUC_V2,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
