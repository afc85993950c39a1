# Structured naming: the Integer variable der(n) is named like a derivative (B.9, VDMCheck).
s|variableNamingConvention="flat"|variableNamingConvention="structured"|
