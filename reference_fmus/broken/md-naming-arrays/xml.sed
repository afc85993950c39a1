# Structured naming; p[1] (was m) and p[2] (was c) are separated by k (B.9, recommendation).
s|variableNamingConvention="flat"|variableNamingConvention="structured"|
s|ScalarVariable name="m"|ScalarVariable name="p[1]"|
s|ScalarVariable name="c"|ScalarVariable name="p[2]"|
