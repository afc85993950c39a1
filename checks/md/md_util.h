/* Helpers shared by the static modelDescription checks (checks/md_*.c): hash maps over the
 * model's arena strings, number formatting, variable descriptions for messages, the FMI 2.0
 * causality x variability x initial table (§2.2.7), declaredType resolution and the routing of
 * parser issues (fmuc_md.issues) to the one check that reports each of them.
 * Cross-file internals: read-only reuse by other check files is welcome. */
#ifndef FMUC_MD_UTIL_H
#define FMUC_MD_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "check.h"
#include "fmuc/fmuc_md.h"
#include "fmuc/fmuc_result.h"

/* ---- string -> index map (keys are borrowed, not copied; open addressing, FNV-1a) ---- */
/* A slot keeps 32 bits of the key's hash beside it: a probe reads one slot, and a key string only
 * when the hashes agree (at a million keys every other read is a cache miss). */
typedef struct fmuc_mdu_slot {
    const char *key; /* NULL = empty slot */
    uint32_t hash;
    uint32_t val;
} fmuc_mdu_slot;
typedef struct fmuc_mdu_map {
    size_t cap, n;       /* cap is a power of two, or 0 */
    fmuc_mdu_slot *slots;
} fmuc_mdu_map;

/** Prepare a map for about `expected` keys (it grows when needed). 0 or -1 (out of memory). */
int fmuc_mdu__map_init(fmuc_mdu_map *m, size_t expected);
/** Insert key -> val unless key is present. Returns 1 when inserted, 0 when the key was already
 *  there (*existing, if not NULL, receives its stored value), -1 when out of memory or val does
 *  not fit 32 bits. */
int fmuc_mdu__map_put(fmuc_mdu_map *m, const char *key, size_t val, size_t *existing);
/** 1 and *val when found, else 0. */
int fmuc_mdu__map_get(const fmuc_mdu_map *m, const char *key, size_t *val);
void fmuc_mdu__map_free(fmuc_mdu_map *m);
/** Init m and map the name of every archive entry of zl to its index. 0 or -1 (out of memory). */
int fmuc_mdu__map_entries(fmuc_mdu_map *m, const fmuc_zip_listing *zl);

/* ---- the set of variable names, 8 bytes a slot (a million names: 12 MiB) ---- */
/* A slot holds 32 bits of the name's hash and the variable's index + 1; the name itself is read
 * from md->vars only when the hashes agree. The table is 1.5 times the number of variables. */
typedef struct fmuc_mdu_nameset {
    size_t cap, n;
    uint64_t *slots; /* (hash32 << 32) | (index + 1); 0 = empty */
    const fmuc_md *md;
} fmuc_mdu_nameset;

int fmuc_mdu__nameset_init(fmuc_mdu_nameset *m, const fmuc_md *md);
/** Insert variable i (0-based; its name must not be NULL). 1 when inserted, 0 when a variable
 *  with that name is there already (*existing: its index), -1 when full or out of range. */
int fmuc_mdu__nameset_put(fmuc_mdu_nameset *m, size_t i, size_t *existing);
void fmuc_mdu__nameset_free(fmuc_mdu_nameset *m);

/* ---- uint64 -> size_t map (same contract) ---- */
typedef struct fmuc_mdu_imap {
    size_t cap, n;
    uint64_t *keys;
    size_t *vals;
    unsigned char *used;
} fmuc_mdu_imap;

int fmuc_mdu__imap_init(fmuc_mdu_imap *m, size_t expected);
int fmuc_mdu__imap_put(fmuc_mdu_imap *m, uint64_t key, size_t val, size_t *existing);
int fmuc_mdu__imap_get(const fmuc_mdu_imap *m, uint64_t key, size_t *val);
void fmuc_mdu__imap_free(fmuc_mdu_imap *m);

/** 64-bit FNV-1a of a string (NULL hashes like ""). */
uint64_t fmuc_mdu__hash(const char *s);

/* ---- formatting ---- */
/** "variable 'x' (vr 3, line 42)" into buf (name shortened to 200 bytes). Returns buf. */
const char *fmuc_mdu__var_desc(char *buf, size_t n, const fmuc_md_var *v);
#define FMUC_MDU_DESC_LEN 288
/** Printable string: NULL -> "(absent)". */
const char *fmuc_mdu__str(const char *s);
/** xs:hexBinary (FMI 3.0 Binary <Start value>): an even number of hexadecimal digits, blanks
 * around allowed (whiteSpace collapse). 1 if valid, with *nbytes the decoded length; 0 if not,
 * with *where the offset of the first offending character. */
int fmuc_mdu__hex_binary(const char *v, size_t *where, size_t *nbytes);

/** Names as written in the XML ("Real", "parameter", "continuous", "exact"); "?" if invalid. */
const char *fmuc_mdu__type_name(unsigned t);
const char *fmuc_mdu__causality_name(unsigned c);
const char *fmuc_mdu__variability_name(unsigned v);
const char *fmuc_mdu__initial_name(unsigned i);

/* ---- §2.2.7 tables ---- */
/** causality x variability is one of the 15 valid cells (INVALID values give 0). */
int fmuc_mdu__cell_valid(unsigned causality, unsigned variability);
/** Default `initial` of a valid cell (FMUC_INIT_NONE where initial must be absent). */
fmuc_initial fmuc_mdu__initial_default(unsigned causality, unsigned variability);
/** Is `initial` (FMUC_INIT_NONE = absent) allowed in that valid cell? */
int fmuc_mdu__initial_allowed(unsigned causality, unsigned variability, unsigned initial);
/** Cell valid and initial allowed: the start rules (B-207/B-208) are meaningful. */
int fmuc_mdu__var_consistent(const fmuc_md_var *v);
/** Effective initial: explicit value or the cell default (call only when consistent). */
fmuc_initial fmuc_mdu__var_initial(const fmuc_md_var *v);

