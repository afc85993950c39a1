/* zip-terminals-and-icons: FMI 3.0: terminalsAndIcons/icon.svg is given only together with
 * terminalsAndIcons/icon.png (FMI 3.0.2 §2.5.1, §2.4.9.1.3; fmi3-rules A-23); terminalsAndIcons.xml
 * and icon.png themselves are optional. The contents of terminalsAndIcons.xml (B-501..B-507) are
 * md-terminals-and-icons. */
#include "check.h"
#include "zip_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_zip_listing *l = &s->fmu->listing;
    int any = 0;
    for (size_t i = 0; i < l->nentries && !any; i++)
        any = zipu_under(l->entries[i].name, "terminalsAndIcons/");
    if (!any) {
        fmuc_result_na(res, "no terminalsAndIcons/ folder");
        return;
    }
    if (zipu_find(l, "terminalsAndIcons/icon.svg") && !zipu_find(l, "terminalsAndIcons/icon.png"))
        fmuc_result_violation(res, "terminalsAndIcons/icon.svg without terminalsAndIcons/icon.png "
                              "(the PNG is required when the SVG is given)");
}

const fmuc_check fmuc_check_zip_terminals_and_icons = {
    .id = "zip-terminals-and-icons",
    .title = "FMI 3.0: terminalsAndIcons/icon.svg comes with icon.png",
    .spec = "FMI 3.0.2 §2.5.1, §2.4.9.1.3",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_WARN,
    .interop_why = "icons are drawn by graphical importers only; a missing PNG costs the picture, "
                   "never loading or simulation",
    .why = "Importers that cannot render SVG show the FMU with icon.png; an icon.svg without it "
           "leaves them with no icon although the FMU declares one.",
    .fix = "Ship terminalsAndIcons/icon.png (a rendering of icon.svg) whenever icon.svg is there.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V3,
    .needs = FMUC_NEEDS_ARCHIVE,
    .run = run,
};
