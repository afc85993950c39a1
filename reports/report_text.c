/* The terminal summary: the verdict at a glance (profile, counts, the three most serious findings),
 * then every problem (errors, fails, warnings) with its first messages, why it matters, how to fix
 * it and the command that re-runs it, and the overall verdict. Passes and not-applicable checks are
 * only counted. FMU text is made safe for a terminal: control characters
 * (ESC included) become '?', invalid UTF-8 becomes U+FFFD. Color only when the caller asks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define TEXT_ID_WIDTH_MAX 40
#define TEXT_MSG_CHARS 110
#define TEXT_MESSAGES 3 /* messages shown per problem */

static const char *const label[5] = {"N/A", "PASS", "WARN", "FAIL", "ERROR"};
static const char *const sgr[5] = {"\033[2m", "\033[32m", "\033[33m", "\033[31;1m", "\033[35;1m"};

static void put_verdict(FILE *f, fmuc_verdict v, int color, int width)
{
    const char *l = (unsigned)v < 5 ? label[v] : "?";
    if (color && (unsigned)v < 5)
        fprintf(f, "%s%-*s\033[0m", sgr[v], width, l);
    else
        fprintf(f, "%-*s", width, l);
}

/* Write at most max_chars characters of s on one line, terminal-safe; an ellipsis marks a cut. */
static void put_safe(FILE *f, const char *s, size_t max_chars)
{
    if (!s)
        return;
    const unsigned char *u = (const unsigned char *)s;
    size_t len = strlen(s), i = 0, chars = 0;
    while (i < len) {
        if (chars == max_chars) {
            fputs("\xE2\x80\xA6", f);
            return;
        }
        size_t adv;
        int32_t cp = fmuc_report__utf8_decode(u + i, len - i, &adv);
        if (cp < 0)
            fputs("\xEF\xBF\xBD", f);
        else if (cp == '\n' || cp == '\t' || cp == '\r')
            fputc(' ', f);
        else if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F))
            fputc('?', f);
        else
            fwrite(u + i, 1, adv, f);
        i += adv;
        chars++;
    }
}

