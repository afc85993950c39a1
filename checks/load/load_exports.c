/* load-exports: every shipped model library exports all functions of each interface it serves,
 * also those of capabilities the FMU does not support: 25 common + 10 ME + 9 CS (FMI 2.0.4
 * §2.3, §2.1, C-01). Resolved with dlsym in a worker; when the library does not load at all
 * (load-dlopen), its .dynsym is read instead. FMI 1.0: the library serves one standard (24 ME
 * or 25 CS functions, fmi1.h), each exported as <modelIdentifier>_fmiXxx. FMI 3.0: every binary
 * exports all 75 functions of fmi3Functions.h, also those of interface types and capabilities it
 * does not support (FMI 3.0.2 §2.5, fmi3-rules A-17, C-01). */
#include <stdlib.h>

#include "fmi1/fmi1.h"
#include "fmi3/fmi3.h"
#include "fmuc/fmuc_elf.h"
#include "load_util.h"

enum { IF_C = 0, IF_ME = 1, IF_CS = 2 };

typedef struct fn_entry {
    const char *name;
    int iface;
} fn_entry;

static const fn_entry functions[] = {
#define ENTRY_(ret, name, params, iface) {#name, IF_##iface},
    FMUC_FMI2_FUNCTIONS(ENTRY_)
#undef ENTRY_
};
#define NFUNCTIONS (sizeof functions / sizeof functions[0])

static const fn_entry functions3[] = {
#define ENTRY3_(ret, name, params, iface) {#name, IF_C},
    FMUC_FMI3_FUNCTIONS(ENTRY3_)
#undef ENTRY3_
};
#define NFUNCTIONS3 (sizeof functions3 / sizeof functions3[0])

/* the function table of an FMI version (3: all 75 for every binary) */
static const fn_entry *table(int version, size_t *n)
{
    *n = version == 3 ? NFUNCTIONS3 : NFUNCTIONS;
    return version == 3 ? functions3 : functions;
}

typedef struct exports_request {
    int me, cs, se; /* interfaces this library serves (se: FMI 3.0 ScheduledExecution) */
} exports_request;

/* FMI 1.0: the library serves one standard; the names of its list (fmi1.h) that
 * <modelIdentifier>_<name> does not resolve, unprefixed. */
static int worker_fmi1(fmuc_worker_ctx *ctx, const exports_request *rq, cJSON *reply,
                       cJSON *missing)
{
    fmuc_iface iface = rq->cs && !rq->me ? FMUC_IFACE_CS : FMUC_IFACE_ME;
    const char *const *names;
    if (fmuc_inst_load(ctx, iface) < 0) {
        cJSON_AddFalseToObject(reply, "loaded");
        cJSON_AddStringToObject(reply, "error", fmuc_worker_load_error(ctx));
        return 0;
    }
    size_t n = fmuc_inst_lib_missing(ctx, iface, &names);
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(missing, cJSON_CreateString(names[i]));
    cJSON_AddTrueToObject(reply, "loaded");
    return 0;
}

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    const exports_request *rq = payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    cJSON *missing = cJSON_AddArrayToObject(reply, "missing");
    const fmuc_iface ifaces[3] = {FMUC_IFACE_ME, FMUC_IFACE_CS, FMUC_IFACE_SE};
    const int want[3] = {rq->me, rq->cs, rq->se};
    if (fmuc_inst_version(ctx) == 1)
        return worker_fmi1(ctx, rq, reply, missing);
    for (int k = 0; k < 3; k++) {
        if (!want[k])
            continue;
        if (fmuc_inst_load(ctx, (fmuc_iface)ifaces[k]) < 0) {
            cJSON_AddFalseToObject(reply, "loaded");
            cJSON_AddStringToObject(reply, "error", fmuc_worker_load_error(ctx));
            return 0;
        }
        /* Names of both interfaces (the common ones once): check with fmuc_inst_lib_has. */
        size_t nf;
        const fn_entry *fns = table(fmuc_inst_version(ctx), &nf);
        for (size_t i = 0; i < nf; i++) {
            int needed = fns[i].iface == IF_C || (k < 2 && fns[i].iface == (k ? IF_CS : IF_ME));
            int dup = fns[i].iface == IF_C && ((k >= 1 && want[0]) || (k == 2 && want[1]));
            if (needed && !dup && !fmuc_inst_lib_has(ctx, (fmuc_iface)ifaces[k], fns[i].name))
                cJSON_AddItemToArray(missing, cJSON_CreateString(fns[i].name));
        }
    }
    cJSON_AddTrueToObject(reply, "loaded");
    return 0;
}

static int serves_iface(int fn_iface, int me, int cs)
{
    return fn_iface == IF_C || (fn_iface == IF_ME && me) || (fn_iface == IF_CS && cs);
}

