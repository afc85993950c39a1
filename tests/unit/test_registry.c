/* The registry: ids unique and well-formed, metadata complete, id <-> file mapping, and every
 * check has at least one broken reference FMU that proves it catches what it claims; results
 * merged between checks. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "runner.h"
#include "fmuc_test_util.h"

static int kebab(const char *id)
{
    if (!id || !islower((unsigned char)id[0]))
        return 0;
    int dash = 0;
    for (const char *p = id; *p; p++) {
        if (*p == '-') {
            if (p[1] == '-' || p[1] == '\0')
                return 0;
            dash = 1;
        } else if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p)) {
            return 0;
        }
    }
    return dash;
}

Test(registry, ids_unique_and_kebab)
{
    size_t n = fmuc_checks_count();
    cr_assert(n > 0);
    for (size_t i = 0; i < n; i++) {
        const fmuc_check *c = fmuc_checks[i];
        cr_assert(kebab(c->id), "id '%s' is not <area>-<kebab>", c->id);
        for (size_t j = i + 1; j < n; j++)
            cr_assert(strcmp(c->id, fmuc_checks[j]->id) != 0, "duplicate id %s", c->id);
    }
}

Test(registry, metadata_complete)
{
    static const char *const areas[] = {"zip-", "md-", "load-", "api-", "cs-", "se-", "me-", "eq-"};
    for (size_t i = 0; fmuc_checks[i]; i++) {
        const fmuc_check *c = fmuc_checks[i];
        cr_assert(c->title && *c->title, "%s: no title", c->id);
        /* the spec cites each version's clause, the first listed version first
         * (FMI 2.0, else FMI 3.0, else FMI 1.0); an FMI 3.0 check cites FMI 3.0.2 */
        const char *first = (c->versions & FMUC_V2)   ? "FMI 2.0"
                            : (c->versions & FMUC_V3) ? "FMI 3.0"
                                                      : "FMI 1.0";
        cr_assert(c->spec && strncmp(c->spec, first, 7) == 0, "%s: spec '%s'", c->id,
                  c->spec ? c->spec : "(null)");
        cr_assert(strstr(c->spec, "§") != NULL ||
                      (strcmp(first, "FMI 1.0") == 0 && strchr(c->spec, '(') != NULL),
                  "%s: spec cites no section", c->id);
        cr_assert(!(c->versions & FMUC_V3) || strstr(c->spec, "FMI 3.0.2 §"),
                  "%s judges FMI 3.0 but its spec '%s' cites no FMI 3.0.2 section", c->id,
                  c->spec);
        cr_assert(c->run, "%s: no run function", c->id);
        cr_assert(c->applies & FMUC_APPLIES_ANY, "%s: applies to nothing", c->id);
        /* every check judges some version, and its spec cites each version it judges */
        cr_assert(c->versions && !(c->versions & ~(unsigned)FMUC_V_ALL), "%s: versions %#x",
                  c->id, c->versions);
        if (c->versions & FMUC_V1)
            cr_assert(strstr(c->spec, "FMI 1.0"), "%s judges FMI 1.0, spec '%s'", c->id, c->spec);
        if (c->versions & FMUC_V3)
            cr_assert(strstr(c->spec, "FMI 3.0"), "%s judges FMI 3.0, spec '%s'", c->id, c->spec);
        cr_assert(c->level == FMUC_LEVEL_MUST || c->level == FMUC_LEVEL_SHOULD);
        int area = 0;
        for (size_t k = 0; k < sizeof areas / sizeof areas[0]; k++)
            area |= strncmp(c->id, areas[k], strlen(areas[k])) == 0;
        cr_assert(area, "%s: unknown area", c->id);
    }
}

Test(registry, id_matches_file)
{
    for (size_t i = 0; fmuc_checks[i]; i++) {
        const fmuc_check *c = fmuc_checks[i];
        char file[512];
        /* checks/<area>/<area>_<slug>.c: the area is the id's first component */
        int area = (int)strcspn(c->id, "-");
        int n = snprintf(file, sizeof file, "%s/checks/%.*s/", FMUC_SOURCE_DIR, area, c->id);
        for (const char *p = c->id; *p && n < (int)sizeof file - 3; p++)
            file[n++] = *p == '-' ? '_' : *p;
        snprintf(file + n, sizeof file - (size_t)n, ".c");
        cr_assert(access(file, R_OK) == 0, "%s: expected source file %s", c->id, file);
    }
}

