/* Archive listing and validation (FMI 2.0 §2.3, APPNOTE): libzip for names, sizes and data, plus
 * our own bounds-checked read of the end record and central directory for the fields libzip
 * does not expose (general-purpose flags, version needed, local header offsets). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "zip_internal.h"

#define MIB (1024ull * 1024ull)

void fmuc_zip__limits(fmuc_fmu_limits *out, const fmuc_fmu_limits *in)
{
    memset(out, 0, sizeof *out);
    if (in)
        *out = *in;
    if (!out->max_file_bytes)
        out->max_file_bytes = 4096ull * MIB;
    if (!out->max_entries)
        out->max_entries = 65536;
    if (!out->max_entry_bytes)
        out->max_entry_bytes = 1024ull * MIB;
    if (!out->max_total_bytes)
        out->max_total_bytes = 2048ull * MIB;
    if (!out->max_ratio)
        out->max_ratio = 1000;
    if (!out->max_xml_bytes)
        out->max_xml_bytes = 512ull * MIB;
}

const char *fmuc_zip_problem_name(uint32_t bit)
{
    static const char *const names[] = {
        "dotdot",  "absolute",    "backslash",    "symlink",       "encrypted",    "method",
        "version", "descriptor",  "dot-prefix",   "non-ascii",     "bad-name",     "duplicate",
        "too-large", "ratio",     "crc",          "overlap",       "entry-count",  "inconsistent",
        "case-collision", "total-size", "multi-disk", "duplicate-other"};
    for (unsigned k = 0; k < sizeof names / sizeof names[0]; k++)
        if (bit == 1u << k)
            return names[k];
    return "unknown";
}

/* ---------------------------------------------------------------------------------------- */
/* names */

/* Length of a valid UTF-8 sequence at s (max n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t len;
    unsigned min;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        len = 3, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        len = 4, min = 0x10000;
    else
        return 0;
    if (len > n)
        return 0;
    unsigned cp = c & (0x7Fu >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

uint32_t fmuc_zip__name_problems(const char *name, size_t len)
{
    uint32_t p = 0;
    const unsigned char *s = (const unsigned char *)name;
    if (len == 0 || len > 1024)
        return FMUC_ZIP_BAD_NAME;
    if (s[0] == '/')
        p |= FMUC_ZIP_ABSOLUTE;
    if (len >= 2 && ((s[0] | 0x20) >= 'a' && (s[0] | 0x20) <= 'z') && s[1] == ':')
        p |= FMUC_ZIP_ABSOLUTE;
    for (size_t i = 0; i < len;) {
        unsigned c = s[i];
        if (c == '\\')
            p |= FMUC_ZIP_BACKSLASH;
        else if (c < 0x20 || c == 0x7F)
            p |= FMUC_ZIP_BAD_NAME;
        else if (c == ':' && !(i == 1 && (p & FMUC_ZIP_ABSOLUTE)))
            p |= FMUC_ZIP_BAD_NAME;
        if (c >= 0x80) {
            size_t k = utf8_len(s + i, len - i);
            if (!k) {
                p |= FMUC_ZIP_BAD_NAME;
                i++;
            } else {
                p |= FMUC_ZIP_NON_ASCII;
                i += k;
            }
            continue;
        }
        i++;
    }
    /* components */
    size_t depth = 0, start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && s[i] != '/' && s[i] != '\\')
            continue;
        size_t cl = i - start;
        int last = i == len;
        if (cl == 0) {
            /* a leading '/' is ABSOLUTE; a trailing '/' marks a directory */
            int trailing_dir = last && s[len - 1] == '/';
            if (!(start == 0 && (p & FMUC_ZIP_ABSOLUTE)) && !trailing_dir)
                p |= FMUC_ZIP_BAD_NAME;
        } else {
            depth++;
            if (cl == 2 && s[start] == '.' && s[start + 1] == '.')
                p |= FMUC_ZIP_DOTDOT;
            else if (cl == 1 && s[start] == '.')
                p |= FMUC_ZIP_DOT_PREFIX;
            if (cl > 255)
                p |= FMUC_ZIP_BAD_NAME;
        }
        start = i + 1;
    }
    if (depth > 32)
        p |= FMUC_ZIP_BAD_NAME;
    return p;
}

/* ---------------------------------------------------------------------------------------- */
/* our own read of the end record and the central directory */

