/* md-terminals-and-icons: FMI 3.0: the contents of terminalsAndIcons/terminalsAndIcons.xml
 * (FMI 3.0.2 §2.4.9, fmi3TerminalsAndIcons.xsd, fmi3Terminal.xsd; fmi3-rules B-501..B-507).
 * Musts: an XML document with root <fmiTerminalsAndIcons> whose fmiVersion is the
 * modelDescription's; the elements of the schema only, in its order and number
 * (GraphicalRepresentation?, Terminals?, Annotations?; CoordinateSystem?, Icon?, Annotations?;
 * Terminal+; TerminalMemberVariable*, TerminalStreamMemberVariable*, Terminal*,
 * TerminalGraphicalRepresentation?, Annotations?); CoordinateSystem and Icon with their four
 * coordinates (and the scaling factor), x1 < x2 and y1 < y2 for the coordinate system; every
 * Terminal with a name unique on its level and a matchingRule that is predefined (plug, bus,
 * sequence, none) or in reverse domain notation; TerminalMemberVariable and
 * TerminalStreamMemberVariable naming variables (or Alias names) of the model description, the
 * predefined variable kinds and the stream members only on inputs, outputs, parameters and
 * calculated parameters (stream arrays of equal size, a size given by a structural parameter
 * counted with its start value); memberName given and unique per terminal for plug and bus; one
 * inflow or outflow member at most beside stream members; TerminalGraphicalRepresentation with
 * its coordinates and iconBaseName whose <name>.png is in the archive, defaultConnectionColor a
 * list of xs:unsignedByte. Warnings (derived or tool heuristics, B-503/B-507): an Icon of zero
 * area, an iconBaseName importers need not resolve (absolute, or climbing above
 * terminalsAndIcons/ with ".."), a defaultConnectionColor of other than three values (the text's
 * "RGB values"), defaultConnectionStrokeSize not > 0. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fmuc/fmuc_sim.h"
#include "md_util.h"
#include "md_xmlfile.h"

#define TI_FILE "terminalsAndIcons/terminalsAndIcons.xml"
#define TI "terminalsAndIcons.xml"

/* The XSD sequences of fmi3TerminalsAndIcons.xsd and fmi3Terminal.xsd (FMI 3.0.2) */
static const fmuc_mdx_child root_seq[] = {
    {"GraphicalRepresentation", 1}, {"Terminals", 1}, {"Annotations", 1}};
static const fmuc_mdx_child graphics_seq[] = {
    {"CoordinateSystem", 1}, {"Icon", 1}, {"Annotations", 1}};
static const fmuc_mdx_child terminals_seq[] = {{"Terminal", 0}};
static const fmuc_mdx_child terminal_seq[] = {
    {"TerminalMemberVariable", 0}, {"TerminalStreamMemberVariable", 0}, {"Terminal", 0},
    {"TerminalGraphicalRepresentation", 1}, {"Annotations", 1}};
static const fmuc_mdx_child annotations_seq[] = {{"Annotations", 1}};
#define SEQ(res, n, seq) fmuc_mdx__sequence(res, TI, n, seq, sizeof seq / sizeof seq[0])

typedef struct ctx {
    const fmuc_md *md;
    fmuc_result *res;
    fmuc_mdu_map names;   /* variable and Alias names -> variable index */
    fmuc_mdu_map entries; /* archive entry names */
    int oom;
} ctx;

/* The four coordinates of n (all required): 0 and v[] when each is an xs:double, else -1 after
 * reporting what is missing or unreadable. */
