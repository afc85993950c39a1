/* The process state an FMI function must leave as it found it (FMI 3.0.2 §2.2.1, FMI 2.0.4 §2.1:
 * no change of settings that affect other threads or processes; changes of the calling thread's
 * own settings, such as the floating-point control registers, undone before returning or calling
 * back). While a worker watches (fmuc_inst_watch_process_state), the state is taken right before
 * each traced FMI call (fmuc_trace__go) and compared when the call returns (fmuc_trace__end:
 * fmuc_pstate__after_call) or, for a call suspended in a callback (FMI 3.0 clockUpdate), when
 * the next traced call begins, or when the findings are read. In every worker, watching or not,
 * the floating-point control is put back after each call that returned (a trap the FMU unmasked
 * would otherwise hit fmucheck's own code). When the FMU calls the logger in the middle of
 * a call (fmuc_pstate__at_callback, the first CB_LOOKS logger calls of each FMI call), the state
 * is compared too but nothing is undone: the call goes on with the FMU's settings, and a change
 * seen there is recorded once per call. A change is recorded with the call's trace
 * text. The floating-point control, the locale, the working directory and the umask are then
 * undone, so that the next call starts from the harness's state again and a change the FMU makes
 * in every call is seen in every call; signal dispositions and the signal mask are only
 * recorded: a runtime embedded in the FMU (a JVM, Python) may need the handlers it installed,
 * and putting them back could crash a later call and lose the findings. The state before each
 * call is taken anew, so a kept change is reported once, at the call that made it. */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <fenv.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmuc/fmuc_inst.h"
#include "fmuc/fmuc_proc.h"
#include "worker_internal.h"

/* the signals whose disposition is compared: those an importer, a runtime or a shell relies on */
static const int watched_signals[] = {SIGHUP,  SIGINT,  SIGQUIT, SIGILL,  SIGTRAP, SIGABRT,
                                      SIGBUS,  SIGFPE,  SIGUSR1, SIGSEGV, SIGUSR2, SIGPIPE,
                                      SIGALRM, SIGTERM, SIGCHLD, SIGXCPU, SIGXFSZ};
#define NWATCHED (sizeof watched_signals / sizeof watched_signals[0])
/* the resource limits compared: process-wide settings every thread of the host lives under */
static const struct {
    int res;
    const char *name;
} watched_limits[] = {{RLIMIT_CPU, "RLIMIT_CPU"},       {RLIMIT_AS, "RLIMIT_AS"},
                      {RLIMIT_DATA, "RLIMIT_DATA"},     {RLIMIT_STACK, "RLIMIT_STACK"},
                      {RLIMIT_NOFILE, "RLIMIT_NOFILE"}, {RLIMIT_FSIZE, "RLIMIT_FSIZE"},
                      {RLIMIT_NPROC, "RLIMIT_NPROC"},   {RLIMIT_CORE, "RLIMIT_CORE"}};
#define NLIMITS (sizeof watched_limits / sizeof watched_limits[0])
#define CB_LOOKS 16 /* logger callbacks compared per call (taking the state reads /proc) */

typedef struct pstate {
    unsigned mxcsr;   /* x86_64: MXCSR control bits (DAZ, exception masks, rounding, FTZ) */
    unsigned x87cw;   /* x86_64: x87 control word (exception masks, precision, rounding) */
    int round;        /* other architectures: fegetround() */
    char locale[512]; /* setlocale(LC_ALL, NULL) of the FMU's C library */
    int locale_ok;
    void *tlocale;    /* uselocale((locale_t)0) of the FMU's C library (the thread's locale) */
    char cwd[1024];
    int cwd_ok;
    mode_t umask;
    sigset_t mask;
    struct sigaction sa[NWATCHED];
    struct rlimit lim[NLIMITS];
    int lim_ok[NLIMITS];
} pstate;

typedef char *(*setlocale_fn)(int, const char *);
typedef locale_t (*uselocale_fn)(locale_t);