typedef struct raw_entry {
    uint16_t made_by, version_needed, flags, method;
    uint32_t crc, ext_attr;
    uint64_t comp, size, local_off;
    const unsigned char *name;
    size_t name_len;
} raw_entry;

typedef struct raw_cd {
    unsigned char *buf;
    size_t nentries;
    raw_entry *e;
    uint64_t cd_off, cd_size, declared_total;
    int zip64, multi_disk, truncated;
} raw_cd;

static uint16_t le16(const unsigned char *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static uint64_t le64(const unsigned char *p)
{
    return (uint64_t)le32(p) | ((uint64_t)le32(p + 4) << 32);
}

static int pread_all(int fd, void *buf, size_t n, uint64_t off)
{
    unsigned char *b = buf;
    while (n) {
        ssize_t k = pread(fd, b, n, (off_t)off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        b += k;
        n -= (size_t)k;
        off += (uint64_t)k;
    }
    return 0;
}

/* 0 ok, -1 no end record (not a zip), -2 out of memory */
static int read_raw_cd(raw_cd *rc, int fd, uint64_t size, size_t max_entries)
{
    memset(rc, 0, sizeof *rc);
    if (size < 22)
        return -1;
    size_t tail_n = size < 22 + 65535 ? (size_t)size : 22 + 65535;
    unsigned char *tail = malloc(tail_n);
    if (!tail)
        return -2;
    uint64_t tail_off = size - tail_n;
    if (pread_all(fd, tail, tail_n, tail_off) < 0) {
        free(tail);
        return -1;
    }
    long eocd = -1;
    for (long i = (long)tail_n - 22; i >= 0; i--) {
        if (tail[i] == 'P' && tail[i + 1] == 'K' && tail[i + 2] == 5 && tail[i + 3] == 6 &&
            (size_t)i + 22 + le16(tail + i + 20) <= tail_n) {
            eocd = i;
            break;
        }
    }
    if (eocd < 0) {
        free(tail);
        return -1;
    }
    const unsigned char *e = tail + eocd;
    uint16_t disk = le16(e + 4), disk_cd = le16(e + 6), n_disk = le16(e + 8), n_total = le16(e + 10);
    uint64_t cd_size = le32(e + 12), cd_off = le32(e + 16), total = n_total;
    if (disk || disk_cd || n_disk != n_total)
        rc->multi_disk = 1;
    uint64_t eocd_abs = tail_off + (uint64_t)eocd;
    /* ZIP64 locator right before the end record */
    if (eocd >= 20 && le32(tail + eocd - 20) == 0x07064b50u) {
        rc->zip64 = 1;
        uint64_t z64off = le64(tail + eocd - 20 + 8);
        unsigned char z[56];
        if (z64off + 56 <= size && pread_all(fd, z, 56, z64off) == 0 && le32(z) == 0x06064b50u) {
            total = le64(z + 32);
            cd_size = le64(z + 40);
            cd_off = le64(z + 48);
        }
    } else if (n_total == 0xFFFF || cd_size == 0xFFFFFFFFu || cd_off == 0xFFFFFFFFu) {
        rc->zip64 = 1;
    }
    free(tail);
    rc->declared_total = total;
    rc->cd_off = cd_off;
    rc->cd_size = cd_size;
    if (cd_off > eocd_abs || cd_size > eocd_abs - cd_off) {
        rc->truncated = 1;
        return 0; /* inconsistent; libzip will say more */
    }
    size_t n = (size_t)cd_size;
    if (n > 512 * MIB) {
        rc->truncated = 1;
        return 0;
    }
    rc->buf = malloc(n ? n : 1);
    if (!rc->buf)
        return -2;
    if (pread_all(fd, rc->buf, n, cd_off) < 0) {
        rc->truncated = 1;
        return 0;
    }
    size_t cap = 0;
    size_t pos = 0;
    while (pos + 46 <= n && rc->nentries < max_entries + 1) {
        const unsigned char *c = rc->buf + pos;
        if (le32(c) != 0x02014b50u) {
            rc->truncated = 1;
            break;
        }
        size_t nl = le16(c + 28), xl = le16(c + 30), cl = le16(c + 32);
        if (pos + 46 + nl + xl + cl > n) {
            rc->truncated = 1;
            break;
        }
        if (rc->nentries == cap) {
            size_t nc = cap ? cap * 2 : 64;
            raw_entry *ne = realloc(rc->e, nc * sizeof *ne);
            if (!ne)
                return -2;
            rc->e = ne;
            cap = nc;
        }
        raw_entry *r = &rc->e[rc->nentries++];
        r->made_by = le16(c + 4);
        r->version_needed = le16(c + 6);
        r->flags = le16(c + 8);
        r->method = le16(c + 10);
        r->crc = le32(c + 16);
        r->comp = le32(c + 20);
        r->size = le32(c + 24);
        r->ext_attr = le32(c + 38);
        r->local_off = le32(c + 42);
        r->name = c + 46;
        r->name_len = nl;
        /* ZIP64 extended information extra field */
        const unsigned char *x = c + 46 + nl, *xe = x + xl;
        while (x + 4 <= xe) {
            uint16_t id = le16(x), sz = le16(x + 2);
            if (x + 4 + sz > xe)
                break;
            if (id == 0x0001) {
                const unsigned char *f = x + 4, *fe = f + sz;
                if (r->size == 0xFFFFFFFFu && f + 8 <= fe)
                    r->size = le64(f), f += 8;
                if (r->comp == 0xFFFFFFFFu && f + 8 <= fe)
                    r->comp = le64(f), f += 8;
                if (r->local_off == 0xFFFFFFFFu && f + 8 <= fe)
                    r->local_off = le64(f);
                rc->zip64 = 1;
            }
            x += 4 + sz;
        }
        pos += 46 + nl + xl + cl;
    }
    return 0;
}

static void raw_cd_free(raw_cd *rc)
{
    free(rc->buf);
    free(rc->e);
    memset(rc, 0, sizeof *rc);
}

/* ---------------------------------------------------------------------------------------- */

static int cmp_off(const void *a, const void *b, void *ctx)
{
    const raw_entry *e = ctx;
    uint64_t x = e[*(const size_t *)a].local_off, y = e[*(const size_t *)b].local_off;
    return (x > y) - (x < y);
}

/* Our own local-header checks (what ZIP_CHECKCONS does, minus its refusal of the common
 * "data descriptor with the uncompressed size also in the local header" variant written by
 * libarchive / cmake -E tar): names, method and flags equal the central directory; sizes and CRC
 * equal it, or are zero when bit 3 defers them to the data descriptor. Then sort the local
 * offsets and flag entries whose [header, data) ranges overlap each other or the directory. */
static void check_local_headers(fmuc_zip_listing *l, const raw_cd *rc, int fd, uint64_t size)
{
    size_t n = rc->nentries < l->nentries ? rc->nentries : l->nentries;
    if (!n)
        return;
    size_t *ix = malloc(n * sizeof *ix);
    unsigned char *nbuf = malloc(65536);
    if (!ix || !nbuf) {
        free(ix);
        free(nbuf);
        return;
    }
    for (size_t i = 0; i < n; i++)
        ix[i] = i;
    qsort_r(ix, n, sizeof *ix, cmp_off, rc->e);
    uint64_t prev_end = 0;
    size_t prev = SIZE_MAX;
    for (size_t k = 0; k < n; k++) {
        const raw_entry *r = &rc->e[ix[k]];
        uint32_t *pr = &l->entries[ix[k]].problems;
        unsigned char h[30];
        if (r->local_off > size || size - r->local_off < 30 ||
            pread_all(fd, h, 30, r->local_off) < 0 || le32(h) != 0x04034b50u) {
            *pr |= FMUC_ZIP_INCONSISTENT;
            continue;
        }
        size_t nl = le16(h + 26), xl = le16(h + 28);
        uint16_t lflags = le16(h + 6), lmethod = le16(h + 8);
        uint32_t lcrc = le32(h + 14), lcomp = le32(h + 18), lsize = le32(h + 22);
        int same_name = nl == r->name_len && r->local_off + 30 + nl <= size &&
                        pread_all(fd, nbuf, nl, r->local_off + 30) == 0 &&
                        memcmp(nbuf, r->name, nl) == 0;
        if (!same_name || lmethod != r->method || (lflags & 0x0F09) != (r->flags & 0x0F09))
            *pr |= FMUC_ZIP_INCONSISTENT;
        int deferred = (lflags & 0x0008) != 0;
        int z64 = lcomp == 0xFFFFFFFFu || lsize == 0xFFFFFFFFu;
        if (!z64 && !(lcrc == r->crc || (deferred && lcrc == 0)))
            *pr |= FMUC_ZIP_INCONSISTENT;
        if (!z64 && !(lcomp == r->comp || (deferred && lcomp == 0)))
            *pr |= FMUC_ZIP_INCONSISTENT;
        if (!z64 && !(lsize == r->size || (deferred && lsize == 0)))
            *pr |= FMUC_ZIP_INCONSISTENT;
        uint64_t end = r->local_off + 30 + nl + xl + r->comp;
        if (r->local_off < prev_end && prev != SIZE_MAX) {
            *pr |= FMUC_ZIP_OVERLAP;
            l->entries[prev].problems |= FMUC_ZIP_OVERLAP;
        }
        if (end > rc->cd_off)
            *pr |= FMUC_ZIP_OVERLAP;
        if (end > prev_end) {
            prev_end = end;
            prev = ix[k];
        }
    }
    free(nbuf);
    free(ix);
}

static int cmp_names(const void *a, const void *b, void *ctx)
{
    const fmuc_zip_entry *e = ctx;
    return strcmp(e[*(const size_t *)a].name, e[*(const size_t *)b].name);
}

static int cmp_names_ci(const void *a, const void *b, void *ctx)
{
    const fmuc_zip_entry *e = ctx;
    return strcasecmp(e[*(const size_t *)a].name, e[*(const size_t *)b].name);
}

static void check_duplicates(fmuc_zip_listing *l)
{
    size_t n = l->nentries;
    if (n < 2)
        return;
    size_t *ix = malloc(n * sizeof *ix);
    if (!ix)
        return;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < n; i++)
            ix[i] = i;
        qsort_r(ix, n, sizeof *ix, pass ? cmp_names_ci : cmp_names, l->entries);
        uint32_t bit = pass ? FMUC_ZIP_CASE_COLLISION : FMUC_ZIP_DUPLICATE;
        for (size_t k = 1; k < n; k++) {
            const char *a = l->entries[ix[k - 1]].name, *b = l->entries[ix[k]].name;
            int same = pass ? strcasecmp(a, b) == 0 && strcmp(a, b) != 0 : strcmp(a, b) == 0;
            if (same) {
                uint32_t b2 = bit;
                /* a duplicate matters for safety only where fmucheck reads or extracts the
                 * entry: which copy wins would decide what is checked and run */
                if (!pass && (b[0] == '\0' || b[strlen(b) - 1] == '/' ||
                              (strcmp(b, "modelDescription.xml") != 0 &&
                               strncmp(b, "binaries/", 9) != 0 && strncmp(b, "resources/", 10) != 0)))
                    b2 = FMUC_ZIP_DUPLICATE_OTHER;
                l->entries[ix[k - 1]].problems |= b2;
                l->entries[ix[k]].problems |= b2;
            }
        }
    }
    free(ix);
}

