# variableNamingConvention is flat or structured
s|variableNamingConvention="flat"|variableNamingConvention="Flat"|
