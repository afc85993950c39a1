/* Results as data: the verdict of one check with its messages and evidence, and the whole report
 * (FMU identity plus every result). Reporters are pure functions of fmuc_report. */
#ifndef FMUC_RESULT_H
#define FMUC_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "fmuc/fmuc_err.h"

/* Ordered so that aggregation is max(): the worst wins. */
typedef enum {
    FMUC_VERDICT_NA = 0,
    FMUC_VERDICT_PASS,
    FMUC_VERDICT_WARN,
    FMUC_VERDICT_FAIL,
    FMUC_VERDICT_ERROR
} fmuc_verdict;

typedef enum {
    FMUC_LEVEL_MUST = 0,  /* M: a violation fails */
    FMUC_LEVEL_SHOULD     /* S/D/T/U: a violation warns */
} fmuc_level;

/* Profiles: what a verdict means (README "Profiles"). One run yields the verdicts of all three;
 * the selected one is fmuc_result.verdict, the exit code and what the reports show. */
typedef enum {
    FMUC_PROFILE_INTEROP = 0, /* standard, but findings that cannot break or mislead a
                               * conforming importer warn (fmuc_check.interop) */
    FMUC_PROFILE_STANDARD,    /* the text's levels: a violated MUST rule fails, SHOULD warns */
    FMUC_PROFILE_STRICT       /* every warning fails */
} fmuc_profile;
#define FMUC_PROFILE_COUNT 3

const char *fmuc_profile_name(fmuc_profile p); /* "interop", "standard", "strict" */
int fmuc_profile_parse(const char *s, fmuc_profile *out);

#define FMUC_RESULT_MAX_MESSAGES 200

typedef struct fmuc_result {
    const char *id, *title, *spec; /* copied pointers from the check (static strings) */
    fmuc_level level;              /* effective level (after config overrides) */
    fmuc_verdict verdict;
    size_t nmessages;
    char *messages[FMUC_RESULT_MAX_MESSAGES];
    size_t messages_dropped;       /* further messages counted, not kept */
    cJSON *evidence;               /* object or NULL; owned */
    double duration_s;
    char *waiver;                  /* reason when a waiver turned a failure into a pass */
    /* profiles (fmuc_result_profiles): verdict is verdicts[selected] once has_profiles is set */
    fmuc_verdict verdicts[FMUC_PROFILE_COUNT];
    int has_profiles;
    const char *interop_why;       /* the check's reason for warning under interop (static) */
    const char *why, *fix;         /* the check's "why it matters" and "how to fix" (static) */
    unsigned char letter_fail;     /* a failure came from fmuc_result_violation_letter */
    unsigned char other_fail;      /* a failure came from anything else */
    unsigned char na_whole;        /* fmuc_result_na was called: the check is not applicable */
    unsigned na_parts;             /* fmuc_result_na_part calls: parts (interfaces) not judged */
    unsigned char not_run;         /* not applicable because the battery's time budget left it
                                    * out (checks/runner.c): the reports list it as not run */
} fmuc_result;

void fmuc_result_init(fmuc_result *r, const char *id, const char *title, const char *spec,
                      fmuc_level level);
void fmuc_result_clear(fmuc_result *r);

