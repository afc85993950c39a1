/* api-bad-vr: wrong value references are refused with fmi2Error (FMI 2.0.4 §2.1.2, fmi2-rules
 * C-05): fmi2Get/Set of every base type with a valueReference no variable of that type uses, and
 * fmi2Set* of a constant (the standard's own example) fail the check when accepted; setting an
 * output or the independent variable after initialization (derived, "D") warns. Each probe runs
 * on a fresh instance after fmi2ExitInitializationMode (ME Event Mode, CS stepComplete).
 * FMI 3.0 (FMI 3.0.2 §2.2.4, §2.2.7.2, fmi3-rules C-21, C-22): illegal arguments and setting what
 * is not settable in the current state must return fmi3Error: an unknown valueReference (one
 * space for all types) with fmi3Get/SetFloat64, Int32, Boolean and String, and fmi3Set<type> of a
 * constant, an output and the independent variable after fmi3ExitInitializationMode (ME Event
 * Mode, CS Step Mode, SE Clock Activation Mode: §5.2, D.3 conditions 24/25) all fail when
 * accepted; arrays get nValues of their element count. */
#include "api_util.h"

#define MAX_PROBES 24

typedef struct probe {
    int set;                   /* 0 get, 1 set */
    int type;                  /* fmuc_type class (Real/Integer/Boolean/String) */
    fmi2ValueReference vr;
    const fmuc_md_var *var;    /* NULL: unknown vr */
    int must;                  /* 1: violation fails, 0: warns */
    const char *what;          /* "unknown valueReference", "constant", ... */
    int base;                  /* FMI 3.0: fmuc_inst_base of the call */
    size_t nval;               /* FMI 3.0: values (the variable's elements) */
} probe;

typedef struct plan {
    fmuc_iface iface;
    int ver;                   /* FMI version: 1 fmiSetReal ..., 2 fmi2SetReal ..., 3 fmi3SetFloat64 ... */
    const fmuc_md *md;
    probe p[MAX_PROBES];
    size_t n;
    char desc[200];
} plan;

static const char *tname(int t)
{
    switch (t) {
    case FMUC_TYPE_REAL: return "Real";
    case FMUC_TYPE_INTEGER: return "Integer";
    case FMUC_TYPE_BOOLEAN: return "Boolean";
    default: return "String";
    }
}

/* The accessor's type suffix in the plan's version ("Real"; FMI 3.0 "Float64") */
static const char *pname(const plan *pl, const probe *p)
{
    return pl->ver == 3 ? apiu_base3_name((fmuc_inst_base)p->base) : tname(p->type);
}

/* The version's function prefix ("fmi", "fmi2", "fmi3") */
static const char *vpre(int ver)
{
    return ver == 1 ? "fmi" : ver == 3 ? "fmi3" : "fmi2";
}

/* Another variable with the same base type and vr that may legally be set after init. */
/* The settable (input or parameter) variables' keys, valueReference and class, sorted: whether
 * another variable of the same key is settable is then a binary search, not a scan per
 * variable (a model description of 200,000 variables took minutes). */
typedef struct settable_keys {
    uint64_t *k;
    size_t n;
} settable_keys;

static uint64_t vr_key(const fmuc_md_var *v)
{
    return ((uint64_t)(unsigned)apiu_vr_class(v->type) << 32) | v->value_reference;
}

