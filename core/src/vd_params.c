/* VDSim parameters: JSON loading with strict validation, tunables, kinematics tables. */
#include "vd_internal.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- error helper ------------------------------------------------------------------------- */
static void set_err(vd_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_err(vd_error *err, const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}

/* --- locale-independent numbers ----------------------------------------------------------- */
int vd__parse_double(const char *s, const char **end, double *out)
{
    locale_t c_loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (c_loc == (locale_t)0)
        return -1;
    char *e = NULL;
    errno = 0;
    double v = strtod_l(s, &e, c_loc);
    int range_err = errno == ERANGE && (v == HUGE_VAL || v == -HUGE_VAL);
    freelocale(c_loc);
    if (e == s || range_err || !isfinite(v))
        return -1;
    /* only plain decimals: reject hex floats, inf and nan spellings */
    for (const char *q = s; q < e; q++) {
        if (*q == 'x' || *q == 'X' || *q == 'n' || *q == 'N' || *q == 'i' || *q == 'I')
            return -1;
    }
    *out = v;
    if (end)
        *end = e;
    return 0;
}

/* --- JSON field table --------------------------------------------------------------------- */
enum { F_VEH = 0, F_TIRE = 1 };
enum { K_NUM, K_BOOL };
enum { NEED_ALL, NEED_LINEAR, NEED_MAGIC };

typedef struct field_def {
    int file;
    const char *section; /* NULL = top level */
    const char *key;
    size_t off;
    int kind;
    int need;
    double min, max;
    const char *unit;
} field_def;

#define P(f) offsetof(struct vd_params, f)
static const field_def FIELDS[] = {
    {F_VEH, "mass", "m_s", P(m_s), K_NUM, NEED_ALL, 100, 20000, "kg"},
    {F_VEH, "mass", "m_u_front", P(m_u_f), K_NUM, NEED_ALL, 1, 1000, "kg"},
    {F_VEH, "mass", "m_u_rear", P(m_u_r), K_NUM, NEED_ALL, 1, 1000, "kg"},
    {F_VEH, "mass", "Ix", P(Ix), K_NUM, NEED_ALL, 10, 1e5, "kg*m^2"},
    {F_VEH, "mass", "Iy", P(Iy), K_NUM, NEED_ALL, 10, 2e5, "kg*m^2"},
    {F_VEH, "mass", "Iz", P(Iz), K_NUM, NEED_ALL, 10, 2e5, "kg*m^2"},
    {F_VEH, "geometry", "a", P(a), K_NUM, NEED_ALL, 0.2, 5, "m"},
    {F_VEH, "geometry", "b", P(b), K_NUM, NEED_ALL, 0.2, 5, "m"},
    {F_VEH, "geometry", "track_front", P(t_f), K_NUM, NEED_ALL, 0.5, 3, "m"},
    {F_VEH, "geometry", "track_rear", P(t_r), K_NUM, NEED_ALL, 0.5, 3, "m"},
    {F_VEH, "geometry", "h_cg", P(h_cg), K_NUM, NEED_ALL, 0.05, 3, "m"},
    {F_VEH, "geometry", "h_rc_front", P(h_rc_f), K_NUM, NEED_ALL, -0.5, 1.5, "m"},
    {F_VEH, "geometry", "h_rc_rear", P(h_rc_r), K_NUM, NEED_ALL, -0.5, 1.5, "m"},
    {F_VEH, "wheel", "r0", P(r0), K_NUM, NEED_ALL, 0.1, 1.5, "m"},
    {F_VEH, "wheel", "Iw", P(Iw), K_NUM, NEED_ALL, 0.05, 50, "kg*m^2"},
    {F_VEH, "wheel", "k_t", P(k_t), K_NUM, NEED_ALL, 1e4, 1e9, "N/m"},
    {F_VEH, "wheel", "c_t", P(c_t), K_NUM, NEED_ALL, 0, 1e5, "N*s/m"},
    {F_VEH, "suspension", "k_s_front", P(k_s_f), K_NUM, NEED_ALL, 1e3, 1e7, "N/m"},
    {F_VEH, "suspension", "k_s_rear", P(k_s_r), K_NUM, NEED_ALL, 1e3, 1e7, "N/m"},
    {F_VEH, "suspension", "c_s_front", P(c_s_f), K_NUM, NEED_ALL, 0, 1e6, "N*s/m"},
    {F_VEH, "suspension", "c_s_rear", P(c_s_r), K_NUM, NEED_ALL, 0, 1e6, "N*s/m"},
    {F_VEH, "suspension", "k_arb_front", P(k_arb_f), K_NUM, NEED_ALL, 0, 1e6, "N*m/rad"},
    {F_VEH, "suspension", "k_arb_rear", P(k_arb_r), K_NUM, NEED_ALL, 0, 1e6, "N*m/rad"},
    {F_VEH, "driveline", "drive_torque_max", P(drive_torque_max), K_NUM, NEED_ALL, 0, 1e5, "N*m"},
    {F_VEH, "driveline", "drive_front_share", P(drive_front_share), K_NUM, NEED_ALL, 0, 1, "1"},
    {F_VEH, "driveline", "brake_torque_max", P(brake_torque_max), K_NUM, NEED_ALL, 0, 1e5, "N*m"},
    {F_VEH, "driveline", "brake_front_share", P(brake_front_share), K_NUM, NEED_ALL, 0, 1, "1"},
    {F_VEH, "driveline", "omega_eps", P(omega_eps), K_NUM, NEED_ALL, 0.01, 100, "rad/s"},
    {F_VEH, "resistance", "rho", P(rho), K_NUM, NEED_ALL, 0, 2, "kg/m^3"},
    {F_VEH, "resistance", "cd", P(cd), K_NUM, NEED_ALL, 0, 2, "1"},
    {F_VEH, "resistance", "frontal_area", P(frontal_area), K_NUM, NEED_ALL, 0, 20, "m^2"},
    {F_VEH, "resistance", "rolling_resistance", P(f_r), K_NUM, NEED_ALL, 0, 0.1, "1"},
    {F_VEH, "steering", "ackermann", P(ackermann), K_BOOL, NEED_ALL, 0, 1, "bool"},
    {F_VEH, "steering", "steer_max", P(steer_max), K_NUM, NEED_ALL, 0.01, 1.2, "rad"},
    {F_VEH, "load_transfer", "tau", P(tau_lag), K_NUM, NEED_ALL, 1e-3, 1, "s"},
    {F_VEH, "initial", "vx0", P(vx0), K_NUM, NEED_ALL, 0, 100, "m/s"},
    {F_VEH, "solver", "h_max", P(h_max), K_NUM, NEED_ALL, 1e-6, 0.1, "s"},
    {F_VEH, "solver", "v_min", P(v_min), K_NUM, NEED_ALL, 0.01, 20, "m/s"},
    {F_TIRE, NULL, "mu", P(mu), K_NUM, NEED_ALL, 0, 3, "1"},
    {F_TIRE, "linear", "C_k_front", P(C_k_f), K_NUM, NEED_LINEAR, 0, 1e7, "N"},
    {F_TIRE, "linear", "C_k_rear", P(C_k_r), K_NUM, NEED_LINEAR, 0, 1e7, "N"},
    {F_TIRE, "linear", "C_a_front", P(C_a_f), K_NUM, NEED_LINEAR, 0, 1e7, "N/rad"},
    {F_TIRE, "linear", "C_a_rear", P(C_a_r), K_NUM, NEED_LINEAR, 0, 1e7, "N/rad"},
    {F_TIRE, "magic", "B_x", P(Bx), K_NUM, NEED_MAGIC, 0, 100, "1"},
    {F_TIRE, "magic", "C_x", P(Cx), K_NUM, NEED_MAGIC, 0.1, 2, "1"},
    {F_TIRE, "magic", "E_x", P(Ex), K_NUM, NEED_MAGIC, -10, 1, "1"},
    {F_TIRE, "magic", "B_y", P(By), K_NUM, NEED_MAGIC, 0, 100, "1"},
    {F_TIRE, "magic", "C_y", P(Cy), K_NUM, NEED_MAGIC, 0.1, 2, "1"},
    {F_TIRE, "magic", "E_y", P(Ey), K_NUM, NEED_MAGIC, -10, 1, "1"},
};
#undef P
#define NFIELDS (sizeof FIELDS / sizeof FIELDS[0])

static const char *json_type_name(const cJSON *j)
{
    if (cJSON_IsNumber(j))
        return "a number";
    if (cJSON_IsString(j))
        return "a string";
    if (cJSON_IsBool(j))
        return "a boolean";
    if (cJSON_IsNull(j))
        return "null";
    if (cJSON_IsArray(j))
        return "an array";
    if (cJSON_IsObject(j))
        return "an object";
    return "invalid";
}

static void fullname(char *buf, size_t n, const char *section, const char *key)
{
    if (section)
        snprintf(buf, n, "%s.%s", section, key);
    else
        snprintf(buf, n, "%s", key);
}

static void expect_text(char *buf, size_t n, const field_def *f)
{
    if (f->kind == K_BOOL)
        snprintf(buf, n, "a boolean (true or false)");
    else
        snprintf(buf, n, "a number in [%g, %g] %s", f->min, f->max, f->unit);
}

static int section_known(int file, const char *name)
{
    for (size_t i = 0; i < NFIELDS; i++) {
        if (FIELDS[i].file == file && FIELDS[i].section && strcmp(FIELDS[i].section, name) == 0)
            return 1;
    }
    return 0;
}

static int key_known(int file, const char *section, const char *key)
{
    for (size_t i = 0; i < NFIELDS; i++) {
        const field_def *f = &FIELDS[i];
        if (f->file != file || strcmp(f->key, key) != 0)
            continue;
        if ((section == NULL) != (f->section == NULL))
            continue;
        if (section && strcmp(section, f->section) != 0)
            continue;
        return 1;
    }
    return 0;
}

/* 1 if an earlier sibling of it has the same key. */
static int duplicate_key(const cJSON *it)
{
    for (const cJSON *q = it->prev; q && q->next; q = q->prev) {
        if (q->string && it->string && strcmp(q->string, it->string) == 0)
            return 1;
        if (q == q->prev)
            break;
    }
    return 0;
}

/* Unknown keys are errors (a misspelt optional key would otherwise be ignored silently).
 * Keys starting with '_' are comments; top-level "name"/"description" must be strings. */
static vd_status check_unknown(const cJSON *root, int file, const char *fname, vd_error *err)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, root)
    {
        const char *k = it->string ? it->string : "";
        if (duplicate_key(it)) {
            set_err(err, "%s: field '%s': duplicated", fname, k);
            return VD_ECONFIG;
        }
        if (k[0] == '_')
            continue;
        if (strcmp(k, "name") == 0 || strcmp(k, "description") == 0 ||
            (file == F_TIRE && strcmp(k, "model") == 0)) {
            if (!cJSON_IsString(it)) {
                set_err(err, "%s: field '%s': expected a string, got %s", fname, k,
                        json_type_name(it));
                return VD_ECONFIG;
            }
            continue;
        }
        if (section_known(file, k)) {
            if (!cJSON_IsObject(it)) {
                set_err(err, "%s: field '%s': expected an object, got %s", fname, k,
                        json_type_name(it));
                return VD_ECONFIG;
            }
            const cJSON *sub;
            cJSON_ArrayForEach(sub, it)
            {
                const char *sk = sub->string ? sub->string : "";
                if (duplicate_key(sub)) {
                    set_err(err, "%s: field '%s.%s': duplicated", fname, k, sk);
                    return VD_ECONFIG;
                }
                if (sk[0] == '_')
                    continue;
                if (!key_known(file, k, sk)) {
                    set_err(err, "%s: field '%s.%s': unknown field (see core/README.md)", fname, k,
                            sk);
                    return VD_ECONFIG;
                }
            }
            continue;
        }
        if (key_known(file, NULL, k))
            continue;
        set_err(err, "%s: field '%s': unknown field (see core/README.md)", fname, k);
        return VD_ECONFIG;
    }
    return VD_OK;
}

