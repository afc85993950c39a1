/* md-vendor-annotations: VendorAnnotations/Tool@name is unique (FMI 2.0.4 §2.2.6, B-112;
 * VDM validVendorAnnotations). */
#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    fmuc_mdu_map m;
    if (!md->ntools) {
        fmuc_result_na(res, "no VendorAnnotations");
        return;
    }
    if (fmuc_mdu__map_init(&m, md->ntools) < 0) {
        fmuc_result_error(res, "out of memory");
        return;
    }
    for (size_t i = 0; i < md->ntools; i++) {
        size_t first;
        if (!md->tools[i] || !*md->tools[i])
            continue; /* absent name (stored as ""): md-required-attributes */
        int r = fmuc_mdu__map_put(&m, md->tools[i], i, &first);
        if (r < 0) {
            fmuc_result_error(res, "out of memory");
            break;
        }
        if (r == 0)
            fmuc_result_violation(res, "line %u: VendorAnnotations Tool name=\"%.200s\" repeats the "
                                  "Tool at line %u",
                                  (unsigned)(md->tool_lines ? md->tool_lines[i] : 0), md->tools[i],
                                  (unsigned)(md->tool_lines ? md->tool_lines[first] : 0));
    }
    fmuc_mdu__map_free(&m);
}

const fmuc_check fmuc_check_md_vendor_annotations = {
    .id = "md-vendor-annotations",
    .title = "vendor annotation tool names are unique",
    .spec = "FMI 2.0.4 §2.2.6; FMI 1.0 ME (fmiModelDescription.xsd VendorAnnotations/Tool)",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_WARN,
    .interop_why = "VendorAnnotations carry data for the named tool only; every other importer skips them",
    .why = "Tools find their own annotations by Tool name; with two Tool elements of one name, a "
           "tool reads only one of them and loses or mixes its settings.",
    .fix = "Merge the annotations of one tool into a single VendorAnnotations/Tool element.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
