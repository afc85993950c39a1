/* api-buffer-bounds: the FMU writes only the elements of the arrays the importer lends it and
 * leaves the arrays it is given to read alone. FMI 2.0.4 sizes every output array by an argument
 * of the call: fmi2Get{Real,Integer,Boolean,String} fill value[] with the nvr values of vr[]
 * (§2.1.7); fmi2GetContinuousStates, fmi2GetDerivatives and fmi2GetNominalsOfContinuousStates
 * fill nx elements, fmi2GetEventIndicators ni (§3.2.2); fmi2SerializeFMUstate fills the size
 * bytes that fmi2SerializedFMUstateSize announced (§2.1.8); fmi2GetDirectionalDerivative fills
 * nUnknown elements of dvUnknown (§2.1.9). The input arrays are `const` in the C signatures
 * (fmi2Functions.h). Writing past the end corrupts the importer's memory; no importer can
 * defend itself without guard space.
 *
 * The guarding itself is in the instance layer (harness/src/inst.c): every worker's calls lend
 * guarded copies, and a violation travels with the worker's outcome (buffer_violations). This
 * check reads those of the shared nominal runs (ME and CS) and runs a probe of its own that calls
 * every output function once, with all variables of each base type. Any violation fails (M).
 * FMI 3.0 sizes the arrays the same way (FMI 3.0.2 §2.2.7.2: values[] holds nValues elements, the
 * sum of the variables' element counts; §3.2.1 nContinuousStates / nEventIndicators; §2.2.7.4 the
 * serialized size; §2.2.12 nSensitivity): the probe gets every variable of each type with its
 * elements, the states and indicators as elements, the directional derivative of the scalar
 * Float64 unknowns. Co-Simulation status queries (fmi2GetStatus, fmi2GetRealStatus,
 * fmi2GetIntegerStatus, fmi2GetBooleanStatus, fmi2GetStringStatus; FMI 1.0's fmiGet*Status)
 * fill one value through the pointer they get (§4.2.3): the probe asks each once after a step,
 * its value guarded like an array of one element. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api_util.h"

#define MAX_VRS 4096 /* value references per base type in the probe */

typedef struct probe_arg {
    fmuc_iface t;
    const fmuc_md *md;
} probe_arg;

static void get_all(fmuc_inst *in, const fmuc_md *md, int type, fmuc_inst_base base,
                    size_t es)
{
    fmuc_vr *vr = malloc(MAX_VRS * sizeof *vr);
    size_t n = 0;
    if (!vr)
        return;
    for (size_t i = 0; i < md->nvars && n < MAX_VRS; i++)
        if (apiu_vr_class(md->vars[i].type) == type)
            vr[n++] = md->vars[i].value_reference;
    if (n) {
        void *v = calloc(n, es);
        if (v)
            fmuc_inst_get(in, base, vr, n, v, n);
        free(v);
    }
    free(vr);
}

/* FMI 2.0: the Enumeration variables once more as enumerations (the instance layer passes them
 * through an fmi2Integer temporary of its own, guarded like the caller's arrays) */
static void get_enums(fmuc_inst *in, const fmuc_md *md)
{
    fmuc_vr *vr = malloc(MAX_VRS * sizeof *vr);
    size_t n = 0;
    if (!vr)
        return;
    for (size_t i = 0; i < md->nvars && n < MAX_VRS; i++)
        if (md->vars[i].type == FMUC_TYPE_ENUMERATION)
            vr[n++] = md->vars[i].value_reference;
    if (n) {
        int64_t *v = calloc(n, sizeof *v);
        if (v)
            fmuc_inst_get(in, FMUC_INST_ENUMERATION, vr, n, v, n);
        free(v);
    }
    free(vr);
}

/* Co-Simulation (FMI 2.0 and 1.0, after a completed step, where the state machine allows every
 * status query): each query's single value is guarded like an array of one element. Returns the
 * worst status (a query that fails with Error or Fatal ends the queries). */
