/* FMI 2.0 behind the instance API: the table of operations that calls the traced fmi2 wrappers
 * (loader.c), so every call is traced exactly as the wrappers always did. Only what differs from
 * the neutral API is here: fmi2 types, the status kinds, fmi2EventInfo, the Integer calls for
 * enumerations. This file (with loader.c) is the only place that calls FMI 2.0 functions. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "inst_internal.h"

_Static_assert(sizeof(fmuc_vr) == sizeof(fmi2ValueReference), "value reference width");
_Static_assert(sizeof(int32_t) == sizeof(fmi2Integer), "fmi2Integer is int32_t");
_Static_assert(sizeof(int) == sizeof(fmi2Boolean), "fmi2Boolean is int");
_Static_assert(sizeof(uint8_t) == sizeof(fmi2Byte), "fmi2Byte is a byte");

#define F_(in) ((const fmuc_fmi *)(in)->lib)
#define C_(in) ((fmi2Component)(in)->c)
#define VR_(vr) ((const fmi2ValueReference *)(vr))

static const char *const op_names[FMUC_INST_NOPS] = {
    [FMUC_INST_OP_INSTANTIATE] = "fmi2Instantiate",
    [FMUC_INST_OP_FREE] = "fmi2FreeInstance",
    [FMUC_INST_OP_SETUP_EXPERIMENT] = "fmi2SetupExperiment",
    [FMUC_INST_OP_ENTER_INIT] = "fmi2EnterInitializationMode",
    [FMUC_INST_OP_EXIT_INIT] = "fmi2ExitInitializationMode",
    [FMUC_INST_OP_TERMINATE] = "fmi2Terminate",
    [FMUC_INST_OP_RESET] = "fmi2Reset",
    [FMUC_INST_OP_GET_FLOAT64] = "fmi2GetReal",
    [FMUC_INST_OP_SET_FLOAT64] = "fmi2SetReal",
    [FMUC_INST_OP_DO_STEP] = "fmi2DoStep",
    [FMUC_INST_OP_CANCEL_STEP] = "fmi2CancelStep",
    [FMUC_INST_OP_GET_STATUS] = "fmi2GetStatus",
    [FMUC_INST_OP_ENTER_EVENT_MODE] = "fmi2EnterEventMode",
    [FMUC_INST_OP_UPDATE_DISCRETE_STATES] = "fmi2NewDiscreteStates",
    [FMUC_INST_OP_ENTER_CT_MODE] = "fmi2EnterContinuousTimeMode",
    [FMUC_INST_OP_COMPLETED_INTEGRATOR_STEP] = "fmi2CompletedIntegratorStep",
    [FMUC_INST_OP_SET_TIME] = "fmi2SetTime",
    [FMUC_INST_OP_SET_STATES] = "fmi2SetContinuousStates",
    [FMUC_INST_OP_GET_STATES] = "fmi2GetContinuousStates",
    [FMUC_INST_OP_GET_DERIVATIVES] = "fmi2GetDerivatives",
    [FMUC_INST_OP_GET_EVENT_INDICATORS] = "fmi2GetEventIndicators",
    [FMUC_INST_OP_GET_NOMINALS] = "fmi2GetNominalsOfContinuousStates",
};

/* ---- library ------------------------------------------------------------------------------ */

static int load(fmuc_worker_ctx *ctx, fmuc_iface iface, const void **lib)
{
    const fmuc_fmi *f;
    if (iface != FMUC_IFACE_ME && iface != FMUC_IFACE_CS)
        return -1;
    f = fmuc_worker_load(ctx, iface == FMUC_IFACE_CS ? fmi2CoSimulation : fmi2ModelExchange);
    *lib = f;
    return f ? 0 : -1;
}

static const char *lib_version(const void *lib)
{
    return fmuc_fmi_getVersion(lib);
}

static const char *lib_types_platform(const void *lib)
{
    return fmuc_fmi_getTypesPlatform(lib);
}

static void lib_free_null(const void *lib)
{
    fmuc_fmi_freeInstance(lib, NULL);
}

