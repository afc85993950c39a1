/* Reporters: HTML (parsed back with libxml2's HTML parser), JUnit (parsed as XML), text, plots and
 * atomic writing, all from an fmuc_report built in memory with hostile FMU-supplied text. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"
#include "report_json.h"

#define HOSTILE "<script>alert(1)</script> \"q\" & 'a' \xff\xfe bad \xc3( \x1b[31mred\x01"

static char *xstrdup(const char *s)
{
    char *d = strdup(s);
    cr_assert_not_null(d);
    return d;
}

static cJSON *num_array(const double *v, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}

/* A plot in the evidence convention of reports/README.md with n points (and a band when asked). */
static cJSON *make_plot(const char *title, size_t n, int band, int logy)
{
    double *x = malloc(n * sizeof *x), *y1 = malloc(n * sizeof *y1), *y2 = malloc(n * sizeof *y2);
    double *lo = malloc(n * sizeof *lo), *hi = malloc(n * sizeof *hi);
    for (size_t i = 0; i < n; i++) {
        x[i] = (double)i * 0.01;
        y1[i] = 2.0 + sin(x[i] * 3.0);
        y2[i] = 2.0 + cos(x[i] * 3.0);
        lo[i] = y1[i] - 0.1;
        hi[i] = y1[i] + 0.1;
    }
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "title", title);
    cJSON_AddStringToObject(p, "xlabel", "time [s]");
    cJSON_AddStringToObject(p, "ylabel", "y \\ \" ' `id` @x $y");
    cJSON_AddBoolToObject(p, "logy", logy);
    cJSON_AddItemToObject(p, "x", num_array(x, n));
    cJSON *series = cJSON_AddArrayToObject(p, "series");
    cJSON *s1 = cJSON_CreateObject();
    cJSON_AddStringToObject(s1, "name", "native\n plot sin(x) w l");
    cJSON_AddItemToObject(s1, "y", num_array(y1, n));
    cJSON_AddItemToArray(series, s1);
    cJSON *s2 = cJSON_CreateObject();
    cJSON_AddStringToObject(s2, "name", HOSTILE);
    cJSON_AddItemToObject(s2, "y", num_array(y2, n));
    cJSON_AddItemToArray(series, s2);
    if (band) {
        cJSON *b = cJSON_AddObjectToObject(p, "band");
        cJSON_AddItemToObject(b, "lo", num_array(lo, n));
        cJSON_AddItemToObject(b, "hi", num_array(hi, n));
    }
    free(x);
    free(y1);
    free(y2);
    free(lo);
    free(hi);
    return p;
}

#define NRESULTS 8

static const char *const ids[NRESULTS] = {"zip-file-extension", "md-guid-present", "md-units",
                                          "md-hostile-text", "api-instantiate", "me-events",
                                          "cs-do-step", "sim-nominal-run"};

