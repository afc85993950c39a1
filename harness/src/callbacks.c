/* The callbacks the harness hands to fmi2Instantiate (FMI 2.0 §2.1.5, rules C-09/C-10): a logger
 * that never uses FMU text as an unchecked format, counted memory callbacks that survive foreign
 * pointers, and a recording stepFinished. Runs in the worker only. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "worker_internal.h"

/* Accept only %[flags][width][.prec][len]conv with conv in a safe set; refuse %n, positional
 * arguments, wide strings and anything unknown. Returns 1 when the text is safe as a format. */
static int format_is_safe(const char *s)
{
    for (; *s; s++) {
        int len_h = 0, len_l = 0, len_z = 0;
        if (*s != '%')
            continue;
        s++;
        if (*s == '%')
            continue;
        while (*s && strchr("-+ #0", *s))
            s++;
        if (*s == '*')
            s++;
        else
            while (*s >= '0' && *s <= '9')
                s++;
        if (*s == '$')
            return 0; /* positional argument */
        if (*s == '.') {
            s++;
            if (*s == '*')
                s++;
            else
                while (*s >= '0' && *s <= '9')
                    s++;
        }
        if (*s == 'h') {
            len_h = 1;
            s++;
            if (*s == 'h')
                s++;
        } else if (*s == 'l') {
            len_l = 1;
            s++;
            if (*s == 'l')
                s++;
        } else if (*s == 'z') {
            len_z = 1;
            s++;
        }
        if (!*s)
            return 0;
        if (strchr("diuxX", *s))
            continue;
        if (strchr("fFeEgG", *s) && !len_h && !len_z)
            continue;
        if ((*s == 's' || *s == 'c' || *s == 'p') && !len_h && !len_l && !len_z)
            continue;
        return 0; /* %n and everything else */
    }
    return 1;
}

/* The FMI allocateMemory callback has no environment argument, so the context is found through
 * a pointer the worker sets before fn runs. The worker is a single-threaded child process; this
 * one pointer lives only in the worker's address space and is set once. */
static fmuc_worker_ctx *worker_ctx_slot(fmuc_worker_ctx *set)
{
    static fmuc_worker_ctx *ctx; /* per worker process, written once before any FMU code runs */
    if (set)
        ctx = set;
    return ctx;
}

fmuc_worker_ctx *fmuc_callbacks__ctx(void)
{
    return worker_ctx_slot(NULL);
}

static void copy_name(char *dst, size_t n, const char *src, uint32_t *flags, uint32_t null_flag)
{
    if (!src) {
        dst[0] = '\0';
        *flags |= null_flag;
        return;
    }
    size_t len = strnlen(src, n - 1);
    memcpy(dst, src, len);
    dst[len] = '\0';
}

/* Record one log message (both loggers: FMI 2.0's and FMI 1.0's). */
static void log_record(fmuc_worker_ctx *ctx, uint32_t flags, const char *instance_name,
                       int status, const char *category, const char *message, va_list ap)
{
    fmuc_w_shared *sh = ctx->sh;
    fmuc_w_log *l;
    if (fmuc_worker__in_copy(ctx))
        return; /* a copy forked by FMU code: the record is the worker's */
    uint64_t idx = sh->log_total++;
    if (idx >= FMUC_W_LOG_KEPT)
        return;
    l = &sh->log[idx];
    l->status = (int32_t)status;
    copy_name(l->instance, sizeof l->instance, instance_name, &flags, FMUC_W_LOG_INST_NULL);
    copy_name(l->category, sizeof l->category, category, &flags, FMUC_W_LOG_CAT_NULL);
    if (!message) {
        l->message[0] = '\0';
        flags |= FMUC_W_LOG_MSG_NULL;
    } else if (strnlen(message, FMUC_W_LOG_MSG * 16) >= FMUC_W_LOG_MSG * 16 ||
               !format_is_safe(message)) {
        size_t len = strnlen(message, sizeof l->message - 1);
        memcpy(l->message, message, len);
        l->message[len] = '\0';
        flags |= FMUC_W_LOG_RAW;
        if (message[len])
            flags |= FMUC_W_LOG_TRUNCATED;
    } else {
        int n = vsnprintf(l->message, sizeof l->message, message, ap);
        if (n < 0) {
            size_t len = strnlen(message, sizeof l->message - 1);
            memcpy(l->message, message, len);
            l->message[len] = '\0';
            flags |= FMUC_W_LOG_RAW;
        } else if ((size_t)n >= sizeof l->message) {
            flags |= FMUC_W_LOG_TRUNCATED;
        }
    }
    l->flags = flags;
}