static int coords(ctx *c, xmlNode *n, const char *what, double v[4])
{
    static const char *const at[4] = {"x1", "y1", "x2", "y2"};
    int ok = 0;
    for (int k = 0; k < 4; k++) {
        const char *t = fmuc_mdx__attr(n, at[k]);
        if (!t) {
            fmuc_result_violation(c->res, TI " line %u: %s has no %s (required)",
                                  fmuc_mdx__line(n), what, at[k]);
            ok = -1;
        } else if (fmuc_mdx__double(t, &v[k]) < 0) {
            fmuc_result_violation(c->res, TI " line %u: %s %s=\"%.60s\" is no xs:double",
                                  fmuc_mdx__line(n), what, at[k], t);
            ok = -1;
        }
    }
    return ok;
}

static void graphical_representation(ctx *c, xmlNode *g)
{
    SEQ(c->res, g, graphics_seq);
    for (xmlNode *e = fmuc_mdx__elem(g->children); e; e = fmuc_mdx__elem(e->next)) {
        double v[4];
        if (fmuc_mdx__is(e, "CoordinateSystem") || fmuc_mdx__is(e, "Icon"))
            fmuc_mdx__sequence(c->res, TI, e, NULL, 0);
        if (fmuc_mdx__is(e, "CoordinateSystem")) {
            const char *sf = fmuc_mdx__attr(e, "suggestedScalingFactorTo_mm");
            double f;
            if (!sf)
                fmuc_result_violation(c->res, TI " line %u: <CoordinateSystem> has no "
                                      "suggestedScalingFactorTo_mm (required)", fmuc_mdx__line(e));
            else if (fmuc_mdx__double(sf, &f) < 0)
                fmuc_result_violation(c->res, TI " line %u: <CoordinateSystem> "
                                      "suggestedScalingFactorTo_mm=\"%.60s\" is no xs:double",
                                      fmuc_mdx__line(e), sf);
            if (coords(c, e, "<CoordinateSystem>", v) == 0 && !(v[0] < v[2] && v[1] < v[3]))
                fmuc_result_violation(c->res, TI " line %u: <CoordinateSystem> x1=%g y1=%g x2=%g "
                                      "y2=%g: the lower left corner must lie below and left of the "
                                      "upper right one (x1 < x2, y1 < y2)", fmuc_mdx__line(e),
                                      v[0], v[1], v[2], v[3]);
        } else if (fmuc_mdx__is(e, "Icon")) {
            if (coords(c, e, "<Icon>", v) == 0 && (v[0] == v[2] || v[1] == v[3]))
                fmuc_result_warn(c->res, TI " line %u: <Icon> x1=%g y1=%g x2=%g y2=%g has no area: "
                                 "the icon image cannot be drawn (corners may be reversed to flip "
                                 "it, not equal)", fmuc_mdx__line(e), v[0], v[1], v[2], v[3]);
        }
    }
}

static int is_hex(char ch)
{
    return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
}

static int hex_val(char ch)
{
    return ch <= '9' ? ch - '0' : (ch | 0x20) - 'a' + 10;
}

/* iconBaseName resolved against terminalsAndIcons/terminalsAndIcons.xml (RFC 3986 §5.2, dot
 * segments removed) into out ("terminalsAndIcons/<path>"): 0; 1 when it is an absolute URI or an
 * absolute path; 2 when ".." climbs above terminalsAndIcons/ (importers need support neither);
 * -1 when it does not fit. */
