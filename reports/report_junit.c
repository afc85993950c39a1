/* JUnit XML for CI (GitLab, Jenkins, GitHub test-report actions): <testsuites> with totals, one
 * <testsuite> per FMU, one <testcase> per check. fail -> <failure>, error -> <error>,
 * not-applicable -> <skipped>, warn -> passing testcase with the messages in <system-out> (warnings
 * never turn CI red). Everything is escaped; characters illegal in XML 1.0 are dropped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define JUNIT_MSG_ATTR_MAX 1024  /* bytes of the first message in message="..." */
#define JUNIT_BODY_MSG_MAX 8192  /* bytes per message in element bodies */

static void x(FILE *f, const char *s)
{
    fmuc_report__xml_escape(f, s, 0, FMUC_ESC_XML_STRIP);
}

static void xn(FILE *f, const char *s, size_t max)
{
    fmuc_report__xml_escape(f, s, max, FMUC_ESC_XML_STRIP);
}

/* "fmucheck.<area>" where area is the id up to its first '-'. */
static void classname(FILE *f, const char *id)
{
    fputs("fmucheck.", f);
    if (!id || !*id) {
        fputs("unknown", f);
        return;
    }
    size_t n = strcspn(id, "-");
    char area[64];
    if (n >= sizeof area)
        n = sizeof area - 1;
    memcpy(area, id, n);
    area[n] = '\0';
    x(f, area);
}

static void messages_body(FILE *f, const fmuc_result *res)
{
    for (size_t i = 0; i < res->nmessages && i < FMUC_RESULT_MAX_MESSAGES; i++) {
        xn(f, res->messages[i], JUNIT_BODY_MSG_MAX);
        fputc('\n', f);
    }
    if (res->messages_dropped)
        fprintf(f, "(%zu further messages not kept)\n", res->messages_dropped);
}

static void property(FILE *f, const char *name, const char *value)
{
    if (!value)
        return;
    fprintf(f, "      <property name=\"%s\" value=\"", name);
    x(f, value);
    fputs("\"/>\n", f);
}

static void write_case(FILE *f, const fmuc_result *res)
{
    char t[40];
    const char *first = res->nmessages ? res->messages[0] : NULL;
    fputs("    <testcase classname=\"", f);
    classname(f, res->id);
    fputs("\" name=\"", f);
    x(f, res->id && *res->id ? res->id : "unnamed");
    fprintf(f, "\" time=\"%s\"", fmuc_report__num(t, sizeof t, res->duration_s >= 0 ? res->duration_s : 0, 6));
    int body = res->verdict != FMUC_VERDICT_PASS || res->nmessages || res->waiver;
    if (!body) {
        fputs("/>\n", f);
        return;
    }
    fputs(">\n", f);
    switch (res->verdict) {
    case FMUC_VERDICT_FAIL:
    case FMUC_VERDICT_ERROR: {
        const char *el = res->verdict == FMUC_VERDICT_FAIL ? "failure" : "error";
        fprintf(f, "      <%s message=\"", el);
        xn(f, first ? first : (res->verdict == FMUC_VERDICT_FAIL ? "check failed" : "harness error"),
           JUNIT_MSG_ATTR_MAX);
        fprintf(f, "\" type=\"%s\">", fmuc_verdict_name(res->verdict));
        if (res->title) {
            x(f, res->title);
            fputs(res->spec ? " (" : "\n", f);
        }
        if (res->spec) {
            x(f, res->spec);
            fputs(res->title ? ")\n" : "\n", f);
        }
        messages_body(f, res);
        fprintf(f, "</%s>\n", el);
        break;
    }
    case FMUC_VERDICT_NA:
        fputs("      <skipped message=\"", f);
        xn(f, first ? first : "not applicable", JUNIT_MSG_ATTR_MAX);
        fputs("\"/>\n", f);
        break;
    default: /* pass, warn: passing testcase, messages as output */
        break;
    }
    if (res->verdict == FMUC_VERDICT_WARN || res->verdict == FMUC_VERDICT_PASS) {
        fputs("      <system-out>", f);
        if (res->verdict == FMUC_VERDICT_WARN)
            fputs("WARNING (SHOULD-level rule, not a failure)\n", f);
        if (res->waiver) {
            fputs("waived: ", f);
            x(f, res->waiver);
            fputc('\n', f);
        }
        messages_body(f, res);
        fputs("</system-out>\n", f);
    }
    fputs("    </testcase>\n", f);
}

