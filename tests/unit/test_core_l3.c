/* VDSim core, L3 14-DOF: static equilibrium (T9), roll gradient (T10), braking pitch (T12),
 * heave frequency (T13), lateral load transfer per axle (T11), mirror symmetry with kinematics
 * tables, and the state layout. */
#include "test_core_util.h"

/* state indices of the L3 layout */
enum { ZS = 10, PHI = 11, TH = 12, ZSD = 13, ZU0 = 16 };

static vd_params *l3_params(const char *model, int kin)
{
    vd_params *p = tc_params(model);
    if (kin) {
        vd_error err = {{0}};
        cr_assert_eq(vd_params_load_kinematics(p, KIN_FRONT, KIN_REAR, &err), VD_OK, "%s",
                     err.msg);
    }
    return p;
}

Test(core_l3, state_layout)
{
    vd_params *p = l3_params("\"linear\"", 0);
    vd_model *m = tc_model(VD_L3, p);
    cr_assert_eq(vd_state_size(m), 24);
    cr_assert_str_eq(vd_state_name(m, ZS), "z_s");
    cr_assert_str_eq(vd_state_name(m, PHI), "phi");
    cr_assert_str_eq(vd_state_name(m, 23), "z_u_dot_RR");
    for (size_t i = 0; i < 24; i++)
        for (size_t j = 0; j < i; j++)
            cr_assert_str_neq(vd_state_name(m, i), vd_state_name(m, j));
    vd_destroy(m);
    vd_params_free(p);
}

static void static_equilibrium(int kin)
{
    vd_params *p = l3_params("\"linear\"", kin);
    tc_set(p, "vx0", 0);
    vd_model *m = tc_model(VD_L3, p);
    vd_out y;
    vd_outputs(m, &y);
    double mg = 1720.0 * 9.81;
    double sum = (y.fz[0] + y.fz[1]) + (y.fz[2] + y.fz[3]);
    cr_assert_lt(fabs(sum - mg) / mg, 1e-9, "sum Fz %.17g vs m*g %.17g", sum, mg);
    cr_assert_float_eq(y.fz[0], 4569.8, 0.05);
    cr_assert_float_eq(y.fz[1], 4569.8, 0.05);
    cr_assert_float_eq(y.fz[2], 3866.8, 0.05);
    cr_assert_float_eq(y.fz[3], 3866.8, 0.05);
    vd_cmd u = {0, 0, 0};
    for (int k = 0; k < 1000; k++)
        vd_step(m, 0.01, &u);
    vd_outputs(m, &y);
    cr_assert_eq(y.roll, 0.0);
    cr_assert_eq(y.pitch, 0.0);
    for (int i = 0; i < 4; i++)
        cr_assert_lt(fabs(y.susp_comp[i]), 1e-9, "susp_comp %d drifted: %g", i, y.susp_comp[i]);
    sum = (y.fz[0] + y.fz[1]) + (y.fz[2] + y.fz[3]);
    cr_assert_lt(fabs(sum - mg) / mg, 1e-9);
    vd_destroy(m);
    vd_params_free(p);
}

Test(core_l3, t9_static_equilibrium) { static_equilibrium(0); }
Test(core_l3, t9_static_equilibrium_with_kinematics) { static_equilibrium(1); }

Test(core_l3, t9_free_rolling_straight_stays_level)
{
    vd_params *p = l3_params("\"magic\"", 1);
    tc_set(p, "drag_cd", 0);
    tc_set(p, "rolling_resistance", 0);
    vd_model *m = tc_model(VD_L3, p);
    vd_cmd u = {0, 0, 0};
    for (int k = 0; k < 500; k++)
        vd_step(m, 0.01, &u);
    vd_out y;
    vd_outputs(m, &y);
    cr_assert_lt(fabs(y.vx - 20.0), 1e-6);
    cr_assert_lt(fabs(y.pitch), 1e-9);
    cr_assert_lt(fabs(y.roll), 1e-12);
    for (int i = 0; i < 4; i++)
        cr_assert_lt(fabs(y.susp_comp[i]), 1e-9);
    vd_destroy(m);
    vd_params_free(p);
}