/* ---- instance ----------------------------------------------------------------------------- */

static void *instantiate(fmuc_inst *in, const fmuc_inst_args *a)
{
    const fmuc_fmi *f = F_(in);
    const fmuc_fmu *fmu = fmuc_worker_fmu(in->ctx);
    const fmi2CallbackFunctions *cb = fmuc_worker_callbacks(in->ctx);
    const char *guid = a->token;
    if (a->token_null)
        guid = NULL;
    else if (!guid && fmu && fmu->md_parsed)
        guid = fmu->md.guid;
    if (a->no_callbacks) {
        cb = NULL;
    } else if (a->no_memory_callbacks) {
        /* the FMU may keep the pointer: the copy lives as long as the handle */
        fmi2CallbackFunctions *copy = malloc(sizeof *copy);
        if (!copy)
            return NULL;
        *copy = *cb;
        copy->allocateMemory = NULL;
        copy->freeMemory = NULL;
        in->priv = copy;
        cb = copy;
    }
    return fmuc_fmi_instantiate_ex(f, a->name, in->iface == FMUC_IFACE_CS ? fmi2CoSimulation
                                                                           : fmi2ModelExchange,
                                   guid, fmu ? fmu->resource_uri : NULL, cb, a->visible,
                                   a->logging_on);
}

static void free_instance(fmuc_inst *in)
{
    fmuc_fmi_freeInstance(F_(in), C_(in));
}

static fmuc_status set_debug_logging(fmuc_inst *in, int on, size_t ncat, const char *const cats[])
{
    return (fmuc_status)fmuc_fmi_setDebugLogging(F_(in), C_(in), on, ncat, (const fmi2String *)cats);
}

static fmuc_status setup_experiment(fmuc_inst *in, const fmuc_inst_experiment *e)
{
    return (fmuc_status)fmuc_fmi_setupExperiment(F_(in), C_(in), e->tolerance_defined,
                                                 e->tolerance, e->start, e->stop_defined, e->stop);
}

#define SIMPLE_(op, wrapper)                                                                 \
    static fmuc_status op(fmuc_inst *in)                                                     \
    {                                                                                        \
        return (fmuc_status)wrapper(F_(in), C_(in));                                         \
    }
SIMPLE_(enter_initialization_mode, fmuc_fmi_enterInitializationMode)
SIMPLE_(exit_initialization_mode, fmuc_fmi_exitInitializationMode)
SIMPLE_(terminate, fmuc_fmi_terminate)
SIMPLE_(reset, fmuc_fmi_reset)
SIMPLE_(cancel_step, fmuc_fmi_cancelStep)
SIMPLE_(enter_event_mode, fmuc_fmi_enterEventMode)
SIMPLE_(enter_continuous_time_mode, fmuc_fmi_enterContinuousTimeMode)

/* ---- values ------------------------------------------------------------------------------- */

static fmuc_status get(fmuc_inst *in, fmuc_inst_base type, const fmuc_vr *vr, size_t nvr,
                       void *values, size_t nvalues)
{
    const fmuc_fmi *f = F_(in);
    (void)nvalues; /* FMI 2.0 variables are scalars: nvalues == nvr */
    switch (type) {
    case FMUC_INST_FLOAT64:
        return (fmuc_status)fmuc_fmi_getReal(f, C_(in), VR_(vr), nvr, values);
    case FMUC_INST_INT32:
        return (fmuc_status)fmuc_fmi_getInteger(f, C_(in), VR_(vr), nvr, values);
    case FMUC_INST_BOOLEAN:
        return (fmuc_status)fmuc_fmi_getBoolean(f, C_(in), VR_(vr), nvr, values);
    case FMUC_INST_STRING:
        return (fmuc_status)fmuc_fmi_getString(f, C_(in), VR_(vr), nvr, values);
    case FMUC_INST_ENUMERATION: {
        /* the FMU fills an fmi2Integer temporary: guarded like the caller's arrays (inst.c) */
        fmi2Integer one = 0, *tmp = !values ? NULL : nvr <= 1 ? &one : malloc(nvr * sizeof *tmp);
        fmuc_inst__gout g;
        fmi2Status st;
        if (values && !tmp)
            return FMUC_STATUS_ERROR;
        st = fmuc_fmi_getInteger(f, C_(in), VR_(vr), nvr,
                                 fmuc_inst__gout_begin(&g, tmp, tmp ? nvr : 0, sizeof *tmp));
        fmuc_inst__gout_end(in, &g, "value");
        for (size_t i = 0; tmp && i < nvr; i++)
            ((int64_t *)values)[i] = tmp[i];
        if (tmp != &one)
            free(tmp);
        return (fmuc_status)st;
    }
    default:
        return FMUC_STATUS_NOT_PROVIDED;
    }
}

