/* md-build-description: FMI 3.0: the contents of sources/buildDescription.xml (FMI 3.0.2
 * §2.4.10, §2.5.1.3 and fmi3BuildDescription.xsd; fmi3-rules B-551..B-556). Musts: an XML
 * document with root <fmiBuildDescription> and an fmiVersion of the 3.x form; the elements of the
 * schema only, in its order (BuildConfiguration+, Annotations?; SourceFileSet*, Library*,
 * Annotations?; SourceFile+, PreprocessorDefinition*, IncludeDirectory*, Annotations?; Option*,
 * Annotations?); at least one BuildConfiguration, each with a modelIdentifier; platform
 * attributes unique per modelIdentifier and at most one configuration without platform (the
 * fallback) per modelIdentifier; at least one SourceFileSet per configuration, set names unique
 * in it; at least one SourceFile per set, each with a name that is a path relative to sources/;
 * PreprocessorDefinition and IncludeDirectory and Library with their name; a
 * PreprocessorDefinition's value among its Options when it has any; xs:boolean
 * optional/external; a Library version that is a PEP 440 version specifier (or a bare version,
 * as the text's example "2.5"). Warnings (derived, B-551/B-552/B-554/B-556): an fmiVersion other
 * than modelDescription.xml's, a modelIdentifier of no interface, a platform that is no FMI 3.0
 * platform tuple (vendors may add names, importers match their own tuple), a listed source file
 * not in sources/, compilerOptions without a compiler, a library with external="false" of which
 * no file lies in binaries/<platform>/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "check.h"
#include "fmuc/fmuc_elf.h"
#include "md_util.h"
#include "md_xmlfile.h"

#define BD_FILE "sources/buildDescription.xml"
#define BD "buildDescription.xml"

/* The XSD sequences of fmi3BuildDescription.xsd (FMI 3.0.2) */
static const fmuc_mdx_child root_seq[] = {{"BuildConfiguration", 0}, {"Annotations", 1}};
static const fmuc_mdx_child config_seq[] = {
    {"SourceFileSet", 0}, {"Library", 0}, {"Annotations", 1}};
static const fmuc_mdx_child set_seq[] = {{"SourceFile", 0}, {"PreprocessorDefinition", 0},
                                         {"IncludeDirectory", 0}, {"Annotations", 1}};
static const fmuc_mdx_child define_seq[] = {{"Option", 0}, {"Annotations", 1}};
static const fmuc_mdx_child annotations_seq[] = {{"Annotations", 1}};
#define SEQ(res, n, seq) fmuc_mdx__sequence(res, BD, n, seq, sizeof seq / sizeof seq[0])

typedef struct ctx {
    const fmuc_md *md;
    const fmuc_zip_listing *zl;
    fmuc_result *res;
    fmuc_mdu_map entries;
    int oom;
} ctx;

static int has_dotdot(const char *n)
{
    for (const char *p = n; (p = strstr(p, "..")) != NULL; p += 2)
        if ((p == n || p[-1] == '/') && (p[2] == '/' || p[2] == '\0'))
            return 1;
    return 0;
}

static int is_iface_identifier(const fmuc_md *md, const char *id)
{
    const fmuc_md_interface *f[3] = {&md->me, &md->cs, &md->se};
    for (int k = 0; k < 3; k++)
        if (f[k]->present && f[k]->model_identifier && strcmp(f[k]->model_identifier, id) == 0)
            return 1;
    return 0;
}

static void source_file(ctx *c, xmlNode *f, const char *cfg)
{
    unsigned line = fmuc_mdx__line(f);
    const char *n = fmuc_mdx__attr(f, "name");
    SEQ(c->res, f, annotations_seq);
    if (!n || !*n) {
        fmuc_result_violation(c->res, BD " line %u: <SourceFile> of %s has no name (required: "
                              "its path relative to sources/)", line, cfg);
        return;
    }
    if (strchr(n, '\\') || n[0] == '/' || (n[0] && n[1] == ':') || has_dotdot(n)) {
        fmuc_result_violation(c->res, BD " line %u: <SourceFile name=\"%.200s\"> of %s is not a "
                              "'/'-separated path relative to the sources directory", line, n,
                              cfg);
        return;
    }
    const char *p = n;
    while (p[0] == '.' && p[1] == '/')
        p += 2;
    size_t len = strlen(p) + sizeof "sources/";
    char *path = malloc(len);
    if (!path) {
        c->oom = 1;
        return;
    }
    snprintf(path, len, "sources/%s", p);
    if (!fmuc_mdu__map_get(&c->entries, path, NULL))
        fmuc_result_warn(c->res, BD " line %u: <SourceFile name=\"%.200s\"> of %s: the archive has "
                         "no %.220s, so the configuration cannot be built", line, n, cfg, path);
    free(path);
}

