/* Tests of the FMI 3.0 vdsim FMUs (vdsim_l2_fmi3.fmu, vdsim_l3_fmi3.fmu) built on
 * fmi_export/glue/fmi3_glue.c: only the 75 fmi3* symbols exported, bit-exact Co-Simulation and
 * Model Exchange runs against the native core (vd_step; ME driven by an RK4 that mirrors
 * vd_step's substeps) and against the FMI 2.0 vdsim FMU in lockstep, L3's per-wheel outputs as
 * arrays of 4 (nValues), FMU state get/set and serialization, the state machine refusing
 * illegal calls, and the instantiation refusals (wrong instantiationToken, eventModeUsed).
 * The harness does not load FMI 3.0 yet, so the FMUs are unpacked with libzip and their
 * libraries loaded with dlopen here. */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include "fmi3/fmi3.h"
#include "fmi2/fmi2.h"
#include "vd/vd.h"

typedef struct {
    void *h;
#define API3_MEMBER_(ret, name, params, iface) name##TYPE name;
    FMUC_FMI3_FUNCTIONS(API3_MEMBER_)
#undef API3_MEMBER_
} api3;

typedef struct {
    void *h;
#define API2_MEMBER_(ret, name, params, iface) name##TYPE name;
    FMUC_FMI2_FUNCTIONS(API2_MEMBER_)
#undef API2_MEMBER_
} api2;

typedef struct {
    int level;
    char dir[512];    /* unpacked FMI 3.0 FMU */
    char res[1024];   /* resourcePath: native path with a trailing '/' */
    char token[64];   /* instantiationToken */
    api3 A;
    char dir2[512];   /* unpacked FMI 2.0 FMU of the same level */
    char uri2[1024];  /* its fmuResourceLocation */
    char guid2[64];
    api2 B;
} fmus;

static char last_msg[4096];
static int n_log;

static void logger3(fmi3InstanceEnvironment env, fmi3Status st, fmi3String cat, fmi3String msg)
{
    (void)env;
    (void)st;
    (void)cat;
    snprintf(last_msg, sizeof last_msg, "%s", msg);
    n_log++;
}

static void logger2(fmi2ComponentEnvironment env, fmi2String name, fmi2Status st, fmi2String cat,
                    fmi2String msg, ...)
{
    (void)env;
    (void)name;
    (void)st;
    (void)cat;
    va_list ap;
    va_start(ap, msg);
    vsnprintf(last_msg, sizeof last_msg, msg, ap);
    va_end(ap);
}

static const fmi2CallbackFunctions cbs2 = {logger2, calloc, free, NULL, NULL};

/* --- unpacking and loading ------------------------------------------------------------------ */
static void mkdirs(const char *path)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p == '/') {
            *p = 0;
            mkdir(buf, 0755);
            *p = '/';
        }
    }
    mkdir(buf, 0755);
}

static void unpack(const char *zpath, const char *dir)
{
    int zerr = 0;
    zip_t *z = zip_open(zpath, ZIP_RDONLY, &zerr);
    cr_assert(z, "cannot open %s", zpath);
    zip_int64_t n = zip_get_num_entries(z, 0);
    for (zip_int64_t i = 0; i < n; i++) {
        const char *name = zip_get_name(z, (zip_uint64_t)i, 0);
        char out[1024];
        snprintf(out, sizeof out, "%s/%s", dir, name);
        size_t len = strlen(out);
        if (out[len - 1] == '/') {
            mkdirs(out);
            continue;
        }
        char *slash = strrchr(out, '/');
        *slash = 0;
        mkdirs(out);
        *slash = '/';
        zip_file_t *zf = zip_fopen_index(z, (zip_uint64_t)i, 0);
        cr_assert(zf);
        FILE *f = fopen(out, "wb");
        cr_assert(f, "%s: %s", out, strerror(errno));
        char buf[8192];
        zip_int64_t r;
        while ((r = zip_fread(zf, buf, sizeof buf)) > 0)
            fwrite(buf, 1, (size_t)r, f);
        fclose(f);
        zip_fclose(zf);
    }
    zip_close(z);
}

/* The value of attribute `key` (e.g. " instantiationToken=\"") in dir/modelDescription.xml. */
static void xml_attr(const char *dir, const char *key, char *out, size_t n)
{
    char md[1024];
    snprintf(md, sizeof md, "%s/modelDescription.xml", dir);
    FILE *f = fopen(md, "r");
    cr_assert(f, "%s", md);
    static char xml[1 << 17];
    size_t len = fread(xml, 1, sizeof xml - 1, f);
    fclose(f);
    xml[len] = 0;
    const char *g = strstr(xml, key);
    cr_assert(g, "%s: no%s", md, key);
    g += strlen(key);
    size_t gl = strcspn(g, "\"");
    cr_assert(gl < n);
    memcpy(out, g, gl);
    out[gl] = 0;
}

static void *open_lib(const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    cr_assert(h, "dlopen: %s", dlerror());
    return h;
}

static void tmp_dir(char *out, size_t n)
{
    char tmpl[] = "/tmp/fmuc fmi3 XXXXXX";
    cr_assert(mkdtemp(tmpl));
    snprintf(out, n, "%s", tmpl);
}

/* Unpacks and loads the FMI 3.0 FMU z3 (library binaries/x86_64-linux/<id>.so); load_pair also
 * the FMI 2.0 FMU z2 of the same model (binaries/linux64/<id>.so). */
