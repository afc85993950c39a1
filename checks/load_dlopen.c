/* load-dlopen: each model library of a declared interface loads (dlopen RTLD_NOW in a worker),
 * so all its dependencies and symbols resolve (FMI 2.0.4 §2.1.1, §2.3). */
#include "load_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    loadu_lib libs[2];
    size_t n = loadu_libs(s->fmu, libs);
    if (!n) {
        fmuc_result_na(res, "no binary for this platform");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        fmuc_worker_outcome o;
        const cJSON *reply = loadu_run(s, &libs[i], LOADU_LOAD_ONLY, "load-dlopen", &o, res);
        const char *error;
        if (reply && !loadu_loaded(reply, &error))
            fmuc_result_violation(res, "%s (%s) does not load: %s", libs[i].entry,
                                  libs[i].shared ? "ModelExchange and CoSimulation"
                                  : libs[i].iface == fmi2CoSimulation ? "CoSimulation"
                                                                      : "ModelExchange",
                                  error);
        fmuc_worker_outcome_free(&o);
    }
}

const fmuc_check fmuc_check_load_dlopen = {
    .id = "load-dlopen",
    .title = "The shared library loads",
    .spec = "FMI 2.0.4 §2.1.1, §2.3",
    .level = FMUC_LEVEL_MUST,
    .applies = FMUC_APPLIES_ANY,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
