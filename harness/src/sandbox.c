/* Worker sandbox: probe, parent-side preparation (scratch directory, permissions for the dropped
 * user), child-side confinement (no_new_privs, network namespace, privilege drop, Landlock,
 * seccomp recording supervised by a thread of the worker) and the decoding of what the worker
 * recorded. See fmuc_sandbox.h; robustness B11, B12, E06, E08. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <pthread.h>
#include <pwd.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fmuc/fmuc_proc.h"
#include "sandbox_internal.h"
#include "worker_internal.h"

/* Landlock UAPI, spelled out here: Debian 12's kernel headers stop at ABI 2. */
#define LL_CREATE_RULESET_VERSION (1u << 0)
#define LL_RULE_PATH_BENEATH 1
#define LL_RULE_NET_PORT 2
#define LL_FS_EXECUTE (1ull << 0)
#define LL_FS_WRITE_FILE (1ull << 1)
#define LL_FS_READ_FILE (1ull << 2)
#define LL_FS_READ_DIR (1ull << 3)
#define LL_FS_REMOVE_DIR (1ull << 4)
#define LL_FS_REMOVE_FILE (1ull << 5)
#define LL_FS_MAKE_CHAR (1ull << 6)
#define LL_FS_MAKE_DIR (1ull << 7)
#define LL_FS_MAKE_REG (1ull << 8)
#define LL_FS_MAKE_SOCK (1ull << 9)
#define LL_FS_MAKE_FIFO (1ull << 10)
#define LL_FS_MAKE_BLOCK (1ull << 11)
#define LL_FS_MAKE_SYM (1ull << 12)
#define LL_FS_REFER (1ull << 13)     /* ABI 2 */
#define LL_FS_TRUNCATE (1ull << 14)  /* ABI 3 */
#define LL_FS_IOCTL_DEV (1ull << 15) /* ABI 5 */
#define LL_NET_BIND_TCP (1ull << 0)  /* ABI 4 */
#define LL_NET_CONNECT_TCP (1ull << 1)
#define LL_SCOPE_ABSTRACT_UNIX (1ull << 0) /* ABI 6 */
#define LL_SCOPE_SIGNAL (1ull << 1)        /* ABI 6 */

struct ll_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

struct ll_path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

#ifndef SECCOMP_USER_NOTIF_FLAG_CONTINUE
#define SECCOMP_USER_NOTIF_FLAG_CONTINUE (1UL << 0)
#endif
#ifndef SECCOMP_GET_ACTION_AVAIL
#define SECCOMP_GET_ACTION_AVAIL 2
#endif
#ifndef SECCOMP_RET_USER_NOTIF
#define SECCOMP_RET_USER_NOTIF 0x7fc00000U
#endif

#define NOBODY_ID 65534

static int ll_abi(void)
{
#ifdef SYS_landlock_create_ruleset
    long v = syscall(SYS_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
    return v > 0 ? (int)v : 0;
#else
    return 0;
#endif
}

static int seccomp_notify_available(void)
{
    uint32_t action = SECCOMP_RET_USER_NOTIF;
    if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0 && errno == EINVAL)
        return 0;
    return syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
}

static int write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, strlen(text));
    close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* Unprivileged: a user namespace mapping our ids onto themselves (the capabilities to make
 * network and mount namespaces, within it). */
static int unshare_user(void)
{
    char map[64];
    uid_t uid = geteuid();
    gid_t gid = getegid();
    if (unshare(CLONE_NEWUSER) < 0)
        return -1;
    snprintf(map, sizeof map, "%lu %lu 1\n", (unsigned long)uid, (unsigned long)uid);
    if (write_file("/proc/self/uid_map", map) < 0)
        return -1;
    write_file("/proc/self/setgroups", "deny");
    snprintf(map, sizeof map, "%lu %lu 1\n", (unsigned long)gid, (unsigned long)gid);
    if (write_file("/proc/self/gid_map", map) < 0)
        return -1;
    return 0;
}

/* Unprivileged: a user namespace, then a network namespace. */
static int unshare_user_net(void)
{
    return unshare_user() == 0 ? unshare(CLONE_NEWNET) : -1;
}

static int probe_child(int which)
{
    pid_t pid = fork();
    int st;
    if (pid < 0)
        return 0;
    if (pid == 0) {
        int rc = which == 0 ? unshare(CLONE_NEWNET) : unshare_user_net();
        _exit(rc == 0 ? 0 : 1);
    }
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return 0;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

void fmuc_sandbox_probe_run(fmuc_sandbox_probe *p)
{
    memset(p, 0, sizeof *p);
    p->euid = (int)geteuid();
    p->landlock_abi = ll_abi();
    p->seccomp = seccomp_notify_available();
    p->netns = probe_child(0);
    p->userns_netns = p->netns ? 0 : probe_child(1);
}

int fmuc_sandbox_isolate_network(fmuc_sandbox_config *cfg)
{
    if (cfg->network_isolated)
        return 1;
    if (cfg->mode == FMUC_ISOLATION_BASIC || cfg->network_allow || geteuid() != 0)
        return 0;
    if (unshare(CLONE_NEWNET) != 0)
        return 0;
    cfg->network_isolated = 1;
    return 1;
}

int fmuc_sandbox_parse_mode(const char *s)
{
    if (!s)
        return -1;
    if (!strcmp(s, "auto"))
        return FMUC_ISOLATION_AUTO;
    if (!strcmp(s, "basic"))
        return FMUC_ISOLATION_BASIC;
    if (!strcmp(s, "strict"))
        return FMUC_ISOLATION_STRICT;
    return -1;
}

void fmuc_sandbox_nobody(int *uid, int *gid)
{
    struct passwd pw, *res = NULL;
    char buf[2048];
    *uid = NOBODY_ID;
    *gid = NOBODY_ID;
    if (getpwnam_r("nobody", &pw, buf, sizeof buf, &res) == 0 && res && res->pw_uid != 0 &&
        res->pw_gid != 0) {
        *uid = (int)res->pw_uid;
        *gid = (int)res->pw_gid;
    }
}

void fmuc_sandbox_config_resolve(fmuc_sandbox_config *cfg)
{
    if (cfg->nobody_known)
        return;
    fmuc_sandbox_nobody(&cfg->nobody_uid, &cfg->nobody_gid);
    cfg->nobody_known = 1;
}

/* ---- reporting ----------------------------------------------------------------------------- */

cJSON *fmuc_isolation_json(const fmuc_isolation *iso)
{
    cJSON *o = cJSON_CreateObject(), *m;
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "level", iso->known ? (iso->strict ? "strict" : "basic") : "unknown");
    cJSON_AddNumberToObject(o, "landlockAbi", iso->landlock_abi);
    cJSON_AddBoolToObject(o, "landlockNetwork", iso->landlock_net);
    cJSON_AddBoolToObject(o, "seccomp", iso->seccomp);
    cJSON_AddBoolToObject(o, "networkNamespace", iso->netns != 0);
    if (iso->netns == 2)
        cJSON_AddBoolToObject(o, "userNamespace", 1);
    cJSON_AddNumberToObject(o, "uid", iso->uid);
    cJSON_AddNumberToObject(o, "gid", iso->gid);
    cJSON_AddStringToObject(o, "privilegeDrop", iso->privilege_drop > 0    ? "dropped"
                                                 : iso->privilege_drop < 0 ? "disabled"
                                                                           : "not-root");
    cJSON_AddBoolToObject(o, "noNewPrivs", iso->no_new_privs);
    cJSON_AddStringToObject(o, "network", iso->network_deny ? "deny" : "allow");
    /* issue 16: what FMU code can see and reach beyond its own process */
    cJSON_AddStringToObject(o, "symbolScope", /* loader.c: dlmopen, except under valgrind */
                            iso->symbols_global ? "shared-with-fmucheck (valgrind)"
                                                : "own-namespace");
    cJSON_AddStringToObject(o, "environment", iso->env_minimal ? "minimal" : "inherited");
    cJSON_AddStringToObject(o, "filesystemRead", iso->fs_read ? "confined" : "unconfined");
    /* make_private_tmp: the folders the worker had of its own */
    m = cJSON_AddArrayToObject(o, "privateFolders");
    if (m && (iso->private_tmp & FMUC_SB_PRIVATE_TMP))
        cJSON_AddItemToArray(m, cJSON_CreateString("/tmp"));
    if (m && (iso->private_tmp & FMUC_SB_PRIVATE_SHM))
        cJSON_AddItemToArray(m, cJSON_CreateString("/dev/shm"));
    cJSON_AddStringToObject(o, "signalsAndPtrace", iso->signals == 1   ? "landlock-scope"
                                                   : iso->signals == 2 ? "seccomp"
                                                                       : "unconfined");
    m = cJSON_AddArrayToObject(o, "missing");
    if (m && iso->missing[0]) {
        char tmp[sizeof iso->missing], *save = NULL, *tok;
        snprintf(tmp, sizeof tmp, "%s", iso->missing);
        for (tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
            cJSON_AddItemToArray(m, cJSON_CreateString(tok));
    }
    return o;
}

/* ---- parent: preparation ----------------------------------------------------------------- */

/* The workers of one FMU run one after the other, so they share one scratch directory in the
 * FMU's private temp folder, emptied after each worker (a mkdir per worker costs more than the
 * worker's own setup). Workers without an FMU get their own. The runner's lanes run workers side
 * by side: each lane has a scratch directory of its own (cfg->scratch_lane). */
#define SHARED_SCRATCH "scratch"

/* "<fmu_tmp_dir>/scratch" or ".../scratch-lane<k>" (malloc'ed), NULL: out of memory */
static char *scratch_path(const fmuc_sandbox_plan *plan, const char *fmu_tmp_dir)
{
    size_t n = strlen(fmu_tmp_dir) + sizeof SHARED_SCRATCH + 32;
    char *path = malloc(n);
    if (!path)
        return NULL;
    if (plan->cfg->scratch_lane > 0)
        snprintf(path, n, "%s/%s-lane%d", fmu_tmp_dir, SHARED_SCRATCH, plan->cfg->scratch_lane);
    else
        snprintf(path, n, "%s/%s", fmu_tmp_dir, SHARED_SCRATCH);
    return path;
}

static void empty_scratch(const char *dir);

/* 1 when dir holds an entry (or cannot be read) */
static int scratch_used(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 1;
    const struct dirent *e;
    int used = 0;
    while (!used && (e = readdir(d)) != NULL)
        used = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return used;
}

static int reuse_scratch(fmuc_sandbox_plan *plan, const char *fmu_tmp_dir)
{
    char *path = scratch_path(plan, fmu_tmp_dir);
    struct stat st;
    if (!path)
        return 0;
    /* only our own directory as we left it: no link, the owner the workers need */
    if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode) ||
        (plan->drop ? (int)st.st_uid != plan->uid : st.st_uid != geteuid())) {
        free(path);
        return 0;
    }
    /* a worker killed with its lane (checks/runner.c) or by a signal left its files: they go
     * first, so no worker sees another's */
    if (scratch_used(path)) {
        empty_scratch(path);
        if (lstat(path, &st) != 0) { /* could not be emptied, so removed: a new one is made */
            free(path);
            return 0;
        }
    }
    plan->scratch = path;
    plan->reused = 1;
    return 1;
}