/* Identity plus results of every verdict, hostile text everywhere, a plot and a broken plot. */
static void make_report(fmuc_report *r)
{
    memset(r, 0, sizeof *r);
    r->schema_version = 1;
    r->tool_version = xstrdup("0.1.0");
    r->libzip_version = xstrdup("1.9.2");
    r->libxml2_version = xstrdup("2.9.14");
    r->host_platform = xstrdup("x86_64-linux");
    r->date_utc = xstrdup("2026-01-02T03:04:05Z");
    r->options_json = xstrdup("{\"rtol\": 1e-6, \"x\": \"</pre><script>alert(1)</script>\"}");
    r->duration_s = 1.25;
    fmuc_report_identity *id = &r->fmu;
    id->path = xstrdup("/tmp/" HOSTILE ".fmu");
    id->file_name = xstrdup(HOSTILE ".fmu");
    id->sha256 = xstrdup("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    id->file_size = 12345;
    id->fmi_version = xstrdup("2.0");
    id->model_name = xstrdup(HOSTILE);
    id->guid = xstrdup("{8c4e810f-3df3-4a00-8276-176fa3c9f000}\"<x>");
    id->description = xstrdup("A & B");
    id->generation_tool = xstrdup("fmi_export <1.0>");
    id->generation_date_and_time = xstrdup("2026-01-01T00:00:00Z");
    id->me_model_identifier = xstrdup("model<me>");
    id->cs_model_identifier = xstrdup("model_cs");
    id->me_caps = cJSON_CreateObject();
    cJSON_AddBoolToObject(id->me_caps, "completedIntegratorStepNotNeeded", 1);
    cJSON_AddBoolToObject(id->me_caps, "canGetAndSetFMUstate", 0);
    id->cs_caps = cJSON_CreateObject();
    cJSON_AddBoolToObject(id->cs_caps, "canHandleVariableCommunicationStepSize", 1);
    cJSON_AddNumberToObject(id->cs_caps, "maxOutputDerivativeOrder", 0);
    id->nvars = 10;
    id->nvars_by_causality[0] = 3;
    id->nvars_by_causality[3] = 2;
    id->nvars_by_causality[4] = 5;
    id->nstates = 2;
    id->platform = xstrdup("linux64");

    r->nresults = NRESULTS;
    r->results = calloc(NRESULTS, sizeof *r->results);
    cr_assert_not_null(r->results);
    fmuc_result *res = r->results;
    fmuc_result_init(&res[0], ids[0], "The file name ends in .fmu", "§2.3", FMUC_LEVEL_MUST);
    fmuc_result_init(&res[1], ids[1], "guid is present", "§2.2.1", FMUC_LEVEL_MUST);
    fmuc_result_note(&res[1], "guid %s", "ok");
    fmuc_result_init(&res[2], ids[2], "Units", "§2.2.2", FMUC_LEVEL_SHOULD);
    fmuc_result_violation(&res[2], "unit '%s' of variable 'x' (vr 3) not defined", HOSTILE);
    fmuc_result_violation(&res[2], "second warning");
    fmuc_result_init(&res[3], ids[3], "Hostile <b>title</b>", "§2.2 <i>", FMUC_LEVEL_MUST);
    fmuc_result_violation(&res[3], "variable '%s' (vr 1) is bad", HOSTILE);
    cJSON *ev = fmuc_result_evidence(&res[3]);
    cJSON_AddStringToObject(ev, "name", HOSTILE);
    cJSON_AddNumberToObject(ev, "valueReference", 1);
    cJSON *nested = cJSON_AddObjectToObject(ev, "nested");
    cJSON_AddItemToObject(nested, "list", num_array((double[]){1, 2.5, NAN}, 3));
    cJSON *objs = cJSON_AddArrayToObject(nested, "objects");
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, HOSTILE, "key is hostile");
    cJSON_AddItemToArray(objs, o);
    cJSON_AddNullToObject(ev, "nothing");
    cJSON_AddNumberToObject(ev, "duration_s", 1.14e-6);
    cJSON_AddNumberToObject(ev, "live_bytes", 3 * 1048576.0);
    fmuc_result_init(&res[4], ids[4], "fmi2Instantiate succeeds", "§2.1.5", FMUC_LEVEL_MUST);
    fmuc_result_error(&res[4], "terminated by SIGSEGV after fmi2Instantiate: %s", HOSTILE);
    res[4].why = "an importer that instantiates the FMU crashes with it";
    res[4].fix = "check the callbacks before using them";
    fmuc_result_init(&res[5], ids[5], "Event iteration", "§3.2.2", FMUC_LEVEL_MUST);
    fmuc_result_na(&res[5], "no Model Exchange interface");
    fmuc_result_init(&res[6], ids[6], "fmi2DoStep", "§4.2.2", FMUC_LEVEL_MUST);
    fmuc_result_fail(&res[6], "fmi2DoStep returned fmi2Error at t=0.1");
    cJSON *plots = cJSON_AddArrayToObject(fmuc_result_evidence(&res[6]), "plots");
    cJSON *broken = cJSON_CreateObject(); /* no series: becomes a note, not a failed report */
    cJSON_AddStringToObject(broken, "title", "broken plot");
    cJSON_AddItemToObject(broken, "x", num_array((double[]){1, 2}, 2));
    cJSON_AddItemToArray(plots, broken);
    fmuc_result_init(&res[7], ids[7], "Nominal run", "§4.2", FMUC_LEVEL_SHOULD);
    fmuc_result_note(&res[7], "simulated 0..2 s");
    cJSON *ev7 = fmuc_result_evidence(&res[7]);
    cJSON_AddStringToObject(ev7, "solver", "cvode");
    plots = cJSON_AddArrayToObject(ev7, "plots");
    cJSON_AddItemToArray(plots, make_plot("outputs: " HOSTILE "'; system('touch /tmp/fmuc_pwned') #", 300, 1, 0));
    cJSON_AddItemToArray(plots, make_plot("log plot `touch /tmp/fmuc_pwned`", 50, 0, 1));
    res[7].waiver = xstrdup("waived <because>");
    for (int i = 0; i < NRESULTS; i++)
        res[i].duration_s = 0.001 * i;

    r->fmu_log = cJSON_CreateArray();
    for (int i = 0; i < 3; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "check", ids[6]);
        cJSON_AddStringToObject(e, "instance", "inst");
        cJSON_AddStringToObject(e, "status", "fmi2Warning");
        cJSON_AddStringToObject(e, "category", "logAll");
        cJSON_AddStringToObject(e, "message", HOSTILE);
        cJSON_AddItemToArray(r->fmu_log, e);
    }
    fmuc_report_tally(r);
}

static char *render(fmuc_report_writer w, const fmuc_report *r, size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    cr_assert_not_null(f);
    cr_assert_eq(w(f, r), FMUC_OK);
    cr_assert_eq(fclose(f), 0);
    if (len)
        *len = n;
    return buf;
}

static int valid_utf8(const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t adv;
        if (fmuc_report__utf8_decode((const unsigned char *)s + i, n - i, &adv) < 0)
            return 0;
        i += adv;
    }
    return 1;
}

static size_t count_sub(const char *s, const char *sub)
{
    size_t n = 0;
    for (const char *p = strstr(s, sub); p; p = strstr(p + 1, sub))
        n++;
    return n;
}

