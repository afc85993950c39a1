/* FMI 2.0 C declarations for fmucheck and its FMUs, written from the facts of the standard
 * (FMI 2.0.4 §2.1: types, status codes, callback struct, event info, every function signature).
 * One header serves the importer (function-pointer typedefs) and the exporter (prototypes). */
#ifndef FMUC_FMI2_H
#define FMUC_FMI2_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define fmi2TypesPlatform "default"
#define fmi2Version "2.0"

typedef void *fmi2Component;
typedef void *fmi2ComponentEnvironment;
typedef void *fmi2FMUstate;
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean;
typedef char fmi2Char;
typedef const fmi2Char *fmi2String;
typedef char fmi2Byte;

#define fmi2True 1
#define fmi2False 0

typedef enum {
    fmi2OK = 0,
    fmi2Warning = 1,
    fmi2Discard = 2,
    fmi2Error = 3,
    fmi2Fatal = 4,
    fmi2Pending = 5
} fmi2Status;

typedef enum { fmi2ModelExchange = 0, fmi2CoSimulation = 1 } fmi2Type;

typedef enum {
    fmi2DoStepStatus = 0,
    fmi2PendingStatus = 1,
    fmi2LastSuccessfulTime = 2,
    fmi2Terminated = 3
} fmi2StatusKind;

typedef void (*fmi2CallbackLogger)(fmi2ComponentEnvironment env, fmi2String instanceName,
                                   fmi2Status status, fmi2String category, fmi2String message, ...);
typedef void *(*fmi2CallbackAllocateMemory)(size_t nobj, size_t size);
typedef void (*fmi2CallbackFreeMemory)(void *obj);
typedef void (*fmi2StepFinished)(fmi2ComponentEnvironment env, fmi2Status status);

/* The standard headers compile these two structs with 8-byte packing; natural alignment on
 * LP64 gives the same layout, the pragma keeps it explicit. */
#pragma pack(push, 8)
typedef struct {
    fmi2CallbackLogger logger;
    fmi2CallbackAllocateMemory allocateMemory;
    fmi2CallbackFreeMemory freeMemory;
    fmi2StepFinished stepFinished;
    fmi2ComponentEnvironment componentEnvironment;
} fmi2CallbackFunctions;

typedef struct {
    fmi2Boolean newDiscreteStatesNeeded;
    fmi2Boolean terminateSimulation;
    fmi2Boolean nominalsOfContinuousStatesChanged;
    fmi2Boolean valuesOfContinuousStatesChanged;
    fmi2Boolean nextEventTimeDefined;
    fmi2Real nextEventTime;
} fmi2EventInfo;
#pragma pack(pop)

/* X-macro of every FMI 2.0 function: F(return type, name, parameter list, interface).
 * Interface: C = common (25), ME = Model Exchange only (10), CS = Co-Simulation only (9). */
