/* The runner: decides applicability and needs for each check, runs it, times it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runner.h"

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

fmuc_err fmuc_run_checks(fmuc_report *rep, const fmuc_fmu *fmu, fmuc_err open_err,
                         const fmuc_options *opts, const fmuc_run_filter *filter,
                         const fmuc_run_hooks *hooks)
{
    size_t total = 0;
    for (size_t i = 0; fmuc_checks[i]; i++)
        total += fmuc_run_selected(filter, fmuc_checks[i]) ? 1 : 0;
    fmuc_result *arr = realloc(rep->results, (rep->nresults + total) * sizeof *arr + 1);
    if (!arr)
        return FMUC_ENOMEM;
    rep->results = arr;
    /* without memory for it, every check makes its own runs */
    fmuc_subject subj = {.fmu = fmu, .opts = opts, .shared = fmuc_shared_runs_new()};
    /* the checks see the options with the timeout scaled by the nominal runs */
    subj.opts = fmuc_shared_runs_bind(subj.shared, opts);
    size_t done = 0;
    for (size_t i = 0; fmuc_checks[i]; i++) {
        const fmuc_check *c = fmuc_checks[i];
        if (!fmuc_run_selected(filter, c))
            continue;
        /* the check runs at its own (the text's) level; profiles and a gating config's level
         * apply to the verdict it reached */
        fmuc_level level = c->level;
        int relevel = hooks && hooks->level_override &&
                      hooks->level_override(c->id, &level, hooks->payload);
        fmuc_result *r = &rep->results[rep->nresults++];
        fmuc_result_init(r, c->id, c->title, c->spec, c->level);
        char buf[1600];
        const char *why = unmet(c, fmu, open_err, buf, sizeof buf);
        if (!why && rep->environment_required && (c->needs & FMUC_NEEDS_SANDBOX) &&
            strncmp(c->id, "load-", 5) != 0)
            why = "needsExecutionTool=\"true\" and the execution tool is not available here "
                  "(see api-instantiate)";
        if (!why)
            why = unusable(&subj, c, buf, sizeof buf);
        double t0 = now_s();
        /* the nominal runs first: they give the later checks their timeout and horizon */
        if (!why && (c->needs & FMUC_NEEDS_SANDBOX) && strncmp(c->id, "load-", 5) != 0)
            fmuc_shared_calibrate(&subj);
        if (why)
            fmuc_result_na(r, "%s", why);
        else
            c->run(&subj, r);
        collect_log(rep, r);
        uint32_t tool_line = 0;
        const char *tool_iface = NULL;
        if (!why && strcmp(c->id, "api-instantiate") == 0 &&
            (r->verdict == FMUC_VERDICT_FAIL || r->verdict == FMUC_VERDICT_ERROR) &&
            (tool_iface = needs_tool(fmu, &tool_line)) != NULL) {
            if (failed_on_guid(r))
                fmuc_result_note(r, "needsExecutionTool=\"true\", but the FMU's own message "
                                    "about the failure names the GUID: judged as a failure, not "
                                    "as a missing tool");
            else if (tool_missing(rep, r, tool_iface, tool_line) != FMUC_OK) {
                fmuc_shared_runs_free(subj.shared);
                return FMUC_ENOMEM;
            }
        }
        fmuc_check_profiles(c, r, opts->profile);
        if (relevel)
            fmuc_result_relevel(r, level, opts->profile);
        r->duration_s = now_s() - t0;
        done++;
        if (hooks && hooks->progress)
            hooks->progress(r, done, total, hooks->payload);
    }
    fmuc_shared_runs_free(subj.shared);
    fmuc_report_tally(rep);
    return FMUC_OK;
}
