/* Isolation: every call into FMU code happens in a forked, resource-limited worker process that
 * reports back over a validated pipe protocol; the parent judges only what it observed (exit
 * status, signal, timeout, reply). Also the FMI loader and traced call wrappers used in the worker.
 *
 * Typical check (the parent never calls FMU code; fn runs in the child):
 *
 *   static int probe(fmuc_worker_ctx *ctx, void *payload) {
 *       const fmuc_fmi *f = fmuc_worker_load(ctx, fmi2CoSimulation);
 *       if (!f) return 1;                               // reason in outcome.load_error
 *       fmi2Component c = fmuc_fmi_instantiate(f, fmi2CoSimulation, NULL, "probe");
 *       fmuc_worker_phase(ctx, "step 1");
 *       fmi2Status st = fmuc_fmi_doStep(f, c, 0.0, 0.1, fmi2False);
 *       cJSON_AddNumberToObject(fmuc_worker_reply(ctx), "status", st);
 *       fmuc_fmi_freeInstance(f, c);
 *       return 0;
 *   }
 *   static void run(const fmuc_subject *s, fmuc_result *res) {
 *       fmuc_worker_spec spec; fmuc_worker_outcome o; fmuc_diag d = {0};
 *       fmuc_worker_spec_init(&spec, s->fmu, s->opts);
 *       if (fmuc_worker_run(&spec, probe, NULL, &o, &d) < 0) {
 *           fmuc_result_error(res, "%s", d.msg); return; }
 *       if (!fmuc_worker_outcome_to_result(&o, res)) { ...interpret o.reply, o.log... }
 *       fmuc_worker_outcome_free(&o);
 *   }
 */
#ifndef FMUC_WORKER_H
#define FMUC_WORKER_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "fmi2/fmi2.h"
#include "fmuc/fmuc_err.h"
#include "fmuc/fmuc_fmu.h"
#include "fmuc/fmuc_options.h"
#include "fmuc/fmuc_result.h"
#include "fmuc/fmuc_sandbox.h"

/* ---------------------------------------------------------------------------------------------
 * Parent side
 * ------------------------------------------------------------------------------------------- */

/** What the worker runs on and its limits. Zero fields take the defaults in parentheses. */
/* RLIMIT_NPROC of a worker (fork bombs, B10); recorded in the report's limits. */
#define FMUC_WORKER_NPROC_LIMIT 1024

/** Calls that hung in an earlier worker of this FMU and are not made again (issue 16: "a call
 *  that hung once is not called again the same way"). Kept by the parent across workers (the
 *  checks' shared runs own it; fmuc_options.worker_hangs points to it). Only calls whose hang does
 *  not depend on the simulated time are remembered here: the reset functions (fmi2Reset,
 *  fmiResetSlave, fmi3Reset), and any call that hung after a reset (before a new instance was
 *  made: the run after the reset starts from the same state every time, so it hangs again);
 *  hangs of stepping calls bound the horizon instead
 *  (checks/shared_runs.c). A worker about to make a remembered call on an interface whose library
 *  hung in it ends at once, its outcome a timeout during that call (hung_before set): the check
 *  judges it as the hang it is, without waiting for the limit again. */
#define FMUC_WORKER_HANGS_MAX 8
typedef struct fmuc_worker_hang {
    char fn[48];       /* "fmi2Reset" */
    unsigned ifaces;   /* the libraries loaded in the worker that hung: 1 ME, 2 CS, 4 SE (bits) */
    char by[64];       /* the label of that worker (its check), "" when none */
    unsigned after_reset; /* 1: any call that hung after a reset of the worker's instance (no
                           * instance made since): made again only where no reset came first */
    double t;             /* after_reset and a doStep: the communication point it hung at (the
                           * same call at another time is made); NaN otherwise */
} fmuc_worker_hang;
typedef struct fmuc_worker_hangs {
    size_t n;
    fmuc_worker_hang e[FMUC_WORKER_HANGS_MAX];
} fmuc_worker_hangs;

/* fmuc_worker_spec.record_sandbox: record, refusing nothing itself */
#define FMUC_RECORD_ONLY 2

