/* glue_core: the version-neutral part of the fmuc FMU glue (issue 17: one core, per-version API
 * surfaces). The FMI 1.0 (fmi1_*_glue.c), 2.0 (fmi2_glue.c) and 3.0 (fmi3_glue.c) glues keep their
 * own instance records, state machines and status types; what the standards do alike, over the
 * model table (fmuc_model.h), lives here once. Statuses are passed as int: fmiStatus, fmi2Status
 * and fmi3Status share the codes OK 0, Warning 1, Discard 2, Error 3, Fatal 4 (worst = largest).
 * Nothing here is exported from an FMU (C_VISIBILITY_PRESET hidden, version scripts). */
#ifndef FMUC_GLUE_CORE_H
#define FMUC_GLUE_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "fmuc_model.h"

/* The variable of type t with value reference vr (NULL: none). */
const fmuc_m_var *fmuc_gc_find_vr(const fmuc_m_desc *d, unsigned vr, fmuc_m_type t);

/* "Real", "Integer", "Boolean", "String". */
const char *fmuc_gc_type_name(fmuc_m_type t);

/* 1 when x is NaN or outside v's min/max (FMUC_DEFECT_NO_RANGE_CHECK: never). */
int fmuc_gc_out_of_range(const fmuc_m_var *v, double x);

/* Every variable's start value (arrays: in every element) into the data block; not the
 * independent variable. */
void fmuc_gc_write_starts(const fmuc_m_desc *d, void *data);

/* 1 when s has only blanks (space, tab, newline, carriage return). */
int fmuc_gc_blank(const char *s);

/* FNV-1a 64 over n bytes (the FMU state blobs' checksum). */
uint64_t fmuc_gc_fnv64(const void *p, size_t n);

/* The log category of a status: logEvents (OK), logStatusWarning/Discard/Error/Fatal,
 * logStatusPending (anything above Fatal). */
const char *fmuc_gc_status_category(int status);

/* x[i] = the Real (double) variable of table index idx[i], i < n; and back. */
void fmuc_gc_read_reals(const fmuc_m_desc *d, const void *data, const size_t *idx, size_t n,
                        double *x);
void fmuc_gc_write_reals(const fmuc_m_desc *d, void *data, const size_t *idx, size_t n,
                         const double *x);

/* The absolute path of a file: URI (file:///abs, file:/abs, file://localhost/abs; %XX decoded,
 * %00 refused; trailing '/' removed) in a buffer of its length + extra bytes from
 * alloc(arg, size) (zeroed, as the hosts' allocators are); *len = the path's length (no NUL
 * written). NULL with *why set when the URI is not such a URI or memory is short.
 * FMUC_DEFECT_URI_AUTHORITY_ONLY / FMUC_DEFECT_URI_NO_DECODE: the broken variants. */
typedef void *(*fmuc_gc_alloc_fn)(void *arg, size_t size);
typedef void (*fmuc_gc_free_fn)(void *arg, void *p);
char *fmuc_gc_file_uri_path(const char *uri, size_t extra, fmuc_gc_alloc_fn alloc,
                            fmuc_gc_free_fn release, void *arg, size_t *len, const char **why);

/* The co-simulation fixed-step stepper: classical RK4 over nx states from tc to tc + h in
 * n = max(1, ceil(h / hmax - 1e-9)) substeps of h/n (hmax <= 0: one step). work holds 6*nx
 * doubles; work[0..nx) the states at tc on entry and, when the result is OK or Warning, the
 * states at tc + h on return. deriv(inst, t, x, dx) evaluates the model (worst status wins; a
 * status above Warning ends the step at once and is returned). */
typedef int (*fmuc_gc_deriv_fn)(void *inst, double t, const double *x, double *dx);
int fmuc_gc_rk4(void *inst, fmuc_gc_deriv_fn deriv, size_t nx, double *work, double hmax,
                double tc, double h);