static fmuc_err mk_scratch(fmuc_sandbox_plan *plan, const char *base, const char *fmu_tmp_dir,
                           fmuc_diag *diag)
{
    size_t n = strlen(base) + 32 + (fmu_tmp_dir ? strlen(fmu_tmp_dir) : 0);
    char *templ = malloc(n);
    if (!templ)
        return fmuc_diag_set(diag, FMUC_ENOMEM, "sandbox: out of memory");
    if (fmu_tmp_dir && *fmu_tmp_dir) {
        char *path = scratch_path(plan, fmu_tmp_dir);
        if (!path) {
            free(templ);
            return fmuc_diag_set(diag, FMUC_ENOMEM, "sandbox: out of memory");
        }
        if (mkdir(path, 0700) == 0) {
            free(templ);
            plan->scratch = path;
            plan->reused = 1;
            return FMUC_OK;
        }
        if (errno != EEXIST) {
            fmuc_err e = fmuc_diag_set(diag, FMUC_EIO,
                                       "sandbox: cannot create the worker's scratch directory "
                                       "%s: %s", path, strerror(errno));
            free(path);
            free(templ);
            return e;
        }
        free(path);
    }
    snprintf(templ, n, "%s/scratch-XXXXXX", base);
    if (!mkdtemp(templ)) {
        fmuc_err e = fmuc_diag_set(diag, FMUC_EIO,
                                   "sandbox: cannot create the worker's scratch directory in %s: %s",
                                   base, strerror(errno));
        free(templ);
        return e;
    }
    plan->scratch = realpath(templ, NULL);
    if (!plan->scratch) {
        rmdir(templ);
        free(templ);
        return fmuc_diag_set(diag, FMUC_EIO, "sandbox: cannot resolve the scratch directory in %s",
                             base);
    }
    free(templ);
    return FMUC_OK;
}

/* Give group gid read (and traverse/execute where the owner has it) on a tree we own, never
 * write. Symlinks are not followed (the extraction never creates any). */
static int share_tree(int dirfd, gid_t gid, int depth)
{
    DIR *d;
    struct dirent *de;
    int rc = 0;
    if (depth > 64)
        return -1;
    d = fdopendir(dirfd);
    if (!d) {
        close(dirfd);
        return -1;
    }
    while ((de = readdir(d)) != NULL) {
        struct stat st;
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
            continue;
        if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
            continue;
        if (S_ISDIR(st.st_mode) && !strncmp(de->d_name, "scratch-", 8))
            continue; /* another worker's scratch: its own */
        mode_t m = (st.st_mode & 07777 & ~(mode_t)(S_IWGRP | S_IWOTH)) | S_IRGRP;
        if (S_ISDIR(st.st_mode) || (st.st_mode & S_IXUSR))
            m |= S_IXGRP;
        if (fchownat(dirfd, de->d_name, (uid_t)-1, gid, AT_SYMLINK_NOFOLLOW) < 0 ||
            fchmodat(dirfd, de->d_name, m, 0) < 0)
            rc = -1;
        if (S_ISDIR(st.st_mode)) {
            int sub = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub < 0 || share_tree(sub, gid, depth + 1) < 0)
                rc = -1;
        }
    }
    closedir(d);
    return rc;
}

static int beneath(const char *path, const char *dir);

/* Every ancestor of path must let uid/gid traverse it. Our own temp parent (owned by us) gets
 * o+x when it lacks it; anything else blocking is an environment error naming the folder. */
static fmuc_err ensure_traverse(const char *path, int uid, int gid, const char *own_parent,
                                fmuc_diag *diag)
{
    char buf[PATH_MAX];
    size_t len = strlen(path);
    if (len >= sizeof buf)
        return fmuc_diag_set(diag, FMUC_EIO, "sandbox: path too long: %s", path);
    memcpy(buf, path, len + 1);
    for (size_t i = 1; i <= len; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        char save = buf[i];
        buf[i] = '\0';
        struct stat st;
        if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode)) {
            int ok = (st.st_mode & S_IXOTH) || ((int)st.st_gid == gid && (st.st_mode & S_IXGRP)) ||
                     ((int)st.st_uid == uid && (st.st_mode & S_IXUSR));
            /* search (not list) permission on our own folders: the temp parent, or any of
             * ours beneath the system temp folders (a test's mkdtemp tree) */
            if (!ok && st.st_uid == geteuid() &&
                ((own_parent && !strcmp(buf, own_parent)) || beneath(buf, "/tmp") ||
                 beneath(buf, "/var/tmp") || beneath(buf, "/dev/shm")) &&
                strcmp(buf, "/tmp") && strcmp(buf, "/var/tmp"))
                ok = chmod(buf, (st.st_mode & 07777) | S_IXOTH) == 0;
            if (!ok) {
                fmuc_err e = fmuc_diag_set(
                    diag, FMUC_EIO,
                    "sandbox: the worker user (uid %d) cannot enter %s (mode %03o); choose a "
                    "--tmpdir it can reach or pass --no-privilege-drop",
                    uid, buf, (unsigned)(st.st_mode & 0777));
                return e;
            }
        }
        buf[i] = save;
    }
    return FMUC_OK;
}

