/* Internals shared by worker.c, trace.c, callbacks.c and loader.c: the MAP_SHARED region that the
 * worker writes (phase, call trace, log, allocation stats) and the parent reads after the worker
 * ended (even by a crash), and the worker-side context. The parent treats the region as hostile. */
#ifndef FMUC_WORKER_INTERNAL_H
#define FMUC_WORKER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "fmi1/fmi1.h"
#include "fmi3/fmi3.h"
#include "fmuc/fmuc_worker.h"
#include "sandbox_internal.h"

#define FMUC_W_MAGIC 0x31524b5743554d46ull /* "FMUCWKR1" */
#define FMUC_W_TRACE_HEAD 64               /* first calls kept */
#define FMUC_W_TRACE_TAIL 64               /* last calls kept (ring) */
#define FMUC_W_CALL_TEXT 240             /* longest formatted call text */
#define FMUC_W_LOG_KEPT 1000
#define FMUC_W_LOG_MSG 4096
#define FMUC_W_LOG_NAME 128

enum { FMUC_W_CALL_EMPTY = 0, FMUC_W_CALL_RUNNING = 1, FMUC_W_CALL_RETURNED = 2,
       FMUC_W_CALL_NOT_PROVIDED = 3,
       FMUC_W_CALL_RETURNED_PTR = 4,  /* pointer result: status 1 non-NULL, 0 NULL */
       FMUC_W_CALL_RETURNED_VOID = 5,
       /* the call made a callback in which the harness called the FMU itself (FMI 3.0 SE:
        * clockUpdate asks fmi3GetClock); it goes on in a later entry flagged FMUC_W_A_RESUMED */
       FMUC_W_CALL_SUSPENDED = 6 };

/* Which call a trace entry is: the index of the function in FMUC_FMI2_FUNCTIONS, then the FMI
 * 3.0 functions in FMUC_FMI3_FUNCTIONS order (FMUC_W_FN_FMI3_FIRST + index), then the library
 * calls after them. */
enum {
#define FMUC_W_FN_ENUM_(ret, name, params, iface) FMUC_W_FN_##name,
    FMUC_FMI2_FUNCTIONS(FMUC_W_FN_ENUM_)
    FMUC_FMI3_FUNCTIONS(FMUC_W_FN_ENUM_)
#undef FMUC_W_FN_ENUM_
    FMUC_W_FN_DLOPEN,
    FMUC_W_FN_DLCLOSE,
    /* FMI 1.0 (inst_fmi1.c): the unprefixed names of both standards, each once */
#define FMUC_W_FN1_ENUM_(ret, name, params) FMUC_W_FN1_##name,
    FMUC_FMI1_SHARED_FUNCTIONS(FMUC_W_FN1_ENUM_)
    FMUC_FMI1_ME_ONLY_FUNCTIONS(FMUC_W_FN1_ENUM_)
    FMUC_FMI1_CS_ONLY_FUNCTIONS(FMUC_W_FN1_ENUM_)
#undef FMUC_W_FN1_ENUM_
    FMUC_W_FN_COUNT
};
#define FMUC_W_FN1_FIRST FMUC_W_FN1_fmiGetVersion /* calls of FMI 1.0 are FIRST..COUNT-1 */
#define FMUC_W_FN_FMI3_FIRST FMUC_W_FN_fmi3GetVersion
#define FMUC_W_FN_FMI3_COUNT (FMUC_W_FN_DLOPEN - FMUC_W_FN_FMI3_FIRST)
/** The FMI version of a traced function (1, 2 or 3; 0 for the library calls). */
static inline int fmuc_w_fn_version(unsigned fn)
{
    return fn < FMUC_W_FN_FMI3_FIRST ? 2
           : fn < FMUC_W_FN_DLOPEN   ? 3
           : fn >= FMUC_W_FN1_FIRST && fn < FMUC_W_FN_COUNT ? 1
                                                              : 0;
}

#define FMUC_W_VR_KEPT 6   /* value references kept per list */
#define FMUC_W_VAL_KEPT 4  /* values kept */
#define FMUC_W_STR_KEPT 64 /* bytes kept of a string argument (instance name, GUID, library) */

