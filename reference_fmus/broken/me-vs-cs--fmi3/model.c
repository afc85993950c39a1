/* me-vs-cs FMI 3.0 fixture: the FMI 2.0 fixture's model (BouncingBall whose Co-Simulation step
 * is the glue's plain RK4 without impacts) on the FMI 3.0 glue: the CS ball falls through the
 * floor while the ME ball bounces, so the two interfaces of one FMU disagree. */
#include "../me-vs-cs/model.c"
