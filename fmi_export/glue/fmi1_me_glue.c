/* FMI 1.0 Model Exchange glue: the 24 functions of Model Exchange 1.0 (fmi1-rules §C.2), exported
 * as <MODEL_IDENTIFIER>_fmiXxx (C-01), over the model of fmuc_model.h. The state machine of
 * fmi1-rules §D.1 is one mask of allowed states per function (ME_FUNCTIONS); fmiInitialize runs
 * the initialization and the initial event iteration, fmiEventUpdate the event iteration (one
 * step of it with intermediateResults) with the model's event_update, whose fmi2EventInfo is
 * translated to fmiEventInfo (F.1). */
#include <math.h>
#include <string.h>

#include "fmi1_glue.h"

/* Iterations of one event instant before fmiEventUpdate gives up (a model that never converges) */
#define MAX_EVENT_ITERATIONS 1000

/* F(function, allowed states): fmi1-rules §D.1. Getters answer before fmiInitialize too
 * (condition 3, as the reference implementations do) and in the error state (debugging). */
#define ME_FUNCTIONS(F)                                                                            \
    F(SetDebugLogging, G1_INST | G1_INITD | G1_TERM | G1_ERR)                                      \
    F(SetTime, G1_INST | G1_INITD)                                                                 \
    F(SetContinuousStates, G1_INITD)                                                               \
    F(CompletedIntegratorStep, G1_INITD)                                                           \
    F(SetReal, G1_INST | G1_INITD)                                                                 \
    F(SetInteger, G1_INST | G1_INITD)                                                              \
    F(SetBoolean, G1_INST | G1_INITD)                                                              \
    F(SetString, G1_INST | G1_INITD)                                                               \
    F(Initialize, G1_INST)                                                                         \
    F(GetDerivatives, G1_INST | G1_INITD | G1_TERM | G1_ERR)                                       \
    F(GetEventIndicators, G1_INST | G1_INITD | G1_TERM | G1_ERR)                                   \
    F(GetReal, G1_INST | G1_INITD | G1_TERM | G1_ERR)                                              \
    F(GetInteger, G1_INST | G1_INITD | G1_TERM | G1_ERR)                                           \
    F(GetBoolean, G1_INST | G1_INITD | G1_TERM | G1_ERR)                                           \
    F(GetString, G1_INST | G1_INITD | G1_TERM | G1_ERR)                                            \
    F(EventUpdate, G1_INITD)                                                                       \
    F(GetContinuousStates, G1_INST | G1_INITD | G1_TERM | G1_ERR)                                  \
    F(GetNominalContinuousStates, G1_INST | G1_INITD | G1_TERM | G1_ERR)                           \
    F(GetStateValueReferences, G1_INST | G1_INITD | G1_TERM | G1_ERR)                              \
    F(Terminate, G1_INITD)

#define ME_ENUM_(name, mask) FN_##name,
enum { ME_FUNCTIONS(ME_ENUM_) FN_COUNT_ };
#undef ME_ENUM_

#define ME_RULE_(name, mask) {"fmi" #name, (mask)},
static const fmuc_g1_rule rules[FN_COUNT_] = {ME_FUNCTIONS(ME_RULE_)};
#undef ME_RULE_

/* Opens every instance function: a live instance in an allowed state. */
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

static double *state_field(const fmuc_m_ctx *c, size_t i)
{
    return (double *)((char *)c->data + c->desc->vars[c->xi[i]].offset);
}

static const double *deriv_field(const fmuc_m_ctx *c, size_t i)
{
    return (const double *)((const char *)c->data + c->desc->vars[c->dxi[i]].offset);
}

