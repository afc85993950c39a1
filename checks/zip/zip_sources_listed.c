/* zip-sources-listed: an FMU that ships its implementation as C sources only (no binary) names
 * the files to compile in <SourceFiles> of ModelExchange / CoSimulation, or (2.0.4) in
 * sources/buildDescription.xml (FMI 2.0.4 §2.3, §3.3.1, §4.3.1, A-19/A-21). Whether each listed
 * file exists, is relative and unique is md-source-files. */
#include <string.h>

#include "check.h"
#include "zip_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_zip_listing *l = &s->fmu->listing;
    const fmuc_md *md = &s->fmu->md;
    size_t listed = (md->me.present ? md->me.nsource_files : 0) +
                    (md->cs.present ? md->cs.nsource_files : 0);
    size_t c_sources = 0;
    int binaries = 0;
    for (size_t i = 0; i < l->nentries; i++) {
        const char *n = l->entries[i].name;
        size_t len = n ? strlen(n) : 0;
        if (zipu_under(n, "sources/") && len > 2 && strcmp(n + len - 2, ".c") == 0)
            c_sources++;
        if (zipu_under(n, "binaries/") && !zipu_is_dir(&l->entries[i]))
            binaries = 1;
    }
    if (!c_sources) {
        fmuc_result_na(res, "no C sources in sources/");
        return;
    }
    if (md->fmi == FMUC_FMI3) {
        /* FMI 3.0 §2.5.1.3: a source code FMU has sources/buildDescription.xml (no SourceFiles
         * element exists); beside binaries the sources cannot be built by an importer either,
         * but the binaries still serve it (a violation of the letter) */
        if (zipu_find(l, "sources/buildDescription.xml"))
            return;
        if (binaries)
            fmuc_result_violation_letter(res, "sources/ holds %zu .c file%s but no "
                                         "sources/buildDescription.xml: an importer cannot build "
                                         "them (the FMU's binaries still load)",
                                         c_sources, c_sources == 1 ? "" : "s");
        else
            fmuc_result_violation(res, "the FMU ships only C sources (%zu .c file%s in sources/) "
                                       "but no sources/buildDescription.xml naming the files to "
                                       "compile", c_sources, c_sources == 1 ? "" : "s");
        return;
    }
    if (binaries) {
        fmuc_result_na(res, "the FMU also ships binaries");
        return;
    }
    if (!listed && !zipu_find(l, "sources/buildDescription.xml"))
        fmuc_result_violation(res, "the FMU ships only C sources (%zu .c file%s in sources/), but "
                                   "neither ModelExchange nor CoSimulation lists the files to "
                                   "compile in <SourceFiles>, and there is no "
                                   "sources/buildDescription.xml",
                              c_sources, c_sources == 1 ? "" : "s");
}

const fmuc_check fmuc_check_zip_sources_listed = {
    .id = "zip-sources-listed",
    .title = "A source-code FMU lists the files to compile",
    .spec = "FMI 2.0.4 §2.3, §3.3.1, §4.3.1; FMI 3.0.2 §2.5.1.3, §2.4.10",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_SOME,
    .interop_why = "FMI 3.0 sources without buildDescription.xml beside binaries for the platform: "
                   "importers load the binaries and never need to build the sources",
    .why = "A source-only FMU has to be compiled by the importer; without a list of files to "
           "compile it cannot know which sources to build, so the FMU is unusable.",
    .fix = "List the C files to compile in SourceFiles of each interface element, or describe the "
           "build in sources/buildDescription.xml.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_ARCHIVE | FMUC_NEEDS_XML,
    .run = run,
};
