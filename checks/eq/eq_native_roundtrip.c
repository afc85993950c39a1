/* eq-native-roundtrip: the vdsim FMUs reproduce the linked native core bit for bit (max |Δ| = 0
 * on every output), in CS (fmi2DoStep = vd_step per communication step) and ME (an external RK4
 * that mirrors vd_step's substeps through fmi2SetTime/SetContinuousStates/GetDerivatives).
 * Parameters: the native side loads the FMU's own extracted resources (same bytes).
 * FMI 3.0 (vdsim_l2_fmi3, vdsim_l3_fmi3, recognised by their instantiationToken): the same runs
 * through fmi3DoStep / fmi3GetContinuousStateDerivatives; L3's per-wheel outputs are arrays of 4
 * (susp_comp vr 30, Fz vr 40, FL FR RL RR), compared element by element ("Fz[3]"). */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eq_util.h"
#include "fmuc/fmuc_sim.h"
#include "eq_vdsim_guid.h"
#include "vd/vd.h"

const char *fmuc_eq__vdsim_guid(int level)
{
    return level == 2 ? FMUC_EQ_VDSIM_L2_GUID : level == 3 ? FMUC_EQ_VDSIM_L3_GUID : NULL;
}

const char *fmuc_eq__vdsim_token(int level)
{
    return level == 2 ? FMUC_EQ_VDSIM_L2_TOKEN : level == 3 ? FMUC_EQ_VDSIM_L3_TOKEN : NULL;
}

int fmuc_eq__vdsim_level(const fmuc_fmu *fmu, const fmuc_options *opts, char *why, size_t n)
{
    const fmuc_md *md = &fmu->md;
    if (opts && opts->native) {
        if (strcmp(opts->native, "l2") == 0)
            return 2;
        if (strcmp(opts->native, "l3") == 0)
            return 3;
        snprintf(why, n, "--native %s: no native model requested", opts->native);
        return 0;
    }
    for (int level = 2; level <= 3; level++) {
        char id[16];
        snprintf(id, sizeof id, "vdsim_l%d", level);
        if (!md->model_name || strcmp(md->model_name, id) != 0)
            continue;
        const char *mi = md->cs.present ? md->cs.model_identifier : md->me.model_identifier;
        if (!mi || strcmp(mi, id) != 0) {
            snprintf(why, n, "modelName is '%s' but the modelIdentifier is '%s'", id,
                     mi ? mi : "(none)");
            return 0;
        }
        /* FMI 3.0: the instantiationToken (also in md->guid) of vdsim_lN_fmi3 */
        int v3 = md->fmi == FMUC_FMI3;
        const char *want = v3 ? fmuc_eq__vdsim_token(level) : fmuc_eq__vdsim_guid(level);
        if (!md->guid || strcmp(md->guid, want) != 0) {
            snprintf(why, n,
                     "modelName is '%s' but the %s %s is not the one generated for it in this "
                     "build (%s); use --native l%d to force the comparison",
                     id, v3 ? "instantiationToken" : "GUID", md->guid ? md->guid : "(none)",
                     want, level);
            return 0;
        }
        return level;
    }
    snprintf(why, n, "not a vdsim FMU of this project (modelName '%s'); use --native l2|l3 to "
                     "compare with the native core",
             md->model_name ? md->model_name : "(none)");
    return 0;
}

/* The native model from the FMU's extracted resources (vehicle.json, tire.json, L3 kinematics). */
static vd_model *native_model(const fmuc_fmu *fmu, int level, const fmuc_eq_native_tweak *tw,
                              char *why, size_t n)
{
    char veh[4096], tire[4096], front[4096], rear[4096];
    vd_params *p = NULL;
    vd_model *m = NULL;
    vd_error err = {{0}};
    if (!fmu->unpack_dir) {
        snprintf(why, n, "the FMU was not extracted (no resources)");
        return NULL;
    }
    snprintf(veh, sizeof veh, "%s/resources/vehicle.json", fmu->unpack_dir);
    snprintf(tire, sizeof tire, "%s/resources/tire.json", fmu->unpack_dir);
    if (vd_params_load(&p, veh, tire, &err) != VD_OK) {
        snprintf(why, n, "native parameters: %s", err.msg);
        return NULL;
    }
    snprintf(front, sizeof front, "%s/resources/kinematics/front.csv", fmu->unpack_dir);
    snprintf(rear, sizeof rear, "%s/resources/kinematics/rear.csv", fmu->unpack_dir);
    FILE *probe = level == 3 ? fopen(front, "r") : NULL;
    if (probe) {
        fclose(probe);
        if (vd_params_load_kinematics(p, front, rear, &err) != VD_OK) {
            snprintf(why, n, "native kinematics: %s", err.msg);
            vd_params_free(p);
            return NULL;
        }
    }
    if (tw && tw->param && vd_param_set(p, tw->param, tw->value, &err) != VD_OK) {
        snprintf(why, n, "tweak %s: %s", tw->param, err.msg);
        vd_params_free(p);
        return NULL;
    }
    if (vd_create(&m, level == 2 ? VD_L2 : VD_L3, p, &err) != VD_OK) {
        snprintf(why, n, "vd_create: %s", err.msg);
        m = NULL;
    }
    vd_params_free(p);
    if (m)
        vd_init(m);
    return m;
}