static int xpath_count(xmlDocPtr doc, const char *expr)
{
    xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
    cr_assert_not_null(ctx);
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

Test(reports, html_structure_and_escaping)
{
    fmuc_report r;
    make_report(&r);
    unlink("/tmp/fmuc_pwned");
    size_t len;
    char *html = render(fmuc_report_html_write, &r, &len);
    cr_assert(valid_utf8(html, len), "HTML is not valid UTF-8");
    cr_assert_null(strstr(html, "<script>alert"), "unescaped hostile script");
    cr_assert_eq(count_sub(html, "<script"), 1, "only the report's own script");
    cr_assert_not_null(strstr(html, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    cr_assert_not_null(strstr(html, "&quot;q&quot; &amp; &#39;a&#39;"));
    cr_assert_null(strstr(html, "\x1b"), "control characters pass through");
    /* self-contained: nothing to fetch (the SVG xmlns URIs are names, not loads) */
    cr_assert_null(strstr(html, "src=\""), "no external resources");
    cr_assert_null(strstr(html, "href=\"http"), "no external resources");
    cr_assert_null(strstr(html, "<link"), "no external resources");
    cr_assert_null(strstr(html, "@import"), "no external resources");

    htmlDocPtr doc = htmlReadMemory(html, (int)len, "report.html", "UTF-8",
                                    HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
    cr_assert_not_null(doc);
    cr_assert_eq(xpath_count(doc, "//*[contains(@class,'check') and @data-verdict]"), NRESULTS);
    for (int i = 0; i < NRESULTS; i++) {
        char q[160];
        snprintf(q, sizeof q, "//*[@id='check-%s']//code[.='%s']", ids[i], ids[i]);
        cr_assert_eq(xpath_count(doc, q), 1, "check %s", ids[i]);
    }
    /* problems are cards, most serious first; passes and not-applicable checks are table rows */
    cr_assert_eq(xpath_count(doc, "//section[@id='problems']/article[@data-verdict]"), 4);
    cr_assert_eq(xpath_count(doc, "//section[@id='passed']//tr[@data-verdict]"), 4);
    cr_assert_eq(xpath_count(doc, "//article[@data-verdict='fail']"), 2);
    cr_assert_eq(xpath_count(doc, "//article[@data-verdict='error']"), 1);
    cr_assert_eq(xpath_count(doc, "//article[@data-verdict='warn']"), 1);
    cr_assert_eq(xpath_count(doc, "//tr[@data-verdict='na']"), 1);
    cr_assert_eq(xpath_count(doc, "//tr[@data-verdict='pass']"), 3);
    static const char *const card_order[4] = {"api-instantiate", "md-hostile-text", "cs-do-step",
                                              "md-units"};
    for (int i = 0; i < 4; i++) {
        char q[160];
        snprintf(q, sizeof q, "string(//section[@id='problems']/article[%d]/@id)", i + 1);
        char *cid = xpath_string(doc, q);
        cr_assert(strcmp(cid, "check-") > 0 && strcmp(cid + 6, card_order[i]) == 0,
                  "card %d is %s, expected %s", i + 1, cid, card_order[i]);
        xmlFree(cid);
    }
    /* the problems come before the passes, the FMU's metadata and the log */
    cr_assert_lt(strstr(html, "id=\"problems\"") - html, strstr(html, "id=\"passed\"") - html);
    cr_assert_lt(strstr(html, "id=\"passed\"") - html, strstr(html, "id=\"identity\"") - html);
    /* text labels, not colour alone: every card's heading names its verdict */
    cr_assert_eq(xpath_count(doc, "//article[@data-verdict='error']/h3/a[@href='#check-api-instantiate']/span[.='ERROR']"), 1);
    cr_assert_eq(xpath_count(doc, "//article[@data-verdict='warn']/h3//span[.='WARN']"), 1);
    /* why/fix only where the registry gave them; a re-run command on every card */
    cr_assert_eq(xpath_count(doc, "//article[@id='check-api-instantiate']/p[@class='why']"), 1);
    cr_assert_eq(xpath_count(doc, "//article[@id='check-api-instantiate']/p[@class='fix']"), 1);
    cr_assert_eq(xpath_count(doc, "//article[@id='check-md-units']/p[@class='why']"), 0);
    cr_assert_eq(xpath_count(doc, "//article/p[@class='rerun']/code"), 4);
    char *cmd = xpath_string(doc, "string(//article[@id='check-md-units']/p[@class='rerun']/code)");
    cr_assert(strncmp(cmd, "fmucheck --only md-units -v '/tmp/", 34) == 0, "%s", cmd);
    xmlFree(cmd);
    /* not applicable: with its reason, in the compact table */
    char *na = xpath_string(doc, "string(//tr[@id='check-me-events'])");
    cr_assert_not_null(strstr(na, "no Model Exchange interface"), "%s", na);
    xmlFree(na);
    /* at a glance in the header: verdict, profile, counts, the three most serious findings */
    cr_assert_eq(xpath_count(doc, "//header//ol[@class='highlights']/li"), 3);
    char *hl = xpath_string(doc, "string(//header//ol[@class='highlights']/li[1])");
    cr_assert_not_null(strstr(hl, "api-instantiate: terminated by SIGSEGV"), "%s", hl);
    xmlFree(hl);
    char *glance = xpath_string(doc, "string(//header//p[@class='verdict'])");
    cr_assert_not_null(strstr(glance, "1 error, 2 fail, 1 warn, 3 pass, 1 not applicable"), "%s",
                       glance);
    xmlFree(glance);
    /* readable numbers */
    cr_assert_eq(count_sub(html, "e-0"), count_sub(html, "title=\"1.14e-06\""),
                 "a duration in exponent notation");
    cr_assert_not_null(strstr(html, "took 1 ms"));
    cr_assert_not_null(strstr(html, "12 KiB (12345 bytes)"));
    cr_assert_not_null(strstr(html, "title=\"1.14e-06\">1.1 \xC2\xB5s</span>"), "evidence duration");
    cr_assert_not_null(strstr(html, ">3 MiB</span>"), "evidence size");
    /* one <svg> per drawable plot, the broken one is a note */
    cr_assert_eq(xpath_count(doc, "//svg"), 2);
    cr_assert_eq(xpath_count(doc, "//*[@id='check-sim-nominal-run']//svg"), 2);
    cr_assert_eq(xpath_count(doc, "//article[@id='check-cs-do-step']//*[contains(@class,'plotnote')]"), 1);
    cr_assert_eq(xpath_count(doc, "//script"), 1);
    /* filters exist and are hidden for no-JS readers */
    cr_assert_eq(xpath_count(doc, "//div[@id='filters' and @hidden]//button"), 7);
    /* evidence rendered as nested tables, hostile key/value as text */
    cr_assert_geq(xpath_count(doc, "//article[@id='check-md-hostile-text']//table[contains(@class,'ev')]//table"), 1);
    char *name = xpath_string(doc, "string(//article[@id='check-md-hostile-text']//table[contains(@class,'ev')]/tr[1]/td)");
    cr_assert_not_null(strstr(name, "<script>alert(1)</script>"), "evidence text: %s", name);
    xmlFree(name);
    /* FMU log table: header + 3 rows with 5 columns + index */
    cr_assert_eq(xpath_count(doc, "//section[@id='fmu-log']//tbody/tr"), 3);
    cr_assert_eq(xpath_count(doc, "//section[@id='fmu-log']//thead/tr/th"), 6);
    /* identity */
    char *sha = xpath_string(doc, "string(//section[@id='identity'])");
    cr_assert_not_null(strstr(sha, r.fmu.sha256));
    cr_assert_not_null(strstr(sha, "canHandleVariableCommunicationStepSize"));
    xmlFree(sha);
    xmlFreeDoc(doc);
    cr_assert_neq(access("/tmp/fmuc_pwned", F_OK), 0, "gnuplot ran injected commands");
    free(html);
    fmuc_report_free(&r);
}

Test(reports, svg_ids_prefixed_and_text_sanitised)
{
    cJSON *p = make_plot("a'b\"c\\d`e`@f$g{h}\n plot 'x'", 20, 1, 0);
    char *svg = NULL, why[256];
    cr_assert_eq(fmuc_plot__svg(p, "pX-", &svg, why, sizeof why), FMUC_OK, "%s", why);
    cr_assert_eq(strncmp(svg, "<svg", 4), 0, "prolog stripped");
    cr_assert_null(strstr(svg, "<?xml"));
    cr_assert_null(strstr(svg, "<title>Gnuplot</title>"));
    cr_assert_not_null(strstr(svg, "id=\"pX-gnuplot_canvas\""));
    cr_assert_null(strstr(svg, "id='gpPt"), "unprefixed id");
    cr_assert_null(strstr(svg, "href='#gp"), "unprefixed reference");
    cr_assert_null(strstr(svg, "`"));
    cr_assert_null(strstr(svg, "\\"));
    cr_assert_not_null(strstr(svg, "</svg>"));
    free(svg);
    cJSON_Delete(p);
}

Test(reports, plot_downsamples_long_series)
{
    cJSON *p = make_plot("long", 200000, 1, 0);
    char *svg = NULL, why[256];
    cr_assert_eq(fmuc_plot__svg(p, "", &svg, why, sizeof why), FMUC_OK, "%s", why);
    cr_assert_lt(strlen(svg), (size_t)2000000, "not downsampled: %zu bytes", strlen(svg));
    free(svg);
    cJSON_Delete(p);
}

Test(reports, plot_errors_are_reasons)
{
    const char *bad[] = {
        "{\"x\": [1,2,3], \"series\": [{\"name\": \"a\", \"y\": [1,2]}]}",
        "{\"x\": [], \"series\": [{\"y\": []}]}",
        "{\"x\": \"no\", \"series\": []}",
        "{\"x\": [1,2], \"series\": [{\"y\": [1,2]}], \"band\": {\"lo\": [1], \"hi\": [1,2]}}",
        "[1,2]",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cJSON *p = cJSON_Parse(bad[i]);
        cr_assert_not_null(p);
        char *svg = (char *)1, why[256];
        cr_assert_lt(fmuc_plot__svg(p, "", &svg, why, sizeof why), 0, "%s", bad[i]);
        cr_assert_null(svg);
        cr_assert_gt(strlen(why), 0);
        cJSON_Delete(p);
    }
    /* all values undefined on a log axis: gnuplot refuses, still only a reason */
    cJSON *p = cJSON_Parse("{\"logy\": true, \"x\": [1,2], \"series\": [{\"y\": [-1, 0]}]}");
    char *svg = NULL, why[256];
    cr_assert_lt(fmuc_plot__svg(p, "", &svg, why, sizeof why), 0);
    cr_assert_null(svg);
    cJSON_Delete(p);
}

Test(reports, html_minimal_report)
{
    fmuc_report r;
    memset(&r, 0, sizeof r);
    r.rejected = 1;
    r.rejected_reason = xstrdup("not a zip <archive>");
    fmuc_report_tally(&r);
    /* an archive refused as unsafe is no pass, whatever ran before (red-team round 5) */
    cr_assert_eq(r.overall, FMUC_VERDICT_FAIL);
    cr_assert_eq(fmuc_report_overall_under(&r, FMUC_PROFILE_INTEROP), FMUC_VERDICT_FAIL);
    size_t len;
    char *html = render(fmuc_report_html_write, &r, &len);
    cr_assert_not_null(strstr(html, "not a zip &lt;archive&gt;"));
    cr_assert_not_null(strstr(html, "</html>"));
    free(html);
    char *junit = render(fmuc_report_junit_write, &r, &len);
    xmlDocPtr doc = xmlReadMemory(junit, (int)len, "junit.xml", NULL, XML_PARSE_NONET);
    cr_assert_not_null(doc, "JUnit for a rejected input is not well-formed");
    cr_assert_eq(xpath_count(doc, "//testcase/error"), 1);
    xmlFreeDoc(doc);
    free(junit);
    char *text = render(fmuc_report_text_write_plain, &r, NULL);
    cr_assert_not_null(strstr(text, "rejected"));
    free(text);
    fmuc_report_free(&r);
}

Test(reports, junit_shape)
{
    fmuc_report r;
    make_report(&r);
    size_t len;
    char *x = render(fmuc_report_junit_write, &r, &len);
    cr_assert(valid_utf8(x, len));
    cr_assert_null(strchr(x, '\x1b'), "character illegal in XML 1.0");
    cr_assert_null(strchr(x, '\x01'), "character illegal in XML 1.0");
    xmlDocPtr doc = xmlReadMemory(x, (int)len, "junit.xml", NULL, XML_PARSE_NONET);
    cr_assert_not_null(doc, "JUnit is not well-formed XML:\n%s", x);
    cr_assert_eq(xpath_count(doc, "/testsuites"), 1);
    cr_assert_eq(xpath_count(doc, "/testsuites/testsuite"), 1);
    cr_assert_eq(xpath_count(doc, "/testsuites/testsuite/testcase"), NRESULTS);
    char *s = xpath_string(doc, "string(/testsuites/@tests)");
    cr_assert_str_eq(s, "8");
    xmlFree(s);
    s = xpath_string(doc, "string(/testsuites/testsuite/@failures)");
    cr_assert_str_eq(s, "2");
    xmlFree(s);
    s = xpath_string(doc, "string(/testsuites/testsuite/@errors)");
    cr_assert_str_eq(s, "1");
    xmlFree(s);
    s = xpath_string(doc, "string(/testsuites/testsuite/@skipped)");
    cr_assert_str_eq(s, "1");
    xmlFree(s);
    s = xpath_string(doc, "string(/testsuites/testsuite/@name)");
    cr_assert_not_null(strstr(s, "<script>alert(1)</script>"));
    xmlFree(s);
    cr_assert_eq(xpath_count(doc, "//testcase/failure[@type='fail' and @message]"), 2);
    cr_assert_eq(xpath_count(doc, "//testcase/error[@type='error' and @message]"), 1);
    cr_assert_eq(xpath_count(doc, "//testcase[@name='me-events']/skipped[@message]"), 1);
    cr_assert_eq(xpath_count(doc, "//testcase[@name='md-units']/system-out"), 1);
    cr_assert_eq(xpath_count(doc, "//testcase[@name='md-units']/failure"), 0);
    cr_assert_eq(xpath_count(doc, "//testcase[@name='md-units' and @classname='fmucheck.md']"), 1);
    cr_assert_eq(xpath_count(doc, "//testcase[@name='zip-file-extension' and @classname='fmucheck.zip' and @time]"), 1);
    s = xpath_string(doc, "string(//property[@name='sha256']/@value)");
    cr_assert_str_eq(s, r.fmu.sha256);
    xmlFree(s);
    s = xpath_string(doc, "string(//property[@name='guid']/@value)");
    cr_assert_str_eq(s, r.fmu.guid);
    xmlFree(s);
    s = xpath_string(doc, "string(//testcase[@name='md-hostile-text']/failure/@message)");
    cr_assert_not_null(strstr(s, "<script>alert(1)</script> \"q\" & 'a'"), "%s", s);
    xmlFree(s);
    xmlFreeDoc(doc);
    free(x);
    fmuc_report_free(&r);
}

Test(reports, text_summary)
{
    fmuc_report r;
    make_report(&r);
    char *t = render(fmuc_report_text_write_plain, &r, NULL);
    cr_assert_null(strchr(t, '\x1b'), "escape sequence in plain text");
    cr_assert_null(strchr(t, '\x01'));
    cr_assert_not_null(strstr(t, "Overall: ERROR"));
    /* the problems are listed, passes and not-applicable checks only counted */
    for (int i = 0; i < NRESULTS; i++) {
        fmuc_verdict v = r.results[i].verdict;
        int problem = v == FMUC_VERDICT_ERROR || v == FMUC_VERDICT_FAIL || v == FMUC_VERDICT_WARN;
        int found = strstr(t, ids[i]) != NULL;
        cr_assert_eq(found, problem, "check %s listed=%d, problem=%d\n%s", ids[i], found, problem, t);
    }
    cr_assert_not_null(strstr(t, "3 passed, 1 not applicable"), "%s", t);
    /* at a glance: verdict, profile, counts and the three most serious findings, in order */
    cr_assert_not_null(strstr(t, "ERROR under profile "), "%s", t);
    cr_assert_not_null(strstr(t, "1 error, 2 fail, 1 warn, 3 pass, 1 not applicable"), "%s", t);
    const char *h1 = strstr(t, "  1. api-instantiate: terminated by SIGSEGV");
    const char *h2 = strstr(t, "  2. md-hostile-text: ");
    const char *h3 = strstr(t, "  3. cs-do-step: fmi2DoStep returned fmi2Error at t=0.1");
    cr_assert(h1 && h2 && h3 && h1 < h2 && h2 < h3, "%s", t);
    cr_assert_null(strstr(t, "  4. "));
    /* worst first: errors, fails, warnings; each with why/fix when given and a re-run command */
    const char *e = strstr(t, "\nERROR  api-instantiate"), *f1 = strstr(t, "\nFAIL   md-hostile-text");
    const char *f2 = strstr(t, "\nFAIL   cs-do-step"), *w = strstr(t, "\nWARN   md-units");
    cr_assert(e && f1 && f2 && w && e < f1 && f1 < f2 && f2 < w, "%s", t);
    cr_assert_lt(strstr(t, "why: an importer") - t, f1 - t);
    cr_assert_lt(strstr(t, "fix: check the callbacks") - t, f1 - t);
    cr_assert_eq(count_sub(t, "why: "), 1);
    cr_assert_eq(count_sub(t, "re-run: fmucheck --only "), 4);
    cr_assert_not_null(strstr(t, "re-run: fmucheck --only cs-do-step -v '/tmp/"), "%s", t);
    cr_assert_null(strstr(t, "e-0"), "a duration in exponent notation");
    free(t);

    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    cr_assert_eq(fmuc_report_text_write(f, &r, 1), FMUC_OK);
    fclose(f);
    cr_assert_not_null(strstr(buf, "\x1b[31;1mFAIL"));
    cr_assert_null(strstr(buf, "\x1b[31mred"), "FMU text injected an escape sequence");
    free(buf);
    fmuc_report_free(&r);
}

Test(reports, text_summary_passing_fmu_one_line)
{
    fmuc_report r;
    memset(&r, 0, sizeof r);
    r.tool_version = xstrdup("0.1.0");
    r.fmu.file_name = xstrdup("good.fmu");
    r.duration_s = 2.34;
    r.nresults = 3;
    r.results = calloc(3, sizeof *r.results);
    fmuc_result_init(&r.results[0], "zip-file-extension", "ext", "§2.3", FMUC_LEVEL_MUST);
    fmuc_result_init(&r.results[1], "md-guid-present", "guid", "§2.2.1", FMUC_LEVEL_MUST);
    fmuc_result_init(&r.results[2], "me-events", "events", "§3.2.2", FMUC_LEVEL_MUST);
    fmuc_result_na(&r.results[2], "no Model Exchange interface");
    fmuc_report_tally(&r);
    char *t = render(fmuc_report_text_write_plain, &r, NULL);
    cr_assert_not_null(strstr(t, "PASS under profile "), "%s", t);
    cr_assert_not_null(strstr(t, "all 2 applicable checks pass, 1 not applicable (3 checks, 2.3 s)"),
                       "%s", t);
    cr_assert_null(strstr(t, "me-events"), "not-applicable check listed:\n%s", t);
    cr_assert_null(strstr(t, "re-run"), "%s", t);
    free(t);
    char *html = render(fmuc_report_html_write, &r, NULL);
    cr_assert_not_null(strstr(html, "all 2 applicable checks pass"));
    cr_assert_not_null(strstr(html, "class=\"allpass\""));
    cr_assert_null(strstr(html, "<article"), "a card on a passing FMU");
    free(html);
    cJSON *j = fmuc_report_to_json(&r);
    cJSON *hl = cJSON_GetObjectItemCaseSensitive(j, "highlights");
    cr_assert(cJSON_IsArray(hl) && cJSON_GetArraySize(hl) == 0);
    cJSON_Delete(j);
    fmuc_report_free(&r);
}

Test(reports, json_highlights)
{
    fmuc_report r;
    make_report(&r);
    cJSON *j = fmuc_report_to_json(&r);
    cJSON *hl = cJSON_GetObjectItemCaseSensitive(j, "highlights");
    cr_assert(cJSON_IsArray(hl));
    cr_assert_eq(cJSON_GetArraySize(hl), 3);
    static const char *const want[3] = {"api-instantiate: terminated by SIGSEGV after fmi2Instantiate",
                                        "md-hostile-text: variable '<script>",
                                        "cs-do-step: fmi2DoStep returned fmi2Error at t=0.1"};
    for (int i = 0; i < 3; i++) {
        const char *h = cJSON_GetStringValue(cJSON_GetArrayItem(hl, i));
        cr_assert(h && strncmp(h, want[i], strlen(want[i])) == 0, "highlight %d: %s", i, h);
        cr_assert_null(strchr(h, '\n'));
        cr_assert_lt(strlen(h), (size_t)FMUC_HIGHLIGHT_MAX);
    }
    /* a problem carries the registry's why/fix; a pass does not */
    int with_why = 0;
    cJSON *ck;
    cJSON_ArrayForEach(ck, cJSON_GetObjectItem(j, "checks"))
    {
        const char *v = cJSON_GetStringValue(cJSON_GetObjectItem(ck, "verdict"));
        if (cJSON_GetObjectItem(ck, "why")) {
            with_why++;
            cr_assert(v && strcmp(v, "pass") != 0 && strcmp(v, "not-applicable") != 0);
            cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(ck, "why")),
                             "an importer that instantiates the FMU crashes with it");
        }
    }
    cr_assert_eq(with_why, 1);
    /* the existing fields are unchanged */
    cJSON *sum = cJSON_GetObjectItemCaseSensitive(j, "summary");
    cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(sum, "verdict")), "error");
    cr_assert_eq(cJSON_GetObjectItem(sum, "total")->valuedouble, 8);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "checks")), NRESULTS);
    cr_assert_not_null(cJSON_GetObjectItem(j, "fmu"));
    cr_assert_not_null(cJSON_GetObjectItem(j, "fmuLog"));
    cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(j, "status")), "complete");
    cJSON_Delete(j);
    /* a long first message is cut on one line */
    char longmsg[3000];
    memset(longmsg, 'x', sizeof longmsg - 1);
    longmsg[sizeof longmsg - 1] = '\0';
    longmsg[10] = '\n';
    fmuc_result res;
    fmuc_result_init(&res, "md-long", "t", "§1", FMUC_LEVEL_MUST);
    fmuc_result_fail(&res, "%s", longmsg);
    char h[FMUC_HIGHLIGHT_MAX];
    fmuc_report__highlight(&res, h, sizeof h);
    cr_assert_null(strchr(h, '\n'));
    cr_assert_lt(strlen(h), (size_t)(FMUC_HIGHLIGHT_CHARS + 20));
    cr_assert_not_null(strstr(h, "\xE2\x80\xA6"), "cut without an ellipsis");
    fmuc_result_clear(&res);
    fmuc_report_free(&r);
}

