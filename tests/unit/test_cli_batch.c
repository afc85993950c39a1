/* Batches: several FMUs and folders with -j, per-FMU report folders, index.json/index.html, exit
 * code = highest, --shard i/n partitions, `fmucheck merge`, combined JUnit, SIGINT. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "fmuc_test_util.h"

FMUC_TEST_LSAN_IGNORE_CRITERION()

#define GOOD_FMU FMUC_FMU_DIR "/good/SpringMassDamper.fmu"
#define GUID_FMU FMUC_FMU_DIR "/broken/md-guid-present.fmu"
#define STATIC_CHECKS "zip-*,md-*"

static void copy_file(const char *from, const char *to)
{
    size_t len = 0;
    char *b = fmuc_test_read_file(from, &len);
    cr_assert(b, "cannot read %s", from);
    cr_assert(fmuc_test_write_file(to, b, len) == 0);
    free(b);
}

/* dir/fmus/: a.fmu (good), b.fmu (md-guid-present broken), c.fmu (good), notes.fmu (text) */
static char *make_input_dir(const char *tag)
{
    char *dir = fmuc_test_mkdtemp(tag);
    cr_assert(dir);
    char p[4200];
    snprintf(p, sizeof p, "%s/fmus", dir);
    cr_assert(mkdir(p, 0755) == 0);
    snprintf(p, sizeof p, "%s/fmus/a.fmu", dir);
    copy_file(GOOD_FMU, p);
    snprintf(p, sizeof p, "%s/fmus/b.fmu", dir);
    copy_file(GUID_FMU, p);
    snprintf(p, sizeof p, "%s/fmus/c.fmu", dir);
    copy_file(GOOD_FMU, p);
    snprintf(p, sizeof p, "%s/fmus/readme.txt", dir);
    cr_assert(fmuc_test_write_file(p, "not an fmu\n", 11) == 0);
    return dir;
}

static cJSON *read_index(const char *out)
{
    char p[4400];
    snprintf(p, sizeof p, "%s/index.json", out);
    return fmuc_test_read_json(p);
}

static cJSON *entry_named(cJSON *idx, const char *file_name)
{
    cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(idx, "fmus"))
    {
        if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(it, "fileName")), file_name) == 0)
            return it;
    }
    return NULL;
}

static int summary_int(cJSON *idx, const char *key)
{
    return cJSON_GetObjectItem(cJSON_GetObjectItem(idx, "summary"), key)->valueint;
}

Test(cli_batch, folder_and_files_in_parallel_with_index, .timeout = 120)
{
    char *dir = make_input_dir("batch");
    char *tmp = fmuc_test_mkdtemp("batch-tmp");
    char fmus[4200], out[4200], extra[4200], jp[4200];
    snprintf(fmus, sizeof fmus, "%s/fmus", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(extra, sizeof extra, "%s/notes.fmu", dir);
    snprintf(jp, sizeof jp, "%s/junit.xml", dir);
    cr_assert(fmuc_test_write_file(extra, "hello\n", 6) == 0);
    char *argv[] = {FMUC_EXE, "-j", "2", "--tmpdir", tmp, "-o", out, "--only", STATIC_CHECKS,
                    "--junit", jp, fmus, extra, NULL};
    fmuc_test_run r;
    cr_assert(fmuc_test_exec(&r, argv, NULL) == 0);
    cr_expect_eq(r.status, 3, "highest code wins (a rejected input): %d\n%s\n%s", r.status, r.out,
                 r.err);
    cJSON *idx = read_index(out);
    cr_assert(idx, "no index.json");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(idx, "schema")), "fmucheck-index");
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(idx, "fmus")), 4);
    cr_expect_eq(summary_int(idx, "exitCode"), 3);
    cr_expect_eq(summary_int(idx, "pass"), 2);
    cr_expect_eq(summary_int(idx, "fail"), 1);
    cr_expect_eq(summary_int(idx, "rejected"), 1);
    /* sorted by path: fmus/a, fmus/b, fmus/c, notes */
    const char *order[] = {"a.fmu", "b.fmu", "c.fmu", "notes.fmu"};
    for (int k = 0; k < 4; k++) {
        cJSON *e = cJSON_GetArrayItem(cJSON_GetObjectItem(idx, "fmus"), k);
        cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(e, "fileName")), order[k]);
        cr_expect_eq(cJSON_GetObjectItem(e, "position")->valueint, k);
    }
    cJSON *b = entry_named(idx, "b.fmu");
    cr_assert(b);
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(b, "verdict")), "fail");
    cr_expect_eq(cJSON_GetObjectItem(b, "exitCode")->valueint, 1);
    cr_expect_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(b, "counts"), "fail")->valueint, 1);
    cr_expect_eq(strlen(cJSON_GetStringValue(cJSON_GetObjectItem(b, "sha256"))), 64);
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(b, "html")), "b/report.html");
    char p[4300];
    snprintf(p, sizeof p, "%s/b/report.json", out);
    cJSON *rep = fmuc_test_read_json(p);
    cr_assert(rep, "per-FMU report.json");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "fmu"),
                                                              "sha256")),
                     cJSON_GetStringValue(cJSON_GetObjectItem(b, "sha256")));
    cJSON_Delete(rep);
    snprintf(p, sizeof p, "%s/b/report.html", out);
    cr_expect_eq(access(p, R_OK), 0, "per-FMU report.html");
    cJSON *n = entry_named(idx, "notes.fmu");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(n, "status")), "rejected");
    cr_expect(cJSON_IsNull(cJSON_GetObjectItem(n, "report")));
    snprintf(p, sizeof p, "%s/index.html", out);
    char *html = fmuc_test_read_file(p, NULL);
    cr_assert(html);
    cr_expect(strstr(html, "href=\"b/report.html\""), "index.html links the reports");
    free(html);
    cJSON_Delete(idx);
    /* combined JUnit: one testsuite per FMU */
    xmlDoc *doc = xmlReadFile(jp, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR);
    cr_assert(doc, "junit.xml is not well-formed");
    xmlNode *root = xmlDocGetRootElement(doc);
    cr_expect_str_eq((const char *)root->name, "testsuites");
    int suites = 0;
    for (xmlNode *c = root->children; c; c = c->next)
        suites += c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, "testsuite") == 0;
    cr_expect_eq(suites, 4);
    xmlFreeDoc(doc);
    cr_expect_eq(fmuc_test_count_entries(tmp), 0, "temp folders left behind");
    cr_expect(strstr(r.out, "4 FMUs"), "summary: %s", r.out);
    fmuc_test_run_free(&r);
    fmuc_test_rm_rf(dir);
    fmuc_test_rm_rf(tmp);
    free(dir);
    free(tmp);
}