static vd_status read_field(vd_params *p, const field_def *f, const cJSON *root, const char *fname,
                            vd_error *err)
{
    char name[96], expect[96];
    fullname(name, sizeof name, f->section, f->key);
    expect_text(expect, sizeof expect, f);
    const cJSON *obj = root;
    if (f->section) {
        obj = cJSON_GetObjectItemCaseSensitive(root, f->section);
        if (!obj) {
            set_err(err, "%s: field '%s' is missing (section '%s' absent; expected %s)", fname,
                    name, f->section, expect);
            return VD_ECONFIG;
        }
    }
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, f->key);
    if (!v) {
        set_err(err, "%s: field '%s' is missing (expected %s)", fname, name, expect);
        return VD_ECONFIG;
    }
    char *base = (char *)p;
    if (f->kind == K_BOOL) {
        if (!cJSON_IsBool(v)) {
            set_err(err, "%s: field '%s': expected %s, got %s", fname, name, expect,
                    json_type_name(v));
            return VD_ECONFIG;
        }
        int b = cJSON_IsTrue(v) ? 1 : 0;
        memcpy(base + f->off, &b, sizeof b);
        return VD_OK;
    }
    if (!cJSON_IsNumber(v)) {
        set_err(err, "%s: field '%s': expected %s, got %s", fname, name, expect,
                json_type_name(v));
        return VD_ECONFIG;
    }
    double d = v->valuedouble;
    if (!isfinite(d) || d < f->min || d > f->max) {
        set_err(err, "%s: field '%s': value %.17g is out of range (expected %s)", fname, name, d,
                expect);
        return VD_ECONFIG;
    }
    memcpy(base + f->off, &d, sizeof d);
    return VD_OK;
}

