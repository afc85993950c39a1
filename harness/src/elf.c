/* Bounds-checked ELF / PE / Mach-O header reading for the binary (load-*) checks. Every offset,
 * size and count read from the file is validated against the buffer before use. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zip.h>

#include "fmuc/fmuc_elf.h"

#define MAX_SYMBOLS 200000u
#define MAX_DYN_ENTRIES 100000u
#define MAX_NEEDED 4096u

typedef struct rdr {
    const unsigned char *d;
    size_t n;
    int be;
} rdr;

static int in_bounds(const rdr *r, uint64_t off, uint64_t len)
{
    return off <= r->n && len <= r->n - off;
}

static int rd(const rdr *r, uint64_t off, unsigned width, uint64_t *out)
{
    if (!in_bounds(r, off, width))
        return 0;
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++) {
        unsigned idx = r->be ? i : width - 1 - i;
        v = (v << 8) | r->d[off + idx];
    }
    *out = v;
    return 1;
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16 | (uint32_t)p[0] << 24;
}

/* Mach-O cputypes (mach/machine.h) and PE machines (winnt.h): facts, not headers we have. */
#define MACHO_CPU_X86 7u
#define MACHO_CPU_X86_64 0x01000007u
#define MACHO_CPU_ARM 12u
#define MACHO_CPU_ARM64 0x0100000cu
#define PE_MACHINE_I386 0x014cu
#define PE_MACHINE_AMD64 0x8664u
#define PE_MACHINE_ARMNT 0x01c4u
#define PE_MACHINE_ARM64 0xaa64u

fmuc_err fmuc_bin_header_parse(fmuc_bin_header *out, const unsigned char *data, size_t len)
{
    memset(out, 0, sizeof *out);
    if (!data)
        return FMUC_OK;
    if (len >= 20 && memcmp(data, ELFMAG, SELFMAG) == 0) {
        out->format = FMUC_BIN_ELF;
        out->bits = data[EI_CLASS] == ELFCLASS64 ? 64 : data[EI_CLASS] == ELFCLASS32 ? 32 : 0;
        out->big_endian = data[EI_DATA] == ELFDATA2MSB;
        rdr r = {data, len, out->big_endian};
        uint64_t v = 0;
        if (rd(&r, 16, 2, &v))
            out->elf_type = (uint16_t)v;
        if (rd(&r, 18, 2, &v))
            out->machine = (uint32_t)v;
        return FMUC_OK;
    }
    if (len >= 8) {
        uint32_t m = le32(data);
        if (m == 0xfeedfaceu || m == 0xfeedfacfu || m == 0xcefaedfeu || m == 0xcffaedfeu) {
            int swapped = (m == 0xcefaedfeu || m == 0xcffaedfeu);
            out->format = FMUC_BIN_MACHO;
            out->bits = (m == 0xfeedfacfu || m == 0xcffaedfeu) ? 64 : 32;
            out->big_endian = swapped;
            out->machine = swapped ? be32(data + 4) : le32(data + 4);
            return FMUC_OK;
        }
        uint32_t fm = be32(data);
        if (fm == 0xcafebabeu || fm == 0xcafebabfu) {
            uint32_t nfat = be32(data + 4);
            /* Java class files share the magic; their "count" is a large version number. */
            if (nfat >= 1 && nfat <= 32) {
                size_t stride = fm == 0xcafebabfu ? 32 : 20;
                out->format = FMUC_BIN_MACHO_FAT;
                out->big_endian = 1;
                for (uint32_t i = 0; i < nfat; i++) {
                    size_t off = 8 + (size_t)i * stride;
                    if (off + 4 > len)
                        break;
                    uint32_t cpu = be32(data + off);
                    if (out->nslices < sizeof out->slices / sizeof out->slices[0])
                        out->slices[out->nslices++] = cpu;
                }
                if (out->nslices) {
                    out->machine = out->slices[0];
                    out->bits = (out->machine & 0x01000000u) ? 64 : 32;
                }
                return FMUC_OK;
            }
        }
    }
    if (len >= 0x40 && data[0] == 'M' && data[1] == 'Z') {
        uint32_t lfanew = le32(data + 0x3c);
        if (lfanew <= len && len - lfanew >= 24 + 2 && memcmp(data + lfanew, "PE\0\0", 4) == 0) {
            out->format = FMUC_BIN_PE;
            out->machine = (uint32_t)data[lfanew + 4] | (uint32_t)data[lfanew + 5] << 8;
            unsigned magic = (unsigned)data[lfanew + 24] | (unsigned)data[lfanew + 25] << 8;
            out->bits = magic == 0x20b ? 64 : magic == 0x10b ? 32 : 0;
        }
    }
    return FMUC_OK;
}

