/* Expectation files for fmucheck's verdicts on third-party FMUs (tests/thirdparty/expect/).
 *
 * One file per FMU, named after its path relative to the shared folder with '/' replaced by '+'
 * (thirdparty/fmus/a/b.fmu -> thirdparty+fmus+a+b.fmu.expect). Lines:
 *   # comment
 *   @status <report status> | <reason>          (absent: "complete")
 *   <check-id> <standard-verdict> <interop-verdict> | <clause of the standard, or why n/a>
 * one line per check whose verdict is not "pass" in the standard or the interop profile, with its
 * clause (a line without one is malformed). A check that is not listed is expected to pass in
 * both. Verdicts: pass warn fail error not-applicable.
 *
 * Used by tests/unit/test_thirdparty.c (compare) and fmuc_tp_expect (regenerate). */
#ifndef FMUC_TP_EXPECT_H
#define FMUC_TP_EXPECT_H

#include <stddef.h>
#include <stdio.h>

typedef struct tp_line {
    char *id;
    char *std, *interop; /* verdicts */
    char *clause;        /* text after '|', trimmed; "" when absent */
} tp_line;

typedef struct tp_expect {
    char *status;        /* NULL: "complete" */
    char *status_clause; /* NULL when no @status line */
    tp_line *v;
    size_t n;
} tp_expect;

/* One check of a report.json: verdicts under the two profiles, and what a new line would say. */
typedef struct tp_got {
    char *id;
    char *std, *interop;
    char *spec, *level, *msg; /* msg: first message, may be "" */
} tp_got;

typedef struct tp_report {
    char *status;        /* report.json "status" ("complete", "unsupported", ...) */
    char *status_reason; /* "statusReason", may be NULL */
    int has_stop_time;   /* "options": {"stopTime"}: run with --stop-time (options.tsv) */
    double stop_time;
    tp_got *v;
    size_t n;
} tp_report;

/* Read an expectation file. 0 on success; -1 when it cannot be opened (errno set); -2 on a
 * malformed line (err gets "line N: why"). */
int tp_expect_read(const char *path, tp_expect *e, char *err, size_t errlen);
void tp_expect_free(tp_expect *e);

/* Read a report.json. Verdicts come from "verdicts": {"standard", "interop"} when present, else
 * from "verdict" for both profiles. 0 on success, -1 otherwise (err says why). */
int tp_report_read(const char *path, tp_report *r, char *err, size_t errlen);
void tp_report_free(tp_report *r);

/* The FMU's path relative to the shared folder ("thirdparty/fmus/..." or "reference-fmus/..."),
 * found in any path that contains it; NULL when neither marker occurs. Points into path. */
const char *tp_rel_path(const char *path);

/* Malloc'ed expectation file name for a relative path: '/' -> '+', ".expect" appended. */
char *tp_expect_name(const char *rel);

/* Compare; writes one line per difference to out (each names the FMU, the check, expected and
 * got). Returns the number of differences. e == NULL means no expectation file. */
size_t tp_compare(const char *rel, const tp_expect *e, const tp_report *r, FILE *out);

/* Write the expectation file for r to path. Lines whose verdicts did not change keep their clause
 * from old (may be NULL); changed or new lines get a clause starting with "REVIEW". Returns 0, or
 * -1 on an I/O error. *changed (may be NULL) receives the number of lines that differ from old. */
int tp_expect_write(const char *path, const char *rel, const tp_report *r, const tp_expect *old,
                    size_t *changed);

#endif