/* Fallback for a library that does not load: its defined dynamic symbols. */
static void check_static(const loadu_lib *lib, int me, int cs, int version, fmuc_result *res)
{
    size_t nf;
    const fn_entry *fns = table(version, &nf);
    fmuc_elf_info info;
    fmuc_diag diag = {0};
    if (fmuc_elf_parse_file(&info, lib->path, 0, &diag) < 0 || !info.has_dynsym) {
        fmuc_result_note(res, "%s does not load and its dynamic symbols cannot be read (%s); "
                              "exports not checked", lib->entry,
                         diag.msg[0] ? diag.msg : "no .dynsym");
        fmuc_elf_free(&info);
        return;
    }
    fmuc_result_note(res, "%s does not load (see load-dlopen); checked its .dynsym instead",
                     lib->entry);
    size_t nmissing = 0;
    for (size_t i = 0; i < nf; i++) {
        if (!serves_iface(fns[i].iface, me, cs))
            continue;
        int found = 0;
        for (size_t j = 0; j < info.nsymbols && !found; j++)
            found = strcmp(info.symbols[j].name, fns[i].name) == 0;
        if (!found) {
            nmissing++;
            fmuc_result_violation(res, "%s does not export %s (required for %s)", lib->entry,
                                  fns[i].name,
                                  version == 3                  ? "every FMI 3.0 binary"
                                  : fns[i].iface == IF_C  ? "every FMU"
                                  : fns[i].iface == IF_ME ? "ModelExchange"
                                                                : "CoSimulation");
        }
    }
    (void)nmissing;
    fmuc_elf_free(&info);
}

static const char *iface_of(const char *name)
{
    if (strncmp(name, "fmi3", 4) == 0)
        return "every FMI 3.0 binary";
    for (size_t i = 0; i < NFUNCTIONS; i++)
        if (strcmp(functions[i].name, name) == 0)
            return functions[i].iface == IF_C    ? "every FMU"
                   : functions[i].iface == IF_ME ? "ModelExchange"
                                                 : "CoSimulation";
    return "?";
}

/* ---- FMI 1.0: <modelIdentifier>_fmiXxx, the list of the library's standard ------------------ */

/* Functions only an FMU with a capability calls (CS 1.0: input/output derivatives, asynchronous
 * steps): whether they must be exported even without it is not said (fmi-guides PR #74); the
 * Reference-FMUs export them all, so a missing one is a warning, a missing core function a
 * failure. */
static int fmi1_capability_only(const char *name)
{
    static const char *const opt[] = {"fmiSetRealInputDerivatives", "fmiGetRealOutputDerivatives",
                                      "fmiCancelStep", "fmiGetStatus", "fmiGetIntegerStatus",
                                      "fmiGetBooleanStatus", "fmiGetStringStatus"};
    for (size_t i = 0; i < sizeof opt / sizeof opt[0]; i++)
        if (strcmp(opt[i], name) == 0)
            return 1;
    return 0;
}

static void fmi1_missing(fmuc_result *res, cJSON *ev, const char *entry, const char *id,
                         int cs, const char *name)
{
    const char *std = cs ? "Co-Simulation 1.0" : "Model Exchange 1.0";
    if (fmi1_capability_only(name))
        fmuc_result_warn(res, "%s does not export %s_%s (a function of %s used only with a "
                              "capability; the Reference-FMUs export every function, FMPy "
                              "resolves them all)", entry, id, name, std);
    else
        fmuc_result_violation(res, "%s does not export %s_%s (required by %s)", entry, id, name,
                              std);
    if (ev) {
        cJSON *item = cJSON_CreateObject();
        char full[300];
        snprintf(full, sizeof full, "%s_%s", id, name);
        cJSON_AddStringToObject(item, "library", entry);
        cJSON_AddStringToObject(item, "function", full);
        cJSON_AddItemToArray(ev, item);
    }
}

static const char *const fmi1_me_names[] = {FMUC_FMI1_ME_FUNCTIONS(FMUC_FMI1_NAME_STRING)};
static const char *const fmi1_cs_names[] = {FMUC_FMI1_CS_FUNCTIONS(FMUC_FMI1_NAME_STRING)};

static void fmi1_check_static(const loadu_lib *lib, const char *id, int cs, cJSON *ev,
                              fmuc_result *res)
{
    fmuc_elf_info info;
    fmuc_diag diag = {0};
    const char *const *names = cs ? fmi1_cs_names : fmi1_me_names;
    size_t n = cs ? FMUC_FMI1_CS_COUNT : FMUC_FMI1_ME_COUNT;
    if (fmuc_elf_parse_file(&info, lib->path, 0, &diag) < 0 || !info.has_dynsym) {
        fmuc_result_note(res, "%s does not load and its dynamic symbols cannot be read (%s); "
                              "exports not checked", lib->entry,
                         diag.msg[0] ? diag.msg : "no .dynsym");
        fmuc_elf_free(&info);
        return;
    }
    fmuc_result_note(res, "%s does not load (see load-dlopen); checked its .dynsym instead",
                     lib->entry);
    for (size_t i = 0; i < n; i++) {
        char full[300];
        int found = 0;
        snprintf(full, sizeof full, "%s_%s", id, names[i]);
        for (size_t j = 0; j < info.nsymbols && !found; j++)
            found = strcmp(info.symbols[j].name, full) == 0;
        if (!found)
            fmi1_missing(res, ev, lib->entry, id, cs, names[i]);
    }
    fmuc_elf_free(&info);
}