static int is_settable(const fmuc_md_var *v)
{
    return v->causality == FMUC_CAUS_INPUT || v->causality == FMUC_CAUS_PARAMETER;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* 0, or -1 out of memory */
static int settable_keys_make(settable_keys *sk, const fmuc_md *md)
{
    sk->n = 0;
    sk->k = md->nvars ? malloc(md->nvars * sizeof *sk->k) : NULL;
    if (md->nvars && !sk->k)
        return -1;
    for (size_t i = 0; i < md->nvars; i++)
        if (is_settable(&md->vars[i]))
            sk->k[sk->n++] = vr_key(&md->vars[i]);
    if (sk->n)
        qsort(sk->k, sk->n, sizeof *sk->k, cmp_u64);
    return 0;
}

/* v shares its valueReference (same class) with another variable that may be set */
static int shares_settable_vr(const settable_keys *sk, const fmuc_md_var *v)
{
    uint64_t key = vr_key(v);
    size_t lo = 0, hi = sk->n;
    while (lo < hi) { /* first position with k >= key */
        size_t mid = lo + (hi - lo) / 2;
        if (sk->k[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t same = 0;
    for (size_t i = lo; i < sk->n && sk->k[i] == key && same < 2; i++)
        same++;
    return same > (is_settable(v) ? 1u : 0u); /* v itself is one of them when settable */
}

static void add(plan *pl, probe p)
{
    if (pl->n < MAX_PROBES)
        pl->p[pl->n++] = p;
}

/* Variable i (0-based) is a continuous-time state: some variable's derivative names it (an ME
 * state may be set in Event Mode, condition 4: not a probe of a non-settable output). */
static int is_state(const fmuc_md *md, size_t i)
{
    for (size_t k = 0; k < md->nvars; k++)
        if (md->vars[k].derivative == i + 1)
            return 1;
    return 0;
}

/* FMI 3.0: the probes with the variable's own accessor and element count */
static void build3(plan *pl)
{
    const fmuc_md *md = pl->md;
    static const int bases[] = {FMUC_INST_FLOAT64, FMUC_INST_INT32, FMUC_INST_BOOLEAN,
                                FMUC_INST_STRING};
    fmi2ValueReference u = apiu_unused_vr3(md);
    for (size_t k = 0; k < 4; k++) {
        add(pl, (probe){0, 0, u, NULL, 1, "unknown valueReference", bases[k], 1});
        add(pl, (probe){1, 0, u, NULL, 1, "unknown valueReference", bases[k], 1});
    }
    size_t nconst = 0;
    const fmuc_md_var *out = NULL, *indep = NULL;
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        fmuc_inst_base b = apiu_inst_base(v->base);
        size_t ne = fmuc_sim_var_elements(md, i, NULL, 0, NULL);
        if (!(v->has & FMUC_HAS_VALUE_REFERENCE) || b == FMUC_INST_NBASE ||
            b == FMUC_INST_BINARY || b == FMUC_INST_CLOCK || ne == 0 || ne > 4096)
            continue;
        if (v->variability == FMUC_VAR_CONSTANT && nconst < 3) {
            add(pl, (probe){1, 0, v->value_reference, v, 1, "constant", b, ne});
            nconst++;
        } else if (v->causality == FMUC_CAUS_OUTPUT && !out && v->variability != FMUC_VAR_CONSTANT &&
                   !is_state(md, i)) {
            out = v;
            add(pl, (probe){1, 0, v->value_reference, v, 1, "output", b, ne});
        } else if (v->causality == FMUC_CAUS_INDEPENDENT && !indep) {
            indep = v;
            add(pl, (probe){1, 0, v->value_reference, v, 1, "independent variable", b, ne});
        }
    }
}

static void build(plan *pl)
{
    const fmuc_md *md = pl->md;
    if (pl->ver == 3) {
        build3(pl);
        return;
    }
    static const int types[] = {FMUC_TYPE_REAL, FMUC_TYPE_INTEGER, FMUC_TYPE_BOOLEAN, FMUC_TYPE_STRING};
    /* FMI 1.0 does not say what an unknown valueReference gives (fmi1-rules C-11, "D"): warn */
    const int unknown_must = pl->ver != 1;
    for (size_t k = 0; k < 4; k++) {
        fmi2ValueReference u = apiu_unused_vr(md, types[k]);
        add(pl, (probe){0, types[k], u, NULL, unknown_must, "unknown valueReference", 0, 0});
        add(pl, (probe){1, types[k], u, NULL, unknown_must, "unknown valueReference", 0, 0});
    }
    size_t nconst = 0;
    const fmuc_md_var *out = NULL, *indep = NULL, *param = NULL;
    settable_keys sk;
    if (settable_keys_make(&sk, md) < 0)
        return; /* out of memory: the unknown valueReferences only */
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (!(v->has & FMUC_HAS_VALUE_REFERENCE) || v->type == FMUC_TYPE_NONE ||
            shares_settable_vr(&sk, v))
            continue;
        if (v->variability == FMUC_VAR_CONSTANT && nconst < 3) {
            add(pl, (probe){1, apiu_vr_class(v->type), v->value_reference, v, 1, "constant", 0, 0});
            nconst++;
        } else if (v->causality == FMUC_CAUS_OUTPUT && !out && v->variability != FMUC_VAR_CONSTANT) {
            out = v;
        } else if (v->causality == FMUC_CAUS_INDEPENDENT && !indep && v->type == FMUC_TYPE_REAL) {
            indep = v;
        } else if (pl->ver == 1 && v->causality == FMUC_CAUS_PARAMETER && !param &&
                   v->type != FMUC_TYPE_STRING) {
            param = v; /* 1.0: a parameter is set before fmiInitialize only (fmi1-rules B-206) */
        }
    }
    free(sk.k);
    if (param)
        add(pl, (probe){1, apiu_vr_class(param->type), param->value_reference, param, 0,
                        "parameter", 0, 0});
    if (out)
        add(pl, (probe){1, apiu_vr_class(out->type), out->value_reference, out, 0, "output", 0, 0});
    if (indep)
        add(pl, (probe){1, FMUC_TYPE_REAL, indep->value_reference, indep, 0, "independent variable", 0, 0});
}

static const char *describe(size_t i, void *user)
{
    plan *pl = user;
    const probe *p = &pl->p[i];
    snprintf(pl->desc, sizeof pl->desc, "%s%s%s(vr %u: %s%s%s)", vpre(pl->ver),
             p->set ? "Set" : "Get", pname(pl, p), p->vr, p->what, p->var ? " " : "",
             p->var && p->var->name ? p->var->name : "");
    return pl->desc;
}

/* FMI 3.0: nval zero (or start) values of the variable's own type */
static int call3(fmuc_inst *in, const probe *p)
{
    fmuc_vr vr = p->vr;
    size_t n = p->nval ? p->nval : 1;
    uint64_t *buf = calloc(n, sizeof *buf); /* 8 bytes per element: room for every type */
    int st;
    if (!buf)
        return FMUC_STATUS_NOT_PROVIDED;
    if (p->base == FMUC_INST_STRING)
        for (size_t k = 0; k < n; k++) {
            const char *e = "";
            memcpy(&buf[k], &e, sizeof e);
        }
    else if (p->base == FMUC_INST_FLOAT64 && n == 1 && p->var && (p->var->has & FMUC_HAS_START) &&
             isfinite(p->var->start))
        memcpy(buf, &p->var->start, sizeof(double));
    if (p->base == FMUC_INST_STRING) /* the pointers were laid out as an array of char* */
        st = p->set ? fmuc_inst_set(in, FMUC_INST_STRING, &vr, 1, (const char **)(void *)buf, n)
                    : fmuc_inst_get(in, FMUC_INST_STRING, &vr, 1, (const char **)(void *)buf, n);
    else
        st = p->set ? fmuc_inst_set(in, (fmuc_inst_base)p->base, &vr, 1, buf, n)
                    : fmuc_inst_get(in, (fmuc_inst_base)p->base, &vr, 1, buf, n);
    free(buf);
    return st;
}

static int call(fmuc_inst *in, const probe *p)
{
    if (fmuc_inst_fmi_version(in) == 3)
        return call3(in, p);
    fmuc_vr vr = p->vr;
    double r = p->var && (p->var->has & FMUC_HAS_START) && isfinite(p->var->start) ? p->var->start : 0.0;
    int32_t i = (int32_t)(isfinite(r) && fabs(r) < 2e9 ? r : 0);
    int b = r != 0.0;
    const char *s = p->var && p->var->start_text ? p->var->start_text : "";
    switch (p->type) {
    case FMUC_TYPE_REAL:
        return p->set ? fmuc_inst_set_float64(in, &vr, 1, &r) : fmuc_inst_get_float64(in, &vr, 1, &r);
    case FMUC_TYPE_INTEGER:
        return p->set ? fmuc_inst_set_int32(in, &vr, 1, &i) : fmuc_inst_get_int32(in, &vr, 1, &i);
    case FMUC_TYPE_BOOLEAN:
        return p->set ? fmuc_inst_set_boolean(in, &vr, 1, &b) : fmuc_inst_get_boolean(in, &vr, 1, &b);
    default:
        return p->set ? fmuc_inst_set_string(in, &vr, 1, &s) : fmuc_inst_get_string(in, &vr, 1, &s);
    }
}

static cJSON *one(fmuc_worker_ctx *ctx, size_t i, void *user)
{
    const plan *pl = user;
    char why[160];
    unsigned st = fmuc_drive_after_init_state(pl->iface);
    fmuc_inst *in = apiu_reach(ctx, pl->iface, pl->md, st, "fmucheck-bad-vr", why, sizeof why);
    if (!in)
        return cJSON_CreateString(why);
    apiu_probe_phase(ctx, i, APIU_PROBE_CALL);
    int s = call(in, &pl->p[i]);
    /* after fmi2Error only fmi2Reset or fmi2FreeInstance; after fmi2Fatal nothing (§2.1.3) */
    apiu_probe_phase(ctx, i, APIU_PROBE_CLEANUP);
    if (s != FMUC_STATUS_FATAL)
        fmuc_inst_free(in);
    else
        fmuc_inst_abandon(in);
    return cJSON_CreateNumber((double)s);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    apiu_iface ifs[3];
    size_t n = apiu_usable_ifaces_with_se(s, res, FMUC_UNUSABLE_INSTANCE, ifs), tested = 0;
    if (!n) {
        fmuc_result_na(res, "no binary for this platform");
        return;
    }
    cJSON *list = cJSON_AddArrayToObject(fmuc_result_evidence(res), "probes");
    for (size_t i = 0; i < n; i++) {
        plan pl;
        memset(&pl, 0, sizeof pl);
        pl.iface = ifs[i].type;
        pl.md = &s->fmu->md;
        pl.ver = apiu_version(s);
        build(&pl);
        const char *pre = vpre(pl.ver);
        const char *err = pl.ver == 1 ? "fmiError" : pl.ver == 3 ? "fmi3Error" : "fmi2Error";
        const char *fr = apiu_fn(pl.ver, pl.iface, FMUC_INST_OP_FREE);
        cJSON *results[MAX_PROBES];
        apiu_probes set = {pl.iface, pl.n, one, &pl, 0, 0};
        if (apiu_run_probes(s, res, "api-bad-vr", &set, results, describe) != 0)
            continue;
        for (size_t k = 0; k < pl.n; k++) {
            const probe *p = &pl.p[k];
            cJSON *r = results[k];
            char b[32], line[300], d[200];
            snprintf(d, sizeof d, "%s", describe(k, &pl));
            const char *died, *stage;
            if (!r) {
                snprintf(line, sizeof line, "%s: %s -> not carried out (the worker died before)",
                         ifs[i].name, d);
            } else if (apiu_probe_died(r, &died, &stage)) {
                /* crashing or hanging instead of returning fmi2Error is the violation itself */
                snprintf(line, sizeof line, "%s: %s -> %s", ifs[i].name, d, died);
                tested++;
                if (p->must)
                    fmuc_result_fail(res, "%s: %s must return %s, but the worker ended with "
                                          "%s%s%s%s",
                                     ifs[i].name, d, err, died,
                                     strcmp(stage, APIU_PROBE_CLEANUP) == 0 ? " (in " : "",
                                     strcmp(stage, APIU_PROBE_CLEANUP) == 0 ? fr : "",
                                     strcmp(stage, APIU_PROBE_CLEANUP) == 0 ? " after it)" : "");
                else
                    fmuc_result_warn(res, "%s: %s after initialization should return %s, "
                                          "but the worker ended with %s%s%s%s",
                                     ifs[i].name, d, err, died,
                                     strcmp(stage, APIU_PROBE_CLEANUP) == 0 ? " (in " : "",
                                     strcmp(stage, APIU_PROBE_CLEANUP) == 0 ? fr : "",
                                     strcmp(stage, APIU_PROBE_CLEANUP) == 0 ? " after it)" : "");
            } else if (cJSON_IsString(r)) {
                snprintf(line, sizeof line, "%s: %s -> not carried out: %s", ifs[i].name, d, r->valuestring);
                fmuc_result_note(res, "%s: %s not carried out: %s", ifs[i].name, d, r->valuestring);
            } else {
                int code = (int)r->valuedouble;
                const char *sn = code == (int)FMUC_STATUS_NOT_PROVIDED ? "not provided"
                                                                    : fmuc_status_name(pl.ver, code, b, sizeof b);
                snprintf(line, sizeof line, "%s: %s -> %s", ifs[i].name, d, sn);
                tested++;
                if (code != fmi2Error && code != (int)FMUC_STATUS_NOT_PROVIDED) {
                    char who[160];
                    if (p->var)
                        snprintf(who, sizeof who, "%s '%s' (vr %u, line %u)", p->what,
                                 p->var->name ? p->var->name : "?", p->vr, p->var->line);
                    else if (pl.ver == 3)
                        snprintf(who, sizeof who, "unknown valueReference %u", p->vr);
                    else
                        snprintf(who, sizeof who, "unknown %s valueReference %u", tname(p->type), p->vr);
                    if (p->must || pl.ver == 3)
                        fmuc_result_fail(res, "%s: %s%s%s of the %s returned %s (expected %s)",
                                         ifs[i].name, pre, p->set ? "Set" : "Get", pname(&pl, p),
                                         who, sn, err);
                    else
                        fmuc_result_warn(res, "%s: %s%s%s of the %s after initialization returned %s "
                                              "(expected %s%s)",
                                         ifs[i].name, pre, p->set ? "Set" : "Get", tname(p->type),
                                         who, sn, err,
                                         pl.ver == 1 && !p->var
                                             ? "; FMI 1.0 does not say, FMPy and the "
                                               "Reference-FMUs refuse it"
                                             : "");
                }
            }
            cJSON_AddItemToArray(list, cJSON_CreateString(line));
            cJSON_Delete(r);
        }
    }
    if (!tested && res->verdict <= FMUC_VERDICT_PASS)
        fmuc_result_na(res, "no probe could be carried out");
}

const fmuc_check fmuc_check_api_bad_vr = {
    .id = "api-bad-vr",
    .title = "Unknown or non-settable value references are refused with fmi2Error",
    .spec = "FMI 2.0.4 §2.1.2; FMI 3.0.2 §2.2.4, §2.2.7.2; FMI 1.0 ME (variability: constants "
            "never change, parameters are set before fmiInitialize only); FMI 1.0 CS (the same)",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_WARN,
    .interop_why = "a conforming importer passes only declared valueReferences (to fmi2Set*, only settable ones): an FMU that does not refuse others cannot break it",
    .why = "An importer that sets a mistyped or stale valueReference gets fmi2OK and believes the "
           "value was applied, while the FMU silently ignored it or wrote into memory it does not "
           "own.",
    .fix = "Look each valueReference up per base type in fmi2Get*/fmi2Set* and return fmi2Error "
           "(with a log message) for one that is unknown or not settable in the current state.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
