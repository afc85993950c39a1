/* XML files of the archive other than modelDescription.xml: capped read, safe parse, attribute
 * readers (md_xmlfile.h). */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/xmlerror.h>

#include "md_xmlfile.h"

/* 1 and *line when a DOCTYPE declaration opens the prolog (it may only stand there): the XML
 * declaration, processing instructions, comments and white space before it are skipped. */
static int prolog_doctype(const char *b, size_t n, unsigned *line)
{
    size_t i = 0;
    unsigned ln = 1;
    if (n >= 3 && (unsigned char)b[0] == 0xEF && (unsigned char)b[1] == 0xBB &&
        (unsigned char)b[2] == 0xBF)
        i = 3;
    while (i < n) {
        char c = b[i];
        if (c == '\n') {
            ln++;
            i++;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            i++;
        } else if (c == '<' && i + 1 < n && b[i + 1] == '?') {
            const char *end = memmem(b + i, n - i, "?>", 2);
            if (!end)
                return 0;
            for (const char *p = b + i; p < end; p++)
                ln += *p == '\n';
            i = (size_t)(end - b) + 2;
        } else if (n - i >= 4 && memcmp(b + i, "<!--", 4) == 0) {
            const char *end = memmem(b + i + 4, n - i - 4, "-->", 3);
            if (!end)
                return 0;
            for (const char *p = b + i; p < end; p++)
                ln += *p == '\n';
            i = (size_t)(end - b) + 3;
        } else {
            *line = ln;
            return n - i >= 9 && memcmp(b + i, "<!DOCTYPE", 9) == 0;
        }
    }
    return 0;
}

xmlDoc *fmuc_mdx__load(const fmuc_subject *s, const char *name, const char *root,
                       fmuc_result *res)
{
    char *buf = NULL;
    size_t len = 0;
    fmuc_diag d = {0};
    xmlDoc *doc = NULL;
    xmlParserCtxtPtr ctxt = NULL;
    const fmuc_zip_listing *zl = &s->fmu->listing;
    int listed = 0;
    for (size_t i = 0; i < zl->nentries && !listed; i++)
        listed = zl->entries[i].name && strcmp(zl->entries[i].name, name) == 0;
    if (!listed) {
        fmuc_result_na(res, "no %s", name);
        return NULL;
    }
    fmuc_err err = fmuc_fmu_read_entry(s->fmu, name, FMUC_MDX_MAX_BYTES, &buf, &len, &d);
    if (err < 0) {
        fmuc_result_error(res, "%s cannot be read: %s", name, d.msg);
        return NULL;
    }
    size_t k = 0;
    while (k < len && (buf[k] == ' ' || buf[k] == '\t' || buf[k] == '\r' || buf[k] == '\n'))
        k++;
    if (k == len) {
        fmuc_result_violation(res, "%s is empty: it is no XML document with root <%s>", name,
                              root);
        goto out;
    }
    if (len >= 2 && (((unsigned char)buf[0] == 0xFF && (unsigned char)buf[1] == 0xFE) ||
                     ((unsigned char)buf[0] == 0xFE && (unsigned char)buf[1] == 0xFF))) {
        fmuc_result_violation(res, "%s is UTF-16 (byte order mark): the FMI XML files are "
                              "UTF-8 (FMI 3.0.2 §2.4)", name);
        goto out;
    }
    unsigned dline = 0;
    if (prolog_doctype(buf, len, &dline)) {
        fmuc_result_violation(res, "%s line %u: a DOCTYPE declaration; the file's schema has none "
                              "and fmucheck reads no DTD (not parsed further)", name, dline);
        goto out;
    }
    xmlInitParser();
    ctxt = xmlNewParserCtxt();
    if (!ctxt) {
        fmuc_result_error(res, "%s: out of memory", name);
        goto out;
    }
    /* no NOENT (no entity substitution), no DTDLOAD/DTDATTR/DTDVALID, no XINCLUDE, no HUGE */
    int opts = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES;
    doc = xmlCtxtReadMemory(ctxt, buf, (int)len, name, NULL, opts);
    if (!doc) {
        const xmlError *e = xmlCtxtGetLastError(ctxt);
        char msg[256] = "not well-formed";
        if (e && e->message) {
            snprintf(msg, sizeof msg, "%s", e->message);
            size_t m = strlen(msg);
            while (m && (msg[m - 1] == '\n' || msg[m - 1] == ' '))
                msg[--m] = '\0';
        }
        fmuc_result_violation(res, "%s line %d: not a well-formed XML document: %s", name,
                              e ? e->line : 0, msg);
        goto out;
    }
    if (doc->intSubset || doc->extSubset) {
        fmuc_result_violation(res, "%s: a DOCTYPE declaration; the file's schema has none and "
                              "fmucheck reads no DTD (not judged further)", name);
        xmlFreeDoc(doc);
        doc = NULL;
        goto out;
    }
    xmlNode *r = xmlDocGetRootElement(doc);
    if (!r || !fmuc_mdx__is(r, root)) {
        fmuc_result_violation(res, "%s line %u: the root element is <%.100s>, not <%s>", name,
                              r ? fmuc_mdx__line(r) : 0u, r ? (const char *)r->name : "",
                              root);
        xmlFreeDoc(doc);
        doc = NULL;
    }
out:
    if (ctxt)
        xmlFreeParserCtxt(ctxt);
    free(buf);
    return doc;
}

