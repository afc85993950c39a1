/* What a person reads first: the problems of a report in order of seriousness, the "highlights"
 * (the top problems in words), the command that re-runs one check, and readable durations and
 * sizes. Shared by the HTML, text and JSON reporters (issue 21). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

int fmuc_report__is_problem(fmuc_verdict v)
{
    return v == FMUC_VERDICT_ERROR || v == FMUC_VERDICT_FAIL || v == FMUC_VERDICT_WARN;
}

size_t fmuc_report__problems(const fmuc_report *r, const fmuc_result **out, size_t max)
{
    static const fmuc_verdict order[3] = {FMUC_VERDICT_ERROR, FMUC_VERDICT_FAIL, FMUC_VERDICT_WARN};
    size_t n = 0;
    if (!r)
        return 0;
    for (int k = 0; k < 3; k++)
        for (size_t i = 0; i < r->nresults; i++)
            if (r->results[i].verdict == order[k]) {
                if (out && n < max)
                    out[n] = &r->results[i];
                n++;
            }
    return n;
}

/* Copy at most max_chars characters of s into buf (size n) on one line: newlines and tabs become
 * spaces, a cut is marked with an ellipsis; never splits a UTF-8 sequence. */
static void one_line(char *buf, size_t n, size_t off, const char *s, size_t max_chars)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t len = strlen(s), i = 0, chars = 0;
    while (i < len && off + 5 < n) {
        if (chars == max_chars) {
            memcpy(buf + off, "\xE2\x80\xA6", 3);
            off += 3;
            break;
        }
        size_t adv;
        int32_t cp = fmuc_report__utf8_decode(u + i, len - i, &adv);
        if (cp < 0) {
            memcpy(buf + off, "\xEF\xBF\xBD", 3);
            off += 3;
        } else if (cp < 0x20) {
            buf[off++] = ' ';
        } else {
            memcpy(buf + off, u + i, adv);
            off += adv;
        }
        i += adv;
        chars++;
    }
    buf[off] = '\0';
}

void fmuc_report__highlight(const fmuc_result *res, char *buf, size_t n)
{
    if (!buf || n == 0)
        return;
    buf[0] = '\0';
    if (!res || n < 8)
        return;
    int w = snprintf(buf, n, "%s: ", res->id ? res->id : "?");
    if (w < 0 || (size_t)w >= n)
        return;
    const char *what = res->nmessages && res->messages[0] && *res->messages[0] ? res->messages[0]
                       : res->title                                           ? res->title
                                                                              : "";
    one_line(buf, n, (size_t)w, what, FMUC_HIGHLIGHT_CHARS);
}

size_t fmuc_report_highlights(const fmuc_report *r, char out[][FMUC_HIGHLIGHT_MAX], size_t max)
{
    const fmuc_result *top[FMUC_HIGHLIGHTS];
    size_t n = fmuc_report__problems(r, top, FMUC_HIGHLIGHTS);
    if (n > FMUC_HIGHLIGHTS)
        n = FMUC_HIGHLIGHTS;
    if (n > max)
        n = max;
    for (size_t i = 0; i < n; i++)
        fmuc_report__highlight(top[i], out[i], FMUC_HIGHLIGHT_MAX);
    return n;
}

/* A word a POSIX shell reads back as itself: plain when it only has safe characters, otherwise
 * single-quoted ('\'' for a quote). */
static size_t shell_word(char *buf, size_t n, size_t off, const char *s)
{
    int plain = *s != '\0';
    for (const char *p = s; *p && plain; p++)
        plain = strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-/+:,@%=",
                       *p) != NULL;
    if (plain) {
        int w = snprintf(buf + off, n - off, "%s", s);
        return w < 0 ? off : off + (size_t)w;
    }
    if (off + 1 < n)
        buf[off++] = '\'';
    for (const char *p = s; *p && off + 5 < n; p++) {
        if (*p == '\'') {
            memcpy(buf + off, "'\\''", 4);
            off += 4;
        } else {
            buf[off++] = *p;
        }
    }
    if (off + 1 < n)
        buf[off++] = '\'';
    buf[off < n ? off : n - 1] = '\0';
    return off;
}

