/* md-source-files: SourceFiles/File@name entries of ModelExchange/CoSimulation are relative to
 * sources/, '/'-separated (no backslash, no leading '/', no drive letter, no '..'), unique within
 * their list, and name a file in the archive (FMI 2.0.4 §2.3, §3.3.1, §4.3.1; A-19: D/T). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "md_util.h"

static int has_dotdot(const char *n)
{
    for (const char *p = n; (p = strstr(p, "..")) != NULL; p += 2)
        if ((p == n || p[-1] == '/') && (p[2] == '/' || p[2] == '\0'))
            return 1;
    return 0;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    const fmuc_zip_listing *zl = &s->fmu->listing;
    fmuc_mdu_map entries = {0}, seen = {0};
    char *path = NULL;
    size_t total = md->me.nsource_files + md->cs.nsource_files;
    if (!total) {
        fmuc_result_na(res, "no SourceFiles listed");
        return;
    }
    if (fmuc_mdu__map_entries(&entries, zl) < 0)
        goto oom;
    const fmuc_md_interface *ifs[2] = {&md->me, &md->cs};
    for (int k = 0; k < 2; k++) {
        const fmuc_md_interface *f = ifs[k];
        const char *el = k ? "CoSimulation" : "ModelExchange";
        if (!f->present || !f->nsource_files)
            continue;
        fmuc_mdu__map_free(&seen);
        if (fmuc_mdu__map_init(&seen, f->nsource_files) < 0)
            goto oom;
        for (size_t i = 0; i < f->nsource_files; i++) {
            const char *n = f->source_files[i];
            if (!n || !*n)
                continue; /* absent name (the parser stores ""): md-required-attributes */
            int r = fmuc_mdu__map_put(&seen, n, i, NULL);
            if (r < 0)
                goto oom;
            if (r == 0) {
                fmuc_result_violation(res, "line %u: <%s> SourceFiles lists \"%.200s\" twice",
                                      (unsigned)f->line, el, n);
                continue;
            }
            if (strchr(n, '\\') || n[0] == '/' || (n[0] && n[1] == ':') || has_dotdot(n)) {
                fmuc_result_violation(res, "line %u: <%s> SourceFiles File name=\"%.200s\" is not a "
                                      "'/'-separated path relative to sources/", (unsigned)f->line,
                                      el, n);
                continue;
            }
            size_t len = strlen(n) + sizeof "sources/";
            char *np = realloc(path, len);
            if (!np)
                goto oom;
            path = np;
            snprintf(path, len, "sources/%s", n);
            if (zl->nentries && !fmuc_mdu__map_get(&entries, path, NULL))
                fmuc_result_violation(res, "line %u: <%s> SourceFiles lists \"%.200s\" but the archive "
                                      "has no %.220s", (unsigned)f->line, el, n, path);
        }
    }
    goto out;
oom:
    fmuc_result_error(res, "out of memory");
out:
    free(path);
    fmuc_mdu__map_free(&entries);
    fmuc_mdu__map_free(&seen);
}

const fmuc_check fmuc_check_md_source_files = {
    .id = "md-source-files",
    .title = "SourceFiles entries are relative, unique and present in the archive",
    .spec = "FMI 2.0.4 §2.3, §3.3.1, §4.3.1",
    .level = FMUC_LEVEL_SHOULD,
    .why = "Importers compile the listed SourceFiles from sources/; absolute, '..', backslash, "
           "duplicate or missing entries make the build fail or pick up files outside the FMU.",
    .fix = "List each C file once with a '/'-separated path relative to sources/, and check that "
           "every listed file is in the archive.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_ARCHIVE,
    .run = run,
};
