/* fmi3_glue_sp: structural parameters and the arrays they dimension, for the FMI 3.0 glue
 * (fmi3_glue.c; FMI 3.0.2 §2.4.7.2, Configuration Mode §3.2/§4.2). A structural parameter of the
 * model table is a fixed UInt64 (FMUC_M_STRUCTURAL_PARAMETER, storage uint64_t); an array names it
 * in fmuc_m_var.dim_param and has .dim elements of storage (the parameter's max). The current
 * element count is the parameter's value in the instance's data block. These helpers work on
 * the model table and the data block only (no instance record), so the state machine stays in
 * fmi3_glue.c. */
#ifndef FMUC_FMI3_GLUE_SP_H
#define FMUC_FMI3_GLUE_SP_H

#include <stddef.h>

#include "fmuc_model.h"

/* Number of structural parameters of the model (0: Configuration Mode is refused). */
size_t fmuc_g3sp_count(const fmuc_m_desc *d);

/* v is an array: .dim > 1 or sized by a structural parameter (also when it now has 1 element). */
int fmuc_g3sp_is_array(const fmuc_m_var *v);

/* Elements of v now: the current value of its structural parameter (at most its storage .dim),
 * else .dim (1 for a scalar). */
size_t fmuc_g3sp_elements(const fmuc_m_desc *d, const void *data, const fmuc_m_var *v);

/* Elements of v with every structural parameter at its start value (the modelDescription's
 * sizes). */
size_t fmuc_g3sp_elements_at_start(const fmuc_m_desc *d, const fmuc_m_var *v);

/* Number of event indicators now: the desc's n_event_indicators, or, when an event indicator
 * variable is sized by a structural parameter, the sum of the event indicator variables' current
 * element counts. */
size_t fmuc_g3sp_event_indicators(const fmuc_m_desc *d, const void *data);

/* Why v may not be set now for the rules of structural parameters (NULL: those rules allow it;
 * the caller's other rules still apply outside Configuration Mode): in Configuration Mode only
 * structural parameters (§3.2 note 12), outside it never a (fixed) structural parameter. */
const char *fmuc_g3sp_not_settable(const fmuc_m_var *v, int configuration_mode);

/* After fmi3ExitConfigurationMode: every array sized by a structural parameter gets its start
 * value in each element of its storage again (a resize invalidates the old values, §2.4.7.2). */
void fmuc_g3sp_resize(const fmuc_m_desc *d, void *data);

#endif
