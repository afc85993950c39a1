/* Expectation files for fmucheck's verdicts on third-party FMUs: read, compare, write
 * (format in tp_expect.h). */
#include "tp_expect.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

static const char *const verdicts[] = {"pass", "warn", "fail", "error", "not-applicable"};

static int known_one(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof verdicts / sizeof verdicts[0]; i++)
        if (strlen(verdicts[i]) == n && strncmp(s, verdicts[i], n) == 0)
            return 1;
    return 0;
}

/* A verdict, or alternatives "fail~pass" for an FMU whose answer is not reproducible (an
 * uninitialised return value): any of them matches. */
static int known_verdict(const char *s)
{
    for (const char *p = s;;) {
        const char *t = strchr(p, '~');
        size_t n = t ? (size_t)(t - p) : strlen(p);
        if (!known_one(p, n))
            return 0;
        if (!t)
            return 1;
        p = t + 1;
    }
}

static int verdict_matches(const char *want, const char *got)
{
    size_t g = strlen(got);
    for (const char *p = want;;) {
        const char *t = strchr(p, '~');
        size_t n = t ? (size_t)(t - p) : strlen(p);
        if (n == g && strncmp(p, got, n) == 0)
            return 1;
        if (!t)
            return 0;
        p = t + 1;
    }
}

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static char *dup_s(const char *s)
{
    return dup_n(s ? s : "", strlen(s ? s : ""));
}

static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Trim s in place; returns the start. */
static char *trim(char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* Next whitespace-separated token of *p (modified in place), or NULL. */
static char *token(char **p)
{
    char *s = *p;
    while (*s && isspace((unsigned char)*s))
        s++;
    if (!*s)
        return NULL;
    char *t = s;
    while (*s && !isspace((unsigned char)*s))
        s++;
    if (*s)
        *s++ = '\0';
    *p = s;
    return t;
}

void tp_expect_free(tp_expect *e)
{
    if (!e)
        return;
    for (size_t i = 0; i < e->n; i++) {
        free(e->v[i].id);
        free(e->v[i].std);
        free(e->v[i].interop);
        free(e->v[i].clause);
    }
    free(e->v);
    free(e->status);
    free(e->status_clause);
    memset(e, 0, sizeof *e);
}

static const tp_line *find_line(const tp_expect *e, const char *id)
{
    for (size_t i = 0; e && i < e->n; i++)
        if (strcmp(e->v[i].id, id) == 0)
            return &e->v[i];
    return NULL;
}

int tp_expect_read(const char *path, tp_expect *e, char *err, size_t errlen)
{
    memset(e, 0, sizeof *e);
    FILE *f = fopen(path, "r");
    if (!f) {
        seterr(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    char buf[4096];
    int lineno = 0, rc = 0;
    while (fgets(buf, sizeof buf, f)) {
        lineno++;
        char *bar = strchr(buf, '|');
        char *clause = "";
        if (bar) {
            *bar = '\0';
            clause = trim(bar + 1);
        }
        char *p = buf;
        char *t1 = token(&p);
        if (!t1 || t1[0] == '#')
            continue;
        if (strcmp(t1, "@status") == 0) {
            char *st = token(&p);
            if (!st || token(&p) || e->status) {
                seterr(err, errlen, "%s line %d: expected one '@status <status> | reason' line",
                       path, lineno);
                rc = -2;
                break;
            }
            e->status = dup_s(st);
            e->status_clause = dup_s(clause);
            continue;
        }
        char *t2 = token(&p), *t3 = token(&p);
        if (!t2 || !t3 || token(&p) || !known_verdict(t2) || !known_verdict(t3)) {
            seterr(err, errlen,
                   "%s line %d: expected '<check-id> <standard> <interop> | <clause>' with "
                   "verdicts pass|warn|fail|error|not-applicable",
                   path, lineno);
            rc = -2;
            break;
        }
        if (!clause[0] && !(strcmp(t2, "pass") == 0 && strcmp(t3, "pass") == 0)) {
            seterr(err, errlen,
                   "%s line %d: check %s is expected %s/%s but names no clause after '|' (the "
                   "clause of the standard behind the verdict, or why it is not applicable)",
                   path, lineno, t1, t2, t3);
            rc = -2;
            break;
        }
        if (find_line(e, t1)) {
            seterr(err, errlen, "%s line %d: check %s is listed twice", path, lineno, t1);
            rc = -2;
            break;
        }
        tp_line *nv = realloc(e->v, (e->n + 1) * sizeof *nv);
        if (!nv) {
            seterr(err, errlen, "out of memory");
            rc = -2;
            break;
        }
        e->v = nv;
        e->v[e->n++] = (tp_line){dup_s(t1), dup_s(t2), dup_s(t3), dup_s(clause)};
    }
    fclose(f);
    if (rc < 0)
        tp_expect_free(e);
    return rc;
}

void tp_report_free(tp_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++) {
        free(r->v[i].id);
        free(r->v[i].std);
        free(r->v[i].interop);
        free(r->v[i].spec);
        free(r->v[i].level);
        free(r->v[i].msg);
    }
    free(r->v);
    free(r->status);
    free(r->status_reason);
    memset(r, 0, sizeof *r);
}

static const char *jstr(const cJSON *o, const char *key)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(it) ? it->valuestring : NULL;
}

int tp_report_read(const char *path, tp_report *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    FILE *f = fopen(path, "rb");
    if (!f) {
        seterr(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    char *text = NULL;
    size_t len = 0, cap = 0, got;
    char chunk[65536];
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + got + 1 > cap) {
            cap = (len + got + 1) * 2;
            char *nt = realloc(text, cap);
            if (!nt) {
                free(text);
                fclose(f);
                seterr(err, errlen, "out of memory");
                return -1;
            }
            text = nt;
        }
        memcpy(text + len, chunk, got);
        len += got;
    }
    fclose(f);
    cJSON *root = text ? cJSON_ParseWithLength(text, len) : NULL;
    free(text);
    const cJSON *checks = cJSON_GetObjectItemCaseSensitive(root, "checks");
    if (!root || !cJSON_IsArray(checks) || !jstr(root, "status")) {
        seterr(err, errlen, "%s: not a fmucheck report (no status or checks)", path);
        cJSON_Delete(root);
        return -1;
    }
    r->status = dup_s(jstr(root, "status"));
    r->status_reason = jstr(root, "statusReason") ? dup_s(jstr(root, "statusReason")) : NULL;
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(root, "options"), "stopTime");
    r->has_stop_time = cJSON_IsNumber(st);
    r->stop_time = r->has_stop_time ? st->valuedouble : 0.0;
    int n = cJSON_GetArraySize(checks);
    r->v = calloc((size_t)(n > 0 ? n : 1), sizeof *r->v);
    const cJSON *c;
    cJSON_ArrayForEach(c, checks)
    {
        const char *id = jstr(c, "id"), *v = jstr(c, "verdict");
        if (!id || !v)
            continue;
        const cJSON *vs = cJSON_GetObjectItemCaseSensitive(c, "verdicts");
        const char *vstd = cJSON_IsObject(vs) ? jstr(vs, "standard") : NULL;
        const char *vint = cJSON_IsObject(vs) ? jstr(vs, "interop") : NULL;
        const cJSON *msgs = cJSON_GetObjectItemCaseSensitive(c, "messages");
        const cJSON *m0 = cJSON_IsArray(msgs) ? cJSON_GetArrayItem(msgs, 0) : NULL;
        tp_got *g = &r->v[r->n++];
        g->id = dup_s(id);
        g->std = dup_s(vstd ? vstd : v);
        g->interop = dup_s(vint ? vint : v);
        g->spec = dup_s(jstr(c, "spec"));
        g->level = dup_s(jstr(c, "level"));
        g->msg = dup_s(cJSON_IsString(m0) ? m0->valuestring : "");
    }
    cJSON_Delete(root);
    return 0;
}

