/* Reporters: pure functions from an fmuc_report to JSON (canonical), HTML, JUnit XML and a terminal
 * summary. Each writes to a FILE and returns FMUC_OK or FMUC_EIO/FMUC_ENOMEM; none prints anywhere else,
 * none keeps state. The HTML reporter also runs gnuplot (FMUC_GNUPLOT) as a child process to draw the
 * plots found in evidence (convention in reports/README.md). */
#ifndef FMUC_REPORT_H
#define FMUC_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "fmuc/fmuc_err.h"
#include "fmuc/fmuc_result.h"

/** The shape every reporter has (Criterion's criterion_reporter: a name and a writer). */
typedef fmuc_err (*fmuc_report_writer)(FILE *out, const fmuc_report *r);

typedef struct fmuc_reporter {
    const char *name;         /* "html", "junit", "text", ... (the --format value) */
    fmuc_report_writer write;
    const char *extension;    /* suggested file extension without dot */
} fmuc_reporter;

/** Self-contained HTML page (inline CSS/JS/SVG, no external resources). */
fmuc_err fmuc_report_html_write(FILE *out, const fmuc_report *r);
/** JUnit XML: <testsuites> with one <testsuite> per FMU, one <testcase> per check. */
fmuc_err fmuc_report_junit_write(FILE *out, const fmuc_report *r);
/** Terminal summary: verdict at a glance with the top findings, every problem (worst first) with
 *  why/fix/re-run command, counts of passes and not-applicable checks, overall verdict.
 *  color != 0 emits ANSI SGR colors (the caller decides: TTY, NO_COLOR). */
fmuc_err fmuc_report_text_write(FILE *out, const fmuc_report *r, int color);
/** fmuc_report_text_write without color, in the fmuc_report_writer shape. */
fmuc_err fmuc_report_text_write_plain(FILE *out, const fmuc_report *r);

/* ---- a batch of FMUs: pure functions of the batch results data (index.json, schema
 * "fmucheck-index"; reports/README.md "Batch index") ----------------------------------------- */

/** The check areas of the batch matrix, in column order: zip md load api cs me eq. */
#define FMUC_BATCH_NAREAS 7
extern const char *const fmuc_report_batch_areas[FMUC_BATCH_NAREAS];
/** What the batch index keeps of one FMU's report.json rep, added to its index entry: "areas"
 *  (area -> the worst verdict of its checks; areas without checks left out), "highlights" (copied)
 *  and, when rep has a baseline comparison, "baseline" {path, new, fixed, unchanged: [ids]}. */
void fmuc_report_batch_entry(cJSON *entry, const cJSON *rep);
/** The batch index page: self-contained HTML, a sortable matrix FMUs x check areas (worst verdict
 *  per area as colour, symbol and word), each FMU's highlights and a link to its report, and with
 *  a baseline the new, fixed and unchanged failures per FMU. */
fmuc_err fmuc_report_batch_html_write(FILE *out, const cJSON *idx);
/** The combined JUnit XML of a batch: suites[i] is the junit.xml text of idx's fmus[i] (NULL:
 *  none; that FMU becomes one fmucheck.input testcase with an error that says why). */
fmuc_err fmuc_report_batch_junit_write(FILE *out, const cJSON *idx, const char *const *suites);

/** The reporter table, terminated by { NULL, NULL, NULL }. */
extern const fmuc_reporter fmuc_reporters[];
/** The reporter named name, or NULL. */
const fmuc_reporter *fmuc_reporter_find(const char *name);

/** The highlights: the (at most FMUC_HIGHLIGHTS) most serious problems in words, "<id>: <first
 *  message>" (errors, then failures, then warnings; the check's title when it has no message), one
 *  line each, cut at FMUC_HIGHLIGHT_CHARS characters. Returns how many were written (0: no
 *  problem). report.json carries them as "highlights". */
