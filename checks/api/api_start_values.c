/* api-start-values: in Initialization Mode, before anything was set, a variable the model
 * description says is initialized with its start value has that value.
 *   FMI 2.0.4 §2.2.7 (ScalarVariable, attribute initial; fmi2-rules B-2xx): "exact: The variable
 *     is initialized with the start value"; an input that is never set takes its start value.
 *   FMI 3.0.2 §2.4.7.5 (the same definition of initial = exact; "If fmi3Set{VariableType} is not
 *     called on a variable with causality = input, then the FMU must use the start value as
 *     value of this input"; fmi3-rules C-26, and A-29: modelDescription.xml must not be edited,
 *     its start values are compiled into the binary: this probe is how an edited one shows).
 * Probe, in an instance of its own per interface: instantiate, set up (FMI 2.0) and enter
 * Initialization Mode with no value set, then get every variable whose effective initial is
 * exact (explicit, or the default of its causality × variability: parameters, structural
 * parameters, constants) or that is an input with a start value, one get per base type, and
 * compare with the start value of the XML: integers, Booleans, Enumerations, Strings and Binary
 * values exactly; Float32/Float64 within 1e-5 relative (what a model description written with
 * six significant digits keeps: a note), or else within half a unit of the last decimal of a
 * fixed-point text of six or more decimals ("0.000000" for 1e-8: the XML writer dropped
 * digits; a warning, since an importer that sets the XML's start values changes the model).
 * A difference fails (must). The variables that differ are read again after
 * ExitInitializationMode (their values still are the start values there): when they have the
 * start value then, the FMU applies it only when initialization ends; the letter is violated
 * (standard: fail) but the model runs with the XML's value (interop: warn). A value that still
 * differs fails in every profile: an importer that sets the XML's start values (a parameter
 * dialog does) simulates another model than one that does not, and both show the XML's values
 * as the model's. A refused get (Error, or Discard which a get does not define) ends the
 * probe, since the values read after it are for debugging only.
 * Not probed: FMI 1.0 (its get before fmiInitialize is not defined), Instantiated state in FMI
 * 3.0 (its getters are listed in the equations table but not among the allowed calls:
 * fmi3-rules D.3 note 9, U), clocked variables and clocks (their values belong to clock ticks),
 * discrete states (discrete locals and outputs: their start value is the value before the first
 * instant, from which initialization computes theirs: FMI 2.0.4 §3.1), arrays whose start list
 * does not give every element, value references shared by variables with different start
 * values or with a variable that is not exact (md-alias-start and md-var-initial judge those).
 * A refused get is a note (api-status-codes judges statuses); a crash in the probe's gets
 * fails. Then, in the same instance, the reset probe (reset_probe): parameters set before a
 * reset must not keep those values after it. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>

#include "api_util.h"

#define PROBE "get in Initialization Mode"
#define MAX_FINDINGS 20 /* differences named one by one */
#define MAX_KEPT 2048    /* differences read again after ExitInitializationMode */
#define REL_TOL 1e-5

typedef struct sv_job {
    fmuc_iface type;
    const fmuc_md *md;
    size_t *vars;   /* indices of the probed variables */
    size_t *nelem;  /* their element counts */
    size_t nvars;
} sv_job;

/* The digits a fixed-point start text keeps ("0.000000": 6 decimals), or -1 when the text has an
 * exponent or fewer than 6 decimals (then only REL_TOL allows for printing). */
static int fixed_decimals(const char *t)
{
    const char *dot = strchr(t, '.');
    if (!dot || strpbrk(t, "eE"))
        return -1;
    int n = 0;
    for (const char *p = dot + 1; *p >= '0' && *p <= '9'; p++)
        n++;
    return n >= 6 ? n : -1;
}

enum { CMP_UNPARSED = -1, CMP_DIFFER = 0, CMP_EQUAL = 1, CMP_NEAR = 2, CMP_ROUNDED = 3 };

/* Compare element k of the got array with its start token t: CMP_EQUAL; CMP_NEAR (floats within
 * REL_TOL); CMP_ROUNDED (floats beyond that, but equal to the digits of a fixed-point text of 6
 * or more decimals: the XML writer dropped the rest); CMP_DIFFER (got's text into g);
 * CMP_UNPARSED when the token is no value of the type. */