fmuc_err fmuc_sandbox__prepare(fmuc_sandbox_plan *plan, const fmuc_sandbox_config *cfg,
                               const char *fmu_tmp_dir, const char *tmp_parent, fmuc_diag *diag)
{
    static const fmuc_sandbox_config defaults; /* const: all zero = default config */
    const char *base = fmu_tmp_dir;
    char *parent_dir = NULL;
    fmuc_err err;

    memset(plan, 0, sizeof *plan);
    plan->cfg = cfg ? cfg : &defaults;
    plan->drop = geteuid() == 0 && !plan->cfg->no_privilege_drop;
    if (plan->drop && plan->cfg->nobody_known) {
        plan->uid = plan->cfg->nobody_uid;
        plan->gid = plan->cfg->nobody_gid;
    } else if (plan->drop) {
        fmuc_sandbox_nobody(&plan->uid, &plan->gid);
    }
    if (!base || !*base)
        base = tmp_parent;
    if (!base || !*base)
        base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    if (fmu_tmp_dir && *fmu_tmp_dir && reuse_scratch(plan, fmu_tmp_dir))
        return FMUC_OK; /* set up by an earlier worker of this FMU, emptied after it */
    err = mk_scratch(plan, base, fmu_tmp_dir, diag);
    if (err < 0)
        return err;
    if (!plan->drop)
        return FMUC_OK;

    if (chown(plan->scratch, (uid_t)plan->uid, (gid_t)plan->gid) < 0 || chmod(plan->scratch, 0700) < 0) {
        err = fmuc_diag_set(diag, FMUC_EIO, "sandbox: cannot hand the scratch directory %s to uid %d: %s",
                            plan->scratch, plan->uid, strerror(errno));
        goto fail;
    }
    if (fmu_tmp_dir && *fmu_tmp_dir) {
        struct stat st;
        /* the FMU's temp tree: shared with the worker's group once (idempotent per FMU) */
        if (stat(fmu_tmp_dir, &st) < 0) {
            err = fmuc_diag_set(diag, FMUC_EIO, "sandbox: %s: %s", fmu_tmp_dir, strerror(errno));
            goto fail;
        }
        if ((int)st.st_gid != plan->gid || !(st.st_mode & S_IXGRP)) {
            int fd = open(fmu_tmp_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (fd < 0 || share_tree(fd, (gid_t)plan->gid, 0) < 0 ||
                chown(fmu_tmp_dir, (uid_t)-1, (gid_t)plan->gid) < 0 ||
                chmod(fmu_tmp_dir, (st.st_mode & 0700) | S_IRGRP | S_IXGRP) < 0) {
                err = fmuc_diag_set(diag, FMUC_EIO,
                                    "sandbox: cannot make the extracted FMU in %s readable for "
                                    "gid %d: %s", fmu_tmp_dir, plan->gid, strerror(errno));
                goto fail;
            }
        }
        parent_dir = strdup(fmu_tmp_dir);
        if (parent_dir) {
            char *slash = strrchr(parent_dir, '/');
            if (slash && slash != parent_dir)
                *slash = '\0';
        }
    }
    err = ensure_traverse(plan->scratch, plan->uid, plan->gid,
                          parent_dir ? parent_dir : base, diag);
    free(parent_dir);
    if (err < 0)
        goto fail;
    return FMUC_OK;
fail:
    fmuc_sandbox__cleanup(plan);
    return err;
}

/* Remove what a worker left in the shared scratch directory; if that fails, the directory goes
 * (the next worker makes a private one). */
static void empty_scratch(const char *dir)
{
    /* the worker may have changed its mode: restore it first (the next worker needs it as it was
     * made, and removing entries needs write permission) */
    if (chmod(dir, 0700) != 0 || fmuc_rmtree_contents(dir) < 0)
        fmuc_rmtree(dir);
}

static void free_list(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

void fmuc_sandbox__cleanup(fmuc_sandbox_plan *plan)
{
    free_list(plan->read, plan->nread);
    free_list(plan->env, plan->nenv);
    plan->read = plan->env = NULL;
    plan->nread = plan->nenv = 0;
    if (plan->scratch) {
        if (plan->reused)
            empty_scratch(plan->scratch);
        else
            fmuc_rmtree(plan->scratch);
        free(plan->scratch);
    }
    plan->scratch = NULL;
}

/* The environment FMU code sees (issue 16): nothing of the caller's beyond what an FMU can need
 * to run. PATH: the system's programs (an FMU may start a tool); HOME and TMPDIR: the scratch
 * directory, the only writable place (tools write ~/.config, tmpfile()); LANG=C: the locale a
 * process starts with anyway, spelled out for tools that read it. Whatever else an FMU needs
 * (a licence server, its execution tool) the user names with --pass-env. */
static char *env_entry(const char *name, const char *value)
{
    size_t n = strlen(name) + strlen(value) + 2;
    char *e = malloc(n);
    if (e)
        snprintf(e, n, "%s=%s", name, value);
    return e;
}

fmuc_err fmuc_sandbox__plan_access(fmuc_sandbox_plan *plan, const char *const *read,
                                   size_t nread, fmuc_diag *diag)
{
    const fmuc_sandbox_config *cfg = plan->cfg;
    const char *scratch = plan->scratch ? plan->scratch : "/nonexistent";
    plan->read = calloc(nread + 1, sizeof *plan->read);
    plan->env = calloc(4 + cfg->npass_env + 1, sizeof *plan->env);
    if (!plan->read || !plan->env)
        return fmuc_diag_set(diag, FMUC_ENOMEM, "sandbox: out of memory");
    for (size_t i = 0; i < nread; i++) {
        if (!read[i] || read[i][0] != '/')
            continue;
        if (!(plan->read[plan->nread] = strdup(read[i])))
            return fmuc_diag_set(diag, FMUC_ENOMEM, "sandbox: out of memory");
        plan->nread++;
    }
    const char *fixed[4][2] = {{"PATH", "/usr/bin:/bin"}, {"HOME", scratch},
                               {"TMPDIR", scratch}, {"LANG", "C"}};
    for (size_t i = 0; i < 4; i++)
        if (!(plan->env[plan->nenv++] = env_entry(fixed[i][0], fixed[i][1])))
            return fmuc_diag_set(diag, FMUC_ENOMEM, "sandbox: out of memory");
    for (size_t i = 0; i < cfg->npass_env; i++) {
        const char *v = cfg->pass_env[i] ? getenv(cfg->pass_env[i]) : NULL;
        if (!v)
            continue;
        if (!(plan->env[plan->nenv] = env_entry(cfg->pass_env[i], v)))
            return fmuc_diag_set(diag, FMUC_ENOMEM, "sandbox: out of memory");
        plan->nenv++;
    }
    return FMUC_OK;
}

/* ---- child: environment -------------------------------------------------------------------- */

extern char **environ;

/* A block the kernel gave the process, from fields `field` and `field + 1` of /proc/self/stat:
 * the arguments (48, arg_start..arg_end: what /proc/self/cmdline shows) or the environment (50,
 * env_start..env_end: /proc/self/environ). 0 and *start = *end = 0 when unknown. */
static int stat_block(int first, uintptr_t *start, uintptr_t *end)
{
    unsigned long long v[2];
    *start = *end = 0;
    if (fmuc_proc_stat(0, NULL, first, 2, v) != 0)
        return -1;
    if (!v[0] || v[1] <= v[0] || v[1] - v[0] > (64u << 20))
        return -1;
    *start = (uintptr_t)v[0];
    *end = (uintptr_t)v[1];
    return 0;
}

/* Replace the caller's environment by the plan's. A forked worker still holds the caller's
 * variables: the strings environ points to (the kernel's block and setenv copies) are
 * overwritten, and so is the kernel's block that /proc/self/environ shows, when environ's
 * strings are in it (under valgrind the block is valgrind's own, not the program's). */
/* valgrind's preloaded objects are mapped in every process it runs */
static int under_valgrind(void)
{
    char line[4096];
    int found = 0;
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f)
        return 0;
    while (!found && fgets(line, sizeof line, f))
        found = strstr(line, "/vgpreload_") != NULL;
    fclose(f);
    return found;
}

/* The caller's command line (its files, options and --pass-env names) is the caller's too: the
 * arguments after the program's name are overwritten in the kernel's block that
 * /proc/self/cmdline shows, when the program's name is in it (not under valgrind). */
static void clear_arguments(void)
{
    uintptr_t start, end;
    const char *name = program_invocation_name;
    if (stat_block(48, &start, &end) != 0 || !name || (uintptr_t)name != start)
        return;
    size_t keep = strnlen(name, end - start) + 1;
    if (keep < end - start)
        memset((char *)start + keep, 0, end - start - keep);
}

static int set_minimal_env(const fmuc_sandbox_plan *plan)
{
    uintptr_t start, end;
    int in_block = 0;
    clear_arguments();
    stat_block(50, &start, &end);
    for (char **e = environ; e && *e; e++) {
        uintptr_t a = (uintptr_t)*e;
        if (a >= start && a < end)
            in_block = 1;
        memset(*e, 0, strlen(*e));
    }
    if (in_block)
        memset((void *)start, 0, end - start);
    if (clearenv() != 0)
        return -1;
    for (size_t i = 0; i < plan->nenv; i++)
        if (putenv(plan->env[i]) != 0) /* the plan's strings live as long as the worker */
            return -1;
    return 0;
}

/* ---- child: recording ---------------------------------------------------------------------- */

/* The most host paths bound back into the private folders (make_private_tmp). */
#define PRIVATE_BINDS 96

/* The binds of the private folders and whether each is writable, for the recorder (the
 * worker's own memory, made before the recorder starts). */
typedef struct priv_binds {
    char *path[PRIVATE_BINDS];
    int rw[PRIVATE_BINDS];
    size_t n;
} priv_binds;

typedef struct supervisor {
    const fmuc_sandbox_plan *plan;
    const priv_binds *binds;   /* NULL: no private folder */
    fmuc_w_sandbox *sb;
    int fd;                    /* notification fd, -1 until handed over */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct seccomp_notif *req;
    struct seccomp_notif_resp *resp;
    scmp_filter_ctx ctx;       /* owns fd; kept (reachable from here) for the worker's life */
} supervisor;

/* Read a NUL-terminated string of the traced process, page by page (a string may end just
 * before an unmapped page). 0 on success. */
static int read_remote_str(pid_t pid, uint64_t addr, char *buf, size_t n)
{
    size_t off = 0;
    if (!addr)
        return -1;
    while (off + 1 < n) {
        uint64_t a = addr + off;
        size_t chunk = 4096 - (size_t)(a & 4095);
        if (chunk > n - 1 - off)
            chunk = n - 1 - off;
        struct iovec l = {buf + off, chunk}, r = {(void *)(uintptr_t)a, chunk};
        ssize_t got = process_vm_readv(pid, &l, 1, &r, 1, 0);
        if (got <= 0)
            return -1;
        if (memchr(buf + off, '\0', (size_t)got))
            return 0;
        off += (size_t)got;
    }
    buf[n - 1] = '\0';
    return 0;
}

static int read_remote(pid_t pid, uint64_t addr, void *buf, size_t n)
{
    struct iovec l = {buf, n}, r = {(void *)(uintptr_t)addr, n};
    if (!addr)
        return -1;
    return process_vm_readv(pid, &l, 1, &r, 1, 0) == (ssize_t)n ? 0 : -1;
}

/* dst = a + sep + b, cut at n - 1 bytes (paths beyond the buffer are reported truncated). */
static void join3(char *dst, size_t n, const char *a, const char *sep, const char *b)
{
    size_t o = 0;
    const char *parts[3] = {a, sep, b};
    for (int i = 0; i < 3; i++)
        for (const char *p = parts[i]; *p && o + 1 < n; p++)
            dst[o++] = *p;
    dst[o] = '\0';
}

/* Lexical clean-up of an absolute path: "//", "/./" and "/x/../" removed. */
static void normalize(char *p)
{
    char out[PATH_MAX];
    size_t o = 0;
    const char *s = p;
    while (*s) {
        while (*s == '/')
            s++;
        if (!*s)
            break;
        const char *e = strchr(s, '/');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len == 1 && s[0] == '.') {
        } else if (len == 2 && s[0] == '.' && s[1] == '.') {
            while (o > 0 && out[o - 1] != '/')
                o--;
            if (o > 0)
                o--;
        } else if (o + 1 + len < sizeof out) {
            out[o++] = '/';
            memcpy(out + o, s, len);
            o += len;
        }
        s += len;
    }
    if (o == 0)
        out[o++] = '/';
    out[o] = '\0';
    memcpy(p, out, o + 1);
}

/* Absolute form of (dirfd, path) as the calling process sees it; the existing parent directory
 * is resolved through its symlinks (so a link in the scratch pointing outside is judged by
 * where it leads). */
