/* me-directional-derivatives: when providesDirectionalDerivative(s)="true", J·v from
 * fmi2/fmi3GetDirectionalDerivative (knowns = the state VRs, unknowns = the derivative VRs) agrees
 * with the central difference (f(x+δv) − f(x−δv)) / 2δ, δ = 1e-6·max(1, ‖x‖∞), at several
 * points of the continuous region (the start state, seeded points around it, and up to two
 * points on the trajectory from it, trajectory_points) and seeded random unit directions:
 *   ε_dd = ‖Jv − fd‖₂ / max(‖fd‖₂, 1e-4·‖f(x)‖₂) ≤ 1e-6.
 * FMI 3.0 with providesAdjointDerivatives="true": at each point wᵀJ from fmi3GetAdjointDerivative
 * (seeded random unit w) agrees with wᵀ times the Jacobian assembled column by column from
 * directional derivatives with unit seeds: ε_adj = ‖wᵀJ_adj − wᵀJ_dd‖₂ / max(‖wᵀJ_dd‖₂,
 * 1e-4·‖f(x)‖₂) ≤ 1e-6.
 * Also the Jacobian (column-wise central differences along unit directions) against the
 * state-to-derivative dependencies of <ModelStructure><Derivatives> (3.0
 * <ContinuousStateDerivative>): a non-zero entry the XML does not declare is a violation (a
 * declared dependency that is zero is fine).
 * FMI 2.0.4 §2.1.9 (E-09, E-11), §2.2.8 (B-406); FMI 3.0.2 §2.2.11 (partial derivatives,
 * directional and adjoint), §2.4.8 (ModelStructure dependencies).
 * The central differences are of the states the FMU holds: when it keeps them to fewer digits
 * than were set (read back after each set; float32 states, say), J is asked along the
 * difference of the states read back, not the direction that was set (a note says so), as the
 * rounding would otherwise be blamed on its directional derivative. */
#include <float.h>

#include "me_util.h"

#define NPOINTS 4
#define NTRAJ 2         /* points on the trajectory from the start state (trajectory_points) */
#define TRAJ_STEPS 200  /* RK4 steps of that trajectory at most */
#define TRAJ_BOUND 10.0  /* it stops where a state leaves 10 x max(|start|, nominal) */
#define TRAJ_STEP_MAX 0.1 /* ... or moves by more than a tenth of that scale in one step */
#define NDIRS 2
#define EPS_DD_MAX 1e-6
#define SEED 0x5EEDF00Dull

typedef struct dd_job {
    const meu_model *m;
    uint8_t *declared; /* nx*nx: declared[i*nx+j] = der i may depend on state j */
    int adjoint;       /* 3.0 providesAdjointDerivatives="true": judge fmi3GetAdjointDerivative */
} dd_job;

static const char *dd_fn(int ver)
{
    return ver == 3 ? "fmi3GetDirectionalDerivative" : "fmi2GetDirectionalDerivative";
}

/* The value references of the distinct variables of vr[0..nx) (3.0 array elements repeat their
 * variable's reference consecutively; the partial-derivative calls take each variable once). */
static size_t distinct_vrs(const fmuc_md_var *const *var, const fmuc_vr *vr, size_t nx,
                           fmuc_vr *out)
{
    size_t n = 0;
    for (size_t k = 0; k < nx; k++)
        if (k == 0 || var[k] != var[k - 1])
            out[n++] = vr[k];
    return n;
}

static double norm2(const double *a, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += a[i] * a[i];
    return sqrt(s);
}

/* After meu_eval set x: the states the FMU holds, into xa (x itself when they cannot be read).
 * 1 when they are x, bit for bit. */
static int held_states(meu_session *s, const double *x, double *xa, size_t nx)
{
    if (!nx || !meu_ok(meu_st(s, fmuc_inst_get_continuous_states(s->c, xa, nx)))) {
        memcpy(xa, x, nx * sizeof *xa);
        return 1;
    }
    for (size_t i = 0; i < nx; i++)
        if (!isfinite(xa[i]))
            xa[i] = x[i];
    return memcmp(x, xa, nx * sizeof *xa) == 0;
}

/* Same sign of every event indicator (the points are in one continuous region). */
static int same_region(const double *z0, const double *z, size_t ni)
{
    for (size_t j = 0; j < ni; j++)
        if ((z0[j] > 0.0) != (z[j] > 0.0))
            return 0;
    return 1;
}

/* At point p (the instance at t, x; f = f(x)): J column by column from directional derivatives
 * with unit seeds e_j, then wᵀJ from fmi3GetAdjointDerivative for a random unit w, compared.
 * Adds the point's record to adjoints. -1 when a call failed (reported; the run ends). */
