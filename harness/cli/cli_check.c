/* `fmucheck FILE.fmu`: open, run the battery, write the reports, print the summary. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "report_json.h"
#if __has_include("report.h")
#include "report.h"
#define FMUC_HAVE_REPORTERS 1
#endif

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *color(const fmuc_cli *cli, fmuc_verdict v)
{
    if (!cli->color)
        return "";
    switch (v) {
    case FMUC_VERDICT_PASS: return "\033[32m";
    case FMUC_VERDICT_WARN: return "\033[33m";
    case FMUC_VERDICT_FAIL: return "\033[31m";
    case FMUC_VERDICT_ERROR: return "\033[35m";
    default: return "\033[2m";
    }
}

static void progress(const fmuc_result *r, size_t done, size_t total, void *payload)
{
    const fmuc_cli *cli = payload;
    if (cli->quiet)
        return;
    const char *on = color(cli, r->verdict), *off = cli->color ? "\033[0m" : "";
    fprintf(stderr, "[%3zu/%zu] %s%-14s%s %s", done, total, on, fmuc_verdict_name(r->verdict), off,
            r->id);
    if (r->verdict != FMUC_VERDICT_PASS && r->nmessages > 0)
        fprintf(stderr, ": %s%s", r->messages[0],
                r->nmessages + r->messages_dropped > 1 ? " (...)" : "");
    fputc('\n', stderr);
    if (cli->verbose)
        for (size_t i = r->verdict != FMUC_VERDICT_PASS ? 1 : 0; i < r->nmessages; i++)
            fprintf(stderr, "          %s\n", r->messages[i]);
}

static char *options_json(const fmuc_cli *cli)
{
    cJSON *o = cJSON_CreateObject();
    const fmuc_options *op = &cli->opts;
    cJSON_AddNumberToObject(o, "timeoutSeconds", op->timeout_s);
    cJSON_AddNumberToObject(o, "timeoutMultiplier", op->timeout_multiplier);
    cJSON_AddNumberToObject(o, "rtol", op->rtol);
    cJSON_AddNumberToObject(o, "atol", op->atol);
    if (op->input_csv)
        cJSON_AddStringToObject(o, "input", op->input_csv);
    if (op->native)
        cJSON_AddStringToObject(o, "native", op->native);
    if (op->compare_fmu)
        cJSON_AddStringToObject(o, "compare", op->compare_fmu);
    if (op->reference_csv)
        cJSON_AddStringToObject(o, "reference", op->reference_csv);
    cJSON *only = cJSON_AddArrayToObject(o, "only");
    for (size_t i = 0; i < cli->nonly; i++)
        cJSON_AddItemToArray(only, cJSON_CreateString(cli->only[i]));
    cJSON *skip = cJSON_AddArrayToObject(o, "skip");
    for (size_t i = 0; i < cli->nskip; i++)
        cJSON_AddItemToArray(skip, cJSON_CreateString(cli->skip[i]));
    char *s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return s;
}

static char *utc_now(void)
{
    char buf[32];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return strdup(buf);
}

/* mkdir -p with mode 0755; error message names the folder. */
static int make_dirs(const char *path)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return -1;
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0755) < 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(buf, 0755) < 0 && errno != EEXIST)
        return -1;
    struct stat st;
    return stat(buf, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

/* Write via a temp file in the same folder and rename, so a report is complete or absent. */
static int write_atomic(const char *path, fmuc_err (*write)(FILE *, const fmuc_report *),
                        const fmuc_report *rep)
{
#ifdef FMUC_HAVE_REPORTERS
    return fmuc_report_write_atomic(path, write, rep) == FMUC_OK ? 0 : -1;
#else
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlink(tmp);
        return -1;
    }
    int bad = write(f, rep) != FMUC_OK;
    bad |= fflush(f) != 0 || fsync(fileno(f)) != 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
#endif
}

