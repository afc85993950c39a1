/* The canonical JSON evidence report (schema version 1): a pure function of fmuc_report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_json.h"

static void add_str(cJSON *o, const char *k, const char *v)
{
    if (v)
        cJSON_AddStringToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

static const char *const causality_keys[7] = {
    "parameter", "calculatedParameter", "input", "output", "local", "independent", "invalid"};

static cJSON *identity_json(const fmuc_report_identity *id)
{
    cJSON *o = cJSON_CreateObject();
    add_str(o, "path", id->path);
    add_str(o, "fileName", id->file_name);
    cJSON_AddNumberToObject(o, "size", (double)id->file_size);
    add_str(o, "sha256", id->sha256);
    add_str(o, "fmiVersion", id->fmi_version);
    add_str(o, "modelName", id->model_name);
    add_str(o, "guid", id->guid);
    add_str(o, "description", id->description);
    add_str(o, "author", id->author);
    add_str(o, "version", id->version);
    add_str(o, "generationTool", id->generation_tool);
    add_str(o, "generationDateAndTime", id->generation_date_and_time);
    add_str(o, "variableNamingConvention", id->variable_naming_convention);
    cJSON *mi = cJSON_AddObjectToObject(o, "modelIdentifiers");
    add_str(mi, "modelExchange", id->me_model_identifier);
    add_str(mi, "coSimulation", id->cs_model_identifier);
    if (id->se_model_identifier)
        add_str(mi, "scheduledExecution", id->se_model_identifier);
    cJSON *itf = cJSON_AddObjectToObject(o, "interfaces");
    if (id->me_caps) {
        cJSON *me = cJSON_AddObjectToObject(itf, "modelExchange");
        add_str(me, "modelIdentifier", id->me_model_identifier);
        cJSON_AddItemToObject(me, "capabilities", cJSON_Duplicate(id->me_caps, 1));
    }
    if (id->cs_caps) {
        cJSON *cs = cJSON_AddObjectToObject(itf, "coSimulation");
        add_str(cs, "modelIdentifier", id->cs_model_identifier);
        cJSON_AddItemToObject(cs, "capabilities", cJSON_Duplicate(id->cs_caps, 1));
    }
    if (id->se_caps) {
        cJSON *se = cJSON_AddObjectToObject(itf, "scheduledExecution");
        add_str(se, "modelIdentifier", id->se_model_identifier);
        cJSON_AddItemToObject(se, "capabilities", cJSON_Duplicate(id->se_caps, 1));
    }
    cJSON_AddNumberToObject(o, "numberOfEventIndicators", id->number_of_event_indicators);
    cJSON *vars = cJSON_AddObjectToObject(o, "variables");
    cJSON_AddNumberToObject(vars, "total", (double)id->nvars);
    for (int c = 0; c < 6; c++)
        cJSON_AddNumberToObject(vars, causality_keys[c], (double)id->nvars_by_causality[c]);
    cJSON_AddNumberToObject(o, "continuousStates", (double)id->nstates);
    add_str(o, "platform", id->platform);
    return o;
}

cJSON *fmuc_result_to_json(const fmuc_result *r)
{
    cJSON *o = cJSON_CreateObject();
    add_str(o, "id", r->id);
    add_str(o, "title", r->title);
    add_str(o, "spec", r->spec);
    add_str(o, "level", fmuc_level_name(r->level));
    add_str(o, "verdict", fmuc_verdict_name(r->verdict));
    /* the verdict under every profile (one run yields all three) */
    cJSON *vs = cJSON_AddObjectToObject(o, "verdicts");
    for (int p = 0; p < FMUC_PROFILE_COUNT; p++) {
        fmuc_verdict v = r->verdict;
        if (r->has_profiles)
            v = r->verdicts[p];
        else if (p == FMUC_PROFILE_STRICT && v == FMUC_VERDICT_WARN)
            v = FMUC_VERDICT_FAIL;
        add_str(vs, fmuc_profile_name((fmuc_profile)p), fmuc_verdict_name(v));
    }
    if (r->interop_why)
        add_str(o, "interopReason", r->interop_why);
    /* what a reader of a problem needs (issue 21): the registry's texts, on checks that did not
     * pass only */
    if (r->verdict == FMUC_VERDICT_WARN || r->verdict == FMUC_VERDICT_FAIL ||
        r->verdict == FMUC_VERDICT_ERROR) {
        if (r->why)
            add_str(o, "why", r->why);
        if (r->fix)
            add_str(o, "fix", r->fix);
    }
    cJSON *msgs = cJSON_AddArrayToObject(o, "messages");
    for (size_t i = 0; i < r->nmessages; i++)
        cJSON_AddItemToArray(msgs, cJSON_CreateString(r->messages[i]));
    cJSON_AddNumberToObject(o, "messagesDropped", (double)r->messages_dropped);
    if (r->evidence)
        cJSON_AddItemToObject(o, "evidence", cJSON_Duplicate(r->evidence, 1));
    else
        cJSON_AddNullToObject(o, "evidence");
    cJSON_AddNumberToObject(o, "durationSeconds", r->duration_s);
    if (r->not_run)
        cJSON_AddStringToObject(o, "notRun", "time budget");
    if (r->waiver)
        cJSON_AddStringToObject(o, "waiver", r->waiver);
    return o;
}

