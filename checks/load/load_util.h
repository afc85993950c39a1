/* Helpers shared by the load-* checks (header-only): the FMU's model libraries for this platform
 * and a worker round trip that loads one of them and optionally calls a string getter. */
#ifndef FMUC_CHECKS_LOAD_UTIL_H
#define FMUC_CHECKS_LOAD_UTIL_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "api/api_util.h"
#include "check.h"
#include "fmuc/fmuc_elf.h"
#include "fmuc/fmuc_inst.h"
#include "fmuc/fmuc_worker.h"
#include "zip/zip_util.h"

typedef struct loadu_lib {
    const char *path;   /* extracted file */
    char entry[512];    /* archive name, for messages: binaries/<platform>/<file> */
    fmuc_iface iface;   /* the interface to load it as (the first of ifaces: ME, CS, SE) */
    unsigned ifaces;    /* the interfaces it serves (FMUC_APPLIES_* bits; several: one library) */
} loadu_lib;

/* "ModelExchange", "CoSimulation and ScheduledExecution", ... for FMUC_APPLIES_* bits */
static inline const char *loadu_ifaces_name(unsigned a)
{
    static const char *const n[8] = {"no interface",
                                     "ModelExchange",
                                     "CoSimulation",
                                     "ModelExchange and CoSimulation",
                                     "ScheduledExecution",
                                     "ModelExchange and ScheduledExecution",
                                     "CoSimulation and ScheduledExecution",
                                     "ModelExchange, CoSimulation and ScheduledExecution"};
    return n[a & 7u];
}

/* The distinct model libraries of the declared interfaces (0 to 3: ME, CS, FMI 3.0 SE). */
static inline size_t loadu_libs(const fmuc_fmu *fmu, loadu_lib out[3])
{
    size_t n = 0;
    const char *plat = fmu->platform ? fmu->platform : fmuc_host_platform();
    const int declared[3] = {fmu->md.me.present, fmu->md.cs.present, fmu->md.se.present};
    const char *paths[3];
    for (int k = 0; k < 3; k++)
        paths[k] = declared[k] ? fmuc_fmu_lib_path(fmu, k) : NULL;
    for (int k = 0; k < 3; k++) {
        int dup = 0;
        if (!paths[k])
            continue;
        for (size_t j = 0; j < n; j++)
            if (strcmp(out[j].path, paths[k]) == 0) {
                out[j].ifaces |= 1u << k;
                dup = 1;
            }
        if (dup)
            continue;
        const char *base = strrchr(paths[k], '/');
        out[n].path = paths[k];
        snprintf(out[n].entry, sizeof out[n].entry, "binaries/%s/%s", plat, base ? base + 1 : paths[k]);
        out[n].iface = k == 2 ? FMUC_IFACE_SE : k ? FMUC_IFACE_CS : FMUC_IFACE_ME;
        out[n].ifaces = 1u << k;
        n++;
    }
    return n;
}

enum { LOADU_LOAD_ONLY = 0, LOADU_GET_VERSION, LOADU_GET_TYPES_PLATFORM };

typedef struct loadu_request {
    fmuc_iface iface;
    int what;
} loadu_request;

/* The version's no-argument string function (LOADU_GET_*): fmi2GetVersion, fmi2GetTypesPlatform;
 * FMI 1.0 fmiGetVersion, fmiGetModelTypesPlatform (ME) / fmiGetTypesPlatform (CS); FMI 3.0
 * fmi3GetVersion (3.0 has no types platform function). */
static inline const char *loadu_string_fn_name(int version, fmuc_iface iface, int what)
{
    if (version == 3 && what == LOADU_GET_VERSION)
        return "fmi3GetVersion";
    if (version == 1)
        return what == LOADU_GET_VERSION ? "fmiGetVersion"
               : iface == FMUC_IFACE_CS  ? "fmiGetTypesPlatform"
                                         : "fmiGetModelTypesPlatform";
    return what == LOADU_GET_VERSION ? "fmi2GetVersion" : "fmi2GetTypesPlatform";
}

/* Worker side: copy the string at v (at most n - 1 bytes) into buf through a pipe, so that a
 * pointer the FMU returned that cannot be read ends in -1 (write's EFAULT), not in a crash of
 * the worker's own code; the copied length otherwise. */