static void resolve_path(pid_t pid, int dirfd, const char *path, char *out, size_t n)
{
    char base[PATH_MAX], link[64], full[PATH_MAX], dir[PATH_MAX], real[PATH_MAX];
    if (path[0] == '/') {
        snprintf(full, sizeof full, "%s", path);
    } else {
        ssize_t k;
        if (dirfd == AT_FDCWD)
            snprintf(link, sizeof link, "/proc/%ld/cwd", (long)pid);
        else
            snprintf(link, sizeof link, "/proc/%ld/fd/%d", (long)pid, dirfd);
        k = readlink(link, base, sizeof base - 1);
        if (k <= 0)
            snprintf(base, sizeof base, "?");
        else
            base[k] = '\0';
        join3(full, sizeof full, base, "/", path);
    }
    normalize(full);
    char leaf[PATH_MAX];
    join3(dir, sizeof dir, full, "", "");
    char *slash = strrchr(dir, '/');
    join3(leaf, sizeof leaf, slash ? slash + 1 : "", "", "");
    if (slash && slash != dir)
        *slash = '\0';
    else if (slash)
        dir[1] = '\0';
    if (realpath(dir, real))
        join3(out, n, real, strcmp(real, "/") ? "/" : "", leaf);
    else
        join3(out, n, full, "", "");
}

static int beneath(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    if (n == 1 && dir[0] == '/')
        return path[0] == '/'; /* everything is beneath the root */
    return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

static int in_private(int mask, const char *p);

/* 1: the worker may write at p; 0: Landlock refuses it; -1: the read-only bind of a host folder
 * in the worker's private /tmp or /dev/shm refuses it (EROFS) */
static int path_allowed(const supervisor *s, pid_t pid, const char *p)
{
    static const char *const devices[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/stdout",
                                          "/dev/stderr", "/dev/fd", "/proc/self",
                                          "/proc/thread-self"};
    char own[64];
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++)
        if (beneath(p, devices[i]))
            return 1;
    snprintf(own, sizeof own, "/proc/%ld", (long)getpid());
    if (beneath(p, own))
        return 1;
    (void)pid;
    if (s->plan->scratch && beneath(p, s->plan->scratch))
        return 1;
    for (size_t i = 0; i < s->plan->cfg->nallow_write; i++)
        if (s->plan->cfg->allow_write[i] && beneath(p, s->plan->cfg->allow_write[i]))
            return 1;
    if (in_private(s->sb->private_tmp, p)) {
        /* the longest bind that holds p decides; in none, p is the tmpfs's */
        size_t best = 0;
        int rw = 1;
        for (size_t i = 0; s->binds && i < s->binds->n; i++) {
            size_t l = strlen(s->binds->path[i]);
            if (l >= best && beneath(p, s->binds->path[i])) {
                best = l;
                rw = s->binds->rw[i];
            }
        }
        return rw ? 1 : -1;
    }
    return 0;
}

static void record(supervisor *s, int kind, pid_t pid, const char *call, const char *what,
                   int err, int violation, const char *enforced)
{
    fmuc_w_sandbox *sb = s->sb;
    sb->events_total++;
    if (violation)
        sb->violations_total++;
    if (sb->nevents >= FMUC_W_SB_EVENTS)
        return;
    fmuc_w_sb_event *e = &sb->ev[sb->nevents];
    e->kind = kind;
    e->pid = (int32_t)pid;
    e->err = err;
    e->violation = violation;
    snprintf(e->call, sizeof e->call, "%s", call);
    snprintf(e->what, sizeof e->what, "%s", what);
    snprintf(e->enforced, sizeof e->enforced, "%s", enforced ? enforced : "");
    sb->nevents++;
}

static void format_addr(const unsigned char *raw, size_t len, char *out, size_t n)
{
    sa_family_t fam;
    char ip[INET6_ADDRSTRLEN];
    memcpy(&fam, raw, sizeof fam);
    if (fam == AF_INET && len >= sizeof(struct sockaddr_in)) {
        struct sockaddr_in a;
        memcpy(&a, raw, sizeof a);
        inet_ntop(AF_INET, &a.sin_addr, ip, sizeof ip);
        snprintf(out, n, "%s:%u", ip, ntohs(a.sin_port));
    } else if (fam == AF_INET6 && len >= sizeof(struct sockaddr_in6)) {
        struct sockaddr_in6 a;
        memcpy(&a, raw, sizeof a);
        inet_ntop(AF_INET6, &a.sin6_addr, ip, sizeof ip);
        snprintf(out, n, "[%s]:%u", ip, ntohs(a.sin6_port));
    } else {
        snprintf(out, n, "address family %u", (unsigned)fam);
    }
}

static const char *family_name(int f, char *buf, size_t n)
{
    switch (f) {
    case AF_INET: return "AF_INET";
    case AF_INET6: return "AF_INET6";
    case AF_PACKET: return "AF_PACKET";
    default: snprintf(buf, n, "family %d", f); return buf;
    }
}

/* The decision for one notification: fills resp. */
static void handle(supervisor *s, const struct seccomp_notif *rq, struct seccomp_notif_resp *rs)
{
    const __u64 *a = rq->data.args;
    pid_t pid = (pid_t)rq->pid;
    int nr = rq->data.nr;
    /* the network is denied (policy); the recorder refuses a network call itself only when it
     * is not record-only (there the network namespace and Landlock answer, as in every other
     * worker, and the attempt is recorded all the same) */
    int deny_net = s->plan->cfg->network_allow ? 0 : 1;
    int refuse = deny_net && !s->plan->record_only;
    /* record only: the errno the call then gets is the kernel's, not known here (-1), and the
     * worker's own network isolation denies it (set up before the recording started) */
    const char *denier = "";
    if (refuse)
        denier = "seccomp";
    else if (deny_net && s->sb->netns)
        denier = "network namespace";
    else if (deny_net && s->sb->landlock_net)
        denier = "landlock";
    int net_err = refuse ? EACCES : deny_net ? -1 : 0;
    char *name = seccomp_syscall_resolve_num_arch(rq->data.arch, nr);
    const char *call = name ? name : "?";
    char p1[PATH_MAX], p2[PATH_MAX], r1[PATH_MAX], r2[PATH_MAX], what[FMUC_W_SB_TEXT];
    int dir1 = AT_FDCWD, dir2 = AT_FDCWD, two = 0, ok = 0;
    uint64_t a1 = 0, a2 = 0;

    rs->id = rq->id;
    rs->val = 0;
    rs->error = 0;
    rs->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;

    if (nr == SCMP_SYS(socket)) {
        char fb[32];
        int fam = (int)a[0];
        if (fam == AF_UNIX || fam == AF_NETLINK)
            goto out;
        int type = (int)a[1] & 0xf;
        snprintf(what, sizeof what, "%s, %s", family_name(fam, fb, sizeof fb),
                 type == SOCK_STREAM ? "SOCK_STREAM" : type == SOCK_DGRAM ? "SOCK_DGRAM"
                 : type == SOCK_RAW  ? "SOCK_RAW" : "other type");
        if (refuse) {
            rs->flags = 0;
            rs->error = -EACCES;
        }
        if (deny_net)
            record(s, FMUC_SB_EV_NET, pid, call, what, net_err, 1, denier);
        goto out;
    }
    if (nr == SCMP_SYS(connect) || nr == SCMP_SYS(bind) || nr == SCMP_SYS(sendto) ||
        nr == SCMP_SYS(sendmsg)) {
        unsigned char raw[128];
        uint64_t addr, alen;
        memset(raw, 0, sizeof raw);
        if (nr == SCMP_SYS(sendmsg)) {
            struct msghdr mh;
            if (read_remote(pid, a[1], &mh, sizeof mh) < 0 || !mh.msg_name)
                goto out;
            addr = (uint64_t)(uintptr_t)mh.msg_name;
            alen = mh.msg_namelen;
        } else if (nr == SCMP_SYS(sendto)) {
            addr = a[4];
            alen = a[5];
        } else {
            addr = a[1];
            alen = a[2];
        }
        if (alen < sizeof(sa_family_t))
            goto out;
        if (alen > sizeof raw)
            alen = sizeof raw;
        if (read_remote(pid, addr, raw, (size_t)alen) < 0)
            goto out;
        sa_family_t fam;
        memcpy(&fam, raw, sizeof fam);
        if (fam == AF_UNIX || fam == AF_NETLINK || fam == AF_UNSPEC)
            goto out;
        format_addr(raw, (size_t)alen, what, sizeof what);
        if (refuse) {
            rs->flags = 0;
            rs->error = -EACCES;
        }
        record(s, FMUC_SB_EV_NET, pid, call, what, net_err, deny_net, denier);
        goto out;
    }

    /* filesystem: which arguments hold the path(s) */
    if (nr == SCMP_SYS(open) || nr == SCMP_SYS(creat) || nr == SCMP_SYS(mkdir) ||
        nr == SCMP_SYS(unlink) || nr == SCMP_SYS(rmdir) || nr == SCMP_SYS(truncate) ||
        nr == SCMP_SYS(mknod)) {
        a1 = a[0];
    } else if (nr == SCMP_SYS(openat) || nr == SCMP_SYS(openat2) || nr == SCMP_SYS(mkdirat) ||
               nr == SCMP_SYS(unlinkat) || nr == SCMP_SYS(mknodat)) {
        dir1 = (int)a[0];
        a1 = a[1];
    } else if (nr == SCMP_SYS(rename) || nr == SCMP_SYS(link) || nr == SCMP_SYS(symlink)) {
        a1 = a[0];
        a2 = a[1];
        two = 1;
    } else if (nr == SCMP_SYS(renameat) || nr == SCMP_SYS(renameat2) || nr == SCMP_SYS(linkat)) {
        dir1 = (int)a[0];
        a1 = a[1];
        dir2 = (int)a[2];
        a2 = a[3];
        two = 1;
    } else if (nr == SCMP_SYS(symlinkat)) {
        a1 = a[0];
        dir2 = (int)a[1];
        a2 = a[2];
        two = 1;
    } else {
        goto out;
    }
    if (read_remote_str(pid, a1, p1, sizeof p1) < 0)
        goto out;
    if (two && read_remote_str(pid, a2, p2, sizeof p2) < 0)
        goto out;
    /* the arguments were read while the call was still pending */
    if (seccomp_notify_id_valid(s->fd, rq->id) != 0)
        goto out;
    if (nr == SCMP_SYS(symlink) || nr == SCMP_SYS(symlinkat)) {
        /* only the new link's location is a write; the target is just text */
        resolve_path(pid, dir2, p2, r2, sizeof r2);
        ok = path_allowed(s, pid, r2);
        join3(what, sizeof what, r2, " -> ", p1);
    } else if (two) {
        resolve_path(pid, dir1, p1, r1, sizeof r1);
        resolve_path(pid, dir2, p2, r2, sizeof r2);
        int ok1 = path_allowed(s, pid, r1), ok2 = path_allowed(s, pid, r2);
        ok = ok1 == 0 || ok2 == 0 ? 0 : ok1 < 0 || ok2 < 0 ? -1 : 1;
        join3(what, sizeof what, r1, " -> ", r2);
    } else {
        resolve_path(pid, dir1, p1, r1, sizeof r1);
        ok = path_allowed(s, pid, r1);
        join3(what, sizeof what, r1, "", "");
    }
    if (ok < 0) /* Landlock lets it through (the private folder), the mount does not */
        record(s, FMUC_SB_EV_FS, pid, call, what, EROFS, 1, "read-only bind mount");
    else if (!ok)
        record(s, FMUC_SB_EV_FS, pid, call, what, s->sb->landlock_abi ? EACCES : 0, 1,
               s->sb->landlock_abi ? "landlock" : "");
out:
    free(name);
}

