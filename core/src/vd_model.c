/* VDSim model: L2 (7-DOF double track) and L3 (14-DOF) right-hand sides, RK4 substeps,
 * outputs and the state vector. Everything here is a deterministic function of the model's
 * parameters, its state array and the held command (vehicle-brief §5). */
#include "vd_internal.h"

#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* State layout. Common part first, then the level-specific tail. */
enum { S_X, S_Y, S_PSI, S_VX, S_VY, S_R, S_W0, S_W1, S_W2, S_W3, S_TAIL };
enum { S2_AX = S_TAIL, S2_AY, S2_N };
enum {
    S3_ZS = S_TAIL, S3_PHI, S3_TH, S3_ZSD, S3_PHID, S3_THD,
    S3_ZU0, S3_ZU1, S3_ZU2, S3_ZU3, S3_ZUD0, S3_ZUD1, S3_ZUD2, S3_ZUD3, S3_N
};
_Static_assert(S3_N <= VD_MAX_STATES, "state buffer too small");

static const char *const NAMES_L2[S2_N] = {
    "X", "Y", "psi", "vx", "vy", "r", "omega_FL", "omega_FR", "omega_RL", "omega_RR",
    "ax_lag", "ay_lag"};
static const char *const NAMES_L3[S3_N] = {
    "X", "Y", "psi", "vx", "vy", "r", "omega_FL", "omega_FR", "omega_RL", "omega_RR",
    "z_s", "phi", "theta", "z_s_dot", "phi_dot", "theta_dot",
    "z_u_FL", "z_u_FR", "z_u_RL", "z_u_RR", "z_u_dot_FL", "z_u_dot_FR", "z_u_dot_RL", "z_u_dot_RR"};
static const double NOMINAL_L2[S2_N] = {100, 100, 1, 10, 1, 1, 30, 30, 30, 30, 1, 1};
static const double NOMINAL_L3[S3_N] = {100, 100, 1, 10, 1, 1, 30, 30, 30, 30,
                                        0.01, 0.01, 0.01, 0.1, 0.1, 0.1,
                                        0.01, 0.01, 0.01, 0.01, 0.1, 0.1, 0.1, 0.1};

struct vd_model {
    vd_allocator alloc; /* where this object came from (alloc NULL: calloc) */
    vd_level level;
    size_t nx;
    vd_params p;
    /* derived constants */
    double m, L, m_2L, b_L, a_L, tf2, tr2, k_aero, inv_tau;
    double xw[4], yw[4];
    double mu_w[4];          /* unsprung mass per wheel */
    double Ck[4], Ca[4];     /* linear tire stiffness per wheel */
    double Fs0[4], Fz0[4], defl0[4];
    double karb_t2[2];       /* K_arb / t^2 per axle */
    double Iw_inv, r0;
    /* state, held input, time */
    double x[VD_MAX_STATES];
    double k1[VD_MAX_STATES], k2[VD_MAX_STATES], k3[VD_MAX_STATES], k4[VD_MAX_STATES],
        tmp[VD_MAX_STATES];
    vd_cmd u;
    double t_anchor, dt_last;
    uint64_t n_since_anchor;
};

/** Intermediate quantities of one evaluation of f(x, u), used for outputs. */
typedef struct aux {
    double ax, ay;
    double fz[4];
    double comp[4];
} aux;

/* --- small helpers ------------------------------------------------------------------------ */
static double clampd(double v, double lo, double hi)
{
    if (v > hi)
        return hi;
    if (v < lo)
        return lo;
    return v;
}

static double maxd(double a, double b) { return a > b ? a : b; }

/* Smooth sign: omega / sqrt(omega^2 + eps^2) (odd, sqrt only). */
static double sat(double w, double eps) { return w / sqrt(w * w + eps * eps); }

static double magic(double s, double B, double C, double D, double E)
{
    double bs = B * s;
    return D * sin(C * atan(bs - E * (bs - atan(bs))));
}

/* Road-wheel angles for centre angle d (already limited). */
static void steer_angles(const vd_model *m, double d, double *delta)
{
    if (m->p.ackermann && d != 0.0) {
        double L = m->L, T = tan(d), h = m->tf2 * T;
        delta[0] = atan(L * T / (L - h));
        delta[1] = atan(L * T / (L + h));
    } else {
        delta[0] = d;
        delta[1] = d;
    }
    delta[2] = 0.0;
    delta[3] = 0.0;
}

