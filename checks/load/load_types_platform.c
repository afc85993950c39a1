/* load-types-platform: fmi2GetTypesPlatform() returns "default" (fmi2TypesPlatform), called in a
 * worker (FMI 2.0.4 §2.1.4). */
#include "load_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    if (fmuc_fmu_fmi_version(s->fmu) == 1) /* FMI 1.0: fmiGetModelTypesPlatform (ME) and
                                                fmiGetTypesPlatform (CS) return "standard32" */
        loadu_check_string_fn(s, res, LOADU_GET_TYPES_PLATFORM, "load-types-platform", NULL,
                              "standard32");
    else
        loadu_check_string_fn(s, res, LOADU_GET_TYPES_PLATFORM, "load-types-platform",
                              "fmi2GetTypesPlatform", "default");
}

const fmuc_check fmuc_check_load_types_platform = {
    .id = "load-types-platform",
    .title = "fmi2GetTypesPlatform returns \"default\" (FMI 1.0: \"standard32\")",
    .spec = "FMI 2.0.4 §2.1.4; FMI 1.0 ME (fmiGetModelTypesPlatform, fmiModelTypes.h: standard32); FMI 1.0 CS (fmiGetTypesPlatform, fmiPlatformTypes.h)",
    .level = FMUC_LEVEL_MUST,
    .why = "An importer checks fmi2GetTypesPlatform to make sure its fmi2Real/Integer/Boolean "
           "types match the binary's; another string makes it refuse the FMU or pass values of "
           "the wrong size.",
    .fix = "Compile against the unmodified standard header fmi2TypesPlatform.h and return "
           "fmi2TypesPlatform (\"default\") from fmi2GetTypesPlatform.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V1 | FMUC_V2,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
