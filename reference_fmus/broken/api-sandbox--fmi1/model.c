/* api-sandbox FMI 1.0 fixture: the FMI 2.0 fixture's model (SpringMassDamper whose
 * initialization creates files in $HOME, /tmp, its resources/ folder and the report folder,
 * removing each at once) as a Co-Simulation 1.0 FMU: fmiInitializeSlave runs the same hook. */
#include "../api-sandbox/model.c"
