/* md-default-experiment: DefaultExperiment values are sensible: stopTime > startTime,
 * tolerance >= 0, stepSize > 0 and stepSize < stopTime - startTime (FMI 2.0.4 §2.2.5, B-111:
 * VDMCheck heuristics (T) and fmi2DoStep's positive step (D); warnings). startTime defaults to 0
 * when only stopTime is given. The file's values are judged, not those of --stop-time. */
#include <math.h>

#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md_experiment *e = fmuc_md_declared_experiment(&s->fmu->md);
    char b1[32], b2[32];
    if (!e->present) {
        fmuc_result_na(res, "no DefaultExperiment");
        return;
    }
    unsigned line = (unsigned)e->line;
    double start = e->has_start ? e->start_time : 0.0;
    if (e->has_stop && isfinite(e->stop_time) && isfinite(start) && !(e->stop_time > start))
        fmuc_result_violation(res, "line %u: DefaultExperiment stopTime=\"%s\" is not after "
                              "startTime=\"%s\"%s", line, fmuc_md_fmt_double(b1, e->stop_time),
                              fmuc_md_fmt_double(b2, start), e->has_start ? "" : " (default)");
    if (e->has_tolerance && e->tolerance < 0)
        fmuc_result_violation(res, "line %u: DefaultExperiment tolerance=\"%s\" is negative", line,
                              fmuc_md_fmt_double(b1, e->tolerance));
    if (e->has_step && e->step_size <= 0)
        fmuc_result_violation(res, "line %u: DefaultExperiment stepSize=\"%s\" must be > 0", line,
                              fmuc_md_fmt_double(b1, e->step_size));
    else if (e->has_step && e->has_stop && e->stop_time > start && isfinite(e->step_size) &&
             e->step_size >= e->stop_time - start)
        fmuc_result_violation(res, "line %u: DefaultExperiment stepSize=\"%s\" is not smaller than "
                              "stopTime - startTime = %s", line,
                              fmuc_md_fmt_double(b1, e->step_size),
                              fmuc_md_fmt_double(b2, e->stop_time - start));
}

const fmuc_check fmuc_check_md_default_experiment = {
    .id = "md-default-experiment",
    .title = "default experiment has a sensible interval, tolerance and step",
    .spec = "FMI 2.0.4 §2.2.5; FMI 3.0.2 §2.4.6; FMI 1.0 ME (fmiModelDescription.xsd DefaultExperiment; derived)",
    .level = FMUC_LEVEL_SHOULD,
    .why = "Tools start simulations from the DefaultExperiment; a stop time before the start, a "
           "negative tolerance or a step longer than the interval makes the default run fail or "
           "do nothing.",
    .fix = "Give DefaultExperiment a stopTime after startTime, a non-negative tolerance and a "
           "stepSize greater than 0 and shorter than the interval, as used when validating the "
           "model.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
