/* The HTML reports in a real browser: Debian's chromium, headless. The page must load without any
 * console message or uncaught exception, its script must have run (body[data-js=ready]), the
 * #filter=fail deep link must hide the passing checks, and a screenshot is left for humans. Scripted
 * actions (a test script appended to a copy of the page clicks the real buttons, --dump-dom returns
 * the DOM afterwards): the verdict filters of report.html and the sort buttons of the batch index. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fmuc_test_util.h"
#include "report.h"

extern char **environ;

#define CHROMIUM "/usr/bin/chromium"
#define BROWSER_TIMEOUT_S 90

static const char *find_chromium(void)
{
    static const char *const cands[] = {CHROMIUM, "/usr/bin/chromium-browser"};
    for (size_t i = 0; i < sizeof cands / sizeof cands[0]; i++)
        if (access(cands[i], X_OK) == 0)
            return cands[i];
    return NULL;
}

static cJSON *num_array(size_t n, double scale, double off)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(off + scale * (double)i + 0.3 * (double)(i % 5)));
    return a;
}

static void make_report(fmuc_report *r)
{
    memset(r, 0, sizeof *r);
    r->schema_version = 1;
    r->tool_version = strdup("0.1.0");
    r->date_utc = strdup("2026-01-02T03:04:05Z");
    r->fmu.file_name = strdup("<script>alert(1)</script>\xff.fmu");
    r->fmu.sha256 = strdup("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    r->fmu.guid = strdup("{guid}");
    r->fmu.fmi_version = strdup("2.0");
    r->fmu.model_name = strdup("Model \"</title><script>alert(2)</script>");
    r->fmu.cs_model_identifier = strdup("model");
    r->fmu.cs_caps = cJSON_CreateObject();
    cJSON_AddBoolToObject(r->fmu.cs_caps, "canHandleVariableCommunicationStepSize", 1);
    r->nresults = 6;
    r->results = calloc(r->nresults, sizeof *r->results);
    fmuc_result *res = r->results;
    fmuc_result_init(&res[0], "zip-file-extension", "File name", "§2.3", FMUC_LEVEL_MUST);
    fmuc_result_init(&res[1], "md-units", "Units", "§2.2.2", FMUC_LEVEL_SHOULD);
    fmuc_result_violation(&res[1], "unit '<img src=x onerror=alert(3)>' undefined");
    fmuc_result_init(&res[2], "md-guid", "GUID", "§2.2.1", FMUC_LEVEL_MUST);
    fmuc_result_violation(&res[2], "bad \xc3( guid '</article><script>alert(4)</script>'");
    cJSON_AddStringToObject(fmuc_result_evidence(&res[2]), "guid", "\"><svg onload=alert(5)>");
    fmuc_result_init(&res[3], "api-instantiate", "Instantiate", "§2.1.5", FMUC_LEVEL_MUST);
    fmuc_result_error(&res[3], "terminated by SIGSEGV");
    fmuc_result_init(&res[4], "me-events", "Events", "§3.2.2", FMUC_LEVEL_MUST);
    fmuc_result_na(&res[4], "no Model Exchange interface");
    fmuc_result_init(&res[5], "sim-nominal-run", "Nominal run", "§4.2", FMUC_LEVEL_SHOULD);
    cJSON *plot = cJSON_CreateObject();
    cJSON_AddStringToObject(plot, "title", "outputs <b>");
    cJSON_AddItemToObject(plot, "x", num_array(50, 1, 0));
    cJSON *series = cJSON_AddArrayToObject(plot, "series");
    cJSON *s = cJSON_CreateObject();
    cJSON_AddStringToObject(s, "name", "y");
    cJSON_AddItemToObject(s, "y", num_array(50, 0.5, 1));
    cJSON_AddItemToArray(series, s);
    cJSON *band = cJSON_AddObjectToObject(plot, "band");
    cJSON_AddItemToObject(band, "lo", num_array(50, 0.5, 0.8));
    cJSON_AddItemToObject(band, "hi", num_array(50, 0.5, 1.2));
    cJSON_AddItemToArray(cJSON_AddArrayToObject(fmuc_result_evidence(&res[5]), "plots"), plot);
    r->fmu_log = cJSON_CreateArray();
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "status", "fmi2Error");
    cJSON_AddStringToObject(e, "message", "<script>alert(6)</script>");
    cJSON_AddItemToArray(r->fmu_log, e);
    fmuc_report_tally(r);
}

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(p) == 0 || errno == ENOENT ? 0 : -1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Run argv with stdout/stderr into files, in its own process group, HOME pointed at home.
 * Returns the exit status, or -1 on timeout / abnormal end. */
