/* The in-memory model description: a compact, complete image of modelDescription.xml (FMI 2.0 §2.2).
 * Built by a streaming parse (fmuc_md_parse); every element keeps its source line; every attribute
 * keeps whether it was given explicitly. Strings live in an arena owned by the fmuc_md and stay valid
 * until fmuc_md_free. Lenient: syntax problems become fmuc_md_issue records, never aborts. */
#ifndef FMUC_MD_H
#define FMUC_MD_H

#include <stddef.h>
#include <stdint.h>

#include "fmuc/fmuc_err.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    FMUC_TYPE_NONE = 0, /* ScalarVariable without (or with an unknown) type element */
    FMUC_TYPE_REAL,
    FMUC_TYPE_INTEGER,
    FMUC_TYPE_BOOLEAN,
    FMUC_TYPE_STRING,
    FMUC_TYPE_ENUMERATION
} fmuc_type;

typedef enum {
    FMUC_CAUS_PARAMETER = 0,
    FMUC_CAUS_CALCULATED_PARAMETER,
    FMUC_CAUS_INPUT,
    FMUC_CAUS_OUTPUT,
    FMUC_CAUS_LOCAL,
    FMUC_CAUS_INDEPENDENT,
    FMUC_CAUS_INVALID /* attribute present with an unknown value (an issue is recorded) */
} fmuc_causality;

typedef enum {
    FMUC_VAR_CONSTANT = 0,
    FMUC_VAR_FIXED,
    FMUC_VAR_TUNABLE,
    FMUC_VAR_DISCRETE,
    FMUC_VAR_CONTINUOUS,
    FMUC_VAR_INVALID
} fmuc_variability;

typedef enum {
    FMUC_INIT_NONE = 0, /* attribute absent */
    FMUC_INIT_EXACT,
    FMUC_INIT_APPROX,
    FMUC_INIT_CALCULATED,
    FMUC_INIT_INVALID
} fmuc_initial;

/* ScalarVariable presence flags (fmuc_md_var.has) */
enum {
    FMUC_HAS_CAUSALITY = 1u << 0,   /* causality given explicitly */
    FMUC_HAS_VARIABILITY = 1u << 1, /* variability given explicitly */
    FMUC_HAS_START = 1u << 2,
    FMUC_HAS_MIN = 1u << 3,
    FMUC_HAS_MAX = 1u << 4,
    FMUC_HAS_NOMINAL = 1u << 5,
    FMUC_HAS_DERIVATIVE = 1u << 6,
    FMUC_HAS_REINIT = 1u << 7,
    FMUC_HAS_MULTISET = 1u << 8, /* canHandleMultipleSetPerTimeInstant given */
    FMUC_HAS_UNBOUNDED = 1u << 9,
    FMUC_HAS_RELATIVE_QUANTITY = 1u << 10,
    FMUC_HAS_DESCRIPTION = 1u << 11,
    FMUC_HAS_DECLARED_TYPE = 1u << 12,
    FMUC_HAS_UNIT = 1u << 13,
    FMUC_HAS_DISPLAY_UNIT = 1u << 14,
    FMUC_HAS_QUANTITY = 1u << 15,
    FMUC_HAS_VALUE_REFERENCE = 1u << 16, /* valueReference present and parsed */
    FMUC_HAS_NAME = 1u << 17,
    FMUC_HAS_SEVERAL_TYPES = 1u << 18 /* more than one type element (XSD violation) */
};

/* Boolean values of the flags in fmuc_md_var.flags */
enum {
    FMUC_FLAG_REINIT = 1u << 0,
    FMUC_FLAG_MULTISET = 1u << 1,
    FMUC_FLAG_UNBOUNDED = 1u << 2,
    FMUC_FLAG_RELATIVE_QUANTITY = 1u << 3
};

