/* Time bounds (issue 16, cause 6): the whole fmucheck battery on every FMU (FMI 1.0, 2.0, 3.0) of
 * ../shared/thirdparty (manifest.tsv) against the target "wall time <= 3 x the nominal runs + 2 s"
 * (the nominal runs: the calibration figures in the report, evidence "calibration", one run per
 * interface), and the hostile fixture whose fmi2DoStep never returns against "wall time <= 2 x the
 * timeout" with the number of timeouts. One run per FMU (each takes seconds to minutes), with the
 * default time budget (checks/check.h): the column "not run" counts the checks it left out, and an
 * FMU with any is run once more with --time-budget off to show what the whole battery costs.
 *   bench_time_bounds [--fmucheck PATH] [--json FILE] [--timeout S] [--hang FMU] [FMU ...] */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"
#include "fmuc/fmuc_fmu.h"

#define MAXFMUS 256

typedef struct row {
    char path[2048], name[256], tool[64], ver[8];
    double wall, nominal, limit;
    int exit_code, errors, timeouts, met, not_run;
    double budget, wall_full; /* the budget that applied (0: none); the battery without it */
} row;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    if (b)
        b[n] = '\0';
    fclose(f);
    return b;
}

/* fmucheck -q --no-html -o outdir [--timeout T] --time-budget B fmu; wall seconds, exit code */
static int run_fmucheck(const char *exe, const char *fmu, const char *outdir, const char *timeout,
                        const char *budget, double *wall)
{
    double t0 = bench_now_s();
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        if (timeout)
            execl(exe, exe, "-q", "--no-html", "--timeout", timeout, "--time-budget", budget,
                  "-o", outdir, fmu, (char *)NULL);
        else
            execl(exe, exe, "-q", "--no-html", "--time-budget", budget, "-o", outdir, fmu,
                  (char *)NULL);
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    *wall = bench_now_s() - t0;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* the nominal runs' wall time (evidence "calibration"), errors and timeouts of one report */
static void read_report(const char *outdir, row *r)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/report.json", outdir);
    char *txt = slurp(path);
    cJSON *rep = txt ? cJSON_Parse(txt) : NULL;
    free(txt);
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(rep, "checks"))
    {
        const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "verdict"));
        if (v && strcmp(v, "error") == 0)
            r->errors++;
        /* timeouts, not counting a shared run's messages repeated by the checks judging it */
        const cJSON *m, *ev = cJSON_GetObjectItemCaseSensitive(c, "evidence");
        cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(c, "messages"))
        {
            const char *s = cJSON_GetStringValue(m);
            if (s && strstr(s, "worker timed out") &&
                !cJSON_GetObjectItemCaseSensitive(ev, "shared_runs"))
                r->timeouts++;
        }
        const cJSON *cal = cJSON_GetObjectItemCaseSensitive(ev, "calibration");
        const cJSON *i;
        cJSON_ArrayForEach(i, cal)
        {
            r->nominal += cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(i, "nominal_run_s"));
        }
    }
    const cJSON *tb = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(rep, "summary"), "timeBudget");
    r->budget = tb ? cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(tb, "seconds")) : 0.0;
    r->not_run = tb ? (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(tb, "notRun")) : 0;
    cJSON_Delete(rep);
}

