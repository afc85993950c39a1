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

/* Per-run state shared by the runner hooks (one payload for progress and level override). */
typedef struct run_state {
    fmuc_cli *cli;
    fmuc_run_filter *filter;
    int stopped;        /* a stop signal was seen: no further checks start */
    size_t keep;        /* results that finished before the signal */
    size_t nfail, nwarn, nerror;
    int live;           /* the live counter line is on the terminal */
} run_state;

static int level_hook(const char *check_id, fmuc_level *level, void *payload)
{
    run_state *st = payload;
    return fmuc_cli_config_level(check_id, level, &st->cli->config);
}

static void check_line(const fmuc_cli *cli, const fmuc_result *r, size_t done, size_t total)
{
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

/* Stop starting checks: the runner consults the filter before each one; "*" skips them all. */
static void stop_runner(run_state *st, size_t done)
{
    st->stopped = 1;
    st->keep = done - 1; /* the check that just ended was running when the signal came */
    st->cli->skip[st->cli->nskip] = "*";
    st->filter->skip = st->cli->skip;
    st->filter->nskip = st->cli->nskip + 1;
}

/* The runner's and its lanes' question: interrupted? (each process's own signal flag) */
static int should_stop(void *payload)
{
    (void)payload;
    return fmuc_cli_signal_stop() != 0;
}

static void progress(const fmuc_result *r, size_t done, size_t total, void *payload)
{
    run_state *st = payload;
    const fmuc_cli *cli = st->cli;
    if (!st->stopped && fmuc_cli_signal_stop())
        stop_runner(st, done);
    if (st->stopped)
        return;
    st->nfail += r->verdict == FMUC_VERDICT_FAIL;
    st->nwarn += r->verdict == FMUC_VERDICT_WARN;
    st->nerror += r->verdict == FMUC_VERDICT_ERROR;
    if (cli->quiet)
        return;
    if (!cli->stderr_tty || cli->verbose) {
        check_line(cli, r, done, total);
        return;
    }
    /* terminal: findings stay on screen, the counter line is redrawn in place */
    fputs("\r\033[K", stderr);
    if (r->verdict == FMUC_VERDICT_FAIL || r->verdict == FMUC_VERDICT_ERROR ||
        r->verdict == FMUC_VERDICT_WARN)
        check_line(cli, r, done, total);
    fprintf(stderr, "[%3zu/%zu] %zu fail, %zu error, %zu warn  %s", done, total, st->nfail,
            st->nerror, st->nwarn, r->id);
    fflush(stderr);
    st->live = 1;
}

static char *options_json(const fmuc_cli *cli)
{
    cJSON *o = cJSON_CreateObject();
    const fmuc_options *op = &cli->opts;
    cJSON_AddNumberToObject(o, "timeoutSeconds", op->timeout_s);
    cJSON_AddNumberToObject(o, "timeoutMultiplier", op->timeout_multiplier);
    cJSON_AddNumberToObject(o, "rtol", op->rtol);
    cJSON_AddNumberToObject(o, "atol", op->atol);
    if (op->has_stop_time)
        cJSON_AddNumberToObject(o, "stopTime", op->stop_time);
    if (op->input_csv)
        cJSON_AddStringToObject(o, "input", op->input_csv);
    if (op->native)
        cJSON_AddStringToObject(o, "native", op->native);
    if (op->compare_fmu)
        cJSON_AddStringToObject(o, "compare", op->compare_fmu);
    if (op->reference_csv)
        cJSON_AddStringToObject(o, "reference", op->reference_csv);
    if (op->energy_spec)
        cJSON_AddStringToObject(o, "energySpec", op->energy_spec);
    if (cli->config_path)
        cJSON_AddStringToObject(o, "config", cli->config_path);
    cJSON_AddStringToObject(o, "profile", fmuc_profile_name(op->profile));
    if (op->time_budget_s > 0.0)
        cJSON_AddNumberToObject(o, "timeBudget", op->time_budget_s);
    else
        cJSON_AddStringToObject(o, "timeBudget", op->time_budget_s == 0.0 ? "off" : "auto");
    if (cli->baseline_path)
        cJSON_AddStringToObject(o, "baseline", cli->baseline_path);
    cJSON_AddStringToObject(o, "failOn", cli->fail_on_new ? "new" : "any");
    cJSON_AddStringToObject(o, "isolation", op->sandbox.mode == FMUC_ISOLATION_BASIC    ? "basic"
                                            : op->sandbox.mode == FMUC_ISOLATION_STRICT ? "strict"
                                                                                        : "auto");
    if (op->sandbox.require_strict)
        cJSON_AddStringToObject(o, "requireIsolation", "strict");
    cJSON_AddStringToObject(o, "network", op->sandbox.network_allow ? "allow" : "deny");
    if (op->sandbox.no_privilege_drop)
        cJSON_AddBoolToObject(o, "noPrivilegeDrop", 1);
    if (op->sandbox.npass_env) {
        cJSON *pe = cJSON_AddArrayToObject(o, "passEnv"); /* names only, never values */
        for (size_t i = 0; i < op->sandbox.npass_env; i++)
            cJSON_AddItemToArray(pe, cJSON_CreateString(op->sandbox.pass_env[i]));
    }
    if (op->sandbox.nallow_write) {
        cJSON *aw = cJSON_AddArrayToObject(o, "allowWrite");
        for (size_t i = 0; i < op->sandbox.nallow_write; i++)
            cJSON_AddItemToArray(aw, cJSON_CreateString(op->sandbox.allow_write[i]));
    }
    cJSON_AddItemToObject(o, "limits", fmuc_cli_limits_json(cli));
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
    if (rep->environment_required) /* X10: needsExecutionTool and no tool here */
        return FMUC_EXIT_USAGE;
    return FMUC_EXIT_OK;
}

static void print_ids(const char *label, const cJSON *arr)
{
    int n = cJSON_GetArraySize(arr);
    printf("  %-20s %d", label, n);
    const cJSON *it;
    int k = 0;
    cJSON_ArrayForEach(it, arr)
    {
        if (k == 8) {
            printf(" ...");
            break;
        }
        const char *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "id"));
        printf("%s%s", k++ ? ", " : ": ", id ? id : "?");
    }
    putchar('\n');
}

