/* `fmucheck explain ID`: one check's registry entry in words (issue 21): the rule, the levels per
 * profile, why it matters, how to fix it, its broken reference FMUs and the command that re-runs
 * it. No FMU needed. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

#ifndef FMUC_SOURCE_DIR
#define FMUC_SOURCE_DIR ""
#endif

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The broken reference FMUs of id: reference_fmus/broken/<id>/ and <id>--*, sorted, when the
 * source tree the binary was built from is still there; else the expected path. */
static void print_broken(const char *id)
{
    char dir[4096];
    struct stat st;
    snprintf(dir, sizeof dir, "%s/reference_fmus/broken", FMUC_SOURCE_DIR);
    DIR *d = FMUC_SOURCE_DIR[0] && stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? opendir(dir)
                                                                              : NULL;
    if (!d) {
        printf("  reference_fmus/broken/%s/ (and %s--*/) in the fmucheck source tree\n"
               "  (the source tree this binary was built from is not available here)\n",
               id, id);
        return;
    }
    size_t idlen = strlen(id), n = 0, cap = 0;
    char **names = NULL;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *nm = e->d_name;
        if (strncmp(nm, id, idlen) != 0 || (nm[idlen] && strncmp(nm + idlen, "--", 2) != 0))
            continue;
        if (n == cap) {
            size_t nc = cap ? 2 * cap : 8;
            char **nn = realloc(names, nc * sizeof *nn);
            if (!nn)
                break;
            names = nn;
            cap = nc;
        }
        if (!(names[n] = strdup(nm)))
            break;
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        printf("  %s/%s/\n", dir, names[i]);
        free(names[i]);
    }
    free(names);
    if (n == 0)
        printf("  none under %s/ (expected %s/%s/)\n", dir, dir, id);
}

static void print_needs(unsigned n)
{
    static const struct {
        unsigned bit;
        const char *what;
    } needs[] = {{FMUC_NEEDS_ARCHIVE, "the archive listing"},
                 {FMUC_NEEDS_XML, "a parsed model description"},
                 {FMUC_NEEDS_BINARY, "the shared library for this platform"},
                 {FMUC_NEEDS_SANDBOX, "calls into the FMU (in a worker process)"},
                 {FMUC_NEEDS_RUN, "a simulation of the interface"},
                 {FMUC_NEEDS_OBSERVED, "the nominal run as observed (a session of its own "
                                       "without one)"}};
    const char *sep = "";
    for (size_t i = 0; i < sizeof needs / sizeof needs[0]; i++)
        if (n & needs[i].bit) {
            printf("%s%s", sep, needs[i].what);
            sep = ", ";
        }
    printf("\n");
}

int fmuc_cli_explain(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: fmucheck explain CHECK-ID   (ids: fmucheck --list-checks)\n");
        return FMUC_EXIT_USAGE;
    }
    const fmuc_check *c = fmuc_check_find(argv[1]);
    if (!c) {
        fprintf(stderr, "fmucheck: explain: no check with id '%s' (list the ids with "
                        "'fmucheck --list-checks')\n", argv[1]);
        return FMUC_EXIT_USAGE;
    }
    printf("%s: %s\n", c->id, c->title);
    printf("spec:        %s\n", c->spec);
    printf("levels:     ");
    for (int p = 0; p < FMUC_PROFILE_COUNT; p++)
        printf(" %s=%s", fmuc_profile_name((fmuc_profile)p),
               fmuc_check_profile_level(c, (fmuc_profile)p));
    printf("   (must: a violation fails; should: it warns)\n");
    if (c->interop != FMUC_INTEROP_SAME && c->interop_why)
        printf("interop:     %s%s\n",
               c->interop == FMUC_INTEROP_SOME ? "some findings only warn: " : "",
               c->interop_why);
    printf("applies to:  %s\n", fmuc_applies_name((c->versions & FMUC_V3) ? c->applies
                                                              : c->applies & ~(unsigned)FMUC_APPLIES_SE,
                                            1));
    printf("needs:       ");
    print_needs(c->needs);
    printf("why:         %s\n", c->why ? c->why : "(not written yet)");
    printf("fix:         %s\n", c->fix ? c->fix : "(not written yet)");
    printf("broken reference FMUs:\n");
    print_broken(c->id);
    printf("re-run:      fmucheck --only %s -v FILE.fmu\n", c->id);
    return FMUC_EXIT_OK;
}
