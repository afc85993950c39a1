# derivative names no valueReference (§2.4.7.5)
s|</ModelVariables>|    <Float64 name="w" valueReference="9" causality="local" variability="continuous" initial="calculated" derivative="99"/>\n&|