static int status_queries(fmuc_inst *in)
{
    static const fmuc_inst_query qs[] = {FMUC_INST_Q_DO_STEP_STATUS, FMUC_INST_Q_PENDING_STATUS,
                                         FMUC_INST_Q_LAST_SUCCESSFUL_TIME,
                                         FMUC_INST_Q_TERMINATED};
    int worst = FMUC_STATUS_OK;
    for (size_t i = 0; i <= sizeof qs / sizeof qs[0]; i++) {
        union {
            int i;
            double d;
            const char *s;
        } v;
        memset(&v, 0, sizeof v);
        int st = i < sizeof qs / sizeof qs[0]
                     ? fmuc_inst_cs_status(in, qs[i], &v)
                     : fmuc_inst_cs_integer_status(in, FMUC_INST_Q_DO_STEP_STATUS, &v.i);
        if (st == FMUC_STATUS_ERROR || st == FMUC_STATUS_FATAL)
            return st;
    }
    return worst;
}

/* FMI 3.0: every variable of one base type (arrays with all their elements) in one call */
static void get_all3(fmuc_inst *in, const fmuc_md *md, fmuc_inst_base base)
{
    fmuc_vr *vr = malloc(MAX_VRS * sizeof *vr);
    size_t n = 0, nval = 0;
    if (!vr)
        return;
    for (size_t i = 0; i < md->nvars && n < MAX_VRS; i++) {
        size_t ne;
        if (apiu_inst_base(md->vars[i].base) != base ||
            !(md->vars[i].has & FMUC_HAS_VALUE_REFERENCE) ||
            (ne = fmuc_sim_var_elements(md, i, NULL, 0, NULL)) == 0 || nval + ne > 65536)
            continue;
        vr[n++] = md->vars[i].value_reference;
        nval += ne;
    }
    if (n) {
        void *v = calloc(nval, 8); /* 8 bytes per element: room for every type */
        if (v)
            fmuc_inst_get(in, base, vr, n, v, nval);
        free(v);
    }
    free(vr);
}

static size_t elements_of(const fmuc_md *md, const fmuc_md_unknown *u, size_t n)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += u[i].index ? fmuc_sim_var_elements(md, u[i].index - 1, NULL, 0, NULL) : 1;
    return total;
}

/* The value arrays of the set functions are const (fmi2SetReal ..., fmi3SetFloat64 ...): the FMU
 * gets a guarded copy (inst.c) and a write into it is a violation. The Float64 inputs (in Model
 * Exchange the continuous ones, which Continuous-Time Mode allows) are set to values 1e-6 off
 * their current ones: the nominal runs set inputs that are often 0, into which a write of 0
 * shows nothing (red-team round 5: an fmi2SetReal that zeroed value[] passed). */
static void set_inputs(fmuc_inst *in, const fmuc_md *md, int me)
{
    fmuc_vr *vr = malloc(MAX_VRS * sizeof *vr);
    double *v = malloc(MAX_VRS * sizeof *v);
    const fmuc_md_var **var = malloc(MAX_VRS * sizeof *var);
    size_t n = 0;
    for (size_t i = 0; vr && v && var && i < md->nvars && n < MAX_VRS; i++) {
        const fmuc_md_var *x = &md->vars[i];
        const fmuc_md_var_ext *e = x->ext ? fmuc_md_var_ext_of(md, i) : NULL;
        if (x->causality != FMUC_CAUS_INPUT || x->base != FMUC_BT_FLOAT64 || (e && e->ndims) ||
            (me && x->variability != FMUC_VAR_CONTINUOUS) || (e && e->nclocks))
            continue;
        var[n] = x;
        vr[n++] = x->value_reference;
    }
    if (n && fmuc_status_ok(fmuc_inst_get_float64(in, vr, n, v))) {
        size_t m = 0; /* the inputs that stay within [min, max] when moved */
        for (size_t k = 0; k < n; k++) {
            const fmuc_md_var *x = var[k];
            double d = 1e-6 * (fabs(v[k]) > 1.0 ? fabs(v[k]) : 1.0), y = v[k] + d;
            if ((x->has & FMUC_HAS_MAX) && y > x->max)
                y = v[k] - d;
            if ((x->has & FMUC_HAS_MIN) && y < x->min)
                continue;
            vr[m] = vr[k];
            v[m++] = y;
        }
        if (m)
            fmuc_inst_set_float64(in, vr, m, v);
    }
    free(vr);
    free(v);
    free(var);
}

