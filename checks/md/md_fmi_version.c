/* md-fmi-version: fmiVersion is exactly "2.0" (FMI 2.0.4 §2.2.1). FMI 3.0 (§2.4.1, §2.6; B.2):
 * the schema's pattern 3[.](0|[1-9][0-9]*)([.](0|[1-9][0-9]*))?(-.+)? (must); files of every 3.0.x
 * carry "3.0" (derived: a third number warns); a "-rc"-like suffix marks a prototype (warns). */
#include <string.h>

#include "check.h"

/* a decimal number without leading zeros at *p; advances *p. 0 when there is none. */
static int number(const char **p)
{
    const char *q = *p;
    if (*q == '0') {
        *p = q + 1;
        return 1;
    }
    if (*q < '1' || *q > '9')
        return 0;
    while (*q >= '0' && *q <= '9')
        q++;
    *p = q;
    return 1;
}

static void run3(const fmuc_md *md, fmuc_result *res)
{
    const char *v = md->fmi_version, *p = v;
    int third = 0;
    if (p[0] != '3' || p[1] != '.') {
        fmuc_result_violation(res, "<fmiModelDescription> (line %u): fmiVersion=\"%s\" does not "
                              "match the FMI 3.0 pattern 3.<minor>[.<patch>][-<suffix>]",
                              md->root_line, v);
        return;
    }
    p += 2;
    if (!number(&p) || (*p == '.' && (p++, third = 1, !number(&p))) || (*p && *p != '-') ||
        (*p == '-' && !p[1])) {
        fmuc_result_violation(res, "<fmiModelDescription> (line %u): fmiVersion=\"%s\" does not "
                              "match the FMI 3.0 pattern 3.<minor>[.<patch>][-<suffix>]",
                              md->root_line, v);
        return;
    }
    if (third)
        fmuc_result_warn(res, "<fmiModelDescription> (line %u): fmiVersion=\"%s\": files of every "
                         "FMI 3.0.x release carry \"3.0\" (major.minor only, §2.6)",
                         md->root_line, v);
    if (*p == '-')
        fmuc_result_warn(res, "<fmiModelDescription> (line %u): fmiVersion=\"%s\" carries a "
                         "suffix, which marks a prototype or release candidate of the standard",
                         md->root_line, v);
    if (!third && *p != '-' && strncmp(v, "3.0", 3) != 0)
        fmuc_result_note(res, "<fmiModelDescription> (line %u): fmiVersion=\"%s\" names a later "
                         "minor version; judged by the FMI 3.0.2 rules", md->root_line, v);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_md *md = &s->fmu->md;
    if (md->fmi == FMUC_FMI3 && md->fmi_version) {
        run3(md, res);
        return;
    }
    if (!md->fmi_version)
        fmuc_result_violation(res, "<fmiModelDescription> (line %u): attribute 'fmiVersion' is missing",
                              md->root_line);
    else if (md->fmi == FMUC_FMI1 && strcmp(md->fmi_version, "1.0") != 0)
        /* a "1.x" document is read as FMI 1.0; only "1.0" is valid ("1.0.1" is not) */
        fmuc_result_violation(res, "<fmiModelDescription> (line %u): fmiVersion=\"%s\", must be "
                              "\"1.0\" (fixed in the FMI 1.0 schema, also for 1.0.1)",
                              md->root_line, md->fmi_version);
    else if (md->fmi != FMUC_FMI1 && strcmp(md->fmi_version, "2.0") != 0)
        fmuc_result_violation(res,
                              "<fmiModelDescription> (line %u): fmiVersion=\"%s\", must be \"2.0\" "
                              "(also for FMUs made for 2.0.1 to 2.0.5)",
                              md->root_line, md->fmi_version);
}

const fmuc_check fmuc_check_md_fmi_version = {
    .id = "md-fmi-version",
    .title = "fmiVersion is \"2.0\" (FMI 3.0: \"3.0\", FMI 1.0: \"1.0\")",
    .spec = "FMI 2.0.4 §2.2.1; FMI 3.0.2 §2.4.1, §2.6; FMI 1.0 ME (fmiModelDescription.xsd: fixed \"1.0\")",
    .level = FMUC_LEVEL_MUST,
    .why = "Importers dispatch on fmiVersion; any value other than \"2.0\" (\"3.0\") makes them "
           "reject the FMU or read it with the rules of another FMI version.",
    .fix = "Write fmiVersion=\"2.0\" (FMI 3.0: \"3.0\") exactly, not \"2\", \"2.0.4\" or \"v2.0\", "
           "on fmiModelDescription.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V2 | FMUC_V3 | FMUC_V1,
    .needs = FMUC_NEEDS_XML,
    .run = run,
};
