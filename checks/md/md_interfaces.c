/* md-interfaces: at least one of ModelExchange / CoSimulation is present, each at most once
 * (FMI 2.0.4 §2.2.1, B-003). */
#include "check.h"
#include "md_util.h"

/* FMI 1.0: the kind follows from <Implementation> (CS 1.0: CoSimulation_StandAlone or
 * CoSimulation_Tool with Capabilities, the tool also with Model; fmiImplementation.xsd,
 * fmi1-rules B-401), without it the FMU is a Model Exchange FMU. The parser reports what is
 * missing in Implementation; a second CoSimulation_* element is md-element-order's. */
static void run_fmi1(const fmuc_md *md, fmuc_result *res)
{
    fmuc_mdu__report_issues(md, "md-interfaces", res);
    if (md->cs.present)
        fmuc_result_note(res, "FMI 1.0 Co-Simulation FMU (%s, line %u)",
                         md->cs.fmi1_tool ? "CoSimulation_Tool: couples an external tool"
                                          : "CoSimulation_StandAlone",
                         (unsigned)md->cs.line);
    else
        fmuc_result_note(res, "FMI 1.0 Model Exchange FMU (no <Implementation>)");
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    if (md->fmi == FMUC_FMI1) {
        run_fmi1(md, res);
        return;
    }
    if (md->fmi == FMUC_FMI3 && !md->me.present && !md->cs.present && !md->se.present)
        fmuc_result_violation(res, "line %u: none of <ModelExchange>, <CoSimulation>, "
                              "<ScheduledExecution> is present; an FMU must declare at least one "
                              "interface", (unsigned)md->root_line);
    else if (md->fmi != FMUC_FMI3 && !md->me.present && !md->cs.present)
        fmuc_result_violation(res, "line %u: neither <ModelExchange> nor <CoSimulation> is present; "
                              "an FMU must declare at least one interface",
                              (unsigned)md->root_line);
    if (md->me.count > 1)
        fmuc_result_violation(res, "line %u: <ModelExchange> appears %d times; at most once",
                              (unsigned)md->me.line, md->me.count);
    if (md->cs.count > 1)
        fmuc_result_violation(res, "line %u: <CoSimulation> appears %d times; at most once",
                              (unsigned)md->cs.line, md->cs.count);
    if (md->se.count > 1)
        fmuc_result_violation(res, "line %u: <ScheduledExecution> appears %d times; at most once",
                              (unsigned)md->se.line, md->se.count);
}

const fmuc_check fmuc_check_md_interfaces = {
    .id = "md-interfaces",
    .title = "ModelExchange and/or CoSimulation (FMI 3.0: or ScheduledExecution) declared, "
             "each at most once",
    .spec = "FMI 2.0.4 §2.2.1; FMI 3.0.2 §2.4.1; FMI 1.0 CS (fmiImplementation.xsd)",
    .level = FMUC_LEVEL_MUST,
    .why = "Without a ModelExchange or CoSimulation element, or with one repeated, an importer "
           "does not know which interface to use or which modelIdentifier and capabilities apply.",
    .fix = "Declare each interface the binary implements exactly once, as one ModelExchange "
           "and/or one CoSimulation element with its modelIdentifier.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
