/* api-dependencies-observed fixture, FMI 3.0: the model of ../api-dependencies-observed (the
 * SpringMassDamper whose output E = m v^2/2 + k x^2/2 + F x also contains the work of the input
 * force) on the FMI 3.0 glue: its <ModelStructure><Output> for E still declares
 * dependencies="x v" (valueReferences 1 2), so E has a direct feedthrough from F that the
 * model structure hides (FMI 3.0.2 §2.4.8). Seen in both interfaces. */
#include "../api-dependencies-observed/model.c"