fmuc_err fmuc_report_junit_write(FILE *f, const fmuc_report *r)
{
    if (!f || !r)
        return FMUC_ERROR;
    size_t tests = r->nresults, failures = 0, errors = 0, skipped = 0;
    for (size_t i = 0; i < r->nresults; i++) {
        fmuc_verdict v = r->results[i].verdict;
        failures += v == FMUC_VERDICT_FAIL;
        errors += v == FMUC_VERDICT_ERROR;
        skipped += v == FMUC_VERDICT_NA;
    }
    /* a rejected / unsupported input with no results still shows up red in CI */
    int synthetic = r->nresults == 0 && (r->rejected || r->unsupported || r->incomplete);
    if (synthetic) {
        tests++;
        errors++;
    }
    char t[40];
    fmuc_report__num(t, sizeof t, r->duration_s >= 0 ? r->duration_s : 0, 6);
    const char *name = r->fmu.file_name && *r->fmu.file_name ? r->fmu.file_name : "fmu";

    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
    fprintf(f, "<testsuites name=\"fmucheck\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
               "skipped=\"%zu\" time=\"%s\">\n", tests, failures, errors, skipped, t);
    fputs("  <testsuite name=\"", f);
    x(f, name);
    fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%s\"", tests,
            failures, errors, skipped, t);
    if (r->date_utc && *r->date_utc) {
        /* JUnit's timestamp is an ISO 8601 date-time without zone designator */
        char ts[64];
        snprintf(ts, sizeof ts, "%s", r->date_utc);
        size_t l = strlen(ts);
        if (l && ts[l - 1] == 'Z')
            ts[l - 1] = '\0';
        fputs(" timestamp=\"", f);
        x(f, ts);
        fputc('"', f);
    }
    fputs(">\n    <properties>\n", f);
    property(f, "profile", fmuc_profile_name(r->profile));
    property(f, "sha256", r->fmu.sha256);
    property(f, "guid", r->fmu.guid);
    property(f, "path", r->fmu.path);
    property(f, "fmiVersion", r->fmu.fmi_version);
    property(f, "modelName", r->fmu.model_name);
    property(f, "generationTool", r->fmu.generation_tool);
    property(f, "fmucheckVersion", r->tool_version);
    property(f, "hostPlatform", r->host_platform);
    property(f, "overall", fmuc_verdict_name(r->overall));
    if (r->rejected)
        property(f, "rejected", r->rejected_reason ? r->rejected_reason : "yes");
    if (r->unsupported)
        property(f, "unsupported", "yes");
    if (r->incomplete)
        property(f, "incomplete", "yes");
    if (r->not_run) {
        char nr[64];
        snprintf(nr, sizeof nr, "%zu", r->not_run);
        property(f, "notRunTimeBudget", nr);
    }
    fputs("    </properties>\n", f);
    for (size_t i = 0; i < r->nresults; i++)
        write_case(f, &r->results[i]);
    if (synthetic) {
        const char *why = r->rejected ? "input rejected"
                          : r->unsupported ? "unsupported FMI version" : "run interrupted";
        fputs("    <testcase classname=\"fmucheck.input\" name=\"input\" time=\"0\">\n"
              "      <error message=\"", f);
        x(f, why);
        fputs("\" type=\"error\">", f);
        x(f, r->rejected_reason ? r->rejected_reason : why);
        fputs("</error>\n    </testcase>\n", f);
    }
    fputs("  </testsuite>\n</testsuites>\n", f);
    return ferror(f) ? FMUC_EIO : FMUC_OK;
}