static int resolve_icon(const char *ref, char *out, size_t outlen)
{
    size_t i = 0;
    if ((ref[0] >= 'a' && ref[0] <= 'z') || (ref[0] >= 'A' && ref[0] <= 'Z')) {
        for (i = 1; ref[i] && ref[i] != '/' && ref[i] != '?' && ref[i] != '#'; i++)
            if (ref[i] == ':')
                return 1;
    }
    if (ref[0] == '/')
        return 1;
    /* percent-decode the path (up to '?' or '#') */
    char path[1024];
    size_t n = 0;
    for (i = 0; ref[i] && ref[i] != '?' && ref[i] != '#'; i++) {
        if (n + 1 >= sizeof path)
            return -1;
        if (ref[i] == '%' && is_hex(ref[i + 1]) && is_hex(ref[i + 2])) {
            path[n++] = (char)(hex_val(ref[i + 1]) * 16 + hex_val(ref[i + 2]));
            i += 2;
        } else {
            path[n++] = ref[i];
        }
    }
    path[n] = '\0';
    /* segments onto the base folder: "." is dropped, ".." pops (above the base: 2) */
    const char *seg[128];
    size_t segl[128], ns = 0;
    for (size_t a = 0; a <= n;) {
        size_t b = a;
        while (b < n && path[b] != '/')
            b++;
        size_t l = b - a;
        int last = b >= n;
        if (l == 1 && path[a] == '.') {
            /* nothing */
        } else if (l == 2 && path[a] == '.' && path[a + 1] == '.') {
            if (!ns)
                return 2;
            ns--;
        } else if (l > 0 || last) {
            if (ns == 128)
                return -1;
            seg[ns] = path + a;
            segl[ns++] = l;
        }
        a = b + 1;
    }
    int w = snprintf(out, outlen, "terminalsAndIcons");
    for (size_t k = 0; k < ns; k++) {
        if (w < 0 || (size_t)w >= outlen)
            return -1;
        w += snprintf(out + w, outlen - (size_t)w, "/%.*s", (int)segl[k], seg[k]);
    }
    return w < 0 || (size_t)w >= outlen ? -1 : 0;
}

static int is_xml_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* defaultConnectionColor, an xs:list of xs:unsignedByte: the number of items, or -1 with the
 * first item that is no unsignedByte (an optional '+', or '-' before zero, then digits, at most
 * 255) copied into bad. */
static int color_items(const char *s, char *bad, size_t badlen)
{
    int k = 0;
    for (const char *p = s;;) {
        while (is_xml_space(*p))
            p++;
        if (!*p)
            return k;
        const char *q = p;
        while (*q && !is_xml_space(*q))
            q++;
        const char *d = p + (*p == '+' || *p == '-');
        unsigned long x = 0;
        int ok = d < q;
        for (const char *t = d; t < q && ok; t++) {
            ok = *t >= '0' && *t <= '9';
            if (ok && (x = x * 10 + (unsigned long)(*t - '0')) > 255)
                ok = 0;
        }
        if (ok && *p == '-' && x != 0)
            ok = 0;
        if (!ok) {
            snprintf(bad, badlen, "%.*s", (int)(q - p > 30 ? 30 : q - p), p);
            return -1;
        }
        k++;
        p = q;
    }
}

