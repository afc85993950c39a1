/* The batch reporters (reports/report_batch_html.c, report_batch_junit.c): the index page as a
 * matrix FMUs x check areas with verdict words, sort buttons, highlights, report links and the
 * baseline comparison, read back from the generated file with libxml2's HTML parser; the combined
 * JUnit; and the index data a real batch with --baseline writes. */
#include <criterion/criterion.h>
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmuc_test_util.h"
#include "report.h"

FMUC_TEST_LSAN_IGNORE_CRITERION()

static cJSON *check(const char *id, const char *verdict)
{
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "id", id);
    cJSON_AddStringToObject(c, "verdict", verdict);
    return c;
}

static cJSON *ids(const char *const *v, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", v[i]);
        cJSON_AddStringToObject(o, "verdict", "fail");
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

/* A report.json as the CLI writes it, reduced to what the index reads. */
static cJSON *report_json(int broken, int with_baseline)
{
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "schema", "fmucheck-report");
    cJSON *cs = cJSON_AddArrayToObject(r, "checks");
    cJSON_AddItemToArray(cs, check("zip-file-extension", "pass"));
    cJSON_AddItemToArray(cs, check("md-units", broken ? "warn" : "pass"));
    cJSON_AddItemToArray(cs, check("md-guid-present", broken ? "fail" : "pass"));
    cJSON_AddItemToArray(cs, check("md-naming-arrays", "not-applicable"));
    cJSON_AddItemToArray(cs, check("api-instantiate", broken ? "error" : "pass"));
    cJSON_AddItemToArray(cs, check("me-events", "not-applicable"));
    cJSON_AddItemToArray(cs, check("cs-nominal-run", "pass"));
    cJSON *hl = cJSON_AddArrayToObject(r, "highlights");
    if (broken) {
        cJSON_AddItemToArray(hl, cJSON_CreateString("api-instantiate: terminated by SIGSEGV"));
        cJSON_AddItemToArray(hl, cJSON_CreateString("md-guid-present: <b>no guid</b>"));
    }
    if (with_baseline) {
        cJSON *b = cJSON_AddObjectToObject(r, "baseline");
        cJSON_AddStringToObject(b, "path", "old/x/report.json");
        static const char *const nw[] = {"api-instantiate"}, *const fx[] = {"md-units", "zip-x"},
                                 *const same[] = {"md-guid-present"};
        cJSON_AddItemToObject(b, "newFailures", ids(nw, 1));
        cJSON_AddItemToObject(b, "fixed", ids(fx, 2));
        cJSON_AddItemToObject(b, "unchangedFailures", ids(same, 1));
        cJSON_AddItemToObject(b, "notRun", cJSON_CreateArray());
    }
    return r;
}

static cJSON *entry(int pos, const char *name, const char *verdict, int code, cJSON *rep)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddNumberToObject(e, "position", pos);
    cJSON_AddStringToObject(e, "path", name);
    cJSON_AddStringToObject(e, "fileName", name);
    cJSON_AddStringToObject(e, "status", rep ? "complete" : "rejected");
    if (verdict)
        cJSON_AddStringToObject(e, "verdict", verdict);
    else
        cJSON_AddNullToObject(e, "verdict");
    cJSON_AddNumberToObject(e, "exitCode", code);
    if (rep) {
        fmuc_report_batch_entry(e, rep);
        char l[256];
        snprintf(l, sizeof l, "%d/report.html", pos);
        cJSON_AddStringToObject(e, "html", l);
        cJSON_Delete(rep);
    } else {
        cJSON_AddNullToObject(e, "html");
        cJSON_AddStringToObject(e, "message", "not a zip archive <x>");
    }
    return e;
}

/* Three FMUs: a passing one, a broken one compared with a baseline, a rejected input. */
static cJSON *make_index(void)
{
    cJSON *idx = cJSON_CreateObject();
    cJSON_AddStringToObject(idx, "schema", "fmucheck-index");
    cJSON_AddStringToObject(idx, "dateUtc", "2026-01-02T03:04:05Z");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(idx, "tool"), "version", "0.1.0");
    cJSON_AddBoolToObject(idx, "incomplete", 0);
    cJSON *f = cJSON_AddArrayToObject(idx, "fmus");
    cJSON_AddItemToArray(f, entry(0, "good.fmu", "pass", 0, report_json(0, 0)));
    cJSON_AddItemToArray(f, entry(1, "<script>alert(1)</script>.fmu", "error", 2,
                                  report_json(1, 1)));
    cJSON_AddItemToArray(f, entry(2, "notes.fmu", NULL, 3, NULL));
    cJSON *s = cJSON_AddObjectToObject(idx, "summary");
    cJSON_AddNumberToObject(s, "fmus", 3);
    cJSON_AddNumberToObject(s, "pass", 1);
    cJSON_AddNumberToObject(s, "error", 1);
    cJSON_AddNumberToObject(s, "rejected", 1);
    cJSON_AddNumberToObject(s, "exitCode", 3);
    return idx;
}

