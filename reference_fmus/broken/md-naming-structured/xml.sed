# Structured naming with a name containing a blank (B.9 EBNF).
s|variableNamingConvention="flat"|variableNamingConvention="structured"|
s|ScalarVariable name="x0"|ScalarVariable name="x0 initial"|