static void *supervise(void *arg)
{
    supervisor *s = arg;
    int fd;
    pthread_mutex_lock(&s->mu);
    while (s->fd == -1)
        pthread_cond_wait(&s->cv, &s->mu);
    fd = s->fd;
    pthread_mutex_unlock(&s->mu);
    if (fd < 0)
        return NULL;
    for (;;) {
        memset(s->req, 0, sizeof *s->req);
        if (seccomp_notify_receive(fd, s->req) != 0) {
            if (errno == EINTR || errno == ENOENT || errno == 0)
                continue;
            break;
        }
        memset(s->resp, 0, sizeof *s->resp);
        handle(s, s->req, s->resp);
        seccomp_notify_respond(fd, s->resp); /* ENOENT: the caller was interrupted */
    }
    return NULL;
}

static int add_fs_rules(scmp_filter_ctx ctx)
{
    static const int always[] = {SCMP_SYS(creat),    SCMP_SYS(mkdir),     SCMP_SYS(mkdirat),
                                 SCMP_SYS(unlink),   SCMP_SYS(unlinkat),  SCMP_SYS(rmdir),
                                 SCMP_SYS(rename),   SCMP_SYS(renameat),  SCMP_SYS(renameat2),
                                 SCMP_SYS(truncate), SCMP_SYS(symlink),   SCMP_SYS(symlinkat),
                                 SCMP_SYS(link),     SCMP_SYS(linkat),    SCMP_SYS(mknod),
                                 SCMP_SYS(mknodat),  SCMP_SYS(openat2)};
    static const unsigned long wflags[] = {O_WRONLY, O_RDWR, O_CREAT, O_TRUNC};
    int rc = 0;
    for (size_t i = 0; i < sizeof always / sizeof always[0]; i++)
        rc |= seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, always[i], 0);
    for (size_t i = 0; i < sizeof wflags / sizeof wflags[0]; i++) {
        rc |= seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(open), 1,
                               SCMP_A1(SCMP_CMP_MASKED_EQ, wflags[i], wflags[i]));
        rc |= seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(openat), 1,
                               SCMP_A2(SCMP_CMP_MASKED_EQ, wflags[i], wflags[i]));
    }
    return rc;
}

static int add_net_rules(scmp_filter_ctx ctx)
{
    int rc = 0;
    rc |= seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(socket), 0);
    rc |= seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(connect), 0);
    rc |= seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(bind), 0);
    /* sendto with a destination address (argument 4 non-NULL); written out in full because the
     * SCMP_A4 macro leaves datum_b to zero-initialisation, which clang warns about */
    const struct scmp_arg_cmp has_addr = {.arg = 4, .op = SCMP_CMP_NE, .datum_a = 0, .datum_b = 0};
    rc |= seccomp_rule_add_array(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(sendto), 1, &has_addr);
    rc |= seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(sendmsg), 0);
    return rc;
}

/* Start the supervisor thread, then install the filter on this thread only (the supervisor,
 * created before, stays unfiltered) and hand it the notification fd. */
static int start_recording(const fmuc_sandbox_plan *plan, const priv_binds *binds,
                           fmuc_w_sandbox *sb, char *why, size_t n)
{
    supervisor *s = calloc(1, sizeof *s);
    scmp_filter_ctx ctx = NULL;
    pthread_t th;
    int fd;
    if (!s) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    s->plan = plan;
    s->binds = binds;
    s->sb = sb;
    s->fd = -1;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    if (seccomp_notify_alloc(&s->req, &s->resp) != 0) {
        snprintf(why, n, "seccomp_notify_alloc failed");
        return -1;
    }
    if (pthread_create(&th, NULL, supervise, s) != 0) {
        snprintf(why, n, "cannot start the recording thread");
        return -1;
    }
    pthread_detach(th);
    ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx || add_fs_rules(ctx) != 0 || add_net_rules(ctx) != 0) {
        snprintf(why, n, "cannot build the seccomp filter");
        goto fail;
    }
    if (seccomp_load(ctx) != 0) {
        snprintf(why, n, "seccomp_load failed: %s", strerror(errno));
        goto fail;
    }
    fd = seccomp_notify_fd(ctx);
    if (fd < 0) {
        snprintf(why, n, "no seccomp notification fd");
        goto fail;
    }
    pthread_mutex_lock(&s->mu);
    s->ctx = ctx;
    s->fd = fd;
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return 0;
fail:
    if (ctx)
        seccomp_release(ctx);
    pthread_mutex_lock(&s->mu);
    s->fd = -2;
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return -1;
}

/* ---- child: private /tmp and /dev/shm ------------------------------------------------------- */

/* glibc's tmpfile() writes into /tmp whatever TMPDIR says, as does a hard-coded
 * mkstemp("/tmp/..."), and sem_open/shm_open use /dev/shm: all outside the scratch folder, so
 * Landlock refused them and a good FMU that used them failed in fmi2Instantiate (red-team
 * round 6). A worker therefore gets both folders of its own: in a mount namespace of its own, an
 * empty tmpfs on each, into which what the worker needs of the host's folder is bound back at its
 * path (the scratch folder and --allow-write folders writable; the extracted FMU, the user's
 * input files and the files the worker has mapped read-only). Landlock then allows writing
 * beneath the private folder: what the FMU writes there stays in the worker (the tmpfs goes with
 * it), and nothing else of the host's /tmp is visible. Without a mount namespace (no user
 * namespace for an ordinary user) the folders stay the host's, confined by Landlock as before. */

static const struct {
    const char *dir;
    int bit;
    const char *opts; /* the tmpfs's: its pages are memory, not counted in RLIMIT_AS */
} private_dirs[] = {{"/tmp", FMUC_SB_PRIVATE_TMP, "mode=1777,size=256m,nr_inodes=65536"},
                    {"/dev/shm", FMUC_SB_PRIVATE_SHM, "mode=1777,size=64m,nr_inodes=16384"}};


/* Whether p lies in one of the private folders of mask. */
static int in_private(int mask, const char *p)
{
    for (size_t i = 0; i < sizeof private_dirs / sizeof private_dirs[0]; i++)
        if ((mask & private_dirs[i].bit) && beneath(p, private_dirs[i].dir))
            return 1;
    return 0;
}

typedef struct priv_bind {
    const char *path; /* absolute, in a private folder */
    int rw;
    int fd;           /* O_PATH to the host's path, opened before the tmpfs covers it */
    int dir;
    int bound;        /* visible in the private folder (bound, or beneath a bound folder) */
} priv_bind;

typedef struct priv_set {
    priv_bind b[PRIVATE_BINDS];
    size_t n;
    int mask;         /* the folders that can be made private */
    char mapped[PRIVATE_BINDS][PATH_MAX];
    size_t nmapped;
} priv_set;

/* Add path (rw or read-only) when it lies in a private folder; a path that is a private folder
 * itself, or above one, keeps that folder the host's (the user asked for all of it). */
static void priv_add(priv_set *ps, const char *path, int rw)
{
    if (!path || path[0] != '/')
        return;
    for (size_t i = 0; i < sizeof private_dirs / sizeof private_dirs[0]; i++)
        if (beneath(private_dirs[i].dir, path))
            ps->mask &= ~private_dirs[i].bit;
    if (!in_private(ps->mask, path) || ps->n >= PRIVATE_BINDS)
        return;
    for (size_t i = 0; i < ps->n; i++)
        if (!strcmp(ps->b[i].path, path)) {
            ps->b[i].rw |= rw;
            return;
        }
    ps->b[ps->n++] = (priv_bind){path, rw, -1, 0, 0};
}

static int priv_by_length(const void *a, const void *b)
{
    size_t la = strlen(((const priv_bind *)a)->path), lb = strlen(((const priv_bind *)b)->path);
    return la < lb ? -1 : la > lb;
}

/* The files the worker has mapped (fmucheck, its libraries) that lie in a private folder. */
static void priv_add_mapped(priv_set *ps)
{
    FILE *f = fopen("/proc/self/maps", "re");
    char line[PATH_MAX + 256];
    if (!f)
        return;
    while (fgets(line, sizeof line, f) && ps->nmapped < PRIVATE_BINDS) {
        char *path = strchr(line, '/');
        if (!path)
            continue;
        path[strcspn(path, "\n")] = '\0';
        if (strstr(path, " (deleted)") || !in_private(ps->mask, path))
            continue;
        if (ps->nmapped && !strcmp(ps->mapped[ps->nmapped - 1], path))
            continue;
        snprintf(ps->mapped[ps->nmapped], PATH_MAX, "%s", path);
        priv_add(ps, ps->mapped[ps->nmapped++], 0);
    }
    fclose(f);
}