typedef struct fmuc_worker_spec {
    const fmuc_fmu *fmu;          /* FMU to load in the worker (may be NULL for non-FMU workers) */
    double timeout_s;             /* wall clock, CLOCK_MONOTONIC (60 s) */
    double timeout_multiplier;    /* scales timeout_s (1) */
    double progress_limit_s;      /* above timeout_s: a worker still running at its limit whose
                                     FMI calls keep returning (the call in progress made, or the
                                     last one returned, less than a tenth of the limit ago, at
                                     least 1 s) is not killed but watched on, until no call
                                     returns for that long or this limit is reached (both scaled
                                     by the multiplier); the RLIMIT_CPU follows it. 0: the limit
                                     is final (the default) */
    uint64_t rlimit_as_bytes;     /* RLIMIT_AS (4 GiB; not applied under AddressSanitizer) */
    uint64_t rlimit_fsize_bytes;  /* RLIMIT_FSIZE (1 GiB) */
    uint64_t capture_cap_bytes;   /* stdout and stderr bytes kept, each (64 KiB); rest counted */
    size_t reply_max_bytes;       /* largest accepted reply document (16 MiB) */
    const char *label;            /* what runs, for messages (e.g. the check id); may be NULL */
    const fmuc_sandbox_config *sandbox; /* isolation options (NULL: defaults, fmuc_sandbox.h) */
    int record_sandbox;           /* also record write and network attempts (seccomp notification
                                     watched by a thread in the worker, about 0.5 ms a worker);
                                     the enforcement (Landlock, network namespace, privilege
                                     drop) applies to every worker either way. 1: the recorder
                                     also refuses network calls (EACCES) while the network is
                                     denied; FMUC_RECORD_ONLY: it refuses nothing, so the FMU
                                     meets what it meets in any other worker (the nominal runs) */
    const char *tmp_parent;       /* where the scratch dir goes when fmu is NULL ($TMPDIR, /tmp) */
    const char *read_files[4];    /* the user's files the worker reads besides the FMU (--input,
                                     --reference, --energy-spec, --compare); NULL entries unused.
                                     Everything else outside the FMU, the scratch directory and
                                     the system folders is unreadable in the worker (sandbox) */
    fmuc_worker_hangs *hangs;     /* calls not made again, and where a new hang of such a call is
                                     recorded (NULL: none) */
} fmuc_worker_spec;

/** Fill a spec from the run's options (timeouts, limits, capture cap) for this FMU. */
void fmuc_worker_spec_init(fmuc_worker_spec *spec, const fmuc_fmu *fmu, const fmuc_options *opts);

/** How the worker ended, as observed by the parent. */
typedef enum {
    FMUC_WORKER_OK = 0,        /* exit 0 after a valid reply and the end marker */
    FMUC_WORKER_CRASHED,       /* terminated by a signal (signal) */
    FMUC_WORKER_TIMEOUT,       /* wall clock exceeded; the process group was killed */
    FMUC_WORKER_EXITED_EARLY,  /* exited (exit_code, also 0) without completing the protocol */
    FMUC_WORKER_PROTOCOL       /* reply missing, too large, garbled or of the wrong shape */
} fmuc_worker_end;

/** Captured output of one stream: the first bytes kept, all bytes counted. */
typedef struct fmuc_worker_capture {
    uint64_t bytes;            /* total written by the worker (and its children) */
    char *head;                /* first min(bytes, cap) bytes, NUL-terminated (may contain NULs) */
    size_t head_len;
    int truncated;             /* bytes > head_len */
} fmuc_worker_capture;