static inline long loadu_copy_string(const char *v, char *buf, size_t n)
{
    int p[2];
    size_t i = 0;
    if (pipe(p) != 0)
        return -2;
    for (; i + 1 < n; i++) {
        if (write(p[1], v + i, 1) != 1 || read(p[0], buf + i, 1) != 1) {
            close(p[0]);
            close(p[1]);
            return -1;
        }
        if (!buf[i])
            break;
    }
    buf[i] = '\0';
    close(p[0]);
    close(p[1]);
    return (long)i;
}

/* Worker side: load the library, report {"loaded", "error", "missing", "provided", "value"}. */
static inline int loadu_worker(fmuc_worker_ctx *ctx, void *payload)
{
    const loadu_request *rq = payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    fmuc_iface iface = (fmuc_iface)rq->iface;
    if (fmuc_inst_load(ctx, iface) < 0) {
        cJSON_AddFalseToObject(reply, "loaded");
        cJSON_AddStringToObject(reply, "error", fmuc_worker_load_error(ctx));
        return 0;
    }
    cJSON_AddTrueToObject(reply, "loaded");
    cJSON *missing = cJSON_AddArrayToObject(reply, "missing");
    const char *const *names;
    size_t nmissing = fmuc_inst_lib_missing(ctx, iface, &names);
    for (size_t i = 0; i < nmissing; i++)
        cJSON_AddItemToArray(missing, cJSON_CreateString(names[i]));
    if (rq->what == LOADU_LOAD_ONLY)
        return 0;
    const char *fn = loadu_string_fn_name(fmuc_inst_version(ctx), iface, rq->what);
    if (!fmuc_inst_lib_has(ctx, iface, fn)) {
        cJSON_AddFalseToObject(reply, "provided");
        return 0;
    }
    cJSON_AddTrueToObject(reply, "provided");
    const char *v = rq->what == LOADU_GET_VERSION ? fmuc_inst_lib_version(ctx, iface)
                                                  : fmuc_inst_lib_types_platform(ctx, iface);
    if (!v) {
        cJSON_AddNullToObject(reply, "value");
        return 0;
    }
    char buf[257];
    long len = loadu_copy_string(v, buf, sizeof buf);
    if (len == -2) { /* no pipe: read it directly */
        len = (long)strnlen(v, sizeof buf - 1);
        memcpy(buf, v, (size_t)len);
        buf[len] = '\0';
    }
    if (len < 0) {
        char at[32];
        snprintf(at, sizeof at, "%p", (const void *)v);
        cJSON_AddStringToObject(reply, "unreadable", at);
        return 0;
    }
    cJSON_AddStringToObject(reply, "value", buf);
    if (len == (long)sizeof buf - 1)
        cJSON_AddTrueToObject(reply, "truncated");
    return 0;
}

/* Parent side: run the worker for one library. Returns the reply (owned by *o) or NULL when the
 * worker did not end well; then res already carries the ERROR, or, when the library crashed or
 * hung while being loaded, the violation "does not load" (loading is what load-* probes) and
 * the interfaces it serves are recorded as unusable for the checks that follow. Free *o
 * afterwards. */
static inline const cJSON *loadu_run(const fmuc_subject *s, const loadu_lib *lib, int what,
                                     const char *label, fmuc_worker_outcome *o, fmuc_result *res)
{
    fmuc_worker_spec spec;
    fmuc_diag diag = {0};
    loadu_request rq = {.iface = lib->iface, .what = what};
    fmuc_worker_spec_init(&spec, s->fmu, s->opts);
    spec.label = label;
    if (fmuc_worker_run(&spec, loadu_worker, &rq, o, &diag) < 0) {
        fmuc_result_error(res, "%s: could not start a worker: %s", lib->entry, diag.msg);
        return NULL;
    }
    if (o->end != FMUC_WORKER_OK && o->load_attempted && !o->load_ok && apiu_common_phase(o)) {
        char why[600];
        fmuc_worker_death_text(o, why, sizeof why);
        apiu_absorb_probed_death(o, res);
        fmuc_result_violation(res, "%s does not load: the worker ended with %s while loading it",
                              lib->entry, why);
        /* every interface this library serves */
        static const fmuc_iface by_bit[3] = {FMUC_IFACE_ME, FMUC_IFACE_CS, FMUC_IFACE_SE};
        for (int k = 0; k < 3; k++)
            if (lib->ifaces & (1u << k))
                fmuc_shared_mark_unusable(s, by_bit[k], FMUC_UNUSABLE_INSTANCE, res->id, why, NULL);
        return NULL;
    }
    if (fmuc_worker_outcome_to_result(o, res))
        return NULL;
    return o->reply;
}

