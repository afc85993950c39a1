/* E07/E09: the limits fmucheck inherits, checked before a run, and the effective limits recorded
 * in the report. A limit too small for a run is an environment error (exit 64) naming the limit,
 * never an FMU failure or error later on. A soft limit below the need is raised up to the hard
 * limit first (allowed without privileges); only a hard limit below the need is refused. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli.h"
#include "fmuc/fmuc_proc.h"
#include "fmuc/fmuc_worker.h"

/* Descriptors: the FMU file, the zip, the private folder, per worker three pipes, the shared
 * memfd and a pidfd, the report files, plus headroom for libraries (libxml2, libzip, ICU) and
 * what the FMU opens inside its worker. A batch adds a child (pipes, log) per job. */
#define NOFILE_NEED 64u
#define NOFILE_PER_JOB 16u
/* Address space and data segment: fmucheck itself maps about 60 MiB of libraries; the parser
 * caps, the simulation buffers and the FMU's own allocations in the worker need the rest.
 * Below this an FMU's allocations fail for reasons of ours and would look like FMU errors. */
#define MEM_NEED_MIB 256u

/* 0 when limit res is (or could be raised to) at least need; -1 after printing why not. unit
 * scales the message's numbers (unit_name), uunit is the unit of `ulimit flag` (KiB for -v). */
static int ensure(fmuc_cli *cli, int res, const char *what, const char *flag, rlim_t need,
                  rlim_t unit, const char *unit_name, rlim_t uunit)
{
    struct rlimit rl;
    char cur[32], hard[32];
    if (getrlimit(res, &rl) != 0)
        return 0; /* cannot tell: nothing to refuse */
    if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need)
        return 0;
    if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need) {
        struct rlimit up = {need, rl.rlim_max};
        if (setrlimit(res, &up) == 0) {
            cli->preflight_raised |= 1u << res;
            return 0;
        }
    }
    fprintf(stderr,
            "fmucheck: %s limit %s %s (ulimit %s; hard limit %s) is below the %llu %s fmucheck "
            "needs; raise it (ulimit %s %llu) and run again\n",
            what, fmuc_proc_limit_text(rl.rlim_cur / unit, cur, sizeof cur), unit_name, flag,
            rl.rlim_max == RLIM_INFINITY ? "unlimited"
                                         : fmuc_proc_limit_text(rl.rlim_max / unit, hard,
                                                                sizeof hard),
            (unsigned long long)(need / unit), unit_name, flag,
            (unsigned long long)(need / uunit));
    return -1;
}

int fmuc_cli_preflight(fmuc_cli *cli)
{
    rlim_t jobs = cli->jobs > 1 ? (rlim_t)cli->jobs : 1;
    rlim_t mib = 1024u * 1024u;
    if (ensure(cli, RLIMIT_NOFILE, "open files", "-n", NOFILE_NEED + (jobs - 1) * NOFILE_PER_JOB,
               1, "descriptors", 1) < 0 ||
        ensure(cli, RLIMIT_AS, "address space", "-v", (rlim_t)MEM_NEED_MIB * mib, mib, "MiB",
               1024) < 0 ||
        ensure(cli, RLIMIT_DATA, "data segment", "-d", (rlim_t)MEM_NEED_MIB * mib, mib, "MiB",
               1024) < 0)
        return FMUC_EXIT_USAGE;
    /* /proc is optional: without it the worker cannot sweep descendants that escaped its process
     * group (it still kills the group) and a SIGINT cannot find running workers at once (they end
     * at their timeout). Recorded in the report. */
    cli->proc_available = access("/proc/self/stat", R_OK) == 0;
    return -1;
}

static void add_rlimit(cJSON *o, const char *key, int res)
{
    struct rlimit rl;
    if (getrlimit(res, &rl) != 0)
        return;
    cJSON *l = cJSON_AddObjectToObject(o, key);
    if (rl.rlim_cur == RLIM_INFINITY)
        cJSON_AddStringToObject(l, "soft", "unlimited");
    else
        cJSON_AddNumberToObject(l, "soft", (double)rl.rlim_cur);
    if (rl.rlim_max == RLIM_INFINITY)
        cJSON_AddStringToObject(l, "hard", "unlimited");
    else
        cJSON_AddNumberToObject(l, "hard", (double)rl.rlim_max);
}

/* The worker asks for want and gets at most the inherited hard limit. */
static double capped(int res, double want)
{
    struct rlimit rl;
    if (getrlimit(res, &rl) == 0 && rl.rlim_max != RLIM_INFINITY && (double)rl.rlim_max < want)
        return (double)rl.rlim_max;
    return want;
}

cJSON *fmuc_cli_limits_json(const fmuc_cli *cli)
{
    const fmuc_options *op = &cli->opts;
    cJSON *o = cJSON_CreateObject();
    double eff = op->timeout_s * op->timeout_multiplier;
    cJSON_AddNumberToObject(o, "timeoutSeconds", op->timeout_s);
    cJSON_AddNumberToObject(o, "timeoutMultiplier", op->timeout_multiplier);
    cJSON_AddStringToObject(o, "timeoutMultiplierFrom", cli->tmult_source ? cli->tmult_source
                                                                          : "default");
    cJSON_AddNumberToObject(o, "effectiveTimeoutSeconds", eff);
    cJSON_AddStringToObject(o, "clock", "CLOCK_MONOTONIC");
    cJSON *w = cJSON_AddObjectToObject(o, "worker");
    cJSON_AddNumberToObject(w, "cpuSeconds", ceil(eff) + 1);
    double as = (double)op->rlimit_as_bytes;
#if defined(__SANITIZE_ADDRESS__)
    cJSON_AddStringToObject(w, "addressSpaceBytes", "not set (AddressSanitizer build)");
#else
    cJSON_AddNumberToObject(w, "addressSpaceBytes", capped(RLIMIT_AS, as));
#endif
    cJSON_AddNumberToObject(w, "allocationCapBytes", as);
    cJSON_AddNumberToObject(w, "fileSizeBytes",
                            capped(RLIMIT_FSIZE, (double)op->rlimit_fsize_bytes));
    cJSON_AddNumberToObject(w, "processes", capped(RLIMIT_NPROC, FMUC_WORKER_NPROC_LIMIT));
    cJSON_AddNumberToObject(w, "coreBytes", 0);
    cJSON *inh = cJSON_AddObjectToObject(o, "process");
    add_rlimit(inh, "openFiles", RLIMIT_NOFILE);
    add_rlimit(inh, "addressSpace", RLIMIT_AS);
    add_rlimit(inh, "data", RLIMIT_DATA);
    add_rlimit(inh, "processes", RLIMIT_NPROC);
    cJSON *raised = cJSON_AddArrayToObject(inh, "softLimitsRaised");
    if (cli->preflight_raised & (1u << RLIMIT_NOFILE))
        cJSON_AddItemToArray(raised, cJSON_CreateString("openFiles"));
    if (cli->preflight_raised & (1u << RLIMIT_AS))
        cJSON_AddItemToArray(raised, cJSON_CreateString("addressSpace"));
    if (cli->preflight_raised & (1u << RLIMIT_DATA))
        cJSON_AddItemToArray(raised, cJSON_CreateString("data"));
    cJSON_AddBoolToObject(o, "procAvailable", cli->proc_available);
    return o;
}