#define FMUC_HIGHLIGHTS 3
#define FMUC_HIGHLIGHT_CHARS 200
#define FMUC_HIGHLIGHT_MAX 1024
size_t fmuc_report_highlights(const fmuc_report *r, char out[][FMUC_HIGHLIGHT_MAX], size_t max);

/** Write a report atomically: render into a temp file in path's directory, fflush + fsync, rename
 *  over path (then fsync the directory). On any error (including the writer's) the temp file is
 *  removed and path is left untouched: never a truncated report. The file gets mode 0644. */
fmuc_err fmuc_report_write_atomic(const char *path, fmuc_report_writer write, const fmuc_report *r);

/* ---- internals shared by the reporters in reports/ (not for other modules) ---------------------- */

/** Decode one UTF-8 sequence from s[0..len): returns the code point and sets *adv to its byte length,
 *  or returns -1 with *adv = 1 for an invalid, overlong, surrogate or truncated sequence. */
int32_t fmuc_report__utf8_decode(const unsigned char *s, size_t len, size_t *adv);

enum {
    FMUC_ESC_HTML = 0,      /* invalid UTF-8 and disallowed controls -> U+FFFD */
    FMUC_ESC_XML_STRIP = 1  /* invalid UTF-8 -> U+FFFD; characters illegal in XML 1.0 are dropped */
};
/** Write s (may be NULL: nothing) escaped for XML/HTML text and attribute values (& < > " '), at
 *  most max_bytes input bytes (0: no limit; an ellipsis marks the cut). Always valid UTF-8. */
void fmuc_report__xml_escape(FILE *out, const char *s, size_t max_bytes, int mode);

/** One line describing r->isolation ("strict: landlock ABI 7, seccomp recording, own network
 *  namespace, network deny, uid 65534"), "" when the report has none. */
void fmuc_report__isolation_line(const fmuc_report *r, char *buf, size_t n);

/** Locale-independent number formatting ("%.*g" with '.' as decimal point; nan/inf spelled
 *  "NaN"/"inf"/"-inf"). Returns buf. */
char *fmuc_report__num(char *buf, size_t bufsize, double v, int precision);

/** Whether v is a problem (error, fail, warn). */
int fmuc_report__is_problem(fmuc_verdict v);
/** The problems of r, most serious first (errors, fails, warnings; registry order within a
 *  verdict): stores up to max pointers in out (may be NULL) and returns how many there are. */
size_t fmuc_report__problems(const fmuc_report *r, const fmuc_result **out, size_t max);
/** One highlight line for res into buf (see fmuc_report_highlights). */
void fmuc_report__highlight(const fmuc_result *res, char *buf, size_t n);
/** The shell command that re-runs just res on the report's FMU:
 *  "fmucheck --only ID -v FILE.fmu" (words quoted for a POSIX shell when needed; with
 *  --profile P when the report's profile is not the default, interop). */
void fmuc_report__rerun_command(const fmuc_report *r, const fmuc_result *res, char *buf, size_t n);
/** A duration for people: "0 s", "850 ns", "1.1 µs", "420 ms", "2.3 s", "3 min 5 s", "1 h 2 min";
 *  "unknown" for NaN, infinities and negative values. Returns buf. */
char *fmuc_report__duration(char *buf, size_t n, double seconds);
/** A size for people: "512 bytes", "12.1 KiB", "340 MiB", "2.5 GiB". Returns buf. */
char *fmuc_report__bytes(char *buf, size_t n, uint64_t bytes);

/** Render one plot object of the evidence convention (reports/README.md) to an SVG fragment (XML
 *  prolog stripped, element ids prefixed with id_prefix so several plots can share a page).
 *  On success *svg is a malloc'd string (caller frees). On failure returns < 0, *svg is NULL and
 *  why holds a short human-readable reason. Runs gnuplot with a timeout. */
fmuc_err fmuc_plot__svg(const cJSON *plot, const char *id_prefix, char **svg, char *why,
                        size_t whylen);

#endif
