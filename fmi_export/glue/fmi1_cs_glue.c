/* FMI 1.0 Co-Simulation glue: the 25 functions of Co-Simulation 1.0 (fmi1-rules §C.2), exported as
 * <MODEL_IDENTIFIER>_fmiXxx (C-01), over the model of fmuc_model.h, for a slave declared as
 * CoSimulation_StandAlone with the capabilities canHandleEvents, canRejectSteps,
 * canInterpolateInputs, canRunAsynchronuously all false and maxOutputDerivativeOrder 0. The state
 * machine of fmi1-rules §D.2 is one mask of allowed states per function (CS_FUNCTIONS). A step
 * uses the model's do_step, else the fixed-step RK4 over the ME equations that the FMI 2.0 glue
 * uses (same arithmetic, so a 1.0 and a 2.0 FMU of one model give the same numbers). */
#include <math.h>
#include <string.h>
#ifdef FMUC_HOSTILE_ABORT_IN_INSTANTIATE
#include <signal.h>
#endif

#include "fmi1_glue.h"
#include "glue_core.h"

/* F(function, allowed states): fmi1-rules §D.2. Getters are allowed right after
 * fmiInitializeSlave (condition 4, T: masters read there); fmiResetSlave also after
 * fmiTerminateSlave and in the error state (condition 6, U: the tolerant reading). */
#define CS_FUNCTIONS(F)                                                                            \
    F(SetDebugLogging, G1_INST | G1_INITD | G1_SIP | G1_SF | G1_SCAN | G1_TERM | G1_ERR)          \
    F(SetReal, G1_INST | G1_INITD)                                                                 \
    F(SetInteger, G1_INST | G1_INITD)                                                              \
    F(SetBoolean, G1_INST | G1_INITD)                                                              \
    F(SetString, G1_INST | G1_INITD)                                                               \
    F(GetReal, G1_INITD | G1_SF | G1_SCAN | G1_TERM | G1_ERR)                                      \
    F(GetInteger, G1_INITD | G1_SF | G1_SCAN | G1_TERM | G1_ERR)                                   \
    F(GetBoolean, G1_INITD | G1_SF | G1_SCAN | G1_TERM | G1_ERR)                                   \
    F(GetString, G1_INITD | G1_SF | G1_SCAN | G1_TERM | G1_ERR)                                    \
    F(InitializeSlave, G1_INST)                                                                    \
    F(DoStep, G1_INITD)                                                                            \
    F(CancelStep, G1_SIP)                                                                          \
    F(GetStatus, G1_INITD | G1_SIP | G1_SF | G1_SCAN | G1_TERM)                                    \
    F(GetRealStatus, G1_INITD | G1_SIP | G1_SF | G1_SCAN | G1_TERM)                                \
    F(GetIntegerStatus, G1_INITD | G1_SIP | G1_SF | G1_SCAN | G1_TERM)                             \
    F(GetBooleanStatus, G1_INITD | G1_SIP | G1_SF | G1_SCAN | G1_TERM)                             \
    F(GetStringStatus, G1_INITD | G1_SIP | G1_SF | G1_SCAN | G1_TERM)                              \
    F(SetRealInputDerivatives, G1_INST | G1_INITD)                                                 \
    F(GetRealOutputDerivatives, G1_INITD | G1_SF | G1_TERM)                                        \
    F(TerminateSlave, G1_INITD | G1_SF)                                                            \
    F(ResetSlave, G1_INITD | G1_SF | G1_SCAN | G1_TERM | G1_ERR)

#define CS_ENUM_(name, mask) FN_##name,
enum { CS_FUNCTIONS(CS_ENUM_) FN_COUNT_ };
#undef CS_ENUM_

#define CS_RULE_(name, mask) {"fmi" #name, (mask)},
static const fmuc_g1_rule rules[FN_COUNT_] = {CS_FUNCTIONS(CS_RULE_)};
#undef CS_RULE_