static int compare(fmuc_inst_base b, const char *t, const void *vals, const size_t *sizes,
                   size_t k, char *g, size_t gl)
{
    char *end = NULL;
    while (isspace((unsigned char)*t))
        t++;
    errno = 0;
    switch (b) {
    case FMUC_INST_FLOAT32:
    case FMUC_INST_FLOAT64: {
        double e = strtod(t, &end);
        if (end == t)
            return CMP_UNPARSED;
        double a = b == FMUC_INST_FLOAT32 ? (double)((const float *)vals)[k]
                                          : ((const double *)vals)[k];
        if (b == FMUC_INST_FLOAT32)
            e = (double)(float)e;
        snprintf(g, gl, "%.17g", a);
        if (a == e || (isnan(a) && isnan(e)))
            return CMP_EQUAL;
        if (!isfinite(a) || !isfinite(e))
            return CMP_DIFFER;
        if (fabs(a - e) <= REL_TOL * fmax(fabs(a), fabs(e)))
            return CMP_NEAR;
        int d = fixed_decimals(t);
        if (d > 0 && fabs(a - e) <= 0.5 * pow(10.0, -d) * (1.0 + 1e-9))
            return CMP_ROUNDED;
        return CMP_DIFFER;
    }
    case FMUC_INST_INT8: case FMUC_INST_INT16: case FMUC_INST_INT32: case FMUC_INST_INT64:
    case FMUC_INST_ENUMERATION: {
        long long e = strtoll(t, &end, 10);
        if (end == t || errno)
            return CMP_UNPARSED;
        long long a = b == FMUC_INST_INT8    ? ((const int8_t *)vals)[k]
                      : b == FMUC_INST_INT16 ? ((const int16_t *)vals)[k]
                      : b == FMUC_INST_INT32 ? ((const int32_t *)vals)[k]
                                             : ((const int64_t *)vals)[k];
        snprintf(g, gl, "%lld", a);
        return a == e ? CMP_EQUAL : CMP_DIFFER;
    }
    case FMUC_INST_UINT8: case FMUC_INST_UINT16: case FMUC_INST_UINT32: case FMUC_INST_UINT64: {
        if (*t == '-')
            return CMP_UNPARSED;
        unsigned long long e = strtoull(t, &end, 10);
        if (end == t || errno)
            return CMP_UNPARSED;
        unsigned long long a = b == FMUC_INST_UINT8    ? ((const uint8_t *)vals)[k]
                               : b == FMUC_INST_UINT16 ? ((const uint16_t *)vals)[k]
                               : b == FMUC_INST_UINT32 ? ((const uint32_t *)vals)[k]
                                                       : ((const uint64_t *)vals)[k];
        snprintf(g, gl, "%llu", a);
        return a == e ? CMP_EQUAL : CMP_DIFFER;
    }
    case FMUC_INST_BOOLEAN: {
        int e;
        if (strncmp(t, "true", 4) == 0 || *t == '1')
            e = 1;
        else if (strncmp(t, "false", 5) == 0 || *t == '0')
            e = 0;
        else
            return CMP_UNPARSED;
        int a = ((const int *)vals)[k];
        snprintf(g, gl, "%s", a ? "true" : "false");
        return (a != 0) == e ? CMP_EQUAL : CMP_DIFFER;
    }
    case FMUC_INST_STRING: {
        const char *a = ((const char *const *)vals)[k];
        snprintf(g, gl, "%s%s%s", a ? "\"" : "", a ? a : "NULL", a ? "\"" : "");
        return a && strcmp(a, t) == 0 ? CMP_EQUAL : CMP_DIFFER;
    }
    case FMUC_INST_BINARY: {
        long n = apiu_hex_decode(t, NULL, 0);
        if (n < 0)
            return CMP_UNPARSED;
        const uint8_t *a = ((const uint8_t *const *)vals)[k];
        size_t as = sizes[k], o = 0;
        g[0] = 0;
        for (size_t j = 0; a && j < as && o + 3 < gl; j++)
            o += (size_t)snprintf(g + o, gl - o, "%02x", a[j]);
        if (!a && as)
            snprintf(g, gl, "NULL with size %zu", as);
        if (as != (size_t)n || (as && !a))
            return CMP_DIFFER;
        uint8_t *e = malloc(as ? as : 1);
        int same = e && apiu_hex_decode(t, e, as) == n && memcmp(e, a, as) == 0;
        free(e);
        return same ? CMP_EQUAL : CMP_DIFFER;
    }
    default:
        return CMP_UNPARSED;
    }
}

typedef struct sv_count {
    size_t compared, differ, nearly, rounded, refused, unparsed;
} sv_count;

/* One element whose value in Initialization Mode was not its start value */
typedef struct sv_miss {
    size_t j, k;      /* job->vars[j], element k */
    char got[160];    /* the value read in Initialization Mode */
    char after[160];  /* after ExitInitializationMode ("" not read) */
    int after_equal;  /* 1: the start value after ExitInitializationMode, 0 not, -1 not read */
} sv_miss;

typedef struct sv_state {
    sv_count c;
    signed char *init_r; /* per element (elem_off): the comparison in Initialization Mode, -1 not
                          * compared (refused, unparsed) */
    size_t *elem_off;    /* job->vars[j]'s first element in init_r */
    sv_miss miss[MAX_KEPT];
    size_t nmiss;
    const char *rounded_name; /* the first CMP_ROUNDED variable, its text and value */
    char rounded_text[160], rounded_got[160];
} sv_state;