struct fmuc_w_pwatch {
    pstate before, after, now;
    fmuc_w_call *e;     /* the call whose state before is kept (NULL: none pending) */
    uint64_t seq;
    unsigned cb_looks;  /* callbacks of the call e compared (at most CB_LOOKS) */
    int cb_found;       /* a change was seen at one of them: not looked at again */
    setlocale_fn set_locale;
    uselocale_fn use_locale;
    int resolved;
    size_t total;
    fmuc_inst_ps_change kept[FMUC_INST_PS_KEPT];
};

/* The locale functions of the C library the FMU uses: with the FMU in a namespace of its own
 * (loader.c) that namespace's copy (reached through its libm), whose locale is the FMU's. */
static void resolve(fmuc_worker_ctx *ctx, struct fmuc_w_pwatch *w)
{
    void *s = NULL, *u = NULL;
    if (w->resolved)
        return;
    w->resolved = 1;
    if (ctx->libm) {
        s = dlsym(ctx->libm, "setlocale");
        u = dlsym(ctx->libm, "uselocale");
    }
    if (s && u) {
        memcpy(&w->set_locale, &s, sizeof s);
        memcpy(&w->use_locale, &u, sizeof u);
    } else {
        w->set_locale = setlocale;
        w->use_locale = uselocale;
    }
}

/* The umask without changing it (a write-and-restore would race with the FMU's own threads):
 * the Umask line of /proc/self/status (Linux 4.7 and later), else umask() twice. */
static mode_t read_umask(void)
{
    FILE *f = fopen("/proc/self/status", "re");
    char line[256];
    if (f) {
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "Umask:", 6) == 0) {
                char *end = NULL;
                unsigned long v = strtoul(line + 6, &end, 8);
                if (end != line + 6 && v <= 07777) {
                    fclose(f);
                    return (mode_t)v;
                }
            }
        }
        fclose(f);
    }
    mode_t m = umask(022);
    umask(m);
    return m;
}

/* The floating-point control of the calling thread: x86, the MXCSR control bits and the x87
 * control word (round 0); elsewhere the rounding mode (the others 0). */
static void fp_read(unsigned *mxcsr, unsigned *x87cw, int *round)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned m = 0;
    unsigned short cw = 0;
    __asm__ __volatile__("stmxcsr %0" : "=m"(m));
    __asm__ __volatile__("fnstcw %0" : "=m"(cw));
    *mxcsr = m & 0xffc0u;
    *x87cw = cw & 0x1f3fu;
    *round = 0;
#else
    *mxcsr = *x87cw = 0;
    *round = fegetround();
#endif
}

/* Put the floating-point control fp_read gave back where the thread's differs now; the status
 * flags the FMU raised stay (computation, not a setting). */
static void fp_put(unsigned mxcsr, unsigned x87cw, int round)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned m = 0;
    unsigned short cw = 0;
    (void)round;
    __asm__ __volatile__("stmxcsr %0" : "=m"(m));
    if ((m & 0xffc0u) != mxcsr) {
        m = mxcsr | (m & 0x3fu);
        __asm__ __volatile__("ldmxcsr %0" : : "m"(m));
    }
    __asm__ __volatile__("fnstcw %0" : "=m"(cw));
    if ((cw & 0x1f3fu) != x87cw) {
        cw = (unsigned short)((cw & ~0x1f3fu) | x87cw);
        __asm__ __volatile__("fldcw %0" : : "m"(cw));
    }
#else
    (void)mxcsr;
    (void)x87cw;
    if (fegetround() != round)
        fesetround(round);
#endif
}

