/* Work shared between checks, made once per FMU. The nominal run of each interface: several
 * checks judge the same run from different rules (success and ranges, allowed status codes,
 * fmi2CompletedIntegratorStep, whether there are events at all); making it once per check cost
 * a worker and a whole simulation each time for the same calls. The variables sorted into alias
 * sets, which five md-alias-* checks walk.
 *
 * Time bounds (issue 16, cause 6), all measured on the nominal runs: the scaled worker timeout
 * of the later checks, the horizon of every run beyond the nominal one, and the calls that hung
 * (a hang is not repeated the same way). See fmuc_shared_calibrate in check.h. */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include "api/api_util.h"
#include "md/md_util.h"

typedef struct shared_entry {
    int done;
    int rc;             /* fmuc_sim_run_isolated's */
    char owner[64];     /* the check that made it ("" while only calibrated) */
    fmuc_sim_result r;
    fmuc_result res;    /* what making it reported */
    fmuc_result full;   /* calibration: everything making it reported, evidence included, for
                         * the first check that asks (then cleared) */
    int pending;        /* full is waiting for its owner */
    double sim_s;       /* wall time of the run without loading the library (s) */
    double cpu_s;       /* CPU time of its worker (s): what tells a slow FMU (the horizon) */
    double span;        /* simulated time covered (stop or the time of a hang, minus start) */
    double start;
    int iface;          /* fmuc_iface */
    double took;        /* calibration: wall time of making it (s), worker included */
    double timeout_s;   /* calibration: the scaled timeout of the later workers (0: none) */
    int died;           /* calibration: the run's worker 1: exited early between FMI calls,
                         * 2: crashed, hung or exited inside a call */
    int died_common;    /* ... in a phase every dynamic check needs (apiu_common_phase) */
    char death[600];    /* ... fmuc_worker_death_text */
    fmuc_worker_death sig; /* ... the same as data (fmuc_shared_nominal_died_in) */
    cJSON *bufv;        /* the run's worker's buffer_violations (owned; NULL when none) */
    int observed;       /* obs is filled (its worker ended normally) */
    fmuc_shared_observed obs; /* sandbox_events and release owned */
    char obs_after_reply[400]; /* obs.after_reply's text */
    char obs_session[96];      /* obs.session's text */
} shared_entry;

struct fmuc_shared_runs {
    shared_entry e[2]; /* [FMUC_IFACE_ME], [FMUC_IFACE_CS] */
    char *unusable[3][2]; /* [interface ME, CS, SE][FMUC_UNUSABLE_INSTANCE - 1, FMUC_UNUSABLE_RUN - 1] */
    fmuc_worker_death unusable_death[3][2]; /* the death behind it, when a worker's (else 0) */
    int alias_done;
    uint64_t *alias;   /* fmuc_ms__alias_sort's, NULL when it ran out of memory */
    size_t nalias;
    int calibrated;
    fmuc_options opts; /* the run's options with the scaled timeout (fmuc_shared_runs_bind) */
    int bound;
    double scaled_from; /* the nominal wall time the timeout was scaled from (s), or -1 */
    double user_timeout_s; /* --timeout before the scaling */
    fmuc_shared_hang hang[2];
    fmuc_worker_hangs calls; /* calls that hung and are not made again (fmuc_worker.h: fmi2Reset
                              * ...), filled by the workers of every check through opts */
    /* in a lane (runner.c, fmuc_shared_runs_lane): the claims on the nominal runs' reports */
    _Atomic long *lane_took;
    const char *const *lane_ids;
    long lane_pos;
    int took[2];      /* the check now running took that report */
    long assumed[2];  /* ... acted as if the check at that position had taken it (-1: no) */
    int none_seen[2]; /* ... acted as if none had taken it yet (owner_of) */
};

double fmuc_shared__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

fmuc_shared_runs *fmuc_shared_runs_new(void)
{
    fmuc_shared_runs *sr = calloc(1, sizeof(fmuc_shared_runs));
    if (sr)
        sr->scaled_from = -1.0;
    return sr;
}

const fmuc_options *fmuc_shared_runs_bind(fmuc_shared_runs *sr, const fmuc_options *opts)
{
    if (!sr || !opts)
        return opts;
    sr->opts = *opts;
    sr->opts.worker_hangs = &sr->calls;
    sr->bound = 1;
    return &sr->opts;
}

void fmuc_shared_runs_free(fmuc_shared_runs *sr)
{
    if (!sr)
        return;
    for (size_t i = 0; i < 2; i++) {
        cJSON_Delete(sr->e[i].bufv);
        cJSON_Delete((cJSON *)sr->e[i].obs.sandbox_events);
        cJSON_Delete((cJSON *)sr->e[i].obs.release);
    }
    for (size_t i = 0; i < 2; i++)
        if (sr->e[i].done) {
            fmuc_sim_result_free(&sr->e[i].r);
            fmuc_result_clear(&sr->e[i].res);
            if (sr->e[i].pending)
                fmuc_result_clear(&sr->e[i].full);
        }
    for (size_t i = 0; i < 3; i++)
        for (size_t k = 0; k < 2; k++)
            free(sr->unusable[i][k]);
    free(sr->alias);
    free(sr);
}

/* FNV-1a over bytes */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
    return s ? fnv(h, s, strlen(s) + 1) : fnv(h, "\xff", 1);
}

static void put_str(cJSON *o, const char *key, const char *v)
{
    if (v)
        cJSON_AddStringToObject(o, key, v);
}