static void terminal_graphics(ctx *c, xmlNode *g, const char *tname)
{
    double v[4];
    unsigned line = fmuc_mdx__line(g);
    char what[160];
    snprintf(what, sizeof what, "<TerminalGraphicalRepresentation> of terminal \"%.80s\"", tname);
    SEQ(c->res, g, annotations_seq);
    coords(c, g, what, v);
    const char *base = fmuc_mdx__attr(g, "iconBaseName");
    if (!base || !*base) {
        fmuc_result_violation(c->res, TI " line %u: %s has no iconBaseName (required)", line,
                              what);
    } else {
        char rel[1100], png[1120];
        int r = resolve_icon(base, rel, sizeof rel);
        if (r == 1)
            fmuc_result_warn(c->res, TI " line %u: %s iconBaseName=\"%.200s\" is an absolute URI "
                             "or path; importers need to resolve relative ones only", line, what,
                             base);
        else if (r == 2)
            fmuc_result_warn(c->res, TI " line %u: %s iconBaseName=\"%.200s\" climbs above "
                             "terminalsAndIcons/ with \"..\"; importers need not resolve such "
                             "URIs", line, what, base);
        else if (r < 0)
            fmuc_result_violation(c->res, TI " line %u: %s iconBaseName=\"%.200s\" is too long "
                                  "to name a file of the archive", line, what, base);
        else if (snprintf(png, sizeof png, "%s.png", rel) < (int)sizeof png &&
                 !fmuc_mdu__map_get(&c->entries, png, NULL))
            fmuc_result_violation(c->res, TI " line %u: %s iconBaseName=\"%.200s\": the archive "
                                  "has no %.300s (the PNG file has to be provided)", line, what,
                                  base, png);
    }
    const char *col = fmuc_mdx__attr(g, "defaultConnectionColor");
    if (col) {
        char bad[40];
        int k = color_items(col, bad, sizeof bad);
        if (k < 0)
            fmuc_result_violation(c->res, TI " line %u: %s defaultConnectionColor=\"%.60s\": the "
                                  "item \"%s\" is no xs:unsignedByte (the attribute is a list of "
                                  "integers from 0 to 255)", line, what, col, bad);
        else if (k != 3)
            fmuc_result_warn(c->res, TI " line %u: %s defaultConnectionColor=\"%.60s\" has %d "
                             "value%s; an RGB color is three (red green blue, e.g. \"255 255 0\")",
                             line, what, col, k, k == 1 ? "" : "s");
    }
    const char *sz = fmuc_mdx__attr(g, "defaultConnectionStrokeSize");
    double ssz;
    if (sz && fmuc_mdx__double(sz, &ssz) < 0)
        fmuc_result_violation(c->res, TI " line %u: %s defaultConnectionStrokeSize=\"%.60s\" is "
                              "no xs:double", line, what, sz);
    else if (sz && !(ssz > 0))
        fmuc_result_warn(c->res, TI " line %u: %s defaultConnectionStrokeSize=%g draws no line "
                         "(a stroke size > 0 is expected)", line, what, ssz);
}

/* The variable called name (a variable or Alias name): 1 and *i, else 0. */
static int find_var(ctx *c, const char *name, size_t *i)
{
    return name && fmuc_mdu__map_get(&c->names, name, i);
}

static int connectable(unsigned caus)
{
    return caus == FMUC_CAUS_INPUT || caus == FMUC_CAUS_OUTPUT || caus == FMUC_CAUS_PARAMETER ||
           caus == FMUC_CAUS_CALCULATED_PARAMETER;
}

/* A variable reference of a member element: it names a variable, and (restricted) that one is
 * an input, output, parameter or calculated parameter. */
static void member_var(ctx *c, xmlNode *m, const char *el, const char *attr, const char *tname,
                       int restricted, const char *why)
{
    const char *vn = fmuc_mdx__attr(m, attr);
    size_t vi;
    if (!vn) {
        fmuc_result_violation(c->res, TI " line %u: <%s> of terminal \"%.80s\" has no %s "
                              "(required)", fmuc_mdx__line(m), el, tname, attr);
    } else if (!find_var(c, vn, &vi)) {
        fmuc_result_violation(c->res, TI " line %u: <%s> of terminal \"%.80s\" %s=\"%.200s\" "
                              "names no variable (nor Alias) of modelDescription.xml",
                              fmuc_mdx__line(m), el, tname, attr, vn);
    } else if (restricted && !connectable(c->md->vars[vi].causality)) {
        char d[FMUC_MDU_DESC_LEN];
        fmuc_result_violation(c->res, TI " line %u: <%s> of terminal \"%.80s\" %s=\"%.200s\": %s "
                              "has causality %s; %s is restricted to inputs, outputs, parameters "
                              "and calculated parameters", fmuc_mdx__line(m), el, tname, attr, vn,
                              fmuc_mdu__var_desc(d, sizeof d, &c->md->vars[vi]),
                              fmuc_mdu__causality_name(c->md->vars[vi].causality), why);
    }
}

/* 1 when variable i is an array that takes a size from a structural parameter or constant */
static int sized_by_variable(const fmuc_md *md, size_t i)
{
    const fmuc_md_var_ext *x = fmuc_md_var_ext_of(md, i);
    for (uint32_t d = 0; x && d < x->ndims; d++)
        if (!x->dims[d].has_start)
            return 1;
    return 0;
}

