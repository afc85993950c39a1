/* The check registry: one const fmuc_check per file, listed once in checks.def. */
#ifndef FMUC_CHECK_H
#define FMUC_CHECK_H

#include <stdio.h>

#include "fmuc/fmuc_fmu.h"
#include "fmuc/fmuc_options.h"
#include "fmuc/fmuc_result.h"
#include "fmuc/fmuc_sim.h"

/* Applicability: which interface the check is about. ANY: every interface (static checks, and
 * the load-* checks, which load the library of each); a check that calls the FMU names the
 * interfaces it drives (MECS: Model Exchange and Co-Simulation). */
enum {
    FMUC_APPLIES_ME = 1u << 0,
    FMUC_APPLIES_CS = 1u << 1,
    FMUC_APPLIES_SE = 1u << 2, /* FMI 3.0 Scheduled Execution */
    FMUC_APPLIES_MECS = 3u,
    FMUC_APPLIES_ANY = 7u
};
/** "ME", "CS", "SE", "ME,CS", ... (short) or "Model Exchange and Co-Simulation" (long) for a set
 *  of FMUC_APPLIES_* bits. */
static inline const char *fmuc_applies_name(unsigned a, int long_form)
{
    static const char *const s[8] = {"-",     "ME",    "CS",    "ME,CS",
                                     "SE",    "ME,SE", "CS,SE", "ME,CS,SE"};
    static const char *const l[8] = {"no interface",
                                     "Model Exchange",
                                     "Co-Simulation",
                                     "Model Exchange and Co-Simulation",
                                     "Scheduled Execution",
                                     "Model Exchange and Scheduled Execution",
                                     "Co-Simulation and Scheduled Execution",
                                     "Model Exchange, Co-Simulation and Scheduled Execution"};
    return (long_form ? l : s)[a & 7u];
}
/* Versions: which FMI versions the check's rule exists in (the runner makes the check
 * not-applicable, with that reason, for an FMU of another version). A check lists a version only
 * when it judges that version's rule by that version's text (its spec names the sections). */
enum { FMUC_V1 = 1u << 0, FMUC_V2 = 1u << 1, FMUC_V3 = 1u << 2, FMUC_V_ALL = 7u };
/* Needs: what must be available for the check to run */
enum {
    FMUC_NEEDS_ARCHIVE = 1u << 0, /* the zip listing (always there) */
    FMUC_NEEDS_XML = 1u << 1,     /* a parsed model description */
    FMUC_NEEDS_BINARY = 1u << 2,  /* the shared library for this platform */
    FMUC_NEEDS_SANDBOX = 1u << 3, /* calls into the FMU (in a worker process) */
    FMUC_NEEDS_RUN = 1u << 4,     /* simulates the interface (the nominal run or its own) */
    FMUC_NEEDS_OBSERVED = 1u << 5 /* judges the nominal run of an interface when its worker
                                   * observed it (fmuc_shared_nominal_observed), making a
                                   * session of its own only without: the time budget counts
                                   * no session for such an interface */
};

typedef struct fmuc_shared_runs fmuc_shared_runs;

/** What a check sees: the opened FMU and the run's options, read-only, and the runs shared
 *  between checks (shared_runs.c; NULL: every check makes its own). */
typedef struct fmuc_subject {
    const fmuc_fmu *fmu;
    const fmuc_options *opts;
    fmuc_shared_runs *shared;
} fmuc_subject;

/* The check's level under the interop profile (README "Profiles"): */
typedef enum {
    FMUC_INTEROP_SAME = 0, /* as under standard: a violation breaks or misleads an importer */
    FMUC_INTEROP_WARN,     /* every failure warns: violating the rule cannot break or mislead a
                            * conforming importer nor give wrong results (interop_why says why) */
    FMUC_INTEROP_SOME      /* the failures the check marks as harmless (fmuc_result_violation_
                            * letter; interop_why says which) warn, the others fail */
} fmuc_interop;