int fmuc_eq__vdsim_nsub(const fmuc_fmu *fmu, int level, double dt, char *why, size_t n)
{
    vd_model *m = native_model(fmu, level, NULL, why, n);
    if (!m)
        return -1;
    int k = vd_substeps(m, dt);
    vd_destroy(m);
    return k;
}

/* Output value references of the vdsim FMUs and the matching native output; FMI 3.0's per-wheel
 * arrays of 4 (vr 30 susp_comp, vr 40 Fz) element by element. */
static int native_value(const vd_out *o, const equ_var *e, double *v)
{
    fmuc_vr vr = e->vr;
    if (e->nelem) {
        if (e->nelem != 4 || e->elem >= 4 || (vr != 30 && vr != 40))
            return -1;
        *v = vr == 30 ? o->susp_comp[e->elem] : o->fz[e->elem];
    } else if (vr >= 10 && vr <= 17) {
        const double a[8] = {o->x, o->y, o->yaw, o->vx, o->vy, o->yaw_rate, o->ax, o->ay};
        *v = a[vr - 10];
    } else if (vr == 20) {
        *v = o->roll;
    } else if (vr == 21) {
        *v = o->pitch;
    } else if (vr >= 30 && vr <= 33) {
        *v = o->susp_comp[vr - 30];
    } else if (vr >= 40 && vr <= 43) {
        *v = o->fz[vr - 40];
    } else {
        return -1;
    }
    return 0;
}

static void native_cmd(const equ_plan *p, size_t k, vd_cmd *u)
{
    memset(u, 0, sizeof *u);
    for (size_t j = 0; j < p->nin; j++) {
        double v = p->in_values[k * p->nin + j];
        if (p->in[j].vr == 1)
            u->steer = v;
        else if (p->in[j].vr == 2)
            u->throttle = v;
        else if (p->in[j].vr == 3)
            u->brake = v;
    }
}

typedef struct rt_job {
    const equ_plan *plan;
    int level;
    const fmuc_eq_native_tweak *tweak;
} rt_job;

/* The native core's run over the plan's grid: rows of the plan's outputs. */
typedef struct native_run {
    vd_model *m;
    const equ_plan *p;
    double *rows;
    const char *error; /* NULL when it ran */
} native_run;

static void *native_loop(void *arg)
{
    native_run *nr = arg;
    const equ_plan *p = nr->p;
    vd_cmd u;
    vd_out o;
    native_cmd(p, 0, &u);
    vd_set_cmd(nr->m, &u);
    for (size_t k = 0; k <= p->nsteps; k++) {
        if (k > 0) {
            native_cmd(p, k - 1, &u);
            if (vd_step(nr->m, p->t[k] - p->t[k - 1], &u) != VD_OK) {
                nr->error = "vd_step failed";
                return NULL;
            }
        }
        vd_outputs(nr->m, &o);
        for (size_t j = 0; j < p->nout; j++)
            native_value(&o, &p->out[j], &nr->rows[k * p->nout + j]);
    }
    return NULL;
}

/* The native run needs no FMU call: with a second CPU it runs on a thread of its own while the
 * FMU runs, which halves the check's wall time. With one CPU it runs first, alone: the thread
 * would only take turns with the FMU and inflate the time measured inside FMU calls. */
static int second_cpu(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    return sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) >= 2;
}