/* Tire forces in the wheel frame (F_l longitudinal, F_c lateral). */
static void tire(const vd_model *m, int i, double fz, double vl, double vc, double re, double w,
                 double *fl, double *fc)
{
    const vd_params *p = &m->p;
    double den = maxd(fabs(vl), p->v_min);
    if (p->tire_model == VD_TIRE_LINEAR) {
        double kappa = (re * w - vl) / den;
        double alpha = -atan2(vc, den);
        double l = m->Ck[i] * kappa, c = m->Ca[i] * alpha;
        double lim = p->mu * fz;
        double q = l * l + c * c;
        if (q > lim * lim) {
            double sc = lim / sqrt(q);
            l = l * sc;
            c = c * sc;
        }
        *fl = l;
        *fc = c;
        return;
    }
    /* Simplified Magic Formula, combined slip by the similarity method on practical slips:
     * s = |(kappa, tan(alpha))|, force along the slip direction with magnitude MF(s).
     * kappa uses the bounded denominator max(|v_l|, |R_e*omega|, v_min), so kappa is in
     * [-1, 1]: a locked or spinning wheel sits at s = 1 (0.91 of the peak for dry asphalt)
     * instead of s -> infinity, where MF with C near 2 would collapse to sin(C*pi/2)*D. */
    double den_k = maxd(den, fabs(re * w));
    double sx = (re * w - vl) / den_k;
    double sy = -vc / den; /* tan(alpha) with alpha = -atan2(vc, den) */
    double s = sqrt(sx * sx + sy * sy);
    double d = p->mu * fz;
    if (s < 1e-12) {
        *fl = p->Bx * p->Cx * d * sx;
        *fc = p->By * p->Cy * d * sy;
        return;
    }
    *fl = (sx / s) * magic(s, p->Bx, p->Cx, d, p->Ex);
    *fc = (sy / s) * magic(s, p->By, p->Cy, d, p->Ey);
}

/* Planar part shared by L2 and L3: tire forces, body accelerations, pose and wheel spin.
 * fz and re per wheel are inputs; writes dx[S_X..S_W3] and the CG accelerations. */
static void planar(const vd_model *m, const double *x, const double *delta, const double *fz,
                   const double *re, double throttle, double brake, double *dx, double *ax_out,
                   double *ay_out, double *fy_axle)
{
    const vd_params *p = &m->p;
    double vx = x[S_VX], vy = x[S_VY], r = x[S_R], psi = x[S_PSI];
    double fx[4], fy[4];
    double t_drive = throttle * p->drive_torque_max, t_brake = brake * p->brake_torque_max;
    double td[4], tb[4];
    td[0] = td[1] = 0.5 * (p->drive_front_share * t_drive);
    td[2] = td[3] = 0.5 * ((1.0 - p->drive_front_share) * t_drive);
    tb[0] = tb[1] = 0.5 * (p->brake_front_share * t_brake);
    tb[2] = tb[3] = 0.5 * ((1.0 - p->brake_front_share) * t_brake);
    for (int i = 0; i < 4; i++) {
        double vxi = vx - r * m->yw[i];
        double vyi = vy + r * m->xw[i];
        double c = cos(delta[i]), s = sin(delta[i]);
        double vl = vxi * c + vyi * s;
        double vc = -vxi * s + vyi * c;
        double w = x[S_W0 + i];
        double fl, fc;
        tire(m, i, fz[i], vl, vc, re[i], w, &fl, &fc);
        fx[i] = fl * c - fc * s;
        fy[i] = fl * s + fc * c;
        double sw = sat(w, p->omega_eps);
        double torque = (td[i] - tb[i] * sw) - re[i] * fl - p->f_r * re[i] * fz[i] * sw;
        dx[S_W0 + i] = torque * m->Iw_inv;
    }
    double sfx = (fx[0] + fx[1]) + (fx[2] + fx[3]);
    double fyf = fy[0] + fy[1], fyr = fy[2] + fy[3];
    double sfy = fyf + fyr;
    double mz = (p->a * fyf - p->b * fyr) + (m->tf2 * (fx[1] - fx[0]) + m->tr2 * (fx[3] - fx[2]));
    double faero = m->k_aero * vx * fabs(vx);
    double ax = (sfx - faero) / m->m;
    double ay = sfy / m->m;
    dx[S_VX] = ax + r * vy;
    dx[S_VY] = ay - r * vx;
    dx[S_R] = mz / p->Iz;
    double cp = cos(psi), sp = sin(psi);
    dx[S_X] = vx * cp - vy * sp;
    dx[S_Y] = vx * sp + vy * cp;
    dx[S_PSI] = r;
    *ax_out = ax;
    *ay_out = ay;
    fy_axle[0] = fyf;
    fy_axle[1] = fyr;
}

