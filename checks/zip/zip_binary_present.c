/* zip-binary-present: an implementation is present, and each platform folder holds a library named
 * after every declared modelIdentifier (FMI 2.0.4 §2.3, A-12, A-13). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "check.h"

static int has_entry(const fmuc_zip_listing *l, const char *name)
{
    for (size_t i = 0; i < l->nentries; i++)
        if (l->entries[i].name && strcmp(l->entries[i].name, name) == 0)
            return 1;
    return 0;
}

/* The shared library's extension in a platform folder; NULL for a folder of another kind. FMI 3.0
 * (§2.5.1.4.1): shared libraries sit in <arch>-<sys> folders; <arch>-<sys>-<abi> folders hold
 * static libraries (zip-static-library-names). */
static const char *lib_ext(const char *platform)
{
    const char *dash = strchr(platform, '-');
    if (dash && strchr(dash + 1, '-'))
        return NULL;
    if (strncmp(platform, "win", 3) == 0 || strstr(platform, "-windows"))
        return ".dll";
    if (strncmp(platform, "darwin", 6) == 0 || strstr(platform, "-darwin"))
        return ".dylib";
    if (strncmp(platform, "linux", 5) == 0 || strstr(platform, "-linux"))
        return ".so";
    return NULL;
}

/* Collect distinct platform folder names under binaries/ into out (max n). */
static size_t platforms(const fmuc_zip_listing *l, char out[][64], size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < l->nentries; i++) {
        const char *nm = l->entries[i].name;
        if (!nm || strncmp(nm, "binaries/", 9) != 0)
            continue;
        const char *p = nm + 9;
        const char *slash = strchr(p, '/');
        size_t len = slash ? (size_t)(slash - p) : strlen(p);
        if (len == 0 || len >= 64 || !slash || slash[1] == '\0')
            continue; /* the folder entry itself, or a file directly in binaries/ */
        int seen = 0;
        for (size_t j = 0; j < k && !seen; j++)
            seen = strlen(out[j]) == len && strncmp(out[j], p, len) == 0;
        if (!seen && k < n) {
            memcpy(out[k], p, len);
            out[k][len] = '\0';
            k++;
        }
    }
    return k;
}

/* Windows file names are case-insensitive: a library whose name differs only in case loads. */
static int has_entry_nocase(const fmuc_zip_listing *l, const char *name)
{
    for (size_t i = 0; i < l->nentries; i++)
        if (l->entries[i].name && strcasecmp(l->entries[i].name, name) == 0)
            return 1;
    return 0;
}

static const char *const iface_names[3] = {"ModelExchange", "CoSimulation", "ScheduledExecution"};

/* the modelIdentifier of interface k, unless absent or one of an earlier interface */
static int skip_id(const char *ids[3], int k)
{
    if (!ids[k] || !*ids[k])
        return 1;
    for (int j = 0; j < k; j++)
        if (ids[j] && strcmp(ids[j], ids[k]) == 0)
            return 1;
    return 0;
}

/* The libraries missing from binaries/<plat>/, each a violation in res (when not NULL). A
 * library that differs only in letter case in a Windows folder is a violation of the letter:
 * it loads on Windows. */
static int missing_libraries(const fmuc_zip_listing *l, const char *plat, const char *ids[3],
                             fmuc_result *res)
{
    const char *ext = lib_ext(plat);
    int n = 0;
    for (int k = 0; k < 3; k++) {
        if (skip_id(ids, k))
            continue;
        char want[512];
        snprintf(want, sizeof want, "binaries/%s/%s%s", plat, ids[k], ext);
        if (has_entry(l, want))
            continue;
        n++;
        if (!res)
            continue;
        if (strcmp(ext, ".dll") == 0 && has_entry_nocase(l, want))
            fmuc_result_violation_letter(res, "%s modelIdentifier '%s': '%s' is missing; a "
                                         "library differing only in letter case is there "
                                         "(loads on Windows, whose file names ignore case)",
                                         iface_names[k], ids[k], want);
        else
            fmuc_result_violation(res, "%s modelIdentifier '%s': '%s' is missing",
                                  iface_names[k], ids[k], want);
    }
    return n;
}

