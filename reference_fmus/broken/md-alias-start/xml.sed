# A constant x0c aliasing the fixed parameter x0 (same value, B-304).
s|</ModelVariables>|<ScalarVariable name="x0c" valueReference="10" causality="local" variability="constant" initial="exact"><Real unit="m" start="0.05"/></ScalarVariable>\n&|
