/* A small, bounds-checked reader for the parts of a shared library that binary checks need:
 * the ELF header (class, byte order, machine), program headers (PT_GNU_STACK), the dynamic
 * section (DT_NEEDED, DT_RPATH, DT_RUNPATH, DT_SONAME) and the defined .dynsym symbols. Also
 * identifies PE and Mach-O headers for the architecture check (FMI 2.0.4 §2.3). Never trusts
 * an offset or count in the file; a truncated or garbage file yields an error, never a crash. */
#ifndef FMUC_ELF_H
#define FMUC_ELF_H

#include <stddef.h>
#include <stdint.h>

#include "fmuc/fmuc_err.h"

typedef enum {
    FMUC_BIN_UNKNOWN = 0, /* none of the formats below */
    FMUC_BIN_ELF,
    FMUC_BIN_PE,
    FMUC_BIN_MACHO,       /* thin Mach-O */
    FMUC_BIN_MACHO_FAT    /* universal binary */
} fmuc_bin_format;

/** What the first bytes of a file say about its format and architecture. */
typedef struct fmuc_bin_header {
    fmuc_bin_format format;
    int bits;              /* 32 or 64; 0 when unknown */
    int big_endian;
    uint32_t machine;      /* ELF e_machine, PE Machine, Mach-O cputype (first slice for fat) */
    uint16_t elf_type;     /* ELF e_type (ET_DYN = 3) */
    size_t nslices;        /* Mach-O fat: number of architectures (up to 8 kept below) */
    uint32_t slices[8];    /* Mach-O fat: cputype of each slice */
} fmuc_bin_header;

/** How many leading bytes fmuc_bin_header_parse wants to see (PE headers sit behind e_lfanew). */
#define FMUC_BIN_HEADER_BYTES 4096u

/** Identify the format and architecture from the first bytes of a file (len may be short).
 *  Returns FMUC_OK also for an unknown format (format FMUC_BIN_UNKNOWN). */
fmuc_err fmuc_bin_header_parse(fmuc_bin_header *out, const unsigned char *data, size_t len);

/** Read the first FMUC_BIN_HEADER_BYTES bytes of one entry of a zip archive and identify them.
 *  Reads at most that many inflated bytes. */
fmuc_err fmuc_bin_header_from_zip(fmuc_bin_header *out, const char *zip_path, const char *entry,
                                  fmuc_diag *diag);

/** A symbol defined and exported by a shared library (.dynsym, global/weak, default/protected). */
typedef struct fmuc_elf_symbol {
    char *name;
    uint8_t type;          /* STT_* */
    uint8_t bind;          /* STB_* */
    uint16_t shndx;        /* section index (SHN_ABS for absolute symbols) */
    uint64_t value;
} fmuc_elf_symbol;

typedef struct fmuc_elf_info {
    fmuc_bin_header header;
    uint16_t type;         /* e_type */
    int has_gnu_stack;     /* a PT_GNU_STACK program header is present */
    int exec_stack;        /* PT_GNU_STACK has PF_X, or it is missing (the loader then assumes an
                            * executable stack on x86) */
    int has_dynamic;       /* PT_DYNAMIC found and read */
    size_t nneeded;
    char **needed;         /* DT_NEEDED names in order */
    char *soname;          /* DT_SONAME or NULL */
    char *rpath;           /* DT_RPATH or NULL */
    char *runpath;         /* DT_RUNPATH or NULL */
    int has_dynsym;        /* a SHT_DYNSYM section was found (section headers present) */
    size_t nsymbols;
    fmuc_elf_symbol *symbols; /* defined exported symbols, in table order */
} fmuc_elf_info;

/** Parse an ELF shared object held in memory. FMUC_EINPUT when it is not ELF at all,
 *  FMUC_ERROR when it is malformed or truncated (detail in diag; fields read so far stay set),
 *  FMUC_ENOMEM. *out is always initialised; call fmuc_elf_free. */
fmuc_err fmuc_elf_parse(fmuc_elf_info *out, const unsigned char *data, size_t len, fmuc_diag *diag);

/** Read a file (regular files only, at most max_bytes; 0 means 1 GiB) and parse it. */
fmuc_err fmuc_elf_parse_file(fmuc_elf_info *out, const char *path, uint64_t max_bytes,
                             fmuc_diag *diag);

void fmuc_elf_free(fmuc_elf_info *info);

/** "x86-64", "i386", "AArch64", "ARM", ... or NULL for an unknown ELF e_machine. */
const char *fmuc_elf_machine_name(uint32_t machine);

/** Expected architecture of a platform folder under binaries/ (FMI 2 names and FMI 3 tuples).
 *  Returns 0 when the folder is not one we know (vendor-specific name). format is the
 *  expected file format; machine the ELF e_machine, PE Machine or Mach-O cputype. */
int fmuc_platform_arch(const char *platform, fmuc_bin_format *format, int *bits, uint32_t *machine);

/** 1 when platform is an FMI 3.0 platform tuple (FMI 3.0.2 §2.5.1.4.1): <arch>-<sys> with <arch>
 *  aarch32, aarch64, x86 or x86_64 and <sys> darwin, linux or windows, or (static libraries)
 *  <arch>-<sys>-<abi> with <abi> of [a-z][a-z0-9_]*; 0 otherwise (a vendor's name). */
int fmuc_platform_is_tuple(const char *platform);

#endif
