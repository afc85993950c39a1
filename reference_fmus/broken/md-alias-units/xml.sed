# A local alias of the velocity v with unit m instead of m/s (B-305).
s|</ModelVariables>|<ScalarVariable name="v_alias" valueReference="2" causality="local" variability="continuous"><Real unit="m"/></ScalarVariable>\n&|
