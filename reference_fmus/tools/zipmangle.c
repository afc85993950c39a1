/* zipmangle: rewrite an FMU (zip) to inject exactly one archive defect, for broken reference
 * FMUs whose defect CMake's zip writer cannot produce. Host tool; prints errors to stderr.
 *
 *   zipmangle IN OUT OP [ARGS...]     (IN may equal OUT)
 *
 * OPs (libzip): add NAME [TEXT]        add a deflated file entry (UTF-8 flagged if non-ASCII)
 *               add-stored NAME [TEXT] add a stored file entry
 *               symlink NAME TARGET    add an entry whose Unix mode is a symbolic link
 *               store NAME             re-store an existing entry uncompressed
 *               copy NAME NEWNAME      add a copy of an entry under another name
 *               rename NAME NEWNAME    rename an entry
 * OPs (raw patch of local and central headers of entry NAME, or of the end record):
 *               set-method NAME N      compression method field
 *               set-flags NAME MASK    OR MASK into the general-purpose bit flag
 *               set-version NAME N     "version needed to extract"
 *               split                  disk numbers 1 in the end-of-central-directory record
 * In arguments, %XX stands for the byte 0xXX (non-ASCII names survive CMake's argument split). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <zip.h>

static int copy_file(const char *in, const char *out)
{
    if (strcmp(in, out) == 0)
        return 0;
    FILE *fi = fopen(in, "rb"), *fo = fi ? fopen(out, "wb") : NULL;
    int rc = 0;
    char buf[65536];
    size_t n;
    if (!fi || !fo) {
        fprintf(stderr, "zipmangle: cannot copy %s to %s: %s\n", in, out, strerror(errno));
        rc = -1;
    }
    while (rc == 0 && (n = fread(buf, 1, sizeof buf, fi)) > 0)
        if (fwrite(buf, 1, n, fo) != n)
            rc = -1;
    if (fi)
        fclose(fi);
    if (fo && fclose(fo) != 0)
        rc = -1;
    return rc;
}

static int with_zip(const char *path, const char *op, int argc, char **argv)
{
    int zerr = 0;
    zip_t *za = zip_open(path, 0, &zerr);
    if (!za) {
        fprintf(stderr, "zipmangle: cannot open %s (libzip error %d)\n", path, zerr);
        return -1;
    }
    int rc = -1;
    if ((strcmp(op, "add") == 0 || strcmp(op, "add-stored") == 0 || strcmp(op, "symlink") == 0) &&
        argc >= 1) {
        const char *text = argc >= 2 ? argv[1] : "fmucheck fixture\n";
        size_t len = strlen(text);
        char *copy = malloc(len + 1);
        memcpy(copy, text, len + 1);
        zip_source_t *src = zip_source_buffer(za, copy, len, 1);
        int ascii = 1;
        for (const unsigned char *p = (const unsigned char *)argv[0]; *p; p++)
            ascii &= *p < 0x80;
        zip_int64_t idx = src ? zip_file_add(za, argv[0], src, ascii ? ZIP_FL_ENC_RAW : ZIP_FL_ENC_UTF_8)
                              : -1;
        if (idx < 0) {
            zip_source_free(src);
        } else if (strcmp(op, "symlink") == 0) {
            rc = zip_file_set_external_attributes(za, (zip_uint64_t)idx, 0, ZIP_OPSYS_UNIX,
                                                  (zip_uint32_t)(S_IFLNK | 0777) << 16);
            if (rc == 0)
                rc = zip_set_file_compression(za, (zip_uint64_t)idx, ZIP_CM_STORE, 0);
        } else {
            rc = zip_file_set_external_attributes(za, (zip_uint64_t)idx, 0, ZIP_OPSYS_UNIX,
                                                  (zip_uint32_t)(S_IFREG | 0644) << 16);
            if (rc == 0 && strcmp(op, "add-stored") == 0)
                rc = zip_set_file_compression(za, (zip_uint64_t)idx, ZIP_CM_STORE, 0);
        }
    } else if (strcmp(op, "rename") == 0 && argc >= 2) {
        zip_int64_t idx = zip_name_locate(za, argv[0], ZIP_FL_ENC_RAW);
        rc = idx >= 0 ? zip_file_rename(za, (zip_uint64_t)idx, argv[1], ZIP_FL_ENC_RAW) : -1;
    } else if (strcmp(op, "copy") == 0 && argc >= 2) {
        zip_int64_t idx = zip_name_locate(za, argv[0], ZIP_FL_ENC_RAW);
        zip_stat_t st;
        zip_file_t *zf = NULL;
        char *buf = NULL;
        if (idx >= 0 && zip_stat_index(za, (zip_uint64_t)idx, 0, &st) == 0 &&
            (buf = malloc(st.size ? st.size : 1)) != NULL &&
            (zf = zip_fopen_index(za, (zip_uint64_t)idx, 0)) != NULL &&
            zip_fread(zf, buf, st.size) == (zip_int64_t)st.size) {
            zip_source_t *src = zip_source_buffer(za, buf, st.size, 1);
            zip_int64_t nidx = src ? zip_file_add(za, argv[1], src, ZIP_FL_ENC_RAW) : -1;
            if (nidx >= 0)
                rc = zip_file_set_external_attributes(za, (zip_uint64_t)nidx, 0, ZIP_OPSYS_UNIX,
                                                      (zip_uint32_t)(S_IFREG | 0755) << 16);
            else
                zip_source_free(src);
            buf = NULL;
        }
        if (zf)
            zip_fclose(zf);
        free(buf);
    } else if (strcmp(op, "store") == 0 && argc >= 1) {
        /* Re-add from a buffer of known size: libzip then needs no ZIP64 local extra (and
         * keeps "version needed" at 2.0), so only the intended defect is injected. */
        zip_int64_t idx = zip_name_locate(za, argv[0], ZIP_FL_ENC_RAW);
        zip_stat_t st;
        zip_file_t *zf = NULL;
        char *buf = NULL;
        if (idx >= 0 && zip_stat_index(za, (zip_uint64_t)idx, 0, &st) == 0 &&
            (buf = malloc(st.size ? st.size : 1)) != NULL &&
            (zf = zip_fopen_index(za, (zip_uint64_t)idx, 0)) != NULL &&
            zip_fread(zf, buf, st.size) == (zip_int64_t)st.size) {
            zip_fclose(zf);
            zf = NULL;
            zip_source_t *src = zip_source_buffer(za, buf, st.size, 1);
            if (src && zip_file_replace(za, (zip_uint64_t)idx, src, 0) == 0) {
                buf = NULL;
                rc = zip_set_file_compression(za, (zip_uint64_t)idx, ZIP_CM_STORE, 0);
            } else {
                zip_source_free(src);
                buf = NULL; /* owned by the source */
            }
        }
        if (zf)
            zip_fclose(zf);
        free(buf);
    } else {
        fprintf(stderr, "zipmangle: bad arguments for %s\n", op);
        zip_discard(za);
        return -1;
    }
    if (rc != 0) {
        fprintf(stderr, "zipmangle: %s %s failed: %s\n", op, argc ? argv[0] : "", zip_strerror(za));
        zip_discard(za);
        return -1;
    }
    if (zip_close(za) != 0) {
        fprintf(stderr, "zipmangle: writing %s failed: %s\n", path, zip_strerror(za));
        zip_discard(za);
        return -1;
    }
    return 0;
}

