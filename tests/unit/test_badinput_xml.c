/* Bad-input suite, modelDescription.xml (robustness.md §4.2, X01-X10), end to end through
 * fmucheck on the good reference FMU with its modelDescription.xml replaced. XML problems are
 * check failures (exit 1), never crashes; nothing from a DTD or an external resource reaches any
 * output; report strings stay valid JSON / UTF-8, HTML is escaped, the terminal sees no ESC. */
#include <criterion/criterion.h>
#include <time.h>

#include "fmuc/fmuc_fmu.h"
#include "fmuc/fmuc_md.h"
#include "test_badinput_util.h"

#define CANARY "CANARY-7f3a9c-SECRET"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *good_md(void)
{
    bi_fmu f;
    bi_fmu_load(&f, BI_GOOD_FMU);
    char *md = strdup((char *)bi_fmu_find(&f, "modelDescription.xml")->data);
    bi_fmu_free(&f);
    return md;
}

/* Everything the run wrote or printed, concatenated. */
static char *all_output(const bi_env *e, const fmuc_test_run *r, size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    fmuc_test__append(&buf, &n, r->out, r->out_len);
    fmuc_test__append(&buf, &n, r->err, r->err_len);
    const char *files[] = {"report.json", "report.html", "junit.xml"};
    for (size_t i = 0; i < 3; i++) {
        char p[800];
        snprintf(p, sizeof p, "%s/%s", e->out, files[i]);
        size_t l = 0;
        char *s = fmuc_test_read_file(p, &l);
        if (s)
            fmuc_test__append(&buf, &n, s, l);
        free(s);
    }
    *len = n;
    return buf ? buf : calloc(1, 1);
}

static int valid_utf8(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        size_t k = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (!k || i + k > n || (k == 2 && c < 0xC2))
            return 0;
        for (size_t j = 1; j < k; j++)
            if ((s[i + j] & 0xC0) != 0x80)
                return 0;
        i += k;
    }
    return 1;
}

typedef struct xrun {
    int status;
    cJSON *rep;
    char *all;
    size_t all_len;
    fmuc_test_run r;
} xrun;

/* Run fmucheck (with HTML and JUnit) on the good FMU carrying xml; the contract is checked. */
static void run_md(bi_env *e, const char *xml, size_t len, xrun *x)
{
    char p[700], junit[800];
    bi_in(e, "x.fmu", p, sizeof p);
    bi_fmu_with_md(p, xml, len);
    fmuc_test_rm_rf(e->out);
    snprintf(junit, sizeof junit, "%s/junit.xml", e->out);
    const char *extra[] = {"--junit", junit, NULL};
    bi_opts o = {.html = 1};
    cr_assert(bi_exec(e, &x->r, &o, p, extra) == 0);
    bi_expect_hygiene(e, "x.fmu");
    x->status = x->r.status;
    x->rep = bi_report(e);
    x->all = all_output(e, &x->r, &x->all_len);
    cr_expect(x->rep, "a report is written for an FMU with a bad model description");
    cr_expect(x->status < 3, "exit %d: an XML problem is a check result, not a tool failure\n%s",
              x->status, x->r.err);
    if (x->rep) {
        char rp[800];
        snprintf(rp, sizeof rp, "%s/report.json", e->out);
        size_t l;
        char *s = fmuc_test_read_file(rp, &l);
        cr_expect(valid_utf8((unsigned char *)s, l), "report.json is not valid UTF-8");
        free(s);
    }
    cr_expect(!memchr(x->r.out, 0x1b, x->r.out_len) && !memchr(x->r.err, 0x1b, x->r.err_len),
              "terminal output carries ESC");
}

static void xrun_free(xrun *x)
{
    cJSON_Delete(x->rep);
    free(x->all);
    fmuc_test_run_free(&x->r);
}

static void expect_check(const xrun *x, const char *id, const char *verdict)
{
    cr_expect_str_eq(bi_verdict(x->rep, id), verdict, "check %s", id);
}

/* Text after the XML declaration: the root element onwards. */
static const char *root_of(const char *md)
{
    const char *r = strstr(md, "<fmiModelDescription");
    cr_assert(r);
    return r;
}