/* "loaded" of a reply; the load error text in *error when it failed. */
static inline int loadu_loaded(const cJSON *reply, const char **error)
{
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(reply, "error");
    *error = cJSON_IsString(err) ? err->valuestring : "unknown error";
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(reply, "loaded"));
}

/* Is entry e a file directly in binaries/<host platform>/? Then its extracted path goes to path. */
static inline int loadu_host_file(const fmuc_fmu *fmu, const fmuc_zip_entry *e, char *path, size_t n)
{
    char prefix[300];
    const char *plat = fmu->platform ? fmu->platform : fmuc_host_platform();
    snprintf(prefix, sizeof prefix, "binaries/%s/", plat);
    size_t pl = strlen(prefix);
    if (!e->name || strncmp(e->name, prefix, pl) != 0 || !e->name[pl] || strchr(e->name + pl, '/') ||
        e->is_dir || !fmu->unpack_dir)
        return 0;
    struct stat st;
    if (snprintf(path, n, "%s/%s", fmu->unpack_dir, e->name) >= (int)n || lstat(path, &st) != 0 ||
        !S_ISREG(st.st_mode))
        return 0;
    return 1;
}

/* The libraries of a plain Debian system a library may need without shipping them: glibc,
 * libgcc_s, libstdc++, zlib and the dynamic loaders (load-needed, zip-external-dependencies). */
static inline int loadu_is_base_lib(const char *n)
{
    static const char *const base[] = {
        "libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1", "libutil.so.1",
        "libresolv.so.2", "libanl.so.1", "libmvec.so.1", "libcrypt.so.1", "libgcc_s.so.1",
        "libstdc++.so.6", "libz.so.1", "ld-linux-x86-64.so.2", "ld-linux.so.2",
        "ld-linux-aarch64.so.1", "ld-linux-armhf.so.3", "linux-vdso.so.1",
    };
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++)
        if (strcmp(base[i], n) == 0)
            return 1;
    return 0;
}

/* What one DT_NEEDED entry of a library of the platform folder is (loadu_each_needed). */
typedef enum {
    LOADU_NEEDED_PATH = 0,         /* a path ("/opt/x/libx.so"): outside the FMU */
    LOADU_NEEDED_BASE,             /* a base system library (loadu_is_base_lib) */
    LOADU_NEEDED_SHIPPED,          /* in the same binaries/<platform>/ folder, $ORIGIN set */
    LOADU_NEEDED_SHIPPED_NO_ORIGIN,/* shipped there, but no $ORIGIN RPATH/RUNPATH finds it */
    LOADU_NEEDED_EXTERNAL          /* neither: the machine must provide it */
} loadu_needed_kind;

/* fn(user, archive name of the ELF file, needed name, kind) for every DT_NEEDED of every ELF
 * file in binaries/<platform>/ (as extracted); a file that is an ELF file but does not parse is
 * a note in notes (when not NULL). Returns how many ELF files were read. */