#define FMUC_FMI2_FUNCTIONS(F)                                                                    \
    F(const char *, fmi2GetTypesPlatform, (void), C)                                              \
    F(const char *, fmi2GetVersion, (void), C)                                                    \
    F(fmi2Status, fmi2SetDebugLogging,                                                            \
      (fmi2Component c, fmi2Boolean loggingOn, size_t nCategories, const fmi2String categories[]), \
      C)                                                                                          \
    F(fmi2Component, fmi2Instantiate,                                                             \
      (fmi2String instanceName, fmi2Type fmuType, fmi2String fmuGUID,                             \
       fmi2String fmuResourceLocation, const fmi2CallbackFunctions *functions,                    \
       fmi2Boolean visible, fmi2Boolean loggingOn),                                               \
      C)                                                                                          \
    F(void, fmi2FreeInstance, (fmi2Component c), C)                                               \
    F(fmi2Status, fmi2SetupExperiment,                                                            \
      (fmi2Component c, fmi2Boolean toleranceDefined, fmi2Real tolerance, fmi2Real startTime,     \
       fmi2Boolean stopTimeDefined, fmi2Real stopTime),                                           \
      C)                                                                                          \
    F(fmi2Status, fmi2EnterInitializationMode, (fmi2Component c), C)                              \
    F(fmi2Status, fmi2ExitInitializationMode, (fmi2Component c), C)                               \
    F(fmi2Status, fmi2Terminate, (fmi2Component c), C)                                            \
    F(fmi2Status, fmi2Reset, (fmi2Component c), C)                                                \
    F(fmi2Status, fmi2GetReal,                                                                    \
      (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Real value[]), C)          \
    F(fmi2Status, fmi2GetInteger,                                                                 \
      (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Integer value[]), C)       \
    F(fmi2Status, fmi2GetBoolean,                                                                 \
      (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Boolean value[]), C)       \
    F(fmi2Status, fmi2GetString,                                                                  \
      (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2String value[]), C)        \
    F(fmi2Status, fmi2SetReal,                                                                    \
      (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Real value[]), C)    \
    F(fmi2Status, fmi2SetInteger,                                                                 \
      (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Integer value[]), C) \
    F(fmi2Status, fmi2SetBoolean,                                                                 \
      (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Boolean value[]), C) \
    F(fmi2Status, fmi2SetString,                                                                  \
      (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2String value[]), C)  \
    F(fmi2Status, fmi2GetFMUstate, (fmi2Component c, fmi2FMUstate * FMUstate), C)                 \
    F(fmi2Status, fmi2SetFMUstate, (fmi2Component c, fmi2FMUstate FMUstate), C)                   \
    F(fmi2Status, fmi2FreeFMUstate, (fmi2Component c, fmi2FMUstate * FMUstate), C)                \
    F(fmi2Status, fmi2SerializedFMUstateSize,                                                     \
      (fmi2Component c, fmi2FMUstate FMUstate, size_t * size), C)                                 \
    F(fmi2Status, fmi2SerializeFMUstate,                                                          \
      (fmi2Component c, fmi2FMUstate FMUstate, fmi2Byte serializedState[], size_t size), C)       \
    F(fmi2Status, fmi2DeSerializeFMUstate,                                                        \
      (fmi2Component c, const fmi2Byte serializedState[], size_t size, fmi2FMUstate * FMUstate),  \
      C)                                                                                          \
    F(fmi2Status, fmi2GetDirectionalDerivative,                                                   \
      (fmi2Component c, const fmi2ValueReference vUnknown_ref[], size_t nUnknown,                 \
       const fmi2ValueReference vKnown_ref[], size_t nKnown, const fmi2Real dvKnown[],            \
       fmi2Real dvUnknown[]),                                                                     \
      C)                                                                                          \
    F(fmi2Status, fmi2EnterEventMode, (fmi2Component c), ME)                                      \
    F(fmi2Status, fmi2NewDiscreteStates, (fmi2Component c, fmi2EventInfo * fmi2eventInfo), ME)    \
    F(fmi2Status, fmi2EnterContinuousTimeMode, (fmi2Component c), ME)                             \
    F(fmi2Status, fmi2CompletedIntegratorStep,                                                    \
      (fmi2Component c, fmi2Boolean noSetFMUStatePriorToCurrentPoint,                             \
       fmi2Boolean * enterEventMode, fmi2Boolean * terminateSimulation),                          \
      ME)                                                                                         \
    F(fmi2Status, fmi2SetTime, (fmi2Component c, fmi2Real time), ME)                              \
    F(fmi2Status, fmi2SetContinuousStates, (fmi2Component c, const fmi2Real x[], size_t nx), ME)  \
    F(fmi2Status, fmi2GetDerivatives, (fmi2Component c, fmi2Real derivatives[], size_t nx), ME)   \
    F(fmi2Status, fmi2GetEventIndicators,                                                         \
      (fmi2Component c, fmi2Real eventIndicators[], size_t ni), ME)                               \
    F(fmi2Status, fmi2GetContinuousStates, (fmi2Component c, fmi2Real x[], size_t nx), ME)        \
    F(fmi2Status, fmi2GetNominalsOfContinuousStates,                                              \
      (fmi2Component c, fmi2Real x_nominal[], size_t nx), ME)                                     \
    F(fmi2Status, fmi2SetRealInputDerivatives,                                                    \
      (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Integer order[],     \
       const fmi2Real value[]),                                                                   \
      CS)                                                                                         \
    F(fmi2Status, fmi2GetRealOutputDerivatives,                                                   \
      (fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Integer order[],     \
       fmi2Real value[]),                                                                         \
      CS)                                                                                         \
    F(fmi2Status, fmi2DoStep,                                                                     \
      (fmi2Component c, fmi2Real currentCommunicationPoint, fmi2Real communicationStepSize,       \
       fmi2Boolean noSetFMUStatePriorToCurrentPoint),                                             \
      CS)                                                                                         \
    F(fmi2Status, fmi2CancelStep, (fmi2Component c), CS)                                          \
    F(fmi2Status, fmi2GetStatus, (fmi2Component c, const fmi2StatusKind s, fmi2Status * value),   \
      CS)                                                                                         \
    F(fmi2Status, fmi2GetRealStatus, (fmi2Component c, const fmi2StatusKind s, fmi2Real * value), \
      CS)                                                                                         \
    F(fmi2Status, fmi2GetIntegerStatus,                                                           \
      (fmi2Component c, const fmi2StatusKind s, fmi2Integer * value), CS)                         \
    F(fmi2Status, fmi2GetBooleanStatus,                                                           \
      (fmi2Component c, const fmi2StatusKind s, fmi2Boolean * value), CS)                         \
    F(fmi2Status, fmi2GetStringStatus,                                                            \
      (fmi2Component c, const fmi2StatusKind s, fmi2String * value), CS)

/* Pointer types for importers: fmi2DoStepTYPE, fmi2GetRealTYPE, ... */
#define FMUC_FMI2_TYPEDEF_(ret, name, params, iface) typedef ret(*name##TYPE) params;
FMUC_FMI2_FUNCTIONS(FMUC_FMI2_TYPEDEF_)
#undef FMUC_FMI2_TYPEDEF_

/* Prototypes for exporters: an FMU source defines FMUC_FMI2_EXPORTING before including this. */
#ifdef FMUC_FMI2_EXPORTING
#define FMI2_Export __attribute__((visibility("default")))
#define FMUC_FMI2_PROTO_(ret, name, params, iface) FMI2_Export ret name params;
FMUC_FMI2_FUNCTIONS(FMUC_FMI2_PROTO_)
#undef FMUC_FMI2_PROTO_
#endif

#ifdef __cplusplus
}
#endif
#endif /* FMUC_FMI2_H */