/* Quasi-steady cornering under speed hold; returns phi/a_y. */
static double roll_gradient(vd_params *p, double v, double delta, vd_out *yo)
{
    tc_set(p, "drag_cd", 0);
    tc_set(p, "rolling_resistance", 0);
    tc_set(p, "vx0", v);
    vd_model *m = tc_model(VD_L3, p);
    for (int k = 0; k < 600; k++) {
        vd_cmd u = tc_hold(m, delta, v);
        vd_step(m, 0.01, &u);
    }
    vd_outputs(m, yo);
    vd_destroy(m);
    return yo->roll / yo->ay;
}

Test(core_l3, t10_roll_gradient_springs_only)
{
    vd_params *p = l3_params("\"linear\"", 0);
    /* the textbook gradient assumes rigid tires: make them (nearly) rigid */
    tc_set(p, "tire_vertical_stiffness", 1e8);
    vd_out y;
    double g = roll_gradient(p, 20, 0.027, &y);
    double ms = 1400, h_phi = 0.75 - (0.10 * 1.40 + 0.15 * 1.14) / 2.54;
    double kf = 35000 * 1.5 * 1.5 / 2, kr = 30000 * 1.5 * 1.5 / 2;
    double ref = ms * h_phi / (kf + kr - ms * 9.81 * h_phi);
    cr_assert_float_eq(h_phi, 0.628, 1e-3);
    cr_assert_float_eq(ref, 0.0136, 1e-4);
    cr_assert_gt(y.ay, 2.5, "a_y = %g", y.ay);
    cr_assert_lt(y.ay, 3.5, "a_y = %g", y.ay);
    cr_assert_gt(y.roll, 0.0, "a left turn rolls the body outward (phi > 0)");
    cr_assert_lt(fabs(g - ref) / ref, 0.05, "roll gradient %.5g vs %.5g", g, ref);
    /* outer (right) wheels loaded, inner unloaded; suspension compressed on the right */
    cr_assert_gt(y.fz[1], y.fz[0]);
    cr_assert_gt(y.fz[3], y.fz[2]);
    cr_assert_gt(y.susp_comp[1], 0.0);
    cr_assert_lt(y.susp_comp[0], 0.0);
    vd_params_free(p);
}

Test(core_l3, t10_compliant_tires_add_roll)
{
    vd_params *p = l3_params("\"linear\"", 0);
    vd_out y;
    double g = roll_gradient(p, 20, 0.027, &y);
    double ref = 0.0136;
    /* series tire roll stiffness (k_t t^2/2 per axle) and roll-centre transfer through the
     * tires make the body roll more than the rigid-tire formula, but not wildly more */
    cr_assert_gt(g, ref);
    cr_assert_lt(g, 1.35 * ref, "gradient %.5g", g);
    vd_params_free(p);
}

Test(core_l3, t12_braking_dives_the_nose)
{
    vd_params *p = l3_params("\"linear\"", 0);
    tc_set(p, "tire_vertical_stiffness", 1e8);
    tc_set(p, "drag_cd", 0);
    tc_set(p, "rolling_resistance", 0);
    vd_model *m = tc_model(VD_L3, p);
    vd_cmd u = {0, 0, 0.4};
    vd_out y;
    for (int k = 0; k < 150; k++)
        vd_step(m, 0.01, &u);
    vd_outputs(m, &y);
    cr_assert_lt(y.ax, -3.0, "ax = %g", y.ax);
    cr_assert_gt(y.pitch, 0.0, "braking pitches nose down");
    double ref = -1400 * 0.75 / (2 * 35000 * 1.14 * 1.14 + 2 * 30000 * 1.40 * 1.40);
    double g = y.pitch / y.ax;
    cr_assert_lt(fabs(g - ref) / fabs(ref), 0.1, "pitch gradient %.5g vs %.5g", g, ref);
    cr_assert_gt(y.fz[0], 4569.8, "front loads up");
    cr_assert_lt(y.fz[2], 3866.8, "rear unloads");
    cr_assert_gt(y.susp_comp[0], 0.0);
    vd_destroy(m);
    vd_params_free(p);
}

