/* The FMI 2.0 function x state tables (fmi2_states.def) behind fmuc_fmi2_states(), and FMI
 * 3.0's (fmi3_states.def) behind fmuc_fmi3_states(). */
#include <string.h>

#include "fmuc/fmuc_sim.h"

#define START FMUC_ST_START
#define INST FMUC_ST_INST
#define INIT FMUC_ST_INIT
#define EM FMUC_ST_EM
#define CTM FMUC_ST_CTM
#define SC FMUC_ST_SC
#define SIP FMUC_ST_SIP
#define SF FMUC_ST_SF
#define SCAN FMUC_ST_SCAN
#define TERM FMUC_ST_TERM
#define ERR FMUC_ST_ERR

typedef struct {
    const char *name;
    unsigned me, me_cond, cs, cs_cond;
} state_row;

#define FMUC_FMI2_FN(n, a, b, c, d) {"fmi2" #n, (a), (b), (c), (d)},
static const state_row rows[] = {
#include "fmi2_states.def"
};
#undef FMUC_FMI2_FN

int fmuc_fmi2_states(const char *fn, fmuc_iface iface, unsigned *allowed, unsigned *conditional)
{
    for (size_t i = 0; fn && i < sizeof rows / sizeof rows[0]; i++) {
        if (strcmp(rows[i].name, fn) != 0)
            continue;
        unsigned a = iface == FMUC_IFACE_ME ? rows[i].me : rows[i].cs;
        unsigned c = iface == FMUC_IFACE_ME ? rows[i].me_cond : rows[i].cs_cond;
        if (!a && !c)
            return -1;
        if (allowed)
            *allowed = a;
        if (conditional)
            *conditional = c;
        return 0;
    }
    return -1;
}

const char *fmuc_fmi2_state_name(unsigned st)
{
    switch (st) {
    case FMUC_ST_START: return "start";
    case FMUC_ST_INST: return "instantiated";
    case FMUC_ST_INIT: return "initializationMode";
    case FMUC_ST_EM: return "eventMode";
    case FMUC_ST_CTM: return "continuousTimeMode";
    case FMUC_ST_SC: return "stepComplete";
    case FMUC_ST_SIP: return "stepInProgress";
    case FMUC_ST_SF: return "stepFailed";
    case FMUC_ST_SCAN: return "stepCanceled";
    case FMUC_ST_TERM: return "terminated";
    case FMUC_ST_ERR: return "error";
    case FMUC_ST_FAT: return "fatal";
    }
    return "?";
}

/* ---- FMI 3.0 ------------------------------------------------------------------------------ */

#define SM FMUC_ST_SC
#define CAM FMUC_ST_CAM
#define ME 1u
#define CS 2u
#define SE 4u

typedef struct {
    const char *name;
    unsigned me, me_cond, cs, cs_cond, se, se_cond, ifaces;
} state_row3;

#define FMUC_FMI3_FN(n, a, b, c, d, e, f, i) {"fmi3" #n, (a), (b), (c), (d), (e), (f), (i)},
static const state_row3 rows3[] = {
#include "fmi3_states.def"
};
#undef FMUC_FMI3_FN

int fmuc_fmi3_states(const char *fn, fmuc_iface iface, unsigned *allowed, unsigned *conditional)
{
    for (size_t i = 0; fn && i < sizeof rows3 / sizeof rows3[0]; i++) {
        if (strcmp(rows3[i].name, fn) != 0)
            continue;
        if (!(rows3[i].ifaces & (iface == FMUC_IFACE_ME   ? ME
                                 : iface == FMUC_IFACE_SE ? SE
                                                          : CS)))
            return -1;
        if (allowed)
            *allowed = iface == FMUC_IFACE_ME   ? rows3[i].me
                       : iface == FMUC_IFACE_SE ? rows3[i].se
                                                : rows3[i].cs;
        if (conditional)
            *conditional = iface == FMUC_IFACE_ME   ? rows3[i].me_cond
                           : iface == FMUC_IFACE_SE ? rows3[i].se_cond
                                                    : rows3[i].cs_cond;
        return 0;
    }
    return -1;
}

const char *fmuc_fmi3_state_name(unsigned st)
{
    switch (st) {
    case FMUC_ST_START: return "Start";
    case FMUC_ST_INST: return "Instantiated";
    case FMUC_ST_INIT: return "Initialization Mode";
    case FMUC_ST_EM: return "Event Mode";
    case FMUC_ST_CTM: return "Continuous-Time Mode";
    case FMUC_ST_SC: return "Step Mode";
    case FMUC_ST_CAM: return "Clock Activation Mode";
    case FMUC_ST_TERM: return "Terminated";
    }
    return "?";
}
