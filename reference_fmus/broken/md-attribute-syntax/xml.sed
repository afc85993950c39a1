# A boolean capability flag with a value that is not an xs:boolean (B-005).
s|\(<ModelExchange [^>]*\)canNotUseMemoryManagementFunctions="false"|\1canNotUseMemoryManagementFunctions="no"|
