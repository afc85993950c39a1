/* Helpers for the ModelStructure, alias and naming checks (checks/md_ms_*.c, md_alias_*.c,
 * md_naming_*.c, md_var_vr_unique.c): per-variable roles derived from ModelStructure, alias sets
 * (variables of one base type sharing a valueReference), and the structured-name grammar of
 * FMI 2.0.4 §2.2.9. Everything is O(N) or O(N log N) in the number of variables and unknowns. */
#ifndef FMUC_MD_MS_UTIL_H
#define FMUC_MD_MS_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "check.h"
#include "fmuc/fmuc_md.h"

/* Roles of a variable (fmuc_ms_roles.role[index1]) */
enum {
    FMUC_MS_STATE = 1u << 0,      /* continuous-time state: the derivative attribute of a valid
                                     Derivatives entry points to it (§2.2.8) */
    FMUC_MS_DERIV = 1u << 1,      /* listed in Derivatives (valid index) */
    FMUC_MS_IN_OUTPUTS = 1u << 2, /* listed in Outputs (valid index) */
    FMUC_MS_IN_INITIAL = 1u << 3  /* listed in InitialUnknowns (valid index) */
};

typedef struct fmuc_ms_roles {
    size_t n;       /* number of variables */
    uint8_t *role;  /* n + 1 entries, 1-based; role[0] unused */
} fmuc_ms_roles;

/** Compute the roles. Returns 0, or -1 when out of memory (*out is then empty). */
int fmuc_ms__roles(fmuc_ms_roles *out, const fmuc_md *md);
void fmuc_ms__roles_free(fmuc_ms_roles *r);

/** Is index1 a valid 1-based variable index? */
static inline int fmuc_ms__valid_index(const fmuc_md *md, uint32_t index1)
{
    return index1 >= 1 && (size_t)index1 <= md->nvars;
}

/** §2.2.8: "For Co-Simulation, <Derivatives> is ignored if capability flag
 *  providesDirectionalDerivative = false": a Co-Simulation-only FMU without that flag. Its
 *  Derivatives list defines no states for an importer, so nothing in it is judged. */
static inline int fmuc_ms__derivatives_ignored(const fmuc_md *md)
{
    return md->cs.present && !md->me.present &&
           !(md->cs.caps & (1u << FMUC_CAP_PROVIDES_DIRECTIONAL_DERIVATIVE));
}

/** Variable name for messages: the name, or "(unnamed)". */
const char *fmuc_ms__name(const fmuc_md_var *v);
/* "variable 'x' (vr 3, line 42)" in a format string, with its arguments */
#define FMUC_MS_VAR "variable '%s' (vr %u, line %u)"
#define FMUC_MS_VAR_ARGS(v) fmuc_ms__name(v), (unsigned)(v)->value_reference, (unsigned)(v)->line

/* Base C type of a variable type (value-reference name space, §2.1.2) */
enum { FMUC_MS_KIND_NONE = 0, FMUC_MS_KIND_REAL, FMUC_MS_KIND_INTEGER, FMUC_MS_KIND_BOOLEAN,
       FMUC_MS_KIND_STRING };
/** fmi2Real / fmi2Integer (Integer and Enumeration) / fmi2Boolean / fmi2String, or NONE. */
int fmuc_ms__base_kind(unsigned type);
const char *fmuc_ms__kind_name(int kind);

/** The three ModelStructure lists, addressed uniformly. */
typedef enum { FMUC_MS_OUTPUTS = 0, FMUC_MS_DERIVATIVES, FMUC_MS_INITIAL_UNKNOWNS } fmuc_ms_list_id;
typedef struct fmuc_ms_list {
    const char *name;          /* "Outputs", "Derivatives", "InitialUnknowns" */
    int present;
    size_t n;
    const fmuc_md_unknown *u;
} fmuc_ms_list;
void fmuc_ms__list(fmuc_ms_list *out, const fmuc_md *md, fmuc_ms_list_id id);

/** Called once per alias set (two or more variables of one base kind with the same
 *  valueReference). members: 1-based variable indices in document order. */
typedef void (*fmuc_ms_alias_fn)(const fmuc_md *md, int kind, uint32_t vr,
                                 const uint32_t *members, size_t n, void *payload);
/** Sort the variables by (base kind, valueReference, index) and call fn for every alias set.
 *  Variables without a parsed valueReference or without a type are ignored. Returns the number of
 *  alias sets, or -1 when out of memory (or at 2^29 - 1 variables, beyond the 512 MiB XML cap). */
long fmuc_ms__alias_sets(const fmuc_md *md, fmuc_ms_alias_fn fn, void *payload);
/** The same for a check: over the sorted variables the subject keeps (made once per FMU and
 *  shared by the md-alias-* checks), or as fmuc_ms__alias_sets without that cache. */
long fmuc_ms__alias_sets_of(const fmuc_subject *s, fmuc_ms_alias_fn fn, void *payload);
/** The parts: the variables sorted by (base kind, valueReference, index), one element each
 *  (kind << 61 | valueReference << 29 | 1-based index; malloc'ed, *n of them; NULL when out of
 *  memory), and the walk over them that calls fn per alias set. */
uint64_t *fmuc_ms__alias_sort(const fmuc_md *md, size_t *n);
long fmuc_ms__alias_walk(const fmuc_md *md, const uint64_t *sorted, size_t n, fmuc_ms_alias_fn fn,
                         void *payload);

/** "'a' (line 3), 'b' (line 7)" for the listed variables (1-based indices); at most 6 names,
 *  then ", ... (N in all)". Returns buf. */
const char *fmuc_ms__members_text(char *buf, size_t len, const fmuc_md *md,
                                  const uint32_t *members, size_t n);
#define FMUC_MS_MEMBERS_LEN 1024

/** Settable in the sense of §2.2.7 alias rules: variability != constant with initial exact or
 *  approx, or causality input, or a tunable parameter. */
int fmuc_ms__settable(const fmuc_md_var *v);

/* ---- structured names (§2.2.9) ---- */
/** Does name match the EBNF `name` production of variableNamingConvention="structured"?
 *  On 0, *where (if not NULL) receives the byte offset of the first character not matched. */
int fmuc_ms__structured_name(const char *name, size_t *where);
/** 1 when name is a structured "der(...)" name (grammar-valid). */
int fmuc_ms__is_der_name(const char *name);

#endif
