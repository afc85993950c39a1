/* Opening an FMU file: identity (sha256), safe archive listing and validation, model description,
 * private extraction of binaries and resources (FMI 2.0 §2.3). */
#ifndef FMUC_FMU_H
#define FMUC_FMU_H

#include <stddef.h>
#include <stdint.h>

#include "fmuc/fmuc_err.h"
#include "fmuc/fmuc_md.h"

/* Why an archive entry is unsafe or non-conforming (fmuc_zip_entry.problems bits) */
enum {
    FMUC_ZIP_DOTDOT = 1u << 0,        /* ".." component (zip-slip) */
    FMUC_ZIP_ABSOLUTE = 1u << 1,      /* leading '/' or drive letter */
    FMUC_ZIP_BACKSLASH = 1u << 2,     /* '\\' in the name */
    FMUC_ZIP_SYMLINK = 1u << 3,       /* Unix mode says link */
    FMUC_ZIP_ENCRYPTED = 1u << 4,
    FMUC_ZIP_METHOD = 1u << 5,        /* compression neither store (0) nor deflate (8) */
    FMUC_ZIP_VERSION = 1u << 6,       /* version needed to extract > 20 */
    FMUC_ZIP_DESCRIPTOR = 1u << 7,    /* data descriptor (flag bit 3) on a stored entry */
    FMUC_ZIP_DOT_PREFIX = 1u << 8,    /* "./" component */
    FMUC_ZIP_NON_ASCII = 1u << 9,     /* non-ASCII name (allowed, discouraged) */
    FMUC_ZIP_BAD_NAME = 1u << 10,     /* empty component, NUL or control character */
    FMUC_ZIP_DUPLICATE = 1u << 11,    /* same name twice, and the entry is read or extracted
                                         (modelDescription.xml, binaries/, resources/): unsafe */
    FMUC_ZIP_TOO_LARGE = 1u << 12,    /* over the per-entry size cap */
    FMUC_ZIP_RATIO = 1u << 13,        /* compression ratio beyond the cap (bomb) */
    FMUC_ZIP_CRC = 1u << 14,          /* CRC mismatch found while reading */
    FMUC_ZIP_OVERLAP = 1u << 15,      /* entry data overlaps another entry or the directory */
    FMUC_ZIP_ENTRY_COUNT = 1u << 16,  /* archive: more entries than limits.max_entries */
    FMUC_ZIP_INCONSISTENT = 1u << 17, /* central directory / local header / data inconsistent */
    FMUC_ZIP_CASE_COLLISION = 1u << 18, /* two names equal ignoring ASCII case (not unsafe) */
    FMUC_ZIP_TOTAL_SIZE = 1u << 19,   /* archive: inflated bytes over limits.max_total_bytes */
    FMUC_ZIP_MULTI_DISK = 1u << 20,   /* archive: split or spanned */
    FMUC_ZIP_DUPLICATE_OTHER = 1u << 21 /* same name twice elsewhere (a folder entry, extra/,
                                           documentation/, sources/ ...): nothing fmucheck reads
                                           depends on which copy wins (zip-case-collision) */
};
/* Problems that make the archive unsafe to open: it is rejected (input-rejected exit code). */
#define FMUC_ZIP_UNSAFE                                                                       \
    (FMUC_ZIP_DOTDOT | FMUC_ZIP_ABSOLUTE | FMUC_ZIP_BACKSLASH | FMUC_ZIP_SYMLINK |            \
     FMUC_ZIP_ENCRYPTED | FMUC_ZIP_METHOD | FMUC_ZIP_BAD_NAME | FMUC_ZIP_TOO_LARGE |          \
     FMUC_ZIP_RATIO | FMUC_ZIP_CRC | FMUC_ZIP_DUPLICATE | FMUC_ZIP_OVERLAP |                  \
     FMUC_ZIP_ENTRY_COUNT | FMUC_ZIP_INCONSISTENT | FMUC_ZIP_TOTAL_SIZE | FMUC_ZIP_MULTI_DISK)

typedef struct fmuc_zip_entry {
    const char *name;        /* as stored (raw bytes, NUL-terminated) */
    uint64_t size, comp_size;
    uint32_t crc;
    uint32_t external_attr;
    uint16_t method;
    uint16_t flags;          /* general-purpose bit flag */
    uint16_t version_needed;
    uint8_t made_by_os;
    uint8_t is_dir;
    uint32_t problems;       /* FMUC_ZIP_* */
    uint64_t local_offset;   /* of the local header (central directory value) */
    uint16_t encryption;     /* libzip encryption method (0 none) */
    uint8_t extracted;       /* written to unpack_dir */
    uint8_t verified;        /* read to the end with CRC checked */
} fmuc_zip_entry;

typedef struct fmuc_zip_listing {
    size_t nentries;
    fmuc_zip_entry *entries;
    uint32_t problems;       /* union of entry problems plus archive-level ones below */
    int zip64;               /* archive uses ZIP64 records */
    int multi_disk;          /* split or spanned */
    uint64_t total_size;     /* sum of declared uncompressed sizes */
} fmuc_zip_listing;

