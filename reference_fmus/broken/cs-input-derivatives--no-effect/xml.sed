# CoSimulation declares canInterpolateInputs="true", but the glue accepts
# fmi2SetRealInputDerivatives without using the derivatives (no effect, FMI 2.0.4 §4.3.1)
s|<CoSimulation modelIdentifier="SpringMassDamper" canHandleVariableCommunicationStepSize="true"|& canInterpolateInputs="true"|
