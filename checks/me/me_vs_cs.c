/* me-vs-cs: an FMU that offers both interfaces describes one model, so Model Exchange (the CVODE
 * host loop at tolerance 1e-8) and Co-Simulation (the FMU's own solver) agree over the default
 * experiment on the same output grid and inputs: per output and grid point
 *   |y_ME − y_CS| ≤ max(a, r·|y_CS|), r = max(1e-3, --rtol), a = max(1e-3, --atol)
 * (i.e. 1e-3·max(1, |y|) by default). Grid points within 1e-6·max(1, t_end) of an event of the
 * ME run are not compared (left/right limits at a jump are both right). Derived from the FMI
 * 2.0.4 §3.1 / §4.1 and FMI 3.0.2 §3.1 / §4.1 model definitions (one model; 3.0.2 §2.5.2:
 * several interface types in one FMU share the interface variables); reported as a warning. FMI 1.0 has no such FMU: Model Exchange and
 * Co-Simulation are two standards, and a 1.0 modelDescription.xml describes one of them (with
 * <Implementation> Co-Simulation, without it Model Exchange), so the check does not apply. The
 * runs go through fmuc_sim_run in the FMU's own version (3.0: fmi3 functions, the same grid).
 * Inputs keep their start values in both runs (an input trajectory would be sampled differently
 * by a CS master and an ME host). */
#include <stdlib.h>

#include "fmuc/fmuc_sim.h"
#include "me_util.h"

#define ME_TOL 1e-8