static fmuc_status set(fmuc_inst *in, fmuc_inst_base type, const fmuc_vr *vr, size_t nvr,
                       const void *values, size_t nvalues)
{
    const fmuc_fmi *f = F_(in);
    (void)nvalues;
    switch (type) {
    case FMUC_INST_FLOAT64:
        return (fmuc_status)fmuc_fmi_setReal(f, C_(in), VR_(vr), nvr, values);
    case FMUC_INST_INT32:
        return (fmuc_status)fmuc_fmi_setInteger(f, C_(in), VR_(vr), nvr, values);
    case FMUC_INST_BOOLEAN:
        return (fmuc_status)fmuc_fmi_setBoolean(f, C_(in), VR_(vr), nvr, values);
    case FMUC_INST_STRING:
        return (fmuc_status)fmuc_fmi_setString(f, C_(in), VR_(vr), nvr, values);
    case FMUC_INST_ENUMERATION: {
        fmi2Integer one = 0, *tmp = !values ? NULL : nvr <= 1 ? &one : malloc(nvr * sizeof *tmp);
        fmi2Status st;
        if (values && !tmp)
            return FMUC_STATUS_ERROR;
        for (size_t i = 0; tmp && i < nvr; i++)
            tmp[i] = (fmi2Integer)((const int64_t *)values)[i];
        st = fmuc_fmi_setInteger(f, C_(in), VR_(vr), nvr, tmp);
        if (tmp != &one)
            free(tmp);
        return (fmuc_status)st;
    }
    default:
        return FMUC_STATUS_NOT_PROVIDED;
    }
}

/* ---- Co-Simulation ------------------------------------------------------------------------ */

static fmuc_status do_step(fmuc_inst *in, double t, double h, int no_set_prior,
                           fmuc_inst_step_info *info)
{
    if (info) {
        memset(info, 0, sizeof *info);
        info->last_successful_time = NAN;
    }
    return (fmuc_status)fmuc_fmi_doStep(F_(in), C_(in), t, h, no_set_prior);
}

/* The single value of a status query is guarded like an output array of one element (inst.c):
 * an FMU that writes more than one value of the type is caught. */
static fmuc_status cs_status(fmuc_inst *in, fmuc_inst_query q, void *value)
{
    const fmuc_fmi *f = F_(in);
    fmuc_inst__gout g;
    fmi2Status st, v = fmi2OK;
    switch (q) {
    case FMUC_INST_Q_DO_STEP_STATUS:
        st = fmuc_fmi_getStatus(f, C_(in), fmi2DoStepStatus,
                                value ? fmuc_inst__gout_begin(&g, &v, 1, sizeof v) : NULL);
        if (value) {
            fmuc_inst__gout_end(in, &g, "value");
            *(int *)value = (int)v;
        }
        return (fmuc_status)st;
    case FMUC_INST_Q_PENDING_STATUS:
        st = fmuc_fmi_getStringStatus(f, C_(in), fmi2PendingStatus,
                                      fmuc_inst__gout_begin(&g, value, 1, sizeof(fmi2String)));
        break;
    case FMUC_INST_Q_LAST_SUCCESSFUL_TIME:
        st = fmuc_fmi_getRealStatus(f, C_(in), fmi2LastSuccessfulTime,
                                    fmuc_inst__gout_begin(&g, value, 1, sizeof(fmi2Real)));
        break;
    case FMUC_INST_Q_TERMINATED:
        st = fmuc_fmi_getBooleanStatus(f, C_(in), fmi2Terminated,
                                       fmuc_inst__gout_begin(&g, value, 1, sizeof(fmi2Boolean)));
        break;
    default:
        return FMUC_STATUS_NOT_PROVIDED;
    }
    fmuc_inst__gout_end(in, &g, "value");
    return (fmuc_status)st;
}

