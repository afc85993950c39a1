/* api-variable-access: a value set is the value read back, the FMU copies the strings and
 * binaries it is given, returns UTF-8 strings, and (FMI 3.0) refuses an nValues that does not
 * match the variables' element count.
 *   FMI 2.0.4 §2.1.7 (fmi2SetXXX sets the values of the variables, fmi2GetXXX returns them);
 *     §2.1.2 and fmi2-rules C-04: input strings may be freed when the call returns, so the FMU
 *     must copy what it keeps; fmi2TypesPlatform.h: fmi2String is '\0' terminated UTF-8.
 *   FMI 3.0.2 §2.2.7.2 (fmi3-rules C-24: set values persist until the next set; C-25: the FMU
 *     copies the strings and binaries passed in; C-43: one pointer and size per Binary
 *     element); §2.2.3 (C-44: fmi3String is UTF-8); §2.2.7.1 (C-41: values[] holds nValues =
 *     the sum of the variables' current element counts; a wrong nValues is an illegal argument,
 *     answered with fmi3Error: derived, D, Reference-FMUs#310).
 * Probe A, in an instance of its own per interface, in Initialization Mode (where the text
 * allows setting every non-constant variable with initial = exact and every input): one set per
 * base type of every such variable (not structural parameters, which need Configuration Mode;
 * not discrete states, clocks or clocked variables; arrays with every element's start value),
 * with floats moved by 1e-6 relative within [min, max] (a change no initialization notices,
 * which a dropped set shows), the others set to their start values; Strings and Binary values
 * come from buffers of the probe which it overwrites right after the set. Then one get per base
 * type: every element must be what was set (bit for bit; a String equal, a Binary value of the
 * same bytes and size), else fail (a Float64 equal to it in single precision is noted: an FMU
 * that keeps its values as float, as code for embedded targets does, loses no set); a String that reads as the overwritten buffer names the
 * missing copy. Every String read, and every String variable got once more, must be non-NULL
 * UTF-8 (fail). A refused set or get ends the probe (the values after an Error are for
 * debugging only): noted.
 * Probe B (FMI 3.0), in another instance, Initialization Mode: the get of one scalar variable
 * with nValues = 2. fmi3Error passes; another status, or a crash, warns (derived: the text
 * defines nValues, the Error for it is C-21's general rule for illegal arguments).
 * FMI 1.0: not judged (its get/set before fmiInitialize are defined differently per standard). */
#include <errno.h>
#include <inttypes.h>

#include "api_util.h"

#define PROBE_A "set and get in Initialization Mode"
#define PROBE_B "nValues probe"
#define MAX_FINDINGS 20
#define NUDGE 1e-6

typedef struct va_job {
    fmuc_iface type;
    const fmuc_md *md;
    int probe;        /* 0: A, 1: B */
    size_t *vars;     /* probe A: the settable variables; probe B: vars[0] the scalar */
    size_t *nelem;
    size_t nvars;
    size_t *strs;     /* every String variable (one per value reference) */
    size_t nstrs;
} va_job;

/* The value to set for element k of variable i into buf (one element of base b): the start
 * value, floats nudged within [min, max]. 0, or -1 when the start text is no value of b. */
