/* Work shared between checks, made once per FMU. The nominal run of each interface: several
 * checks judge the same run from different rules (success and ranges, allowed status codes,
 * fmi2CompletedIntegratorStep, whether there are events at all); making it once per check cost
 * a worker and a whole simulation each time for the same calls. The variables sorted into alias
 * sets, which five md-alias-* checks walk. */
#include <stdlib.h>
#include <string.h>

#include "api_util.h"
#include "md_ms_util.h"

typedef struct shared_entry {
    int done;
    int rc;             /* fmuc_sim_run_isolated's */
    char owner[64];     /* the check that made it */
    fmuc_sim_result r;
    fmuc_result res;    /* what making it reported */
} shared_entry;

struct fmuc_shared_runs {
    shared_entry e[2]; /* [fmi2ModelExchange], [fmi2CoSimulation] */
    char *unusable[2][2]; /* [interface][FMUC_UNUSABLE_INSTANCE - 1, FMUC_UNUSABLE_RUN - 1] */
    int alias_done;
    uint64_t *alias;   /* fmuc_ms__alias_sort's, NULL when it ran out of memory */
    size_t nalias;
};

fmuc_shared_runs *fmuc_shared_runs_new(void)
{
    return calloc(1, sizeof(fmuc_shared_runs));
}

void fmuc_shared_runs_free(fmuc_shared_runs *sr)
{
    if (!sr)
        return;
    for (size_t i = 0; i < 2; i++)
        if (sr->e[i].done) {
            fmuc_sim_result_free(&sr->e[i].r);
            fmuc_result_clear(&sr->e[i].res);
        }
    for (size_t i = 0; i < 2; i++)
        for (size_t k = 0; k < 2; k++)
            free(sr->unusable[i][k]);
    free(sr->alias);
    free(sr);
}

void fmuc_shared_nominal_config(const fmuc_subject *s, fmi2Type iface, fmuc_sim_config *cfg)
{
    fmuc_sim_config_init(cfg, iface);
    cfg->input_csv = s->opts ? s->opts->input_csv : NULL;
    cfg->instance_name = iface == fmi2ModelExchange ? "fmucheck-me-nominal" : "fmucheck-cs-nominal";
}

static int make(const fmuc_subject *s, fmi2Type iface, const char *check_id, fmuc_sim_result *r,
                fmuc_result *res)
{
    fmuc_sim_config cfg;
    fmuc_worker_outcome o;
    const char *label = iface == fmi2ModelExchange ? "the nominal ModelExchange run"
                                                   : "the nominal CoSimulation run";
    fmuc_shared_nominal_config(s, iface, &cfg);
    int rc = fmuc_sim_run_isolated(s->fmu, s->opts, &cfg, label, r, &o, res);
    /* a crash or hang in it: the interface cannot be simulated (in instantiation or
     * initialization: not used at all) by the checks that follow */
    apiu_note_death(s, res, iface, &o);
    if (o.end == FMUC_WORKER_CRASHED || o.end == FMUC_WORKER_TIMEOUT) {
        char why[600];
        apiu_death_text(&o, why, sizeof why);
        fmuc_shared_mark_unusable(s, iface, FMUC_UNUSABLE_RUN, check_id, why);
    }
    fmuc_worker_outcome_free(&o);
    return rc;
}

const fmuc_sim_result *fmuc_shared_nominal_run(const fmuc_subject *s, fmi2Type iface,
                                               const char *check_id, fmuc_result *res,
                                               fmuc_sim_result *own)
{
    memset(own, 0, sizeof *own);
    if (iface != fmi2ModelExchange && iface != fmi2CoSimulation) {
        fmuc_result_error(res, "nominal run: unknown interface %d", (int)iface);
        return NULL;
    }
    if (!s->shared)
        return make(s, iface, check_id, own, res) == 0 ? own : NULL;
    shared_entry *e = &s->shared->e[iface == fmi2ModelExchange ? 0 : 1];
    if (!e->done) {
        /* made into the caller's result, so its worker figures add up with its other workers';
         * what it reported is kept for the checks that share the run */
        size_t before = res->nmessages, dropped = res->messages_dropped;
        e->rc = make(s, iface, check_id, &e->r, res);
        fmuc_result_init(&e->res, check_id, NULL, NULL, FMUC_LEVEL_MUST);
        for (size_t i = before; i < res->nmessages; i++)
            fmuc_result_note(&e->res, "%s", res->messages[i]);
        e->res.messages_dropped = res->messages_dropped - dropped;
        /* fmuc_sim_run_isolated: -1 = could not be carried out, 1 = the library does not load */
        e->res.verdict = e->rc < 0 ? FMUC_VERDICT_ERROR : e->rc > 0 ? FMUC_VERDICT_NA
                                                                    : FMUC_VERDICT_PASS;
        snprintf(e->owner, sizeof e->owner, "%s", check_id);
        e->done = 1;
    } else if (e->res.verdict == FMUC_VERDICT_ERROR) {
        /* one ERROR, on the check that made the run; the others could not judge it */
        fmuc_result_na(res, "the nominal %s run could not be carried out (see %s)",
                       apiu_iface_name(iface), e->owner);
    } else {
        fmuc_result_merge(res, &e->res);
        /* "shared_runs": {"<interface>": "<the check whose evidence has its worker figures>"} */
        cJSON *ev = fmuc_result_evidence(res);
        cJSON *sr = cJSON_GetObjectItemCaseSensitive(ev, "shared_runs");
        if (ev && !sr)
            sr = cJSON_AddObjectToObject(ev, "shared_runs");
        if (sr && !cJSON_GetObjectItemCaseSensitive(sr, apiu_iface_name(iface)))
            cJSON_AddStringToObject(sr, apiu_iface_name(iface), e->owner);
    }
    return e->rc == 0 ? &e->r : NULL;
}

void fmuc_shared_mark_unusable(const fmuc_subject *s, fmi2Type iface, int level,
                               const char *check_id, const char *why)
{
    if (!s->shared || (level != FMUC_UNUSABLE_INSTANCE && level != FMUC_UNUSABLE_RUN))
        return;
    char **slot = &s->shared->unusable[iface == fmi2ModelExchange ? 0 : 1][level - 1];
    if (*slot)
        return;
    if (asprintf(slot, "the %s interface is unusable: %s (seen by check %s)",
                 apiu_iface_name(iface), why, check_id) < 0)
        *slot = NULL;
}

const char *fmuc_shared_unusable(const fmuc_subject *s, fmi2Type iface, int level)
{
    if (!s->shared)
        return NULL;
    char *const *u = s->shared->unusable[iface == fmi2ModelExchange ? 0 : 1];
    if (u[FMUC_UNUSABLE_INSTANCE - 1])
        return u[FMUC_UNUSABLE_INSTANCE - 1];
    return level == FMUC_UNUSABLE_RUN ? u[FMUC_UNUSABLE_RUN - 1] : NULL;
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