Test(cli_batch, shards_partition_and_merge_combines, .timeout = 120)
{
    char *dir = make_input_dir("shard");
    char fmus[4200], o1[4200], o2[4200], m[4200], i1[4300], i2[4300];
    snprintf(fmus, sizeof fmus, "%s/fmus", dir);
    snprintf(o1, sizeof o1, "%s/s1", dir);
    snprintf(o2, sizeof o2, "%s/s2", dir);
    snprintf(m, sizeof m, "%s/merged", dir);
    snprintf(i1, sizeof i1, "%s/index.json", o1);
    snprintf(i2, sizeof i2, "%s/index.json", o2);
    fmuc_test_run r;
    char *a1[] = {FMUC_EXE, "-q", "--shard", "1/2", "-o", o1, "--no-html", "--only", STATIC_CHECKS,
                  fmus, NULL};
    cr_assert(fmuc_test_exec(&r, a1, NULL) == 0);
    cr_expect_eq(r.status, 0, "shard 1/2 = positions 0, 2 = a, c (good): %d %s", r.status, r.out);
    fmuc_test_run_free(&r);
    char *a2[] = {FMUC_EXE, "-q", "--shard", "2/2", "-o", o2, "--no-html", "--only", STATIC_CHECKS,
                  fmus, NULL};
    cr_assert(fmuc_test_exec(&r, a2, NULL) == 0);
    cr_expect_eq(r.status, 1, "shard 2/2 = position 1 = b (broken): %d", r.status);
    fmuc_test_run_free(&r);
    cJSON *x1 = read_index(o1), *x2 = read_index(o2);
    cr_assert(x1 && x2);
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(x1, "fmus")), 2);
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(x2, "fmus")), 1);
    cr_expect(entry_named(x1, "a.fmu") && entry_named(x1, "c.fmu") && entry_named(x2, "b.fmu"));
    cr_expect_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(x2, "shard"), "index")->valueint, 2);
    cr_expect_eq(cJSON_GetObjectItem(x2, "totalFmus")->valueint, 3);
    cJSON_Delete(x1);
    cJSON_Delete(x2);

    char *am[] = {FMUC_EXE, "merge", m, i1, i2, NULL};
    cr_assert(fmuc_test_exec(&r, am, NULL) == 0);
    cr_expect_eq(r.status, 1, "combined exit code: %d %s", r.status, r.err);
    fmuc_test_run_free(&r);
    cJSON *mx = read_index(m);
    cr_assert(mx);
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(mx, "fmus")), 3);
    const char *order[] = {"a.fmu", "b.fmu", "c.fmu"};
    for (int k = 0; k < 3; k++) {
        cJSON *e = cJSON_GetArrayItem(cJSON_GetObjectItem(mx, "fmus"), k);
        cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(e, "fileName")), order[k]);
    }
    cJSON *b = entry_named(mx, "b.fmu");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(b, "report")), "../s2/b/report.json",
                     "links are relative to the merged folder");
    cr_expect_eq(summary_int(mx, "exitCode"), 1);
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(mx, "shardsMissing")), 0);
    cJSON_Delete(mx);
    char p[4300];
    snprintf(p, sizeof p, "%s/index.html", m);
    cr_expect_eq(access(p, R_OK), 0);

    /* two batches of their own (not shards of one): the merged total counts both */
    char o3[4200], o4[4200], fa[4300], fb[4300], fc[4300], i3[4300], i4[4300], m2[4200];
    snprintf(o3, sizeof o3, "%s/ab", dir);
    snprintf(o4, sizeof o4, "%s/c", dir);
    snprintf(m2, sizeof m2, "%s/merged2", dir);
    snprintf(fa, sizeof fa, "%s/a.fmu", fmus);
    snprintf(fb, sizeof fb, "%s/b.fmu", fmus);
    snprintf(fc, sizeof fc, "%s/c.fmu", fmus);
    snprintf(i3, sizeof i3, "%s/index.json", o3);
    snprintf(i4, sizeof i4, "%s/index.json", o4);
    char *a3[] = {FMUC_EXE, "-q", "-o", o3, "--no-html", "--only", STATIC_CHECKS, fa, fb, NULL};
    char *a4[] = {FMUC_EXE, "-q", "--shard", "1/1", "-o", o4, "--no-html", "--only",
                  STATIC_CHECKS, fc, NULL};
    char *am2[] = {FMUC_EXE, "merge", m2, i3, i4, NULL};
    char *const *steps[] = {a3, a4, am2};
    for (int k = 0; k < 3; k++) {
        cr_assert(fmuc_test_exec(&r, steps[k], NULL) == 0);
        cr_expect_leq(r.status, 1, "step %d: %d %s", k, r.status, r.err);
        fmuc_test_run_free(&r);
    }
    cJSON *mx2 = read_index(m2);
    cr_assert(mx2);
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(mx2, "fmus")), 3);
    cr_expect_eq(cJSON_GetObjectItem(mx2, "totalFmus")->valueint, 3, "2 + 1, not the larger");
    cJSON_Delete(mx2);

    /* a missing shard is visible and fails the merge */
    char *am1[] = {FMUC_EXE, "merge", m, i1, NULL};
    cr_assert(fmuc_test_exec(&r, am1, NULL) == 0);
    cr_expect_eq(r.status, 64, "missing shard: %d", r.status);
    cr_expect(strstr(r.err, "2/2"), "names the missing shard: %s", r.err);
    fmuc_test_run_free(&r);
    char *bad[] = {FMUC_EXE, "merge", m, fmus, NULL};
    cr_assert(fmuc_test_exec(&r, bad, NULL) == 0);
    cr_expect_eq(r.status, 64);
    fmuc_test_run_free(&r);
    char *badshard[] = {FMUC_EXE, "--shard", "3/2", fmus, NULL};
    cr_assert(fmuc_test_exec(&r, badshard, NULL) == 0);
    cr_expect_eq(r.status, 64);
    fmuc_test_run_free(&r);
    fmuc_test_rm_rf(dir);
    free(dir);
}

