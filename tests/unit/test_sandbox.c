/* Worker sandbox (robustness B11, B12, E06, E08): probe, privilege drop, Landlock write
 * confinement, network denial and its recording, --network allow, the isolation levels and
 * --require-isolation strict on a kernel without Landlock / namespaces (simulated by a seccomp
 * filter the test installs on fmucheck before exec). */
#include <criterion/criterion.h>
#include <dirent.h>

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <seccomp.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fmuc/fmuc_sandbox.h"
#include "fmuc/fmuc_worker.h"
#include "fmuc_test_util.h"

#define GOOD_FMU FMUC_FMU_DIR "/good/SpringMassDamper.fmu"
#define FS_FMU FMUC_FMU_DIR "/broken/api-sandbox.fmu"
#define TCP_FMU FMUC_FMU_DIR "/broken/api-sandbox--tcp.fmu"

static int landlock_abi(void)
{
    long v = syscall(SYS_landlock_create_ruleset, NULL, 0, 1u);
    return v > 0 ? (int)v : 0;
}

/* A folder the dropped worker (nobody) may write into, for the Landlock tests; skips the test on
 * a kernel without Landlock. In /var/tmp: /tmp is the worker's own (make_private_tmp), where a
 * host folder is not even visible. */
static char *landlock_writable_dir(const char *name)
{
    if (!landlock_abi())
        cr_skip_test("no Landlock on this kernel");
    char *dir = NULL;
    cr_assert(asprintf(&dir, "/var/tmp/fmuc-test-%s-XXXXXX", name) > 0);
    cr_assert(mkdtemp(dir), "cannot make a folder in /var/tmp: %s", strerror(errno));
    cr_assert_eq(chmod(dir, 0777), 0);
    return dir;
}

/* A worker with recording (as api-sandbox runs it); the recording is asserted wherever the kernel
 * offers seccomp user notification. */
static void run_worker_rec(const fmuc_sandbox_config *cfg, fmuc_worker_fn fn, void *payload,
                           fmuc_worker_outcome *o, int record)
{
    fmuc_worker_spec spec;
    fmuc_diag d = {{0}, FMUC_OK};
    memset(&spec, 0, sizeof spec);
    spec.timeout_s = 20;
    spec.sandbox = cfg;
    spec.record_sandbox = record;
    cr_assert_eq(fmuc_worker_run(&spec, fn, payload, o, &d), FMUC_OK, "%s", d.msg);
    cr_assert_eq(o->end, FMUC_WORKER_OK, "end=%s", fmuc_worker_end_name(o->end));
    if (record && (!cfg || cfg->mode != FMUC_ISOLATION_BASIC)) {
        fmuc_sandbox_probe pr;
        fmuc_sandbox_probe_run(&pr);
        cr_assert_eq(o->isolation.seccomp, pr.seccomp, "recording installed where available");
    }
}

static void run_worker(const fmuc_sandbox_config *cfg, fmuc_worker_fn fn, void *payload,
                       fmuc_worker_outcome *o)
{
    run_worker_rec(cfg, fn, payload, o, 1);
}

static double reply_num(const fmuc_worker_outcome *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o->reply, key);
    cr_assert(cJSON_IsNumber(v), "reply has no %s", key);
    return v->valuedouble;
}

/* ---- probe ------------------------------------------------------------------------------- */

Test(sandbox, probe_matches_the_kernel)
{
    fmuc_sandbox_probe p;
    fmuc_sandbox_probe_run(&p);
    cr_expect_eq(p.euid, (int)geteuid());
    cr_expect_eq(p.landlock_abi, landlock_abi());
    if (geteuid() == 0)
        cr_expect(p.netns, "root may create a network namespace here");
    /* the probe leaves the calling process alone: still in the host network namespace */
    cr_expect(if_nametoindex("lo") > 0);
}

/* ---- privilege drop (E08) ---------------------------------------------------------------- */

