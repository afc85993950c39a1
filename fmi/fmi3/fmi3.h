/* FMI 3.0 C declarations for fmucheck and its FMUs, written from the facts of the standard
 * (FMI 3.0.2 §2.2: platform types, status codes, callbacks; §2.3, §3.2, §4.2, §5.2: every function
 * signature). One header serves the importer (function-pointer typedefs <name>TYPE) and the
 * exporter (prototypes, when FMUC_FMI3_EXPORTING is defined).
 *
 * FMUC_FMI3_FUNCTIONS(F) lists all 75 functions as F(return type, name, parameter list, interface)
 * in the order of the standard's function list. Interface tokens (FMUC_FMI3_IF_<token> gives
 * the interface types that may call the function as a bit mask):
 *   C    common to Model Exchange, Co-Simulation and Scheduled Execution (57)
 *   MECS Model Exchange and Co-Simulation, not Scheduled Execution (4: fmi3EnterEventMode,
 *        fmi3SetClock, fmi3EvaluateDiscreteStates, fmi3UpdateDiscreteStates)
 *   ME   Model Exchange only (10), CS Co-Simulation only (3), SE Scheduled Execution only (1).
 * The instantiation functions are listed as C although each creates one interface type (§2.3.1:
 * every binary exports all 75, A-17). */
#ifndef FMUC_FMI3_H
#define FMUC_FMI3_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define fmi3Version "3.0"

/* --- platform types (§2.2.3) --------------------------------------------------------------- */
typedef void *fmi3Instance;
typedef void *fmi3InstanceEnvironment;
typedef void *fmi3FMUState;
typedef uint32_t fmi3ValueReference;

typedef float fmi3Float32;
typedef double fmi3Float64;
typedef int8_t fmi3Int8;
typedef uint8_t fmi3UInt8;
typedef int16_t fmi3Int16;
typedef uint16_t fmi3UInt16;
typedef int32_t fmi3Int32;
typedef uint32_t fmi3UInt32;
typedef int64_t fmi3Int64;
typedef uint64_t fmi3UInt64;
typedef bool fmi3Boolean;
typedef char fmi3Char;
typedef const fmi3Char *fmi3String;
typedef uint8_t fmi3Byte;
typedef const fmi3Byte *fmi3Binary;
typedef bool fmi3Clock;

#define fmi3True true
#define fmi3False false
#define fmi3ClockActive true
#define fmi3ClockInactive false

/* --- enumerations (§2.2.4, §2.2.9, §2.2.8) -------------------------------------------------- */
typedef enum { fmi3OK = 0, fmi3Warning = 1, fmi3Discard = 2, fmi3Error = 3, fmi3Fatal = 4 } fmi3Status;

/* Interface types; not an argument of any function (the standard has one instantiation function
 * per type), used by importers to name the interface they instantiate. */
typedef enum {
    fmi3ModelExchange = 0,
    fmi3CoSimulation = 1,
    fmi3ScheduledExecution = 2
} fmi3Type;

typedef enum {
    fmi3Independent = 0,
    fmi3Constant = 1,
    fmi3Fixed = 2,
    fmi3Tunable = 3,
    fmi3Discrete = 4,
    fmi3Dependent = 5
} fmi3DependencyKind;

typedef enum {
    fmi3IntervalNotYetKnown = 0,
    fmi3IntervalUnchanged = 1,
    fmi3IntervalChanged = 2
} fmi3IntervalQualifier;

/* --- callbacks (§2.3.1, §4.2.2, §5.2.2) ----------------------------------------------------- */
typedef void (*fmi3LogMessageCallback)(fmi3InstanceEnvironment instanceEnvironment,
                                       fmi3Status status, fmi3String category,
                                       fmi3String message);
typedef void (*fmi3ClockUpdateCallback)(fmi3InstanceEnvironment instanceEnvironment);
typedef void (*fmi3IntermediateUpdateCallback)(
    fmi3InstanceEnvironment instanceEnvironment, fmi3Float64 intermediateUpdateTime,
    fmi3Boolean intermediateVariableSetRequested, fmi3Boolean intermediateVariableGetAllowed,
    fmi3Boolean intermediateStepFinished, fmi3Boolean canReturnEarly,
    fmi3Boolean *earlyReturnRequested, fmi3Float64 *earlyReturnTime);
typedef void (*fmi3LockPreemptionCallback)(void);
typedef void (*fmi3UnlockPreemptionCallback)(void);