static char *with_prolog(const char *prolog, const char *md)
{
    char *s = NULL;
    cr_assert(asprintf(&s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n%s\n%s", prolog, root_of(md)) > 0);
    return s;
}

/* ---- X01-X03: DTDs, entities, external resources ------------------------------------------ */

Test(badinput_xml, x01_xxe_never_reads_the_file, .timeout = 120)
{
    bi_env e;
    bi_env_init(&e, "x01");
    char canary[700], prolog[1600];
    snprintf(canary, sizeof canary, "%s/canary.txt", e.root);
    cr_assert(fmuc_test_write_file(canary, CANARY "\n", strlen(CANARY) + 1) == 0);
    char *md = good_md();
    snprintf(prolog, sizeof prolog,
             "<!DOCTYPE fmiModelDescription [<!ENTITY x SYSTEM \"file://%s\">"
             "<!ENTITY %% p SYSTEM \"file://%s\"> %%p;]>", canary, canary);
    char *doc0 = with_prolog(prolog, md);
    char *doc = bi_replace(doc0, "author=\"", "author=\"&x;");
    xrun x;
    run_md(&e, doc, strlen(doc), &x);
    cr_expect_eq(x.status, 1);
    expect_check(&x, "md-well-formed", "fail");
    cr_expect(!memmem(x.all, x.all_len, CANARY, strlen(CANARY)), "the canary leaked into the output");
    xrun_free(&x);
    free(doc0);
    free(doc);
    free(md);
    bi_env_fini(&e);
}

Test(badinput_xml, x02_billion_laughs_within_a_second, .timeout = 60)
{
    bi_env e;
    bi_env_init(&e, "x02");
    char *md = good_md();
    char prolog[4096];
    size_t o = (size_t)snprintf(prolog, sizeof prolog,
                                "<!DOCTYPE fmiModelDescription [<!ENTITY l0 \"lol\">");
    for (int i = 1; i < 10; i++)
        o += (size_t)snprintf(prolog + o, sizeof prolog - o,
                              "<!ENTITY l%d \"&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;\">", i,
                              i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
    snprintf(prolog + o, sizeof prolog - o, "]>");
    char *doc0 = with_prolog(prolog, md);
    char *doc = bi_replace(doc0, "author=\"", "author=\"&l9;");
    /* the parser itself: refused in well under a second */
    fmuc_md m;
    double t0 = now_s();
    fmuc_err err = fmuc_md_parse(&m, doc, strlen(doc), NULL);
    double dt = now_s() - t0;
    cr_expect_eq(err, FMUC_EXML);
    cr_expect(dt < 1.0, "billion laughs took %.2f s", dt);
    fmuc_md_free(&m);
    xrun x;
    t0 = now_s();
    run_md(&e, doc, strlen(doc), &x);
    cr_expect(now_s() - t0 < 5.0, "end to end took %.2f s", now_s() - t0);
    cr_expect_eq(x.status, 1);
    expect_check(&x, "md-well-formed", "fail");
    cr_expect(!memmem(x.all, x.all_len, "lollollol", 9), "an entity was expanded");
    xrun_free(&x);
    free(doc0);
    free(doc);
    free(md);
    bi_env_fini(&e);
}

Test(badinput_xml, x03_external_dtd_and_xinclude, .timeout = 120)
{
    bi_env e;
    bi_env_init(&e, "x03");
    char canary[700], prolog[1600];
    snprintf(canary, sizeof canary, "%s/canary.xml", e.root);
    cr_assert(fmuc_test_write_file(canary, "<x>" CANARY "</x>", strlen(CANARY) + 7) == 0);
    char *md = good_md();
    /* external DTD (a metadata endpoint: must never be fetched) */
    snprintf(prolog, sizeof prolog,
             "<!DOCTYPE fmiModelDescription SYSTEM \"http://169.254.169.254/latest/dtd\">");
    char *doc = with_prolog(prolog, md);
    xrun x;
    run_md(&e, doc, strlen(doc), &x);
    cr_expect_eq(x.status, 1);
    expect_check(&x, "md-well-formed", "fail");
    xrun_free(&x);
    free(doc);
    /* xi:include is just an unknown element: never processed */
    char inc[1200];
    snprintf(inc, sizeof inc,
             "<VendorAnnotations><Tool name=\"x\"><xi:include "
             "xmlns:xi=\"http://www.w3.org/2001/XInclude\" href=\"file://%s\" parse=\"text\"/>"
             "</Tool></VendorAnnotations>\n  <ModelVariables>",
             canary);
    doc = bi_replace(md, "<ModelVariables>", inc);
    run_md(&e, doc, strlen(doc), &x);
    cr_expect(x.status <= 1);
    cr_expect(!memmem(x.all, x.all_len, CANARY, strlen(CANARY)), "xi:include was processed");
    xrun_free(&x);
    free(doc);
    free(md);
    bi_env_fini(&e);
}

/* ---- X04: size and depth -------------------------------------------------------------------- */

Test(badinput_xml, x04_xml_cap_and_deep_nesting, .timeout = 120)
{
    bi_env e;
    bi_env_init(&e, "x04");
    char *md = good_md();
    /* the byte cap, lowered: 4 MiB of comment is over a 1 MiB limit */
    size_t pad = 4u << 20;
    const char *root = root_of(md);
    size_t pre = (size_t)(root - md), rl = strlen(root);
    char *big = malloc(pre + pad + 7 + rl + 1);
    memcpy(big, md, pre);
    memcpy(big + pre, "<!--", 4);
    memset(big + pre + 4, 'x', pad);
    memcpy(big + pre + 4 + pad, "-->", 3);
    memcpy(big + pre + 7 + pad, root, rl + 1);
    char p[700];
    bi_in(&e, "big.fmu", p, sizeof p);
    bi_fmu_with_md(p, big, strlen(big));
    fmuc_fmu fmu;
    fmuc_fmu_limits lim = {.max_xml_bytes = 1u << 20};
    fmuc_diag d = {{0}, FMUC_OK};
    fmuc_err err = fmuc_fmu_open(&fmu, p, &lim, e.tmp, &d);
    cr_expect_eq(err, FMUC_EZIP, "over the XML cap: %s", d.msg);
    cr_expect(fmu.listing.problems & FMUC_ZIP_TOO_LARGE);
    fmuc_fmu_close(&fmu);
    cr_expect_eq(fmuc_test_count_entries(e.tmp), 0);
    /* and at the default cap the same document is fine */
    xrun x;
    run_md(&e, big, strlen(big), &x);
    cr_expect_eq(x.status, 0, "a 4 MiB comment is legal: %s", x.r.out);
    xrun_free(&x);
    free(big);

    /* nesting 100k deep inside ModelVariables */
    size_t depth = 100000;
    char *deep = malloc(strlen(md) + depth * 7 + 64);
    const char *mv = strstr(md, "<ModelVariables>") + strlen("<ModelVariables>");
    size_t a = (size_t)(mv - md);
    memcpy(deep, md, a);
    char *w = deep + a;
    for (size_t i = 0; i < depth; i++)
        memcpy(w, "<a>", 3), w += 3;
    for (size_t i = 0; i < depth; i++)
        memcpy(w, "</a>", 4), w += 4;
    memcpy(w, mv, strlen(mv) + 1);
    run_md(&e, deep, strlen(deep), &x);
    /* the parse stops at the depth limit: never a silent PASS of the unread rest */
    cr_expect_eq(x.status, 1, "a document cut short by a parser limit fails: %s", x.r.out);
    expect_check(&x, "md-well-formed", "fail");
    xrun_free(&x);
    free(deep);

    /* the same for the variable-count cap (5M ScalarVariables, scaled down with a lowered cap) */
    fmuc_md m;
    fmuc_md_limits ml = {.max_variables = 1};
    fmuc_md_parse(&m, md, strlen(md), &ml);
    cr_expect(m.parse_stopped);
    int xml_issue = 0;
    for (size_t i = 0; i < m.nissues; i++)
        xml_issue |= m.issues[i].kind == FMUC_ISSUE_XML;
    cr_expect(xml_issue, "a stopped parse carries an XML issue (md-well-formed fails)");
    fmuc_md_free(&m);
    free(md);
    bi_env_fini(&e);
}

/* ---- X05, X06: encodings and malformed documents ------------------------------------------- */

Test(badinput_xml, x05_encodings_and_bom, .timeout = 180)
{
    bi_env e;
    bi_env_init(&e, "x05");
    char *md = good_md();
    xrun x;
    /* a UTF-8 BOM is accepted */
    size_t n = strlen(md);
    char *bom = malloc(n + 4);
    memcpy(bom, "\xEF\xBB\xBF", 3);
    memcpy(bom + 3, md, n + 1);
    run_md(&e, bom, n + 3, &x);
    cr_expect_eq(x.status, 0, "BOM: %s", x.r.out);
    xrun_free(&x);
    free(bom);
    /* non-UTF-8 bytes, an overlong sequence, &#0;, ISO-8859-1: each a failed check (ISO-8859-1
     * declared on a document that is pure ASCII fails under standard only: under the default
     * profile, interop, it warns, as every byte reads the same in UTF-8) */
    const char *bad[][2] = {{"author=\"", "author=\"\xE9\xFF"},
                            {"author=\"", "author=\"\xC0\xAF"},
                            {"author=\"", "author=\"&#0;"},
                            {"encoding=\"UTF-8\"", "encoding=\"ISO-8859-1\""}};
    for (size_t i = 0; i < 4; i++) {
        char *doc = bi_replace(md, bad[i][0], bad[i][1]);
        run_md(&e, doc, strlen(doc), &x);
        cr_expect_eq(x.status, i == 3 ? 0 : 1, "case %zu", i);
        expect_check(&x, "md-well-formed", i == 3 ? "warn" : "fail");
        const cJSON *c;
        cJSON_ArrayForEach(c, cJSON_GetObjectItem(x.rep, "checks"))
        {
            const char *cid = cJSON_GetStringValue(cJSON_GetObjectItem(c, "id"));
            if (cid && strcmp(cid, "md-well-formed") == 0)
                cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(
                                     cJSON_GetObjectItem(c, "verdicts"), "standard")),
                                 "fail", "case %zu under standard", i);
        }
        xrun_free(&x);
        free(doc);
    }
    /* UTF-16 with a BOM */
    char *u16 = malloc(2 * n + 2);
    u16[0] = (char)0xFF;
    u16[1] = (char)0xFE;
    for (size_t i = 0; i < n; i++) {
        u16[2 + 2 * i] = md[i];
        u16[3 + 2 * i] = 0;
    }
    run_md(&e, u16, 2 * n + 2, &x);
    cr_expect_eq(x.status, 1, "UTF-16");
    expect_check(&x, "md-well-formed", "fail");
    xrun_free(&x);
    free(u16);
    free(md);
    bi_env_fini(&e);
}

Test(badinput_xml, x06_malformed_documents_name_the_line, .timeout = 180)
{
    bi_env e;
    bi_env_init(&e, "x06");
    char *md = good_md();
    size_t n = strlen(md);
    xrun x;
    char *docs[4];
    docs[0] = bi_replace(md, "</ModelVariables>", "<ScalarVariable name=\"open\"></ModelVariables>");
    cr_assert(asprintf(&docs[1], "%s<fmiModelDescription fmiVersion=\"2.0\"/>", md) > 0);
    const char *cut = strstr(md, "guid=\"") + 8;
    docs[2] = strndup(md, (size_t)(cut - md));
    cr_assert(asprintf(&docs[3], "%sgarbage & <more", md) > 0);
    (void)n;
    for (int i = 0; i < 4; i++) {
        run_md(&e, docs[i], strlen(docs[i]), &x);
        cr_expect_eq(x.status, 1, "case %d", i);
        expect_check(&x, "md-well-formed", "fail");
        cr_expect(strstr(x.r.out, "line "), "case %d: the message names the line: %s", i, x.r.out);
        xrun_free(&x);
        free(docs[i]);
    }
    free(md);
    bi_env_fini(&e);
}

/* ---- X07: semantic nonsense ------------------------------------------------------------------ */

Test(badinput_xml, x07_semantic_nonsense_is_a_finding_not_a_crash, .timeout = 300)
{
    bi_env e;
    bi_env_init(&e, "x07");
    char *md = good_md();
    const char *vr_at = strstr(md, "valueReference=\"");
    cr_assert(vr_at);
    char vr_orig[64];
    size_t vl = strcspn(vr_at + 16, "\"");
    snprintf(vr_orig, sizeof vr_orig, "valueReference=\"%.*s\"", (int)vl, vr_at + 16);
    struct {
        const char *from, *to, *check;
    } cases[] = {
        {vr_orig, "valueReference=\"4294967296\"", "md-attribute-syntax"},
        {vr_orig, "valueReference=\"-1\"", "md-attribute-syntax"},
        {"numberOfEventIndicators=\"0\"", "numberOfEventIndicators=\"2147483647\"", NULL},
        {"<Real", "<Real start=\"nan\"", NULL},
        {"fmiVersion=\"2.0\"", "fmiVersion=\"2.0.99x\"", "md-fmi-version"},
    };
    xrun x;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *doc = bi_replace(md, cases[i].from, cases[i].to);
        run_md(&e, doc, strlen(doc), &x);
        cr_expect(x.status == 1 || x.status == 2, "case %zu (%s): exit %d", i, cases[i].to, x.status);
        if (cases[i].check)
            expect_check(&x, cases[i].check, "fail");
        xrun_free(&x);
        free(doc);
    }
    /* a ScalarVariable without its type element (FMUComplianceChecker#40) */
    const char *sv = strstr(md, "<ScalarVariable");
    const char *ty = strstr(sv, "<Real");
    const char *tend = strstr(ty, "/>") + 2;
    char *doc = NULL;
    cr_assert(asprintf(&doc, "%.*s%s", (int)(ty - md), md, tend) > 0);
    run_md(&e, doc, strlen(doc), &x);
    cr_expect(x.status == 1 || x.status == 2, "no type element: exit %d", x.status);
    expect_check(&x, "md-var-type-element", "fail");
    xrun_free(&x);
    free(doc);
    free(md);
    bi_env_fini(&e);
}