typedef struct fmuc_worker_outcome {
    fmuc_worker_end end;
    int signal;                /* CRASHED: the signal number */
    int exit_code;             /* EXITED_EARLY / OK: the exit status */
    int fn_status;             /* OK: the value fn returned */
    char phase[256];           /* the phase the worker last announced ("" if none) */
    char last_call[256];       /* the FMI call in progress, else the last one ("" if none) */
    int call_in_progress;      /* last_call had not returned when the worker ended */
    char *detail;              /* PROTOCOL/TIMEOUT/internal detail, or NULL */
    cJSON *reply;              /* OK: the object fn filled (owned) */
    cJSON *trace;              /* array of {"seq","call","status"[,"in_progress"]} plus
                                  {"omitted":n} between the first and the last calls (owned) */
    uint64_t ncalls;           /* FMI calls made in total */
    cJSON *log;                /* array of {"instance","status","category","message"[,"raw"]} */
    uint64_t log_total;        /* logger calls in total (log keeps the first ones) */
    fmuc_worker_capture out, err;
    uint64_t allocs, frees;    /* through allocateMemory/freeMemory */
    uint64_t live_bytes;       /* allocated and not yet freed */
    uint64_t bad_frees;        /* freeMemory on a pointer allocateMemory did not return */
    int load_attempted;        /* fmuc_worker_load was called */
    int load_ok;
    char load_error[512];      /* dlerror() text or reason when the load failed */
    cJSON *missing;            /* array of fmi2* names not found (owned; NULL when none) */
    double duration_s;
    double fmi_time_s;         /* wall time inside fmi2* calls that returned (CLOCK_MONOTONIC,
                                  measured around each traced call; callbacks included) */
    double lib_time_s;         /* wall time inside dlopen/dlclose of the FMU's library */
    double cpu_s;              /* CPU time (user + system) of the worker process itself (wait4;
                                  its descendants not counted): unlike the wall times, hardly
                                  moved by other work on the machine */
    fmuc_isolation isolation;  /* what the sandbox achieved in this worker (fmuc_sandbox.h) */
    char sandbox_error[256];   /* the sandbox could not be set up ("" otherwise; run fails) */
    cJSON *sandbox_events;     /* array of {"kind","syscall","path"|"address","errno",
                                  "deniedBy","violation","pid"} (owned; NULL when none) */
    uint64_t sandbox_events_total; /* attempts recorded (also those not kept) */
    uint64_t sandbox_violations;   /* writes outside the allowed folders, denied network use */
    cJSON *buffer_violations;      /* array of {"function","call","array","kind":"overrun"|
                                      "input-changed","length","elementSize", and "bytesPast",
                                      "elementsPast" (overrun) or "index" (input-changed)}: what
                                      the instance layer's guarded buffers saw (fmuc_inst.h);
                                      owned, NULL when none; the first 16 kept */
    uint64_t buffer_violations_total;
    int hung_before;               /* TIMEOUT without waiting: the call in progress (last_call)
                                      hung in an earlier worker (hung_by) and was not made again */
    char hung_by[64];
    uint64_t forked_copies;        /* copies of the worker FMU code forked inside an FMI call
                                      that came back into the worker's code: ended there, before
                                      they could call, announce or reply (the worker's own reply
                                      is the one read) */
    char forked_call[160];         /* the call the first of them returned from */
    char own_limit[96];            /* CRASHED by a CPU time limit FMU code lowered (SIGXCPU,
                                      SIGKILL): "RLIMIT_CPU at 0 s (hard 0 s; fmucheck set 11 s)";
                                      fmuc_worker_outcome_to_result makes it NOT_APPLICABLE, and
                                      no check takes it for the answer to what it probed */
    char after_reply[400];         /* OK: how unloading the FMU's library ended the worker after
                                      its reply ("SIGSEGV during dlclose(x.so)"; B18: a crashing
                                      destructor, a thread left running in unmapped code), ""
                                      when it ended well */
} fmuc_worker_outcome;

/** What runs in the worker. Return 0 normally; the value comes back as fn_status. */
typedef struct fmuc_worker_ctx fmuc_worker_ctx;
typedef int (*fmuc_worker_fn)(fmuc_worker_ctx *ctx, void *payload);

/** Fork a worker (own process group, rlimits, stdout/stderr captured, other fds closed) that
 *  runs fn(ctx, payload), wait for it under the wall-clock limit, kill its process group, and
 *  describe what happened in *out (always initialised; free with fmuc_worker_outcome_free).
 *  Returns FMUC_OK whenever the worker ran, whatever it did: crashes, timeouts and protocol
 *  errors are in out->end. A negative fmuc_err only when the harness itself failed (fork, pipe,
 *  mmap). The parent never runs FMU code. */
fmuc_err fmuc_worker_run(const fmuc_worker_spec *spec, fmuc_worker_fn fn, void *payload,
                         fmuc_worker_outcome *out, fmuc_diag *diag);

void fmuc_worker_outcome_free(fmuc_worker_outcome *o);