fmuc_err fmuc_bin_header_from_zip(fmuc_bin_header *out, const char *zip_path, const char *entry,
                                  fmuc_diag *diag)
{
    memset(out, 0, sizeof *out);
    int zerr = 0;
    fmuc_err err = FMUC_OK;
    zip_file_t *zf = NULL;
    unsigned char *buf = NULL;
    zip_t *za = zip_open(zip_path, ZIP_RDONLY, &zerr);
    if (!za)
        return fmuc_diag_set(diag, FMUC_EZIP, "cannot open '%s' as zip (libzip error %d)",
                             zip_path, zerr);
    zf = zip_fopen(za, entry, ZIP_FL_ENC_RAW);
    if (!zf) {
        err = fmuc_diag_set(diag, FMUC_EZIP, "cannot read entry '%s': %s", entry,
                            zip_strerror(za));
        goto out;
    }
    buf = malloc(FMUC_BIN_HEADER_BYTES);
    if (!buf) {
        err = fmuc_diag_set(diag, FMUC_ENOMEM, "out of memory");
        goto out;
    }
    size_t got = 0;
    while (got < FMUC_BIN_HEADER_BYTES) {
        zip_int64_t n = zip_fread(zf, buf + got, FMUC_BIN_HEADER_BYTES - got);
        if (n < 0) {
            err = fmuc_diag_set(diag, FMUC_EZIP, "reading entry '%s' failed", entry);
            goto out;
        }
        if (n == 0)
            break;
        got += (size_t)n;
    }
    err = fmuc_bin_header_parse(out, buf, got);
out:
    free(buf);
    if (zf)
        zip_fclose(zf);
    zip_discard(za);
    return err;
}

typedef struct elf_ctx {
    rdr r;
    int is64;
    fmuc_elf_info *info;
    fmuc_diag *diag;
    uint64_t phoff, shoff;
    unsigned phentsize, phnum, shentsize, shnum;
} elf_ctx;

static fmuc_err bad(elf_ctx *c, const char *what)
{
    return fmuc_diag_set(c->diag, FMUC_ERROR, "malformed ELF: %s", what);
}

/* A NUL-terminated string at off inside [base, base+size) and the buffer. */
static char *str_at(const elf_ctx *c, uint64_t base, uint64_t size, uint64_t off)
{
    if (off >= size || !in_bounds(&c->r, base, size))
        return NULL;
    const char *s = (const char *)c->r.d + base + off;
    const void *nul = memchr(s, '\0', (size_t)(size - off));
    if (!nul)
        return NULL;
    return strdup(s);
}

/* Program header i: type, flags, offset, vaddr, filesz. */
static int phdr(const elf_ctx *c, unsigned i, uint64_t *type, uint64_t *flags, uint64_t *off,
                uint64_t *vaddr, uint64_t *filesz)
{
    uint64_t b = c->phoff + (uint64_t)i * c->phentsize;
    if (c->is64)
        return rd(&c->r, b, 4, type) && rd(&c->r, b + 4, 4, flags) && rd(&c->r, b + 8, 8, off) &&
               rd(&c->r, b + 16, 8, vaddr) && rd(&c->r, b + 32, 8, filesz);
    return rd(&c->r, b, 4, type) && rd(&c->r, b + 4, 4, off) && rd(&c->r, b + 8, 4, vaddr) &&
           rd(&c->r, b + 16, 4, filesz) && rd(&c->r, b + 24, 4, flags);
}