/* ---- X08: report injection ------------------------------------------------------------------ */

Test(badinput_xml, x08_report_injection_stays_data, .timeout = 180)
{
    bi_env e;
    bi_env_init(&e, "x08");
    char *md = good_md();
    xrun x;
    const char *inj = "%s%s%n&#13;&#10;[PASS] &lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;";
    char to[512];
    snprintf(to, sizeof to, "description=\"%s", inj);
    char *d1 = bi_replace(md, "description=\"", to);
    snprintf(to, sizeof to, "author=\"%s", inj);
    char *doc = bi_replace(d1, "author=\"", to);
    run_md(&e, doc, strlen(doc), &x);
    cr_expect_eq(x.status, 0, "%s", x.r.out);
    const char *desc = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(x.rep, "fmu"), "description"));
    cr_expect(desc && strstr(desc, "%s%s%n\r\n[PASS] </pre><script>"), "JSON keeps the text as data");
    char hp[800];
    snprintf(hp, sizeof hp, "%s/report.html", e.out);
    char *html = fmuc_test_read_file(hp, NULL);
    cr_assert(html, "report.html written");
    cr_expect(!strstr(html, "<script>alert(1)"), "raw <script> from the FMU in the HTML");
    cr_expect(!strstr(html, "</pre><script>"), "raw </pre> from the FMU in the HTML");
    free(html);
    cr_expect(!strstr(x.r.out, "\r\n[PASS]"), "the FMU forged a line on the terminal");
    xrun_free(&x);
    free(d1);
    free(doc);

    /* raw ESC / control bytes are not XML: a failure, and never echoed to the terminal */
    doc = bi_replace(md, "author=\"", "author=\"\x1b[2J\x1b]0;pwned\x07");
    run_md(&e, doc, strlen(doc), &x);
    cr_expect_eq(x.status, 1);
    xrun_free(&x);
    free(doc);

    /* a 1 MiB GUID: the report stays valid JSON (run_md checks it) and keeps it */
    size_t gl = 1u << 20;
    char *guid = malloc(gl + 3);
    guid[0] = '{';
    memset(guid + 1, 'A', gl);
    guid[gl + 1] = '}';
    guid[gl + 2] = '\0';
    const char *g0 = strstr(md, "guid=\"") + 6;
    size_t g0l = strcspn(g0, "\"");
    cr_assert(asprintf(&doc, "%.*s%s%s", (int)(g0 - md), md, guid, g0 + g0l) > 0);
    run_md(&e, doc, strlen(doc), &x);
    /* the binary expects its own GUID (X09): instantiation fails, a finding */
    cr_expect(x.status == 1 || x.status == 2, "exit %d", x.status);
    cr_expect(x.rep, "report.json parses");
    xrun_free(&x);
    free(doc);
    free(guid);
    free(md);
    bi_env_fini(&e);
}