/* argument flags */
enum {
    FMUC_W_A_NULL0 = 1u << 0, /* first array argument (vr, unknown) was NULL */
    FMUC_W_A_NULL1 = 1u << 1, /* second array argument (values, known) was NULL */
    FMUC_W_A_NULLS0 = 1u << 2, /* first string argument was NULL */
    FMUC_W_A_NULLS1 = 1u << 3, /* second string argument was NULL */
    FMUC_W_A_NULLP = 1u << 4, /* a pointer argument (component, state, callbacks) was NULL */
    FMUC_W_A_RESUMED = 1u << 5 /* the rest of a call suspended for the harness's own calls */
};

/* One traced call. The worker records the arguments as data (cheap: no formatting in the worker,
 * whose time should be the FMU's); the parent turns the kept entries into text, treating every
 * field as untrusted. */
typedef struct fmuc_w_call {
    uint64_t seq;
    int32_t status;      /* raw returned value (or 0 for void / pointer returns) */
    uint32_t state;      /* FMUC_W_CALL_* */
    uint32_t fn;         /* FMUC_W_FN_* */
    uint32_t flags;      /* FMUC_W_A_* */
    uint64_t n[2];       /* counts and sizes (nvr, nx, size; second list's count) */
    uint32_t vr[2][FMUC_W_VR_KEPT];
    double d[FMUC_W_VAL_KEPT + 1]; /* real arguments (t, h, tolerance...) or the first values */
    int32_t i[FMUC_W_VAL_KEPT];    /* integer arguments (flags, kind) or the first values */
    char s[2][FMUC_W_STR_KEPT];    /* string arguments, NUL-terminated by the worker */
    uint64_t t0_ns;      /* CLOCK_MONOTONIC when the call was made (timed calls) */
    uint64_t dt_ns;      /* how long it took, set when it returned */
    uint32_t timed;      /* 1: an fmi2* call whose dt_ns is not yet in fmi_ns; 2: dlopen/dlclose */
} fmuc_w_call;

/* log entry flags */
enum {
    FMUC_W_LOG_INST_NULL = 1u << 0,
    FMUC_W_LOG_CAT_NULL = 1u << 1,
    FMUC_W_LOG_MSG_NULL = 1u << 2,
    FMUC_W_LOG_RAW = 1u << 3,        /* format refused (e.g. %n): message kept unformatted */
    FMUC_W_LOG_TRUNCATED = 1u << 4,
    FMUC_W_LOG_ENV_MISMATCH = 1u << 5, /* first argument was not the componentEnvironment */
    FMUC_W_LOG_FMI3 = 1u << 6        /* from the FMI 3.0 logMessage callback (no instance name
                                        argument; status names fmi3*) */
};

typedef struct fmuc_w_log {
    int32_t status;
    uint32_t flags;
    char instance[FMUC_W_LOG_NAME];
    char category[FMUC_W_LOG_NAME];
    char message[FMUC_W_LOG_MSG];
} fmuc_w_log;

/* A buffer violation seen by the instance layer (inst.c, issue 18): the FMU wrote past the end of
 * an output array the harness lent it, or changed an array it may only read. */
#define FMUC_W_BUFV_KEPT 16
/* OVERRUN_ALL: the whole guard zone behind the array was overwritten (the FMU may have written
 * further: amount is a lower bound) */
enum { FMUC_W_BUFV_OVERRUN = 1, FMUC_W_BUFV_INPUT_CHANGED = 2, FMUC_W_BUFV_OVERRUN_ALL = 3 };
typedef struct fmuc_w_bufv {
    uint32_t kind;       /* FMUC_W_BUFV_* */
    uint32_t elem_size;  /* bytes per element */
    uint64_t length;     /* elements the call was given */
    uint64_t amount;     /* OVERRUN: bytes written past the end; INPUT_CHANGED: first index */
    char array[32];      /* the argument ("value", "derivatives", "vr") */
    fmuc_w_call call;    /* the call (its trace entry, copied when the violation was seen) */
} fmuc_w_bufv;

