# CoSimulation declares canNotUseMemoryManagementFunctions="true" (the FMU allocates without the
# callbacks, DEFINES)
s|\(<CoSimulation modelIdentifier="SpringMassDamper".*\)canNotUseMemoryManagementFunctions="false"|\1canNotUseMemoryManagementFunctions="true"|