/* mkdir -p of path's parents in the tmpfs, then path itself: a folder or an empty file. */
static int priv_mountpoint(const char *path, int dir)
{
    char buf[PATH_MAX];
    size_t len = strlen(path);
    if (len >= sizeof buf)
        return -1;
    memcpy(buf, path, len + 1);
    for (size_t i = 1; i < len; i++) {
        if (buf[i] != '/')
            continue;
        buf[i] = '\0';
        int rc = mkdir(buf, 0755);
        buf[i] = '/';
        if (rc != 0 && errno != EEXIST)
            return -1;
    }
    if (dir)
        return mkdir(path, 0755) == 0 || errno == EEXIST ? 0 : -1;
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

/* Make the bind at path read-only, keeping the flags the mount has (a user namespace may not
 * drop a locked one). */
static int priv_readonly(const char *path)
{
    struct statvfs sv;
    unsigned long fl = MS_BIND | MS_REMOUNT | MS_RDONLY;
    if (statvfs(path, &sv) != 0)
        return -1;
    if (sv.f_flag & ST_NOSUID)
        fl |= MS_NOSUID;
    if (sv.f_flag & ST_NODEV)
        fl |= MS_NODEV;
    if (sv.f_flag & ST_NOEXEC)
        fl |= MS_NOEXEC;
    if (sv.f_flag & ST_NOATIME)
        fl |= MS_NOATIME;
    if (sv.f_flag & ST_NODIRATIME)
        fl |= MS_NODIRATIME;
    if (sv.f_flag & ST_RELATIME)
        fl |= MS_RELATIME;
    return mount(NULL, path, NULL, fl, NULL);
}

/* A seccomp filter refusing (EPERM) every call that changes mounts, for the rest of the worker's
 * life: mount, umount2, pivot_root and the new mount API (mount_setattr, open_tree, move_mount,
 * fsopen, fsconfig, fsmount, fspick; those libseccomp does not know are left out). 0 or -1. */
static int deny_mount_calls(void)
{
    static const char *const calls[] = {"mount",     "umount2",    "pivot_root", "mount_setattr",
                                        "open_tree", "move_mount", "fsopen",     "fsconfig",
                                        "fsmount",   "fspick"};
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    int rc = ctx ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < sizeof calls / sizeof calls[0]; i++) {
        int nr = seccomp_syscall_resolve_name(calls[i]);
        if (nr != __NR_SCMP_ERROR)
            rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0);
    }
    if (rc == 0)
        rc = seccomp_load(ctx);
    if (ctx)
        seccomp_release(ctx);
    if (rc != 0)
        errno = rc < 0 ? -rc : EINVAL;
    return rc == 0 ? 0 : -1;
}

/* In a mount namespace of its own (entered here; in_userns: the worker already has a user
 * namespace, else an ordinary user makes one), give the worker a private /tmp and /dev/shm.
 * Returns the FMUC_SB_PRIVATE_* bits made; 0 when none (the host's folders stay, nothing
 * changed that matters: at most an unchanged mount namespace of its own); -1 when a half-built
 * folder could not be taken down (the worker must not run). ro (may be NULL) gets the binds in
 * the private folders and whether each is writable, for the recorder. */
static int make_private_tmp(const fmuc_sandbox_plan *plan, int in_userns, priv_binds *ro)
{
    priv_set *ps = calloc(1, sizeof *ps);
    int made = 0;
    if (!ps)
        return 0;
    for (size_t i = 0; i < sizeof private_dirs / sizeof private_dirs[0]; i++) {
        struct stat st;
        if (lstat(private_dirs[i].dir, &st) == 0 && S_ISDIR(st.st_mode))
            ps->mask |= private_dirs[i].bit;
    }
    priv_add(ps, plan->scratch, 1);
    for (size_t i = 0; i < plan->cfg->nallow_write; i++)
        priv_add(ps, plan->cfg->allow_write[i], 1);
    for (size_t i = 0; i < plan->nread; i++)
        priv_add(ps, plan->read[i], 0);
    priv_add_mapped(ps);
    if (!ps->mask || ps->n >= PRIVATE_BINDS)
        goto out; /* (too many to bind back: keep the host's folders) */
    qsort(ps->b, ps->n, sizeof ps->b[0], priv_by_length);
    if (geteuid() != 0 && !in_userns && unshare_user() != 0)
        goto out;
    if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        goto out;
    /* what to bind back, opened in the new namespace (a bind's source must be one of its
     * mounts) while the host's folders are still in view */
    for (size_t i = 0; i < ps->n; i++) {
        struct stat st;
        ps->b[i].fd = open(ps->b[i].path, O_PATH | O_CLOEXEC);
        if (ps->b[i].fd >= 0 && fstat(ps->b[i].fd, &st) == 0)
            ps->b[i].dir = S_ISDIR(st.st_mode);
    }
    for (size_t d = 0; d < sizeof private_dirs / sizeof private_dirs[0]; d++) {
        if (!(ps->mask & private_dirs[d].bit))
            continue;
        if (mount("fmucheck-private", private_dirs[d].dir, "tmpfs", MS_NOSUID | MS_NODEV,
                  private_dirs[d].opts) != 0)
            continue;
        int ok = 1;
        for (size_t i = 0; ok && i < ps->n; i++) {
            const priv_bind *b = &ps->b[i];
            if (b->fd < 0 || !beneath(b->path, private_dirs[d].dir))
                continue;
            /* beneath a folder already bound back: visible; only a writable one inside a
             * read-only one binds again (the scratch folder inside the extraction folder). A
             * read-only path inside a writable folder stays writable, as Landlock's union of
             * the two rules made it before (--allow-write DIR with an input file in DIR) */
            const priv_bind *above = NULL;
            for (size_t k = 0; k < i; k++)
                if (ps->b[k].fd >= 0 && ps->b[k].dir && ps->b[k].bound &&
                    beneath(b->path, ps->b[k].path))
                    above = &ps->b[k];
            if (above && above->rw >= b->rw) {
                ps->b[i].bound = 1;
                ps->b[i].rw = above->rw;
                continue;
            }
            char src[64];
            snprintf(src, sizeof src, "/proc/self/fd/%d", b->fd);
            ok = (above || priv_mountpoint(b->path, b->dir) == 0) &&
                 mount(src, b->path, NULL, MS_BIND | MS_REC, NULL) == 0 &&
                 (b->rw || priv_readonly(b->path) == 0);
            ps->b[i].bound = ok;
        }
        if (ok) {
            made |= private_dirs[d].bit;
        } else if (umount2(private_dirs[d].dir, MNT_DETACH) != 0) {
            /* back to the host's folder failed: a half-built one without its Landlock rule */
            made = -1;
            goto out;
        } else {
            for (size_t i = 0; i < ps->n; i++)
                if (beneath(ps->b[i].path, private_dirs[d].dir))
                    ps->b[i].bound = 0;
        }
    }
    /* what the recorder needs: the read-only binds, the longest match deciding */
    if (made > 0 && ro) {
        for (size_t i = 0; i < ps->n; i++)
            if (ps->b[i].bound && in_private(made, ps->b[i].path)) {
                ro->path[ro->n] = strdup(ps->b[i].path);
                ro->rw[ro->n] = ps->b[i].rw;
                if (ro->path[ro->n])
                    ro->n++;
            }
    }
out:
    for (size_t i = 0; i < ps->n; i++)
        if (ps->b[i].fd >= 0)
            close(ps->b[i].fd);
    free(ps);
    return made;
}

/* ---- child: confinement -------------------------------------------------------------------- */

#define LL_FS_READ (LL_FS_EXECUTE | LL_FS_READ_FILE | LL_FS_READ_DIR)
#define LL_FS_FILE_RIGHTS (LL_FS_EXECUTE | LL_FS_WRITE_FILE | LL_FS_READ_FILE | LL_FS_TRUNCATE | \
                           LL_FS_IOCTL_DEV)

/* Allow access (limited to what the ruleset handles, and to file rights on a file) beneath
 * path. A path that does not exist is no error (an optional system folder). */
static int ll_add_path(int rs, const char *path, uint64_t access, uint64_t handled)
{
    struct ll_path_beneath_attr pb;
    struct stat st;
    int fd = open(path, O_PATH | O_CLOEXEC);
    int rc;
    if (fd < 0)
        return errno == ENOENT || errno == ENOTDIR || errno == EACCES ? 0 : -1;
    access &= handled;
    if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode))
        access &= LL_FS_FILE_RIGHTS;
    pb.allowed_access = access;
    pb.parent_fd = fd;
    rc = access ? (int)syscall(SYS_landlock_add_rule, rs, LL_RULE_PATH_BENEATH, &pb, 0) : 0;
    close(fd);
    return rc;
}

/* The system's read-only folders: programs, libraries, configuration, kernel information. */
static const char *const system_read[] = {
    "/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin", "/etc", "/opt", "/sys",
    "/proc/cpuinfo", "/proc/meminfo", "/proc/stat", "/proc/filesystems", "/proc/sys",
    "/dev/urandom", "/dev/random"};

/* Every file the worker has mapped (fmucheck, its libraries, a sanitizer runtime): readable, so
 * that a symbolizer or debugger in the worker still finds them; nothing else of their folders. */
static int ll_add_mapped(int rs, uint64_t handled)
{
    FILE *f = fopen("/proc/self/maps", "re");
    char line[PATH_MAX + 256], last[PATH_MAX] = "";
    int rc = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f)) {
        char *path = strchr(line, '/');
        if (!path)
            continue;
        path[strcspn(path, "\n")] = '\0';
        if (!strcmp(path, last) || strstr(path, " (deleted)"))
            continue;
        snprintf(last, sizeof last, "%s", path);
        if (ll_add_path(rs, path, LL_FS_READ_FILE | LL_FS_EXECUTE, handled) < 0)
            rc = -1;
    }
    fclose(f);
    return rc;
}

