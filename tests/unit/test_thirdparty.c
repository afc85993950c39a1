/* Third-party FMUs: fmucheck runs over every FMU of ../shared/thirdparty (manifest.tsv; FMI 1.0,
 * 2.0 and 3.0), ../shared/reference-fmus/fmi2 and ../shared/reference-fmus/fmi3 in one batch (-j 2), and each check's verdict in
 * the standard and interop profiles must equal tests/thirdparty/expect/<path with / as +>.expect
 * (format in tests/thirdparty/tp_expect.h, reasons in tests/thirdparty/TRIAGE.md). FMUs named in
 * tests/thirdparty/options.tsv run in a batch of their own with the options given there. Every
 * battery runs with --time-budget off: the budget leaves checks out by the wall clock, and a
 * verdict pinned here must not move with the machine's load (bench/bench_time_bounds measures the
 * default). Any change, in
 * either direction, fails with one line per FMU and check; the full list is also written to
 * <build>/thirdparty-diff.txt and the batch output stays in <build>/thirdparty-out for
 * scripts/thirdparty-expect.sh --from. Skipped when the shared folder is absent.
 * Label "thirdparty" (ctest -L thirdparty); not registered in the sanitizer build. */
#include <criterion/criterion.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../thirdparty/tp_expect.h"
#include "fmuc_test_util.h"

#ifndef FMUC_SHARED_DIR
#define FMUC_SHARED_DIR FMUC_SOURCE_DIR "/../shared"
#endif
#define EXPECT_DIR FMUC_SOURCE_DIR "/tests/thirdparty/expect"
#define OUT_DIR FMUC_BUILD_DIR "/thirdparty-out"
#define DIFF_FILE FMUC_BUILD_DIR "/thirdparty-diff.txt"
#define BATCH_TIMEOUT_S 3000.0

typedef struct strv {
    char **v;
    size_t n;
} strv;

static void strv_push(strv *s, char *p)
{
    char **nv = realloc(s->v, (s->n + 2) * sizeof *nv);
    cr_assert(nv && p, "out of memory");
    s->v = nv;
    s->v[s->n++] = p;
    s->v[s->n] = NULL;
}

static char *cat(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s/%s", a, b);
    return s;
}

/* tests/thirdparty/options.tsv: FMUs checked with extra fmucheck options, each in a batch of its
 * own (<file relative to thirdparty/> TAB <options separated by spaces> TAB why). */
typedef struct tp_optioned {
    char *file;     /* relative to thirdparty/ */
    strv opts;      /* the options, one argument each */
} tp_optioned;

typedef struct tp_options {
    tp_optioned *v;
    size_t n;
} tp_options;

static void read_options(tp_options *o)
{
    FILE *f = fopen(FMUC_SOURCE_DIR "/tests/thirdparty/options.tsv", "r");
    char line[8192];
    while (f && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\r\n")] = '\0';
        char *tab = strchr(line, '\t');
        cr_assert(tab, "tests/thirdparty/options.tsv: '%s' has no options column", line);
        *tab = '\0';
        char *why = strchr(tab + 1, '\t');
        cr_assert(why && why[1], "tests/thirdparty/options.tsv: %s gives no reason", line);
        *why = '\0';
        tp_optioned *nv = realloc(o->v, (o->n + 1) * sizeof *nv);
        cr_assert(nv, "out of memory");
        o->v = nv;
        tp_optioned *e = &o->v[o->n++];
        memset(e, 0, sizeof *e);
        e->file = strdup(line);
        for (char *save = NULL, *tok = strtok_r(tab + 1, " ", &save); tok;
             tok = strtok_r(NULL, " ", &save))
            strv_push(&e->opts, strdup(tok));
        cr_assert(e->opts.n > 0, "tests/thirdparty/options.tsv: %s gives no options", line);
    }
    if (f)
        fclose(f);
}

static const tp_optioned *optioned(const tp_options *o, const char *file)
{
    for (size_t i = 0; i < o->n; i++)
        if (strcmp(o->v[i].file, file) == 0)
            return &o->v[i];
    return NULL;
}

