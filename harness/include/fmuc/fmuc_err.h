/* Error codes of the harness (what fmucheck itself could not do) and the diagnostics sink that
 * carries the detail. An FMU's fmi2Status is evidence, never one of these. */
#ifndef FMUC_ERR_H
#define FMUC_ERR_H

#include <stddef.h>

typedef enum {
    FMUC_OK = 0,
    FMUC_ERROR = -1,
    FMUC_ENOMEM = -2,
    FMUC_EIO = -3,
    FMUC_EZIP = -4,   /* archive rejected */
    FMUC_EXML = -5,   /* modelDescription unreadable */
    FMUC_EDLOPEN = -6,
    FMUC_ESYMBOL = -7,
    FMUC_ETIMEOUT = -8,
    FMUC_ECRASH = -9,
    FMUC_EINPUT = -10, /* not a readable FMU file */
    FMUC_EUNSUPPORTED = -11 /* an FMI version other than 2.0 */
} fmuc_err;

/** Diagnostics sink passed down from the CLI: the last error message, no globals. */
typedef struct fmuc_diag {
    char msg[1024];
    fmuc_err code;
} fmuc_diag;

/** Record an error in diag (may be NULL) and return code. */
fmuc_err fmuc_diag_set(fmuc_diag *diag, fmuc_err code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

const char *fmuc_err_name(fmuc_err e);

/** Versions of libzip and libxml2 in use (for the report). */
const char *fmuc_libzip_version(void);
const char *fmuc_libxml2_version(void);

#endif
