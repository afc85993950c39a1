/* Tests of the project's FMI 1.0 FMUs (reference_fmus/fmi1/, glue fmi1_*_glue.c) through their
 * packaged archives: each .fmu is unpacked, its library dlopen'ed and its <modelIdentifier>_
 * prefixed functions resolved (the harness does not import FMI 1.0 yet, issue 20). Model
 * Exchange runs an explicit Euler with event handling through fmiEventUpdate, Co-Simulation
 * fmiDoStep over the default experiment, and both are compared bit for bit with the FMI 2.0
 * FMU of the same model driven the same way. Also: archive and XML shape, exports, illegal
 * calls, GUID, negated aliases, zero-length and size checks, logging, memory, reset. */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

#include "fmi1/fmi1.h"
#include "fmi2/fmi2.h"
#include "fmuc_test_util.h"

#define FMI1_DIR FMUC_FMU_DIR "/fmi1/good"
#define BB_ME1 FMI1_DIR "/me/BouncingBall.fmu"
#define BB_CS1 FMI1_DIR "/cs/BouncingBall.fmu"
#define SMD_CS1 FMI1_DIR "/cs/SpringMassDamper.fmu"
#define BB_2 FMUC_FMU_DIR "/good/BouncingBall.fmu"
#define SMD_2 FMUC_FMU_DIR "/good/SpringMassDamper.fmu"
#define STAIR_ME1 FMI1_DIR "/me/Stair.fmu"
#define STAIR_2 FMUC_FMU_DIR "/good/Stair.fmu"

/* --- unpacking and XML ----------------------------------------------------------------------- */
typedef struct {
    char *dir;     /* temp dir holding the extracted library */
    char *lib;     /* path of the library */
    xmlDoc *doc;   /* modelDescription.xml */
    char id[128];  /* modelIdentifier (1.0) or the CoSimulation/ModelExchange one (2.0) */
    char guid[64];
} unpacked;

static char *zip_read(zip_t *z, const char *name, size_t *len)
{
    zip_stat_t st;
    if (zip_stat(z, name, 0, &st) != 0)
        return NULL;
    zip_file_t *f = zip_fopen(z, name, 0);
    if (!f)
        return NULL;
    char *buf = malloc(st.size + 1);
    zip_int64_t n = buf ? zip_fread(f, buf, st.size) : -1;
    zip_fclose(f);
    if (n < 0 || (zip_uint64_t)n != st.size) {
        free(buf);
        return NULL;
    }
    buf[st.size] = '\0';
    *len = st.size;
    return buf;
}

static char *xattr(xmlNode *n, const char *name)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
    return (char *)v; /* xmlFree */
}

static void copy_attr(xmlNode *n, const char *name, char *out, size_t size)
{
    char *v = xattr(n, name);
    snprintf(out, size, "%s", v ? v : "");
    xmlFree(v);
}

static xmlNode *child(xmlNode *n, const char *name)
{
    for (xmlNode *c = n ? n->children : NULL; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, name) == 0)
            return c;
    return NULL;
}

static void unpack(unpacked *u, const char *fmu)
{
    memset(u, 0, sizeof *u);
    int err = 0;
    zip_t *z = zip_open(fmu, ZIP_RDONLY, &err);
    cr_assert(z, "cannot open %s (zip error %d)", fmu, err);
    size_t len = 0;
    char *xml = zip_read(z, "modelDescription.xml", &len);
    cr_assert(xml, "%s: no modelDescription.xml at the root", fmu);
    u->doc = xmlReadMemory(xml, (int)len, "modelDescription.xml", NULL, XML_PARSE_NONET);
    free(xml);
    cr_assert(u->doc, "%s: modelDescription.xml is not well-formed", fmu);
    xmlNode *root = xmlDocGetRootElement(u->doc);
    char version[16];
    copy_attr(root, "fmiVersion", version, sizeof version);
    if (strcmp(version, "1.0") == 0) {
        copy_attr(root, "modelIdentifier", u->id, sizeof u->id);
    } else {
        xmlNode *iface = child(root, "CoSimulation");
        if (!iface)
            iface = child(root, "ModelExchange");
        copy_attr(iface, "modelIdentifier", u->id, sizeof u->id);
    }
    copy_attr(root, "guid", u->guid, sizeof u->guid);
    cr_assert(u->id[0] && u->guid[0], "%s: modelIdentifier and guid expected", fmu);

    char entry[256];
    snprintf(entry, sizeof entry, "binaries/linux64/%s.so", u->id);
    char *so = zip_read(z, entry, &len);
    cr_assert(so, "%s: no %s", fmu, entry);
    zip_close(z);
    u->dir = fmuc_test_mkdtemp("fmi1");
    cr_assert(u->dir);
    cr_assert(asprintf(&u->lib, "%s/%s.so", u->dir, u->id) > 0);
    cr_assert_eq(fmuc_test_write_file(u->lib, so, len), 0);
    free(so);
}

static void unpacked_free(unpacked *u)
{
    if (u->dir)
        fmuc_test_rm_rf(u->dir);
    free(u->dir);
    free(u->lib);
    if (u->doc)
        xmlFreeDoc(u->doc);
}

/* The ScalarVariable named name (NULL if absent). */
static xmlNode *variable(const unpacked *u, const char *name)
{
    xmlNode *mv = child(xmlDocGetRootElement(u->doc), "ModelVariables");
    for (xmlNode *v = mv ? mv->children : NULL; v; v = v->next) {
        if (v->type != XML_ELEMENT_NODE)
            continue;
        char n[256];
        copy_attr(v, "name", n, sizeof n);
        if (strcmp(n, name) == 0)
            return v;
    }
    return NULL;
}

static fmiValueReference vr_of(const unpacked *u, const char *name)
{
    xmlNode *v = variable(u, name);
    cr_assert(v, "no variable '%s'", name);
    char buf[32];
    copy_attr(v, "valueReference", buf, sizeof buf);
    return (fmiValueReference)strtoul(buf, NULL, 10);
}

/* --- host callbacks ------------------------------------------------------------------------ */
static long n_alloc, n_free;
static int n_log, n_log_errors, n_log_null_instance;
static char last_name[256], last_msg[1024];
static fmiComponent last_comp;

static void logger1(fmiComponent c, fmiString name, fmiStatus st, fmiString cat, fmiString msg,
                    ...)
{
    (void)cat;
    va_list ap;
    va_start(ap, msg);
    vsnprintf(last_msg, sizeof last_msg, msg, ap);
    va_end(ap);
    snprintf(last_name, sizeof last_name, "%s", name ? name : "(null)");
    last_comp = c;
    n_log++;
    if (st >= fmiError)
        n_log_errors++;
    if (!c)
        n_log_null_instance++;
}

static void *alloc_cb(size_t n, size_t s)
{
    n_alloc++;
    return calloc(n, s);
}

static void free_cb(void *p)
{
    if (p)
        n_free++;
    free(p);
}

