/* The runner: decides applicability and needs for each check, runs it, times it; once the
 * nominal runs are made, two checks at a time (see "two checks at a time" below). */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner.h"

#include "fmuc/fmuc_proc.h"

int fmuc_run_selected(const fmuc_run_filter *f, const fmuc_check *c)
{
    if (!f)
        return 1;
    int sel = f->nonly == 0;
    for (size_t i = 0; i < f->nonly && !sel; i++)
        sel = fmuc_check_id_matches(f->only[i], c->id);
    for (size_t i = 0; i < f->nskip && sel; i++)
        if (fmuc_check_id_matches(f->skip[i], c->id))
            sel = 0;
    return sel;
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* The capability flags of one interface (FMUC_IF_*) under their names in the FMU's version
 * (fmuc_caps.def; FMI 1.0 has flags on Co-Simulation only). */
static cJSON *caps_json(const fmuc_md_interface *itf, unsigned iface, int version)
{
    cJSON *o = cJSON_CreateObject();
    for (int k = 0; k < FMUC_CAP_COUNT; k++) {
        const char *name = fmuc_md_cap_attr((fmuc_cap)k, version);
        if (!name || !(fmuc_md_cap_ifaces((fmuc_cap)k, version) & iface))
            continue;
        cJSON_AddBoolToObject(o, name, (itf->caps >> k) & 1u);
    }
    if (iface == FMUC_IF_CS)
        cJSON_AddNumberToObject(o, "maxOutputDerivativeOrder", itf->max_output_derivative_order);
    return o;
}

void fmuc_report_identity_fill(fmuc_report *rep, const fmuc_fmu *fmu)
{
    fmuc_report_identity *id = &rep->fmu;
    id->path = dup_or_null(fmu->path);
    id->file_name = dup_or_null(fmu->file_name);
    id->sha256 = fmu->sha256[0] ? strdup(fmu->sha256) : NULL;
    id->file_size = fmu->file_size;
    id->platform = dup_or_null(fmu->platform ? fmu->platform : fmuc_host_platform());
    id->fmi_version = dup_or_null(fmu->fmi_version_seen);
    if (!fmu->md_parsed)
        return;
    const fmuc_md *md = &fmu->md;
    free(id->fmi_version);
    id->fmi_version = dup_or_null(md->fmi_version ? md->fmi_version : fmu->fmi_version_seen);
    id->model_name = dup_or_null(md->model_name);
    id->guid = dup_or_null(md->guid);
    id->description = dup_or_null(md->description);
    id->author = dup_or_null(md->author);
    id->version = dup_or_null(md->version);
    id->generation_tool = dup_or_null(md->generation_tool);
    id->generation_date_and_time = dup_or_null(md->generation_date_and_time);
    id->variable_naming_convention =
        dup_or_null(md->variable_naming_convention ? md->variable_naming_convention : "flat");
    const int ver = fmuc_fmu_fmi_version(fmu);
    if (md->me.present) {
        id->me_model_identifier = dup_or_null(md->me.model_identifier);
        id->me_caps = caps_json(&md->me, FMUC_IF_ME, ver);
    }
    if (md->cs.present) {
        id->cs_model_identifier = dup_or_null(md->cs.model_identifier);
        id->cs_caps = caps_json(&md->cs, FMUC_IF_CS, ver);
    }
    if (md->se.present) {
        id->se_model_identifier = dup_or_null(md->se.model_identifier);
        id->se_caps = caps_json(&md->se, FMUC_IF_SE, ver);
    }
    id->number_of_event_indicators = md->number_of_event_indicators;
    id->nvars = md->nvars;
    for (size_t i = 0; i < md->nvars; i++) {
        unsigned c = md->vars[i].causality;
        if (c < 7)
            id->nvars_by_causality[c]++;
    }
    id->nstates = md->nderivatives;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Why a check cannot run on this FMU, or NULL when it can. */
static const char *unmet(const fmuc_check *c, const fmuc_fmu *fmu, fmuc_err open_err,
                         char *buf, size_t len)
{
    if (open_err == FMUC_EUNSUPPORTED) {
        snprintf(buf, len, "fmiVersion \"%s\" is not supported",
                 fmu->fmi_version_seen ? fmu->fmi_version_seen : "?");
        return buf;
    }
    const int v = fmuc_fmu_fmi_version(fmu);
    if (!(c->versions & (1u << (v - 1))) && v == 1 && c->absent_in_v1) {
        snprintf(buf, len, "%s (this FMU is FMI 1.0, fmiVersion \"%s\")", c->absent_in_v1,
                 fmu->fmi_version_seen ? fmu->fmi_version_seen : "?");
        return buf;
    }
    if (!(c->versions & (1u << (v - 1)))) {
        /* another version's rule: never judge an FMU by the text of a version it is not */
        /* the versions it judges, oldest first ("1.0 and 2.0", "2.0 and 3.0", "2.0") */
        static const char *const names[] = {"1.0", "2.0", "3.0"};
        char vs[32] = "";
        size_t n = 0, k = 0;
        for (int i = 0; i < 3; i++)
            n += (c->versions & (1u << i)) != 0;
        for (int i = 0; i < 3; i++) {
            if (!(c->versions & (1u << i)))
                continue;
            size_t used = strlen(vs);
            snprintf(vs + used, sizeof vs - used, "%s%s", k == 0 ? "" : k + 1 == n ? " and " : ", ",
                     names[i]);
            k++;
        }
        snprintf(buf, len, "a rule of FMI %s; this FMU is FMI %s (fmiVersion \"%s\")", vs,
                 v == 1 ? "1.0" : v == 3 ? "3.0" : "2.0",
                 fmu->fmi_version_seen ? fmu->fmi_version_seen : "?");
        return buf;
    }
    if (open_err == FMUC_EZIP && (c->needs & ~FMUC_NEEDS_ARCHIVE))
        return "the archive was rejected as unsafe; only archive checks ran";
    if (!(c->needs & ~FMUC_NEEDS_ARCHIVE))
        return NULL;
    if (!fmu->md_parsed)
        return fmu->has_md_file ? "modelDescription.xml could not be parsed"
                                : "modelDescription.xml is missing";
    const fmuc_md *md = &fmu->md;
    if (md->parse_stopped)
        /* A document cut short by an XML error gives a partial model: judging it would report
         * absent elements that are really there. md-well-formed reports the error itself. */
        return "modelDescription.xml is not well-formed (see md-well-formed); the model is "
               "incomplete";
    unsigned declared = (md->me.present ? FMUC_APPLIES_ME : 0u) |
                        (md->cs.present ? FMUC_APPLIES_CS : 0u) |
                        (md->se.present ? FMUC_APPLIES_SE : 0u);
    if (!declared) /* no interface declared: md-interfaces reports it; XML checks still run */
        declared = FMUC_APPLIES_ANY;
    if (!(c->applies & declared)) {
        snprintf(buf, len, "applies to %s, which the FMU does not declare (it declares %s)",
                 fmuc_applies_name(c->applies, 1), fmuc_applies_name(declared, 1));
        return buf;
    }
    if (c->needs & (FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX)) {
        int have = ((c->applies & FMUC_APPLIES_ME) && md->me.present && fmu->lib_path_me) ||
                   ((c->applies & FMUC_APPLIES_CS) && md->cs.present && fmu->lib_path_cs) ||
                   ((c->applies & FMUC_APPLIES_SE) && md->se.present && fmu->lib_path_se);
        if (!have) {
            snprintf(buf, len, "no %s binary for the declared interface(s)",
                     fmu->platform ? fmu->platform : fmuc_host_platform());
            return buf;
        }
    }
    return NULL;
}

/* Every interface the check would call is unusable (fmuc_shared_unusable: a crash or hang in
 * loading, instantiation, initialization or, for FMUC_NEEDS_RUN, the nominal run, seen by an
 * earlier check): why, naming that check; NULL otherwise. */
static const char *unusable(const fmuc_subject *subj, const fmuc_check *c, char *buf, size_t len)
{
    const fmuc_fmu *fmu = subj->fmu;
    const int level = (c->needs & FMUC_NEEDS_RUN) ? FMUC_UNUSABLE_RUN : FMUC_UNUSABLE_INSTANCE;
    const char *u[3] = {NULL, NULL, NULL};
    size_t need = 0, gone = 0;
    if (!(c->needs & FMUC_NEEDS_SANDBOX) || !fmu->md_parsed)
        return NULL;
    if ((c->applies & FMUC_APPLIES_ME) && fmu->md.me.present && fmu->lib_path_me) {
        need++;
        if ((u[gone] = fmuc_shared_unusable(subj, FMUC_IFACE_ME, level)) != NULL)
            gone++;
    }
    if ((c->applies & FMUC_APPLIES_CS) && fmu->md.cs.present && fmu->lib_path_cs) {
        need++;
        if ((u[gone] = fmuc_shared_unusable(subj, FMUC_IFACE_CS, level)) != NULL)
            gone++;
    }
    if ((c->applies & FMUC_APPLIES_SE) && fmu->md.se.present && fmu->lib_path_se) {
        need++;
        if ((u[gone] = fmuc_shared_unusable(subj, FMUC_IFACE_SE, level)) != NULL)
            gone++;
    }
    if (!need || gone < need)
        return NULL;
    if (gone == 1)
        return u[0];
    snprintf(buf, len, "%s; %s%s%s", u[0], u[1], gone > 2 ? "; " : "", gone > 2 ? u[2] : "");
    return buf;
}

/* X10 policy for needsExecutionTool="true": the FMU is tried like any other (the tool may well
 * be installed). When api-instantiate does not pass on such an FMU, the FMU needs a tool this
 * machine does not give it: api-instantiate and every later check that calls the FMU become
 * not-applicable with that reason (not failures of the FMU), and the report's
 * environmentRequired says why (the CLI exits 64 when nothing else failed). Returns the
 * declaring interface's name, or NULL when no interface with a binary declares the flag. */
static const char *needs_tool(const fmuc_fmu *fmu, uint32_t *line)
{
    const unsigned bit = 1u << FMUC_CAP_NEEDS_EXECUTION_TOOL;
    if (!fmu->md_parsed)
        return NULL;
    if (fmu->md.me.present && fmu->lib_path_me && (fmu->md.me.caps & bit)) {
        *line = fmu->md.me.line;
        return "ModelExchange";
    }
    if (fmu->md.cs.present && fmu->lib_path_cs && (fmu->md.cs.caps & bit)) {
        *line = fmu->md.cs.line;
        return "CoSimulation";
    }
    return NULL;
}

/* Does a log array (evidence "log", or the worker's "log") hold an FMU message naming the GUID? */
static int log_names_guid(const cJSON *log)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, log)
    {
        const char *m = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "message"));
        if (m && strcasestr(m, "guid"))
            return 1;
    }
    return 0;
}

