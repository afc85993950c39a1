# A local discrete Enumeration variable without declaredType (B-213).
s|</ModelVariables>|    <ScalarVariable name="mode" valueReference="0" causality="local" variability="discrete"><Enumeration/></ScalarVariable>\n&|