Test(reports, readable_durations_and_sizes)
{
    static const struct {
        double s;
        const char *want;
    } d[] = {{0, "0 s"},          {1.14e-6, "1.1 \xC2\xB5s"}, {0.42, "420 ms"},
             {2.3, "2.3 s"},      {5e-10, "0.5 ns"},         {9.99e-7, "999 ns"},
             {9.996e-7, "1 \xC2\xB5s"}, {1e-3, "1 ms"},   {1.5e-3, "1.5 ms"},
             {0.9996, "1 s"},     {9.96, "10 s"},            {59.4, "59 s"},
             {59.6, "1 min"},     {125, "2 min 5 s"},        {3600, "1 h"},
             {3725, "1 h 2 min"}, {-1, "unknown"},           {NAN, "unknown"},
             {INFINITY, "unknown"}, {-INFINITY, "unknown"}};
    char buf[40];
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        cr_expect_str_eq(fmuc_report__duration(buf, sizeof buf, d[i].s), d[i].want, "%g s", d[i].s);
    static const struct {
        uint64_t b;
        const char *want;
    } b[] = {{0, "0 bytes"},       {1023, "1023 bytes"},   {1024, "1 KiB"},
             {1536, "1.5 KiB"},    {12345, "12 KiB"},      {1048575, "1 MiB"},
             {1048576, "1 MiB"},   {5ull << 30, "5 GiB"},  {(uint64_t)3 << 40, "3 TiB"}};
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++)
        cr_expect_str_eq(fmuc_report__bytes(buf, sizeof buf, b[i].b), b[i].want, "%llu bytes",
                         (unsigned long long)b[i].b);
    /* a tiny buffer is cut, never overrun */
    char tiny[4];
    fmuc_report__duration(tiny, sizeof tiny, 0.42);
    cr_assert_eq(strlen(tiny), 3);
}