/* ---- X09: GUID and modelIdentifier do not match the binary ----------------------------------- */

#define X09_GUID "{12345678-9abc-def0-1234-56789abcdef0}"

/* Does the report's fmuLog hold a message of check id that contains needle (data the FMU got)? */
static int fmu_log_has(const cJSON *rep, const char *id, const char *needle)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(rep, "fmuLog"))
    {
        const char *c = cJSON_GetStringValue(cJSON_GetObjectItem(it, "check"));
        const char *m = cJSON_GetStringValue(cJSON_GetObjectItem(it, "message"));
        if (c && m && !strcmp(c, id) && strstr(m, needle))
            return 1;
    }
    return 0;
}

Test(badinput_xml, x09_guid_differs_from_the_binary, .timeout = 120)
{
    bi_env e;
    bi_env_init(&e, "x09g");
    char *md = good_md();
    const char *g0 = strstr(md, "guid=\"");
    cr_assert(g0);
    g0 += 6;
    size_t gl = strcspn(g0, "\"");
    char *doc = NULL;
    cr_assert(asprintf(&doc, "%.*s%s%s", (int)(g0 - md), md, X09_GUID, g0 + gl) > 0);
    xrun x;
    run_md(&e, doc, strlen(doc), &x);
    cr_expect_eq(x.status, 1, "exit %d\n%s", x.status, x.r.err);
    expect_check(&x, "api-instantiate", "fail");
    expect_check(&x, "md-guid-present", "pass");
    /* the dynamic checks after it cannot get an instance: not-applicable, never pass */
    expect_check(&x, "cs-nominal-run", "not-applicable");
    expect_check(&x, "me-nominal-run", "not-applicable");
    /* what the FMU logged about the GUID is in report.json (it names the GUID it was given) */
    cr_expect(fmu_log_has(x.rep, "api-instantiate", X09_GUID),
              "the FMU's log message about the GUID is not in report.json's fmuLog");
    xrun_free(&x);
    free(doc);
    free(md);
    bi_env_fini(&e);
}