/* B-506: when both stream variables are arrays, their element counts (a size given by a
 * structural parameter counts with its start value) are equal */
static void stream_sizes(ctx *c, xmlNode *m, const char *tname)
{
    size_t a, b;
    const char *in = fmuc_mdx__attr(m, "inStreamVariableName");
    const char *out = fmuc_mdx__attr(m, "outStreamVariableName");
    if (!find_var(c, in, &a) || !find_var(c, out, &b))
        return;
    const fmuc_md_var_ext *xa = fmuc_md_var_ext_of(c->md, a), *xb = fmuc_md_var_ext_of(c->md, b);
    if (!xa || !xa->ndims || !xb || !xb->ndims)
        return;
    size_t na = fmuc_sim_var_elements(c->md, a, NULL, 0, NULL);
    size_t nb = fmuc_sim_var_elements(c->md, b, NULL, 0, NULL);
    if (na && nb && na != nb)
        fmuc_result_violation(c->res, TI " line %u: <TerminalStreamMemberVariable> of terminal "
                              "\"%.80s\": the arrays \"%.150s\" (%zu elements) and \"%.150s\" "
                              "(%zu elements) differ in size (they must be equal)%s",
                              fmuc_mdx__line(m), tname, in, na, out, nb,
                              sized_by_variable(c->md, a) || sized_by_variable(c->md, b)
                                  ? "; a size given by a structural parameter or constant counts "
                                    "with its start value"
                                  : "");
}

static int reverse_domain(const char *s)
{
    /* "<domain>.<more>": at least one '.' between non-empty parts */
    const char *dot = strchr(s, '.');
    return dot && dot != s && dot[1];
}