const char *fmuc_report_status_name(const fmuc_report *r)
{
    if (r->rejected)
        return "rejected";
    if (r->unsupported)
        return "unsupported";
    if (r->incomplete)
        return "incomplete";
    return "complete";
}

cJSON *fmuc_report_to_json(const fmuc_report *r)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "schema", "fmucheck-report");
    cJSON_AddNumberToObject(root, "schemaVersion", r->schema_version ? r->schema_version : 1);
    cJSON *tool = cJSON_AddObjectToObject(root, "tool");
    cJSON_AddStringToObject(tool, "name", "fmucheck");
    add_str(tool, "version", r->tool_version);
    add_str(tool, "libzip", r->libzip_version);
    add_str(tool, "libxml2", r->libxml2_version);
    cJSON *host = cJSON_AddObjectToObject(root, "host");
    add_str(host, "platform", r->host_platform);
    add_str(root, "dateUtc", r->date_utc);
    if (r->isolation)
        cJSON_AddItemToObject(root, "isolation", cJSON_Duplicate(r->isolation, 1));
    cJSON *opts = r->options_json ? cJSON_Parse(r->options_json) : NULL;
    cJSON_AddItemToObject(root, "options", opts ? opts : cJSON_CreateObject());
    cJSON_AddItemToObject(root, "fmu", identity_json(&r->fmu));
    cJSON_AddStringToObject(root, "status", fmuc_report_status_name(r));
    add_str(root, "statusReason", r->rejected_reason);
    if (r->environment_required)
        cJSON_AddStringToObject(root, "environmentRequired", r->environment_required);
    cJSON *checks = cJSON_AddArrayToObject(root, "checks");
    for (size_t i = 0; i < r->nresults; i++)
        cJSON_AddItemToArray(checks, fmuc_result_to_json(&r->results[i]));
    cJSON_AddItemToObject(root, "fmuLog",
                          r->fmu_log ? cJSON_Duplicate(r->fmu_log, 1) : cJSON_CreateArray());
    cJSON *sum = cJSON_AddObjectToObject(root, "summary");
    size_t total = 0;
    for (int v = 0; v < 5; v++)
        total += r->counts[v];
    cJSON_AddNumberToObject(sum, "total", (double)total);
    cJSON_AddNumberToObject(sum, "pass", (double)r->counts[FMUC_VERDICT_PASS]);
    cJSON_AddNumberToObject(sum, "warn", (double)r->counts[FMUC_VERDICT_WARN]);
    cJSON_AddNumberToObject(sum, "fail", (double)r->counts[FMUC_VERDICT_FAIL]);
    cJSON_AddNumberToObject(sum, "error", (double)r->counts[FMUC_VERDICT_ERROR]);
    cJSON_AddNumberToObject(sum, "notApplicable", (double)r->counts[FMUC_VERDICT_NA]);
    cJSON_AddStringToObject(sum, "verdict", fmuc_verdict_name(r->overall));
    cJSON_AddStringToObject(sum, "profile", fmuc_profile_name(r->profile));
    cJSON *vs = cJSON_AddObjectToObject(sum, "verdicts");
    for (int p = 0; p < FMUC_PROFILE_COUNT; p++)
        add_str(vs, fmuc_profile_name((fmuc_profile)p),
                fmuc_verdict_name(fmuc_report_overall_under(r, (fmuc_profile)p)));
    cJSON_AddNumberToObject(sum, "durationSeconds", r->duration_s);
    /* the time budget that applied (checks/check.h) and the checks it left out (each marked
     * "notRun" and not applicable with the reason) */
    if (r->time_budget_s > 0.0) {
        cJSON *tb = cJSON_AddObjectToObject(sum, "timeBudget");
        cJSON_AddNumberToObject(tb, "seconds", r->time_budget_s);
        cJSON_AddNumberToObject(tb, "notRun", (double)r->not_run);
    }
    /* the most serious problems in words, for a reader deciding whether to adopt the FMU */
    cJSON *hl = cJSON_AddArrayToObject(root, "highlights");
    char lines[FMUC_HIGHLIGHTS][FMUC_HIGHLIGHT_MAX];
    size_t nhl = fmuc_report_highlights(r, lines, FMUC_HIGHLIGHTS);
    for (size_t i = 0; i < nhl; i++)
        cJSON_AddItemToArray(hl, cJSON_CreateString(lines[i]));
    if (r->baseline)
        cJSON_AddItemToObject(root, "baseline", cJSON_Duplicate(r->baseline, 1));
    return root;
}

