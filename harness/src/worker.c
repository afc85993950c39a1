/* The worker process: fork with its own process group and resource limits, captured output, a
 * length-prefixed JSON reply with an end marker, a wall-clock timeout that kills the whole group,
 * and a parent that judges only what it observed. Design §6 "Isolation", robustness §4.3. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fmuc/fmuc_proc.h"
#include "worker_internal.h"

/* SIGXCPU this far below the CPU limit fmucheck set is not the limit it set (seconds). */
#define XCPU_MARGIN_S 0.5

/* How long a worker waits after unloading when the FMU left threads running (B18). */
#define UNLOAD_GRACE_MS 50

long fmuc_worker_thread_count(void)
{
    DIR *d = opendir("/proc/self/task");
    long n = 0;
    struct dirent *e;
    if (!d)
        return -1;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

void fmuc_worker_release_begin(const fmuc_worker_ctx *ctx, fmuc_worker_release_mark *m)
{
    m->threads = fmuc_worker_thread_count();
    fmuc_worker_memory_now(ctx, &m->mem);
}

void fmuc_worker_release_end(fmuc_worker_ctx *ctx, const fmuc_worker_release_mark *m,
                             cJSON *into, long wait_ms)
{
    fmuc_worker_memory m1;
    fmuc_worker_memory_now(ctx, &m1);
    const fmuc_worker_memory *m0 = &m->mem;
    cJSON_AddNumberToObject(into, "allocs", (double)(m1.allocs - m0->allocs));
    cJSON_AddNumberToObject(into, "blocks_kept",
                            (double)((m1.allocs - m0->allocs) - (m1.frees - m0->frees)));
    cJSON_AddNumberToObject(into, "bytes_kept", (double)(m1.live_bytes - m0->live_bytes));
    cJSON_AddNumberToObject(into, "bad_frees", (double)(m1.bad_frees - m0->bad_frees));
    /* a thread pool may take a moment to wind down after the last instance */
    long left = -1;
    for (long waited = 0; m->threads >= 0; waited += 10) {
        long now = fmuc_worker_thread_count();
        left = now >= 0 ? now - m->threads : -1;
        if (left <= 0 || waited >= wait_ms)
            break;
        if (waited == 0)
            fmuc_worker_phase(ctx, "threads after the last instance");
        struct timespec ts = {0, 10 * 1000 * 1000};
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
            ;
    }
    cJSON_AddNumberToObject(into, "threads_left", (double)left);
}

#if defined(__SANITIZE_ADDRESS__)
#define FMUC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FMUC_ASAN 1
#endif
#endif
#ifndef FMUC_ASAN
#define FMUC_ASAN 0
#endif

#define DEFAULT_TIMEOUT_S 60.0
#define DEFAULT_AS (4ull << 30)
#define DEFAULT_FSIZE (1ull << 30)
#define DEFAULT_CAPTURE (64u << 10)
#define DEFAULT_REPLY_MAX (16u << 20)
#define NPROC_LIMIT FMUC_WORKER_NPROC_LIMIT
#define DRAIN_GRACE_S 0.5
#define REPLY_MAGIC "FMUCRPL1 "
#define REPLY_END "\nFMUCEND1\n"
#define REPLY_HDR_LEN (sizeof REPLY_MAGIC - 1 + 16 + 1) /* magic, 16 hex digits, '\n' */

/* ------------------------------------------------------------------------------------------ */

/* A worker past its wall-clock limit is still making progress while an FMI call was made, or
 * the last one returned, less than this long ago. */
static double progress_stall_s(double timeout)
{
    return timeout * 0.1 > 1.0 ? timeout * 0.1 : 1.0;
}

/* The new deadline of a worker at its deadline whose calls keep returning (spec.progress_limit_s):
 * the instant its current FMI call (or, between calls, the last call's return) becomes older
 * than progress_stall_s, at most start + limit; 0 when it already is (or nothing was called).
 * The trace region is the worker's (FMU code can write it): what it can gain is the limit. */
static double progress_deadline(fmuc_w_shared *sh, double start, double timeout, double limit,
                                double now)
{
    uint64_t n = __atomic_load_n(&sh->ncalls, __ATOMIC_ACQUIRE);
    if (n == 0)
        return 0.0;
    const fmuc_w_call *e = fmuc_trace__slot(sh, n - 1);
    if (e->seq != n - 1 || e->t0_ns == 0)
        return 0.0;
    uint32_t st = __atomic_load_n(&e->state, __ATOMIC_ACQUIRE);
    double last = (double)e->t0_ns * 1e-9;
    if (st != FMUC_W_CALL_RUNNING && st != FMUC_W_CALL_EMPTY)
        last += (double)e->dt_ns * 1e-9;
    double d = last + progress_stall_s(timeout);
    if (!(d > now))
        return 0.0;
    return d < start + limit ? d : start + limit;
}

void fmuc_worker_spec_init(fmuc_worker_spec *spec, const fmuc_fmu *fmu, const fmuc_options *opts)
{
    memset(spec, 0, sizeof *spec);
    spec->fmu = fmu;
    if (opts) {
        spec->timeout_s = opts->timeout_s;
        spec->timeout_multiplier = opts->timeout_multiplier;
        spec->progress_limit_s = opts->timeout_progress_s;
        spec->rlimit_as_bytes = opts->rlimit_as_bytes;
        spec->rlimit_fsize_bytes = opts->rlimit_fsize_bytes;
        spec->capture_cap_bytes = opts->capture_cap_bytes;
        spec->sandbox = &opts->sandbox;
        spec->tmp_parent = opts->tmp_parent;
        spec->read_files[0] = opts->input_csv;
        spec->read_files[1] = opts->reference_csv;
        spec->read_files[2] = opts->energy_spec;
        spec->read_files[3] = opts->compare_fmu;
        spec->hangs = opts->worker_hangs;
    }
}

/* ---- calls that hung before (fmuc_worker_hangs) --------------------------------------------- */

/* The calls whose hang is remembered: those whose behaviour does not depend on the simulated
 * time (a stepping call that hung bounds the horizon instead, checks/shared_runs.c): the
 * resets, and the end of a life cycle, which every worker reaches (a hang in fmi2FreeInstance
 * cost every later worker its timeout, dozens of them in the probe sets) */
/* a reset function (after it, the run repeats from the start: fmuc_worker_hang.after_reset) */
static int is_reset(const char *fn)
{
    return strcmp(fn, "fmi2Reset") == 0 || strcmp(fn, "fmiResetSlave") == 0 ||
           strcmp(fn, "fmi3Reset") == 0;
}

static int hang_remembered(const char *fn)
{
    static const char *const fns[] = {"fmi2Reset",         "fmiResetSlave",        "fmi3Reset",
                                      "fmi2Terminate",     "fmiTerminate",         "fmiTerminateSlave",
                                      "fmi3Terminate",     "fmi2FreeInstance",     "fmiFreeModelInstance",
                                      "fmiFreeSlaveInstance", "fmi3FreeInstance"};
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        if (strcmp(fn, fns[i]) == 0)
            return 1;
    return 0;
}

/* The name a hang of call e is remembered by: the function's, with "(NULL)" when its instance
 * argument was NULL (fmi2FreeInstance(NULL) must be ignored: its hang is not the instance's) */
static const char *hang_key(const fmuc_w_call *e, char *buf, size_t n)
{
    const char *name = fmuc_trace__fn_name(e->fn);
    snprintf(buf, n, "%s%s", name, (e->flags & FMUC_W_A_NULLP) ? "(NULL)" : "");
    return buf;
}

/* hang_key(e) == key, without formatting it (made before every FMI call once a hang is known) */
static int hang_key_is(const char *key, const fmuc_w_call *e)
{
    const char *name = fmuc_trace__fn_name(e->fn);
    size_t n = strlen(name);
    return strncmp(key, name, n) == 0 &&
           strcmp(key + n, (e->flags & FMUC_W_A_NULLP) ? "(NULL)" : "") == 0;
}

/* exit status of a worker that stopped before a call that hung before (the parent trusts it only
 * with sh->hung_before naming an entry of the spec's list) */
#define EXIT_HUNG_BEFORE 121

void fmuc_worker__before_call(fmuc_worker_ctx *ctx, const fmuc_w_call *e)
{
    fmuc_w_shared *sh = ctx->sh;
    unsigned libs = (ctx->handle[0] ? 1u : 0u) | (ctx->handle[1] ? 2u : 0u) | (ctx->handle[2] ? 4u : 0u);
    sh->libs = libs;
    const char *name = fmuc_trace__fn_name(e->fn);
    if (is_reset(name))
        sh->after_reset = 1;
    else if (strstr(name, "Instantiate"))
        sh->after_reset = 0;
    const fmuc_worker_hangs *h = ctx->spec->hangs;
    if (!h || !h->n)
        return;
    for (size_t k = 0; k < h->n && k < FMUC_WORKER_HANGS_MAX; k++)
        if ((h->e[k].ifaces & libs) && hang_key_is(h->e[k].fn, e) &&
            (!h->e[k].after_reset || sh->after_reset) &&
            (isnan(h->e[k].t) || e->d[0] == h->e[k].t)) {
            __atomic_store_n(&sh->hung_before, (uint32_t)k + 1, __ATOMIC_RELEASE);
            _exit(EXIT_HUNG_BEFORE);
        }
}

/* Parent: a worker that timed out in a remembered call: remember it (the first hang of a function
 * on an interface counts) */
static void note_hang(const fmuc_worker_spec *spec, const fmuc_w_shared *sh,
                      const fmuc_worker_outcome *out)
{
    fmuc_worker_hangs *h = spec->hangs;
    uint64_t n = sh->ncalls;
    if (!h || !out->call_in_progress || n == 0 || h->n >= FMUC_WORKER_HANGS_MAX)
        return;
    const fmuc_w_call *c = fmuc_trace__slot((fmuc_w_shared *)sh, n - 1);
    if (c->seq != n - 1 || c->state != FMUC_W_CALL_RUNNING)
        return;
    const char *fn = fmuc_trace__fn_name(c->fn);
    char key[sizeof h->e[0].fn];
    hang_key(c, key, sizeof key);
    unsigned libs = sh->libs & 7u;
    unsigned after = !hang_remembered(fn) && sh->after_reset;
    if (!(hang_remembered(fn) || after) || !libs)
        return;
    /* a doStep after a reset: at that communication point only */
    double t = after && strstr(fn, "DoStep") ? c->d[0] : NAN;
    for (size_t k = 0; k < h->n; k++)
        if (strcmp(h->e[k].fn, key) == 0 && (h->e[k].ifaces & libs) == libs &&
            h->e[k].after_reset == after &&
            (isnan(t) ? isnan(h->e[k].t) : h->e[k].t == t))
            return;
    fmuc_worker_hang *e = &h->e[h->n++];
    snprintf(e->fn, sizeof e->fn, "%s", key);
    e->ifaces = libs;
    e->after_reset = after;
    e->t = t;
    snprintf(e->by, sizeof e->by, "%s", spec->label ? spec->label : "");
}

const char *fmuc_worker_end_name(fmuc_worker_end e)
{
    switch (e) {
    case FMUC_WORKER_OK: return "ok";
    case FMUC_WORKER_CRASHED: return "crashed";
    case FMUC_WORKER_TIMEOUT: return "timeout";
    case FMUC_WORKER_EXITED_EARLY: return "exited-early";
    case FMUC_WORKER_PROTOCOL: return "protocol-error";
    }
    return "unknown";
}

/* ---- worker side ------------------------------------------------------------------------ */

const fmuc_fmu *fmuc_worker_fmu(const fmuc_worker_ctx *ctx)
{
    return ctx->spec->fmu;
}

cJSON *fmuc_worker_reply(fmuc_worker_ctx *ctx)
{
    return ctx->reply;
}

int fmuc_worker__in_copy(const fmuc_worker_ctx *ctx)
{
    return ctx->fork_mark ? *ctx->fork_mark == 0 : getpid() != ctx->pid;
}

void fmuc_worker__fork_guard(fmuc_worker_ctx *ctx)
{
    if (!fmuc_worker__in_copy(ctx))
        return;
    /* the call this copy came back from is the last one begun in its own (private) ctx; the
     * shared trace moves on with the worker. The first copy writes its name (a plain byte copy)
     * and then marks it ready; the count comes last, so a count read means a copy came back. */
    fmuc_w_shared *sh = ctx->sh;
    if (__atomic_exchange_n(&sh->forked_claim, 1u, __ATOMIC_ACQ_REL) == 0) {
        const char *name = ctx->last_fn < FMUC_W_FN_COUNT ? fmuc_trace__fn_name(ctx->last_fn) : "";
        size_t i = 0;
        for (; name[i] && i + 1 < sizeof sh->forked_call; i++)
            sh->forked_call[i] = name[i];
        sh->forked_call[i] = '\0';
        __atomic_store_n(&sh->forked_ready, 1u, __ATOMIC_RELEASE);
    }
    __atomic_fetch_add(&sh->forked_copies, 1, __ATOMIC_ACQ_REL);
    _exit(0);
}

void fmuc_worker_phase(fmuc_worker_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    fmuc_worker__fork_guard(ctx);
    va_start(ap, fmt);
    ctx->sh->phase_at = 0;
    ctx->phase_label = NULL;
    vsnprintf(ctx->sh->phase, sizeof ctx->sh->phase, fmt, ap);
    va_end(ap);
}

void fmuc_worker_phase_at(fmuc_worker_ctx *ctx, const char *label, long long k, double t)
{
    fmuc_w_shared *sh = ctx->sh;
    fmuc_worker__fork_guard(ctx);
    if (label != ctx->phase_label || !sh->phase_at) {
        sh->phase_at = 0; /* a crash while copying leaves a plain (maybe partial) label */
        snprintf(sh->phase, sizeof sh->phase, "%s", label ? label : "");
        ctx->phase_label = label;
    }
    sh->phase_k = k;
    sh->phase_t = t;
    sh->phase_at = 1;
}

int fmuc_worker__reply_fd(const fmuc_worker_ctx *ctx)
{
    return ctx->reply_fd;
}

int fmuc_worker_write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static void send_reply(fmuc_worker_ctx *ctx, int fn_status)
{
    cJSON *env = cJSON_CreateObject();
    char *text = NULL;
    char hdr[REPLY_HDR_LEN + 1];

    fmuc_worker__fork_guard(ctx);
    if (env) {
        cJSON_AddNumberToObject(env, "fn_status", fn_status);
        if (ctx->reply)
            cJSON_AddItemReferenceToObject(env, "reply", ctx->reply);
        text = cJSON_PrintUnformatted(env);
    }
    if (text) {
        size_t len = strlen(text);
        snprintf(hdr, sizeof hdr, "%s%016" PRIx64 "\n", REPLY_MAGIC, (uint64_t)len);
        if (fmuc_worker_write_all(ctx->reply_fd, hdr, REPLY_HDR_LEN) != 0 ||
            fmuc_worker_write_all(ctx->reply_fd, text, len) != 0 ||
            fmuc_worker_write_all(ctx->reply_fd, REPLY_END, sizeof REPLY_END - 1) != 0)
            ctx->sh->reply_errno = errno ? errno : EIO; /* the parent names it */
    }
    free(text);
    cJSON_Delete(env);
}

static void reset_signals(void)
{
    struct sigaction sa;
    sigset_t all;
    int s;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    for (s = 1; s < NSIG; s++)
        if (s != SIGKILL && s != SIGSTOP)
            sigaction(s, &sa, NULL);
    sigemptyset(&all);
    sigprocmask(SIG_SETMASK, &all, NULL);
}

static void set_limit(int res, rlim_t want)
{
    struct rlimit rl;
    if (getrlimit(res, &rl) != 0)
        return;
    if (rl.rlim_max != RLIM_INFINITY && want > rl.rlim_max)
        want = rl.rlim_max;
    rl.rlim_cur = want;
    setrlimit(res, &rl);
}

/* Move fd to at least 10 so the dup2 onto 0..3 below cannot clobber another source fd. */
static int lift_fd(int fd)
{
    return fcntl(fd, F_DUPFD, 10);
}

static void close_from(int lowfd)
{
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)lowfd, ~0u, 0u) == 0)
        return;
