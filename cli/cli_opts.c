/* Command-line parsing. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* The parser's ids, one per line of cli_options.def; above every short letter (getopt_long
 * returns the letter for -x and the id for --long; option_id maps both to the id). */
enum {
    FMUC_OPT_FIRST_ = 256,
#define FMUC_CLI_OPTION(ID, LONG, SHORT, ARG, ARGNAME, HELP) FMUC_OPT_##ID,
#include "cli_options.def"
#undef FMUC_CLI_OPTION
    FMUC_OPT_END_
};

typedef struct {
    const char *name;    /* long name, without "--" */
    int letter;          /* short letter, 0 when none */
    int has_arg;         /* no_argument, required_argument, optional_argument */
    const char *argname; /* NULL for no_argument */
    const char *help;
} cli_option;

static const cli_option options[] = {
#define FMUC_CLI_OPTION(ID, LONG, SHORT, ARG, ARGNAME, HELP) {LONG, SHORT, ARG, ARGNAME, HELP},
#include "cli_options.def"
#undef FMUC_CLI_OPTION
};
#define NOPTIONS (sizeof options / sizeof options[0])

static const struct option long_opts[] = {
#define FMUC_CLI_OPTION(ID, LONG, SHORT, ARG, ARGNAME, HELP) {LONG, ARG, NULL, FMUC_OPT_##ID},
#include "cli_options.def"
#undef FMUC_CLI_OPTION
    {NULL, 0, NULL, 0}};

/* getopt's short option string: ':' first (a missing value returns ':'), then each letter with
 * ':' for a required and '::' for an optional value. */
static void short_opts(char *buf, size_t size)
{
    size_t k = 0;
    buf[k++] = ':';
    for (size_t i = 0; i < NOPTIONS; i++) {
        if (!options[i].letter || k + 4 > size)
            continue;
        buf[k++] = (char)options[i].letter;
        if (options[i].has_arg != no_argument)
            buf[k++] = ':';
        if (options[i].has_arg == optional_argument)
            buf[k++] = ':';
    }
    buf[k] = '\0';
}

/* getopt_long's return value -> FMUC_OPT_* (a short letter -> its option's id) */
static int option_id(int c)
{
    if (c > FMUC_OPT_FIRST_ && c < FMUC_OPT_END_)
        return c;
    for (size_t i = 0; c > 0 && i < NOPTIONS; i++)
        if (options[i].letter == c)
            return FMUC_OPT_FIRST_ + 1 + (int)i;
    return c;
}

#define HELP_WIDTH 100 /* --help lines are at most this long */
#define HELP_COLUMN 30 /* where the help texts start */

/* One option of --help: "  -x, --long ARG", the help text from HELP_COLUMN (after two spaces
 * when the left part is longer), words wrapped at HELP_WIDTH. */
static void usage_option(FILE *out, const cli_option *o)
{
    char left[128];
    int n = snprintf(left, sizeof left, "  %c%c%s--%s", o->letter ? '-' : ' ',
                     o->letter ? o->letter : ' ', o->letter ? ", " : "  ", o->name);
    if (o->has_arg == required_argument)
        n += snprintf(left + n, sizeof left - (size_t)n, " %s", o->argname);
    else if (o->has_arg == optional_argument)
        n += snprintf(left + n, sizeof left - (size_t)n, "[=%s]", o->argname);
    fputs(left, out);
    int col = n;
    if (col + 2 <= HELP_COLUMN) {
        fprintf(out, "%*s", HELP_COLUMN - col, "");
        col = HELP_COLUMN;
    } else {
        fputs("  ", out);
        col += 2;
    }
    int line_start = 1;
    for (const char *p = o->help; *p;) {
        while (*p == ' ')
            p++;
        size_t w = strcspn(p, " ");
        if (!w)
            break;
        if (!line_start && col + 1 + (int)w > HELP_WIDTH) {
            fprintf(out, "\n%*s", HELP_COLUMN, "");
            col = HELP_COLUMN;
            line_start = 1;
        }
        if (!line_start) {
            fputc(' ', out);
            col++;
        }
        fwrite(p, 1, w, out);
        col += (int)w;
        line_start = 0;
        p += w;
    }
    fputc('\n', out);
}

