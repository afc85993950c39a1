# a start attribute on a String (G-03): FMI 3.0 takes <Start value> children
s|</ModelVariables>|    <String name="label" valueReference="9" causality="parameter" variability="fixed" start="ball"/>\n&|