typedef struct fmuc_check {
    const char *id;     /* "<area>-<kebab>", stable, never reused */
    const char *title;
    const char *spec;   /* "FMI 2.0.4 §2.2.1" */
    fmuc_level level;   /* the text's level: M -> must; S, D, T, U -> should (standard profile) */
    fmuc_interop interop;    /* level under the interop profile */
    const char *interop_why; /* one line: why such a violation cannot break a conforming
                              * importer (required unless interop is FMUC_INTEROP_SAME) */
    const char *why;    /* why it matters: what breaks in an importer when the rule is violated
                         * (one or two sentences; issue 21) */
    const char *fix;    /* how the FMU's author fixes a violation (one or two sentences) */
    unsigned applies;   /* FMUC_APPLIES_* : the check runs if the FMU declares one of these */
    unsigned versions;  /* FMUC_V* : the FMI versions whose FMUs the check judges */
    const char *absent_in_v1; /* what FMI 1.0 lacks for this rule ("FMI 1.0 has no FMU
                               * state"): the not-applicable reason for a 1.0 FMU, else the
                               * generic "a rule of FMI 2.0" (NULL) */
    unsigned needs;     /* FMUC_NEEDS_* */
    unsigned sessions;  /* instances the check starts and steps per interface, as a rule, for the
                         * time budget's estimate (fmuc_shared_check_cost); 0: the check costs
                         * the FMU no start of its own (or the user asked for it, as
                         * --compare): the budget never leaves it out */
    void (*run)(const fmuc_subject *s, fmuc_result *res);
} fmuc_check;

#define FMUC_CHECK(name) extern const fmuc_check fmuc_check_##name;
#include "checks.def"
#undef FMUC_CHECK

/** All checks in run order; NULL-terminated. */
extern const fmuc_check *const fmuc_checks[];
size_t fmuc_checks_count(void);
/** How many checks judge FMUs of FMI version 1, 2 or 3 (0: fmucheck does not support it). */
size_t fmuc_checks_count_for_version(int fmi_version);
const fmuc_check *fmuc_check_find(const char *id);

/** The state and event-indicator counts come from the FMU: the dynamic checks size buffers by
 *  them only below FMUC_MD_MAX_DYNAMIC_COUNT. 0 when both are, else -1 with why set. */
static inline int fmuc_check_dynamic_counts_ok(size_t nz, size_t nx, char *why, size_t whylen)
{
    if (nz <= FMUC_MD_MAX_DYNAMIC_COUNT && nx <= FMUC_MD_MAX_DYNAMIC_COUNT)
        return 0;
    snprintf(why, whylen,
             "numberOfEventIndicators=%zu or %zu continuous states exceed the harness limit of %u",
             nz, nx, FMUC_MD_MAX_DYNAMIC_COUNT);
    return -1;
}

/* ---- work shared between checks (shared_runs.c) ----------------------------------------- */

fmuc_shared_runs *fmuc_shared_runs_new(void);
void fmuc_shared_runs_free(fmuc_shared_runs *sr);
/** A digest of everything in sr that a later check reads (the nominal runs made, the unusable
 *  interfaces, the hangs and the calls not made again, the scaled timeouts; not who took a
 *  nominal run's report, which the lanes decide between them (fmuc_shared_runs_lane), nor the
 *  alias cache, a pure function of the model description): the runner
 *  compares it before and after a check to know whether the check changed what the next one
 *  sees (checks run two at a time, runner.c). The hash of fmuc_shared_runs_export's text, so
 *  the two cannot disagree. 0 for NULL or out of memory: not known, to be taken as a change. */
uint64_t fmuc_shared_runs_digest(const fmuc_shared_runs *sr);
/** What of sr a check may change once the nominal runs are made (the digest's part): the
 *  unusable interfaces, the hangs, the calls not made again (who took each nominal run's report
 *  travels as claims, below); as
 *  JSON, for a lane to send with a result that changed it (runner.c). NULL: out of memory. */
cJSON *fmuc_shared_runs_export(const fmuc_shared_runs *sr);
/** Make sr what ex says (as the check that changed it left it in its lane). 0, or -1 when ex
 *  asks for what cannot be copied (a run made anew, a changed timeout): the runner then runs
 *  that check itself. */
