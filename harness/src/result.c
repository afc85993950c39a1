/* Results as data: verdict raising (worst wins), capped messages, evidence. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmuc/fmuc_result.h"

void fmuc_result_init(fmuc_result *r, const char *id, const char *title, const char *spec,
                      fmuc_level level)
{
    memset(r, 0, sizeof *r);
    r->id = id;
    r->title = title;
    r->spec = spec;
    r->level = level;
    r->verdict = FMUC_VERDICT_PASS;
}

void fmuc_result_clear(fmuc_result *r)
{
    for (size_t i = 0; i < r->nmessages; i++)
        free(r->messages[i]);
    cJSON_Delete(r->evidence);
    free(r->waiver);
    memset(r, 0, sizeof *r);
}

static void add_message(fmuc_result *r, const char *fmt, va_list ap)
{
    if (r->nmessages >= FMUC_RESULT_MAX_MESSAGES) {
        r->messages_dropped++;
        return;
    }
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    if (s)
        r->messages[r->nmessages++] = s;
    else
        r->messages_dropped++;
}

static void raise(fmuc_result *r, fmuc_verdict v)
{
    if (r->verdict == FMUC_VERDICT_NA && v != FMUC_VERDICT_NA)
        r->verdict = v;
    else if (v > r->verdict)
        r->verdict = v;
}

#define FMUC_RESULT_FN(fn, verdict_expr)                                                      \
    void fn(fmuc_result *r, const char *fmt, ...)                                             \
    {                                                                                         \
        va_list ap;                                                                           \
        va_start(ap, fmt);                                                                    \
        add_message(r, fmt, ap);                                                              \
        va_end(ap);                                                                           \
        raise(r, verdict_expr);                                                               \
    }

FMUC_RESULT_FN(fmuc_result_violation,
               r->level == FMUC_LEVEL_MUST ? FMUC_VERDICT_FAIL : FMUC_VERDICT_WARN)
FMUC_RESULT_FN(fmuc_result_fail, FMUC_VERDICT_FAIL)
FMUC_RESULT_FN(fmuc_result_warn, FMUC_VERDICT_WARN)
FMUC_RESULT_FN(fmuc_result_error, FMUC_VERDICT_ERROR)

void fmuc_result_na(fmuc_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_message(r, fmt, ap);
    va_end(ap);
    if (r->verdict == FMUC_VERDICT_PASS)
        r->verdict = FMUC_VERDICT_NA;
}

void fmuc_result_note(fmuc_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_message(r, fmt, ap);
    va_end(ap);
}

static void add_text(fmuc_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_message(r, fmt, ap);
    va_end(ap);
}

void fmuc_result_merge(fmuc_result *dst, const fmuc_result *src)
{
    for (size_t i = 0; i < src->nmessages; i++)
        add_text(dst, "%s", src->messages[i]);
    dst->messages_dropped += src->messages_dropped;
    if (src->verdict == FMUC_VERDICT_NA) {
        if (dst->verdict == FMUC_VERDICT_PASS)
            dst->verdict = FMUC_VERDICT_NA;
    } else if (src->verdict != FMUC_VERDICT_PASS) {
        raise(dst, src->verdict);
    }
}

cJSON *fmuc_result_evidence(fmuc_result *r)
{
    if (!r->evidence)
        r->evidence = cJSON_CreateObject();
    return r->evidence;
}

static const char *const verdict_names[] = {"not-applicable", "pass", "warn", "fail", "error"};

const char *fmuc_verdict_name(fmuc_verdict v)
{
    return (unsigned)v < 5 ? verdict_names[v] : "?";
}

int fmuc_verdict_parse(const char *s, fmuc_verdict *out)
{
    for (int i = 0; i < 5; i++)
        if (s && strcmp(s, verdict_names[i]) == 0) {
            *out = (fmuc_verdict)i;
            return 0;
        }
    return -1;
}

const char *fmuc_level_name(fmuc_level l)
{
    return l == FMUC_LEVEL_MUST ? "must" : "should";
}

static void identity_free(fmuc_report_identity *id)
{
    char **strs[] = {&id->path, &id->file_name, &id->sha256, &id->fmi_version, &id->model_name,
                     &id->guid, &id->description, &id->author, &id->version, &id->generation_tool,
                     &id->generation_date_and_time, &id->variable_naming_convention,
                     &id->me_model_identifier, &id->cs_model_identifier, &id->platform};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        free(*strs[i]);
    cJSON_Delete(id->me_caps);
    cJSON_Delete(id->cs_caps);
    memset(id, 0, sizeof *id);
}

void fmuc_report_free(fmuc_report *r)
{
    if (!r)
        return;
    free(r->tool_version);
    free(r->libzip_version);
    free(r->libxml2_version);
    free(r->host_platform);
    free(r->date_utc);
    free(r->options_json);
    cJSON_Delete(r->isolation);
    free(r->rejected_reason);
    free(r->environment_required);
    identity_free(&r->fmu);
    for (size_t i = 0; i < r->nresults; i++)
        fmuc_result_clear(&r->results[i]);
    free(r->results);
    cJSON_Delete(r->fmu_log);
    memset(r, 0, sizeof *r);
}

void fmuc_report_tally(fmuc_report *r)
{
    memset(r->counts, 0, sizeof r->counts);
    r->overall = FMUC_VERDICT_NA;
    for (size_t i = 0; i < r->nresults; i++) {
        fmuc_verdict v = r->results[i].verdict;
        if ((unsigned)v < 5)
            r->counts[v]++;
        if (v > r->overall)
            r->overall = v;
    }
}