#endif
    {
        long max = sysconf(_SC_OPEN_MAX);
        int fd;
        if (max < 0 || max > 65536)
            max = 65536;
        for (fd = lowfd; fd < max; fd++)
            close(fd);
    }
}

typedef struct child_args {
    const fmuc_worker_spec *spec;
    fmuc_w_shared *sh;
    int out_w, err_w, rep_w;
    pid_t parent;
    const char *token;
    double timeout_s;
    fmuc_worker_fn fn;
    void *payload;
    const fmuc_sandbox_plan *plan;
} child_args;

static void worker_child(const child_args *a) __attribute__((noreturn));
static void worker_child(const child_args *a)
{
    fmuc_worker_ctx ctx;
    int out_w, err_w, rep_w, nul, rc;
    rlim_t cpu;

    setpgid(0, 0);
    /* E04: the worker dies with the parent. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != a->parent)
        _exit(125);
    reset_signals();

    out_w = lift_fd(a->out_w);
    err_w = lift_fd(a->err_w);
    rep_w = lift_fd(a->rep_w);
    nul = open("/dev/null", O_RDONLY);
    if (out_w < 0 || err_w < 0 || rep_w < 0 || nul < 0)
        _exit(126);
    if (dup2(nul, 0) < 0 || dup2(out_w, 1) < 0 || dup2(err_w, 2) < 0 || dup2(rep_w, 3) < 0)
        _exit(126);
    close_from(4);

    set_limit(RLIMIT_CORE, 0);
    cpu = (rlim_t)ceil(a->timeout_s) + 1;
    set_limit(RLIMIT_CPU, cpu);
    set_limit(RLIMIT_FSIZE, (rlim_t)a->spec->rlimit_fsize_bytes);
#if !FMUC_ASAN
    /* ASan reserves terabytes of shadow address space: RLIMIT_AS would break it. */
    set_limit(RLIMIT_AS, (rlim_t)a->spec->rlimit_as_bytes);
#endif
    /* B11, B12, E08: no_new_privs, network, privilege drop, Landlock, recording (sandbox.c) */
    if (fmuc_sandbox__apply(a->plan, &a->sh->sandbox, (int)a->parent) < 0)
        _exit(124);
    /* B10: after the sandbox's own thread started: the limit counts every process and thread
     * of the worker's user, so another worker's FMU holding them must not keep this worker's
     * recording thread from starting (that was an error on api-sandbox) */
    set_limit(RLIMIT_NPROC, NPROC_LIMIT);
    memset(&ctx, 0, sizeof ctx);
    ctx.spec = a->spec;
    ctx.sh = a->sh;
    ctx.pid = getpid();
    ctx.last_fn = FMUC_W_FN_COUNT; /* none yet */
    fmuc_pstate__fp_take(&ctx);
    {
        /* a page a forked copy sees zeroed: telling a copy costs a load, not a system call
         * (getpid passes the seccomp filters: about 0.7 us on every FMI call) */
        void *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m != MAP_FAILED && madvise(m, 4096, MADV_WIPEONFORK) == 0) {
            ctx.fork_mark = m;
            *ctx.fork_mark = 1;
        } else if (m != MAP_FAILED) {
            munmap(m, 4096);
        }
    }
    ctx.reply_fd = 3;
    ctx.alloc_cap = a->spec->rlimit_as_bytes;
    ctx.reply = cJSON_CreateObject();
    fmuc_callbacks__init(&ctx);
    ctx.sh->magic = FMUC_W_MAGIC;
    fmuc_worker_phase(&ctx, "run");

    long threads0 = fmuc_worker_thread_count();
    rc = a->fn(&ctx, a->payload);
    fmuc_worker__fork_guard(&ctx);

    /* the reply goes before the library is unloaded: a library whose unloading ends the process
     * (a destructor that crashes, a thread left running in code dlclose unmaps) has had its
     * calls judged; the parent takes the reply and notes how the unload ended (B18) */
    fmuc_worker_phase(&ctx, "reply");
    __atomic_store_n(&ctx.sh->replied, 1u, __ATOMIC_RELEASE);
    send_reply(&ctx, rc);
    fmuc_loader__unload_all(&ctx);
    long threads = threads0 >= 0 ? fmuc_worker_thread_count() : -1;
    if (threads > threads0) {
        /* B18: threads the FMU left running may now return into unmapped code. Give them a
         * moment to crash here, in a phase that says so, instead of racing the exit. */
        fmuc_worker_phase(&ctx, "unload (threads the FMU started still running: %ld)",
                          threads - threads0);
        struct timespec ts = {0, UNLOAD_GRACE_MS * 1000000L};
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
            ;
    }
    _exit(0);
}