Test(registry, every_check_has_a_broken_fmu)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/reference_fmus/broken", FMUC_SOURCE_DIR);
    size_t missing = 0;
    for (size_t i = 0; fmuc_checks[i]; i++) {
        const char *id = fmuc_checks[i]->id;
        size_t len = strlen(id);
        int found = 0;
        DIR *d = opendir(dir);
        struct dirent *e;
        while (d && (e = readdir(d)) && !found)
            found = strncmp(e->d_name, id, len) == 0 &&
                    (e->d_name[len] == '\0' || strncmp(e->d_name + len, "--", 2) == 0);
        if (d)
            closedir(d);
        if (!found) {
            cr_log_error("check %s has no reference_fmus/broken/%s/", id, id);
            missing++;
        }
    }
    cr_assert(missing == 0, "%zu checks without a broken reference FMU", missing);
}

/* Issue 20: every check that judges FMI 1.0 proves it on a 1.0 FMU: a folder
 * reference_fmus/broken/<id>--fmi1*<variant>/ (a check of FMI 1.0 only: <id>/) marked as FMI 1.0
 * by a file FMI1_BASE or FMI1. A check
 * whose rule cannot fail for a 1.0 FMU by the text would be listed here with the reason; there
 * is none (such a rule is better left out of the check's .versions). */
static const struct {
    const char *id, *why;
} fmi1_without_broken[] = {
    {NULL, NULL},
};

static int fmi1_fixture(const char *dir, const char *name)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/%s/FMI1_BASE", dir, name);
    if (access(path, R_OK) == 0)
        return 1;
    snprintf(path, sizeof path, "%s/%s/FMI1", dir, name);
    return access(path, R_OK) == 0;
}

Test(registry, every_fmi1_check_has_a_broken_fmi1_fmu)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/reference_fmus/broken", FMUC_SOURCE_DIR);
    size_t missing = 0, judged = 0;
    for (size_t i = 0; fmuc_checks[i]; i++) {
        const fmuc_check *c = fmuc_checks[i];
        if (!(c->versions & FMUC_V1))
            continue;
        judged++;
        int excepted = 0;
        for (size_t k = 0; fmi1_without_broken[k].id; k++)
            excepted |= strcmp(fmi1_without_broken[k].id, c->id) == 0;
        if (excepted)
            continue;
        char prefix[256];
        snprintf(prefix, sizeof prefix, "%s--fmi1", c->id);
        size_t len = strlen(prefix);
        int only1 = c->versions == FMUC_V1;
        int found = 0;
        DIR *d = opendir(dir);
        cr_assert(d, "cannot open %s", dir);
        struct dirent *e;
        while ((e = readdir(d)) && !found)
            found = (strncmp(e->d_name, prefix, len) == 0 ||
                     (only1 && strcmp(e->d_name, c->id) == 0)) &&
                    fmi1_fixture(dir, e->d_name);
        closedir(d);
        if (!found) {
            cr_log_error("check %s judges FMI 1.0 but has no reference_fmus/broken/%s*/ with a "
                         "file FMI1_BASE or FMI1", c->id, prefix);
            missing++;
        }
    }
    cr_assert(judged > 0, "no check judges FMI 1.0");
    cr_assert(missing == 0, "%zu FMI 1.0 checks without a broken FMI 1.0 FMU", missing);
}

Test(registry, find_and_patterns)
{
    cr_assert(fmuc_check_find("md-guid-present"));
    cr_assert_null(fmuc_check_find("no-such-check"));
    cr_assert(fmuc_check_id_matches("md-*", "md-guid-present"));
    cr_assert(!fmuc_check_id_matches("zip-*", "md-guid-present"));
    const char *only[] = {"md-*"};
    const char *skip[] = {"md-guid-*"};
    fmuc_run_filter f = {only, 1, skip, 1};
    cr_assert(!fmuc_run_selected(&f, fmuc_check_find("md-guid-present")));
    cr_assert(fmuc_run_selected(&f, fmuc_check_find("md-fmi-version")));
    cr_assert(!fmuc_run_selected(&f, fmuc_check_find("zip-binary-present")));
}