Test(reports, rerun_command_quotes_for_the_shell)
{
    fmuc_report r;
    memset(&r, 0, sizeof r);
    fmuc_result res;
    fmuc_result_init(&res, "api-guid", "t", "§1", FMUC_LEVEL_MUST);
    char cmd[512];
    char p1[] = "/data/m.fmu", p2[] = "my model's $HOME.fmu", p3[] = "-x.fmu";
    r.fmu.path = p1;
    fmuc_report__rerun_command(&r, &res, cmd, sizeof cmd);
    cr_assert_str_eq(cmd, "fmucheck --only api-guid -v /data/m.fmu");
    r.fmu.path = p2;
    fmuc_report__rerun_command(&r, &res, cmd, sizeof cmd);
    cr_assert_str_eq(cmd, "fmucheck --only api-guid -v 'my model'\\''s $HOME.fmu'");
    r.fmu.path = p3;
    fmuc_report__rerun_command(&r, &res, cmd, sizeof cmd);
    cr_assert_str_eq(cmd, "fmucheck --only api-guid -v ./-x.fmu");
    r.profile = FMUC_PROFILE_STRICT;
    fmuc_report__rerun_command(&r, &res, cmd, sizeof cmd);
    cr_assert_str_eq(cmd, "fmucheck --only api-guid --profile strict -v ./-x.fmu");
    r.profile = FMUC_PROFILE_INTEROP;
    r.fmu.path = NULL;
    fmuc_report__rerun_command(&r, &res, cmd, sizeof cmd);
    cr_assert_str_eq(cmd, "fmucheck --only api-guid -v FILE.fmu");
    fmuc_result_clear(&res);
}