typedef struct fmuc_md_var {
    const char *name;         /* NULL when absent */
    const char *description;  /* NULL when absent */
    const char *declared_type;
    const char *quantity;
    const char *unit;
    const char *display_unit;
    const char *start_text;   /* start attribute exactly as written (all types); NULL when absent */
    double start;             /* Real start, or Integer/Enumeration/Boolean start as a number */
    double min, max, nominal; /* valid when the matching FMUC_HAS_* bit is set */
    /* FMUC_HAS_* bits mean "attribute given"; a given numeric value that is not valid for its
     * XSD type reads NaN here (and derivative/valueReference 0) with an ATTR_SYNTAX issue. */
    uint32_t value_reference;
    uint32_t derivative;      /* 1-based index of the state, 0 when absent */
    uint32_t line;            /* line of <ScalarVariable> */
    uint32_t type_line;       /* line of the type element (Real/Integer/...) */
    uint32_t has;             /* FMUC_HAS_* */
    uint8_t type;             /* fmuc_type */
    uint8_t causality;        /* fmuc_causality (default local applied) */
    uint8_t variability;      /* fmuc_variability (default continuous applied) */
    uint8_t initial;          /* fmuc_initial as written (NONE when absent) */
    uint8_t flags;            /* FMUC_FLAG_* values */
} fmuc_md_var;

/* ModelStructure unknown (§2.2.8) */
typedef struct fmuc_md_unknown {
    uint32_t index;          /* 1-based; 0 when missing or not a number */
    uint32_t line;
    uint32_t ndeps;
    uint32_t nkinds;
    const uint32_t *deps;    /* ndeps indices as written (0 for an unparsable token) */
    const uint8_t *kinds;    /* nkinds fmuc_dep_kind */
    uint8_t has_deps;        /* dependencies attribute present */
    uint8_t has_kinds;       /* dependenciesKind attribute present */
} fmuc_md_unknown;

typedef enum {
    FMUC_DEPKIND_DEPENDENT = 0,
    FMUC_DEPKIND_CONSTANT,
    FMUC_DEPKIND_FIXED,
    FMUC_DEPKIND_TUNABLE,
    FMUC_DEPKIND_DISCRETE,
    FMUC_DEPKIND_INVALID
} fmuc_dep_kind;

typedef struct fmuc_md_display_unit {
    const char *name;
    double factor, offset;
    uint32_t line;
} fmuc_md_display_unit;

typedef struct fmuc_md_unit {
    const char *name;
    uint32_t line;
    int has_base_unit;
    int exp[8]; /* kg, m, s, A, K, mol, cd, rad */
    double factor, offset;
    size_t ndisplay;
    fmuc_md_display_unit *display;
} fmuc_md_unit;

typedef struct fmuc_md_item {
    const char *name;
    const char *description;
    int value;
    int has_value;
    uint32_t line;
} fmuc_md_item;

typedef struct fmuc_md_type {
    const char *name;
    const char *description;
    const char *quantity, *unit, *display_unit;
    double min, max, nominal;
    uint32_t has;     /* FMUC_HAS_MIN/MAX/NOMINAL/UNIT/DISPLAY_UNIT/QUANTITY/UNBOUNDED/RELATIVE_QUANTITY */
    uint8_t flags;    /* FMUC_FLAG_UNBOUNDED / FMUC_FLAG_RELATIVE_QUANTITY */
    uint8_t type;     /* fmuc_type; NONE when the SimpleType has no (or several) type element */
    uint8_t ntypes;   /* number of type elements seen (1 is valid) */
    uint32_t line;
    size_t nitems;
    fmuc_md_item *items;
} fmuc_md_type;

typedef struct fmuc_md_category {
    const char *name;
    const char *description;
    uint32_t line;
} fmuc_md_category;