/* The FMU's own messages about the failed instantiation name the GUID: it was given a model
 * description that is not its own (X09), which no execution tool would mend. */
static int failed_on_guid(const fmuc_result *r)
{
    const cJSON *ev = r->evidence;
    return ev && (log_names_guid(cJSON_GetObjectItemCaseSensitive(ev, "log")) ||
                  log_names_guid(cJSON_GetObjectItemCaseSensitive(
                      cJSON_GetObjectItemCaseSensitive(ev, "worker"), "log")));
}

static fmuc_err tool_missing(fmuc_report *rep, fmuc_result *r, const char *iface, uint32_t line)
{
    char first[512];
    snprintf(first, sizeof first, "%s", r->nmessages ? r->messages[0] : "fmi2Instantiate failed");
    fmuc_verdict was = r->verdict;
    const char *id = r->id, *title = r->title, *spec = r->spec; /* static strings */
    fmuc_level level = r->level;
    char *why = NULL;
    if (asprintf(&why, "needsExecutionTool=\"true\" (<%s>, line %u): the FMU needs an execution "
                       "tool that is not available here, fmi2Instantiate did not succeed (%s); "
                       "the checks that call the FMU were not carried out",
                 iface, line, first) < 0)
        return FMUC_ENOMEM;
    fmuc_result_clear(r);
    fmuc_result_init(r, id, title, spec, level);
    fmuc_result_na(r, "%s", why);
    fmuc_result_note(r, "without the needsExecutionTool policy the verdict would be %s",
                     fmuc_verdict_name(was));
    free(rep->environment_required);
    rep->environment_required = why;
    return FMUC_OK;
}

