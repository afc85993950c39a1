/* md-model-identifier: ModelExchange/CoSimulation@modelIdentifier is a non-empty C identifier
 * ([A-Za-z_][A-Za-z0-9_]*): it prefixes the C functions of source/static FMUs and names the shared
 * library, so it must also be a valid file name on every platform (no path, not a reserved Windows
 * device name such as CON or NUL) (FMI 2.0.4 §3.3.1, §4.3.1, §2.3; VDM validIdentifier). */
#include <string.h>
#include <strings.h>

#include "check.h"
#include "md_util.h"

static int is_c_identifier(const char *s)
{
    if (!s || !*s)
        return 0;
    for (const char *p = s; *p; p++) {
        char ch = *p;
        int alpha = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '_';
        int digit = ch >= '0' && ch <= '9';
        if (!alpha && !(digit && p != s))
            return 0;
    }
    return 1;
}

static int windows_reserved(const char *s)
{
    static const char *const names[] = {"CON", "PRN", "AUX", "NUL", NULL};
    for (size_t i = 0; names[i]; i++)
        if (strcasecmp(s, names[i]) == 0)
            return 1;
    if ((strncasecmp(s, "COM", 3) == 0 || strncasecmp(s, "LPT", 3) == 0) && s[3] >= '1' &&
        s[3] <= '9' && s[4] == '\0')
        return 1;
    return 0;
}

/* A name that any file system takes as it is: letters, digits, '_', '-', '.', not starting
 * with '.'. */
static int plain_file_name(const char *s)
{
    if (!s || !*s || *s == '.')
        return 0;
    for (const char *p = s; *p; p++) {
        char ch = *p;
        if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
              ch == '_' || ch == '-' || ch == '.'))
            return 0;
    }
    return 1;
}

/* Will an importer compile or link the FMU's C code, where the modelIdentifier prefixes the
 * function names (§3.3.1, §4.3.1)? When it ships a static library, when an interface lists
 * SourceFiles, or when it has sources/ but no shared library. */
static int compiled_by_importer(const fmuc_fmu *fmu)
{
    const fmuc_zip_listing *l = &fmu->listing;
    int sources = 0, shared = 0;
    if (fmu->md_parsed && (fmu->md.me.nsource_files || fmu->md.cs.nsource_files))
        return 1;
    for (size_t i = 0; i < l->nentries; i++) {
        const char *n = l->entries[i].name;
        size_t len = n ? strlen(n) : 0;
        if (!n || l->entries[i].is_dir)
            continue;
        if (strncmp(n, "sources/", 8) == 0)
            sources = 1;
        if (strncmp(n, "binaries/", 9) != 0)
            continue;
        if (len > 4 && (strcmp(n + len - 2, ".a") == 0 || strcasecmp(n + len - 4, ".lib") == 0))
            return 1;
        shared |= (len > 3 && strcmp(n + len - 3, ".so") == 0) ||
                  (len > 4 && strcasecmp(n + len - 4, ".dll") == 0) ||
                  (len > 6 && strcmp(n + len - 6, ".dylib") == 0);
    }
    return sources && !shared;
}

static void one(fmuc_result *res, const fmuc_md_interface *f, const char *el, int compiled)
{
    const char *id = f->model_identifier;
    if (!f->present || !id)
        return; /* absent attribute: md-required-attributes */
    if (!is_c_identifier(id) && !compiled && plain_file_name(id))
        fmuc_result_violation_letter(res, "line %u: <%s> modelIdentifier=\"%.200s\" is not a C "
                                     "identifier ([A-Za-z_][A-Za-z0-9_]*, non-empty); no importer "
                                     "compiles this FMU (shared libraries, no SourceFiles, no "
                                     "static library), their functions carry no prefix, and the "
                                     "name is a plain file name",
                                     (unsigned)f->line, el, id);
    else if (!is_c_identifier(id))
        fmuc_result_violation(res, "line %u: <%s> modelIdentifier=\"%.200s\" is not a C identifier "
                              "([A-Za-z_][A-Za-z0-9_]*, non-empty)%s", (unsigned)f->line, el, id,
                              strpbrk(id, "/\\:") ? "; it must not contain a path" : "");
    else if (windows_reserved(id))
        fmuc_result_violation(res, "line %u: <%s> modelIdentifier=\"%s\" is a reserved device name "
                              "on Windows and cannot name the library file", (unsigned)f->line, el,
                              id);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    if (md->fmi == FMUC_FMI1) {
        /* FMI 1.0: the root's modelIdentifier prefixes every function, in shared libraries too
         * (<modelIdentifier>_fmiXxx, fmiModelFunctions.h): always judged as compiled */
        fmuc_md_interface root = {.present = 1, .line = md->root_line,
                                  .model_identifier = md->fmi1_model_identifier};
        one(res, &root, "fmiModelDescription", 1);
        return;
    }
    int compiled = compiled_by_importer(s->fmu);
    one(res, &md->me, "ModelExchange", compiled);
    one(res, &md->cs, "CoSimulation", compiled);
    one(res, &md->se, "ScheduledExecution", compiled); /* FMI 3.0 §2.4.2 */
}

const fmuc_check fmuc_check_md_model_identifier = {
    .id = "md-model-identifier",
    .title = "modelIdentifier is a C identifier and a safe file name",
    .spec = "FMI 2.0.4 §3.3.1, §4.3.1; FMI 3.0.2 §2.4.2; FMI 1.0 ME (fmiModelDescription.xsd, fmiModelFunctions.h)",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_SOME,
    .interop_why = "a modelIdentifier that is no C identifier but a plain file name breaks no "
                   "importer of an FMU it does not compile (shared libraries export unprefixed "
                   "fmi2 functions)",
    .why = "The modelIdentifier names the shared library and prefixes C functions; one that is "
           "not a C identifier or is a reserved file name breaks source builds and library "
           "loading.",
    .fix = "Use a plain C identifier ([A-Za-z_][A-Za-z0-9_]*) that is not a Windows device name "
           "such as CON or NUL, and name the binaries after it.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