static void print_summary(const fmuc_cli *cli, const fmuc_report *rep, const char *json_path,
                          const char *html_path)
{
    const char *on = cli->stdout_color ? color(cli, rep->overall) : "";
    const char *off = cli->stdout_color ? "\033[0m" : "";
    const char *what = rep->rejected      ? "REJECTED"
                       : rep->unsupported ? "UNSUPPORTED"
                       : rep->incomplete  ? "INTERRUPTED"
                       : rep->overall == FMUC_VERDICT_ERROR ? "ERROR"
                       : rep->overall == FMUC_VERDICT_FAIL  ? "FAIL"
                       : rep->environment_required          ? "ENV-REQUIRED"
                                                            : "PASS";
    if (!cli->quiet) {
        putchar('\n');
        fflush(stdout);
        fmuc_report_text_write(stdout, rep, cli->stdout_color);
        printf("  sha256 %s\n", rep->fmu.sha256 ? rep->fmu.sha256 : "-");
        if (rep->baseline) {
            const char *bp = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(rep->baseline,
                                                                                   "path"));
            printf("\nbaseline %s\n", bp ? bp : "(none for this FMU)");
            print_ids("new failures", cJSON_GetObjectItemCaseSensitive(rep->baseline, "newFailures"));
            print_ids("fixed", cJSON_GetObjectItemCaseSensitive(rep->baseline, "fixed"));
            print_ids("unchanged failures",
                      cJSON_GetObjectItemCaseSensitive(rep->baseline, "unchangedFailures"));
            const cJSON *nr = cJSON_GetObjectItemCaseSensitive(rep->baseline, "notRun");
            if (cJSON_GetArraySize(nr))
                print_ids("not run now", nr);
        }
        if (json_path)
            printf("  report: %s\n", json_path);
        if (html_path)
            printf("  html:   %s\n", html_path);
    }
    printf("%s%s%s %s", on, what, off, rep->fmu.file_name ? rep->fmu.file_name : "");
    if (rep->not_run)
        printf(" (%zu check(s) not run: time budget %.1f s; --time-budget=off runs them)",
               rep->not_run, rep->time_budget_s);
    putchar('\n');
}