static void logger(fmi2ComponentEnvironment env, fmi2String instance_name, fmi2Status status,
                   fmi2String category, fmi2String message, ...)
{
    fmuc_worker_ctx *ctx = worker_ctx_slot(NULL);
    uint32_t flags = 0;
    va_list ap;

    /* C-09: env must be the componentEnvironment we passed; a foreign one is never dereferenced,
     * only flagged. */
    if (!ctx)
        return;
    if (env != (fmi2ComponentEnvironment)ctx)
        flags |= FMUC_W_LOG_ENV_MISMATCH;
    if (ctx->pwatch)
        fmuc_pstate__at_callback(ctx);
    va_start(ap, message);
    log_record(ctx, flags, instance_name, (int)status, category, message, ap);
    va_end(ap);
}

/* FMI 3.0 logMessage (§2.3.1): no instance name, and the message is text, not a format (the
 * standard passes it as a finished string), so it is copied as it is. */
void fmuc_callbacks__fmi3_log(fmi3InstanceEnvironment env, fmi3Status status,
                              fmi3String category, fmi3String message)
{
    fmuc_worker_ctx *ctx = worker_ctx_slot(NULL);
    fmuc_w_log *l;
    uint32_t flags = FMUC_W_LOG_FMI3;
    uint64_t idx;

    if (!ctx || fmuc_worker__in_copy(ctx))
        return;
    if (env != (fmi3InstanceEnvironment)ctx)
        flags |= FMUC_W_LOG_ENV_MISMATCH;
    if (ctx->pwatch)
        fmuc_pstate__at_callback(ctx);
    idx = ctx->sh->log_total++;
    if (idx >= FMUC_W_LOG_KEPT)
        return;
    l = &ctx->sh->log[idx];
    l->status = (int32_t)status;
    l->instance[0] = '\0';
    copy_name(l->category, sizeof l->category, category, &flags, FMUC_W_LOG_CAT_NULL);
    if (!message) {
        l->message[0] = '\0';
        flags |= FMUC_W_LOG_MSG_NULL;
    } else {
        size_t len = strnlen(message, sizeof l->message - 1);
        memcpy(l->message, message, len);
        l->message[len] = '\0';
        if (message[len])
            flags |= FMUC_W_LOG_TRUNCATED;
    }
    l->flags = flags;
}

/* Live allocations: open addressing on the pointer value, so freeMemory of a foreign pointer
 * is recognised without reading memory around it. */
#define TOMBSTONE ((void *)1)

static size_t slot_hash(const void *p, size_t nslots)
{
    uintptr_t v = (uintptr_t)p;
    v ^= v >> 17;
    v *= (uintptr_t)0x9E3779B97F4A7C15ull;
    return (size_t)(v >> 7) & (nslots - 1);
}

static int slots_grow(fmuc_worker_ctx *ctx)
{
    size_t n = ctx->nslots ? ctx->nslots * 2 : 256, i;
    fmuc_w_alloc_slot *s = calloc(n, sizeof *s);
    if (!s)
        return -1;
    for (i = 0; i < ctx->nslots; i++) {
        void *p = ctx->slots[i].ptr;
        if (p && p != TOMBSTONE) {
            size_t h = slot_hash(p, n);
            while (s[h].ptr)
                h = (h + 1) & (n - 1);
            s[h] = ctx->slots[i];
        }
    }
    free(ctx->slots);
    ctx->slots = s;
    ctx->nslots = n;
    return 0;
}

static void *allocate_memory(size_t nobj, size_t size)
{
    fmuc_worker_ctx *ctx = worker_ctx_slot(NULL);
    void *p;
    size_t total, h;

    if (!ctx)
        return NULL;
    if (nobj == 0 || size == 0) {
        nobj = 1;
        size = 1; /* calloc(0) may return NULL or a pointer; hand out a real one */
    }
    /* a copy forked by FMU code gets memory but leaves the worker's counts alone */
    int own = !fmuc_worker__in_copy(ctx);
    if (size > SIZE_MAX / nobj || (uint64_t)nobj * size > ctx->alloc_cap) {
        if (own)
            ctx->sh->refused_allocs++;
        return NULL;
    }
    total = nobj * size;
    if (ctx->nused * 2 >= ctx->nslots && slots_grow(ctx) < 0)
        return NULL;
    p = calloc(nobj, size);
    if (!p)
        return NULL;
    h = slot_hash(p, ctx->nslots);
    while (ctx->slots[h].ptr && ctx->slots[h].ptr != TOMBSTONE)
        h = (h + 1) & (ctx->nslots - 1);
    ctx->slots[h].ptr = p;
    ctx->slots[h].size = total;
    ctx->nused++;
    if (own) {
        ctx->sh->allocs++;
        ctx->sh->live_bytes += total;
    }
    return p;
}