static int fn_ids(fmuc_worker_ctx *ctx, void *payload)
{
    (void)payload;
    cJSON *r = fmuc_worker_reply(ctx);
    cJSON_AddNumberToObject(r, "uid", getuid());
    cJSON_AddNumberToObject(r, "euid", geteuid());
    cJSON_AddNumberToObject(r, "gid", getgid());
    cJSON_AddNumberToObject(r, "setuid0", setuid(0));
    cJSON_AddNumberToObject(r, "nnp", prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
    return 0;
}

Test(sandbox, root_worker_runs_as_nobody)
{
    if (geteuid() != 0)
        cr_skip_test("not root: no privilege drop to test");
    fmuc_worker_outcome o;
    int uid, gid;
    fmuc_sandbox_nobody(&uid, &gid);
    run_worker(NULL, fn_ids, NULL, &o);
    cr_expect_neq(reply_num(&o, "uid"), 0);
    cr_expect_eq(reply_num(&o, "euid"), uid);
    cr_expect_eq(reply_num(&o, "gid"), gid);
    cr_expect_eq(reply_num(&o, "setuid0"), -1, "the worker must not regain root");
    cr_expect_eq(reply_num(&o, "nnp"), 1);
    cr_expect_eq(o.isolation.privilege_drop, 1);
    cr_expect_eq(o.isolation.uid, uid);
    fmuc_worker_outcome_free(&o);
}

Test(sandbox, no_privilege_drop_keeps_root_but_no_new_privs)
{
    if (geteuid() != 0)
        cr_skip_test("not root");
    fmuc_sandbox_config cfg;
    fmuc_worker_outcome o;
    memset(&cfg, 0, sizeof cfg);
    cfg.no_privilege_drop = 1;
    run_worker(&cfg, fn_ids, NULL, &o);
    cr_expect_eq(reply_num(&o, "euid"), 0);
    cr_expect_eq(reply_num(&o, "nnp"), 1);
    cr_expect_eq(o.isolation.privilege_drop, -1);
    fmuc_worker_outcome_free(&o);
}

/* ---- filesystem (B11) -------------------------------------------------------------------- */

/* payload: a folder outside the scratch dir (writable for the worker's uid by its mode) */
static int fn_writes(fmuc_worker_ctx *ctx, void *payload)
{
    const char *outside = payload;
    char path[4200], cwd[4096];
    cJSON *r = fmuc_worker_reply(ctx);
    int fd = open("inside.txt", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    cJSON_AddNumberToObject(r, "inside_errno", fd >= 0 ? 0 : errno);
    if (fd >= 0)
        close(fd);
    snprintf(path, sizeof path, "%s/outside.txt", outside);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    cJSON_AddNumberToObject(r, "outside_errno", fd >= 0 ? 0 : errno);
    if (fd >= 0)
        close(fd);
    cJSON_AddNumberToObject(r, "mkdir_errno",
                            mkdir("/var/tmp/fmuc-sandbox-mkdir-probe", 0700) == 0 ? 0 : errno);
    rmdir("/var/tmp/fmuc-sandbox-mkdir-probe");
    fd = open("/dev/null", O_WRONLY);
    cJSON_AddNumberToObject(r, "devnull_errno", fd >= 0 ? 0 : errno);
    if (fd >= 0)
        close(fd);
    const char *tmp = getenv("TMPDIR");
    cJSON_AddBoolToObject(r, "tmpdir_is_cwd",
                          tmp && getcwd(cwd, sizeof cwd) && strcmp(tmp, cwd) == 0);
    return 0;
}

static int has_event(const fmuc_worker_outcome *o, const char *kind, const char *needle)
{
    int n = cJSON_GetArraySize(o->sandbox_events);
    for (int i = 0; i < n; i++) {
        const cJSON *e = cJSON_GetArrayItem(o->sandbox_events, i);
        const char *k = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "kind"));
        const char *p = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "path"));
        if (!p)
            p = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "address"));
        if (!p)
            p = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "syscall"));
        if (k && !strcmp(k, kind) && p && strstr(p, needle) &&
            cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "violation")))
            return 1;
    }
    return 0;
}