/** Size caps for opening; zero fields take the defaults in parentheses. */
typedef struct fmuc_fmu_limits {
    uint64_t max_file_bytes;    /* the .fmu file itself (4 GiB) */
    size_t max_entries;         /* (65,536) */
    uint64_t max_entry_bytes;   /* one inflated entry (1 GiB) */
    uint64_t max_total_bytes;   /* all inflated bytes extracted (2 GiB) */
    uint64_t max_ratio;         /* inflated/compressed per entry above 1 MiB (1000) */
    uint64_t max_xml_bytes;     /* modelDescription.xml (512 MiB) */
} fmuc_fmu_limits;

typedef struct fmuc_fmu {
    char *path;              /* as given */
    char *file_name;         /* basename */
    uint64_t file_size;
    char sha256[65];         /* lowercase hex of the file's bytes */
    fmuc_zip_listing listing;
    int has_md_file;         /* modelDescription.xml at the root */
    int md_parsed;           /* md below is valid */
    fmuc_md md;
    char *fmi_version_seen;  /* fmiVersion attribute as read (also for 1.0/3.0 files) */
    char *tmp_dir;           /* private mkdtemp directory, removed by fmuc_fmu_close */
    char *unpack_dir;        /* tmp_dir/fmu: binaries/<platform>/ and resources/ extracted here */
    char *resource_uri;      /* file:// URI of unpack_dir/resources (percent-encoded) */
    char *platform;          /* host platform folder name, "linux64" */
    char *lib_path_me;       /* extracted binaries/linux64/<ME modelIdentifier>.so, NULL if none */
    char *lib_path_cs;       /* same for CS */
    char *lib_path_se;       /* same for FMI 3.0 ScheduledExecution */
} fmuc_fmu;

/** Open an FMU: refuse anything that is not a regular readable file (FMUC_EINPUT), hash it,
 *  list and validate every entry before extracting anything (FMUC_EZIP when unsafe; the listing
 *  is still filled), read and parse modelDescription.xml (FMUC_EUNSUPPORTED for FMI 1.0/3.0),
 *  extract binaries for this platform and resources into a private temp dir.
 *  tmp_parent NULL means $TMPDIR or /tmp. *out is always initialised; call fmuc_fmu_close. */
fmuc_err fmuc_fmu_open(fmuc_fmu *out, const char *path, const fmuc_fmu_limits *limits,
                       const char *tmp_parent, fmuc_diag *diag);

/** Inflate the archive entry `name` (an exact name from fmu->listing) of an opened FMU into
 *  memory: *buf (NUL-terminated, free() it) and *len. The archive is opened again from fmu->path
 *  and must still list the entry with the same size, CRC and offset (else FMUC_EINPUT: the file
 *  changed). Refused: a name not listed or listed twice, a directory, an unsafe entry
 *  (FMUC_ZIP_UNSAFE bits), a declared or inflated size over cap bytes (FMUC_EZIP, diag says
 *  which); the stream has the caps and CRC check of fmuc_fmu_open. *buf is NULL on error. */
fmuc_err fmuc_fmu_read_entry(const fmuc_fmu *fmu, const char *name, size_t cap, char **buf,
                             size_t *len, fmuc_diag *diag);

/** Short name of one FMUC_ZIP_* bit ("dotdot", "symlink" ...), "unknown" otherwise. */
const char *fmuc_zip_problem_name(uint32_t bit);

/** Remove the temp dir and free everything. Safe on a partly opened or zeroed fmu. */
void fmuc_fmu_close(fmuc_fmu *fmu);

/** SHA-256 of a file as lowercase hex (libcrypto). */
fmuc_err fmuc_sha256_file(char out[65], const char *path, fmuc_diag *diag);

/** Remove a directory tree without following symlinks. */
fmuc_err fmuc_rmtree(const char *path);
/** Remove everything inside the directory path, keeping the directory (no links followed). */
fmuc_err fmuc_rmtree_contents(const char *path);

/** The FMU's FMI version (1, 2 or 3): the model description's, else the fmiVersion seen at the
 *  root, else 2 (an unreadable document is judged as FMI 2.0, the version most FMUs are). */
int fmuc_fmu_fmi_version(const fmuc_fmu *fmu);
/** The extracted library of interface k (0 ModelExchange, 1 CoSimulation, 2 FMI 3.0
 *  ScheduledExecution: the values of fmuc_iface), NULL when there is none. */
const char *fmuc_fmu_lib_path(const fmuc_fmu *fmu, int k);

/** The host's FMI 2.0 platform folder name ("linux64" on x86-64 Linux). */
const char *fmuc_host_platform(void);
/** The host's binaries folder for an FMU of FMI version 1, 2 or 3 ("x86_64-linux" for 3.0). */
const char *fmuc_host_platform_for(int fmi_version);

#endif