static void eval_l2(const vd_model *m, const double *x, const vd_cmd *u, double *dx, aux *o)
{
    const vd_params *p = &m->p;
    double delta[4], fz[4], re[4];
    double d = clampd(u->steer, -p->steer_max, p->steer_max);
    steer_angles(m, d, delta);
    double axl = x[S2_AX], ayl = x[S2_AY];
    double base_f = m->m_2L * (VD_G * p->b - p->h_cg * axl);
    double base_r = m->m_2L * (VD_G * p->a + p->h_cg * axl);
    double dyf = m->m * p->h_cg * ayl * m->b_L / p->t_f;
    double dyr = m->m * p->h_cg * ayl * m->a_L / p->t_r;
    fz[0] = maxd(0.0, base_f - dyf);
    fz[1] = maxd(0.0, base_f + dyf);
    fz[2] = maxd(0.0, base_r - dyr);
    fz[3] = maxd(0.0, base_r + dyr);
    for (int i = 0; i < 4; i++)
        re[i] = m->r0;
    double ax, ay, fy_axle[2];
    planar(m, x, delta, fz, re, clampd(u->throttle, 0, 1), clampd(u->brake, 0, 1), dx, &ax, &ay,
           fy_axle);
    dx[S2_AX] = (ax - axl) * m->inv_tau;
    dx[S2_AY] = (ay - ayl) * m->inv_tau;
    if (o) {
        o->ax = ax;
        o->ay = ay;
        for (int i = 0; i < 4; i++) {
            o->fz[i] = fz[i];
            o->comp[i] = 0.0;
        }
    }
}