#define BEGIN(fn)                                                                                  \
    fmuc_m_ctx *c = fmuc_g1__ctx(comp);                                                            \
    if (!c)                                                                                        \
        return fmiError;                                                                           \
    if (c->state == G1_FAT)                                                                        \
        return fmiFatal;                                                                           \
    if (!fmuc_g1__allowed(c, &rules[FN_##fn]))                                                     \
        return fmuc_g1__done(c, fmiError)

#define REQUIRE_PTR(p, fn)                                                                         \
    do {                                                                                           \
        if (!(p)) {                                                                                \
            fmuc_g1__log(c, fmiError, "fmi" #fn ": argument '" #p "' is NULL");                    \
            return fmuc_g1__done(c, fmiError);                                                     \
        }                                                                                          \
    } while (0)

/* --- fmuLocation --------------------------------------------------------------------------- */
static void *uri_alloc(void *arg, size_t size) { return fmuc_m_alloc(arg, size, 1); }
static void uri_free(void *arg, void *p) { fmuc_m_free(arg, p); }

/* C-14: fmuLocation is the URI of the unpacked FMU (its root folder); file:///abs, file:/abs and
 * file://localhost/abs with %XX decoding give "<abs>/resources", anything else no resources. */
static char *resources_of(fmuc_m_ctx *c, const char *uri, const char **why)
{
    static const char suffix[] = "/resources";
    size_t o;
    char *out = fmuc_gc_file_uri_path(uri, sizeof suffix, uri_alloc, uri_free, c, &o, why);
    if (!out)
        return NULL;
    if (o >= 4 && strncmp(out + o - 4, ".fmu", 4) == 0) {
        fmuc_m_free(c, out); /* the archive, not the unpacked folder (E#370): no resources */
        *why = "it names the .fmu archive, not the folder it was unpacked to";
        return NULL;
    }
    memcpy(out + o, suffix, sizeof suffix);
    return out;
}

/* --- instances ----------------------------------------------------------------------------- */
const char *FMUC_FMI1_FULL_NAME(fmiGetTypesPlatform)(void)
{
#ifdef FMUC_DEFECT_WRONG_PLATFORM
    return "default";
#else
    return fmiPlatform;
#endif
}

const char *FMUC_FMI1_FULL_NAME(fmiGetVersion)(void)
{
#ifdef FMUC_DEFECT_WRONG_VERSION
    return "2.0";
#else
    return fmiVersion;
#endif
}

/* mimeType, timeout, visible and interactive concern tool coupling; a stand-alone slave ignores
 * them (C-15). */
fmiComponent FMUC_FMI1_FULL_NAME(fmiInstantiateSlave)(fmiString instanceName, fmiString fmuGUID,
                                                      fmiString fmuLocation, fmiString mimeType,
                                                      fmiReal timeout, fmiBoolean visible,
                                                      fmiBoolean interactive,
                                                      fmiCSCallbackFunctions functions,
                                                      fmiBoolean loggingOn)
{
    (void)mimeType;
    (void)timeout;
    (void)visible;
    (void)interactive;
#ifdef FMUC_HOSTILE_ABORT_IN_INSTANTIATE
    raise(SIGABRT);
#endif
    fmuc_m_ctx *c = fmuc_g1__new(G1_CS, "fmiInstantiateSlave", instanceName, fmuGUID,
                                 functions.logger, functions.allocateMemory,
                                 functions.freeMemory, functions.stepFinished, loggingOn);
    if (c && fmuLocation && *fmuLocation) { /* NULL tolerated (G-08) */
        const char *why = NULL;
        c->res_dir = resources_of(c, fmuLocation, &why);
        if (!c->res_dir)
            fmuc_g1__log(c, fmiWarning,
                         "fmiInstantiateSlave: no resources folder from fmuLocation '%s': %s",
                         fmuLocation, why ? why : "?");
    }
    return c;
}

void FMUC_FMI1_FULL_NAME(fmiFreeSlaveInstance)(fmiComponent comp)
{
    fmuc_m_ctx *c = fmuc_g1__ctx(comp);
    if (c)
        fmuc_g1__free(c);
}

fmiStatus FMUC_FMI1_FULL_NAME(fmiSetDebugLogging)(fmiComponent comp, fmiBoolean loggingOn)
{
    BEGIN(SetDebugLogging);
#ifdef FMUC_DEFECT_DEBUG_LOGGING_ERROR
    if (loggingOn != fmiFalse) { /* refuses its own argument */
        fmuc_g1__log(c, fmiError, "fmiSetDebugLogging: debug logging is not available");
        return fmuc_g1__done(c, fmiError);
    }
#endif
    c->logging_on = loggingOn != fmiFalse;
    return fmiOK;
}

fmiStatus FMUC_FMI1_FULL_NAME(fmiInitializeSlave)(fmiComponent comp, fmiReal tStart,
                                                  fmiBoolean StopTimeDefined, fmiReal tStop)
{
    BEGIN(InitializeSlave);
    if (!isfinite(tStart) || (StopTimeDefined && !(tStop >= tStart))) {
        fmuc_g1__log(c, fmiError, "fmiInitializeSlave: invalid tStart %g / tStop %g", tStart,
                     tStop);
        return fmuc_g1__done(c, fmiError);
    }
    c->start_time = tStart;
    c->time = tStart;
    c->stop_defined = StopTimeDefined != fmiFalse;
    c->stop_time = tStop;
    c->in_init = 1;
    fmiStatus st = fmiOK;
    if (c->desc->enter_init)
        st = (fmiStatus)c->desc->enter_init(c, c->data);
    c->dirty = 1;
    if (st <= fmiWarning)
        st = fmuc_g1__worst(st, fmuc_g1__calc(c)); /* initial equations */
    if (st <= fmiWarning && c->desc->exit_init)
        st = fmuc_g1__worst(st, (fmiStatus)c->desc->exit_init(c, c->data));
    c->in_init = 0;
    if (st > fmiWarning) {
        fmuc_g1__log(c, st, "fmiInitializeSlave: the model's initialization failed");
        return fmuc_g1__done(c, st);
    }
    c->dirty = 1;
    c->t_floor = c->time;
    c->last_ok_time = c->time;
    c->state = G1_INITD;
    return st;
}

fmiStatus FMUC_FMI1_FULL_NAME(fmiTerminateSlave)(fmiComponent comp)
{
    BEGIN(TerminateSlave);
    c->state = G1_TERM;
#ifdef FMUC_DEFECT_TERMINATE_DISCARD
    return fmiDiscard; /* Defect (api-status-codes): CS 1.0 gives fmiDiscard to fmiDoStep only */
#endif
    return fmiOK;
}

/* Back to instantiated with the start values (the slave can be initialized again). */
fmiStatus FMUC_FMI1_FULL_NAME(fmiResetSlave)(fmiComponent comp)
{
    BEGIN(ResetSlave);
    if (c->desc->release)
        c->desc->release(c, c->data);
    c->state = G1_INST;
    fmiStatus st = fmuc_g1__restart(c);
    if (st > fmiWarning) {
        fmuc_g1__log(c, st, "fmiResetSlave: the model's start failed");
        return fmuc_g1__done(c, st);
    }
    return st;
}

/* --- getters and setters ------------------------------------------------------------------- */
#define CS_GETSET_(Type, ctype, mtype)                                                             \
    fmiStatus FMUC_FMI1_FULL_NAME(fmiGet##Type)(fmiComponent comp, const fmiValueReference vr[],  \
                                                size_t nvr, ctype value[])                         \
    {                                                                                              \
        BEGIN(Get##Type);                                                                          \
        return fmuc_g1__get(c, "fmiGet" #Type, mtype, vr, nvr, (void *)value);                     \
    }                                                                                              \
    fmiStatus FMUC_FMI1_FULL_NAME(fmiSet##Type)(fmiComponent comp, const fmiValueReference vr[],  \
                                                size_t nvr, const ctype value[])                   \
    {                                                                                              \
        BEGIN(Set##Type);                                                                          \
        return fmuc_g1__set(c, "fmiSet" #Type, mtype, vr, nvr, (const void *)value);               \
    }

CS_GETSET_(Real, fmiReal, FMUC_M_REAL)
CS_GETSET_(Integer, fmiInteger, FMUC_M_INTEGER)
CS_GETSET_(Boolean, fmiBoolean, FMUC_M_BOOLEAN)
CS_GETSET_(String, fmiString, FMUC_M_STRING)

/* E-01: canInterpolateInputs is false, so the derivatives are checked and have no effect. */
fmiStatus FMUC_FMI1_FULL_NAME(fmiSetRealInputDerivatives)(fmiComponent comp,
                                                          const fmiValueReference vr[],
                                                          size_t nvr, const fmiInteger order[],
                                                          const fmiReal value[])
{
    BEGIN(SetRealInputDerivatives);
    if (nvr && (!vr || !order || !value)) {
        fmuc_g1__log(c, fmiError, "fmiSetRealInputDerivatives: NULL array with nvr = %zu", nvr);
        return fmuc_g1__done(c, fmiError);
    }
    for (size_t i = 0; i < nvr; i++) {
        const fmuc_m_var *v = NULL;
        for (size_t k = 0; k < c->desc->nvars && !v; k++)
            if (c->desc->vars[k].vr == vr[i] && c->desc->vars[k].type == FMUC_M_REAL)
                v = &c->desc->vars[k];
        if (!v || v->causality != FMUC_M_INPUT || order[i] < 1) {
            fmuc_g1__log(c, fmiError,
                         "fmiSetRealInputDerivatives: vr %u is not a Real input or order %d < 1",
                         vr[i], (int)order[i]);
            return fmuc_g1__done(c, fmiError);
        }
    }
#ifdef FMUC_DEFECT_INPUT_DERIVATIVES_REFUSED
    fmuc_g1__log(c, fmiError, "fmiSetRealInputDerivatives: not supported");
    return fmuc_g1__done(c, fmiError);
#endif
    return fmiOK;
}

/* E-02: maxOutputDerivativeOrder is 0. */
fmiStatus FMUC_FMI1_FULL_NAME(fmiGetRealOutputDerivatives)(fmiComponent comp,
                                                           const fmiValueReference vr[],
                                                           size_t nvr, const fmiInteger order[],
                                                           fmiReal value[])
{
    BEGIN(GetRealOutputDerivatives);
    (void)vr;
    (void)order;
    (void)value;
    if (nvr == 0)
        return fmiOK;
    fmuc_g1__log(c, fmiError, "fmiGetRealOutputDerivatives: maxOutputDerivativeOrder is 0");
    return fmuc_g1__done(c, fmiError);
}

/* --- stepping ------------------------------------------------------------------------------ */
static void write_states(fmuc_m_ctx *c, const double *x)
{
    fmuc_gc_write_reals(c->desc, c->data, c->xi, c->nx, x);
    c->dirty = 1;
}

static int eval_f(void *inst, double t, const double *x, double *dx)
{
    fmuc_m_ctx *c = inst;
    c->time = t;
    write_states(c, x);
    fmiStatus st = fmuc_g1__calc(c);
    fmuc_gc_read_reals(c->desc, c->data, c->dxi, c->nx, dx);
    return st;
}

/* Fixed-step RK4, n = max(1, ceil(h/cs_h_max - 1e-9)) substeps of h/n (the model API's rule;
 * glue_core's stepper, as in the FMI 2.0/3.0 glue). */
static fmiStatus rk4_step(fmuc_m_ctx *c, double tc, double h)
{
    if (c->nx == 0) {
        c->dirty = 1;
        return fmiOK;
    }
    fmuc_gc_read_reals(c->desc, c->data, c->xi, c->nx, c->work);
    fmiStatus st = (fmiStatus)fmuc_gc_rk4(c, eval_f, c->nx, c->work, c->desc->cs_h_max, tc, h);
    if (st <= fmiWarning)
        write_states(c, c->work);
    return st;
}

/* D-01/D-02: the step starts at the slave's time (1e-9 relative tolerance, G-09), h > 0 (0 needs
 * canHandleEvents), not beyond tStop; newStep = fmiFalse needs canRejectSteps (E-03). Returns
 * OK/Warning (done), Discard (partial: stepFailed, time at fmiLastSuccessfulTime) or Error. */
fmiStatus FMUC_FMI1_FULL_NAME(fmiDoStep)(fmiComponent comp, fmiReal currentCommunicationPoint,
                                         fmiReal communicationStepSize, fmiBoolean newStep)
{
    BEGIN(DoStep);
    double tc = currentCommunicationPoint, h = communicationStepSize;
    if (!newStep) {
        fmuc_g1__log(c, fmiError,
                     "fmiDoStep: newStep = fmiFalse (repeat the last step) needs canRejectSteps, "
                     "which is false");
        return fmuc_g1__done(c, fmiError);
    }
    if (!isfinite(h) || !(h > 0.0)) {
        fmuc_g1__log(c, fmiError,
                     "fmiDoStep: communicationStepSize %.17g must be > 0 (canHandleEvents is "
                     "false)",
                     h);
        return fmuc_g1__done(c, fmiError);
    }
    if (!isfinite(tc) || fabs(tc - c->time) > fmuc_g1__time_tol(tc, c->time)) {
        fmuc_g1__log(c, fmiError,
                     "fmiDoStep: currentCommunicationPoint %.17g does not match the slave's time "
                     "%.17g",
                     tc, c->time);
        return fmuc_g1__done(c, fmiError);
    }
    if (c->stop_defined && tc + h > c->stop_time + fmuc_g1__time_tol(tc + h, c->stop_time)) {
        fmuc_g1__log(c, fmiError, "fmiDoStep: step to %.17g goes beyond tStop %.17g", tc + h,
                     c->stop_time);
        return fmuc_g1__done(c, fmiError);
    }
    fmiStatus st;
#ifdef FMUC_DEFECT_DISCARD_FROM_0_2
    if (tc >= c->start_time + 0.2) {
        /* legal: the slave cannot go on (fmiGetStatus(fmiDoStepStatus) answers fmiDiscard,
         * fmiGetRealStatus(fmiLastSuccessfulTime) the time reached) */
        fmuc_g1__log(c, fmiDiscard, "fmiDoStep: the model ends at t=%.17g", tc);
        st = fmiDiscard;
    } else
#endif
    if (c->desc->do_step)
        st = (fmiStatus)c->desc->do_step(c, c->data, tc, h);
    else
        st = rk4_step(c, tc, h);
    c->dirty = 1;
    c->last_step_status = st;
    if (st <= fmiWarning) {
        c->time = tc + h;
        c->last_ok_time = c->time;
        c->state = G1_INITD;
    } else if (st == fmiDiscard) {
        c->time = tc;
        c->state = G1_SF;
    } else {
        fmuc_g1__log(c, st, "fmiDoStep: step from %.17g failed", tc);
        return fmuc_g1__done(c, st);
    }
    return st;
}

/* Only in stepInProgress, which this synchronous slave never enters. */
fmiStatus FMUC_FMI1_FULL_NAME(fmiCancelStep)(fmiComponent comp)
{
    BEGIN(CancelStep);
    c->state = G1_SCAN;
    return fmiOK;
}

/* --- status queries (D-05: a kind that cannot be answered gives fmiDiscard) ------------------ */
fmiStatus FMUC_FMI1_FULL_NAME(fmiGetStatus)(fmiComponent comp, const fmiStatusKind s,
                                            fmiStatus *value)
{
    BEGIN(GetStatus);
    REQUIRE_PTR(value, GetStatus);
    if (s != fmiDoStepStatus)
        return fmiDiscard;
    *value = c->last_step_status;
    return fmiOK;
}

fmiStatus FMUC_FMI1_FULL_NAME(fmiGetRealStatus)(fmiComponent comp, const fmiStatusKind s,
                                                fmiReal *value)
{
    BEGIN(GetRealStatus);
    REQUIRE_PTR(value, GetRealStatus);
    if (s != fmiLastSuccessfulTime)
        return fmiDiscard;
    *value = c->last_ok_time;
    return fmiOK;
}

fmiStatus FMUC_FMI1_FULL_NAME(fmiGetIntegerStatus)(fmiComponent comp, const fmiStatusKind s,
                                                   fmiInteger *value)
{
    BEGIN(GetIntegerStatus);
    (void)s;
    REQUIRE_PTR(value, GetIntegerStatus);
    return fmiDiscard; /* no Integer status kind exists */
}

fmiStatus FMUC_FMI1_FULL_NAME(fmiGetBooleanStatus)(fmiComponent comp, const fmiStatusKind s,
                                                   fmiBoolean *value)
{
    BEGIN(GetBooleanStatus);
    (void)s;
    REQUIRE_PTR(value, GetBooleanStatus);
    return fmiDiscard; /* 1.0 has no Boolean status kind (no fmiTerminated, D-04) */
}

fmiStatus FMUC_FMI1_FULL_NAME(fmiGetStringStatus)(fmiComponent comp, const fmiStatusKind s,
                                                  fmiString *value)
{
    BEGIN(GetStringStatus);
    (void)s;
    REQUIRE_PTR(value, GetStringStatus);
    return fmiDiscard; /* fmiPendingStatus: this slave never returns fmiPending */
}
