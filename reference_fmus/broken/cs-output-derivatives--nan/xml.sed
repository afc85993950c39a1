# CoSimulation declares maxOutputDerivativeOrder="2"
s|<CoSimulation modelIdentifier="SpringMassDamper" canHandleVariableCommunicationStepSize="true"|& maxOutputDerivativeOrder="2"|
