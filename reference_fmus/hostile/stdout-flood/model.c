/* hostile stdout-flood: 50 MB written to stdout in fmi2EnterInitializationMode (robustness B08:
 * the worker caps and counts the output; the run itself goes on). */
#include <stdio.h>
#include <string.h>

#include "../hostile_smd.h"

static fmi2Status flood(fmuc_m_ctx *c, void *data)
{
    char buf[65536];
    (void)c;
    (void)data;
    memset(buf, 'x', sizeof buf);
    buf[sizeof buf - 1] = '\n';
    for (size_t n = 0; n < 50u * 1000u * 1000u; n += sizeof buf)
        if (fwrite(buf, 1, sizeof buf, stdout) != sizeof buf)
            break;
    fflush(stdout);
    return fmi2OK;
}

FMUC_HOSTILE_SMD(.enter_init = flood);