static int apply_landlock(const fmuc_sandbox_plan *plan, int abi, int deny_net, int scope_signals,
                          int private_mask, int *net_done, char *why, size_t n)
{
    struct ll_ruleset_attr attr;
    size_t attr_size = sizeof(uint64_t);
    uint64_t fs = LL_FS_WRITE_FILE | LL_FS_REMOVE_DIR | LL_FS_REMOVE_FILE | LL_FS_MAKE_CHAR |
                  LL_FS_MAKE_DIR | LL_FS_MAKE_REG | LL_FS_MAKE_SOCK | LL_FS_MAKE_FIFO |
                  LL_FS_MAKE_BLOCK | LL_FS_MAKE_SYM | LL_FS_READ;
    uint64_t handled;
    char own[64];
    const char *what = NULL;
    int rs;
    if (abi >= 2)
        fs |= LL_FS_REFER;
    if (abi >= 3)
        fs |= LL_FS_TRUNCATE;
    if (abi >= 5)
        fs |= LL_FS_IOCTL_DEV;
    handled = fs;
    memset(&attr, 0, sizeof attr);
    attr.handled_access_fs = fs;
    *net_done = 0;
    if (abi >= 4 && deny_net) {
        attr.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
        attr_size = 2 * sizeof(uint64_t);
        *net_done = 1;
    }
    if (abi >= 6 && (deny_net || scope_signals)) {
        attr.scoped = (deny_net ? LL_SCOPE_ABSTRACT_UNIX : 0) |
                      (scope_signals ? LL_SCOPE_SIGNAL : 0);
        attr_size = sizeof attr;
    }
    rs = (int)syscall(SYS_landlock_create_ruleset, &attr, attr_size, 0);
    if (rs < 0) {
        snprintf(why, n, "landlock_create_ruleset: %s", strerror(errno));
        return -1;
    }
    snprintf(own, sizeof own, "/proc/%ld", (long)getpid());
    if (ll_add_path(rs, plan->scratch, fs, handled) < 0) {
        what = plan->scratch;
        goto fail;
    }
    for (size_t i = 0; i < plan->cfg->nallow_write; i++)
        if (ll_add_path(rs, plan->cfg->allow_write[i], fs, handled) < 0) {
            what = plan->cfg->allow_write[i];
            goto fail;
        }
    /* the worker's own /tmp and /dev/shm (make_private_tmp): what is bound back read-only
     * stays so by its mount */
    for (size_t i = 0; i < sizeof private_dirs / sizeof private_dirs[0]; i++)
        if ((private_mask & private_dirs[i].bit) &&
            ll_add_path(rs, private_dirs[i].dir, fs, handled) < 0) {
            what = private_dirs[i].dir;
            goto fail;
        }
    if (ll_add_path(rs, "/dev/null", fs, handled) < 0 ||
        ll_add_path(rs, "/dev/zero", fs, handled) < 0 ||
        ll_add_path(rs, "/dev/full", fs, handled) < 0 || ll_add_path(rs, own, fs, handled) < 0) {
        what = "a device or /proc/<pid>";
        goto fail;
    }
    for (size_t i = 0; i < plan->nread; i++)
        if (ll_add_path(rs, plan->read[i], LL_FS_READ, handled) < 0) {
            what = plan->read[i];
            goto fail;
        }
    for (size_t i = 0; i < sizeof system_read / sizeof system_read[0]; i++)
        if (ll_add_path(rs, system_read[i], LL_FS_READ, handled) < 0) {
            what = system_read[i];
            goto fail;
        }
    if (ll_add_mapped(rs, handled) < 0) {
        what = "the worker's mapped files";
        goto fail;
    }
    if (syscall(SYS_landlock_restrict_self, rs, 0) < 0) {
        snprintf(why, n, "landlock_restrict_self: %s", strerror(errno));
        close(rs);
        return -1;
    }
    close(rs);
    return 0;
fail:
    snprintf(why, n, "landlock rule for %s: %s", what, strerror(errno));
    close(rs);
    return -1;
}

/* Fallback signal confinement where Landlock cannot scope signals (ABI < 6): a seccomp filter
 * that lets kill reach only this worker (pid), its process group (0, -pid) and nothing else;
 * tgkill/tkill/rt_(tg)sigqueueinfo, pidfd_open and process_vm_readv/writev only this worker;
 * ptrace only PTRACE_TRACEME; pidfd_send_signal never (a pidfd can come from /proc/<pid>); the
 * owner of a file's signals (fcntl F_SETOWN) only this worker or its group, F_SETOWN_EX and
 * ioctl FIOSETOWN/SIOCSPGRP never (with F_SETSIG the kernel sends any signal, SIGKILL too, to
 * the owner when the file becomes ready, checked only against the uid). Other
 * architectures' system calls (int 0x80, x32) are refused outright. The pid arguments are
 * compared on their low 32 bits (pid_t is int). */
#if defined(__x86_64__)
#define SB_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SB_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

#ifdef SB_AUDIT_ARCH
#define SB_ARG0_LO offsetof(struct seccomp_data, args[0]) /* little-endian low word */
#define SB_ARG1_LO offsetof(struct seccomp_data, args[1])
#define SB_ARG2_LO offsetof(struct seccomp_data, args[2])
#define SB_DENY (SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))
static int install_signal_filter(void)
{
    uint32_t self = (uint32_t)getpid();
    struct sock_filter f[] = {
        /* 0 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        /* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SB_AUDIT_ARCH, 1, 0),
        /* 2 */ BPF_STMT(BPF_RET | BPF_K, SB_DENY),
        /* 3 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#ifdef __x86_64__
        /* 4 */ BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1), /* x32 */
#else
        /* 4 */ BPF_JUMP(BPF_JMP | BPF_JA, 1, 0, 0),
#endif
        /* 5 */ BPF_STMT(BPF_RET | BPF_K, SB_DENY),
        /* signals by file ownership (SIGIO, or any signal with F_SETSIG, sent by the kernel
         * when the file becomes ready; the same uid suffices): fcntl F_SETOWN only to this
         * worker or its group (0, pid, -pid), F_SETOWN_EX and the ioctls FIOSETOWN/SIOCSPGRP
         * (their owner is behind a pointer) never */
        /* 5a */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_fcntl, 0, 7),
        /* 5b */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SB_ARG1_LO),
        /* 5c */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, F_SETOWN_EX, 10, 0),
        /* 5d */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, F_SETOWN, 0, 8),
        /* 5e */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SB_ARG2_LO),
        /* 5f */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 6, 0),
        /* 5g */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, self, 5, 0),
        /* 5h */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)0 - self, 4, 5),
        /* 5i */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_ioctl, 0, 5),
        /* 5j */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SB_ARG1_LO),
        /* 5k */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FIOSETOWN, 2, 0),
        /* 5l */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SIOCSPGRP, 1, 0),
        /* 5m */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        /* 5n */ BPF_STMT(BPF_RET | BPF_K, SB_DENY),
        /* 6 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_kill, 11, 0),
        /* 7 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_tkill, 14, 0),
        /* 8 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_tgkill, 13, 0),
        /* 9 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_rt_sigqueueinfo, 12, 0),
        /* 10 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_rt_tgsigqueueinfo, 11, 0),
        /* 11 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_pidfd_open, 10, 0),
        /* 12 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_readv, 9, 0),
        /* 13 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_writev, 8, 0),
        /* 14 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_ptrace, 9, 0),
        /* 15 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_pidfd_send_signal, 1, 0),
        /* 16 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        /* 17 */ BPF_STMT(BPF_RET | BPF_K, SB_DENY),
        /* 18: kill: 0, pid, -pid */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SB_ARG0_LO),
        /* 19 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 7, 0),
        /* 20 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, self, 6, 0),
        /* 21 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)0 - self, 5, 4),
        /* 22: this worker only */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SB_ARG0_LO),
        /* 23 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, self, 3, 2),
        /* 24: ptrace */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SB_ARG0_LO),
        /* 25 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0 /* PTRACE_TRACEME */, 1, 0),
        /* 26 */ BPF_STMT(BPF_RET | BPF_K, SB_DENY),
        /* 27 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {(unsigned short)(sizeof f / sizeof f[0]), f};
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
}
#else
static int install_signal_filter(void)
{
    errno = ENOSYS;
    return -1;
}
#endif

static void add_missing(fmuc_w_sandbox *sb, const char *part)
{
    size_t len = strlen(sb->missing);
    snprintf(sb->missing + len, sizeof sb->missing - len, "%s%s", len ? "," : "", part);
}

static int fail(fmuc_w_sandbox *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(fmuc_w_sandbox *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sb->setup_error, sizeof sb->setup_error, fmt, ap);
    va_end(ap);
    sb->setup_failed = 1;
    sb->reported = 1;
    return -1;
}

int fmuc_sandbox__apply(const fmuc_sandbox_plan *plan, fmuc_w_sandbox *sb, int parent_pid)
{
    const fmuc_sandbox_config *cfg = plan->cfg;
    int basic = cfg->mode == FMUC_ISOLATION_BASIC;
    int deny_net = !cfg->network_allow;
    char why[200];
    int abi = 0, net_ll = 0;

    memset(sb, 0, offsetof(fmuc_w_sandbox, ev)); /* the events are counted by nevents */
    sb->basic_requested = basic;
    sb->network_deny = deny_net && !basic;
    sb->valgrind = under_valgrind();
    /* at every level: FMU code sees no variable of the caller (issue 16) */
    if (set_minimal_env(plan) != 0)
        return fail(sb, "cannot set the worker's minimal environment: %s", strerror(errno));
    sb->env_minimal = 1;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return fail(sb, "PR_SET_NO_NEW_PRIVS: %s", strerror(errno));
    sb->no_new_privs = 1;

    /* network namespace first: creating one needs the privileges dropped below */
    if (!basic && deny_net) {
        if (plan->cfg->network_isolated)
            sb->netns = 1; /* inherited from the parent (fmuc_sandbox_isolate_network) */
        else if (geteuid() == 0 && unshare(CLONE_NEWNET) == 0)
            sb->netns = 1;
        else if (geteuid() != 0 && unshare_user_net() == 0)
            sb->netns = 2;
    }

    /* the worker's own /tmp and /dev/shm, only where Landlock will confine it (mounts need the
     * privileges dropped below, and Landlock forbids them once applied). binds lives as long
     * as the worker (the recorder reads it). */
    priv_binds *binds = NULL;
    if (!basic && plan->scratch && !sb->valgrind && ll_abi() > 0) {
        binds = calloc(1, sizeof *binds);
        int made = binds ? make_private_tmp(plan, sb->netns == 2, binds) : 0;
        if (made < 0)
            return fail(sb, "a private /tmp could not be taken down after a failed bind: %s",
                        strerror(errno));
        sb->private_tmp = made;
        /* a worker with capabilities over its mount namespace (an ordinary user's in its user
         * namespace, root's with --no-privilege-drop) could otherwise make the read-only binds
         * writable: Landlock refuses mount(2) and umount2(2) but not mount_setattr(2) */
        if (made && deny_mount_calls() != 0)
            return fail(sb, "cannot refuse the mount system calls: %s", strerror(errno));
    }

    if (plan->drop) {
        gid_t g = (gid_t)plan->gid;
        uid_t u = (uid_t)plan->uid;
        if (setgroups(0, NULL) != 0 || setresgid(g, g, g) != 0 || setresuid(u, u, u) != 0)
            return fail(sb, "dropping root to uid %d gid %d: %s", plan->uid, plan->gid,
                        strerror(errno));
        if (setuid(0) == 0 || geteuid() == 0 || getuid() == 0 || getegid() == 0)
            return fail(sb, "the worker could regain root after dropping to uid %d", plan->uid);
        /* a credential change clears these two */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        prctl(PR_SET_DUMPABLE, 1); /* the recorder reads our descendants' memory */
        if (getppid() != (pid_t)parent_pid)
            _exit(125);
        sb->privilege_drop = 1;
    } else if (geteuid() == 0) {
        sb->privilege_drop = -1;
    }
    sb->uid = (int32_t)geteuid();
    sb->gid = (int32_t)getegid();

    if (plan->scratch) {
        if (chdir(plan->scratch) != 0)
            return fail(sb, "chdir to the scratch directory %s: %s", plan->scratch,
                        strerror(errno));
    }

    if (!basic) {
        int ll_signals = 0;
        abi = ll_abi();
        if (abi > 0 && plan->scratch) {
            ll_signals = abi >= 6 && !cfg->force_signal_seccomp;
            if (apply_landlock(plan, abi, deny_net, ll_signals, sb->private_tmp, &net_ll, why,
                               sizeof why) < 0)
                return fail(sb, "%s", why);
            sb->landlock_abi = abi;
            sb->landlock_net = net_ll;
            sb->fs_read = 1;
            if (ll_signals)
                sb->signals = 1; /* ptrace is confined to the domain by every ABI */
        }
        if (plan->record && seccomp_notify_available()) {
            if (start_recording(plan, binds, sb, why, sizeof why) < 0)
                return fail(sb, "seccomp recording: %s", why);
            sb->seccomp = 1;
        }
        /* after the recording thread started: it reads its callers' memory (process_vm_readv),
         * which the filter would refuse for pids other than the worker's */
        if (!sb->signals && install_signal_filter() == 0)
            sb->signals = 2;
    }
    if (basic) {
        add_missing(sb, "landlock (--isolation basic)");
        add_missing(sb, "seccomp (--isolation basic)");
        add_missing(sb, "signal-confinement (--isolation basic)");
        if (deny_net)
            add_missing(sb, "network-isolation (--isolation basic)");
    } else {
        if (!sb->landlock_abi)
            add_missing(sb, "landlock");
        if (!sb->signals)
            add_missing(sb, "signal-confinement");
        if (plan->record && !sb->seccomp)
            add_missing(sb, "seccomp");
        if (deny_net && !sb->netns && !sb->landlock_net)
            add_missing(sb, "network-namespace");
    }
    sb->strict = sb->missing[0] == '\0';
    sb->reported = 1;
    return 0;
}

