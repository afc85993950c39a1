# X10: both interfaces declare needsExecutionTool="true"
s/<ModelExchange modelIdentifier="\([^"]*\)"/<ModelExchange modelIdentifier="\1" needsExecutionTool="true"/
s/<CoSimulation modelIdentifier="\([^"]*\)"/<CoSimulation modelIdentifier="\1" needsExecutionTool="true"/
