/* Private helpers of the model-description parser: a chunked string arena (pointers stay valid
 * until it is freed) and locale-independent XSD number parsing. */
#ifndef FMUC_MD_ARENA_H
#define FMUC_MD_ARENA_H

#include <stddef.h>
#include <stdint.h>

typedef struct fmuc_md__chunk fmuc_md__chunk;

typedef struct fmuc_md__arena {
    fmuc_md__chunk *head;
    size_t total; /* bytes allocated in chunks */
} fmuc_md__arena;

/** Allocate n bytes aligned to align (a power of two <= 16). NULL on out of memory. */
void *fmuc_md__arena_alloc(fmuc_md__arena *a, size_t n, size_t align);
/** Copy n bytes of s plus a NUL. */
char *fmuc_md__arena_strndup(fmuc_md__arena *a, const char *s, size_t n);
void fmuc_md__arena_free(fmuc_md__arena *a);

/* Number parsers for XSD lexical forms; surrounding XML whitespace is accepted (collapse).
 * Return 0 when valid, -1 when the text is not of the type, -2 when out of range
 * (for doubles: NaN/INF spelled out or overflow, both forbidden by FMI 2.0 §2.2). */
int fmuc_md__parse_double(const char *s, double *out);
int fmuc_md__parse_int32(const char *s, int32_t *out);
/* xs:long: 0, -1 (syntax) or -2 (out of range) */
int fmuc_md__parse_int64(const char *s, int64_t *out);
/* xs:unsignedLong: as fmuc_md__parse_int64 */
int fmuc_md__parse_uint64(const char *s, uint64_t *out);
int fmuc_md__parse_uint32(const char *s, uint32_t *out);
int fmuc_md__parse_bool(const char *s, int *out);

#endif