/* Section header i: type, offset, size, link, entsize. */
static int shdr(const elf_ctx *c, unsigned i, uint64_t *type, uint64_t *off, uint64_t *size,
                uint64_t *link, uint64_t *entsize)
{
    uint64_t b = c->shoff + (uint64_t)i * c->shentsize;
    if (c->is64)
        return rd(&c->r, b + 4, 4, type) && rd(&c->r, b + 24, 8, off) &&
               rd(&c->r, b + 32, 8, size) && rd(&c->r, b + 40, 4, link) &&
               rd(&c->r, b + 56, 8, entsize);
    return rd(&c->r, b + 4, 4, type) && rd(&c->r, b + 16, 4, off) && rd(&c->r, b + 20, 4, size) &&
           rd(&c->r, b + 24, 4, link) && rd(&c->r, b + 36, 4, entsize);
}

/* Map a virtual address to a file offset through the PT_LOAD segments. */
static int vaddr_to_off(const elf_ctx *c, uint64_t va, uint64_t *off)
{
    for (unsigned i = 0; i < c->phnum; i++) {
        uint64_t type, flags, poff, pva, fsz;
        if (!phdr(c, i, &type, &flags, &poff, &pva, &fsz))
            return 0;
        if (type == PT_LOAD && va >= pva && va - pva < fsz) {
            *off = poff + (va - pva);
            return 1;
        }
    }
    return 0;
}

static fmuc_err add_symbol(fmuc_elf_info *info, char *name, uint8_t type, uint8_t bind,
                           uint16_t shndx, uint64_t value)
{
    fmuc_elf_symbol *n = realloc(info->symbols, (info->nsymbols + 1) * sizeof *n);
    if (!n) {
        free(name);
        return FMUC_ENOMEM;
    }
    info->symbols = n;
    n[info->nsymbols].name = name;
    n[info->nsymbols].type = type;
    n[info->nsymbols].bind = bind;
    n[info->nsymbols].shndx = shndx;
    n[info->nsymbols].value = value;
    info->nsymbols++;
    return FMUC_OK;
}

/* Read a symbol table of count entries at off with string table [stroff, stroff+strsz). */
static fmuc_err read_symbols(elf_ctx *c, uint64_t off, uint64_t entsize, uint64_t count,
                             uint64_t stroff, uint64_t strsz)
{
    unsigned want = c->is64 ? 24u : 16u;
    if (entsize < want)
        return bad(c, "symbol entry size too small");
    if (count > MAX_SYMBOLS)
        return bad(c, "too many dynamic symbols");
    if (!in_bounds(&c->r, stroff, strsz))
        return bad(c, "dynamic string table outside the file");
    for (uint64_t i = 1; i < count; i++) {
        uint64_t b = off + i * entsize, name, info, other, shndx, value;
        int ok = c->is64 ? rd(&c->r, b, 4, &name) && rd(&c->r, b + 4, 1, &info) &&
                               rd(&c->r, b + 5, 1, &other) && rd(&c->r, b + 6, 2, &shndx) &&
                               rd(&c->r, b + 8, 8, &value)
                         : rd(&c->r, b, 4, &name) && rd(&c->r, b + 4, 4, &value) &&
                               rd(&c->r, b + 12, 1, &info) && rd(&c->r, b + 13, 1, &other) &&
                               rd(&c->r, b + 14, 2, &shndx);
        if (!ok)
            return bad(c, "symbol table truncated");
        unsigned bind = (unsigned)info >> 4, type = (unsigned)info & 0xf, vis = (unsigned)other & 3;
        if (shndx == SHN_UNDEF || (bind != STB_GLOBAL && bind != STB_WEAK && bind != STB_GNU_UNIQUE))
            continue;
        if (vis != STV_DEFAULT && vis != STV_PROTECTED)
            continue;
        if (type == STT_SECTION || type == STT_FILE)
            continue;
        char *s = str_at(c, stroff, strsz, name);
        if (!s)
            return bad(c, "symbol name outside the string table");
        if (!*s) {
            free(s);
            continue;
        }
        fmuc_err err = add_symbol(c->info, s, (uint8_t)type, (uint8_t)bind, (uint16_t)shndx, value);
        if (err < 0)
            return fmuc_diag_set(c->diag, err, "out of memory");
    }
    return FMUC_OK;
}

