/* VDSim core, L2 7-DOF double track: validation cases T1-T8 of the vehicle brief,
 * determinism, substep count and output path. */
#include "test_core_util.h"

/* Set A derived constants (from the parameters, not hard-coded where avoidable). */
typedef struct bike {
    double m, Iz, a, b, L, Cf, Cr, Kus;
} bike;

static bike bike_of(const vd_params *p)
{
    bike k;
    vd_param_get(p, "mass", &k.m);
    k.Iz = 2420;
    k.a = 1.14;
    k.b = 1.40;
    k.L = k.a + k.b;
    k.Cf = 2 * 44000.0;
    k.Cr = 2 * 47000.0;
    k.Kus = (k.m / k.L) * (k.b / k.Cf - k.a / k.Cr);
    return k;
}

static double energy(const vd_model *m)
{
    double x[32];
    vd_state_get(m, x);
    double mass;
    vd_param_get(vd_model_params(m), "mass", &mass);
    double e = 0.5 * mass * (x[3] * x[3] + x[4] * x[4]) + 0.5 * 2420.0 * x[5] * x[5];
    for (int i = 0; i < 4; i++)
        e += 0.5 * 1.0 * x[6 + i] * x[6 + i];
    return e;
}

static void no_losses(vd_params *p)
{
    tc_set(p, "drag_cd", 0);
    tc_set(p, "rolling_resistance", 0);
}

Test(core_l2, state_layout)
{
    vd_params *p = tc_params("\"linear\"");
    vd_model *m = tc_model(VD_L2, p);
    cr_assert_eq(vd_state_size(m), 12);
    cr_assert_eq(vd_model_level(m), VD_L2);
    const char *expect[] = {"X", "Y", "psi", "vx", "vy", "r", "omega_FL", "omega_FR",
                            "omega_RL", "omega_RR", "ax_lag", "ay_lag"};
    for (size_t i = 0; i < 12; i++) {
        cr_assert_str_eq(vd_state_name(m, i), expect[i]);
        cr_assert_gt(vd_state_nominal(m, i), 0.0);
    }
    cr_assert_null(vd_state_name(m, 12));
    double x[12];
    vd_state_get(m, x);
    cr_assert_eq(x[3], 20.0);
    cr_assert_eq(x[6], 20.0 / 0.285);
    vd_destroy(m);
    vd_params_free(p);
}

Test(core_l2, t1_free_roll_invariance)
{
    vd_params *p = tc_params("\"linear\"");
    no_losses(p);
    vd_model *m = tc_model(VD_L2, p);
    double x0[12], x1[12];
    vd_state_get(m, x0);
    vd_cmd u = {0, 0, 0};
    for (int k = 0; k < 500; k++)
        cr_assert_eq(vd_step(m, 0.01, &u), VD_OK);
    vd_state_get(m, x1);
    double re = 0.285, v0 = 20.0;
    if (re * (v0 / re) == v0) {
        for (int i = 0; i < 12; i++) {
            if (i == 0)
                continue; /* X advances */
            cr_assert(tc_same(x0[i], x1[i]), "state %d changed: %a -> %a", i, x0[i], x1[i]);
        }
    } else {
        cr_assert_lt(fabs(x1[3] - x0[3]), 1e-9);
    }
    cr_assert_lt(fabs(x1[0] - 100.0), 1e-9);
    vd_destroy(m);
    vd_params_free(p);
}

static void zero_grip(const char *model)
{
    vd_params *p = tc_params(model);
    no_losses(p);
    tc_set(p, "mu", 0);
    tc_set(p, "vx0", 10);
    vd_model *m = tc_model(VD_L2, p);
    double x[12];
    vd_state_get(m, x);
    x[5] = 0.5;
    vd_state_set(m, x);
    vd_cmd u = {0.05, 0, 0};
    for (int k = 0; k < 1000; k++)
        vd_step(m, 0.01, &u);
    vd_out y;
    vd_outputs(m, &y);
    cr_assert_lt(fabs(y.x - 100.0), 1e-6, "X = %.17g", y.x);
    cr_assert_lt(fabs(y.y), 1e-6, "Y = %.17g", y.y);
    cr_assert_lt(fabs(y.yaw - 5.0), 1e-9, "psi = %.17g", y.yaw);
    cr_assert_eq(y.ax, 0.0);
    cr_assert_eq(y.ay, 0.0);
    vd_destroy(m);
    vd_params_free(p);
}

