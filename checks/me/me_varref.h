/* The variable references of the me-* checks' spec files (me-energy-residual): a variable's name,
 * or for an FMI 3.0 array variable one element of it, "Fz[2]" or "A[1,2]": one index per
 * <Dimension> in declaration order, each 1-based (FMI 3.0.2 §2.2.9: element indices start with
 * 1) and the elements counted row-major (§2.2.6.1, the order of the serialized values), spaces
 * allowed around indices. A name that some variable has is taken as it is (a structured name
 * such as "x[2]" of a scalar, §2.4.7.5). Array sizes are the <Dimension> start values or the
 * start values of their structural parameters (fmuc_sim_var_elements). */
#ifndef FMUC_CHECKS_ME_VARREF_H
#define FMUC_CHECKS_ME_VARREF_H

#include <stddef.h>

#include "fmuc/fmuc_md.h"

typedef struct fmuc_me_varref {
    size_t var;        /* index of the variable in md->vars */
    size_t element;    /* 0: the variable itself; else its 1-based element (row-major) */
    size_t nelements;  /* the variable's element count (1: a scalar) */
    char column[512];  /* the simulation result's column: the name, or "A[1,2]" (fmuc_sim.h) */
} fmuc_me_varref;

/** Resolves text (a spec's "what" entry, for messages: "energy") against md. 0 and *out, or -1
 *  with a message naming text and the reason in err (no variable of that name, an index on a
 *  scalar, the wrong number of indices, an index out of 1 .. size, a malformed index, an array
 *  named without an index when need_scalar). */
int fmuc_me__varref_parse(const fmuc_md *md, const char *what, const char *text, int need_scalar,
                          fmuc_me_varref *out, char *err, size_t errlen);

#endif
