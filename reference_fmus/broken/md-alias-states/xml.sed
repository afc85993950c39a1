# CS only (the state count differs from the binary's otherwise); a second state x_b (index 12)
# aliasing the state x, with its derivative der(x_b) (index 13) aliasing der(x) (B-301).
/<ModelExchange /d
s|</ModelVariables>|<ScalarVariable name="x_b" valueReference="1" causality="local" variability="continuous"><Real unit="m"/></ScalarVariable>\n<ScalarVariable name="der(x_b)" valueReference="3" causality="local" variability="continuous"><Real unit="m/s" derivative="12"/></ScalarVariable>\n&|
s|</Derivatives>|<Unknown index="13" dependencies="3"/>\n&|
s|</InitialUnknowns>|<Unknown index="12" dependencies="11"/>\n<Unknown index="13" dependencies="3"/>\n&|