int fmuc_shared_runs_import(fmuc_shared_runs *sr, const cJSON *ex);
/** Lanes (runner.c): who takes each nominal run's report (the calibration's evidence, given to
 *  the first check in order that asks for the run) is decided across the lanes, not by the
 *  shared state: took[0] (ME) / took[1] (CS) hold the smallest position in the batch of a check
 *  that asked, LONG_MAX before (shared between the lanes, atomic). The check at that position
 *  takes the report; a later one acts as if it had been taken (what it merges names ids[that
 *  position]). A lane sets it up once (fmuc_shared_runs_lane, which also gives the lane's
 *  workers a scratch folder of their own: lane 1, 2, ...) and brackets each check
 *  (fmuc_shared_runs_lane_begin / _end: what the check took, or whose report it assumed: a
 *  position, -2 that none had taken it yet, -3 both (void), -1 nothing). The runner checks that
 *  against its own state when it takes the result
 *  (fmuc_shared_runs_claims_ok) and applies it (fmuc_shared_runs_claims_apply). */
void fmuc_shared_runs_lane(fmuc_shared_runs *sr, int lane, _Atomic long *took,
                           const char *const *ids);
void fmuc_shared_runs_lane_begin(fmuc_shared_runs *sr, long pos);
void fmuc_shared_runs_lane_end(const fmuc_shared_runs *sr, int took[2], long assumed[2]);
int fmuc_shared_runs_claims_ok(const fmuc_shared_runs *sr, const int took[2],
                               const long assumed[2], const char *const *ids);
void fmuc_shared_runs_claims_apply(fmuc_shared_runs *sr, const int took[2], const char *check_id);
/** Has the calibration (the nominal runs) been made? */
int fmuc_shared_runs_calibrated(const fmuc_shared_runs *sr);
/** The nominal run's configuration for one interface: the default experiment, inputs from
 *  --input or else their start values (no excitation), the defaults of fmuc_sim_config_init. */
void fmuc_shared_nominal_config(const fmuc_subject *s, fmuc_iface iface, fmuc_sim_config *cfg);
/** The nominal run of one interface (FMUC_IFACE_ME / FMUC_IFACE_CS) in a worker, made
 *  once per FMU and judged by several checks (cs-/me-nominal-run, api-status-codes,
 *  me-completed-integrator-step, me-events), as every run of that configuration is the same
 *  run. What making it reported (worker crash, timeout, load failure, FMU log, the worker
 *  evidence) goes into res: in full for the check that made it, as messages, verdict and a
 *  "shared_runs" reference for the others. Returns the result (owned by the subject, or by
 *  *own when s->shared is NULL; free own with fmuc_sim_result_free either way), or NULL when
 *  there is none (res says why). */
const fmuc_sim_result *fmuc_shared_nominal_run(const fmuc_subject *s, fmuc_iface iface,
                                               const char *check_id, fmuc_result *res,
                                               fmuc_sim_result *own);

/** Interfaces the FMU cannot be used through (issue 16, verdict semantics): a crash or hang in
 *  a phase every dynamic check of that interface needs is one ERROR on the first check that saw
 *  it; the runner makes the later checks that need that phase not-applicable, naming that
 *  check. FMUC_UNUSABLE_INSTANCE: loading, fmi2Instantiate, fmi2SetupExperiment or
 *  fmi2Enter/ExitInitializationMode crashed or hung (every check that calls the FMU needs them).
 *  FMUC_UNUSABLE_RUN: the nominal run crashed or hung (checks with FMUC_NEEDS_RUN need it). */
enum { FMUC_UNUSABLE_INSTANCE = 1, FMUC_UNUSABLE_RUN = 2 };
/** Record that iface is unusable at level (the first record per interface and level stays).
 *  check_id names the check that saw it, why what happened, o the worker whose death it was
 *  (NULL: no worker's; fmuc_shared_nominal_died_in compares with it). No-op without a cache. */
void fmuc_shared_mark_unusable(const fmuc_subject *s, fmuc_iface iface, int level,
                               const char *check_id, const char *why,
                               const fmuc_worker_outcome *o);
/** "the <iface> interface is unusable: <why> (seen by check <id>)" when iface cannot serve a
 *  check that needs level (FMUC_UNUSABLE_RUN also reports an unusable instance), else NULL.
 *  The text lives in the subject. */