static int write_all_reports(const fmuc_cli *cli, const fmuc_report *rep, const char *outdir,
                             char **json_path, char **html_path)
{
    if (asprintf(json_path, "%s/report.json", outdir) < 0) {
        *json_path = NULL;
        return FMUC_EXIT_INTERNAL;
    }
    if (write_atomic(*json_path, fmuc_report_json_write, rep) < 0) {
        fprintf(stderr, "fmucheck: cannot write '%s': %s\n", *json_path, strerror(errno));
        return FMUC_EXIT_USAGE;
    }
#ifdef FMUC_HAVE_REPORTERS
    if (!cli->no_html) {
        if (asprintf(html_path, "%s/report.html", outdir) < 0) {
            *html_path = NULL;
            return FMUC_EXIT_INTERNAL;
        }
        if (write_atomic(*html_path, fmuc_report_html_write, rep) < 0) {
            fprintf(stderr, "fmucheck: cannot write '%s': %s\n", *html_path, strerror(errno));
            return FMUC_EXIT_USAGE;
        }
    }
    if (cli->junit_path && write_atomic(cli->junit_path, fmuc_report_junit_write, rep) < 0) {
        fprintf(stderr, "fmucheck: cannot write '%s': %s\n", cli->junit_path, strerror(errno));
        return FMUC_EXIT_USAGE;
    }
#else
    (void)html_path;
#endif
    if (cli->json_path) {
        if (strcmp(cli->json_path, "-") == 0) {
            if (fmuc_report_json_write(stdout, rep) != FMUC_OK)
                return FMUC_EXIT_INTERNAL;
        } else if (write_atomic(cli->json_path, fmuc_report_json_write, rep) < 0) {
            fprintf(stderr, "fmucheck: cannot write '%s': %s\n", cli->json_path, strerror(errno));
            return FMUC_EXIT_USAGE;
        }
    }
    return -1;
}

