/* XML files of the archive other than modelDescription.xml (FMI 3.0 terminalsAndIcons.xml and
 * sources/buildDescription.xml) for the md-* checks that judge them: read with the harness's
 * capped entry reader, parsed by libxml2 into a DOM with the project's XML policy (no network,
 * no DTD, no entity substitution, a DOCTYPE refused before parsing), small readers of attributes.
 * Cross-file internals of checks/md. */
#ifndef FMUC_MD_XMLFILE_H
#define FMUC_MD_XMLFILE_H

#include <libxml/tree.h>

#include "check.h"

/* The largest such file read (they are a few kB; 16 MiB is far beyond any real one) */
#define FMUC_MDX_MAX_BYTES ((size_t)16 << 20)

/** Read archive entry `name` and parse it. Returns the document whose root element is named
 *  `root`, or NULL after reporting in res: not applicable ("no <name>") when the archive does
 *  not list the file; a violation naming the file when its bytes are no
 *  such document (empty, not well-formed with the parser's line and message, a DOCTYPE, another
 *  root); an error when fmucheck cannot read it (over FMUC_MDX_MAX_BYTES, an unsafe entry or one
 *  stored twice, the archive changed, out of memory). Free the document with xmlFreeDoc. */
xmlDoc *fmuc_mdx__load(const fmuc_subject *s, const char *name, const char *root,
                       fmuc_result *res);

/** The value of attribute `name` (no namespace) as written, references resolved; NULL when
 *  absent. The text lives in the document. */
const char *fmuc_mdx__attr(const xmlNode *n, const char *name);
/** The element's line in its file (0 when unknown). */
unsigned fmuc_mdx__line(const xmlNode *n);
/** 1 when n is an element named `name` (no namespace). */
int fmuc_mdx__is(const xmlNode *n, const char *name);
/** The next element sibling at or after n (NULL when none): walk children with
 *  for (c = fmuc_mdx__elem(n->children); c; c = fmuc_mdx__elem(c->next)). */
xmlNode *fmuc_mdx__elem(xmlNode *n);
/** xs:double (whitespace around allowed, C locale, INF/-INF/NaN): 0 and *v, -1 when s is none. */
int fmuc_mdx__double(const char *s, double *v);
/** xs:boolean: 1 true/1, 0 false/0, dflt when s is NULL, -1 when s is another text. */
int fmuc_mdx__bool(const char *s, int dflt);

/* One element of an XSD sequence: its name, and 1 when maxOccurs is 1 (0: unbounded). */
typedef struct fmuc_mdx_child {
    const char *name;
    int once;
} fmuc_mdx_child;

/** Judge the element children of parent against the XSD sequence seq[0..n) (n = 0: an empty
 *  element): every child one of the sequence's names, in the sequence's order, a `once` one at
 *  most once. Each finding is a violation "<file> line <l>: ..." naming the element, its line and
 *  the element it follows; minOccurs is the caller's. An accepted child named Annotations is
 *  judged by fmi3Annotation.xsd too (one or more Annotation, each with its required type and no
 *  other attribute). Returns the number of findings. */
size_t fmuc_mdx__sequence(fmuc_result *res, const char *file, xmlNode *parent,
                          const fmuc_mdx_child *seq, size_t n);

#endif
