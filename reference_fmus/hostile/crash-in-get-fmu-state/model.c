/* hostile crash-in-get-fmu-state: fmi2GetFMUstate raises SIGSEGV (canGetAndSetFMUstate="true").
 * eq-fmu-state and eq-serialize fail (the calls they probe); the checks that only use FMU states
 * (api-buffer-bounds, api-dependencies-observed) are not applicable naming eq-fmu-state, instead
 * of two errors. */
#include <signal.h>

#include "../hostile_smd.h"

static fmi2Status crash(fmuc_m_ctx *c, const void *data, size_t *size)
{
    (void)c;
    (void)data;
    (void)size;
    raise(SIGSEGV);
    return fmi2Error;
}

FMUC_HOSTILE_SMD(.state_size = crash);
