/* mdgen_xml: the XML writing shared by the host tools mdgen (FMI 2.0/3.0) and mdgen1 (FMI 1.0). */
#ifndef FMUC_MDGEN_XML_H
#define FMUC_MDGEN_XML_H

#include <stdio.h>

/* s with &, <, >, " and newline escaped (NULL: nothing). */
void fmuc_mdx_xml_str(FILE *f, const char *s);

/* ` name="val"` (val escaped; NULL val: nothing). */
void fmuc_mdx_attr(FILE *f, const char *name, const char *val);

/* ` name="v"` in the shortest of %.15g/%.16g/%.17g that reads back bit-identically. */
void fmuc_mdx_attr_dbl(FILE *f, const char *name, double v);

/* A table problem on stderr: "<tool>: error: " (lenient: "warning") and fmt with a and b
 * (NULL: "(null)"). */
void fmuc_mdx_problem(const char *tool, int lenient, const char *fmt, const char *a,
                      const char *b);

/* Writes the file out through out.tmp (write(arg, f) fills it; 0 = success), renamed to out
 * when the writing succeeded and *errors (read after writing) is 0 or lenient is set; the
 * tool's exit code (0 or 1), the reason on stderr. */
typedef int (*fmuc_mdx_write_fn)(void *arg, FILE *f);
int fmuc_mdx_write_file(const char *tool, const char *out, fmuc_mdx_write_fn write, void *arg,
                        const int *errors, int lenient, const char *model_identifier);

#endif