static int run_for(char *const argv[], const char *out, const char *err, const char *home,
                   double timeout_s)
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    cr_assert_eq(posix_spawn_file_actions_init(&fa), 0);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    cr_assert_eq(posix_spawnattr_init(&at), 0);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&at, 0);

    size_t n = 0;
    while (environ[n])
        n++;
    char **envp = calloc(n + 2, sizeof *envp);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "HOME=", 5) != 0)
            envp[k++] = environ[i];
    char homevar[512];
    snprintf(homevar, sizeof homevar, "HOME=%s", home);
    envp[k++] = homevar;
    envp[k] = NULL;

    pid_t pid;
    int e = posix_spawn(&pid, argv[0], &fa, &at, argv, envp);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    free(envp);
    cr_assert_eq(e, 0, "cannot spawn %s: %s", argv[0], strerror(e));

    int st = 0, done = 0;
    double deadline = now_s() + timeout_s;
    while (!done) {
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid) {
            done = 1;
            break;
        }
        if (now_s() > deadline)
            break;
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    kill(-pid, SIGKILL); /* the browser's own helper processes, if any are left */
    if (!done) {
        waitpid(pid, &st, 0);
        cr_log_error("%s timed out after %.0f s", argv[0], timeout_s);
        return -1;
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int run(char *const argv[], const char *out, const char *err, const char *home)
{
    return run_for(argv, out, err, home, BROWSER_TIMEOUT_S);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    char tmp[8192];
    size_t k;
    while ((k = fread(tmp, 1, sizeof tmp, f)) > 0)
        fwrite(tmp, 1, k, m);
    fclose(f);
    fclose(m);
    return buf;
}

/* Whether the start tag around position p (inside it) contains word before its '>'. */
static int tag_has(const char *p, const char *word)
{
    const char *end = strchr(p, '>');
    return end && memmem(p, (size_t)(end - p), word, strlen(word)) != NULL;
}

/* Console lines of the page (chromium logs every console message and uncaught exception as
 * "...:CONSOLE:<line>] "<text>", source: file:///...") */
static int page_console_lines(const char *log, const char *url_prefix, char *first, size_t firstlen)
{
    int n = 0;
    for (const char *p = log; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        char *line = strndup(p, l);
        if ((strstr(line, ":CONSOLE") && strstr(line, url_prefix)) || strstr(line, "Uncaught")) {
            if (n == 0)
                snprintf(first, firstlen, "%s", line);
            n++;
        }
        free(line);
        p = e ? e + 1 : NULL;
    }
    return n;
}

Test(report_browser, renders_in_headless_chromium, .timeout = 300)
{
    const char *chromium = find_chromium();
    if (!chromium)
        cr_skip_test("chromium is not installed");

    char art[1024];
    snprintf(art, sizeof art, "%s/test-artifacts", FMUC_BUILD_DIR);
    mkdir(art, 0755);
    snprintf(art, sizeof art, "%s/test-artifacts/report_browser", FMUC_BUILD_DIR);
    mkdir(art, 0755);
    char tmp[] = "/tmp/fmuc_browser_XXXXXX";
    cr_assert_not_null(mkdtemp(tmp));

    fmuc_report r;
    make_report(&r);
    char html[1100], png[1100], dom[1100], log[1100], profile[1100], url[1200];
    snprintf(html, sizeof html, "%s/report.html", art);
    snprintf(png, sizeof png, "%s/report.png", art);
    snprintf(dom, sizeof dom, "%s/dom.html", tmp);
    snprintf(log, sizeof log, "%s/chromium.log", tmp);
    snprintf(profile, sizeof profile, "--user-data-dir=%s/profile", tmp);
    cr_assert_eq(fmuc_report_write_atomic(html, fmuc_report_html_write, &r), FMUC_OK);
    fmuc_report_free(&r);

    char scr[1200];
    snprintf(scr, sizeof scr, "--screenshot=%s", png);
    const char *url_prefix = "file://";
    int passes[2] = {0, 1}; /* 0: dump the DOM (#filter=fail); 1: screenshot */
    for (int pass = 0; pass < 2; pass++) {
        snprintf(url, sizeof url, "file://%s%s", html, passes[pass] == 0 ? "#filter=fail" : "");
        char *argv[] = {(char *)chromium, "--headless", "--no-sandbox", "--disable-gpu",
                        "--disable-quic", "--no-first-run", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", profile,
                        "--enable-logging=stderr", "--v=0",
                        passes[pass] == 0 ? "--dump-dom" : scr,
                        "--window-size=1280,2000", url, NULL};
        int rc = run(argv, dom, log, tmp);
        char *errlog = slurp(log);
        cr_assert_eq(rc, 0, "chromium exited with %d:\n%s", rc, errlog);
        char first[1024] = "";
        int bad = page_console_lines(errlog, url_prefix, first, sizeof first);
        cr_assert_eq(bad, 0, "%d console/uncaught lines from the page, first: %s", bad, first);
        free(errlog);
        if (passes[pass] == 0) {
            char *d = slurp(dom);
            cr_assert_not_null(strstr(d, "data-js=\"ready\""), "the page's script did not finish");
            cr_assert_null(strstr(d, "<script>alert"), "hostile text became markup");
            /* #filter=fail: the passing zip-file-extension card is hidden, the failing md-guid not */
            const char *pass_card = strstr(d, "id=\"check-zip-file-extension\"");
            const char *fail_card = strstr(d, "id=\"check-md-guid\"");
            cr_assert_not_null(pass_card);
            cr_assert_not_null(fail_card);
            cr_assert(tag_has(pass_card, "hidden"), "passing check not hidden by #filter=fail");
            cr_assert(!tag_has(fail_card, "hidden"), "failing check hidden by #filter=fail");
            const char *bar = strstr(d, "id=\"filters\"");
            cr_assert_not_null(bar);
            cr_assert(!tag_has(bar, "hidden"), "filter bar still hidden after the script ran");
            free(d);
        }
    }
    struct stat st;
    cr_assert_eq(stat(png, &st), 0, "no screenshot");
    cr_assert_gt(st.st_size, 1000);
    char *p = slurp(png);
    cr_assert_eq(memcmp(p, "\x89PNG", 4), 0);
    free(p);
    cr_log_info("HTML report: %s", html);
    cr_log_info("screenshot: %s", png);
    nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* A real failing FMU (reference_fmus/broken/api-free-instance-null) checked by the fmucheck binary:
 * in the browser, the first card is the most serious problem of its report.json (errors, then
 * fails, then warnings; registry order within a verdict), the header's first highlight names it,
 * the page logs nothing to the console, and a screenshot is kept. */
Test(report_browser, failing_fmu_problem_first, .timeout = 600)
{
    const char *chromium = find_chromium();
    if (!chromium)
        cr_skip_test("chromium is not installed");
    char fmu[1024];
    snprintf(fmu, sizeof fmu, "%s/broken/api-free-instance-null.fmu", FMUC_FMU_DIR);
    cr_assert_eq(access(fmu, R_OK), 0, "FMU not built: %s", fmu);
    char art[1024];
    snprintf(art, sizeof art, "%s/test-artifacts", FMUC_BUILD_DIR);
    mkdir(art, 0755);
    snprintf(art, sizeof art, "%s/test-artifacts/report_browser", FMUC_BUILD_DIR);
    mkdir(art, 0755);
    snprintf(art, sizeof art, "%s/test-artifacts/report_browser/failing", FMUC_BUILD_DIR);
    fmuc_test_rm_rf(art);
    char tmp[] = "/tmp/fmuc_browser_XXXXXX";
    cr_assert_not_null(mkdtemp(tmp));
    char out[1100], err[1100], dom[1100], log[1100], profile[1100], url[1300], scr[1300];
    snprintf(out, sizeof out, "%s/fmucheck.out", tmp);
    snprintf(err, sizeof err, "%s/fmucheck.err", tmp);
    char *fargv[] = {FMUC_EXE, "-q", "--timeout-multiplier", (char *)fmuc_test_timeout_multiplier(),
                     "-o", art, fmu, NULL};
    int rc = run_for(fargv, out, err, tmp, 500);
    cr_assert_geq(rc, 0, "fmucheck did not finish");

    char path[1200];
    snprintf(path, sizeof path, "%s/report.json", art);
    cJSON *rep = fmuc_test_read_json(path);
    cr_assert_not_null(rep, "no report.json (exit %d)", rc);
    const char *want = NULL;
    static const char *const order[3] = {"error", "fail", "warn"};
    for (int k = 0; k < 3 && !want; k++) {
        const cJSON *c;
        cJSON_ArrayForEach(c, cJSON_GetObjectItem(rep, "checks"))
        {
            if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(c, "verdict")), order[k]) == 0) {
                want = cJSON_GetStringValue(cJSON_GetObjectItem(c, "id"));
                break;
            }
        }
    }
    cr_assert_not_null(want, "the broken FMU has no problem");
    const char *h0 = cJSON_GetStringValue(cJSON_GetArrayItem(cJSON_GetObjectItem(rep, "highlights"), 0));
    cr_assert(h0 && strncmp(h0, want, strlen(want)) == 0 && h0[strlen(want)] == ':',
              "first highlight %s, most serious problem %s", h0 ? h0 : "(none)", want);

    snprintf(dom, sizeof dom, "%s/dom.html", tmp);
    snprintf(log, sizeof log, "%s/chromium.log", tmp);
    snprintf(profile, sizeof profile, "--user-data-dir=%s/profile", tmp);
    snprintf(path, sizeof path, "%s/report.html", art);
    snprintf(url, sizeof url, "file://%s", path);
    snprintf(scr, sizeof scr, "--screenshot=%s/report.png", art);
    for (int pass = 0; pass < 2; pass++) {
        char *argv[] = {(char *)chromium, "--headless", "--no-sandbox", "--disable-gpu",
                        "--disable-quic", "--no-first-run", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", profile,
                        "--enable-logging=stderr", "--v=0", pass == 0 ? "--dump-dom" : scr,
                        "--window-size=1280,1400", url, NULL};
        rc = run(argv, dom, log, tmp);
        char *errlog = slurp(log);
        cr_assert_eq(rc, 0, "chromium exited with %d:\n%s", rc, errlog);
        char first[1024] = "";
        int bad = page_console_lines(errlog, "file://", first, sizeof first);
        cr_assert_eq(bad, 0, "%d console/uncaught lines from the page, first: %s", bad, first);
        free(errlog);
        if (pass == 0) {
            char *d = slurp(dom);
            cr_assert_not_null(strstr(d, "data-js=\"ready\""), "the page's script did not finish");
            const char *card = strstr(d, "<article ");
            cr_assert_not_null(card, "no problem card");
            char idattr[300];
            snprintf(idattr, sizeof idattr, "id=\"check-%s\"", want);
            cr_assert(tag_has(card, idattr), "first card is not %s: %.200s", want, card);
            cr_assert(!tag_has(card, "hidden"), "first card hidden");
            /* with its why, fix and the command that re-runs it, inside that card */
            const char *card_end = strstr(card, "</article>");
            cr_assert_not_null(card_end);
            static const char *const parts[] = {"class=\"why\"", "class=\"fix\"",
                                                "class=\"rerun\""};
            for (size_t k = 0; k < 3; k++) {
                const char *q = strstr(card, parts[k]);
                cr_assert(q && q < card_end, "first card has no %s", parts[k]);
            }
            char rerun[300];
            snprintf(rerun, sizeof rerun, "fmucheck --only %s -v ", want);
            const char *q = strstr(card, rerun);
            cr_assert(q && q < card_end, "first card's re-run command is not for %s", want);
            /* the verdict at a glance comes before it, the FMU's metadata after */
            const char *glance = strstr(d, "id=\"glance\""), *ident = strstr(d, "id=\"identity\"");
            cr_assert(glance && glance < card && ident && ident > card);
            free(d);
        }
    }
    snprintf(path, sizeof path, "%s/report.png", art);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0, "no screenshot");
    cr_assert_gt(st.st_size, 1000);
    cr_log_info("failing FMU's report: %s/report.html, screenshot %s", art, path);
    cJSON_Delete(rep);
    nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- scripted actions: a copy of the page with a test script appended after the page's own; the
 * script clicks like a user would (element.click() on the real buttons), records what is then
 * rendered into <pre id="fmuc-test"> as JSON, and --dump-dom returns the DOM after it ran. ---- */

