/* zip-compression-method: every entry is stored (0) or deflated (8) (FMI 2.0.4 §2.3, A-02). */
#include "check.h"
#include "zip_util.h"

static const char *method_name(unsigned m)
{
    switch (m) {
    case 1: return "shrink";
    case 6: return "implode";
    case 9: return "deflate64";
    case 12: return "bzip2";
    case 14: return "LZMA";
    case 93: return "zstd";
    case 95: return "xz";
    case 98: return "PPMd";
    case 99: return "AES-encrypted";
    default: return "other";
    }
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_zip_listing *l = &s->fmu->listing;
    char shown[512];
    for (size_t i = 0; i < l->nentries; i++) {
        const fmuc_zip_entry *e = &l->entries[i];
        if (e->method != 0 && e->method != 8)
            ZIPU_VIOLATION(s, res,
                                  "entry '%s': compression method %u (%s) is neither store (0) "
                                  "nor deflate (8)",
                                  zipu_show(shown, sizeof shown, e->name), (unsigned)e->method,
                                  method_name(e->method));
    }
}

const fmuc_check fmuc_check_zip_compression_method = {
    .id = "zip-compression-method",
    .title = "Archive entries are stored or deflated only",
    .spec = "FMI 2.0.4 §2.3; FMI 3.0.2 §2.5; FMI 1.0 ME (FMU distribution; a heuristic in 1.0)",
    .level = FMUC_LEVEL_MUST,
    .why = "FMI allows only stored and deflated entries, so importers need not read others: "
           "an entry compressed with bzip2, LZMA or zstd cannot be extracted by many of them.",
    .fix = "Repack the FMU with deflate or no compression, e.g. with zip -Z deflate or Python's "
           "zipfile with ZIP_DEFLATED.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_ARCHIVE,
    .run = run,
};