Test(reports, escape_helpers)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    fmuc_report__xml_escape(f, "a\xc3\xa9\xed\xa0\x80\xef\xbf\xbe<\x02", 0, FMUC_ESC_XML_STRIP);
    fputc('|', f);
    fmuc_report__xml_escape(f, "\xc3\xa9\xc3\xa9\xc3\xa9", 3, FMUC_ESC_HTML); /* cut inside 2nd é */
    fclose(f);
    /* é kept, surrogate -> U+FFFD x3 (one per invalid byte), U+FFFE dropped, < escaped, \x02 dropped */
    cr_assert_str_eq(buf, "a\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd&lt;|\xc3\xa9\xe2\x80\xa6");
    free(buf);
    char nb[40];
    cr_assert_str_eq(fmuc_report__num(nb, sizeof nb, 0.5, 6), "0.5");
    cr_assert_str_eq(fmuc_report__num(nb, sizeof nb, NAN, 6), "NaN");
    cr_assert_str_eq(fmuc_report__num(nb, sizeof nb, -INFINITY, 6), "-inf");
}

static fmuc_err failing_writer(FILE *out, const fmuc_report *r)
{
    (void)r;
    fputs("{\"partial\": ", out);
    fflush(out);
    return FMUC_EIO;
}

static size_t dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