/* --- inquiry and instances ----------------------------------------------------------------- */
const char *FMUC_FMI1_FULL_NAME(fmiGetModelTypesPlatform)(void)
{
#ifdef FMUC_DEFECT_WRONG_PLATFORM
    return "default";
#else
    return fmiModelTypesPlatform;
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

fmiComponent FMUC_FMI1_FULL_NAME(fmiInstantiateModel)(fmiString instanceName, fmiString GUID,
                                                      fmiMECallbackFunctions functions,
                                                      fmiBoolean loggingOn)
{
    return fmuc_g1__new(G1_ME, "fmiInstantiateModel", instanceName, GUID, functions.logger,
                        functions.allocateMemory, functions.freeMemory, NULL, loggingOn);
}

void FMUC_FMI1_FULL_NAME(fmiFreeModelInstance)(fmiComponent comp)
{
    fmuc_m_ctx *c = fmuc_g1__ctx(comp);
    if (c)
        fmuc_g1__free(c);
}

fmiStatus FMUC_FMI1_FULL_NAME(fmiSetDebugLogging)(fmiComponent comp, fmiBoolean loggingOn)
{
    BEGIN(SetDebugLogging);
    c->logging_on = loggingOn != fmiFalse;
    return fmiOK;
}

/* --- time, states, initialization ---------------------------------------------------------- */
/* Before fmiInitialize it sets the start time (F-01); afterwards time may go back only within
 * the current integrator step, not before the last completed step or event (F-08). */
fmiStatus FMUC_FMI1_FULL_NAME(fmiSetTime)(fmiComponent comp, fmiReal time)
{
    BEGIN(SetTime);
    if (!isfinite(time)) {
        fmuc_g1__log(c, fmiError, "fmiSetTime: time %g is not finite", time);
        return fmuc_g1__done(c, fmiError);
    }
    if (c->state == G1_INITD && time < c->t_floor - fmuc_g1__time_tol(time, c->t_floor)) {
        fmuc_g1__log(c, fmiError,
                     "fmiSetTime: time %.17g is before the last completed step or event at %.17g",
                     time, c->t_floor);
        return fmuc_g1__done(c, fmiError);
    }
    c->time = time;
    c->dirty = 1;
    return fmiOK;
}

fmiStatus FMUC_FMI1_FULL_NAME(fmiSetContinuousStates)(fmiComponent comp, const fmiReal x[],
                                                      size_t nx)
{
    BEGIN(SetContinuousStates);
    if (!fmuc_g1__check_n(c, "fmiSetContinuousStates", "nx", nx, c->nx))
        return fmuc_g1__done(c, fmiError);
    if (nx)
        REQUIRE_PTR(x, SetContinuousStates);
    for (size_t i = 0; i < nx; i++)
        *state_field(c, i) = x[i];
    c->dirty = 1;
    return fmiOK;
}

/* One event instant (F.1): the model's event_update until it needs no further iteration (or
 * once with intermediateResults), flags ORed over the iterations of this call. */
static fmiStatus event_iteration(fmuc_m_ctx *c, const char *fn, int once, fmiEventInfo *ei)
{
    fmi2EventInfo info;
    fmiStatus st = fmiOK;
    int n = 0;
    memset(ei, 0, sizeof *ei);
    c->in_event = 1;
    do {
        memset(&info, 0, sizeof info);
        st = fmuc_g1__worst(st, fmuc_g1__calc(c));
        if (st > fmiWarning)
            break;
        if (c->desc->event_update) {
            st = fmuc_g1__worst(st, (fmiStatus)c->desc->event_update(c, c->data, &info));
            c->dirty = 1;
        }
        if (info.valuesOfContinuousStatesChanged)
            ei->stateValuesChanged = fmiTrue;
        if (info.nominalsOfContinuousStatesChanged)
            ei->stateValueReferencesChanged = fmiTrue; /* "re-read state VRs and nominals" */
        if (info.terminateSimulation)
            ei->terminateSimulation = fmiTrue;
        n++;
    } while (!once && info.newDiscreteStatesNeeded && st <= fmiWarning &&
             n < MAX_EVENT_ITERATIONS);
    c->in_event = 0;
    if (st > fmiWarning) {
        fmuc_g1__log(c, st, "%s: the model's event update failed at t = %.17g", fn, c->time);
        return st;
    }
    ei->iterationConverged = info.newDiscreteStatesNeeded ? fmiFalse : fmiTrue;
#ifdef FMUC_DEFECT_NOT_CONVERGED
    ei->iterationConverged = fmiFalse;
#endif
    ei->upcomingTimeEvent = info.nextEventTimeDefined ? fmiTrue : fmiFalse;
    ei->nextEventTime = info.nextEventTimeDefined ? info.nextEventTime : 0.0;
    if (!once && info.newDiscreteStatesNeeded) {
        fmuc_g1__log(c, fmiError, "%s: no convergence after %d event iterations at t = %.17g", fn,
                     n, c->time);
        return fmiError;
    }
    if (ei->terminateSimulation)
        fmuc_g1__log(c, fmiOK, "%s: the model requests the end of the simulation at t = %.17g",
                     fn, c->time);
    c->t_floor = c->time;
    return st;
}

/* Initialization at the time of the last fmiSetTime (0 without one, F-01), then the initial
 * event iteration; iterationConverged is true on return (F-02, unlike G-02). */
fmiStatus FMUC_FMI1_FULL_NAME(fmiInitialize)(fmiComponent comp, fmiBoolean toleranceControlled,
                                             fmiReal relativeTolerance, fmiEventInfo *eventInfo)
{
    BEGIN(Initialize);
    REQUIRE_PTR(eventInfo, Initialize);
    if (toleranceControlled && !(relativeTolerance > 0.0)) {
        fmuc_g1__log(c, fmiError, "fmiInitialize: relativeTolerance %g must be > 0", relativeTolerance);
        return fmuc_g1__done(c, fmiError);
    }
    c->tol_defined = toleranceControlled != fmiFalse;
    c->tolerance = c->tol_defined ? relativeTolerance : 0.0;
    c->start_time = c->time;
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
        fmuc_g1__log(c, st, "fmiInitialize: the model's initialization failed");
        return fmuc_g1__done(c, st);
    }
    c->dirty = 1;
    c->state = G1_INITD;
    c->t_floor = c->time;
    st = fmuc_g1__worst(st, event_iteration(c, "fmiInitialize", 0, eventInfo));
    return st > fmiWarning ? fmuc_g1__done(c, st) : st;
}