/* Write page + script to a sibling file, load it headless, return the dumped DOM (caller frees);
 * asserts a clean exit and no console message or uncaught exception from the page. */
static char *dom_after_script(const char *chromium, const char *page, const char *script,
                              const char *tmp)
{
    char copy[1200], dom[1100], log[1100], profile[1100], url[1300];
    snprintf(copy, sizeof copy, "%s/scripted.html", tmp);
    snprintf(dom, sizeof dom, "%s/dom.html", tmp);
    snprintf(log, sizeof log, "%s/chromium.log", tmp);
    snprintf(profile, sizeof profile, "--user-data-dir=%s/profile", tmp);
    char *html = slurp(page);
    char *end = strstr(html, "</body>");
    cr_assert_not_null(end, "no </body> in %s", page);
    FILE *f = fopen(copy, "w");
    cr_assert_not_null(f);
    fwrite(html, 1, (size_t)(end - html), f);
    fprintf(f, "<script>\n%s\n</script>\n%s", script, end);
    cr_assert_eq(fclose(f), 0);
    free(html);
    snprintf(url, sizeof url, "file://%s", copy);
    char *argv[] = {(char *)chromium, "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-quic", "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", profile,
                    "--enable-logging=stderr", "--v=0", "--dump-dom", "--window-size=1280,1400",
                    url, NULL};
    int rc = run(argv, dom, log, tmp);
    char *errlog = slurp(log);
    cr_assert_eq(rc, 0, "chromium exited with %d:\n%s", rc, errlog);
    char first[1024] = "";
    int bad = page_console_lines(errlog, "file://", first, sizeof first);
    cr_assert_eq(bad, 0, "%d console/uncaught lines from the page, first: %s", bad, first);
    free(errlog);
    char *d = slurp(dom);
    cr_assert_not_null(strstr(d, "data-js=\"ready\""), "the page's script did not finish");
    return d;
}