/* ---- declaredType resolution ---- */
/** Map SimpleType name -> index into md->types (first occurrence wins). 0 or -1 (ENOMEM). */
int fmuc_mdu__types_map(fmuc_mdu_map *m, const fmuc_md *md);
/** The SimpleType a variable's declaredType names, or NULL (absent / unknown name). */
const fmuc_md_type *fmuc_mdu__var_type(const fmuc_md *md, const fmuc_mdu_map *types,
                                       const fmuc_md_var *v);
/** Map Unit name -> index into md->units. 0 or -1. */
int fmuc_mdu__units_map(fmuc_mdu_map *m, const fmuc_md *md);

/** Attribute values in effect for a variable: its own, else those of its declaredType when the
 *  type is of the same kind (§2.2.7: variable attributes override the type's). */
typedef struct fmuc_mdu_eff {
    int has_min, has_max, has_nominal;
    double min, max, nominal;
    const char *unit, *display_unit; /* NULL when neither gives one */
} fmuc_mdu_eff;
void fmuc_mdu__effective(fmuc_mdu_eff *e, const fmuc_md_var *v, const fmuc_md_type *t);

/* ---- parser issues ---- */
/** The id of the check that reports this issue ("md-well-formed" for XML issues, etc.). */
const char *fmuc_mdu__issue_owner(const fmuc_md *md, const fmuc_md_issue *is);
/** Report every issue owned by check_id as a violation. Returns how many were reported. */
size_t fmuc_mdu__report_issues(const fmuc_md *md, const char *check_id, fmuc_result *res);
/** Is there an issue of `kind` for element/attribute (attribute NULL = any) at line? Linear; use
 *  fmuc_mdu__issue_keys for many look-ups. */
int fmuc_mdu__issue_at(const fmuc_md *md, unsigned kind, const char *element,
                       const char *attribute, uint32_t line);
/** Key of (kind, attribute, line) for a set of issues (element-independent). */
uint64_t fmuc_mdu__issue_key(unsigned kind, const char *attribute, uint32_t line);
/** Fill a set with the keys of every issue of `kind` (0 or -1). */
int fmuc_mdu__issue_keys(fmuc_mdu_imap *set, const fmuc_md *md, unsigned kind);

/** 1 when s is a valid xs:dateTime (XSD 1.0 lexical form, blanks around allowed);
 *  *utc_form (may be NULL) is set to 1 when it is exactly YYYY-MM-DDThh:mm:ss[.s+]Z. */
int fmuc_mdu__parse_datetime(const char *s, int *utc_form);

/** Is s an xs:double special literal (NaN/INF/+INF/-INF, any case, surrounding blanks)? */
int fmuc_mdu__is_special_double(const char *s);


/* ---- ModelStructure, alias and naming helpers ----------------------------------------------
   Helpers for the ModelStructure, alias and naming checks (checks/md_ms_*.c, md_alias_*.c,
 * md_naming_*.c, md_var_vr_unique.c): per-variable roles derived from ModelStructure, alias sets
 * (variables of one base type sharing a valueReference), and the structured-name grammar of
 * FMI 2.0.4 §2.2.9. Everything is O(N) or O(N log N) in the number of variables and unknowns. */

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

/* A finding of a rule that FMI 1.0 has only as a derived or tool rule (../shared/fmi1-rules.md
 * levels D, T, U) where FMI 2.0 states it: it fails a 2.0 FMU, warns for a 1.0 FMU. */
#define FMUC_MDU_VIOLATION_V1_WARN(md, res, ...)                                                   \
    (((md)->fmi == FMUC_FMI1 ? fmuc_result_warn : fmuc_result_violation)(res, __VA_ARGS__))
/* ---- FMI 3.0 helpers ---- */
/** The variable's type as its version writes it: "Float64", "Int8" ... (FMI 3.0), "Real" ... */
const char *fmuc_mdu__var_type_name(const fmuc_md *md, const fmuc_md_var *v);
/** The element a variable is written as: "ScalarVariable" (FMI 2.0), "Float64" ... (FMI 3.0). */
const char *fmuc_mdu__var_element(const fmuc_md *md, const fmuc_md_var *v);
/** The element of a type definition: "SimpleType" (FMI 2.0), "Float64Type" ... (FMI 3.0). */
const char *fmuc_mdu__type_element(const fmuc_md *md, const fmuc_md_type *t, char *buf,
                                   size_t n);
/** Is v's explicit initial allowed in its cell, by its version's table (FMI 3.0 also allows
 *  initial="exact" on inputs)? */
int fmuc_mdu__initial_allowed_md(const fmuc_md *md, const fmuc_md_var *v);
/** A ModelStructure entry for messages: "Outputs/Unknown index=3 (line 40)" (FMI 2.0, list is
 *  the list's name) or "<Output valueReference="5"> (line 40)" (FMI 3.0). Returns buf. */
const char *fmuc_mdu__unknown_desc(char *buf, size_t n, const fmuc_md *md, const char *list,
                                   const fmuc_md_unknown *u);
#define FMUC_MDU_UNK_LEN 96

/** The variables sorted by valueReference ((vr << 32) | 0-based index, malloc'ed, *n of them;
 *  NULL when out of memory), and the first variable with valueReference vr in it (NULL: none). */
uint64_t *fmuc_mdu__vr_sort(const fmuc_md *md, size_t *n);
const fmuc_md_var *fmuc_mdu__vr_find(const fmuc_md *md, const uint64_t *keys, size_t n,
                                     uint32_t vr);

#endif