fmuc_err fmuc_report_text_write(FILE *f, const fmuc_report *r, int color)
{
    if (!f || !r)
        return FMUC_ERROR;
    char d[40];
    fputs("fmucheck ", f);
    put_safe(f, r->tool_version ? r->tool_version : "", 40);
    fputs(": ", f);
    put_safe(f, r->fmu.file_name ? r->fmu.file_name : "(unnamed FMU)", 120);
    if (r->fmu.fmi_version) {
        fputs(" (FMI ", f);
        put_safe(f, r->fmu.fmi_version, 20);
        if (r->fmu.me_model_identifier || r->fmu.cs_model_identifier ||
            r->fmu.se_model_identifier)
            fprintf(f, ", %s%s%s%s%s", r->fmu.me_model_identifier ? "ME" : "",
                    r->fmu.me_model_identifier && r->fmu.cs_model_identifier ? "+" : "",
                    r->fmu.cs_model_identifier ? "CS" : "",
                    r->fmu.se_model_identifier &&
                            (r->fmu.me_model_identifier || r->fmu.cs_model_identifier)
                        ? "+"
                        : "",
                    r->fmu.se_model_identifier ? "SE" : "");
        fputc(')', f);
    }
    fputc('\n', f);
    if (r->rejected) {
        fputs("input rejected: ", f);
        put_safe(f, r->rejected_reason ? r->rejected_reason : "no reason given", 200);
        fputc('\n', f);
    }
    if (r->unsupported)
        fputs("unsupported FMI version: only FMI 2.0 is checked\n", f);
    if (r->incomplete)
        fputs("run interrupted: the results are incomplete\n", f);
    if (r->not_run) {
        fprintf(f, "time budget %.1f s: %zu check(s) not run (--time-budget=off runs every "
                   "check):", r->time_budget_s, r->not_run);
        for (size_t i = 0; i < r->nresults; i++)
            if (r->results[i].not_run) {
                fputc(' ', f);
                put_safe(f, r->results[i].id ? r->results[i].id : "?", 80);
            }
        fputc('\n', f);
    }
    {
        char iso[512];
        fmuc_report__isolation_line(r, iso, sizeof iso);
        if (iso[0]) {
            fputs("isolation: ", f);
            put_safe(f, iso, sizeof iso);
            fputc('\n', f);
        }
    }

    /* at a glance: the verdict, the profile, the counts and the top problems in words */
    const fmuc_result *top[FMUC_HIGHLIGHTS];
    size_t nprob = fmuc_report__problems(r, top, FMUC_HIGHLIGHTS);
    fputc('\n', f);
    put_verdict(f, r->overall, color, 0);
    fprintf(f, " under profile %s: ", fmuc_profile_name(r->profile));
    if (nprob == 0 && r->counts[FMUC_VERDICT_PASS] && !r->rejected && !r->incomplete &&
        !r->not_run)
        fprintf(f, "all %zu applicable checks pass, %zu not applicable", r->counts[FMUC_VERDICT_PASS],
                r->counts[FMUC_VERDICT_NA]);
    else
        fprintf(f, "%zu error, %zu fail, %zu warn, %zu pass, %zu not applicable",
                r->counts[FMUC_VERDICT_ERROR], r->counts[FMUC_VERDICT_FAIL],
                r->counts[FMUC_VERDICT_WARN], r->counts[FMUC_VERDICT_PASS],
                r->counts[FMUC_VERDICT_NA]);
    fprintf(f, " (%zu checks, %s)\n", r->nresults, fmuc_report__duration(d, sizeof d, r->duration_s));
    for (size_t i = 0; i < nprob && i < FMUC_HIGHLIGHTS; i++) {
        char hl[FMUC_HIGHLIGHT_MAX];
        fmuc_report__highlight(top[i], hl, sizeof hl);
        fprintf(f, "  %zu. ", i + 1);
        put_safe(f, hl, TEXT_MSG_CHARS + TEXT_ID_WIDTH_MAX);
        fputc('\n', f);
    }

    /* the problems, most serious first, each with what is needed to act on it */
    const fmuc_result **all = NULL;
    size_t nall = fmuc_report__problems(r, NULL, 0);
    if (nall && !(all = malloc(nall * sizeof *all)))
        return FMUC_ENOMEM;
    fmuc_report__problems(r, all, nall);
    for (size_t i = 0; i < nall; i++) {
        const fmuc_result *res = all[i];
        fputs("\n", f);
        put_verdict(f, res->verdict, color, 5);
        fputs("  ", f);
        put_safe(f, res->id ? res->id : "?", TEXT_ID_WIDTH_MAX);
        fputs("  ", f);
        put_safe(f, res->title ? res->title : "", TEXT_MSG_CHARS);
        fprintf(f, "  [%s", fmuc_level_name(res->level));
        if (res->spec && *res->spec) {
            fputs(", ", f);
            put_safe(f, res->spec, 40);
        }
        fputs("]\n", f);
        size_t shown = res->nmessages < TEXT_MESSAGES ? res->nmessages : TEXT_MESSAGES;
        for (size_t m = 0; m < shown; m++) {
            fputs("       ", f);
            put_safe(f, res->messages[m], 2 * TEXT_MSG_CHARS);
            fputc('\n', f);
        }
        if (res->nmessages + res->messages_dropped > shown)
            fprintf(f, "       (+%zu more)\n", res->nmessages + res->messages_dropped - shown);
        if (res->why && *res->why) {
            fputs("       why: ", f);
            put_safe(f, res->why, 2 * TEXT_MSG_CHARS);
            fputc('\n', f);
        }
        if (res->fix && *res->fix) {
            fputs("       fix: ", f);
            put_safe(f, res->fix, 2 * TEXT_MSG_CHARS);
            fputc('\n', f);
        }
        char cmd[2048];
        fmuc_report__rerun_command(r, res, cmd, sizeof cmd);
        fputs("       re-run: ", f);
        put_safe(f, cmd, sizeof cmd);
        fputc('\n', f);
    }
    free(all);
    if (nall && r->counts[FMUC_VERDICT_PASS] + r->counts[FMUC_VERDICT_NA])
        fprintf(f, "\n%zu passed, %zu not applicable (not listed; report.html has them)\n",
                r->counts[FMUC_VERDICT_PASS], r->counts[FMUC_VERDICT_NA]);
    fputs("\nOverall: ", f);
    put_verdict(f, r->overall, color, 0);
    fprintf(f, "   (profile %s; ", fmuc_profile_name(r->profile));
    for (int p = 0, k = 0; p < FMUC_PROFILE_COUNT; p++)
        if (p != (int)r->profile)
            fprintf(f, "%s%s %s", k++ ? ", " : "", fmuc_profile_name((fmuc_profile)p),
                    fmuc_verdict_name(fmuc_report_overall_under(r, (fmuc_profile)p)));
    fputs(")\n", f);
    return ferror(f) ? FMUC_EIO : FMUC_OK;
}