static int adjoint_at(fmuc_worker_ctx *ctx, meu_session *s, const meu_model *m, int p, double t,
                      const double *x, const double *f, const fmuc_vr *uvr, size_t nu,
                      const fmuc_vr *kvr, size_t nk, uint64_t *rng, double *jdd, double *e,
                      double *w, double *adj, double *wj, cJSON *adjoints, size_t *evaluated,
                      double *worst)
{
    size_t nx = m->nx;
    char sb[32], vb[512], xb[160];
    int st = FMUC_STATUS_OK;
    for (size_t j = 0; j < nx && meu_ok(st); j++) {
        for (size_t k = 0; k < nx; k++)
            e[k] = k == j ? 1.0 : 0.0;
        st = meu_st(s, fmuc_inst_get_directional_derivative(s->c, uvr, nu, kvr, nk, e, nx,
                                                            jdd + j * nx, nx));
    }
    if (!meu_ok(st)) {
        meu_violation(ctx, "point %d: %s with a unit seed returned %s (the Jacobian for the "
                           "adjoint comparison)",
                      p, dd_fn(m->ver), meu_status(st, sb, sizeof sb));
        return -1;
    }
    double wn = 0.0;
    while (!(wn > 1e-3)) {
        for (size_t i = 0; i < nx; i++)
            w[i] = 2.0 * meu_rand(rng) - 1.0;
        wn = norm2(w, nx);
    }
    for (size_t i = 0; i < nx; i++)
        w[i] /= wn;
    for (size_t j = 0; j < nx; j++) {
        wj[j] = 0.0;
        for (size_t i = 0; i < nx; i++)
            wj[j] += w[i] * jdd[j * nx + i];
        adj[j] = NAN;
    }
    st = meu_st(s, fmuc_inst_get_adjoint_derivative(s->c, uvr, nu, kvr, nk, w, nx, adj, nx));
    cJSON *pt = cJSON_CreateObject();
    cJSON_AddNumberToObject(pt, "point", p);
    cJSON_AddNumberToObject(pt, "t", t);
    cJSON_AddItemToArray(adjoints, pt);
    if (!meu_ok(st)) {
        meu_violation(ctx, "providesAdjointDerivatives=\"true\" but fmi3GetAdjointDerivative("
                           "unknowns = %zu derivatives, knowns = %zu states) returned %s at "
                           "point %d",
                      nx, nx, st == FMUC_STATUS_NOT_PROVIDED ? "not provided"
                                                             : meu_status(st, sb, sizeof sb),
                      p);
        cJSON_AddNullToObject(pt, "eps_adj");
        return -1;
    }
    double dn = 0.0;
    size_t jmax = 0;
    for (size_t j = 0; j < nx; j++) {
        dn += (adj[j] - wj[j]) * (adj[j] - wj[j]);
        if (!(fabs(adj[j] - wj[j]) <= fabs(adj[jmax] - wj[jmax])))
            jmax = j;
    }
    dn = sqrt(dn);
    double wjn = norm2(wj, nx), tiny = 1e-4 * norm2(f, nx);
    tiny = tiny > DBL_MIN ? tiny : DBL_MIN;
    double eps = dn / (wjn > tiny ? wjn : tiny);
    if (!isfinite(eps))
        eps = INFINITY;
    (*evaluated)++;
    *worst = eps > *worst ? eps : *worst;
    cJSON_AddNumberToObject(pt, "eps_adj", isfinite(eps) ? eps : 1e300);
    cJSON *a = cJSON_AddArrayToObject(pt, "w");
    for (size_t i = 0; i < nx; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(w[i]));
    a = cJSON_AddArrayToObject(pt, "adjoint");
    for (size_t j = 0; j < nx; j++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(isfinite(adj[j]) ? adj[j] : 0.0));
    a = cJSON_AddArrayToObject(pt, "from_directional");
    for (size_t j = 0; j < nx; j++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(wj[j]));
    if (!(eps <= EPS_DD_MAX))
        meu_violation(ctx, "point %d (t = %.17g, x = %s): fmi3GetAdjointDerivative: ε_adj = %.3g "
                           "> %.0e; largest difference at state %s: wᵀJ = %.17g, wᵀ times the "
                           "Jacobian from %s %.17g",
                      p, t, meu_vec(vb, sizeof vb, x, nx), eps, EPS_DD_MAX,
                      meu_xname(m, jmax, xb, sizeof xb), adj[jmax], dd_fn(m->ver), wj[jmax]);
    return 0;
}