/* Number of .dynsym entries from DT_GNU_HASH (no section headers). 0 when unreadable. */
static uint64_t gnu_hash_count(const elf_ctx *c, uint64_t off)
{
    uint64_t nbuckets, symoffset, bloom, shift;
    if (!rd(&c->r, off, 4, &nbuckets) || !rd(&c->r, off + 4, 4, &symoffset) ||
        !rd(&c->r, off + 8, 4, &bloom) || !rd(&c->r, off + 12, 4, &shift))
        return 0;
    uint64_t buckets = off + 16 + bloom * (c->is64 ? 8u : 4u);
    if (nbuckets > MAX_SYMBOLS || !in_bounds(&c->r, buckets, nbuckets * 4))
        return 0;
    uint64_t maxsym = 0;
    for (uint64_t i = 0; i < nbuckets; i++) {
        uint64_t b;
        if (!rd(&c->r, buckets + 4 * i, 4, &b))
            return 0;
        if (b > maxsym)
            maxsym = b;
    }
    if (maxsym < symoffset)
        return symoffset;
    uint64_t chain = buckets + 4 * nbuckets;
    for (uint64_t i = maxsym; i < MAX_SYMBOLS; i++) {
        uint64_t h;
        if (!rd(&c->r, chain + 4 * (i - symoffset), 4, &h))
            return 0;
        if (h & 1)
            return i + 1;
    }
    return 0;
}

