/* glue_core: the version-neutral part of the fmuc FMU glue; see glue_core.h. */
#include "glue_core.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef FMUC_DEFECT_DESERIALIZE_CRASH_ON_CORRUPT
#include <signal.h>
#endif
#ifdef FMUC_DEFECT_SERIALIZE_PROCESS_BOUND
#include <stdint.h>
#include <unistd.h>
#endif

const fmuc_m_var *fmuc_gc_find_vr(const fmuc_m_desc *d, unsigned vr, fmuc_m_type t)
{
    for (size_t i = 0; i < d->nvars; i++)
        if (d->vars[i].vr == vr && d->vars[i].type == t)
            return &d->vars[i];
    return NULL;
}

const char *fmuc_gc_type_name(fmuc_m_type t)
{
    static const char *const n[] = {"Real", "Integer", "Boolean", "String", "UInt64"};
    return n[t];
}

int fmuc_gc_out_of_range(const fmuc_m_var *v, double x)
{
#ifdef FMUC_DEFECT_NO_RANGE_CHECK
    (void)v;
    (void)x;
    return 0;
#else
    if (isnan(x))
        return 1;
    if ((v->flags & FMUC_M_HAS_MIN) && x < v->min)
        return 1;
    if ((v->flags & FMUC_M_HAS_MAX) && x > v->max)
        return 1;
    return 0;
#endif
}

void fmuc_gc_write_starts(const fmuc_m_desc *d, void *data)
{
#ifdef FMUC_DEFECT_START_VALUE_DIFFERS
    int first_real_parameter = 1; /* its value in the binary is not the XML's start value */
#endif
    for (size_t i = 0; i < d->nvars; i++) {
        const fmuc_m_var *v = &d->vars[i];
        if (v->causality == FMUC_M_INDEPENDENT)
            continue;
        char *p = (char *)data + v->offset;
        size_t n = v->dim > 1 ? v->dim : 1;
        for (size_t k = 0; k < n; k++) {
            switch (v->type) {
            case FMUC_M_REAL:
                ((double *)(void *)p)[k] = v->start;
#ifdef FMUC_DEFECT_START_VALUES_LATE
                if (v->causality == FMUC_M_PARAMETER) /* applied at the end of initialization */
                    ((double *)(void *)p)[k] = 0.0;
#endif
#ifdef FMUC_DEFECT_START_VALUE_DIFFERS
                if (first_real_parameter && v->causality == FMUC_M_PARAMETER) {
                    ((double *)(void *)p)[k] = v->start * 1.01 + 0.001;
                    first_real_parameter = 0;
                }
#endif
                break;
            case FMUC_M_INTEGER:
                ((int *)(void *)p)[k] = (int)v->start;
                break;
            case FMUC_M_BOOLEAN:
                ((int *)(void *)p)[k] = v->start != 0.0;
                break;
            case FMUC_M_STRING:
                snprintf(p + k * FMUC_M_STRLEN, FMUC_M_STRLEN, "%s",
                         v->start_str ? v->start_str : "");
                break;
            case FMUC_M_UINT64:
                ((uint64_t *)(void *)p)[k] = v->start > 0.0 ? (uint64_t)v->start : 0u;
                break;
            }
        }
    }
}

#ifdef FMUC_DEFECT_START_VALUES_LATE
void fmuc_gc_defect_late_starts(const fmuc_m_desc *d, void *data)
{
    for (size_t i = 0; i < d->nvars; i++) {
        const fmuc_m_var *v = &d->vars[i];
        double *p = (double *)(void *)((char *)data + v->offset);
        if (v->type == FMUC_M_REAL && v->causality == FMUC_M_PARAMETER && v->dim <= 1 && *p == 0.0)
            *p = v->start; /* those the importer did not set */
    }
}
#endif