Test(cli_batch, sigint_stops_batch_marks_index_incomplete, .timeout = 120)
{
    char *dir = fmuc_test_mkdtemp("batch-sig"), *tmp = fmuc_test_mkdtemp("batch-sig-tmp");
    char *hang = fmuc_test_make_hang_fmu(dir, GOOD_FMU);
    if (!hang)
        cr_skip_test("cannot build the hanging FMU (no /usr/bin/cc?)");
    char in[4200], out[4200], pidfile[4200], envp[4300], p[4300];
    snprintf(in, sizeof in, "%s/in", dir);
    cr_assert(mkdir(in, 0755) == 0);
    for (int k = 0; k < 5; k++) {
        snprintf(p, sizeof p, "%s/h%d.fmu", in, k);
        copy_file(hang, p);
    }
    snprintf(out, sizeof out, "%s/out", dir);
    /* the hanging FMU writes its pid where the worker sandbox lets it (--allow-write) */
    char piddir[4100];
    snprintf(piddir, sizeof piddir, "%s/pid", dir);
    cr_assert(chmod(dir, 0711) == 0 && mkdir(piddir, 0777) == 0 && chmod(piddir, 0777) == 0);
    snprintf(pidfile, sizeof pidfile, "%s/worker.pid", piddir);
    snprintf(envp, sizeof envp, "FMUC_TEST_HANG_PIDFILE=%s", pidfile);
    char *argv[] = {FMUC_EXE, "-j", "2", "--timeout", "60", "--tmpdir", tmp, "--allow-write", piddir,
                    "--pass-env", "FMUC_TEST_HANG_PIDFILE", "-o", out, in, NULL};
    char *env[] = {envp, NULL};
    pid_t pid = fmuc_test_spawn(argv, env, NULL, NULL);
    cr_assert(pid > 0);
    cr_assert(fmuc_test_wait_file(pidfile, 30) == 0, "no worker reached the library");
    double t0 = fmuc_test_now();
    cr_assert(kill(pid, SIGINT) == 0);
    int code = -1;
    cr_assert(fmuc_test_wait(pid, 20, &code) == 0, "the batch did not stop");
    cr_expect(fmuc_test_now() - t0 < 10, "stopped promptly");
    cr_expect_eq(code, 130, "exit %d", code);
    cJSON *idx = read_index(out);
    cr_assert(idx, "index.json written on interruption");
    cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(idx, "incomplete")));
    cr_expect_eq(summary_int(idx, "exitCode"), 130);
    int incomplete = 0, notrun = 0;
    cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(idx, "fmus"))
    {
        const char *st = cJSON_GetStringValue(cJSON_GetObjectItem(it, "status"));
        incomplete += strcmp(st, "incomplete") == 0;
        notrun += strcmp(st, "not-run") == 0;
    }
    cr_expect_eq(incomplete, 2, "the two running FMUs have incomplete reports");
    cr_expect_eq(notrun, 3, "the others were not started");
    cJSON_Delete(idx);
    snprintf(p, sizeof p, "%s/h0/report.json", out);
    cJSON *rep = fmuc_test_read_json(p);
    cr_assert(rep);
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(rep, "status")), "incomplete");
    cJSON_Delete(rep);
    cr_expect_eq(fmuc_test_count_entries(tmp), 0, "temp folders left behind");
    cr_expect_eq(fmuc_test_procs_with(pidfile), 0, "processes left over");
    fmuc_test_rm_rf(dir);
    fmuc_test_rm_rf(tmp);
    free(hang);
    free(dir);
    free(tmp);
}