static void preprocessor_definition(ctx *c, xmlNode *d, const char *cfg)
{
    unsigned line = fmuc_mdx__line(d);
    const char *name = fmuc_mdx__attr(d, "name");
    const char *value = fmuc_mdx__attr(d, "value");
    const char *opt = fmuc_mdx__attr(d, "optional");
    if (!name)
        fmuc_result_violation(c->res, BD " line %u: <PreprocessorDefinition> of %s has no name "
                              "(required)", line, cfg);
    if (fmuc_mdx__bool(opt, 0) < 0)
        fmuc_result_violation(c->res, BD " line %u: <PreprocessorDefinition> \"%.100s\" "
                              "optional=\"%.40s\" is no xs:boolean", line, name ? name : "", opt);
    size_t noptions = 0;
    int found = 0;
    SEQ(c->res, d, define_seq);
    for (xmlNode *o = fmuc_mdx__elem(d->children); o; o = fmuc_mdx__elem(o->next)) {
        if (!fmuc_mdx__is(o, "Option"))
            continue;
        fmuc_mdx__sequence(c->res, BD, o, NULL, 0);
        noptions++;
        const char *ov = fmuc_mdx__attr(o, "value");
        if (value && ov && strcmp(ov, value) == 0)
            found = 1;
    }
    if (value && noptions && !found)
        fmuc_result_violation(c->res, BD " line %u: <PreprocessorDefinition name=\"%.100s\"> of %s "
                              "has value=\"%.100s\", which is none of its %zu <Option> values (the "
                              "default must be one of the options)", line, name ? name : "", cfg,
                              value, noptions);
}

/* PEP 440 (as its normalization section lets tools read it: any case, "v" prefix, '-', '_' or
 * '.' separators, spelled-out pre-release words, an implicit post release "-N"): a version at
 * p; the end of it, or NULL. public: no local "+label". */
static const char *pep440_version(const char *p, int public, size_t *nrelease)
{
    size_t n = 0;
    if (*p == 'v' || *p == 'V')
        p++;
    const char *q = p;
    while (*q >= '0' && *q <= '9')
        q++;
    if (q > p && *q == '!')
        p = q + 1; /* epoch */
    for (;;) {
        q = p;
        while (*p >= '0' && *p <= '9')
            p++;
        if (p == q)
            return NULL;
        n++;
        if (!(p[0] == '.' && p[1] >= '0' && p[1] <= '9'))
            break;
        p++;
    }
    *nrelease = n;
    /* pre-release (0), post-release (1), development release (2): each [sep] word [sep]
     * [digits] */
    static const struct {
        const char *word;
        int part;
    } words[] = {{"alpha", 0}, {"beta", 0}, {"preview", 0}, {"pre", 0}, {"rc", 0},
                 {"a", 0},     {"b", 0},    {"c", 0},       {"post", 1}, {"rev", 1},
                 {"r", 1},     {"dev", 2}};
    for (int part = 0; part < 3; part++) {
        const char *s = p + (*p == '-' || *p == '_' || *p == '.');
        if (part == 1 && *p == '-' && s[0] >= '0' && s[0] <= '9') {
            while (*s >= '0' && *s <= '9')
                s++;
            p = s; /* 1.0-1: post release 1 */
            continue;
        }
        for (size_t k = 0; k < sizeof words / sizeof words[0]; k++) {
            size_t l = strlen(words[k].word);
            if (words[k].part != part || strncasecmp(s, words[k].word, l) != 0)
                continue;
            s += l;
            const char *t = s + (*s == '-' || *s == '_' || *s == '.');
            if (*t >= '0' && *t <= '9') {
                while (*t >= '0' && *t <= '9')
                    t++;
                s = t;
            }
            p = s;
            break;
        }
    }
    if (*p == '+' && !public) {
        /* local version label: alphanumeric segments separated by '-', '_' or '.' */
        do {
            q = ++p;
            while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))
                p++;
            if (p == q)
                return NULL;
        } while (*p == '-' || *p == '_' || *p == '.');
    }
    return p;
}

static const char *skip_space(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return p;
}

