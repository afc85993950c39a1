/* The option table (cli/cli_options.def) is the one list of options: README.md's options
 * table and `fmucheck --help` show exactly its options, and every option of it parses. */
#include <criterion/criterion.h>
#include <getopt.h>

#include "fmuc_test_util.h"

FMUC_TEST_LSAN_IGNORE_CRITERION()

typedef struct {
    const char *name;
    int letter;
    int has_arg;
} opt_row;

static const opt_row table[] = {
#define FMUC_CLI_OPTION(ID, LONG, SHORT, ARG, ARGNAME, HELP) {LONG, SHORT, ARG},
#include "../../cli/cli_options.def"
#undef FMUC_CLI_OPTION
};
#define NTABLE (sizeof table / sizeof table[0])

#define MAX_NAMES 128

typedef struct {
    char longs[MAX_NAMES][40];
    size_t nlongs;
    char shorts[MAX_NAMES];
    size_t nshorts;
    char pair_long[MAX_NAMES][40]; /* "-x, --long" written together: x -> long */
    char pair_short[MAX_NAMES];
    size_t npairs;
} readme_opts;

static int has_long(const readme_opts *r, const char *name)
{
    for (size_t i = 0; i < r->nlongs; i++)
        if (!strcmp(r->longs[i], name))
            return 1;
    return 0;
}

static int has_short(const readme_opts *r, char c)
{
    for (size_t i = 0; i < r->nshorts; i++)
        if (r->shorts[i] == c)
            return 1;
    return 0;
}

/* The options named in one `...` span of the first column: "--name" (up to '[', '=' or a blank)
 * and "-x" tokens; other tokens (argument names) are skipped. */
static void scan_span(readme_opts *r, const char *s, size_t n)
{
    char prev_short = 0;
    for (size_t i = 0; i < n;) {
        while (i < n && (s[i] == ' ' || s[i] == ','))
            i++;
        size_t start = i;
        while (i < n && s[i] != ' ' && s[i] != ',')
            i++;
        const char *t = s + start;
        size_t len = i - start;
        if (len > 2 && t[0] == '-' && t[1] == '-') {
            size_t k = 2;
            while (k < len && t[k] != '[' && t[k] != '=')
                k++;
            cr_assert(k - 2 < sizeof r->longs[0] && r->nlongs < MAX_NAMES);
            char name[40];
            memcpy(name, t + 2, k - 2);
            name[k - 2] = '\0';
            cr_expect(!has_long(r, name), "README options table lists --%s twice", name);
            memcpy(r->longs[r->nlongs++], name, k - 1);
            if (prev_short && r->npairs < MAX_NAMES) {
                memcpy(r->pair_long[r->npairs], name, k - 1);
                r->pair_short[r->npairs++] = prev_short;
            }
            prev_short = 0;
        } else if (len == 2 && t[0] == '-' && t[1] != '-') {
            cr_expect(!has_short(r, t[1]), "README options table lists -%c twice", t[1]);
            cr_assert(r->nshorts < MAX_NAMES);
            r->shorts[r->nshorts++] = t[1];
            prev_short = t[1];
        } else {
            prev_short = 0;
        }
    }
}

/* README.md's options table: the rows after "| option | meaning |" up to the first line that
 * does not start with '|'; options are read from the first column's `code` spans only (the
 * meaning column may mention other options). */