void fmuc_cli_usage(FILE *out)
{
    fputs("usage: fmucheck [options] FILE.fmu\n"
          "       fmucheck [options] [-j N] [--shard I/N] FILE.fmu|DIR ...   (a batch)\n"
          "       fmucheck merge OUTDIR index1.json index2.json ...\n"
          "       fmucheck --list-checks [--json]\n"
          "       fmucheck explain CHECK-ID   (rule, levels, why, fix, reproduce)\n"
          "\n"
          "Checks an FMI 1.0, 2.0 or 3.0 FMU (Model Exchange, Co-Simulation, FMI 3.0\n"
          "Scheduled Execution) against its standard and writes an evidence report\n"
          "(report.json, report.html) into the output folder. A batch (several FMUs, or a\n"
          "folder searched for *.fmu) writes OUTDIR/<fmu name>/ per FMU plus index.json and\n"
          "index.html.\n"
          "\n"
          "options:\n",
          out);
    for (size_t i = 0; i < NOPTIONS; i++)
        usage_option(out, &options[i]);
    fputs("\n"
          "exit codes:\n"
          "  0  all checks passed (warnings and not-applicable allowed)\n"
          "  1  at least one check failed (under the selected profile)\n"
          "  2  at least one check ended in error (the FMU crashed or hung, or a check\n"
          "     could not be carried out)\n"
          "  3  input rejected: not a readable, safe FMU file\n"
          "  4  an FMU of an FMI version no check judges (none today: 1.0, 2.0 and 3.0 are\n"
          "     judged)\n"
          " 64  usage or environment error (bad option, bad config, unwritable output folder,\n"
          "     worker sandbox not available as required)\n"
          " 70  internal error in fmucheck\n"
          "130  interrupted by SIGINT, 143 by SIGTERM (report marked incomplete)\n"
          "a batch exits with the highest code of its FMUs (130/143 when interrupted)\n",
          out);
}

static int parse_double(const char *opt, const char *s, double lo, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (lo <= -DBL_MAX) { /* any finite number */
        if (errno || !end || end == s || *end || !isfinite(v)) {
            fprintf(stderr, "fmucheck: %s: '%s' is not a finite number\n", opt, s);
            return -1;
        }
    } else if (errno || !end || end == s || *end || !(v >= lo) || v != v) {
        fprintf(stderr, "fmucheck: %s: '%s' is not a number >= %g\n", opt, s, lo);
        return -1;
    }
    *out = v;
    return 0;
}

int fmuc_cli_parse_time_budget(const char *s, double *out)
{
    if (strcmp(s, "auto") == 0) {
        *out = FMUC_TIME_BUDGET_AUTO;
        return 0;
    }
    if (strcmp(s, "off") == 0) {
        *out = 0.0;
        return 0;
    }
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || !end || end == s || *end || !isfinite(v) || !(v > 0.0))
        return -1;
    *out = v;
    return 0;
}

static int parse_int(const char *opt, const char *s, long lo, long hi, int *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || !end || end == s || *end || v < lo || v > hi) {
        fprintf(stderr, "fmucheck: %s: '%s' is not a whole number from %ld to %ld\n", opt, s, lo,
                hi);
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int add_patterns(const char **arr, size_t *n, char *list, const char *opt)
{
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (*n >= FMUC_CLI_MAX_PATTERNS) {
            fprintf(stderr, "fmucheck: %s: at most %d patterns\n", opt, FMUC_CLI_MAX_PATTERNS);
            return -1;
        }
        arr[(*n)++] = tok;
    }
    return 0;
}