static unsigned get16(const unsigned char *p) { return (unsigned)p[0] | (unsigned)p[1] << 8; }
static unsigned long get32(const unsigned char *p)
{
    return (unsigned long)p[0] | (unsigned long)p[1] << 8 | (unsigned long)p[2] << 16 |
           (unsigned long)p[3] << 24;
}
static void put16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)(v & 0xff);
    p[1] = (unsigned char)(v >> 8);
}

static int raw_patch(const char *path, const char *op, int argc, char **argv)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "zipmangle: cannot open %s\n", path);
        return -1;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *d = malloc(size > 0 ? (size_t)size : 1);
    if (!d || size < 22 || fread(d, 1, (size_t)size, f) != (size_t)size) {
        fclose(f);
        free(d);
        fprintf(stderr, "zipmangle: cannot read %s\n", path);
        return -1;
    }
    fclose(f);
    long eocd = -1;
    for (long p = size - 22; p >= 0 && p >= size - 22 - 65535; p--)
        if (memcmp(d + p, "PK\5\6", 4) == 0) {
            eocd = p;
            break;
        }
    int rc = -1;
    if (eocd < 0) {
        fprintf(stderr, "zipmangle: no end-of-central-directory record in %s\n", path);
    } else if (strcmp(op, "split") == 0) {
        put16(d + eocd + 4, 1);
        put16(d + eocd + 6, 1);
        rc = 0;
    } else if (argc >= 2) {
        unsigned long cd = get32(d + eocd + 16);
        unsigned count = get16(d + eocd + 10);
        unsigned value = (unsigned)strtoul(argv[1], NULL, 0);
        unsigned long p = cd;
        for (unsigned i = 0; i < count && p + 46 <= (unsigned long)size; i++) {
            if (memcmp(d + p, "PK\1\2", 4) != 0)
                break;
            unsigned nlen = get16(d + p + 28), xlen = get16(d + p + 30), clen = get16(d + p + 32);
            unsigned long loc = get32(d + p + 42);
            if (p + 46 + nlen <= (unsigned long)size && strlen(argv[0]) == nlen &&
                memcmp(d + p + 46, argv[0], nlen) == 0 && loc + 30 <= (unsigned long)size &&
                memcmp(d + loc, "PK\3\4", 4) == 0) {
                if (strcmp(op, "set-method") == 0) {
                    put16(d + p + 10, value);
                    put16(d + loc + 8, value);
                } else if (strcmp(op, "set-flags") == 0) {
                    put16(d + p + 8, get16(d + p + 8) | value);
                    put16(d + loc + 6, get16(d + loc + 6) | value);
                } else if (strcmp(op, "set-version") == 0) {
                    put16(d + p + 6, value);
                    put16(d + loc + 4, value);
                } else {
                    break;
                }
                rc = 0;
                break;
            }
            p += 46 + nlen + xlen + clen;
        }
        if (rc != 0)
            fprintf(stderr, "zipmangle: %s: entry %s not found (or bad op)\n", op, argv[0]);
    } else {
        fprintf(stderr, "zipmangle: bad arguments for %s\n", op);
    }
    if (rc == 0) {
        f = fopen(path, "wb");
        if (!f || fwrite(d, 1, (size_t)size, f) != (size_t)size)
            rc = -1;
        if (f && fclose(f) != 0)
            rc = -1;
    }
    free(d);
    return rc;
}

static void percent_decode(char *s)
{
    char *o = s;
    for (; *s; s++) {
        unsigned v;
        if (s[0] == '%' && s[1] && s[2] && sscanf(s + 1, "%2x", &v) == 1) {
            *o++ = (char)v;
            s += 2;
        } else {
            *o++ = *s;
        }
    }
    *o = '\0';
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: zipmangle IN OUT OP [ARGS...]\n");
        return 64;
    }
    const char *op = argv[3];
    for (int i = 4; i < argc; i++)
        percent_decode(argv[i]);
    if (copy_file(argv[1], argv[2]) != 0)
        return 1;
    int rc;
    if (strncmp(op, "set-", 4) == 0 || strcmp(op, "split") == 0)
        rc = raw_patch(argv[2], op, argc - 4, argv + 4);
    else
        rc = with_zip(argv[2], op, argc - 4, argv + 4);
    return rc == 0 ? 0 : 1;
}
