/* load-dlopen: each model library of a declared interface loads (dlopen RTLD_NOW in a worker),
 * so all its dependencies and symbols resolve (FMI 2.0.4 §2.1.1, §2.3). A library that does not
 * load only because a library it depends on is neither shipped nor on this system warns: §2.3
 * says an FMU *should* contain what it needs to load and lets the receiver provide run-time
 * libraries that cannot be shipped (documented in documentation/externalDependencies). */
#include <string.h>

#include "load_util.h"

/* The dlerror text names a dependency (a bare file name, not the library's own path) that
 * could not be opened: "libx.so.3: cannot open shared object file: ...". Its name into dep. */
static int missing_dependency(const char *error, char *dep, size_t n)
{
    const char *tail = error ? strstr(error, ": cannot open shared object file") : NULL;
    if (!tail)
        return 0;
    const char *start = tail;
    while (start > error && !(start[-1] == ' ' && start - 1 > error && start[-2] == ':'))
        start--;
    size_t len = (size_t)(tail - start);
    if (len == 0 || len >= n || memchr(start, '/', len))
        return 0;
    memcpy(dep, start, len);
    dep[len] = '\0';
    return 1;
}

static int has_external_dependencies_doc(const fmuc_fmu *fmu)
{
    const fmuc_zip_listing *l = &fmu->listing;
    for (size_t i = 0; i < l->nentries; i++)
        if (l->entries[i].name &&
            (strcmp(l->entries[i].name, "documentation/externalDependencies.txt") == 0 ||
             strcmp(l->entries[i].name, "documentation/externalDependencies.html") == 0))
            return 1;
    return 0;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    loadu_lib libs[3];
    size_t n = loadu_libs(s->fmu, libs);
    if (!n) {
        fmuc_result_na(res, "no binary for this platform");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        fmuc_worker_outcome o;
        const cJSON *reply = loadu_run(s, &libs[i], LOADU_LOAD_ONLY, "load-dlopen", &o, res);
        const char *error;
        const char *what = loadu_ifaces_name(libs[i].ifaces);
        char dep[256];
        if (reply && !loadu_loaded(reply, &error)) {
            if (missing_dependency(error, dep, sizeof dep))
                fmuc_result_warn(res, "%s (%s) does not load here: the library it depends on, "
                                 "\"%s\", is neither shipped in the FMU nor installed on this "
                                 "system (%s); an FMU should contain what it needs to load, or "
                                 "document it (§2.3)%s",
                                 libs[i].entry, what, dep, error,
                                 has_external_dependencies_doc(s->fmu)
                                     ? "; documentation/externalDependencies is there"
                                     : "; there is no documentation/externalDependencies");
            else
                fmuc_result_violation(res, "%s (%s) does not load: %s", libs[i].entry, what,
                                      error);
        }
        fmuc_worker_outcome_free(&o);
    }
}

const fmuc_check fmuc_check_load_dlopen = {
    .id = "load-dlopen",
    .title = "The shared library loads",
    .spec = "FMI 2.0.4 §2.1.1, §2.3; FMI 3.0.2 §2.5.1.4.1; FMI 1.0 ME "
            "(binaries/<platform>/<modelIdentifier>.so); FMI 1.0 CS (the same)",
    .level = FMUC_LEVEL_MUST,
    .why = "A library that does not load (missing dependency or unresolved symbol) makes the FMU "
           "unusable on this platform: the importer fails before the first FMI call.",
    .fix = "Link the library with all its dependencies resolved (-Wl,--no-undefined), ship "
           "non-system libraries next to it with RPATH=$ORIGIN, and test loading it on a clean "
           "system.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