void fmuc_report__rerun_command(const fmuc_report *r, const fmuc_result *res, char *buf, size_t n)
{
    if (!buf || n == 0)
        return;
    buf[0] = '\0';
    const char *fmu = r && r->fmu.path && *r->fmu.path           ? r->fmu.path
                      : r && r->fmu.file_name && *r->fmu.file_name ? r->fmu.file_name
                                                                 : "FILE.fmu";
    int w = snprintf(buf, n, "fmucheck --only ");
    if (w < 0 || (size_t)w >= n)
        return;
    size_t off = shell_word(buf, n, (size_t)w, res && res->id ? res->id : "?");
    if (off + 5 >= n)
        return;
    if (r && r->profile != FMUC_PROFILE_INTEROP) { /* the default profile */
        int k = snprintf(buf + off, n - off, " --profile %s", fmuc_profile_name(r->profile));
        if (k < 0 || off + (size_t)k + 5 >= n)
            return;
        off += (size_t)k;
    }
    memcpy(buf + off, " -v ", 5);
    off += 4;
    /* a path starting with '-' would read as an option */
    if (fmu[0] == '-' && off + 3 < n) {
        memcpy(buf + off, "./", 3);
        off += 2;
    }
    shell_word(buf, n, off, fmu);
}

/* "%.*f" with '.' whatever LC_NUMERIC says, a trailing ".0" dropped. */
static void fixed(char *buf, size_t n, double v, int decimals, const char *unit)
{
    char num[48];
    snprintf(num, sizeof num, "%.*f", decimals, v);
    for (char *p = num; *p; p++)
        if (*p == ',')
            *p = '.';
    size_t l = strlen(num);
    if (l > 2 && num[l - 2] == '.' && num[l - 1] == '0')
        num[l - 2] = '\0';
    snprintf(buf, n, "%s %s", num, unit);
}

/* Two significant digits below 10 of the unit, whole numbers from 10 on; a value that rounds to
 * 1000 of a unit moves to the next one. */
char *fmuc_report__duration(char *buf, size_t n, double s)
{
    static const struct {
        double scale;
        const char *unit;
    } units[] = {{1e-9, "ns"}, {1e-6, "\xC2\xB5s"}, {1e-3, "ms"}, {1.0, "s"}};
    if (!buf || n == 0)
        return buf;
    if (isnan(s) || isinf(s) || s < 0) {
        snprintf(buf, n, "unknown");
        return buf;
    }
    if (s == 0) {
        snprintf(buf, n, "0 s");
        return buf;
    }
    if (s < 59.5) {
        size_t u = 0;
        while (u + 1 < sizeof units / sizeof units[0] && s >= units[u + 1].scale)
            u++;
        double v = s / units[u].scale;
        int dec = v < 9.95 ? 1 : 0;
        double rounded = dec ? round(v * 10) / 10 : round(v);
        if (rounded >= 1000 && u + 1 < sizeof units / sizeof units[0]) {
            u++;
            v = s / units[u].scale;
            dec = 1;
        }
        if (v < 0.05 && u == 0)
            dec = 2; /* sub-nanosecond */
        fixed(buf, n, v, dec, units[u].unit);
        return buf;
    }
    double total = round(s);
    if (total < 3600) {
        long m = (long)(total / 60), sec = (long)(total - 60.0 * (double)m);
        if (sec)
            snprintf(buf, n, "%ld min %ld s", m, sec);
        else
            snprintf(buf, n, "%ld min", m);
        return buf;
    }
    double mins = round(s / 60);
    long h = (long)(mins / 60), m = (long)(mins - 60.0 * (double)h);
    if (m)
        snprintf(buf, n, "%ld h %ld min", h, m);
    else
        snprintf(buf, n, "%ld h", h);
    return buf;
}

char *fmuc_report__bytes(char *buf, size_t n, uint64_t bytes)
{
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
    if (!buf || n == 0)
        return buf;
    if (bytes < 1024) {
        snprintf(buf, n, "%llu bytes", (unsigned long long)bytes);
        return buf;
    }
    double v = (double)bytes / 1024.0;
    size_t u = 0;
    while (u + 1 < sizeof units / sizeof units[0] && round(v * 10) / 10 >= 1024) {
        v /= 1024.0;
        u++;
    }
    fixed(buf, n, v, v < 9.95 ? 1 : 0, units[u]);
    return buf;
}
