/* md-generation-date: generationDateAndTime, when given, is an xs:dateTime
 * (YYYY-MM-DDThh:mm:ss with optional fraction and time zone) (FMI 2.0.4 §2.2.1, B.2; G-11). */
#include <string.h>

#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    const char *dt = md->generation_date_and_time;
    if (!dt) {
        fmuc_result_na(res, "no generationDateAndTime attribute");
        return;
    }
    if (!fmuc_mdu__parse_datetime(dt, NULL))
        fmuc_result_violation(res, "line %u: fmiModelDescription: generationDateAndTime=\"%.100s\" "
                              "is not an xs:dateTime (expected e.g. 2024-01-31T12:00:00Z)",
                              (unsigned)md->root_line, dt);
}

const fmuc_check fmuc_check_md_generation_date = {
    .id = "md-generation-date",
    .title = "generationDateAndTime is an xs:dateTime",
    .spec = "FMI 2.0.4 §2.2.1; FMI 3.0.2 §2.4.1; FMI 1.0 ME (fmiModelDescription.xsd: xs:dateTime)",
    .level = FMUC_LEVEL_MUST,
    .why = "Tools that sort, cache or compare FMUs by generationDateAndTime fail to parse a value "
           "that is not an xs:dateTime, and may reject the whole model description.",
    .fix = "Write generationDateAndTime as YYYY-MM-DDThh:mm:ss with an optional fraction and time "
           "zone, e.g. 2024-05-01T12:00:00Z, or leave the attribute out.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
