/* fmucheck CLI internals: options, exit codes, output. Only harness/cli/ prints or exits. */
#ifndef FMUC_CLI_H
#define FMUC_CLI_H

#include <stdio.h>

#include "fmuc/fmuc_options.h"
#include "runner.h"

/* Exit codes (documented in README.md and --help). */
enum {
    FMUC_EXIT_OK = 0,          /* every check passed (warnings and not-applicable allowed) */
    FMUC_EXIT_FAIL = 1,        /* at least one check failed */
    FMUC_EXIT_ERROR = 2,       /* at least one check ended in error (crash, hang, could not run) */
    FMUC_EXIT_REJECTED = 3,    /* input rejected: not a readable or safe FMU file */
    FMUC_EXIT_UNSUPPORTED = 4, /* an FMI 1.0 or 3.0 FMU: recognised, not yet supported */
    FMUC_EXIT_USAGE = 64,      /* bad command line, or the environment (output dir, temp dir) */
    FMUC_EXIT_INTERNAL = 70,   /* a bug or resource exhaustion in fmucheck itself */
    FMUC_EXIT_SIGINT = 130,    /* interrupted by SIGINT (128 + 2): report marked incomplete */
    FMUC_EXIT_SIGTERM = 143    /* interrupted by SIGTERM (128 + 15) */
};

#define FMUC_CLI_MAX_PATTERNS 64
#define FMUC_CLI_MAX_INPUTS 4096

/* ---- gating config (--config FILE, cli_config.c) ------------------------------------------- */

typedef struct fmuc_cli_level_rule {
    const char *pattern;        /* check id or glob */
    fmuc_level level;
} fmuc_cli_level_rule;

typedef struct fmuc_cli_waiver {
    const char *check;          /* id or glob */
    const char *fmu;            /* file name or glob, NULL: any */
    const char *sha256;         /* lowercase hex, NULL: any */
    const char *reason;
    const char *expires;        /* YYYY-MM-DD (last day it applies) */
    int expired;                /* expires < today (UTC) */
} fmuc_cli_waiver;

typedef struct fmuc_cli_config {
    const char *path;           /* the file, NULL when no --config */
    cJSON *root;                /* parsed file: every string below points into it */
    int has_profile;            /* "profile" given: */
    fmuc_profile profile;       /* interop, standard, strict ("lenient": interop, before 16) */
    const char **advisory;      /* MUST failures of these become warnings */
    size_t nadvisory;
    fmuc_cli_level_rule *levels;
    size_t nlevels;
    fmuc_cli_waiver *waivers;
    size_t nwaivers;
    const char **pins;          /* allowed sha256 values ("sha256": string or array) */
    size_t npins;
    const char *pass_env[FMUC_SANDBOX_MAX_ALLOW]; /* "passEnv": names added to --pass-env */
    size_t npass_env;
    int has_rtol, has_atol, has_timeout, has_tmult, has_stop_time, has_time_budget;
    double time_budget_s;       /* "timeBudget": "auto" | "off" | seconds (as --time-budget) */
    double rtol, atol, timeout_s, tmult, stop_time; /* stop_time: "stopTime" (as --stop-time) */
} fmuc_cli_config;

typedef struct fmuc_cli {
    fmuc_options opts;
    const char *inputs[FMUC_CLI_MAX_INPUTS];
    size_t ninputs;
    const char *output_dir;
    const char *json_path;
    const char *junit_path;
    const char *only[FMUC_CLI_MAX_PATTERNS];
    size_t nonly;
    const char *skip[FMUC_CLI_MAX_PATTERNS + 1]; /* +1: "*" appended when a signal stops the run */
    size_t nskip;
    int quiet, verbose, list_checks, list_json, no_html;
    int color;                  /* stderr is a TTY and NO_COLOR unset */
    int stdout_color;
    int stderr_tty;             /* stderr is a terminal: live progress line */
    /* set on the command line (they win over the config file) */
    int set_rtol, set_atol, set_timeout, set_tmult, set_profile, set_time_budget;
    const char *config_path;    /* --config */
    fmuc_cli_config config;
    const char *baseline_path;  /* --baseline old/report.json (batch: old OUTDIR or its index.json) */
    int fail_on_new;            /* --fail-on new */
    int jobs;                   /* -j N (batch), default 1 */
    int shard_i, shard_n;       /* --shard i/n (1-based i), 0/0 when not sharded */
    int batch_child;            /* this process checks one FMU of a batch */
    const char *tmult_source;   /* where timeout_multiplier came from: option, environment, config */
    unsigned preflight_raised;  /* 1u << RLIMIT_*: soft limits the preflight raised */
    int proc_available;         /* /proc is mounted (the worker's escaped-process sweep uses it) */
} fmuc_cli;

