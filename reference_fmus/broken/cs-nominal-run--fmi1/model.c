/* cs-nominal-run fixture (FMI 1.0 CS): the model of ../cs-nominal-run (its step fails from
 * t = 1 s in Co-Simulation) on the Co-Simulation 1.0 glue: fmiDoStep returns fmiError. */
#include "../cs-nominal-run/model.c"
