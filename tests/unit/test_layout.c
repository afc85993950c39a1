/* The layers of the source tree (README "Layout"): a layer includes nothing from a layer above it.
 * fmi/ < harness/ < checks/ < cli/, reports/ sees results only, and the FMUs (fmi_export/,
 * reference_fmus/) include only fmi/ and their own files, never a harness header. The test reads
 * every #include "..." line of every .c/.h/.def file under a layer's folder and looks the included
 * file's name up among the headers of the layers it must not see. */
#include <criterion/criterion.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NAMES 512

typedef struct name_set {
    char *names[MAX_NAMES];
    size_t n;
} name_set;

typedef struct walk_state {
    name_set *collect;          /* collecting header base names, or NULL */
    const name_set *forbidden;  /* checking includes against these, or NULL */
    const char *layer;
    const char *forbidden_what;
    size_t violations;
    size_t files;
} walk_state;

/* nftw has no payload argument: the walk's state lives in this thread-local pointer for the
 * duration of one fmuc_layout walk (the test is single-threaded within a Test). */
static _Thread_local walk_state *walk_now;

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int has_ext(const char *path, const char *ext)
{
    size_t lp = strlen(path), le = strlen(ext);
    return lp > le && strcmp(path + lp - le, ext) == 0;
}

static int in_set(const name_set *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->names[i], name) == 0)
            return 1;
    return 0;
}

static void check_file(walk_state *w, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    w->files++;
    char line[1024];
    unsigned lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncmp(p, "#include \"", 10) != 0)
            continue;
        p += 10;
        const char *q = strchr(p, '"');
        if (!q)
            continue;
        char inc[512];
        snprintf(inc, sizeof inc, "%.*s", (int)(q - p), p);
        if (in_set(w->forbidden, base_name(inc))) {
            cr_log_error("%s:%u: layer %s includes \"%s\", a header of %s", path, lineno,
                         w->layer, inc, w->forbidden_what);
            w->violations++;
        }
    }
    fclose(f);
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    walk_state *w = walk_now;
    if (type != FTW_F)
        return 0;
    if (w->collect) {
        if (has_ext(path, ".h") && w->collect->n < MAX_NAMES)
            w->collect->names[w->collect->n++] = strdup(base_name(path));
        return 0;
    }
    if (has_ext(path, ".c") || has_ext(path, ".h") || has_ext(path, ".def"))
        check_file(w, path);
    return 0;
}

static void collect(name_set *s, const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", FMUC_SOURCE_DIR, dir);
    walk_state w = {.collect = s};
    walk_now = &w;
    cr_assert_eq(nftw(path, visit, 16, FTW_PHYS), 0, "cannot walk %s", path);
    walk_now = NULL;
}

static size_t violations(const char *dir, const name_set *forbidden, const char *what)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", FMUC_SOURCE_DIR, dir);
    walk_state w = {.forbidden = forbidden, .layer = dir, .forbidden_what = what};
    walk_now = &w;
    cr_assert_eq(nftw(path, visit, 16, FTW_PHYS), 0, "cannot walk %s", path);
    walk_now = NULL;
    cr_assert_gt(w.files, 0, "no source files under %s", path);
    return w.violations;
}

static void free_set(name_set *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->names[i]);
    s->n = 0;
}

Test(layout, harness_includes_nothing_from_checks_reports_or_cli)
{
    name_set above = {0};
    collect(&above, "checks");
    collect(&above, "reports");
    collect(&above, "cli");
    cr_assert_gt(above.n, 5);
    cr_expect_eq(violations("harness", &above, "checks/, reports/ or cli/"), 0);
    free_set(&above);
}

Test(layout, checks_include_nothing_from_reports_or_cli)
{
    name_set above = {0};
    collect(&above, "reports");
    collect(&above, "cli");
    cr_expect_eq(violations("checks", &above, "reports/ or cli/"), 0);
    free_set(&above);
}

Test(layout, fmus_include_only_fmi_declarations)
{
    name_set harness = {0};
    collect(&harness, "harness");
    collect(&harness, "checks");
    cr_assert(in_set(&harness, "fmuc_worker.h"));
    cr_expect_eq(violations("fmi_export", &harness, "harness/ or checks/"), 0);
    cr_expect_eq(violations("reference_fmus", &harness, "harness/ or checks/"), 0);
    free_set(&harness);
}

Test(layout, fmi_declarations_include_nothing_of_the_project)
{
    name_set project = {0};
    collect(&project, "harness");
    collect(&project, "checks");
    collect(&project, "reports");
    collect(&project, "cli");
    cr_expect_eq(violations("fmi", &project, "the project above fmi/"), 0);
    free_set(&project);
}
