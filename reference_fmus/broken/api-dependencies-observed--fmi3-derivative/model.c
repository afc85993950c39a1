/* api-dependencies-observed--fmi3-derivative: the good SpringMassDamper on the FMI 3.0 glue (no
 * FMI 3.0 build of it is kept among the good FMUs); the defect is in xml.sed. */
#include "../../good/SpringMassDamper/model.c"