static int value_to_set(const fmuc_md *md, size_t i, size_t k, size_t ne, fmuc_inst_base b,
                        void *buf)
{
    const char *t = apiu_start_token(md, i, k, ne);
    char *end = NULL;
    if (!t)
        return -1;
    while (*t == ' ' || *t == '\t' || *t == '\n' || *t == '\r')
        t++;
    errno = 0;
    switch (b) {
    case FMUC_INST_FLOAT32:
    case FMUC_INST_FLOAT64: {
        double e = strtod(t, &end), lo = 0.0, hi = 0.0;
        if (end == t || !isfinite(e))
            return -1;
        int hlo = apiu_min(md, &md->vars[i], &lo), hhi = apiu_max(md, &md->vars[i], &hi);
        /* away from zero first, then towards it; the start value itself when neither fits */
        double cand[2] = {e * (1.0 + NUDGE), e * (1.0 - NUDGE)}, x = e;
        for (int c = 0; c < 2 && x == e && e != 0.0; c++)
            if ((!hlo || cand[c] >= lo) && (!hhi || cand[c] <= hi))
                x = cand[c];
        if (b == FMUC_INST_FLOAT32)
            *(float *)buf = (float)x;
        else
            *(double *)buf = x;
        return 0;
    }
    case FMUC_INST_BOOLEAN:
        if (strncmp(t, "true", 4) == 0 || *t == '1')
            *(int *)buf = 1;
        else if (strncmp(t, "false", 5) == 0 || *t == '0')
            *(int *)buf = 0;
        else
            return -1;
        return 0;
    case FMUC_INST_UINT8: case FMUC_INST_UINT16: case FMUC_INST_UINT32: case FMUC_INST_UINT64: {
        if (*t == '-')
            return -1;
        unsigned long long u = strtoull(t, &end, 10);
        if (end == t || errno)
            return -1;
        if (b == FMUC_INST_UINT8)
            *(uint8_t *)buf = (uint8_t)u;
        else if (b == FMUC_INST_UINT16)
            *(uint16_t *)buf = (uint16_t)u;
        else if (b == FMUC_INST_UINT32)
            *(uint32_t *)buf = (uint32_t)u;
        else
            *(uint64_t *)buf = (uint64_t)u;
        return 0;
    }
    case FMUC_INST_INT8: case FMUC_INST_INT16: case FMUC_INST_INT32: case FMUC_INST_INT64:
    case FMUC_INST_ENUMERATION: {
        long long v = strtoll(t, &end, 10);
        if (end == t || errno)
            return -1;
        if (b == FMUC_INST_INT8)
            *(int8_t *)buf = (int8_t)v;
        else if (b == FMUC_INST_INT16)
            *(int16_t *)buf = (int16_t)v;
        else if (b == FMUC_INST_INT32)
            *(int32_t *)buf = (int32_t)v;
        else
            *(int64_t *)buf = (int64_t)v;
        return 0;
    }
    default:
        return -1;
    }
}

/* The text of element k of vals (base b) for messages */
static void value_text(fmuc_inst_base b, const void *vals, const size_t *sizes, size_t k,
                       char *g, size_t gl)
{
    switch (b) {
    case FMUC_INST_FLOAT32: snprintf(g, gl, "%.9g", (double)((const float *)vals)[k]); break;
    case FMUC_INST_FLOAT64: snprintf(g, gl, "%.17g", ((const double *)vals)[k]); break;
    case FMUC_INST_BOOLEAN: snprintf(g, gl, "%s", ((const int *)vals)[k] ? "true" : "false"); break;
    case FMUC_INST_INT8: snprintf(g, gl, "%d", ((const int8_t *)vals)[k]); break;
    case FMUC_INST_UINT8: snprintf(g, gl, "%u", ((const uint8_t *)vals)[k]); break;
    case FMUC_INST_INT16: snprintf(g, gl, "%d", ((const int16_t *)vals)[k]); break;
    case FMUC_INST_UINT16: snprintf(g, gl, "%u", ((const uint16_t *)vals)[k]); break;
    case FMUC_INST_INT32: snprintf(g, gl, "%" PRId32, ((const int32_t *)vals)[k]); break;
    case FMUC_INST_UINT32: snprintf(g, gl, "%" PRIu32, ((const uint32_t *)vals)[k]); break;
    case FMUC_INST_INT64:
    case FMUC_INST_ENUMERATION: snprintf(g, gl, "%" PRId64, ((const int64_t *)vals)[k]); break;
    case FMUC_INST_UINT64: snprintf(g, gl, "%" PRIu64, ((const uint64_t *)vals)[k]); break;
    case FMUC_INST_STRING: {
        const char *s = ((const char *const *)vals)[k];
        snprintf(g, gl, "%s%.60s%s", s ? "\"" : "", s ? s : "NULL", s ? "\"" : "");
        break;
    }
    case FMUC_INST_BINARY: {
        const uint8_t *a = ((const uint8_t *const *)vals)[k];
        size_t o = 0, n = sizes[k];
        g[0] = 0;
        if (!a) {
            snprintf(g, gl, "NULL (size %zu)", n);
            break;
        }
        for (size_t j = 0; j < n && j < 24 && o + 3 < gl; j++)
            o += (size_t)snprintf(g + o, gl - o, "%02x", a[j]);
        if (o + 12 < gl)
            snprintf(g + o, gl - o, " (%zu bytes)", n);
        break;
    }
    default: snprintf(g, gl, "?"); break;
    }
}

/* A Float64 read back within single precision of the value set: the FMU keeps its parameters
 * as float (code generators for embedded targets do); a dropped set differs by the 1e-6 nudge */
