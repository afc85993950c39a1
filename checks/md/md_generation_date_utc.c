/* md-generation-date-utc: generationDateAndTime should be written in UTC as
 * YYYY-MM-DDThh:mm:ssZ (FMI 2.0.4 §2.2.1, B.2: S; VDMCheck validGenerationDateAndTime). A
 * fractional second is tolerated. Not-an-xs:dateTime values are md-generation-date's. */
#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    const char *dt = md->generation_date_and_time;
    int utc = 0;
    if (!dt) {
        fmuc_result_na(res, "no generationDateAndTime attribute");
        return;
    }
    if (!fmuc_mdu__parse_datetime(dt, &utc)) {
        fmuc_result_na(res, "generationDateAndTime is not an xs:dateTime (see md-generation-date)");
        return;
    }
    if (!utc)
        fmuc_result_violation(res, "line %u: fmiModelDescription: generationDateAndTime=\"%.100s\" "
                              "should be UTC in the form YYYY-MM-DDThh:mm:ssZ",
                              (unsigned)md->root_line, dt);
}

const fmuc_check fmuc_check_md_generation_date_utc = {
    .id = "md-generation-date-utc",
    .title = "generationDateAndTime is given in UTC (…Z)",
    .spec = "FMI 2.0.4 §2.2.1; FMI 3.0.2 §2.4.1; FMI 1.0 ME (fmiModelDescription.xsd; derived)",
    .level = FMUC_LEVEL_SHOULD,
    .why = "A generation time without a time zone is ambiguous: comparing FMUs built in different "
           "places or ordering builds by time gives wrong answers.",
    .fix = "Write generationDateAndTime in UTC with a trailing Z, e.g. 2024-05-01T12:00:00Z, "
           "instead of local time or an offset.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
