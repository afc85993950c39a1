/* md-clocks: FMI 3.0 Clock variables (§2.2.8.2, §2.4.4, §2.4.7.4, §4.4, §5.1.1; fmi3-rules
 * B-220, B-351 to B-356, B-358):
 *  - causality input, output or local; variability discrete; no initial, no intermediateUpdate;
 *  - output and local clocks are triggered (intervalVariability="triggered"), output clocks have
 *    no priority; input clocks of an FMU with ScheduledExecution have a priority;
 *  - intervalDecimal > 0 and given only for periodic clocks (constant, fixed, tunable): required
 *    for constant ones (a fixed or tunable one without it warns: the clock-type text describes
 *    them without one, fmi3-rules inconsistency 8); shiftDecimal >= 0 and only with
 *    intervalDecimal;
 *  - intervalCounter > 0 and resolution only for periodic clocks, intervalCounter only with
 *    supportsFraction="true", resolution required then; shiftCounter only with intervalCounter;
 *  - an FMU with Clocks and CoSimulation declares hasEventMode="true" there.
 * A Clock with a declaredType may take its attributes from the ClockType: the presence rules are
 * not judged for it. Dimension on a Clock: md-var-arrays; previous: md-var-clocked. */
#include "check.h"
#include "md_util.h"

#define HAS(x, f) (((x)->clock_has & (f)) != 0)

static int periodic(unsigned iv)
{
    return iv == FMUC_IV_CONSTANT || iv == FMUC_IV_FIXED || iv == FMUC_IV_TUNABLE;
}

static const char *iv_name(unsigned iv)
{
    static const char *const n[] = {"(absent)", "constant",  "fixed",     "tunable",
                                    "changing", "countdown", "triggered", "(invalid)"};
    return iv < sizeof n / sizeof n[0] ? n[iv] : "?";
}

