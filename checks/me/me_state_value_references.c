/* me-state-value-references: FMI 1.0 Model Exchange only. The model description of FMI 1.0
 * does not say which variables the continuous states are; an importer asks the FMU with
 * fmiGetStateValueReferences(c, vrx, nx) after fmiInitialize (and again after an event that
 * reports stateValueReferencesChanged) to label, plot or store the states.
 *   FMI 1.0 ME (fmiGetStateValueReferences, fmiModelFunctions.h; fmi1-rules F-01, F-09): the
 *     function returns "the value references of the state vector"; where a state has no
 *     variable, its entry is fmiUndefinedValueReference; every other entry is the
 *     valueReference of a Real variable (the catalogue has the rule at level M/D).
 * An FMU may refuse the call (fmiError or fmiDiscard: 1.0 lets a function an FMU does not support
 * return an error, fmi1-rules C-02; the Reference-FMUs 0.0.39 do so): not applicable then.
 * The probe: instantiate, fmiSetTime(start), fmiInitialize and its event iteration (the
 * session every me-* check uses), then fmiGetContinuousStates and fmiGetStateValueReferences
 * with nx = numberOfContinuousStates. It fails when the call does not succeed, when an entry
 * names no Real variable of the model description, and when the Real value of an entry
 * (fmiGetReal, so aliases and negated aliases read as the FMU serves them) is not the state it
 * stands for: an importer that labels the states by these references would show another
 * quantity under the state's name. Entries that are fmiUndefinedValueReference are counted.
 * FMI 2.0 and 3.0 declare the states in <Derivatives> / <ContinuousStateDerivative> (their
 * md-ms-derivatives and me-state-roundtrip judge them); the function does not exist there. */
#include "me_util.h"

#define REL_SAME 1e-9 /* a named variable is the state when |v - x| <= REL_SAME * max(|x|, 1) */

typedef struct svr_payload {
    const meu_model *m;
} svr_payload;

/* The Real variable with valueReference vr (its first in document order), or NULL. */
static const fmuc_md_var *real_by_vr(const fmuc_md *md, fmuc_vr vr)
{
    for (size_t i = 0; i < md->nvars; i++)
        if (md->vars[i].value_reference == vr && md->vars[i].type == FMUC_TYPE_REAL)
            return &md->vars[i];
    return NULL;
}