/* The report's fmuLog: the FMU's messages from every check's evidence "log", each tagged with
 * the check id, at most FMU_LOG_MAX in all (the evidence keeps its own capped copy). */
#define FMU_LOG_MAX 2000

static void collect_log(fmuc_report *rep, const fmuc_result *r)
{
    const cJSON *log = r->evidence ? cJSON_GetObjectItemCaseSensitive(r->evidence, "log") : NULL;
    const cJSON *it;
    if (!rep->fmu_log || !cJSON_IsArray(log))
        return;
    cJSON_ArrayForEach(it, log)
    {
        if (cJSON_GetArraySize(rep->fmu_log) >= FMU_LOG_MAX)
            return;
        cJSON *e = cJSON_Duplicate(it, 1);
        if (!e)
            return;
        if (cJSON_IsObject(e) && !cJSON_GetObjectItemCaseSensitive(e, "check"))
            cJSON_AddStringToObject(e, "check", r->id);
        cJSON_AddItemToArray(rep->fmu_log, e);
    }
}

/* What one run of the checks holds: the report, the FMU, the subject the checks see. */
typedef struct run_ctx {
    fmuc_report *rep;
    const fmuc_fmu *fmu;
    fmuc_err open_err;
    const fmuc_options *opts;
    const fmuc_run_filter *filter;
    const fmuc_run_hooks *hooks;
    fmuc_subject subj;
    size_t done, total;
    double t_begin; /* when the battery began (the time budget counts from there) */
    /* the checks with an estimate run so far in this process (the runner or a lane): their
     * estimates and what they took; the estimates of the next ones are scaled by that ratio
     * when it is above FMUC_BUDGET_MARGIN, else by the margin (the bounded runs cost more than
     * the nominal run's share says: FS_OPSC's 1.4 to 1.8 times) */
    double est_sum, took_sum;
} run_ctx;

/* The time budget (checks/check.h): NULL when dynamic check c may start now, else the reason it
 * is left out, in buf. *est: its estimate before scaling (0 without a budget or an estimate),
 * which run_one learns from once the check ran. */
static const char *over_budget(const run_ctx *x, const fmuc_check *c, double now, char *buf,
                               size_t len, double *est)
{
    *est = 0.0;
    double budget = fmuc_shared_budget(&x->subj);
    if (!(budget > 0.0))
        return NULL;
    unsigned applies = c->applies;
    if (c->needs & FMUC_NEEDS_OBSERVED) { /* the nominal run answers it: no instance start */
        for (int f = FMUC_IFACE_ME; f <= FMUC_IFACE_CS; f++) {
            const fmuc_shared_observed *ob = fmuc_shared_nominal_observed(&x->subj, f);
            if (ob && ob->isolation.known && ob->release) /* both checks' part observed */
                applies &= ~(unsigned)(f == FMUC_IFACE_ME ? FMUC_APPLIES_ME : FMUC_APPLIES_CS);
        }
    }
    double cost = *est = fmuc_shared_check_cost(&x->subj, applies, c->sessions);
    double scale = FMUC_BUDGET_MARGIN;
    if (x->est_sum > 0.0 && x->took_sum > scale * x->est_sum)
        scale = x->took_sum / x->est_sum;
    cost *= scale;
    double spent = now - x->t_begin;
    if (fmuc_shared_budget_admits(budget, spent, cost))
        return NULL;
    double one = cost / (double)c->sessions;
    char limit[96];
    if (x->opts->time_budget_s > 0.0)
        snprintf(limit, sizeof limit, "%.1f s (--time-budget or the config's timeBudget)", budget);
    else
        snprintf(limit, sizeof limit, "%.1f s (%g x the nominal runs + %g s)", budget,
                 FMUC_BUDGET_FACTOR, FMUC_BUDGET_BASE_S);
    snprintf(buf, len, "not run: the time budget of %s does not hold it: %.1f s spent, the "
                       "check estimated at %.1f s (%u instance start(s) per interface, about "
                       "%.2f s each with its worker, from the nominal runs, x %.2f for what the "
                       "checks so far took; %g s of the budget are kept for opening the FMU and "
                       "writing the reports); --time-budget=off runs every check",
             limit, spent, cost, c->sessions, one / scale, scale, FMUC_BUDGET_RESERVE_S);
    return buf;
}

