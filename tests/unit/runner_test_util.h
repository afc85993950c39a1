/* Tests that run a selection of checks through the runner, as fmucheck does (header-only; the
 * test links fmuc_checks): the report of the checks `only` on the FMU at path, and one result of
 * it by id. */
#ifndef FMUC_RUNNER_TEST_UTIL_H
#define FMUC_RUNNER_TEST_UTIL_H

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "fmuc_test_util.h"
#include "runner.h"

/* The checks `only` (shell globs) on the FMU at path through the runner, with the tests' timeout
 * multiplier: the report in *rep (fmuc_report_free it). */
static inline void fmuc_test_run_checks(const char *path, const char *const *only, size_t nonly,
                                        fmuc_report *rep)
{
    fmuc_fmu fmu;
    fmuc_options opts;
    fmuc_diag d = {{0}, FMUC_OK};
    cr_assert_eq(fmuc_fmu_open(&fmu, path, NULL, NULL, &d), FMUC_OK, "%s: %s", path, d.msg);
    fmuc_options_init(&opts);
    double mult = strtod(fmuc_test_timeout_multiplier(), NULL);
    if (mult > 0)
        opts.timeout_multiplier = mult;
    memset(rep, 0, sizeof *rep);
    fmuc_run_filter f = {.only = only, .nonly = nonly};
    cr_assert_eq(fmuc_run_checks(rep, &fmu, FMUC_OK, &opts, &f, NULL), FMUC_OK);
    fmuc_fmu_close(&fmu);
}

/* The result of check id in rep (the test fails when it is not there). */
static inline const fmuc_result *fmuc_test_result_of(const fmuc_report *rep, const char *id)
{
    for (size_t i = 0; i < rep->nresults; i++)
        if (strcmp(rep->results[i].id, id) == 0)
            return &rep->results[i];
    cr_assert_fail("%s is not in the report", id);
    return NULL;
}

#endif