static vd_status parse_file(vd_params *p, int file, const char *text, const char *fname,
                            vd_error *err)
{
    vd_status st = VD_OK;
    if (!text) {
        set_err(err, "%s: no JSON text", fname);
        return VD_EINVAL;
    }
    const char *at = NULL; /* error position; avoids cJSON's global cJSON_GetErrorPtr */
    cJSON *root = cJSON_ParseWithOpts(text, &at, 0);
    if (!root) {
        int line = 1;
        if (at) {
            for (const char *q = text; q < at && *q; q++)
                line += *q == '\n';
        }
        set_err(err, "%s: invalid JSON near line %d", fname, line);
        return VD_ECONFIG;
    }
    if (!cJSON_IsObject(root)) {
        set_err(err, "%s: top level must be a JSON object", fname);
        st = VD_ECONFIG;
        goto out;
    }
    st = check_unknown(root, file, fname, err);
    if (st < 0)
        goto out;
    int need = NEED_ALL;
    if (file == F_TIRE) {
        const cJSON *model = cJSON_GetObjectItemCaseSensitive(root, "model");
        if (!model) {
            set_err(err, "%s: field 'model' is missing (expected \"linear\" or \"magic\")", fname);
            st = VD_ECONFIG;
            goto out;
        }
        if (!cJSON_IsString(model) ||
            (strcmp(model->valuestring, "linear") != 0 && strcmp(model->valuestring, "magic") != 0)) {
            set_err(err, "%s: field 'model': expected \"linear\" or \"magic\"", fname);
            st = VD_ECONFIG;
            goto out;
        }
        p->tire_model = strcmp(model->valuestring, "linear") == 0 ? VD_TIRE_LINEAR : VD_TIRE_MAGIC;
        need = p->tire_model == VD_TIRE_LINEAR ? NEED_LINEAR : NEED_MAGIC;
    }
    for (size_t i = 0; i < NFIELDS; i++) {
        const field_def *f = &FIELDS[i];
        if (f->file != file)
            continue;
        /* The section of the selected tire model is required; the other one is validated if
         * present, so a file can carry both. */
        if (f->need != NEED_ALL && f->need != need &&
            !cJSON_GetObjectItemCaseSensitive(root, f->section))
            continue;
        st = read_field(p, f, root, fname, err);
        if (st < 0)
            goto out;
    }
out:
    cJSON_Delete(root);
    return st;
}