/* Library@version (FMI 3.0.2 §2.5.1.3): a PEP 440 version specifier, comma-separated clauses
 * "<operator><version>", or a bare version (the text's example "2.5"); 0, or -1 with the reason
 * in why. */
static int pep440_specifier(const char *spec, char *why, size_t whylen)
{
    static const char *const ops[] = {"===", "~=", "==", "!=", "<=", ">=", "<", ">"};
    const char *p = skip_space(spec);
    size_t nrel;
    const char *end = pep440_version(p, 0, &nrel);
    if (end && !*skip_space(end))
        return 0; /* a bare version */
    if (!*p)
        return 0; /* no clause: any version */
    for (int clause = 1;; clause++) {
        const char *start = p;
        size_t k = 0, l = 0;
        for (; k < sizeof ops / sizeof ops[0]; k++)
            if (strncmp(p, ops[k], l = strlen(ops[k])) == 0)
                break;
        const char *v = skip_space(p + (k < sizeof ops / sizeof ops[0] ? l : 0));
        const char *e = NULL;
        const char *problem = NULL;
        if (k == sizeof ops / sizeof ops[0]) {
            problem = "no comparison operator (~=, ==, !=, <=, >=, <, >, ===)";
        } else if (k == 0) {
            e = v;
            while (*e && *e != ',' && *e != ' ' && *e != '\t' && *e != '\n' && *e != '\r')
                e++;
            if (e == v)
                problem = "\"===\" without a version";
        } else {
            /* ~= and the ordered comparisons take a public version, == and != a local one or a
             * prefix "<version>.*" */
            int eq = k == 2 || k == 3;
            e = pep440_version(v, !eq, &nrel);
            if (!e)
                problem = "no version after the operator";
            else if (eq && e[0] == '.' && e[1] == '*')
                e += 2;
            else if (k == 1 && nrel < 2)
                problem = "\"~=\" needs a release of at least two numbers";
        }
        if (!problem) {
            p = skip_space(e);
            if (*p && *p != ',')
                problem = "unexpected text after the version";
        }
        if (problem) {
            const char *stop = strchr(start, ',');
            int len = stop ? (int)(stop - start) : (int)strlen(start);
            snprintf(why, whylen, "clause %d \"%.*s\": %s", clause, len > 40 ? 40 : len, start,
                     problem);
            return -1;
        }
        if (!*p)
            return 0;
        p = skip_space(p + 1);
    }
}

/* A file of binaries/<platform>/ (any platform folder when platform is NULL) whose name
 * contains the library's name. */
static int library_shipped(const ctx *c, const char *lib, const char *platform)
{
    for (size_t i = 0; i < c->zl->nentries; i++) {
        const char *n = c->zl->entries[i].name;
        if (!n || strncmp(n, "binaries/", 9) != 0 || c->zl->entries[i].is_dir)
            continue;
        const char *rest = n + 9;
        const char *slash = strchr(rest, '/');
        if (!slash)
            continue;
        if (platform && ((size_t)(slash - rest) != strlen(platform) ||
                         strncmp(rest, platform, (size_t)(slash - rest)) != 0))
            continue;
        const char *leaf = strrchr(n, '/') + 1;
        if (strstr(leaf, lib))
            return 1;
    }
    return 0;
}

static void library(ctx *c, xmlNode *l, const char *cfg, const char *platform)
{
    unsigned line = fmuc_mdx__line(l);
    const char *name = fmuc_mdx__attr(l, "name");
    const char *ext = fmuc_mdx__attr(l, "external");
    const char *version = fmuc_mdx__attr(l, "version");
    int external = fmuc_mdx__bool(ext, 0);
    char why[160];
    SEQ(c->res, l, annotations_seq);
    if (version && pep440_specifier(version, why, sizeof why) < 0)
        fmuc_result_violation(c->res, BD " line %u: <Library name=\"%.100s\"> of %s: "
                              "version=\"%.100s\" is no PEP 440 version specifier (such as "
                              "2.5, >=2.0,<3.0 or >=1.0,!=1.2): %s", line, name ? name : "", cfg,
                              version, why);
    if (!name || !*name) {
        fmuc_result_violation(c->res, BD " line %u: <Library> of %s has no name (required)", line,
                              cfg);
        return;
    }
    if (external < 0) {
        fmuc_result_violation(c->res, BD " line %u: <Library name=\"%.100s\"> external=\"%.40s\" "
                              "is no xs:boolean", line, name, ext);
        return;
    }
    if (!external && !library_shipped(c, name, platform))
        fmuc_result_warn(c->res, BD " line %u: <Library name=\"%.100s\"> of %s is not external, "
                         "but no file of binaries/%s/ carries its name (a non-external library "
                         "is shipped there)", line, name, cfg, platform ? platform : "<platform>");
}