/* Compare the values of the variables idx[0..n) (their elements from vals) with their starts. */
static void judge(const sv_job *job, fmuc_inst_base b, const size_t *idx, size_t n,
                  const void *vals, const size_t *sizes, sv_state *st)
{
    const fmuc_md *md = job->md;
    size_t off = 0;
    for (size_t j = 0; j < n; j++) {
        size_t i = job->vars[idx[j]], ne = job->nelem[idx[j]];
        for (size_t k = 0; k < ne; k++) {
            char g[160];
            const char *t = apiu_start_token(md, i, k, ne);
            int r = compare(b, t, vals, sizes, off + k, g, sizeof g);
            if (st->init_r)
                st->init_r[st->elem_off[idx[j]] + k] = (signed char)r;
            if (r == CMP_UNPARSED) {
                st->c.unparsed++;
                continue;
            }
            st->c.compared++;
            if (r == CMP_NEAR)
                st->c.nearly++;
            if (r == CMP_ROUNDED && st->c.rounded++ == 0) {
                st->rounded_name = md->vars[i].name ? md->vars[i].name : "?";
                snprintf(st->rounded_text, sizeof st->rounded_text, "%s", t);
                snprintf(st->rounded_got, sizeof st->rounded_got, "%s", g);
            }
            if (r == CMP_DIFFER && st->c.differ++ < MAX_KEPT) {
                sv_miss *m = &st->miss[st->nmiss++];
                m->j = idx[j];
                m->k = k;
                snprintf(m->got, sizeof m->got, "%s", g);
                m->after[0] = 0;
                m->after_equal = -1;
            }
        }
        off += ne;
    }
}

/* After ExitInitializationMode: read the variables of the misses again (their start values
 * still hold there: parameters, constants, inputs not set, states at the start time). */
static void read_after_init(fmuc_inst *in, const sv_job *job, sv_state *st)
{
    for (size_t m = 0; m < st->nmiss; m++) {
        size_t jv = st->miss[m].j, ne = job->nelem[jv], i = job->vars[jv];
        fmuc_inst_base b = apiu_inst_base(job->md->vars[i].base);
        fmuc_vr vr = job->md->vars[i].value_reference;
        void *vals = calloc(ne, apiu_value_size(b));
        size_t *sizes = calloc(ne, sizeof *sizes);
        if (vals && sizes && fmuc_status_ok(apiu_get_values(in, b, &vr, 1, vals, sizes, ne))) {
            const char *t = apiu_start_token(job->md, i, st->miss[m].k, ne);
            int r = compare(b, t, vals, sizes, st->miss[m].k, st->miss[m].after,
                            sizeof st->miss[m].after);
            st->miss[m].after_equal = r == CMP_EQUAL || r == CMP_NEAR || r == CMP_ROUNDED;
        }
        free(vals);
        free(sizes);
    }
}

/* The probed variables of base type b: their positions in job->vars into idx, their value
 * references into vr, their element count into *ne; returns how many. */
static size_t of_base(const sv_job *job, fmuc_inst_base b, size_t *idx, fmuc_vr *vr, size_t *ne)
{
    size_t n = 0;
    *ne = 0;
    for (size_t j = 0; j < job->nvars; j++)
        if (apiu_inst_base(job->md->vars[job->vars[j]].base) == b) {
            idx[n] = j;
            vr[n++] = job->md->vars[job->vars[j]].value_reference;
            *ne += job->nelem[j];
        }
    return n;
}

/* After ExitInitializationMode, every probed variable whose value in Initialization Mode was its
 * start value is read again (red-team round 5: a state with initial="exact" that
 * fmi2ExitInitializationMode moved by 0.05 passed). A parameter, constant or input that changed
 * when initialization ended, nothing having set it, is no longer "initialized with the start
 * value" (§2.2.7; 3.0.2 §2.4.7.5): fail. Any other variable (a continuous state, an output or a
 * local with initial="exact") warns: the event at the start time may change it, which a
 * Co-Simulation FMU handles inside the FMU and some tools handle inside ExitInitializationMode
 * (Model Exchange reports it after fmi2NewDiscreteStates, valuesOfContinuousStatesChanged). The
 * first MAX_FINDINGS are named. */