/* The JSON the test script left in <pre id="fmuc-test"> (ids and names hold no & < >). */
static cJSON *recorded(const char *dom)
{
    const char *p = strstr(dom, "<pre id=\"fmuc-test\">");
    cr_assert_not_null(p, "the test script did not run");
    p += strlen("<pre id=\"fmuc-test\">");
    const char *e = strstr(p, "</pre>");
    cr_assert_not_null(e);
    cJSON *j = cJSON_ParseWithLength(p, (size_t)(e - p));
    cr_assert_not_null(j, "not JSON: %.*s", (int)(e - p), p);
    return j;
}

/* The verdict filter buttons of report.html, clicked one after another: each shows exactly the
 * checks of its verdict class (rendered, not only flagged), marks itself pressed, and says how
 * many are shown. */
Test(report_browser, report_filters_work_when_clicked, .timeout = 300)
{
    const char *chromium = find_chromium();
    if (!chromium)
        cr_skip_test("chromium is not installed");
    char tmp[] = "/tmp/fmuc_browser_XXXXXX";
    cr_assert_not_null(mkdtemp(tmp));
    fmuc_report r;
    make_report(&r);
    /* the verdict class of every check, from the report itself */
    enum { N = 6 };
    cr_assert_eq(r.nresults, N);
    char ids[N][64], cls[N][16];
    static const char *const vc[5] = {"na", "pass", "warn", "fail", "error"};
    for (size_t i = 0; i < N; i++) {
        snprintf(ids[i], sizeof ids[i], "%s", r.results[i].id);
        snprintf(cls[i], sizeof cls[i], "%s", vc[r.results[i].verdict]);
    }
    char html[1100];
    snprintf(html, sizeof html, "%s/report.html", tmp);
    cr_assert_eq(fmuc_report_write_atomic(html, fmuc_report_html_write, &r), FMUC_OK);
    fmuc_report_free(&r);

    static const char script[] =
        "(function(){\n"
        "  function shown() {\n"
        "    var o = [], c = document.querySelectorAll('.check[data-verdict]');\n"
        "    for (var i = 0; i < c.length; i++)\n"
        "      if (c[i].getClientRects().length > 0) o.push(c[i].id.replace(/^check-/, ''));\n"
        "    return o;\n"
        "  }\n"
        "  function click(f) { document.querySelector('#filters button[data-filter=\"' + f + "
        "'\"]').click(); }\n"
        "  var out = {}, fs = ['fail', 'pass', 'na', 'error', 'warn', 'all', 'problems'];\n"
        "  for (var i = 0; i < fs.length; i++) {\n"
        "    click(fs[i]);\n"
        "    out[fs[i]] = {shown: shown(), pressed: document.querySelector('#filters "
        "button[aria-pressed=\"true\"]').getAttribute('data-filter'), count: "
        "document.getElementById('shown').textContent};\n"
        "  }\n"
        "  var pre = document.createElement('pre'); pre.id = 'fmuc-test';\n"
        "  pre.textContent = JSON.stringify(out); document.body.appendChild(pre);\n"
        "})();";
    char *d = dom_after_script(chromium, html, script, tmp);
    cJSON *out = recorded(d);
    static const char *const filters[] = {"fail", "pass", "na", "error", "warn", "all", "problems"};
    for (size_t k = 0; k < sizeof filters / sizeof *filters; k++) {
        const char *f = filters[k];
        cJSON *o = cJSON_GetObjectItem(out, f);
        cr_assert_not_null(o, "no record for %s", f);
        cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(o, "pressed")), f);
        cJSON *shown = cJSON_GetObjectItem(o, "shown");
        int want_n = 0;
        for (size_t i = 0; i < N; i++) {
            int want = strcmp(f, "all") == 0 || strcmp(f, cls[i]) == 0 ||
                       (strcmp(f, "problems") == 0 &&
                        (!strcmp(cls[i], "fail") || !strcmp(cls[i], "error") ||
                         !strcmp(cls[i], "warn")));
            int got = 0;
            const cJSON *s;
            cJSON_ArrayForEach(s, shown) got |= strcmp(cJSON_GetStringValue(s), ids[i]) == 0;
            cr_expect_eq(got, want, "filter %s: check %s (%s) %s", f, ids[i], cls[i],
                         want ? "not shown" : "shown");
            want_n += want;
        }
        cr_expect_eq(cJSON_GetArraySize(shown), want_n, "filter %s", f);
        char count[64];
        snprintf(count, sizeof count, "%d of %d checks shown", want_n, N);
        cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(o, "count")), count);
    }
    /* the final DOM: filter "problems" pressed, passing checks hidden */
    const char *pass_row = strstr(d, "id=\"check-zip-file-extension\"");
    cr_assert_not_null(pass_row);
    cr_expect(tag_has(pass_row, "hidden"));
    cJSON_Delete(out);
    free(d);
    nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static cJSON *batch_entry(int pos, const char *name, const char *overall, const char *md)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddNumberToObject(e, "position", pos);
    cJSON_AddStringToObject(e, "path", name);
    cJSON_AddStringToObject(e, "fileName", name);
    cJSON_AddStringToObject(e, "status", "complete");
    cJSON_AddStringToObject(e, "verdict", overall);
    cJSON_AddNumberToObject(e, "exitCode", 0);
    cJSON *a = cJSON_AddObjectToObject(e, "areas");
    cJSON_AddStringToObject(a, "zip", "pass");
    cJSON_AddStringToObject(a, "md", md);
    cJSON *h = cJSON_AddArrayToObject(e, "highlights");
    if (strcmp(md, "pass") != 0)
        cJSON_AddItemToArray(h, cJSON_CreateString("md-x: <script>alert(1)</script>"));
    char l[64];
    snprintf(l, sizeof l, "%s/report.html", name);
    cJSON_AddStringToObject(e, "html", l);
    cJSON *b = cJSON_AddObjectToObject(e, "baseline");
    cJSON_AddItemToObject(b, "new", cJSON_CreateArray());
    cJSON_AddItemToObject(b, "fixed", cJSON_CreateArray());
    cJSON_AddItemToObject(b, "unchanged", cJSON_CreateArray());
    return e;
}

