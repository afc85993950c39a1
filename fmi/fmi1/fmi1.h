/* FMI 1.0 C declarations for fmucheck and its FMUs, written from the facts catalogued in
 * fmi1-rules.md §C.1 (platform types, status codes, callbacks, event info) and §C.2 (every
 * function signature). FMI 1.0 is two standards, Model Exchange 1.0 and Co-Simulation 1.0, and
 * a 1.0 FMU implements exactly one of them; this one header declares both:
 *   - the types they share; fmiStatus includes the CS-only fmiPending (5), which an ME FMU never
 *     returns, so one enum serves both;
 *   - the two callback structs, which both standards call fmiCallbackFunctions but which differ
 *     (CS adds stepFinished): here fmiMECallbackFunctions and fmiCSCallbackFunctions;
 *   - FMUC_FMI1_ME_FUNCTIONS(X) (24 functions) and FMUC_FMI1_CS_FUNCTIONS(X) (25), each entry
 *     X(return type, unprefixed name, parameter list); the 10 functions both standards have are
 *     FMUC_FMI1_SHARED_FUNCTIONS and appear in both lists.
 *
 * Exported names are always prefixed, also in shared libraries (C-01):
 * <modelIdentifier>_fmiSetTime. An FMU source defines MODEL_IDENTIFIER and names its functions
 * FMUC_FMI1_FULL_NAME(fmiSetTime); with FMUC_FMI1_EXPORTING_ME or FMUC_FMI1_EXPORTING_CS
 * defined this header also declares the prototypes of that list with default visibility.
 * An importer resolves "<modelIdentifier>_" + the name strings of FMUC_FMI1_NAME_STRING
 * (fmuc_fmi1_symbol() builds one) into the pointer types <name>TYPE (fmiDoStepTYPE, ...).
 *
 * The standard's headers wrap the structs in #pragma pack(push, 8) on WIN32 only; on the LP64
 * and ILP32 Linux ABIs natural alignment gives the same layout (fmiEventInfo: 16 bytes). */
#ifndef FMUC_FMI1_H
#define FMUC_FMI1_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define fmiModelTypesPlatform "standard32" /* ME: fmiGetModelTypesPlatform() */
#define fmiPlatform "standard32"           /* CS: fmiGetTypesPlatform() */
#define fmiVersion "1.0"

/* --- platform types (§C.1) ------------------------------------------------------------------ */
typedef void *fmiComponent;
typedef unsigned int fmiValueReference;
typedef double fmiReal;
typedef int fmiInteger;
typedef char fmiBoolean; /* 8 bits in 1.0 (int in 2.0) */
typedef const char *fmiString;

#define fmiTrue 1
#define fmiFalse 0
#define fmiUndefinedValueReference ((fmiValueReference)(-1))

typedef enum {
    fmiOK = 0,
    fmiWarning = 1,
    fmiDiscard = 2,
    fmiError = 3,
    fmiFatal = 4,
    fmiPending = 5 /* Co-Simulation only: asynchronous fmiDoStep */
} fmiStatus;

/* Co-Simulation status queries (1.0 has no fmiTerminated kind). */
typedef enum { fmiDoStepStatus = 0, fmiPendingStatus = 1, fmiLastSuccessfulTime = 2 } fmiStatusKind;

/* --- callbacks: passed BY VALUE to fmiInstantiateModel / fmiInstantiateSlave ----------------- */
/* The first argument is the instance (NULL while instantiating); message is a printf format. */
typedef void (*fmiCallbackLogger)(fmiComponent c, fmiString instanceName, fmiStatus status,
                                  fmiString category, fmiString message, ...);
typedef void *(*fmiCallbackAllocateMemory)(size_t nobj, size_t size);
typedef void (*fmiCallbackFreeMemory)(void *obj);
typedef void (*fmiStepFinished)(fmiComponent c, fmiStatus status);

/* Model Exchange 1.0 */
typedef struct {
    fmiCallbackLogger logger;
    fmiCallbackAllocateMemory allocateMemory;
    fmiCallbackFreeMemory freeMemory;
} fmiMECallbackFunctions;

/* Co-Simulation 1.0: stepFinished may be NULL unless the slave runs asynchronously. */
typedef struct {
    fmiCallbackLogger logger;
    fmiCallbackAllocateMemory allocateMemory;
    fmiCallbackFreeMemory freeMemory;
    fmiStepFinished stepFinished;
} fmiCSCallbackFunctions;

/* Filled by fmiInitialize and fmiEventUpdate (ME). */
typedef struct {
    fmiBoolean iterationConverged;
    fmiBoolean stateValueReferencesChanged;
    fmiBoolean stateValuesChanged;
    fmiBoolean terminateSimulation;
    fmiBoolean upcomingTimeEvent;
    fmiReal nextEventTime;
} fmiEventInfo;