static fmuc_err read_dynamic(elf_ctx *c)
{
    fmuc_elf_info *info = c->info;
    uint64_t dyn_off = 0, dyn_size = 0;
    int found = 0;
    for (unsigned i = 0; i < c->phnum; i++) {
        uint64_t type, flags, off, va, fsz;
        if (!phdr(c, i, &type, &flags, &off, &va, &fsz))
            return bad(c, "program headers truncated");
        if (type == PT_GNU_STACK) {
            info->has_gnu_stack = 1;
            info->exec_stack = (flags & PF_X) != 0;
        } else if (type == PT_DYNAMIC && !found) {
            dyn_off = off;
            dyn_size = fsz;
            found = 1;
        }
    }
    if (!info->has_gnu_stack)
        info->exec_stack = 1;
    if (!found)
        return FMUC_OK;
    if (!in_bounds(&c->r, dyn_off, dyn_size))
        return bad(c, "dynamic section outside the file");
    info->has_dynamic = 1;

    unsigned esz = c->is64 ? 16u : 8u, w = c->is64 ? 8u : 4u;
    uint64_t n = dyn_size / esz;
    if (n > MAX_DYN_ENTRIES)
        n = MAX_DYN_ENTRIES;
    uint64_t strtab = 0, strsz = 0, symtab = 0, syment = 0, hash = 0, gnuhash = 0;
    int have_strtab = 0, have_symtab = 0, have_hash = 0, have_gnuhash = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t tag, val;
        if (!rd(&c->r, dyn_off + i * esz, w, &tag) || !rd(&c->r, dyn_off + i * esz + w, w, &val))
            return bad(c, "dynamic section truncated");
        if (tag == DT_NULL)
            break;
        switch (tag) {
        case DT_STRTAB: strtab = val; have_strtab = 1; break;
        case DT_STRSZ: strsz = val; break;
        case DT_SYMTAB: symtab = val; have_symtab = 1; break;
        case DT_SYMENT: syment = val; break;
        case DT_HASH: hash = val; have_hash = 1; break;
        case DT_GNU_HASH: gnuhash = val; have_gnuhash = 1; break;
        default: break;
        }
    }
    uint64_t stroff = 0;
    if (!have_strtab || !vaddr_to_off(c, strtab, &stroff) || !in_bounds(&c->r, stroff, strsz))
        return bad(c, "DT_STRTAB missing or outside the file");

    for (uint64_t i = 0; i < n; i++) {
        uint64_t tag, val;
        if (!rd(&c->r, dyn_off + i * esz, w, &tag) || !rd(&c->r, dyn_off + i * esz + w, w, &val))
            return bad(c, "dynamic section truncated");
        if (tag == DT_NULL)
            break;
        char **slot = NULL;
        if (tag == DT_SONAME)
            slot = &info->soname;
        else if (tag == DT_RPATH)
            slot = &info->rpath;
        else if (tag == DT_RUNPATH)
            slot = &info->runpath;
        else if (tag != DT_NEEDED)
            continue;
        char *s = str_at(c, stroff, strsz, val);
        if (!s)
            return bad(c, "dynamic string outside DT_STRTAB");
        if (slot) {
            free(*slot);
            *slot = s;
            continue;
        }
        if (info->nneeded >= MAX_NEEDED) {
            free(s);
            return bad(c, "too many DT_NEEDED entries");
        }
        char **nn = realloc(info->needed, (info->nneeded + 1) * sizeof *nn);
        if (!nn) {
            free(s);
            return fmuc_diag_set(c->diag, FMUC_ENOMEM, "out of memory");
        }
        info->needed = nn;
        nn[info->nneeded++] = s;
    }

    /* Symbols from the dynamic section only when there are no section headers (sstrip). */
    if (info->has_dynsym || !have_symtab)
        return FMUC_OK;
    uint64_t symoff, count = 0;
    if (!vaddr_to_off(c, symtab, &symoff))
        return bad(c, "DT_SYMTAB outside the file");
    if (have_hash) {
        uint64_t hoff;
        if (vaddr_to_off(c, hash, &hoff))
            rd(&c->r, hoff + 4, 4, &count);
    } else if (have_gnuhash) {
        uint64_t hoff;
        if (vaddr_to_off(c, gnuhash, &hoff))
            count = gnu_hash_count(c, hoff);
    }
    if (!count)
        return FMUC_OK;
    info->has_dynsym = 1;
    return read_symbols(c, symoff, syment ? syment : (c->is64 ? 24u : 16u), count, stroff, strsz);
}

static fmuc_err read_dynsym_section(elf_ctx *c)
{
    if (!c->shoff || !c->shnum)
        return FMUC_OK;
    unsigned want = c->is64 ? 64u : 40u;
    if (c->shentsize < want)
        return bad(c, "section header size too small");
    for (unsigned i = 0; i < c->shnum; i++) {
        uint64_t type, off, size, link, entsize;
        if (!shdr(c, i, &type, &off, &size, &link, &entsize))
            return bad(c, "section headers truncated");
        if (type != SHT_DYNSYM)
            continue;
        uint64_t stype, stroff, strsz, slink, sent;
        if (link >= c->shnum || !shdr(c, (unsigned)link, &stype, &stroff, &strsz, &slink, &sent) ||
            stype != SHT_STRTAB)
            return bad(c, ".dynsym string table link invalid");
        if (!entsize)
            entsize = c->is64 ? 24u : 16u;
        if (!in_bounds(&c->r, off, size))
            return bad(c, ".dynsym outside the file");
        c->info->has_dynsym = 1;
        return read_symbols(c, off, entsize, size / entsize, stroff, strsz);
    }
    return FMUC_OK;
}