static char *default_output_dir(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".fmu") == 0)
        n -= 4;
    char *out = NULL;
    if (asprintf(&out, "%.*s.fmucheck", (int)n, base) < 0)
        return NULL;
    return out;
}

static int exit_code_for(const fmuc_report *rep)
{
    if (rep->rejected)
        return FMUC_EXIT_REJECTED;
    if (rep->unsupported)
        return FMUC_EXIT_UNSUPPORTED;
    if (rep->counts[FMUC_VERDICT_ERROR])
        return FMUC_EXIT_ERROR;
    if (rep->counts[FMUC_VERDICT_FAIL])
        return FMUC_EXIT_FAIL;
    return FMUC_EXIT_OK;
}

static void print_summary(const fmuc_cli *cli, const fmuc_report *rep, const char *json_path,
                          const char *html_path)
{
    const char *on = cli->stdout_color ? color(cli, rep->overall) : "";
    const char *off = cli->stdout_color ? "\033[0m" : "";
    const char *what = rep->rejected      ? "REJECTED"
                       : rep->unsupported ? "UNSUPPORTED"
                       : rep->overall == FMUC_VERDICT_ERROR ? "ERROR"
                       : rep->overall == FMUC_VERDICT_FAIL  ? "FAIL"
                                                            : "PASS";
    if (!cli->quiet) {
        printf("\n%s  sha256 %s\n", rep->fmu.file_name ? rep->fmu.file_name : "?",
               rep->fmu.sha256 ? rep->fmu.sha256 : "-");
        printf("  %zu checks: %zu pass, %zu warn, %zu fail, %zu error, %zu not applicable "
               "(%.2f s)\n",
               rep->nresults, rep->counts[FMUC_VERDICT_PASS], rep->counts[FMUC_VERDICT_WARN],
               rep->counts[FMUC_VERDICT_FAIL], rep->counts[FMUC_VERDICT_ERROR],
               rep->counts[FMUC_VERDICT_NA], rep->duration_s);
        for (size_t i = 0; i < rep->nresults; i++) {
            const fmuc_result *r = &rep->results[i];
            if (r->verdict == FMUC_VERDICT_FAIL || r->verdict == FMUC_VERDICT_ERROR)
                printf("  %-5s %s: %s\n", fmuc_verdict_name(r->verdict), r->id,
                       r->nmessages ? r->messages[0] : r->title);
        }
        if (rep->rejected_reason)
            printf("  %s\n", rep->rejected_reason);
        if (json_path)
            printf("  report: %s\n", json_path);
        if (html_path)
            printf("  html:   %s\n", html_path);
    }
    printf("%s%s%s %s\n", on, what, off, rep->fmu.file_name ? rep->fmu.file_name : "");
}