/* needsExecutionTool="true" does not excuse a GUID mismatch: the FMU's own message names the
 * GUID, so api-instantiate fails instead of the run ending as "environment required". */
Test(badinput_xml, x09_guid_mismatch_is_not_hidden_by_needs_execution_tool, .timeout = 120)
{
    bi_env e;
    bi_env_init(&e, "x09t");
    char *md = good_md(), *doc = NULL, *tmp = NULL;
    const char *g0 = strstr(md, "guid=\"");
    cr_assert(g0);
    g0 += 6;
    size_t gl = strcspn(g0, "\"");
    cr_assert(asprintf(&tmp, "%.*s%s%s", (int)(g0 - md), md, X09_GUID, g0 + gl) > 0);
    /* needsExecutionTool="true" on both interfaces */
    const char *tags[] = {"<ModelExchange ", "<CoSimulation "};
    for (int k = 0; k < 2; k++) {
        const char *at = strstr(tmp, tags[k]);
        cr_assert(at, "%s", tags[k]);
        size_t pre = (size_t)(at - tmp) + strlen(tags[k]);
        cr_assert(asprintf(&doc, "%.*sneedsExecutionTool=\"true\" %s", (int)pre, tmp,
                           tmp + pre) > 0);
        free(tmp);
        tmp = doc;
    }
    xrun x;
    run_md(&e, doc, strlen(doc), &x);
    cr_expect_eq(x.status, 1, "exit %d (64 would be 'environment required')\n%s", x.status,
                 x.r.err);
    expect_check(&x, "api-instantiate", "fail");
    cr_expect(x.rep && !cJSON_GetObjectItem(x.rep, "environmentRequired"));
    xrun_free(&x);
    free(doc);
    free(md);
    bi_env_fini(&e);
}

