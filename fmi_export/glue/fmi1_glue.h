/* Internal interface of the FMI 1.0 glue: what fmi1_glue_common.c (instance, logging, memory,
 * variable access, the services of fmuc_model.h) offers to fmi1_me_glue.c and fmi1_cs_glue.c.
 * A 1.0 FMU implements one standard, so its library links the common part and one of the two.
 * The model is the same fmuc_model.h table as for FMI 2.0; its callbacks keep their fmi2 types
 * (fmi2Status has the values of fmiStatus 0..4, fmi2EventInfo is translated by the ME glue). */
#ifndef FMUC_FMI1_GLUE_H
#define FMUC_FMI1_GLUE_H

#include <stdint.h>

#include "fmi1/fmi1.h"
#include "fmuc_model.h"

#ifdef FMUC_DEFECT_WRONG_PREFIX
/* Defect (load-exports): every function is exported as wrong_<modelIdentifier>_fmiXxx, so none
 * of the names an importer forms from the modelIdentifier of the XML exists. */
#undef FMUC_FMI1_FULL_NAME
#define FMUC_FMI1_FULL_NAME(name) FMUC_FMI1_PASTE_(FMUC_FMI1_PASTE_(wrong, MODEL_IDENTIFIER), name)
#define FMUC_G1_PROTO_(ret, name, params) FMI1_Export ret FMUC_FMI1_FULL_NAME(name) params;
#ifdef FMUC_FMI1_EXPORTING_ME
FMUC_FMI1_ME_FUNCTIONS(FMUC_G1_PROTO_)
#endif
#ifdef FMUC_FMI1_EXPORTING_CS
FMUC_FMI1_CS_FUNCTIONS(FMUC_G1_PROTO_)
#endif
#undef FMUC_G1_PROTO_
#endif

/* States of the 1.0 state machines as bits (fmi1-rules §D.1 ME, §D.2 CS). */
enum {
    G1_INST = 1u << 0,  /* instantiated */
    G1_INITD = 1u << 1, /* ME: after fmiInitialize; CS: after fmiInitializeSlave or a step */
    G1_SIP = 1u << 2,   /* CS stepInProgress (never entered: no asynchronous steps) */
    G1_SF = 1u << 3,    /* CS stepFailed (fmiDoStep returned fmiDiscard) */
    G1_SCAN = 1u << 4,  /* CS stepCanceled (never entered) */
    G1_TERM = 1u << 5,
    G1_ERR = 1u << 6,
    G1_FAT = 1u << 7
};

typedef enum { G1_ME = 0, G1_CS = 1 } fmuc_g1_kind;

/* One entry of a per-function state table: the allowed states of a function. */
typedef struct {
    const char *name;
    unsigned mask;
} fmuc_g1_rule;

struct fmuc_m_ctx {
    uint32_t magic;
    fmuc_g1_kind kind;
    /* the host's callbacks, copied (the struct is passed by value) */
    fmiCallbackLogger logger;
    fmiCallbackAllocateMemory allocate;
    fmiCallbackFreeMemory release;
    fmiStepFinished step_finished;
    const fmuc_m_desc *desc;
    char guid[39];
    char *name;
    char *res_dir;
    unsigned state;
    int logging_on;
    int in_init, in_event; /* inside fmiInitialize(Slave) / an event iteration (model phase) */
    double time, start_time, stop_time, tolerance, t_floor, last_ok_time;
    int stop_defined, tol_defined, dirty;
    fmiStatus last_step_status;
    size_t nx;
    size_t *xi, *dxi; /* table indices of the states and of their derivatives */
    double *work;     /* 6*nx doubles (CS RK4) */
    void *data;
#ifdef FMUC_DEFECT_NOMINALS_CHANGED_SILENTLY
    unsigned nominal_epoch; /* fmiEventUpdate calls that changed the states */
#endif
};

/* Pointer check of every instance function: NULL for anything but a live instance of this glue. */
fmuc_m_ctx *fmuc_g1__ctx(fmiComponent comp);
/* Creates an instance after checking name, callbacks, interface and GUID; NULL (logged through
 * logger when there is one) on refusal. fn names the calling function in messages. */
fmuc_m_ctx *fmuc_g1__new(fmuc_g1_kind kind, const char *fn, fmiString instanceName,
                         fmiString guid, fmiCallbackLogger logger,
                         fmiCallbackAllocateMemory allocate, fmiCallbackFreeMemory release,
                         fmiStepFinished step_finished, fmiBoolean loggingOn);
void fmuc_g1__free(fmuc_m_ctx *c);
/* Warning/Error/Fatal always reach the logger; OK/Discard only with logging on (C-09). */
void fmuc_g1__log(const fmuc_m_ctx *c, fmiStatus st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Whether the function of rule r may be called in the instance's state (logs the refusal). */
int fmuc_g1__allowed(fmuc_m_ctx *c, const fmuc_g1_rule *r);
/* Error/Fatal move the instance to the error/fatal state; returns st. */
fmiStatus fmuc_g1__done(fmuc_m_ctx *c, fmiStatus st);
static inline fmiStatus fmuc_g1__worst(fmiStatus a, fmiStatus b) { return a > b ? a : b; }
const char *fmuc_g1__state_name(unsigned st);
/* Runs the model's calc when anything changed since the last one. */
fmiStatus fmuc_g1__calc(fmuc_m_ctx *c);
/* Start values of the table into the data block, then the model's start hook (instantiate and
 * CS reset); the time is reset to 0. */
fmiStatus fmuc_g1__restart(fmuc_m_ctx *c);
/* fmiGetXxx / fmiSetXxx of both standards after the state check (fn = function name). */
fmiStatus fmuc_g1__get(fmuc_m_ctx *c, const char *fn, fmuc_m_type t, const fmiValueReference vr[],
                       size_t nvr, void *value);
fmiStatus fmuc_g1__set(fmuc_m_ctx *c, const char *fn, fmuc_m_type t, const fmiValueReference vr[],
                       size_t nvr, const void *value);
/* Both: nx against the model (C-18); logs and returns 0 on mismatch. */
int fmuc_g1__check_n(fmuc_m_ctx *c, const char *fn, const char *what, size_t n, size_t expect);
double fmuc_g1__time_tol(double a, double b);

#endif /* FMUC_FMI1_GLUE_H */
