/* me-energy-residual--fmi3 fixture: the me-energy-residual fixture's SpringMassDamper (damping
 * force 1.02 * c while c stays 3 N.s/m, so E decays faster than c*v^2 dissipates) on the FMI 3.0
 * glue. Needs the run option --energy-spec (fmucheck.args). */
#include "../me-energy-residual/model.c"