/* Decide whether check c can run and run it (or make it not applicable) into r, timed. */
static void run_one(run_ctx *x, const fmuc_check *c, fmuc_result *r, int *ran)
{
    fmuc_result_init(r, c->id, c->title, c->spec, c->level);
    char buf[1600];
    const char *why = unmet(c, x->fmu, x->open_err, buf, sizeof buf);
    if (!why && x->rep->environment_required && (c->needs & FMUC_NEEDS_SANDBOX) &&
        strncmp(c->id, "load-", 5) != 0)
        why = "needsExecutionTool=\"true\" and the execution tool is not available here "
              "(see api-instantiate)";
    if (!why)
        why = unusable(&x->subj, c, buf, sizeof buf);
    double t0 = now_s();
    int not_run = 0;
    double est = 0.0;
    /* the nominal runs first: they give the later checks their timeout, horizon and budget */
    if (!why && (c->needs & FMUC_NEEDS_SANDBOX) && strncmp(c->id, "load-", 5) != 0) {
        fmuc_shared_calibrate(&x->subj);
        why = over_budget(x, c, now_s(), buf, sizeof buf, &est);
        not_run = why != NULL;
    }
    double t_run = now_s();
    if (why)
        fmuc_result_na(r, "%s", why);
    else
        c->run(&x->subj, r);
    r->not_run = (unsigned char)not_run;
    r->duration_s = now_s() - t0;
    if (!why && est > 0.0) {
        x->est_sum += est;
        x->took_sum += now_s() - t_run;
    }
    *ran = why == NULL;
}

/* After check c ran into r: the fmuLog, the needsExecutionTool policy, the profiles, a gating
 * config's level, the progress hook. */
static fmuc_err finish_one(run_ctx *x, const fmuc_check *c, fmuc_result *r, int ran)
{
    fmuc_level level = c->level;
    const fmuc_run_hooks *hooks = x->hooks;
    /* the check runs at its own (the text's) level; profiles and a gating config's level apply
     * to the verdict it reached */
    int relevel = hooks && hooks->level_override &&
                  hooks->level_override(c->id, &level, hooks->payload);
    collect_log(x->rep, r);
    uint32_t tool_line = 0;
    const char *tool_iface = NULL;
    if (ran && strcmp(c->id, "api-instantiate") == 0 &&
        (r->verdict == FMUC_VERDICT_FAIL || r->verdict == FMUC_VERDICT_ERROR) &&
        (tool_iface = needs_tool(x->fmu, &tool_line)) != NULL) {
        if (failed_on_guid(r))
            fmuc_result_note(r, "needsExecutionTool=\"true\", but the FMU's own message "
                                "about the failure names the GUID: judged as a failure, not "
                                "as a missing tool");
        else if (tool_missing(x->rep, r, tool_iface, tool_line) != FMUC_OK)
            return FMUC_ENOMEM;
    }
    fmuc_check_profiles(c, r, x->opts->profile);
    if (relevel)
        fmuc_result_relevel(r, level, x->opts->profile);
    x->done++;
    if (hooks && hooks->progress)
        hooks->progress(r, x->done, x->total, hooks->payload);
    return FMUC_OK;
}

/* ---- two checks at a time ------------------------------------------------------------------
 * Most of a battery's time goes to workers that simulate the FMU, one after the other, while a
 * second CPU idles (issue 16: the time bounds). Once the nominal runs are made, the runner forks
 * two copies of itself (lanes) that take the next checks in order from a shared counter, each
 * running its check exactly as the runner would, and send each result as one line of JSON; the
 * runner takes the results in check order. What a check sees of the earlier checks is the shared
 * state (fmuc_shared_runs: the unusable interfaces, the hangs, the calls not made again, the
 * scaled timeouts), and a lane starts from the runner's. A result is taken only when every check
 * before it left that state as it was (fmuc_shared_runs_digest before and after), so each check
 * saw what it would have seen in order, and the verdicts are those of the sequential run. The
 * first check that changes it (a crash or hang marking an interface unusable, a hang
 * remembered) is taken with the state its lane sends along (fmuc_shared_runs_export / _import);
 * the later results are void (they ran without that change) and new lanes start after it. Who
 * takes a nominal run's report (the first check in order that asks) is decided between the
 * lanes through the board (fmuc_shared_runs_lane) and checked when the result is taken
 * (fmuc_shared_runs_claims_ok). A result that cannot be taken makes the runner run that check
 * itself. After a halt, what the lanes still run lies after it and is killed (lane_kill); a
 * lane that dies leaves its check to the runner. --check-jobs 1 runs every check in the runner. */

#define LANES 2

/* A check a lane may hold: not api-instantiate (its result decides the needsExecutionTool
 * policy of the report), and only once the nominal runs are made (the calibration changes the
 * shared state). */
static int lane_ok(const run_ctx *x, const fmuc_check *c)
{
    return fmuc_shared_runs_calibrated(x->subj.shared) && !x->rep->environment_required &&
           strcmp(c->id, "api-instantiate") != 0;
}