typedef struct fmuc_w_shared {
    uint64_t magic;
    char phase[256];         /* the phase text (phase_at 0) or the label of a phase_at phase */
    uint32_t phase_at;       /* 1: phase is "<phase> <phase_k> (t=<phase_t>)" (no k if < 0) */
    int64_t phase_k;
    double phase_t;
    uint64_t ncalls;
    fmuc_w_call head[FMUC_W_TRACE_HEAD];
    fmuc_w_call tail[FMUC_W_TRACE_TAIL];
    uint64_t allocs, frees, live_bytes, bad_frees, refused_allocs, step_finished;
    uint64_t log_total;
    uint32_t load_attempted, load_ok;
    uint64_t missing_mask;   /* bit i: function i of FMUC_FMI2_FUNCTIONS not found */
    char load_error[512];
    fmuc_w_log log[FMUC_W_LOG_KEPT];
    uint64_t fmi_ns;         /* time inside returned fmi2* calls (all but the last call) */
    uint64_t dl_ns;          /* time inside dlopen/dlclose (same accounting) */
    fmuc_w_sandbox sandbox;  /* sandbox.c: achieved isolation and recorded attempts */
    uint64_t bufv_total;     /* buffer violations seen (the first FMUC_W_BUFV_KEPT kept) */
    fmuc_w_bufv bufv[FMUC_W_BUFV_KEPT];
    uint32_t fmi1;           /* 1: the FMU is FMI 1.0 (log statuses are named fmiOK ...) */
    uint64_t missing_mask3[2]; /* bit i: function i of FMUC_FMI3_FUNCTIONS not found */
    uint32_t libs;           /* libraries loaded when the last call was made: 1 ME, 2 CS */
    uint32_t hung_before;    /* k + 1: the worker ended before the call in progress because it
                              * is spec->hangs->e[k] (fmuc_worker__before_call) */
    uint32_t after_reset;    /* 1: a reset function was called and no instance made since */
    int32_t reply_errno;     /* the reply could not be written: write's errno (EBADF: FMU code
                              * closed the worker's reply descriptor) */
    uint64_t forked_copies;  /* copies of the worker made by FMU code (fork inside an FMI call)
                              * that returned into the worker's code and were ended there */
    uint32_t replied;        /* 1: the worker sent its reply (before unloading the library) */
    uint32_t forked_claim;   /* 1: a copy took the right to write forked_call */
    uint32_t forked_ready;   /* 1: forked_call is written whole */
    char forked_call[160];   /* the call the first such copy returned from */
} fmuc_w_shared;

typedef struct fmuc_w_alloc_slot {
    void *ptr;               /* NULL empty, (void*)1 tombstone */
    size_t size;
} fmuc_w_alloc_slot;

struct fmuc_worker_ctx {
    const fmuc_worker_spec *spec;
    fmuc_w_shared *sh;
    pid_t pid;               /* the worker's process: a copy FMU code forked has another */
    volatile unsigned char *fork_mark; /* a private page advised MADV_WIPEONFORK: 1 in the
                              * worker, 0 in any copy forked from it (no system call to tell);
                              * NULL where the kernel lacks it: the pid tells */
    unsigned last_fn;        /* FMUC_W_FN_* of the last traced call begun in this process */
    unsigned fp_mxcsr, fp_x87; /* the worker's floating-point control before any FMU code
                              * (fmuc_pstate__fp_take): put back after every FMI call */
    int fp_round;
    cJSON *reply;
    int reply_fd;
    uint64_t alloc_cap;      /* largest single allocateMemory request honoured */
    fmuc_w_alloc_slot *slots;
    size_t nslots, nused;    /* open-addressing set of live allocations */
    fmi2CallbackFunctions cb;
    fmuc_fmi fmi[2];
    void *handle[3];          /* loader.c: the library of ME (0) / CS (1) / SE (2), once opened */
    const char *lib_path[3];  /* its path */
    int loaded[3];            /* FMI 2.0: fmi[k] is resolved (k < 2) */
    void *ver_lib[3];         /* FMI 1.0/3.0: the version's resolved table (its inst file) */
    void *libm;               /* loader.c: libm opened first in the FMU's own link-map */
    long lmid;                /* namespace (its global scope), and that namespace's id */
    const char *phase_label;  /* label last copied into sh->phase by fmuc_worker_phase_at */
    /* inst_fmi3.c: the intermediateUpdate log (fmi3_priv) of the instance whose fmi3DoStep is
     * running (iu_active), and of the last instance made with the callback (iu_last: a call
     * outside any step is logged there) */
    void *iu_active, *iu_last;
    /* inst_fmi3.c: the Scheduled Execution instance whose fmi3ActivateModelPartition is running
     * (se_active), and the last one made (se_last: a clockUpdate outside any activation is
     * logged there) */
    void *se_active, *se_last;
    /* procstate.c: the process state watch (fmuc_inst_watch_process_state), NULL when off */
    struct fmuc_w_pwatch *pwatch;
};