int fmuc_gc_blank(const char *s)
{
    for (; *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
            return 0;
    return 1;
}

uint64_t fmuc_gc_fnv64(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

const char *fmuc_gc_status_category(int status)
{
    switch (status) {
    case 0:
        return "logEvents";
    case 1:
        return "logStatusWarning";
    case 2:
        return "logStatusDiscard";
    case 3:
        return "logStatusError";
    case 4:
        return "logStatusFatal";
    default:
        return "logStatusPending";
    }
}

void fmuc_gc_read_reals(const fmuc_m_desc *d, const void *data, const size_t *idx, size_t n,
                        double *x)
{
    for (size_t i = 0; i < n; i++)
        x[i] = *(const double *)(const void *)((const char *)data + d->vars[idx[i]].offset);
}

void fmuc_gc_write_reals(const fmuc_m_desc *d, void *data, const size_t *idx, size_t n,
                         const double *x)
{
    for (size_t i = 0; i < n; i++)
        *(double *)(void *)((char *)data + d->vars[idx[i]].offset) = x[i];
}

#ifndef FMUC_DEFECT_URI_NO_DECODE
static int hexval(int ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}
#endif

char *fmuc_gc_file_uri_path(const char *uri, size_t extra, fmuc_gc_alloc_fn alloc,
                            fmuc_gc_free_fn release, void *arg, size_t *len, const char **why)
{
    const char *p;
#ifdef FMUC_DEFECT_URI_NO_DECODE
    (void)release;
#endif
    if (strncmp(uri, "file:", 5) != 0) {
        *why = "only the file: scheme is supported";
        return NULL;
    }
    p = uri + 5;
    if (p[0] == '/' && p[1] == '/') {
        const char *auth = p + 2, *slash = strchr(auth, '/');
        if (!slash) {
            *why = "no path after the authority";
            return NULL;
        }
        size_t alen = (size_t)(slash - auth);
        if (alen != 0 && !(alen == 9 && strncmp(auth, "localhost", 9) == 0)) {
            *why = "only an empty or 'localhost' authority is supported";
            return NULL;
        }
        p = slash;
    }
#ifdef FMUC_DEFECT_URI_AUTHORITY_ONLY
    else {
        *why = "expected file:///";
        return NULL;
    }
#endif
    if (p[0] != '/') {
        *why = "the path is not absolute";
        return NULL;
    }
    size_t n = strlen(p);
    char *out = alloc(arg, n + extra);
    if (!out) {
        *why = "out of memory";
        return NULL;
    }
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
#ifndef FMUC_DEFECT_URI_NO_DECODE
        if (p[i] == '%') {
            int hi = hexval((unsigned char)p[i + 1]); /* p[i+1] may be the NUL */
            int lo = hi >= 0 ? hexval((unsigned char)p[i + 2]) : -1;
            if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
                release(arg, out);
                *why = "invalid percent-encoding";
                return NULL;
            }
            out[o++] = (char)(hi * 16 + lo);
            i += 2;
            continue;
        }
#endif
        out[o++] = p[i];
    }
    while (o > 1 && out[o - 1] == '/')
        o--;
    *len = o;
    return out;
}

static int worst(int a, int b) { return a > b ? a : b; }

int fmuc_gc_rk4(void *inst, fmuc_gc_deriv_fn deriv, size_t nx, double *work, double hmax,
                double tc, double h)
{
    double nd = hmax > 0.0 ? ceil(h / hmax - 1e-9) : 1.0;
    long n = nd < 1.0 ? 1 : (long)nd;
    double hs = h / (double)n;
    double *x = work, *k1 = x + nx, *k2 = k1 + nx, *k3 = k2 + nx, *k4 = k3 + nx, *xt = k4 + nx;
    int st = 0;
    for (long i = 0; i < n; i++) {
        double ti = tc + (double)i * hs;
        st = worst(st, deriv(inst, ti, x, k1));
        for (size_t j = 0; j < nx; j++)
            xt[j] = x[j] + (hs / 2.0) * k1[j];
        st = worst(st, deriv(inst, ti + hs / 2.0, xt, k2));
        for (size_t j = 0; j < nx; j++)
            xt[j] = x[j] + (hs / 2.0) * k2[j];
        st = worst(st, deriv(inst, ti + hs / 2.0, xt, k3));
        for (size_t j = 0; j < nx; j++)
            xt[j] = x[j] + hs * k3[j];
        st = worst(st, deriv(inst, ti + hs, xt, k4));
        if (st > 1)
            return st;
        for (size_t j = 0; j < nx; j++)
            x[j] = x[j] + (hs / 6.0) * (k1[j] + 2.0 * k2[j] + 2.0 * k3[j] + k4[j]);
    }
    return st;
}

/* --- FMU states ---------------------------------------------------------------------------- */
#define BLOB_VERSION 1u

struct fmuc_gc_state {
    uint32_t magic;
    struct fmuc_gc_state *next, *prev;
    size_t size;
    unsigned char bytes[]; /* blob: header + payload, exactly the serialized form */
};

typedef struct {
    uint32_t magic, version;
    uint64_t id_hash, payload_size, checksum;
} blob_header;