/* --- function lists (§C.2): X(return type, name, parameter list) ---------------------------- */
/* In both standards (10). */
#define FMUC_FMI1_SHARED_FUNCTIONS(X)                                                              \
    X(const char *, fmiGetVersion, (void))                                                         \
    X(fmiStatus, fmiSetDebugLogging, (fmiComponent c, fmiBoolean loggingOn))                       \
    X(fmiStatus, fmiGetReal,                                                                       \
      (fmiComponent c, const fmiValueReference vr[], size_t nvr, fmiReal value[]))                 \
    X(fmiStatus, fmiGetInteger,                                                                    \
      (fmiComponent c, const fmiValueReference vr[], size_t nvr, fmiInteger value[]))              \
    X(fmiStatus, fmiGetBoolean,                                                                    \
      (fmiComponent c, const fmiValueReference vr[], size_t nvr, fmiBoolean value[]))              \
    X(fmiStatus, fmiGetString,                                                                     \
      (fmiComponent c, const fmiValueReference vr[], size_t nvr, fmiString value[]))               \
    X(fmiStatus, fmiSetReal,                                                                       \
      (fmiComponent c, const fmiValueReference vr[], size_t nvr, const fmiReal value[]))           \
    X(fmiStatus, fmiSetInteger,                                                                    \
      (fmiComponent c, const fmiValueReference vr[], size_t nvr, const fmiInteger value[]))        \
    X(fmiStatus, fmiSetBoolean,                                                                    \
      (fmiComponent c, const fmiValueReference vr[], size_t nvr, const fmiBoolean value[]))        \
    X(fmiStatus, fmiSetString,                                                                     \
      (fmiComponent c, const fmiValueReference vr[], size_t nvr, const fmiString value[]))

/* Model Exchange 1.0 only (14). */
#define FMUC_FMI1_ME_ONLY_FUNCTIONS(X)                                                             \
    X(const char *, fmiGetModelTypesPlatform, (void))                                              \
    X(fmiComponent, fmiInstantiateModel,                                                           \
      (fmiString instanceName, fmiString GUID, fmiMECallbackFunctions functions,                   \
       fmiBoolean loggingOn))                                                                      \
    X(void, fmiFreeModelInstance, (fmiComponent c))                                                \
    X(fmiStatus, fmiSetTime, (fmiComponent c, fmiReal time))                                       \
    X(fmiStatus, fmiSetContinuousStates, (fmiComponent c, const fmiReal x[], size_t nx))           \
    X(fmiStatus, fmiCompletedIntegratorStep, (fmiComponent c, fmiBoolean * callEventUpdate))       \
    X(fmiStatus, fmiInitialize,                                                                    \
      (fmiComponent c, fmiBoolean toleranceControlled, fmiReal relativeTolerance,                  \
       fmiEventInfo * eventInfo))                                                                  \
    X(fmiStatus, fmiGetDerivatives, (fmiComponent c, fmiReal derivatives[], size_t nx))            \
    X(fmiStatus, fmiGetEventIndicators, (fmiComponent c, fmiReal eventIndicators[], size_t ni))    \
    X(fmiStatus, fmiEventUpdate,                                                                   \
      (fmiComponent c, fmiBoolean intermediateResults, fmiEventInfo * eventInfo))                  \
    X(fmiStatus, fmiGetContinuousStates, (fmiComponent c, fmiReal states[], size_t nx))            \
    X(fmiStatus, fmiGetNominalContinuousStates, (fmiComponent c, fmiReal x_nominal[], size_t nx))  \
    X(fmiStatus, fmiGetStateValueReferences,                                                       \
      (fmiComponent c, fmiValueReference vrx[], size_t nx))                                        \
    X(fmiStatus, fmiTerminate, (fmiComponent c))

/* Co-Simulation 1.0 only (15). */
#define FMUC_FMI1_CS_ONLY_FUNCTIONS(X)                                                             \
    X(const char *, fmiGetTypesPlatform, (void))                                                   \
    X(fmiComponent, fmiInstantiateSlave,                                                           \
      (fmiString instanceName, fmiString fmuGUID, fmiString fmuLocation, fmiString mimeType,       \
       fmiReal timeout, fmiBoolean visible, fmiBoolean interactive,                                \
       fmiCSCallbackFunctions functions, fmiBoolean loggingOn))                                    \
    X(fmiStatus, fmiInitializeSlave,                                                               \
      (fmiComponent c, fmiReal tStart, fmiBoolean StopTimeDefined, fmiReal tStop))                 \
    X(fmiStatus, fmiTerminateSlave, (fmiComponent c))                                              \
    X(fmiStatus, fmiResetSlave, (fmiComponent c))                                                 \
    X(void, fmiFreeSlaveInstance, (fmiComponent c))                                                \
    X(fmiStatus, fmiSetRealInputDerivatives,                                                       \
      (fmiComponent c, const fmiValueReference vr[], size_t nvr, const fmiInteger order[],         \
       const fmiReal value[]))                                                                     \
    X(fmiStatus, fmiGetRealOutputDerivatives,                                                      \
      (fmiComponent c, const fmiValueReference vr[], size_t nvr, const fmiInteger order[],         \
       fmiReal value[]))                                                                           \
    X(fmiStatus, fmiCancelStep, (fmiComponent c))                                                  \
    X(fmiStatus, fmiDoStep,                                                                        \
      (fmiComponent c, fmiReal currentCommunicationPoint, fmiReal communicationStepSize,           \
       fmiBoolean newStep))                                                                        \
    X(fmiStatus, fmiGetStatus, (fmiComponent c, const fmiStatusKind s, fmiStatus * value))         \
    X(fmiStatus, fmiGetRealStatus, (fmiComponent c, const fmiStatusKind s, fmiReal * value))       \
    X(fmiStatus, fmiGetIntegerStatus,                                                              \
      (fmiComponent c, const fmiStatusKind s, fmiInteger * value))                                 \
    X(fmiStatus, fmiGetBooleanStatus,                                                              \
      (fmiComponent c, const fmiStatusKind s, fmiBoolean * value))                                 \
    X(fmiStatus, fmiGetStringStatus, (fmiComponent c, const fmiStatusKind s, fmiString * value))

