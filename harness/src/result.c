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
    if (v == FMUC_VERDICT_FAIL)
        r->other_fail = 1;
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

void fmuc_result_violation_letter(fmuc_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_message(r, fmt, ap);
    va_end(ap);
    unsigned char other = r->other_fail;
    raise(r, r->level == FMUC_LEVEL_MUST ? FMUC_VERDICT_FAIL : FMUC_VERDICT_WARN);
    r->other_fail = other;
    r->letter_fail |= r->level == FMUC_LEVEL_MUST;
}
FMUC_RESULT_FN(fmuc_result_warn, FMUC_VERDICT_WARN)
FMUC_RESULT_FN(fmuc_result_error, FMUC_VERDICT_ERROR)

/* not applicable, as a whole (part 0) or for one part, with the reason */
static void not_applicable(fmuc_result *r, int part, const char *fmt, va_list ap)
{
    add_message(r, fmt, ap);
    if (part)
        r->na_parts++;
    else
        r->na_whole = 1;
    if (r->verdict == FMUC_VERDICT_PASS)
        r->verdict = FMUC_VERDICT_NA;
}

void fmuc_result_na(fmuc_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    not_applicable(r, 0, fmt, ap);
    va_end(ap);
}

void fmuc_result_na_part(fmuc_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    not_applicable(r, 1, fmt, ap);
    va_end(ap);
}

void fmuc_result_parts_judged(fmuc_result *r, size_t judged)
{
    if (judged > 0 && r->verdict == FMUC_VERDICT_NA && !r->na_whole && r->na_parts > 0)
        r->verdict = FMUC_VERDICT_PASS;
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
    dst->na_whole |= src->na_whole;
    dst->na_parts += src->na_parts;
    if (src->verdict == FMUC_VERDICT_NA) {
        if (dst->verdict == FMUC_VERDICT_PASS)
            dst->verdict = FMUC_VERDICT_NA;
    } else if (src->verdict != FMUC_VERDICT_PASS) {
        unsigned char other = dst->other_fail;
        raise(dst, src->verdict);
        /* a failure set directly in src (not through the functions above) counts as other */
        dst->other_fail = other | src->other_fail |
                          (src->verdict == FMUC_VERDICT_FAIL && !src->letter_fail);
        dst->letter_fail |= src->letter_fail;
    }
}

static const char *const profile_names[FMUC_PROFILE_COUNT] = {"interop", "standard", "strict"};

const char *fmuc_profile_name(fmuc_profile p)
{
    return (unsigned)p < FMUC_PROFILE_COUNT ? profile_names[p] : "?";
}

int fmuc_profile_parse(const char *s, fmuc_profile *out)
{
    for (int i = 0; i < FMUC_PROFILE_COUNT; i++)
        if (s && strcmp(s, profile_names[i]) == 0) {
            *out = (fmuc_profile)i;
            return 0;
        }
    return -1;
}

void fmuc_result_select(fmuc_result *r, fmuc_profile selected)
{
    if (r->has_profiles && (unsigned)selected < FMUC_PROFILE_COUNT)
        r->verdict = r->verdicts[selected];
}

void fmuc_result_profiles(fmuc_result *r, int interop_warn, const char *interop_why,
                          fmuc_profile selected)
{
    fmuc_verdict v = r->verdict;
    /* a failure that did not come through fmuc_result_violation_letter (e.g. set directly) */
    int letter_only = r->letter_fail && !r->other_fail;
    r->verdicts[FMUC_PROFILE_STANDARD] = v;
    r->verdicts[FMUC_PROFILE_INTEROP] =
        v == FMUC_VERDICT_FAIL && (interop_warn || letter_only) ? FMUC_VERDICT_WARN : v;
    r->verdicts[FMUC_PROFILE_STRICT] = v == FMUC_VERDICT_WARN ? FMUC_VERDICT_FAIL : v;
    r->interop_why = interop_warn || letter_only ? interop_why : NULL;
    r->has_profiles = 1;
    fmuc_result_select(r, selected);
}

void fmuc_result_relevel(fmuc_result *r, fmuc_level level, fmuc_profile selected)
{
    if (!r->has_profiles)
        fmuc_result_profiles(r, 0, NULL, selected);
    int raised = 0, lowered = 0;
    for (int p = 0; p < FMUC_PROFILE_COUNT; p++) {
        if (level == FMUC_LEVEL_MUST && r->verdicts[p] == FMUC_VERDICT_WARN) {
            r->verdicts[p] = FMUC_VERDICT_FAIL;
            raised = 1;
        } else if (level == FMUC_LEVEL_SHOULD && r->verdicts[p] == FMUC_VERDICT_FAIL) {
            r->verdicts[p] = FMUC_VERDICT_WARN;
            lowered = 1;
        }
    }
    r->level = level;
    if (raised)
        add_text(r, "gating config: level set to must, a warning counts as a failure");
    if (lowered)
        add_text(r, "gating config: level set to should, a failure counts as a warning");
    fmuc_result_select(r, selected);
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
                     &id->me_model_identifier, &id->cs_model_identifier,
                     &id->se_model_identifier, &id->platform};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        free(*strs[i]);
    cJSON_Delete(id->me_caps);
    cJSON_Delete(id->cs_caps);
    cJSON_Delete(id->se_caps);
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
    /* an archive refused as unsafe is no pass, whatever the checks that ran before said */
    if (r->rejected && r->overall < FMUC_VERDICT_FAIL)
        r->overall = FMUC_VERDICT_FAIL;
}

fmuc_verdict fmuc_report_overall_under(const fmuc_report *r, fmuc_profile p)
{
    fmuc_verdict o = FMUC_VERDICT_NA;
    for (size_t i = 0; i < r->nresults; i++) {
        const fmuc_result *res = &r->results[i];
        fmuc_verdict v = res->verdict;
        if (res->has_profiles && (unsigned)p < FMUC_PROFILE_COUNT)
            v = res->verdicts[p];
        else if (p == FMUC_PROFILE_STRICT && v == FMUC_VERDICT_WARN)
            v = FMUC_VERDICT_FAIL;
        if (v > o)
            o = v;
    }
    return r->rejected && o < FMUC_VERDICT_FAIL ? FMUC_VERDICT_FAIL : o;
}