#ifdef FMUC_DEFECT_DESERIALIZE_GARBAGE_ON_ERROR
/* What a refused DeSerialize leaves in its FMU state argument (read-only, not a state) */
static const char garbage_state[] = "not an FMU state";
#endif

static int caps_state(const fmuc_gc_states *fs, const char *fn, unsigned need)
{
    if ((fs->desc->caps & need) != need) {
        fmuc_m_log(fs->c, fmi2Error, NULL, "%s: not supported (%s%s is false)", fn,
                   (need & FMUC_M_CAP_SERIALIZE) ? "canSerialize" : "canGetAndSet",
                   fs->kind->arg);
        return 0;
    }
    return 1;
}

static int model_state_size(const fmuc_gc_states *fs, size_t *n)
{
    if (fs->desc->state_size)
        return fs->desc->state_size(fs->c, fs->data, n);
    *n = fs->desc->data_size;
    return fmi2OK;
}

static fmuc_gc_state *node_new(const fmuc_gc_states *fs, size_t size)
{
    fmuc_gc_state *s = fmuc_m_alloc(fs->c, 1, sizeof *s + size);
    if (!s)
        return NULL;
    s->magic = fs->kind->node_magic;
    s->size = size;
    s->prev = NULL;
    s->next = *fs->head;
    if (*fs->head)
        (*fs->head)->prev = s;
    *fs->head = s;
    return s;
}

static void node_free(const fmuc_gc_states *fs, fmuc_gc_state *s)
{
    if (s->prev)
        s->prev->next = s->next;
    else
        *fs->head = s->next;
    if (s->next)
        s->next->prev = s->prev;
    s->magic = 0;
    fmuc_m_free(fs->c, s);
}

/* s when it is an FMU state of this instance, else NULL */
static fmuc_gc_state *owned(const fmuc_gc_states *fs, void *p)
{
    for (fmuc_gc_state *n = *fs->head; n; n = n->next)
        if (n == p)
            return n->magic == fs->kind->node_magic ? n : NULL;
    return NULL;
}

static fmuc_gc_state *owned_or_log(const fmuc_gc_states *fs, void *p, const char *fn)
{
    fmuc_gc_state *s = p ? owned(fs, p) : NULL;
    if (!s)
        fmuc_m_log(fs->c, fmi2Error, NULL, "%s: not an FMU state of this instance", fn);
    return s;
}

static int save_into(const fmuc_gc_states *fs, unsigned char *bytes, size_t size, size_t msize)
{
    const fmuc_gc_state_kind *k = fs->kind;
    blob_header h = {k->blob_magic, BLOB_VERSION, fmuc_gc_fnv64(fs->id, strlen(fs->id)),
                     size - sizeof h, 0};
    k->save(fs->c, bytes + sizeof h);
    unsigned char *m = bytes + sizeof h + k->glue_size;
    int st = fmi2OK;
    if (fs->desc->state_save)
        st = fs->desc->state_save(fs->c, fs->data, m, msize);
    else
        memcpy(m, fs->data, msize);
    if (st > fmi2Warning)
        return st;
    h.checksum = fmuc_gc_fnv64(bytes + sizeof h, h.payload_size);
    memcpy(bytes, &h, sizeof h);
    return st;
}

/* Refuses foreign or corrupt bytes: magic, version, id hash, size, checksum, glue fields. */
static const char *blob_invalid(const fmuc_gc_states *fs, const unsigned char *bytes,
                                size_t size)
{
    const fmuc_gc_state_kind *k = fs->kind;
    blob_header h;
    uint32_t st;
    if (!bytes || size < sizeof h + k->glue_size)
        return "too short to be an FMU state of this model";
    memcpy(&h, bytes, sizeof h);
    if (h.magic != k->blob_magic)
        return "bad magic (not an FMU state of this glue)";
    if (h.version != BLOB_VERSION)
        return "unsupported state format version";
    if (h.id_hash != fmuc_gc_fnv64(fs->id, strlen(fs->id)))
        return k->foreign;
    if (h.payload_size != size - sizeof h)
        return "size does not match the header";
    if (h.checksum != fmuc_gc_fnv64(bytes + sizeof h, h.payload_size))
        return "checksum mismatch (corrupt state)";
    memcpy(&st, bytes + sizeof h, sizeof st);
    if (!(st & k->restorable(fs->c)) || (st & (st - 1)))
        return k->bad_state;
    if (!fs->desc->state_size && h.payload_size - k->glue_size != fs->desc->data_size)
        return "model data size differs";
    return NULL;
}