static int cpus_available(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return 1;
    return CPU_COUNT(&set);
}

static cJSON *result_to_json(const fmuc_result *r, size_t pos, int ran, int changed)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddNumberToObject(o, "pos", (double)pos);
    cJSON_AddNumberToObject(o, "ran", ran);
    cJSON_AddNumberToObject(o, "changed", changed);
    cJSON_AddNumberToObject(o, "verdict", (double)r->verdict);
    cJSON_AddNumberToObject(o, "dropped", (double)r->messages_dropped);
    cJSON_AddNumberToObject(o, "letter", r->letter_fail);
    cJSON_AddNumberToObject(o, "other", r->other_fail);
    cJSON_AddNumberToObject(o, "duration", r->duration_s);
    cJSON_AddNumberToObject(o, "not_run", r->not_run);
    cJSON *m = cJSON_AddArrayToObject(o, "messages");
    for (size_t i = 0; m && i < r->nmessages; i++)
        cJSON_AddItemToArray(m, cJSON_CreateString(r->messages[i]));
    if (r->evidence)
        cJSON_AddItemToObject(o, "evidence", cJSON_Duplicate(r->evidence, 1));
    return o;
}

/* Rebuild check c's result from a lane's line; 0, or -1 when the line is not whole. */
static int result_from_json(const cJSON *o, const fmuc_check *c, fmuc_result *r, int *ran)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "verdict");
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "messages");
    if (!cJSON_IsNumber(v) || v->valueint < FMUC_VERDICT_NA || v->valueint > FMUC_VERDICT_ERROR ||
        !cJSON_IsArray(m) || cJSON_GetArraySize(m) > FMUC_RESULT_MAX_MESSAGES)
        return -1;
    fmuc_result_init(r, c->id, c->title, c->spec, c->level);
    r->verdict = (fmuc_verdict)v->valueint;
    const cJSON *it;
    cJSON_ArrayForEach(it, m)
    {
        if (!cJSON_IsString(it) || !(r->messages[r->nmessages] = strdup(it->valuestring))) {
            fmuc_result_clear(r);
            return -1;
        }
        r->nmessages++;
    }
    r->messages_dropped = (size_t)cJSON_GetNumberValue(cJSON_GetObjectItem(o, "dropped"));
    r->letter_fail = (unsigned char)cJSON_GetNumberValue(cJSON_GetObjectItem(o, "letter"));
    r->other_fail = (unsigned char)cJSON_GetNumberValue(cJSON_GetObjectItem(o, "other"));
    r->duration_s = cJSON_GetNumberValue(cJSON_GetObjectItem(o, "duration"));
    r->not_run = cJSON_GetNumberValue(cJSON_GetObjectItem(o, "not_run")) != 0.0;
    const cJSON *ev = cJSON_GetObjectItemCaseSensitive(o, "evidence");
    if (ev && !(r->evidence = cJSON_Duplicate(ev, 1))) {
        fmuc_result_clear(r);
        return -1;
    }
    *ran = cJSON_GetNumberValue(cJSON_GetObjectItem(o, "ran")) != 0.0;
    return 0;
}

static int stop_asked(const run_ctx *x)
{
    return x->hooks && x->hooks->should_stop && x->hooks->should_stop(x->hooks->payload);
}

/* What the lanes of one batch share (a MAP_SHARED page): the next position to take, and the
 * runner's or a lane's word to stop taking. */
typedef struct lane_board {
    atomic_size_t next;
    atomic_int stop;
    _Atomic long took[2]; /* fmuc_shared_runs_lane: who takes the nominal runs' reports */
} lane_board;

/* A lane: takes positions of idx[0..n) until none is left or it is told to stop; stops after a
 * check that changed the shared state (its line says so, and it tells the other lane: every
 * later result is void). Never returns. */
static void lane_run(run_ctx *x, int lane, const size_t *idx, const char *const *ids, size_t n,
                     lane_board *b, int out)
{
    uint64_t d = fmuc_shared_runs_digest(x->subj.shared);
    fmuc_shared_runs_lane(x->subj.shared, lane, b->took, ids);
    /* the runner gone (killed), the lane ends as if interrupted (the CLI's handler) */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    while (!atomic_load(&b->stop) && !stop_asked(x)) {
        size_t k = atomic_fetch_add(&b->next, 1);
        if (k >= n)
            break;
        const fmuc_check *c = fmuc_checks[idx[k]];
        fmuc_result r;
        int ran = 0, took[2];
        long assumed[2];
        fmuc_shared_runs_lane_begin(x->subj.shared, (long)k);
        run_one(x, c, &r, &ran);
        fmuc_shared_runs_lane_end(x->subj.shared, took, assumed);
        uint64_t now = fmuc_shared_runs_digest(x->subj.shared);
        int changed = now != d || now == 0; /* 0: not known (out of memory) */
        if (changed)
            atomic_store(&b->stop, 1);
        cJSON *o = result_to_json(&r, k, ran, changed);
        if (o && changed)
            cJSON_AddItemToObject(o, "state", fmuc_shared_runs_export(x->subj.shared));
        if (o) {
            cJSON_AddItemToObject(o, "took", cJSON_CreateIntArray(took, 2));
            double a[2] = {(double)assumed[0], (double)assumed[1]};
            cJSON_AddItemToObject(o, "assumed", cJSON_CreateDoubleArray(a, 2));
        }
        char *line = o ? cJSON_PrintUnformatted(o) : NULL;
        cJSON_Delete(o);
        fmuc_result_clear(&r);
        if (!line || fmuc_worker_write_all(out, line, strlen(line)) < 0 ||
            fmuc_worker_write_all(out, "\n", 1) < 0)
            _exit(1);
        free(line);
        if (changed)
            break;
    }
    _exit(0);
}

