/* fmucheck: entry point. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int main(int argc, char **argv)
{
    static fmuc_cli cli; /* large arrays: static storage, used only by main's thread */
    if (argc >= 2 && strcmp(argv[1], "merge") == 0)
        return fmuc_cli_merge(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "explain") == 0)
        return fmuc_cli_explain(argc - 1, argv + 1);
    int rc = fmuc_cli_parse(&cli, argc, argv);
    if (rc >= 0)
        return rc;
    if (cli.list_checks)
        return fmuc_cli_list_checks(&cli);
    if (cli.ninputs == 0) {
        fprintf(stderr, "fmucheck: no FMU given (try 'fmucheck --help')\n");
        return FMUC_EXIT_USAGE;
    }
    rc = fmuc_cli_config_load(&cli);
    if (rc >= 0)
        return rc;
    rc = fmuc_cli_preflight(&cli);
    if (rc >= 0) {
        fmuc_cli_config_free(&cli.config);
        return rc;
    }
    int batch = fmuc_cli_is_batch(&cli);
    if (cli.baseline_path && !batch) { /* fail fast on an unusable baseline */
        char why[256];
        fmuc_report empty;
        memset(&empty, 0, sizeof empty);
        cJSON *b = fmuc_cli_baseline_compare(&empty, cli.baseline_path, why, sizeof why);
        if (!b) {
            fprintf(stderr, "fmucheck: --baseline %s: %s\n", cli.baseline_path, why);
            fmuc_cli_config_free(&cli.config);
            return FMUC_EXIT_USAGE;
        }
        cJSON_Delete(b);
    }
    fmuc_cli_signals_install();
    rc = batch ? fmuc_cli_batch(&cli) : fmuc_cli_check_one(&cli, cli.inputs[0]);
    fmuc_cli_config_free(&cli.config);
    return rc;
}