static int single_precision(fmuc_inst_base b, const void *set, const void *got, size_t k)
{
    if (b != FMUC_INST_FLOAT64)
        return 0;
    double x = ((const double *)set)[k], g = ((const double *)got)[k];
    return isfinite(g) && fabs(g - x) <= 1.2e-7 * fabs(x) && (double)(float)x == (float)g;
}

/* Element k of got equals element k of set (what the probe passed, its buffers as they were) */
static int same(fmuc_inst_base b, const void *set, const size_t *set_sizes, const void *got,
                const size_t *got_sizes, size_t k, const char *const *orig_str,
                const uint8_t *const *orig_bin)
{
    size_t es = apiu_value_size(b);
    switch (b) {
    case FMUC_INST_BOOLEAN:
        return (((const int *)set)[k] != 0) == (((const int *)got)[k] != 0);
    case FMUC_INST_STRING: {
        const char *g = ((const char *const *)got)[k];
        return g && strcmp(g, orig_str[k]) == 0;
    }
    case FMUC_INST_BINARY: {
        const uint8_t *g = ((const uint8_t *const *)got)[k];
        size_t n = set_sizes[k];
        return got_sizes[k] == n && (n == 0 || (g && memcmp(g, orig_bin[k], n) == 0));
    }
    default:
        return memcmp((const char *)set + k * es, (const char *)got + k * es, es) == 0;
    }
}

typedef struct va_count {
    size_t compared, differ, copies, bad_strings, single;
    /* the probe's String/Binary buffers passed to sets: an FMU that kept a pointer instead of
     * copying reads them later, so they live (overwritten) until the instance is freed */
    void **keep;
    size_t nkeep, capkeep;
} va_count;

static void keep_alive(va_count *c, void *p)
{
    if (!p)
        return;
    if (c->nkeep == c->capkeep) {
        size_t cap = c->capkeep ? 2 * c->capkeep : 16;
        void **k = realloc(c->keep, cap * sizeof *k);
        if (!k) {
            free(p); /* out of memory: the FMU cannot have kept more than the worker has */
            return;
        }
        c->keep = k;
        c->capkeep = cap;
    }
    c->keep[c->nkeep++] = p;
}

static void bad_string(cJSON *reply, const va_job *job, const fmuc_md_var *v, size_t el,
                       const char *s, const char *fn, va_count *c)
{
    if (c->bad_strings++ >= MAX_FINDINGS)
        return;
    char e[40] = "";
    if (el)
        snprintf(e, sizeof e, " element %zu", el);
    if (!s)
        apiu_finding(reply, "fail", "%s: %s of String '%s'%s (valueReference %" PRIu32 ") returned "
                                    "a NULL string",
                     apiu_iface_name(job->type), fn, v->name ? v->name : "?", e, v->value_reference);
    else
        apiu_finding(reply, "fail", "%s: %s of String '%s'%s (valueReference %" PRIu32 ") returned "
                                    "bytes that are not UTF-8",
                     apiu_iface_name(job->type), fn, v->name ? v->name : "?", e, v->value_reference);
}

/* Probe A for the variables of base type b: set, overwrite the probe's own String/Binary
 * buffers, get, compare. The status of the first refused call, or OK. */
