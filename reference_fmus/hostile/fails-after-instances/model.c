/* Hostile fixture (robustness B20, FMPy#110): SpringMassDamper that works for the first 12
 * instances of a process and refuses every later fmi2Instantiate/fmi2Reset (the start hook
 * fails), like an FMU that leaks a per-process resource. The battery alone never gets there;
 * --soak does. */
#include "../hostile_smd.h"

static unsigned instances_started; /* the defect: process-wide state that runs out */

static fmi2Status start_counted(fmuc_m_ctx *ctx, void *data)
{
    (void)data;
    if (++instances_started > 12) {
        fmuc_m_log(ctx, fmi2Error, NULL, "out of instance slots (%u started in this process)",
                   instances_started);
        return fmi2Error;
    }
    return fmi2OK;
}

FMUC_HOSTILE_SMD(.start = start_counted);