int fmuc_cli_check_one(fmuc_cli *cli, const char *path)
{
    int rc = FMUC_EXIT_INTERNAL;
    double t0 = now_s();
    fmuc_diag diag = {{0}, FMUC_OK};
    fmuc_fmu fmu;
    fmuc_report rep;
    memset(&rep, 0, sizeof rep);
    char *outdir = NULL, *json_path = NULL, *html_path = NULL;
    fmuc_isolation iso;

    /* B12: the CLI needs no network; as root it moves into an empty network namespace once, and
     * every worker inherits it (else each worker makes its own). */
    fmuc_sandbox_isolate_network(&cli->opts.sandbox);
    fmuc_sandbox_config_resolve(&cli->opts.sandbox);
    /* E06: what isolation workers get here; an environment error (64) when it cannot be set up
     * or when strict is required and missing. Never a verdict on the FMU. */
    if (fmuc_sandbox_preflight(&cli->opts.sandbox, cli->opts.tmp_parent, &iso, &diag) < 0) {
        fprintf(stderr, "fmucheck: %s\n", diag.msg);
        memset(&fmu, 0, sizeof fmu);
        rc = FMUC_EXIT_USAGE;
        goto out;
    }
    diag.msg[0] = '\0';

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
    if (!fmuc_cli_config_pin_ok(&cli->config, fmu.sha256)) {
        fprintf(stderr,
                "fmucheck: %s: refused: its sha256 %s is not the one pinned in config %s (%s%s)\n",
                path, fmu.sha256[0] ? fmu.sha256 : "(unknown)", cli->config.path,
                cli->config.pins[0], cli->config.npins > 1 ? ", ..." : "");
        rc = FMUC_EXIT_REJECTED;
        goto out;
    }

    if (cli->opts.has_stop_time && oerr == FMUC_OK && fmu.md_parsed) {
        char why[256];
        if (fmuc_md_override_stop_time(&fmu.md, cli->opts.stop_time, why, sizeof why) < 0) {
            fprintf(stderr, "fmucheck: %s: --stop-time: %s\n", path, why);
            rc = FMUC_EXIT_USAGE;
            goto out;
        }
    }

    rep.schema_version = 1;
    rep.tool_version = strdup(FMUC_VERSION);
    rep.libzip_version = strdup(fmuc_libzip_version());
    rep.libxml2_version = strdup(fmuc_libxml2_version());
    rep.host_platform = strdup(fmuc_host_platform());
    rep.date_utc = fmuc_cli_utc_now();
    rep.options_json = options_json(cli);
    rep.isolation = fmuc_isolation_json(&iso);
    rep.fmu_log = cJSON_CreateArray();
    rep.profile = cli->opts.profile;
    fmuc_report_identity_fill(&rep, &fmu);
    if (oerr == FMUC_EZIP) {
        rep.rejected = 1;
        rep.rejected_reason = strdup(diag.msg[0] ? diag.msg : "unsafe archive");
    } else if (oerr == FMUC_EUNSUPPORTED) {
        rep.unsupported = 1;
        rep.rejected_reason = strdup(diag.msg[0] ? diag.msg : "unsupported FMI version");
    } else if (fmuc_checks_count_for_version(fmuc_fmu_fmi_version(&fmu)) == 0) {
        /* a version no check judges yet: exit 4 rather than a pass of nothing but
         * not-applicable checks */
        char why[200];
        snprintf(why, sizeof why, "%s: fmiVersion=\"%s\": no check of fmucheck judges FMI %d.0 FMUs",
                 path, fmu.fmi_version_seen ? fmu.fmi_version_seen : "?",
                 fmuc_fmu_fmi_version(&fmu));
        rep.unsupported = 1;
        rep.rejected_reason = strdup(why);
        oerr = FMUC_EUNSUPPORTED;
    }

    fmuc_run_filter filter = {cli->only, cli->nonly, cli->skip, cli->nskip};
    run_state st = {.cli = cli, .filter = &filter};
    fmuc_run_hooks hooks = {.progress = progress,
                            .level_override = cli->config.path ? level_hook : NULL,
                            .should_stop = should_stop,
                            .payload = &st};
    if (fmuc_cli_signal_stop()) {
        st.stopped = 1; /* interrupted while opening: no check starts */
    } else {
        fmuc_cli_signals_kill_children(1);
        fmuc_err rerr = fmuc_run_checks(&rep, &fmu, oerr, &cli->opts, &filter, &hooks);
        fmuc_cli_signals_kill_children(0);
        if (st.live)
            fputs("\r\033[K", stderr);
        if (rerr != FMUC_OK) {
            fprintf(stderr, "fmucheck: out of memory while running checks\n");
            goto out;
        }
    }
    if (st.stopped) { /* drop what the signal cut short */
        for (size_t i = st.keep; i < rep.nresults; i++)
            fmuc_result_clear(&rep.results[i]);
        if (rep.nresults > st.keep)
            rep.nresults = st.keep;
        rep.not_run = 0; /* the checks the time budget left out, among those kept */
        for (size_t i = 0; i < rep.nresults; i++)
            rep.not_run += rep.results[i].not_run;
    }
    if (st.stopped || fmuc_cli_signal_stop())
        rep.incomplete = 1;
    fmuc_report_tally(&rep);
    if (fmuc_cli_config_apply(&cli->config, &rep) != FMUC_OK) {
        fprintf(stderr, "fmucheck: out of memory applying the gating config\n");
        goto out;
    }
    rep.duration_s = now_s() - t0;
    if (cli->baseline_path) {
        char why[256];
        struct stat bst;
        const char *bp = cli->baseline_path;
        if (cli->batch_child && stat(bp, &bst) != 0)
            bp = NULL; /* a batch FMU new since the baseline: every failure is new */
        rep.baseline = fmuc_cli_baseline_compare(&rep, bp, why, sizeof why);
        if (!rep.baseline) {
            fprintf(stderr, "fmucheck: --baseline %s: %s\n", cli->baseline_path, why);
            rc = FMUC_EXIT_USAGE;
            goto out;
        }
    }

    outdir = cli->output_dir ? strdup(cli->output_dir) : default_output_dir(path);
    if (!outdir || fmuc_cli_make_dirs(outdir) < 0) {
        fprintf(stderr, "fmucheck: cannot create output folder '%s': %s\n",
                outdir ? outdir : "?", strerror(errno));
        rc = FMUC_EXIT_USAGE;
        goto out;
    }
    int wrc = write_all_reports(cli, &rep, outdir, &json_path, &html_path);
    if (wrc >= 0) {
        rc = wrc;
        goto out;
    }
    if (!(cli->json_path && strcmp(cli->json_path, "-") == 0))
        print_summary(cli, &rep, json_path, html_path);
    if (rep.environment_required)
        fprintf(stderr, "fmucheck: %s: %s\n", path, rep.environment_required);
    if (fmuc_cli_signal_stop())
        rc = 128 + fmuc_cli_signal_stop();
    else if (cli->fail_on_new && rep.baseline && !rep.rejected && !rep.unsupported)
        rc = fmuc_cli_baseline_exit(rep.baseline);
    else
        rc = exit_code_for(&rep);
out:
    fflush(stdout);
    cJSON_Delete(rep.baseline);
    rep.baseline = NULL;
    fmuc_report_free(&rep);
    fmuc_fmu_close(&fmu);
    free(outdir);
    free(json_path);
    free(html_path);
    return rc;
}
