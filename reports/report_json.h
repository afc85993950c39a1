/* JSON report: the canonical, schema-versioned evidence file. */
#ifndef FMUC_REPORT_JSON_H
#define FMUC_REPORT_JSON_H

#include <stdio.h>

#include "fmuc/fmuc_result.h"

/** The whole report as a cJSON tree (caller frees). */
cJSON *fmuc_report_to_json(const fmuc_report *r);
/** One check result as JSON (id, title, spec, level, verdict, messages, evidence, duration). */
cJSON *fmuc_result_to_json(const fmuc_result *r);
/** "complete", "incomplete", "rejected" or "unsupported". */
const char *fmuc_report_status_name(const fmuc_report *r);
/** Pretty-printed JSON to out. */
fmuc_err fmuc_report_json_write(FILE *out, const fmuc_report *r);

#endif
