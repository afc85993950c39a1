/* Private interface of the model-description parsers: the shared streaming core (md_parse.c:
 * byte window, libxml2 reader loop, issues, attribute syntax, element order) and one element
 * parser per FMI version (md_parse_fmi1.c, md_parse_fmi2.c, md_parse_fmi3.c) that fills the
 * version-neutral fmuc_md. The short helper names below are macros for fmuc_md__<name>. */
#ifndef FMUC_MD_PARSE_INTERNAL_H
#define FMUC_MD_PARSE_INTERNAL_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>

#include "fmuc/fmuc_md.h"
#include "md_arena.h"

enum {
    DEF_MAX_BYTES = 512u * 1024 * 1024,
    DEF_MAX_VARS = 10000000,
    DEF_MAX_DEPTH = 64,
    DEF_MAX_ISSUES = 10000,
    MAX_VALUE_COPY = 256, /* bytes of an offending value kept in an issue */
    MAX_NAME_COPY = 128
};

typedef struct frame {
    uint8_t st, kind;
    uint8_t aux;       /* SourceFiles: 1 when inside CoSimulation */
    int8_t last_rank;  /* order rank of the last child seen (-1: none) */
    uint32_t nchild;   /* child elements seen */
    uint32_t line;
    unsigned seen;     /* per-parent bitset of once-only children */
} frame;

typedef struct parser parser;

/* What a version's parser does with elements: start (the current element: p->elem, p->line,
 * attributes through for_attrs; depth 0 is the root), end (pops the top frame) and, when not
 * NULL, text (character data: FMI 1.0's DirectDependency names). */
typedef struct fmuc_md__ops {
    void (*start)(parser *p);
    void (*end)(parser *p);
    const char *schema;
    void (*text)(parser *p, const char *s); /* character data inside the top element, or NULL */ /* "FMI 2.0": named in messages about unknown elements and attributes */
    int fmi; /* 1, 2 or 3: selects the per-version names of md_parse_common.c */
} fmuc_md__ops;

extern const fmuc_md__ops fmuc_md__fmi1_ops, fmuc_md__fmi2_ops, fmuc_md__fmi3_ops;

struct parser {
    const fmuc_md__ops *ops;
    const char *schema;
    fmuc_md *md;
    fmuc_md__arena *ar;
    xmlTextReaderPtr r;
    fmuc_md_limits lim;
    frame *stack;
    size_t depth;
    size_t cap_vars, cap_issues, cap_units, cap_disp, cap_types, cap_items, cap_cats, cap_tools,
        cap_children, cap_src[3], cap_unk[FMUC_UNK_COUNT], cap_exts, cap_list;
    int oom, stop;
    uint32_t line;    /* line of the current element */
    const char *elem; /* its name (libxml2 dictionary string; copied when kept) */
    int sv_vr_seen;
    /* The document streams through a window: bytes come from the source (src), are handed to
     * libxml2 by io_read and kept until the start-tag cursor has passed them. The cursor gives
     * exact start-tag lines, advanced one start tag per element (libxml2 keeps only 16-bit
     * element lines, at the end of the start tag). Offsets are absolute in the document. */
    fmuc_md_read_fn src;
    void *src_ctx;
    char *win;
    size_t win_off, win_len, win_cap; /* win[0] is document byte win_off; win_len bytes held */
    size_t fed;                       /* bytes handed to libxml2 (absolute) */
    size_t raw_pos;                   /* cursor (absolute) */
    uint64_t total;                   /* bytes read from the source */
    int src_eof, src_err, too_big;
    int non_ascii;                    /* a byte >= 0x80 or NUL was read */
    size_t pro_i;                     /* prolog scan: next window offset, state, line */
    int pro_state;                    /* 0 between constructs, 1 in a PI, 2 in a comment */
    uint32_t pro_line;
    uint32_t raw_line;
    int raw_ok;
    int root_seen;
    size_t dropped;
    char root_version[64];            /* fmiVersion of the first element, whatever its name */
    int root_version_seen;
    /* short strings that repeat (start values, units, declared types, quantities) are kept once:
     * a direct-mapped cache of arena copies, by hash */
    const char *icache[4096];
};