Test(sandbox, landlock_denies_writes_outside_scratch_and_records_them)
{
    char *dir = landlock_writable_dir("sb-out");
    fmuc_worker_outcome o;
    run_worker(NULL, fn_writes, dir, &o);
    cr_expect_eq(reply_num(&o, "inside_errno"), 0, "the scratch dir is writable");
    cr_expect_eq(reply_num(&o, "outside_errno"), EACCES);
    cr_expect_eq(reply_num(&o, "mkdir_errno"), EACCES);
    cr_expect_eq(reply_num(&o, "devnull_errno"), 0);
    cr_expect(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o.reply, "tmpdir_is_cwd")));
    cr_expect_eq(fmuc_test_count_entries(dir), 0, "nothing was created outside");
    if (o.isolation.seccomp) {
        cr_expect_geq(o.sandbox_violations, 2);
        cr_expect(has_event(&o, "filesystem", "outside.txt"));
        cr_expect(has_event(&o, "filesystem", "/var/tmp/fmuc-sandbox-mkdir-probe"));
        cr_expect(!has_event(&o, "filesystem", "inside.txt"), "allowed writes are no violation");
        cr_expect(!has_event(&o, "filesystem", "/dev/null"));
    }
    fmuc_worker_outcome_free(&o);
    fmuc_test_rm_rf(dir);
    free(dir);
}

/* payload: a file of the host's /tmp. The worker's own /tmp and /dev/shm (make_private_tmp):
 * tmpfile(), a file of its own in /tmp and a named semaphore work, the host's file is not there,
 * and the scratch folder (TMPDIR) is still where it was. */
static int fn_private(fmuc_worker_ctx *ctx, void *payload)
{
    const char *host_file = payload;
    cJSON *r = fmuc_worker_reply(ctx);
    char buf[8] = "";
    FILE *f = tmpfile();
    int ok = f && fputs("abc", f) >= 0 && fflush(f) == 0 && fseek(f, 0, SEEK_SET) == 0 &&
             fgets(buf, sizeof buf, f) && strcmp(buf, "abc") == 0;
    if (f)
        fclose(f);
    cJSON_AddBoolToObject(r, "tmpfile", ok);
    int fd = open("/tmp/fmuc-private-probe", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    cJSON_AddNumberToObject(r, "tmp_errno", fd >= 0 ? 0 : errno);
    if (fd >= 0)
        close(fd);
    sem_t *sem = sem_open("/fmuc-private-probe", O_CREAT, 0600, 1);
    cJSON_AddBoolToObject(r, "sem_open", sem != SEM_FAILED);
    if (sem != SEM_FAILED) {
        sem_close(sem);
        sem_unlink("/fmuc-private-probe");
    }
    struct stat st;
    cJSON_AddNumberToObject(r, "host_file_errno", stat(host_file, &st) == 0 ? 0 : errno);
    const char *tmp = getenv("TMPDIR");
    fd = tmp ? open(".", O_RDONLY | O_DIRECTORY) : -1;
    char path[4200];
    snprintf(path, sizeof path, "%s/in-scratch.txt", tmp ? tmp : ".");
    int sfd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    cJSON_AddNumberToObject(r, "scratch_errno", sfd >= 0 ? 0 : errno);
    if (sfd >= 0)
        close(sfd);
    if (fd >= 0)
        close(fd);
    return 0;
}

Test(sandbox, private_tmp_and_shm_of_its_own)
{
    if (!landlock_abi())
        cr_skip_test("no Landlock on this kernel");
    char host_file[] = "/tmp/fmuc-test-host-file-XXXXXX";
    int hfd = mkstemp(host_file);
    cr_assert(hfd >= 0);
    close(hfd);
    unlink("/tmp/fmuc-private-probe");
    fmuc_worker_outcome o;
    run_worker(NULL, fn_private, host_file, &o);
    if (geteuid() == 0 || o.isolation.private_tmp) {
        /* as root a mount namespace is always possible; an ordinary user needs a user one */
        cr_expect_eq(o.isolation.private_tmp, 3, "a private /tmp and /dev/shm");
        cr_expect(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o.reply, "tmpfile")));
        cr_expect(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o.reply, "sem_open")));
        cr_expect_eq(reply_num(&o, "tmp_errno"), 0, "a file of its own in /tmp");
        cr_expect_eq(reply_num(&o, "host_file_errno"), ENOENT, "the host's /tmp is not visible");
        cr_expect_eq(access("/tmp/fmuc-private-probe", F_OK), -1,
                     "what the worker wrote in its /tmp reached the host's");
        if (o.isolation.seccomp)
            cr_expect(!has_event(&o, "filesystem", "/tmp/fmuc-private-probe"),
                      "a write into the private /tmp is no violation");
        cJSON *j = fmuc_isolation_json(&o.isolation);
        char *t = cJSON_PrintUnformatted(j);
        cr_expect(t && strstr(t, "\"privateFolders\":[\"/tmp\",\"/dev/shm\"]"), "%s", t);
        free(t);
        cJSON_Delete(j);
    }
    cr_expect_eq(reply_num(&o, "scratch_errno"), 0, "the scratch folder stays writable");
    fmuc_worker_outcome_free(&o);
    unlink(host_file);
}