static void take(const struct fmuc_w_pwatch *w, pstate *p)
{
    fp_read(&p->mxcsr, &p->x87cw, &p->round);
    const char *l = w->set_locale(LC_ALL, NULL);
    p->locale_ok = l != NULL;
    snprintf(p->locale, sizeof p->locale, "%s", l ? l : "");
    p->tlocale = (void *)w->use_locale((locale_t)0);
    p->cwd_ok = getcwd(p->cwd, sizeof p->cwd) != NULL;
    if (!p->cwd_ok)
        p->cwd[0] = '\0';
    p->umask = read_umask();
    sigprocmask(SIG_BLOCK, NULL, &p->mask);
    for (size_t i = 0; i < NWATCHED; i++)
        if (sigaction(watched_signals[i], NULL, &p->sa[i]) != 0)
            memset(&p->sa[i], 0, sizeof p->sa[i]);
    for (size_t i = 0; i < NLIMITS; i++)
        p->lim_ok[i] = getrlimit(watched_limits[i].res, &p->lim[i]) == 0;
}


static const char *rc_name(unsigned rc)
{
    static const char *const n[] = {"nearest", "downward", "upward", "toward zero"};
    return n[rc & 3u];
}

static const char *pc_name(unsigned pc)
{
    static const char *const n[] = {"single (24 bits)", "reserved", "double (53 bits)",
                                    "extended (64 bits)"};
    return n[pc & 3u];
}

static void handler_text(const struct sigaction *sa, char *buf, size_t n)
{
    if (!(sa->sa_flags & SA_SIGINFO) && sa->sa_handler == SIG_DFL)
        snprintf(buf, n, "default");
    else if (!(sa->sa_flags & SA_SIGINFO) && sa->sa_handler == SIG_IGN)
        snprintf(buf, n, "ignored");
    else
        snprintf(buf, n, "a handler");
}