/* Any variable with valueReference vr (to name its type when it is not Real), or NULL. */
static const fmuc_md_var *any_by_vr(const fmuc_md *md, fmuc_vr vr)
{
    for (size_t i = 0; i < md->nvars; i++)
        if (md->vars[i].value_reference == vr)
            return &md->vars[i];
    return NULL;
}

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    const svr_payload *p = payload;
    const meu_model *m = p->m;
    const fmuc_md *md = &fmuc_worker_fmu(ctx)->md;
    const size_t nx = m->nx;
    cJSON *reply = fmuc_worker_reply(ctx);
    char sb[32];
    meu_session s;
    if (meu_start(ctx, md, &s) < 0) {
        meu_end(&s);
        return 0;
    }
    fmuc_vr *vrx = calloc(nx, sizeof *vrx);
    double *x = calloc(nx, sizeof *x);
    if (!vrx || !x) {
        meu_fatal(ctx, "out of memory");
        goto out;
    }
    int st = meu_st(&s, fmuc_inst_get_continuous_states(s.c, x, nx));
    if (!meu_ok(st)) {
        meu_na(ctx, "fmiGetContinuousStates(nx = %zu) returned %s (me-state-roundtrip judges "
                    "it): no states to compare with",
               nx, meu_stname(1, st, sb, sizeof sb));
        goto out;
    }
    for (size_t i = 0; i < nx; i++)
        vrx[i] = FMUC_VR_UNDEFINED_FMI1 - 1; /* a value the FMU must overwrite */
    st = meu_st(&s, fmuc_inst_get_state_value_references(s.c, vrx, nx));
    if (st == FMUC_STATUS_NOT_PROVIDED) {
        meu_violation(ctx, "fmiGetStateValueReferences is not exported: ME 1.0 importers call "
                           "it after fmiInitialize to find the states' variables");
        goto out;
    }
    if (st == FMUC_STATUS_ERROR || st == FMUC_STATUS_DISCARD) {
        /* 1.0 lets an FMU refuse a function it does not support (fmi1-rules C-02; the
         * Reference-FMUs 0.0.39 answer fmiError here): nothing named, nothing to judge */
        meu_na(ctx, "fmiGetStateValueReferences(nx = %zu) returned %s: the FMU does not name its "
                    "states' variables (FMI 1.0 allows refusing an unsupported function, as the "
                    "Reference-FMUs do)",
               nx, meu_stname(1, st, sb, sizeof sb));
        goto out;
    }
    if (!meu_ok(st)) {
        meu_violation(ctx, "fmiGetStateValueReferences(nx = %zu) after fmiInitialize returned "
                           "%s",
                      nx, meu_stname(1, st, sb, sizeof sb));
        goto out;
    }
    size_t undefined = 0, named = 0;
    cJSON *ev = cJSON_AddArrayToObject(reply, "states");
    for (size_t i = 0; i < nx; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddItemToArray(ev, e);
        cJSON_AddNumberToObject(e, "x", x[i]);
        if (vrx[i] == FMUC_VR_UNDEFINED_FMI1) {
            cJSON_AddStringToObject(e, "vr", "fmiUndefinedValueReference");
            undefined++;
            continue;
        }
        cJSON_AddNumberToObject(e, "vr", (double)vrx[i]);
        const fmuc_md_var *v = real_by_vr(md, vrx[i]);
        if (!v) {
            const fmuc_md_var *o = any_by_vr(md, vrx[i]);
            if (o)
                meu_violation(ctx, "fmiGetStateValueReferences: state %zu has valueReference "
                                   "%u, which names '%s' (line %u), a variable of type %s, not "
                                   "Real",
                              i + 1, vrx[i], meu_name(o), o->line, fmuc_md_type_name(o->type));
            else
                meu_violation(ctx, "fmiGetStateValueReferences: state %zu has valueReference "
                                   "%u, which no variable of modelDescription.xml has (and it "
                                   "is not fmiUndefinedValueReference)",
                              i + 1, vrx[i]);
            continue;
        }
        cJSON_AddStringToObject(e, "name", meu_name(v));
        double val = NAN;
        fmuc_vr one = vrx[i];
        st = meu_st(&s, fmuc_inst_get_float64(s.c, &one, 1, &val));
        if (!meu_ok(st)) {
            meu_violation(ctx, "fmiGetReal of '%s' (vr %u), the variable fmiGetStateValueReferences "
                               "names for state %zu, returned %s",
                          meu_name(v), vrx[i], i + 1, meu_stname(1, st, sb, sizeof sb));
            continue;
        }
        cJSON_AddNumberToObject(e, "value", val);
        double scale = fabs(x[i]) > 1.0 ? fabs(x[i]) : 1.0;
        if (!(fabs(val - x[i]) <= REL_SAME * scale)) {
            meu_violation(ctx, "fmiGetStateValueReferences names '%s' (vr %u, line %u) for state "
                               "%zu, but its value %.17g is not the state's %.17g "
                               "(fmiGetContinuousStates)",
                          meu_name(v), vrx[i], v->line, i + 1, val, x[i]);
            continue;
        }
        named++;
    }
    cJSON_AddNumberToObject(reply, "named", (double)named);
    cJSON_AddNumberToObject(reply, "undefined", (double)undefined);
    if (undefined)
        meu_note(ctx, "%zu of %zu states have no variable (fmiUndefinedValueReference)",
                 undefined, nx);
out:
    free(vrx);
    free(x);
    meu_end(&s);
    return 0;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    meu_model m;
    if (meu_applies(s, res, &m) < 0)
        return;
    if (m.nx == 0) {
        fmuc_result_na(res, "no continuous states (numberOfContinuousStates: 0)");
        meu_model_free(&m);
        return;
    }
    svr_payload p = {&m};
    fmuc_worker_outcome o;
    const cJSON *reply = meu_run(s, res, "me-state-value-references", worker, &p, &o);
    if (reply) {
        cJSON *ev = fmuc_result_evidence(res);
        cJSON_AddNumberToObject(ev, "nx", (double)m.nx);
        static const char *const keys[] = {"states", "named", "undefined"};
        meu_evidence_from_reply(res, reply, keys, sizeof keys / sizeof keys[0]);
    }
    fmuc_worker_outcome_free(&o);
    meu_model_free(&m);
}

const fmuc_check fmuc_check_me_state_value_references = {
    .id = "me-state-value-references",
    .title = "FMI 1.0: fmiGetStateValueReferences names each state's Real variable or none",
    .spec = "FMI 1.0 ME (fmiGetStateValueReferences, fmiModelFunctions.h: the value references "
            "of the state vector, fmiUndefinedValueReference where a state has no variable)",
    .level = FMUC_LEVEL_MUST,
    .why = "ME 1.0 importers learn which variables the states are only from this call; a wrong "
           "reference labels, plots or stores another quantity under a state's name.",
    .fix = "Return, in state order, the valueReference of the Real variable that holds each state, "
           "or fmiUndefinedValueReference for a state no variable shows.",
    .applies = FMUC_APPLIES_ME,
    .versions = FMUC_V1,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .run = run,
};
