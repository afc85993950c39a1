# a second variable with valueReference 8 (B-202)
s|</ModelVariables>|    <Int32 name="bounces" valueReference="8" causality="local" variability="discrete" initial="exact" start="0"/>\n&|
