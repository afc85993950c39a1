/* VDSim internals shared by the core translation units (not installed, not part of the API). */
#ifndef VD_INTERNAL_H
#define VD_INTERNAL_H

#include "vd/vd.h"

#define VD_G 9.81              /* gravity [m/s^2] */
#define VD_KIN_MAX_ROWS 256    /* rows per kinematics table */
#define VD_MAX_STATES 32
#define VD_MAX_SUBSTEPS 10000000

enum { VD_KIN_TOE, VD_KIN_CAMBER, VD_KIN_TRACK, VD_KIN_MR, VD_KIN_HRC, VD_KIN_NCOL };

/** One suspension kinematics table (travel -> toe, camber, optional track change, MR, h_rc). */
typedef struct vd_kin_table {
    int n;                     /* rows; 0 = no table */
    int has[VD_KIN_NCOL];      /* column present */
    double travel[VD_KIN_MAX_ROWS];
    double col[VD_KIN_NCOL][VD_KIN_MAX_ROWS];
} vd_kin_table;

struct vd_params {
    /* mass and inertia */
    double m_s, m_u_f, m_u_r, Ix, Iy, Iz;
    /* geometry */
    double a, b, t_f, t_r, h_cg, h_rc_f, h_rc_r;
    /* wheel / tire vertical */
    double r0, Iw, k_t, c_t;
    /* suspension */
    double k_s_f, k_s_r, c_s_f, c_s_r, k_arb_f, k_arb_r;
    /* driveline and brakes */
    double drive_torque_max, drive_front_share, brake_torque_max, brake_front_share, omega_eps;
    /* resistances */
    double rho, cd, frontal_area, f_r;
    /* steering */
    int ackermann;
    double steer_max;
    /* load transfer lag (L2) */
    double tau_lag;
    /* initial condition */
    double vx0;
    /* solver */
    double h_max, v_min;
    /* tire */
    vd_tire_model tire_model;
    double mu;
    double C_k_f, C_k_r, C_a_f, C_a_r;   /* linear */
    double Bx, Cx, Ex, By, Cy, Ey;       /* simplified Magic Formula */
    /* kinematics (L3, optional): [0] front, [1] rear */
    vd_kin_table kin[2];
};

/** Locale-independent decimal parser (strtod_l with a "C" locale object). Returns 0 on success
 *  with *end after the number; -1 if no number could be parsed. */
int vd__parse_double(const char *s, const char **end, double *out);

/** Interpolate column c of table t at travel d (clamped). */
double vd__kin_lookup(const vd_kin_table *t, int c, double d);

#endif