/* F-03: after every completed integrator step; callEventUpdate from the model's step hook. */
fmiStatus FMUC_FMI1_FULL_NAME(fmiCompletedIntegratorStep)(fmiComponent comp,
                                                          fmiBoolean *callEventUpdate)
{
    BEGIN(CompletedIntegratorStep);
    REQUIRE_PTR(callEventUpdate, CompletedIntegratorStep);
#ifdef FMUC_DEFECT_IGNORE_COMPLETED_STEP
    c->t_floor = c->time;
    return fmiOK; /* callEventUpdate left unwritten */
#endif
    *callEventUpdate = fmiFalse;
    fmiStatus st = fmiOK;
    if (c->desc->step_completed) {
        fmi2Boolean enter = fmi2False;
        st = fmuc_g1__calc(c);
        if (st <= fmiWarning)
            st = fmuc_g1__worst(st, (fmiStatus)c->desc->step_completed(c, c->data, &enter));
        *callEventUpdate = enter ? fmiTrue : fmiFalse;
    }
    c->t_floor = c->time;
    return st > fmiWarning ? fmuc_g1__done(c, st) : st;
}

fmiStatus FMUC_FMI1_FULL_NAME(fmiEventUpdate)(fmiComponent comp, fmiBoolean intermediateResults,
                                              fmiEventInfo *eventInfo)
{
    BEGIN(EventUpdate);
    REQUIRE_PTR(eventInfo, EventUpdate);
    fmiStatus st = event_iteration(c, "fmiEventUpdate", intermediateResults != fmiFalse, eventInfo);
#ifdef FMUC_DEFECT_NOMINALS_CHANGED_SILENTLY
    if (eventInfo->stateValuesChanged) /* rescales the nominals, stateValueReferencesChanged false */
        c->nominal_epoch++;
#endif
    return st > fmiWarning ? fmuc_g1__done(c, st) : st;
}

fmiStatus FMUC_FMI1_FULL_NAME(fmiTerminate)(fmiComponent comp)
{
    BEGIN(Terminate);
    c->state = G1_TERM;
    return fmiOK;
}

/* --- model evaluation ---------------------------------------------------------------------- */
/* Reads in the error state serve the last values without evaluating the model (debugging). */
static fmiStatus calc_for_read(fmuc_m_ctx *c)
{
    return c->state == G1_ERR ? fmiOK : fmuc_g1__calc(c);
}

fmiStatus FMUC_FMI1_FULL_NAME(fmiGetDerivatives)(fmiComponent comp, fmiReal derivatives[],
                                                 size_t nx)
{
    BEGIN(GetDerivatives);
    if (!fmuc_g1__check_n(c, "fmiGetDerivatives", "nx", nx, c->nx))
        return fmuc_g1__done(c, fmiError);
    if (nx)
        REQUIRE_PTR(derivatives, GetDerivatives);
    fmiStatus st = calc_for_read(c);
    if (st > fmiWarning)
        return st == fmiDiscard ? st : fmuc_g1__done(c, st);
    for (size_t i = 0; i < nx; i++)
        derivatives[i] = *deriv_field(c, i);
    return st;
}