/* manifest.tsv: header line, then <file relative to thirdparty/> TAB ... */
static void add_manifest(strv *fmus, const tp_options *opt, strv *extra, const char *shared)
{
    char *mpath = cat(shared, "thirdparty/manifest.tsv");
    FILE *f = fopen(mpath, "r");
    free(mpath);
    if (!f)
        return;
    char line[8192];
    int first = 1;
    while (fgets(line, sizeof line, f)) {
        if (first) {
            first = 0;
            continue;
        }
        line[strcspn(line, "\t\r\n")] = '\0';
        if (!line[0])
            continue;
        char *dir = cat(shared, "thirdparty");
        strv_push(optioned(opt, line) ? extra : fmus, cat(dir, line));
        free(dir);
    }
    fclose(f);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_reference(strv *fmus, const char *shared, const char *sub)
{
    char *dir = cat(shared, sub);
    DIR *d = opendir(dir);
    if (d) {
        size_t start = fmus->n;
        struct dirent *e;
        while ((e = readdir(d))) {
            size_t n = strlen(e->d_name);
            if (n > 4 && strcmp(e->d_name + n - 4, ".fmu") == 0)
                strv_push(fmus, cat(dir, e->d_name));
        }
        closedir(d);
        qsort(fmus->v + start, fmus->n - start, sizeof *fmus->v, by_name);
    }
    free(dir);
}

/* The report of path in the batch index, or NULL. */
static const char *report_of(const cJSON *index, const char *path)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(index, "fmus"))
    {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(it, "path");
        const cJSON *r = cJSON_GetObjectItemCaseSensitive(it, "report");
        if (cJSON_IsString(p) && cJSON_IsString(r) && strcmp(p->valuestring, path) == 0)
            return r->valuestring;
    }
    return NULL;
}

/* Runs fmucheck with argv (freed here) and fails unless it ends with a verdict's exit code. */
static void run_fmucheck(strv *argv, const char *log)
{
    char out[512], err[512];
    snprintf(out, sizeof out, "%s/%s.out", FMUC_BUILD_DIR, log);
    snprintf(err, sizeof err, "%s/%s.err", FMUC_BUILD_DIR, log);
    pid_t pid = fmuc_test_spawn(argv->v, NULL, out, err);
    cr_assert(pid > 0, "cannot start %s", FMUC_EXE);
    int code = -1;
    cr_assert(fmuc_test_wait(pid, BATCH_TIMEOUT_S, &code) == 0,
              "fmucheck (%s) did not finish within %.0f s", log, BATCH_TIMEOUT_S);
    /* Exit codes 0..4 are verdicts (pass/fail/error/usage/unsupported); the expectations
     * judge them per check. Anything else means fmucheck itself died. */
    cr_assert((code >= 0 && code <= 4) || code == 64, "fmucheck exited %d (see %s)", code, err);
    for (size_t i = 0; i < argv->n; i++)
        free(argv->v[i]);
    free(argv->v);
    memset(argv, 0, sizeof *argv);
}

static void push_all(strv *argv, const char *const *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        strv_push(argv, strdup(a[i]));
}