static void free_memory(void *obj)
{
    fmuc_worker_ctx *ctx = worker_ctx_slot(NULL);
    size_t h, probes;

    if (!obj || !ctx)
        return; /* C-09: freeMemory(NULL) is a no-op */
    if (ctx->nslots) {
        h = slot_hash(obj, ctx->nslots);
        for (probes = 0; probes < ctx->nslots && ctx->slots[h].ptr; probes++) {
            if (ctx->slots[h].ptr == obj) {
                if (!fmuc_worker__in_copy(ctx)) {
                    ctx->sh->live_bytes -= ctx->slots[h].size;
                    ctx->sh->frees++;
                }
                ctx->slots[h].ptr = TOMBSTONE;
                ctx->slots[h].size = 0;
                ctx->nused--;
                free(obj);
                return;
            }
            h = (h + 1) & (ctx->nslots - 1);
        }
    }
    if (!fmuc_worker__in_copy(ctx))
        ctx->sh->bad_frees++; /* not ours (or freed twice): recorded, never passed to free() */
}

static void step_finished(fmi2ComponentEnvironment env, fmi2Status status)
{
    fmuc_worker_ctx *ctx = worker_ctx_slot(NULL);
    (void)env;
    (void)status;
    if (ctx && !fmuc_worker__in_copy(ctx))
        ctx->sh->step_finished++;
}

void fmuc_callbacks__init(fmuc_worker_ctx *ctx)
{
    worker_ctx_slot(ctx);
    ctx->cb.logger = logger;
    ctx->cb.allocateMemory = allocate_memory;
    ctx->cb.freeMemory = free_memory;
    ctx->cb.stepFinished = step_finished;
    ctx->cb.componentEnvironment = ctx;
}

/* ---- FMI 1.0 (fmi1.h): no environment pointer; the logger's first argument is the instance
 * (NULL while instantiating), never dereferenced. */

static void logger_fmi1(fmiComponent c, fmiString instance_name, fmiStatus status,
                        fmiString category, fmiString message, ...)
{
    fmuc_worker_ctx *ctx = worker_ctx_slot(NULL);
    va_list ap;
    (void)c;
    if (!ctx)
        return;
    va_start(ap, message);
    log_record(ctx, 0, instance_name, (int)status, category, message, ap);
    va_end(ap);
}

static void step_finished_fmi1(fmiComponent c, fmiStatus status)
{
    fmuc_worker_ctx *ctx = worker_ctx_slot(NULL);
    (void)c;
    (void)status;
    if (ctx && !fmuc_worker__in_copy(ctx))
        ctx->sh->step_finished++;
}

fmiMECallbackFunctions fmuc_callbacks__fmi1_me(fmuc_worker_ctx *ctx)
{
    fmiMECallbackFunctions f = {logger_fmi1, allocate_memory, free_memory};
    (void)ctx;
    return f;
}

fmiCSCallbackFunctions fmuc_callbacks__fmi1_cs(fmuc_worker_ctx *ctx)
{
    fmiCSCallbackFunctions f = {logger_fmi1, allocate_memory, free_memory, step_finished_fmi1};
    (void)ctx;
    return f;
}

void fmuc_callbacks__fini(fmuc_worker_ctx *ctx)
{
    /* live FMU allocations are left alone: the process ends right after */
    free(ctx->slots);
    ctx->slots = NULL;
    ctx->nslots = ctx->nused = 0;
}

const fmi2CallbackFunctions *fmuc_worker_callbacks(fmuc_worker_ctx *ctx)
{
    return &ctx->cb;
}

uint64_t fmuc_worker_log_count(const fmuc_worker_ctx *ctx)
{
    return ctx->sh->log_total;
}

void fmuc_worker_memory_now(const fmuc_worker_ctx *ctx, fmuc_worker_memory *m)
{
    m->allocs = ctx->sh->allocs;
    m->frees = ctx->sh->frees;
    m->live_bytes = ctx->sh->live_bytes;
    m->bad_frees = ctx->sh->bad_frees;
}