/* A user's file bound back into the private /tmp is read-only there: a write gets EROFS and is
 * recorded as refused by the read-only bind (where Landlock alone would let it through). With
 * capabilities over its mount namespace (root without the privilege drop here; an ordinary user
 * in its user namespace) the worker still cannot make the bind writable: every mount call is
 * refused (mount_setattr is one Landlock lets through). */
static int fn_write_read_only(fmuc_worker_ctx *ctx, void *payload)
{
    const char *file = payload;
    cJSON *r = fmuc_worker_reply(ctx);
    int fd = open(file, O_RDONLY);
    cJSON_AddNumberToObject(r, "read_errno", fd >= 0 ? 0 : errno);
    if (fd >= 0)
        close(fd);
#ifdef SYS_mount_setattr
    struct {
        uint64_t set, clr, propagation, userns_fd;
    } attr = {0, 0x00000001 /* MOUNT_ATTR_RDONLY */, 0, 0};
    long rc = syscall(SYS_mount_setattr, AT_FDCWD, file, 0, &attr, sizeof attr);
    cJSON_AddNumberToObject(r, "mount_setattr_errno", rc == 0 ? 0 : errno);
#endif
    cJSON_AddNumberToObject(r, "remount_errno",
                            mount(NULL, file, NULL, MS_REMOUNT | MS_BIND, NULL) == 0 ? 0 : errno);
    cJSON_AddNumberToObject(r, "umount_errno", umount2(file, MNT_DETACH) == 0 ? 0 : errno);
    fd = open(file, O_WRONLY | O_TRUNC);
    cJSON_AddNumberToObject(r, "errno", fd >= 0 ? 0 : errno);
    if (fd >= 0)
        close(fd);
    return 0;
}

/* A folder beneath the host's /tmp (where the private /tmp binds it back), or a skip. */
static char *host_tmp_dir(const char *tag)
{
    char *dir = NULL;
    cr_assert(asprintf(&dir, "/tmp/fmuc-test-%s-XXXXXX", tag) > 0);
    cr_assert(mkdtemp(dir), "cannot make a folder in /tmp: %s", strerror(errno));
    return dir;
}

/* A recording worker under cfg that may read the user's file (as --input gives it), running fn
 * with the file's path; asserts that it ended normally. */
static void run_with_file(const fmuc_sandbox_config *cfg, fmuc_worker_fn fn, const char *file,
                          fmuc_worker_outcome *o)
{
    fmuc_worker_spec spec;
    fmuc_diag d = {{0}, FMUC_OK};
    memset(&spec, 0, sizeof spec);
    spec.timeout_s = 20;
    spec.sandbox = cfg;
    spec.record_sandbox = 1;
    spec.read_files[0] = file;
    cr_assert_eq(fmuc_worker_run(&spec, fn, (void *)file, o, &d), FMUC_OK, "%s", d.msg);
    cr_assert_eq(o->end, FMUC_WORKER_OK);
}

static char *write_input(const char *dir)
{
    char *file = NULL;
    cr_assert(asprintf(&file, "%s/input.csv", dir) > 0);
    FILE *f = fopen(file, "w");
    cr_assert(f);
    fputs("time,u\n0,1\n", f);
    fclose(f);
    cr_assert_eq(chmod(file, 0666), 0);
    return file;
}