Test(thirdparty, verdicts_match_expectations, .timeout = 3300)
{
    const char *shared = FMUC_SHARED_DIR;
    strv fmus = {0}, extra = {0};
    tp_options opt = {0};
    read_options(&opt);
    add_manifest(&fmus, &opt, &extra, shared);
    add_reference(&fmus, shared, "reference-fmus/fmi2");
    add_reference(&fmus, shared, "reference-fmus/fmi3");
    add_reference(&fmus, shared, "reference-fmus/fmi1/me"); /* v0.0.39, FMI 1.0 (issue 20) */
    add_reference(&fmus, shared, "reference-fmus/fmi1/cs");
    if (fmus.n + extra.n == 0)
        cr_skip_test("no third-party FMUs: %s/thirdparty/manifest.tsv and "
                     "%s/reference-fmus/fmi2, fmi3 are absent",
                     shared, shared);

    /* One batch, two workers, then one batch per FMU of options.tsv with its options, merged
     * into OUT_DIR. FMUC_THIRDPARTY_REUSE=1 compares an existing output. */
    const char *reuse = getenv("FMUC_THIRDPARTY_REUSE");
    char idx_path[] = OUT_DIR "/index.json";
    if (!(reuse && strcmp(reuse, "1") == 0 && access(idx_path, R_OK) == 0)) {
        fmuc_test_rm_rf(OUT_DIR);
        strv argv = {0}, merge = {0};
        const char *fixed[] = {FMUC_EXE, "-j", "2", "-q", "--time-budget", "off",
                               "-o", OUT_DIR "/batch"};
        push_all(&argv, fixed, sizeof fixed / sizeof fixed[0]);
        push_all(&argv, (const char *const *)fmus.v, fmus.n);
        run_fmucheck(&argv, "thirdparty-batch");
        const char *m[] = {FMUC_EXE, "merge", OUT_DIR, OUT_DIR "/batch/index.json"};
        push_all(&merge, m, sizeof m / sizeof m[0]);
        size_t skip = strlen(shared) + strlen("/thirdparty/");
        for (size_t i = 0; i < extra.n; i++) {
            const tp_optioned *e = optioned(&opt, extra.v[i] + skip);
            cr_assert(e, "%s: not in options.tsv", extra.v[i]);
            char dir[512], log[64];
            snprintf(dir, sizeof dir, "%s/options-%zu", OUT_DIR, i + 1);
            snprintf(log, sizeof log, "thirdparty-options-%zu", i + 1);
            /* a batch of one */
            const char *head[] = {FMUC_EXE, "-q", "--time-budget", "off", "--shard", "1/1", "-o",
                                  dir};
            push_all(&argv, head, sizeof head / sizeof head[0]);
            push_all(&argv, (const char *const *)e->opts.v, e->opts.n);
            strv_push(&argv, strdup("--"));
            strv_push(&argv, strdup(extra.v[i]));
            run_fmucheck(&argv, log);
            /* merge refuses a missing index: that FMU is then reported without a report */
            char *ix = cat(dir, "index.json");
            if (access(ix, R_OK) == 0)
                strv_push(&merge, ix);
            else
                free(ix);
        }
        run_fmucheck(&merge, "thirdparty-merge");
    }
    for (size_t i = 0; i < extra.n; i++)
        strv_push(&fmus, strdup(extra.v[i]));
    cJSON *index = fmuc_test_read_json(idx_path);
    cr_assert(index, "no batch index %s", idx_path);

    FILE *diff = fopen(DIFF_FILE, "w");
    cr_assert(diff, "cannot write %s", DIFF_FILE);
    size_t ndiff = 0;
    char err[512];
    for (size_t i = 0; i < fmus.n; i++) {
        const char *rel = tp_rel_path(fmus.v[i]);
        cr_assert(rel, "%s is neither under thirdparty/fmus/ nor reference-fmus/", fmus.v[i]);
        const char *rep = report_of(index, fmus.v[i]);
        if (!rep) {
            fprintf(diff, "%s: no report in the batch output\n", rel);
            ndiff++;
            continue;
        }
        char *rpath = cat(OUT_DIR, rep);
        tp_report r;
        if (tp_report_read(rpath, &r, err, sizeof err) < 0) {
            fprintf(diff, "%s: %s\n", rel, err);
            ndiff++;
            free(rpath);
            continue;
        }
        free(rpath);
        char *name = tp_expect_name(rel);
        char *epath = cat(EXPECT_DIR, name);
        free(name);
        tp_expect e;
        int rc = tp_expect_read(epath, &e, err, sizeof err);
        free(epath);
        if (rc == -2) {
            fprintf(diff, "%s: malformed expectation file: %s\n", rel, err);
            ndiff++;
        } else {
            ndiff += tp_compare(rel, rc == 0 ? &e : NULL, &r, diff);
        }
        /* a regenerated line not yet judged against the text (scripts/thirdparty-expect.sh) */
        for (size_t k = 0; rc == 0 && k < e.n; k++)
            if (strncmp(e.v[k].clause, "REVIEW", 6) == 0) {
                fprintf(diff, "%s: %s: clause not reviewed: %.200s\n", rel, e.v[k].id,
                        e.v[k].clause);
                ndiff++;
            }
        if (rc == 0)
            tp_expect_free(&e);
        tp_report_free(&r);
    }
    fclose(diff);
    cJSON_Delete(index);

    char *text = fmuc_test_read_file(DIFF_FILE, NULL);
    cr_expect(ndiff == 0,
              "%zu verdict(s) differ from tests/thirdparty/expect (full list: %s; regenerate and "
              "review: scripts/thirdparty-expect.sh --from %s):\n%.12000s",
              ndiff, DIFF_FILE, OUT_DIR, text ? text : "");
    free(text);
    for (size_t i = 0; i < fmus.n; i++)
        free(fmus.v[i]);
    free(fmus.v);
    for (size_t i = 0; i < extra.n; i++)
        free(extra.v[i]);
    free(extra.v);
    for (size_t i = 0; i < opt.n; i++) {
        for (size_t k = 0; k < opt.v[i].opts.n; k++)
            free(opt.v[i].opts.v[k]);
        free(opt.v[i].opts.v);
        free(opt.v[i].file);
    }
    free(opt.v);
}