Test(core_l2, t2_zero_grip_straight_line_linear) { zero_grip("\"linear\""); }
Test(core_l2, t2_zero_grip_straight_line_magic) { zero_grip("\"magic\""); }

Test(core_l2, t3_coast_down_drag_only)
{
    vd_params *p = tc_params("\"linear\"");
    tc_set(p, "rolling_resistance", 0);
    tc_set(p, "vx0", 30);
    vd_model *m = tc_model(VD_L2, p);
    vd_cmd u = {0, 0, 0};
    for (int k = 0; k < 3000; k++)
        vd_step(m, 0.01, &u);
    vd_out y;
    vd_outputs(m, &y);
    double meff = 1720.0 + 4 * 1.0 / (0.285 * 0.285);
    cr_assert_float_eq(meff, 1769.2, 0.1);
    double k = 1.2 * 0.32 * 2.2 / (2 * meff), v0 = 30, t = 30;
    double v = v0 / (1 + k * v0 * t);
    double s = log(1 + k * v0 * t) / k;
    cr_assert_lt(fabs(y.vx - v) / v, 1e-4, "v = %.9g analytic %.9g", y.vx, v);
    cr_assert_lt(fabs(y.x - s) / s, 1e-4, "s = %.9g analytic %.9g", y.x, s);
    /* the wheel inertia matters: the m-only prediction is off by far more than the tolerance */
    double k_m = 1.2 * 0.32 * 2.2 / (2 * 1720.0);
    cr_assert_gt(fabs(y.vx - v0 / (1 + k_m * v0 * t)) / v, 1e-3);
    vd_destroy(m);
    vd_params_free(p);
}

Test(core_l2, t3_coast_down_drag_and_rolling_resistance)
{
    vd_params *p = tc_params("\"linear\"");
    tc_set(p, "vx0", 30);
    vd_model *m = tc_model(VD_L2, p);
    vd_cmd u = {0, 0, 0};
    for (int k = 0; k < 3000; k++)
        vd_step(m, 0.01, &u);
    vd_out y;
    vd_outputs(m, &y);
    double meff = 1720.0 + 4 * 1.0 / (0.285 * 0.285);
    double k = 1.2 * 0.32 * 2.2 / (2 * meff), c = 0.015 * 9.81 * 1720.0 / meff;
    double v0 = 30, t = 30;
    double v = sqrt(c / k) * tan(atan(v0 * sqrt(k / c)) - sqrt(c * k) * t);
    cr_assert_lt(fabs(y.vx - v) / v, 1e-4, "v = %.9g analytic %.9g", y.vx, v);
    vd_destroy(m);
    vd_params_free(p);
}

/* Run at speed v with constant steer under speed hold; returns the final outputs. */
static vd_out steady(double v, double delta, double t_end)
{
    vd_params *p = tc_params("\"linear\"");
    no_losses(p);
    tc_set(p, "vx0", v);
    vd_model *m = tc_model(VD_L2, p);
    int n = (int)(t_end / 0.01 + 0.5);
    for (int k = 0; k < n; k++) {
        vd_cmd u = tc_hold(m, delta, v);
        vd_step(m, 0.01, &u);
    }
    vd_out y;
    vd_outputs(m, &y);
    vd_destroy(m);
    vd_params_free(p);
    return y;
}

