# FMI 1.0 structured naming: the Integer output counter is renamed der(n), the name of a
# derivative, which is Real (a tool heuristic).
s|variableNamingConvention="flat"|variableNamingConvention="structured"|
s|ScalarVariable name="counter"|ScalarVariable name="der(n)"|