static void terminal(ctx *c, xmlNode *t, fmuc_mdu_map *siblings)
{
    unsigned line = fmuc_mdx__line(t);
    const char *name = fmuc_mdx__attr(t, "name");
    const char *tname = name ? name : "";
    if (!name || !*name) {
        fmuc_result_violation(c->res, TI " line %u: <Terminal> has no name (required, not "
                              "empty)", line);
    } else {
        size_t prev;
        int r = fmuc_mdu__map_put(siblings, name, line, &prev);
        if (r < 0)
            c->oom = 1;
        else if (r == 0)
            fmuc_result_violation(c->res, TI " line %u: terminal name \"%.200s\" is used on this "
                                  "level already (line %zu); names are unique on each level",
                                  line, name, prev);
    }
    const char *rule = fmuc_mdx__attr(t, "matchingRule");
    int by_name = 0;
    if (!rule) {
        fmuc_result_violation(c->res, TI " line %u: terminal \"%.200s\" has no matchingRule "
                              "(required)", line, tname);
    } else if (strcmp(rule, "plug") == 0 || strcmp(rule, "bus") == 0) {
        by_name = 1;
    } else if (strcmp(rule, "sequence") != 0 && strcmp(rule, "none") != 0 &&
               !reverse_domain(rule)) {
        fmuc_result_violation(c->res, TI " line %u: terminal \"%.200s\" matchingRule=\"%.100s\" "
                              "is neither predefined (plug, bus, sequence, none) nor in reverse "
                              "domain notation", line, tname, rule);
    }
    SEQ(c->res, t, terminal_seq);
    fmuc_mdu_map members = {0}, nested = {0};
    size_t flows = 0, streams = 0;
    unsigned first_flow = 0;
    for (xmlNode *e = fmuc_mdx__elem(t->children); e && !c->oom; e = fmuc_mdx__elem(e->next)) {
        unsigned el = fmuc_mdx__line(e);
        if (fmuc_mdx__is(e, "TerminalMemberVariable") ||
            fmuc_mdx__is(e, "TerminalStreamMemberVariable"))
            SEQ(c->res, e, annotations_seq);
        if (fmuc_mdx__is(e, "TerminalMemberVariable")) {
            const char *kind = fmuc_mdx__attr(e, "variableKind");
            int predefined = kind && (strcmp(kind, "signal") == 0 || strcmp(kind, "inflow") == 0 ||
                                      strcmp(kind, "outflow") == 0);
            if (!kind)
                fmuc_result_violation(c->res, TI " line %u: <TerminalMemberVariable> of terminal "
                                      "\"%.80s\" has no variableKind (required)", el, tname);
            if (kind && (strcmp(kind, "inflow") == 0 || strcmp(kind, "outflow") == 0) &&
                !flows++)
                first_flow = el;
            char why[80];
            snprintf(why, sizeof why, "variableKind \"%s\"", kind ? kind : "");
            member_var(c, e, "TerminalMemberVariable", "variableName", tname, predefined, why);
            const char *mn = fmuc_mdx__attr(e, "memberName");
            if (by_name && !mn) {
                fmuc_result_violation(c->res, TI " line %u: <TerminalMemberVariable> of terminal "
                                      "\"%.80s\" has no memberName, required with matchingRule "
                                      "\"%s\"", el, tname, rule);
            } else if (by_name) {
                size_t prev;
                int r = members.cap || fmuc_mdu__map_init(&members, 8) == 0
                            ? fmuc_mdu__map_put(&members, mn, el, &prev)
                            : -1;
                if (r < 0)
                    c->oom = 1;
                else if (r == 0)
                    fmuc_result_violation(c->res, TI " line %u: terminal \"%.80s\" has memberName "
                                          "\"%.200s\" twice (also line %zu); with matchingRule "
                                          "\"%s\" member names are unique per terminal", el,
                                          tname, mn, prev, rule);
            }
        } else if (fmuc_mdx__is(e, "TerminalStreamMemberVariable")) {
            streams++;
            static const char *const req[2] = {"inStreamMemberName", "outStreamMemberName"};
            for (int k = 0; k < 2; k++)
                if (!fmuc_mdx__attr(e, req[k]))
                    fmuc_result_violation(c->res, TI " line %u: <TerminalStreamMemberVariable> of "
                                          "terminal \"%.80s\" has no %s (required)", el, tname,
                                          req[k]);
            member_var(c, e, "TerminalStreamMemberVariable", "inStreamVariableName", tname, 1,
                       "a stream member");
            member_var(c, e, "TerminalStreamMemberVariable", "outStreamVariableName", tname, 1,
                       "a stream member");
            stream_sizes(c, e, tname);
        } else if (fmuc_mdx__is(e, "Terminal")) {
            if (!nested.cap && fmuc_mdu__map_init(&nested, 8) < 0) {
                c->oom = 1;
                break;
            }
            terminal(c, e, &nested);
        } else if (fmuc_mdx__is(e, "TerminalGraphicalRepresentation")) {
            terminal_graphics(c, e, tname);
        }
    }
    if (streams && flows > 1)
        fmuc_result_violation(c->res, TI " line %u: terminal \"%.200s\" has %zu members with "
                              "variableKind inflow or outflow (first at line %u) beside %zu "
                              "<TerminalStreamMemberVariable>; only one is allowed then", line,
                              tname, flows, first_flow, streams);
    fmuc_mdu__map_free(&members);
    fmuc_mdu__map_free(&nested);
}

