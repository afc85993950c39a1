/* The diagnostics sink and option defaults. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fmuc/fmuc_err.h"
#include "fmuc/fmuc_options.h"

fmuc_err fmuc_diag_set(fmuc_diag *diag, fmuc_err code, const char *fmt, ...)
{
    if (diag) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(diag->msg, sizeof diag->msg, fmt, ap);
        va_end(ap);
        diag->code = code;
    }
    return code;
}

const char *fmuc_err_name(fmuc_err e)
{
    switch (e) {
    case FMUC_OK: return "ok";
    case FMUC_ERROR: return "error";
    case FMUC_ENOMEM: return "out of memory";
    case FMUC_EIO: return "i/o error";
    case FMUC_EZIP: return "archive rejected";
    case FMUC_EXML: return "model description unreadable";
    case FMUC_EDLOPEN: return "library could not be loaded";
    case FMUC_ESYMBOL: return "symbol missing";
    case FMUC_ETIMEOUT: return "timeout";
    case FMUC_ECRASH: return "crash";
    case FMUC_EINPUT: return "not a readable FMU";
    case FMUC_EUNSUPPORTED: return "unsupported FMI version";
    }
    return "unknown error";
}

void fmuc_options_init(fmuc_options *o)
{
    memset(o, 0, sizeof *o);
    o->timeout_s = 60.0;
    o->timeout_multiplier = 1.0;
    o->rlimit_as_bytes = 4ull << 30;    /* the worker's defaults, here so the report can name them */
    o->rlimit_fsize_bytes = 1ull << 30;
    o->rtol = 1e-6;
    o->atol = 1e-9;
    o->capture_cap_bytes = 1u << 20;
    o->profile = FMUC_PROFILE_INTEROP;
    o->check_jobs = 1; /* a library caller forks no lanes unless it asks (the CLI: 0, automatic) */
}