static void read_readme(readme_opts *r)
{
    memset(r, 0, sizeof *r);
    char *text = fmuc_test_read_file(FMUC_SOURCE_DIR "/README.md", NULL);
    cr_assert(text, "cannot read %s/README.md", FMUC_SOURCE_DIR);
    char *p = strstr(text, "\n| option | meaning |\n");
    cr_assert(p, "README.md has no '| option | meaning |' table");
    p = strchr(p + 1, '\n') + 1; /* the |---| line */
    cr_assert(!strncmp(p, "|---", 4));
    p = strchr(p, '\n') + 1;
    size_t rows = 0;
    while (*p == '|') {
        char *eol = strchr(p, '\n');
        if (!eol)
            eol = p + strlen(p);
        /* the first cell ends at the next '|' not escaped as "\|" */
        char *cell = p + 1, *end = cell;
        while (end < eol && !(*end == '|' && end[-1] != '\\'))
            end++;
        for (char *q = cell; q < end; q++) {
            if (*q != '`')
                continue;
            char *close = memchr(q + 1, '`', (size_t)(end - q - 1));
            cr_assert(close, "unclosed ` in README options row: %.*s", (int)(eol - p), p);
            scan_span(r, q + 1, (size_t)(close - q - 1));
            q = close;
        }
        rows++;
        p = *eol ? eol + 1 : eol;
    }
    cr_assert(rows > 0, "README options table has no rows");
    free(text);
}

Test(cli_options, table_has_no_duplicates)
{
    for (size_t i = 0; i < NTABLE; i++)
        for (size_t j = i + 1; j < NTABLE; j++) {
            cr_expect(strcmp(table[i].name, table[j].name), "--%s twice in cli_options.def",
                      table[i].name);
            cr_expect(!table[i].letter || table[i].letter != table[j].letter,
                      "-%c twice in cli_options.def", table[i].letter);
        }
}

Test(cli_options, readme_table_lists_exactly_the_options)
{
    readme_opts r;
    read_readme(&r);
    for (size_t i = 0; i < NTABLE; i++) {
        cr_expect(has_long(&r, table[i].name),
                  "option --%s (cli/cli_options.def) has no row in README.md's options table",
                  table[i].name);
        if (table[i].letter)
            cr_expect(has_short(&r, (char)table[i].letter),
                      "option -%c (--%s) is missing from README.md's options table",
                      table[i].letter, table[i].name);
    }
    for (size_t i = 0; i < r.nlongs; i++) {
        int found = 0;
        for (size_t k = 0; k < NTABLE; k++)
            found |= !strcmp(table[k].name, r.longs[i]);
        cr_expect(found, "README.md's options table lists --%s, which is no option of "
                         "cli/cli_options.def", r.longs[i]);
    }
    for (size_t i = 0; i < r.nshorts; i++) {
        int found = 0;
        for (size_t k = 0; k < NTABLE; k++)
            found |= table[k].letter == r.shorts[i];
        cr_expect(found, "README.md's options table lists -%c, which is no option of "
                         "cli/cli_options.def", r.shorts[i]);
    }
    /* "-x, --long" in README pairs them as the table does */
    for (size_t i = 0; i < r.npairs; i++)
        for (size_t k = 0; k < NTABLE; k++)
            if (!strcmp(table[k].name, r.pair_long[i]))
                cr_expect_eq(table[k].letter, r.pair_short[i],
                             "README pairs -%c with --%s; the table gives it -%c",
                             r.pair_short[i], r.pair_long[i], table[k].letter ? table[k].letter : '0');
}

/* "--name" / "-x" occurs in s followed by something that cannot continue an option name */
static int mentions(const char *s, const char *opt)
{
    size_t n = strlen(opt);
    for (const char *p = strstr(s, opt); p; p = strstr(p + 1, opt)) {
        char before = p == s ? ' ' : p[-1], after = p[n];
        if ((before == ' ' || before == '[' || before == '\n') &&
            !(after == '-' || (after >= 'a' && after <= 'z') || (after >= '0' && after <= '9')))
            return 1;
    }
    return 0;
}

Test(cli_options, help_shows_every_option_within_100_columns, .timeout = 60)
{
    char *argv[] = {FMUC_EXE, "--help", NULL};
    fmuc_test_run r;
    cr_assert(fmuc_test_exec(&r, argv, NULL) == 0);
    cr_assert_eq(r.status, 0, "--help exit %d: %s", r.status, r.err);
    for (size_t i = 0; i < NTABLE; i++) {
        char opt[48];
        snprintf(opt, sizeof opt, "--%s", table[i].name);
        cr_expect(mentions(r.out, opt), "--help does not show %s", opt);
        if (table[i].letter) {
            snprintf(opt, sizeof opt, "-%c, --%s", table[i].letter, table[i].name);
            cr_expect(strstr(r.out, opt), "--help does not show '%s'", opt);
        }
    }
    size_t col = 0;
    for (const char *p = r.out; *p; p++) {
        col = *p == '\n' ? 0 : col + 1;
        cr_expect(col <= 100, "--help has a line longer than 100 columns near: %.40s", p - col + 1);
        if (col > 100)
            break;
    }
    fmuc_test_run_free(&r);
}

