/* Worker sandbox (robustness B11, B12, E06, E08): what confines the FMU code in a worker beyond
 * the process isolation of fmuc_worker.h.
 *
 * In every worker, before any FMU code runs:
 *   - a minimal environment (PATH=/usr/bin:/bin, HOME and TMPDIR the scratch directory, LANG=C,
 *     and the --pass-env variables); the caller's original environment block (what
 *     /proc/self/environ shows) is overwritten;
 *   - the FMU library is loaded into a link-map namespace of its own (loader.c);
 *   - PR_SET_NO_NEW_PRIVS;
 *   - when the worker would run as root: drop to the "nobody" user (setgroups(0), setgid, setuid,
 *     verified), unless the user asked for --no-privilege-drop;
 *   - cwd and $TMPDIR become a per-worker scratch directory (the only writable place);
 * and at the "strict" level, as far as the kernel offers it:
 *   - Landlock: every write-type filesystem access denied except beneath the scratch directory,
 *     harmless devices (/dev/null, /dev/zero, /dev/full), the worker's own /proc/<pid> and the
 *     --allow-write folders; reading and execution denied except beneath the FMU's temp folder,
 *     the scratch directory, the system's read-only folders (/usr, /lib*, /bin, /sbin, /etc,
 *     /opt, /sys), a few /proc and /dev files, the files the worker has mapped and the user's
 *     input files (--input, --reference, --energy-spec, --compare);
 *   - signals and ptrace confined to the worker's own Landlock domain (ABI 6 signal scope;
 *     ptrace is confined by every Landlock ABI), else a seccomp filter that lets signals,
 *     ptrace and process_vm_* reach only the worker itself and its process group;
 *   - network denied: a new network namespace (directly as root, or inside a new user namespace)
 *     and, with Landlock ABI >= 4, TCP bind/connect denied;
 *   - seccomp user notification that records write-type file calls outside the allowed folders
 *     and network calls (bounded list: syscall, path or address, errno) for the api-sandbox check.
 * Landlock and the network namespace are the enforcement; the seccomp record is evidence only
 * (native FMU code could tamper with the recording thread, not with the kernel's enforcement). */
#ifndef FMUC_SANDBOX_H
#define FMUC_SANDBOX_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "fmuc/fmuc_err.h"

typedef enum {
    FMUC_ISOLATION_AUTO = 0,   /* the strongest the kernel offers (default) */
    FMUC_ISOLATION_BASIC,      /* process isolation, no_new_privs, privilege drop only */
    FMUC_ISOLATION_STRICT      /* like auto, but refuse (exit 64) when a part is missing */
} fmuc_isolation_mode;

#define FMUC_SANDBOX_MAX_ALLOW 16

/** What the user asked for (CLI options). Zeroed = defaults (auto, network denied, drop root). */
typedef struct fmuc_sandbox_config {
    fmuc_isolation_mode mode;          /* --isolation */
    int require_strict;                /* --require-isolation strict */
    int network_allow;                 /* --network allow */
    int no_privilege_drop;             /* --no-privilege-drop */
    const char *allow_write[FMUC_SANDBOX_MAX_ALLOW]; /* --allow-write DIR (absolute, resolved) */
    size_t nallow_write;
    int network_isolated;              /* set by fmuc_sandbox_isolate_network: the calling
                                          process, and so every worker, has its own network
                                          namespace already */
    int nobody_known;                  /* nobody_uid/gid below are resolved (else each worker */
    int nobody_uid, nobody_gid;        /* looks "nobody" up: an NSS lookup per worker) */
    const char *pass_env[FMUC_SANDBOX_MAX_ALLOW]; /* --pass-env NAME: variables of the caller
                                          that FMU code sees beside the minimal environment */
    size_t npass_env;
    int force_signal_seccomp;          /* tests: confine signals with the seccomp fallback even
                                          where Landlock scopes them */
    int scratch_lane;                  /* 0: the workers of one FMU share the scratch folder
                                          "scratch" of its temp folder; k > 0: "scratch-lane<k>"
                                          (the runner's lane k runs its workers beside the other
                                          lane's, checks/runner.c) */
} fmuc_sandbox_config;

