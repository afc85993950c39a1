# canInterpolateInputs (a Co-Simulation attribute) on ModelExchange.
s|<ModelExchange modelIdentifier="SpringMassDamper"|& canInterpolateInputs="false"|