/* Capability flags of ModelExchange / CoSimulation (§3.3.1, §4.3.1) */
typedef enum {
    FMUC_CAP_NEEDS_EXECUTION_TOOL = 0,
    FMUC_CAP_COMPLETED_INTEGRATOR_STEP_NOT_NEEDED, /* ME */
    FMUC_CAP_CAN_BE_INSTANTIATED_ONLY_ONCE_PER_PROCESS,
    FMUC_CAP_CAN_NOT_USE_MEMORY_MANAGEMENT_FUNCTIONS,
    FMUC_CAP_CAN_GET_AND_SET_FMU_STATE,
    FMUC_CAP_CAN_SERIALIZE_FMU_STATE,
    FMUC_CAP_PROVIDES_DIRECTIONAL_DERIVATIVE,
    FMUC_CAP_CAN_HANDLE_VARIABLE_COMMUNICATION_STEP_SIZE, /* CS */
    FMUC_CAP_CAN_INTERPOLATE_INPUTS,                      /* CS */
    FMUC_CAP_CAN_RUN_ASYNCHRONUOUSLY,                     /* CS */
    FMUC_CAP_COUNT
} fmuc_cap;

typedef struct fmuc_md_interface {
    int present;
    uint32_t line;
    const char *model_identifier; /* NULL when absent */
    unsigned caps;                /* bit (1u << fmuc_cap): value, defaults applied (false) */
    unsigned caps_explicit;       /* bit (1u << fmuc_cap): attribute was given */
    unsigned max_output_derivative_order; /* CS */
    int has_max_output_derivative_order;
    size_t nsource_files;
    const char **source_files;
    int count;                    /* how many elements of this kind were seen (1 is valid) */
} fmuc_md_interface;

typedef struct fmuc_md_experiment {
    int present;
    uint32_t line;
    int has_start, has_stop, has_tolerance, has_step;
    double start_time, stop_time, tolerance, step_size;
} fmuc_md_experiment;

/* A syntax-level problem found while parsing; checks report them. */
typedef enum {
    FMUC_ISSUE_XML = 0,        /* not well-formed, encoding, DOCTYPE ... (parse may have stopped) */
    FMUC_ISSUE_ATTR_SYNTAX,    /* attribute value not of its XSD type (bad number, boolean, enum) */
    FMUC_ISSUE_ATTR_MISSING,   /* required attribute absent */
    FMUC_ISSUE_ATTR_UNKNOWN,   /* attribute not defined by the schema for this element */
    FMUC_ISSUE_ELEMENT_UNKNOWN,/* element not defined by the schema at this place */
    FMUC_ISSUE_ELEMENT_ORDER,  /* element out of the XSD order or repeated */
    FMUC_ISSUE_LIMIT,          /* a size limit of the parser was hit */
    FMUC_ISSUE_ELEMENT_MISSING /* required element absent, or a list element without children */
} fmuc_md_issue_kind;

typedef struct fmuc_md_issue {
    uint8_t kind;           /* fmuc_md_issue_kind */
    uint32_t line;
    const char *element;    /* element name */
    const char *attribute;  /* NULL for element-level issues */
    const char *value;      /* offending value, NULL if none */
    const char *message;    /* human-readable, names the thing */
} fmuc_md_issue;

/* A top-level child of fmiModelDescription in document order (for element-order checks). */
typedef struct fmuc_md_child {
    const char *name;
    uint32_t line;
} fmuc_md_child;

typedef struct fmuc_md {
    /* root attributes (§2.2.1); NULL when absent */
    const char *fmi_version;
    const char *model_name;
    const char *guid;
    const char *description, *author, *version, *copyright, *license;
    const char *generation_tool, *generation_date_and_time;
    const char *variable_naming_convention; /* as written; NULL means flat */
    const char *root_name;                  /* name of the root element */
    uint32_t root_line;
    int has_number_of_event_indicators;
    uint32_t number_of_event_indicators;

    fmuc_md_interface me, cs;

    size_t nunits;
    fmuc_md_unit *units;
    size_t ntypes;
    fmuc_md_type *types;
    size_t ncategories;
    fmuc_md_category *categories;
    fmuc_md_experiment experiment;
    size_t ntools;
    const char **tools;        /* VendorAnnotations/Tool@name */
    uint32_t *tool_lines;

    size_t nvars;
    fmuc_md_var *vars;         /* document order; index i is variable i+1 */

    int has_model_variables, has_model_structure;
    int has_outputs, has_derivatives, has_initial_unknowns; /* list element present */
    size_t noutputs, nderivatives, ninitial_unknowns;
    fmuc_md_unknown *outputs, *derivatives, *initial_unknowns;

    size_t nchildren;
    fmuc_md_child *children;   /* top-level elements in order */

    size_t nissues;
    fmuc_md_issue *issues;
    int parse_stopped;         /* a fatal XML error ended the parse early */

    /* facts of the document's bytes, recorded while it streamed through the parser */
    const char *root_fmi_version; /* fmiVersion of the root element, whatever its name (first
                                   * 63 bytes); NULL when absent or no root was read */
    int xml_all_ascii;         /* the whole document was read and every byte is ASCII (no NUL) */

    void *arena_;              /* private */
    size_t nissues_dropped;    /* issues found beyond limits.max_issues (not recorded) */
} fmuc_md;

