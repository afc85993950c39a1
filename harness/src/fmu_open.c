/* Opening an FMU (FMI 2.0 §2.3): refuse non-files, hash, list and validate the archive, read and
 * parse modelDescription.xml, then extract binaries/<platform>/ and resources/ into a private
 * mkdtemp directory with O_EXCL|O_NOFOLLOW creates relative to directory descriptors. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmuc/fmuc_fmu.h"
#include "sha256_internal.h"
#include "zip_internal.h"

const char *fmuc_host_platform(void)
{
#if defined(__linux__) && defined(__x86_64__)
    return "linux64";
#elif defined(__linux__) && defined(__i386__)
    return "linux32";
#elif defined(__linux__) && defined(__aarch64__)
    return "aarch64-linux";
#elif defined(__APPLE__) && defined(__x86_64__)
    return "darwin64";
#elif defined(__APPLE__) && defined(__aarch64__)
    return "aarch64-darwin";
#else
    return "unknown";
#endif
}

int fmuc_fmu_fmi_version(const fmuc_fmu *fmu)
{
    if (fmu->md.fmi == FMUC_FMI1 || fmu->md.fmi == FMUC_FMI3)
        return (int)fmu->md.fmi;
    if (fmu->md.fmi == FMUC_FMI2 || !fmu->fmi_version_seen)
        return 2;
    return fmu->fmi_version_seen[0] == '1' && fmu->fmi_version_seen[1] == '.'   ? 1
           : fmu->fmi_version_seen[0] == '3' && fmu->fmi_version_seen[1] == '.' ? 3
                                                                                : 2;
}

const char *fmuc_host_platform_for(int fmi_version)
{
    if (fmi_version != 3)
        return fmuc_host_platform(); /* FMI 1.0 (§5 of ME 1.0) and 2.0 (§2.3) share the names */
    /* FMI 3.0 §2.5.1.4: platform tuples <arch>-<sys> */
#if defined(__linux__) && defined(__x86_64__)
    return "x86_64-linux";
#elif defined(__linux__) && defined(__i386__)
    return "x86-linux";
#elif defined(__linux__) && defined(__aarch64__)
    return "aarch64-linux";
#elif defined(__APPLE__) && defined(__x86_64__)
    return "x86_64-darwin";
#elif defined(__APPLE__) && defined(__aarch64__)
    return "aarch64-darwin";
#else
    return "unknown";
#endif
}

static const char *lib_ext(void)
{
#if defined(__APPLE__)
    return ".dylib";
#else
    return ".so";
#endif
}

static char *join(const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + (c ? strlen(c) : 0) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s/%s%s", a, b, c ? c : "");
    return s;
}

/* The modelIdentifier names the library file to load: a plain file name ([A-Za-z0-9_.-], not
 * starting with '.' or '-', so no path, no "..", no option look-alike). The C identifier rule
 * (md-model-identifier) matters for source and static FMUs only: a shared library exports
 * unprefixed fmi2* names, so "watertank-c" loads like any other (§3.3.1, §4.3.1). */
static int valid_identifier(const char *s)
{
    if (!s || !*s || strlen(s) > 200 || s[0] == '.' || s[0] == '-')
        return 0;
    for (size_t i = 0; s[i]; i++) {
        char c = s[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '_' || c == '.' || c == '-';
        if (!ok)
            return 0;
    }
    return 1;
}

static char *file_uri(const char *abs_path)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = strlen(abs_path);
    char *u = malloc(n * 3 + 16);
    if (!u)
        return NULL;
    size_t o = 0;
    memcpy(u, "file://", 7);
    o = 7;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)abs_path[i];
        int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                   c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
        if (keep) {
            u[o++] = (char)c;
        } else {
            u[o++] = '%';
            u[o++] = hex[c >> 4];
            u[o++] = hex[c & 15];
        }
    }
    if (o == 0 || u[o - 1] != '/')
        u[o++] = '/';
    u[o] = '\0';
    return u;
}

/* ---------------------------------------------------------------------------------------- */
/* sinks */