static void eval_l3(const vd_model *m, const double *x, const vd_cmd *u, double *dx, aux *o)
{
    const vd_params *p = &m->p;
    double zs = x[S3_ZS], phi = x[S3_PHI], th = x[S3_TH];
    double zsd = x[S3_ZSD], phid = x[S3_PHID], thd = x[S3_THD];
    double comp[4], compd[4], fz[4], re[4], delta[4], ks[4], cs[4];
    for (int i = 0; i < 4; i++) {
        double zc = (zs - m->xw[i] * th) + m->yw[i] * phi;
        double zcd = (zsd - m->xw[i] * thd) + m->yw[i] * phid;
        double zu = x[S3_ZU0 + i], zud = x[S3_ZUD0 + i];
        comp[i] = zu - zc;
        compd[i] = zud - zcd;
        fz[i] = maxd(0.0, (m->Fz0[i] - p->k_t * zu) - p->c_t * zud);
        re[i] = m->r0 - maxd(0.0, m->defl0[i] - zu);
        ks[i] = i < 2 ? p->k_s_f : p->k_s_r;
        cs[i] = i < 2 ? p->c_s_f : p->c_s_r;
    }
    double d = clampd(u->steer, -p->steer_max, p->steer_max);
    steer_angles(m, d, delta);
    double hrc[2] = {p->h_rc_f, p->h_rc_r};
    for (int ax = 0; ax < 2; ax++) {
        const vd_kin_table *t = &p->kin[ax];
        if (t->n == 0)
            continue;
        int l = 2 * ax, r = 2 * ax + 1;
        /* toe-in positive: a left wheel turns right (-), a right wheel left (+) */
        delta[l] = delta[l] - vd__kin_lookup(t, VD_KIN_TOE, comp[l]);
        delta[r] = delta[r] + vd__kin_lookup(t, VD_KIN_TOE, comp[r]);
        if (t->has[VD_KIN_MR]) {
            for (int k = l; k <= r; k++) {
                double mr = vd__kin_lookup(t, VD_KIN_MR, comp[k]);
                ks[k] = ks[k] * (mr * mr);
                cs[k] = cs[k] * (mr * mr);
            }
        }
        if (t->has[VD_KIN_HRC])
            hrc[ax] = 0.5 * (vd__kin_lookup(t, VD_KIN_HRC, comp[l]) +
                             vd__kin_lookup(t, VD_KIN_HRC, comp[r]));
    }
    double ax, ay, fy_axle[2];
    planar(m, x, delta, fz, re, clampd(u->throttle, 0, 1), clampd(u->brake, 0, 1), dx, &ax, &ay,
           fy_axle);
    /* suspension forces relative to the static preload (upward on the body) */
    double dF[4];
    for (int i = 0; i < 4; i++) {
        int j = i ^ 1, axl = i >> 1;
        dF[i] = (ks[i] * comp[i] + cs[i] * compd[i]) + m->karb_t2[axl] * (comp[i] - comp[j]);
    }
    double h_rc_cg = (hrc[0] * p->b + hrc[1] * p->a) / m->L;
    double h_phi = p->h_cg - h_rc_cg;
    double zsdd = ((dF[0] + dF[1]) + (dF[2] + dF[3])) / p->m_s;
    double mroll = (m->tf2 * (dF[0] - dF[1]) + m->tr2 * (dF[2] - dF[3])) +
                   p->m_s * h_phi * (ay + VD_G * phi);
    double mpitch = (p->b * (dF[2] + dF[3]) - p->a * (dF[0] + dF[1])) - p->m_s * p->h_cg * ax;
    /* Roll-centre (geometric) lateral transfer and unsprung inertia, reacted at the tires:
     * vertical force on the left unsprung mass +G, on the right -G. Longitudinal: unsprung
     * inertia at wheel-centre height. */
    double mu_tot = (m->mu_w[0] + m->mu_w[1]) + (m->mu_w[2] + m->mu_w[3]);
    double gx = mu_tot * ax * m->r0 / (2.0 * m->L);
    double fgeo[4];
    for (int a2 = 0; a2 < 2; a2++) {
        double mu_axle = m->mu_w[2 * a2] + m->mu_w[2 * a2 + 1];
        double fys = fy_axle[a2] - mu_axle * ay;
        double t = a2 == 0 ? p->t_f : p->t_r;
        double g = (fys * hrc[a2] + mu_axle * ay * m->r0) / t;
        double lx = a2 == 0 ? gx : -gx;
        fgeo[2 * a2] = lx + g;
        fgeo[2 * a2 + 1] = lx - g;
    }
    dx[S3_ZS] = zsd;
    dx[S3_PHI] = phid;
    dx[S3_TH] = thd;
    dx[S3_ZSD] = zsdd;
    dx[S3_PHID] = mroll / p->Ix;
    dx[S3_THD] = mpitch / p->Iy;
    for (int i = 0; i < 4; i++) {
        dx[S3_ZU0 + i] = x[S3_ZUD0 + i];
        dx[S3_ZUD0 + i] = (((fz[i] - m->Fz0[i]) - dF[i]) + fgeo[i]) / m->mu_w[i];
    }
    if (o) {
        o->ax = ax;
        o->ay = ay;
        for (int i = 0; i < 4; i++) {
            o->fz[i] = fz[i];
            o->comp[i] = comp[i];
        }
    }
}

static void eval(const vd_model *m, const double *x, const vd_cmd *u, double *dx, aux *o)
{
    if (m->level == VD_L2)
        eval_l2(m, x, u, dx, o);
    else
        eval_l3(m, x, u, dx, o);
}

