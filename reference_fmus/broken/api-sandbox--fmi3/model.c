/* api-sandbox FMI 3.0 fixture: the FMI 2.0 fixture's model (SpringMassDamper whose
 * initialization creates files in $HOME, /tmp, its resources/ folder and the report folder,
 * removing each at once) on the FMI 3.0 glue: fmi3ExitInitializationMode runs the same hook.
 * The write in resources/ breaks a must of FMI 3.0.2 (§2.5.1.5): the check fails. */
#include "../api-sandbox/model.c"
