/* load-only-fmi2-exports: a model library should export the fmi2* functions only; other global
 * symbols can clash with the importer's or another FMU's (FMI 2.0.4 §2.1.1; Reference-FMUs #215).
 * Linker-defined symbols (_init, _fini, _edata, _end, __bss_start) and version nodes are ignored. */
#include <elf.h>
#include <string.h>

#include "fmuc/fmuc_elf.h"
#include "load_util.h"

#define SHOWN_MAX 20

static int ignorable(const fmuc_elf_symbol *sym)
{
    static const char *const linker[] = {"_init", "_fini", "_edata", "_end", "__bss_start",
                                         "__bss_start__", "_bss_end__", "__bss_end__", "__end__",
                                         "_fbss", "_fdata", "_ftext", "__data_start"};
    for (size_t i = 0; i < sizeof linker / sizeof linker[0]; i++)
        if (strcmp(sym->name, linker[i]) == 0)
            return 1;
    /* Version definitions appear as absolute OBJECT symbols with value 0. */
    return sym->shndx == SHN_ABS && sym->value == 0;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    loadu_lib libs[3];
    size_t n = loadu_libs(s->fmu, libs);
    if (!n) {
        fmuc_result_na(res, "no binary for this platform");
        return;
    }
    cJSON *ev = fmuc_result_evidence(res);
    const int v1 = fmuc_fmu_fmi_version(s->fmu) == 1;
    for (size_t i = 0; i < n; i++) {
        /* FMI 1.0: the functions are <modelIdentifier>_fmiXxx */
        char prefix[300] = "fmi2";
        if (v1) {
            const fmuc_md *md = &s->fmu->md;
            const char *id = libs[i].iface == FMUC_IFACE_CS ? md->cs.model_identifier
                                                               : md->me.model_identifier;
            if (!id)
                id = md->fmi1_model_identifier ? md->fmi1_model_identifier : "";
            snprintf(prefix, sizeof prefix, "%s_fmi", id);
        }
        size_t plen = strlen(prefix);
        fmuc_elf_info info;
        fmuc_diag diag = {0};
        if (fmuc_elf_parse_file(&info, libs[i].path, 0, &diag) < 0) {
            fmuc_result_note(res, "%s: %s", libs[i].entry, diag.msg);
            fmuc_elf_free(&info);
            continue;
        }
        size_t others = 0;
        char list[1024] = "";
        size_t used = 0;
        cJSON *arr = ev ? cJSON_AddArrayToObject(ev, libs[i].entry) : NULL;
        for (size_t k = 0; k < info.nsymbols; k++) {
            const fmuc_elf_symbol *sym = &info.symbols[k];
            if (strncmp(sym->name, prefix, plen) == 0 || ignorable(sym))
                continue;
            if (others < SHOWN_MAX && used < sizeof list) {
                int w = snprintf(list + used, sizeof list - used, "%s%.80s", others ? ", " : "",
                                 sym->name);
                used += w > 0 ? (size_t)w : 0;
            }
            if (arr && others < 100)
                cJSON_AddItemToArray(arr, cJSON_CreateString(sym->name));
            others++;
        }
        if (others)
            fmuc_result_violation(res, "%s exports %zu symbol%s besides %s*: %s%s", libs[i].entry,
                                  others, others == 1 ? "" : "s", prefix, list,
                                  others > SHOWN_MAX ? ", ..." : "");
        fmuc_elf_free(&info);
    }
}

const fmuc_check fmuc_check_load_only_fmi2_exports = {
    .id = "load-only-fmi2-exports",
    .title = "Only fmi2* functions are exported (FMI 1.0: <modelIdentifier>_fmi*)",
    .spec = "FMI 2.0.4 §2.1.1; FMI 1.0 ME (prefixed function names, so that several FMUs can be "
            "linked together)",
    .level = FMUC_LEVEL_SHOULD,
    .why = "Extra global symbols of one FMU can bind to another FMU's or the importer's functions "
           "of the same name when several are loaded, so one model silently calls the other's "
           "code.",
    .fix = "Build with -fvisibility=hidden and export only the fmi2 functions (a linker version "
           "script), or make internal functions static.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V1 | FMUC_V2,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY,
    .run = run,
};
