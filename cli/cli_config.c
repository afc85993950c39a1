/* The gating config (--config FILE, JSON; schema in README.md "CI, gating and batches"):
 * profile, advisory checks, per-check levels, waivers, tolerances, timeouts, a pinned sha256. */
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define KEY_MAX 256

static int bad(const fmuc_cli_config *c, const char *key, const char *fmt, const char *v)
{
    fprintf(stderr, "fmucheck: config %s: key '%s': ", c->path, key);
    fprintf(stderr, fmt, v ? v : "");
    fputc('\n', stderr);
    return -1;
}

static int is_glob(const char *p)
{
    return strpbrk(p, "*?[") != NULL;
}

static const fmuc_check *find_check(const char *id)
{
    for (size_t i = 0; fmuc_checks[i]; i++)
        if (strcmp(fmuc_checks[i]->id, id) == 0)
            return fmuc_checks[i];
    return NULL;
}

/* A check id or glob: an exact id must name a known check (catches typos). */
static int check_pattern(const fmuc_cli_config *c, const char *key, const char *p)
{
    if (!*p)
        return bad(c, key, "empty check id%s", "");
    if (!is_glob(p) && !find_check(p))
        return bad(c, key, "no check has the id '%s' (see fmucheck --list-checks)", p);
    return 0;
}

static int get_number(const fmuc_cli_config *c, const cJSON *o, const char *name, const char *key,
                      double lo, int *has, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!v)
        return 0;
    char k[KEY_MAX];
    snprintf(k, sizeof k, "%s.%s", key, name);
    int ok = cJSON_IsNumber(v) && v->valuedouble == v->valuedouble &&
             (lo > 0 ? v->valuedouble > 0 : v->valuedouble >= 0);
    if (!ok)
        return bad(c, k, lo > 0 ? "must be a number > 0%s" : "must be a number >= 0%s", "");
    *has = 1;
    *out = v->valuedouble;
    return 0;
}

static int only_keys(const fmuc_cli_config *c, const cJSON *o, const char *key,
                     const char *const *allowed)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, o)
    {
        int ok = 0;
        for (size_t i = 0; allowed[i] && !ok; i++)
            ok = strcmp(it->string, allowed[i]) == 0;
        if (!ok) {
            char k[KEY_MAX];
            snprintf(k, sizeof k, "%s%s%s", key, *key ? "." : "", it->string);
            return bad(c, k, "unknown key%s", "");
        }
    }
    return 0;
}

static int is_hex64(const char *s)
{
    if (strlen(s) != 64)
        return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
            return 0;
    return 1;
}

static int is_date(const char *s)
{
    if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
        return 0;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && !(s[i] >= '0' && s[i] <= '9'))
            return 0;
    int m = (s[5] - '0') * 10 + (s[6] - '0'), d = (s[8] - '0') * 10 + (s[9] - '0');
    return m >= 1 && m <= 12 && d >= 1 && d <= 31;
}

static int parse_waiver(fmuc_cli_config *c, const cJSON *w, size_t idx, const char *today,
                        fmuc_cli_waiver *out)
{
    char key[64], k[KEY_MAX];
    snprintf(key, sizeof key, "waivers[%zu]", idx);
    if (!cJSON_IsObject(w))
        return bad(c, key, "must be an object%s", "");
    static const char *const allowed[] = {"check", "fmu", "sha256", "reason", "expires",
                                          "comment", NULL};
    if (only_keys(c, w, key, allowed) < 0)
        return -1;
    static const char *const names[] = {"check", "fmu", "sha256", "reason", "expires"};
    const char *vals[5] = {0};
    for (int i = 0; i < 5; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(w, names[i]);
        snprintf(k, sizeof k, "%s.%s", key, names[i]);
        if (v && !cJSON_IsString(v))
            return bad(c, k, "must be a string%s", "");
        vals[i] = v ? v->valuestring : NULL;
    }
    snprintf(k, sizeof k, "%s.check", key);
    if (!vals[0])
        return bad(c, k, "missing (the check id or glob the waiver is for)%s", "");
    if (check_pattern(c, k, vals[0]) < 0)
        return -1;
    snprintf(k, sizeof k, "%s.sha256", key);
    if (vals[2] && !is_hex64(vals[2]))
        return bad(c, k, "'%s' is not 64 lowercase hex digits", vals[2]);
    snprintf(k, sizeof k, "%s.reason", key);
    if (!vals[3] || !*vals[3])
        return bad(c, k, "missing: every waiver says why%s", "");
    snprintf(k, sizeof k, "%s.expires", key);
    if (!vals[4])
        return bad(c, k, "missing: every waiver has an end date (YYYY-MM-DD)%s", "");
    if (!is_date(vals[4]))
        return bad(c, k, "'%s' is not a date YYYY-MM-DD", vals[4]);
    out->check = vals[0];
    out->fmu = vals[1];
    out->sha256 = vals[2];
    out->reason = vals[3];
    out->expires = vals[4];
    out->expired = strcmp(vals[4], today) < 0;
    return 0;
}

