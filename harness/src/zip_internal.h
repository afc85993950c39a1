/* Private interface between fmu_open.c and zip_list.c: listing and validating an archive from an
 * open file descriptor, and streaming one entry's bytes with caps and CRC checks. */
#ifndef FMUC_ZIP_INTERNAL_H
#define FMUC_ZIP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <zip.h>

#include "fmuc/fmuc_fmu.h"

/** Effective limits (zero fields replaced by the defaults). */
void fmuc_zip__limits(fmuc_fmu_limits *out, const fmuc_fmu_limits *in);

/** Problems of one entry name (FMUC_ZIP_* name bits). */
uint32_t fmuc_zip__name_problems(const char *name, size_t len);

/** List and validate every entry of the archive in fd (size bytes). On FMUC_OK or FMUC_EZIP the
 *  listing is filled and *za is the open archive (NULL if libzip could not open it at all, then
 *  FMUC_EZIP). FMUC_EINPUT when this is not a ZIP archive. */
fmuc_err fmuc_zip__list(fmuc_zip_listing *out, zip_t **za, int fd, uint64_t size,
                        const fmuc_fmu_limits *lim, fmuc_diag *diag);

void fmuc_zip__listing_free(fmuc_zip_listing *l);

/** Sink for entry bytes; returns 0 or a negative fmuc_err. */
typedef int (*fmuc_zip__sink)(void *payload, const void *data, size_t n);

/** Stream entry i to sink, counting the bytes produced: per-entry cap, ratio cap (after 1 MiB),
 *  the running *total against max_total_bytes, CRC and zip_fclose errors. Sets problem bits on
 *  the entry and the listing; returns FMUC_EZIP when the entry is bad, or the sink's error. */
fmuc_err fmuc_zip__stream(zip_t *za, fmuc_zip_listing *l, size_t i, const fmuc_fmu_limits *lim,
                          uint64_t *total, fmuc_zip__sink sink, void *payload, fmuc_diag *diag);

/** The same stream pulled: open entry i, read its bytes with the same caps (a read returns the
 *  byte count, 0 at the end, -1 after an error, whose diagnostic is set and kept in err), then
 *  close, which checks the CRC and the size (pass the caller's own error, or FMUC_OK). */
typedef struct fmuc_zip__entry_reader {
    zip_file_t *zf;
    fmuc_zip_listing *l;
    fmuc_zip_entry *e;
    const fmuc_fmu_limits *lim;
    uint64_t *total, produced;
    fmuc_diag *diag;
    fmuc_err err;
    int eof;
} fmuc_zip__entry_reader;

fmuc_err fmuc_zip__entry_open(fmuc_zip__entry_reader *r, zip_t *za, fmuc_zip_listing *l, size_t i,
                              const fmuc_fmu_limits *lim, uint64_t *total, fmuc_diag *diag);
long fmuc_zip__entry_read(fmuc_zip__entry_reader *r, void *buf, size_t n);
fmuc_err fmuc_zip__entry_close(fmuc_zip__entry_reader *r, fmuc_err err);

#endif
