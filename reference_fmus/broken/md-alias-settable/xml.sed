# A second input F2 sharing the valueReference of the input F (B-302, G-18).
s|</ModelVariables>|<ScalarVariable name="F2" valueReference="6" causality="input" variability="continuous"><Real unit="N" start="0"/></ScalarVariable>\n&|
