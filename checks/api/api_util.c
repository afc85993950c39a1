/* --soak N (robustness B20): the nominal runs of cs-nominal-run and me-nominal-run repeated N
 * times, one instance after another in one worker process, as a long-lived importer would use the
 * FMU (faults that need hundreds of instances or steps: FMPy#110). The evidence states the runs,
 * instances and steps exercised, so a pass is scoped to them. */
#include <math.h>
#include <string.h>

#include "api_util.h"
#include "fmuc/fmuc_step.h"
#include "me/me_util.h"

void apiu_short_steps(fmuc_worker_ctx *ctx, fmuc_inst *in, fmuc_iface t, int nsteps,
                      apiu_steps *out)
{
    const fmuc_md *md = &fmuc_worker_fmu(ctx)->md;
    memset(out, 0, sizeof *out);
    size_t nx = 0, nz = 0;
    if (t == FMUC_IFACE_ME) {
        /* the number of states and event indicators in the version's terms */
        meu_model m;
        int sized = meu_model_build(md, &m) == 0;
        if (!sized)
            snprintf(out->stopped, sizeof out->stopped, "%s", m.why[0] ? m.why : "out of memory");
        nx = m.nx;
        nz = m.ni;
        meu_model_free(&m);
        if (!sized) {
            out->rc = FMUC_STEP_TERMINATE;
            return;
        }
    }
    double t0, h;
    apiu_grid(md, &t0, &h);
    fmuc_stepper sp;
    if (fmuc_stepper_init(&sp, in, t == FMUC_IFACE_ME, nx, nz) < 0) {
        snprintf(out->stopped, sizeof out->stopped, "out of memory");
        out->rc = FMUC_STEP_TERMINATE;
        return;
    }
    sp.cs_no_set_prior = 1;
    sp.cs_h = h;
    fmuc_step_rc rc = t == FMUC_IFACE_ME ? fmuc_step_me_enter_ctm(&sp) : FMUC_STEP_OK;
    for (int k = 0; k < nsteps && rc == FMUC_STEP_OK; k++) {
        fmuc_worker_phase(ctx, "step %d", k + 1);
        rc = fmuc_step_interval(&sp, t0 + k * h, t0 + (k + 1) * h, NULL);
    }
    out->rc = rc;
    if (rc == FMUC_STEP_FAILED) {
        out->status = sp.status;
        snprintf(out->call, sizeof out->call, "%s", sp.call);
    }
    if (rc != FMUC_STEP_OK && rc != FMUC_STEP_TERMINATE)
        snprintf(out->stopped, sizeof out->stopped, "%s",
                 rc == FMUC_STEP_FAILED ? sp.call
                 : sp.why[0]            ? sp.why
                                        : "the step-wise driver stopped");
    fmuc_stepper_free(&sp);
}

typedef struct soak_job {
    const fmuc_sim_config *cfg;
    unsigned n;
} soak_job;

static int soak_worker(fmuc_worker_ctx *ctx, void *payload)
{
    const soak_job *j = payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    unsigned done = 0;
    double steps = 0;
    if (fmuc_inst_load(ctx, (fmuc_iface)j->cfg->iface) < 0) {
        cJSON_AddStringToObject(reply, "load_error", fmuc_worker_load_error(ctx));
        return 1;
    }
    for (unsigned k = 1; k <= j->n; k++) {
        fmuc_sim_result r;
        fmuc_diag d = {{0}, FMUC_OK};
        fmuc_worker_phase_at(ctx, "soak run", (long long)k, 0.0);
        int rc = fmuc_sim_run(ctx, j->cfg, &r, &d);
        steps += (double)r.steps;
        if (rc != 0 || !r.completed) {
            cJSON_AddNumberToObject(reply, "failed_run", k);
            cJSON_AddNumberToObject(reply, "failed_time", isfinite(r.end_time) ? r.end_time : 0);
            cJSON_AddStringToObject(reply, "reason", rc < 0 ? d.msg
                                                     : r.stop_reason ? r.stop_reason
                                                                     : "the run ended early");
            fmuc_sim_result_free(&r);
            break;
        }
        fmuc_sim_result_free(&r);
        done = k;
    }
    cJSON_AddNumberToObject(reply, "runs", done);
    cJSON_AddNumberToObject(reply, "steps", steps);
    return 0;
}

void apiu_soak(const fmuc_subject *s, const fmuc_sim_config *cfg_in, const char *label,
               fmuc_result *res)
{
    unsigned n = s->opts ? s->opts->soak : 0;
    fmuc_sim_config cfg = *cfg_in;
    fmuc_sim_input in;
    int have_in = 0;
    if (n < 1 || res->verdict >= FMUC_VERDICT_FAIL || res->verdict == FMUC_VERDICT_NA)
        return; /* only a nominal run that passed is repeated */
    memset(&in, 0, sizeof in);
    if (cfg.input_csv && !cfg.no_excitation) {
        /* parsed here: the worker may run as a user that cannot read the file */
        fmuc_diag d = {{0}, FMUC_OK};
        if (fmuc_sim_input_load_csv(&in, cfg.input_csv, &s->fmu->md, &d) < 0) {
            fmuc_result_error(res, "soak: input: %s", d.msg);
            return;
        }
        have_in = 1;
        cfg.input = &in;
    }
    fmuc_worker_spec spec;
    fmuc_worker_outcome o;
    fmuc_diag d = {{0}, FMUC_OK};
    soak_job job = {&cfg, n};
    fmuc_worker_spec_init(&spec, s->fmu, s->opts);
    spec.label = label;
    spec.timeout_s *= (double)n; /* each run may take the per-check limit */
    if (fmuc_worker_run(&spec, soak_worker, &job, &o, &d) < 0) {
        fmuc_result_error(res, "soak: could not start a worker: %s", d.msg);
        goto out;
    }
    if (!fmuc_worker_outcome_to_result(&o, res)) {
        const cJSON *rp = o.reply;
        double runs = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(rp, "runs"));
        double steps = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(rp, "steps"));
        const cJSON *failed = cJSON_GetObjectItemCaseSensitive(rp, "failed_run");
        const char *why = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(rp, "reason"));
        cJSON *ev = cJSON_AddObjectToObject(fmuc_result_evidence(res), "soak");
        cJSON_AddNumberToObject(ev, "requested_runs", n);
        cJSON_AddNumberToObject(ev, "runs_passed", isfinite(runs) ? runs : 0);
        cJSON_AddNumberToObject(ev, "instances", isfinite(runs) ? runs + (failed ? 1 : 0) : 0);
        cJSON_AddNumberToObject(ev, "steps", isfinite(steps) ? steps : 0);
        if (cJSON_IsNumber(failed)) {
            double t = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(rp, "failed_time"));
            fmuc_result_violation(res, "soak: run %.0f of %u (each a new instance in the same "
                                       "process) ended at t = %.17g: %s; the nominal run alone "
                                       "passes",
                                  failed->valuedouble, n, isfinite(t) ? t : 0.0,
                                  why ? why : "?");
        } else {
            fmuc_result_note(res, "soak: %u more runs in one process (%u instances, %.0f steps) "
                                  "passed", n, n, isfinite(steps) ? steps : 0.0);
        }
    }
    fmuc_worker_outcome_free(&o);
out:
    if (have_in)
        fmuc_sim_input_free(&in);
}