/* The archive entry as the parser's byte source. */
static long zip_read(void *ctx, char *buf, size_t n)
{
    return fmuc_zip__entry_read(ctx, buf, n);
}

typedef struct file_sink {
    int fd;
} file_sink;

static int to_file(void *payload, const void *data, size_t n)
{
    file_sink *f = payload;
    const char *p = data;
    while (n) {
        ssize_t k = write(f->fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return FMUC_EIO;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* extraction */

/* Open (creating as needed) the directory for the components of rel[0..len) below rootfd.
 * Every directory on the way is one we created; links are never followed. */
static int open_dirs(int rootfd, const char *rel, size_t len)
{
    int fd = dup(rootfd);
    size_t start = 0;
    while (fd >= 0 && start < len) {
        const char *slash = memchr(rel + start, '/', len - start);
        size_t end = slash ? (size_t)(slash - rel) : len;
        size_t cl = end - start;
        char comp[256];
        if (cl == 0 || cl >= sizeof comp) {
            close(fd);
            errno = EINVAL;
            return -1;
        }
        memcpy(comp, rel + start, cl);
        comp[cl] = '\0';
        start = end + 1;
        if (strcmp(comp, ".") == 0)
            continue;
        if (mkdirat(fd, comp, 0700) < 0 && errno != EEXIST) {
            close(fd);
            return -1;
        }
        int nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        close(fd);
        fd = nfd;
    }
    return fd;
}

static fmuc_err extract_entry(zip_t *za, fmuc_fmu *fmu, size_t i, int rootfd,
                              const fmuc_fmu_limits *lim, uint64_t *total, int exec,
                              fmuc_diag *diag)
{
    fmuc_zip_entry *e = &fmu->listing.entries[i];
    const char *name = e->name;
    size_t len = strlen(name);
    if (e->is_dir) {
        int fd = open_dirs(rootfd, name, len - 1);
        if (fd < 0)
            return fmuc_diag_set(diag, FMUC_EIO, "cannot create directory for \"%s\": %s", name,
                                 strerror(errno));
        close(fd);
        e->extracted = 1;
        return fmuc_zip__stream(za, &fmu->listing, i, lim, total, NULL, NULL, diag);
    }
    const char *slash = strrchr(name, '/');
    size_t dlen = slash ? (size_t)(slash - name) : 0;
    const char *leaf = slash ? slash + 1 : name;
    int dfd = open_dirs(rootfd, name, dlen);
    if (dfd < 0)
        return fmuc_diag_set(diag, FMUC_EIO, "cannot create directory for \"%s\": %s", name,
                             strerror(errno));
    int fd = openat(dfd, leaf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                    exec ? 0700 : 0600);
    int oerr = errno;
    close(dfd);
    if (fd < 0)
        return fmuc_diag_set(diag, oerr == EEXIST ? FMUC_EZIP : FMUC_EIO,
                             "cannot create \"%s\": %s", name, strerror(oerr));
    file_sink fs = {fd};
    fmuc_err err = fmuc_zip__stream(za, &fmu->listing, i, lim, total, to_file, &fs, diag);
    if (close(fd) < 0 && err == FMUC_OK)
        err = fmuc_diag_set(diag, FMUC_EIO, "cannot write \"%s\": %s", name, strerror(errno));
    if (err == FMUC_EIO && diag && !strstr(diag->msg, name))
        fmuc_diag_set(diag, FMUC_EIO, "cannot write \"%s\" (disk full?)", name);
    if (err == FMUC_OK)
        e->extracted = 1;
    return err;
}

static int has_prefix(const char *s, const char *pre)
{
    return strncmp(s, pre, strlen(pre)) == 0;
}

/* ---------------------------------------------------------------------------------------- */

static fmuc_err make_tmp(fmuc_fmu *fmu, const char *tmp_parent, fmuc_diag *diag)
{
    const char *parent = tmp_parent;
    if (!parent || !*parent)
        parent = getenv("TMPDIR");
    if (!parent || !*parent)
        parent = "/tmp";
    char *templ = join(parent, "fmucheck-XXXXXX", NULL);
    if (!templ)
        return fmuc_diag_set(diag, FMUC_ENOMEM, "out of memory");
    if (!mkdtemp(templ)) {
        fmuc_err e = fmuc_diag_set(diag, FMUC_EIO, "cannot create a temporary directory in %s: %s",
                                   parent, strerror(errno));
        free(templ);
        return e;
    }
    char *abs = realpath(templ, NULL);
    if (!abs) {
        fmuc_rmtree(templ);
        free(templ);
        return fmuc_diag_set(diag, FMUC_EIO, "cannot resolve the temporary directory");
    }
    free(templ);
    fmu->tmp_dir = abs;
    fmu->unpack_dir = join(abs, "fmu", NULL);
    if (!fmu->unpack_dir)
        return fmuc_diag_set(diag, FMUC_ENOMEM, "out of memory");
    if (mkdir(fmu->unpack_dir, 0700) < 0)
        return fmuc_diag_set(diag, FMUC_EIO, "cannot create %s: %s", fmu->unpack_dir,
                             strerror(errno));
    return FMUC_OK;
}

fmuc_err fmuc_fmu_open(fmuc_fmu *out, const char *path, const fmuc_fmu_limits *limits,
                       const char *tmp_parent, fmuc_diag *diag)
{
    memset(out, 0, sizeof *out);
    fmuc_fmu_limits lim;
    fmuc_zip__limits(&lim, limits);
    fmuc_err err = FMUC_OK;
    int fd = -1, rootfd = -1;
    zip_t *za = NULL;
    uint64_t total = 0;

    if (!path || !*path)
        return fmuc_diag_set(diag, FMUC_EINPUT, "no FMU path given");
    out->path = strdup(path);
    const char *base = strrchr(path, '/');
    out->file_name = strdup(base ? base + 1 : path);
    out->platform = strdup(fmuc_host_platform());
    if (!out->path || !out->file_name || !out->platform) {
        err = fmuc_diag_set(diag, FMUC_ENOMEM, "out of memory");
        goto out;
    }

    /* O_NONBLOCK: opening a FIFO must not hang; a symlink given by the user is followed. */
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        err = fmuc_diag_set(diag, FMUC_EINPUT, "%s: cannot open: %s", path, strerror(errno));
        goto out;
    }
    struct stat st;
    if (fstat(fd, &st) < 0) {
        err = fmuc_diag_set(diag, FMUC_EINPUT, "%s: cannot stat: %s", path, strerror(errno));
        goto out;
    }
    if (!S_ISREG(st.st_mode)) {
        const char *what = S_ISDIR(st.st_mode)    ? "a directory"
                           : S_ISFIFO(st.st_mode) ? "a FIFO"
                           : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                           : S_ISSOCK(st.st_mode) ? "a socket"
                                                  : "not a regular file";
        err = fmuc_diag_set(diag, FMUC_EINPUT, "%s: is %s, not an FMU file", path, what);
        goto out;
    }
    out->file_size = (uint64_t)st.st_size;
    if (st.st_size == 0) {
        err = fmuc_diag_set(diag, FMUC_EINPUT, "%s: is empty, not an FMU file", path);
        goto out;
    }
    if ((uint64_t)st.st_size > lim.max_file_bytes) {
        err = fmuc_diag_set(diag, FMUC_EINPUT, "%s: %llu bytes, over the limit of %llu", path,
                            (unsigned long long)st.st_size,
                            (unsigned long long)lim.max_file_bytes);
        goto out;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);

    /* identity: hashed from the descriptor we keep using, so the file cannot be swapped */
    uint64_t hashed = 0;
    err = fmuc_sha256__fd(out->sha256, fd, &hashed, diag);
    if (err < 0)
        goto out;
    if (hashed != out->file_size) {
        err = fmuc_diag_set(diag, FMUC_EINPUT, "%s: changed size while being read", path);
        goto out;
    }

    err = fmuc_zip__list(&out->listing, &za, fd, out->file_size, &lim, diag);
    if (err == FMUC_EINPUT && diag) {
        char m[sizeof diag->msg];
        snprintf(m, sizeof m, "%s", diag->msg);
        fmuc_diag_set(diag, FMUC_EINPUT, "%s: %s", path, m);
    }
    if (err < 0)
        goto out;

    /* modelDescription.xml at the root, exact name */
    size_t mdi = SIZE_MAX;
    for (size_t i = 0; i < out->listing.nentries; i++)
        if (strcmp(out->listing.entries[i].name, "modelDescription.xml") == 0)
            mdi = i;
    if (mdi == SIZE_MAX) {
        err = fmuc_diag_set(diag, FMUC_EXML, "%s: no modelDescription.xml at the archive root",
                            path);
        goto out;
    }
    out->has_md_file = 1;
    if (out->listing.entries[mdi].size > lim.max_xml_bytes) {
        out->listing.entries[mdi].problems |= FMUC_ZIP_TOO_LARGE;
        out->listing.problems |= FMUC_ZIP_TOO_LARGE;
        err = fmuc_diag_set(diag, FMUC_EZIP, "%s: modelDescription.xml is %llu bytes, over %llu",
                            path, (unsigned long long)out->listing.entries[mdi].size,
                            (unsigned long long)lim.max_xml_bytes);
        goto out;
    }
    /* modelDescription.xml is parsed as it is inflated: its text is never held whole */
    fmuc_zip__entry_reader zr;
    err = fmuc_zip__entry_open(&zr, za, &out->listing, mdi, &lim, &total, diag);
    if (err < 0)
        goto out;
    fmuc_md_limits mdl = {.max_bytes = (size_t)lim.max_xml_bytes};
    fmuc_err perr = fmuc_md_parse_stream(&out->md, zip_read, &zr,
                                         out->listing.entries[mdi].size, &mdl);
    err = fmuc_zip__entry_close(&zr, FMUC_OK);
    if (err < 0) {
        fmuc_md_free(&out->md); /* a model of a damaged entry is not kept */
        goto out;
    }
    if (out->md.root_fmi_version) {
        const char *ver = out->md.root_fmi_version;
        out->fmi_version_seen = strdup(ver);
    }
    /* The binaries folder is named by the version's convention (FMI 3.0: platform tuples). */
    if (out->md.fmi == FMUC_FMI3) {
        free(out->platform);
        out->platform = strdup(fmuc_host_platform_for(3));
        if (!out->platform) {
            err = fmuc_diag_set(diag, FMUC_ENOMEM, "out of memory");
            goto out;
        }
    }
    err = perr;
    if (err == FMUC_EXML) {
        const char *why = out->md.nissues ? out->md.issues[0].message : "unreadable";
        err = fmuc_diag_set(diag, FMUC_EXML, "%s: modelDescription.xml: %s", path, why);
        goto out;
    }
    if (err < 0) {
        err = fmuc_diag_set(diag, err, "%s: modelDescription.xml: out of memory", path);
        goto out;
    }
    out->md_parsed = 1;

    /* Data-level validation of everything not extracted, before anything is written. */
    char bin_prefix[64];
    snprintf(bin_prefix, sizeof bin_prefix, "binaries/%s/", out->platform);
    for (size_t i = 0; i < out->listing.nentries; i++) {
        const char *nm = out->listing.entries[i].name;
        if (i == mdi || has_prefix(nm, bin_prefix) || has_prefix(nm, "resources/"))
            continue;
        err = fmuc_zip__stream(za, &out->listing, i, &lim, &total, NULL, NULL, diag);
        if (err < 0)
            goto out;
    }

    /* Extraction of binaries/<platform>/ and resources/ into a private directory; the stream
     * checks (caps, CRC) still apply and any failure removes the whole tree. */
    err = make_tmp(out, tmp_parent, diag);
    if (err < 0)
        goto out;
    rootfd = open(out->unpack_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (rootfd < 0) {
        err = fmuc_diag_set(diag, FMUC_EIO, "cannot open %s: %s", out->unpack_dir, strerror(errno));
        goto out;
    }
    int rfd = open_dirs(rootfd, "resources", 9);
    if (rfd < 0) {
        err = fmuc_diag_set(diag, FMUC_EIO, "cannot create the resources directory: %s",
                            strerror(errno));
        goto out;
    }
    close(rfd);
    for (size_t i = 0; i < out->listing.nentries; i++) {
        const char *nm = out->listing.entries[i].name;
        int bin = has_prefix(nm, bin_prefix);
        if (!bin && !has_prefix(nm, "resources/"))
            continue;
        err = extract_entry(za, out, i, rootfd, &lim, &total, bin, diag);
        if (err < 0)
            goto out;
    }

    /* the libraries the run will load */
    const char *ids[3] = {out->md.me.present ? out->md.me.model_identifier : NULL,
                          out->md.cs.present ? out->md.cs.model_identifier : NULL,
                          out->md.se.present ? out->md.se.model_identifier : NULL};
    char **dst[3] = {&out->lib_path_me, &out->lib_path_cs, &out->lib_path_se};
    for (int k = 0; k < 3; k++) {
        if (!valid_identifier(ids[k]))
            continue;
        char rel[300];
        snprintf(rel, sizeof rel, "binaries/%s/%s%s", out->platform, ids[k], lib_ext());
        struct stat ls;
        if (fstatat(rootfd, rel, &ls, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(ls.st_mode)) {
            *dst[k] = join(out->unpack_dir, rel, NULL);
            if (!*dst[k]) {
                err = fmuc_diag_set(diag, FMUC_ENOMEM, "out of memory");
                goto out;
            }
        }
    }
    char *res = join(out->unpack_dir, "resources", NULL);
    out->resource_uri = res ? file_uri(res) : NULL;
    free(res);
    if (!out->resource_uri) {
        err = fmuc_diag_set(diag, FMUC_ENOMEM, "out of memory");
        goto out;
    }
    err = FMUC_OK;
out:
    if (err < 0 && out->tmp_dir) {
        /* nothing of a failed open stays on disk */
        fmuc_rmtree(out->tmp_dir);
        free(out->tmp_dir);
        out->tmp_dir = NULL;
        free(out->unpack_dir);
        out->unpack_dir = NULL;
        free(out->lib_path_me);
        free(out->lib_path_cs);
        free(out->lib_path_se);
        free(out->resource_uri);
        out->lib_path_me = out->lib_path_cs = out->lib_path_se = out->resource_uri = NULL;
    }
    if (rootfd >= 0)
        close(rootfd);
    if (za)
        zip_discard(za);
    if (fd >= 0)
        close(fd);
    return err;
}

/* ---------------------------------------------------------------------------------------- */
/* one entry into memory, after the open (terminalsAndIcons.xml, buildDescription.xml ...) */

typedef struct mem_sink {
    char *p;
    size_t n, room; /* room excludes the terminating NUL */
} mem_sink;

static int to_mem(void *payload, const void *data, size_t n)
{
    mem_sink *m = payload;
    if (n > m->room - m->n)
        return FMUC_EZIP; /* never: the stream stops at the declared size, which fits */
    memcpy(m->p + m->n, data, n);
    m->n += n;
    return 0;
}

fmuc_err fmuc_fmu_read_entry(const fmuc_fmu *fmu, const char *name, size_t cap, char **buf,
                             size_t *len, fmuc_diag *diag)
{
    fmuc_err err = FMUC_OK;
    int fd = -1;
    zip_t *za = NULL;
    fmuc_zip_listing l;
    mem_sink m = {0};
    memset(&l, 0, sizeof l);
    if (buf)
        *buf = NULL;
    if (len)
        *len = 0;
    if (!fmu || !fmu->path || !name || !buf)
        return fmuc_diag_set(diag, FMUC_EINPUT, "no FMU or no entry name");
    size_t idx = SIZE_MAX, copies = 0;
    for (size_t i = 0; i < fmu->listing.nentries; i++)
        if (fmu->listing.entries[i].name && strcmp(fmu->listing.entries[i].name, name) == 0) {
            idx = i;
            copies++;
        }
    if (!copies)
        return fmuc_diag_set(diag, FMUC_EINPUT, "the archive has no entry \"%s\"", name);
    if (copies > 1)
        return fmuc_diag_set(diag, FMUC_EZIP, "\"%s\" is stored %zu times in the archive; which "
                             "copy counts is undefined", name, copies);
    const fmuc_zip_entry *e = &fmu->listing.entries[idx];
    if (e->is_dir)
        return fmuc_diag_set(diag, FMUC_EINPUT, "\"%s\" is a folder entry", name);
    if (e->problems & FMUC_ZIP_UNSAFE) {
        uint32_t bad = e->problems & FMUC_ZIP_UNSAFE;
        return fmuc_diag_set(diag, FMUC_EZIP, "entry \"%s\" is unsafe to read (%s)", name,
                             fmuc_zip_problem_name(bad & (~bad + 1)));
    }
    if (e->size > cap)
        return fmuc_diag_set(diag, FMUC_EZIP, "\"%s\" is %llu bytes, over the limit of %zu "
                             "bytes for reading it", name, (unsigned long long)e->size, cap);

    fd = open(fmu->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
        (uint64_t)st.st_size != fmu->file_size) {
        err = fmuc_diag_set(diag, FMUC_EINPUT, "%s: cannot be read again, or changed since it was "
                            "opened", fmu->path);
        goto out;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    fmuc_fmu_limits lim;
    fmuc_zip__limits(&lim, NULL);
    err = fmuc_zip__list(&l, &za, fd, fmu->file_size, &lim, diag);
    if (err < 0)
        goto out;
    /* the same archive: the entry at the same index with the same header facts */
    const fmuc_zip_entry *e2 = idx < l.nentries ? &l.entries[idx] : NULL;
    if (l.nentries != fmu->listing.nentries || !e2 || strcmp(e2->name, name) != 0 ||
        e2->size != e->size || e2->crc != e->crc || e2->local_offset != e->local_offset) {
        err = fmuc_diag_set(diag, FMUC_EINPUT, "%s: changed since it was opened", fmu->path);
        goto out;
    }
    m.room = (size_t)e->size;
    m.p = malloc(m.room + 1);
    if (!m.p) {
        err = fmuc_diag_set(diag, FMUC_ENOMEM, "out of memory reading \"%s\"", name);
        goto out;
    }
    uint64_t total = 0;
    err = fmuc_zip__stream(za, &l, idx, &lim, &total, to_mem, &m, diag);
    if (err < 0)
        goto out;
    m.p[m.n] = '\0';
    *buf = m.p;
    if (len)
        *len = m.n;
    m.p = NULL;
out:
    free(m.p);
    fmuc_zip__listing_free(&l);
    if (za)
        zip_discard(za);
    if (fd >= 0)
        close(fd);
    return err;
}

void fmuc_fmu_close(fmuc_fmu *fmu)
{
    if (!fmu)
        return;
    if (fmu->tmp_dir)
        fmuc_rmtree(fmu->tmp_dir);
    free(fmu->tmp_dir);
    free(fmu->unpack_dir);
    free(fmu->resource_uri);
    free(fmu->platform);
    free(fmu->lib_path_me);
    free(fmu->lib_path_cs);
    free(fmu->lib_path_se);
    free(fmu->fmi_version_seen);
    fmuc_md_free(&fmu->md);
    fmuc_zip__listing_free(&fmu->listing);
    free(fmu->path);
    free(fmu->file_name);
    memset(fmu, 0, sizeof *fmu);
}

const char *fmuc_fmu_lib_path(const fmuc_fmu *fmu, int k)
{
    if (!fmu)
        return NULL;
    return k == 2 ? fmu->lib_path_se : k == 1 ? fmu->lib_path_cs : k == 0 ? fmu->lib_path_me : NULL;
}
