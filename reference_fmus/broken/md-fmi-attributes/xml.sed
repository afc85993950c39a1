# variableNamingConvention is case-sensitive: "Flat" is not a valid value.
s|variableNamingConvention="flat"|variableNamingConvention="Flat"|
