/* api-sandbox FMI 3.0 network fixture: the FMI 2.0 fixture's model built with SMD_SANDBOX_TCP
 * (DEFINES) on the FMI 3.0 glue: fmi3ExitInitializationMode connects to 127.0.0.1:9 (tool
 * policy: a warning). */
#include "../api-sandbox/model.c"