/* a value each option accepts (the parser validates some) */
static const char *sample_value(const char *name)
{
    static const struct {
        const char *name, *value;
    } samples[] = {
        {"jobs", "2"},        {"shard", "1/2"},        {"native", "none"},
        {"profile", "strict"}, {"isolation", "basic"}, {"require-isolation", "basic"},
        {"network", "deny"},  {"fail-on", "any"},      {"soak", "3"},
        {"timeout", "5"},     {"timeout-multiplier", "2"}, {"rtol", "0.1"},
        {"atol", "0.1"},      {"allow-write", "/tmp"}, {"pass-env", "FMUC_X"},
        {"only", "md-*,zip-*"}, {"skip", "api-*"},   {"check-jobs", "1"}, {"time-budget", "off"},
        {"stop-time", "2.5"},
    };
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
        if (!strcmp(samples[i].name, name))
            return samples[i].value;
    return "x";
}

/* Each option, long and short, with a valid value, then --help: the parser takes the option
 * (it stops at --help, exit 0, before any FMU or file is touched). */
Test(cli_options, every_option_parses, .timeout = 120)
{
    for (size_t i = 0; i < NTABLE; i++) {
        if (!strcmp(table[i].name, "help") || !strcmp(table[i].name, "version"))
            continue;
        for (int form = 0; form < (table[i].letter ? 2 : 1); form++) {
            if (form == 1 && table[i].has_arg == optional_argument)
                continue; /* -x's optional value would have to be glued to it */
            char opt[64], letter[3] = {'-', (char)table[i].letter, 0};
            char *argv[6];
            size_t k = 0;
            argv[k++] = FMUC_EXE;
            if (form == 1)
                argv[k++] = letter;
            if (table[i].has_arg == optional_argument) {
                snprintf(opt, sizeof opt, "--%s=%s", table[i].name, "-");
                argv[k++] = opt;
            } else {
                snprintf(opt, sizeof opt, "--%s", table[i].name);
                if (form == 0)
                    argv[k++] = opt;
                if (table[i].has_arg == required_argument)
                    argv[k++] = (char *)sample_value(table[i].name);
            }
            argv[k++] = "--help";
            argv[k] = NULL;
            fmuc_test_run r;
            cr_assert(fmuc_test_exec(&r, argv, NULL) == 0);
            cr_expect_eq(r.status, 0, "%s %s: exit %d: %s", argv[1], k > 3 ? argv[2] : "",
                         r.status, r.err);
            cr_expect(strstr(r.out, "usage:"), "%s: no --help after it", argv[1]);
            fmuc_test_run_free(&r);
        }
    }
}

Test(cli_options, missing_value_and_unknown_option_are_usage_errors, .timeout = 60)
{
    char *cases[][3] = {{"--timeout", NULL, NULL}, {"-o", NULL, NULL}, {"-j", "0", NULL},
                        {"--no-such-option", NULL, NULL}, {"-x", NULL, NULL},
                        {"--shard", "3/2", NULL}, {"--help=1", NULL, NULL}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *argv[] = {FMUC_EXE, cases[i][0], cases[i][1], NULL};
        fmuc_test_run r;
        cr_assert(fmuc_test_exec(&r, argv, NULL) == 0);
        cr_expect_eq(r.status, 64, "%s %s: exit %d, want 64", cases[i][0],
                     cases[i][1] ? cases[i][1] : "", r.status);
        fmuc_test_run_free(&r);
    }
}