/* An event within w of t (after the events the run kept, every point counts as near one). */
static int near_event(const fmuc_sim_result *r, double t, double w)
{
    for (size_t i = 0; i < r->nevents; i++)
        if (r->events[i].kind != FMUC_SIM_EV_INIT && fabs(r->events[i].t - t) <= w)
            return 1;
    return r->events_dropped > 0 && r->nevents > 0 && t >= r->events[r->nevents - 1].t - w;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    if (!md->me.present || !md->cs.present) {
        fmuc_result_na(res, "the FMU does not offer both ModelExchange and CoSimulation");
        return;
    }
    if (!s->fmu->lib_path_me || !s->fmu->lib_path_cs) {
        fmuc_result_na(res, "no binary for both interfaces on this platform");
        return;
    }
    const char *u = fmuc_shared_unusable(s, FMUC_IFACE_CS, FMUC_UNUSABLE_RUN);
    if (u) { /* the runner only looks at the interface the check applies to (ME) */
        fmuc_result_na(res, "%s", u);
        return;
    }
    double rr = s->opts->rtol > 1e-3 ? s->opts->rtol : 1e-3;
    double aa = s->opts->atol > 1e-3 ? s->opts->atol : 1e-3;
    fmuc_sim_config cme, ccs;
    fmuc_sim_result rme, rcs;
    fmuc_worker_outcome o;
    memset(&rme, 0, sizeof rme);
    memset(&rcs, 0, sizeof rcs);
    fmuc_sim_config_init(&cme, FMUC_IFACE_ME);
    fmuc_sim_config_init(&ccs, FMUC_IFACE_CS);
    cme.tolerance = ME_TOL;
    /* inputs held at their start values: a CS master holds inputs over a communication step
     * while the ME host sees them continuously, which would differ for reasons of the drivers */
    cme.no_excitation = ccs.no_excitation = 1;
    cme.max_event_iterations = ccs.max_event_iterations = MEU_MAX_EVENT_ITERATIONS;
    /* runs beyond the nominal ones: bounded horizon, the same for both */
    char why[400];
    if (fmuc_shared_run_config(s, &cme, res, why, sizeof why) != 0 ||
        fmuc_shared_run_config(s, &ccs, res, why, sizeof why) != 0) {
        fmuc_result_na(res, "%s", why);
        return;
    }
    /* the same horizon for both (FMI 3.0: fixedInternalStepSize bounds the CS run only) */
    if (!isnan(cme.stop) || !isnan(ccs.stop))
        cme.stop = ccs.stop = isnan(cme.stop)   ? ccs.stop
                              : isnan(ccs.stop) ? cme.stop
                                                : fmin(cme.stop, ccs.stop);
    if (cme.max_steps != ccs.max_steps)
        cme.max_steps = ccs.max_steps = !cme.max_steps                 ? ccs.max_steps
                                        : !ccs.max_steps               ? cme.max_steps
                                        : cme.max_steps < ccs.max_steps ? cme.max_steps
                                                                        : ccs.max_steps;
    int rc = fmuc_sim_run_isolated(s->fmu, s->opts, &cme, "me-vs-cs (ME)", &rme, &o, res);
    apiu_note_death(s, res, FMUC_IFACE_ME, &o);
    fmuc_worker_outcome_free(&o);
    if (rc == 0) {
        rc = fmuc_sim_run_isolated(s->fmu, s->opts, &ccs, "me-vs-cs (CS)", &rcs, &o, res);
        apiu_note_death(s, res, FMUC_IFACE_CS, &o);
        fmuc_worker_outcome_free(&o);
    }
    if (rc != 0)
        goto out;
    if (!rme.completed || !rcs.completed) {
        const fmuc_sim_result *bad = !rme.completed ? &rme : &rcs;
        fmuc_result_na(res, "the %s run ended early at t = %.17g (%s; reported by %s): nothing "
                            "to compare", bad == &rme ? "ME" : "CS", bad->end_time,
                       bad->stop_reason ? bad->stop_reason : "?",
                       bad == &rme ? "me-events / me-nominal-run" : "cs-nominal-run");
        goto out;
    }
    size_t n = rme.npoints < rcs.npoints ? rme.npoints : rcs.npoints;
    if (rme.npoints != rcs.npoints)
        fmuc_result_note(res, "the ME run has %zu grid points, the CS run %zu; comparing the "
                              "first %zu", rme.npoints, rcs.npoints, n);
    double tend = fabs(rme.stop) > 1.0 ? fabs(rme.stop) : 1.0;
    double w = 1e-6 * tend;
    cJSON *ev = fmuc_result_evidence(res);
    cJSON_AddNumberToObject(ev, "me_tolerance", ME_TOL);
    cJSON_AddNumberToObject(ev, "rtol", rr);
    cJSON_AddNumberToObject(ev, "atol", aa);
    cJSON_AddStringToObject(ev, "criterion", "|y_ME - y_CS| <= max(atol, rtol*|y_CS|)");
    cJSON *cols = cJSON_AddArrayToObject(ev, "outputs");
    cJSON *plots = cJSON_AddArrayToObject(ev, "plots");
    size_t compared = 0, skipped = 0, nplots = 0;
    cJSON *xaxis = NULL;
    for (size_t c = 0; c < rcs.ncols; c++) {
        const fmuc_sim_column *col = &rcs.cols[c];
        if (col->causality != FMUC_CAUS_OUTPUT || col->type == FMUC_TYPE_STRING)
            continue;
        long cm = fmuc_sim_column_find(&rme, col->name);
        if (cm < 0)
            continue;
        double worst = 0.0, worst_t = 0.0, worst_me = 0.0, worst_cs = 0.0, worst_ratio = 0.0;
        size_t nbad = 0;
        cJSON *pl = NULL, *s1 = NULL, *s2 = NULL;
        size_t nkeep = n < 5000 ? n : 5000;
        double *xs = NULL, *yme = NULL, *ycs = NULL;
        if (nplots < 8) {
            pl = cJSON_CreateObject();
            char title[200];
            snprintf(title, sizeof title, "%s: ME (CVODE %g) vs CS", col->name, ME_TOL);
            cJSON_AddStringToObject(pl, "title", title);
            /* axis units as data (the reporter prints them): the display unit when the
             * variable has one (values converted below), else its unit */
            const char *yunit = col->display_unit ? col->display_unit : col->unit;
            cJSON_AddStringToObject(pl, "xlabel", "time");
            cJSON_AddStringToObject(pl, "xunit", "s");
            cJSON_AddStringToObject(pl, "ylabel", col->name);
            if (yunit)
                cJSON_AddStringToObject(pl, "yunit", yunit);
            cJSON *series = cJSON_AddArrayToObject(pl, "series");
            s1 = cJSON_CreateObject();
            s2 = cJSON_CreateObject();
            cJSON_AddStringToObject(s1, "name", "ME");
            cJSON_AddStringToObject(s2, "name", "CS");
            cJSON_AddItemToArray(series, s1);
            cJSON_AddItemToArray(series, s2);
            xs = malloc((nkeep ? nkeep : 1) * sizeof *xs);
            yme = malloc((nkeep ? nkeep : 1) * sizeof *yme);
            ycs = malloc((nkeep ? nkeep : 1) * sizeof *ycs);
        }
        for (size_t k = 0; k < n; k++) {
            double t = rcs.times[k];
            double a = fmuc_sim_value(&rme, k, (size_t)cm), b = fmuc_sim_value(&rcs, k, c);
            if (xs && yme && ycs && k < nkeep) {
                xs[k] = t;
                yme[k] = col->display_unit ? col->display_factor * a + col->display_offset : a;
                ycs[k] = col->display_unit ? col->display_factor * b + col->display_offset : b;
            }
            if (fabs(rme.times[k] - t) > w || near_event(&rme, t, w) || near_event(&rcs, t, w)) {
                skipped++;
                continue;
            }
            if (!isfinite(a) || !isfinite(b))
                continue; /* non-finite values belong to the nominal-run checks */
            compared++;
            double d = fabs(a - b);
            double lim = aa > rr * fabs(b) ? aa : rr * fabs(b);
            double ratio = d / lim;
            if (ratio > worst_ratio) {
                worst_ratio = ratio;
                worst = d;
                worst_t = t;
                worst_me = a;
                worst_cs = b;
            }
            if (d > lim)
                nbad++;
        }
        if (pl) {
            if (xs && yme && ycs) {
                if (!xaxis) /* the same time axis in every plot: print it once */
                    xaxis = fmuc_evidence_numbers(xs, nkeep, 1, 1);
                cJSON_AddItemToObject(pl, "x", cJSON_Duplicate(xaxis, 1));
                cJSON_AddItemToObject(s1, "y", fmuc_evidence_numbers(yme, nkeep, 1, 1));
                cJSON_AddItemToObject(s2, "y", fmuc_evidence_numbers(ycs, nkeep, 1, 1));
            }
            cJSON_AddItemToArray(plots, pl);
            nplots++;
        }
        free(xs);
        free(yme);
        free(ycs);
        cJSON *o2 = cJSON_CreateObject();
        cJSON_AddStringToObject(o2, "name", col->name);
        cJSON_AddNumberToObject(o2, "worst_abs_diff", worst);
        cJSON_AddNumberToObject(o2, "worst_t", worst_t);
        cJSON_AddNumberToObject(o2, "worst_ratio_to_limit", worst_ratio);
        cJSON_AddNumberToObject(o2, "points_outside", (double)nbad);
        cJSON_AddItemToArray(cols, o2);
        if (nbad)
            fmuc_result_violation(res, "output '%s' (vr %u): ME and CS differ at %zu grid points; "
                                       "worst at t = %.17g: ME %.17g, CS %.17g (|Δ| = %.3g > "
                                       "max(%g, %g·|y|))",
                                  col->name, col->vr, nbad, worst_t, worst_me, worst_cs, worst, aa,
                                  rr);
    }
    cJSON_Delete(xaxis);
    cJSON_AddNumberToObject(ev, "points_compared", (double)compared);
    cJSON_AddNumberToObject(ev, "points_skipped_near_events", (double)skipped);
    if (compared == 0 && res->verdict <= FMUC_VERDICT_PASS)
        fmuc_result_na(res, "no output could be compared");
    else
        fmuc_result_note(res, "%zu output values compared (%zu grid points near events skipped); "
                              "limit max(%g, %g·|y|)", compared, skipped, aa, rr);
out:
    fmuc_sim_result_free(&rme);
    fmuc_sim_result_free(&rcs);
}

const fmuc_check fmuc_check_me_vs_cs = {
    .id = "me-vs-cs",
    .title = "Model Exchange and Co-Simulation give the same outputs",
    .spec = "FMI 2.0.4 §3.1, §4.1; FMI 3.0.2 §3.1, §4.1, §2.5.2 (several interface types in one "
            "FMU: one model, the same interface variables)",
    .level = FMUC_LEVEL_SHOULD,
    .why = "An FMU with both interfaces promises one model; if Model Exchange and Co-Simulation "
           "disagree, the results depend on which interface an importer chose.",
    .fix = "Generate both interfaces from the same equations and parameters and tighten the "
           "Co-Simulation solver's tolerance or step until its outputs agree with an accurate ME "
           "run.",
    .applies = FMUC_APPLIES_ME,
    .versions = FMUC_V2 | FMUC_V3,
    .absent_in_v1 = "FMI 1.0 has no FMU with both interfaces: Model Exchange and Co-Simulation are "
                    "separate standards and a 1.0 FMU implements one of them",
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .sessions = 1,
    .run = run,
};
