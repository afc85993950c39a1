/* me-no-hidden-state fixture, FMI 1.0 ME: the FMI 3.0 fixture's model (BouncingBall with a call
 * counter in der(v)) with a Model Exchange-only descriptor. */
#define FMUC_FIXTURE_FMI1_ME 1
#include "../me-no-hidden-state--fmi3/model.c"
