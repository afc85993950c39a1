/* zip-split: the FMU is a single-disk archive, not split or spanned (FMI 2.0.4 §2.3, A-06). */
#include "check.h"
#include "zip_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    if (s->fmu->listing.multi_disk)
        ZIPU_VIOLATION(s, res, "the archive is split or spanned over several disks "
                                   "(disk numbers in the end-of-central-directory record are not 0)");
}

const fmuc_check fmuc_check_zip_split = {
    .id = "zip-split",
    .title = "The archive is not split or spanned",
    .spec = "FMI 2.0.4 §2.3; FMI 3.0.2 §2.5; FMI 1.0 ME (FMU distribution; a heuristic in 1.0)",
    .level = FMUC_LEVEL_MUST,
    .why = "Split or spanned archives cannot be read as one file by importers' zip readers; the "
           "FMU fails to open.",
    .fix = "Produce the FMU as one single-disk ZIP archive (no zip -s split options).",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_ARCHIVE,
    .run = run,
};