/* Points away from the start state (red-team round 5: a directional derivative wrong only in a
 * region the start's neighbourhood never reaches passed): the states of the ODE x' = f(t, x)
 * from (t0, x0), integrated here with classic RK4 through meu_eval, in steps of the default
 * experiment's stepSize (else a 500th of its span) for at most TRAJ_STEPS steps, ending before
 * the stop time and a time event the initial event iteration announced. The integration stops
 * where an evaluation fails, a value is not finite, a state leaves TRAJ_BOUND x max(|x0|,
 * nominal) or moves by more than TRAJ_STEP_MAX of that in one step (dynamics too fast for the
 * step: a stiff model's explicit integration going unstable), or an event indicator changes its
 * sign from the start's (the FMU's discrete state
 * is that of the start, so the points stay in its continuous region); no event is handled.
 * Writes up to NTRAJ points (times tp, states xp[k * nx]) at the half and at the end of what was
 * integrated (at least 10 steps); returns how many. */
static size_t trajectory_points(meu_session *s, const fmuc_md *md, size_t nx, size_t ni,
                                const double *x0, const double *nom, const double *zs,
                                double *tp, double *xp)
{
    if (nx == 0)
        return 0;
    const fmuc_md_experiment *ex = &md->experiment;
    double span = s->t1 - s->t0, end = s->t1;
    if (s->info.next_event_time_defined && s->info.next_event_time > s->t0 &&
        s->info.next_event_time < end)
        end = s->info.next_event_time;
    double h = ex->present && ex->has_step && ex->step_size > 0.0 ? ex->step_size : span / 500.0;
    if (!(h > 0.0) || !isfinite(h))
        return 0;
    size_t n = (size_t)fmin((double)TRAJ_STEPS, floor((end - s->t0) / h * (1.0 - 1e-9)));
    if (n < 10)
        return 0;
    double *x = calloc(5 * nx + ni + 1, sizeof(double));
    if (!x)
        return 0;
    double *k1 = x + nx, *k2 = k1 + nx, *k3 = k2 + nx, *xt = k3 + nx, *z = xt + nx;
    double *k4 = k1; /* k1 is folded into x before k4 is needed: see below */
    memcpy(x, x0, nx * sizeof *x);
    size_t done = 0, half = 0;
    double t = s->t0, thalf = t;
    double *xhalf = xp; /* the half point is written in place as it passes */
    for (size_t k = 0; k < n; k++) {
        int ok = meu_ok(meu_eval(s, nx, 0, t, x, k1, NULL));
        for (size_t i = 0; ok && i < nx; i++)
            xt[i] = x[i] + 0.5 * h * k1[i];
        ok = ok && meu_ok(meu_eval(s, nx, 0, t + 0.5 * h, xt, k2, NULL));
        for (size_t i = 0; ok && i < nx; i++)
            xt[i] = x[i] + 0.5 * h * k2[i];
        ok = ok && meu_ok(meu_eval(s, nx, 0, t + 0.5 * h, xt, k3, NULL));
        /* x + h/6 (k1 + 2 k2 + 2 k3), then + h/6 k4 */
        for (size_t i = 0; ok && i < nx; i++) {
            double part = x[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i]);
            xt[i] = x[i] + h * k3[i];
            k3[i] = part;
        }
        ok = ok && meu_ok(meu_eval(s, nx, 0, t + h, xt, k4, NULL));
        for (size_t i = 0; ok && i < nx; i++) {
            double xi = k3[i] + h / 6.0 * k4[i];
            double sc = fmax(fabs(x0[i]), isfinite(nom[i]) && nom[i] > 0.0 ? nom[i] : 1.0);
            /* far out, or a step that moves a state by more than TRAJ_STEP_MAX of its scale:
             * dynamics too fast for this step (a stiff FMU's explicit RK4 leaving the physical
             * region, where clamps and tables make f non-smooth) */
            if (!isfinite(xi) || fabs(xi) > TRAJ_BOUND * sc ||
                fabs(xi - x[i]) > TRAJ_STEP_MAX * sc)
                ok = 0;
            xt[i] = xi;
        }
        if (ok && ni) {
            ok = meu_ok(meu_eval(s, nx, ni, t + h, xt, k1, z));
            for (size_t j = 0; ok && j < ni; j++)
                if (!isfinite(z[j]) || (zs[j] > 0.0) != (z[j] > 0.0))
                    ok = 0;
        }
        if (!ok)
            break;
        memcpy(x, xt, nx * sizeof *x);
        t = s->t0 + (double)(k + 1) * h;
        done = k + 1;
        if (done == n / 2) {
            memcpy(xhalf, x, nx * sizeof *x);
            thalf = t;
            half = 1;
        }
    }
    size_t np = 0;
    if (done >= 10) {
        if (half && done > n / 2) {
            tp[np++] = thalf;
            memcpy(xp + nx, x, nx * sizeof *x);
            tp[np++] = t;
        } else {
            memcpy(xp, x, nx * sizeof *x);
            tp[np++] = t;
        }
    }
    free(x);
    return np;
}

