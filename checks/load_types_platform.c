/* load-types-platform: fmi2GetTypesPlatform() returns "default" (fmi2TypesPlatform), called in a
 * worker (FMI 2.0.4 §2.1.4). */
#include "load_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    loadu_lib libs[2];
    size_t n = loadu_libs(s->fmu, libs);
    int ran = 0;
    for (size_t i = 0; i < n; i++) {
        fmuc_worker_outcome o;
        const cJSON *reply = loadu_run(s, &libs[i], LOADU_GET_TYPES_PLATFORM, "load-types-platform", &o, res);
        const char *error;
        if (!reply) {
            ran = 1;
        } else if (!loadu_loaded(reply, &error)) {
            fmuc_result_note(res, "%s does not load (see load-dlopen): %s", libs[i].entry, error);
        } else if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(reply, "provided"))) {
            fmuc_result_note(res, "%s does not export fmi2GetTypesPlatform (see load-exports)",
                             libs[i].entry);
        } else {
            ran = 1;
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(reply, "value");
            if (!cJSON_IsString(v))
                fmuc_result_violation(res, "%s: fmi2GetTypesPlatform() returned NULL; expected \"default\"",
                                      libs[i].entry);
            else if (strcmp(v->valuestring, "default") != 0)
                fmuc_result_violation(res, "%s: fmi2GetTypesPlatform() returned \"%s\"%s; expected \"default\"",
                                      libs[i].entry, v->valuestring,
                                      cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(reply, "truncated"))
                                          ? "..."
                                          : "");
        }
        fmuc_worker_outcome_free(&o);
    }
    if (!ran)
        fmuc_result_na(res, "no loadable library exporting fmi2GetTypesPlatform");
}

const fmuc_check fmuc_check_load_types_platform = {
    .id = "load-types-platform",
    .title = "fmi2GetTypesPlatform returns \"default\"",
    .spec = "FMI 2.0.4 §2.1.4",
    .level = FMUC_LEVEL_MUST,
    .applies = FMUC_APPLIES_ANY,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