/* procstate.c */
/** Worker, at the start of fmuc_trace__begin: compare the process state after the call watched
 *  last (if any) with the state before it. */
void fmuc_pstate__before_begin(fmuc_worker_ctx *ctx);
/** Worker, in fmuc_trace__go: take the process state before call e (when watching). */
void fmuc_pstate__before_call(fmuc_worker_ctx *ctx, fmuc_w_call *e);
/** Worker, in the logger callbacks: compare the process state with the state before the running
 *  call (thread settings must be restored before calling back, FMI 2.0.4 §2.1, FMI 3.0.2
 *  §2.2.1); records a change, undoes nothing. */
void fmuc_pstate__at_callback(fmuc_worker_ctx *ctx);
/** Worker, before any FMU code: keep the floating-point control (x86: MXCSR control bits and
 *  the x87 control word; else the rounding mode) as the worker's own. */
void fmuc_pstate__fp_take(fmuc_worker_ctx *ctx);
/** Worker, in fmuc_trace__end of a call that returned: first the process-state watch's
 *  comparison of that call (when watching: recorded, then undone), then the floating-point
 *  control put back silently in every worker, so that an FMU that unmasks floating-point
 *  exceptions or changes the rounding cannot trap or skew fmucheck's own code between calls
 *  nor its later calls (api-process-state is the check that reports the change). */
void fmuc_pstate__after_call(fmuc_worker_ctx *ctx);
/* trace.c */
/** Worker: take the next trace slot for function fn (FMUC_W_FN_*) and clear its arguments; fill
 *  them (fmuc_trace__vrs, e->d, ...) and then publish the call with fmuc_trace__go right before
 *  making it. */
fmuc_w_call *fmuc_trace__begin(fmuc_worker_ctx *ctx, unsigned fn);
void fmuc_trace__go(fmuc_worker_ctx *ctx, fmuc_w_call *e);
/** The name of a traced function (FMUC_W_FN_*), "?" when out of range. */
const char *fmuc_trace__fn_name(unsigned fn);
/* worker.c */
/** Worker, right before a traced call is made (fmuc_trace__go): records which libraries are
 *  loaded and ends the worker (_exit) when the call is one that hung before (spec->hangs). */
void fmuc_worker__before_call(fmuc_worker_ctx *ctx, const fmuc_w_call *e);
/** Worker: a copy of the worker that FMU code made with fork() (or clone) inside an FMI call
 *  and that came back into the worker's code ends here, recorded in the shared record, before
 *  it calls the FMU again, announces a phase or writes a reply: only the worker itself speaks
 *  for the check. Called at those points; nothing happens in the worker itself. */
void fmuc_worker__fork_guard(fmuc_worker_ctx *ctx);
/** Worker: 1 in a copy of the worker forked by FMU code (the callbacks, which such a copy may
 *  still call from FMU code, then leave the shared record alone), 0 in the worker itself. */
int fmuc_worker__in_copy(const fmuc_worker_ctx *ctx);
/** Worker: the call of entry e returned (or was suspended) with status. A forked copy of the
 *  worker coming back from the call ends here first (fmuc_worker__fork_guard), before it
 *  touches the entry the worker is still in. */
