# FMI 1.0 CS: the Capabilities declare canNotUseMemoryManagementFunctions="true", but
# fmiInstantiateSlave needs allocateMemory/freeMemory (it returns NULL without them)
s|canNotUseMemoryManagementFunctions="false"|canNotUseMemoryManagementFunctions="true"|