static int rt_worker(fmuc_worker_ctx *ctx, void *payload)
{
    const rt_job *job = payload;
    cJSON *reply = fmuc_worker_reply(ctx);
    equ_plan lp = *job->plan;
    const equ_plan *p = &lp;
    size_t rows = p->nsteps + 1, n = rows * p->nout;
    char why[512] = "";
    double *fmu_rows = calloc(n, sizeof *fmu_rows), *nat_rows = calloc(n, sizeof *nat_rows);
    native_run nr = {NULL, p, nat_rows, NULL};
    pthread_t th;
    int threaded = 0, fmu_ok = 0;
    if (!fmu_rows || !nat_rows) {
        cJSON_AddStringToObject(reply, "native_error", "out of memory");
        goto out;
    }
    /* native model (parameters from the FMU's resources) and, for ME, its substep count, which
     * the FMU run mirrors */
    fmuc_worker_phase(ctx, "native core");
    nr.m = native_model(job->plan->fmu, job->level, job->tweak, why, sizeof why);
    if (!nr.m) {
        cJSON_AddStringToObject(reply, "native_error", why);
        goto out;
    }
    if (p->iface == FMUC_IFACE_ME) {
        int nsub = vd_substeps(nr.m, p->t[1] - p->t[0]);
        for (size_t k = 0; k < p->nsteps; k++)
            if (vd_substeps(nr.m, p->t[k + 1] - p->t[k]) != nsub) {
                cJSON_AddStringToObject(reply, "native_error",
                                        "the substep count varies over the grid");
                goto out;
            }
        lp.nsub = nsub;
        cJSON_AddNumberToObject(reply, "nsub", nsub);
    }
    threaded = second_cpu() && pthread_create(&th, NULL, native_loop, &nr) == 0;
    cJSON_AddBoolToObject(reply, "native_beside", threaded);
    if (!threaded) {
        native_loop(&nr);
        if (nr.error)
            goto out;
    }
    /* FMU */
    int f_loaded = fmuc_inst_load(ctx, (fmuc_iface)(p->iface)) == 0;
    if (!f_loaded) {
        cJSON_AddStringToObject(reply, "fmu_error", fmuc_worker_load_error(ctx));
        goto out;
    }
    fmuc_worker_phase(ctx, "%s run", equ_iface_name(p->iface));
    if (equ_run_fresh(ctx, p, "roundtrip", fmu_rows, why, sizeof why) < 0) {
        cJSON_AddStringToObject(reply, "fmu_error", why);
        goto out;
    }
    fmu_ok = 1;
out:
    if (threaded)
        pthread_join(th, NULL);
    if (nr.error)
        cJSON_AddStringToObject(reply, "native_error", nr.error);
    else if (fmu_ok) {
        cJSON_AddItemToObject(reply, "fmu", fmuc_worker_f64_to_json(fmu_rows, n));
        cJSON_AddItemToObject(reply, "native", fmuc_worker_f64_to_json(nat_rows, n));
    }
    if (nr.m)
        vd_destroy(nr.m);
    free(fmu_rows);
    free(nat_rows);
    return 0;
}

/* The names of the compared outputs (array elements "Fz[3]"): at most 64. */
typedef char rt_label[96];

