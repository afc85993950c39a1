# A fixed local Enumeration with start 3, which is no Item value (B-213, derived).
s|  <LogCategories>|  <TypeDefinitions>\n    <SimpleType name="Mode"><Enumeration><Item name="off" value="0"/><Item name="on" value="1"/></Enumeration></SimpleType>\n  </TypeDefinitions>\n&|
s|</ModelVariables>|    <ScalarVariable name="mode" valueReference="0" causality="local" variability="fixed" initial="approx"><Enumeration declaredType="Mode" start="3"/></ScalarVariable>\n&|
