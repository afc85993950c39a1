/* hostile unmasks-fp-traps: fmi2Instantiate (and fmi2Reset) unmask the invalid, divide-by-zero
 * and overflow floating-point exceptions and return without restoring them. FMI 2.0.4 §2.1
 * forbids the change (api-process-state); before, the SIGFPE hit fmucheck's own code after the
 * call returned (one error, and both interfaces unusable, api-process-state not applicable). */
#include <fenv.h>

#include "../hostile_smd.h"

static fmi2Status unmask(fmuc_m_ctx *c, void *data)
{
    (void)c;
    (void)data;
    feenableexcept(FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW);
    return fmi2OK;
}

FMUC_HOSTILE_SMD(.start = unmask);