const char *tp_rel_path(const char *path)
{
    static const char *const markers[] = {"thirdparty/fmus/", "reference-fmus/"};
    for (size_t i = 0; i < sizeof markers / sizeof markers[0]; i++) {
        const char *p = strstr(path, markers[i]);
        if (p)
            return p;
    }
    return NULL;
}

char *tp_expect_name(const char *rel)
{
    size_t n = strlen(rel);
    char *s = malloc(n + sizeof ".expect");
    if (!s)
        return NULL;
    for (size_t i = 0; i < n; i++)
        s[i] = rel[i] == '/' ? '+' : rel[i];
    memcpy(s + n, ".expect", sizeof ".expect");
    return s;
}

static int is_pass(const char *v)
{
    return strcmp(v, "pass") == 0;
}

size_t tp_compare(const char *rel, const tp_expect *e, const tp_report *r, FILE *out)
{
    if (!e) {
        fprintf(out, "%s: no expectation file (regenerate with scripts/thirdparty-expect.sh)\n",
                rel);
        return 1;
    }
    const char *want_status = e->status ? e->status : "complete";
    if (strcmp(want_status, r->status) != 0) {
        fprintf(out, "%s: report status: expected %s, got %s%s%s\n", rel, want_status, r->status,
                r->status_reason ? " — " : "", r->status_reason ? r->status_reason : "");
        return 1;
    }
    if (strcmp(r->status, "complete") != 0)
        return 0; /* unsupported/rejected: every check is not-applicable by construction */
    size_t nd = 0;
    for (size_t i = 0; i < r->n; i++) {
        const tp_got *g = &r->v[i];
        const tp_line *l = find_line(e, g->id);
        const char *ws = l ? l->std : "pass", *wi = l ? l->interop : "pass";
        if (verdict_matches(ws, g->std) && verdict_matches(wi, g->interop))
            continue;
        nd++;
        fprintf(out, "%s: %s: expected standard=%s interop=%s, got standard=%s interop=%s",
                rel, g->id, ws, wi, g->std, g->interop);
        if (!is_pass(g->std) || !is_pass(g->interop))
            fprintf(out, " (%.160s)", g->msg);
        fprintf(out, "%s%s\n", l ? " | expected because: " : "", l ? l->clause : "");
    }
    for (size_t i = 0; i < e->n; i++) {
        int seen = 0;
        for (size_t k = 0; k < r->n && !seen; k++)
            seen = strcmp(r->v[k].id, e->v[i].id) == 0;
        if (!seen) {
            nd++;
            fprintf(out, "%s: %s: expected standard=%s interop=%s, but the report has no such check\n",
                    rel, e->v[i].id, e->v[i].std, e->v[i].interop);
        }
    }
    return nd;
}

