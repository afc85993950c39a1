# needsExecutionTool="true" without documentation/externalDependencies (A-28)
s|<CoSimulation modelIdentifier="BouncingBall"|& needsExecutionTool="true"|