/* ---- the comparison and the regeneration themselves (no FMU needed) -------------------------- */

static char *write_tmp(const char *dir, const char *name, const char *text)
{
    char *p = cat(dir, name);
    cr_assert(p && fmuc_test_write_file(p, text, strlen(text)) == 0, "cannot write %s", name);
    return p;
}

#define REPORT_HEAD "{\"status\": \"complete\", \"statusReason\": null, \"checks\": ["
static const char report_json[] =
    REPORT_HEAD
    "{\"id\": \"a-one\", \"verdict\": \"fail\", \"spec\": \"S1\", \"level\": \"must\","
    " \"messages\": [\"m1\"], \"verdicts\": {\"interop\": \"warn\", \"standard\": \"fail\","
    " \"strict\": \"fail\"}},"
    "{\"id\": \"a-two\", \"verdict\": \"pass\", \"messages\": []},"
    "{\"id\": \"a-three\", \"verdict\": \"warn\", \"spec\": \"S3\", \"level\": \"should\","
    " \"messages\": [\"m3\"]},"
    "{\"id\": \"a-four\", \"verdict\": \"not-applicable\", \"messages\": [\"why4\"]}]}";

Test(thirdparty, compare_names_every_change)
{
    char *dir = fmuc_test_mkdtemp("tpexp");
    char *rp = write_tmp(dir, "report.json", report_json);
    /* a-one as expected; a-two listed but passes; a-three changed; a-four unlisted; a-five gone */
    char *ep = write_tmp(dir, "x.expect",
                         "# comment\n"
                         "a-one fail warn | clause one\n"
                         "a-two warn warn | clause two\n"
                         "a-three fail fail | clause three\n"
                         "a-five fail fail | clause five\n");
    tp_report r;
    tp_expect e;
    char err[256];
    cr_assert_eq(tp_report_read(rp, &r, err, sizeof err), 0, "%s", err);
    cr_assert_eq(tp_expect_read(ep, &e, err, sizeof err), 0, "%s", err);
    cr_assert_str_eq(r.v[0].std, "fail");
    cr_assert_str_eq(r.v[0].interop, "warn"); /* from "verdicts" */
    cr_assert_str_eq(r.v[2].interop, "warn"); /* from "verdict" when "verdicts" is absent */
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    size_t nd = tp_compare("x.fmu", &e, &r, out);
    fclose(out);
    cr_expect_eq(nd, 4, "differences: a-two, a-three, a-four, a-five; got %zu:\n%s", nd, buf);
    cr_expect(strstr(buf, "x.fmu: a-two: expected standard=warn interop=warn, got standard=pass "
                          "interop=pass"),
              "%s", buf);
    cr_expect(strstr(buf, "x.fmu: a-three: expected standard=fail interop=fail, got "
                          "standard=warn interop=warn"),
              "%s", buf);
    cr_expect(strstr(buf, "x.fmu: a-four: expected standard=pass interop=pass"), "%s", buf);
    cr_expect(strstr(buf, "x.fmu: a-five:") && strstr(buf, "no such check"), "%s", buf);
    cr_expect(!strstr(buf, "a-one"), "%s", buf);
    free(buf);

    /* Regeneration keeps the clause of the unchanged line and marks the others. */
    char *np = cat(dir, "new.expect");
    size_t changed = 0;
    cr_assert_eq(tp_expect_write(np, "x.fmu", &r, &e, &changed), 0);
    cr_expect_eq(changed, 4, "a-two dropped, a-three changed, a-four new, a-five dropped: %zu",
                 changed);
    char *text = fmuc_test_read_file(np, NULL);
    cr_expect(strstr(text, "\na-one fail warn | clause one\n"), "%s", text);
    cr_expect(strstr(text, "\na-three warn warn | REVIEW (was fail fail): clause three\n"), "%s",
              text);
    cr_expect(strstr(text, "\na-four not-applicable not-applicable | REVIEW: why4\n"), "%s", text);
    cr_expect(!strstr(text, "a-two") && !strstr(text, "a-five"), "%s", text);
    tp_expect e2;
    cr_assert_eq(tp_expect_read(np, &e2, err, sizeof err), 0, "%s", err);
    cr_expect_eq(tp_compare("x.fmu", &e2, &r, stderr), 0, "a regenerated file matches");
    tp_expect_free(&e2);
    free(text);
    tp_expect_free(&e);
    tp_report_free(&r);
    free(np);
    free(ep);
    free(rp);
    fmuc_test_rm_rf(dir);
    free(dir);
}