static void load3(fmus *F, const char *z3, const char *id)
{
    char lib[1200];
    tmp_dir(F->dir, sizeof F->dir);
    unpack(z3, F->dir);
    snprintf(F->res, sizeof F->res, "%s/resources/", F->dir);
    snprintf(lib, sizeof lib, "%s/binaries/x86_64-linux/%s.so", F->dir, id);
    F->A.h = open_lib(lib);
#define API3_LOAD_(ret, name, params, iface)                                                       \
    *(void **)&F->A.name = dlsym(F->A.h, #name);                                                   \
    cr_assert(F->A.name, "missing %s", #name);
    FMUC_FMI3_FUNCTIONS(API3_LOAD_)
#undef API3_LOAD_
    xml_attr(F->dir, " instantiationToken=\"", F->token, sizeof F->token);
}

static void load_pair(fmus *F, const char *z3, const char *z2, const char *id)
{
    char lib[1200];
    load3(F, z3, id);
    tmp_dir(F->dir2, sizeof F->dir2);
    unpack(z2, F->dir2);
    snprintf(F->uri2, sizeof F->uri2, "file://%s/resources", F->dir2);
    for (char *p = F->uri2; *p; p++) /* the directory name's space, percent-encoded */
        if (*p == ' ') {
            memmove(p + 3, p + 1, strlen(p + 1) + 1);
            memcpy(p, "%20", 3);
        }
    snprintf(lib, sizeof lib, "%s/binaries/linux64/%s.so", F->dir2, id);
    F->B.h = open_lib(lib);
#define API2_LOAD_(ret, name, params, iface)                                                       \
    *(void **)&F->B.name = dlsym(F->B.h, #name);                                                   \
    cr_assert(F->B.name, "missing %s", #name);
    FMUC_FMI2_FUNCTIONS(API2_LOAD_)
#undef API2_LOAD_
    xml_attr(F->dir2, " guid=\"", F->guid2, sizeof F->guid2);
}

static void load(fmus *F, int level)
{
    char z3[1024], z2[1024], id[32];
    F->level = level;
    snprintf(z3, sizeof z3, FMUC_FMU_DIR "/fmi3/vdsim_l%d_fmi3.fmu", level);
    snprintf(z2, sizeof z2, FMUC_FMU_DIR "/vdsim_l%d.fmu", level);
    snprintf(id, sizeof id, "vdsim_l%d", level);
    load_pair(F, z3, z2, id);
}

static void rm_tree(const char *dir)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    FILE *p = popen(cmd, "r");
    if (p)
        pclose(p);
}

static void unload(fmus *F)
{
    if (F->A.h)
        dlclose(F->A.h);
    if (F->B.h)
        dlclose(F->B.h);
    rm_tree(F->dir);
    if (F->dir2[0])
        rm_tree(F->dir2);
}

/* --- native reference and I/O ---------------------------------------------------------------- */
static vd_model *native(int level)
{
    vd_params *p = NULL;
    vd_model *m = NULL;
    vd_error err = {{0}};
    cr_assert_eq(vd_params_load(&p, FMUC_SOURCE_DIR "/core/configs/vehicle.json",
                                FMUC_SOURCE_DIR "/core/configs/tire.json", &err),
                 VD_OK, "%s", err.msg);
    if (level == 3)
        cr_assert_eq(vd_params_load_kinematics(p, FMUC_SOURCE_DIR "/core/configs/kinematics/front.csv",
                                               FMUC_SOURCE_DIR "/core/configs/kinematics/rear.csv",
                                               &err),
                     VD_OK, "%s", err.msg);
    cr_assert_eq(vd_create(&m, level == 2 ? VD_L2 : VD_L3, p, &err), VD_OK, "%s", err.msg);
    vd_params_free(p);
    return m;
}

#define NOUT 18
/* FMI 3.0: L3's susp_comp (30) and Fz (40) are arrays of 4; FMI 2.0: 30..33, 40..43. */
static const fmi3ValueReference out_vr3[] = {10, 11, 12, 13, 14, 15, 16, 17, 20, 21, 30, 40};
static const fmi2ValueReference out_vr2[NOUT] = {10, 11, 12, 13, 14, 15, 16, 17, 20,
                                                 21, 30, 31, 32, 33, 40, 41, 42, 43};
static size_t nout(int level) { return level == 2 ? 8 : NOUT; }
static size_t nvr3(int level) { return level == 2 ? 8 : 12; }

static void native_out(const vd_out *o, double *v)
{
    const double a[NOUT] = {o->x,           o->y,           o->yaw,          o->vx,
                            o->vy,          o->yaw_rate,    o->ax,           o->ay,
                            o->roll,        o->pitch,       o->susp_comp[0], o->susp_comp[1],
                            o->susp_comp[2], o->susp_comp[3], o->fz[0],       o->fz[1],
                            o->fz[2],       o->fz[3]};
    memcpy(v, a, sizeof a);
}

static void manoeuvre(int k, double dt, vd_cmd *u)
{
    double t = k * dt;
    u->steer = t < 1.0 ? 0.0 : 0.04 * sin(2.0 * M_PI * 0.4 * (t - 1.0));
    u->throttle = t < 6.0 ? 0.35 : 0.0;
    u->brake = t > 9.0 ? 0.3 : 0.0;
}

static void out3(fmus *F, fmi3Instance c, double *v)
{
    cr_assert_eq(F->A.fmi3GetFloat64(c, out_vr3, nvr3(F->level), v, nout(F->level)), fmi3OK,
                 "%s", last_msg);
}

static void out2(fmus *F, fmi2Component c, double *v)
{
    cr_assert_eq(F->B.fmi2GetReal(c, out_vr2, nout(F->level), v), fmi2OK, "%s", last_msg);
}

static void in3(fmus *F, fmi3Instance c, const vd_cmd *u)
{
    const fmi3ValueReference vr[3] = {1, 2, 3};
    const double v[3] = {u->steer, u->throttle, u->brake};
    cr_assert_eq(F->A.fmi3SetFloat64(c, vr, 3, v, 3), fmi3OK, "%s", last_msg);
}

static void in2(fmus *F, fmi2Component c, const vd_cmd *u)
{
    const fmi2ValueReference vr[3] = {1, 2, 3};
    const double v[3] = {u->steer, u->throttle, u->brake};
    cr_assert_eq(F->B.fmi2SetReal(c, vr, 3, v), fmi2OK, "%s", last_msg);
}

static void same(const char *what, int level, int k, const double *a, const double *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp(&a[i], &b[i], sizeof a[i]) != 0) /* bit-identical, not just |d| = 0 */
            cr_assert_fail("L%d %s step %d output %zu: %a vs %a", level, what, k, i, a[i], b[i]);
}

static fmi3Instance cs3(fmus *F)
{
    fmi3Instance c = F->A.fmi3InstantiateCoSimulation("vd3", F->token, F->res, false, false, false,
                                                      false, NULL, 0, NULL, logger3, NULL);
    cr_assert(c, "instantiate: %s", last_msg);
    cr_assert_eq(F->A.fmi3EnterInitializationMode(c, false, 0.0, 0.0, false, 0.0), fmi3OK, "%s",
                 last_msg);
    cr_assert_eq(F->A.fmi3ExitInitializationMode(c), fmi3OK, "%s", last_msg);
    return c;
}

static fmi2Component start2(fmus *F, fmi2Type t)
{
    fmi2Component c = F->B.fmi2Instantiate("vd2", t, F->guid2, F->uri2, &cbs2, 0, 0);
    cr_assert(c, "instantiate (FMI 2.0): %s", last_msg);
    cr_assert_eq(F->B.fmi2SetupExperiment(c, 0, 0, 0.0, 0, 0), fmi2OK);
    cr_assert_eq(F->B.fmi2EnterInitializationMode(c), fmi2OK, "%s", last_msg);
    cr_assert_eq(F->B.fmi2ExitInitializationMode(c), fmi2OK, "%s", last_msg);
    return c;
}

/* --- binary hygiene -------------------------------------------------------------------------- */
static void exports(int level)
{
    char path[256], cmd[512], line[512];
    snprintf(path, sizeof path,
             FMUC_BUILD_DIR "/fmi_export/fmulib/vdsim_l%d_fmi3/vdsim_l%d.so", level, level);
    snprintf(cmd, sizeof cmd, "nm -D --defined-only '%s'", path);
    FILE *p = popen(cmd, "r");
    cr_assert(p);
    int n_fmi3 = 0, n_other = 0;
    while (fgets(line, sizeof line, p)) {
        char addr[64], type[8], name[256];
        if (sscanf(line, "%63s %7s %255s", addr, type, name) != 3)
            continue;
        if (strncmp(name, "fmi3", 4) == 0 && type[0] == 'T')
            n_fmi3++;
        else {
            n_other++;
            cr_log_error("unexpected export %s", name);
        }
    }
    pclose(p);
#define COUNT_(ret, name, params, iface) +1
    cr_expect_eq(n_fmi3, 0 FMUC_FMI3_FUNCTIONS(COUNT_));
#undef COUNT_
    cr_expect_eq(n_fmi3, 75);
    cr_expect_eq(n_other, 0);
}

Test(fmi3_export, l2_exports_the_75_fmi3_functions_only) { exports(2); }
Test(fmi3_export, l3_exports_the_75_fmi3_functions_only) { exports(3); }

/* --- Co-Simulation: native core, FMI 2.0 and FMI 3.0 in lockstep ------------------------------ */
static void cs_round_trip(int level)
{
    fmus F = {0};
    load(&F, level);
    fmi3Instance c = cs3(&F);
    fmi2Component c2 = start2(&F, fmi2CoSimulation);
    vd_model *m = native(level);
    const double dt = 0.01;
    for (int k = 0; k < 1000; k++) {
        vd_cmd u;
        manoeuvre(k, dt, &u);
        in3(&F, c, &u);
        in2(&F, c2, &u);
        fmi3Boolean ev = true, term = true, early = true;
        double last = -1.0;
        cr_assert_eq(F.A.fmi3DoStep(c, k * dt, dt, true, &ev, &term, &early, &last), fmi3OK,
                     "%s", last_msg);
        cr_assert(!ev && !term && !early);
        cr_assert_eq(last, k * dt + dt);
        cr_assert_eq(F.B.fmi2DoStep(c2, k * dt, dt, fmi2True), fmi2OK, "%s", last_msg);
        cr_assert_eq(vd_step(m, dt, &u), VD_OK);
        vd_out o;
        vd_outputs(m, &o);
        double a[NOUT], b[NOUT], b2[NOUT];
        native_out(&o, a);
        out3(&F, c, b);
        out2(&F, c2, b2);
        same("CS native/FMI 3.0", level, k, a, b, nout(level));
        same("CS FMI 2.0/FMI 3.0", level, k, b2, b, nout(level));
    }
    cr_expect_eq(F.A.fmi3Terminate(c), fmi3OK);
    F.A.fmi3FreeInstance(c);
    F.B.fmi2FreeInstance(c2);
    vd_destroy(m);
    unload(&F);
}

Test(fmi3_export, l2_cs_bit_exact_vs_native_and_fmi2) { cs_round_trip(2); }
Test(fmi3_export, l3_cs_bit_exact_vs_native_and_fmi2) { cs_round_trip(3); }

/* --- Model Exchange: the test integrates with the exact stage arithmetic of the core's RK4 ---- */
typedef struct {
    fmus *F;
    fmi3Instance c;
    fmi2Component c2;
    size_t nx;
} me_pair;

/* The same derivative evaluation through both FMUs; they must agree bit for bit. */
static void deriv(me_pair *P, const double *x, double *k)
{
    double k2[64];
    cr_assert_eq(P->F->A.fmi3SetContinuousStates(P->c, x, P->nx), fmi3OK, "%s", last_msg);
    cr_assert_eq(P->F->A.fmi3GetContinuousStateDerivatives(P->c, k, P->nx), fmi3OK, "%s",
                 last_msg);
    cr_assert_eq(P->F->B.fmi2SetContinuousStates(P->c2, x, P->nx), fmi2OK);
    cr_assert_eq(P->F->B.fmi2GetDerivatives(P->c2, k2, P->nx), fmi2OK);
    cr_assert_eq(memcmp(k, k2, P->nx * sizeof k[0]), 0, "derivatives FMI 2.0/3.0 differ");
}

static void me_round_trip(int level)
{
    fmus F = {0};
    load(&F, level);
    fmi3Instance c = F.A.fmi3InstantiateModelExchange("vd3", F.token, F.res, false, false, NULL,
                                                      logger3);
    cr_assert(c, "%s", last_msg);
    cr_assert_eq(F.A.fmi3EnterInitializationMode(c, false, 0.0, 0.0, false, 0.0), fmi3OK, "%s",
                 last_msg);
    cr_assert_eq(F.A.fmi3ExitInitializationMode(c), fmi3OK, "%s", last_msg);
    fmi3Boolean need = true, term = true, nom = true, val = true, def = true;
    double tnext = -1;
    cr_assert_eq(F.A.fmi3UpdateDiscreteStates(c, &need, &term, &nom, &val, &def, &tnext), fmi3OK);
    cr_assert(!need && !term && !def);
    cr_assert_eq(F.A.fmi3EnterContinuousTimeMode(c), fmi3OK);
    fmi2Component c2 = start2(&F, fmi2ModelExchange);
    fmi2EventInfo ei;
    cr_assert_eq(F.B.fmi2NewDiscreteStates(c2, &ei), fmi2OK);
    cr_assert_eq(F.B.fmi2EnterContinuousTimeMode(c2), fmi2OK);

    vd_model *m = native(level);
    size_t nx = vd_state_size(m), nx3 = 0, ni = 99;
    cr_assert_leq(nx, 64);
    cr_assert_eq(F.A.fmi3GetNumberOfContinuousStates(c, &nx3), fmi3OK);
    cr_assert_eq(nx3, nx);
    cr_assert_eq(F.A.fmi3GetNumberOfEventIndicators(c, &ni), fmi3OK);
    cr_assert_eq(ni, 0);
    double x[64], t1[64], k1[64], k2[64], k3[64], k4[64], xn[64];
    cr_assert_eq(F.A.fmi3GetContinuousStates(c, x, nx), fmi3OK);
    vd_state_get(m, xn);
    cr_assert_eq(memcmp(x, xn, nx * sizeof x[0]), 0, "initial states differ");
    me_pair P = {&F, c, c2, nx};
    const double dt = 0.01;
    int n = vd_substeps(m, dt);
    cr_assert_gt(n, 0);
    double h = dt / (double)n, hh = 0.5 * h, h6 = h / 6.0;
    for (int k = 0; k < 1000; k++) {
        vd_cmd u;
        manoeuvre(k, dt, &u);
        in3(&F, c, &u);
        in2(&F, c2, &u);
        for (int s = 0; s < n; s++) {
            deriv(&P, x, k1);
            for (size_t i = 0; i < nx; i++)
                t1[i] = x[i] + hh * k1[i];
            deriv(&P, t1, k2);
            for (size_t i = 0; i < nx; i++)
                t1[i] = x[i] + hh * k2[i];
            deriv(&P, t1, k3);
            for (size_t i = 0; i < nx; i++)
                t1[i] = x[i] + h * k3[i];
            deriv(&P, t1, k4);
            for (size_t i = 0; i < nx; i++) {
                double v = x[i] + h6 * (((k1[i] + 2.0 * k2[i]) + 2.0 * k3[i]) + k4[i]);
                if (fabs(v) < 1e-200)
                    v = copysign(0.0, v);
                x[i] = v;
            }
            double tcur = (double)k * dt + (double)(s + 1) * h;
            cr_assert_eq(F.A.fmi3SetTime(c, tcur), fmi3OK, "%s", last_msg);
            cr_assert_eq(F.A.fmi3SetContinuousStates(c, x, nx), fmi3OK);
            fmi3Boolean ev = true, tm = true;
            cr_assert_eq(F.A.fmi3CompletedIntegratorStep(c, true, &ev, &tm), fmi3OK);
            cr_assert(!ev && !tm);
            cr_assert_eq(F.B.fmi2SetTime(c2, tcur), fmi2OK);
            cr_assert_eq(F.B.fmi2SetContinuousStates(c2, x, nx), fmi2OK);
            fmi2Boolean ev2 = 1, tm2 = 1;
            cr_assert_eq(F.B.fmi2CompletedIntegratorStep(c2, fmi2True, &ev2, &tm2), fmi2OK);
        }
        cr_assert_eq(vd_step(m, dt, &u), VD_OK);
        vd_out o;
        vd_outputs(m, &o);
        double a[NOUT], b[NOUT], b2[NOUT];
        native_out(&o, a);
        out3(&F, c, b);
        out2(&F, c2, b2);
        same("ME native/FMI 3.0", level, k, a, b, nout(level));
        same("ME FMI 2.0/FMI 3.0", level, k, b2, b, nout(level));
    }
    vd_destroy(m);
    F.A.fmi3FreeInstance(c);
    F.B.fmi2FreeInstance(c2);
    unload(&F);
}

Test(fmi3_export, l2_me_bit_exact_vs_native_and_fmi2) { me_round_trip(2); }
Test(fmi3_export, l3_me_bit_exact_vs_native_and_fmi2) { me_round_trip(3); }

/* --- FMU state ------------------------------------------------------------------------------- */
static void run(fmus *F, fmi3Instance c, int k0, int n)
{
    for (int k = k0; k < k0 + n; k++) {
        vd_cmd u;
        manoeuvre(k + 150, 0.01, &u);
        in3(F, c, &u);
        fmi3Boolean ev, term, early;
        double last;
        cr_assert_eq(F->A.fmi3DoStep(c, k * 0.01, 0.01, false, &ev, &term, &early, &last),
                     fmi3OK, "%s", last_msg);
    }
}

static void state_round_trip(int level)
{
    fmus F = {0};
    load(&F, level);
    api3 *A = &F.A;
    fmi3Instance c = cs3(&F);
    run(&F, c, 0, 100);
    fmi3FMUState s = NULL;
    cr_assert_eq(A->fmi3GetFMUState(c, &s), fmi3OK);
    run(&F, c, 100, 100);
    double a[NOUT], b[NOUT];
    out3(&F, c, a);
    cr_assert_eq(A->fmi3SetFMUState(c, s), fmi3OK, "%s", last_msg);
    run(&F, c, 100, 100);
    out3(&F, c, b);
    cr_expect_eq(memcmp(a, b, nout(level) * sizeof a[0]), 0, "get/set FMU state");

    size_t n = 0;
    cr_assert_eq(A->fmi3SerializedFMUStateSize(c, s, &n), fmi3OK);
    fmi3Byte *bytes = malloc(n), *bytes2 = malloc(n);
    cr_assert_eq(A->fmi3SerializeFMUState(c, s, bytes, n), fmi3OK);
    /* a fresh instance that never initialized restores and continues identically */
    fmi3Instance d = A->fmi3InstantiateCoSimulation("vd3b", F.token, F.res, false, false, false,
                                                    false, NULL, 0, NULL, logger3, NULL);
    cr_assert(d);
    fmi3FMUState s2 = NULL;
    cr_assert_eq(A->fmi3DeserializeFMUState(d, bytes, n, &s2), fmi3OK);
    cr_assert_eq(A->fmi3SetFMUState(d, s2), fmi3OK, "%s", last_msg);
    run(&F, d, 100, 100);
    out3(&F, d, b);
    cr_expect_eq(memcmp(a, b, nout(level) * sizeof a[0]), 0, "serialize/deserialize");
    cr_assert_eq(A->fmi3SerializeFMUState(d, s2, bytes2, n), fmi3OK);
    cr_expect_eq(memcmp(bytes, bytes2, n), 0, "serialized bytes differ after a round trip");
    /* a state of a Co-Simulation instance is refused by a Model Exchange instance */
    fmi3Instance me = A->fmi3InstantiateModelExchange("vd3me", F.token, F.res, false, false, NULL,
                                                      logger3);
    cr_assert(me);
    fmi3FMUState s4 = NULL;
    cr_expect_eq(A->fmi3DeserializeFMUState(me, bytes, n, &s4), fmi3Error);
    A->fmi3FreeInstance(me);
    /* corrupt bytes are refused */
    bytes[n / 2] ^= 0x01;
    fmi3FMUState s3 = NULL;
    cr_expect_eq(A->fmi3DeserializeFMUState(d, bytes, n, &s3), fmi3Error);
    free(bytes);
    free(bytes2);
    A->fmi3FreeInstance(d);
    cr_expect_eq(A->fmi3FreeFMUState(c, &s), fmi3OK);
    cr_expect_null(s);
    A->fmi3FreeInstance(c);
    unload(&F);
}

Test(fmi3_export, l2_fmu_state_round_trip) { state_round_trip(2); }
Test(fmi3_export, l3_fmu_state_round_trip) { state_round_trip(3); }

/* --- state machine, arguments, instantiation --------------------------------------------------- */
Test(fmi3_export, illegal_calls_and_arguments_are_refused)
{
    fmus F = {0};
    load(&F, 3);
    api3 *A = &F.A;
    fmi3Boolean ev, term, early;
    double last, v[8] = {0};

    /* fmi3DoStep in Instantiated */
    fmi3Instance c = A->fmi3InstantiateCoSimulation("vd3", F.token, F.res, false, false, false,
                                                    false, NULL, 0, NULL, logger3, NULL);
    cr_assert(c);
    cr_expect_eq(A->fmi3DoStep(c, 0.0, 0.01, false, &ev, &term, &early, &last), fmi3Error);
    /* the error moved the instance to Terminated: initialization is refused now */
    cr_expect_eq(A->fmi3EnterInitializationMode(c, false, 0, 0, false, 0), fmi3Error);
    cr_expect_eq(A->fmi3Reset(c), fmi3OK); /* and Reset brings it back */
    cr_expect_eq(A->fmi3EnterInitializationMode(c, false, 0, 0, false, 0), fmi3OK, "%s",
                 last_msg);
    A->fmi3FreeInstance(c);

    /* a Model Exchange function on a Co-Simulation instance; fmi3EnterEventMode without
     * eventModeUsed */
    c = cs3(&F);
    cr_expect_eq(A->fmi3SetTime(c, 0.5), fmi3Error);
    A->fmi3FreeInstance(c);
    c = cs3(&F);
    cr_expect_eq(A->fmi3EnterEventMode(c), fmi3Error);
    A->fmi3FreeInstance(c);

    /* values: unknown VR, wrong type, wrong nValues, output set, fixed parameter after init */
    fmi3ValueReference vr = 9999;
    c = cs3(&F);
    cr_expect_eq(A->fmi3GetFloat64(c, &vr, 1, v, 1), fmi3Error);
    A->fmi3FreeInstance(c);
    c = cs3(&F);
    vr = 13;
    fmi3Int32 iv = 0;
    cr_expect_eq(A->fmi3GetInt32(c, &vr, 1, &iv, 1), fmi3Error);
    A->fmi3FreeInstance(c);
    c = cs3(&F);
    vr = 30; /* susp_comp: 4 elements */
    cr_expect_eq(A->fmi3GetFloat64(c, &vr, 1, v, 1), fmi3Error);
    A->fmi3FreeInstance(c);
    c = cs3(&F);
    cr_expect_eq(A->fmi3GetFloat64(c, &vr, 1, v, 4), fmi3OK);
    vr = 13;
    v[0] = 3.0;
    cr_expect_eq(A->fmi3SetFloat64(c, &vr, 1, v, 1), fmi3Error);
    A->fmi3FreeInstance(c);
    c = cs3(&F);
    vr = 100;
    cr_expect_eq(A->fmi3SetFloat64(c, &vr, 1, v, 1), fmi3Error);
    A->fmi3FreeInstance(c);

    /* out of range: Discard, and the value is not taken */
    c = cs3(&F);
    const fmi3ValueReference in[2] = {2, 3};
    double vals[2] = {0.5, 7.0}, got[2];
    cr_expect_eq(A->fmi3SetFloat64(c, in, 2, vals, 2), fmi3Discard);
    cr_expect_eq(A->fmi3GetFloat64(c, in, 2, got, 2), fmi3OK);
    cr_expect_eq(got[0], 0.0);
    cr_expect_eq(got[1], 0.0);
    A->fmi3FreeInstance(c);

    /* start values in Instantiated, no model evaluation */
    c = A->fmi3InstantiateModelExchange("vd3", F.token, F.res, false, false, NULL, logger3);
    cr_assert(c);
    vr = 101; /* the second parameter: its start value from the XML */
    cr_expect_eq(A->fmi3GetFloat64(c, &vr, 1, v, 1), fmi3OK);
    cr_expect_eq(A->fmi3DoStep(c, 0.0, 0.01, false, &ev, &term, &early, &last), fmi3Error);
    A->fmi3FreeInstance(c);

    /* per-element dependencies (providesPerElementDependencies="true"): the declared ones, whole
     * variables, kind dependent; after initialization 'vx' (no dependencies attribute) depends on
     * every known in variable order: time, the three inputs, the states */
    c = cs3(&F);
    size_t nd = 0, ed[64], ei[64];
    fmi3ValueReference dv[64];
    fmi3DependencyKind dk[64];
    cr_expect_eq(A->fmi3GetNumberOfVariableDependencies(c, 13, &nd), fmi3OK);
    cr_assert_gt(nd, 4);
    cr_assert_lt(nd, 64);
    cr_expect_eq(A->fmi3GetVariableDependencies(c, 13, ed, dv, ei, dk, nd), fmi3OK);
    cr_expect_eq(ed[0], 1); /* a scalar: element 1 */
    cr_expect_eq(dv[0], 0);
    cr_expect_eq(ei[0], 1);
    cr_expect_eq(dk[0], fmi3Dependent);
    cr_expect_eq(dv[1], 1);
    cr_expect_eq(dv[3], 3);
    /* an array dependent: element index 0, all elements */
    cr_expect_eq(A->fmi3GetNumberOfVariableDependencies(c, 30, &nd), fmi3OK);
    cr_assert_lt(nd, 64);
    cr_expect_eq(A->fmi3GetVariableDependencies(c, 30, ed, dv, ei, dk, nd), fmi3OK);
    cr_expect_eq(ed[0], 0);
    /* a parameter depends on nothing */
    cr_expect_eq(A->fmi3GetNumberOfVariableDependencies(c, 100, &nd), fmi3OK);
    cr_expect_eq(nd, 0);
    /* nDependencies must be the count */
    cr_expect_eq(A->fmi3GetNumberOfVariableDependencies(c, 13, &nd), fmi3OK);
    cr_expect_eq(A->fmi3GetVariableDependencies(c, 13, ed, dv, ei, dk, nd - 1), fmi3Error);
    A->fmi3FreeInstance(c);
    /* before fmi3ExitInitializationMode the initial dependencies: a parameter (initial="exact")
     * is a known there, and an unknown valueReference is refused */
    c = A->fmi3InstantiateModelExchange("vd3", F.token, F.res, false, false, NULL, logger3);
    cr_assert(c);
    cr_expect_eq(A->fmi3GetNumberOfVariableDependencies(c, 13, &nd), fmi3OK);
    cr_assert_lt(nd, 64);
    cr_expect_eq(A->fmi3GetVariableDependencies(c, 13, ed, dv, ei, dk, nd), fmi3OK);
    int has_param = 0;
    for (size_t k = 0; k < nd; k++)
        has_param |= dv[k] == 100;
    cr_expect(has_param);
    cr_expect_eq(A->fmi3GetNumberOfVariableDependencies(c, 9999, &nd), fmi3Error);
    A->fmi3FreeInstance(c);

    A->fmi3FreeInstance(NULL); /* a no-op */
    unload(&F);
}

Test(fmi3_export, instantiation_refusals)
{
    fmus F = {0};
    load(&F, 2);
    api3 *A = &F.A;
    n_log = 0;
    cr_expect_null(A->fmi3InstantiateCoSimulation("vd3", "{not-the-token}", F.res, false, true,
                                                  false, false, NULL, 0, NULL, logger3, NULL));
    cr_expect_gt(n_log, 0); /* the reason is logged when logging is on */
    n_log = 0;
    cr_expect_null(A->fmi3InstantiateModelExchange("vd3", "{not-the-token}", F.res, false, false,
                                                   NULL, logger3));
    cr_expect_eq(n_log, 0); /* loggingOn=false: no logMessage call */
    cr_expect_null(A->fmi3InstantiateModelExchange("vd3", NULL, F.res, false, false, NULL,
                                                   logger3));
    cr_expect_null(A->fmi3InstantiateModelExchange(" ", F.token, F.res, false, false, NULL,
                                                   logger3));
    /* hasEventMode="false": eventModeUsed=true is refused */
    cr_expect_null(A->fmi3InstantiateCoSimulation("vd3", F.token, F.res, false, false, true, false,
                                                  NULL, 0, NULL, logger3, NULL));
    /* no ScheduledExecution interface */
    cr_expect_null(A->fmi3InstantiateScheduledExecution("vd3", F.token, F.res, false, false, NULL,
                                                         logger3, NULL, NULL, NULL));
    cr_expect_str_eq(A->fmi3GetVersion(), "3.0");
    /* a missing resource directory fails initialization with a message naming the file */
    fmi3Instance c = A->fmi3InstantiateCoSimulation("vd3", F.token, NULL, false, true, false,
                                                    false, NULL, 0, NULL, logger3, NULL);
    cr_assert(c);
    cr_expect_eq(A->fmi3EnterInitializationMode(c, false, 0, 0, false, 0), fmi3Error);
    cr_expect(strstr(last_msg, "vehicle.json") != NULL, "message: %s", last_msg);
    A->fmi3FreeInstance(c);
    unload(&F);
}

/* --- the FMI 3.0 BouncingBall (reference_fmus/good/BouncingBall, FMI_VERSIONS 2 and 3) -------- */
#define BB3 FMUC_FMU_DIR "/fmi3/good/BouncingBall.fmu"
#define BB2 FMUC_FMU_DIR "/good/BouncingBall.fmu"

static void bb_get(fmus *F, fmi3Instance c, fmi2Component c2, double *hv3, double *hv2, int *n3,
                   int *n2)
{
    const fmi3ValueReference vr[2] = {1, 3}, vi = 8;
    const fmi2ValueReference vr2[2] = {1, 3}, vi2 = 8;
    fmi3Int32 i3 = -1;
    fmi2Integer i2 = -1;
    cr_assert_eq(F->A.fmi3GetFloat64(c, vr, 2, hv3, 2), fmi3OK, "%s", last_msg);
    cr_assert_eq(F->A.fmi3GetInt32(c, &vi, 1, &i3, 1), fmi3OK, "%s", last_msg);
    cr_assert_eq(F->B.fmi2GetReal(c2, vr2, 2, hv2), fmi2OK);
    cr_assert_eq(F->B.fmi2GetInteger(c2, &vi2, 1, &i2), fmi2OK);
    *n3 = i3;
    *n2 = i2;
}

Test(fmi3_export, bouncing_ball_cs_matches_fmi2)
{
    fmus F = {0};
    load_pair(&F, BB3, BB2, "BouncingBall");
    fmi3Instance c = cs3(&F);
    fmi2Component c2 = start2(&F, fmi2CoSimulation);
    double a[2], b[2];
    int n3 = 0, n2 = 0;
    for (int k = 0; k < 300; k++) {
        fmi3Boolean ev, term, early;
        double last;
        cr_assert_eq(F.A.fmi3DoStep(c, k * 0.01, 0.01, false, &ev, &term, &early, &last), fmi3OK,
                     "%s", last_msg);
        cr_assert_eq(F.B.fmi2DoStep(c2, k * 0.01, 0.01, fmi2True), fmi2OK);
        bb_get(&F, c, c2, a, b, &n3, &n2);
        cr_assert_eq(memcmp(a, b, sizeof a), 0, "step %d: h %a/%a v %a/%a", k, a[0], b[0], a[1],
                     b[1]);
        cr_assert_eq(n3, n2);
    }
    cr_expect_geq(n3, 5, "only %d impacts in 3 s", n3);
    F.A.fmi3FreeInstance(c);
    F.B.fmi2FreeInstance(c2);
    unload(&F);
}

/* ME in lockstep: explicit Euler, an event when the indicator h crosses zero from above; the
 * FMI 3.0 and 2.0 FMUs see the same calls and must agree bit for bit. */
Test(fmi3_export, bouncing_ball_me_events_match_fmi2)
{
    fmus F = {0};
    load_pair(&F, BB3, BB2, "BouncingBall");
    api3 *A = &F.A;
    api2 *B = &F.B;
    fmi3Instance c = A->fmi3InstantiateModelExchange("bb3", F.token, F.res, false, false, NULL,
                                                     logger3);
    cr_assert(c, "%s", last_msg);
    cr_assert_eq(A->fmi3EnterInitializationMode(c, false, 0, 0.0, true, 3.0), fmi3OK);
    cr_assert_eq(A->fmi3ExitInitializationMode(c), fmi3OK);
    fmi3Boolean need, term, nom, val, def;
    double tnext;
    cr_assert_eq(A->fmi3UpdateDiscreteStates(c, &need, &term, &nom, &val, &def, &tnext), fmi3OK);
    cr_assert_eq(A->fmi3EnterContinuousTimeMode(c), fmi3OK);
    cr_expect_eq(A->fmi3UpdateDiscreteStates(c, &need, &term, &nom, &val, &def, &tnext),
                 fmi3Error); /* not in Continuous-Time Mode */
    fmi3FreeInstanceTYPE free3 = A->fmi3FreeInstance;
    free3(c);
    c = A->fmi3InstantiateModelExchange("bb3", F.token, F.res, false, false, NULL, logger3);
    cr_assert_eq(A->fmi3EnterInitializationMode(c, false, 0, 0.0, true, 3.0), fmi3OK);
    cr_assert_eq(A->fmi3ExitInitializationMode(c), fmi3OK);
    cr_assert_eq(A->fmi3UpdateDiscreteStates(c, &need, &term, &nom, &val, &def, &tnext), fmi3OK);
    cr_assert_eq(A->fmi3EnterContinuousTimeMode(c), fmi3OK);
    fmi2Component c2 = start2(&F, fmi2ModelExchange);
    fmi2EventInfo ei;
    cr_assert_eq(B->fmi2NewDiscreteStates(c2, &ei), fmi2OK);
    cr_assert_eq(B->fmi2EnterContinuousTimeMode(c2), fmi2OK);
    size_t ni = 0;
    cr_assert_eq(A->fmi3GetNumberOfEventIndicators(c, &ni), fmi3OK);
    cr_assert_eq(ni, 1);
    double x[2], dx[2], x2[2], dx2[2], z = 0, z2 = 0, zprev = 1.0;
    const double dt = 1e-3;
    int events = 0;
    cr_assert_eq(A->fmi3GetContinuousStates(c, x, 2), fmi3OK);
    for (int k = 1; k <= 3000; k++) {
        cr_assert_eq(A->fmi3GetContinuousStateDerivatives(c, dx, 2), fmi3OK);
        cr_assert_eq(B->fmi2GetDerivatives(c2, dx2, 2), fmi2OK);
        cr_assert_eq(memcmp(dx, dx2, sizeof dx), 0);
        for (int i = 0; i < 2; i++)
            x[i] += dt * dx[i];
        cr_assert_eq(A->fmi3SetTime(c, k * dt), fmi3OK, "%s", last_msg);
        cr_assert_eq(A->fmi3SetContinuousStates(c, x, 2), fmi3OK);
        cr_assert_eq(A->fmi3GetEventIndicators(c, &z, 1), fmi3OK);
        cr_assert_eq(B->fmi2SetTime(c2, k * dt), fmi2OK);
        cr_assert_eq(B->fmi2SetContinuousStates(c2, x, 2), fmi2OK);
        cr_assert_eq(B->fmi2GetEventIndicators(c2, &z2, 1), fmi2OK);
        cr_assert_eq(memcmp(&z, &z2, sizeof z), 0);
        if (zprev > 0.0 && z <= 0.0) {
            events++;
            cr_assert_eq(A->fmi3EnterEventMode(c), fmi3OK);
            do
                cr_assert_eq(A->fmi3UpdateDiscreteStates(c, &need, &term, &nom, &val, &def,
                                                         &tnext),
                             fmi3OK);
            while (need);
            cr_assert(val, "the impact re-initializes the states");
            cr_assert_eq(A->fmi3EnterContinuousTimeMode(c), fmi3OK);
            cr_assert_eq(B->fmi2EnterEventMode(c2), fmi2OK);
            do
                cr_assert_eq(B->fmi2NewDiscreteStates(c2, &ei), fmi2OK);
            while (ei.newDiscreteStatesNeeded);
            cr_assert_eq(B->fmi2EnterContinuousTimeMode(c2), fmi2OK);
            cr_assert_eq(A->fmi3GetContinuousStates(c, x, 2), fmi3OK);
            cr_assert_eq(B->fmi2GetContinuousStates(c2, x2, 2), fmi2OK);
            cr_assert_eq(memcmp(x, x2, sizeof x), 0);
            cr_assert_eq(A->fmi3GetEventIndicators(c, &z, 1), fmi3OK);
        }
        zprev = z;
    }
    double a[2], b[2];
    int n3 = 0, n2 = 0;
    bb_get(&F, c, c2, a, b, &n3, &n2);
    cr_expect_eq(memcmp(a, b, sizeof a), 0);
    cr_expect_eq(n3, n2);
    cr_expect_eq(n3, events);
    cr_expect_geq(events, 5, "only %d impacts in 3 s", events);
    free3(c);
    B->fmi2FreeInstance(c2);
    unload(&F);
}

/* fmi3SetTime (§3.2.1): not in Event Mode; in Continuous-Time Mode not before the last
 * fmi3EnterEventMode nor before the second-last fmi3CompletedIntegratorStep. */
Test(fmi3_export, set_time_bounds)
{
    fmus F = {0};
    load(&F, 2);
    api3 *A = &F.A;
    fmi3Instance c = A->fmi3InstantiateModelExchange("vd3", F.token, F.res, false, false, NULL,
                                                     logger3);
    cr_assert(c);
    cr_assert_eq(A->fmi3EnterInitializationMode(c, false, 0, 0.0, false, 0), fmi3OK);
    cr_assert_eq(A->fmi3ExitInitializationMode(c), fmi3OK);
    fmi3FMUState s = NULL;
    cr_assert_eq(A->fmi3GetFMUState(c, &s), fmi3OK); /* in Event Mode */
    cr_expect_eq(A->fmi3SetTime(c, 0.0), fmi3Error); /* Event Mode */
    cr_assert_eq(A->fmi3SetFMUState(c, s), fmi3OK, "%s", last_msg); /* out of Terminated */
    cr_assert_eq(A->fmi3EnterContinuousTimeMode(c), fmi3OK);
    fmi3Boolean ev, term;
    for (int k = 1; k <= 2; k++) {
        cr_assert_eq(A->fmi3SetTime(c, 0.01 * k), fmi3OK, "%s", last_msg);
        cr_assert_eq(A->fmi3CompletedIntegratorStep(c, false, &ev, &term), fmi3OK);
    }
    cr_expect_eq(A->fmi3SetTime(c, 0.015), fmi3OK, "%s", last_msg); /* >= second-last (0.01) */
    cr_expect_eq(A->fmi3SetTime(c, 0.005), fmi3Error);
    cr_assert_eq(A->fmi3SetFMUState(c, s), fmi3OK, "%s", last_msg);
    cr_assert_eq(A->fmi3EnterContinuousTimeMode(c), fmi3OK);
    cr_assert_eq(A->fmi3SetTime(c, 0.02), fmi3OK);
    cr_assert_eq(A->fmi3EnterEventMode(c), fmi3OK);
    cr_assert_eq(A->fmi3EnterContinuousTimeMode(c), fmi3OK);
    cr_expect_eq(A->fmi3SetTime(c, 0.01), fmi3Error); /* before the last fmi3EnterEventMode */
    A->fmi3FreeFMUState(c, &s);
    A->fmi3FreeInstance(c);
    unload(&F);
}

/* --- structural parameters: LagChain (FMI 3.0 only) ------------------------------------------ */
#define LAG3 FMUC_FMU_DIR "/fmi3/good/LagChain.fmu"
enum { LAG_VR_N = 1, LAG_VR_X = 2, LAG_VR_DER_X = 3, LAG_VR_GAINS = 4, LAG_VR_Y = 7 };

/* Configuration Mode resizes: n = 5 set there, back in Instantiated the arrays have 5 elements,
 * the ME instance 5 continuous states after initialization; x read with nValues 3 is refused
 * naming 'x'. n outside Configuration Mode is refused (fixed structural parameter, §3.2). */
Test(fmi3_export, lag_chain_configuration_mode_resizes)
{
    fmus F = {0};
    load3(&F, LAG3, "LagChain");
    api3 *A = &F.A;
    fmi3Instance c = A->fmi3InstantiateModelExchange("lag", F.token, F.res, false, true, NULL,
                                                     logger3);
    cr_assert(c, "%s", last_msg);
    const fmi3ValueReference vn = LAG_VR_N, vx = LAG_VR_X, vg = LAG_VR_GAINS, vy = LAG_VR_Y;
    size_t nx = 0, nz = 9;
    fmi3UInt64 n = 0;
    cr_expect_eq(A->fmi3GetNumberOfContinuousStates(c, &nx), fmi3OK);
    cr_expect_eq(nx, 3);
    cr_expect_eq(A->fmi3GetUInt64(c, &vn, 1, &n, 1), fmi3OK);
    cr_expect_eq(n, 3);
    cr_assert_eq(A->fmi3EnterConfigurationMode(c), fmi3OK, "%s", last_msg);
    n = 5;
    cr_assert_eq(A->fmi3SetUInt64(c, &vn, 1, &n, 1), fmi3OK, "%s", last_msg);
    n = 17; /* above max: Discard, nothing set */
    cr_expect_eq(A->fmi3SetUInt64(c, &vn, 1, &n, 1), fmi3Discard);
    cr_assert_eq(A->fmi3ExitConfigurationMode(c), fmi3OK, "%s", last_msg);
    cr_expect_eq(A->fmi3GetUInt64(c, &vn, 1, &n, 1), fmi3OK);
    cr_expect_eq(n, 5);
    double g[16] = {0};
    cr_expect_eq(A->fmi3GetFloat64(c, &vg, 1, g, 5), fmi3OK, "%s", last_msg);
    for (int i = 0; i < 5; i++)
        cr_expect_eq(g[i], 1.0, "gains[%d] = %g after the resize (start 1)", i, g[i]);
    for (int i = 0; i < 5; i++)
        g[i] = 1.0 + 0.1 * i;
    cr_expect_eq(A->fmi3SetFloat64(c, &vg, 1, g, 5), fmi3OK, "%s", last_msg);
    cr_assert_eq(A->fmi3EnterInitializationMode(c, false, 0, 0.0, true, 5.0), fmi3OK, "%s",
                 last_msg);
    cr_assert_eq(A->fmi3ExitInitializationMode(c), fmi3OK, "%s", last_msg);
    cr_expect_eq(A->fmi3GetNumberOfContinuousStates(c, &nx), fmi3OK);
    cr_expect_eq(nx, 5);
    cr_expect_eq(A->fmi3GetNumberOfEventIndicators(c, &nz), fmi3OK);
    cr_expect_eq(nz, 0);
    double x[16], dx[16];
    cr_expect_eq(A->fmi3GetFloat64(c, &vx, 1, x, 5), fmi3OK, "%s", last_msg);
    cr_expect_eq(A->fmi3GetContinuousStates(c, x, 5), fmi3OK, "%s", last_msg);
    cr_expect_eq(A->fmi3GetContinuousStateDerivatives(c, dx, 5), fmi3OK, "%s", last_msg);
    /* x = 0, u = 1, tau = 0.5: only the first lag moves, with gains[0] = 1 */
    cr_expect_eq(dx[0], 2.0, "der(x)[0] = %g", dx[0]);
    for (int i = 1; i < 5; i++)
        cr_expect_eq(dx[i], 0.0, "der(x)[%d] = %g", i, dx[i]);
    /* a state vector of the old size and x with its old count: refused, naming x */
    last_msg[0] = '\0';
    cr_expect_eq(A->fmi3GetFloat64(c, &vx, 1, x, 3), fmi3Error);
    cr_expect(strstr(last_msg, "'x' (vr 2, 5)") != NULL, "message: %s", last_msg);
    A->fmi3FreeInstance(c);

    c = A->fmi3InstantiateModelExchange("lag", F.token, F.res, false, true, NULL, logger3);
    cr_assert(c, "%s", last_msg);
    cr_expect_eq(A->fmi3EnterConfigurationMode(c), fmi3OK);
    cr_expect_eq(A->fmi3ExitConfigurationMode(c), fmi3OK);
    cr_expect_eq(A->fmi3GetContinuousStates(c, x, 3), fmi3Error); /* not in Instantiated */
    A->fmi3FreeInstance(c);

    /* n outside Configuration Mode: refused in Instantiated; y after a CS run with n = 2 */
    c = A->fmi3InstantiateCoSimulation("lag", F.token, F.res, false, true, false, false, NULL, 0,
                                       NULL, logger3, NULL);
    cr_assert(c, "%s", last_msg);
    n = 2;
    last_msg[0] = '\0';
    cr_expect_eq(A->fmi3SetUInt64(c, &vn, 1, &n, 1), fmi3Error);
    cr_expect(strstr(last_msg, "'n'") && strstr(last_msg, "Configuration Mode"), "message: %s",
              last_msg);
    A->fmi3FreeInstance(c);
    c = A->fmi3InstantiateCoSimulation("lag", F.token, F.res, false, true, false, false, NULL, 0,
                                       NULL, logger3, NULL);
    cr_assert_eq(A->fmi3EnterConfigurationMode(c), fmi3OK);
    cr_assert_eq(A->fmi3SetUInt64(c, &vn, 1, &n, 1), fmi3OK);
    const fmi3ValueReference vdx = LAG_VR_DER_X;
    cr_expect_eq(A->fmi3SetFloat64(c, &vdx, 1, dx, 2), fmi3Error); /* only structural ones */
    A->fmi3FreeInstance(c);
    c = A->fmi3InstantiateCoSimulation("lag", F.token, F.res, false, true, false, false, NULL, 0,
                                       NULL, logger3, NULL);
    cr_assert_eq(A->fmi3EnterConfigurationMode(c), fmi3OK);
    cr_assert_eq(A->fmi3SetUInt64(c, &vn, 1, &n, 1), fmi3OK);
    cr_assert_eq(A->fmi3ExitConfigurationMode(c), fmi3OK);
    cr_assert_eq(A->fmi3EnterInitializationMode(c, false, 0, 0.0, true, 5.0), fmi3OK);
    cr_assert_eq(A->fmi3ExitInitializationMode(c), fmi3OK);
    for (int k = 0; k < 100; k++) {
        fmi3Boolean ev, term, early;
        double last;
        cr_assert_eq(A->fmi3DoStep(c, k * 0.01, 0.01, false, &ev, &term, &early, &last), fmi3OK,
                     "%s", last_msg);
    }
    double y = 0.0;
    cr_expect_eq(A->fmi3GetFloat64(c, &vy, 1, &y, 1), fmi3OK);
    /* two lags with tau = 0.5 at t = 1: 1 - e^{-2}(1 + 2) */
    cr_expect(fabs(y - (1.0 - exp(-2.0) * 3.0)) < 1e-6, "y(1) = %.9f", y);
    A->fmi3FreeInstance(c);
    unload(&F);
}
