# three start values for two elements (B-255)
s|</ModelVariables>|    <Float64 name="arr" valueReference="9" causality="parameter" variability="fixed" start="1 2 3"><Dimension start="2"/></Float64>\n&|
