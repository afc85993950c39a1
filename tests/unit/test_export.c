/* Tests of the vdsim_l2 / vdsim_l3 FMUs: binary hygiene (only the 44 fmi2* symbols exported, no
 * RPATH, no executable stack), bit-exact round trip against the native core (CS via vd_step, ME
 * driven by an RK4 that mirrors vd_step's substeps), state-machine probes, FMU state and
 * serialization, resource errors. The FMU is unpacked with libzip into a directory whose name
 * contains a space (exercises %20 decoding of fmuResourceLocation) and loaded with dlopen. */
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

#include "fmi2/fmi2.h"
#include "vd/vd.h"

typedef struct {
    void *h;
#define API_MEMBER_(ret, name, params, iface) name##TYPE name;
    FMUC_FMI2_FUNCTIONS(API_MEMBER_)
#undef API_MEMBER_
} api;

typedef struct {
    int level;
    char dir[512];     /* unpacked FMU */
    char uri[1024];    /* file:// URI of resources/, percent-encoded */
    char lib[1024];
    char guid[64];
    api A;
} fmu;

static char last_msg[4096];
static int n_log;

static void logger(fmi2ComponentEnvironment env, fmi2String name, fmi2Status st, fmi2String cat,
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
    n_log++;
}

static const fmi2CallbackFunctions cbs = {logger, calloc, free, NULL, NULL};

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

static void encode_uri(char *out, size_t n, const char *path)
{
    size_t o = snprintf(out, n, "file://");
    for (const char *p = path; *p && o + 4 < n; p++) {
        if (*p == ' ' || *p == '%')
            o += snprintf(out + o, n - o, "%%%02X", (unsigned char)*p);
        else
            out[o++] = *p;
    }
    out[o] = 0;
}