Test(reports, atomic_write_failure_leaves_nothing)
{
    char dir[] = "/tmp/fmuc_atomic_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/report.json", dir);
    fmuc_report r;
    make_report(&r);
    cr_assert_eq(fmuc_report_write_atomic(path, failing_writer, &r), FMUC_EIO);
    cr_assert_eq(dir_entries(dir), 0, "temp file or report left behind");

    /* success: exactly the report, content equal to the in-memory rendering, mode 0644 */
    cr_assert_eq(fmuc_report_write_atomic(path, fmuc_report_junit_write, &r), FMUC_OK);
    cr_assert_eq(dir_entries(dir), 1);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(st.st_mode & 0777, 0644);
    size_t len;
    char *want = render(fmuc_report_junit_write, &r, &len);
    cr_assert_eq((size_t)st.st_size, len);
    /* a failing rewrite keeps the previous complete report */
    cr_assert_eq(fmuc_report_write_atomic(path, failing_writer, &r), FMUC_EIO);
    cr_assert_eq(dir_entries(dir), 1);
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq((size_t)st.st_size, len);
    free(want);

    char missing[300];
    snprintf(missing, sizeof missing, "%s/no/such/dir/r.json", dir);
    cr_assert_lt(fmuc_report_write_atomic(missing, fmuc_report_junit_write, &r), 0);
    cr_assert_lt(fmuc_report_write_atomic(dir, fmuc_report_junit_write, &r), 0,
                 "a directory path is not a report file"); /* rename over a dir fails */
    cr_assert_eq(dir_entries(dir), 1);
    unlink(path);
    rmdir(dir);
    fmuc_report_free(&r);
}