/** What the kernel offers, probed without changing the calling process. */
typedef struct fmuc_sandbox_probe {
    int landlock_abi;        /* 0: unavailable */
    int seccomp;             /* seccomp filters with user notification (and CONTINUE) */
    int netns;               /* unshare(CLONE_NEWNET) works directly (root) */
    int userns_netns;        /* unshare(CLONE_NEWUSER) then CLONE_NEWNET works */
    int euid;
} fmuc_sandbox_probe;

/** Probe the kernel (forks a short-lived child for the namespace tests). */
void fmuc_sandbox_probe_run(fmuc_sandbox_probe *p);

/** What one worker actually achieved (filled by the worker, decoded by the parent). */
typedef struct fmuc_isolation {
    int known;               /* the worker reported it (0: it never got that far) */
    int strict;              /* every part of the strict level is in place */
    int no_new_privs;
    int uid, gid;            /* the worker's credentials after the drop */
    int privilege_drop;      /* 1 dropped root, 0 not needed (not root), -1 disabled by option */
    int landlock_abi;        /* ABI of the applied ruleset, 0 none */
    int landlock_net;        /* TCP bind/connect denied by Landlock */
    int seccomp;             /* recording filter installed */
    int netns;               /* 1 own network namespace, 2 via a user namespace, 0 none */
    int network_deny;        /* network confinement requested (not --network allow) */
    int basic_requested;     /* --isolation basic */
    int fs_read;             /* reads confined by Landlock (FMU, scratch, system folders) */
    int signals;             /* signal/ptrace confinement: 1 Landlock scope, 2 seccomp, 0 none */
    int env_minimal;         /* FMU code saw the minimal environment only */
    int symbols_global;      /* under valgrind: FMU libraries share fmucheck's symbol scope */
    int private_tmp;         /* /tmp (bit 0) and /dev/shm (bit 1) are the worker's own: an empty
                              * tmpfs with what it needs of the host's bound back */
    char missing[256];       /* comma-separated parts missing for "strict" ("" when none) */
} fmuc_isolation;

/** report.json "isolation" object: level, parts, missing list. */
cJSON *fmuc_isolation_json(const fmuc_isolation *iso);

/** Give the calling process (the CLI: it needs no network) its own, empty network namespace once,
 *  so that workers inherit it instead of each creating one (a namespace costs about 0.3 ms to
 *  make and more to tear down, per worker). Only as root, only when the network is to be denied
 *  and the level is not basic; sets cfg->network_isolated on success. Without it, or when it
 *  fails, every worker unshares its own. Returns 1 when isolated, 0 otherwise. */
int fmuc_sandbox_isolate_network(fmuc_sandbox_config *cfg);

/** Resolve once what every worker needs from the system (the uid/gid a root worker drops to)
 *  into cfg, so that workers do not repeat the lookup. */
void fmuc_sandbox_config_resolve(fmuc_sandbox_config *cfg);

/** Parse "auto"/"basic"/"strict"; -1 on anything else. */
int fmuc_sandbox_parse_mode(const char *s);

/** The user id/group id a root worker drops to ("nobody", else 65534). */
void fmuc_sandbox_nobody(int *uid, int *gid);

/** Run a trivial worker under cfg to learn what isolation workers get here; *iso filled. A
 *  negative fmuc_err when the sandbox cannot be set up (an environment error: exit 64) or when
 *  cfg->require_strict / FMUC_ISOLATION_STRICT and a part is missing (diag names the parts). */
fmuc_err fmuc_sandbox_preflight(const fmuc_sandbox_config *cfg, const char *tmp_parent,
                                fmuc_isolation *iso, fmuc_diag *diag);

#endif