static void check_steady(double v, double delta)
{
    vd_params *p = tc_params("\"linear\"");
    bike k = bike_of(p);
    vd_params_free(p);
    cr_assert_float_eq(k.Kus, 2.561e-3, 2e-6);
    vd_out y = steady(v, delta, 8.0);
    double vx = y.vx;
    double gain = vx / (k.L + k.Kus * vx * vx);
    double r_ref = gain * delta;
    cr_assert_lt(fabs(y.yaw_rate - r_ref) / r_ref, 0.005, "v=%g delta=%g r=%.9g ref=%.9g", v,
                 delta, y.yaw_rate, r_ref);
    cr_assert_lt(fabs(y.ay - vx * y.yaw_rate) / y.ay, 1e-3, "ay %.9g vs vx*r %.9g", y.ay,
                 vx * y.yaw_rate);
    double beta_ref = delta * (k.b - k.a * k.m * vx * vx / (k.L * k.Cr)) / (k.L + k.Kus * vx * vx);
    double beta = y.vy / vx;
    cr_assert_lt(fabs(beta - beta_ref) / fabs(beta_ref), 0.01, "beta %.9g ref %.9g", beta,
                 beta_ref);
}

Test(core_l2, t4_steady_cornering_20ms) { check_steady(20, 0.01); }
Test(core_l2, t4_steady_cornering_25ms) { check_steady(25, 0.01); }
Test(core_l2, t4_steady_cornering_25ms_large) { check_steady(25, 0.02); }

Test(core_l2, t4_bicycle_table_values)
{
    vd_params *p = tc_params("\"linear\"");
    bike k = bike_of(p);
    vd_params_free(p);
    cr_assert_float_eq(10 / (k.L + k.Kus * 100), 3.577, 1e-3);
    cr_assert_float_eq(20 / (k.L + k.Kus * 400), 5.611, 1e-3);
    cr_assert_float_eq(25 / (k.L + k.Kus * 625), 6.038, 1e-3);
    cr_assert_float_eq(sqrt(k.L / k.Kus), 31.5, 0.05);
}

/* Linear 2-state bicycle, RK4 with fixed h, constant vx. */
static void bicycle_rhs(const bike *k, double vx, double delta, const double *s, double *ds)
{
    double vy = s[0], r = s[1];
    double fyf = k->Cf * (delta - (vy + k->a * r) / vx);
    double fyr = k->Cr * (-(vy - k->b * r) / vx);
    ds[0] = (fyf + fyr) / k->m - r * vx;
    ds[1] = (k->a * fyf - k->b * fyr) / k->Iz;
}

