# FMI 1.0: structured naming with the name "x y" (not an identifier, not quoted).
s|variableNamingConvention="flat"|variableNamingConvention="structured"|
s|name="x" valueReference="2"|name="x y" valueReference="2"|