/* --- interfaces of a function (see the header comment) ------------------------------------- */
#define FMUC_FMI3_IFACE_ME 1u
#define FMUC_FMI3_IFACE_CS 2u
#define FMUC_FMI3_IFACE_SE 4u
#define FMUC_FMI3_IF_C (FMUC_FMI3_IFACE_ME | FMUC_FMI3_IFACE_CS | FMUC_FMI3_IFACE_SE)
#define FMUC_FMI3_IF_MECS (FMUC_FMI3_IFACE_ME | FMUC_FMI3_IFACE_CS)
#define FMUC_FMI3_IF_ME FMUC_FMI3_IFACE_ME
#define FMUC_FMI3_IF_CS FMUC_FMI3_IFACE_CS
#define FMUC_FMI3_IF_SE FMUC_FMI3_IFACE_SE

/* The 12 value types with one getter and one setter of the form (instance, valueReferences,
 * nValueReferences, values, nValues): V(type name suffix, C element type). Binary and Clock have
 * their own parameter lists. */
#define FMUC_FMI3_VALUE_TYPES(V)                                                                   \
    V(Float32, fmi3Float32)                                                                        \
    V(Float64, fmi3Float64)                                                                        \
    V(Int8, fmi3Int8)                                                                              \
    V(UInt8, fmi3UInt8)                                                                            \
    V(Int16, fmi3Int16)                                                                            \
    V(UInt16, fmi3UInt16)                                                                          \
    V(Int32, fmi3Int32)                                                                            \
    V(UInt32, fmi3UInt32)                                                                          \
    V(Int64, fmi3Int64)                                                                            \
    V(UInt64, fmi3UInt64)                                                                          \
    V(Boolean, fmi3Boolean)                                                                        \
    V(String, fmi3String)

#define FMUC_FMI3_GET_(F, T, CT)                                                                   \
    F(fmi3Status, fmi3Get##T,                                                                      \
      (fmi3Instance instance, const fmi3ValueReference valueReferences[],                          \
       size_t nValueReferences, CT values[], size_t nValues),                                      \
      C)
#define FMUC_FMI3_SET_(F, T, CT)                                                                   \
    F(fmi3Status, fmi3Set##T,                                                                      \
      (fmi3Instance instance, const fmi3ValueReference valueReferences[],                          \
       size_t nValueReferences, const CT values[], size_t nValues),                                \
      C)

/* Parameter lists shared by several functions. */
#define FMUC_FMI3_PARTIAL_PARAMS_                                                                  \
    (fmi3Instance instance, const fmi3ValueReference unknowns[], size_t nUnknowns,                 \
     const fmi3ValueReference knowns[], size_t nKnowns, const fmi3Float64 seed[], size_t nSeed,    \
     fmi3Float64 sensitivity[], size_t nSensitivity)
#define FMUC_FMI3_VR_PARAMS_(...)                                                                  \
    (fmi3Instance instance, const fmi3ValueReference valueReferences[],                            \
     size_t nValueReferences, __VA_ARGS__)

