# ModelExchange declares canNotUseMemoryManagementFunctions="true", but fmi2Instantiate needs
# allocateMemory/freeMemory (it returns NULL without them; FMI 2.0.4 §2.1.5)
s|\(<ModelExchange modelIdentifier="SpringMassDamper".*\)canNotUseMemoryManagementFunctions="false"|\1canNotUseMemoryManagementFunctions="true"|
