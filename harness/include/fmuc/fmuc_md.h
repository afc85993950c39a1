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

/** The FMI version of the document (from the root's fmiVersion: "1.0", "2.0", "3.x"). */
typedef enum {
    FMUC_FMI_UNKNOWN = 0, /* absent or not one of those: read as FMI 2.0 */
    FMUC_FMI1 = 1,
    FMUC_FMI2 = 2,
    FMUC_FMI3 = 3
} fmuc_fmi_version;

/** The kind of a variable's type, as the FMI 2.0 type elements name it. FMI 3.0's types map onto
 *  it (Float32/Float64 -> REAL, Int8..UInt64 -> INTEGER) and add BINARY and CLOCK; FMI 1.0's
 *  types are FMI 2.0's. The exact type is fmuc_md_var.base. */
typedef enum {
    FMUC_TYPE_NONE = 0, /* ScalarVariable without (or with an unknown) type element */
    FMUC_TYPE_REAL,
    FMUC_TYPE_INTEGER,
    FMUC_TYPE_BOOLEAN,
    FMUC_TYPE_STRING,
    FMUC_TYPE_ENUMERATION,
    FMUC_TYPE_BINARY, /* FMI 3.0 */
    FMUC_TYPE_CLOCK   /* FMI 3.0 */
} fmuc_type;

/** The exact base type of a variable (FMI 3.0 §2.4.7). FMI 2.0 and 1.0: Real -> FLOAT64,
 *  Integer -> INT32, Boolean, String, Enumeration. */
typedef enum {
    FMUC_BT_NONE = 0,
    FMUC_BT_FLOAT32,
    FMUC_BT_FLOAT64,
    FMUC_BT_INT8,
    FMUC_BT_UINT8,
    FMUC_BT_INT16,
    FMUC_BT_UINT16,
    FMUC_BT_INT32,
    FMUC_BT_UINT32,
    FMUC_BT_INT64,
    FMUC_BT_UINT64,
    FMUC_BT_BOOLEAN,
    FMUC_BT_STRING,
    FMUC_BT_BINARY,
    FMUC_BT_CLOCK,
    FMUC_BT_ENUMERATION,
    FMUC_BT_COUNT
} fmuc_base_type;

typedef enum {
    FMUC_CAUS_PARAMETER = 0,
    FMUC_CAUS_CALCULATED_PARAMETER,
    FMUC_CAUS_INPUT,
    FMUC_CAUS_OUTPUT,
    FMUC_CAUS_LOCAL,
    FMUC_CAUS_INDEPENDENT,
    FMUC_CAUS_INVALID, /* attribute present with an unknown value (an issue is recorded) */
    FMUC_CAUS_STRUCTURAL_PARAMETER, /* FMI 3.0 */
    FMUC_CAUS_NONE                  /* FMI 1.0 causality="none" (FMI 1.0 "internal" is LOCAL) */
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

/* One variable. FMI 1.0 is mapped as: causality internal -> LOCAL, none -> NONE; variability
 * parameter -> FIXED with causality PARAMETER (when internal; input stays INPUT); alias and
 * negatedAlias -> fmuc_md_var_ext.alias_kind (the members of a set share the valueReference,
 * as in FMI 2.0). The small fields are bit-fields: a million variables take 112 MB here. */
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
    uint32_t line;            /* line of <ScalarVariable> (FMI 3.0: of the variable element) */
    uint32_t type_line;       /* line of the type element (Real/Integer/...; FMI 3.0: = line) */
    uint32_t has : 23;        /* FMUC_HAS_* */
    uint32_t type : 4;        /* fmuc_type */
    uint32_t ext : 1;         /* has an fmuc_md_var_ext record (fmuc_md_var_ext_of) */
    uint32_t base : 4;        /* fmuc_base_type (NONE with type NONE) */
    uint32_t causality : 4;   /* fmuc_causality (default local applied) */
    uint32_t variability : 4; /* fmuc_variability (default continuous applied) */
    uint32_t initial : 4;     /* fmuc_initial as written (NONE when absent) */
    uint32_t flags : 8;       /* FMUC_FLAG_* values */
} fmuc_md_var;

