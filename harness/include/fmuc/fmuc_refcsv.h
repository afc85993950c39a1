/* Reference results in the FMI cross-check CSV format: a header row naming the columns (the first
 * is time, the others are variable names, optionally in double quotes with "" for a quote),
 * comma-separated, one row per time, numbers in C-locale notation (independent of setlocale).
 * Booleans may be written true/false. Blank lines and a UTF-8 BOM are ignored, CRLF accepted. */
#ifndef FMUC_REFCSV_H
#define FMUC_REFCSV_H

#include <stddef.h>

#include "fmuc/fmuc_err.h"

typedef struct fmuc_refcsv {
    char *name;        /* file name used in messages */
    size_t ncols;      /* data columns, excluding time */
    char **cols;       /* their names */
    size_t nrows;
    double *time;      /* nrows, non-decreasing */
    double *values;    /* nrows x ncols, row-major */
} fmuc_refcsv;

/** Read a file. Errors (FMUC_EINPUT) name file, line and column: "ref.csv:12:3: 'abc' is not a
 *  number". *out is always initialised; free with fmuc_refcsv_free. Limits: 1 GiB, 100000
 *  columns. Time must be finite and non-decreasing; values may be nan/inf only if spelled so. */
fmuc_err fmuc_refcsv_read(fmuc_refcsv *out, const char *path, fmuc_diag *diag);
/** The same from memory; name is used in messages. */
fmuc_err fmuc_refcsv_parse(fmuc_refcsv *out, const char *text, size_t len, const char *name,
                           fmuc_diag *diag);
void fmuc_refcsv_free(fmuc_refcsv *c);

/** Column index of a name, or -1. */
long fmuc_refcsv_column(const fmuc_refcsv *c, const char *name);
/** Value of column col at row r. */
static inline double fmuc_refcsv_at(const fmuc_refcsv *c, size_t r, size_t col)
{
    return c->values[r * c->ncols + col];
}

#endif
