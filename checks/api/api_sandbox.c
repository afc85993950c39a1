/* api-sandbox: during a normal life cycle (the nominal run of the interface, from instantiation
 * to its stop time, whose worker recorded it, fmuc_shared_nominal_observed; without one that
 * ended normally a session of its own: instantiate, set up, initialise, a few intervals of
 * the step-wise driver, terminate, free) the FMU writes only beneath its working directory /
 * $TMPDIR (the worker's scratch folder) and does not use the network. FMI 2.0 hands the FMU its
 * resources/ location to read from (§2.1.5 fmuResourceLocation, §2.3) and asks for external
 * dependencies to be documented in documentation/externalDependencies (§2.3, fmi2-rules A-22);
 * writing elsewhere (its own resources/, $HOME, /tmp, the report folder) or opening network
 * connections is judged by fmucheck's policy (level T: tool policy), not by an FMI MUST, so it
 * is reported at SHOULD level (a warning, as the catalogue has tool heuristics reported); a gating
 * config with "levels": {"api-sandbox": "must"} makes it fail a run.
 * Evidence comes from the worker sandbox's recording (harness/include/fmuc/fmuc_sandbox.h);
 * not applicable when this system gives no recording (basic isolation).
 * FMI 3.0 hands the FMU resourcePath (§2.3.1), asks for external dependencies in
 * documentation/externalDependencies (§2.5.1.1) and forbids writing or deleting in the
 * extracted resources/ (§2.5.1.5, M: such an attempt fails the check for a 3.0 FMU); FMI 1.0 CS hands fmuLocation, the unpacked
 * FMU whose resources/ the slave reads (fmi1-rules A-07, C-14), 1.0 ME no location at all: the
 * same policy applies to every version, through the version's own life cycle (apiu_reach and
 * the step-wise driver, fmuc_step.h, in both interfaces). */
#include <inttypes.h>

#include "api_util.h"

#define NSTEPS 5

static int probe(fmuc_worker_ctx *ctx, void *payload)
{
    fmuc_iface t = *(const fmuc_iface *)payload;
    const fmuc_fmu *fmu = fmuc_worker_fmu(ctx);
    char why[256] = "";
    if (apiu_load(ctx, t) < 0)
        return 0;
    fmuc_worker_phase(ctx, "life cycle");
    fmuc_inst *in = apiu_reach(ctx, t, &fmu->md, t == FMUC_IFACE_CS ? FMUC_ST_SC : FMUC_ST_EM,
                               "fmucheck-sandbox", why, sizeof why);
    if (!in) {
        cJSON_AddStringToObject(fmuc_worker_reply(ctx), "stopped", why);
        return 0;
    }
    apiu_steps st;
    apiu_short_steps(ctx, in, t, NSTEPS, &st); /* ME without usable sizes: no steps, said why */
    if (st.stopped[0])
        cJSON_AddStringToObject(fmuc_worker_reply(ctx), "stopped", st.stopped);
    fmuc_worker_phase(ctx, "terminate");
    fmuc_inst_terminate(in);
    fmuc_inst_free(in);
    return 0;
}

/* Whether path lies in the FMU's extracted resources/ folder (unpack_dir/resources). */
static int in_resources(const fmuc_fmu *fmu, const char *path)
{
    if (!path || !fmu->unpack_dir)
        return 0;
    size_t n = strlen(fmu->unpack_dir);
    return strncmp(path, fmu->unpack_dir, n) == 0 && strncmp(path + n, "/resources", 10) == 0 &&
           (path[n + 10] == '/' || path[n + 10] == '\0');
}

/* Every recorded attempt: a warning (tool policy), except that FMI 3.0.2 §2.5.1.5 makes a write
 * or delete in the extracted resources/ folder a must (it fails). */
