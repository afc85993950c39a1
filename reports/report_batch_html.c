/* The batch index page: one self-contained HTML page (inline CSS and script, no external resource)
 * made only from the batch results data (index.json, schema "fmucheck-index"). A matrix FMUs x
 * check areas: each cell the worst verdict of that area as a symbol and a word on a colour (colour
 * is never the only signal), sortable by every column with the header buttons (keyboard: Tab,
 * Enter), each FMU's highlights and a link to its report; with a baseline, the new, fixed and
 * unchanged problems of each FMU. Also fmuc_report_batch_entry, which extracts from one FMU's
 * report.json what the index keeps of it. Every string goes through fmuc_report__xml_escape. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

const char *const fmuc_report_batch_areas[FMUC_BATCH_NAREAS] = {"zip", "md", "load", "api",
                                                                 "cs",  "me", "eq"};

/* verdict names of report.json, by rank (higher = worse) */
static const char *const vnames[5] = {"not-applicable", "pass", "warn", "fail", "error"};
static const char *const vlabels[5] = {"N/A", "PASS", "WARN", "FAIL", "ERROR"};
static const char *const vclasses[5] = {"na", "pass", "warn", "fail", "error"};
/* a symbol besides the word: the verdict is readable without colour, even in a narrow cell */
static const char *const vsymbols[5] = {"\xE2\x80\x93", "\xE2\x9C\x93", "!", "\xE2\x9C\x97",
                                        "\xE2\x9C\x96"}; /* – ✓ ! ✗ ✖ */

static int vrank(const char *v)
{
    for (int i = 0; v && i < 5; i++)
        if (strcmp(v, vnames[i]) == 0)
            return i;
    return -1;
}

static const char *area_of(const char *id, char *buf, size_t n)
{
    size_t k = strcspn(id, "-");
    if (k >= n)
        k = n - 1;
    memcpy(buf, id, k);
    buf[k] = '\0';
    return buf;
}

static cJSON *id_list(const cJSON *arr)
{
    cJSON *out = cJSON_CreateArray();
    const cJSON *it;
    cJSON_ArrayForEach(it, arr)
    {
        const char *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "id"));
        if (id)
            cJSON_AddItemToArray(out, cJSON_CreateString(id));
    }
    return out;
}

void fmuc_report_batch_entry(cJSON *entry, const cJSON *rep)
{
    if (!entry || !rep)
        return;
    int worst[FMUC_BATCH_NAREAS];
    for (size_t a = 0; a < FMUC_BATCH_NAREAS; a++)
        worst[a] = -1;
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(rep, "checks"))
    {
        const char *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "id"));
        int r = vrank(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "verdict")));
        char area[16];
        if (!id || r < 0)
            continue;
        area_of(id, area, sizeof area);
        for (size_t a = 0; a < FMUC_BATCH_NAREAS; a++)
            if (strcmp(area, fmuc_report_batch_areas[a]) == 0 && r > worst[a])
                worst[a] = r;
    }
    cJSON *areas = cJSON_AddObjectToObject(entry, "areas");
    for (size_t a = 0; a < FMUC_BATCH_NAREAS; a++)
        if (worst[a] >= 0)
            cJSON_AddStringToObject(areas, fmuc_report_batch_areas[a], vnames[worst[a]]);
    const cJSON *hl = cJSON_GetObjectItemCaseSensitive(rep, "highlights");
    cJSON_AddItemToObject(entry, "highlights",
                          cJSON_IsArray(hl) ? cJSON_Duplicate(hl, 1) : cJSON_CreateArray());
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(rep, "baseline");
    if (cJSON_IsObject(b)) {
        cJSON *o = cJSON_AddObjectToObject(entry, "baseline");
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(b, "path");
        cJSON_AddItemToObject(o, "path", cJSON_IsString(p) ? cJSON_Duplicate(p, 0)
                                                           : cJSON_CreateNull());
        cJSON_AddItemToObject(o, "new", id_list(cJSON_GetObjectItemCaseSensitive(b, "newFailures")));
        cJSON_AddItemToObject(o, "fixed", id_list(cJSON_GetObjectItemCaseSensitive(b, "fixed")));
        cJSON_AddItemToObject(o, "unchanged",
                              id_list(cJSON_GetObjectItemCaseSensitive(b, "unchangedFailures")));
    }
}

/* ---- the page ------------------------------------------------------------------------------ */

