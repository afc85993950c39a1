/* SHA-256 of an open descriptor (reads with pread from offset 0; the file offset is untouched). */
#ifndef FMUC_SHA256_INTERNAL_H
#define FMUC_SHA256_INTERNAL_H

#include <stdint.h>

#include "fmuc/fmuc_err.h"

fmuc_err fmuc_sha256__fd(char out[65], int fd, uint64_t *nbytes, fmuc_diag *diag);

#endif