const char *fmuc_shared_unusable(const fmuc_subject *s, fmuc_iface iface, int level);
/** The nominal run of iface (ME or CS) ended as death d did (fmuc_worker_death_same: the same
 *  kind of death inside the same FMI function): how it ended (the text of the calibration or
 *  of the FMUC_UNUSABLE_RUN record), else NULL. A probe that dies the same way in that
 *  function's legal call learns nothing the nominal run's check does not report. The text
 *  lives in the subject. */
const char *fmuc_shared_nominal_died_in(const fmuc_subject *s, fmuc_iface iface,
                                        const fmuc_worker_death *d);

/** The variables sorted by alias key (fmuc_ms__alias_sort in md/md_util.h), made once per FMU;
 *  NULL (and *n = 0) without a cache or when out of memory. */
const uint64_t *fmuc_shared_alias_index(const fmuc_subject *s, size_t *n);

/** The level a check has under profile p: "must" or "should", and for interop with
 *  FMUC_INTEROP_SOME "must/should" (the harmless findings warn). */
const char *fmuc_check_profile_level(const fmuc_check *c, fmuc_profile p);
/** r's verdicts under the three profiles from c's registry entry (fmuc_result_profiles). */
void fmuc_check_profiles(const fmuc_check *c, fmuc_result *r, fmuc_profile selected);

/* ---- time bounds (shared_runs.c; issue 16, cause 6) ------------------------------------------
 * The nominal runs are the yardstick. fmuc_shared_calibrate makes them before the first check
 * that calls into the FMU; then
 *  - every later worker's wall-clock limit is fmuc_shared_scaled_timeout(C, W): W is the
 *    slowest nominal worker's wall time (for a run that hung: the time spent in the calls that
 *    returned before the hang), the limit FMUC_TIMEOUT_FACTOR x W, at least FMUC_TIMEOUT_MIN_S,
 *    at most C; --timeout-multiplier scales the result like every other limit. C, also the
 *    limit of the nominal runs themselves, is --timeout when it was given (timeout_explicit),
 *    else FMUC_NOMINAL_TIMEOUT_S: a slow FMU on a loaded machine is no hang. The checks before
 *    the calibration get --timeout (60 s).
 *  - every run beyond the nominal one covers fmuc_shared_horizon_steps(N, C, S) of the N
 *    communication (or output) steps the nominal run's simulated span has on that run's grid
 *    (C: the nominal run's CPU time from instantiation to its end, fmuc_sim_result.run_cpu_s,
 *    else its worker's; S: its start, fmuc_sim_result.start_cpu_s, -1 without a second row):
 *    all of them up to FMUC_HORIZON_MIN_STEPS, else a tenth, at least that many, at most
 *    FMUC_HORIZON_MAX_STEPS; when C - S (the run after its start) exceeds FMUC_HORIZON_MID_S,
 *    at most fmuc_shared_horizon_share(C, S) of N (a half, a quarter, ... one halving per
 *    doubling of C - S beyond FMUC_HORIZON_MID_S, at least FMUC_HORIZON_STEPS_SLOW steps): the
 *    battery starts some thirty instances, most of them excited, each dearer than the nominal
 *    run (Dymola's 0001_ECS_HW: 0.2-0.3 s per nominal run, 0.6 s per excited eq- run; issue
 *    16's bound of 3 nominal runs + 2 s); when C exceeds FMUC_HORIZON_SLOW_S, at most
 *    FMUC_HORIZON_STEPS_SLOW (a slow FMU's run costs seconds per instance); and it ends before
 *    a call that hung. Counted in steps of the nominal span and from CPU times (not wall
 *    times), with thresholds that double: an ordinary FMU (milliseconds per run) always gets
 *    the whole span, and another machine or load moves an FMU's horizon only when its run's
 *    CPU time crosses a power of two times FMUC_HORIZON_MID_S (the verdicts of defects that
 *    act at every step do not move; the README says so).
 *  - a call that hung (worker timeout with an FMI call in progress) is remembered per interface:
 *    a later run that would reach it again is not applicable, naming the check that saw it. */
