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
    FMUC_EXIT_INTERNAL = 70    /* a bug or resource exhaustion in fmucheck itself */
};

#define FMUC_CLI_MAX_PATTERNS 64
#define FMUC_CLI_MAX_INPUTS 4096

typedef struct fmuc_cli {
    fmuc_options opts;
    const char *inputs[FMUC_CLI_MAX_INPUTS];
    size_t ninputs;
    const char *output_dir;
    const char *json_path;
    const char *junit_path;
    const char *only[FMUC_CLI_MAX_PATTERNS];
    size_t nonly;
    const char *skip[FMUC_CLI_MAX_PATTERNS];
    size_t nskip;
    int quiet, verbose, list_checks, list_json, no_html;
    int color;                  /* stderr is a TTY and NO_COLOR unset */
    int stdout_color;
} fmuc_cli;

int fmuc_cli_parse(fmuc_cli *cli, int argc, char **argv);
void fmuc_cli_usage(FILE *out);
int fmuc_cli_list_checks(const fmuc_cli *cli);
int fmuc_cli_check_one(const fmuc_cli *cli, const char *path);

#endif