/* Everything an ME 1.0 FMU exports (24) and everything a CS 1.0 FMU exports (25). */
#define FMUC_FMI1_ME_FUNCTIONS(X) FMUC_FMI1_ME_ONLY_FUNCTIONS(X) FMUC_FMI1_SHARED_FUNCTIONS(X)
#define FMUC_FMI1_CS_FUNCTIONS(X) FMUC_FMI1_CS_ONLY_FUNCTIONS(X) FMUC_FMI1_SHARED_FUNCTIONS(X)

/* Counts, e.g. for arrays of resolved symbols. */
#define FMUC_FMI1_ONE_(ret, name, params) +1
enum {
    FMUC_FMI1_ME_COUNT = 0 FMUC_FMI1_ME_FUNCTIONS(FMUC_FMI1_ONE_),
    FMUC_FMI1_CS_COUNT = 0 FMUC_FMI1_CS_FUNCTIONS(FMUC_FMI1_ONE_)
};
#undef FMUC_FMI1_ONE_

/* Pointer types for importers: fmiDoStepTYPE, fmiGetRealTYPE, ... (each name once). */
#define FMUC_FMI1_TYPEDEF_(ret, name, params) typedef ret(*name##TYPE) params;
FMUC_FMI1_SHARED_FUNCTIONS(FMUC_FMI1_TYPEDEF_)
FMUC_FMI1_ME_ONLY_FUNCTIONS(FMUC_FMI1_TYPEDEF_)
FMUC_FMI1_CS_ONLY_FUNCTIONS(FMUC_FMI1_TYPEDEF_)
#undef FMUC_FMI1_TYPEDEF_

/* --- the <modelIdentifier>_ prefix ---------------------------------------------------------- */
/* Importer: the unprefixed names as strings, e.g.
 *   static const char *const me_names[] = {FMUC_FMI1_ME_FUNCTIONS(FMUC_FMI1_NAME_STRING)}; */
#define FMUC_FMI1_NAME_STRING(ret, name, params) #name,

/* Importer: out = "<modelIdentifier>_<function>"; 0, or -1 when it does not fit. */
static inline int fmuc_fmi1_symbol(char *out, size_t size, const char *model_identifier,
                                   const char *function)
{
    int n = snprintf(out, size, "%s_%s", model_identifier, function);
    return (n < 0 || (size_t)n >= size) ? -1 : 0;
}

/* Exporter: FMUC_FMI1_FULL_NAME(fmiSetTime) is <MODEL_IDENTIFIER>_fmiSetTime (MODEL_IDENTIFIER
 * is expanded first, so it may be a compile definition). */
#define FMUC_FMI1_PASTE2_(a, b) a##_##b
#define FMUC_FMI1_PASTE_(a, b) FMUC_FMI1_PASTE2_(a, b)
#define FMUC_FMI1_FULL_NAME(name) FMUC_FMI1_PASTE_(MODEL_IDENTIFIER, name)

#if defined(FMUC_FMI1_EXPORTING_ME) || defined(FMUC_FMI1_EXPORTING_CS)
#ifndef MODEL_IDENTIFIER
#error "an FMI 1.0 FMU source defines MODEL_IDENTIFIER (the modelIdentifier of its XML)"
#endif
#define FMI1_Export __attribute__((visibility("default")))
#define FMUC_FMI1_PROTO_(ret, name, params) FMI1_Export ret FMUC_FMI1_FULL_NAME(name) params;
#ifdef FMUC_FMI1_EXPORTING_ME
FMUC_FMI1_ME_FUNCTIONS(FMUC_FMI1_PROTO_)
#endif
#ifdef FMUC_FMI1_EXPORTING_CS
FMUC_FMI1_CS_FUNCTIONS(FMUC_FMI1_PROTO_)
#endif
#undef FMUC_FMI1_PROTO_
#endif

#ifdef __cplusplus
}
#endif
#endif /* FMUC_FMI1_H */