fmuc_err fmuc_elf_parse(fmuc_elf_info *out, const unsigned char *data, size_t len, fmuc_diag *diag)
{
    memset(out, 0, sizeof *out);
    fmuc_bin_header_parse(&out->header, data, len);
    if (out->header.format != FMUC_BIN_ELF)
        return fmuc_diag_set(diag, FMUC_EINPUT, "not an ELF file");
    elf_ctx c = {.r = {data, len, out->header.big_endian}, .info = out, .diag = diag};
    if (out->header.bits == 0 || (data[EI_DATA] != ELFDATA2LSB && data[EI_DATA] != ELFDATA2MSB))
        return bad(&c, "unknown ELF class or byte order");
    c.is64 = out->header.bits == 64;
    out->type = out->header.elf_type;
    uint64_t v[6];
    int ok = c.is64 ? rd(&c.r, 32, 8, &v[0]) && rd(&c.r, 40, 8, &v[1]) && rd(&c.r, 54, 2, &v[2]) &&
                          rd(&c.r, 56, 2, &v[3]) && rd(&c.r, 58, 2, &v[4]) && rd(&c.r, 60, 2, &v[5])
                    : rd(&c.r, 28, 4, &v[0]) && rd(&c.r, 32, 4, &v[1]) && rd(&c.r, 42, 2, &v[2]) &&
                          rd(&c.r, 44, 2, &v[3]) && rd(&c.r, 46, 2, &v[4]) && rd(&c.r, 48, 2, &v[5]);
    if (!ok)
        return bad(&c, "ELF header truncated");
    c.phoff = v[0];
    c.shoff = v[1];
    c.phentsize = (unsigned)v[2];
    c.phnum = (unsigned)v[3];
    c.shentsize = (unsigned)v[4];
    c.shnum = (unsigned)v[5];
    if (c.phnum && c.phentsize < (c.is64 ? 56u : 32u))
        return bad(&c, "program header size too small");
    if (c.phnum == PN_XNUM)
        return bad(&c, "extended program header count is not supported");
    if (c.phnum && !in_bounds(&c.r, c.phoff, (uint64_t)c.phnum * c.phentsize))
        return bad(&c, "program headers outside the file");
    fmuc_err err = read_dynsym_section(&c);
    if (err < 0)
        return err;
    return read_dynamic(&c);
}

fmuc_err fmuc_elf_parse_file(fmuc_elf_info *out, const char *path, uint64_t max_bytes,
                             fmuc_diag *diag)
{
    memset(out, 0, sizeof *out);
    if (!max_bytes)
        max_bytes = 1ull << 30;
    unsigned char *buf = NULL;
    fmuc_err err = FMUC_OK;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return fmuc_diag_set(diag, FMUC_EIO, "cannot open '%s': %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        err = fmuc_diag_set(diag, FMUC_EIO, "'%s' is not a regular file", path);
        goto out;
    }
    if ((uint64_t)st.st_size > max_bytes) {
        err = fmuc_diag_set(diag, FMUC_EIO, "'%s' is larger than %llu bytes", path,
                            (unsigned long long)max_bytes);
        goto out;
    }
    size_t size = (size_t)st.st_size;
    buf = malloc(size ? size : 1);
    if (!buf) {
        err = fmuc_diag_set(diag, FMUC_ENOMEM, "out of memory");
        goto out;
    }
    size_t got = 0;
    while (got < size) {
        ssize_t n = read(fd, buf + got, size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            err = fmuc_diag_set(diag, FMUC_EIO, "reading '%s' failed", path);
            goto out;
        }
        got += (size_t)n;
    }
    err = fmuc_elf_parse(out, buf, got, diag);
out:
    free(buf);
    close(fd);
    return err;
}

void fmuc_elf_free(fmuc_elf_info *info)
{
    if (!info)
        return;
    for (size_t i = 0; i < info->nneeded; i++)
        free(info->needed[i]);
    free(info->needed);
    for (size_t i = 0; i < info->nsymbols; i++)
        free(info->symbols[i].name);
    free(info->symbols);
    free(info->soname);
    free(info->rpath);
    free(info->runpath);
    memset(info, 0, sizeof *info);
}

const char *fmuc_elf_machine_name(uint32_t machine)
{
    switch (machine) {
    case EM_386: return "i386";
    case EM_X86_64: return "x86-64";
    case EM_AARCH64: return "AArch64";
    case EM_ARM: return "ARM";
    case EM_PPC: return "PowerPC";
    case EM_PPC64: return "PowerPC64";
    case EM_RISCV: return "RISC-V";
    case EM_S390: return "S/390";
    case EM_MIPS: return "MIPS";
    case EM_SPARCV9: return "SPARC V9";
    default: return NULL;
    }
}

