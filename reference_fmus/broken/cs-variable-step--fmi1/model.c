/* cs-variable-step fixture (FMI 1.0 CS): the model of ../cs-variable-step (its step always
 * integrates 0.01 s) on the Co-Simulation 1.0 glue, which declares
 * canHandleVariableCommunicationStepSize="true" from the model's capabilities. */
#include "../cs-variable-step/model.c"