Test(core_l3, t13_heave_frequency)
{
    vd_params *p = l3_params("\"linear\"", 0);
    tc_set(p, "vx0", 0);
    vd_model *m = tc_model(VD_L3, p);
    double x[32];
    vd_state_get(m, x);
    x[ZS] = 0.02;
    vd_state_set(m, x);
    vd_cmd u = {0, 0, 0};
    double prev = 0.02, t_cross[4];
    int nc = 0;
    for (int k = 1; k <= 3000 && nc < 4; k++) {
        vd_step(m, 0.001, &u);
        vd_state_get(m, x);
        if ((prev > 0) != (x[ZS] > 0))
            t_cross[nc++] = k * 0.001;
        prev = x[ZS];
    }
    cr_assert_eq(nc, 4, "heave oscillates");
    double period = t_cross[2] - t_cross[0];
    double f = 1.0 / period;
    cr_assert_gt(f, 1.2, "f = %g Hz", f);
    cr_assert_lt(f, 1.8, "f = %g Hz", f);
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

Test(core_l3, t7_mirror_symmetry_bitwise_with_kinematics)
{
    tc_edit ve = {"steering", "ackermann", "true"};
    tc_edit te = {NULL, "model", "\"magic\""};
    vd_params *p = tc_params_edit(&ve, 1, &te, 1);
    vd_error err = {{0}};
    cr_assert_eq(vd_params_load_kinematics(p, KIN_FRONT, KIN_REAR, &err), VD_OK, "%s", err.msg);
    vd_model *a = tc_model(VD_L3, p), *b = tc_model(VD_L3, p);
    /* state map under mirroring: sign (+1 same, -1 negated) and index of the partner */
    int partner[24], sign[24];
    for (int i = 0; i < 24; i++) {
        partner[i] = i;
        sign[i] = 1;
    }
    int neg[] = {1, 2, 4, 5, 11, 14};
    for (size_t i = 0; i < sizeof neg / sizeof neg[0]; i++)
        sign[neg[i]] = -1;
    for (int w = 0; w < 4; w++) {
        partner[6 + w] = 6 + (w ^ 1);
        partner[16 + w] = 16 + (w ^ 1);
        partner[20 + w] = 20 + (w ^ 1);
    }
    for (int k = 0; k < 500; k++) {
        vd_cmd ua = mirror_cmd(k, 1.0), ub = mirror_cmd(k, -1.0);
        vd_step(a, 0.01, &ua);
        vd_step(b, 0.01, &ub);
        double xa[32], xb[32];
        vd_state_get(a, xa);
        vd_state_get(b, xb);
        for (int i = 0; i < 24; i++) {
            double other = xb[partner[i]];
            int ok = sign[i] > 0 ? tc_same(xa[i], other) : tc_neg(xa[i], other);
            cr_assert(ok, "step %d state %s: %a vs %a", k, vd_state_name(a, (size_t)i), xa[i],
                      other);
        }
        vd_out ya, yb;
        vd_outputs(a, &ya);
        vd_outputs(b, &yb);
        cr_assert(tc_same(ya.ax, yb.ax) && tc_neg(ya.ay, yb.ay), "step %d ax/ay", k);
        for (int i = 0; i < 4; i++)
            cr_assert(tc_same(ya.fz[i], yb.fz[i ^ 1]), "step %d fz %d", k, i);
    }
    vd_out y;
    vd_outputs(a, &y);
    cr_assert_gt(fabs(y.y), 1.0);
    vd_destroy(a);
    vd_destroy(b);
    vd_params_free(p);
}

Test(core_l3, kinematics_tables_change_the_response)
{
    vd_params *p0 = l3_params("\"linear\"", 0), *p1 = l3_params("\"linear\"", 1);
    vd_out y0, y1;
    roll_gradient(p0, 20, 0.027, &y0);
    roll_gradient(p1, 20, 0.027, &y1);
    /* front bump toe-out and rear bump toe-in on the loaded side: roll understeer */
    cr_assert_lt(y1.yaw_rate, y0.yaw_rate, "r %g vs %g", y1.yaw_rate, y0.yaw_rate);
    cr_assert_gt(y1.yaw_rate, 0.9 * y0.yaw_rate);
    vd_params_free(p0);
    vd_params_free(p1);
}

Test(core_l3, l2_and_l3_agree_in_gentle_cornering)
{
    vd_params *p = l3_params("\"linear\"", 0);
    tc_set(p, "drag_cd", 0);
    tc_set(p, "rolling_resistance", 0);
    vd_model *m2 = tc_model(VD_L2, p), *m3 = tc_model(VD_L3, p);
    for (int k = 0; k < 400; k++) {
        vd_cmd u2 = tc_hold(m2, 0.01, 20), u3 = tc_hold(m3, 0.01, 20);
        vd_step(m2, 0.01, &u2);
        vd_step(m3, 0.01, &u3);
    }
    vd_out a, b;
    vd_outputs(m2, &a);
    vd_outputs(m3, &b);
    /* linear tires: yaw gain is load-independent; L3 differs through R_e and the roll terms */
    cr_assert_lt(fabs(a.yaw_rate - b.yaw_rate) / a.yaw_rate, 0.02, "%g vs %g", a.yaw_rate,
                 b.yaw_rate);
    vd_destroy(m2);
    vd_destroy(m3);
    vd_params_free(p);
}

/* T11: lateral load transfer per axle in steady cornering, against the elastic (springs),
 * roll-centre and unsprung-inertia terms. dFz is the per-wheel change (Fz_out - Fz_in)/2.
 * Near-rigid tires, as in T10, so the textbook roll stiffness applies. */
Test(core_l3, t11_lateral_load_transfer_per_axle)
{
    vd_params *p = l3_params("\"linear\"", 0);
    tc_set(p, "tire_vertical_stiffness", 1e8);
    vd_out y;
    roll_gradient(p, 20, 0.033, &y);
    cr_assert_gt(y.ay, 3.0, "a_y = %g", y.ay);
    cr_assert_lt(y.ay, 4.0, "a_y = %g", y.ay);
    const double ms = 1400, mu_f = 160, mu_r = 160, r0 = 0.285, g = 9.81;
    const double a = 1.14, b = 1.40, L = a + b, tf = 1.5, tr = 1.5, h = 0.75;
    const double hrf = 0.10, hrr = 0.15;
    double h_phi = h - (hrf * b + hrr * a) / L;
    double kf = 35000 * tf * tf / 2, kr = 30000 * tr * tr / 2;
    double ay = y.ay, den = kf + kr - ms * g * h_phi;
    double unsp_f = mu_f * ay * r0 / tf, unsp_r = mu_r * ay * r0 / tr;
    double ref_f = (ms * ay / tf) * (h_phi * kf / den + (b / L) * hrf) + unsp_f;
    double ref_r = (ms * ay / tr) * (h_phi * kr / den + (a / L) * hrr) + unsp_r;
    double dfz_f = 0.5 * (y.fz[1] - y.fz[0]), dfz_r = 0.5 * (y.fz[3] - y.fz[2]);
    double e_f = (dfz_f - ref_f) / ref_f, e_r = (dfz_r - ref_r) / ref_r;
    /* moment balance: the sprung-mass part of the transfer (without the unsprung term) */
    double m_tot = (dfz_f - unsp_f) * tf + (dfz_r - unsp_r) * tr;
    double m_ref = ms * ay * h + ms * g * h_phi * y.roll;
    double e_m = (m_tot - m_ref) / m_ref;
    cr_log_info("T11: a_y %.4g, dFz_f %.2f ref %.2f (%+.3f %%), dFz_r %.2f ref %.2f (%+.3f %%), "
                "moment %.1f ref %.1f (%+.3f %%)",
                ay, dfz_f, ref_f, 100 * e_f, dfz_r, ref_r, 100 * e_r, m_tot, m_ref, 100 * e_m);
    /* the model splits the roll-centre term by the sprung-mass CG (the axle force minus its
     * unsprung inertia) where the formula uses b/L: 2 % of that term, 0.3 % of the axle
     * transfer. 2 % leaves room for the residual roll transient, not for a wrong term
     * (dropping the roll-centre or unsprung term moves an axle by 7-16 %). */
    cr_assert_lt(fabs(e_f), 0.02, "front transfer %.2f vs %.2f", dfz_f, ref_f);
    cr_assert_lt(fabs(e_r), 0.02, "rear transfer %.2f vs %.2f", dfz_r, ref_r);
    cr_assert_lt(fabs(e_m), 0.01, "moment %.1f vs %.1f", m_tot, m_ref);
    /* the vertical loads still carry the whole weight */
    double sum = (y.fz[0] + y.fz[1]) + (y.fz[2] + y.fz[3]);
    cr_assert_lt(fabs(sum - 1720 * g) / (1720 * g), 1e-3, "sum Fz %.6g", sum);
    vd_params_free(p);
}