void fmuc_trace__end(fmuc_worker_ctx *ctx, fmuc_w_call *e, int status, uint32_t state);
/** Worker: keep list k (0 or 1) of value references (the first FMUC_W_VR_KEPT and the count). */
void fmuc_trace__vrs(fmuc_w_call *e, int k, const fmi2ValueReference *vr, size_t nvr);
/** Worker: keep a Real array argument (the first FMUC_W_VAL_KEPT values in d[] and the count
 *  in n[0]; NULL flagged as FMUC_W_A_NULL1). */
void fmuc_trace__reals(fmuc_w_call *e, const double *v, size_t n);
/** Worker: keep string argument k (0 or 1), bounded. */
void fmuc_trace__str(fmuc_w_call *e, int k, const char *s);
/** Parent: the text of a call ("fmi2DoStep(t=0.5, h=0.25, noSet=0)"), from untrusted fields. */
void fmuc_trace__format(const fmuc_w_call *e, char *buf, size_t n);
/** The trace entry of call seq (head or tail ring). */
fmuc_w_call *fmuc_trace__slot(fmuc_w_shared *sh, uint64_t seq);
/** Worker: record a buffer violation of the call that returned last (kind FMUC_W_BUFV_*). */
void fmuc_trace__buffer_violation(fmuc_worker_ctx *ctx, unsigned kind, const char *array,
                                  uint64_t length, uint32_t elem_size, uint64_t amount);
/** Parent: decode the (untrusted) region into outcome fields. */
void fmuc_trace__decode(const fmuc_w_shared *sh, fmuc_worker_outcome *out);
/** Copy bytes into a JSON-safe string (valid UTF-8 kept, other bytes as \xNN); malloc'ed. */
char *fmuc_trace__sanitize(const char *s, size_t n);

/* worker.c */
/** Parent: decode the worker's reply frame (untrusted bytes, buf may be NULL when len is 0; at
 *  most max body bytes) into out->end / fn_status / reply / detail. Exposed for fuzzing. */
void fmuc_worker__decode_reply(const char *buf, size_t len, size_t max, fmuc_worker_outcome *out);

/* callbacks.c */
void fmuc_callbacks__init(fmuc_worker_ctx *ctx);
/** FMI 1.0: the harness callbacks as the structures passed by value to fmiInstantiateModel
 *  (logger, allocateMemory, freeMemory) and fmiInstantiateSlave (and stepFinished). */
fmiMECallbackFunctions fmuc_callbacks__fmi1_me(fmuc_worker_ctx *ctx);
fmiCSCallbackFunctions fmuc_callbacks__fmi1_cs(fmuc_worker_ctx *ctx);
void fmuc_callbacks__fini(fmuc_worker_ctx *ctx);
/** The worker's context as the callbacks know it (set before any FMU code runs), whatever
 *  environment pointer the FMU passes back; NULL outside a worker. */
fmuc_worker_ctx *fmuc_callbacks__ctx(void);
/** The FMI 3.0 logMessage callback (§2.3.1; instanceEnvironment is the worker context). */
void fmuc_callbacks__fmi3_log(fmi3InstanceEnvironment env, fmi3Status status,
                              fmi3String category, fmi3String message);

/* loader.c */
/** Open the library of interface k (0 ME, 1 CS; FMI 3.0 SE uses the ME library slot when the
 *  model identifiers are equal) in the FMU's link-map namespace, once: path checks, trace entry
 *  "dlopen", phase "load". The handle, or NULL with the reason in fmuc_worker_load_error. Every
 *  version's loading starts here; each resolves its own function names (fmuc_loader__sym). */
void *fmuc_loader__open(fmuc_worker_ctx *ctx, int k);
/** dlsym in the library opened for k (NULL when not opened or not found). */
void *fmuc_loader__sym(fmuc_worker_ctx *ctx, int k, const char *name);
void fmuc_loader__unload_all(fmuc_worker_ctx *ctx);
/** Flush the stdio buffers of the libc in the FMU's namespace (before the worker exits). */
void fmuc_loader__flush_stdio(fmuc_worker_ctx *ctx);

#endif
