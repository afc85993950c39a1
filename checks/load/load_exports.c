/* load-exports: every shipped model library exports all functions of each interface it serves,
 * also those of capabilities the FMU does not support: 25 common + 10 ME + 9 CS (FMI 2.0.4
 * §2.3, §2.1, C-01). Resolved with dlsym in a worker; when the library does not load at all
 * (load-dlopen), its .dynsym is read instead. FMI 3.0: every binary exports all 75 functions of
 * fmi3Functions.h, also those of interface types and capabilities it does not support (FMI 3.0.2
 * §2.5, fmi3-rules A-17, C-01). */
#include <stdlib.h>

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
    int me, cs; /* interfaces this library serves */
} exports_request;

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    const exports_request *rq = payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    cJSON *missing = cJSON_AddArrayToObject(reply, "missing");
    const fmi2Type ifaces[2] = {fmi2ModelExchange, fmi2CoSimulation};
    const int want[2] = {rq->me, rq->cs};
    for (int k = 0; k < 2; k++) {
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
            int needed = fns[i].iface == IF_C || fns[i].iface == (k ? IF_CS : IF_ME);
            int dup = k == 1 && want[0] && fns[i].iface == IF_C;
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

static void run(const fmuc_subject *s, fmuc_result *res)
{
    loadu_lib libs[2];
    size_t n = loadu_libs(s->fmu, libs);
    if (!n) {
        fmuc_result_na(res, "no binary for this platform");
        return;
    }
    cJSON *ev = cJSON_AddArrayToObject(fmuc_result_evidence(res), "missing");
    for (size_t i = 0; i < n; i++) {
        exports_request rq = {.me = libs[i].iface == fmi2ModelExchange,
                              .cs = libs[i].iface == fmi2CoSimulation || libs[i].shared};
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
    .title = "All functions of each declared interface are exported",
    .spec = "FMI 2.0.4 §2.3, §2.1; FMI 3.0.2 §2.5, §2.3",
    .level = FMUC_LEVEL_MUST,
    .why = "An importer resolves every FMI function of an interface at load time; a missing "
           "export makes it refuse the FMU even if the function is one the FMU never needs.",
    .fix = "Export every fmi2 function of each implemented interface, implementing unsupported "
           "ones as stubs that log and return fmi2Error.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
