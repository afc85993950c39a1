# A tunable local alias of the fixed parameter x0 (B-306, a recommendation).
s|</ModelVariables>|<ScalarVariable name="x0_t" valueReference="10" causality="local" variability="tunable"><Real unit="m"/></ScalarVariable>\n&|