static void source_file_set(ctx *c, xmlNode *s, const char *cfg, fmuc_mdu_map *set_names)
{
    unsigned line = fmuc_mdx__line(s);
    const char *name = fmuc_mdx__attr(s, "name");
    if (name) {
        size_t prev;
        int r = fmuc_mdu__map_put(set_names, name, line, &prev);
        if (r < 0)
            c->oom = 1;
        else if (r == 0)
            fmuc_result_violation(c->res, BD " line %u: <SourceFileSet name=\"%.100s\"> of %s: the "
                                  "name is used by the set at line %zu already (names are unique)",
                                  line, name, cfg, prev);
    }
    if (fmuc_mdx__attr(s, "compilerOptions") && !fmuc_mdx__attr(s, "compiler"))
        fmuc_result_warn(c->res, BD " line %u: <SourceFileSet> of %s gives compilerOptions but no "
                         "compiler they belong to", line, cfg);
    size_t nfiles = 0;
    SEQ(c->res, s, set_seq);
    for (xmlNode *e = fmuc_mdx__elem(s->children); e && !c->oom; e = fmuc_mdx__elem(e->next)) {
        unsigned el = fmuc_mdx__line(e);
        if (fmuc_mdx__is(e, "SourceFile")) {
            nfiles++;
            source_file(c, e, cfg);
        } else if (fmuc_mdx__is(e, "PreprocessorDefinition")) {
            preprocessor_definition(c, e, cfg);
        } else if (fmuc_mdx__is(e, "IncludeDirectory")) {
            SEQ(c->res, e, annotations_seq);
            if (!fmuc_mdx__attr(e, "name"))
                fmuc_result_violation(c->res, BD " line %u: <IncludeDirectory> of %s has no name "
                                      "(required)", el, cfg);
        }
    }
    if (!nfiles)
        fmuc_result_violation(c->res, BD " line %u: <SourceFileSet%s%.100s%s> of %s lists no "
                              "<SourceFile> (at least one)", line, name ? " name=\"" : "",
                              name ? name : "", name ? "\"" : "", cfg);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_fmu *fmu = s->fmu;
    const fmuc_md *md = &fmu->md;
    const fmuc_zip_listing *zl = &fmu->listing;
    xmlDoc *doc = fmuc_mdx__load(s, BD_FILE, "fmiBuildDescription", res);
    if (!doc)
        return;
    ctx c = {.md = md, .zl = zl, .res = res};
    fmuc_mdu_map per_id = {0}, sets = {0};
    /* "<modelIdentifier>\n<platform>" (no platform: "<modelIdentifier>\n") -> line */
    char **keys = NULL;
    size_t nkeys = 0, ncfg = 0;
    if (fmuc_mdu__map_entries(&c.entries, zl) < 0 || fmuc_mdu__map_init(&per_id, 8) < 0)
        goto oom;

    xmlNode *root = xmlDocGetRootElement(doc);
    const char *ver = fmuc_mdx__attr(root, "fmiVersion");
    if (!ver)
        fmuc_result_violation(res, BD " line %u: <fmiBuildDescription> has no fmiVersion "
                              "(required)", fmuc_mdx__line(root));
    else if (!(ver[0] == '3' && ver[1] == '.' && ver[2] >= '0' && ver[2] <= '9'))
        fmuc_result_violation(res, BD " line %u: fmiVersion=\"%.60s\" is not of the form "
                              "3.<minor>[.<patch>] of fmi3BuildDescription.xsd",
                              fmuc_mdx__line(root), ver);
    else if (md->fmi_version && strcmp(ver, md->fmi_version) != 0)
        fmuc_result_warn(res, BD " line %u: fmiVersion=\"%.60s\" differs from modelDescription.xml's "
                         "fmiVersion=\"%.60s\"", fmuc_mdx__line(root), ver, md->fmi_version);
    SEQ(res, root, root_seq);
    for (xmlNode *b = fmuc_mdx__elem(root->children); b && !c.oom; b = fmuc_mdx__elem(b->next)) {
        unsigned line = fmuc_mdx__line(b);
        if (!fmuc_mdx__is(b, "BuildConfiguration"))
            continue;
        ncfg++;
        SEQ(res, b, config_seq);
        const char *id = fmuc_mdx__attr(b, "modelIdentifier");
        const char *platform = fmuc_mdx__attr(b, "platform");
        char cfg[300];
        snprintf(cfg, sizeof cfg, "the BuildConfiguration at line %u", line);
        if (platform && !fmuc_platform_is_tuple(platform))
            fmuc_result_warn(res, BD " line %u: <BuildConfiguration platform=\"%.100s\"> is no "
                             "FMI 3.0 platform tuple <arch>-<sys> (such as x86_64-linux, "
                             "x86_64-windows, aarch64-darwin)%s; importers pick the configuration "
                             "whose platform matches their own tuple, so they pass this one by",
                             line, platform,
                             fmuc_platform_arch(platform, NULL, NULL, NULL)
                                 ? " but an FMI 2.0 platform name"
                                 : "");
        if (!id) {
            fmuc_result_violation(res, BD " line %u: <BuildConfiguration> has no modelIdentifier "
                                  "(required)", line);
        } else {
            if (!is_iface_identifier(md, id))
                fmuc_result_warn(res, BD " line %u: <BuildConfiguration modelIdentifier=\"%.100s\"> "
                                 "names the modelIdentifier of no ModelExchange, CoSimulation or "
                                 "ScheduledExecution element", line, id);
            size_t klen = strlen(id) + (platform ? strlen(platform) : 0) + 2;
            char *key = malloc(klen);
            char **nk = key ? realloc(keys, (nkeys + 1) * sizeof *keys) : NULL;
            if (!nk) {
                free(key);
                goto oom;
            }
            keys = nk;
            snprintf(key, klen, "%s\n%s", id, platform ? platform : "");
            keys[nkeys++] = key;
            size_t prev;
            int r = fmuc_mdu__map_put(&per_id, key, line, &prev);
            if (r < 0)
                goto oom;
            if (r == 0 && platform)
                fmuc_result_violation(res, BD " line %u: a second BuildConfiguration for "
                                      "modelIdentifier \"%.100s\" and platform \"%.100s\" (first at "
                                      "line %zu); platforms are unique per modelIdentifier", line,
                                      id, platform, prev);
            else if (r == 0)
                fmuc_result_violation(res, BD " line %u: a second BuildConfiguration without "
                                      "platform for modelIdentifier \"%.100s\" (first at line %zu); "
                                      "there is at most one fallback configuration", line, id,
                                      prev);
        }
        fmuc_mdu__map_free(&sets);
        if (fmuc_mdu__map_init(&sets, 8) < 0)
            goto oom;
        size_t nsets = 0;
        for (xmlNode *e = fmuc_mdx__elem(b->children); e && !c.oom; e = fmuc_mdx__elem(e->next)) {
            if (fmuc_mdx__is(e, "SourceFileSet")) {
                nsets++;
                source_file_set(&c, e, cfg, &sets);
            } else if (fmuc_mdx__is(e, "Library")) {
                library(&c, e, cfg, platform);
            }
        }
        if (!nsets)
            fmuc_result_violation(res, BD " line %u: <BuildConfiguration%s%.100s%s> has no "
                                  "<SourceFileSet> (every build configuration contains at least "
                                  "one)", line, id ? " modelIdentifier=\"" : "", id ? id : "",
                                  id ? "\"" : "");
    }
    if (!ncfg && !c.oom)
        fmuc_result_violation(res, BD " line %u: <fmiBuildDescription> has no "
                              "<BuildConfiguration> (at least one)", fmuc_mdx__line(root));
    if (!c.oom)
        goto out;
oom:
    fmuc_result_error(res, "out of memory");
out:
    for (size_t k = 0; k < nkeys; k++)
        free(keys[k]);
    free(keys);
    fmuc_mdu__map_free(&per_id);
    fmuc_mdu__map_free(&sets);
    fmuc_mdu__map_free(&c.entries);
    xmlFreeDoc(doc);
}

const fmuc_check fmuc_check_md_build_description = {
    .id = "md-build-description",
    .title = "FMI 3.0: sources/buildDescription.xml is valid and names the shipped sources",
    .spec = "FMI 3.0.2 §2.4.10, §2.5.1.3",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers compile a source FMU from the BuildConfiguration that matches their platform; "
           "two fallbacks, a set without files or a define outside its options leave the build "
           "ambiguous or broken.",
    .fix = "Write one BuildConfiguration per modelIdentifier and platform (one without platform at "
           "most), list every .c file under sources/ in a SourceFileSet, and give each define a "
           "value among its Options.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_ARCHIVE,
    .run = run,
};