Test(badinput_xml, x09_model_identifier_differs_from_the_exported_symbols, .timeout = 120)
{
    bi_env e;
    bi_env_init(&e, "x09m");
    /* the library exports SpringMassDamper_fmi2* instead of fmi2* (reference_fmus/broken/
     * load-exports--prefixed): the load check fails naming the missing functions */
    cJSON *rep = bi_check(&e, FMUC_FMU_DIR "/broken/load-exports--prefixed.fmu", NULL, 1, NULL);
    cr_assert(rep);
    cr_expect_str_eq(bi_verdict(rep, "load-exports"), "fail");
    cr_expect_str_eq(bi_verdict(rep, "api-instantiate"), "not-applicable");
    cr_expect_str_eq(bi_verdict(rep, "cs-nominal-run"), "not-applicable");
    const cJSON *c, *m;
    int named = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(rep, "checks"))
    {
        const char *id = cJSON_GetStringValue(cJSON_GetObjectItem(c, "id"));
        if (!id || strcmp(id, "load-exports"))
            continue;
        cJSON_ArrayForEach(m, cJSON_GetObjectItem(c, "messages"))
        {
            const char *s = cJSON_GetStringValue(m);
            named += s && (strstr(s, "fmi2Instantiate") || strstr(s, "fmi2DoStep") ||
                           strstr(s, "fmi2GetReal"));
        }
    }
    cr_expect_geq(named, 3, "load-exports names the missing functions");
    cJSON_Delete(rep);
    /* a modelIdentifier whose library is not in the archive: the archive check fails */
    char *md = good_md();
    char *doc = bi_replace(md, "modelIdentifier=\"SpringMassDamper\"", "modelIdentifier=\"Other\"");
    xrun x;
    run_md(&e, doc, strlen(doc), &x);
    cr_expect_eq(x.status, 1, "exit %d\n%s", x.status, x.r.err);
    expect_check(&x, "zip-binary-present", "fail");
    xrun_free(&x);
    free(doc);
    free(md);
    bi_env_fini(&e);
}