static int worker(fmuc_worker_ctx *ctx, void *payload)
{
    const dd_job *job = payload;
    const meu_model *m = job->m;
    const fmuc_md *md = &fmuc_worker_fmu(ctx)->md;
    meu_session s;
    char sb[32], vb[512];
    size_t nx = m->nx, ni = m->ni;
    cJSON *reply = fmuc_worker_reply(ctx);
    cJSON *points = cJSON_AddArrayToObject(reply, "points");
    if (meu_start(ctx, md, &s) < 0) {
        meu_end(&s);
        return 0;
    }
    size_t nb = nx + 1, zb = ni + 1;
    double *x0 = calloc(nb, sizeof(double)), *nom = calloc(nb, sizeof(double));
    double *x = calloc(nb, sizeof(double)), *xp = calloc(nb, sizeof(double));
    double *xa = calloc(nb, sizeof(double)), *xb = calloc(nb, sizeof(double));
    double *f = calloc(nb, sizeof(double)), *fp = calloc(nb, sizeof(double));
    double *fm = calloc(nb, sizeof(double)), *fd = calloc(nb, sizeof(double));
    double *jv = calloc(nb, sizeof(double)), *v = calloc(nb, sizeof(double));
    double *z0 = calloc(zb, sizeof(double)), *z = calloc(zb, sizeof(double));
    double *colmax = calloc(nb * nb, sizeof(double)); /* max |∂f_i/∂x_j| over the points */
    double *rowscale = calloc(nb, sizeof(double));
    double *jdd = calloc(nb * nb, sizeof(double)); /* J from unit-seed directional derivatives */
    double *w = calloc(nb, sizeof(double)), *adj = calloc(nb, sizeof(double));
    double *wj = calloc(nb, sizeof(double)), *e = calloc(nb, sizeof(double));
    fmuc_vr *uvr = calloc(nb, sizeof(fmuc_vr)), *kvr = calloc(nb, sizeof(fmuc_vr));
    double *xtraj = NULL; /* the trajectory points' states (trajectory_points) */
    if (!x0 || !nom || !x || !xp || !xa || !xb || !f || !fp || !fm || !fd || !jv || !v || !z0 ||
        !z || !colmax || !rowscale || !jdd || !w || !adj || !wj || !e || !uvr || !kvr) {
        meu_fatal(ctx, "out of memory");
        goto out;
    }
    int st = meu_st(&s, fmuc_inst_get_continuous_states(s.c, x0, nx));
    if (meu_ok(st))
        st = meu_st(&s, fmuc_inst_get_nominals(s.c, nom, nx));
    if (!meu_ok(st)) {
        meu_fatal(ctx, "could not read the start state (%s; see me-state-roundtrip)",
                  meu_status(st, sb, sizeof sb));
        goto out;
    }
    size_t nu = distinct_vrs(m->dxvar, m->dxvr, nx, uvr);
    size_t nk = distinct_vrs(m->xvar, m->xvr, nx, kvr);
    uint64_t rng = SEED;
    size_t evaluated = 0, failed = 0, adj_evaluated = 0, rounded_dirs = 0;
    double worst = 0.0, worst_adj = 0.0;
    cJSON *adjoints = job->adjoint ? cJSON_AddArrayToObject(reply, "adjoint") : NULL;
    /* the points: the start state, NPOINTS - 1 seeded ones around it, and then up to NTRAJ on
     * the trajectory from it (trajectory_points, integrated once those are done) */
    double tp[NTRAJ];
    size_t ntraj = 0;
    int traj_done = 0;
    xtraj = calloc(NTRAJ * nx + 1, sizeof(double));
    for (int p = 0; p < NPOINTS + NTRAJ; p++) {
        if (s.worst >= FMUC_STATUS_ERROR) {
            /* after Error only freeing (or resetting) the instance is allowed (2.0 §2.1.3) */
            meu_note(ctx, "point %d and later: not evaluated, a call returned %s before", p,
                     meu_status(s.worst, sb, sizeof sb));
            break;
        }
        if (p >= NPOINTS && !traj_done) {
            traj_done = 1;
            fmuc_worker_phase(ctx, "trajectory from the start state");
            if (xtraj && meu_ok(meu_eval(&s, nx, ni, s.t0, x0, f, z0)))
                ntraj = trajectory_points(&s, md, nx, ni, x0, nom, z0, tp, xtraj);
            cJSON_AddNumberToObject(reply, "trajectory_points", (double)ntraj);
        }
        if (p >= NPOINTS && (size_t)(p - NPOINTS) >= ntraj)
            break;
        double t = s.t0;
        for (size_t i = 0; i < nx; i++) {
            double sc = isfinite(nom[i]) && nom[i] > 0.0 ? nom[i] : 1.0;
            x[i] = x0[i] + (p == 0 ? 0.0 : 0.1 * sc * (2.0 * meu_rand(&rng) - 1.0));
        }
        if (p >= NPOINTS) {
            t = tp[p - NPOINTS];
            memcpy(x, xtraj + (size_t)(p - NPOINTS) * nx, nx * sizeof *x);
        }
        fmuc_worker_phase(ctx, "point %d", p);
        st = meu_eval(&s, nx, ni, t, x, f, z0);
        if (!meu_ok(st)) {
            meu_note(ctx, "point %d (x = %s): evaluation returned %s; skipped", p,
                     meu_vec(vb, sizeof vb, x, nx), meu_status(st, sb, sizeof sb));
            continue;
        }
        double xinf = 0.0;
        for (size_t i = 0; i < nx; i++)
            xinf = fabs(x[i]) > xinf ? fabs(x[i]) : xinf;
        double delta = 1e-6 * (xinf > 1.0 ? xinf : 1.0);
        double fnorm = norm2(f, nx);
        /* directions */
        for (int d = 0; d < NDIRS; d++) {
            double vn = 0.0;
            while (!(vn > 1e-3)) {
                for (size_t i = 0; i < nx; i++)
                    v[i] = 2.0 * meu_rand(&rng) - 1.0;
                vn = norm2(v, nx);
            }
            for (size_t i = 0; i < nx; i++)
                v[i] /= vn;
            for (size_t i = 0; i < nx; i++)
                xp[i] = x[i] + delta * v[i];
            int s1 = meu_eval(&s, nx, ni, t, xp, fp, z);
            int held = held_states(&s, xp, xa, nx);
            int region = same_region(z0, z, ni);
            for (size_t i = 0; i < nx; i++)
                xp[i] = x[i] - delta * v[i];
            int s2 = meu_eval(&s, nx, ni, t, xp, fm, z);
            held = held_states(&s, xp, xb, nx) && held;
            region = region && same_region(z0, z, ni);
            if (meu_ok(s1) && meu_ok(s2) && !held) {
                /* the FMU keeps the states to fewer digits (me-state-roundtrip warns): the
                 * difference is of the states it held, so J is asked along (xa - xb) / 2δ */
                for (size_t i = 0; i < nx; i++)
                    v[i] = (xa[i] - xb[i]) / (2.0 * delta);
                rounded_dirs++;
            }
            if (!meu_ok(s1) || !meu_ok(s2)) {
                meu_note(ctx, "point %d direction %d: evaluation at x ± δv returned %s; skipped",
                         p, d, meu_status(s1 > s2 ? s1 : s2, sb, sizeof sb));
                continue;
            }
            if (!region) {
                meu_note(ctx, "point %d direction %d: an event indicator changes sign within "
                              "x ± δv (not in one continuous region); skipped", p, d);
                continue;
            }
            for (size_t i = 0; i < nx; i++)
                fd[i] = (fp[i] - fm[i]) / (2.0 * delta);
            /* J·v at x */
            st = meu_eval(&s, nx, ni, t, x, f, z);
            for (size_t i = 0; i < nx; i++)
                jv[i] = NAN;
            if (meu_ok(st))
                st = meu_st(&s, fmuc_inst_get_directional_derivative(s.c, uvr, nu, kvr, nk, v, nx,
                                                                     jv, nx));
            cJSON *pt = cJSON_CreateObject();
            cJSON_AddNumberToObject(pt, "point", p);
            cJSON_AddNumberToObject(pt, "direction", d);
            cJSON_AddNumberToObject(pt, "t", t);
            cJSON *a;
            a = cJSON_AddArrayToObject(pt, "x");
            for (size_t i = 0; i < nx; i++)
                cJSON_AddItemToArray(a, cJSON_CreateNumber(x[i]));
            a = cJSON_AddArrayToObject(pt, "v");
            for (size_t i = 0; i < nx; i++)
                cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
            cJSON_AddNumberToObject(pt, "delta", delta);
            cJSON_AddItemToArray(points, pt);
            if (st == FMUC_STATUS_NOT_PROVIDED || !meu_ok(st)) {
                failed++;
                meu_violation(ctx, "providesDirectionalDerivative%s=\"true\" but "
                                   "%s(unknowns = %zu derivatives, knowns = %zu states) "
                                   "returned %s at point %d",
                              m->ver == 3 ? "s" : "", dd_fn(m->ver), nx, nx,
                              st == FMUC_STATUS_NOT_PROVIDED ? "not provided"
                                                             : meu_status(st, sb, sizeof sb),
                              p);
                cJSON_AddNullToObject(pt, "eps_dd");
                goto out; /* the instance may be in the error state now */
            }
            double dn = 0.0;
            for (size_t i = 0; i < nx; i++)
                dn += (jv[i] - fd[i]) * (jv[i] - fd[i]);
            dn = sqrt(dn);
            double fdn = norm2(fd, nx);
            double tiny = 1e-4 * fnorm > DBL_MIN ? 1e-4 * fnorm : DBL_MIN;
            double eps = dn / (fdn > tiny ? fdn : tiny);
            if (!isfinite(eps))
                eps = INFINITY;
            evaluated++;
            worst = eps > worst ? eps : worst;
            cJSON_AddNumberToObject(pt, "eps_dd", isfinite(eps) ? eps : 1e300);
            a = cJSON_AddArrayToObject(pt, "jv");
            for (size_t i = 0; i < nx; i++)
                cJSON_AddItemToArray(a, cJSON_CreateNumber(isfinite(jv[i]) ? jv[i] : 0.0));
            a = cJSON_AddArrayToObject(pt, "fd");
            for (size_t i = 0; i < nx; i++)
                cJSON_AddItemToArray(a, cJSON_CreateNumber(fd[i]));
            if (!(eps <= EPS_DD_MAX)) {
                size_t imax = 0;
                for (size_t i = 1; i < nx; i++)
                    if (fabs(jv[i] - fd[i]) > fabs(jv[imax] - fd[imax]))
                        imax = i;
                meu_violation(ctx, "point %d direction %d (t = %.17g, x = %s): %s: ε_dd = %.3g > "
                                   "%.0e; largest difference at '%s' (vr %u): J·v = %.17g, "
                                   "central difference %.17g",
                              p, d, t, meu_vec(vb, sizeof vb, x, nx), dd_fn(m->ver), eps,
                              EPS_DD_MAX, meu_name(m->dxvar[imax]), m->dxvr[imax], jv[imax],
                              fd[imax]);
            }
        }
        /* the adjoint at x itself (the directions may have left the instance at x ± δv) */
        if (job->adjoint && meu_ok(meu_eval(&s, nx, ni, t, x, f, z)) &&
            adjoint_at(ctx, &s, m, p, t, x, f, uvr, nu, kvr, nk, &rng, jdd, e, w, adj, wj,
                       adjoints, &adj_evaluated, &worst_adj) < 0)
            goto out; /* the instance may be in the error state now */
        /* column-wise central differences for the dependency structure */
        for (size_t j = 0; j < nx; j++) {
            double dj = 1e-6 * (fabs(x[j]) > 1.0 ? fabs(x[j]) : 1.0);
            memcpy(xp, x, nx * sizeof *x);
            xp[j] = x[j] + dj;
            int s1 = meu_eval(&s, nx, ni, t, xp, fp, z);
            double hi = held_states(&s, xp, xa, nx) ? xp[j] : xa[j];
            int region = same_region(z0, z, ni);
            xp[j] = x[j] - dj;
            int s2 = meu_eval(&s, nx, ni, t, xp, fm, z);
            double lo = held_states(&s, xp, xb, nx) ? xp[j] : xb[j];
            region = region && same_region(z0, z, ni);
            if (!meu_ok(s1) || !meu_ok(s2) || !region || !(hi > lo))
                continue;
            dj = (hi - lo) / 2.0; /* the step of the states the FMU held */
            double sj = fabs(x[j]) > 1.0 ? fabs(x[j]) : 1.0;
            for (size_t i = 0; i < nx; i++) {
                double dij = fabs((fp[i] - fm[i]) / (2.0 * dj));
                if (!isfinite(dij))
                    continue;
                if (dij * sj > colmax[i * nx + j])
                    colmax[i * nx + j] = dij * sj;
                double r = fabs(f[i]) > dij * sj ? fabs(f[i]) : dij * sj;
                rowscale[i] = r > rowscale[i] ? r : rowscale[i];
            }
        }
    }
    /* undeclared non-zero entries (relative to the row's scale, above difference noise) */
    cJSON *undeclared = cJSON_AddArrayToObject(reply, "undeclared");
    for (size_t i = 0; i < nx; i++) {
        for (size_t j = 0; j < nx; j++) {
            if (job->declared[i * nx + j])
                continue;
            double val = colmax[i * nx + j];
            if (!(val > 1e-6 * rowscale[i] + 1e-14))
                continue;
            const fmuc_md_unknown *u = m->dx_unknown[i];
            if (m->ver == 3)
                meu_violation(ctx, "derivative '%s' (vr %u, <ContinuousStateDerivative> line %u) "
                                   "depends on state '%s' (vr %u): |∂f/∂x|·max(1,|x|) = %.3g, "
                                   "but dependencies=\"...\" does not list valueReference %u",
                              meu_name(m->dxvar[i]), m->dxvr[i], u->line, meu_name(m->xvar[j]),
                              m->xvr[j], val, m->xvr[j]);
            else
                meu_violation(ctx, "derivative '%s' (vr %u, <Derivatives> line %u) depends on "
                                   "state '%s' (vr %u, index %u): |∂f/∂x|·max(1,|x|) = %.3g, but "
                                   "dependencies=\"...\" does not list index %u",
                              meu_name(m->dxvar[i]), m->dxvr[i], u->line, meu_name(m->xvar[j]),
                              m->xvr[j], m->x_index[j], val, m->x_index[j]);
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "derivative", meu_name(m->dxvar[i]));
            cJSON_AddStringToObject(o, "state", meu_name(m->xvar[j]));
            cJSON_AddNumberToObject(o, "scaled_partial", val);
            cJSON_AddItemToArray(undeclared, o);
        }
    }
    cJSON_AddNumberToObject(reply, "evaluated", (double)evaluated);
    cJSON_AddNumberToObject(reply, "worst_eps_dd", isfinite(worst) ? worst : 1e300);
    if (job->adjoint) {
        cJSON_AddNumberToObject(reply, "adjoint_evaluated", (double)adj_evaluated);
        cJSON_AddNumberToObject(reply, "worst_eps_adj", isfinite(worst_adj) ? worst_adj : 1e300);
    }
    if (rounded_dirs)
        meu_note(ctx, "%zu direction%s taken along the states the FMU held: it keeps them to "
                      "fewer digits than were set (see me-state-roundtrip), so the central "
                      "difference is of the states read back",
                 rounded_dirs, rounded_dirs == 1 ? "" : "s");
    (void)failed;
