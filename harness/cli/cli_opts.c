/* Command-line parsing. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

enum {
    OPT_VERSION = 256, OPT_SOAK, OPT_LIST, OPT_JSON, OPT_ONLY, OPT_SKIP, OPT_TIMEOUT, OPT_TMULT, OPT_INPUT,
    OPT_NATIVE, OPT_COMPARE, OPT_REFERENCE, OPT_RTOL, OPT_ATOL, OPT_JUNIT, OPT_NO_HTML, OPT_TMPDIR,
    OPT_CONFIG, OPT_BASELINE, OPT_FAIL_ON, OPT_SHARD, OPT_ENERGY_SPEC, OPT_ISOLATION,
    OPT_REQUIRE_ISOLATION, OPT_NETWORK, OPT_NO_PRIV_DROP, OPT_ALLOW_WRITE, OPT_PROFILE,
    OPT_PASS_ENV
};

static const struct option long_opts[] = {
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {"output", required_argument, NULL, 'o'},
    {"json", optional_argument, NULL, OPT_JSON},
    {"junit", required_argument, NULL, OPT_JUNIT},
    {"no-html", no_argument, NULL, OPT_NO_HTML},
    {"only", required_argument, NULL, OPT_ONLY},
    {"skip", required_argument, NULL, OPT_SKIP},
    {"list-checks", no_argument, NULL, OPT_LIST},
    {"quiet", no_argument, NULL, 'q'},
    {"verbose", no_argument, NULL, 'v'},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"timeout-multiplier", required_argument, NULL, OPT_TMULT},
    {"input", required_argument, NULL, OPT_INPUT},
    {"native", required_argument, NULL, OPT_NATIVE},
    {"compare", required_argument, NULL, OPT_COMPARE},
    {"reference", required_argument, NULL, OPT_REFERENCE},
    {"rtol", required_argument, NULL, OPT_RTOL},
    {"atol", required_argument, NULL, OPT_ATOL},
    {"tmpdir", required_argument, NULL, OPT_TMPDIR},
    {"config", required_argument, NULL, OPT_CONFIG},
    {"profile", required_argument, NULL, OPT_PROFILE},
    {"baseline", required_argument, NULL, OPT_BASELINE},
    {"fail-on", required_argument, NULL, OPT_FAIL_ON},
    {"jobs", required_argument, NULL, 'j'},
    {"shard", required_argument, NULL, OPT_SHARD},
    {"energy-spec", required_argument, NULL, OPT_ENERGY_SPEC},
    {"soak", required_argument, NULL, OPT_SOAK},
    {"isolation", required_argument, NULL, OPT_ISOLATION},
    {"require-isolation", required_argument, NULL, OPT_REQUIRE_ISOLATION},
    {"network", required_argument, NULL, OPT_NETWORK},
    {"no-privilege-drop", no_argument, NULL, OPT_NO_PRIV_DROP},
    {"allow-write", required_argument, NULL, OPT_ALLOW_WRITE},
    {"pass-env", required_argument, NULL, OPT_PASS_ENV},
    {NULL, 0, NULL, 0}};

void fmuc_cli_usage(FILE *out)
{
    fputs("usage: fmucheck [options] FILE.fmu\n"
          "       fmucheck [options] [-j N] [--shard I/N] FILE.fmu|DIR ...   (a batch)\n"
          "       fmucheck merge OUTDIR index1.json index2.json ...\n"
          "       fmucheck --list-checks [--json]\n"
          "       fmucheck explain CHECK-ID   (rule, levels, why, fix, reproduce)\n"
          "\n"
          "Checks an FMI 2.0 FMU against the standard and writes an evidence report\n"
          "(report.json, report.html) into the output folder. A batch (several FMUs, or a\n"
          "folder searched for *.fmu) writes OUTDIR/<fmu name>/ per FMU plus index.json and\n"
          "index.html.\n"
          "\n"
          "options:\n"
          "  -o, --output DIR          output folder (default: ./<fmu name>.fmucheck;\n"
          "                            batch: ./fmucheck-batch)\n"
          "      --json[=FILE]         also write the JSON report to FILE ('-' = stdout);\n"
          "                            with --list-checks: list as JSON\n"
          "      --junit FILE          write a JUnit XML file for CI\n"
          "      --no-html             do not write report.html\n"
          "      --only PATTERN        run only checks whose id matches (glob, repeatable,\n"
          "                            comma-separated lists allowed), e.g. 'md-*'\n"
          "      --skip PATTERN        skip checks whose id matches\n"
          "      --list-checks         list every check with id, its level in each profile,\n"
          "                            spec section\n"
          "      --profile P           what fails (default interop): interop: what breaks or\n"
          "                            misleads a conforming importer; standard: every\n"
          "                            violated must rule of the text; strict: every warning\n"
          "      --timeout SECONDS     wall-clock limit per dynamic check (default 60; the\n"
          "                            nominal runs 300); after the nominal runs 10x their\n"
          "                            time, at least 1 s, at most SECONDS (default 300)\n"
          "      --timeout-multiplier X  scale every timeout (slow machines, sanitizers)\n"
          "      --input FILE.csv      drive the FMU's inputs from a CSV (time + input names)\n"
          "      --native l2|l3|none   native model for the bit-exact round trip\n"
          "                            (default: automatic for vdsim FMUs)\n"
          "      --compare OTHER.fmu   compare outputs with another FMU\n"
          "      --reference REF.csv   compare outputs with reference results\n"
          "      --rtol X, --atol X    tolerances for --compare/--reference (1e-6, 1e-9)\n"
          "      --tmpdir DIR          where private temporary folders are made\n"
          "      --energy-spec FILE    JSON spec for me-energy-residual (opt-in)\n"
          "      --soak N              repeat the nominal CS/ME runs N times in one\n"
          "                            process (faults that need many instances)\n"
          "      --config FILE         gating config (JSON): profile, levels, waivers,\n"
          "                            tolerances, timeouts, pinned sha256\n"
          "      --baseline REPORT     compare with an earlier report.json (batch: the\n"
          "                            earlier OUTDIR or its index.json)\n"
          "      --fail-on any|new     with new: only new failures against the baseline\n"
          "                            set the exit code (default any)\n"
          "  -j, --jobs N              batch: check N FMUs in parallel (default 1)\n"
          "      --shard I/N           batch: keep the FMUs at sorted positions k\n"
          "                            (from 0) with k % N == I-1\n"
          "      --isolation auto|basic|strict  worker sandbox level (default auto: the\n"
          "                            strongest the kernel offers; strict: refuse when a\n"
          "                            part is missing)\n"
          "      --require-isolation strict  refuse (exit 64) unless workers get the strict\n"
          "                            level, naming what is missing\n"
          "      --network deny|allow  FMU network access (default deny)\n"
          "      --no-privilege-drop   as root, run FMU code as root (default: user nobody)\n"
          "      --allow-write DIR     let FMU code write beneath DIR too (repeatable)\n"
          "      --pass-env NAME       let FMU code see the environment variable NAME too\n"
          "                            (repeatable; by default it sees PATH, HOME, TMPDIR,\n"
          "                            LANG of its own, nothing of the caller's)\n"
          "  -q, --quiet               print only the verdict line\n"
          "  -v, --verbose             print every check's messages\n"
          "  -h, --help                this text\n"
          "      --version             version and library versions\n"
          "\n"
          "exit codes:\n"
          "  0  all checks passed (warnings and not-applicable allowed)\n"
          "  1  at least one check failed (under the selected profile)\n"
          "  2  at least one check ended in error (the FMU crashed or hung, or a check\n"
          "     could not be carried out)\n"
          "  3  input rejected: not a readable, safe FMU file\n"
          "  4  an FMI 1.0 or 3.0 FMU: recognised but not supported yet\n"
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
    if (errno || !end || end == s || *end || !(v >= lo) || v != v) {
        fprintf(stderr, "fmucheck: %s: '%s' is not a number >= %g\n", opt, s, lo);
        return -1;
    }
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
    cli->opts.self_exe = argv[0];
    int c;
    opterr = 0;
    cli->jobs = 1;
    while ((c = getopt_long(argc, argv, ":ho:qvj:", long_opts, NULL)) != -1) {
        switch (c) {
        case 'h': fmuc_cli_usage(stdout); return FMUC_EXIT_OK;
        case OPT_VERSION:
            printf("fmucheck %s\n", FMUC_VERSION);
            return FMUC_EXIT_OK;
        case 'o': cli->output_dir = optarg; break;
        case OPT_JSON:
            cli->list_json = 1;
            cli->json_path = optarg;
            break;
        case OPT_JUNIT: cli->junit_path = optarg; break;
        case OPT_NO_HTML: cli->no_html = 1; break;
        case OPT_ONLY:
            if (add_patterns(cli->only, &cli->nonly, optarg, "--only") < 0)
                return FMUC_EXIT_USAGE;
            break;
        case OPT_SKIP:
            if (add_patterns(cli->skip, &cli->nskip, optarg, "--skip") < 0)
                return FMUC_EXIT_USAGE;
            break;
        case OPT_LIST: cli->list_checks = 1; break;
        case 'q': cli->quiet = 1; break;
        case 'v': cli->verbose = 1; cli->opts.verbose = 1; break;
        case OPT_TIMEOUT:
            if (parse_double("--timeout", optarg, 0.001, &cli->opts.timeout_s) < 0)
                return FMUC_EXIT_USAGE;
            cli->set_timeout = 1;
            cli->opts.timeout_explicit = 1;
            break;
        case OPT_TMULT:
            if (parse_double("--timeout-multiplier", optarg, 0.001, &cli->opts.timeout_multiplier) < 0)
                return FMUC_EXIT_USAGE;
            cli->set_tmult = 1;
            cli->tmult_source = "option";
            break;
        case OPT_INPUT: cli->opts.input_csv = optarg; break;
        case OPT_SOAK: {
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
        case OPT_NATIVE:
            if (strcmp(optarg, "l2") && strcmp(optarg, "l3") && strcmp(optarg, "none")) {
                fprintf(stderr, "fmucheck: --native: '%s' is not one of l2, l3, none\n", optarg);
                return FMUC_EXIT_USAGE;
            }
            cli->opts.native = optarg;
            break;
        case OPT_COMPARE: cli->opts.compare_fmu = optarg; break;
        case OPT_REFERENCE: cli->opts.reference_csv = optarg; break;
        case OPT_RTOL:
            if (parse_double("--rtol", optarg, 0, &cli->opts.rtol) < 0)
                return FMUC_EXIT_USAGE;
            cli->set_rtol = 1;
            break;
        case OPT_ATOL:
            if (parse_double("--atol", optarg, 0, &cli->opts.atol) < 0)
                return FMUC_EXIT_USAGE;
            cli->set_atol = 1;
            break;
        case OPT_TMPDIR: cli->opts.tmp_parent = optarg; break;
        case OPT_CONFIG: cli->config_path = optarg; break;
        case OPT_PROFILE:
            if (fmuc_profile_parse(optarg, &cli->opts.profile) < 0) {
                fprintf(stderr, "fmucheck: --profile: '%s' is not one of interop, standard, "
                                "strict\n", optarg);
                return FMUC_EXIT_USAGE;
            }
            cli->set_profile = 1;
            break;
        case OPT_ENERGY_SPEC: cli->opts.energy_spec = optarg; break;
        case OPT_BASELINE: cli->baseline_path = optarg; break;
        case OPT_ISOLATION: {
            int m = fmuc_sandbox_parse_mode(optarg);
            if (m < 0) {
                fprintf(stderr, "fmucheck: --isolation: '%s' is not one of auto, basic, strict\n",
                        optarg);
                return FMUC_EXIT_USAGE;
            }
            cli->opts.sandbox.mode = (fmuc_isolation_mode)m;
            break;
        }
        case OPT_REQUIRE_ISOLATION:
            if (strcmp(optarg, "strict") && strcmp(optarg, "basic")) {
                fprintf(stderr, "fmucheck: --require-isolation: '%s' is not one of basic, strict\n",
                        optarg);
                return FMUC_EXIT_USAGE;
            }
            cli->opts.sandbox.require_strict = strcmp(optarg, "strict") == 0;
            break;
        case OPT_NETWORK:
            if (strcmp(optarg, "deny") && strcmp(optarg, "allow")) {
                fprintf(stderr, "fmucheck: --network: '%s' is not one of deny, allow\n", optarg);
                return FMUC_EXIT_USAGE;
            }
            cli->opts.sandbox.network_allow = strcmp(optarg, "allow") == 0;
            break;
        case OPT_NO_PRIV_DROP: cli->opts.sandbox.no_privilege_drop = 1; break;
        case OPT_ALLOW_WRITE: {
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
        case OPT_PASS_ENV:
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
        case OPT_FAIL_ON:
            if (strcmp(optarg, "any") && strcmp(optarg, "new")) {
                fprintf(stderr, "fmucheck: --fail-on: '%s' is not one of any, new\n", optarg);
                return FMUC_EXIT_USAGE;
            }
            cli->fail_on_new = strcmp(optarg, "new") == 0;
            break;
        case 'j':
            if (parse_int("--jobs", optarg, 1, 256, &cli->jobs) < 0)
                return FMUC_EXIT_USAGE;
            break;
        case OPT_SHARD: {
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