/* The batch index page: the header buttons sort the matrix (a verdict column worst first, again
 * reversed; the FMU column by name), aria-sort follows, and the page logs nothing. */
Test(report_browser, batch_matrix_sorts, .timeout = 300)
{
    const char *chromium = find_chromium();
    if (!chromium)
        cr_skip_test("chromium is not installed");
    char art[1024];
    snprintf(art, sizeof art, "%s/test-artifacts", FMUC_BUILD_DIR);
    mkdir(art, 0755);
    snprintf(art, sizeof art, "%s/test-artifacts/report_browser", FMUC_BUILD_DIR);
    mkdir(art, 0755);
    char tmp[] = "/tmp/fmuc_browser_XXXXXX";
    cr_assert_not_null(mkdtemp(tmp));
    cJSON *idx = cJSON_CreateObject();
    cJSON_AddStringToObject(idx, "schema", "fmucheck-index");
    cJSON_AddStringToObject(idx, "dateUtc", "2026-01-02T03:04:05Z");
    cJSON *fmus = cJSON_AddArrayToObject(idx, "fmus");
    cJSON_AddItemToArray(fmus, batch_entry(0, "d", "pass", "pass"));
    cJSON_AddItemToArray(fmus, batch_entry(1, "c", "error", "error"));
    cJSON_AddItemToArray(fmus, batch_entry(2, "b", "warn", "warn"));
    cJSON_AddItemToArray(fmus, batch_entry(3, "a", "fail", "fail"));
    cJSON *s = cJSON_AddObjectToObject(idx, "summary");
    cJSON_AddNumberToObject(s, "fmus", 4);
    char html[1100];
    snprintf(html, sizeof html, "%s/index.html", art);
    FILE *f = fopen(html, "w");
    cr_assert_not_null(f);
    cr_assert_eq(fmuc_report_batch_html_write(f, idx), FMUC_OK);
    cr_assert_eq(fclose(f), 0);
    cJSON_Delete(idx);

    static const char script[] =
        "(function(){\n"
        "  var t = document.getElementById('matrix');\n"
        "  function order() {\n"
        "    var o = [], rows = t.tBodies[0].rows;\n"
        "    for (var i = 0; i < rows.length; i++) o.push(rows[i].cells[1].textContent.trim());\n"
        "    return o.join(' ');\n"
        "  }\n"
        "  function head(label) {\n"
        "    var h = t.tHead.rows[0].cells;\n"
        "    for (var i = 0; i < h.length; i++) if (h[i].textContent.trim() === label) return h[i];\n"
        "  }\n"
        "  var out = {};\n"
        "  head('md').querySelector('button').click();\n"
        "  out.md1 = order(); out.md1sort = head('md').getAttribute('aria-sort');\n"
        "  head('md').querySelector('button').click();\n"
        "  out.md2 = order(); out.md2sort = head('md').getAttribute('aria-sort');\n"
        "  head('FMU').querySelector('button').click();\n"
        "  out.name = order(); out.namesort = head('FMU').getAttribute('aria-sort');\n"
        "  out.mdafter = head('md').getAttribute('aria-sort');\n"
        "  head('#').querySelector('button').click();\n"
        "  out.pos = order();\n"
        "  var pre = document.createElement('pre'); pre.id = 'fmuc-test';\n"
        "  pre.textContent = JSON.stringify(out); document.body.appendChild(pre);\n"
        "})();";
    char *d = dom_after_script(chromium, html, script, tmp);
    cr_assert_null(strstr(d, "<script>alert"), "hostile highlight became markup");
    cJSON *out = recorded(d);
    const char *expect[][2] = {{"md1", "c a b d"},         {"md1sort", "descending"},
                               {"md2", "d b a c"},         {"md2sort", "ascending"},
                               {"name", "a b c d"},        {"namesort", "ascending"},
                               {"mdafter", "none"},        {"pos", "d c b a"}};
    for (size_t k = 0; k < sizeof expect / sizeof *expect; k++) {
        const char *got = cJSON_GetStringValue(cJSON_GetObjectItem(out, expect[k][0]));
        cr_expect(got && strcmp(got, expect[k][1]) == 0, "%s: '%s', expected '%s'",
                  expect[k][0], got ? got : "(none)", expect[k][1]);
    }
    cJSON_Delete(out);
    free(d);
    cr_log_info("batch index page: %s", html);
    nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}
