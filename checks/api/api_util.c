/* --soak N (robustness B20): the nominal runs of cs-nominal-run and me-nominal-run repeated N
 * times, one instance after another in one worker process, as a long-lived importer would use the
 * FMU (faults that need hundreds of instances or steps: FMPy#110). The evidence states the runs,
 * instances and steps exercised, so a pass is scoped to them. */
#include <math.h>
#include <string.h>

#include "api_util.h"
#include "fmuc/fmuc_step.h"
#include "md/md_util.h"
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

/* ---- variable values ------------------------------------------------------------------------ */

size_t apiu_value_size(fmuc_inst_base b)
{
    switch (b) {
    case FMUC_INST_FLOAT32: return sizeof(float);
    case FMUC_INST_FLOAT64: return sizeof(double);
    case FMUC_INST_INT8: case FMUC_INST_UINT8: return 1;
    case FMUC_INST_INT16: case FMUC_INST_UINT16: return 2;
    case FMUC_INST_INT32: case FMUC_INST_UINT32: return 4;
    case FMUC_INST_INT64: case FMUC_INST_UINT64: case FMUC_INST_ENUMERATION: return 8;
    case FMUC_INST_BOOLEAN: case FMUC_INST_CLOCK: return sizeof(int);
    case FMUC_INST_STRING: return sizeof(const char *);
    case FMUC_INST_BINARY: return sizeof(const uint8_t *);
    default: return 8;
    }
}

const char *apiu_start_token(const fmuc_md *md, size_t i, size_t k, size_t nelem)
{
    const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, i);
    if (x && x->nstarts)
        return x->nstarts == nelem && k < x->nstarts ? x->starts[k] : NULL;
    return nelem == 1 && k == 0 ? md->vars[i].start_text : NULL;
}

fmuc_status apiu_get_values(fmuc_inst *in, fmuc_inst_base b, const fmuc_vr *vr, size_t nvr,
                            void *vals, size_t *sizes, size_t n)
{
    if (b == FMUC_INST_BINARY)
        return fmuc_inst_get_binary(in, vr, nvr, sizes, (const uint8_t **)vals, n);
    return fmuc_inst_get(in, b, vr, nvr, vals, n);
}

fmuc_status apiu_set_values(fmuc_inst *in, fmuc_inst_base b, const fmuc_vr *vr, size_t nvr,
                            const void *vals, const size_t *sizes, size_t n)
{
    if (b == FMUC_INST_BINARY)
        return fmuc_inst_set_binary(in, vr, nvr, sizes, (const uint8_t *const *)vals, n);
    return fmuc_inst_set(in, b, vr, nvr, vals, n);
}

const char *apiu_accessor(int ver, fmuc_inst_base b, int set, char *buf, size_t n)
{
    const char *t = ver == 3                  ? apiu_base3_name(b)
                    : b == FMUC_INST_FLOAT64 ? "Real"
                    : b == FMUC_INST_BOOLEAN ? "Boolean"
                    : b == FMUC_INST_STRING  ? "String"
                                             : "Integer";
    snprintf(buf, n, "fmi%s%s%s", ver == 3 ? "3" : ver == 1 ? "" : "2", set ? "Set" : "Get", t);
    return buf;
}

static int hex_digit(int c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

long apiu_hex_decode(const char *t, uint8_t *out, size_t cap)
{
    while (*t == ' ' || *t == '\t' || *t == '\n' || *t == '\r')
        t++;
    size_t n = strlen(t);
    while (n && (t[n - 1] == ' ' || t[n - 1] == '\t' || t[n - 1] == '\n' || t[n - 1] == '\r'))
        n--;
    if (n % 2 || (out && n / 2 > cap))
        return -1;
    for (size_t j = 0; j < n; j += 2) {
        int hi = hex_digit((unsigned char)t[j]), lo = hex_digit((unsigned char)t[j + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        if (out)
            out[j / 2] = (uint8_t)(hi * 16 + lo);
    }
    return (long)(n / 2);
}

int apiu_utf8_valid(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p, need;
        unsigned long cp;
        if (c < 0x80) {
            p++;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            need = 1;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            cp = c & 0x07;
        } else {
            return 0;
        }
        p++;
        for (unsigned k = 0; k < need; k++, p++) {
            if ((*p & 0xC0) != 0x80)
                return 0;
            cp = (cp << 6) | (*p & 0x3F);
        }
        if ((need == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
            (need == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
            return 0;
    }
    return 1;
}

/* ---- alias sets ----------------------------------------------------------------------------- */

static void first_of_set(const fmuc_md *md, int kind, uint32_t vr, const uint32_t *members,
                         size_t n, void *payload)
{
    uint32_t *first = payload;
    (void)md;
    (void)kind;
    (void)vr;
    for (size_t k = 0; k < n; k++)
        first[members[k] - 1] = members[0];
}

uint32_t *apiu_alias_first(const fmuc_subject *s)
{
    const fmuc_md *md = &s->fmu->md;
    uint32_t *first = calloc(md->nvars + 1, sizeof *first);
    if (first && fmuc_ms__alias_sets_of(s, first_of_set, first) < 0) {
        free(first);
        return NULL;
    }
    return first;
}
