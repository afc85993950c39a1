/* Plot axes carry units from the model description (issue 21): the reporter composes
 * "label [unit]" from a plot's xunit/yunit; the nominal run's plots of a real FMU name the time
 * axis "s" and each output's unit: its displayUnit when declared (values converted, §2.2.2), else
 * its unit, from its declaredType when the variable has none. */
#include <criterion/criterion.h>
#include <libxml/HTMLparser.h>
#include <libxml/xpath.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

#include "fmuc_test_util.h"
#include "report.h"

FMUC_TEST_LSAN_IGNORE_CRITERION()

static char *replace(char *s, const char *from, const char *to)
{
    char *p = strstr(s, from);
    cr_assert_not_null(p, "'%s' not in the model description", from);
    char *out = NULL;
    cr_assert(asprintf(&out, "%.*s%s%s", (int)(p - s), s, to, p + strlen(from)) >= 0);
    free(s);
    return out;
}

/* SpringMassDamper with x shown in mm (DisplayUnit of m, factor 1000) and v typed by a
 * SimpleType that holds its unit m/s. */
static char *make_fmu(const char *dir)
{
    char *fmu = NULL;
    cr_assert(asprintf(&fmu, "%s/units.fmu", dir) >= 0);
    size_t len = 0;
    char *bytes = fmuc_test_read_file(FMUC_FMU_DIR "/good/SpringMassDamper.fmu", &len);
    cr_assert_not_null(bytes);
    cr_assert_eq(fmuc_test_write_file(fmu, bytes, len), 0);
    free(bytes);
    int zerr = 0;
    zip_t *z = zip_open(fmu, 0, &zerr);
    cr_assert_not_null(z);
    zip_int64_t i = zip_name_locate(z, "modelDescription.xml", 0);
    cr_assert_geq(i, 0);
    zip_stat_t st;
    cr_assert_eq(zip_stat_index(z, (zip_uint64_t)i, 0, &st), 0);
    char *md = calloc(1, st.size + 1);
    zip_file_t *zf = zip_fopen_index(z, (zip_uint64_t)i, 0);
    cr_assert_not_null(zf);
    cr_assert_eq(zip_fread(zf, md, st.size), (zip_int64_t)st.size);
    zip_fclose(zf);
    md = replace(md, "<BaseUnit m=\"1\"/>",
                 "<BaseUnit m=\"1\"/><DisplayUnit name=\"mm\" factor=\"1000\"/>");
    md = replace(md, "</UnitDefinitions>",
                 "</UnitDefinitions>\n  <TypeDefinitions><SimpleType name=\"Velocity\"><Real "
                 "quantity=\"Velocity\" unit=\"m/s\"/></SimpleType></TypeDefinitions>");
    md = replace(md, "<Real unit=\"m\" nominal=\"0.05\"/>",
                 "<Real unit=\"m\" displayUnit=\"mm\" nominal=\"0.05\"/>");
    md = replace(md, "<Real unit=\"m/s\" nominal=\"0.5\" start=\"0\"/>",
                 "<Real declaredType=\"Velocity\" nominal=\"0.5\" start=\"0\"/>");
    zip_source_t *src = zip_source_buffer(z, md, strlen(md), 1);
    cr_assert_not_null(src);
    cr_assert_eq(zip_file_replace(z, (zip_uint64_t)i, src, 0), 0);
    cr_assert_eq(zip_close(z), 0);
    return fmu;
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

static const cJSON *plot_with_yunit(const cJSON *plots, const char *unit)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, plots)
    {
        const char *u = cJSON_GetStringValue(cJSON_GetObjectItem(p, "yunit"));
        if (u && strcmp(u, unit) == 0)
            return p;
    }
    return NULL;
}

static const cJSON *series_named(const cJSON *plot, const char *name)
{
    const cJSON *s;
    cJSON_ArrayForEach(s, cJSON_GetObjectItem(plot, "series"))
    {
        if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(s, "name")), name) == 0)
            return s;
    }
    return NULL;
}

