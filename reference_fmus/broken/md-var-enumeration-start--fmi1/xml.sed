# FMI 1.0: Items carry no value, they are numbered 1, 2, ... in order; an Enumeration variable of
# type Mode (off = 1, on = 2) with start 3, no Item's value.
s|</UnitDefinitions>|</UnitDefinitions>\n  <TypeDefinitions>\n    <Type name="Mode"><EnumerationType><Item name="off"/><Item name="on"/></EnumerationType></Type>\n  </TypeDefinitions>|
s|  </ModelVariables>|    <ScalarVariable name="mode" valueReference="0" variability="parameter" causality="internal">\n      <Enumeration declaredType="Mode" start="3"/>\n    </ScalarVariable>\n&|
