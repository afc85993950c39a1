/* The HTML report: one self-contained page (inline CSS, a little inline JS, inline SVG plots; no
 * external resources). The verdict at a glance in the header, then the problems as cards (errors,
 * fails, warnings), then one compact table of passes and not-applicable checks. Readable without
 * JS: every check is shown; the JS only adds verdict filters and marks <body data-js="ready"> once
 * it ran. Every FMU-supplied string goes through fmuc_report__xml_escape (which also makes invalid
 * UTF-8 valid). Also home of the escaping and number helpers shared by the other reporters. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define EV_MAX_DEPTH 8
#define EV_MAX_SCALARS 64      /* scalar array elements shown inline */
#define EV_MAX_ITEMS 100       /* array elements / object members shown */
#define EV_MAX_STRING 4096     /* bytes of one evidence string shown */
#define MSG_MAX_BYTES 8192
#define PLOTS_PER_CHECK 16
#define LOG_MAX_ROWS 5000
#define LOG_MAX_COLS 12

/* ---- shared helpers ----------------------------------------------------------------------------- */

int32_t fmuc_report__utf8_decode(const unsigned char *s, size_t len, size_t *adv)
{
    *adv = 1;
    if (len == 0)
        return -1;
    unsigned c = s[0];
    if (c < 0x80)
        return (int32_t)c;
    size_t n;
    unsigned lo = 0x80, hi = 0xBF;
    uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        cp = c & 0x0F;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F; /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        cp = c & 0x07;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else {
        return -1;
    }
    if (len < n)
        return -1;
    for (size_t i = 1; i < n; i++) {
        unsigned b = s[i];
        if (i == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF))
            return -1;
        cp = (cp << 6) | (b & 0x3F);
    }
    *adv = n;
    return (int32_t)cp;
}

static int noncharacter(int32_t cp)
{
    return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE;
}