static double max_abs(const cJSON *arr)
{
    double m = 0;
    const cJSON *v;
    if (cJSON_IsRaw(arr)) { /* packed: parse it back */
        cJSON *a = cJSON_Parse(arr->valuestring);
        cr_assert_not_null(a);
        cJSON_ArrayForEach(v, a) if (cJSON_IsNumber(v) && fabs(v->valuedouble) > m) m =
            fabs(v->valuedouble);
        cJSON_Delete(a);
        return m;
    }
    cJSON_ArrayForEach(v, arr) if (cJSON_IsNumber(v) && fabs(v->valuedouble) > m) m =
        fabs(v->valuedouble);
    return m;
}

Test(report_units, nominal_run_plots_name_the_units, .timeout = 300)
{
    char *dir = fmuc_test_mkdtemp("units");
    char *fmu = make_fmu(dir);
    char out[4200], p[4300];
    snprintf(out, sizeof out, "%s/out", dir);
    char *argv[] = {FMUC_EXE, "-q", "--timeout-multiplier", (char *)fmuc_test_timeout_multiplier(),
                    "--only", "cs-nominal-run,me-nominal-run", "-o", out, fmu, NULL};
    fmuc_test_run r;
    cr_assert_eq(fmuc_test_exec(&r, argv, NULL), 0);
    cr_expect_eq(r.status, 0, "exit %d\n%s\n%s", r.status, r.out, r.err);
    fmuc_test_run_free(&r);

    snprintf(p, sizeof p, "%s/report.json", out);
    cJSON *rep = fmuc_test_read_json(p);
    cr_assert_not_null(rep);
    const cJSON *c;
    int seen = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(rep, "checks"))
    {
        const char *id = cJSON_GetStringValue(cJSON_GetObjectItem(c, "id"));
        const cJSON *plots = cJSON_GetObjectItem(cJSON_GetObjectItem(c, "evidence"), "plots");
        cr_assert(cJSON_GetArraySize(plots) > 0, "%s has no plots", id);
        seen++;
        const cJSON *pl;
        cJSON_ArrayForEach(pl, plots)
        cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(pl, "xunit")), "s", "%s", id);
        const cJSON *mm = plot_with_yunit(plots, "mm"), *ms = plot_with_yunit(plots, "m/s");
        cr_assert_not_null(mm, "%s: no plot in the display unit mm", id);
        cr_assert_not_null(ms, "%s: no plot in m/s (the declaredType's unit)", id);
        cr_expect_null(plot_with_yunit(plots, "m"), "%s: x still plotted in m", id);
        const cJSON *x = series_named(mm, "x");
        cr_assert_not_null(x);
        cr_expect_not_null(series_named(ms, "v"), "%s: v not in the m/s plot", id);
        /* x (nominal 0.05 m) in mm: about a thousand times larger than in m */
        double xm = max_abs(cJSON_GetObjectItem(x, "y"));
        cr_expect(xm > 5 && xm < 5000, "%s: max |x| = %g mm: not converted?", id, xm);
    }
    cr_expect_eq(seen, 2);
    cJSON_Delete(rep);

    /* the page: axis labels in the SVG text */
    snprintf(p, sizeof p, "%s/report.html", out);
    htmlDocPtr doc = htmlReadFile(p, "UTF-8", HTML_PARSE_NONET | HTML_PARSE_NOERROR |
                                                  HTML_PARSE_NOWARNING);
    cr_assert_not_null(doc);
    cr_expect_gt(xpath_count(doc, "//*[local-name()='svg']//*[local-name()='text' and "
                                  "normalize-space(.)='time [s]']"),
                 0, "no time axis in s");
    cr_expect_gt(xpath_count(doc, "//*[local-name()='svg']//*[local-name()='text' and "
                                  "normalize-space(.)='[mm]']"),
                 0, "no axis in mm");
    cr_expect_gt(xpath_count(doc, "//*[local-name()='svg']//*[local-name()='text' and "
                                  "normalize-space(.)='[m/s]']"),
                 0, "no axis in m/s");
    xmlFreeDoc(doc);
    fmuc_test_rm_rf(dir);
    free(fmu);
    free(dir);
}

