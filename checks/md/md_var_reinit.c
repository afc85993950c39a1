/* md-var-reinit: reinit is a Model Exchange attribute of continuous-time states: it must be absent
 * in a Co-Simulation-only FMU, and reinit="true" is only allowed on a state, i.e. a variable that
 * some derivative attribute refers to (FMI 2.0.4 §2.2.7, B-216; VDM validReinits). reinit="false"
 * on a non-state is harmless and accepted. */
#include <stdlib.h>

#include "check.h"
#include "md_util.h"

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    char d[FMUC_MDU_DESC_LEN];
    int cs_only = (md->cs.present || md->se.present) && !md->me.present;
    unsigned char *state = NULL;
    size_t n = 0;
    for (size_t i = 0; i < md->nvars; i++)
        n += (md->vars[i].has & FMUC_HAS_REINIT) != 0;
    if (!n) {
        fmuc_result_na(res, "no variable has a reinit attribute");
        return;
    }
    state = calloc(md->nvars + 1, 1);
    if (!state) {
        fmuc_result_error(res, "out of memory");
        return;
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if ((v->has & FMUC_HAS_DERIVATIVE) && v->derivative >= 1 && v->derivative <= md->nvars)
            state[v->derivative] = 1;
    }
    for (size_t i = 0; i < md->nvars; i++) {
        const fmuc_md_var *v = &md->vars[i];
        if (!(v->has & FMUC_HAS_REINIT))
            continue;
        int on = (v->flags & FMUC_FLAG_REINIT) != 0;
        if (cs_only && md->fmi == FMUC_FMI3)
            /* FMI 3.0 §2.4.7.5: reinit is ignored outside Model Exchange (VDMCheck's demand
             * of a ModelExchange element is a tool heuristic, T) */
            fmuc_result_warn(res, "%s: reinit=\"%s\" in a Co-Simulation/Scheduled Execution "
                             "FMU, where it is ignored", fmuc_mdu__var_desc(d, sizeof d, v),
                             on ? "true" : "false");
        else if (cs_only)
            fmuc_result_violation(res, "%s: reinit=\"%s\" in a Co-Simulation-only FMU (the attribute "
                                  "is for Model Exchange only)", fmuc_mdu__var_desc(d, sizeof d, v),
                                  on ? "true" : "false");
        else if (on && !state[i + 1])
            fmuc_result_violation(res, "%s: reinit=\"true\" on a variable that is not a "
                                  "continuous-time state (no derivative attribute refers to it)",
                                  fmuc_mdu__var_desc(d, sizeof d, v));
    }
    free(state);
}

const fmuc_check fmuc_check_md_var_reinit = {
    .id = "md-var-reinit",
    .title = "reinit only on Model Exchange continuous-time states",
    .spec = "FMI 2.0.4 §2.2.7; FMI 3.0.2 §2.4.7.5",
    .level = FMUC_LEVEL_MUST,
    .why = "reinit tells a Model Exchange solver that a state may jump at an event; on a "
           "non-state or in a Co-Simulation-only FMU it has no meaning and can make tools reject "
           "the FMU.",
    .fix = "Set reinit=\"true\" only on continuous-time states (variables a derivative attribute "
           "refers to) of a Model Exchange FMU, and drop it elsewhere.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