static void bicycle_step(const bike *k, double vx, double delta, double *s, double h)
{
    double k1[2], k2[2], k3[2], k4[2], t[2];
    bicycle_rhs(k, vx, delta, s, k1);
    for (int i = 0; i < 2; i++)
        t[i] = s[i] + 0.5 * h * k1[i];
    bicycle_rhs(k, vx, delta, t, k2);
    for (int i = 0; i < 2; i++)
        t[i] = s[i] + 0.5 * h * k2[i];
    bicycle_rhs(k, vx, delta, t, k3);
    for (int i = 0; i < 2; i++)
        t[i] = s[i] + h * k3[i];
    bicycle_rhs(k, vx, delta, t, k4);
    for (int i = 0; i < 2; i++)
        s[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
}

Test(core_l2, t6_step_steer)
{
    const double v = 25, delta = 0.01, dt = 0.01;
    vd_params *p = tc_params("\"linear\"");
    no_losses(p);
    tc_set(p, "vx0", v);
    bike k = bike_of(p);
    vd_model *m = tc_model(VD_L2, p);
    double r_ss = delta * v / (k.L + k.Kus * v * v);
    cr_assert_float_eq(r_ss, 0.06038, 1e-5);
    double s[2] = {0, 0}, r_max = 0, dev_max = 0;
    vd_out y;
    for (int n = 0; n < 300; n++) {
        vd_cmd u = tc_hold(m, delta, v);
        vd_step(m, dt, &u);
        for (int j = 0; j < 40; j++)
            bicycle_step(&k, v, delta, s, dt / 40);
        vd_outputs(m, &y);
        if (y.yaw_rate > r_max)
            r_max = y.yaw_rate;
        double dev = fabs(y.yaw_rate - s[1]);
        if (dev > dev_max)
            dev_max = dev;
    }
    cr_assert_lt(fabs(y.yaw_rate - r_ss) / r_ss, 0.005, "r(3) = %.9g", y.yaw_rate);
    double overshoot = (r_max - r_ss) / r_ss;
    cr_assert_lt(overshoot, 0.15, "overshoot %.4g", overshoot);
    cr_assert_gt(overshoot, 0.0, "a zeta<1 response overshoots");
    cr_assert_lt(dev_max / r_ss, 0.02, "max deviation from bicycle %.4g of r_ss", dev_max / r_ss);
    vd_destroy(m);
    vd_params_free(p);
}

static vd_cmd mirror_cmd(int k, double sign)
{
    double t = k * 0.01;
    vd_cmd u = {sign * 0.06 * sin(2 * M_PI * 0.5 * t), 0, 0};
    if (t > 1.0 && t < 2.0)
        u.throttle = 0.4;
    if (t > 3.0 && t < 3.8)
        u.brake = 0.5;
    return u;
}

static void mirror_run(const vd_params *p, vd_level level)
{
    vd_model *a = tc_model(level, p), *b = tc_model(level, p);
    size_t nx = vd_state_size(a);
    for (int k = 0; k < 500; k++) {
        vd_cmd ua = mirror_cmd(k, 1.0), ub = mirror_cmd(k, -1.0);
        vd_step(a, 0.01, &ua);
        vd_step(b, 0.01, &ub);
        vd_out ya, yb;
        vd_outputs(a, &ya);
        vd_outputs(b, &yb);
        cr_assert(tc_same(ya.vx, yb.vx) && tc_same(ya.x, yb.x) && tc_same(ya.ax, yb.ax),
                  "step %d: vx/X/ax differ: %a %a", k, ya.vx, yb.vx);
        cr_assert(tc_neg(ya.vy, yb.vy) && tc_neg(ya.yaw_rate, yb.yaw_rate) && tc_neg(ya.y, yb.y) &&
                      tc_neg(ya.yaw, yb.yaw) && tc_neg(ya.ay, yb.ay),
                  "step %d: vy/r/Y/psi/ay not negated: %a %a", k, ya.vy, yb.vy);
        cr_assert(tc_neg(ya.roll, yb.roll) && tc_same(ya.pitch, yb.pitch), "step %d: roll/pitch", k);
        for (int i = 0; i < 4; i++) {
            cr_assert(tc_same(ya.fz[i], yb.fz[i ^ 1]), "step %d: fz %d", k, i);
            cr_assert(tc_same(ya.susp_comp[i], yb.susp_comp[i ^ 1]), "step %d: comp %d", k, i);
        }
        double xa[32], xb[32];
        vd_state_get(a, xa);
        vd_state_get(b, xb);
        for (int i = 0; i < 4; i++)
            cr_assert(tc_same(xa[6 + i], xb[6 + (i ^ 1)]), "step %d: omega %d", k, i);
        (void)nx;
    }
    vd_out ya;
    vd_outputs(a, &ya);
    cr_assert_gt(fabs(ya.y), 1.0, "the run must actually corner");
    vd_destroy(a);
    vd_destroy(b);
}

Test(core_l2, t7_mirror_symmetry_bitwise_linear)
{
    vd_params *p = tc_params("\"linear\"");
    mirror_run(p, VD_L2);
    vd_params_free(p);
}

Test(core_l2, t7_mirror_symmetry_bitwise_magic_ackermann)
{
    tc_edit ve = {"steering", "ackermann", "true"};
    tc_edit te = {NULL, "model", "\"magic\""};
    vd_params *p = tc_params_edit(&ve, 1, &te, 1);
    mirror_run(p, VD_L2);
    vd_params_free(p);
}

static void energy_passive(const char *model)
{
    vd_params *p = tc_params(model);
    tc_set(p, "drag_cd", 0);
    tc_set(p, "vx0", 25);
    vd_model *m = tc_model(VD_L2, p);
    double e = energy(m), e0 = e;
    for (int k = 0; k < 500; k++) {
        vd_cmd u = {0.08 * sin(2 * M_PI * 0.7 * k * 0.01), 0, 0};
        vd_step(m, 0.01, &u);
        double e1 = energy(m);
        cr_assert_leq(e1, e + 1e-9 * e, "step %d: energy rose %.17g -> %.17g", k, e, e1);
        e = e1;
    }
    cr_assert_lt(e, e0, "tires and rolling resistance dissipate");
    vd_destroy(m);
    vd_params_free(p);
}

Test(core_l2, t8_energy_non_increasing_linear) { energy_passive("\"linear\""); }
Test(core_l2, t8_energy_non_increasing_magic) { energy_passive("\"magic\""); }

Test(core_l2, t8_drive_power_accounts_for_energy_gain)
{
    vd_params *p = tc_params("\"magic\"");
    no_losses(p);
    tc_set(p, "vx0", 10);
    tc_set(p, "drive_front_share", 0.4);
    vd_model *m = tc_model(VD_L2, p);
    double tmax;
    vd_param_get(p, "drive_torque_max", &tmax);
    const double dt = 0.001, thr = 0.3;
    double e = energy(m), w_total = 0;
    double x[32];
    for (int k = 0; k < 2000; k++) {
        vd_state_get(m, x);
        double p0 = thr * tmax * (0.2 * (x[6] + x[7]) + 0.3 * (x[8] + x[9]));
        vd_cmd u = {0.02, thr, 0};
        vd_step(m, dt, &u);
        vd_state_get(m, x);
        double p1 = thr * tmax * (0.2 * (x[6] + x[7]) + 0.3 * (x[8] + x[9]));
        double w = 0.5 * (p0 + p1) * dt;
        double e1 = energy(m);
        cr_assert_leq(e1 - e, w + 1e-7 * e1, "step %d: gain %.9g > work %.9g", k, e1 - e, w);
        w_total += w;
        e = e1;
    }
    double e0 = 0.5 * 1720.0 * 100 + 0.5 * 4 * (10 / 0.285) * (10 / 0.285);
    cr_assert_gt(e - e0, 0.9 * w_total, "most of the drive work becomes kinetic energy");
    vd_destroy(m);
    vd_params_free(p);
}

static void run_scenario(vd_model *m, int k0, int n, double *trace)
{
    for (int k = k0; k < k0 + n; k++) {
        vd_cmd u = mirror_cmd(k, 1.0);
        vd_step(m, 0.01, &u);
        vd_out y;
        vd_outputs(m, &y);
        memcpy(trace + (size_t)(k - k0) * 4, &y, 4 * sizeof(double));
    }
}

static void determinism(vd_level level)
{
    tc_edit te = {NULL, "model", "\"magic\""};
    vd_params *p = tc_params_edit(NULL, 0, &te, 1);
    vd_model *a = tc_model(level, p), *b = tc_model(level, p);
    size_t nx = vd_state_size(a);
    double *ta = calloc(400 * 4, sizeof(double)), *tb = calloc(400 * 4, sizeof(double));
    run_scenario(a, 0, 400, ta);
    run_scenario(b, 0, 400, tb);
    for (int i = 0; i < 1600; i++)
        cr_assert_eq(tc_bits(ta[i]), tc_bits(tb[i]), "same scenario twice differs at %d", i);
    /* save at step 150, run on, restore into a fresh model and redo */
    vd_init(a);
    run_scenario(a, 0, 150, ta);
    double xs[32];
    vd_cmd us;
    vd_state_get(a, xs);
    vd_get_cmd(a, &us);
    run_scenario(a, 150, 250, ta);
    double xe[32];
    vd_state_get(a, xe);
    vd_model *c = tc_model(level, p);
    vd_state_set(c, xs);
    vd_set_cmd(c, &us);
    run_scenario(c, 150, 250, tb);
    for (int i = 0; i < 1000; i++)
        cr_assert_eq(tc_bits(ta[i]), tc_bits(tb[i]), "restored run differs at %d", i);
    double xc[32];
    vd_state_get(c, xc);
    for (size_t i = 0; i < nx; i++)
        cr_assert_eq(tc_bits(xe[i]), tc_bits(xc[i]), "final state %zu differs", i);
    /* vd_derivatives is pure: same input, same bits, regardless of the model's own state */
    double d1[32], d2[32];
    vd_cmd u = {0.03, 0.2, 0.1};
    vd_derivatives(a, xs, &u, d1);
    vd_derivatives(c, xs, &u, d2);
    for (size_t i = 0; i < nx; i++)
        cr_assert_eq(tc_bits(d1[i]), tc_bits(d2[i]));
    free(ta);
    free(tb);
    vd_destroy(a);
    vd_destroy(b);
    vd_destroy(c);
    vd_params_free(p);
}

Test(core_l2, determinism_repeat_and_save_restore) { determinism(VD_L2); }
Test(core_l2, determinism_repeat_and_save_restore_l3) { determinism(VD_L3); }

Test(core_l2, substep_count_robust)
{
    vd_params *p = tc_params("\"linear\"");
    tc_set(p, "h_max", 0.0002);
    vd_model *m = tc_model(VD_L2, p);
    cr_assert_eq(vd_substeps(m, 0.0026), 13, "0.0026/0.0002 = 13.000000000000002 must give 13");
    cr_assert_eq(vd_substeps(m, 0.0013 + 0.0013), 13);
    cr_assert_eq(vd_substeps(m, 0.0002), 1);
    cr_assert_eq(vd_substeps(m, 1e-7), 1);
    cr_assert_eq(vd_substeps(m, 0.00021), 2);
    cr_assert_eq(vd_substeps(m, 0.01), 50);
    cr_assert_eq(vd_substeps(m, 0.0), -1);
    cr_assert_eq(vd_substeps(m, -0.01), -1);
    cr_assert_eq(vd_substeps(m, NAN), -1);
    cr_assert_eq(vd_substeps(m, INFINITY), -1);
    vd_cmd u = {0, 0, 0};
    cr_assert_eq(vd_step(m, 0.0, &u), VD_EINVAL);
    vd_cmd bad = {NAN, 0, 0};
    cr_assert_eq(vd_step(m, 0.01, &bad), VD_EINVAL);
    vd_destroy(m);
    tc_set(p, "h_max", 0.1);
    m = tc_model(VD_L2, p);
    cr_assert_eq(vd_substeps(m, 0.1 + 0.2), 3);
    vd_destroy(m);
    vd_params_free(p);
}

Test(core_l2, time_is_anchor_plus_k_dt)
{
    vd_params *p = tc_params("\"linear\"");
    vd_model *m = tc_model(VD_L2, p);
    vd_cmd u = {0, 0, 0};
    for (int k = 0; k < 1000; k++)
        vd_step(m, 0.001, &u);
    cr_assert_eq(vd_time(m), 1000 * 0.001);
    vd_set_time(m, 5.0);
    for (int k = 0; k < 30; k++)
        vd_step(m, 0.1, &u);
    cr_assert_eq(vd_time(m), 5.0 + 30 * 0.1);
    vd_init(m);
    cr_assert_eq(vd_time(m), 0.0);
    vd_destroy(m);
    vd_params_free(p);
}

Test(core_l2, outputs_from_post_step_state_and_held_input)
{
    vd_params *p = tc_params("\"magic\"");
    vd_model *m = tc_model(VD_L2, p);
    vd_cmd u = {0.05, 0.3, 0};
    for (int k = 0; k < 100; k++)
        vd_step(m, 0.01, &u);
    vd_out y1, y2;
    vd_outputs(m, &y1);
    double x[32], dx[32];
    vd_state_get(m, x);
    vd_outputs_at(m, x, &u, &y2);
    cr_assert_eq(memcmp(&y1, &y2, sizeof y1), 0);
    vd_derivatives(m, x, &u, dx);
    cr_assert_float_eq(y1.ax, dx[3] - x[5] * x[4], 1e-12);
    cr_assert_float_eq(y1.ay, dx[4] + x[5] * x[3], 1e-12);
    double fz = (y1.fz[0] + y1.fz[1]) + (y1.fz[2] + y1.fz[3]);
    cr_assert_float_eq(fz, 1720 * 9.81, 1e-9 * fz, "quasi-static loads sum to m*g");
    cr_assert_gt(y1.fz[1], y1.fz[0], "left turn loads the right wheels");
    vd_destroy(m);
    vd_params_free(p);
}

Test(core_l2, braking_stops_and_standstill_is_well_defined)
{
    vd_params *p = tc_params("\"magic\"");
    vd_model *m = tc_model(VD_L2, p);
    vd_cmd u = {0, 0, 1.0};
    for (int k = 0; k < 800; k++)
        vd_step(m, 0.01, &u);
    vd_out y;
    vd_outputs(m, &y);
    cr_assert_lt(fabs(y.vx), 0.05, "vx = %g", y.vx);
    cr_assert(isfinite(y.ax) && isfinite(y.x));
    cr_assert_gt(y.x, 20.0 * 20.0 / (2 * 0.9 * 9.81 * 1.2), "stopping distance physically bounded");
    /* exactly at rest: all derivatives are finite and the car does not move */
    double x[32] = {0}, dx[32];
    vd_derivatives(m, x, &u, dx);
    for (int i = 0; i < 12; i++)
        cr_assert_eq(dx[i], 0.0, "dx[%d] = %g at rest", i, dx[i]);
    vd_destroy(m);
    vd_params_free(p);
}

/* T5, ISO 4138 method 1: hold R = 40 m (integral steering on the path-curvature error
 * 1/R - r/vx) while the speed ramps slowly; in the linear range delta = L/R + K_us*a_y. */
Test(core_l2, t5_constant_radius)
{
    const double R = 40.0, dt = 0.01, v0 = 5.0, ramp = 0.1, ki = 5.0;
    vd_params *p = tc_params("\"linear\"");
    no_losses(p);
    tc_set(p, "drive_front_share", 0); /* RWD: no drive force on the steered wheels */
    tc_set(p, "vx0", v0);
    bike k = bike_of(p);
    vd_model *m = tc_model(VD_L2, p);
    double delta = k.L / R;
    /* least squares of delta on a_y over 0.5 < a_y < 4 */
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, kappa_err = 0;
    const int n_settle = 500, n_ramp = (int)((sqrt(4.0 * R) - v0) / ramp / dt);
    for (int s = 0; s < n_settle + n_ramp; s++) {
        double v_ref = v0 + (s < n_settle ? 0.0 : ramp * (s - n_settle) * dt);
        vd_cmd u = tc_hold(m, delta, v_ref);
        cr_assert_eq(vd_step(m, dt, &u), VD_OK);
        vd_out y;
        vd_outputs(m, &y);
        double kappa = y.yaw_rate / y.vx;
        if (s >= n_settle && y.ay > 0.5 && y.ay < 4.0) {
            n += 1;
            sx += y.ay;
            sy += delta;
            sxx += y.ay * y.ay;
            sxy += y.ay * delta;
            if (fabs(kappa * R - 1) > kappa_err)
                kappa_err = fabs(kappa * R - 1);
        }
        delta += dt * ki * k.L * (1.0 / R - kappa);
    }
    cr_assert_gt(n, 3000, "enough samples in the linear range (%g)", n);
    double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    double icpt = (sy - slope * sx) / n;
    double e_slope = (slope - k.Kus) / k.Kus, e_icpt = (icpt - k.L / R) / (k.L / R);
    cr_log_info("T5: slope %.6g (K_us %.6g, %+.3f %%), intercept %.6g (L/R %.6g, %+.3f %%), "
                "max |kappa*R - 1| %.3g",
                slope, k.Kus, 100 * e_slope, icpt, k.L / R, 100 * e_icpt, kappa_err);
    cr_assert_lt(kappa_err, 5e-3, "radius held: max |kappa*R - 1| = %g", kappa_err);
    cr_assert_lt(fabs(e_slope), 0.02, "slope %.6g vs K_us %.6g", slope, k.Kus);
    cr_assert_lt(fabs(e_icpt), 0.01, "intercept %.6g vs L/R %.6g", icpt, k.L / R);
    vd_destroy(m);
    vd_params_free(p);
}