/* The same for another platform's folder while this host's folder is complete. */
static void missing_libraries_letter(const fmuc_zip_listing *l, const char *plat,
                                     const char *ids[3], fmuc_result *res, const char *host)
{
    const char *ext = lib_ext(plat);
    for (int k = 0; k < 3; k++) {
        if (skip_id(ids, k))
            continue;
        char want[512];
        snprintf(want, sizeof want, "binaries/%s/%s%s", plat, ids[k], ext);
        if (!has_entry(l, want))
            fmuc_result_violation_letter(res, "%s modelIdentifier '%s': '%s' is missing (not "
                                         "this host's platform %s, whose library is there)",
                                         iface_names[k], ids[k], want, host);
    }
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_fmu *fmu = s->fmu;
    const fmuc_zip_listing *l = &fmu->listing;
    int has_sources = 0;
    for (size_t i = 0; i < l->nentries && !has_sources; i++)
        has_sources = l->entries[i].name && strncmp(l->entries[i].name, "sources/", 8) == 0 &&
                      !l->entries[i].is_dir;
    char plats[32][64];
    size_t np = platforms(l, plats, 32);
    if (np == 0 && !has_sources) {
        fmuc_result_violation(res, "no implementation: neither binaries/<platform>/ nor sources/");
        return;
    }
    const fmuc_md *md = fmu->md_parsed ? &fmu->md : NULL;
    const char *ids[3] = {md && md->me.present ? md->me.model_identifier : NULL,
                          md && md->cs.present ? md->cs.model_identifier : NULL,
                          md && md->se.present ? md->se.model_identifier : NULL};
    /* FMI 3.0 names the folder by its platform tuple (x86_64-linux), FMI 2.0 linux64 */
    const char *host = fmuc_host_platform_for(md && md->fmi == FMUC_FMI3 ? 3 : 2);
    int host_found = 0;
    /* this host's folder holds every library: a missing one elsewhere cannot break an
     * importer here (a violation of the letter, interop warns) */
    int host_ok = 0;
    for (size_t p = 0; p < np && !host_ok; p++)
        if (strcmp(plats[p], host) == 0 && lib_ext(plats[p]))
            host_ok = missing_libraries(l, plats[p], ids, NULL) == 0;
    cJSON *ev = cJSON_AddArrayToObject(fmuc_result_evidence(res), "platforms");
    for (size_t p = 0; p < np; p++) {
        cJSON_AddItemToArray(ev, cJSON_CreateString(plats[p]));
        if (!lib_ext(plats[p]))
            continue; /* vendor-specific folder: not an error */
        if (strcmp(plats[p], host) == 0)
            host_found = 1;
        missing_libraries(l, plats[p], ids, strcmp(plats[p], host) == 0 || !host_ok ? res : NULL);
        if (strcmp(plats[p], host) != 0 && host_ok)
            missing_libraries_letter(l, plats[p], ids, res, host);
    }
    if (!host_found)
        fmuc_result_note(res, "no binary for this host's platform '%s': dynamic checks cannot run",
                         host);
}

const fmuc_check fmuc_check_zip_binary_present = {
    .id = "zip-binary-present",
    .title = "an implementation is present; libraries are named after the modelIdentifier",
    .spec = "FMI 2.0.4 §2.3, §2.1.1; FMI 3.0.2 §2.5, §2.5.1.4, §2.5.2; FMI 1.0 ME (FMU distribution, fmiModelFunctions.h); FMI 1.0 CS (FMU distribution)",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_SOME,
    .interop_why = "a library missing from another platform's folder while this host's folder is "
                   "complete, or named in another letter case for Windows, cannot break an "
                   "importer on this platform",
    .why = "Importers look for binaries/<platform>/<modelIdentifier>.so/.dll/.dylib; without an "
           "implementation or with another file name, they cannot load the FMU.",
    .fix = "Ship, for each platform, a library named exactly after each declared modelIdentifier, "
           "or ship the C sources and list them in SourceFiles (FMI 3.0: in "
           "sources/buildDescription.xml).",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_ARCHIVE,
    .run = run,
};
