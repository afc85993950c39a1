/* Small helpers shared by the zip-* checks (header-only, file-local copies): printable entry
 * names for messages and path component handling of archive entry names. */
#ifndef FMUC_CHECKS_ZIP_UTIL_H
#define FMUC_CHECKS_ZIP_UTIL_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "fmuc/fmuc_fmu.h"

/* Length of a valid UTF-8 sequence at s (1..4), 0 when invalid. */
static inline size_t zipu_utf8_len(const unsigned char *s)
{
    if (s[0] < 0x80)
        return 1;
    size_t n = (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3 : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (!n || (n == 2 && s[0] < 0xc2) || s[0] > 0xf4)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

/* Copy name into buf for a message: valid UTF-8 is kept, control characters and invalid bytes
 * are shown as \xNN; long names are cut with "...". */
static inline const char *zipu_show(char *buf, size_t size, const char *name)
{
    size_t o = 0;
    const unsigned char *s = (const unsigned char *)(name ? name : "");
    while (*s && o + 8 < size) {
        size_t n = zipu_utf8_len(s);
        if (n == 1 && *s >= 0x20 && *s != 0x7f) {
            buf[o++] = (char)*s++;
        } else if (n > 1) {
            memcpy(buf + o, s, n);
            o += n;
            s += n;
        } else {
            o += (size_t)snprintf(buf + o, size - o, "\\x%02x", *s++);
        }
    }
    if (*s && size >= 4) {
        if (o > size - 4)
            o = size - 4;
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o < size ? o : size - 1] = '\0';
    return buf;
}

/* Does name start with the directory prefix (e.g. "sources/")? */
static inline int zipu_under(const char *name, const char *prefix)
{
    return name && strncmp(name, prefix, strlen(prefix)) == 0;
}

/* Component i (0-based) of a '/'-separated name into out; returns 0 when there is none. */
static inline int zipu_component(const char *name, size_t i, char *out, size_t size)
{
    const char *p = name;
    for (; i > 0; i--) {
        p = strchr(p, '/');
        if (!p)
            return 0;
        p++;
    }
    size_t len = strcspn(p, "/");
    if (!p[len] && len == 0)
        return 0;
    if (len >= size)
        len = size - 1;
    memcpy(out, p, len);
    out[len] = '\0';
    return 1;
}

/* Does the archive hold an entry (file or directory) with exactly this name? */
static inline const fmuc_zip_entry *zipu_find(const fmuc_zip_listing *l, const char *name)
{
    for (size_t i = 0; i < l->nentries; i++)
        if (l->entries[i].name && strcmp(l->entries[i].name, name) == 0)
            return &l->entries[i];
    return NULL;
}

/* A directory entry ends in '/' (or is flagged so by the lister). */
static inline int zipu_is_dir(const fmuc_zip_entry *e)
{
    size_t n = e->name ? strlen(e->name) : 0;
    return e->is_dir || (n > 0 && e->name[n - 1] == '/');
}

/* FMI 1.0 has no ZIP rules of its own beyond "one ZIP file" (../shared/fmi1-rules.md A-09): the
 * ZIP limits FMI 2.0.4 §2.3 adds are tool heuristics for a 1.0 FMU, so its findings warn. */
#define ZIPU_VIOLATION(s, res, ...)                                                                \
    ((fmuc_fmu_fmi_version((s)->fmu) == 1 ? fmuc_result_warn : fmuc_result_violation)(res,      \
                                                                                   __VA_ARGS__))

#endif
