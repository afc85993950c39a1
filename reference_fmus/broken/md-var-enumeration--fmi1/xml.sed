# FMI 1.0: an internal discrete Enumeration variable without declaredType (required by
# fmiScalarVariable.xsd for Enumeration).
s|  </ModelVariables>|    <ScalarVariable name="mode" valueReference="0" variability="discrete" causality="internal">\n      <Enumeration/>\n    </ScalarVariable>\n&|