/* --- lifecycle ---------------------------------------------------------------------------- */
static void derive(vd_model *m)
{
    const vd_params *p = &m->p;
    m->L = p->a + p->b;
    m->mu_w[0] = m->mu_w[1] = p->m_u_f;
    m->mu_w[2] = m->mu_w[3] = p->m_u_r;
    m->m = p->m_s + ((m->mu_w[0] + m->mu_w[1]) + (m->mu_w[2] + m->mu_w[3]));
    m->m_2L = m->m / (2.0 * m->L);
    m->b_L = p->b / m->L;
    m->a_L = p->a / m->L;
    m->tf2 = 0.5 * p->t_f;
    m->tr2 = 0.5 * p->t_r;
    m->k_aero = 0.5 * p->rho * p->cd * p->frontal_area;
    m->inv_tau = 1.0 / p->tau_lag;
    m->xw[0] = m->xw[1] = p->a;
    m->xw[2] = m->xw[3] = -p->b;
    m->yw[0] = m->tf2;
    m->yw[1] = -m->tf2;
    m->yw[2] = m->tr2;
    m->yw[3] = -m->tr2;
    m->Ck[0] = m->Ck[1] = p->C_k_f;
    m->Ck[2] = m->Ck[3] = p->C_k_r;
    m->Ca[0] = m->Ca[1] = p->C_a_f;
    m->Ca[2] = m->Ca[3] = p->C_a_r;
    double fs0f = p->m_s * VD_G * p->b / (2.0 * m->L);
    double fs0r = p->m_s * VD_G * p->a / (2.0 * m->L);
    for (int i = 0; i < 4; i++) {
        m->Fs0[i] = i < 2 ? fs0f : fs0r;
        m->Fz0[i] = m->Fs0[i] + m->mu_w[i] * VD_G;
        m->defl0[i] = m->Fz0[i] / p->k_t;
    }
    m->karb_t2[0] = p->k_arb_f / (p->t_f * p->t_f);
    m->karb_t2[1] = p->k_arb_r / (p->t_r * p->t_r);
    m->Iw_inv = 1.0 / p->Iw;
    m->r0 = p->r0;
}

vd_status vd_create(vd_model **out, vd_level level, const vd_params *p, vd_error *err)
{
    return vd_create_with(out, level, p, NULL, err);
}

vd_status vd_create_with(vd_model **out, vd_level level, const vd_params *p,
                         const vd_allocator *a, vd_error *err)
{
    if (!out)
        return VD_EINVAL;
    *out = NULL;
    if (!p || (level != VD_L2 && level != VD_L3)) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "vd_create: %s",
                     p ? "level must be VD_L2 or VD_L3" : "NULL parameters");
        return VD_EINVAL;
    }
    vd_model *m = a && a->alloc ? a->alloc(a->env, 1, sizeof *m) : calloc(1, sizeof *m);
    if (!m) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "vd_create: out of memory");
        return VD_ENOMEM;
    }
    memset(m, 0, sizeof *m);
    if (a && a->alloc)
        m->alloc = *a;
    m->level = level;
    m->nx = level == VD_L2 ? S2_N : S3_N;
    m->p = *p;
    derive(m);
    vd_init(m);
    *out = m;
    return VD_OK;
}

vd_status vd_model_set_params(vd_model *m, const vd_params *p)
{
    if (!m || !p)
        return VD_EINVAL;
    m->p = *p;
    derive(m);
    return VD_OK;
}

int vd_fp_env_ok(void) { return fegetround() == FE_TONEAREST; }

vd_status vd_init(vd_model *m)
{
    if (!m)
        return VD_EINVAL;
    memset(m->x, 0, sizeof m->x);
    m->x[S_VX] = m->p.vx0;
    for (int i = 0; i < 4; i++) {
        double re = m->level == VD_L2 ? m->r0 : m->r0 - m->defl0[i];
        m->x[S_W0 + i] = m->p.vx0 / re;
    }
    memset(&m->u, 0, sizeof m->u);
    m->t_anchor = 0.0;
    m->dt_last = 0.0;
    m->n_since_anchor = 0;
    return VD_OK;
}

void vd_destroy(vd_model *m)
{
    if (m && m->alloc.alloc) {
        vd_allocator a = m->alloc;
        if (a.release)
            a.release(a.env, m);
    } else {
        free(m);
    }
}

vd_level vd_model_level(const vd_model *m) { return m->level; }

double vd_time(const vd_model *m)
{
    return m->t_anchor + (double)m->n_since_anchor * m->dt_last;
}

void vd_set_time(vd_model *m, double t)
{
    m->t_anchor = t;
    m->n_since_anchor = 0;
}

void vd_set_cmd(vd_model *m, const vd_cmd *u) { m->u = *u; }

void vd_get_cmd(const vd_model *m, vd_cmd *u) { *u = m->u; }

const vd_params *vd_model_params(const vd_model *m) { return &m->p; }

