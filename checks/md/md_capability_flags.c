/* md-capability-flags: canSerializeFMUstate="true" requires canGetAndSetFMUstate="true"
 * (FMI 2.0.4 §2.1.8, §3.3.1, §4.3.1); interface-specific attributes appear only on their interface:
 * completedIntegratorStepNotNeeded on ModelExchange; canHandleVariableCommunicationStepSize,
 * canInterpolateInputs, maxOutputDerivativeOrder, canRunAsynchronuously on CoSimulation. */
#include <string.h>

#include "check.h"
#include "md_util.h"


#define CAP(c) (1u << (c))
static int reported(const fmuc_md *md, const char *el, const char *attr)
{
    for (size_t i = 0; i < md->nissues; i++) {
        const fmuc_md_issue *is = &md->issues[i];
        if (is->kind == FMUC_ISSUE_ATTR_UNKNOWN && is->element && is->attribute &&
            strcmp(is->element, el) == 0 && strcmp(is->attribute, attr) == 0)
            return 1;
    }
    return 0;
}

static void one(const fmuc_md *md, fmuc_result *res, const fmuc_md_interface *f, int cs)
{
    const char *el = cs ? "CoSimulation" : "ModelExchange";
    if (!f->present)
        return;
    if ((f->caps & CAP(FMUC_CAP_CAN_SERIALIZE_FMU_STATE)) &&
        !(f->caps & CAP(FMUC_CAP_CAN_GET_AND_SET_FMU_STATE)))
        fmuc_result_violation(res, "line %u: <%s> canSerializeFMUstate=\"true\" requires "
                              "canGetAndSetFMUstate=\"true\" (it is %s)", (unsigned)f->line, el,
                              (f->caps_explicit & CAP(FMUC_CAP_CAN_GET_AND_SET_FMU_STATE))
                                  ? "\"false\""
                                  : "absent, i.e. false");
    /* a flag of FMI 2.0 given on the one interface that does not have it (fmuc_caps.def) */
    unsigned here = cs ? FMUC_IF_CS : FMUC_IF_ME, there = cs ? FMUC_IF_ME : FMUC_IF_CS;
    for (unsigned c = 0; c < FMUC_CAP_COUNT; c++) {
        const char *attr = fmuc_md_cap_attr((fmuc_cap)c, 2);
        unsigned ifs = fmuc_md_cap_ifaces((fmuc_cap)c, 2);
        if (attr && (f->caps_explicit & CAP(c)) && !(ifs & here) && (ifs & there) &&
            !reported(md, el, attr))
            fmuc_result_violation(res, "line %u: <%s> has attribute %s, which belongs to <%s> only",
                                  (unsigned)f->line, el, attr,
                                  cs ? "ModelExchange" : "CoSimulation");
    }
    if (!cs && f->has_max_output_derivative_order && !reported(md, el, "maxOutputDerivativeOrder"))
        fmuc_result_violation(res, "line %u: <ModelExchange> has attribute maxOutputDerivativeOrder, "
                              "which belongs to <CoSimulation> only", (unsigned)f->line);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    fmuc_mdu__report_issues(md, "md-capability-flags", res);
    one(md, res, &md->me, 0);
    one(md, res, &md->cs, 1);
}

const fmuc_check fmuc_check_md_capability_flags = {
    .id = "md-capability-flags",
    .title = "capability flags are consistent and on the right interface",
    .spec = "FMI 2.0.4 §2.1.8, §3.3.1, §4.3.1",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers plan by the capability flags: canSerializeFMUstate without state get/set, "
           "or a flag on the wrong interface, makes them call functions the FMU cannot serve.",
    .fix = "Set canGetAndSetFMUstate=\"true\" wherever canSerializeFMUstate is true, and put each "
           "capability attribute only on the interface element (ModelExchange/CoSimulation) it "
           "belongs to.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
