/* The combined JUnit XML of a batch: one <testsuites> holding every FMU's <testsuite> (taken from
 * its own junit.xml) with the totals summed; an FMU without a report (rejected before a report,
 * crashed, not run) becomes one fmucheck.input testcase with an <error> that says why. A pure
 * function of the batch results data (index.json) and the per-FMU JUnit texts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static size_t attr_num(const char *tag_start, const char *tag_end, const char *name)
{
    char key[32];
    snprintf(key, sizeof key, " %s=\"", name);
    const char *p = strstr(tag_start, key);
    if (!p || p > tag_end)
        return 0;
    return (size_t)strtoul(p + strlen(key), NULL, 10);
}

static void esc(FILE *f, const char *s)
{
    fmuc_report__xml_escape(f, s, 0, FMUC_ESC_XML_STRIP);
}

fmuc_err fmuc_report_batch_junit_write(FILE *out, const cJSON *idx, const char *const *suites)
{
    if (!out || !idx)
        return FMUC_ERROR;
    char *body = NULL;
    size_t blen = 0;
    FILE *f = open_memstream(&body, &blen);
    if (!f)
        return FMUC_ENOMEM;
    size_t tests = 0, failures = 0, errors = 0, skipped = 0, i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(idx, "fmus"))
    {
        const char *x = suites ? suites[i] : NULL;
        i++;
        const char *outer = x ? strstr(x, "<testsuites") : NULL;
        const char *outer_end = outer ? strchr(outer, '>') : NULL;
        const char *s = outer_end ? strstr(outer_end, "<testsuite") : NULL;
        const char *end = s ? strstr(s, "</testsuites>") : NULL;
        if (s && end) {
            tests += attr_num(outer, outer_end, "tests");
            failures += attr_num(outer, outer_end, "failures");
            errors += attr_num(outer, outer_end, "errors");
            skipped += attr_num(outer, outer_end, "skipped");
            fwrite(s, 1, (size_t)(end - s), f);
            continue;
        }
        const char *status = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "status"));
        const char *msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "message"));
        if (status && strcmp(status, "not-run") == 0)
            msg = "not run: the batch was interrupted";
        fputs("  <testsuite name=\"", f);
        esc(f, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "path")));
        fputs("\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0\">\n"
              "    <testcase classname=\"fmucheck.input\" name=\"input\" time=\"0\">\n"
              "      <error message=\"",
              f);
        esc(f, msg ? msg : "");
        fputs("\" type=\"error\">", f);
        esc(f, msg ? msg : "");
        fputs("</error>\n    </testcase>\n  </testsuite>\n", f);
        tests++;
        errors++;
    }
    if (fclose(f) != 0) {
        free(body);
        return FMUC_ENOMEM;
    }
    fprintf(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"fmucheck\" "
            "tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\">\n",
            tests, failures, errors, skipped);
    if (body)
        fwrite(body, 1, blen, out);
    fputs("</testsuites>\n", out);
    free(body);
    return ferror(out) ? FMUC_EIO : FMUC_OK;
}