Test(sandbox, read_only_files_in_the_private_tmp)
{
    if (!landlock_abi() || geteuid() != 0)
        cr_skip_test("needs Landlock and root (a mount namespace)");
    char *dir = host_tmp_dir("sb-ro");
    cr_assert_eq(chmod(dir, 0755), 0);
    char *file = write_input(dir);
    for (int keep_root = 0; keep_root < 2; keep_root++) {
        fmuc_sandbox_config cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.no_privilege_drop = keep_root;
        fmuc_worker_outcome o;
        run_with_file(&cfg, fn_write_read_only, file, &o);
        cr_expect_eq(o.isolation.private_tmp & 1, 1);
        cr_expect_eq(reply_num(&o, "read_errno"), 0, "the user's file is readable");
#ifdef SYS_mount_setattr
        cr_expect_eq(reply_num(&o, "mount_setattr_errno"), EPERM, "keep_root %d", keep_root);
#endif
        cr_expect_eq(reply_num(&o, "remount_errno"), EPERM, "keep_root %d", keep_root);
        cr_expect_eq(reply_num(&o, "umount_errno"), EPERM, "keep_root %d", keep_root);
        cr_expect_eq(reply_num(&o, "errno"), EROFS, "keep_root %d", keep_root);
        struct stat st;
        cr_expect(stat(file, &st) == 0 && st.st_size > 0, "the file was not truncated");
        if (o.isolation.seccomp) {
            int n = cJSON_GetArraySize(o.sandbox_events), seen = 0;
            for (int i = 0; i < n; i++) {
                const cJSON *e = cJSON_GetArrayItem(o.sandbox_events, i);
                const char *by =
                    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "deniedBy"));
                const char *er =
                    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "errno"));
                seen |= by && !strcmp(by, "read-only bind mount") && er && !strcmp(er, "EROFS");
            }
            cr_expect(seen, "the write is recorded as refused by the read-only bind");
        }
        fmuc_worker_outcome_free(&o);
    }
    free(file);
    fmuc_test_rm_rf(dir);
    free(dir);
}

/* An input file inside an --allow-write folder stays writable in the private /tmp, as the union
 * of the two Landlock rules made it before (the read-only bind is not made inside a writable
 * one), and a write there is no finding. */
static int fn_write(fmuc_worker_ctx *ctx, void *payload)
{
    int fd = open((const char *)payload, O_WRONLY | O_APPEND);
    cJSON_AddNumberToObject(fmuc_worker_reply(ctx), "errno", fd >= 0 ? 0 : errno);
    if (fd >= 0) {
        if (write(fd, "1,2\n", 4) != 4)
            cJSON_AddBoolToObject(fmuc_worker_reply(ctx), "short_write", 1);
        close(fd);
    }
    return 0;
}

Test(sandbox, input_file_inside_an_allowed_folder_stays_writable)
{
    if (!landlock_abi())
        cr_skip_test("no Landlock on this kernel");
    char *dir = host_tmp_dir("sb-rw");
    cr_assert_eq(chmod(dir, 0777), 0);
    char *file = write_input(dir);
    fmuc_sandbox_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.allow_write[cfg.nallow_write++] = dir;
    fmuc_worker_outcome o;
    run_with_file(&cfg, fn_write, file, &o);
    cr_expect_eq(reply_num(&o, "errno"), 0, "the input file in the allowed folder is writable");
    if (o.isolation.seccomp)
        cr_expect(!has_event(&o, "filesystem", "input.csv"), "an allowed write is no finding");
    fmuc_worker_outcome_free(&o);
    free(file);
    fmuc_test_rm_rf(dir);
    free(dir);
}

Test(sandbox, allow_write_opens_a_folder)
{
    char *dir = landlock_writable_dir("sb-allow");
    fmuc_sandbox_config cfg;
    fmuc_worker_outcome o;
    memset(&cfg, 0, sizeof cfg);
    cfg.allow_write[cfg.nallow_write++] = dir;
    run_worker(&cfg, fn_writes, dir, &o);
    cr_expect_eq(reply_num(&o, "outside_errno"), 0);
    cr_expect(!has_event(&o, "filesystem", "outside.txt"));
    fmuc_worker_outcome_free(&o);
    fmuc_test_rm_rf(dir);
    free(dir);
}

/* ---- network (B12) ----------------------------------------------------------------------- */