typedef struct platform_arch {
    const char *name;
    fmuc_bin_format format;
    int bits;
    uint32_t machine;
} platform_arch;

static const platform_arch platforms[] = {
    {"linux64", FMUC_BIN_ELF, 64, EM_X86_64},
    {"linux32", FMUC_BIN_ELF, 32, EM_386},
    {"x86_64-linux", FMUC_BIN_ELF, 64, EM_X86_64},
    {"x86-linux", FMUC_BIN_ELF, 32, EM_386},
    {"aarch64-linux", FMUC_BIN_ELF, 64, EM_AARCH64},
    {"aarch32-linux", FMUC_BIN_ELF, 32, EM_ARM},
    {"win64", FMUC_BIN_PE, 64, PE_MACHINE_AMD64},
    {"win32", FMUC_BIN_PE, 32, PE_MACHINE_I386},
    {"x86_64-windows", FMUC_BIN_PE, 64, PE_MACHINE_AMD64},
    {"x86-windows", FMUC_BIN_PE, 32, PE_MACHINE_I386},
    {"aarch64-windows", FMUC_BIN_PE, 64, PE_MACHINE_ARM64},
    {"aarch32-windows", FMUC_BIN_PE, 32, PE_MACHINE_ARMNT},
    {"darwin64", FMUC_BIN_MACHO, 64, MACHO_CPU_X86_64},
    {"darwin32", FMUC_BIN_MACHO, 32, MACHO_CPU_X86},
    {"x86_64-darwin", FMUC_BIN_MACHO, 64, MACHO_CPU_X86_64},
    {"x86-darwin", FMUC_BIN_MACHO, 32, MACHO_CPU_X86},
    {"aarch64-darwin", FMUC_BIN_MACHO, 64, MACHO_CPU_ARM64},
    {"aarch32-darwin", FMUC_BIN_MACHO, 32, MACHO_CPU_ARM},
};

int fmuc_platform_arch(const char *platform, fmuc_bin_format *format, int *bits, uint32_t *machine)
{
    for (size_t i = 0; platform && i < sizeof platforms / sizeof platforms[0]; i++) {
        if (strcmp(platforms[i].name, platform) == 0) {
            if (format)
                *format = platforms[i].format;
            if (bits)
                *bits = platforms[i].bits;
            if (machine)
                *machine = platforms[i].machine;
            return 1;
        }
    }
    return 0;
}

static const char *const tuple_archs[] = {"aarch32", "aarch64", "x86", "x86_64"};
static const char *const tuple_systems[] = {"darwin", "linux", "windows"};

int fmuc_platform_is_tuple(const char *p)
{
    if (!p)
        return 0;
    const char *first = strchr(p, '-');
    const char *abi = first ? strchr(first + 1, '-') : NULL;
    char buf[256];
    if (abi) {
        if (!(abi[1] >= 'a' && abi[1] <= 'z') || (size_t)(abi - p) >= sizeof buf)
            return 0;
        for (const char *c = abi + 1; *c; c++)
            if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_'))
                return 0;
        memcpy(buf, p, (size_t)(abi - p));
        buf[abi - p] = '\0';
        p = buf;
    }
    const char *dash = strrchr(p, '-');
    if (!dash)
        return 0;
    size_t alen = (size_t)(dash - p);
    int arch_ok = 0, sys_ok = 0;
    for (size_t i = 0; i < sizeof tuple_archs / sizeof tuple_archs[0]; i++)
        if (strlen(tuple_archs[i]) == alen && strncmp(tuple_archs[i], p, alen) == 0)
            arch_ok = 1;
    for (size_t i = 0; i < sizeof tuple_systems / sizeof tuple_systems[0]; i++)
        if (strcmp(tuple_systems[i], dash + 1) == 0)
            sys_ok = 1;
    return arch_ok && sys_ok;
}