static int xpath_count(xmlDocPtr doc, const char *expr)
{
    xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
    xmlXPathObjectPtr o = xmlXPathEvalExpression((const xmlChar *)expr, ctx);
    cr_assert_not_null(o, "xpath %s", expr);
    int n = o->nodesetval ? o->nodesetval->nodeNr : 0;
    xmlXPathFreeObject(o);
    xmlXPathFreeContext(ctx);
    return n;
}

static char *xpath_string(xmlDocPtr doc, const char *expr)
{
    xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
    xmlXPathObjectPtr o = xmlXPathEvalExpression((const xmlChar *)expr, ctx);
    cr_assert_not_null(o, "xpath %s", expr);
    char *s = (char *)xmlXPathCastToString(o);
    xmlXPathFreeObject(o);
    xmlXPathFreeContext(ctx);
    return s;
}

static void expect_xpath_str(xmlDocPtr doc, const char *expr, const char *want)
{
    char *s = xpath_string(doc, expr);
    cr_expect(strstr(s, want), "%s: '%s' does not contain '%s'", expr, s, want);
    xmlFree(s);
}

Test(report_batch, entry_keeps_areas_highlights_and_baseline)
{
    cJSON *e = cJSON_CreateObject();
    cJSON *rep = report_json(1, 1);
    fmuc_report_batch_entry(e, rep);
    cJSON_Delete(rep);
    cJSON *a = cJSON_GetObjectItem(e, "areas");
    cr_assert(cJSON_IsObject(a));
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(a, "zip")), "pass");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(a, "md")), "fail",
                     "the worst of pass, warn, fail, n/a");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(a, "api")), "error");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(a, "me")), "not-applicable");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(a, "cs")), "pass");
    cr_expect_null(cJSON_GetObjectItem(a, "load"), "an area without checks is left out");
    cr_expect_null(cJSON_GetObjectItem(a, "eq"));
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(e, "highlights")), 2);
    cJSON *b = cJSON_GetObjectItem(e, "baseline");
    cr_assert(cJSON_IsObject(b));
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetArrayItem(cJSON_GetObjectItem(b, "new"), 0)),
                     "api-instantiate");
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(b, "fixed")), 2);
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(b, "unchanged")), 1);
    cJSON_Delete(e);
}