static void judge_exit_jumps(fmuc_worker_ctx *ctx, fmuc_inst *in, const sv_job *job, int ver,
                             const sv_state *st, const char *exit_fn, cJSON *reply)
{
    char fn[32];
    size_t named = 0, jumps = 0, moved = 0; /* parameters/constants/inputs; the others */
    size_t *idx = malloc((job->nvars + 1) * sizeof *idx);
    fmuc_vr *vr = malloc((job->nvars + 1) * sizeof *vr);
    for (int bi = 0; bi < FMUC_INST_NBASE && idx && vr && st->init_r; bi++) {
        fmuc_inst_base b = (fmuc_inst_base)bi;
        size_t ne = 0, n = of_base(job, b, idx, vr, &ne);
        if (!n)
            continue;
        void *vals = calloc(ne, apiu_value_size(b));
        size_t *sizes = calloc(ne, sizeof *sizes);
        fmuc_worker_phase(ctx, "get after %s (%s)", exit_fn, apiu_base3_name(b));
        if (!vals || !sizes || !fmuc_status_ok(apiu_get_values(in, b, vr, n, vals, sizes, ne))) {
            /* a refused get after initialization is api-variable-access's */
            free(vals);
            free(sizes);
            break;
        }
        size_t off = 0;
        for (size_t j = 0; j < n; j++) {
            size_t i = job->vars[idx[j]], nel = job->nelem[idx[j]];
            for (size_t k = 0; k < nel; k++) {
                int before = st->init_r[st->elem_off[idx[j]] + k];
                if (before != CMP_EQUAL && before != CMP_NEAR && before != CMP_ROUNDED)
                    continue;
                char g[160];
                const char *t = apiu_start_token(job->md, i, k, nel);
                if (compare(b, t, vals, sizes, off + k, g, sizeof g) != CMP_DIFFER)
                    continue;
                const fmuc_md_var *v = &job->md->vars[i];
                int fixed = v->causality == FMUC_CAUS_PARAMETER ||
                            v->causality == FMUC_CAUS_STRUCTURAL_PARAMETER ||
                            v->causality == FMUC_CAUS_INPUT || v->variability == FMUC_VAR_CONSTANT;
                if (fixed)
                    jumps++;
                else
                    moved++;
                if (named++ >= MAX_FINDINGS)
                    continue;
                const char *q = b == FMUC_INST_STRING ? "\"" : "";
                char el[40] = "";
                if (nel > 1)
                    snprintf(el, sizeof el, " element %zu", k + 1);
                apiu_finding(reply, fixed ? "fail" : "warn",
                             "%s: %s '%s'%s (valueReference %" PRIu32 ", line %" PRIu32 "): %s "
                             "returned its start value %s%s%s in Initialization Mode and %s "
                             "after %s, with nothing set in between: %s",
                             apiu_iface_name(job->type), fmuc_md_causality_name(v->causality),
                             v->name ? v->name : "?", el, v->value_reference, v->line,
                             apiu_accessor(ver, b, 0, fn, sizeof fn), q, t, q, g, exit_fn,
                             v->causality == FMUC_CAUS_INPUT
                                 ? "an input that is not set keeps its start value"
                             : fixed ? "initial = exact: it is initialized with its start value, "
                                       "and ending initialization does not change a parameter"
                                     : "initial = exact: it is initialized with its start value; "
                                       "an event at the start time may move it (Model Exchange "
                                       "reports that after fmi2NewDiscreteStates), so a warning");
            }
            off += nel;
        }
        free(vals);
        free(sizes);
    }
    if (named > MAX_FINDINGS)
        apiu_finding(reply, jumps ? "fail" : "warn",
                     "%s: %zu variable(s) in all left their start values in %s (%zu parameters, "
                     "constants or inputs)",
                     apiu_iface_name(job->type), jumps + moved, exit_fn, jumps);
    free(idx);
    free(vr);
}

static void report_misses(cJSON *reply, const sv_job *job, int ver, const sv_state *st,
                          const char *exit_fn)
{
    size_t late = 0, stay = 0; /* of the differences not named one by one */
    for (size_t m = 0; m < st->nmiss; m++) {
        const sv_miss *x = &st->miss[m];
        if (m >= MAX_FINDINGS) {
            if (x->after_equal == 1)
                late++;
            else
                stay++;
            continue;
        }
        size_t i = job->vars[x->j], ne = job->nelem[x->j];
        const fmuc_md_var *v = &job->md->vars[i];
        fmuc_inst_base b = apiu_inst_base(v->base);
        const char *t = apiu_start_token(job->md, i, x->k, ne);
        const char *q = b == FMUC_INST_STRING ? "\"" : "";
        char el[40] = "", head[400], tail[400], fn[32];
        if (ne > 1)
            snprintf(el, sizeof el, " element %zu", x->k + 1);
        int input = v->causality == FMUC_CAUS_INPUT && v->initial == FMUC_INIT_NONE;
        snprintf(head, sizeof head,
                 "%s: %s '%s'%s (valueReference %" PRIu32 ", line %" PRIu32 "): %s in "
                 "Initialization Mode, before any set, returned %s, but modelDescription.xml "
                 "gives the start value %s%s%s (%s)",
                 apiu_iface_name(job->type), fmuc_md_causality_name(v->causality),
                 v->name ? v->name : "?", el, v->value_reference, v->line,
                 apiu_accessor(ver, b, 0, fn, sizeof fn), x->got, q, t, q,
                 input ? "an input that is not set: the FMU must use it"
                       : "initial = exact: the variable is initialized with it");
        if (x->after_equal == 1) {
            /* the model runs with the start value: only reads during initialization see
             * another one */
            apiu_finding(reply, "letter", "%s; after %s it has the start value: the FMU applies "
                                          "it only when initialization ends",
                         head, exit_fn);
            continue;
        }
        if (x->after_equal == 0)
            snprintf(tail, sizeof tail, "; after %s it is %s: the model runs with another value",
                     exit_fn, x->after);
        else
            tail[0] = 0;
        apiu_finding(reply, "fail", "%s%s", head, tail);
    }
    size_t more = st->c.differ > MAX_FINDINGS ? st->c.differ - MAX_FINDINGS : 0;
    if (!more)
        return;
    /* beyond the kept ones nothing was read again: they count with the others */
    if (stay)
        apiu_finding(reply, "fail", "%s: %zu more value(s) differ from their start values in "
                                    "Initialization Mode (%zu of those read again still differ "
                                    "after %s)",
                     apiu_iface_name(job->type), more, stay, exit_fn);
    else
        apiu_finding(reply, "letter", "%s: %zu more value(s) differ from their start values in "
                                      "Initialization Mode (the %zu read again have them after "
                                      "%s)",
                     apiu_iface_name(job->type), more, late, exit_fn);
}

