/* zip-external-dependencies: FMI 3.0: an FMU with external dependencies documents them in
 * documentation/externalDependencies.txt or .html (FMI 3.0.2 §2.5.1.1, §2.5.1.4.3; fmi3-rules A-19).
 * Statically visible here: needsExecutionTool="true" on an interface, which declares that the FMU
 * needs an external tool to run (§2.4.2, §2.5.3; A-28). Libraries a binary needs beyond the
 * platform folder (the rest of A-19) are seen by the loading checks. */
#include "check.h"
#include "zip_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    const fmuc_zip_listing *l = &s->fmu->listing;
    const fmuc_md_interface *ifs[3] = {&md->me, &md->cs, &md->se};
    static const char *const names[3] = {"ModelExchange", "CoSimulation", "ScheduledExecution"};
    int k = 0;
    while (k < 3 && !(ifs[k]->present && (ifs[k]->caps & (1u << FMUC_CAP_NEEDS_EXECUTION_TOOL))))
        k++;
    if (k == 3) {
        fmuc_result_na(res, "no interface declares needsExecutionTool=\"true\"");
        return;
    }
    if (zipu_find(l, "documentation/externalDependencies.txt") ||
        zipu_find(l, "documentation/externalDependencies.html"))
        return;
    fmuc_result_violation(res, "line %u: <%s> needsExecutionTool=\"true\", but the FMU has no "
                          "documentation/externalDependencies.txt or .html naming the tool it "
                          "needs", (unsigned)ifs[k]->line, names[k]);
}

const fmuc_check fmuc_check_zip_external_dependencies = {
    .id = "zip-external-dependencies",
    .title = "FMI 3.0: an FMU that needs an external tool documents it",
    .spec = "FMI 3.0.2 §2.5.1.1, §2.5.1.4.3, §2.4.2",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_WARN,
    .interop_why = "the documentation file is read by people installing the tool; its absence "
                   "cannot change what an importer does with the FMU",
    .why = "An FMU with needsExecutionTool runs only where its tool is installed; without "
           "documentation/externalDependencies the user cannot tell which tool, version or "
           "license to provide, and the FMU fails to start.",
    .fix = "Add documentation/externalDependencies.txt (or .html) naming the tool, its version "
           "and how the FMU finds it.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V3,
    .needs = FMUC_NEEDS_ARCHIVE | FMUC_NEEDS_XML,
    .run = run,
};
