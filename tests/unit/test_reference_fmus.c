/* The reference-FMU matrix: every good FMU (and the vdsim FMUs) fails no check; every broken or
 * hostile FMU ends with exactly the verdicts its EXPECT file names and fails nothing else. The
 * verdicts compared are those under the standard profile (report.json "verdicts"). */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <criterion/parameterized.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "fmuc_test_util.h"

typedef struct ref_case {
    char *kind;  /* "good", "broken", "hostile", "vdsim", "fmi1/good/me", "fmi1/good/cs",
                    "fmi3good" (fmus/fmi3/good) */
    char *name;  /* folder name */
} ref_case;

static char *cr_strdup(const char *s)
{
    char *p = cr_malloc(strlen(s) + 1);
    memcpy(p, s, strlen(s) + 1);
    return p;
}

/* A good model makes an FMI 2.0 FMU unless its FMI_VERSIONS lists versions without 2. */
static int good_builds_fmi2(const char *model_dir)
{
    char path[4500], line[256];
    snprintf(path, sizeof path, "%s/FMI_VERSIONS", model_dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;
    int two = 0;
    while (fgets(line, sizeof line, f))
        two |= line[0] == '2';
    fclose(f);
    return two;
}

static void add_cases(ref_case **arr, size_t *n, size_t *cap, const char *kind)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/reference_fmus/%s", FMUC_SOURCE_DIR, kind);
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char sub[4400];
        struct stat st;
        snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
        if (stat(sub, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        if (strcmp(kind, "good") == 0 && !good_builds_fmi2(sub))
            continue; /* FMI 3.0 only (LagChain): its FMU is a case of fmus/fmi3/good */
        if (*n == *cap) {
            size_t ncap = *cap ? *cap * 2 : 64;
            ref_case *na = cr_malloc(ncap * sizeof *na);
            if (*arr)
                memcpy(na, *arr, *n * sizeof *na);
            *arr = na; /* the old block is left to Criterion's arena */
            *cap = ncap;
        }
        (*arr)[*n].kind = cr_strdup(kind);
        (*arr)[(*n)++].name = cr_strdup(e->d_name);
    }
    closedir(d);
}

static void case_cleanup(struct criterion_test_params *p)
{
    (void)p;
}

ParameterizedTestParameters(reference, matrix)
{
    ref_case *arr = NULL;
    size_t n = 0, cap = 0;
    add_cases(&arr, &n, &cap, "good");
    add_cases(&arr, &n, &cap, "fmi1/good/me"); /* the FMI 1.0 FMUs of the project */
    add_cases(&arr, &n, &cap, "fmi1/good/cs");
    add_cases(&arr, &n, &cap, "broken");
    add_cases(&arr, &n, &cap, "hostile");
    /* the vdsim FMUs, and the FMI 3.0 FMUs of the project (issue 19: they fail no check) */
    const char *vd[] = {"vdsim_l2", "vdsim_l3", "fmi3/vdsim_l2_fmi3", "fmi3/vdsim_l3_fmi3"};
    for (int i = 0; i < (int)(sizeof vd / sizeof vd[0]); i++) {
        char p[4096];
        snprintf(p, sizeof p, "%s/%s.fmu", FMUC_FMU_DIR, vd[i]);
        if (access(p, R_OK) != 0)
            continue;
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 4;
            ref_case *na = cr_malloc(ncap * sizeof *na);
            if (arr)
                memcpy(na, arr, n * sizeof *na);
            arr = na;
            cap = ncap;
        }
        arr[n].kind = cr_strdup("vdsim");
        arr[n++].name = cr_strdup(vd[i]);
    }
    /* the FMI 3.0 builds of the good models (reference_fmus/good/<Name>/FMI_VERSIONS lists 3) */
    char f3[4096];
    snprintf(f3, sizeof f3, "%s/fmi3/good", FMUC_FMU_DIR);
    DIR *d = opendir(f3);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len <= 4 || strcmp(e->d_name + len - 4, ".fmu") != 0)
            continue;
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 4;
            ref_case *na = cr_malloc(ncap * sizeof *na);
            if (arr)
                memcpy(na, arr, n * sizeof *na);
            arr = na;
            cap = ncap;
        }
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(len - 4), e->d_name);
        arr[n].kind = cr_strdup("fmi3good");
        arr[n++].name = cr_strdup(name);
    }
    if (d)
        closedir(d);
    return cr_make_param_array(ref_case, arr, n, case_cleanup);
}

/* EXPECT lines "<check-id> <verdict>" into parallel arrays. */
static size_t read_expect(const char *path, char ids[][128], char verdicts[][32], size_t max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = 0;
    char line[512];
    while (fgets(line, sizeof line, f) && n < max) {
        char id[128], v[32];
        if (line[0] == '#' || sscanf(line, "%127s %31s", id, v) != 2)
            continue;
        snprintf(ids[n], 128, "%s", id);
        snprintf(verdicts[n], 32, "%s", v);
        n++;
    }
    fclose(f);
    return n;
}

/* Extra fmucheck arguments from <dir>/fmucheck.args (one per line; @SRC@ = fixture folder,
 * @FMUS@ = the folder of the built FMUs). */
static size_t read_args(const char *dir, char args[][8192], size_t max)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/fmucheck.args", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = 0;
    char line[1024];
    while (fgets(line, sizeof line, f) && n < max) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0] || line[0] == '#')
            continue;
        char *at = strstr(line, "@SRC@");
        char *fm = strstr(line, "@FMUS@"); /* the built FMUs (FMUC_FMU_DIR), e.g. for --compare */
        if (at) {
            *at = '\0';
            snprintf(args[n], 8192, "%s%s%s", line, dir, at + 5);
        } else if (fm) {
            *fm = '\0';
            snprintf(args[n], 8192, "%s%s%s", line, FMUC_FMU_DIR, fm + 6);
        } else {
            snprintf(args[n], 8192, "%s", line);
        }
        n++;
    }
    fclose(f);
    return n;
}