/* ---- helpers of the core (md_parse.c) ---- */
#define grow fmuc_md__grow
#define append fmuc_md__append
#define dup_n fmuc_md__dup_n
#define dup fmuc_md__dup
#define dup_i fmuc_md__dup_i
#define issue_at fmuc_md__issue_at
#define shorten fmuc_md__shorten
#define attr_double fmuc_md__attr_double
#define attr_int fmuc_md__attr_int
#define attr_uint fmuc_md__attr_uint
#define attr_bool fmuc_md__attr_bool
#define lookup fmuc_md__lookup
#define attr_enum fmuc_md__attr_enum
#define a_none fmuc_md__a_none
#define unknown_attr fmuc_md__unknown_attr
#define missing_attr fmuc_md__missing_attr
#define for_attrs fmuc_md__for_attrs
#define count_tokens fmuc_md__count_tokens
#define next_token fmuc_md__next_token
#define unknown_element fmuc_md__unknown_element
#define order_issue fmuc_md__order_issue
#define child_order fmuc_md__child_order
#define push fmuc_md__push
#define empty_list fmuc_md__empty_list
#define causality_names fmuc_md__causality_names
#define variability_names fmuc_md__variability_names
#define initial_names fmuc_md__initial_names
#define depkind_names fmuc_md__depkind_names
#define type_names fmuc_md__type_names
#define fmi2_base fmuc_md__fmi2_base
/* ---- what the version parsers share (md_parse_common.c) ---- */
#define attr_uint0 fmuc_md__attr_uint0
#define attr_flag fmuc_md__attr_flag
#define start_root fmuc_md__start_root
#define a_root_info fmuc_md__a_root_info
#define note_root_child fmuc_md__note_root_child
#define end_root fmuc_md__end_root
#define leaf_child fmuc_md__leaf_child
#define a_cap fmuc_md__a_cap
#define a_defexp fmuc_md__a_defexp
#define start_defexp fmuc_md__start_defexp
#define start_root_section fmuc_md__start_root_section
#define a_name_desc fmuc_md__a_name_desc
#define start_unit fmuc_md__start_unit
#define a_baseunit fmuc_md__a_baseunit
#define start_display_unit fmuc_md__start_display_unit
#define start_category fmuc_md__start_category
#define start_named_type fmuc_md__start_named_type
#define a_flag fmuc_md__a_flag
#define a_type_real fmuc_md__a_type_real
#define a_var_real fmuc_md__a_var_real
#define a_var_common fmuc_md__a_var_common
#define start_var_common fmuc_md__start_var_common
#define var_required fmuc_md__var_required
#define second_type fmuc_md__second_type
#define ext_of_last fmuc_md__ext_of_last
#define ext_push fmuc_md__ext_push
#define u32_list fmuc_md__u32_list
#define depkind_list fmuc_md__depkind_list

int grow(parser *p, void **arr, size_t *cap, size_t need, size_t elsz);
/** Append one zeroed element to a growing array: its address, or NULL (p->oom set). */
void *append(parser *p, void **arr, size_t *cap, size_t *n, size_t elsz);
const char *dup_n(parser *p, const char *s, size_t max);
const char *dup(parser *p, const char *s);
/** dup for values that often repeat (units, start values): equal strings may be shared. */
const char *dup_i(parser *p, const char *s);
void issue_at(parser *p, int kind, uint32_t line, const char *elem, const char *attr,
              const char *value, const char *fmt, ...) __attribute__((format(printf, 7, 8)));
#define ISSUE(p, kind, attr, value, ...) issue_at(p, kind, (p)->line, (p)->elem, attr, value, __VA_ARGS__)
const char *shorten(char buf[80], const char *v);
double attr_double(parser *p, const char *attr, const char *v);
int attr_int(parser *p, const char *attr, const char *v, int32_t *out);
int attr_uint(parser *p, const char *attr, const char *v, uint32_t *out);
int attr_bool(parser *p, const char *attr, const char *v, int *out);
int lookup(const char *v, const char *const *names, int n);
int attr_enum(parser *p, const char *attr, const char *v, const char *const *names, int n);
int a_none(parser *p, const char *n, const char *v, void *obj);
void unknown_attr(parser *p, const char *attr, const char *v);
void missing_attr(parser *p, const char *attr);
/** Iterate the attributes of the current element: fn returns 1 when it knows the attribute. */
typedef int (*attr_fn)(parser *p, const char *name, const char *value, void *obj);
void for_attrs(parser *p, attr_fn fn, void *obj);
size_t count_tokens(const char *v);
int next_token(const char **s, char *buf, size_t bufsz, int *truncated);
void unknown_element(parser *p, const char *parent);
void order_issue(parser *p, const char *parent, int repeated);
int child_order(parser *p, frame *f, const char *parent, int rank, int once);
void push(parser *p, uint8_t st, uint8_t k);
void empty_list(parser *p, frame *f, const char *list, const char *child);