static int load_from(const fmuc_gc_states *fs, const unsigned char *bytes, size_t size)
{
    const fmuc_gc_state_kind *k = fs->kind;
    const unsigned char *glue = bytes + sizeof(blob_header);
    const unsigned char *m = glue + k->glue_size;
    size_t msize = size - sizeof(blob_header) - k->glue_size;
    uint32_t phase;
    int st = fmi2OK;
    memcpy(&phase, glue, sizeof phase);
    /* the model's state_load sees the phase it is restored into */
    unsigned old_phase = k->set_phase(fs->c, phase);
#ifndef FMUC_DEFECT_PARTIAL_SET_FMUSTATE
    if (fs->desc->state_load)
        st = fs->desc->state_load(fs->c, fs->data, m, msize);
    else
        memcpy(fs->data, m, msize);
#else
    /* broken FMUs (eq-fmu-state, eq-fmu-state--fmi3): the glue's time and mode are restored,
     * the model's data (its states) are not */
    (void)m;
    (void)msize;
#endif
    if (st > fmi2Warning) {
        k->set_phase(fs->c, old_phase);
        return st;
    }
    k->load(fs->c, glue);
    return st;
}

int fmuc_gc_state_get(const fmuc_gc_states *fs, void **state)
{
    const char *fn = fs->kind->names[FMUC_GC_GET];
    if (!caps_state(fs, fn, FMUC_M_CAP_GET_SET_STATE))
        return fmi2Error;
    fmuc_gc_state *old = *state;
#ifdef FMUC_DEFECT_STATE_REUSED
    if (!old && *fs->head)
        old = *fs->head; /* one state object for every fmi2GetFMUstate, not a new allocation */
#endif
    if (old && !owned(fs, old)) {
        fmuc_m_log(fs->c, fmi2Error, NULL, "%s: *%s is not an FMU state of this instance", fn,
                   fs->kind->arg);
        return fmi2Error;
    }
    size_t msize = 0;
    int st = model_state_size(fs, &msize);
    if (st > fmi2Warning)
        return st;
    size_t size = sizeof(blob_header) + fs->kind->glue_size + msize;
    fmuc_gc_state *s = old;
    if (!s || s->size != size) {
        s = node_new(fs, size);
        if (!s) {
            fmuc_m_log(fs->c, fmi2Error, NULL, "%s: out of memory", fn);
            return fmi2Error;
        }
        if (old)
            node_free(fs, old);
    }
    st = worst(st, save_into(fs, s->bytes, size, msize));
    if (st > fmi2Warning) {
        if (s != old)
            node_free(fs, s);
        return st;
    }
    *state = s;
    return st;
}

int fmuc_gc_state_set(const fmuc_gc_states *fs, void *state)
{
    const char *fn = fs->kind->names[FMUC_GC_SET];
    if (!caps_state(fs, fn, FMUC_M_CAP_GET_SET_STATE))
        return fmi2Error;
    fmuc_gc_state *s = owned_or_log(fs, state, fn);
    if (!s)
        return fmi2Error;
    const char *why = blob_invalid(fs, s->bytes, s->size);
    if (why) {
        fmuc_m_log(fs->c, fmi2Error, NULL, "%s: %s", fn, why);
        return fmi2Error;
    }
    return load_from(fs, s->bytes, s->size);
}

int fmuc_gc_state_free(const fmuc_gc_states *fs, void **state)
{
    const char *fn = fs->kind->names[FMUC_GC_FREE];
    if (!*state)
        return fmi2OK;
#ifdef FMUC_DEFECT_DESERIALIZE_GARBAGE_ON_ERROR
    if (*state == (void *)garbage_state)
        abort(); /* as a double free would */
#endif
    fmuc_gc_state *s = owned_or_log(fs, *state, fn);
    if (!s)
        return fmi2Error;
    node_free(fs, s);
    *state = NULL;
    return fmi2OK;
}

int fmuc_gc_state_size(const fmuc_gc_states *fs, void *state, size_t *size)
{
    const char *fn = fs->kind->names[FMUC_GC_SIZE];
    if (!caps_state(fs, fn, FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE))
        return fmi2Error;
    fmuc_gc_state *s = owned_or_log(fs, state, fn);
    if (!s)
        return fmi2Error;
    *size = s->size;
    return fmi2OK;
}

#ifdef FMUC_DEFECT_SERIALIZE_PROCESS_BOUND
/* broken FMUs (eq-serialize--process-bound): serialized bytes masked with a key of the process
 * (its pid and the library's load address), so that only the process that wrote them reads
 * them back, as bytes that hold pointers into the writer's memory would be */