static uint32_t entry_header_problems(fmuc_zip_entry *e, const fmuc_fmu_limits *lim)
{
    uint32_t p = 0;
    if (e->method != 0 && e->method != 8)
        p |= FMUC_ZIP_METHOD;
    if ((e->flags & 0x0001) || (e->flags & 0x0040) || e->encryption != 0)
        p |= FMUC_ZIP_ENCRYPTED;
    if ((e->version_needed & 0xFF) > 20)
        p |= FMUC_ZIP_VERSION;
    if ((e->flags & 0x0008) && e->method == 0)
        p |= FMUC_ZIP_DESCRIPTOR;
    if (e->made_by_os == ZIP_OPSYS_UNIX) {
        unsigned mode = e->external_attr >> 16;
        unsigned type = mode & S_IFMT;
        /* only regular files and directories; links and special files are refused (§2.3) */
        if (type != 0 && type != S_IFREG && type != S_IFDIR)
            p |= FMUC_ZIP_SYMLINK;
    }
    if (e->size > lim->max_entry_bytes)
        p |= FMUC_ZIP_TOO_LARGE;
    if (e->size > MIB && (e->comp_size == 0 || e->size / e->comp_size > lim->max_ratio))
        p |= FMUC_ZIP_RATIO;
    return p;
}