static void report_events(const cJSON *events, uint64_t violations, const fmuc_fmu *fmu,
                          const char *iface, fmuc_result *res)
{
    int n = cJSON_GetArraySize(events);
    /* pass 0 the failures (named first), pass 1 the warnings */
    for (int k = 0; k < 2 * n; k++) {
        int pass = k / n, i = k % n;
        const cJSON *e = cJSON_GetArrayItem(events, i);
        if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "violation")))
            continue;
        const char *kind = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "kind"));
        const char *sc = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "syscall"));
        const char *path = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "path"));
        const char *addr = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "address"));
        const char *er = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "errno"));
        const char *by = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "deniedBy"));
        int net = kind && !strcmp(kind, "network");
        int must = !net && fmu->md.fmi == FMUC_FMI3 && in_resources(fmu, path);
        if (must != (pass == 0))
            continue;
        if (must) {
            fmuc_result_fail(res, "%s: write %s(%s) in the FMU's resources/ folder%s%s%s%s (FMI "
                                  "3.0.2 §2.5.1.5: the FMU must not write or delete there)",
                             iface, sc ? sc : "?", path, er ? ", got " : "", er ? er : "",
                             by ? " from " : "", by ? by : "");
            continue;
        }
        /* the errno is "unknown" when the recorder let the call go on (the nominal runs'
         * recording-only workers): then only who denied it is known */
        int known = er && strcmp(er, "unknown") != 0;
        fmuc_result_violation(res, "%s: %s %s(%s) outside the sandbox%s%s%s%s", iface,
                              net ? "network access" : "write", sc ? sc : "?",
                              path ? path : addr ? addr : "?", known ? ", got " : "",
                              known ? er : "", by ? (known ? " from " : ", denied by the ") : "",
                              by ? by : "");
    }
    if (violations > (uint64_t)n)
        fmuc_result_note(res, "%s: %" PRIu64 " attempts in total (the first %d are kept)", iface,
                         violations, n);
}

/* The evidence of one interface: the worker's isolation, the attempts, and whose session. */
static void put_evidence(fmuc_result *res, const char *iface, const fmuc_isolation *iso,
                         uint64_t total, uint64_t violations, const cJSON *events,
                         const char *stopped, const char *session)
{
    cJSON *ev = fmuc_result_evidence(res);
    if (!ev)
        return;
    cJSON *sb = cJSON_AddObjectToObject(ev, iface);
    cJSON_AddItemToObject(sb, "isolation", fmuc_isolation_json(iso));
    cJSON_AddNumberToObject(sb, "attempts", (double)total);
    cJSON_AddNumberToObject(sb, "violations", (double)violations);
    if (events)
        cJSON_AddItemToObject(sb, "events", cJSON_Duplicate(events, 1));
    if (stopped)
        cJSON_AddStringToObject(sb, "lifeCycleStopped", stopped);
    cJSON_AddStringToObject(sb, "session", session);
}

/* Not applicable: the worker's sandbox (iso) records nothing on this system. */
static void na_unrecorded(const fmuc_isolation *iso, fmuc_result *res)
{
    fmuc_result_na(res, "this system records no sandbox events (isolation %s; missing %s): "
                        "writes and network use cannot be observed",
                   iso->strict ? "strict" : "basic", iso->missing[0] ? iso->missing : "seccomp");
}

/* Judged on the nominal run of the interface (fmuc_shared_nominal_observed), when it was
 * recorded: 1 when judged (or the system records nothing: *none set), else 0. */
