# CoSimulation declares canInterpolateInputs="true" (FMI 2.0.4 §4.3.1)
s|<CoSimulation modelIdentifier="SpringMassDamper" canHandleVariableCommunicationStepSize="true"|& canInterpolateInputs="true"|