/* FMI 3.0 <Dimension> of an array variable (§2.4.7.2): a fixed size or a structural parameter */
typedef struct fmuc_md_dim {
    uint64_t start;           /* fixed size when has_start */
    uint32_t value_reference; /* structural parameter when has_vr */
    uint32_t line;
    uint8_t has_start, has_vr;
} fmuc_md_dim;

/* FMI 3.0 <Alias> of a variable (§2.4.7.3) */
typedef struct fmuc_md_alias {
    const char *name, *description, *display_unit;
    uint32_t line;
} fmuc_md_alias;

enum { FMUC_ALIAS_NONE = 0, FMUC_ALIAS_ALIAS, FMUC_ALIAS_NEGATED }; /* FMI 1.0 alias attribute */

/* Clock attributes (FMI 3.0 §2.4.7.5); has_* bits in fmuc_md_var_ext.clock_has */
enum {
    FMUC_CLK_CAN_BE_DEACTIVATED = 1u << 0,
    FMUC_CLK_PRIORITY = 1u << 1,
    FMUC_CLK_INTERVAL_VARIABILITY = 1u << 2,
    FMUC_CLK_INTERVAL_DECIMAL = 1u << 3,
    FMUC_CLK_SHIFT_DECIMAL = 1u << 4,
    FMUC_CLK_SUPPORTS_FRACTION = 1u << 5,
    FMUC_CLK_RESOLUTION = 1u << 6,
    FMUC_CLK_INTERVAL_COUNTER = 1u << 7,
    FMUC_CLK_SHIFT_COUNTER = 1u << 8
};

typedef enum {
    FMUC_IV_NONE = 0, /* absent */
    FMUC_IV_CONSTANT,
    FMUC_IV_FIXED,
    FMUC_IV_TUNABLE,
    FMUC_IV_CHANGING,
    FMUC_IV_COUNTDOWN,
    FMUC_IV_TRIGGERED,
    FMUC_IV_INVALID
} fmuc_interval_variability;

/* What only some variables carry (FMI 3.0 arrays, aliases, clocks, Binary; FMI 1.0 aliases and
 * DirectDependency), kept beside the compact fmuc_md_var in document order. */
typedef struct fmuc_md_var_ext {
    uint32_t var;              /* 0-based index of the variable */
    uint32_t ndims;
    fmuc_md_dim *dims;
    uint32_t nstarts;          /* start values as a list (arrays; <Start value=...> elements) */
    const char **starts;
    uint32_t naliases;
    fmuc_md_alias *aliases;
    uint32_t nclocks;          /* clocks="vr ...": the clocks this variable belongs to */
    uint32_t *clocks;
    uint32_t previous;         /* previous="vr" (FMI 3.0) when has_previous */
    uint8_t has_previous;
    uint8_t alias_kind;        /* FMI 1.0: FMUC_ALIAS_* */
    uint8_t fmi1_fixed;        /* FMI 1.0 fixed attribute: 0 absent, 1 "false", 2 "true" */
    uint8_t intermediate_update, has_intermediate_update;
    /* Clock */
    uint16_t clock_has;        /* FMUC_CLK_* */
    uint8_t can_be_deactivated, supports_fraction;
    uint8_t interval_variability; /* fmuc_interval_variability */
    uint32_t priority;
    double interval_decimal, shift_decimal;
    uint64_t resolution, interval_counter, shift_counter;
    /* Binary */
    const char *mime_type;
    uint32_t max_size;
    uint8_t has_max_size;
    /* FMI 1.0 DirectDependency: input names (has_direct_dependency: the element was given) */
    uint8_t has_direct_dependency;
    uint32_t ndirect;
    const char **direct;
} fmuc_md_var_ext;