static vd_status check_cross(const vd_params *p, const char *vname, vd_error *err)
{
    if (p->h_rc_f >= p->h_cg || p->h_rc_r >= p->h_cg) {
        set_err(err, "%s: field 'geometry.h_rc_front'/'geometry.h_rc_rear' must be below "
                     "'geometry.h_cg' (%g m)", vname, p->h_cg);
        return VD_ECONFIG;
    }
    return VD_OK;
}

vd_status vd_params_parse(vd_params **out, const char *vehicle_json, const char *vehicle_name,
                          const char *tire_json, const char *tire_name, vd_error *err)
{
    if (!out)
        return VD_EINVAL;
    *out = NULL;
    const char *vn = vehicle_name ? vehicle_name : "vehicle.json";
    const char *tn = tire_name ? tire_name : "tire.json";
    vd_params *p = calloc(1, sizeof *p);
    if (!p) {
        set_err(err, "out of memory");
        return VD_ENOMEM;
    }
    vd_status st = parse_file(p, F_VEH, vehicle_json, vn, err);
    if (st == VD_OK)
        st = parse_file(p, F_TIRE, tire_json, tn, err);
    if (st == VD_OK)
        st = check_cross(p, vn, err);
    if (st < 0) {
        free(p);
        return st;
    }
    *out = p;
    return VD_OK;
}