static void run_fmi1(const fmuc_subject *s, const loadu_lib *libs, size_t n, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    cJSON *ev = cJSON_AddArrayToObject(fmuc_result_evidence(res), "missing");
    for (size_t i = 0; i < n; i++) {
        int cs = libs[i].iface == FMUC_IFACE_CS;
        const char *id = cs ? md->cs.model_identifier : md->me.model_identifier;
        exports_request rq = {.me = !cs, .cs = cs};
        fmuc_worker_spec spec;
        fmuc_worker_outcome o;
        fmuc_diag diag = {0};
        if (!id)
            id = md->fmi1_model_identifier ? md->fmi1_model_identifier : "?";
        fmuc_worker_spec_init(&spec, s->fmu, s->opts);
        spec.label = "load-exports";
        if (fmuc_worker_run(&spec, worker, &rq, &o, &diag) < 0) {
            fmuc_result_error(res, "%s: could not start a worker: %s", libs[i].entry, diag.msg);
            continue;
        }
        if (!fmuc_worker_outcome_to_result(&o, res)) {
            const char *error;
            if (!loadu_loaded(o.reply, &error)) {
                fmi1_check_static(&libs[i], id, cs, ev, res);
            } else {
                const cJSON *m;
                cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(o.reply, "missing"))
                {
                    if (cJSON_IsString(m))
                        fmi1_missing(res, ev, libs[i].entry, id, cs, m->valuestring);
                }
            }
        }
        fmuc_worker_outcome_free(&o);
    }
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    loadu_lib libs[3];
    size_t n = loadu_libs(s->fmu, libs);
    if (!n) {
        fmuc_result_na(res, "no binary for this platform");
        return;
    }
    if (fmuc_fmu_fmi_version(s->fmu) == 1) {
        run_fmi1(s, libs, n, res);
        return;
    }
    cJSON *ev = cJSON_AddArrayToObject(fmuc_result_evidence(res), "missing");
    for (size_t i = 0; i < n; i++) {
        exports_request rq = {.me = (libs[i].ifaces & FMUC_APPLIES_ME) != 0,
                              .cs = (libs[i].ifaces & FMUC_APPLIES_CS) != 0,
                              .se = (libs[i].ifaces & FMUC_APPLIES_SE) != 0};
        fmuc_worker_spec spec;
        fmuc_worker_outcome o;
        fmuc_diag diag = {0};
        fmuc_worker_spec_init(&spec, s->fmu, s->opts);
        spec.label = "load-exports";
        if (fmuc_worker_run(&spec, worker, &rq, &o, &diag) < 0) {
            fmuc_result_error(res, "%s: could not start a worker: %s", libs[i].entry, diag.msg);
            continue;
        }
        if (!fmuc_worker_outcome_to_result(&o, res)) {
            const char *error;
            if (!loadu_loaded(o.reply, &error)) {
                check_static(&libs[i], rq.me, rq.cs, s->fmu->md.fmi == FMUC_FMI3 ? 3 : 2, res);
            } else {
                const cJSON *m;
                cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(o.reply, "missing"))
                {
                    if (!cJSON_IsString(m))
                        continue;
                    fmuc_result_violation(res, "%s does not export %s (required for %s)",
                                          libs[i].entry, m->valuestring, iface_of(m->valuestring));
                    if (ev) {
                        cJSON *item = cJSON_CreateObject();
                        cJSON_AddStringToObject(item, "library", libs[i].entry);
                        cJSON_AddStringToObject(item, "function", m->valuestring);
                        cJSON_AddItemToArray(ev, item);
                    }
                }
            }
        }
        fmuc_worker_outcome_free(&o);
    }
}

const fmuc_check fmuc_check_load_exports = {
    .id = "load-exports",
    .title = "All functions of each declared interface are exported (FMI 1.0: as "
             "<modelIdentifier>_fmiXxx)",
    .spec = "FMI 2.0.4 §2.3, §2.1; FMI 3.0.2 §2.5, §2.3; FMI 1.0 ME (function names prefixed by "
            "the modelIdentifier, also in shared libraries); FMI 1.0 CS (the same prefix)",
    .level = FMUC_LEVEL_MUST,
    .why = "An importer resolves every FMI function of an interface at load time; a missing "
           "export makes it refuse the FMU even if the function is one the FMU never needs.",
    .fix = "Export every fmi2 function of each implemented interface, implementing unsupported "
           "ones as stubs that log and return fmi2Error.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
