/* Internals of the worker sandbox shared by sandbox.c and worker.c: the part of the worker's shared
 * region the sandbox writes (achieved isolation, setup error, recorded attempts) and the calls the
 * worker makes around fork. The parent treats the region as hostile. */
#ifndef FMUC_SANDBOX_INTERNAL_H
#define FMUC_SANDBOX_INTERNAL_H

#include <stdint.h>

#include "fmuc/fmuc_sandbox.h"
#include "fmuc/fmuc_worker.h"

#define FMUC_W_SB_EVENTS 64
#define FMUC_W_SB_TEXT 600

enum { FMUC_SB_EV_FS = 1, FMUC_SB_EV_NET = 2 };
/* The temporary folders a worker has of its own (a tmpfs in its mount namespace). */
enum { FMUC_SB_PRIVATE_TMP = 1, FMUC_SB_PRIVATE_SHM = 2 };

typedef struct fmuc_w_sb_event {
    int32_t kind;            /* FMUC_SB_EV_* */
    int32_t err;             /* errno the call got from the supervisor (0: continued) */
    int32_t violation;       /* outside the allowed folders / network while denied */
    int32_t pid;             /* calling thread */
    char call[32];           /* syscall name */
    char what[FMUC_W_SB_TEXT]; /* resolved path(s) or address */
    char enforced[24];       /* who denies it: "landlock", "seccomp", "network namespace", "" */
} fmuc_w_sb_event;

typedef struct fmuc_w_sandbox {
    uint32_t reported;       /* the fields below were written by the worker */
    uint32_t setup_failed;
    char setup_error[256];
    int32_t no_new_privs, uid, gid, privilege_drop, landlock_abi, landlock_net, seccomp, netns,
        network_deny, basic_requested, strict, fs_read, signals, env_minimal,
        valgrind; /* running under valgrind: the loader keeps the FMU in fmucheck's namespace */
    int32_t private_tmp;     /* folders of its own (FMUC_SB_PRIVATE_*), fmuc_sandbox.c */
    char missing[256];
    uint64_t events_total;   /* every recorded attempt, also those not kept */
    uint64_t violations_total;
    uint32_t nevents;        /* kept in ev[] */
    fmuc_w_sb_event ev[FMUC_W_SB_EVENTS];
} fmuc_w_sandbox;

/** Parent, before fork: everything the child needs (computed where NSS and allocation are safe). */
typedef struct fmuc_sandbox_plan {
    const fmuc_sandbox_config *cfg;   /* never NULL (defaults when the spec had none) */
    int drop;                         /* euid 0 and not --no-privilege-drop */
    int uid, gid;
    char *scratch;                    /* per-worker scratch directory (malloc'ed, absolute) */
    int record;                       /* install the seccomp recording (spec->record_sandbox) */
    int record_only;                  /* ... that refuses nothing itself (record_sandbox 2) */
    int reused;                       /* scratch is the FMU's shared one: emptied, not removed */
    char **read;                      /* readable beneath (malloc'ed absolute paths): the FMU's
                                         temp and extraction folders, the user's input files */
    size_t nread;
    char **env;                       /* the worker's whole environment ("NAME=value") */
    size_t nenv;
} fmuc_sandbox_plan;

/** Parent: create the worker's scratch directory under base_dir (the FMU's temp dir, else
 *  tmp_parent/$TMPDIR//tmp) and, when dropping root, make the FMU's extracted tree readable (not
 *  writable) for the worker's group and the scratch directory its own. */
fmuc_err fmuc_sandbox__prepare(fmuc_sandbox_plan *plan, const fmuc_sandbox_config *cfg,
                               const char *fmu_tmp_dir, const char *tmp_parent, fmuc_diag *diag);
/** Parent, after prepare: what the worker may read besides the system folders (paths kept as
 *  copies; NULL entries skipped) and its environment (minimal set, --pass-env variables). */
fmuc_err fmuc_sandbox__plan_access(fmuc_sandbox_plan *plan, const char *const *read,
                                   size_t nread, fmuc_diag *diag);
/** Parent: remove the scratch directory and free the plan. */
void fmuc_sandbox__cleanup(fmuc_sandbox_plan *plan);

/** Child (after fds and rlimits, before FMU code): apply the sandbox and record what was achieved
 *  in sb. Returns 0, or -1 after writing sb->setup_error (the worker must then exit). */
int fmuc_sandbox__apply(const fmuc_sandbox_plan *plan, fmuc_w_sandbox *sb, int parent_pid);

/** Parent: decode sb (untrusted) into the outcome's isolation and sandbox fields. */
void fmuc_sandbox__decode(const fmuc_w_sandbox *sb, fmuc_worker_outcome *out);

#endif