Test(report_batch, html_matrix_from_the_generated_file)
{
    cJSON *idx = make_index();
    char *dir = fmuc_test_mkdtemp("batch-html");
    char path[4200];
    snprintf(path, sizeof path, "%s/index.html", dir);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    cr_assert_eq(fmuc_report_batch_html_write(f, idx), FMUC_OK);
    cr_assert_eq(fclose(f), 0);
    cJSON_Delete(idx);

    char *text = fmuc_test_read_file(path, NULL);
    cr_assert(text);
    cr_expect_null(strstr(text, "<script>alert"), "hostile file name became markup");
    cr_expect_null(strstr(text, "src="), "no external resource");
    cr_expect_null(strstr(text, "http"), "no external resource");
    cr_expect_null(strstr(text, "<b>no guid"), "highlights are escaped");
    free(text);

    htmlDocPtr doc = htmlReadFile(path, "UTF-8", HTML_PARSE_NONET | HTML_PARSE_NOERROR |
                                                     HTML_PARSE_NOWARNING);
    cr_assert(doc);
    /* columns: #, FMU, overall, the seven areas, new/fixed/unchanged; each header a button */
    cr_expect_eq(xpath_count(doc, "//table[@id='matrix']/thead/tr/th"), 14);
    cr_expect_eq(xpath_count(doc, "//table[@id='matrix']/thead/tr/th[@aria-sort]/button"
                                  "[@type='button']"),
                 13);
    static const char *const areas[] = {"zip", "md", "load", "api", "cs", "me", "eq"};
    for (int a = 0; a < 7; a++) {
        char q[200];
        snprintf(q, sizeof q, "string(//table[@id='matrix']/thead/tr/th[%d])", 4 + a);
        expect_xpath_str(doc, q, areas[a]);
    }
    cr_expect_eq(xpath_count(doc, "//table[@id='matrix']/tbody/tr"), 3);
    /* row 2 (the broken FMU): overall ERROR, md FAIL (worst of warn and fail), api ERROR, load not
     * run; every verdict is a word too, not only a colour */
    const char *row = "//table[@id='matrix']/tbody/tr[2]";
    char q[300];
    snprintf(q, sizeof q, "%s/td[3][contains(@class,'v-error')]", row);
    cr_expect_eq(xpath_count(doc, q), 1);
    snprintf(q, sizeof q, "string(%s/td[3])", row);
    expect_xpath_str(doc, q, "ERROR");
    snprintf(q, sizeof q, "%s/td[5][contains(@class,'v-fail')]", row);
    cr_expect_eq(xpath_count(doc, q), 1, "md is the worst of its checks");
    snprintf(q, sizeof q, "string(%s/td[5])", row);
    expect_xpath_str(doc, q, "FAIL");
    snprintf(q, sizeof q, "string(%s/td[7])", row);
    expect_xpath_str(doc, q, "ERROR");
    snprintf(q, sizeof q, "%s/td[6][contains(@class,'v-none')]", row);
    cr_expect_eq(xpath_count(doc, q), 1, "load: not run");
    cr_expect_eq(xpath_count(doc, "//td[contains(@class,'v-') and normalize-space(.)='']"), 0,
                 "a verdict cell without text");
    /* baseline: new, fixed, unchanged with their ids */
    snprintf(q, sizeof q, "string(%s/td[11])", row);
    expect_xpath_str(doc, q, "api-instantiate");
    snprintf(q, sizeof q, "string(%s/td[12])", row);
    expect_xpath_str(doc, q, "md-units");
    snprintf(q, sizeof q, "%s/td[12][@data-sort='2']", row);
    cr_expect_eq(xpath_count(doc, q), 1);
    snprintf(q, sizeof q, "string(%s/td[13])", row);
    expect_xpath_str(doc, q, "md-guid-present");
    cr_expect_eq(xpath_count(doc, "//p[@id='baseline']"), 1);
    /* highlights, links */
    snprintf(q, sizeof q, "count(%s/td[14]//li)", row);
    cr_expect_eq(xpath_count(doc, "//table[@id='matrix']/tbody/tr[2]/td[14]//li"), 2);
    expect_xpath_str(doc, "string(//table[@id='matrix']/tbody/tr[2]/td[14])", "terminated by SIGSEGV");
    cr_expect_eq(xpath_count(doc, "//table[@id='matrix']/tbody/tr[1]/td[2]/a[@href='0/report.html']"), 1);
    expect_xpath_str(doc, "string(//table[@id='matrix']/tbody/tr[2]/td[2]/a)", "<script>");
    /* the rejected input: status and why, no verdicts */
    expect_xpath_str(doc, "string(//table[@id='matrix']/tbody/tr[3]/td[2])", "rejected");
    expect_xpath_str(doc, "string(//table[@id='matrix']/tbody/tr[3]/td[14])", "not a zip archive");
    cr_expect_eq(xpath_count(doc, "//table[@id='matrix']/tbody/tr[3]/td[contains(@class,'v-none')]"),
                 8);
    cr_expect_eq(xpath_count(doc, "//script[@src]|//link|//img|//iframe"), 0);
    cr_expect_eq(xpath_count(doc, "//script"), 1);
    xmlFreeDoc(doc);
    fmuc_test_rm_rf(dir);
    free(dir);
}