static char *read_text(const char *path, vd_error *err, vd_status *st)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    if (!f) {
        set_err(err, "%s: cannot open: %s", path, strerror(errno));
        *st = VD_EIO;
        return NULL;
    }
    size_t cap = 4096, len = 0;
    buf = malloc(cap);
    if (!buf)
        goto nomem;
    for (;;) {
        if (len + 1 >= cap) {
            if (cap > ((size_t)64 << 20)) {
                set_err(err, "%s: file too large", path);
                *st = VD_EIO;
                goto fail;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb)
                goto nomem;
            buf = nb;
            cap *= 2;
        }
        size_t r = fread(buf + len, 1, cap - 1 - len, f);
        len += r;
        if (r == 0) {
            if (ferror(f)) {
                set_err(err, "%s: read error", path);
                *st = VD_EIO;
                goto fail;
            }
            break;
        }
    }
    buf[len] = '\0';
    if (strlen(buf) != len) {
        set_err(err, "%s: file contains a NUL byte", path);
        *st = VD_ECONFIG;
        goto fail;
    }
    fclose(f);
    return buf;
nomem:
    set_err(err, "%s: out of memory", path);
    *st = VD_ENOMEM;
fail:
    free(buf);
    fclose(f);
    return NULL;
}

vd_status vd_params_load(vd_params **out, const char *vehicle_json_path, const char *tire_json_path,
                         vd_error *err)
{
    vd_status st = VD_OK;
    char *vt = NULL, *tt = NULL;
    if (!out || !vehicle_json_path || !tire_json_path) {
        set_err(err, "vd_params_load: NULL argument");
        return VD_EINVAL;
    }
    *out = NULL;
    vt = read_text(vehicle_json_path, err, &st);
    if (!vt)
        goto out;
    tt = read_text(tire_json_path, err, &st);
    if (!tt)
        goto out;
    st = vd_params_parse(out, vt, vehicle_json_path, tt, tire_json_path, err);
out:
    free(vt);
    free(tt);
    return st;
}

vd_params *vd_params_clone(const vd_params *p)
{
    if (!p)
        return NULL;
    vd_params *c = malloc(sizeof *c);
    if (c)
        memcpy(c, p, sizeof *c);
    return c;
}

void vd_params_free(vd_params *p) { free(p); }

vd_params *vd_params_clone_with(const vd_params *p, const vd_allocator *a)
{
    if (!a || !a->alloc)
        return vd_params_clone(p);
    if (!p)
        return NULL;
    vd_params *c = a->alloc(a->env, 1, sizeof *c);
    if (c)
        memcpy(c, p, sizeof *c);
    return c;
}

void vd_params_free_with(vd_params *p, const vd_allocator *a)
{
    if (!p)
        return;
    if (!a || !a->alloc)
        free(p);
    else if (a->release)
        a->release(a->env, p);
}

/* --- tunables ----------------------------------------------------------------------------- */
typedef struct tunable_def {
    const char *name;
    size_t off; /* (size_t)-1: derived ("mass") */
    double min, max;
    const char *unit;
    const char *desc;
} tunable_def;