out:
    free(xtraj);
    free(x0);
    free(nom);
    free(x);
    free(xp);
    free(xa);
    free(xb);
    free(f);
    free(fp);
    free(fm);
    free(fd);
    free(jv);
    free(v);
    free(z0);
    free(z);
    free(colmax);
    free(rowscale);
    free(jdd);
    free(w);
    free(adj);
    free(wj);
    free(e);
    free(uvr);
    free(kvr);
    meu_end(&s);
    return 0;
}

/* declared[i*nx+j]: <Derivatives> entry i lists state j, or has no dependencies attribute. */
static int build_declared(const meu_model *m, uint8_t **out)
{
    size_t nx = m->nx;
    uint8_t *d = calloc(nx * nx + 1, 1);
    if (!d)
        return -1;
    for (size_t i = 0; i < nx; i++) {
        const fmuc_md_unknown *u = m->dx_unknown[i];
        for (size_t j = 0; j < nx; j++) {
            if (!u->has_deps) {
                d[i * nx + j] = 1;
                continue;
            }
            for (uint32_t k = 0; k < u->ndeps; k++)
                if (u->deps[k] == m->x_index[j])
                    d[i * nx + j] = 1;
        }
    }
    *out = d;
    return 0;
}

static void add_plot(cJSON *ev, const cJSON *points)
{
    cJSON *plots = cJSON_AddArrayToObject(ev, "plots");
    cJSON *pl = cJSON_CreateObject();
    cJSON_AddStringToObject(pl, "title", "directional derivative error per point and direction");
    cJSON_AddStringToObject(pl, "xlabel", "evaluation (point, direction)");
    cJSON_AddStringToObject(pl, "ylabel", "eps_dd");
    cJSON_AddTrueToObject(pl, "logy");
    cJSON *xs = cJSON_AddArrayToObject(pl, "x");
    cJSON *series = cJSON_AddArrayToObject(pl, "series");
    cJSON *s1 = cJSON_CreateObject(), *s2 = cJSON_CreateObject();
    cJSON_AddStringToObject(s1, "name", "eps_dd");
    cJSON_AddStringToObject(s2, "name", "limit 1e-6");
    cJSON *y1 = cJSON_AddArrayToObject(s1, "y"), *y2 = cJSON_AddArrayToObject(s2, "y");
    cJSON_AddItemToArray(series, s1);
    cJSON_AddItemToArray(series, s2);
    int k = 0;
    const cJSON *p;
    cJSON_ArrayForEach(p, points)
    {
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(p, "eps_dd");
        cJSON_AddItemToArray(xs, cJSON_CreateNumber(++k));
        /* an exact agreement (0) is drawn at 1e-17 so it stays visible on the log axis */
        cJSON_AddItemToArray(y1, cJSON_IsNumber(e) ? cJSON_CreateNumber(e->valuedouble > 1e-17 ? e->valuedouble : 1e-17)
                                                   : cJSON_CreateNull());
        cJSON_AddItemToArray(y2, cJSON_CreateNumber(EPS_DD_MAX));
    }
    if (k > 0)
        cJSON_AddItemToArray(plots, pl);
    else
        cJSON_Delete(pl);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    if (md->me.present && !(md->me.caps & (1u << FMUC_CAP_PROVIDES_DIRECTIONAL_DERIVATIVE))) {
        fmuc_result_na(res, md->fmi == 3 ? "providesDirectionalDerivatives is not \"true\" for "
                                           "ModelExchange"
                                         : "providesDirectionalDerivative is not \"true\" for "
                                           "ModelExchange");
        return;
    }
    meu_model m;
    if (meu_applies(s, res, &m) < 0)
        return;
    if (m.nx == 0) {
        fmuc_result_na(res, "no continuous states (<Derivatives> is empty or absent)");
        meu_model_free(&m);
        return;
    }
    dd_job job = {.m = &m,
                  .adjoint = m.ver == 3 && md->me.present &&
                             (md->me.caps & (1u << FMUC_CAP_PROVIDES_ADJOINT_DERIVATIVES))};
    if (build_declared(&m, &job.declared) < 0) {
        fmuc_result_error(res, "out of memory");
        meu_model_free(&m);
        return;
    }
    fmuc_worker_outcome o;
    const cJSON *reply = meu_run(s, res, "me-directional-derivatives", worker, &job, &o);
    if (reply) {
        cJSON *ev = fmuc_result_evidence(res);
        cJSON_AddNumberToObject(ev, "eps_dd_limit", EPS_DD_MAX);
        cJSON_AddStringToObject(ev, "formula",
                                "eps_dd = |Jv - fd|_2 / max(|fd|_2, 1e-4 |f(x)|_2), fd = (f(x+dv) "
                                "- f(x-dv)) / 2d, d = 1e-6 max(1, |x|_inf)");
        const cJSON *pts = cJSON_GetObjectItemCaseSensitive(reply, "points");
        if (job.adjoint)
            cJSON_AddStringToObject(ev, "formula_adjoint",
                                    "eps_adj = |w^T J_adj - w^T J_dd|_2 / max(|w^T J_dd|_2, 1e-4 "
                                    "|f(x)|_2), J_dd columns = directional derivatives along e_j");
        static const char *const keys[] = {"points",        "evaluated",         "worst_eps_dd",
                                           "undeclared",    "adjoint",           "adjoint_evaluated",
                                           "worst_eps_adj", "trajectory_points"};
        meu_evidence_from_reply(res, reply, keys, sizeof keys / sizeof keys[0]);
        add_plot(ev, pts);
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(reply, "worst_eps_dd");
        if (cJSON_IsNumber(w))
            fmuc_result_note(res, "worst ε_dd = %.3g over %d evaluations (limit %.0e)",
                             w->valuedouble,
                             cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(reply, "points")),
                             EPS_DD_MAX);
        const cJSON *wa = cJSON_GetObjectItemCaseSensitive(reply, "worst_eps_adj");
        if (cJSON_IsNumber(wa))
            fmuc_result_note(res, "worst ε_adj (fmi3GetAdjointDerivative) = %.3g over %d points "
                                  "(limit %.0e)",
                             wa->valuedouble,
                             cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(reply, "adjoint")),
                             EPS_DD_MAX);
    }
    fmuc_worker_outcome_free(&o);
    free(job.declared);
    meu_model_free(&m);
}

const fmuc_check fmuc_check_me_directional_derivatives = {
    .id = "me-directional-derivatives",
    .title = "Directional derivatives match finite differences and the declared dependencies",
    .spec = "FMI 2.0.4 §2.1.9, §2.2.8; FMI 3.0.2 §2.2.11, §2.4.8",
    .level = FMUC_LEVEL_MUST,
    .why = "Implicit solvers and masters use fmi2/fmi3GetDirectionalDerivative (and adjoints) for "
           "Jacobians; wrong values slow or break Newton iterations and wrong sparsity misleads "
           "linearisation.",
    .fix = "Compute directional derivatives from the same equations as the derivatives (e.g. "
           "generated code, AD) and check them against finite differences, or drop "
           "providesDirectionalDerivative(s) / providesAdjointDerivatives.",
    .applies = FMUC_APPLIES_ME,
    .versions = FMUC_V2 | FMUC_V3,
    .absent_in_v1 = "FMI 1.0 has no directional derivatives (fmi2GetDirectionalDerivative came with FMI 2.0)",
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX | FMUC_NEEDS_RUN,
    .sessions = 1,
    .run = run,
};