fmiStatus FMUC_FMI1_FULL_NAME(fmiGetEventIndicators)(fmiComponent comp, fmiReal eventIndicators[],
                                                     size_t ni)
{
    BEGIN(GetEventIndicators);
#ifndef FMUC_DEFECT_NX_UNCHECKED
    if (!fmuc_g1__check_n(c, "fmiGetEventIndicators", "ni", ni, c->desc->n_event_indicators))
        return fmuc_g1__done(c, fmiError);
#endif
    if (ni == 0)
        return fmiOK;
    REQUIRE_PTR(eventIndicators, GetEventIndicators);
    fmiStatus st = calc_for_read(c);
    if (st <= fmiWarning && c->desc->event_indicators)
        st = fmuc_g1__worst(st, (fmiStatus)c->desc->event_indicators(c, c->data, eventIndicators,
                                                                     ni));
    return st > fmiDiscard ? fmuc_g1__done(c, st) : st;
}

fmiStatus FMUC_FMI1_FULL_NAME(fmiGetContinuousStates)(fmiComponent comp, fmiReal states[],
                                                      size_t nx)
{
    BEGIN(GetContinuousStates);
    if (!fmuc_g1__check_n(c, "fmiGetContinuousStates", "nx", nx, c->nx))
        return fmuc_g1__done(c, fmiError);
    if (nx)
        REQUIRE_PTR(states, GetContinuousStates);
    /* before fmiInitialize, states computed from parameters need the model's equations */
    fmiStatus st = c->state == G1_INST ? fmuc_g1__calc(c) : fmiOK;
    if (st > fmiWarning)
        return st == fmiDiscard ? st : fmuc_g1__done(c, st);
    for (size_t i = 0; i < nx; i++)
        states[i] = *state_field(c, i);
    return st;
}

/* F-07: the variable's nominal, 1.0 when it has none. */
fmiStatus FMUC_FMI1_FULL_NAME(fmiGetNominalContinuousStates)(fmiComponent comp,
                                                             fmiReal x_nominal[], size_t nx)
{
    BEGIN(GetNominalContinuousStates);
    if (!fmuc_g1__check_n(c, "fmiGetNominalContinuousStates", "nx", nx, c->nx))
        return fmuc_g1__done(c, fmiError);
    if (nx)
        REQUIRE_PTR(x_nominal, GetNominalContinuousStates);
    for (size_t i = 0; i < nx; i++) {
        const fmuc_m_var *v = &c->desc->vars[c->xi[i]];
        x_nominal[i] = (v->flags & FMUC_M_HAS_NOMINAL) ? v->nominal : 1.0;
#ifdef FMUC_DEFECT_NOMINALS_CHANGED_SILENTLY
        x_nominal[i] *= 1.0 + (double)c->nominal_epoch;
#endif
#ifdef FMUC_DEFECT_ZERO_NOMINALS
        x_nominal[i] = 0.0;
#endif
    }
    return fmiOK;
}

/* F-09: the Real valueReference of each state, in state order. */
fmiStatus FMUC_FMI1_FULL_NAME(fmiGetStateValueReferences)(fmiComponent comp,
                                                          fmiValueReference vrx[], size_t nx)
{
    BEGIN(GetStateValueReferences);
    if (!fmuc_g1__check_n(c, "fmiGetStateValueReferences", "nx", nx, c->nx))
        return fmuc_g1__done(c, fmiError);
    if (nx)
        REQUIRE_PTR(vrx, GetStateValueReferences);
    for (size_t i = 0; i < nx; i++) {
#if defined(FMUC_DEFECT_STATE_VRS_DERIVATIVES)
        /* names the derivative's variable instead of the state's */
        vrx[i] = c->desc->vars[c->dxi[i]].vr;
#elif defined(FMUC_DEFECT_STATE_VRS_UNKNOWN)
        /* a valueReference no variable has (neither fmiUndefinedValueReference) */
        vrx[i] = 900000u + (fmiValueReference)i;
#else
        vrx[i] = c->desc->vars[c->xi[i]].vr;
#endif
    }
    return fmiOK;
}

/* --- getters and setters ------------------------------------------------------------------- */
#define ME_GETSET_(Type, ctype, mtype)                                                             \
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

ME_GETSET_(Real, fmiReal, FMUC_M_REAL)
ME_GETSET_(Integer, fmiInteger, FMUC_M_INTEGER)
ME_GETSET_(Boolean, fmiBoolean, FMUC_M_BOOLEAN)
ME_GETSET_(String, fmiString, FMUC_M_STRING)
