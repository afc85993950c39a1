/* The FMI call trace: the worker writes each call into the shared region before making it (so a
 * crash leaves the call in progress visible), the parent decodes the region defensively. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "worker_internal.h"

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static fmuc_w_call *slot(fmuc_w_shared *sh, uint64_t seq)
{
    return seq < FMUC_W_TRACE_HEAD ? &sh->head[seq] : &sh->tail[seq % FMUC_W_TRACE_TAIL];
}

/* Calls never nest, so when call seq begins, call seq-1 has returned: its duration moves into
 * the cumulative timers (the last call's is added by the parent when decoding). */
static void fold_previous(fmuc_w_shared *sh, uint64_t seq)
{
    fmuc_w_call *p;
    if (seq == 0)
        return;
    p = slot(sh, seq - 1);
    if (p->seq != seq - 1 || p->state == FMUC_W_CALL_RUNNING || !p->timed)
        return;
    if (p->timed == 1)
        sh->fmi_ns += p->dt_ns;
    else
        sh->dl_ns += p->dt_ns;
    p->timed = 0;
}

fmuc_w_call *fmuc_trace__begin(fmuc_worker_ctx *ctx, const char *fmt, ...)
{
    fmuc_w_shared *sh = ctx->sh;
    uint64_t seq = sh->ncalls;
    fmuc_w_call *e = slot(sh, seq);
    va_list ap;

    fold_previous(sh, seq);
    e->state = FMUC_W_CALL_EMPTY;
    e->seq = seq;
    e->status = 0;
    e->dt_ns = 0;
    va_start(ap, fmt);
    vsnprintf(e->text, sizeof e->text, fmt, ap);
    va_end(ap);
    e->timed = strncmp(e->text, "fmi2", 4) == 0                                     ? 1u
               : strncmp(e->text, "dlopen(", 7) == 0 || strncmp(e->text, "dlclose(", 8) == 0 ? 2u
                                                                                    : 0u;
    __atomic_store_n(&e->state, FMUC_W_CALL_RUNNING, __ATOMIC_SEQ_CST);
    __atomic_store_n(&sh->ncalls, seq + 1, __ATOMIC_SEQ_CST);
    e->t0_ns = e->timed ? mono_ns() : 0; /* last: the formatting above is harness time */
    return e;
}

void fmuc_trace__end(fmuc_w_call *e, int status, uint32_t state)
{
    if (e->timed)
        e->dt_ns = mono_ns() - e->t0_ns;
    e->status = status;
    __atomic_store_n(&e->state, state, __ATOMIC_SEQ_CST);
}

char *fmuc_trace__sanitize(const char *s, size_t n)
{
    /* worst case 4 output bytes per input byte */
    char *out = malloc(n * 4 + 1);
    size_t o = 0, i = 0;
    const unsigned char *u = (const unsigned char *)s;

    if (!out)
        return NULL;
    while (i < n) {
        unsigned c = u[i];
        size_t len = 0;
        if (c < 0x80)
            len = 1;
        else if (c >= 0xc2 && c <= 0xdf)
            len = 2;
        else if (c >= 0xe0 && c <= 0xef)
            len = 3;
        else if (c >= 0xf0 && c <= 0xf4)
            len = 4;
        if (len > 1 && i + len <= n) {
            size_t k;
            for (k = 1; k < len; k++)
                if ((u[i + k] & 0xc0) != 0x80)
                    break;
            /* reject overlongs and surrogates roughly: E0 needs A0.., ED needs ..9F, F0 90.., F4 ..8F */
            if (k == len && ((c == 0xe0 && u[i + 1] < 0xa0) || (c == 0xed && u[i + 1] > 0x9f) ||
                             (c == 0xf0 && u[i + 1] < 0x90) || (c == 0xf4 && u[i + 1] > 0x8f)))
                k = 0;
            if (k != len)
                len = 0;
        } else if (len > 1) {
            len = 0;
        }
        if (len == 1 && c == 0) {
            len = 0; /* NUL inside: escape visibly */
        }
        if (len == 0) {
            snprintf(out + o, 5, "\\x%02x", c);
            o += 4;
            i++;
        } else {
            memcpy(out + o, u + i, len);
            o += len;
            i += len;
        }
    }
    out[o] = '\0';
    return out;
}

static const char *status_text(int status, char *buf, size_t n)
{
    return fmuc_fmi_status_name(status, buf, n);
}

static cJSON *call_json(const fmuc_w_call *e, uint64_t seq)
{
    cJSON *o = cJSON_CreateObject();
    char text[FMUC_W_CALL_TEXT];
    char sbuf[32];
    char *safe;

    if (!o)
        return NULL;
    memcpy(text, e->text, sizeof text);
    text[sizeof text - 1] = '\0';
    safe = fmuc_trace__sanitize(text, strlen(text));
    cJSON_AddNumberToObject(o, "seq", (double)seq);
    cJSON_AddStringToObject(o, "call", safe ? safe : "");
    free(safe);
    switch (e->state) {
    case FMUC_W_CALL_RETURNED:
        cJSON_AddStringToObject(o, "status", status_text(e->status, sbuf, sizeof sbuf));
        break;
    case FMUC_W_CALL_NOT_PROVIDED:
        cJSON_AddStringToObject(o, "status", "not provided");
        break;
    case FMUC_W_CALL_RETURNED_PTR:
        cJSON_AddStringToObject(o, "status", e->status ? "non-NULL" : "NULL");
        break;
    case FMUC_W_CALL_RETURNED_VOID:
        cJSON_AddStringToObject(o, "status", "returned");
        break;
    default:
        cJSON_AddNullToObject(o, "status");
        cJSON_AddBoolToObject(o, "in_progress", 1);
        break;
    }
    return o;
}