/* Long arrays of numbers are printed like evidence series (fmuc_evidence_numbers): "%.17g" once
 * is exact and about three times faster than cJSON's print-and-scan-back. */
#define PACK_MIN 16

static int all_numbers(const cJSON *a)
{
    const cJSON *it;
    int n = 0;
    cJSON_ArrayForEach(it, a)
    {
        if (!cJSON_IsNumber(it))
            return 0;
        n++;
    }
    return n >= PACK_MIN;
}

static cJSON *packed_array(const cJSON *a)
{
    size_t n = (size_t)cJSON_GetArraySize(a), i = 0;
    double *v = malloc((n ? n : 1) * sizeof *v);
    const cJSON *it;
    cJSON *raw;
    if (!v)
        return NULL;
    cJSON_ArrayForEach(it, a) v[i++] = it->valuedouble;
    raw = fmuc_evidence_numbers(v, n, 1, 1);
    free(v);
    return raw;
}

static void pack_number_arrays(cJSON *node)
{
    cJSON *it = node ? node->child : NULL;
    while (it) {
        cJSON *next = it->next;
        if (cJSON_IsArray(it) && all_numbers(it)) {
            cJSON *raw = packed_array(it);
            if (raw)
                cJSON_ReplaceItemViaPointer(node, it, raw); /* frees it */
        } else if (cJSON_IsArray(it) || cJSON_IsObject(it)) {
            pack_number_arrays(it);
        }
        it = next;
    }
}

fmuc_err fmuc_report_json_write(FILE *out, const fmuc_report *r)
{
    cJSON *root = fmuc_report_to_json(r);
    if (!root)
        return FMUC_ENOMEM;
    pack_number_arrays(root);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text)
        return FMUC_ENOMEM;
    size_t n = strlen(text);
    fmuc_err err = FMUC_OK;
    if (fwrite(text, 1, n, out) != n || fputc('\n', out) == EOF)
        err = FMUC_EIO;
    cJSON_free(text);
    return err;
}