Test(registry, readme_lists_every_check)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/README.md", FMUC_SOURCE_DIR);
    FILE *f = fopen(path, "r");
    cr_assert(f, "README.md missing");
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    size_t missing = 0;
    for (size_t i = 0; fmuc_checks[i]; i++) {
        char needle[256];
        snprintf(needle, sizeof needle, "`%s`", fmuc_checks[i]->id);
        if (!strstr(text, needle)) {
            cr_log_error("README.md does not list check %s (run scripts/checks-table.sh)",
                         fmuc_checks[i]->id);
            missing++;
        }
    }
    cr_assert(missing == 0, "%zu checks missing from README.md", missing);
}

/* fmuc_result_merge: what a shared run reported reaches each check that judges it. */
Test(result, merge_messages_and_verdicts)
{
    fmuc_result src, dst;
    fmuc_result_init(&src, "a", "t", "s", FMUC_LEVEL_MUST);
    fmuc_result_init(&dst, "b", "t", "s", FMUC_LEVEL_SHOULD);
    fmuc_result_note(&dst, "own note");
    fmuc_result_error(&src, "worker terminated by SIGSEGV in fmi2DoStep");
    fmuc_result_note(&src, "last FMI calls: fmi2DoStep(...)");
    cJSON_AddNumberToObject(fmuc_result_evidence(&src), "x", 1);
    fmuc_result_merge(&dst, &src);
    cr_expect_eq(dst.verdict, FMUC_VERDICT_ERROR);
    cr_assert_eq(dst.nmessages, 3);
    cr_expect_str_eq(dst.messages[0], "own note");
    cr_expect_str_eq(dst.messages[1], "worker terminated by SIGSEGV in fmi2DoStep");
    cr_expect_null(dst.evidence, "evidence is not merged");
    fmuc_result_clear(&src);
    fmuc_result_clear(&dst);

    /* not-applicable only while the receiver still passes; never lowers a verdict */
    fmuc_result_init(&src, "a", "t", "s", FMUC_LEVEL_MUST);
    fmuc_result_na(&src, "the CoSimulation library does not load");
    fmuc_result_init(&dst, "b", "t", "s", FMUC_LEVEL_MUST);
    fmuc_result_merge(&dst, &src);
    cr_expect_eq(dst.verdict, FMUC_VERDICT_NA);
    fmuc_result_clear(&dst);
    fmuc_result_init(&dst, "b", "t", "s", FMUC_LEVEL_MUST);
    fmuc_result_violation(&dst, "a finding");
    fmuc_result_merge(&dst, &src);
    cr_expect_eq(dst.verdict, FMUC_VERDICT_FAIL);
    fmuc_result_clear(&dst);
    fmuc_result_clear(&src);
}

/* A part not judged (one interface) does not outweigh the parts judged; a whole-check
 * not-applicable, a finding or nothing judged at all keep their verdict. */
Test(result, a_part_not_judged_leaves_the_judged_parts_to_decide)
{
    fmuc_result r;
    fmuc_result_init(&r, "a", "t", "s", FMUC_LEVEL_MUST);
    fmuc_result_na_part(&r, "ModelExchange: not judged: the worker ended with SIGSEGV");
    cr_expect_eq(r.verdict, FMUC_VERDICT_NA, "alone, it is not applicable");
    fmuc_result_parts_judged(&r, 0);
    cr_expect_eq(r.verdict, FMUC_VERDICT_NA, "nothing judged");
    fmuc_result_parts_judged(&r, 1);
    cr_expect_eq(r.verdict, FMUC_VERDICT_PASS, "CoSimulation judged: it decides");
    cr_assert_eq(r.nmessages, 1, "the reason stays");
    fmuc_result_clear(&r);

    fmuc_result_init(&r, "a", "t", "s", FMUC_LEVEL_MUST);
    fmuc_result_na_part(&r, "ModelExchange: not judged");
    fmuc_result_na(&r, "the check does not apply");
    fmuc_result_parts_judged(&r, 1);
    cr_expect_eq(r.verdict, FMUC_VERDICT_NA, "a whole-check not-applicable stays");
    fmuc_result_clear(&r);

    fmuc_result_init(&r, "a", "t", "s", FMUC_LEVEL_MUST);
    fmuc_result_na_part(&r, "ModelExchange: not judged");
    fmuc_result_violation(&r, "CoSimulation: a finding");
    fmuc_result_parts_judged(&r, 1);
    cr_expect_eq(r.verdict, FMUC_VERDICT_FAIL, "a finding is never lowered");
    fmuc_result_clear(&r);

    /* merged from a scratch result, a whole not-applicable stays whole */
    fmuc_result src;
    fmuc_result_init(&src, "a", "t", "s", FMUC_LEVEL_MUST);
    fmuc_result_na(&src, "the CoSimulation library does not load");
    fmuc_result_init(&r, "a", "t", "s", FMUC_LEVEL_MUST);
    fmuc_result_merge(&r, &src);
    fmuc_result_parts_judged(&r, 1);
    cr_expect_eq(r.verdict, FMUC_VERDICT_NA);
    fmuc_result_clear(&r);
    fmuc_result_clear(&src);
}