int fmuc_cli_check_one(const fmuc_cli *cli, const char *path)
{
    int rc = FMUC_EXIT_INTERNAL;
    double t0 = now_s();
    fmuc_diag diag = {{0}, FMUC_OK};
    fmuc_fmu fmu;
    fmuc_report rep;
    memset(&rep, 0, sizeof rep);
    char *outdir = NULL, *json_path = NULL, *html_path = NULL;

    fmuc_err oerr = fmuc_fmu_open(&fmu, path, &cli->opts.limits, cli->opts.tmp_parent, &diag);
    if (oerr == FMUC_EINPUT) {
        fprintf(stderr, "fmucheck: %s\n", diag.msg[0] ? diag.msg : "not a readable FMU file");
        rc = FMUC_EXIT_REJECTED;
        goto out;
    }
    if (oerr == FMUC_ENOMEM || (oerr < 0 && oerr != FMUC_EZIP && oerr != FMUC_EXML &&
                                oerr != FMUC_EUNSUPPORTED)) {
        fprintf(stderr, "fmucheck: %s: %s\n", path, diag.msg[0] ? diag.msg : fmuc_err_name(oerr));
        rc = oerr == FMUC_ENOMEM ? FMUC_EXIT_INTERNAL : FMUC_EXIT_USAGE;
        goto out;
    }

    rep.schema_version = 1;
    rep.tool_version = strdup(FMUC_VERSION);
    rep.libzip_version = strdup(fmuc_libzip_version());
    rep.libxml2_version = strdup(fmuc_libxml2_version());
    rep.host_platform = strdup(fmuc_host_platform());
    rep.date_utc = utc_now();
    rep.options_json = options_json(cli);
    rep.fmu_log = cJSON_CreateArray();
    fmuc_report_identity_fill(&rep, &fmu);
    if (oerr == FMUC_EZIP) {
        rep.rejected = 1;
        rep.rejected_reason = strdup(diag.msg[0] ? diag.msg : "unsafe archive");
    } else if (oerr == FMUC_EUNSUPPORTED) {
        rep.unsupported = 1;
        rep.rejected_reason = strdup(diag.msg[0] ? diag.msg : "unsupported FMI version");
    }

    fmuc_run_filter filter = {cli->only, cli->nonly, cli->skip, cli->nskip};
    fmuc_run_hooks hooks = {.progress = progress, .payload = (void *)cli};
    if (fmuc_run_checks(&rep, &fmu, oerr, &cli->opts, &filter, &hooks) != FMUC_OK) {
        fprintf(stderr, "fmucheck: out of memory while running checks\n");
        goto out;
    }
    rep.duration_s = now_s() - t0;

    outdir = cli->output_dir ? strdup(cli->output_dir) : default_output_dir(path);
    if (!outdir || make_dirs(outdir) < 0) {
        fprintf(stderr, "fmucheck: cannot create output folder '%s': %s\n",
                outdir ? outdir : "?", strerror(errno));
        rc = FMUC_EXIT_USAGE;
        goto out;
    }
    if (asprintf(&json_path, "%s/report.json", outdir) < 0) {
        json_path = NULL;
        goto out;
    }
    if (write_atomic(json_path, fmuc_report_json_write, &rep) < 0) {
        fprintf(stderr, "fmucheck: cannot write '%s': %s\n", json_path, strerror(errno));
        rc = FMUC_EXIT_USAGE;
        goto out;
    }
#ifdef FMUC_HAVE_REPORTERS
    if (!cli->no_html) {
        if (asprintf(&html_path, "%s/report.html", outdir) < 0) {
            html_path = NULL;
            goto out;
        }
        if (write_atomic(html_path, fmuc_report_html_write, &rep) < 0) {
            fprintf(stderr, "fmucheck: cannot write '%s': %s\n", html_path, strerror(errno));
            rc = FMUC_EXIT_USAGE;
            goto out;
        }
    }
    if (cli->junit_path && write_atomic(cli->junit_path, fmuc_report_junit_write, &rep) < 0) {
        fprintf(stderr, "fmucheck: cannot write '%s': %s\n", cli->junit_path, strerror(errno));
        rc = FMUC_EXIT_USAGE;
        goto out;
    }
#endif
    if (cli->json_path) {
        if (strcmp(cli->json_path, "-") == 0) {
            if (fmuc_report_json_write(stdout, &rep) != FMUC_OK)
                goto out;
        } else if (write_atomic(cli->json_path, fmuc_report_json_write, &rep) < 0) {
            fprintf(stderr, "fmucheck: cannot write '%s': %s\n", cli->json_path, strerror(errno));
            rc = FMUC_EXIT_USAGE;
            goto out;
        }
    }
    if (!(cli->json_path && strcmp(cli->json_path, "-") == 0))
        print_summary(cli, &rep, json_path, html_path);
    rc = exit_code_for(&rep);
out:
    fflush(stdout);
    fmuc_report_free(&rep);
    fmuc_fmu_close(&fmu);
    free(outdir);
    free(json_path);
    free(html_path);
    return rc;
}