/* ---- parent: decoding ---------------------------------------------------------------------- */

static char *clean(const char *s, size_t max)
{
    size_t n = strnlen(s, max);
    return fmuc_trace__sanitize(s, n);
}

void fmuc_sandbox__decode(const fmuc_w_sandbox *sb, fmuc_worker_outcome *out)
{
    fmuc_isolation *iso = &out->isolation;
    memset(iso, 0, sizeof *iso);
    if (!sb->reported)
        return;
    if (sb->setup_failed) {
        char *e = clean(sb->setup_error, sizeof sb->setup_error);
        snprintf(out->sandbox_error, sizeof out->sandbox_error, "%s", e ? e : "?");
        free(e);
        return;
    }
    iso->known = 1;
    iso->strict = sb->strict != 0;
    iso->no_new_privs = sb->no_new_privs != 0;
    iso->uid = sb->uid;
    iso->gid = sb->gid;
    iso->privilege_drop = sb->privilege_drop > 0 ? 1 : sb->privilege_drop < 0 ? -1 : 0;
    iso->landlock_abi = sb->landlock_abi > 0 && sb->landlock_abi < 1000 ? sb->landlock_abi : 0;
    iso->landlock_net = sb->landlock_net != 0;
    iso->seccomp = sb->seccomp != 0;
    iso->netns = sb->netns == 1 || sb->netns == 2 ? sb->netns : 0;
    iso->network_deny = sb->network_deny != 0;
    iso->basic_requested = sb->basic_requested != 0;
    iso->fs_read = sb->fs_read != 0;
    iso->signals = sb->signals == 1 || sb->signals == 2 ? sb->signals : 0;
    iso->env_minimal = sb->env_minimal != 0;
    iso->symbols_global = sb->valgrind != 0;
    iso->private_tmp = sb->private_tmp & (FMUC_SB_PRIVATE_TMP | FMUC_SB_PRIVATE_SHM);
    {
        char *m = clean(sb->missing, sizeof sb->missing);
        snprintf(iso->missing, sizeof iso->missing, "%s", m ? m : "");
        free(m);
    }
    out->sandbox_events_total = sb->events_total;
    out->sandbox_violations = sb->violations_total;
    uint32_t n = sb->nevents < FMUC_W_SB_EVENTS ? sb->nevents : FMUC_W_SB_EVENTS;
    if (n == 0)
        return;
    out->sandbox_events = cJSON_CreateArray();
    for (uint32_t i = 0; i < n && out->sandbox_events; i++) {
        const fmuc_w_sb_event *e = &sb->ev[i];
        cJSON *o = cJSON_CreateObject();
        char *call = clean(e->call, sizeof e->call), *what = clean(e->what, sizeof e->what);
        char *enf = clean(e->enforced, sizeof e->enforced);
        if (!o) {
            free(call);
            free(what);
            free(enf);
            break;
        }
        cJSON_AddStringToObject(o, "kind", e->kind == FMUC_SB_EV_NET ? "network" : "filesystem");
        cJSON_AddStringToObject(o, "syscall", call ? call : "?");
        cJSON_AddStringToObject(o, e->kind == FMUC_SB_EV_NET ? "address" : "path", what ? what : "");
        const char *en = e->err > 0 && e->err < 4096 ? strerrorname_np(e->err) : NULL;
        cJSON_AddStringToObject(o, "errno", en ? en : e->err ? "unknown" : "none");
        if (enf && enf[0])
            cJSON_AddStringToObject(o, "deniedBy", enf);
        cJSON_AddBoolToObject(o, "violation", e->violation != 0);
        cJSON_AddNumberToObject(o, "pid", e->pid);
        cJSON_AddItemToArray(out->sandbox_events, o);
        free(call);
        free(what);
        free(enf);
    }
}

/* ---- preflight ----------------------------------------------------------------------------- */

static int preflight_fn(fmuc_worker_ctx *ctx, void *payload)
{
    (void)ctx;
    (void)payload;
    return 0;
}

fmuc_err fmuc_sandbox_preflight(const fmuc_sandbox_config *cfg, const char *tmp_parent,
                                fmuc_isolation *iso, fmuc_diag *diag)
{
    fmuc_worker_spec spec;
    fmuc_worker_outcome o;
    fmuc_err err;
    memset(&spec, 0, sizeof spec);
    spec.sandbox = cfg;
    spec.record_sandbox = 1; /* learn whether recording works too */
    spec.tmp_parent = tmp_parent;
    spec.timeout_s = 30;
    spec.label = "sandbox-preflight";
    memset(iso, 0, sizeof *iso);
    err = fmuc_worker_run(&spec, preflight_fn, NULL, &o, diag);
    if (err < 0)
        return err;
    *iso = o.isolation;
    if (o.end != FMUC_WORKER_OK || !iso->known) {
        err = fmuc_diag_set(diag, FMUC_ERROR, "sandbox: the preflight worker ended %s%s%s",
                            fmuc_worker_end_name(o.end), o.detail ? ": " : "",
                            o.detail ? o.detail : "");
        fmuc_worker_outcome_free(&o);
        return err;
    }
    fmuc_worker_outcome_free(&o);
    if ((cfg && (cfg->require_strict || cfg->mode == FMUC_ISOLATION_STRICT)) && !iso->strict)
        return fmuc_diag_set(diag, FMUC_ERROR,
                             "isolation level strict required, but this system gives only basic: "
                             "missing %s", iso->missing);
    return FMUC_OK;
}