#define FMUC_TIMEOUT_FACTOR 30.0
#define FMUC_NOMINAL_TIMEOUT_S 300.0
/* a nominal run at FMUC_NOMINAL_TIMEOUT_S whose FMI calls keep returning (the call in progress
 * made, or the last returned, less than a tenth of that limit ago) runs on, up to this: a slow
 * FMU on a slow machine is no hang either (OSOM's nominal run, 3500 s of a 20-sim model, took
 * 170 s on one machine and 298 s to over 300 s on another); a call that does not return for 30 s ends it
 * (fmuc_worker_spec.progress_limit_s). Not with --timeout, the upper bound of everything. */
#define FMUC_NOMINAL_PROGRESS_S 1200.0
#define FMUC_TIMEOUT_SESSION_FACTOR 3.0
#define FMUC_TIMEOUT_MIN_S 1.0
#define FMUC_HORIZON_MIN_STEPS 1000.0
#define FMUC_HORIZON_STEPS_SLOW 20.0
#define FMUC_HORIZON_SLOW_S 2.0
#define FMUC_HORIZON_SHARE 0.1
#define FMUC_HORIZON_MAX_STEPS 2000.0
#define FMUC_HORIZON_MID_S 0.05
#define FMUC_HORIZON_MIN_SHARE (1.0 / 64.0)
/* FMI 3.0 Co-Simulation with a declared fixedInternalStepSize f (§4.4): the nominal run covers at
 * most this many internal steps, [start, start + FMUC_NOMINAL_MAX_INTERNAL_STEPS * f] (the
 * Reference-FMU Roberts declares stopTime 1e8 with a fixed-step solver inside); every later run
 * is bounded by the nominal span as above. */
#define FMUC_NOMINAL_MAX_INTERNAL_STEPS 1e3
/** The end of a run of md's interface iface from t0 that would end at t1: t1, or for FMI 3.0
 *  Co-Simulation with fixedInternalStepSize f, at most t0 + FMUC_NOMINAL_MAX_INTERNAL_STEPS * f
 *  (the nominal runs, fmuc_shared_run_config and the eq-* plans use it). */
double fmuc_shared_fixed_step_stop(const fmuc_md *md, fmuc_iface iface, double t0, double t1);

typedef struct fmuc_shared_hang {
    int seen;
    char fn[48];      /* the FMI function in progress ("fmi2DoStep") */
    double t;         /* its simulation time ("t=" in the call or the phase), NaN: unknown */
    char check[64];   /* the check whose worker hung ("" for the calibration run) */
} fmuc_shared_hang;

/* ---- the time budget (shared_runs.c, runner.c; issue 16: the battery's wall time at most 3 x
 * the nominal run of each interface + 2 s) ---------------------------------------------------
 * The horizon bounds what each run covers; an FMU whose every instance start costs a second
 * (Dymola's FS_OPSC fits its polynomials in the first fmi2DoStep of every instance) still spends
 * (instances started) x (start cost), and the battery starts some thirty. With a budget
 * (fmuc_options.time_budget_s: a positive value is that many seconds, 0 none, and
 * FMUC_TIME_BUDGET_AUTO, the CLI's default, fmuc_shared_budget_auto: FMUC_BUDGET_FACTOR x the nominal
 * runs' wall time + FMUC_BUDGET_BASE_S for an FMU whose time is its own: a nominal run took more
 * than FMUC_HORIZON_SLOW_S of CPU time (the threshold of the short horizon) or its start, up to
 * the first output interval, at least FMUC_BUDGET_START_S; else none) the runner
 * admits a dynamic check only when its estimate fits what is left of the budget, counted from the
 * start of the battery; a check that does not is not applicable with the reason and marked
 * not_run (the reports list it as not run). The estimate is fmuc_shared_check_cost: the check's
 * instance starts per interface (fmuc_check.sessions; none for an interface a
 * FMUC_NEEDS_OBSERVED check judges on its observed nominal run) x the cost of one bounded
 * session of each interface, measured on the nominal run (its start, the CPU time up to the
 * first output interval, plus the horizon's share of the rest), plus a worker per interface. A check whose
 * sessions cost the FMU less than FMUC_BUDGET_MIN_CHECK_S is always run (its time is fmucheck's
 * own, not the FMU's), as is a check with sessions 0. Ordinary FMUs (milliseconds per start and
 * per run) never see the automatic budget: their battery is fmucheck's own time, and leaving
 * checks out would save nothing of the FMU's. Both thresholds are CPU times, far from ordinary
 * FMUs, so that whether a budget applies does not move with the machine's load. */
