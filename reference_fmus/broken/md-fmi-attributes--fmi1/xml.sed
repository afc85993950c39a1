# FMI 1.0: variableNamingConvention="tree" (flat or structured only).
s|variableNamingConvention="flat"|variableNamingConvention="tree"|