int fmuc_cli_parse(fmuc_cli *cli, int argc, char **argv)
{
    memset(cli, 0, sizeof *cli);
    fmuc_options_init(&cli->opts);
    cli->opts.check_jobs = 0; /* two lanes where two CPUs are available (--check-jobs) */
    cli->opts.time_budget_s = FMUC_TIME_BUDGET_AUTO; /* --time-budget */
    cli->opts.self_exe = argv[0];
    int c;
    opterr = 0;
    cli->jobs = 1;
    char shorts[2 + 3 * NOPTIONS];
    short_opts(shorts, sizeof shorts);
    while ((c = getopt_long(argc, argv, shorts, long_opts, NULL)) != -1) {
        switch (option_id(c)) {
        case FMUC_OPT_HELP: fmuc_cli_usage(stdout); return FMUC_EXIT_OK;
        case FMUC_OPT_VERSION:
            printf("fmucheck %s\n", FMUC_VERSION);
            return FMUC_EXIT_OK;
        case FMUC_OPT_OUTPUT: cli->output_dir = optarg; break;
        case FMUC_OPT_JSON:
            cli->list_json = 1;
            cli->json_path = optarg;
            break;
        case FMUC_OPT_JUNIT: cli->junit_path = optarg; break;
        case FMUC_OPT_NO_HTML: cli->no_html = 1; break;
        case FMUC_OPT_ONLY:
            if (add_patterns(cli->only, &cli->nonly, optarg, "--only") < 0)
                return FMUC_EXIT_USAGE;
            break;
        case FMUC_OPT_SKIP:
            if (add_patterns(cli->skip, &cli->nskip, optarg, "--skip") < 0)
                return FMUC_EXIT_USAGE;
            break;
        case FMUC_OPT_LIST_CHECKS: cli->list_checks = 1; break;
        case FMUC_OPT_QUIET: cli->quiet = 1; break;
        case FMUC_OPT_VERBOSE: cli->verbose = 1; cli->opts.verbose = 1; break;
        case FMUC_OPT_TIMEOUT:
            if (parse_double("--timeout", optarg, 0.001, &cli->opts.timeout_s) < 0)
                return FMUC_EXIT_USAGE;
            cli->set_timeout = 1;
            cli->opts.timeout_explicit = 1;
            break;
        case FMUC_OPT_TIMEOUT_MULTIPLIER:
            if (parse_double("--timeout-multiplier", optarg, 0.001, &cli->opts.timeout_multiplier) < 0)
                return FMUC_EXIT_USAGE;
            cli->set_tmult = 1;
            cli->tmult_source = "option";
            break;
        case FMUC_OPT_STOP_TIME:
            if (parse_double("--stop-time", optarg, -DBL_MAX, &cli->opts.stop_time) < 0)
                return FMUC_EXIT_USAGE;
            cli->opts.has_stop_time = 1;
            break;
        case FMUC_OPT_INPUT: cli->opts.input_csv = optarg; break;
        case FMUC_OPT_SOAK: {
            double n = 0;
            if (parse_double("--soak", optarg, 1, &n) < 0)
                return FMUC_EXIT_USAGE;
            if (n > 1000000 || n != (double)(long)n) {
                fprintf(stderr, "fmucheck: --soak: '%s' is not a whole number of runs from 1 to "
                                "1000000\n", optarg);
                return FMUC_EXIT_USAGE;
            }
            cli->opts.soak = (unsigned)n;
            break;
        }
        case FMUC_OPT_NATIVE:
            if (strcmp(optarg, "l2") && strcmp(optarg, "l3") && strcmp(optarg, "none")) {
                fprintf(stderr, "fmucheck: --native: '%s' is not one of l2, l3, none\n", optarg);
                return FMUC_EXIT_USAGE;
            }
            cli->opts.native = optarg;
            break;
        case FMUC_OPT_COMPARE: cli->opts.compare_fmu = optarg; break;
        case FMUC_OPT_REFERENCE: cli->opts.reference_csv = optarg; break;
        case FMUC_OPT_RTOL:
            if (parse_double("--rtol", optarg, 0, &cli->opts.rtol) < 0)
                return FMUC_EXIT_USAGE;
            cli->set_rtol = 1;
            break;
        case FMUC_OPT_ATOL:
            if (parse_double("--atol", optarg, 0, &cli->opts.atol) < 0)
                return FMUC_EXIT_USAGE;
            cli->set_atol = 1;
            break;
        case FMUC_OPT_TMPDIR: cli->opts.tmp_parent = optarg; break;
        case FMUC_OPT_CONFIG: cli->config_path = optarg; break;
        case FMUC_OPT_PROFILE:
            if (fmuc_profile_parse(optarg, &cli->opts.profile) < 0) {
                fprintf(stderr, "fmucheck: --profile: '%s' is not one of interop, standard, "
                                "strict\n", optarg);
                return FMUC_EXIT_USAGE;
            }
            cli->set_profile = 1;
            break;
        case FMUC_OPT_ENERGY_SPEC: cli->opts.energy_spec = optarg; break;
        case FMUC_OPT_BASELINE: cli->baseline_path = optarg; break;
        case FMUC_OPT_ISOLATION: {
            int m = fmuc_sandbox_parse_mode(optarg);
            if (m < 0) {
                fprintf(stderr, "fmucheck: --isolation: '%s' is not one of auto, basic, strict\n",
                        optarg);
                return FMUC_EXIT_USAGE;
            }
            cli->opts.sandbox.mode = (fmuc_isolation_mode)m;
            break;
        }
        case FMUC_OPT_REQUIRE_ISOLATION:
            if (strcmp(optarg, "strict") && strcmp(optarg, "basic")) {
                fprintf(stderr, "fmucheck: --require-isolation: '%s' is not one of basic, strict\n",
                        optarg);
                return FMUC_EXIT_USAGE;
            }
            cli->opts.sandbox.require_strict = strcmp(optarg, "strict") == 0;
            break;
        case FMUC_OPT_NETWORK:
            if (strcmp(optarg, "deny") && strcmp(optarg, "allow")) {
                fprintf(stderr, "fmucheck: --network: '%s' is not one of deny, allow\n", optarg);
                return FMUC_EXIT_USAGE;
            }
            cli->opts.sandbox.network_allow = strcmp(optarg, "allow") == 0;
            break;
        case FMUC_OPT_NO_PRIVILEGE_DROP: cli->opts.sandbox.no_privilege_drop = 1; break;
        case FMUC_OPT_ALLOW_WRITE: {
            char *real = realpath(optarg, NULL);
            struct stat st;
            if (!real || stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
                fprintf(stderr, "fmucheck: --allow-write: '%s' is not a folder\n", optarg);
                free(real);
                return FMUC_EXIT_USAGE;
            }
            if (cli->opts.sandbox.nallow_write >= FMUC_SANDBOX_MAX_ALLOW) {
                fprintf(stderr, "fmucheck: --allow-write: at most %d folders\n",
                        FMUC_SANDBOX_MAX_ALLOW);
                free(real);
                return FMUC_EXIT_USAGE;
            }
            cli->opts.sandbox.allow_write[cli->opts.sandbox.nallow_write++] = real;
            break;
        }
        case FMUC_OPT_PASS_ENV:
            if (!optarg[0] || strchr(optarg, '=')) {
                fprintf(stderr, "fmucheck: --pass-env: '%s' is not a variable name\n", optarg);
                return FMUC_EXIT_USAGE;
            }
            if (cli->opts.sandbox.npass_env >= FMUC_SANDBOX_MAX_ALLOW) {
                fprintf(stderr, "fmucheck: --pass-env: at most %d variables\n",
                        FMUC_SANDBOX_MAX_ALLOW);
                return FMUC_EXIT_USAGE;
            }
            cli->opts.sandbox.pass_env[cli->opts.sandbox.npass_env++] = optarg;
            break;
        case FMUC_OPT_FAIL_ON:
            if (strcmp(optarg, "any") && strcmp(optarg, "new")) {
                fprintf(stderr, "fmucheck: --fail-on: '%s' is not one of any, new\n", optarg);
                return FMUC_EXIT_USAGE;
            }
            cli->fail_on_new = strcmp(optarg, "new") == 0;
            break;
        case FMUC_OPT_TIME_BUDGET:
            if (fmuc_cli_parse_time_budget(optarg, &cli->opts.time_budget_s) < 0) {
                fprintf(stderr, "fmucheck: --time-budget: '%s' is not auto, off or a number of "
                                "seconds > 0\n", optarg);
                return FMUC_EXIT_USAGE;
            }
            cli->set_time_budget = 1;
            break;
        case FMUC_OPT_CHECK_JOBS:
            if (parse_int("--check-jobs", optarg, 1, 2, &cli->opts.check_jobs) < 0)
                return FMUC_EXIT_USAGE;
            break;
        case FMUC_OPT_JOBS:
            if (parse_int("--jobs", optarg, 1, 256, &cli->jobs) < 0)
                return FMUC_EXIT_USAGE;
            break;
        case FMUC_OPT_SHARD: {
            const char *slash = strchr(optarg, '/');
            char ibuf[32];
            if (!slash || (size_t)(slash - optarg) >= sizeof ibuf) {
                fprintf(stderr, "fmucheck: --shard: '%s' is not I/N (e.g. 2/4)\n", optarg);
                return FMUC_EXIT_USAGE;
            }
            memcpy(ibuf, optarg, (size_t)(slash - optarg));
            ibuf[slash - optarg] = '\0';
            if (parse_int("--shard N", slash + 1, 1, 100000, &cli->shard_n) < 0 ||
                parse_int("--shard I", ibuf, 1, cli->shard_n, &cli->shard_i) < 0)
                return FMUC_EXIT_USAGE;
            break;
        }
        case ':':
            fprintf(stderr, "fmucheck: option '%s' needs a value\n", argv[optind - 1]);
            return FMUC_EXIT_USAGE;
        default:
            fprintf(stderr, "fmucheck: unknown option '%s' (try 'fmucheck --help')\n",
                    argv[optind - 1]);
            return FMUC_EXIT_USAGE;
        }
    }
    for (int i = optind; i < argc; i++) {
        if (cli->ninputs >= FMUC_CLI_MAX_INPUTS) {
            fprintf(stderr, "fmucheck: at most %d inputs\n", FMUC_CLI_MAX_INPUTS);
            return FMUC_EXIT_USAGE;
        }
        cli->inputs[cli->ninputs++] = argv[i];
    }
    /* E09: FMUC_TIMEOUT_MULTIPLIER (like CK_TIMEOUT_MULTIPLIER), the machine's default when the
     * option is not given; a config's timeouts.multiplier (explicit for this run) wins over it */
    const char *env_tmult = getenv("FMUC_TIMEOUT_MULTIPLIER");
    if (!cli->set_tmult && env_tmult && *env_tmult) {
        if (parse_double("FMUC_TIMEOUT_MULTIPLIER", env_tmult, 0.001,
                         &cli->opts.timeout_multiplier) < 0)
            return FMUC_EXIT_USAGE;
        cli->tmult_source = "environment";
    }
    if (!cli->list_checks)
        cli->list_json = 0;
    if (cli->fail_on_new && !cli->baseline_path) {
        fprintf(stderr, "fmucheck: --fail-on new needs --baseline\n");
        return FMUC_EXIT_USAGE;
    }
    const char *nc = getenv("NO_COLOR");
    int no_color = nc && *nc;
    cli->color = !no_color && isatty(STDERR_FILENO);
    cli->stdout_color = !no_color && isatty(STDOUT_FILENO);
    cli->stderr_tty = isatty(STDERR_FILENO);
    return -1;
}