/* Profiles (README "Profiles"): a check downgraded under interop says why (the downgrade only
 * changes anything for a must-level check). */
Test(registry, interop_downgrades_carry_a_reason)
{
    for (size_t i = 0; fmuc_checks[i]; i++) {
        const fmuc_check *c = fmuc_checks[i];
        if (c->interop == FMUC_INTEROP_SAME)
            continue;
        cr_expect(c->interop_why && strlen(c->interop_why) > 20, "%s: no interop reason", c->id);
    }
    const fmuc_check *iu = fmuc_check_find("md-ms-initial-unknowns");
    cr_assert(iu);
    cr_expect_str_eq(fmuc_check_profile_level(iu, FMUC_PROFILE_STANDARD), "must");
    cr_expect_str_eq(fmuc_check_profile_level(iu, FMUC_PROFILE_INTEROP), "should");
    cr_expect_str_eq(fmuc_check_profile_level(iu, FMUC_PROFILE_STRICT), "must");
    const fmuc_check *ba = fmuc_check_find("load-binary-arch");
    cr_assert(ba);
    cr_expect_str_eq(fmuc_check_profile_level(ba, FMUC_PROFILE_INTEROP), "must/should");
}

/* README "Profiles" gives every must rule that interop downgrades a row of its table ("The must
 * rules that warn under interop, and why"). */
Test(registry, readme_explains_every_interop_downgrade)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/README.md", FMUC_SOURCE_DIR);
    char *text = fmuc_test_read_file(path, NULL);
    cr_assert(text, "README.md missing");
    const char *from = strstr(text, "The must rules that warn under interop");
    cr_assert(from, "README.md has no table of the interop downgrades");
    const char *to = strstr(from, "\n\n");
    to = to ? strstr(to + 2, "\n\n") : NULL; /* the table is the paragraph after the heading */
    cr_assert(to, "the table of the interop downgrades does not end");
    size_t missing = 0;
    for (size_t i = 0; fmuc_checks[i]; i++) {
        const fmuc_check *c = fmuc_checks[i];
        if (c->interop == FMUC_INTEROP_SAME || c->level != FMUC_LEVEL_MUST)
            continue;
        char needle[256];
        snprintf(needle, sizeof needle, "\n| `%s` |", c->id);
        const char *at = strstr(from, needle);
        if (!at || at > to) {
            cr_log_error("README.md Profiles: no row for %s, which warns under interop", c->id);
            missing++;
        }
    }
    free(text);
    cr_expect(missing == 0, "%zu interop downgrades not explained in README.md", missing);
}

static fmuc_result profiled(const char *check_id, int letter, int other, int warn)
{
    const fmuc_check *c = fmuc_check_find(check_id);
    fmuc_result r;
    cr_assert(c);
    fmuc_result_init(&r, c->id, c->title, c->spec, c->level);
    if (letter)
        fmuc_result_violation_letter(&r, "letter");
    if (other)
        fmuc_result_violation(&r, "other");
    if (warn)
        fmuc_result_warn(&r, "warn");
    fmuc_check_profiles(c, &r, FMUC_PROFILE_INTEROP);
    return r;
}

