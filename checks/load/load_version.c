/* load-version: fmi2GetVersion() returns "2.0" (fmi2Version of fmi2Functions.h), called in a
 * worker (FMI 2.0.4 §2.1.4). FMI 3.0: fmi3GetVersion() returns the version of the fmi3Functions.h
 * the FMU was compiled with, "3.0" for the standard's header (FMI 3.0.2 §2.2.5, fmi3-rules C-02);
 * any "3.x" is accepted, the major version is what an importer relies on. */
#include "load_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    if (fmuc_fmu_fmi_version(s->fmu) == 1) /* FMI 1.0: fmiGetVersion returns fmiVersion "1.0" */
        loadu_check_string_fn(s, res, LOADU_GET_VERSION, "load-version", NULL, "1.0");
    else if (s->fmu->md.fmi == FMUC_FMI3)
        loadu_check_string_fn(s, res, LOADU_GET_VERSION, "load-version", "fmi3GetVersion", "3.*");
    else
        loadu_check_string_fn(s, res, LOADU_GET_VERSION, "load-version", "fmi2GetVersion", "2.0");
}

const fmuc_check fmuc_check_load_version = {
    .id = "load-version",
    .title = "fmi2GetVersion returns \"2.0\" (FMI 1.0: fmiGetVersion \"1.0\"; fmi3GetVersion \"3.x\")",
    .spec = "FMI 2.0.4 §2.1.4; FMI 3.0.2 §2.2.5; FMI 1.0 ME (fmiGetVersion, fmiModelFunctions.h: "
            "fmiVersion); FMI 1.0 CS (fmiFunctions.h)",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers call fmi2GetVersion to confirm the binary speaks FMI 2.0; any other string "
           "makes them reject the FMU or treat it as another FMI version.",
    .fix = "Return fmi2Version from the standard header fmi2Functions.h (\"2.0\") in "
           "fmi2GetVersion.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