static void run(const fmuc_subject *s, fmuc_result *res)
{
    const fmuc_fmu *fmu = s->fmu;
    const fmuc_md *md = &fmu->md;
    const fmuc_zip_listing *zl = &fmu->listing;
    ctx c = {.md = md, .res = res};
    xmlDoc *doc = fmuc_mdx__load(s, TI_FILE, "fmiTerminalsAndIcons", res);
    if (!doc)
        return;
    if (fmuc_mdu__map_init(&c.names, md->nvars + 8) < 0 ||
        fmuc_mdu__map_entries(&c.entries, zl) < 0)
        goto oom;
    for (size_t i = 0; i < md->nvars; i++)
        if (md->vars[i].name && fmuc_mdu__map_put(&c.names, md->vars[i].name, i, NULL) < 0)
            goto oom;
    for (size_t k = 0; k < md->nexts; k++)
        for (uint32_t a = 0; a < md->exts[k].naliases; a++)
            if (md->exts[k].aliases[a].name &&
                fmuc_mdu__map_put(&c.names, md->exts[k].aliases[a].name, md->exts[k].var, NULL) < 0)
                goto oom;

    xmlNode *root = xmlDocGetRootElement(doc);
    const char *ver = fmuc_mdx__attr(root, "fmiVersion");
    if (!ver)
        fmuc_result_violation(res, TI " line %u: <fmiTerminalsAndIcons> has no fmiVersion "
                              "(required)", fmuc_mdx__line(root));
    else if (md->fmi_version && strcmp(ver, md->fmi_version) != 0)
        fmuc_result_violation(res, TI " line %u: fmiVersion=\"%.60s\" differs from "
                              "modelDescription.xml's fmiVersion=\"%.60s\" (they must match)",
                              fmuc_mdx__line(root), ver, md->fmi_version);
    SEQ(res, root, root_seq);
    for (xmlNode *e = fmuc_mdx__elem(root->children); e && !c.oom; e = fmuc_mdx__elem(e->next)) {
        if (fmuc_mdx__is(e, "GraphicalRepresentation")) {
            graphical_representation(&c, e);
        } else if (fmuc_mdx__is(e, "Terminals")) {
            fmuc_mdu_map top = {0};
            if (fmuc_mdu__map_init(&top, 8) < 0)
                goto oom;
            size_t nt = 0;
            SEQ(res, e, terminals_seq);
            for (xmlNode *t = fmuc_mdx__elem(e->children); t && !c.oom;
                 t = fmuc_mdx__elem(t->next)) {
                if (fmuc_mdx__is(t, "Terminal")) {
                    nt++;
                    terminal(&c, t, &top);
                }
            }
            fmuc_mdu__map_free(&top);
            if (!nt)
                fmuc_result_violation(res, TI " line %u: <Terminals> lists no <Terminal> (at least "
                                      "one when the element is given)", fmuc_mdx__line(e));
        }
    }
    if (!c.oom)
        goto out;
oom:
    fmuc_result_error(res, "out of memory");
out:
    fmuc_mdu__map_free(&c.names);
    fmuc_mdu__map_free(&c.entries);
    xmlFreeDoc(doc);
}

const fmuc_check fmuc_check_md_terminals_and_icons = {
    .id = "md-terminals-and-icons",
    .title = "FMI 3.0: terminalsAndIcons.xml is valid and refers to existing variables and icons",
    .spec = "FMI 3.0.2 §2.4.9, §2.4.9.1, §2.4.9.2",
    .level = FMUC_LEVEL_MUST,
    .interop = FMUC_INTEROP_WARN,
    .interop_why = "terminals and icons are optional metadata any importer may ignore; loading and "
                   "simulating the FMU never read terminalsAndIcons.xml",
    .why = "System tools connect FMUs terminal by terminal and draw them from this file; a member "
           "naming no variable, a duplicate memberName or a missing icon PNG gives wrong or failed "
           "connections and blank symbols.",
    .fix = "Generate terminalsAndIcons.xml from the exported model: fmiVersion as in "
           "modelDescription.xml, members naming its variables, unique names, and each "
           "iconBaseName's PNG in terminalsAndIcons/.",
    .applies = FMUC_APPLIES_ANY,
    .versions = FMUC_V3,
    .needs = FMUC_NEEDS_XML | FMUC_NEEDS_ARCHIVE,
    .run = run,
};