Test(thirdparty, status_and_malformed_lines)
{
    char *dir = fmuc_test_mkdtemp("tpexp");
    char *rp = write_tmp(dir, "report.json",
                         "{\"status\": \"unsupported\", \"statusReason\": \"fmiVersion 1.0\","
                         " \"checks\": [{\"id\": \"a-one\", \"verdict\": \"not-applicable\"}]}");
    char *ok = write_tmp(dir, "ok.expect", "@status unsupported | FMI 1.0 not yet\n");
    char *none = write_tmp(dir, "none.expect", "# expects a complete run\n");
    char *bad = write_tmp(dir, "bad.expect", "a-one fail maybe | what\n");
    char *dup = write_tmp(dir, "dup.expect", "a-one fail fail | x\na-one fail fail | y\n");
    char *bare = write_tmp(dir, "bare.expect", "a-one warn warn\n");
    char *bare2 = write_tmp(dir, "bare2.expect", "a-one warn warn |  \n");
    tp_report r;
    tp_expect e;
    char err[256];
    cr_assert_eq(tp_report_read(rp, &r, err, sizeof err), 0, "%s", err);
    cr_assert_eq(tp_expect_read(ok, &e, err, sizeof err), 0, "%s", err);
    cr_expect_eq(tp_compare("u.fmu", &e, &r, stderr), 0);
    tp_expect_free(&e);
    cr_assert_eq(tp_expect_read(none, &e, err, sizeof err), 0, "%s", err);
    FILE *devnull = fopen("/dev/null", "w");
    cr_expect_eq(tp_compare("u.fmu", &e, &r, devnull), 1, "status complete expected");
    tp_expect_free(&e);
    cr_expect_eq(tp_compare("u.fmu", NULL, &r, devnull), 1, "a missing file is a difference");
    fclose(devnull);
    cr_expect_eq(tp_expect_read(bad, &e, err, sizeof err), -2);
    cr_expect(strstr(err, "line 1"), "%s", err);
    cr_expect_eq(tp_expect_read(dup, &e, err, sizeof err), -2);
    cr_expect(strstr(err, "twice"), "%s", err);
    cr_expect_eq(tp_expect_read(bare, &e, err, sizeof err), -2, "a warn without its clause");
    cr_expect(strstr(err, "names no clause") && strstr(err, "a-one"), "%s", err);
    cr_expect_eq(tp_expect_read(bare2, &e, err, sizeof err), -2, "a blank clause");
    char *name = tp_expect_name(tp_rel_path("/x/../shared/thirdparty/fmus/o+r/a/B.fmu"));
    cr_expect_str_eq(name, "thirdparty+fmus+o+r+a+B.fmu.expect");
    free(name);
    tp_report_free(&r);
    free(rp);
    free(ok);
    free(none);
    free(bad);
    free(dup);
    free(bare);
    free(bare2);
    fmuc_test_rm_rf(dir);
    free(dir);
}