static fmuc_status round_trip(fmuc_worker_ctx *ctx, fmuc_inst *in, const va_job *job,
                              fmuc_inst_base b, cJSON *reply, va_count *c)
{
    const fmuc_md *md = job->md;
    int ver = fmuc_inst_version(ctx);
    size_t n = 0, ne = 0, es = apiu_value_size(b);
    char fs[32], fg[32], b2[32];
    fmuc_status st = FMUC_STATUS_OK;
    for (size_t j = 0; j < job->nvars; j++)
        if (apiu_inst_base(md->vars[job->vars[j]].base) == b) {
            n++;
            ne += job->nelem[j];
        }
    if (!n)
        return st;
    size_t *idx = calloc(n, sizeof *idx);
    fmuc_vr *vr = calloc(n, sizeof *vr);
    char *set = calloc(ne, es), *got = calloc(ne, es);
    size_t *set_sizes = calloc(ne, sizeof *set_sizes), *got_sizes = calloc(ne, sizeof *got_sizes);
    char **orig_str = calloc(ne, sizeof *orig_str), **buf_str = calloc(ne, sizeof *buf_str);
    uint8_t **orig_bin = calloc(ne, sizeof *orig_bin), **buf_bin = calloc(ne, sizeof *buf_bin);
    if (!idx || !vr || !set || !got || !set_sizes || !got_sizes || !orig_str || !buf_str ||
        !orig_bin || !buf_bin)
        goto out;
    size_t m = 0, o = 0;
    for (size_t j = 0; j < job->nvars; j++) {
        size_t i = job->vars[j];
        if (apiu_inst_base(md->vars[i].base) != b)
            continue;
        idx[m] = j;
        vr[m++] = md->vars[i].value_reference;
        for (size_t k = 0; k < job->nelem[j]; k++, o++) {
            const char *t = apiu_start_token(md, i, k, job->nelem[j]);
            if (b == FMUC_INST_STRING) {
                orig_str[o] = strdup(t ? t : "");
                buf_str[o] = strdup(t ? t : "");
                if (!orig_str[o] || !buf_str[o])
                    goto out;
                ((const char **)(void *)set)[o] = buf_str[o];
            } else if (b == FMUC_INST_BINARY) {
                long nb = t ? apiu_hex_decode(t, NULL, 0) : 0;
                size_t sz = nb > 0 ? (size_t)nb : 0;
                orig_bin[o] = malloc(sz + 1);
                buf_bin[o] = malloc(sz + 1);
                if (!orig_bin[o] || !buf_bin[o])
                    goto out;
                if (sz)
                    apiu_hex_decode(t, orig_bin[o], sz);
                memcpy(buf_bin[o], orig_bin[o], sz);
                set_sizes[o] = sz;
                ((const uint8_t **)(void *)set)[o] = buf_bin[o];
            } else {
                value_to_set(md, i, k, job->nelem[j], b, set + o * es);
            }
        }
    }
    apiu_accessor(ver, b, 1, fs, sizeof fs);
    apiu_accessor(ver, b, 0, fg, sizeof fg);
    fmuc_worker_phase(ctx, PROBE_A " (%s)", fs);
    st = apiu_set_values(in, b, vr, n, set, set_sizes, ne);
    if (!fmuc_status_ok(st)) {
        apiu_finding(reply, "note", "%s: %s of %zu variable(s) settable in Initialization Mode "
                                    "returned %s: they and the later types are not compared",
                     apiu_iface_name(job->type), fs, n, fmuc_status_name(ver, st, b2, sizeof b2));
        goto out;
    }
    /* the importer's buffers are gone after the call (2.0 C-04, 3.0 C-25): overwrite them */
    for (size_t k = 0; k < ne; k++) {
        if (buf_str[k])
            memset(buf_str[k], 'X', strlen(buf_str[k]));
        if (buf_bin[k])
            for (size_t q = 0; q < set_sizes[k]; q++)
                buf_bin[k][q] ^= 0xA5;
    }
    fmuc_worker_phase(ctx, PROBE_A " (%s)", fg);
    st = apiu_get_values(in, b, vr, n, got, got_sizes, ne);
    if (!fmuc_status_ok(st)) {
        apiu_finding(reply, "note", "%s: %s of %zu variable(s) just set returned %s: they and "
                                    "the later types are not compared",
                     apiu_iface_name(job->type), fg, n, fmuc_status_name(ver, st, b2, sizeof b2));
        goto out;
    }
    o = 0;
    for (size_t q = 0; q < n; q++) {
        size_t j = idx[q], i = job->vars[j];
        const fmuc_md_var *v = &md->vars[i];
        for (size_t k = 0; k < job->nelem[j]; k++, o++) {
            c->compared++;
            if (b == FMUC_INST_STRING) {
                const char *g = ((const char *const *)(void *)got)[o];
                if (!g || !apiu_utf8_valid(g)) {
                    bad_string(reply, job, v, job->nelem[j] > 1 ? k + 1 : 0, g, fg, c);
                    continue;
                }
            }
            if (same(b, set, set_sizes, got, got_sizes, o, (const char *const *)orig_str,
                     (const uint8_t *const *)orig_bin))
                continue;
            if (single_precision(b, set, got, o)) {
                if (c->single++ == 0) {
                    char sv[40], gv[40];
                    value_text(b, set, set_sizes, o, sv, sizeof sv);
                    value_text(b, got, got_sizes, o, gv, sizeof gv);
                    apiu_finding(reply, "note", "%s: %s '%s' set to %s reads back as %s, the same "
                                                "value in single precision: the FMU keeps it as "
                                                "a float",
                                 apiu_iface_name(job->type),
                                 fmuc_md_causality_name(v->causality), v->name ? v->name : "?",
                                 sv, gv);
                }
                continue;
            }
            char sv[200], gv[200], el[40] = "";
            const char *kept = "";
            if (b == FMUC_INST_STRING) {
                const void *orig = orig_str;
                value_text(b, orig, set_sizes, o, sv, sizeof sv);
                const char *g = ((const char *const *)(void *)got)[o];
                if (g && buf_str[o] && strcmp(g, buf_str[o]) == 0) {
                    c->copies++;
                    kept = ": the bytes of the probe's buffer, overwritten after the set: the FMU "
                           "kept the pointer instead of copying the string";
                }
            } else if (b == FMUC_INST_BINARY) {
                const void *orig = orig_bin;
                value_text(b, orig, set_sizes, o, sv, sizeof sv);
                const uint8_t *g = ((const uint8_t *const *)(void *)got)[o];
                if (g && g == buf_bin[o]) {
                    c->copies++;
                    kept = ": the probe's own buffer, overwritten after the set: the FMU kept the "
                           "pointer instead of copying the value";
                }
            } else {
                value_text(b, set, set_sizes, o, sv, sizeof sv);
            }
            value_text(b, got, got_sizes, o, gv, sizeof gv);
            if (job->nelem[j] > 1)
                snprintf(el, sizeof el, " element %zu", k + 1);
            if (c->differ++ < MAX_FINDINGS)
                apiu_finding(reply, "fail",
                             "%s: %s '%s'%s (valueReference %" PRIu32 ", line %" PRIu32 "): %s "
                             "set %s in Initialization Mode (%s), %s then returned %s%s",
                             apiu_iface_name(job->type), fmuc_md_causality_name(v->causality),
                             v->name ? v->name : "?", el, v->value_reference, v->line, fs, sv,
                             fmuc_status_name(ver, FMUC_STATUS_OK, b2, sizeof b2), fg, gv, kept);
        }
    }
out:
    for (size_t k = 0; k < ne; k++) {
        if (orig_str)
            free(orig_str[k]);
        if (buf_str)
            keep_alive(c, buf_str[k]);
        if (orig_bin)
            free(orig_bin[k]);
        if (buf_bin)
            keep_alive(c, buf_bin[k]);
    }
    free(idx);
    free(vr);
    free(set);
    free(got);
    free(set_sizes);
    free(got_sizes);
    free(orig_str);
    free(buf_str);
    free(orig_bin);
    free(buf_bin);
    return st;
}