static int fn_net(fmuc_worker_ctx *ctx, void *payload)
{
    (void)payload;
    cJSON *r = fmuc_worker_reply(ctx);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons(9);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int s = socket(AF_INET, SOCK_STREAM, 0);
    cJSON_AddNumberToObject(r, "socket_errno", s >= 0 ? 0 : errno);
    if (s >= 0) {
        int rc = connect(s, (const struct sockaddr *)&a, sizeof a);
        cJSON_AddNumberToObject(r, "connect_errno", rc == 0 ? 0 : errno);
        close(s);
    }
    /* what the worker sees of the host's interfaces */
    struct if_nameindex *ifs = if_nameindex();
    int n = 0;
    for (struct if_nameindex *i = ifs; i && i->if_index; i++)
        n++;
    if (ifs)
        if_freenameindex(ifs);
    cJSON_AddNumberToObject(r, "interfaces", n);
    /* AF_UNIX stays usable (local IPC, not network) */
    int u = socket(AF_UNIX, SOCK_STREAM, 0);
    cJSON_AddNumberToObject(r, "unix_errno", u >= 0 ? 0 : errno);
    if (u >= 0)
        close(u);
    return 0;
}

Test(sandbox, network_is_denied_and_recorded)
{
    fmuc_worker_outcome o;
    run_worker(NULL, fn_net, NULL, &o);
    if (!o.isolation.seccomp && !o.isolation.netns && !o.isolation.landlock_net) {
        fmuc_worker_outcome_free(&o);
        cr_skip_test("no network confinement on this system");
    }
    cr_expect(o.isolation.network_deny);
    cr_expect_eq(reply_num(&o, "unix_errno"), 0);
    if (o.isolation.seccomp) {
        cr_expect_eq(reply_num(&o, "socket_errno"), EACCES);
        cr_expect(has_event(&o, "network", "AF_INET"));
        cr_expect_geq(o.sandbox_violations, 1);
    }
    if (o.isolation.netns)
        cr_expect_leq(reply_num(&o, "interfaces"), 1, "only a loopback in the worker's namespace");
    fmuc_worker_outcome_free(&o);
}

Test(sandbox, network_allow_lifts_the_restriction)
{
    fmuc_sandbox_config cfg;
    fmuc_worker_outcome o;
    memset(&cfg, 0, sizeof cfg);
    cfg.network_allow = 1;
    run_worker(&cfg, fn_net, NULL, &o);
    cr_expect(!o.isolation.network_deny);
    cr_expect_eq(o.isolation.netns, 0);
    cr_expect_eq(reply_num(&o, "socket_errno"), 0);
    /* nothing listens on the discard port: refused, not denied */
    cr_expect_neq(reply_num(&o, "connect_errno"), EACCES);
    cr_expect_eq(o.sandbox_violations, 0);
    fmuc_worker_outcome_free(&o);
}

/* ---- levels and the CLI (E06) ------------------------------------------------------------ */

static cJSON *check_of(const cJSON *rep, const char *id)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(rep, "checks"))
    {
        const char *cid = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "id"));
        if (cid && !strcmp(cid, id))
            return (cJSON *)c;
    }
    return NULL;
}

static const char *verdict_of(const cJSON *rep, const char *id)
{
    return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(check_of(rep, id), "verdict"));
}

/* Run fmucheck like a kernel without Landlock and without namespaces would: landlock_* get
 * ENOSYS and unshare EPERM from a seccomp filter installed before exec. */
static int exec_crippled(char *const argv[], const char *errpath)
{
    pid_t pid = fork();
    int st;
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int nul = open("/dev/null", O_WRONLY);
        if (fd < 0 || nul < 0)
            _exit(120);
        dup2(nul, 1);
        dup2(fd, 2);
        scmp_filter_ctx c = seccomp_init(SCMP_ACT_ALLOW);
        if (!c || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
            seccomp_rule_add(c, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(landlock_create_ruleset), 0) ||
            seccomp_rule_add(c, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(landlock_add_rule), 0) ||
            seccomp_rule_add(c, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(landlock_restrict_self), 0) ||
            seccomp_rule_add(c, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(unshare), 0) || seccomp_load(c))
            _exit(121);
        execv(argv[0], argv);
        _exit(122);
    }
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

