/* `fmucheck --list-checks [--json]`: the registry's metadata, no FMU needed. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

static const char *applies_name(unsigned a)
{
    return fmuc_applies_name(a, 0);
}

/* Scheduled Execution exists only in FMI 3.0: not listed for a check of older versions only */
static unsigned applies_of(const fmuc_check *c)
{
    return (c->versions & FMUC_V3) ? c->applies : c->applies & ~(unsigned)FMUC_APPLIES_SE;
}

/* "1.0,2.0,3.0" */
static const char *versions_name(unsigned v, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s%s%s%s", (v & FMUC_V1) ? "1.0" : "", (v & FMUC_V1) && (v & 6u) ? "," : "",
             (v & FMUC_V2) ? "2.0" : "", (v & FMUC_V2) && (v & FMUC_V3) ? "," : "",
             (v & FMUC_V3) ? "3.0" : "");
    return buf;
}

static cJSON *needs_json(unsigned n)
{
    cJSON *a = cJSON_CreateArray();
    if (n & FMUC_NEEDS_ARCHIVE)
        cJSON_AddItemToArray(a, cJSON_CreateString("archive"));
    if (n & FMUC_NEEDS_XML)
        cJSON_AddItemToArray(a, cJSON_CreateString("xml"));
    if (n & FMUC_NEEDS_BINARY)
        cJSON_AddItemToArray(a, cJSON_CreateString("binary"));
    if (n & FMUC_NEEDS_SANDBOX)
        cJSON_AddItemToArray(a, cJSON_CreateString("sandbox"));
    if (n & FMUC_NEEDS_RUN)
        cJSON_AddItemToArray(a, cJSON_CreateString("run"));
    if (n & FMUC_NEEDS_OBSERVED)
        cJSON_AddItemToArray(a, cJSON_CreateString("observed-nominal-run"));
    return a;
}

int fmuc_cli_list_checks(const fmuc_cli *cli)
{
    if (cli->list_json) {
        cJSON *arr = cJSON_CreateArray();
        for (size_t i = 0; fmuc_checks[i]; i++) {
            const fmuc_check *c = fmuc_checks[i];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "id", c->id);
            cJSON_AddStringToObject(o, "title", c->title);
            cJSON_AddStringToObject(o, "spec", c->spec);
            cJSON_AddStringToObject(o, "level", fmuc_level_name(c->level));
            cJSON *lv = cJSON_AddObjectToObject(o, "levels");
            for (int p = 0; p < FMUC_PROFILE_COUNT; p++)
                cJSON_AddStringToObject(lv, fmuc_profile_name((fmuc_profile)p),
                                        fmuc_check_profile_level(c, (fmuc_profile)p));
            if (c->interop != FMUC_INTEROP_SAME && c->interop_why)
                cJSON_AddStringToObject(o, "interopReason", c->interop_why);
            if (c->why)
                cJSON_AddStringToObject(o, "why", c->why);
            if (c->fix)
                cJSON_AddStringToObject(o, "fix", c->fix);
            cJSON *ap = cJSON_AddArrayToObject(o, "applies");
            if (c->applies & FMUC_APPLIES_ME)
                cJSON_AddItemToArray(ap, cJSON_CreateString("ME"));
            if (c->applies & FMUC_APPLIES_CS)
                cJSON_AddItemToArray(ap, cJSON_CreateString("CS"));
            if ((c->applies & FMUC_APPLIES_SE) && (c->versions & FMUC_V3))
                cJSON_AddItemToArray(ap, cJSON_CreateString("SE"));
            cJSON *vs = cJSON_AddArrayToObject(o, "fmiVersions");
            for (int k = 0; k < 3; k++)
                if (c->versions & (1u << k))
                    cJSON_AddItemToArray(vs, cJSON_CreateString(k == 0   ? "1.0"
                                                                 : k == 1 ? "2.0"
                                                                          : "3.0"));
            cJSON_AddItemToObject(o, "needs", needs_json(c->needs));
            cJSON_AddItemToArray(arr, o);
        }
        char *s = cJSON_Print(arr);
        cJSON_Delete(arr);
        if (!s)
            return FMUC_EXIT_INTERNAL;
        puts(s);
        cJSON_free(s);
        return FMUC_EXIT_OK;
    }
    /* LEVEL: under standard (the text's level); INTEROP: under the default profile (strict:
     * every check is must) */
    printf("%-40s %-6s %-11s %-6s %-12s %-26s %s\n", "ID", "LEVEL", "INTEROP", "FOR", "FMI",
           "SPEC", "TITLE");
    for (size_t i = 0; fmuc_checks[i]; i++) {
        const fmuc_check *c = fmuc_checks[i];
        char vb[16];
        printf("%-40s %-6s %-11s %-6s %-12s %-26s %s\n", c->id, fmuc_level_name(c->level),
               fmuc_check_profile_level(c, FMUC_PROFILE_INTEROP), applies_name(applies_of(c)),
               versions_name(c->versions, vb, sizeof vb), c->spec, c->title);
        if (c->interop != FMUC_INTEROP_SAME && c->interop_why)
            printf("%-40s %-6s %-11s %s\n", "", "", "", c->interop_why);
    }
    printf("(FMI: the versions whose FMUs the check judges; ");
    printf("LEVEL: under --profile standard; INTEROP: under the default --profile interop; "
           "under strict every warning fails)\n");
    printf("%zu checks\n", fmuc_checks_count());
    return FMUC_EXIT_OK;
}