/** Largest numberOfEventIndicators (and number of continuous states) the dynamic checks take on:
 *  buffers are sized by these counts, which come from the FMU, so they are capped. */
#define FMUC_MD_MAX_DYNAMIC_COUNT 1000000u

/** Limits the parser enforces; zero fields take defaults. */
typedef struct fmuc_md_limits {
    size_t max_bytes;       /* document size (default 512 MiB) */
    size_t max_variables;   /* default 10,000,000 */
    size_t max_depth;       /* element nesting (default 64) */
    size_t max_issues;      /* issues recorded before counting only (default 10,000) */
} fmuc_md_limits;

/** A source of the document's bytes: up to n bytes into buf; returns the count, 0 at the end,
 *  -1 on an error (the source keeps its own diagnostic). */
typedef long (*fmuc_md_read_fn)(void *ctx, char *buf, size_t n);

/** Parse modelDescription.xml as it is read from a source, holding only a small window of its
 *  bytes (never the whole text, never a DOM). size_hint: the expected size (UINT64_MAX when
 *  unknown), refused up front when over limits.max_bytes. The source is read to its end even
 *  when the parse stops early. Results as fmuc_md_parse. */
fmuc_err fmuc_md_parse_stream(fmuc_md *out, fmuc_md_read_fn read, void *ctx, uint64_t size_hint,
                              const fmuc_md_limits *limits);

/** Parse modelDescription.xml from memory. Returns FMUC_OK when a model was built (it may still
 *  carry issues), FMUC_EXML when not even the root could be read (detail in out->issues),
 *  FMUC_ENOMEM on allocation failure. *out is always initialised and must be freed. */
fmuc_err fmuc_md_parse(fmuc_md *out, const char *xml, size_t len, const fmuc_md_limits *limits);

/** Free everything the model owns. */
void fmuc_md_free(fmuc_md *md);

/** Variable by 1-based index, NULL when out of range. */
const fmuc_md_var *fmuc_md_var_at(const fmuc_md *md, uint32_t index1);

/** Names for enum values as written in the XML ("parameter", "continuous", "exact", "Real"). */
const char *fmuc_md_causality_name(fmuc_causality c);
const char *fmuc_md_variability_name(fmuc_variability v);
const char *fmuc_md_initial_name(fmuc_initial i);
const char *fmuc_md_type_name(fmuc_type t);
const char *fmuc_md_cap_name(fmuc_cap cap);

/** Name of a dependenciesKind value ("dependent" ...) and of an issue kind ("attr-syntax"). */
const char *fmuc_md_dep_kind_name(fmuc_dep_kind k);
const char *fmuc_md_issue_kind_name(fmuc_md_issue_kind k);

/** Read only the root element's fmiVersion attribute into out (truncated to outsz). FMUC_OK when
 *  found, FMUC_ERROR when the root has none, FMUC_EXML when unreadable or with a DOCTYPE. */
fmuc_err fmuc_md_peek_fmi_version(char *out, size_t outsz, const char *xml, size_t len);

/** The effective `initial` of a variable per the §2.2.7 table (explicit value, or the default
 *  of its causality × variability cell); FMUC_INIT_NONE where initial must be absent. */
fmuc_initial fmuc_md_effective_initial(const fmuc_md_var *v);

#ifdef __cplusplus
}
#endif
#endif /* FMUC_MD_H */