static void process_mask(unsigned char *b, size_t n)
{
    uint64_t k = (uint64_t)getpid() * UINT64_C(0x9E3779B97F4A7C15) ^
                 (uint64_t)(uintptr_t)&process_mask;
    for (size_t i = 0; i < n; i++)
        b[i] ^= (unsigned char)(k >> (8 * (i % 8)));
}
#endif

int fmuc_gc_state_serialize(const fmuc_gc_states *fs, void *state, unsigned char *buf,
                            size_t size)
{
    const char *fn = fs->kind->names[FMUC_GC_SERIALIZE];
    if (!caps_state(fs, fn, FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE))
        return fmi2Error;
    fmuc_gc_state *s = owned_or_log(fs, state, fn);
    if (!s)
        return fmi2Error;
    if (size < s->size) {
        fmuc_m_log(fs->c, fmi2Error, NULL, "%s: buffer of %zu bytes, %zu needed", fn, size,
                   s->size);
        return fmi2Error;
    }
    memcpy(buf, s->bytes, s->size);
#ifdef FMUC_DEFECT_SERIALIZE_PROCESS_BOUND
    process_mask(buf, s->size);
#endif
    return fmi2OK;
}

int fmuc_gc_state_deserialize(const fmuc_gc_states *fs, const unsigned char *buf, size_t size,
                              void **state)
{
    const char *fn = fs->kind->names[FMUC_GC_DESERIALIZE];
    if (!caps_state(fs, fn, FMUC_M_CAP_GET_SET_STATE | FMUC_M_CAP_SERIALIZE))
        return fmi2Error;
#ifdef FMUC_DEFECT_DESERIALIZE_IGNORES_BYTES
    /* broken FMUs (eq-serialize...): a copy of the current state, whatever the bytes */
    (void)fn;
    (void)buf;
    (void)size;
    *state = NULL;
    return fmuc_gc_state_get(fs, state);
#else
#ifdef FMUC_DEFECT_SERIALIZE_PROCESS_BOUND
    unsigned char *own = size ? fmuc_m_alloc(fs->c, 1, size) : NULL;
    if (own) {
        memcpy(own, buf, size);
        process_mask(own, size);
        buf = own;
    }
#endif
    const char *why = blob_invalid(fs, buf, size);
    if (why) {
#ifdef FMUC_DEFECT_DESERIALIZE_CRASH_ON_CORRUPT
        raise(SIGSEGV);
#endif
#ifdef FMUC_DEFECT_DESERIALIZE_GARBAGE_ON_ERROR
        *state = (void *)garbage_state; /* and the FreeFMUstate of it aborts */
#endif
        fmuc_m_log(fs->c, fmi2Error, NULL, "%s: refused: %s", fn, why);
#ifdef FMUC_DEFECT_SERIALIZE_PROCESS_BOUND
        fmuc_m_free(fs->c, own);
#endif
        return fmi2Error;
    }
    fmuc_gc_state *s = node_new(fs, size);
    if (s)
        memcpy(s->bytes, buf, size);
#ifdef FMUC_DEFECT_SERIALIZE_PROCESS_BOUND
    fmuc_m_free(fs->c, own);
#endif
    if (!s) {
        fmuc_m_log(fs->c, fmi2Error, NULL, "%s: out of memory", fn);
        return fmi2Error;
    }
    *state = s;
    return fmi2OK;
#endif
}

void fmuc_gc_state_free_all(const fmuc_gc_states *fs)
{
    while (*fs->head)
        node_free(fs, *fs->head);
}

unsigned fmuc_gc_fpu_save(void)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned short cw;
    __asm__ __volatile__("fnstcw %0" : "=m"(cw));
    return cw;
#else
    return (unsigned)fegetround();
#endif
}

void fmuc_gc_fpu_restore(unsigned saved)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned short cw = (unsigned short)saved;
    __asm__ __volatile__("fldcw %0" : : "m"(cw));
#else
    fesetround((int)saved);
#endif
}

void fmuc_gc_defect_fpu_control(void)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned short cw;
    __asm__ __volatile__("fnstcw %0" : "=m"(cw));
    cw = (unsigned short)((cw & ~0x0300u) | 0x0200u);
    __asm__ __volatile__("fldcw %0" : : "m"(cw));
#else
    fesetround(FE_TOWARDZERO);
#endif
}