#define P(f) offsetof(struct vd_params, f)
#define DERIVED ((size_t)-1)
static const tunable_def TUNABLES[] = {
    {"vx0", P(vx0), 0, 100, "m/s", "Initial forward speed"},
    {"mass", DERIVED, 200, 25000, "kg", "Total vehicle mass (sprung mass is adjusted)"},
    {"mu", P(mu), 0, 3, "1", "Tire-road friction coefficient"},
    {"drive_torque_max", P(drive_torque_max), 0, 1e5, "N.m", "Total wheel drive torque at full throttle"},
    {"brake_torque_max", P(brake_torque_max), 0, 1e5, "N.m", "Total brake torque at full brake"},
    {"drive_front_share", P(drive_front_share), 0, 1, "1", "Front drive torque share (0 RWD, 1 FWD)"},
    {"brake_front_share", P(brake_front_share), 0, 1, "1", "Front brake torque share"},
    {"h_max", P(h_max), 1e-6, 0.1, "s", "Maximum RK4 substep"},
    {"v_min", P(v_min), 0.01, 20, "m/s", "Slip denominator floor"},
    {"drag_cd", P(cd), 0, 2, "1", "Aerodynamic drag coefficient"},
    {"frontal_area", P(frontal_area), 0, 20, "m2", "Frontal area"},
    {"rolling_resistance", P(f_r), 0, 0.1, "1", "Rolling resistance coefficient"},
    {"steer_max", P(steer_max), 0.01, 1.2, "rad", "Road-wheel angle limit"},
    {"tau_lag", P(tau_lag), 1e-3, 1, "s", "Load-transfer lag time constant (L2)"},
    {"tire_vertical_stiffness", P(k_t), 1e4, 1e9, "N/m", "Tire radial stiffness k_t (L3)"},
};
#undef P
#define NTUNABLES (sizeof TUNABLES / sizeof TUNABLES[0])

static const char *const TUNABLE_NAMES[] = {
    "vx0", "mass", "mu", "drive_torque_max", "brake_torque_max", "drive_front_share",
    "brake_front_share", "h_max", "v_min", "drag_cd", "frontal_area", "rolling_resistance",
    "steer_max", "tau_lag", "tire_vertical_stiffness", NULL};

_Static_assert(sizeof TUNABLE_NAMES / sizeof TUNABLE_NAMES[0] == NTUNABLES + 1,
               "tunable name list out of sync");

const char *const *vd_param_names(void) { return TUNABLE_NAMES; }

static const tunable_def *find_tunable(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < NTUNABLES; i++) {
        if (strcmp(TUNABLES[i].name, name) == 0)
            return &TUNABLES[i];
    }
    return NULL;
}

static double unsprung_total(const vd_params *p) { return 2.0 * p->m_u_f + 2.0 * p->m_u_r; }

vd_status vd_param_get(const vd_params *p, const char *name, double *value)
{
    const tunable_def *t = find_tunable(name);
    if (!p || !t || !value)
        return VD_EINVAL;
    if (t->off == DERIVED)
        *value = p->m_s + unsprung_total(p);
    else
        memcpy(value, (const char *)p + t->off, sizeof *value);
    return VD_OK;
}

vd_status vd_param_set(vd_params *p, const char *name, double value, vd_error *err)
{
    const tunable_def *t = find_tunable(name);
    if (!p) {
        set_err(err, "vd_param_set: NULL parameters");
        return VD_EINVAL;
    }
    if (!t) {
        set_err(err, "parameter '%s': unknown (see vd_param_names)", name ? name : "(null)");
        return VD_EINVAL;
    }
    if (!isfinite(value) || value < t->min || value > t->max) {
        set_err(err, "parameter '%s': value %.17g is out of range (expected [%g, %g] %s)", name,
                value, t->min, t->max, t->unit);
        return VD_EINVAL;
    }
    if (t->off == DERIVED) {
        double ms = value - unsprung_total(p);
        if (ms < 100) {
            set_err(err, "parameter 'mass': value %.17g leaves a sprung mass of %g kg (expected "
                         "mass >= %g kg, i.e. unsprung %g kg + 100)",
                    value, ms, unsprung_total(p) + 100, unsprung_total(p));
            return VD_EINVAL;
        }
        p->m_s = ms;
        return VD_OK;
    }
    memcpy((char *)p + t->off, &value, sizeof value);
    return VD_OK;
}

