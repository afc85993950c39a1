/* zip-static-library-names: FMI 2.0 (FMI 2.0.4 §2.3, §2.1.1, A-15): static libraries sit in
 * compiler sub-folders (VisualStudioX, gccX) of a platform folder and are named
 * <modelIdentifier>.lib or lib<modelIdentifier>.a. FMI 3.0 (FMI 3.0.2 §2.5.1.4.1, fmi3-rules
 * the implementation shipped as a static library (named <modelIdentifier>.lib or
 * lib<modelIdentifier>.a, §2.2.2) sits in binaries/<arch>-<sys> or binaries/<arch>-<sys>-<abi>,
 * the ABI section is [a-z][a-z0-9_]*, and documentation/staticLinking.txt or .html describes
 * how to link it; other static libraries are the vendor's helpers (a note). A .lib beside a .dll of its stem, or a MinGW <name>.dll.a, is a DLL's import library,
 * not a static implementation: not judged. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "fmuc/fmuc_elf.h"
#include "zip_util.h"

static int is_static(const char *base)
{
    size_t n = strlen(base);
    return (n > 2 && strcmp(base + n - 2, ".a") == 0) || (n > 4 && strcmp(base + n - 4, ".lib") == 0);
}

/* 1 when name (a file under binaries/) is a Windows import library: MinGW's <name>.dll.a, or a
 * .lib whose folder has a .dll of the same stem */
static int import_library(const fmuc_zip_listing *l, const char *name)
{
    size_t n = strlen(name);
    if (n > 6 && strcmp(name + n - 6, ".dll.a") == 0)
        return 1;
    if (n < 4 || strcmp(name + n - 4, ".lib") != 0 || n + 1 > 1024)
        return 0;
    char dll[1024];
    snprintf(dll, sizeof dll, "%.*s.dll", (int)(n - 4), name);
    return zipu_find(l, dll) != NULL;
}

