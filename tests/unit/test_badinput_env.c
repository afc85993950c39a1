/* Bad-input suite, environment (robustness.md §4.4: E01, E02, E03, E05, E10), end to end through
 * fmucheck: environment problems are exit 64 naming the path, a full disk never leaves a partial
 * report, concurrent runs do not interfere, odd paths work, a closed stdout does not lose the
 * report. Every case also keeps the bi_expect_hygiene contract. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <signal.h>
#include <sys/mount.h>

#include "test_badinput_util.h"

static int run_opts(bi_env *e, fmuc_test_run *r, const bi_opts *o, const char *fmu)
{
    return bi_exec(e, r, o, fmu, NULL);
}

/* A small tmpfs at dir (root only); 0 when mounted. */
static int mount_small(const char *dir, const char *opts)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return -1;
    return mount("tmpfs", dir, "tmpfs", 0, opts);
}

Test(badinput_env, e01_unusable_tmpdir_and_output_dir_exit_64_naming_the_path, .timeout = 120)
{
    bi_env e;
    bi_env_init(&e, "e01");
    char missing[700], file[700], out_under_file[800];
    snprintf(missing, sizeof missing, "%s/no/such/dir", e.root);
    snprintf(file, sizeof file, "%s/sentinel/keep.txt", e.root);
    snprintf(out_under_file, sizeof out_under_file, "%s/report", file);
    fmuc_test_run r;
    /* --tmpdir missing, or a file */
    const char *bad[] = {missing, file};
    for (int i = 0; i < 2; i++) {
        bi_opts o = {.tmpdir = bad[i]};
        cr_assert(run_opts(&e, &r, &o, BI_GOOD_FMU) == 0);
        cr_expect_eq(r.status, 64, "--tmpdir %s: exit %d (%s)", bad[i], r.status, r.err);
        cr_expect(strstr(r.err, bad[i]), "the message names %s: %s", bad[i], r.err);
        bi_expect_hygiene(&e, bad[i]);
        fmuc_test_run_free(&r);
    }
    /* $TMPDIR missing and no --tmpdir */
    bi_opts o = {.tmpdir = "", .envtmp = missing};
    cr_assert(run_opts(&e, &r, &o, BI_GOOD_FMU) == 0);
    cr_expect_eq(r.status, 64, "TMPDIR=%s: exit %d (%s)", missing, r.status, r.err);
    cr_expect(strstr(r.err, missing), "the message names $TMPDIR: %s", r.err);
    fmuc_test_run_free(&r);
    /* output folder that cannot be created */
    bi_opts o2 = {.outdir = out_under_file};
    cr_assert(run_opts(&e, &r, &o2, BI_GOOD_FMU) == 0);
    cr_expect_eq(r.status, 64, "-o %s: exit %d (%s)", out_under_file, r.status, r.err);
    cr_expect(strstr(r.err, out_under_file), "the message names the output folder: %s", r.err);
    fmuc_test_run_free(&r);
    cr_expect_eq(fmuc_test_count_entries(e.tmp), 0);
    /* read-only mounts (as root, permissions alone do not stop writes) */
    char ro[700];
    snprintf(ro, sizeof ro, "%s/ro", e.root);
    if (mount_small(ro, "size=64k,mode=0755") == 0) {
        mount(NULL, ro, NULL, MS_REMOUNT | MS_RDONLY, NULL);
        char roout[800];
        snprintf(roout, sizeof roout, "%s/out", ro);
        bi_opts a = {.tmpdir = ro}, b = {.outdir = roout};
        cr_assert(run_opts(&e, &r, &a, BI_GOOD_FMU) == 0);
        cr_expect_eq(r.status, 64, "read-only --tmpdir: exit %d (%s)", r.status, r.err);
        cr_expect(strstr(r.err, ro), "names %s: %s", ro, r.err);
        fmuc_test_run_free(&r);
        cr_assert(run_opts(&e, &r, &b, BI_GOOD_FMU) == 0);
        cr_expect_eq(r.status, 64, "read-only -o: exit %d (%s)", r.status, r.err);
        cr_expect(strstr(r.err, roout), "names %s: %s", roout, r.err);
        fmuc_test_run_free(&r);
        umount2(ro, MNT_DETACH);
    } else {
        cr_log_warn("e01: no tmpfs mount (%s): read-only mount cases skipped", strerror(errno));
    }
    bi_env_fini(&e);
}