/* Kinds of ModelStructure unknowns (FMI 2.0 §2.2.8 lists; FMI 3.0 §2.4.8 elements) */
typedef enum {
    FMUC_UNK_OUTPUT = 0,
    FMUC_UNK_DERIVATIVE,     /* FMI 3.0 ContinuousStateDerivative */
    FMUC_UNK_CLOCKED_STATE,  /* FMI 3.0 (FMI 2.0 has no element: discrete states are implicit) */
    FMUC_UNK_INITIAL_UNKNOWN,
    FMUC_UNK_EVENT_INDICATOR,/* FMI 3.0 */
    FMUC_UNK_COUNT
} fmuc_unknown_kind;

/* ModelStructure unknown (§2.2.8) */
typedef struct fmuc_md_unknown {
    uint32_t index;          /* 1-based variable index; 0 when missing, not a number, or (FMI 3.0)
                              * no variable has the valueReference */
    uint32_t line;
    uint32_t ndeps;
    uint32_t nkinds;
    const uint32_t *deps;    /* ndeps indices as written (0 for an unparsable token); FMI 3.0:
                              * the valueReferences resolved to indices (0 when unknown) */
    const uint8_t *kinds;    /* nkinds fmuc_dep_kind */
    uint8_t has_deps;        /* dependencies attribute present */
    uint8_t has_kinds;       /* dependenciesKind attribute present */
    uint8_t kind;            /* fmuc_unknown_kind */
    uint32_t value_reference;/* FMI 3.0: as written */
    const uint32_t *deps_vr; /* FMI 3.0: dependencies as written (valueReferences); else NULL */
} fmuc_md_unknown;

typedef enum {
    FMUC_DEPKIND_DEPENDENT = 0,
    FMUC_DEPKIND_CONSTANT,
    FMUC_DEPKIND_FIXED,
    FMUC_DEPKIND_TUNABLE,
    FMUC_DEPKIND_DISCRETE,
    FMUC_DEPKIND_INVALID,
    FMUC_DEPKIND_CONSTANT_FMI3 = FMUC_DEPKIND_CONSTANT /* FMI 3.0 has the same five values */
} fmuc_dep_kind;

typedef struct fmuc_md_display_unit {
    const char *name;
    double factor, offset;
    uint32_t line;
    uint8_t inverse; /* FMI 3.0 inverse="true" */
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
    int64_t value; /* FMI 3.0: xs:long; 2.0: xs:int; 1.0: the item's number from 1 */
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
    uint8_t base;     /* fmuc_base_type (FMI 3.0 Float32Type ...; FMI 2.0/1.0 as for variables) */
    uint8_t has_max_size; /* FMI 3.0 BinaryType maxSize given */
    uint32_t max_size;
    uint32_t line;
    size_t nitems;
    fmuc_md_item *items;
} fmuc_md_type;

typedef struct fmuc_md_category {
    const char *name;
    const char *description;
    uint32_t line;
} fmuc_md_category;

/* Interfaces (FMI 3.0 adds ScheduledExecution) */
enum { FMUC_IF_ME = 1u << 0, FMUC_IF_CS = 1u << 1, FMUC_IF_SE = 1u << 2 };

/* Capability flags of the interfaces (FMI 2.0 §3.3.1, §4.3.1; FMI 3.0 §3.4, §4.4, §5.4; FMI 1.0
 * CoSimulation Capabilities), one table: fmuc_caps.def. */
typedef enum {
#define FMUC_CAP_DEF(id, a1, a2, a3, i1, i2, i3) FMUC_CAP_##id,
#include "fmuc/fmuc_caps.def"
#undef FMUC_CAP_DEF
    FMUC_CAP_COUNT
} fmuc_cap;

/** The flag's XML attribute in an FMI version (1, 2, 3), NULL when that version has none. */
const char *fmuc_md_cap_attr(fmuc_cap cap, int fmi_version);
/** The interfaces (FMUC_IF_*) that carry the flag in an FMI version (0: none). */
unsigned fmuc_md_cap_ifaces(fmuc_cap cap, int fmi_version);

