# A local Integer counter without variability, so it defaults to continuous (B-204, G-08).
s|</ModelVariables>|    <ScalarVariable name="n" valueReference="0" causality="local"><Integer/></ScalarVariable>\n&|