static int is_env_name(const char *s)
{
    if (!s || !(*s == '_' || (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')))
        return 0;
    for (; *s; s++)
        if (!(*s == '_' || (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
              (*s >= '0' && *s <= '9')))
            return 0;
    return 1;
}

static int parse_root(fmuc_cli_config *c, const cJSON *root)
{
    if (!cJSON_IsObject(root))
        return bad(c, "(top level)", "the config must be a JSON object%s", "");
    static const char *const allowed[] = {"profile", "advisory", "levels",   "waivers", "tolerances",
                                          "timeouts", "sha256",  "passEnv", "stopTime",
                                          "timeBudget", "comment", NULL};
    if (only_keys(c, root, "", allowed) < 0)
        return -1;

    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "profile");
    if (v) {
        /* "lenient" (the name before profiles had levels of their own) meant "not strict",
         * i.e. the default: it is read as the default, interop */
        if (!cJSON_IsString(v) || (fmuc_profile_parse(v->valuestring, &c->profile) < 0 &&
                                   strcmp(v->valuestring, "lenient")))
            return bad(c, "profile", "%s is not \"interop\", \"standard\" or \"strict\"",
                       cJSON_IsString(v) ? v->valuestring : "the value");
        if (strcmp(v->valuestring, "lenient") == 0)
            c->profile = FMUC_PROFILE_INTEROP;
        c->has_profile = 1;
    }

    v = cJSON_GetObjectItemCaseSensitive(root, "advisory");
    if (v) {
        if (!cJSON_IsArray(v))
            return bad(c, "advisory", "must be an array of check ids or globs%s", "");
        c->advisory = calloc((size_t)cJSON_GetArraySize(v) + 1, sizeof *c->advisory);
        if (!c->advisory)
            return bad(c, "advisory", "out of memory%s", "");
        const cJSON *it;
        cJSON_ArrayForEach(it, v)
        {
            char k[KEY_MAX];
            snprintf(k, sizeof k, "advisory[%zu]", c->nadvisory);
            if (!cJSON_IsString(it))
                return bad(c, k, "must be a string%s", "");
            if (check_pattern(c, k, it->valuestring) < 0)
                return -1;
            c->advisory[c->nadvisory++] = it->valuestring;
        }
    }

    v = cJSON_GetObjectItemCaseSensitive(root, "levels");
    if (v) {
        if (!cJSON_IsObject(v))
            return bad(c, "levels", "must be an object {\"check-id or glob\": \"must\"|\"should\"}%s",
                       "");
        c->levels = calloc((size_t)cJSON_GetArraySize(v) + 1, sizeof *c->levels);
        if (!c->levels)
            return bad(c, "levels", "out of memory%s", "");
        const cJSON *it;
        cJSON_ArrayForEach(it, v)
        {
            char k[KEY_MAX];
            snprintf(k, sizeof k, "levels.%s", it->string);
            if (check_pattern(c, k, it->string) < 0)
                return -1;
            if (!cJSON_IsString(it) ||
                (strcmp(it->valuestring, "must") && strcmp(it->valuestring, "should")))
                return bad(c, k, "%s is not \"must\" or \"should\"",
                           cJSON_IsString(it) ? it->valuestring : "the value");
            c->levels[c->nlevels].pattern = it->string;
            c->levels[c->nlevels].level =
                strcmp(it->valuestring, "must") == 0 ? FMUC_LEVEL_MUST : FMUC_LEVEL_SHOULD;
            c->nlevels++;
        }
    }

    v = cJSON_GetObjectItemCaseSensitive(root, "waivers");
    if (v) {
        if (!cJSON_IsArray(v))
            return bad(c, "waivers", "must be an array of waiver objects%s", "");
        c->waivers = calloc((size_t)cJSON_GetArraySize(v) + 1, sizeof *c->waivers);
        if (!c->waivers)
            return bad(c, "waivers", "out of memory%s", "");
        char today[11];
        fmuc_cli_today(today);
        const cJSON *it;
        cJSON_ArrayForEach(it, v)
        {
            if (parse_waiver(c, it, c->nwaivers, today, &c->waivers[c->nwaivers]) < 0)
                return -1;
            c->nwaivers++;
        }
    }

    v = cJSON_GetObjectItemCaseSensitive(root, "tolerances");
    if (v) {
        static const char *const tk[] = {"rtol", "atol", NULL};
        if (!cJSON_IsObject(v))
            return bad(c, "tolerances", "must be an object {\"rtol\": x, \"atol\": y}%s", "");
        if (only_keys(c, v, "tolerances", tk) < 0 ||
            get_number(c, v, "rtol", "tolerances", 0, &c->has_rtol, &c->rtol) < 0 ||
            get_number(c, v, "atol", "tolerances", 0, &c->has_atol, &c->atol) < 0)
            return -1;
    }
    v = cJSON_GetObjectItemCaseSensitive(root, "timeouts");
    if (v) {
        static const char *const tk[] = {"default", "multiplier", NULL};
        if (!cJSON_IsObject(v))
            return bad(c, "timeouts", "must be an object {\"default\": s, \"multiplier\": x}%s", "");
        if (only_keys(c, v, "timeouts", tk) < 0 ||
            get_number(c, v, "default", "timeouts", 0.001, &c->has_timeout, &c->timeout_s) < 0 ||
            get_number(c, v, "multiplier", "timeouts", 0.001, &c->has_tmult, &c->tmult) < 0)
            return -1;
    }

    v = cJSON_GetObjectItemCaseSensitive(root, "stopTime");
    if (v) {
        if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
            return bad(c, "stopTime", "must be a finite number (as --stop-time)%s", "");
        c->has_stop_time = 1;
        c->stop_time = v->valuedouble;
    }

    v = cJSON_GetObjectItemCaseSensitive(root, "timeBudget");
    if (v) {
        if (cJSON_IsNumber(v) && isfinite(v->valuedouble) && v->valuedouble > 0.0)
            c->time_budget_s = v->valuedouble;
        else if (!cJSON_IsString(v) ||
                 fmuc_cli_parse_time_budget(v->valuestring, &c->time_budget_s) < 0)
            return bad(c, "timeBudget", "must be \"auto\", \"off\" or a number of seconds > 0 "
                                        "(as --time-budget)%s", "");
        c->has_time_budget = 1;
    }

    v = cJSON_GetObjectItemCaseSensitive(root, "passEnv");
    if (v) {
        if (!cJSON_IsArray(v))
            return bad(c, "passEnv", "must be an array of environment variable names%s", "");
        const cJSON *it;
        cJSON_ArrayForEach(it, v)
        {
            char k[KEY_MAX];
            snprintf(k, sizeof k, "passEnv[%zu]", c->npass_env);
            if (!cJSON_IsString(it) || !is_env_name(it->valuestring))
                return bad(c, k, "'%s' is not an environment variable name ([A-Za-z_][A-Za-z0-9_]*)",
                           cJSON_IsString(it) ? it->valuestring : "the value");
            if (c->npass_env >= FMUC_SANDBOX_MAX_ALLOW)
                return bad(c, k, "at most 16 variables%s", "");
            c->pass_env[c->npass_env++] = it->valuestring;
        }
    }

    v = cJSON_GetObjectItemCaseSensitive(root, "sha256");
    if (v) {
        size_t n = cJSON_IsArray(v) ? (size_t)cJSON_GetArraySize(v) : 1;
        c->pins = calloc(n + 1, sizeof *c->pins);
        if (!c->pins)
            return bad(c, "sha256", "out of memory%s", "");
        if (cJSON_IsString(v)) {
            if (!is_hex64(v->valuestring))
                return bad(c, "sha256", "'%s' is not 64 lowercase hex digits", v->valuestring);
            c->pins[c->npins++] = v->valuestring;
        } else if (cJSON_IsArray(v)) {
            const cJSON *it;
            cJSON_ArrayForEach(it, v)
            {
                char k[KEY_MAX];
                snprintf(k, sizeof k, "sha256[%zu]", c->npins);
                if (!cJSON_IsString(it) || !is_hex64(it->valuestring))
                    return bad(c, k, "'%s' is not 64 lowercase hex digits",
                               cJSON_IsString(it) ? it->valuestring : "the value");
                c->pins[c->npins++] = it->valuestring;
            }
            if (c->npins == 0)
                return bad(c, "sha256", "an empty list would refuse every FMU%s", "");
        } else {
            return bad(c, "sha256", "must be a hex string or an array of them%s", "");
        }
    }
    return 0;
}

void fmuc_cli_config_free(fmuc_cli_config *c)
{
    free(c->advisory);
    free(c->levels);
    free(c->waivers);
    free(c->pins);
    cJSON_Delete(c->root);
    const char *path = c->path;
    memset(c, 0, sizeof *c);
    c->path = path;
}

int fmuc_cli_config_load(fmuc_cli *cli)
{
    fmuc_cli_config *c = &cli->config;
    memset(c, 0, sizeof *c);
    if (!cli->config_path)
        return -1;
    c->path = cli->config_path;
    size_t len = 0;
    char *text = fmuc_cli_read_file(c->path, &len);
    if (!text) {
        fprintf(stderr, "fmucheck: config %s: cannot read the file\n", c->path);
        return FMUC_EXIT_USAGE;
    }
    const char *end = NULL;
    c->root = strlen(text) == len ? cJSON_ParseWithOpts(text, &end, 1) : NULL;
    if (!c->root) {
        size_t line = 1;
        for (const char *p = text; end && p < end && *p; p++)
            line += *p == '\n';
        fprintf(stderr, "fmucheck: config %s: not valid JSON (near line %zu)\n", c->path, line);
        free(text);
        return FMUC_EXIT_USAGE;
    }
    free(text);
    if (parse_root(c, c->root) < 0) {
        fmuc_cli_config_free(c);
        return FMUC_EXIT_USAGE;
    }
    /* the command line wins over the config */
    if (c->has_rtol && !cli->set_rtol)
        cli->opts.rtol = c->rtol;
    if (c->has_atol && !cli->set_atol)
        cli->opts.atol = c->atol;
    if (c->has_timeout && !cli->set_timeout) {
        cli->opts.timeout_s = c->timeout_s;
        cli->opts.timeout_explicit = 1;
    }
    if (c->has_stop_time && !cli->opts.has_stop_time) {
        cli->opts.has_stop_time = 1;
        cli->opts.stop_time = c->stop_time;
    }
    if (c->has_profile && !cli->set_profile)
        cli->opts.profile = c->profile;
    if (c->has_time_budget && !cli->set_time_budget)
        cli->opts.time_budget_s = c->time_budget_s;
    /* passEnv: added to the --pass-env names (a name given twice counts once) */
    for (size_t i = 0; i < c->npass_env; i++) {
        fmuc_sandbox_config *sb = &cli->opts.sandbox;
        int dup = 0;
        for (size_t j = 0; j < sb->npass_env; j++)
            dup |= strcmp(sb->pass_env[j], c->pass_env[i]) == 0;
        if (dup)
            continue;
        if (sb->npass_env >= FMUC_SANDBOX_MAX_ALLOW) {
            fprintf(stderr, "fmucheck: config %s: key 'passEnv': with --pass-env, more than %d "
                            "variables\n", c->path, FMUC_SANDBOX_MAX_ALLOW);
            fmuc_cli_config_free(c);
            return FMUC_EXIT_USAGE;
        }
        sb->pass_env[sb->npass_env++] = c->pass_env[i];
    }
    if (c->has_tmult && !cli->set_tmult) {
        cli->opts.timeout_multiplier = c->tmult;
        cli->tmult_source = "config";
    }
    return -1;
}

static int any_match(const char *const *pats, size_t n, const char *id)
{
    for (size_t i = 0; i < n; i++)
        if (fmuc_check_id_matches(pats[i], id))
            return 1;
    return 0;
}

/* levels: an exact id wins over globs; among globs the first in the file. */
static int rule_level(const fmuc_cli_config *c, const char *id, fmuc_level *out)
{
    for (size_t i = 0; i < c->nlevels; i++)
        if (strcmp(c->levels[i].pattern, id) == 0) {
            *out = c->levels[i].level;
            return 1;
        }
    for (size_t i = 0; i < c->nlevels; i++)
        if (is_glob(c->levels[i].pattern) && fmuc_check_id_matches(c->levels[i].pattern, id)) {
            *out = c->levels[i].level;
            return 1;
        }
    return 0;
}

int fmuc_cli_config_level(const char *check_id, fmuc_level *level, void *payload)
{
    const fmuc_cli_config *c = payload;
    if (!c || !c->path)
        return 0;
    fmuc_level l = *level;
    if (any_match(c->advisory, c->nadvisory, check_id))
        l = FMUC_LEVEL_SHOULD;
    rule_level(c, check_id, &l);
    int changed = l != *level;
    *level = l;
    return changed;
}

int fmuc_cli_config_pin_ok(const fmuc_cli_config *c, const char *sha256)
{
    if (!c->npins)
        return 1;
    for (size_t i = 0; i < c->npins; i++)
        if (sha256 && strcmp(c->pins[i], sha256) == 0)
            return 1;
    return 0;
}

static int waiver_matches_fmu(const fmuc_cli_waiver *w, const fmuc_report *rep)
{
    if (w->fmu && !(rep->fmu.file_name && (strcmp(w->fmu, rep->fmu.file_name) == 0 ||
                                           fnmatch(w->fmu, rep->fmu.file_name, 0) == 0)))
        return 0;
    if (w->sha256 && !(rep->fmu.sha256 && strcmp(w->sha256, rep->fmu.sha256) == 0))
        return 0;
    return 1;
}

fmuc_err fmuc_cli_config_apply(const fmuc_cli_config *c, fmuc_report *rep)
{
    if (!c->path)
        return FMUC_OK;
    for (size_t i = 0; i < rep->nresults; i++) {
        fmuc_result *r = &rep->results[i];
        int waivable = r->verdict == FMUC_VERDICT_FAIL || r->verdict == FMUC_VERDICT_WARN;
        for (int p = 0; r->has_profiles && p < FMUC_PROFILE_COUNT; p++)
            waivable |= r->verdicts[p] == FMUC_VERDICT_FAIL || r->verdicts[p] == FMUC_VERDICT_WARN;
        if (!waivable)
            continue;
        for (size_t k = 0; k < c->nwaivers; k++) {
            const fmuc_cli_waiver *w = &c->waivers[k];
            if (!fmuc_check_id_matches(w->check, r->id) || !waiver_matches_fmu(w, rep))
                continue;
            if (w->expired) {
                fmuc_result_note(r, "waiver expired on %s: %s (config %s)", w->expires, w->reason,
                                 c->path);
                continue;
            }
            const char *was = fmuc_verdict_name(r->verdict);
            fmuc_result_note(r, "waived until %s (was %s): %s", w->expires, was, w->reason);
            free(r->waiver);
            if (asprintf(&r->waiver, "%s (until %s, config %s)", w->reason, w->expires,
                         c->path) < 0) {
                r->waiver = NULL;
                return FMUC_ENOMEM;
            }
            r->verdict = FMUC_VERDICT_PASS;
            for (int p = 0; r->has_profiles && p < FMUC_PROFILE_COUNT; p++)
                if (r->verdicts[p] == FMUC_VERDICT_FAIL || r->verdicts[p] == FMUC_VERDICT_WARN)
                    r->verdicts[p] = FMUC_VERDICT_PASS;
            break;
        }
    }
    /* every expired waiver that concerns this FMU is a failure of its own */
    size_t nexpired = 0;
    for (size_t k = 0; k < c->nwaivers; k++)
        nexpired += c->waivers[k].expired && waiver_matches_fmu(&c->waivers[k], rep);
    if (nexpired) {
        fmuc_result *arr = realloc(rep->results, (rep->nresults + 1) * sizeof *arr);
        if (!arr)
            return FMUC_ENOMEM;
        rep->results = arr;
        fmuc_result *r = &rep->results[rep->nresults++];
        fmuc_result_init(r, "config-gating", "Waivers in the gating config are current",
                         "fmucheck gating config (README: CI, gating and batches)",
                         FMUC_LEVEL_MUST);
        for (size_t k = 0; k < c->nwaivers; k++) {
            const fmuc_cli_waiver *w = &c->waivers[k];
            if (w->expired && waiver_matches_fmu(w, rep))
                fmuc_result_fail(r, "waiver expired on %s: check '%s'%s%s: %s (config %s)",
                                 w->expires, w->check, w->fmu ? ", fmu " : "",
                                 w->fmu ? w->fmu : "", w->reason, c->path);
        }
    }
    fmuc_report_tally(rep);
    return FMUC_OK;
}