#define RESET_MAX 256 /* Float64 parameters set before the reset probe's fmi2Reset, at most */

/* fmi2Reset: "The FMU goes into the same state as if fmi2Instantiate would have been called.
 * All variables have their default values" (FMI 2.0.4 §2.1.6, fmi2-rules C-16, M; FMI 3.0.2
 * §2.3.1 fmi3Reset the same): in the instance of the probe, reset, the scalar Float64 parameters
 * set to other values (1e-3 relative, within [min, max]) in the Instantiated state, the
 * initialization made with them (Initialization Mode left), reset again after it, as an importer
 * does between two runs, Initialization Mode entered again: a parameter that still has the
 * value set before the reset fails (red-team round 5: a reset that kept a parameter passed every
 * check). A refused call ends the probe, noted (api-mandatory-functions judges the reset
 * itself). */
static void reset_probe(fmuc_worker_ctx *ctx, fmuc_inst *in, const sv_job *job, cJSON *reply,
                        int ver)
{
    const fmuc_md *md = job->md;
    const char *ifn = apiu_iface_name(job->type);
    const char *reset = apiu_fn(ver, job->type, FMUC_INST_OP_RESET);
    const char *set = ver == 3 ? "fmi3SetFloat64" : "fmi2SetReal";
    const char *get = ver == 3 ? "fmi3GetFloat64" : "fmi2GetReal";
    char b[32];
    fmuc_vr vr[RESET_MAX];
    size_t var[RESET_MAX], n = 0;
    double val[RESET_MAX], back[RESET_MAX];
    for (size_t j = 0; j < job->nvars && n < RESET_MAX; j++) {
        const fmuc_md_var *v = &md->vars[job->vars[j]];
        if (v->causality != FMUC_CAUS_PARAMETER || v->base != FMUC_BT_FLOAT64 ||
            job->nelem[j] != 1 || !isfinite(v->start) ||
            (v->variability != FMUC_VAR_FIXED && v->variability != FMUC_VAR_TUNABLE))
            continue;
        double d = fmax(1e-3 * fabs(v->start), 1e-6), x = v->start + d;
        if ((v->has & FMUC_HAS_MAX) && x > v->max)
            x = v->start - d;
        if ((v->has & FMUC_HAS_MIN) && x < v->min)
            continue;
        var[n] = job->vars[j];
        vr[n] = v->value_reference;
        val[n++] = x;
    }
    if (!n || !reset)
        return;
    fmuc_worker_phase(ctx, "%s probe: %s", reset, reset);
    fmuc_status st = fmuc_inst_reset(in);
    if (st == FMUC_STATUS_NOT_PROVIDED)
        return;
    if (!fmuc_status_ok(st)) {
        apiu_finding(reply, "note", "%s: %s after the start values were read returned %s: the "
                                    "parameters after a reset are not probed",
                     ifn, reset, fmuc_status_name(ver, st, b, sizeof b));
        return;
    }
    fmuc_worker_phase(ctx, "%s probe: %s of %zu parameters", reset, set, n);
    st = fmuc_inst_set_float64(in, vr, n, val);
    if (!fmuc_status_ok(st)) {
        apiu_finding(reply, "note", "%s: %s of %zu parameters to other values after %s returned "
                                    "%s: the parameters after a reset are not probed",
                     ifn, set, n, reset, fmuc_status_name(ver, st, b, sizeof b));
        return;
    }
    fmuc_drive_start ds;
    fmuc_drive_reached r;
    fmuc_drive_start_init(&ds, md);
    fmuc_worker_phase(ctx, "%s probe: initialization with the parameters set", reset);
    if (fmuc_drive_reach(in, fmuc_drive_after_init_state(job->type), &ds, &r) != 0) {
        apiu_finding(reply, "note", "%s: the initialization with %zu parameters moved by 1e-3 "
                                    "failed: the parameters after a reset are not probed",
                     ifn, n);
        return;
    }
    fmuc_worker_phase(ctx, "%s probe: %s after the initialization", reset, reset);
    st = fmuc_inst_reset(in);
    if (!fmuc_status_ok(st) || fmuc_drive_reach(in, FMUC_ST_INIT, &ds, &r) != 0) {
        apiu_finding(reply, "note", "%s: %s after the initialization with the parameters set, or "
                                    "the Initialization Mode after it, failed: the parameters "
                                    "after a reset are not probed",
                     ifn, reset);
        return;
    }
    fmuc_worker_phase(ctx, "%s probe: %s in Initialization Mode", reset, get);
    for (size_t k = 0; k < n; k++)
        back[k] = NAN;
    st = fmuc_inst_get_float64(in, vr, n, back);
    if (!fmuc_status_ok(st)) {
        apiu_finding(reply, "note", "%s: %s of the parameters after %s returned %s: not compared",
                     ifn, get, reset, fmuc_status_name(ver, st, b, sizeof b));
        return;
    }
    size_t kept = 0;
    for (size_t k = 0; k < n; k++) {
        if (back[k] != val[k] || val[k] == md->vars[var[k]].start)
            continue;
        if (kept++ < MAX_FINDINGS)
            apiu_finding(reply, "fail",
                         "%s: parameter '%s' (vr %u) set to %.17g before %s still has that value "
                         "in Initialization Mode after it, not its start value %.17g: the "
                         "reset must put the FMU into the state it had after instantiation",
                         ifn, md->vars[var[k]].name, (unsigned)vr[k], val[k], reset,
                         md->vars[var[k]].start);
    }
    if (kept > MAX_FINDINGS)
        apiu_finding(reply, "fail", "%s: %zu more parameters keep their value across %s", ifn,
                     kept - MAX_FINDINGS, reset);
    cJSON_AddNumberToObject(reply, "reset_parameters", (double)n);
}

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    const sv_job *job = payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    char why[200], b2[32], fn[32];
    sv_state *st = calloc(1, sizeof *st);
    if (!st || apiu_load(ctx, job->type) < 0) {
        free(st);
        return 0;
    }
    int ver = fmuc_inst_version(ctx);
    fmuc_worker_phase(ctx, "instantiation and Initialization Mode");
    fmuc_inst *in = apiu_reach(ctx, job->type, job->md, FMUC_ST_INIT, "startvalues", why,
                               sizeof why);
    if (!in) {
        cJSON_AddStringToObject(reply, "skip", why);
        free(st);
        return 0;
    }
    size_t *idx = malloc((job->nvars + 1) * sizeof *idx);
    fmuc_vr *vr = malloc((job->nvars + 1) * sizeof *vr);
    fmuc_status worst = FMUC_STATUS_OK;
    size_t nel_all = 0;
    st->elem_off = malloc((job->nvars + 1) * sizeof *st->elem_off);
    for (size_t j = 0; st->elem_off && j < job->nvars; j++) {
        st->elem_off[j] = nel_all;
        nel_all += job->nelem[j];
    }
    st->init_r = st->elem_off ? malloc(nel_all + 1) : NULL;
    if (st->init_r)
        memset(st->init_r, -1, nel_all + 1);
    for (int bi = 0; bi < FMUC_INST_NBASE && idx && vr; bi++) {
        fmuc_inst_base b = (fmuc_inst_base)bi;
        size_t ne = 0, n = of_base(job, b, idx, vr, &ne);
        if (!n)
            continue;
        void *vals = calloc(ne, apiu_value_size(b));
        size_t *sizes = calloc(ne, sizeof *sizes);
        if (!vals || !sizes) {
            free(vals);
            free(sizes);
            break;
        }
        fmuc_worker_phase(ctx, PROBE " (%s)", apiu_base3_name(b));
        fmuc_status s = apiu_get_values(in, b, vr, n, vals, sizes, ne);
        if (fmuc_status_ok(s)) {
            judge(job, b, idx, n, vals, sizes, st);
        } else {
            /* after Error (or Discard, which a get does not define) the values read are for
             * debugging only (2.0 §2.1.3, 3.0 §2.2.4): nothing more is compared */
            worst = s;
            st->c.refused += n;
            apiu_finding(reply, "note",
                         "%s: %s of the %zu %s variable(s) initialized with their start "
                         "value returned %s: they and the later types are not compared",
                         apiu_iface_name(job->type), apiu_accessor(ver, b, 0, fn, sizeof fn), n,
                         apiu_base3_name(b),
                         fmuc_status_name(ver, s, b2, sizeof b2));
        }
        free(vals);
        free(sizes);
        if (!fmuc_status_ok(worst))
            break;
    }
    free(idx);
    free(vr);
    const char *exit_fn = apiu_fn(ver, job->type, FMUC_INST_OP_EXIT_INIT);
    if (st->c.compared && fmuc_status_ok(worst)) {
        /* does the model run with the start values? (the misses: all the same; the others:
         * still) */
        fmuc_worker_phase(ctx, "after initialization");
        fmuc_status s = fmuc_inst_exit_initialization_mode(in);
        if (fmuc_status_ok(s)) {
            read_after_init(in, job, st);
            judge_exit_jumps(ctx, in, job, ver, st, exit_fn, reply);
        } else {
            worst = s;
            apiu_finding(reply, "note", "%s: %s returned %s: the values after initialization "
                                        "and the reset probe are not compared (the nominal "
                                        "runs judge initialization)",
                         apiu_iface_name(job->type), exit_fn,
                         fmuc_status_name(ver, s, b2, sizeof b2));
        }
    }
    report_misses(reply, job, ver, st, exit_fn);
    if (st->c.rounded)
        apiu_finding(reply, "warn",
                     "%s: %zu floating-point value(s) differ from their start values by more "
                     "than %g relative, within the decimals the XML wrote (e.g. '%s': start "
                     "value %s, the FMU has %s): the XML lost precision, an importer that sets "
                     "the start values changes the model",
                     apiu_iface_name(job->type), st->c.rounded, REL_TOL, st->rounded_name,
                     st->rounded_text, st->rounded_got);
    if (fmuc_status_ok(worst) && ver >= 2)
        reset_probe(ctx, in, job, reply, ver);
    fmuc_worker_phase(ctx, "cleanup");
    cJSON_AddNumberToObject(reply, "compared", (double)st->c.compared);
    cJSON_AddNumberToObject(reply, "differ", (double)st->c.differ);
    cJSON_AddNumberToObject(reply, "nearly", (double)st->c.nearly);
    cJSON_AddNumberToObject(reply, "refused", (double)st->c.refused);
    cJSON_AddNumberToObject(reply, "unparsed", (double)st->c.unparsed);
    free(st->init_r);
    free(st->elem_off);
    free(st);
    if (worst == FMUC_STATUS_FATAL)
        fmuc_inst_abandon(in); /* after Fatal not even FreeInstance */
    else
        fmuc_inst_free(in); /* allowed in every state (2.0 §2.1.6, 3.0 §2.3.1) */
    return 0;
}

