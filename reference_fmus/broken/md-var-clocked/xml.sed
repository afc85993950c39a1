# clocks names the parameter g, not a Clock (B-223)
s|</ModelVariables>|    <Int32 name="count" valueReference="9" causality="local" variability="discrete" initial="exact" start="0" clocks="5"/>\n&|