/* B19: the same FMU twice and two FMUs exporting the same fmi2* names, in one parallel batch with
 * the whole battery: each runs in its own processes (one FMU per worker, RTLD_LOCAL), so they pass
 * as they do alone, with no cross-talk. */
Test(cli_batch, same_symbols_and_same_fmu_twice_do_not_interfere, .timeout = 180)
{
    char *dir = fmuc_test_mkdtemp("batch-b19"), *tmp = fmuc_test_mkdtemp("batch-b19-tmp");
    char in[4200], out[4200], p[4300];
    snprintf(in, sizeof in, "%s/in", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    cr_assert(mkdir(in, 0755) == 0);
    snprintf(p, sizeof p, "%s/smd1.fmu", in);
    copy_file(GOOD_FMU, p);
    snprintf(p, sizeof p, "%s/smd2.fmu", in);
    copy_file(GOOD_FMU, p);
    snprintf(p, sizeof p, "%s/ball.fmu", in);
    copy_file(FMUC_FMU_DIR "/good/BouncingBall.fmu", p);
    char *argv[] = {FMUC_EXE, "-j", "2", "--tmpdir", tmp, "-o", out, in, NULL};
    fmuc_test_run r;
    cr_assert(fmuc_test_exec(&r, argv, NULL) == 0);
    cr_expect_eq(r.status, 0, "%s\n%s", r.out, r.err);
    cJSON *idx = read_index(out);
    cr_assert(idx, "no index.json");
    cr_expect_eq(summary_int(idx, "pass"), 3);
    static const char *const names[] = {"smd1.fmu", "smd2.fmu", "ball.fmu"};
    for (int k = 0; k < 3; k++) {
        cJSON *e = entry_named(idx, names[k]);
        cr_assert(e, "%s", names[k]);
        cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(e, "verdict")), "pass",
                         "%s", names[k]);
    }
    cJSON_Delete(idx);
    fmuc_test_run_free(&r);
    fmuc_test_rm_rf(dir);
    fmuc_test_rm_rf(tmp);
    free(dir);
    free(tmp);
}