const char *fmuc_mdx__attr(const xmlNode *n, const char *name)
{
    if (!n || n->type != XML_ELEMENT_NODE)
        return NULL;
    for (const xmlAttr *a = n->properties; a; a = a->next) {
        if (a->ns || !a->name || strcmp((const char *)a->name, name) != 0)
            continue;
        /* without a DTD, references in a value are character or predefined ones, which the
         * parser has resolved into one text node */
        if (!a->children)
            return "";
        if (a->children->type == XML_TEXT_NODE && a->children->content)
            return (const char *)a->children->content;
        return "";
    }
    return NULL;
}

unsigned fmuc_mdx__line(const xmlNode *n)
{
    long l = n ? xmlGetLineNo(n) : 0;
    return l > 0 ? (unsigned)l : 0u;
}

int fmuc_mdx__is(const xmlNode *n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && n->name &&
           strcmp((const char *)n->name, name) == 0;
}

xmlNode *fmuc_mdx__elem(xmlNode *n)
{
    while (n && n->type != XML_ELEMENT_NODE)
        n = n->next;
    return n;
}

int fmuc_mdx__double(const char *s, double *v)
{
    if (!s)
        return -1;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    char buf[128];
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        n--;
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (strcmp(buf, "INF") == 0 || strcmp(buf, "+INF") == 0 || strcmp(buf, "-INF") == 0 ||
        strcmp(buf, "NaN") == 0) {
        *v = buf[0] == 'N' ? (double)NAN : buf[0] == '-' ? -(double)INFINITY : (double)INFINITY;
        return 0;
    }
    /* [+-]? digits [. digits] [(e|E) [+-]? digits], at least one mantissa digit */
    size_t i = 0, md = 0;
    if (buf[i] == '+' || buf[i] == '-')
        i++;
    while (buf[i] >= '0' && buf[i] <= '9')
        i++, md++;
    if (buf[i] == '.') {
        i++;
        while (buf[i] >= '0' && buf[i] <= '9')
            i++, md++;
    }
    if (!md)
        return -1;
    if (buf[i] == 'e' || buf[i] == 'E') {
        size_t ed = 0;
        i++;
        if (buf[i] == '+' || buf[i] == '-')
            i++;
        while (buf[i] >= '0' && buf[i] <= '9')
            i++, ed++;
        if (!ed)
            return -1;
    }
    if (buf[i] != '\0')
        return -1;
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (c == (locale_t)0)
        return -1;
    char *end = NULL;
    double x = strtod_l(buf, &end, c);
    freelocale(c);
    if (!end || *end != '\0')
        return -1;
    *v = x;
    return 0;
}

int fmuc_mdx__bool(const char *s, int dflt)
{
    if (!s)
        return dflt;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        n--;
    if ((n == 4 && memcmp(s, "true", 4) == 0) || (n == 1 && s[0] == '1'))
        return 1;
    if ((n == 5 && memcmp(s, "false", 5) == 0) || (n == 1 && s[0] == '0'))
        return 0;
    return -1;
}