static const fmiMECallbackFunctions me_cbs = {logger1, alloc_cb, free_cb};
static const fmiCSCallbackFunctions cs_cbs = {logger1, alloc_cb, free_cb, NULL};

static void logger2(fmi2ComponentEnvironment env, fmi2String name, fmi2Status st, fmi2String cat,
                    fmi2String msg, ...)
{
    (void)env;
    (void)name;
    (void)st;
    (void)cat;
    (void)msg;
}

static const fmi2CallbackFunctions cbs2 = {logger2, alloc_cb, free_cb, NULL, NULL};

/* --- loading ------------------------------------------------------------------------------- */
typedef struct {
    void *h;
#define FMI1_MEMBER_(ret, name, params) name##TYPE name;
    FMUC_FMI1_SHARED_FUNCTIONS(FMI1_MEMBER_)
    FMUC_FMI1_ME_ONLY_FUNCTIONS(FMI1_MEMBER_)
    FMUC_FMI1_CS_ONLY_FUNCTIONS(FMI1_MEMBER_)
#undef FMI1_MEMBER_
} api1;

typedef struct {
    void *h;
#define FMI2_MEMBER_(ret, name, params, iface) name##TYPE name;
    FMUC_FMI2_FUNCTIONS(FMI2_MEMBER_)
#undef FMI2_MEMBER_
} api2;

static void *sym1(void *h, const char *id, const char *fn)
{
    char name[256];
    cr_assert_eq(fmuc_fmi1_symbol(name, sizeof name, id, fn), 0);
    return dlsym(h, name);
}