/* A lane's pipe as the runner reads it: the bytes of a line not yet whole. */
typedef struct lane_in {
    pid_t pid;
    int fd; /* -1 at its end */
    char *buf;
    size_t len, cap;
} lane_in;

/* Read what lane l has sent; every whole line parsed into got[pos]. 0, or -1 at its end. */
static int lane_read(lane_in *l, cJSON **got, size_t n)
{
    if (l->cap - l->len < 65536) {
        size_t cap = l->cap ? l->cap * 2 : 1 << 17;
        char *nb = realloc(l->buf, cap);
        if (!nb)
            return -1;
        l->buf = nb;
        l->cap = cap;
    }
    ssize_t k = read(l->fd, l->buf + l->len, l->cap - l->len - 1);
    if (k < 0 && errno == EINTR)
        return 0;
    if (k <= 0)
        return -1;
    l->len += (size_t)k;
    char *nl, *from = l->buf;
    while ((nl = memchr(from, '\n', (size_t)(l->buf + l->len - from))) != NULL) {
        *nl = '\0';
        cJSON *o = cJSON_Parse(from);
        const cJSON *pos = cJSON_GetObjectItemCaseSensitive(o, "pos");
        size_t p = cJSON_IsNumber(pos) && pos->valuedouble >= 0 ? (size_t)pos->valuedouble : n;
        if (p < n && !got[p])
            got[p] = o;
        else
            cJSON_Delete(o);
        from = nl + 1;
    }
    l->len -= (size_t)(from - l->buf);
    memmove(l->buf, from, l->len);
    return 0;
}

/* Take the results in order while they are there; returns the new count taken. The first
 * that changed the shared state is taken with its state (fmuc_shared_runs_import) and stops
 * the taking (*halt: every later result ran without that change); one that does not parse or
 * whose state cannot be copied stops it before itself (*halt, *solo: the runner runs it). */
static size_t take(run_ctx *x, const size_t *idx, const char *const *ids, size_t n, cJSON **got,
                   size_t taken, int *halt, int *solo, fmuc_err *err)
{
    while (taken < n && got[taken] && !*halt && *err == FMUC_OK) {
        const fmuc_check *c = fmuc_checks[idx[taken]];
        fmuc_result *r = &x->rep->results[x->rep->nresults];
        int ran = 0;
        int changed = cJSON_GetNumberValue(cJSON_GetObjectItem(got[taken], "changed")) != 0.0;
        /* the claims on the nominal runs' reports: as the runner's state has them */
        const cJSON *tk = cJSON_GetObjectItemCaseSensitive(got[taken], "took");
        const cJSON *as = cJSON_GetObjectItemCaseSensitive(got[taken], "assumed");
        int took[2];
        long assumed[2];
        int claims = cJSON_GetArraySize(tk) == 2 && cJSON_GetArraySize(as) == 2;
        for (int i = 0; claims && i < 2; i++) {
            took[i] = (int)cJSON_GetNumberValue(cJSON_GetArrayItem(tk, i));
            double a = cJSON_GetNumberValue(cJSON_GetArrayItem(as, i));
            assumed[i] = a >= -3.0 && a < (double)n ? (long)a : -4;
            claims = assumed[i] != -4;
        }
        if (!claims || !fmuc_shared_runs_claims_ok(x->subj.shared, took, assumed, ids) ||
            result_from_json(got[taken], c, r, &ran) != 0) {
            *halt = *solo = 1;
            break;
        }
        if (changed && fmuc_shared_runs_import(x->subj.shared,
                                               cJSON_GetObjectItem(got[taken], "state")) != 0) {
            fmuc_result_clear(r);
            *halt = *solo = 1;
            break;
        }
        fmuc_shared_runs_claims_apply(x->subj.shared, took, c->id);
        x->rep->nresults++;
        *err = finish_one(x, c, r, ran);
        taken++;
        if (changed)
            *halt = 1;
    }
    return taken;
}

/* Kills (with its process group) every child of the stopped lane pid not in seen[0..*n) and
 * adds it there; returns how many were new. The lane is stopped: it reaps nothing, so no listed
 * pid is reused. */
static size_t lane_kill_children(pid_t pid, pid_t *seen, size_t *n, size_t cap)
{
    pid_t kids[4096]; /* more than a worker's RLIMIT_NPROC (FMUC_WORKER_NPROC_LIMIT) */
    long nk = fmuc_proc_children(pid, kids, sizeof kids / sizeof kids[0], NULL);
    size_t fresh = 0;
    for (long i = 0; i < nk; i++) {
        size_t j = 0;
        while (j < *n && seen[j] != kids[i])
            j++;
        if (j < *n || kids[i] <= 1)
            continue;
        kill(-kids[i], SIGKILL); /* a worker leads its own process group */
        kill(kids[i], SIGKILL);
        if (*n < cap)
            seen[(*n)++] = kids[i];
        fresh++;
    }
    return fresh;
}