void fmuc_report__xml_escape(FILE *out, const char *s, size_t max_bytes, int mode)
{
    static const char repl[] = "\xEF\xBF\xBD";
    if (!s)
        return;
    const unsigned char *u = (const unsigned char *)s;
    size_t len = strlen(s), i = 0;
    int cut = 0;
    if (max_bytes && len > max_bytes) {
        len = max_bytes;
        cut = 1;
        /* do not split a character: back up over continuation bytes (at most 3) */
        for (int k = 0; k < 3 && len > 0 && (u[len] & 0xC0) == 0x80; k++)
            len--;
    }
    while (i < len) {
        size_t adv;
        int32_t cp = fmuc_report__utf8_decode(u + i, len - i, &adv);
        int bad = cp < 0 || (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') ||
                  (cp >= 0x7F && cp <= 0x9F) || noncharacter(cp);
        if (bad) {
            if (mode == FMUC_ESC_HTML || cp < 0)
                fputs(repl, out);
        } else {
            switch (cp) {
            case '&': fputs("&amp;", out); break;
            case '<': fputs("&lt;", out); break;
            case '>': fputs("&gt;", out); break;
            case '"': fputs("&quot;", out); break;
            case '\'': fputs("&#39;", out); break;
            default: fwrite(u + i, 1, adv, out); break;
            }
        }
        i += adv;
    }
    if (cut)
        fputs("\xE2\x80\xA6", out); /* … */
}

char *fmuc_report__num(char *buf, size_t bufsize, double v, int precision)
{
    if (isnan(v))
        snprintf(buf, bufsize, "NaN");
    else if (isinf(v))
        snprintf(buf, bufsize, v > 0 ? "inf" : "-inf");
    else {
        snprintf(buf, bufsize, "%.*g", precision, v);
        for (char *p = buf; *p; p++)
            if (*p == ',')
                *p = '.'; /* a decimal comma from LC_NUMERIC; %g never groups */
    }
    return buf;
}

/* ---- HTML ----------------------------------------------------------------------------------------- */

static void esc(FILE *f, const char *s)
{
    fmuc_report__xml_escape(f, s, 0, FMUC_ESC_HTML);
}

static void esc_or(FILE *f, const char *s, const char *dflt)
{
    if (s && *s)
        esc(f, s);
    else
        fprintf(f, "<span class=\"none\">%s</span>", dflt);
}

static const char *const verdict_label[5] = {"N/A", "PASS", "WARN", "FAIL", "ERROR"};
static const char *const verdict_class[5] = {"na", "pass", "warn", "fail", "error"};

static const char *vclass(fmuc_verdict v)
{
    return (unsigned)v < 5 ? verdict_class[v] : "error";
}

static const char *vlabel(fmuc_verdict v)
{
    return (unsigned)v < 5 ? verdict_label[v] : "?";
}

static void badge(FILE *f, fmuc_verdict v)
{
    fprintf(f, "<span class=\"badge v-%s\">%s</span>", vclass(v), vlabel(v));
}

static const char css[] =
    ":root{--pass:#1a7f37;--warn:#9a6700;--fail:#cf222e;--error:#8250df;--na:#6e7781;"
    "--bg:#fff;--fg:#1f2328;--mute:#59636e;--line:#d1d9e0;--card:#f6f8fa}\n"
    "*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;"
    "color:var(--fg);background:var(--bg);margin:0;padding:0 24px 48px;max-width:1200px}\n"
    "h1{font-size:22px;margin:20px 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid "
    "var(--line);padding-bottom:4px}h3{font-size:15px;margin:0 0 4px;font-weight:600}\n"
    "code,pre,.mono{font-family:ui-monospace,'SFMono-Regular',Menlo,Consolas,monospace;font-size:13px}\n"
    "table{border-collapse:collapse}th,td{text-align:left;vertical-align:top;padding:3px 8px;"
    "border:1px solid var(--line)}th{background:var(--card);font-weight:600}\n"
    "table.kv th{width:220px}.none{color:var(--mute);font-style:italic}\n"
    ".badge{display:inline-block;min-width:52px;text-align:center;padding:1px 6px;border-radius:4px;"
    "color:#fff;font-weight:700;font-size:12px;letter-spacing:.03em}\n"
    ".v-pass.badge{background:var(--pass)}.v-warn.badge{background:var(--warn)}"
    ".v-fail.badge{background:var(--fail)}.v-error.badge{background:var(--error)}"
    ".v-na.badge{background:var(--na)}\n"
    ".banner{padding:8px 12px;border-radius:6px;margin:8px 0;border:1px solid var(--fail);"
    "background:#ffebe9}\n"
    ".counts{display:flex;gap:10px;flex-wrap:wrap;margin:8px 0}.count{border:1px solid var(--line);"
    "border-radius:6px;padding:6px 12px;background:var(--card)}.count b{font-size:18px;"
    "margin-left:6px}\n"
    ".filters{margin:10px 0}.filters button{font:inherit;margin-right:6px;padding:3px 10px;"
    "border:1px solid var(--line);border-radius:14px;background:var(--bg);cursor:pointer}\n"
    ".filters button[aria-pressed=true]{background:var(--fg);color:var(--bg)}\n"
    "article.check{border:1px solid var(--line);border-left:6px solid var(--na);border-radius:6px;"
    "padding:8px 12px;margin:8px 0;background:var(--bg)}\n"
    ".check.v-pass{border-left-color:var(--pass)}.check.v-warn{border-left-color:var(--warn)}"
    ".check.v-fail{border-left-color:var(--fail)}.check.v-error{border-left-color:var(--error)}\n"
    ".check .meta{color:var(--mute);font-size:12px;margin:0 0 4px}.check ul.msgs{margin:4px 0;"
    "padding-left:20px}.check ul.msgs li{white-space:pre-wrap;overflow-wrap:anywhere}\n"
    "details>summary{cursor:pointer;color:var(--mute)}table.ev{margin:4px 0;font-size:13px}"
    "table.ev th{width:auto}ol.ev{margin:2px 0;padding-left:22px}.str{white-space:pre-wrap;"
    "overflow-wrap:anywhere}.num{font-family:ui-monospace,monospace}.lit{color:var(--mute)}\n"
    "figure.plot{margin:8px 0}svg.plot{width:100%;max-width:860px;height:auto;border:1px solid "
    "var(--line);border-radius:4px}.plotnote{color:var(--warn)}\n"
    "table.log{font-size:12px;width:100%}table.log td{overflow-wrap:anywhere}"
    "footer{margin-top:32px;color:var(--mute);font-size:12px}\n"
    ".glance .verdict{font-size:16px;margin:6px 0}ol.highlights{margin:4px 0 8px;padding-left:24px}"
    "ol.highlights li{overflow-wrap:anywhere;margin:2px 0}\n"
    ".check h3 a.self{color:inherit;text-decoration:none}.check h3 a.self:hover{text-decoration:"
    "underline}a:focus-visible,summary:focus-visible,button:focus-visible{outline:3px solid "
    "#0969da;outline-offset:2px}\n"
    ".check .why,.check .fix,.check .rerun{margin:4px 0}.check .rerun code{background:var(--card);"
    "padding:1px 4px;border-radius:3px;overflow-wrap:anywhere}\n"
    "table.compact{width:100%;font-size:13px}table.compact td{overflow-wrap:anywhere}"
    "table.compact .reason{color:var(--mute)}table.compact details.more{display:inline-block;"
    "margin-left:8px}table.compact details[open].more{display:block}\n"
    ".allpass{font-weight:600;color:var(--pass)}\n"
    "[hidden]{display:none!important}\n";

static const char js[] =
    "(function(){\n"
    "  var bar = document.getElementById('filters');\n"
    "  var cards = document.querySelectorAll('.check[data-verdict]');\n"
    "  var buttons = bar ? bar.querySelectorAll('button') : [];\n"
    "  function shows(f, v) {\n"
    "    if (f === 'all') return true;\n"
    "    if (f === 'problems') return v === 'fail' || v === 'error' || v === 'warn';\n"
    "    return f === v;\n"
    "  }\n"
    "  function apply(f) {\n"
    "    var shown = 0;\n"
    "    for (var i = 0; i < cards.length; i++) {\n"
    "      var on = shows(f, cards[i].getAttribute('data-verdict'));\n"
    "      cards[i].hidden = !on;\n"
    "      if (on) shown++;\n"
    "    }\n"
    "    for (var j = 0; j < buttons.length; j++)\n"
    "      buttons[j].setAttribute('aria-pressed', buttons[j].getAttribute('data-filter') === f ? "
    "'true' : 'false');\n"
    "    var c = document.getElementById('shown');\n"
    "    if (c) c.textContent = shown + ' of ' + cards.length + ' checks shown';\n"
    "  }\n"
    "  for (var k = 0; k < buttons.length; k++)\n"
    "    buttons[k].addEventListener('click', function () { apply(this.getAttribute('data-filter')); "
    "});\n"
    "  if (bar) bar.hidden = false;\n"
    "  var m = /(?:^#|&)filter=([a-z]+)/.exec(location.hash);\n"
    "  var f = 'all';\n"
    "  for (var b = 0; m && b < buttons.length; b++)\n"
    "    if (buttons[b].getAttribute('data-filter') === m[1]) f = m[1];\n"
    "  apply(f);\n"
    "  document.body.setAttribute('data-js', 'ready');\n"
    "})();\n";

static void kv_row(FILE *f, const char *key, const char *value)
{
    fprintf(f, "<tr><th>%s</th><td>", key);
    esc_or(f, value, "not given");
    fputs("</td></tr>\n", f);
}

static void caps_cell(FILE *f, const cJSON *caps)
{
    if (!cJSON_IsObject(caps) || !caps->child) {
        fputs("<span class=\"none\">no capability flags</span>", f);
        return;
    }
    fputs("<table class=\"ev\">", f);
    for (const cJSON *c = caps->child; c; c = c->next) {
        fputs("<tr><th>", f);
        esc(f, c->string);
        fputs("</th><td>", f);
        if (cJSON_IsBool(c))
            fputs(cJSON_IsTrue(c) ? "true" : "<span class=\"lit\">false</span>", f);
        else if (cJSON_IsNumber(c)) {
            char b[40];
            fputs(fmuc_report__num(b, sizeof b, c->valuedouble, 15), f);
        } else if (cJSON_IsString(c))
            esc(f, c->valuestring);
        fputs("</td></tr>", f);
    }
    fputs("</table>", f);
}

static const char *const causality_names[7] = {"parameter", "calculatedParameter", "input", "output",
                                               "local", "independent", "invalid"};

static void write_identity(FILE *f, const fmuc_report *r)
{
    const fmuc_report_identity *id = &r->fmu;
    char buf[64];
    fputs("<section id=\"identity\"><h2>FMU</h2>\n<table class=\"kv\">\n", f);
    kv_row(f, "File", id->file_name);
    kv_row(f, "Path", id->path);
    {
        char b[32];
        fmuc_report__bytes(b, sizeof b, id->file_size);
        if (id->file_size >= 1024)
            snprintf(buf, sizeof buf, "%s (%llu bytes)", b, (unsigned long long)id->file_size);
        else
            snprintf(buf, sizeof buf, "%s", b);
    }
    kv_row(f, "Size", buf);
    fputs("<tr><th>SHA-256</th><td class=\"mono\">", f);
    esc_or(f, id->sha256, "not computed");
    fputs("</td></tr>\n", f);
    kv_row(f, "FMI version", id->fmi_version);
    kv_row(f, "Model name", id->model_name);
    fputs("<tr><th>GUID</th><td class=\"mono\">", f);
    esc_or(f, id->guid, "not given");
    fputs("</td></tr>\n", f);
    kv_row(f, "Description", id->description);
    kv_row(f, "Author", id->author);
    kv_row(f, "Model version", id->version);
    kv_row(f, "Generation tool", id->generation_tool);
    kv_row(f, "Generation date and time", id->generation_date_and_time);
    kv_row(f, "Variable naming convention", id->variable_naming_convention);
    kv_row(f, "Platform (binaries)", id->platform);
    fputs("<tr><th>Interfaces</th><td>", f);
    if (!id->me_model_identifier && !id->cs_model_identifier && !id->se_model_identifier)
        fputs("<span class=\"none\">none declared</span>", f);
    if (id->me_model_identifier) {
        fputs("<p><b>Model Exchange</b>, modelIdentifier <code>", f);
        esc(f, id->me_model_identifier);
        fputs("</code></p>", f);
        caps_cell(f, id->me_caps);
    }
    if (id->cs_model_identifier) {
        fputs("<p><b>Co-Simulation</b>, modelIdentifier <code>", f);
        esc(f, id->cs_model_identifier);
        fputs("</code></p>", f);
        caps_cell(f, id->cs_caps);
    }
    if (id->se_model_identifier) {
        fputs("<p><b>Scheduled Execution</b>, modelIdentifier <code>", f);
        esc(f, id->se_model_identifier);
        fputs("</code></p>", f);
        caps_cell(f, id->se_caps);
    }
    fputs("</td></tr>\n<tr><th>Variables</th><td>", f);
    fprintf(f, "%zu in total, %zu continuous states, %u event indicators<br>", id->nvars, id->nstates,
            id->number_of_event_indicators);
    int first = 1;
    for (int i = 0; i < 7; i++) {
        if (!id->nvars_by_causality[i])
            continue;
        fprintf(f, "%s%s: %zu", first ? "" : ", ", causality_names[i], id->nvars_by_causality[i]);
        first = 0;
    }
    fputs("</td></tr>\n</table></section>\n", f);
}

/* At a glance, in the header: the verdict, the profile, the counts, the three most serious findings
 * in words (or one line saying that all is well), and what makes the report partial. */
static void write_glance(FILE *f, const fmuc_report *r)
{
    char d[40];
    fputs("<div id=\"glance\" class=\"glance\">\n", f);
    if (r->rejected) {
        fputs("<p class=\"banner\">The input was rejected: ", f);
        esc_or(f, r->rejected_reason, "no reason given");
        fputs(". Only the archive checks are meaningful.</p>\n", f);
    }
    if (r->unsupported)
        fputs("<p class=\"banner\">Unsupported FMI version: only FMI 2.0 is checked.</p>\n", f);
    if (r->incomplete)
        fputs("<p class=\"banner\">The run was interrupted: this report is incomplete.</p>\n", f);
    if (r->not_run)
        fprintf(f, "<p class=\"banner\">Time budget %.1f s: %zu check(s) not run (not applicable "
                   "below, marked &ldquo;not run&rdquo;, with the reason); <code>--time-budget=off</code> "
                   "runs every check.</p>\n",
                r->time_budget_s, r->not_run);
    const fmuc_result *top[FMUC_HIGHLIGHTS];
    size_t nprob = fmuc_report__problems(r, top, FMUC_HIGHLIGHTS);
    fputs("<p class=\"verdict\">", f);
    badge(f, r->overall);
    fprintf(f, " under profile <b>%s</b>: ", fmuc_profile_name(r->profile));
    if (nprob == 0 && r->counts[FMUC_VERDICT_PASS] && !r->rejected && !r->incomplete &&
        !r->not_run)
        fprintf(f, "all %zu applicable checks pass, %zu not applicable",
                r->counts[FMUC_VERDICT_PASS], r->counts[FMUC_VERDICT_NA]);
    else
        fprintf(f, "%zu error, %zu fail, %zu warn, %zu pass, %zu not applicable",
                r->counts[FMUC_VERDICT_ERROR], r->counts[FMUC_VERDICT_FAIL],
                r->counts[FMUC_VERDICT_WARN], r->counts[FMUC_VERDICT_PASS],
                r->counts[FMUC_VERDICT_NA]);
    fprintf(f, " &mdash; %zu checks in %s</p>\n", r->nresults,
            fmuc_report__duration(d, sizeof d, r->duration_s));
    if (nprob) {
        fputs("<ol class=\"highlights\">", f);
        for (size_t i = 0; i < nprob && i < FMUC_HIGHLIGHTS; i++) {
            char hl[FMUC_HIGHLIGHT_MAX];
            fmuc_report__highlight(top[i], hl, sizeof hl);
            fputs("<li><a href=\"#check-", f);
            esc(f, top[i]->id);
            fputs("\">", f);
            badge(f, top[i]->verdict);
            fputs("</a> ", f);
            esc(f, hl);
            fputs("</li>", f);
        }
        fputs("</ol>\n", f);
    }
    fputs("</div>\n", f);
}

static void write_summary(FILE *f, const fmuc_report *r)
{
    fputs("<section id=\"summary\"><h2>Verdict per profile</h2>\n", f);
    fputs("<p>Overall verdict: ", f);
    badge(f, r->overall);
    char d[40];
    fprintf(f, " &mdash; %zu checks in %s</p>\n", r->nresults,
            fmuc_report__duration(d, sizeof d, r->duration_s));
    fprintf(f, "<p>Profile <b>%s</b> (", fmuc_profile_name(r->profile));
    for (int p = 0, k = 0; p < FMUC_PROFILE_COUNT; p++)
        if (p != (int)r->profile) {
            fprintf(f, "%s%s: ", k++ ? ", " : "", fmuc_profile_name((fmuc_profile)p));
            badge(f, fmuc_report_overall_under(r, (fmuc_profile)p));
        }
    fputs(")</p>\n<div class=\"counts\">", f);
    static const fmuc_verdict order[5] = {FMUC_VERDICT_ERROR, FMUC_VERDICT_FAIL, FMUC_VERDICT_WARN,
                                          FMUC_VERDICT_PASS, FMUC_VERDICT_NA};
    for (int i = 0; i < 5; i++) {
        fputs("<div class=\"count\">", f);
        badge(f, order[i]);
        fprintf(f, "<b class=\"n-%s\">%zu</b></div>", vclass(order[i]), r->counts[order[i]]);
    }
    fputs("</div>\n</section>\n", f);
}

static int is_scalar(const cJSON *c)
{
    return !cJSON_IsArray(c) && !cJSON_IsObject(c);
}

static void ev_scalar(FILE *f, const cJSON *c)
{
    char b[40];
    if (cJSON_IsNull(c) || !c)
        fputs("<span class=\"lit\">null</span>", f);
    else if (cJSON_IsBool(c))
        fprintf(f, "<span class=\"lit\">%s</span>", cJSON_IsTrue(c) ? "true" : "false");
    else if (cJSON_IsNumber(c))
        fprintf(f, "<span class=\"num\">%s</span>", fmuc_report__num(b, sizeof b, c->valuedouble, 15));
    else if (cJSON_IsString(c) || cJSON_IsRaw(c)) {
        fputs("<span class=\"str\">", f);
        fmuc_report__xml_escape(f, c->valuestring, EV_MAX_STRING, FMUC_ESC_HTML);
        fputs("</span>", f);
    } else
        fputs("<span class=\"lit\">?</span>", f);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t l = strlen(s), k = strlen(suffix);
    return l > k && strcmp(s + l - k, suffix) == 0;
}

/* An evidence number whose key names its unit (duration_s, durationSeconds, live_bytes,
 * addressSpaceBytes) is shown for people ("2 ms", "1.5 MiB"), the exact value in its title.
 * Returns 0 when the key names no unit. */
static int ev_number_with_unit(FILE *f, const char *key, const cJSON *c)
{
    char b[48], exact[40];
    if (!key || !cJSON_IsNumber(c) || !isfinite(c->valuedouble) || c->valuedouble < 0)
        return 0;
    double v = c->valuedouble;
    if (ends_with(key, "_s") || ends_with(key, "Seconds") || ends_with(key, "_seconds"))
        fmuc_report__duration(b, sizeof b, v);
    else if ((ends_with(key, "_bytes") || ends_with(key, "Bytes")) && v >= 1024 && v < 1.8e19 &&
             v == floor(v))
        fmuc_report__bytes(b, sizeof b, (uint64_t)v);
    else
        return 0;
    fprintf(f, "<span class=\"num\" title=\"%s\">%s</span>",
            fmuc_report__num(exact, sizeof exact, v, 15), b);
    return 1;
}

static void ev_value(FILE *f, const cJSON *c, int depth, int skip_plots)
{
    if (depth > EV_MAX_DEPTH) {
        fputs("<span class=\"lit\">&hellip; (nested too deeply)</span>", f);
        return;
    }
    if (cJSON_IsArray(c)) {
        size_t n = 0;
        int scalars = 1;
        for (const cJSON *e = c->child; e; e = e->next) {
            n++;
            if (!is_scalar(e))
                scalars = 0;
        }
        if (n == 0) {
            fputs("<span class=\"lit\">[]</span>", f);
        } else if (scalars) {
            fputs("<span class=\"arr\">[", f);
            size_t i = 0;
            for (const cJSON *e = c->child; e && i < EV_MAX_SCALARS; e = e->next, i++) {
                if (i)
                    fputs(", ", f);
                ev_scalar(f, e);
            }
            if (n > EV_MAX_SCALARS)
                fprintf(f, ", <span class=\"lit\">&hellip; %zu more</span>", n - EV_MAX_SCALARS);
            fputs("]</span>", f);
        } else {
            fputs("<ol class=\"ev\" start=\"0\">", f);
            size_t i = 0;
            for (const cJSON *e = c->child; e && i < EV_MAX_ITEMS; e = e->next, i++) {
                fputs("<li>", f);
                ev_value(f, e, depth + 1, 0);
                fputs("</li>", f);
            }
            fputs("</ol>", f);
            if (n > EV_MAX_ITEMS)
                fprintf(f, "<span class=\"lit\">&hellip; %zu more elements</span>", n - EV_MAX_ITEMS);
        }
    } else if (cJSON_IsObject(c)) {
        if (!c->child) {
            fputs("<span class=\"lit\">{}</span>", f);
            return;
        }
        fputs("<table class=\"ev\">", f);
        size_t i = 0, n = 0;
        for (const cJSON *e = c->child; e; e = e->next) {
            if (skip_plots && e->string && strcmp(e->string, "plots") == 0 && cJSON_IsArray(e))
                continue;
            n++;
            if (i >= EV_MAX_ITEMS)
                continue;
            i++;
            fputs("<tr><th>", f);
            fmuc_report__xml_escape(f, e->string, 256, FMUC_ESC_HTML);
            fputs("</th><td>", f);
            if (!ev_number_with_unit(f, e->string, e))
                ev_value(f, e, depth + 1, 0);
            fputs("</td></tr>", f);
        }
        if (n > EV_MAX_ITEMS)
            fprintf(f, "<tr><td colspan=\"2\" class=\"lit\">&hellip; %zu more members</td></tr>",
                    n - EV_MAX_ITEMS);
        fputs("</table>", f);
    } else {
        ev_scalar(f, c);
    }
}

static int evidence_has_table(const cJSON *ev)
{
    if (!cJSON_IsObject(ev))
        return ev != NULL;
    for (const cJSON *e = ev->child; e; e = e->next)
        if (!(e->string && strcmp(e->string, "plots") == 0 && cJSON_IsArray(e)))
            return 1;
    return 0;
}

static void write_plots(FILE *f, const cJSON *plots, size_t ri)
{
    size_t pi = 0;
    for (const cJSON *p = plots->child; p; p = p->next, pi++) {
        if (pi == PLOTS_PER_CHECK) {
            fprintf(f, "<p class=\"plotnote\">Further plots not drawn (limit %d per check).</p>",
                    PLOTS_PER_CHECK);
            break;
        }
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(p, "title");
        const char *title = cJSON_IsString(t) ? t->valuestring : NULL;
        char prefix[48], why[256];
        char *svg = NULL;
        snprintf(prefix, sizeof prefix, "p%zu-%zu-", ri, pi);
        if (fmuc_plot__svg(p, prefix, &svg, why, sizeof why) == FMUC_OK) {
            fputs("<figure class=\"plot\">", f);
            fputs(svg, f);
            if (title) {
                fputs("<figcaption>", f);
                esc(f, title);
                fputs("</figcaption>", f);
            }
            fputs("</figure>\n", f);
        } else {
            fputs("<p class=\"plotnote\">Plot", f);
            if (title) {
                fputs(" &ldquo;", f);
                esc(f, title);
                fputs("&rdquo;", f);
            }
            fputs(" not drawn: ", f);
            esc(f, why);
            fputs("</p>\n", f);
        }
        free(svg);
    }
}

/* level, spec, duration, profiles, interop reason, waiver */
static void write_meta(FILE *f, const fmuc_result *res, int with_id)
{
    char d[40];
    fputs("<p class=\"meta\">", f);
    if (with_id) {
        fputs("<code class=\"cid\">", f);
        esc_or(f, res->id, "unnamed");
        fputs("</code> &middot; ", f);
    }
    fputs("level ", f);
    esc(f, fmuc_level_name(res->level));
    fputs(" &middot; spec ", f);
    esc_or(f, res->spec, "none");
    fprintf(f, " &middot; took %s", fmuc_report__duration(d, sizeof d, res->duration_s));
    if (res->has_profiles && (res->verdicts[FMUC_PROFILE_INTEROP] !=
                                  res->verdicts[FMUC_PROFILE_STANDARD] ||
                              res->verdicts[FMUC_PROFILE_STANDARD] !=
                                  res->verdicts[FMUC_PROFILE_STRICT])) {
        fputs(" &middot; profiles:", f);
        for (int p = 0; p < FMUC_PROFILE_COUNT; p++)
            fprintf(f, " %s %s", fmuc_profile_name((fmuc_profile)p),
                    fmuc_verdict_name(res->verdicts[p]));
    }
    if (res->interop_why) {
        fputs(" &middot; interop: ", f);
        esc(f, res->interop_why);
    }
    if (res->waiver) {
        fputs(" &middot; <b>waived</b>: ", f);
        esc(f, res->waiver);
    }
    fputs("</p>\n", f);
}

static void write_messages(FILE *f, const fmuc_result *res)
{
    if (!res->nmessages && !res->messages_dropped)
        return;
    fputs("<ul class=\"msgs\">", f);
    for (size_t i = 0; i < res->nmessages && i < FMUC_RESULT_MAX_MESSAGES; i++) {
        fputs("<li>", f);
        fmuc_report__xml_escape(f, res->messages[i], MSG_MAX_BYTES, FMUC_ESC_HTML);
        fputs("</li>", f);
    }
    if (res->messages_dropped)
        fprintf(f, "<li class=\"lit\">&hellip; %zu further messages not kept</li>",
                res->messages_dropped);
    fputs("</ul>\n", f);
}

static void write_evidence(FILE *f, const fmuc_result *res, size_t ri, int open)
{
    if (evidence_has_table(res->evidence)) {
        fprintf(f, "<details class=\"evidence\"%s><summary>Evidence</summary>", open ? " open" : "");
        ev_value(f, res->evidence, 0, 1);
        fputs("</details>\n", f);
    }
    const cJSON *plots = cJSON_GetObjectItemCaseSensitive(res->evidence, "plots");
    if (cJSON_IsArray(plots) && plots->child) {
        fputs("<div class=\"plots\">", f);
        write_plots(f, plots, ri);
        fputs("</div>\n", f);
    }
}

/* A problem as a card: what failed, where, why it matters, how to fix it, how to see it again. */
static void write_card(FILE *f, const fmuc_report *r, const fmuc_result *res, size_t ri)
{
    const char *vc = vclass(res->verdict);
    fprintf(f, "<article class=\"check card v-%s\" id=\"check-", vc);
    esc(f, res->id);
    fprintf(f, "\" data-verdict=\"%s\">\n<h3><a class=\"self\" href=\"#check-", vc);
    esc(f, res->id);
    fputs("\">", f);
    badge(f, res->verdict);
    fputs(" ", f);
    esc_or(f, res->title, "untitled check");
    fputs("</a></h3>\n", f);
    write_meta(f, res, 1);
    write_messages(f, res);
    if (res->why && *res->why) {
        fputs("<p class=\"why\"><b>Why it matters:</b> ", f);
        esc(f, res->why);
        fputs("</p>\n", f);
    }
    if (res->fix && *res->fix) {
        fputs("<p class=\"fix\"><b>How to fix:</b> ", f);
        esc(f, res->fix);
        fputs("</p>\n", f);
    }
    char cmd[2048];
    fmuc_report__rerun_command(r, res, cmd, sizeof cmd);
    fputs("<p class=\"rerun\"><b>Re-run this check:</b> <code>", f);
    esc(f, cmd);
    fputs("</code></p>\n", f);
    write_evidence(f, res, ri,
                   res->verdict == FMUC_VERDICT_FAIL || res->verdict == FMUC_VERDICT_ERROR);
    fputs("</article>\n", f);
}

/* A pass or not-applicable check as one row of the compact table; its details fold away. */
static void write_row(FILE *f, const fmuc_result *res, size_t ri)
{
    const char *vc = vclass(res->verdict);
    fprintf(f, "<tr class=\"check v-%s\" id=\"check-", vc);
    esc(f, res->id);
    fprintf(f, "\" data-verdict=\"%s\"><td><code class=\"cid\">", vc);
    esc_or(f, res->id, "unnamed");
    fputs("</code></td><td>", f);
    if (res->not_run) /* the time budget left it out: no verdict, not "not applicable" */
        fputs("<span class=\"badge v-na\">not run</span>", f);
    else
        badge(f, res->verdict);
    fputs("</td><td>", f);
    esc_or(f, res->title, "untitled check");
    if (res->verdict == FMUC_VERDICT_NA && res->nmessages) {
        fputs(res->not_run ? " <span class=\"reason\">&mdash; "
                           : " <span class=\"reason\">&mdash; not applicable: ", f);
        fmuc_report__xml_escape(f, res->messages[0], MSG_MAX_BYTES, FMUC_ESC_HTML);
        fputs("</span>", f);
    }
    fputs("<details class=\"more\"><summary>details</summary>", f);
    write_meta(f, res, 0);
    write_messages(f, res);
    write_evidence(f, res, ri, 0);
    fputs("</details></td></tr>\n", f);
}

static void write_checks(FILE *f, const fmuc_report *r)
{
    size_t nprob = r->counts[FMUC_VERDICT_FAIL] + r->counts[FMUC_VERDICT_ERROR] +
                   r->counts[FMUC_VERDICT_WARN];
    fputs("<section id=\"checks\">\n", f);
    /* hidden until the script runs: without JS the page simply shows every check */
    fputs("<div id=\"filters\" class=\"filters\" hidden>Show: ", f);
    fprintf(f, "<button type=\"button\" data-filter=\"all\">all (%zu)</button>", r->nresults);
    fprintf(f, "<button type=\"button\" data-filter=\"problems\">problems (%zu)</button>", nprob);
    static const fmuc_verdict order[5] = {FMUC_VERDICT_ERROR, FMUC_VERDICT_FAIL, FMUC_VERDICT_WARN,
                                          FMUC_VERDICT_PASS, FMUC_VERDICT_NA};
    for (int i = 0; i < 5; i++)
        fprintf(f, "<button type=\"button\" data-filter=\"%s\">%s (%zu)</button>", vclass(order[i]),
                fmuc_verdict_name(order[i]), r->counts[order[i]]);
    fputs(" <span id=\"shown\"></span></div>\n", f);

    fprintf(f, "<section id=\"problems\"><h2>Problems (%zu)</h2>\n", nprob);
    const fmuc_result **all = NULL;
    if (nprob)
        all = malloc(nprob * sizeof *all);
    size_t n = all ? fmuc_report__problems(r, all, nprob) : 0;
    if (n > nprob)
        n = nprob;
    if (!r->nresults)
        fputs("<p class=\"none\">No checks ran.</p>\n", f);
    else if (!nprob && r->not_run)
        fprintf(f, "<p class=\"allpass\">No problem found in the checks that ran; %zu check(s) "
                   "were not run (time budget).</p>\n", r->not_run);
    else if (!nprob)
        fputs("<p class=\"allpass\">No problem found: every applicable check passes.</p>\n", f);
    for (size_t i = 0; i < n; i++)
        write_card(f, r, all[i], (size_t)(all[i] - r->results));
    free(all);
    fputs("</section>\n", f);

    size_t nrest = r->counts[FMUC_VERDICT_PASS] + r->counts[FMUC_VERDICT_NA];
    fprintf(f, "<section id=\"passed\"><h2>Passed and not applicable (%zu)</h2>\n", nrest);
    if (nrest) {
        fputs("<table class=\"compact\"><thead><tr><th>check</th><th>verdict</th><th>title</th>"
              "</tr></thead><tbody>\n",
              f);
        for (int k = 0; k < 2; k++)
            for (size_t i = 0; i < r->nresults; i++)
                if (r->results[i].verdict == (k ? FMUC_VERDICT_NA : FMUC_VERDICT_PASS))
                    write_row(f, &r->results[i], i);
        fputs("</tbody></table>\n", f);
    }
    fputs("</section>\n</section>\n", f);
}

static const char *const log_preferred[] = {"check", "instance", "status", "category", "message"};

static void write_log(FILE *f, const fmuc_report *r)
{
    const cJSON *log = r->fmu_log;
    fputs("<section id=\"fmu-log\"><h2>FMU log messages</h2>\n", f);
    size_t n = 0;
    if (cJSON_IsArray(log))
        for (const cJSON *e = log->child; e; e = e->next)
            n++;
    if (n == 0) {
        fputs("<p class=\"none\">The FMU logged no messages.</p>\n</section>\n", f);
        return;
    }
    /* columns: the preferred keys first, then any other key seen (in order of appearance) */
    const char *cols[LOG_MAX_COLS];
    size_t ncols = 0, scanned = 0;
    for (size_t k = 0; k < sizeof log_preferred / sizeof log_preferred[0]; k++) {
        for (const cJSON *e = log->child; e && scanned < LOG_MAX_ROWS; e = e->next, scanned++)
            if (cJSON_GetObjectItemCaseSensitive(e, log_preferred[k])) {
                cols[ncols++] = log_preferred[k];
                break;
            }
        scanned = 0;
    }
    size_t row = 0;
    for (const cJSON *e = log->child; e && row < LOG_MAX_ROWS; e = e->next, row++) {
        if (!cJSON_IsObject(e))
            continue;
        for (const cJSON *m = e->child; m && ncols < LOG_MAX_COLS; m = m->next) {
            int have = 0;
            for (size_t c = 0; c < ncols && !have; c++)
                have = m->string && strcmp(cols[c], m->string) == 0;
            if (!have && m->string)
                cols[ncols++] = m->string;
        }
    }
    if (ncols == 0)
        cols[ncols++] = "message";
    fputs("<table class=\"log\"><thead><tr><th>#</th>", f);
    for (size_t c = 0; c < ncols; c++) {
        fputs("<th>", f);
        fmuc_report__xml_escape(f, cols[c], 64, FMUC_ESC_HTML);
        fputs("</th>", f);
    }
    fputs("</tr></thead><tbody>\n", f);
    row = 0;
    for (const cJSON *e = log->child; e && row < LOG_MAX_ROWS; e = e->next, row++) {
        fprintf(f, "<tr><td>%zu</td>", row + 1);
        for (size_t c = 0; c < ncols; c++) {
            fputs("<td>", f);
            if (cJSON_IsObject(e)) {
                const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, cols[c]);
                if (v)
                    ev_value(f, v, EV_MAX_DEPTH - 1, 0);
            } else if (c == 0) {
                ev_value(f, e, EV_MAX_DEPTH - 1, 0);
            }
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
    if (n > LOG_MAX_ROWS)
        fprintf(f, "<p class=\"lit\">&hellip; %zu further log messages (see the JSON report)</p>\n",
                n - LOG_MAX_ROWS);
    fputs("</section>\n", f);
}

static void write_footer(FILE *f, const fmuc_report *r)
{
    fputs("<footer><p>fmucheck ", f);
    esc_or(f, r->tool_version, "(version unknown)");
    fprintf(f, " &middot; report schema %d &middot; libzip ", r->schema_version);
    esc_or(f, r->libzip_version, "?");
    fputs(" &middot; libxml2 ", f);
    esc_or(f, r->libxml2_version, "?");
    fputs(" &middot; host ", f);
    esc_or(f, r->host_platform, "?");
    fputs(" &middot; ", f);
    esc_or(f, r->date_utc, "date unknown");
    fputs("</p>\n", f);
    {
        char iso[512];
        fmuc_report__isolation_line(r, iso, sizeof iso);
        if (iso[0]) {
            fputs("<p class=\"isolation\">Worker isolation ", f);
            esc(f, iso);
            fputs("</p>\n", f);
        }
    }
    if (r->options_json && *r->options_json) {
        fputs("<details><summary>Options</summary><pre>", f);
        esc(f, r->options_json);
        fputs("</pre></details>\n", f);
    }
    fputs("</footer>\n", f);
}

fmuc_err fmuc_report_html_write(FILE *out, const fmuc_report *r)
{
    if (!out || !r)
        return FMUC_ERROR;
    const char *name = r->fmu.file_name && *r->fmu.file_name ? r->fmu.file_name : "FMU";
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta name=\"generator\" content=\"fmucheck\">\n<title>fmucheck: ",
          out);
    esc(out, name);
    fprintf(out, " &mdash; %s</title>\n<style>\n%s</style>\n</head>\n", vlabel(r->overall), css);
    fprintf(out, "<body data-overall=\"%s\">\n<header><h1>fmucheck report: ", vclass(r->overall));
    esc(out, name);
    fputs("</h1>\n", out);
    write_glance(out, r);
    fputs("</header>\n<main>\n", out);
    write_checks(out, r);
    write_summary(out, r);
    write_identity(out, r);
    write_log(out, r);
    fputs("</main>\n", out);
    write_footer(out, r);
    fprintf(out, "<script>\n%s</script>\n</body>\n</html>\n", js);
    return ferror(out) ? FMUC_EIO : FMUC_OK;
}
