/* mdgen_xml: the XML writing shared by mdgen and mdgen1; see mdgen_xml.h. */
#include "mdgen_xml.h"

#include <stdlib.h>

void fmuc_mdx_problem(const char *tool, int lenient, const char *fmt, const char *a,
                      const char *b)
{
    fprintf(stderr, "%s: %s: ", tool, lenient ? "warning" : "error");
    fprintf(stderr, fmt, a ? a : "(null)", b ? b : "(null)");
    fputc('\n', stderr);
}

void fmuc_mdx_xml_str(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        case '\n':
            fputs("&#10;", f);
            break;
        default:
            fputc(*s, f);
        }
    }
}

void fmuc_mdx_attr(FILE *f, const char *name, const char *val)
{
    if (!val)
        return;
    fprintf(f, " %s=\"", name);
    fmuc_mdx_xml_str(f, val);
    fputc('"', f);
}

void fmuc_mdx_attr_dbl(FILE *f, const char *name, double v)
{
    char buf[64];
    for (int p = 15; p <= 17; p++) {
        snprintf(buf, sizeof buf, "%.*g", p, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    fprintf(f, " %s=\"%s\"", name, buf);
}

int fmuc_mdx_write_file(const char *tool, const char *out, fmuc_mdx_write_fn write, void *arg,
                        const int *errors, int lenient, const char *model_identifier)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        perror(tmp);
        return 1;
    }
    int rc = write(arg, f);
    if (fclose(f) != 0 || rc != 0) {
        fprintf(stderr, "%s: cannot write %s\n", tool, tmp);
        remove(tmp);
        return 1;
    }
    if (*errors && !lenient) {
        fprintf(stderr, "%s: %d table error(s) in model '%s'\n", tool, *errors,
                model_identifier ? model_identifier : "?");
        remove(tmp);
        return 1;
    }
    if (rename(tmp, out) != 0) {
        perror(out);
        return 1;
    }
    return 0;
}