/* ---- parent side ------------------------------------------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct sink {
    int fd;
    char *buf;
    size_t len, keep;   /* bytes stored, most bytes to store */
    uint64_t total;
} sink;

/* Read what is available, at most 1 MiB per call so that an endless writer cannot keep the
 * parent from checking its deadline. */
static int sink_read(sink *s)
{
    char tmp[65536];
    for (int rounds = 0; rounds < 16; rounds++) {
        ssize_t r = read(s->fd, tmp, sizeof tmp);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return 0;
            r = 0; /* treat errors as end of stream */
        }
        if (r == 0) {
            close(s->fd);
            s->fd = -1;
            return 0;
        }
        s->total += (uint64_t)r;
        if (s->len < s->keep) {
            size_t take = (size_t)r < s->keep - s->len ? (size_t)r : s->keep - s->len;
            char *nb = realloc(s->buf, s->len + take + 1);
            if (!nb)
                return -1;
            s->buf = nb;
            memcpy(s->buf + s->len, tmp, take);
            s->len += take;
            s->buf[s->len] = '\0';
        }
    }
    return 0;
}

static int pidfd_open_(pid_t pid)
{
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}

static int proc_has_token(long pid, const char *needle, size_t nlen)
{
    char path[64];
    char *buf;
    size_t len = 0, cap = 4u << 20;
    int fd, found = 0;
    ssize_t n;

    snprintf(path, sizeof path, "/proc/%ld/maps", pid);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    buf = malloc(cap);
    if (buf) {
        while (len < cap && (n = read(fd, buf + len, cap - len)) > 0)
            len += (size_t)n;
        found = memmem(buf, len, needle, nlen) != NULL;
        free(buf);
    }
    close(fd);
    return found;
}

/* The children we had before the worker was made (the process making workers has none of its
 * own as a rule; a test keeps one): every other child after it ran descends from it. */
typedef struct known_children {
    pid_t pid[64];
    size_t n;
    int ok; /* read, and complete */
} known_children;

static void known_children_read(known_children *k)
{
    int complete;
    memset(k, 0, sizeof *k);
    long n = fmuc_proc_children(getpid(), k->pid, sizeof k->pid / sizeof k->pid[0], &complete);
    k->n = n > 0 ? (size_t)n : 0;
    k->ok = n >= 0 && complete; /* else unknown: the token alone decides */
}

static int known_child(const known_children *k, long pid)
{
    for (size_t i = 0; i < k->n; i++)
        if (k->pid[i] == (pid_t)pid)
            return 1;
    return 0;
}

/* B10: descendants that escaped the process group (setsid/setpgid) were reparented to us while
 * we are a child subreaper. They map the shared region, a memfd whose name carries the token
 * ("/memfd:fmuc-worker-<token>" in /proc/<pid>/maps), unless they exec'ed another program: so
 * a child of ours that was not one before the worker was made counts too (the process making
 * workers forks nothing else while one runs; fmucheck's runner and lanes do not). */
/* Kill pid if it is our child carrying the worker's token or new since the worker was made
 * (known: the children before; not ok: unknown); 1 when killed. */
static int sweep_one(long pid, pid_t self, const char *needle, size_t nlen,
                     const known_children *known)
{
    if (pid <= 0 || fmuc_proc_ppid((pid_t)pid) != self)
        return 0;
    if (!proc_has_token(pid, needle, nlen) && !(known->ok && !known_child(known, pid)))
        return 0;
    kill((pid_t)pid, SIGKILL);
    waitpid((pid_t)pid, NULL, 0);
    return 1;
}