/* Every String variable once more: non-NULL UTF-8 (C-44, 2.0 fmi2String) */
static fmuc_status all_strings(fmuc_worker_ctx *ctx, fmuc_inst *in, const va_job *job,
                               cJSON *reply, va_count *c)
{
    const fmuc_md *md = job->md;
    int ver = fmuc_inst_version(ctx);
    char fg[32], b2[32];
    size_t ne = 0;
    for (size_t j = 0; j < job->nstrs; j++)
        ne += fmuc_sim_var_elements(md, job->strs[j], NULL, 0, NULL);
    if (!job->nstrs || !ne)
        return FMUC_STATUS_OK;
    fmuc_vr *vr = calloc(job->nstrs, sizeof *vr);
    const char **got = calloc(ne, sizeof *got);
    fmuc_status st = FMUC_STATUS_OK;
    if (!vr || !got)
        goto out;
    for (size_t j = 0; j < job->nstrs; j++)
        vr[j] = md->vars[job->strs[j]].value_reference;
    apiu_accessor(ver, FMUC_INST_STRING, 0, fg, sizeof fg);
    fmuc_worker_phase(ctx, PROBE_A " (every String)");
    st = fmuc_inst_get(in, FMUC_INST_STRING, vr, job->nstrs, (void *)got, ne);
    if (!fmuc_status_ok(st)) {
        apiu_finding(reply, "note", "%s: %s of the %zu String variable(s) returned %s: not "
                                    "judged",
                     apiu_iface_name(job->type), fg, job->nstrs,
                     fmuc_status_name(ver, st, b2, sizeof b2));
        goto out;
    }
    size_t o = 0;
    for (size_t j = 0; j < job->nstrs; j++) {
        size_t n = fmuc_sim_var_elements(md, job->strs[j], NULL, 0, NULL);
        for (size_t k = 0; k < n; k++, o++)
            if (!got[o] || !apiu_utf8_valid(got[o]))
                bad_string(reply, job, &md->vars[job->strs[j]], n > 1 ? k + 1 : 0, got[o], fg, c);
    }
out:
    free(vr);
    free(got);
    return st;
}

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    const va_job *job = payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    char why[200];
    va_count c = {0};
    if (apiu_load(ctx, job->type) < 0)
        return 0;
    fmuc_worker_phase(ctx, "instantiation and Initialization Mode");
    fmuc_inst *in = apiu_reach(ctx, job->type, job->md, FMUC_ST_INIT,
                               job->probe ? "nvalues" : "access", why, sizeof why);
    if (!in) {
        cJSON_AddStringToObject(reply, "skip", why);
        return 0;
    }
    fmuc_status st = FMUC_STATUS_OK;
    if (job->probe == 1) {
        /* one scalar, nValues = 2: values[] has room for both (an FMU that ignores nValues
         * writes one element into it) */
        const fmuc_md_var *v = &job->md->vars[job->vars[0]];
        fmuc_inst_base b = apiu_inst_base(v->base);
        fmuc_vr vr = v->value_reference;
        uint64_t vals[2] = {0, 0};
        size_t sizes[2] = {0, 0};
        fmuc_worker_phase(ctx, PROBE_B);
        st = apiu_get_values(in, b, &vr, 1, vals, sizes, 2);
        fmuc_worker_phase(ctx, "after the probe");
        cJSON_AddNumberToObject(reply, "status", st);
    } else {
        for (int bi = 0; bi < FMUC_INST_NBASE && fmuc_status_ok(st); bi++)
            if (bi != FMUC_INST_CLOCK)
                st = round_trip(ctx, in, job, (fmuc_inst_base)bi, reply, &c);
        if (fmuc_status_ok(st))
            st = all_strings(ctx, in, job, reply, &c);
        cJSON_AddNumberToObject(reply, "compared", (double)c.compared);
        cJSON_AddNumberToObject(reply, "differ", (double)c.differ);
        cJSON_AddNumberToObject(reply, "bad_strings", (double)c.bad_strings);
    }
    fmuc_worker_phase(ctx, "cleanup");
    if (st == FMUC_STATUS_FATAL)
        fmuc_inst_abandon(in); /* after Fatal not even FreeInstance */
    else
        fmuc_inst_free(in); /* allowed in every state */
    for (size_t k = 0; k < c.nkeep; k++)
        free(c.keep[k]);
    free(c.keep);
    return 0;
}

