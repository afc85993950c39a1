# an Enumeration without declaredType
s|</ModelVariables>|    <Enumeration name="mode" valueReference="9" causality="local" variability="discrete" initial="exact" start="1"/>\n&|