/* The FMUs of manifest.tsv (columns: file, fmiVersion, interface, tool, ...) */
static size_t manifest(const char *dir, row *rows, size_t max)
{
    char path[2100], line[8192];
    snprintf(path, sizeof path, "%s/manifest.tsv", dir);
    FILE *f = fopen(path, "r");
    size_t n = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f) && n < max) {
        char *save = NULL, *file = strtok_r(line, "\t\n", &save);
        char *ver = strtok_r(NULL, "\t\n", &save);
        strtok_r(NULL, "\t\n", &save);
        char *tool = strtok_r(NULL, "\t\n", &save);
        if (!file || !ver || strcmp(file, "file") == 0)
            continue;
        memset(&rows[n], 0, sizeof rows[n]);
        snprintf(rows[n].ver, sizeof rows[n].ver, "%s", ver);
        snprintf(rows[n].path, sizeof rows[n].path, "%s/%s", dir, file);
        const char *b = strrchr(file, '/');
        snprintf(rows[n].name, sizeof rows[n].name, "%s", b ? b + 1 : file);
        snprintf(rows[n].tool, sizeof rows[n].tool, "%s", tool ? tool : "?");
        n++;
    }
    fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    const char *exe = FMUC_BUILD_DIR "/fmucheck", *json = bench_json_arg(argc, argv);
    const char *hang = FMUC_BUILD_DIR "/fmus/hostile/hang-in-dostep.fmu", *timeout = "5";
    static row rows[MAXFMUS];
    size_t n = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--fmucheck") == 0 && i + 1 < argc)
            exe = argv[++i];
        else if (strcmp(argv[i], "--json") == 0 && i + 1 < argc)
            i++;
        else if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc)
            timeout = argv[++i];
        else if (strcmp(argv[i], "--hang") == 0 && i + 1 < argc)
            hang = argv[++i];
        else if (n < MAXFMUS) {
            memset(&rows[n], 0, sizeof rows[n]);
            snprintf(rows[n].path, sizeof rows[n].path, "%s", argv[i]);
            const char *b = strrchr(argv[i], '/');
            snprintf(rows[n].name, sizeof rows[n].name, "%s", b ? b + 1 : argv[i]);
            snprintf(rows[n].tool, sizeof rows[n].tool, "-");
            snprintf(rows[n].ver, sizeof rows[n].ver, "-");
            n++;
        }
    }
    if (n == 0)
        n = manifest(FMUC_SOURCE_DIR "/../shared/thirdparty", rows, MAXFMUS);
    if (n == 0)
        printf("no FMUs (../shared/thirdparty/manifest.tsv not found): third-party part skipped\n");
    char tmpl[] = "/tmp/fmuc-bench-time-XXXXXX";
    char *out = mkdtemp(tmpl);
    if (!out)
        return 1;
    cJSON *root = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "fmus");
    double load[1];
    if (getloadavg(load, 1) == 1 && load[0] > (double)sysconf(_SC_NPROCESSORS_ONLN))
        printf("warning: load average %.1f exceeds the %ld CPUs: wall times are inflated\n",
               load[0], sysconf(_SC_NPROCESSORS_ONLN));
    printf("Battery wall time against 3 x the nominal runs + 2 s (one run each)\n");
    printf("%-44s %-14s %4s %9s %9s %9s %4s %4s %7s  %s\n", "FMU", "tool", "FMI", "wall s",
           "nominal s", "limit s", "err", "t/o", "not run", "target");
    size_t met = 0, judged = 0;
    double sum_wall = 0;
    for (size_t i = 0; i < n; i++) {
        row *r = &rows[i];
        char dir[256];
        snprintf(dir, sizeof dir, "%s/%zu", out, i);
        r->exit_code = run_fmucheck(exe, r->path, dir, NULL, "auto", &r->wall);
        read_report(dir, r);
        r->limit = 3.0 * r->nominal + 2.0;
        r->met = r->wall <= r->limit;
        judged++;
        met += (size_t)r->met;
        sum_wall += r->wall;
        printf("%-44.44s %-14.14s %4.4s %9.2f %9.2f %9.2f %4d %4d %7d  %s\n", r->name, r->tool,
               r->ver, r->wall, r->nominal, r->limit, r->errors, r->timeouts, r->not_run,
               r->met ? "met" : "MISSED");
        if (r->not_run) {
            char full[300];
            snprintf(full, sizeof full, "%s/%zu-full", out, i);
            run_fmucheck(exe, r->path, full, NULL, "off", &r->wall_full);
            printf("  %s: budget %.2f s left %d check(s) out; the whole battery "
                   "(--time-budget off) takes %.2f s\n", r->name, r->budget, r->not_run,
                   r->wall_full);
        }
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "fmu", r->name);
        cJSON_AddStringToObject(o, "tool", r->tool);
        cJSON_AddStringToObject(o, "fmiVersion", r->ver);
        cJSON_AddNumberToObject(o, "wall_s", r->wall);
        cJSON_AddNumberToObject(o, "nominal_runs_s", r->nominal);
        cJSON_AddNumberToObject(o, "limit_s", r->limit);
        cJSON_AddNumberToObject(o, "errors", r->errors);
        cJSON_AddNumberToObject(o, "timeouts", r->timeouts);
        cJSON_AddNumberToObject(o, "exit", r->exit_code);
        cJSON_AddNumberToObject(o, "time_budget_s", r->budget);
        cJSON_AddNumberToObject(o, "not_run", r->not_run);
        if (r->not_run)
            cJSON_AddNumberToObject(o, "wall_without_budget_s", r->wall_full);
        cJSON_AddBoolToObject(o, "met", r->met);
        cJSON_AddItemToArray(arr, o);
    }
    if (judged)
        printf("third-party: %zu of %zu within 3 x nominal + 2 s (%s); %.1f s in all\n", met,
               judged, met == judged ? "met" : "MISSED", sum_wall);
    cJSON_AddNumberToObject(root, "within_limit", (double)met);
    cJSON_AddNumberToObject(root, "judged", (double)judged);
    cJSON_AddNumberToObject(root, "total_wall_s", sum_wall);
    if (access(hang, R_OK) == 0) {
        row h;
        memset(&h, 0, sizeof h);
        char dir[256];
        snprintf(dir, sizeof dir, "%s/hang", out);
        h.exit_code = run_fmucheck(exe, hang, dir, timeout, "auto", &h.wall);
        read_report(dir, &h);
        double lim = 2.0 * strtod(timeout, NULL);
        printf("hang-in-dostep (--timeout %s): %.2f s, %d timeout(s), limit 2 x timeout = %.1f s: "
               "%s\n", timeout, h.wall, h.timeouts, lim, h.wall <= lim ? "met" : "MISSED");
        cJSON *o = cJSON_AddObjectToObject(root, "hang_in_dostep");
        cJSON_AddNumberToObject(o, "timeout_s", strtod(timeout, NULL));
        cJSON_AddNumberToObject(o, "wall_s", h.wall);
        cJSON_AddNumberToObject(o, "timeouts", h.timeouts);
        cJSON_AddNumberToObject(o, "limit_s", lim);
        cJSON_AddBoolToObject(o, "met", h.wall <= lim);
    } else {
        printf("hang fixture %s not built: skipped\n", hang);
    }
    /* fmi2Reset never returns: two checks probe it; one timeout per interface, the later
     * workers stop before calling it again (fmuc_worker_hangs) */
    const char *hang_reset = FMUC_BUILD_DIR "/fmus/hostile/hang-in-reset.fmu";
    if (access(hang_reset, R_OK) == 0) {
        row h;
        memset(&h, 0, sizeof h);
        char dir[256];
        snprintf(dir, sizeof dir, "%s/hang-reset", out);
        h.exit_code = run_fmucheck(exe, hang_reset, dir, timeout, "auto", &h.wall);
        read_report(dir, &h);
        double lim = 2.0 * strtod(timeout, NULL);
        printf("hang-in-reset (--timeout %s): %.2f s, %d timeout(s), limit 2 x timeout = %.1f s: "
               "%s\n", timeout, h.wall, h.timeouts, lim, h.wall <= lim ? "met" : "MISSED");
        cJSON *o = cJSON_AddObjectToObject(root, "hang_in_reset");
        cJSON_AddNumberToObject(o, "timeout_s", strtod(timeout, NULL));
        cJSON_AddNumberToObject(o, "wall_s", h.wall);
        cJSON_AddNumberToObject(o, "timeouts", h.timeouts);
        cJSON_AddNumberToObject(o, "limit_s", lim);
        cJSON_AddBoolToObject(o, "met", h.wall <= lim);
    }
    if (json) {
        char *txt = cJSON_Print(root);
        FILE *f = fopen(json, "w");
        if (f && txt)
            fputs(txt, f);
        if (f)
            fclose(f);
        free(txt);
    }
    cJSON_Delete(root);
    fmuc_rmtree(out);
    return 0;
}