Test(registry, verdicts_per_profile)
{
    /* a whole-check downgrade: fail under standard and strict, warn under interop */
    fmuc_result r = profiled("md-ms-initial-unknowns", 0, 1, 0);
    cr_expect_eq(r.verdicts[FMUC_PROFILE_STANDARD], FMUC_VERDICT_FAIL);
    cr_expect_eq(r.verdicts[FMUC_PROFILE_INTEROP], FMUC_VERDICT_WARN);
    cr_expect_eq(r.verdicts[FMUC_PROFILE_STRICT], FMUC_VERDICT_FAIL);
    cr_expect_eq(r.verdict, FMUC_VERDICT_WARN, "the selected profile's verdict");
    cr_expect(r.interop_why != NULL);
    fmuc_result_clear(&r);
    /* letter-only findings warn under interop; with another failure the check fails */
    r = profiled("load-binary-arch", 1, 0, 0);
    cr_expect_eq(r.verdicts[FMUC_PROFILE_STANDARD], FMUC_VERDICT_FAIL);
    cr_expect_eq(r.verdicts[FMUC_PROFILE_INTEROP], FMUC_VERDICT_WARN);
    fmuc_result_clear(&r);
    r = profiled("load-binary-arch", 1, 1, 0);
    cr_expect_eq(r.verdicts[FMUC_PROFILE_INTEROP], FMUC_VERDICT_FAIL);
    cr_expect(r.interop_why == NULL);
    fmuc_result_clear(&r);
    /* a check without a downgrade: the same under interop and standard */
    r = profiled("md-guid-present", 0, 1, 0);
    cr_expect_eq(r.verdicts[FMUC_PROFILE_INTEROP], FMUC_VERDICT_FAIL);
    fmuc_result_clear(&r);
    /* strict fails every warning */
    r = profiled("md-guid-present", 0, 0, 1);
    cr_expect_eq(r.verdicts[FMUC_PROFILE_STANDARD], FMUC_VERDICT_WARN);
    cr_expect_eq(r.verdicts[FMUC_PROFILE_INTEROP], FMUC_VERDICT_WARN);
    cr_expect_eq(r.verdicts[FMUC_PROFILE_STRICT], FMUC_VERDICT_FAIL);
    fmuc_result_clear(&r);
}

Test(registry, merged_letter_findings_stay_letter)
{
    const fmuc_check *c = fmuc_check_find("load-binary-arch");
    fmuc_result a, b;
    fmuc_result_init(&a, c->id, c->title, c->spec, c->level);
    fmuc_result_init(&b, c->id, c->title, c->spec, c->level);
    fmuc_result_violation_letter(&b, "letter");
    fmuc_result_merge(&a, &b);
    fmuc_check_profiles(c, &a, FMUC_PROFILE_STANDARD);
    cr_expect_eq(a.verdict, FMUC_VERDICT_FAIL);
    cr_expect_eq(a.verdicts[FMUC_PROFILE_INTEROP], FMUC_VERDICT_WARN);
    fmuc_result_clear(&b);
    fmuc_result_init(&b, c->id, c->title, c->spec, c->level);
    b.verdict = FMUC_VERDICT_FAIL; /* set directly: counts as a real failure */
    fmuc_result_merge(&a, &b);
    fmuc_check_profiles(c, &a, FMUC_PROFILE_STANDARD);
    cr_expect_eq(a.verdicts[FMUC_PROFILE_INTEROP], FMUC_VERDICT_FAIL);
    fmuc_result_clear(&a);
    fmuc_result_clear(&b);
}

/* Issue 21: every check says why a violation matters and how the FMU's author fixes it; the
 * texts are specific to the check (no two checks share one) and are not the title again. */
Test(registry, every_check_has_why_and_fix)
{
    const size_t min_len = 30, max_len = 240;
    for (size_t i = 0; fmuc_checks[i]; i++) {
        const fmuc_check *c = fmuc_checks[i];
        const char *t[2] = {c->why, c->fix};
        const char *nm[2] = {"why", "fix"};
        for (int k = 0; k < 2; k++) {
            cr_expect(t[k] != NULL, "%s: no .%s text", c->id, nm[k]);
            if (!t[k])
                continue;
            cr_expect(strlen(t[k]) >= min_len, "%s: .%s is shorter than %zu characters: '%s'",
                      c->id, nm[k], min_len, t[k]);
            cr_expect(strlen(t[k]) <= max_len, "%s: .%s is longer than %zu characters", c->id,
                      nm[k], max_len);
            cr_expect(strcmp(t[k], c->title) != 0, "%s: .%s repeats the title", c->id, nm[k]);
        }
        if (c->why && c->fix)
            cr_expect(strcmp(c->why, c->fix) != 0, "%s: .why and .fix are the same text", c->id);
        for (size_t j = i + 1; fmuc_checks[j]; j++) {
            const fmuc_check *o = fmuc_checks[j];
            const char *u[2] = {o->why, o->fix};
            for (int k = 0; k < 2; k++)
                for (int l = 0; l < 2; l++)
                    cr_expect(!t[k] || !u[l] || strcmp(t[k], u[l]) != 0,
                              "%s .%s and %s .%s are the same text", c->id, nm[k], o->id, nm[l]);
        }
    }
}