fmuc_err fmuc_zip__list(fmuc_zip_listing *out, zip_t **zap, int fd, uint64_t size,
                        const fmuc_fmu_limits *lim, fmuc_diag *diag)
{
    memset(out, 0, sizeof *out);
    *zap = NULL;
    raw_cd rc;
    fmuc_err err = FMUC_OK;
    int r = read_raw_cd(&rc, fd, size, lim->max_entries);
    if (r == -2) {
        err = fmuc_diag_set(diag, FMUC_ENOMEM, "out of memory reading the central directory");
        goto out;
    }
    if (r == -1) {
        err = fmuc_diag_set(diag, FMUC_EINPUT, "not a ZIP archive (no end of central directory)");
        goto out;
    }
    out->zip64 = rc.zip64;
    out->multi_disk = rc.multi_disk;
    if (rc.multi_disk)
        out->problems |= FMUC_ZIP_MULTI_DISK;
    if (rc.truncated)
        out->problems |= FMUC_ZIP_INCONSISTENT;
    if (rc.declared_total > lim->max_entries || rc.nentries > lim->max_entries) {
        out->problems |= FMUC_ZIP_ENTRY_COUNT;
        err = fmuc_diag_set(diag, FMUC_EZIP, "archive has %llu entries, over the limit of %zu",
                            (unsigned long long)rc.declared_total, lim->max_entries);
        goto out;
    }

    /* libzip reads from its own dup of the descriptor; the stream owns it once created */
    int zfd = dup(fd);
    FILE *fp = zfd >= 0 ? fdopen(zfd, "rb") : NULL;
    if (!fp) {
        if (zfd >= 0)
            close(zfd);
        err = fmuc_diag_set(diag, FMUC_EIO, "cannot duplicate the archive descriptor");
        goto out;
    }
    zip_error_t ze;
    zip_error_init(&ze);
    zip_source_t *src = zip_source_filep_create(fp, 0, -1, &ze);
    if (!src) {
        fclose(fp);
        err = fmuc_diag_set(diag, FMUC_EIO, "libzip: %s", zip_error_strerror(&ze));
        zip_error_fini(&ze);
        goto out;
    }
    zip_t *za = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &ze);
    if (!za) {
        int code = zip_error_code_zip(&ze);
        char why[256];
        snprintf(why, sizeof why, "%s", zip_error_strerror(&ze));
        zip_error_fini(&ze);
        if (code == ZIP_ER_NOZIP) {
            zip_source_free(src);
            err = fmuc_diag_set(diag, FMUC_EINPUT, "not a ZIP archive (%s)", why);
            goto out;
        }
        /* libzip's strict checks failed: open leniently; our own checks below (names, local
         * headers, overlaps, duplicates) decide. Anything but an inconsistency is refused. */
        if (code == ZIP_ER_MULTIDISK)
            out->problems |= FMUC_ZIP_MULTI_DISK;
        zip_error_init(&ze);
        za = (code == ZIP_ER_INCONS || code == ZIP_ER_EXISTS)
                 ? zip_open_from_source(src, ZIP_RDONLY, &ze)
                 : NULL;
        zip_error_fini(&ze);
        if (!za) {
            zip_source_free(src); /* still ours after a failed open */
            if (!(out->problems & FMUC_ZIP_MULTI_DISK))
                out->problems |= FMUC_ZIP_INCONSISTENT;
            err = fmuc_diag_set(diag, FMUC_EZIP, "archive rejected by libzip: %s", why);
            goto out;
        }
    } else {
        zip_error_fini(&ze);
    }
    *zap = za;

    zip_int64_t n = zip_get_num_entries(za, 0);
    if (n < 0)
        n = 0;
    if ((uint64_t)n > lim->max_entries) {
        out->problems |= FMUC_ZIP_ENTRY_COUNT;
        err = fmuc_diag_set(diag, FMUC_EZIP, "archive has %lld entries, over the limit of %zu",
                            (long long)n, lim->max_entries);
        goto out;
    }
    if ((size_t)n != rc.nentries)
        out->problems |= FMUC_ZIP_INCONSISTENT;
    out->entries = calloc((size_t)n ? (size_t)n : 1, sizeof *out->entries);
    if (!out->entries) {
        err = fmuc_diag_set(diag, FMUC_ENOMEM, "out of memory listing the archive");
        goto out;
    }
    for (zip_int64_t i = 0; i < n; i++) {
        fmuc_zip_entry *e = &out->entries[out->nentries];
        const char *nm = zip_get_name(za, (zip_uint64_t)i, ZIP_FL_ENC_RAW);
        zip_stat_t st;
        zip_stat_init(&st);
        if (!nm || zip_stat_index(za, (zip_uint64_t)i, ZIP_FL_ENC_RAW, &st) < 0) {
            out->problems |= FMUC_ZIP_INCONSISTENT;
            nm = nm ? nm : "";
        }
        e->name = strdup(nm);
        if (!e->name) {
            err = fmuc_diag_set(diag, FMUC_ENOMEM, "out of memory listing the archive");
            goto out;
        }
        out->nentries++;
        size_t nlen = strlen(nm);
        e->size = (st.valid & ZIP_STAT_SIZE) ? st.size : 0;
        e->comp_size = (st.valid & ZIP_STAT_COMP_SIZE) ? st.comp_size : 0;
        e->crc = (st.valid & ZIP_STAT_CRC) ? st.crc : 0;
        e->method = (st.valid & ZIP_STAT_COMP_METHOD) ? st.comp_method : 0;
        e->encryption = (st.valid & ZIP_STAT_ENCRYPTION_METHOD) ? st.encryption_method : 0;
        zip_uint8_t opsys = 0;
        zip_uint32_t attr = 0;
        if (zip_file_get_external_attributes(za, (zip_uint64_t)i, 0, &opsys, &attr) == 0) {
            e->made_by_os = opsys;
            e->external_attr = attr;
        }
        e->is_dir = nlen > 0 && nm[nlen - 1] == '/';
        e->problems = fmuc_zip__name_problems(nm, nlen);
        if ((size_t)i < rc.nentries) {
            const raw_entry *rw = &rc.e[i];
            e->flags = rw->flags;
            e->version_needed = rw->version_needed;
            e->local_offset = rw->local_off;
            /* a NUL inside the stored name makes the lengths differ */
            if (rw->name_len != nlen || memcmp(rw->name, nm, nlen) != 0) {
                if (memchr(rw->name, '\0', rw->name_len))
                    e->problems |= FMUC_ZIP_BAD_NAME;
                else
                    e->problems |= FMUC_ZIP_INCONSISTENT;
            }
            if (rw->method != e->method)
                e->problems |= FMUC_ZIP_INCONSISTENT;
        } else {
            e->problems |= FMUC_ZIP_INCONSISTENT;
        }
        e->problems |= entry_header_problems(e, lim);
        out->total_size += e->size;
    }
    check_duplicates(out);
    check_local_headers(out, &rc, fd, size);
    for (size_t i = 0; i < out->nentries; i++)
        out->problems |= out->entries[i].problems;
    if (out->total_size > lim->max_total_bytes)
        out->problems |= FMUC_ZIP_TOTAL_SIZE;
    if ((out->problems & FMUC_ZIP_UNSAFE) && err == FMUC_OK) {
        const char *what = "?";
        const char *name = "";
        for (size_t i = 0; i < out->nentries && !*name; i++) {
            uint32_t bad = out->entries[i].problems & FMUC_ZIP_UNSAFE;
            if (bad) {
                name = out->entries[i].name;
                what = fmuc_zip_problem_name(bad & (~bad + 1));
            }
        }
        if (!*name)
            what = fmuc_zip_problem_name((out->problems & FMUC_ZIP_UNSAFE) &
                                         (~(out->problems & FMUC_ZIP_UNSAFE) + 1));
        err = fmuc_diag_set(diag, FMUC_EZIP, "unsafe archive: %s%s%s%s", what,
                            *name ? " (entry \"" : "", name, *name ? "\")" : "");
    }