#define FMUC_BUDGET_FACTOR 3.0
#define FMUC_BUDGET_BASE_S 2.0
#define FMUC_BUDGET_MIN_CHECK_S 0.25
#define FMUC_BUDGET_START_S 0.25
/* the runner scales every estimate by this, or by the ratio of what the checks with an estimate
 * took to their estimates so far in its process when that is larger */
#define FMUC_BUDGET_MARGIN 1.5
/* what the process spends around the battery (opening the FMU before it, the reports after it)
 * is kept out of the checks' share of the budget: a check is admitted only when it ends this
 * much before the budget (FS_OPSC ended 0.09 s beyond its budget of 14.0 s) */
#define FMUC_BUDGET_RESERVE_S 0.25
/** The automatic budget: FMUC_BUDGET_FACTOR x nominal_wall_s + FMUC_BUDGET_BASE_S when
 *  nominal_cpu_s (the slowest nominal run's CPU time) exceeds FMUC_HORIZON_SLOW_S or start_cpu_s
 *  (the costliest start, fmuc_sim_result.start_cpu_s) is at least FMUC_BUDGET_START_S, else 0. */
double fmuc_shared_budget_auto(double nominal_wall_s, double nominal_cpu_s, double start_cpu_s);
/** The budget in seconds of wall time from the start of the battery for the options' setting and
 *  the nominal runs made (fmuc_shared_calibrate), or 0 when there is none. */
double fmuc_shared_budget(const fmuc_subject *s);
/** The estimated cost (s) of a check that applies to the interfaces applies (FMUC_APPLIES_*)
 *  and starts sessions instances in each: over those with a measured nominal run, sessions x
 *  fmuc_shared_session_cost plus the worker (the nominal run's wall time beyond its simulation:
 *  fork, sandbox, loading the library); 0 when sessions is 0 or the sessions' part is below
 *  FMUC_BUDGET_MIN_CHECK_S. */
double fmuc_shared_check_cost(const fmuc_subject *s, unsigned applies, unsigned sessions);
/** One bounded session of interface iface (fmuc_iface): fmuc_shared_session_cost_of the nominal
 *  run's figures; 0 when it was not measured. */
double fmuc_shared_session_cost(const fmuc_subject *s, int iface);
/** One bounded session of a nominal run of cpu_s CPU time over n steps of its span: its start
 *  (start_cpu_s, the CPU time up to the second output row; negative: unknown, the run had none,
 *  and all of it counts as start) plus the horizon's share (fmuc_shared_horizon_steps) of the
 *  rest. */
double fmuc_shared_session_cost_of(double cpu_s, double start_cpu_s, double n);
/** Admission (pure): whether a check estimated at cost_s may start when elapsed_s of budget_s
 *  are spent: when it ends FMUC_BUDGET_RESERVE_S before the budget (budget_s 0 or cost_s 0:
 *  always). */
int fmuc_shared_budget_admits(double budget_s, double elapsed_s, double cost_s);

/** The run's options as the checks of this FMU see them (a copy whose timeout_s the calibration
 *  scales); returns opts itself when sr is NULL. The runner points the subject at it. */
const fmuc_options *fmuc_shared_runs_bind(fmuc_shared_runs *sr, const fmuc_options *opts);
/** Make the nominal run of every declared interface now (idempotent); the first check that
 *  asks for one (fmuc_shared_nominal_run) gets what making it reported as its own. */
void fmuc_shared_calibrate(const fmuc_subject *s);
/** min(user_timeout_s, max(FMUC_TIMEOUT_MIN_S, FMUC_TIMEOUT_FACTOR * nominal_s)). */
double fmuc_shared_scaled_timeout(double user_timeout_s, double nominal_s);
/** The timeout (before the multiplier) of a worker that makes `sessions` instances, each up
 *  to a nominal run's work (probe sets): FMUC_TIMEOUT_SESSION_FACTOR x sessions x W, at least
 *  the scaled timeout, at most its cap; s->opts->timeout_s for one session or before the
 *  calibration. */
