# A second independent variable t2 (an alias of time, B-209).
s|</ModelVariables>|    <ScalarVariable name="t2" valueReference="0" causality="independent" variability="continuous"><Real unit="s"/></ScalarVariable>\n&|
