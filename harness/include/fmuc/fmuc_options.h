/* Options that shape a run, set by the CLI (and the gating config) and read by checks. */
#ifndef FMUC_OPTIONS_H
#define FMUC_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "fmuc/fmuc_fmu.h"
#include "fmuc/fmuc_result.h"
#include "fmuc/fmuc_sandbox.h"

/* fmuc_options.time_budget_s: 3 x the nominal runs + 2 s (checks/check.h, "the time budget") */
#define FMUC_TIME_BUDGET_AUTO (-1.0)

typedef struct fmuc_options {
    double timeout_s;           /* default wall-clock limit per dynamic check (seconds) */
    double timeout_multiplier;  /* scales every timeout (slow machines, sanitizers) */
    int timeout_explicit;       /* timeout_s was given (--timeout, config): the upper bound of
                                 * every worker, the nominal runs included; else the nominal runs
                                 * may take FMUC_NOMINAL_TIMEOUT_S (checks/check.h) */
    double timeout_progress_s;  /* > timeout_s: a worker at its limit whose FMI calls keep
                                 * returning runs on, up to this (fmuc_worker_spec.progress_limit_s;
                                 * set for the nominal runs only; 0: the limit is final) */
    uint64_t rlimit_as_bytes;   /* worker address-space limit (init: 4 GiB; 0: the worker's default) */
    uint64_t rlimit_fsize_bytes;/* worker file-size limit */
    uint64_t capture_cap_bytes; /* stdout/stderr bytes kept per worker */
    const char *input_csv;      /* --input: drives the FMU's inputs */
    int has_stop_time;          /* --stop-time: the runs end at stop_time, not at the
                                 * DefaultExperiment's stopTime (fmuc_md_override_stop_time) */
    double stop_time;
    const char *native;         /* --native l2|l3|none; NULL: automatic for vdsim FMUs */
    const char *compare_fmu;    /* --compare other.fmu */
    const char *reference_csv;  /* --reference ref.csv */
    double rtol, atol;          /* tolerances for compare/reference */
    const char *energy_spec;    /* --energy-spec spec.json: me-energy-residual variables (opt-in) */
    unsigned soak;              /* --soak N: the nominal runs repeat N times in one process (B20) */
    int check_jobs;             /* --check-jobs: 1 one check at a time (fmuc_options_init), 2
                                 * two at a time once the nominal runs are made
                                 * (checks/runner.c); 0: 2 when two CPUs are available to the
                                 * process, else 1 (the CLI's default) */
    const char *tmp_parent;     /* where private temp dirs go (NULL: $TMPDIR or /tmp) */
    const char *self_exe;       /* path of the running fmucheck (for worker re-exec if needed) */
    fmuc_fmu_limits limits;
    fmuc_sandbox_config sandbox; /* worker isolation (--isolation, --network, --allow-write ...) */
    int verbose;
    double time_budget_s;       /* --time-budget: the battery's wall-time budget (checks/check.h
                                 * "the time budget"): -1 (FMUC_TIME_BUDGET_AUTO, the CLI's
                                 * default) 3 x the nominal runs + 2 s, > 0 seconds, 0 none
                                 * (fmuc_options_init) */
    fmuc_profile profile;       /* --profile / config "profile" (default interop) */
    struct fmuc_worker_hangs *worker_hangs; /* calls that hung in a worker of this FMU, not made
                                 * again (fmuc_worker.h; set by the checks' shared runs) */
} fmuc_options;

/** Defaults: 60 s per check, multiplier 1, worker rlimits 4 GiB address space and 1 GiB file
 *  size, rtol 1e-6, atol 1e-9. */
void fmuc_options_init(fmuc_options *o);

#endif
