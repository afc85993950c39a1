/* Shared helpers for the VDSim core tests (test_core_l2.c, test_core_l3.c, test_core_params.c). */
#ifndef TEST_CORE_UTIL_H
#define TEST_CORE_UTIL_H

#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vd/vd.h"

#define CORE_CFG FMUC_SOURCE_DIR "/core/configs"
#define VEHICLE_JSON CORE_CFG "/vehicle.json"
#define TIRE_JSON CORE_CFG "/tire.json"
#define KIN_FRONT CORE_CFG "/kinematics/front.csv"
#define KIN_REAR CORE_CFG "/kinematics/rear.csv"

static inline char *tc_read(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    cr_assert_not_null(buf);
    cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static inline uint64_t tc_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* Bit-identical, or both zero when mirrored zeros may carry either sign. */
static inline int tc_same(double a, double b) { return tc_bits(a) == tc_bits(b); }
static inline int tc_neg(double a, double b)
{
    return tc_bits(a) == tc_bits(-b) || (a == 0.0 && b == 0.0);
}

/* A JSON edit: set "section.key" (section may be NULL) to a raw JSON value, or delete it when
 * json is NULL. */
typedef struct tc_edit {
    const char *section, *key, *json;
} tc_edit;

static inline char *tc_patch(const char *text, const tc_edit *edits, int n)
{
    cJSON *root = cJSON_Parse(text);
    cr_assert_not_null(root);
    for (int i = 0; i < n; i++) {
        cJSON *obj = edits[i].section ? cJSON_GetObjectItemCaseSensitive(root, edits[i].section)
                                      : root;
        cr_assert_not_null(obj, "section %s", edits[i].section ? edits[i].section : "(root)");
        cJSON_DeleteItemFromObjectCaseSensitive(obj, edits[i].key);
        if (edits[i].json) {
            cJSON *v = cJSON_Parse(edits[i].json);
            cr_assert_not_null(v, "bad edit %s", edits[i].json);
            cJSON_AddItemToObject(obj, edits[i].key, v);
        }
    }
    char *out = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return out;
}

/* Parameters from the shipped configs with optional edits to each file. */
static inline vd_params *tc_params_edit(const tc_edit *veh, int nveh, const tc_edit *tire,
                                        int ntire)
{
    char *vt = tc_read(VEHICLE_JSON), *tt = tc_read(TIRE_JSON);
    char *v2 = tc_patch(vt, veh, nveh), *t2 = tc_patch(tt, tire, ntire);
    vd_params *p = NULL;
    vd_error err = {{0}};
    vd_status st = vd_params_parse(&p, v2, "vehicle.json", t2, "tire.json", &err);
    cr_assert_eq(st, VD_OK, "parse failed: %s", err.msg);
    free(vt);
    free(tt);
    free(v2);
    free(t2);
    return p;
}

static inline vd_params *tc_params(const char *tire_model)
{
    tc_edit e = {NULL, "model", tire_model};
    return tc_params_edit(NULL, 0, &e, 1);
}

static inline void tc_set(vd_params *p, const char *name, double v)
{
    vd_error err = {{0}};
    cr_assert_eq(vd_param_set(p, name, v, &err), VD_OK, "set %s: %s", name, err.msg);
}

static inline vd_model *tc_model(vd_level level, const vd_params *p)
{
    vd_model *m = NULL;
    vd_error err = {{0}};
    cr_assert_eq(vd_create(&m, level, p, &err), VD_OK, "%s", err.msg);
    return m;
}

static inline double tc_clamp01(double v) { return v < 0 ? 0 : (v > 1 ? 1 : v); }

/* Speed hold on throttle (the harness of ISO 4138 style tests). */
static inline vd_cmd tc_hold(const vd_model *m, double steer, double v_ref)
{
    vd_out y;
    vd_outputs(m, &y);
    vd_cmd u = {steer, tc_clamp01(5.0 * (v_ref - y.vx)), 0.0};
    return u;
}

#endif