double fmuc_shared_worker_timeout(const fmuc_subject *s, size_t sessions);
/** The share of the nominal span that runs beyond the nominal one may cover for a nominal run
 *  of cpu_s CPU time (from instantiation to its end), start_cpu_s of it up to its first output
 *  interval (negative: unknown, all of it start): 1 while the rest is at most
 *  FMUC_HORIZON_MID_S, then halved per doubling of it, at least FMUC_HORIZON_MIN_SHARE (see
 *  above). */
double fmuc_shared_horizon_share(double cpu_s, double start_cpu_s);
/** How many of the n steps of the nominal span runs beyond the nominal one cover (see above)
 *  for a nominal run of cpu_s CPU time, start_cpu_s of it its start. */
double fmuc_shared_horizon_steps(double n, double cpu_s, double start_cpu_s);
/** Remember a hang seen by check_id's worker on iface (o ended in a timeout during a call). */
void fmuc_shared_note_outcome(const fmuc_subject *s, fmuc_iface iface, const char *check_id,
                              const fmuc_worker_outcome *o);
/** The buffer violations (fmuc_worker_outcome.buffer_violations) of the nominal run of iface,
 *  once made (fmuc_shared_calibrate), or NULL. */
const cJSON *fmuc_shared_buffer_violations(const fmuc_subject *s, fmuc_iface iface);
/** What the nominal run of an interface showed of an ordinary session besides its results
 *  (made with fmuc_sim_config.record_sandbox and observe_release), for the checks that judge a
 *  whole session: api-sandbox (the attempts its worker's sandbox recorded) and
 *  api-resources-released (what its free left behind). A run from instantiation to the stop
 *  time covers what their own short session would, and more, without one more instance start
 *  (issue 16's time bounds). */
typedef struct fmuc_shared_observed {
    fmuc_isolation isolation;     /* the worker's sandbox (fmuc_worker_outcome.isolation) */
    const cJSON *sandbox_events;  /* the recorded attempts kept (NULL: none) */
    uint64_t sandbox_events_total, sandbox_violations;
    const cJSON *release;         /* fmuc_worker_release_end's figures (NULL: the instance
                                   * was not made or not freed, or a thread of the FMU was
                                   * still running right after the free) */
    const char *after_reply;      /* how unloading the library ended the worker ("": well) */
    double stop;                  /* the run's stop time */
    const char *stop_reason;      /* why it ended before, or NULL */
    const char *session;          /* which session this is, for the evidence ("the nominal
                                   * ModelExchange run, instantiation to its stop time") */
} fmuc_shared_observed;
/** The nominal run of iface as observed: NULL without shared runs, before it was made, or when
 *  its worker did not end normally (a crash, a hang: the nominal-run checks judge it, and a
 *  check that needs the session makes its own). */
const fmuc_shared_observed *fmuc_shared_nominal_observed(const fmuc_subject *s, fmuc_iface iface);
/** The earliest hang remembered for iface, or NULL. */
const fmuc_shared_hang *fmuc_shared_hang_find(const fmuc_subject *s, fmuc_iface iface);
/** The horizon of a run beyond the nominal one that starts at t0 with communication steps of
 *  step: *t_end (HUGE_VAL: unbounded; before the instant at which the nominal run ended at the
 *  FMU's request to terminate, when it did); records evidence["horizon"][<interface>] in res
 *  when it bounds the run. Returns 1 when not one step fits before a call that hung: why_na
 *  then names the call, its time and the check that saw it (the caller makes that interface
 *  not-applicable); else 0. */
int fmuc_shared_horizon(const fmuc_subject *s, fmuc_iface iface, double t0, double step,
                        double *t_end, fmuc_result *res, char *why_na, size_t why_len);
/** The same for a simulation driver run: bounds cfg->max_steps (times resolved like the
 *  driver). Returns 1 (why_na set) or 0. */
int fmuc_shared_run_config(const fmuc_subject *s, fmuc_sim_config *cfg, fmuc_result *res,
                           char *why_na, size_t why_len);
double fmuc_shared__now(void);

/** Shell-style pattern match of a check id ("md-*"). */
int fmuc_check_id_matches(const char *pattern, const char *id);

#endif