Test(sandbox, require_strict_refuses_on_a_kernel_without_landlock, .timeout = 120)
{
    char *dir = fmuc_test_mkdtemp("sb-e06");
    char out[4200], err[4200], rp[4300];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(err, sizeof err, "%s/stderr", dir);
    snprintf(rp, sizeof rp, "%s/report.json", out);

    char *strict[] = {FMUC_EXE, "--require-isolation", "strict", "-q", "-o", out, GOOD_FMU, NULL};
    cr_expect_eq(exec_crippled(strict, err), 64);
    char *msg = fmuc_test_read_file(err, NULL);
    cr_expect(msg && strstr(msg, "landlock"), "names what is missing: %s", msg ? msg : "");
    cr_expect(msg && strstr(msg, "network-namespace"), "%s", msg ? msg : "");
    free(msg);
    struct stat st;
    cr_expect(stat(rp, &st) != 0, "no report when refusing");

    /* without the requirement: degrades to basic, says so, and the good FMU still passes */
    char *autom[] = {FMUC_EXE, "--only", "api-*", "-q", "-o", out, GOOD_FMU, NULL};
    cr_expect_eq(exec_crippled(autom, err), 0);
    cJSON *rep = fmuc_test_read_json(rp);
    cr_assert(rep, "report.json");
    const cJSON *iso = cJSON_GetObjectItemCaseSensitive(rep, "isolation");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(iso, "level")), "basic");
    cr_expect_eq(cJSON_GetObjectItemCaseSensitive(iso, "landlockAbi")->valuedouble, 0);
    cr_expect(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(iso, "networkNamespace")));
    cr_expect_gt(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(iso, "missing")), 0);
    cJSON_Delete(rep);
    fmuc_test_rm_rf(dir);
    free(dir);
}

Test(sandbox, isolation_basic_makes_api_sandbox_not_applicable, .timeout = 120)
{
    char *dir = fmuc_test_mkdtemp("sb-basic");
    char out[4200], rp[4300];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(rp, sizeof rp, "%s/report.json", out);
    char *argv[] = {FMUC_EXE, "--isolation", "basic", "--only", "api-sandbox", "-q", "-o", out,
                    FS_FMU, NULL};
    fmuc_test_run r;
    cr_assert_eq(fmuc_test_exec(&r, argv, NULL), 0);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cJSON *rep = fmuc_test_read_json(rp);
    cr_assert(rep);
    cr_expect_str_eq(verdict_of(rep, "api-sandbox"), "not-applicable");
    const cJSON *iso = cJSON_GetObjectItemCaseSensitive(rep, "isolation");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(iso, "level")), "basic");
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    fmuc_test_rm_rf(dir);
    free(dir);
}

Test(sandbox, network_allow_option_passes_the_tcp_fixture, .timeout = 120)
{
    char *dir = fmuc_test_mkdtemp("sb-netallow");
    char out[4200], rp[4300];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(rp, sizeof rp, "%s/report.json", out);
    char *deny[] = {FMUC_EXE, "--only", "api-sandbox", "-q", "-o", out, TCP_FMU, NULL};
    char *allow[] = {FMUC_EXE, "--network", "allow", "--only", "api-sandbox", "-q", "-o", out,
                     TCP_FMU, NULL};
    fmuc_test_run r;
    cr_assert_eq(fmuc_test_exec(&r, deny, NULL), 0);
    cJSON *rep = fmuc_test_read_json(rp);
    cr_assert(rep);
    const char *v = verdict_of(rep, "api-sandbox");
    cJSON *iso = cJSON_GetObjectItemCaseSensitive(rep, "isolation");
    int recording = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(iso, "seccomp"));
    if (recording) {
        cr_expect_eq(r.status, 0, "a warning (tool policy) does not fail the run");
        cr_expect_str_eq(v, "warn");
    }
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);

    cr_assert_eq(fmuc_test_exec(&r, allow, NULL), 0);
    cr_expect_eq(r.status, 0, "%s", r.err);
    rep = fmuc_test_read_json(rp);
    cr_assert(rep);
    iso = cJSON_GetObjectItemCaseSensitive(rep, "isolation");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(iso, "network")), "allow");
    cr_expect_neq(strcmp(verdict_of(rep, "api-sandbox"), "fail"), 0);
    cr_expect_neq(strcmp(verdict_of(rep, "api-sandbox"), "warn"), 0, "no violation when allowed");
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    fmuc_test_rm_rf(dir);
    free(dir);
}

