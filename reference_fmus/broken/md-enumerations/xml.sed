# An (unused) Enumeration type with two Items of the same value (B-109).
s|  <LogCategories>|  <TypeDefinitions>\n    <SimpleType name="Mode"><Enumeration><Item name="off" value="0"/><Item name="on" value="0"/></Enumeration></SimpleType>\n  </TypeDefinitions>\n&|