static void record(fmuc_worker_ctx *ctx, struct fmuc_w_pwatch *w, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void record(fmuc_worker_ctx *ctx, struct fmuc_w_pwatch *w, const char *fmt, ...)
{
    size_t k = w->total++;
    (void)ctx;
    if (k >= FMUC_INST_PS_KEPT)
        return;
    fmuc_inst_ps_change *c = &w->kept[k];
    va_list ap;
    fmuc_trace__format(w->e, c->call, sizeof c->call);
    c->fn_version = fmuc_w_fn_version(w->e->fn);
    c->suspended = w->e->state == FMUC_W_CALL_SUSPENDED || w->e->state == FMUC_W_CALL_RUNNING;
    va_start(ap, fmt);
    vsnprintf(c->what, sizeof c->what, fmt, ap);
    va_end(ap);
}

/* Record how state a differs from state b (the state before the pending call); with undo, put
 * back b's settings (the call has returned), without (the FMU called back in the middle of the
 * call) leave the FMU's settings as they are. */
static void diff(fmuc_worker_ctx *ctx, struct fmuc_w_pwatch *w, const pstate *b, const pstate *a,
                 int undo)
{
#if defined(__x86_64__) || defined(__i386__)
    if (a->mxcsr != b->mxcsr) {
        unsigned rc_a = (a->mxcsr >> 13) & 3u, rc_b = (b->mxcsr >> 13) & 3u;
        if (rc_a != rc_b)
            record(ctx, w, "the MXCSR rounding mode at '%s' (was '%s')", rc_name(rc_a),
                   rc_name(rc_b));
        if ((a->mxcsr ^ b->mxcsr) & 0x1f80u)
            record(ctx, w, "the MXCSR exception masks at 0x%02x (was 0x%02x)",
                   (a->mxcsr >> 7) & 0x3fu, (b->mxcsr >> 7) & 0x3fu);
        if ((a->mxcsr ^ b->mxcsr) & 0x8040u)
            record(ctx, w, "the MXCSR flush-to-zero/denormals-are-zero bits at FTZ=%u DAZ=%u "
                           "(was FTZ=%u DAZ=%u)",
                   (a->mxcsr >> 15) & 1u, (a->mxcsr >> 6) & 1u, (b->mxcsr >> 15) & 1u,
                   (b->mxcsr >> 6) & 1u);
    }
    if (a->x87cw != b->x87cw) {
        unsigned rc_a = (a->x87cw >> 10) & 3u, rc_b = (b->x87cw >> 10) & 3u;
        unsigned pc_a = (a->x87cw >> 8) & 3u, pc_b = (b->x87cw >> 8) & 3u;
        if (rc_a != rc_b)
            record(ctx, w, "the x87 rounding mode at '%s' (was '%s')", rc_name(rc_a),
                   rc_name(rc_b));
        if (pc_a != pc_b)
            record(ctx, w, "the x87 precision at %s (was %s)", pc_name(pc_a), pc_name(pc_b));
        if ((a->x87cw ^ b->x87cw) & 0x103fu)
            record(ctx, w, "the x87 control word at 0x%04x (was 0x%04x)", a->x87cw, b->x87cw);
    }
#else
    if (a->round != b->round)
        record(ctx, w, "the floating-point rounding mode at %d (was %d)", a->round, b->round);
#endif
    if (undo)
        fp_put(b->mxcsr, b->x87cw, b->round);
    if (a->locale_ok && b->locale_ok && strcmp(a->locale, b->locale) != 0) {
        record(ctx, w, "the locale (setlocale LC_ALL) at '%s' (was '%s')", a->locale, b->locale);
        if (undo)
            w->set_locale(LC_ALL, b->locale);
    }
    if (a->tlocale != b->tlocale) {
        record(ctx, w, "a thread locale of its own installed with uselocale (was %s)",
               b->tlocale == (void *)LC_GLOBAL_LOCALE ? "the global locale" : "another one");
        if (undo)
            w->use_locale((locale_t)b->tlocale);
    }
    if (a->cwd_ok != b->cwd_ok || strcmp(a->cwd, b->cwd) != 0) {
        record(ctx, w, "the working directory at '%s' (was '%s')",
               a->cwd_ok ? a->cwd : "(unreachable)", b->cwd);
        if (undo && b->cwd_ok && chdir(b->cwd) != 0)
            errno = 0;
    }
    if (a->umask != b->umask) {
        record(ctx, w, "the umask at %04o (was %04o)", (unsigned)a->umask, (unsigned)b->umask);
        if (undo)
            umask(b->umask);
    }
    for (size_t i = 0; i < NWATCHED; i++) {
        const struct sigaction *sa = &a->sa[i], *sb = &b->sa[i];
        /* the C library adds SA_RESTORER (0x04000000, not in its headers) with its own restorer */
        int flags_a = sa->sa_flags & ~0x04000000, flags_b = sb->sa_flags & ~0x04000000;
        if (sa->sa_handler == sb->sa_handler && flags_a == flags_b)
            continue;
        char ta[16], tb[16];
        const char *name = sigabbrev_np(watched_signals[i]);
        handler_text(sa, ta, sizeof ta);
        handler_text(sb, tb, sizeof tb);
        if (strcmp(ta, tb) == 0)
            record(ctx, w, "the disposition of SIG%s changed (another handler or other flags)",
                   name ? name : "?");
        else
            record(ctx, w, "the disposition of SIG%s at %s (was %s)", name ? name : "?", ta, tb);
    }
    for (size_t i = 0; i < NLIMITS; i++) {
        const struct rlimit *la = &a->lim[i], *lb = &b->lim[i];
        if (!a->lim_ok[i] || !b->lim_ok[i] ||
            (la->rlim_cur == lb->rlim_cur && la->rlim_max == lb->rlim_max))
            continue;
        char s1[24], s2[24], s3[24], s4[24];
        record(ctx, w, "the process's resource limit %s at %s (hard %s; was %s, hard %s)",
               watched_limits[i].name, fmuc_proc_limit_text(la->rlim_cur, s1, sizeof s1),
               fmuc_proc_limit_text(la->rlim_max, s2, sizeof s2),
               fmuc_proc_limit_text(lb->rlim_cur, s3, sizeof s3),
               fmuc_proc_limit_text(lb->rlim_max, s4, sizeof s4));
        if (undo) /* a hard limit the FMU lowered cannot be raised again: then the soft one */
            if (setrlimit(watched_limits[i].res, lb) != 0 && lb->rlim_cur <= la->rlim_max)
                setrlimit(watched_limits[i].res,
                          &(struct rlimit){lb->rlim_cur, la->rlim_max});
    }
    for (int s = 1; s < NSIG; s++) {
        int ia = sigismember(&a->mask, s), ib = sigismember(&b->mask, s);
        if (ia < 0 || ib < 0 || ia == ib)
            continue;
        const char *name = sigabbrev_np(s);
        record(ctx, w, "the thread's signal mask with SIG%s %s (was %s)",
               name ? name : "?", ia ? "blocked" : "unblocked", ib ? "blocked" : "unblocked");
        break;
    }
}

/* compare the state after the pending call with the state before it; undo what changed */
static void compare(fmuc_worker_ctx *ctx, struct fmuc_w_pwatch *w)
{
    take(w, &w->after);
    diff(ctx, w, &w->before, &w->after, 1);
}

void fmuc_pstate__at_callback(fmuc_worker_ctx *ctx)
{
    struct fmuc_w_pwatch *w = ctx->pwatch;
    if (!w || !w->e || w->e->seq != w->seq || w->cb_found || w->cb_looks >= CB_LOOKS ||
        w->e->state != FMUC_W_CALL_RUNNING)
        return;
    w->cb_looks++;
    size_t before = w->total;
    take(w, &w->now);
    diff(ctx, w, &w->before, &w->now, 0);
    w->cb_found = w->total > before;
}

static void settle(fmuc_worker_ctx *ctx)
{
    struct fmuc_w_pwatch *w = ctx->pwatch;
    if (!w || !w->e)
        return;
    if (w->e->seq == w->seq)
        compare(ctx, w);
    w->e = NULL;
}

void fmuc_pstate__before_begin(fmuc_worker_ctx *ctx)
{
    settle(ctx);
}

void fmuc_pstate__before_call(fmuc_worker_ctx *ctx, fmuc_w_call *e)
{
    struct fmuc_w_pwatch *w = ctx->pwatch;
    if (!w || e->fn == FMUC_W_FN_DLOPEN || e->fn == FMUC_W_FN_DLCLOSE)
        return;
    resolve(ctx, w);
    take(w, &w->before);
    w->e = e;
    w->seq = e->seq;
    w->cb_looks = 0;
    w->cb_found = 0;
}

void fmuc_pstate__fp_take(fmuc_worker_ctx *ctx)
{
    fp_read(&ctx->fp_mxcsr, &ctx->fp_x87, &ctx->fp_round);
}

void fmuc_pstate__after_call(fmuc_worker_ctx *ctx)
{
    settle(ctx); /* the watch's comparison of the call that returned (none when not watching) */
    fp_put(ctx->fp_mxcsr, ctx->fp_x87, ctx->fp_round);
}

int fmuc_inst_watch_process_state(fmuc_worker_ctx *ctx, int on)
{
    if (on && !ctx->pwatch) {
        ctx->pwatch = calloc(1, sizeof *ctx->pwatch);
        return ctx->pwatch ? 0 : -1;
    }
    if (!on && ctx->pwatch) {
        settle(ctx);
        free(ctx->pwatch);
        ctx->pwatch = NULL;
    }
    return 0;
}

size_t fmuc_inst_process_state_changes(fmuc_worker_ctx *ctx, fmuc_inst_ps_change *out, size_t max)
{
    struct fmuc_w_pwatch *w = ctx->pwatch;
    if (!w)
        return 0;
    settle(ctx);
    for (size_t i = 0; i < max && i < w->total && i < FMUC_INST_PS_KEPT; i++)
        out[i] = w->kept[i];
    return w->total;
}