/* Every function of the FMU's standard, prefixed (C-01, C-02); none unprefixed. */
static void load1(api1 *a, const unpacked *u, int cs)
{
    memset(a, 0, sizeof *a);
    a->h = dlopen(u->lib, RTLD_NOW | RTLD_LOCAL);
    cr_assert(a->h, "dlopen %s: %s", u->lib, dlerror());
#define FMI1_LOAD_(ret, name, params)                                                              \
    *(void **)&a->name = sym1(a->h, u->id, #name);                                                 \
    cr_assert(a->name, "%s: %s_%s is not exported", u->lib, u->id, #name);                         \
    cr_expect_null(dlsym(a->h, #name), "%s: unprefixed %s exported", u->lib, #name);
    if (cs) {
        FMUC_FMI1_CS_FUNCTIONS(FMI1_LOAD_)
    } else {
        FMUC_FMI1_ME_FUNCTIONS(FMI1_LOAD_)
    }
#undef FMI1_LOAD_
}

static void load2(api2 *a, const unpacked *u)
{
    memset(a, 0, sizeof *a);
    a->h = dlopen(u->lib, RTLD_NOW | RTLD_LOCAL);
    cr_assert(a->h, "dlopen %s: %s", u->lib, dlerror());
#define FMI2_LOAD_(ret, name, params, iface)                                                       \
    *(void **)&a->name = dlsym(a->h, #name);                                                       \
    cr_assert(a->name, "%s: missing %s", u->lib, #name);
    FMUC_FMI2_FUNCTIONS(FMI2_LOAD_)
#undef FMI2_LOAD_
}

static void reset_counters(void)
{
    n_alloc = n_free = 0;
    n_log = n_log_errors = n_log_null_instance = 0;
    last_comp = NULL;
    last_name[0] = last_msg[0] = '\0';
}

/* --- archives, XML, exports ---------------------------------------------------------------- */
static void check_archive(const char *fmu, int cs, unsigned nx, unsigned nz)
{
    unpacked u;
    unpack(&u, fmu);
    xmlNode *root = xmlDocGetRootElement(u.doc);
    char buf[64];
    copy_attr(root, "fmiVersion", buf, sizeof buf);
    cr_expect_str_eq(buf, "1.0", "%s: fmiVersion", fmu);
    const char *base = strrchr(fmu, '/') + 1;
    cr_expect(strncmp(base, u.id, strlen(u.id)) == 0 && strcmp(base + strlen(u.id), ".fmu") == 0,
              "%s: archive is not <modelIdentifier>.fmu (A-01)", fmu);
    copy_attr(root, "numberOfContinuousStates", buf, sizeof buf);
    cr_expect_eq(strtoul(buf, NULL, 10), nx, "%s: numberOfContinuousStates", fmu);
    copy_attr(root, "numberOfEventIndicators", buf, sizeof buf);
    cr_expect_eq(strtoul(buf, NULL, 10), nz, "%s: numberOfEventIndicators", fmu);
    /* 2.0 elements are errors in 1.0 (B-004); CS is Implementation/CoSimulation_StandAlone */
    cr_expect_null(child(root, "ModelExchange"));
    cr_expect_null(child(root, "CoSimulation"));
    cr_expect_null(child(root, "ModelStructure"));
    cr_expect_null(child(root, "LogCategories"));
    xmlNode *impl = child(root, "Implementation");
    if (cs)
        cr_expect(child(child(impl, "CoSimulation_StandAlone"), "Capabilities"),
                  "%s: Implementation/CoSimulation_StandAlone/Capabilities expected", fmu);
    else
        cr_expect_null(impl, "%s: an ME 1.0 FMU has no Implementation", fmu);
    xmlNode *de = child(root, "DefaultExperiment");
    cr_expect(de, "%s: DefaultExperiment", fmu);
    char *step = xattr(de, "stepSize");
    cr_expect_null(step, "%s: 1.0 has no stepSize (B-158)", fmu);
    xmlFree(step);

    api1 a;
    load1(&a, &u, cs);
    cr_expect_str_eq(cs ? a.fmiGetTypesPlatform() : a.fmiGetModelTypesPlatform(), "standard32");
    cr_expect_str_eq(a.fmiGetVersion(), "1.0");
    cr_expect_null(dlsym(a.h, "fmi2GetVersion"), "%s exports 2.0 names", fmu);
    /* the other standard's functions are not there */
    cr_expect_null(sym1(a.h, u.id, cs ? "fmiInstantiateModel" : "fmiInstantiateSlave"));
    dlclose(a.h);
    unpacked_free(&u);
}

Test(fmi1_export, archives_xml_and_exports)
{
    cr_expect_eq(FMUC_FMI1_ME_COUNT, 24);
    cr_expect_eq(FMUC_FMI1_CS_COUNT, 25);
    cr_expect_eq(sizeof(fmiEventInfo), 16u);
    cr_expect_eq(sizeof(fmiBoolean), 1u);
    check_archive(BB_ME1, 0, 2, 1);
    check_archive(BB_CS1, 1, 2, 1);
    check_archive(SMD_CS1, 1, 2, 0);
    check_archive(STAIR_ME1, 0, 1, 0);
}

Test(fmi1_export, xml_aliases_and_direct_dependency)
{
    unpacked u;
    unpack(&u, BB_ME1);
    xmlNode *vd = variable(&u, "v_down"), *hh = variable(&u, "height");
    cr_assert(vd && hh);
    char buf[64];
    copy_attr(vd, "alias", buf, sizeof buf);
    cr_expect_str_eq(buf, "negatedAlias");
    copy_attr(hh, "alias", buf, sizeof buf);
    cr_expect_str_eq(buf, "alias");
    cr_expect_eq(vr_of(&u, "v_down"), vr_of(&u, "v"));
    cr_expect_eq(vr_of(&u, "height"), vr_of(&u, "h"));
    /* the integer output: discrete, not the default continuous (B-202) */
    copy_attr(variable(&u, "impacts"), "variability", buf, sizeof buf);
    cr_expect_str_eq(buf, "discrete");
    unpacked_free(&u);

    unpack(&u, SMD_CS1);
    xmlNode *dd = child(variable(&u, "E"), "DirectDependency");
    cr_expect(dd, "E: an empty DirectDependency (depends on no input)");
    cr_expect_null(child(dd, "Name"));
    cr_expect_null(child(variable(&u, "x"), "DirectDependency"), "x: depends on all inputs");
    copy_attr(variable(&u, "F"), "causality", buf, sizeof buf);
    cr_expect_str_eq(buf, "input");
    copy_attr(variable(&u, "k"), "variability", buf, sizeof buf);
    cr_expect_str_eq(buf, "parameter");
    unpacked_free(&u);
}

/* --- Model Exchange: the same explicit Euler over FMI 1.0 and FMI 2.0 ------------------------ */
#define ME_H 1e-3
#define ME_MAX_STEPS 12000
#define ME_MAX_X 4

/* One ME comparison: states nx, indicators nz, two Real outputs and one Integer output read
 * after every step. */
typedef struct {
    const char *fmu1, *fmu2;
    size_t nx, nz;
    const char *reals[2];
    const char *integer;
    double stop;
} me_case;

typedef struct {
    size_t n;
    double t[ME_MAX_STEPS], y[2 * ME_MAX_STEPS];
    int integer[ME_MAX_STEPS];
    int events;
} trace;

/* State event: an indicator changes sign (from > 0 to <= 0 or from < 0 to >= 0). */
static int crossed(const double *before, const double *after, size_t nz)
{
    for (size_t k = 0; k < nz; k++)
        if ((before[k] > 0.0 && after[k] <= 0.0) || (before[k] < 0.0 && after[k] >= 0.0))
            return 1;
    return 0;
}

static void run_me1(trace *tr, const unpacked *u, const me_case *mc)
{
    api1 a;
    load1(&a, u, 0);
    fmiValueReference vr_y[2] = {vr_of(u, mc->reals[0]), vr_of(u, mc->reals[1])};
    fmiValueReference vr_i = vr_of(u, mc->integer);
    fmiComponent c = a.fmiInstantiateModel("me1", u->guid, me_cbs, fmiFalse);
    cr_assert(c);
    fmiEventInfo ei;
    cr_assert_eq(a.fmiSetTime(c, 0.0), fmiOK);
    cr_assert_eq(a.fmiInitialize(c, fmiFalse, 0.0, &ei), fmiOK);
    cr_assert(ei.iterationConverged, "fmiInitialize: iterationConverged (F-02, G-02)");
    double x[ME_MAX_X], dx[ME_MAX_X], z[ME_MAX_X] = {0}, zprev[ME_MAX_X] = {0};
    cr_assert_eq(a.fmiGetEventIndicators(c, zprev, mc->nz), fmiOK);
    tr->n = 0;
    tr->events = 0;
    for (long i = 1; (double)i * ME_H <= mc->stop + 1e-12 && tr->n < ME_MAX_STEPS; i++) {
        double t = (double)i * ME_H;
        cr_assert_eq(a.fmiGetContinuousStates(c, x, mc->nx), fmiOK);
        cr_assert_eq(a.fmiGetDerivatives(c, dx, mc->nx), fmiOK);
        for (size_t k = 0; k < mc->nx; k++)
            x[k] += ME_H * dx[k];
        cr_assert_eq(a.fmiSetTime(c, t), fmiOK);
        cr_assert_eq(a.fmiSetContinuousStates(c, x, mc->nx), fmiOK);
        fmiBoolean call = fmiFalse;
        cr_assert_eq(a.fmiCompletedIntegratorStep(c, &call), fmiOK);
        cr_assert_eq(a.fmiGetEventIndicators(c, z, mc->nz), fmiOK);
        int time_event = ei.upcomingTimeEvent && t >= ei.nextEventTime;
        if (call || time_event || crossed(zprev, z, mc->nz)) {
            cr_assert_eq(a.fmiEventUpdate(c, fmiFalse, &ei), fmiOK);
            cr_assert(ei.iterationConverged);
            cr_assert_eq(a.fmiGetEventIndicators(c, z, mc->nz), fmiOK);
            tr->events++;
        }
        memcpy(zprev, z, sizeof z);
        tr->t[tr->n] = t;
        cr_assert_eq(a.fmiGetReal(c, vr_y, 2, tr->y + 2 * tr->n), fmiOK);
        cr_assert_eq(a.fmiGetInteger(c, &vr_i, 1, &tr->integer[tr->n]), fmiOK);
        tr->n++;
    }
    cr_assert_eq(a.fmiTerminate(c), fmiOK);
    a.fmiFreeModelInstance(c);
    dlclose(a.h);
}

static void run_me2(trace *tr, const unpacked *u, const me_case *mc)
{
    api2 a;
    load2(&a, u);
    fmi2ValueReference vr_y[2] = {vr_of(u, mc->reals[0]), vr_of(u, mc->reals[1])};
    fmi2ValueReference vr_i = vr_of(u, mc->integer);
    fmi2Component c = a.fmi2Instantiate("me2", fmi2ModelExchange, u->guid, NULL, &cbs2,
                                        fmi2False, fmi2False);
    cr_assert(c);
    fmi2EventInfo ei;
    cr_assert_eq(a.fmi2SetupExperiment(c, fmi2False, 0.0, 0.0, fmi2True, mc->stop), fmi2OK);
    cr_assert_eq(a.fmi2EnterInitializationMode(c), fmi2OK);
    cr_assert_eq(a.fmi2ExitInitializationMode(c), fmi2OK);
    do
        cr_assert_eq(a.fmi2NewDiscreteStates(c, &ei), fmi2OK);
    while (ei.newDiscreteStatesNeeded);
    cr_assert_eq(a.fmi2EnterContinuousTimeMode(c), fmi2OK);
    double x[ME_MAX_X], dx[ME_MAX_X], z[ME_MAX_X] = {0}, zprev[ME_MAX_X] = {0};
    cr_assert_eq(a.fmi2GetEventIndicators(c, zprev, mc->nz), fmi2OK);
    tr->n = 0;
    tr->events = 0;
    for (long i = 1; (double)i * ME_H <= mc->stop + 1e-12 && tr->n < ME_MAX_STEPS; i++) {
        double t = (double)i * ME_H;
        cr_assert_eq(a.fmi2GetContinuousStates(c, x, mc->nx), fmi2OK);
        cr_assert_eq(a.fmi2GetDerivatives(c, dx, mc->nx), fmi2OK);
        for (size_t k = 0; k < mc->nx; k++)
            x[k] += ME_H * dx[k];
        cr_assert_eq(a.fmi2SetTime(c, t), fmi2OK);
        cr_assert_eq(a.fmi2SetContinuousStates(c, x, mc->nx), fmi2OK);
        fmi2Boolean enter = fmi2False, term = fmi2False;
        cr_assert_eq(a.fmi2CompletedIntegratorStep(c, fmi2True, &enter, &term), fmi2OK);
        cr_assert_eq(a.fmi2GetEventIndicators(c, z, mc->nz), fmi2OK);
        int time_event = ei.nextEventTimeDefined && t >= ei.nextEventTime;
        if (enter || time_event || crossed(zprev, z, mc->nz)) {
            cr_assert_eq(a.fmi2EnterEventMode(c), fmi2OK);
            do
                cr_assert_eq(a.fmi2NewDiscreteStates(c, &ei), fmi2OK);
            while (ei.newDiscreteStatesNeeded);
            cr_assert_eq(a.fmi2EnterContinuousTimeMode(c), fmi2OK);
            cr_assert_eq(a.fmi2GetEventIndicators(c, z, mc->nz), fmi2OK);
            tr->events++;
        }
        memcpy(zprev, z, sizeof z);
        tr->t[tr->n] = t;
        cr_assert_eq(a.fmi2GetReal(c, vr_y, 2, tr->y + 2 * tr->n), fmi2OK);
        cr_assert_eq(a.fmi2GetInteger(c, &vr_i, 1, &tr->integer[tr->n]), fmi2OK);
        tr->n++;
    }
    cr_assert_eq(a.fmi2Terminate(c), fmi2OK);
    a.fmi2FreeInstance(c);
    dlclose(a.h);
}

static int bits_equal(const double *a, const double *b, size_t n)
{
    return memcmp(a, b, n * sizeof *a) == 0;
}

/* Runs both; returns the 1.0 trace (static storage). */
static const trace *me_compare(const me_case *mc)
{
    static trace t1, t2;
    unpacked u1, u2;
    unpack(&u1, mc->fmu1);
    unpack(&u2, mc->fmu2);
    cr_expect_str_neq(u1.guid, u2.guid, "the 1.0 FMU has its own GUID");
    reset_counters();
    run_me1(&t1, &u1, mc);
    cr_expect_eq(n_alloc, n_free, "%s: every allocation freed through the callbacks", mc->fmu1);
    run_me2(&t2, &u2, mc);
    cr_assert_eq(t1.n, t2.n);
    cr_expect_gt(t1.n, (size_t)(mc->stop / ME_H) - 2);
    cr_expect_eq(t1.events, t2.events, "%s: events %d vs %d", mc->fmu1, t1.events, t2.events);
    cr_expect(bits_equal(t1.y, t2.y, 2 * t1.n), "%s: %s/%s differ from the 2.0 FMU", mc->fmu1,
              mc->reals[0], mc->reals[1]);
    cr_expect(memcmp(t1.integer, t2.integer, t1.n * sizeof t1.integer[0]) == 0,
              "%s: %s differs from the 2.0 FMU", mc->fmu1, mc->integer);
    unpacked_free(&u1);
    unpacked_free(&u2);
    return &t1;
}

Test(fmi1_export, me_bouncing_ball_equals_fmi2)
{
    static const me_case mc = {BB_ME1, BB_2, 2, 1, {"h", "v"}, "impacts", 3.0};
    const trace *t = me_compare(&mc);
    cr_expect_geq(t->integer[t->n - 1], 5, "the ball bounces: %d impacts", t->integer[t->n - 1]);
    cr_expect_geq(t->events, 5, "state events through fmiEventUpdate");
    for (size_t i = 0; i < t->n; i++)
        cr_assert_geq(t->y[2 * i], -0.05, "h = %g at t = %g: the floor was missed", t->y[2 * i],
                      t->t[i]);
}

/* Time events: upcomingTimeEvent / nextEventTime from fmiInitialize and fmiEventUpdate. */
Test(fmi1_export, me_stair_time_events_equal_fmi2)
{
    static const me_case mc = {STAIR_ME1, STAIR_2, 1, 0, {"x", "time"}, "counter", 10.0};
    const trace *t = me_compare(&mc);
    cr_expect_eq(t->events, 9, "time events at t = 1..9 s");
    cr_expect_eq(t->integer[t->n - 1], 10);
    cr_expect_float_eq(t->y[2 * (t->n - 1)], 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10, 0.05,
                       "x(10) = sum of the stair");
}

/* --- Co-Simulation: fmiDoStep over the default experiment vs fmi2DoStep ---------------------- */
#define CS_MAX 2048

typedef struct {
    size_t n, nout;
    double y[CS_MAX * 4];
} cs_trace;

static double attr_dbl_of(xmlNode *n, const char *name, double dflt)
{
    char *v = xattr(n, name);
    double d = v ? strtod(v, NULL) : dflt;
    xmlFree(v);
    return d;
}

static void run_cs1(cs_trace *tr, const unpacked *u, const char *const *outs, size_t nout,
                    double step)
{
    api1 a;
    load1(&a, u, 1);
    xmlNode *de = child(xmlDocGetRootElement(u->doc), "DefaultExperiment");
    double t0 = attr_dbl_of(de, "startTime", 0.0), t1 = attr_dbl_of(de, "stopTime", 1.0);
    fmiValueReference vr[4];
    for (size_t k = 0; k < nout; k++)
        vr[k] = vr_of(u, outs[k]);
    char loc[4200];
    snprintf(loc, sizeof loc, "file://%s", u->dir);
    fmiComponent c = a.fmiInstantiateSlave("cs1", u->guid, loc, "application/x-fmu-sharedlibrary",
                                           0.0, fmiFalse, fmiFalse, cs_cbs, fmiFalse);
    cr_assert(c);
    cr_assert_eq(a.fmiInitializeSlave(c, t0, fmiTrue, t1), fmiOK);
    tr->n = 0;
    tr->nout = nout;
    long nsteps = lround((t1 - t0) / step);
    for (long i = 0; i < nsteps && tr->n < CS_MAX; i++) {
        double tc = t0 + (double)i * step;
        cr_assert_eq(a.fmiDoStep(c, tc, step, fmiTrue), fmiOK, "fmiDoStep at %g", tc);
        cr_assert_eq(a.fmiGetReal(c, vr, nout, tr->y + tr->n * nout), fmiOK);
        tr->n++;
    }
    fmiStatus s = fmiError;
    cr_expect_eq(a.fmiGetStatus(c, fmiDoStepStatus, &s), fmiOK);
    cr_expect_eq(s, fmiOK);
    double last = 0.0;
    cr_expect_eq(a.fmiGetRealStatus(c, fmiLastSuccessfulTime, &last), fmiOK);
    cr_expect_float_eq(last, t1, 1e-9);
    fmiBoolean b;
    cr_expect_eq(a.fmiGetBooleanStatus(c, fmiDoStepStatus, &b), fmiDiscard, "no such kind (D-05)");
    cr_assert_eq(a.fmiTerminateSlave(c), fmiOK);
    a.fmiFreeSlaveInstance(c);
    dlclose(a.h);
}

static void run_cs2(cs_trace *tr, const unpacked *u, const char *const *outs, size_t nout,
                    double t0, double t1, double step)
{
    api2 a;
    load2(&a, u);
    fmi2ValueReference vr[4];
    for (size_t k = 0; k < nout; k++)
        vr[k] = vr_of(u, outs[k]);
    fmi2Component c = a.fmi2Instantiate("cs2", fmi2CoSimulation, u->guid, NULL, &cbs2, fmi2False,
                                        fmi2False);
    cr_assert(c);
    cr_assert_eq(a.fmi2SetupExperiment(c, fmi2False, 0.0, t0, fmi2True, t1), fmi2OK);
    cr_assert_eq(a.fmi2EnterInitializationMode(c), fmi2OK);
    cr_assert_eq(a.fmi2ExitInitializationMode(c), fmi2OK);
    tr->n = 0;
    tr->nout = nout;
    long nsteps = lround((t1 - t0) / step);
    for (long i = 0; i < nsteps && tr->n < CS_MAX; i++) {
        double tc = t0 + (double)i * step;
        cr_assert_eq(a.fmi2DoStep(c, tc, step, fmi2True), fmi2OK);
        cr_assert_eq(a.fmi2GetReal(c, vr, nout, tr->y + tr->n * nout), fmi2OK);
        tr->n++;
    }
    a.fmi2Terminate(c);
    a.fmi2FreeInstance(c);
    dlclose(a.h);
}

static void cs_compare(const char *fmu1, const char *fmu2, const char *const *outs, size_t nout,
                       double step)
{
    static cs_trace a, b;
    unpacked u1, u2;
    unpack(&u1, fmu1);
    unpack(&u2, fmu2);
    reset_counters();
    run_cs1(&a, &u1, outs, nout, step);
    cr_expect_eq(n_alloc, n_free, "%s: every allocation freed through the callbacks", fmu1);
    xmlNode *de = child(xmlDocGetRootElement(u1.doc), "DefaultExperiment");
    run_cs2(&b, &u2, outs, nout, attr_dbl_of(de, "startTime", 0.0),
            attr_dbl_of(de, "stopTime", 1.0), step);
    cr_assert_eq(a.n, b.n);
    cr_expect_gt(a.n, 10u);
    cr_expect(bits_equal(a.y, b.y, a.n * nout), "%s: outputs differ from the 2.0 FMU", fmu1);
    unpacked_free(&u1);
    unpacked_free(&u2);
}

Test(fmi1_export, cs_spring_mass_damper_equals_fmi2)
{
    static const char *const outs[] = {"x", "v", "E"};
    cs_compare(SMD_CS1, SMD_2, outs, 3, 0.01);
}

Test(fmi1_export, cs_bouncing_ball_equals_fmi2)
{
    static const char *const outs[] = {"h", "v"};
    cs_compare(BB_CS1, BB_2, outs, 2, 0.01);
}

/* --- state machine, GUID, arguments -------------------------------------------------------- */
Test(fmi1_export, cs_illegal_calls_refused)
{
    unpacked u;
    unpack(&u, SMD_CS1);
    api1 a;
    load1(&a, &u, 1);
    reset_counters();
    fmiValueReference vx = vr_of(&u, "x");
    double x = 0.0;
    fmiComponent c = a.fmiInstantiateSlave("slave", u.guid, NULL, NULL, 0.0, fmiFalse, fmiFalse,
                                           cs_cbs, fmiFalse);
    cr_assert(c, "fmuLocation NULL is tolerated (G-08)");
    cr_expect_eq(a.fmiGetReal(c, &vx, 1, &x), fmiError, "fmiGetReal before fmiInitializeSlave");
    a.fmiFreeSlaveInstance(c);

    c = a.fmiInstantiateSlave("slave", u.guid, NULL, NULL, 0.0, fmiFalse, fmiFalse, cs_cbs,
                              fmiFalse);
    cr_assert(c);
    int before = n_log_errors;
    cr_expect_eq(a.fmiDoStep(c, 0.0, 0.01, fmiTrue), fmiError, "fmiDoStep before fmiInitializeSlave");
    cr_expect_gt(n_log_errors, before, "the refusal is logged");
    cr_expect_eq(last_comp, c, "the logger gets the instance");
    cr_expect_str_eq(last_name, "slave");
    cr_expect_eq(a.fmiInitializeSlave(c, 0.0, fmiFalse, 0.0), fmiError,
                 "after an error only free (and reset) are allowed");
    a.fmiFreeSlaveInstance(c);

    c = a.fmiInstantiateSlave("slave", u.guid, NULL, NULL, 0.0, fmiFalse, fmiFalse, cs_cbs,
                              fmiFalse);
    cr_assert_eq(a.fmiInitializeSlave(c, 0.0, fmiTrue, 2.0), fmiOK);
    cr_expect_eq(a.fmiInitializeSlave(c, 0.0, fmiTrue, 2.0), fmiError, "initialized twice");
    cr_expect_eq(a.fmiResetSlave(c), fmiOK, "reset from the error state (condition 6)");
    cr_assert_eq(a.fmiInitializeSlave(c, 0.0, fmiTrue, 2.0), fmiOK);
    cr_expect_eq(a.fmiDoStep(c, 0.5, 0.01, fmiTrue), fmiError, "step not at the slave's time");
    cr_expect_eq(a.fmiResetSlave(c), fmiOK);
    cr_assert_eq(a.fmiInitializeSlave(c, 0.0, fmiTrue, 2.0), fmiOK);
    cr_expect_eq(a.fmiDoStep(c, 0.0, 0.0, fmiTrue), fmiError, "h = 0 without canHandleEvents");
    cr_expect_eq(a.fmiResetSlave(c), fmiOK);
    cr_assert_eq(a.fmiInitializeSlave(c, 0.0, fmiTrue, 2.0), fmiOK);
    cr_expect_eq(a.fmiDoStep(c, 0.0, 0.01, fmiFalse), fmiError, "newStep false without canRejectSteps");
    cr_expect_eq(a.fmiResetSlave(c), fmiOK);
    cr_assert_eq(a.fmiInitializeSlave(c, 0.0, fmiTrue, 2.0), fmiOK);
    cr_expect_eq(a.fmiDoStep(c, 0.0, 2.5, fmiTrue), fmiError, "beyond tStop");
    cr_expect_eq(a.fmiResetSlave(c), fmiOK);
    cr_assert_eq(a.fmiInitializeSlave(c, 0.0, fmiTrue, 2.0), fmiOK);
    cr_expect_eq(a.fmiCancelStep(c), fmiError, "no step in progress");
    cr_expect_eq(a.fmiResetSlave(c), fmiOK);
    cr_assert_eq(a.fmiInitializeSlave(c, 0.0, fmiTrue, 2.0), fmiOK);
    fmiValueReference vk = vr_of(&u, "k");
    double k = 100.0;
    cr_expect_eq(a.fmiSetReal(c, &vk, 1, &k), fmiError, "a parameter after initialization (D.3)");
    a.fmiFreeSlaveInstance(c);
    cr_expect_eq(n_alloc, n_free);
    dlclose(a.h);
    unpacked_free(&u);
}

Test(fmi1_export, me_illegal_calls_refused)
{
    unpacked u;
    unpack(&u, BB_ME1);
    api1 a;
    load1(&a, &u, 0);
    reset_counters();
    fmiEventInfo ei;
    fmiComponent c = a.fmiInstantiateModel("model", u.guid, me_cbs, fmiFalse);
    cr_assert(c);
    cr_expect_eq(a.fmiEventUpdate(c, fmiFalse, &ei), fmiError, "fmiEventUpdate before fmiInitialize");
    a.fmiFreeModelInstance(c);

    c = a.fmiInstantiateModel("model", u.guid, me_cbs, fmiFalse);
    fmiBoolean call;
    cr_expect_eq(a.fmiCompletedIntegratorStep(c, &call), fmiError);
    a.fmiFreeModelInstance(c);

    c = a.fmiInstantiateModel("model", u.guid, me_cbs, fmiFalse);
    cr_assert_eq(a.fmiInitialize(c, fmiTrue, 1e-6, &ei), fmiOK);
    cr_expect_eq(a.fmiInitialize(c, fmiTrue, 1e-6, &ei), fmiError, "initialized twice");
    a.fmiFreeModelInstance(c);

    c = a.fmiInstantiateModel("model", u.guid, me_cbs, fmiFalse);
    cr_assert_eq(a.fmiInitialize(c, fmiFalse, 0.0, &ei), fmiOK);
    fmiValueReference vg = vr_of(&u, "g"), vh = vr_of(&u, "h");
    double g = -1.0, h = 2.0;
    cr_expect_eq(a.fmiSetReal(c, &vg, 1, &g), fmiError, "a parameter after fmiInitialize");
    a.fmiFreeModelInstance(c);

    c = a.fmiInstantiateModel("model", u.guid, me_cbs, fmiFalse);
    cr_expect_eq(a.fmiSetReal(c, &vh, 1, &h), fmiOK, "a state with start before fmiInitialize");
    cr_assert_eq(a.fmiInitialize(c, fmiFalse, 0.0, &ei), fmiOK);
    cr_expect_eq(a.fmiSetReal(c, &vh, 1, &h), fmiError, "states only via fmiSetContinuousStates");
    a.fmiFreeModelInstance(c);

    c = a.fmiInstantiateModel("model", u.guid, me_cbs, fmiFalse);
    cr_assert_eq(a.fmiSetTime(c, 0.0), fmiOK);
    cr_assert_eq(a.fmiInitialize(c, fmiFalse, 0.0, &ei), fmiOK);
    cr_assert_eq(a.fmiSetTime(c, 0.5), fmiOK);
    cr_assert_eq(a.fmiCompletedIntegratorStep(c, &call), fmiOK);
    cr_expect_eq(a.fmiSetTime(c, 0.25), fmiError, "time before the last completed step (F-08)");
    a.fmiFreeModelInstance(c);

    c = a.fmiInstantiateModel("model", u.guid, me_cbs, fmiFalse);
    cr_assert_eq(a.fmiInitialize(c, fmiFalse, 0.0, &ei), fmiOK);
    cr_assert_eq(a.fmiTerminate(c), fmiOK);
    cr_expect_eq(a.fmiTerminate(c), fmiError, "terminated twice");
    a.fmiFreeModelInstance(c);
    cr_expect_eq(n_alloc, n_free);
    dlclose(a.h);
    unpacked_free(&u);
}

Test(fmi1_export, wrong_guid_refused)
{
    const char *fmus[] = {BB_ME1, SMD_CS1};
    for (int i = 0; i < 2; i++) {
        unpacked u;
        unpack(&u, fmus[i]);
        api1 a;
        load1(&a, &u, i);
        reset_counters();
        char other[64];
        snprintf(other, sizeof other, "%s", u.guid);
        other[1] = other[1] == '0' ? '1' : '0';
        fmiComponent c = i ? a.fmiInstantiateSlave("x", other, NULL, NULL, 0.0, fmiFalse,
                                                   fmiFalse, cs_cbs, fmiFalse)
                           : a.fmiInstantiateModel("x", other, me_cbs, fmiFalse);
        cr_expect_null(c, "%s: a wrong GUID is refused (C-05)", fmus[i]);
        cr_expect_gt(n_log_null_instance, 0, "%s: refusal logged with c = NULL", fmus[i]);
        c = i ? a.fmiInstantiateSlave("x", NULL, NULL, NULL, 0.0, fmiFalse, fmiFalse, cs_cbs,
                                      fmiFalse)
              : a.fmiInstantiateModel("x", NULL, me_cbs, fmiFalse);
        cr_expect_null(c, "%s: a NULL GUID is refused", fmus[i]);
        c = i ? a.fmiInstantiateSlave("", u.guid, NULL, NULL, 0.0, fmiFalse, fmiFalse, cs_cbs,
                                      fmiFalse)
              : a.fmiInstantiateModel("", u.guid, me_cbs, fmiFalse);
        cr_expect_null(c, "%s: an empty instanceName is refused (C-06)", fmus[i]);
        cr_expect_eq(n_alloc, n_free);
        dlclose(a.h);
        unpacked_free(&u);
    }
}

/* negatedAlias: the FMU serves the base value under the shared valueReference and the importer
 * negates (C-12); the negated value is the downward velocity. */
Test(fmi1_export, negated_alias_reads_back_as_the_negation)
{
    unpacked u;
    unpack(&u, BB_ME1);
    api1 a;
    load1(&a, &u, 0);
    fmiValueReference vr_down = vr_of(&u, "v_down"), vr_v = vr_of(&u, "v");
    fmiValueReference vr_height = vr_of(&u, "height"), vr_h = vr_of(&u, "h");
    fmiComponent c = a.fmiInstantiateModel("alias", u.guid, me_cbs, fmiFalse);
    fmiEventInfo ei;
    cr_assert_eq(a.fmiInitialize(c, fmiFalse, 0.0, &ei), fmiOK);
    /* falling for 0.2 s: v < 0 */
    double x[2] = {1.0 - 0.5 * 9.81 * 0.04, -9.81 * 0.2};
    cr_assert_eq(a.fmiSetTime(c, 0.2), fmiOK);
    cr_assert_eq(a.fmiSetContinuousStates(c, x, 2), fmiOK);
    double v = 0.0, raw = 0.0, h = 0.0, height = 0.0;
    cr_assert_eq(a.fmiGetReal(c, &vr_v, 1, &v), fmiOK);
    cr_assert_eq(a.fmiGetReal(c, &vr_down, 1, &raw), fmiOK);
    double v_down = -raw; /* alias="negatedAlias" */
    cr_expect_lt(v, 0.0);
    cr_expect_gt(v_down, 0.0, "the ball falls: positive downward velocity");
    cr_expect(v_down == -v, "v_down = -v exactly");
    cr_assert_eq(a.fmiGetReal(c, &vr_height, 1, &height), fmiOK);
    cr_assert_eq(a.fmiGetReal(c, &vr_h, 1, &h), fmiOK);
    cr_expect(height == h && h == x[0], "alias height = h");
    a.fmiFreeModelInstance(c);
    dlclose(a.h);
    unpacked_free(&u);
}

/* C-16: several ME instances in one process are independent (no globals in the glue). */
Test(fmi1_export, me_instances_are_independent)
{
    unpacked u;
    unpack(&u, BB_ME1);
    api1 a;
    load1(&a, &u, 0);
    fmiComponent c1 = a.fmiInstantiateModel("one", u.guid, me_cbs, fmiFalse);
    fmiComponent c2 = a.fmiInstantiateModel("two", u.guid, me_cbs, fmiFalse);
    cr_assert(c1 && c2 && c1 != c2);
    fmiValueReference vh = vr_of(&u, "h");
    double h0 = 5.0, h1 = 0.0, h2 = 0.0;
    cr_assert_eq(a.fmiSetReal(c1, &vh, 1, &h0), fmiOK);
    fmiEventInfo ei;
    cr_assert_eq(a.fmiInitialize(c1, fmiFalse, 0.0, &ei), fmiOK);
    cr_assert_eq(a.fmiInitialize(c2, fmiFalse, 0.0, &ei), fmiOK);
    cr_assert_eq(a.fmiGetReal(c1, &vh, 1, &h1), fmiOK);
    cr_assert_eq(a.fmiGetReal(c2, &vh, 1, &h2), fmiOK);
    cr_expect_eq(h1, 5.0);
    cr_expect_eq(h2, 1.0, "the second instance keeps the start value");
    a.fmiFreeModelInstance(c1);
    cr_assert_eq(a.fmiGetReal(c2, &vh, 1, &h2), fmiOK, "still usable after the other is freed");
    a.fmiFreeModelInstance(c2);
    dlclose(a.h);
    unpacked_free(&u);
}

/* C-10 zero-length calls with NULL arrays; C-18 sizes checked; F-07/F-09 nominals and VRs. */
Test(fmi1_export, me_sizes_and_state_queries)
{
    unpacked u;
    unpack(&u, BB_ME1);
    api1 a;
    load1(&a, &u, 0);
    fmiComponent c = a.fmiInstantiateModel("sizes", u.guid, me_cbs, fmiFalse);
    fmiEventInfo ei;
    cr_assert_eq(a.fmiInitialize(c, fmiFalse, 0.0, &ei), fmiOK);
    cr_expect_eq(a.fmiGetReal(c, NULL, 0, NULL), fmiOK);
    cr_expect_eq(a.fmiSetReal(c, NULL, 0, NULL), fmiOK);
    cr_expect_eq(a.fmiGetString(c, NULL, 0, NULL), fmiOK);
    fmiValueReference vrx[2];
    cr_assert_eq(a.fmiGetStateValueReferences(c, vrx, 2), fmiOK);
    cr_expect_eq(vrx[0], vr_of(&u, "h"));
    cr_expect_eq(vrx[1], vr_of(&u, "v"));
    double nom[2];
    cr_assert_eq(a.fmiGetNominalContinuousStates(c, nom, 2), fmiOK);
    cr_expect(nom[0] > 0.0 && nom[1] > 0.0);
    double time = -1.0;
    fmiValueReference vt = vr_of(&u, "time");
    cr_expect_eq(a.fmiGetReal(c, &vt, 1, &time), fmiOK);
    cr_expect_eq(time, 0.0);
    double x[3];
    cr_expect_eq(a.fmiGetContinuousStates(c, x, 3), fmiError, "nx must be 2 (C-18)");
    a.fmiFreeModelInstance(c);
    dlclose(a.h);
    unpacked_free(&u);
}

/* C-06/C-08/C-09: instanceName copied; no OK messages with logging off; errors always. */
Test(fmi1_export, logging_and_instance_name)
{
    unpacked u;
    unpack(&u, SMD_CS1);
    api1 a;
    load1(&a, &u, 1);
    reset_counters();
    char name[32];
    snprintf(name, sizeof name, "original");
    fmiComponent c = a.fmiInstantiateSlave(name, u.guid, NULL, NULL, 0.0, fmiFalse, fmiFalse,
                                           cs_cbs, fmiFalse);
    cr_assert(c);
    snprintf(name, sizeof name, "changed");
    cr_assert_eq(a.fmiInitializeSlave(c, 0.0, fmiTrue, 2.0), fmiOK);
    cr_assert_eq(a.fmiDoStep(c, 0.0, 0.01, fmiTrue), fmiOK);
    cr_expect_eq(n_log, 0, "nothing logged with loggingOn = false and no problem");
    fmiValueReference bad = 9999;
    double y;
    cr_expect_eq(a.fmiGetReal(c, &bad, 1, &y), fmiError, "unknown valueReference (C-11)");
    cr_expect_eq(n_log_errors, 1);
    cr_expect_str_eq(last_name, "original", "the instance name was copied");
    cr_expect(strstr(last_msg, "9999") != NULL, "the message names the valueReference");
    a.fmiFreeSlaveInstance(c);
    dlclose(a.h);
    unpacked_free(&u);
}

/* Reset and a second run give the same numbers as the first (fmiResetSlave -> instantiated). */
Test(fmi1_export, cs_reset_reruns_identically)
{
    unpacked u;
    unpack(&u, SMD_CS1);
    api1 a;
    load1(&a, &u, 1);
    fmiValueReference vx = vr_of(&u, "x");
    fmiComponent c = a.fmiInstantiateSlave("reset", u.guid, NULL, NULL, 0.0, fmiFalse, fmiFalse,
                                           cs_cbs, fmiFalse);
    double run[2][50];
    for (int r = 0; r < 2; r++) {
        cr_assert_eq(a.fmiInitializeSlave(c, 0.0, fmiTrue, 2.0), fmiOK);
        for (int i = 0; i < 50; i++) {
            cr_assert_eq(a.fmiDoStep(c, 0.01 * i, 0.01, fmiTrue), fmiOK);
            cr_assert_eq(a.fmiGetReal(c, &vx, 1, &run[r][i]), fmiOK);
        }
        cr_assert_eq(a.fmiTerminateSlave(c), fmiOK);
        cr_assert_eq(a.fmiResetSlave(c), fmiOK);
    }
    cr_expect(bits_equal(run[0], run[1], 50));
    a.fmiFreeSlaveInstance(c);
    dlclose(a.h);
    unpacked_free(&u);
}

/* --- the declarations against third-party 1.0 FMUs ----------------------------------------- */
/* fmi1.h is the project's own text: the Modelica Reference-FMUs v0.0.39 (built from the
 * standard's headers) must load and run through it (every prefixed function, the callbacks
 * passed by value, fmiEventInfo's layout: Stair announces its first time event at t = 1). */
static char *shared_path(const char *rel)
{
    char *p = NULL;
    cr_assert(asprintf(&p, "%s/%s", FMUC_SHARED_DIR, rel) > 0);
    return p;
}

static void run_third_party_me(const char *fmu)
{
    unpacked u;
    unpack(&u, fmu);
    api1 a;
    load1(&a, &u, 0);
    cr_expect_str_eq(a.fmiGetModelTypesPlatform(), "standard32", "%s", fmu);
    cr_expect_str_eq(a.fmiGetVersion(), "1.0", "%s", fmu);
    xmlNode *root = xmlDocGetRootElement(u.doc);
    char buf[32];
    copy_attr(root, "numberOfContinuousStates", buf, sizeof buf);
    size_t nx = strtoul(buf, NULL, 10);
    copy_attr(root, "numberOfEventIndicators", buf, sizeof buf);
    size_t nz = strtoul(buf, NULL, 10);
    cr_assert(nx <= ME_MAX_X && nz <= ME_MAX_X);
    fmiComponent c = a.fmiInstantiateModel("tp", u.guid, me_cbs, fmiFalse);
    cr_assert(c, "%s: fmiInstantiateModel", fmu);
    fmiEventInfo ei;
    cr_assert_eq(a.fmiSetTime(c, 0.0), fmiOK);
    cr_assert_eq(a.fmiInitialize(c, fmiFalse, 0.0, &ei), fmiOK, "%s: fmiInitialize", fmu);
    if (strstr(fmu, "/Stair.fmu")) {
        cr_expect(ei.upcomingTimeEvent, "%s: upcomingTimeEvent", fmu);
        cr_expect_float_eq(ei.nextEventTime, 1.0, 1e-12, "%s: nextEventTime", fmu);
    }
    double x[ME_MAX_X], dx[ME_MAX_X], z[ME_MAX_X], zprev[ME_MAX_X];
    cr_assert_eq(a.fmiGetEventIndicators(c, zprev, nz), fmiOK);
    int events = 0;
    for (long i = 1; i <= 2000; i++) {
        double t = (double)i * ME_H;
        cr_assert_eq(a.fmiGetContinuousStates(c, x, nx), fmiOK);
        cr_assert_eq(a.fmiGetDerivatives(c, dx, nx), fmiOK);
        for (size_t k = 0; k < nx; k++)
            x[k] += ME_H * dx[k];
        cr_assert_eq(a.fmiSetTime(c, t), fmiOK);
        cr_assert_eq(a.fmiSetContinuousStates(c, x, nx), fmiOK);
        fmiBoolean call = fmiFalse;
        cr_assert_eq(a.fmiCompletedIntegratorStep(c, &call), fmiOK);
        cr_assert_eq(a.fmiGetEventIndicators(c, z, nz), fmiOK);
        if (call || (ei.upcomingTimeEvent && t >= ei.nextEventTime) || crossed(zprev, z, nz)) {
            cr_assert_eq(a.fmiEventUpdate(c, fmiFalse, &ei), fmiOK, "%s: at t = %g", fmu, t);
            cr_assert_eq(a.fmiGetEventIndicators(c, z, nz), fmiOK);
            events++;
        }
        memcpy(zprev, z, sizeof z);
        for (size_t k = 0; k < nx; k++)
            cr_assert(isfinite(x[k]), "%s: state %zu at t = %g", fmu, k, t);
    }
    if (strstr(fmu, "/Stair.fmu") || strstr(fmu, "/BouncingBall.fmu"))
        cr_expect_gt(events, 0, "%s: events handled", fmu);
    cr_assert_eq(a.fmiTerminate(c), fmiOK);
    a.fmiFreeModelInstance(c);
    dlclose(a.h);
    unpacked_free(&u);
}

static void run_third_party_cs(const char *fmu)
{
    unpacked u;
    unpack(&u, fmu);
    api1 a;
    load1(&a, &u, 1);
    cr_expect_str_eq(a.fmiGetTypesPlatform(), "standard32", "%s", fmu);
    cr_expect_str_eq(a.fmiGetVersion(), "1.0", "%s", fmu);
    char loc[4200];
    snprintf(loc, sizeof loc, "file://%s", u.dir);
    fmiComponent c = a.fmiInstantiateSlave("tp", u.guid, loc, "application/x-fmu-sharedlibrary",
                                           0.0, fmiFalse, fmiFalse, cs_cbs, fmiFalse);
    cr_assert(c, "%s: fmiInstantiateSlave", fmu);
    cr_assert_eq(a.fmiInitializeSlave(c, 0.0, fmiTrue, 1.0), fmiOK, "%s", fmu);
    for (int i = 0; i < 100; i++)
        cr_assert_eq(a.fmiDoStep(c, 0.01 * i, 0.01, fmiTrue), fmiOK, "%s: step %d", fmu, i);
    double last = -1.0;
    fmiStatus st = a.fmiGetRealStatus(c, fmiLastSuccessfulTime, &last);
    if (st == fmiOK)
        cr_expect_float_eq(last, 1.0, 1e-9, "%s: fmiLastSuccessfulTime", fmu);
    cr_assert_eq(a.fmiTerminateSlave(c), fmiOK);
    a.fmiFreeSlaveInstance(c);
    dlclose(a.h);
    unpacked_free(&u);
}

Test(fmi1_header, reference_fmus_v0039_run_through_it)
{
    char *dir = shared_path("reference-fmus/fmi1");
    if (access(dir, R_OK) != 0) {
        free(dir);
        cr_skip_test("%s/reference-fmus/fmi1 is absent", FMUC_SHARED_DIR);
    }
    free(dir);
    static const char *const me[] = {"BouncingBall", "Dahlquist", "Feedthrough", "Stair",
                                     "VanDerPol"};
    static const char *const cs[] = {"BouncingBall", "Dahlquist", "Feedthrough", "Stair",
                                     "VanDerPol"};
    for (size_t i = 0; i < sizeof me / sizeof me[0]; i++) {
        char rel[128];
        snprintf(rel, sizeof rel, "reference-fmus/fmi1/me/%s.fmu", me[i]);
        char *p = shared_path(rel);
        run_third_party_me(p);
        free(p);
    }
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        char rel[128];
        snprintf(rel, sizeof rel, "reference-fmus/fmi1/cs/%s.fmu", cs[i]);
        char *p = shared_path(rel);
        run_third_party_cs(p);
        free(p);
    }
}