#define FMUC_FMI3_FUNCTIONS(F)                                                                     \
    /* inquire version, set debug logging (§2.3.1) */                                              \
    F(const char *, fmi3GetVersion, (void), C)                                                     \
    F(fmi3Status, fmi3SetDebugLogging,                                                             \
      (fmi3Instance instance, fmi3Boolean loggingOn, size_t nCategories,                           \
       const fmi3String categories[]),                                                             \
      C)                                                                                           \
    /* creation and destruction of instances (§2.3.1) */                                           \
    F(fmi3Instance, fmi3InstantiateModelExchange,                                                  \
      (fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath,            \
       fmi3Boolean visible, fmi3Boolean loggingOn, fmi3InstanceEnvironment instanceEnvironment,    \
       fmi3LogMessageCallback logMessage),                                                         \
      C)                                                                                           \
    F(fmi3Instance, fmi3InstantiateCoSimulation,                                                   \
      (fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath,            \
       fmi3Boolean visible, fmi3Boolean loggingOn, fmi3Boolean eventModeUsed,                      \
       fmi3Boolean earlyReturnAllowed, const fmi3ValueReference requiredIntermediateVariables[],   \
       size_t nRequiredIntermediateVariables, fmi3InstanceEnvironment instanceEnvironment,         \
       fmi3LogMessageCallback logMessage, fmi3IntermediateUpdateCallback intermediateUpdate),      \
      C)                                                                                           \
    F(fmi3Instance, fmi3InstantiateScheduledExecution,                                             \
      (fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath,            \
       fmi3Boolean visible, fmi3Boolean loggingOn, fmi3InstanceEnvironment instanceEnvironment,    \
       fmi3LogMessageCallback logMessage, fmi3ClockUpdateCallback clockUpdate,                     \
       fmi3LockPreemptionCallback lockPreemption,                                                  \
       fmi3UnlockPreemptionCallback unlockPreemption),                                             \
      C)                                                                                           \
    F(void, fmi3FreeInstance, (fmi3Instance instance), C)                                          \
    /* enter and exit initialization mode, terminate and reset (§2.3.2-§2.3.4) */                  \
    F(fmi3Status, fmi3EnterInitializationMode,                                                     \
      (fmi3Instance instance, fmi3Boolean toleranceDefined, fmi3Float64 tolerance,                 \
       fmi3Float64 startTime, fmi3Boolean stopTimeDefined, fmi3Float64 stopTime),                  \
      C)                                                                                           \
    F(fmi3Status, fmi3ExitInitializationMode, (fmi3Instance instance), C)                          \
    F(fmi3Status, fmi3EnterEventMode, (fmi3Instance instance), MECS)                               \
    F(fmi3Status, fmi3Terminate, (fmi3Instance instance), C)                                       \
    F(fmi3Status, fmi3Reset, (fmi3Instance instance), C)                                           \
    /* getting and setting variable values (§2.2.7) */                                             \
    FMUC_FMI3_GET_(F, Float32, fmi3Float32)                                                        \
    FMUC_FMI3_GET_(F, Float64, fmi3Float64)                                                        \
    FMUC_FMI3_GET_(F, Int8, fmi3Int8)                                                              \
    FMUC_FMI3_GET_(F, UInt8, fmi3UInt8)                                                            \
    FMUC_FMI3_GET_(F, Int16, fmi3Int16)                                                            \
    FMUC_FMI3_GET_(F, UInt16, fmi3UInt16)                                                          \
    FMUC_FMI3_GET_(F, Int32, fmi3Int32)                                                            \
    FMUC_FMI3_GET_(F, UInt32, fmi3UInt32)                                                          \
    FMUC_FMI3_GET_(F, Int64, fmi3Int64)                                                            \
    FMUC_FMI3_GET_(F, UInt64, fmi3UInt64)                                                          \
    FMUC_FMI3_GET_(F, Boolean, fmi3Boolean)                                                        \
    FMUC_FMI3_GET_(F, String, fmi3String)                                                          \
    F(fmi3Status, fmi3GetBinary,                                                                   \
      (fmi3Instance instance, const fmi3ValueReference valueReferences[],                          \
       size_t nValueReferences, size_t valueSizes[], fmi3Binary values[], size_t nValues),         \
      C)                                                                                           \
    F(fmi3Status, fmi3GetClock, FMUC_FMI3_VR_PARAMS_(fmi3Clock values[]), C)                       \
    FMUC_FMI3_SET_(F, Float32, fmi3Float32)                                                        \
    FMUC_FMI3_SET_(F, Float64, fmi3Float64)                                                        \
    FMUC_FMI3_SET_(F, Int8, fmi3Int8)                                                              \
    FMUC_FMI3_SET_(F, UInt8, fmi3UInt8)                                                            \
    FMUC_FMI3_SET_(F, Int16, fmi3Int16)                                                            \
    FMUC_FMI3_SET_(F, UInt16, fmi3UInt16)                                                          \
    FMUC_FMI3_SET_(F, Int32, fmi3Int32)                                                            \
    FMUC_FMI3_SET_(F, UInt32, fmi3UInt32)                                                          \
    FMUC_FMI3_SET_(F, Int64, fmi3Int64)                                                            \
    FMUC_FMI3_SET_(F, UInt64, fmi3UInt64)                                                          \
    FMUC_FMI3_SET_(F, Boolean, fmi3Boolean)                                                        \
    FMUC_FMI3_SET_(F, String, fmi3String)                                                          \
    F(fmi3Status, fmi3SetBinary,                                                                   \
      (fmi3Instance instance, const fmi3ValueReference valueReferences[],                          \
       size_t nValueReferences, const size_t valueSizes[], const fmi3Binary values[],              \
       size_t nValues),                                                                            \
      C)                                                                                           \
    F(fmi3Status, fmi3SetClock, FMUC_FMI3_VR_PARAMS_(const fmi3Clock values[]), MECS)              \
    /* variable dependencies (§2.2.9) */                                                           \
    F(fmi3Status, fmi3GetNumberOfVariableDependencies,                                             \
      (fmi3Instance instance, fmi3ValueReference valueReference, size_t * nDependencies), C)       \
    F(fmi3Status, fmi3GetVariableDependencies,                                                     \
      (fmi3Instance instance, fmi3ValueReference dependent, size_t elementIndicesOfDependent[],    \
       fmi3ValueReference independents[], size_t elementIndicesOfIndependents[],                  \
       fmi3DependencyKind dependencyKinds[], size_t nDependencies),                                \
      C)                                                                                           \
    /* FMU state (§2.2.7.4) */                                                                     \
    F(fmi3Status, fmi3GetFMUState, (fmi3Instance instance, fmi3FMUState * FMUState), C)            \
    F(fmi3Status, fmi3SetFMUState, (fmi3Instance instance, fmi3FMUState FMUState), C)              \
    F(fmi3Status, fmi3FreeFMUState, (fmi3Instance instance, fmi3FMUState * FMUState), C)           \
    F(fmi3Status, fmi3SerializedFMUStateSize,                                                      \
      (fmi3Instance instance, fmi3FMUState FMUState, size_t * size), C)                            \
    F(fmi3Status, fmi3SerializeFMUState,                                                           \
      (fmi3Instance instance, fmi3FMUState FMUState, fmi3Byte serializedState[], size_t size), C)  \
    F(fmi3Status, fmi3DeserializeFMUState,                                                         \
      (fmi3Instance instance, const fmi3Byte serializedState[], size_t size,                       \
       fmi3FMUState * FMUState),                                                                   \
      C)                                                                                           \
    /* partial derivatives (§2.2.12) */                                                            \
    F(fmi3Status, fmi3GetDirectionalDerivative, FMUC_FMI3_PARTIAL_PARAMS_, C)                      \
    F(fmi3Status, fmi3GetAdjointDerivative, FMUC_FMI3_PARTIAL_PARAMS_, C)                          \
    /* (re)configuration (§2.3.6, §2.3.7) */                                                       \
    F(fmi3Status, fmi3EnterConfigurationMode, (fmi3Instance instance), C)                          \
    F(fmi3Status, fmi3ExitConfigurationMode, (fmi3Instance instance), C)                           \
    /* clocks (§2.2.8) */                                                                          \
    F(fmi3Status, fmi3GetIntervalDecimal,                                                          \
      FMUC_FMI3_VR_PARAMS_(fmi3Float64 intervals[], fmi3IntervalQualifier qualifiers[]), C)        \
    F(fmi3Status, fmi3GetIntervalFraction,                                                         \
      FMUC_FMI3_VR_PARAMS_(fmi3UInt64 counters[], fmi3UInt64 resolutions[],                        \
                           fmi3IntervalQualifier qualifiers[]),                                    \
      C)                                                                                           \
    F(fmi3Status, fmi3GetShiftDecimal, FMUC_FMI3_VR_PARAMS_(fmi3Float64 shifts[]), C)              \
    F(fmi3Status, fmi3GetShiftFraction,                                                            \
      FMUC_FMI3_VR_PARAMS_(fmi3UInt64 counters[], fmi3UInt64 resolutions[]), C)                    \
    F(fmi3Status, fmi3SetIntervalDecimal, FMUC_FMI3_VR_PARAMS_(const fmi3Float64 intervals[]), C)  \
    F(fmi3Status, fmi3SetIntervalFraction,                                                         \
      FMUC_FMI3_VR_PARAMS_(const fmi3UInt64 counters[], const fmi3UInt64 resolutions[]), C)        \
    F(fmi3Status, fmi3SetShiftDecimal, FMUC_FMI3_VR_PARAMS_(const fmi3Float64 shifts[]), C)        \
    F(fmi3Status, fmi3SetShiftFraction,                                                            \
      FMUC_FMI3_VR_PARAMS_(const fmi3UInt64 counters[], const fmi3UInt64 resolutions[]), C)        \
    /* discrete states (§2.3.5) */                                                                 \
    F(fmi3Status, fmi3EvaluateDiscreteStates, (fmi3Instance instance), MECS)                       \
    F(fmi3Status, fmi3UpdateDiscreteStates,                                                        \
      (fmi3Instance instance, fmi3Boolean * discreteStatesNeedUpdate,                              \
       fmi3Boolean * terminateSimulation, fmi3Boolean * nominalsOfContinuousStatesChanged,         \
       fmi3Boolean * valuesOfContinuousStatesChanged, fmi3Boolean * nextEventTimeDefined,          \
       fmi3Float64 * nextEventTime),                                                               \
      MECS)                                                                                        \
    /* Model Exchange (§3.2) */                                                                    \
    F(fmi3Status, fmi3EnterContinuousTimeMode, (fmi3Instance instance), ME)                        \
    F(fmi3Status, fmi3CompletedIntegratorStep,                                                     \
      (fmi3Instance instance, fmi3Boolean noSetFMUStatePriorToCurrentPoint,                        \
       fmi3Boolean * enterEventMode, fmi3Boolean * terminateSimulation),                           \
      ME)                                                                                          \
    F(fmi3Status, fmi3SetTime, (fmi3Instance instance, fmi3Float64 time), ME)                      \
    F(fmi3Status, fmi3SetContinuousStates,                                                         \
      (fmi3Instance instance, const fmi3Float64 continuousStates[], size_t nContinuousStates), ME) \
    F(fmi3Status, fmi3GetContinuousStateDerivatives,                                               \
      (fmi3Instance instance, fmi3Float64 derivatives[], size_t nContinuousStates), ME)            \
    F(fmi3Status, fmi3GetEventIndicators,                                                          \
      (fmi3Instance instance, fmi3Float64 eventIndicators[], size_t nEventIndicators), ME)         \
    F(fmi3Status, fmi3GetContinuousStates,                                                         \
      (fmi3Instance instance, fmi3Float64 continuousStates[], size_t nContinuousStates), ME)       \
    F(fmi3Status, fmi3GetNominalsOfContinuousStates,                                               \
      (fmi3Instance instance, fmi3Float64 nominals[], size_t nContinuousStates), ME)               \
    F(fmi3Status, fmi3GetNumberOfEventIndicators,                                                  \
      (fmi3Instance instance, size_t * nEventIndicators), ME)                                      \
    F(fmi3Status, fmi3GetNumberOfContinuousStates,                                                 \
      (fmi3Instance instance, size_t * nContinuousStates), ME)                                     \
    /* Co-Simulation (§4.2) */                                                                     \
    F(fmi3Status, fmi3EnterStepMode, (fmi3Instance instance), CS)                                  \
    F(fmi3Status, fmi3GetOutputDerivatives,                                                        \
      (fmi3Instance instance, const fmi3ValueReference valueReferences[],                          \
       size_t nValueReferences, const fmi3Int32 orders[], fmi3Float64 values[], size_t nValues),   \
      CS)                                                                                          \
    F(fmi3Status, fmi3DoStep,                                                                      \
      (fmi3Instance instance, fmi3Float64 currentCommunicationPoint,                               \
       fmi3Float64 communicationStepSize, fmi3Boolean noSetFMUStatePriorToCurrentPoint,            \
       fmi3Boolean * eventHandlingNeeded, fmi3Boolean * terminateSimulation,                       \
       fmi3Boolean * earlyReturn, fmi3Float64 * lastSuccessfulTime),                               \
      CS)                                                                                          \
    /* Scheduled Execution (§5.2) */                                                               \
    F(fmi3Status, fmi3ActivateModelPartition,                                                      \
      (fmi3Instance instance, fmi3ValueReference clockReference, fmi3Float64 activationTime), SE)

/* Pointer types for importers: fmi3DoStepTYPE, fmi3GetFloat64TYPE, ... */
#define FMUC_FMI3_TYPEDEF_(ret, name, params, iface) typedef ret(*name##TYPE) params;
FMUC_FMI3_FUNCTIONS(FMUC_FMI3_TYPEDEF_)
#undef FMUC_FMI3_TYPEDEF_

/* Prototypes for exporters: an FMU source defines FMUC_FMI3_EXPORTING before including this. */
#ifdef FMUC_FMI3_EXPORTING
#define FMI3_Export __attribute__((visibility("default")))
#define FMUC_FMI3_PROTO_(ret, name, params, iface) FMI3_Export ret name params;
FMUC_FMI3_FUNCTIONS(FMUC_FMI3_PROTO_)
#undef FMUC_FMI3_PROTO_
#endif

#ifdef __cplusplus
}
#endif
#endif /* FMUC_FMI3_H */