static int probe(fmuc_worker_ctx *ctx, void *payload)
{
    const probe_arg *a = payload;
    const fmuc_md *md = a->md;
    char why[256];
    if (apiu_load(ctx, a->t) < 0)
        return 0;
    fmuc_worker_phase(ctx, "reach (%s)", apiu_iface_name(a->t));
    fmuc_inst *in = apiu_reach(ctx, a->t, md, a->t == FMUC_IFACE_ME ? FMUC_ST_CTM : FMUC_ST_SC,
                               "fmucheck-buffers", why, sizeof why);
    if (!in) {
        cJSON_AddStringToObject(fmuc_worker_reply(ctx), "unreached", why);
        return 0;
    }
    fmuc_worker_phase(ctx, "guarded calls (%s)", apiu_iface_name(a->t));
    int v3 = md->fmi == FMUC_FMI3;
    if (v3) {
        for (int b = 0; b < FMUC_INST_NBASE; b++)
            if (b != FMUC_INST_BINARY && b != FMUC_INST_CLOCK && b != FMUC_INST_ENUMERATION)
                get_all3(in, md, (fmuc_inst_base)b);
    } else {
        get_all(in, md, FMUC_TYPE_REAL, FMUC_INST_FLOAT64, sizeof(double));
        get_all(in, md, FMUC_TYPE_INTEGER, FMUC_INST_INT32, sizeof(int32_t));
        get_all(in, md, FMUC_TYPE_BOOLEAN, FMUC_INST_BOOLEAN, sizeof(int));
        get_all(in, md, FMUC_TYPE_STRING, FMUC_INST_STRING, sizeof(const char *));
        if (md->fmi == FMUC_FMI2)
            get_enums(in, md);
    }
    set_inputs(in, md, a->t == FMUC_IFACE_ME);

    size_t nx = md->fmi == FMUC_FMI1 ? md->number_of_continuous_states : md->nderivatives;
    size_t nz = md->number_of_event_indicators;
    if (v3) {
        nx = elements_of(md, md->derivatives, md->nderivatives);
        nz = elements_of(md, md->event_indicators, md->nevent_indicators);
    }
    double *x = calloc(nx + 1, sizeof *x), *z = calloc(nz + 1, sizeof *z);
    if (a->t == FMUC_IFACE_ME && x && z) {
        fmuc_inst_get_continuous_states(in, x, nx);
        fmuc_inst_get_derivatives(in, x, nx);
        fmuc_inst_get_event_indicators(in, z, nz);
        fmuc_inst_get_nominals(in, x, nx);
    }
    const fmuc_md_interface *mi = a->t == FMUC_IFACE_ME ? &md->me : &md->cs;
    if ((mi->caps & (1u << FMUC_CAP_CAN_GET_AND_SET_FMU_STATE)) &&
        (mi->caps & (1u << FMUC_CAP_CAN_SERIALIZE_FMU_STATE))) {
        fmuc_fmu_state s = NULL;
        size_t size = 0;
        if (apiu_ok(fmuc_inst_get_state(in, &s)) && s &&
            apiu_ok(fmuc_inst_serialized_state_size(in, s, &size)) && size < ((size_t)1 << 30)) {
            uint8_t *buf = malloc(size ? size : 1);
            if (buf)
                fmuc_inst_serialize_state(in, s, buf, size);
            free(buf);
        }
        if (s)
            fmuc_inst_free_state(in, &s);
    }
    /* directional derivative: the unknowns of the interface by the first state (ME) or input */
    if ((mi->caps & (1u << FMUC_CAP_PROVIDES_DIRECTIONAL_DERIVATIVE)) && md->nunknowns) {
        fmuc_vr known = 0;
        int have = 0;
        for (size_t i = 0; i < md->nderivatives && !have && a->t == FMUC_IFACE_ME; i++) {
            uint32_t k = md->derivatives[i].index;
            if (k >= 1 && k <= md->nvars && md->vars[k - 1].derivative >= 1 &&
                md->vars[k - 1].derivative <= md->nvars &&
                (!v3 || !fmuc_md_var_ext_of(md, md->vars[k - 1].derivative - 1))) {
                known = md->vars[md->vars[k - 1].derivative - 1].value_reference;
                have = 1;
            }
        }
        for (size_t i = 0; i < md->nvars && !have; i++)
            if (md->vars[i].causality == FMUC_CAUS_INPUT && md->vars[i].type == FMUC_TYPE_REAL &&
                (!v3 || (md->vars[i].base == FMUC_BT_FLOAT64 && !fmuc_md_var_ext_of(md, i)))) {
                known = md->vars[i].value_reference;
                have = 1;
            }
        size_t nu = 0;
        fmuc_vr *u = malloc((md->noutputs + md->nderivatives + 1) * sizeof *u);
        double *du = calloc(md->noutputs + md->nderivatives + 1, sizeof *du);
        for (size_t i = 0; u && i < md->noutputs; i++) {
            uint32_t k = md->outputs[i].index;
            if (k >= 1 && k <= md->nvars && md->vars[k - 1].type == FMUC_TYPE_REAL &&
                (!v3 || (md->vars[k - 1].base == FMUC_BT_FLOAT64 &&
                         fmuc_sim_var_elements(md, k - 1, NULL, 0, NULL) == 1 &&
                         !fmuc_md_var_ext_of(md, k - 1))))
                u[nu++] = md->vars[k - 1].value_reference;
        }
        for (size_t i = 0; u && a->t == FMUC_IFACE_ME && i < md->nderivatives; i++) {
            uint32_t k = md->derivatives[i].index;
            if (k >= 1 && k <= md->nvars && (!v3 || !fmuc_md_var_ext_of(md, k - 1)))
                u[nu++] = md->vars[k - 1].value_reference;
        }
        double seed = 1.0;
        if (have && nu && du)
            fmuc_inst_get_directional_derivative(in, u, nu, &known, 1, &seed, 1, du, nu);
        free(u);
        free(du);
    }
    free(x);
    free(z);
    int qst = FMUC_STATUS_OK;
    if (a->t == FMUC_IFACE_CS && !v3) {
        fmuc_worker_phase(ctx, "status queries (%s)", apiu_iface_name(a->t));
        qst = status_queries(in);
    }
    fmuc_worker_phase(ctx, "cleanup (%s)", apiu_iface_name(a->t));
    if (qst == FMUC_STATUS_FATAL) {
        fmuc_inst_abandon(in);
    } else {
        if (qst != FMUC_STATUS_ERROR)
            fmuc_inst_terminate(in);
        fmuc_inst_free(in);
    }
    cJSON_AddBoolToObject(fmuc_worker_reply(ctx), "done", 1);
    return 0;
}

