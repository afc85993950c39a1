/* The runner: applies the registry's checks to an opened FMU and collects the results as data. */
#ifndef FMUC_RUNNER_H
#define FMUC_RUNNER_H

#include "check.h"

/** Which checks run: --only/--skip id patterns (shell globs). Empty only = all. */
typedef struct fmuc_run_filter {
    const char *const *only;
    size_t nonly;
    const char *const *skip;
    size_t nskip;
} fmuc_run_filter;

/** Called after each check finishes (for progress output); may be NULL. */
typedef void (*fmuc_run_progress)(const fmuc_result *r, size_t done, size_t total, void *payload);

/** Level override from a gating config; NULL when none (the check's own level). Sets *level and
 *  returns nonzero when the config changes it: the check still runs at its own level, and its
 *  verdicts under every profile then follow the new one (fmuc_result_relevel). */
typedef int (*fmuc_level_override)(const char *check_id, fmuc_level *level, void *payload);

/** Has the run been asked to stop (an interrupt)? The runner then starts no other check, and
 *  neither do its lanes (asked in each lane's own process); may be NULL. */
typedef int (*fmuc_run_should_stop)(void *payload);

typedef struct fmuc_run_hooks {
    fmuc_run_progress progress;
    fmuc_level_override level_override;
    fmuc_run_should_stop should_stop;
    void *payload;
} fmuc_run_hooks;

/** Is check c selected by the filter? */
int fmuc_run_selected(const fmuc_run_filter *f, const fmuc_check *c);

/** Fill report identity from the opened FMU (whatever is available). */
void fmuc_report_identity_fill(fmuc_report *rep, const fmuc_fmu *fmu);

/** Run every selected check on fmu; results appended to rep in registry order. open_err is
 *  what fmuc_fmu_open returned (FMUC_EZIP: archive rejected, only archive checks run).
 *  Returns FMUC_ENOMEM or FMUC_OK. */
fmuc_err fmuc_run_checks(fmuc_report *rep, const fmuc_fmu *fmu, fmuc_err open_err,
                         const fmuc_options *opts, const fmuc_run_filter *filter,
                         const fmuc_run_hooks *hooks);

#endif
