/* zip-static-library-names: static libraries sit in compiler sub-folders (VisualStudioX, gccX)
 * of a platform folder and are named <modelIdentifier>.lib or lib<modelIdentifier>.a
 * (FMI 2.0.4 §2.3, §2.1.1, A-15). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "zip_util.h"

static int is_static(const char *base)
{
    size_t n = strlen(base);
    return (n > 2 && strcmp(base + n - 2, ".a") == 0) || (n > 4 && strcmp(base + n - 4, ".lib") == 0);
}

static int named_for(const char *base, const fmuc_md *md)
{
    const char *ids[2] = {md->me.present ? md->me.model_identifier : NULL,
                          md->cs.present ? md->cs.model_identifier : NULL};
    for (int k = 0; k < 2; k++) {
        if (!ids[k])
            continue;
        char a[512], lib[512];
        snprintf(a, sizeof a, "lib%s.a", ids[k]);
        snprintf(lib, sizeof lib, "%s.lib", ids[k]);
        if (strcmp(base, a) == 0 || strcmp(base, lib) == 0)
            return 1;
    }
    return 0;
}

static int compiler_folder(const char *sub)
{
    return (strncmp(sub, "VisualStudio", 12) == 0 && sub[12]) || (strncmp(sub, "gcc", 3) == 0 && sub[3]);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_zip_listing *l = &s->fmu->listing;
    const fmuc_md *md = &s->fmu->md;
    char shown[512];
    int any = 0;
    for (size_t i = 0; i < l->nentries; i++) {
        const fmuc_zip_entry *e = &l->entries[i];
        char plat[256], sub[256], base[256];
        if (!zipu_under(e->name, "binaries/") || zipu_is_dir(e))
            continue;
        const char *b = strrchr(e->name, '/');
        snprintf(base, sizeof base, "%s", b + 1);
        if (!is_static(base) || !zipu_component(e->name, 1, plat, sizeof plat))
            continue;
        any = 1;
        int has_sub = zipu_component(e->name, 3, base, sizeof base);
        if (!has_sub) {
            snprintf(base, sizeof base, "%s", b + 1);
            if (named_for(base, md))
                fmuc_result_violation(res, "static library '%s' should be in a compiler sub-folder "
                                           "(gccX, VisualStudioX) of binaries/%s/",
                                      zipu_show(shown, sizeof shown, e->name), plat);
            continue;
        }
        if (zipu_component(e->name, 4, sub, sizeof sub))
            continue; /* deeper folders are the vendor's business */
        zipu_component(e->name, 2, sub, sizeof sub);
        /* One report per folder: at its first static library. */
        size_t prefix = strlen("binaries/") + strlen(plat) + 1 + strlen(sub) + 1;
        int first = 1, named = 0;
        for (size_t j = 0; j < l->nentries; j++) {
            const char *o = l->entries[j].name;
            if (!o || strncmp(o, e->name, prefix) != 0 || strchr(o + prefix, '/') ||
                !is_static(o + prefix))
                continue;
            if (j < i)
                first = 0;
            if (named_for(o + prefix, md))
                named = 1;
        }
        if (!first)
            continue;
        snprintf(base, sizeof base, "%.*s", (int)prefix, e->name);
        zipu_show(shown, sizeof shown, base);
        if (!compiler_folder(sub))
            fmuc_result_violation(res, "folder '%s' holds static libraries but is not a compiler "
                                       "sub-folder (gccX, VisualStudioX)", shown);
        if (!named)
            fmuc_result_violation(res, "folder '%s' holds static libraries but none is named "
                                       "lib<modelIdentifier>.a or <modelIdentifier>.lib "
                                       "(ModelExchange modelIdentifier '%s', CoSimulation '%s')",
                                  shown, md->me.present && md->me.model_identifier ? md->me.model_identifier : "-",
                                  md->cs.present && md->cs.model_identifier ? md->cs.model_identifier : "-");
    }
    if (!any)
        fmuc_result_na(res, "no static libraries under binaries/");
}

const fmuc_check fmuc_check_zip_static_library_names = {
    .id = "zip-static-library-names",
    .title = "Static libraries are named after the modelIdentifier in compiler folders",
    .spec = "FMI 2.0.4 §2.3",
    .level = FMUC_LEVEL_SHOULD,
    .why = "Importers that link static libraries look for <modelIdentifier>.lib or "
           "lib<modelIdentifier>.a in a compiler folder; other names or locations are not linked.",
    .fix = "Place static libraries in a compiler sub-folder such as "
           "binaries/win64/VisualStudio2019 and name them after the modelIdentifier.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2,
    .needs = FMUC_NEEDS_ARCHIVE | FMUC_NEEDS_XML,
    .run = run,
};