/* Workers of other checks are confined the same way but do not pay for the recording thread. */
Test(sandbox, workers_without_recording_are_still_confined)
{
    char *dir = landlock_writable_dir("sb-norec");
    fmuc_worker_outcome o;
    run_worker_rec(NULL, fn_writes, dir, &o, 0);
    cr_expect_eq(o.isolation.seccomp, 0, "no recording filter");
    cr_expect_eq(o.sandbox_events_total, 0);
    cr_expect_eq(reply_num(&o, "inside_errno"), 0);
    cr_expect_eq(reply_num(&o, "outside_errno"), EACCES, "Landlock still denies");
    cr_expect_eq(fmuc_test_count_entries(dir), 0);
    cr_expect(o.isolation.strict || o.isolation.missing[0], "strict does not need the recorder");
    cr_expect(!strstr(o.isolation.missing, "seccomp"));
    fmuc_worker_outcome_free(&o);
    fmuc_test_rm_rf(dir);
    free(dir);
}

Test(sandbox, bad_isolation_options_are_usage_errors)
{
    char *a1[] = {FMUC_EXE, "--isolation", "paranoid", GOOD_FMU, NULL};
    char *a2[] = {FMUC_EXE, "--network", "maybe", GOOD_FMU, NULL};
    char *a3[] = {FMUC_EXE, "--allow-write", "/nonexistent/folder", GOOD_FMU, NULL};
    char *const *all[] = {a1, a2, a3};
    for (size_t i = 0; i < 3; i++) {
        fmuc_test_run r;
        cr_assert_eq(fmuc_test_exec(&r, all[i], NULL), 0);
        cr_expect_eq(r.status, 64, "%s: exit %d", all[i][1], r.status);
        fmuc_test_run_free(&r);
    }
}

static int fn_leave_file(fmuc_worker_ctx *ctx, void *payload)
{
    (void)payload;
    cJSON *r = fmuc_worker_reply(ctx);
    DIR *d = opendir(".");
    int seen = 0;
    struct dirent *de;
    while (d && (de = readdir(d)))
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
            seen++;
    if (d)
        closedir(d);
    cJSON_AddNumberToObject(r, "entries_before", seen);
    FILE *f = fopen("left-behind.txt", "w");
    cJSON_AddBoolToObject(r, "wrote", f != NULL);
    if (f)
        fclose(f);
    mkdir("subdir", 0700);
    chmod(".", 0500); /* try to spoil it for the next worker */
    return 0;
}

/* The workers of one FMU share a scratch folder, emptied (and its mode restored) after each: a
 * worker never sees what an earlier one left, and cannot spoil it for the next; what a killed
 * one left (planted after worker 1 here) is gone before the next starts. */
Test(sandbox, shared_scratch_is_emptied_between_workers)
{
    fmuc_fmu fmu;
    fmuc_diag d = {{0}, FMUC_OK};
    cr_assert_eq(fmuc_fmu_open(&fmu, GOOD_FMU, NULL, NULL, &d), FMUC_OK, "%s", d.msg);
    for (int k = 0; k < 3; k++) {
        fmuc_worker_spec spec;
        fmuc_worker_outcome o;
        memset(&spec, 0, sizeof spec);
        spec.fmu = &fmu;
        spec.timeout_s = 20;
        cr_assert_eq(fmuc_worker_run(&spec, fn_leave_file, NULL, &o, &d), FMUC_OK, "%s", d.msg);
        cr_assert_eq(o.end, FMUC_WORKER_OK);
        cr_expect_eq(reply_num(&o, "entries_before"), 0, "worker %d saw leftovers", k);
        cr_expect(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o.reply, "wrote")), "worker %d", k);
        fmuc_worker_outcome_free(&o);
        if (k == 1) {
            /* what a worker killed with its lane leaves (the parent never emptied it) */
            char p[4200];
            snprintf(p, sizeof p, "%s/scratch/stale.txt", fmu.tmp_dir);
            cr_assert_eq(fmuc_test_write_file(p, "x", 1), 0, "%s", p);
            snprintf(p, sizeof p, "%s/scratch/stale-dir", fmu.tmp_dir);
            cr_assert_eq(mkdir(p, 0500), 0, "%s", p);
        }
    }
    fmuc_fmu_close(&fmu);
}