/* Issue 19 (item 5): a check that judges FMI 3.0 FMUs proves it on one, as for 2.0: a broken FMU
 * folder <id>--fmi3[-variant] (a check of FMI 3.0 alone: also its own folder <id>) whose
 * FMI_VERSION file says 3 and whose EXPECT gives the check a verdict. */
static const struct {
    const char *id, *why;
} fmi3_fixture_exceptions[] = {
    /* none: every check that lists FMUC_V3 has one (add {id, reason} here only when the FMI 3.0.2
     * text leaves an FMI 3.0 FMU no way to fail the check) */
    {NULL, NULL},
};

/* The first meaningful line of <dir>/<name> is `want` (FMI_VERSION) or, for EXPECT, some line
 * starts with "<want> " (the check's verdict). */
static int fixture_file_has(const char *dir, const char *name, const char *want, int expect)
{
    char path[4400], line[512];
    int pl = snprintf(path, sizeof path, "%s/%s", dir, name);
    if (pl < 0 || (size_t)pl >= sizeof path)
        return 0; /* (no such path in the source tree) */
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int found = 0;
    size_t wl = strlen(want);
    while (!found && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '#')
            continue;
        if (expect) {
            found = strncmp(p, want, wl) == 0 && (p[wl] == ' ' || p[wl] == '\t');
        } else {
            found = strcmp(p, want) == 0;
            break; /* FMI_VERSION: only its first line counts */
        }
    }
    fclose(f);
    return found;
}

Test(registry, every_fmi3_check_has_a_broken_fmi3_fmu)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/reference_fmus/broken", FMUC_SOURCE_DIR);
    size_t missing = 0, judged = 0;
    for (size_t i = 0; fmuc_checks[i]; i++) {
        const fmuc_check *c = fmuc_checks[i];
        if (!(c->versions & FMUC_V3))
            continue;
        judged++;
        const char *excused = NULL;
        for (size_t k = 0; fmi3_fixture_exceptions[k].id; k++)
            if (strcmp(fmi3_fixture_exceptions[k].id, c->id) == 0)
                excused = fmi3_fixture_exceptions[k].why;
        size_t len = strlen(c->id);
        int only3 = c->versions == FMUC_V3, found = 0;
        DIR *d = opendir(dir);
        struct dirent *e;
        while (d && (e = readdir(d)) && !found) {
            const char *n = e->d_name;
            if (strncmp(n, c->id, len) != 0 ||
                !(strncmp(n + len, "--fmi3", 6) == 0 || (only3 && n[len] == '\0')))
                continue;
            char sub[4400];
            int sl = snprintf(sub, sizeof sub, "%s/%s", dir, n);
            found = sl > 0 && (size_t)sl < sizeof sub && fixture_file_has(sub, "FMI_VERSION", "3", 0) &&
                    fixture_file_has(sub, "EXPECT", c->id, 1);
        }
        if (d)
            closedir(d);
        if (found)
            cr_expect(!excused, "%s has an FMI 3.0 fixture: drop its exception ('%s')", c->id,
                      excused ? excused : "");
        else if (!excused) {
            cr_log_error("check %s judges FMI 3.0 but has no reference_fmus/broken/%s--fmi3*/ "
                         "with FMI_VERSION 3 and an EXPECT line for it",
                         c->id, c->id);
            missing++;
        }
    }
    for (size_t k = 0; fmi3_fixture_exceptions[k].id; k++) {
        const fmuc_check *c = fmuc_check_find(fmi3_fixture_exceptions[k].id);
        cr_expect(c && (c->versions & FMUC_V3), "exception %s: no such FMI 3.0 check",
                  fmi3_fixture_exceptions[k].id);
        cr_expect(strlen(fmi3_fixture_exceptions[k].why) >= 20, "exception %s: give the reason",
                  fmi3_fixture_exceptions[k].id);
    }
    cr_assert(judged > 0);
    cr_assert(missing == 0, "%zu FMI 3.0 checks without a broken FMI 3.0 FMU", missing);
}