Test(reports, reporter_table)
{
    const char *names[] = {"json", "html", "junit", "text"};
    for (size_t i = 0; i < 4; i++) {
        const fmuc_reporter *p = fmuc_reporter_find(names[i]);
        cr_assert_not_null(p, "%s", names[i]);
        cr_assert_not_null(p->write);
        cr_assert_str_eq(p->name, names[i]);
    }
    cr_assert_null(fmuc_reporter_find("pdf"));
    cr_assert_null(fmuc_reporter_find(NULL));
    fmuc_report r;
    make_report(&r);
    for (const fmuc_reporter *p = fmuc_reporters; p->name; p++) {
        char *out = render(p->write, &r, NULL);
        cr_assert_gt(strlen(out), 0, "%s", p->name);
        free(out);
    }
    fmuc_report_free(&r);
}

Test(reports, evidence_numbers_exact_compact_and_readable)
{
    double v[6] = {0.1, 1.0 / 3.0, NAN, -1e-300, INFINITY, 42.0}, *w = NULL;
    cJSON *all = fmuc_evidence_numbers(v, 6, 1, 1);
    cr_assert(cJSON_IsRaw(all));
    /* the printed report is plain JSON: parse it back and compare bit for bit */
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddItemToObject(doc, "y", all);
    char *text = cJSON_PrintUnformatted(doc);
    cJSON *back = cJSON_Parse(text);
    cr_assert_eq(fmuc_evidence_numbers_read(cJSON_GetObjectItem(back, "y"), 100, &w), 6);
    for (int i = 0; i < 6; i++) {
        if (isfinite(v[i]))
            cr_expect_eq(w[i], v[i], "value %d changed", i);
        else
            cr_expect(isnan(w[i]), "non-finite value %d must read as NaN (null)", i);
    }
    free(w);
    /* raw node read directly; stride and step pick every other column/row */
    double m[8] = {0, 10, 1, 11, 2, 12, 3, 13};
    cJSON *col = fmuc_evidence_numbers(m + 1, 4, 2, 2);
    cr_assert_eq(fmuc_evidence_numbers_read(col, 100, &w), 2);
    cr_expect(w[0] == 10 && w[1] == 12);
    free(w);
    cr_expect_eq(fmuc_evidence_numbers_read(col, 1, &w), -1, "over the limit");
    cJSON *str = cJSON_CreateString("[1,2]");
    cr_expect_eq(fmuc_evidence_numbers_read(str, 100, &w), -1, "a string is not numbers");
    cJSON_Delete(str);
    cJSON_Delete(col);
    cJSON_Delete(back);
    cJSON_Delete(doc);
    free(text);
}

/* Profiles: report.json carries every profile's verdict per check and overall; the text summary
 * names the selected profile and the other two verdicts. */
Test(reports, verdicts_per_profile)
{
    fmuc_report r;
    memset(&r, 0, sizeof r);
    r.nresults = 2;
    r.results = calloc(2, sizeof *r.results);
    cr_assert(r.results);
    fmuc_result_init(&r.results[0], "md-a", "A", "§2.2", FMUC_LEVEL_MUST);
    fmuc_result_violation_letter(&r.results[0], "letter only");
    fmuc_result_profiles(&r.results[0], 0, "why not", FMUC_PROFILE_INTEROP);
    fmuc_result_init(&r.results[1], "md-b", "B", "§2.2", FMUC_LEVEL_SHOULD);
    fmuc_result_violation(&r.results[1], "a should-level finding");
    fmuc_result_profiles(&r.results[1], 0, NULL, FMUC_PROFILE_INTEROP);
    r.profile = FMUC_PROFILE_INTEROP;
    fmuc_report_tally(&r);
    cr_expect_eq(r.overall, FMUC_VERDICT_WARN);
    cr_expect_eq(fmuc_report_overall_under(&r, FMUC_PROFILE_STANDARD), FMUC_VERDICT_FAIL);
    cr_expect_eq(fmuc_report_overall_under(&r, FMUC_PROFILE_STRICT), FMUC_VERDICT_FAIL);
    cJSON *j = fmuc_report_to_json(&r);
    cJSON *c0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "checks"), 0);
    cJSON *vs = cJSON_GetObjectItem(c0, "verdicts");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(c0, "verdict")), "warn");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(vs, "interop")), "warn");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(vs, "standard")), "fail");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(vs, "strict")), "fail");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(c0, "interopReason")), "why not");
    cJSON *c1 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "checks"), 1);
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(
                         cJSON_GetObjectItem(c1, "verdicts"), "strict")),
                     "fail");
    cJSON *sum = cJSON_GetObjectItem(j, "summary");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(sum, "profile")), "interop");
    cr_expect_str_eq(cJSON_GetStringValue(
                         cJSON_GetObjectItem(cJSON_GetObjectItem(sum, "verdicts"), "standard")),
                     "fail");
    cJSON_Delete(j);
    size_t len = 0;
    char *t = render(fmuc_report_text_write_plain, &r, &len);
    cr_expect(strstr(t, "profile interop; standard fail, strict fail"), "%s", t);
    free(t);
    fmuc_report_free(&r);
}