static int from_nominal(const fmuc_subject *s, const apiu_iface *ifc, fmuc_result *res,
                        int *none)
{
    const fmuc_shared_observed *ob = fmuc_shared_nominal_observed(s, ifc->type);
    if (!ob || !ob->isolation.known)
        return 0;
    if (!ob->isolation.seccomp) {
        na_unrecorded(&ob->isolation, res);
        *none = 1;
        return 1;
    }
    report_events(ob->sandbox_events, ob->sandbox_violations, s->fmu, ifc->name, res);
    put_evidence(res, ifc->name, &ob->isolation, ob->sandbox_events_total,
                 ob->sandbox_violations, ob->sandbox_events, ob->stop_reason, ob->session);
    return 1;
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    apiu_iface ifs[2];
    size_t n = apiu_usable_ifaces(s, res, FMUC_UNUSABLE_RUN, ifs), tested = 0;
    if (!n) {
        fmuc_result_na(res, "no binary for this platform");
        return;
    }
    char why[400] = "";
    double t0, h;
    apiu_grid(&s->fmu->md, &t0, &h);
    for (size_t i = 0; i < n; i++) {
        fmuc_worker_outcome o;
        fmuc_worker_spec spec;
        fmuc_diag d = {{0}, FMUC_OK};
        int none = 0;
        if (from_nominal(s, &ifs[i], res, &none)) {
            if (none)
                return;
            tested++;
            continue;
        }
        /* the life cycle would reach a call that hung before: not again */
        double t_end;
        if (fmuc_shared_horizon(s, ifs[i].type, t0, h, &t_end, NULL, why, sizeof why) != 0 ||
            t_end < t0 + NSTEPS * h) {
            apiu_note_short_horizon(res, why, sizeof why, ifs[i].name, NSTEPS);
            continue;
        }
        why[0] = '\0';
        fmuc_worker_spec_init(&spec, s->fmu, s->opts);
        spec.label = "api-sandbox";
        spec.record_sandbox = 1;
        if (fmuc_worker_run(&spec, probe, &ifs[i].type, &o, &d) < 0) {
            fmuc_result_error(res, "api-sandbox: could not start a worker: %s", d.msg);
            return;
        }
        fmuc_sim_add_log(&o, fmuc_result_evidence(res));
        /* the attempts first (also when the FMU then crashed), then the worker's own verdict */
        if (o.isolation.known && o.isolation.seccomp)
            report_events(o.sandbox_events, o.sandbox_violations, s->fmu, ifs[i].name, res);
        const cJSON *r = NULL;
        if (!fmuc_worker_outcome_to_result_ex(&o, res, FMUC_OUTCOME_NO_SANDBOX_NOTE))
            r = o.reply; /* (the attempts are named one by one above) */
        else
            apiu_note_death(s, res, ifs[i].type, &o);
        if (!o.isolation.known) {
            fmuc_worker_outcome_free(&o);
            continue;
        }
        if (!o.isolation.seccomp) {
            na_unrecorded(&o.isolation, res);
            fmuc_worker_outcome_free(&o);
            return;
        }
        if (r && apiu_load_failed(r, res, ifs[i].type)) {
            fmuc_worker_outcome_free(&o);
            continue;
        }
        tested++;
        put_evidence(res, ifs[i].name, &o.isolation, o.sandbox_events_total,
                     o.sandbox_violations, o.sandbox_events,
                     r ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "stopped"))
                       : NULL,
                     "a session of its own (life cycle with a few steps)");
        fmuc_worker_outcome_free(&o);
    }
    if (!tested && res->verdict <= FMUC_VERDICT_PASS && why[0])
        fmuc_result_na(res, "%s", why);
    else if (!tested && res->verdict <= FMUC_VERDICT_PASS)
        fmuc_result_na(res, "no library could be loaded");
}

const fmuc_check fmuc_check_api_sandbox = {
    .id = "api-sandbox",
    .title = "The FMU writes only to its working directory and uses no network (tool policy)",
    .spec = "FMI 2.0.4 §2.1.5, §2.3 (resources/, documentation/externalDependencies); FMI 3.0.2 "
            "§2.3.1, §2.5.1.1, §2.5.1.5 (resourcePath, documentation/externalDependencies; no writes in "
            "resources/: must); FMI 1.0 "
            "CS (fmiInstantiateSlave fmuLocation: resources/ below the FMU root; 1.0 ME has no "
            "location); tool policy T",
    .level = FMUC_LEVEL_SHOULD,
    .why = "An FMU that writes outside its working directory or opens network connections can "
           "fail on read-only installations or locked-down clusters and may leak or alter data on "
           "the host.",
    .fix = "Write scratch files only below the current or temporary directory, read data from the "
           "resources/ location, and document any network need in documentation/.",
    .applies = FMUC_APPLIES_MECS,
    .versions = FMUC_V1 | FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN |
             FMUC_NEEDS_OBSERVED,
    .sessions = 1, /* none for an interface whose nominal run was observed */
    .run = run,
};