/** Short names: "ok", "crashed", "timeout", "exited-early", "protocol-error". */
const char *fmuc_worker_end_name(fmuc_worker_end e);

/** What ended the worker, in a few words: "SIGSEGV in fmi2FreeInstance(NULL)", "a hang (wall-clock
 *  limit) in fmi2DoStep(...)", "exit status 3 in phase '...'", "a broken worker reply". */
void fmuc_worker_death_text(const fmuc_worker_outcome *o, char *buf, size_t len);

/** How a worker ended, as data: what fmuc_worker_death_text says, to compare two deaths. */
typedef struct fmuc_worker_death {
    int end;      /* fmuc_worker_end: FMUC_WORKER_CRASHED, _TIMEOUT or _EXITED_EARLY (0: none) */
    int code;     /* the signal (crashed) or the exit status (exited early); 0 for a hang */
    char fn[64];  /* the FMI function in progress ("fmi3UpdateDiscreteStates"), "" when none */
} fmuc_worker_death;

/** o's death (end FMUC_WORKER_OK when it did not die: all zero). */
void fmuc_worker_death_of(const fmuc_worker_outcome *o, fmuc_worker_death *d);
/** 1 when a and b are deaths of the same kind (end and code) inside the same FMI function. */
int fmuc_worker_death_same(const fmuc_worker_death *a, const fmuc_worker_death *b);

/** Describe the outcome in res: a crash/timeout/early exit/protocol error becomes an ERROR with a
 *  message naming the signal and the call or phase ("worker terminated by SIGSEGV during
 *  fmi2DoStep(t=0.5, h=0.1, noSet=0)") and the last calls, except a stop before a call that hung
 *  in an earlier worker (hung_before), which is NOT_APPLICABLE ("worker stopped ... hung in an
 *  earlier worker ... (its check)": that check judged the hang); evidence "worker" gets the end, trace
 *  excerpt, log excerpt, output byte counts and allocation stats, duration_s, fmi_time_s and
 *  lib_time_s, and running totals over the check's workers so far ("workers",
 *  "fmi_time_total_s", "duration_total_s"). Returns nonzero when the check must not interpret
 *  out->reply (anything but FMUC_WORKER_OK), 0 otherwise. */
int fmuc_worker_outcome_to_result(const fmuc_worker_outcome *o, fmuc_result *res);
/** Flags of fmuc_worker_outcome_to_result_ex. */
enum {
    /** No note on the sandbox attempts: the worker recorded them for api-sandbox, which names
     *  them one by one (the nominal runs, api-sandbox's own session). */
    FMUC_OUTCOME_NO_SANDBOX_NOTE = 1u << 0,
};
/** fmuc_worker_outcome_to_result with flags (FMUC_OUTCOME_*). */
int fmuc_worker_outcome_to_result_ex(const fmuc_worker_outcome *o, fmuc_result *res,
                                     unsigned flags);

/* ---------------------------------------------------------------------------------------------
 * Worker side (only valid inside fn)
 * ------------------------------------------------------------------------------------------- */

/** The resolved FMI 2.0 functions of one loaded library. Check presence with fmuc_fmi_has() or
 *  f->raw.fmi2X != NULL; always CALL through the fmuc_fmi_* wrappers below (they trace). */
typedef struct fmuc_fmi_raw {
#define FMUC_FMI_RAW_FIELD_(ret, name, params, iface) name##TYPE name;
    FMUC_FMI2_FUNCTIONS(FMUC_FMI_RAW_FIELD_)
#undef FMUC_FMI_RAW_FIELD_
} fmuc_fmi_raw;

#define FMUC_FMI_NFUNCTIONS 44

typedef struct fmuc_fmi {
    fmuc_fmi_raw raw;
    fmi2Type iface;                       /* which library was loaded */
    const char *lib_path;
    size_t nmissing;                      /* common + this interface's functions not found */
    const char *missing[FMUC_FMI_NFUNCTIONS];
    fmuc_worker_ctx *ctx;                 /* owner (internal) */
} fmuc_fmi;

/** Status returned by a wrapper whose function the library does not provide (never an FMU
 *  status; the trace records "not provided"). */
#define FMUC_FMI_NOT_PROVIDED ((fmi2Status)99)

