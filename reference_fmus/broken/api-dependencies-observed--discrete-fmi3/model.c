/* api-dependencies-observed--discrete-fmi3 fixture: the model of
 * ../api-dependencies-observed--discrete on the FMI 3.0 glue with a Boolean input "gear"
 * (DEFINES: FMUC_DD_BOOLEAN) instead of the Integer one: E = m v^2/2 + k x^2/2 + 0.5 gear moves
 * when gear flips, while its <ModelStructure><Output> still declares dependencies="x v"
 * (FMI 3.0.2 §2.4.8). Model Exchange sets gear in Event Mode (fmi3UpdateDiscreteStates),
 * Co-Simulation at a communication point. */
#include "../api-dependencies-observed--discrete/model.c"