/* A comparison plot (eq-reference, reference CSV against the FMU): the y axis in the display unit
 * too, reference, FMU and the tolerance band converted alike. */
Test(report_units, comparison_plots_in_the_display_unit, .timeout = 300)
{
    char *dir = fmuc_test_mkdtemp("units-ref");
    char *fmu = make_fmu(dir);
    char out[4200], csv[4200], p[4300];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(csv, sizeof csv, "%s/ref.csv", dir);
    static const char ref[] = "time,x\n0,0.1\n1,0.1\n2,0.1\n";
    cr_assert_eq(fmuc_test_write_file(csv, ref, sizeof ref - 1), 0);
    char *argv[] = {FMUC_EXE, "-q", "--timeout-multiplier", (char *)fmuc_test_timeout_multiplier(),
                    "--only", "eq-reference", "--reference", csv, "-o", out, fmu, NULL};
    fmuc_test_run r;
    cr_assert_eq(fmuc_test_exec(&r, argv, NULL), 0);
    fmuc_test_run_free(&r);
    snprintf(p, sizeof p, "%s/report.json", out);
    cJSON *rep = fmuc_test_read_json(p);
    cr_assert_not_null(rep);
    const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(rep, "checks"), 0);
    cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(c, "id")), "eq-reference");
    const cJSON *plots = cJSON_GetObjectItem(cJSON_GetObjectItem(c, "evidence"), "plots");
    const cJSON *mm = plot_with_yunit(plots, "mm");
    cr_assert_not_null(mm, "no comparison plot in mm:\n%s", cJSON_Print(c));
    const cJSON *s = series_named(mm, "reference");
    cr_assert_not_null(s);
    double m = max_abs(cJSON_GetObjectItem(s, "y"));
    cr_expect(fabs(m - 100.0) < 1e-9, "reference 0.1 m drawn as %g, not 100 mm", m);
    cr_expect_gt(max_abs(cJSON_GetObjectItem(cJSON_GetObjectItem(mm, "band"), "hi")), 50.0);
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(mm, "xunit")), "s");
    cJSON_Delete(rep);
    fmuc_test_rm_rf(dir);
    free(fmu);
    free(dir);
}

/* The reporter alone: xlabel + xunit -> "time [s]"; a unit without a label -> "[°C]" (UTF-8
 * kept); a label already ending in its unit is not doubled; gnuplot syntax stays out. */
Test(report_units, axis_labels_from_units)
{
    cJSON *p = cJSON_Parse("{\"xlabel\": \"time\", \"xunit\": \"s\", \"yunit\": \"\xc2\xb0" "C\","
                           " \"x\": [0, 1, 2], \"series\": [{\"name\": \"T\", \"y\": [1, 2, 3]}]}");
    cr_assert_not_null(p);
    char *svg = NULL, why[256];
    cr_assert_eq(fmuc_plot__svg(p, "u-", &svg, why, sizeof why), FMUC_OK, "%s", why);
    cr_expect_not_null(strstr(svg, ">time [s]<"), "x axis label");
    cr_expect_not_null(strstr(svg, ">[\xc2\xb0" "C]<"), "y axis label");
    free(svg);
    cJSON_Delete(p);
    p = cJSON_Parse("{\"xlabel\": \"time [s]\", \"xunit\": \"s\", \"ylabel\": \"v'`x`\","
                    " \"yunit\": \"m/s^2\", \"x\": [0, 1], \"series\": [{\"y\": [1, 2]}]}");
    cr_assert_eq(fmuc_plot__svg(p, "u-", &svg, why, sizeof why), FMUC_OK, "%s", why);
    cr_expect_not_null(strstr(svg, ">time [s]<"), "unit not doubled");
    cr_expect_null(strstr(svg, "[s] [s]"));
    cr_expect_not_null(strstr(svg, ">v x [m/s^2]<"), "quote and backquotes dropped");
    free(svg);
    cJSON_Delete(p);
}