/* Settable in Initialization Mode (2.0 §3.2.3 / 4.2.? tables, 3.0 D.3 conditions 3): not a
 * constant, initial exact or an input with start; and probed here: not a structural parameter,
 * the independent variable, a discrete state, a clock or a clocked variable. */
static int settable_in_init(const fmuc_md *md, size_t i)
{
    const fmuc_md_var *v = &md->vars[i];
    if (!(v->has & FMUC_HAS_START) || !(v->has & FMUC_HAS_VALUE_REFERENCE) || !v->start_text)
        return 0;
    if (v->variability == FMUC_VAR_CONSTANT || v->causality == FMUC_CAUS_INDEPENDENT ||
        v->causality == FMUC_CAUS_STRUCTURAL_PARAMETER || v->type == FMUC_TYPE_NONE)
        return 0;
    fmuc_inst_base b = apiu_inst_base(v->base);
    if (b == FMUC_INST_NBASE || b == FMUC_INST_CLOCK)
        return 0;
    if (fmuc_md_effective_initial(v) != FMUC_INIT_EXACT && v->causality != FMUC_CAUS_INPUT)
        return 0;
    if (v->variability == FMUC_VAR_DISCRETE &&
        (v->causality == FMUC_CAUS_LOCAL || v->causality == FMUC_CAUS_OUTPUT))
        return 0;
    const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, i);
    return !(x && x->nclocks);
}

/* Every token of variable i's start values is a value of its base type */
static int starts_parse(const fmuc_md *md, size_t i, size_t ne)
{
    fmuc_inst_base b = apiu_inst_base(md->vars[i].base);
    uint64_t scratch;
    for (size_t k = 0; k < ne; k++) {
        const char *t = apiu_start_token(md, i, k, ne);
        if (!t)
            return 0;
        if (b == FMUC_INST_BINARY ? apiu_hex_decode(t, NULL, 0) < 0
                                  : b != FMUC_INST_STRING && value_to_set(md, i, k, ne, b,
                                                                          &scratch) < 0)
            return 0;
    }
    return 1;
}