static void esc(FILE *f, const char *s)
{
    fmuc_report__xml_escape(f, s, 0, FMUC_ESC_HTML);
}

static const char *str(const cJSON *o, const char *key)
{
    return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

static int num(const cJSON *o, const char *key, int dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valueint : dflt;
}

static const char css[] =
    ":root{--pass:#1a7f37;--warn:#9a6700;--fail:#cf222e;--error:#8250df;--na:#6e7781;"
    "--fg:#1f2328;--mute:#59636e;--line:#d1d9e0;--card:#f6f8fa}\n"
    "*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;"
    "color:var(--fg);margin:0;padding:0 24px 48px}\n"
    "h1{font-size:22px;margin:20px 0 4px}h2{font-size:18px;margin:28px 0 8px}\n"
    "table{border-collapse:collapse}th,td{text-align:left;vertical-align:top;padding:3px 8px;"
    "border:1px solid var(--line)}th{background:var(--card);font-weight:600}\n"
    "th button{font:inherit;font-weight:600;white-space:nowrap;border:0;background:none;padding:0;cursor:pointer;"
    "color:inherit}th button::after{content:' \\2195';color:var(--mute)}"
    "th[aria-sort=ascending] button::after{content:' \\2191';color:var(--fg)}"
    "th[aria-sort=descending] button::after{content:' \\2193';color:var(--fg)}\n"
    "button:focus-visible,a:focus-visible{outline:3px solid #0969da;outline-offset:2px}\n"
    "td.v{white-space:nowrap;font-weight:700;font-size:12px;color:#fff;text-align:center}"
    "td.v-pass{background:var(--pass)}td.v-warn{background:var(--warn)}"
    "td.v-fail{background:var(--fail)}td.v-error{background:var(--error)}"
    "td.v-na{background:var(--na)}td.v-none{color:var(--mute);background:none;font-weight:400}\n"
    "ol.hl{margin:0;padding-left:18px;font-size:13px}ol.hl li{overflow-wrap:anywhere}"
    ".status{color:var(--mute);font-size:12px}.ids{font-size:12px;overflow-wrap:anywhere}"
    ".legend span{margin-right:12px}.none{color:var(--mute);font-style:italic}\n"
    "[hidden]{display:none!important}\n";

/* Sorting: every header has a button; the first press sorts ascending (verdict and count columns:
 * worst or largest first), the next reverses. Cells carry their key in data-sort; ties keep the
 * batch order (data-pos). */
static const char js[] =
    "(function(){\n"
    "  var t = document.getElementById('matrix');\n"
    "  if (!t) { document.body.setAttribute('data-js', 'ready'); return; }\n"
    "  var body = t.tBodies[0], heads = t.tHead.rows[0].cells;\n"
    "  var live = document.getElementById('sorted');\n"
    "  function key(row, c, numeric) {\n"
    "    var td = row.cells[c], k = td.getAttribute('data-sort');\n"
    "    if (k === null) k = td.textContent;\n"
    "    return numeric ? parseFloat(k) : k.toLowerCase();\n"
    "  }\n"
    "  function sortBy(c, dir) {\n"
    "    var numeric = heads[c].getAttribute('data-type') === 'num';\n"
    "    var rows = Array.prototype.slice.call(body.rows);\n"
    "    rows.sort(function (a, b) {\n"
    "      var x = key(a, c, numeric), y = key(b, c, numeric);\n"
    "      var r = x < y ? -1 : x > y ? 1 : 0;\n"
    "      if (r === 0) return +a.getAttribute('data-pos') - +b.getAttribute('data-pos');\n"
    "      return dir === 'ascending' ? r : -r;\n"
    "    });\n"
    "    for (var i = 0; i < rows.length; i++) body.appendChild(rows[i]);\n"
    "    for (var h = 0; h < heads.length; h++)\n"
    "      if (heads[h].querySelector('button')) heads[h].setAttribute('aria-sort', h === c ? dir : "
    "'none');\n"
    "    if (live) live.textContent = 'sorted by ' + heads[c].textContent + ', ' + dir;\n"
    "  }\n"
    "  for (var c = 0; c < heads.length; c++) {\n"
    "    var b = heads[c].querySelector('button');\n"
    "    if (!b) continue;\n"
    "    b.addEventListener('click', (function (col) { return function () {\n"
    "      var now = heads[col].getAttribute('aria-sort');\n"
    "      var first = heads[col].getAttribute('data-first') || 'ascending';\n"
    "      var dir = now === first ? (first === 'ascending' ? 'descending' : 'ascending') : first;\n"
    "      sortBy(col, dir);\n"
    "    }; })(c));\n"
    "  }\n"
    "  document.body.setAttribute('data-js', 'ready');\n"
    "})();\n";

static void head_cell(FILE *f, const char *label, const char *type, const char *first,
                      const char *title)
{
    fprintf(f, "<th scope=\"col\" aria-sort=\"none\" data-type=\"%s\"", type);
    if (first)
        fprintf(f, " data-first=\"%s\"", first);
    fputs("><button type=\"button\"", f);
    if (title) {
        fputs(" title=\"", f);
        esc(f, title);
        fputs("\"", f);
    }
    fputs(">", f);
    esc(f, label);
    fputs("</button></th>", f);
}

static void verdict_cell(FILE *f, const char *v, const char *what)
{
    int r = vrank(v);
    if (r < 0) {
        fprintf(f, "<td class=\"v v-none\" data-sort=\"-1\" title=\"%s: not run\">&mdash;</td>",
                what);
        return;
    }
    fprintf(f,
            "<td class=\"v v-%s\" data-sort=\"%d\" title=\"%s: %s\"><span aria-hidden=\"true\">%s"
            "</span> %s</td>",
            vclasses[r], r, what, vnames[r], vsymbols[r], vlabels[r]);
}

static void ids_cell(FILE *f, const cJSON *ids)
{
    int n = cJSON_GetArraySize(ids);
    fprintf(f, "<td data-sort=\"%d\"><b>%d</b>", n, n);
    if (n) {
        fputs(" <span class=\"ids\">", f);
        const cJSON *it;
        int k = 0;
        cJSON_ArrayForEach(it, ids)
        {
            if (k++)
                fputs(", ", f);
            fputs("<code>", f);
            esc(f, cJSON_GetStringValue(it));
            fputs("</code>", f);
        }
        fputs("</span>", f);
    }
    fputs("</td>", f);
}

static void write_row(FILE *f, const cJSON *e, int with_baseline)
{
    int pos = num(e, "position", 0);
    const char *status = str(e, "status");
    fprintf(f, "<tr data-pos=\"%d\"><td data-sort=\"%d\">%d</td><td data-sort=\"", pos, pos,
            pos + 1);
    const char *name = str(e, "fileName");
    esc(f, name ? name : str(e, "path"));
    fputs("\">", f);
    const char *link = str(e, "html");
    if (!link)
        link = str(e, "report");
    if (!link)
        link = str(e, "log");
    if (link) {
        fputs("<a href=\"", f);
        esc(f, link);
        fputs("\">", f);
    }
    esc(f, name ? name : str(e, "path"));
    if (link)
        fputs("</a>", f);
    if (status && strcmp(status, "complete") != 0) {
        fputs(" <span class=\"status\">(", f);
        esc(f, status);
        fputs(")</span>", f);
    }
    fputs("</td>", f);
    verdict_cell(f, str(e, "verdict"), "overall");
    const cJSON *areas = cJSON_GetObjectItemCaseSensitive(e, "areas");
    for (size_t a = 0; a < FMUC_BATCH_NAREAS; a++)
        verdict_cell(f, str(areas, fmuc_report_batch_areas[a]), fmuc_report_batch_areas[a]);
    if (with_baseline) {
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(e, "baseline");
        if (cJSON_IsObject(b)) {
            ids_cell(f, cJSON_GetObjectItemCaseSensitive(b, "new"));
            ids_cell(f, cJSON_GetObjectItemCaseSensitive(b, "fixed"));
            ids_cell(f, cJSON_GetObjectItemCaseSensitive(b, "unchanged"));
        } else {
            for (int k = 0; k < 3; k++)
                fputs("<td data-sort=\"-1\" class=\"none\">no comparison</td>", f);
        }
    }
    const cJSON *hl = cJSON_GetObjectItemCaseSensitive(e, "highlights");
    const char *msg = str(e, "message");
    fputs("<td>", f);
    if (cJSON_GetArraySize(hl) > 0) {
        fputs("<ol class=\"hl\">", f);
        const cJSON *it;
        cJSON_ArrayForEach(it, hl)
        {
            fputs("<li>", f);
            fmuc_report__xml_escape(f, cJSON_GetStringValue(it), FMUC_HIGHLIGHT_MAX,
                                    FMUC_ESC_HTML);
            fputs("</li>", f);
        }
        fputs("</ol>", f);
    } else if (msg && *msg) {
        esc(f, msg);
    } else if (vrank(str(e, "verdict")) >= 0) {
        fputs("<span class=\"none\">no problem</span>", f);
    }
    fputs("</td></tr>\n", f);
}

fmuc_err fmuc_report_batch_html_write(FILE *out, const cJSON *idx)
{
    if (!out || !idx)
        return FMUC_ERROR;
    const cJSON *sum = cJSON_GetObjectItemCaseSensitive(idx, "summary");
    const cJSON *fmus = cJSON_GetObjectItemCaseSensitive(idx, "fmus");
    int with_baseline = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, fmus)
    {
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(e, "baseline");
        if (cJSON_IsObject(b))
            with_baseline = 1;
    }
    int code = num(sum, "exitCode", -1);
    fprintf(out,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<meta name=\"generator\" content=\"fmucheck\">\n<title>fmucheck batch: %d FMUs"
            "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header><h1>fmucheck batch</h1>\n",
            num(sum, "fmus", 0), css);
    fputs("<p id=\"batch-summary\">", out);
    esc(out, str(idx, "dateUtc"));
    fprintf(out,
            " &middot; %d FMUs: %d pass, %d fail, %d error, %d rejected, %d unsupported, %d not "
            "run &middot; exit code %d",
            num(sum, "fmus", 0), num(sum, "pass", 0), num(sum, "fail", 0), num(sum, "error", 0),
            num(sum, "rejected", 0), num(sum, "unsupported", 0), num(sum, "notRun", 0), code);
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(idx, "incomplete")))
        fputs(" &middot; <b>interrupted: incomplete</b>", out);
    fputs("</p>\n", out);
    const cJSON *missing = cJSON_GetObjectItemCaseSensitive(idx, "shardsMissing");
    if (cJSON_GetArraySize(missing) > 0) {
        fputs("<p><b>Shards missing:</b> ", out);
        const cJSON *it;
        int k = 0;
        cJSON_ArrayForEach(it, missing)
        {
            if (k++)
                fputs(", ", out);
            esc(out, cJSON_GetStringValue(it));
        }
        fputs("</p>\n", out);
    }
    if (with_baseline) {
        fputs("<p id=\"baseline\">Compared with the baseline (each FMU with its earlier "
              "report.json): per FMU the failures (fail or error) that are <b>new</b>, <b>fixed</b> and "
              "<b>unchanged</b>.</p>\n",
              out);
    }
    fputs("<p class=\"legend\">Each cell is the worst verdict of the FMU's checks in that area: ",
          out);
    for (int r = 4; r >= 0; r--)
        fprintf(out, "<span>%s %s</span>", vsymbols[r], vlabels[r]);
    fputs("<span>&mdash; not run</span></p>\n</header>\n<main>\n", out);

    if (!cJSON_GetArraySize(fmus)) {
        fputs("<p class=\"none\">No FMU in this batch.</p>\n", out);
    } else {
        fputs("<table id=\"matrix\"><caption>FMUs &times; check areas "
              "<span id=\"sorted\" aria-live=\"polite\"></span></caption>\n<thead><tr>",
              out);
        head_cell(out, "#", "num", NULL, "batch order");
        head_cell(out, "FMU", "text", NULL, "file name");
        head_cell(out, "overall", "num", "descending", "overall verdict, worst first");
        for (size_t a = 0; a < FMUC_BATCH_NAREAS; a++)
            head_cell(out, fmuc_report_batch_areas[a], "num", "descending",
                      "worst verdict of this area, worst first");
        if (with_baseline) {
            head_cell(out, "new", "num", "descending", "failures new since the baseline");
            head_cell(out, "fixed", "num", "descending", "failures of the baseline now gone");
            head_cell(out, "unchanged", "num", "descending", "failures in both");
        }
        fputs("<th scope=\"col\">highlights</th></tr></thead>\n<tbody>\n", out);
        cJSON_ArrayForEach(e, fmus) write_row(out, e, with_baseline);
        fputs("</tbody></table>\n", out);
    }
    fputs("</main>\n<footer><p class=\"status\">fmucheck ", out);
    esc(out, str(cJSON_GetObjectItemCaseSensitive(idx, "tool"), "version"));
    fprintf(out, " &middot; index.json holds the same data</p></footer>\n<script>\n%s</script>\n"
                 "</body>\n</html>\n",
            js);
    return ferror(out) ? FMUC_EIO : FMUC_OK;
}