out:
    raw_cd_free(&rc);
    return err;
}

void fmuc_zip__listing_free(fmuc_zip_listing *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->nentries; i++)
        free((void *)l->entries[i].name);
    free(l->entries);
    memset(l, 0, sizeof *l);
}

fmuc_err fmuc_zip__entry_open(fmuc_zip__entry_reader *r, zip_t *za, fmuc_zip_listing *l, size_t i,
                              const fmuc_fmu_limits *lim, uint64_t *total, fmuc_diag *diag)
{
    memset(r, 0, sizeof *r);
    r->l = l;
    r->e = &l->entries[i];
    r->lim = lim;
    r->total = total;
    r->diag = diag;
    r->zf = zip_fopen_index(za, i, 0);
    if (!r->zf) {
        r->e->problems |= FMUC_ZIP_INCONSISTENT;
        l->problems |= FMUC_ZIP_INCONSISTENT;
        return r->err = fmuc_diag_set(diag, FMUC_EZIP, "entry \"%s\" cannot be opened: %s",
                                      r->e->name, zip_strerror(za));
    }
    return FMUC_OK;
}

long fmuc_zip__entry_read(fmuc_zip__entry_reader *r, void *buf, size_t n)
{
    if (r->err < 0 || !r->zf)
        return -1;
    if (r->eof)
        return 0;
    fmuc_zip_entry *e = r->e;
    const fmuc_fmu_limits *lim = r->lim;
    zip_int64_t k = zip_fread(r->zf, buf, n);
    if (k < 0) {
        zip_error_t *ze = zip_file_get_error(r->zf);
        int code = zip_error_code_zip(ze);
        uint32_t bit = code == ZIP_ER_CRC ? FMUC_ZIP_CRC : FMUC_ZIP_INCONSISTENT;
        e->problems |= bit;
        r->err = fmuc_diag_set(r->diag, FMUC_EZIP, "entry \"%s\": %s", e->name,
                               zip_error_strerror(ze));
        return -1;
    }
    if (k == 0) {
        r->eof = 1; /* the CRC is checked at end of data */
        return 0;
    }
    r->produced += (uint64_t)k;
    *r->total += (uint64_t)k;
    if (r->produced > lim->max_entry_bytes || r->produced > e->size) {
        e->problems |= FMUC_ZIP_TOO_LARGE;
        r->err = fmuc_diag_set(r->diag, FMUC_EZIP, "entry \"%s\" inflates beyond %s", e->name,
                               r->produced > e->size ? "its declared size" : "the per-entry limit");
        return -1;
    }
    if (r->produced > MIB && (e->comp_size == 0 || r->produced / e->comp_size > lim->max_ratio)) {
        e->problems |= FMUC_ZIP_RATIO;
        r->err = fmuc_diag_set(r->diag, FMUC_EZIP,
                               "entry \"%s\" inflates more than %llu:1 (zip bomb)", e->name,
                               (unsigned long long)lim->max_ratio);
        return -1;
    }
    if (*r->total > lim->max_total_bytes) {
        r->l->problems |= FMUC_ZIP_TOTAL_SIZE;
        r->err = fmuc_diag_set(r->diag, FMUC_EZIP,
                               "archive inflates beyond the total limit of %llu bytes",
                               (unsigned long long)lim->max_total_bytes);
        return -1;
    }
    return (long)k;
}

