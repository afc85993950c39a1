/* fmucheck: entry point. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int main(int argc, char **argv)
{
    static fmuc_cli cli; /* large arrays: static storage, used only by main's thread */
    int rc = fmuc_cli_parse(&cli, argc, argv);
    if (rc >= 0)
        return rc;
    if (cli.list_checks)
        return fmuc_cli_list_checks(&cli);
    if (cli.ninputs == 0) {
        fprintf(stderr, "fmucheck: no FMU given (try 'fmucheck --help')\n");
        return FMUC_EXIT_USAGE;
    }
    if (cli.ninputs > 1) {
        fprintf(stderr, "fmucheck: several FMUs at once are not supported yet; give one\n");
        return FMUC_EXIT_USAGE;
    }
    return fmuc_cli_check_one(&cli, cli.inputs[0]);
}
