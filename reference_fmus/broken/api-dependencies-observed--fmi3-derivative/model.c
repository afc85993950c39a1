/* api-dependencies-observed--fmi3-derivative: the good SpringMassDamper on the FMI 3.0 glue (as
 * build/fmus/fmi3/good/SpringMassDamper.fmu); the defect is in xml.sed. */
#include "../../good/SpringMassDamper/model.c"