static void judge_b(const fmuc_subject *s, fmuc_result *res, va_job *job, const apiu_iface *f)
{
    const fmuc_md *md = job->md;
    size_t pick = md->nvars;
    for (size_t i = 0; i < md->nvars && pick == md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        fmuc_inst_base b = apiu_inst_base(v->base);
        const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, i);
        if ((v->has & FMUC_HAS_VALUE_REFERENCE) && b != FMUC_INST_NBASE &&
            b != FMUC_INST_CLOCK && b != FMUC_INST_BINARY && b != FMUC_INST_STRING &&
            v->causality != FMUC_CAUS_INDEPENDENT && !(x && (x->ndims || x->nclocks)))
            pick = i;
    }
    if (pick == md->nvars) {
        fmuc_result_note(res, "%s: nValues not probed: no scalar numeric variable", f->name);
        return;
    }
    size_t one = 1;
    job->probe = 1;
    job->vars = &pick;
    job->nelem = &one;
    job->nvars = 1;
    fmuc_worker_outcome o;
    int died = 0;
    char fn[32], b1[32], b2[32];
    const fmuc_md_var *v = &md->vars[pick];
    apiu_accessor(3, apiu_inst_base(v->base), 0, fn, sizeof fn);
    const cJSON *r = apiu_run_probed(s, res, "api-variable-access", f->type, worker, job, &o,
                                     PROBE_B, &died);
    if (died) {
        char why[600];
        fmuc_worker_death_text(&o, why, sizeof why);
        fmuc_result_warn(res, "%s: %s of the scalar '%s' with nValues = 2 ended the worker with "
                              "%s (an illegal argument: fmi3Error expected; derived)",
                         f->name, fn, v->name ? v->name : "?", why);
    } else if (r && !apiu_load_failed(r, res, f->type)) {
        const cJSON *stj = cJSON_GetObjectItemCaseSensitive(r, "status");
        const char *skip = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "skip"));
        if (skip || !cJSON_IsNumber(stj))
            fmuc_result_note(res, "%s: nValues not probed: %s", f->name, skip ? skip : "no reply");
        else if (stj->valueint != FMUC_STATUS_ERROR)
            fmuc_result_warn(res, "%s: %s of the scalar '%s' (valueReference %" PRIu32 ") with "
                                  "nValues = 2 returned %s (expected %s: nValues must be the "
                                  "variables' element count, 1; derived, C-21's rule for illegal "
                                  "arguments)",
                             f->name, fn, v->name ? v->name : "?", v->value_reference,
                             fmuc_status_name(3, stj->valueint, b1, sizeof b1),
                             fmuc_status_name(3, FMUC_STATUS_ERROR, b2, sizeof b2));
        else
            fmuc_result_note(res, "%s: %s with nValues = 2 for one scalar returned %s", f->name,
                             fn, fmuc_status_name(3, stj->valueint, b1, sizeof b1));
    }
    fmuc_worker_outcome_free(&o);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    apiu_iface ifs[2];
    size_t n = apiu_usable_ifaces(s, res, FMUC_UNUSABLE_INSTANCE, ifs), tested = 0;
    if (!n) {
        fmuc_result_na(res, "no Model Exchange or Co-Simulation binary for this platform");
        return;
    }
    int ver = apiu_version(s);
    size_t *vars = malloc((md->nvars + 1) * sizeof *vars);
    size_t *nelem = malloc((md->nvars + 1) * sizeof *nelem);
    size_t *strs = malloc((md->nvars + 1) * sizeof *strs);
    if (!vars || !nelem || !strs) {
        free(vars);
        free(nelem);
        free(strs);
        fmuc_result_error(res, "out of memory");
        return;
    }
    size_t nv = 0, ns = 0, partial = 0;
    char summary[2][200] = {"", ""};
    /* one variable per value reference (FMI 2.0 aliases share them): the first settable member
     * of an alias set is set and read, the first member of a String set is read */
    uint32_t *first = apiu_alias_first(s);
    uint32_t *rep = calloc(md->nvars + 1, sizeof *rep);
    if (!first || !rep) {
        free(first);
        free(rep);
        free(vars);
        free(nelem);
        free(strs);
        fmuc_result_error(res, "out of memory");
        return;
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, i);
        uint32_t f = first[i];
        if (md->vars[i].base == FMUC_BT_STRING && (md->vars[i].has & FMUC_HAS_VALUE_REFERENCE) &&
            !(x && x->nclocks) && (!f || f == i + 1) &&
            fmuc_sim_var_elements(md, i, NULL, 0, NULL) > 0)
            strs[ns++] = i;
        if (!settable_in_init(md, i))
            continue;
        if (f) {
            if (rep[f - 1])
                continue; /* the set is set through an earlier member */
            rep[f - 1] = (uint32_t)i + 1;
        }
        size_t ne = fmuc_sim_var_elements(md, i, NULL, 0, NULL);
        if (ne == 0 || !starts_parse(md, i, ne)) {
            partial++;
            continue;
        }
        vars[nv] = i;
        nelem[nv++] = ne;
    }
    free(first);
    free(rep);
    if (partial)
        fmuc_result_note(res, "%zu settable variable(s) whose start values are incomplete or no "
                              "values of their type: not set",
                         partial);
    for (size_t k = 0; k < n; k++) {
        va_job job = {.type = ifs[k].type, .md = md, .vars = vars, .nelem = nelem, .nvars = nv,
                      .strs = strs, .nstrs = ns};
        if (nv || ns) {
            fmuc_worker_outcome o;
            int died = 0;
            const cJSON *r = apiu_run_probed(s, res, "api-variable-access", job.type, worker,
                                             &job, &o, PROBE_A, &died);
            if (died) {
                char why[600];
                fmuc_worker_death_text(&o, why, sizeof why);
                fmuc_result_violation(res, "%s: setting and reading back values in "
                                           "Initialization Mode ended the worker with %s",
                                      ifs[k].name, why);
                tested++;
            } else if (r && !apiu_load_failed(r, res, job.type)) {
                const char *skip = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "skip"));
                if (skip) {
                    fmuc_result_note(res, "%s not probed: %s", ifs[k].name, skip);
                } else {
                    apiu_report_findings(r, res);
                    double cmp = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(r, "compared"));
                    double dif = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(r, "differ"));
                    double bad = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(r, "bad_strings"));
                    if (dif > MAX_FINDINGS)
                        fmuc_result_violation(res, "%s: %.0f more value(s) read back differ from "
                                                   "the values set",
                                              ifs[k].name, dif - MAX_FINDINGS);
                    if (bad > MAX_FINDINGS)
                        fmuc_result_violation(res, "%s: %.0f more String value(s) NULL or not "
                                                   "UTF-8",
                                              ifs[k].name, bad - MAX_FINDINGS);
                    /* the summaries come after every finding (reports show the first
                     * messages) */
                    snprintf(summary[k], sizeof summary[k],
                             "%s: %.0f value(s) set and read back, %.0f differ; %zu String "
                             "variable(s) read",
                             ifs[k].name, cmp, dif, ns);
                    tested++;
                }
            }
            fmuc_worker_outcome_free(&o);
        }
        if (ver == 3) {
            judge_b(s, res, &job, &ifs[k]);
            tested++;
        }
    }
    for (size_t k = 0; k < n; k++)
        if (summary[k][0])
            fmuc_result_note(res, "%s", summary[k]);
    free(vars);
    free(nelem);
    free(strs);
    fmuc_result_parts_judged(res, tested);
    if (!tested && res->verdict == FMUC_VERDICT_PASS)
        fmuc_result_na(res, "no variable settable in Initialization Mode and no String variable");
}

const fmuc_check fmuc_check_api_variable_access = {
    .id = "api-variable-access",
    .title = "Values set are read back, Strings and Binaries are copied, Strings are UTF-8",
    .spec = "FMI 2.0.4 §2.1.7 (fmi2SetXXX/fmi2GetXXX), §2.1.2 (strings copied; fmi2String "
            "UTF-8); FMI 3.0.2 §2.2.7.1-2 (values persist, copies, nValues), §2.2.3 (UTF-8)",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_SAME,
    .why = "A value that is not kept, a string kept by pointer into the importer's freed memory, "
           "or bytes that are not UTF-8 give wrong results or crash the importer that reads them.",
    .fix = "Store every value set in the instance (copy Strings and Binary values: the "
           "importer's buffers are gone after the call), return UTF-8 strings, and (FMI 3.0) "
           "check nValues against the variables' element count.",
    .applies = FMUC_APPLIES_MECS,
    .versions = FMUC_V2 | FMUC_V3,
    .absent_in_v1 = "FMI 1.0's set and get before fmiInitialize differ between ME and CS 1.0",
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
