/* md-build-description: FMI 3.0: the contents of sources/buildDescription.xml (FMI 3.0.2
 * §2.4.10, §2.5.1.3 and fmi3BuildDescription.xsd; fmi3-rules B-551..B-556). Musts: an XML
 * document with root <fmiBuildDescription> and an fmiVersion of the 3.x form; at least one
 * BuildConfiguration, each with a modelIdentifier; platform attributes unique per modelIdentifier
 * and at most one configuration without platform (the fallback) per modelIdentifier; at least one
 * SourceFileSet per configuration, set names unique in it; at least one SourceFile per set, each
 * with a name that is a path relative to sources/; PreprocessorDefinition and IncludeDirectory
 * and Library with their name; a PreprocessorDefinition's value among its Options when it has
 * any; xs:boolean optional/external. Warnings (derived, B-551/B-552/B-554/B-556): an fmiVersion
 * other than modelDescription.xml's, a modelIdentifier of no interface, a listed source file not
 * in sources/, compilerOptions without a compiler, a library with external="false" of which no
 * file lies in binaries/<platform>/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "md_util.h"
#include "md_xmlfile.h"

#define BD_FILE "sources/buildDescription.xml"
#define BD "buildDescription.xml"

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
    for (xmlNode *o = fmuc_mdx__elem(d->children); o; o = fmuc_mdx__elem(o->next)) {
        if (!fmuc_mdx__is(o, "Option"))
            continue;
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
    int external = fmuc_mdx__bool(ext, 0);
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
    for (xmlNode *e = fmuc_mdx__elem(s->children); e && !c->oom; e = fmuc_mdx__elem(e->next)) {
        unsigned el = fmuc_mdx__line(e);
        if (fmuc_mdx__is(e, "SourceFile")) {
            nfiles++;
            source_file(c, e, cfg);
        } else if (fmuc_mdx__is(e, "PreprocessorDefinition")) {
            preprocessor_definition(c, e, cfg);
        } else if (fmuc_mdx__is(e, "IncludeDirectory")) {
            if (!fmuc_mdx__attr(e, "name"))
                fmuc_result_violation(c->res, BD " line %u: <IncludeDirectory> of %s has no name "
                                      "(required)", el, cfg);
        } else if (!fmuc_mdx__is(e, "Annotations")) {
            fmuc_result_violation(c->res, BD " line %u: <%.80s> is no element of <SourceFileSet>",
                                  el, (const char *)e->name);
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
    for (xmlNode *b = fmuc_mdx__elem(root->children); b && !c.oom; b = fmuc_mdx__elem(b->next)) {
        unsigned line = fmuc_mdx__line(b);
        if (fmuc_mdx__is(b, "Annotations"))
            continue;
        if (!fmuc_mdx__is(b, "BuildConfiguration")) {
            fmuc_result_violation(res, BD " line %u: <%.80s> is no element of "
                                  "<fmiBuildDescription>", line, (const char *)b->name);
            continue;
        }
        ncfg++;
        const char *id = fmuc_mdx__attr(b, "modelIdentifier");
        const char *platform = fmuc_mdx__attr(b, "platform");
        char cfg[300];
        snprintf(cfg, sizeof cfg, "the BuildConfiguration at line %u", line);
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
            } else if (!fmuc_mdx__is(e, "Annotations")) {
                fmuc_result_violation(res, BD " line %u: <%.80s> is no element of "
                                      "<BuildConfiguration>", fmuc_mdx__line(e),
                                      (const char *)e->name);
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