vd_status vd_param_info(const char *name, double *min, double *max, const char **unit,
                        const char **description)
{
    const tunable_def *t = find_tunable(name);
    if (!t)
        return VD_EINVAL;
    if (min)
        *min = t->min;
    if (max)
        *max = t->max;
    if (unit)
        *unit = t->unit;
    if (description)
        *description = t->desc;
    return VD_OK;
}

/* --- kinematics tables -------------------------------------------------------------------- */
static const char *const KIN_COLS[VD_KIN_NCOL] = {"toe", "camber", "track_change", "mr", "h_rc"};
static const double KIN_MIN[VD_KIN_NCOL] = {-0.2, -0.2, -0.2, 0.1, -0.5};
static const double KIN_MAX[VD_KIN_NCOL] = {0.2, 0.2, 0.2, 3.0, 1.5};

double vd__kin_lookup(const vd_kin_table *t, int c, double d)
{
    const double *xs = t->travel, *ys = t->col[c];
    int n = t->n;
    if (d <= xs[0])
        return ys[0];
    if (d >= xs[n - 1])
        return ys[n - 1];
    int lo = 0, hi = n - 1; /* xs[lo] < d < xs[hi] */
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        if (xs[mid] <= d)
            lo = mid;
        else
            hi = mid;
    }
    double x0 = xs[lo], x1 = xs[hi], y0 = ys[lo], y1 = ys[hi];
    return y0 + (y1 - y0) * ((d - x0) / (x1 - x0));
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

/* Split a line at commas in place; returns the field count (at most max). */
static int split_csv(char *line, char **fields, int max)
{
    int n = 0;
    char *s = line;
    for (;;) {
        char *c = strchr(s, ',');
        if (n >= max)
            return max + 1;
        if (c)
            *c = '\0';
        fields[n++] = trim(s);
        if (!c)
            break;
        s = c + 1;
    }
    return n;
}

static vd_status parse_kin(vd_kin_table *t, const char *text, const char *name, vd_error *err)
{
    vd_status st = VD_OK;
    int colmap[1 + VD_KIN_NCOL]; /* csv column -> table column (-1 = travel) */
    int ncol = 0, header_done = 0, lineno = 0;
    size_t len = strlen(text);
    char *buf = malloc(len + 1);
    if (!buf) {
        set_err(err, "%s: out of memory", name);
        return VD_ENOMEM;
    }
    memcpy(buf, text, len + 1);
    memset(t, 0, sizeof *t);
    char *save = buf;
    while (save) {
        char *line = save;
        char *nl = strchr(line, '\n');
        if (nl) {
            *nl = '\0';
            save = nl + 1;
        } else {
            save = NULL;
        }
        lineno++;
        char *l = trim(line);
        if (*l == '\0' || *l == '#')
            continue;
        char *f[1 + VD_KIN_NCOL];
        int nf = split_csv(l, f, 1 + VD_KIN_NCOL);
        if (!header_done) {
            if (nf > 1 + VD_KIN_NCOL) {
                set_err(err, "%s: line %d: too many header columns", name, lineno);
                st = VD_ECONFIG;
                goto out;
            }
            if (strcmp(f[0], "travel") != 0) {
                set_err(err, "%s: line %d: header column 1 must be 'travel', got '%s'", name,
                        lineno, f[0]);
                st = VD_ECONFIG;
                goto out;
            }
            colmap[0] = -1;
            for (int i = 1; i < nf; i++) {
                int c = -1;
                for (int k = 0; k < VD_KIN_NCOL; k++) {
                    if (strcmp(f[i], KIN_COLS[k]) == 0)
                        c = k;
                }
                if (c < 0 || t->has[c]) {
                    set_err(err, "%s: line %d: column '%s' is %s (expected toe, camber, "
                                 "track_change, mr, h_rc)", name, lineno, f[i],
                            c < 0 ? "unknown" : "duplicated");
                    st = VD_ECONFIG;
                    goto out;
                }
                t->has[c] = 1;
                colmap[i] = c;
            }
            if (!t->has[VD_KIN_TOE] || !t->has[VD_KIN_CAMBER]) {
                set_err(err, "%s: line %d: columns 'toe' and 'camber' are required", name,
                        lineno);
                st = VD_ECONFIG;
                goto out;
            }
            ncol = nf;
            header_done = 1;
            continue;
        }
        if (nf != ncol) {
            set_err(err, "%s: line %d: expected %d columns, got %d", name, lineno, ncol,
                    nf > ncol ? nf : nf);
            st = VD_ECONFIG;
            goto out;
        }
        if (t->n >= VD_KIN_MAX_ROWS) {
            set_err(err, "%s: line %d: more than %d rows", name, lineno, VD_KIN_MAX_ROWS);
            st = VD_ECONFIG;
            goto out;
        }
        for (int i = 0; i < nf; i++) {
            double v;
            const char *end = NULL;
            const char *cname = colmap[i] < 0 ? "travel" : KIN_COLS[colmap[i]];
            if (vd__parse_double(f[i], &end, &v) != 0 || *end != '\0') {
                set_err(err, "%s: line %d: column '%s': '%s' is not a decimal number", name,
                        lineno, cname, f[i]);
                st = VD_ECONFIG;
                goto out;
            }
            double lo = colmap[i] < 0 ? -0.5 : KIN_MIN[colmap[i]];
            double hi = colmap[i] < 0 ? 0.5 : KIN_MAX[colmap[i]];
            if (v < lo || v > hi) {
                set_err(err, "%s: line %d: column '%s': value %.17g is out of range (expected "
                             "[%g, %g])", name, lineno, cname, v, lo, hi);
                st = VD_ECONFIG;
                goto out;
            }
            if (colmap[i] < 0) {
                if (t->n > 0 && !(v > t->travel[t->n - 1])) {
                    set_err(err, "%s: line %d: column 'travel' must be strictly increasing "
                                 "(%.17g after %.17g)", name, lineno, v, t->travel[t->n - 1]);
                    st = VD_ECONFIG;
                    goto out;
                }
                t->travel[t->n] = v;
            } else {
                t->col[colmap[i]][t->n] = v;
            }
        }
        t->n++;
    }
    if (!header_done) {
        set_err(err, "%s: no header line (expected 'travel,toe,camber[,track_change,mr,h_rc]')",
                name);
        st = VD_ECONFIG;
        goto out;
    }
    if (t->n < 2) {
        set_err(err, "%s: need at least 2 data rows, got %d", name, t->n);
        st = VD_ECONFIG;
        goto out;
    }
out:
    free(buf);
    if (st < 0)
        memset(t, 0, sizeof *t);
    return st;
}