/* Ends at once a lane whose check in progress can no longer be taken (its position is after a
 * halt): the lane is stopped so it starts and reaps nothing more, its children (workers, each
 * leading its own process group, and what escaped from them to the lane, a subreaper) are
 * killed until no new one appears, then the lane. Saves waiting for a check whose result
 * would be dropped, up to a hanging worker's timeout. */
static void lane_kill(pid_t pid)
{
    siginfo_t si;
    kill(pid, SIGSTOP);
    while (waitid(P_PID, pid, &si, WSTOPPED | WEXITED | WNOWAIT) < 0 && errno == EINTR)
        ;
    pid_t seen[4096];
    size_t n = 0;
    /* until a round finds nothing new and every child killed has ended (its orphans move to
     * the lane as it dies) */
    for (int round = 0; round < 100; round++) {
        int settled = lane_kill_children(pid, seen, &n, sizeof seen / sizeof seen[0]) == 0;
        for (size_t j = 0; settled && j < n; j++)
            settled = fmuc_proc_ended(seen[j]);
        if (settled)
            break;
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    kill(pid, SIGKILL);
}

/* Run the checks idx[0..n) in LANES lanes; returns how many results were taken in order;
 * *solo: the runner runs the next one itself (its result is missing or could not be taken). */
static size_t run_batch(run_ctx *x, const size_t *idx, size_t n, int *solo, fmuc_err *err)
{
    lane_board *b = mmap(NULL, sizeof *b, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                         -1, 0);
    cJSON **got = calloc(n, sizeof *got);
    const char **ids = calloc(n, sizeof *ids);
    lane_in lanes[LANES];
    size_t nl = 0, taken = 0;
    memset(lanes, 0, sizeof lanes);
    if (b == MAP_FAILED || !got || !ids) {
        free(got);
        free(ids);
        if (b != MAP_FAILED)
            munmap(b, sizeof *b);
        *solo = 1; /* no lanes: the runner runs the next check itself */
        return 0;
    }
    atomic_init(&b->next, 0);
    atomic_init(&b->stop, 0);
    atomic_init(&b->took[0], LONG_MAX);
    atomic_init(&b->took[1], LONG_MAX);
    for (size_t i = 0; i < n; i++)
        ids[i] = fmuc_checks[idx[i]]->id;
    fflush(NULL); /* a lane's workers must not write what the caller buffered again */
    for (size_t i = 0; i < LANES; i++) {
        int pf[2];
        if (pipe2(pf, O_CLOEXEC) != 0)
            break;
        fcntl(pf[1], F_SETPIPE_SZ, 1 << 20); /* best effort: a lane seldom waits to write */
        pid_t p = fork();
        if (p < 0) {
            close(pf[0]);
            close(pf[1]);
            break;
        }
        if (p == 0) {
            close(pf[0]);
            for (size_t k = 0; k < nl; k++)
                close(lanes[k].fd);
            lane_run(x, (int)i + 1, idx, ids, n, b, pf[1]);
        }
        close(pf[1]);
        lanes[nl].pid = p;
        lanes[nl++].fd = pf[0];
    }
    int halt = nl == 0, killed = halt;
    size_t open = nl;
    *solo = 0;
    while (open) {
        struct pollfd pf[LANES];
        for (size_t i = 0; i < nl; i++)
            pf[i] = (struct pollfd){.fd = lanes[i].fd, .events = POLLIN};
        if (poll(pf, nl, -1) < 0) {
            if (errno == EINTR) {
                if (stop_asked(x))
                    atomic_store(&b->stop, 1);
                continue;
            }
            atomic_store(&b->stop, 1);
            break;
        }
        for (size_t i = 0; i < nl; i++)
            if (lanes[i].fd >= 0 && (pf[i].revents & (POLLIN | POLLHUP | POLLERR)) &&
                lane_read(&lanes[i], got, n) < 0) {
                close(lanes[i].fd);
                lanes[i].fd = -1;
                open--;
                /* a lane that ended with checks left died: the other need not go on */
                if (atomic_load(&b->next) < n)
                    atomic_store(&b->stop, 1);
            }
        taken = take(x, idx, ids, n, got, taken, &halt, solo, err);
        if (halt || *err != FMUC_OK || stop_asked(x))
            atomic_store(&b->stop, 1); /* the lanes end their checks and stop */
        /* every result before the halt is taken: what the lanes still run would be dropped */
        if ((halt || *err != FMUC_OK) && !killed) {
            killed = 1;
            for (size_t i = 0; i < nl; i++)
                if (lanes[i].fd >= 0)
                    lane_kill(lanes[i].pid);
        }
    }
    for (size_t i = 0; i < nl; i++) {
        if (lanes[i].fd >= 0)
            close(lanes[i].fd);
        int st;
        while (waitpid(lanes[i].pid, &st, 0) < 0 && errno == EINTR)
            ;
        free(lanes[i].buf);
    }
    for (size_t i = 0; i < n; i++)
        cJSON_Delete(got[i]);
    free(got);
    free(ids);
    munmap(b, sizeof *b);
    if (taken < n && !halt)
        *solo = 1; /* a lane died in that check: the runner runs it */
    if (!nl)
        *solo = 1;
    return taken;
}

/* Under a time budget, the checks that can only warn under the selected profile (level should
 * there, or a gating config's "levels" entry says should) and cost instance starts
 * (fmuc_check.sessions) go after the others: what the budget leaves out should be what cannot
 * fail. Stable; strict (every warning fails) keeps the order. */
static void defer_under_budget(size_t *order, size_t n, fmuc_profile profile,
                               const fmuc_run_hooks *hooks)
{
    if (profile == FMUC_PROFILE_STRICT || n < 2)
        return;
    size_t *late = malloc(n * sizeof *late);
    if (!late)
        return;
    size_t k = 0, nl = 0;
    for (size_t i = 0; i < n; i++) {
        const fmuc_check *c = fmuc_checks[order[i]];
        int can_fail = strcmp(fmuc_check_profile_level(c, profile), "should") != 0;
        fmuc_level level = c->level;
        /* a gating config's level for the check wins (finish_one applies it to the verdict) */
        if (hooks && hooks->level_override &&
            hooks->level_override(c->id, &level, hooks->payload))
            can_fail = level == FMUC_LEVEL_MUST;
        if (c->sessions > 0 && !can_fail)
            late[nl++] = order[i];
        else
            order[k++] = order[i];
    }
    memcpy(order + k, late, nl * sizeof *late);
    free(late);
}

static size_t registry_pos(const char *id)
{
    size_t i = 0;
    while (fmuc_checks[i] && strcmp(fmuc_checks[i]->id, id) != 0)
        i++;
    return i;
}

/* r[0..n) sorted by their checks' positions in the registry (insertion sort: n is the battery) */
static void registry_order(fmuc_result *r, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        fmuc_result t = r[i];
        size_t pt = registry_pos(t.id), j = i;
        while (j > 0 && registry_pos(r[j - 1].id) > pt) {
            r[j] = r[j - 1];
            j--;
        }
        r[j] = t;
    }
}

