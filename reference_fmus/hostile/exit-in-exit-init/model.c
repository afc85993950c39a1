/* hostile exit-in-exit-init: exit(0) inside fmi2ExitInitializationMode (robustness B06: a
 * status 0 before the worker's reply is a failure, not a pass). */
#include <stdlib.h>

#include "../hostile_smd.h"

static fmi2Status exit_now(fmuc_m_ctx *c, void *data)
{
    (void)c;
    (void)data;
    exit(0);
}

FMUC_HOSTILE_SMD(.exit_init = exit_now);