cJSON *fmuc_shared_runs_export(const fmuc_shared_runs *sr)
{
    cJSON *o = sr ? cJSON_CreateObject() : NULL;
    cJSON *es = o ? cJSON_AddArrayToObject(o, "runs") : NULL;
    cJSON *us = o ? cJSON_AddArrayToObject(o, "unusable") : NULL;
    cJSON *cs = o ? cJSON_AddArrayToObject(o, "calls") : NULL;
    if (!cs) {
        cJSON_Delete(o);
        return NULL;
    }
    for (size_t i = 0; i < 2; i++) {
        const shared_entry *e = &sr->e[i];
        const fmuc_shared_hang *g = &sr->hang[i];
        cJSON *x = cJSON_CreateObject();
        cJSON_AddItemToArray(es, x);
        /* what must already be the same in the runner (the digest's fields) */
        char key[160];
        snprintf(key, sizeof key, "%d %d %d %d %.17g", e->done, e->rc, e->died, e->died_common,
                 e->timeout_s);
        cJSON_AddStringToObject(x, "same", key);
        cJSON_AddNumberToObject(x, "bufv", e->bufv != NULL);
        cJSON_AddNumberToObject(x, "hang_seen", g->seen);
        cJSON_AddStringToObject(x, "hang_fn", g->fn);
        cJSON_AddStringToObject(x, "hang_check", g->check);
        if (!isnan(g->t)) /* NaN: the time is not known (JSON has no NaN) */
            cJSON_AddNumberToObject(x, "hang_t", g->t);
    }
    for (size_t i = 0; i < 3; i++)
        for (size_t k = 0; k < 2; k++) {
            cJSON *x = cJSON_CreateObject();
            cJSON_AddItemToArray(us, x);
            put_str(x, "why", sr->unusable[i][k]);
            const fmuc_worker_death *d = &sr->unusable_death[i][k];
            if (d->end) {
                cJSON_AddNumberToObject(x, "end", d->end);
                cJSON_AddNumberToObject(x, "code", d->code);
                cJSON_AddStringToObject(x, "fn", d->fn);
            }
        }
    for (size_t i = 0; i < sr->calls.n && i < FMUC_WORKER_HANGS_MAX; i++) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddItemToArray(cs, x);
        cJSON_AddStringToObject(x, "fn", sr->calls.e[i].fn);
        cJSON_AddNumberToObject(x, "ifaces", sr->calls.e[i].ifaces);
        cJSON_AddStringToObject(x, "by", sr->calls.e[i].by);
        cJSON_AddNumberToObject(x, "after_reset", sr->calls.e[i].after_reset);
        if (!isnan(sr->calls.e[i].t))
            cJSON_AddNumberToObject(x, "t", sr->calls.e[i].t);
    }
    char key[96];
    snprintf(key, sizeof key, "%d %.17g %.17g", sr->calibrated, sr->opts.timeout_s,
             sr->scaled_from);
    cJSON_AddStringToObject(o, "same", key);
    return o;
}

/* The digest is the hash of the export's text: one list of the fields a later check reads. */
uint64_t fmuc_shared_runs_digest(const fmuc_shared_runs *sr)
{
    cJSON *ex = fmuc_shared_runs_export(sr);
    char *text = ex ? cJSON_PrintUnformatted(ex) : NULL;
    cJSON_Delete(ex);
    if (!text)
        return 0;
    uint64_t h = fnv_str(14695981039346656037ull, text);
    free(text);
    return h ? h : 1; /* 0 stays "not known" */
}