static void copy_str(char *dst, size_t n, const char *src, size_t srcn)
{
    size_t len = strnlen(src, srcn);
    char *safe = fmuc_trace__sanitize(src, len);
    snprintf(dst, n, "%s", safe ? safe : "");
    free(safe);
}

static void add_opt_string(cJSON *o, const char *key, const char *s, size_t n, int is_null)
{
    if (is_null) {
        cJSON_AddNullToObject(o, key);
    } else {
        char *safe = fmuc_trace__sanitize(s, strnlen(s, n));
        cJSON_AddStringToObject(o, key, safe ? safe : "");
        free(safe);
    }
}

void fmuc_trace__decode(const fmuc_w_shared *sh, fmuc_worker_outcome *out)
{
    uint64_t n, i, first_tail;
    const fmuc_w_call *last = NULL;
    size_t nlog;

    if (sh->magic != FMUC_W_MAGIC)
        return; /* the worker never initialised it, or scribbled over it */
    copy_str(out->phase, sizeof out->phase, sh->phase, sizeof sh->phase);

    n = sh->ncalls;
    out->ncalls = n;
    out->trace = cJSON_CreateArray();
    for (i = 0; i < n && i < FMUC_W_TRACE_HEAD; i++) {
        const fmuc_w_call *e = &sh->head[i];
        if (e->seq != i)
            continue;
        cJSON_AddItemToArray(out->trace, call_json(e, i));
        last = e;
    }
    first_tail = n > FMUC_W_TRACE_HEAD + FMUC_W_TRACE_TAIL ? n - FMUC_W_TRACE_TAIL : FMUC_W_TRACE_HEAD;
    if (first_tail > FMUC_W_TRACE_HEAD) {
        cJSON *gap = cJSON_CreateObject();
        cJSON_AddNumberToObject(gap, "omitted", (double)(first_tail - FMUC_W_TRACE_HEAD));
        cJSON_AddItemToArray(out->trace, gap);
    }
    for (i = first_tail; i < n; i++) {
        const fmuc_w_call *e = &sh->tail[i % FMUC_W_TRACE_TAIL];
        if (e->seq != i)
            continue;
        cJSON_AddItemToArray(out->trace, call_json(e, i));
        last = e;
    }
    if (last) {
        copy_str(out->last_call, sizeof out->last_call, last->text, sizeof last->text);
        out->call_in_progress = last->state == FMUC_W_CALL_RUNNING;
    }
    {
        /* cumulative timers plus the last call's own time (not folded yet); a call still
         * running when the worker ended is not counted */
        uint64_t fmi = sh->fmi_ns, dl = sh->dl_ns;
        if (n > 0) {
            const fmuc_w_call *lc = n - 1 < FMUC_W_TRACE_HEAD ? &sh->head[n - 1]
                                                              : &sh->tail[(n - 1) % FMUC_W_TRACE_TAIL];
            if (lc->seq == n - 1 && lc->state != FMUC_W_CALL_RUNNING && lc->timed == 1)
                fmi += lc->dt_ns;
            else if (lc->seq == n - 1 && lc->state != FMUC_W_CALL_RUNNING && lc->timed == 2)
                dl += lc->dt_ns;
        }
        out->fmi_time_s = 1e-9 * (double)fmi;
        out->lib_time_s = 1e-9 * (double)dl;
    }

    out->allocs = sh->allocs;
    out->frees = sh->frees;
    out->live_bytes = sh->live_bytes;
    out->bad_frees = sh->bad_frees;

    out->load_attempted = sh->load_attempted != 0;
    out->load_ok = sh->load_ok != 0;
    copy_str(out->load_error, sizeof out->load_error, sh->load_error, sizeof sh->load_error);
    if (sh->missing_mask) {
        static const char *const names[] = {
#define FMUC_NAME_(ret, name, params, iface) #name,
            FMUC_FMI2_FUNCTIONS(FMUC_NAME_)
#undef FMUC_NAME_
        };
        out->missing = cJSON_CreateArray();
        for (i = 0; i < FMUC_FMI_NFUNCTIONS; i++)
            if (sh->missing_mask & (1ull << i))
                cJSON_AddItemToArray(out->missing, cJSON_CreateString(names[i]));
    }

    out->log_total = sh->log_total;
    nlog = sh->log_total < FMUC_W_LOG_KEPT ? (size_t)sh->log_total : FMUC_W_LOG_KEPT;
    out->log = cJSON_CreateArray();
    for (i = 0; i < nlog; i++) {
        const fmuc_w_log *l = &sh->log[i];
        cJSON *o = cJSON_CreateObject();
        char sbuf[32];
        if (!o)
            break;
        add_opt_string(o, "instance", l->instance, sizeof l->instance,
                       (l->flags & FMUC_W_LOG_INST_NULL) != 0);
        cJSON_AddStringToObject(o, "status", status_text(l->status, sbuf, sizeof sbuf));
        add_opt_string(o, "category", l->category, sizeof l->category,
                       (l->flags & FMUC_W_LOG_CAT_NULL) != 0);
        add_opt_string(o, "message", l->message, sizeof l->message,
                       (l->flags & FMUC_W_LOG_MSG_NULL) != 0);
        if (l->flags & FMUC_W_LOG_RAW)
            cJSON_AddBoolToObject(o, "raw", 1);
        if (l->flags & FMUC_W_LOG_TRUNCATED)
            cJSON_AddBoolToObject(o, "truncated", 1);
        if (l->flags & FMUC_W_LOG_ENV_MISMATCH)
            cJSON_AddBoolToObject(o, "env_mismatch", 1);
        cJSON_AddItemToArray(out->log, o);
    }
}
