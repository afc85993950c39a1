/* md-capability-flags: canSerializeFMUstate="true" requires canGetAndSetFMUstate="true"
 * (FMI 2.0.4 §2.1.8, §3.3.1, §4.3.1); interface-specific attributes appear only on their interface:
 * completedIntegratorStepNotNeeded on ModelExchange; canHandleVariableCommunicationStepSize,
 * canInterpolateInputs, maxOutputDerivativeOrder, canRunAsynchronuously on CoSimulation.
 * FMI 3.0 (§2.4.2, §3.4, §4.4, §5.4): the same with its spellings (canSerializeFMUState), the
 * flags of fmuc_caps.def on their interfaces, canReturnEarlyAfterIntermediateUpdate only with
 * providesIntermediateUpdate; fixedInternalStepSize > 0 and
 * recommendedIntermediateInputSmoothness >= 0 (derived: warnings). */
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

/* FMI 3.0 (§2.4.2, §4.4; fmi3-rules B.3): the flags' 3.0 spellings; a flag on an interface
 * that has no such flag comes as a parser issue (reported above). */
static void one3(fmuc_result *res, const fmuc_md_interface *f, const char *el, int cs)
{
    char b[32];
    if (!f->present)
        return;
    if ((f->caps & CAP(FMUC_CAP_CAN_SERIALIZE_FMU_STATE)) &&
        !(f->caps & CAP(FMUC_CAP_CAN_GET_AND_SET_FMU_STATE)))
        fmuc_result_violation(res, "line %u: <%s> canSerializeFMUState=\"true\" requires "
                              "canGetAndSetFMUState=\"true\" (it is %s)", (unsigned)f->line, el,
                              (f->caps_explicit & CAP(FMUC_CAP_CAN_GET_AND_SET_FMU_STATE))
                                  ? "\"false\""
                                  : "absent, i.e. false");
    if (!cs)
        return;
    /* §4.4: canReturnEarlyAfterIntermediateUpdate only with providesIntermediateUpdate */
    if ((f->caps & CAP(FMUC_CAP_CAN_RETURN_EARLY_AFTER_INTERMEDIATE_UPDATE)) &&
        !(f->caps & CAP(FMUC_CAP_PROVIDES_INTERMEDIATE_UPDATE)))
        fmuc_result_violation(res, "line %u: <CoSimulation> canReturnEarlyAfterIntermediateUpdate="
                              "\"true\" requires providesIntermediateUpdate=\"true\" (it is %s)",
                              (unsigned)f->line,
                              (f->caps_explicit & CAP(FMUC_CAP_PROVIDES_INTERMEDIATE_UPDATE))
                                  ? "\"false\""
                                  : "absent, i.e. false");
    /* derived (D): a step size and a smoothness order are positive / non-negative */
    if (f->has_fixed_internal_step_size && !(f->fixed_internal_step_size > 0))
        fmuc_result_warn(res, "line %u: <CoSimulation> fixedInternalStepSize=\"%s\" is not a "
                         "positive step size", (unsigned)f->line,
                         fmuc_md_fmt_double(b, f->fixed_internal_step_size));
    if (f->has_recommended_intermediate_input_smoothness &&
        f->recommended_intermediate_input_smoothness < 0)
        fmuc_result_warn(res, "line %u: <CoSimulation> recommendedIntermediateInputSmoothness="
                         "\"%d\" is negative; it is the order k of C^k smoothness",
                         (unsigned)f->line, f->recommended_intermediate_input_smoothness);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    fmuc_mdu__report_issues(md, "md-capability-flags", res);
    if (md->fmi == FMUC_FMI3) {
        one3(res, &md->me, "ModelExchange", 0);
        one3(res, &md->cs, "CoSimulation", 1);
        one3(res, &md->se, "ScheduledExecution", 0);
        return;
    }
    one(md, res, &md->me, 0);
    one(md, res, &md->cs, 1);
}

const fmuc_check fmuc_check_md_capability_flags = {
    .id = "md-capability-flags",
    .title = "capability flags are consistent and on the right interface",
    .spec = "FMI 2.0.4 §2.1.8, §3.3.1, §4.3.1; FMI 3.0.2 §2.4.2, §3.4, §4.4, §5.4",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers plan by the capability flags: canSerializeFMUstate without state get/set, "
           "or a flag on the wrong interface, makes them call functions the FMU cannot serve.",
    .fix = "Set canGetAndSetFMUstate=\"true\" wherever canSerializeFMUstate is true, and put each "
           "capability attribute only on the interface element (ModelExchange/CoSimulation) it "
           "belongs to.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