Test(badinput_env, e02_disk_full_during_extraction_and_report, .timeout = 120)
{
    bi_env e;
    bi_env_init(&e, "e02");
    char small[700];
    snprintf(small, sizeof small, "%s/small", e.root);
    if (mount_small(small, "size=16k,mode=0755") != 0) {
        bi_env_fini(&e);
        cr_skip("cannot mount a tmpfs: %s", strerror(errno));
    }
    fmuc_test_run r;
    /* extraction: the library does not fit */
    bi_opts a = {.tmpdir = small};
    cr_assert(run_opts(&e, &r, &a, BI_GOOD_FMU) == 0);
    cr_expect_eq(r.status, 64, "full --tmpdir: exit %d (%s)", r.status, r.err);
    cr_expect(strstr(r.err, "disk full") || strstr(r.err, "No space"), "ENOSPC is named: %s", r.err);
    cr_expect_eq(fmuc_test_count_entries(small), 0, "the partial extraction is removed");
    fmuc_test_run_free(&r);
    /* report: the output folder is full */
    char outd[800], fill[800];
    snprintf(outd, sizeof outd, "%s/out", small);
    mkdir(outd, 0755);
    snprintf(fill, sizeof fill, "%s/fill", small);
    char *blob = calloc(1, 64 << 10);
    FILE *f = fopen(fill, "wb");
    cr_assert(f);
    while (fwrite(blob, 1, 4096, f) == 4096 && fflush(f) == 0)
        ;
    fclose(f);
    free(blob);
    bi_opts b = {.outdir = outd};
    cr_assert(run_opts(&e, &r, &b, BI_GOOD_FMU) == 0);
    cr_expect_eq(r.status, 64, "full -o: exit %d (%s)", r.status, r.err);
    cJSON *rep = bi_report_at(outd); /* complete or absent: never truncated */
    cJSON_Delete(rep);
    bi_expect_no_partial(outd);
    fmuc_test_run_free(&r);
    bi_expect_hygiene(&e, "e02");
    umount2(small, MNT_DETACH);
    bi_env_fini(&e);
}

Test(badinput_env, e03_concurrent_runs_on_one_fmu_and_one_folder, .timeout = 300)
{
    bi_env e;
    bi_env_init(&e, "e03");
    enum { N = 4 };
    pid_t pids[N];
    char json[N][800];
    for (int i = 0; i < N; i++) {
        snprintf(json[i], sizeof json[i], "%s/out/run%d.json", e.root, i);
        pids[i] = fork();
        cr_assert(pids[i] >= 0);
        if (pids[i] == 0) {
            int nul = open("/dev/null", O_WRONLY);
            dup2(nul, 1);
            dup2(nul, 2);
            char jarg[4200];
            snprintf(jarg, sizeof jarg, "--json=%s", json[i]);
            setenv("TMPDIR", e.envtmp, 1);
            if (chdir(e.cwd) != 0)
                _exit(126);
            const char *exe = getenv("FMUC_BI_EXE");
            exe = exe && *exe ? exe : FMUC_EXE;
            execl(exe, exe, "--tmpdir", e.tmp, "-o", e.out, jarg, "--timeout-multiplier",
                  fmuc_test_timeout_multiplier(), BI_GOOD_FMU, (char *)NULL);
            _exit(127);
        }
    }
    free(e.before_sentinel);
    free(e.before_in);
    free(e.before_cwd);
    e.before_sentinel = bi_listing(e.sentinel);
    e.before_in = bi_listing(e.in);
    e.before_cwd = bi_listing(e.cwd);
    for (int i = 0; i < N; i++) {
        int st = 0;
        while (waitpid(pids[i], &st, 0) < 0 && errno == EINTR)
            ;
        cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "run %d: status 0x%x", i, st);
    }
    const char *sha = NULL;
    cJSON *reps[N];
    for (int i = 0; i < N; i++) {
        reps[i] = fmuc_test_read_json(json[i]);
        cr_expect(reps[i], "run %d: its own report is complete", i);
        cr_expect_str_eq(bi_status(reps[i]), "complete");
        const char *s = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(reps[i], "fmu"), "sha256"));
        cr_expect(s);
        if (!sha)
            sha = s;
        else if (s)
            cr_expect_str_eq(s, sha, "same FMU, same identity");
        cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(reps[i], "checks")),
                     cJSON_GetArraySize(cJSON_GetObjectItem(reps[0], "checks")), "no cross-talk");
    }
    bi_expect_hygiene(&e, "e03"); /* the shared report.json/html are complete */
    char hp[800];
    snprintf(hp, sizeof hp, "%s/report.html", e.out);
    size_t hl = 0;
    char *html = fmuc_test_read_file(hp, &hl);
    cr_expect(html && strstr(html, "</html>"), "the shared report.html is complete");
    free(html);
    for (int i = 0; i < N; i++)
        cJSON_Delete(reps[i]);
    bi_env_fini(&e);
}