static const char *jstr(const cJSON *o, const char *key)
{
    return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

int fmuc_shared_runs_import(fmuc_shared_runs *sr, const cJSON *ex)
{
    cJSON *now = fmuc_shared_runs_export(sr);
    const cJSON *es = cJSON_GetObjectItemCaseSensitive(ex, "runs");
    const cJSON *us = cJSON_GetObjectItemCaseSensitive(ex, "unusable");
    const cJSON *cs = cJSON_GetObjectItemCaseSensitive(ex, "calls");
    int ok = now && cJSON_GetArraySize(es) == 2 && cJSON_GetArraySize(us) == 6 &&
             cJSON_IsArray(cs) && cJSON_GetArraySize(cs) <= FMUC_WORKER_HANGS_MAX &&
             jstr(ex, "same") && strcmp(jstr(ex, "same"), jstr(now, "same")) == 0;
    /* first everything that can only be checked, then the changes */
    for (int i = 0; ok && i < 2; i++) {
        const cJSON *x = cJSON_GetArrayItem(es, i);
        const cJSON *y = cJSON_GetArrayItem(cJSON_GetObjectItem(now, "runs"), i);
        const char *a = jstr(x, "same"), *b = jstr(y, "same");
        double bufv = cJSON_GetNumberValue(cJSON_GetObjectItem(x, "bufv"));
        ok = a && b && strcmp(a, b) == 0 && jstr(x, "hang_fn") && jstr(x, "hang_check") &&
             bufv == (sr->e[i].bufv != NULL);
    }
    for (int i = 0; ok && i < 6; i++) {
        const cJSON *u = cJSON_GetArrayItem(us, i);
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(u, "why");
        const cJSON *end = cJSON_GetObjectItemCaseSensitive(u, "end");
        const cJSON *code = cJSON_GetObjectItemCaseSensitive(u, "code");
        ok = (!w || cJSON_IsString(w)) &&
             (!end || (cJSON_IsNumber(end) && end->valuedouble >= 0 && end->valuedouble <= 255 &&
                       cJSON_IsNumber(code) && fabs(code->valuedouble) <= 65535 &&
                       jstr(u, "fn") &&
                       strlen(jstr(u, "fn")) < sizeof sr->unusable_death[0][0].fn));
    }
    const cJSON *it;
    cJSON_ArrayForEach(it, cs) ok = ok && jstr(it, "fn") && jstr(it, "by") &&
                                    cJSON_IsNumber(cJSON_GetObjectItem(it, "ifaces"));
    cJSON_Delete(now);
    if (!ok)
        return -1;
    for (int i = 0; i < 2; i++) {
        /* who took the nominal runs' reports: fmuc_shared_runs_claims_apply */
        const cJSON *x = cJSON_GetArrayItem(es, i);
        fmuc_shared_hang *g = &sr->hang[i];
        g->seen = (int)cJSON_GetNumberValue(cJSON_GetObjectItem(x, "hang_seen"));
        snprintf(g->fn, sizeof g->fn, "%s", jstr(x, "hang_fn"));
        snprintf(g->check, sizeof g->check, "%s", jstr(x, "hang_check"));
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(x, "hang_t");
        g->t = cJSON_IsNumber(t) ? t->valuedouble : NAN;
    }
    for (int i = 0; i < 6; i++) {
        const cJSON *u = cJSON_GetArrayItem(us, i);
        const char *w = jstr(u, "why");
        fmuc_worker_death *d = &sr->unusable_death[i / 2][i % 2];
        memset(d, 0, sizeof *d);
        if (cJSON_IsNumber(cJSON_GetObjectItem(u, "end"))) {
            d->end = (int)cJSON_GetNumberValue(cJSON_GetObjectItem(u, "end"));
            d->code = (int)cJSON_GetNumberValue(cJSON_GetObjectItem(u, "code"));
            snprintf(d->fn, sizeof d->fn, "%s", jstr(u, "fn"));
        }
        char **slot = &sr->unusable[i / 2][i % 2];
        if (w && *slot && strcmp(w, *slot) == 0)
            continue;
        free(*slot);
        *slot = w ? strdup(w) : NULL;
    }
    sr->calls.n = 0;
    cJSON_ArrayForEach(it, cs)
    {
        fmuc_worker_hang *h = &sr->calls.e[sr->calls.n++];
        snprintf(h->fn, sizeof h->fn, "%s", jstr(it, "fn"));
        h->ifaces = (unsigned)cJSON_GetNumberValue(cJSON_GetObjectItem(it, "ifaces"));
        snprintf(h->by, sizeof h->by, "%s", jstr(it, "by"));
        h->after_reset = cJSON_GetNumberValue(cJSON_GetObjectItem(it, "after_reset")) != 0.0;
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(it, "t");
        h->t = cJSON_IsNumber(t) ? t->valuedouble : NAN;
    }
    return 0;
}

void fmuc_shared_runs_lane(fmuc_shared_runs *sr, int lane, _Atomic long *took,
                           const char *const *ids)
{
    if (!sr)
        return;
    sr->lane_took = took;
    sr->lane_ids = ids;
    sr->opts.sandbox.scratch_lane = lane;
}

void fmuc_shared_runs_lane_begin(fmuc_shared_runs *sr, long pos)
{
    if (!sr)
        return;
    sr->lane_pos = pos;
    for (int i = 0; i < 2; i++) {
        sr->took[i] = 0;
        sr->assumed[i] = -1;
        sr->none_seen[i] = 0;
    }
}

void fmuc_shared_runs_lane_end(const fmuc_shared_runs *sr, int took[2], long assumed[2])
{
    for (int i = 0; i < 2; i++) {
        took[i] = sr ? sr->took[i] : 0;
        assumed[i] = sr ? sr->assumed[i] : -1;
        /* it saw none, then a taker before it (an earlier check in the other lane asked in
         * between): what it said first is not what it would have said in order */
        if (sr && sr->none_seen[i] && assumed[i] >= 0)
            assumed[i] = -3;
    }
}

int fmuc_shared_runs_claims_ok(const fmuc_shared_runs *sr, const int took[2],
                               const long assumed[2], const char *const *ids)
{
    for (int i = 0; sr && i < 2; i++) {
        const shared_entry *e = &sr->e[i];
        if (assumed[i] < -2)
            return 0; /* it acted on two different answers (fmuc_shared_runs_lane_end) */
        if (took[i] && !e->pending)
            return 0; /* an earlier check took it here */
        if (assumed[i] == -2 && !e->pending)
            return 0; /* it assumed that none had, but one has */
        if (assumed[i] >= 0 && (e->pending || strcmp(e->owner, ids[assumed[i]]) != 0))
            return 0; /* it assumed a taker that is not the one here */
    }
    return 1;
}

void fmuc_shared_runs_claims_apply(fmuc_shared_runs *sr, const int took[2], const char *check_id)
{
    for (int i = 0; sr && i < 2; i++) {
        shared_entry *e = &sr->e[i];
        if (!took[i] || !e->pending)
            continue;
        fmuc_result_clear(&e->full);
        e->pending = 0;
        snprintf(e->owner, sizeof e->owner, "%s", check_id);
        e->res.id = check_id;
    }
}

/* The check that took entry i's report, as a message names it; in a lane, where the report is
 * still here, the one that took it in an earlier position, or nobody yet (both remembered for
 * the runner to check). */
static const char *owner_of(fmuc_shared_runs *sr, int i)
{
    const shared_entry *e = &sr->e[i];
    if (!sr->lane_took || !e->pending)
        return e->owner;
    long cur = atomic_load(&sr->lane_took[i]);
    if (cur < sr->lane_pos) {
        sr->assumed[i] = cur;
        return sr->lane_ids[cur];
    }
    if (sr->assumed[i] == -1)
        sr->assumed[i] = -2;
    sr->none_seen[i] = 1;
    return e->owner;
}

/* In a lane: may the check now running take the pending report of entry i (the first in order
 * to ask)? Otherwise *owner is the check that takes it. */
static int lane_claim(fmuc_shared_runs *sr, int i, const char **owner)
{
    if (!sr->lane_took)
        return 1;
    long cur = atomic_load(&sr->lane_took[i]);
    while (sr->lane_pos < cur &&
           !atomic_compare_exchange_weak(&sr->lane_took[i], &cur, sr->lane_pos))
        ;
    if (cur <= sr->lane_pos && cur != sr->lane_pos) {
        sr->assumed[i] = cur;
        *owner = sr->lane_ids[cur];
        return 0;
    }
    sr->took[i] = 1;
    return 1;
}

int fmuc_shared_runs_calibrated(const fmuc_shared_runs *sr)
{
    return sr && sr->calibrated;
}

double fmuc_shared_fixed_step_stop(const fmuc_md *md, fmuc_iface iface, double t0, double t1)
{
    if (md->fmi != FMUC_FMI3 || iface != FMUC_IFACE_CS || !md->cs.has_fixed_internal_step_size ||
        !(md->cs.fixed_internal_step_size > 0.0) || !isfinite(md->cs.fixed_internal_step_size))
        return t1;
    double cap = t0 + FMUC_NOMINAL_MAX_INTERNAL_STEPS * md->cs.fixed_internal_step_size;
    return t1 > cap ? cap : t1;
}

void fmuc_shared_nominal_config(const fmuc_subject *s, fmuc_iface iface, fmuc_sim_config *cfg)
{
    fmuc_sim_config_init(cfg, iface);
    cfg->input_csv = s->opts ? s->opts->input_csv : NULL;
    /* like an importer that simulates an FMU on its own (FMPy's simulate_fmu, OMSimulator,
     * Dymola with unconnected inputs): the inputs keep their start values unless --input
     * drives them; the default experiment is made for that */
    cfg->no_excitation = cfg->input_csv == NULL;
    cfg->instance_name = iface == FMUC_IFACE_ME ? "fmucheck-me-nominal" : "fmucheck-cs-nominal";
    const fmuc_md_experiment *e = &s->fmu->md.experiment;
    double t0 = e->present && e->has_start && isfinite(e->start_time) ? e->start_time : 0.0;
    double t1 = e->present && e->has_stop && isfinite(e->stop_time) ? e->stop_time : t0 + 1.0;
    double cap = fmuc_shared_fixed_step_stop(&s->fmu->md, iface, t0, t1);
    if (cap < t1)
        cfg->stop = cap;
}

/* ---- hangs ----------------------------------------------------------------------------------- */

/* "fmi2DoStep(t=0.374, h=0.002, noSet=0)" -> fn "fmi2DoStep", t 0.374 (NaN without "t="; the
 * phase "step 188 (t=0.374)" is the second place to look) */
static void parse_hang(const fmuc_worker_outcome *o, fmuc_shared_hang *h)
{
    size_t n = strcspn(o->last_call, "(");
    if (n >= sizeof h->fn)
        n = sizeof h->fn - 1;
    memcpy(h->fn, o->last_call, n);
    h->fn[n] = '\0';
    h->t = NAN;
    const char *srcs[2] = {o->last_call, o->phase};
    for (size_t i = 0; i < 2 && isnan(h->t); i++) {
        const char *p = strstr(srcs[i], "(t=");
        if (!p)
            continue;
        char *end = NULL;
        double t = strtod(p + 3, &end);
        if (end != p + 3 && isfinite(t))
            h->t = t;
    }
}

void fmuc_shared_note_outcome(const fmuc_subject *s, fmuc_iface iface, const char *check_id,
                              const fmuc_worker_outcome *o)
{
    if (!s->shared || !o || o->end != FMUC_WORKER_TIMEOUT || !o->call_in_progress ||
        (iface != FMUC_IFACE_ME && iface != FMUC_IFACE_CS))
        return;
    fmuc_shared_hang *h = &s->shared->hang[iface == FMUC_IFACE_ME ? 0 : 1];
    fmuc_shared_hang nh;
    memset(&nh, 0, sizeof nh);
    parse_hang(o, &nh);
    /* the earliest hang counts */
    if (h->seen && !(nh.t < h->t))
        return;
    nh.seen = 1;
    snprintf(nh.check, sizeof nh.check, "%s", check_id ? check_id : "");
    *h = nh;
}

const cJSON *fmuc_shared_buffer_violations(const fmuc_subject *s, fmuc_iface iface)
{
    if (!s->shared || (iface != FMUC_IFACE_ME && iface != FMUC_IFACE_CS))
        return NULL;
    return s->shared->e[iface == FMUC_IFACE_ME ? 0 : 1].bufv;
}

const fmuc_shared_observed *fmuc_shared_nominal_observed(const fmuc_subject *s, fmuc_iface iface)
{
    if (!s->shared || (iface != FMUC_IFACE_ME && iface != FMUC_IFACE_CS))
        return NULL;
    shared_entry *e = &s->shared->e[iface == FMUC_IFACE_ME ? 0 : 1];
    if (!e->done || !e->observed)
        return NULL;
    return &e->obs;
}

const fmuc_shared_hang *fmuc_shared_hang_find(const fmuc_subject *s, fmuc_iface iface)
{
    if (!s->shared || (iface != FMUC_IFACE_ME && iface != FMUC_IFACE_CS))
        return NULL;
    const fmuc_shared_hang *h = &s->shared->hang[iface == FMUC_IFACE_ME ? 0 : 1];
    return h->seen ? h : NULL;
}

/* ---- the nominal runs ------------------------------------------------------------------------ */

/* The limit of the nominal runs and the cap of every scaled timeout: --timeout when given,
 * else FMUC_NOMINAL_TIMEOUT_S (a slow FMU on a loaded machine is no hang). */
static double timeout_cap(const fmuc_options *o)
{
    if (o->timeout_explicit || !(FMUC_NOMINAL_TIMEOUT_S > o->timeout_s))
        return o->timeout_s;
    return FMUC_NOMINAL_TIMEOUT_S;
}

/* the label of the worker that makes a nominal run (and of the hangs it leaves) */
static const char *nominal_label(fmuc_iface iface)
{
    return iface == FMUC_IFACE_ME ? "the nominal ModelExchange run"
                                  : "the nominal CoSimulation run";
}

static void mark_unusable(const fmuc_subject *s, fmuc_iface iface, int level,
                          const char *check_id, const char *why, const fmuc_worker_death *d);

/* What e's run showed of its session (fmuc_shared_observed), when its worker ended normally. */
static void observe(shared_entry *e, const fmuc_worker_outcome *o, const fmuc_sim_result *r)
{
    cJSON_Delete((cJSON *)e->obs.sandbox_events);
    cJSON_Delete((cJSON *)e->obs.release);
    memset(&e->obs, 0, sizeof e->obs);
    e->observed = o->end == FMUC_WORKER_OK && o->reply &&
                  cJSON_GetObjectItemCaseSensitive(o->reply, "sim");
    if (!e->observed)
        return;
    fmuc_shared_observed *b = &e->obs;
    b->isolation = o->isolation;
    b->sandbox_events = o->sandbox_events ? cJSON_Duplicate(o->sandbox_events, 1) : NULL;
    b->sandbox_events_total = o->sandbox_events_total;
    b->sandbox_violations = o->sandbox_violations;
    /* not with a thread of the FMU still running: api-resources-released waits for it in a
     * session of its own (the nominal run does not wait, fmuc_sim_config.observe_release) */
    const cJSON *rel = cJSON_GetObjectItemCaseSensitive(o->reply, "release");
    const cJSON *left = cJSON_GetObjectItemCaseSensitive(rel, "threads_left");
    b->release = rel && cJSON_IsNumber(left) && left->valuedouble <= 0.0
                     ? cJSON_Duplicate(rel, 1)
                     : NULL;
    b->after_reply = e->obs_after_reply;
    snprintf(e->obs_after_reply, sizeof e->obs_after_reply, "%s", o->after_reply);
    b->stop = r->stop;
    b->stop_reason = r->stop_reason; /* e->r's, freed with it */
    snprintf(e->obs_session, sizeof e->obs_session,
             "the nominal %s run, instantiation to its stop time",
             e->iface == FMUC_IFACE_ME ? "ModelExchange" : "CoSimulation");
    b->session = e->obs_session;
}

static int make(const fmuc_subject *s, fmuc_iface iface, fmuc_sim_result *r, fmuc_result *res,
                shared_entry *e, const char *check_id)
{
    fmuc_sim_config cfg;
    fmuc_worker_outcome o;
    const char *label = nominal_label(iface);
    fmuc_shared_nominal_config(s, iface, &cfg);
    /* watched as api-sandbox and api-resources-released judge a session (fmuc_shared_observed) */
    cfg.record_sandbox = e != NULL;
    cfg.observe_release = e != NULL;
    fmuc_options no = *s->opts;
    if (s->shared && s->shared->bound) {
        no.timeout_s = timeout_cap(&s->shared->opts);
        if (!s->shared->opts.timeout_explicit && no.timeout_s == FMUC_NOMINAL_TIMEOUT_S)
            no.timeout_progress_s = FMUC_NOMINAL_PROGRESS_S;
    }
    int rc = fmuc_sim_run_isolated(s->fmu, &no, &cfg, label, r, &o, res);
    /* a crash or hang in it: the interface cannot be simulated (in instantiation or
     * initialization: not used at all) by the checks that follow. Made by the calibration (no
     * check yet), it is recorded for the first check that takes the run (hand_over). */
    /* (a kill under a CPU limit the FMU lowered itself is api-process-state's finding: the
     * interface stays usable, and each later worker that dies so is not applicable naming it) */
    if ((o.end == FMUC_WORKER_CRASHED || o.end == FMUC_WORKER_TIMEOUT ||
         o.end == FMUC_WORKER_EXITED_EARLY) &&
        !o.own_limit[0]) {
        char why[600];
        fmuc_worker_death_text(&o, why, sizeof why);
        if (check_id && check_id[0]) {
            apiu_note_death(s, res, iface, &o);
            /* an exit inside an FMI call is the FMU's, as a crash is; an early exit between
             * calls may be the worker's own failure */
            if (o.end != FMUC_WORKER_EXITED_EARLY || o.call_in_progress)
                fmuc_shared_mark_unusable(s, iface, FMUC_UNUSABLE_RUN, check_id, why, &o);
        } else if (e) {
            e->died = o.end == FMUC_WORKER_EXITED_EARLY && !o.call_in_progress ? 1 : 2;
            e->died_common = apiu_common_phase(&o);
            snprintf(e->death, sizeof e->death, "%s", why);
            fmuc_worker_death_of(&o, &e->sig);
        }
    }
    if (e) {
        e->iface = (int)iface;
        cJSON_Delete(e->bufv);
        e->bufv = o.buffer_violations ? cJSON_Duplicate(o.buffer_violations, 1) : NULL;
        observe(e, &o, r);
        fmuc_shared_note_outcome(s, iface, check_id, &o);
        const fmuc_shared_hang *h = fmuc_shared_hang_find(s, iface);
        /* a hang: the time that went into the calls that returned, up to the hang */
        e->sim_s = o.end == FMUC_WORKER_TIMEOUT ? o.fmi_time_s : o.duration_s - o.lib_time_s;
        if (!(e->sim_s >= 0.0))
            e->sim_s = 0.0;
        /* a hang spins until the limit: then the calls that returned tell, as for sim_s */
        e->cpu_s = o.end == FMUC_WORKER_TIMEOUT ? e->sim_s : o.cpu_s >= 0.0 ? o.cpu_s : 0.0;
        e->start = r->start;
        e->span = rc == 0 ? r->end_time - r->start : NAN;
        if (h && isfinite(h->t) && h->t >= r->start && !(e->span <= h->t - r->start))
            e->span = h->t - r->start;
    }
    fmuc_worker_outcome_free(&o);
    return rc;
}

static void keep(shared_entry *e, const fmuc_result *res, size_t before, size_t dropped,
                 const char *check_id)
{
    fmuc_result_init(&e->res, check_id, NULL, NULL, FMUC_LEVEL_MUST);
    for (size_t i = before; i < res->nmessages; i++)
        fmuc_result_note(&e->res, "%s", res->messages[i]);
    e->res.messages_dropped = res->messages_dropped - dropped;
    /* fmuc_sim_run_isolated: -1 = could not be carried out, 1 = the library does not load */
    e->res.verdict = e->rc < 0 ? FMUC_VERDICT_ERROR : e->rc > 0 ? FMUC_VERDICT_NA
                                                                : FMUC_VERDICT_PASS;
    e->done = 1;
}

/* The first check that asks for a calibrated run gets all that making it reported, evidence
 * included, as if it had made it. */
static void hand_over(const fmuc_subject *s, shared_entry *e, fmuc_result *res,
                      const char *check_id)
{
    fmuc_result_merge(res, &e->full);
    /* a hang the calibration's run left in the remembered calls is named by this check from now
     * on: it judges the run, and later stops name it ("... hung in an earlier worker of this FMU
     * (api-status-codes)") */
    const char *label = nominal_label((fmuc_iface)e->iface);
    fmuc_worker_hangs *calls = &s->shared->calls;
    for (size_t k = 0; check_id && check_id[0] && k < calls->n && k < FMUC_WORKER_HANGS_MAX; k++)
        if (strcmp(calls->e[k].by, label) == 0)
            snprintf(calls->e[k].by, sizeof calls->e[k].by, "%s", check_id);
    if (e->died) {
        /* the calibration's run died: this check is the first to see it (one ERROR here, the
         * later checks that need the interface are not applicable naming it) */
        fmuc_iface iface = (fmuc_iface)e->iface;
        if (e->died_common)
            mark_unusable(s, iface, FMUC_UNUSABLE_INSTANCE, check_id, e->death, &e->sig);
        if (e->died == 2)
            mark_unusable(s, iface, FMUC_UNUSABLE_RUN, check_id, e->death, &e->sig);
    }
    if (e->full.evidence) {
        cJSON *ev = fmuc_result_evidence(res), *it;
        cJSON_ArrayForEach(it, e->full.evidence)
        {
            cJSON *have = ev ? cJSON_GetObjectItemCaseSensitive(ev, it->string) : NULL;
            if (!ev || (have && !(cJSON_IsArray(have) && cJSON_IsArray(it))))
                continue;
            if (!have) {
                cJSON *d = cJSON_Duplicate(it, 1);
                if (d)
                    cJSON_AddItemToObject(ev, it->string, d);
                continue;
            }
            cJSON *x;
            cJSON_ArrayForEach(x, it)
            {
                cJSON *d = cJSON_Duplicate(x, 1);
                if (d)
                    cJSON_AddItemToArray(have, d);
            }
        }
    }
    /* "calibration": {"<interface>": {the nominal run's figures, the limits they gave}} */
    cJSON *ev = fmuc_result_evidence(res);
    cJSON *cal = ev ? cJSON_GetObjectItemCaseSensitive(ev, "calibration") : NULL;
    if (ev && !cal)
        cal = cJSON_AddObjectToObject(ev, "calibration");
    cJSON *ci = cal ? cJSON_AddObjectToObject(cal, apiu_iface_name((fmuc_iface)e->iface)) : NULL;
    if (ci) {
        cJSON_AddNumberToObject(ci, "nominal_run_s", e->took);
        cJSON_AddNumberToObject(ci, "simulation_s", e->sim_s);
        cJSON_AddNumberToObject(ci, "cpu_s", e->cpu_s);
        if (isfinite(e->span))
            cJSON_AddNumberToObject(ci, "span", e->span);
        if (e->timeout_s > 0)
            cJSON_AddNumberToObject(ci, "scaled_timeout_s", e->timeout_s);
    }
    fmuc_result_clear(&e->full);
    e->pending = 0;
    snprintf(e->owner, sizeof e->owner, "%s", check_id);
    e->res.id = check_id;
}

const fmuc_sim_result *fmuc_shared_nominal_run(const fmuc_subject *s, fmuc_iface iface,
                                               const char *check_id, fmuc_result *res,
                                               fmuc_sim_result *own)
{
    memset(own, 0, sizeof *own);
    if (iface != FMUC_IFACE_ME && iface != FMUC_IFACE_CS) {
        fmuc_result_error(res, "nominal run: unknown interface %d", (int)iface);
        return NULL;
    }
    if (!s->shared)
        return make(s, iface, own, res, NULL, check_id) == 0 ? own : NULL;
    shared_entry *e = &s->shared->e[iface == FMUC_IFACE_ME ? 0 : 1];
    if (!e->done) {
        /* made into the caller's result, so its worker figures add up with its other workers';
         * what it reported is kept for the checks that share the run */
        size_t before = res->nmessages, dropped = res->messages_dropped;
        e->rc = make(s, iface, &e->r, res, e, check_id);
        keep(e, res, before, dropped, check_id);
        snprintf(e->owner, sizeof e->owner, "%s", check_id);
        return e->rc == 0 ? &e->r : NULL;
    }
    const char *owner = e->owner;
    if (e->pending && lane_claim(s->shared, iface == FMUC_IFACE_ME ? 0 : 1, &owner)) {
        hand_over(s, e, res, check_id);
    } else if (e->res.verdict == FMUC_VERDICT_ERROR) {
        /* one ERROR, on the check that made the run; the others could not judge it */
        fmuc_result_na(res, "the nominal %s run could not be carried out (see %s)",
                       apiu_iface_name(iface), owner);
    } else {
        fmuc_result_merge(res, &e->res);
        /* "shared_runs": {"<interface>": "<the check whose evidence has its worker figures>"} */
        cJSON *ev = fmuc_result_evidence(res);
        cJSON *sr = cJSON_GetObjectItemCaseSensitive(ev, "shared_runs");
        if (ev && !sr)
            sr = cJSON_AddObjectToObject(ev, "shared_runs");
        if (sr && !cJSON_GetObjectItemCaseSensitive(sr, apiu_iface_name(iface)))
            cJSON_AddStringToObject(sr, apiu_iface_name(iface), owner);
    }
    return e->rc == 0 ? &e->r : NULL;
}

/* the record, with the death behind it as data (d may be NULL) */
static void mark_unusable(const fmuc_subject *s, fmuc_iface iface, int level,
                          const char *check_id, const char *why, const fmuc_worker_death *d)
{
    if (!s->shared || (level != FMUC_UNUSABLE_INSTANCE && level != FMUC_UNUSABLE_RUN))
        return;
    char **slot = &s->shared->unusable[iface][level - 1];
    if (*slot)
        return;
    if (asprintf(slot, "the %s interface is unusable: %s (seen by check %s)",
                 apiu_iface_name(iface), why, check_id) < 0) {
        *slot = NULL;
        return;
    }
    fmuc_worker_death *keep = &s->shared->unusable_death[iface][level - 1];
    if (d)
        *keep = *d;
    else
        memset(keep, 0, sizeof *keep);
}

void fmuc_shared_mark_unusable(const fmuc_subject *s, fmuc_iface iface, int level,
                               const char *check_id, const char *why,
                               const fmuc_worker_outcome *o)
{
    fmuc_worker_death d;
    if (o)
        fmuc_worker_death_of(o, &d);
    mark_unusable(s, iface, level, check_id, why, o ? &d : NULL);
}

const char *fmuc_shared_unusable(const fmuc_subject *s, fmuc_iface iface, int level)
{
    if (!s->shared)
        return NULL;
    char *const *u = s->shared->unusable[iface];
    if (u[FMUC_UNUSABLE_INSTANCE - 1])
        return u[FMUC_UNUSABLE_INSTANCE - 1];
    return level == FMUC_UNUSABLE_RUN ? u[FMUC_UNUSABLE_RUN - 1] : NULL;
}

const char *fmuc_shared_nominal_died_in(const fmuc_subject *s, fmuc_iface iface,
                                        const fmuc_worker_death *d)
{
    if (!s->shared || (iface != FMUC_IFACE_ME && iface != FMUC_IFACE_CS) || !d)
        return NULL;
    const shared_entry *e = &s->shared->e[iface == FMUC_IFACE_ME ? 0 : 1];
    if (e->died == 2 && fmuc_worker_death_same(d, &e->sig))
        return e->death;
    const char *u = s->shared->unusable[iface][FMUC_UNUSABLE_RUN - 1];
    if (u && fmuc_worker_death_same(d, &s->shared->unusable_death[iface][FMUC_UNUSABLE_RUN - 1]))
        return u;
    return NULL;
}

/* ---- calibration, scaled timeout, horizon ---------------------------------------------------- */

double fmuc_shared_scaled_timeout(double user_timeout_s, double nominal_s)
{
    if (!(nominal_s >= 0.0) || !isfinite(nominal_s))
        return user_timeout_s;
    double t = FMUC_TIMEOUT_FACTOR * nominal_s;
    if (t < FMUC_TIMEOUT_MIN_S)
        t = FMUC_TIMEOUT_MIN_S;
    return user_timeout_s > 0.0 && t > user_timeout_s ? user_timeout_s : t;
}

/* The nominal run's CPU time from instantiation to its end (the simulation's own figure; the
 * worker's, with its start and the reply's encoding, when that is missing) and its start (CPU
 * time to the second output row; -1, unknown: a run without one, all start), as the horizon and
 * the budget's estimate read them. */
static double nominal_cpu(const shared_entry *e)
{
    return e->r.run_cpu_s > 0.0 ? e->r.run_cpu_s : e->cpu_s;
}

static double nominal_start(const shared_entry *e)
{
    return e->r.npoints >= 2 ? e->r.start_cpu_s : -1.0;
}

/* the start of a run of cpu_s as the horizon and the estimate count it: an unknown start
 * (negative) or one above the whole means all of it was start */
static double known_start(double cpu_s, double start_cpu_s)
{
    return start_cpu_s >= 0.0 && start_cpu_s <= cpu_s ? start_cpu_s : cpu_s;
}

double fmuc_shared_horizon_share(double cpu_s, double start_cpu_s)
{
    double run = cpu_s - known_start(cpu_s, start_cpu_s);
    double share = 1.0;
    for (double r = run / FMUC_HORIZON_MID_S; r > 1.0 && share > FMUC_HORIZON_MIN_SHARE; r /= 2.0)
        share /= 2.0;
    return share;
}

double fmuc_shared_horizon_steps(double n, double cpu_s, double start_cpu_s)
{
    if (cpu_s > FMUC_HORIZON_SLOW_S)
        return n > FMUC_HORIZON_STEPS_SLOW ? FMUC_HORIZON_STEPS_SLOW : n;
    double k = n;
    if (n > FMUC_HORIZON_MIN_STEPS) {
        k = floor(FMUC_HORIZON_SHARE * n);
        if (k < FMUC_HORIZON_MIN_STEPS)
            k = FMUC_HORIZON_MIN_STEPS;
        if (k > FMUC_HORIZON_MAX_STEPS)
            k = FMUC_HORIZON_MAX_STEPS;
    }
    /* a run (after its start) above FMUC_HORIZON_MID_S: halved per doubling of its cost */
    double share = fmuc_shared_horizon_share(cpu_s, start_cpu_s);
    if (share < 1.0) {
        double m = floor(share * n);
        if (m < FMUC_HORIZON_STEPS_SLOW)
            m = FMUC_HORIZON_STEPS_SLOW;
        if (m < k)
            k = m;
    }
    return k < n ? k : n;
}

void fmuc_shared_calibrate(const fmuc_subject *s)
{
    fmuc_shared_runs *sr = s->shared;
    if (!sr || sr->calibrated)
        return;
    sr->calibrated = 1;
    apiu_iface ifs[2];
    size_t n = apiu_ifaces(s->fmu, ifs);
    double worst = -1.0;
    for (size_t i = 0; i < n; i++) {
        shared_entry *e = &sr->e[ifs[i].type == FMUC_IFACE_ME ? 0 : 1];
        if (e->done)
            continue;
        fmuc_result_init(&e->full, "nominal", NULL, NULL, FMUC_LEVEL_MUST);
        double t0 = fmuc_shared__now();
        e->rc = make(s, ifs[i].type, &e->r, &e->full, e, "");
        double took = fmuc_shared__now() - t0;
        e->took = took;
        keep(e, &e->full, 0, 0, "nominal");
        e->pending = 1;
        if (e->rc == 0 || fmuc_shared_hang_find(s, ifs[i].type)) {
            /* a worker beyond the nominal run does at most the nominal's work; a hang: the work
             * up to it (the later runs end before it) */
            double w = fmuc_shared_hang_find(s, ifs[i].type) ? e->sim_s : took;
            if (w > worst)
                worst = w;
        }
    }
    if (sr->bound && worst >= 0.0) {
        sr->user_timeout_s = timeout_cap(&sr->opts);
        sr->opts.timeout_s = fmuc_shared_scaled_timeout(sr->user_timeout_s, worst);
        sr->scaled_from = worst;
        for (size_t i = 0; i < 2; i++)
            sr->e[i].timeout_s = sr->opts.timeout_s *
                                 (sr->opts.timeout_multiplier > 0 ? sr->opts.timeout_multiplier : 1);
    }
}

/* ---- the time budget ------------------------------------------------------------------------ */

double fmuc_shared_budget_auto(double nominal_wall_s, double nominal_cpu_s, double start_cpu_s)
{
    if (!(nominal_wall_s > 0.0) ||
        !(nominal_cpu_s > FMUC_HORIZON_SLOW_S || start_cpu_s >= FMUC_BUDGET_START_S))
        return 0.0;
    return FMUC_BUDGET_FACTOR * nominal_wall_s + FMUC_BUDGET_BASE_S;
}

double fmuc_shared_budget(const fmuc_subject *s)
{
    double b = s->opts ? s->opts->time_budget_s : 0.0;
    if (b > 0.0)
        return b;
    if (b != FMUC_TIME_BUDGET_AUTO || !s->shared || !s->shared->calibrated)
        return 0.0;
    double wall = 0.0, cpu = 0.0, start = 0.0;
    for (size_t i = 0; i < 2; i++) {
        const shared_entry *e = &s->shared->e[i];
        if (e->done && e->took > 0.0) {
            wall += e->took;
            cpu = fmax(cpu, nominal_cpu(e));
            start = fmax(start, e->r.start_cpu_s);
        }
    }
    return fmuc_shared_budget_auto(wall, cpu, start);
}

double fmuc_shared_session_cost_of(double cpu_s, double start_cpu_s, double n)
{
    double start = known_start(cpu_s, start_cpu_s);
    double share = n >= 1.0 ? fmuc_shared_horizon_steps(n, cpu_s, start) / n : 1.0;
    return start + share * (cpu_s - start);
}

double fmuc_shared_session_cost(const fmuc_subject *s, int iface)
{
    if (!s->shared || (iface != FMUC_IFACE_ME && iface != FMUC_IFACE_CS))
        return 0.0;
    const shared_entry *e = &s->shared->e[iface == FMUC_IFACE_ME ? 0 : 1];
    if (!e->done)
        return 0.0;
    /* the start is measured at the second output row; a run without one was all start. A
     * start of 0 is a measurement: the process CPU clock of a worker under its CPU limit
     * advances by scheduler ticks, so a start of a millisecond or less reads 0 (CraneController:
     * its session was costed as the whole nominal run, 3.7 s, and the budget left out five
     * checks of a battery that took 3.7 s in all) */
    double n = 0.0;
    if (isfinite(e->span) && e->span > 0.0 && e->r.step > 0.0)
        n = floor(e->span / e->r.step + 1e-9);
    return fmuc_shared_session_cost_of(nominal_cpu(e), nominal_start(e), n);
}

double fmuc_shared_check_cost(const fmuc_subject *s, unsigned applies, unsigned sessions)
{
    if (!sessions || !s->shared)
        return 0.0;
    double fmu = 0.0, workers = 0.0;
    for (int f = FMUC_IFACE_ME; f <= FMUC_IFACE_CS; f++) {
        if (!(applies & (f == FMUC_IFACE_ME ? FMUC_APPLIES_ME : FMUC_APPLIES_CS)))
            continue;
        const shared_entry *e = &s->shared->e[f];
        if (!e->done)
            continue;
        fmu += (double)sessions * fmuc_shared_session_cost(s, f);
        /* the worker of the interface (fork, sandbox, loading the library): the nominal run's
         * wall time beyond its simulation */
        workers += e->took > e->sim_s ? e->took - e->sim_s : 0.0;
    }
    /* what the FMU's own calls cost decides; fmucheck's workers only add to a real cost */
    return fmu < FMUC_BUDGET_MIN_CHECK_S ? 0.0 : fmu + workers;
}

int fmuc_shared_budget_admits(double budget_s, double elapsed_s, double cost_s)
{
    if (!(budget_s > 0.0) || !(cost_s > 0.0))
        return 1;
    return elapsed_s + cost_s <= budget_s - FMUC_BUDGET_RESERVE_S;
}

double fmuc_shared_worker_timeout(const fmuc_subject *s, size_t sessions)
{
    const fmuc_shared_runs *sr = s->shared;
    if (!sr || !sr->bound || !(sr->scaled_from >= 0.0) || !sr->calibrated || sessions <= 1)
        return s->opts->timeout_s;
    /* each session does at most a nominal run's work (mostly far less: instantiate, initialize,
     * a few calls); the margin per session is smaller than for one run */
    double t = FMUC_TIMEOUT_SESSION_FACTOR * sr->scaled_from * (double)sessions;
    if (t > sr->user_timeout_s)
        t = sr->user_timeout_s;
    return t > s->opts->timeout_s ? t : s->opts->timeout_s;
}

int fmuc_shared_horizon(const fmuc_subject *s, fmuc_iface iface, double t0, double step,
                        double *t_end, fmuc_result *res, char *why_na, size_t why_len)
{
    *t_end = HUGE_VAL;
    if (why_na && why_len)
        why_na[0] = '\0';
    if (!s->shared || (iface != FMUC_IFACE_ME && iface != FMUC_IFACE_CS))
        return 0;
    const shared_entry *e = &s->shared->e[iface == FMUC_IFACE_ME ? 0 : 1];
    const fmuc_shared_hang *h = fmuc_shared_hang_find(s, iface);
    const char *why = NULL;
    if (e->done && isfinite(e->span) && e->span > 0.0 && step > 0.0) {
        double n = floor(e->span / step + 1e-9);
        double k = fmuc_shared_horizon_steps(n, nominal_cpu(e), nominal_start(e));
        if (k < n) {
            *t_end = t0 + k * step;
            why = "bounded horizon";
        }
    }
    if (e->done && e->rc == 0 && e->r.terminated_by_fmu && isfinite(e->r.end_time) &&
        e->r.end_time > t0) {
        /* the nominal run ended where the FMU asked to (terminateSimulation, fmi2Terminated):
         * a later run ends before that instant, so that what it compares is a run the FMU
         * completes (an importer stops at the request) */
        double before = e->r.end_time - 1e-9 * fmax(1.0, fabs(e->r.end_time));
        if (before < *t_end) {
            *t_end = before;
            why = "ends before the FMU's request to terminate";
        }
    }
    if (h) {
        const char *ow = h->check[0] ? "" : owner_of(s->shared, iface == FMUC_IFACE_ME ? 0 : 1);
        const char *by = h->check[0] ? h->check : ow[0] ? ow : "the nominal run";
        if (!isfinite(h->t) || !(h->t - t0 >= (step > 0.0 ? step : 0.0) * (1.0 - 1e-9)) ||
            h->t <= t0) {
            char at[64] = "";
            if (isfinite(h->t))
                snprintf(at, sizeof at, " at t=%.17g", h->t);
            if (why_na && why_len)
                snprintf(why_na, why_len, "%s hung in %s%s (seen by %s); not called again the "
                                          "same way", apiu_iface_name(iface), h->fn, at, by);
            return 1;
        }
        if (h->t < *t_end) {
            *t_end = h->t;
            why = "ends before the call that hung";
        }
    }
    if (why && res) {
        cJSON *ev = fmuc_result_evidence(res);
        cJSON *hz = ev ? cJSON_GetObjectItemCaseSensitive(ev, "horizon") : NULL;
        if (ev && !hz)
            hz = cJSON_AddObjectToObject(ev, "horizon");
        if (hz && !cJSON_GetObjectItemCaseSensitive(hz, apiu_iface_name(iface))) {
            cJSON *o = cJSON_AddObjectToObject(hz, apiu_iface_name(iface));
            if (o) {
                cJSON_AddNumberToObject(o, "start", t0);
                cJSON_AddNumberToObject(o, "stop", *t_end);
                cJSON_AddStringToObject(o, "reason", why);
                cJSON_AddNumberToObject(o, "nominal_run_seconds", e->sim_s);
                cJSON_AddNumberToObject(o, "nominal_run_cpu_seconds", nominal_cpu(e));
                cJSON_AddNumberToObject(o, "nominal_start_cpu_seconds", e->r.start_cpu_s);
                if (h)
                    cJSON_AddStringToObject(o, "hung", h->fn);
            }
        }
    }
    return 0;
}

int fmuc_shared_run_config(const fmuc_subject *s, fmuc_sim_config *cfg, fmuc_result *res,
                           char *why_na, size_t why_len)
{
    const fmuc_md_experiment *e = &s->fmu->md.experiment;
    double t0 = !isnan(cfg->start) ? cfg->start
                : e->present && e->has_start && isfinite(e->start_time) ? e->start_time : 0.0;
    double t1 = !isnan(cfg->stop) ? cfg->stop
                : e->present && e->has_stop && isfinite(e->stop_time) ? e->stop_time : t0 + 1.0;
    if (isnan(cfg->stop) && fmuc_shared_fixed_step_stop(&s->fmu->md, cfg->iface, t0, t1) < t1)
        cfg->stop = t1 = fmuc_shared_fixed_step_stop(&s->fmu->md, cfg->iface, t0, t1);
    double step = !isnan(cfg->step) ? cfg->step
                  : e->present && e->has_step && isfinite(e->step_size) && e->step_size > 0.0
                      ? e->step_size
                      : (t1 - t0) / 500.0;
    if (step > t1 - t0)
        step = t1 - t0;
    double t_end;
    if (fmuc_shared_horizon(s, cfg->iface, t0, step, &t_end, res, why_na, why_len) != 0)
        return 1;
    if (!(step > 0.0) || !(t_end < t1))
        return 0;
    double n = floor((t_end - t0) / step + 1e-9);
    size_t k = n < 1.0 ? 1 : (size_t)n;
    if (!cfg->max_steps || k < cfg->max_steps)
        cfg->max_steps = k;
    return 0;
}

const uint64_t *fmuc_shared_alias_index(const fmuc_subject *s, size_t *n)
{
    *n = 0;
    if (!s->shared)
        return NULL;
    fmuc_shared_runs *sr = s->shared;
    if (!sr->alias_done) {
        sr->alias = fmuc_ms__alias_sort(&s->fmu->md, &sr->nalias);
        sr->alias_done = 1;
    }
    *n = sr->nalias;
    return sr->alias;
}