static void rt_evidence(fmuc_result *res, const equ_plan *p, const double *fr, const double *nr,
                        const double *maxd, const size_t *at, const rt_label *lab)
{
    size_t rows = p->nsteps + 1;
    cJSON *ev = fmuc_result_evidence(res);
    cJSON *tab = cJSON_GetObjectItem(ev, "max_abs_diff");
    if (!tab)
        tab = cJSON_AddObjectToObject(ev, "max_abs_diff");
    cJSON *it = cJSON_AddObjectToObject(tab, equ_iface_name(p->iface));
    for (size_t j = 0; j < p->nout; j++) {
        cJSON *o = cJSON_AddObjectToObject(it, lab[j]);
        cJSON_AddNumberToObject(o, "vr", p->out[j].vr);
        if (isnan(maxd[j]))
            cJSON_AddStringToObject(o, "max_abs_diff", "NaN on one side");
        else
            cJSON_AddNumberToObject(o, "max_abs_diff", maxd[j]);
        if (maxd[j] != 0.0)
            cJSON_AddNumberToObject(o, "at_time", p->t[at[j]]);
    }
    /* difference plot (all outputs) and overlays of the first few */
    double *diff = malloc(rows * p->nout * sizeof *diff);
    if (!diff)
        return;
    for (size_t i = 0; i < rows * p->nout; i++)
        diff[i] = fr[i] - nr[i];
    equ_series_ref sr[16];
    for (size_t j0 = 0; j0 < p->nout; j0 += 16) {
        size_t ns = 0;
        for (size_t j = j0; j < p->nout && ns < 16; j++, ns++)
            sr[ns] = (equ_series_ref){lab[j], diff + j, p->nout};
        char title[128];
        snprintf(title, sizeof title, "%s: FMU minus native", equ_iface_name(p->iface));
        cJSON *pl = equ_plot_add(res, title, "difference", p->t, rows, sr, ns, NULL, NULL, 0, 0);
        /* a y unit only when every output of the plot shows in the same one */
        int same = 1;
        fmuc_sim_column u0, uj;
        memset(&u0, 0, sizeof u0);
        const fmuc_md_var *v0 = equ_md_find(&p->fmu->md, p->out[j0].name);
        if (v0)
            fmuc_sim_column_units(&p->fmu->md, v0, &u0);
        for (size_t k = 1; k < ns && same && v0; k++) {
            const fmuc_md_var *vk = equ_md_find(&p->fmu->md, p->out[j0 + k].name);
            memset(&uj, 0, sizeof uj);
            if (vk)
                fmuc_sim_column_units(&p->fmu->md, vk, &uj);
            const char *a = u0.display_unit ? u0.display_unit : u0.unit;
            const char *b = uj.display_unit ? uj.display_unit : uj.unit;
            same = vk && a && b && strcmp(a, b) == 0 && u0.display_factor == uj.display_factor;
            free(uj.unit);
            free(uj.display_unit);
        }
        if (v0 && same)
            equ_plot_units(pl, &p->fmu->md, p->out[j0].name, 1);
        free(u0.unit);
        free(u0.display_unit);
    }
    size_t nover = p->iface == FMUC_IFACE_CS ? 6 : 4;
    for (size_t j = 0; j < p->nout && j < nover; j++) {
        equ_series_ref two[2] = {{"native", nr + j, p->nout}, {"FMU", fr + j, p->nout}};
        char title[160];
        snprintf(title, sizeof title, "%s: %s, native vs FMU", equ_iface_name(p->iface), lab[j]);
        equ_plot_units(equ_plot_add(res, title, lab[j], p->t, rows, two, 2, NULL, NULL, 0, 500),
                       &p->fmu->md, p->out[j].name, 0);
    }
    free(diff);
}

