/* hostile fork-and-continue: fmi2ExitInitializationMode calls fork() and both processes return
 * fmi2OK, so a copy of the importer carries on beside it. In a worker the copy must end as soon
 * as it is back in fmucheck's code (fmuc_worker__fork_guard): before, both copies stepped on and
 * wrote a reply, and a timing-dependent number of checks ended in error. */
#include <unistd.h>

#include "../hostile_smd.h"

static fmi2Status fork_and_continue(fmuc_m_ctx *c, void *data)
{
    (void)c;
    (void)data;
    (void)fork();
    return fmi2OK;
}

FMUC_HOSTILE_SMD(.exit_init = fork_and_continue);
