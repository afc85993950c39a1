/* eq-fmu-state--lost-velocity fixture: the variable-step integrator-restart model
 * (hostile/integrator-restart), whose fmi2SetFMUstate also keeps the velocity it had instead of
 * restoring it: a real state loss, which does not shrink with the tolerance. */
#define VS_LOSE_VELOCITY
#include "../../hostile/integrator-restart/model.c"