/* One pass over our children. Escaped descendants were reparented to us (we are their
 * subreaper), so /proc/self/task/<pid>/children lists every candidate; reading it costs one
 * file instead of a scan of every process on the machine. Falls back to the scan where the
 * kernel lacks that file. Returns how many were killed, -1 when /proc is unusable. */
static int sweep_pass(pid_t self, const char *needle, size_t nlen,
                      const known_children *known)
{
    int killed = 0;
    pid_t pids[1024];
    /* more than fit: the next pass (sweep_escaped repeats while it kills) sees the rest */
    long n = fmuc_proc_children(self, pids, sizeof pids / sizeof pids[0], NULL);
    if (n >= 0) {
        for (long i = 0; i < n; i++)
            killed += sweep_one(pids[i], self, needle, nlen, known);
        return killed;
    }
    DIR *d = opendir("/proc");
    struct dirent *de;
    if (!d)
        return -1;
    while ((de = readdir(d)) != NULL) {
        char *end;
        long pid = strtol(de->d_name, &end, 10);
        if (!*end)
            killed += sweep_one(pid, self, needle, nlen, known);
    }
    closedir(d);
    return killed;
}

static void sweep_escaped(const char *token, const known_children *known)
{
    char needle[96];
    size_t nlen = (size_t)snprintf(needle, sizeof needle, "fmuc-worker-%s ", token);
    pid_t self = getpid();
    /* a pass kills our children; their own children come to us when they die, for the next
     * pass: a chain of escaped processes (each setsid and fork) goes one level a pass, so the
     * passes go on until one kills nothing, up to the most processes a worker's user may have */
    for (int round = 0; round < FMUC_WORKER_NPROC_LIMIT + 64; round++)
        if (sweep_pass(self, needle, nlen, known) <= 0)
            return;
}

/* Kill the whole process group and reap what became our children. */
static void kill_group(pid_t pgid)
{
    double until = now_s() + 2.0;
    kill(-pgid, SIGKILL);
    for (;;) {
        pid_t r = waitpid(-pgid, NULL, WNOHANG);
        if (r < 0)
            break; /* ECHILD: none of the group is our child any more */
        if (r == 0) {
            struct timespec ts = {0, 5 * 1000 * 1000};
            if (now_s() > until)
                break;
            kill(-pgid, SIGKILL);
            nanosleep(&ts, NULL);
        }
    }
}

/* The shared region: a memfd named after the token (so escaped descendants can be recognised),
 * falling back to anonymous shared memory. */
