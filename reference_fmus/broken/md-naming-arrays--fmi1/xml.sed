# FMI 1.0 structured naming: p[1] (was m) and p[2] (was c) are separated by k (the elements of an
# array are listed consecutively, a recommendation).
s|variableNamingConvention="flat"|variableNamingConvention="structured"|
s|ScalarVariable name="m"|ScalarVariable name="p[1]"|
s|ScalarVariable name="c"|ScalarVariable name="p[2]"|
