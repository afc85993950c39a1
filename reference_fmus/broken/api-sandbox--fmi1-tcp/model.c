/* api-sandbox FMI 1.0 network fixture: the FMI 2.0 fixture's model built with SMD_SANDBOX_TCP
 * (DEFINES) as a Co-Simulation 1.0 FMU: fmiInitializeSlave connects to 127.0.0.1:9. */
#include "../api-sandbox/model.c"