/** dlopen (RTLD_NOW|RTLD_LOCAL, absolute path, no chdir) the library of interface iface
 *  (spec->fmu->lib_path_me / lib_path_cs) and resolve all 44 functions (NULL where missing).
 *  Announces phase "load". NULL on failure: the reason is in fmuc_worker_load_error() and in
 *  the outcome's load_error. Loading the same interface again returns the same table. */
const fmuc_fmi *fmuc_worker_load(fmuc_worker_ctx *ctx, fmi2Type iface);
const char *fmuc_worker_load_error(const fmuc_worker_ctx *ctx);
/** 1 if the named function ("fmi2DoStep") was resolved. */
int fmuc_fmi_has(const fmuc_fmi *f, const char *name);

/** The FMU being worked on (spec->fmu), or NULL. */
const fmuc_fmu *fmuc_worker_fmu(const fmuc_worker_ctx *ctx);
/** The reply object fn fills; the parent gets it as outcome->reply when the worker ends well. */
cJSON *fmuc_worker_reply(fmuc_worker_ctx *ctx);

/** An array of doubles for a reply, exactly (bit patterns, 16 hex digits each, in one string):
 *  far cheaper to write and read than JSON numbers, and NaN and infinities survive. */
cJSON *fmuc_worker_f64_to_json(const double *v, size_t n);
/** Parent: decode such a string into a new array of n doubles; NULL unless it holds exactly n
 *  values (the worker is untrusted). */
double *fmuc_worker_f64_from_json(const cJSON *s, size_t n);
/** The same for bytes (two hex digits each), and back: a new array of n bytes, NULL unless the
 *  string holds exactly n. */