static fmuc_status cs_integer_status(fmuc_inst *in, fmuc_inst_query q, int *value)
{
    static const fmi2StatusKind kind[] = {fmi2DoStepStatus, fmi2PendingStatus,
                                          fmi2LastSuccessfulTime, fmi2Terminated};
    if ((unsigned)q >= sizeof kind / sizeof kind[0])
        return FMUC_STATUS_NOT_PROVIDED;
    fmi2Integer v = 0;
    fmuc_inst__gout g;
    fmi2Status st = fmuc_fmi_getIntegerStatus(F_(in), C_(in), kind[q],
                                              value ? fmuc_inst__gout_begin(&g, &v, 1, sizeof v)
                                                    : NULL);
    if (value) {
        fmuc_inst__gout_end(in, &g, "value");
        *value = (int)v;
    }
    return (fmuc_status)st;
}

static fmuc_status set_input_derivatives(fmuc_inst *in, const fmuc_vr *vr, size_t nvr,
                                         const int32_t *order, const double *v, size_t nv)
{
    (void)nv;
    return (fmuc_status)fmuc_fmi_setRealInputDerivatives(F_(in), C_(in), VR_(vr), nvr, order, v);
}

static fmuc_status get_output_derivatives(fmuc_inst *in, const fmuc_vr *vr, size_t nvr,
                                          const int32_t *order, double *v, size_t nv)
{
    (void)nv;
    return (fmuc_status)fmuc_fmi_getRealOutputDerivatives(F_(in), C_(in), VR_(vr), nvr, order, v);
}

/* ---- Model Exchange ----------------------------------------------------------------------- */

static fmuc_status update_discrete_states(fmuc_inst *in, fmuc_inst_event_info *info)
{
    fmi2EventInfo ei;
    fmi2Status st;
    memset(&ei, 0, sizeof ei);
    st = fmuc_fmi_newDiscreteStates(F_(in), C_(in), &ei);
    info->new_discrete_states_needed = ei.newDiscreteStatesNeeded;
    info->terminate_simulation = ei.terminateSimulation;
    info->nominals_changed = ei.nominalsOfContinuousStatesChanged;
    info->values_changed = ei.valuesOfContinuousStatesChanged;
    info->next_event_time_defined = ei.nextEventTimeDefined;
    info->next_event_time = ei.nextEventTime;
    return (fmuc_status)st;
}

static fmuc_status completed_integrator_step(fmuc_inst *in, int no_set_prior, int *enter, int *term)
{
    return (fmuc_status)fmuc_fmi_completedIntegratorStep(F_(in), C_(in), no_set_prior, enter, term);
}

static fmuc_status set_time(fmuc_inst *in, double t)
{
    return (fmuc_status)fmuc_fmi_setTime(F_(in), C_(in), t);
}

static fmuc_status set_continuous_states(fmuc_inst *in, const double *x, size_t nx)
{
    return (fmuc_status)fmuc_fmi_setContinuousStates(F_(in), C_(in), x, nx);
}

#define ARRAY_OUT_(op, wrapper)                                                              \
    static fmuc_status op(fmuc_inst *in, double *v, size_t n)                                \
    {                                                                                        \
        return (fmuc_status)wrapper(F_(in), C_(in), v, n);                                   \
    }
ARRAY_OUT_(get_continuous_states, fmuc_fmi_getContinuousStates)
ARRAY_OUT_(get_derivatives, fmuc_fmi_getDerivatives)
ARRAY_OUT_(get_event_indicators, fmuc_fmi_getEventIndicators)
ARRAY_OUT_(get_nominals, fmuc_fmi_getNominalsOfContinuousStates)

