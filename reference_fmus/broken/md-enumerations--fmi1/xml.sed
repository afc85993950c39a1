# FMI 1.0: an EnumerationType with two Items named "on".
s|</UnitDefinitions>|</UnitDefinitions>\n  <TypeDefinitions>\n    <Type name="Switch"><EnumerationType><Item name="on"/><Item name="on"/></EnumerationType></Type>\n  </TypeDefinitions>|