cJSON *fmuc_worker_bytes_to_json(const void *b, size_t n);
unsigned char *fmuc_worker_bytes_from_json(const cJSON *s, size_t n);
/** Announce a phase ("init", "step 12"); survives a crash. */
void fmuc_worker_phase(fmuc_worker_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** The same for a phase repeated in a loop, without formatting in the worker: announces
 *  "<label> <k> (t=<t>)", or "<label> (t=<t>)" when k < 0. label must stay valid while the worker
 *  runs (a string literal). */
void fmuc_worker_phase_at(fmuc_worker_ctx *ctx, const char *label, long long k, double t);
/** The harness callbacks (logger, allocateMemory, freeMemory, stepFinished, environment). */
const fmi2CallbackFunctions *fmuc_worker_callbacks(fmuc_worker_ctx *ctx);
/** Number of logger messages received so far (all, also those not kept). */
uint64_t fmuc_worker_log_count(const fmuc_worker_ctx *ctx);
/** The host memory callbacks so far in this worker: blocks allocateMemory returned, freeMemory
 *  calls on such a block, bytes still allocated, and freeMemory calls on a pointer allocateMemory
 *  did not return (or that was freed already; never passed to free()). */
typedef struct fmuc_worker_memory {
    uint64_t allocs, frees, live_bytes, bad_frees;
} fmuc_worker_memory;
void fmuc_worker_memory_now(const fmuc_worker_ctx *ctx, fmuc_worker_memory *m);
/** Threads of the calling process now (the entries of /proc/self/task), -1 when unreadable. */
long fmuc_worker_thread_count(void);

/** What a session leaves behind once its last instance is freed (api-resources-released, and
 *  the nominal runs with fmuc_sim_config.observe_release): marked before the FMU's library is
 *  loaded (the threads of the process, the memory callbacks' counters), told after the free. */
typedef struct fmuc_worker_release_mark {
    long threads;
    fmuc_worker_memory mem;
} fmuc_worker_release_mark;
/* how long a thread pool may take to wind down after the last instance (ms) */
#define FMUC_WORKER_THREAD_WAIT_MS 200
void fmuc_worker_release_begin(const fmuc_worker_ctx *ctx, fmuc_worker_release_mark *m);
/** Into `into`: "allocs" (blocks from allocateMemory since the mark), "blocks_kept" (not given
 *  back through freeMemory), "bytes_kept", "bad_frees", and "threads_left" (threads beyond the
 *  mark's after waiting up to wait_ms for them to end; -1 when /proc/self/task cannot be
 *  read). Announces the phase "threads after the last instance" while it waits. */
void fmuc_worker_release_end(fmuc_worker_ctx *ctx, const fmuc_worker_release_mark *m,
                             cJSON *into, long wait_ms);

/** Instantiate with the harness callbacks, resource URI of spec->fmu, visible=false,
 *  loggingOn=true. guid NULL: the model description's guid. */
fmi2Component fmuc_fmi_instantiate(const fmuc_fmi *f, fmi2Type type, const char *guid,
                                   const char *instance_name);
/** Full control; functions NULL passes a NULL callbacks pointer (to probe robustness). */
fmi2Component fmuc_fmi_instantiate_ex(const fmuc_fmi *f, const char *instance_name, fmi2Type type,
                                      const char *guid, const char *resource_uri,
                                      const fmi2CallbackFunctions *functions, int visible,
                                      int logging_on);

/* Traced wrappers: one per FMI 2.0 function, same arguments as the standard. */
const char *fmuc_fmi_getTypesPlatform(const fmuc_fmi *f);
const char *fmuc_fmi_getVersion(const fmuc_fmi *f);
fmi2Status fmuc_fmi_setDebugLogging(const fmuc_fmi *f, fmi2Component c, int logging_on,
                                    size_t ncat, const fmi2String cats[]);
void fmuc_fmi_freeInstance(const fmuc_fmi *f, fmi2Component c);
fmi2Status fmuc_fmi_setupExperiment(const fmuc_fmi *f, fmi2Component c, int tol_defined,
                                    double tol, double start, int stop_defined, double stop);
fmi2Status fmuc_fmi_enterInitializationMode(const fmuc_fmi *f, fmi2Component c);
fmi2Status fmuc_fmi_exitInitializationMode(const fmuc_fmi *f, fmi2Component c);
fmi2Status fmuc_fmi_terminate(const fmuc_fmi *f, fmi2Component c);
fmi2Status fmuc_fmi_reset(const fmuc_fmi *f, fmi2Component c);
fmi2Status fmuc_fmi_getReal(const fmuc_fmi *f, fmi2Component c, const fmi2ValueReference vr[],
                            size_t nvr, fmi2Real value[]);
fmi2Status fmuc_fmi_getInteger(const fmuc_fmi *f, fmi2Component c, const fmi2ValueReference vr[],
                               size_t nvr, fmi2Integer value[]);
fmi2Status fmuc_fmi_getBoolean(const fmuc_fmi *f, fmi2Component c, const fmi2ValueReference vr[],
                               size_t nvr, fmi2Boolean value[]);
fmi2Status fmuc_fmi_getString(const fmuc_fmi *f, fmi2Component c, const fmi2ValueReference vr[],
                              size_t nvr, fmi2String value[]);
fmi2Status fmuc_fmi_setReal(const fmuc_fmi *f, fmi2Component c, const fmi2ValueReference vr[],
                            size_t nvr, const fmi2Real value[]);
fmi2Status fmuc_fmi_setInteger(const fmuc_fmi *f, fmi2Component c, const fmi2ValueReference vr[],
                               size_t nvr, const fmi2Integer value[]);
fmi2Status fmuc_fmi_setBoolean(const fmuc_fmi *f, fmi2Component c, const fmi2ValueReference vr[],
                               size_t nvr, const fmi2Boolean value[]);
fmi2Status fmuc_fmi_setString(const fmuc_fmi *f, fmi2Component c, const fmi2ValueReference vr[],
                              size_t nvr, const fmi2String value[]);
fmi2Status fmuc_fmi_getFMUstate(const fmuc_fmi *f, fmi2Component c, fmi2FMUstate *state);
fmi2Status fmuc_fmi_setFMUstate(const fmuc_fmi *f, fmi2Component c, fmi2FMUstate state);
fmi2Status fmuc_fmi_freeFMUstate(const fmuc_fmi *f, fmi2Component c, fmi2FMUstate *state);
fmi2Status fmuc_fmi_serializedFMUstateSize(const fmuc_fmi *f, fmi2Component c,
                                           fmi2FMUstate state, size_t *size);
fmi2Status fmuc_fmi_serializeFMUstate(const fmuc_fmi *f, fmi2Component c, fmi2FMUstate state,
                                      fmi2Byte buf[], size_t size);
fmi2Status fmuc_fmi_deSerializeFMUstate(const fmuc_fmi *f, fmi2Component c, const fmi2Byte buf[],
                                        size_t size, fmi2FMUstate *state);
fmi2Status fmuc_fmi_getDirectionalDerivative(const fmuc_fmi *f, fmi2Component c,
                                             const fmi2ValueReference unknown[], size_t nunknown,
                                             const fmi2ValueReference known[], size_t nknown,
                                             const fmi2Real dv_known[], fmi2Real dv_unknown[]);
/* Model Exchange */
fmi2Status fmuc_fmi_enterEventMode(const fmuc_fmi *f, fmi2Component c);
fmi2Status fmuc_fmi_newDiscreteStates(const fmuc_fmi *f, fmi2Component c, fmi2EventInfo *info);
fmi2Status fmuc_fmi_enterContinuousTimeMode(const fmuc_fmi *f, fmi2Component c);
fmi2Status fmuc_fmi_completedIntegratorStep(const fmuc_fmi *f, fmi2Component c, int no_set_prior,
                                            fmi2Boolean *enter_event_mode,
                                            fmi2Boolean *terminate_simulation);
fmi2Status fmuc_fmi_setTime(const fmuc_fmi *f, fmi2Component c, double t);
fmi2Status fmuc_fmi_setContinuousStates(const fmuc_fmi *f, fmi2Component c, const fmi2Real x[],
                                        size_t nx);
fmi2Status fmuc_fmi_getDerivatives(const fmuc_fmi *f, fmi2Component c, fmi2Real dx[], size_t nx);
fmi2Status fmuc_fmi_getEventIndicators(const fmuc_fmi *f, fmi2Component c, fmi2Real z[],
                                       size_t ni);
fmi2Status fmuc_fmi_getContinuousStates(const fmuc_fmi *f, fmi2Component c, fmi2Real x[],
                                        size_t nx);
fmi2Status fmuc_fmi_getNominalsOfContinuousStates(const fmuc_fmi *f, fmi2Component c,
                                                  fmi2Real x_nominal[], size_t nx);
/* Co-Simulation */
fmi2Status fmuc_fmi_setRealInputDerivatives(const fmuc_fmi *f, fmi2Component c,
                                            const fmi2ValueReference vr[], size_t nvr,
                                            const fmi2Integer order[], const fmi2Real value[]);
fmi2Status fmuc_fmi_getRealOutputDerivatives(const fmuc_fmi *f, fmi2Component c,
                                             const fmi2ValueReference vr[], size_t nvr,
                                             const fmi2Integer order[], fmi2Real value[]);
fmi2Status fmuc_fmi_doStep(const fmuc_fmi *f, fmi2Component c, double t, double h, int no_set_prior);
fmi2Status fmuc_fmi_cancelStep(const fmuc_fmi *f, fmi2Component c);
fmi2Status fmuc_fmi_getStatus(const fmuc_fmi *f, fmi2Component c, fmi2StatusKind s,
                              fmi2Status *value);
fmi2Status fmuc_fmi_getRealStatus(const fmuc_fmi *f, fmi2Component c, fmi2StatusKind s,
                                  fmi2Real *value);
fmi2Status fmuc_fmi_getIntegerStatus(const fmuc_fmi *f, fmi2Component c, fmi2StatusKind s,
                                     fmi2Integer *value);
fmi2Status fmuc_fmi_getBooleanStatus(const fmuc_fmi *f, fmi2Component c, fmi2StatusKind s,
                                     fmi2Boolean *value);
fmi2Status fmuc_fmi_getStringStatus(const fmuc_fmi *f, fmi2Component c, fmi2StatusKind s,
                                    fmi2String *value);

/** "fmi2OK" ... "fmi2Pending"; "invalid(42)"-style text for anything else (buf used then). */
const char *fmuc_fmi_status_name(int status, char *buf, size_t bufsize);

/** Tests only: the raw reply pipe of the worker (to inject protocol garbage). */
int fmuc_worker__reply_fd(const fmuc_worker_ctx *ctx);

/** Write all n bytes of buf to fd (a pipe), going on after EINTR and partial writes; 0, or -1
 *  with errno set. Used by the worker's reply and by the runner's lanes (checks/runner.c). */
int fmuc_worker_write_all(int fd, const void *buf, size_t n);

#endif
