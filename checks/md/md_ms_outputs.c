/* md-ms-outputs: ModelStructure/Outputs lists exactly the variables with causality="output",
 * each once (FMI 2.0.4 §2.2.8, catalogue B-402). Out-of-range indices are md-ms-indices'. */
#include <stdlib.h>

#include "check.h"
#include "md_util.h"

/* an entry for messages (FMI 2.0: list and index; FMI 3.0: element and valueReference) and
 * a dependency (index or valueReference) */
#define UD(u) fmuc_mdu__unknown_desc(u_d, sizeof u_d, md, "Outputs", (u))
#define DEP(u, k) (md->fmi == FMUC_FMI3 && (u)->deps_vr ? (u)->deps_vr[k] : (u)->deps[k])

static void run(const fmuc_subject *s, fmuc_result *res)
{
    char u_d[FMUC_MDU_UNK_LEN];
    const fmuc_md *md = &s->fmu->md;
    uint8_t *seen = calloc(md->nvars + 1, 1);
    size_t nout = 0, missing = 0;
    if (!seen) {
        fmuc_result_error(res, "out of memory");
        return;
    }
    if (md->has_outputs && md->noutputs == 0)
        fmuc_result_violation(res, "ModelStructure/Outputs is present but has no Unknown; the "
                              "schema requires at least one (leave Outputs out when there are "
                              "no outputs)");
    for (size_t i = 0; i < md->noutputs && md->outputs; i++) {
        const fmuc_md_unknown *u = &md->outputs[i];
        if (!fmuc_ms__valid_index(md, u->index))
            continue;
        const fmuc_md_var *v = &md->vars[u->index - 1];
        if (seen[u->index]) {
            fmuc_result_violation(res, "%s: " FMUC_MS_VAR
                                  " is listed more than once",
                                  UD(u), FMUC_MS_VAR_ARGS(v));
            continue;
        }
        seen[u->index] = 1;
        if (v->causality != FMUC_CAUS_OUTPUT)
            fmuc_result_violation(res, "%s: " FMUC_MS_VAR
                                  " has causality=\"%s\", not \"output\"",
                                  UD(u), FMUC_MS_VAR_ARGS(v),
                                  fmuc_md_causality_name((fmuc_causality)v->causality));
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (v->causality != FMUC_CAUS_OUTPUT)
            continue;
        nout++;
        if (seen[i + 1])
            continue;
        missing++;
        /* importers take the outputs from causality; an output left out of the list loses only
         * its dependency information (a violation of the letter, interop warns) */
        if (md->fmi == FMUC_FMI3)
            fmuc_result_violation_letter(res, FMUC_MS_VAR " has causality=\"output\" but is not "
                                         "listed as an <Output> of ModelStructure",
                                         FMUC_MS_VAR_ARGS(v));
        else if (!md->has_outputs)
            fmuc_result_violation_letter(res, FMUC_MS_VAR " (index %zu) has causality=\"output\" "
                                         "but ModelStructure has no Outputs element",
                                         FMUC_MS_VAR_ARGS(v), i + 1);
        else
            fmuc_result_violation_letter(res, FMUC_MS_VAR " (index %zu) has causality=\"output\" "
                                         "but is not listed in ModelStructure/Outputs",
                                         FMUC_MS_VAR_ARGS(v), i + 1);
    }
    cJSON *ev = fmuc_result_evidence(res);
    if (ev) {
        cJSON_AddNumberToObject(ev, "outputs_declared", (double)nout);
        cJSON_AddNumberToObject(ev, "outputs_listed", (double)md->noutputs);
        cJSON_AddNumberToObject(ev, "outputs_missing", (double)missing);
    }
    free(seen);
}

const fmuc_check fmuc_check_md_ms_outputs = {
    .id = "md-ms-outputs",
    .title = "ModelStructure/Outputs lists exactly the output variables",
    .spec = "FMI 2.0.4 §2.2.8; FMI 3.0.2 §2.4.8",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_SOME,
    .interop_why = "an output left out of Outputs is still an output by its causality, which is "
                   "where importers take outputs from; only its dependency information is lost",
    .why = "Masters connect and order outputs from ModelStructure/Outputs; an output missing "
           "there is never read by some tools, and a non-output listed there is treated as one.",
    .fix = "List every variable with causality=\"output\" exactly once in ModelStructure/Outputs, "
           "and nothing else.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
