/* zip-external-dependencies: FMI 3.0: an FMU with external dependencies documents them in
 * documentation/externalDependencies.txt or .html (FMI 3.0.2 §2.5.1.1, §2.5.1.4.3; fmi3-rules A-19).
 * Two kinds are visible here: needsExecutionTool="true" on an interface, which declares that the
 * FMU needs an external tool to run (§2.4.2, §2.5.3; A-28), and a library of this platform's
 * binaries/<platform tuple>/ whose DT_NEEDED names a library that is neither a base system
 * library (glibc, libgcc_s, libstdc++, zlib: load_util.h) nor shipped beside it, nor a path (the
 * machine must provide it: an external dependency; load-needed judges the same entries against
 * FMI's "self-contained" should). Other platforms' binaries cannot be read here. */
#include "check.h"
#include "load/load_util.h"
#include "zip_util.h"

typedef struct ext_seen {
    size_t n;
    char file[512], needed[256]; /* the first */
} ext_seen;

static void on_needed(void *user, const char *file, const char *needed, loadu_needed_kind kind)
{
    ext_seen *x = user;
    if (kind != LOADU_NEEDED_EXTERNAL && kind != LOADU_NEEDED_PATH)
        return;
    if (!x->n++) {
        zipu_show(x->file, sizeof x->file, file);
        zipu_show(x->needed, sizeof x->needed, needed);
    }
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    const fmuc_zip_listing *l = &s->fmu->listing;
    const fmuc_md_interface *ifs[3] = {&md->me, &md->cs, &md->se};
    static const char *const names[3] = {"ModelExchange", "CoSimulation", "ScheduledExecution"};
    int k = 0;
    while (k < 3 && !(ifs[k]->present && (ifs[k]->caps & (1u << FMUC_CAP_NEEDS_EXECUTION_TOOL))))
        k++;
    ext_seen x = {0};
    loadu_each_needed(s->fmu, on_needed, &x, NULL);
    if (k == 3 && !x.n) {
        fmuc_result_na(res, "no interface declares needsExecutionTool=\"true\" and no library of "
                            "this platform needs one the machine must provide");
        return;
    }
    if (zipu_find(l, "documentation/externalDependencies.txt") ||
        zipu_find(l, "documentation/externalDependencies.html"))
        return;
    if (k < 3)
        fmuc_result_violation(res, "line %u: <%s> needsExecutionTool=\"true\", but the FMU has no "
                              "documentation/externalDependencies.txt or .html naming the tool it "
                              "needs", (unsigned)ifs[k]->line, names[k]);
    if (x.n)
        fmuc_result_violation(res, "%s needs \"%s\"%s, which is neither a base system library "
                              "nor shipped in the FMU (an external dependency), but the FMU has no "
                              "documentation/externalDependencies.txt or .html",
                              x.file, x.needed, x.n > 1 ? " (and more libraries)" : "");
}

const fmuc_check fmuc_check_zip_external_dependencies = {
    .id = "zip-external-dependencies",
    .title = "FMI 3.0: an FMU that needs an external tool or library documents it",
    .spec = "FMI 3.0.2 §2.5.1.1, §2.5.1.4.3, §2.4.2",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_WARN,
    .interop_why = "the documentation file is read by people installing the tool or library; its "
                   "absence cannot change what an importer does with the FMU",
    .why = "An FMU that needs an installed tool or a library it does not ship runs only where "
           "they are; without documentation/externalDependencies the user cannot tell which "
           "ones, versions or licenses to provide.",
    .fix = "Add documentation/externalDependencies.txt (or .html) naming the tool or library, "
           "its version and how the FMU finds it, or ship the library beside the binary.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V3,
    .needs = FMUC_NEEDS_ARCHIVE | FMUC_NEEDS_XML,
    .run = run,
};