extern const char *const causality_names[6];
extern const char *const variability_names[5];
extern const char *const initial_names[3];
extern const char *const depkind_names[5];
extern const char *const type_names[8];
extern const uint8_t fmi2_base[6];

/* ---- shared by the version parsers (md_parse_common.c); the version is p->ops->fmi ---- */
/** An xs:unsignedInt attribute's value, 0 when invalid (an issue is recorded). */
uint32_t attr_uint0(parser *p, const char *attr, const char *v);
/** 1 when a boolean attribute is valid and true (an issue is recorded when invalid). */
int attr_flag(parser *p, const char *attr, const char *v);
/** The root element: records it; 0 when it is <fmiModelDescription>, else -1 (issue). */
int start_root(parser *p);
/** Root attributes common to the versions (description ... variableNamingConvention). */
int a_root_info(parser *p, const char *n, const char *v);
/** Record the current element as a child of the root (fmuc_md.children). */
void note_root_child(parser *p);
/** When the root ends: the missing ModelVariables / ModelStructure issues. */
void end_root(parser *p, const frame *f);
/** A child element of an element that has none in the schema. */
void leaf_child(parser *p);
/** A capability flag attribute: 1 handled, 0 a flag not of this interface (iface 0: any),
 *  -1 not a capability flag. */
int a_cap(parser *p, const char *n, const char *v, fmuc_md_interface *itf, unsigned iface);
int a_defexp(parser *p, const char *n, const char *v, void *obj);
/** <DefaultExperiment>: fills md->experiment. */
void start_defexp(parser *p);
/** A section child of the root (2.0, 3.0): DefaultExperiment's attributes are read,
 *  ModelVariables/ModelStructure noted, the others have no attributes. */
void start_root_section(parser *p);
/** name and description into const char *[2] */
int a_name_desc(parser *p, const char *n, const char *v, void *obj);
/** <Unit>, <DisplayUnit>, <Category>: append and read; -1 when out of memory. */
int start_unit(parser *p);
int a_baseunit(parser *p, const char *n, const char *v, void *obj);
int start_display_unit(parser *p);
int start_category(parser *p);
/** <SimpleType> (2.0) / <Type> (1.0): append, read name and description; NULL when oom. */
fmuc_md_type *start_named_type(parser *p);
/** Where a boolean attribute of a_flag stands: a Real type definition, a Real variable, any
 *  variable. */
enum { FLAG_ON_REAL_TYPE = 1, FLAG_ON_REAL_VAR = 2, FLAG_ON_VAR = 4 };
/** A boolean attribute with a presence bit and a flag (relativeQuantity, unbounded, reinit,
 *  canHandleMultipleSetPerTimeInstant) of this version standing on `on`: 1 when n is one (the
 *  FMUC_HAS_* bit or-ed into *has, the FMUC_FLAG_* bit into *flags when true), else 0. */
int a_flag(parser *p, const char *n, const char *v, unsigned on, uint32_t *has, uint8_t *flags);
/** Real-type attributes of a type definition (quantity ... unbounded). */
int a_type_real(parser *p, const char *n, const char *v, fmuc_md_type *t);
/** Real-type attributes of a variable (unit, displayUnit, nominal, relativeQuantity ...). */
int a_var_real(parser *p, const char *n, const char *v, fmuc_md_var *var);
/** name, valueReference, description, causality, variability, initial, multi-set. */
int a_var_common(parser *p, const char *n, const char *v, fmuc_md_var *var);
/** A new variable (LOCAL, CONTINUOUS, line), or NULL (limit reached: parse stopped; oom). */
fmuc_md_var *start_var_common(parser *p);
/** The missing name / valueReference issues of a variable. */
void var_required(parser *p, const fmuc_md_var *v);
/** A second type element of a ScalarVariable. */
void second_type(parser *p, fmuc_md_var *v);
/** The extra record of the last variable (created on first use), or NULL. */
fmuc_md_var_ext *ext_of_last(parser *p);
/** Grow a list of an extra record by one zeroed element. */
void *ext_push(parser *p, void **arr, uint32_t *n, size_t elsz);
/** Whitespace-separated xs:unsignedInt / dependenciesKind lists into arena arrays. */
uint32_t *u32_list(parser *p, const char *attr, const char *v, uint32_t *count);
uint8_t *depkind_list(parser *p, const char *attr, const char *v, uint32_t *count);

#endif
