/* Test helpers for the me-* checks on FMI 3.0 and 1.0 FMUs (issues 19, 20): run one check
 * in-process on an FMU (its workers as in fmucheck), and make a variant of a built FMU whose
 * modelDescription.xml has one text replaced (a declared count that differs from what the
 * binary serves). Header-only; used by test_checks_fmi3.c and test_checks_fmi1.c. */
#ifndef FMUC_TEST_ME_VERSION_UTIL_H
#define FMUC_TEST_ME_VERSION_UTIL_H

#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zip.h>

#include "check.h"
#include "fmuc_test_util.h"

/** The verdict of check id on the FMU at path (messages logged when it is not pass). */
static inline fmuc_verdict mev_run(const char *id, const char *path)
{
    fmuc_fmu fmu;
    fmuc_options opts;
    fmuc_result res;
    fmuc_diag d = {0};
    cr_assert(access(path, R_OK) == 0, "FMU %s not built", path);
    cr_assert_eq(fmuc_fmu_open(&fmu, path, NULL, NULL, &d), FMUC_OK, "%s: %s", path, d.msg);
    const fmuc_check *c = fmuc_check_find(id);
    cr_assert_not_null(c, "no check %s", id);
    fmuc_options_init(&opts);
    opts.timeout_multiplier = strtod(fmuc_test_timeout_multiplier(), NULL);
    fmuc_subject s = {.fmu = &fmu, .opts = &opts};
    fmuc_result_init(&res, c->id, c->title, c->spec, c->level);
    res.verdict = FMUC_VERDICT_PASS;
    c->run(&s, &res);
    fmuc_verdict v = res.verdict;
    for (size_t i = 0; i < res.nmessages && v != FMUC_VERDICT_PASS; i++)
        cr_log_info("%s on %s: %s", id, path, res.messages[i]);
    fmuc_result_clear(&res);
    fmuc_fmu_close(&fmu);
    return v;
}

/** A copy of the FMU good in a new temporary folder (*dir, caller removes it) whose
 *  modelDescription.xml has the first `from` replaced by `to`. Returns the path (caller frees). */
static inline char *mev_xml_variant(const char *good, const char *tag, const char *from,
                                    const char *to, char **dir)
{
    *dir = fmuc_test_mkdtemp(tag);
    cr_assert_not_null(*dir);
    char *fmu = NULL;
    cr_assert(asprintf(&fmu, "%s/%s.fmu", *dir, tag) > 0);
    size_t len = 0;
    char *bytes = fmuc_test_read_file(good, &len);
    cr_assert_not_null(bytes, "%s not built", good);
    cr_assert_eq(fmuc_test_write_file(fmu, bytes, len), 0);
    free(bytes);
    int zerr = 0;
    zip_t *z = zip_open(fmu, 0, &zerr);
    cr_assert_not_null(z);
    zip_int64_t idx = zip_name_locate(z, "modelDescription.xml", 0);
    cr_assert(idx >= 0);
    zip_stat_t zs;
    cr_assert_eq(zip_stat_index(z, (zip_uint64_t)idx, 0, &zs), 0);
    zip_file_t *zf = zip_fopen_index(z, (zip_uint64_t)idx, 0);
    cr_assert_not_null(zf);
    char *xml = calloc(zs.size + 1, 1);
    cr_assert_not_null(xml);
    cr_assert_eq(zip_fread(zf, xml, zs.size), (zip_int64_t)zs.size);
    zip_fclose(zf);
    char *at = strstr(xml, from);
    cr_assert_not_null(at, "'%s' not in the modelDescription.xml of %s", from, good);
    size_t nl = strlen(xml) - strlen(from) + strlen(to);
    char *out = malloc(nl + 1);
    cr_assert_not_null(out);
    size_t head = (size_t)(at - xml);
    memcpy(out, xml, head);
    memcpy(out + head, to, strlen(to));
    memcpy(out + head + strlen(to), at + strlen(from), strlen(at + strlen(from)) + 1);
    free(xml);
    zip_source_t *src = zip_source_buffer(z, out, nl, 1); /* libzip frees out */
    cr_assert_not_null(src);
    cr_assert_eq(zip_file_replace(z, (zip_uint64_t)idx, src, 0), 0);
    cr_assert_eq(zip_close(z), 0);
    return fmu;
}

#endif