/* ---- FMU states (FMI 2.0 §2.1.8, FMI 3.0 §2.2.6.4) ------------------------------------------
 * An FMU state is a node of its instance's list that holds a blob, exactly its serialized form:
 * a header (magic, format version, FNV-1a hash of the GUID / instantiationToken, payload size,
 * checksum of the payload), then the payload: the glue's own fields (a record of the version,
 * glue_size bytes, that begins with the state-machine state as uint32_t) and the model's data
 * (fmuc_m_desc.state_save/state_load, else the data block). Nodes and messages go through the
 * version's fmuc_m_alloc/fmuc_m_free/fmuc_m_log. Statuses are the version's codes as int; the
 * caller passes an Error/Fatal result through its own transition into the error state.
 * FMUC_DEFECT_PARTIAL_SET_FMUSTATE, FMUC_DEFECT_DESERIALIZE_IGNORES_BYTES,
 * FMUC_DEFECT_DESERIALIZE_CRASH_ON_CORRUPT, FMUC_DEFECT_DESERIALIZE_GARBAGE_ON_ERROR,
 * FMUC_DEFECT_SERIALIZE_PROCESS_BOUND: the broken variants. */
typedef struct fmuc_gc_state fmuc_gc_state;

/* The FMI functions of FMU states, in the order of fmuc_gc_state_kind.names */
enum { FMUC_GC_GET, FMUC_GC_SET, FMUC_GC_FREE, FMUC_GC_SIZE, FMUC_GC_SERIALIZE,
       FMUC_GC_DESERIALIZE, FMUC_GC_NFNS };

/* What differs between the versions. */
typedef struct fmuc_gc_state_kind {
    const char *names[FMUC_GC_NFNS]; /* the functions' names, for messages */
    uint32_t node_magic, blob_magic;
    const char *arg;         /* "FMUstate" / "FMUState", as in the capability flags' names */
    const char *foreign;     /* why a blob with another GUID / instantiationToken hash is refused */
    const char *bad_state;   /* why a blob whose state-machine state c cannot take is refused */
    size_t glue_size;
    /* the glue's fields of c written into a blob's glue record */
    void (*save)(const fmuc_m_ctx *c, void *glue);
    /* the state-machine states an FMU state of c may hold */
    unsigned (*restorable)(const fmuc_m_ctx *c);
    /* c's state-machine state set to st (what the model's state_load sees); returns the old */
    unsigned (*set_phase)(fmuc_m_ctx *c, unsigned st);
    /* the rest of the glue record restored into c, after the model's data */
    void (*load)(fmuc_m_ctx *c, const void *glue);
} fmuc_gc_state_kind;

/* One instance's FMU states, as the FMI functions see them (made per call). */
typedef struct fmuc_gc_states {
    const fmuc_gc_state_kind *kind;
    fmuc_m_ctx *c;
    const fmuc_m_desc *desc;
    void *data;
    const char *id;          /* the GUID / instantiationToken the blobs are bound to */
    fmuc_gc_state **head;    /* the instance's list */
} fmuc_gc_states;

/* The bodies of the FMI functions, after the handle, state-machine and NULL-pointer checks of
 * the caller: Get (a new state in *state, or *state overwritten when it is one of the
 * instance's), Set, Free (*state NULL: nothing), SerializedSize, Serialize, and DeSerialize (a
 * new state from size bytes). */
int fmuc_gc_state_get(const fmuc_gc_states *fs, void **state);
int fmuc_gc_state_set(const fmuc_gc_states *fs, void *state);
int fmuc_gc_state_free(const fmuc_gc_states *fs, void **state);
int fmuc_gc_state_size(const fmuc_gc_states *fs, void *state, size_t *size);
int fmuc_gc_state_serialize(const fmuc_gc_states *fs, void *state, unsigned char *buf,
                            size_t size);
int fmuc_gc_state_deserialize(const fmuc_gc_states *fs, const unsigned char *buf, size_t size,
                              void **state);
/* Every FMU state of the instance freed (when the instance is). */
void fmuc_gc_state_free_all(const fmuc_gc_states *fs);

/* FMUC_DEFECT_DOSTEP_FPU_CONTROL (fixtures api-process-state, --fmi3): called at the start of
 * DoStep, it sets the x87 precision control to double (53 bits), elsewhere the rounding mode to
 * toward zero, and never restores it. */
void fmuc_gc_defect_fpu_control(void);
/** Defects of the floating-point control around a callback (FMUC_DEFECT_FPU_AT_CALLBACK): the
 *  current control word or rounding mode, and putting a saved one back. */
unsigned fmuc_gc_fpu_save(void);
#ifdef FMUC_DEFECT_START_VALUES_LATE
/** The Real parameters still 0 get their start values (ExitInitializationMode of the fixture
 *  whose binary applies its start values only when initialization ends). */
void fmuc_gc_defect_late_starts(const fmuc_m_desc *d, void *data);
#endif
void fmuc_gc_fpu_restore(unsigned saved);

#endif
