# start 3 is no item value
s|  <LogCategories>|  <TypeDefinitions>\n    <EnumerationType name="Mode"><Item name="off" value="0"/><Item name="on" value="1"/></EnumerationType>\n  </TypeDefinitions>\n&|
s|</ModelVariables>|    <Enumeration name="mode" valueReference="9" declaredType="Mode" causality="local" variability="fixed" initial="approx" start="3"/>\n&|
