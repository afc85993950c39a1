/* --baseline old/report.json: compare this run with an earlier report, check by check (by id).
 * A failure is a fail or error verdict. new = failing now, not failing (or absent) then; fixed =
 * failing then, run now and not failing; unchanged = failing in both; notRun = failing then and
 * left out by the time budget now, or
 * not part of this run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int is_failure(const char *v)
{
    return v && (strcmp(v, "fail") == 0 || strcmp(v, "error") == 0);
}

/* The baseline's verdict under this run's profile (its "verdicts"), so that a baseline made with
 * another profile compares like with like; "verdict" for reports from before profiles. */
static const char *base_verdict(const cJSON *checks, const char *id, fmuc_profile profile)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, checks)
    {
        const char *bid = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "id"));
        if (!bid || strcmp(bid, id) != 0)
            continue;
        const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(it, "verdicts"), fmuc_profile_name(profile)));
        return v ? v : cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "verdict"));
    }
    return NULL;
}

static void entry(cJSON *arr, const char *id, const char *now, const char *then)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", id);
    if (now)
        cJSON_AddStringToObject(o, "verdict", now);
    if (then)
        cJSON_AddStringToObject(o, "baselineVerdict", then);
    else
        cJSON_AddNullToObject(o, "baselineVerdict");
    cJSON_AddItemToArray(arr, o);
}

cJSON *fmuc_cli_baseline_compare(const fmuc_report *rep, const char *path, char *why, size_t n)
{
    size_t len = 0;
    cJSON *old = NULL;
    if (path) {
        char *text = fmuc_cli_read_file(path, &len);
        if (!text) {
            snprintf(why, n, "cannot read the baseline report");
            return NULL;
        }
        old = cJSON_ParseWithLength(text, len);
        free(text);
    } else { /* no earlier report (an FMU new in a batch): an empty baseline */
        old = cJSON_Parse("{\"schema\":\"fmucheck-report\",\"checks\":[]}");
    }
    const char *schema = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(old, "schema"));
    const cJSON *checks = cJSON_GetObjectItemCaseSensitive(old, "checks");
    if (!old || !schema || strcmp(schema, "fmucheck-report") || !cJSON_IsArray(checks)) {
        snprintf(why, n, "not an fmucheck report.json (schema \"fmucheck-report\" with checks)");
        cJSON_Delete(old);
        return NULL;
    }
    cJSON *b = cJSON_CreateObject();
    if (path)
        cJSON_AddStringToObject(b, "path", path);
    else
        cJSON_AddNullToObject(b, "path");
    const cJSON *fmu = cJSON_GetObjectItemCaseSensitive(old, "fmu");
    const char *sha = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(fmu, "sha256"));
    const char *date = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(old, "dateUtc"));
    if (sha)
        cJSON_AddStringToObject(b, "sha256", sha);
    else
        cJSON_AddNullToObject(b, "sha256");
    cJSON_AddBoolToObject(b, "sameFile", sha && rep->fmu.sha256 && strcmp(sha, rep->fmu.sha256) == 0);
    if (date)
        cJSON_AddStringToObject(b, "dateUtc", date);
    cJSON *nw = cJSON_AddArrayToObject(b, "newFailures");
    cJSON *fixed = cJSON_AddArrayToObject(b, "fixed");
    cJSON *same = cJSON_AddArrayToObject(b, "unchangedFailures");
    cJSON *notrun = cJSON_AddArrayToObject(b, "notRun");
    for (size_t i = 0; i < rep->nresults; i++) {
        const fmuc_result *r = &rep->results[i];
        const char *now = fmuc_verdict_name(r->verdict);
        const char *then = base_verdict(checks, r->id, rep->profile);
        if (is_failure(now))
            entry(is_failure(then) ? same : nw, r->id, now, then);
        else if (is_failure(then) && r->not_run)
            entry(notrun, r->id, NULL, then); /* the time budget left it out: nothing fixed */
        else if (is_failure(then))
            entry(fixed, r->id, now, then);
    }
    const cJSON *it;
    cJSON_ArrayForEach(it, checks)
    {
        const char *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "id"));
        const char *then = id ? base_verdict(checks, id, rep->profile) : NULL;
        if (!id || !is_failure(then))
            continue;
        int present = 0;
        for (size_t i = 0; i < rep->nresults && !present; i++)
            present = strcmp(rep->results[i].id, id) == 0;
        if (!present)
            entry(notrun, id, NULL, then);
    }
    cJSON_Delete(old);
    return b;
}

int fmuc_cli_baseline_exit(const cJSON *baseline)
{
    int rc = FMUC_EXIT_OK;
    const cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(baseline, "newFailures"))
    {
        const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "verdict"));
        if (v && strcmp(v, "error") == 0)
            rc = FMUC_EXIT_ERROR;
        else if (rc == FMUC_EXIT_OK)
            rc = FMUC_EXIT_FAIL;
    }
    return rc;
}