fmuc_err fmuc_zip__entry_close(fmuc_zip__entry_reader *r, fmuc_err err)
{
    fmuc_zip_entry *e = r->e;
    if (!r->zf)
        return r->err < 0 ? r->err : err;
    if (err == FMUC_OK)
        err = r->err;
    int fc = zip_fclose(r->zf);
    r->zf = NULL;
    if (err == FMUC_OK && fc != 0) {
        e->problems |= fc == ZIP_ER_CRC ? FMUC_ZIP_CRC : FMUC_ZIP_INCONSISTENT;
        err = fmuc_diag_set(r->diag, FMUC_EZIP, "entry \"%s\": closing reported error %d",
                            e->name, fc);
    }
    if (err == FMUC_OK && r->produced != e->size) {
        e->problems |= FMUC_ZIP_INCONSISTENT;
        err = fmuc_diag_set(r->diag, FMUC_EZIP, "entry \"%s\" inflated to %llu bytes, declared %llu",
                            e->name, (unsigned long long)r->produced, (unsigned long long)e->size);
    }
    if (err == FMUC_OK)
        e->verified = 1;
    r->l->problems |= e->problems;
    return err;
}

fmuc_err fmuc_zip__stream(zip_t *za, fmuc_zip_listing *l, size_t i, const fmuc_fmu_limits *lim,
                          uint64_t *total, fmuc_zip__sink sink, void *payload, fmuc_diag *diag)
{
    fmuc_zip__entry_reader r;
    fmuc_err err = fmuc_zip__entry_open(&r, za, l, i, lim, total, diag);
    if (err < 0)
        return err;
    enum { BUF = 64 * 1024 };
    unsigned char *buf = malloc(BUF);
    if (!buf) {
        zip_fclose(r.zf);
        return fmuc_diag_set(diag, FMUC_ENOMEM, "out of memory");
    }
    for (;;) {
        long k = fmuc_zip__entry_read(&r, buf, BUF);
        if (k <= 0)
            break;
        if (sink) {
            int s = sink(payload, buf, (size_t)k);
            if (s < 0) {
                err = (fmuc_err)s;
                break;
            }
        }
    }
    err = fmuc_zip__entry_close(&r, err);
    free(buf);
    return err;
}