static void one(const fmuc_md *md, const fmuc_md_var *v, const fmuc_md_var_ext *x,
                fmuc_result *res)
{
    char d[FMUC_MDU_DESC_LEN], b[32];
    fmuc_mdu__var_desc(d, sizeof d, v);
    unsigned iv = x ? x->interval_variability : FMUC_IV_NONE;
    int typed = v->declared_type != NULL;
    if (v->causality != FMUC_CAUS_INPUT && v->causality != FMUC_CAUS_OUTPUT &&
        v->causality != FMUC_CAUS_LOCAL && v->causality != FMUC_CAUS_INVALID)
        fmuc_result_violation(res, "%s: a Clock with causality=\"%s\"; Clocks are inputs, "
                              "outputs or locals", d, fmuc_mdu__causality_name(v->causality));
    if (v->variability != FMUC_VAR_DISCRETE && v->variability != FMUC_VAR_INVALID)
        fmuc_result_violation(res, "%s: a Clock with variability=\"%s\"; Clocks are discrete", d,
                              fmuc_mdu__variability_name(v->variability));
    if (v->initial != FMUC_INIT_NONE)
        fmuc_result_violation(res, "%s: a Clock with initial=\"%s\"; Clocks have no initial", d,
                              fmuc_mdu__initial_name(v->initial));
    if (x && x->has_intermediate_update && x->intermediate_update)
        fmuc_result_violation(res, "%s: a Clock with intermediateUpdate=\"true\"", d);
    if (!x || iv == FMUC_IV_INVALID || iv == FMUC_IV_NONE)
        return; /* md-required-attributes / md-attribute-syntax */
    if ((v->causality == FMUC_CAUS_OUTPUT || v->causality == FMUC_CAUS_LOCAL) &&
        iv != FMUC_IV_TRIGGERED)
        fmuc_result_violation(res, "%s: a Clock of causality=\"%s\" with "
                              "intervalVariability=\"%s\"; output and local clocks are triggered",
                              d, fmuc_mdu__causality_name(v->causality), iv_name(iv));
    if (v->causality == FMUC_CAUS_OUTPUT && HAS(x, FMUC_CLK_PRIORITY))
        fmuc_result_violation(res, "%s: an output Clock with priority=\"%u\"; only input clocks "
                              "have a priority", d, (unsigned)x->priority);
    if (v->causality == FMUC_CAUS_INPUT && md->se.present && !HAS(x, FMUC_CLK_PRIORITY) && !typed)
        fmuc_result_violation(res, "%s: an input Clock without priority in an FMU with "
                              "ScheduledExecution", d);
    /* intervalDecimal, shiftDecimal */
    if (HAS(x, FMUC_CLK_INTERVAL_DECIMAL)) {
        if (!periodic(iv))
            fmuc_result_violation(res, "%s: intervalDecimal=\"%s\" on a %s clock; only periodic "
                                  "clocks (constant, fixed, tunable) have one", d,
                                  fmuc_md_fmt_double(b, x->interval_decimal), iv_name(iv));
        else if (!(x->interval_decimal > 0))
            fmuc_result_violation(res, "%s: intervalDecimal=\"%s\" is not > 0", d,
                                  fmuc_md_fmt_double(b, x->interval_decimal));
    } else if (iv == FMUC_IV_CONSTANT && !typed) {
        fmuc_result_violation(res, "%s: a constant periodic Clock without intervalDecimal", d);
    } else if ((iv == FMUC_IV_FIXED || iv == FMUC_IV_TUNABLE) && !typed &&
               !HAS(x, FMUC_CLK_INTERVAL_COUNTER)) {
        fmuc_result_warn(res, "%s: a %s periodic Clock without intervalDecimal (the ClockType "
                         "table requires it, the clock-type text lets the FMU report the "
                         "interval at run time)", d, iv_name(iv));
    }
    if (HAS(x, FMUC_CLK_SHIFT_DECIMAL)) {
        if (!(x->shift_decimal >= 0))
            fmuc_result_violation(res, "%s: shiftDecimal=\"%s\" is negative", d,
                                  fmuc_md_fmt_double(b, x->shift_decimal));
        if (!HAS(x, FMUC_CLK_INTERVAL_DECIMAL) && !typed)
            fmuc_result_violation(res, "%s: shiftDecimal without intervalDecimal", d);
    }
    /* intervalCounter, resolution, shiftCounter (supportsFraction) */
    if (HAS(x, FMUC_CLK_INTERVAL_COUNTER)) {
        if (!periodic(iv))
            fmuc_result_violation(res, "%s: intervalCounter on a %s clock; only periodic clocks "
                                  "have one", d, iv_name(iv));
        else if (x->interval_counter == 0)
            fmuc_result_violation(res, "%s: intervalCounter=\"0\"; it is > 0", d);
        if (!x->supports_fraction && !typed)
            fmuc_result_violation(res, "%s: intervalCounter without supportsFraction=\"true\"", d);
        if (!HAS(x, FMUC_CLK_RESOLUTION) && x->supports_fraction && !typed)
            fmuc_result_violation(res, "%s: intervalCounter with supportsFraction=\"true\" but no "
                                  "resolution", d);
    }
    if (HAS(x, FMUC_CLK_RESOLUTION) && !periodic(iv))
        fmuc_result_violation(res, "%s: resolution on a %s clock; only periodic clocks have one",
                              d, iv_name(iv));
    if (HAS(x, FMUC_CLK_SHIFT_COUNTER) && !HAS(x, FMUC_CLK_INTERVAL_COUNTER) && !typed)
        fmuc_result_violation(res, "%s: shiftCounter without intervalCounter", d);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    size_t nclocks = 0;
    const fmuc_md_var *first = NULL;
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (v->base != FMUC_BT_CLOCK)
            continue;
        nclocks++;
        if (!first)
            first = v;
        one(md, v, v->ext ? fmuc_md_var_ext_of(md, i) : NULL, res);
    }
    if (!nclocks) {
        fmuc_result_na(res, "no Clock variable");
        return;
    }
    /* §4.4: clocks need Event Mode in Co-Simulation */
    if (md->cs.present && !(md->cs.caps & (1u << FMUC_CAP_HAS_EVENT_MODE)))
        fmuc_result_violation(res, "line %u: <CoSimulation> without hasEventMode=\"true\" although "
                              "the FMU has %zu Clock%s (the first: '%.200s', line %u)",
                              (unsigned)md->cs.line, nclocks, nclocks == 1 ? "" : "s",
                              fmuc_ms__name(first), (unsigned)first->line);
}

const fmuc_check fmuc_check_md_clocks = {
    .id = "md-clocks",
    .title = "FMI 3.0: Clock variables have consistent attributes",
    .spec = "FMI 3.0.2 §2.2.8.2, §2.4.4, §2.4.7.4, §4.4, §5.1.1",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers schedule clocks from intervalVariability and the interval attributes: a "
           "triggered-only output with a period, a periodic clock without interval or clocks "
           "without Event Mode make them tick the FMU at wrong times or never.",
    .fix = "Declare output and local clocks triggered, give periodic clocks a positive "
           "intervalDecimal (or counters with supportsFraction), and set hasEventMode=\"true\" on "
           "CoSimulation when clocks exist.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
