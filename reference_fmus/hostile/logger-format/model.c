/* hostile logger-format: the glue (FMUC_HOSTILE_LOGGER_FORMAT) passes every message to the host
 * logger as the format "%s%s%n" without arguments; this model logs at every initialization so
 * the logger is reached in every run (robustness B15: the host must not use FMU text as a
 * format with %n). */
#include "../hostile_smd.h"

static fmi2Status log_init(fmuc_m_ctx *c, void *data)
{
    (void)data;
    fmuc_m_log(c, fmi2Warning, NULL, "entering initialization");
    return fmi2OK;
}

FMUC_HOSTILE_SMD(.enter_init = log_init);