Test(report_batch, html_without_baseline_has_no_baseline_columns)
{
    cJSON *idx = make_index();
    cJSON *fmus = cJSON_GetObjectItem(idx, "fmus");
    cJSON_DeleteItemFromObject(cJSON_GetArrayItem(fmus, 1), "baseline");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_eq(fmuc_report_batch_html_write(f, idx), FMUC_OK);
    fclose(f);
    htmlDocPtr doc = htmlReadMemory(buf, (int)len, "index.html", "UTF-8",
                                    HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
    cr_assert(doc);
    cr_expect_eq(xpath_count(doc, "//table[@id='matrix']/thead/tr/th"), 11);
    cr_expect_eq(xpath_count(doc, "//p[@id='baseline']"), 0);
    xmlFreeDoc(doc);
    free(buf);
    cJSON_Delete(idx);
}

Test(report_batch, junit_combines_suites_and_explains_the_missing)
{
    cJSON *idx = make_index();
    const char *suites[3] = {
        "<?xml version=\"1.0\"?>\n<testsuites name=\"fmucheck\" tests=\"2\" failures=\"1\" "
        "errors=\"0\" skipped=\"1\">\n  <testsuite name=\"good.fmu\" tests=\"2\"><testcase "
        "name=\"a\"/><testcase name=\"b\"><skipped/></testcase></testsuite>\n</testsuites>\n",
        "<testsuites tests=\"3\" failures=\"0\" errors=\"2\" skipped=\"0\">\n  <testsuite "
        "name=\"x\"><testcase name=\"c\"/></testsuite>\n</testsuites>\n",
        NULL};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_eq(fmuc_report_batch_junit_write(f, idx, suites), FMUC_OK);
    fclose(f);
    xmlDocPtr doc = xmlReadMemory(buf, (int)len, "junit.xml", NULL, XML_PARSE_NONET | XML_PARSE_NOERROR);
    cr_assert(doc, "not well-formed:\n%s", buf);
    cr_expect_eq(xpath_count(doc, "/testsuites[@tests='6' and @failures='1' and @errors='3' and "
                                  "@skipped='1']"),
                 1, "%s", buf);
    cr_expect_eq(xpath_count(doc, "/testsuites/testsuite"), 3);
    cr_expect_eq(xpath_count(doc, "/testsuites/testsuite[@name='notes.fmu']/testcase/error"
                                  "[contains(@message,'not a zip archive')]"),
                 1);
    xmlFreeDoc(doc);
    free(buf);
    cJSON_Delete(idx);
}

/* A real batch with --baseline: the index data carries areas, highlights and the comparison, and
 * the page shows the new and the fixed failure. */
Test(report_batch, cli_batch_with_baseline, .timeout = 120)
{
    char *dir = fmuc_test_mkdtemp("batch-base");
    char a[4200], b[4200], old[4200], nw[4200], p[4300];
    snprintf(a, sizeof a, "%s/a.fmu", dir);
    snprintf(b, sizeof b, "%s/b.fmu", dir);
    snprintf(old, sizeof old, "%s/old", dir);
    snprintf(nw, sizeof nw, "%s/new", dir);
    size_t len;
    char *good = fmuc_test_read_file(FMUC_FMU_DIR "/good/SpringMassDamper.fmu", &len);
    cr_assert(good);
    size_t blen;
    char *bad = fmuc_test_read_file(FMUC_FMU_DIR "/broken/md-guid-present.fmu", &blen);
    cr_assert(bad);
    /* then: a good, b broken; now: a broken, b good */
    cr_assert(fmuc_test_write_file(a, good, len) == 0);
    cr_assert(fmuc_test_write_file(b, bad, blen) == 0);
    fmuc_test_run r;
    char *a1[] = {FMUC_EXE, "-q", "-o", old, "--only", "zip-*,md-*", a, b, NULL};
    cr_assert(fmuc_test_exec(&r, a1, NULL) == 0);
    cr_expect_eq(r.status, 1, "%s", r.err);
    fmuc_test_run_free(&r);
    cr_assert(fmuc_test_write_file(a, bad, blen) == 0);
    cr_assert(fmuc_test_write_file(b, good, len) == 0);
    char *a2[] = {FMUC_EXE, "-q", "-o", nw, "--baseline", old, "--only", "zip-*,md-*", a, b, NULL};
    cr_assert(fmuc_test_exec(&r, a2, NULL) == 0);
    fmuc_test_run_free(&r);
    free(good);
    free(bad);
    snprintf(p, sizeof p, "%s/index.json", nw);
    cJSON *idx = fmuc_test_read_json(p);
    cr_assert(idx);
    cJSON *ea = cJSON_GetArrayItem(cJSON_GetObjectItem(idx, "fmus"), 0);
    cJSON *eb = cJSON_GetArrayItem(cJSON_GetObjectItem(idx, "fmus"), 1);
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(ea, "areas"),
                                                              "md")),
                     "fail");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(ea, "areas"),
                                                              "zip")),
                     "pass");
    cr_expect_gt(cJSON_GetArraySize(cJSON_GetObjectItem(ea, "highlights")), 0);
    cJSON *ba = cJSON_GetObjectItem(ea, "baseline"), *bb = cJSON_GetObjectItem(eb, "baseline");
    cr_assert(ba && bb);
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetArrayItem(cJSON_GetObjectItem(ba, "new"), 0)),
                     "md-guid-present");
    cr_expect_str_eq(
        cJSON_GetStringValue(cJSON_GetArrayItem(cJSON_GetObjectItem(bb, "fixed"), 0)),
        "md-guid-present");
    cJSON_Delete(idx);
    snprintf(p, sizeof p, "%s/index.html", nw);
    htmlDocPtr doc = htmlReadFile(p, "UTF-8", HTML_PARSE_NONET | HTML_PARSE_NOERROR |
                                                  HTML_PARSE_NOWARNING);
    cr_assert(doc);
    expect_xpath_str(doc, "string(//table[@id='matrix']/tbody/tr[1]/td[11])", "md-guid-present");
    expect_xpath_str(doc, "string(//table[@id='matrix']/tbody/tr[2]/td[12])", "md-guid-present");
    cr_expect_eq(xpath_count(doc, "//table[@id='matrix']/tbody/tr[1]/td[2]/a[@href='a/report.html']"),
                 1);
    xmlFreeDoc(doc);
    fmuc_test_rm_rf(dir);
    free(dir);
}
