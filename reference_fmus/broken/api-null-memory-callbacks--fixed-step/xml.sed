# CoSimulation declares canNotUseMemoryManagementFunctions="true" and no variable step size; the
# default experiment holds 5 steps of 0.01 (fewer than the check's 10)
s|\(<CoSimulation modelIdentifier="SpringMassDamper".*\)canNotUseMemoryManagementFunctions="false"|\1canNotUseMemoryManagementFunctions="true"|
s|canHandleVariableCommunicationStepSize="true"|canHandleVariableCommunicationStepSize="false"|
s|<DefaultExperiment startTime="0" stopTime="2" stepSize="0.01"/>|<DefaultExperiment startTime="0" stopTime="0.05" stepSize="0.01"/>|