/* --- integration -------------------------------------------------------------------------- */
int vd_substeps(const vd_model *m, double dt)
{
    if (!(dt > 0.0) || !isfinite(dt))
        return -1;
    double r = ceil(dt / m->p.h_max - 1e-9);
    if (!(r <= (double)VD_MAX_SUBSTEPS))
        return -1;
    return r < 1.0 ? 1 : (int)r;
}

static void rk4(vd_model *m, const vd_cmd *u, double h)
{
    size_t n = m->nx;
    double *x = m->x, *t = m->tmp;
    double hh = 0.5 * h, h6 = h / 6.0;
    eval(m, x, u, m->k1, NULL);
    for (size_t i = 0; i < n; i++)
        t[i] = x[i] + hh * m->k1[i];
    eval(m, t, u, m->k2, NULL);
    for (size_t i = 0; i < n; i++)
        t[i] = x[i] + hh * m->k2[i];
    eval(m, t, u, m->k3, NULL);
    for (size_t i = 0; i < n; i++)
        t[i] = x[i] + h * m->k3[i];
    eval(m, t, u, m->k4, NULL);
    for (size_t i = 0; i < n; i++) {
        double v = x[i] + h6 * (((m->k1[i] + 2.0 * m->k2[i]) + 2.0 * m->k3[i]) + m->k4[i]);
        /* deterministic flush of tiny values (keeps the sign), so FTZ/DAZ hosts agree */
        if (fabs(v) < 1e-200)
            v = copysign(0.0, v);
        x[i] = v;
    }
}

vd_status vd_step(vd_model *m, double dt, const vd_cmd *cmd)
{
    if (!m || !cmd || !isfinite(cmd->steer) || !isfinite(cmd->throttle) ||
        !isfinite(cmd->brake))
        return VD_EINVAL;
    int n = vd_substeps(m, dt);
    if (n < 1)
        return VD_EINVAL;
    vd_cmd u = *cmd;
    double h = dt / (double)n;
    for (int k = 0; k < n; k++)
        rk4(m, &u, h);
    m->u = u;
    /* time = anchor + k*dt for runs of equal dt; re-anchored when dt changes */
    if (dt != m->dt_last || m->n_since_anchor == 0) {
        m->t_anchor = vd_time(m);
        m->dt_last = dt;
        m->n_since_anchor = 0;
    }
    m->n_since_anchor++;
    return VD_OK;
}

/* --- outputs and state -------------------------------------------------------------------- */
void vd_outputs_at(const vd_model *m, const double *x, const vd_cmd *u, vd_out *out)
{
    double dx[VD_MAX_STATES];
    aux o;
    eval(m, x, u, dx, &o);
    memset(out, 0, sizeof *out);
    out->x = x[S_X];
    out->y = x[S_Y];
    out->yaw = x[S_PSI];
    out->vx = x[S_VX];
    out->vy = x[S_VY];
    out->yaw_rate = x[S_R];
    out->ax = o.ax;
    out->ay = o.ay;
    if (m->level == VD_L3) {
        out->roll = x[S3_PHI];
        out->pitch = x[S3_TH];
    }
    for (int i = 0; i < 4; i++) {
        out->susp_comp[i] = o.comp[i];
        out->fz[i] = o.fz[i];
    }
}

void vd_outputs(const vd_model *m, vd_out *out) { vd_outputs_at(m, m->x, &m->u, out); }

size_t vd_state_size(const vd_model *m) { return m->nx; }

const char *vd_state_name(const vd_model *m, size_t i)
{
    if (i >= m->nx)
        return NULL;
    return m->level == VD_L2 ? NAMES_L2[i] : NAMES_L3[i];
}

double vd_state_nominal(const vd_model *m, size_t i)
{
    if (i >= m->nx)
        return 1.0;
    return m->level == VD_L2 ? NOMINAL_L2[i] : NOMINAL_L3[i];
}

void vd_state_get(const vd_model *m, double *x) { memcpy(x, m->x, m->nx * sizeof *x); }

void vd_state_set(vd_model *m, const double *x) { memcpy(m->x, x, m->nx * sizeof *x); }

void vd_derivatives(const vd_model *m, const double *x, const vd_cmd *u, double *dx)
{
    eval(m, x, u, dx, NULL);
}
