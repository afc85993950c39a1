/* fmuc_tp_expect: write (or check) tests/thirdparty/expect/ from a fmucheck batch output.
 *
 *   fmuc_tp_expect [--check] OUTDIR EXPECTDIR
 *
 * OUTDIR is the -o folder of `fmucheck -o OUTDIR fmu...` (its index.json names every FMU and its
 * report). Without --check, one expectation file per FMU is (re)written: lines whose verdicts did
 * not change keep their clause, changed and new lines start their clause with "REVIEW" so that
 * `git diff` shows what to look at. With --check nothing is written and the differences are
 * printed (exit 1 when there are any). Exit 2 on a usage or I/O error. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "tp_expect.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0, got;
    char *s = malloc(cap);
    while (s && (got = fread(s + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len < 2) {
            char *ns = realloc(s, cap * 2);
            if (!ns) {
                free(s);
                s = NULL;
                break;
            }
            s = ns;
            cap *= 2;
        }
    }
    fclose(f);
    if (s)
        s[len] = '\0';
    return s;
}

int main(int argc, char **argv)
{
    int check = 0, a = 1;
    if (a < argc && strcmp(argv[a], "--check") == 0) {
        check = 1;
        a++;
    }
    if (argc - a != 2) {
        fprintf(stderr, "usage: %s [--check] OUTDIR EXPECTDIR\n", argv[0]);
        return 2;
    }
    const char *outdir = argv[a], *expdir = argv[a + 1];
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/index.json", outdir);
    char *text = slurp(path);
    cJSON *idx = text ? cJSON_Parse(text) : NULL;
    free(text);
    const cJSON *fmus = cJSON_GetObjectItemCaseSensitive(idx, "fmus");
    if (!cJSON_IsArray(fmus)) {
        fprintf(stderr, "%s: cannot read the batch index (%s)\n", path,
                idx ? "no fmus array" : strerror(errno));
        cJSON_Delete(idx);
        return 2;
    }
    size_t files = 0, diffs = 0, to_review = 0;
    int rc = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, fmus)
    {
        const cJSON *jp = cJSON_GetObjectItemCaseSensitive(it, "path");
        const cJSON *jr = cJSON_GetObjectItemCaseSensitive(it, "report");
        const char *rel = cJSON_IsString(jp) ? tp_rel_path(jp->valuestring) : NULL;
        if (!rel) {
            fprintf(stderr, "skipped %s: not under thirdparty/fmus/ or reference-fmus/\n",
                    cJSON_IsString(jp) ? jp->valuestring : "?");
            continue;
        }
        tp_report r;
        snprintf(path, sizeof path, "%s/%s", outdir,
                 cJSON_IsString(jr) ? jr->valuestring : "(no report)");
        if (tp_report_read(path, &r, err, sizeof err) < 0) {
            fprintf(stderr, "%s: %s\n", rel, err);
            rc = 2;
            continue;
        }
        char *name = tp_expect_name(rel);
        snprintf(path, sizeof path, "%s/%s", expdir, name);
        free(name);
        tp_expect old;
        int have = tp_expect_read(path, &old, err, sizeof err);
        if (have == -2)
            fprintf(stderr, "%s\n", err); /* malformed: rewritten from scratch */
        if (check) {
            diffs += tp_compare(rel, have == 0 ? &old : NULL, &r, stdout);
        } else {
            size_t changed = 0;
            if (tp_expect_write(path, rel, &r, have == 0 ? &old : NULL, &changed) < 0) {
                fprintf(stderr, "%s: cannot write: %s\n", path, strerror(errno));
                rc = 2;
            } else {
                files++;
                to_review += changed;
            }
        }
        if (have == 0)
            tp_expect_free(&old);
        tp_report_free(&r);
    }
    cJSON_Delete(idx);
    if (check) {
        printf("%zu verdict difference(s)\n", diffs);
        return rc ? rc : diffs ? 1 : 0;
    }
    printf("%zu expectation file(s) written to %s; %zu line(s) changed (clauses marked REVIEW)\n",
           files, expdir, to_review);
    return rc;
}