typedef struct fmuc_md_interface {
    int present;
    uint32_t line;
    const char *model_identifier; /* NULL when absent */
    unsigned caps;                /* bit (1u << fmuc_cap): value, defaults applied (false) */
    unsigned caps_explicit;       /* bit (1u << fmuc_cap): attribute was given */
    unsigned max_output_derivative_order; /* CS */
    int has_max_output_derivative_order;
    /* FMI 3.0 CS */
    double fixed_internal_step_size;
    int has_fixed_internal_step_size;
    int recommended_intermediate_input_smoothness;
    int has_recommended_intermediate_input_smoothness;
    /* FMI 1.0 CoSimulation_Tool (0: CoSimulation_StandAlone) and its Model@entryPoint */
    int fmi1_tool;
    const char *fmi1_entry_point;
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
    fmuc_md_interface se;      /* FMI 3.0 ScheduledExecution */
    fmuc_fmi_version fmi;      /* from fmiVersion (UNKNOWN: read as FMI 2.0) */
    const char *instantiation_token; /* FMI 3.0 (also copied to guid) */
    const char *fmi1_model_identifier; /* FMI 1.0 root modelIdentifier (also on me/cs) */
    int has_number_of_continuous_states; /* FMI 1.0 */
    uint32_t number_of_continuous_states;

    size_t nunits;
    fmuc_md_unit *units;
    size_t ntypes;
    fmuc_md_type *types;
    size_t ncategories;
    fmuc_md_category *categories;
    fmuc_md_experiment experiment; /* what the runs use: the file's DefaultExperiment, or with
                                    * fmuc_md_override_stop_time its stopTime replaced */
    fmuc_md_experiment experiment_declared; /* as in the file; set when overridden */
    int experiment_overridden;
    size_t ntools;
    const char **tools;        /* VendorAnnotations/Tool@name */
    uint32_t *tool_lines;

    size_t nvars;
    fmuc_md_var *vars;         /* document order; index i is variable i+1 */

    int has_model_variables, has_model_structure;
    int has_outputs, has_derivatives, has_initial_unknowns; /* list element present */
    size_t noutputs, nderivatives, ninitial_unknowns;
    fmuc_md_unknown *outputs, *derivatives, *initial_unknowns;
    /* all unknowns, grouped by kind in fmuc_unknown_kind order (document order within a kind):
     * outputs, derivatives and initial_unknowns point into it */
    size_t nunknowns;
    fmuc_md_unknown *unknowns;
    size_t nclocked_states, nevent_indicators; /* FMI 3.0 */
    fmuc_md_unknown *clocked_states, *event_indicators;

    size_t nexts;
    fmuc_md_var_ext *exts;     /* ascending .var */

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

/** v as the shortest of %.15g / %.17g that reads back as v (messages naming attribute values);
 *  buf must hold 32 bytes. Returns buf. */
const char *fmuc_md_fmt_double(char buf[32], double v);

/** Runs end at stop instead of DefaultExperiment@stopTime (fmucheck --stop-time): md->experiment
 *  gets the new stop time (present, has_stop), the file's values stay in md->experiment_declared
 *  (fmuc_md_declared_experiment). 0, or -1 with why (naming the attribute) when stop is not a
 *  finite time after DefaultExperiment@startTime (else 0) or not longer than its stepSize. */
int fmuc_md_override_stop_time(fmuc_md *md, double stop, char *why, size_t whylen);

/** The DefaultExperiment as the file gives it (md->experiment unless overridden). */
const fmuc_md_experiment *fmuc_md_declared_experiment(const fmuc_md *md);

/** The extra record of variable i (0-based), NULL when it has none. */
const fmuc_md_var_ext *fmuc_md_var_ext_of(const fmuc_md *md, size_t i);

/** Name of a base type as FMI 3.0 writes it ("Float64", ...; "none"). */
const char *fmuc_md_base_type_name(fmuc_base_type t);
/** Name of an unknown kind as FMI 3.0 writes the element ("Output", ...). */
const char *fmuc_md_unknown_kind_name(fmuc_unknown_kind k);

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