static const char *str_of(const cJSON *v, const char *k)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, k));
    return s ? s : "?";
}

static double num_of(const cJSON *v, const char *k)
{
    return cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(v, k));
}

/* Same function, argument and kind: the same defect seen again (every step of a run). */
static int same(const cJSON *a, const cJSON *b)
{
    return strcmp(str_of(a, "function"), str_of(b, "function")) == 0 &&
           strcmp(str_of(a, "array"), str_of(b, "array")) == 0 &&
           strcmp(str_of(a, "kind"), str_of(b, "kind")) == 0;
}

/* Each distinct violation once, in words: "fmi2GetReal(vr=[0, 1], nvr=2) wrote 8 bytes (1
 * element) past the end of value[2]" / "... changed element 1 of vr[2], an array it may only
 * read", with how often it was seen among the recorded ones. */
static void report_all(fmuc_result *res, const char *where, const cJSON *list)
{
    const cJSON *v;
    cJSON_ArrayForEach(v, list)
    {
        int seen = 0, earlier = 0;
        for (const cJSON *w = list ? list->child : NULL; w; w = w->next) {
            if (w == v)
                break;
            earlier |= same(w, v);
        }
        if (earlier)
            continue;
        for (const cJSON *w = list->child; w; w = w->next)
            seen += same(w, v);
        char again[64] = "";
        if (seen > 1)
            snprintf(again, sizeof again, " (%d calls like it among those recorded)", seen);
        if (strcmp(str_of(v, "kind"), "overrun") == 0) {
            double el = num_of(v, "elementsPast");
            int more = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(v, "beyondGuard"));
            fmuc_result_violation(res, "%s: %s wrote %s%.0f bytes (%.0f element%s) past the end "
                                       "of %s[%.0f]%s",
                                  where, str_of(v, "call"), more ? "at least " : "",
                                  num_of(v, "bytesPast"), el,
                                  el == 1 ? "" : "s", str_of(v, "array"), num_of(v, "length"),
                                  again);
        } else {
            fmuc_result_violation(res, "%s: %s changed element %.0f of %s[%.0f], an array it may "
                                       "only read%s",
                                  where, str_of(v, "call"), num_of(v, "index"), str_of(v, "array"),
                                  num_of(v, "length"), again);
        }
    }
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    apiu_iface ifs[2];
    size_t n = apiu_usable_ifaces(s, res, FMUC_UNUSABLE_INSTANCE, ifs), tested = 0;
    if (!n) {
        if (res->verdict <= FMUC_VERDICT_PASS)
            fmuc_result_na(res, "no usable binary for this platform");
        return;
    }
    fmuc_shared_calibrate(s);
    for (size_t i = 0; i < n; i++) {
        char where[96];
        snprintf(where, sizeof where, "the nominal %s run", ifs[i].name);
        report_all(res, where, fmuc_shared_buffer_violations(s, ifs[i].type));

        probe_arg a = {ifs[i].type, &s->fmu->md};
        fmuc_worker_outcome o;
        int died = 0;
        const cJSON *r = apiu_run_probed(s, res, "api-buffer-bounds", ifs[i].type, probe, &a, &o,
                                         "guarded calls", &died);
        snprintf(where, sizeof where, "%s probe", ifs[i].name);
        /* a worker that died still reports what it saw before */
        report_all(res, where, o.buffer_violations);
        if (died) {
            char why[600];
            const char *judge = apiu_judged_elsewhere(&o, ifs[i].type, res->id);
            fmuc_worker_death_text(&o, why, sizeof why);
            if (cJSON_GetArraySize(o.buffer_violations) > 0)
                /* the FMU wrote past an array, then the worker died in the calls that followed:
                 * most likely of the memory it overwrote (the guard zone shows only its start) */
                fmuc_result_note(res, "%s: after the writes past the end the worker ended with %s",
                                 ifs[i].name, why);
            else if (judge)
                /* e.g. fmi2GetFMUstate, which the probe only uses to reach the serialization */
                fmuc_result_na_part(res,
                                    "%s: not judged: the worker ended with %s, a call that "
                                    "check %s judges",
                                    ifs[i].name, why, judge);
            else
                /* the probed call did not return: a getter given arrays of the size its count
                 * says crashed or hung (a write far past the end hits unmapped memory before
                 * the guard zone can be checked); an importer calling it so ends the same way */
                fmuc_result_violation(res, "%s: the worker ended with %s, a call given arrays of "
                                           "the size its count says (a write past the end beyond "
                                           "the guard zone, or another fault in the call)",
                                      ifs[i].name, why);
        }
        if (r && !apiu_load_failed(r, res, ifs[i].type)) {
            const char *un = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "unreached"));
            if (un)
                fmuc_result_note(res, "%s: the probe's instance did not reach %s: %s", ifs[i].name,
                                 ifs[i].type == FMUC_IFACE_ME ? "Continuous-Time Mode"
                                                                  : "Step Mode",
                                 un);
            tested++;
        }
        fmuc_worker_outcome_free(&o);
    }
    fmuc_result_parts_judged(res, tested);
    if (!tested && res->verdict == FMUC_VERDICT_PASS)
        fmuc_result_na(res, "no library could be loaded");
}

const fmuc_check fmuc_check_api_buffer_bounds = {
    .id = "api-buffer-bounds",
    .title = "The FMU stays within the arrays it is given",
    .spec = "FMI 2.0.4 §2.1.7, §2.1.8, §2.1.9, §3.2.2, §4.2.3; FMI 3.0.2 §2.2.7.2, §2.2.7.4, "
            "§2.2.12, §3.2.1; FMI 1.0 ME (fmiGetXXX, fmiGetDerivatives, fmiGetEventIndicators: "
            "nvr / nx / ni elements); FMI 1.0 CS (the same getters, fmiGet*Status: one value)",
    .level = FMUC_LEVEL_MUST,
    .why = "An importer sizes each output array by the call's count; an FMU writing one element "
           "more corrupts the importer's heap or stack (a crash or wrong results far from the "
           "FMU), and one writing into vr[] changes the importer's data.",
    .fix = "Loop to the count argument of the call (nvr, nx, ni, size, nUnknown), not to the "
           "model's own number of variables or states; never write through the const "
           "arguments.",
    .applies = FMUC_APPLIES_MECS,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX,
    .run = run,
};