static inline size_t loadu_each_needed(const fmuc_fmu *fmu,
                                       void (*fn)(void *user, const char *file, const char *needed,
                                                  loadu_needed_kind kind),
                                       void *user, fmuc_result *notes)
{
    const fmuc_zip_listing *l = &fmu->listing;
    const char *plat = fmu->platform ? fmu->platform : fmuc_host_platform();
    char path[4096], shipped[600];
    size_t checked = 0;
    for (size_t i = 0; i < l->nentries; i++) {
        const fmuc_zip_entry *e = &l->entries[i];
        if (!loadu_host_file(fmu, e, path, sizeof path))
            continue;
        fmuc_elf_info info;
        fmuc_diag diag = {0};
        fmuc_err err = fmuc_elf_parse_file(&info, path, 0, &diag);
        if (err == FMUC_EINPUT) {
            fmuc_elf_free(&info);
            continue;
        }
        checked++;
        if (err < 0 && notes) {
            char shown[512];
            zipu_show(shown, sizeof shown, e->name);
            fmuc_result_note(notes, "%s: %s", shown, diag.msg);
        }
        int origin = (info.runpath && (strstr(info.runpath, "$ORIGIN") ||
                                       strstr(info.runpath, "${ORIGIN}"))) ||
                     (info.rpath && (strstr(info.rpath, "$ORIGIN") ||
                                     strstr(info.rpath, "${ORIGIN}")));
        for (size_t k = 0; k < info.nneeded; k++) {
            const char *n = info.needed[k];
            loadu_needed_kind kind;
            snprintf(shipped, sizeof shipped, "binaries/%s/%s", plat, n);
            if (strchr(n, '/'))
                kind = LOADU_NEEDED_PATH;
            else if (loadu_is_base_lib(n))
                kind = LOADU_NEEDED_BASE;
            else if (zipu_find(l, shipped))
                kind = origin ? LOADU_NEEDED_SHIPPED : LOADU_NEEDED_SHIPPED_NO_ORIGIN;
            else
                kind = LOADU_NEEDED_EXTERNAL;
            fn(user, e->name, n, kind);
        }
        fmuc_elf_free(&info);
    }
    return checked;
}

/* Does a file name look like a shared object (x.so, x.so.1)? */
static inline int loadu_is_so_name(const char *name)
{
    size_t n = strlen(name);
    return (n > 3 && strcmp(name + n - 3, ".so") == 0) || strstr(name, ".so.") != NULL;
}

/* Call a no-argument function that returns a string (fmi2GetVersion, fmi2GetTypesPlatform,
 * fmi3GetVersion) in a worker for every library and require `expected` (what = LOADU_GET_*); an
 * expected value ending in '*' is a prefix ("3.*"). fn NULL: the version's function of each
 * library's interface (loadu_string_fn_name; FMI 1.0 names it per standard). */
static inline void loadu_check_string_fn(const fmuc_subject *s, fmuc_result *res, int what,
                                         const char *check_id, const char *fn, const char *expected)
{
    size_t elen = strlen(expected);
    int prefix = elen > 0 && expected[elen - 1] == '*';
    loadu_lib libs[3];
    size_t n = loadu_libs(s->fmu, libs);
    int ran = 0;
    const char *fnl = fn;
    for (size_t i = 0; i < n; i++) {
        fmuc_worker_outcome o;
        const cJSON *reply = loadu_run(s, &libs[i], what, check_id, &o, res);
        const char *error;
        fnl = fn ? fn
                 : loadu_string_fn_name(fmuc_fmu_fmi_version(s->fmu), libs[i].iface, what);
        if (!reply) {
            ran = 1;
        } else if (!loadu_loaded(reply, &error)) {
            fmuc_result_note(res, "%s does not load (see load-dlopen): %s", libs[i].entry, error);
        } else if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(reply, "provided"))) {
            fmuc_result_note(res, "%s does not export %s (see load-exports)", libs[i].entry, fnl);
        } else {
            ran = 1;
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(reply, "value");
            const char *bad = cJSON_GetStringValue(
                cJSON_GetObjectItemCaseSensitive(reply, "unreadable"));
            if (bad)
                fmuc_result_violation(res, "%s: %s() returned %s, a pointer whose string cannot "
                                           "be read; expected \"%s\"",
                                      libs[i].entry, fnl, bad, expected);
            else if (!cJSON_IsString(v))
                fmuc_result_violation(res, "%s: %s() returned NULL; expected \"%s\"", libs[i].entry,
                                      fnl, expected);
            else if (prefix ? strncmp(v->valuestring, expected, elen - 1) != 0
                            : strcmp(v->valuestring, expected) != 0)
                fmuc_result_violation(
                    res, "%s: %s() returned \"%s\"%s; expected \"%s\"", libs[i].entry, fnl,
                    v->valuestring,
                    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(reply, "truncated")) ? "..." : "",
                    expected);
        }
        fmuc_worker_outcome_free(&o);
    }
    if (!ran)
        fmuc_result_na(res, "no loadable library exporting %s", fnl ? fnl : "the function");
}

#endif