static int named_for(const char *base, const fmuc_md *md)
{
    const char *ids[3] = {md->me.present ? md->me.model_identifier : NULL,
                          md->cs.present ? md->cs.model_identifier : NULL,
                          md->se.present ? md->se.model_identifier : NULL};
    for (int k = 0; k < 3; k++) {
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

/* FMI 3.0: the folder binaries/<plat>/ holds the implementation as a static library. */
static void judge_fmi3_folder(const char *plat, const char *name, fmuc_result *res)
{
    char shown[512], base[256];
    zipu_show(shown, sizeof shown, name);
    if (fmuc_platform_is_tuple(plat))
        return;
    /* <arch>-<sys>-<abi> with a tuple in front but an ABI section out of [a-z][a-z0-9_]* */
    const char *first = strchr(plat, '-');
    const char *abi = first ? strchr(first + 1, '-') : NULL;
    if (abi && (size_t)(abi - plat) < sizeof base) {
        snprintf(base, sizeof base, "%.*s", (int)(abi - plat), plat);
        if (fmuc_platform_is_tuple(base)) {
            char sa[256];
            fmuc_result_fail(res, "static library '%s': the ABI section '%s' of platform folder "
                                  "'%s' must start with a lower-case letter and hold only a-z, "
                                  "0-9 and '_'",
                             shown, zipu_show(sa, sizeof sa, abi + 1), base);
            return;
        }
    }
    fmuc_result_note(res, "static library '%s' sits in the vendor-specific folder 'binaries/%s/' "
                          "(not <arch>-<sys>[-<abi>]); importers look for the platform tuples",
                     shown, zipu_show(base, sizeof base, plat));
}

/* FMI 3.0: a static library named after a modelIdentifier (<id>.lib, lib<id>.a: the names of
 * FMI 3.0.2 §2.2.2) is the implementation shipped as a static library; others are helper
 * libraries of the vendor, a note. */
static void run_fmi3(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_zip_listing *l = &s->fmu->listing;
    const fmuc_md *md = &s->fmu->md;
    const char *impl = NULL, *helper = NULL;
    size_t nimpl = 0, nhelper = 0;
    for (size_t i = 0; i < l->nentries; i++) {
        const fmuc_zip_entry *e = &l->entries[i];
        char plat[256], deeper[256];
        if (!zipu_under(e->name, "binaries/") || zipu_is_dir(e))
            continue;
        const char *b = strrchr(e->name, '/');
        if (!is_static(b + 1) || import_library(l, e->name) ||
            !zipu_component(e->name, 1, plat, sizeof plat) ||
            !zipu_component(e->name, 2, deeper, sizeof deeper))
            continue; /* not a static library, or directly in binaries/ (zip-platform-folders) */
        if (!named_for(b + 1, md)) {
            if (!helper)
                helper = e->name;
            nhelper++;
            continue;
        }
        if (!impl)
            impl = e->name;
        nimpl++;
        char shown[512];
        if (zipu_component(e->name, 3, deeper, sizeof deeper)) {
            fmuc_result_note(res, "static library '%s' is below a platform folder; FMI 3.0 places "
                                  "it in binaries/<arch>-<sys>[-<abi>]/",
                             zipu_show(shown, sizeof shown, e->name));
            continue;
        }
        /* one judgement per folder: at its first static library of the implementation */
        size_t prefix = (size_t)(b - e->name) + 1;
        int first = 1;
        for (size_t j = 0; j < i && first; j++) {
            const char *o = l->entries[j].name;
            if (o && strncmp(o, e->name, prefix) == 0 && !strchr(o + prefix, '/') &&
                is_static(o + prefix) && named_for(o + prefix, md))
                first = 0;
        }
        if (first)
            judge_fmi3_folder(plat, e->name, res);
    }
    if (nhelper) {
        char shown[512];
        fmuc_result_note(res, "%zu static librar%s not named after a modelIdentifier ('%s'%s): "
                              "helper libraries, not the implementation (<modelIdentifier>.lib, "
                              "lib<modelIdentifier>.a); not judged",
                         nhelper, nhelper == 1 ? "y" : "ies", zipu_show(shown, sizeof shown, helper),
                         nhelper > 1 ? ", ..." : "");
    }
    if (!impl) {
        fmuc_result_na(res, nhelper ? "no static library of the implementation under binaries/"
                                    : "no static libraries under binaries/");
        return;
    }
    if (!zipu_find(l, "documentation/staticLinking.txt") &&
        !zipu_find(l, "documentation/staticLinking.html")) {
        char shown[512];
        fmuc_result_fail(res, "the FMU ships its implementation as %zu static librar%s ('%s'%s) "
                              "but no documentation/staticLinking.txt or .html describing how to "
                              "link against it",
                         nimpl, nimpl == 1 ? "y" : "ies", zipu_show(shown, sizeof shown, impl),
                         nimpl > 1 ? ", ..." : "");
    }
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    if (s->fmu->md.fmi == FMUC_FMI3) {
        run_fmi3(s, res);
        return;
    }
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
        if (!is_static(base) || import_library(l, e->name) ||
            !zipu_component(e->name, 1, plat, sizeof plat))
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
                !is_static(o + prefix) || import_library(l, o))
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
    .title = "Static libraries have their standard folders and names (3.0: a linking description)",
    .spec = "FMI 2.0.4 §2.3; FMI 3.0.2 §2.5.1.4.1",
    .level = FMUC_LEVEL_SHOULD,
    .interop = FMUC_INTEROP_WARN,
    .interop_why = "static libraries are linked by hand from the FMU's documentation; an importer "
                   "that loads the shared library never looks at them",
    .why = "Importers that link static libraries look for them by folder and name (2.0: "
           "<modelIdentifier>.lib in a compiler folder); 3.0 needs staticLinking to link at all.",
    .fix = "2.0: use a compiler sub-folder (binaries/win64/VisualStudio2019) and the "
           "modelIdentifier. 3.0: binaries/<arch>-<sys>[-<abi>] and documentation/staticLinking.txt.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_ARCHIVE | FMUC_NEEDS_XML,
    .run = run,
};