/* Variable i is initialized with its start value: effective initial exact (explicit, or the
 * default of parameters, structural parameters and constants), or an input with start; not a
 * discrete state (discrete/clocked locals and outputs: their start is the value before the
 * first instant, "pre", and the initialization computes them from it: FMI 2.0.4 §3.1, 3.0.2
 * §2.4.7.5), not the independent variable, not a clock or clocked variable. */
static int initialized_with_start(const fmuc_md *md, size_t i)
{
    const fmuc_md_var *v = &md->vars[i];
    if (!(v->has & FMUC_HAS_START) || !(v->has & FMUC_HAS_VALUE_REFERENCE) || !v->start_text)
        return 0;
    if (v->causality == FMUC_CAUS_INDEPENDENT || v->type == FMUC_TYPE_NONE)
        return 0;
    fmuc_inst_base b = apiu_inst_base(v->base);
    if (b == FMUC_INST_NBASE || b == FMUC_INST_CLOCK)
        return 0;
    if (fmuc_md_effective_initial(v) != FMUC_INIT_EXACT &&
        !(v->causality == FMUC_CAUS_INPUT && v->initial == FMUC_INIT_NONE))
        return 0;
    if (v->variability == FMUC_VAR_DISCRETE &&
        (v->causality == FMUC_CAUS_LOCAL || v->causality == FMUC_CAUS_OUTPUT))
        return 0;
    const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, i);
    if (x && x->nclocks)
        return 0;
    return 1;
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
    sv_job job = {.md = md};
    job.vars = malloc((md->nvars + 1) * sizeof *job.vars);
    job.nelem = malloc((md->nvars + 1) * sizeof *job.nelem);
    if (!job.vars || !job.nelem) {
        free(job.vars);
        free(job.nelem);
        fmuc_result_error(res, "out of memory");
        return;
    }
    size_t partial = 0, shared = 0;
    /* one variable per value reference (FMI 2.0 aliases share them): the set's first variable
     * initialized with a start value represents it, unless another member has another start
     * value or is not initialized with its start value (md-alias-start judges those) */
    uint32_t *first = apiu_alias_first(s);
    uint32_t *rep = calloc(md->nvars + 1, sizeof *rep);
    uint8_t *bad = calloc(md->nvars + 1, 1);
    if (!first || !rep || !bad) {
        free(first);
        free(rep);
        free(bad);
        free(job.vars);
        free(job.nelem);
        fmuc_result_error(res, "out of memory");
        return;
    }
    for (size_t i = 0; i < md->nvars; i++) {
        uint32_t f = first[i];
        if (!f || !(md->vars[i].has & FMUC_HAS_START))
            continue; /* a member without a start value of its own carries none */
        if (!initialized_with_start(md, i))
            bad[f - 1] = 1;
        else if (!rep[f - 1])
            rep[f - 1] = (uint32_t)i + 1;
        else if (strcmp(md->vars[rep[f - 1] - 1].start_text, md->vars[i].start_text) != 0)
            bad[f - 1] = 1;
    }
    for (size_t i = 0; i < md->nvars; i++) {
        if (!initialized_with_start(md, i))
            continue;
        uint32_t f = first[i];
        if (f && rep[f - 1] != i + 1)
            continue; /* another member represents the set */
        if (f && bad[f - 1]) {
            shared++;
            continue;
        }
        size_t ne = fmuc_sim_var_elements(md, i, NULL, 0, NULL);
        if (ne == 0 || !apiu_start_token(md, i, 0, ne)) {
            partial++;
            continue;
        }
        job.vars[job.nvars] = i;
        job.nelem[job.nvars++] = ne;
    }
    free(first);
    free(rep);
    free(bad);
    if (shared)
        fmuc_result_note(res, "%zu value reference(s) shared by variables of different start "
                              "values or initial kinds: not compared (md-alias-start)",
                         shared);
    if (partial)
        fmuc_result_note(res, "%zu array variable(s) whose start values do not give every "
                              "element: not compared", partial);
    if (!job.nvars) {
        fmuc_result_na(res, "no variable is initialized with a start value (initial = exact or "
                            "an input with start)");
        free(job.vars);
        free(job.nelem);
        return;
    }
    for (size_t k = 0; k < n; k++) {
        job.type = ifs[k].type;
        fmuc_worker_outcome o;
        int died = 0;
        const cJSON *r = apiu_run_probed(s, res, "api-start-values", job.type, worker, &job, &o,
                                         PROBE, &died);
        if (died) {
            char why[600];
            fmuc_worker_death_text(&o, why, sizeof why);
            fmuc_result_violation(res, "%s: getting the start values in Initialization Mode "
                                       "ended the worker with %s",
                                  ifs[k].name, why);
            tested++;
            fmuc_worker_outcome_free(&o);
            continue;
        }
        if (!r || apiu_load_failed(r, res, job.type)) {
            fmuc_worker_outcome_free(&o);
            continue;
        }
        const char *skip = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "skip"));
        if (skip) {
            fmuc_result_note(res, "%s not probed: %s", ifs[k].name, skip);
            fmuc_worker_outcome_free(&o);
            continue;
        }
        apiu_report_findings(r, res);
        double cmp = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(r, "compared"));
        double dif = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(r, "differ"));
        double nea = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(r, "nearly"));
        double unp = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(r, "unparsed"));
        if (nea > 0)
            fmuc_result_note(res, "%s: %.0f floating-point value(s) differ from their start "
                                  "values within %g relative (the digits the XML kept)",
                             ifs[k].name, nea, REL_TOL);
        if (unp > 0)
            fmuc_result_note(res, "%s: %.0f start value(s) are not values of their type "
                                  "(md-attribute-syntax): not compared",
                             ifs[k].name, unp);
        if (cmp > 0) {
            tested++;
            fmuc_result_note(res, "%s: %.0f value(s) compared with their start values, %.0f "
                                  "differ",
                             ifs[k].name, cmp, dif);
        }
        fmuc_worker_outcome_free(&o);
    }
    free(job.vars);
    free(job.nelem);
    fmuc_result_parts_judged(res, tested);
    if (!tested && res->verdict == FMUC_VERDICT_PASS)
        fmuc_result_na(res, "no value could be compared");
}

const fmuc_check fmuc_check_api_start_values = {
    .id = "api-start-values",
    .title = "Variables initialized with their start value have it in Initialization Mode, "
             "also after a reset",
    .spec = "FMI 2.0.4 §2.2.7 (initial = exact, inputs), §2.1.6 (fmi2Reset); FMI 3.0.2 "
            "§2.4.7.5 (initial), §2.4 (modelDescription.xml must not be edited), §2.3.1 "
            "(fmi3Reset)",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_SOME,
    .interop_why = "a start value applied only when initialization ends is the value the model "
                   "runs with: only reads during initialization see another one (warn); a "
                   "value that still differs afterwards fails",
    .why = "An importer shows and sets the start values of modelDescription.xml as the model's: "
           "when the binary starts from other values, results depend on whether the importer "
           "set them, and the parameters users see are not the ones simulated.",
    .fix = "Generate modelDescription.xml and the binary from the same model, never edit the "
           "XML afterwards, and write every start value with all the digits the binary uses.",
    .applies = FMUC_APPLIES_MECS,
    .versions = FMUC_V2 | FMUC_V3,
    .absent_in_v1 = "FMI 1.0 defines no get before fmiInitialize / fmiInitializeSlave",
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