static void load_fmu(fmu *F, int level)
{
    F->level = level;
    char tmpl[] = "/tmp/fmuc export XXXXXX";
    cr_assert(mkdtemp(tmpl));
    snprintf(F->dir, sizeof F->dir, "%s", tmpl);
    char zpath[1024], res[1024];
    snprintf(zpath, sizeof zpath, FMUC_FMU_DIR "/vdsim_l%d.fmu", level);
    unpack(zpath, F->dir);
    snprintf(res, sizeof res, "%s/resources", F->dir);
    encode_uri(F->uri, sizeof F->uri, res);
    snprintf(F->lib, sizeof F->lib, "%s/binaries/linux64/vdsim_l%d.so", F->dir, level);
    F->A.h = dlopen(F->lib, RTLD_NOW | RTLD_LOCAL);
    cr_assert(F->A.h, "dlopen: %s", dlerror());
#define API_LOAD_(ret, name, params, iface)                                                        \
    *(void **)&F->A.name = dlsym(F->A.h, #name);                                                   \
    cr_assert(F->A.name, "missing %s", #name);
    FMUC_FMI2_FUNCTIONS(API_LOAD_)
#undef API_LOAD_
    char md[1024];
    snprintf(md, sizeof md, "%s/modelDescription.xml", F->dir);
    FILE *f = fopen(md, "r");
    cr_assert(f);
    static char xml[1 << 17];
    size_t len = fread(xml, 1, sizeof xml - 1, f);
    fclose(f);
    xml[len] = 0;
    const char *g = strstr(xml, " guid=\"");
    cr_assert(g);
    g += 7;
    size_t gl = strcspn(g, "\"");
    cr_assert(gl < sizeof F->guid);
    memcpy(F->guid, g, gl);
    F->guid[gl] = 0;
}

static void rm_tree(const char *dir)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    FILE *p = popen(cmd, "r");
    if (p)
        pclose(p);
}

static void unload_fmu(fmu *F)
{
    if (F->A.h)
        dlclose(F->A.h);
    rm_tree(F->dir);
}

/* --- native reference ---------------------------------------------------------------------- */
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
static const fmi2ValueReference out_vr[NOUT] = {10, 11, 12, 13, 14, 15, 16, 17, 20,
                                                21, 30, 31, 32, 33, 40, 41, 42, 43};
static size_t nout(int level) { return level == 2 ? 8 : NOUT; }

static void native_out(const vd_out *o, double *v)
{
    const double a[NOUT] = {o->x,           o->y,           o->yaw,         o->vx,
                            o->vy,          o->yaw_rate,    o->ax,          o->ay,
                            o->roll,        o->pitch,       o->susp_comp[0], o->susp_comp[1],
                            o->susp_comp[2], o->susp_comp[3], o->fz[0],      o->fz[1],
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

static fmi2Component start(fmu *F, fmi2Type t)
{
    api *A = &F->A;
    fmi2Component c = A->fmi2Instantiate("vd", t, F->guid, F->uri, &cbs, fmi2False, fmi2False);
    cr_assert(c, "instantiate: %s", last_msg);
    cr_assert_eq(A->fmi2SetupExperiment(c, fmi2False, 0, 0.0, fmi2False, 0), fmi2OK);
    cr_assert_eq(A->fmi2EnterInitializationMode(c), fmi2OK, "%s", last_msg);
    cr_assert_eq(A->fmi2ExitInitializationMode(c), fmi2OK, "%s", last_msg);
    return c;
}

static void set_inputs(api *A, fmi2Component c, const vd_cmd *u)
{
    const fmi2ValueReference vr[3] = {1, 2, 3};
    const double v[3] = {u->steer, u->throttle, u->brake};
    cr_assert_eq(A->fmi2SetReal(c, vr, 3, v), fmi2OK, "%s", last_msg);
}

static void cs_round_trip(int level)
{
    fmu F = {0};
    load_fmu(&F, level);
    api *A = &F.A;
    fmi2Component c = start(&F, fmi2CoSimulation);
    vd_model *m = native(level);
    const double dt = 0.01;
    double maxd = 0.0;
    for (int k = 0; k < 1200; k++) {
        vd_cmd u;
        manoeuvre(k, dt, &u);
        set_inputs(A, c, &u);
        cr_assert_eq(A->fmi2DoStep(c, k * dt, dt, fmi2True), fmi2OK, "%s", last_msg);
        cr_assert_eq(vd_step(m, dt, &u), VD_OK);
        vd_out o;
        vd_outputs(m, &o);
        double a[NOUT], b[NOUT];
        native_out(&o, a);
        cr_assert_eq(A->fmi2GetReal(c, out_vr, nout(level), b), fmi2OK);
        for (size_t i = 0; i < nout(level); i++) {
            double d = fabs(a[i] - b[i]);
            maxd = d > maxd ? d : maxd;
            if (memcmp(&a[i], &b[i], sizeof a[i]) != 0) /* bit-identical, not just |d| = 0 */
                cr_assert_fail("L%d CS step %d vr %u: native %a fmu %a", level, k, out_vr[i],
                               a[i], b[i]);
        }
    }
    cr_expect_eq(maxd, 0.0);
    vd_destroy(m);
    A->fmi2FreeInstance(c);
    unload_fmu(&F);
}

/* ME: the test integrates with the exact stage arithmetic of the core's RK4. */
static void me_round_trip(int level)
{
    fmu F = {0};
    load_fmu(&F, level);
    api *A = &F.A;
    fmi2Component c = start(&F, fmi2ModelExchange);
    fmi2EventInfo ei;
    cr_assert_eq(A->fmi2NewDiscreteStates(c, &ei), fmi2OK);
    cr_assert_eq(ei.newDiscreteStatesNeeded, fmi2False);
    cr_assert_eq(A->fmi2EnterContinuousTimeMode(c), fmi2OK);
    vd_model *m = native(level);
    size_t nx = vd_state_size(m);
    double x[64], t1[64], k1[64], k2[64], k3[64], k4[64], xn[64];
    cr_assert_leq(nx, 64);
    cr_assert_eq(A->fmi2GetContinuousStates(c, x, nx), fmi2OK);
    vd_state_get(m, xn);
    cr_assert_eq(memcmp(x, xn, nx * sizeof x[0]), 0, "initial states differ");
    const double dt = 0.01;
    int n = vd_substeps(m, dt);
    cr_assert_gt(n, 0);
    double h = dt / (double)n, hh = 0.5 * h, h6 = h / 6.0;
    double tcur = 0.0;
#define DERIV(xv, kv)                                                                              \
    do {                                                                                           \
        cr_assert_eq(A->fmi2SetContinuousStates(c, xv, nx), fmi2OK);                               \
        cr_assert_eq(A->fmi2GetDerivatives(c, kv, nx), fmi2OK);                                    \
    } while (0)
    for (int k = 0; k < 1000; k++) {
        vd_cmd u;
        manoeuvre(k, dt, &u);
        set_inputs(A, c, &u);
        for (int s = 0; s < n; s++) {
            DERIV(x, k1);
            for (size_t i = 0; i < nx; i++)
                t1[i] = x[i] + hh * k1[i];
            DERIV(t1, k2);
            for (size_t i = 0; i < nx; i++)
                t1[i] = x[i] + hh * k2[i];
            DERIV(t1, k3);
            for (size_t i = 0; i < nx; i++)
                t1[i] = x[i] + h * k3[i];
            DERIV(t1, k4);
            for (size_t i = 0; i < nx; i++) {
                double v = x[i] + h6 * (((k1[i] + 2.0 * k2[i]) + 2.0 * k3[i]) + k4[i]);
                if (fabs(v) < 1e-200)
                    v = copysign(0.0, v);
                x[i] = v;
            }
            tcur = (double)k * dt + (double)(s + 1) * h;
            cr_assert_eq(A->fmi2SetTime(c, tcur), fmi2OK, "%s", last_msg);
            cr_assert_eq(A->fmi2SetContinuousStates(c, x, nx), fmi2OK);
            fmi2Boolean ev = 1, term = 1;
            cr_assert_eq(A->fmi2CompletedIntegratorStep(c, fmi2True, &ev, &term), fmi2OK);
            cr_assert(!ev && !term);
        }
        cr_assert_eq(vd_step(m, dt, &u), VD_OK);
        vd_out o;
        vd_outputs(m, &o);
        double a[NOUT], b[NOUT];
        native_out(&o, a);
        cr_assert_eq(A->fmi2GetReal(c, out_vr, nout(level), b), fmi2OK);
        for (size_t i = 0; i < nout(level); i++)
            if (memcmp(&a[i], &b[i], sizeof a[i]) != 0)
                cr_assert_fail("L%d ME step %d vr %u: native %a fmu %a", level, k, out_vr[i],
                               a[i], b[i]);
    }
#undef DERIV
    vd_destroy(m);
    A->fmi2FreeInstance(c);
    unload_fmu(&F);
}

static void exports(int level)
{
    char path[256], cmd[1024], line[512];
    snprintf(path, sizeof path, FMUC_BUILD_DIR "/fmi_export/fmulib/vdsim_l%d/vdsim_l%d.so", level,
             level);
    snprintf(cmd, sizeof cmd, "nm -D --defined-only '%s'", path);
    FILE *p = popen(cmd, "r");
    cr_assert(p);
    int n_fmi2 = 0, n_other = 0;
    while (fgets(line, sizeof line, p)) {
        char addr[64], type[8], name[256];
        if (sscanf(line, "%63s %7s %255s", addr, type, name) != 3)
            continue;
        if (strncmp(name, "fmi2", 4) == 0 && type[0] == 'T')
            n_fmi2++;
        else {
            n_other++;
            cr_log_error("unexpected export %s", name);
        }
    }
    pclose(p);
    cr_expect_eq(n_fmi2, 44);
    cr_expect_eq(n_other, 0);
    snprintf(cmd, sizeof cmd, "readelf -dW '%s'; readelf -lW '%s'", path, path);
    p = popen(cmd, "r");
    cr_assert(p);
    int stack_seen = 0;
    while (fgets(line, sizeof line, p)) {
        cr_expect(!strstr(line, "(RPATH)") && !strstr(line, "(RUNPATH)"), "%s", line);
        if (strstr(line, "NEEDED"))
            cr_expect(strstr(line, "libc.so") || strstr(line, "libm.so"),
                      "unexpected dependency (the FMU needs only libc and libm): %s", line);
        if (strstr(line, "GNU_STACK")) {
            stack_seen = 1;
            cr_expect(!strstr(line, "RWE"), "executable stack: %s", line);
        }
    }
    pclose(p);
    cr_expect(stack_seen);
}

Test(export, l2_exports_only_fmi2) { exports(2); }
Test(export, l3_exports_only_fmi2) { exports(3); }
Test(export, l2_cs_bit_exact_vs_native) { cs_round_trip(2); }
Test(export, l3_cs_bit_exact_vs_native) { cs_round_trip(3); }
Test(export, l2_me_bit_exact_vs_native) { me_round_trip(2); }
Test(export, l3_me_bit_exact_vs_native) { me_round_trip(3); }

Test(export, state_machine_probes)
{
    fmu F = {0};
    load_fmu(&F, 2);
    api *A = &F.A;
    fmi2Component c = A->fmi2Instantiate("vd", fmi2CoSimulation, F.guid, F.uri, &cbs, 0, 0);
    cr_assert(c);
    cr_expect_eq(A->fmi2DoStep(c, 0.0, 0.01, fmi2True), fmi2Error); /* before init */
    A->fmi2FreeInstance(c);
    c = start(&F, fmi2CoSimulation);
    fmi2ValueReference vr = 9999;
    double v = 0;
    cr_expect_eq(A->fmi2GetReal(c, &vr, 1, &v), fmi2Error); /* unknown VR */
    A->fmi2FreeInstance(c);
    c = start(&F, fmi2CoSimulation);
    vr = 13; /* vx: output */
    v = 3.0;
    cr_expect_eq(A->fmi2SetReal(c, &vr, 1, &v), fmi2Error);
    A->fmi2FreeInstance(c);
    c = start(&F, fmi2CoSimulation);
    vr = 100; /* fixed parameter after init */
    cr_expect_eq(A->fmi2SetReal(c, &vr, 1, &v), fmi2Error);
    A->fmi2FreeInstance(c);
    cr_expect_null(A->fmi2Instantiate("vd", fmi2CoSimulation, "{not-the-guid}", F.uri, &cbs, 0, 0));
    unload_fmu(&F);
}

Test(export, parameter_override_matches_native)
{
    fmu F = {0};
    load_fmu(&F, 2);
    api *A = &F.A;
    fmi2Component c = A->fmi2Instantiate("vd", fmi2CoSimulation, F.guid, F.uri, &cbs, 0, 0);
    cr_assert(c);
    fmi2ValueReference vr = 100; /* vx0 */
    double v = 15.0, got = 0;
    cr_assert_eq(A->fmi2SetReal(c, &vr, 1, &v), fmi2OK);
    cr_assert_eq(A->fmi2SetupExperiment(c, 0, 0, 0.0, 0, 0), fmi2OK);
    cr_assert_eq(A->fmi2EnterInitializationMode(c), fmi2OK);
    fmi2ValueReference vx = 13;
    cr_assert_eq(A->fmi2GetReal(c, &vx, 1, &got), fmi2OK);
    cr_expect_eq(got, 15.0);
    cr_assert_eq(A->fmi2ExitInitializationMode(c), fmi2OK);
    vd_model *m = native(2);
    vd_params *p = vd_params_clone(vd_model_params(m));
    vd_error err;
    cr_assert_eq(vd_param_set(p, "vx0", 15.0, &err), VD_OK);
    vd_destroy(m);
    cr_assert_eq(vd_create(&m, VD_L2, p, &err), VD_OK);
    vd_params_free(p);
    vd_cmd u = {0.02, 0.2, 0.0};
    set_inputs(A, c, &u);
    for (int k = 0; k < 100; k++) {
        cr_assert_eq(A->fmi2DoStep(c, k * 0.01, 0.01, fmi2True), fmi2OK);
        cr_assert_eq(vd_step(m, 0.01, &u), VD_OK);
    }
    vd_out o;
    vd_outputs(m, &o);
    double a[NOUT], b[NOUT];
    native_out(&o, a);
    cr_assert_eq(A->fmi2GetReal(c, out_vr, 8, b), fmi2OK);
    cr_expect_eq(memcmp(a, b, 8 * sizeof a[0]), 0);
    vd_destroy(m);
    A->fmi2FreeInstance(c);
    unload_fmu(&F);
}

static void read_outputs(fmu *F, fmi2Component c, double *b)
{
    cr_assert_eq(F->A.fmi2GetReal(c, out_vr, nout(F->level), b), fmi2OK);
}

static void run(fmu *F, fmi2Component c, int k0, int n)
{
    for (int k = k0; k < k0 + n; k++) {
        vd_cmd u;
        manoeuvre(k + 150, 0.01, &u);
        set_inputs(&F->A, c, &u);
        cr_assert_eq(F->A.fmi2DoStep(c, k * 0.01, 0.01, fmi2True), fmi2OK, "%s", last_msg);
    }
}

static void state_round_trip(int level)
{
    fmu F = {0};
    load_fmu(&F, level);
    api *A = &F.A;
    fmi2Component c = start(&F, fmi2CoSimulation);
    run(&F, c, 0, 100);
    fmi2FMUstate s = NULL;
    cr_assert_eq(A->fmi2GetFMUstate(c, &s), fmi2OK);
    run(&F, c, 100, 100);
    double a[NOUT], b[NOUT];
    read_outputs(&F, c, a);
    cr_assert_eq(A->fmi2SetFMUstate(c, s), fmi2OK, "%s", last_msg);
    run(&F, c, 100, 100);
    read_outputs(&F, c, b);
    cr_expect_eq(memcmp(a, b, nout(level) * sizeof a[0]), 0, "get/set FMU state");

    size_t n = 0;
    cr_assert_eq(A->fmi2SerializedFMUstateSize(c, s, &n), fmi2OK);
    char *bytes = malloc(n), *bytes2 = malloc(n);
    cr_assert_eq(A->fmi2SerializeFMUstate(c, s, bytes, n), fmi2OK);
    /* a fresh instance that never initialized restores and continues identically */
    fmi2Component d = A->fmi2Instantiate("vd2", fmi2CoSimulation, F.guid, F.uri, &cbs, 0, 0);
    cr_assert(d);
    fmi2FMUstate s2 = NULL;
    cr_assert_eq(A->fmi2DeSerializeFMUstate(d, bytes, n, &s2), fmi2OK);
    cr_assert_eq(A->fmi2SetFMUstate(d, s2), fmi2OK, "%s", last_msg);
    run(&F, d, 100, 100);
    read_outputs(&F, d, b);
    cr_expect_eq(memcmp(a, b, nout(level) * sizeof a[0]), 0, "serialize/deserialize");
    cr_assert_eq(A->fmi2SerializeFMUstate(d, s2, bytes2, n), fmi2OK);
    cr_expect_eq(memcmp(bytes, bytes2, n), 0, "serialized bytes differ after a round trip");
    /* corrupt bytes are refused */
    bytes[n / 2] ^= 0x01;
    fmi2FMUstate s3 = NULL;
    cr_expect_eq(A->fmi2DeSerializeFMUstate(d, bytes, n, &s3), fmi2Error);
    free(bytes);
    free(bytes2);
    A->fmi2FreeInstance(d);
    A->fmi2FreeFMUstate(c, &s);
    A->fmi2FreeInstance(c);
    unload_fmu(&F);
}

Test(export, l2_fmu_state_round_trip) { state_round_trip(2); }
Test(export, l3_fmu_state_round_trip) { state_round_trip(3); }

Test(export, missing_resource_names_the_file)
{
    fmu F = {0};
    load_fmu(&F, 3);
    api *A = &F.A;
    char path[1100];
    snprintf(path, sizeof path, "%s/resources/tire.json", F.dir);
    cr_assert_eq(unlink(path), 0);
    fmi2Component c = A->fmi2Instantiate("vd", fmi2CoSimulation, F.guid, F.uri, &cbs, 0, 0);
    cr_assert(c);
    cr_assert_eq(A->fmi2SetupExperiment(c, 0, 0, 0.0, 0, 0), fmi2OK);
    n_log = 0;
    cr_expect_eq(A->fmi2EnterInitializationMode(c), fmi2Error);
    cr_expect_gt(n_log, 0);
    cr_expect(strstr(last_msg, "tire.json") != NULL, "message: %s", last_msg);
    cr_expect(strstr(last_msg, "/fmuc export ") != NULL, "path decoded: %s", last_msg);
    A->fmi2FreeInstance(c);

    /* a syntactically bad file: the message names it */
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs("{ \"model\": ", f);
    fclose(f);
    c = A->fmi2Instantiate("vd", fmi2CoSimulation, F.guid, F.uri, &cbs, 0, 0);
    cr_assert(c);
    cr_assert_eq(A->fmi2SetupExperiment(c, 0, 0, 0.0, 0, 0), fmi2OK);
    cr_expect_eq(A->fmi2EnterInitializationMode(c), fmi2Error);
    cr_expect(strstr(last_msg, "tire.json") != NULL, "message: %s", last_msg);
    A->fmi2FreeInstance(c);

    /* no resource location at all */
    c = A->fmi2Instantiate("vd", fmi2CoSimulation, F.guid, NULL, &cbs, 0, 0);
    cr_assert(c);
    cr_assert_eq(A->fmi2SetupExperiment(c, 0, 0, 0.0, 0, 0), fmi2OK);
    cr_expect_eq(A->fmi2EnterInitializationMode(c), fmi2Error);
    cr_expect(strstr(last_msg, "vehicle.json") != NULL, "message: %s", last_msg);
    A->fmi2FreeInstance(c);
    unload_fmu(&F);
}
