/* api-resources-released fixture (FMI 1.0 CS): the model of ../api-resources-released (it takes
 * a block from the host's allocateMemory at every start and drops it) on the Co-Simulation 1.0
 * glue, where fmiFreeSlaveInstance is to free the slave's memory. */
#include "../api-resources-released/model.c"
