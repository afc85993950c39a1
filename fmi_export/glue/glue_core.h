/* glue_core: the version-neutral part of the fmuc FMU glue (issue 17: one core, per-version API
 * surfaces). The FMI 1.0 (fmi1_*_glue.c), 2.0 (fmi2_glue.c) and 3.0 (fmi3_glue.c) glues keep their
 * own instance records, state machines and status types; what the standards do alike, over the
 * model table (fmuc_model.h), lives here once. Statuses are passed as int: fmiStatus, fmi2Status
 * and fmi3Status share the codes OK 0, Warning 1, Discard 2, Error 3, Fatal 4 (worst = largest).
 * Nothing here is exported from an FMU (C_VISIBILITY_PRESET hidden, version scripts). */
#ifndef FMUC_GLUE_CORE_H
#define FMUC_GLUE_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "fmuc_model.h"

/* The variable of type t with value reference vr (NULL: none). */
const fmuc_m_var *fmuc_gc_find_vr(const fmuc_m_desc *d, unsigned vr, fmuc_m_type t);

/* "Real", "Integer", "Boolean", "String". */
const char *fmuc_gc_type_name(fmuc_m_type t);

/* 1 when x is NaN or outside v's min/max (FMUC_DEFECT_NO_RANGE_CHECK: never). */
int fmuc_gc_out_of_range(const fmuc_m_var *v, double x);

/* Every variable's start value (arrays: in every element) into the data block; not the
 * independent variable. */
void fmuc_gc_write_starts(const fmuc_m_desc *d, void *data);

/* 1 when s has only blanks (space, tab, newline, carriage return). */
int fmuc_gc_blank(const char *s);

/* FNV-1a 64 over n bytes (the FMU state blobs' checksum). */
uint64_t fmuc_gc_fnv64(const void *p, size_t n);

/* The log category of a status: logEvents (OK), logStatusWarning/Discard/Error/Fatal,
 * logStatusPending (anything above Fatal). */
const char *fmuc_gc_status_category(int status);

/* x[i] = the Real (double) variable of table index idx[i], i < n; and back. */
void fmuc_gc_read_reals(const fmuc_m_desc *d, const void *data, const size_t *idx, size_t n,
                        double *x);
void fmuc_gc_write_reals(const fmuc_m_desc *d, void *data, const size_t *idx, size_t n,
                         const double *x);

/* The absolute path of a file: URI (file:///abs, file:/abs, file://localhost/abs; %XX decoded,
 * %00 refused; trailing '/' removed) in a buffer of its length + extra bytes from
 * alloc(arg, size) (zeroed, as the hosts' allocators are); *len = the path's length (no NUL
 * written). NULL with *why set when the URI is not such a URI or memory is short.
 * FMUC_DEFECT_URI_AUTHORITY_ONLY / FMUC_DEFECT_URI_NO_DECODE: the broken variants. */
typedef void *(*fmuc_gc_alloc_fn)(void *arg, size_t size);
typedef void (*fmuc_gc_free_fn)(void *arg, void *p);
char *fmuc_gc_file_uri_path(const char *uri, size_t extra, fmuc_gc_alloc_fn alloc,
                            fmuc_gc_free_fn release, void *arg, size_t *len, const char **why);

/* The co-simulation fixed-step stepper: classical RK4 over nx states from tc to tc + h in
 * n = max(1, ceil(h / hmax - 1e-9)) substeps of h/n (hmax <= 0: one step). work holds 6*nx
 * doubles; work[0..nx) the states at tc on entry and, when the result is OK or Warning, the
 * states at tc + h on return. deriv(inst, t, x, dx) evaluates the model (worst status wins; a
 * status above Warning ends the step at once and is returned). */
typedef int (*fmuc_gc_deriv_fn)(void *inst, double t, const double *x, double *dx);
int fmuc_gc_rk4(void *inst, fmuc_gc_deriv_fn deriv, size_t nx, double *work, double hmax,
                double tc, double h);

#endif
