/* eq-determinism fixture (FMI 1.0 CS): the model of ../eq-determinism--global (position and
 * velocity kept in a static global shared by all instances of the process) on the
 * Co-Simulation 1.0 glue (canBeInstantiatedOnlyOncePerProcess="false"). */
#include "../eq-determinism--global/model.c"