ParameterizedTest(ref_case *c, reference, matrix, .timeout = 600)
{
    char fmu[4096], src[4096];
    if (strcmp(c->kind, "vdsim") == 0) {
        snprintf(fmu, sizeof fmu, "%s/%s.fmu", FMUC_FMU_DIR, c->name);
        snprintf(src, sizeof src, "%s/fmi_export", FMUC_SOURCE_DIR);
    } else if (strcmp(c->kind, "fmi3good") == 0) {
        snprintf(fmu, sizeof fmu, "%s/fmi3/good/%s.fmu", FMUC_FMU_DIR, c->name);
        snprintf(src, sizeof src, "%s/reference_fmus/good/%s", FMUC_SOURCE_DIR, c->name);
    } else {
        snprintf(fmu, sizeof fmu, "%s/%s/%s.fmu", FMUC_FMU_DIR, c->kind, c->name);
        snprintf(src, sizeof src, "%s/reference_fmus/%s/%s", FMUC_SOURCE_DIR, c->kind, c->name);
    }
    cr_assert(access(fmu, R_OK) == 0, "%s/%s: FMU not built at %s", c->kind, c->name, fmu);
    char *out = fmuc_test_mkdtemp("ref");
    cr_assert(out);
    static char args[16][8192];
    size_t nargs =
        strcmp(c->kind, "vdsim") && strcmp(c->kind, "fmi3good") ? read_args(src, args, 16) : 0;
    char *argv[32];
    size_t k = 0;
    argv[k++] = FMUC_EXE;
    argv[k++] = "-q";
    argv[k++] = "--no-html";
    argv[k++] = "--timeout-multiplier";
    argv[k++] = (char *)fmuc_test_timeout_multiplier();
    argv[k++] = "-o";
    argv[k++] = out;
    for (size_t i = 0; i < nargs; i++)
        argv[k++] = args[i];
    argv[k++] = fmu;
    argv[k] = NULL;
    fmuc_test_run run;
    cr_assert(fmuc_test_exec(&run, argv, NULL) == 0);
    char rpath[4200];
    snprintf(rpath, sizeof rpath, "%s/report.json", out);
    cJSON *rep = fmuc_test_read_json(rpath);
    cr_assert(rep, "%s/%s: no report.json (exit %d): %s", c->kind, c->name, run.status, run.err);
    cJSON *checks = cJSON_GetObjectItem(rep, "checks");

    char ids[64][128], verdicts[64][32];
    size_t nexp = 0;
    int good = strcmp(c->kind, "good") == 0 || strcmp(c->kind, "vdsim") == 0 ||
               strncmp(c->kind, "fmi1/good/", 10) == 0 || strcmp(c->kind, "fmi3good") == 0;
    if (!good) {
        char epath[4200];
        snprintf(epath, sizeof epath, "%s/EXPECT", src);
        nexp = read_expect(epath, ids, verdicts, 64);
        cr_assert(nexp > 0, "%s/%s: EXPECT is missing or empty", c->kind, c->name);
    }
    int bad = 0;
    size_t matched = 0;
    cJSON *it;
    cJSON_ArrayForEach(it, checks)
    {
        const char *id = cJSON_GetStringValue(cJSON_GetObjectItem(it, "id"));
        /* EXPECT files state verdicts under the standard profile (the text's levels); the
         * interop verdict (the default, "verdict") is never worse than it */
        const char *sel = cJSON_GetStringValue(cJSON_GetObjectItem(it, "verdict"));
        cJSON *vs = cJSON_GetObjectItem(it, "verdicts");
        const char *v = cJSON_GetStringValue(cJSON_GetObjectItem(vs, "standard"));
        const char *vi = cJSON_GetStringValue(cJSON_GetObjectItem(vs, "interop"));
        cr_assert(v && vi && sel, "%s/%s: %s has no verdicts per profile", c->kind, c->name,
                  id ? id : "?");
        if (strcmp(sel, vi) != 0 || (strcmp(vi, "fail") == 0 && strcmp(v, "fail") != 0)) {
            cr_log_error("%s/%s: %s: verdict %s, interop %s, standard %s", c->kind, c->name, id,
                         sel, vi, v);
            bad++;
        }
        cJSON *msgs = cJSON_GetObjectItem(it, "messages");
        const char *m0 = cJSON_GetStringValue(cJSON_GetArrayItem(msgs, 0));
        int expected = -1;
        for (size_t i = 0; i < nexp; i++)
            if (strcmp(ids[i], id) == 0)
                expected = (int)i;
        if (expected >= 0) {
            matched++;
            if (strcmp(verdicts[expected], v) != 0) {
                cr_log_error("%s/%s: %s is %s, expected %s (%s)", c->kind, c->name, id, v,
                             verdicts[expected], m0 ? m0 : "");
                bad++;
            }
        } else if (strcmp(v, "fail") == 0 || strcmp(v, "error") == 0) {
            cr_log_error("%s/%s: unexpected %s in %s: %s", c->kind, c->name, v, id, m0 ? m0 : "");
            bad++;
        }
    }
    if (matched != nexp) {
        cr_log_error("%s/%s: %zu of %zu expected checks are not in the report", c->kind, c->name,
                     nexp - matched, nexp);
        bad++;
    }
    cJSON_Delete(rep);
    fmuc_test_rm_rf(out);
    free(out);
    fmuc_test_run_free(&run);
    cr_assert(bad == 0, "%s/%s: %d mismatches (see log)", c->kind, c->name, bad);
}