/* ---- X10: canBeInstantiatedOnlyOncePerProcess, needsExecutionTool, ME and CS ------------------ */

static const cJSON *check_of(const cJSON *rep, const char *id)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(rep, "checks"))
    {
        const char *cid = cJSON_GetStringValue(cJSON_GetObjectItem(c, "id"));
        if (cid && !strcmp(cid, id))
            return c;
    }
    return NULL;
}

static int count_verdict(const cJSON *rep, const char *verdict)
{
    int n = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(rep, "checks"))
    {
        const char *v = cJSON_GetStringValue(cJSON_GetObjectItem(c, "verdict"));
        n += v && !strcmp(v, verdict);
    }
    return n;
}

Test(badinput_xml, x10_once_per_process_fmu_is_never_instantiated_twice_in_one_process,
     .timeout = 180)
{
    bi_env e;
    bi_env_init(&e, "x10o");
    /* the binary raises SIGSEGV on a second fmi2Instantiate in one process and declares the flag
     * on both interfaces: every check must pass, none may end in error */
    cJSON *rep = bi_check(&e, FMUC_FMU_DIR "/hostile/once-per-process.fmu", NULL, 0, NULL);
    cr_assert(rep);
    cr_expect_eq(count_verdict(rep, "error"), 0, "a second instance in one process crashed it");
    cr_expect_eq(count_verdict(rep, "fail"), 0);
    const char *ids[] = {"api-instantiate", "api-guid", "api-instantiate-refuses", "api-bad-vr",
                         "api-illegal-calls", "cs-nominal-run", "me-nominal-run", "me-vs-cs",
                         "eq-determinism", "eq-serialize", "eq-serialize-corrupt"};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        cr_expect_str_eq(bi_verdict(rep, ids[i]), "pass", "%s", ids[i]);
    /* eq-determinism: "two instances in one process" is skipped, recorded per interface */
    const cJSON *ev = cJSON_GetObjectItem(check_of(rep, "eq-determinism"), "evidence");
    const char *ifs[] = {"ME", "CS"};
    for (int i = 0; i < 2; i++) {
        const cJSON *m = cJSON_GetObjectItem(ev, ifs[i]);
        const char *v = cJSON_GetStringValue(
            cJSON_GetObjectItem(m, "(3) two live instances stepped alternately"));
        cr_expect(v && strstr(v, "skipped"), "%s: the interleaved mode is not marked skipped",
                  ifs[i]);
    }
    cJSON_Delete(rep);
    /* the same binary without the flag: fmucheck instantiates twice per worker, so it crashes
     * (proves the fixture really detects a second instantiation) */
    bi_fmu f;
    bi_fmu_load(&f, FMUC_FMU_DIR "/hostile/once-per-process.fmu");
    const bi_entry *mde = bi_fmu_find(&f, "modelDescription.xml");
    char *md2 = bi_replace((const char *)mde->data, " canBeInstantiatedOnlyOncePerProcess=\"true\"",
                           "");
    char *md3 = bi_replace(md2, " canBeInstantiatedOnlyOncePerProcess=\"true\"", "");
    bi_fmu_set(&f, "modelDescription.xml", md3, strlen(md3));
    char p[700];
    bi_in(&e, "noflag.fmu", p, sizeof p);
    bi_fmu_write(&f, p);
    bi_fmu_free(&f);
    rep = bi_check(&e, p, NULL, 2, NULL);
    /* the first check that instantiates twice saw the crash in fmi2Instantiate: one error, the
     * later checks that instantiate are not applicable naming it (issue 16) */
    cr_expect_str_eq(bi_verdict(rep, "api-instantiate"), "error");
    cr_expect_str_eq(bi_verdict(rep, "api-guid"), "not-applicable");
    cJSON_Delete(rep);
    free(md2);
    free(md3);
    bi_env_fini(&e);
}