/** A rule violation: raises to FAIL for a MUST check, to WARN for a SHOULD check. */
void fmuc_result_violation(fmuc_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** A violation of the letter of a MUST rule that, in this instance, cannot break or mislead a
 *  conforming importer (e.g. a 64-bit library in linux32/ beside a correct linux64/): fails
 *  under standard and strict like fmuc_result_violation, warns under interop unless the check
 *  also failed otherwise. */
void fmuc_result_violation_letter(fmuc_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/** Explicit verdicts (raise only; worst wins). */
void fmuc_result_fail(fmuc_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void fmuc_result_warn(fmuc_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** The harness could not carry the check out (crash, timeout, internal error). */
void fmuc_result_error(fmuc_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** Not applicable, with the reason; only takes effect while the verdict is still PASS/NA. */
void fmuc_result_na(fmuc_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** One part of the check (an interface, say) could not be judged, with the reason: the verdict
 *  becomes not-applicable like fmuc_result_na, until fmuc_result_parts_judged says that other
 *  parts were judged. */
void fmuc_result_na_part(fmuc_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/** The end of a check judged part by part: when judged > 0 parts were judged and the verdict is
 *  not-applicable only through fmuc_result_na_part, the judged parts decide (PASS; the reasons
 *  stay as messages). Anything else is left as it is. */
void fmuc_result_parts_judged(fmuc_result *r, size_t judged);
/** Fill r->verdicts from the verdict the check reached at its own (the text's) level: standard
 *  is that verdict; interop warns instead of failing when interop_warn is set (the whole check)
 *  or every failure came from fmuc_result_violation_letter; strict fails every warning. Then
 *  r->verdict = r->verdicts[selected]. */
void fmuc_result_profiles(fmuc_result *r, int interop_warn, const char *interop_why,
                          fmuc_profile selected);
/** A gating config set the check's level: under every profile a warning of a MUST-level check
 *  fails, a failure of a SHOULD-level check warns (a note says so); r->verdict follows. */
void fmuc_result_relevel(fmuc_result *r, fmuc_level level, fmuc_profile selected);
/** r->verdict = r->verdicts[selected] (after something changed verdicts[]). */
void fmuc_result_select(fmuc_result *r, fmuc_profile selected);
/** An informational message that does not change the verdict. */
void fmuc_result_note(fmuc_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** Adds src's messages to dst and raises dst's verdict to src's (not-applicable only while dst is
 *  still PASS). Evidence is not merged. */
void fmuc_result_merge(fmuc_result *dst, const fmuc_result *src);
/** The evidence object, created on first use. */
cJSON *fmuc_result_evidence(fmuc_result *r);

/** A JSON array of numbers for evidence (plot series): v[0], v[stride], v[2*stride] ... (n values
 *  of the source, every step-th kept). Written at once as exact compact text ("%.17g"; NaN and
 *  infinities as null) in a raw node: tens of thousands of numbers cost one string instead of one
 *  cJSON node each. NULL when out of memory. */
cJSON *fmuc_evidence_numbers(const double *v, size_t n, size_t stride, size_t step);
/** Values of an evidence number array, raw (fmuc_evidence_numbers) or plain JSON: a new array in
 *  *out (null entries as NaN) and the count; -1 when it is neither (or has more than max). */
long fmuc_evidence_numbers_read(const cJSON *a, size_t max, double **out);

const char *fmuc_verdict_name(fmuc_verdict v);   /* "pass", "warn", "fail", "error", "not-applicable" */
int fmuc_verdict_parse(const char *s, fmuc_verdict *out);
const char *fmuc_level_name(fmuc_level l);       /* "must", "should" */

/* Identity of the checked FMU as it goes into the report. */
typedef struct fmuc_report_identity {
    char *path, *file_name, *sha256;
    uint64_t file_size;
    char *fmi_version, *model_name, *guid, *description, *author, *version;
    char *generation_tool, *generation_date_and_time, *variable_naming_convention;
    char *me_model_identifier, *cs_model_identifier; /* NULL if that interface is absent */
    char *se_model_identifier;                       /* FMI 3.0 ScheduledExecution */
    cJSON *me_caps, *cs_caps, *se_caps;              /* flag name -> bool, NULL if absent */
    unsigned number_of_event_indicators;
    size_t nvars, nvars_by_causality[7];             /* fmuc_causality order */
    size_t nstates;
    char *platform;
} fmuc_report_identity;

typedef struct fmuc_report {
    int schema_version;
    char *tool_version, *libzip_version, *libxml2_version, *host_platform, *date_utc;
    char *options_json;           /* the options that shaped the run, as JSON text */
    cJSON *isolation;             /* worker isolation achieved (fmuc_isolation_json), or NULL */
    fmuc_report_identity fmu;
    int rejected;                 /* input rejected: only archive results are meaningful */
    char *rejected_reason;
    int unsupported;              /* FMI 1.0 / 3.0 */
    int incomplete;               /* interrupted run */
    double time_budget_s;         /* the battery's time budget (s) that applied, 0: none */
    size_t not_run;               /* checks the time budget left out (fmuc_result.not_run) */
    char *environment_required;   /* X10: needsExecutionTool="true" and the FMU could not be
                                   * instantiated here: why the dynamic checks did not run */
    size_t nresults;
    fmuc_result *results;
    cJSON *fmu_log;               /* array of logged FMU messages (from dynamic checks) */
    fmuc_profile profile;         /* the selected profile: results' verdict, counts, overall */
    size_t counts[5];             /* per verdict */
    fmuc_verdict overall;
    double duration_s;
    cJSON *baseline;              /* --baseline comparison object or NULL; set and freed by the CLI */
} fmuc_report;

void fmuc_report_free(fmuc_report *r);
/** Recount counts[] and overall from results. */
void fmuc_report_tally(fmuc_report *r);
/** The overall verdict under profile p (the worst of the results' verdicts[p]). */
fmuc_verdict fmuc_report_overall_under(const fmuc_report *r, fmuc_profile p);

#endif