/* "A, B, C": the names of the sequence, for messages */
static const char *seq_names(char *buf, size_t len, const fmuc_mdx_child *seq, size_t n)
{
    size_t w = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < n && w < len; k++) {
        int r = snprintf(buf + w, len - w, "%s%s", k ? ", " : "", seq[k].name);
        if (r < 0)
            break;
        w += (size_t)r;
    }
    return buf;
}

/* The content of one <Annotations> (fmi3Annotation.xsd, the type of every Annotations element
 * in terminalsAndIcons.xml and buildDescription.xml): one or more <Annotation>, each with its
 * required attribute type and no other attribute of no namespace (the schema declares only
 * type, no anyAttribute); an Annotation's own content is free ("any", processContents lax).
 * Returns the number of findings. */
static size_t annotations(fmuc_result *res, const char *file, xmlNode *a)
{
    size_t findings = 0, count = 0;
    for (xmlNode *e = fmuc_mdx__elem(a->children); e; e = fmuc_mdx__elem(e->next)) {
        unsigned line = fmuc_mdx__line(e);
        if (!fmuc_mdx__is(e, "Annotation")) {
            fmuc_result_violation(res, "%s line %u: <%.80s> is no element of <Annotations> (the "
                                  "schema allows Annotation only)", file, line,
                                  (const char *)e->name);
            findings++;
            continue;
        }
        count++;
        if (!fmuc_mdx__attr(e, "type")) {
            fmuc_result_violation(res, "%s line %u: <Annotation> has no type (required; it "
                                  "names the tool or layered standard the annotation is for)",
                                  file, line);
            findings++;
        }
        for (xmlAttr *at = e->properties; at; at = at->next) {
            if (at->ns || !at->name || strcmp((const char *)at->name, "type") == 0)
                continue;
            fmuc_result_violation(res, "%s line %u: <Annotation> has attribute %.80s, which "
                                  "fmi3Annotation.xsd does not declare (an Annotation has only "
                                  "type; its data goes into its content)", file, line,
                                  (const char *)at->name);
            findings++;
        }
    }
    if (!count) {
        fmuc_result_violation(res, "%s line %u: <Annotations> holds no <Annotation> (at least "
                              "one when the element is given)", file, fmuc_mdx__line(a));
        findings++;
    }
    return findings;
}

size_t fmuc_mdx__sequence(fmuc_result *res, const char *file, xmlNode *parent,
                          const fmuc_mdx_child *seq, size_t n)
{
    enum { MAXSEQ = 16 };
    size_t findings = 0, pos = 0;
    const xmlNode *first[MAXSEQ] = {0}; /* each sequence element's first occurrence */
    const xmlNode *last = NULL;         /* the child that set pos */
    const char *pname = (const char *)parent->name;
    char names[400];
    if (n > MAXSEQ)
        n = MAXSEQ;
    for (xmlNode *e = fmuc_mdx__elem(parent->children); e; e = fmuc_mdx__elem(e->next)) {
        unsigned line = fmuc_mdx__line(e);
        size_t k = 0;
        while (k < n && !fmuc_mdx__is(e, seq[k].name))
            k++;
        if (k == n && n) {
            fmuc_result_violation(res, "%s line %u: <%.80s> is no element of <%s> (the schema "
                                  "allows %s)", file, line, (const char *)e->name, pname,
                                  seq_names(names, sizeof names, seq, n));
        } else if (k == n) {
            fmuc_result_violation(res, "%s line %u: <%.80s> inside <%s>, which has no child "
                                  "elements in the schema", file, line, (const char *)e->name,
                                  pname);
        } else if (last && k < pos) {
            fmuc_result_violation(res, "%s line %u: <%s> comes after <%s> (line %u); the schema "
                                  "orders the children of <%s> as %s", file, line, seq[k].name,
                                  seq[pos].name, fmuc_mdx__line(last), pname,
                                  seq_names(names, sizeof names, seq, n));
        } else if (seq[k].once && first[k]) {
            fmuc_result_violation(res, "%s line %u: a second <%s> in <%s> (the first at line %u); "
                                  "the schema allows one at most", file, line, seq[k].name, pname,
                                  fmuc_mdx__line(first[k]));
        } else {
            if (!first[k])
                first[k] = e;
            pos = k;
            last = e;
            if (strcmp(seq[k].name, "Annotations") == 0)
                findings += annotations(res, file, e);
            continue;
        }
        findings++;
    }
    return findings;
}