/* One line of clause text: no '|' confusion is possible (the clause is the rest of the line), but
 * newlines would break the format. */
static void put_clause(FILE *f, const char *s, size_t max)
{
    size_t n = 0;
    for (; s && *s && n < max; s++, n++)
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
    if (s && *s)
        fputs("...", f);
}

int tp_expect_write(const char *path, const char *rel, const tp_report *r, const tp_expect *old,
                    size_t *changed)
{
    size_t nchanged = 0;
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f,
            "# Expected fmucheck verdicts for %s under the standard and interop profiles.\n"
            "# Why: tests/thirdparty/TRIAGE.md. Regenerate and review: README, \"Third-party FMUs\".\n"
            "# <check-id> <standard> <interop> | <clause of FMI 2.0.4, or why not applicable>; "
            "unlisted checks pass\n",
            rel);
    if (r->has_stop_time) {
        char t[32];
        for (int prec = 6; prec <= 17; prec++) { /* the shortest form that reads back */
            snprintf(t, sizeof t, "%.*g", prec, r->stop_time);
            if (strtod(t, NULL) == r->stop_time)
                break;
        }
        fprintf(f, "# Run with --stop-time %s (tests/thirdparty/options.tsv).\n", t);
    }
    if (strcmp(r->status, "complete") != 0) {
        const char *keep = old && old->status && strcmp(old->status, r->status) == 0
                               ? old->status_clause
                               : NULL;
        if (!keep)
            nchanged++;
        fprintf(f, "@status %s | ", r->status);
        if (keep)
            put_clause(f, keep, 4000);
        else {
            fputs("REVIEW: ", f);
            put_clause(f, r->status_reason ? r->status_reason : "", 300);
        }
        fputc('\n', f);
    } else if (old && old->status && strcmp(old->status, "complete") != 0) {
        nchanged++;
    }
    if (strcmp(r->status, "complete") == 0) {
        for (size_t i = 0; i < r->n; i++) {
            const tp_got *g = &r->v[i];
            const tp_line *l = old ? find_line(old, g->id) : NULL;
            int same = l && verdict_matches(l->std, g->std) && verdict_matches(l->interop, g->interop);
            if (is_pass(g->std) && is_pass(g->interop) && !(same && strchr(l->std, '~')))
                continue;
            if (same && strcmp(g->std, "not-applicable") == 0 &&
                strcmp(g->interop, "not-applicable") == 0 && !strchr(l->std, '~')) {
                /* a not-applicable line's clause is the check's reason: kept current */
                fprintf(f, "%s %s %s | ", g->id, l->std, l->interop);
                put_clause(f, g->msg, 300);
            } else if (same) { /* alternatives stay as written */
                fprintf(f, "%s %s %s | ", g->id, l->std, l->interop);
                put_clause(f, l->clause, 4000);
            } else {
                nchanged++;
                fprintf(f, "%s %s %s | ", g->id, g->std, g->interop);
                if (l)
                    fprintf(f, "REVIEW (was %s %s): ", l->std, l->interop);
                else
                    fputs("REVIEW: ", f);
                if (l && strcmp(l->std, "not-applicable") != 0)
                    put_clause(f, l->clause, 4000);
                else if (strcmp(g->std, "not-applicable") == 0)
                    put_clause(f, g->msg, 300);
                else {
                    fprintf(f, "%s (%s): ", g->spec, g->level);
                    put_clause(f, g->msg, 200);
                }
            }
            fputc('\n', f);
        }
        /* Listed checks that now pass are dropped: count them as changes. */
        for (size_t i = 0; old && i < old->n; i++) {
            int still = 0;
            for (size_t k = 0; k < r->n && !still; k++)
                still = strcmp(r->v[k].id, old->v[i].id) == 0 &&
                        (!(is_pass(r->v[k].std) && is_pass(r->v[k].interop)) ||
                         strchr(old->v[i].std, '~') != NULL);
            if (!still)
                nchanged++;
        }
    }
    int rc = ferror(f) ? -1 : 0;
    if (fclose(f) != 0)
        rc = -1;
    if (changed)
        *changed = nchanged;
    return rc;
}