static fmuc_w_shared *map_shared(const char *token)
{
    char name[96];
    int fd;
    void *p;

    snprintf(name, sizeof name, "fmuc-worker-%s", token);
    fd = memfd_create(name, MFD_CLOEXEC);
    if (fd >= 0) {
        if (ftruncate(fd, (off_t)sizeof(fmuc_w_shared)) == 0) {
            p = mmap(NULL, sizeof(fmuc_w_shared), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            close(fd);
            if (p != MAP_FAILED)
                return p;
        } else {
            close(fd);
        }
    }
    return mmap(NULL, sizeof(fmuc_w_shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                -1, 0);
}

static int set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static void set_detail(fmuc_worker_outcome *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void set_detail(fmuc_worker_outcome *out, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    free(out->detail);
    out->detail = strdup(buf);
}

/* Validate the reply frame: header, exact length, body JSON of the expected shape, end marker.
 * buf/len are the (untrusted) bytes the worker wrote; buf may be NULL when len is 0. */
void fmuc_worker__decode_reply(const char *buf, size_t len_in, size_t max, fmuc_worker_outcome *out)
{
    const size_t endlen = sizeof REPLY_END - 1;
    char hex[17];
    char *end;
    unsigned long long len;
    cJSON *doc, *st, *rep;

    if (!buf || len_in < REPLY_HDR_LEN || memcmp(buf, REPLY_MAGIC, sizeof REPLY_MAGIC - 1) != 0 ||
        buf[REPLY_HDR_LEN - 1] != '\n') {
        out->end = FMUC_WORKER_PROTOCOL;
        set_detail(out, "reply has no valid header (%zu bytes received)", len_in);
        return;
    }
    memcpy(hex, buf + sizeof REPLY_MAGIC - 1, 16);
    hex[16] = '\0';
    for (int i = 0; i < 16; i++) {
        char c = hex[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
            out->end = FMUC_WORKER_PROTOCOL;
            set_detail(out, "reply length field is not hexadecimal");
            return;
        }
    }
    errno = 0;
    len = strtoull(hex, &end, 16);
    if (errno || *end) {
        out->end = FMUC_WORKER_PROTOCOL;
        set_detail(out, "reply length field is not hexadecimal");
        return;
    }
    if (len > max) {
        out->end = FMUC_WORKER_PROTOCOL;
        set_detail(out, "reply announces %llu bytes, over the %zu-byte limit", len, max);
        return;
    }
    if (len_in - REPLY_HDR_LEN < endlen || len != len_in - REPLY_HDR_LEN - endlen ||
        memcmp(buf + REPLY_HDR_LEN + len, REPLY_END, endlen) != 0) {
        out->end = FMUC_WORKER_PROTOCOL;
        set_detail(out, "reply frame is %zu bytes, %llu announced, or lacks the end marker",
                   len_in, len);
        return;
    }
    doc = cJSON_ParseWithLength(buf + REPLY_HDR_LEN, (size_t)len);
    st = doc ? cJSON_GetObjectItemCaseSensitive(doc, "fn_status") : NULL;
    rep = doc ? cJSON_GetObjectItemCaseSensitive(doc, "reply") : NULL;
    /* range check before the conversion: (int) of NaN or 1e300 is undefined behaviour */
    if (!cJSON_IsObject(doc) || !cJSON_IsNumber(st) || !cJSON_IsObject(rep) ||
        !(st->valuedouble >= -2147483648.0 && st->valuedouble <= 2147483647.0) ||
        st->valuedouble != (double)(int)st->valuedouble) {
        cJSON_Delete(doc);
        out->end = FMUC_WORKER_PROTOCOL;
        set_detail(out, "reply is not a JSON object of the expected shape");
        return;
    }
    out->fn_status = (int)st->valuedouble;
    cJSON_Delete(out->reply);
    out->reply = cJSON_DetachItemViaPointer(doc, rep);
    cJSON_Delete(doc);
    out->end = FMUC_WORKER_OK;
}

static void parse_reply(const sink *r, int overflow, size_t max, fmuc_worker_outcome *out)
{
    if (overflow) {
        out->end = FMUC_WORKER_PROTOCOL;
        set_detail(out, "reply larger than the %zu-byte limit (%" PRIu64 " bytes sent)", max,
                   r->total);
        return;
    }
    fmuc_worker__decode_reply(r->buf, r->len, max, out);
}

void fmuc_worker_death_text(const fmuc_worker_outcome *o, char *buf, size_t len)
{
    char what[64];
    const char *abbr = o->end == FMUC_WORKER_CRASHED ? sigabbrev_np(o->signal) : NULL;
    switch (o->end) {
    case FMUC_WORKER_CRASHED:
        if (abbr)
            snprintf(what, sizeof what, "SIG%s%s", abbr,
                     o->own_limit[0] ? " (its own lowered CPU limit)" : "");
        else
            snprintf(what, sizeof what, "signal %d", o->signal);
        break;
    case FMUC_WORKER_TIMEOUT:
        snprintf(what, sizeof what, "%s",
                 o->hung_before ? "a hang (in an earlier worker, not called again)"
                                : "a hang (wall-clock limit)");
        break;
    case FMUC_WORKER_EXITED_EARLY: snprintf(what, sizeof what, "exit status %d", o->exit_code); break;
    default: snprintf(what, sizeof what, "a broken worker reply"); break;
    }
    if (o->call_in_progress && o->last_call[0])
        snprintf(buf, len, "%s in %s", what, o->last_call);
    else if (o->phase[0])
        snprintf(buf, len, "%s in phase '%s'", what, o->phase);
    else
        snprintf(buf, len, "%s", what);
}

void fmuc_worker_death_of(const fmuc_worker_outcome *o, fmuc_worker_death *d)
{
    memset(d, 0, sizeof *d);
    if (o->end != FMUC_WORKER_CRASHED && o->end != FMUC_WORKER_TIMEOUT &&
        o->end != FMUC_WORKER_EXITED_EARLY)
        return;
    d->end = (int)o->end;
    d->code = o->end == FMUC_WORKER_CRASHED       ? o->signal
              : o->end == FMUC_WORKER_EXITED_EARLY ? o->exit_code
                                                   : 0;
    if (o->call_in_progress && o->last_call[0]) {
        size_t n = strcspn(o->last_call, "(");
        if (n < sizeof d->fn)
            memcpy(d->fn, o->last_call, n);
    }
}

int fmuc_worker_death_same(const fmuc_worker_death *a, const fmuc_worker_death *b)
{
    return a->end != 0 && a->end == b->end && a->code == b->code && a->fn[0] &&
           strcmp(a->fn, b->fn) == 0;
}

/* B18: the worker replied, then unloading the FMU's library ended it (a crash, a hang or an exit
 * in dlclose or in the wait after it). The reply stands: the calls were judged; how the unload
 * ended goes to out->after_reply. When the reply does not parse, the end stays as it was. */
static void take_reply_before_unload(const sink *r, size_t max, fmuc_worker_outcome *out)
{
    char how[sizeof out->after_reply];
    if (out->end != FMUC_WORKER_CRASHED && out->end != FMUC_WORKER_TIMEOUT &&
        out->end != FMUC_WORKER_EXITED_EARLY)
        return;
    fmuc_worker_death_text(out, how, sizeof how);
    fmuc_worker_end end = out->end;
    char *detail = out->detail; /* decoding replaces out->detail when it fails */
    out->detail = NULL;
    fmuc_worker__decode_reply(r->buf, r->len, max, out);
    if (out->end != FMUC_WORKER_OK) { /* not a reply after all: the end as it was */
        free(out->detail);
        out->detail = detail;
        out->end = end;
        return;
    }
    free(detail);
    out->signal = 0;
    out->exit_code = 0;
    snprintf(out->after_reply, sizeof out->after_reply, "%s", how);
}

static void capture_out(fmuc_worker_capture *c, sink *s)
{
    c->bytes = s->total;
    c->head = s->buf ? s->buf : strdup("");
    c->head_len = s->len;
    c->truncated = s->total > s->len;
    s->buf = NULL;
}

fmuc_err fmuc_worker_run(const fmuc_worker_spec *spec_in, fmuc_worker_fn fn, void *payload,
                         fmuc_worker_outcome *out, fmuc_diag *diag)
{
    fmuc_worker_spec spec;
    fmuc_w_shared *sh = MAP_FAILED;
    int pout[2] = {-1, -1}, perr[2] = {-1, -1}, prep[2] = {-1, -1};
    sink so = {-1, NULL, 0, 0, 0}, se = {-1, NULL, 0, 0, 0}, sr = {-1, NULL, 0, 0, 0};
    int pidfd = -1, status = 0, alive = 0, timed_out = 0, reply_overflow = 0;
    int prev_subreaper = 0, subreaper_set = 0;
    double start, deadline, drain_until = 0, timeout, limit, ext;
    int extended = 0;
    char token[64];
    pid_t pid = -1;
    known_children known = {{0}, 0, 0}; /* our children before the worker (sweep_escaped) */
    fmuc_err err = FMUC_OK;
    child_args ca;
    fmuc_sandbox_plan plan;

    memset(out, 0, sizeof *out);
    memset(&plan, 0, sizeof plan);
    if (!spec_in || !fn)
        return fmuc_diag_set(diag, FMUC_ERROR, "worker: no spec or function");
    spec = *spec_in;
    if (!(spec.timeout_s > 0))
        spec.timeout_s = DEFAULT_TIMEOUT_S;
    if (!(spec.timeout_multiplier > 0))
        spec.timeout_multiplier = 1.0;
    if (!spec.rlimit_as_bytes)
        spec.rlimit_as_bytes = DEFAULT_AS;
    if (!spec.rlimit_fsize_bytes)
        spec.rlimit_fsize_bytes = DEFAULT_FSIZE;
    if (!spec.capture_cap_bytes)
        spec.capture_cap_bytes = DEFAULT_CAPTURE;
    if (!spec.reply_max_bytes)
        spec.reply_max_bytes = DEFAULT_REPLY_MAX;
    timeout = spec.timeout_s * spec.timeout_multiplier;
    /* the furthest a worker whose calls keep returning may run (progress_deadline) */
    limit = spec.progress_limit_s > spec.timeout_s ? spec.progress_limit_s * spec.timeout_multiplier
                                                   : timeout;

    snprintf(token, sizeof token, "%ld-%lld", (long)getpid(), (long long)(now_s() * 1e6));
    sh = map_shared(token);
    if (sh == MAP_FAILED) {
        err = fmuc_diag_set(diag, FMUC_ENOMEM, "worker: mmap of the shared region failed: %s",
                            strerror(errno));
        goto out;
    }
    if (pipe2(pout, O_CLOEXEC) < 0 || pipe2(perr, O_CLOEXEC) < 0 || pipe2(prep, O_CLOEXEC) < 0) {
        err = fmuc_diag_set(diag, FMUC_EIO, "worker: pipe failed: %s", strerror(errno));
        goto out;
    }

    err = fmuc_sandbox__prepare(&plan, spec.sandbox, spec.fmu ? spec.fmu->tmp_dir : NULL,
                                spec.tmp_parent, diag);
    if (err < 0)
        goto out;
    plan.record = spec.record_sandbox != 0;
    plan.record_only = spec.record_sandbox == FMUC_RECORD_ONLY;
    {
        /* readable in the worker besides the system folders: the FMU's temp folder (extraction
         * and scratch) and the user's input files, by absolute path */
        /* the libraries' folders of ME, CS, SE (inside unpack_dir for an extracted FMU; a bare
         * library in tests) */
        char *libdir[3] = {NULL, NULL, NULL};
        const char *read[2 + sizeof libdir / sizeof libdir[0] +
                         sizeof spec.read_files / sizeof spec.read_files[0]];
        char *abs[sizeof spec.read_files / sizeof spec.read_files[0]] = {0};
        size_t nread = 0;
        read[nread++] = spec.fmu ? spec.fmu->tmp_dir : NULL;
        read[nread++] = spec.fmu ? spec.fmu->unpack_dir : NULL;
        for (size_t k = 0; k < sizeof libdir / sizeof libdir[0]; k++) {
            const char *lib = fmuc_fmu_lib_path(spec.fmu, (int)k);
            const char *slash = lib ? strrchr(lib, '/') : NULL;
            if (slash && slash != lib)
                libdir[k] = strndup(lib, (size_t)(slash - lib));
            read[nread++] = libdir[k];
        }
        for (size_t i = 0; i < sizeof spec.read_files / sizeof spec.read_files[0]; i++)
            read[nread++] = spec.read_files[i] ? (abs[i] = realpath(spec.read_files[i], NULL))
                                               : NULL;
        _Static_assert(sizeof read / sizeof read[0] ==
                           2 + sizeof libdir / sizeof libdir[0] + sizeof abs / sizeof abs[0],
                       "one slot for every folder and file the worker may read");
        err = fmuc_sandbox__plan_access(&plan, read, nread, diag);
        for (size_t i = 0; i < sizeof abs / sizeof abs[0]; i++)
            free(abs[i]);
        for (size_t k = 0; k < sizeof libdir / sizeof libdir[0]; k++)
            free(libdir[k]);
        if (err < 0)
            goto out;
    }

    /* Orphans of the worker get reparented to us (not init) so they can be killed and reaped. */
    if (prctl(PR_GET_CHILD_SUBREAPER, &prev_subreaper) == 0 && !prev_subreaper &&
        prctl(PR_SET_CHILD_SUBREAPER, 1) == 0)
        subreaper_set = 1;

    ca.spec = &spec;
    ca.sh = sh;
    ca.out_w = pout[1];
    ca.err_w = perr[1];
    ca.rep_w = prep[1];
    ca.parent = getpid();
    ca.token = token;
    ca.timeout_s = limit; /* the CPU limit follows the furthest wall-clock limit */
    ca.fn = fn;
    ca.payload = payload;
    ca.plan = &plan;

    fflush(NULL); /* no buffered parent output duplicated by a worker that calls exit() */
    known_children_read(&known);
    start = now_s();
    pid = fork();
    if (pid < 0) {
        err = fmuc_diag_set(diag, FMUC_ERROR, "worker: fork failed: %s", strerror(errno));
        goto out;
    }
    if (pid == 0)
        worker_child(&ca);
    alive = 1;
    setpgid(pid, pid); /* also here: no race with the kill below */
    close(pout[1]);
    close(perr[1]);
    close(prep[1]);
    pout[1] = perr[1] = prep[1] = -1;
    so.fd = pout[0];
    se.fd = perr[0];
    sr.fd = prep[0];
    pout[0] = perr[0] = prep[0] = -1;
    so.keep = se.keep = (size_t)spec.capture_cap_bytes;
    sr.keep = REPLY_HDR_LEN + spec.reply_max_bytes + sizeof REPLY_END;
    set_nonblock(so.fd);
    set_nonblock(se.fd);
    set_nonblock(sr.fd);
    pidfd = pidfd_open_(pid);
    deadline = start + timeout;
    struct rlimit cpu_lim;
    int cpu_lim_ok = 0;

    for (;;) {
        struct pollfd pfd[4];
        sink *map[4];
        nfds_t n = 0, i;
        double t = now_s(), wait_s;

        if (!alive && so.fd < 0 && se.fd < 0 && sr.fd < 0)
            break; /* all drained: do not poll zero fds for the whole grace period */
        if (so.fd >= 0) { pfd[n].fd = so.fd; pfd[n].events = POLLIN; map[n++] = &so; }
        if (se.fd >= 0) { pfd[n].fd = se.fd; pfd[n].events = POLLIN; map[n++] = &se; }
        if (sr.fd >= 0) { pfd[n].fd = sr.fd; pfd[n].events = POLLIN; map[n++] = &sr; }
        if (alive && pidfd >= 0) { pfd[n].fd = pidfd; pfd[n].events = POLLIN; map[n++] = NULL; }
        if (alive)
            wait_s = deadline - t;
        else
            wait_s = drain_until - t;
        if (alive && pidfd < 0 && wait_s > 0.02)
            wait_s = 0.02;
        if (wait_s < 0)
            wait_s = 0;
        if (poll(pfd, n, (int)(wait_s * 1000) + 1) < 0 && errno != EINTR) {
            err = fmuc_diag_set(diag, FMUC_EIO, "worker: poll failed: %s", strerror(errno));
            break;
        }
        for (i = 0; i < n; i++) {
            if (!map[i] || !(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            if (sink_read(map[i]) < 0) {
                err = fmuc_diag_set(diag, FMUC_ENOMEM, "worker: out of memory capturing output");
                break;
            }
        }
        if (err < 0)
            break;
        if (sr.total > sr.keep)
            reply_overflow = 1;
        if (alive) {
            struct rusage ru;
            memset(&ru, 0, sizeof ru);
            /* before reaping: the CPU limit the worker ended with (FMU code may have lowered
             * the one fmucheck set, and then be killed by it) */
            siginfo_t si;
            memset(&si, 0, sizeof si);
            pid_t r = 0;
            if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0) {
                r = -1; /* ECHILD: below */
            } else if (si.si_pid == pid) {
                cpu_lim_ok = fmuc_proc_cpu_limit(pid, &cpu_lim) == 0;
                while ((r = wait4(pid, &status, 0, &ru)) < 0 && errno == EINTR)
                    ;
            }
            if (r == pid) {
                alive = 0;
            } else if (r < 0 && errno == ECHILD) {
                /* SIGCHLD ignored by the host process: the status is lost */
                alive = 0;
                status = -1;
            } else if (now_s() >= deadline &&
                       (ext = limit > timeout ? progress_deadline(sh, start, timeout, limit,
                                                                  now_s())
                                              : 0.0) > deadline) {
                /* at its limit, but its FMI calls keep returning: a slow FMU, no hang */
                deadline = ext;
                extended = 1;
            } else if (now_s() >= deadline) {
                kill(-pid, SIGKILL);
                kill(pid, SIGKILL);
                while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
                    ;
                alive = 0;
                timed_out = 1;
            }
            if (!alive) {
                out->duration_s = now_s() - start;
                out->cpu_s = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
                             (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
                /* descendants may hold the pipes open: kill them all, then drain */
                kill_group(pid);
                sweep_escaped(token, &known);
                drain_until = now_s() + DRAIN_GRACE_S;
            }
        } else if ((so.fd < 0 && se.fd < 0 && sr.fd < 0) || now_s() >= drain_until) {
            break;
        }
    }
    if (alive) { /* internal failure mid-loop: never leave the worker running */
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        alive = 0;
        out->duration_s = now_s() - start;
    }
    kill_group(pid);
    sweep_escaped(token, &known);
    if (err < 0)
        goto out;

    fmuc_trace__decode(sh, out);
    fmuc_sandbox__decode(&sh->sandbox, out);
    out->forked_copies = __atomic_load_n(&sh->forked_copies, __ATOMIC_ACQUIRE);
    if (out->forked_copies && __atomic_load_n(&sh->forked_ready, __ATOMIC_ACQUIRE)) {
        memcpy(out->forked_call, (const char *)sh->forked_call, sizeof out->forked_call);
        out->forked_call[sizeof out->forked_call - 1] = '\0';
    }
    capture_out(&out->out, &so);
    capture_out(&out->err, &se);

    uint32_t hb = __atomic_load_n(&sh->hung_before, __ATOMIC_ACQUIRE);
    if (timed_out) {
        out->end = FMUC_WORKER_TIMEOUT;
        if (extended)
            set_detail(out, "wall-clock limit of %g s exceeded and no FMI call returned for %g s "
                            "(or the further limit of %g s for a worker whose calls keep "
                            "returning was reached); process group killed",
                       timeout, progress_stall_s(timeout), limit);
        else
            set_detail(out, "wall-clock limit of %g s exceeded; process group killed", timeout);
        note_hang(&spec, sh, out);
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_HUNG_BEFORE && spec.hangs &&
               hb >= 1 && hb <= spec.hangs->n && hb <= FMUC_WORKER_HANGS_MAX &&
               out->call_in_progress) {
        /* the call in progress hung in an earlier worker: the same hang, not waited for again */
        const fmuc_worker_hang *e = &spec.hangs->e[hb - 1];
        out->end = FMUC_WORKER_TIMEOUT;
        out->hung_before = 1;
        snprintf(out->hung_by, sizeof out->hung_by, "%s", e->by);
        set_detail(out, "%s%s hung in an earlier worker of this FMU%s%s%s and is not called "
                        "again%s (the same hang, not waited for again)",
                   e->fn, e->after_reset ? " after a reset" : "", e->by[0] ? " (" : "", e->by,
                   e->by[0] ? ")" : "", e->after_reset ? " after a reset" : "");
    } else if (status == -1) {
        out->end = FMUC_WORKER_PROTOCOL;
        set_detail(out, "worker exit status unavailable (SIGCHLD ignored by the host process?)");
    } else if (WIFSIGNALED(status)) {
        out->signal = WTERMSIG(status);
        /* the CPU limit fmucheck set (worker_main: ceil(timeout) + 1 s); SIGXCPU well before
         * it comes from FMU code that lowered RLIMIT_CPU (or raised the signal itself): the FMU
         * ended its own process, a crash, not a hang to remember */
        double cpu_limit = ceil(limit) + 1;
        int lowered = cpu_lim_ok && (out->signal == SIGXCPU || out->signal == SIGKILL) &&
                      ((double)cpu_lim.rlim_cur + XCPU_MARGIN_S < cpu_limit ||
                       (double)cpu_lim.rlim_max + XCPU_MARGIN_S < cpu_limit);
        if (lowered) {
            /* killed by a CPU limit FMU code lowered (SIGXCPU at the soft one, SIGKILL at the
             * hard one): the FMU ended its own process (fmuc_worker_outcome_to_result) */
            char a[24], b[24];
            out->end = FMUC_WORKER_CRASHED;
            snprintf(out->own_limit, sizeof out->own_limit,
                     "RLIMIT_CPU at %s%s (hard %s%s; fmucheck set %g s)",
                     fmuc_proc_limit_text(cpu_lim.rlim_cur, a, sizeof a),
                     cpu_lim.rlim_cur == RLIM_INFINITY ? "" : " s",
                     fmuc_proc_limit_text(cpu_lim.rlim_max, b, sizeof b),
                     cpu_lim.rlim_max == RLIM_INFINITY ? "" : " s", cpu_limit);
            set_detail(out, "killed by its CPU time limit after %.2f s of CPU time: FMU code "
                            "lowered the process's %s",
                       out->cpu_s, out->own_limit);
        } else if (out->signal == SIGXCPU && out->cpu_s + XCPU_MARGIN_S >= cpu_limit) {
            out->end = FMUC_WORKER_TIMEOUT;
            set_detail(out, "CPU time limit of %g s exceeded (SIGXCPU)", cpu_limit);
            note_hang(&spec, sh, out);
        } else if (out->signal == SIGXCPU) {
            out->end = FMUC_WORKER_CRASHED;
            set_detail(out, "SIGXCPU after %.2f s of CPU time, below the limit of %g s fmucheck "
                            "set: FMU code lowered the process's CPU time limit (RLIMIT_CPU) or "
                            "raised the signal itself",
                       out->cpu_s, cpu_limit);
        } else {
            out->end = FMUC_WORKER_CRASHED;
        }
    } else if (WIFEXITED(status)) {
        out->exit_code = WEXITSTATUS(status);
        if (out->exit_code != 0 || sr.total == 0) {
            out->end = FMUC_WORKER_EXITED_EARLY;
            int re = sh->reply_errno;
            if (re && !out->call_in_progress)
                set_detail(out, "the worker could not write its reply (%s): its reply "
                                "descriptor was closed or replaced, which only FMU code in the "
                                "worker does", strerror(re));
            else if (sr.total)
                set_detail(out, "%" PRIu64 " reply bytes sent", sr.total);
        } else {
            parse_reply(&sr, reply_overflow, spec.reply_max_bytes, out);
            /* the worker replies after every FMI call it made has returned: a reply while
             * one is still running was written by FMU code (which shares the process) */
            if (out->end == FMUC_WORKER_OK && out->call_in_progress) {
                out->end = FMUC_WORKER_EXITED_EARLY;
                cJSON_Delete(out->reply);
                out->reply = NULL;
                set_detail(out, "%" PRIu64 " reply bytes were written by FMU code while %s had "
                                "not returned (not the worker's reply; not read)",
                           sr.total, out->last_call[0] ? out->last_call : "an FMI call");
            }
        }
    } else {
        out->end = FMUC_WORKER_PROTOCOL;
        set_detail(out, "unexpected wait status 0x%x", (unsigned)status);
    }
    if (out->end != FMUC_WORKER_OK && !out->hung_before && !reply_overflow && sr.total > 0 &&
        __atomic_load_n(&sh->replied, __ATOMIC_ACQUIRE) && strncmp(out->phase, "unload", 6) == 0)
        take_reply_before_unload(&sr, spec.reply_max_bytes, out);
    if (out->sandbox_error[0] && (out->ncalls > 0 || out->load_attempted)) {
        /* the sandbox is set up before the FMU's library is loaded: a failure recorded after
         * that was written by FMU code into the worker's shared record, not by the worker */
        out->end = FMUC_WORKER_PROTOCOL;
        set_detail(out, "the worker's record says its sandbox setup failed (\"%s\"), but the "
                        "FMU's library had been loaded and %" PRIu64 " FMI calls made: the record "
                        "was written by FMU code and is not trusted",
                   out->sandbox_error, (uint64_t)out->ncalls);
        out->sandbox_error[0] = '\0';
    } else if (out->sandbox_error[0]) { /* an environment error, never a verdict on the FMU */
        err = fmuc_diag_set(diag, FMUC_ERROR, "worker sandbox setup failed%s%s: %s",
                            spec.label ? " for " : "", spec.label ? spec.label : "",
                            out->sandbox_error);
    }

out:
    if (pidfd >= 0)
        close(pidfd);
    if (so.fd >= 0)
        close(so.fd);
    if (se.fd >= 0)
        close(se.fd);
    if (sr.fd >= 0)
        close(sr.fd);
    free(so.buf);
    free(se.buf);
    free(sr.buf);
    for (int i = 0; i < 2; i++) {
        if (pout[i] >= 0)
            close(pout[i]);
        if (perr[i] >= 0)
            close(perr[i]);
        if (prep[i] >= 0)
            close(prep[i]);
    }
    if (subreaper_set)
        prctl(PR_SET_CHILD_SUBREAPER, 0);
    if (sh != MAP_FAILED)
        munmap(sh, sizeof *sh);
    fmuc_sandbox__cleanup(&plan);
    if (err < 0) {
        fmuc_worker_outcome_free(out);
        out->end = FMUC_WORKER_PROTOCOL;
    }
    return err;
}

void fmuc_worker_outcome_free(fmuc_worker_outcome *o)
{
    if (!o)
        return;
    free(o->detail);
    cJSON_Delete(o->reply);
    cJSON_Delete(o->trace);
    cJSON_Delete(o->log);
    cJSON_Delete(o->missing);
    cJSON_Delete(o->sandbox_events);
    cJSON_Delete(o->buffer_violations);
    free(o->out.head);
    free(o->err.head);
    memset(o, 0, sizeof *o);
}

/* ---- outcome -> result ------------------------------------------------------------------- */

static const char *sig_name(int sig, char *buf, size_t n)
{
    const char *abbr = sigabbrev_np(sig);
    if (abbr)
        snprintf(buf, n, "SIG%s", abbr);
    else
        snprintf(buf, n, "signal %d", sig);
    return buf;
}

static void where(const fmuc_worker_outcome *o, char *buf, size_t n)
{
    if (o->call_in_progress && o->last_call[0])
        snprintf(buf, n, "during %s%s%s%s", o->last_call, o->phase[0] ? " (phase '" : "",
                 o->phase, o->phase[0] ? "')" : "");
    else if (o->last_call[0])
        snprintf(buf, n, "in phase '%s' after %s", o->phase[0] ? o->phase : "?", o->last_call);
    else if (o->phase[0])
        snprintf(buf, n, "in phase '%s' before any FMI call", o->phase);
    else
        snprintf(buf, n, "before it started");
}

static void last_calls(const fmuc_worker_outcome *o, char *buf, size_t n)
{
    int cnt = cJSON_GetArraySize(o->trace), i, first = cnt > 5 ? cnt - 5 : 0;
    size_t off = 0;
    buf[0] = '\0';
    for (i = first; i < cnt && off < n; i++) {
        const cJSON *e = cJSON_GetArrayItem(o->trace, i);
        const cJSON *call = cJSON_GetObjectItemCaseSensitive(e, "call");
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(e, "status");
        const cJSON *seq = cJSON_GetObjectItemCaseSensitive(e, "seq");
        int w;
        if (!cJSON_IsString(call))
            continue;
        w = snprintf(buf + off, n - off, "%s#%.0f %s -> %s", off ? "; " : "",
                     cJSON_IsNumber(seq) ? seq->valuedouble : -1.0, call->valuestring,
                     cJSON_IsString(st) ? st->valuestring : "(did not return)");
        if (w > 0)
            off += (size_t)w;
    }
}

static cJSON *head_json(const fmuc_worker_capture *c, size_t max)
{
    size_t n = c->head_len < max ? c->head_len : max;
    char *s = c->head ? fmuc_trace__sanitize(c->head, n) : NULL;
    cJSON *j = cJSON_CreateString(s ? s : "");
    free(s);
    return j;
}

int fmuc_worker_outcome_to_result(const fmuc_worker_outcome *o, fmuc_result *res)
{
    return fmuc_worker_outcome_to_result_ex(o, res, 0);
}

int fmuc_worker_outcome_to_result_ex(const fmuc_worker_outcome *o, fmuc_result *res,
                                     unsigned flags)
{
    cJSON *ev = fmuc_result_evidence(res), *w;
    char wh[768], sig[32], calls[1400];
    int bad = o->end != FMUC_WORKER_OK;
    double prev_workers = 0, prev_fmi = 0, prev_dur = 0;

    where(o, wh, sizeof wh);
    switch (o->end) {
    case FMUC_WORKER_OK:
        break;
    case FMUC_WORKER_CRASHED:
        if (o->own_limit[0])
            /* the FMU lowered a limit of its process and was killed by it: api-process-state
             * judges that (C-03); what this worker was to show is not known */
            fmuc_result_na(res, "worker terminated by %s %s: FMU code lowered the process's %s "
                                "and was killed by it; not judged (api-process-state judges "
                                "process-wide settings)",
                           sig_name(o->signal, sig, sizeof sig), wh, o->own_limit);
        else
            fmuc_result_error(res, "worker terminated by %s %s%s%s",
                              sig_name(o->signal, sig, sizeof sig), wh, o->detail ? ": " : "",
                              o->detail ? o->detail : "");
        break;
    case FMUC_WORKER_TIMEOUT:
        /* a call that hung in an earlier worker, which judged it (issue 16 cause 3: the later
         * checks that need that call are not applicable, naming it; a check that probes the
         * call judges the stop itself before it gets here) */
        if (o->hung_before)
            fmuc_result_na(res, "worker stopped %s: %s", wh, o->detail ? o->detail : "");
        else
            fmuc_result_error(res, "worker timed out %s: %s", wh, o->detail ? o->detail : "");
        break;
    case FMUC_WORKER_EXITED_EARLY:
        fmuc_result_error(res, "worker exited with status %d without completing its reply %s%s%s",
                          o->exit_code, wh, o->detail ? ": " : "", o->detail ? o->detail : "");
        break;
    case FMUC_WORKER_PROTOCOL:
        fmuc_result_error(res, "worker reply rejected %s: %s", wh, o->detail ? o->detail : "");
        break;
    }
    if (bad && o->trace) {
        last_calls(o, calls, sizeof calls);
        if (calls[0])
            fmuc_result_note(res, "last FMI calls: %s", calls);
    }
    if (bad && o->load_attempted && !o->load_ok && o->load_error[0])
        fmuc_result_note(res, "load: %s", o->load_error);
    if (o->after_reply[0])
        fmuc_result_note(res, "after its reply the worker ended with %s, while unloading the "
                              "FMU's library (a host that unloads it ends the same way; "
                              "api-resources-released judges it)",
                         o->after_reply);
    if (o->forked_copies)
        fmuc_result_note(res, "FMU code forked the worker and %" PRIu64 " cop%s came back into "
                              "fmucheck's code (the first from %s); %s ended there, unheard",
                         o->forked_copies, o->forked_copies == 1 ? "y" : "ies",
                         o->forked_call[0] ? o->forked_call : "an FMI call",
                         o->forked_copies == 1 ? "it was" : "they were");
    if (o->sandbox_violations > 0 && !(flags & FMUC_OUTCOME_NO_SANDBOX_NOTE)) {
        /* what the FMU attempted outside its sandbox, seen by whichever worker */
        char first[700] = "";
        const cJSON *e = cJSON_GetArrayItem(o->sandbox_events, 0);
        const cJSON *sc = cJSON_GetObjectItemCaseSensitive(e, "syscall");
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(e, "path");
        if (!p)
            p = cJSON_GetObjectItemCaseSensitive(e, "address");
        if (cJSON_IsString(sc) && cJSON_IsString(p))
            snprintf(first, sizeof first, ", first: %s %s", sc->valuestring, p->valuestring);
        fmuc_result_note(res, "sandbox: the FMU attempted %" PRIu64
                         " write(s) outside its scratch folder or network access%s",
                         o->sandbox_violations, first);
    }

    if (!ev)
        return bad;
    {
        cJSON *old = cJSON_GetObjectItemCaseSensitive(ev, "worker");
        cJSON *n = cJSON_GetObjectItemCaseSensitive(old, "workers");
        cJSON *f = cJSON_GetObjectItemCaseSensitive(old, "fmi_time_total_s");
        cJSON *d = cJSON_GetObjectItemCaseSensitive(old, "duration_total_s");
        prev_workers = cJSON_IsNumber(n) ? n->valuedouble : 0;
        prev_fmi = cJSON_IsNumber(f) ? f->valuedouble : 0;
        prev_dur = cJSON_IsNumber(d) ? d->valuedouble : 0;
    }
    cJSON_DeleteItemFromObjectCaseSensitive(ev, "worker");
    w = cJSON_AddObjectToObject(ev, "worker");
    if (!w)
        return bad;
    cJSON_AddStringToObject(w, "end", fmuc_worker_end_name(o->end));
    if (o->end == FMUC_WORKER_CRASHED)
        cJSON_AddStringToObject(w, "signal", sig_name(o->signal, sig, sizeof sig));
    if (o->end == FMUC_WORKER_EXITED_EARLY)
        cJSON_AddNumberToObject(w, "exit_code", o->exit_code);
    if (o->detail)
        cJSON_AddStringToObject(w, "detail", o->detail);
    cJSON_AddStringToObject(w, "phase", o->phase);
    if (o->last_call[0])
        cJSON_AddStringToObject(w, "last_call", o->last_call);
    if (o->hung_before)
        cJSON_AddStringToObject(w, "not_called_again_hung_in", o->hung_by);
    if (o->after_reply[0])
        cJSON_AddStringToObject(w, "unload_ended", o->after_reply);
    if (o->own_limit[0])
        cJSON_AddStringToObject(w, "own_limit", o->own_limit);
    if (o->forked_copies) {
        cJSON_AddNumberToObject(w, "forked_copies_ended", (double)o->forked_copies);
        cJSON_AddStringToObject(w, "forked_after", o->forked_call);
    }
    cJSON_AddNumberToObject(w, "fmi_calls", (double)o->ncalls);
    if (bad && o->trace)
        cJSON_AddItemToObject(w, "trace", cJSON_Duplicate(o->trace, 1));
    cJSON_AddNumberToObject(w, "log_messages", (double)o->log_total);
    if (o->log && cJSON_GetArraySize(o->log) > 0) {
        cJSON *lg = cJSON_AddArrayToObject(w, "log");
        int i, n = cJSON_GetArraySize(o->log);
        for (i = 0; i < n && i < 20 && lg; i++)
            cJSON_AddItemToArray(lg, cJSON_Duplicate(cJSON_GetArrayItem(o->log, i), 1));
    }
    cJSON_AddNumberToObject(w, "stdout_bytes", (double)o->out.bytes);
    cJSON_AddNumberToObject(w, "stderr_bytes", (double)o->err.bytes);
    if (bad && o->out.head_len)
        cJSON_AddItemToObject(w, "stdout_head", head_json(&o->out, 1024));
    if (bad && o->err.head_len)
        cJSON_AddItemToObject(w, "stderr_head", head_json(&o->err, 1024));
    cJSON_AddNumberToObject(w, "allocs", (double)o->allocs);
    cJSON_AddNumberToObject(w, "frees", (double)o->frees);
    cJSON_AddNumberToObject(w, "live_bytes", (double)o->live_bytes);
    cJSON_AddNumberToObject(w, "bad_frees", (double)o->bad_frees);
    if (o->missing)
        cJSON_AddItemToObject(w, "missing_functions", cJSON_Duplicate(o->missing, 1));
    cJSON_AddNumberToObject(w, "duration_s", o->duration_s);
    cJSON_AddNumberToObject(w, "fmi_time_s", o->fmi_time_s);
    cJSON_AddNumberToObject(w, "lib_time_s", o->lib_time_s);
    if (o->sandbox_events_total)
        cJSON_AddNumberToObject(w, "sandbox_attempts", (double)o->sandbox_events_total);
    if (o->sandbox_events)
        cJSON_AddItemToObject(w, "sandbox_events", cJSON_Duplicate(o->sandbox_events, 1));
    if (o->buffer_violations)
        cJSON_AddItemToObject(w, "buffer_violations", cJSON_Duplicate(o->buffer_violations, 1));
    /* running totals over every worker of this check (each worker replaces "worker") */
    cJSON_AddNumberToObject(w, "workers", prev_workers + 1);
    cJSON_AddNumberToObject(w, "fmi_time_total_s", prev_fmi + o->fmi_time_s);
    cJSON_AddNumberToObject(w, "duration_total_s", prev_dur + o->duration_s);
    return bad;
}