vd_status vd_params_parse_kinematics(vd_params *p, int axle, const char *csv_text,
                                     const char *name, vd_error *err)
{
    if (!p || !csv_text || (axle != 0 && axle != 1)) {
        set_err(err, "vd_params_parse_kinematics: invalid argument");
        return VD_EINVAL;
    }
    vd_kin_table *t = malloc(sizeof *t);
    if (!t) {
        set_err(err, "out of memory");
        return VD_ENOMEM;
    }
    vd_status st = parse_kin(t, csv_text, name ? name : (axle ? "rear.csv" : "front.csv"), err);
    if (st == VD_OK)
        p->kin[axle] = *t;
    free(t);
    return st;
}

vd_status vd_params_load_kinematics(vd_params *p, const char *front_csv_path,
                                    const char *rear_csv_path, vd_error *err)
{
    if (!p) {
        set_err(err, "vd_params_load_kinematics: NULL parameters");
        return VD_EINVAL;
    }
    const char *paths[2] = {front_csv_path, rear_csv_path};
    vd_kin_table *tmp = calloc(2, sizeof *tmp);
    vd_status st = VD_OK;
    if (!tmp) {
        set_err(err, "out of memory");
        return VD_ENOMEM;
    }
    for (int ax = 0; ax < 2; ax++) {
        if (!paths[ax]) {
            tmp[ax] = p->kin[ax];
            continue;
        }
        char *text = read_text(paths[ax], err, &st);
        if (!text)
            goto out;
        st = parse_kin(&tmp[ax], text, paths[ax], err);
        free(text);
        if (st < 0)
            goto out;
    }
    p->kin[0] = tmp[0];
    p->kin[1] = tmp[1];
out:
    free(tmp);
    return st;
}

void vd_params_clear_kinematics(vd_params *p)
{
    if (p)
        memset(p->kin, 0, sizeof p->kin);
}

vd_tire_model vd_params_tire_model(const vd_params *p) { return p->tire_model; }