/** E07: check the inherited limits (RLIMIT_NOFILE, RLIMIT_AS, RLIMIT_DATA) against what a run
 *  needs, raising soft limits up to the hard limit; notes whether /proc is there. Prints the
 *  limit that is too small and returns FMUC_EXIT_USAGE, or -1 when fine. */
int fmuc_cli_preflight(fmuc_cli *cli);
/** E09: the effective limits of this run (timeouts, multiplier and its source, worker rlimits,
 *  the inherited rlimits, /proc) for the report's options.limits. */
cJSON *fmuc_cli_limits_json(const fmuc_cli *cli);

int fmuc_cli_parse(fmuc_cli *cli, int argc, char **argv);
/** "auto" (FMUC_TIME_BUDGET_AUTO), "off" (0) or seconds > 0 into *out; -1 when s is none. */
int fmuc_cli_parse_time_budget(const char *s, double *out);
void fmuc_cli_usage(FILE *out);
int fmuc_cli_list_checks(const fmuc_cli *cli);
int fmuc_cli_check_one(fmuc_cli *cli, const char *path);

/** Load and validate cli->config_path into cli->config and apply its tolerances/timeouts to
 *  cli->opts where the command line did not set them. Prints the problem (file and key) and
 *  returns FMUC_EXIT_USAGE on a bad file, -1 when fine. */
int fmuc_cli_config_load(fmuc_cli *cli);
void fmuc_cli_config_free(fmuc_cli_config *c);
/** Runner hook: the config's level for check_id (advisory, levels); nonzero when it differs from
 *  the check's own. */
int fmuc_cli_config_level(const char *check_id, fmuc_level *level, void *payload);
/** After the run: apply waivers under every profile (recorded in
 *  fmuc_result.waiver), flag expired ones, append the "config-gating" result when the config has
 *  problems to show. Returns FMUC_ENOMEM or FMUC_OK; retallies rep. */
fmuc_err fmuc_cli_config_apply(const fmuc_cli_config *c, fmuc_report *rep);
/** Is sha256 allowed by the pin (or no pin)? */
int fmuc_cli_config_pin_ok(const fmuc_cli_config *c, const char *sha256);

/** Compare rep with the earlier report at path (by check id). Returns the "baseline" object
 *  (newFailures, fixed, unchangedFailures, notRun arrays of ids) or NULL with a message in why. */
cJSON *fmuc_cli_baseline_compare(const fmuc_report *rep, const char *path, char *why, size_t n);
/** The exit code under --fail-on new: from the new failures only. */
int fmuc_cli_baseline_exit(const cJSON *baseline);

/* ---- signals (cli_signal.c) ------------------------------------------------------------------ */

/** SIGINT/SIGTERM: the first sets the stop flag (and, in kill mode, kills our child processes
 *  and keeps killing new ones every 50 ms); a second one ends the process at once. */
void fmuc_cli_signals_install(void);
/** 0, or the first stop signal received. */
int fmuc_cli_signal_stop(void);
/** Kill mode: on (while checks run in this process) the signal handler kills the workers. */
void fmuc_cli_signals_kill_children(int on);

/* ---- batches (cli_batch.c) ------------------------------------------------------------------- */

/** Is this command line a batch (several inputs, a directory, or --shard)? */
int fmuc_cli_is_batch(const fmuc_cli *cli);
int fmuc_cli_batch(fmuc_cli *cli);
/** `fmucheck merge OUT index1.json ...` */
int fmuc_cli_merge(int argc, char **argv);
/** `fmucheck explain ID` (cli_explain.c): one check's registry entry in words; 64 on an
 *  unknown id. */
int fmuc_cli_explain(int argc, char **argv);

/* ---- small shared helpers (cli_util.c) ------------------------------------------------------- */
int fmuc_cli_make_dirs(const char *path);
/** Write len bytes to path through a temp file + rename (complete or absent). 0 or -1 (errno). */
int fmuc_cli_write_file_atomic(const char *path, const char *data, size_t len);
char *fmuc_cli_utc_now(void);
/** "YYYY-MM-DD" of today, UTC. */
void fmuc_cli_today(char out[11]);
/** The FMU file's base name without ".fmu". */
char *fmuc_cli_stem(const char *path);
/** Read a whole file (NUL-terminated) or NULL. */
char *fmuc_cli_read_file(const char *path, size_t *len);

#endif