/* ---- FMU state, directional derivatives --------------------------------------------------- */

static fmuc_status get_state(fmuc_inst *in, fmuc_fmu_state *s)
{
    return (fmuc_status)fmuc_fmi_getFMUstate(F_(in), C_(in), (fmi2FMUstate *)s);
}

static fmuc_status set_state(fmuc_inst *in, fmuc_fmu_state s)
{
    return (fmuc_status)fmuc_fmi_setFMUstate(F_(in), C_(in), (fmi2FMUstate)s);
}

static fmuc_status free_state(fmuc_inst *in, fmuc_fmu_state *s)
{
    return (fmuc_status)fmuc_fmi_freeFMUstate(F_(in), C_(in), (fmi2FMUstate *)s);
}

static fmuc_status serialized_state_size(fmuc_inst *in, fmuc_fmu_state s, size_t *size)
{
    return (fmuc_status)fmuc_fmi_serializedFMUstateSize(F_(in), C_(in), (fmi2FMUstate)s, size);
}

static fmuc_status serialize_state(fmuc_inst *in, fmuc_fmu_state s, uint8_t *buf, size_t size)
{
    return (fmuc_status)fmuc_fmi_serializeFMUstate(F_(in), C_(in), (fmi2FMUstate)s,
                                                   (fmi2Byte *)buf, size);
}

static fmuc_status deserialize_state(fmuc_inst *in, const uint8_t *buf, size_t size,
                                     fmuc_fmu_state *s)
{
    return (fmuc_status)fmuc_fmi_deSerializeFMUstate(F_(in), C_(in), (const fmi2Byte *)buf, size,
                                                     (fmi2FMUstate *)s);
}

static fmuc_status get_directional_derivative(fmuc_inst *in, const fmuc_vr *unknown, size_t nu,
                                              const fmuc_vr *known, size_t nk,
                                              const double *dv_known, size_t nkv,
                                              double *dv_unknown, size_t nuv)
{
    (void)nkv;
    (void)nuv;
    return (fmuc_status)fmuc_fmi_getDirectionalDerivative(F_(in), C_(in), VR_(unknown), nu,
                                                          VR_(known), nk, dv_known, dv_unknown);
}

const fmuc_inst_ops fmuc_inst__fmi2_ops = {
    .version = 2,
    .op_names = op_names,
    .load = load,
    .fns = &fmuc_inst__fmi2_fns,
    .lib_version = lib_version,
    .lib_types_platform = lib_types_platform,
    .lib_free_null = lib_free_null,
    .instantiate = instantiate,
    .free_instance = free_instance,
    .set_debug_logging = set_debug_logging,
    .setup_experiment = setup_experiment,
    .enter_initialization_mode = enter_initialization_mode,
    .exit_initialization_mode = exit_initialization_mode,
    .terminate = terminate,
    .reset = reset,
    .get = get,
    .set = set,
    .do_step = do_step,
    .cancel_step = cancel_step,
    .cs_status = cs_status,
    .set_input_derivatives = set_input_derivatives,
    .get_output_derivatives = get_output_derivatives,
    .enter_event_mode = enter_event_mode,
    .update_discrete_states = update_discrete_states,
    .enter_continuous_time_mode = enter_continuous_time_mode,
    .completed_integrator_step = completed_integrator_step,
    .set_time = set_time,
    .set_continuous_states = set_continuous_states,
    .get_continuous_states = get_continuous_states,
    .get_derivatives = get_derivatives,
    .get_event_indicators = get_event_indicators,
    .get_nominals = get_nominals,
    .get_state = get_state,
    .set_state = set_state,
    .free_state = free_state,
    .serialized_state_size = serialized_state_size,
    .serialize_state = serialize_state,
    .deserialize_state = deserialize_state,
    .get_directional_derivative = get_directional_derivative,
    .cs_integer_status = cs_integer_status,
};