static void set_tool_env(void *arg)
{
    (void)arg;
    setenv("FMUC_FIXTURE_EXECUTION_TOOL", "1", 1);
}

Test(badinput_xml, x10_needs_execution_tool_without_the_tool_is_env_required, .timeout = 180)
{
    bi_env e;
    bi_env_init(&e, "x10t");
    const char *fmu = FMUC_FMU_DIR "/hostile/needs-execution-tool.fmu";
    fmuc_test_run r;
    cJSON *rep = bi_check(&e, fmu, NULL, 64, &r);
    cr_assert(rep, "a report is written");
    cr_expect_str_eq(bi_status(rep), "complete");
    cr_expect(strstr(r.err, "needsExecutionTool"), "stderr names the attribute: %s", r.err);
    const char *why = cJSON_GetStringValue(cJSON_GetObjectItem(rep, "environmentRequired"));
    cr_expect(why && strstr(why, "needsExecutionTool"), "environmentRequired names the attribute");
    cr_expect_str_eq(bi_verdict(rep, "api-instantiate"), "not-applicable");
    const cJSON *msgs = cJSON_GetObjectItem(check_of(rep, "api-instantiate"), "messages");
    const char *m0 = cJSON_GetStringValue(cJSON_GetArrayItem(msgs, 0));
    cr_expect(m0 && strstr(m0, "needsExecutionTool"), "the reason names the attribute");
    const char *dyn[] = {"api-guid", "cs-nominal-run", "me-nominal-run", "eq-determinism"};
    for (size_t i = 0; i < 4; i++)
        cr_expect_str_eq(bi_verdict(rep, dyn[i]), "not-applicable", "%s", dyn[i]);
    cr_expect_str_eq(bi_verdict(rep, "load-exports"), "pass", "loading needs no tool");
    cr_expect_eq(count_verdict(rep, "fail") + count_verdict(rep, "error"), 0);
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    /* the tool is there: the FMU really runs, so it is checked like any other */
    /* the tool's variable reaches FMU code only when named with --pass-env (issue 16: FMU code
     * sees none of the caller's environment by default) */
    bi_opts o = {.child_setup = set_tool_env};
    const char *pass[] = {"--pass-env", "FMUC_FIXTURE_EXECUTION_TOOL", NULL};
    cr_assert(bi_exec(&e, &r, &o, fmu, pass) == 0);
    cr_expect_eq(r.status, 0, "with the tool: exit %d\n%s", r.status, r.err);
    bi_expect_hygiene(&e, "with the tool");
    rep = bi_report(&e);
    cr_expect_str_eq(bi_verdict(rep, "api-instantiate"), "pass");
    cr_expect_str_eq(bi_verdict(rep, "cs-nominal-run"), "pass");
    cr_expect(!cJSON_GetObjectItem(rep, "environmentRequired"));
    cJSON_Delete(rep);
    fmuc_test_run_free(&r);
    bi_env_fini(&e);
}

Test(badinput_xml, x10_fmu_with_me_and_cs_is_exercised_in_both, .timeout = 120)
{
    bi_env e;
    bi_env_init(&e, "x10b");
    cJSON *rep = bi_check(&e, BI_GOOD_FMU, NULL, 0, NULL);
    cr_assert(rep);
    cr_expect_str_eq(bi_verdict(rep, "cs-nominal-run"), "pass");
    cr_expect_str_eq(bi_verdict(rep, "me-nominal-run"), "pass");
    cr_expect_str_eq(bi_verdict(rep, "me-vs-cs"), "pass");
    const char *per_iface[] = {"eq-determinism", "eq-serialize"};
    for (size_t i = 0; i < 2; i++) {
        const cJSON *ev = cJSON_GetObjectItem(check_of(rep, per_iface[i]), "evidence");
        cr_expect(cJSON_GetObjectItem(ev, "ME") && cJSON_GetObjectItem(ev, "CS"),
                  "%s ran on only one interface", per_iface[i]);
    }
    cJSON_Delete(rep);
    bi_env_fini(&e);
}