fmuc_err fmuc_run_checks(fmuc_report *rep, const fmuc_fmu *fmu, fmuc_err open_err,
                         const fmuc_options *opts, const fmuc_run_filter *filter,
                         const fmuc_run_hooks *hooks)
{
    size_t total = 0, nchecks = 0;
    for (size_t i = 0; fmuc_checks[i]; i++, nchecks++)
        total += fmuc_run_selected(filter, fmuc_checks[i]) ? 1 : 0;
    fmuc_result *arr = realloc(rep->results, (rep->nresults + total) * sizeof *arr + 1);
    size_t *idx = malloc((nchecks + 1) * sizeof *idx);
    size_t *pos = malloc((nchecks + 1) * sizeof *pos);
    size_t *order = malloc((nchecks + 1) * sizeof *order);
    if (!arr || !idx || !pos || !order) {
        free(idx);
        free(pos);
        free(order);
        if (arr)
            rep->results = arr;
        return FMUC_ENOMEM;
    }
    rep->results = arr;
    size_t first = rep->nresults;
    for (size_t k = 0; k < nchecks; k++)
        order[k] = k;
    run_ctx x = {.rep = rep, .fmu = fmu, .open_err = open_err, .opts = opts, .filter = filter,
                 .hooks = hooks, .total = total, .t_begin = now_s()};
    /* without memory for it, every check makes its own runs */
    x.subj = (fmuc_subject){.fmu = fmu, .opts = opts, .shared = fmuc_shared_runs_new()};
    /* the checks see the options with the timeout scaled by the nominal runs */
    x.subj.opts = fmuc_shared_runs_bind(x.subj.shared, opts);
    int lanes = x.subj.shared && (opts->check_jobs >= 2 ||
                                  (opts->check_jobs == 0 && cpus_available() >= 2));
    fmuc_err err = FMUC_OK;
    int solo = 0; /* the next check runs here (a lane saw it change the shared state) */
    int deferred = 0;
    /* p: the position in order[] of the next check */
    for (size_t p = 0; p < nchecks && err == FMUC_OK && !stop_asked(&x);) {
        if (!deferred && fmuc_shared_budget(&x.subj) > 0.0) {
            defer_under_budget(order + p, nchecks - p, opts->profile, hooks);
            deferred = 1;
        }
        const fmuc_check *c = fmuc_checks[order[p]];
        if (!fmuc_run_selected(filter, c)) {
            p++;
            continue;
        }
        if (lanes && !solo && lane_ok(&x, c)) {
            /* the selected checks from here to the first a lane may not hold */
            size_t n = 0;
            for (size_t k = p; k < nchecks && lane_ok(&x, fmuc_checks[order[k]]); k++)
                if (fmuc_run_selected(filter, fmuc_checks[order[k]])) {
                    pos[n] = k;
                    idx[n++] = order[k];
                }
            if (n >= 2) {
                size_t t = run_batch(&x, idx, n, &solo, &err);
                p = t == n ? pos[n - 1] + 1 : pos[t];
                continue;
            }
        }
        solo = 0;
        fmuc_result *r = &rep->results[rep->nresults++];
        int ran = 0;
        run_one(&x, c, r, &ran);
        err = finish_one(&x, c, r, ran);
        p++;
    }
    /* the results in the registry's order, whatever order they ran in; not after a stop (the
     * CLI keeps the results in the order they were made, up to the one the signal cut short) */
    if (deferred && !stop_asked(&x))
        registry_order(rep->results + first, rep->nresults - first);
    free(pos);
    free(order);
    free(idx);
    rep->time_budget_s = fmuc_shared_budget(&x.subj);
    rep->not_run = 0;
    for (size_t i = 0; i < rep->nresults; i++)
        rep->not_run += rep->results[i].not_run;
    fmuc_shared_runs_free(x.subj.shared);
    if (err != FMUC_OK)
        return err;
    fmuc_report_tally(rep);
    return FMUC_OK;
}
