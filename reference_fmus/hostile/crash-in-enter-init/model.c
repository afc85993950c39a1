/* hostile crash-in-enter-init: raise(SIGSEGV) inside fmi2EnterInitializationMode, a phase every
 * dynamic check needs: one error on the first check that initializes, the later checks
 * not-applicable naming it (issue 16, verdict semantics). */
#include <signal.h>

#include "../hostile_smd.h"

static fmi2Status crash_now(fmuc_m_ctx *c, void *data)
{
    (void)c;
    (void)data;
    raise(SIGSEGV);
    return fmi2Error;
}

FMUC_HOSTILE_SMD(.enter_init = crash_now);