fmuc_err fmuc_report_text_write_plain(FILE *out, const fmuc_report *r)
{
    return fmuc_report_text_write(out, r, 0);
}

/* The strings of the JSON array arr into buf: first before the first, sep between the others
 * ("" when arr has none; "?" for an item that is no string; cut at n). */
static void join_strings(const cJSON *arr, char *buf, size_t n, const char *first,
                         const char *sep)
{
    size_t off = 0;
    buf[0] = '\0';
    for (const cJSON *m = cJSON_IsArray(arr) ? arr->child : NULL; m && off < n; m = m->next) {
        int w = snprintf(buf + off, n - off, "%s%s", off ? sep : first,
                         cJSON_IsString(m) ? m->valuestring : "?");
        if (w > 0)
            off += (size_t)w;
    }
}

void fmuc_report__isolation_line(const fmuc_report *r, char *buf, size_t n)
{
    const cJSON *iso = r ? r->isolation : NULL;
    buf[0] = '\0';
    if (!cJSON_IsObject(iso))
        return;
    const cJSON *lvl = cJSON_GetObjectItemCaseSensitive(iso, "level");
    const cJSON *abi = cJSON_GetObjectItemCaseSensitive(iso, "landlockAbi");
    const cJSON *sc = cJSON_GetObjectItemCaseSensitive(iso, "seccomp");
    const cJSON *ns = cJSON_GetObjectItemCaseSensitive(iso, "networkNamespace");
    const cJSON *net = cJSON_GetObjectItemCaseSensitive(iso, "network");
    const cJSON *uid = cJSON_GetObjectItemCaseSensitive(iso, "uid");
    const cJSON *pd = cJSON_GetObjectItemCaseSensitive(iso, "privilegeDrop");
    const cJSON *miss = cJSON_GetObjectItemCaseSensitive(iso, "missing");
    const cJSON *priv = cJSON_GetObjectItemCaseSensitive(iso, "privateFolders");
    char ll[32] = "no landlock", missing[256] = "", own[64] = "";
    if (cJSON_IsNumber(abi) && abi->valuedouble >= 1)
        snprintf(ll, sizeof ll, "landlock ABI %.0f", abi->valuedouble);
    join_strings(miss, missing, sizeof missing, "", ", ");
    /* the worker's own temporary folders ("private /tmp and /dev/shm") */
    join_strings(priv, own, sizeof own, ", private ", " and ");
    snprintf(buf, n, "%s: %s, %s, %s, network %s%s, uid %.0f%s%s%s%s",
             cJSON_IsString(lvl) ? lvl->valuestring : "?", ll,
             cJSON_IsTrue(sc) ? "seccomp recording" : "no seccomp recording",
             cJSON_IsTrue(ns) ? "own network namespace" : "host network namespace",
             cJSON_IsString(net) ? net->valuestring : "?", own,
             cJSON_IsNumber(uid) ? uid->valuedouble : -1.0,
             cJSON_IsString(pd) && !strcmp(pd->valuestring, "disabled") ? ", privilege drop disabled"
                                                                         : "",
             missing[0] ? " (missing: " : "", missing, missing[0] ? ")" : "");
}
