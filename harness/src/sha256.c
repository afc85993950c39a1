/* SHA-256 of a file's bytes (libcrypto EVP), from a path or an already open descriptor. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "fmuc/fmuc_fmu.h"
#include "sha256_internal.h"

fmuc_err fmuc_sha256__fd(char out[65], int fd, uint64_t *nbytes, fmuc_diag *diag)
{
    out[0] = '\0';
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (!ctx)
        return fmuc_diag_set(diag, FMUC_ENOMEM, "out of memory (sha256)");
    fmuc_err err = FMUC_OK;
    unsigned char buf[1 << 16];
    uint64_t off = 0;
    if (EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) {
        err = fmuc_diag_set(diag, FMUC_ERROR, "sha256 initialisation failed");
        goto out;
    }
    for (;;) {
        ssize_t k = pread(fd, buf, sizeof buf, (off_t)off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            err = fmuc_diag_set(diag, FMUC_EIO, "read error while hashing: %s", strerror(errno));
            goto out;
        }
        if (k == 0)
            break;
        if (EVP_DigestUpdate(ctx, buf, (size_t)k) != 1) {
            err = fmuc_diag_set(diag, FMUC_ERROR, "sha256 update failed");
            goto out;
        }
        off += (uint64_t)k;
    }
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    if (EVP_DigestFinal_ex(ctx, md, &mdlen) != 1 || mdlen != 32) {
        err = fmuc_diag_set(diag, FMUC_ERROR, "sha256 finalisation failed");
        goto out;
    }
    static const char hex[] = "0123456789abcdef";
    for (unsigned i = 0; i < 32; i++) {
        out[2 * i] = hex[md[i] >> 4];
        out[2 * i + 1] = hex[md[i] & 15];
    }
    out[64] = '\0';
    if (nbytes)
        *nbytes = off;
out:
    EVP_MD_CTX_free(ctx);
    return err;
}

fmuc_err fmuc_sha256_file(char out[65], const char *path, fmuc_diag *diag)
{
    out[0] = '\0';
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return fmuc_diag_set(diag, FMUC_EINPUT, "%s: %s", path, strerror(errno));
    fmuc_err err = fmuc_sha256__fd(out, fd, NULL, diag);
    close(fd);
    return err;
}