void fmuc_eq__native_roundtrip(const fmuc_subject *s, fmuc_result *res,
                               const fmuc_eq_native_tweak *tweak)
{
    char why[512];
    const fmuc_fmu *fmu = s->fmu;
    size_t from = res->nmessages;
    int level = fmuc_eq__vdsim_level(fmu, s->opts, why, sizeof why);
    if (!level) {
        fmuc_result_na(res, "%s", why);
        return;
    }
    fmuc_iface ifaces[2];
    size_t ni = equ_interfaces(fmu, ifaces);
    if (!ni) {
        fmuc_result_na(res, "no interface with a binary for this platform");
        return;
    }
    if (!(ni = equ_usable_interfaces(s, res, ifaces)))
        return;
    cJSON_AddNumberToObject(fmuc_result_evidence(res), "native_level", level);
    for (size_t i = 0; i < ni; i++) {
        equ_plan p;
        fmuc_worker_outcome o;
        /* FMI 3.0: the arrays of Float64 outputs element by element */
        if (equ_plan_init(&p, fmu, ifaces[i], EQU_STEPS_LONG) < 0 ||
            equ_plan_array_outputs(&p) < 0) {
            fmuc_result_na(res, "%s: %s", equ_iface_name(ifaces[i]), p.why);
            equ_plan_free(&p);
            continue;
        }
        /* only the outputs the native core has */
        equ_var keep[64];
        rt_label lab[64];
        size_t nk = 0;
        double dummy;
        vd_out zero;
        memset(&zero, 0, sizeof zero);
        for (size_t j = 0; j < p.nout; j++) {
            char l[96];
            equ_var_label(&fmu->md, &p.out[j], l, sizeof l);
            if (nk < 64 && p.out[j].type == FMUC_TYPE_REAL &&
                native_value(&zero, &p.out[j], &dummy) == 0) {
                snprintf(lab[nk], sizeof lab[nk], "%s", l);
                keep[nk++] = p.out[j];
            } else {
                fmuc_result_note(res, "output '%s' (vr %u) has no native counterpart; not "
                                      "compared",
                                 l, p.out[j].vr);
            }
        }
        if (!nk || equ_plan_set_outputs(&p, keep, nk) < 0) {
            fmuc_result_na(res, "%s: no output of the native core (vr 10-17, 20, 21, 30-33, "
                                "40-43; FMI 3.0 arrays of 4 at vr 30 and 40)",
                           equ_iface_name(ifaces[i]));
            equ_plan_free(&p);
            continue;
        }
        equ_plan_me_budget(&p, level, EQU_ME_SUBSTEPS_LONG);
        equ_plan_excite(&p, res);
        rt_job job = {&p, level, tweak};
        if (equ_worker(s, fmu, "eq-native-roundtrip", rt_worker, &job, &o, res) < 0) {
            equ_plan_free(&p);
            continue;
        }
        const cJSON *beside = cJSON_GetObjectItem(o.reply, "native_beside");
        cJSON *ev = fmuc_result_evidence(res);
        if (cJSON_IsBool(beside) && ev && !cJSON_GetObjectItem(ev, "native_run"))
            cJSON_AddStringToObject(ev, "native_run", cJSON_IsTrue(beside)
                                                          ? "beside the FMU run"
                                                          : "before the FMU run");
        const char *ne = cJSON_GetStringValue(cJSON_GetObjectItem(o.reply, "native_error"));
        const char *fe = cJSON_GetStringValue(cJSON_GetObjectItem(o.reply, "fmu_error"));
        size_t rows = p.nsteps + 1, n = rows * p.nout;
        double *fr = NULL, *nr = NULL;
        if (ne) {
            fmuc_result_error(res, "%s: the native model could not run: %s",
                              equ_iface_name(p.iface), ne);
        } else if (fe) {
            fmuc_result_violation(res, "%s: the FMU run failed where the native core ran: %s",
                                  equ_iface_name(p.iface), fe);
        } else if (!(fr = fmuc_worker_f64_from_json(cJSON_GetObjectItem(o.reply, "fmu"), n)) ||
                   !(nr = fmuc_worker_f64_from_json(cJSON_GetObjectItem(o.reply, "native"), n))) {
            fmuc_result_error(res, "%s: malformed series in the worker reply",
                              equ_iface_name(p.iface));
        } else {
            double maxd[64];
            size_t at[64];
            equ_max_abs_diff(fr, nr, rows, p.nout, maxd, at);
            size_t r, c;
            if (equ_first_diff(fr, nr, rows, p.nout, &r, &c)) {
                char b1[64], b2[64];
                fmuc_result_violation(
                    res, "%s: output '%s' (vr %u) first differs at t=%.17g (step %zu): FMU %s, "
                         "native %s",
                    equ_iface_name(p.iface), lab[c], p.out[c].vr, p.t[r], r,
                    equ_fmt_bits(fr[r * p.nout + c], b1, sizeof b1),
                    equ_fmt_bits(nr[r * p.nout + c], b2, sizeof b2));
                for (size_t j = 0; j < p.nout; j++)
                    if (maxd[j] != 0.0)
                        fmuc_result_violation(res, "%s: output '%s' (vr %u): max |FMU - native| "
                                                   "= %.3g at t=%.17g (must be 0)",
                                              equ_iface_name(p.iface), lab[j], p.out[j].vr,
                                              maxd[j], p.t[at[j]]);
            } else {
                fmuc_result_note(res, "%s: %zu outputs over %zu steps (dt=%g%s): max |Δ| = 0",
                                 equ_iface_name(p.iface), p.nout, p.nsteps, p.t[1] - p.t[0],
                                 p.iface == FMUC_IFACE_ME ? ", RK4 mirrored" : "");
            }
            rt_evidence(res, &p, fr, nr, maxd, at, lab);
        }
        free(fr);
        free(nr);
        fmuc_worker_outcome_free(&o);
        equ_plan_free(&p);
    }
    equ_v3_names(s, res, from); /* fmi2DoStep -> fmi3DoStep ... in the FMU's messages */
}

static void run(const fmuc_subject *s, fmuc_result *res) { fmuc_eq__native_roundtrip(s, res, NULL); }

const fmuc_check fmuc_check_eq_native_roundtrip = {
    .id = "eq-native-roundtrip",
    .title = "vdsim FMU results equal the native core bit for bit",
    .spec = "FMI 2.0.4 §3.2, §4.2; FMI 3.0.2 §3.2, §4.2, §2.2.7.1 and §2.4.7.2 (arrays); "
            "vehicle-brief §5",
    .level = FMUC_LEVEL_MUST,
    .why = "The vdsim FMUs are the harness's own exports; if they do not reproduce the native "
           "core bit for bit, the export layer changes the model and equivalence results built on "
           "it are suspect.",
    .fix = "Make the FMU wrapper call the native core's step functions with the same arguments "
           "and parameter file, and compare the first diverging output against vd_step.",
    .applies = FMUC_APPLIES_MECS,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .run = run,
};