Test(badinput_env, e05_odd_paths_and_symlinked_fmu, .timeout = 300)
{
    bi_env e;
    bi_env_init(&e, "e05");
    size_t n;
    char *good = bi_file_bytes(BI_GOOD_FMU, &n);
    const char *names[] = {"with space.fmu", "n\xC3\xA4me-\xE2\x9C\x93.fmu", "new\nline.fmu"};
    char p[800], outd[900];
    for (size_t i = 0; i < 3; i++) {
        bi_in(&e, names[i], p, sizeof p);
        cr_assert(fmuc_test_write_file(p, good, n) == 0);
        snprintf(outd, sizeof outd, "%s/out dir %zu \xC3\xA4", e.root, i);
        fmuc_test_run r;
        bi_opts o = {.outdir = outd};
        cr_assert(bi_exec(&e, &r, &o, p, NULL) == 0);
        cr_expect_eq(r.status, 0, "%s: exit %d (%s)", names[i], r.status, r.err);
        bi_expect_hygiene(&e, names[i]);
        cJSON *rep = bi_report_at(outd);
        cr_expect(rep, "%s: report written", names[i]);
        const char *path = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "fmu"), "path"));
        cr_expect(path && !strcmp(path, p), "%s: the report names the path as given", names[i]);
        cJSON_Delete(rep);
        fmuc_test_run_free(&r);
    }
    /* a symlink to the FMU */
    char link[800];
    snprintf(link, sizeof link, "%s/link.fmu", e.in);
    cr_assert(symlink(BI_GOOD_FMU, link) == 0);
    cJSON *rep = bi_check(&e, link, NULL, 0, NULL);
    cr_expect(rep);
    cJSON_Delete(rep);
    free(good);
    bi_env_fini(&e);
}

Test(badinput_env, e10_closed_stdout_still_writes_the_report, .timeout = 120)
{
    bi_env e;
    bi_env_init(&e, "e10");
    fmuc_test_run r;
    bi_opts o = {.stdout_mode = BI_STDOUT_CLOSED_PIPE};
    cr_assert(bi_exec(&e, &r, &o, BI_GOOD_FMU, NULL) == 0);
    cJSON *rep = bi_report(&e);
    cr_expect(rep, "report.json written although stdout is a closed pipe");
    cr_expect_str_eq(bi_status(rep), "complete");
    /* SIGPIPE must be ignored in the parent: dying of it while printing the summary skips the
     * cleanup (the private temp folder stays) and turns the verdict into 141 */
    cr_expect_neq(r.status, 128 + SIGPIPE,
                  "fmucheck was killed by SIGPIPE (the CLI must ignore SIGPIPE); exit %d", r.status);
    cr_expect_eq(r.status, 0, "exit %d", r.status);
    bi_expect_hygiene(&e, "e10");
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    bi_env_fini(&e);
}
