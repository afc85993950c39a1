/* zip-data-descriptor: general-purpose flag bit 3 (sizes in a trailing data descriptor) only on
 * deflated entries (FMI 2.0.4 §2.3, A-03). */
#include "check.h"
#include "zip_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_zip_listing *l = &s->fmu->listing;
    char shown[512];
    for (size_t i = 0; i < l->nentries; i++) {
        const fmuc_zip_entry *e = &l->entries[i];
        if ((e->flags & 0x0008u) && e->method != 8)
            ZIPU_VIOLATION(s, res,
                                  "entry '%s': data descriptor (flag bit 3) on an entry with "
                                  "compression method %u; only deflated (8) entries may use it",
                                  zipu_show(shown, sizeof shown, e->name), (unsigned)e->method);
    }
}

const fmuc_check fmuc_check_zip_data_descriptor = {
    .id = "zip-data-descriptor",
    .title = "Data descriptors are used on deflated entries only",
    .spec = "FMI 2.0.4 §2.3; FMI 3.0.2 §2.5; FMI 1.0 ME (FMU distribution; a heuristic in 1.0)",
    .level = FMUC_LEVEL_MUST,
    .why = "Streaming unzippers need the sizes in the local header for stored entries; a data "
           "descriptor on a stored entry can make them read the data with a wrong length.",
    .fix = "Repack the archive so that stored entries have their sizes in the local header (bit 3 "
           "clear), e.g. by writing it with a tool that knows the sizes up front.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_ARCHIVE,
    .run = run,
};
